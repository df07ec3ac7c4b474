rtl/gen/gmmu_pkg.sv
rtl/gmmu_plru.sv
rtl/gmmu_csr.sv
rtl/gmmu_l1_tlb.sv
rtl/gmmu_l2_tlb.sv
rtl/gmmu_ptw.sv
rtl/gmmu_ff.sv
rtl/gmmu_top.sv
