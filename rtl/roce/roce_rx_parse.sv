// roce_rx_parse: RX header parse of checked RoCEv2 frames.
//
// Input: frames from roce_icrc_check (whole frame including the ICRC, its
// length equal to 14 + the IPv4 total length, IPv4 without options). The BTH
// sits at byte 42; the opcode table (roce_pkg::roce_opcode_info) says which
// extension headers follow and how long the headers are (12..40 bytes, so
// they end in beat 0 or beat 1).
//
// Output, per packet that passes:
//   header channel m_hdr_*: roce_pkg::rx_hdr_t (BTH, the extension headers the
//     table names, the table row, payload length, IPv4 addresses, UDP source
//     port, ECN) and m_hdr_user (the frame's tuser). Queued in a small FIFO;
//     a header is pushed no later than its first payload beat.
//   payload stream m_axis_payload_*: the payload only (no pad, no ICRC),
//     realigned to byte 0 of tdata; tkeep contiguous; nothing at all when the
//     payload length is 0.
// Drops (the frame produces nothing; one counter per reason, checked in this
// order, decided on beat 0):
//   cnt_drop_opcode   opcode not in the table
//   cnt_drop_version  BTH TVer != 0
//   cnt_drop_len      frame too short for its headers + pad + ICRC, or an
//                     opcode without payload that carries payload or pad
// cnt_pkt_ok counts the packets passed.
//
// Throughput: one input beat per cycle. The payload beat j of a packet leaves
// with input beat j+1 (+1 when the headers end in beat 1); when the last
// input beat completes two payload beats the second leaves on the next
// cycle, in parallel with beat 0 of the next frame (which never carries
// payload of its own unless the frame is a single beat).
`default_nettype none

module roce_rx_parse #(
  parameter int USER_W    = 1,      // tuser bits carried to m_hdr_user
  parameter int HDR_DEPTH = 4       // header FIFO entries (power of two)
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
  localparam int HW  = roce_pkg::MAX_HDR_BYTES * 8;   // header window, bits
  localparam int BTH_OFF = roce_pkg::NET_HDR_BYTES;   // 42

  // ------------------------------------------------------------------ state
  logic                    in_pkt_q, in_pkt_d;    // next beat is not a frame's first
  logic [1:0]              bidx_q, bidx_d;        // index of the next beat (saturates at 3)
  logic                    drop_q, drop_d;
  logic                    b0_q, b0_d;            // payload starts in beat 1
  logic [5:0]              sh_q, sh_d;            // payload start, byte within its beat
  logic [15:0]             rem_q, rem_d;          // payload bytes not yet sent
  logic [15:0]             plen_q, plen_d;
  logic                    hpend_q, hpend_d;      // header waits for beat 1
  roce_pkg::opcode_info_t  info_q, info_d;
  logic [USER_W-1:0]       user_q, user_d;
  logic [DW-1:0]           prev_q, prev_d;        // previous beat
  logic                    flush_q, flush_d;      // a payload beat from prev_q is due
  logic                    mv_q, mv_d, ml_q, ml_d;
  logic [DW-1:0]           md_q, md_d;
  logic [6:0]              mn_q, mn_d;
  logic [31:0]             c_op_q, c_op_d, c_ver_q, c_ver_d, c_len_q, c_len_d, c_ok_q, c_ok_d;

  // ------------------------------------------------------- beat 0 decode
  logic                    first;
  logic [DW-1:0]           cur;
  logic [7:0]              opcode_c;
  logic [3:0]              tver_c;
  logic [1:0]              pad_c;
  logic [16:0]             flen_c, minlen_c;
  roce_pkg::opcode_info_t  info_c;
  logic                    dop_c, dver_c, dlen_c, drop_c;
  logic [15:0]             plen_c;
  logic [6:0]              pstart_c;

  always_comb begin
    cur      = s_axis_frame_tdata;
    first    = !in_pkt_q;
    opcode_c = cur[8*BTH_OFF +: 8];
    tver_c   = cur[8*(BTH_OFF+1) +: 4];
    pad_c    = cur[8*(BTH_OFF+1)+4 +: 2];
    flen_c   = 17'd14 + {1'b0, cur[8*16 +: 8], cur[8*17 +: 8]};
    info_c   = roce_pkg::roce_opcode_info(opcode_c);
    minlen_c = 17'(BTH_OFF) + 17'(info_c.hdr_len) + 17'(roce_pkg::ICRC_BYTES) + 17'(pad_c);
    dop_c    = !info_c.valid;
    dver_c   = !dop_c && tver_c != 4'd0;
    dlen_c   = !dop_c && !dver_c &&
               ((flen_c < minlen_c) || (!info_c.has_payload && (flen_c != minlen_c || pad_c != 2'd0)));
    drop_c   = dop_c || dver_c || dlen_c;
    plen_c   = 16'(flen_c - minlen_c);
    pstart_c = 7'(BTH_OFF) + 7'(info_c.hdr_len);
  end

  // ------------------------------------------------ this beat's payload work
  // wide intermediates of which only a slice is used (shift windows)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [2*DW-1:0]         win;
  logic [HW-1:0]           sh_deth, sh_reth, sh_atom, sh_aeth, sh_aack, sh_imm;
  logic [DW-1:0]           b0data;
  logic [$clog2(HDR_DEPTH):0] hq_count;
  /* verilator lint_on UNUSEDSIGNAL */
  logic                    drop, b0;
  logic [5:0]              sh;
  logic [15:0]             rem, rem_after;
  logic [1:0]              idx;
  logic                    normal, flush_now, flush_defer, need_out, out_free, hdr_push;
  logic [6:0]              n_norm, n_flush, n_defer;
  logic [DW-1:0]           d_norm, d_flush, d_defer;
  logic                    beat, hdr_ready;

  function automatic logic [6:0] min64(input logic [15:0] v);
    min64 = (v > 16'd64) ? 7'd64 : v[6:0];
  endfunction

  always_comb begin
    drop   = first ? drop_c : drop_q;
    b0     = first ? pstart_c[6] : b0_q;
    sh     = first ? pstart_c[5:0] : sh_q;
    rem    = first ? plen_c : rem_q;
    idx    = first ? 2'd0 : bidx_q;
    // a full payload beat from {cur, prev} once past the start beat
    normal    = !drop && ({1'b0, idx} > {2'b0, b0}) && rem != 16'd0;
    n_norm    = min64(rem);
    rem_after = rem - (normal ? {9'd0, n_norm} : 16'd0);
    // at the frame's end, the rest comes from cur alone
    flush_now   = !drop && s_axis_frame_tlast && ({1'b0, idx} >= {2'b0, b0}) && rem_after != 16'd0;
    flush_defer = flush_now && normal;
    n_flush     = min64(rem_after);
    need_out    = normal || flush_now;
    win     = {cur, prev_q} >> {sh, 3'd0};
    d_norm  = win[DW-1:0];
    d_flush = cur >> {sh, 3'd0};
    d_defer = prev_q >> {sh_q, 3'd0};
    n_defer = min64(rem_q);
    hdr_push = first ? (!drop_c && s_axis_frame_tlast) : (hpend_q && idx == 2'd1);
    out_free = !mv_q || m_axis_payload_tready;
    s_axis_frame_tready = (flush_q ? (out_free && !need_out) : (!need_out || out_free))
                          && (!hdr_push || hdr_ready);
    beat = s_axis_frame_tvalid && s_axis_frame_tready;
  end

  // ------------------------------------------------------------- header
  logic [HW-1:0]          hwin, hbe;
  roce_pkg::opcode_info_t hinfo;
  roce_pkg::rx_hdr_t      hdr;

  always_comb begin
    hinfo  = first ? info_c : info_q;
    b0data = first ? cur : prev_q;
    // 40 bytes from the BTH on: bytes 42..63 of beat 0, 0..17 of beat 1
    hwin   = first ? {144'd0, cur[DW-1:8*BTH_OFF]} : {cur[143:0], prev_q[DW-1:8*BTH_OFF]};
    for (int i = 0; i < roce_pkg::MAX_HDR_BYTES; i++) hbe[HW-8-8*i +: 8] = hwin[8*i +: 8];
    // each extension header moved to the top of the (big-endian) window
    sh_deth = hbe << {hinfo.off_deth, 3'd0};
    sh_reth = hbe << {hinfo.off_reth, 3'd0};
    sh_atom = hbe << {hinfo.off_atomiceth, 3'd0};
    sh_aeth = hbe << {hinfo.off_aeth, 3'd0};
    sh_aack = hbe << {hinfo.off_atomicacketh, 3'd0};
    sh_imm  = hbe << {hinfo.off_immdt, 3'd0};
    hdr = '0;
    hdr.hdr.bth          = hbe[HW-1 -: 96];
    if (hinfo.deth)         hdr.hdr.deth         = sh_deth[HW-1 -: 64];
    if (hinfo.reth)         hdr.hdr.reth         = sh_reth[HW-1 -: 128];
    if (hinfo.atomiceth)    hdr.hdr.atomiceth    = sh_atom[HW-1 -: 224];
    if (hinfo.aeth)         hdr.hdr.aeth         = sh_aeth[HW-1 -: 32];
    if (hinfo.atomicacketh) hdr.hdr.atomicacketh = sh_aack[HW-1 -: 64];
    if (hinfo.immdt)        hdr.hdr.immdt        = sh_imm[HW-1 -: 32];
    hdr.info      = hinfo;
    hdr.pay_len   = first ? plen_c : plen_q;
    hdr.src_ip    = {b0data[8*26 +: 8], b0data[8*27 +: 8], b0data[8*28 +: 8], b0data[8*29 +: 8]};
    hdr.dst_ip    = {b0data[8*30 +: 8], b0data[8*31 +: 8], b0data[8*32 +: 8], b0data[8*33 +: 8]};
    hdr.udp_sport = {b0data[8*34 +: 8], b0data[8*35 +: 8]};
    hdr.ip_ecn    = b0data[8*15 +: 2];
  end

  logic [roce_pkg::RX_HDR_W+USER_W-1:0] hq_out;

  roce_fifo #(.WIDTH(roce_pkg::RX_HDR_W + USER_W), .DEPTH(HDR_DEPTH)) u_hdr_q (
    .clk       (clk),
    .rst       (rst),
    .in_valid  (beat && hdr_push),
    .in_ready  (hdr_ready),
    .in_data   ({hdr, first ? s_axis_frame_tuser : user_q}),
    .out_valid (m_hdr_valid),
    .out_ready (m_hdr_ready),
    .out_data  (hq_out),
    .count     (hq_count)
  );
  assign m_hdr      = hq_out[USER_W +: roce_pkg::RX_HDR_W];
  assign m_hdr_user = hq_out[USER_W-1:0];

  // ------------------------------------------------------------ next state
  always_comb begin
    in_pkt_d = in_pkt_q;
    bidx_d   = bidx_q;
    drop_d   = drop_q;
    b0_d     = b0_q;
    sh_d     = sh_q;
    rem_d    = rem_q;
    plen_d   = plen_q;
    hpend_d  = hpend_q;
    info_d   = info_q;
    user_d   = user_q;
    prev_d   = prev_q;
    flush_d  = flush_q;
    mv_d     = mv_q && !m_axis_payload_tready;
    md_d     = md_q;
    mn_d     = mn_q;
    ml_d     = ml_q;
    c_op_d   = c_op_q;
    c_ver_d  = c_ver_q;
    c_len_d  = c_len_q;
    c_ok_d   = c_ok_q;

    // a deferred payload beat goes first
    if (flush_q && out_free) begin
      flush_d = 1'b0;
      mv_d    = 1'b1;
      md_d    = d_defer & roce_pkg::roce_bytes_first(n_defer);
      mn_d    = n_defer;
      ml_d    = 1'b1;
    end

    if (beat) begin
      prev_d = cur;
      if (first) begin
        drop_d  = drop_c;
        b0_d    = pstart_c[6];
        sh_d    = pstart_c[5:0];
        plen_d  = plen_c;
        info_d  = info_c;
        user_d  = s_axis_frame_tuser;
        hpend_d = !drop_c && !s_axis_frame_tlast;
        c_op_d  = c_op_q  + 32'(dop_c);
        c_ver_d = c_ver_q + 32'(dver_c);
        c_len_d = c_len_q + 32'(dlen_c);
        c_ok_d  = c_ok_q  + 32'(!drop_c);
      end else if (hdr_push) begin
        hpend_d = 1'b0;
      end
      rem_d = rem_after;
      if (normal) begin
        mv_d = 1'b1;
        md_d = d_norm & roce_pkg::roce_bytes_first(n_norm);
        mn_d = n_norm;
        ml_d = rem_after == 16'd0;
      end else if (flush_now) begin
        mv_d  = 1'b1;
        md_d  = d_flush & roce_pkg::roce_bytes_first(n_flush);
        mn_d  = n_flush;
        ml_d  = 1'b1;
        rem_d = 16'd0;
      end
      if (flush_defer) flush_d = 1'b1;
      if (s_axis_frame_tlast) begin
        in_pkt_d = 1'b0;
        bidx_d   = 2'd0;
        hpend_d  = 1'b0;
      end else begin
        in_pkt_d = 1'b1;
        bidx_d   = first ? 2'd1 : ((bidx_q == 2'd3) ? 2'd3 : bidx_q + 2'd1);
      end
    end
  end

  assign m_axis_payload_tvalid = mv_q;
  assign m_axis_payload_tdata  = md_q;
  assign m_axis_payload_tkeep  = roce_pkg::roce_keep_first(mn_q);
  assign m_axis_payload_tlast  = ml_q;
  assign cnt_drop_opcode  = c_op_q;
  assign cnt_drop_version = c_ver_q;
  assign cnt_drop_len     = c_len_q;
  assign cnt_pkt_ok       = c_ok_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      in_pkt_q <= 1'b0;
      bidx_q   <= '0;
      hpend_q  <= 1'b0;
      flush_q  <= 1'b0;
      mv_q     <= 1'b0;
      c_op_q   <= '0;
      c_ver_q  <= '0;
      c_len_q  <= '0;
      c_ok_q   <= '0;
    end else begin
      in_pkt_q <= in_pkt_d;
      bidx_q   <= bidx_d;
      hpend_q  <= hpend_d;
      flush_q  <= flush_d;
      mv_q     <= mv_d;
      c_op_q   <= c_op_d;
      c_ver_q  <= c_ver_d;
      c_len_q  <= c_len_d;
      c_ok_q   <= c_ok_d;
    end
    drop_q <= drop_d;
    b0_q   <= b0_d;
    sh_q   <= sh_d;
    rem_q  <= rem_d;
    plen_q <= plen_d;
    info_q <= info_d;
    user_q <= user_d;
    prev_q <= prev_d;
    md_q   <= md_d;
    mn_q   <= mn_d;
    ml_q   <= ml_d;
  end

`ifndef SYNTHESIS
  roce_axis_assert #(.W(roce_pkg::DATA_W + roce_pkg::KEEP_W + 1)) u_chk_pay (
    .clk, .rst, .valid(m_axis_payload_tvalid), .ready(m_axis_payload_tready),
    .payload({m_axis_payload_tdata, m_axis_payload_tkeep, m_axis_payload_tlast}));
  roce_axis_assert #(.W(roce_pkg::RX_HDR_W + USER_W)) u_chk_hdr (
    .clk, .rst, .valid(m_hdr_valid), .ready(m_hdr_ready), .payload({m_hdr, m_hdr_user}));
`endif

endmodule
