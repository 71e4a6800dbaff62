// roce_qp_table: the static QP context table (docs/transport.md, "Tables").
//
// One write port (the firmware registers) and NRD read ports, each its own
// block-RAM copy of the table (simple dual port, registered read: rd_ctx is
// valid the cycle after rd_en and holds until the next rd_en).
//
// A write whose context has state RESET also broadcasts qp_reset_valid +
// qp_reset_qpn one cycle later (when the new context is readable), so every
// engine clears its dynamic state of that QP. Engines give qp_reset priority
// on their own table write ports; at most one reset per cycle.
//
// The state field has RAMs of its own (one per read port) with a second
// writer: err_valid + err_qpn set a QP's state to ERROR (the engines moved it
// there: docs/transport.md, "QP errors"), so every engine reads ERROR in the
// context with no logic after the RAM. The sets wait in a 4-entry FIFO for
// cycles without a firmware write or sweep (a full FIFO loses one: the
// transport's own error flag still has it); they broadcast no qp_reset.
//
// After rst the table sweeps every row to state RESET (all fields zero) and
// broadcasts qp_reset for each QPN in turn (NQP cycles), then raises
// init_done. Writes wait (wr_ready low) during the sweep.
`default_nettype none

module roce_qp_table #(
  parameter int NQP = 256,               // rows (QPNs 0..NQP-1), power of two
  parameter int NRD = 2,                 // read ports
  parameter int QW  = $clog2(NQP)
) (
  input  wire logic                           clk,
  input  wire logic                           rst,
  // write port (firmware)
  input  wire logic                           wr_valid,
  output logic                                wr_ready,
  input  wire logic [QW-1:0]                  wr_qpn,
  input  wire roce_qp_pkg::qp_ctx_t           wr_ctx,
  // the engines moved a QP to ERROR
  input  wire logic                           err_valid,
  input  wire logic [QW-1:0]                  err_qpn,
  // read ports
  input  wire logic [NRD-1:0]                 rd_en,
  input  wire logic [NRD*QW-1:0]              rd_qpn,
  output logic [NRD*roce_qp_pkg::QP_CTX_W-1:0] rd_ctx,
  // reset broadcast
  output logic                                qp_reset_valid,
  output logic [QW-1:0]                       qp_reset_qpn,
  output logic                                init_done
);
  localparam int W = roce_qp_pkg::QP_CTX_W;

  logic          sweep_q, sweep_d;
  logic [QW-1:0] sweep_idx_q, sweep_idx_d;
  logic          rstp_q, rstp_d;
  logic [QW-1:0] rstp_qpn_q, rstp_qpn_d;
  logic          ram_we;
  logic [QW-1:0] ram_waddr;
  logic [W-1:0]  ram_wdata;

  always_comb begin
    sweep_d     = sweep_q;
    sweep_idx_d = sweep_idx_q;
    rstp_d      = 1'b0;
    rstp_qpn_d  = rstp_qpn_q;
    wr_ready    = !sweep_q;
    ram_we      = 1'b0;
    ram_waddr   = wr_qpn;
    ram_wdata   = wr_ctx;
    if (sweep_q) begin
      ram_we      = 1'b1;
      ram_waddr   = sweep_idx_q;
      ram_wdata   = '0;                        // state RESET
      rstp_d      = 1'b1;
      rstp_qpn_d  = sweep_idx_q;
      sweep_idx_d = sweep_idx_q + QW'(1);
      if (sweep_idx_q == QW'(NQP - 1)) sweep_d = 1'b0;
    end else if (wr_valid) begin
      ram_we     = 1'b1;
      rstp_d     = wr_ctx.state == roce_qp_pkg::QPS_RESET;
      rstp_qpn_d = wr_qpn;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      sweep_q     <= 1'b1;
      sweep_idx_q <= '0;
      rstp_q      <= 1'b0;
      rstp_qpn_q  <= '0;
    end else begin
      sweep_q     <= sweep_d;
      sweep_idx_q <= sweep_idx_d;
      rstp_q      <= rstp_d;
      rstp_qpn_q  <= rstp_qpn_d;
    end
  end

  assign qp_reset_valid = rstp_q;
  assign qp_reset_qpn   = rstp_qpn_q;
  assign init_done      = !sweep_q;

  // ERROR sets: queued, written when the firmware's port is idle
  logic          ef_v, ef_pop, st_we;
  logic [QW-1:0] ef_qpn, st_waddr;
  logic [2:0]    st_wdata;
  /* verilator lint_off UNUSEDSIGNAL */
  logic          ef_in_r;            // a full FIFO drops the set (see above)
  logic [2:0]    ef_cnt;
  /* verilator lint_on UNUSEDSIGNAL */
  roce_fifo #(.WIDTH(QW), .DEPTH(4)) u_err (
    .clk, .rst,
    .in_valid(err_valid), .in_ready(ef_in_r), .in_data(err_qpn),
    .out_valid(ef_v), .out_ready(ef_pop), .out_data(ef_qpn), .count(ef_cnt));
  always_comb begin
    ef_pop   = ef_v && !ram_we;
    st_we    = ram_we || ef_v;
    st_waddr = ram_we ? ram_waddr : ef_qpn;
    st_wdata = ram_we ? ram_wdata[W-1 -: 3] : roce_qp_pkg::QPS_ERR;
  end

  for (genvar i = 0; i < NRD; i++) begin : g_copy
    /* verilator lint_off UNUSEDSIGNAL */
    logic [W-1:0] rd_main;           // its state field is the state RAM's
    /* verilator lint_on UNUSEDSIGNAL */
    logic [2:0]   rd_st;
    roce_ram_sdp #(.WIDTH(W), .DEPTH(NQP)) u_ram (
      .clk     (clk),
      .wr_en   (ram_we),
      .wr_addr (ram_waddr),
      .wr_data (ram_wdata),
      .rd_en   (rd_en[i]),
      .rd_addr (rd_qpn[i*QW +: QW]),
      .rd_data (rd_main)
    );
    roce_ram_sdp #(.WIDTH(3), .DEPTH(NQP)) u_st (
      .clk     (clk),
      .wr_en   (st_we),
      .wr_addr (st_waddr),
      .wr_data (st_wdata),
      .rd_en   (rd_en[i]),
      .rd_addr (rd_qpn[i*QW +: QW]),
      .rd_data (rd_st)
    );
    assign rd_ctx[i*W +: W] = {rd_st, rd_main[W-4:0]};
  end

`ifndef SYNTHESIS
  initial begin
    if (NQP < 4 || (NQP & (NQP - 1)) != 0) $error("roce_qp_table: NQP %0d is not a power of two >= 4", NQP);
  end
`endif

endmodule
