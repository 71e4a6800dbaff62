// net_rx_parse: first two pipeline stages of the RX path.
//
// Stage 1 registers the MAC's beat (the MAC cannot be back-pressured, so there
// is no tready anywhere on this path), marks the first beat of a frame (sof),
// checks its tkeep (contiguous from byte 0, all ones unless tlast) and counts
// its bytes. Stage 2 extracts the Ethernet/IPv4/UDP header from the first
// beat (all 42 bytes sit in beat 0 of a 64-byte bus), checks the IPv4 header
// checksum and compares the addresses with ours. net_rx_demux decides.
`default_nettype none

module net_rx_parse (
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
  output logic [6:0]                        p_nbytes,   // bytes in this beat
  // with p_sof: the header fields of the frame and what they say
  output net_pkg::net_hdr_t                 p_hdr,
  output logic                              p_csum_ok,  // IPv4 checksum (IHL 5 view)
  output logic                              p_mac_ours, // dst MAC == our_mac
  output logic                              p_mac_group,// dst MAC broadcast/multicast
  output logic                              p_ip_ours   // dst IP == our_ip
);
  localparam int unsigned DW = net_pkg::DATA_W;
  localparam int unsigned KW = net_pkg::KEEP_W;

  // ---------------------------------------------------------------- stage 1
  logic          s1_v_q, s1_v_d;
  logic [DW-1:0] s1_data_q, s1_data_d;
  logic [KW-1:0] s1_keep_q, s1_keep_d;
  logic          s1_last_q, s1_last_d, s1_user_q, s1_user_d;
  logic          s1_sof_q, s1_sof_d, s1_kok_q, s1_kok_d;
  logic [6:0]    s1_nb_q, s1_nb_d;
  logic          in_frame_q, in_frame_d;

  logic [6:0]    nb;

  always_comb begin
    nb = '0;
    for (int i = 0; i < KW; i++) begin
      nb = nb + 7'(s_axis_rx_tkeep[i]);
    end
    s1_v_d    = s_axis_rx_tvalid;
    s1_data_d = s_axis_rx_tdata;
    s1_keep_d = s_axis_rx_tkeep;
    s1_last_d = s_axis_rx_tlast;
    s1_user_d = s_axis_rx_tuser;
    s1_sof_d  = s_axis_rx_tvalid && !in_frame_q;
    s1_nb_d   = nb;
    // contiguous from byte 0 (0..01..1), not empty, full unless last
    s1_kok_d  = (s_axis_rx_tkeep != '0)
             && ((s_axis_rx_tkeep & (s_axis_rx_tkeep + KW'(1))) == '0)
             && (s_axis_rx_tlast || s_axis_rx_tkeep == '1);
    in_frame_d = in_frame_q;
    if (s_axis_rx_tvalid) in_frame_d = !s_axis_rx_tlast;
  end

  // ---------------------------------------------------------------- stage 2
  logic          s2_v_q, s2_v_d;
  logic [DW-1:0] s2_data_q;
  logic [KW-1:0] s2_keep_q;
  logic          s2_last_q, s2_user_q, s2_sof_q, s2_kok_q;
  logic [6:0]    s2_nb_q;
  net_pkg::net_hdr_t hdr_q, hdr_d;
  logic          csum_ok_q, csum_ok_d, mac_ours_q, mac_ours_d;
  logic          mac_group_q, mac_group_d, ip_ours_q, ip_ours_d;

  always_comb begin
    s2_v_d      = s1_v_q;
    hdr_d       = net_pkg::bytes_to_hdr(s1_data_q[net_pkg::NET_HDR_W-1:0]);
    csum_ok_d   = net_pkg::ipv4_csum_ok(hdr_d.ip);
    mac_ours_d  = hdr_d.eth.dst_mac == our_mac;
    mac_group_d = hdr_d.eth.dst_mac[40];   // I/G bit: LSB of the first byte
    ip_ours_d   = hdr_d.ip.dst_ip == our_ip;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      s1_v_q     <= 1'b0;
      s2_v_q     <= 1'b0;
      in_frame_q <= 1'b0;
    end else begin
      s1_v_q     <= s1_v_d;
      s2_v_q     <= s2_v_d;
      in_frame_q <= in_frame_d;
    end
    s1_data_q   <= s1_data_d;
    s1_keep_q   <= s1_keep_d;
    s1_last_q   <= s1_last_d;
    s1_user_q   <= s1_user_d;
    s1_sof_q    <= s1_sof_d;
    s1_kok_q    <= s1_kok_d;
    s1_nb_q     <= s1_nb_d;
    s2_data_q   <= s1_data_q;
    s2_keep_q   <= s1_keep_q;
    s2_last_q   <= s1_last_q;
    s2_user_q   <= s1_user_q;
    s2_sof_q    <= s1_sof_q;
    s2_kok_q    <= s1_kok_q;
    s2_nb_q     <= s1_nb_q;
    hdr_q       <= hdr_d;
    csum_ok_q   <= csum_ok_d;
    mac_ours_q  <= mac_ours_d;
    mac_group_q <= mac_group_d;
    ip_ours_q   <= ip_ours_d;
  end

  assign p_valid     = s2_v_q;
  assign p_data      = s2_data_q;
  assign p_keep      = s2_keep_q;
  assign p_last      = s2_last_q;
  assign p_user      = s2_user_q;
  assign p_sof       = s2_sof_q;
  assign p_keep_ok   = s2_kok_q;
  assign p_nbytes    = s2_nb_q;
  assign p_hdr       = hdr_q;
  assign p_csum_ok   = csum_ok_q;
  assign p_mac_ours  = mac_ours_q;
  assign p_mac_group = mac_group_q;
  assign p_ip_ours   = ip_ours_q;
endmodule
