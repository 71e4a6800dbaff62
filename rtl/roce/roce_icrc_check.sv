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
// (with its keep) while roce_icrc_engine computes the CRC over the frame
// including its ICRC. When the result comes out (ICRC_ENGINE_LAT - 1 cycles
// after the last beat, then a register with the residue compare) a
// descriptor {good, beats, meta} is queued once the frame's tlast (and its
// drop marker) has also been seen. Read side: a good frame is read out of the
// RAM beat by beat; a bad one is skipped in one cycle.
//
// Cycle by cycle (each stage from registers, a few LUT levels):
//   u_in  lib_skid (stage w1): s_axis_frame_tready from a register; the
//         beat with its byte count, 14 + IPv4 total length and its limit
//         compares (for a first beat), computed on the way in. A beat is
//         taken when the RAM has room for it and the beats still in w2
//         (room_q, a cycle old, so 4 beats of slack) and, for a first beat,
//         fewer than DESC_DEPTH frames are in flight
//   w2    the frame's bytes left before this beat (rem, counted down by 64):
//         the end in this beat, the beat short of the end, the keep to store
//   w3    the frame state (end seen, beats stored): the RAM write, the CRC
//         engine's inputs, the drop marker
//   engine  the CRC (w2's registers are its input stage: IN_REG 0); its
//         result compared with the residue on the way into the marker pairing
//   then the pairing with the marker, the descriptor FIFO (lib_fifo with a
//   registered bypass: a descriptor into an empty FIFO is out a cycle
//   later), the read side (RAM read, registered output FIFO lib_fifo, with
//   the bypass too: every output from a register), counters from registered
//   increments. A one-beat frame leaves 9 cycles after it came in (u_in,
//   w2, 4 engine stages, descriptor, RAM read, output register).
//
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
  localparam int KW     = roce_pkg::KEEP_W;
  localparam int DAW    = $clog2(DESC_DEPTH);
  localparam int TAG_W  = 1 + (AW + 1) + USER_W;      // {len_bad, beats, user}
  localparam int DESC_W = 1 + (AW + 1) + USER_W;      // {good, beats, user}
  localparam int IN_W   = 7 + 17 + 2 + USER_W + 2 + DW;  // {kcnt, end, big, small, meta, user, last, data}
  localparam int RAM_W  = KW + DW;                    // {keep, data}
  localparam int OUT_W  = 1 + USER_W + KW + DW;       // {last, user, keep, data}
  localparam int OUT_DEPTH = 4;

  // Bytes of a contiguous keep (from byte 0): bit b of the count is set when
  // some block of 2^(b+1) bytes holds its lower half and not its upper one.
  function automatic logic [6:0] keep_count(input logic [KW-1:0] keep);
    logic [6:0] n;
    n    = '0;
    n[6] = keep[KW-1];
    for (int b = 0; b < 6; b++) begin
      for (int m = 0; m < KW / (2 << b); m++) begin
        n[b] = n[b] | (keep[m * (2 << b) + (1 << b) - 1] && !keep[(m + 1) * (2 << b) - 1]);
      end
    end
    keep_count = n;
  endfunction

  // ================================================================ write side
  logic              i_valid, i_last, i_tuser;
  logic [DW-1:0]     i_data;
  logic [USER_W-1:0] i_meta;
  logic [6:0]        i_kcnt, in_kcnt;         // bytes of the beat
  logic [16:0]       i_end, in_end;           // 14 + IPv4 total length (first beat)
  logic              i_big, in_big, i_small, in_small;
  logic [15:0]       totlen;
  logic              acc, pop, first;
  logic              desc_pop;

  always_comb begin
    totlen   = {s_axis_frame_tdata[8*16 +: 8], s_axis_frame_tdata[8*17 +: 8]};
    in_kcnt  = keep_count(s_axis_frame_tkeep);
    in_end   = 17'd14 + {1'b0, totlen};
    in_big   = {1'b0, totlen} > 17'(MAX_FRAME_BYTES - 14);
    in_small = {1'b0, totlen} < 17'(roce_pkg::MIN_FRAME_BYTES - 14);
  end

  lib_skid #(.WIDTH(IN_W)) u_in (
    .clk     (clk),
    .rst     (rst),
    .s_valid (s_axis_frame_tvalid),
    .s_ready (s_axis_frame_tready),
    .s_data  ({in_kcnt, in_end, in_big, in_small, s_frame_meta, s_axis_frame_tuser, s_axis_frame_tlast, s_axis_frame_tdata}),
    .m_valid (i_valid),
    .m_ready (acc),
    .m_data  ({i_kcnt, i_end, i_big, i_small, i_meta, i_tuser, i_last, i_data})
  );

  // -------------------------------------------------------------- admission
  logic              in_pkt_q, in_pkt_d;      // a frame is open (next beat is not its first)
  logic [AW:0]       wr_ptr_q, wr_ptr_d;
  logic [AW:0]       rd_ptr_q, rd_ptr_d;
  logic              room_q, room_d;          // the RAM had room for 4 more beats last cycle
  logic [DAW:0]      frames_q, frames_d;      // frames started and not yet handed to the reader

  always_comb begin
    first  = !in_pkt_q;
    acc    = room_q && (!first || frames_q != (DAW+1)'(DESC_DEPTH));
    pop    = i_valid && acc;
    in_pkt_d = in_pkt_q;
    if (pop) in_pkt_d = !i_last;
    frames_d = frames_q + (DAW+1)'(pop && first) - (DAW+1)'(desc_pop);
    room_d   = (wr_ptr_q - rd_ptr_q) <= (AW+1)'(DEPTH - 4);
  end

  // -------------------------------------------------------------- stage w2
  logic [16:0]       rem_q, rem_d;            // frame bytes left before the w1 beat
  logic              disc_q, disc_d;          // oversize: nothing stored
  logic              small_q, small_d;
  logic [USER_W-1:0] user_q, user_d;
  logic [16:0]       rem;
  logic              w2_v_q, w2_first_q, w2_last_q, w2_tuser_q;
  logic [DW-1:0]     w2_data_q;
  logic              w2_ce_q, w2_ce_d, w2_short_q, w2_short_d;
  logic [6:0]        w2_rem_q, w2_kcnt_q;
  logic [KW-1:0]     w2_keep_q, w2_keep_d;
  logic              w2_disc_q, w2_small_q;
  logic [USER_W-1:0] w2_user_q;

  always_comb begin
    rem     = first ? i_end : rem_q;
    disc_d  = first ? i_big : disc_q;
    small_d = first ? i_small : small_q;
    user_d  = first ? i_meta : user_q;
    rem_d   = rem_q;
    if (pop) rem_d = rem - 17'd64;
    if (!pop) begin
      disc_d  = disc_q;
      small_d = small_q;
      user_d  = user_q;
    end
    // the frame ends in this beat (rem > 0 while the end is not yet seen)
    w2_ce_d    = rem <= 17'd64;
    // truncated in this beat: fewer bytes than the end needs
    w2_short_d = i_kcnt < rem[6:0];
    w2_keep_d  = w2_ce_d ? roce_pkg::roce_keep_first(rem[6:0]) : '1;
  end

  // -------------------------------------------------------------- stage w3
  logic             done_q, done_d;          // result already requested, rest is padding
  logic [AW:0]      nbeats_q, nbeats_d;      // beats stored of this frame
  logic             act, wr, ev, len_bad;
  logic [6:0]       crc_nb;
  logic [TAG_W-1:0] tag;

  always_comb begin
    act     = w2_v_q && !done_q;
    wr      = act && !w2_disc_q;
    ev      = act && (w2_ce_q || w2_last_q);
    len_bad = (w2_last_q && (!w2_ce_q || w2_short_q)) || w2_disc_q || w2_small_q;
    crc_nb  = w2_ce_q ? w2_rem_q : (w2_last_q ? w2_kcnt_q : 7'd64);
    tag     = {len_bad, nbeats_q + (AW+1)'(wr), w2_user_q};
    done_d   = done_q;
    nbeats_d = nbeats_q;
    if (w2_v_q) begin
      done_d   = w2_last_q ? 1'b0 : (done_q || ev);
      nbeats_d = w2_last_q ? '0 : nbeats_q + (AW+1)'(wr);
    end
    wr_ptr_d = wr_ptr_q + (AW+1)'(wr);
  end

  // ---------------------------------------------------------------- CRC
  logic             crc_v;
  logic [31:0]      crc_raw;
  logic [TAG_W-1:0] crc_tag;

  roce_icrc_engine #(.TAG_W(TAG_W), .IN_REG(1'b0)) u_engine (
    .clk       (clk),
    .rst       (rst),
    .en        (1'b1),
    .in_valid  (act),
    .in_data   (w2_data_q),
    .in_first  (w2_first_q),
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
  logic              inc_icrc_q, inc_icrc_d, inc_len_q, inc_len_d;
  logic [31:0]       cnt_icrc_q, cnt_icrc_d, cnt_len_q, cnt_len_d;

  lib_fifo #(.WIDTH(1), .DEPTH(DESC_DEPTH), .MUST_ACCEPT(1'b1)) u_mark (
    .clk     (clk),
    .rst     (rst),
    .s_valid (w2_v_q && w2_last_q),
    .s_ready (mk_in_ready),
    .s_data  (w2_tuser_q),
    .m_valid (mk_valid),
    .m_ready (mk_pop),
    .m_data  (mk_bad),
    .count   (mk_count)
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
    inc_len_d  = push && !mk_bad && res_len_bad;
    inc_icrc_d = push && !mk_bad && !res_len_bad && !cand_ok;
    cnt_len_d  = cnt_len_q  + 32'(inc_len_q);
    cnt_icrc_d = cnt_icrc_q + 32'(inc_icrc_q);
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

  lib_fifo #(.WIDTH(DESC_W), .DEPTH(DESC_DEPTH), .MUST_ACCEPT(1'b1), .BYPASS(1'b1)) u_desc (
    .clk     (clk),
    .rst     (rst),
    .s_valid (push),
    .s_ready (desc_in_ready),
    .s_data  ({res_good, res_beats, res_user}),
    .m_valid (desc_valid),
    .m_ready (desc_pop),
    .m_data  (desc_data),
    .count   (desc_count)
  );

  // ---------------------------------------------------------------- RAM
  logic              ram_rd;
  logic [RAM_W-1:0]  ram_q;

  roce_ram_sdp #(.WIDTH(RAM_W), .DEPTH(DEPTH)) u_ram (
    .clk     (clk),
    .wr_en   (wr),
    .wr_addr (wr_ptr_q[AW-1:0]),
    .wr_data ({w2_keep_q, w2_data_q}),
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
  logic [$clog2(OUT_DEPTH+1)-1:0] out_count;
  /* verilator lint_off UNUSEDSIGNAL */
  logic              out_in_ready;   // not needed: can_issue keeps room (MUST_ACCEPT checks it)
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    {d_good, d_beats, d_user} = desc_data;
    can_issue = (4'(out_count) + 4'(infl_q)) < 4'(OUT_DEPTH);
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
      if (!d_good) begin                      // (a frame of no stored beats is never good)
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

  // output FIFO: registered output (every m_axis_frame_* from a register);
  // can_issue keeps it from overflowing
  lib_fifo #(.WIDTH(OUT_W), .DEPTH(OUT_DEPTH), .MUST_ACCEPT(1'b1), .BYPASS(1'b1), .BYPASS_POP(1'b1)) u_out (
    .clk     (clk),
    .rst     (rst),
    .s_valid (infl_q),
    .s_ready (out_in_ready),
    .s_data  ({infl_last_q, infl_user_q, ram_q}),
    .m_valid (m_axis_frame_tvalid),
    .m_ready (m_axis_frame_tready),
    .m_data  ({m_axis_frame_tlast, m_axis_frame_tuser, m_axis_frame_tkeep, m_axis_frame_tdata}),
    .count   (out_count)
  );

  always_ff @(posedge clk) begin
    if (rst) begin
      in_pkt_q   <= 1'b0;
      room_q     <= 1'b0;
      w2_v_q     <= 1'b0;
      done_q     <= 1'b0;
      nbeats_q   <= '0;
      wr_ptr_q   <= '0;
      rd_ptr_q   <= '0;
      frames_q   <= '0;
      rd_left_q  <= '0;
      infl_q     <= 1'b0;
      inc_icrc_q <= 1'b0;
      inc_len_q  <= 1'b0;
      cnt_icrc_q <= '0;
      cnt_len_q  <= '0;
      hold_v_q   <= 1'b0;
    end else begin
      in_pkt_q   <= in_pkt_d;
      room_q     <= room_d;
      w2_v_q     <= pop;
      done_q     <= done_d;
      nbeats_q   <= nbeats_d;
      wr_ptr_q   <= wr_ptr_d;
      rd_ptr_q   <= rd_ptr_d;
      frames_q   <= frames_d;
      rd_left_q  <= rd_left_d;
      infl_q     <= infl_d;
      inc_icrc_q <= inc_icrc_d;
      inc_len_q  <= inc_len_d;
      cnt_icrc_q <= cnt_icrc_d;
      cnt_len_q  <= cnt_len_d;
      hold_v_q   <= hold_v_d;
    end
    // w2
    rem_q       <= rem_d;
    disc_q      <= disc_d;
    small_q     <= small_d;
    user_q      <= user_d;
    w2_data_q   <= i_data;
    w2_first_q  <= first;
    w2_last_q   <= i_last;
    w2_tuser_q  <= i_tuser;
    w2_ce_q     <= w2_ce_d;
    w2_short_q  <= w2_short_d;
    w2_rem_q    <= rem[6:0];
    w2_kcnt_q   <= i_kcnt;
    w2_keep_q   <= w2_keep_d;
    w2_disc_q   <= disc_d;
    w2_small_q  <= small_d;
    w2_user_q   <= user_d;
    // result
    hold_tag_q  <= hold_tag_d;
    hold_ok_q   <= hold_ok_d;
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
    if ((DEPTH - 3) * roce_pkg::KEEP_W < MAX_FRAME_BYTES)
      $error("roce_icrc_check: DEPTH %0d beats (3 kept free) cannot hold a frame of MAX_FRAME_BYTES %0d",
             DEPTH, MAX_FRAME_BYTES);
  end
  // the descriptor and marker FIFOs never overflow (by construction; the
  // output FIFO reports its own overflow: MUST_ACCEPT)
  always_ff @(posedge clk) begin
    if (!rst && push && !desc_in_ready) $error("roce_icrc_check: descriptor FIFO overflow");
    if (!rst && w2_v_q && w2_last_q && !mk_in_ready) $error("roce_icrc_check: marker FIFO overflow");
    if (!rst && hold_v_q && crc_v) $error("roce_icrc_check: a second result while one waits for its marker");
  end
`endif

endmodule
