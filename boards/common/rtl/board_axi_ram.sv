`default_nettype none

// An AXI4 slave on on-chip RAM (URAM on UltraScale+), the NIC's memory until
// a board's DDR4 (VCU118) or HBM (U55C) controller is added: 512-bit data,
// INCR and FIXED bursts (WRAP is treated as INCR), one write and one read
// burst at a time, byte strobes. Addresses wrap at BYTES. Reads have one
// cycle of RAM latency behind a first-word-fall-through output register, so a
// burst streams one beat per cycle while rready is high.
module board_axi_ram #(
  parameter int BYTES = 4194304,   // power of two; 4 MiB of 512-bit words = 128 URAM288 (8 wide, 16 deep)
  parameter int ID_W  = 2,
  // STYLE is only read by the ram_style attribute below (Vivado), which Verilator does not count
  /* verilator lint_off UNUSEDPARAM */
  parameter     STYLE = "ultra"    // ram_style for Vivado: "ultra" or "block"
  /* verilator lint_on UNUSEDPARAM */
) (
  input  wire logic            clk,
  input  wire logic            rst,
  input  wire logic [ID_W-1:0] s_axi_awid,
  input  wire logic [63:0]     s_axi_awaddr,
  input  wire logic [7:0]      s_axi_awlen,
  input  wire logic [2:0]      s_axi_awsize,
  input  wire logic [1:0]      s_axi_awburst,
  input  wire logic            s_axi_awvalid,
  output logic                 s_axi_awready,
  input  wire logic [511:0]    s_axi_wdata,
  input  wire logic [63:0]     s_axi_wstrb,
  input  wire logic            s_axi_wlast,
  input  wire logic            s_axi_wvalid,
  output logic                 s_axi_wready,
  output logic [ID_W-1:0]      s_axi_bid,
  output logic [1:0]           s_axi_bresp,
  output logic                 s_axi_bvalid,
  input  wire logic            s_axi_bready,
  input  wire logic [ID_W-1:0] s_axi_arid,
  input  wire logic [63:0]     s_axi_araddr,
  input  wire logic [7:0]      s_axi_arlen,
  input  wire logic [2:0]      s_axi_arsize,
  input  wire logic [1:0]      s_axi_arburst,
  input  wire logic            s_axi_arvalid,
  output logic                 s_axi_arready,
  output logic [ID_W-1:0]      s_axi_rid,
  output logic [511:0]         s_axi_rdata,
  output logic [1:0]           s_axi_rresp,
  output logic                 s_axi_rlast,
  output logic                 s_axi_rvalid,
  input  wire logic            s_axi_rready
);

  localparam int WORDS = BYTES / 64;
  localparam int AW    = $clog2(WORDS);

  if (BYTES < 128 || (BYTES & (BYTES - 1)) != 0) begin : g_bad_size
    $error("board_axi_ram: BYTES must be a power of two of at least 128");
  end

  (* ram_style = STYLE *) logic [511:0] mem [WORDS];

  // ----------------------------------------------------------------- write
  typedef enum logic [1:0] {W_ADDR, W_DATA, W_RESP} wstate_e;
  wstate_e         wst_q, wst_d;
  logic [AW-1:0]   waddr_q, waddr_d;
  logic            wincr_q, wincr_d;
  logic [ID_W-1:0] wid_q, wid_d;
  logic            wr_en;

  always_comb begin
    wst_d = wst_q;
    waddr_d = waddr_q;
    wincr_d = wincr_q;
    wid_d = wid_q;
    wr_en = 1'b0;
    s_axi_awready = (wst_q == W_ADDR);
    s_axi_wready  = (wst_q == W_DATA);
    s_axi_bvalid  = (wst_q == W_RESP);
    s_axi_bid     = wid_q;
    s_axi_bresp   = 2'b00;
    unique case (wst_q)
      W_ADDR: if (s_axi_awvalid) begin
        waddr_d = s_axi_awaddr[6 +: AW];
        wincr_d = (s_axi_awburst != 2'b00);
        wid_d = s_axi_awid;
        wst_d = W_DATA;
      end
      W_DATA: if (s_axi_wvalid) begin
        wr_en = 1'b1;
        if (wincr_q) waddr_d = waddr_q + 1'b1;
        if (s_axi_wlast) wst_d = W_RESP;
      end
      W_RESP: if (s_axi_bready) wst_d = W_ADDR;
      default: wst_d = W_ADDR;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      wst_q <= W_ADDR;
      waddr_q <= '0;
      wincr_q <= 1'b0;
      wid_q <= '0;
    end else begin
      wst_q <= wst_d;
      waddr_q <= waddr_d;
      wincr_q <= wincr_d;
      wid_q <= wid_d;
    end
  end

  // the RAM's write port (inference template)
  always_ff @(posedge clk) begin
    if (wr_en) begin
      for (int i = 0; i < 64; i++) begin
        if (s_axi_wstrb[i]) mem[waddr_q][i*8 +: 8] <= s_axi_wdata[i*8 +: 8];
      end
    end
  end

  // ------------------------------------------------------------------ read
  logic            ract_q, ract_d;        // a burst is being read
  logic [AW-1:0]   raddr_q, raddr_d;
  logic [7:0]      rleft_q, rleft_d;      // beats still to fetch - 1
  logic            rincr_q, rincr_d;
  logic [ID_W-1:0] rid_q, rid_d, rid_out_q, rid_out_d;
  logic            rvalid_q, rvalid_d, rlast_q, rlast_d, fetch;
  logic [511:0]    rdata_q;

  always_comb begin
    ract_d = ract_q;
    raddr_d = raddr_q;
    rleft_d = rleft_q;
    rincr_d = rincr_q;
    rid_d = rid_q;
    rid_out_d = rid_out_q;
    rlast_d = rlast_q;
    s_axi_arready = !ract_q;
    if (!ract_q && s_axi_arvalid) begin
      ract_d = 1'b1;
      raddr_d = s_axi_araddr[6 +: AW];
      rleft_d = s_axi_arlen;
      rincr_d = (s_axi_arburst != 2'b00);
      rid_d = s_axi_arid;
    end
    fetch = ract_q && (!rvalid_q || s_axi_rready);
    rvalid_d = fetch ? 1'b1 : (s_axi_rready ? 1'b0 : rvalid_q);
    if (fetch) begin
      rlast_d = (rleft_q == 8'd0);
      rid_out_d = rid_q;
      if (rincr_q) raddr_d = raddr_q + 1'b1;
      rleft_d = rleft_q - 1'b1;
      if (rleft_q == 8'd0) ract_d = 1'b0;
    end
    s_axi_rvalid = rvalid_q;
    s_axi_rdata  = rdata_q;
    s_axi_rlast  = rlast_q;
    s_axi_rid    = rid_out_q;
    s_axi_rresp  = 2'b00;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      ract_q <= 1'b0;
      raddr_q <= '0;
      rleft_q <= '0;
      rincr_q <= 1'b0;
      rid_q <= '0;
      rid_out_q <= '0;
      rvalid_q <= 1'b0;
      rlast_q <= 1'b0;
    end else begin
      ract_q <= ract_d;
      raddr_q <= raddr_d;
      rleft_q <= rleft_d;
      rincr_q <= rincr_d;
      rid_q <= rid_d;
      rid_out_q <= rid_out_d;
      rvalid_q <= rvalid_d;
      rlast_q <= rlast_d;
    end
  end

  // the RAM's read port: the output register holds the beat while it waits
  always_ff @(posedge clk) begin
    if (fetch) rdata_q <= mem[raddr_q];
  end

  logic unused;
  assign unused = ^{s_axi_awaddr[63:6+AW], s_axi_awaddr[5:0], s_axi_awlen, s_axi_awsize,
                    s_axi_araddr[63:6+AW], s_axi_araddr[5:0], s_axi_arsize, s_axi_wlast};

endmodule
