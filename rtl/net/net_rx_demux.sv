// net_rx_demux: classifies each frame coming out of net_rx_parse, sends it to
// the RoCE or the management output queue (or drops it) and counts why.
//
// Cut-through with a drop marker: the accept/drop decision is taken on the
// first beat of a frame, from the header checks and the free space of the
// target queue (enough for the whole frame: its IP total length, or
// MAX_FRAME_BYTES for non-IPv4 frames). Everything known on the first beat
// (and every check of a one-beat frame) drops the frame before any byte is
// queued. Checks that can only fail later on a multi-beat frame (tkeep hole,
// frame shorter than its IP total length, MAC error, oversize) end the queued
// frame with tuser = 1 on its tlast beat: consumers discard such a frame.
// A frame with tuser = 0 at tlast passed every check.
// IPv4 frames are cut to 14 + IP total length bytes (Ethernet padding and any
// trailer removed); other frames are forwarded as received.
// Every frame moves exactly one counter (its verdict, net_pkg::rx_verdict_e)
// when its tlast beat passes this stage; counters are 32 bits and wrap.
//
// Two stages, every input taken from net_rx_parse's registers:
//   V (classify): on the first beat, the header verdict from net_rx_parse's
//     field tests (rule order of rtl/net/README.md), the bytes the frame must
//     have, the beats it is queued in (index and tkeep of the last queued
//     beat); those are kept as frame state for the later beats. On every
//     beat: truncation (first beat: net_rx_parse's compare that applies;
//     later beats: the frame length against the required length), tkeep
//     errors so far, oversize and MAC error, giving the verdict the frame
//     has unless the target queue is full, and where the beat falls against
//     the last queued beat. All registered.
//   W (admit and write): on the first beat the target queue's room for the
//     whole frame (its count, live, against DEPTH - beats from stage V)
//     takes the accept decision; the verdict
//     of a tlast beat is final here (queue full or not), the beat is written
//     (the last queued beat held back when input continues past it, until the
//     frame's end tells tuser), the RoCE header queued, the counter picked.
// Queues (lib_fifo) add their output register: a beat leaves three cycles
// after it entered this block.
`default_nettype none

module net_rx_demux #(
  parameter int unsigned ROCE_DEPTH      = 256,  // beats, power of two
  parameter int unsigned MGMT_DEPTH      = 256,  // beats, power of two
  parameter int unsigned HDR_DEPTH       = 32,   // RoCE headers, power of two
  parameter int unsigned MAX_FRAME_BYTES = net_pkg::MAX_FRAME_BYTES
) (
  input  wire logic                         clk,
  input  wire logic                         rst,
  // from net_rx_parse (see there)
  input  wire logic                         p_valid,
  input  wire logic [net_pkg::DATA_W-1:0]   p_data,
  input  wire logic [net_pkg::KEEP_W-1:0]   p_keep,
  input  wire logic                         p_last,
  input  wire logic                         p_user,
  input  wire logic                         p_sof,
  input  wire logic                         p_keep_ok,
  input  wire logic [10:0]                  p_idx,
  input  wire logic [17:0]                  p_flen,
  input  wire logic                         p_too_long,
  input  wire logic                         p_lt_eth,
  input  wire logic                         p_lt_ip,
  input  wire logic                         p_lt_exp,
  input  wire net_pkg::net_hdr_t            p_hdr,
  input  wire logic                         p_csum_ok,
  input  wire logic                         p_mac_ours,
  input  wire logic                         p_mac_group,
  input  wire logic                         p_is_ip,
  input  wire logic                         p_ver_ok,
  input  wire logic                         p_ihl5,
  input  wire logic                         p_tl_ok,
  input  wire logic                         p_frag,
  input  wire logic                         p_roce_cand,
  input  wire logic                         p_udp_len_ok,
  input  wire logic                         p_gsi,
  input  wire logic [16:0]                  p_exp_len,
  input  wire logic                         p_fits,
  input  wire logic [7:0]                   p_beats,
  input  wire logic [7:0]                   p_oli,
  input  wire logic                         p_oli_zero,
  input  wire logic [net_pkg::KEEP_W-1:0]   p_olk,
  // RoCE output: whole frames (Ethernet header first) and their headers
  output logic [net_pkg::DATA_W-1:0]        m_axis_roce_tdata,
  output logic [net_pkg::KEEP_W-1:0]        m_axis_roce_tkeep,
  output logic                              m_axis_roce_tvalid,
  input  wire logic                         m_axis_roce_tready,
  output logic                              m_axis_roce_tlast,
  output logic                              m_axis_roce_tuser,   // tlast: frame bad, discard
  output logic                              m_roce_hdr_valid,
  input  wire logic                         m_roce_hdr_ready,
  output net_pkg::net_hdr_t                 m_roce_hdr,
  // management output: whole frames
  output logic [net_pkg::DATA_W-1:0]        m_axis_mgmt_tdata,
  output logic [net_pkg::KEEP_W-1:0]        m_axis_mgmt_tkeep,
  output logic                              m_axis_mgmt_tvalid,
  input  wire logic                         m_axis_mgmt_tready,
  output logic                              m_axis_mgmt_tlast,
  output logic                              m_axis_mgmt_tuser,   // tlast: frame bad, discard
  // frame counters (32-bit, wrap)
  output logic [31:0]                       cnt_rx_roce,
  output logic [31:0]                       cnt_rx_mgmt,
  output logic [31:0]                       cnt_drop_bad_csum,
  output logic [31:0]                       cnt_drop_trunc,
  output logic [31:0]                       cnt_drop_bad_hdr,
  output logic [31:0]                       cnt_drop_malformed,
  output logic [31:0]                       cnt_drop_mac_err,
  output logic [31:0]                       cnt_drop_not_for_us,
  output logic [31:0]                       cnt_drop_roce_full,
  output logic [31:0]                       cnt_drop_mgmt_full
);
  localparam int unsigned DW        = net_pkg::DATA_W;
  localparam int unsigned KW        = net_pkg::KEEP_W;
  localparam int unsigned MAX_BEATS = (MAX_FRAME_BYTES + KW - 1) / KW;
  localparam int unsigned FW        = DW + KW + 2;   // queue word: data keep last user
  localparam int unsigned NCNT      = 10;
  localparam int unsigned BW        = 11;            // beat index, saturates

  if (ROCE_DEPTH < MAX_BEATS || MGMT_DEPTH < MAX_BEATS) begin : g_bad_depth
    $error("net_rx_demux: a queue must hold a MAX_FRAME_BYTES frame");
  end
  if (MAX_BEATS >= (1 << BW) - 1 || MAX_BEATS > 255) begin : g_bad_max
    $error("net_rx_demux: MAX_FRAME_BYTES too large");
  end

  typedef enum logic [0:0] {TGT_ROCE = 1'b0, TGT_MGMT = 1'b1} tgt_e;

  // ============================================================ stage V
  // ------------------------------------------- the header verdict (first beat)
  logic          mac_pass, ip_hdr_good, ipv4_len, good_now;
  logic [16:0]   req_len_now;
  logic [7:0]    out_beats_now, oli_now;
  logic [KW-1:0] olk_now;
  logic          trunc_now;
  net_pkg::rx_verdict_e cls_now;

  always_comb begin
    mac_pass    = p_mac_ours || p_mac_group;
    ip_hdr_good = p_ver_ok && (!p_ihl5 || p_csum_ok) && p_tl_ok;

    // the verdict of the header alone (the frame assumed long enough)
    if (!mac_pass)                        cls_now = net_pkg::RX_NOT_FOR_US;
    else if (!p_is_ip)                    cls_now = net_pkg::RX_MGMT;
    else if (!p_ver_ok)                   cls_now = net_pkg::RX_BAD_HDR;
    else if (p_ihl5 && !p_csum_ok)        cls_now = net_pkg::RX_BAD_CSUM;
    else if (!p_tl_ok)                    cls_now = net_pkg::RX_BAD_HDR;
    else if (!p_ihl5 || p_frag)           cls_now = net_pkg::RX_MGMT;
    else if (p_roce_cand) begin
      if (!p_udp_len_ok)                  cls_now = net_pkg::RX_BAD_HDR;
      else if (p_gsi)                     cls_now = net_pkg::RX_MGMT;
      else                                cls_now = net_pkg::RX_ROCE;
    end else                              cls_now = net_pkg::RX_MGMT;
    // the same ladder asked only "ROCE or MGMT?" (flat, for the accept path)
    good_now = mac_pass && (!p_is_ip || (ip_hdr_good
               && (!p_ihl5 || p_frag || !p_roce_cand || p_udp_len_ok)));

    // bytes the frame must have: the Ethernet header, for IPv4 the base IP
    // header, and once that is sound, 14 + total length; whether this first
    // beat already falls short of them (net_rx_parse compared all three)
    if (!mac_pass || !p_is_ip) begin
      req_len_now = 17'(net_pkg::ETH_HDR_BYTES);
      trunc_now   = p_lt_eth;
    end else if (ip_hdr_good) begin
      req_len_now = p_exp_len;
      trunc_now   = p_lt_exp;
    end else begin
      req_len_now = 17'(net_pkg::ETH_HDR_BYTES + net_pkg::IPV4_HDR_BYTES);
      trunc_now   = p_lt_ip;
    end

    // beats queued for the frame, the index and tkeep of its last queued beat
    ipv4_len = p_is_ip && p_ver_ok && (!p_ihl5 || p_csum_ok) && p_tl_ok && p_fits;
    out_beats_now = ipv4_len ? p_beats : 8'(MAX_BEATS);
    oli_now       = ipv4_len ? p_oli   : 8'(MAX_BEATS - 1);
    olk_now       = ipv4_len ? p_olk   : '1;
  end

  // ------------------------------------------------- every beat: what it says
  net_pkg::rx_verdict_e vf_cls_q, vf_cls_d;     // frame state of stage V
  tgt_e                 vf_tgt_q, vf_tgt_d;
  logic [16:0]          vf_req_q, vf_req_d;
  logic [7:0]           vf_oli_q, vf_oli_d;
  logic [KW-1:0]        vf_olk_q, vf_olk_d;
  logic                 vf_mal_q, vf_mal_d;
  logic                 vf_good_q, vf_good_d;

  net_pkg::rx_verdict_e f_cls, v_early;
  tgt_e                 f_tgt;
  logic [7:0]           f_oli;
  logic [KW-1:0]        f_olk;
  logic                 mal, trunc, early, good, acc_pre, pos_lt, pos_eq;

  always_comb begin
    f_cls = p_sof ? cls_now : vf_cls_q;
    f_tgt = p_sof ? (cls_now == net_pkg::RX_ROCE ? TGT_ROCE : TGT_MGMT) : vf_tgt_q;
    f_oli = p_sof ? oli_now : vf_oli_q;
    f_olk = p_sof ? olk_now : vf_olk_q;
    mal   = (p_sof ? 1'b0 : vf_mal_q) || !p_keep_ok;
    trunc = p_sof ? trunc_now : p_flen < {1'b0, vf_req_q};
    good  = p_sof ? good_now : vf_good_q;   // class ROCE or MGMT

    // what the frame's tlast beat found wrong before the class counts
    early = mal || p_too_long || p_user || trunc;
    if (mal || p_too_long) v_early = net_pkg::RX_MALFORMED;
    else if (p_user)       v_early = net_pkg::RX_MAC_ERR;
    else                   v_early = net_pkg::RX_TRUNC;

    // accepted on the first beat if the class is good, the beat sound, a
    // one-beat frame whole, and (stage W) the queue has room
    acc_pre = good && p_keep_ok && !(p_last && early);

    // where the beat falls against the last queued beat (first beat: index 0)
    if (p_sof) begin
      pos_eq = ipv4_len ? p_oli_zero : MAX_BEATS == 1;
      pos_lt = !pos_eq;
    end else begin
      pos_lt = p_idx < BW'(vf_oli_q);
      pos_eq = p_idx == BW'(vf_oli_q);
    end

    vf_cls_d = vf_cls_q;
    vf_tgt_d = vf_tgt_q;
    vf_req_d = vf_req_q;
    vf_oli_d = vf_oli_q;
    vf_olk_d = vf_olk_q;
    vf_mal_d = vf_mal_q;
    vf_good_d = vf_good_q;
    if (p_valid) begin
      vf_good_d = good;
      vf_cls_d = f_cls;
      vf_tgt_d = f_tgt;
      vf_req_d = p_sof ? req_len_now : vf_req_q;
      vf_oli_d = f_oli;
      vf_olk_d = f_olk;
      vf_mal_d = mal;
    end
  end

  // stage V -> W registers
  logic                 w_v_q, w_sof_q, w_last_q, w_early_q, w_good_q, w_acc_pre_q;
  logic                 w_pos_lt_q, w_pos_eq_q;
  logic [DW-1:0]        w_data_q;
  logic [KW-1:0]        w_keep_q;
  logic [$clog2(ROCE_DEPTH+1)-1:0] w_roce_lim_q;   // most words the RoCE queue may hold
  logic [$clog2(MGMT_DEPTH+1)-1:0] w_mgmt_lim_q;   // ... so that the frame still fits
  net_pkg::rx_verdict_e w_cls_q, w_vearly_q;
  tgt_e                 w_tgt_q;
  net_pkg::net_hdr_t    w_hdr_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      w_v_q    <= 1'b0;
      vf_mal_q <= 1'b0;
    end else begin
      w_v_q    <= p_valid;
      vf_mal_q <= vf_mal_d;
    end
    vf_cls_q    <= vf_cls_d;
    vf_tgt_q    <= vf_tgt_d;
    vf_req_q    <= vf_req_d;
    vf_oli_q    <= vf_oli_d;
    vf_olk_q    <= vf_olk_d;
    vf_good_q   <= vf_good_d;
    w_sof_q     <= p_sof;
    w_last_q    <= p_last;
    w_early_q   <= early;
    w_good_q    <= good;
    w_acc_pre_q <= acc_pre;
    w_pos_lt_q  <= pos_lt;
    w_pos_eq_q  <= pos_eq;
    w_data_q    <= p_data;
    w_keep_q    <= p_keep & (pos_eq ? f_olk : '1);
    w_roce_lim_q <= ($clog2(ROCE_DEPTH+1))'(ROCE_DEPTH - 32'(out_beats_now));
    w_mgmt_lim_q <= ($clog2(MGMT_DEPTH+1))'(MGMT_DEPTH - 32'(out_beats_now));
    w_cls_q     <= f_cls;
    w_vearly_q  <= v_early;
    w_tgt_q     <= f_tgt;
    w_hdr_q     <= p_hdr;
  end

  // ============================================================ stage W
  // queues
  logic [$clog2(ROCE_DEPTH+1)-1:0] roce_count;
  logic [$clog2(MGMT_DEPTH+1)-1:0] mgmt_count;
  logic [$clog2(HDR_DEPTH+1)-1:0]  hdr_count;
  logic                 roce_space, mgmt_space, space_now, f_space, f_acc, bad;
  logic                 acc_q, acc_d;              // frame state of stage W: accepted
  net_pkg::rx_verdict_e verdict;
  logic [NCNT-1:0]      cnt_inc;

  // ------------------------------------------------- admission and verdict
  always_comb begin
    // DEPTH - count >= beats, with DEPTH - beats computed in stage V
    roce_space = roce_count <= w_roce_lim_q && hdr_count != ($clog2(HDR_DEPTH+1))'(HDR_DEPTH);
    mgmt_space = mgmt_count <= w_mgmt_lim_q;
    space_now  = w_tgt_q == TGT_ROCE ? roce_space : mgmt_space;
    f_space    = w_sof_q ? space_now : acc_q;
    f_acc      = w_sof_q ? w_acc_pre_q && space_now : acc_q;

    // the frame's verdict, final on its tlast beat
    if (w_early_q)              verdict = w_vearly_q;
    else if (!w_good_q)         verdict = w_cls_q;
    else if (!f_space)
      verdict = w_cls_q == net_pkg::RX_ROCE ? net_pkg::RX_ROCE_FULL : net_pkg::RX_MGMT_FULL;
    else                        verdict = w_cls_q;
    bad = w_early_q || (w_good_q && !f_space);   // verdict != class: tuser on tlast

    acc_d = acc_q;
    if (w_v_q) acc_d = f_acc;

    cnt_inc = '0;
    if (w_v_q && w_last_q) cnt_inc[verdict] = 1'b1;
  end

  // ---------------------------------------------------------- what to queue
  logic                 wr_en, roce_wr, mgmt_wr, hdr_wr;
  logic [FW-1:0]        wr_word;
  logic [DW-1:0]        wd;
  logic [KW-1:0]        wk;
  logic                 wl;
  logic                 hold_v_q, hold_v_d;
  logic [DW-1:0]        hold_data_q, hold_data_d;
  logic [KW-1:0]        hold_keep_q, hold_keep_d;

  always_comb begin
    wd          = w_data_q;
    wk          = w_keep_q;
    wl          = w_last_q;
    wr_en       = 1'b0;
    hold_v_d    = hold_v_q;
    hold_data_d = hold_data_q;
    hold_keep_d = hold_keep_q;
    if (w_v_q && f_acc) begin
      if (w_pos_lt_q) begin
        wr_en = 1'b1;
      end else if (w_pos_eq_q) begin
        wl = 1'b1;
        if (w_last_q) begin
          wr_en = 1'b1;
        end else begin
          // more input than we queue: keep the last beat until the frame's
          // end tells whether it is good
          hold_v_d    = 1'b1;
          hold_data_d = w_data_q;
          hold_keep_d = w_keep_q;
        end
      end else if (w_last_q) begin
        wr_en = 1'b1;
        wd    = hold_data_q;
        wk    = hold_keep_q;
        wl    = 1'b1;
      end
      if (w_last_q) hold_v_d = 1'b0;
    end
    roce_wr = wr_en && w_tgt_q == TGT_ROCE;
    mgmt_wr = wr_en && w_tgt_q == TGT_MGMT;
    hdr_wr  = w_v_q && w_sof_q && f_acc && w_tgt_q == TGT_ROCE;
    wr_word = {wd, wk, wl, w_last_q && bad};
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      acc_q    <= 1'b0;
      hold_v_q <= 1'b0;
    end else begin
      acc_q    <= acc_d;
      hold_v_q <= hold_v_d;
    end
    hold_data_q <= hold_data_d;
    hold_keep_q <= hold_keep_d;
  end

  // ----------------------------------------------------------------- queues
  logic [FW-1:0] roce_word, mgmt_word;

  // the writers never wait (whole-frame admission against count): no s_ready
  /* verilator lint_off PINCONNECTEMPTY */
  lib_fifo #(.WIDTH(FW), .DEPTH(ROCE_DEPTH), .MUST_ACCEPT(1'b1)) u_roce_q (
    .clk, .rst, .s_valid(roce_wr), .s_ready(), .s_data(wr_word),
    .m_valid(m_axis_roce_tvalid), .m_ready(m_axis_roce_tready), .m_data(roce_word),
    .count(roce_count)
  );
  lib_fifo #(.WIDTH(FW), .DEPTH(MGMT_DEPTH), .MUST_ACCEPT(1'b1)) u_mgmt_q (
    .clk, .rst, .s_valid(mgmt_wr), .s_ready(), .s_data(wr_word),
    .m_valid(m_axis_mgmt_tvalid), .m_ready(m_axis_mgmt_tready), .m_data(mgmt_word),
    .count(mgmt_count)
  );
  lib_fifo #(.WIDTH(net_pkg::NET_HDR_W), .DEPTH(HDR_DEPTH), .MUST_ACCEPT(1'b1)) u_hdr_q (
    .clk, .rst, .s_valid(hdr_wr), .s_ready(), .s_data(w_hdr_q),
    .m_valid(m_roce_hdr_valid), .m_ready(m_roce_hdr_ready), .m_data(m_roce_hdr),
    .count(hdr_count)
  );
  /* verilator lint_on PINCONNECTEMPTY */
  assign {m_axis_roce_tdata, m_axis_roce_tkeep, m_axis_roce_tlast, m_axis_roce_tuser} = roce_word;
  assign {m_axis_mgmt_tdata, m_axis_mgmt_tkeep, m_axis_mgmt_tlast, m_axis_mgmt_tuser} = mgmt_word;

  // --------------------------------------------------------------- counters
  logic [32*NCNT-1:0] cnt_q, cnt_d;   // counter i in bits [32*i +: 32]
  logic [NCNT-1:0]    cnt_inc_q;      // the verdict, registered: the counters count one
                                      // cycle after the frame's last beat (keeps the
                                      // verdict logic and the 32-bit adders in two cycles)

  always_comb begin
    for (int i = 0; i < NCNT; i++) begin
      cnt_d[32*i +: 32] = cnt_q[32*i +: 32] + 32'(cnt_inc_q[i]);
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      cnt_q     <= '0;
      cnt_inc_q <= '0;
    end else begin
      cnt_q     <= cnt_d;
      cnt_inc_q <= cnt_inc;
    end
  end

  assign cnt_rx_roce         = cnt_q[32*net_pkg::RX_ROCE +: 32];
  assign cnt_rx_mgmt         = cnt_q[32*net_pkg::RX_MGMT +: 32];
  assign cnt_drop_bad_csum   = cnt_q[32*net_pkg::RX_BAD_CSUM +: 32];
  assign cnt_drop_trunc      = cnt_q[32*net_pkg::RX_TRUNC +: 32];
  assign cnt_drop_bad_hdr    = cnt_q[32*net_pkg::RX_BAD_HDR +: 32];
  assign cnt_drop_malformed  = cnt_q[32*net_pkg::RX_MALFORMED +: 32];
  assign cnt_drop_mac_err    = cnt_q[32*net_pkg::RX_MAC_ERR +: 32];
  assign cnt_drop_not_for_us = cnt_q[32*net_pkg::RX_NOT_FOR_US +: 32];
  assign cnt_drop_roce_full  = cnt_q[32*net_pkg::RX_ROCE_FULL +: 32];
  assign cnt_drop_mgmt_full  = cnt_q[32*net_pkg::RX_MGMT_FULL +: 32];

`ifndef SYNTHESIS
  // the flat accept test and the rule ladder agree
  always_ff @(posedge clk) begin
    if (!rst && p_valid && p_sof
        && good_now != (cls_now == net_pkg::RX_ROCE || cls_now == net_pkg::RX_MGMT)) begin
      $error("net_rx_demux: good_now disagrees with the header verdict %0d", cls_now);
    end
  end
`endif
endmodule
