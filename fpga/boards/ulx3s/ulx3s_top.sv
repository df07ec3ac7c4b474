// ULX3S (LFE5U-85F-6BG381C) top: 25 MHz oscillator, UART through the on-board FTDI USB serial
// port (rate: fpga/boards/links.toml), LEDs 0..3 = busy, irq, error, heartbeat.
// docs/fpga.md "Boards".
module ulx3s_top #(
  // gmmu_top configuration (generated from spec/params.toml; make fpga passes the board's
  // configuration's values with -G)
  `include "gmmu_top_params.svh"
  ,
  // the host link's UART rate: make fpga passes the board's rate of fpga/boards/links.toml (the
  // one source of truth, also of gmmu-board --board); 0 = not set, which gmmu_board refuses
  parameter int unsigned Baud = 0
) (
  input  logic       clk_25mhz,
  input  logic       ftdi_txd,   // from the FTDI: the board receives
  output logic       ftdi_rxd,   // to the FTDI: the board sends
  output logic [7:0] led
);
  logic rst_n;
  logic [3:0] led_d;

  gmmu_board_por u_por (
    .clk_i  (clk_25mhz),
    .rst_no (rst_n)
  );

  gmmu_board #(
    `include "gmmu_top_params_pass.svh"
    ,
    .ClkKhz        (25000),
    .Baud          (Baud),
    .TimeoutCycles (2500000)    // 100 ms, as LiteX's UARTBone
  ) u_board (
    .clk_i     (clk_25mhz),
    .rst_ni    (rst_n),
    .uart_rx_i (ftdi_txd),
    .uart_tx_o (ftdi_rxd),
    .led_o     (led_d)
  );

  assign led = {4'b0000, led_d};
endmodule
