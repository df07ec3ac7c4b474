// Reset in the first cycle only (bound into the top module of every block proof).
module fv_reset (input logic clk_i, input logic rst_ni);
  logic init = 1'b1;
  always_ff @(posedge clk_i) init <= 1'b0;
  always_comb assume (rst_ni == !init);
endmodule
