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
`default_nettype none

module net_rx_demux #(
  parameter int unsigned ROCE_DEPTH      = 256,  // beats, power of two
  parameter int unsigned MGMT_DEPTH      = 256,  // beats, power of two
  parameter int unsigned HDR_DEPTH       = 32,   // RoCE headers, power of two
  parameter int unsigned MAX_FRAME_BYTES = net_pkg::MAX_FRAME_BYTES
) (
  input  wire logic                         clk,
  input  wire logic                         rst,
  // from net_rx_parse
  input  wire logic                         p_valid,
  input  wire logic [net_pkg::DATA_W-1:0]   p_data,
  input  wire logic [net_pkg::KEEP_W-1:0]   p_keep,
  input  wire logic                         p_last,
  input  wire logic                         p_user,
  input  wire logic                         p_sof,
  input  wire logic                         p_keep_ok,
  input  wire logic [6:0]                   p_nbytes,
  input  wire net_pkg::net_hdr_t            p_hdr,
  input  wire logic                         p_csum_ok,
  input  wire logic                         p_mac_ours,
  input  wire logic                         p_mac_group,
  input  wire logic                         p_ip_ours,
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

  // ------------------------------------------------------- first-beat checks
  logic          is_ip, ver_ok, tl_ok, ip_hdr_good, mac_pass, frag, roce_cand, is_gsi;
  logic [16:0]   exp_len, req_len_now;
  logic [10:0]   exp_beats;
  logic [7:0]    out_beats_now;
  logic [KW-1:0] out_keep_now;
  net_pkg::rx_verdict_e cls_now;

  always_comb begin
    is_ip       = p_hdr.eth.ethertype == net_pkg::ETHERTYPE_IPV4;
    ver_ok      = p_hdr.ip.version == 4'd4 && p_hdr.ip.ihl >= 4'd5;
    tl_ok       = p_hdr.ip.total_len >= {10'd0, p_hdr.ip.ihl, 2'b00};
    ip_hdr_good = ver_ok && (p_hdr.ip.ihl != 4'd5 || p_csum_ok) && tl_ok;
    mac_pass    = p_mac_ours || p_mac_group;
    frag        = p_hdr.ip.flag_mf || p_hdr.ip.frag_off != '0;
    roce_cand   = p_hdr.ip.proto == net_pkg::IP_PROTO_UDP
               && p_hdr.ip.total_len >= 16'd28
               && p_hdr.udp.dst_port == net_pkg::UDP_PORT_ROCEV2
               && p_ip_ours && p_mac_ours;
    // destination QP 1 (the GSI QP: connection-manager MADs) goes to the firmware
    // untouched; the BTH's DestQP is frame bytes 47..49, in the first beat
    is_gsi      = p_hdr.ip.total_len >= 16'd40
               && {p_data[47*8 +: 8], p_data[48*8 +: 8], p_data[49*8 +: 8]} == 24'd1;
    exp_len     = 17'(net_pkg::ETH_HDR_BYTES) + 17'(p_hdr.ip.total_len);
    exp_beats   = 11'((exp_len + 17'(KW - 1)) / 17'(KW));

    // the verdict of the header alone (the frame assumed long enough)
    if (!mac_pass)                                  cls_now = net_pkg::RX_NOT_FOR_US;
    else if (!is_ip)                                cls_now = net_pkg::RX_MGMT;
    else if (!ver_ok)                               cls_now = net_pkg::RX_BAD_HDR;
    else if (p_hdr.ip.ihl == 4'd5 && !p_csum_ok)    cls_now = net_pkg::RX_BAD_CSUM;
    else if (!tl_ok)                                cls_now = net_pkg::RX_BAD_HDR;
    else if (p_hdr.ip.ihl != 4'd5 || frag)          cls_now = net_pkg::RX_MGMT;
    else if (roce_cand) begin
      if (p_hdr.udp.length != p_hdr.ip.total_len - 16'd20)
                                                    cls_now = net_pkg::RX_BAD_HDR;
      else if (is_gsi)                              cls_now = net_pkg::RX_MGMT;
      else                                          cls_now = net_pkg::RX_ROCE;
    end else                                        cls_now = net_pkg::RX_MGMT;

    // bytes the frame must have: the Ethernet header, for IPv4 the base IP
    // header, and once that is sound, 14 + total length
    if (!mac_pass || !is_ip)  req_len_now = 17'(net_pkg::ETH_HDR_BYTES);
    else if (ip_hdr_good)     req_len_now = exp_len;
    else                      req_len_now = 17'(net_pkg::ETH_HDR_BYTES + net_pkg::IPV4_HDR_BYTES);

    // beats queued for the frame and the tkeep of its last queued beat
    if (is_ip && ip_hdr_good && exp_beats <= 11'(MAX_BEATS)) begin
      out_beats_now = 8'(exp_beats);
      out_keep_now  = net_pkg::keep_first(7'(((exp_len - 17'd1) & 17'(KW - 1)) + 17'd1));
    end else if (is_ip && ip_hdr_good) begin
      out_beats_now = 8'(MAX_BEATS);
      out_keep_now  = '1;
    end else begin
      out_beats_now = 8'(MAX_BEATS);
      out_keep_now  = '1;
    end
  end

  // -------------------------------------------------------- per-frame state
  logic                 acc_q, acc_d;
  tgt_e                 tgt_q, tgt_d;
  net_pkg::rx_verdict_e cls_q, cls_d;
  logic [16:0]          req_q, req_d;
  logic [7:0]           oli_q, oli_d;      // index of the last queued beat
  logic [KW-1:0]        olk_q, olk_d;      // its tkeep mask
  logic [BW-1:0]        idx_q, idx_d;      // beat index of the next beat
  logic                 mal_q, mal_d;
  logic                 hold_v_q, hold_v_d;
  logic [DW-1:0]        hold_data_q, hold_data_d;
  logic [KW-1:0]        hold_keep_q, hold_keep_d;

  // queues
  logic [$clog2(ROCE_DEPTH+1)-1:0] roce_count;
  logic [$clog2(MGMT_DEPTH+1)-1:0] mgmt_count;
  logic [$clog2(HDR_DEPTH+1)-1:0]  hdr_count;
  logic                 roce_space, mgmt_space;
  logic                 wr_en, roce_wr, mgmt_wr, hdr_wr;
  logic [FW-1:0]        wr_word;
  logic [DW-1:0]        w_data;
  logic [KW-1:0]        w_keep;
  logic                 w_last, w_user;

  // current beat, with the frame's state as of this beat
  logic [BW-1:0]        idx;
  logic                 f_acc, mal;
  tgt_e                 f_tgt;
  net_pkg::rx_verdict_e f_cls, verdict;
  logic [16:0]          f_req;
  logic [7:0]           f_oli;
  logic [KW-1:0]        f_olk;
  logic [17:0]          flen;
  logic                 bad, space_now, f_space;
  logic [NCNT-1:0]      cnt_inc;

  always_comb begin
    roce_space = 32'(ROCE_DEPTH) - 32'(roce_count) >= 32'(out_beats_now)
              && hdr_count != ($clog2(HDR_DEPTH+1))'(HDR_DEPTH);
    mgmt_space = 32'(MGMT_DEPTH) - 32'(mgmt_count) >= 32'(out_beats_now);

    idx   = p_sof ? '0 : idx_q;
    f_cls = p_sof ? cls_now : cls_q;
    f_req = p_sof ? req_len_now : req_q;
    f_oli = p_sof ? out_beats_now - 8'd1 : oli_q;
    f_olk = p_sof ? out_keep_now : olk_q;
    f_tgt = p_sof ? (cls_now == net_pkg::RX_ROCE ? TGT_ROCE : TGT_MGMT) : tgt_q;
    mal   = (p_sof ? 1'b0 : mal_q) || !p_keep_ok;
    flen  = {idx, 6'd0} + 18'(p_nbytes);

    // verdict of the frame, meaningful on its tlast beat
    space_now = cls_now == net_pkg::RX_ROCE ? roce_space : mgmt_space;
    f_space   = p_sof ? space_now : acc_q;
    if (mal || flen > 18'(MAX_FRAME_BYTES))     verdict = net_pkg::RX_MALFORMED;
    else if (p_user)                            verdict = net_pkg::RX_MAC_ERR;
    else if (flen < {1'b0, f_req})              verdict = net_pkg::RX_TRUNC;
    else if (f_cls != net_pkg::RX_ROCE && f_cls != net_pkg::RX_MGMT)
                                                verdict = f_cls;
    else if (!f_space)
      verdict = f_cls == net_pkg::RX_ROCE ? net_pkg::RX_ROCE_FULL : net_pkg::RX_MGMT_FULL;
    else                                        verdict = f_cls;
    bad = verdict != f_cls;

    // accept on the first beat: a good class, room in the target queue, and
    // nothing already wrong with this beat (a one-beat frame is judged whole)
    if (p_sof) begin
      f_acc = (cls_now == net_pkg::RX_ROCE || cls_now == net_pkg::RX_MGMT)
           && space_now && p_keep_ok && !(p_last && bad);
    end else begin
      f_acc = acc_q;
    end

    // what to queue for this beat
    w_data      = p_data;
    w_keep      = p_keep;
    w_last      = p_last;
    w_user      = p_last && bad;
    wr_en       = 1'b0;
    hold_v_d    = hold_v_q;
    hold_data_d = hold_data_q;
    hold_keep_d = hold_keep_q;
    if (p_valid && f_acc) begin
      if (idx < BW'(f_oli)) begin
        wr_en = 1'b1;
      end else if (idx == BW'(f_oli)) begin
        w_keep = p_keep & f_olk;
        w_last = 1'b1;
        if (p_last) begin
          wr_en = 1'b1;
        end else begin
          // more input than we queue: keep the last beat until the frame's
          // end tells whether it is good
          hold_v_d    = 1'b1;
          hold_data_d = p_data;
          hold_keep_d = p_keep & f_olk;
        end
      end else if (p_last) begin
        wr_en  = 1'b1;
        w_data = hold_data_q;
        w_keep = hold_keep_q;
        w_last = 1'b1;
      end
      if (p_last) hold_v_d = 1'b0;
    end
    roce_wr = wr_en && f_tgt == TGT_ROCE;
    mgmt_wr = wr_en && f_tgt == TGT_MGMT;
    hdr_wr  = p_valid && p_sof && f_acc && cls_now == net_pkg::RX_ROCE;
    wr_word = {w_data, w_keep, w_last, w_user};

    // frame state for the next beat
    acc_d = acc_q;
    tgt_d = tgt_q;
    cls_d = cls_q;
    req_d = req_q;
    oli_d = oli_q;
    olk_d = olk_q;
    idx_d = idx_q;
    mal_d = mal_q;
    if (p_valid) begin
      acc_d = f_acc;
      tgt_d = f_tgt;
      cls_d = f_cls;
      req_d = f_req;
      oli_d = f_oli;
      olk_d = f_olk;
      mal_d = mal;
      idx_d = p_last ? '0 : (idx == '1 ? idx : idx + BW'(1));
    end

    cnt_inc = '0;
    if (p_valid && p_last) cnt_inc[verdict] = 1'b1;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      acc_q    <= 1'b0;
      idx_q    <= '0;
      mal_q    <= 1'b0;
      hold_v_q <= 1'b0;
    end else begin
      acc_q    <= acc_d;
      idx_q    <= idx_d;
      mal_q    <= mal_d;
      hold_v_q <= hold_v_d;
    end
    tgt_q       <= tgt_d;
    cls_q       <= cls_d;
    req_q       <= req_d;
    oli_q       <= oli_d;
    olk_q       <= olk_d;
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
    .clk, .rst, .s_valid(hdr_wr), .s_ready(), .s_data(p_hdr),
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
endmodule
