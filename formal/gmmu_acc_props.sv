// Properties of the access-counter unit (gmmu_acc, docs/microarch.md §19), bound into gmmu_acc
// (formal/gmmu_acc_bind.sv); signals are the block's own (ports and internal nets, by name).
// Proved by formal/acc.sby (formal/fv_acc.sv drives every input, the ring registers as the CSR
// block does):
//   acc_cross_one       a crossing (a counted observation whose count reaches THRESH, §19.3)
//                       ends in a notification or an overflow; neither without a crossing
//   acc_not_both        never a notification and an overflow in the same crossing
//   acc_notify_room     a notification only into a free slot of an enabled ring
//   acc_ovf_full        an overflow only at a full or disabled ring
//   acc_put_step        PUT moves only by a notification (+1 mod size) or an ACC_SIZE write (-> 0)
//   acc_notify_loads    a notification is in the write register the next cycle: address
//                       base + 32 * PUT, the count, VALID
//   acc_load_by_notify  the write register is loaded only by a notification
//   acc_wr_hold         a stalled write holds its address and data
//   acc_ovf_*           OVERFLOW rises only by an overflow, survives a same-cycle W1C (§19.5)
//   acc_put_in_ring     PUT < ACC_SIZE (0 when the ring is off)
module gmmu_acc_props #(
  localparam int unsigned CntW  = gmmu_pkg::ACC_CNT_W,
  localparam int unsigned IdxW  = gmmu_pkg::FB_IDX_W,
  localparam int unsigned AddrW = gmmu_pkg::PA_W - $clog2(gmmu_pkg::FB_ENTRY_BYTES)
) (
  input logic              clk_i,
  input logic              rst_ni,
  input logic              counted,
  input logic [CntW:0]     c_new,
  input logic [CntW-1:0]   thresh_i,
  input logic              ev_notify_o,
  input logic              ev_ovf_o,
  input logic [IdxW-1:0]   put_q,
  input logic [IdxW:0]     put_inc,
  input logic              ovf_q,
  input logic [IdxW:0]     size_i,
  input logic [IdxW-1:0]   get_i,
  input logic [AddrW-1:0]  base_i,
  input logic              size_wr_i,
  input logic              ovf_clr_i,
  input logic              wr_valid_o,
  input logic              wr_ready_i,
  input logic [gmmu_pkg::PA_W-1:0] wr_addr_o,
  input logic [255:0]      wr_data_o
);
  logic crossing;
  assign crossing = counted && c_new >= {1'b0, thresh_i};

  always_comb if (rst_ni) begin
    acc_cross_one: assert (crossing == (ev_notify_o || ev_ovf_o));
    acc_not_both: assert (!(ev_notify_o && ev_ovf_o));
    acc_notify_room: assert (!ev_notify_o || (size_i != '0 && put_inc != {1'b0, get_i}));
    acc_ovf_full: assert (!ev_ovf_o || size_i == '0 || put_inc == {1'b0, get_i});
    acc_put_in_ring: assert (size_i == '0 ? put_q == '0 : {1'b0, put_q} < size_i);
  end

  logic             past_valid, notify_p, ovf_p, size_wr_p, clr_p, ovf_q_p, hold_p;
  logic [IdxW-1:0]  put_p;
  logic [IdxW:0]    put_inc_p;
  logic [AddrW-1:0] base_p;
  logic [CntW-1:0]  cnt_p;
  logic [gmmu_pkg::PA_W-1:0] addr_p;
  logic [255:0]     data_p;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      past_valid <= 1'b0; notify_p <= 1'b0; ovf_p <= 1'b0; size_wr_p <= 1'b0; clr_p <= 1'b0;
      ovf_q_p <= 1'b0; hold_p <= 1'b0; put_p <= '0; put_inc_p <= '0; base_p <= '0; cnt_p <= '0;
      addr_p <= '0; data_p <= '0;
    end else begin
      past_valid <= 1'b1; notify_p <= ev_notify_o; ovf_p <= ev_ovf_o; size_wr_p <= size_wr_i;
      clr_p <= ovf_clr_i; ovf_q_p <= ovf_q; hold_p <= wr_valid_o && !wr_ready_i; put_p <= put_q;
      put_inc_p <= put_inc; base_p <= base_i; cnt_p <= c_new[CntW-1:0]; addr_p <= wr_addr_o;
      data_p <= wr_data_o;
    end
  end

  always_comb if (rst_ni && past_valid) begin
    acc_put_step: assert (size_wr_p ? put_q == '0 :
                          notify_p ? put_q == put_inc_p[IdxW-1:0] : put_q == put_p);
    acc_notify_loads: assert (!notify_p || (wr_valid_o &&
        wr_addr_o == {base_p + AddrW'(put_p), 5'b0} && wr_data_o[192 +: CntW] == cnt_p &&
        wr_data_o[255]));
    acc_load_by_notify: assert (!wr_valid_o || hold_p || notify_p);
    acc_wr_hold: assert (!hold_p || (wr_valid_o && wr_addr_o == addr_p && wr_data_o == data_p));
    acc_ovf_rise: assert (!(ovf_q && !ovf_q_p) || ovf_p);
    acc_ovf_set_beats_clear: assert (!(ovf_p && !size_wr_p) || ovf_q);
    acc_ovf_fall: assert (!(!ovf_q && ovf_q_p) || clr_p || size_wr_p);
  end

  always_comb if (rst_ni && past_valid) begin
    c_notify: cover (notify_p);
    c_ovf_full: cover (ovf_p && size_i != '0);
    c_wrap: cover (notify_p && put_q == '0 && !size_wr_p);
    c_stall: cover (hold_p && crossing == 1'b0 && counted == 1'b0);
    c_ovf_race: cover (ovf_p && clr_p && ovf_q);
  end
endmodule
