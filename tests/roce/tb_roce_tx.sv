// tb_roce_tx: TX chains under test.
//   a: roce_tx_build (42-byte Eth/IPv4/UDP prefix) -> roce_icrc_insert: whole frames
//   b: roce_tx_build without prefix: BTH ... pad
`default_nettype none

module tb_roce_tx (
  input  wire logic                          clk,
  input  wire logic                          rst,
  // chain a
  input  wire logic                          a_hdr_valid,
  output logic                               a_hdr_ready,
  input  wire logic [roce_pkg::TX_HDR_W-1:0] a_hdr,
  input  wire logic [335:0]                  a_prefix,
  input  wire logic [511:0]                  a_pay_tdata,
  input  wire logic [63:0]                   a_pay_tkeep,
  input  wire logic                          a_pay_tvalid,
  output logic                               a_pay_tready,
  input  wire logic                          a_pay_tlast,
  output logic [511:0]                       a_out_tdata,
  output logic [63:0]                        a_out_tkeep,
  output logic                               a_out_tvalid,
  input  wire logic                          a_out_tready,
  output logic                               a_out_tlast,
  // chain b
  input  wire logic                          b_hdr_valid,
  output logic                               b_hdr_ready,
  input  wire logic [roce_pkg::TX_HDR_W-1:0] b_hdr,
  input  wire logic [511:0]                  b_pay_tdata,
  input  wire logic [63:0]                   b_pay_tkeep,
  input  wire logic                          b_pay_tvalid,
  output logic                               b_pay_tready,
  input  wire logic                          b_pay_tlast,
  output logic [511:0]                       b_out_tdata,
  output logic [63:0]                        b_out_tkeep,
  output logic                               b_out_tvalid,
  input  wire logic                          b_out_tready,
  output logic                               b_out_tlast
);
  logic [511:0] f_tdata;
  logic [63:0]  f_tkeep;
  logic         f_tvalid, f_tready, f_tlast;
  roce_pkg::tx_hdr_t ah, bh;

  assign ah = a_hdr;
  assign bh = b_hdr;

  roce_tx_build #(.PREFIX_BYTES(42)) u_build_a (
    .clk                   (clk),
    .rst                   (rst),
    .s_hdr_valid           (a_hdr_valid),
    .s_hdr_ready           (a_hdr_ready),
    .s_hdr                 (ah),
    .s_hdr_info            (roce_pkg::roce_opcode_info(ah.hdr.bth.opcode)),
    .s_hdr_prefix          (a_prefix),
    .s_axis_payload_tdata  (a_pay_tdata),
    .s_axis_payload_tkeep  (a_pay_tkeep),
    .s_axis_payload_tvalid (a_pay_tvalid),
    .s_axis_payload_tready (a_pay_tready),
    .s_axis_payload_tlast  (a_pay_tlast),
    .m_axis_frame_tdata    (f_tdata),
    .m_axis_frame_tkeep    (f_tkeep),
    .m_axis_frame_tvalid   (f_tvalid),
    .m_axis_frame_tready   (f_tready),
    .m_axis_frame_tlast    (f_tlast)
  );

  roce_icrc_insert u_insert (
    .clk                 (clk),
    .rst                 (rst),
    .s_axis_frame_tdata  (f_tdata),
    .s_axis_frame_tkeep  (f_tkeep),
    .s_axis_frame_tvalid (f_tvalid),
    .s_axis_frame_tready (f_tready),
    .s_axis_frame_tlast  (f_tlast),
    .m_axis_frame_tdata  (a_out_tdata),
    .m_axis_frame_tkeep  (a_out_tkeep),
    .m_axis_frame_tvalid (a_out_tvalid),
    .m_axis_frame_tready (a_out_tready),
    .m_axis_frame_tlast  (a_out_tlast)
  );

  roce_tx_build #(.PREFIX_BYTES(0)) u_build_b (
    .clk                   (clk),
    .rst                   (rst),
    .s_hdr_valid           (b_hdr_valid),
    .s_hdr_ready           (b_hdr_ready),
    .s_hdr                 (bh),
    .s_hdr_info            (roce_pkg::roce_opcode_info(bh.hdr.bth.opcode)),
    .s_hdr_prefix          (8'd0),
    .s_axis_payload_tdata  (b_pay_tdata),
    .s_axis_payload_tkeep  (b_pay_tkeep),
    .s_axis_payload_tvalid (b_pay_tvalid),
    .s_axis_payload_tready (b_pay_tready),
    .s_axis_payload_tlast  (b_pay_tlast),
    .m_axis_frame_tdata    (b_out_tdata),
    .m_axis_frame_tkeep    (b_out_tkeep),
    .m_axis_frame_tvalid   (b_out_tvalid),
    .m_axis_frame_tready   (b_out_tready),
    .m_axis_frame_tlast    (b_out_tlast)
  );

endmodule
