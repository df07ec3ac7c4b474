// Per-SM L1 TLB (docs/microarch.md §4): base + large (2 MB) fully associative arrays with tree
// PLRU (the base array set-associative with L1Sets > 1, §1.4), per-port registered hit
// responses, and the request table (miss MSHRs).
// C model mirror: cmodel/l1_tlb.c.
module gmmu_l1_tlb #(
  parameter int unsigned NumPorts       = 2,
  parameter int unsigned L1Entries      = 8,
  parameter int unsigned L1Sets         = 1,  // base array sets (1: fully associative, §1.4)
  parameter int unsigned L1LargeEntries = 2,
  parameter int unsigned L1ReqEntries   = 4,
  parameter int unsigned NumAsids       = 1,
  parameter int unsigned LineBitmap     = 0,  // referenced-line bitmaps (§20)
  // 1: miss_vpn_o / miss_asid_o carry the completing request's page (the access counters'
  // pick, §19.8); 0: they are 0 (gmmu_top without access counters), so that a synthesis that
  // keeps this module (fpga_build.py --share-l1) does not build their multiplexers
  parameter bit          MissVpn        = 1'b1,
  localparam int unsigned BIdxW = (L1Entries > 1) ? $clog2(L1Entries) : 1
) (
  input  logic                                      clk_i,
  input  logic                                      rst_ni,
  // SM request ports
  input  logic [NumPorts-1:0]                       req_valid_i,
  input  logic [NumPorts*gmmu_pkg::VPN_W-1:0]       req_vpn_i,
  input  logic [NumPorts-1:0]                       req_write_i,
  input  logic [NumPorts*gmmu_pkg::REQ_ID_W-1:0]    req_id_i,
  input  logic [NumPorts*gmmu_pkg::ASID_W-1:0]      req_asid_i,
  input  logic [NumPorts*5-1:0]                     req_line_i,  // §20.1 (read with LineBitmap)
  output logic                                      req_ready_o,
  output logic [NumPorts-1:0]                       hit_valid_o,
  output logic [NumPorts*gmmu_pkg::REQ_ID_W-1:0]    hit_id_o,
  output logic [NumPorts*gmmu_pkg::PPN_W-1:0]       hit_ppn_o,
  output logic [NumPorts-1:0]                       hit_sys_o,   // aperture (§17)
  output logic                                      miss_valid_o,
  output logic [gmmu_pkg::REQ_ID_W-1:0]             miss_id_o,
  output logic [gmmu_pkg::PPN_W-1:0]                miss_ppn_o,
  output logic                                      miss_sys_o,  // aperture (§17)
  output logic                                      miss_fatal_o,
  output logic [gmmu_pkg::VPN_W-1:0]                miss_vpn_o,   // the access counters' pick (§19.8)
  output logic [gmmu_pkg::ASID_W-1:0]               miss_asid_o,
  // request to the L2 (combinational from _q) and grant
  output logic                                      l2_req_valid_o,
  output gmmu_tlb_pkg::tlb_req_t                    l2_req_o,  // record (asid, vpn, write)
  input  logic                                      l2_gnt_i,
  // registered L2 response (rsp_q), valid already qualified with mask[s]; record tlb_rsp_t
  input  logic                                      rsp_valid_i,
  input  gmmu_tlb_pkg::tlb_rsp_t                    rsp_i,
  // far-fault unit outputs (replay_q[s], cancel_*_q)
  input  logic                                      replay_i,
  input  logic                                      cancel_valid_i,
  input  logic [gmmu_pkg::VPN_W-1:0]                cancel_vpn_i,
  input  logic [gmmu_pkg::ASID_W-1:0]               cancel_asid_i,
  // command cycle and its invalidation (record tlb_flush_t: all, page, scope, asid, vpn)
  input  logic                                      cmd_cycle_i,
  input  gmmu_tlb_pkg::tlb_flush_t                  flush_i,
  // fault mode: blocking (FAULT_CTRL.BLOCKING, §4.1)
  input  logic                                      blocking_i,
  // idle contribution (§9)
  output logic                                      ev_large_hit_o,  // EV_L1_LARGE_HIT (§15.6)
  output logic                                      busy_o,
  // referenced-line bitmaps (§20.3, §20.4; constant 0 without LineBitmap): the BMP_FLUSH
  // scanner reads entry scan_idx_i (_q: its bitmap, 0 if invalid, and page) and, with
  // scan_take_i, takes it (the entry keeps only this cycle's hits)
  input  logic                                      scan_take_i,
  input  logic [BIdxW-1:0]                          scan_idx_i,
  output logic [31:0]                               scan_bmp_o,
  output logic [gmmu_pkg::VPN_W-1:0]                scan_vpn_o,
  // the departures of this cycle: a fill's eviction, a flush's entries (bitmap 0: none)
  output logic [31:0]                               ev_bmp_o,
  output logic [gmmu_pkg::VPN_W-1:0]                ev_vpn_o,
  output logic [L1Entries-1:0][31:0]                fl_bmp_o,
  output logic [L1Entries-1:0][gmmu_pkg::VPN_W-1:0] fl_vpn_o
);
  localparam int unsigned VpnW  = gmmu_pkg::VPN_W;
  localparam int unsigned PpnW  = gmmu_pkg::PPN_W;
  localparam int unsigned OffW  = gmmu_pkg::PT_IDX_W; // vpn[8:0] inside a 2 MB region
  localparam int unsigned IdW   = gmmu_pkg::REQ_ID_W;
  localparam int unsigned AsidW = gmmu_pkg::ASID_W;
  // a request's address space is req_asid & (NumAsids-1) (docs/microarch.md §14.1)
  localparam logic [gmmu_pkg::ASID_W-1:0] AsidMask = gmmu_pkg::ASID_W'(NumAsids - 1);
  // stored tag bits: the ASID bits above log2(NumAsids) are always 0 (§14.1, gmmu_tlb_store)
  localparam gmmu_tlb_pkg::base_tag_t  BKeep = '{asid: AsidMask, vpn: '1};
  localparam gmmu_tlb_pkg::large_tag_t LKeep = '{asid: AsidMask, region: '1};
  localparam int unsigned LIdxW = (L1LargeEntries > 1) ? $clog2(L1LargeEntries) : 1;

  // ---------------------------------------------------------------- state
  // hit response registers (the arrays are in u_base / u_large, the request table in u_req)
  logic [NumPorts-1:0]       hv_q, hv_d;
  logic [IdW-1:0]            hid_q [NumPorts];
  logic [IdW-1:0]            hid_d [NumPorts];
  logic [PpnW-1:0]           hppn_q [NumPorts];
  logic [PpnW-1:0]           hppn_d [NumPorts];
  logic [NumPorts-1:0]       hsys_q, hsys_d;  // aperture of the hit (§17)

  for (genvar p = 0; p < NumPorts; p++) begin : g_hit_out
    assign hit_id_o[p*IdW +: IdW]    = hid_q[p];
    assign hit_ppn_o[p*PpnW +: PpnW] = hppn_q[p];
  end
  assign hit_valid_o = hv_q;
  assign hit_sys_o   = hsys_q;

  // ---------------------------------------------------------------- arrays (§1.2)
  // base array: tag vpn, data ppn; large array: tag region vpn[35:9], data lppn
  logic [NumPorts-1:0] acc;          // request accepted on port p
  logic [NumPorts-1:0] bhit, lhit;   // base / large hit (with write permission)
  logic [NumPorts-1:0][VpnW-1:0] lk_vpn;
  // records of spec/tlb.toml
  gmmu_tlb_pkg::base_tag_t   [NumPorts-1:0] b_lk_tag;
  gmmu_tlb_pkg::base_data_t  [NumPorts-1:0] b_lk_data;
  gmmu_tlb_pkg::large_tag_t  [NumPorts-1:0] l_lk_tag;
  gmmu_tlb_pkg::large_data_t [NumPorts-1:0] l_lk_data;
  gmmu_tlb_pkg::base_tag_t   b_fill_tag, b_flush_tag, b_flush_mask;
  gmmu_tlb_pkg::base_data_t  b_fill_data;
  gmmu_tlb_pkg::large_tag_t  l_fill_tag, l_flush_tag, l_flush_mask;
  logic [NumPorts*AsidW-1:0] lk_asid;  // reduced request ASIDs (§14.1)
  logic                      arr_flush_all, arr_flush_sel;
  gmmu_tlb_pkg::large_data_t l_fill_data;
  logic [PpnW-1:0]     hit_ppn [NumPorts];
  logic [NumPorts-1:0] hit_sys;
  logic                fill_b, fill_l;  // step (c) fills the base / large array

  for (genvar p = 0; p < NumPorts; p++) begin : g_lookup
    assign lk_vpn[p]    = req_vpn_i[p*VpnW +: VpnW];
    assign lk_asid[p*AsidW +: AsidW] = req_asid_i[p*AsidW +: AsidW] & AsidMask;
    assign b_lk_tag[p].asid   = lk_asid[p*AsidW +: AsidW];
    assign b_lk_tag[p].vpn    = lk_vpn[p];
    assign l_lk_tag[p].asid   = lk_asid[p*AsidW +: AsidW];
    assign l_lk_tag[p].region = lk_vpn[p][VpnW-1:OffW];
    assign acc[p]             = req_valid_i[p] && req_ready_o;
    assign hit_ppn[p] = bhit[p] ? b_lk_data[p].ppn : {l_lk_data[p].lppn, lk_vpn[p][OffW-1:0]};
    assign hit_sys[p] = bhit[p] ? b_lk_data[p].sys : l_lk_data[p].sys;
  end
  assign b_fill_tag.asid    = rsp_i.req.asid;
  assign b_fill_tag.vpn     = rsp_i.req.vpn;
  assign b_fill_data.ppn    = rsp_i.ppn;
  assign b_fill_data.sys    = rsp_i.sys;
  assign b_flush_tag.asid   = flush_i.asid;
  assign b_flush_tag.vpn    = flush_i.vpn;
  assign l_fill_tag.asid    = rsp_i.req.asid;
  assign l_fill_tag.region  = rsp_i.req.vpn[VpnW-1:OffW];
  assign l_fill_data.lppn   = rsp_i.ppn[PpnW-1:OffW];
  assign l_fill_data.sys    = rsp_i.sys;
  assign l_flush_tag.asid   = flush_i.asid;
  assign l_flush_tag.region = flush_i.vpn[VpnW-1:OffW];
  // FA-5 with the masks of §14.4: the page bits for INVAL_PAGE, the ASID bits if SCOPE = 1;
  // an unscoped INVAL_ALL is the full flush
  assign arr_flush_all        = flush_i.all && !flush_i.scope;
  assign arr_flush_sel        = flush_i.page || (flush_i.all && flush_i.scope);
  assign b_flush_mask.asid    = flush_i.scope ? '1 : '0;
  assign b_flush_mask.vpn     = flush_i.page ? '1 : '0;
  assign l_flush_mask.asid    = flush_i.scope ? '1 : '0;
  assign l_flush_mask.region  = flush_i.page ? '1 : '0;

  assign fill_b = rsp_valid_i && !rsp_i.nack && !rsp_i.nocache && !rsp_i.is_large;
  assign fill_l = rsp_valid_i && !rsp_i.nack && !rsp_i.nocache && rsp_i.is_large;

  // step 7 (PLRU): accepted hits in port order, base hit wins; then the fill of step (c)
  logic [NumPorts-1:0] b_touch, l_touch;
  assign b_touch = acc & bhit;
  assign l_touch = acc & ~bhit & lhit;
  assign ev_large_hit_o = |l_touch;

  logic [NumPorts-1:0]          unused_b_w, unused_l_w;
  logic [NumPorts-1:0][BIdxW-1:0] b_idx;  // the base hit entry (the bitmaps, §20.3)
  logic [NumPorts-1:0][LIdxW-1:0] unused_l_idx;
  // the base entries (_q) and the fill's entry (FA-2), for the bitmaps (§20.3, §20.4)
  logic [L1Entries-1:0]      b_ent_valid;
  gmmu_tlb_pkg::base_tag_t   b_ent_tag [L1Entries];
  logic [BIdxW-1:0]          b_fill_idx;
  logic [L1LargeEntries-1:0] unused_l_valid;
  gmmu_tlb_pkg::large_tag_t  unused_l_tag [L1LargeEntries];
  logic [LIdxW-1:0]          unused_l_fidx;
  logic                      unused_l_view;
  always_comb begin : p_unused_l_view
    unused_l_view = ^{unused_l_valid, unused_l_fidx};
    for (int unsigned i = 0; i < L1LargeEntries; i++) unused_l_view ^= ^unused_l_tag[i];
  end

  if (L1Sets == 1) begin : g_base  // one name for both: u_l1.g_base.u_base
    gmmu_tlb_fa #(
      .N         (L1Entries),
      .NumLookup (NumPorts),
      .tag_t     (gmmu_tlb_pkg::base_tag_t),
      .data_t    (gmmu_tlb_pkg::base_data_t),
      .TagKeep   (BKeep)
    ) u_base (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .lk_valid_i   (acc),
      .lk_tag_i     (b_lk_tag),
      .lk_write_i   (req_write_i),
      .lk_hit_o     (bhit),
      .lk_idx_o     (b_idx),
      .lk_data_o    (b_lk_data),
      .lk_w_o       (unused_b_w),
      .fill_i       (fill_b),
      .fill_tag_i   (b_fill_tag),
      .fill_w_i     (rsp_i.w),
      .fill_data_i  (b_fill_data),
      .touch_i      (b_touch),
      .flush_all_i  (arr_flush_all),
      .flush_page_i (arr_flush_sel),
      .flush_tag_i  (b_flush_tag),
      .flush_mask_i (b_flush_mask),
      .ent_valid_o  (b_ent_valid),
      .ent_tag_o    (b_ent_tag),
      .fill_idx_o   (b_fill_idx)
    );
  end else begin : g_base
    // §1.4: set = vpn[SetW-1:0]; the tag RAMs keep the tag without those bits; a flush by ASID
    // compares the ASID flip-flops, a page flush (every vpn bit in the mask) only its set
    localparam int unsigned SetW = $clog2(L1Sets);
    localparam logic [VpnW-1:0] SetMask = VpnW'(L1Sets) - VpnW'(1);
    localparam gmmu_tlb_pkg::base_tag_t BRamKeep = '{asid: AsidMask, vpn: ~SetMask};
    localparam gmmu_tlb_pkg::base_tag_t BFlushKeep = '{asid: '1, vpn: '0};
    logic [NumPorts-1:0][SetW-1:0] lk_set;
    for (genvar p = 0; p < NumPorts; p++) begin : g_set
      assign lk_set[p] = lk_vpn[p][SetW-1:0];
    end
    gmmu_tlb_sa_async #(
      .Sets      (L1Sets),
      .Ways      (L1Entries / L1Sets),
      .NumLookup (NumPorts),
      .tag_t     (gmmu_tlb_pkg::base_tag_t),
      .data_t    (gmmu_tlb_pkg::base_data_t),
      .TagKeep   (BKeep),
      .FlushKeep (BFlushKeep),
      .RamKeep   (BRamKeep)
    ) u_base (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .lk_valid_i    (acc),
      .lk_set_i      (lk_set),
      .lk_tag_i      (b_lk_tag),
      .lk_write_i    (req_write_i),
      .lk_hit_o      (bhit),
      .lk_idx_o      (b_idx),
      .lk_data_o     (b_lk_data),
      .lk_w_o        (unused_b_w),
      .fill_i        (fill_b),
      .fill_set_i    (rsp_i.req.vpn[SetW-1:0]),
      .fill_tag_i    (b_fill_tag),
      .fill_w_i      (rsp_i.w),
      .fill_data_i   (b_fill_data),
      .fill_idx_o    (b_fill_idx),
      .touch_i       (b_touch),
      .flush_all_i   (arr_flush_all),
      .flush_page_i  (arr_flush_sel),
      .flush_tag_i   (b_flush_tag),
      .flush_mask_i  (b_flush_mask),
      .flush_local_i (flush_i.page),
      .flush_set_i   (flush_i.vpn[SetW-1:0])
    );
    // the entries' tags are read only by the referenced-line bitmaps (LineBitmap needs
    // L1Sets = 1, gmmu_top)
    assign b_ent_valid = '0;
    assign b_ent_tag   = '{default: '0};
  end

  gmmu_tlb_fa #(
    .N         (L1LargeEntries),
    .NumLookup (NumPorts),
    .tag_t     (gmmu_tlb_pkg::large_tag_t),
    .data_t    (gmmu_tlb_pkg::large_data_t),
    .TagKeep   (LKeep)
  ) u_large (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .lk_valid_i   (acc),
    .lk_tag_i     (l_lk_tag),
    .lk_write_i   (req_write_i),
    .lk_hit_o     (lhit),
    .lk_idx_o     (unused_l_idx),
    .lk_data_o    (l_lk_data),
    .lk_w_o       (unused_l_w),
    .fill_i       (fill_l),
    .fill_tag_i   (l_fill_tag),
    .fill_w_i     (rsp_i.w),
    .fill_data_i  (l_fill_data),
    .touch_i      (l_touch),
    .flush_all_i  (arr_flush_all),
    .flush_page_i (arr_flush_sel),
    .flush_tag_i  (l_flush_tag),
    .flush_mask_i (l_flush_mask),
    .ent_valid_o  (unused_l_valid),
    .ent_tag_o    (unused_l_tag),
    .fill_idx_o   (unused_l_fidx)
  );

  // ---------------------------------------------------------------- request table (§4)
  logic busy_tab;
  logic [gmmu_pkg::VPN_W-1:0]  out_vpn;
  logic [gmmu_pkg::ASID_W-1:0] out_asid;
  assign miss_vpn_o  = MissVpn ? out_vpn : '0;
  assign miss_asid_o = MissVpn ? out_asid : '0;
  logic [31:0] fill_lines;  // §20.3 step 2: the lines of the requests the response completes

  gmmu_l1_req_table #(
    .NumPorts (NumPorts),
    .Entries  (L1ReqEntries),
    .NumAsids   (NumAsids),
    .LineBitmap (LineBitmap)
  ) u_req (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cmd_cycle_i    (cmd_cycle_i),
    .ready_o        (req_ready_o),
    .out_valid_o    (miss_valid_o),
    .out_id_o       (miss_id_o),
    .out_ppn_o      (miss_ppn_o),
    .out_fatal_o    (miss_fatal_o),
    .out_sys_o      (miss_sys_o),
    .out_vpn_o      (out_vpn),
    .out_asid_o     (out_asid),
    .send_valid_o   (l2_req_valid_o),
    .send_o         (l2_req_o),
    .busy_o         (busy_tab),
    .send_gnt_i     (l2_gnt_i),
    .rsp_valid_i    (rsp_valid_i),
    .rsp_i          (rsp_i),
    .replay_i       (replay_i),
    .cancel_valid_i (cancel_valid_i),
    .cancel_vpn_i   (cancel_vpn_i),
    .cancel_asid_i  (cancel_asid_i),
    .blocking_i     (blocking_i),
    .alloc_i        (acc & ~(bhit | lhit)),
    .alloc_vpn_i    (req_vpn_i),
    .alloc_asid_i   (lk_asid),
    .alloc_write_i  (req_write_i),
    .alloc_id_i     (req_id_i),
    .alloc_line_i   (req_line_i),
    .rsp_lines_o    (fill_lines),
    .flush_i        (flush_i)
  );

  assign busy_o = busy_tab || (|hv_q);

  // ---------------------------------------------------------------- hit registers, step (f)
  always_comb begin : p_hit_regs
    hv_d = '0;
    hsys_d = '0;
    for (int unsigned p = 0; p < NumPorts; p++) begin
      hid_d[p]  = '0;
      hppn_d[p] = '0;
      if (acc[p] && (bhit[p] || lhit[p])) begin
        hv_d[p]   = 1'b1;
        hid_d[p]  = req_id_i[p*IdW +: IdW];
        hppn_d[p] = hit_ppn[p];
        hsys_d[p] = hit_sys[p];
      end
    end
  end

  // ---------------------------------------------------------------- referenced-line bitmaps (§20)
  // coverage only (tb/coverage/cover_points.py): a hit sets a new line bit; a same-tag fill keeps
  // a non-zero bitmap (0 without LineBitmap)
  logic cov_bmp_hit_new, cov_bmp_fill_keep;
  if (LineBitmap != 0) begin : g_bmp
    // bmp_q[e]: bit i = line i was referenced through base entry e (§20.2)
    logic [31:0] bmp_q [L1Entries];
    logic [31:0] bmp_d [L1Entries];
    logic [31:0] bmp_h [L1Entries];  // after steps 0 and 1 (the scanner's take, the hits)
    gmmu_tlb_pkg::base_tag_t fl_tag [L1Entries];  // the tags after the fill (FA-3)
    logic [L1Entries-1:0]    fl_valid;

    assign scan_bmp_o = b_ent_valid[scan_idx_i] ? bmp_q[scan_idx_i] : '0;
    assign scan_vpn_o = b_ent_tag[scan_idx_i].vpn;

    always_comb begin : p_bmp
      bmp_h    = bmp_q;
      ev_bmp_o = '0;
      ev_vpn_o = '0;
      fl_bmp_o = '0;
      fl_vpn_o = '0;
      cov_bmp_hit_new   = 1'b0;
      cov_bmp_fill_keep = 1'b0;
      // 0. the scanner's take: the entry keeps only this cycle's hits
      if (scan_take_i) bmp_h[scan_idx_i] = '0;
      // 1. hits: every accepted port with a base hit sets its line
      for (int unsigned p = 0; p < NumPorts; p++) begin
        if (acc[p] && bhit[p]) begin
          if (!bmp_q[b_idx[p]][req_line_i[p*5 +: 5]]) cov_bmp_hit_new = 1'b1;
          bmp_h[b_idx[p]][req_line_i[p*5 +: 5]] = 1'b1;
        end
      end
      bmp_d = bmp_h;
      // 2. fill (a cacheable OK base response): the same tag keeps its bitmap, another valid
      // entry is evicted with its bitmap (after the hits)
      if (fill_b) begin
        if (b_ent_valid[b_fill_idx] &&
            ((b_ent_tag[b_fill_idx] & BKeep) == (b_fill_tag & BKeep))) begin
          bmp_d[b_fill_idx] = bmp_h[b_fill_idx] | fill_lines;
          cov_bmp_fill_keep = bmp_h[b_fill_idx] != '0;
        end else begin
          if (b_ent_valid[b_fill_idx]) begin
            ev_bmp_o = bmp_h[b_fill_idx];
            ev_vpn_o = b_ent_tag[b_fill_idx].vpn;
          end
          bmp_d[b_fill_idx] = fill_lines;
        end
      end
      // flush (FA-5, on the entries after the fill): the invalidated entries depart
      for (int unsigned i = 0; i < L1Entries; i++) begin
        fl_valid[i] = b_ent_valid[i] || (fill_b && b_fill_idx == BIdxW'(i));
        fl_tag[i]   = (fill_b && b_fill_idx == BIdxW'(i)) ? (b_fill_tag & BKeep) : b_ent_tag[i];
        if (fl_valid[i] && (arr_flush_all || (arr_flush_sel &&
            ((fl_tag[i] & b_flush_mask & BKeep) == (b_flush_tag & b_flush_mask & BKeep))))) begin
          fl_bmp_o[i] = bmp_d[i];
          fl_vpn_o[i] = fl_tag[i].vpn;
          bmp_d[i]    = '0;
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin : p_bmp_regs
      if (!rst_ni) begin
        bmp_q <= '{default: '0};
      end else begin
        bmp_q <= bmp_d;
      end
    end
    logic unused_cov_bmp;  // read by the cover points only
    assign unused_cov_bmp = cov_bmp_hit_new ^ cov_bmp_fill_keep;
  end else begin : g_no_bmp
    assign cov_bmp_hit_new   = 1'b0;
    assign cov_bmp_fill_keep = 1'b0;
    logic unused_cov_bmp;
    assign unused_cov_bmp = cov_bmp_hit_new ^ cov_bmp_fill_keep;
    assign scan_bmp_o = '0;
    assign scan_vpn_o = '0;
    assign ev_bmp_o   = '0;
    assign ev_vpn_o   = '0;
    assign fl_bmp_o   = '0;
    assign fl_vpn_o   = '0;
    logic unused_bmp;
    always_comb begin : p_unused_bmp
      unused_bmp = ^{req_line_i, scan_take_i, scan_idx_i, b_idx, b_ent_valid, b_fill_idx,
                     fill_lines};
      for (int unsigned i = 0; i < L1Entries; i++) unused_bmp ^= ^b_ent_tag[i];
    end
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      hv_q   <= '0;
      hid_q  <= '{default: '0};
      hppn_q <= '{default: '0};
      hsys_q <= '0;
    end else begin
      hv_q   <= hv_d;
      hid_q  <= hid_d;
      hppn_q <= hppn_d;
      hsys_q <= hsys_d;
    end
  end

  // assertions (§11): no multi-hit in u_base / u_large (gmmu_tlb_fa), no table overflow and a
  // grant only with a request in u_req (gmmu_l1_req_table)
endmodule
