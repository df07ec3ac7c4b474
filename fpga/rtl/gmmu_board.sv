// Board top (docs/fpga.md "Board top"): gmmu_top with the memories and agents the co-simulation
// platform models in C, all on chip, and a UART host link:
//   PT memory    page-table pages at PA [0, PtPages*4K): the GMMU's PTE reads (one per cycle,
//                response the next cycle), the host's PTE writes
//   ring memory  the fault buffer at host address [0, FbEntries*32): the GMMU's entry writes,
//                the host's reads and valid-bit clears
//   player       request FIFO -> SM port 0 of each SM, outstanding table, content tags of the
//                data frames (PPN DataBasePpn + i), result FIFO (gmmu_board_player)
//   time         a free-running cycle counter drives time_i (outside gmmu_top: the GMMU has none)
//   UART bridge  LiteX UARTBone protocol -> a 32-bit bus over all of the above
// Bus map (byte addresses, as litex_cli shows them; docs/fpga.md has the register table):
//   0x0000_0000 board registers   0x0001_0000 GMMU CSRs (+ CSR address)
//   0x0002_0000 fault ring        0x0004_0000 content tags (frame f: +8f low, +8f+4 high)
//   0x0010_0000 PT memory (+ PA; the 32-bit halves of each 64-bit PTE, low first)
module gmmu_board #(
  // gmmu_top parameters (the board's configuration): generated from spec/params.toml
  `include "gmmu_top_params.svh"
  ,
  // board
  parameter int unsigned ClkKhz         = 25000,
  // UART rate of the host link: the board tops pass the rate of fpga/boards/links.toml (one
  // source of truth with gmmu-board --board); clock cycles per bit = ClkKhz * 1000 / Baud,
  // rounded, at most 2 % off the rate and at least 8
  parameter int unsigned Baud           = 115200,
  parameter int unsigned TimeoutCycles  = 2500000,  // UARTBone command timeout (0: none)
  parameter int unsigned PtPagesW       = 3,        // PT memory: 2^PtPagesW pages
  parameter int unsigned FbEntriesW     = 4,        // fault ring: 2^FbEntriesW entries
  parameter int unsigned FramesW        = 6,        // data frames: 2^FramesW
  parameter int unsigned DataBasePpn    = 'h100,    // PPN of data frame 0 (PA 1 MB)
  parameter int unsigned NumIds         = 8,        // request ids per SM
  parameter int unsigned ReqDepthW      = 5         // request FIFO: 2^ReqDepthW
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       uart_rx_i,
  output logic       uart_tx_o,
  output logic [3:0] led_o  // {heartbeat, error, irq, busy}
);
  localparam int unsigned VpnW    = gmmu_pkg::VPN_W;
  localparam int unsigned PpnW    = gmmu_pkg::PPN_W;
  localparam int unsigned PaW     = gmmu_pkg::PA_W;
  localparam int unsigned RidW    = gmmu_pkg::REQ_ID_W;
  localparam int unsigned MidW    = gmmu_pkg::MEM_ID_W;
  localparam int unsigned CsrW    = gmmu_pkg::CSR_ADDR_W;
  localparam int unsigned PtWordsW = PtPagesW + 9;  // 64-bit words of the PT memory
  localparam int unsigned PtWords  = 2 ** PtWordsW;
  localparam int unsigned FbEntries = 2 ** FbEntriesW;
  localparam int unsigned ResW    = $clog2(NumSm * NumIds);
  localparam logic [31:0] BoardId = 32'h474d_4d42;  // "GMMB"
  localparam longint unsigned ClkHz  = longint'(ClkKhz) * 64'd1000;
  localparam longint unsigned BaudNz = (Baud == 0) ? 64'd1 : longint'(Baud);  // no division by 0
  localparam int unsigned     ClkDiv = int'((ClkHz + BaudNz / 64'd2) / BaudNz);
  localparam longint unsigned BitHz  = longint'(ClkDiv) * BaudNz;

  if (Baud == 0 || ClkDiv < 8) begin : g_bad_baud
    $fatal(1, "gmmu_board: Baud %0d at %0d kHz: not set (fpga/boards/links.toml) or < 8 cycles/bit",
           Baud, ClkKhz);
  end
  if ((BitHz > ClkHz ? BitHz - ClkHz : ClkHz - BitHz) * 64'd50 > ClkHz) begin : g_baud_off
    $fatal(1, "gmmu_board: Baud %0d at %0d kHz: %0d cycles per bit, more than 2 percent off",
           Baud, ClkKhz, ClkDiv);
  end

  // ---------------------------------------------------------------- UART and bridge
  logic        rx_valid, rx_ready, rx_overflow, tx_valid, tx_ready;
  logic [7:0]  rx_data, tx_data;
  logic        bus_req, bus_we, bus_ack;
  logic [29:0] bus_waddr;
  logic [31:0] bus_wdata, bus_rdata;

  gmmu_board_uart #(
    .ClkDiv (ClkDiv)
  ) u_uart (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .rx_i          (uart_rx_i),
    .tx_o          (uart_tx_o),
    .rx_valid_o    (rx_valid),
    .rx_data_o     (rx_data),
    .rx_ready_i    (rx_ready),
    .rx_overflow_o (rx_overflow),
    .tx_valid_i    (tx_valid),
    .tx_data_i     (tx_data),
    .tx_ready_o    (tx_ready)
  );

  gmmu_board_bridge #(
    .TimeoutCycles (TimeoutCycles)
  ) u_bridge (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .rx_valid_i  (rx_valid),
    .rx_data_i   (rx_data),
    .rx_ready_o  (rx_ready),
    .tx_valid_o  (tx_valid),
    .tx_data_o   (tx_data),
    .tx_ready_i  (tx_ready),
    .bus_req_o   (bus_req),
    .bus_we_o    (bus_we),
    .bus_waddr_o (bus_waddr),
    .bus_wdata_o (bus_wdata),
    .bus_ack_i   (bus_ack),
    .bus_rdata_i (bus_rdata)
  );

  // ---------------------------------------------------------------- GMMU
  logic [63:0]                      time_q;
  logic [NumSm*NumPorts-1:0]        req_valid, req_write, hit_valid;
  logic [NumSm*NumPorts*VpnW-1:0]   req_vpn;
  logic [NumSm*NumPorts*RidW-1:0]   req_id, hit_id;
  logic [NumSm*NumPorts*PpnW-1:0]   hit_ppn;
  logic [NumSm-1:0]                 req_ready, miss_valid, miss_fatal;
  logic [NumSm*RidW-1:0]            miss_id;
  logic [NumSm*PpnW-1:0]            miss_ppn;
  logic                             mem_req_valid, mem_req_ready, mem_req_write;
  logic [PaW-1:0]                   mem_req_addr;
  logic [63:0]                      mem_req_wdata;
  logic [MidW-1:0]                  mem_req_id;
  logic                             mem_rsp_valid_q;
  logic [MidW-1:0]                  mem_rsp_id_q;
  logic [63:0]                      mem_rsp_data;
  logic                             fb_wr_valid, fb_wr_ready;
  logic [PaW-1:0]                   fb_wr_addr;
  logic [255:0]                     fb_wr_data;
  logic                             csr_valid, csr_rvalid, irq, idle;
  logic [31:0]                      csr_rdata;
  logic [gmmu_pkg::EV_W-1:0]        unused_ev;
  // the board's page tables never set APER (docs/microarch.md §17): every translation is local
  logic [NumSm*NumPorts-1:0]        unused_hit_sys;
  logic [NumSm-1:0]                 unused_miss_sys;
  logic                             unused_setbits;  // ad_bits = 0 on the boards (§18.3)
  logic                             unused_acc_wr_valid;  // not served on the boards (§19.8)
  logic [gmmu_pkg::PA_W-1:0]        unused_acc_wr_addr;
  logic [255:0]                     unused_acc_wr_data;

  gmmu_top #(
    `include "gmmu_top_params_pass.svh"
  ) u_gmmu (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .time_i          (time_q),
    .req_valid_i     (req_valid),
    .req_vpn_i       (req_vpn),
    .req_write_i     (req_write),
    .req_id_i        (req_id),
    .req_asid_i      ('0),  // one address space on the board (docs/microarch.md §14)
    .req_line_i      ('0),  // line_bitmap = 0: unread (docs/microarch.md §20.1)
    .req_ready_o     (req_ready),
    .hit_valid_o     (hit_valid),
    .hit_id_o        (hit_id),
    .hit_ppn_o       (hit_ppn),
    .hit_sys_o       (unused_hit_sys),
    .miss_valid_o    (miss_valid),
    .miss_id_o       (miss_id),
    .miss_ppn_o      (miss_ppn),
    .miss_sys_o      (unused_miss_sys),
    .miss_fatal_o    (miss_fatal),
    .mem_req_valid_o (mem_req_valid),
    .mem_req_ready_i (mem_req_ready),
    .mem_req_addr_o  (mem_req_addr),
    .mem_req_id_o    (mem_req_id),
    .mem_req_write_o (mem_req_write),
    .mem_req_wdata_o (mem_req_wdata),
    .mem_req_setbits_o (unused_setbits),
    .mem_rsp_valid_i (mem_rsp_valid_q),
    .mem_rsp_id_i    (mem_rsp_id_q),
    .mem_rsp_data_i  (mem_rsp_data),
    .fb_wr_valid_o   (fb_wr_valid),
    .fb_wr_ready_i   (fb_wr_ready),
    .fb_wr_addr_o    (fb_wr_addr),
    .fb_wr_data_o    (fb_wr_data),
    // access counters (docs/microarch.md §19.8): the board does not serve the notification
    // port yet; a board build with acc_entries > 0 never completes a notification write
    .acc_wr_valid_o  (unused_acc_wr_valid),
    .acc_wr_ready_i  (1'b0),
    .acc_wr_addr_o   (unused_acc_wr_addr),
    .acc_wr_data_o   (unused_acc_wr_data),
    .csr_valid_i     (csr_valid),
    .csr_write_i     (bus_we),
    .csr_addr_i      ({bus_waddr[CsrW-3:0], 2'b00}),
    .csr_wdata_i     (bus_wdata),
    .csr_rvalid_o    (csr_rvalid),
    .csr_rdata_o     (csr_rdata),
    .irq_o           (irq),
    .idle_o          (idle),
    .ev_o            (unused_ev)
  );

  // ---------------------------------------------------------------- bus decode
  logic [31:0] bus_addr;
  logic        sel_reg, sel_csr, sel_ring, sel_tag, sel_pt, sel_none;
  assign bus_addr = {bus_waddr, 2'b00};
  assign sel_reg  = bus_req && bus_addr[31:8] == 24'h00_0000;
  assign sel_csr  = bus_req && bus_addr[31:16] == 16'h0001 && bus_addr[15:CsrW] == '0;
  assign sel_ring = bus_req && bus_addr[31:16] == 16'h0002 &&
                    32'(bus_addr[15:0]) < FbEntries * gmmu_pkg::FB_ENTRY_BYTES;
  assign sel_tag  = bus_req && bus_addr[31:16] == 16'h0004 &&
                    32'(bus_addr[15:0]) < (2 ** FramesW) * 8;
  assign sel_pt   = bus_req && bus_addr[31:20] == 12'h001 &&
                    32'(bus_addr[19:0]) < PtWords * 8;
  assign sel_none = bus_req && !(sel_reg || sel_csr || sel_ring || sel_tag || sel_pt);

  // ---------------------------------------------------------------- GMMU CSR port
  logic csr_pend_q;
  assign csr_valid = sel_csr && !csr_pend_q;

  // ---------------------------------------------------------------- PT memory
  logic [31:0]         pt_lo_mem [PtWords];
  logic [31:0]         pt_hi_mem [PtWords];
  logic [31:0]         pt_lo_rd_q, pt_hi_rd_q;
  logic [PtWordsW-1:0] pt_addr;
  logic                pt_re, pt_bus, pt_bus_hi_q, pt_oob_q, pt_oob;
  logic                pt_pend_q;
  // the GMMU's PTE writes (coalesce unit, docs/microarch.md §15.2) share the write port with the
  // bus: the bus has the memory only while mem_req_ready is 0
  logic                pt_gmmu_we, pt_we_lo, pt_we_hi;
  logic [31:0]         pt_wd_lo, pt_wd_hi;

  assign pt_bus        = sel_pt && !pt_pend_q;  // the bus takes the memory this cycle
  assign mem_req_ready = !pt_bus;
  assign pt_oob        = mem_req_addr >= PaW'(PtWords * 8);
  always_comb begin
    pt_addr = mem_req_addr[3 +: PtWordsW];
    pt_re   = mem_req_valid && mem_req_ready && !mem_req_write;
    if (pt_bus) begin
      pt_addr = bus_addr[3 +: PtWordsW];
      pt_re   = !bus_we;
    end
  end
  assign pt_gmmu_we = mem_req_valid && mem_req_ready && mem_req_write && !pt_oob;
  assign pt_we_lo   = (pt_bus && bus_we && !bus_addr[2]) || pt_gmmu_we;
  assign pt_we_hi   = (pt_bus && bus_we && bus_addr[2]) || pt_gmmu_we;
  assign pt_wd_lo   = pt_bus ? bus_wdata : mem_req_wdata[31:0];
  assign pt_wd_hi   = pt_bus ? bus_wdata : mem_req_wdata[63:32];
  always_ff @(posedge clk_i) begin
    if (pt_we_lo) begin
      pt_lo_mem[pt_addr] <= pt_wd_lo;
    end
    if (pt_we_hi) begin
      pt_hi_mem[pt_addr] <= pt_wd_hi;
    end
    if (pt_re) begin
      pt_lo_rd_q <= pt_lo_mem[pt_addr];
      pt_hi_rd_q <= pt_hi_mem[pt_addr];
    end
  end
  assign mem_rsp_data = pt_oob_q ? 64'd0 : {pt_hi_rd_q, pt_lo_rd_q};

  // ---------------------------------------------------------------- fault ring memory
  // one memory per 32-bit word of the 32-byte entries (LUT RAM): the GMMU writes an entry into
  // all eight at once, the host reads and writes single words
  logic [31:0]           ring_rd [8];
  logic [31:0]           ring_rd_q;
  logic                  ring_bus, ring_pend_q, fb_oob;
  logic [FbEntriesW-1:0] ring_fb_idx, ring_bus_idx;
  logic [2:0]            ring_bus_word;

  assign ring_bus      = sel_ring && !ring_pend_q;
  assign fb_wr_ready   = !ring_bus;
  assign fb_oob        = fb_wr_addr >= PaW'(FbEntries * gmmu_pkg::FB_ENTRY_BYTES);
  assign ring_fb_idx   = fb_wr_addr[5 +: FbEntriesW];
  assign ring_bus_idx  = bus_addr[5 +: FbEntriesW];
  assign ring_bus_word = bus_addr[4:2];

  for (genvar w = 0; w < 8; w++) begin : g_ring
    logic [31:0]           mem [FbEntries];
    logic                  we;
    logic [FbEntriesW-1:0] waddr;
    logic [31:0]           wdata;
    always_comb begin
      we    = 1'b0;
      waddr = ring_fb_idx;
      wdata = fb_wr_data[32*w +: 32];
      if (fb_wr_valid && fb_wr_ready && !fb_oob) begin
        we = 1'b1;
      end else if (ring_bus && bus_we && 32'(ring_bus_word) == w) begin
        we    = 1'b1;
        waddr = ring_bus_idx;
        wdata = bus_wdata;
      end
    end
    always_ff @(posedge clk_i) begin
      if (we) begin
        mem[waddr] <= wdata;
      end
    end
    assign ring_rd[w] = mem[ring_bus_idx];
  end

  always_ff @(posedge clk_i) begin
    if (ring_bus && !bus_we) begin
      ring_rd_q <= ring_rd[ring_bus_word];
    end
  end

  // ---------------------------------------------------------------- player and content tags
  logic                 push, tag_ack, res_pop, busy, err_sm, err_rsp;
  logic [31:0]          tag_rdata, res_word, issued, retired;
  logic [ReqDepthW:0]   req_free;
  logic [ResW:0]        res_count;
  logic                 req_half_q;
  logic [31:0]          req_lo_q;

  gmmu_board_player #(
    .NumSm       (NumSm),
    .NumPorts    (NumPorts),
    .NumIds      (NumIds),
    .ReqDepthW   (ReqDepthW),
    .FramesW     (FramesW),
    .DataBasePpn (DataBasePpn)
  ) u_player (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .push_i       (push),
    .push_sm_i    (bus_wdata[23:16]),
    .push_write_i (bus_wdata[31]),
    .push_vpn_i   ({bus_wdata[VpnW-33:0], req_lo_q}),
    .req_free_o   (req_free),
    .req_valid_o  (req_valid),
    .req_vpn_o    (req_vpn),
    .req_write_o  (req_write),
    .req_id_o     (req_id),
    .req_ready_i  (req_ready),
    .hit_valid_i  (hit_valid),
    .hit_id_i     (hit_id),
    .hit_ppn_i    (hit_ppn),
    .miss_valid_i (miss_valid),
    .miss_id_i    (miss_id),
    .miss_ppn_i   (miss_ppn),
    .miss_fatal_i (miss_fatal),
    .res_pop_i    (res_pop),
    .res_word_o   (res_word),
    .res_count_o  (res_count),
    .tag_req_i    (sel_tag),
    .tag_we_i     (bus_we),
    .tag_hi_i     (bus_addr[2]),
    .tag_frame_i  (bus_addr[3 +: FramesW]),
    .tag_wdata_i  (bus_wdata),
    .tag_ack_o    (tag_ack),
    .tag_rdata_o  (tag_rdata),
    .busy_o       (busy),
    .err_sm_o     (err_sm),
    .err_rsp_o    (err_rsp),
    .issued_o     (issued),
    .retired_o    (retired)
  );

  // ---------------------------------------------------------------- board registers
  localparam int unsigned ErrW = 7;
  logic [ErrW-1:0] err_q, err_set;
  logic [31:0]     reg_rdata, time_hi_q;
  logic [5:0]      reg_idx;
  logic            req_full_push;

  assign reg_idx       = bus_addr[7:2];
  assign push          = sel_reg && bus_we && reg_idx == 6'h0c && req_half_q;
  assign req_full_push = push && req_free == '0;
  assign res_pop       = sel_reg && !bus_we && reg_idx == 6'h0e;
  // sticky errors (ERR, write 1 to clear): rx overflow, request FIFO overflow, request for a
  // missing SM, response to no request, fault entry outside the ring, PTE read outside the PT
  // memory, bus access to no target
  assign err_set = {sel_none, mem_req_valid && mem_req_ready && pt_oob,
                    fb_wr_valid && fb_wr_ready && fb_oob, err_rsp, err_sm, req_full_push,
                    rx_overflow};

  always_comb begin
    unique case (reg_idx)
      6'h00: reg_rdata = BoardId;
      6'h01: reg_rdata = {8'(NumSm), 8'(NumPorts), 8'(NumIds), 8'(FbEntriesW)};
      6'h02: reg_rdata = {8'(FramesW), 8'(PtPagesW), 16'(DataBasePpn)};
      6'h03: reg_rdata = ClkKhz;
      6'h04: reg_rdata = {28'd0, err_q != '0, busy, idle, irq};
      6'h05: reg_rdata = 32'(err_q);
      6'h06: reg_rdata = 32'(req_free);
      6'h07: reg_rdata = 32'(res_count);
      6'h08: reg_rdata = time_q[31:0];
      6'h09: reg_rdata = time_hi_q;
      6'h0a: reg_rdata = issued;
      6'h0b: reg_rdata = retired;
      6'h0e: reg_rdata = res_word;
      default: reg_rdata = 32'd0;
    endcase
  end

  // ---------------------------------------------------------------- bus response
  always_comb begin
    bus_ack   = 1'b0;
    bus_rdata = 32'd0;
    if (sel_reg || sel_none) begin
      bus_ack   = 1'b1;
      bus_rdata = sel_reg ? reg_rdata : 32'hdead_beef;
    end else if (sel_csr) begin
      bus_ack   = csr_pend_q;
      bus_rdata = csr_rdata;
    end else if (sel_pt) begin
      bus_ack   = pt_pend_q || bus_we;
      bus_rdata = pt_bus_hi_q ? pt_hi_rd_q : pt_lo_rd_q;
    end else if (sel_ring) begin
      bus_ack   = ring_pend_q || bus_we;
      bus_rdata = ring_rd_q;
    end else if (sel_tag) begin
      bus_ack   = tag_ack;
      bus_rdata = tag_rdata;
    end
  end

  logic unused_bus;
  assign unused_bus = csr_rvalid;  // a CSR read's data is valid in the cycle after (csr_pend_q)

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      time_q          <= '0;
      time_hi_q       <= '0;
      csr_pend_q      <= 1'b0;
      pt_pend_q       <= 1'b0;
      pt_bus_hi_q     <= 1'b0;
      pt_oob_q        <= 1'b0;
      mem_rsp_valid_q <= 1'b0;
      mem_rsp_id_q    <= '0;
      ring_pend_q     <= 1'b0;
      req_half_q      <= 1'b0;
      req_lo_q        <= '0;
      err_q           <= '0;
    end else begin
      time_q          <= time_q + 64'd1;
      csr_pend_q      <= sel_csr && !csr_pend_q;
      pt_pend_q       <= pt_bus && !bus_we;
      if (pt_bus) begin
        pt_bus_hi_q <= bus_addr[2];
      end
      mem_rsp_valid_q <= mem_req_valid && mem_req_ready && !mem_req_write;  // no write response
      if (mem_req_valid && mem_req_ready) begin
        mem_rsp_id_q <= mem_req_id;
        pt_oob_q     <= pt_oob;
      end
      ring_pend_q     <= ring_bus && !bus_we;
      if (sel_reg && !bus_we && reg_idx == 6'h08) begin
        time_hi_q <= time_q[63:32];
      end
      if (sel_reg && bus_we && reg_idx == 6'h0c) begin
        req_half_q <= !req_half_q;
        if (!req_half_q) begin
          req_lo_q <= bus_wdata;
        end
      end
      err_q <= (err_q & ~((sel_reg && bus_we && reg_idx == 6'h05) ? bus_wdata[ErrW-1:0] : '0)) |
               err_set;
    end
  end

  assign led_o = {time_q[24], err_q != '0, irq, busy};
endmodule
