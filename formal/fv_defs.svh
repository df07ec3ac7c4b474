// Shared macros of the formal property modules (formal/*.sv). Read by yosys-slang only.
// FV_ENV(name, expr): an input assumption of a block proof. A checker bound into a block that
// is proved on its own (AssumeEnv = 1) assumes it; bound inside gmmu_top (AssumeEnv = 0) the
// neighbouring RTL block drives that input, so the same expression is asserted instead
// (assume-guarantee: the assumption of one proof is a proved property of the next level).
`define FV_ENV(name, expr) \
  always_comb if (rst_ni) begin \
    if (AssumeEnv) begin name``_env_a: assume (expr); end \
    else begin name``_env_p: assert (expr); end \
  end
// FV_ASSERT(name, expr): a property checked in every reset-free cycle
`define FV_ASSERT(name, expr) \
  always_comb if (rst_ni) begin name: assert (expr); end
