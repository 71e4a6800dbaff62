// cc_np: DCQCN notification point. For each received RoCE packet (its ECN CE bit
// and destination QP), request a CNP for that QP when the packet is CE-marked and
// no CNP was requested for the QP in the last interval (cfg_int_cyc, 4 us default).
//
// Per-QP row in a block RAM (roce_ram_sdp): a valid bit and the cycle from which
// the next CNP may go (deadline, 32 bits, serial compare). CE-marked packets are
// stamped and queued (16 deep); one engine takes one at a time:
//   ISSUE  the oldest marked packet; the row is read
//   RD     (RAM read)
//   LATCH  the row registered
//   DECIDE due = !valid || stamp - deadline >= 0 (signed); due: the CNP request
//          goes to the output FIFO (waiting while it is full) and the row gets
//          deadline = stamp + interval
// 4 cycles a marked packet, so a run of back-to-back marked packets longer than
// the queue loses some (counted in cnt_dropped; a later marked packet of the same
// QP brings the CNP anyway). Packets for a QP number >= NQP are counted as
// marked and dropped (cnt_dropped).
`default_nettype none

module cc_np #(
  parameter int NQP = 256,
  parameter int QAW = $clog2(NQP)
) (
  input  wire logic        clk,
  input  wire logic        rst,
  input  wire logic [31:0] cfg_int_cyc,
  // received RoCE packets
  input  wire logic        pkt_valid,
  input  wire logic        pkt_ce,
  input  wire logic [23:0] pkt_qpn,
  // CNP requests
  output logic             m_cnp_valid,
  input  wire logic        m_cnp_ready,
  output logic [23:0]      m_cnp_qpn,
  // counters
  output logic [31:0]      cnt_ecn_marked,
  output logic [31:0]      cnt_cnp_sent,
  output logic [31:0]      cnt_dropped
);
  if ((1 << QAW) != NQP) begin : g_bad_nqp
    $error("cc_np: NQP must be a power of two");
  end

  localparam int ROW_W = 33;   // {valid, deadline}
  localparam int EV_W  = 24 + 32;

  typedef enum logic [2:0] {S_INIT, S_ISSUE, S_RD, S_LATCH, S_DECIDE} st_e;

  logic        in_q, in_d;
  logic [23:0] in_qpn_q;
  logic [31:0] now_q;
  logic        evq_ready, ev_valid, ev_pop;
  logic [EV_W-1:0] ev;
  logic        out_valid, out_ready;

  st_e         st_q, st_d;
  logic [QAW-1:0] init_q, init_d, qpn_q, qpn_d;
  logic [31:0] stamp_q, stamp_d;
  logic [ROW_W-1:0] row_q, row_d, rd_data, wr_data;
  logic        rd_en, wr_en;
  logic [QAW-1:0] rd_addr, wr_addr;
  logic [31:0] c_mark_q, c_mark_d, c_sent_q, c_sent_d, c_drop_q, c_drop_d;

  assign in_d = pkt_valid & pkt_ce;

  lib_fifo #(.WIDTH(EV_W), .DEPTH(16)) u_evq (
    .clk, .rst,
    .s_valid(in_q), .s_ready(evq_ready), .s_data({in_qpn_q, now_q}),
    .m_valid(ev_valid), .m_ready(ev_pop), .m_data(ev),
    /* verilator lint_off PINCONNECTEMPTY */
    .count()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  always_comb begin
    st_d = st_q; init_d = init_q; qpn_d = qpn_q; stamp_d = stamp_q; row_d = row_q;
    c_mark_d = c_mark_q + {31'd0, in_q};
    c_sent_d = c_sent_q;
    c_drop_d = c_drop_q + {31'd0, in_q & ~evq_ready};
    ev_pop = 1'b0; out_valid = 1'b0;
    rd_en = 1'b0; rd_addr = ev[32 +: QAW];
    wr_en = 1'b0; wr_addr = qpn_q; wr_data = {1'b1, stamp_q + cfg_int_cyc};
    unique case (st_q)
      S_INIT: begin
        wr_en = 1'b1; wr_addr = init_q; wr_data = '0;
        init_d = init_q + 1'b1;
        if (init_q == QAW'(NQP - 1)) st_d = S_ISSUE;
      end
      S_ISSUE: if (ev_valid) begin
        ev_pop = 1'b1;
        qpn_d = ev[32 +: QAW]; stamp_d = ev[31:0];
        if (ev[55:32+QAW] != '0) begin
          c_drop_d = c_drop_q + 32'd1 + {31'd0, in_q & ~evq_ready};
        end else begin
          rd_en = 1'b1; rd_addr = ev[32 +: QAW];
          st_d = S_RD;
        end
      end
      S_RD: st_d = S_LATCH;
      S_LATCH: begin
        row_d = rd_data;
        st_d = S_DECIDE;
      end
      S_DECIDE: begin
        if (!row_q[32] || !($signed(stamp_q - row_q[31:0]) < 0)) begin
          out_valid = 1'b1;
          if (out_ready) begin
            wr_en = 1'b1;
            c_sent_d = c_sent_q + 32'd1;
            st_d = S_ISSUE;
          end
        end else begin
          st_d = S_ISSUE;
        end
      end
      default: st_d = S_ISSUE;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q <= S_INIT; init_q <= '0; in_q <= 1'b0; now_q <= '0;
      c_mark_q <= '0; c_sent_q <= '0; c_drop_q <= '0;
    end else begin
      st_q <= st_d; init_q <= init_d; in_q <= in_d; now_q <= now_q + 32'd1;
      c_mark_q <= c_mark_d; c_sent_q <= c_sent_d; c_drop_q <= c_drop_d;
    end
    in_qpn_q <= pkt_qpn;
    qpn_q <= qpn_d; stamp_q <= stamp_d; row_q <= row_d;
  end

  roce_ram_sdp #(.WIDTH(ROW_W), .DEPTH(NQP)) u_rows (
    .clk, .wr_en, .wr_addr, .wr_data, .rd_en, .rd_addr, .rd_data
  );

  // CNP requests leave through a FIFO: valid and data from flip-flops
  /* verilator lint_off PINCONNECTEMPTY */
  lib_fifo #(.WIDTH(24), .DEPTH(4)) u_outq (
    .clk, .rst,
    .s_valid(out_valid), .s_ready(out_ready), .s_data(24'(qpn_q)),
    .m_valid(m_cnp_valid), .m_ready(m_cnp_ready), .m_data(m_cnp_qpn), .count()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  assign cnt_ecn_marked = c_mark_q;
  assign cnt_cnp_sent   = c_sent_q;
  assign cnt_dropped    = c_drop_q;
endmodule
