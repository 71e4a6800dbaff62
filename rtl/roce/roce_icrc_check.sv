// roce_icrc_check: RX ICRC check, store and forward. A frame leaves only
// after its ICRC is known good; a bad frame never leaves, it is counted.
//
// Input: whole RoCEv2 frames from the net layer (Ethernet + IPv4 without
// options + UDP + BTH ... ICRC, no FCS), byte 0 in tdata[7:0], tkeep
// contiguous from byte 0. The frame's end is taken from the IPv4 total length
// (frame bytes = 14 + total length), so Ethernet padding after the ICRC is
// ignored and not forwarded. s_axis_frame_tuser on the tlast beat is the net
// layer's drop marker (net_rx: 1 = the frame failed a check that came after
// its first beat): such a frame is dropped without being counted here (the
// net layer counts it). s_frame_meta is sampled with the first beat and
// travels with the frame (m_axis_frame_tuser, held on every output beat).
//
// Write side: every beat up to the frame's end goes into a RAM of DEPTH beats
// while roce_icrc_engine computes the CRC over the frame including its ICRC.
// When the result comes out (ICRC_ENGINE_LAT cycles after the last beat) a
// descriptor {good, beats, meta} is queued once the frame's tlast (and its
// drop marker) has also been seen. Read side: a good frame is read out of the
// RAM beat by beat; a bad one is skipped in one cycle.
//
// Drops (each counted once per frame):
//   cnt_drop_icrc  the ICRC does not match
//   cnt_drop_len   frame shorter than its IPv4 total length (truncated),
//                  shorter than the smallest RoCEv2 frame (58 bytes), or
//                  longer than MAX_FRAME_BYTES (not stored at all)
//
// Throughput: one beat per cycle in and out; the input never waits while the
// RAM has room, so back-to-back frames pass without bubbles.
`default_nettype none

module roce_icrc_check #(
  parameter int USER_W          = 1,     // s_frame_meta bits carried with a frame
  parameter int DEPTH           = 256,   // RAM beats (power of two)
  parameter int DESC_DEPTH      = 32,    // frames in flight (power of two)
  parameter int MAX_FRAME_BYTES = 9018,  // longer frames are dropped
  parameter int AW              = $clog2(DEPTH)
) (
  input  wire logic                        clk,
  input  wire logic                        rst,
  // whole frames in
  input  wire logic [roce_pkg::DATA_W-1:0] s_axis_frame_tdata,
  input  wire logic [roce_pkg::KEEP_W-1:0] s_axis_frame_tkeep,
  input  wire logic                        s_axis_frame_tvalid,
  output logic                             s_axis_frame_tready,
  input  wire logic                        s_axis_frame_tlast,
  input  wire logic                        s_axis_frame_tuser,   // on tlast: 1 = drop (net layer's marker)
  input  wire logic [USER_W-1:0]           s_frame_meta,         // with the first beat
  // checked frames out (including the ICRC, without Ethernet padding)
  output logic [roce_pkg::DATA_W-1:0]      m_axis_frame_tdata,
  output logic [roce_pkg::KEEP_W-1:0]      m_axis_frame_tkeep,
  output logic                             m_axis_frame_tvalid,
  input  wire logic                        m_axis_frame_tready,
  output logic                             m_axis_frame_tlast,
  output logic [USER_W-1:0]                m_axis_frame_tuser,   // the frame's s_frame_meta
  // drop counters (wrap around)
  output logic [31:0]                      cnt_drop_icrc,
  output logic [31:0]                      cnt_drop_len
);
  localparam int DW     = roce_pkg::DATA_W;
  localparam int DAW    = $clog2(DESC_DEPTH);
  localparam int TAG_W  = 1 + (AW + 1) + USER_W;      // {len_bad, beats, user}
  localparam int DESC_W = 1 + (AW + 1) + USER_W;      // {good, beats, user}
  localparam int RAM_W  = 7 + DW;                     // {bytes, data}
  localparam int OUT_W  = 1 + USER_W + 7 + DW;        // {last, user, bytes, data}
  localparam int OUT_DEPTH = 4;

  // ================================================================ write side
  logic             in_pkt_q, in_pkt_d;      // a frame is open (next beat is not its first)
  logic [10:0]      bidx_q, bidx_d;          // beat index of the next beat
  logic [16:0]      end_q, end_d;            // frame end (bytes) from the IPv4 total length
  logic             done_q, done_d;          // result already requested, rest is padding
  logic             disc_q, disc_d;          // oversize: nothing stored
  logic [AW:0]      nbeats_q, nbeats_d;      // beats stored of this frame
  logic [USER_W-1:0] user_q, user_d;
  logic [AW:0]      wr_ptr_q, wr_ptr_d;
  logic [AW:0]      rd_ptr_q, rd_ptr_d;
  logic [DAW:0]     frames_q, frames_d;      // frames started and not yet handed to the reader

  logic             beat, first, contains_end, trunc, wr, ev, len_bad, disc_c, space;
  logic [16:0]      end_c, off;
  logic [17:0]      rem;
  logic [6:0]       kcnt, crc_nb, store_nb;
  logic [USER_W-1:0] user_c;
  logic [TAG_W-1:0] tag;
  logic             desc_pop;

  always_comb begin
    first  = !in_pkt_q;
    end_c  = first ? (17'd14 + {1'b0, s_axis_frame_tdata[8*16 +: 8], s_axis_frame_tdata[8*17 +: 8]}) : end_q;
    off    = {bidx_q, 6'd0};
    rem    = {1'b0, end_c} - {1'b0, off};
    kcnt   = roce_pkg::roce_keep_count(s_axis_frame_tkeep);
    contains_end = (end_c > off) && (rem <= 18'd64);
    disc_c = first ? (end_c > 17'(MAX_FRAME_BYTES)) : disc_q;
    user_c = first ? s_frame_meta : user_q;
    space  = (wr_ptr_q - rd_ptr_q) != (AW+1)'(DEPTH);

    s_axis_frame_tready = space && (!first || frames_q != (DAW+1)'(DESC_DEPTH));
    beat   = s_axis_frame_tvalid && s_axis_frame_tready;

    // truncated: the frame ends before the IPv4 total length says
    trunc  = s_axis_frame_tlast && (!contains_end || kcnt < rem[6:0]);
    wr     = beat && !done_q && !disc_c;
    ev     = beat && !done_q && (contains_end || s_axis_frame_tlast);
    len_bad = trunc || disc_c || (end_c < 17'(roce_pkg::MIN_FRAME_BYTES));
    crc_nb = contains_end ? rem[6:0] : (s_axis_frame_tlast ? kcnt : 7'd64);
    store_nb = contains_end ? rem[6:0] : 7'd64;
    tag    = {len_bad, nbeats_q + (AW+1)'(wr), user_c};

    in_pkt_d = in_pkt_q;
    bidx_d   = bidx_q;
    end_d    = end_q;
    done_d   = done_q;
    disc_d   = disc_q;
    nbeats_d = nbeats_q;
    user_d   = user_q;
    if (beat) begin
      end_d  = end_c;
      disc_d = disc_c;
      user_d = user_c;
      if (s_axis_frame_tlast) begin
        in_pkt_d = 1'b0;
        bidx_d   = '0;
        done_d   = 1'b0;
        nbeats_d = '0;
      end else begin
        in_pkt_d = 1'b1;
        bidx_d   = (bidx_q == '1) ? bidx_q : bidx_q + 11'd1;
        done_d   = done_q || ev;
        nbeats_d = nbeats_q + (AW+1)'(wr);
      end
    end
    wr_ptr_d = wr_ptr_q + (AW+1)'(wr);
    frames_d = frames_q + (DAW+1)'(beat && first) - (DAW+1)'(desc_pop);
  end

  // ---------------------------------------------------------------- CRC
  logic             crc_v;
  logic [31:0]      crc_raw;
  logic [TAG_W-1:0] crc_tag;

  roce_icrc_engine #(.TAG_W(TAG_W)) u_engine (
    .clk       (clk),
    .rst       (rst),
    .en        (1'b1),
    .in_valid  (beat && !done_q),
    .in_data   (s_axis_frame_tdata),
    .in_first  (first),
    .in_nbytes (crc_nb),
    .in_last   (ev),
    .in_tag    (tag),
    .out_valid (crc_v),
    .out_crc   (crc_raw),
    .out_tag   (crc_tag)
  );

  // ------------------------------------------------------- verdict, counters
  // A result pairs with its frame's drop marker, queued at the frame's tlast.
  // The result can come first only when beats follow the frame's end
  // (padding); then it waits in hold_q. Results and markers are in order, and
  // the next result cannot come before this frame's marker.
  logic              mk_valid, mk_in_ready, mk_bad, mk_pop;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [DAW:0]      mk_count;       // not needed: frames_q bounds the occupancy
  /* verilator lint_on UNUSEDSIGNAL */
  logic              hold_v_q, hold_v_d;
  logic [TAG_W-1:0]  hold_tag_q, hold_tag_d;
  logic              hold_ok_q, hold_ok_d;
  logic              cand_v, cand_ok, push;
  logic [TAG_W-1:0]  cand_tag;
  logic              res_len_bad, res_good;
  logic [AW:0]       res_beats;
  logic [USER_W-1:0] res_user;
  logic [31:0]       cnt_icrc_q, cnt_icrc_d, cnt_len_q, cnt_len_d;

  roce_fifo #(.WIDTH(1), .DEPTH(DESC_DEPTH)) u_mark (
    .clk       (clk),
    .rst       (rst),
    .in_valid  (beat && s_axis_frame_tlast),
    .in_ready  (mk_in_ready),
    .in_data   (s_axis_frame_tuser),
    .out_valid (mk_valid),
    .out_ready (mk_pop),
    .out_data  (mk_bad),
    .count     (mk_count)
  );

  always_comb begin
    cand_v   = hold_v_q || crc_v;
    cand_tag = hold_v_q ? hold_tag_q : crc_tag;
    cand_ok  = hold_v_q ? hold_ok_q : (crc_raw == roce_pkg::ICRC_RESIDUE);
    push     = cand_v && mk_valid;
    mk_pop   = push;
    hold_v_d   = cand_v && !mk_valid;
    hold_tag_d = cand_tag;
    hold_ok_d  = cand_ok;
    {res_len_bad, res_beats, res_user} = cand_tag;
    res_good   = cand_ok && !res_len_bad && !mk_bad;
    cnt_len_d  = cnt_len_q  + 32'(push && !mk_bad && res_len_bad);
    cnt_icrc_d = cnt_icrc_q + 32'(push && !mk_bad && !res_len_bad && !cand_ok);
  end
  assign cnt_drop_icrc = cnt_icrc_q;
  assign cnt_drop_len  = cnt_len_q;

  // Descriptors: room is guaranteed by frames_q (a frame is only started when
  // fewer than DESC_DEPTH are in flight).
  logic              desc_valid, desc_in_ready;
  logic [DESC_W-1:0] desc_data;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [DAW:0]      desc_count;     // not needed: frames_q bounds the occupancy
  /* verilator lint_on UNUSEDSIGNAL */

  roce_fifo #(.WIDTH(DESC_W), .DEPTH(DESC_DEPTH)) u_desc (
    .clk       (clk),
    .rst       (rst),
    .in_valid  (push),
    .in_ready  (desc_in_ready),
    .in_data   ({res_good, res_beats, res_user}),
    .out_valid (desc_valid),
    .out_ready (desc_pop),
    .out_data  (desc_data),
    .count     (desc_count)
  );

  // ---------------------------------------------------------------- RAM
  logic              ram_rd;
  logic [RAM_W-1:0]  ram_q;

  roce_ram_sdp #(.WIDTH(RAM_W), .DEPTH(DEPTH)) u_ram (
    .clk     (clk),
    .wr_en   (wr),
    .wr_addr (wr_ptr_q[AW-1:0]),
    .wr_data ({store_nb, s_axis_frame_tdata}),
    .rd_en   (ram_rd),
    .rd_addr (rd_ptr_q[AW-1:0]),
    .rd_data (ram_q)
  );

  // ================================================================= read side
  logic              d_good;
  logic [AW:0]       d_beats;
  logic [USER_W-1:0] d_user;
  logic [AW:0]       rd_left_q, rd_left_d;
  logic [USER_W-1:0] rd_user_q, rd_user_d;
  logic              infl_q, infl_d;                 // a RAM read lands this cycle
  logic              infl_last_q, infl_last_d;
  logic [USER_W-1:0] infl_user_q, infl_user_d;
  logic              can_issue, rd_last;
  logic [USER_W-1:0] rd_user;
  logic [2:0]        out_count;
  logic              out_in_ready, out_valid;
  logic [OUT_W-1:0]  out_data;

  always_comb begin
    {d_good, d_beats, d_user} = desc_data;
    can_issue = ({1'b0, out_count} + 4'(infl_q)) < 4'(OUT_DEPTH);
    ram_rd    = 1'b0;
    desc_pop  = 1'b0;
    rd_last   = 1'b0;
    rd_user   = rd_user_q;
    rd_ptr_d  = rd_ptr_q;
    rd_left_d = rd_left_q;
    rd_user_d = rd_user_q;
    if (rd_left_q != '0) begin
      if (can_issue) begin
        ram_rd    = 1'b1;
        rd_last   = rd_left_q == (AW+1)'(1);
        rd_ptr_d  = rd_ptr_q + (AW+1)'(1);
        rd_left_d = rd_left_q - (AW+1)'(1);
      end
    end else if (desc_valid) begin
      if (!d_good || d_beats == '0) begin
        desc_pop = 1'b1;                      // skip a dropped frame
        rd_ptr_d = rd_ptr_q + d_beats;
      end else if (can_issue) begin
        desc_pop  = 1'b1;
        ram_rd    = 1'b1;
        rd_last   = d_beats == (AW+1)'(1);
        rd_user   = d_user;
        rd_user_d = d_user;
        rd_ptr_d  = rd_ptr_q + (AW+1)'(1);
        rd_left_d = d_beats - (AW+1)'(1);
      end
    end
    infl_d      = ram_rd;
    infl_last_d = rd_last;
    infl_user_d = rd_user;
  end

  roce_fifo #(.WIDTH(OUT_W), .DEPTH(OUT_DEPTH)) u_out (
    .clk       (clk),
    .rst       (rst),
    .in_valid  (infl_q),
    .in_ready  (out_in_ready),
    .in_data   ({infl_last_q, infl_user_q, ram_q}),
    .out_valid (out_valid),
    .out_ready (m_axis_frame_tready),
    .out_data  (out_data),
    .count     (out_count)
  );

  always_comb begin
    m_axis_frame_tvalid = out_valid;
    m_axis_frame_tlast  = out_data[OUT_W-1];
    m_axis_frame_tuser  = out_data[DW+7 +: USER_W];
    m_axis_frame_tkeep  = roce_pkg::roce_keep_first(out_data[DW +: 7]);
    m_axis_frame_tdata  = out_data[DW-1:0];
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      in_pkt_q   <= 1'b0;
      bidx_q     <= '0;
      done_q     <= 1'b0;
      disc_q     <= 1'b0;
      nbeats_q   <= '0;
      wr_ptr_q   <= '0;
      rd_ptr_q   <= '0;
      frames_q   <= '0;
      rd_left_q  <= '0;
      infl_q     <= 1'b0;
      cnt_icrc_q <= '0;
      cnt_len_q  <= '0;
      hold_v_q   <= 1'b0;
    end else begin
      in_pkt_q   <= in_pkt_d;
      bidx_q     <= bidx_d;
      done_q     <= done_d;
      disc_q     <= disc_d;
      nbeats_q   <= nbeats_d;
      wr_ptr_q   <= wr_ptr_d;
      rd_ptr_q   <= rd_ptr_d;
      frames_q   <= frames_d;
      rd_left_q  <= rd_left_d;
      infl_q     <= infl_d;
      cnt_icrc_q <= cnt_icrc_d;
      cnt_len_q  <= cnt_len_d;
      hold_v_q   <= hold_v_d;
    end
    hold_tag_q  <= hold_tag_d;
    hold_ok_q   <= hold_ok_d;
    end_q       <= end_d;
    user_q      <= user_d;
    rd_user_q   <= rd_user_d;
    infl_last_q <= infl_last_d;
    infl_user_q <= infl_user_d;
  end

`ifndef SYNTHESIS
  roce_axis_assert #(.W(roce_pkg::DATA_W + roce_pkg::KEEP_W + 1 + USER_W)) u_chk_out (
    .clk, .rst, .valid(m_axis_frame_tvalid), .ready(m_axis_frame_tready),
    .payload({m_axis_frame_tdata, m_axis_frame_tkeep, m_axis_frame_tlast, m_axis_frame_tuser}));
`endif

`ifndef SYNTHESIS
  initial begin
    if ((DEPTH & (DEPTH - 1)) != 0) $error("roce_icrc_check: DEPTH %0d is not a power of two", DEPTH);
    if (DEPTH * roce_pkg::KEEP_W < MAX_FRAME_BYTES)
      $error("roce_icrc_check: DEPTH %0d beats cannot hold a frame of MAX_FRAME_BYTES %0d", DEPTH, MAX_FRAME_BYTES);
  end
  // the descriptor FIFO and the output FIFO never overflow (by construction)
  always_ff @(posedge clk) begin
    if (!rst && push && !desc_in_ready) $error("roce_icrc_check: descriptor FIFO overflow");
    if (!rst && beat && s_axis_frame_tlast && !mk_in_ready) $error("roce_icrc_check: marker FIFO overflow");
    if (!rst && hold_v_q && crc_v) $error("roce_icrc_check: a second result while one waits for its marker");
    if (!rst && infl_q && !out_in_ready) $error("roce_icrc_check: output FIFO overflow");
  end
`endif

endmodule
