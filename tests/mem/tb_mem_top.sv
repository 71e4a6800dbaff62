// tb_mem_top: the memory subsystem as the RoCE block will use it, for the
// C++ bench tb_mem.cpp: NRE read engines, NWE write engines and a pattern
// engine on one mem_axi_arb, in front of the mem_axi_ram model (instance 0).
// Vectors carry one slice per engine (engine i at [i*W +: W]).
`default_nettype none

module tb_mem_top #(
  parameter int unsigned NRE = 2,
  parameter int unsigned NWE = 2,
  // engine sizes (the small build uses the minimum to stress full FIFOs)
  parameter int unsigned CMD_DEPTH = 16,
  parameter int unsigned RD_BUF = 256,
  parameter int unsigned WR_BUF = 128,
  parameter int unsigned MAX_BURSTS = 32
) (
  input  wire logic                         clk,
  input  wire logic                         rst,
  // read engines: commands {addr, len, tag} and data streams
  input  wire logic [NRE-1:0]               rd_cmd_valid,
  output logic [NRE-1:0]                    rd_cmd_ready,
  input  wire logic [NRE*mem_pkg::DMA_CMD_W-1:0] rd_cmd,
  output logic [NRE*512-1:0]                rd_tdata,
  output logic [NRE*64-1:0]                 rd_tkeep,
  output logic [NRE-1:0]                    rd_tvalid,
  input  wire logic [NRE-1:0]               rd_tready,
  output logic [NRE-1:0]                    rd_tlast,
  output logic [NRE*mem_pkg::CPL_W-1:0]     rd_tuser,
  // write engines: commands, payload streams, completions
  input  wire logic [NWE-1:0]               wr_cmd_valid,
  output logic [NWE-1:0]                    wr_cmd_ready,
  input  wire logic [NWE*mem_pkg::DMA_CMD_W-1:0] wr_cmd,
  input  wire logic [NWE*512-1:0]           wr_tdata,
  input  wire logic [NWE*64-1:0]            wr_tkeep,
  input  wire logic [NWE-1:0]               wr_tvalid,
  output logic [NWE-1:0]                    wr_tready,
  input  wire logic [NWE-1:0]               wr_tlast,
  output logic [NWE-1:0]                    wr_cpl_valid,
  input  wire logic [NWE-1:0]               wr_cpl_ready,
  output logic [NWE*mem_pkg::CPL_W-1:0]     wr_cpl,
  // pattern engine
  input  wire logic                         pat_start,
  input  wire logic                         pat_check,     // 0 fill, 1 check
  input  wire logic [63:0]                  pat_addr,
  input  wire logic [31:0]                  pat_len,
  input  wire logic [63:0]                  pat_seed,
  output logic                              pat_busy,
  output logic                              pat_done,
  output logic [31:0]                       pat_err_count,
  output logic                              pat_first_bad_valid,
  output logic [63:0]                       pat_first_bad_addr,
  output logic [1:0]                        pat_dma_status,
  output logic [31:0]                       pat_cycles,
  output logic [127:0]                      pat_peek
);
  localparam int unsigned NR = NRE + 1;   // + the pattern engine
  localparam int unsigned NW = NWE + 1;
  localparam int unsigned ID_W = $clog2(NR > NW ? NR : NW);

  logic [NR*64-1:0]  c_araddr;
  logic [NR*8-1:0]   c_arlen;
  logic [NR-1:0]     c_arvalid, c_arready, c_rvalid, c_rready;
  logic [511:0]      c_rdata;
  logic [1:0]        c_rresp;
  logic              c_rlast;
  logic [NW*64-1:0]  c_awaddr;
  logic [NW*8-1:0]   c_awlen;
  logic [NW-1:0]     c_awvalid, c_awready, c_wlast, c_wvalid, c_wready, c_bvalid, c_bready;
  logic [NW*512-1:0] c_wdata;
  logic [NW*64-1:0]  c_wstrb;
  logic [1:0]        c_bresp;

  for (genvar i = 0; i < NRE; i++) begin : g_rd
    mem_dma_rd #(.CMD_DEPTH(CMD_DEPTH), .BUF_BEATS(RD_BUF)) u_rd (
      .clk, .rst,
      .s_cmd_valid(rd_cmd_valid[i]), .s_cmd_ready(rd_cmd_ready[i]),
      .s_cmd(rd_cmd[i*mem_pkg::DMA_CMD_W +: mem_pkg::DMA_CMD_W]),
      .m_axi_araddr(c_araddr[i*64 +: 64]), .m_axi_arlen(c_arlen[i*8 +: 8]),
      .m_axi_arvalid(c_arvalid[i]), .m_axi_arready(c_arready[i]),
      .m_axi_rdata(c_rdata), .m_axi_rresp(c_rresp), .m_axi_rlast(c_rlast),
      .m_axi_rvalid(c_rvalid[i]), .m_axi_rready(c_rready[i]),
      .m_axis_tdata(rd_tdata[i*512 +: 512]), .m_axis_tkeep(rd_tkeep[i*64 +: 64]),
      .m_axis_tvalid(rd_tvalid[i]), .m_axis_tready(rd_tready[i]), .m_axis_tlast(rd_tlast[i]),
      .m_axis_tuser(rd_tuser[i*mem_pkg::CPL_W +: mem_pkg::CPL_W])
    );
  end

  for (genvar i = 0; i < NWE; i++) begin : g_wr
    mem_dma_wr #(.CMD_DEPTH(CMD_DEPTH), .BUF_BEATS(WR_BUF), .MAX_BURSTS(MAX_BURSTS)) u_wr (
      .clk, .rst,
      .s_cmd_valid(wr_cmd_valid[i]), .s_cmd_ready(wr_cmd_ready[i]),
      .s_cmd(wr_cmd[i*mem_pkg::DMA_CMD_W +: mem_pkg::DMA_CMD_W]),
      .s_axis_tdata(wr_tdata[i*512 +: 512]), .s_axis_tkeep(wr_tkeep[i*64 +: 64]),
      .s_axis_tvalid(wr_tvalid[i]), .s_axis_tready(wr_tready[i]), .s_axis_tlast(wr_tlast[i]),
      .m_axi_awaddr(c_awaddr[i*64 +: 64]), .m_axi_awlen(c_awlen[i*8 +: 8]),
      .m_axi_awvalid(c_awvalid[i]), .m_axi_awready(c_awready[i]),
      .m_axi_wdata(c_wdata[i*512 +: 512]), .m_axi_wstrb(c_wstrb[i*64 +: 64]),
      .m_axi_wlast(c_wlast[i]), .m_axi_wvalid(c_wvalid[i]), .m_axi_wready(c_wready[i]),
      .m_axi_bresp(c_bresp), .m_axi_bvalid(c_bvalid[i]), .m_axi_bready(c_bready[i]),
      .m_cpl_valid(wr_cpl_valid[i]), .m_cpl_ready(wr_cpl_ready[i]),
      .m_cpl(wr_cpl[i*mem_pkg::CPL_W +: mem_pkg::CPL_W])
    );
  end

  mem_pattern #(.RD_BUF_BEATS(RD_BUF), .WR_BUF_BEATS(WR_BUF)) u_pat (
    .clk, .rst,
    .start(pat_start),
    .mode(pat_check ? mem_pkg::PAT_CHECK : mem_pkg::PAT_FILL),
    .addr(pat_addr), .len(pat_len), .seed(pat_seed),
    .busy(pat_busy), .done(pat_done), .err_count(pat_err_count),
    .first_bad_valid(pat_first_bad_valid), .first_bad_addr(pat_first_bad_addr),
    .dma_status(pat_dma_status), .cycles(pat_cycles), .peek(pat_peek),
    .m_axi_araddr(c_araddr[NRE*64 +: 64]), .m_axi_arlen(c_arlen[NRE*8 +: 8]),
    .m_axi_arvalid(c_arvalid[NRE]), .m_axi_arready(c_arready[NRE]),
    .m_axi_rdata(c_rdata), .m_axi_rresp(c_rresp), .m_axi_rlast(c_rlast),
    .m_axi_rvalid(c_rvalid[NRE]), .m_axi_rready(c_rready[NRE]),
    .m_axi_awaddr(c_awaddr[NWE*64 +: 64]), .m_axi_awlen(c_awlen[NWE*8 +: 8]),
    .m_axi_awvalid(c_awvalid[NWE]), .m_axi_awready(c_awready[NWE]),
    .m_axi_wdata(c_wdata[NWE*512 +: 512]), .m_axi_wstrb(c_wstrb[NWE*64 +: 64]),
    .m_axi_wlast(c_wlast[NWE]), .m_axi_wvalid(c_wvalid[NWE]), .m_axi_wready(c_wready[NWE]),
    .m_axi_bresp(c_bresp), .m_axi_bvalid(c_bvalid[NWE]), .m_axi_bready(c_bready[NWE])
  );

  logic [ID_W-1:0] m_awid, m_bid, m_arid, m_rid;
  logic [63:0]     m_awaddr, m_araddr;
  logic [7:0]      m_awlen, m_arlen;
  logic [2:0]      m_awsize, m_arsize;
  logic [1:0]      m_awburst, m_arburst, m_bresp, m_rresp;
  logic            m_awvalid, m_awready, m_wlast, m_wvalid, m_wready, m_bvalid, m_bready;
  logic            m_arvalid, m_arready, m_rlast, m_rvalid, m_rready;
  logic [511:0]    m_wdata, m_rdata;
  logic [63:0]     m_wstrb;

  mem_axi_arb #(.NR(NR), .NW(NW), .ID_W(ID_W)) u_arb (
    .clk, .rst,
    .s_axi_araddr(c_araddr), .s_axi_arlen(c_arlen), .s_axi_arvalid(c_arvalid),
    .s_axi_arready(c_arready), .s_axi_rdata(c_rdata), .s_axi_rresp(c_rresp),
    .s_axi_rlast(c_rlast), .s_axi_rvalid(c_rvalid), .s_axi_rready(c_rready),
    .s_axi_awaddr(c_awaddr), .s_axi_awlen(c_awlen), .s_axi_awvalid(c_awvalid),
    .s_axi_awready(c_awready), .s_axi_wdata(c_wdata), .s_axi_wstrb(c_wstrb),
    .s_axi_wlast(c_wlast), .s_axi_wvalid(c_wvalid), .s_axi_wready(c_wready),
    .s_axi_bresp(c_bresp), .s_axi_bvalid(c_bvalid), .s_axi_bready(c_bready),
    .m_axi_awid(m_awid), .m_axi_awaddr(m_awaddr), .m_axi_awlen(m_awlen),
    .m_axi_awsize(m_awsize), .m_axi_awburst(m_awburst), .m_axi_awvalid(m_awvalid),
    .m_axi_awready(m_awready), .m_axi_wdata(m_wdata), .m_axi_wstrb(m_wstrb),
    .m_axi_wlast(m_wlast), .m_axi_wvalid(m_wvalid), .m_axi_wready(m_wready),
    .m_axi_bid(m_bid), .m_axi_bresp(m_bresp), .m_axi_bvalid(m_bvalid), .m_axi_bready(m_bready),
    .m_axi_arid(m_arid), .m_axi_araddr(m_araddr), .m_axi_arlen(m_arlen),
    .m_axi_arsize(m_arsize), .m_axi_arburst(m_arburst), .m_axi_arvalid(m_arvalid),
    .m_axi_arready(m_arready), .m_axi_rid(m_rid), .m_axi_rdata(m_rdata),
    .m_axi_rresp(m_rresp), .m_axi_rlast(m_rlast), .m_axi_rvalid(m_rvalid),
    .m_axi_rready(m_rready)
  );

  mem_axi_ram #(.INST(0), .ID_W(ID_W)) u_ram (
    .clk, .rst, .inst_id(8'd0),
    .s_axi_awid(m_awid), .s_axi_awaddr(m_awaddr), .s_axi_awlen(m_awlen),
    .s_axi_awsize(m_awsize), .s_axi_awburst(m_awburst), .s_axi_awvalid(m_awvalid),
    .s_axi_awready(m_awready), .s_axi_wdata(m_wdata), .s_axi_wstrb(m_wstrb),
    .s_axi_wlast(m_wlast), .s_axi_wvalid(m_wvalid), .s_axi_wready(m_wready),
    .s_axi_bid(m_bid), .s_axi_bresp(m_bresp), .s_axi_bvalid(m_bvalid), .s_axi_bready(m_bready),
    .s_axi_arid(m_arid), .s_axi_araddr(m_araddr), .s_axi_arlen(m_arlen),
    .s_axi_arsize(m_arsize), .s_axi_arburst(m_arburst), .s_axi_arvalid(m_arvalid),
    .s_axi_arready(m_arready), .s_axi_rid(m_rid), .s_axi_rdata(m_rdata),
    .s_axi_rresp(m_rresp), .s_axi_rlast(m_rlast), .s_axi_rvalid(m_rvalid),
    .s_axi_rready(m_rready)
  );
endmodule
