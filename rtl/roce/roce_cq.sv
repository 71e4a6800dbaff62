// roce_cq: the completion queue the firmware pops: a FIFO of DEPTH CQEs
// (lib_fifo: block RAM, registered output). cq_valid/cq_entry show the
// oldest CQE, cq_pop (one cycle) removes it, cq_count says how many are held
// (counted from the cycle after the push; cq_valid follows one cycle later,
// when the CQE is in the output register). When full, the input waits (the
// completion stream back-pressures the engines; nothing is lost). Every
// output comes from a flip-flop (s_cqe_ready through one LUT).
`default_nettype none

module roce_cq #(
  parameter int DEPTH = 256,
  parameter int AW    = $clog2(DEPTH)
) (
  input  wire logic              clk,
  input  wire logic              rst,
  input  wire logic              s_cqe_valid,
  output logic                   s_cqe_ready,
  input  wire roce_qp_pkg::cqe_t s_cqe,
  output logic                   cq_valid,
  output roce_qp_pkg::cqe_t      cq_entry,
  input  wire logic              cq_pop,
  output logic [AW:0]            cq_count
);
  if ((1 << AW) != DEPTH) begin : g_bad_depth
    $error("roce_cq: DEPTH must be a power of two");
  end

  lib_fifo #(.WIDTH(roce_qp_pkg::CQE_W), .DEPTH(DEPTH)) u_fifo (
    .clk, .rst,
    .s_valid(s_cqe_valid), .s_ready(s_cqe_ready), .s_data(s_cqe),
    .m_valid(cq_valid), .m_ready(cq_pop), .m_data(cq_entry), .count(cq_count)
  );
endmodule
