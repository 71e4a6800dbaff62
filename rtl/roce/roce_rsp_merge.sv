// roce_rsp_merge: the completer's register slice for response headers, which
// merges plain ACKs of one QP (roce_comp, docs/transport.md).
//
// A main register (the output) and a skid register, s_ready from a flip-flop
// ("the skid is empty"), as lib_skid. When both hold a plain ACK (s_pack: an
// ACK with no payload, for a QP of the table) of the same QP, the skid's not
// older than the main's, and the main one is not being taken, the skid's
// replaces it: an ACK acknowledges every PSN before its own, so taking only
// the later one is taking both. While the completer is busy its ACKs then
// queue as one, and it retires their WQEs in one event.
// The compare is registered (eq_q) and stands while neither register changed
// at the last edge (chg_q), so a merge starts from flip-flops; one can follow
// every other cycle. "Not older": the sign of the PSNs' difference in their
// low 12 bits (two ACKs of one QP this close in time are within 2^11 PSNs of
// each other; were they not, the merge would keep the older one, and the
// completer would resend after its ACK timeout: nothing wrong is retired).
`default_nettype none

module roce_rsp_merge #(
  parameter int WIDTH = 142,   // the header as the completer keeps it
  parameter int QAW   = 8
) (
  input  wire logic             clk,
  input  wire logic             rst,
  input  wire logic             s_valid,
  output logic                  s_ready,
  input  wire logic [WIDTH-1:0] s_data,
  input  wire logic             s_pack,    // a plain ACK (may merge)
  input  wire logic [QAW-1:0]   s_qpn,     // its QP (with s_pack)
  input  wire logic [11:0]      s_psn,     // its PSN's low bits (with s_pack)
  output logic                  m_valid,
  input  wire logic             m_ready,
  output logic [WIDTH-1:0]      m_data
);
  typedef struct packed {
    logic             pack;
    logic [QAW-1:0]   qpn;
    logic [11:0]      psn;
    logic [WIDTH-1:0] data;
  } ent_t;

  ent_t rm_q, rm_d, rs_q, rs_d, in;
  logic rm_v_q, rm_v_d, rs_v_q, rs_v_d, eq_q, eq_d, chg_q, chg_d, merge;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [11:0] dpsn;   // its sign
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    in.pack = s_pack;
    in.qpn  = s_qpn;
    in.psn  = s_psn;
    in.data = s_data;
    s_ready = !rs_v_q;
    m_valid = rm_v_q;
    m_data  = rm_q.data;
    merge   = rm_v_q && rs_v_q && eq_q && !chg_q;   // (a take goes first: below)
    rm_v_d  = rm_v_q;
    rm_d    = rm_q;
    rs_v_d  = rs_v_q;
    rs_d    = rs_q;
    if (m_ready || !rm_v_q) begin
      if (rs_v_q) begin
        rm_d   = rs_q;
        rm_v_d = 1'b1;
        rs_v_d = 1'b0;
      end else begin
        rm_d   = in;
        rm_v_d = s_valid;
      end
    end else if (merge) begin
      rm_d   = rs_q;
      rs_v_d = 1'b0;
    end else if (s_valid && !rs_v_q) begin
      rs_d   = in;
      rs_v_d = 1'b1;
    end
    dpsn  = rs_q.psn - rm_q.psn;
    eq_d  = rm_q.pack && rs_q.pack && rm_q.qpn == rs_q.qpn && !dpsn[11];
    // either register may change at this edge
    chg_d = m_ready || !rm_v_q || !rs_v_q || merge;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      rm_v_q <= 1'b0;
      rs_v_q <= 1'b0;
      chg_q  <= 1'b1;
    end else begin
      rm_v_q <= rm_v_d;
      rs_v_q <= rs_v_d;
      chg_q  <= chg_d;
    end
    rm_q <= rm_d;
    rs_q <= rs_d;
    eq_q <= eq_d;
  end

`ifndef SYNTHESIS
  // a merge replaces a plain ACK of a QP by a later one of the same QP
  always_ff @(posedge clk) begin
    if (!rst && merge && !m_ready)
      assert (rm_q.pack && rs_q.pack && rm_q.qpn == rs_q.qpn) else $error("roce_rsp_merge: merged unlike headers");
  end
`endif

endmodule
