// roce_wrgen: the work-request generator of the RC transport
// (docs/transport.md, "Work-request generator"). A second source of send
// WQEs beside the firmware's sq_post: it posts a stream of WRITE, WRITE_IMM,
// SEND, SEND_IMM or READ work requests, all alike (same buffers, keys and
// length), round robin over GEN_NQP QPs at most, as fast as the send queue
// takes them, and consumes its own completions (wr_id bits 63:48 = GEN_TAG;
// roce_transport diverts those CQEs here before the firmware's CQ).
//
// Work request i (0-based) goes to slot s = i mod nqp, QPN qpn + s x stride,
// as that slot's k-th (k = i div nqp); it is signaled when (k + 1) mod
// sig_every == 0 or when it is its QP's last (i + nqp >= total). wr_id:
//   [63:48] GEN_TAG  [47:40] run number  [39:32] slot  [31:0] k
// A completion of slot s, index k, completes every WR of that slot up to k
// (an RC QP completes in order): the completed count moves by k + 1 minus
// what the slot had. Posting waits while max_out WRs are outstanding over
// all QPs or max_out_qp on the slot's QP (at most the SQ depth, so roce_sq
// never refuses a post for a full ring).
//
// A run ends when every WR completed (done), at the first completion with a
// status other than SUCCESS (error: its status and index), on abort (posting
// stops at once; the run ends when every WR posted completed, or at once on a
// second abort; an unsignaled last WR of a QP never completes: then the
// timeout ends it), when a
// QP of the run is reset (written) or when `timeout` cycles pass without a
// post or a completion: nothing waits unbounded. CQEs of an earlier run (a
// different run number) or arriving after the end are dropped.
//
// Figures: the cycle of the first post and of the last completion; in
// latency mode (one WR at a time, each signaled) min, max and sum of the
// post to completion cycles; for BW peak the fewest cycles from the post of
// WR j to the completion of WR j+W-1 (post times kept in a RING-entry RAM, so
// max_out + W <= RING).
//
// Outputs from registers: the WQEs leave through a register slice (lib_skid;
// a WR counts as posted when the slice takes it), the CQEs are registered
// before they are counted, the figures are registers.
//
// Cycle plan (every decision from registers, no wide sum feeding a compare
// in the same cycle):
//   posting: whether a WR may be posted is computed a cycle ahead into two
//     registers, one for the state as it is (no post) and one for the state
//     after a post (the next slot, i + 1, one more outstanding); g_valid
//     picks one by whether the last cycle posted. Completions only loosen
//     the limits, so the figures computed before a completion are at worst
//     a cycle late, never wrong; the first cycle of a run posts nothing.
//     The counts it compares are kept as registers: WRs outstanding over
//     all QPs and per slot (a post adds one, a completion its increment
//     down) with a per-slot flag "at max_out_qp", total - nqp - posted for
//     the last round, sig_every - 1.
//   C1: the CQE registered (cq_*_q); its slot's completed count looked up
//     (forwarded from C2 when C2 updates the same slot) and the
//     post-to-completion latency computed, registered (c2_*_q)
//   C2: the increment (index + 1 - the count), the counts, figures and
//     errors updated; the completion time is C1's
//     (latency and t_last as before); done - window kept as a register
//     (dwin_q) so the BW-peak read address is one add
//   C3: a run whose last WR completed in C2 ends (done_q compared)
`default_nettype none

module roce_wrgen #(
  parameter int SQ_DEPTH = 16,
  parameter int GEN_NQP  = 64,      // QPs of one run at most (<= 256)
  parameter int RING     = 1024,    // post times kept (BW peak)
  parameter logic [15:0] GEN_TAG = 16'hbe6e,
  localparam int SW = $clog2(GEN_NQP),
  localparam int RW = $clog2(RING)
) (
  input  wire logic                clk,
  input  wire logic                rst,
  // configuration (registers; read at start and held during a run)
  input  wire logic [3:0]          cfg_opcode,
  input  wire logic [23:0]         cfg_qpn,
  input  wire logic [7:0]          cfg_nqp,
  input  wire logic [7:0]          cfg_stride,
  input  wire logic [63:0]         cfg_laddr,
  input  wire logic [31:0]         cfg_lkey,
  input  wire logic [63:0]         cfg_raddr,
  input  wire logic [31:0]         cfg_rkey,
  input  wire logic [31:0]         cfg_len,
  input  wire logic [31:0]         cfg_total,
  input  wire logic [15:0]         cfg_max_out,
  input  wire logic [7:0]          cfg_max_out_qp,
  input  wire logic [15:0]         cfg_sig_every,
  input  wire logic [15:0]         cfg_window,
  input  wire logic [31:0]         cfg_timeout,
  input  wire logic                cfg_lat,
  input  wire logic                start,
  input  wire logic                abort,
  // work requests to the send queue
  output logic                     m_wqe_valid,
  input  wire logic                m_wqe_ready,
  output roce_qp_pkg::swqe_t       m_wqe,
  // our completions (always taken)
  input  wire logic                s_cqe_valid,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire roce_qp_pkg::cqe_t   s_cqe,    // wr_id and status are what counts
  /* verilator lint_on UNUSEDSIGNAL */
  // QP table writes (a QP of the run reset under it)
  input  wire logic                qp_reset,
  input  wire logic [23:0]         qp_reset_qpn,
  // results
  output logic [12:0]              status,       // gen_status (regs/roce.toml)
  output logic [31:0]              posted,
  output logic [31:0]              completed,
  output logic [31:0]              err_index,
  output logic [63:0]              t_first,
  output logic [63:0]              t_last,
  output logic [31:0]              lat_min,
  output logic [31:0]              lat_max,
  output logic [63:0]              lat_sum,
  output logic [31:0]              win_min,
  output logic [63:0]              now
);
  if (GEN_NQP < 1 || GEN_NQP > 256 || (1 << SW) != GEN_NQP) begin : g_bad_nqp
    $error("roce_wrgen: GEN_NQP must be a power of two in 1..256");
  end
  if (SQ_DEPTH > 128) begin : g_bad_depth
    $error("roce_wrgen: per-slot counts are 8 bits: SQ_DEPTH <= 128");
  end
  localparam int MAXO = RING / 2;   // max_out and W at most

  typedef enum logic [1:0] {G_IDLE = 2'd0, G_RUN = 2'd1, G_DRAIN = 2'd2} gst_e;

  gst_e          st_q, st_d;
  logic [63:0]   now_q, now_d;
  // run configuration, captured at start
  logic [3:0]    op_q, op_d;
  logic [23:0]   qpn0_q, qpn0_d;
  logic [31:0]   qlast_q, qlast_d;    // the run's last QPN (qp_reset compare)
  logic [8:0]    nqp_q, nqp_d;
  logic [7:0]    stride_q, stride_d;
  logic [63:0]   laddr_q, laddr_d, raddr_q, raddr_d;
  logic [31:0]   lkey_q, lkey_d, rkey_q, rkey_d, len_q, len_d, total_q, total_d, tmo_q, tmo_d;
  logic [31:0]   tm1_q, tm1_d;        // total - 1
  logic [15:0]   maxo_q, maxo_d, sig_q, sig_d, win_q, win_d;
  logic [15:0]   maxom1_q, maxom1_d;  // max_out - 1
  logic [15:0]   sigm1_q, sigm1_d;    // sig_every - 1
  logic [7:0]    maxoq_q, maxoq_d, maxoqm1_q, maxoqm1_d;
  logic          nqp1_q, nqp1_d;      // one QP
  logic          lat_q, lat_d;
  logic [7:0]    run_q, run_d;
  // progress
  logic [31:0]   i_q, i_d;            // WRs posted
  logic [SW-1:0] slot_q, slot_d;      // slot of WR i
  logic [SW-1:0] nslot_q, nslot_d;    // the slot after it
  logic [31:0]   round_q, round_d;    // its index on the slot's QP
  logic [15:0]   sigc_q, sigc_d;      // round mod sig
  logic [23:0]   cqpn_q, cqpn_d;      // QPN of the slot
  logic [31:0]   done_q, done_d;
  logic [15:0]   outst_q, outst_d;    // posted - done (at most max_out <= MAXO)
  logic [32:0]   rem_q, rem_d;        // total - nqp - posted (signed): <= 0 on the last round
  logic [32:0]   dwin_q, dwin_d;      // done - window (signed)
  logic [GEN_NQP*8-1:0] ocnt_q, ocnt_d;   // per slot: outstanding, completed (mod 256), 8 bits each
  logic [GEN_NQP*8-1:0] dcnt_q, dcnt_d;
  logic [GEN_NQP-1:0]   full_q, full_d;   // per slot: max_out_qp outstanding
  logic                 af0_q, af0_d;     // slot 0: max_out_qp - 1 outstanding
  logic [31:0]   ileft_q, ileft_d;    // cycles without progress left before the timeout
  logic [31:0]   left_q, left_d;      // total - done
  logic          dnz_q, dnz_d;        // done != 0
  logic          qr_v_q, qr_v_d, hit_q, hit_d;   // a QP reset, registered; it hits the run
  logic [23:0]   qr_qpn_q, qr_qpn_d;
  // posting allowed next cycle: as the state is (anp), after a post (ap)
  logic          anp_q, anp_d, ap_q, ap_d, posted_q, posted_d, arm_q, arm_d;
  // C3: a completion was counted in C2 (fin), in G_DRAIN (fdr)
  logic          fin_q, fin_d, fdr_q, fdr_d;
  // outst_q == 0, ileft_q == 0 and the run's end: cones of their own, so abc9 maps each
  // shallow (chained together they took 7 LUT levels)
  (* keep *) logic oz_c;
  logic fin_all, tz_q, tz_d;   // tz_q: ileft_q == 0, kept beside it
  logic act_q, act_d;          // st_q != G_IDLE, one flip-flop (a decode less in front of every use)
  // C2's completion leaves nothing to complete (fl), nothing outstanding (fo)
  logic          fl_q, fl_d, fo_q, fo_d;
  // results
  logic [12:0]   stat_q, stat_d;
  logic [31:0]   eidx_q, eidx_d;
  logic [63:0]   tf_q, tf_d, tl_q, tl_d, tpost_q, tpost_d, lsum_q, lsum_d;
  logic [31:0]   lmin_q, lmin_d, lmax_q, lmax_d, wmin_q, wmin_d;
  // BW peak pipeline: post time of WR done-W read this cycle, compared next
  logic          wv_q, wv_d;
  logic [31:0]   wt_q, wt_d;
  logic          ring_we, ring_re;
  logic [RW-1:0] ring_wa, ring_ra;
  logic [31:0]   ring_rd;

  // lat_q && done_q != 0, registered with them (lat_min from registers)
  logic          lmv_q, lmv_d;
  assign lmv_d = lat_d && dnz_d;

  // our completions, registered as they come (always taken)
  logic          cq_v_q;
  logic [47:0]   cq_id_q;             // wr_id[47:0]
  logic [4:0]    cq_st_q;

  // C2: the completion of C1 with its increment, latency and time
  logic          c2_v_q, c2_v_d, c2_ok_q, c2_ok_d;
  logic [4:0]    c2_st_q, c2_st_d;
  logic [SW-1:0] c2_slot_q, c2_slot_d;
  logic [31:0]   c2_k_q, c2_k_d;
  logic [7:0]    c2_dsel_q, c2_dsel_d;   // the slot's completed count (C1's lookup)
  logic [7:0]    c2_inc;                 // the completion's increment
  logic [31:0]   c2_lat_q, c2_lat_d;
  logic [63:0]   c2_t_q, c2_t_d;

  // ---- the next work request (from state only: the ready does not loop back),
  // out through a register slice (m_wqe_valid and m_wqe from registers)
  logic               g_valid, g_ready, go;
  roce_qp_pkg::swqe_t g_wqe;
  lib_skid #(.WIDTH(roce_qp_pkg::SWQE_W)) u_wqe_skid (
    .clk, .rst, .s_valid(g_valid), .s_ready(g_ready), .s_data(g_wqe),
    .m_valid(m_wqe_valid), .m_ready(m_wqe_ready), .m_data(m_wqe)
  );

  logic        sigd;
  always_comb begin
    logic last_round;
    last_round = rem_q[32] || rem_q == 33'd0;   // i + nqp >= total
    sigd       = lat_q || sigc_q == sigm1_q || last_round;
    g_valid    = st_q == G_RUN && arm_q && (posted_q ? ap_q : anp_q);
    go         = g_valid && g_ready;
    g_wqe = {op_q, cqpn_q, laddr_q, lkey_q, raddr_q, rkey_q, len_q, i_q, 64'd0, 64'd0,
             {GEN_TAG, run_q, 8'(slot_q), round_q}, sigd, 1'b0};
  end

  // ---- posting allowed, a cycle ahead: fewer than max_out outstanding over
  // all QPs and max_out_qp on the slot's QP, WRs left to post
  always_comb begin
    anp_d    = i_q != total_q && outst_q < maxo_q && !full_q[slot_q];
    // (one QP: the slot after is the same, with the post counted)
    ap_d     = i_q != tm1_q && outst_q < maxom1_q && (nqp1_q ? !af0_q : !full_q[nslot_q]);
    posted_d = go;
    arm_d    = act_q;
  end

  // ---- C1: the registered CQE's slot count (forwarded from C2) and increment.
  // The slot's count (a GEN_NQP:1 multiplexer) and the forward condition are
  // cones of their own (abc9 otherwise chains the multiplexer behind the compare)
  (* keep *) logic [7:0] c1_cnt;
  (* keep *) logic       c1_fwd;
  always_comb begin
    logic [SW-1:0] slot;
    logic [7:0]    dsel;
    slot      = cq_id_q[32 +: SW];
    c1_cnt    = dcnt_q[8*slot +: 8];
    c1_fwd    = c2_v_q && c2_ok_q && c2_slot_q == slot;
    dsel      = c1_fwd ? c2_k_q[7:0] + 8'd1 : c1_cnt;
    c2_v_d    = cq_v_q && act_q && cq_id_q[47:40] == run_q && {1'b0, cq_id_q[39:32]} < nqp_q;
    c2_ok_d   = cq_st_q == roce_qp_pkg::WC_SUCCESS;
    c2_st_d   = cq_st_q;
    c2_slot_d = slot;
    c2_k_d    = cq_id_q[31:0];
    c2_dsel_d = dsel;
    c2_lat_d  = 32'(now_q - tpost_q);
    c2_t_d    = now_q;
  end

  // ---- the run's configuration, captured at start. bad_q: the configuration
  // registers checked a cycle ahead (the firmware writes them before start)
  logic run_start, bad, bad_q;
  logic [7:0]  mo, mo_q, mom1_q;      // max_out_qp as the run takes it, and minus one (a cycle ahead)
  logic [15:0] mx, mx_q, mxm1_q;      // max_out, the same
  logic        mo1_q;                 // mo_q == 1
  always_comb begin
    run_start = st_q == G_IDLE && start;
    mx  = (cfg_max_out == 16'd0 || cfg_max_out > 16'(MAXO)) ? 16'(MAXO) : cfg_max_out;
    mo  = (cfg_max_out_qp == 8'd0 || cfg_max_out_qp > 8'(SQ_DEPTH)) ? 8'(SQ_DEPTH) : cfg_max_out_qp;
    bad = cfg_opcode > 4'd4 || cfg_nqp == 8'd0 || {1'b0, cfg_nqp} > 9'(GEN_NQP) || cfg_total == 32'd0 ||
          cfg_window == 16'd0 || cfg_window > 16'(MAXO) || cfg_len[31];
    op_d = op_q;   qpn0_d = qpn0_q;  qlast_d = qlast_q;  nqp_d = nqp_q;  stride_d = stride_q;
    laddr_d = laddr_q;  raddr_d = raddr_q;  lkey_d = lkey_q;  rkey_d = rkey_q;  len_d = len_q;
    total_d = total_q;  tm1_d = tm1_q;  tmo_d = tmo_q;  maxo_d = maxo_q;  maxom1_d = maxom1_q;
    sig_d = sig_q;  sigm1_d = sigm1_q;  win_d = win_q;  maxoq_d = maxoq_q;  maxoqm1_d = maxoqm1_q;
    nqp1_d = nqp1_q;  lat_d = lat_q;  run_d = run_q;
    if (run_start) begin
      op_d = cfg_opcode;  qpn0_d = cfg_qpn;  nqp_d = {1'b0, cfg_nqp};  stride_d = cfg_stride;
      qlast_d  = {8'd0, cfg_qpn} + 32'(({23'd0, cfg_nqp} - 32'd1) * {24'd0, cfg_stride});
      laddr_d  = cfg_laddr;  raddr_d = cfg_raddr;  lkey_d = cfg_lkey;  rkey_d = cfg_rkey;  len_d = cfg_len;
      total_d  = cfg_total;  tm1_d = cfg_total - 32'd1;
      tmo_d    = cfg_timeout == 32'd0 ? 32'h0100_0000 : cfg_timeout;
      maxo_d   = cfg_lat ? 16'd1 : mx_q;
      maxom1_d = cfg_lat ? 16'd0 : mxm1_q;
      maxoq_d  = cfg_lat ? 8'd1 : mo_q;
      maxoqm1_d = cfg_lat ? 8'd0 : mom1_q;
      nqp1_d   = cfg_nqp == 8'd1;
      sig_d    = (cfg_lat || cfg_sig_every == 16'd0) ? 16'd1 : cfg_sig_every;
      sigm1_d  = (cfg_lat || cfg_sig_every == 16'd0) ? 16'd0 : cfg_sig_every - 16'd1;
      win_d    = cfg_window;  lat_d = cfg_lat;
      run_d    = run_q + 8'd1;
    end
  end

  // ---- posts (a WR the slice takes)
  always_comb begin
    i_d = i_q;  slot_d = slot_q;  nslot_d = nslot_q;  round_d = round_q;  sigc_d = sigc_q;  cqpn_d = cqpn_q;
    rem_d = rem_q;  tf_d = tf_q;  tpost_d = tpost_q;
    ring_we = 1'b0;  ring_wa = i_q[RW-1:0];
    if (act_q && go) begin
      if (i_q == 32'd0) tf_d = now_q;
      tpost_d = now_q;
      ring_we = 1'b1;
      i_d     = i_q + 32'd1;
      rem_d   = rem_q - 33'd1;
      slot_d  = nslot_q;
      nslot_d = (9'(nslot_q) + 9'd1 == nqp_q) ? '0 : nslot_q + SW'(1);
      if (9'(slot_q) + 9'd1 == nqp_q) begin
        cqpn_d  = qpn0_q;
        round_d = round_q + 32'd1;
        sigc_d  = (sigc_q == sigm1_q) ? 16'd0 : sigc_q + 16'd1;
      end else begin
        cqpn_d = cqpn_q + {16'd0, stride_q};
      end
    end
    if (run_start) begin
      i_d = '0;  slot_d = '0;  nslot_d = (cfg_nqp == 8'd1) ? '0 : SW'(1);
      round_d = '0;  sigc_d = '0;  cqpn_d = cfg_qpn;  tf_d = '0;
      rem_d   = {1'b0, cfg_total} - 33'(cfg_nqp);
    end
  end

  // ---- outstanding WRs, over all QPs and per slot: a post counts one up,
  // a completion its increment down
  always_comb begin
    logic cdone;
    cdone   = c_ours && c2_ok_q;
    outst_d = outst_q + 16'(act_q && go) - (cdone ? 16'(c2_inc) : 16'd0);
    for (int s = 0; s < GEN_NQP; s++) begin
      ocnt_d[8*s +: 8] = ocnt_q[8*s +: 8] + 8'(act_q && go && slot_q == SW'(s)) -
                         ((cdone && c2_slot_q == SW'(s)) ? c2_inc : 8'd0);
      full_d[s] = ocnt_d[8*s +: 8] >= maxoq_q;
    end
    af0_d = ocnt_d[7:0] >= maxoqm1_q;
    if (run_start) begin
      outst_d = '0;
      ocnt_d  = '0;
      full_d  = '0;                  // max_out_qp >= 1
      af0_d   = cfg_lat || mo1_q;   // maxoqm1_d == 0
    end
  end

  // ---- C2: completions counted, their figures
  logic c_ours;
  assign c2_inc = c2_k_q[7:0] + 8'd1 - c2_dsel_q;
  always_comb begin
    logic [32:0] dwin_n;
    c_ours = c2_v_q && act_q;
    dcnt_d = dcnt_q;  done_d = done_q;  dwin_d = dwin_q;  eidx_d = eidx_q;  tl_d = tl_q;
    left_d = left_q;  dnz_d = dnz_q;
    lsum_d = lsum_q;  lmin_d = lmin_q;  lmax_d = lmax_q;
    wv_d = 1'b0;  wt_d = wt_q;  fin_d = 1'b0;  fdr_d = st_q == G_DRAIN;
    // (draining: no post in the same cycle, so outstanding - increment)
    fl_d = left_q[31:8] == 24'd0 && left_q[7:0] == c2_inc;
    fo_d = outst_q[15:8] == 8'd0 && outst_q[7:0] == c2_inc;
    ring_re = 1'b0;  ring_ra = '0;
    dwin_n  = dwin_q + 33'(c2_inc);
    if (c_ours && !c2_ok_q) eidx_d = 32'(c2_k_q * {23'd0, nqp_q}) + 32'(c2_slot_q);
    if (c_ours && c2_ok_q) begin
      dcnt_d[8*c2_slot_q +: 8] = c2_k_q[7:0] + 8'd1;
      done_d = done_q + {24'd0, c2_inc};
      left_d = left_q - {24'd0, c2_inc};
      dnz_d  = dnz_q || c2_inc != 8'd0;
      dwin_d = dwin_n;
      tl_d   = c2_t_q;
      fin_d  = 1'b1;
      if (lat_q) begin
        lsum_d = lsum_q + {32'd0, c2_lat_q};
        if (c2_lat_q < lmin_q) lmin_d = c2_lat_q;
        if (c2_lat_q > lmax_q) lmax_d = c2_lat_q;
      end
      // BW peak: WRs done_n-W .. done_n-1 were posted at or after the post of done_n-W
      if (!dwin_n[32]) begin
        ring_re = 1'b1;
        ring_ra = dwin_n[RW-1:0];
        wv_d    = 1'b1;
        wt_d    = c2_t_q[31:0];
      end
    end
    if (run_start) begin
      dcnt_d = '0;  done_d = '0;  dwin_d = 33'd0 - 33'(cfg_window);
      left_d = cfg_total;  dnz_d = 1'b0;
      eidx_d = '0;  tl_d = '0;  lsum_d = '0;  lmin_d = '1;  lmax_d = '0;
    end
  end

  // ---- the run's state: its end (C3: every WR completed, or, draining,
  // every WR posted), an error, abort, a QP reset, the timeout; each from
  // registers (a QP reset is registered, then compared, then acts: two
  // cycles; the timeout counts down from timeout to 0)
  always_comb begin
    logic err, fin, ab_end, tmo_end;
    qr_v_d   = qp_reset && act_q;
    qr_qpn_d = qp_reset_qpn;
    hit_d    = qr_v_q && act_q && {8'd0, qr_qpn_q} >= {8'd0, qpn0_q} && {8'd0, qr_qpn_q} <= qlast_q;
    st_d     = st_q;
    stat_d   = stat_q;
    now_d    = now_q + 64'd1;
    ileft_d  = ileft_q;
    tz_d     = tz_q;
    act_d    = act_q;
    err      = c_ours && !c2_ok_q;
    fin      = fin_q && (fl_q || (fdr_q && fo_q));
    oz_c     = outst_q == 16'd0;
    ab_end   = abort && (st_q == G_DRAIN || oz_c);
    tmo_end  = tz_q;
    fin_all  = err || fin || ab_end || hit_q || tmo_end;
    if (act_q) begin
      ileft_d = (go || c_ours) ? tmo_q : ileft_q - 32'(!tmo_end);
      // reloads are never 0 (tmo_q, the start value): 0 next when counting down from 1 (or staying at 0)
      tz_d    = !(go || c_ours) && ileft_q[31:1] == 31'd0;
      if (err) begin
        stat_d[2]    = 1'b1;
        stat_d[12:8] = c2_st_q;
      end
      if (abort) stat_d[3] = 1'b1;   // stop posting; wait for what is outstanding (a second abort: at once)
      if (hit_q) stat_d[6] = 1'b1;
      if (tmo_end) stat_d[4] = 1'b1;
      if (fin_all) begin
        st_d      = G_IDLE;
        act_d     = 1'b0;
        stat_d[0] = 1'b0;
        stat_d[1] = 1'b1;
      end else if (abort && st_q == G_RUN) begin
        st_d = G_DRAIN;
      end
    end
    if (run_start) begin
      stat_d  = {5'd0, 1'b0, 1'b0, bad_q, 1'b0, 1'b0, 1'b0, bad_q, !bad_q};
      ileft_d = (cfg_timeout == 32'd0) ? 32'h0100_0000 : cfg_timeout;
      tz_d    = 1'b0;
      if (!bad_q) st_d = G_RUN;
      act_d   = !bad_q;
    end
  end

  // the BW peak: the window's cycles against the fewest so far
  always_comb begin
    logic [31:0] wnd;
    wmin_d = wmin_q;
    wnd    = wt_q - ring_rd;
    if (wv_q && (wmin_q == 32'd0 || wnd < wmin_q)) wmin_d = wnd;
    if (run_start) wmin_d = '0;
  end

  roce_ram_sdp #(.WIDTH(32), .DEPTH(RING)) u_ring (
    .clk, .wr_en(ring_we), .wr_addr(ring_wa), .wr_data(now_q[31:0]),
    .rd_en(ring_re), .rd_addr(ring_ra), .rd_data(ring_rd)
  );

  always_ff @(posedge clk) begin
    if (rst) begin
      cq_v_q <= 1'b0;
      lmv_q  <= 1'b0;
      c2_v_q <= 1'b0;
    end else begin
      cq_v_q <= s_cqe_valid;
      lmv_q  <= lmv_d;
      c2_v_q <= c2_v_d;
    end
    cq_id_q   <= s_cqe.wr_id[47:0];
    cq_st_q   <= s_cqe.status;
    c2_ok_q   <= c2_ok_d;
    c2_st_q   <= c2_st_d;
    c2_slot_q <= c2_slot_d;
    c2_k_q    <= c2_k_d;
    c2_dsel_q <= c2_dsel_d;
    c2_lat_q  <= c2_lat_d;
    c2_t_q    <= c2_t_d;
    qr_qpn_q  <= qr_qpn_d;
    bad_q     <= bad;
    mo_q      <= mo;
    mom1_q    <= mo - 8'd1;
    mo1_q     <= mo == 8'd1;
    mx_q      <= mx;
    mxm1_q    <= mx - 16'd1;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q <= G_IDLE;  act_q <= 1'b0;  now_q <= '0;  run_q <= '0;  stat_q <= '0;
      op_q <= '0;  qpn0_q <= '0;  qlast_q <= '0;  nqp_q <= 9'd1;  stride_q <= 8'd1;  laddr_q <= '0;  raddr_q <= '0;
      lkey_q <= '0;  rkey_q <= '0;  len_q <= '0;  total_q <= '0;  tm1_q <= '0;  tmo_q <= '0;
      maxo_q <= 16'd1;  maxom1_q <= '0;  sigm1_q <= '0;  maxoqm1_q <= '0;  nqp1_q <= 1'b1;
      sig_q <= 16'd1;  win_q <= 16'd1;  maxoq_q <= 8'd1;  lat_q <= 1'b0;
      i_q <= '0;  slot_q <= '0;  nslot_q <= '0;  round_q <= '0;  sigc_q <= '0;  cqpn_q <= '0;
      done_q <= '0;  dwin_q <= '0;  ileft_q <= '0;  outst_q <= '0;  rem_q <= '0;  tz_q <= 1'b1;
      left_q <= '0;  dnz_q <= 1'b0;  qr_v_q <= 1'b0;  hit_q <= 1'b0;
      ocnt_q <= '0;  dcnt_q <= '0;  full_q <= '0;  af0_q <= 1'b1;
      anp_q <= 1'b0;  ap_q <= 1'b0;  posted_q <= 1'b0;  arm_q <= 1'b0;  fin_q <= 1'b0;  fdr_q <= 1'b0;
      fl_q <= 1'b0;  fo_q <= 1'b0;
      eidx_q <= '0;  tf_q <= '0;  tl_q <= '0;  tpost_q <= '0;  lsum_q <= '0;  lmin_q <= '1;  lmax_q <= '0;
      wmin_q <= '0;  wv_q <= 1'b0;  wt_q <= '0;
    end else begin
      st_q <= st_d;  act_q <= act_d;  now_q <= now_d;  run_q <= run_d;  stat_q <= stat_d;
      op_q <= op_d;  qpn0_q <= qpn0_d;  qlast_q <= qlast_d;  nqp_q <= nqp_d;  stride_q <= stride_d;
      laddr_q <= laddr_d;  raddr_q <= raddr_d;  lkey_q <= lkey_d;  rkey_q <= rkey_d;  len_q <= len_d;
      total_q <= total_d;  tm1_q <= tm1_d;  tmo_q <= tmo_d;  maxo_q <= maxo_d;  maxom1_q <= maxom1_d;
      sig_q <= sig_d;  win_q <= win_d;  maxoq_q <= maxoq_d;  lat_q <= lat_d;
      sigm1_q <= sigm1_d;  maxoqm1_q <= maxoqm1_d;  nqp1_q <= nqp1_d;
      i_q <= i_d;  slot_q <= slot_d;  nslot_q <= nslot_d;  round_q <= round_d;  sigc_q <= sigc_d;  cqpn_q <= cqpn_d;
      done_q <= done_d;  dwin_q <= dwin_d;  ileft_q <= ileft_d;  outst_q <= outst_d;  rem_q <= rem_d;  tz_q <= tz_d;
      left_q <= left_d;  dnz_q <= dnz_d;  qr_v_q <= qr_v_d;  hit_q <= hit_d;
      ocnt_q <= ocnt_d;  dcnt_q <= dcnt_d;  full_q <= full_d;  af0_q <= af0_d;
      anp_q <= anp_d;  ap_q <= ap_d;  posted_q <= posted_d;  arm_q <= arm_d;  fin_q <= fin_d;  fdr_q <= fdr_d;
      fl_q <= fl_d;  fo_q <= fo_d;
      eidx_q <= eidx_d;  tf_q <= tf_d;  tl_q <= tl_d;  tpost_q <= tpost_d;  lsum_q <= lsum_d;
      lmin_q <= lmin_d;  lmax_q <= lmax_d;  wmin_q <= wmin_d;  wv_q <= wv_d;  wt_q <= wt_d;
    end
  end

  always_comb begin
    status    = stat_q;
    posted    = i_q;
    completed = done_q;
    err_index = eidx_q;
    t_first   = tf_q;
    t_last    = tl_q;
    lat_min   = lmv_q ? lmin_q : 32'd0;
    lat_max   = lmax_q;
    lat_sum   = lsum_q;
    win_min   = wmin_q;
    now       = now_q;
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk)
    if (!rst && act_q != (st_q != G_IDLE)) $error("roce_wrgen: act_q %0d disagrees with state %0d", act_q, st_q);
`endif

endmodule
