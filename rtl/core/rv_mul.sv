`default_nettype none
// rv_mul: 33x33-bit signed multiplier for MUL/MULH/MULHSU/MULHU, the M-stage
// half. rv_core registers its operands in front (E->M) and these outputs
// behind (M->W). The operands are split in 16-bit halves (the upper one 17
// bits with the sign): four 17x17 signed products, one DSP each, whose
// outputs start the paths here. Behind them one carry-save level and one
// carry chain each:
//   lo    = the low word (MUL), complete: pLL + (pLH + pHL)[15:0] << 16
//   k     = the carry of lo's upper half into the high word (0..2)
//   h0/1/2 = the high word (MULH*) without that carry, plus 0, 1 and 2
// so that rv_core picks the high word in W with one LUT (hi_of) instead of
// a 64-bit carry chain behind the DSPs.
module rv_mul (
  input  wire logic [31:0]   a,
  input  wire logic [31:0]   b,
  input  wire logic [1:0]    op,      // core_pkg::MUL_*
  output logic      [31:0]   lo,
  output logic      [1:0]    k,
  output logic      [31:0]   h0,
  output logic      [31:0]   h1,
  output logic      [31:0]   h2
);

  logic               a_signed, b_signed;
  logic signed [16:0] al, ah, bl, bh;
  // (pll is below 2^32; phh's top bits fall off the 64-bit product)
  /* verilator lint_off UNUSEDSIGNAL */
  logic signed [33:0] pll, plh, phl, phh;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [15:0]        ls, lc;          // carry-save of pll[31:16] + plh[15:0] + phl[15:0]
  logic [17:0]        lsum;
  logic [31:0]        x, y, z, hs, hc, hc1;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [32:0]        h2w;             // bit 0 is the extra carry in
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    a_signed = (op == core_pkg::MUL_MULH) || (op == core_pkg::MUL_MULHSU);
    b_signed = (op == core_pkg::MUL_MULH);
    al  = $signed({1'b0, a[15:0]});
    bl  = $signed({1'b0, b[15:0]});
    ah  = $signed({a_signed & a[31], a[31:16]});
    bh  = $signed({b_signed & b[31], b[31:16]});
    pll = al * bl;
    plh = al * bh;
    phl = ah * bl;
    phh = ah * bh;

    // low word: bits 31:16 = pll[31:16] + plh[15:0] + phl[15:0]
    ls   = pll[31:16] ^ plh[15:0] ^ phl[15:0];
    lc   = (pll[31:16] & plh[15:0]) | (pll[31:16] & phl[15:0]) | (plh[15:0] & phl[15:0]);
    lsum = {2'b0, ls} + {1'b0, lc, 1'b0};
    lo   = {lsum[15:0], pll[15:0]};
    k    = lsum[17:16];

    // high word: phh + plh >> 16 + phl >> 16 (signed), + k
    x   = phh[31:0];
    y   = {{14{plh[33]}}, plh[33:16]};
    z   = {{14{phl[33]}}, phl[33:16]};
    hs  = x ^ y ^ z;
    hc  = {((x[30:0] & y[30:0]) | (x[30:0] & z[30:0]) | (y[30:0] & z[30:0])), 1'b0};
    hc1 = {hc[31:1], 1'b1};
    h0  = hs + hc;
    h1  = hs + hc1;
    // + 2: one more carry in at the bottom of the chain
    h2w = {hs, 1'b1} + {hc1, 1'b1};
    h2  = h2w[32:1];
  end

endmodule
