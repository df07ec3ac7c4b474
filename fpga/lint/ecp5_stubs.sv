// Lint-only stubs of the ECP5 primitives the board tops instantiate: Verilator has no model of
// them. Only make fpga-lint (and gmmu.core's fpga_lint target) read this file; synthesis reads
// fpga/boards/ulx3s/ecp5_bb.sv (the same ports and parameters as a blackbox: Yosys maps it to its
// own ECP5 cell) and never this one. Ports and parameter defaults as Yosys's ecp5/cells_bb.v;
// only the parameters the tops set are declared. Nothing here models the PLL's behaviour beyond
// "CLKOP is a clock, LOCK is 1": the divisors are not checked (ulx3s_top's pll_div does that).
// verilator lint_off DECLFILENAME
// verilator lint_off UNUSEDSIGNAL
// verilator lint_off UNUSEDPARAM
module EHXPLLL #(
  parameter CLKI_DIV        = 1,
  parameter CLKFB_DIV       = 1,
  parameter CLKOP_DIV       = 8,
  parameter CLKOP_ENABLE    = "ENABLED",
  parameter CLKOP_CPHASE    = 0,
  parameter CLKOP_FPHASE    = 0,
  parameter FEEDBK_PATH     = "CLKOP",
  parameter OUTDIVIDER_MUXA = "DIVA",
  parameter OUTDIVIDER_MUXB = "DIVB",
  parameter OUTDIVIDER_MUXC = "DIVC",
  parameter OUTDIVIDER_MUXD = "DIVD",
  parameter STDBY_ENABLE    = "DISABLED",
  parameter DPHASE_SOURCE   = "DISABLED",
  parameter PLLRST_ENA      = "DISABLED",
  parameter INTFB_WAKE      = "DISABLED"
) (
  input  logic CLKI,
  input  logic CLKFB,
  input  logic PHASESEL1,
  input  logic PHASESEL0,
  input  logic PHASEDIR,
  input  logic PHASESTEP,
  input  logic PHASELOADREG,
  input  logic STDBY,
  input  logic PLLWAKESYNC,
  input  logic RST,
  input  logic ENCLKOP,
  input  logic ENCLKOS,
  input  logic ENCLKOS2,
  input  logic ENCLKOS3,
  output logic CLKOP,
  output logic CLKOS,
  output logic CLKOS2,
  output logic CLKOS3,
  output logic LOCK,
  output logic INTLOCK,
  output logic REFCLK,
  output logic CLKINTFB
);
  assign CLKOP    = CLKI;
  assign CLKOS    = 1'b0;
  assign CLKOS2   = 1'b0;
  assign CLKOS3   = 1'b0;
  assign LOCK     = 1'b1;
  assign INTLOCK  = 1'b1;
  assign REFCLK   = CLKI;
  assign CLKINTFB = 1'b0;
endmodule
// verilator lint_on UNUSEDPARAM
// verilator lint_on UNUSEDSIGNAL
// verilator lint_on DECLFILENAME
