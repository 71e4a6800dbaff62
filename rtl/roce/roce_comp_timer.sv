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
// units of 10 us (roce_req_pkg::rnr_units) x CYC_10US.
//
// Cycle plan (a pipelined read-modify-write, every decision from flip-flops):
//   S_WR  issue: a QP reset, else a command (arm or completer command, from
//         register slices), else the scan; the row is read. In the same
//         cycle the previous operation's row is written back (and its expiry
//         pushed) from the registered row and flags of S_RD.
//   S_RD  the row (RAM output; the row S_WR just wrote when it read that
//         row) registered, with what the write-back needs: the PSN compares
//         (ACK timer running, hi < the command's PSN), the deadline check and
//         the three candidate deadlines (now + the row's timeout, now + the
//         command's timeout, now + the RNR wait).
// One operation every 2 cycles (S_RD, S_WR); commands and the scan
// alternate when both wait, so a row is checked at least every 4 x NQP
// cycles. A command is written 4 cycles after it leaves its register slice.
// Merging: behind each register slice a command waits in a hold register
// (ma: arms, mt: the completer's) until an operation takes it; a command of
// the same QP arriving meanwhile replaces it when both are TC_ARM (the newest
// AckReq PSN: hi is the newest arm's) or both TC_UNA (the newest oldest
// unacknowledged PSN, restarted from then), so that a QP sending small
// messages back to back costs one operation per arm or ACK burst, not per
// message (at one command every 4 cycles the timer bounded a QP to 8 cycles
// a message: an arm and an UNA each). A TC_RNR never merges (nor is merged
// into): per source, commands stay in order.
// Expiries leave through a lib_fifo (valid and data from flip-flops).
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
    S_RD   = 2'd1,   // the row (RAM output) registered, with the compares on it
    S_WR   = 2'd2    // the row written back; the next operation issued
  } state_e;

  typedef enum logic [1:0] {
    O_CMD  = 2'd0,
    O_SCAN = 2'd1,
    O_NOP  = 2'd2,   // nothing (a command for a QPN outside the table; after S_INIT)
    O_RST  = 2'd3    // a QP reset: the row cleared
  } op_e;

  state_e              st_q, st_d;
  logic [QAW-1:0]      init_q, init_d;
  logic [47:0]         now_q, now_d;
  logic [47:0]         nowp_q, nowp_d;   // now + 1: in S_RD, the now of S_WR
  logic [QAW-1:0]      scan_q, scan_d;
  logic                last_scan_q, last_scan_d;   // fairness
  op_e                 op_q, op_d;
  roce_req_pkg::tcmd_t cmd_q, cmd_d;
  logic [QAW-1:0]      q_q, q_d;

  logic                tr_we, tr_re;
  logic [QAW-1:0]      tr_waddr, tr_raddr;
  trow_t               tr_wdata, tr_rdata;

  logic                we_q, we_d;     // S_WR wrote
  logic                fa_q, fa_d;     // ... the row it read then

  // the inputs through register slices (their ready from a flip-flop), each
  // with "its QP inside the table" checked before the slice, then a hold
  // register where commands of one QP merge (above): arm_v/arm, tcmd_v/tcmd
  // are the held commands that the operations take
  logic                arm_v, arm_take, tcmd_v, tcmd_take;
  roce_req_pkg::tcmd_t arm, tcmd;
  logic                sa_v, sa_acc, st_v, st_acc;     // slice outputs, taken into the holds
  roce_req_pkg::tcmd_t sa, sc;
  logic                sa_in, sc_in;                   // their QPN inside the table
  lib_skid #(.WIDTH(roce_req_pkg::TCMD_W + 1)) u_arm_slice (
    .clk, .rst, .s_valid(s_arm_valid), .s_ready(s_arm_ready),
    .s_data({s_arm.qpn[23:QAW] == '0, s_arm}),
    .m_valid(sa_v), .m_ready(sa_acc), .m_data({sa_in, sa})
  );
  lib_skid #(.WIDTH(roce_req_pkg::TCMD_W + 1)) u_tcmd_slice (
    .clk, .rst, .s_valid(s_tcmd_valid), .s_ready(s_tcmd_ready),
    .s_data({s_tcmd.qpn[23:QAW] == '0, s_tcmd}),
    .m_valid(st_v), .m_ready(st_acc), .m_data({sc_in, sc})
  );
  // the holds: a slice's command is taken when the hold is empty, being taken
  // by an operation, or holds a command it merges with (same QP inside the
  // table, both TC_ARM / both TC_UNA)
  // The compare of a slice's output with its hold is registered (eq*_q) and
  // stands while neither changed at the last edge (chg*_q: the slice's output
  // reloads when it was empty or taken, the hold when loaded or taken): a
  // merge then starts from flip-flops, and one can follow every other cycle.
  logic                ma_v_q, ma_v_d, ma_in_q, mt_v_q, mt_v_d, mt_in_q;
  roce_req_pkg::tcmd_t ma_q, mt_q;
  logic                eqa_q, eqa_d, eqt_q, eqt_d, chga_q, chga_d, chgt_q, chgt_d;
  logic                same_a, same_t;
  always_comb begin
    eqa_d  = sa_in && ma_in_q && sa.qpn[QAW-1:0] == ma_q.qpn[QAW-1:0] &&
             sa.kind == roce_req_pkg::TC_ARM && ma_q.kind == roce_req_pkg::TC_ARM;
    eqt_d  = sc_in && mt_in_q && sc.qpn[QAW-1:0] == mt_q.qpn[QAW-1:0] &&
             sc.kind == roce_req_pkg::TC_UNA && mt_q.kind == roce_req_pkg::TC_UNA;
    same_a = eqa_q && !chga_q;
    same_t = eqt_q && !chgt_q;
    sa_acc = !ma_v_q || arm_take || same_a;
    st_acc = !mt_v_q || tcmd_take || same_t;
    chga_d = !sa_v || sa_acc || arm_take;
    chgt_d = !st_v || st_acc || tcmd_take;
    ma_v_d = (sa_v && sa_acc) || (ma_v_q && !arm_take);
    mt_v_d = (st_v && st_acc) || (mt_v_q && !tcmd_take);
    arm_v  = ma_v_q;
    arm    = ma_q;
    tcmd_v = mt_v_q;
    tcmd   = mt_q;
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      ma_v_q <= 1'b0;
      mt_v_q <= 1'b0;
      chga_q <= 1'b1;
      chgt_q <= 1'b1;
    end else begin
      ma_v_q <= ma_v_d;
      mt_v_q <= mt_v_d;
      chga_q <= chga_d;
      chgt_q <= chgt_d;
    end
    eqa_q <= eqa_d;
    eqt_q <= eqt_d;
    if (sa_v && sa_acc) begin
      ma_q    <= sa;
      ma_in_q <= sa_in;
    end
    if (st_v && st_acc) begin
      mt_q    <= sc;
      mt_in_q <= sc_in;
    end
  end

  logic                tx_push, tx_in_ready;
  roce_req_pkg::texp_t tx_in;
  // FIFO occupancy (count) is not needed, nor the in_ready of the QP reset
  // queues (resets are register writes, far apart: the queue never fills)
  /* verilator lint_off PINCONNECTEMPTY */
  lib_fifo #(.WIDTH(roce_req_pkg::TEXP_W), .DEPTH(4)) u_texp_q (
    .clk, .rst, .s_valid(tx_push), .s_ready(tx_in_ready), .s_data(tx_in),
    .m_valid(m_texp_valid), .m_ready(m_texp_ready), .m_data(m_texp), .count()
  );

  logic        rq_valid, rq_ready;
  logic [23:0] rq_qpn;
  lib_fifo #(.WIDTH(24), .DEPTH(16)) u_rst_q (
    .clk, .rst,
    .s_valid(qp_reset), .s_ready(), .s_data(qp_reset_qpn),
    .m_valid(rq_valid), .m_ready(rq_ready), .m_data(rq_qpn), .count()
  );

  function automatic logic [47:0] tmo_cycles(input logic [4:0] texp);
    tmo_cycles = 48'(CYC_4US) << texp;
  endfunction

  // the RNR wait in cycles: a constant per code (no multiplier)
  function automatic logic [47:0] rnr_cycles(input logic [4:0] code);
    rnr_cycles = '0;
    for (int i = 0; i < 32; i++) begin
      if (code == 5'(i)) rnr_cycles = 48'(roce_req_pkg::rnr_units(5'(i))) * 48'(CYC_10US);
    end
  endfunction

  // rows ACK-timer running
  function automatic logic outst(input logic hi_v, input logic [23:0] hi, input logic una_v,
                                 input logic [23:0] una);
    outst = hi_v && (!una_v || !roce_req_pkg::psn_lt(hi, una));
  endfunction

  logic fa_t, fa_a, fa_s;
  always_comb begin
    fa_t = tcmd.qpn[QAW-1:0] == q_q;
    fa_a = arm.qpn[QAW-1:0] == q_q;
    fa_s = scan_q == q_q;
  end

  // ------------------------------------------------ issue (S_INIT, S_WR)
  // S_WR issues the next operation: a QP reset first, else a command when the
  // last one was a scan (commands and the scan alternate when both wait),
  // else the scan.
  always_comb begin
    st_d        = st_q;
    init_d      = init_q;
    now_d       = now_q + 48'd1;
    nowp_d      = nowp_q + 48'd1;
    scan_d      = scan_q;
    last_scan_d = last_scan_q;
    op_d        = op_q;
    cmd_d       = cmd_q;
    q_d         = q_q;
    rq_ready    = 1'b0;
    arm_take    = 1'b0;
    tcmd_take   = 1'b0;
    tr_re       = 1'b0;
    tr_raddr    = scan_q;
    // the row read is the one S_WR writes (q_q): compared per source (only
    // used when the operation issued reads)
    fa_d        = ((tcmd_v || arm_v) && last_scan_q) ? (tcmd_v ? fa_t : fa_a) : fa_s;
    unique case (st_q)
      S_INIT: begin
        init_d = init_q + QAW'(1);
        if (init_q == QAW'(NQP - 1)) begin
          op_d = O_NOP;
          st_d = S_WR;
        end
      end
      S_RD: st_d = S_WR;
      S_WR: begin
        st_d = S_RD;
        if (rq_valid) begin
          rq_ready = 1'b1;
          q_d      = rq_qpn[QAW-1:0];
          op_d     = (rq_qpn[23:QAW] == '0) ? O_RST : O_NOP;
        end else if ((tcmd_v || arm_v) && last_scan_q) begin
          // a command (the completer's first)
          if (tcmd_v) begin
            tcmd_take = 1'b1;
            cmd_d     = tcmd;
          end else begin
            arm_take = 1'b1;
            cmd_d    = arm;
          end
          q_d         = tcmd_v ? tcmd.qpn[QAW-1:0] : arm.qpn[QAW-1:0];
          tr_raddr    = q_d;
          tr_re       = 1'b1;
          op_d        = (tcmd_v ? mt_in_q : ma_in_q) ? O_CMD : O_NOP;
          last_scan_d = 1'b0;
        end else begin
          q_d         = scan_q;
          tr_raddr    = scan_q;
          tr_re       = 1'b1;
          scan_d      = scan_q + QAW'(1);
          op_d        = O_SCAN;
          last_scan_d = 1'b1;
        end
      end
      default: st_d = S_WR;
    endcase
  end

  // ------------------------------------------------ S_RD: the row and the compares on it
  // The row read in S_WR is the old one when S_WR wrote the same row: take
  // what S_WR wrote (wd_q). Everything the write-back needs is computed here
  // and registered (free running: read in S_WR only); deadlines from now + 1
  // (the now of S_WR).
  trow_t       wd_q, wd_d;          // the row S_WR wrote
  trow_t       rw;                  // the row
  trow_t       row_q, row_d;
  logic        was_q, was_d;        // the ACK timer ran (hi not all acknowledged)
  logic        hclt_q, hclt_d;      // hi < the command's PSN
  logic        fire_q, fire_d;      // a scan finds the timer expired
  logic [47:0] dlr_q, dlr_d;        // now + the row's timeout
  logic [47:0] dlc_q, dlc_d;        // now + the command's timeout (TC_ARM)
  logic [47:0] dln_q, dln_d;        // now + the command's RNR wait (TC_RNR)
  logic [47:0] rnrc_q, rnrc_d;      // the RNR wait (cycles) of cmd_q
  /* verilator lint_off UNUSEDSIGNAL */
  logic [47:0] dd;                  // now - deadline: only its sign is needed
  /* verilator lint_on UNUSEDSIGNAL */
  logic        due;
  always_comb begin
    rw     = (we_q && fa_q) ? wd_q : tr_rdata;
    row_d  = rw;
    // the PSN compares on both sources, the choice after them
    was_d  = (we_q && fa_q) ? outst(wd_q.hi_v, wd_q.hi, wd_q.una_v, wd_q.una)
                            : outst(tr_rdata.hi_v, tr_rdata.hi, tr_rdata.una_v, tr_rdata.una);
    hclt_d = (we_q && fa_q) ? roce_req_pkg::psn_lt(wd_q.hi, cmd_q.psn)
                            : roce_req_pkg::psn_lt(tr_rdata.hi, cmd_q.psn);
    dd     = nowp_q - rw.dl;
    due    = !dd[47];
    fire_d = due && (rw.rnr || (rw.texp != '0 && was_d));
    dlr_d  = nowp_q + tmo_cycles(rw.texp);
    dlc_d  = nowp_q + tmo_cycles(cmd_q.texp);
    dln_d  = nowp_q + rnrc_q;
    // from the completer's command slice (TC_RNR comes from there only): the
    // wait of the command S_WR takes (a table of constants, no multiplier)
    rnrc_d = rnr_cycles(tcmd.rnr);
  end

  // ------------------------------------------------ S_WR: the row written back
  trow_t r;                          // the new row
  always_comb begin
    r       = row_q;
    tr_we   = 1'b0;
    tx_push = 1'b0;
    tx_in.rnr = row_q.rnr;
    tx_in.qpn = 24'(q_q);
    if (st_q == S_WR) begin
      unique case (op_q)
        O_CMD: begin
          tr_we = 1'b1;
          unique case (cmd_q.kind)
            roce_req_pkg::TC_ARM: begin
              r.texp = cmd_q.texp;
              if (!row_q.hi_v || hclt_q) begin
                r.hi_v = 1'b1;
                r.hi   = cmd_q.psn;
              end
              if (!was_q && !row_q.rnr) r.dl = dlc_q;
            end
            roce_req_pkg::TC_RNR: begin
              r.una_v = 1'b1;
              r.una   = cmd_q.psn;
              r.rnr   = 1'b1;
              r.dl    = dln_q;
            end
            default: begin   // TC_UNA: restart on progress while PSNs up to hi are out
              r.una_v = 1'b1;
              r.una   = cmd_q.psn;
              if (row_q.hi_v && !hclt_q && !row_q.rnr) r.dl = dlr_q;
            end
          endcase
        end
        O_SCAN: begin
          // an expired RNR wait goes back to the ACK timer; an expired ACK
          // timer restarts
          if (fire_q && tx_in_ready) begin
            tx_push = 1'b1;
            tr_we   = 1'b1;
            r.rnr   = 1'b0;
            r.dl    = dlr_q;
          end
        end
        O_RST: begin
          tr_we = 1'b1;
          r     = '0;
        end
        default: ;
      endcase
    end
    tr_waddr = q_q;
    tr_wdata = r;
    if (st_q == S_INIT) begin
      tr_we    = 1'b1;
      tr_waddr = init_q;
      tr_wdata = '0;
    end
    wd_d = tr_wdata;
    we_d = tr_we;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q        <= S_INIT;
      init_q      <= '0;
      now_q       <= '0;
      nowp_q      <= 48'd1;
      scan_q      <= '0;
      last_scan_q <= 1'b0;
      op_q        <= O_NOP;
      cmd_q       <= '0;
      q_q         <= '0;
      we_q        <= 1'b0;
    end else begin
      st_q        <= st_d;
      init_q      <= init_d;
      now_q       <= now_d;
      nowp_q      <= nowp_d;
      scan_q      <= scan_d;
      last_scan_q <= last_scan_d;
      op_q        <= op_d;
      cmd_q       <= cmd_d;
      q_q         <= q_d;
      we_q        <= we_d;
    end
    wd_q   <= wd_d;
    fa_q   <= fa_d;
    row_q  <= row_d;
    was_q  <= was_d;
    hclt_q <= hclt_d;
    fire_q <= fire_d;
    dlr_q  <= dlr_d;
    dlc_q  <= dlc_d;
    dln_q  <= dln_d;
    rnrc_q <= rnrc_d;
  end

  roce_ram_sdp #(.WIDTH(TROW_W), .DEPTH(NQP)) u_rows (
    .clk, .wr_en(tr_we), .wr_addr(tr_waddr), .wr_data(tr_wdata),
    .rd_en(tr_re), .rd_addr(tr_raddr), .rd_data(tr_rdata)
  );

  /* verilator lint_on PINCONNECTEMPTY */

endmodule
