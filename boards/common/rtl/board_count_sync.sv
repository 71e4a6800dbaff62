`default_nettype none

// A 32-bit event counter kept in one clock domain and read in another: the
// source counts inc pulses in binary, registers the Gray code of the count,
// and the destination synchronises the Gray code (which changes by one bit per
// source clock) and converts it back.
//
// Timing (each stage a function of at most 4 registered bits, so at most 3
// LUT levels between registers, plus the counter's carry):
//   source:      inc_q <= inc; bin_q <= bin_q + inc_q; gray_q <= Gray of bin_q
//   destination: two synchroniser flops, then Gray -> binary (bit i is the XOR
//                of the Gray bits i..W-1) in three registered stages of at
//                most 4 inputs per bit: a_q, per group of 4 bits, the XOR from
//                bit i to the group's top; b_q adds the parities of the groups
//                above within the same 16 bits; count_q those of the 16-bit
//                blocks above.
// So an inc pulse shows in count 3 source + 5 destination cycles later.
module board_count_sync #(
  parameter int W = 32
) (
  input  wire logic         src_clk,
  input  wire logic         src_rst,
  input  wire logic         inc,
  input  wire logic         dst_clk,
  input  wire logic         dst_rst,
  output logic [W-1:0]      count      // in dst_clk's domain, a few cycles late
);

  logic         inc_q;
  logic [W-1:0] bin_q, bin_d, gray_q, gray_d, gray_dst;
  logic [W-1:0] a_q, a_d, b_q, b_d, count_q, count_d;

  always_comb begin
    bin_d  = bin_q + W'(inc_q);
    gray_d = bin_q ^ (bin_q >> 1);
  end

  always_ff @(posedge src_clk) begin
    if (src_rst) begin
      inc_q  <= 1'b0;
      bin_q  <= '0;
      gray_q <= '0;
    end else begin
      inc_q  <= inc;
      bin_q  <= bin_d;
      gray_q <= gray_d;
    end
  end

  board_sync_bit #(.W(W)) u_sync (.clk(dst_clk), .rst(dst_rst), .d(gray_q), .q(gray_dst));

  always_comb begin
    for (int i = 0; i < W; i++) begin
      a_d[i] = 1'b0;            // bits i..top of its group of 4
      for (int j = 0; j < W; j++) begin
        if (j >= i && j / 4 == i / 4) a_d[i] = a_d[i] ^ gray_dst[j];
      end
      b_d[i] = a_q[i];          // and the groups of 4 above it in its 16 bits
      for (int j = 0; j < W; j += 4) begin
        if (j / 4 > i / 4 && j / 16 == i / 16) b_d[i] = b_d[i] ^ a_q[j];
      end
      count_d[i] = b_q[i];      // and the blocks of 16 above
      for (int j = 0; j < W; j += 16) begin
        if (j / 16 > i / 16) count_d[i] = count_d[i] ^ b_q[j];
      end
    end
    count = count_q;
  end

  always_ff @(posedge dst_clk) begin
    if (dst_rst) begin
      a_q     <= '0;
      b_q     <= '0;
      count_q <= '0;
    end else begin
      a_q     <= a_d;
      b_q     <= b_d;
      count_q <= count_d;
    end
  end

endmodule
