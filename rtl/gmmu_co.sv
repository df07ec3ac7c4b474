// Coalesce unit (docs/microarch.md §15.3): executes COALESCE / SPLINTER on a 2 MB region through
// the walkers' memory request register (one request at a time: reads wait for their response).
// C model mirror: cmodel/co.c.
module gmmu_co #(
  parameter int unsigned NumAsids = 1
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  // start (command cycle of COALESCE / SPLINTER)
  input  logic                              start_i,
  input  logic                              splinter_i,
  input  logic [gmmu_pkg::VPN_W-1:0]        cmd_vpn_i,
  input  logic [gmmu_pkg::ASID_W-1:0]       cmd_asid_i,
  input  logic [gmmu_pkg::PPN_W-1:0]        pt_base_i [NumAsids],
  // memory request (to gmmu_ptw's request register) and response
  output logic                              req_valid_o,
  output logic [gmmu_pkg::PA_W-4:0]         req_addr_o,   // PA[47:3]
  output logic                              req_write_o,
  input  logic                              taken_i,
  input  logic                              rsp_valid_i,  // mem_rsp with CO_MEM_ID
  input  logic [63:0]                       rsp_data_i,
  output logic [63:0]                       wdata_o,      // co_dat_q -> mem_req_wdata_o
  // splinter flush (§15.4) and status (§15.1)
  output logic                              flush_o,
  output logic [gmmu_pkg::LVPN_W-1:0]       region_o,
  output logic [gmmu_pkg::ASID_W-1:0]       asid_o,
  output logic                              busy_o,
  output logic [1:0]                        err_o,
  output logic                              ev_done_o
);
  localparam int unsigned PpnW   = gmmu_pkg::PPN_W;
  localparam int unsigned IdxW   = gmmu_pkg::PT_IDX_W;
  localparam int unsigned RegW   = gmmu_pkg::LVPN_W;
  localparam int unsigned AsidW  = gmmu_pkg::ASID_W;
  localparam int unsigned AIdxW  = (NumAsids > 1) ? $clog2(NumAsids) : 1;
  localparam int unsigned PpnLsb = gmmu_pkg::PTE_PPN_LSB;
  localparam int unsigned PpnMsb = gmmu_pkg::PTE_PPN_MSB;
  localparam logic [AsidW-1:0] AsidMask = AsidW'(NumAsids - 1);
  localparam logic [IdxW-1:0]  LastIdx  = '1;

  typedef enum logic [2:0] {
    CoIdle  = 3'd0,
    CoPath  = 3'd1,
    CoCheck = 3'd2,
    CoErd   = 3'd3,
    CoEwr   = 3'd4,
    CoLrd   = 3'd5,
    CoLwr   = 3'd6,
    CoFlush = 3'd7
  } co_state_e;

  co_state_e        co_state_q, co_state_d;
  logic             co_op_q, co_op_d;  // 0 coalesce, 1 splinter
  logic [AsidW-1:0] co_asid_q, co_asid_d;
  logic [RegW-1:0]  co_region_q, co_region_d;
  logic [1:0]       co_lvl_q, co_lvl_d;
  logic [IdxW-1:0]  co_idx_q, co_idx_d;
  logic [PpnW-1:0]  co_tbl_q, co_tbl_d;
  logic [PpnW-1:0]  co_l4_q, co_l4_d;
  logic [63:0]      co_dat_q, co_dat_d;
  logic [RegW-1:0]  co_lppn_q, co_lppn_d;
  logic             co_w0_q, co_w0_d;
  logic             co_a0_q, co_a0_d;  // APER of entry 0 (§17: one aperture per region)
  logic             co_pend_q, co_pend_d;
  logic [1:0]       co_err_q, co_err_d;

  // ---------------------------------------------------------------- request (from _q)
  logic             rd_state;
  logic [IdxW-1:0]  path_idx;
  logic [RegW+IdxW-1:0] rvpn;

  assign rvpn     = {co_region_q, IdxW'(0)};
  // the table index of level co_lvl_q: a multiplexer of the constant slices (a shift by
  // IdxW * (PT_LEVELS - 1 - level) made synth_ecp5 infer a MULT18X18D for the shift amount)
  always_comb begin : p_path_idx
    path_idx = '0;
    for (int unsigned k = 0; k < gmmu_pkg::PT_LEVELS; k++) begin
      if (co_lvl_q == 2'(k)) path_idx = rvpn[IdxW*(gmmu_pkg::PT_LEVELS-1-k)+:IdxW];
    end
  end
  assign rd_state = co_state_q inside {CoPath, CoCheck, CoErd, CoLrd};

  always_comb begin : p_mem_req
    req_valid_o = 1'b0;
    req_write_o = 1'b0;
    req_addr_o  = '0;
    unique case (co_state_q)
      CoPath: begin
        req_valid_o = !co_pend_q;
        req_addr_o  = {co_tbl_q, path_idx};
      end
      CoCheck, CoErd: begin
        req_valid_o = !co_pend_q;
        req_addr_o  = {co_l4_q, co_idx_q};
      end
      CoEwr: begin
        req_valid_o = 1'b1;
        req_write_o = 1'b1;
        req_addr_o  = {co_l4_q, co_idx_q};
      end
      CoLrd: begin
        req_valid_o = !co_pend_q;
        req_addr_o  = {co_tbl_q, co_region_q[IdxW-1:0]};
      end
      CoLwr: begin
        req_valid_o = 1'b1;
        req_write_o = 1'b1;
        req_addr_o  = {co_tbl_q, co_region_q[IdxW-1:0]};
      end
      default: ;
    endcase
  end

  assign wdata_o  = co_dat_q;
  assign flush_o  = co_state_q == CoFlush;
  assign region_o = co_region_q;
  assign asid_o   = co_asid_q;
  assign busy_o   = co_state_q != CoIdle;
  assign err_o    = co_err_q;

  // ---------------------------------------------------------------- response decode
  logic [PpnW-1:0] ppn;
  logic            pv, pw, pa, rsp_ok;
  assign ppn    = rsp_data_i[PpnMsb:PpnLsb];
  assign pv     = rsp_data_i[gmmu_pkg::PTE_V];
  assign pw     = rsp_data_i[gmmu_pkg::PTE_W];
  assign pa     = rsp_data_i[gmmu_pkg::PTE_APER];
  assign rsp_ok = rsp_valid_i && rd_state && co_pend_q;

  // ---------------------------------------------------------------- next state (§15.3, in order)
  always_comb begin : p_next_state
    co_state_d  = co_state_q;
    co_op_d     = co_op_q;
    co_asid_d   = co_asid_q;
    co_region_d = co_region_q;
    co_lvl_d    = co_lvl_q;
    co_idx_d    = co_idx_q;
    co_tbl_d    = co_tbl_q;
    co_l4_d     = co_l4_q;
    co_dat_d    = co_dat_q;
    co_lppn_d   = co_lppn_q;
    co_w0_d     = co_w0_q;
    co_a0_d     = co_a0_q;
    co_pend_d   = co_pend_q;
    co_err_d    = co_err_q;
    ev_done_o   = 1'b0;

    // 1. taken
    if (taken_i) begin
      if (rd_state) begin
        co_pend_d = 1'b1;
      end else if (co_state_q == CoEwr) begin
        if (co_idx_q == LastIdx) begin
          if (!co_op_q) begin
            co_state_d = CoLrd;
          end else begin
            co_state_d = CoIdle;
            co_err_d   = 2'(gmmu_pkg::CO_OK);
            ev_done_o  = 1'b1;
          end
        end else begin
          co_idx_d   = co_idx_q + 1'b1;
          co_state_d = CoErd;
        end
      end else if (!co_op_q) begin  // CoLwr
        co_state_d = CoIdle;
        co_err_d   = 2'(gmmu_pkg::CO_OK);
        ev_done_o  = 1'b1;
      end else begin
        co_state_d = CoFlush;
      end
    end
    // 2. response
    if (rsp_ok) begin
      co_pend_d = 1'b0;
      unique case (co_state_q)
        CoPath: begin
          if (!pv) begin
            co_state_d = CoIdle;
            co_err_d   = 2'(gmmu_pkg::CO_NOT_MAPPED);
            ev_done_o  = 1'b1;
          end else if (co_lvl_q < 2'd2) begin
            co_tbl_d = ppn;
            co_lvl_d = co_lvl_q + 1'b1;
          end else begin
            co_l4_d    = ppn;
            co_idx_d   = '0;
            co_state_d = co_op_q ? CoLrd : CoCheck;
          end
        end
        CoCheck: begin
          if (!pv) begin
            co_state_d = CoIdle;
            co_err_d   = 2'(gmmu_pkg::CO_NOT_MAPPED);
            ev_done_o  = 1'b1;
          end else begin
            if (co_idx_q == '0) begin
              co_lppn_d = ppn[PpnW-1:IdxW];
              co_w0_d   = pw;
              co_a0_d   = pa;
            end
            if ((co_idx_q == '0 && ppn[IdxW-1:0] != '0) ||
                (co_idx_q != '0 && (ppn != {co_lppn_q, co_idx_q} || pw != co_w0_q ||
                                     pa != co_a0_q))) begin
              co_state_d = CoIdle;
              co_err_d   = 2'(gmmu_pkg::CO_NOT_CONTIG);
              ev_done_o  = 1'b1;
            end else if (co_idx_q == LastIdx) begin
              co_idx_d   = '0;
              co_state_d = CoErd;
            end else begin
              co_idx_d = co_idx_q + 1'b1;
            end
          end
        end
        CoErd: begin
          co_dat_d                    = rsp_data_i;
          co_dat_d[gmmu_pkg::PTE_D]   = !co_op_q;
          co_state_d                  = CoEwr;
        end
        default: begin  // CoLrd
          co_dat_d                    = rsp_data_i;
          co_dat_d[gmmu_pkg::PTE_L]   = !co_op_q;
          co_state_d                  = CoLwr;
        end
      endcase
    end
    // 3. flush
    if (co_state_q == CoFlush) begin
      co_idx_d   = '0;
      co_state_d = CoErd;
    end
    // 4. start
    if (start_i) begin
      co_state_d  = CoPath;
      co_op_d     = splinter_i;
      co_asid_d   = cmd_asid_i & AsidMask;
      co_region_d = cmd_vpn_i[gmmu_pkg::VPN_W-1:IdxW];
      co_lvl_d    = '0;
      co_pend_d   = 1'b0;
      co_tbl_d    = pt_base_i[(NumAsids > 1) ? AIdxW'(cmd_asid_i & AsidMask) : '0];
      co_err_d    = 2'(gmmu_pkg::CO_OK);
    end
  end

  // only the region of the command vpn matters
  logic unused_vpn;
  assign unused_vpn = ^cmd_vpn_i[IdxW-1:0];

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      co_state_q  <= CoIdle;
      co_op_q     <= 1'b0;
      co_asid_q   <= '0;
      co_region_q <= '0;
      co_lvl_q    <= '0;
      co_idx_q    <= '0;
      co_tbl_q    <= '0;
      co_l4_q     <= '0;
      co_dat_q    <= '0;
      co_lppn_q   <= '0;
      co_w0_q     <= 1'b0;
      co_a0_q     <= 1'b0;
      co_pend_q   <= 1'b0;
      co_err_q    <= '0;
    end else begin
      co_state_q  <= co_state_d;
      co_op_q     <= co_op_d;
      co_asid_q   <= co_asid_d & AsidMask;
      co_region_q <= co_region_d;
      co_lvl_q    <= co_lvl_d;
      co_idx_q    <= co_idx_d;
      co_tbl_q    <= co_tbl_d;
      co_l4_q     <= co_l4_d;
      co_dat_q    <= co_dat_d;
      co_lppn_q   <= co_lppn_d;
      co_w0_q     <= co_w0_d;
      co_a0_q     <= co_a0_d;
      co_pend_q   <= co_pend_d;
      co_err_q    <= co_err_d;
    end
  end

`ifndef SYNTHESIS
  // a response with CO_MEM_ID only while a read is awaited (§15.2)
  a_co_rsp_awaited: assert property (@(posedge clk_i) disable iff (!rst_ni)
    rsp_valid_i |-> rsp_ok);
`endif
endmodule
