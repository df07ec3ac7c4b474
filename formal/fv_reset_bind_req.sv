bind gmmu_l1_req_table fv_reset u_fv_reset (.clk_i, .rst_ni);
