// ULX3S (LFE5U-85F-6BG381C) top: 25 MHz oscillator, UART through the on-board FTDI USB serial
// port (rate: fpga/boards/links.toml), LEDs 0..3 = busy, irq, error, heartbeat.
// The logic clock is ClkKhz: the oscillator itself at 25000, otherwise an EHXPLLL's output.
// docs/fpga.md "Boards".
module ulx3s_top #(
  // gmmu_top configuration (generated from spec/params.toml; make fpga passes the board's
  // configuration's values with -G)
  `include "gmmu_top_params.svh"
  ,
  // the host link's UART rate: make fpga passes the board's rate of fpga/boards/links.toml (the
  // one source of truth, also of gmmu-board --board); 0 = not set, which gmmu_board refuses
  parameter int unsigned Baud = 0,
  // the logic clock, kHz: make fpga passes the board's clk_khz of fpga/boards/links.toml
  // (fpga_build.py --clk-khz overrides it). 25000: the oscillator, no PLL; otherwise an EHXPLLL
  // makes exactly ClkKhz from it (pll_div below; elaboration stops if it cannot)
  parameter int unsigned ClkKhz = 25000
) (
  input  logic       clk_25mhz,
  input  logic       ftdi_txd,   // from the FTDI: the board receives
  output logic       ftdi_rxd,   // to the FTDI: the board sends
  output logic [7:0] led
);
  localparam int unsigned OscKhz = 25000;

  // The EHXPLLL's divisors for out_khz from the oscillator, {CLKI_DIV, CLKFB_DIV, CLKOP_DIV}
  // (8 bits each), 0 if there are none. Feedback from CLKOP, so out = osc * CLKFB_DIV / CLKI_DIV
  // exactly; PFD = osc / CLKI_DIV >= 3.125 MHz; CLKFB_DIV <= 80; VCO = out * CLKOP_DIV within
  // 400..800 MHz (CLKOP_DIV <= 128), the one nearest 600 MHz as ecppll picks it (the lower on a
  // tie). The smallest CLKI_DIV wins (highest PFD). scripts/fpga_links.py (pll_div) mirrors this.
  function automatic logic [23:0] pll_div(int unsigned out_khz);
    logic [23:0] res;
    longint unsigned out, fb, vco, off, best;
    out  = 64'(out_khz);
    res  = '0;
    best = 64'd0;
    for (longint unsigned i = 1; i <= 64'(OscKhz) / 64'd3125; i++) begin
      fb = out * i / 64'(OscKhz);
      if (res == '0 && fb * 64'(OscKhz) == out * i && fb >= 64'd1 && fb <= 64'd80) begin
        for (longint unsigned op = 1; op <= 64'd128; op++) begin
          vco  = out * op;
          off = vco > 64'd600000 ? vco - 64'd600000 : 64'd600000 - vco;
          if (vco >= 64'd400000 && vco <= 64'd800000 && (res == '0 || off < best)) begin
            best = off;
            res  = {i[7:0], fb[7:0], op[7:0]};
          end
        end
      end
    end
    return res;
  endfunction

  // At ClkKhz == OscKhz this top elaborates to exactly the netlist it had before the PLL option:
  // yosys-slang makes a cell of every continuous assignment and of every undriven variable, and
  // one more cell anywhere moves Yosys's whole result (cell counts, placement), so nothing here
  // adds one then. The connections below choose by a constant condition (folded, no cell); the
  // PLL's nets are nets (`wire`: undriven, no cell) driven in g_pll only.
  localparam bit UsePll = ClkKhz != OscKhz;
  logic rst_n;
  logic [3:0] led_d;
  // the PLL's output clock, and the reset held until its LOCK (at 25000 undriven and unread)
  /* verilator lint_off UNDRIVEN */
  wire pll_clk, pll_rst_n;
  /* verilator lint_on UNDRIVEN */

  if (UsePll) begin : g_pll
    localparam logic [23:0] Div = pll_div(ClkKhz);
    localparam int unsigned ClkiDiv  = 32'(Div[23:16]);
    localparam int unsigned ClkfbDiv = 32'(Div[15:8]);
    localparam int unsigned ClkopDiv = 32'(Div[7:0]);
    if (Div == '0) begin : g_bad_clk
      $fatal(1, "ulx3s_top: ClkKhz %0d: no EHXPLLL divisors (exact from 25 MHz, VCO 400..800 MHz, %s",
             ClkKhz, "PFD >= 3.125 MHz; fpga/boards/links.toml clk_khz)");
    end
    logic pll_lock;
    logic [1:0] lock_q;
    // attributes as ecppll writes them (charge pump and loop filter settings nextpnr packs)
    // (the outputs not used stay open: a net on CLKOS..CLKOS3 would get a derived clock constraint)
    /* verilator lint_off PINCONNECTEMPTY */
    (* ICP_CURRENT = "12", LPF_RESISTOR = "8", MFG_ENABLE_FILTEROPAMP = "1", MFG_GMCREF_SEL = "2" *)
    EHXPLLL #(
      .PLLRST_ENA      ("DISABLED"),
      .INTFB_WAKE      ("DISABLED"),
      .STDBY_ENABLE    ("DISABLED"),
      .DPHASE_SOURCE   ("DISABLED"),
      .OUTDIVIDER_MUXA ("DIVA"),
      .OUTDIVIDER_MUXB ("DIVB"),
      .OUTDIVIDER_MUXC ("DIVC"),
      .OUTDIVIDER_MUXD ("DIVD"),
      .CLKI_DIV        (ClkiDiv),
      .CLKOP_ENABLE    ("ENABLED"),
      .CLKOP_DIV       (ClkopDiv),
      .CLKOP_CPHASE    (ClkopDiv - 1),
      .CLKOP_FPHASE    (0),
      .FEEDBK_PATH     ("CLKOP"),
      .CLKFB_DIV       (ClkfbDiv)
    ) u_pll (
      .CLKI         (clk_25mhz),
      .CLKFB        (pll_clk),
      .PHASESEL1    (1'b0),
      .PHASESEL0    (1'b0),
      .PHASEDIR     (1'b0),
      .PHASESTEP    (1'b0),
      .PHASELOADREG (1'b0),
      .STDBY        (1'b0),
      .PLLWAKESYNC  (1'b0),
      .RST          (1'b0),
      .ENCLKOP      (1'b0),
      .ENCLKOS      (1'b0),
      .ENCLKOS2     (1'b0),
      .ENCLKOS3     (1'b0),
      .CLKOP        (pll_clk),
      .CLKOS        (),
      .CLKOS2       (),
      .CLKOS3       (),
      .LOCK         (pll_lock),
      .INTLOCK      (),
      .REFCLK       (),
      .CLKINTFB     ()
    );
    /* verilator lint_on PINCONNECTEMPTY */
    // The logic stays in reset until LOCK is 1: LOCK is not synchronous to CLKOP, so two
    // flip-flops (0 after configuration) first; the power-on counter (on the PLL's clock from
    // configuration) must have finished too. LOCK lost: reset again.
    always_ff @(posedge pll_clk) begin
      lock_q <= {lock_q[0], pll_lock};
    end
    assign pll_rst_n = rst_n && lock_q[1];
  end

  gmmu_board_por u_por (
    .clk_i  (UsePll ? pll_clk : clk_25mhz),
    .rst_no (rst_n)
  );

  gmmu_board #(
    `include "gmmu_top_params_pass.svh"
    ,
    .ClkKhz        (ClkKhz),
    .Baud          (Baud),
    .TimeoutCycles (ClkKhz * 100)    // 100 ms, as LiteX's UARTBone
  ) u_board (
    .clk_i     (UsePll ? pll_clk : clk_25mhz),
    .rst_ni    (UsePll ? pll_rst_n : rst_n),
    .uart_rx_i (ftdi_txd),
    .uart_tx_o (ftdi_rxd),
    .led_o     (led_d)
  );

  assign led = {4'b0000, led_d};
endmodule
