// cc_pacer: holds each QP's packets to its DCQCN rate Rc (cc_rp) with no
// burst beyond a configurable size; docs/cc.md "The reaction point in the
// datapath".
//
// Credit per QP in units of bits x 250 (a QP at R Mb/s earns R units a 4 ns
// cycle; a packet of L bytes on the wire costs 2000 x L units), kept as two
// 32-bit wrapping counters, each in block RAM with a single writer:
//   earned  written by the scanner only: it visits one QP a cycle (every QP
//           each NQP cycles) and adds Rc << log2(NQP), capped at spent +
//           burst; a QP at the line rate (cc_rp: inactive) is set to spent +
//           burst and marked unpaced (the row's top bit)
//   spent   written by the charge only: + 2000 x the packet's bytes on the
//           wire (the requester's packets, one at least every 3 cycles, so
//           the read-modify-write of one QP never overlaps itself)
// Each RAM has a second copy written alike, read by the other writer.
// allowed[q] (flip-flops) = earned - spent >= 0 (signed), or unpaced; set by
// the scanner at each visit and by the charge after each packet (both in one
// cycle for one QP: the scanner's). The requester reads it for the QP of its
// turn (ok_qpn, from its register) as ok, registered (2 cycles): a QP may send while its
// credit is not negative, so a burst is at most burst bytes plus the packets
// sent while the charge is on its way (the bit is 8 cycles behind a packet:
// two more 3-cycle packets of the fast path at most); the credit goes that
// far below 0 and is paid back, so the long-run rate is Rc.
//
// Bytes on the wire of a request: payload padded to 4 + BTH and extension
// headers (roce_pkg's opcode table) + 70 (Ethernet 14, IPv4 20, UDP 8, ICRC
// 4, FCS 4, preamble 8, inter-frame gap 12).
//
// It also hands cc_rp its events: the CNPs (registered) and the bytes on
// the wire of paced QPs' packets, summed per run of one QP's packets, an
// event held a cycle while a CNP goes (cc_rp takes one event a cycle).
`default_nettype none

module cc_pacer #(
  parameter int NQP = 256,
  parameter int QAW = $clog2(NQP)
) (
  input  wire logic           clk,
  input  wire logic           rst,
  input  wire logic [17:0]    cfg_burst,      // bytes a QP may send at once, after idling
  input  wire logic [16:0]    cfg_line_mbps,  // a rate at or above it is not paced
  // the requester's packets (from its registers)
  input  wire logic           tx_valid,
  input  wire logic [QAW-1:0] tx_qpn,
  input  wire logic [7:0]     tx_opcode,
  input  wire logic [15:0]    tx_paylen,
  // CNPs received
  input  wire logic           cnp_valid,
  input  wire logic [QAW-1:0] cnp_qpn,
  // the rate table (cc_rp): QPN in, rate 2 cycles later
  output logic [QAW-1:0]      rate_rd_qpn,
  input  wire logic [16:0]    rate_rd_mbps,
  // cc_rp's events
  output logic                rp_cnp_valid,
  output logic [23:0]         rp_cnp_qpn,
  output logic                rp_tx_valid,
  output logic [23:0]         rp_tx_qpn,
  output logic [15:0]         rp_tx_bytes,
  // the requester's QP: may it send
  input  wire logic [QAW-1:0] ok_qpn,
  output logic                ok,
  // counters
  output logic [31:0]         cnt_paced,      // packets charged to a paced QP
  output logic [31:0]         cnt_ev_dropped  // packet events not handed to cc_rp (never expected)
);
  if ((1 << QAW) != NQP || QAW < 3) begin : g_bad_nqp
    $error("cc_pacer: NQP must be a power of two, >= 8");
  end

  // ---------------------------------------------------------------- init
  // The RAMs are written once after reset (earned = burst, unpaced; spent =
  // 0), one row a cycle; packets meanwhile are not charged.
  logic           init_q, init_d;
  logic [QAW-1:0] ip_q, ip_d;

  // ---------------------------------------------------------------- burst in units
  logic [31:0] b48_q, bu_q;
  logic [31:0] b32;
  always_comb b32 = 32'(cfg_burst);
  always_ff @(posedge clk) begin
    b48_q <= (b32 << 5) + (b32 << 4);
    bu_q  <= (b32 << 11) - b48_q;       // cfg_burst x 2000
  end

  // ---------------------------------------------------------------- charge
  // c0: the packet (the requester's registers): bytes on the wire
  // c1: m = 48 x bytes
  // c2: cost = 2048 x bytes - m; spent read
  // c3: the RAM output registered; earned (copy) read
  // c4: spent' = spent + cost written; the RAM output registered
  // c5: allowed = earned - spent' >= 0, or unpaced
  logic           c1_v, c2_v, c3_v, c4_v, c5_v;
  logic [QAW-1:0] c1_q, c2_q, c3_q, c4_q, c5_q;
  logic [16:0]    c1_wb, c2_wb, c3_wb, c4_wb, c5_wb;
  logic [31:0]    c2_m, c3_cost, c4_cost, c4_sp, c5_sp, c4_spn;
  logic [32:0]    c5_er;
  logic [5:0]     hlen;
  logic [14:0]    wq;       // bytes on the wire / 4
  /* verilator lint_off UNUSEDSIGNAL */
  logic [6:0]     hq;       // its low bits are 0
  roce_pkg::opcode_info_t oi;   // its hdr_len and valid
  /* verilator lint_on UNUSEDSIGNAL */

  // payload padded to 4 + headers + 70: {pl[15:2] + (pl[1:0] != 0) + (hlen + 68) / 4, 2'b10}
  // (every header length is a multiple of 4)
  always_comb begin
    oi   = roce_pkg::roce_opcode_info(tx_opcode);
    hlen = oi.valid ? oi.hdr_len : 6'(roce_pkg::BTH_BYTES);
    hq   = 7'(hlen) + 7'd68;
    wq   = 15'(tx_paylen[15:2]) + 15'(hq[6:2]) + 15'(tx_paylen[1:0] != 2'd0);
  end

  logic           sp_we, sp_re;
  logic [QAW-1:0] sp_wa;
  logic [31:0]    sp_wd, sp_rd_c, sp_rd_s;
  logic           er_we;
  logic [QAW-1:0] er_wa;
  logic [32:0]    er_wd, er_rd_c;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [32:0]    er_rd_s;          // (its unpaced bit: the scanner takes the rate's)
  /* verilator lint_on UNUSEDSIGNAL */

  always_ff @(posedge clk) begin
    if (rst) begin
      c1_v <= 1'b0; c2_v <= 1'b0; c3_v <= 1'b0; c4_v <= 1'b0; c5_v <= 1'b0;
    end else begin
      c1_v <= tx_valid && !init_q;
      c2_v <= c1_v; c3_v <= c2_v; c4_v <= c3_v; c5_v <= c4_v;
    end
    c1_q <= tx_qpn; c2_q <= c1_q; c3_q <= c2_q; c4_q <= c3_q; c5_q <= c4_q;
    c1_wb   <= {wq, 2'b10};
    c2_wb   <= c1_wb;
    c3_wb   <= c2_wb;
    c4_wb   <= c3_wb;
    c5_wb   <= c4_wb;
    c2_m    <= (32'(c1_wb) << 5) + (32'(c1_wb) << 4);
    c3_cost <= (32'(c2_wb) << 11) - c2_m;
    c4_cost <= c3_cost;
    c4_sp   <= sp_rd_c;
    c5_sp   <= c4_spn;
    c5_er   <= er_rd_c;
  end

  always_comb begin
    c4_spn = c4_sp + c4_cost;
    sp_re  = c2_v;
    sp_we  = init_q || c4_v;
    sp_wa  = init_q ? ip_q : c4_q;
    sp_wd  = init_q ? 32'd0 : c4_spn;
  end

  // ---------------------------------------------------------------- scanner
  // s0: QP sp_q: rate, earned and spent read
  // s1: RAM outputs (rate in cc_rp's register pipeline)
  // s2: registered; e1 = earned + (rate << QAW), cap = spent + burst, unpaced
  // s3: earned' = (unpaced or e1 > cap) ? cap : e1 written, allowed
  logic [QAW-1:0] s0_q, s1_q, s2_q, s3_q;
  logic           s1_v, s2_v, s3_v;
  logic [31:0]    s2_er, s2_sp, s3_e1, s3_cap, s3_sp;
  logic           s3_unp;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0]    s3_over, s3_d;   // their signs
  /* verilator lint_on UNUSEDSIGNAL */
  logic           s3_cut, s3_ok;

  always_ff @(posedge clk) begin
    if (rst) begin
      s0_q <= '0; s1_v <= 1'b0; s2_v <= 1'b0; s3_v <= 1'b0;
    end else begin
      s0_q <= s0_q + QAW'(1);
      s1_v <= !init_q; s2_v <= s1_v; s3_v <= s2_v;
    end
    s1_q <= s0_q; s2_q <= s1_q; s3_q <= s2_q;
    s2_er <= er_rd_s[31:0];
    s2_sp <= sp_rd_s;
    s3_e1  <= s2_er + (32'(rate_rd_mbps) << QAW);
    s3_cap <= s2_sp + bu_q;
    s3_sp  <= s2_sp;
    s3_unp <= rate_rd_mbps >= cfg_line_mbps;
  end
  always_comb begin
    rate_rd_qpn = s0_q;
    s3_over = s3_cap - s3_e1;             // negative: over the cap
    s3_d    = s3_e1 - s3_sp;              // credit before the cap
    s3_cut  = s3_unp || s3_over[31];
    s3_ok   = s3_cut || !s3_d[31];
    er_we   = init_q || s3_v;
    er_wa   = init_q ? ip_q : s3_q;
    er_wd   = init_q ? {1'b1, 32'd0} : {s3_unp, s3_cut ? s3_cap : s3_e1};
  end
  // (at init, spent = 0 and earned = 0 + unpaced: the first visit fills it)

  roce_ram_sdp #(.WIDTH(32), .DEPTH(NQP)) u_sp_c (
    .clk, .wr_en(sp_we), .wr_addr(sp_wa), .wr_data(sp_wd),
    .rd_en(sp_re), .rd_addr(c2_q), .rd_data(sp_rd_c)
  );
  roce_ram_sdp #(.WIDTH(32), .DEPTH(NQP)) u_sp_s (
    .clk, .wr_en(sp_we), .wr_addr(sp_wa), .wr_data(sp_wd),
    .rd_en(1'b1), .rd_addr(s0_q), .rd_data(sp_rd_s)
  );
  roce_ram_sdp #(.WIDTH(33), .DEPTH(NQP)) u_er_c (
    .clk, .wr_en(er_we), .wr_addr(er_wa), .wr_data(er_wd),
    .rd_en(c3_v), .rd_addr(c3_q), .rd_data(er_rd_c)
  );
  roce_ram_sdp #(.WIDTH(33), .DEPTH(NQP)) u_er_s (
    .clk, .wr_en(er_we), .wr_addr(er_wa), .wr_data(er_wd),
    .rd_en(1'b1), .rd_addr(s0_q), .rd_data(er_rd_s)
  );

  // ---------------------------------------------------------------- allowed
  // c5's credit: earned (copy, read at c3) - spent' (written at c4)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0]    c5_d;            // its sign
  /* verilator lint_on UNUSEDSIGNAL */
  logic           c5_ok;
  logic [NQP-1:0] al_q, al_d;
  logic [NQP-1:0] s3_hot, c5_hot;    // the write addresses decoded, registered a cycle ahead
  logic [NQP-1:0] s3_hot_q, c5_hot_q;
  logic [NQP-1:0] s3_m, c5_m;        // the bits s3 / c5 write (s3 first)
  // the merge as whole vectors (per bit the same function as "s3 ? s3_ok : c5 ?
  // c5_ok : al_q"), cheaper to simulate at NQP 256 than a loop over the bits
  always_comb begin
    c5_d   = c5_er[31:0] - c5_sp;
    c5_ok  = c5_er[32] || !c5_d[31];
    for (int i = 0; i < NQP; i++) begin
      s3_hot[i] = s2_q == QAW'(i);
      c5_hot[i] = c4_q == QAW'(i);
    end
    s3_m   = s3_hot_q & {NQP{s3_v}};
    c5_m   = c5_hot_q & {NQP{c5_v}} & ~s3_m;
    al_d   = (al_q & ~(s3_m | c5_m)) | (s3_m & {NQP{s3_ok}}) | (c5_m & {NQP{c5_ok}});
  end
  always_ff @(posedge clk) begin
    if (rst) al_q <= '1;
    else     al_q <= al_d;
    s3_hot_q <= s3_hot;
    c5_hot_q <= c5_hot;
  end

  // ok = al_q[ok_qpn] as a tree of 4:1 muxes (a level a LUT, kept apart),
  // registered halfway: 2 cycles from ok_qpn (the requester's QP of the
  // turn stays for at least 3)
  localparam int LKL = (QAW + 1) / 2;          // levels
  localparam int LKN = 1 << (2 * LKL);         // the table padded to a power of 4
  localparam int LK1 = (LKL + 1) / 2;          // levels before the register
  localparam int LKM = 1 << (2 * (LKL - LK1)); // bits registered between
  logic [LKM-1:0]   lk_q;
  logic [2*LKL-1:0] ix1;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [2*LKL-1:0] ix2;   // its high bits
  /* verilator lint_on UNUSEDSIGNAL */
  always_ff @(posedge clk) ix2 <= ix1;
  always_comb ix1 = (2*LKL)'(ok_qpn);
  for (genvar l = 0; l <= LKL; l++) begin : g_l
    (* keep *) logic [(1 << (2*(LKL-l)))-1:0] v;
    if (l == 0) begin : g_leaf
      assign v = LKN'(al_q);
    end else begin : g_node
      logic [1:0] sel;
      logic [(1 << (2*(LKL-l+1)))-1:0] src;
      if (l <= LK1) begin : g_s1
        assign sel = ix1[2*(l-1) +: 2];
        assign src = g_l[l-1].v;
      end else if (l == LK1 + 1) begin : g_s2r
        assign sel = ix2[2*(l-1) +: 2];
        assign src = lk_q;
      end else begin : g_s2
        assign sel = ix2[2*(l-1) +: 2];
        assign src = g_l[l-1].v;
      end
      for (genvar j = 0; j < (1 << (2*(LKL-l))); j++) begin : g_j
        assign v[j] = sel[1] ? (sel[0] ? src[4*j+3] : src[4*j+2]) : (sel[0] ? src[4*j+1] : src[4*j]);
      end
    end
  end
  always_ff @(posedge clk) begin
    lk_q <= g_l[LK1].v;
    ok   <= g_l[LKL].v[0];
  end

  // ---------------------------------------------------------------- init FSM
  always_comb begin
    init_d = init_q && ip_q != QAW'(NQP - 1);
    ip_d   = ip_q + QAW'(1);
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      init_q <= 1'b1;
      ip_q   <= '0;
    end else begin
      init_q <= init_d;
      ip_q   <= ip_d;
    end
  end

  // ---------------------------------------------------------------- cc_rp's events
  // Only a paced QP's packets matter to cc_rp (its byte counter runs for
  // active QPs only): c5's packet of a paced QP is added to an accumulator of
  // one QP's bytes, handed on as one event when a packet of another QP comes,
  // when it holds 32 KiB or more, or 32 cycles after it started (so cc_rp
  // sees an event per turn of the requester, not per packet). The event goes
  // the cycle after unless a CNP (registered) goes then: it waits in h_*
  // (one event; a second while one waits and a CNP goes is dropped and
  // counted).
  logic           c5_p;                       // c5: a packet of a paced QP
  logic           ag_v_q, ag_v_d, ag_emit;
  logic [QAW-1:0] ag_q_q, ag_q_d;
  logic [16:0]    ag_b_q, ag_b_d;
  logic [4:0]     ag_t_q, ag_t_d;
  logic           h_v_q, h_v_d, t_v_d, t_v_q, cv_q;
  logic [QAW-1:0] h_q_q, h_q_d, t_q_d, t_q_q, cq_q;
  logic [15:0]    h_b_q, h_b_d, t_b_d, t_b_q;
  logic [31:0]    c_drop_q, c_drop_d, c_paced_q, c_paced_d;
  always_comb begin
    c5_p    = c5_v && !c5_er[32];
    ag_emit = ag_v_q && ((c5_p && c5_q != ag_q_q) || ag_t_q == 5'd31 || ag_b_q[16:15] != 2'd0);
    ag_v_d  = ag_v_q;
    ag_q_d  = ag_q_q;
    ag_b_d  = ag_b_q;
    ag_t_d  = ag_t_q + 5'd1;
    if (ag_emit || !ag_v_q) begin
      ag_v_d = c5_p;
      ag_q_d = c5_q;
      ag_b_d = c5_wb;
      ag_t_d = 5'd0;
    end else if (c5_p) begin
      ag_b_d = ag_b_q + c5_wb;            // (< 32 KiB + one packet: 16 bits)
    end
    t_v_d = (h_v_q || ag_emit) && !cnp_valid;
    t_q_d = h_v_q ? h_q_q : ag_q_q;
    t_b_d = h_v_q ? h_b_q : ag_b_q[15:0];
    h_v_d = (h_v_q && cnp_valid) || (ag_emit && (cnp_valid || h_v_q));
    h_q_d = (ag_emit && !(h_v_q && cnp_valid)) ? ag_q_q : h_q_q;
    h_b_d = (ag_emit && !(h_v_q && cnp_valid)) ? ag_b_q[15:0] : h_b_q;
    c_drop_d  = c_drop_q + 32'(h_v_q && cnp_valid && ag_emit);
    c_paced_d = c_paced_q + 32'(c5_p);
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      ag_v_q <= 1'b0;
      h_v_q <= 1'b0; t_v_q <= 1'b0; cv_q <= 1'b0;
      c_drop_q <= '0; c_paced_q <= '0;
    end else begin
      ag_v_q <= ag_v_d;
      h_v_q <= h_v_d; t_v_q <= t_v_d; cv_q <= cnp_valid;
      c_drop_q <= c_drop_d; c_paced_q <= c_paced_d;
    end
    ag_q_q <= ag_q_d; ag_b_q <= ag_b_d; ag_t_q <= ag_t_d;
    h_q_q <= h_q_d; h_b_q <= h_b_d;
    t_q_q <= t_q_d; t_b_q <= t_b_d;
    cq_q  <= cnp_qpn;
  end
  assign rp_cnp_valid   = cv_q;
  assign rp_cnp_qpn     = 24'(cq_q);
  assign rp_tx_valid    = t_v_q;
  assign rp_tx_qpn      = 24'(t_q_q);
  assign rp_tx_bytes    = t_b_q;
  assign cnt_paced      = c_paced_q;
  assign cnt_ev_dropped = c_drop_q;

`ifndef SYNTHESIS
  // the requester's packets come at least 3 cycles apart (the charge's
  // read-modify-write of one QP never overlaps itself)
  always_ff @(posedge clk) begin
    if (!rst && tx_valid && (c1_v || c2_v)) $error("cc_pacer: packets closer than 3 cycles");
  end
`endif

endmodule
