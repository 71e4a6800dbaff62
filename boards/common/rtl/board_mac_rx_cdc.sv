`default_nettype none

// MAC RX (CMAC clock, 322.265625 MHz, no back-pressure) -> NIC RX (250 MHz, no
// back-pressure). The CMAC cannot be stalled, so frames are admitted whole or
// dropped whole:
//   - a frame is admitted at its first beat only if the FIFO has room for a
//     frame of MAX_FRAME_BYTES (the writer's free count is conservative), so an
//     admitted frame always fits; otherwise it is dropped and counted;
//   - a frame longer than MAX_FRAME_BYTES is cut at that length, its last beat
//     marked bad (tuser), and counted (the CMAC's own length check normally
//     drops it first);
//   - when the link resets (link_down) in the middle of a frame, the frame is
//     closed with a bad one-byte beat so the NIC drops it.
// The FIFO publishes whole frames (FRAME = 1): the NIC sees every frame with
// its beats back to back, as from the simulator's MAC. The reader drains one
// beat per NIC cycle (128 Gb/s at 250 MHz, above the 100 Gb/s line), so at line
// rate nothing is dropped; DEPTH beats hold DEPTH*64 bytes of burst.
//
// Storage per beat: data, tkeep packed in 15 bits (keep_pack below: tkeep is
// contiguous from byte 0 on a MAC stream), last, user: 529 bits (8 RAMB36 at
// DEPTH 512).
//
// Timing (make timing: 5 LUT levels, the CMAC budget; the deepest: link_q ->
// the state -> the FIFO's publish, and the FIFO's s_ready), cycle by cycle on
// the CMAC side:
//   t    the CMAC's beat is registered (in_*_q), its tkeep packed on the way
//        in (keep_pack), link_down beside it (link_q);
//   t+1  the state machine admits, passes, cuts or drops it and writes it into
//        the FIFO. The admission test uses room_q, a register of
//        'w_free >= MAX_BEATS + 2', and w_free is itself a cycle old: the two
//        beats the last two cycles may have written are in the margin, so an
//        admitted frame (MAX_BEATS beats at most) still always fits.
//   at_max_q says the beat being passed is the frame's MAX_BEATS-th (the cut).
// NIC side: the FIFO's output register, then the output registers with tkeep
// unpacked (one LUT per bit). Counters: board_count_sync (a few cycles late).
module board_mac_rx_cdc #(
  parameter int DEPTH           = 512,
  parameter int MAX_FRAME_BYTES = 9600
) (
  // CMAC side
  input  wire logic           mac_clk,
  input  wire logic           mac_rst,
  input  wire logic           link_down,        // mac_clk domain: the CMAC's RX is in reset
  input  wire logic [511:0]   s_axis_mac_tdata,
  input  wire logic [63:0]    s_axis_mac_tkeep,
  input  wire logic           s_axis_mac_tvalid,
  input  wire logic           s_axis_mac_tlast,
  input  wire logic           s_axis_mac_tuser,
  // NIC side
  input  wire logic           clk,
  input  wire logic           rst,
  output logic [511:0]        m_axis_rx_tdata,
  output logic [63:0]         m_axis_rx_tkeep,
  output logic                m_axis_rx_tvalid,
  output logic                m_axis_rx_tlast,
  output logic                m_axis_rx_tuser,
  // counters (clk domain)
  output logic [31:0]         cnt_frames,        // frames admitted
  output logic [31:0]         cnt_drop_full,     // frames dropped whole: no room
  output logic [31:0]         cnt_cut_long,      // frames cut at MAX_FRAME_BYTES
  output logic [31:0]         cnt_cut_link       // frames cut by a link reset
);

  localparam int MAX_BEATS = (MAX_FRAME_BYTES + 63) / 64;
  localparam int AW = $clog2(DEPTH);
  localparam int FW = 512 + 15 + 1 + 1;

  if (MAX_BEATS + 2 > DEPTH || MAX_BEATS < 2) begin : g_bad_depth
    $error("board_mac_rx_cdc: DEPTH must hold a frame of MAX_FRAME_BYTES");
  end

  typedef enum logic [1:0] {ST_IDLE, ST_PASS, ST_DROP} state_e;

  // ----------------------------------------------------- CMAC clock domain
  logic [511:0] in_data_q;
  logic         in_valid_q, in_last_q, in_user_q;
  logic         link_q;                   // link_down, registered with the beat
  logic [14:0]  in_keep_q, in_keep_d;     // tkeep, packed (keep_pack)
  logic         room_q, room_d;           // the FIFO has room for a frame (see above)
  logic         at_max_q, at_max_d;       // ST_PASS: the next beat is the MAX_BEATS-th

  state_e       st_q, st_d;
  logic [$clog2(MAX_BEATS + 1)-1:0] beats_q, beats_d;

  logic         w_valid, w_ready, w_last, w_forced;
  logic [FW-1:0] w_data;
  logic [AW:0]  w_free;
  logic         inc_frame, inc_full, inc_long, inc_link;

  // tkeep (contiguous from byte 0 on a MAC stream) packed in 15 bits, each a
  // shallow function: F[g] (bits 14:7) = group g of 8 bytes is all kept
  // (tkeep[8g+7]); P (bits 6:0) = the kept bytes of the one partial group, if
  // any. Unpacked: byte 8g+j is kept if F[g], or if P[j] and group g is the
  // first that is not full (g = 0 or F[g-1]).
  function automatic logic [14:0] keep_pack(logic [63:0] k);
    keep_pack = '0;
    for (int g = 0; g < 8; g++) begin
      keep_pack[7 + g] = k[8*g + 7];
      for (int j = 0; j < 7; j++) keep_pack[j] = keep_pack[j] | (k[8*g + j] && !k[8*g + 7]);
    end
  endfunction

  function automatic logic [63:0] keep_unpack(logic [14:0] p);
    for (int g = 0; g < 8; g++) begin
      for (int j = 0; j < 8; j++) begin
        keep_unpack[8*g + j] = p[7 + g];
        if (j < 7) begin
          if (g == 0) keep_unpack[8*g + j] = keep_unpack[8*g + j] || p[j];
          else        keep_unpack[8*g + j] = keep_unpack[8*g + j] || (p[j] && p[7 + g - 1]);
        end
      end
    end
  endfunction

  always_comb begin
    in_keep_d  = keep_pack(s_axis_mac_tkeep);
    room_d     = w_free >= (AW + 1)'(MAX_BEATS + 2);
  end

  always_comb begin
    st_d = st_q;
    beats_d = beats_q;
    at_max_d = at_max_q;
    w_valid = 1'b0;
    w_last = 1'b0;
    w_data = {1'b0, 1'b0, in_keep_q, in_data_q};
    inc_frame = 1'b0;
    inc_full = 1'b0;
    inc_long = 1'b0;
    inc_link = 1'b0;
    unique case (st_q)
      ST_IDLE: begin
        if (in_valid_q && !link_q) begin
          if (room_q) begin
            w_valid = 1'b1;
            w_last = in_last_q;
            w_data = {in_user_q && in_last_q, in_last_q, in_keep_q, in_data_q};
            inc_frame = 1'b1;
            beats_d = 1;
            at_max_d = MAX_BEATS == 2;
            if (!in_last_q) st_d = ST_PASS;
          end else begin
            inc_full = 1'b1;
            if (!in_last_q) st_d = ST_DROP;
          end
        end
      end
      ST_PASS: begin
        if (link_q) begin
          // close the frame: one bad byte
          w_valid = 1'b1;
          w_last = 1'b1;
          w_data = {1'b1, 1'b1, 8'h00, 7'h01, 512'd0};
          inc_link = 1'b1;
          st_d = ST_IDLE;
        end else if (in_valid_q) begin
          w_valid = 1'b1;
          beats_d = beats_q + 1'b1;
          at_max_d = beats_q == $bits(beats_q)'(MAX_BEATS - 2);
          if (!in_last_q && at_max_q) begin
            w_last = 1'b1;
            w_data = {1'b1, 1'b1, in_keep_q, in_data_q};
            inc_long = 1'b1;
            st_d = ST_DROP;
          end else begin
            w_last = in_last_q;
            w_data = {in_user_q && in_last_q, in_last_q, in_keep_q, in_data_q};
            if (in_last_q) st_d = ST_IDLE;
          end
        end
      end
      ST_DROP: begin
        if (link_q || (in_valid_q && in_last_q)) st_d = ST_IDLE;
      end
      default: st_d = ST_IDLE;
    endcase
  end

  always_ff @(posedge mac_clk) begin
    if (mac_rst) begin
      in_valid_q <= 1'b0;
      link_q     <= 1'b1;
      in_last_q  <= 1'b0;
      in_user_q  <= 1'b0;
      in_data_q  <= '0;
      in_keep_q  <= '0;
      room_q     <= 1'b1;               // empty
      st_q       <= ST_IDLE;
      beats_q    <= '0;
      at_max_q   <= 1'b0;
    end else begin
      in_valid_q <= s_axis_mac_tvalid;
      link_q     <= link_down;
      in_last_q  <= s_axis_mac_tlast;
      in_user_q  <= s_axis_mac_tuser;
      in_data_q  <= s_axis_mac_tdata;
      in_keep_q  <= in_keep_d;
      room_q     <= room_d;
      st_q       <= st_d;
      beats_q    <= beats_d;
      at_max_q   <= at_max_d;
    end
  end

  // ------------------------------------------------------------- the FIFO
  logic          r_valid;
  logic [FW-1:0] r_data;
  logic [AW:0]   r_used;

  board_async_fifo #(.W(FW), .DEPTH(DEPTH), .FRAME(1)) u_fifo (
    .wclk(mac_clk), .wrst(mac_rst),
    .s_valid(w_valid), .s_ready(w_ready), .s_data(w_data), .s_last(w_last),
    .w_free, .s_forced(w_forced),
    .rclk(clk), .rrst(rst),
    .m_valid(r_valid), .m_ready(1'b1), .m_data(r_data), .r_used
  );

  // ------------------------------------------------------ NIC clock domain
  logic [511:0] out_data_q, out_data_d;
  logic [63:0]  out_keep_q, out_keep_d;
  logic         out_valid_q, out_valid_d, out_last_q, out_last_d, out_user_q, out_user_d;

  always_comb begin
    out_valid_d = r_valid;
    out_data_d  = r_data[511:0];
    out_last_d  = r_valid && r_data[527];
    out_user_d  = r_valid && r_data[528];
    out_keep_d  = r_valid ? keep_unpack(r_data[526:512]) : 64'd0;
    m_axis_rx_tdata  = out_data_q;
    m_axis_rx_tkeep  = out_keep_q;
    m_axis_rx_tvalid = out_valid_q;
    m_axis_rx_tlast  = out_last_q;
    m_axis_rx_tuser  = out_user_q;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      out_valid_q <= 1'b0;
      out_last_q  <= 1'b0;
      out_user_q  <= 1'b0;
      out_keep_q  <= '0;
      out_data_q  <= '0;
    end else begin
      out_valid_q <= out_valid_d;
      out_last_q  <= out_last_d;
      out_user_q  <= out_user_d;
      out_keep_q  <= out_keep_d;
      out_data_q  <= out_data_d;
    end
  end

  board_count_sync u_cnt_frames (.src_clk(mac_clk), .src_rst(mac_rst), .inc(inc_frame),
                                 .dst_clk(clk), .dst_rst(rst), .count(cnt_frames));
  board_count_sync u_cnt_full   (.src_clk(mac_clk), .src_rst(mac_rst), .inc(inc_full),
                                 .dst_clk(clk), .dst_rst(rst), .count(cnt_drop_full));
  board_count_sync u_cnt_long   (.src_clk(mac_clk), .src_rst(mac_rst), .inc(inc_long),
                                 .dst_clk(clk), .dst_rst(rst), .count(cnt_cut_long));
  board_count_sync u_cnt_link   (.src_clk(mac_clk), .src_rst(mac_rst), .inc(inc_link),
                                 .dst_clk(clk), .dst_rst(rst), .count(cnt_cut_link));

  // admitted frames always fit (the reservation above): the FIFO never refuses
  // a beat and never has to publish an unfinished frame
  logic unused;
  assign unused = ^{w_ready, w_forced, r_used};

`ifndef SYNTHESIS
  always_ff @(posedge mac_clk) begin
    if (!mac_rst && w_valid && !w_ready) $error("board_mac_rx_cdc: FIFO refused an admitted beat");
  end
`endif

endmodule
