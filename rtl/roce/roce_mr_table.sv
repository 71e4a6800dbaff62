// roce_mr_table: the memory region table (docs/transport.md, "Tables").
//
// NMR rows of roce_qp_pkg::mr_entry_t, indexed by the low log2(NMR) bits of
// a key. One write port (the firmware registers), NRD read ports (one
// block-RAM copy each): rd_entry is the row of rd_key's index the cycle after
// rd_en and holds until the next rd_en. The caller checks it with
// roce_qp_pkg::mr_check (whole key, PD, bounds without overflow, access), so a
// stale or guessed key, or one of another protection domain, never passes.
//
// After rst every row is swept invalid (NMR cycles, init_done low, writes
// wait).
`default_nettype none

module roce_mr_table #(
  parameter int NMR = 256,               // rows, power of two
  parameter int NRD = 1,                 // read ports
  parameter int MW  = $clog2(NMR)
) (
  input  wire logic                             clk,
  input  wire logic                             rst,
  input  wire logic                             wr_valid,
  output logic                                  wr_ready,
  input  wire logic [MW-1:0]                    wr_idx,
  input  wire roce_qp_pkg::mr_entry_t           wr_entry,
  input  wire logic [NRD-1:0]                   rd_en,
  // only the index bits of a key address the table (the caller compares the whole key)
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [NRD*32-1:0]                rd_key,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [NRD*roce_qp_pkg::MR_ENTRY_W-1:0] rd_entry,
  output logic                                  init_done
);
  localparam int W = roce_qp_pkg::MR_ENTRY_W;

  logic          sweep_q, sweep_d;
  logic [MW-1:0] idx_q, idx_d;
  logic          ram_we;
  logic [MW-1:0] ram_waddr;
  logic [W-1:0]  ram_wdata;

  always_comb begin
    sweep_d   = sweep_q;
    idx_d     = idx_q;
    wr_ready  = !sweep_q;
    ram_we    = wr_valid && !sweep_q;
    ram_waddr = wr_idx;
    ram_wdata = wr_entry;
    if (sweep_q) begin
      ram_we    = 1'b1;
      ram_waddr = idx_q;
      ram_wdata = '0;
      idx_d     = idx_q + MW'(1);
      if (idx_q == MW'(NMR - 1)) sweep_d = 1'b0;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      sweep_q <= 1'b1;
      idx_q   <= '0;
    end else begin
      sweep_q <= sweep_d;
      idx_q   <= idx_d;
    end
  end

  assign init_done = !sweep_q;

  for (genvar i = 0; i < NRD; i++) begin : g_copy
    roce_ram_sdp #(.WIDTH(W), .DEPTH(NMR)) u_ram (
      .clk     (clk),
      .wr_en   (ram_we),
      .wr_addr (ram_waddr),
      .wr_data (ram_wdata),
      .rd_en   (rd_en[i]),
      .rd_addr (rd_key[i*32 +: MW]),
      .rd_data (rd_entry[i*W +: W])
    );
  end

`ifndef SYNTHESIS
  initial begin
    if (NMR < 4 || NMR > 65536 || (NMR & (NMR - 1)) != 0) $error("roce_mr_table: NMR %0d is not a power of two in 4..65536", NMR);
  end
`endif

endmodule
