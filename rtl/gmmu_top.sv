// GMMU top level (docs/microarch.md §2): per-SM L1 TLBs, shared L2 TLB, page-table walkers,
// far-fault unit / fault-buffer writer and CSR block. Every output is a function of registers.
// C model mirror: cmodel/gmmu.c.
module gmmu_top #(
  parameter int unsigned NumSm          = 2,
  parameter int unsigned NumPorts       = 2,
  parameter int unsigned L1Entries      = 8,
  parameter int unsigned L1Sets         = 1,   // 1: fully associative base array (§1.4)
  parameter int unsigned L1LargeEntries = 2,
  parameter int unsigned L1ReqEntries   = 4,
  parameter int unsigned L2Sets         = 4,
  parameter int unsigned L2Ways         = 2,
  parameter int unsigned L2LargeEntries = 2,
  parameter int unsigned L2Latency      = 3,
  parameter int unsigned L2MshrEntries  = 4,
  parameter int unsigned NumWalkers     = 2,
  parameter int unsigned FfEntries      = 4,
  parameter int unsigned FfQuota        = 2,
  parameter int unsigned NumAsids       = 1,
  parameter int unsigned PwcEntries     = 0,
  parameter int unsigned PwcLatency     = 1,
  parameter int unsigned AdBits         = 0,
  parameter int unsigned AccEntries     = 0,
  parameter int unsigned LineBitmap     = 0
) (
  input  logic                                            clk_i,
  input  logic                                            rst_ni,
  input  logic [63:0]                                     time_i,
  // SM translation requests / responses
  input  logic [NumSm*NumPorts-1:0]                       req_valid_i,
  input  logic [NumSm*NumPorts*gmmu_pkg::VPN_W-1:0]       req_vpn_i,
  input  logic [NumSm*NumPorts-1:0]                       req_write_i,
  input  logic [NumSm*NumPorts*gmmu_pkg::REQ_ID_W-1:0]    req_id_i,
  input  logic [NumSm*NumPorts*gmmu_pkg::ASID_W-1:0]      req_asid_i,
  input  logic [NumSm*NumPorts*5-1:0]                     req_line_i,
  output logic [NumSm-1:0]                                req_ready_o,
  output logic [NumSm*NumPorts-1:0]                       hit_valid_o,
  output logic [NumSm*NumPorts*gmmu_pkg::REQ_ID_W-1:0]    hit_id_o,
  output logic [NumSm*NumPorts*gmmu_pkg::PPN_W-1:0]       hit_ppn_o,
  output logic [NumSm*NumPorts-1:0]                       hit_sys_o,
  output logic [NumSm-1:0]                                miss_valid_o,
  output logic [NumSm*gmmu_pkg::REQ_ID_W-1:0]             miss_id_o,
  output logic [NumSm*gmmu_pkg::PPN_W-1:0]                miss_ppn_o,
  output logic [NumSm-1:0]                                miss_sys_o,
  output logic [NumSm-1:0]                                miss_fatal_o,
  // PTE memory port
  output logic                                            mem_req_valid_o,
  input  logic                                            mem_req_ready_i,
  output logic [gmmu_pkg::PA_W-1:0]                       mem_req_addr_o,
  output logic [gmmu_pkg::MEM_ID_W-1:0]                   mem_req_id_o,
  output logic                                            mem_req_write_o,
  output logic [63:0]                                     mem_req_wdata_o,
  output logic                                            mem_req_setbits_o,
  input  logic                                            mem_rsp_valid_i,
  input  logic [gmmu_pkg::MEM_ID_W-1:0]                   mem_rsp_id_i,
  input  logic [63:0]                                     mem_rsp_data_i,
  // fault-buffer write port
  output logic                                            fb_wr_valid_o,
  input  logic                                            fb_wr_ready_i,
  output logic [gmmu_pkg::PA_W-1:0]                       fb_wr_addr_o,
  output logic [255:0]                                    fb_wr_data_o,
  // access-counter notification write port (§19.8; tied 0 with AccEntries = 0)
  output logic                                            acc_wr_valid_o,
  input  logic                                            acc_wr_ready_i,
  output logic [gmmu_pkg::PA_W-1:0]                       acc_wr_addr_o,
  output logic [255:0]                                    acc_wr_data_o,
  // CSR port
  input  logic                                            csr_valid_i,
  input  logic                                            csr_write_i,
  input  logic [gmmu_pkg::CSR_ADDR_W-1:0]                 csr_addr_i,
  input  logic [31:0]                                     csr_wdata_i,
  output logic                                            csr_rvalid_o,
  output logic [31:0]                                     csr_rdata_o,
  output logic                                            irq_o,
  output logic                                            idle_o,
  output logic [gmmu_pkg::EV_W-1:0]                       ev_o
);
  localparam int unsigned VpnW    = gmmu_pkg::VPN_W;
  localparam int unsigned PpnW    = gmmu_pkg::PPN_W;
  localparam int unsigned IdW     = gmmu_pkg::REQ_ID_W;
  localparam int unsigned AsidW   = gmmu_pkg::ASID_W;
  localparam int unsigned P       = NumPorts;
  localparam int unsigned MIdxW   = (L2MshrEntries > 1) ? $clog2(L2MshrEntries) : 1;
  localparam int unsigned FbAddrW = gmmu_pkg::PA_W - $clog2(gmmu_pkg::FB_ENTRY_BYTES);
  localparam int unsigned FCntW   = $clog2(FfEntries + 1);
  localparam int unsigned IdxW    = gmmu_pkg::FB_IDX_W;

  // ---------------------------------------------------------------- parameter checks
  // generated from spec/params.toml: an illegal parameter stops elaboration ($fatal)
`include "gmmu_params_check.svh"
  // ---- referenced-line bitmaps (issue 21 item 4, docs/microarch.md §20): one table indexed by
  // the VPN, so LineBitmap = 1 needs one address space (§20.5; the C model refuses it by name)
  if (LineBitmap != 0 && NumAsids != 1) begin : g_bmp_asids
    $fatal(1, "line_bitmap: 1 needs num_asids = 1 (docs/microarch.md 20.5), not %0d", NumAsids);
  end
  // §20.1: req_line_i is present in every configuration and read only with LineBitmap = 1
  // ---- set-associative L1 base array (issue 25, docs/microarch.md §1.4)
  if (L1Sets > L1Entries) begin : g_l1_sets_entries
    $fatal(1, "l1_sets: %0d is more than l1_entries (%0d)", L1Sets, L1Entries);
  end
  if (LineBitmap != 0 && L1Sets != 1) begin : g_bmp_l1_sets
    $fatal(1, "line_bitmap: 1 needs l1_sets = 1 (docs/microarch.md 1.4), not %0d", L1Sets);
  end

  // ---------------------------------------------------------------- CSR block
  logic [PpnW-1:0]    pt_base [NumAsids];
  logic [FbAddrW-1:0] fb_base;
  logic [IdxW:0]      fb_size;
  logic [IdxW-1:0]    fb_get, fb_put;
  logic               fb_size_wr, ovf_clr, overflow;
  logic [FCntW-1:0]   ff_count;
  logic               cmd_cycle, flush_all, flush_page, replay_page, replay_all, cancel_page;
  logic               blocking;  // fault mode (§4.1)
  logic [VpnW-1:0]    cmd_vpn;
  logic               cmd_next;      // the CSR block's cmd_valid_d, cmd_vpn_d (u_l2's RAM read)
  logic [VpnW-1:0]    cmd_vpn_next;
  logic [AsidW-1:0]   cmd_asid;
  logic               cmd_scope;
  logic               csr_busy;
  // coalesce unit (§15)
  logic                           co_start, co_splinter, co_busy, co_flush, co_ev_done;
  logic [63:0]                    co_wdata;
  logic [1:0]                     co_err;
  logic [gmmu_pkg::LVPN_W-1:0]    co_region;
  logic [AsidW-1:0]               co_asid;
  logic                           co_req_valid, co_req_write, co_taken;
  logic [gmmu_pkg::PA_W-4:0]      co_req_addr;
  // access counters (§19.8): configuration from the CSR block, ring state from the unit
  logic                           acc_en_local, acc_en_remote, acc_size_wr, acc_ovf_clr;
  logic                           acc_clear_all, acc_clear, acc_ovf;
  logic [1:0]                     acc_gran;
  logic [gmmu_pkg::ACC_CNT_W-1:0] acc_thresh;
  logic [FbAddrW-1:0]             acc_base;
  logic [IdxW:0]                  acc_size;
  logic [IdxW-1:0]                acc_get, acc_put;
  // referenced-line bitmaps (§20): the table registers and BMP_FLUSH; CMD_STATUS.BUSY is the
  // coalesce unit's or the scanner's (§20.4)
  logic [gmmu_pkg::PA_W-4:0]      bmp_base;
  logic [31:0]                    bmp_pages, bmp_vpn0;
  logic                           bmp_flush, bmp_scanning;

  gmmu_csr #(
    .NumSm      (NumSm),
    .NumPorts   (NumPorts),
    .NumWalkers (NumWalkers),
    .FfEntries  (FfEntries),
    .FfQuota    (FfQuota),
    .NumAsids   (NumAsids),
    .AccEntries (AccEntries),
    .LineBitmap (LineBitmap)
  ) u_csr (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .csr_valid_i   (csr_valid_i),
    .csr_write_i   (csr_write_i),
    .csr_addr_i    (csr_addr_i),
    .csr_wdata_i   (csr_wdata_i),
    .csr_rvalid_o  (csr_rvalid_o),
    .csr_rdata_o   (csr_rdata_o),
    .irq_o         (irq_o),
    .put_i         (fb_put),
    .overflow_i    (overflow),
    .ff_count_i    (ff_count),
    .pt_base_o     (pt_base),
    .fb_base_o     (fb_base),
    .fb_size_o     (fb_size),
    .get_o         (fb_get),
    .fb_size_wr_o  (fb_size_wr),
    .ovf_clr_o     (ovf_clr),
    .cmd_cycle_o   (cmd_cycle),
    .cmd_vpn_o     (cmd_vpn),
    .cmd_next_o    (cmd_next),
    .cmd_vpn_next_o(cmd_vpn_next),
    .cmd_asid_o    (cmd_asid),
    .cmd_scope_o   (cmd_scope),
    .flush_all_o   (flush_all),
    .flush_page_o  (flush_page),
    .replay_page_o (replay_page),
    .replay_all_o  (replay_all),
    .cancel_page_o (cancel_page),
    .co_start_o    (co_start),
    .co_splinter_o (co_splinter),
    .co_busy_i     (co_busy || bmp_scanning),
    .co_err_i      (co_err),
    .co_flush_i    (co_flush),
    .co_region_i   (co_region),
    .co_asid_i     (co_asid),
    .blocking_o    (blocking),
    .acc_put_i       (acc_put),
    .acc_ovf_i       (acc_ovf),
    .acc_en_local_o  (acc_en_local),
    .acc_en_remote_o (acc_en_remote),
    .acc_gran_o      (acc_gran),
    .acc_thresh_o    (acc_thresh),
    .acc_base_o      (acc_base),
    .acc_size_o      (acc_size),
    .acc_get_o       (acc_get),
    .acc_size_wr_o   (acc_size_wr),
    .acc_ovf_clr_o   (acc_ovf_clr),
    .acc_clear_all_o (acc_clear_all),
    .acc_clear_o     (acc_clear),
    .bmp_base_o      (bmp_base),
    .bmp_pages_o     (bmp_pages),
    .bmp_vpn0_o      (bmp_vpn0),
    .bmp_flush_o     (bmp_flush),
    .busy_o        (csr_busy)
  );

  // ---------------------------------------------------------------- L2 response bus, far-fault outputs
  logic                   rsp_valid;
  logic [NumSm-1:0]       rsp_mask;
  gmmu_tlb_pkg::tlb_rsp_t rsp;  // record of spec/tlb.toml (req, nack, ppn, is_large, w, nocache)
  logic [NumSm-1:0]  replay;
  logic              cancel_valid;
  logic [VpnW-1:0]   cancel_vpn;
  logic [AsidW-1:0]  cancel_asid;

  // the invalidation of a command cycle for the L1s and the L2 (record of spec/tlb.toml)
  gmmu_tlb_pkg::tlb_flush_t flush;
  assign flush = '{all: flush_all, page: flush_page, scope: cmd_scope, asid: cmd_asid,
                   vpn: cmd_vpn};

  // ---------------------------------------------------------------- L1 TLBs
  logic [NumSm-1:0]      l1_req_valid, l1_gnt, l1_busy, l1_ev_large_hit;
  logic [VpnW-1:0]       l1_miss_vpn [NumSm];   // the completing request's page (§19.8 pick)
  logic [AsidW-1:0]      l1_miss_asid [NumSm];
  gmmu_tlb_pkg::tlb_req_t [NumSm-1:0] l1_req;  // L1 -> L2 request records
  // referenced-line bitmaps (§20.3, §20.4): the scanner's entry, the departures of each L1
  localparam int unsigned BIdxW = (L1Entries > 1) ? $clog2(L1Entries) : 1;
  localparam int unsigned SIdxW = $clog2(NumSm * L1Entries + 1);
  logic [SIdxW-1:0]  bs_idx;       // the scanner's next entry, sm * L1Entries + entry
  logic              bs_take;      // it visits bs_idx this cycle
  logic [NumSm-1:0]  l1_scan_take, l1_scan_in;
  logic [BIdxW-1:0]  l1_scan_idx [NumSm];
  logic [31:0]       l1_scan_bmp [NumSm];
  logic [VpnW-1:0]   l1_scan_vpn [NumSm];
  logic [31:0]       l1_ev_bmp [NumSm];
  logic [VpnW-1:0]   l1_ev_vpn [NumSm];
  logic [L1Entries-1:0][31:0]     l1_fl_bmp [NumSm];
  logic [L1Entries-1:0][VpnW-1:0] l1_fl_vpn [NumSm];

  for (genvar s = 0; s < NumSm; s++) begin : g_l1
    // the scanner's entry bs_idx belongs to this SM (sm = bs_idx / L1Entries) iff bs_idx -
    // s * L1Entries < L1Entries (below s * L1Entries the difference wraps past NumSm * L1Entries)
    logic [SIdxW-1:0] scan_off;
    assign scan_off        = bs_idx - SIdxW'(s * L1Entries);
    assign l1_scan_in[s]   = scan_off < SIdxW'(L1Entries);
    assign l1_scan_take[s] = bs_take && l1_scan_in[s];
    assign l1_scan_idx[s]  = BIdxW'(scan_off);
    gmmu_l1_tlb #(
      .NumPorts       (NumPorts),
      .L1Entries      (L1Entries),
      .L1Sets         (L1Sets),
      .L1LargeEntries (L1LargeEntries),
      .L1ReqEntries   (L1ReqEntries),
      .NumAsids       (NumAsids),
      .LineBitmap     (LineBitmap),
      .MissVpn        (AccEntries != 0)
    ) u_l1 (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .req_valid_i    (req_valid_i[s*P +: P]),
      .req_vpn_i      (req_vpn_i[s*P*VpnW +: P*VpnW]),
      .req_write_i    (req_write_i[s*P +: P]),
      .req_id_i       (req_id_i[s*P*IdW +: P*IdW]),
      .req_asid_i     (req_asid_i[s*P*AsidW +: P*AsidW]),
      .req_line_i     (req_line_i[s*P*5 +: P*5]),
      .req_ready_o    (req_ready_o[s]),
      .hit_valid_o    (hit_valid_o[s*P +: P]),
      .hit_id_o       (hit_id_o[s*P*IdW +: P*IdW]),
      .hit_ppn_o      (hit_ppn_o[s*P*PpnW +: P*PpnW]),
      .hit_sys_o      (hit_sys_o[s*P +: P]),
      .miss_valid_o   (miss_valid_o[s]),
      .miss_id_o      (miss_id_o[s*IdW +: IdW]),
      .miss_ppn_o     (miss_ppn_o[s*PpnW +: PpnW]),
      .miss_sys_o     (miss_sys_o[s]),
      .miss_fatal_o   (miss_fatal_o[s]),
      .miss_vpn_o     (l1_miss_vpn[s]),
      .miss_asid_o    (l1_miss_asid[s]),
      .l2_req_valid_o (l1_req_valid[s]),
      .l2_req_o       (l1_req[s]),
      .l2_gnt_i       (l1_gnt[s]),
      .rsp_valid_i    (rsp_valid && rsp_mask[s]),
      .rsp_i          (rsp),
      .replay_i       (replay[s]),
      .cancel_valid_i (cancel_valid),
      .cancel_vpn_i   (cancel_vpn),
      .cancel_asid_i  (cancel_asid),
      .cmd_cycle_i    (cmd_cycle),
      .flush_i        (flush),
      .blocking_i     (blocking),
      .ev_large_hit_o (l1_ev_large_hit[s]),
      .busy_o         (l1_busy[s]),
      .scan_take_i    (l1_scan_take[s]),
      .scan_idx_i     (l1_scan_idx[s]),
      .scan_bmp_o     (l1_scan_bmp[s]),
      .scan_vpn_o     (l1_scan_vpn[s]),
      .ev_bmp_o       (l1_ev_bmp[s]),
      .ev_vpn_o       (l1_ev_vpn[s]),
      .fl_bmp_o       (l1_fl_bmp[s]),
      .fl_vpn_o       (l1_fl_vpn[s])
    );
  end

  // ---------------------------------------------------------------- L2 TLB
  // channels between the blocks: records of spec/tlb.toml (valid / ready and the MSHR index
  // beside them)
  logic                    walk_valid, walk_ready;
  gmmu_tlb_pkg::tlb_req_t  walk;
  logic [MIdxW-1:0]        walk_mshr;
  logic                    cpl_valid;
  logic [MIdxW-1:0]        cpl_mshr;
  gmmu_tlb_pkg::walk_res_t cpl;
  logic [gmmu_pkg::VPN_W-1:0]  cpl_vpn;
  logic [gmmu_pkg::ASID_W-1:0] cpl_asid;
  logic             ff_valid, ff_ready;
  gmmu_tlb_pkg::fault_offer_t ff_offer;
  logic [NumSm-1:0] ff_mask;
  logic             ev_l2_hit, ev_l2_miss, ev_l2_large_hit, l2_busy;

  gmmu_l2_tlb #(
    .NumSm          (NumSm),
    .L2Sets         (L2Sets),
    .L2Ways         (L2Ways),
    .L2LargeEntries (L2LargeEntries),
    .L2Latency      (L2Latency),
    .L2MshrEntries  (L2MshrEntries),
    .NumAsids       (NumAsids)
  ) u_l2 (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .l1_req_valid_i (l1_req_valid),
    .l1_req_i       (l1_req),
    .l1_gnt_o       (l1_gnt),
    .rsp_valid_o    (rsp_valid),
    .rsp_mask_o     (rsp_mask),
    .rsp_o          (rsp),
    .walk_valid_o   (walk_valid),
    .walk_o         (walk),
    .walk_mshr_o    (walk_mshr),
    .walk_ready_i   (walk_ready),
    .cpl_valid_i    (cpl_valid),
    .cpl_mshr_i     (cpl_mshr),
    .cpl_i          (cpl),
    .cpl_vpn_i      (cpl_vpn),
    .cpl_asid_i     (cpl_asid),
    .ff_valid_o     (ff_valid),
    .ff_o           (ff_offer),
    .ff_mask_o      (ff_mask),
    .ff_ready_i     (ff_ready),
    .cmd_cycle_i    (cmd_cycle),
    .flush_i        (flush),
    .cmd_next_i     (cmd_next),
    .cmd_vpn_next_i (cmd_vpn_next),
    .ev_hit_o       (ev_l2_hit),
    .ev_miss_o      (ev_l2_miss),
    .ev_large_hit_o (ev_l2_large_hit),
    .busy_o         (l2_busy)
  );

  // ---------------------------------------------------------------- page-table walkers
  // the bitmap queue's head (§20.5) and the request register's bitmap write
  logic                      bmp_head_valid, bmp_head_hi, bmp_taken, mr_bmp;
  logic [gmmu_pkg::PA_W-1:0] bmp_head_addr;
  logic [31:0]               bmp_head_bmp;
  logic                      unused_head_lo;  // the table word is 8-byte aligned
  assign unused_head_lo = ^bmp_head_addr[2:0];
  logic ev_walk, ev_walk_restart, ev_walk_large, ev_pte_write, ev_pwc_hit, ptw_busy;

  gmmu_ptw #(
    .NumWalkers    (NumWalkers),
    .L2MshrEntries (L2MshrEntries),
    .NumAsids      (NumAsids),
    .PwcEntries    (PwcEntries),
    .PwcLatency    (PwcLatency),
    .AdBits        (AdBits),
    .LineBitmap    (LineBitmap)
  ) u_ptw (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .pt_base_i       (pt_base),
    .walk_valid_i    (walk_valid),
    .walk_i          (walk),
    .walk_mshr_i     (walk_mshr),
    .walk_ready_o    (walk_ready),
    .cpl_valid_o     (cpl_valid),
    .cpl_mshr_o      (cpl_mshr),
    .cpl_o           (cpl),
    .cpl_vpn_o       (cpl_vpn),
    .cpl_asid_o      (cpl_asid),
    .mem_req_valid_o (mem_req_valid_o),
    .mem_req_ready_i (mem_req_ready_i),
    .mem_req_addr_o  (mem_req_addr_o),
    .mem_req_id_o    (mem_req_id_o),
    .mem_req_write_o (mem_req_write_o),
    .mem_req_wdata_o (mem_req_wdata_o),
    .mem_req_setbits_o (mem_req_setbits_o),
    .mem_rsp_valid_i (mem_rsp_valid_i),
    .mem_rsp_id_i    (mem_rsp_id_i),
    .mem_rsp_data_i  (mem_rsp_data_i),
    .co_req_valid_i  (co_req_valid),
    .co_req_addr_i   (co_req_addr),
    .co_req_write_i  (co_req_write),
    .co_taken_o      (co_taken),
    .co_wdata_i      (co_wdata),
    .co_busy_i       (co_busy),
    .bmp_valid_i     (bmp_head_valid),
    .bmp_addr_i      (bmp_head_addr[gmmu_pkg::PA_W-1:3]),
    .bmp_hi_i        (bmp_head_hi),
    .bmp_dat_i       (bmp_head_bmp),
    .bmp_taken_o     (bmp_taken),
    .mr_bmp_o        (mr_bmp),
    .flush_all_i     (flush_all),
    .flush_page_i    (flush_page),
    .cmd_vpn_i       (cmd_vpn),
    .cmd_asid_i      (cmd_asid),
    .cmd_scope_i     (cmd_scope),
    .ev_walk_o       (ev_walk),
    .ev_restart_o    (ev_walk_restart),
    .ev_walk_large_o (ev_walk_large),
    .ev_pte_write_o  (ev_pte_write),
    .ev_pwc_hit_o    (ev_pwc_hit),
    .busy_o          (ptw_busy)
  );

  // ---------------------------------------------------------------- coalesce unit (§15)
  gmmu_co #(
    .NumAsids (NumAsids)
  ) u_co (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (co_start),
    .splinter_i  (co_splinter),
    .cmd_vpn_i   (cmd_vpn),
    .cmd_asid_i  (cmd_asid),
    .pt_base_i   (pt_base),
    .req_valid_o (co_req_valid),
    .req_addr_o  (co_req_addr),
    .req_write_o (co_req_write),
    .taken_i     (co_taken),
    .rsp_valid_i (mem_rsp_valid_i &&
                  mem_rsp_id_i == gmmu_pkg::MEM_ID_W'(gmmu_pkg::CO_MEM_ID)),
    .rsp_data_i  (mem_rsp_data_i),
    .wdata_o     (co_wdata),
    .flush_o     (co_flush),
    .region_o    (co_region),
    .asid_o      (co_asid),
    .busy_o      (co_busy),
    .err_o       (co_err),
    .ev_done_o   (co_ev_done)
  );

  // ---------------------------------------------------------------- far-fault unit
  logic ev_ff_new, ev_ff_merge, ev_ff_drop, ev_fb_ovf, ff_busy;

  gmmu_ff #(
    .NumSm     (NumSm),
    .FfEntries (FfEntries),
    .FfQuota   (FfQuota),
    .NumAsids  (NumAsids)
  ) u_ff (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .time_i         (time_i),
    .offer_valid_i  (ff_valid),
    .offer_i        (ff_offer),
    .offer_mask_i   (ff_mask),
    .ready_o        (ff_ready),
    .cmd_cycle_i    (cmd_cycle),
    .replay_page_i  (replay_page),
    .replay_all_i   (replay_all),
    .cancel_page_i  (cancel_page),
    .cmd_vpn_i      (cmd_vpn),
    .cmd_asid_i     (cmd_asid),
    .fb_base_i      (fb_base),
    .fb_size_i      (fb_size),
    .get_i          (fb_get),
    .fb_size_wr_i   (fb_size_wr),
    .ovf_clr_i      (ovf_clr),
    .put_o          (fb_put),
    .overflow_o     (overflow),
    .ff_count_o     (ff_count),
    .replay_o       (replay),
    .cancel_valid_o (cancel_valid),
    .cancel_vpn_o   (cancel_vpn),
    .cancel_asid_o  (cancel_asid),
    .fb_wr_valid_o  (fb_wr_valid_o),
    .fb_wr_ready_i  (fb_wr_ready_i),
    .fb_wr_addr_o   (fb_wr_addr_o),
    .fb_wr_data_o   (fb_wr_data_o),
    .ev_new_o       (ev_ff_new),
    .ev_merge_o     (ev_ff_merge),
    .ev_drop_o      (ev_ff_drop),
    .ev_ovf_o       (ev_fb_ovf),
    .busy_o         (ff_busy)
  );

  // ---------------------------------------------------------------- access counters (§19.8)
  logic ev_acc_notify, ev_acc_ovf, acc_busy;

  if (AccEntries != 0) begin : g_acc
    // the request of each port, registered: a hit response (hit_valid_o) is that of the
    // previous cycle's request on its port (§4 step (f))
    localparam logic [AsidW-1:0] AsidMask = AsidW'(NumAsids - 1);  // stored bits (§14.1)
    logic [VpnW-1:0]  hvpn_q  [NumSm*P];
    logic [AsidW-1:0] hasid_q [NumSm*P];
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_hreq
      if (!rst_ni) begin
        hvpn_q  <= '{default: '0};
        hasid_q <= '{default: '0};
      end else begin
        for (int unsigned k = 0; k < NumSm * P; k++) begin
          hvpn_q[k]  <= req_vpn_i[k*VpnW +: VpnW];
          hasid_q[k] <= req_asid_i[k*AsidW +: AsidW] & AsidMask;
        end
      end
    end

    // the pick (§19.3): the miss completion of the lowest SM, else the hit of the lowest port
    logic             obs_valid, obs_remote;
    logic [VpnW-1:0]  obs_vpn;
    logic [AsidW-1:0] obs_asid;
    always_comb begin : p_pick
      obs_valid  = 1'b0;
      obs_remote = 1'b0;
      obs_vpn    = '0;
      obs_asid   = '0;
      for (int k = NumSm * P - 1; k >= 0; k--) begin
        if (hit_valid_o[k]) begin
          obs_valid  = 1'b1;
          obs_remote = hit_sys_o[k];
          obs_vpn    = hvpn_q[k];
          obs_asid   = hasid_q[k];
        end
      end
      for (int s = NumSm - 1; s >= 0; s--) begin
        if (miss_valid_o[s] && !miss_fatal_o[s]) begin
          obs_valid  = 1'b1;
          obs_remote = miss_sys_o[s];
          obs_vpn    = l1_miss_vpn[s];
          obs_asid   = l1_miss_asid[s];
        end
      end
    end

    logic ev_count, ev_repl;  // coverage only (§19.8)
    logic unused_acc_ev;
    assign unused_acc_ev = ev_count ^ ev_repl;
    gmmu_acc #(
      .AccEntries (AccEntries),
      .NumAsids   (NumAsids)
    ) u_acc (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .obs_valid_i  (obs_valid),
      .obs_remote_i (obs_remote),
      .obs_asid_i   (obs_asid),
      .obs_vpn_i    (obs_vpn),
      .en_local_i   (acc_en_local),
      .en_remote_i  (acc_en_remote),
      .gran_i       (acc_gran),
      .thresh_i     (acc_thresh),
      .base_i       (acc_base),
      .size_i       (acc_size),
      .get_i        (acc_get),
      .size_wr_i    (acc_size_wr),
      .ovf_clr_i    (acc_ovf_clr),
      .clear_all_i  (acc_clear_all),
      .clear_i      (acc_clear),
      .cmd_vpn_i    (cmd_vpn),
      .cmd_asid_i   (cmd_asid),
      .put_o        (acc_put),
      .overflow_o   (acc_ovf),
      .wr_valid_o   (acc_wr_valid_o),
      .wr_ready_i   (acc_wr_ready_i),
      .wr_addr_o    (acc_wr_addr_o),
      .wr_data_o    (acc_wr_data_o),
      .ev_notify_o  (ev_acc_notify),
      .ev_ovf_o     (ev_acc_ovf),
      .ev_count_o   (ev_count),
      .ev_repl_o    (ev_repl),
      .busy_o       (acc_busy)
    );
  end else begin : g_no_acc
    // nothing of §19 exists: the port is tied 0, the configuration outputs of the CSR block
    // are constant (unused here)
    assign acc_put        = '0;
    assign acc_ovf        = 1'b0;
    assign acc_wr_valid_o = 1'b0;
    assign acc_wr_addr_o  = '0;
    assign acc_wr_data_o  = '0;
    assign ev_acc_notify  = 1'b0;
    assign ev_acc_ovf     = 1'b0;
    assign acc_busy       = 1'b0;
    logic unused_acc;  // the CSR block's configuration outputs and the pick's inputs
    assign unused_acc = ^{acc_wr_ready_i, acc_en_local, acc_en_remote, acc_size_wr, acc_ovf_clr,
                          acc_clear_all, acc_clear, acc_gran, acc_thresh, acc_base, acc_size,
                          acc_get};
    logic [NumSm-1:0] unused_miss;
    for (genvar s = 0; s < NumSm; s++) begin : g_unused_miss
      assign unused_miss[s] = ^{l1_miss_vpn[s], l1_miss_asid[s]};
    end
  end

  // ---------------------------------------------------------------- referenced-line bitmaps (§20)
  logic ev_bmp_wb, ev_bmp_lost, bmp_busy;

  if (LineBitmap != 0) begin : g_bmp
    localparam int unsigned NumDep = NumSm * (1 + L1Entries);
    // this cycle's departures in push order (§20.4): the fill evictions in SM order, then the
    // flushes' entries in (SM, entry) order (the scanner's push comes first, inside u_bmp)
    logic [NumDep-1:0][VpnW-1:0] dep_vpn;
    logic [NumDep-1:0][31:0]     dep_bmp;
    always_comb begin : p_dep
      for (int unsigned s = 0; s < NumSm; s++) begin
        dep_vpn[s] = l1_ev_vpn[s];
        dep_bmp[s] = l1_ev_bmp[s];
        for (int unsigned e = 0; e < L1Entries; e++) begin
          dep_vpn[NumSm + s * L1Entries + e] = l1_fl_vpn[s][e];
          dep_bmp[NumSm + s * L1Entries + e] = l1_fl_bmp[s][e];
        end
      end
    end
    // the scanner's entry (_q): bitmap 0 if invalid
    logic [31:0]     scan_bmp;
    logic [VpnW-1:0] scan_vpn;
    always_comb begin : p_scan_rd
      scan_bmp = '0;
      scan_vpn = '0;
      for (int unsigned s = 0; s < NumSm; s++) begin
        if (l1_scan_in[s]) begin
          scan_bmp = l1_scan_bmp[s];
          scan_vpn = l1_scan_vpn[s];
        end
      end
    end

    localparam int unsigned LostW = $clog2(NumDep + 2);
    localparam int unsigned CntW  = $clog2(gmmu_pkg::BMP_Q + 1);
    logic [LostW-1:0]          lost;
    logic                      load, done;
    logic [gmmu_pkg::PA_W-1:0] unused_addr;
    logic [63:0]               unused_wdata;
    logic [CntW-1:0]           count;
    gmmu_bmp #(
      .NumScan (NumSm * L1Entries),
      .NumDep  (NumDep)
    ) u_bmp (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .base_i       ({bmp_base, 3'b000}),
      .pages_i      (bmp_pages),
      .vpn0_i       ({bmp_vpn0, 4'b0000}),
      .dep_vpn_i    (dep_vpn),
      .dep_bmp_i    (dep_bmp),
      .scan_bmp_i   (scan_bmp),
      .scan_vpn_i   (scan_vpn),
      .load_ok_i    (bmp_taken),
      .mr_bmp_i     (mr_bmp),
      .start_i      (bmp_flush),
      .load_o       (load),
      .addr_o       (unused_addr),
      .wdata_o      (unused_wdata),
      .scan_take_o  (bs_take),
      .lost_o       (lost),
      .done_o       (done),
      .busy_o       (bmp_scanning),
      .scan_idx_o   (bs_idx),
      .count_o      (count),
      .head_valid_o (bmp_head_valid),
      .head_addr_o  (bmp_head_addr),
      .head_hi_o    (bmp_head_hi),
      .head_bmp_o   (bmp_head_bmp)
    );
    assign ev_bmp_wb   = load;
    assign ev_bmp_lost = lost != '0;
    assign bmp_busy    = (count != '0) || bmp_scanning;
    logic unused_bmp_out;
    assign unused_bmp_out = ^{unused_addr, unused_wdata, done};
  end else begin : g_no_bmp
    // nothing of §20 exists: req_line_i is unread, the L1s' bitmap outputs are constant 0
    assign bs_idx         = '0;
    assign bs_take        = 1'b0;
    assign bmp_scanning   = 1'b0;
    assign bmp_head_valid = 1'b0;
    assign bmp_head_addr  = '0;
    assign bmp_head_hi    = 1'b0;
    assign bmp_head_bmp   = '0;
    assign ev_bmp_wb      = 1'b0;
    assign ev_bmp_lost    = 1'b0;
    assign bmp_busy       = 1'b0;
    logic unused_bmp;
    always_comb begin : p_unused_bmp
      unused_bmp = ^{req_line_i, bmp_base, bmp_pages, bmp_vpn0, bmp_flush, bmp_taken, mr_bmp};
      for (int unsigned s = 0; s < NumSm; s++) begin
        unused_bmp ^= ^{l1_scan_bmp[s], l1_scan_vpn[s], l1_ev_bmp[s], l1_ev_vpn[s],
                        l1_fl_bmp[s], l1_fl_vpn[s]};
      end
    end
  end

  // ---------------------------------------------------------------- events (§10) and idle (§9)
  logic [gmmu_pkg::EV_W-1:0] ev_q, ev_d;

  always_comb begin : p_events
    ev_d = '0;
    ev_d[gmmu_pkg::EV_L2_HIT]       = ev_l2_hit;
    ev_d[gmmu_pkg::EV_L2_MISS]      = ev_l2_miss;
    ev_d[gmmu_pkg::EV_WALK]         = ev_walk;
    ev_d[gmmu_pkg::EV_FF_NEW]       = ev_ff_new;
    ev_d[gmmu_pkg::EV_FF_MERGE]     = ev_ff_merge;
    ev_d[gmmu_pkg::EV_FF_DROP]      = ev_ff_drop;
    ev_d[gmmu_pkg::EV_FB_OVF]       = ev_fb_ovf;
    ev_d[gmmu_pkg::EV_WALK_RESTART] = ev_walk_restart;
    ev_d[gmmu_pkg::EV_L1_LARGE_HIT] = |l1_ev_large_hit;
    ev_d[gmmu_pkg::EV_L2_LARGE_HIT] = ev_l2_large_hit;
    ev_d[gmmu_pkg::EV_WALK_LARGE]   = ev_walk_large;
    ev_d[gmmu_pkg::EV_PWC_HIT]      = ev_pwc_hit;
    ev_d[gmmu_pkg::EV_CO_DONE]      = co_ev_done;
    ev_d[gmmu_pkg::EV_PTE_WRITE]    = ev_pte_write;
    ev_d[gmmu_pkg::EV_ACC_NOTIFY]   = ev_acc_notify;
    ev_d[gmmu_pkg::EV_ACC_OVF]      = ev_acc_ovf;
    ev_d[gmmu_pkg::EV_BMP_WB]       = ev_bmp_wb;
    ev_d[gmmu_pkg::EV_BMP_LOST]     = ev_bmp_lost;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      ev_q <= '0;
    end else begin
      ev_q <= ev_d;
    end
  end

  assign ev_o   = ev_q;
  assign idle_o = !((|l1_busy) || l2_busy || ptw_busy || ff_busy || csr_busy || co_busy ||
                     acc_busy || bmp_busy || (|ev_q));
endmodule
