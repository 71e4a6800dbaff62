// user_pat_gen: one 64-byte beat of the data the rtl/user examples stream, for
// a 64-byte aligned block, in three registered stages (G1..G3), with a
// sideband that travels beside it.
//
//   mode 0 (pattern): byte A is byte A mod 8 of mem_pkg::pat_word(seed, A / 8),
//     the pattern of mem_pattern (the console's fill / verify);
//   mode 1 (counter): every 8-byte word of the block at byte address B holds
//     seed + B / 64 (a block counter, as a detector readout numbers its frames).
//
// All stages move together while `en` is high (the caller's output is free
// or taken); a beat enters with in_valid and leaves three moves later.
`default_nettype none

module user_pat_gen #(
  parameter int SIDE_W = 1
) (
  input  wire logic              clk,
  input  wire logic              rst,
  input  wire logic              en,
  input  wire logic              in_valid,
  input  wire logic [57:0]       in_blk,      // byte address / 64
  input  wire logic [SIDE_W-1:0] in_side,
  input  wire logic              mode,        // 0 pattern, 1 counter
  input  wire logic [63:0]       seed,
  output logic                   out_valid,
  output logic [SIDE_W-1:0]      out_side,
  output logic [511:0]           out_data
);
  logic              v1_q, v2_q, v3_q;
  logic              m1_q, m2_q;
  logic [SIDE_W-1:0] s1_q, s2_q, s3_q;
  logic [511:0]      w1_q, w1_d, w2_q, w2_d, w3_q, w3_d;

  always_comb begin
    for (int i = 0; i < 8; i++) begin
      // G1: seed ^ word index, or the block counter
      w1_d[64*i +: 64] = mode ? seed + {6'b0, in_blk} : seed ^ {3'b0, in_blk, 3'(i)};
      // G2, G3: pat_word's two rounds (a counter passes through)
      w2_d[64*i +: 64] = m1_q ? w1_q[64*i +: 64]
                              : mem_pkg::pat_xorshift(w1_q[64*i +: 64] + mem_pkg::PAT_C1);
      w3_d[64*i +: 64] = m2_q ? w2_q[64*i +: 64]
                              : mem_pkg::pat_xorshift(w2_q[64*i +: 64] + mem_pkg::PAT_C2);
    end
  end

  always_ff @(posedge clk) begin
    // the sideband is reset too: flip-flops, not a shift-register LUT
    // (whose output would start the caller's paths late)
    if (rst) begin
      v1_q <= 1'b0;
      v2_q <= 1'b0;
      v3_q <= 1'b0;
      s1_q <= '0;
      s2_q <= '0;
      s3_q <= '0;
    end else if (en) begin
      v1_q <= in_valid;
      v2_q <= v1_q;
      v3_q <= v2_q;
      s1_q <= in_side;
      s2_q <= s1_q;
      s3_q <= s2_q;
    end
    if (en) begin
      m1_q <= mode;
      m2_q <= m1_q;
      w1_q <= w1_d;
      w2_q <= w2_d;
      w3_q <= w3_d;
    end
  end

  assign out_valid = v3_q;
  assign out_side  = s3_q;
  assign out_data  = w3_q;
endmodule
