// Synchronous-read RAM of docs/microarch.md §1.3 ("payload RAM"): Depth words of Width bits, one
// write port and one read port with a registered address, write-first ("transparent"): the word
// read at the clock edge is the word after this cycle's write, so a write and a read of the same
// address in one cycle read the new word. Yosys infers a block RAM (ECP5 DP16KD, 7-series RAMB)
// or LUT RAM from it (memory_dff merges rdata_q into the read port, the bypass becomes the
// port's transparency); the generic `make synth` flow keeps it as a memory cell (no flip-flops).
// C model mirror: the rd_* registers of tlb_sa_t (cmodel/tlb_sa.c, tlb_sa_ram_read()).
//
// The words have no reset (block RAM contents cannot be reset): the owner never uses a word that
// was not written (the payload of an invalid TLB entry is never read, §1.3). rdata_q has no reset
// either (it is the RAM's output register).
module gmmu_ram_1r1w #(
  parameter int unsigned Depth = 4,
  parameter int unsigned Width = 8,
  localparam int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [AddrW-1:0] waddr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic [AddrW-1:0] raddr_i,
  output logic [Width-1:0] rdata_o   // word at raddr_i of the previous cycle, after its write
);
  logic [Width-1:0] mem [Depth];
  logic [Width-1:0] rdata_q;

  assign rdata_o = rdata_q;

  always_ff @(posedge clk_i) begin : p_ram
    if (we_i) mem[waddr_i] <= wdata_i;
    rdata_q <= (we_i && waddr_i == raddr_i) ? wdata_i : mem[raddr_i];
  end
endmodule
