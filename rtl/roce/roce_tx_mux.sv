// roce_tx_mux: merges the TX header channels and payload streams of the
// responder (ACKs, NAKs, READ responses, atomic ACKs) and the requester, and
// the header-only CNPs of the notification point (roce_cnp_tx), into the one
// header channel + payload stream of the TX path, whole packets.
//
// Headers are granted one at a time; a granted header whose packet carries
// payload (opcode table: has_payload, pay_len != 0) queues its source in a
// route queue, and the payload stream forwards that source's payload up to its
// tlast. So the next header can be granted while the previous payload still
// flows (roce_tx_build takes a header during the last payload beat of the
// packet before: no bubbles). Priority: the responder, but after RESP_BURST
// responder headers in a row granted while the requester waited, the
// requester gets one (no starvation either way). A CNP goes first of all: it
// waits in its hold register (s_cnp_hdr_ready is "the hold is empty") and
// enters the output register at the next free cycle; CNPs are rare (at most
// one per QP per notification interval), so they delay the others little.
//
// Every output from flip-flops (valid, data and the readies):
//   headers: each input has a hold register; s_*_hdr_ready is "the hold is
//     empty". A header offered with the hold empty is taken: it goes straight
//     to the output register when it wins the grant and the output register
//     is free, else it waits in its hold (no cycle added when it goes
//     straight). The grant is among the holds and the inputs, as the
//     priority above says; a granted header is held in the output register
//     until m_hdr_ready.
//   route: a queue of sources with its head in flip-flops, pushed when a
//     header with payload leaves the output register (a cycle before the
//     TX build can want its payload); a header enters the output register
//     only while the queue has room for it.
//   payload: the route's head source's stream, through a register slice
//     (lib_skid): its tready is the slice's registered ready and the head.
//     One cycle from a payload input to the output.
`default_nettype none

module roce_tx_mux #(
  parameter int RESP_BURST  = 4,   // responder packets in a row while the requester waits
  parameter int ROUTE_DEPTH = 8    // headers granted ahead of their payload
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
  // CNPs (header only)
  input  wire logic                        s_cnp_hdr_valid,
  output logic                             s_cnp_hdr_ready,
  input  wire roce_qp_pkg::qp_tx_hdr_t     s_cnp_hdr,
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
  localparam int PW = roce_pkg::DATA_W + roce_pkg::KEEP_W + 1;
  localparam int RD = ROUTE_DEPTH;

  // the packet of a header carries payload (opcode table: has_payload, pay_len != 0)
  roce_pkg::tx_hdr_t      tr, tq;
  /* verilator lint_off UNUSEDSIGNAL */
  roce_pkg::opcode_info_t ir, iq;      // only has_payload is needed here
  /* verilator lint_on UNUSEDSIGNAL */
  logic                   pr, pq;
  always_comb begin
    tr = s_resp_hdr.roce;
    tq = s_req_hdr.roce;
    ir = roce_pkg::roce_opcode_info(tr.hdr.bth.opcode);
    iq = roce_pkg::roce_opcode_info(tq.hdr.bth.opcode);
    pr = ir.has_payload && tr.pay_len != '0;
    pq = iq.has_payload && tq.pay_len != '0;
  end

  // ------------------------------------------------------------ headers
  logic                    hr_v_q, hr_v_d, hq_v_q, hq_v_d;       // holds: responder, requester
  logic                    hr_p_q, hr_p_d, hq_p_q, hq_p_d;       // their payload flags
  roce_qp_pkg::qp_tx_hdr_t hr_q, hr_d, hq_q, hq_d;
  logic                    o_v_q, o_v_d, o_p_q, o_p_d, o_s_q, o_s_d;   // output: valid, payload, source
  roce_qp_pkg::qp_tx_hdr_t o_q, o_d;
  logic [SW-1:0]           streak_q, streak_d;  // responder grants while the requester waited
  logic                    cr_v, cq_v, cr_p, cq_p, sel, adv;
  roce_qp_pkg::qp_tx_hdr_t cr, cq;
  logic                    rt_room, rt_push;
  logic                    hc_v_q, hc_v_d;                       // the CNP hold
  roce_qp_pkg::qp_tx_hdr_t hc_q, hc_d;
  logic                    adv_c, adv_o;                         // the CNP / a data source enters the output

  always_comb begin
    // the candidates: a held header, else the one offered
    cr_v = hr_v_q || s_resp_hdr_valid;
    cq_v = hq_v_q || s_req_hdr_valid;
    cr   = hr_v_q ? hr_q : s_resp_hdr;
    cq   = hq_v_q ? hq_q : s_req_hdr;
    cr_p = hr_v_q ? hr_p_q : pr;
    cq_p = hq_v_q ? hq_p_q : pq;
    if (!cr_v)      sel = 1'b1;
    else if (!cq_v) sel = 1'b0;
    else            sel = streak_q >= SW'(RESP_BURST);
    // the winner enters the output register when it is free and the route has
    // room; a held CNP goes before both
    adv   = (hc_v_q || (sel ? cq_v : cr_v)) && (!o_v_q || m_hdr_ready) && rt_room;
    adv_c = adv && hc_v_q;
    adv_o = adv && !hc_v_q;
  end

  always_comb begin
    o_v_d = o_v_q && !m_hdr_ready;
    o_d   = o_q;
    o_p_d = o_p_q;
    o_s_d = o_s_q;
    if (adv) begin
      o_v_d = 1'b1;
      o_d   = hc_v_q ? hc_q : sel ? cq : cr;
      o_p_d = !hc_v_q && (sel ? cq_p : cr_p);
      o_s_d = sel;
    end
    // an offered header is taken when its hold is empty: held unless it went on
    hr_v_d = hr_v_q ? !(adv_o && !sel) : s_resp_hdr_valid && !(adv_o && !sel);
    hq_v_d = hq_v_q ? !(adv_o && sel) : s_req_hdr_valid && !(adv_o && sel);
    // a CNP always waits a cycle in its hold
    hc_v_d = hc_v_q ? !adv_c : s_cnp_hdr_valid;
    hc_d   = hc_v_q ? hc_q : s_cnp_hdr;
    hr_d   = hr_v_q ? hr_q : s_resp_hdr;
    hq_d   = hq_v_q ? hq_q : s_req_hdr;
    hr_p_d = hr_v_q ? hr_p_q : pr;
    hq_p_d = hq_v_q ? hq_p_q : pq;
    streak_d = streak_q;
    if (adv_o) begin
      if (sel)                         streak_d = '0;
      else if (cq_v && streak_q < SW'(RESP_BURST)) streak_d = streak_q + SW'(1);
    end
  end

  assign s_resp_hdr_ready = !hr_v_q;
  assign s_req_hdr_ready  = !hq_v_q;
  assign s_cnp_hdr_ready  = !hc_v_q;
  assign m_hdr_valid      = o_v_q;
  assign m_hdr            = o_q;

  // ------------------------------------------------------------ route
  // entries 0 .. n-1 valid (rt_v_q a thermometer), entry 0 the head
  logic [RD-1:0] rt_v_q, rt_v_d, rt_s_q, rt_s_d;
  logic          rt_pop;
  always_comb begin
    logic [RD:0] v, s, vp;
    rt_push = o_v_q && m_hdr_ready && o_p_q;
    // room for the header in the output register too (it is pushed when it leaves)
    rt_room = !rt_v_q[RD-2];
    v = {1'b0, rt_v_q};
    s = {1'b0, rt_s_q};
    if (rt_pop) begin
      v = v >> 1;
      s = s >> 1;
    end
    vp = {v[RD-1:0], 1'b1};   // entry i - 1 valid (the head: always)
    for (int i = 0; i < RD; i++) begin
      rt_v_d[i] = v[i] || (rt_push && vp[i]);
      rt_s_d[i] = v[i] ? s[i] : o_s_q;
    end
  end

  // ------------------------------------------------------------ payload
  logic          p_v, p_r;
  logic [PW-1:0] p_d;
  always_comb begin
    p_d = rt_s_q[0] ? {s_axis_req_payload_tdata, s_axis_req_payload_tkeep, s_axis_req_payload_tlast}
                    : {s_axis_resp_payload_tdata, s_axis_resp_payload_tkeep, s_axis_resp_payload_tlast};
    p_v = rt_v_q[0] && (rt_s_q[0] ? s_axis_req_payload_tvalid : s_axis_resp_payload_tvalid);
    rt_pop = p_v && p_r && p_d[0];
  end
  assign s_axis_req_payload_tready  = rt_v_q[0] && rt_s_q[0] && p_r;
  assign s_axis_resp_payload_tready = rt_v_q[0] && !rt_s_q[0] && p_r;

  lib_skid #(.WIDTH(PW)) u_pay (
    .clk, .rst, .s_valid(p_v), .s_ready(p_r), .s_data(p_d),
    .m_valid(m_axis_payload_tvalid), .m_ready(m_axis_payload_tready),
    .m_data({m_axis_payload_tdata, m_axis_payload_tkeep, m_axis_payload_tlast})
  );

  always_ff @(posedge clk) begin
    if (rst) begin
      hr_v_q   <= 1'b0;
      hq_v_q   <= 1'b0;
      hc_v_q   <= 1'b0;
      o_v_q    <= 1'b0;
      streak_q <= '0;
      rt_v_q   <= '0;
    end else begin
      hr_v_q   <= hr_v_d;
      hq_v_q   <= hq_v_d;
      hc_v_q   <= hc_v_d;
      o_v_q    <= o_v_d;
      streak_q <= streak_d;
      rt_v_q   <= rt_v_d;
    end
    hr_q   <= hr_d;
    hq_q   <= hq_d;
    hc_q   <= hc_d;
    hr_p_q <= hr_p_d;
    hq_p_q <= hq_p_d;
    o_q    <= o_d;
    o_p_q  <= o_p_d;
    o_s_q  <= o_s_d;
    rt_s_q <= rt_s_d;
  end

`ifndef SYNTHESIS
  initial begin
    if (ROUTE_DEPTH < 2) $error("roce_tx_mux: ROUTE_DEPTH %0d < 2", ROUTE_DEPTH);
  end
  always_ff @(posedge clk) begin
    // the route never overflows: a header enters the output register only with room
    if (!rst && rt_push && rt_v_q[RD-1] && !rt_pop) $error("roce_tx_mux: route queue overflow");
  end
`endif

endmodule
