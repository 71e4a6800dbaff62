// net_mgmt_tx: the firmware's transmit buffer for management frames.
//
// SLOTS frame slots of SLOT_BYTES each in one block RAM 512 bits wide (one
// beat per row). The firmware writes a frame (whole Ethernet frame without
// FCS) into the slot tx_status.slot names, through the sbus (32-bit writes
// with byte enables; slot i starts at byte i * SLOT_BYTES of the window),
// then writes its length to tx_send (regs/mgmt.toml). Slots are sent in the
// order they were handed over, each as one 512-bit AXI4-Stream frame (byte 0
// in tdata[7:0], tkeep all ones but on the last beat, tuser 0) to the TX
// arbiter. A slot is free again once its last beat has been read out of the
// RAM, so the firmware fills one slot while another goes out.
//
// tx_send is ignored and counted in tx_err when no slot is free or LEN is 0
// or above SLOT_BYTES. tx_frames counts frames whose tlast beat was taken.
//
// Bus window: writes at offsets below SLOTS * SLOT_BYTES land in the slot
// memory (rvalid one cycle after the request, gnt at once); reads and writes
// beyond answer with err.
//
// Stream: the output beat sits in the RAM's read register; a new beat is read
// whenever that register is empty or being taken, so frames go out at one
// beat per cycle, back to back, and tdata/tkeep/tlast hold while tready is low.
`default_nettype none

module net_mgmt_tx #(
  parameter int unsigned SLOTS      = 4,     // power of two, 2..128
  parameter int unsigned SLOT_BYTES = 2048   // power of two, 64..32768, SLOTS * SLOT_BYTES <= 64 KiB
) (
  input  wire logic                         clk,
  input  wire logic                         rst,
  // sbus target: the slot window (0x4001_0000 in the SoC map)
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
  input  wire logic                         tx_send,      // tx_send_we
  input  wire logic [15:0]                  tx_send_len,  // tx_send_wdata
  output logic [31:0]                       tx_status,    // {15'b0, busy, slot[7:0], free[7:0]}
  output logic [31:0]                       tx_frames,
  output logic [31:0]                       tx_err,
  // frames to the TX arbiter
  output logic [net_pkg::DATA_W-1:0]        m_axis_mgmt_tdata,
  output logic [net_pkg::KEEP_W-1:0]        m_axis_mgmt_tkeep,
  output logic                              m_axis_mgmt_tvalid,
  input  wire logic                         m_axis_mgmt_tready,
  output logic                              m_axis_mgmt_tlast,
  output logic                              m_axis_mgmt_tuser
);
  localparam int unsigned RPS    = SLOT_BYTES / 64;          // rows (beats) per slot
  localparam int unsigned ROWS   = SLOTS * RPS;
  localparam int unsigned SW     = $clog2(SLOTS);
  localparam int unsigned BW     = (RPS > 1) ? $clog2(RPS) : 1;
  localparam int unsigned RW     = $clog2(ROWS);
  localparam int unsigned WINDOW = SLOTS * SLOT_BYTES;

  if (SLOTS < 2 || SLOTS > 128 || (1 << SW) != SLOTS) begin : g_bad_slots
    $error("net_mgmt_tx: SLOTS must be a power of two in 2..128");
  end
  if (SLOT_BYTES < 64 || SLOT_BYTES > 32768 || (1 << $clog2(SLOT_BYTES)) != SLOT_BYTES
      || WINDOW > 65536) begin : g_bad_bytes
    $error("net_mgmt_tx: SLOT_BYTES must be a power of two in 64..32768 and SLOTS * SLOT_BYTES <= 65536");
  end

  // queue of filled slots: head goes out next, tail is the one to fill
  logic [SW-1:0]  head_q, head_d, tail_q, tail_d;
  logic [SW:0]    count_q, count_d, free;
  logic [15:0]    len_q [SLOTS];
  logic [BW-1:0]  beat_q, beat_d;       // beat of the head slot to read next
  // output register (the RAM read register holds tdata)
  logic           out_v_q, out_v_d, out_last_q, out_last_d;
  logic [net_pkg::KEEP_W-1:0] out_keep_q, out_keep_d;
  logic [net_pkg::DATA_W-1:0] out_q;
  logic [31:0]    frames_q, frames_d, err_cnt_q, err_cnt_d;
  // bus
  logic           rvalid_q, rvalid_d, err_q, err_d;
  // decisions
  logic           send_ok, load, last, mem_we, in_window;
  logic [15:0]    done, rem;            // bytes of the head frame before this beat; bytes left
  logic [RW-1:0]  raddr;
  logic [net_pkg::KEEP_W-1:0] wmask;
  logic [net_pkg::DATA_W-1:0] wrow;
  logic           unused;

  always_comb begin
    // hand-over of a filled slot
    send_ok = tx_send && count_q != (SW + 1)'(SLOTS) && tx_send_len != 16'd0
              && 17'(tx_send_len) <= 17'(SLOT_BYTES);
    err_cnt_d = err_cnt_q + 32'(tx_send && !send_ok);

    // read the next beat of the head slot into the output register
    load = count_q != '0 && (!out_v_q || m_axis_mgmt_tready);
    done = 16'(beat_q) * 16'd64;
    rem = len_q[head_q] - done;
    last = rem <= 16'd64;
    raddr = RW'({head_q, beat_q});
    if (RPS == 1) raddr = RW'(head_q);

    beat_d = beat_q;
    head_d = head_q;
    out_v_d = out_v_q;
    out_last_d = out_last_q;
    out_keep_d = out_keep_q;
    if (out_v_q && m_axis_mgmt_tready) out_v_d = 1'b0;
    if (load) begin
      out_v_d = 1'b1;
      out_last_d = last;
      out_keep_d = last ? ({net_pkg::KEEP_W{1'b1}} >> (7'd64 - 7'(rem))) : {net_pkg::KEEP_W{1'b1}};
      beat_d = last ? '0 : beat_q + 1'b1;
      head_d = head_q + SW'(last);
    end
    tail_d = tail_q + SW'(send_ok);
    count_d = count_q + (SW + 1)'(send_ok) - (SW + 1)'(load && last);
    frames_d = frames_q + 32'(out_v_q && m_axis_mgmt_tready && out_last_q);

    m_axis_mgmt_tdata = out_q;
    m_axis_mgmt_tkeep = out_keep_q;
    m_axis_mgmt_tvalid = out_v_q;
    m_axis_mgmt_tlast = out_last_q;
    m_axis_mgmt_tuser = 1'b0;

    free = (SW + 1)'(SLOTS) - count_q;
    tx_status = {15'd0, count_q != '0 || out_v_q, 8'(tail_q), 8'(free)};
    tx_frames = frames_q;
    tx_err = err_cnt_q;

    // bus: 32-bit writes with byte enables into the slot memory
    in_window = 17'(addr) < 17'(WINDOW);
    mem_we = req && we && in_window;
    wmask = {{(net_pkg::KEEP_W - 4){1'b0}}, be} << (addr[5:2] * 4);
    wrow = {(net_pkg::DATA_W / 32){wdata}};
    gnt = 1'b1;
    rvalid_d = req;
    err_d = req && !(mem_we);
    rvalid = rvalid_q;
    err = err_q;
    rdata = 32'd0;
    unused = ^{addr[1:0]};
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      head_q <= '0;
      tail_q <= '0;
      count_q <= '0;
      beat_q <= '0;
      out_v_q <= 1'b0;
      out_last_q <= 1'b0;
      out_keep_q <= '0;
      frames_q <= '0;
      err_cnt_q <= '0;
      rvalid_q <= 1'b0;
      err_q <= 1'b0;
    end else begin
      head_q <= head_d;
      tail_q <= tail_d;
      count_q <= count_d;
      beat_q <= beat_d;
      out_v_q <= out_v_d;
      out_last_q <= out_last_d;
      out_keep_q <= out_keep_d;
      frames_q <= frames_d;
      err_cnt_q <= err_cnt_d;
      rvalid_q <= rvalid_d;
      err_q <= err_d;
    end
  end

  // frame lengths, written when a slot is handed over
  always_ff @(posedge clk) begin
    if (send_ok) len_q[tail_q] <= tx_send_len;
  end

  // slot memory: a byte-enabled write port (the bus) and a registered read
  // port (the stream), in the block-RAM template form
  logic [net_pkg::DATA_W-1:0] mem_q [ROWS];
  always_ff @(posedge clk) begin
    for (int b = 0; b < net_pkg::KEEP_W; b++) begin
      if (mem_we && wmask[b]) mem_q[addr[RW+5:6]][b*8 +: 8] <= wrow[b*8 +: 8];
    end
  end
  always_ff @(posedge clk) begin
    if (load) out_q <= mem_q[raddr];
  end

`ifndef SYNTHESIS
  // AXI4-Stream: a presented beat stays, unchanged, until it is taken
  logic                       held_q;
  logic [net_pkg::DATA_W-1:0] held_data_q;
  logic [net_pkg::KEEP_W-1:0] held_keep_q;
  logic                       held_last_q;
  always_ff @(posedge clk) begin
    if (rst) begin
      held_q <= 1'b0;
    end else begin
      held_q <= m_axis_mgmt_tvalid && !m_axis_mgmt_tready;
      held_data_q <= m_axis_mgmt_tdata;
      held_keep_q <= m_axis_mgmt_tkeep;
      held_last_q <= m_axis_mgmt_tlast;
      if (held_q && (!m_axis_mgmt_tvalid || m_axis_mgmt_tdata != held_data_q
                     || m_axis_mgmt_tkeep != held_keep_q || m_axis_mgmt_tlast != held_last_q)) begin
        $error("net_mgmt_tx: a stalled beat changed before it was taken");
      end
    end
  end
`endif
endmodule
