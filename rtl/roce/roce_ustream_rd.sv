// roce_ustream_rd: a DMA read client's commands, to memory or to user logic
// (docs/user-logic.md, "Streaming MRs"). Used twice in roce_transport: for
// the responder's READ response data and for the requester's WRITE / SEND
// payload.
//
// Sits between an engine's DMA read port (command + side band
// roce_qp_pkg::dma_usr_t, the read stream with its dma_cpl_t in tuser) and
// mem_dma_rd. A command whose side band says stream becomes a request on
// m_ureq_* (address, length, QPN); user logic answers each request, in
// order, with ceil(len / 64) beats on s_ud_*, packed from byte 0, s_ud_last
// on the last. The engine then sees exactly what mem_dma_rd would give: the
// same beats, tkeep all ones but the last beat's (from len), tlast, the
// command's tag in tuser. An order FIFO of {memory or user, tag, length}
// per command keeps the data of both kinds in command order.
//
// The memory path adds no cycle: a memory command passes to mem_dma_rd and
// its data to the engine through one LUT of gating / multiplexing (valid,
// ready and data, as roce_resp gates its payload), so the engines see the
// latency they see without streaming. The user side is registered: m_ureq_*
// and s_ud_ready come from skid buffers.
//
// The beats are counted here, not taken from s_ud_last: the engine always
// gets ceil(len / 64) beats per command. A user answer whose s_ud_last is
// missing on the last counted beat, or comes early, marks that command's
// completion DMA_SLVERR (what a memory error gives: counted by the engine as
// a DMA error) and pulses err (counted by roce_transport); the stream
// stays aligned only if user logic then sends the beats it owes. The engines
// issue no payload command of length 0 (roce_resp_tx reads only while bytes
// are left, roce_req only for a payload), so none reaches user logic (checked
// in simulation).
//
//   u_uq           requests to user logic (skid)
//   u_ord          order FIFO {stream, tag, len}
//   ac_*_q         the command whose data is passing (loaded from the FIFO's
//                  head when the previous one's last beat goes); for a user
//                  command the beats left and "this is the last beat", each
//                  worked out a beat ahead, and len mod 64 decoded (the last beat's keep)
//   u_ud           data from user logic (skid)
`default_nettype none

module roce_ustream_rd #(
  parameter int DEPTH = 32           // commands in flight (power of two, >= mem_dma_rd's 16)
) (
  input  wire logic                        clk,
  input  wire logic                        rst,
  // from the engine
  input  wire logic                        s_cmd_valid,
  output logic                             s_cmd_ready,
  input  wire mem_pkg::dma_rd_cmd_t        s_cmd,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire roce_qp_pkg::dma_usr_t       s_cmd_usr,        // (first, msg_last, send: the write side's)
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [mem_pkg::DATA_W-1:0]       m_axis_tdata,
  output logic [mem_pkg::STRB_W-1:0]       m_axis_tkeep,
  output logic                             m_axis_tvalid,
  input  wire logic                        m_axis_tready,
  output logic                             m_axis_tlast,
  output mem_pkg::dma_cpl_t                m_axis_tuser,
  // to mem_dma_rd
  output logic                             m_cmd_valid,
  input  wire logic                        m_cmd_ready,
  output mem_pkg::dma_rd_cmd_t             m_cmd,
  input  wire logic [mem_pkg::DATA_W-1:0]  s_axis_tdata,
  input  wire logic [mem_pkg::STRB_W-1:0]  s_axis_tkeep,
  input  wire logic                        s_axis_tvalid,
  output logic                             s_axis_tready,
  input  wire logic                        s_axis_tlast,
  input  wire mem_pkg::dma_cpl_t           s_axis_tuser,
  // user logic: requests out, data in
  output logic                             m_ureq_valid,
  input  wire logic                        m_ureq_ready,
  output logic [63:0]                      m_ureq_addr,
  output logic [31:0]                      m_ureq_len,
  output logic [23:0]                      m_ureq_qpn,
  input  wire logic                        s_ud_valid,
  output logic                             s_ud_ready,
  input  wire logic [mem_pkg::DATA_W-1:0]  s_ud_data,
  input  wire logic                        s_ud_last,
  // a user answer's s_ud_last disagreed with its length (a registered pulse)
  output logic                             err
);
  localparam int DW  = mem_pkg::DATA_W;
  localparam int KW  = mem_pkg::STRB_W;
  localparam int TW  = mem_pkg::TAG_W;
  localparam int OW  = 1 + TW + 32;                     // order FIFO: {stream, tag, len}
  localparam int NW  = $clog2(DEPTH + 1);

  if ((1 << $clog2(DEPTH)) != DEPTH || DEPTH < 2) begin : g_bad_depth
    $error("roce_ustream_rd: DEPTH must be a power of two >= 2");
  end

  // ---- commands: memory ones straight to mem_dma_rd, user ones to u_uq
  logic uq_r, ord_r, take;
  always_comb begin
    s_cmd_ready   = ord_r && (s_cmd_usr.stream ? uq_r : m_cmd_ready);
    take          = s_cmd_valid && s_cmd_ready;
    m_cmd_valid   = s_cmd_valid && ord_r && !s_cmd_usr.stream;
  end
  assign m_cmd = s_cmd;
  lib_skid #(.WIDTH(64 + 32 + 24)) u_uq (
    .clk, .rst, .s_valid(s_cmd_valid && ord_r && s_cmd_usr.stream), .s_ready(uq_r),
    .s_data({s_cmd.addr, s_cmd.len, s_cmd_usr.qpn}),
    .m_valid(m_ureq_valid), .m_ready(m_ureq_ready), .m_data({m_ureq_addr, m_ureq_len, m_ureq_qpn}));

  logic               ord_v, ord_pop, ord_stream;
  logic [TW-1:0]      ord_tag;
  logic [31:0]        ord_len;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NW-1:0]      ord_cnt;                     // occupancy: not needed
  /* verilator lint_on UNUSEDSIGNAL */
  lib_fifo #(.WIDTH(OW), .DEPTH(DEPTH)) u_ord (
    .clk, .rst, .s_valid(take), .s_ready(ord_r), .s_data({s_cmd_usr.stream, s_cmd.tag, s_cmd.len}),
    .m_valid(ord_v), .m_ready(ord_pop), .m_data({ord_stream, ord_tag, ord_len}), .count(ord_cnt));

  // ---- data
  logic              ud_v, ud_r, ud_last, out_r, out_v, out_last, fire, fin, ac_ld;
  logic [DW-1:0]     ud_data;
  lib_skid #(.WIDTH(DW + 1)) u_ud (
    .clk, .rst, .s_valid(s_ud_valid), .s_ready(s_ud_ready), .s_data({s_ud_data, s_ud_last}),
    .m_valid(ud_v), .m_ready(ud_r), .m_data({ud_data, ud_last}));

  // the command whose data is passing
  logic              ac_v_q, ac_v_d, ac_st_q, ac_st_d, lb_q, lb_d, bad_q, bad_d;
  logic [TW-1:0]     ac_tag_q, ac_tag_d;
  logic [31:6]       left_q, left_d;         // 64-byte units still to come, rounded up, minus one
  // len mod 64 (the last beat's keep, kl), decoded at the load: its eighths
  // above / at k (hgt, heq), its low three bits above j (lgt), zero (kz):
  // each keep bit is then one LUT of four registers
  logic [7:0]        hgt_q, hgt_d, heq_q, heq_d, lgt_q, lgt_d;
  logic              kz_q, kz_d;
  logic [KW-1:0]     kl;
  logic              err_q, err_d, ubad;

  always_comb begin
    // the beat offered to the engine: mem_dma_rd's as it is, or user logic's
    out_r = m_axis_tready;
    out_v       = ac_v_q && (ac_st_q ? ud_v : s_axis_tvalid);
    ubad        = ud_last != lb_q;           // s_ud_last where the count does not end, or missing
    out_last    = ac_st_q ? lb_q : s_axis_tlast;
    m_axis_tvalid = out_v;
    m_axis_tdata  = ac_st_q ? ud_data : s_axis_tdata;
    m_axis_tlast  = out_last;
    for (int i = 0; i < KW; i++) kl[i] = kz_q || hgt_q[i / 8] || (heq_q[i / 8] && lgt_q[i % 8]);
    m_axis_tkeep  = !ac_st_q ? s_axis_tkeep : lb_q ? kl : '1;
    m_axis_tuser.tag    = ac_st_q ? ac_tag_q : s_axis_tuser.tag;
    m_axis_tuser.status = !ac_st_q ? s_axis_tuser.status :
                          (bad_q || ubad) ? mem_pkg::DMA_SLVERR : mem_pkg::DMA_OK;
    fire  = out_v && out_r;
    s_axis_tready = ac_v_q && !ac_st_q && out_r;
    ud_r  = ac_v_q && ac_st_q && out_r;
    fin   = fire && out_last;
    ac_ld = !ac_v_q || fin;
    ord_pop = ac_ld;
    ac_v_d  = ac_ld ? ord_v : ac_v_q;
    ac_st_d = ac_ld ? ord_stream : ac_st_q;
    ac_tag_d = ac_ld ? ord_tag : ac_tag_q;
    // the count, a beat ahead: left = ceil(len / 64) - 1 beats after this
    // one; lb: this is the last beat
    left_d = left_q;
    lb_d   = lb_q;
    bad_d  = bad_q;
    hgt_d  = hgt_q;
    heq_d  = heq_q;
    lgt_d  = lgt_q;
    kz_d   = kz_q;
    if (ac_ld) begin
      left_d = ord_len[31:6] - 26'(ord_len[5:0] == 6'd0);
      lb_d   = ord_len[31:7] == '0 && (!ord_len[6] || ord_len[5:0] == 6'd0);   // len <= 64
      bad_d  = 1'b0;
      for (int k = 0; k < 8; k++) begin
        hgt_d[k] = ord_len[5:3] > 3'(k);
        heq_d[k] = ord_len[5:3] == 3'(k);
        lgt_d[k] = ord_len[2:0] > 3'(k);
      end
      kz_d   = ord_len[5:0] == 6'd0;
    end else if (fire) begin
      left_d = left_q - 26'd1;
      lb_d   = left_q == 26'd1;
      bad_d  = bad_q || (ac_st_q && ubad);
    end
    err_d = fin && ac_st_q && (bad_q || ubad);
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      ac_v_q <= 1'b0;
      err_q  <= 1'b0;
    end else begin
      ac_v_q <= ac_v_d;
      err_q  <= err_d;
    end
    ac_st_q  <= ac_st_d;
    ac_tag_q <= ac_tag_d;
    left_q   <= left_d;
    lb_q     <= lb_d;
    bad_q    <= bad_d;
    hgt_q    <= hgt_d;
    heq_q    <= heq_d;
    lgt_q    <= lgt_d;
    kz_q     <= kz_d;
  end
  assign err = err_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk) begin
    if (!rst && s_cmd_valid && s_cmd_ready && s_cmd_usr.stream && s_cmd.len == 32'd0)
      $error("roce_ustream_rd: a streaming command of length 0");
  end
`endif

endmodule
