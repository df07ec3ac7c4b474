// L1 request table ("miss MSHRs") of docs/microarch.md §4: R entries, state FREE / WAIT / INFL /
// DONE / NACK plus an entry record gmmu_tlb_pkg::l1_req_entry_t (spec/tlb.toml: asid, vpn, write,
// id, ppn, fatal; key = (asid, vpn, write), docs/microarch.md §14.3) and a faulted bit flt_q per entry (blocking fault mode, §4.1:
// set by a NACK while blocking_i, cleared when the entry is output; any set bit blocks ready_o).
// Instance u_req of gmmu_l1_tlb. C model mirror: cmodel/l1_req.c (l1_req_*), same step letters.
//
// Combinational from _q: ready_o (free_cnt >= P, no command cycle, no flt bit set), c_out (lowest DONE entry
// -> out_*), c_send (lowest WAIT entry without an INFL entry of the same key -> send_*), busy_o.
// Next state, in this order (steps of §4; 1-6 and 8, step 7 is the arrays' PLRU):
//   (a) output   (b) send   (c) response   (d) replay   (e) cancel   (f) allocate   (g) flush
module gmmu_l1_req_table #(
  parameter int unsigned NumPorts = 2,
  parameter int unsigned Entries  = 4,
  parameter int unsigned NumAsids = 1,
  parameter int unsigned LineBitmap = 0  // §20.2: line_q per entry (the allocating request's line)
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  // combinational from _q
  input  logic                                   cmd_cycle_i,
  output logic                                   ready_o,
  output logic                                   out_valid_o,
  output logic [gmmu_pkg::REQ_ID_W-1:0]          out_id_o,
  output logic [gmmu_pkg::PPN_W-1:0]             out_ppn_o,
  output logic                                   out_fatal_o,
  output logic                                   out_sys_o,  // aperture (§17)
  output logic [gmmu_pkg::VPN_W-1:0]             out_vpn_o,  // the access counters' pick (§19.8)
  output logic [gmmu_pkg::ASID_W-1:0]            out_asid_o,
  output logic                                   send_valid_o,
  output gmmu_tlb_pkg::tlb_req_t                 send_o,  // the L1 -> L2 request record
  output logic                                   busy_o,
  // (b) grant of the send candidate
  input  logic                                   send_gnt_i,
  // (c) response (rsp_q, valid qualified with mask[s]; record tlb_rsp_t, whose fields w and
  // nocache only the L1's arrays use)
  input  logic                                   rsp_valid_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  gmmu_tlb_pkg::tlb_rsp_t                 rsp_i,
  /* verilator lint_on UNUSEDSIGNAL */
  // (d) replay, (e) cancel
  input  logic                                   replay_i,
  input  logic                                   cancel_valid_i,
  input  logic [gmmu_pkg::VPN_W-1:0]             cancel_vpn_i,
  input  logic [gmmu_pkg::ASID_W-1:0]            cancel_asid_i,
  // (c) blocking fault mode: a NACK sets the entry's flt bit
  input  logic                                   blocking_i,
  // (f) allocate: accepted misses, per port
  input  logic [NumPorts-1:0]                    alloc_i,
  input  logic [NumPorts*gmmu_pkg::VPN_W-1:0]    alloc_vpn_i,
  input  logic [NumPorts*gmmu_pkg::ASID_W-1:0]   alloc_asid_i,   // already reduced (§14.1)
  input  logic [NumPorts-1:0]                    alloc_write_i,
  input  logic [NumPorts*gmmu_pkg::REQ_ID_W-1:0] alloc_id_i,
  input  logic [NumPorts*5-1:0]                  alloc_line_i,   // §20.3 step 3 (LineBitmap)
  // §20.3 step 2: line_bit(line_q) of every entry the response completes (WAIT or INFL after
  // (b), key equal to the response's); 0 without LineBitmap
  output logic [31:0]                            rsp_lines_o,
  // (g) flush (record tlb_flush_t: all, page, the region vpn[35:9], scope: only ASID asid,
  // §14.4)
  input  gmmu_tlb_pkg::tlb_flush_t               flush_i
);
  localparam int unsigned VpnW  = gmmu_pkg::VPN_W;
  localparam int unsigned PpnW  = gmmu_pkg::PPN_W;
  localparam int unsigned OffW  = gmmu_pkg::PT_IDX_W;
  localparam int unsigned IdW   = gmmu_pkg::REQ_ID_W;
  localparam int unsigned AsidW = gmmu_pkg::ASID_W;
  localparam int unsigned RIdxW = (Entries > 1) ? $clog2(Entries) : 1;
  // stored ASIDs keep only their log2(NumAsids) low bits (docs/microarch.md §14.1): every ASID
  // here is already reduced, the registers take x_d & AsidMask so that synthesis removes the
  // constant-0 flip-flops (none with one address space)
  localparam logic [gmmu_pkg::ASID_W-1:0] AsidMask = gmmu_pkg::ASID_W'(NumAsids - 1);
  localparam gmmu_tlb_pkg::l1_req_entry_t EntKeep = '{asid: AsidMask, default: '1};
  // the ASID inputs are masked the same way where they are compared with a stored ASID: a no-op
  // on values (they are reduced already), but it lets a per-block synthesis (make fpga-util,
  // -noflatten) remove the compare logic of the constant bits
  localparam int unsigned CntW  = $clog2(Entries + 1);

  typedef enum logic [2:0] {
    ReqFree = 3'd0,
    ReqWait = 3'd1,
    ReqInfl = 3'd2,
    ReqDone = 3'd3,
    ReqNack = 3'd4
  } req_state_e;

  // entry record: spec/tlb.toml [l1_req_entry] (vpn, write, id, ppn, fatal)
  typedef gmmu_tlb_pkg::l1_req_entry_t req_entry_t;

  // ---------------------------------------------------------------- state
  req_state_e state_q [Entries];
  req_state_e state_d [Entries];
  req_entry_t ent_q [Entries];
  req_entry_t ent_d [Entries];
  logic [Entries-1:0] flt_q, flt_d;  // faulted in blocking mode, not output yet (§4.1)
  logic [4:0]         line_q [Entries];  // §20.2: the allocating request's line (LineBitmap)
  logic [4:0]         line_d [Entries];

  // ---------------------------------------------------------------- c_out, c_send (from _q)
  logic             out_found, send_found;
  logic [RIdxW-1:0] out_idx, send_idx;
  logic [CntW-1:0]  free_cnt;

  always_comb begin : p_out_send
    logic blocked;
    blocked    = 1'b0;
    out_found  = 1'b0;
    out_idx    = '0;
    send_found = 1'b0;
    send_idx   = '0;
    free_cnt   = '0;
    busy_o     = 1'b0;
    for (int unsigned i = 0; i < Entries; i++) begin
      if (state_q[i] == ReqFree) free_cnt = free_cnt + 1'b1;
      if (state_q[i] inside {ReqWait, ReqInfl, ReqDone}) busy_o = 1'b1;
      if (!out_found && state_q[i] == ReqDone) begin
        out_found = 1'b1;
        out_idx   = RIdxW'(i);
      end
      if (!send_found && state_q[i] == ReqWait) begin
        blocked = 1'b0;
        for (int unsigned j = 0; j < Entries; j++) begin
          if (state_q[j] == ReqInfl && ent_q[j].vpn == ent_q[i].vpn &&
              ent_q[j].write == ent_q[i].write && ent_q[j].asid == ent_q[i].asid) begin
            blocked = 1'b1;
          end
        end
        if (!blocked) begin
          send_found = 1'b1;
          send_idx   = RIdxW'(i);
        end
      end
    end
  end

  assign ready_o      = (free_cnt >= CntW'(NumPorts)) && !cmd_cycle_i && !(|flt_q);
  assign out_valid_o  = out_found;
  assign out_id_o     = out_found ? ent_q[out_idx].id : '0;
  assign out_ppn_o    = out_found ? ent_q[out_idx].ppn : '0;
  assign out_fatal_o  = out_found && ent_q[out_idx].fatal;
  assign out_sys_o    = out_found && ent_q[out_idx].sys;
  assign out_vpn_o    = out_found ? ent_q[out_idx].vpn : '0;
  assign out_asid_o   = out_found ? ent_q[out_idx].asid : '0;
  assign send_valid_o = send_found;
  assign send_o.vpn   = send_found ? ent_q[send_idx].vpn : '0;
  assign send_o.asid  = send_found ? ent_q[send_idx].asid : '0;
  assign send_o.write = send_found && ent_q[send_idx].write;

  // ---------------------------------------------------------------- next state (§4, in order)
  logic alloc_fail;  // assertion only

  always_comb begin : p_next_state
    logic [Entries-1:0] taken;
    logic found;
    found      = 1'b0;
    state_d    = state_q;
    ent_d      = ent_q;
    flt_d      = flt_q;
    line_d     = line_q;
    taken      = '0;
    alloc_fail = 1'b0;

    // (a) output
    if (out_found) begin
      state_d[out_idx] = ReqFree;
      flt_d[out_idx]   = 1'b0;
    end
    // (b) send
    if (send_gnt_i) state_d[send_idx] = ReqInfl;
    // (c) response
    if (rsp_valid_i) begin
      for (int unsigned i = 0; i < Entries; i++) begin
        if (state_d[i] inside {ReqWait, ReqInfl} &&
            ent_q[i].vpn == rsp_i.req.vpn && ent_q[i].write == rsp_i.req.write &&
            ent_q[i].asid == (rsp_i.req.asid & AsidMask)) begin
          if (rsp_i.nack) begin
            state_d[i] = ReqNack;
            if (blocking_i) flt_d[i] = 1'b1;
          end else begin
            state_d[i]     = ReqDone;
            ent_d[i].ppn   = rsp_i.is_large ? {rsp_i.ppn[PpnW-1:OffW], ent_q[i].vpn[OffW-1:0]}
                                            : rsp_i.ppn;
            ent_d[i].fatal = 1'b0;
            ent_d[i].sys   = rsp_i.sys;
          end
        end
      end
    end
    // (d) replay
    if (replay_i) begin
      for (int unsigned i = 0; i < Entries; i++) begin
        if (state_d[i] == ReqNack) state_d[i] = ReqWait;
      end
    end
    // (e) cancel
    if (cancel_valid_i) begin
      for (int unsigned i = 0; i < Entries; i++) begin
        if (state_d[i] == ReqNack && ent_q[i].vpn == cancel_vpn_i &&
            ent_q[i].asid == (cancel_asid_i & AsidMask)) begin
          state_d[i]     = ReqDone;
          ent_d[i].fatal = 1'b1;
          ent_d[i].ppn   = '0;
          ent_d[i].sys   = 1'b0;
        end
      end
    end
    // (f) allocate: the k-th accepted miss takes the k-th lowest entry FREE in _q
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (alloc_i[p]) begin
        found = 1'b0;
        for (int unsigned i = 0; i < Entries; i++) begin
          if (!found && !taken[i] && state_q[i] == ReqFree) begin
            found          = 1'b1;
            taken[i]       = 1'b1;
            state_d[i]     = ReqWait;
            ent_d[i].vpn   = alloc_vpn_i[p*VpnW +: VpnW];
            ent_d[i].asid  = alloc_asid_i[p*AsidW +: AsidW];
            ent_d[i].write = alloc_write_i[p];
            ent_d[i].id    = alloc_id_i[p*IdW +: IdW];
            ent_d[i].ppn   = '0;
            ent_d[i].fatal = 1'b0;
            ent_d[i].sys   = 1'b0;
            flt_d[i]       = 1'b0;
            line_d[i]      = alloc_line_i[p*5 +: 5];
          end
        end
        if (!found) alloc_fail = 1'b1;
      end
    end
    // (g) flush, applied to the _d values above: DONE entries (region match, asid_match) -> WAIT.
    // An entry whose vpn / asid change in this cycle is one (f) allocates, and it is WAIT, not
    // DONE: so comparing ent_q's vpn and asid is comparing ent_d's (without a multiplexer of the
    // allocating ports in front of every comparator)
    if (flush_i.all || flush_i.page) begin
      for (int unsigned i = 0; i < Entries; i++) begin
        if (state_d[i] == ReqDone &&
            (flush_i.all || ent_q[i].vpn[VpnW-1:OffW] == flush_i.vpn[VpnW-1:OffW]) &&
            (!flush_i.scope || ent_q[i].asid == (flush_i.asid & AsidMask))) begin
          state_d[i] = ReqWait;
        end
      end
    end
  end

  // ---------------------------------------------------------------- §20.3 step 2: a fill's lines
  // (WAIT / INFL after (b) is WAIT / INFL in _q: (b) only turns WAIT into INFL)
  if (LineBitmap != 0) begin : g_line
    always_comb begin : p_rsp_lines
      rsp_lines_o = '0;
      for (int unsigned i = 0; i < Entries; i++) begin
        if (rsp_valid_i && state_q[i] inside {ReqWait, ReqInfl} &&
            ent_q[i].vpn == rsp_i.req.vpn && ent_q[i].write == rsp_i.req.write &&
            ent_q[i].asid == (rsp_i.req.asid & AsidMask)) begin
          rsp_lines_o[line_q[i]] = 1'b1;
        end
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_line_regs
      if (!rst_ni) begin
        line_q <= '{default: '0};
      end else begin
        line_q <= line_d;
      end
    end
  end else begin : g_no_line
    assign rsp_lines_o = '0;
    assign line_q      = '{default: '0};
    logic unused_line;
    always_comb begin : p_unused_line
      unused_line = ^alloc_line_i;
      for (int unsigned i = 0; i < Entries; i++) unused_line ^= ^line_d[i];
    end
  end

  // ---------------------------------------------------------------- registers
  // the register's D input: the stored bits only (EntKeep)
  gmmu_tlb_pkg::l1_req_entry_t ent_k [Entries];
  always_comb begin : p_ent_keep
    for (int unsigned i = 0; i < Entries; i++) ent_k[i] = ent_d[i] & EntKeep;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      state_q <= '{default: ReqFree};
      ent_q   <= '{default: '0};
      flt_q   <= '0;
    end else begin
      state_q <= state_d;
      ent_q   <= ent_k;
      flt_q   <= flt_d;
    end
  end

  // ---------------------------------------------------------------- assertions (§11)
`ifndef SYNTHESIS
  // the request table never overflows on accepted misses
  a_no_table_overflow: assert property (@(posedge clk_i) disable iff (!rst_ni) !alloc_fail);
  // a flt bit is set only on an entry that is not FREE (§4.1)
  logic flt_on_free;
  always_comb begin : p_flt_on_free
    flt_on_free = 1'b0;
    for (int unsigned i = 0; i < Entries; i++) begin
      if (flt_q[i] && state_q[i] == ReqFree) flt_on_free = 1'b1;
    end
  end
  a_flt_not_free: assert property (@(posedge clk_i) disable iff (!rst_ni) !flt_on_free);
  // a grant only goes to an SM that presents a request
  a_gnt_has_req: assert property (@(posedge clk_i) disable iff (!rst_ni)
    send_gnt_i |-> send_found);
`endif
endmodule
