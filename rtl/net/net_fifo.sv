// net_fifo: first-word-fall-through FIFO with a registered output, used for
// the RX output queues (frame beats and parsed headers).
//
// `count` is the number of words written and not yet handed out on m_*
// (words in the memory plus the output register), so DEPTH - count words can
// be written without overflow. The writer must respect that: a write into a
// full FIFO is a bug (asserted in simulation). Latency: a word written at one
// clock edge is on m_data after the next edge.
`default_nettype none

module net_fifo #(
  parameter int unsigned WIDTH = 8,
  parameter int unsigned DEPTH = 16   // power of two, >= 2
) (
  input  wire logic                       clk,
  input  wire logic                       rst,
  input  wire logic                       wr_en,
  input  wire logic [WIDTH-1:0]           wr_data,
  output logic                            m_valid,
  input  wire logic                       m_ready,
  output logic [WIDTH-1:0]                m_data,
  output logic [$clog2(DEPTH+1)-1:0]      count
);
  localparam int unsigned AW = $clog2(DEPTH);
  localparam int unsigned CW = $clog2(DEPTH + 1);

  if (DEPTH < 2 || (1 << AW) != DEPTH) begin : g_bad_depth
    $error("net_fifo: DEPTH must be a power of two >= 2");
  end

  logic [WIDTH-1:0] mem_q [DEPTH];
  logic [AW:0]      wr_ptr_q, wr_ptr_d;
  logic [AW:0]      rd_ptr_q, rd_ptr_d;
  logic             out_v_q, out_v_d;
  logic [WIDTH-1:0] out_q;
  logic [CW-1:0]    count_q, count_d;
  logic             load;

  always_comb begin
    load     = (rd_ptr_q != wr_ptr_q) && (!out_v_q || m_ready);
    wr_ptr_d = wr_ptr_q + (AW+1)'(wr_en);
    rd_ptr_d = rd_ptr_q + (AW+1)'(load);
    out_v_d  = load || (out_v_q && !m_ready);
    count_d  = count_q + CW'(wr_en) - CW'(out_v_q && m_ready);
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      wr_ptr_q <= '0;
      rd_ptr_q <= '0;
      out_v_q  <= 1'b0;
      count_q  <= '0;
    end else begin
      wr_ptr_q <= wr_ptr_d;
      rd_ptr_q <= rd_ptr_d;
      out_v_q  <= out_v_d;
      count_q  <= count_d;
    end
  end

  // Memory: write port and registered read port in the block-RAM template
  // form (the enable sits in the always_ff so synthesis infers a RAM).
  always_ff @(posedge clk) begin
    if (wr_en) mem_q[wr_ptr_q[AW-1:0]] <= wr_data;
  end
  always_ff @(posedge clk) begin
    if (load) out_q <= mem_q[rd_ptr_q[AW-1:0]];
  end

  assign m_valid = out_v_q;
  assign m_data  = out_q;
  assign count   = count_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk) begin
    if (!rst && wr_en && count_q == CW'(DEPTH) && !(out_v_q && m_ready)) begin
      $error("net_fifo: write into a full FIFO");
    end
  end
`endif
endmodule
