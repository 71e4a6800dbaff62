// roce_cq_merge: merges NIN CQE streams (completer, responder, refused SQ
// posts) into one completion stream, round robin: after a grant the search
// starts at the next input, so no input starves. One CQE per cycle.
//
// Cycle plan: each input enters a register slice (lib_skid: its ready is a
// flip-flop, so no input's ready depends on any input's valid); the
// arbiter picks among the slices' registered outputs into the output
// register (m_cqe_valid, m_cqe). A CQE takes 2 cycles from input to output.
`default_nettype none

module roce_cq_merge #(
  parameter int NIN = 3,
  parameter int IW  = (NIN > 1) ? $clog2(NIN) : 1
) (
  input  wire logic                              clk,
  input  wire logic                              rst,
  input  wire logic [NIN-1:0]                    s_cqe_valid,
  output logic      [NIN-1:0]                    s_cqe_ready,
  input  wire logic [NIN*roce_qp_pkg::CQE_W-1:0] s_cqe,
  output logic                                   m_cqe_valid,
  input  wire logic                              m_cqe_ready,
  output roce_qp_pkg::cqe_t                      m_cqe
);
  localparam int CW = roce_qp_pkg::CQE_W;

  logic [NIN-1:0]    k_valid, k_ready;
  logic [NIN*CW-1:0] k_cqe;
  for (genvar g = 0; g < NIN; g++) begin : g_in
    lib_skid #(.WIDTH(CW)) u_slice (
      .clk, .rst,
      .s_valid(s_cqe_valid[g]), .s_ready(s_cqe_ready[g]), .s_data(s_cqe[CW*g +: CW]),
      .m_valid(k_valid[g]), .m_ready(k_ready[g]), .m_data(k_cqe[CW*g +: CW])
    );
  end

  logic              v_q, v_d;
  roce_qp_pkg::cqe_t d_q, d_d;
  logic [IW-1:0]     rr_q, rr_d;

  always_comb begin
    logic          take;
    logic          found;
    logic [IW-1:0] idx;
    v_d = v_q;
    d_d = d_q;
    rr_d = rr_q;
    k_ready = '0;
    take  = !v_q || m_cqe_ready;
    found = 1'b0;
    idx   = '0;
    for (int k = 0; k < NIN; k++) begin
      logic [IW:0] i;
      i = {1'b0, rr_q} + (IW+1)'(k);
      if (i >= (IW+1)'(NIN)) i = i - (IW+1)'(NIN);
      if (!found && k_valid[i[IW-1:0]]) begin
        found = 1'b1;
        idx   = i[IW-1:0];
      end
    end
    if (take) begin
      v_d = found;
      if (found) begin
        k_ready[idx] = 1'b1;
        d_d  = k_cqe[CW*idx +: CW];
        rr_d = (idx == IW'(NIN - 1)) ? '0 : idx + IW'(1);
      end
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      v_q  <= 1'b0;
      d_q  <= '0;
      rr_q <= '0;
    end else begin
      v_q  <= v_d;
      d_q  <= d_d;
      rr_q <= rr_d;
    end
  end

  assign m_cqe_valid = v_q;
  assign m_cqe       = d_q;

endmodule
