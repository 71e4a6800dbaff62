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
// Storage per beat: data, bytes-1 of the beat (tkeep is contiguous from byte
// 0 on a MAC stream), last, user: 520 bits (8 RAMB36 at DEPTH 512).
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
  localparam int FW = 512 + 6 + 1 + 1;

  if (MAX_BEATS > DEPTH) begin : g_bad_depth
    $error("board_mac_rx_cdc: DEPTH must hold a frame of MAX_FRAME_BYTES");
  end

  typedef enum logic [1:0] {ST_IDLE, ST_PASS, ST_DROP} state_e;

  // ----------------------------------------------------- CMAC clock domain
  logic [511:0] in_data_q;
  logic [63:0]  in_keep_q;
  logic         in_valid_q, in_last_q, in_user_q;
  logic [5:0]   in_nb_m1;                 // bytes in the beat - 1
  logic [6:0]   keep_ones;

  state_e       st_q, st_d;
  logic [$clog2(MAX_BEATS + 1)-1:0] beats_q, beats_d;

  logic         w_valid, w_ready, w_last, w_forced;
  logic [FW-1:0] w_data;
  logic [AW:0]  w_free;
  logic         inc_frame, inc_full, inc_long, inc_link;

  always_comb begin
    keep_ones = '0;
    for (int i = 0; i < 64; i++) keep_ones = keep_ones + 7'(in_keep_q[i]);
    in_nb_m1 = (keep_ones == 7'd0) ? 6'd0 : 6'(keep_ones - 7'd1);

    st_d = st_q;
    beats_d = beats_q;
    w_valid = 1'b0;
    w_last = 1'b0;
    w_data = {1'b0, 1'b0, in_nb_m1, in_data_q};
    inc_frame = 1'b0;
    inc_full = 1'b0;
    inc_long = 1'b0;
    inc_link = 1'b0;
    unique case (st_q)
      ST_IDLE: begin
        if (in_valid_q && !link_down) begin
          if (w_free >= (AW + 1)'(MAX_BEATS)) begin
            w_valid = 1'b1;
            w_last = in_last_q;
            w_data = {in_user_q && in_last_q, in_last_q, in_nb_m1, in_data_q};
            inc_frame = 1'b1;
            beats_d = 1;
            if (!in_last_q) st_d = ST_PASS;
          end else begin
            inc_full = 1'b1;
            if (!in_last_q) st_d = ST_DROP;
          end
        end
      end
      ST_PASS: begin
        if (link_down) begin
          // close the frame: one bad byte
          w_valid = 1'b1;
          w_last = 1'b1;
          w_data = {1'b1, 1'b1, 6'd0, 512'd0};
          inc_link = 1'b1;
          st_d = ST_IDLE;
        end else if (in_valid_q) begin
          w_valid = 1'b1;
          beats_d = beats_q + 1'b1;
          if (!in_last_q && beats_q == $bits(beats_q)'(MAX_BEATS - 1)) begin
            w_last = 1'b1;
            w_data = {1'b1, 1'b1, in_nb_m1, in_data_q};
            inc_long = 1'b1;
            st_d = ST_DROP;
          end else begin
            w_last = in_last_q;
            w_data = {in_user_q && in_last_q, in_last_q, in_nb_m1, in_data_q};
            if (in_last_q) st_d = ST_IDLE;
          end
        end
      end
      ST_DROP: begin
        if (link_down || (in_valid_q && in_last_q)) st_d = ST_IDLE;
      end
      default: st_d = ST_IDLE;
    endcase
  end

  always_ff @(posedge mac_clk) begin
    if (mac_rst) begin
      in_valid_q <= 1'b0;
      in_last_q  <= 1'b0;
      in_user_q  <= 1'b0;
      in_data_q  <= '0;
      in_keep_q  <= '0;
      st_q       <= ST_IDLE;
      beats_q    <= '0;
    end else begin
      in_valid_q <= s_axis_mac_tvalid;
      in_last_q  <= s_axis_mac_tlast;
      in_user_q  <= s_axis_mac_tuser;
      in_data_q  <= s_axis_mac_tdata;
      in_keep_q  <= s_axis_mac_tkeep;
      st_q       <= st_d;
      beats_q    <= beats_d;
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
    out_last_d  = r_valid && r_data[518];
    out_user_d  = r_valid && r_data[519];
    for (int i = 0; i < 64; i++) out_keep_d[i] = r_valid && (6'(i) <= r_data[517:512]);
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
