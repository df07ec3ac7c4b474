// Formal harness of the fault ring: the CSR block (gmmu_csr) and the far-fault unit (gmmu_ff)
// wired as in gmmu_top, every other input free (any CSR access sequence, any fault offer the
// L2 may make, any fb_wr_ready). Properties: gmmu_ff_props (bound) and the ring register
// legality below. TINY parameters (configs/tiny.cfg).
module fv_ring #(
  parameter int unsigned NumSm     = 2,
  parameter int unsigned FfEntries = 4,
  parameter int unsigned FfQuota   = 2
) (
  input logic                               clk_i,
  input logic                               rst_ni,
  input logic [63:0]                        time_i,
  input logic                               csr_valid_i,
  input logic                               csr_write_i,
  input logic [gmmu_pkg::CSR_ADDR_W-1:0]    csr_addr_i,
  input logic [31:0]                        csr_wdata_i,
  input logic                               offer_valid_i,
  input logic [gmmu_pkg::VPN_W-1:0]         offer_vpn_i,
  input logic                               offer_write_i,
  input logic [NumSm-1:0]                   offer_mask_i,
  input logic [gmmu_pkg::FB_FAULT_TYPE_W-1:0] offer_ft_i,
  input logic                               fb_wr_ready_i
);
  localparam int unsigned IdxW    = gmmu_pkg::FB_IDX_W;
  localparam int unsigned FbAddrW = gmmu_pkg::PA_W - $clog2(gmmu_pkg::FB_ENTRY_BYTES);
  localparam int unsigned FCntW   = $clog2(FfEntries + 1);

  // reset in the first cycle only
  logic init = 1'b1;
  always_ff @(posedge clk_i) init <= 1'b0;
  always_comb assume (rst_ni == !init);

  logic [gmmu_pkg::PPN_W-1:0] pt_base [1];  // one address space (NumAsids = 1, §14.8)
  logic [gmmu_pkg::ASID_W-1:0] cmd_asid, cancel_asid;
  logic cmd_scope;
  logic [FbAddrW-1:0] fb_base;
  logic [IdxW:0]      fb_size;
  logic [IdxW-1:0]    fb_get, fb_put;
  logic               fb_size_wr, ovf_clr, overflow, irq, rvalid, busy;
  logic [31:0]        rdata;
  logic [FCntW-1:0]   ff_count;
  logic               cmd_cycle, flush_all, flush_page, replay_page, replay_all, cancel_page;
  logic [gmmu_pkg::VPN_W-1:0] cmd_vpn;

  gmmu_csr #(.NumSm(NumSm), .FfEntries(FfEntries), .FfQuota(FfQuota)) u_csr (
    // access counters absent (AccEntries = 0, docs/microarch.md §19.8)
    .acc_put_i ('0), .acc_ovf_i (1'b0), .acc_en_local_o (), .acc_en_remote_o (), .acc_gran_o (),
    .acc_thresh_o (), .acc_base_o (), .acc_size_o (), .acc_get_o (), .acc_size_wr_o (),
    .acc_ovf_clr_o (), .acc_clear_all_o (), .acc_clear_o (),
    .clk_i, .rst_ni, .csr_valid_i, .csr_write_i, .csr_addr_i, .csr_wdata_i,
    .csr_rvalid_o (rvalid), .csr_rdata_o (rdata), .irq_o (irq),
    .put_i (fb_put), .overflow_i (overflow), .ff_count_i (ff_count),
    .pt_base_o (pt_base), .fb_base_o (fb_base), .fb_size_o (fb_size), .get_o (fb_get),
    .fb_size_wr_o (fb_size_wr), .ovf_clr_o (ovf_clr), .cmd_cycle_o (cmd_cycle),
    .cmd_vpn_o (cmd_vpn), .flush_all_o (flush_all), .flush_page_o (flush_page),
    .replay_page_o (replay_page), .replay_all_o (replay_all), .cancel_page_o (cancel_page),
    .busy_o (busy), .cmd_asid_o (cmd_asid), .cmd_scope_o (cmd_scope)
  );

  // the L2 offers nothing in a command cycle (§2.1): the one assumption on the offer timing
  logic offer_valid;
  assign offer_valid = offer_valid_i && !cmd_cycle;

  logic [NumSm-1:0] replay;
  logic cancel_valid, ff_ready, fb_wr_valid, ev_new, ev_merge, ev_drop, ev_ovf, ff_busy;
  logic [gmmu_pkg::VPN_W-1:0] cancel_vpn;
  logic [gmmu_pkg::PA_W-1:0] fb_wr_addr;
  logic [255:0] fb_wr_data;

  // the offer record (spec/tlb.toml fault_offer); one address space: ASID 0
  gmmu_tlb_pkg::fault_offer_t offer;
  assign offer = '{req: '{asid: '0, vpn: offer_vpn_i, write: offer_write_i},
                   fault_type: offer_ft_i};

  gmmu_ff #(.NumSm(NumSm), .FfEntries(FfEntries), .FfQuota(FfQuota)) u_ff (
    .clk_i, .rst_ni, .time_i,
    .offer_valid_i (offer_valid), .offer_i (offer), .offer_mask_i,
    .ready_o (ff_ready), .cmd_cycle_i (cmd_cycle), .replay_page_i (replay_page), .replay_all_i (replay_all),
    .cancel_page_i (cancel_page), .cmd_vpn_i (cmd_vpn), .fb_base_i (fb_base),
    .fb_size_i (fb_size), .get_i (fb_get), .fb_size_wr_i (fb_size_wr), .ovf_clr_i (ovf_clr),
    .put_o (fb_put), .overflow_o (overflow), .ff_count_o (ff_count), .replay_o (replay),
    .cancel_valid_o (cancel_valid), .cancel_vpn_o (cancel_vpn), .fb_wr_valid_o (fb_wr_valid),
    .fb_wr_ready_i, .fb_wr_addr_o (fb_wr_addr), .fb_wr_data_o (fb_wr_data),
    .ev_new_o (ev_new), .ev_merge_o (ev_merge), .ev_drop_o (ev_drop), .ev_ovf_o (ev_ovf),
    .busy_o (ff_busy), .cmd_asid_i (cmd_asid), .cancel_asid_o (cancel_asid)
  );

  // CSR legality of the ring registers (§8): whatever the host writes, FB_SIZE is 0 or a power
  // of two <= 2^FB_IDX_W, and GET < FB_SIZE (GET = 0 while the ring is disabled)
  always_comb if (rst_ni) begin
    ring_size_legal: assert (fb_size == '0 ||
                             ((fb_size & (fb_size - 1'b1)) == '0 && fb_size <= (1 << IdxW)));
    ring_get_range: assert ((fb_size == '0) ? fb_get == '0 : {1'b0, fb_get} < fb_size);
    // interrupt rule of §8
    ring_irq: assert (irq == ((u_csr.ie_q[gmmu_pkg::BIT_INT_FAULT] && fb_put != fb_get) ||
                              (u_csr.ie_q[gmmu_pkg::BIT_INT_OVERFLOW] && overflow)));
  end
endmodule
