// Far-fault unit and fault-buffer writer (docs/microarch.md §7): far-fault MSHRs with a per-SM
// quota, the dropped / replay / cancel registers, and the fault-entry write register.
// C model mirror: cmodel/ff.c.
module gmmu_ff #(
  parameter int unsigned NumSm     = 2,
  parameter int unsigned FfEntries = 4,
  parameter int unsigned FfQuota   = 2,
  parameter int unsigned NumAsids  = 1,
  localparam int unsigned FtW      = gmmu_pkg::FB_FAULT_TYPE_W,
  // fault-buffer entries are FB_ENTRY_BYTES aligned: the low address bits are not stored
  localparam int unsigned FbOffW   = $clog2(gmmu_pkg::FB_ENTRY_BYTES),
  localparam int unsigned FbAddrW  = gmmu_pkg::PA_W - FbOffW,
  localparam int unsigned FCntW    = $clog2(FfEntries + 1)
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic [63:0]                     time_i,
  // fault offer from the L2 MSHRs, into the offer register (§7)
  input  logic                            offer_valid_i,
  input  gmmu_tlb_pkg::fault_offer_t      offer_i,  // record (req: asid, vpn, write; fault_type)
  input  logic [NumSm-1:0]                offer_mask_i,
  output logic                            ready_o,  // registered: the L2 offers only while 1
  // commands (command cycle: the offer register holds)
  input  logic                            cmd_cycle_i,
  input  logic                            replay_page_i,
  input  logic                            replay_all_i,
  input  logic                            cancel_page_i,
  input  logic [gmmu_pkg::VPN_W-1:0]      cmd_vpn_i,
  input  logic [gmmu_pkg::ASID_W-1:0]     cmd_asid_i,
  // ring registers in gmmu_csr
  input  logic [FbAddrW-1:0]              fb_base_i,
  input  logic [gmmu_pkg::FB_IDX_W:0]     fb_size_i,
  input  logic [gmmu_pkg::FB_IDX_W-1:0]   get_i,
  input  logic                            fb_size_wr_i,  // legal FB_SIZE write: PUT, OVERFLOW <- 0
  input  logic                            ovf_clr_i,     // FB_STATUS W1C of OVERFLOW
  output logic [gmmu_pkg::FB_IDX_W-1:0]   put_o,
  output logic                            overflow_o,
  output logic [FCntW-1:0]                ff_count_o,
  // to the L1s
  output logic [NumSm-1:0]                replay_o,
  output logic                            cancel_valid_o,
  output logic [gmmu_pkg::VPN_W-1:0]      cancel_vpn_o,
  output logic [gmmu_pkg::ASID_W-1:0]     cancel_asid_o,
  // fault-entry write port
  output logic                            fb_wr_valid_o,
  input  logic                            fb_wr_ready_i,
  output logic [gmmu_pkg::PA_W-1:0]       fb_wr_addr_o,
  output logic [255:0]                    fb_wr_data_o,
  // events and idle contribution
  output logic                            ev_new_o,
  output logic                            ev_merge_o,
  output logic                            ev_drop_o,
  output logic                            ev_ovf_o,
  output logic                            busy_o
);
  localparam int unsigned VpnW  = gmmu_pkg::VPN_W;
  localparam int unsigned IdxW  = gmmu_pkg::FB_IDX_W;
  localparam int unsigned FIdxW = (FfEntries > 1) ? $clog2(FfEntries) : 1;
  localparam int unsigned SmW   = (NumSm > 1) ? $clog2(NumSm) : 1;
  localparam int unsigned AccW  = gmmu_pkg::FB_ACCESS_W;
  localparam int unsigned AsidW = gmmu_pkg::ASID_W;
  // stored ASIDs keep only their log2(NumAsids) low bits (docs/microarch.md §14.1): every ASID
  // here is already reduced, the registers take x_d & AsidMask so that synthesis removes the
  // constant-0 flip-flops (none with one address space)
  localparam logic [gmmu_pkg::ASID_W-1:0] AsidMask = gmmu_pkg::ASID_W'(NumAsids - 1);

  // ---------------------------------------------------------------- state
  logic [FfEntries-1:0] e_valid_q, e_valid_d;
  logic [VpnW-1:0]      e_vpn_q [FfEntries];
  logic [VpnW-1:0]      e_vpn_d [FfEntries];
  logic [AsidW-1:0]     e_asid_q [FfEntries];  // entries are per (asid, vpn), §14.3
  logic [AsidW-1:0]     e_asid_d [FfEntries];
  logic [NumSm-1:0]     e_mask_q [FfEntries];
  logic [NumSm-1:0]     e_mask_d [FfEntries];
  // counts of valid entries (FF_COUNT) and, per SM, of valid entries whose mask has the SM
  // (the quota's), kept as the entries change: always the number of ones of e_valid_q and of
  // the valid entries' mask columns (cycle-neutral, §7 defines them by the entries), without an
  // adder over the entries (the paper-like configuration's longest path, docs/fpga.md)
  logic [FCntW-1:0]     count_q, count_d;
  logic [FCntW-1:0]     sm_cnt_q [NumSm];
  logic [FCntW-1:0]     sm_cnt_d [NumSm];
  // offer register (§7): the L2's offer, processed in the next cycle that is not a command cycle
  logic                 off_valid_q, off_valid_d;
  logic [VpnW-1:0]      off_vpn_q, off_vpn_d;
  logic [AsidW-1:0]     off_asid_q, off_asid_d;
  logic                 off_write_q, off_write_d;
  logic [FtW-1:0]       off_ft_q, off_ft_d;
  logic [NumSm-1:0]     off_mask_q, off_mask_d;
  logic [NumSm-1:0]     dropped_q, dropped_d;
  logic [NumSm-1:0]     replay_q, replay_d;
  logic                 cancel_valid_q, cancel_valid_d;
  logic [VpnW-1:0]      cancel_vpn_q, cancel_vpn_d;
  logic [AsidW-1:0]     cancel_asid_q, cancel_asid_d;
  logic [IdxW-1:0]      put_q, put_d;
  // PUT + 1 modulo 2^FB_IDX_W (not FB_SIZE), kept beside put_q (always put_q + 1: formal
  // ff_put_p1): the ring-full test compares a register, not an incrementer's sum (cycle-neutral,
  // docs/fpga.md session 15)
  logic [IdxW-1:0]      put_p1_q, put_p1_d;
  logic                 overflow_q, overflow_d;
  // fault-entry write register; fw_data is kept as its variable fields (see docs/rtl.md)
  logic                 fw_valid_q, fw_valid_d;
  logic [FbAddrW-1:0]   fw_addr_q, fw_addr_d;
  logic                 fw_set_q, fw_set_d;       // constant flag bits (REPLAYABLE, VALID)
  logic [VpnW-1:0]      fw_vpn_q, fw_vpn_d;
  logic [AsidW-1:0]     fw_asid_q, fw_asid_d;
  logic [63:0]          fw_time_q, fw_time_d;
  logic [NumSm-1:0]     fw_mask_q, fw_mask_d;
  logic [FtW-1:0]       fw_ft_q, fw_ft_d;
  logic [SmW-1:0]       fw_client_q, fw_client_d;
  logic                 fw_write_q, fw_write_d;

  assign put_o          = put_q;
  assign overflow_o     = overflow_q;
  assign replay_o       = replay_q;
  assign cancel_valid_o = cancel_valid_q;
  assign cancel_vpn_o   = cancel_vpn_q;
  assign cancel_asid_o  = cancel_asid_q;
  assign fb_wr_valid_o  = fw_valid_q;
  assign fb_wr_addr_o   = {fw_addr_q, FbOffW'(0)};
  assign busy_o         = fw_valid_q || off_valid_q || cancel_valid_q || (|replay_q);

  // an offer is processed in this cycle: the offer register's (off_*_q), outside a command cycle
  logic of_valid;
  assign of_valid = off_valid_q && !cmd_cycle_i;

  // fault-buffer entry: every field at its place of spec/gmmu.toml [fb_field] (FB_<field>_BIT)
  always_comb begin : p_fb_entry
    fb_wr_data_o = '0;
    fb_wr_data_o[gmmu_pkg::FB_ASID_BIT +: gmmu_pkg::FB_ASID_W] = fw_asid_q;
    fb_wr_data_o[gmmu_pkg::FB_VPN_LO_BIT +: gmmu_pkg::FB_VPN_LO_W] =
      fw_vpn_q[gmmu_pkg::FB_VPN_LO_W-1:0];
    fb_wr_data_o[gmmu_pkg::FB_VPN_HI_BIT +: gmmu_pkg::FB_VPN_HI_W] =
      fw_vpn_q[VpnW-1:gmmu_pkg::FB_VPN_LO_W];
    fb_wr_data_o[gmmu_pkg::FB_TS_LO_BIT +: gmmu_pkg::FB_TS_LO_W] =
      fw_time_q[gmmu_pkg::FB_TS_LO_W-1:0];
    fb_wr_data_o[gmmu_pkg::FB_TS_HI_BIT +: gmmu_pkg::FB_TS_HI_W] =
      fw_time_q[gmmu_pkg::FB_TS_LO_W +: gmmu_pkg::FB_TS_HI_W];
    fb_wr_data_o[gmmu_pkg::FB_SM_MASK_BIT +: gmmu_pkg::FB_SM_MASK_W] =
      gmmu_pkg::FB_SM_MASK_W'(fw_mask_q);
    fb_wr_data_o[gmmu_pkg::FB_FAULT_TYPE_BIT +: FtW]     = fw_ft_q;
    fb_wr_data_o[gmmu_pkg::FB_REPLAYABLE_BIT]            = fw_set_q;
    fb_wr_data_o[gmmu_pkg::FB_CLIENT_BIT +: SmW]         = fw_client_q;
    fb_wr_data_o[gmmu_pkg::FB_ACCESS_BIT +: AccW]        = !fw_set_q ? AccW'(0) :
                                                           fw_write_q ? AccW'(gmmu_pkg::AT_WRITE)
                                                                      : AccW'(gmmu_pkg::AT_READ);
    fb_wr_data_o[gmmu_pkg::FB_VALID_BIT]                 = fw_set_q;
  end

  // ---------------------------------------------------------------- offer decode (registers only)
  logic                 merge_found, free_found, ring_off, ring_full;
  logic [FIdxW-1:0]     free_idx;
  // the entries holding the offer's (asid, vpn): at most one (a_one_entry_per_vpn, formal
  // ff_one_entry_per_vpn), so a merge updates the matching entry without an index (no priority
  // encoder between the merge search and the next state: the L2 -> far-fault unit path,
  // docs/fpga.md)
  logic [FfEntries-1:0] vpn_match;
  logic [NumSm-1:0]     quota_ok, avail;
  logic [SmW-1:0]       client;
  logic [IdxW:0]        put_inc;

  always_comb begin : p_mshr_sel
    free_found  = 1'b0;
    free_idx    = '0;
    for (int unsigned i = 0; i < FfEntries; i++) begin
      vpn_match[i] = e_valid_q[i] && e_vpn_q[i] == off_vpn_q && e_asid_q[i] == off_asid_q;
      if (!free_found && !e_valid_q[i]) begin
        free_found = 1'b1;
        free_idx   = FIdxW'(i);
      end
    end
    merge_found = |vpn_match;
    for (int unsigned s = 0; s < NumSm; s++) quota_ok[s] = sm_cnt_q[s] < FCntW'(FfQuota);
    avail  = off_mask_q & quota_ok;
    client = '0;
    for (int s = NumSm - 1; s >= 0; s--) begin
      if (avail[s]) client = SmW'(s);
    end
  end

  assign ff_count_o = count_q;
  // FB_SIZE - 1 of a legal size (a power of two up to 2^FB_IDX_W, §8; 0 when the ring is off,
  // which is tested first) as the OR of the size's higher bits: no carry chain
  logic [IdxW-1:0] size_mask;
  always_comb begin : p_size_mask
    for (int unsigned i = 0; i < IdxW; i++) size_mask[i] = (fb_size_i >> (i + 1)) != '0;
  end
  assign put_inc    = {1'b0, put_p1_q & size_mask};
  assign ring_off   = (fb_size_i == '0);
  assign ring_full  = (put_inc == {1'b0, get_i});
  // the L2 offers a fault only while the fault-entry write register and the offer register are
  // empty (§5.3 step 1): registers, so no path runs from the L2 through the merge search back
  // into it; the offer register cuts the path from the L2's MSHR selection into the merge search
  assign ready_o    = !fw_valid_q && !off_valid_q;

  // offer outcome (exactly one when of_valid)
  logic o_merge, o_drop, o_ovf, o_post;
  always_comb begin : p_offer
    o_merge   = 1'b0;
    o_drop    = 1'b0;
    o_ovf     = 1'b0;
    o_post    = 1'b0;
    if (of_valid) begin
      if (merge_found) begin
        o_merge = 1'b1;
      end else if (avail == '0 || !free_found) begin
        o_drop = 1'b1;
      end else if (ring_off || ring_full) begin
        o_drop = 1'b1;
        o_ovf  = 1'b1;
      end else begin
        o_post = 1'b1;
      end
    end
  end

  assign ev_new_o   = o_post;
  assign ev_merge_o = o_merge;
  assign ev_drop_o  = o_drop;
  assign ev_ovf_o   = o_ovf;

  // the valid entries of the page command's (asid, vpn): at most one (ff_one_entry_per_vpn)
  logic [FfEntries-1:0] cmd_match;
  always_comb begin : p_cmd_match
    for (int unsigned i = 0; i < FfEntries; i++) begin
      cmd_match[i] = e_valid_q[i] && e_vpn_q[i] == cmd_vpn_i && e_asid_q[i] == cmd_asid_i;
    end
  end

  // ---------------------------------------------------------------- next state (§7)
  always_comb begin : p_next_state
    e_valid_d      = e_valid_q;
    e_vpn_d        = e_vpn_q;
    e_asid_d       = e_asid_q;
    e_mask_d       = e_mask_q;
    dropped_d      = dropped_q;
    replay_d       = '0;
    cancel_valid_d = 1'b0;
    cancel_vpn_d   = cancel_vpn_q;
    cancel_asid_d  = cancel_asid_q;
    put_d          = put_q;
    put_p1_d       = put_p1_q;
    overflow_d     = overflow_q;
    fw_valid_d     = fw_valid_q && !fb_wr_ready_i;
    fw_addr_d      = fw_addr_q;
    fw_set_d       = fw_set_q;
    fw_vpn_d       = fw_vpn_q;
    fw_asid_d      = fw_asid_q;
    fw_time_d      = fw_time_q;
    fw_mask_d      = fw_mask_q;
    fw_ft_d        = fw_ft_q;
    fw_client_d    = fw_client_q;
    fw_write_d     = fw_write_q;
    // the offer register: emptied when processed, written by the L2's offer (only while
    // ready_o, so never both in one cycle)
    off_valid_d    = off_valid_q && !of_valid;
    off_vpn_d      = off_vpn_q;
    off_asid_d     = off_asid_q;
    off_write_d    = off_write_q;
    off_ft_d       = off_ft_q;
    off_mask_d     = off_mask_q;
    if (offer_valid_i) begin
      off_valid_d = 1'b1;
      off_vpn_d   = offer_i.req.vpn;
      off_asid_d  = offer_i.req.asid;
      off_write_d = offer_i.req.write;
      off_ft_d    = offer_i.fault_type;
      off_mask_d  = offer_mask_i;
    end

    // offer (the offer register's)
    if (o_merge) begin
      for (int unsigned i = 0; i < FfEntries; i++) begin
        if (vpn_match[i]) e_mask_d[i] = e_mask_q[i] | off_mask_q;
      end
    end
    if (o_drop) dropped_d = dropped_q | off_mask_q;
    if (o_ovf) overflow_d = 1'b1;
    if (o_post) begin
      e_valid_d[free_idx] = 1'b1;
      e_vpn_d[free_idx]   = off_vpn_q;
      e_asid_d[free_idx]  = off_asid_q;
      e_mask_d[free_idx]  = avail;
      dropped_d           = dropped_q | (off_mask_q & ~avail);
      fw_valid_d          = 1'b1;
      fw_addr_d           = fb_base_i + FbAddrW'(put_q);
      fw_set_d            = 1'b1;
      fw_vpn_d            = off_vpn_q;
      fw_asid_d           = off_asid_q;
      fw_time_d           = time_i;
      fw_mask_d           = avail;
      fw_ft_d             = off_ft_q;
      fw_client_d         = client;
      fw_write_d          = off_write_q;
      put_d               = put_inc[IdxW-1:0];
      put_p1_d            = put_inc[IdxW-1:0] + 1'b1;
    end
    // commands
    if (replay_page_i) begin
      replay_d  = dropped_q;
      dropped_d = '0;
      for (int unsigned i = 0; i < FfEntries; i++) begin
        if (cmd_match[i]) begin
          e_valid_d[i] = 1'b0;
          replay_d     = replay_d | e_mask_q[i];
        end
      end
    end
    if (replay_all_i) begin
      e_valid_d = '0;
      replay_d  = '1;
      dropped_d = '0;
    end
    if (cancel_page_i) begin
      for (int unsigned i = 0; i < FfEntries; i++) begin
        if (cmd_match[i]) e_valid_d[i] = 1'b0;
      end
      cancel_valid_d = 1'b1;
      cancel_vpn_d   = cmd_vpn_i;
      cancel_asid_d  = cmd_asid_i;
    end
    // host CSR writes, applied after the unit's own updates
    if (fb_size_wr_i) begin
      put_d      = '0;
      put_p1_d   = IdxW'(1);
      overflow_d = 1'b0;
    end
    if (ovf_clr_i && !o_ovf) overflow_d = 1'b0;
  end

  // ---------------------------------------------------------------- counts (§7)
  // A post adds one valid entry (a free one) with mask avail, a merge adds the offer's SMs to
  // one valid entry, a page command (replay or cancel) frees at most one entry (one entry per
  // (asid, vpn): ff_one_entry_per_vpn), REPLAY_ALL frees all; a processed offer and a command
  // never share a cycle (the offer register holds in a command cycle), nor do two commands (§7; formal ring:prove checks count_q and sm_cnt_q
  // against the entries)
  // The entries a page command frees are its match (a post, the only step that sets a valid bit,
  // never shares a cycle with a command): taken from the compare, not from e_valid_d, and every
  // OR over the entries a reduction (the LUT mapper had made e_valid_d -> the count's adder a
  // chain of 24 LUTs, docs/fpga.md session 16)
  logic [FfEntries-1:0] pg_clr;   // entries a page command frees
  logic                 pg_any;
  always_comb begin : p_counts
    pg_clr = cmd_match & {FfEntries{replay_page_i || cancel_page_i}};
    pg_any = |pg_clr;
    count_d = count_q + FCntW'(o_post) - FCntW'(pg_any);
    for (int unsigned s = 0; s < NumSm; s++) begin
      logic inc, dec, in_match;
      logic [FfEntries-1:0] has_s;  // the entries whose mask holds SM s
      for (int unsigned i = 0; i < FfEntries; i++) has_s[i] = e_mask_q[i][s];
      in_match = |(vpn_match & has_s);  // the merged entry (the one match) has SM s already
      dec      = |(pg_clr & has_s);
      inc = (o_post && avail[s]) || (o_merge && off_mask_q[s] && !in_match);
      sm_cnt_d[s] = sm_cnt_q[s] + FCntW'(inc) - FCntW'(dec);
    end
    if (replay_all_i) begin
      count_d  = '0;
      sm_cnt_d = '{default: '0};
    end
  end

  // ---------------------------------------------------------------- registers
  // the register's D input: the stored bits only (AsidMask)
  logic [AsidW-1:0] e_asid_k [FfEntries];
  always_comb begin : p_asid_keep
    for (int unsigned i = 0; i < FfEntries; i++) e_asid_k[i] = e_asid_d[i] & AsidMask;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      e_valid_q      <= '0;
      count_q        <= '0;
      sm_cnt_q       <= '{default: '0};
      dropped_q      <= '0;
      replay_q       <= '0;
      cancel_valid_q <= 1'b0;
      cancel_vpn_q   <= '0;
      cancel_asid_q  <= '0;
      put_q          <= '0;
      put_p1_q       <= IdxW'(1);
      overflow_q     <= 1'b0;
      fw_valid_q     <= 1'b0;
      fw_addr_q      <= '0;
      fw_set_q       <= 1'b0;
      fw_vpn_q       <= '0;
      fw_asid_q      <= '0;
      fw_time_q      <= '0;
      fw_mask_q      <= '0;
      fw_ft_q        <= '0;
      fw_client_q    <= '0;
      fw_write_q     <= 1'b0;
      off_valid_q    <= 1'b0;
      off_vpn_q      <= '0;
      off_asid_q     <= '0;
      off_write_q    <= 1'b0;
      off_ft_q       <= '0;
      off_mask_q     <= '0;
      e_vpn_q        <= '{default: '0};
      e_asid_q       <= '{default: '0};
      e_mask_q       <= '{default: '0};
    end else begin
      e_valid_q      <= e_valid_d;
      count_q        <= count_d;
      sm_cnt_q       <= sm_cnt_d;
      e_vpn_q        <= e_vpn_d;
      e_asid_q       <= e_asid_k;
      e_mask_q       <= e_mask_d;
      dropped_q      <= dropped_d;
      replay_q       <= replay_d;
      cancel_valid_q <= cancel_valid_d;
      cancel_vpn_q   <= cancel_vpn_d;
      cancel_asid_q  <= cancel_asid_d & AsidMask;
      put_q          <= put_d;
      put_p1_q       <= put_p1_d;
      overflow_q     <= overflow_d;
      fw_valid_q     <= fw_valid_d;
      fw_addr_q      <= fw_addr_d;
      fw_set_q       <= fw_set_d;
      fw_vpn_q       <= fw_vpn_d;
      fw_asid_q      <= fw_asid_d & AsidMask;
      fw_time_q      <= fw_time_d;
      fw_mask_q      <= fw_mask_d;
      fw_ft_q        <= fw_ft_d;
      fw_client_q    <= fw_client_d;
      fw_write_q     <= fw_write_d;
      off_valid_q    <= off_valid_d;
      off_vpn_q      <= off_vpn_d;
      off_asid_q     <= off_asid_d & AsidMask;
      off_write_q    <= off_write_d;
      off_ft_q       <= off_ft_d;
      off_mask_q     <= off_mask_d;
    end
  end

  // ---------------------------------------------------------------- assertions (§11)
`ifndef SYNTHESIS
  // the entries a page command frees, from the compare, are the valid bits it clears (the counts
  // take them; REPLAY_ALL sets the counts to 0)
  a_pg_clr: assert property (@(posedge clk_i) disable iff (!rst_ni)
    !replay_all_i |-> pg_clr == (e_valid_q & ~e_valid_d));
  // at most one valid far-fault entry per vpn
  a_one_entry_per_vpn: assert property (@(posedge clk_i) disable iff (!rst_ni)
    of_valid |-> $onehot0(vpn_match));
  // the L2 offers only while ready_o (§5.3 step 1): an offer never overwrites the offer
  // register, and a post never overwrites a pending write
  a_offer_ready: assert property (@(posedge clk_i) disable iff (!rst_ni)
    offer_valid_i |-> ready_o);
  a_off_fw_empty: assert property (@(posedge clk_i) disable iff (!rst_ni)
    off_valid_q |-> !fw_valid_q);
`endif
endmodule
