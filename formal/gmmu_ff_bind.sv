// binds gmmu_ff_props into gmmu_ff (AssumeEnv: 1 for the block proofs, 0 inside gmmu_top, set
// with the macro FV_TOP by the .sby script)
`ifdef FV_TOP
  `define FV_FF_ASSUME 1'b0
`else
  `define FV_FF_ASSUME 1'b1
`endif
bind gmmu_ff gmmu_ff_props #(
  .NumSm     (NumSm),
  .FfEntries (FfEntries),
  .FfQuota   (FfQuota),
  .AssumeEnv (`FV_FF_ASSUME)
) u_ff_props (.*);
