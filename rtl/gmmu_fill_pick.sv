// Fill choice of docs/microarch.md §1.1, purely combinational: the lowest way whose valid entry
// has the same tag (update in place), else the lowest invalid way, else the PLRU victim.
// Used by every associative array (L1 base/large, L2 base set/large). C model: fill_way_*().
module gmmu_fill_pick #(
  parameter int unsigned N = 2,
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic [N-1:0]    valid_i,  // entry valid (_q)
  input  logic [N-1:0]    same_i,   // entry tag equals the tag being filled
  input  logic [IdxW-1:0] victim_i, // PLRU victim (_q)
  output logic [IdxW-1:0] idx_o
);
  always_comb begin : p_pick
    logic            same, inval;
    logic [IdxW-1:0] same_idx, inval_idx;
    same      = 1'b0;
    inval     = 1'b0;
    same_idx  = '0;
    inval_idx = '0;
    for (int unsigned i = 0; i < N; i++) begin
      if (!same && valid_i[i] && same_i[i]) begin
        same     = 1'b1;
        same_idx = IdxW'(i);
      end
      if (!inval && !valid_i[i]) begin
        inval     = 1'b1;
        inval_idx = IdxW'(i);
      end
    end
    idx_o = same ? same_idx : (inval ? inval_idx : victim_i);
  end
endmodule
