// lib_skid: valid/ready register slice (rtl/lib: primitives every block shares) with full throughput. m_* and s_ready
// come from registers, so it cuts every combinational path between the two
// sides; one word per cycle passes with no bubble.
`default_nettype none

module lib_skid #(
  parameter int unsigned WIDTH = 8
) (
  input  wire logic             clk,
  input  wire logic             rst,
  input  wire logic             s_valid,
  output logic                  s_ready,
  input  wire logic [WIDTH-1:0] s_data,
  output logic                  m_valid,
  input  wire logic             m_ready,
  output logic [WIDTH-1:0]      m_data
);
  logic [WIDTH-1:0] main_q, main_d, skid_q, skid_d;
  logic             main_v_q, main_v_d, skid_v_q, skid_v_d;

  always_comb begin
    main_d   = main_q;
    main_v_d = main_v_q;
    skid_d   = skid_q;
    skid_v_d = skid_v_q;
    if (m_ready || !main_v_q) begin
      // the output register is free: refill it, from the skid first
      if (skid_v_q) begin
        main_d   = skid_q;
        main_v_d = 1'b1;
        skid_v_d = 1'b0;
      end else begin
        main_d   = s_data;
        main_v_d = s_valid;
      end
    end else if (s_valid && !skid_v_q) begin
      // output stalled: the word accepted this cycle waits in the skid
      skid_d   = s_data;
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

  assign s_ready = !skid_v_q;
  assign m_valid = main_v_q;
  assign m_data  = main_q;
endmodule
