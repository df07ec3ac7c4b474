// Power-on reset for the board tops: rst_no stays low for 2^(CntW-1) cycles after configuration.
// The counter has no reset of its own: ECP5 flip-flops are 0 after configuration.
module gmmu_board_por #(
  parameter int unsigned CntW = 8
) (
  input  logic clk_i,
  output logic rst_no
);
  logic [CntW-1:0] cnt_q;
  always_ff @(posedge clk_i) begin
    if (!cnt_q[CntW-1]) begin
      cnt_q <= cnt_q + 1'b1;
    end
  end
  assign rst_no = cnt_q[CntW-1];
endmodule
