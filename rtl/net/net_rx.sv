// net_rx: the RX half of the net layer: net_rx_parse + net_rx_demux.
// Input: the MAC's RX stream (no back-pressure). Outputs: RoCE frames with a
// parsed-header channel, management frames, and the drop counters.
// Latency: a beat leaves on m_axis_* 5 cycles after it entered (cut-through):
// net_rx_parse 2 (register, header facts), net_rx_demux 3 (classify, admit
// and write, queue output register).
`default_nettype none

module net_rx #(
  parameter int unsigned ROCE_DEPTH      = 256,
  parameter int unsigned MGMT_DEPTH      = 256,
  parameter int unsigned HDR_DEPTH       = 32,
  parameter int unsigned MAX_FRAME_BYTES = net_pkg::MAX_FRAME_BYTES
) (
  input  wire logic                         clk,
  input  wire logic                         rst,
  input  wire logic [47:0]                  our_mac,
  input  wire logic [31:0]                  our_ip,
  input  wire logic [net_pkg::DATA_W-1:0]   s_axis_rx_tdata,
  input  wire logic [net_pkg::KEEP_W-1:0]   s_axis_rx_tkeep,
  input  wire logic                         s_axis_rx_tvalid,
  input  wire logic                         s_axis_rx_tlast,
  input  wire logic                         s_axis_rx_tuser,
  output logic [net_pkg::DATA_W-1:0]        m_axis_roce_tdata,
  output logic [net_pkg::KEEP_W-1:0]        m_axis_roce_tkeep,
  output logic                              m_axis_roce_tvalid,
  input  wire logic                         m_axis_roce_tready,
  output logic                              m_axis_roce_tlast,
  output logic                              m_axis_roce_tuser,
  output logic                              m_roce_hdr_valid,
  input  wire logic                         m_roce_hdr_ready,
  output net_pkg::net_hdr_t                 m_roce_hdr,
  output logic [net_pkg::DATA_W-1:0]        m_axis_mgmt_tdata,
  output logic [net_pkg::KEEP_W-1:0]        m_axis_mgmt_tkeep,
  output logic                              m_axis_mgmt_tvalid,
  input  wire logic                         m_axis_mgmt_tready,
  output logic                              m_axis_mgmt_tlast,
  output logic                              m_axis_mgmt_tuser,
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
  logic                        p_valid, p_last, p_user, p_sof, p_keep_ok;
  logic [net_pkg::DATA_W-1:0]  p_data;
  logic [net_pkg::KEEP_W-1:0]  p_keep;
  logic [10:0]                 p_idx;
  logic [17:0]                 p_flen;
  logic                        p_too_long, p_lt_eth, p_lt_ip, p_lt_exp;
  net_pkg::net_hdr_t           p_hdr;
  logic                        p_csum_ok, p_mac_ours, p_mac_group, p_is_ip, p_ver_ok, p_ihl5;
  logic                        p_tl_ok, p_frag, p_roce_cand, p_udp_len_ok, p_gsi, p_fits;
  logic [16:0]                 p_exp_len;
  logic [7:0]                  p_beats, p_oli;
  logic                        p_oli_zero;
  logic [net_pkg::KEEP_W-1:0]  p_olk;

  net_rx_parse #(.MAX_FRAME_BYTES(MAX_FRAME_BYTES)) u_parse (
    .clk, .rst, .our_mac, .our_ip,
    .s_axis_rx_tdata, .s_axis_rx_tkeep, .s_axis_rx_tvalid, .s_axis_rx_tlast, .s_axis_rx_tuser,
    .p_valid, .p_data, .p_keep, .p_last, .p_user, .p_sof, .p_keep_ok, .p_idx, .p_flen,
    .p_too_long, .p_lt_eth, .p_lt_ip, .p_lt_exp,
    .p_hdr, .p_csum_ok, .p_mac_ours, .p_mac_group, .p_is_ip, .p_ver_ok, .p_ihl5, .p_tl_ok,
    .p_frag, .p_roce_cand, .p_udp_len_ok, .p_gsi, .p_exp_len, .p_fits, .p_beats, .p_oli, .p_oli_zero, .p_olk
  );

  net_rx_demux #(
    .ROCE_DEPTH(ROCE_DEPTH), .MGMT_DEPTH(MGMT_DEPTH), .HDR_DEPTH(HDR_DEPTH),
    .MAX_FRAME_BYTES(MAX_FRAME_BYTES)
  ) u_demux (
    .clk, .rst,
    .p_valid, .p_data, .p_keep, .p_last, .p_user, .p_sof, .p_keep_ok, .p_idx, .p_flen,
    .p_too_long, .p_lt_eth, .p_lt_ip, .p_lt_exp,
    .p_hdr, .p_csum_ok, .p_mac_ours, .p_mac_group, .p_is_ip, .p_ver_ok, .p_ihl5, .p_tl_ok,
    .p_frag, .p_roce_cand, .p_udp_len_ok, .p_gsi, .p_exp_len, .p_fits, .p_beats, .p_oli, .p_oli_zero, .p_olk,
    .m_axis_roce_tdata, .m_axis_roce_tkeep, .m_axis_roce_tvalid, .m_axis_roce_tready,
    .m_axis_roce_tlast, .m_axis_roce_tuser,
    .m_roce_hdr_valid, .m_roce_hdr_ready, .m_roce_hdr,
    .m_axis_mgmt_tdata, .m_axis_mgmt_tkeep, .m_axis_mgmt_tvalid, .m_axis_mgmt_tready,
    .m_axis_mgmt_tlast, .m_axis_mgmt_tuser,
    .cnt_rx_roce, .cnt_rx_mgmt, .cnt_drop_bad_csum, .cnt_drop_trunc, .cnt_drop_bad_hdr,
    .cnt_drop_malformed, .cnt_drop_mac_err, .cnt_drop_not_for_us, .cnt_drop_roce_full,
    .cnt_drop_mgmt_full
  );
endmodule
