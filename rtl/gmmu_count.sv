// Number of set bits of a vector, as a balanced tree of adders (depth log2(N)), optionally
// saturating at Sat (count_o = min(popcount(bits_i), Sat); Sat = 0: no saturation). The
// result equals a loop `if (bits[i]) c = c + 1` (saturating: `&& c != Sat`), which synthesis
// maps to a chain of N adders: the far-fault unit's 32-entry counts were a chain of 32
// carry-chain adders on the paper-like configuration's critical path (docs/fpga.md "Finding
// the paths before placement"). No state; no cycle behaviour of its own.
module gmmu_count #(
  parameter int unsigned N   = 8,
  parameter int unsigned Sat = 0,
  localparam int unsigned Max  = (Sat == 0) ? N : Sat,
  localparam int unsigned CntW = $clog2(Max + 1)
) (
  input  logic [N-1:0]    bits_i,
  output logic [CntW-1:0] count_o
);
  localparam int unsigned N2 = (N > 1) ? (1 << $clog2(N)) : 1;

  initial begin : p_params
    if (N == 0) $error("gmmu_count: N must be at least 1");
  end

  // v[i] holds counts of at most Max; a sum of two needs one bit more before it saturates
  logic [CntW:0] v [N2];
  always_comb begin : p_tree
    logic [CntW:0] sum;
    sum = '0;
    for (int unsigned i = 0; i < N2; i++) v[i] = (i < N) ? (CntW + 1)'(bits_i[i]) : '0;
    for (int unsigned w = N2 / 2; w >= 1; w = w / 2) begin
      for (int unsigned i = 0; i < w; i++) begin
        sum  = v[2 * i] + v[2 * i + 1];
        v[i] = (Sat != 0 && sum > (CntW + 1)'(Max)) ? (CntW + 1)'(Max) : sum;
      end
    end
    count_o = v[0][CntW-1:0];
  end
endmodule
