// net_rx_parse: first two pipeline stages of the RX path: the beat and the
// facts about its frame's headers, every output from a flip-flop. net_rx_demux
// decides from these facts.
//
// Stage 1 (from the input ports) registers the MAC's beat (the MAC cannot be
// back-pressured, so there is no tready anywhere on this path), marks the
// first beat of a frame (sof), checks its tkeep (contiguous from byte 0, all
// ones unless tlast), counts its bytes (decoding tkeep as a thermometer
// code) and adds the IPv4 header's ten 16-bit
// words in four partial sums (3 + 3 + 2 + 2 words), which matter only on the
// first beat (all 42 header bytes sit in beat 0 of a 64-byte bus).
// Stage 2 (from stage 1's registers) extracts the Ethernet/IPv4/UDP header,
// ends the checksum (the four partial sums added; the folded one's
// complement sum is 0xFFFF exactly when sum[15:0] + sum[19:16] == 0xFFFF, a
// compare rather than two more adders), compares the addresses with ours,
// evaluates every header field test net_rx_demux's rules use (rtl/net/README.md)
// and the frame's length arithmetic: the beat index, the frame's length up to
// and with this beat (flen), whether it is over MAX_FRAME_BYTES, and on the
// first beat whether the frame is already shorter than 14, 34 or 14 + IP total
// length bytes (the demux picks which one applies), the beats a whole IPv4
// frame takes, the index of its last beat and that beat's tkeep.
`default_nettype none

module net_rx_parse #(
  parameter int unsigned MAX_FRAME_BYTES = net_pkg::MAX_FRAME_BYTES
) (
  input  wire logic                         clk,
  input  wire logic                         rst,
  input  wire logic [47:0]                  our_mac,
  input  wire logic [31:0]                  our_ip,
  // MAC RX stream, frames without FCS; tuser on the tlast beat = MAC error
  input  wire logic [net_pkg::DATA_W-1:0]   s_axis_rx_tdata,
  input  wire logic [net_pkg::KEEP_W-1:0]   s_axis_rx_tkeep,
  input  wire logic                         s_axis_rx_tvalid,
  input  wire logic                         s_axis_rx_tlast,
  input  wire logic                         s_axis_rx_tuser,
  // parsed beats, two cycles after the input
  output logic                              p_valid,
  output logic [net_pkg::DATA_W-1:0]        p_data,
  output logic [net_pkg::KEEP_W-1:0]        p_keep,
  output logic                              p_last,
  output logic                              p_user,
  output logic                              p_sof,      // first beat of a frame
  output logic                              p_keep_ok,  // tkeep well formed
  output logic [10:0]                       p_idx,      // beat index in the frame (saturates)
  output logic [17:0]                       p_flen,     // frame bytes up to and with this beat
  output logic                              p_too_long, // p_flen > MAX_FRAME_BYTES
  // with p_sof: p_flen (the beat's bytes) below 14, 34, 14 + IP total length
  output logic                              p_lt_eth,
  output logic                              p_lt_ip,
  output logic                              p_lt_exp,
  // with p_sof: the header fields of the frame and what they say
  output net_pkg::net_hdr_t                 p_hdr,
  output logic                              p_csum_ok,  // IPv4 checksum (IHL 5 view)
  output logic                              p_mac_ours, // dst MAC == our_mac
  output logic                              p_mac_group,// dst MAC broadcast/multicast
  output logic                              p_is_ip,    // ethertype IPv4
  output logic                              p_ver_ok,   // version 4, IHL >= 5
  output logic                              p_ihl5,     // IHL == 5 (no options)
  output logic                              p_tl_ok,    // total length >= IHL * 4
  output logic                              p_frag,     // MF or fragment offset != 0
  output logic                              p_roce_cand,// UDP, total length >= 28, port 4791, our IP and MAC
  output logic                              p_udp_len_ok,// UDP length == total length - 20
  output logic                              p_gsi,      // total length >= 40 and BTH DestQP == 1
  output logic [16:0]                       p_exp_len,  // 14 + total length
  output logic                              p_fits,     // ceil((14 + total length) / 64) <= max beats
  output logic [7:0]                        p_beats,    // ceil((14 + total length) / 64) (when p_fits)
  output logic [7:0]                        p_oli,      // p_beats - 1
  output logic                              p_oli_zero, // p_oli == 0 (one beat)
  output logic [net_pkg::KEEP_W-1:0]        p_olk       // tkeep of that last beat
);
  localparam int unsigned DW        = net_pkg::DATA_W;
  localparam int unsigned KW        = net_pkg::KEEP_W;
  localparam int unsigned MAX_BEATS = (MAX_FRAME_BYTES + KW - 1) / KW;

  // ---------------------------------------------------------------- stage 1
  logic          s1_v_q, s1_v_d;
  logic [DW-1:0] s1_data_q, s1_data_d;
  logic [KW-1:0] s1_keep_q, s1_keep_d;
  logic          s1_last_q, s1_last_d, s1_user_q, s1_user_d;
  logic          s1_sof_q, s1_sof_d, s1_kok_q, s1_kok_d;
  logic [6:0]    s1_nb_q, s1_nb_d;
  logic [17:0]   s1_t0_q, s1_t0_d, s1_t1_q, s1_t1_d;   // IPv4 words 0-2, 3-5
  logic [16:0]   s1_t2_q, s1_t2_d, s1_t3_q, s1_t3_d;   // IPv4 words 6-7, 8-9
  logic          in_frame_q, in_frame_d;

  logic [6:0]    nb;
  logic          contig;
  logic [15:0]   w [10];   // the IPv4 header's words (frame bytes 14..33, big endian)

  always_comb begin
    // the bytes of a well-formed beat (tkeep 0..01..1: a thermometer code):
    // bit k of the count is set when the count lies in [m * 2^k, (m+1) * 2^k)
    // for an odd m, i.e. byte m * 2^k - 1 is kept and byte (m+1) * 2^k - 1 is
    // not. (A malformed beat's count is never used: its frame is MALFORMED.)
    nb = '0;
    nb[6] = s_axis_rx_tkeep[KW-1];
    for (int k = 0; k < 6; k++) begin
      for (int m = 1; (m + 1) * (1 << k) <= KW; m += 2) begin
        if (s_axis_rx_tkeep[m * (1 << k) - 1] && !s_axis_rx_tkeep[(m + 1) * (1 << k) - 1]) nb[k] = 1'b1;
      end
    end
    // contiguous from byte 0 (0..01..1): no byte kept above one that is not
    contig = 1'b1;
    for (int i = 0; i < KW - 1; i++) begin
      if (s_axis_rx_tkeep[i+1] && !s_axis_rx_tkeep[i]) contig = 1'b0;
    end
    for (int i = 0; i < 10; i++) begin
      w[i] = {s_axis_rx_tdata[(14 + 2*i)*8 +: 8], s_axis_rx_tdata[(15 + 2*i)*8 +: 8]};
    end
    s1_v_d    = s_axis_rx_tvalid;
    s1_data_d = s_axis_rx_tdata;
    s1_keep_d = s_axis_rx_tkeep;
    s1_last_d = s_axis_rx_tlast;
    s1_user_d = s_axis_rx_tuser;
    s1_sof_d  = s_axis_rx_tvalid && !in_frame_q;
    s1_nb_d   = nb;
    // contiguous, not empty (byte 0 kept), full unless last (byte 63 kept)
    s1_kok_d  = contig && s_axis_rx_tkeep[0] && (s_axis_rx_tlast || s_axis_rx_tkeep[KW-1]);
    s1_t0_d   = 18'(w[0]) + 18'(w[1]) + 18'(w[2]);
    s1_t1_d   = 18'(w[3]) + 18'(w[4]) + 18'(w[5]);
    s1_t2_d   = 17'(w[6]) + 17'(w[7]);
    s1_t3_d   = 17'(w[8]) + 17'(w[9]);
    in_frame_d = in_frame_q;
    if (s_axis_rx_tvalid) in_frame_d = !s_axis_rx_tlast;
  end

  // ---------------------------------------------------------------- stage 2
  logic          s2_v_q, s2_v_d;
  logic [DW-1:0] s2_data_q;
  logic [KW-1:0] s2_keep_q;
  logic          s2_last_q, s2_user_q, s2_sof_q, s2_kok_q;
  logic [10:0]   idx_q, idx_d, idx;         // beat index of the stage-1 beat
  logic [17:0]   flen_q, flen_d;
  logic          too_long_q, too_long_d, lt_eth_q, lt_eth_d, lt_ip_q, lt_ip_d;
  logic          lt_exp_q, lt_exp_d;
  net_pkg::net_hdr_t hdr_q, hdr_d;
  logic [19:0]   sum;
  logic          csum_ok_q, csum_ok_d, mac_ours_q, mac_ours_d;
  logic          mac_group_q, mac_group_d, ip_ours;
  logic          is_ip_q, is_ip_d, ver_ok_q, ver_ok_d, ihl5_q, ihl5_d, tl_ok_q, tl_ok_d;
  logic          frag_q, frag_d, roce_cand_q, roce_cand_d, udp_len_ok_q, udp_len_ok_d;
  logic          gsi_q, gsi_d, fits_q, fits_d;
  logic [16:0]   exp_len_q, exp_len_d, tl13;
  logic [7:0]    beats_q, beats_d, oli_q, oli_d;
  logic          oli_zero_q, oli_zero_d;
  logic [KW-1:0] olk_q, olk_d;

  // the checksum, the addresses, the frame's length so far
  always_comb begin
    s2_v_d      = s1_v_q;
    hdr_d       = net_pkg::bytes_to_hdr(s1_data_q[net_pkg::NET_HDR_W-1:0]);
    sum         = 20'(s1_t0_q) + 20'(s1_t1_q) + 20'(s1_t2_q) + 20'(s1_t3_q);
    csum_ok_d   = sum[15:4] == 12'hFFF && sum[3:0] == ~sum[19:16];
    mac_ours_d  = hdr_d.eth.dst_mac == our_mac;
    mac_group_d = hdr_d.eth.dst_mac[40];   // I/G bit: LSB of the first byte
    ip_ours     = hdr_d.ip.dst_ip == our_ip;

    idx         = s1_sof_q ? '0 : idx_q;
    idx_d       = idx_q;
    if (s1_v_q) idx_d = s1_last_q ? '0 : (idx == '1 ? idx : idx + 11'd1);
    flen_d      = {1'b0, idx, 6'd0} + 18'(s1_nb_q);
    too_long_d  = flen_d > 18'(MAX_FRAME_BYTES);
    lt_eth_d    = flen_d < 18'(net_pkg::ETH_HDR_BYTES);
    lt_ip_d     = flen_d < 18'(net_pkg::ETH_HDR_BYTES + net_pkg::IPV4_HDR_BYTES);
    lt_exp_d    = 17'(s1_nb_q) < exp_len_d;
  end

  // the header field tests and the IPv4 length arithmetic
  always_comb begin
    is_ip_d      = hdr_d.eth.ethertype == net_pkg::ETHERTYPE_IPV4;
    ver_ok_d     = hdr_d.ip.version == 4'd4 && hdr_d.ip.ihl >= 4'd5;
    ihl5_d       = hdr_d.ip.ihl == 4'd5;
    tl_ok_d      = hdr_d.ip.total_len >= {10'd0, hdr_d.ip.ihl, 2'b00};
    frag_d       = hdr_d.ip.flag_mf || hdr_d.ip.frag_off != '0;
    roce_cand_d  = hdr_d.ip.proto == net_pkg::IP_PROTO_UDP
                && hdr_d.ip.total_len >= 16'd28
                && hdr_d.udp.dst_port == net_pkg::UDP_PORT_ROCEV2
                && ip_ours && mac_ours_d;
    udp_len_ok_d = hdr_d.udp.length == hdr_d.ip.total_len - 16'd20;
    // destination QP 1 (the GSI QP: connection-manager MADs) goes to the firmware
    // untouched; the BTH's DestQP is frame bytes 47..49, in the first beat
    gsi_d        = hdr_d.ip.total_len >= 16'd40
                && {s1_data_q[47*8 +: 8], s1_data_q[48*8 +: 8], s1_data_q[49*8 +: 8]} == 24'd1;
    exp_len_d    = 17'(net_pkg::ETH_HDR_BYTES) + 17'(hdr_d.ip.total_len);
    // ceil((14 + tl) / 64) <= MAX_BEATS  <=>  tl <= MAX_BEATS * 64 - 14
    fits_d       = 32'(hdr_d.ip.total_len) <= 32'(MAX_BEATS * KW - net_pkg::ETH_HDR_BYTES);
    beats_d      = 8'((17'(hdr_d.ip.total_len) + 17'(net_pkg::ETH_HDR_BYTES + KW - 1)) >> 6);
    // the last beat: index floor((14 + tl - 1) / 64), bytes ((14 + tl - 1) mod 64) + 1
    tl13         = 17'(hdr_d.ip.total_len) + 17'(net_pkg::ETH_HDR_BYTES - 1);
    oli_d        = 8'(tl13 >> 6);
    oli_zero_d   = 17'(hdr_d.ip.total_len) <= 17'(KW - net_pkg::ETH_HDR_BYTES);
    for (int i = 0; i < KW; i++) begin
      olk_d[i] = 6'(i) <= tl13[5:0];
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      s1_v_q     <= 1'b0;
      s2_v_q     <= 1'b0;
      in_frame_q <= 1'b0;
      idx_q      <= '0;
    end else begin
      s1_v_q     <= s1_v_d;
      s2_v_q     <= s2_v_d;
      in_frame_q <= in_frame_d;
      idx_q      <= idx_d;
    end
    s1_data_q    <= s1_data_d;
    s1_keep_q    <= s1_keep_d;
    s1_last_q    <= s1_last_d;
    s1_user_q    <= s1_user_d;
    s1_sof_q     <= s1_sof_d;
    s1_kok_q     <= s1_kok_d;
    s1_nb_q      <= s1_nb_d;
    s1_t0_q      <= s1_t0_d;
    s1_t1_q      <= s1_t1_d;
    s1_t2_q      <= s1_t2_d;
    s1_t3_q      <= s1_t3_d;
    s2_data_q    <= s1_data_q;
    s2_keep_q    <= s1_keep_q;
    s2_last_q    <= s1_last_q;
    s2_user_q    <= s1_user_q;
    s2_sof_q     <= s1_sof_q;
    s2_kok_q     <= s1_kok_q;
    flen_q       <= flen_d;
    too_long_q   <= too_long_d;
    lt_eth_q     <= lt_eth_d;
    lt_ip_q      <= lt_ip_d;
    lt_exp_q     <= lt_exp_d;
    hdr_q        <= hdr_d;
    csum_ok_q    <= csum_ok_d;
    mac_ours_q   <= mac_ours_d;
    mac_group_q  <= mac_group_d;
    is_ip_q      <= is_ip_d;
    ver_ok_q     <= ver_ok_d;
    ihl5_q       <= ihl5_d;
    tl_ok_q      <= tl_ok_d;
    frag_q       <= frag_d;
    roce_cand_q  <= roce_cand_d;
    udp_len_ok_q <= udp_len_ok_d;
    gsi_q        <= gsi_d;
    exp_len_q    <= exp_len_d;
    fits_q       <= fits_d;
    beats_q      <= beats_d;
    oli_q        <= oli_d;
    oli_zero_q   <= oli_zero_d;
    olk_q        <= olk_d;
  end

  // the beat index of the stage-2 beat, registered beside it
  logic [10:0] p_idx_q;
  always_ff @(posedge clk) begin
    p_idx_q <= idx;
  end

  assign p_valid      = s2_v_q;
  assign p_data       = s2_data_q;
  assign p_keep       = s2_keep_q;
  assign p_last       = s2_last_q;
  assign p_user       = s2_user_q;
  assign p_sof        = s2_sof_q;
  assign p_keep_ok    = s2_kok_q;
  assign p_idx        = p_idx_q;
  assign p_flen       = flen_q;
  assign p_too_long   = too_long_q;
  assign p_lt_eth     = lt_eth_q;
  assign p_lt_ip      = lt_ip_q;
  assign p_lt_exp     = lt_exp_q;
  assign p_hdr        = hdr_q;
  assign p_csum_ok    = csum_ok_q;
  assign p_mac_ours   = mac_ours_q;
  assign p_mac_group  = mac_group_q;
  assign p_is_ip      = is_ip_q;
  assign p_ver_ok     = ver_ok_q;
  assign p_ihl5       = ihl5_q;
  assign p_tl_ok      = tl_ok_q;
  assign p_frag       = frag_q;
  assign p_roce_cand  = roce_cand_q;
  assign p_udp_len_ok = udp_len_ok_q;
  assign p_gsi        = gsi_q;
  assign p_exp_len    = exp_len_q;
  assign p_fits       = fits_q;
  assign p_beats      = beats_q;
  assign p_oli        = oli_q;
  assign p_oli_zero   = oli_zero_q;
  assign p_olk        = olk_q;
endmodule
