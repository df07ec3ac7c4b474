// Formal harness of the access-counter unit (gmmu_acc, docs/microarch.md §19): 3 tracker entries
// (not a power of two: the victim wrap), 2 address spaces, every observation, clear and ring
// write input free; the configuration registers are driven as gmmu_csr does (§19.2): ACC_SIZE
// 0 or a power of two <= 8 (a small ring, so full and wrap are reachable), written with the
// size_wr pulse; GET < ACC_SIZE; THRESH 1..4 (crossings within the depth) and GRAN legal, GRAN
// changed only with a clear of every entry. Properties: formal/gmmu_acc_props.sv.
module fv_acc (
  input logic                          clk_i,
  input logic                          rst_ni,
  input logic                          obs_valid_i,
  input logic                          obs_remote_i,
  input logic [gmmu_pkg::ASID_W-1:0]   obs_asid_i,
  input logic [gmmu_pkg::VPN_W-1:0]    obs_vpn_i,
  input logic                          en_local_i,
  input logic                          en_remote_i,
  input logic [1:0]                    gran_i,
  input logic [gmmu_pkg::ACC_CNT_W-1:0] thresh_i,
  input logic [gmmu_pkg::PA_W-6:0]     base_i,
  input logic                          size_wr_i,
  input logic [gmmu_pkg::FB_IDX_W:0]   size_wdata_i,
  input logic [gmmu_pkg::FB_IDX_W-1:0] get_i,
  input logic                          ovf_clr_i,
  input logic                          clear_all_i,
  input logic                          clear_i,
  input logic [gmmu_pkg::VPN_W-1:0]    cmd_vpn_i,
  input logic [gmmu_pkg::ASID_W-1:0]   cmd_asid_i,
  input logic                          wr_ready_i
);
  localparam int unsigned IdxW = gmmu_pkg::FB_IDX_W;
  logic init = 1'b1;
  always_ff @(posedge clk_i) init <= 1'b0;
  always_comb assume (rst_ni == !init);

  // ACC_SIZE as gmmu_csr holds it: reset 0, a legal write (0 or a power of two <= 8)
  logic [IdxW:0] size_q;
  logic [1:0]    gran_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      size_q <= '0;
      gran_q <= '0;
    end else begin
      if (size_wr_i) size_q <= size_wdata_i;
      gran_q <= gran_i;
    end
  end
  always_comb begin
    assume (size_wdata_i == 0 || size_wdata_i == 1 || size_wdata_i == 2 || size_wdata_i == 4 ||
            size_wdata_i == 8);
    assume (size_q == '0 ? get_i == '0 : {1'b0, get_i} < size_q);
    assume (thresh_i != '0 && thresh_i <= 4);
    assume (gran_i != 2'd3);
    assume (gran_i == gran_q || clear_all_i || !rst_ni);
    assume (obs_asid_i < 2 && cmd_asid_i < 2);
  end

  logic [gmmu_pkg::FB_IDX_W-1:0] put;
  logic ovf, wr_valid, ev_notify, ev_ovf, ev_count, ev_repl, busy;
  logic [gmmu_pkg::PA_W-1:0] wr_addr;
  logic [255:0] wr_data;
  gmmu_acc #(.AccEntries (3), .NumAsids (2)) u_acc (
    .clk_i, .rst_ni, .obs_valid_i, .obs_remote_i, .obs_asid_i, .obs_vpn_i, .en_local_i,
    .en_remote_i, .gran_i, .thresh_i, .base_i, .size_i (size_q), .get_i, .size_wr_i,
    .ovf_clr_i, .clear_all_i, .clear_i, .cmd_vpn_i, .cmd_asid_i, .put_o (put),
    .overflow_o (ovf), .wr_valid_o (wr_valid), .wr_ready_i, .wr_addr_o (wr_addr),
    .wr_data_o (wr_data), .ev_notify_o (ev_notify), .ev_ovf_o (ev_ovf), .ev_count_o (ev_count),
    .ev_repl_o (ev_repl), .busy_o (busy)
  );
endmodule
