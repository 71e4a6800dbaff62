// roce_comp_timer: the completer's per-QP timers (local ACK timeout and RNR
// wait) as deadlines in a RAM row per QP, checked by a scan.
//
// Row: hi (last PSN of the newest AckReq packet sent, from TC_ARM), una
// (oldest unacknowledged PSN, from TC_UNA / TC_RNR), the timeout exponent,
// an RNR flag and a deadline (cycles, 48 bits, serial comparison).
// The ACK timer runs while PSNs up to hi are not all acknowledged
// (una <= hi) and the QP has a timeout (exponent != 0):
//   TC_ARM  starts it if it was not running;
//   TC_UNA  restarts it (progress, or a resend);
//   TC_RNR  replaces it by an RNR wait of the AETH's RNR time;
// A scan visits one row per operation (bounded work per cycle): an expired
// RNR wait gives texp{rnr=1} and goes back to the ACK timer; an expired ACK
// timer gives texp{rnr=0} and restarts. The completer decides what an expiry
// means (it checks its own state), so an early or spare expiry is harmless.
//
// Timeout: CYC_4US x 2^timeout cycles, CYC_4US = 4.096 us at CLK_HZ; RNR:
// units of 10 us (roce_req_pkg::rnr_units) x CYC_10US. Each operation takes 2
// cycles (read, write); commands and the scan alternate when both wait, so
// a row is checked at least every 4 x NQP cycles.
`default_nettype none

module roce_comp_timer #(
  parameter int      NQP    = 256,
  parameter longint  CLK_HZ = 250_000_000,
  parameter int      QAW    = $clog2(NQP)
) (
  input  wire logic                    clk,
  input  wire logic                    rst,
  input  wire logic                    qp_reset,
  input  wire logic [23:0]             qp_reset_qpn,
  // arms from the requester, commands from the completer
  input  wire logic                    s_arm_valid,
  output logic                         s_arm_ready,
  input  wire roce_req_pkg::tcmd_t     s_arm,
  input  wire logic                    s_tcmd_valid,
  output logic                         s_tcmd_ready,
  input  wire roce_req_pkg::tcmd_t     s_tcmd,
  // expiries to the completer
  output logic                         m_texp_valid,
  input  wire logic                    m_texp_ready,
  output roce_req_pkg::texp_t          m_texp
);
  localparam longint CYC_4US  = (CLK_HZ * 4096) / 1_000_000_000;
  localparam longint CYC_10US = CLK_HZ / 100_000;

  if (CYC_4US < 1 || CYC_10US < 1) begin : g_bad_clk
    $error("roce_comp_timer: CLK_HZ too low");
  end
  if ((1 << QAW) != NQP) begin : g_bad_nqp
    $error("roce_comp_timer: NQP must be a power of two");
  end

  typedef struct packed {
    logic         hi_v;
    logic [23:0]  hi;
    logic         una_v;
    logic [23:0]  una;
    logic [4:0]   texp;
    logic         rnr;
    logic [47:0]  dl;
  } trow_t;
  localparam int TROW_W = 1 + 24 + 1 + 24 + 5 + 1 + 48;

  typedef enum logic [1:0] {
    S_INIT = 2'd0,
    S_IDLE = 2'd1,
    S_OP   = 2'd2    // row read: compute and write
  } state_e;

  typedef enum logic [1:0] {
    O_CMD  = 2'd0,
    O_SCAN = 2'd1,
    O_NOP  = 2'd2   // command for a QPN outside the table
  } op_e;

  state_e              st_q, st_d;
  logic [QAW-1:0]      init_q, init_d;
  logic [47:0]         now_q, now_d;
  logic [QAW-1:0]      scan_q, scan_d;
  logic                last_scan_q, last_scan_d;   // fairness
  op_e                 op_q, op_d;
  roce_req_pkg::tcmd_t cmd_q, cmd_d;
  logic [QAW-1:0]      q_q, q_d;

  logic                tr_we, tr_re;
  logic [QAW-1:0]      tr_waddr, tr_raddr;
  trow_t               tr_wdata, tr_rdata;

  logic                tx_push, tx_in_ready;
  roce_req_pkg::texp_t tx_in;
  // FIFO occupancy (count) is not needed, nor the in_ready of the QP reset
  // queues (resets are register writes, far apart: the queue never fills)
  /* verilator lint_off PINCONNECTEMPTY */
  roce_fifo #(.WIDTH(roce_req_pkg::TEXP_W), .DEPTH(4)) u_texp_q (
    .clk, .rst, .in_valid(tx_push), .in_ready(tx_in_ready), .in_data(tx_in),
    .out_valid(m_texp_valid), .out_ready(m_texp_ready), .out_data(m_texp), .count()
  );

  logic        rq_valid, rq_ready;
  logic [23:0] rq_qpn;
  roce_fifo #(.WIDTH(24), .DEPTH(16)) u_rst_q (
    .clk, .rst,
    .in_valid(qp_reset), .in_ready(), .in_data(qp_reset_qpn),
    .out_valid(rq_valid), .out_ready(rq_ready), .out_data(rq_qpn), .count()
  );

  function automatic logic [47:0] tmo_cycles(input logic [4:0] texp);
    tmo_cycles = 48'(CYC_4US) << texp;
  endfunction

  // rows ACK-timer running
  function automatic logic outst(input logic hi_v, input logic [23:0] hi, input logic una_v,
                                 input logic [23:0] una);
    outst = hi_v && (!una_v || !roce_req_pkg::psn_lt(hi, una));
  endfunction

  trow_t       r;        // the row being updated (module level for Yosys 0.23)
  logic        was, is;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [47:0] dd;       // now - deadline: only its sign is needed
  /* verilator lint_on UNUSEDSIGNAL */
  logic        due;
  always_comb begin
    st_d        = st_q;
    init_d      = init_q;
    now_d       = now_q + 48'd1;
    scan_d      = scan_q;
    last_scan_d = last_scan_q;
    op_d        = op_q;
    cmd_d       = cmd_q;
    q_d         = q_q;
    rq_ready     = 1'b0;
    s_arm_ready  = 1'b0;
    s_tcmd_ready = 1'b0;
    tx_push      = 1'b0;
    tx_in.rnr    = tr_rdata.rnr;
    tx_in.qpn    = 24'(q_q);
    tr_we    = 1'b0;
    tr_waddr = q_q;
    tr_wdata = tr_rdata;
    tr_re    = 1'b0;
    tr_raddr = scan_q;
    r   = tr_rdata;
    was = 1'b0;
    is  = 1'b0;
    dd  = now_q - tr_rdata.dl;
    due = !dd[47];

    unique case (st_q)
      S_INIT: begin
        tr_we    = 1'b1;
        tr_waddr = init_q;
        tr_wdata = '0;
        init_d   = init_q + QAW'(1);
        if (init_q == QAW'(NQP - 1)) st_d = S_IDLE;
      end

      S_IDLE: begin
        if (rq_valid) begin
          rq_ready = 1'b1;
          tr_we    = rq_qpn[23:QAW] == '0;
          tr_waddr = rq_qpn[QAW-1:0];
          tr_wdata = '0;
        end else if ((s_tcmd_valid || s_arm_valid) && last_scan_q) begin
          // a command (the completer's first)
          if (s_tcmd_valid) begin
            s_tcmd_ready = 1'b1;
            cmd_d        = s_tcmd;
          end else begin
            s_arm_ready = 1'b1;
            cmd_d       = s_arm;
          end
          q_d         = s_tcmd_valid ? s_tcmd.qpn[QAW-1:0] : s_arm.qpn[QAW-1:0];
          tr_raddr    = q_d;
          tr_re       = 1'b1;
          op_d        = ((s_tcmd_valid ? s_tcmd.qpn[23:QAW] : s_arm.qpn[23:QAW]) == '0) ? O_CMD : O_NOP;
          last_scan_d = 1'b0;
          st_d        = S_OP;
        end else begin
          q_d         = scan_q;
          tr_raddr    = scan_q;
          tr_re       = 1'b1;
          scan_d      = scan_q + QAW'(1);
          op_d        = O_SCAN;
          last_scan_d = 1'b1;
          st_d        = S_OP;
        end
      end

      S_OP: begin
        st_d = S_IDLE;
        if (op_q == O_CMD) begin
          was = outst(r.hi_v, r.hi, r.una_v, r.una);
          unique case (cmd_q.kind)
            roce_req_pkg::TC_ARM: begin
              r.texp = cmd_q.texp;
              if (!r.hi_v || roce_req_pkg::psn_lt(r.hi, cmd_q.psn)) begin
                r.hi_v = 1'b1;
                r.hi   = cmd_q.psn;
              end
              if (!was && !r.rnr) r.dl = now_q + tmo_cycles(cmd_q.texp);
            end
            roce_req_pkg::TC_RNR: begin
              r.una_v = 1'b1;
              r.una   = cmd_q.psn;
              r.rnr   = 1'b1;
              r.dl    = now_q + 48'(roce_req_pkg::rnr_units(cmd_q.rnr)) * 48'(CYC_10US);
            end
            default: begin   // TC_UNA
              r.una_v = 1'b1;
              r.una   = cmd_q.psn;
              is      = outst(r.hi_v, r.hi, 1'b1, cmd_q.psn);
              if (is && !r.rnr) r.dl = now_q + tmo_cycles(r.texp);
            end
          endcase
          tr_we    = 1'b1;
          tr_wdata = r;
        end else if (op_q == O_SCAN) begin
          if (r.rnr && due) begin
            if (tx_in_ready) begin
              tx_push  = 1'b1;
              r.rnr    = 1'b0;
              r.dl     = now_q + tmo_cycles(r.texp);
              tr_we    = 1'b1;
              tr_wdata = r;
            end
          end else if (!r.rnr && r.texp != '0 && outst(r.hi_v, r.hi, r.una_v, r.una) && due) begin
            if (tx_in_ready) begin
              tx_push  = 1'b1;
              r.dl     = now_q + tmo_cycles(r.texp);
              tr_we    = 1'b1;
              tr_wdata = r;
            end
          end
        end
      end

      default: st_d = S_IDLE;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q        <= S_INIT;
      init_q      <= '0;
      now_q       <= '0;
      scan_q      <= '0;
      last_scan_q <= 1'b0;
      op_q        <= O_SCAN;
      cmd_q       <= '0;
      q_q         <= '0;
    end else begin
      st_q        <= st_d;
      init_q      <= init_d;
      now_q       <= now_d;
      scan_q      <= scan_d;
      last_scan_q <= last_scan_d;
      op_q        <= op_d;
      cmd_q       <= cmd_d;
      q_q         <= q_d;
    end
  end

  roce_ram_sdp #(.WIDTH(TROW_W), .DEPTH(NQP)) u_rows (
    .clk, .wr_en(tr_we), .wr_addr(tr_waddr), .wr_data(tr_wdata),
    .rd_en(tr_re), .rd_addr(tr_raddr), .rd_data(tr_rdata)
  );

  /* verilator lint_on PINCONNECTEMPTY */

endmodule
