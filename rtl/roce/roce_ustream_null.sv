// roce_ustream_null: the answer of absent user logic to a streaming MR's
// read requests (m_urd_req_* / s_urd_*, m_utx_req_* / s_utx_*,
// docs/user-logic.md): each request taken is answered with ceil(len / 64)
// beats of zero bytes, the last one flagged, so a READ of a streaming MR or
// a WRITE from one completes (with zeros) instead of waiting for ever. The
// tie-off of sim/sim_nic.sv and boards/common/rtl/board_nic.sv; the data
// itself is tied to zero there. Outputs from registers.
`default_nettype none

module roce_ustream_null (
  input  wire logic        clk,
  input  wire logic        rst,
  input  wire logic        s_req_valid,
  output logic             s_req_ready,
  input  wire logic [31:0] s_req_len,
  output logic             m_valid,
  input  wire logic        m_ready,
  output logic             m_last
);
  logic        busy_q, busy_d, rdy_q, rdy_d, last_q, last_d;
  logic [25:0] left_q, left_d;     // beats after the one presented

  always_comb begin
    busy_d = busy_q;
    left_d = left_q;
    last_d = last_q;
    if (s_req_valid && rdy_q) begin
      // (the requests never have length 0: the engines issue no 0-byte payload read)
      busy_d = 1'b1;
      left_d = s_req_len[31:6] - 26'(s_req_len[5:0] == 6'd0);
      last_d = s_req_len[31:7] == '0 && (!s_req_len[6] || s_req_len[5:0] == 6'd0);
    end else if (busy_q && m_ready) begin
      busy_d = !last_q;
      left_d = left_q - 26'd1;
      last_d = left_q == 26'd1;
    end
    rdy_d = !busy_d;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      busy_q <= 1'b0;
      rdy_q  <= 1'b0;
    end else begin
      busy_q <= busy_d;
      rdy_q  <= rdy_d;
    end
    left_q <= left_d;
    last_q <= last_d;
  end

  assign s_req_ready = rdy_q;
  assign m_valid     = busy_q;
  assign m_last      = last_q;
endmodule
