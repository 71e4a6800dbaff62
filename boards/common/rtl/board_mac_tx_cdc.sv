`default_nettype none

// NIC TX (250 MHz, with tready) -> MAC TX (CMAC clock, 322.265625 MHz). The
// CMAC must get every frame's beats without a gap once it has started (a gap
// is an underflow: the frame goes out with a bad FCS), and the CMAC clock is
// the faster one, so the FIFO is store-and-forward: it publishes whole frames
// (FRAME = 1) and the CMAC side starts a frame only when all of it is there.
// Frames shorter than 60 bytes are padded with zeros to 60 (the CMAC adds the
// FCS but does not pad). While the CMAC's TX is in reset (link_down) whole
// frames are taken and dropped so the NIC does not stall; they are counted.
// The NIC's frames fit: MAX_FRAME_BYTES <= DEPTH * 64.
//
// Timing (make timing: 4 LUT levels, plus the FIFO's pointer carries; every
// output from a register):
//   NIC side: s_axis_tx_tready is the FIFO's registered s_ready. The beat goes
//     into the FIFO the cycle it is taken, its tkeep packed in 15 bits
//     (keep_pack below: tkeep is contiguous from byte 0) and the pad applied
//     per byte from tkeep itself (a frame's only beat with tkeep[59] clear:
//     bytes whose tkeep bit is clear are zeroed, tkeep becomes bytes 0..59).
//   CMAC side, cycle by cycle: the FIFO's output register holds a beat; the
//     send-or-drop decision at a frame's first beat takes it (or drops it)
//     into a lib_skid register slice with tkeep unpacked; the
//     slice's output registers are the CMAC's stream, and its registered
//     s_ready is what the FIFO reads on, so tready reaches no further than the
//     slice. The FIFO only shows whole frames and the slice passes one beat
//     per cycle with no bubble, so a frame reaches the CMAC without a gap.
//   cnt_frames counts the frames the CMAC took (tvalid, tready, tlast at the
//   slice's output); counters arrive through board_count_sync a few cycles late.
module board_mac_tx_cdc #(
  parameter int DEPTH           = 256,
  parameter int MAX_FRAME_BYTES = 9600
) (
  // NIC side
  input  wire logic           clk,
  input  wire logic           rst,
  input  wire logic [511:0]   s_axis_tx_tdata,
  input  wire logic [63:0]    s_axis_tx_tkeep,
  input  wire logic           s_axis_tx_tvalid,
  output logic                s_axis_tx_tready,
  input  wire logic           s_axis_tx_tlast,
  // CMAC side
  input  wire logic           mac_clk,
  input  wire logic           mac_rst,
  input  wire logic           link_down,        // mac_clk domain: the CMAC's TX is in reset
  output logic [511:0]        m_axis_mac_tdata,
  output logic [63:0]         m_axis_mac_tkeep,
  output logic                m_axis_mac_tvalid,
  input  wire logic           m_axis_mac_tready,
  output logic                m_axis_mac_tlast,
  output logic                m_axis_mac_tuser,
  // counters (clk domain)
  output logic [31:0]         cnt_frames,       // frames handed to the CMAC
  output logic [31:0]         cnt_drop_link,    // frames dropped while the CMAC's TX was in reset
  output logic [31:0]         cnt_too_long      // frames longer than DEPTH beats (may have gaps)
);

  localparam int AW = $clog2(DEPTH);
  localparam int FW = 512 + 15 + 1;
  localparam int MIN_BYTES = 60;
  localparam logic [14:0] PAD_KEEP = {8'h7F, 7'h0F};   // bytes 0..59, packed

  if (MAX_FRAME_BYTES > DEPTH * 64) begin : g_bad_depth
    $error("board_mac_tx_cdc: DEPTH must hold a frame of MAX_FRAME_BYTES");
  end

  // ------------------------------------------------------ NIC clock domain
  logic         sof_q, sof_d;             // the next beat starts a frame
  logic [14:0]  keep_p;                  // tkeep, packed (keep_pack)
  logic         pad;
  logic [511:0] pad_data;
  logic         w_valid, w_ready, w_forced;
  logic [FW-1:0] w_data;
  logic [AW:0]  w_free;

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
    // a frame of one beat with fewer than MIN_BYTES bytes: pad it with zeros
    pad = sof_q && s_axis_tx_tlast && !s_axis_tx_tkeep[MIN_BYTES - 1];
    keep_p = pad ? PAD_KEEP : keep_pack(s_axis_tx_tkeep);
    for (int i = 0; i < 64; i++) begin
      pad_data[i*8 +: 8] = (pad && !s_axis_tx_tkeep[i]) ? 8'h00 : s_axis_tx_tdata[i*8 +: 8];
    end
    w_valid = s_axis_tx_tvalid;
    w_data  = {s_axis_tx_tlast, keep_p, pad_data};
    s_axis_tx_tready = w_ready;
    sof_d = sof_q;
    if (s_axis_tx_tvalid && w_ready) sof_d = s_axis_tx_tlast;
  end

  always_ff @(posedge clk) begin
    if (rst) sof_q <= 1'b1;
    else     sof_q <= sof_d;
  end

  // ------------------------------------------------------------- the FIFO
  logic          r_valid, r_ready;
  logic [FW-1:0] r_data;
  logic [AW:0]   r_used;

  board_async_fifo #(.W(FW), .DEPTH(DEPTH), .FRAME(1)) u_fifo (
    .wclk(clk), .wrst(rst),
    .s_valid(w_valid), .s_ready(w_ready), .s_data(w_data), .s_last(s_axis_tx_tlast),
    .w_free, .s_forced(w_forced),
    .rclk(mac_clk), .rrst(mac_rst),
    .m_valid(r_valid), .m_ready(r_ready), .m_data(r_data), .r_used
  );

  // ----------------------------------------------------- CMAC clock domain
  localparam int OW = 512 + 64 + 1;       // the slice: last, tkeep, data

  logic          in_frame_q, in_frame_d, dropping_q, dropping_d;
  logic          o_valid, o_ready, o_valid_m;
  logic [OW-1:0] o_data, o_data_m;
  logic          inc_frame, inc_drop;

  always_comb begin
    in_frame_d = in_frame_q;
    dropping_d = dropping_q;
    // at a frame's first beat decide: send it, or drop it (TX in reset)
    if (r_valid && !in_frame_q) dropping_d = link_down;
    r_ready = dropping_d || o_ready;
    if (r_valid && r_ready) in_frame_d = !r_data[527];
    inc_drop = r_valid && r_ready && r_data[527] && dropping_d;
    o_valid  = r_valid && !dropping_d;
    o_data[511:0] = r_data[511:0];
    o_data[575:512] = keep_unpack(r_data[526:512]);
    o_data[576] = r_data[527];
  end

  always_ff @(posedge mac_clk) begin
    if (mac_rst) begin
      in_frame_q <= 1'b0;
      dropping_q <= 1'b0;
    end else begin
      in_frame_q <= in_frame_d;
      dropping_q <= dropping_d;
    end
  end

  lib_skid #(.WIDTH(OW)) u_out (
    .clk(mac_clk), .rst(mac_rst),
    .s_valid(o_valid), .s_ready(o_ready), .s_data(o_data),
    .m_valid(o_valid_m), .m_ready(m_axis_mac_tready), .m_data(o_data_m)
  );

  always_comb begin
    m_axis_mac_tvalid = o_valid_m;
    m_axis_mac_tdata  = o_data_m[511:0];
    m_axis_mac_tkeep  = o_data_m[575:512];
    m_axis_mac_tlast  = o_data_m[576];
    m_axis_mac_tuser  = 1'b0;
    inc_frame = o_valid_m && m_axis_mac_tready && o_data_m[576];
  end

  board_count_sync u_cnt_frames (.src_clk(mac_clk), .src_rst(mac_rst), .inc(inc_frame),
                                 .dst_clk(clk), .dst_rst(rst), .count(cnt_frames));
  board_count_sync u_cnt_drop   (.src_clk(mac_clk), .src_rst(mac_rst), .inc(inc_drop),
                                 .dst_clk(clk), .dst_rst(rst), .count(cnt_drop_link));
  board_count_sync u_cnt_long   (.src_clk(clk), .src_rst(rst), .inc(w_forced),
                                 .dst_clk(clk), .dst_rst(rst), .count(cnt_too_long));

  logic unused;
  assign unused = ^{w_free, r_used};

endmodule
