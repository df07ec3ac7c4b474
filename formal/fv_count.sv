// gmmu_count against the one-chain loop it replaces (docs/fpga.md "Finding the paths before
// placement"): for every input vector, count_o equals `if (bits[i] && c != Sat) c = c + 1` over
// all N bits (Sat = 0: no saturation). Combinational: proved at depth 1 for the far-fault unit's
// paper-like shapes (32 bits; Sat 0 and 4; chains of 16) and for N not a multiple of Chain.
module fv_count (
  input logic        clk_i,
  input logic [31:0] bits_i,
  input logic [4:0]  odd_i
);
  logic [5:0] c_all, r_all;
  logic [2:0] c_q4, r_q4;
  logic [2:0] c_odd, r_odd;

  gmmu_count #(.N(32), .Chain(16)) u_all (.bits_i(bits_i), .count_o(c_all));
  gmmu_count #(.N(32), .Sat(4), .Chain(16)) u_q4 (.bits_i(bits_i), .count_o(c_q4));
  gmmu_count #(.N(5), .Sat(3), .Chain(2)) u_odd (.bits_i(odd_i), .count_o(c_odd));

  always_comb begin : p_ref
    r_all = '0;
    r_q4  = '0;
    r_odd = '0;
    for (int unsigned i = 0; i < 32; i++) begin
      if (bits_i[i]) r_all = r_all + 1'b1;
      if (bits_i[i] && r_q4 != 3'd4) r_q4 = r_q4 + 1'b1;
    end
    for (int unsigned i = 0; i < 5; i++) begin
      if (odd_i[i] && r_odd != 3'd3) r_odd = r_odd + 1'b1;
    end
  end

  // immediate assertions in an always_comb: checked in every step (also step 0 of a depth-1 BMC)
  always_comb begin : p_check
    a_count_all: assert (c_all == r_all);
    a_count_q4:  assert (c_q4 == r_q4);
    a_count_odd: assert (c_odd == r_odd);
  end
  logic unused_clk;
  assign unused_clk = clk_i;
endmodule
