// mem_axi_arb: NR read clients and NW write clients onto one AXI4 master.
//
// Arbitration is round robin per burst, separately for AR and AW: after a
// client is granted, the search for the next grant starts at the client after
// it, so under full load every requesting client gets one burst in every NR
// (NW) grants and none starves. The master's ID is the client's index
// (arid = read client, awid = write client); R and B responses are routed
// back by rid / bid, so the memory may interleave responses of different IDs
// and must keep each ID in order (AXI4 rule). W beats follow AW grant order
// (a W route FIFO of WQ_DEPTH bursts, built in): a write client must send a granted
// burst's beats without long gaps, which mem_dma_wr guarantees by asking for
// AW only once the burst is buffered. R and B are shared by all clients
// (s_axi_rdata/rresp/rlast and s_axi_bresp are common wires, the valids are
// per client); clients should keep rready/bready high, as the DMA engines
// do, since a stalled client stalls the shared R (or B) channel.
//
// Every burst is INCR with 64-byte beats (clients send only address and
// length). Every output comes from registers: the clients' AR and AW enter
// through a skid each (one cycle), W leaves through a skid (no added cycle),
// R and B pass through a skid each on the way back (one cycle each). The R
// and B skids carry rid / bid decoded one-hot and the W route FIFO holds the
// granted client one-hot beside its index, so every per-client rvalid,
// bvalid and wready is a single gate after registers.
`default_nettype none

module mem_axi_arb #(
  parameter int unsigned NR = 2,            // read clients, >= 1
  parameter int unsigned NW = 2,            // write clients, >= 1
  parameter int unsigned WQ_DEPTH = 16,     // AW grants whose W beats are not all through
  // ID width of the master: enough for the larger client count
  parameter int unsigned ID_W = (NR > NW ? NR : NW) > 1 ? $clog2(NR > NW ? NR : NW) : 1
) (
  input  wire logic                           clk,
  input  wire logic                           rst,
  // ---- read clients
  input  wire logic [NR*64-1:0]               s_axi_araddr,
  input  wire logic [NR*8-1:0]                s_axi_arlen,
  input  wire logic [NR-1:0]                  s_axi_arvalid,
  output logic [NR-1:0]                       s_axi_arready,
  output logic [mem_pkg::DATA_W-1:0]          s_axi_rdata,    // shared
  output logic [1:0]                          s_axi_rresp,    // shared
  output logic                                s_axi_rlast,    // shared
  output logic [NR-1:0]                       s_axi_rvalid,
  input  wire logic [NR-1:0]                  s_axi_rready,
  // ---- write clients
  input  wire logic [NW*64-1:0]               s_axi_awaddr,
  input  wire logic [NW*8-1:0]                s_axi_awlen,
  input  wire logic [NW-1:0]                  s_axi_awvalid,
  output logic [NW-1:0]                       s_axi_awready,
  input  wire logic [NW*mem_pkg::DATA_W-1:0]  s_axi_wdata,
  input  wire logic [NW*mem_pkg::STRB_W-1:0]  s_axi_wstrb,
  input  wire logic [NW-1:0]                  s_axi_wlast,
  input  wire logic [NW-1:0]                  s_axi_wvalid,
  output logic [NW-1:0]                       s_axi_wready,
  output logic [1:0]                          s_axi_bresp,    // shared
  output logic [NW-1:0]                       s_axi_bvalid,
  input  wire logic [NW-1:0]                  s_axi_bready,
  // ---- AXI4 master
  output logic [ID_W-1:0]                     m_axi_awid,
  output logic [63:0]                         m_axi_awaddr,
  output logic [7:0]                          m_axi_awlen,
  output logic [2:0]                          m_axi_awsize,
  output logic [1:0]                          m_axi_awburst,
  output logic                                m_axi_awvalid,
  input  wire logic                           m_axi_awready,
  output logic [mem_pkg::DATA_W-1:0]          m_axi_wdata,
  output logic [mem_pkg::STRB_W-1:0]          m_axi_wstrb,
  output logic                                m_axi_wlast,
  output logic                                m_axi_wvalid,
  input  wire logic                           m_axi_wready,
  input  wire logic [ID_W-1:0]                m_axi_bid,
  input  wire logic [1:0]                     m_axi_bresp,
  input  wire logic                           m_axi_bvalid,
  output logic                                m_axi_bready,
  output logic [ID_W-1:0]                     m_axi_arid,
  output logic [63:0]                         m_axi_araddr,
  output logic [7:0]                          m_axi_arlen,
  output logic [2:0]                          m_axi_arsize,
  output logic [1:0]                          m_axi_arburst,
  output logic                                m_axi_arvalid,
  input  wire logic                           m_axi_arready,
  input  wire logic [ID_W-1:0]                m_axi_rid,
  input  wire logic [mem_pkg::DATA_W-1:0]     m_axi_rdata,
  input  wire logic [1:0]                     m_axi_rresp,
  input  wire logic                           m_axi_rlast,
  input  wire logic                           m_axi_rvalid,
  output logic                                m_axi_rready
);
  localparam int unsigned DW  = mem_pkg::DATA_W;
  localparam int unsigned SW  = mem_pkg::STRB_W;
  localparam int unsigned RIW = NR > 1 ? $clog2(NR) : 1;   // read client index
  localparam int unsigned WIW = NW > 1 ? $clog2(NW) : 1;   // write client index

  if (NR < 1 || NW < 1) begin : g_bad_n
    $error("mem_axi_arb: NR and NW must be at least 1");
  end
  if ((1 << ID_W) < NR || (1 << ID_W) < NW) begin : g_bad_id
    $error("mem_axi_arb: ID_W too narrow for the client count");
  end

  // ------------------------------------------------------------ AR
  // every client's AR enters through a skid (s_axi_arready from a register)
  logic [NR-1:0]    arq_v, arq_r;
  logic [NR*72-1:0] arq_d;
  for (genvar i = 0; i < NR; i++) begin : g_ar_skid
    lib_skid #(.WIDTH(72)) u_ar_skid (
      .clk, .rst,
      .s_valid(s_axi_arvalid[i]), .s_ready(s_axi_arready[i]),
      .s_data({s_axi_araddr[64*i +: 64], s_axi_arlen[8*i +: 8]}),
      .m_valid(arq_v[i]), .m_ready(arq_r[i]), .m_data(arq_d[72*i +: 72])
    );
  end

  logic [RIW-1:0] ar_ptr_q, ar_ptr_d, ar_gnt, ar_idx;
  logic           ar_found;
  logic           ar_v_q, ar_v_d;
  logic [ID_W-1:0] ar_id_q, ar_id_d;
  logic [63:0]    ar_addr_q, ar_addr_d;
  logic [7:0]     ar_len_q, ar_len_d;

  always_comb begin
    // first requester at or after the pointer
    ar_found = 1'b0;
    ar_gnt   = '0;
    for (int k = 0; k < NR; k++) begin
      ar_idx = (32'(ar_ptr_q) + 32'(k) >= NR) ? RIW'(32'(ar_ptr_q) + 32'(k) - NR)
                                              : RIW'(32'(ar_ptr_q) + 32'(k));
      if (!ar_found && arq_v[ar_idx]) begin
        ar_found = 1'b1;
        ar_gnt   = ar_idx;
      end
    end
    arq_r     = '0;
    ar_v_d    = ar_v_q && !m_axi_arready;
    ar_id_d   = ar_id_q;
    ar_addr_d = ar_addr_q;
    ar_len_d  = ar_len_q;
    ar_ptr_d  = ar_ptr_q;
    if (ar_found && (!ar_v_q || m_axi_arready)) begin
      arq_r[ar_gnt] = 1'b1;
      ar_v_d    = 1'b1;
      ar_id_d   = ID_W'(ar_gnt);
      ar_addr_d = arq_d[72*ar_gnt + 8 +: 64];
      ar_len_d  = arq_d[72*ar_gnt +: 8];
      ar_ptr_d  = (32'(ar_gnt) + 1 >= NR) ? '0 : RIW'(32'(ar_gnt) + 1);
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      ar_v_q   <= 1'b0;
      ar_ptr_q <= '0;
    end else begin
      ar_v_q   <= ar_v_d;
      ar_ptr_q <= ar_ptr_d;
    end
    ar_id_q   <= ar_id_d;
    ar_addr_q <= ar_addr_d;
    ar_len_q  <= ar_len_d;
  end

  assign m_axi_arid    = ar_id_q;
  assign m_axi_araddr  = ar_addr_q;
  assign m_axi_arlen   = ar_len_q;
  assign m_axi_arsize  = mem_pkg::AXI_SIZE_64B;
  assign m_axi_arburst = mem_pkg::AXI_BURST_INCR;
  assign m_axi_arvalid = ar_v_q;

  // ------------------------------------------------------------ R
  // through a skid: m_axi_rready and the clients' R signals from registers.
  // The skid carries rid decoded one-hot, so each client's rvalid is one
  // gate after the skid's registers.
  logic [NR-1:0]   r_sel_in, r_sel;
  logic            r_valid, r_ready;

  always_comb begin
    r_sel_in = '0;
    for (int i = 0; i < NR; i++) r_sel_in[i] = (32'(m_axi_rid) == i);
  end

  lib_skid #(.WIDTH(NR + DW + 3)) u_r_skid (
    .clk, .rst,
    .s_valid(m_axi_rvalid), .s_ready(m_axi_rready),
    .s_data({r_sel_in, m_axi_rdata, m_axi_rresp, m_axi_rlast}),
    .m_valid(r_valid), .m_ready(r_ready),
    .m_data({r_sel, s_axi_rdata, s_axi_rresp, s_axi_rlast})
  );

  // a response for no client is dropped (cannot happen)
  assign s_axi_rvalid = r_valid ? r_sel : '0;
  assign r_ready      = (r_sel & ~s_axi_rready) == '0;

  // ------------------------------------------------------------ AW
  // every client's AW enters through a skid (s_axi_awready from a register)
  logic [NW-1:0]    awq_v, awq_r;
  logic [NW*72-1:0] awq_d;
  for (genvar i = 0; i < NW; i++) begin : g_aw_skid
    lib_skid #(.WIDTH(72)) u_aw_skid (
      .clk, .rst,
      .s_valid(s_axi_awvalid[i]), .s_ready(s_axi_awready[i]),
      .s_data({s_axi_awaddr[64*i +: 64], s_axi_awlen[8*i +: 8]}),
      .m_valid(awq_v[i]), .m_ready(awq_r[i]), .m_data(awq_d[72*i +: 72])
    );
  end

  logic [WIW-1:0] aw_ptr_q, aw_ptr_d, aw_gnt, aw_idx;
  logic           aw_found, aw_take;
  logic           aw_v_q, aw_v_d;
  logic [ID_W-1:0] aw_id_q, aw_id_d;
  logic [63:0]    aw_addr_q, aw_addr_d;
  logic [7:0]     aw_len_q, aw_len_d;
  logic           wq_in_ready, wq_valid, wq_pop;
  logic [WIW-1:0] wq_head;
  logic [NW-1:0]  aw_gnt_oh, wq_head_oh;

  always_comb begin
    aw_found = 1'b0;
    aw_gnt   = '0;
    for (int k = 0; k < NW; k++) begin
      aw_idx = (32'(aw_ptr_q) + 32'(k) >= NW) ? WIW'(32'(aw_ptr_q) + 32'(k) - NW)
                                              : WIW'(32'(aw_ptr_q) + 32'(k));
      if (!aw_found && awq_v[aw_idx]) begin
        aw_found = 1'b1;
        aw_gnt   = aw_idx;
      end
    end
    aw_take       = aw_found && (!aw_v_q || m_axi_awready) && wq_in_ready;
    awq_r     = '0;
    aw_v_d    = aw_v_q && !m_axi_awready;
    aw_id_d   = aw_id_q;
    aw_addr_d = aw_addr_q;
    aw_len_d  = aw_len_q;
    aw_ptr_d  = aw_ptr_q;
    if (aw_take) begin
      awq_r[aw_gnt] = 1'b1;
      aw_v_d    = 1'b1;
      aw_id_d   = ID_W'(aw_gnt);
      aw_addr_d = awq_d[72*aw_gnt + 8 +: 64];
      aw_len_d  = awq_d[72*aw_gnt +: 8];
      aw_ptr_d  = (32'(aw_gnt) + 1 >= NW) ? '0 : WIW'(32'(aw_gnt) + 1);
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      aw_v_q   <= 1'b0;
      aw_ptr_q <= '0;
    end else begin
      aw_v_q   <= aw_v_d;
      aw_ptr_q <= aw_ptr_d;
    end
    aw_id_q   <= aw_id_d;
    aw_addr_q <= aw_addr_d;
    aw_len_q  <= aw_len_d;
  end

  assign m_axi_awid    = aw_id_q;
  assign m_axi_awaddr  = aw_addr_q;
  assign m_axi_awlen   = aw_len_q;
  assign m_axi_awsize  = mem_pkg::AXI_SIZE_64B;
  assign m_axi_awburst = mem_pkg::AXI_BURST_INCR;
  assign m_axi_awvalid = aw_v_q;

  // which client's W beats come next, in AW grant order: a FIFO of WQ_DEPTH
  // grants (first word fall through, its head in registers: the index for
  // the data mux, and the client one-hot, cleared while the FIFO is empty,
  // so each s_axi_wready is one gate after registers). A grant pushed at one
  // edge is at the head after the next one (as in lib_fifo).
  localparam int unsigned QAW = $clog2(WQ_DEPTH);
  localparam int unsigned QCW = $clog2(WQ_DEPTH + 1);

  if (WQ_DEPTH < 2 || (1 << QAW) != WQ_DEPTH) begin : g_bad_wq
    $error("mem_axi_arb: WQ_DEPTH must be a power of two >= 2");
  end

  logic [NW+WIW-1:0] wq_mem_q [WQ_DEPTH];
  logic [QAW:0]      wq_wp_q, wq_wp_d, wq_rp_q, wq_rp_d;
  logic [QCW-1:0]    wq_cnt_q, wq_cnt_d;
  logic              wq_valid_q, wq_valid_d, wq_push, wq_load;
  logic [NW-1:0]     wq_oh_q, wq_oh_d;
  logic [WIW-1:0]    wq_idx_q, wq_idx_d;
  logic [NW+WIW-1:0] wq_rd;

  always_comb begin
    aw_gnt_oh = '0;
    aw_gnt_oh[aw_gnt] = 1'b1;
  end

  assign wq_in_ready = wq_cnt_q < QCW'(WQ_DEPTH);   // registers only

  always_comb begin
    wq_push    = aw_take;
    wq_rd      = wq_mem_q[wq_rp_q[QAW-1:0]];
    // refill the head whenever it empties (wq_pop implies wq_valid)
    wq_load    = (wq_rp_q != wq_wp_q) && (!wq_valid_q || wq_pop);
    wq_wp_d    = wq_wp_q + (QAW+1)'(wq_push);
    wq_rp_d    = wq_rp_q + (QAW+1)'(wq_load);
    wq_cnt_d   = wq_cnt_q + QCW'(wq_push) - QCW'(wq_pop);
    wq_valid_d = wq_load || (wq_valid_q && !wq_pop);
    wq_oh_d    = wq_load ? wq_rd[WIW +: NW] : (wq_pop ? '0 : wq_oh_q);
    wq_idx_d   = wq_load ? wq_rd[WIW-1:0] : wq_idx_q;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      wq_wp_q    <= '0;
      wq_rp_q    <= '0;
      wq_cnt_q   <= '0;
      wq_valid_q <= 1'b0;
      wq_oh_q    <= '0;
    end else begin
      wq_wp_q    <= wq_wp_d;
      wq_rp_q    <= wq_rp_d;
      wq_cnt_q   <= wq_cnt_d;
      wq_valid_q <= wq_valid_d;
      wq_oh_q    <= wq_oh_d;
    end
    wq_idx_q <= wq_idx_d;
  end

  always_ff @(posedge clk) begin
    if (wq_push) wq_mem_q[wq_wp_q[QAW-1:0]] <= {aw_gnt_oh, aw_gnt};
  end

  assign wq_valid   = wq_valid_q;
  assign wq_head    = wq_idx_q;
  assign wq_head_oh = wq_oh_q;

  // ------------------------------------------------------------ W
  // the W output is a skid, so s_axi_wready comes from registers only
  logic          w_take, w_in_ready;
  logic [DW-1:0] w_data;
  logic [SW-1:0] w_strb;
  logic          w_last;

  always_comb begin
    w_take       = wq_valid && s_axi_wvalid[wq_head] && w_in_ready;
    s_axi_wready = w_in_ready ? wq_head_oh : '0;
    wq_pop = w_take && s_axi_wlast[wq_head];
    w_data = s_axi_wdata[DW*wq_head +: DW];
    w_strb = s_axi_wstrb[SW*wq_head +: SW];
    w_last = s_axi_wlast[wq_head];
  end

  lib_skid #(.WIDTH(DW + SW + 1)) u_w_skid (
    .clk, .rst,
    .s_valid(w_take), .s_ready(w_in_ready), .s_data({w_data, w_strb, w_last}),
    .m_valid(m_axi_wvalid), .m_ready(m_axi_wready),
    .m_data({m_axi_wdata, m_axi_wstrb, m_axi_wlast})
  );

  // ------------------------------------------------------------ B
  // through a skid: m_axi_bready and the clients' B signals from registers
  // (bid decoded one-hot ahead of the skid, as for R)
  logic [NW-1:0]   b_sel_in, b_sel;
  logic            b_valid, b_ready;

  always_comb begin
    b_sel_in = '0;
    for (int i = 0; i < NW; i++) b_sel_in[i] = (32'(m_axi_bid) == i);
  end

  lib_skid #(.WIDTH(NW + 2)) u_b_skid (
    .clk, .rst,
    .s_valid(m_axi_bvalid), .s_ready(m_axi_bready), .s_data({b_sel_in, m_axi_bresp}),
    .m_valid(b_valid), .m_ready(b_ready), .m_data({b_sel, s_axi_bresp})
  );

  assign s_axi_bvalid = b_valid ? b_sel : '0;
  assign b_ready      = (b_sel & ~s_axi_bready) == '0;
endmodule
