// ULX3S (LFE5U-85F-6BG381C) top: 25 MHz oscillator, UART through the on-board FTDI USB serial
// port (115200 baud), LEDs 0..3 = busy, irq, error, heartbeat. docs/fpga.md "Boards".
module ulx3s_top #(
  // gmmu_top configuration (make fpga passes FPGA_CONFIG's values with -G)
  parameter int unsigned NumSm          = 2,
  parameter int unsigned NumPorts       = 2,
  parameter int unsigned L1Entries      = 8,
  parameter int unsigned L1LargeEntries = 2,
  parameter int unsigned L1ReqEntries   = 4,
  parameter int unsigned L2Sets         = 4,
  parameter int unsigned L2Ways         = 2,
  parameter int unsigned L2LargeEntries = 2,
  parameter int unsigned L2Latency      = 3,
  parameter int unsigned L2MshrEntries  = 4,
  parameter int unsigned NumWalkers     = 2,
  parameter int unsigned FfEntries      = 4,
  parameter int unsigned FfQuota        = 2,
  parameter int unsigned NumAsids       = 1
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
    .NumSm          (NumSm),
    .NumPorts       (NumPorts),
    .L1Entries      (L1Entries),
    .L1LargeEntries (L1LargeEntries),
    .L1ReqEntries   (L1ReqEntries),
    .L2Sets         (L2Sets),
    .L2Ways         (L2Ways),
    .L2LargeEntries (L2LargeEntries),
    .L2Latency      (L2Latency),
    .L2MshrEntries  (L2MshrEntries),
    .NumWalkers     (NumWalkers),
    .FfEntries      (FfEntries),
    .FfQuota        (FfQuota),
    .NumAsids       (NumAsids),
    .ClkKhz        (25000),
    .ClkDiv        (217),       // 25 MHz / 115200
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
