// tb_rc_side: one side of the two-transport bench (tests/rc): the RC
// transport with its memory, wired as rtl/top/nic_top.sv wires it:
//
//   frames in --> roce_transport --> frames out        (C++: eth_wire::Cable)
//                  | sbus registers                    (C++: register driver)
//                  | user WR / completion streams       (C++: user logic, +test=user)
//                  | 2 read + 3 write AXI clients
//                mem_axi_arb --> mem_axi_ram           (C++: mem_model, inst_id)
//
// The C++ bench (tb_rc.cpp) builds two of these models, one per side, and
// tells their memories apart by inst_id (0 and 1). Probes: the memory's W
// beats and the responder's receive stream, for latency figures.
`default_nettype none

module tb_rc_side #(
  parameter int NQP = 256,
  parameter int NMR = 256
) (
  input  wire logic          clk,
  input  wire logic          rst,
  input  wire logic [7:0]    inst_id,
  input  wire logic [47:0]   our_mac,
  input  wire logic [31:0]   our_ip,
  input  wire logic [511:0]  rx_tdata,
  input  wire logic [63:0]   rx_tkeep,
  input  wire logic          rx_tvalid,
  output logic               rx_tready,
  input  wire logic          rx_tlast,
  output logic [511:0]       tx_tdata,
  output logic [63:0]        tx_tkeep,
  output logic               tx_tvalid,
  input  wire logic          tx_tready,
  output logic               tx_tlast,
  input  wire logic          req,
  input  wire logic          we,
  input  wire logic [15:0]   addr,
  input  wire logic [3:0]    be,
  input  wire logic [31:0]   wdata,
  output logic               gnt,
  output logic               rvalid,
  output logic [31:0]        rdata,
  output logic               err,
  // probes: a W beat / the last W beat of a burst accepted by the memory
  output logic               probe_w_fire,
  output logic               probe_w_last,
  output logic [63:0]        probe_aw_addr,
  output logic               probe_aw_fire,
  // user logic's ports of roce_transport (docs/user-logic.md), driven by the C++
  input  wire logic          wr_valid,
  output logic               wr_ready,
  input  wire logic [3:0]    wr_opcode,
  input  wire logic [23:0]   wr_qpn,
  input  wire logic [63:0]   wr_laddr,
  input  wire logic [31:0]   wr_lkey,
  input  wire logic [63:0]   wr_raddr,
  input  wire logic [31:0]   wr_rkey,
  input  wire logic [31:0]   wr_len,
  input  wire logic [31:0]   wr_imm,
  input  wire logic [63:0]   wr_compare,
  input  wire logic [63:0]   wr_swap_add,
  input  wire logic [47:0]   wr_wr_id,
  input  wire logic          wr_signaled,
  input  wire logic          rq_valid,
  output logic               rq_ready,
  input  wire logic [23:0]   rq_qpn,
  input  wire logic [63:0]   rq_addr,
  input  wire logic [31:0]   rq_len,
  input  wire logic [31:0]   rq_lkey,
  input  wire logic [47:0]   rq_wr_id,
  output logic               cpl_valid,
  input  wire logic          cpl_ready,
  output logic [47:0]        cpl_wr_id,
  output logic [4:0]         cpl_status,
  output logic [7:0]         cpl_opcode,
  output logic [31:0]        cpl_byte_len,
  output logic [23:0]        cpl_qpn,
  output logic [31:0]        cpl_imm,
  output logic               cpl_has_imm,
  // the streaming MRs' user streams (docs/user-logic.md), driven by the C++
  output logic               urx_valid,
  input  wire logic          urx_ready,
  output logic [511:0]       urx_data,
  output logic [63:0]        urx_keep,
  output logic               urx_last,
  output logic [63:0]        urx_addr,
  output logic [31:0]        urx_len,
  output logic [23:0]        urx_qpn,
  output logic               urx_first,
  output logic               urx_msg_last,
  output logic               urx_send,
  output logic               urd_req_valid,
  input  wire logic          urd_req_ready,
  output logic [63:0]        urd_req_addr,
  output logic [31:0]        urd_req_len,
  output logic [23:0]        urd_req_qpn,
  input  wire logic          urd_valid,
  output logic               urd_ready,
  input  wire logic [511:0]  urd_data,
  input  wire logic          urd_last,
  output logic               utx_req_valid,
  input  wire logic          utx_req_ready,
  output logic [63:0]        utx_req_addr,
  output logic [31:0]        utx_req_len,
  output logic [23:0]        utx_req_qpn,
  input  wire logic          utx_valid,
  output logic               utx_ready,
  input  wire logic [511:0]  utx_data,
  input  wire logic          utx_last,
  // 1: the two read-request streams are answered by roce_ustream_null (the
  // tie-off of sim_nic / board_nic), not by the C++
  input  wire logic          use_null,
  // roce_sq's three WQE sources (firmware, generator, user): WQEs taken while
  // another source was waiting too, and round-robin violations (a waiting
  // source passed over a third time)
  output logic [31:0]        probe_rr_contended,
  output logic [31:0]        probe_rr_bad
);

  localparam int NR = 2, NW = 3, DW = 512, KW = 64;
  logic [NR*64-1:0] c_araddr;  logic [NR*8-1:0] c_arlen;
  logic [NR-1:0]    c_arvalid, c_arready, c_rvalid, c_rready;
  logic [DW-1:0]    c_rdata;   logic [1:0] c_rresp, c_bresp;  logic c_rlast;
  logic [NW*64-1:0] c_awaddr;  logic [NW*8-1:0] c_awlen;
  logic [NW-1:0]    c_awvalid, c_awready, c_wlast, c_wvalid, c_wready, c_bvalid, c_bready;
  logic [NW*DW-1:0] c_wdata;   logic [NW*KW-1:0] c_wstrb;

  // roce_ustream_null in place of the C++ answers (use_null)
  logic t_urd_req_ready, t_urd_valid, t_urd_ready, t_urd_last, t_utx_req_ready, t_utx_valid, t_utx_ready, t_utx_last;
  logic n_urd_req_r, n_urd_v, n_urd_l, n_utx_req_r, n_utx_v, n_utx_l;
  roce_ustream_null u_urd_null (
    .clk, .rst, .s_req_valid(urd_req_valid && use_null), .s_req_ready(n_urd_req_r), .s_req_len(urd_req_len),
    .m_valid(n_urd_v), .m_ready(t_urd_ready), .m_last(n_urd_l));
  roce_ustream_null u_utx_null (
    .clk, .rst, .s_req_valid(utx_req_valid && use_null), .s_req_ready(n_utx_req_r), .s_req_len(utx_req_len),
    .m_valid(n_utx_v), .m_ready(t_utx_ready), .m_last(n_utx_l));
  always_comb begin
    t_urd_req_ready = use_null ? n_urd_req_r : urd_req_ready;
    t_urd_valid     = use_null ? n_urd_v     : urd_valid;
    t_urd_last      = use_null ? n_urd_l     : urd_last;
    t_utx_req_ready = use_null ? n_utx_req_r : utx_req_ready;
    t_utx_valid     = use_null ? n_utx_v     : utx_valid;
    t_utx_last      = use_null ? n_utx_l     : utx_last;
    urd_ready       = t_urd_ready && !use_null;
    utx_ready       = t_utx_ready && !use_null;
  end

  // user logic's credits as nic_top gives them
  roce_transport #(.NQP(NQP), .NMR(NMR), .USER_OUTSTANDING(64), .USER_RQ_OUTSTANDING(16)) u_roce (
    .clk, .rst, .our_mac, .our_ip,
    .s_axis_rx_tdata(rx_tdata), .s_axis_rx_tkeep(rx_tkeep), .s_axis_rx_tvalid(rx_tvalid),
    .s_axis_rx_tready(rx_tready), .s_axis_rx_tlast(rx_tlast), .s_axis_rx_tuser(1'b0),
    .m_axis_tx_tdata(tx_tdata), .m_axis_tx_tkeep(tx_tkeep), .m_axis_tx_tvalid(tx_tvalid),
    .m_axis_tx_tready(tx_tready), .m_axis_tx_tlast(tx_tlast),
    .req, .we, .addr, .be, .wdata, .gnt, .rvalid, .rdata, .err,
    .s_wr_valid(wr_valid), .s_wr_ready(wr_ready), .s_wr_opcode(wr_opcode), .s_wr_qpn(wr_qpn),
    .s_wr_laddr(wr_laddr), .s_wr_lkey(wr_lkey), .s_wr_raddr(wr_raddr), .s_wr_rkey(wr_rkey), .s_wr_len(wr_len),
    .s_wr_imm(wr_imm), .s_wr_compare(wr_compare), .s_wr_swap_add(wr_swap_add), .s_wr_wr_id(wr_wr_id),
    .s_wr_signaled(wr_signaled),
    .s_rq_valid(rq_valid), .s_rq_ready(rq_ready), .s_rq_qpn(rq_qpn), .s_rq_addr(rq_addr), .s_rq_len(rq_len),
    .s_rq_lkey(rq_lkey), .s_rq_wr_id(rq_wr_id),
    .m_cpl_valid(cpl_valid), .m_cpl_ready(cpl_ready), .m_cpl_wr_id(cpl_wr_id), .m_cpl_status(cpl_status),
    .m_cpl_opcode(cpl_opcode), .m_cpl_byte_len(cpl_byte_len), .m_cpl_qpn(cpl_qpn), .m_cpl_imm(cpl_imm),
    .m_cpl_has_imm(cpl_has_imm),
    .m_urx_valid(urx_valid), .m_urx_ready(urx_ready), .m_urx_data(urx_data), .m_urx_keep(urx_keep),
    .m_urx_last(urx_last), .m_urx_addr(urx_addr), .m_urx_len(urx_len), .m_urx_qpn(urx_qpn),
    .m_urx_first(urx_first), .m_urx_msg_last(urx_msg_last), .m_urx_send(urx_send),
    .m_urd_req_valid(urd_req_valid), .m_urd_req_ready(t_urd_req_ready), .m_urd_req_addr(urd_req_addr),
    .m_urd_req_len(urd_req_len), .m_urd_req_qpn(urd_req_qpn),
    .s_urd_valid(t_urd_valid), .s_urd_ready(t_urd_ready), .s_urd_data(use_null ? 512'd0 : urd_data),
    .s_urd_last(t_urd_last),
    .m_utx_req_valid(utx_req_valid), .m_utx_req_ready(t_utx_req_ready), .m_utx_req_addr(utx_req_addr),
    .m_utx_req_len(utx_req_len), .m_utx_req_qpn(utx_req_qpn),
    .s_utx_valid(t_utx_valid), .s_utx_ready(t_utx_ready), .s_utx_data(use_null ? 512'd0 : utx_data),
    .s_utx_last(t_utx_last),
    .m_axi_araddr(c_araddr), .m_axi_arlen(c_arlen), .m_axi_arvalid(c_arvalid), .m_axi_arready(c_arready),
    .m_axi_rdata(c_rdata), .m_axi_rresp(c_rresp), .m_axi_rlast(c_rlast), .m_axi_rvalid(c_rvalid),
    .m_axi_rready(c_rready),
    .m_axi_awaddr(c_awaddr), .m_axi_awlen(c_awlen), .m_axi_awvalid(c_awvalid), .m_axi_awready(c_awready),
    .m_axi_wdata(c_wdata), .m_axi_wstrb(c_wstrb), .m_axi_wlast(c_wlast), .m_axi_wvalid(c_wvalid),
    .m_axi_wready(c_wready), .m_axi_bresp(c_bresp), .m_axi_bvalid(c_bvalid), .m_axi_bready(c_bready)
  );

  logic [1:0]   awid, bid, arid, rid, bresp, rresp, awburst, arburst;
  logic [63:0]  awaddr, araddr, wstrb;
  logic [7:0]   awlen, arlen;
  logic [2:0]   awsize, arsize;
  logic         awvalid, awready, wlast, wvalid, wready, bvalid, bready;
  logic         arvalid, arready, rlast, rvalid_m, rready;
  logic [511:0] wdata_m, rdata_m;

  mem_axi_arb #(.NR(NR), .NW(NW)) u_arb (
    .clk, .rst,
    .s_axi_araddr(c_araddr), .s_axi_arlen(c_arlen), .s_axi_arvalid(c_arvalid), .s_axi_arready(c_arready),
    .s_axi_rdata(c_rdata), .s_axi_rresp(c_rresp), .s_axi_rlast(c_rlast), .s_axi_rvalid(c_rvalid),
    .s_axi_rready(c_rready),
    .s_axi_awaddr(c_awaddr), .s_axi_awlen(c_awlen), .s_axi_awvalid(c_awvalid), .s_axi_awready(c_awready),
    .s_axi_wdata(c_wdata), .s_axi_wstrb(c_wstrb), .s_axi_wlast(c_wlast), .s_axi_wvalid(c_wvalid),
    .s_axi_wready(c_wready), .s_axi_bresp(c_bresp), .s_axi_bvalid(c_bvalid), .s_axi_bready(c_bready),
    .m_axi_awid(awid), .m_axi_awaddr(awaddr), .m_axi_awlen(awlen), .m_axi_awsize(awsize),
    .m_axi_awburst(awburst), .m_axi_awvalid(awvalid), .m_axi_awready(awready),
    .m_axi_wdata(wdata_m), .m_axi_wstrb(wstrb), .m_axi_wlast(wlast), .m_axi_wvalid(wvalid),
    .m_axi_wready(wready), .m_axi_bid(bid), .m_axi_bresp(bresp), .m_axi_bvalid(bvalid),
    .m_axi_bready(bready), .m_axi_arid(arid), .m_axi_araddr(araddr), .m_axi_arlen(arlen),
    .m_axi_arsize(arsize), .m_axi_arburst(arburst), .m_axi_arvalid(arvalid),
    .m_axi_arready(arready), .m_axi_rid(rid), .m_axi_rdata(rdata_m), .m_axi_rresp(rresp),
    .m_axi_rlast(rlast), .m_axi_rvalid(rvalid_m), .m_axi_rready(rready)
  );

  // latencies as in the simulator's NIC (sim/sim_nic.sv); the C++ may reconfigure
  mem_axi_ram #(.INST(0), .ID_W(2), .RD_LATENCY(40), .WR_LATENCY(20)) u_mem (
    .clk, .rst, .inst_id,
    .s_axi_awid(awid), .s_axi_awaddr(awaddr), .s_axi_awlen(awlen), .s_axi_awsize(awsize),
    .s_axi_awburst(awburst), .s_axi_awvalid(awvalid), .s_axi_awready(awready),
    .s_axi_wdata(wdata_m), .s_axi_wstrb(wstrb), .s_axi_wlast(wlast), .s_axi_wvalid(wvalid),
    .s_axi_wready(wready), .s_axi_bid(bid), .s_axi_bresp(bresp), .s_axi_bvalid(bvalid),
    .s_axi_bready(bready), .s_axi_arid(arid), .s_axi_araddr(araddr), .s_axi_arlen(arlen),
    .s_axi_arsize(arsize), .s_axi_arburst(arburst), .s_axi_arvalid(arvalid),
    .s_axi_arready(arready), .s_axi_rid(rid), .s_axi_rdata(rdata_m), .s_axi_rresp(rresp),
    .s_axi_rlast(rlast), .s_axi_rvalid(rvalid_m), .s_axi_rready(rready)
  );

  // round robin: with three sources, a waiting one is served before any other
  // is served twice (an independent check of roce_transport's arbiter)
  logic [2:0]  rr_v, rr_g;
  logic [1:0]  rr_pass_q [3];
  logic [31:0] rr_cont_q, rr_bad_q;
  always_comb begin
    rr_v = {u_roce.usr_v_q, u_roce.gen_wqe_v, u_roce.fw_v_q};
    rr_g = (u_roce.sq_in_valid && u_roce.sq_in_ready) ? {u_roce.sel_usr, u_roce.sel_gen, u_roce.sel_fw} : 3'b000;
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      rr_cont_q <= '0;
      rr_bad_q  <= '0;
      for (int i = 0; i < 3; i++) rr_pass_q[i] <= '0;
    end else begin
      if (rr_g != 3'b000 && (rr_v & ~rr_g) != 3'b000) rr_cont_q <= rr_cont_q + 32'd1;
      for (int i = 0; i < 3; i++) begin
        if (!rr_v[i] || rr_g[i]) rr_pass_q[i] <= '0;
        else if (rr_g != 3'b000) begin
          rr_pass_q[i] <= rr_pass_q[i] + 2'd1;
          if (rr_pass_q[i] == 2'd2) rr_bad_q <= rr_bad_q + 32'd1;
        end
      end
    end
  end
  assign probe_rr_contended = rr_cont_q;
  assign probe_rr_bad       = rr_bad_q;

  always_comb begin
    probe_w_fire  = wvalid && wready;
    probe_w_last  = wvalid && wready && wlast;
    probe_aw_fire = awvalid && awready;
    probe_aw_addr = awaddr;
  end

`ifdef LAT_TRACE
  // make rc-lat-trace: every handshake of the transport's blocks, one line
  // each ("LT side cycle event"), to build the cycle plan of one WR
  logic [31:0] lt_cyc;
  always_ff @(posedge clk) lt_cyc <= rst ? 32'd0 : lt_cyc + 32'd1;
  `define LT(c, name) if (c) $display("LT %0d %0d %s", inst_id, lt_cyc, name);
  always_ff @(posedge clk) if (!rst) begin
    `LT(u_roce.u_wrgen.go, "wrgen post (tpost)")
    `LT(u_roce.sq_in_valid && u_roce.sq_in_ready, "sq: wqe in")
    `LT(u_roce.sq_kick_v && u_roce.sq_kick_r, "sq -> req: kick")
    `LT(u_roce.head_re, "req: sq head read")
    `LT(u_roce.wqe_re, "req: wqe read")
    `LT(u_roce.ctx_re_req, "req: ctx read")
    `LT(u_roce.mr_re_req, "req: mr read")
    `LT(u_roce.rpub_re, "comp: rpub read")
    `LT(u_roce.req_cpub_re, "comp: req cpub read")
    `LT(u_roce.sq_cpub_re, "comp: sq cpub read")
    `LT(u_roce.drc_v[0] && u_roce.drc_r[0], "req -> dma_rd: cmd")
    `LT(m_axi_arvalid_any, "axi AR")
    `LT(c_rvalid[0] && c_rready[0], "axi R beat (req)")
    `LT(u_roce.dr_v[0] && u_roce.dr_r[0], "dma_rd -> req: payload beat")
    `LT(u_roce.rq_hdr_v && u_roce.rq_hdr_r, "req -> mux: hdr")
    `LT(u_roce.rq_v && u_roce.rq_r, "req -> mux: payload beat")
    `LT(u_roce.arm_v && u_roce.arm_r, "req -> timer: arm")
    `LT(u_roce.ev_v && u_roce.ev_r, "req -> comp: ev")
    `LT(u_roce.rs_hdr_v && u_roce.rs_hdr_r, "resp: hdr valid+ready")
    `LT(u_roce.rsk_hdr_v && u_roce.rsk_hdr_r, "resp -> mux: hdr (taken)")
    `LT(u_roce.mx_hdr_v && u_roce.mx_hdr_r, "mux -> prefix: hdr")
    `LT(u_roce.mx_v && u_roce.mx_r, "mux -> build: payload beat")
    `LT(u_roce.px_v && u_roce.px_r, "prefix -> build: hdr")
    `LT(u_roce.bf_v && u_roce.bf_r, "build -> icrc_insert: beat")
    `LT(tx_tvalid && tx_tready, "tx out: beat")
    `LT(rx_tvalid && rx_tready, "rx in: beat")
    `LT(u_roce.ck_v && u_roce.ck_r, "icrc_check -> parse: beat")
    `LT(u_roce.rxh_v && u_roce.rxh_r, "parse -> split: hdr")
    `LT(u_roce.rxp_v && u_roce.rxp_r, "parse -> split: payload beat")
    `LT(u_roce.qh_v && u_roce.qh_r, "split -> resp: req hdr")
    `LT(u_roce.qp_v && u_roce.qp_r, "split -> resp: payload beat")
    `LT(u_roce.ph_v && u_roce.ph_r, "split -> comp: rsp hdr")
    `LT(u_roce.ctx_re_resp, "resp: ctx read")
    `LT(u_roce.mr_re_resp, "resp: mr read")
    `LT(u_roce.dwc_v[0] && u_roce.dwc_r[0], "resp -> dma_wr: cmd")
    `LT(u_roce.dw_v[0] && u_roce.dw_r[0], "resp -> dma_wr: beat")
    `LT(c_awvalid[0] && c_awready[0], "axi AW (resp)")
    `LT(c_wvalid[0] && c_wready[0], "axi W (resp)")
    `LT(c_bvalid[0] && c_bready[0], "axi B (resp)")
    `LT(u_roce.dwp_v[0] && u_roce.dwp_r[0], "dma_wr -> resp: cpl")
    `LT(u_roce.u_resp.ev_valid && u_roce.u_resp.ev_ready, "resp_check -> resp_tx: ev")
    `LT(u_roce.u_resp.wc_valid && u_roce.u_resp.wc_ready, "resp cpl fifo -> resp_tx: cpl")
    `LT(u_roce.u_resp.act_valid && u_roce.u_resp.act_ready, "resp: payload action done")
    `LT(u_roce.cmd_v && u_roce.cmd_r, "comp -> req: cmd")
    `LT(u_roce.c_kick_v && u_roce.c_kick_r, "comp -> req: kick")
    `LT(u_roce.tc_v && u_roce.tc_r, "comp -> timer: tcmd")
    `LT(u_roce.cwqe_re, "comp: wqe read")
    `LT(u_roce.ctx_re_comp, "comp: ctx read")
    `LT(u_roce.cp_cqe_v && u_roce.cp_cqe_r, "comp -> merge: cqe")
    `LT(u_roce.sq_cqe_v && u_roce.sq_cqe_r, "sq -> merge: cqe")
    `LT(u_roce.mg_cqe_v && u_roce.mg_cqe_r, "merge -> cq/wrgen: cqe")
    `LT(u_roce.gcq_v, "wrgen: cqe in")
    `LT(u_roce.u_wrgen.c2_v_q, "wrgen: C2 (latency taken)")
  end
  logic m_axi_arvalid_any;
  assign m_axi_arvalid_any = c_arvalid[0] && c_arready[0];
  `undef LT
`endif

endmodule
