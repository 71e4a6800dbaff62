// net_tx_arbiter: merges the RoCE and the management TX streams (full
// Ethernet frames) into the MAC's TX stream, whole frames at a time.
// Round robin per frame: when both have a frame waiting, the source that did
// not send the previous frame goes next, so neither starves. The grant for the
// next frame is made in the cycle after the previous tlast, from the inputs'
// tvalid alone, so frames from either source follow back to back with no
// bubble. Once a source's beat is presented the grant is held until that
// frame's tlast has been taken. Each input and the output pass a register
// slice (net_axis_skid), so the input readies and every output come from
// flip-flops and the grant works on registered beats: latency two cycles,
// one beat per cycle.
`default_nettype none

module net_tx_arbiter #(
  parameter int unsigned USER_W = 1
) (
  input  wire logic                         clk,
  input  wire logic                         rst,
  input  wire logic [net_pkg::DATA_W-1:0]   s_axis_roce_tdata,
  input  wire logic [net_pkg::KEEP_W-1:0]   s_axis_roce_tkeep,
  input  wire logic                         s_axis_roce_tvalid,
  output logic                              s_axis_roce_tready,
  input  wire logic                         s_axis_roce_tlast,
  input  wire logic [USER_W-1:0]            s_axis_roce_tuser,
  input  wire logic [net_pkg::DATA_W-1:0]   s_axis_mgmt_tdata,
  input  wire logic [net_pkg::KEEP_W-1:0]   s_axis_mgmt_tkeep,
  input  wire logic                         s_axis_mgmt_tvalid,
  output logic                              s_axis_mgmt_tready,
  input  wire logic                         s_axis_mgmt_tlast,
  input  wire logic [USER_W-1:0]            s_axis_mgmt_tuser,
  output logic [net_pkg::DATA_W-1:0]        m_axis_tx_tdata,
  output logic [net_pkg::KEEP_W-1:0]        m_axis_tx_tkeep,
  output logic                              m_axis_tx_tvalid,
  input  wire logic                         m_axis_tx_tready,
  output logic                              m_axis_tx_tlast,
  output logic [USER_W-1:0]                 m_axis_tx_tuser
);
  typedef enum logic [0:0] {SRC_ROCE = 1'b0, SRC_MGMT = 1'b1} src_e;

  logic  lock_q, lock_d;
  src_e  sel_q, sel_d, last_q, last_d, sel;
  logic  v, r, l;
  logic [net_pkg::DATA_W-1:0] d;
  logic [net_pkg::KEEP_W-1:0] k;
  logic [USER_W-1:0]          u;

  // the inputs, registered (their readies from flip-flops)
  logic                       rv, rr, rl, mv, mr, ml;
  logic [net_pkg::DATA_W-1:0] rd, md;
  logic [net_pkg::KEEP_W-1:0] rk, mk;
  logic [USER_W-1:0]          ru, mu;

  net_axis_skid #(.DATA_W(net_pkg::DATA_W), .USER_W(USER_W)) u_in_roce (
    .clk, .rst,
    .s_axis_tdata(s_axis_roce_tdata), .s_axis_tkeep(s_axis_roce_tkeep),
    .s_axis_tvalid(s_axis_roce_tvalid), .s_axis_tready(s_axis_roce_tready),
    .s_axis_tlast(s_axis_roce_tlast), .s_axis_tuser(s_axis_roce_tuser),
    .m_axis_tdata(rd), .m_axis_tkeep(rk), .m_axis_tvalid(rv), .m_axis_tready(rr),
    .m_axis_tlast(rl), .m_axis_tuser(ru)
  );
  net_axis_skid #(.DATA_W(net_pkg::DATA_W), .USER_W(USER_W)) u_in_mgmt (
    .clk, .rst,
    .s_axis_tdata(s_axis_mgmt_tdata), .s_axis_tkeep(s_axis_mgmt_tkeep),
    .s_axis_tvalid(s_axis_mgmt_tvalid), .s_axis_tready(s_axis_mgmt_tready),
    .s_axis_tlast(s_axis_mgmt_tlast), .s_axis_tuser(s_axis_mgmt_tuser),
    .m_axis_tdata(md), .m_axis_tkeep(mk), .m_axis_tvalid(mv), .m_axis_tready(mr),
    .m_axis_tlast(ml), .m_axis_tuser(mu)
  );

  always_comb begin
    if (lock_q)        sel = sel_q;
    else if (rv && mv) sel = last_q == SRC_ROCE ? SRC_MGMT : SRC_ROCE;
    else if (mv)       sel = SRC_MGMT;
    else               sel = SRC_ROCE;

    if (sel == SRC_ROCE) begin
      v = rv; d = rd; k = rk; l = rl; u = ru;
    end else begin
      v = mv; d = md; k = mk; l = ml; u = mu;
    end
    rr = sel == SRC_ROCE && r;
    mr = sel == SRC_MGMT && r;

    lock_d = lock_q;
    sel_d  = sel_q;
    last_d = last_q;
    if (v && r && l) begin
      lock_d = 1'b0;
      last_d = sel;
    end else if (v) begin
      lock_d = 1'b1;
      sel_d  = sel;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      lock_q <= 1'b0;
      sel_q  <= SRC_ROCE;
      last_q <= SRC_MGMT;
    end else begin
      lock_q <= lock_d;
      sel_q  <= sel_d;
      last_q <= last_d;
    end
  end

  net_axis_skid #(.DATA_W(net_pkg::DATA_W), .USER_W(USER_W)) u_out (
    .clk, .rst,
    .s_axis_tdata(d), .s_axis_tkeep(k), .s_axis_tvalid(v), .s_axis_tready(r),
    .s_axis_tlast(l), .s_axis_tuser(u),
    .m_axis_tdata(m_axis_tx_tdata), .m_axis_tkeep(m_axis_tx_tkeep),
    .m_axis_tvalid(m_axis_tx_tvalid), .m_axis_tready(m_axis_tx_tready),
    .m_axis_tlast(m_axis_tx_tlast), .m_axis_tuser(m_axis_tx_tuser)
  );
endmodule
