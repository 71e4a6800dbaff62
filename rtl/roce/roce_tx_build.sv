// roce_tx_build: TX header build of RoCEv2 packets.
//
// From a header (roce_pkg::tx_hdr_t: BTH, extension headers, payload length)
// and a payload stream, produce
//     [prefix] BTH [extension headers] payload pad
// as one stream, byte 0 in tdata[7:0]. The opcode table says which
// extension headers are written and where; the pad count in the BTH is
// computed here from the payload length (pad bytes are zero). The ICRC is not
// added here: roce_icrc_insert appends it.
//
// PREFIX_BYTES > 0 puts s_hdr_prefix (PREFIX_BYTES bytes, byte 0 in bits
// [7:0]) in front: with 42 and the Ethernet/IPv4/UDP header of the frame
// (net_pkg::hdr_to_bytes(net_pkg::tx_hdr_fill(...)) with payload_len =
// roce_pkg::roce_udp_payload_len(hdr_len, pay_len)) the output is the whole
// frame without its ICRC, ready for roce_icrc_insert. With 0 the output
// starts at the BTH.
//
// The payload stream must carry exactly pay_len bytes (tlast on beat
// ceil(pay_len/64)); no beat at all when pay_len is 0 or the opcode has no
// payload. The header is taken (s_hdr_ready) in the cycle the previous
// packet's last beat is sent, so packets leave back to back: every output
// cycle carries a beat while headers and payload are available.
`default_nettype none

module roce_tx_build #(
  parameter int PREFIX_BYTES = 0,                      // 0..64
  parameter int PFX_W        = (PREFIX_BYTES > 0) ? 8 * PREFIX_BYTES : 8
) (
  input  wire logic                        clk,
  input  wire logic                        rst,
  // header
  input  wire logic                        s_hdr_valid,
  output logic                             s_hdr_ready,
  input  wire roce_pkg::tx_hdr_t           s_hdr,
  input  wire logic [PFX_W-1:0]            s_hdr_prefix,   // unused when PREFIX_BYTES = 0
  // payload
  input  wire logic [roce_pkg::DATA_W-1:0] s_axis_payload_tdata,
  // tkeep is not needed: pay_len says how many bytes the last beat holds
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [roce_pkg::KEEP_W-1:0] s_axis_payload_tkeep,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic                        s_axis_payload_tvalid,
  output logic                             s_axis_payload_tready,
  input  wire logic                        s_axis_payload_tlast,
  // packet out
  output logic [roce_pkg::DATA_W-1:0]      m_axis_frame_tdata,
  output logic [roce_pkg::KEEP_W-1:0]      m_axis_frame_tkeep,
  output logic                             m_axis_frame_tvalid,
  input  wire logic                        m_axis_frame_tready,
  output logic                             m_axis_frame_tlast
);
  localparam int DW = roce_pkg::DATA_W;
  localparam int HW = roce_pkg::MAX_HDR_BYTES * 8;   // 320

  // ------------------------------------------------- header of the next packet
  // kind, request and position of the table row are for the transport
  /* verilator lint_off UNUSEDSIGNAL */
  roce_pkg::opcode_info_t info;
  /* verilator lint_on UNUSEDSIGNAL */
  roce_pkg::bth_t         bth;
  logic                   has_pay;
  logic [5:0]             hlen;
  logic [15:0]            plen;
  logic [1:0]             pad;
  logic [HW-1:0]          hbe, hw;
  logic [2*DW-1:0]        hb;
  logic [6:0]             hbytes;
  logic [16:0]            tbytes;
  logic [5:0]             n_sh;
  logic                   n_hfull;
  logic [10:0]            n_out, n_pay;
  logic [6:0]             n_lastn, n_paylastn;
  logic [DW-1:0]          n_prev;

  always_comb begin
    info    = roce_pkg::roce_opcode_info(s_hdr.hdr.bth.opcode);
    // an opcode outside the table is built as BTH + payload
    hlen    = info.valid ? info.hdr_len : 6'(roce_pkg::BTH_BYTES);
    has_pay = info.valid ? info.has_payload : 1'b1;
    plen    = has_pay ? s_hdr.pay_len : 16'd0;
    pad     = has_pay ? roce_pkg::roce_pad(plen) : 2'd0;
    bth        = s_hdr.hdr.bth;
    bth.padcnt = pad;
    // headers big-endian at the top of a 40-byte window, each at its offset
    hbe = {bth, 224'd0};
    if (info.deth)         hbe = hbe | ({s_hdr.hdr.deth,         256'd0} >> {info.off_deth, 3'd0});
    if (info.reth)         hbe = hbe | ({s_hdr.hdr.reth,         192'd0} >> {info.off_reth, 3'd0});
    if (info.atomiceth)    hbe = hbe | ({s_hdr.hdr.atomiceth,     96'd0} >> {info.off_atomiceth, 3'd0});
    if (info.aeth)         hbe = hbe | ({s_hdr.hdr.aeth,         288'd0} >> {info.off_aeth, 3'd0});
    if (info.atomicacketh) hbe = hbe | ({s_hdr.hdr.atomicacketh, 256'd0} >> {info.off_atomicacketh, 3'd0});
    if (info.immdt)        hbe = hbe | ({s_hdr.hdr.immdt,        288'd0} >> {info.off_immdt, 3'd0});
    // (CNP: its 16 reserved bytes stay zero)
    for (int i = 0; i < roce_pkg::MAX_HDR_BYTES; i++) hw[8*i +: 8] = hbe[HW-8-8*i +: 8];
    hb = (2*DW)'(hw) << (8 * PREFIX_BYTES);
    if (PREFIX_BYTES > 0) hb[PFX_W-1:0] = s_hdr_prefix;
    hbytes  = 7'(PREFIX_BYTES) + 7'(hlen);
    tbytes  = 17'(hbytes) + 17'(plen) + 17'(pad);
    n_sh    = hbytes[5:0];
    n_hfull = hbytes[6];
    n_out   = 11'((tbytes + 17'd63) >> 6);
    n_pay   = 11'((17'(plen) + 17'd63) >> 6);
    n_lastn = (tbytes[5:0] == 6'd0) ? 7'd64 : {1'b0, tbytes[5:0]};
    n_paylastn = (plen[5:0] == 6'd0) ? 7'd64 : {1'b0, plen[5:0]};
    // header bytes still to send after the first full beat (or all of them),
    // placed so that prev >> (64 - sh) bytes yields them
    n_prev  = (n_hfull ? hb[2*DW-1:DW] : hb[DW-1:0]) << {7'd64 - {1'b0, n_sh}, 3'd0};
  end

  // ------------------------------------------------------------------ state
  logic          act_q, act_d;            // a packet is being sent
  logic          hfull_q, hfull_d;        // a header-only beat (hb0_q) comes first
  logic [DW-1:0] hb0_q, hb0_d;
  logic [DW-1:0] prev_q, prev_d;
  logic [5:0]    sh_q, sh_d;
  logic [10:0]   out_left_q, out_left_d, pay_left_q, pay_left_d;
  logic [6:0]    lastn_q, lastn_d, paylastn_q, paylastn_d;
  logic          mv_q, mv_d, ml_q, ml_d;
  logic [DW-1:0] md_q, md_d;
  logic [6:0]    mn_q, mn_d;

  logic          out_free, need_cur, go, last_beat;
  logic [DW-1:0] cur, body;

  always_comb begin
    out_free  = !mv_q || m_axis_frame_tready;
    need_cur  = !hfull_q && pay_left_q != 11'd0;
    go        = act_q && out_free && (!need_cur || s_axis_payload_tvalid);
    last_beat = out_left_q == 11'd1;
    s_axis_payload_tready = act_q && out_free && need_cur;
    s_hdr_ready = !act_q || (go && last_beat);

    cur  = s_axis_payload_tdata;
    if (pay_left_q == 11'd1) cur = cur & roce_pkg::roce_bytes_first(paylastn_q);
    if (!need_cur) cur = '0;
    body = (prev_q >> {7'd64 - {1'b0, sh_q}, 3'd0}) | (cur << {sh_q, 3'd0});

    act_d      = act_q;
    hfull_d    = hfull_q;
    hb0_d      = hb0_q;
    prev_d     = prev_q;
    sh_d       = sh_q;
    out_left_d = out_left_q;
    pay_left_d = pay_left_q;
    lastn_d    = lastn_q;
    paylastn_d = paylastn_q;
    mv_d       = mv_q && !m_axis_frame_tready;
    md_d       = md_q;
    mn_d       = mn_q;
    ml_d       = ml_q;

    if (go) begin
      mv_d       = 1'b1;
      md_d       = hfull_q ? hb0_q : body;
      ml_d       = last_beat;
      mn_d       = last_beat ? lastn_q : 7'd64;
      out_left_d = out_left_q - 11'd1;
      if (hfull_q) begin
        hfull_d = 1'b0;
      end else begin
        prev_d = cur;
        if (need_cur) pay_left_d = pay_left_q - 11'd1;
      end
      if (last_beat) act_d = 1'b0;
    end
    if (s_hdr_valid && s_hdr_ready) begin
      act_d      = 1'b1;
      hfull_d    = n_hfull;
      hb0_d      = hb[DW-1:0];
      prev_d     = n_prev;
      sh_d       = n_sh;
      out_left_d = n_out;
      pay_left_d = n_pay;
      lastn_d    = n_lastn;
      paylastn_d = n_paylastn;
    end
  end

  assign m_axis_frame_tvalid = mv_q;
  assign m_axis_frame_tdata  = md_q;
  assign m_axis_frame_tkeep  = roce_pkg::roce_keep_first(mn_q);
  assign m_axis_frame_tlast  = ml_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      act_q <= 1'b0;
      mv_q  <= 1'b0;
    end else begin
      act_q <= act_d;
      mv_q  <= mv_d;
    end
    hfull_q    <= hfull_d;
    hb0_q      <= hb0_d;
    prev_q     <= prev_d;
    sh_q       <= sh_d;
    out_left_q <= out_left_d;
    pay_left_q <= pay_left_d;
    lastn_q    <= lastn_d;
    paylastn_q <= paylastn_d;
    md_q       <= md_d;
    mn_q       <= mn_d;
    ml_q       <= ml_d;
  end

`ifndef SYNTHESIS
  roce_axis_assert #(.W(roce_pkg::DATA_W + roce_pkg::KEEP_W + 1)) u_chk_out (
    .clk, .rst, .valid(m_axis_frame_tvalid), .ready(m_axis_frame_tready),
    .payload({m_axis_frame_tdata, m_axis_frame_tkeep, m_axis_frame_tlast}));
`endif

`ifndef SYNTHESIS
  initial begin
    if (PREFIX_BYTES < 0 || PREFIX_BYTES > 64) $error("roce_tx_build: PREFIX_BYTES %0d not in 0..64", PREFIX_BYTES);
  end
  always_ff @(posedge clk) begin
    // the payload stream agrees with pay_len
    if (!rst && s_axis_payload_tvalid && s_axis_payload_tready &&
        s_axis_payload_tlast != (pay_left_q == 11'd1))
      $error("roce_tx_build: payload tlast %0b with %0d beats left by pay_len", s_axis_payload_tlast, pay_left_q);
    if (!rst && s_hdr_valid && s_hdr_ready && !info.valid)
      $error("roce_tx_build: opcode %02h is not in the opcode table", s_hdr.hdr.bth.opcode);
  end
`endif

endmodule
