// Synthesis regression for the typed TLB storage (not part of gmmu_top; synthesized on its own by
// scripts/synth.py, which checks its flip-flop count). It holds the constructs the TLB arrays
// use: an unpacked array of packed structs written and read through member selects at a dynamic
// index (as gmmu_l1_req_table does), and gmmu_tlb_fa with packed-struct tag and data types whose
// members are selected outside the module. The old Yosys front end (read_verilog -sv) silently
// mis-read member selects on arrays of structs; a front end that does so again changes the
// count (every stored bit reaches an output, so none may be removed).
module gmmu_struct_check #(
  parameter int unsigned N = 4
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // array of packed structs
  input  logic                 we_i,
  input  logic [$clog2(N)-1:0] widx_i,
  input  logic [5:0]           wa_i,
  input  logic [2:0]           wb_i,
  input  logic [$clog2(N)-1:0] ridx_i,
  output logic [5:0]           ra_o,
  output logic [2:0]           rb_o,
  output logic                 rf_o,
  output logic                 match_o,
  // gmmu_tlb_fa with struct types
  input  logic [1:0]           lk_valid_i,
  input  logic [3:0]           lk_asid_i [2],
  input  logic [7:0]           lk_vpn_i [2],
  input  logic [1:0]           lk_write_i,
  output logic [1:0]           lk_hit_o,
  output logic [5:0]           lk_ppn_o [2],
  output logic [1:0]           lk_attr_o [2],
  output logic [1:0]           lk_w_o,
  output logic [1:0]           lk_idx_o [2],
  input  logic                 fill_i,
  input  logic [3:0]           fill_asid_i,
  input  logic [7:0]           fill_vpn_i,
  input  logic                 fill_w_i,
  input  logic [5:0]           fill_ppn_i,
  input  logic [1:0]           fill_attr_i,
  input  logic [1:0]           touch_i,
  input  logic                 flush_all_i,
  input  logic                 flush_page_i
);
  typedef struct packed {
    logic [5:0] a;
    logic       f;
    logic [2:0] b;
  } ent_t;

  ent_t ent_q [N];

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_regs
    if (!rst_ni) begin
      ent_q <= '{default: '0};
    end else if (we_i) begin
      ent_q[widx_i].a <= wa_i;
      ent_q[widx_i].b <= wb_i;
      ent_q[widx_i].f <= ^wa_i;
    end
  end

  assign ra_o = ent_q[ridx_i].a;
  assign rb_o = ent_q[ridx_i].b;
  assign rf_o = ent_q[ridx_i].f;
  always_comb begin : p_match
    match_o = 1'b0;
    for (int unsigned i = 0; i < N; i++) begin
      if (ent_q[i].f && ent_q[i].a == wa_i && ent_q[i].b != wb_i) match_o = 1'b1;
    end
  end

  typedef struct packed {
    logic [3:0] asid;
    logic [7:0] vpn;
  } tag_t;
  typedef struct packed {
    logic [5:0] ppn;
    logic [1:0] attr;
  } data_t;

  tag_t  [1:0] lk_tag;
  data_t [1:0] lk_data;
  logic  [1:0][1:0] lk_idx;
  tag_t        fill_tag;
  data_t       fill_data;

  for (genvar p = 0; p < 2; p++) begin : g_port
    assign lk_tag[p].asid = lk_asid_i[p];
    assign lk_tag[p].vpn  = lk_vpn_i[p];
    assign lk_ppn_o[p]    = lk_data[p].ppn;
    assign lk_attr_o[p]   = lk_data[p].attr;
    assign lk_idx_o[p]    = lk_idx[p];
  end
  assign fill_tag.asid  = fill_asid_i;
  assign fill_tag.vpn   = fill_vpn_i;
  assign fill_data.ppn  = fill_ppn_i;
  assign fill_data.attr = fill_attr_i;

  gmmu_tlb_fa #(
    .N         (4),
    .NumLookup (2),
    .tag_t     (tag_t),
    .data_t    (data_t)
  ) u_fa (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .lk_valid_i   (lk_valid_i),
    .lk_tag_i     (lk_tag),
    .lk_write_i   (lk_write_i),
    .lk_hit_o     (lk_hit_o),
    .lk_idx_o     (lk_idx),
    .lk_data_o    (lk_data),
    .lk_w_o       (lk_w_o),
    .fill_i       (fill_i),
    .fill_tag_i   (fill_tag),
    .fill_w_i     (fill_w_i),
    .fill_data_i  (fill_data),
    .touch_i      (touch_i),
    .flush_all_i  (flush_all_i),
    .flush_page_i (flush_page_i),
    .flush_tag_i  (fill_tag),
    .flush_mask_i ('1)
  );
endmodule
