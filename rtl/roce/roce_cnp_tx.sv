// roce_cnp_tx: turns the notification point's CNP requests (cc_np: a QP
// number) into CNP headers for the TX mux (docs/cc.md, "The notification
// point in the datapath").
//
// One request at a time, on a read port of its own of the QP context table:
//   IDLE   a request is taken (s_cnp_ready from the state register) and its
//          QP's context read
//   RD     (RAM read)
//   LATCH  the context registered
//   BUILD  a QP in RTS: the header goes to the output register (a CNP: BTH
//          opcode 0x81, BECN, DestQP the QP's remote QPN, PSN 0, P_Key 0xFFFF,
//          no payload; roce_tx_build writes its 16 reserved bytes as zeros and
//          roce_tx_prefix leaves it not ECT), the peer's IP and MAC and the
//          QP's UDP source port from the context; any other state: counted in
//          cnt_drop (a QP not in RTS has no peer to tell)
//   OUT    until the mux takes the header (m_hdr_valid and m_hdr from flip-flops)
// So 4 cycles a CNP plus the mux's wait: CNPs go at most once per QP per
// interval (cc_np), far below this rate.
`default_nettype none

module roce_cnp_tx #(
  parameter int NQP = 256,
  parameter int QW  = $clog2(NQP)
) (
  input  wire logic                          clk,
  input  wire logic                          rst,
  // CNP requests (cc_np)
  input  wire logic                          s_cnp_valid,
  output logic                               s_cnp_ready,
  input  wire logic [QW-1:0]                 s_cnp_qpn,
  // the QP context table's read port
  output logic                               ctx_rd_en,
  output logic [QW-1:0]                      ctx_rd_qpn,
  input  wire roce_qp_pkg::qp_ctx_t          ctx_rd,
  // CNP headers to the TX mux
  output logic                               m_hdr_valid,
  input  wire logic                          m_hdr_ready,
  output roce_qp_pkg::qp_tx_hdr_t            m_hdr,
  // counters
  output logic [31:0]                        cnt_sent,
  output logic [31:0]                        cnt_drop
);
  typedef enum logic [2:0] {S_IDLE, S_RD, S_LATCH, S_BUILD, S_OUT} st_e;

  st_e                     st_q, st_d;
  roce_qp_pkg::qp_ctx_t    ctx_q, ctx_d;
  roce_qp_pkg::qp_tx_hdr_t hdr_q, hdr_d;
  roce_pkg::tx_hdr_t       t;
  logic [31:0]             c_sent_q, c_sent_d, c_drop_q, c_drop_d;
  logic                    idle_q, out_q;   // st_q == S_IDLE, st_q == S_OUT: the outputs from flip-flops

  always_comb begin
    // the header: wiring of the registered context and constants
    t                   = '0;
    t.hdr.bth.opcode    = roce_pkg::OP_CNP;
    t.hdr.bth.pkey      = 16'hFFFF;
    t.hdr.bth.becn      = 1'b1;
    t.hdr.bth.dqpn      = ctx_q.remote_qpn;
    hdr_d               = hdr_q;
    st_d                = st_q;
    ctx_d               = ctx_q;
    c_sent_d            = c_sent_q;
    c_drop_d            = c_drop_q;
    s_cnp_ready         = idle_q;
    ctx_rd_en           = idle_q && s_cnp_valid;
    ctx_rd_qpn          = s_cnp_qpn;
    unique case (st_q)
      S_IDLE:  if (s_cnp_valid) st_d = S_RD;
      S_RD:    st_d = S_LATCH;
      S_LATCH: begin
        ctx_d = ctx_rd;
        st_d  = S_BUILD;
      end
      S_BUILD: begin
        hdr_d.roce       = t;
        hdr_d.remote_ip  = ctx_q.remote_ip;
        hdr_d.remote_mac = ctx_q.remote_mac;
        hdr_d.udp_sport  = ctx_q.udp_sport;
        if (ctx_q.state == roce_qp_pkg::QPS_RTS) begin
          st_d = S_OUT;
        end else begin
          c_drop_d = c_drop_q + 32'd1;
          st_d     = S_IDLE;
        end
      end
      S_OUT: if (m_hdr_ready) begin
        c_sent_d = c_sent_q + 32'd1;
        st_d     = S_IDLE;
      end
      default: st_d = S_IDLE;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q     <= S_IDLE;
      idle_q   <= 1'b1;
      out_q    <= 1'b0;
      c_sent_q <= '0;
      c_drop_q <= '0;
    end else begin
      st_q     <= st_d;
      idle_q   <= st_d == S_IDLE;
      out_q    <= st_d == S_OUT;
      c_sent_q <= c_sent_d;
      c_drop_q <= c_drop_d;
    end
    ctx_q <= ctx_d;
    hdr_q <= hdr_d;
  end

  assign m_hdr_valid = out_q;
  assign m_hdr       = hdr_q;
  assign cnt_sent    = c_sent_q;
  assign cnt_drop    = c_drop_q;
endmodule
