// binds gmmu_acc_props into gmmu_acc (formal/acc.sby)
bind gmmu_acc gmmu_acc_props u_acc_props (.*);
