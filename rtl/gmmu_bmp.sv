// Referenced-line bitmap write-back queue and BMP_FLUSH scanner (docs/microarch.md §20.4, §20.5):
// BMP_Q slots of {vpn, bitmap}; the scanner pushes first (on a free slot of _q), then this
// cycle's departures in order; the head goes to the walker's request register as a set-bits
// write of the page's half of its 8-byte table word. C model mirror: cmodel/bmp.c. Instance
// g_bmp.u_bmp of gmmu_top with LineBitmap = 1 (§20.7); block-level lock-step in make
// test-bmp-lockstep. scan_take_o and head_* are functions of _q only (the L1s and the walkers'
// request register read them in the same cycle; the departures and load_ok_i come back).
module gmmu_bmp #(
  parameter int unsigned NumScan  = 16,  // entries the scanner visits: NumSm * L1Entries
  parameter int unsigned NumDep   = 4,   // departures presented per cycle
  localparam int unsigned VpnW    = gmmu_pkg::VPN_W,
  localparam int unsigned PaW     = gmmu_pkg::PA_W,
  localparam int unsigned Q       = gmmu_pkg::BMP_Q,
  localparam int unsigned PtrW    = (Q > 1) ? $clog2(Q) : 1,
  localparam int unsigned CntW    = $clog2(Q + 1),
  localparam int unsigned SIdxW   = $clog2(NumScan + 1),
  localparam int unsigned LostW   = $clog2(NumDep + 2)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  // table registers (gmmu_csr, §20.5)
  input  logic [PaW-1:0]               base_i,
  input  logic [31:0]                  pages_i,
  input  logic [VpnW-1:0]              vpn0_i,
  // this cycle's departures in push order (bitmap 0: none)
  input  logic [NumDep-1:0][VpnW-1:0]  dep_vpn_i,
  input  logic [NumDep-1:0][31:0]      dep_bmp_i,
  // the entry at scan_idx_o (bitmap 0 if invalid)
  input  logic [31:0]                  scan_bmp_i,
  input  logic [VpnW-1:0]              scan_vpn_i,
  input  logic                         load_ok_i,  // request register free, no walker / unit load
  input  logic                         mr_bmp_i,   // request register holds a bitmap write
  input  logic                         start_i,    // BMP_FLUSH in this command cycle
  output logic                         load_o,
  output logic [PaW-1:0]               addr_o,
  output logic [63:0]                  wdata_o,
  output logic                         scan_take_o,
  output logic [LostW-1:0]             lost_o,
  output logic                         done_o,
  output logic                         busy_o,     // bs_busy_q (CMD_STATUS.BUSY)
  output logic [SIdxW-1:0]             scan_idx_o, // bs_idx_q
  output logic [CntW-1:0]              count_o,    // slots in use
  // the head (_q) offered to the walkers' request register (§20.5)
  output logic                         head_valid_o,
  output logic [PaW-1:0]               head_addr_o,
  output logic                         head_hi_o,
  output logic [31:0]                  head_bmp_o
);
  if ((Q & (Q - 1)) != 0) begin : g_q_pow2
    $fatal(1, "BMP_Q must be a power of two");
  end

  logic [VpnW-1:0] q_vpn_q [Q];
  logic [VpnW-1:0] q_vpn_d [Q];
  logic [31:0]     q_bmp_q [Q];
  logic [31:0]     q_bmp_d [Q];
  logic [PtrW-1:0] head_q, head_d;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic            bs_busy_q, bs_busy_d;
  logic [SIdxW-1:0] bs_idx_q, bs_idx_d;

  // page vpn has a word in the window [vpn0, vpn0 + pages)
  function automatic logic in_table(input logic [VpnW-1:0] vpn, input logic [VpnW-1:0] vpn0,
                                    input logic [31:0] pages);
    logic [VpnW-1:0] i;
    i = vpn - vpn0;
    return (vpn >= vpn0) && (i < VpnW'(pages));
  endfunction

  logic [CntW-1:0]  free;
  logic [PtrW-1:0]  tail;
  logic [VpnW-1:0]  hidx;
  logic             scan_go;  // the scanner visits entry bs_idx_q this cycle (from _q)
  assign scan_go      = bs_busy_q && (bs_idx_q < SIdxW'(NumScan)) && (cnt_q != CntW'(Q));
  assign scan_take_o  = scan_go;
  assign hidx         = q_vpn_q[head_q] - vpn0_i;
  assign head_valid_o = cnt_q != '0;
  assign head_addr_o  = base_i + PaW'({hidx[VpnW-1:1], 3'b000});
  assign head_hi_o    = hidx[0];
  assign head_bmp_o   = q_bmp_q[head_q];

  always_comb begin
    q_vpn_d     = q_vpn_q;
    q_bmp_d     = q_bmp_q;
    head_d      = head_q;
    cnt_d       = cnt_q;
    bs_busy_d   = bs_busy_q;
    bs_idx_d    = bs_idx_q;
    load_o      = 1'b0;
    addr_o      = '0;
    wdata_o     = '0;
    lost_o      = '0;
    done_o      = 1'b0;
    free        = CntW'(Q) - cnt_q;  // the slot the head frees this cycle is not counted
    tail        = head_q + PtrW'(cnt_q);
    // the scanner first, on a free slot of _q
    if (scan_go) begin
      bs_idx_d    = bs_idx_q + 1'b1;
      if (scan_bmp_i != '0) begin
        if (!in_table(scan_vpn_i, vpn0_i, pages_i)) begin
          lost_o = lost_o + 1'b1;
        end else begin
          q_vpn_d[tail] = scan_vpn_i;
          q_bmp_d[tail] = scan_bmp_i;
          tail          = tail + 1'b1;
          cnt_d         = cnt_d + 1'b1;
          free          = free - 1'b1;
        end
      end
    end else if (bs_busy_q && (bs_idx_q >= SIdxW'(NumScan)) && (cnt_q == '0) && !mr_bmp_i) begin
      bs_busy_d = 1'b0;
      done_o    = 1'b1;
    end
    // this cycle's departures, in order
    for (int unsigned k = 0; k < NumDep; k++) begin
      if (dep_bmp_i[k] != '0) begin
        if (!in_table(dep_vpn_i[k], vpn0_i, pages_i) || (free == '0)) begin
          lost_o = lost_o + 1'b1;
        end else begin
          q_vpn_d[tail] = dep_vpn_i[k];
          q_bmp_d[tail] = dep_bmp_i[k];
          tail          = tail + 1'b1;
          cnt_d         = cnt_d + 1'b1;
          free          = free - 1'b1;
        end
      end
    end
    // the head of _q to the request register, at the lowest priority
    if ((cnt_q != '0) && load_ok_i) begin
      load_o  = 1'b1;
      addr_o  = head_addr_o;
      wdata_o = head_hi_o ? {head_bmp_o, 32'b0} : {32'b0, head_bmp_o};
      head_d  = head_q + 1'b1;
      cnt_d   = cnt_d - 1'b1;
    end
    if (start_i) begin
      bs_busy_d = 1'b1;
      bs_idx_d  = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q    <= '0;
      cnt_q     <= '0;
      bs_busy_q <= 1'b0;
      bs_idx_q  <= '0;
      for (int unsigned k = 0; k < Q; k++) begin
        q_vpn_q[k] <= '0;
        q_bmp_q[k] <= '0;
      end
    end else begin
      head_q    <= head_d;
      cnt_q     <= cnt_d;
      bs_busy_q <= bs_busy_d;
      bs_idx_q  <= bs_idx_d;
      q_vpn_q   <= q_vpn_d;
      q_bmp_q   <= q_bmp_d;
    end
  end

  assign busy_o     = bs_busy_q;
  assign scan_idx_o = bs_idx_q;
  assign count_o    = cnt_q;

`ifndef SYNTHESIS
  // §20.6: the queue never holds more than BMP_Q bitmaps
  a_count : assert property (@(posedge clk_i) disable iff (!rst_ni) cnt_q <= CntW'(Q));
`endif
endmodule
