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
  localparam int FW = 512 + 6 + 1;
  localparam int MIN_BYTES = 60;

  if (MAX_FRAME_BYTES > DEPTH * 64) begin : g_bad_depth
    $error("board_mac_tx_cdc: DEPTH must hold a frame of MAX_FRAME_BYTES");
  end

  // ------------------------------------------------------ NIC clock domain
  logic         sof_q, sof_d;             // the next beat starts a frame
  logic [6:0]   keep_ones;
  logic [5:0]   nb_m1;
  logic [511:0] pad_data;
  logic         w_valid, w_ready, w_forced;
  logic [FW-1:0] w_data;
  logic [AW:0]  w_free;

  always_comb begin
    keep_ones = '0;
    for (int i = 0; i < 64; i++) keep_ones = keep_ones + 7'(s_axis_tx_tkeep[i]);
    nb_m1 = (keep_ones == 7'd0) ? 6'd0 : 6'(keep_ones - 7'd1);
    pad_data = s_axis_tx_tdata;
    if (sof_q && s_axis_tx_tlast && keep_ones < 7'(MIN_BYTES)) begin
      for (int i = 0; i < 64; i++) begin
        if (7'(i) >= keep_ones) pad_data[i*8 +: 8] = 8'h00;
      end
      nb_m1 = 6'(MIN_BYTES - 1);
    end
    w_valid = s_axis_tx_tvalid;
    w_data  = {s_axis_tx_tlast, nb_m1, pad_data};
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
  logic in_frame_q, in_frame_d, dropping_q, dropping_d;
  logic inc_frame, inc_drop;

  always_comb begin
    in_frame_d = in_frame_q;
    dropping_d = dropping_q;
    // at a frame's first beat decide: send it, or drop it (TX in reset)
    if (r_valid && !in_frame_q) dropping_d = link_down;
    r_ready = (r_valid && !in_frame_q) ? (link_down || m_axis_mac_tready)
                                       : (dropping_q || m_axis_mac_tready);
    if (r_valid && r_ready) in_frame_d = !r_data[518];
    inc_frame = r_valid && r_ready && r_data[518] && !dropping_d;
    inc_drop  = r_valid && r_ready && r_data[518] && dropping_d;

    m_axis_mac_tvalid = r_valid && !dropping_d;
    m_axis_mac_tdata  = r_data[511:0];
    m_axis_mac_tlast  = r_data[518];
    m_axis_mac_tuser  = 1'b0;
    for (int i = 0; i < 64; i++) m_axis_mac_tkeep[i] = 6'(i) <= r_data[517:512];
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

  board_count_sync u_cnt_frames (.src_clk(mac_clk), .src_rst(mac_rst), .inc(inc_frame),
                                 .dst_clk(clk), .dst_rst(rst), .count(cnt_frames));
  board_count_sync u_cnt_drop   (.src_clk(mac_clk), .src_rst(mac_rst), .inc(inc_drop),
                                 .dst_clk(clk), .dst_rst(rst), .count(cnt_drop_link));
  board_count_sync u_cnt_long   (.src_clk(clk), .src_rst(rst), .inc(w_forced),
                                 .dst_clk(clk), .dst_rst(rst), .count(cnt_too_long));

  logic unused;
  assign unused = ^{w_free, r_used};

endmodule
