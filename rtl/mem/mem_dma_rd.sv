// mem_dma_rd: DMA read engine. Read commands (any byte address, any length up
// to 2^31) become AXI4 INCR bursts of full 64-byte beats, at most 64 beats and
// never across a 4 KiB boundary; the data comes out as a byte stream whose
// first byte (tdata[7:0]) is the command's first byte, tlast on the last beat
// of each command, tkeep all ones except on that last beat.
//
// Pipeline:
//   s_cmd -> skid -> splitter --AR--> (memory) --R--> data buffer -> realigner -> R -> skid -> m_axis
//                       \-> command info FIFO -------------------------^
// The realigner merges the previous beat (lanes >= off) with the next one
// (lanes < off) as they came from memory; the merged beat is rotated right by
// off in two registered steps: by off[5:3] * 8 lanes into stage R, by off[2:0]
// lanes into the output skid (one cycle more than a one-step rotation).
// The realigner's state (zero-length command, waiting for the first beat,
// flush, merge) is kept one-hot in registers, worked out at the edge before,
// and the beat-count compares it needs (nin == 1, 2, nout == 1) travel in the
// command info FIFO, so no decision starts from a wide compare.
// Beat counts and whether a command ends in its first 4 KiB page are worked
// out on the way into the command skid; the splitter holds the next burst
// (size, last, beats after it) in registers. It issues a burst only when the
// data buffer has room for all of its beats (credits), so m_axi_rready never
// drops: a slow stream consumer never holds the shared R channel. Up to CMD_DEPTH commands and BUF_BEATS
// beats are in flight, enough to hide BUF_BEATS - 64 cycles of memory latency
// at one beat per cycle.
//
// tuser is a mem_pkg::dma_cpl_t {tag, status}: the command's tag on every
// beat; the status of the beats read so far, final on the tlast beat (the
// completion of a read). A zero-length command gives one null beat (tkeep 0,
// tlast) and no memory access. Responses must return in order (one AXI ID).
`default_nettype none

module mem_dma_rd #(
  parameter int unsigned CMD_DEPTH = 16,   // commands in flight (power of two)
  parameter int unsigned BUF_BEATS = 256   // read data buffer, beats (power of two, >= 64)
) (
  input  wire logic                          clk,
  input  wire logic                          rst,
  // commands
  input  wire logic                          s_cmd_valid,
  output logic                               s_cmd_ready,
  input  wire mem_pkg::dma_rd_cmd_t          s_cmd,
  // AXI4 read master (INCR, 64-byte beats; one ID)
  output logic [mem_pkg::ADDR_W-1:0]         m_axi_araddr,
  output logic [7:0]                         m_axi_arlen,
  output logic                               m_axi_arvalid,
  input  wire logic                          m_axi_arready,
  input  wire logic [mem_pkg::DATA_W-1:0]    m_axi_rdata,
  input  wire logic [1:0]                    m_axi_rresp,
  input  wire logic                          m_axi_rlast,
  input  wire logic                          m_axi_rvalid,
  output logic                               m_axi_rready,
  // data stream
  output logic [mem_pkg::DATA_W-1:0]         m_axis_tdata,
  output logic [mem_pkg::STRB_W-1:0]         m_axis_tkeep,
  output logic                               m_axis_tvalid,
  input  wire logic                          m_axis_tready,
  output logic                               m_axis_tlast,
  output mem_pkg::dma_cpl_t                  m_axis_tuser
);
  localparam int unsigned DW = mem_pkg::DATA_W;
  localparam int unsigned SW = mem_pkg::STRB_W;
  localparam int unsigned BW = mem_pkg::BCNT_W;
  localparam int unsigned TW = mem_pkg::TAG_W;
  localparam int unsigned RW = $clog2(BUF_BEATS + 1) + 1;  // credit arithmetic, with headroom

  if (BUF_BEATS < mem_pkg::MAX_BURST || (1 << $clog2(BUF_BEATS)) != BUF_BEATS) begin : g_bad_buf
    $error("mem_dma_rd: BUF_BEATS must be a power of two >= 64");
  end

  // Command information the realigner needs, in command order.
  typedef struct packed {
    logic [5:0]    off;     // addr[5:0]: where the first byte sits in the first beat
    logic [BW-1:0] nin;     // beats read from memory
    logic [BW-1:0] nout;    // beats sent on the stream
    logic [5:0]    lastn;   // len[5:0]: bytes in the last stream beat (0 = 64)
    logic          zero;    // len == 0
    logic          nin1;    // nin == 1
    logic          nin2;    // nin == 2
    logic          nout1;   // nout == 1
    logic [TW-1:0] tag;
  } info_t;
  localparam int unsigned INFO_W = 6 + 2*BW + 6 + 4 + TW;   // $bits(info_t), for Yosys

  // ------------------------------------------------------------ command input
  // Beat counts and whether the command fits in its first burst are worked
  // out on the way into the command skid (from the input port), so the
  // splitter starts from registers.
  typedef struct packed {
    logic [63:0]          addr;
    logic [31:0]          len;
    logic [TW-1:0]        tag;
    logic [BW-1:0]        nin;     // beats read from memory (0 for len 0)
    logic [BW-1:0]        nout;    // beats sent on the stream
    logic                 zero;    // len == 0
    logic                 one;     // the command ends in its first 4 KiB page
  } pcmd_t;
  localparam int unsigned PCMD_W = 64 + 32 + TW + 2*BW + 2;   // $bits(pcmd_t)

  pcmd_t                pin, cmd;
  logic                 cmd_valid, cmd_ready;
  logic [6:0]           off63;

  always_comb begin
    off63    = {1'b0, s_cmd.addr[5:0]} + 7'd63;
    pin.addr = s_cmd.addr;
    pin.len  = s_cmd.len;
    pin.tag  = s_cmd.tag;
    pin.zero = s_cmd.len == '0;
    pin.nin  = pin.zero ? '0 : BW'(({1'b0, s_cmd.len} + 33'(off63)) >> 6);
    pin.nout = BW'(({1'b0, s_cmd.len} + 33'd63) >> 6);
    pin.one  = {1'b0, s_cmd.len} + 33'(s_cmd.addr[11:0]) <= 33'd4096;
  end

  lib_skid #(.WIDTH(PCMD_W)) u_cmd_skid (
    .clk, .rst,
    .s_valid(s_cmd_valid), .s_ready(s_cmd_ready), .s_data(pin),
    .m_valid(cmd_valid),   .m_ready(cmd_ready),   .m_data(cmd)
  );

  // ------------------------------------------------------------ splitter / AR
  // The splitter holds the next burst ready (size, last, beats after it), so
  // an AR is issued from registers; the burst after it is worked out from
  // them at the same edge.
  logic          sp_v_q, sp_v_d;
  logic [57:0]   sp_baddr_q, sp_baddr_d;   // beat address (byte address / 64)
  logic [6:0]    sp_burst_q, sp_burst_d;   // beats of the next burst, 1..64
  logic          sp_last_q, sp_last_d;     // the next burst is the command's last
  logic [BW-1:0] sp_rest_q, sp_rest_d;     // beats after the next burst
  logic [RW-1:0] sp_lim_q, sp_lim_d;       // BUF_BEATS - sp_burst_q: the credit bound for resv_q
  logic          ar_v_q, ar_v_d;
  logic [63:0]   ar_addr_q, ar_addr_d;
  logic [7:0]    ar_len_q, ar_len_d;
  logic [RW-1:0] resv_q, resv_d;           // buffer beats promised to issued bursts

  logic [6:0]    first;                    // beats to the end of the first page
  logic          issue, sp_free, rest_big;
  info_t         info_in, info_out;
  logic          info_in_ready, info_out_valid, info_out_ready;
  logic          d_pop;

  always_comb begin
    issue   = sp_v_q && (!ar_v_q || m_axi_arready) && resv_q <= sp_lim_q;
    sp_free = !sp_v_q || (issue && sp_last_q);

    // info for the command at the skid output
    info_in.off   = cmd.addr[5:0];
    info_in.zero  = cmd.zero;
    info_in.nin   = cmd.nin;
    info_in.nout  = cmd.nout;
    info_in.nin1  = cmd.nin == BW'(1);
    info_in.nin2  = cmd.nin == BW'(2);
    info_in.nout1 = cmd.nout == BW'(1);
    info_in.lastn = cmd.len[5:0];
    info_in.tag   = cmd.tag;
    cmd_ready     = sp_free && info_in_ready;

    // after the first burst every burst starts a page
    rest_big   = sp_rest_q > BW'(64);
    sp_v_d     = sp_v_q;
    sp_baddr_d = sp_baddr_q;
    sp_burst_d = sp_burst_q;
    sp_last_d  = sp_last_q;
    sp_rest_d  = sp_rest_q;
    sp_lim_d   = sp_lim_q;
    if (issue) begin
      sp_baddr_d = sp_baddr_q + 58'(sp_burst_q);
      sp_burst_d = rest_big ? 7'd64 : sp_rest_q[6:0];
      sp_lim_d   = rest_big ? RW'(BUF_BEATS - 64) : RW'(BUF_BEATS) - RW'(sp_rest_q[6:0]);
      sp_last_d  = !rest_big;
      sp_rest_d  = rest_big ? sp_rest_q - BW'(64) : '0;
      if (sp_last_q) sp_v_d = 1'b0;
    end
    first = 7'd64 - {1'b0, cmd.addr[11:6]};
    if (cmd_valid && cmd_ready) begin
      sp_v_d     = !cmd.zero;
      sp_baddr_d = cmd.addr[63:6];
      sp_burst_d = cmd.one ? cmd.nin[6:0] : first;
      sp_lim_d   = cmd.one ? RW'(BUF_BEATS) - RW'(cmd.nin[6:0])
                           : RW'(BUF_BEATS - 64) + RW'(cmd.addr[11:6]);
      sp_last_d  = cmd.one;
      sp_rest_d  = cmd.one ? '0 : cmd.nin - BW'(first);
    end

    ar_v_d    = ar_v_q && !m_axi_arready;
    ar_addr_d = ar_addr_q;
    ar_len_d  = ar_len_q;
    if (issue) begin
      ar_v_d    = 1'b1;
      ar_addr_d = {sp_baddr_q, 6'b0};
      ar_len_d  = 8'(sp_burst_q - 7'd1);
    end

    resv_d = resv_q + (issue ? RW'(sp_burst_q) : '0) - RW'(d_pop);
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      sp_v_q <= 1'b0;
      ar_v_q <= 1'b0;
      resv_q <= '0;
    end else begin
      sp_v_q <= sp_v_d;
      ar_v_q <= ar_v_d;
      resv_q <= resv_d;
    end
    sp_baddr_q <= sp_baddr_d;
    sp_burst_q <= sp_burst_d;
    sp_last_q  <= sp_last_d;
    sp_rest_q  <= sp_rest_d;
    sp_lim_q   <= sp_lim_d;
    ar_addr_q  <= ar_addr_d;
    ar_len_q   <= ar_len_d;
  end

  assign m_axi_araddr  = ar_addr_q;
  assign m_axi_arlen   = ar_len_q;
  assign m_axi_arvalid = ar_v_q;

  logic [$clog2(CMD_DEPTH+1)-1:0] unused_info_count;
  logic [RW-2:0]                  unused_data_count;

  lib_fifo #(.WIDTH(INFO_W), .DEPTH(CMD_DEPTH)) u_info (
    .clk, .rst,
    .s_valid(cmd_valid && sp_free), .s_ready(info_in_ready), .s_data(info_in),
    .m_valid(info_out_valid), .m_ready(info_out_ready), .m_data(info_out),
    .count(unused_info_count)
  );

  // ------------------------------------------------------------ data buffer
  logic [DW+1:0] d_out;
  logic          d_valid;
  logic [DW-1:0] din;
  logic [1:0]    din_resp;

  lib_fifo #(.WIDTH(DW + 2), .DEPTH(BUF_BEATS)) u_data (
    .clk, .rst,
    .s_valid(m_axi_rvalid), .s_ready(m_axi_rready), .s_data({m_axi_rresp, m_axi_rdata}),
    .m_valid(d_valid), .m_ready(d_pop), .m_data(d_out),
    .count(unused_data_count)
  );
  assign {din_resp, din} = d_out;

  // ------------------------------------------------------------ realigner
  // prev_q holds the last beat read as it came from memory. An output beat is
  // lanes >= off of prev_q and lanes < off of the next beat (din), merged in
  // place and then rotated right by off, so that prev's lane off lands on lane
  // 0. The rotation is done in two registered steps: the merge and the
  // rotation by off[5:3] * 8 lanes into stage R (r_*), the rotation by off[2:0]
  // lanes from stage R into the output skid.
  // lane b of the result = lane (b + 8n) mod 64 of x
  function automatic logic [DW-1:0] rot_right8(logic [DW-1:0] x, logic [2:0] n);
    for (int b = 0; b < SW; b++) begin
      rot_right8[8*b +: 8] = x[8*((b + 8*32'(n)) % SW) +: 8];
    end
  endfunction
  // lane b of the result = lane (b + n) mod 64 of x, n < 8
  function automatic logic [DW-1:0] rot_right1(logic [DW-1:0] x, logic [2:0] n);
    for (int b = 0; b < SW; b++) begin
      rot_right1[8*b +: 8] = x[8*((b + 32'(n)) % SW) +: 8];
    end
  endfunction

  logic                 cur_v_q, cur_v_d;
  info_t                cur_q, cur_d;
  logic [SW-1:0]        hi_q, hi_d;        // lanes >= cur_q.off: taken from prev_q
  logic [SW-1:0]        lkeep_q, lkeep_d;  // tkeep of the command's last beat
  logic [BW-1:0]        inleft_q, inleft_d, outleft_q, outleft_d;
  logic                 in1_q, in1_d;      // inleft_q == 1
  logic                 out1_q, out1_d;    // outleft_q == 1
  logic [1:0]           st_q, st_d;
  logic [DW-1:0]        prev_q, prev_d;
  // the realigner's state, one-hot and registered (worked out for each move
  // at the edge before, so no decision waits on a compare of cur_q):
  //   fz: a zero-length command; ff: a command waiting for its first beat;
  //   fb: case B (flush); fc: case C (merge); none set: no command
  logic                 fz_q, fz_d, ff_q, ff_d, fb_q, fb_d, fc_q, fc_d;

  logic                 o_valid, o_ready, o_last;
  logic [DW-1:0]        o_merged;
  logic [SW-1:0]        o_keep;
  mem_pkg::dma_cpl_t    o_user;
  logic                 st_flush, st_merge, overlap, done;
  logic                 done_pre, c_first, c_merge, c_ovl, c_step;

  // stage R: merged and rotated by off[5:3]; the rest of the rotation follows
  logic                 r_v_q, r_v_d;
  logic [DW-1:0]        r_data_q, r_data_d;
  logic [2:0]           r_off_q, r_off_d;
  logic [SW-1:0]        r_keep_q, r_keep_d;
  logic                 r_last_q, r_last_d;
  mem_pkg::dma_cpl_t    r_user_q, r_user_d;
  logic                 r_ready;

  always_comb begin
    // case B: every beat read, the last output comes from prev alone;
    // case C: more beats to read, an output merges prev and the next beat
    st_flush = fb_q;
    st_merge = fc_q;
    // in case B the next command's first beat can be taken in the same cycle
    overlap  = st_flush && info_out_valid && !info_out.zero && d_valid;

    // lanes below off only matter when merging (in case B they are beyond tkeep)
    for (int b = 0; b < SW; b++) begin
      o_merged[8*b +: 8] = hi_q[b] ? prev_q[8*b +: 8] : din[8*b +: 8];
    end

    o_valid = 1'b0;
    o_last  = 1'b0;
    o_keep  = {SW{1'b1}};
    o_user.tag    = cur_q.tag;
    o_user.status = st_q;
    if (fz_q) begin
      o_valid = 1'b1;
      o_last  = 1'b1;
      o_keep  = '0;
    end else if (st_flush) begin
      o_valid = 1'b1;
      o_last  = 1'b1;
      o_keep  = lkeep_q;
    end else if (st_merge) begin
      o_valid = d_valid;
      o_last  = out1_q;
      o_keep  = o_last ? lkeep_q : {SW{1'b1}};
      o_user.status = mem_pkg::status_merge(st_q, din_resp);
    end
  end

  // The realigner's moves, each from registered flags: take a command's
  // first beat (c_first), send a merged beat (c_merge), finish the command
  // (done), and in case B also take the next command's first beat (c_ovl).
  always_comb begin
    done_pre       = fz_q || fb_q || (fc_q && d_valid && out1_q);
    done           = o_ready && done_pre;
    c_first        = ff_q && d_valid;
    c_merge        = fc_q && d_valid && o_ready;
    c_ovl          = o_ready && overlap;
    c_step         = c_first || c_merge;
    info_out_ready = !cur_v_q || done;
    d_pop          = c_step || c_ovl;
    prev_d         = d_pop ? din : prev_q;
  end

  always_comb begin
    cur_d     = cur_q;
    cur_v_d   = cur_v_q;
    hi_d      = hi_q;
    lkeep_d   = lkeep_q;
    inleft_d  = inleft_q;
    in1_d     = in1_q;
    outleft_d = outleft_q;
    out1_d    = out1_q;
    st_d      = st_q;
    fz_d      = fz_q;
    ff_d      = ff_q && !c_first;
    fb_d      = fb_q || (c_step && in1_q);
    fc_d      = (fc_q && !c_merge) || (c_step && !in1_q);

    if (c_step) begin
      // first beat of a command, or a merged beat sent: one beat read
      inleft_d = inleft_q - BW'(1);
      in1_d    = inleft_q == BW'(2);
      st_d     = mem_pkg::status_merge(st_q, din_resp);
    end
    if (c_merge) begin
      outleft_d = outleft_q - BW'(1);
      out1_d    = outleft_q == BW'(2);
    end

    if (info_out_ready) begin
      cur_v_d   = info_out_valid;
      cur_d     = info_out;
      hi_d      = {SW{1'b1}} << info_out.off;
      lkeep_d   = (info_out.lastn == '0) ? {SW{1'b1}} : ~({SW{1'b1}} << info_out.lastn);
      inleft_d  = c_ovl ? info_out.nin - BW'(1) : info_out.nin;
      in1_d     = c_ovl ? info_out.nin2 : info_out.nin1;
      outleft_d = info_out.nout;
      out1_d    = info_out.nout1;
      st_d      = c_ovl ? mem_pkg::status_merge(mem_pkg::DMA_OK, din_resp) : mem_pkg::DMA_OK;
      // the new command's state (c_ovl: its first beat is taken now)
      fz_d      = info_out_valid && info_out.zero;
      ff_d      = info_out_valid && !info_out.zero && !c_ovl;
      fb_d      = c_ovl && info_out.nin1;
      fc_d      = c_ovl && !info_out.nin1;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      cur_v_q  <= 1'b0;
      fz_q     <= 1'b0;
      ff_q     <= 1'b0;
      fb_q     <= 1'b0;
      fc_q     <= 1'b0;
    end else begin
      cur_v_q  <= cur_v_d;
      fz_q     <= fz_d;
      ff_q     <= ff_d;
      fb_q     <= fb_d;
      fc_q     <= fc_d;
    end
    cur_q     <= cur_d;
    hi_q      <= hi_d;
    lkeep_q   <= lkeep_d;
    inleft_q  <= inleft_d;
    in1_q     <= in1_d;
    outleft_q <= outleft_d;
    out1_q    <= out1_d;
    st_q      <= st_d;
    prev_q    <= prev_d;
  end

  // stage R
  always_comb begin
    o_ready  = !r_v_q || r_ready;
    r_v_d    = r_v_q && !r_ready;
    r_data_d = r_data_q;
    r_off_d  = r_off_q;
    r_keep_d = r_keep_q;
    r_last_d = r_last_q;
    r_user_d = r_user_q;
    if (o_ready) begin
      r_v_d    = o_valid;
      r_data_d = rot_right8(o_merged, cur_q.off[5:3]);
      r_off_d  = cur_q.off[2:0];
      r_keep_d = o_keep;
      r_last_d = o_last;
      r_user_d = o_user;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) r_v_q <= 1'b0;
    else     r_v_q <= r_v_d;
    r_data_q <= r_data_d;
    r_off_q  <= r_off_d;
    r_keep_q <= r_keep_d;
    r_last_q <= r_last_d;
    r_user_q <= r_user_d;
  end

  lib_skid #(.WIDTH(DW + SW + 1 + mem_pkg::CPL_W)) u_out_skid (
    .clk, .rst,
    .s_valid(r_v_q), .s_ready(r_ready),
    .s_data({rot_right1(r_data_q, r_off_q), r_keep_q, r_last_q, r_user_q}),
    .m_valid(m_axis_tvalid), .m_ready(m_axis_tready),
    .m_data({m_axis_tdata, m_axis_tkeep, m_axis_tlast, m_axis_tuser})
  );

`ifndef SYNTHESIS
  // rlast is implied by the burst lengths; a realigner invariant: the merge
  // that produces the last output consumes the last beat read.
  always_ff @(posedge clk) begin
    if (!rst && st_merge && o_valid && o_ready && o_last && inleft_q != BW'(1)) begin
      $error("mem_dma_rd: last output with %0d beats left to read", inleft_q);
    end
    if (!rst && m_axi_rvalid && !m_axi_rready) begin
      $error("mem_dma_rd: read data buffer overflow (credit bug)");
    end
  end
`endif
  // m_axi_rlast is not needed: beats are counted per command.
  logic unused_rlast;
  assign unused_rlast = m_axi_rlast;
endmodule
