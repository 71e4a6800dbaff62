// roce_cq: the completion queue the firmware pops: a FIFO of DEPTH CQEs.
// cq_valid/cq_entry show the oldest CQE, cq_pop (one cycle) removes it,
// cq_count says how many wait. When full, the input waits (the completion
// stream back-pressures the engines; nothing is lost).
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
  roce_fifo #(.WIDTH(roce_qp_pkg::CQE_W), .DEPTH(DEPTH)) u_fifo (
    .clk, .rst,
    .in_valid(s_cqe_valid), .in_ready(s_cqe_ready), .in_data(s_cqe),
    .out_valid(cq_valid), .out_ready(cq_pop), .out_data(cq_entry), .count(cq_count)
  );
endmodule
