// Formal harness of the whole gmmu_top (tiny parameters = the defaults of gmmu_top) for a
// bounded proof: every block's bound properties (formal/*_bind.sv, compiled with FV_TOP so that
// the environment assumptions of the block proofs become assertions: assume-guarantee) plus
// the memory protocol. Free inputs: time, all SM requests (any VPN, write, id), the CSR port
// (any access sequence), memory ready/response data, fault-buffer ready.
// Assumptions: reset in the first cycle; memory protocol (a response only for a transferred
// read without a response yet, by id); host id protocol (gmmu_l1_req_props).
module fv_top (
  input logic        clk_i,
  input logic        rst_ni,
  input logic [63:0] time_i,
  input logic [3:0]  req_valid_i,
  input logic [4*gmmu_pkg::VPN_W-1:0] req_vpn_i,
  input logic [3:0]  req_write_i,
  input logic [4*gmmu_pkg::REQ_ID_W-1:0] req_id_i,
  input logic        mem_req_ready_i,
  input logic        mem_rsp_valid_i,
  input logic [gmmu_pkg::MEM_ID_W-1:0] mem_rsp_id_i,
  input logic [63:0] mem_rsp_data_i,
  input logic        fb_wr_ready_i,
  input logic        csr_valid_i,
  input logic        csr_write_i,
  input logic [gmmu_pkg::CSR_ADDR_W-1:0] csr_addr_i,
  input logic [31:0] csr_wdata_i
);
  localparam int unsigned Wk = 2;
  logic init = 1'b1;
  always_ff @(posedge clk_i) init <= 1'b0;
  always_comb assume (rst_ni == !init);

  logic [1:0] req_ready, miss_valid, miss_fatal;
  logic [3:0] hit_valid;
  logic [4*gmmu_pkg::REQ_ID_W-1:0] hit_id;
  logic [4*gmmu_pkg::PPN_W-1:0] hit_ppn;
  logic [2*gmmu_pkg::REQ_ID_W-1:0] miss_id;
  logic [2*gmmu_pkg::PPN_W-1:0] miss_ppn;
  logic mem_req_valid, fb_wr_valid, csr_rvalid, irq, idle;
  logic [gmmu_pkg::PA_W-1:0] mem_req_addr, fb_wr_addr;
  logic [gmmu_pkg::MEM_ID_W-1:0] mem_req_id;
  logic [255:0] fb_wr_data;
  logic [31:0] csr_rdata;
  logic [gmmu_pkg::EV_W-1:0] ev;

  gmmu_top u_top (
    .clk_i, .rst_ni, .time_i, .req_valid_i, .req_vpn_i, .req_write_i, .req_id_i,
    .req_asid_i ('0),  // one address space (NumAsids = 1, docs/microarch.md §14.8)
    .req_line_i ('0),  // line_bitmap = 0: unread (docs/microarch.md §20.1)
    .req_ready_o (req_ready), .hit_valid_o (hit_valid), .hit_id_o (hit_id),
    .hit_ppn_o (hit_ppn), .miss_valid_o (miss_valid), .miss_id_o (miss_id),
    .miss_ppn_o (miss_ppn), .miss_fatal_o (miss_fatal), .mem_req_valid_o (mem_req_valid),
    .hit_sys_o (), .miss_sys_o (),  // the aperture (§17): proved in formal/fv_l1.sv
    .mem_req_ready_i, .mem_req_addr_o (mem_req_addr), .mem_req_id_o (mem_req_id),
    .mem_rsp_valid_i, .mem_rsp_id_i, .mem_rsp_data_i, .fb_wr_valid_o (fb_wr_valid),
    .fb_wr_ready_i, .fb_wr_addr_o (fb_wr_addr), .fb_wr_data_o (fb_wr_data), .csr_valid_i,
    .csr_write_i, .csr_addr_i, .csr_wdata_i, .csr_rvalid_o (csr_rvalid),
    .csr_rdata_o (csr_rdata), .irq_o (irq), .idle_o (idle), .ev_o (ev),
    // PTE writes of the coalesce unit (docs/microarch.md §15.2): no response, nothing to model
    .mem_req_write_o (), .mem_req_wdata_o (), .mem_req_setbits_o (),
    // access counters (docs/microarch.md §19.8): absent (AccEntries = 0), the port tied 0
    .acc_wr_valid_o (), .acc_wr_ready_i (1'b0), .acc_wr_addr_o (), .acc_wr_data_o ()
  );

  logic [Wk-1:0] outst_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      outst_q <= '0;
    end else begin
      for (int unsigned k = 0; k < Wk; k++) begin
        if (mem_rsp_valid_i && mem_rsp_id_i == gmmu_pkg::MEM_ID_W'(k)) outst_q[k] <= 1'b0;
        if (mem_req_valid && mem_req_ready_i && mem_req_id == gmmu_pkg::MEM_ID_W'(k))
          outst_q[k] <= 1'b1;
      end
    end
  end
  always_comb if (rst_ni)
    env_mem_rsp: assume (!mem_rsp_valid_i ||
                         (int'(mem_rsp_id_i) < Wk && outst_q[mem_rsp_id_i[$clog2(Wk)-1:0]]));

  // top-level properties: the L1 answers only what it accepted (hits: the cycle after), the
  // walker/MSHR relation of formal/fv_walk.sv holds with the real L1s, CSR and far-fault unit
  always_comb if (rst_ni) begin
    top_cpl_walking: assert (!u_top.cpl_valid ||
                             u_top.u_l2.m_state_q[u_top.cpl_mshr] == 2'd2);
    top_rsp_ok: assert (!mem_rsp_valid_i || u_top.u_ptw.rsp_ok);
    top_gnt: assert ($onehot0(u_top.l1_gnt) && (u_top.l1_gnt & ~u_top.l1_req_valid) == '0);
  end
endmodule
