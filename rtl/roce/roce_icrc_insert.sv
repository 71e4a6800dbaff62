// roce_icrc_insert: TX ICRC insertion.
//
// Input: a whole RoCEv2 frame without its ICRC (Ethernet + IPv4 without
// options + UDP + BTH ... pad, the IPv4/UDP lengths already counting the 4
// ICRC bytes), byte 0 in tdata[7:0], tkeep contiguous, full except on tlast.
// Output: the same frame with the ICRC appended, least significant byte
// first. When the last input beat has more than 60 bytes the ICRC spills into
// one more beat (the frame grows by a beat); the input waits that one cycle.
//
// Cycle by cycle (no bubbles: one beat per cycle in and out):
//   u_in      lib_skid: s_axis_frame_tready from a register; the beat's byte
//             count for the engine worked out on the way in
//   en        the pipeline moves when the output stage is free (from
//             registers only: the stage is empty or u_out takes its word)
//             and no spill beat is due
//   engine    roce_icrc_engine (ICRC_ENGINE_LAT - 1 stages: u_in's registers
//             are its input stage, IN_REG 0) with a delay line of
//             the beats beside it (one enable), so the CRC of a frame is
//             ready when its last beat reaches the end of the delay line;
//             the delay line carries the beat's keep (all ones except on the
//             last beat)
//   m stage   the beat with the ICRC bytes merged in at byte k (k = bytes of
//             the last beat: one-hot edges of the contiguous keep), or the
//             spill beat; keep as a mask, not a count
//   u_out     lib_skid: every m_axis_frame_* from a register
// A frame's first beat leaves ICRC_ENGINE_LAT + 2 cycles after it enters
// (u_in, delay line, m stage, u_out) when nothing waits.
`default_nettype none

module roce_icrc_insert (
  input  wire logic                        clk,
  input  wire logic                        rst,
  input  wire logic [roce_pkg::DATA_W-1:0] s_axis_frame_tdata,
  input  wire logic [roce_pkg::KEEP_W-1:0] s_axis_frame_tkeep,
  input  wire logic                        s_axis_frame_tvalid,
  output logic                             s_axis_frame_tready,
  input  wire logic                        s_axis_frame_tlast,
  output logic [roce_pkg::DATA_W-1:0]      m_axis_frame_tdata,
  output logic [roce_pkg::KEEP_W-1:0]      m_axis_frame_tkeep,
  output logic                             m_axis_frame_tvalid,
  input  wire logic                        m_axis_frame_tready,
  output logic                             m_axis_frame_tlast
);
  localparam int DW  = roce_pkg::DATA_W;
  localparam int KW  = roce_pkg::KEEP_W;
  localparam int LAT = roce_pkg::ICRC_ENGINE_LAT - 1;  // the engine without its input stage (IN_REG 0)
  localparam int IW  = DW + KW + 1;                 // {last, keep, data}

  // Bytes of a contiguous keep (from byte 0): bit b of the count is set when
  // some block of 2^(b+1) bytes holds its lower half and not its upper one;
  // the pairs are independent, so each bit is an OR of two-input terms.
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

  logic          en, beat, in_first_q, in_first_d;
  logic [6:0]    nb;
  logic [KW-1:0] kk;

  // ------------------------------------------------------------ input slice
  logic          i_valid, i_last;
  logic [KW-1:0] i_keep;
  logic [DW-1:0] i_data;
  logic [6:0]    in_nb, i_nb;   // bytes of the beat for the engine, worked out on the way in

  assign in_nb = s_axis_frame_tlast ? keep_count(s_axis_frame_tkeep) : 7'd64;

  lib_skid #(.WIDTH(IW + 7)) u_in (
    .clk     (clk),
    .rst     (rst),
    .s_valid (s_axis_frame_tvalid),
    .s_ready (s_axis_frame_tready),
    .s_data  ({in_nb, s_axis_frame_tlast, s_axis_frame_tkeep, s_axis_frame_tdata}),
    .m_valid (i_valid),
    .m_ready (en),
    .m_data  ({i_nb, i_last, i_keep, i_data})
  );

  // ------------------------------------------------------------ delay line
  logic [LAT-1:0]         dl_v_q, dl_v_d, dl_l_q, dl_l_d;
  logic [KW*LAT-1:0]      dl_k_q, dl_k_d;         // stage i in [KW*i +: KW]
  logic [DW*LAT-1:0]      dl_d_q, dl_d_d;         // stage i in [DW*i +: DW]

  always_comb begin
    beat = i_valid && en;
    kk   = i_last ? i_keep : '1;
    nb   = i_nb;
    in_first_d = in_first_q;
    if (beat) in_first_d = i_last;

    dl_v_d = dl_v_q;
    dl_l_d = dl_l_q;
    dl_k_d = dl_k_q;
    dl_d_d = dl_d_q;
    if (en) begin
      dl_v_d[0]      = beat;
      dl_l_d[0]      = i_last;
      dl_k_d[KW-1:0] = kk;
      dl_d_d[DW-1:0] = i_data;
      for (int i = 1; i < LAT; i++) begin
        dl_v_d[i] = dl_v_q[i-1];
        dl_l_d[i] = dl_l_q[i-1];
        dl_k_d[KW*i +: KW] = dl_k_q[KW*(i-1) +: KW];
        dl_d_d[DW*i +: DW] = dl_d_q[DW*(i-1) +: DW];
      end
    end
  end

  // ------------------------------------------------------------------- CRC
  logic        crc_v;
  logic [31:0] crc_raw;
  /* verilator lint_off UNUSEDSIGNAL */
  logic        crc_tag;     // no tag needed: the delay line carries the beats
  /* verilator lint_on UNUSEDSIGNAL */

  roce_icrc_engine #(.TAG_W(1), .IN_REG(1'b0)) u_engine (
    .clk       (clk),
    .rst       (rst),
    .en        (en),
    .in_valid  (beat),
    .in_data   (i_data),
    .in_first  (in_first_q),
    .in_nbytes (nb),
    .in_last   (i_last),
    .in_tag    (1'b0),
    .out_valid (crc_v),
    .out_crc   (crc_raw),
    .out_tag   (crc_tag)
  );

  // ---------------------------------------------- the beat with its ICRC
  // t_*: the end of the delay line. On the last beat (k bytes, k = 0..64)
  // ICRC byte b goes to byte k + b; those beyond byte 63 spill.
  logic          t_v, t_l;
  logic [DW-1:0] t_d;
  logic [KW-1:0] t_k;
  logic [KW:0]   edge_k;                          // edge_k[i]: k == i
  logic [31:0]   icrc;
  logic [DW-1:0] t_out;
  logic [31:0]   x_crc;
  logic [3:0]    x_keep;

  always_comb begin
    t_v  = dl_v_q[LAT-1];
    t_l  = dl_l_q[LAT-1];
    t_d  = dl_d_q[DW*(LAT-1) +: DW];
    t_k  = dl_k_q[KW*(LAT-1) +: KW];
    icrc = ~crc_raw;                              // zlib CRC, sent LSB first
    edge_k[0]  = !t_k[0];
    for (int i = 1; i < KW; i++) edge_k[i] = t_k[i-1] && !t_k[i];
    edge_k[KW] = t_k[KW-1];
    // a beat before the last has a full keep: no edge below 64, t_out = t_d
    for (int i = 0; i < KW; i++) t_out[8*i +: 8] = t_k[i] ? t_d[8*i +: 8] : 8'd0;
    for (int b = 0; b < 4; b++) begin
      for (int i = b; i < KW; i++) begin
        if (edge_k[i-b]) t_out[8*i +: 8] = t_out[8*i +: 8] | icrc[8*b +: 8];
      end
    end
    // the spill beat: ICRC bytes 64 - k .. 3 (k = 61..64)
    x_crc[31:24] = icrc[31:24];
    x_crc[23:16] = edge_k[63] ? icrc[31:24] : icrc[23:16];
    x_crc[15:8]  = edge_k[62] ? icrc[31:24] : (edge_k[63] ? icrc[23:16] : icrc[15:8]);
    x_crc[7:0]   = edge_k[61] ? icrc[31:24] : (edge_k[62] ? icrc[23:16] :
                   (edge_k[63] ? icrc[15:8] : icrc[7:0]));
    x_keep       = {t_k[63], t_k[62], t_k[61], 1'b1};
  end

  // ---------------------------------------------------------- m stage
  logic          mv_q, mv_d, ml_q, ml_d, xtra_q, xtra_d;
  logic [DW-1:0] md_q, md_d;
  logic [KW-1:0] mk_q, mk_d;
  logic [31:0]   xcrc_q, xcrc_d;                 // spill beat: ICRC bytes still to send (low first)
  logic [3:0]    xk_q, xk_d;
  logic          o_ready, out_free;

  always_comb begin
    out_free = !mv_q || o_ready;
    en       = out_free && !xtra_q;

    mv_d   = mv_q && !o_ready;
    md_d   = md_q;
    mk_d   = mk_q;
    ml_d   = ml_q;
    xtra_d = xtra_q;
    xcrc_d = xcrc_q;
    xk_d   = xk_q;
    if (out_free) begin
      if (xtra_q) begin
        mv_d   = 1'b1;
        md_d   = DW'(xcrc_q);
        mk_d   = KW'(xk_q);
        ml_d   = 1'b1;
        xtra_d = 1'b0;
      end else begin
        mv_d   = t_v;
        md_d   = t_out;
        mk_d   = t_l ? {t_k[KW-5:0], 4'hF} : t_k;
        ml_d   = t_l && !t_k[60];
        xtra_d = t_v && t_l && t_k[60];
        xcrc_d = x_crc;
        xk_d   = x_keep;
      end
    end
  end

  // ---------------------------------------------------------- output slice
  lib_skid #(.WIDTH(IW)) u_out (
    .clk     (clk),
    .rst     (rst),
    .s_valid (mv_q),
    .s_ready (o_ready),
    .s_data  ({ml_q, mk_q, md_q}),
    .m_valid (m_axis_frame_tvalid),
    .m_ready (m_axis_frame_tready),
    .m_data  ({m_axis_frame_tlast, m_axis_frame_tkeep, m_axis_frame_tdata})
  );

  always_ff @(posedge clk) begin
    if (rst) begin
      in_first_q <= 1'b1;
      mv_q       <= 1'b0;
      xtra_q     <= 1'b0;
      dl_v_q     <= '0;
    end else begin
      in_first_q <= in_first_d;
      mv_q       <= mv_d;
      xtra_q     <= xtra_d;
      dl_v_q     <= dl_v_d;
    end
    dl_l_q <= dl_l_d;
    dl_k_q <= dl_k_d;
    dl_d_q <= dl_d_d;
    md_q   <= md_d;
    mk_q   <= mk_d;
    ml_q   <= ml_d;
    xcrc_q <= xcrc_d;
    xk_q   <= xk_d;
  end

`ifndef SYNTHESIS
  roce_axis_assert #(.W(roce_pkg::DATA_W + roce_pkg::KEEP_W + 1)) u_chk_out (
    .clk, .rst, .valid(m_axis_frame_tvalid), .ready(m_axis_frame_tready),
    .payload({m_axis_frame_tdata, m_axis_frame_tkeep, m_axis_frame_tlast}));
`endif

`ifndef SYNTHESIS
  // the CRC comes out exactly with the frame's last beat
  always_ff @(posedge clk) begin
    if (!rst && en && (crc_v != (t_v && t_l)))
      $error("roce_icrc_insert: CRC result %0b out of step with last beat %0b", crc_v, t_v && t_l);
  end
`endif

endmodule
