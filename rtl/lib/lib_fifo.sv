// lib_fifo: first-word-fall-through FIFO with a registered output, in the
// block-RAM template form (write port, registered read port). The one FIFO of
// this kind in the design (rtl/lib: primitives every block shares).
//
// s_ready is high while fewer than DEPTH words are held (memory plus the
// output register); a word written at one clock edge is on m_data after the
// next edge. One word per cycle in and out, no bubbles. `count` is the
// number of words held (registered).
//
// BYPASS = 1 adds a registered bypass: a word pushed while the FIFO holds
// nothing (memory and output register empty) goes straight
// into the output register, on m_data one edge after it came in (one cycle
// of latency instead of two; the same registers, a 2:1 multiplexer in front
// of the output register). For small FIFOs in distributed RAM: with a block
// RAM the multiplexer would stop the RAM's own output register from being
// used. BYPASS_POP = 1 bypasses also while the output register is taken
// (a stream of one word per cycle then passes at one cycle too); it puts
// m_ready in front of the output register's enable, for readers whose
// m_ready is shallow.
//
// MUST_ACCEPT = 1 is for writers that never wait (they keep count below DEPTH
// themselves, e.g. whole-frame admission): simulation then reports s_valid
// while s_ready is low as an error, since that word would be lost.
`default_nettype none

module lib_fifo #(
  parameter int unsigned WIDTH       = 8,
  parameter int unsigned DEPTH       = 16,  // power of two, >= 2
  parameter bit          MUST_ACCEPT = 1'b0,
  parameter bit          BYPASS      = 1'b0,
  parameter bit          BYPASS_POP  = 1'b0   // with BYPASS: also while the output is taken
) (
  input  wire logic                     clk,
  input  wire logic                     rst,
  input  wire logic                     s_valid,
  output logic                          s_ready,
  input  wire logic [WIDTH-1:0]         s_data,
  output logic                          m_valid,
  input  wire logic                     m_ready,
  output logic [WIDTH-1:0]              m_data,
  output logic [$clog2(DEPTH+1)-1:0]    count
);
  localparam int unsigned AW = $clog2(DEPTH);
  localparam int unsigned CW = $clog2(DEPTH + 1);

  if (DEPTH < 2 || (1 << AW) != DEPTH) begin : g_bad_depth
    $error("lib_fifo: DEPTH must be a power of two >= 2");
  end

  logic [WIDTH-1:0] ram_q [DEPTH];
  logic [AW:0]      wp_q, wp_d, rp_q, rp_d;
  logic             ov_q, ov_d;
  logic [WIDTH-1:0] out_q;
  logic [CW-1:0]    count_q, count_d;
  logic             push, pop, load, byp;

  // s_ready depends on registers only (kept out of the block below, so that
  // no combinational path from s_valid to s_ready is even suggested)
  assign s_ready = count_q < CW'(DEPTH);

  always_comb begin
    push    = s_valid && s_ready;
    pop     = ov_q && m_ready;
    // refill the output register from the memory whenever it empties
    load    = (rp_q != wp_q) && (!ov_q || m_ready);
    // the bypass: the memory and the output register are empty, the word
    // goes to the output register (its memory slot, written anyway, is
    // passed over); m_ready is not looked at, so the bypass adds no depth
    // behind the reader's decision
    byp     = BYPASS && push && (rp_q == wp_q) && (!ov_q || (BYPASS_POP && m_ready));
    wp_d    = wp_q + (AW+1)'(push);
    rp_d    = rp_q + (AW+1)'(load || byp);
    ov_d    = load || byp || (ov_q && !m_ready);
    count_d = count_q + CW'(push) - CW'(pop);
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      wp_q    <= '0;
      rp_q    <= '0;
      ov_q    <= 1'b0;
      count_q <= '0;
    end else begin
      wp_q    <= wp_d;
      rp_q    <= rp_d;
      ov_q    <= ov_d;
      count_q <= count_d;
    end
  end

  always_ff @(posedge clk) begin
    if (push) ram_q[wp_q[AW-1:0]] <= s_data;
  end
  always_ff @(posedge clk) begin
    if (byp)       out_q <= s_data;
    else if (load) out_q <= ram_q[rp_q[AW-1:0]];
  end

  assign m_valid = ov_q;
  assign m_data  = out_q;
  assign count   = count_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk) begin
    if (MUST_ACCEPT && !rst && s_valid && !s_ready) begin
      $error("lib_fifo: a word written into a full FIFO (MUST_ACCEPT) is lost");
    end
  end
`endif
endmodule
