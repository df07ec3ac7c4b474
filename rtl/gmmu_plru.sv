// Tree pseudo-LRU of N ways (docs/microarch.md §1.1), purely combinational.
// State: N-1 bits in heap order (node 0 = root, children of i are 2i+1 / 2i+2, leaves = ways).
// victim_o is the victim of state_i; state_o is state_i touched at way_i (if touch_i).
// Several touches in one cycle are made by chaining instances (state_o -> state_i).
// N = 1 has no state: the single (dummy) bit is never written and stays 0.
module gmmu_plru #(
  parameter int unsigned N = 2,
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1,
  localparam int unsigned BitsW = (N > 1) ? N - 1 : 1
) (
  input  logic [BitsW-1:0] state_i,
  input  logic             touch_i,
  input  logic [IdxW-1:0]  way_i,
  output logic [IdxW-1:0]  victim_o,
  output logic [BitsW-1:0] state_o
);
  localparam int unsigned Levels = (N > 1) ? $clog2(N) : 0;

  // victim: walk from the root, left on 0, right on 1. At level l the path so far is the l-bit
  // prefix v and the node is (2^l - 1) + v.
  always_comb begin : p_victim
    logic [IdxW-1:0] v, n;
    v = '0;
    n = '0;
    for (int l = 0; l < int'(Levels); l++) begin
      n = IdxW'((1 << l) - 1 + int'(v));
      v = IdxW'(2 * int'(v) + int'(state_i[n]));
    end
    victim_o = v;
  end

  // touch: every node on the path to way_i points away from it
  // (1 if way_i is in its left subtree, 0 if in its right subtree)
  always_comb begin : p_touch
    logic [IdxW-1:0] n;
    n       = '0;
    state_o = state_i;
    if (touch_i) begin
      for (int l = 0; l < int'(Levels); l++) begin
        n          = IdxW'((1 << l) - 1 + (int'(way_i) >> (Levels - l)));
        state_o[n] = !way_i[Levels-1-l];
      end
    end
  end
endmodule
