// The ECP5 PLL (EHXPLLL) that ulx3s_top instantiates at ClkKhz != 25000, one declaration for
// synthesis and lint.
// * Synthesis (make fpga: fpga/fpga_build.py, and gmmu.core's ulx3s target; both define
//   SYNTHESIS): a blackbox. read_slang knows no ECP5 cell, and a cell library Yosys loads before
//   it (read_verilog -lib +/ecp5/cells_bb.v) reaches slang with its ports only, so the parameters
//   ulx3s_top sets are declared here (defaults as Yosys's ecp5/cells_bb.v). The instance becomes
//   Yosys's EHXPLLL cell with these parameters, which nextpnr places.
// * Lint (make fpga-lint, gmmu.core's fpga_lint target; no SYNTHESIS): Verilator has no model of
//   it, so the body below stands in: CLKOP is the input clock, LOCK is 1. Nothing else of the
//   PLL is modelled: the divisors are not checked here (ulx3s_top's pll_div does that).
// verilator lint_off DECLFILENAME
// verilator lint_off UNUSEDSIGNAL
// verilator lint_off UNUSEDPARAM
(* blackbox *)
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
  input  CLKI,
  input  CLKFB,
  input  PHASESEL1,
  input  PHASESEL0,
  input  PHASEDIR,
  input  PHASESTEP,
  input  PHASELOADREG,
  input  STDBY,
  input  PLLWAKESYNC,
  input  RST,
  input  ENCLKOP,
  input  ENCLKOS,
  input  ENCLKOS2,
  input  ENCLKOS3,
  output CLKOP,
  output CLKOS,
  output CLKOS2,
  output CLKOS3,
  output LOCK,
  output INTLOCK,
  output REFCLK,
  output CLKINTFB
);
`ifndef SYNTHESIS
  assign CLKOP    = CLKI;
  assign CLKOS    = 1'b0;
  assign CLKOS2   = 1'b0;
  assign CLKOS3   = 1'b0;
  assign LOCK     = 1'b1;
  assign INTLOCK  = 1'b1;
  assign REFCLK   = CLKI;
  assign CLKINTFB = 1'b0;
`endif
endmodule
// verilator lint_on UNUSEDPARAM
// verilator lint_on UNUSEDSIGNAL
// verilator lint_on DECLFILENAME
