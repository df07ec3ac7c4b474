// CSR block (docs/microarch.md §8, register map docs/gen/regmap.md): host registers, error
// reporting, the command register (one command cycle per accepted CMD write) and the interrupt.
// C model mirror: cmodel/csr.c.
module gmmu_csr #(
  parameter int unsigned NumSm      = 2,
  parameter int unsigned NumPorts   = 2,
  parameter int unsigned NumWalkers = 2,
  parameter int unsigned FfEntries  = 4,
  parameter int unsigned FfQuota    = 2,
  parameter int unsigned NumAsids   = 1,
  parameter int unsigned AccEntries = 0,  // access counters (§19.8): 0 = absent registers
  parameter int unsigned LineBitmap = 0,  // referenced-line bitmaps (§20): 0 = absent registers
  localparam int unsigned FbOffW    = $clog2(gmmu_pkg::FB_ENTRY_BYTES),
  localparam int unsigned FbAddrW   = gmmu_pkg::PA_W - FbOffW,
  localparam int unsigned FCntW     = $clog2(FfEntries + 1)
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  // host port
  input  logic                                csr_valid_i,
  input  logic                                csr_write_i,
  input  logic [gmmu_pkg::CSR_ADDR_W-1:0]     csr_addr_i,
  input  logic [31:0]                         csr_wdata_i,
  output logic                                csr_rvalid_o,
  output logic [31:0]                         csr_rdata_o,
  output logic                                irq_o,
  // ring state owned by gmmu_ff
  input  logic [gmmu_pkg::FB_IDX_W-1:0]       put_i,
  input  logic                                overflow_i,
  input  logic [FCntW-1:0]                    ff_count_i,
  // configuration
  output logic [gmmu_pkg::PPN_W-1:0]          pt_base_o [NumAsids],  // PT_BASE[47:12] per ASID
  output logic [FbAddrW-1:0]                  fb_base_o,   // FB_BASE[47:5]
  output logic [gmmu_pkg::FB_IDX_W:0]         fb_size_o,
  output logic [gmmu_pkg::FB_IDX_W-1:0]       get_o,
  output logic                                fb_size_wr_o,
  output logic                                ovf_clr_o,
  // command cycle (cmd_valid_q) and its decoded opcode
  output logic                                cmd_cycle_o,
  output logic [gmmu_pkg::VPN_W-1:0]          cmd_vpn_o,
  // the next values of cmd_cycle_o and cmd_vpn_o (cmd_valid_d, cmd_vpn_d): the L2 base array
  // reads the set of a page flush one cycle ahead (docs/microarch.md §1.3)
  output logic                                cmd_next_o,
  output logic [gmmu_pkg::VPN_W-1:0]          cmd_vpn_next_o,
  output logic [gmmu_pkg::ASID_W-1:0]         cmd_asid_o,   // §14.4, reduced to NumAsids
  output logic                                cmd_scope_o,
  output logic                                flush_all_o,
  output logic                                flush_page_o,
  output logic                                replay_page_o,
  output logic                                replay_all_o,
  output logic                                cancel_page_o,
  // coalesce unit (§15): start, status, splinter flush request
  output logic                                co_start_o,
  output logic                                co_splinter_o,
  input  logic                                co_busy_i,
  input  logic [1:0]                          co_err_i,
  input  logic                                co_flush_i,
  input  logic [gmmu_pkg::LVPN_W-1:0]         co_region_i,
  input  logic [gmmu_pkg::ASID_W-1:0]         co_asid_i,
  // fault mode (FAULT_CTRL.BLOCKING, §4.1)
  output logic                                blocking_o,
  // access counters (§19.2, §19.8; constant with AccEntries = 0)
  input  logic [gmmu_pkg::FB_IDX_W-1:0]       acc_put_i,
  input  logic                                acc_ovf_i,
  output logic                                acc_en_local_o,
  output logic                                acc_en_remote_o,
  output logic [1:0]                          acc_gran_o,
  output logic [gmmu_pkg::ACC_CNT_W-1:0]      acc_thresh_o,
  output logic [FbAddrW-1:0]                  acc_base_o,
  output logic [gmmu_pkg::FB_IDX_W:0]         acc_size_o,
  output logic [gmmu_pkg::FB_IDX_W-1:0]       acc_get_o,
  output logic                                acc_size_wr_o,
  output logic                                acc_ovf_clr_o,
  output logic                                acc_clear_all_o,  // ACC_CLEAR_ALL or a GRAN change
  output logic                                acc_clear_o,      // ACC_CLEAR (targeted)
  // referenced-line bitmaps (§20.5; constant 0 with LineBitmap = 0)
  output logic [gmmu_pkg::PA_W-4:0]           bmp_base_o,   // BMP_BASE[47:3]
  output logic [31:0]                         bmp_pages_o,
  output logic [31:0]                         bmp_vpn0_o,
  output logic                                bmp_flush_o,  // BMP_FLUSH in this command cycle
  // idle contribution
  output logic                                busy_o
);
  localparam int unsigned PaW    = gmmu_pkg::PA_W;
  localparam int unsigned VpnW   = gmmu_pkg::VPN_W;
  localparam int unsigned PgW    = gmmu_pkg::CSR_PT_BASE_LO_ADDR_LSB;  // = PAGE_SHIFT
  localparam int unsigned IdxW   = gmmu_pkg::FB_IDX_W;
  localparam int unsigned AddrW  = gmmu_pkg::CSR_ADDR_W;
  localparam int unsigned ErrW   = gmmu_pkg::ERR_BAD_OPCODE + 1;  // highest ERR_* bit + 1
  localparam int unsigned ErrIdxW = $clog2(ErrW);
  localparam int unsigned CmdW   = $clog2(gmmu_pkg::CMD_BMP_FLUSH + 1);
  localparam int unsigned ArgHiW = gmmu_pkg::CSR_CMD_ARG_HI_SCOPE_LSB + 1;  // VPN, ASID, SCOPE
  localparam int unsigned VpnHiW = gmmu_pkg::CSR_CMD_ARG_HI_VPN_W;
  localparam int unsigned AsidW  = gmmu_pkg::ASID_W;
  localparam int unsigned AIdxW  = (NumAsids > 1) ? $clog2(NumAsids) : 1;
  localparam logic [gmmu_pkg::ASID_W-1:0] AsidMask = gmmu_pkg::ASID_W'(NumAsids - 1);
  // stored bits of CMD_ARG_HI (§14.4): VPN[35:32], ASID & (NumAsids-1), SCOPE if NumAsids > 1;
  // the others read 0 (ASID_SEL likewise keeps ASID & (NumAsids-1)): one address space costs
  // no flip-flop, synthesis removes the constant-0 ones
  localparam logic [ArgHiW-1:0] ArgHiKeep = ArgHiW'(
      (32'(NumAsids > 1) << gmmu_pkg::CSR_CMD_ARG_HI_SCOPE_LSB) |
      (32'(AsidMask) << gmmu_pkg::CSR_CMD_ARG_HI_ASID_LSB) | ((32'(1) << VpnHiW) - 32'(1)));
  localparam int unsigned IeW    = gmmu_pkg::CSR_INT_ENABLE_ACC_OVF_LSB + 1;  // INT_ENABLE width
  // access counters (§19.8): with AccEntries = 0 their registers are absent (unmapped), the INT
  // bits 2/3 and the opcode bit 3 are kept 0 and the ACC_* flip-flops hold their reset value
  // (synthesis removes them)
  localparam bit          HasAcc  = AccEntries != 0;
  localparam logic [IeW-1:0]  IeKeep = HasAcc ? '1 : IeW'(3);
  // referenced-line bitmaps (§20.5): with LineBitmap = 0 BMP_* are absent and BMP_FLUSH is
  // BAD_OPCODE
  localparam bit          HasBmp  = LineBitmap != 0;
  // (opcodes 0..7 fit 3 bits; opcodes 8..10 need bit 3: kept only with a unit that has them)
  localparam logic [CmdW-1:0] OpKeep = (HasAcc || HasBmp) ? '1 : CmdW'(gmmu_pkg::CMD_SPLINTER);
  localparam int unsigned CondW   = gmmu_pkg::CSR_COND_W;
  localparam logic [CondW-1:0] CondTrue = (CondW'(HasAcc) << gmmu_pkg::CSR_COND_ACC_ENTRIES) |
                                          (CondW'(HasBmp) << gmmu_pkg::CSR_COND_LINE_BITMAP);
  localparam int unsigned CntW    = gmmu_pkg::ACC_CNT_W;
  localparam logic [CntW-1:0] ThreshReset = CntW'(256);

  // ---------------------------------------------------------------- state
  logic [PaW-PgW-1:0]   pt_base_q [NumAsids];    // PT_BASE[47:12] per ASID (PT_BASE[11:0] = 0)
  logic [PaW-PgW-1:0]   pt_base_d [NumAsids];
  logic [AsidW-1:0]     asid_sel_q, asid_sel_d;  // ASID_SEL: the PT_BASE entry of LO/HI
  logic [FbAddrW-1:0]   fb_base_q, fb_base_d;    // FB_BASE[47:5]  (FB_BASE[4:0] must be 0)
  logic [IdxW:0]        fb_size_q, fb_size_d;
  logic [IdxW-1:0]      get_q, get_d;
  logic [IeW-1:0]       ie_q, ie_d;
  logic [31:0]          arg_lo_q, arg_lo_d;
  logic [ArgHiW-1:0]    arg_hi_q, arg_hi_d;
  logic                 cmd_valid_q, cmd_valid_d;
  logic [CmdW-1:0]      cmd_op_q, cmd_op_d;
  logic [VpnW-1:0]      cmd_vpn_q, cmd_vpn_d;
  logic [AsidW-1:0]     cmd_asid_q, cmd_asid_d;
  logic                 cmd_scope_q, cmd_scope_d;
  logic [ErrW-1:0]      err_q, err_d;
  logic [AddrW-1:0]     err_addr_q, err_addr_d;
  logic                 rvalid_q, rvalid_d;
  logic [31:0]          rdata_q, rdata_d;
  logic                 blocking_q, blocking_d;  // FAULT_CTRL.BLOCKING
  logic [3:0]           acc_ctrl_q, acc_ctrl_d;      // ACC_CTRL: EN_LOCAL, EN_REMOTE, GRAN
  logic [CntW-1:0]      acc_thresh_q, acc_thresh_d;  // ACC_THRESH
  logic [FbAddrW-1:0]   acc_base_q, acc_base_d;      // ACC_BASE[47:5]
  logic [IdxW:0]        acc_size_q, acc_size_d;
  logic [IdxW-1:0]      acc_get_q, acc_get_d;
  logic                 acc_gran_wr;                 // an ACC_CTRL write that changes GRAN
  logic [PaW-4:0]       bmp_base_q, bmp_base_d;      // BMP_BASE[47:3] (§20.5, LineBitmap)
  logic [31:0]          bmp_pages_q, bmp_pages_d;    // BMP_PAGES
  logic [31:0]          bmp_vpn0_q, bmp_vpn0_d;      // BMP_VPN0

  assign pt_base_o     = pt_base_q;
  assign fb_base_o     = fb_base_q;
  assign fb_size_o     = fb_size_q;
  assign get_o         = get_q;
  assign cmd_cycle_o   = cmd_valid_q;
  assign cmd_vpn_o     = cmd_vpn_q;
  assign cmd_asid_o    = cmd_asid_q;
  assign cmd_scope_o   = cmd_scope_q;
  assign flush_all_o   = cmd_valid_q && cmd_op_q == CmdW'(gmmu_pkg::CMD_INVAL_ALL);
  assign flush_page_o  = cmd_valid_q && cmd_op_q == CmdW'(gmmu_pkg::CMD_INVAL_PAGE);
  assign replay_page_o = cmd_valid_q && cmd_op_q == CmdW'(gmmu_pkg::CMD_REPLAY_PAGE);
  assign replay_all_o  = cmd_valid_q && cmd_op_q == CmdW'(gmmu_pkg::CMD_REPLAY_ALL);
  assign cancel_page_o = cmd_valid_q && cmd_op_q == CmdW'(gmmu_pkg::CMD_CANCEL_PAGE);
  assign co_splinter_o = cmd_op_q == CmdW'(gmmu_pkg::CMD_SPLINTER);
  assign co_start_o    = cmd_valid_q && (cmd_op_q == CmdW'(gmmu_pkg::CMD_COALESCE) || co_splinter_o);
  assign blocking_o    = blocking_q;
  assign acc_en_local_o  = acc_ctrl_q[gmmu_pkg::CSR_ACC_CTRL_EN_LOCAL_LSB];
  assign acc_en_remote_o = acc_ctrl_q[gmmu_pkg::CSR_ACC_CTRL_EN_REMOTE_LSB];
  assign acc_gran_o      = acc_ctrl_q[gmmu_pkg::CSR_ACC_CTRL_GRAN_LSB +: 2];
  assign acc_thresh_o    = acc_thresh_q;
  assign acc_base_o      = acc_base_q;
  assign acc_size_o      = acc_size_q;
  assign acc_get_o       = acc_get_q;
  assign acc_clear_all_o = (cmd_valid_q && cmd_op_q == CmdW'(gmmu_pkg::CMD_ACC_CLEAR_ALL)) ||
                           acc_gran_wr;
  assign acc_clear_o     = cmd_valid_q && cmd_op_q == CmdW'(gmmu_pkg::CMD_ACC_CLEAR);
  assign bmp_base_o      = bmp_base_q;
  assign bmp_pages_o     = bmp_pages_q;
  assign bmp_vpn0_o      = bmp_vpn0_q;
  assign bmp_flush_o     = HasBmp && cmd_valid_q && cmd_op_q == CmdW'(gmmu_pkg::CMD_BMP_FLUSH);
  assign csr_rvalid_o  = rvalid_q;
  assign csr_rdata_o   = rdata_q;
  assign irq_o         = (ie_q[gmmu_pkg::BIT_INT_FAULT] && put_i != get_q) ||
                         (ie_q[gmmu_pkg::BIT_INT_OVERFLOW] && overflow_i) ||
                         (ie_q[gmmu_pkg::BIT_INT_ACC_NOTIFY] && acc_put_i != acc_get_q) ||
                         (ie_q[gmmu_pkg::BIT_INT_ACC_OVF] && acc_ovf_i);
  assign busy_o        = cmd_valid_q || rvalid_q;

  // the PT_BASE entry ASID_SEL selects (§14.2)
  logic [AIdxW-1:0] sel;
  assign sel = (NumAsids > 1) ? AIdxW'(asid_sel_q & AsidMask) : '0;

  // ---------------------------------------------------------------- read data (from _q)
  logic        rd_mapped;
  logic [31:0] rd_val;

  always_comb begin : p_read
    rd_mapped = 1'b1;
    rd_val    = '0;
    unique case (csr_addr_i)
      gmmu_pkg::CSR_ID:         rd_val = 32'(gmmu_pkg::CSR_ID_VALUE);
      gmmu_pkg::CSR_VERSION:    rd_val = 32'(gmmu_pkg::CSR_VERSION_VALUE);
      gmmu_pkg::CSR_PARAMS: begin
        rd_val[gmmu_pkg::CSR_PARAMS_NUM_SM_LSB +: gmmu_pkg::CSR_PARAMS_NUM_SM_W] =
          gmmu_pkg::CSR_PARAMS_NUM_SM_W'(NumSm);
        rd_val[gmmu_pkg::CSR_PARAMS_NUM_PORTS_LSB +: gmmu_pkg::CSR_PARAMS_NUM_PORTS_W] =
          gmmu_pkg::CSR_PARAMS_NUM_PORTS_W'(NumPorts);
        rd_val[gmmu_pkg::CSR_PARAMS_NUM_WALKERS_LSB +: gmmu_pkg::CSR_PARAMS_NUM_WALKERS_W] =
          gmmu_pkg::CSR_PARAMS_NUM_WALKERS_W'(NumWalkers);
        rd_val[gmmu_pkg::CSR_PARAMS_FF_QUOTA_LSB +: gmmu_pkg::CSR_PARAMS_FF_QUOTA_W] =
          gmmu_pkg::CSR_PARAMS_FF_QUOTA_W'(FfQuota);
      end
      gmmu_pkg::CSR_PT_BASE_LO: rd_val = {pt_base_q[sel][31-PgW:0], PgW'(0)};
      gmmu_pkg::CSR_PT_BASE_HI: rd_val = 32'(pt_base_q[sel][PaW-PgW-1:32-PgW]);
      gmmu_pkg::CSR_ASID_SEL:   rd_val = 32'(asid_sel_q);
      gmmu_pkg::CSR_FB_BASE_LO: rd_val = {fb_base_q[31-FbOffW:0], FbOffW'(0)};
      gmmu_pkg::CSR_FB_BASE_HI: rd_val = 32'(fb_base_q[FbAddrW-1:32-FbOffW]);
      gmmu_pkg::CSR_FB_SIZE:    rd_val = 32'(fb_size_q);
      gmmu_pkg::CSR_FB_GET:     rd_val = 32'(get_q);
      gmmu_pkg::CSR_FB_PUT:     rd_val = 32'(put_i);
      gmmu_pkg::CSR_FB_STATUS:  rd_val[gmmu_pkg::BIT_FB_STATUS_OVERFLOW] = overflow_i;
      gmmu_pkg::CSR_INT_ENABLE: rd_val = 32'(ie_q);
      gmmu_pkg::CSR_INT_STATUS: begin
        rd_val[gmmu_pkg::BIT_INT_FAULT]      = (put_i != get_q);
        rd_val[gmmu_pkg::BIT_INT_OVERFLOW]   = overflow_i;
        rd_val[gmmu_pkg::BIT_INT_ACC_NOTIFY] = (acc_put_i != acc_get_q);
        rd_val[gmmu_pkg::BIT_INT_ACC_OVF]    = acc_ovf_i;
      end
      gmmu_pkg::CSR_CMD_ARG_LO: rd_val = arg_lo_q;
      gmmu_pkg::CSR_CMD_ARG_HI: rd_val = 32'(arg_hi_q);
      gmmu_pkg::CSR_CMD:        rd_val = '0;
      gmmu_pkg::CSR_CMD_STATUS: begin
        rd_val[gmmu_pkg::BIT_CMD_STATUS_BUSY] = cmd_valid_q || co_busy_i;
        rd_val[gmmu_pkg::CSR_CMD_STATUS_CO_ERR_LSB +: 2] = co_err_i;
      end
      gmmu_pkg::CSR_ERR_STATUS: rd_val = 32'(err_q);
      gmmu_pkg::CSR_ERR_ADDR:   rd_val = 32'(err_addr_q);
      gmmu_pkg::CSR_FF_COUNT:   rd_val = 32'(ff_count_i);
      gmmu_pkg::CSR_FAULT_CTRL: rd_val[gmmu_pkg::CSR_FAULT_CTRL_BLOCKING_LSB] = blocking_q;
      // access counters (§19.2): absent with AccEntries = 0
      gmmu_pkg::CSR_ACC_CTRL:    begin rd_mapped = HasAcc; rd_val = 32'(acc_ctrl_q); end
      gmmu_pkg::CSR_ACC_THRESH:  begin rd_mapped = HasAcc; rd_val = 32'(acc_thresh_q); end
      gmmu_pkg::CSR_ACC_BASE_LO: begin
        rd_mapped = HasAcc;
        rd_val    = {acc_base_q[31-FbOffW:0], FbOffW'(0)};
      end
      gmmu_pkg::CSR_ACC_BASE_HI: begin
        rd_mapped = HasAcc;
        rd_val    = 32'(acc_base_q[FbAddrW-1:32-FbOffW]);
      end
      gmmu_pkg::CSR_ACC_SIZE:    begin rd_mapped = HasAcc; rd_val = 32'(acc_size_q); end
      gmmu_pkg::CSR_ACC_GET:     begin rd_mapped = HasAcc; rd_val = 32'(acc_get_q); end
      gmmu_pkg::CSR_ACC_PUT:     begin rd_mapped = HasAcc; rd_val = 32'(acc_put_i); end
      gmmu_pkg::CSR_ACC_STATUS:  begin
        rd_mapped = HasAcc;
        rd_val[gmmu_pkg::BIT_ACC_STATUS_OVERFLOW] = acc_ovf_i;
      end
      // referenced-line bitmaps (§20.5): absent with LineBitmap = 0
      gmmu_pkg::CSR_BMP_BASE_LO: begin rd_mapped = HasBmp; rd_val = {bmp_base_q[28:0], 3'b000}; end
      gmmu_pkg::CSR_BMP_BASE_HI: begin rd_mapped = HasBmp; rd_val = 32'(bmp_base_q[PaW-4:29]); end
      gmmu_pkg::CSR_BMP_PAGES:   begin rd_mapped = HasBmp; rd_val = bmp_pages_q; end
      gmmu_pkg::CSR_BMP_VPN0:    begin rd_mapped = HasBmp; rd_val = bmp_vpn0_q; end
      default:                  rd_mapped = 1'b0;
    endcase
    if (!rd_mapped) rd_val = '0;
  end

  // ---------------------------------------------------------------- write checks
  // csr_decode() is generated from spec/gmmu.rdl (the C model reads the same table): mapped,
  // read-only, must-be-zero bits, legality rule. The checks of a write, in this order: unmapped,
  // read-only, command busy (CMD only), must-be-zero bits, legality rule.
  gmmu_pkg::csr_dec_t dec;
  logic [31:0]        wd, wd_w, legal_ref_val;
  logic               legal_ok, present;
  assign dec = gmmu_pkg::csr_decode(csr_addr_i);
  // present_if (spec/gmmu.rdl): a register whose parameter is 0 is unmapped
  assign present = (dec.cond & CondTrue) == dec.cond;
  assign wd   = csr_wdata_i;
  assign wd_w = wd & dec.wmask;  // the writable bits of a legal write

  // A command write that executes (cmd_valid_d), with CMD's own constant decode: the L2 base
  // array's RAM read address takes it (cmd_next_o), so it must not wait for the generic
  // legality multiplexer and its compares (board bus -> CSR -> RAM address: 27 LUT levels
  // before, docs/fpga.md session 16). a_cmd_next checks it against cmd_valid_d.
  localparam gmmu_pkg::csr_dec_t CmdDec = gmmu_pkg::csr_decode(gmmu_pkg::CSR_CMD);
  // a CMD value's feature rule: ACC_CLEAR_ALL / ACC_CLEAR only with the access counters (§19.8),
  // BMP_FLUSH only with the bitmaps (§20.4); the generic check below and cmd_wr_ok use it
  logic cmd_op_ok;
  assign cmd_op_ok = (HasAcc || (wd != 32'(gmmu_pkg::CMD_ACC_CLEAR_ALL) &&
                                 wd != 32'(gmmu_pkg::CMD_ACC_CLEAR))) &&
                     (HasBmp || wd != 32'(gmmu_pkg::CMD_BMP_FLUSH));
  logic cmd_wr_ok;
  assign cmd_wr_ok = csr_valid_i && csr_write_i && csr_addr_i == gmmu_pkg::CSR_CMD &&
                     CmdDec.mapped && (CmdDec.cond & CondTrue) == CmdDec.cond && !CmdDec.ro &&
                     !(cmd_valid_q || co_busy_i) && (wd & CmdDec.mbz) == '0 &&
                     wd <= CmdDec.legal_max && cmd_op_ok;
  // cmd_valid_d and cmd_vpn_d where the L2's RAM read address needs them (a_cmd_next): the
  // executing command write or the splinter flush, without the generic write checks
  assign cmd_next_o     = cmd_wr_ok || co_flush_i;
  assign cmd_vpn_next_o = co_flush_i ? {co_region_i, gmmu_pkg::PT_IDX_W'(0)} :
                                       {arg_hi_q[VpnHiW-1:0], arg_lo_q};
  initial begin : p_cmd_dec_check
    if (CmdDec.legal != gmmu_pkg::CSR_LEGAL_LE) $fatal(1, "gmmu_csr: CMD's legality rule changed");
  end

  always_comb begin : p_legal_ref
    unique case (dec.legal_ref)
      gmmu_pkg::CSR_FB_SIZE: legal_ref_val = 32'(fb_size_q);
      gmmu_pkg::CSR_ACC_SIZE: legal_ref_val = 32'(acc_size_q);
      default:               legal_ref_val = '0;
    endcase
    unique case (dec.legal)
      gmmu_pkg::CSR_LEGAL_POW2_OR_ZERO_LE:
        legal_ok = (wd == '0) || (((wd & (wd - 1)) == '0) && wd <= dec.legal_max);
      // CMD: its feature rule (cmd_op_ok)
      gmmu_pkg::CSR_LEGAL_LE:     legal_ok = wd <= dec.legal_max &&
          (csr_addr_i != gmmu_pkg::CSR_CMD || cmd_op_ok);
      gmmu_pkg::CSR_LEGAL_NZ_LE:  legal_ok = wd != '0 && wd <= dec.legal_max;
      gmmu_pkg::CSR_LEGAL_LT_REF: legal_ok = wd < legal_ref_val;
      default:                    legal_ok = 1'b1;
    endcase
  end

  // ---------------------------------------------------------------- next state
  always_comb begin : p_next_state
    logic [ErrW-1:0] err_set;
    pt_base_d    = pt_base_q;
    asid_sel_d   = asid_sel_q;
    fb_base_d    = fb_base_q;
    fb_size_d    = fb_size_q;
    get_d        = get_q;
    ie_d         = ie_q;
    arg_lo_d     = arg_lo_q;
    arg_hi_d     = arg_hi_q;
    cmd_valid_d  = 1'b0;  // a command executes for one cycle
    cmd_op_d     = cmd_op_q;
    cmd_vpn_d    = cmd_vpn_q;
    cmd_asid_d   = cmd_asid_q;
    cmd_scope_d  = cmd_scope_q;
    err_d        = err_q;
    err_addr_d   = err_addr_q;
    rvalid_d     = 1'b0;
    rdata_d      = '0;
    blocking_d   = blocking_q;
    acc_ctrl_d   = acc_ctrl_q;
    acc_thresh_d = acc_thresh_q;
    acc_base_d   = acc_base_q;
    acc_size_d   = acc_size_q;
    acc_get_d    = acc_get_q;
    bmp_base_d   = bmp_base_q;
    bmp_pages_d  = bmp_pages_q;
    bmp_vpn0_d   = bmp_vpn0_q;
    acc_size_wr_o = 1'b0;
    acc_ovf_clr_o = 1'b0;
    acc_gran_wr   = 1'b0;
    fb_size_wr_o = 1'b0;
    ovf_clr_o    = 1'b0;
    err_set      = '0;

    if (csr_valid_i && !csr_write_i) begin
      rvalid_d = 1'b1;
      rdata_d  = rd_val;
      if (!rd_mapped) err_set[gmmu_pkg::ERR_BAD_ADDR] = 1'b1;
    end

    if (csr_valid_i && csr_write_i) begin
      if (!dec.mapped || !present) begin
        err_set[gmmu_pkg::ERR_BAD_ADDR] = 1'b1;
      end else if (dec.ro) begin
        err_set[gmmu_pkg::ERR_RO_WRITE] = 1'b1;
      end else if (csr_addr_i == gmmu_pkg::CSR_CMD && (cmd_valid_q || co_busy_i)) begin
        err_set[gmmu_pkg::ERR_CMD_BUSY] = 1'b1;
      end else if ((wd & dec.mbz) != '0) begin
        err_set[gmmu_pkg::ERR_BAD_VALUE] = 1'b1;
      end else if (!legal_ok) begin
        err_set[dec.legal_err[ErrIdxW-1:0]] = 1'b1;
      end else begin
        unique case (csr_addr_i)
          gmmu_pkg::CSR_PT_BASE_LO: pt_base_d[sel][31-PgW:0] = wd_w[31:PgW];
          gmmu_pkg::CSR_PT_BASE_HI: pt_base_d[sel][PaW-PgW-1:32-PgW] = wd_w[PaW-33:0];
          gmmu_pkg::CSR_ASID_SEL:   asid_sel_d = wd_w[AsidW-1:0];
          gmmu_pkg::CSR_FB_BASE_LO: fb_base_d[31-FbOffW:0] = wd_w[31:FbOffW];
          gmmu_pkg::CSR_FB_BASE_HI: fb_base_d[FbAddrW-1:32-FbOffW] = wd_w[PaW-33:0];
          gmmu_pkg::CSR_FB_SIZE: begin
            fb_size_d    = wd_w[IdxW:0];
            get_d        = '0;
            fb_size_wr_o = 1'b1;
          end
          gmmu_pkg::CSR_FB_GET:     get_d = wd_w[IdxW-1:0];
          gmmu_pkg::CSR_FB_STATUS:  ovf_clr_o = wd_w[gmmu_pkg::BIT_FB_STATUS_OVERFLOW];
          gmmu_pkg::CSR_INT_ENABLE: ie_d = wd_w[IeW-1:0];
          gmmu_pkg::CSR_CMD_ARG_LO: arg_lo_d = wd_w;
          gmmu_pkg::CSR_CMD_ARG_HI: arg_hi_d = wd_w[ArgHiW-1:0];
          gmmu_pkg::CSR_CMD: begin
            cmd_valid_d = 1'b1;
            cmd_op_d    = wd_w[CmdW-1:0];
            cmd_vpn_d   = {arg_hi_q[VpnHiW-1:0], arg_lo_q};
            cmd_asid_d  = arg_hi_q[gmmu_pkg::CSR_CMD_ARG_HI_ASID_LSB +: AsidW] & AsidMask;
            cmd_scope_d = arg_hi_q[gmmu_pkg::CSR_CMD_ARG_HI_SCOPE_LSB];
          end
          gmmu_pkg::CSR_ERR_STATUS: err_d = err_q & ~wd_w[ErrW-1:0];
          gmmu_pkg::CSR_FAULT_CTRL: blocking_d = wd_w[gmmu_pkg::CSR_FAULT_CTRL_BLOCKING_LSB];
          gmmu_pkg::CSR_ACC_CTRL: begin
            acc_ctrl_d  = wd_w[3:0];
            acc_gran_wr = wd_w[gmmu_pkg::CSR_ACC_CTRL_GRAN_LSB +: 2] !=
                          acc_ctrl_q[gmmu_pkg::CSR_ACC_CTRL_GRAN_LSB +: 2];
          end
          gmmu_pkg::CSR_ACC_THRESH:  acc_thresh_d = wd_w[CntW-1:0];
          gmmu_pkg::CSR_ACC_BASE_LO: acc_base_d[31-FbOffW:0] = wd_w[31:FbOffW];
          gmmu_pkg::CSR_ACC_BASE_HI: acc_base_d[FbAddrW-1:32-FbOffW] = wd_w[PaW-33:0];
          gmmu_pkg::CSR_ACC_SIZE: begin
            acc_size_d    = wd_w[IdxW:0];
            acc_get_d     = '0;
            acc_size_wr_o = 1'b1;
          end
          gmmu_pkg::CSR_ACC_GET:     acc_get_d = wd_w[IdxW-1:0];
          gmmu_pkg::CSR_ACC_STATUS:  acc_ovf_clr_o = wd_w[gmmu_pkg::BIT_ACC_STATUS_OVERFLOW];
          gmmu_pkg::CSR_BMP_BASE_LO: bmp_base_d[28:0] = wd_w[31:3];
          gmmu_pkg::CSR_BMP_BASE_HI: bmp_base_d[PaW-4:29] = wd_w[PaW-33:0];
          gmmu_pkg::CSR_BMP_PAGES:   bmp_pages_d = wd_w;
          gmmu_pkg::CSR_BMP_VPN0:    bmp_vpn0_d = wd_w;
          default: ;  // read-only or unmapped: handled above
        endcase
      end
    end

    if (err_set != '0) begin
      err_d      = err_d | err_set;
      err_addr_d = csr_addr_i;
    end

    // splinter flush (§15.4): an INVAL_PAGE of the region; no host CMD is accepted meanwhile
    if (co_flush_i) begin
      cmd_valid_d = 1'b1;
      cmd_op_d    = CmdW'(gmmu_pkg::CMD_INVAL_PAGE);
      cmd_vpn_d   = {co_region_i, gmmu_pkg::PT_IDX_W'(0)};
      cmd_asid_d  = co_asid_i & AsidMask;
      cmd_scope_d = 1'b1;
    end
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      pt_base_q   <= '{default: '0};
      asid_sel_q  <= '0;
      cmd_asid_q  <= '0;
      cmd_scope_q <= 1'b0;
      fb_base_q   <= '0;
      fb_size_q   <= '0;
      get_q       <= '0;
      ie_q        <= '0;
      arg_lo_q    <= '0;
      arg_hi_q    <= '0;
      cmd_valid_q <= 1'b0;
      cmd_op_q    <= '0;
      cmd_vpn_q   <= '0;
      err_q       <= '0;
      err_addr_q  <= '0;
      rvalid_q    <= 1'b0;
      rdata_q     <= '0;
      blocking_q  <= 1'b0;
      acc_ctrl_q   <= '0;
      acc_thresh_q <= ThreshReset;
      acc_base_q   <= '0;
      acc_size_q   <= '0;
      acc_get_q    <= '0;
    end else begin
      pt_base_q   <= pt_base_d;
      asid_sel_q  <= asid_sel_d & AsidMask;
      cmd_asid_q  <= cmd_asid_d;
      cmd_scope_q <= cmd_scope_d && (NumAsids > 1);
      fb_base_q   <= fb_base_d;
      fb_size_q   <= fb_size_d;
      get_q       <= get_d;
      ie_q        <= ie_d & IeKeep;
      arg_lo_q    <= arg_lo_d;
      arg_hi_q    <= arg_hi_d & ArgHiKeep;
      cmd_valid_q <= cmd_valid_d;
      cmd_op_q    <= cmd_op_d & OpKeep;
      cmd_vpn_q   <= cmd_vpn_d;
      err_q       <= err_d;
      err_addr_q  <= err_addr_d;
      rvalid_q    <= rvalid_d;
      rdata_q     <= rdata_d;
      blocking_q  <= blocking_d;
      acc_ctrl_q   <= HasAcc ? acc_ctrl_d : '0;
      acc_thresh_q <= HasAcc ? acc_thresh_d : ThreshReset;
      acc_base_q   <= HasAcc ? acc_base_d : '0;
      acc_size_q   <= HasAcc ? acc_size_d : '0;
      acc_get_q    <= HasAcc ? acc_get_d : '0;
    end
  end

  // the bitmap table registers (§20.5) exist only with LineBitmap (no flip-flop, also for the
  // Yosys prep of the formal elaboration, without it)
  if (HasBmp) begin : g_bmp_regs
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_bmp_regs
      if (!rst_ni) begin
        bmp_base_q  <= '0;
        bmp_pages_q <= '0;
        bmp_vpn0_q  <= '0;
      end else begin
        bmp_base_q  <= bmp_base_d;
        bmp_pages_q <= bmp_pages_d;
        bmp_vpn0_q  <= bmp_vpn0_d;
      end
    end
  end else begin : g_no_bmp_regs
    assign bmp_base_q  = '0;
    assign bmp_pages_q = '0;
    assign bmp_vpn0_q  = '0;
    logic unused_bmp_d;
    assign unused_bmp_d = ^{bmp_base_d, bmp_pages_d, bmp_vpn0_d};
  end
`ifndef SYNTHESIS
  // the RAM read address's command write is the one the next state executes
  a_cmd_next: assert property (@(posedge clk_i) disable iff (!rst_ni) cmd_next_o == cmd_valid_d);
  a_cmd_vpn_next: assert property (@(posedge clk_i) disable iff (!rst_ni)
    cmd_next_o |-> cmd_vpn_next_o == cmd_vpn_d);
`endif
endmodule
