// Number of set bits of a vector, optionally saturating at Sat (count_o = min(popcount(bits_i),
// Sat); Sat = 0: no saturation): chains of Chain bits (`if (bits[i]) c = c + 1`, saturating:
// `&& c != Sat`) whose counts a balanced tree adds (depth Chain + log2(N / Chain)). The result
// equals one chain over all N bits, which synthesis maps to N increments in a row: the
// far-fault unit's 32-entry counts were such chains on the paper-like configuration's longest
// paths; a tree from single bits made the far-fault unit 25 % larger than the chain, chains of
// 16 under a tree do not (docs/fpga.md "Finding the paths before placement"). No state; no
// cycle behaviour of its own.
module gmmu_count #(
  parameter int unsigned N   = 8,
  parameter int unsigned Sat = 0,
  parameter int unsigned Chain = 16,  // bits counted by a chain before the tree
  localparam int unsigned Max  = (Sat == 0) ? N : Sat,
  localparam int unsigned CntW = $clog2(Max + 1)
) (
  input  logic [N-1:0]    bits_i,
  output logic [CntW-1:0] count_o
);
  // leaves: chains of Chain bits each (a chain is small: one increment per bit), L of them,
  // L2 = L rounded up to a power of two; then a balanced tree over the leaves (depth log2(L2))
  localparam int unsigned L  = (N + Chain - 1) / Chain;
  localparam int unsigned L2 = (L > 1) ? (1 << $clog2(L)) : 1;

  initial begin : p_params
    if (N == 0 || Chain == 0) $error("gmmu_count: N and Chain must be at least 1");
  end

  // v[i] holds counts of at most Max; a sum of two needs one bit more before it saturates
  logic [CntW:0] v [L2];
  always_comb begin : p_tree
    logic [CntW:0] sum;
    sum = '0;
    for (int unsigned j = 0; j < L2; j++) begin
      v[j] = '0;
      for (int unsigned b = j * Chain; b < (j + 1) * Chain && b < N; b++) begin
        if (bits_i[b] && (Sat == 0 || v[j] != (CntW + 1)'(Max))) v[j] = v[j] + 1'b1;
      end
    end
    for (int unsigned w = L2 / 2; w >= 1; w = w / 2) begin
      for (int unsigned i = 0; i < w; i++) begin
        sum  = v[2 * i] + v[2 * i + 1];
        v[i] = (Sat != 0 && sum > (CntW + 1)'(Max)) ? (CntW + 1)'(Max) : sum;
      end
    end
    count_o = v[0][CntW-1:0];
  end
endmodule
