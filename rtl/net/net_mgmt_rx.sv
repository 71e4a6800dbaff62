// net_mgmt_rx: the firmware's receive buffer for management frames.
//
// The RX demux's management stream (whole Ethernet frames without FCS: ARP,
// ICMP, TCP, other UDP, broadcast, RoCE for QP 1) is written into a ring of
// SLOTS frame slots of SLOT_BYTES each, in one block RAM 512 bits wide (one
// beat per row). The firmware reads the slots as memory over the sbus (32-bit
// reads; slot i starts at byte i * SLOT_BYTES of the window) and frees the
// oldest one with rx_pop (regs/mgmt.toml).
//
// Frames are taken whole or not at all, and the stream is never stalled
// (tready is always 1):
//   - a frame whose first beat finds every slot taken is dropped (drop_full);
//   - a frame longer than a slot is dropped when its first surplus beat comes
//     (drop_too_long; a frame that is both counts as drop_full);
//   - a frame the demux marks bad (tuser on its tlast beat) or with no bytes
//     is dropped (drop_bad). A marked frame counts here whatever else befell
//     it (full, too long): the demux already counted it in one of its drop
//     counters (drop_trunc, drop_malformed, drop_mac_err), so drop_bad is not
//     part of the RX accounting sum (fw/README.md "every frame in one
//     counter"): the demux's rx_mgmt = rx_frames + rx_drop_full +
//     rx_drop_too_long + unmarked empty frames (none come from the demux).
// A slot becomes visible to the firmware (rx_head, rx_count) only after the
// tlast beat of its frame was written, so a partial frame is never seen.
// Every frame moves exactly one of rx_frames / rx_drop_* at its tlast beat;
// the counters are 32 bits and wrap.
//
// Bus window: reads at offsets below SLOTS * SLOT_BYTES return the slot
// memory (rvalid two cycles after the request, gnt at once); writes and
// reads beyond answer with err.
//
// Pipeline: the stream's beat is registered first, with its byte count
// (tkeep decoded as the contiguous run from byte 0 that the demux delivers);
// the ring logic and the memory write work from that register, so a frame
// is visible to the firmware two cycles after its tlast beat came in.
// rx_head is a register loaded with the head slot as it will be after the
// cycle's pop and commit. A read takes the block RAM's row register, then
// the 32-bit word picked from it is registered (rdata, err, rvalid).
`default_nettype none

module net_mgmt_rx #(
  parameter int unsigned SLOTS      = 8,     // power of two, 2..128
  parameter int unsigned SLOT_BYTES = 2048   // power of two, 64..65536, SLOTS * SLOT_BYTES <= 64 KiB
) (
  input  wire logic                         clk,
  input  wire logic                         rst,
  // management frames from the RX demux
  input  wire logic [net_pkg::DATA_W-1:0]   s_axis_mgmt_tdata,
  input  wire logic [net_pkg::KEEP_W-1:0]   s_axis_mgmt_tkeep,
  input  wire logic                         s_axis_mgmt_tvalid,
  output logic                              s_axis_mgmt_tready,
  input  wire logic                         s_axis_mgmt_tlast,
  input  wire logic                         s_axis_mgmt_tuser,   // on tlast: frame bad, drop it
  // sbus target: the slot window (0x4000_0000 in the SoC map)
  input  wire logic                         req,
  input  wire logic                         we,
  input  wire logic [15:0]                  addr,
  input  wire logic [3:0]                   be,
  input  wire logic [31:0]                  wdata,
  output logic                              gnt,
  output logic                              rvalid,
  output logic [31:0]                       rdata,
  output logic                              err,
  // to and from the mgmt register block (regs/mgmt.toml)
  input  wire logic                         rx_pop,      // rx_pop_we: free the head slot
  output logic [31:0]                       rx_head,     // {valid, 7'b0, slot[7:0], len[15:0]}
  output logic [7:0]                        rx_count,
  output logic [31:0]                       rx_frames,
  output logic [31:0]                       rx_drop_full,
  output logic [31:0]                       rx_drop_too_long,
  output logic [31:0]                       rx_drop_bad
);
  localparam int unsigned RPS    = SLOT_BYTES / 64;          // rows (beats) per slot
  localparam int unsigned ROWS   = SLOTS * RPS;
  localparam int unsigned SW     = $clog2(SLOTS);
  localparam int unsigned BW     = (RPS > 1) ? $clog2(RPS) : 1;
  localparam int unsigned RW     = $clog2(ROWS);
  localparam int unsigned WINDOW = SLOTS * SLOT_BYTES;

  if (SLOTS < 2 || SLOTS > 128 || (1 << SW) != SLOTS) begin : g_bad_slots
    $error("net_mgmt_rx: SLOTS must be a power of two in 2..128");
  end
  if (SLOT_BYTES < 64 || (1 << $clog2(SLOT_BYTES)) != SLOT_BYTES || WINDOW > 65536) begin : g_bad_bytes
    $error("net_mgmt_rx: SLOT_BYTES must be a power of two >= 64 and SLOTS * SLOT_BYTES <= 65536");
  end

  // ring state
  logic [SW-1:0]  head_q, head_d, tail_q, tail_d;
  logic [SW:0]    count_q, count_d;
  logic [15:0]    len_q [SLOTS];
  // the frame coming in
  logic           in_q, in_d;          // after the first beat, before tlast
  logic           drop_q, drop_d;      // discarding the rest of this frame
  logic           full_q, full_d;      // ... because the ring was full at its first beat
  logic [BW:0]    beat_q, beat_d;      // beats of this frame seen so far (saturates at RPS)
  logic [31:0]    frames_q, frames_d, full_cnt_q, full_cnt_d;
  logic [31:0]    long_cnt_q, long_cnt_d, bad_cnt_q, bad_cnt_d;
  // bus
  logic           rvalid_q, rvalid_d, err_q, err_d;
  logic           rvalid2_q, err2_q;
  logic [31:0]    rdata_q, rdata_d;
  logic [3:0]     word_q, word_d;
  // the registered input beat
  logic           i_v_q, i_last_q, i_user_q;
  logic [6:0]     i_nb_q, i_nb_d;
  logic [net_pkg::DATA_W-1:0] i_data_q;
  // rx_head as a register
  logic [31:0]    head_reg_q, head_reg_d;
  logic [15:0]    head_len;
  logic [net_pkg::DATA_W-1:0] row_q;   // block RAM read register
  // per-beat decisions
  logic           beat_in, dropping, full_now, commit, pop_ok, mem_we, rd_en, in_window;
  logic [RW-1:0]  waddr;
  logic [6:0]     nbytes;
  logic [15:0]    flen;
  logic           unused;

  always_comb begin
    s_axis_mgmt_tready = 1'b1;
    beat_in = i_v_q;
    nbytes = i_nb_q;
    flen = 16'(beat_q) * 16'd64 + 16'(nbytes);

    full_now = count_q == (SW + 1)'(SLOTS);
    dropping = in_q ? drop_q : full_now;
    if (!dropping && beat_q == (BW + 1)'(RPS)) dropping = 1'b1;   // a beat beyond the slot
    mem_we = beat_in && !dropping;
    waddr = RW'({tail_q, beat_q[BW-1:0]});
    if (RPS == 1) waddr = RW'(tail_q);

    in_d = in_q;
    drop_d = drop_q;
    full_d = full_q;
    beat_d = beat_q;
    commit = 1'b0;
    frames_d = frames_q;
    full_cnt_d = full_cnt_q;
    long_cnt_d = long_cnt_q;
    bad_cnt_d = bad_cnt_q;
    if (beat_in) begin
      if (!in_q) full_d = full_now;
      if (beat_q != (BW + 1)'(RPS)) beat_d = beat_q + 1'b1;
      if (i_last_q) begin
        in_d = 1'b0;
        drop_d = 1'b0;
        full_d = 1'b0;
        beat_d = '0;
        if (i_user_q) bad_cnt_d = bad_cnt_q + 1'b1;   // the demux counted it: first, see above
        else if (dropping && (in_q ? full_q : full_now)) full_cnt_d = full_cnt_q + 1'b1;
        else if (dropping) long_cnt_d = long_cnt_q + 1'b1;
        else if (beat_q == '0 && nbytes == '0) bad_cnt_d = bad_cnt_q + 1'b1;
        else begin
          commit = 1'b1;
          frames_d = frames_q + 1'b1;
        end
      end else begin
        in_d = 1'b1;
        drop_d = dropping;
      end
    end

    pop_ok = rx_pop && count_q != '0;
    head_d = head_q + SW'(pop_ok);
    tail_d = tail_q + SW'(commit);
    count_d = count_q + (SW + 1)'(commit) - (SW + 1)'(pop_ok);

    // the head slot after this cycle: the frame committed now when the ring
    // is empty once the pop is done, else the slot after a popped one
    if (count_q == (SW + 1)'(pop_ok)) head_len = flen;
    else if (pop_ok)                  head_len = len_q[head_q + SW'(1)];
    else                              head_len = len_q[head_q];
    head_reg_d = (count_d != '0) ? {1'b1, 7'd0, 8'(head_d), head_len} : 32'd0;
    rx_head = head_reg_q;
    rx_count = 8'(count_q);
    rx_frames = frames_q;
    rx_drop_full = full_cnt_q;
    rx_drop_too_long = long_cnt_q;
    rx_drop_bad = bad_cnt_q;

    // bus: 32-bit reads of the slot memory
    in_window = 17'(addr) < 17'(WINDOW);
    rd_en = req && !we && in_window;
    gnt = 1'b1;
    rvalid_d = req;
    word_d = addr[5:2];
    err_d = req && !(rd_en);
    rdata_d = err_q ? 32'd0 : row_q[word_q*32 +: 32];
    rvalid = rvalid2_q;
    err = err2_q;
    rdata = rdata_q;
    unused = ^{be, wdata, addr[1:0]};
  end

  // the input beat's bytes: tkeep is a run from byte 0 (0..01..1), so bit k
  // of the count is set when byte m * 2^k - 1 is kept and byte (m+1) * 2^k - 1
  // is not, for an odd m; byte 63 kept means 64
  always_comb begin
    i_nb_d = '0;
    i_nb_d[6] = s_axis_mgmt_tkeep[net_pkg::KEEP_W-1];
    for (int k = 0; k < 6; k++) begin
      for (int m = 1; (m + 1) * (1 << k) <= net_pkg::KEEP_W; m += 2) begin
        if (s_axis_mgmt_tkeep[m * (1 << k) - 1] && !s_axis_mgmt_tkeep[(m + 1) * (1 << k) - 1]) i_nb_d[k] = 1'b1;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      head_q <= '0;
      tail_q <= '0;
      count_q <= '0;
      in_q <= 1'b0;
      drop_q <= 1'b0;
      full_q <= 1'b0;
      beat_q <= '0;
      frames_q <= '0;
      full_cnt_q <= '0;
      long_cnt_q <= '0;
      bad_cnt_q <= '0;
      rvalid_q <= 1'b0;
      err_q <= 1'b0;
      word_q <= '0;
      rvalid2_q <= 1'b0;
      err2_q <= 1'b0;
      i_v_q <= 1'b0;
      head_reg_q <= '0;
    end else begin
      head_q <= head_d;
      tail_q <= tail_d;
      count_q <= count_d;
      in_q <= in_d;
      drop_q <= drop_d;
      full_q <= full_d;
      beat_q <= beat_d;
      frames_q <= frames_d;
      full_cnt_q <= full_cnt_d;
      long_cnt_q <= long_cnt_d;
      bad_cnt_q <= bad_cnt_d;
      rvalid_q <= rvalid_d;
      err_q <= err_d;
      word_q <= word_d;
      rvalid2_q <= rvalid_q;
      err2_q <= err_q;
      i_v_q <= s_axis_mgmt_tvalid;
      head_reg_q <= head_reg_d;
    end
    rdata_q <= rdata_d;
    i_data_q <= s_axis_mgmt_tdata;
    i_last_q <= s_axis_mgmt_tlast;
    i_user_q <= s_axis_mgmt_tuser;
    i_nb_q <= i_nb_d;
  end

  // frame lengths, written when a frame is committed
  always_ff @(posedge clk) begin
    if (commit) len_q[tail_q] <= flen;
  end

  // slot memory: one write port (the stream), one registered read port (the bus),
  // in the block-RAM template form
  logic [net_pkg::DATA_W-1:0] mem_q [ROWS];
  always_ff @(posedge clk) begin
    if (mem_we) mem_q[waddr] <= i_data_q;
  end
  always_ff @(posedge clk) begin
    if (rd_en) row_q <= mem_q[addr[RW+5:6]];
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk) begin
    if (!rst && count_q > (SW + 1)'(SLOTS)) $error("net_mgmt_rx: ring count above SLOTS");
  end
`endif
endmodule
