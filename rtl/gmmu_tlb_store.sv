// Entry storage of a TLB array (docs/microarch.md §1.2 FA-3/FA-5, §1.3 SA-3/SA-5): N entries
// valid, tag, w, data; a fill writes one entry, then a flush invalidates on the filled (_d)
// values. Instance u_store of gmmu_tlb_fa and gmmu_tlb_sa, which add the lookup, the fill choice
// and the PLRU. C model: the valid/tag/w/data members of tlb_fa_t, tlb_fa_fill, tlb_fa_flush.
//
// The CAM part (valid_q, tag_q) is compared by every lookup port and by the page flush and
// stays in reset flip-flops, as w_q (FA-1 compares !write || w). The data payload is only read
// at looked-up entries: Payload = 1 (gmmu_tlb_fa) keeps it in data_q, a RAM with one write port
// (the fill) and NumRd asynchronous read ports (rd_idx_i -> rd_data_o), not reset (LUT RAM on an
// FPGA, docs/microarch.md §1.2 "payload LUT RAM": an entry's data is read only after its fill;
// all entries are 0 at power-up). Payload = 0 (gmmu_tlb_sa, the L2 base array): w and data are
// not stored here but in the owner's synchronous-read RAMs (gmmu_ram_1r1w, docs/microarch.md
// §1.3 "payload RAM"); w_o and rd_data_o are then 0.
module gmmu_tlb_store #(
  parameter int unsigned N      = 2,
  parameter type         tag_t  = logic,
  parameter type         data_t = logic,
  // tag bits that are stored: the others are 0 in every tag written (the ASID bits above
  // log2(NumAsids), docs/microarch.md §14.1), the register keeps tag_d & TagKeep and synthesis
  // removes the constant-0 flip-flops
  parameter tag_t         TagKeep = '1,
  // 1: w and data in flip-flops here; 0: not stored (the owner keeps them in RAM)
  parameter bit           Payload = 1'b1,
  parameter int unsigned  NumRd   = 1,     // read ports of the data RAM
  // tag bits of the per-entry page-flush compare (flush_page_i): '1 for a fully associative
  // array; gmmu_tlb_sa compares only the ASID bits per entry and the page of a set-local flush
  // itself (flush_sel_i, docs/microarch.md §1.3 "set-local page flush")
  parameter tag_t         FlushKeep = '1,
  localparam int unsigned IdxW  = (N > 1) ? $clog2(N) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // registered state (_q)
  output logic [N-1:0]    valid_o,
  output tag_t            tag_o [N],
  output logic [N-1:0]    w_o,
  // data RAM read ports (asynchronous): rd_data_o[r] = data of entry rd_idx_i[r] (_q)
  input  logic [IdxW-1:0] rd_idx_i [NumRd],
  output data_t           rd_data_o [NumRd],
  // fill (FA-3 / SA-3)
  input  logic            fill_i,
  input  logic [IdxW-1:0] fill_idx_i,
  input  tag_t            fill_tag_i,
  input  logic            fill_w_i,
  input  data_t           fill_data_i,
  // flush (FA-5 / SA-5), on the values after the fill
  input  logic            flush_all_i,
  input  logic            flush_page_i,   // selective flush: tag == flush_tag_i in flush_mask_i
  input  tag_t            flush_tag_i,
  input  tag_t            flush_mask_i,
  // entries invalidated besides (on the _d values, by the owner): the set-local page flush
  input  logic [N-1:0]    flush_sel_i
);
  logic [N-1:0] valid_q, valid_d;
  tag_t         tag_q [N];
  tag_t         tag_d [N];
  logic [N-1:0] w_q, w_d;
  data_t        data_q [N];  // Payload = 1: the data RAM (not reset), see g_payload

  assign valid_o = valid_q;
  assign tag_o   = tag_q;
  assign w_o     = w_q;

  // the page flush's compare on the _d tags, built as a compare of every _q tag plus one of the
  // fill's tag, which replaces the filled entry's (the same result as comparing tag_d, without a
  // tag multiplexer in front of every comparator)
  tag_t         flush_m;
  logic         flush_hit_fill;
  logic [N-1:0] flush_hit_d;
  assign flush_m        = flush_mask_i & TagKeep & FlushKeep;
  assign flush_hit_fill = (fill_tag_i & flush_m) == (flush_tag_i & flush_m);
  always_comb begin : p_flush_hit
    for (int unsigned i = 0; i < N; i++) begin
      flush_hit_d[i] = (fill_i && fill_idx_i == IdxW'(i)) ? flush_hit_fill :
                       ((tag_q[i] & flush_m) == (flush_tag_i & flush_m));
    end
  end

  always_comb begin : p_next_state
    valid_d = valid_q;
    tag_d   = tag_q;
    w_d     = w_q;
    if (fill_i) begin
      valid_d[fill_idx_i] = 1'b1;
      tag_d[fill_idx_i]   = fill_tag_i & TagKeep;
      w_d[fill_idx_i]     = fill_w_i;
    end
    for (int unsigned i = 0; i < N; i++) begin
      if (flush_all_i || flush_sel_i[i] || (flush_page_i && flush_hit_d[i])) begin
        valid_d[i] = 1'b0;
      end
    end
  end

  // the register's D input: the stored bits only (TagKeep)
  tag_t tag_k [N];
  always_comb begin : p_tag_keep
    for (int unsigned i = 0; i < N; i++) tag_k[i] = tag_d[i] & TagKeep;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      valid_q <= '0;
      tag_q   <= '{default: '0};
    end else begin
      valid_q <= valid_d;
      tag_q   <= tag_k;
    end
  end

  if (Payload) begin : g_payload
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_payload_regs
      if (!rst_ni) begin
        w_q <= '0;
      end else begin
        w_q <= w_d;
      end
    end
    // the data RAM: written by the fill (FA-3), not reset, read asynchronously
    always_ff @(posedge clk_i) begin : p_data_ram
      if (fill_i) data_q[fill_idx_i] <= fill_data_i;
    end
    for (genvar r = 0; r < NumRd; r++) begin : g_rd
      assign rd_data_o[r] = data_q[rd_idx_i[r]];
    end
  end else begin : g_no_payload
    assign w_q    = '0;
    assign data_q = '{default: '0};
    for (genvar r = 0; r < NumRd; r++) begin : g_rd
      assign rd_data_o[r] = '0;
    end
    logic unused_payload;
    assign unused_payload = ^w_d ^ ^fill_data_i ^ ^rd_idx_i[0] ^ ^data_q[0];
  end
endmodule
