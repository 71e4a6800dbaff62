// roce_tx_mux: merges the TX header channels and payload streams of the
// responder (ACKs, NAKs, READ responses, atomic ACKs) and the requester into
// the one header channel + payload stream of the TX path, whole packets.
//
// Headers are granted one at a time; a granted header whose packet carries
// payload (opcode table: has_payload, pay_len != 0) queues its source in a
// route FIFO, and the payload stream forwards that source's payload up to its
// tlast. So the next header can be granted while the previous payload still
// flows (roce_tx_build takes a header during the last payload beat of the
// packet before: no bubbles). Priority: the responder, but after RESP_BURST
// responder headers in a row granted while the requester waited, the
// requester gets one (no starvation either way). The choice is held while
// m_hdr_valid waits for m_hdr_ready.
`default_nettype none

module roce_tx_mux #(
  parameter int RESP_BURST  = 4,   // responder packets in a row while the requester waits
  parameter int ROUTE_DEPTH = 8    // headers granted ahead of their payload (power of two)
) (
  input  wire logic                        clk,
  input  wire logic                        rst,
  // responder
  input  wire logic                        s_resp_hdr_valid,
  output logic                             s_resp_hdr_ready,
  input  wire roce_qp_pkg::qp_tx_hdr_t     s_resp_hdr,
  input  wire logic [roce_pkg::DATA_W-1:0] s_axis_resp_payload_tdata,
  input  wire logic [roce_pkg::KEEP_W-1:0] s_axis_resp_payload_tkeep,
  input  wire logic                        s_axis_resp_payload_tvalid,
  output logic                             s_axis_resp_payload_tready,
  input  wire logic                        s_axis_resp_payload_tlast,
  // requester
  input  wire logic                        s_req_hdr_valid,
  output logic                             s_req_hdr_ready,
  input  wire roce_qp_pkg::qp_tx_hdr_t     s_req_hdr,
  input  wire logic [roce_pkg::DATA_W-1:0] s_axis_req_payload_tdata,
  input  wire logic [roce_pkg::KEEP_W-1:0] s_axis_req_payload_tkeep,
  input  wire logic                        s_axis_req_payload_tvalid,
  output logic                             s_axis_req_payload_tready,
  input  wire logic                        s_axis_req_payload_tlast,
  // merged
  output logic                             m_hdr_valid,
  input  wire logic                        m_hdr_ready,
  output roce_qp_pkg::qp_tx_hdr_t          m_hdr,
  output logic [roce_pkg::DATA_W-1:0]      m_axis_payload_tdata,
  output logic [roce_pkg::KEEP_W-1:0]      m_axis_payload_tkeep,
  output logic                             m_axis_payload_tvalid,
  input  wire logic                        m_axis_payload_tready,
  output logic                             m_axis_payload_tlast
);
  localparam int SW = $clog2(RESP_BURST + 1);

  logic          lock_q, lock_d;      // a header is offered and not yet taken
  logic          lsel_q, lsel_d;      // its source (1 = requester)
  logic [SW-1:0] streak_q, streak_d;  // responder grants while the requester waited
  logic          sel;
  logic          rt_push, rt_in_ready, rt_valid, rt_pop, rt_out;
  roce_pkg::tx_hdr_t       th;
  /* verilator lint_off UNUSEDSIGNAL */
  roce_pkg::opcode_info_t  info;      // only has_payload is needed here
  /* verilator lint_on UNUSEDSIGNAL */

  // FIFO occupancy (count) is not needed, nor the in_ready of the QP reset
  // queues (resets are register writes, far apart: the queue never fills)
  /* verilator lint_off PINCONNECTEMPTY */
  roce_fifo #(.WIDTH(1), .DEPTH(ROUTE_DEPTH)) u_route (
    .clk, .rst, .in_valid(rt_push), .in_ready(rt_in_ready), .in_data(sel),
    .out_valid(rt_valid), .out_ready(rt_pop), .out_data(rt_out), .count()
  );

  always_comb begin
    if (lock_q)                sel = lsel_q;
    else if (!s_resp_hdr_valid) sel = 1'b1;
    else if (!s_req_hdr_valid)  sel = 1'b0;
    else                       sel = streak_q >= SW'(RESP_BURST);

    m_hdr            = sel ? s_req_hdr : s_resp_hdr;
    m_hdr_valid      = (sel ? s_req_hdr_valid : s_resp_hdr_valid) && rt_in_ready;

  end

  assign s_req_hdr_ready  = sel && m_hdr_ready && rt_in_ready;
  assign s_resp_hdr_ready = !sel && m_hdr_ready && rt_in_ready;

  always_comb begin
    th      = m_hdr.roce;
    info    = roce_pkg::roce_opcode_info(th.hdr.bth.opcode);
    rt_push = m_hdr_valid && m_hdr_ready && info.has_payload && th.pay_len != '0;
  end

  always_comb begin
    lock_d   = m_hdr_valid && !m_hdr_ready;
    lsel_d   = sel;
    streak_d = streak_q;
    if (m_hdr_valid && m_hdr_ready) begin
      if (sel)                  streak_d = '0;
      else if (s_req_hdr_valid && streak_q < SW'(RESP_BURST)) streak_d = streak_q + SW'(1);
    end
  end

  always_comb begin
    // payload of the oldest granted packet
    m_axis_payload_tdata       = rt_out ? s_axis_req_payload_tdata : s_axis_resp_payload_tdata;
    m_axis_payload_tkeep       = rt_out ? s_axis_req_payload_tkeep : s_axis_resp_payload_tkeep;
    m_axis_payload_tlast       = rt_out ? s_axis_req_payload_tlast : s_axis_resp_payload_tlast;
    m_axis_payload_tvalid      = rt_valid && (rt_out ? s_axis_req_payload_tvalid : s_axis_resp_payload_tvalid);
  end
  assign s_axis_req_payload_tready  = rt_valid && rt_out && m_axis_payload_tready;
  assign s_axis_resp_payload_tready = rt_valid && !rt_out && m_axis_payload_tready;
  assign rt_pop = m_axis_payload_tvalid && m_axis_payload_tready && m_axis_payload_tlast;

  always_ff @(posedge clk) begin
    if (rst) begin
      lock_q   <= 1'b0;
      lsel_q   <= 1'b0;
      streak_q <= '0;
    end else begin
      lock_q   <= lock_d;
      lsel_q   <= lsel_d;
      streak_q <= streak_d;
    end
  end

  /* verilator lint_on PINCONNECTEMPTY */

endmodule
