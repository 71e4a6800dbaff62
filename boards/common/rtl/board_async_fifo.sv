`default_nettype none

// Asynchronous FIFO between two unrelated clocks, the RAM written in the
// write domain and read in the read domain (block RAM for deep/wide FIFOs).
// First-word-fall-through read side: m_data is valid with m_valid.
// The read pointer crosses to the writer as Gray code through a two-flop
// synchroniser (board_sync_bit); the write pointer the reader sees (the
// published one) likewise with FRAME = 0, and by a toggle handshake with
// FRAME = 1, where it moves by a whole frame at once (see g_handshake).
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
// Timing (every decision from registers, a few LUT levels plus the pointers'
// carry chains; s_ready is the deepest, 5 in board_mac_rx_cdc):
//   write side, cycle by cycle:
//     t    s_valid && s_ready (s_ready is a register): the word goes into the
//          RAM, wptr_q counts it; at s_last (FRAME = 1) wpub_q takes the new
//          pointer (FRAME = 0: always)
//     t+1  FRAME = 0: wgray_q <= Gray of wpub_q (the register that crosses);
//          FRAME = 1: xptr_q <= wpub_q when no handshake is under way
//   read side: FRAME = 0: the synchronised Gray pointer (2 flops) is converted
//     to binary in two registered stages (wpart_q, wbin_q); FRAME = 1: wbin_q
//     takes xptr_q one cycle after the synchronised request toggles. The fetch
//     compares wbin_q with rptr_q; a fetched word is in the RAM's output
//     register the next cycle (m_valid). rgray_q, the Gray of rptr_q, crosses
//     back a cycle after the fetch.
//   So a word written at t (FRAME = 0) is readable about 2 write + 5 read
//   cycles later; a frame (FRAME = 1) about 2 write + 4 read cycles after its
//   last word, plus up to one handshake round trip when one is under way.
//   s_ready is computed a cycle ahead: from wptr_q, the push of this cycle and
//   the writer's copy of the read pointer (rbin_q: synchronised, converted to
//   binary in two registered stages), so it is never true when the FIFO could
//   be full. s_forced is decided from registers and acts the cycle after (the
//   FIFO is full then, nothing is written in between).
//
// w_free: free words as the writer saw them the cycle before (conservative:
// the read pointer it knows lags, and the last cycle's write is not in it).
// r_used: words the reader saw the cycle before (conservative likewise).
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

  // Gray -> binary (bit i is the XOR of the Gray bits i..AW) in two registered
  // stages of few inputs per bit: gray_part, per group of 4 bits, the XOR from
  // bit i to the group's top; gray_done adds the parities of the groups above
  function automatic logic [AW:0] gray_part(logic [AW:0] g);
    for (int i = 0; i <= AW; i++) begin
      gray_part[i] = 1'b0;
      for (int j = 0; j <= AW; j++) begin
        if (j >= i && j / 4 == i / 4) gray_part[i] = gray_part[i] ^ g[j];
      end
    end
  endfunction

  function automatic logic [AW:0] gray_done(logic [AW:0] p);
    for (int i = 0; i <= AW; i++) begin
      gray_done[i] = p[i];
      for (int j = 0; j <= AW; j += 4) begin
        if (j / 4 > i / 4) gray_done[i] = gray_done[i] ^ p[j];
      end
    end
  endfunction

  logic [W-1:0] mem [DEPTH];

  // ------------------------------------------------------------ write side
  logic [AW:0] wptr_q, wptr_d;      // next word to write
  logic [AW:0] wpub_q, wpub_d;      // published (visible to the reader)
  logic [AW:0] rgray_w;             // reader's pointer, synchronised
  logic [AW:0] rpart_q, rpart_d;    // ... half converted to binary (gray_part)
  logic [AW:0] rbin_q, rbin_d;      // ... in binary
  logic [AW:0] used_w, free_q, free_d;
  logic        push, full_now, full_next, ready_q, ready_d, forced_q, forced_d;

  // read side
  logic [AW:0] rptr_q, rptr_d;      // next word to fetch from the RAM
  logic [AW:0] rgray_q, rgray_d;    // Gray of rptr_q a cycle late, crosses to the writer
  logic [AW:0] wbin_q;              // the published pointer as the reader knows it
  logic [AW:0] used_q, used_d;
  logic        out_valid_q, out_valid_d, fetch;
  logic [W-1:0] rdata_q;

  board_sync_bit #(.W(AW + 1)) u_sync_r2w (.clk(wclk), .rst(wrst), .d(rgray_q), .q(rgray_w));

  // status, from registers only: words in the FIFO as the writer knows them
  // (at most DEPTH), full now, full after one more word
  always_comb begin
    rpart_d   = gray_part(rgray_w);
    rbin_d    = gray_done(rpart_q);
    used_w    = wptr_q - rbin_q;
    full_now  = used_w[AW];                  // used == DEPTH
    full_next = &used_w[AW-1:0];             // used == DEPTH - 1
    free_d    = rbin_q - wptr_q + (AW + 1)'(DEPTH);
    s_ready   = ready_q;
    w_free    = free_q;
    s_forced  = forced_q;
  end

  always_comb begin
    push     = s_valid && ready_q;
    wptr_d   = wptr_q + (AW + 1)'(push);
    ready_d  = !(full_now || (push && full_next));
    // FRAME = 1, full of one unfinished frame (the reader has taken every
    // published word): nothing else can make room, publish what there is
    forced_d = FRAME == 1 && full_now && wpub_q == rbin_q && !forced_q;
    wpub_d   = wpub_q;
    if (FRAME == 0 || (push && s_last)) wpub_d = wptr_d;
    else if (forced_q)                  wpub_d = wptr_q;
  end

  always_ff @(posedge wclk) begin
    if (wrst) begin
      wptr_q   <= '0;
      wpub_q   <= '0;
      rpart_q  <= '0;
      rbin_q   <= '0;
      free_q   <= (AW + 1)'(DEPTH);
      ready_q  <= 1'b0;
      forced_q <= 1'b0;
    end else begin
      wptr_q   <= wptr_d;
      wpub_q   <= wpub_d;
      rpart_q  <= rpart_d;
      rbin_q   <= rbin_d;
      free_q   <= free_d;
      ready_q  <= ready_d;
      forced_q <= forced_d;
    end
  end

  // the RAM's write port (the inference template: the array write sits here)
  always_ff @(posedge wclk) begin
    if (push) mem[wptr_q[AW-1:0]] <= s_data;
  end

  // ------------------------------------------------------------- read side

  // the published pointer crosses to the reader
  if (FRAME == 0) begin : g_gray
    // it moves by one word per write clock: as Gray code through a synchroniser,
    // converted back to binary in two registered stages
    logic [AW:0] wgray_q, wgray_d, wgray_r, wpart_q, wpart_d, wbin_d;

    always_comb wgray_d = bin2gray(wpub_q);

    always_ff @(posedge wclk) begin
      if (wrst) wgray_q <= '0;
      else      wgray_q <= wgray_d;
    end

    board_sync_bit #(.W(AW + 1)) u_sync_w2r (.clk(rclk), .rst(rrst), .d(wgray_q), .q(wgray_r));

    always_comb begin
      wpart_d = gray_part(wgray_r);
      wbin_d  = gray_done(wpart_q);
    end

    always_ff @(posedge rclk) begin
      if (rrst) begin
        wpart_q <= '0;
        wbin_q  <= '0;
      end else begin
        wpart_q <= wpart_d;
        wbin_q  <= wbin_d;
      end
    end
  end else begin : g_handshake
    // it jumps by a whole frame (more than one Gray bit at once: a synchroniser
    // could catch a mix of old and new bits), so it crosses by a toggle
    // handshake: the writer offers wpub_q in xptr_q and toggles xreq_q; xptr_q
    // stays still until the reader's xack_q comes back equal, so when the
    // reader sees the toggle (through its synchroniser) it takes xptr_q as it
    // is, and acknowledges. Each round trip carries every frame published
    // meanwhile (about 3 read + 3 write cycles).
    logic [AW:0] xptr_q, xptr_d, wbin_d;
    logic        xreq_q, xreq_d, xreq_r, xack_q, xack_d, xack_w;

    board_sync_bit u_sync_req (.clk(rclk), .rst(rrst), .d(xreq_q), .q(xreq_r));
    board_sync_bit u_sync_ack (.clk(wclk), .rst(wrst), .d(xack_q), .q(xack_w));

    always_comb begin
      xptr_d = xptr_q;
      xreq_d = xreq_q;
      if (xreq_q == xack_w && xptr_q != wpub_q) begin
        xptr_d = wpub_q;
        xreq_d = !xreq_q;
      end
    end

    always_ff @(posedge wclk) begin
      if (wrst) begin
        xptr_q <= '0;
        xreq_q <= 1'b0;
      end else begin
        xptr_q <= xptr_d;
        xreq_q <= xreq_d;
      end
    end

    always_comb begin
      xack_d = xreq_r;
      wbin_d = (xreq_r != xack_q) ? xptr_q : wbin_q;
    end

    always_ff @(posedge rclk) begin
      if (rrst) begin
        xack_q <= 1'b0;
        wbin_q <= '0;
      end else begin
        xack_q <= xack_d;
        wbin_q <= wbin_d;
      end
    end
  end

  always_comb begin
    used_d      = wbin_q - rptr_q;
    fetch       = (wbin_q != rptr_q) && (!out_valid_q || m_ready);
    rptr_d      = rptr_q + (AW + 1)'(fetch);
    rgray_d     = bin2gray(rptr_q);
    out_valid_d = fetch ? 1'b1 : (m_ready ? 1'b0 : out_valid_q);
    m_valid     = out_valid_q;
    m_data      = rdata_q;
    r_used      = used_q;
  end

  always_ff @(posedge rclk) begin
    if (rrst) begin
      rptr_q      <= '0;
      rgray_q     <= '0;
      used_q      <= '0;
      out_valid_q <= 1'b0;
    end else begin
      rptr_q      <= rptr_d;
      rgray_q     <= rgray_d;
      used_q      <= used_d;
      out_valid_q <= out_valid_d;
    end
  end

  // the RAM's read port: the output register holds the word while it waits
  always_ff @(posedge rclk) begin
    if (fetch) rdata_q <= mem[rptr_q[AW-1:0]];
  end

`ifndef SYNTHESIS
  // the writer never overfills the FIFO as it knows it
  always_ff @(posedge wclk) begin
    if (!wrst && used_w > (AW + 1)'(DEPTH)) $error("board_async_fifo: more than DEPTH words");
  end
  // the reader never sees more than DEPTH words ahead of it
  always_ff @(posedge rclk) begin
    if (!rrst && (wbin_q - rptr_q) > (AW + 1)'(DEPTH)) $error("board_async_fifo: reader's pointers apart by more than DEPTH");
  end
`endif

endmodule
