// net_axis_skid: AXI4-Stream register slice with full throughput (lib_skid on
// the packed beat). Every output and s_tready come from registers; one beat per
// cycle passes with no bubble.
`default_nettype none

module net_axis_skid #(
  parameter int unsigned DATA_W = 512,
  parameter int unsigned USER_W = 1
) (
  input  wire logic                  clk,
  input  wire logic                  rst,
  input  wire logic [DATA_W-1:0]     s_axis_tdata,
  input  wire logic [DATA_W/8-1:0]   s_axis_tkeep,
  input  wire logic                  s_axis_tvalid,
  output logic                       s_axis_tready,
  input  wire logic                  s_axis_tlast,
  input  wire logic [USER_W-1:0]     s_axis_tuser,
  output logic [DATA_W-1:0]          m_axis_tdata,
  output logic [DATA_W/8-1:0]        m_axis_tkeep,
  output logic                       m_axis_tvalid,
  input  wire logic                  m_axis_tready,
  output logic                       m_axis_tlast,
  output logic [USER_W-1:0]          m_axis_tuser
);
  localparam int unsigned W = DATA_W + DATA_W/8 + 1 + USER_W;

  // the register slice itself is rtl/lib/lib_skid.sv; this packs the stream
  lib_skid #(.WIDTH(W)) u_slice (
    .clk, .rst,
    .s_valid(s_axis_tvalid), .s_ready(s_axis_tready),
    .s_data({s_axis_tdata, s_axis_tkeep, s_axis_tlast, s_axis_tuser}),
    .m_valid(m_axis_tvalid), .m_ready(m_axis_tready),
    .m_data({m_axis_tdata, m_axis_tkeep, m_axis_tlast, m_axis_tuser})
  );
endmodule
