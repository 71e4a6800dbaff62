// roce_rx_split: splits the parsed RX header channel and its payload stream
// (roce_rx_parse) by the opcode table's request bit: requests to the
// responder (m_req_*), responses to the completer (m_rsp_*).
//
// A header goes to the side its info.request names; when it announces
// payload (pay_len != 0) its destination is queued in a small FIFO and the
// payload packet (up to tlast) follows it there, so headers may run ahead of
// their payload. A header waits while that FIFO is full.
`default_nettype none

module roce_rx_split #(
  parameter int DEPTH = 4                    // payload routes queued (power of two)
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
  logic is_req, has_pay, route_in_ready, route_valid, route_req, hdr_ready_side;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [$clog2(DEPTH):0] route_count;  // occupancy is not needed
  /* verilator lint_on UNUSEDSIGNAL */

  assign is_req  = s_hdr.info.request;
  assign has_pay = s_hdr.pay_len != 16'd0;

  assign m_req_hdr       = s_hdr;
  assign m_rsp_hdr       = s_hdr;
  assign hdr_ready_side  = is_req ? m_req_hdr_ready : m_rsp_hdr_ready;
  assign m_req_hdr_valid = s_hdr_valid && is_req && (route_in_ready || !has_pay);
  assign m_rsp_hdr_valid = s_hdr_valid && !is_req && (route_in_ready || !has_pay);
  assign s_hdr_ready     = hdr_ready_side && (route_in_ready || !has_pay);

  roce_fifo #(.WIDTH(1), .DEPTH(DEPTH)) u_route (
    .clk       (clk),
    .rst       (rst),
    .in_valid  (s_hdr_valid && hdr_ready_side && has_pay),
    .in_ready  (route_in_ready),
    .in_data   (is_req),
    .out_valid (route_valid),
    .out_ready (s_axis_payload_tvalid && s_axis_payload_tready && s_axis_payload_tlast),
    .out_data  (route_req),
    .count     (route_count)
  );

  assign m_req_axis_payload_tdata  = s_axis_payload_tdata;
  assign m_req_axis_payload_tkeep  = s_axis_payload_tkeep;
  assign m_req_axis_payload_tlast  = s_axis_payload_tlast;
  assign m_rsp_axis_payload_tdata  = s_axis_payload_tdata;
  assign m_rsp_axis_payload_tkeep  = s_axis_payload_tkeep;
  assign m_rsp_axis_payload_tlast  = s_axis_payload_tlast;
  assign m_req_axis_payload_tvalid = s_axis_payload_tvalid && route_valid && route_req;
  assign m_rsp_axis_payload_tvalid = s_axis_payload_tvalid && route_valid && !route_req;
  assign s_axis_payload_tready     = route_valid && (route_req ? m_req_axis_payload_tready
                                                               : m_rsp_axis_payload_tready);

endmodule
