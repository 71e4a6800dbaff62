// net_axis_skid: AXI4-Stream register slice with full throughput. Every output
// and s_tready come from registers; one beat per cycle passes with no bubble.
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

  logic [W-1:0] main_q, main_d, skid_q, skid_d, in_w;
  logic         main_v_q, main_v_d, skid_v_q, skid_v_d;

  always_comb begin
    in_w     = {s_axis_tdata, s_axis_tkeep, s_axis_tlast, s_axis_tuser};
    main_d   = main_q;
    main_v_d = main_v_q;
    skid_d   = skid_q;
    skid_v_d = skid_v_q;
    if (m_axis_tready || !main_v_q) begin
      // the output register is free this cycle: refill it
      if (skid_v_q) begin
        main_d   = skid_q;
        main_v_d = 1'b1;
        skid_v_d = 1'b0;
      end else begin
        main_d   = in_w;
        main_v_d = s_axis_tvalid;
      end
    end else if (s_axis_tvalid && !skid_v_q) begin
      // output stalled, the beat accepted this cycle waits in the skid
      skid_d   = in_w;
      skid_v_d = 1'b1;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      main_v_q <= 1'b0;
      skid_v_q <= 1'b0;
    end else begin
      main_v_q <= main_v_d;
      skid_v_q <= skid_v_d;
    end
    main_q <= main_d;
    skid_q <= skid_d;
  end

  assign s_axis_tready = !skid_v_q;
  assign {m_axis_tdata, m_axis_tkeep, m_axis_tlast, m_axis_tuser} = main_q;
  assign m_axis_tvalid = main_v_q;
endmodule
