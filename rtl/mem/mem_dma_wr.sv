// mem_dma_wr: DMA write engine. A write command (any byte address, any length
// up to 2^31) takes its payload from s_axis (byte 0 = the byte written at
// addr, ceil(len/64) beats, tlast on the last; tkeep is not used, the length
// comes from the command), shifts it onto the address' byte lanes and writes
// it with AXI4 INCR bursts of 64-byte beats (at most 64, never across 4 KiB),
// WSTRB masking the bytes before the start and after the end. One completion
// per command, in command order, once all its B responses are back.
//
// Pipeline:
//   s_cmd -> skid -> splitter ----------AW----------> (memory)
//                       \-> info FIFO -> realigner -> W buffer --W-->
//   s_axis -> skid -------------------------^             B --> m_cpl
// The realigner merges payload beats as they come (the lanes each W beat takes
// from this payload beat and the one before); the merged beat is rotated left
// by the address offset in two registered steps: by off[5:3] * 8 lanes into
// stage R, by off[2:0] lanes on its way into the W buffer (one cycle more than
// a one-step rotation).
// Beat counts, the last byte's lane and whether a command ends in its first
// 4 KiB page are worked out on the way into the command skid; the splitter
// holds the next burst in registers. A burst's AW goes out only once all its
// beats sit in the W buffer or in stage R in front of it (from where a beat
// moves on in the next cycle, unless the buffer is full, i.e. is being
// drained by W), so W beats of a granted burst follow without gaps and a slow
// payload source never holds the shared W channel. Command to AW: 5 cycles
// (command skid, info FIFO bypass, stage R, AW issue, AW register). Completions wait in a CPL_DEPTH FIFO and
// at most CPL_DEPTH commands are accepted and not yet completed-and-taken, so
// the FIFO always has room: bready never depends on the completion consumer
// (a consumer that does not take completions back-pressures commands, never
// the shared B channel). A zero-length command consumes one null
// beat (tkeep 0, tlast) from s_axis, touches no memory and completes OK.
`default_nettype none

module mem_dma_wr #(
  parameter int unsigned CMD_DEPTH = 16,   // commands accepted ahead of the realigner (power of two)
  parameter int unsigned BUF_BEATS = 128,  // W buffer, beats (power of two, >= 64)
  parameter int unsigned MAX_BURSTS = 32,  // bursts awaiting a B response (power of two)
  parameter int unsigned CPL_DEPTH = 32    // commands accepted and not completed-and-taken (power of two)
) (
  input  wire logic                          clk,
  input  wire logic                          rst,
  // commands
  input  wire logic                          s_cmd_valid,
  output logic                               s_cmd_ready,
  input  wire mem_pkg::dma_wr_cmd_t          s_cmd,
  // payload stream
  input  wire logic [mem_pkg::DATA_W-1:0]    s_axis_tdata,
  input  wire logic [mem_pkg::STRB_W-1:0]    s_axis_tkeep,
  input  wire logic                          s_axis_tvalid,
  output logic                               s_axis_tready,
  input  wire logic                          s_axis_tlast,
  // AXI4 write master (INCR, 64-byte beats; one ID)
  output logic [mem_pkg::ADDR_W-1:0]         m_axi_awaddr,
  output logic [7:0]                         m_axi_awlen,
  output logic                               m_axi_awvalid,
  input  wire logic                          m_axi_awready,
  output logic [mem_pkg::DATA_W-1:0]         m_axi_wdata,
  output logic [mem_pkg::STRB_W-1:0]         m_axi_wstrb,
  output logic                               m_axi_wlast,
  output logic                               m_axi_wvalid,
  input  wire logic                          m_axi_wready,
  input  wire logic [1:0]                    m_axi_bresp,
  input  wire logic                          m_axi_bvalid,
  output logic                               m_axi_bready,
  // completions
  output logic                               m_cpl_valid,
  input  wire logic                          m_cpl_ready,
  output mem_pkg::dma_cpl_t                  m_cpl
);
  localparam int unsigned DW = mem_pkg::DATA_W;
  localparam int unsigned SW = mem_pkg::STRB_W;
  localparam int unsigned BW = mem_pkg::BCNT_W;
  localparam int unsigned TW = mem_pkg::TAG_W;
  localparam int unsigned RW = $clog2(BUF_BEATS + 1) + 1;

  if (BUF_BEATS < mem_pkg::MAX_BURST || (1 << $clog2(BUF_BEATS)) != BUF_BEATS) begin : g_bad_buf
    $error("mem_dma_wr: BUF_BEATS must be a power of two >= 64");
  end

  typedef struct packed {
    logic [5:0]    off;     // addr[5:0]
    logic [5:0]    pbeat;   // addr[11:6]: beat index within the 4 KiB page
    logic [BW-1:0] np;      // payload beats
    logic [BW-1:0] nw;      // W beats
    logic [5:0]    endl;    // lane of the last byte: (addr + len - 1) mod 64
    logic          zero;    // len == 0
  } info_t;
  localparam int unsigned INFO_W = 6 + 6 + 2*BW + 6 + 1;    // $bits(info_t), for Yosys

  typedef struct packed {
    logic [TW-1:0] tag;
    logic          last;    // last burst of its command
    logic          nob;     // zero-length command: no B response to wait for
  } bexp_t;
  localparam int unsigned BEXP_W = TW + 2;                  // $bits(bexp_t)

  typedef struct packed {
    logic [57:0]   baddr;   // beat address of the burst
    logic [6:0]    beats;   // 1..64 (0 for a zero-length command)
    logic [TW-1:0] tag;
    logic          last;    // last burst of its command
    logic          nob;     // zero-length command
  } burst_t;
  localparam int unsigned BURST_W = 58 + 7 + TW + 2;        // $bits(burst_t)
  localparam int unsigned BQ_DEPTH = 4;

  // ------------------------------------------------------------ command input
  logic                 cmd_valid, cmd_ready;

  // completion credits: commands accepted, completion not yet taken
  localparam int unsigned CCW = $clog2(CPL_DEPTH + 1);
  // (ccred_q: ccnt_q != CPL_DEPTH, kept as a flag so that s_cmd_ready is one
  // gate from registers)
  logic [CCW-1:0] ccnt_q, ccnt_d;
  logic           ccred_q, ccred_d;
  logic           skid_ready, ccred, cmd_take, cpl_take;

  assign ccred       = ccred_q;
  assign s_cmd_ready = skid_ready && ccred;
  assign cmd_take    = s_cmd_valid && s_cmd_ready;
  assign ccnt_d      = ccnt_q + CCW'(cmd_take) - CCW'(cpl_take);
  assign ccred_d     = !((ccnt_q == CCW'(CPL_DEPTH) && !cpl_take) ||
                         (ccnt_q == CCW'(CPL_DEPTH - 1) && cmd_take && !cpl_take));
  always_ff @(posedge clk) begin
    if (rst) begin
      ccnt_q  <= '0;
      ccred_q <= 1'b1;
    end else begin
      ccnt_q  <= ccnt_d;
      ccred_q <= ccred_d;
    end
  end

  // Beat counts, the last byte's lane and whether the command fits in its
  // first burst are worked out on the way into the command skid (from the
  // input port), so the splitter starts from registers.
  typedef struct packed {
    logic [63:0]          addr;
    logic [TW-1:0]        tag;
    logic [BW-1:0]        nw;      // W beats (0 for len 0)
    logic [BW-1:0]        np;      // payload beats
    logic [5:0]           endl;    // lane of the last byte: (addr + len - 1) mod 64
    logic                 zero;    // len == 0
    logic                 one;     // the command ends in its first 4 KiB page
  } pcmd_t;
  localparam int unsigned PCMD_W = 64 + TW + 2*BW + 6 + 2;   // $bits(pcmd_t)

  pcmd_t      cin, cmd;
  logic [6:0] off63;

  always_comb begin
    off63    = {1'b0, s_cmd.addr[5:0]} + 7'd63;
    cin.addr = s_cmd.addr;
    cin.tag  = s_cmd.tag;
    cin.zero = s_cmd.len == '0;
    cin.nw   = cin.zero ? '0 : BW'(({1'b0, s_cmd.len} + 33'(off63)) >> 6);
    cin.np   = BW'(({1'b0, s_cmd.len} + 33'd63) >> 6);
    cin.endl = s_cmd.len[5:0] + s_cmd.addr[5:0] - 6'd1;
    cin.one  = {1'b0, s_cmd.len} + 33'(s_cmd.addr[11:0]) <= 33'd4096;
  end

  lib_skid #(.WIDTH(PCMD_W)) u_cmd_skid (
    .clk, .rst,
    .s_valid(s_cmd_valid && ccred), .s_ready(skid_ready), .s_data(cin),
    .m_valid(cmd_valid),   .m_ready(cmd_ready),   .m_data(cmd)
  );

  // ------------------------------------------------------------ splitter
  // Cuts commands into bursts, one per cycle, into a small queue; a burst
  // leaves the queue as an AW once its beats are buffered. The queue lets the
  // splitter (and the realigner behind the info FIFO) run ahead of the data,
  // so short commands do not wait for each other. The next burst is held
  // ready in registers (size, last, beats after it); after the first burst
  // every burst starts a page.
  logic          sp_v_q, sp_v_d;
  logic [57:0]   sp_baddr_q, sp_baddr_d;
  logic [6:0]    sp_burst_q, sp_burst_d;   // beats of the next burst (0 for len 0)
  logic          sp_last_q, sp_last_d;     // the next burst is the command's last
  logic [BW-1:0] sp_rest_q, sp_rest_d;     // beats after the next burst
  logic [TW-1:0] sp_tag_q, sp_tag_d;
  logic          sp_zero_q, sp_zero_d;

  logic [6:0]    first;
  logic          sp_push, sp_free, take_cmd, rest_big;
  info_t         info_in, info_out;
  logic          info_in_ready, info_out_valid, info_out_ready;
  burst_t        bq_in, bq_out;
  logic          bq_in_ready, bq_out_valid, bq_pop;

  always_comb begin
    sp_push = sp_v_q && bq_in_ready;
    sp_free = !sp_v_q || (sp_push && sp_last_q);

    bq_in.baddr = sp_baddr_q;
    bq_in.beats = sp_burst_q;
    bq_in.tag   = sp_tag_q;
    bq_in.last  = sp_last_q;
    bq_in.nob   = sp_zero_q;

    info_in.off   = cmd.addr[5:0];
    info_in.pbeat = cmd.addr[11:6];
    info_in.zero  = cmd.zero;
    info_in.nw    = cmd.nw;
    info_in.np    = cmd.np;
    info_in.endl  = cmd.endl;
    cmd_ready = info_in_ready && sp_free;
    take_cmd  = cmd_valid && cmd_ready;

    rest_big   = sp_rest_q > BW'(64);
    sp_v_d     = sp_v_q;
    sp_baddr_d = sp_baddr_q;
    sp_burst_d = sp_burst_q;
    sp_last_d  = sp_last_q;
    sp_rest_d  = sp_rest_q;
    sp_tag_d   = sp_tag_q;
    sp_zero_d  = sp_zero_q;
    if (sp_push) begin
      sp_baddr_d = sp_baddr_q + 58'(sp_burst_q);
      sp_burst_d = rest_big ? 7'd64 : sp_rest_q[6:0];
      sp_last_d  = !rest_big;
      sp_rest_d  = rest_big ? sp_rest_q - BW'(64) : '0;
      if (sp_last_q) sp_v_d = 1'b0;
    end
    first = 7'd64 - {1'b0, cmd.addr[11:6]};
    if (take_cmd) begin
      sp_v_d     = 1'b1;
      sp_baddr_d = cmd.addr[63:6];
      sp_burst_d = cmd.one ? cmd.nw[6:0] : first;
      sp_last_d  = cmd.one;
      sp_rest_d  = cmd.one ? '0 : cmd.nw - BW'(first);
      sp_tag_d   = cmd.tag;
      sp_zero_d  = cmd.zero;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      sp_v_q <= 1'b0;
    end else begin
      sp_v_q <= sp_v_d;
    end
    sp_baddr_q <= sp_baddr_d;
    sp_burst_q <= sp_burst_d;
    sp_last_q  <= sp_last_d;
    sp_rest_q  <= sp_rest_d;
    sp_tag_q   <= sp_tag_d;
    sp_zero_q  <= sp_zero_d;
  end

  logic [$clog2(BQ_DEPTH+1)-1:0] unused_bq_count;

  lib_fifo #(.WIDTH(BURST_W), .DEPTH(BQ_DEPTH)) u_bq (
    .clk, .rst,
    .s_valid(sp_push), .s_ready(bq_in_ready), .s_data(bq_in),
    .m_valid(bq_out_valid), .m_ready(bq_pop), .m_data(bq_out),
    .count(unused_bq_count)
  );

  // ------------------------------------------------------------ AW
  logic          aw_v_q, aw_v_d;
  logic [63:0]   aw_addr_q, aw_addr_d;
  logic [7:0]    aw_len_q, aw_len_d;
  logic [RW-1:0] avail_q, avail_d;         // beats in stage R or buffered, not yet claimed by an AW
  logic          r_in;                     // a beat enters stage R (o_push, below)
  logic [RW-1:0] wcred_q, wcred_d;         // buffered beats whose AW is out
  logic          issue;
  bexp_t         bexp_in, bexp_out;
  logic          bexp_push, bexp_in_ready, bexp_out_valid, bexp_pop;
  logic          w_pop;

  always_comb begin
    // a burst goes out when all its beats are buffered; a zero-length
    // command only needs its place in the completion order
    issue     = bq_out_valid && !bq_out.nob && (!aw_v_q || m_axi_awready) && bexp_in_ready &&
                avail_q >= RW'(bq_out.beats);
    bexp_push = issue || (bq_out_valid && bq_out.nob && bexp_in_ready);
    bq_pop    = bexp_push;
    bexp_in.tag  = bq_out.tag;
    bexp_in.last = bq_out.last;
    bexp_in.nob  = bq_out.nob;

    aw_v_d    = aw_v_q && !m_axi_awready;
    aw_addr_d = aw_addr_q;
    aw_len_d  = aw_len_q;
    if (issue) begin
      aw_v_d    = 1'b1;
      aw_addr_d = {bq_out.baddr, 6'b0};
      aw_len_d  = 8'(bq_out.beats - 7'd1);
    end

    avail_d = avail_q + RW'(r_in) - (issue ? RW'(bq_out.beats) : '0);
    wcred_d = wcred_q + (issue ? RW'(bq_out.beats) : '0) - RW'(w_pop);
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      aw_v_q  <= 1'b0;
      avail_q <= '0;
      wcred_q <= '0;
    end else begin
      aw_v_q  <= aw_v_d;
      avail_q <= avail_d;
      wcred_q <= wcred_d;
    end
    aw_addr_q <= aw_addr_d;
    aw_len_q  <= aw_len_d;
  end

  assign m_axi_awaddr  = aw_addr_q;
  assign m_axi_awlen   = aw_len_q;
  assign m_axi_awvalid = aw_v_q;

  logic [$clog2(CMD_DEPTH+1)-1:0]  unused_info_count;
  logic [$clog2(MAX_BURSTS+1)-1:0] unused_bexp_count;

  lib_fifo #(.WIDTH(INFO_W), .DEPTH(CMD_DEPTH), .BYPASS(1'b1), .BYPASS_POP(1'b1)) u_info (
    .clk, .rst,
    .s_valid(take_cmd), .s_ready(info_in_ready), .s_data(info_in),
    .m_valid(info_out_valid), .m_ready(info_out_ready), .m_data(info_out),
    .count(unused_info_count)
  );

  lib_fifo #(.WIDTH(BEXP_W), .DEPTH(MAX_BURSTS)) u_bexp (
    .clk, .rst,
    .s_valid(bexp_push), .s_ready(bexp_in_ready), .s_data(bexp_in),
    .m_valid(bexp_out_valid), .m_ready(bexp_pop), .m_data(bexp_out),
    .count(unused_bexp_count)
  );

  // ------------------------------------------------------------ payload input
  logic [DW-1:0] pin;
  logic          pin_valid, pin_ready, pin_last;
  logic [SW-1:0] unused_pin_keep;

  lib_skid #(.WIDTH(DW + SW + 1)) u_in_skid (
    .clk, .rst,
    .s_valid(s_axis_tvalid), .s_ready(s_axis_tready),
    .s_data({s_axis_tdata, s_axis_tkeep, s_axis_tlast}),
    .m_valid(pin_valid), .m_ready(pin_ready), .m_data({pin, unused_pin_keep, pin_last})
  );

  // ------------------------------------------------------------ realigner
  // W beat j = lanes >= off of payload j rotated left by off, lanes < off of
  // payload j-1 rotated alike. The realigner merges the payload beats as they
  // come (lanes < 64-off of payload j, lanes >= 64-off of payload j-1, kept in
  // prev_q; after the last payload beat prev_q alone) and the merged beat is
  // rotated left by off in two registered steps: by off[5:3] * 8 lanes into
  // stage R, by off[2:0] lanes on the way into the W buffer.
  // lane b of the result = lane (b - 8n) mod 64 of x
  function automatic logic [DW-1:0] rot_left8(logic [DW-1:0] x, logic [2:0] n);
    for (int b = 0; b < SW; b++) begin
      rot_left8[8*b +: 8] = x[8*((b + SW - 8*32'(n)) % SW) +: 8];
    end
  endfunction
  // lane b of the result = lane (b - n) mod 64 of x, n < 8
  function automatic logic [DW-1:0] rot_left1(logic [DW-1:0] x, logic [2:0] n);
    for (int b = 0; b < SW; b++) begin
      rot_left1[8*b +: 8] = x[8*((b + SW - 32'(n)) % SW) +: 8];
    end
  endfunction

  logic          cur_v_q, cur_v_d;
  info_t         cur_q, cur_d;
  logic [BW-1:0] pleft_q, pleft_d, wleft_q, wleft_d;
  logic          pnz_q, pnz_d;             // pleft_q != 0
  logic          w1_q, w1_d;               // wleft_q == 1
  logic          first_q, first_d;
  logic [5:0]    pb_q, pb_d;               // beat index within the 4 KiB page
  logic [DW-1:0] prev_q, prev_d;
  logic [SW-1:0] lo_q, lo_d;               // lanes < 64 - off: from the payload beat
  logic [SW-1:0] hi_q, hi_d;               // lanes >= off of the W beat
  logic [SW-1:0] end_q, end_d;             // lanes <= endl of the W beat

  logic [DW-1:0]   o_merged;
  logic            w_in_ready, done, o_push, o_ready;
  logic [SW-1:0]   o_strb;
  logic            o_last;

  // stage R: merged and rotated by off[5:3]
  logic            r_v_q, r_v_d;
  logic [DW-1:0]   r_data_q, r_data_d;
  logic [2:0]      r_off_q, r_off_d;
  logic [SW-1:0]   r_strb_q, r_strb_d;
  logic            r_last_q, r_last_d;

  always_comb begin
    for (int b = 0; b < SW; b++) begin
      o_merged[8*b +: 8] = (lo_q[b] && pnz_q) ? pin[8*b +: 8] : prev_q[8*b +: 8];
    end
    o_strb = (first_q ? hi_q : {SW{1'b1}}) & (w1_q ? end_q : {SW{1'b1}});
    o_last = (pb_q == 6'd63) || w1_q;
  end

  always_comb begin
    pin_ready = 1'b0;
    o_push    = 1'b0;
    done      = 1'b0;
    cur_d     = cur_q;
    cur_v_d   = cur_v_q;
    pleft_d   = pleft_q;
    pnz_d     = pnz_q;
    wleft_d   = wleft_q;
    w1_d      = w1_q;
    first_d   = first_q;
    pb_d      = pb_q;
    prev_d    = prev_q;
    lo_d      = lo_q;
    hi_d      = hi_q;
    end_d     = end_q;

    if (cur_v_q && cur_q.zero) begin
      // the null beat of a zero-length command
      pin_ready = 1'b1;
      done      = pin_valid;
    end else if (cur_v_q && pnz_q) begin
      // a payload beat makes a W beat
      pin_ready = o_ready;
      o_push    = pin_valid && o_ready;
    end else if (cur_v_q) begin
      // the W beat after the last payload beat: its low lanes only
      o_push = o_ready;
    end

    if (o_push) begin
      if (pnz_q) begin
        prev_d  = pin;
        pleft_d = pleft_q - BW'(1);
        pnz_d   = pleft_q != BW'(1);
      end
      wleft_d = wleft_q - BW'(1);
      w1_d    = wleft_q == BW'(2);
      first_d = 1'b0;
      pb_d    = pb_q + 6'd1;
      done    = w1_q;
    end

    info_out_ready = !cur_v_q || done;
    if (info_out_ready) begin
      cur_v_d = info_out_valid;
      cur_d   = info_out;
      pleft_d = info_out.np;
      pnz_d   = info_out.np != '0;
      wleft_d = info_out.nw;
      w1_d    = info_out.nw == BW'(1);
      first_d = 1'b1;
      pb_d    = info_out.pbeat;
      lo_d    = {SW{1'b1}} >> info_out.off;
      hi_d    = {SW{1'b1}} << info_out.off;
      end_d   = {SW{1'b1}} >> (6'd63 - info_out.endl);
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      cur_v_q <= 1'b0;
    end else begin
      cur_v_q <= cur_v_d;
    end
    cur_q   <= cur_d;
    pleft_q <= pleft_d;
    pnz_q   <= pnz_d;
    wleft_q <= wleft_d;
    w1_q    <= w1_d;
    first_q <= first_d;
    pb_q    <= pb_d;
    prev_q  <= prev_d;
    lo_q    <= lo_d;
    hi_q    <= hi_d;
    end_q   <= end_d;
  end

  // stage R (ready from registers only: kept out of the block below)
  assign o_ready = !r_v_q || w_in_ready;
  assign r_in    = o_push;                 // (o_push implies o_ready)

  always_comb begin
    r_v_d    = r_v_q && !w_in_ready;
    r_data_d = r_data_q;
    r_off_d  = r_off_q;
    r_strb_d = r_strb_q;
    r_last_d = r_last_q;
    if (o_ready) begin
      r_v_d    = o_push;
      r_data_d = rot_left8(o_merged, cur_q.off[5:3]);
      r_off_d  = cur_q.off[2:0];
      r_strb_d = o_strb;
      r_last_d = o_last;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) r_v_q <= 1'b0;
    else     r_v_q <= r_v_d;
    r_data_q <= r_data_d;
    r_off_q  <= r_off_d;
    r_strb_q <= r_strb_d;
    r_last_q <= r_last_d;
  end

  // ------------------------------------------------------------ W buffer
  logic                      w_out_valid;
  logic [RW-2:0]             unused_w_count;

  lib_fifo #(.WIDTH(DW + SW + 1), .DEPTH(BUF_BEATS)) u_wbuf (
    .clk, .rst,
    .s_valid(r_v_q), .s_ready(w_in_ready), .s_data({rot_left1(r_data_q, r_off_q), r_strb_q, r_last_q}),
    .m_valid(w_out_valid), .m_ready(w_pop),
    .m_data({m_axi_wdata, m_axi_wstrb, m_axi_wlast}),
    .count(unused_w_count)
  );
  // W beats go out only behind their AW (wcred_nz_q: wcred_q != 0, kept as
  // a flag so that wvalid is one gate from registers)
  logic wcred_nz_q, wcred_nz_d;
  assign wcred_nz_d   = issue || wcred_q > RW'(1) || (wcred_q == RW'(1) && !w_pop);
  always_ff @(posedge clk) begin
    if (rst) wcred_nz_q <= 1'b0;
    else     wcred_nz_q <= wcred_nz_d;
  end
  assign m_axi_wvalid = w_out_valid && wcred_nz_q;
  assign w_pop        = m_axi_wvalid && m_axi_wready;

  // ------------------------------------------------------------ B / completions
  // B is always taken (for an expected burst); a command's completion goes
  // into the completion FIFO, which the credits keep from filling.
  logic                 cpl_push, cpl_in_ready;
  mem_pkg::dma_cpl_t    cpl_in;
  logic [1:0]           bst_q, bst_d;
  logic [CCW-1:0]       unused_cpl_count;

  always_comb begin
    m_axi_bready = bexp_out_valid && !bexp_out.nob;
    bexp_pop     = 1'b0;
    cpl_push     = 1'b0;
    cpl_in.tag   = bexp_out.tag;
    cpl_in.status = mem_pkg::DMA_OK;
    bst_d        = bst_q;
    if (bexp_out_valid && bexp_out.nob) begin
      bexp_pop = 1'b1;
      cpl_push = 1'b1;
    end else if (m_axi_bvalid && m_axi_bready) begin
      bexp_pop = 1'b1;
      bst_d    = mem_pkg::status_merge(bst_q, m_axi_bresp);
      if (bexp_out.last) begin
        cpl_push      = 1'b1;
        cpl_in.status = bst_d;
        bst_d         = mem_pkg::DMA_OK;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (rst) bst_q <= mem_pkg::DMA_OK;
    else     bst_q <= bst_d;
  end

  lib_fifo #(.WIDTH(mem_pkg::CPL_W), .DEPTH(CPL_DEPTH), .BYPASS(1'b1), .BYPASS_POP(1'b1)) u_cpl (
    .clk, .rst,
    .s_valid(cpl_push), .s_ready(cpl_in_ready), .s_data(cpl_in),
    .m_valid(m_cpl_valid), .m_ready(m_cpl_ready), .m_data(m_cpl),
    .count(unused_cpl_count)
  );
  assign cpl_take = m_cpl_valid && m_cpl_ready;

`ifndef SYNTHESIS
  always_ff @(posedge clk) begin
    if (!rst && pin_valid && pin_ready && cur_v_q) begin
      if (cur_q.zero ? !pin_last : (pin_last != (pleft_q == BW'(1)))) begin
        $error("mem_dma_wr: payload tlast=%0d where the command length says %0d", pin_last,
               cur_q.zero || pleft_q == BW'(1));
      end
    end
    if (!rst && cpl_push && !cpl_in_ready) begin
      $error("mem_dma_wr: completion FIFO full (the credits must prevent this)");
    end
    if (!rst && ccred_q != (ccnt_q != CCW'(CPL_DEPTH))) begin
      $error("mem_dma_wr: ccred_q out of step with ccnt_q");
    end
    if (!rst && wcred_nz_q != (wcred_q != '0)) begin
      $error("mem_dma_wr: wcred_nz_q out of step with wcred_q");
    end
    if (!rst && m_axi_bvalid && !bexp_out_valid) begin
      $error("mem_dma_wr: B response without an outstanding burst");
    end
  end
`endif
endmodule
