// Formal harness of the coalesce unit (gmmu_co, docs/microarch.md §15.3, §15.4) with four
// address spaces (NumAsids = 4, as configs/asid4.cfg and mosaic4.cfg): commands, grants and
// memory data are free. Environment (assumed; what gmmu_csr and gmmu_ptw guarantee in
// gmmu_top): a command starts only while the unit is idle (CMD while busy is refused with
// CMD_BUSY), the request register takes a request only while one is presented, a response with
// CO_MEM_ID comes only for the read the unit awaits (the RTL's a_co_rsp_awaited).
// Proved:
//   co_fsm_legal     every state change is one of the transitions of §15.3 (IDLE -> PATH by a
//                    command; PATH -> CHECK / LRD / IDLE; CHECK -> ERD / IDLE; ERD -> EWR;
//                    EWR -> ERD / LRD / IDLE; LRD -> LWR; LWR -> IDLE / FLUSH; FLUSH -> ERD)
//   co_one_request   one memory access at a time: no request while a read is outstanding, an
//                    outstanding read only in a read state; a write only in EWR / LWR
//   co_busy          busy_o exactly when not IDLE; ev_done_o exactly on a return to IDLE
//   co_scope_*       the unit keeps the command's address space (reduced to NumAsids) and region
//                    from the start to the end: the splinter flush it raises (flush_o, one cycle,
//                    then ERD from entry 0) is scoped to that ASID and region (§14.4, §15.4),
//                    and its table walk starts at that ASID's PT_BASE
// Covers: every state, the transitions reachable in 24 cycles, a splinter flush of a non-zero
// ASID.
module fv_co (
  input logic                        clk_i,
  input logic                        rst_ni,
  input logic                        start_i,
  input logic                        splinter_i,
  input logic [gmmu_pkg::VPN_W-1:0]  cmd_vpn_i,
  input logic [gmmu_pkg::ASID_W-1:0] cmd_asid_i,
  input logic [gmmu_pkg::PPN_W-1:0]  pt_base0,
  input logic [gmmu_pkg::PPN_W-1:0]  pt_base1,
  input logic [gmmu_pkg::PPN_W-1:0]  pt_base2,
  input logic [gmmu_pkg::PPN_W-1:0]  pt_base3,
  input logic                        taken_in,
  input logic                        rsp_in,
  input logic [63:0]                 rsp_data_i
);
  localparam int unsigned NumAsids = 4;
  localparam int unsigned IdxW     = gmmu_pkg::PT_IDX_W;
  localparam int unsigned RegW     = gmmu_pkg::LVPN_W;
  localparam int unsigned AsidW    = gmmu_pkg::ASID_W;
  localparam logic [AsidW-1:0] AsidMask = AsidW'(NumAsids - 1);
  // the state encoding of gmmu_co's co_state_e
  localparam logic [2:0] SIdle = 3'd0, SPath = 3'd1, SCheck = 3'd2, SErd = 3'd3, SEwr = 3'd4,
                         SLrd = 3'd5, SLwr = 3'd6, SFlush = 3'd7;

  logic init = 1'b1;
  always_ff @(posedge clk_i) init <= 1'b0;
  always_comb assume (rst_ni == !init);

  logic                              req_valid, req_write, taken, rsp_valid, flush, busy, ev_done;
  logic [gmmu_pkg::PA_W-4:0]         req_addr;
  logic [63:0]                       wdata;
  logic [RegW-1:0]                   region;
  logic [AsidW-1:0]                  asid;
  logic [1:0]                        err;
  logic [gmmu_pkg::PPN_W-1:0]        pt_base [NumAsids];

  assign pt_base   = '{pt_base0, pt_base1, pt_base2, pt_base3};
  assign taken     = taken_in && req_valid;
  // the memory answers only the read the unit awaits
  assign rsp_valid = rsp_in && u_co.rd_state && u_co.co_pend_q;

  gmmu_co #(.NumAsids (NumAsids)) u_co (
    .clk_i, .rst_ni, .start_i, .splinter_i, .cmd_vpn_i, .cmd_asid_i,
    .pt_base_i (pt_base), .req_valid_o (req_valid), .req_addr_o (req_addr),
    .req_write_o (req_write), .taken_i (taken), .rsp_valid_i (rsp_valid),
    .rsp_data_i, .wdata_o (wdata), .flush_o (flush), .region_o (region), .asid_o (asid),
    .busy_o (busy), .err_o (err), .ev_done_o (ev_done)
  );

  logic [2:0] st;
  assign st = 3'(u_co.co_state_q);

  always_comb if (rst_ni) begin
    env_start_idle: assume (!start_i || !busy);
  end

  // the command of the operation in progress (registered at its start)
  logic [AsidW-1:0] cmd_asid_q;
  logic [RegW-1:0]  cmd_region_q;
  logic [gmmu_pkg::PPN_W-1:0] root_q;  // PT_BASE of the command's ASID at its start
  logic [2:0]       st_q;
  logic             start_q, done_q;
  logic             past_q;  // st_q, start_q, done_q hold a cycle out of reset
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cmd_asid_q   <= '0;
      cmd_region_q <= '0;
      root_q       <= '0;
      st_q         <= SIdle;
      start_q      <= 1'b0;
      done_q       <= 1'b0;
      past_q       <= 1'b0;
    end else begin
      if (start_i) begin
        cmd_asid_q   <= cmd_asid_i & AsidMask;
        cmd_region_q <= cmd_vpn_i[gmmu_pkg::VPN_W-1:IdxW];
        root_q       <= pt_base[2'(cmd_asid_i & AsidMask)];
      end
      st_q    <= st;
      start_q <= start_i;
      done_q  <= ev_done;
      past_q  <= 1'b1;
    end
  end

  logic legal;
  always_comb begin
    unique case (st_q)
      SIdle:   legal = st inside {SIdle, SPath};
      SPath:   legal = st inside {SPath, SCheck, SLrd, SIdle};
      SCheck:  legal = st inside {SCheck, SErd, SIdle};
      SErd:    legal = st inside {SErd, SEwr};
      SEwr:    legal = st inside {SEwr, SErd, SLrd, SIdle};
      SLrd:    legal = st inside {SLrd, SLwr};
      SLwr:    legal = st inside {SLwr, SIdle, SFlush};
      default: legal = st == SErd;  // SFlush: one cycle
    endcase
  end

  always_comb if (rst_ni) begin
    co_fsm_legal: assert (!past_q || legal);
    co_idle_by_command: assert (!past_q || st_q != SIdle || st == SIdle || start_q);
    co_one_request: assert (!(req_valid && u_co.co_pend_q));
    co_pend_in_read: assert (!u_co.co_pend_q || u_co.rd_state);
    co_write_state: assert (!req_write || st inside {SEwr, SLwr});
    co_busy: assert (busy == (st != SIdle));
    co_done_to_idle: assert (!past_q || done_q == (st_q != SIdle && st == SIdle));
    co_scope_asid: assert (!busy || asid == cmd_asid_q);
    co_scope_region: assert (!busy || region == cmd_region_q);
    co_scope_flush: assert (!flush || (u_co.co_op_q && asid == cmd_asid_q));
    co_flush_then_erd: assert (!past_q || st_q != SFlush || (st == SErd && u_co.co_idx_q == '0));
    co_root_of_asid: assert (!(st == SPath && u_co.co_lvl_q == '0) || u_co.co_tbl_q == root_q);
  end

  // covers: every state, the transitions reachable within the cover depth, a scoped splinter
  // flush (CHECK -> ERD, EWR -> LRD / IDLE and LWR -> IDLE follow 512 entry reads or writes:
  // lock-step tests coalesce_walks, splinter_cached, splinter_asid4 and make coverage)
  always_comb if (rst_ni) begin
    c_co_check: cover (st == SCheck);
    c_co_flush_asid: cover (flush && asid != '0);
    c_co_idle_path: cover (past_q && st_q == SIdle && st == SPath);
    c_co_path_idle: cover (past_q && st_q == SPath && st == SIdle);
    c_co_path_check: cover (past_q && st_q == SPath && st == SCheck);
    c_co_path_lrd: cover (past_q && st_q == SPath && st == SLrd);
    c_co_check_idle: cover (past_q && st_q == SCheck && st == SIdle);
    c_co_erd_ewr: cover (past_q && st_q == SErd && st == SEwr);
    c_co_ewr_erd: cover (past_q && st_q == SEwr && st == SErd);
    c_co_lrd_lwr: cover (past_q && st_q == SLrd && st == SLwr);
    c_co_lwr_flush: cover (past_q && st_q == SLwr && st == SFlush);
    c_co_flush_erd: cover (past_q && st_q == SFlush && st == SErd);
  end
endmodule
