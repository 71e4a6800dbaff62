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
// payload. The header is taken in the cycle the previous packet's last beat
// is sent, so packets leave back to back: every output cycle carries a beat
// while headers and payload are available.
//
// s_hdr_info is the opcode table's row of s_hdr's opcode from the sender's
// flip-flops (roce_tx_prefix registers it beside the header), so no path
// here starts with the table's decode.
//
// Cycle plan (every output from flip-flops):
//   take: the header's layout (its bytes in place: the first beat's from
//     byte 0, the bytes past it; the beat and byte counts and masks; the
//     header length's index hk, (hdr_len - 12) / 4) is loaded into the state
//     registers; a header offered while the packet before is still sent
//     waits as its layout in a hold register (s_hdr_ready = the hold is
//     empty), taken from there at that packet's last beat
//   each beat: prev_q (header bytes, or the payload bytes carried over,
//     already at their places) OR the payload beat shifted up to its place,
//     into the output register slice (lib_skid, whose registered s_ready is
//     the room); the payload's bytes past the beat are stored for the next
//     beat. Every header length is one of 12, 16, ..., 40, so the shift is
//     one of 8 constants chosen by hk_q (an 8:1 multiplexer per bit, not a
//     64-way barrel shifter), and the header's byte count a table of hk
// One cycle from a header (or a payload beat) to its beat on the output.
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
  // the opcode table's row of s_hdr's opcode (roce_opcode_info), from the
  // sender's flip-flops: the flags below start at registers, not at the
  // table's decode (kind, request and position are for the transport)
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire roce_pkg::opcode_info_t      s_hdr_info,
  /* verilator lint_on UNUSEDSIGNAL */
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
  localparam int DW  = roce_pkg::DATA_W;
  localparam int HW  = roce_pkg::MAX_HDR_BYTES * 8;   // 320
  localparam int KEEP_W_L = roce_pkg::KEEP_W;
  // header bytes past the first beat at most (PREFIX_BYTES + 40 - 64), at least 1
  localparam int HPB = (PREFIX_BYTES + roce_pkg::MAX_HDR_BYTES > 64) ? PREFIX_BYTES + roce_pkg::MAX_HDR_BYTES - 64 : 1;
  // Every header length of the opcode table is one of 12, 16, ..., 40 bytes
  // (BTH 12 and extension headers of multiples of 4; checked below), so
  // payload byte 0 goes to one of 8 places in its beat: (prefix + 12 + 4k) mod 64
  function automatic int sh_of(input int k);
    sh_of = (PREFIX_BYTES + roce_pkg::BTH_BYTES + 4 * k) % 64;
  endfunction
  // a payload beat shifted up to its place for header length index k
  function automatic logic [2*roce_pkg::DATA_W-1:0] place(input logic [roce_pkg::DATA_W-1:0] c, input int k);
    place = (2*roce_pkg::DATA_W)'(c) << (8 * sh_of(k));
  endfunction

  // ------------------------------------------------- header of the next packet
  // The header's bytes in their places, and every count of its packet, from
  // s_hdr (the layout, lay_*): the first beat's bytes hb_lo (prefix and
  // headers from byte 0), the bytes past the first beat hb_hi (when the
  // headers fill it: hfull), the byte count sh of the header in its last
  // beat (payload byte 0 goes there), the beats out and in, the masks.
  typedef struct packed {
    logic [DW-1:0]    hb_lo;
    logic [8*HPB-1:0] hb_hi;
    logic [2:0]       hk;        // (header length - 12) / 4: which of the 8 shifts
    logic             hfull;     // a header-only beat first
    logic [10:0]      out;       // beats out
    logic             lb;        // the first beat is the last
    logic [10:0]      pay;       // payload beats in
    logic             need;      // the first beat takes payload
    logic [63:0]      cm;        // the first beat's payload byte mask
    logic [63:0]      lastm;     // the last payload beat's byte mask
    logic [63:0]      lastk;     // the last beat's tkeep
  } lay_t;
  lay_t lay, hold_q, hold_d, nx;

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
  /* verilator lint_off UNUSEDSIGNAL */
  logic [2*DW-1:0]        hb;          // bytes past 64 + HPB are zero
  /* verilator lint_on UNUSEDSIGNAL */
  logic [6:0]             hbytes;
  logic [16:0]            tbytes;
  logic [10:0]            pay1;
  logic [6:0]             room4;
  logic                   opn, pnz, p_gt63;     // payload after a header in the first beat, pay_len != 0, > 63

  always_comb begin
    info    = s_hdr_info;
    // an opcode outside the table is built as BTH + payload
    hlen    = info.valid ? info.hdr_len : 6'(roce_pkg::BTH_BYTES);
    has_pay = info.valid ? info.has_payload : 1'b1;
    plen    = has_pay ? s_hdr.pay_len : 16'd0;
    pad     = has_pay ? roce_pkg::roce_pad(plen) : 2'd0;
    bth        = s_hdr.hdr.bth;
    bth.padcnt = pad;
    // headers big-endian at the top of a 40-byte window, each at its offset:
    // the table's offsets are constants per header (checked in simulation
    // below), so each byte is an AND-OR of a few fields by the opcode's flags
    hbe = {bth, 224'd0};
    if (info.deth)         hbe = hbe | ({s_hdr.hdr.deth,         256'd0} >> 96);
    if (info.reth)         hbe = hbe | ({s_hdr.hdr.reth,         192'd0} >> 96);
    if (info.atomiceth)    hbe = hbe | ({s_hdr.hdr.atomiceth,     96'd0} >> 96);
    if (info.aeth)         hbe = hbe | ({s_hdr.hdr.aeth,         288'd0} >> 96);
    if (info.atomicacketh) hbe = hbe | ({s_hdr.hdr.atomicacketh, 256'd0} >> 128);
    if (info.immdt && info.reth)  hbe = hbe | ({s_hdr.hdr.immdt, 288'd0} >> 224);
    if (info.immdt && info.deth)  hbe = hbe | ({s_hdr.hdr.immdt, 288'd0} >> 160);
    if (info.immdt && !info.reth && !info.deth) hbe = hbe | ({s_hdr.hdr.immdt, 288'd0} >> 96);
    // (CNP: its 16 reserved bytes stay zero)
    for (int i = 0; i < roce_pkg::MAX_HDR_BYTES; i++) hw[8*i +: 8] = hbe[HW-8-8*i +: 8];
    hb = (2*DW)'(hw) << (8 * PREFIX_BYTES);
    if (PREFIX_BYTES > 0) hb[PFX_W-1:0] = s_hdr_prefix;
    // the header bytes (prefix and headers) and the room beside them, from
    // the header length's index by a table (one LUT, no carry chain)
    lay.hk = 3'(hlen[5:2] - 4'd3);
    hbytes = 7'd0;
    room4  = 7'd0;
    for (int k = 0; k < 8; k++) begin
      if (lay.hk == 3'(k)) begin
        hbytes = 7'(PREFIX_BYTES + roce_pkg::BTH_BYTES + 4 * k);
        // one beat: the payload rounded up to 4 fits beside the header, i.e.
        // the payload is at most the room rounded down to 4
        room4  = 7'((64 - sh_of(k)) / 4 * 4);
      end
    end
    // the payload rounded up to 4 (its pad) in the same carry chain (carry in)
    tbytes = {15'(hbytes[6:2]) + 15'(plen[15:2]) + 15'(plen[1:0] != 2'd0), hbytes[1:0]};
    lay.hb_lo = hb[DW-1:0];
    lay.hb_hi = hb[DW +: 8*HPB];
    lay.hfull = hbytes[6];
    lay.out   = 11'(tbytes[16:6]) + 11'(tbytes[5:0] != 6'd0);
    lay.lb    = (!hbytes[6] || hbytes[5:0] == 6'd0) &&
                (!has_pay || (s_hdr.pay_len[15:7] == 9'd0 && s_hdr.pay_len[6:0] <= (hbytes[6] ? 7'd0 : room4)));
    // (from pay_len, then gated: the opcode's decode beside the carry chain)
    pay1      = 11'(s_hdr.pay_len[15:6]) + 11'(s_hdr.pay_len[5:0] != 6'd0);
    lay.pay   = has_pay ? pay1 : 11'd0;
    opn       = has_pay && !hbytes[6];
    pnz       = s_hdr.pay_len != 16'd0;
    p_gt63    = s_hdr.pay_len[15:6] != 10'd0;
    lay.need  = opn && pnz;
    // the masks, each byte's bit a function of 6 bits (one LUT): the last
    // beats hold n mod 64 bytes (64 when 0); lastm is looked at only when
    // there is payload (then plen is pay_len)
    for (int i = 0; i < 64; i++) begin
      lay.lastk[i] = tbytes[5:0] == 6'd0 || tbytes[5:0] > 6'(i);
      lay.lastm[i] = s_hdr.pay_len[5:0] == 6'd0 || s_hdr.pay_len[5:0] > 6'(i);
    end
    // the first beat's payload bytes: byte i when the payload has more than
    // i bytes (three levels: pay_len's high bits, the low bits against i, opn)
    for (int i = 0; i < 64; i++) lay.cm[i] = opn && (p_gt63 || s_hdr.pay_len[5:0] > 6'(i));
  end

  // ------------------------------------------------------------------ state
  // The header is taken when the packet before sends its last beat (or none
  // is being sent); s_hdr_ready is "the hold is empty": a header offered
  // while the packet before is still sent waits in the hold (its layout),
  // else it is taken at once.
  logic             hold_v_q, hold_v_d;
  logic             act_q, act_d;        // a packet is being sent
  logic             hfull_q, hfull_d;    // a header-only beat (prev_q) comes first
  logic [DW-1:0]    prev_q, prev_d;      // bytes of the next beat from before (header, payload)
  logic [8*HPB-1:0] hp_q, hp_d;          // header bytes past the first beat
  logic [2:0]       hk_q, hk_d;          // the header length's index: the payload's shift
  logic [10:0]      out_left_q, out_left_d, pay_left_q, pay_left_d;
  logic             lb_q, lb_d;          // this beat is the packet's last
  logic             need_q, need_d;      // this beat takes a payload beat
  logic [63:0]      cm_q, cm_d;          // its byte mask (0: no payload)
  logic [63:0]      lastm_q, lastm_d;
  logic [63:0]      lastk_q, lastk_d;

  logic             out_free, go, take, ob_ready;
  logic [DW-1:0]    cur, body, cur_m;
  logic [2*DW-1:0]  win;
  logic [KEEP_W_L-1:0] keep;

  always_comb begin
    out_free = ob_ready;
    go       = act_q && out_free && (!need_q || s_axis_payload_tvalid);
    take     = (hold_v_q || s_hdr_valid) && (!act_q || (go && lb_q));
    nx       = hold_v_q ? hold_q : lay;
    s_axis_payload_tready = act_q && out_free && need_q;
    s_hdr_ready = !hold_v_q;
    hold_d   = hold_v_q ? hold_q : lay;
    hold_v_d = (hold_v_q || s_hdr_valid) && !take;

    for (int i = 0; i < KEEP_W_L; i++) cur_m[8*i +: 8] = {8{cm_q[i]}};
    cur  = s_axis_payload_tdata & cur_m;
    // the payload beat at its place behind the header: one of 8 constant
    // shifts (an 8:1 multiplexer per bit), its bytes past the beat carried over
    win  = hk_q[2] ? (hk_q[1] ? (hk_q[0] ? place(cur, 7) : place(cur, 6))
                              : (hk_q[0] ? place(cur, 5) : place(cur, 4)))
                   : (hk_q[1] ? (hk_q[0] ? place(cur, 3) : place(cur, 2))
                              : (hk_q[0] ? place(cur, 1) : place(cur, 0)));
    body = prev_q | win[DW-1:0];
    keep = lb_q ? lastk_q : '1;
  end

  always_comb begin
    act_d      = act_q;
    hfull_d    = hfull_q;
    prev_d     = prev_q;
    hp_d       = hp_q;
    hk_d       = hk_q;
    out_left_d = out_left_q;
    pay_left_d = pay_left_q;
    lb_d       = lb_q;
    need_d     = need_q;
    cm_d       = cm_q;
    lastm_d    = lastm_q;
    lastk_d    = lastk_q;
    if (go) begin
      out_left_d = out_left_q - 11'd1;
      lb_d       = out_left_q == 11'd2;
      if (hfull_q) begin
        // the header-only beat went: the payload comes next (or the header's rest)
        hfull_d = 1'b0;
        prev_d  = DW'(hp_q);
        need_d  = pay_left_q != 11'd0;
        cm_d    = (pay_left_q == 11'd0) ? 64'd0 : (pay_left_q == 11'd1) ? lastm_q : '1;
      end else begin
        prev_d = win[2*DW-1:DW];
        if (need_q) begin
          pay_left_d = pay_left_q - 11'd1;
          need_d     = pay_left_q != 11'd1;
          cm_d       = (pay_left_q == 11'd1) ? 64'd0 : (pay_left_q == 11'd2) ? lastm_q : '1;
        end
      end
      if (lb_q) act_d = 1'b0;
    end
    if (take) begin
      act_d      = 1'b1;
      hfull_d    = nx.hfull;
      prev_d     = nx.hb_lo;
      hp_d       = nx.hb_hi;
      hk_d       = nx.hk;
      out_left_d = nx.out;
      pay_left_d = nx.pay;
      lb_d       = nx.lb;
      need_d     = nx.need;
      cm_d       = nx.cm;
      lastm_d    = nx.lastm;
      lastk_d    = nx.lastk;
    end
  end

  // the frame out, through a register slice (valid, data and keep from flip-flops)
  lib_skid #(.WIDTH(DW + KEEP_W_L + 1)) u_out (
    .clk, .rst, .s_valid(go), .s_ready(ob_ready), .s_data({body, keep, lb_q}),
    .m_valid(m_axis_frame_tvalid), .m_ready(m_axis_frame_tready),
    .m_data({m_axis_frame_tdata, m_axis_frame_tkeep, m_axis_frame_tlast})
  );

  always_ff @(posedge clk) begin
    if (rst) begin
      act_q    <= 1'b0;
      hold_v_q <= 1'b0;
    end else begin
      act_q    <= act_d;
      hold_v_q <= hold_v_d;
    end
    hold_q     <= hold_d;
    hfull_q    <= hfull_d;
    prev_q     <= prev_d;
    hp_q       <= hp_d;
    hk_q       <= hk_d;
    out_left_q <= out_left_d;
    pay_left_q <= pay_left_d;
    lb_q       <= lb_d;
    need_q     <= need_d;
    cm_q       <= cm_d;
    lastm_q    <= lastm_d;
    lastk_q    <= lastk_d;
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
    if (!rst && s_hdr_valid && s_hdr_ready && (hlen[1:0] != 2'd0 || hlen < 6'(roce_pkg::BTH_BYTES) || hlen > 6'd40))
      $error("roce_tx_build: opcode %02h: header length %0d is not one of 12, 16, ..., 40", s_hdr.hdr.bth.opcode, hlen);
    if (!rst && s_hdr_valid && s_hdr_info != roce_pkg::roce_opcode_info(s_hdr.hdr.bth.opcode))
      $error("roce_tx_build: s_hdr_info is not the table row of opcode %02h", s_hdr.hdr.bth.opcode);
    // the header offsets the layout above takes as constants
    if (!rst && s_hdr_valid && s_hdr_ready &&
        ((info.deth && info.off_deth != 6'd12) || (info.reth && info.off_reth != 6'd12) ||
         (info.atomiceth && info.off_atomiceth != 6'd12) || (info.aeth && info.off_aeth != 6'd12) ||
         (info.atomicacketh && info.off_atomicacketh != 6'd16) ||
         (info.immdt && info.off_immdt != (info.reth ? 6'd28 : info.deth ? 6'd20 : 6'd12))))
      $error("roce_tx_build: opcode %02h: a header offset the layout does not know", s_hdr.hdr.bth.opcode);
  end
`endif

endmodule
