// binds gmmu_l1_req_props into gmmu_l1_req_table (AssumeEnv 0 under FV_TOP, see gmmu_ff_bind.sv)
`ifdef FV_TOP
  `define FV_REQ_ASSUME 1'b0
`else
  `define FV_REQ_ASSUME 1'b1
`endif
bind gmmu_l1_req_table gmmu_l1_req_props #(
  .NumPorts  (NumPorts),
  .Entries   (Entries),
  .AssumeEnv (`FV_REQ_ASSUME)
) u_req_props (
  .clk_i, .rst_ni, .ready_o, .out_valid_o, .out_id_o, .out_fatal_o, .send_valid_o, .send_gnt_i,
  .busy_o, .replay_i, .cancel_valid_i, .rsp_valid_i, .rsp_nack_i (rsp_i.nack), .alloc_i,
  .alloc_id_i, .flush_all_i (flush_i.all), .flush_page_i (flush_i.page),
  .state_flat ({>>{state_q}}), .ent_q, .alloc_fail, .free_cnt, .out_idx, .send_idx
);
