// tb_fw_mgmt: the SoC (soc_top, the real firmware) with the management
// buffers on its m_ext port, wired as in tb_mgmt, and no net layer: the
// bench's C++ side puts whole frames straight into the mgmt RX stream and
// takes the mgmt TX stream. It stands in for the NIC top until that exists,
// so lwIP can be tested end to end (tests/mgmt/test_lwip_*.py).
`default_nettype none

module tb_fw_mgmt (
  input  wire logic          clk,
  input  wire logic          rst,
  input  wire logic [7:0]    instance_id,
  input  wire logic          mgmt_absent,   // 1: a SoC without the port (m_ext answers err)
  // UART character interface
  output logic               uart_tx_valid,
  output logic [7:0]         uart_tx_data,
  input  wire logic          uart_tx_ready,
  input  wire logic          uart_rx_valid,
  input  wire logic [7:0]    uart_rx_data,
  output logic               uart_rx_ready,
  output logic               exit_valid,
  output logic [31:0]        exit_code,
  // management frames in (as from the RX demux) and out (to the TX arbiter)
  input  wire logic [511:0]  s_axis_mgmt_tdata,
  input  wire logic [63:0]   s_axis_mgmt_tkeep,
  input  wire logic          s_axis_mgmt_tvalid,
  output logic               s_axis_mgmt_tready,
  input  wire logic          s_axis_mgmt_tlast,
  input  wire logic          s_axis_mgmt_tuser,
  output logic [511:0]       m_axis_mgmt_tdata,
  output logic [63:0]        m_axis_mgmt_tkeep,
  output logic               m_axis_mgmt_tvalid,
  input  wire logic          m_axis_mgmt_tready,
  output logic               m_axis_mgmt_tlast,
  output logic               m_axis_mgmt_tuser
);
  // ext_gnt: soc_xbar computes its request lines and its gnt in one always_comb, so
  // the linter sees req -> gnt -> req through the two decoders; there is no real loop
  // (a target's gnt never feeds its own request)
  /* verilator lint_off UNOPTFLAT */
  logic        ext_gnt;
  /* verilator lint_on UNOPTFLAT */
  logic        ext_req, ext_we, ext_rvalid, ext_err;
  logic [31:0] ext_addr, ext_wdata, ext_rdata;
  logic [3:0]  ext_be;
  logic        uart_txd, retire, unused;
  logic        m_gnt, m_rvalid, m_err, absent_q, absent_d;
  logic [31:0] m_rdata;

  // without the port every m_ext access is granted and answered with err,
  // as the single-SoC harness does
  always_comb begin
    absent_d   = ext_req && mgmt_absent;
    ext_gnt    = mgmt_absent ? 1'b1 : m_gnt;
    ext_rvalid = mgmt_absent ? absent_q : m_rvalid;
    ext_err    = mgmt_absent ? absent_q : m_err;
    ext_rdata  = mgmt_absent ? 32'd0 : m_rdata;
  end
  always_ff @(posedge clk) begin
    if (rst) absent_q <= 1'b0;
    else     absent_q <= absent_d;
  end

  soc_top #(.UART_SERIAL(0)) u_soc (
    .clk, .rst,
    .irq_external(1'b0),
    .m_ext_req(ext_req), .m_ext_addr(ext_addr), .m_ext_we(ext_we), .m_ext_be(ext_be),
    .m_ext_wdata(ext_wdata), .m_ext_gnt(ext_gnt), .m_ext_rvalid(ext_rvalid),
    .m_ext_rdata(ext_rdata), .m_ext_err(ext_err),
    .uart_tx_valid, .uart_tx_data, .uart_tx_ready,
    .uart_rx_valid, .uart_rx_data, .uart_rx_ready,
    .uart_txd, .uart_rxd(1'b1),
    .exit_valid, .exit_code, .retire
  );
  assign unused = ^{uart_txd, retire};

  tb_mgmt u_mgmt (
    .clk, .rst, .instance_id,
    .req(ext_req && !mgmt_absent), .addr(ext_addr), .we(ext_we), .be(ext_be), .wdata(ext_wdata),
    .gnt(m_gnt), .rvalid(m_rvalid), .rdata(m_rdata), .err(m_err),
    .s_axis_mgmt_tdata, .s_axis_mgmt_tkeep, .s_axis_mgmt_tvalid, .s_axis_mgmt_tready,
    .s_axis_mgmt_tlast, .s_axis_mgmt_tuser,
    .m_axis_mgmt_tdata, .m_axis_mgmt_tkeep, .m_axis_mgmt_tvalid, .m_axis_mgmt_tready,
    .m_axis_mgmt_tlast, .m_axis_mgmt_tuser
  );
endmodule
