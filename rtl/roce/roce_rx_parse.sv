// roce_rx_parse: RX header parse of checked RoCEv2 frames.
//
// Input: frames from roce_icrc_check (whole frame including the ICRC, its
// length equal to 14 + the IPv4 total length, IPv4 without options). The BTH
// sits at byte 42; the opcode table (roce_pkg::roce_opcode_info) says which
// extension headers follow and how long the headers are (12..40 bytes, a
// multiple of 4, so they end in beat 0 or beat 1 and the payload starts at a
// byte 2 mod 4).
//
// Output, per packet that passes:
//   header channel m_hdr_*: roce_pkg::rx_hdr_t (BTH, the extension headers the
//     table names, the table row, payload length, IPv4 addresses, UDP source
//     port, ECN) and m_hdr_user (the frame's tuser). An output register in
//     front of a small FIFO; a header is on m_hdr no later than its first
//     payload beat is on m_axis_payload (unless earlier headers wait there).
//   payload stream m_axis_payload_*: the payload only (no pad, no ICRC),
//     realigned to byte 0 of tdata; tkeep contiguous; bytes beyond tkeep 0;
//     nothing at all when the payload length is 0.
// Drops (the frame produces nothing; one counter per reason, checked in this
// order, decided on beat 0):
//   cnt_drop_opcode   opcode not in the table
//   cnt_drop_version  BTH TVer != 0
//   cnt_drop_len      frame too short for its headers + pad + ICRC, or an
//                     opcode without payload that carries payload or pad
// cnt_pkt_ok counts the packets passed. The counters move two cycles after
// beat 0 is taken.
//
// Timing by construction: every output and s_axis_frame_tready come from
// flip-flops; no path is deeper than about five LUTs.
// Cycle by cycle (a beat taken on s_axis at cycle t):
//   t    decode 1 (from the input port): the opcode table row, K = 32 +
//        hdr_len + pad (the IPv4 total length of a packet without payload),
//        K + 64, the payload start byte, "total length < 128 / 256", TVer != 0.
//        The beat and these go into the input register slice S0 (lib_skid,
//        which makes s_axis_frame_tready a flip-flop).
//   t+1  the beat is in S0. Beat 0: decode 2 from the S0 registers (the drop
//        decision, payload length T - K, "payload <= 64 bytes", the tkeep of
//        the last payload beat) into the frame registers as beat 0 leaves S0.
//        Later beats: payload beat j = ({beat b0+j+1, beat b0+j} >> start) &
//        mask, in a 2-level word shift (the start is 2 + 4 * s4), into the
//        payload output register; beat 1 (with beat 0 in prev_q) gives the
//        header (extension headers by a word shift of their table offset),
//        pushed into the header output register (or its FIFO).
//   t+2  the payload beat / header is on the outputs.
// The beat that ends a frame leaves S0 at once; a payload beat it still owes
// (the rest of the payload lies in it alone: a single-beat frame, a frame
// whose payload starts in its last beat, or the last beat completes two
// payload beats) and a single-beat frame's header are made on the next cycle
// from prev_q ("deferred"), in parallel with beat 0 of the next frame, which
// never makes output of its own: one input beat per cycle, no bubble.
// Added latency against the unpipelined parser: one cycle (S0); two for a
// payload beat that is deferred and was not before (payload only in the
// frame's last beat, frame longer than one beat).
`default_nettype none

module roce_rx_parse #(
  parameter int USER_W    = 1,      // tuser bits carried to m_hdr_user
  parameter int HDR_DEPTH = 4       // header FIFO entries behind the output register (power of two)
) (
  input  wire logic                        clk,
  input  wire logic                        rst,
  // checked frames in
  input  wire logic [roce_pkg::DATA_W-1:0] s_axis_frame_tdata,
  // tkeep is not needed: roce_icrc_check has checked that the frame length
  // matches the IPv4 total length, which the parser uses
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [roce_pkg::KEEP_W-1:0] s_axis_frame_tkeep,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic                        s_axis_frame_tvalid,
  output logic                             s_axis_frame_tready,
  input  wire logic                        s_axis_frame_tlast,
  input  wire logic [USER_W-1:0]           s_axis_frame_tuser,
  // parsed headers
  output logic                             m_hdr_valid,
  input  wire logic                        m_hdr_ready,
  output roce_pkg::rx_hdr_t                m_hdr,
  output logic [USER_W-1:0]                m_hdr_user,
  // payload
  output logic [roce_pkg::DATA_W-1:0]      m_axis_payload_tdata,
  output logic [roce_pkg::KEEP_W-1:0]      m_axis_payload_tkeep,
  output logic                             m_axis_payload_tvalid,
  input  wire logic                        m_axis_payload_tready,
  output logic                             m_axis_payload_tlast,
  // counters (wrap around)
  output logic [31:0]                      cnt_drop_opcode,
  output logic [31:0]                      cnt_drop_version,
  output logic [31:0]                      cnt_drop_len,
  output logic [31:0]                      cnt_pkt_ok
);
  localparam int DW  = roce_pkg::DATA_W;
  localparam int KW  = roce_pkg::KEEP_W;
  localparam int IW  = roce_pkg::OPINFO_W;
  localparam int HW  = roce_pkg::MAX_HDR_BYTES * 8;   // header window, bits
  localparam int BTH_OFF = roce_pkg::NET_HDR_BYTES;   // 42
  localparam int HQ_W = roce_pkg::RX_HDR_W + USER_W;
  // decode 1 fields: info, K, K+64, payload start, T < 128, T < 256, TVer != 0
  localparam int D1_W = IW + 7 + 8 + 7 + 3;
  localparam int S0_W = D1_W + USER_W + 1 + DW;

  // ------------------------------------------------------ decode 1 (input)
  // The opcode table as a ROM, one 256-bit column per bit of a row (each bit
  // a function of the 8 opcode bits: two LUT levels): the table row, 32 +
  // hdr_len, 96 + hdr_len, 42 + hdr_len. hdr_len is a multiple of 4 in every
  // row, so K = 32 + hdr_len + pad is a concatenation, not an addition.
  localparam int RW = IW + 7 + 8 + 7;
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [RW*256-1:0] rom_cols(input int unused);   // (Yosys: no argument-less constant functions)
    logic [RW*256-1:0] t;
    logic [IW-1:0]     r;                                              // an opcode_info_t; hdr_len is r[5:0]
    logic [RW-1:0]     row;
    for (int o = 0; o < 256; o++) begin
      r   = roce_pkg::roce_opcode_info(o[7:0]);
      row = {r, 7'd32 + {1'b0, r[5:0]}, 8'd96 + {2'b0, r[5:0]}, 7'd42 + {1'b0, r[5:0]}};   // 42: BTH_OFF
      for (int b = 0; b < RW; b++) t[b*256 + o] = row[b];
    end
    rom_cols = t;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  localparam logic [RW*256-1:0] ROM = rom_cols(0);
  // columns of (32 + hdr_len)[1:0]: row bits 15 and 16
  if (ROM[15*256 +: 512] != '0) begin : g_bad_table
    $error("roce_rx_parse: a header length of the opcode table is not a multiple of 4");
  end

  roce_pkg::opcode_info_t i_info;
  logic [15:8]            i_tot_hi;
  logic [1:0]             i_pad;
  logic [6:0]             i_k, i_pstart;
  logic [7:0]             i_k64;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [6:0]             i_kh;                  // [1:0] are 0
  logic [7:0]             i_k64h;
  /* verilator lint_on UNUSEDSIGNAL */
  logic                   i_hi7z, i_hi8z, i_dver;
  logic [RW-1:0]          i_row;
  logic [63:0]            col;
  logic [7:0]             i_op;
  // four 64-entry quarters (one LUT6 per bit, kept so that synthesis does not
  // fold the table into a deeper net), then a 4-way mux by the opcode's top bits
  (* keep *) logic [4*RW-1:0] i_quarter;

  always_comb begin
    i_op = s_axis_frame_tdata[8*BTH_OFF +: 8];
    for (int q = 0; q < 4; q++) begin
      for (int b = 0; b < RW; b++) begin
        col                  = ROM[b*256 + q*64 +: 64];
        i_quarter[q*RW + b]  = col[i_op[5:0]];
      end
    end
    case (i_op[7:6])
      2'd0:    i_row = i_quarter[0*RW +: RW];
      2'd1:    i_row = i_quarter[1*RW +: RW];
      2'd2:    i_row = i_quarter[2*RW +: RW];
      default: i_row = i_quarter[3*RW +: RW];
    endcase
    {i_info, i_kh, i_k64h, i_pstart} = i_row;
    i_tot_hi = s_axis_frame_tdata[8*16 +: 8];    // IPv4 total length, high byte
    i_pad    = s_axis_frame_tdata[8*(BTH_OFF+1)+4 +: 2];
    i_dver   = s_axis_frame_tdata[8*(BTH_OFF+1) +: 4] != 4'd0;
    i_k      = {i_kh[6:2], i_pad};
    i_k64    = {i_k64h[7:2], i_pad};
    i_hi7z   = i_tot_hi == 8'd0 && !s_axis_frame_tdata[8*17+7];
    i_hi8z   = i_tot_hi == 8'd0;
  end

  // --------------------------------------------- S0: the input register slice
  logic [S0_W-1:0] s0_in, s0_out;
  logic            s0_v, adv;

  assign s0_in = {i_info, i_k, i_k64, i_pstart, i_hi7z, i_hi8z, i_dver,
                  s_axis_frame_tuser, s_axis_frame_tlast, s_axis_frame_tdata};

  lib_skid #(.WIDTH(S0_W)) u_s0 (
    .clk     (clk),
    .rst     (rst),
    .s_valid (s_axis_frame_tvalid),
    .s_ready (s_axis_frame_tready),
    .s_data  (s0_in),
    .m_valid (s0_v),
    .m_ready (adv),
    .m_data  (s0_out)
  );

  roce_pkg::opcode_info_t  a_info;
  logic [DW-1:0]           cur;
  logic                    a_last;
  logic [USER_W-1:0]       a_user;
  logic [6:0]              a_k, a_pstart;
  logic [7:0]              a_k64;
  logic                    a_hi7z, a_hi8z, a_dver;

  assign {a_info, a_k, a_k64, a_pstart, a_hi7z, a_hi8z, a_dver, a_user, a_last, cur} = s0_out;

  // ------------------------------------------------------------------ state
  logic                    in_pkt_q, in_pkt_d;    // the S0 beat is not a frame's first
  logic                    started_q, started_d;  // the S0 beat is past the payload's first beat
  logic                    hpend_q, hpend_d;      // the header is made with beat 1
  logic                    flush_q, flush_d;      // deferred: a payload beat from prev_q may be due
  logic                    dhdr_q, dhdr_d;        // deferred: a single-beat frame's header
  // frame registers (loaded as beat 0 leaves S0)
  logic                    drop_q, drop_d;
  logic                    dop_q, dop_d, dver_q, dver_d, dlen_q, dlen_d;
  logic [3:0]              s4_q, s4_d;            // payload start byte = 2 + 4 * s4 (within its beat)
  logic [15:0]             rem_q, rem_d;          // payload bytes not yet sent
  logic                    nz_q, nz_d;            // rem != 0
  logic                    le64_q, le64_d;        // rem <= 64
  logic [KW-1:0]           kl_q, kl_d;            // tkeep of the last payload beat
  logic [15:0]             plen_q, plen_d;
  roce_pkg::opcode_info_t  info_q, info_d;
  logic [USER_W-1:0]       user_q, user_d;
  logic [DW-1:0]           prev_q, prev_d;        // the beat before the S0 beat
  // payload output register
  logic                    mv_q, mv_d, ml_q, ml_d;
  logic [DW-1:0]           md_q, md_d;
  logic [KW-1:0]           mk_q, mk_d;
  // counters
  logic                    cv_q, cv_d;            // a frame was decided last cycle
  logic [31:0]             c_op_q, c_op_d, c_ver_q, c_ver_d, c_len_q, c_len_d, c_ok_q, c_ok_d;

  // ---------------------------------------------- decode 2 (beat 0 in S0)
  logic [15:0]   a_tot;
  logic [1:0]    a_pad;
  logic          dop_c, dver_c, dlen_c, drop_c, lt_c, eq_c, le64_c;
  logic [15:0]   plen_c;
  logic [5:0]    nl_c;
  logic [KW-1:0] kl_c;

  always_comb begin
    a_tot  = {cur[8*16 +: 8], cur[8*17 +: 8]};
    a_pad  = cur[8*(BTH_OFF+1)+4 +: 2];
    // T < K and T == K on 7 bits (K <= 75)
    lt_c   = a_hi7z && (a_tot[6:0] < a_k);
    eq_c   = a_hi7z && (a_tot[6:0] == a_k);
    dop_c  = !a_info.valid;
    dver_c = !dop_c && a_dver;
    dlen_c = !dop_c && !dver_c && (lt_c || (!a_info.has_payload && (!eq_c || a_pad != 2'd0)));
    drop_c = dop_c || dver_c || dlen_c;
    plen_c = a_tot - 16'(a_k);
    le64_c = a_hi8z && (a_tot[7:0] <= a_k64);
    // payload bytes in the last payload beat (0: 64)
    nl_c   = a_tot[5:0] - a_k[5:0];
    for (int i = 0; i < KW; i++) kl_c[i] = (6'(i) < nl_c) || (nl_c == 6'd0);
  end

  // ------------------------------------------------------------ control
  logic first, out_free, need_out, push_b1, def_out, def_hdr, hq_room;
  logic ld_norm, ld_def, hpush, is_last;

  always_comb begin
    first    = !in_pkt_q;
    out_free = !mv_q || m_axis_payload_tready;
    // a payload beat from {cur, prev_q}: past the start beat, payload left
    need_out = s0_v && !first && started_q && !drop_q && nz_q;
    push_b1  = s0_v && !first && hpend_q && !drop_q;
    def_out  = flush_q && !drop_q && nz_q;
    def_hdr  = dhdr_q && !drop_q;
    // beat 0 of a frame waits for the deferred work of the last one (which
    // uses the frame registers); other beats for the outputs they fill
    adv      = s0_v && (first ? ((!def_out || out_free) && (!def_hdr || hq_room))
                              : ((!need_out || out_free) && (!push_b1 || hq_room)));
    ld_norm  = adv && need_out;
    ld_def   = def_out && out_free;
    hpush    = (push_b1 && adv) || (def_hdr && hq_room);
    // flush_q: the deferred beat ends the payload
    is_last  = flush_q || le64_q;
  end

  // ----------------------------------------------------- payload datapath
  // the payload start is 2 + 4 * s4 bytes into {cur, prev_q}: a fixed 2-byte
  // shift, then words by s4 in two 4-way levels
  /* verilator lint_off UNUSEDSIGNAL */
  logic [2*DW-1:0] win, win1, win2;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [DW-1:0]   mask;

  always_comb begin
    win  = {cur, prev_q} >> 16;
    win1 = win >> {s4_q[1:0], 5'd0};
    win2 = win1 >> {s4_q[3:2], 7'd0};
    for (int i = 0; i < KW; i++) mask[8*i +: 8] = (!is_last || kl_q[i]) ? 8'hFF : 8'h00;
  end

  // ------------------------------------------------------------- header
  // 40 bytes from the BTH on: bytes 42..63 of beat 0 (prev_q), 0..17 of beat 1
  // (cur; junk for a single-beat frame, whose named headers end in beat 0)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [HW-1:0]          hwin, hbe, sh_deth, sh_reth, sh_atom, sh_aeth, sh_aack, sh_imm;
  /* verilator lint_on UNUSEDSIGNAL */
  roce_pkg::rx_hdr_t      hdr;

  // hbe shifted left by off bytes (off a multiple of 4): words, two levels
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [HW-1:0] hshift(input logic [HW-1:0] v, input logic [5:0] off);
    logic [HW-1:0] t;
    t      = v << {off[3:2], 5'd0};
    hshift = t << {off[5:4], 7'd0};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    hwin = {cur[143:0], prev_q[DW-1:8*BTH_OFF]};
    for (int i = 0; i < roce_pkg::MAX_HDR_BYTES; i++) hbe[HW-8-8*i +: 8] = hwin[8*i +: 8];
    sh_deth = hshift(hbe, info_q.off_deth);
    sh_reth = hshift(hbe, info_q.off_reth);
    sh_atom = hshift(hbe, info_q.off_atomiceth);
    sh_aeth = hshift(hbe, info_q.off_aeth);
    sh_aack = hshift(hbe, info_q.off_atomicacketh);
    sh_imm  = hshift(hbe, info_q.off_immdt);
    hdr = '0;
    hdr.hdr.bth          = hbe[HW-1 -: 96];
    if (info_q.deth)         hdr.hdr.deth         = sh_deth[HW-1 -: 64];
    if (info_q.reth)         hdr.hdr.reth         = sh_reth[HW-1 -: 128];
    if (info_q.atomiceth)    hdr.hdr.atomiceth    = sh_atom[HW-1 -: 224];
    if (info_q.aeth)         hdr.hdr.aeth         = sh_aeth[HW-1 -: 32];
    if (info_q.atomicacketh) hdr.hdr.atomicacketh = sh_aack[HW-1 -: 64];
    if (info_q.immdt)        hdr.hdr.immdt        = sh_imm[HW-1 -: 32];
    hdr.info      = info_q;
    hdr.pay_len   = plen_q;
    hdr.src_ip    = {prev_q[8*26 +: 8], prev_q[8*27 +: 8], prev_q[8*28 +: 8], prev_q[8*29 +: 8]};
    hdr.dst_ip    = {prev_q[8*30 +: 8], prev_q[8*31 +: 8], prev_q[8*32 +: 8], prev_q[8*33 +: 8]};
    hdr.udp_sport = {prev_q[8*34 +: 8], prev_q[8*35 +: 8]};
    hdr.ip_ecn    = prev_q[8*15 +: 2];
  end

  // ------------------------------------- header queue: output register + FIFO
  logic            hq_ov_q, hq_ov_d;
  logic [HQ_W-1:0] hq_q, hq_d, fq_out;
  logic            hq_take, fq_valid, fq_in_ready, fq_push, fq_pop;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [$clog2(HDR_DEPTH):0] fq_count;
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    hq_take = !hq_ov_q || m_hdr_ready;
    // the output register refills from the FIFO, or takes a push directly
    fq_pop  = fq_valid && hq_take;
    fq_push = hpush && (fq_valid || !hq_take);
    hq_room = fq_in_ready;
    hq_ov_d = hq_ov_q;
    hq_d    = hq_q;
    if (hq_take) begin
      hq_ov_d = fq_valid || hpush;
      hq_d    = fq_valid ? fq_out : {hdr, user_q};
    end
  end

  roce_fifo #(.WIDTH(HQ_W), .DEPTH(HDR_DEPTH)) u_hdr_q (
    .clk       (clk),
    .rst       (rst),
    .in_valid  (fq_push),
    .in_ready  (fq_in_ready),
    .in_data   ({hdr, user_q}),
    .out_valid (fq_valid),
    .out_ready (fq_pop),
    .out_data  (fq_out),
    .count     (fq_count)
  );

  // ------------------------------------------------- next state: the frame
  always_comb begin
    drop_d  = drop_q;
    dop_d   = dop_q;
    dver_d  = dver_q;
    dlen_d  = dlen_q;
    s4_d    = s4_q;
    plen_d  = plen_q;
    kl_d    = kl_q;
    info_d  = info_q;
    user_d  = user_q;
    prev_d  = prev_q;
    cv_d    = 1'b0;
    if (adv) begin
      prev_d = cur;
      if (first) begin
        drop_d = drop_c;
        dop_d  = dop_c;
        dver_d = dver_c;
        dlen_d = dlen_c;
        s4_d   = a_pstart[5:2];
        plen_d = plen_c;
        kl_d   = kl_c;
        info_d = a_info;
        user_d = a_user;
        cv_d   = 1'b1;
      end
    end
  end

  // ---------------------------------------------- next state: beat by beat
  always_comb begin
    in_pkt_d  = in_pkt_q;
    started_d = started_q;
    hpend_d   = hpend_q;
    rem_d     = rem_q;
    nz_d      = nz_q;
    le64_d    = le64_q;
    // deferred work is done when its output takes it (or nothing is due)
    flush_d   = flush_q && !(!def_out || out_free);
    dhdr_d    = dhdr_q && !(!def_hdr || hq_room);
    if (adv) begin
      in_pkt_d = !a_last;
      flush_d  = a_last;
      if (first) begin
        started_d = !a_pstart[6];
        hpend_d   = !a_last;
        dhdr_d    = a_last;
        rem_d     = plen_c;
        nz_d      = !eq_c;
        le64_d    = le64_c;
      end else begin
        started_d = 1'b1;
        hpend_d   = 1'b0;
        if (need_out) begin
          rem_d  = rem_q - 16'd64;
          nz_d   = !le64_q;
          le64_d = rem_q[15:8] == 8'd0 && (!rem_q[7] || rem_q[6:0] == 7'd0);
        end
      end
    end
  end

  // ---------------------------------------- next state: payload and counters
  always_comb begin
    mv_d = mv_q && !m_axis_payload_tready;
    md_d = md_q;
    mk_d = mk_q;
    ml_d = ml_q;
    if (ld_norm || ld_def) begin
      mv_d = 1'b1;
      md_d = win2[DW-1:0] & mask;
      mk_d = is_last ? kl_q : '1;
      ml_d = is_last;
    end
    c_op_d  = c_op_q  + 32'(cv_q && dop_q);
    c_ver_d = c_ver_q + 32'(cv_q && dver_q);
    c_len_d = c_len_q + 32'(cv_q && dlen_q);
    c_ok_d  = c_ok_q  + 32'(cv_q && !drop_q);
  end

  assign m_axis_payload_tvalid = mv_q;
  assign m_axis_payload_tdata  = md_q;
  assign m_axis_payload_tkeep  = mk_q;
  assign m_axis_payload_tlast  = ml_q;
  assign m_hdr_valid      = hq_ov_q;
  assign m_hdr            = hq_q[USER_W +: roce_pkg::RX_HDR_W];
  assign m_hdr_user       = hq_q[USER_W-1:0];
  assign cnt_drop_opcode  = c_op_q;
  assign cnt_drop_version = c_ver_q;
  assign cnt_drop_len     = c_len_q;
  assign cnt_pkt_ok       = c_ok_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      in_pkt_q <= 1'b0;
      hpend_q  <= 1'b0;
      flush_q  <= 1'b0;
      dhdr_q   <= 1'b0;
      mv_q     <= 1'b0;
      hq_ov_q  <= 1'b0;
      cv_q     <= 1'b0;
      c_op_q   <= '0;
      c_ver_q  <= '0;
      c_len_q  <= '0;
      c_ok_q   <= '0;
    end else begin
      in_pkt_q <= in_pkt_d;
      hpend_q  <= hpend_d;
      flush_q  <= flush_d;
      dhdr_q   <= dhdr_d;
      mv_q     <= mv_d;
      hq_ov_q  <= hq_ov_d;
      cv_q     <= cv_d;
      c_op_q   <= c_op_d;
      c_ver_q  <= c_ver_d;
      c_len_q  <= c_len_d;
      c_ok_q   <= c_ok_d;
    end
    started_q <= started_d;
    drop_q    <= drop_d;
    dop_q     <= dop_d;
    dver_q    <= dver_d;
    dlen_q    <= dlen_d;
    s4_q      <= s4_d;
    rem_q     <= rem_d;
    nz_q      <= nz_d;
    le64_q    <= le64_d;
    kl_q      <= kl_d;
    plen_q    <= plen_d;
    info_q    <= info_d;
    user_q    <= user_d;
    prev_q    <= prev_d;
    md_q      <= md_d;
    mk_q      <= mk_d;
    ml_q      <= ml_d;
    hq_q      <= hq_d;
  end

`ifndef SYNTHESIS
  // the word shifts assume headers of whole words: payload start 2 mod 4,
  // extension header offsets 0 mod 4
  always_ff @(posedge clk) begin
    if (!rst && adv && first && !drop_c) begin
      if (a_pstart[1:0] != 2'd2) $error("roce_rx_parse: payload start %0d is not 2 mod 4", a_pstart);
      if (a_info.hdr_len[1:0] != 2'd0) $error("roce_rx_parse: header length %0d is not a multiple of 4", a_info.hdr_len);
    end
    if (!rst && hpush && !hq_room) $error("roce_rx_parse: header pushed into a full queue");
  end
  roce_axis_assert #(.W(roce_pkg::DATA_W + roce_pkg::KEEP_W + 1)) u_chk_pay (
    .clk, .rst, .valid(m_axis_payload_tvalid), .ready(m_axis_payload_tready),
    .payload({m_axis_payload_tdata, m_axis_payload_tkeep, m_axis_payload_tlast}));
  roce_axis_assert #(.W(roce_pkg::RX_HDR_W + USER_W)) u_chk_hdr (
    .clk, .rst, .valid(m_hdr_valid), .ready(m_hdr_ready), .payload({m_hdr, m_hdr_user}));
`endif

endmodule
