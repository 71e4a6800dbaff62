`default_nettype none

// True dual-port block RAM, 32-bit words, byte write enables on both ports,
// one cycle read latency (read-first). Written in the plain style synthesis
// tools infer as BRAM: one array, each port in its own clocked block, no
// reset on the array or the read registers.
//
// Contents at start:
//   INIT_FILE    read with $readmemh at elaboration (synthesis bakes it in).
//   LOAD_PLUSARG simulation only: when the run is given +<LOAD_PLUSARG>=FILE,
//                FILE is read with $readmemh after INIT_FILE. This is how the
//                simulator loads firmware at run time into a model built once.
// Image format: $readmemh, one 32-bit word per line, word 0 at address 0.
//
// The array writes sit in always_ff blocks: a memory is the one place where
// the house rule "always_ff holds only x_q <= x_d" gives way to the
// inference template.
module soc_bram #(
  parameter int    BYTES        = 262144,
  parameter        INIT_FILE    = "",
  parameter        LOAD_PLUSARG = ""
) (
  input  wire logic                           clk,
  // port A
  input  wire logic                           a_en,
  input  wire logic [3:0]                     a_we,
  input  wire logic [$clog2(BYTES / 4)-1:0]   a_addr,   // word address
  input  wire logic [31:0]                    a_wdata,
  output logic      [31:0]                    a_rdata,
  // port B
  input  wire logic                           b_en,
  input  wire logic [3:0]                     b_we,
  input  wire logic [$clog2(BYTES / 4)-1:0]   b_addr,   // word address
  input  wire logic [31:0]                    b_wdata,
  output logic      [31:0]                    b_rdata
);

  localparam int WORDS = BYTES / 4;

  if (BYTES < 8 || (BYTES & (BYTES - 1)) != 0) begin : g_bad_size
    $error("soc_bram: BYTES must be a power of two of at least 8");
  end

  logic [31:0] mem [WORDS];

  always_ff @(posedge clk) begin
    if (a_en) begin
      for (int i = 0; i < 4; i++) begin
        if (a_we[i]) mem[a_addr][i*8 +: 8] <= a_wdata[i*8 +: 8];
      end
      a_rdata <= mem[a_addr];
    end
  end

  always_ff @(posedge clk) begin
    if (b_en) begin
      for (int i = 0; i < 4; i++) begin
        if (b_we[i]) mem[b_addr][i*8 +: 8] <= b_wdata[i*8 +: 8];
      end
      b_rdata <= mem[b_addr];
    end
  end

`ifndef SYNTHESIS
  initial begin : init
    string fname;
    for (int i = 0; i < WORDS; i++) mem[i] = 32'd0;
    a_rdata = 32'd0;
    b_rdata = 32'd0;
    if (INIT_FILE != "") $readmemh(INIT_FILE, mem);
    if (LOAD_PLUSARG != "") begin
      if ($value$plusargs({LOAD_PLUSARG, "=%s"}, fname)) $readmemh(fname, mem);
    end
  end
`else
  initial begin : init
    if (INIT_FILE != "") $readmemh(INIT_FILE, mem);
  end
`endif

endmodule
