// net_tx: the TX half of the net layer. RoCE packets arrive as a header
// (net_pkg::tx_hdr_t) plus payload (BTH ... ICRC) and get their
// Ethernet/IPv4/UDP header from net_tx_build; management frames arrive whole.
// net_tx_arbiter merges both into the MAC's TX stream (tuser = 0 for RoCE).
`default_nettype none

module net_tx (
  input  wire logic                         clk,
  input  wire logic                         rst,
  input  wire logic                         s_roce_hdr_valid,
  output logic                              s_roce_hdr_ready,
  input  wire net_pkg::tx_hdr_t             s_roce_hdr,
  input  wire logic [net_pkg::DATA_W-1:0]   s_axis_roce_tdata,
  input  wire logic [net_pkg::KEEP_W-1:0]   s_axis_roce_tkeep,
  input  wire logic                         s_axis_roce_tvalid,
  output logic                              s_axis_roce_tready,
  input  wire logic                         s_axis_roce_tlast,
  input  wire logic [net_pkg::DATA_W-1:0]   s_axis_mgmt_tdata,
  input  wire logic [net_pkg::KEEP_W-1:0]   s_axis_mgmt_tkeep,
  input  wire logic                         s_axis_mgmt_tvalid,
  output logic                              s_axis_mgmt_tready,
  input  wire logic                         s_axis_mgmt_tlast,
  input  wire logic                         s_axis_mgmt_tuser,
  output logic [net_pkg::DATA_W-1:0]        m_axis_tx_tdata,
  output logic [net_pkg::KEEP_W-1:0]        m_axis_tx_tkeep,
  output logic                              m_axis_tx_tvalid,
  input  wire logic                         m_axis_tx_tready,
  output logic                              m_axis_tx_tlast,
  output logic                              m_axis_tx_tuser,
  output logic                              roce_len_err
);
  logic [net_pkg::DATA_W-1:0] b_data;
  logic [net_pkg::KEEP_W-1:0] b_keep;
  logic                       b_valid, b_ready, b_last;

  net_tx_build u_build (
    .clk, .rst,
    .s_hdr_valid(s_roce_hdr_valid), .s_hdr_ready(s_roce_hdr_ready), .s_hdr(s_roce_hdr),
    .s_axis_payload_tdata(s_axis_roce_tdata), .s_axis_payload_tkeep(s_axis_roce_tkeep),
    .s_axis_payload_tvalid(s_axis_roce_tvalid), .s_axis_payload_tready(s_axis_roce_tready),
    .s_axis_payload_tlast(s_axis_roce_tlast),
    .m_axis_tx_tdata(b_data), .m_axis_tx_tkeep(b_keep), .m_axis_tx_tvalid(b_valid),
    .m_axis_tx_tready(b_ready), .m_axis_tx_tlast(b_last),
    .len_err(roce_len_err)
  );

  net_tx_arbiter #(.USER_W(1)) u_arb (
    .clk, .rst,
    .s_axis_roce_tdata(b_data), .s_axis_roce_tkeep(b_keep), .s_axis_roce_tvalid(b_valid),
    .s_axis_roce_tready(b_ready), .s_axis_roce_tlast(b_last), .s_axis_roce_tuser(1'b0),
    .s_axis_mgmt_tdata, .s_axis_mgmt_tkeep, .s_axis_mgmt_tvalid, .s_axis_mgmt_tready,
    .s_axis_mgmt_tlast, .s_axis_mgmt_tuser,
    .m_axis_tx_tdata, .m_axis_tx_tkeep, .m_axis_tx_tvalid, .m_axis_tx_tready,
    .m_axis_tx_tlast, .m_axis_tx_tuser
  );
endmodule
