// Board request source and data memory (docs/fpga.md "Board top"): a trace player fed by the
// host through a request FIFO, an outstanding-request table per SM, the data frames' content
// tags, and a result FIFO that reports every access back to the host.
//   issue   the FIFO head {sm, write, vpn} moves into the issue register when one of its SM's
//           NumIds request ids is free and a result slot is reserved for it; the register drives
//           one port of its SM while the SM is ready (a register: the GMMU's L1 looks the request
//           up in the cycle it is presented, so nothing but a flip-flop may lie in front of it);
//           the port is taken in turn (0, 1, .., NumPorts-1, 0, ..) over the requests issued, so
//           every port of every SM is used and none is removed by synthesis as unused
//           (docs/fpga.md "The paper-like configuration again")
//   deliver a hit or a miss completion marks the (SM, id) entry done with its PPN (or fatal)
//   retire  one done entry every two cycles: the content tag of the translated frame is read;
//           a write stores tag + 1 (the page's content changed); the access (SM, write, fatal,
//           frame in range, VPN, tag read) goes into the result FIFO, which the host checks
//           against its own record of every page's content
// The host's bus accesses to the tags wait until every delivered access has retired, and no new
// request is issued meanwhile: an access and a DMA of the same frame never cross.
module gmmu_board_player #(
  parameter int unsigned NumSm       = 2,
  parameter int unsigned NumPorts    = 2,
  parameter int unsigned NumIds      = 8,      // request ids per SM (power of two)
  parameter int unsigned ReqDepthW   = 5,      // request FIFO: 2^ReqDepthW entries
  parameter int unsigned FramesW     = 6,      // data frames: 2^FramesW
  parameter int unsigned DataBasePpn = 'h100,  // PPN of data frame 0
  localparam int unsigned VpnW  = gmmu_pkg::VPN_W,
  localparam int unsigned PpnW  = gmmu_pkg::PPN_W,
  localparam int unsigned RidW  = gmmu_pkg::REQ_ID_W,
  localparam int unsigned NumE  = NumSm * NumIds,
  localparam int unsigned ResW  = $clog2(NumE),  // result FIFO: 2^ResW >= NumE entries
  localparam int unsigned Frames = 2 ** FramesW
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  // request FIFO push (host)
  input  logic                             push_i,
  input  logic [7:0]                       push_sm_i,
  input  logic                             push_write_i,
  input  logic [VpnW-1:0]                  push_vpn_i,
  output logic [ReqDepthW:0]               req_free_o,
  // GMMU SM ports
  output logic [NumSm*NumPorts-1:0]        req_valid_o,
  output logic [NumSm*NumPorts*VpnW-1:0]   req_vpn_o,
  output logic [NumSm*NumPorts-1:0]        req_write_o,
  output logic [NumSm*NumPorts*RidW-1:0]   req_id_o,
  input  logic [NumSm-1:0]                 req_ready_i,
  input  logic [NumSm*NumPorts-1:0]        hit_valid_i,
  input  logic [NumSm*NumPorts*RidW-1:0]   hit_id_i,
  input  logic [NumSm*NumPorts*PpnW-1:0]   hit_ppn_i,
  input  logic [NumSm-1:0]                 miss_valid_i,
  input  logic [NumSm*RidW-1:0]            miss_id_i,
  input  logic [NumSm*PpnW-1:0]            miss_ppn_i,
  input  logic [NumSm-1:0]                 miss_fatal_i,
  // result FIFO (host): 4 words per access, res_pop_i takes one word
  input  logic                             res_pop_i,
  output logic [31:0]                      res_word_o,
  output logic [ResW:0]                    res_count_o,
  // content tags (host): 32-bit halves of frame tags; held until ack
  input  logic                             tag_req_i,
  input  logic                             tag_we_i,
  input  logic                             tag_hi_i,
  input  logic [FramesW-1:0]               tag_frame_i,
  input  logic [31:0]                      tag_wdata_i,
  output logic                             tag_ack_o,
  output logic [31:0]                      tag_rdata_o,
  // status
  output logic                             busy_o,      // requests queued or outstanding
  output logic                             err_sm_o,    // pulse: a request named a missing SM
  output logic                             err_rsp_o,   // pulse: a response to no request
  output logic [31:0]                      issued_o,
  output logic [31:0]                      retired_o
);
  localparam int unsigned IdW     = (NumIds > 1) ? $clog2(NumIds) : 1;
  localparam int unsigned EW      = (NumE > 1) ? $clog2(NumE) : 1;
  localparam int unsigned ReqDepth = 2 ** ReqDepthW;
  localparam int unsigned ResDepth = 2 ** ResW;
  localparam int unsigned QW      = 8 + 1 + VpnW;  // request FIFO entry {sm, write, vpn}
  localparam int unsigned RW      = 128;  // result entry: the 4 words (see res_entry)

  // ---------------------------------------------------------------- request FIFO
  logic [QW-1:0]      q_mem [ReqDepth];
  logic [ReqDepthW:0] q_wp_q, q_rp_q;
  logic               q_empty, q_full, q_pop;
  logic [7:0]         head_sm;
  logic               head_write;
  logic [VpnW-1:0]    head_vpn;

  assign q_empty    = q_wp_q == q_rp_q;
  assign q_full     = (q_wp_q - q_rp_q) == (ReqDepthW + 1)'(ReqDepth);
  assign req_free_o = (ReqDepthW + 1)'(ReqDepth) - (q_wp_q - q_rp_q);
  assign {head_sm, head_write, head_vpn} = q_mem[q_rp_q[ReqDepthW-1:0]];

  always_ff @(posedge clk_i) begin
    if (push_i && !q_full) begin
      q_mem[q_wp_q[ReqDepthW-1:0]] <= {push_sm_i, push_write_i, push_vpn_i};
    end
  end

  // ---------------------------------------------------------------- outstanding table
  // busy / done of each (SM, id) entry in flip-flops; what a delivery returns is kept per
  // source (each hit port and the miss port of every SM) in a LUT RAM of NumIds words, and the
  // entry records which source delivered it (src_q). A word holds only what retire needs:
  // {fatal, frame in range, frame} (the PPN's offset from DataBasePpn, which is Frames-aligned),
  // not the 36-bit PPN: the paper-like configuration's 64 entries x 3 sources of PPNs in
  // flip-flops were most of the player's logic (docs/fpga.md, session 14)
  localparam int unsigned NumSrc = NumPorts + 1;  // sources per SM: ports 0.., then the miss
  localparam int unsigned NumDv  = NumSm * NumSrc;
  localparam int unsigned SrcW   = $clog2(NumSrc);
  localparam int unsigned DW     = FramesW + 2;   // delivery word {fatal, in range, frame}
  logic [NumE-1:0]   busy_q, busy_d;
  logic [NumE-1:0]   done_q, done_d;
  logic [SrcW-1:0]   src_q [NumE];
  logic [SrcW-1:0]   src_d [NumE];
  logic [VpnW-1:0]   vpn_q [NumE];
  logic [NumE-1:0]   write_q;
  logic              rsp_err;
  // deliveries by source k = s * NumSrc + src
  logic [NumDv-1:0]  dv_valid, dv_ok;
  logic [RidW-1:0]   dv_rid [NumDv];
  logic [PpnW-1:0]   dv_ppn [NumDv];
  logic [NumDv-1:0]  dv_fatal;
  logic [DW-1:0]     dv_rd [NumSm][NumSrc];  // each source's word of the retire pick's id

  initial begin : p_param_check
    if (NumIds < 2 || (NumIds & (NumIds - 1)) != 0) $fatal(1, "player: NumIds %0d", NumIds);
    if (DataBasePpn % Frames != 0) $fatal(1, "player: DataBasePpn %0d not Frames-aligned",
                                          DataBasePpn);
  end

  // ---------------------------------------------------------------- issue
  logic              head_sm_ok, id_free, issue, tag_wait, send;
  // issue register: the request presented to the GMMU (docs/fpga.md, session 12)
  logic              iss_valid_q;
  logic [7:0]        iss_sm_q;
  logic              iss_write_q;
  logic [VpnW-1:0]   iss_vpn_q;
  logic [IdW-1:0]    iss_id_q;
  // the port of the issue register's request, and that of the next one (in turn)
  localparam int unsigned PortW = (NumPorts > 1) ? $clog2(NumPorts) : 1;
  logic [PortW-1:0]  iss_port_q, nxt_port_q;
  logic [IdW-1:0]    free_id;
  logic [EW-1:0]     issue_e;
  logic [ResW:0]     res_cnt;
  // the number of busy entries, counted as they are taken (issue) and freed (retire's push):
  // always the number of ones in busy_q, without a NumE-input adder
  logic [EW:0]       n_busy_q;

  logic sm_ready;
  assign head_sm_ok = 32'(head_sm) < NumSm;
  always_comb begin
    id_free  = 1'b0;
    free_id  = '0;
    issue_e  = '0;
    sm_ready = 1'b0;
    for (int unsigned s = 0; s < NumSm; s++) begin
      if (32'(iss_sm_q) == s) sm_ready = req_ready_i[s];
      if (32'(head_sm) == s) begin
        for (int i = NumIds - 1; i >= 0; i--) begin
          if (!busy_q[s*NumIds + 32'(i)]) begin
            id_free = 1'b1;
            free_id = IdW'(i);
            // the table entry of (s, i): a constant per loop iteration, so a multiplexer, not
            // the multiplier head_sm * NumIds would infer (a MULT18X18D on ECP5)
            issue_e = EW'(s * NumIds + 32'(i));
          end
        end
      end
    end
  end
  assign tag_wait = tag_req_i;  // the host waits for the tags: issue nothing new
  // the issue register presents its request while the SM is ready; it takes the FIFO head when
  // it is empty or sends in this cycle
  assign send     = iss_valid_q && sm_ready && !tag_wait;
  assign issue    = !q_empty && head_sm_ok && id_free && (!iss_valid_q || send) &&
                    !tag_wait && (32'(n_busy_q) + 32'(res_cnt) < ResDepth);
  assign q_pop    = !q_empty && (issue || !head_sm_ok);
  assign err_sm_o = !q_empty && !head_sm_ok;

  always_comb begin
    req_valid_o = '0;
    req_vpn_o   = '0;
    req_write_o = '0;
    req_id_o    = '0;
    for (int unsigned s = 0; s < NumSm; s++) begin
      for (int unsigned p = 0; p < NumPorts; p++) begin
        req_vpn_o[(s*NumPorts+p)*VpnW +: VpnW] = iss_vpn_q;
        req_write_o[s*NumPorts+p]              = iss_write_q;
        req_id_o[(s*NumPorts+p)*RidW +: RidW]  = RidW'(iss_id_q);
        req_valid_o[s*NumPorts+p]              = send && (32'(iss_sm_q) == s) &&
                                                 (32'(iss_port_q) == p);
      end
    end
  end

  // ---------------------------------------------------------------- retire
  // retire: pick the lowest done entry (RtIdle), read its word and its frame's tag (RtWord), check
  // and push the result (RtCheck). The pick is registered before its word is read (rt_e_q): no
  // path from the done bits through the pick into the word's LUT RAM and the tag RAM's address
  // (board only, docs/fpga.md session 16)
  typedef enum logic [1:0] {RtIdle, RtWord, RtCheck} rt_state_e;
  rt_state_e         rt_state_q, rt_state_d;
  logic [EW-1:0]     rt_e_q, rt_e_d, pick_e;
  logic              pick_any;
  logic [DW-1:0]     pick_word;
  logic              rt_ok_q, rt_ok_d, rt_fatal_q, rt_fatal_d;
  logic [FramesW-1:0] rt_frame_q, rt_frame_d;
  logic [31:0]       tag_lo_rd_q, tag_hi_rd_q;
  logic [63:0]       rt_tag;
  logic              res_push;
  logic [RW-1:0]     res_entry;

  // the lowest done entry, in two levels: the lowest SM with a done entry, then that SM's
  // lowest done id (the entry one priority chain over all NumE entries would pick, at a
  // fraction of its depth: the retire path into the tag RAM's address, docs/fpga.md session 14)
  localparam int unsigned PSmW = (NumSm > 1) ? $clog2(NumSm) : 1;
  logic [PSmW-1:0]  pick_sm;
  logic [NumSm-1:0] sm_any;
  logic [IdW-1:0]   sm_id [NumSm];
  always_comb begin
    for (int unsigned s = 0; s < NumSm; s++) begin
      sm_any[s] = |done_q[s*NumIds +: NumIds];
      sm_id[s]  = '0;
      for (int i = NumIds - 1; i >= 0; i--) begin
        if (done_q[s*NumIds + 32'(i)]) sm_id[s] = IdW'(i);
      end
    end
    pick_any = |sm_any;
    pick_sm  = '0;
    for (int s = NumSm - 1; s >= 0; s--) begin
      if (sm_any[s]) pick_sm = PSmW'(s);
    end
    pick_e = EW'((32'(pick_sm) * NumIds) | 32'(sm_id[pick_sm]));
  end
  // the picked entry's word (rt_e_q, registered by RtIdle): its id's word in the RAM of the
  // source that delivered it (indexed by SM and source, no index arithmetic on the retire path)
  logic [PSmW-1:0] rt_sm;
  assign rt_sm     = PSmW'(rt_e_q >> IdW);
  assign pick_word = dv_rd[rt_sm][src_q[rt_e_q]];
  assign rt_tag = {tag_hi_rd_q, tag_lo_rd_q};

  always_comb begin
    rt_state_d = rt_state_q;
    rt_e_d     = rt_e_q;
    rt_ok_d    = rt_ok_q;
    rt_fatal_d = rt_fatal_q;
    rt_frame_d = rt_frame_q;
    res_push   = 1'b0;
    unique case (rt_state_q)
      RtIdle: begin
        if (pick_any) begin
          rt_e_d     = pick_e;
          rt_state_d = RtWord;
        end
      end
      RtWord: begin
        rt_fatal_d = pick_word[DW-1];
        rt_ok_d    = !pick_word[DW-1] && pick_word[DW-2];
        rt_frame_d = pick_word[FramesW-1:0];
        rt_state_d = RtCheck;
      end
      RtCheck: begin
        res_push   = 1'b1;  // a slot was reserved at issue
        rt_state_d = RtIdle;
      end
      default: rt_state_d = RtIdle;
    endcase
  end

  // result entry: word 0 {valid, write, fatal, frame_ok, 4'b0, sm[7:0], 12'b0, vpn[35:32]},
  // word 1 vpn[31:0], word 2 tag[31:0], word 3 tag[63:32] (0 when fatal or out of range)
  logic [VpnW-1:0] rt_vpn;
  assign rt_vpn    = vpn_q[rt_e_q];
  assign res_entry = {rt_ok_q ? rt_tag : 64'd0, rt_vpn[31:0],
                      1'b1, write_q[rt_e_q], rt_fatal_q, rt_ok_q, 4'b0,
                      8'(32'(rt_e_q) / NumIds), 12'b0, rt_vpn[VpnW-1:32]};

  // ---------------------------------------------------------------- content tags
  logic [31:0]        tag_lo_mem [Frames];
  logic [31:0]        tag_hi_mem [Frames];
  logic [FramesW-1:0] tag_addr;
  logic               tag_we_lo, tag_we_hi, tag_re, tag_grant;
  logic [31:0]        tag_wlo, tag_whi;
  logic               tag_rd_pend_q, tag_hi_sel_q;
  logic               rt_wr;

  // the host gets the port only when nothing is delivered and unretired
  assign tag_grant = tag_req_i && !tag_rd_pend_q && rt_state_q == RtIdle && !pick_any &&
                     (done_q == '0);
  assign rt_wr     = rt_state_q == RtCheck && rt_ok_q && write_q[rt_e_q];
  always_comb begin
    tag_addr  = tag_frame_i;
    tag_we_lo = 1'b0;
    tag_we_hi = 1'b0;
    tag_re    = 1'b0;
    tag_wlo   = tag_wdata_i;
    tag_whi   = tag_wdata_i;
    if (rt_state_q == RtWord) begin
      tag_addr = pick_word[FramesW-1:0];
      tag_re   = 1'b1;
    end else if (rt_wr) begin
      tag_addr  = rt_frame_q;
      {tag_whi, tag_wlo} = rt_tag + 64'd1;
      tag_we_lo = 1'b1;
      tag_we_hi = 1'b1;
    end else if (tag_grant) begin
      tag_re    = !tag_we_i;
      tag_we_lo = tag_we_i && !tag_hi_i;
      tag_we_hi = tag_we_i && tag_hi_i;
    end
  end
  assign tag_ack_o   = (tag_grant && tag_we_i) || tag_rd_pend_q;
  assign tag_rdata_o = tag_hi_sel_q ? tag_hi_rd_q : tag_lo_rd_q;

  always_ff @(posedge clk_i) begin
    if (tag_we_lo) begin
      tag_lo_mem[tag_addr] <= tag_wlo;
    end
    if (tag_we_hi) begin
      tag_hi_mem[tag_addr] <= tag_whi;
    end
    if (tag_re) begin
      tag_lo_rd_q <= tag_lo_mem[tag_addr];
      tag_hi_rd_q <= tag_hi_mem[tag_addr];
    end
  end

  // ---------------------------------------------------------------- deliveries
  for (genvar gs = 0; gs < NumSm; gs++) begin : g_dv_sm
    for (genvar gk = 0; gk < NumSrc; gk++) begin : g_dv_src
      localparam int unsigned K = gs * NumSrc + gk;
      if (gk < NumPorts) begin : g_hit
        assign dv_valid[K] = hit_valid_i[gs*NumPorts+gk];
        assign dv_rid[K]   = hit_id_i[(gs*NumPorts+gk)*RidW +: RidW];
        assign dv_ppn[K]   = hit_ppn_i[(gs*NumPorts+gk)*PpnW +: PpnW];
        assign dv_fatal[K] = 1'b0;
      end else begin : g_miss
        assign dv_valid[K] = miss_valid_i[gs];
        assign dv_rid[K]   = miss_id_i[gs*RidW +: RidW];
        assign dv_ppn[K]   = miss_ppn_i[gs*PpnW +: PpnW];
        assign dv_fatal[K] = miss_fatal_i[gs];
      end
      // a delivery to an id that is not outstanding, or is already done, is an error
      assign dv_ok[K] = dv_valid[K] && 32'(dv_rid[K]) < NumIds &&
                        busy_q[gs*NumIds + 32'(dv_rid[K][IdW-1:0])] &&
                        !done_q[gs*NumIds + 32'(dv_rid[K][IdW-1:0])];
      // the source's LUT RAM: written at the delivered id, read at the retire pick's id
      logic [DW-1:0] mem [NumIds];
      always_ff @(posedge clk_i) begin : p_dv_ram
        if (dv_ok[K]) begin
          mem[dv_rid[K][IdW-1:0]] <= {dv_fatal[K],
                                      dv_ppn[K][PpnW-1:FramesW] ==
                                        (PpnW - FramesW)'(DataBasePpn / Frames),
                                      dv_ppn[K][FramesW-1:0]};
        end
      end
      assign dv_rd[gs][gk] = mem[rt_e_q[IdW-1:0]];
    end
  end

  always_comb begin
    busy_d  = busy_q;
    done_d  = done_q;
    src_d   = src_q;
    rsp_err = |(dv_valid & ~dv_ok);
    if (res_push) begin
      busy_d[rt_e_q] = 1'b0;
      done_d[rt_e_q] = 1'b0;
    end
    // sources of one SM in order: a later one wins an entry two deliver in one cycle
    for (int unsigned s = 0; s < NumSm; s++) begin
      for (int unsigned k = 0; k < NumSrc; k++) begin
        if (dv_ok[s*NumSrc+k]) begin
          done_d[s*NumIds + 32'(dv_rid[s*NumSrc+k][IdW-1:0])] = 1'b1;
          src_d[s*NumIds + 32'(dv_rid[s*NumSrc+k][IdW-1:0])]  = SrcW'(k);
        end
      end
    end
    if (issue) begin
      busy_d[issue_e] = 1'b1;
    end
  end
  assign err_rsp_o = rsp_err;

  always_ff @(posedge clk_i) begin
    if (issue) begin
      vpn_q[issue_e]   <= head_vpn;
      write_q[issue_e] <= head_write;
    end
  end

  // ---------------------------------------------------------------- result FIFO
  logic [RW-1:0] r_mem [ResDepth];
  logic [ResW:0] r_wp_q, r_rp_q;
  logic [1:0]    r_word_q;
  logic [RW-1:0] r_head;

  assign res_cnt      = r_wp_q - r_rp_q;
  assign res_count_o  = res_cnt;
  assign r_head       = r_mem[r_rp_q[ResW-1:0]];
  assign res_word_o   = (res_cnt == '0) ? 32'd0 : r_head[32*r_word_q +: 32];

  always_ff @(posedge clk_i) begin
    if (res_push) begin
      r_mem[r_wp_q[ResW-1:0]] <= res_entry;
    end
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q_wp_q        <= '0;
      q_rp_q        <= '0;
      busy_q        <= '0;
      done_q        <= '0;
      rt_state_q    <= RtIdle;
      rt_e_q        <= '0;
      rt_ok_q       <= 1'b0;
      rt_fatal_q    <= 1'b0;
      rt_frame_q    <= '0;
      tag_rd_pend_q <= 1'b0;
      tag_hi_sel_q  <= 1'b0;
      r_wp_q        <= '0;
      r_rp_q        <= '0;
      r_word_q      <= '0;
      issued_o      <= '0;
      retired_o     <= '0;
      iss_valid_q   <= 1'b0;
      iss_sm_q      <= '0;
      iss_write_q   <= 1'b0;
      iss_vpn_q     <= '0;
      iss_id_q      <= '0;
      iss_port_q    <= '0;
      nxt_port_q    <= '0;
      src_q         <= '{default: '0};
      n_busy_q      <= '0;
    end else begin
      if (push_i && !q_full) begin
        q_wp_q <= q_wp_q + 1'b1;
      end
      if (q_pop) begin
        q_rp_q <= q_rp_q + 1'b1;
      end
      busy_q        <= busy_d;
      done_q        <= done_d;
      src_q         <= src_d;
      n_busy_q      <= n_busy_q + (EW + 1)'(issue) - (EW + 1)'(res_push);
      rt_state_q    <= rt_state_d;
      rt_e_q        <= rt_e_d;
      rt_ok_q       <= rt_ok_d;
      rt_fatal_q    <= rt_fatal_d;
      rt_frame_q    <= rt_frame_d;
      tag_rd_pend_q <= tag_grant && !tag_we_i;
      if (tag_grant) begin
        tag_hi_sel_q <= tag_hi_i;
      end
      if (res_push) begin
        r_wp_q <= r_wp_q + 1'b1;
      end
      if (res_pop_i && res_cnt != '0) begin
        r_word_q <= r_word_q + 1'b1;
        if (r_word_q == 2'd3) begin
          r_rp_q <= r_rp_q + 1'b1;
        end
      end
      if (issue) begin
        iss_valid_q <= 1'b1;
        iss_sm_q    <= head_sm;
        iss_write_q <= head_write;
        iss_vpn_q   <= head_vpn;
        iss_id_q    <= free_id;
        iss_port_q  <= nxt_port_q;
        nxt_port_q  <= (32'(nxt_port_q) == NumPorts - 1) ? '0 : nxt_port_q + 1'b1;
      end else if (send) begin
        iss_valid_q <= 1'b0;
      end
      if (send) begin
        issued_o <= issued_o + 1'b1;
      end
      if (res_push) begin
        retired_o <= retired_o + 1'b1;
      end
    end
  end

  assign busy_o = !q_empty || (busy_q != '0);

`ifndef SYNTHESIS
  // the counted busy entries are the busy entries
  a_n_busy: assert property (@(posedge clk_i) disable iff (!rst_ni)
    32'(n_busy_q) == $countones(busy_q));
`endif
endmodule
