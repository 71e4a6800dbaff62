`default_nettype none

// A 32-bit event counter kept in one clock domain and read in another: the
// source counts inc pulses in binary, registers the Gray code of the count,
// and the destination synchronises the Gray code (which changes by one bit per
// source clock) and converts it back.
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

  logic [W-1:0] bin_q, bin_d, gray_q, gray_d, gray_dst;

  always_comb begin
    bin_d  = bin_q + W'(inc);
    gray_d = bin_d ^ (bin_d >> 1);
  end

  always_ff @(posedge src_clk) begin
    if (src_rst) begin
      bin_q  <= '0;
      gray_q <= '0;
    end else begin
      bin_q  <= bin_d;
      gray_q <= gray_d;
    end
  end

  board_sync_bit #(.W(W)) u_sync (.clk(dst_clk), .rst(dst_rst), .d(gray_q), .q(gray_dst));

  always_comb begin
    count[W-1] = gray_dst[W-1];
    for (int i = W - 2; i >= 0; i--) count[i] = count[i + 1] ^ gray_dst[i];
  end

endmodule
