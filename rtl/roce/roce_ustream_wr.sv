// roce_ustream_wr: the responder's payload writes, to memory or to user
// logic (docs/user-logic.md, "Streaming MRs").
//
// Sits between the responder's payload DMA write port (command + side band
// roce_qp_pkg::dma_usr_t, payload stream whose tuser says "streaming", the
// completions) and mem_dma_wr. A command whose side band says stream (its MR
// is streaming) goes, with its payload, to the user receive-data stream
// m_urx_* instead of mem_dma_wr, and its completion (DMA_OK, its tag) is made
// here once user logic has taken the chunk's last beat. An order FIFO of one
// "memory or user" bit (and the tag) per command returns the completions of
// both kinds in command order, so the responder's ACK / CQE logic sees what it
// sees without streaming.
//
// The memory path adds no cycle: commands, payload and completions pass
// through one LUT of gating / multiplexing (as roce_resp gates its payload),
// so a WRITE into memory keeps its latency. The user side is registered:
// every m_urx_* output comes from a skid buffer.
//
//   u_hdr   the user chunks' headers (address, length, QPN, first, last, send),
//           pushed when a streaming command is taken, popped when its payload's
//           last beat goes into u_ux
//   u_ux    the user stream's output skid (beat + the chunk's header)
//   u_ord   order FIFO {stream, tag}, DEPTH commands taken and not completed
//   ud_q    user chunks whose last beat user logic took, not yet completed
//
// A user that stops taking m_urx stops this port's streaming payload (and the
// responder's payload path behind it); memory completions already due still
// pass in order behind the user chunks before them.
`default_nettype none

module roce_ustream_wr #(
  parameter int DEPTH = 32           // commands in flight (power of two)
) (
  input  wire logic                        clk,
  input  wire logic                        rst,
  // from the responder
  input  wire logic                        s_cmd_valid,
  output logic                             s_cmd_ready,
  input  wire mem_pkg::dma_wr_cmd_t        s_cmd,
  input  wire roce_qp_pkg::dma_usr_t       s_cmd_usr,
  input  wire logic [mem_pkg::DATA_W-1:0]  s_axis_tdata,
  input  wire logic [mem_pkg::STRB_W-1:0]  s_axis_tkeep,
  input  wire logic                        s_axis_tvalid,
  output logic                             s_axis_tready,
  input  wire logic                        s_axis_tlast,
  input  wire logic                        s_axis_tuser,     // the packet's command is streaming
  output logic                             m_cpl_valid,
  input  wire logic                        m_cpl_ready,
  output mem_pkg::dma_cpl_t                m_cpl,
  // to mem_dma_wr
  output logic                             m_cmd_valid,
  input  wire logic                        m_cmd_ready,
  output mem_pkg::dma_wr_cmd_t             m_cmd,
  output logic [mem_pkg::DATA_W-1:0]       m_axis_tdata,
  output logic [mem_pkg::STRB_W-1:0]       m_axis_tkeep,
  output logic                             m_axis_tvalid,
  input  wire logic                        m_axis_tready,
  output logic                             m_axis_tlast,
  input  wire logic                        s_cpl_valid,
  output logic                             s_cpl_ready,
  input  wire mem_pkg::dma_cpl_t           s_cpl,
  // the user receive-data stream
  output logic                             m_urx_valid,
  input  wire logic                        m_urx_ready,
  output logic [mem_pkg::DATA_W-1:0]       m_urx_data,
  output logic [mem_pkg::STRB_W-1:0]       m_urx_keep,
  output logic                             m_urx_last,
  output logic [63:0]                      m_urx_addr,
  output logic [31:0]                      m_urx_len,
  output logic [23:0]                      m_urx_qpn,
  output logic                             m_urx_first,
  output logic                             m_urx_msg_last,
  output logic                             m_urx_send
);
  localparam int DW  = mem_pkg::DATA_W;
  localparam int KW  = mem_pkg::STRB_W;
  localparam int HW  = 64 + 32 + 24 + 3;             // a chunk's header
  localparam int XW  = DW + KW + 1 + HW;             // user beat + header
  localparam int OW  = 1 + mem_pkg::TAG_W;           // order FIFO: {stream, tag}
  localparam int NW  = $clog2(DEPTH + 1);

  if ((1 << $clog2(DEPTH)) != DEPTH || DEPTH < 2) begin : g_bad_depth
    $error("roce_ustream_wr: DEPTH must be a power of two >= 2");
  end

  // ---- commands: memory ones straight to mem_dma_wr, user ones' headers to u_hdr
  logic hq_r, ord_r, take;
  always_comb begin
    s_cmd_ready = ord_r && (s_cmd_usr.stream ? hq_r : m_cmd_ready);
    take        = s_cmd_valid && s_cmd_ready;
    m_cmd_valid = s_cmd_valid && ord_r && !s_cmd_usr.stream;
  end
  assign m_cmd = s_cmd;

  logic          hq_v, hq_pop;
  logic [HW-1:0] hq;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [2:0]    hq_cnt;                           // occupancy: not needed
  /* verilator lint_on UNUSEDSIGNAL */
  lib_fifo #(.WIDTH(HW), .DEPTH(4), .BYPASS(1)) u_hdr (
    .clk, .rst, .s_valid(s_cmd_valid && ord_r && s_cmd_usr.stream), .s_ready(hq_r),
    .s_data({s_cmd.addr, s_cmd.len, s_cmd_usr.qpn, s_cmd_usr.first, s_cmd_usr.msg_last, s_cmd_usr.send}),
    .m_valid(hq_v), .m_ready(hq_pop), .m_data(hq), .count(hq_cnt));

  // ---- payload: memory beats straight to mem_dma_wr, user beats (once their
  // header is there) into u_ux
  logic ux_r;
  always_comb begin
    m_axis_tvalid = s_axis_tvalid && !s_axis_tuser;
    s_axis_tready = s_axis_tuser ? (hq_v && ux_r) : m_axis_tready;
    hq_pop        = s_axis_tvalid && s_axis_tuser && hq_v && ux_r && s_axis_tlast;
  end
  assign m_axis_tdata = s_axis_tdata;
  assign m_axis_tkeep = s_axis_tkeep;
  assign m_axis_tlast = s_axis_tlast;

  lib_skid #(.WIDTH(XW)) u_ux (
    .clk, .rst, .s_valid(s_axis_tvalid && s_axis_tuser && hq_v), .s_ready(ux_r),
    .s_data({s_axis_tdata, s_axis_tkeep, s_axis_tlast, hq}),
    .m_valid(m_urx_valid), .m_ready(m_urx_ready),
    .m_data({m_urx_data, m_urx_keep, m_urx_last, m_urx_addr, m_urx_len, m_urx_qpn, m_urx_first,
             m_urx_msg_last, m_urx_send}));

  // ---- completions, in command order
  logic                      ord_v, ord_stream, ud_nz_q, ud_nz_d, ux_done, cpl_go;
  logic [mem_pkg::TAG_W-1:0] ord_tag;
  logic [NW-1:0]             ud_q, ud_d;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NW-1:0]             ord_cnt;              // occupancy: not needed
  /* verilator lint_on UNUSEDSIGNAL */
  lib_fifo #(.WIDTH(OW), .DEPTH(DEPTH), .BYPASS(1)) u_ord (
    .clk, .rst, .s_valid(take), .s_ready(ord_r), .s_data({s_cmd_usr.stream, s_cmd.tag}),
    .m_valid(ord_v), .m_ready(cpl_go), .m_data({ord_stream, ord_tag}), .count(ord_cnt));

  always_comb begin
    m_cpl_valid   = ord_v && (ord_stream ? ud_nz_q : s_cpl_valid);
    m_cpl.tag     = ord_stream ? ord_tag : s_cpl.tag;
    m_cpl.status  = ord_stream ? mem_pkg::DMA_OK : s_cpl.status;
    s_cpl_ready   = ord_v && !ord_stream && m_cpl_ready;
    cpl_go        = m_cpl_valid && m_cpl_ready;
    ux_done       = m_urx_valid && m_urx_ready && m_urx_last;
    ud_d          = ud_q + NW'(ux_done) - NW'(cpl_go && ord_stream);
    ud_nz_d       = ud_d != '0;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      ud_q    <= '0;
      ud_nz_q <= 1'b0;
    end else begin
      ud_q    <= ud_d;
      ud_nz_q <= ud_nz_d;
    end
  end

`ifndef SYNTHESIS
  // a memory completion with no memory command at the order FIFO's head
  always_ff @(posedge clk) begin
    if (!rst && s_cpl_valid && !(ord_v && !ord_stream) && ord_cnt == '0)
      $error("roce_ustream_wr: a DMA write completion with no command outstanding");
  end
`endif
endmodule
