// OrangeCrab r0.2 (LFE5U-25F-8MG285C) top: 48 MHz oscillator divided by 2 (24 MHz logic clock,
// see docs/fpga.md), UART on the Feather header (GPIO 0 = rx, GPIO 1 = tx, 3.3 V: connect a USB
// serial adapter; the board's own USB goes straight to the FPGA), RGB LED (active low):
// red = error, green = busy, blue = irq.
module orangecrab_top #(
  // gmmu_top configuration (generated from spec/params.toml; make fpga passes the board's
  // configuration's values with -G)
  `include "gmmu_top_params.svh"
  ,
  // the host link's UART rate: make fpga passes the board's rate of fpga/boards/links.toml (the
  // one source of truth, also of gmmu-board --board); 0 = not set, which gmmu_board refuses
  parameter int unsigned Baud = 0
) (
  input  logic clk48,
  input  logic gpio_0,  // rx
  output logic gpio_1,  // tx
  output logic rgb_led0_r,
  output logic rgb_led0_g,
  output logic rgb_led0_b
);
  logic clk_div_q, clk, rst_n;
  logic [3:0] led_d;

  // 24 MHz from a toggle flip-flop (no reset: 0 after configuration)
  always_ff @(posedge clk48) begin
    clk_div_q <= !clk_div_q;
  end
  assign clk = clk_div_q;

  gmmu_board_por u_por (
    .clk_i  (clk),
    .rst_no (rst_n)
  );

  gmmu_board #(
    `include "gmmu_top_params_pass.svh"
    ,
    .ClkKhz        (24000),
    .Baud          (Baud),
    .TimeoutCycles (2400000),  // 100 ms
    .FramesW       (6),
    .PtPagesW      (3)
  ) u_board (
    .clk_i     (clk),
    .rst_ni    (rst_n),
    .uart_rx_i (gpio_0),
    .uart_tx_o (gpio_1),
    .led_o     (led_d)
  );

  logic unused_heartbeat;
  assign unused_heartbeat = led_d[3];
  assign rgb_led0_r = !led_d[2];
  assign rgb_led0_g = !led_d[0];
  assign rgb_led0_b = !led_d[1];
endmodule
