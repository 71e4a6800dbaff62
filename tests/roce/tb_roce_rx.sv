// tb_roce_rx: RX chain under test, roce_icrc_check -> roce_rx_parse, with the
// link between them brought out for the line-rate measurement.
`default_nettype none

module tb_roce_rx (
  input  wire logic                          clk,
  input  wire logic                          rst,
  input  wire logic [511:0]                  s_axis_frame_tdata,
  input  wire logic [63:0]                   s_axis_frame_tkeep,
  input  wire logic                          s_axis_frame_tvalid,
  output logic                               s_axis_frame_tready,
  input  wire logic                          s_axis_frame_tlast,
  input  wire logic                          s_axis_frame_tuser,   // on tlast: drop marker
  input  wire logic [15:0]                   s_frame_meta,
  output logic                               m_hdr_valid,
  input  wire logic                          m_hdr_ready,
  output logic [roce_pkg::RX_HDR_W-1:0]      m_hdr,
  output logic [15:0]                        m_hdr_user,
  output logic [511:0]                       m_axis_payload_tdata,
  output logic [63:0]                        m_axis_payload_tkeep,
  output logic                               m_axis_payload_tvalid,
  input  wire logic                          m_axis_payload_tready,
  output logic                               m_axis_payload_tlast,
  output logic                               mid_tvalid,        // checker -> parser link
  output logic                               mid_tready,
  output logic [31:0]                        cnt_drop_icrc,
  output logic [31:0]                        cnt_drop_trunc,
  output logic [31:0]                        cnt_drop_opcode,
  output logic [31:0]                        cnt_drop_version,
  output logic [31:0]                        cnt_drop_len,
  output logic [31:0]                        cnt_pkt_ok
);
  logic [511:0] c_tdata;
  logic [63:0]  c_tkeep;
  logic         c_tvalid, c_tready, c_tlast;
  logic [15:0]  c_tuser;
  roce_pkg::rx_hdr_t hdr;

  roce_icrc_check #(.USER_W(16)) u_check (
    .clk                 (clk),
    .rst                 (rst),
    .s_axis_frame_tdata  (s_axis_frame_tdata),
    .s_axis_frame_tkeep  (s_axis_frame_tkeep),
    .s_axis_frame_tvalid (s_axis_frame_tvalid),
    .s_axis_frame_tready (s_axis_frame_tready),
    .s_axis_frame_tlast  (s_axis_frame_tlast),
    .s_axis_frame_tuser  (s_axis_frame_tuser),
    .s_frame_meta        (s_frame_meta),
    .m_axis_frame_tdata  (c_tdata),
    .m_axis_frame_tkeep  (c_tkeep),
    .m_axis_frame_tvalid (c_tvalid),
    .m_axis_frame_tready (c_tready),
    .m_axis_frame_tlast  (c_tlast),
    .m_axis_frame_tuser  (c_tuser),
    .cnt_drop_icrc       (cnt_drop_icrc),
    .cnt_drop_len        (cnt_drop_trunc)
  );

  roce_rx_parse #(.USER_W(16)) u_parse (
    .clk                   (clk),
    .rst                   (rst),
    .s_axis_frame_tdata    (c_tdata),
    .s_axis_frame_tkeep    (c_tkeep),
    .s_axis_frame_tvalid   (c_tvalid),
    .s_axis_frame_tready   (c_tready),
    .s_axis_frame_tlast    (c_tlast),
    .s_axis_frame_tuser    (c_tuser),
    .m_hdr_valid           (m_hdr_valid),
    .m_hdr_ready           (m_hdr_ready),
    .m_hdr                 (hdr),
    .m_hdr_user            (m_hdr_user),
    .m_axis_payload_tdata  (m_axis_payload_tdata),
    .m_axis_payload_tkeep  (m_axis_payload_tkeep),
    .m_axis_payload_tvalid (m_axis_payload_tvalid),
    .m_axis_payload_tready (m_axis_payload_tready),
    .m_axis_payload_tlast  (m_axis_payload_tlast),
    .cnt_drop_opcode       (cnt_drop_opcode),
    .cnt_drop_version      (cnt_drop_version),
    .cnt_drop_len          (cnt_drop_len),
    .cnt_pkt_ok            (cnt_pkt_ok)
  );

  assign m_hdr      = hdr;
  assign mid_tvalid = c_tvalid;
  assign mid_tready = c_tready;

endmodule
