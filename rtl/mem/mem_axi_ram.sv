// mem_axi_ram: simulation model of the board memory behind an AXI4 slave port
// (simulation only: under SYNTHESIS it elaborates to a slave that never
// answers). The behaviour lives in C++ (rtl/mem/mem_model.cpp): a sparse byte
// store keyed by INST, so several instances (two NICs in one simulation) keep
// separate memories and a test harness reads and writes the same bytes
// directly (rtl/mem/mem_model.h).
//
// Read latency: the first beat of a burst is valid no earlier than
// RD_LATENCY + 1 cycles after its AR handshake; bursts are pipelined and
// answered in order. B comes WR_LATENCY + 1 cycles after wlast at the earliest.
// With STALL_PERMILLE > 0 every ready/valid the model drives (arready,
// awready, wready, rvalid, bvalid) is withheld in a cycle with that
// probability, from a generator seeded with SEED. The C++ API can change all
// of these at run time (mem_model_configure), and can declare address ranges
// answered with SLVERR or DECERR. Protocol errors of the master (a burst
// across 4 KiB, a narrow or non-INCR burst, a wrong wlast) are printed and
// counted (mem_model_stats).
`default_nettype none

module mem_axi_ram #(
  parameter int unsigned INST = 0,
  parameter int unsigned ID_W = 1,
  parameter int unsigned RD_LATENCY = 20,
  parameter int unsigned WR_LATENCY = 20,
  parameter int unsigned STALL_PERMILLE = 0,
  parameter longint unsigned SEED = 1
) (
  input  wire logic                        clk,
  input  wire logic                        rst,
  // added to INST: several NICs built from one Verilated model each get their own store
  input  wire logic [7:0]                  inst_id,
  input  wire logic [ID_W-1:0]             s_axi_awid,
  input  wire logic [63:0]                 s_axi_awaddr,
  input  wire logic [7:0]                  s_axi_awlen,
  input  wire logic [2:0]                  s_axi_awsize,
  input  wire logic [1:0]                  s_axi_awburst,
  input  wire logic                        s_axi_awvalid,
  output logic                             s_axi_awready,
  input  wire logic [mem_pkg::DATA_W-1:0]  s_axi_wdata,
  input  wire logic [mem_pkg::STRB_W-1:0]  s_axi_wstrb,
  input  wire logic                        s_axi_wlast,
  input  wire logic                        s_axi_wvalid,
  output logic                             s_axi_wready,
  output logic [ID_W-1:0]                  s_axi_bid,
  output logic [1:0]                       s_axi_bresp,
  output logic                             s_axi_bvalid,
  input  wire logic                        s_axi_bready,
  input  wire logic [ID_W-1:0]             s_axi_arid,
  input  wire logic [63:0]                 s_axi_araddr,
  input  wire logic [7:0]                  s_axi_arlen,
  input  wire logic [2:0]                  s_axi_arsize,
  input  wire logic [1:0]                  s_axi_arburst,
  input  wire logic                        s_axi_arvalid,
  output logic                             s_axi_arready,
  output logic [ID_W-1:0]                  s_axi_rid,
  output logic [mem_pkg::DATA_W-1:0]       s_axi_rdata,
  output logic [1:0]                       s_axi_rresp,
  output logic                             s_axi_rlast,
  output logic                             s_axi_rvalid,
  input  wire logic                        s_axi_rready
);
`ifndef SYNTHESIS
  import "DPI-C" function void mem_model_axi_params(
    input int inst, input int rd_latency, input int wr_latency, input int stall_permille,
    input longint seed);

  // One call per clock edge: the inputs as they were in the cycle that ends,
  // the outputs for the cycle that starts.
  import "DPI-C" function void mem_model_axi_tick(
    input int inst, input bit rst,
    input bit arvalid, input longint araddr, input int arlen, input int arsize,
    input int arburst, input int arid, input bit rready,
    input bit awvalid, input longint awaddr, input int awlen, input int awsize,
    input int awburst, input int awid,
    input bit wvalid, input bit [511:0] wdata, input longint wstrb, input bit wlast,
    input bit bready,
    output bit arready, output bit rvalid, output bit [511:0] rdata, output int rresp,
    output bit rlast, output int rid,
    output bit awready, output bit wready,
    output bit bvalid, output int bresp, output int bid);

  if (mem_pkg::DATA_W != 512) begin : g_bad_width
    $error("mem_axi_ram: the model is written for 512-bit data");
  end

  // the parameters are passed at the first clock edge, when inst_id is known
  bit configured = 1'b0;

  bit         arready_n, rvalid_n, rlast_n, awready_n, wready_n, bvalid_n;
  bit [511:0] rdata_n;
  // int because DPI has no narrower output type; the upper bits are zero
  /* verilator lint_off UNUSEDSIGNAL */
  int         rresp_n, rid_n, bresp_n, bid_n;
  /* verilator lint_on UNUSEDSIGNAL */

  logic             arready_q, rvalid_q, rlast_q, awready_q, wready_q, bvalid_q;
  logic [511:0]     rdata_q;
  logic [1:0]       rresp_q, bresp_q;
  logic [ID_W-1:0]  rid_q, bid_q;

  // The model's outputs are computed by the DPI call into the *_n variables
  // (which only this process touches) and registered with nonblocking
  // assignments, so every other process samples the previous cycle's values.
  always_ff @(posedge clk) begin
    if (!configured) begin
      mem_model_axi_params(int'(INST) + int'(inst_id), RD_LATENCY, WR_LATENCY, STALL_PERMILLE, SEED);
      configured <= 1'b1;
    end
    mem_model_axi_tick(int'(INST) + int'(inst_id), rst,
      s_axi_arvalid, s_axi_araddr, 32'(s_axi_arlen), 32'(s_axi_arsize), 32'(s_axi_arburst),
      32'(s_axi_arid), s_axi_rready,
      s_axi_awvalid, s_axi_awaddr, 32'(s_axi_awlen), 32'(s_axi_awsize), 32'(s_axi_awburst),
      32'(s_axi_awid),
      s_axi_wvalid, s_axi_wdata, s_axi_wstrb, s_axi_wlast,
      s_axi_bready,
      arready_n, rvalid_n, rdata_n, rresp_n, rlast_n, rid_n,
      awready_n, wready_n, bvalid_n, bresp_n, bid_n);
    arready_q <= arready_n;
    rvalid_q  <= rvalid_n;
    rdata_q   <= rdata_n;
    rresp_q   <= rresp_n[1:0];
    rlast_q   <= rlast_n;
    rid_q     <= rid_n[ID_W-1:0];
    awready_q <= awready_n;
    wready_q  <= wready_n;
    bvalid_q  <= bvalid_n;
    bresp_q   <= bresp_n[1:0];
    bid_q     <= bid_n[ID_W-1:0];
  end

  assign s_axi_arready = arready_q;
  assign s_axi_rvalid  = rvalid_q;
  assign s_axi_rdata   = rdata_q;
  assign s_axi_rresp   = rresp_q;
  assign s_axi_rlast   = rlast_q;
  assign s_axi_rid     = rid_q;
  assign s_axi_awready = awready_q;
  assign s_axi_wready  = wready_q;
  assign s_axi_bvalid  = bvalid_q;
  assign s_axi_bresp   = bresp_q;
  assign s_axi_bid     = bid_q;
`else
  // Synthesis: the model has no hardware. A slave that never answers keeps
  // the elaboration check meaningful for the ports.
  assign s_axi_arready = 1'b0;
  assign s_axi_rvalid  = 1'b0;
  assign s_axi_rdata   = '0;
  assign s_axi_rresp   = '0;
  assign s_axi_rlast   = 1'b0;
  assign s_axi_rid     = '0;
  assign s_axi_awready = 1'b0;
  assign s_axi_wready  = 1'b0;
  assign s_axi_bvalid  = 1'b0;
  assign s_axi_bresp   = '0;
  assign s_axi_bid     = '0;
`endif
endmodule
