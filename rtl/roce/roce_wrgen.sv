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
// before they are counted (one cycle), the figures are registers.
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
  logic [8:0]    nqp_q, nqp_d;
  logic [7:0]    stride_q, stride_d;
  logic [63:0]   laddr_q, laddr_d, raddr_q, raddr_d;
  logic [31:0]   lkey_q, lkey_d, rkey_q, rkey_d, len_q, len_d, total_q, total_d, tmo_q, tmo_d;
  logic [15:0]   maxo_q, maxo_d, sig_q, sig_d, win_q, win_d;
  logic [7:0]    maxoq_q, maxoq_d;
  logic          lat_q, lat_d;
  logic [7:0]    run_q, run_d;
  // progress
  logic [31:0]   i_q, i_d;            // WRs posted
  logic [SW-1:0] slot_q, slot_d;      // slot of WR i
  logic [31:0]   round_q, round_d;    // its index on the slot's QP
  logic [15:0]   sigc_q, sigc_d;      // round mod sig
  logic [23:0]   cqpn_q, cqpn_d;      // QPN of the slot
  logic [31:0]   done_q, done_d;
  logic [GEN_NQP*8-1:0] pcnt_q, pcnt_d;   // per slot: posted, completed (mod 256), 8 bits each
  logic [GEN_NQP*8-1:0] dcnt_q, dcnt_d;
  logic [31:0]   idle_q, idle_d;      // cycles without progress
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

  // the CQE's fields
  logic          c_ours, c_ok;
  logic [SW-1:0] c_slot;
  logic [7:0]    c_inc;
  logic [31:0]   c_k;

  // lat_q && done_q != 0, registered with them (lat_min from registers)
  logic          lmv_q, lmv_d;
  assign lmv_d = lat_d && done_d != 32'd0;

  // our completions, registered as they come (always taken)
  logic          cq_v_q;
  logic [47:0]   cq_id_q;             // wr_id[47:0]
  logic [4:0]    cq_st_q;

  // ---- the next work request (from state only: the ready does not loop back),
  // out through a register slice (m_wqe_valid and m_wqe from registers)
  logic               g_valid, g_ready;
  roce_qp_pkg::swqe_t g_wqe;
  lib_skid #(.WIDTH(roce_qp_pkg::SWQE_W)) u_wqe_skid (
    .clk, .rst, .s_valid(g_valid), .s_ready(g_ready), .s_data(g_wqe),
    .m_valid(m_wqe_valid), .m_ready(m_wqe_ready), .m_data(m_wqe)
  );

  logic        sigd;
  always_comb begin
    logic        last_round;
    logic [31:0] outst;
    logic [7:0]  outq;
    outst      = i_q - done_q;
    outq       = pcnt_q[8*slot_q +: 8] - dcnt_q[8*slot_q +: 8];
    last_round = {1'b0, i_q} + {24'd0, nqp_q} >= {1'b0, total_q};
    sigd       = lat_q || sigc_q == sig_q - 16'd1 || last_round;
    g_valid = st_q == G_RUN && i_q != total_q && outst < {16'd0, maxo_q} && outq < maxoq_q;
    g_wqe = {op_q, cqpn_q, laddr_q, lkey_q, raddr_q, rkey_q, len_q, i_q, 64'd0, 64'd0,
             {GEN_TAG, run_q, 8'(slot_q), round_q}, sigd, 1'b0};
  end

  always_comb begin
    logic         bad;
    logic [31:0]  lat, wnd;
    logic [7:0]   mo;
    logic [15:0]  mx;
    logic [31:0]  done_n;
    bad = 1'b0;  mo = '0;  mx = '0;  wnd = '0;
    st_d = st_q;   now_d = now_q + 64'd1;
    op_d = op_q;   qpn0_d = qpn0_q;  nqp_d = nqp_q;  stride_d = stride_q;
    laddr_d = laddr_q;  raddr_d = raddr_q;  lkey_d = lkey_q;  rkey_d = rkey_q;  len_d = len_q;
    total_d = total_q;  tmo_d = tmo_q;  maxo_d = maxo_q;  sig_d = sig_q;  win_d = win_q;
    maxoq_d = maxoq_q;  lat_d = lat_q;  run_d = run_q;
    i_d = i_q;  slot_d = slot_q;  round_d = round_q;  sigc_d = sigc_q;  cqpn_d = cqpn_q;  done_d = done_q;
    pcnt_d = pcnt_q;  dcnt_d = dcnt_q;  idle_d = idle_q;
    stat_d = stat_q;  eidx_d = eidx_q;  tf_d = tf_q;  tl_d = tl_q;  tpost_d = tpost_q;  lsum_d = lsum_q;
    lmin_d = lmin_q;  lmax_d = lmax_q;  wmin_d = wmin_q;
    wv_d = 1'b0;  wt_d = wt_q;
    ring_we = 1'b0;  ring_wa = i_q[RW-1:0];
    ring_re = 1'b0;  ring_ra = '0;

    // ---- our completion
    c_k    = cq_id_q[31:0];
    c_slot = cq_id_q[32 +: SW];
    c_ours = cq_v_q && st_q != G_IDLE && cq_id_q[47:40] == run_q && {1'b0, cq_id_q[39:32]} < nqp_q;
    c_ok   = cq_st_q == roce_qp_pkg::WC_SUCCESS;
    c_inc  = c_k[7:0] + 8'd1 - dcnt_q[8*c_slot +: 8];
    done_n = done_q + {24'd0, c_inc};
    lat    = 32'(now_q - tpost_q);

    if (st_q != G_IDLE) begin
      idle_d = idle_q + 32'd1;
      if (g_valid && g_ready) begin
        idle_d = '0;
        if (i_q == 32'd0) tf_d = now_q;
        tpost_d = now_q;
        ring_we = 1'b1;
        pcnt_d[8*slot_q +: 8] = pcnt_q[8*slot_q +: 8] + 8'd1;
        i_d = i_q + 32'd1;
        if (9'(slot_q) + 9'd1 == nqp_q) begin
          slot_d  = '0;
          cqpn_d  = qpn0_q;
          round_d = round_q + 32'd1;
          sigc_d  = (sigc_q == sig_q - 16'd1) ? 16'd0 : sigc_q + 16'd1;
        end else begin
          slot_d = slot_q + SW'(1);
          cqpn_d = cqpn_q + {16'd0, stride_q};
        end
      end
      if (c_ours) begin
        idle_d = '0;
        if (!c_ok) begin
          stat_d[2]    = 1'b1;
          stat_d[12:8] = cq_st_q;
          eidx_d       = 32'(c_k * {23'd0, nqp_q}) + 32'(c_slot);
          st_d         = G_IDLE;
        end else begin
          dcnt_d[8*c_slot +: 8] = c_k[7:0] + 8'd1;
          done_d = done_n;
          tl_d   = now_q;
          if (lat_q) begin
            lsum_d = lsum_q + {32'd0, lat};
            if (lat < lmin_q) lmin_d = lat;
            if (lat > lmax_q) lmax_d = lat;
          end
          // BW peak: WRs done_n-W .. done_n-1 were posted at or after the post of done_n-W
          if (done_n >= {16'd0, win_q}) begin
            ring_re = 1'b1;
            ring_ra = RW'(done_n - {16'd0, win_q});
            wv_d    = 1'b1;
            wt_d    = now_q[31:0];
          end
          if (done_n == total_q || (st_q == G_DRAIN && done_n == i_q)) st_d = G_IDLE;
        end
      end
      if (abort) begin
        // stop posting; wait for what is outstanding (a second abort: at once)
        stat_d[3] = 1'b1;
        if (st_q == G_DRAIN || i_q == done_q) st_d = G_IDLE;
        else if (st_d == G_RUN) st_d = G_DRAIN;
      end
      if (qp_reset && qp_reset_qpn >= qpn0_q &&
          {8'd0, qp_reset_qpn} <= {8'd0, qpn0_q} + 32'(({23'd0, nqp_q} - 32'd1) * {24'd0, stride_q})) begin
        stat_d[6] = 1'b1;
        st_d = G_IDLE;
      end
      if (idle_q >= tmo_q) begin
        stat_d[4] = 1'b1;
        st_d = G_IDLE;
      end
      if (st_d == G_IDLE) begin
        stat_d[0] = 1'b0;
        stat_d[1] = 1'b1;
      end
    end

    if (wv_q) begin
      wnd = wt_q - ring_rd;
      if (wmin_q == 32'd0 || wnd < wmin_q) wmin_d = wnd;
    end

    // ---- start
    if (st_q == G_IDLE && start) begin
      mx  = (cfg_max_out == 16'd0 || cfg_max_out > 16'(MAXO)) ? 16'(MAXO) : cfg_max_out;
      mo  = (cfg_max_out_qp == 8'd0 || cfg_max_out_qp > 8'(SQ_DEPTH)) ? 8'(SQ_DEPTH) : cfg_max_out_qp;
      bad = cfg_opcode > 4'd4 || cfg_nqp == 8'd0 || {1'b0, cfg_nqp} > 9'(GEN_NQP) || cfg_total == 32'd0 ||
            cfg_window == 16'd0 || cfg_window > 16'(MAXO) || cfg_len[31];
      stat_d = {5'd0, 1'b0, 1'b0, bad, 1'b0, 1'b0, 1'b0, bad, !bad};
      op_d = cfg_opcode;  qpn0_d = cfg_qpn;  nqp_d = {1'b0, cfg_nqp};  stride_d = cfg_stride;
      laddr_d = cfg_laddr;  raddr_d = cfg_raddr;  lkey_d = cfg_lkey;  rkey_d = cfg_rkey;  len_d = cfg_len;
      total_d = cfg_total;  tmo_d = cfg_timeout == 32'd0 ? 32'h0100_0000 : cfg_timeout;
      maxo_d  = cfg_lat ? 16'd1 : mx;
      maxoq_d = cfg_lat ? 8'd1 : mo;
      sig_d   = (cfg_lat || cfg_sig_every == 16'd0) ? 16'd1 : cfg_sig_every;
      win_d   = cfg_window;  lat_d = cfg_lat;
      run_d   = run_q + 8'd1;
      i_d = '0;  slot_d = '0;  round_d = '0;  sigc_d = '0;  cqpn_d = cfg_qpn;  done_d = '0;  idle_d = '0;
      pcnt_d = '0;
      dcnt_d = '0;
      eidx_d = '0;  tf_d = '0;  tl_d = '0;  lsum_d = '0;  lmin_d = '1;  lmax_d = '0;  wmin_d = '0;
      if (!bad) st_d = G_RUN;
    end
  end

  roce_ram_sdp #(.WIDTH(32), .DEPTH(RING)) u_ring (
    .clk, .wr_en(ring_we), .wr_addr(ring_wa), .wr_data(now_q[31:0]),
    .rd_en(ring_re), .rd_addr(ring_ra), .rd_data(ring_rd)
  );

  always_ff @(posedge clk) begin
    if (rst) begin
      cq_v_q <= 1'b0;
      lmv_q  <= 1'b0;
    end else begin
      cq_v_q <= s_cqe_valid;
      lmv_q  <= lmv_d;
    end
    cq_id_q <= s_cqe.wr_id[47:0];
    cq_st_q <= s_cqe.status;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q <= G_IDLE;  now_q <= '0;  run_q <= '0;  stat_q <= '0;
      op_q <= '0;  qpn0_q <= '0;  nqp_q <= 9'd1;  stride_q <= 8'd1;  laddr_q <= '0;  raddr_q <= '0;
      lkey_q <= '0;  rkey_q <= '0;  len_q <= '0;  total_q <= '0;  tmo_q <= '0;  maxo_q <= 16'd1;
      sig_q <= 16'd1;  win_q <= 16'd1;  maxoq_q <= 8'd1;  lat_q <= 1'b0;
      i_q <= '0;  slot_q <= '0;  round_q <= '0;  sigc_q <= '0;  cqpn_q <= '0;  done_q <= '0;  idle_q <= '0;
      pcnt_q <= '0;  dcnt_q <= '0;
      eidx_q <= '0;  tf_q <= '0;  tl_q <= '0;  tpost_q <= '0;  lsum_q <= '0;  lmin_q <= '1;  lmax_q <= '0;
      wmin_q <= '0;  wv_q <= 1'b0;  wt_q <= '0;
    end else begin
      st_q <= st_d;  now_q <= now_d;  run_q <= run_d;  stat_q <= stat_d;
      op_q <= op_d;  qpn0_q <= qpn0_d;  nqp_q <= nqp_d;  stride_q <= stride_d;  laddr_q <= laddr_d;
      raddr_q <= raddr_d;  lkey_q <= lkey_d;  rkey_q <= rkey_d;  len_q <= len_d;  total_q <= total_d;
      tmo_q <= tmo_d;  maxo_q <= maxo_d;  sig_q <= sig_d;  win_q <= win_d;  maxoq_q <= maxoq_d;  lat_q <= lat_d;
      i_q <= i_d;  slot_q <= slot_d;  round_q <= round_d;  sigc_q <= sigc_d;  cqpn_q <= cqpn_d;
      done_q <= done_d;  idle_q <= idle_d;
      pcnt_q <= pcnt_d;  dcnt_q <= dcnt_d;
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

endmodule
