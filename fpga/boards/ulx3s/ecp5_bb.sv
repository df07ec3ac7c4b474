// The ECP5 PLL as a blackbox for synthesis: make fpga (fpga/fpga_build.py) and gmmu.core's ulx3s
// target read this file with ulx3s_top, which instantiates EHXPLLL at ClkKhz != 25000. read_slang
// knows no ECP5 cell, and a cell library Yosys loads before it (read_verilog -lib
// +/ecp5/cells_bb.v) reaches slang with its ports only, so the parameters ulx3s_top sets are
// declared here (defaults as Yosys's ecp5/cells_bb.v). The instance becomes Yosys's EHXPLLL cell
// with these parameters, which nextpnr places. Not for simulation or lint: Verilator reads
// fpga/lint/ecp5_stubs.sv instead.
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
endmodule
