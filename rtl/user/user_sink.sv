// user_sink: an example of user logic (docs/user-logic.md, "Examples"): it
// checks the data that arrives on the receive-data stream (m_urx_* of the
// transport: the WRITE / SEND payloads whose MR is a streaming MR) and counts
// it.
//
// Every beat is compared with user_pat_gen's data for its addresses (the
// chunk's address + 64 per beat; pattern or counter, `cfg_mode`,
// `cfg_seed`, as user_source makes it): a beat with any kept byte that
// differs counts in bad_beats, the first one's address is kept. Chunks must
// be 64-byte aligned (else counted in unaligned and not compared) and follow
// each other within a message (a chunk that is not the first of its message
// and does not start where the previous chunk ended counts in gaps; this
// assumes one QP streams into the sink at a time). Counts: chunks, messages
// (chunks marked the last of their message), bytes, and cycles from the first
// beat to the last beat since `clear`. The sink takes every beat at once
// (ready is always high): it never stalls the transport.
`default_nettype none

module user_sink (
  input  wire logic         clk,
  input  wire logic         rst,
  input  wire logic         clear,
  input  wire logic         cfg_mode,
  input  wire logic [63:0]  cfg_seed,
  output logic [31:0]       chunks,
  output logic [31:0]       messages,
  output logic [63:0]       bytes,
  output logic [31:0]       bad_beats,
  output logic              first_bad_valid,
  output logic [63:0]       first_bad_addr,
  output logic [31:0]       gaps,
  output logic [31:0]       unaligned,
  output logic [31:0]       cycles,
  // the transport's receive-data stream (m_urx_*)
  input  wire logic         s_urx_valid,
  output logic              s_urx_ready,
  input  wire logic [511:0] s_urx_data,
  input  wire logic [63:0]  s_urx_keep,
  input  wire logic         s_urx_last,
  input  wire logic [63:0]  s_urx_addr,
  input  wire logic [31:0]  s_urx_len,
  input  wire logic         s_urx_first,
  input  wire logic         s_urx_msg_last
);
  // ---------------------------------------------------- input register
  logic         i_v_q, i_last_q, i_first_q, i_msg_last_q, i_head_q;
  logic [511:0] i_data_q;
  logic [63:0]  i_keep_q, i_addr_q;
  logic [31:0]  i_len_q;
  logic         head_q;              // the next beat is a chunk's first
  logic [57:0]  i_blk_q;             // the registered beat's block (address / 64)

  always_ff @(posedge clk) begin
    if (rst) begin
      i_v_q  <= 1'b0;
      head_q <= 1'b1;
    end else begin
      i_v_q <= s_urx_valid;
      if (s_urx_valid) head_q <= s_urx_last;
    end
    i_data_q     <= s_urx_data;
    i_keep_q     <= s_urx_keep;
    i_last_q     <= s_urx_last;
    i_first_q    <= s_urx_first;
    i_msg_last_q <= s_urx_msg_last;
    i_addr_q     <= s_urx_addr;
    i_len_q      <= s_urx_len;
    i_head_q     <= head_q;
    if (s_urx_valid) i_blk_q <= head_q ? s_urx_addr[63:6] : i_blk_q + 58'd1;
  end
  assign s_urx_ready = 1'b1;

  // ------------------------------------- chunk checks (at a chunk's first beat)
  logic [63:0] expect_q;             // where the next chunk of the message starts
  logic [31:0] chunks_q, msgs_q, gaps_q, unal_q, cycles_q, run_q, bad_q;
  logic [63:0] bytes_q, fba_q;
  logic        fbv_q, seen_q;
  logic        unal_chunk_q;          // the chunk in progress is not aligned
  logic        gchk_q, gne_q;         // a chunk to check for a gap; its address differs

  // generator sideband: keep, data, block, unaligned
  localparam int SW = 64 + 512 + 58 + 1;
  logic          c_v;
  logic [SW-1:0] c_side;
  logic [511:0]  c_pat;
  logic          g_unal;
  assign g_unal = i_head_q ? (i_addr_q[5:0] != 6'd0) : unal_chunk_q;

  user_pat_gen #(.SIDE_W(SW)) u_gen (
    .clk, .rst, .en(1'b1),
    .in_valid(i_v_q), .in_blk(i_blk_q), .in_side({i_keep_q, i_data_q, i_blk_q, g_unal}),
    .mode(cfg_mode), .seed(cfg_seed),
    .out_valid(c_v), .out_side(c_side), .out_data(c_pat)
  );

  // compare: C1 mismatching bytes, C2 any
  logic         c1_v_q, c1_unal_q;
  logic [63:0]  c1_mis_q;
  logic [57:0]  c1_blk_q;
  always_ff @(posedge clk) begin
    if (rst) c1_v_q <= 1'b0;
    else     c1_v_q <= c_v;
    for (int b = 0; b < 64; b++)
      c1_mis_q[b] <= c_side[SW-1-63+b] && (c_side[1+58+8*b +: 8] != c_pat[8*b +: 8]);
    c1_blk_q  <= c_side[58:1];
    c1_unal_q <= c_side[0];
  end

  logic c2_v_q, c2_bad_q;
  logic [57:0] c2_blk_q;
  always_ff @(posedge clk) begin
    if (rst) c2_v_q <= 1'b0;
    else     c2_v_q <= c1_v_q;
    c2_bad_q <= !c1_unal_q && (c1_mis_q != 64'd0);
    c2_blk_q <= c1_blk_q;
  end

  always_ff @(posedge clk) begin
    if (rst || clear) begin
      chunks_q <= '0;
      msgs_q   <= '0;
      gaps_q   <= '0;
      unal_q   <= '0;
      cycles_q <= '0;
      run_q    <= '0;
      bad_q    <= '0;
      bytes_q  <= '0;
      fbv_q    <= 1'b0;
      seen_q   <= 1'b0;
    end else begin
      if (i_v_q) begin
        seen_q   <= 1'b1;
        cycles_q <= run_q;
        if (i_head_q) begin
          if (i_addr_q[5:0] != 6'd0) unal_q <= unal_q + 32'd1;
        end
        if (i_last_q) begin
          chunks_q <= chunks_q + 32'd1;
          bytes_q  <= bytes_q + {32'd0, i_len_q};
          if (i_msg_last_q) msgs_q <= msgs_q + 32'd1;
        end
      end
      // cycles: from the first beat to the last one seen (run_q counts from the first)
      if (seen_q || i_v_q) run_q <= run_q + 32'd1;
      if (gchk_q && gne_q) gaps_q <= gaps_q + 32'd1;
      if (c2_v_q && c2_bad_q) begin
        bad_q <= bad_q + 32'd1;
        if (!fbv_q) begin
          fbv_q <= 1'b1;
          fba_q <= {c2_blk_q, 6'd0};
        end
      end
    end
    gchk_q <= i_v_q && i_head_q && !i_first_q && !clear;
    gne_q  <= i_addr_q != expect_q;
    if (i_v_q && i_head_q) begin
      expect_q     <= i_addr_q + {32'd0, i_len_q};
      unal_chunk_q <= i_addr_q[5:0] != 6'd0;
    end
  end

  assign chunks          = chunks_q;
  assign messages        = msgs_q;
  assign bytes           = bytes_q;
  assign bad_beats       = bad_q;
  assign first_bad_valid = fbv_q;
  assign first_bad_addr  = fba_q;
  assign gaps            = gaps_q;
  assign unaligned       = unal_q;
  assign cycles          = cycles_q;
endmodule
