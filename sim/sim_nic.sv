`default_nettype none

// sim_nic: the simulator's top: one NIC (rtl/top/nic_top) as the harness
// drives it (sim/nic_instance.cpp), with the on-board memory model
// (rtl/mem/mem_axi_ram, C++ store rtl/mem/mem_model.cpp) behind its AXI4 port.
// The harness creates one model instance per simulated NIC; instance_id tells
// them apart (and keys each NIC's memory).
module sim_nic #(
  parameter logic [31:0] GIT_HASH = 32'h0
) (
  input  wire logic          clk,
  input  wire logic          rst,
  input  wire logic [7:0]    instance_id,
  output logic               uart_tx_valid,
  output logic [7:0]         uart_tx_data,
  input  wire logic          uart_tx_ready,
  input  wire logic          uart_rx_valid,
  input  wire logic [7:0]    uart_rx_data,
  output logic               uart_rx_ready,
  output logic               uart_txd,
  input  wire logic          uart_rxd,
  output logic               exit_valid,
  output logic [31:0]        exit_code,
  output logic               retire,
  input  wire logic          irq_external,
  output logic [511:0]       eth_tx_tdata,
  output logic [63:0]        eth_tx_tkeep,
  output logic               eth_tx_tvalid,
  input  wire logic          eth_tx_tready,
  output logic               eth_tx_tlast,
  input  wire logic [511:0]  eth_rx_tdata,
  input  wire logic [63:0]   eth_rx_tkeep,
  input  wire logic          eth_rx_tvalid,
  input  wire logic          eth_rx_tlast,
  input  wire logic          eth_rx_tuser
);

  logic [1:0]   awid, bid, arid, rid, bresp, rresp, awburst, arburst;
  logic [63:0]  awaddr, araddr, wstrb;
  logic [7:0]   awlen, arlen;
  logic [2:0]   awsize, arsize;
  logic         awvalid, awready, wlast, wvalid, wready, bvalid, bready;
  logic         arvalid, arready, rlast, rvalid, rready;
  logic [511:0] wdata, rdata;

  /* verilator lint_off PINCONNECTEMPTY */
  // no user logic: a streaming MR's receive data is dropped (m_urx_ready 1),
  // its read requests answered with zero bytes (roce_ustream_null,
  // docs/user-logic.md)
  logic urd_req_v, urd_req_r, urd_v, urd_r, urd_l, utx_req_v, utx_req_r, utx_v, utx_r, utx_l;
  logic [31:0] urd_req_len, utx_req_len;
  roce_ustream_null u_urd_null (
    .clk, .rst, .s_req_valid(urd_req_v), .s_req_ready(urd_req_r), .s_req_len(urd_req_len),
    .m_valid(urd_v), .m_ready(urd_r), .m_last(urd_l));
  roce_ustream_null u_utx_null (
    .clk, .rst, .s_req_valid(utx_req_v), .s_req_ready(utx_req_r), .s_req_len(utx_req_len),
    .m_valid(utx_v), .m_ready(utx_r), .m_last(utx_l));

  nic_top #(.GIT_HASH(GIT_HASH)) u_nic (
    .clk, .rst, .instance_id,
    .uart_tx_valid, .uart_tx_data, .uart_tx_ready,
    .uart_rx_valid, .uart_rx_data, .uart_rx_ready,
    .uart_txd, .uart_rxd,
    .exit_valid, .exit_code, .retire, .irq_external,
    .eth_tx_tdata, .eth_tx_tkeep, .eth_tx_tvalid, .eth_tx_tready, .eth_tx_tlast,
    .eth_rx_tdata, .eth_rx_tkeep, .eth_rx_tvalid, .eth_rx_tlast, .eth_rx_tuser,
    .m_axi_awid(awid), .m_axi_awaddr(awaddr), .m_axi_awlen(awlen), .m_axi_awsize(awsize),
    .m_axi_awburst(awburst), .m_axi_awvalid(awvalid), .m_axi_awready(awready),
    .m_axi_wdata(wdata), .m_axi_wstrb(wstrb), .m_axi_wlast(wlast), .m_axi_wvalid(wvalid),
    .m_axi_wready(wready), .m_axi_bid(bid), .m_axi_bresp(bresp), .m_axi_bvalid(bvalid),
    .m_axi_bready(bready), .m_axi_arid(arid), .m_axi_araddr(araddr), .m_axi_arlen(arlen),
    .m_axi_arsize(arsize), .m_axi_arburst(arburst), .m_axi_arvalid(arvalid),
    .m_axi_arready(arready), .m_axi_rid(rid), .m_axi_rdata(rdata), .m_axi_rresp(rresp),
    .m_axi_rlast(rlast), .m_axi_rvalid(rvalid), .m_axi_rready(rready),
    // no user logic here (docs/user-logic.md): no work requests, completions taken
    .s_wr_valid(1'b0), .s_wr_ready(), .s_wr_opcode(4'd0), .s_wr_qpn(24'd0), .s_wr_laddr(64'd0), .s_wr_lkey(32'd0),
    .s_wr_raddr(64'd0), .s_wr_rkey(32'd0), .s_wr_len(32'd0), .s_wr_imm(32'd0), .s_wr_compare(64'd0),
    .s_wr_swap_add(64'd0), .s_wr_wr_id(48'd0), .s_wr_signaled(1'b0),
    .s_rq_valid(1'b0), .s_rq_ready(), .s_rq_qpn(24'd0), .s_rq_addr(64'd0), .s_rq_len(32'd0), .s_rq_lkey(32'd0),
    .s_rq_wr_id(48'd0),
    .m_cpl_valid(), .m_cpl_ready(1'b1), .m_cpl_wr_id(), .m_cpl_status(), .m_cpl_opcode(), .m_cpl_byte_len(),
    .m_cpl_qpn(), .m_cpl_imm(), .m_cpl_has_imm(),
    .m_urx_valid(), .m_urx_ready(1'b1), .m_urx_data(), .m_urx_keep(), .m_urx_last(), .m_urx_addr(),
    .m_urx_len(), .m_urx_qpn(), .m_urx_first(), .m_urx_msg_last(), .m_urx_send(),
    .m_urd_req_valid(urd_req_v), .m_urd_req_ready(urd_req_r), .m_urd_req_addr(), .m_urd_req_len(urd_req_len),
    .m_urd_req_qpn(), .s_urd_valid(urd_v), .s_urd_ready(urd_r), .s_urd_data(512'd0), .s_urd_last(urd_l),
    .m_utx_req_valid(utx_req_v), .m_utx_req_ready(utx_req_r), .m_utx_req_addr(), .m_utx_req_len(utx_req_len),
    .m_utx_req_qpn(), .s_utx_valid(utx_v), .s_utx_ready(utx_r), .s_utx_data(512'd0), .s_utx_last(utx_l)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // on-board memory: DDR4-like latency, no random stalls
  mem_axi_ram #(.INST(0), .ID_W(2), .RD_LATENCY(40), .WR_LATENCY(20)) u_mem (
    .clk, .rst, .inst_id(instance_id),
    .s_axi_awid(awid), .s_axi_awaddr(awaddr), .s_axi_awlen(awlen), .s_axi_awsize(awsize),
    .s_axi_awburst(awburst), .s_axi_awvalid(awvalid), .s_axi_awready(awready),
    .s_axi_wdata(wdata), .s_axi_wstrb(wstrb), .s_axi_wlast(wlast), .s_axi_wvalid(wvalid),
    .s_axi_wready(wready), .s_axi_bid(bid), .s_axi_bresp(bresp), .s_axi_bvalid(bvalid),
    .s_axi_bready(bready), .s_axi_arid(arid), .s_axi_araddr(araddr), .s_axi_arlen(arlen),
    .s_axi_arsize(arsize), .s_axi_arburst(arburst), .s_axi_arvalid(arvalid),
    .s_axi_arready(arready), .s_axi_rid(rid), .s_axi_rdata(rdata), .s_axi_rresp(rresp),
    .s_axi_rlast(rlast), .s_axi_rvalid(rvalid), .s_axi_rready(rready)
  );

  // Firmware profile (solonic_sim --profile PREFIX, plusarg +profile=PREFIX): the cycles
  // each instruction word spends at the core's last stage (W, where stalls on the bus and
  // the divider are counted), by address; written at the end to PREFIX.nicN.txt as
  // "address cycles" lines (scripts/fw_profile.py). The IMEM is at most 256 KiB.
  string       prof_prefix;
  bit          prof_on;
  int unsigned prof_cycles [65536];
  initial prof_on = $value$plusargs("profile=%s", prof_prefix) != 0;
  always_ff @(posedge clk) begin
    if (prof_on && !rst) prof_cycles[u_nic.u_soc.u_core.w_pc_q[17:2]] <= prof_cycles[u_nic.u_soc.u_core.w_pc_q[17:2]] + 1;
  end
  final begin
    if (prof_on) begin
      int fd;
      fd = $fopen($sformatf("%s.nic%0d.txt", prof_prefix, instance_id), "w");
      for (int i = 0; i < 65536; i++)
        if (prof_cycles[i] != 0) $fwrite(fd, "%08x %0d\n", i * 4, prof_cycles[i]);
      $fclose(fd);
    end
  end

endmodule
