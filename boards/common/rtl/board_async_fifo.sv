`default_nettype none

// Asynchronous FIFO between two unrelated clocks: Gray-coded pointers, each
// crossing through a two-flop synchroniser (board_sync_bit), the RAM written
// in the write domain and read in the read domain (block RAM for deep/wide
// FIFOs). First-word-fall-through read side: m_data is valid with m_valid.
//
// FRAME = 0: every written word becomes visible to the reader.
// FRAME = 1: the write pointer the reader sees only moves at s_last (the end of
//   a frame), so the reader only ever sees whole frames: once it starts one,
//   every word of it is already readable (a MAC TX that must not underflow).
//   A frame longer than DEPTH would fill the FIFO without ever being published:
//   when the FIFO is full and the reader has taken every published word, the
//   words written so far are published (s_forced pulses) so the FIFO cannot
//   lock up; such a frame may then reach the reader with gaps.
//
// Both resets must be asserted together (board_reset_sync from one source):
// resetting one side alone breaks the pointers.
//
// w_free: free words as the writer sees them (conservative: the read pointer
// it knows lags). r_used: words the reader sees (conservative likewise).
module board_async_fifo #(
  parameter int W     = 8,
  parameter int DEPTH = 16,     // power of two, at least 4
  parameter int FRAME = 0,
  parameter int AW    = $clog2(DEPTH)
) (
  // write side
  input  wire logic         wclk,
  input  wire logic         wrst,
  input  wire logic         s_valid,
  output logic              s_ready,
  input  wire logic [W-1:0] s_data,
  input  wire logic         s_last,     // FRAME = 1: this word ends a frame
  output logic [AW:0]       w_free,
  output logic              s_forced,   // FRAME = 1: an unfinished frame was published (FIFO full)
  // read side
  input  wire logic         rclk,
  input  wire logic         rrst,
  output logic              m_valid,
  input  wire logic         m_ready,
  output logic [W-1:0]      m_data,
  output logic [AW:0]       r_used
);

  if (DEPTH < 4 || (DEPTH & (DEPTH - 1)) != 0) begin : g_bad_depth
    $error("board_async_fifo: DEPTH must be a power of two of at least 4");
  end
  if (FRAME != 0 && FRAME != 1) begin : g_bad_frame
    $error("board_async_fifo: FRAME must be 0 or 1");
  end

  // (results assigned to the function's name: Yosys 0.23 takes no 'return')
  function automatic logic [AW:0] bin2gray(logic [AW:0] b);
    bin2gray = b ^ (b >> 1);
  endfunction

  function automatic logic [AW:0] gray2bin(logic [AW:0] g);
    gray2bin[AW] = g[AW];
    for (int i = AW - 1; i >= 0; i--) gray2bin[i] = gray2bin[i + 1] ^ g[i];
  endfunction

  logic [W-1:0] mem [DEPTH];

  // ------------------------------------------------------------ write side
  logic [AW:0] wptr_q, wptr_d;      // next word to write
  logic [AW:0] wpub_q, wpub_d;      // published (visible to the reader)
  logic [AW:0] wgray_q, wgray_d;    // Gray of wpub_q, the only thing that crosses
  logic [AW:0] rgray_w;             // reader's pointer, synchronised
  logic [AW:0] rptr_w, used_w;
  logic        push, full, forced_q, forced_d;

  // read side
  logic [AW:0] rptr_q, rptr_d;      // next word to fetch from the RAM
  logic [AW:0] rgray_q, rgray_d;    // Gray of rptr_q, crosses to the writer
  logic [AW:0] wgray_r, wptr_r;
  logic        out_valid_q, out_valid_d, fetch;
  logic [W-1:0] rdata_q;

  board_sync_bit #(.W(AW + 1)) u_sync_r2w (.clk(wclk), .rst(wrst), .d(rgray_q), .q(rgray_w));

  // status first, in its own block: s_ready and w_free do not depend on s_valid
  always_comb begin
    rptr_w  = gray2bin(rgray_w);
    used_w  = wptr_q - rptr_w;
    full    = used_w[AW];                    // used == DEPTH
    s_ready = !full && !wrst;
    w_free  = (AW + 1)'(DEPTH) - used_w;
  end

  always_comb begin
    push    = s_valid && s_ready;
    wptr_d  = wptr_q + (AW + 1)'(push);
    wpub_d  = wpub_q;
    forced_d = 1'b0;
    if (FRAME == 0) begin
      wpub_d = wptr_d;
    end else if (push && s_last) begin
      wpub_d = wptr_d;
    end else if ((wptr_d - rptr_w) == (AW + 1)'(DEPTH) && wpub_q == rptr_w) begin
      wpub_d = wptr_d;                       // full of one unfinished frame: nothing else can make room
      forced_d = 1'b1;
    end
    wgray_d  = bin2gray(wpub_d);
    s_forced = forced_q;
  end

  always_ff @(posedge wclk) begin
    if (wrst) begin
      wptr_q   <= '0;
      wpub_q   <= '0;
      wgray_q  <= '0;
      forced_q <= 1'b0;
    end else begin
      wptr_q   <= wptr_d;
      wpub_q   <= wpub_d;
      wgray_q  <= wgray_d;
      forced_q <= forced_d;
    end
  end

  // the RAM's write port (the inference template: the array write sits here)
  always_ff @(posedge wclk) begin
    if (push) mem[wptr_q[AW-1:0]] <= s_data;
  end

  // ------------------------------------------------------------- read side

  board_sync_bit #(.W(AW + 1)) u_sync_w2r (.clk(rclk), .rst(rrst), .d(wgray_q), .q(wgray_r));

  always_comb begin
    wptr_r      = gray2bin(wgray_r);
    r_used      = wptr_r - rptr_q;
    fetch       = (wptr_r != rptr_q) && (!out_valid_q || m_ready);
    rptr_d      = rptr_q + (AW + 1)'(fetch);
    rgray_d     = bin2gray(rptr_d);
    out_valid_d = fetch ? 1'b1 : (m_ready ? 1'b0 : out_valid_q);
    m_valid     = out_valid_q;
    m_data      = rdata_q;
  end

  always_ff @(posedge rclk) begin
    if (rrst) begin
      rptr_q      <= '0;
      rgray_q     <= '0;
      out_valid_q <= 1'b0;
    end else begin
      rptr_q      <= rptr_d;
      rgray_q     <= rgray_d;
      out_valid_q <= out_valid_d;
    end
  end

  // the RAM's read port: the output register holds the word while it waits
  always_ff @(posedge rclk) begin
    if (fetch) rdata_q <= mem[rptr_q[AW-1:0]];
  end

endmodule
