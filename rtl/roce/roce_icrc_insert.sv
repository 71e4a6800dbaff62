// roce_icrc_insert: TX ICRC insertion.
//
// Input: a whole RoCEv2 frame without its ICRC (Ethernet + IPv4 without
// options + UDP + BTH ... pad, the IPv4/UDP lengths already counting the 4
// ICRC bytes), byte 0 in tdata[7:0], tkeep contiguous, full except on tlast.
// Output: the same frame with the ICRC appended, least significant byte
// first. When the last input beat has more than 60 bytes the ICRC spills into
// one more beat (the frame grows by a beat); the input waits that one cycle.
//
// The frame runs through a delay line as long as roce_icrc_engine, in
// lockstep with it (one enable), so the CRC of the frame is ready when its
// last beat reaches the output. Otherwise one beat per cycle, no bubbles.
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
  localparam int LAT = roce_pkg::ICRC_ENGINE_LAT;

  logic          en, beat, in_first_q, in_first_d;
  logic [6:0]    nb;

  // ------------------------------------------------------------ delay line
  logic [LAT-1:0]         dl_v_q, dl_v_d, dl_l_q, dl_l_d;
  logic [7*LAT-1:0]       dl_n_q, dl_n_d;         // stage i in [7*i +: 7]
  logic [DW*LAT-1:0]      dl_d_q, dl_d_d;         // stage i in [DW*i +: DW]

  always_comb begin
    dl_v_d = dl_v_q;
    dl_l_d = dl_l_q;
    dl_n_d = dl_n_q;
    dl_d_d = dl_d_q;
    if (en) begin
      dl_v_d[0] = beat;
      dl_l_d[0] = s_axis_frame_tlast;
      dl_n_d[6:0]    = nb;
      dl_d_d[DW-1:0] = s_axis_frame_tdata;
      for (int i = 1; i < LAT; i++) begin
        dl_v_d[i] = dl_v_q[i-1];
        dl_l_d[i] = dl_l_q[i-1];
        dl_n_d[7*i +: 7]   = dl_n_q[7*(i-1) +: 7];
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

  roce_icrc_engine #(.TAG_W(1)) u_engine (
    .clk       (clk),
    .rst       (rst),
    .en        (en),
    .in_valid  (beat),
    .in_data   (s_axis_frame_tdata),
    .in_first  (in_first_q),
    .in_nbytes (nb),
    .in_last   (s_axis_frame_tlast),
    .in_tag    (1'b0),
    .out_valid (crc_v),
    .out_crc   (crc_raw),
    .out_tag   (crc_tag)
  );

  // ---------------------------------------------------------------- output
  logic          mv_q, mv_d, ml_q, ml_d, xtra_q, xtra_d;
  logic [DW-1:0] md_q, md_d;
  logic [6:0]    mn_q, mn_d;
  logic [31:0]   xcrc_q, xcrc_d;                 // ICRC bytes still to send (low first)
  logic [2:0]    xn_q, xn_d;
  logic          out_free;
  logic [31:0]   icrc;
  logic [DW-1:0] tail_v;
  logic [6:0]    k;
  logic          t_v, t_l;
  logic [DW-1:0] t_d;

  always_comb begin
    nb       = s_axis_frame_tlast ? roce_pkg::roce_keep_count(s_axis_frame_tkeep) : 7'd64;
    out_free = !mv_q || m_axis_frame_tready;
    // the pipeline moves when the output takes its beat and no spill is due
    en       = out_free && !xtra_q;
    s_axis_frame_tready = en;
    beat     = s_axis_frame_tvalid && en;
    in_first_d = in_first_q;
    if (beat) in_first_d = s_axis_frame_tlast;

    t_v  = dl_v_q[LAT-1];
    t_l  = dl_l_q[LAT-1];
    t_d  = dl_d_q[DW*(LAT-1) +: DW];
    k    = dl_n_q[7*(LAT-1) +: 7];
    icrc = ~crc_raw;                             // zlib CRC, sent LSB first
    // ICRC bytes at byte k of the beat (those beyond byte 63 spill)
    tail_v = DW'(icrc) << {k, 3'd0};

    mv_d   = mv_q && !m_axis_frame_tready;
    md_d   = md_q;
    mn_d   = mn_q;
    ml_d   = ml_q;
    xtra_d = xtra_q;
    xcrc_d = xcrc_q;
    xn_d   = xn_q;
    if (out_free) begin
      if (xtra_q) begin
        mv_d   = 1'b1;
        md_d   = DW'(xcrc_q);
        mn_d   = {4'd0, xn_q};
        ml_d   = 1'b1;
        xtra_d = 1'b0;
      end else if (t_v) begin
        mv_d = 1'b1;
        md_d = t_d;
        mn_d = t_l ? ((k > 7'd60) ? 7'd64 : k + 7'd4) : k;
        ml_d = t_l && (k <= 7'd60);
        if (t_l) begin
          md_d = (t_d & roce_pkg::roce_bytes_first(k)) | tail_v;
          if (k > 7'd60) begin
            xtra_d = 1'b1;
            xcrc_d = icrc >> {7'd64 - k, 3'd0};
            xn_d   = 3'(k - 7'd60);
          end
        end
      end
    end
  end

  assign m_axis_frame_tvalid = mv_q;
  assign m_axis_frame_tdata  = md_q;
  assign m_axis_frame_tkeep  = roce_pkg::roce_keep_first(mn_q);
  assign m_axis_frame_tlast  = ml_q;

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
    dl_n_q <= dl_n_d;
    dl_d_q <= dl_d_d;
    md_q   <= md_d;
    mn_q   <= mn_d;
    ml_q   <= ml_d;
    xcrc_q <= xcrc_d;
    xn_q   <= xn_d;
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
