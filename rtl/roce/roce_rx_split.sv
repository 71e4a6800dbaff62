// roce_rx_split: splits the parsed RX header channel and its payload stream
// (roce_rx_parse) by the opcode table's request bit: requests to the
// responder (m_req_*), responses to the completer (m_rsp_*).
//
// A header goes to the side its info.request names; when it announces
// payload (pay_len != 0) its destination is queued (route queue) and the
// payload packet (up to tlast) follows it there, so headers may run ahead of
// their payload.
//
// Timing by construction: every output is a flip-flop (a lib_skid register
// slice per side and channel), and the two ready outputs are one LUT of
// flip-flops, independent of the input data:
//   s_hdr_ready           = both header slices can take a word and the route
//                           queue has room (a registered flag);
//   s_axis_payload_tready = the route of the payload packet is known (head
//                           register of the route queue) and its side's
//                           payload slice can take a beat.
// Cycle by cycle: a header taken at cycle t is on m_*_hdr at t+1 and its
// route in the head register at t+1 (when the queue was empty); a payload
// beat taken at t is on m_*_axis_payload at t+1. So the first payload beat
// of a packet is taken no earlier than one cycle after its header; later
// beats follow one per cycle, and the next packet's route is in the head
// register as the last beat of a packet is taken, if its header came.
`default_nettype none

module roce_rx_split #(
  parameter int DEPTH = 4                    // payload routes queued behind the head register (power of two)
) (
  input  wire logic                        clk,
  input  wire logic                        rst,
  // in
  input  wire logic                        s_hdr_valid,
  output logic                             s_hdr_ready,
  input  wire roce_pkg::rx_hdr_t           s_hdr,
  input  wire logic [roce_pkg::DATA_W-1:0] s_axis_payload_tdata,
  input  wire logic [roce_pkg::KEEP_W-1:0] s_axis_payload_tkeep,
  input  wire logic                        s_axis_payload_tvalid,
  output logic                             s_axis_payload_tready,
  input  wire logic                        s_axis_payload_tlast,
  // requests
  output logic                             m_req_hdr_valid,
  input  wire logic                        m_req_hdr_ready,
  output roce_pkg::rx_hdr_t                m_req_hdr,
  output logic [roce_pkg::DATA_W-1:0]      m_req_axis_payload_tdata,
  output logic [roce_pkg::KEEP_W-1:0]      m_req_axis_payload_tkeep,
  output logic                             m_req_axis_payload_tvalid,
  input  wire logic                        m_req_axis_payload_tready,
  output logic                             m_req_axis_payload_tlast,
  // responses
  output logic                             m_rsp_hdr_valid,
  input  wire logic                        m_rsp_hdr_ready,
  output roce_pkg::rx_hdr_t                m_rsp_hdr,
  output logic [roce_pkg::DATA_W-1:0]      m_rsp_axis_payload_tdata,
  output logic [roce_pkg::KEEP_W-1:0]      m_rsp_axis_payload_tkeep,
  output logic                             m_rsp_axis_payload_tvalid,
  input  wire logic                        m_rsp_axis_payload_tready,
  output logic                             m_rsp_axis_payload_tlast
);
  localparam int HW = roce_pkg::RX_HDR_W;
  localparam int PW = roce_pkg::DATA_W + roce_pkg::KEEP_W + 1;
  localparam int AW = $clog2(DEPTH);

  // ------------------------------------------------------------- headers
  logic is_req, has_pay, hacc, hq_rdy, hs_rdy, route_room_q, route_room_d;

  always_comb begin
    is_req      = s_hdr.info.request;
    has_pay     = s_hdr.pay_len != 16'd0;
    s_hdr_ready = hq_rdy && hs_rdy && route_room_q;
    hacc        = s_hdr_valid && s_hdr_ready;
  end

  lib_skid #(.WIDTH(HW)) u_req_hdr (
    .clk, .rst,
    .s_valid (hacc && is_req),   .s_ready (hq_rdy), .s_data (s_hdr),
    .m_valid (m_req_hdr_valid),  .m_ready (m_req_hdr_ready), .m_data (m_req_hdr)
  );
  lib_skid #(.WIDTH(HW)) u_rsp_hdr (
    .clk, .rst,
    .s_valid (hacc && !is_req),  .s_ready (hs_rdy), .s_data (s_hdr),
    .m_valid (m_rsp_hdr_valid),  .m_ready (m_rsp_hdr_ready), .m_data (m_rsp_hdr)
  );

  // --------------------------------------------------------- route queue
  // head register (rv_q, rreq_q) in front of DEPTH entries (rq_q); the room
  // flag is registered and conservative: room for a push next cycle even if
  // one happens this cycle and nothing leaves
  logic             rv_q, rv_d, rreq_q, rreq_d;
  logic [DEPTH-1:0] rq_q, rq_d;
  logic [AW:0]      wp_q, wp_d, rp_q, rp_d, cnt;
  logic             rpush, rpop, head_free, bl_ne, pacc;

  always_comb begin
    rpush     = hacc && has_pay;
    rpop      = pacc && s_axis_payload_tlast;
    head_free = !rv_q || rpop;
    bl_ne     = wp_q != rp_q;
    rv_d      = rv_q;
    rreq_d    = rreq_q;
    rq_d      = rq_q;
    wp_d      = wp_q;
    rp_d      = rp_q;
    if (head_free) begin
      rv_d   = bl_ne || rpush;
      rreq_d = bl_ne ? rq_q[rp_q[AW-1:0]] : is_req;
      if (bl_ne) rp_d = rp_q + 1'b1;
    end
    if (rpush && !(head_free && !bl_ne)) begin
      rq_d[wp_q[AW-1:0]] = is_req;
      wp_d = wp_q + 1'b1;
    end
    cnt          = wp_q - rp_q;
    route_room_d = cnt < (AW+1)'(DEPTH - 1);
  end

  // ------------------------------------------------------------- payload
  logic pq_rdy, ps_rdy;
  logic [PW-1:0] s_pay;

  always_comb begin
    s_axis_payload_tready = rv_q && (rreq_q ? pq_rdy : ps_rdy);
    pacc  = s_axis_payload_tvalid && s_axis_payload_tready;
    s_pay = {s_axis_payload_tdata, s_axis_payload_tkeep, s_axis_payload_tlast};
  end

  lib_skid #(.WIDTH(PW)) u_req_pay (
    .clk, .rst,
    .s_valid (pacc && rreq_q), .s_ready (pq_rdy), .s_data (s_pay),
    .m_valid (m_req_axis_payload_tvalid), .m_ready (m_req_axis_payload_tready),
    .m_data  ({m_req_axis_payload_tdata, m_req_axis_payload_tkeep, m_req_axis_payload_tlast})
  );
  lib_skid #(.WIDTH(PW)) u_rsp_pay (
    .clk, .rst,
    .s_valid (pacc && !rreq_q), .s_ready (ps_rdy), .s_data (s_pay),
    .m_valid (m_rsp_axis_payload_tvalid), .m_ready (m_rsp_axis_payload_tready),
    .m_data  ({m_rsp_axis_payload_tdata, m_rsp_axis_payload_tkeep, m_rsp_axis_payload_tlast})
  );

  always_ff @(posedge clk) begin
    if (rst) begin
      rv_q         <= 1'b0;
      wp_q         <= '0;
      rp_q         <= '0;
      route_room_q <= 1'b0;
    end else begin
      rv_q         <= rv_d;
      wp_q         <= wp_d;
      rp_q         <= rp_d;
      route_room_q <= route_room_d;
    end
    rreq_q <= rreq_d;
    rq_q   <= rq_d;
  end

`ifndef SYNTHESIS
  initial begin
    if (DEPTH < 2 || (DEPTH & (DEPTH - 1)) != 0) $error("roce_rx_split: DEPTH %0d is not a power of two >= 2", DEPTH);
  end
  always_ff @(posedge clk) begin
    if (!rst && rpush && !(head_free && !bl_ne) && wp_q - rp_q == (AW+1)'(DEPTH))
      $error("roce_rx_split: route pushed into a full queue");
  end
`endif

endmodule
