// net_tx_build: prepends the Ethernet/IPv4/UDP header (42 bytes) built from a
// net_pkg::tx_hdr_t to a payload stream (for RoCE: BTH ... ICRC).
//
// One header per frame on s_hdr (valid/ready), taken when the frame's first
// beat goes out. Output beat 0 = header + payload bytes 0..21; beat k = payload
// bytes 64k-42 .. 64k+21, so each output beat mixes two input beats, and a
// frame whose last payload beat holds more than 22 bytes takes one extra
// output beat. With the header and the payload always valid and m_axis_tx
// always ready, an output beat leaves every cycle (no bubble, also across
// frames). Latency: first output beat one cycle after header and payload are
// both valid. The payload must have a contiguous tkeep and at least one byte.
// len_err pulses (one cycle) when a frame's payload length differs from the
// header's payload_len; the frame is sent as the stream gives it.
`default_nettype none

module net_tx_build (
  input  wire logic                         clk,
  input  wire logic                         rst,
  input  wire logic                         s_hdr_valid,
  output logic                              s_hdr_ready,
  input  wire net_pkg::tx_hdr_t             s_hdr,
  input  wire logic [net_pkg::DATA_W-1:0]   s_axis_payload_tdata,
  input  wire logic [net_pkg::KEEP_W-1:0]   s_axis_payload_tkeep,
  input  wire logic                         s_axis_payload_tvalid,
  output logic                              s_axis_payload_tready,
  input  wire logic                         s_axis_payload_tlast,
  output logic [net_pkg::DATA_W-1:0]        m_axis_tx_tdata,
  output logic [net_pkg::KEEP_W-1:0]        m_axis_tx_tkeep,
  output logic                              m_axis_tx_tvalid,
  input  wire logic                         m_axis_tx_tready,
  output logic                              m_axis_tx_tlast,
  output logic                              len_err
);
  localparam int unsigned DW = net_pkg::DATA_W;
  localparam int unsigned KW = net_pkg::KEEP_W;
  localparam int unsigned HB = net_pkg::NET_HDR_BYTES;   // 42
  localparam int unsigned SB = KW - HB;                   // 22 payload bytes in beat 0

  typedef enum logic [1:0] {ST_FIRST, ST_BODY, ST_TAIL} st_e;

  st_e            st_q, st_d;
  logic           hb_v_q, hb_v_d;
  logic [8*HB-1:0] hb_q, hb_d;          // header bytes, byte 0 in [7:0]
  logic [15:0]    plen_q, plen_d;       // header's payload_len of the queued header
  logic [15:0]    fplen_q, fplen_d;     // payload_len of the frame being sent
  logic [15:0]    cnt_q, cnt_d;         // payload bytes of the frame so far
  logic [8*HB-1:0] carry_q, carry_d;    // payload bytes 22..63 of the last beat
  logic [HB-1:0]  carry_k_q, carry_k_d;
  logic           out_v_q, out_v_d, out_last_q, out_last_d;
  logic [DW-1:0]  out_data_q, out_data_d;
  logic [KW-1:0]  out_keep_q, out_keep_d;
  logic           len_err_q, len_err_d;

  logic           out_free, produce, take_pay, hdr_used;
  logic [6:0]     nb;
  logic [15:0]    tot;

  always_comb begin
    nb = '0;
    for (int i = 0; i < KW; i++) begin
      nb = nb + 7'(s_axis_payload_tkeep[i]);
    end

    out_free  = !out_v_q || m_axis_tx_tready;
    produce   = 1'b0;
    take_pay  = 1'b0;
    hdr_used  = 1'b0;
    st_d      = st_q;
    carry_d   = carry_q;
    carry_k_d = carry_k_q;
    out_data_d = out_data_q;
    out_keep_d = out_keep_q;
    out_last_d = out_last_q;
    fplen_d   = fplen_q;
    cnt_d     = cnt_q;
    len_err_d = 1'b0;
    tot       = '0;

    unique case (st_q)
      ST_FIRST: begin
        if (out_free && hb_v_q && s_axis_payload_tvalid) begin
          produce    = 1'b1;
          take_pay   = 1'b1;
          hdr_used   = 1'b1;
          out_data_d = {s_axis_payload_tdata[8*SB-1:0], hb_q};
          out_keep_d = {s_axis_payload_tkeep[SB-1:0], {HB{1'b1}}};
          fplen_d    = plen_q;
          tot        = 16'(nb);
        end
      end
      ST_BODY: begin
        if (out_free && s_axis_payload_tvalid) begin
          produce    = 1'b1;
          take_pay   = 1'b1;
          out_data_d = {s_axis_payload_tdata[8*SB-1:0], carry_q};
          out_keep_d = {s_axis_payload_tkeep[SB-1:0], carry_k_q};
          tot        = cnt_q + 16'(nb);
        end
      end
      ST_TAIL: begin
        if (out_free) begin
          produce    = 1'b1;
          out_data_d = {{(8*SB){1'b0}}, carry_q};
          out_keep_d = {{SB{1'b0}}, carry_k_q};
          out_last_d = 1'b1;
          st_d       = ST_FIRST;
        end
      end
      default: st_d = ST_FIRST;
    endcase

    if (take_pay) begin
      carry_d    = s_axis_payload_tdata[DW-1:8*SB];
      carry_k_d  = s_axis_payload_tkeep[KW-1:SB];
      cnt_d      = tot;
      out_last_d = 1'b0;
      st_d       = ST_BODY;
      if (s_axis_payload_tlast) begin
        len_err_d = tot != (st_q == ST_FIRST ? plen_q : fplen_q);
        if (s_axis_payload_tkeep[SB]) begin
          st_d = ST_TAIL;                  // bytes left over: one more beat
        end else begin
          out_last_d = 1'b1;
          st_d       = ST_FIRST;
        end
      end
    end

    out_v_d = produce || (out_v_q && !m_axis_tx_tready);

    s_axis_payload_tready = out_free && ((st_q == ST_FIRST && hb_v_q) || st_q == ST_BODY);
    s_hdr_ready = !hb_v_q || hdr_used;
    hb_v_d = hb_v_q && !hdr_used;
    hb_d   = hb_q;
    plen_d = plen_q;
    if (s_hdr_valid && s_hdr_ready) begin
      hb_v_d = 1'b1;
      hb_d   = net_pkg::hdr_to_bytes(net_pkg::tx_hdr_fill(s_hdr));
      plen_d = s_hdr.payload_len;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q      <= ST_FIRST;
      hb_v_q    <= 1'b0;
      out_v_q   <= 1'b0;
      len_err_q <= 1'b0;
    end else begin
      st_q      <= st_d;
      hb_v_q    <= hb_v_d;
      out_v_q   <= out_v_d;
      len_err_q <= len_err_d;
    end
    hb_q       <= hb_d;
    plen_q     <= plen_d;
    fplen_q    <= fplen_d;
    cnt_q      <= cnt_d;
    carry_q    <= carry_d;
    carry_k_q  <= carry_k_d;
    out_data_q <= out_data_d;
    out_keep_q <= out_keep_d;
    out_last_q <= out_last_d;
  end

  assign m_axis_tx_tdata  = out_data_q;
  assign m_axis_tx_tkeep  = out_keep_q;
  assign m_axis_tx_tvalid = out_v_q;
  assign m_axis_tx_tlast  = out_last_q;
  assign len_err          = len_err_q;

`ifndef SYNTHESIS
  // handshake rule: a presented beat stays until taken
  logic past_stall_q;
  always_ff @(posedge clk) begin
    past_stall_q <= !rst && m_axis_tx_tvalid && !m_axis_tx_tready;
    if (past_stall_q && !m_axis_tx_tvalid) $error("net_tx_build: tvalid dropped while stalled");
  end
`endif
endmodule
