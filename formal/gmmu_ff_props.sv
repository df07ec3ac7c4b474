// Properties of the far-fault unit and fault-buffer writer (gmmu_ff, docs/microarch.md §7),
// bound into every gmmu_ff instance (formal/gmmu_ff_bind.sv). Signals are the block's own
// (ports and internal registers, connected by name).
//
// Proved (formal/ring.sby, mode prove, with gmmu_csr driving the ring registers):
//   ff_one_entry_per_vpn    at most one valid far-fault entry per vpn (§11)
//   ff_quota                every SM's count of entries it *opened* (post mask A) <= FfQuota;
//                           merges are excluded by design (§11: "merges may exceed the quota"),
//                           so a shadow register keeps the post mask of each entry
//   ff_count                FF_COUNT = number of valid entries; a valid entry has a non-empty mask
//   ff_sm_count             each SM's kept count (sm_cnt_q, the quota's) = its valid entries
//   ff_put_p1               the kept PUT + 1 register equals PUT + 1
//   ring_*                  PUT < FB_SIZE (PUT = 0 when the ring is disabled), a post only into a
//                           free slot (never when the ring is full or disabled), PUT moves only by
//                           a post (+1 mod size) or an FB_SIZE write (-> 0)
//   ovf_*                   OVERFLOW rises only on a drop at a full/disabled ring, falls only on a
//                           W1C clear or a legal FB_SIZE write, and a same-cycle W1C clear loses
//                           against the unit's set (§7); an FB_SIZE write clears PUT and OVERFLOW
//   fw_*                    the fault-entry write holds valid, address and data until accepted
//   ff_off_*                the offer register: processed only outside command cycles (never
//                           with a command), held in a command cycle, never full while the
//                           fault-entry write register is
module gmmu_ff_props #(
  parameter int unsigned NumSm     = 2,
  parameter int unsigned FfEntries = 4,
  parameter int unsigned FfQuota   = 2,
  parameter bit          AssumeEnv = 1'b1,
  localparam int unsigned FtW      = gmmu_pkg::FB_FAULT_TYPE_W,
  localparam int unsigned FbAddrW  = gmmu_pkg::PA_W - $clog2(gmmu_pkg::FB_ENTRY_BYTES),
  localparam int unsigned FCntW    = $clog2(FfEntries + 1),
  localparam int unsigned IdxW     = gmmu_pkg::FB_IDX_W,
  localparam int unsigned VpnW     = gmmu_pkg::VPN_W,
  localparam int unsigned FIdxW    = (FfEntries > 1) ? $clog2(FfEntries) : 1
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic                   offer_valid_i,
  input logic [NumSm-1:0]       offer_mask_i,
  input logic                   ready_o,
  input logic                   cmd_cycle_i,
  input logic                   replay_page_i,
  input logic                   replay_all_i,
  input logic                   cancel_page_i,
  input logic [FbAddrW-1:0]     fb_base_i,
  input logic [IdxW:0]          fb_size_i,
  input logic [IdxW-1:0]        get_i,
  input logic                   fb_size_wr_i,
  input logic                   ovf_clr_i,
  input logic [FCntW-1:0]       ff_count_o,
  input logic                   fb_wr_valid_o,
  input logic                   fb_wr_ready_i,
  input logic [gmmu_pkg::PA_W-1:0] fb_wr_addr_o,
  input logic [255:0]           fb_wr_data_o,
  input logic [NumSm-1:0]       replay_o,
  input logic                   cancel_valid_o,
  // internal state and decode of gmmu_ff
  input logic                   off_valid_q,
  input logic                   of_valid,     // the offer register processed in this cycle
  input logic [NumSm-1:0]       off_mask_q,
  input logic [FfEntries-1:0]   e_valid_q,
  input logic [FCntW-1:0]       sm_cnt_q [NumSm],
  input logic [FfEntries-1:0]   e_valid_d,
  input logic [VpnW-1:0]        e_vpn_q [FfEntries],
  input logic [NumSm-1:0]       e_mask_q [FfEntries],
  input logic [NumSm-1:0]       dropped_q,
  input logic [IdxW-1:0]        put_q,
  input logic [IdxW-1:0]        put_p1_q,
  input logic                   overflow_q,
  input logic                   o_merge,
  input logic                   o_drop,
  input logic                   o_ovf,
  input logic                   o_post,
  input logic [FIdxW-1:0]       free_idx,
  input logic [NumSm-1:0]       avail,
  input logic                   ring_full,
  input logic                   ring_off
);
`include "fv_defs.svh"

  // ---------------------------------------------------------------- environment (§3, §2.1)
  // the L2 offers a fault only outside command cycles, with a non-empty SM mask; at most one
  // command per cycle (one CMD register)
  `FV_ENV(ff_offer_mask, !offer_valid_i || offer_mask_i != '0)
  // ... and only while the unit is ready (its fault-entry write register empty, §5.3 step 1)
  `FV_ENV(ff_offer_ready, !offer_valid_i || ready_o)
  `FV_ENV(ff_offer_no_cmd, !offer_valid_i || !(replay_page_i || replay_all_i || cancel_page_i))
  `FV_ENV(ff_one_cmd, $onehot0({replay_page_i, replay_all_i, cancel_page_i}))
  // the commands come in command cycles (gmmu_csr decodes them from cmd_valid_q)
  `FV_ENV(ff_cmd_in_cycle, cmd_cycle_i || !(replay_page_i || replay_all_i || cancel_page_i))

  // ---------------------------------------------------------------- shadow: post mask per entry
  logic [NumSm-1:0] open_q [FfEntries];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      open_q <= '{default: '0};
    end else begin
      for (int unsigned i = 0; i < FfEntries; i++) begin
        if (o_post && free_idx == FIdxW'(i)) open_q[i] <= avail;
        else if (!e_valid_d[i]) open_q[i] <= '0;
      end
    end
  end

  // ---------------------------------------------------------------- invariants
  for (genvar i = 0; i < FfEntries; i++) begin : g_e
    for (genvar j = i + 1; j < FfEntries; j++) begin : g_o
      `FV_ASSERT(ff_one_entry_per_vpn,
                 !(e_valid_q[i] && e_valid_q[j] && e_vpn_q[i] == e_vpn_q[j]))
    end
    `FV_ASSERT(ff_open_in_mask, (open_q[i] & ~e_mask_q[i]) == '0)
    `FV_ASSERT(ff_open_valid, e_valid_q[i] || open_q[i] == '0)
    `FV_ASSERT(ff_mask_nonempty, !e_valid_q[i] || e_mask_q[i] != '0)
  end
  for (genvar s = 0; s < NumSm; s++) begin : g_sm
    int unsigned n_open;
    always_comb begin
      n_open = 0;
      for (int unsigned i = 0; i < FfEntries; i++) n_open += (e_valid_q[i] && open_q[i][s]) ? 1 : 0;
    end
    `FV_ASSERT(ff_quota, n_open <= FfQuota)
    int unsigned n_in;
    always_comb begin
      n_in = 0;
      for (int unsigned i = 0; i < FfEntries; i++) n_in += (e_valid_q[i] && e_mask_q[i][s]) ? 1 : 0;
    end
    `FV_ASSERT(ff_sm_count, int'(sm_cnt_q[s]) == n_in)
  end
  int unsigned n_valid;
  always_comb begin
    n_valid = 0;
    for (int unsigned i = 0; i < FfEntries; i++) n_valid += e_valid_q[i] ? 1 : 0;
  end
  `FV_ASSERT(ff_count, int'(ff_count_o) == n_valid)
  // a post opens an entry only for SMs under their quota (A non-empty, A within the offer)
  `FV_ASSERT(ff_post_avail, !o_post || (avail != '0 && (avail & ~off_mask_q) == '0))
  // exactly one outcome per processed offer, none without one
  `FV_ASSERT(ff_no_outcome, of_valid || !(o_merge || o_drop || o_ovf || o_post))
  `FV_ASSERT(ff_one_outcome, !of_valid ||
             $onehot({o_merge, o_drop && !o_ovf, o_ovf, o_post}))
  `FV_ASSERT(ff_ovf_is_drop, !o_ovf || o_drop)
  // the offer register (§7): a processed offer never meets a command (it holds in a command
  // cycle), and the register is full only while the fault-entry write register is empty (so a
  // post always finds it free)
  `FV_ASSERT(ff_off_no_cmd, !of_valid || !(replay_page_i || replay_all_i || cancel_page_i))
  `FV_ASSERT(ff_off_fw_empty, !off_valid_q || !fb_wr_valid_o)
  `FV_ASSERT(ff_off_mask_nonempty, !off_valid_q || off_mask_q != '0)

  // ring pointers (§7, §8): PUT stays inside the ring; a post never writes a full or
  // disabled ring (GET == PUT + 1 means full: one slot stays empty)
  `FV_ASSERT(ring_put_range, (fb_size_i == '0) ? (put_q == '0) : ({1'b0, put_q} < fb_size_i))
  // the kept PUT + 1 (the ring-full test's register)
  `FV_ASSERT(ff_put_p1, put_p1_q == put_q + 1'b1)
  `FV_ASSERT(ring_post_free_slot, !o_post || (!ring_off && !ring_full &&
             ((({1'b0, put_q} + 1'b1) & (fb_size_i - 1'b1)) != {1'b0, get_i})))

  // ---------------------------------------------------------------- transition properties
  logic             past_valid;
  logic [IdxW-1:0]  put_p;
  logic [IdxW:0]    size_p;
  logic [FbAddrW-1:0] base_p;
  logic             post_p, ovf_p, size_wr_p, clr_p, ovf_q_p, fw_hold_p, drop_p, off_hold_p;
  logic [gmmu_pkg::PA_W-1:0] fw_addr_p;
  logic [255:0]     fw_data_p;
  logic [NumSm-1:0] offer_mask_p;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      past_valid <= 1'b0;
      put_p <= '0; size_p <= '0; base_p <= '0; post_p <= 1'b0; ovf_p <= 1'b0;
      size_wr_p <= 1'b0; clr_p <= 1'b0; ovf_q_p <= 1'b0; fw_hold_p <= 1'b0; drop_p <= 1'b0;
      off_hold_p <= 1'b0;
      fw_addr_p <= '0; fw_data_p <= '0; offer_mask_p <= '0;
    end else begin
      past_valid <= 1'b1;
      put_p <= put_q; size_p <= fb_size_i; base_p <= fb_base_i; post_p <= o_post;
      ovf_p <= o_ovf; size_wr_p <= fb_size_wr_i; clr_p <= ovf_clr_i; ovf_q_p <= overflow_q;
      fw_hold_p <= fb_wr_valid_o && !fb_wr_ready_i; drop_p <= o_drop;
      fw_addr_p <= fb_wr_addr_o; fw_data_p <= fb_wr_data_o; offer_mask_p <= off_mask_q;
      off_hold_p <= off_valid_q && cmd_cycle_i;
    end
  end

  always_comb if (rst_ni && past_valid) begin
    // PUT: +1 mod size on a post, 0 after an FB_SIZE write, else unchanged
    ring_put_step: assert (size_wr_p ? put_q == '0 :
                           post_p ? {1'b0, put_q} == (({1'b0, put_p} + 1'b1) & (size_p - 1'b1))
                                  : put_q == put_p);
    // a posted entry goes to FB_BASE + 32 * PUT (48-bit wrap)
    ring_post_addr: assert (!post_p || (fb_wr_valid_o &&
                            fb_wr_addr_o[gmmu_pkg::PA_W-1:5] == base_p + FbAddrW'(put_p)));
    // OVERFLOW
    ovf_rise_by_drop: assert (!(overflow_q && !ovf_q_p) || ovf_p);
    ovf_fall_by_host: assert (!(!overflow_q && ovf_q_p) || clr_p || size_wr_p);
    ovf_set_beats_clear: assert (!(ovf_p && !size_wr_p) || overflow_q);
    ovf_size_write_clears: assert (!size_wr_p || (!overflow_q && put_q == '0));
    // fault-entry write: held until accepted
    fw_hold: assert (!fw_hold_p || (fb_wr_valid_o && fb_wr_addr_o == fw_addr_p &&
                                    fb_wr_data_o == fw_data_p));
    // a dropped offer marks every offered SM dropped (it is replayed by the next replay)
    ff_drop_marks: assert (!drop_p || (dropped_q & offer_mask_p) == offer_mask_p);
    // the offer register holds through a command cycle
    ff_off_hold: assert (!off_hold_p || off_valid_q);
  end

  // ---------------------------------------------------------------- covers
  always_comb if (rst_ni) begin
    c_ff_post: cover (o_post);
    c_ff_merge: cover (o_merge);
    c_ff_drop_quota: cover (o_drop && !o_ovf);
    c_ff_drop_ovf: cover (o_ovf);
    c_ff_not_ready: cover (!ready_o && fb_wr_valid_o && !fb_wr_ready_i);
    c_ff_full: cover (e_valid_q == '1);
    c_ff_replay: cover (replay_o != '0);
    c_ff_cancel: cover (cancel_valid_o);
    c_ff_off_hold: cover (off_valid_q && cmd_cycle_i);
  end
  always_comb if (rst_ni && past_valid) begin
    c_ovf_race: cover (ovf_p && clr_p && overflow_q);
    c_ring_wrap: cover (post_p && put_q == '0 && size_p > 1);
  end
endmodule
