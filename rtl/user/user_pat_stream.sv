// user_pat_stream: answers read requests (address, length) of the transport
// with the data of user_pat_gen for those addresses: ceil(len/64) beats per
// request, in order, m_last on the last, the same bytes however often an
// address is asked for (a retransmission, a duplicate READ). One request at a
// time: its beats enter the generator one a cycle while the output moves;
// the next request is taken after its last beat has entered. Addresses must be
// 64-byte aligned; a request that is not is answered all the same (with the
// data of its aligned blocks) and counted in `unaligned`. Used by user_source
// (a WRITE's payload) and user_examples (READ responses from a streaming MR).
`default_nettype none

module user_pat_stream (
  input  wire logic        clk,
  input  wire logic        rst,
  input  wire logic        mode,
  input  wire logic [63:0] seed,
  output logic [31:0]      unaligned,
  input  wire logic        s_req_valid,
  output logic             s_req_ready,
  input  wire logic [63:0] s_req_addr,
  input  wire logic [31:0] s_req_len,
  output logic             m_valid,
  input  wire logic        m_ready,
  output logic [511:0]     m_data,
  output logic             m_last
);
  // One request at a time: its beats enter the generator one a cycle while
  // the pipeline moves; the next request is taken after its last beat.
  logic        en;
  logic        act_q, act_d;          // a request is being generated
  logic [57:0] blk_q, blk_d;
  logic [26:0] left_q, left_d;        // beats still to enter, minus one
  logic [31:0] unal_q, unal_d;
  logic        g_in_v, g_in_last;
  logic [26:0] req_beats;             // ceil(len / 64), minus one (len 0 never comes)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [32:0] len_up;                // len + 63 (its low bits are dropped)
  /* verilator lint_on UNUSEDSIGNAL */

  assign en = !m_valid || m_ready;

  always_comb begin
    act_d     = act_q;
    blk_d     = blk_q;
    left_d    = left_q;
    unal_d    = unal_q;
    len_up    = {1'b0, s_req_len} + 33'd63;
    req_beats = len_up[32:6] - 27'd1;
    g_in_v    = act_q && en;
    g_in_last = left_q == '0;
    s_req_ready = !act_q;
    if (g_in_v) begin
      blk_d  = blk_q + 58'd1;
      left_d = left_q - 27'd1;
      if (g_in_last) act_d = 1'b0;
    end
    if (s_req_valid && !act_q) begin
      act_d  = 1'b1;
      blk_d  = s_req_addr[63:6];
      left_d = req_beats;
      if (s_req_addr[5:0] != 6'd0) unal_d = unal_q + 32'd1;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      act_q  <= 1'b0;
      unal_q <= '0;
    end else begin
      act_q  <= act_d;
      unal_q <= unal_d;
    end
    blk_q  <= blk_d;
    left_q <= left_d;
  end

  assign unaligned = unal_q;

  user_pat_gen #(.SIDE_W(1)) u_gen (
    .clk, .rst, .en,
    .in_valid(g_in_v), .in_blk(blk_q), .in_side(g_in_last),
    .mode(mode), .seed(seed),
    .out_valid(m_valid), .out_side(m_last), .out_data(m_data)
  );
endmodule
