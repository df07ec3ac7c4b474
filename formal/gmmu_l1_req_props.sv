// Properties of the L1 request table (gmmu_l1_req_table, docs/microarch.md §4), bound into every
// instance (formal/gmmu_l1_req_bind.sv).
//
// Accounting with a symbolic request id X (anyconst, any of the 2^REQ_ID_W ids): pending_q
// counts the accepted misses with id X minus the answers (out_valid with id X). Proved:
//   req_x_*          pending <= 1; an answer with id X only while one is pending (never twice,
//                    never spurious); exactly `pending` table entries hold id X (an accepted
//                    request is neither lost nor duplicated until it is answered)
//   req_no_overflow  an accepted miss always finds a FREE entry (§11)
//   req_state_legal  every state is one of FREE/WAIT/INFL/DONE/NACK
//   req_free_cnt, req_busy, req_out_done, req_send_ok: the combinational outputs agree with the
//                    state (READY counts FREE entries; c_out is DONE; c_send is WAIT with no
//                    INFL entry of the same key)
// Environment (assumed for the block proof, asserted inside gmmu_top): misses are allocated
// only when ready_o (accepted requests), a grant only for a presented request, and the host
// protocol of §2: an id is unique among the SM's outstanding requests (X is not re-issued while
// pending, and at most one port presents X in a cycle).
module gmmu_l1_req_props #(
  parameter int unsigned NumPorts  = 2,
  parameter int unsigned Entries   = 4,
  parameter bit          AssumeEnv = 1'b1,
  localparam int unsigned IdW      = gmmu_pkg::REQ_ID_W,
  localparam int unsigned CntW     = $clog2(Entries + 1),
  localparam int unsigned RIdxW    = (Entries > 1) ? $clog2(Entries) : 1
) (
  input logic                         clk_i,
  input logic                         rst_ni,
  input logic                         ready_o,
  input logic                         out_valid_o,
  input logic [IdW-1:0]               out_id_o,
  input logic                         out_fatal_o,
  input logic                         send_valid_o,
  input logic                         send_gnt_i,
  input logic                         busy_o,
  input logic                         replay_i,
  input logic                         cancel_valid_i,
  input logic                         rsp_valid_i,
  input logic                         rsp_nack_i,
  input logic [NumPorts-1:0]          alloc_i,
  input logic [NumPorts*IdW-1:0]      alloc_id_i,
  input logic                         flush_all_i,
  input logic                         flush_page_i,
  input logic [3*Entries-1:0]         state_flat,  // {>>{state_q}}: entry 0 in the top bits
  input gmmu_tlb_pkg::l1_req_entry_t  ent_q [Entries],
  input logic                         alloc_fail,
  input logic [CntW-1:0]              free_cnt,
  input logic [RIdxW-1:0]             out_idx,
  input logic [RIdxW-1:0]             send_idx
);
`include "fv_defs.svh"
  localparam logic [2:0] Free = 3'd0, Wait = 3'd1, Infl = 3'd2, Done = 3'd3, Nack = 3'd4;

  logic [2:0] st [Entries];
  always_comb for (int unsigned i = 0; i < Entries; i++) st[i] = state_flat[3*(Entries-1-i) +: 3];

  // symbolic id: a register without reset and without next-state logic is an arbitrary
  // constant for the solver (yosys-slang does not honour the anyconst attribute)
  logic [IdW-1:0] sym_id;
  always_ff @(posedge clk_i) sym_id <= sym_id;

  // ---------------------------------------------------------------- environment
  `FV_ENV(req_alloc_ready, alloc_i == '0 || ready_o)
  `FV_ENV(req_gnt_has_req, !send_gnt_i || send_valid_o)

  logic [NumPorts-1:0] alloc_x;
  always_comb
    for (int unsigned p = 0; p < NumPorts; p++) alloc_x[p] = alloc_i[p] && alloc_id_i[p*IdW +: IdW] == sym_id;

  logic [1:0] pending_q;
  logic       answer_x;
  assign answer_x = out_valid_o && out_id_o == sym_id;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) pending_q <= '0;
    else pending_q <= pending_q + 2'((alloc_x != '0) ? 1 : 0) - 2'(answer_x ? 1 : 0);
  end
  // host protocol: X is presented by at most one port, and not while X is outstanding (the
  // request is outstanding until its answer; re-issue in the answer's cycle is allowed)
  // (assumed also inside gmmu_top: this is the host's protocol, not a neighbouring block's)
  always_comb if (rst_ni) begin
    req_id_unique_ports_host: assume ($onehot0(alloc_x));
    req_id_unique_outstanding_host: assume (alloc_x == '0 || pending_q == '0 || answer_x);
  end

  // ---------------------------------------------------------------- properties
  int unsigned n_x, n_free;
  logic any_busy;
  always_comb begin
    n_x = 0;
    n_free = 0;
    any_busy = 1'b0;
    for (int unsigned i = 0; i < Entries; i++) begin
      if (st[i] != Free && ent_q[i].id == sym_id) n_x++;
      if (st[i] == Free) n_free++;
      if (st[i] inside {Wait, Infl, Done}) any_busy = 1'b1;
    end
  end

  `FV_ASSERT(req_x_pending_le1, pending_q <= 2'd1)
  `FV_ASSERT(req_x_answer_once, !answer_x || pending_q == 2'd1)
  `FV_ASSERT(req_x_in_table, n_x == int'(pending_q))
  `FV_ASSERT(req_no_overflow, !alloc_fail)
  `FV_ASSERT(req_free_cnt, int'(free_cnt) == n_free)
  `FV_ASSERT(req_busy, busy_o == any_busy)
  `FV_ASSERT(req_out_done, !out_valid_o || st[out_idx] == Done)
  for (genvar i = 0; i < Entries; i++) begin : g_e
    `FV_ASSERT(req_state_legal, st[i] <= Nack)
  end
  logic send_blocked;
  always_comb begin
    send_blocked = 1'b0;
    for (int unsigned j = 0; j < Entries; j++)
      if (st[j] == Infl && ent_q[j].vpn == ent_q[send_idx].vpn &&
          ent_q[j].write == ent_q[send_idx].write) send_blocked = 1'b1;
  end
  `FV_ASSERT(req_send_ok, !send_valid_o || (st[send_idx] == Wait && !send_blocked))

  // ---------------------------------------------------------------- covers: every state
  logic [4:0] seen;
  always_comb begin
    seen = '0;
    for (int unsigned i = 0; i < Entries; i++) seen[st[i]] = 1'b1;
  end
  always_comb if (rst_ni) begin
    c_req_free: cover (seen[Free]);
    c_req_wait: cover (seen[Wait]);
    c_req_infl: cover (seen[Infl]);
    c_req_done: cover (seen[Done]);
    c_req_nack: cover (seen[Nack]);
    c_req_full: cover (n_free == 0);
    c_req_fatal_out: cover (out_valid_o && out_fatal_o);
    c_req_x_answered: cover (answer_x);
  end
endmodule
