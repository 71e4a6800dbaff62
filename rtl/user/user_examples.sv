// user_examples: the rtl/user examples as nic_top builds them in
// (USER_EXAMPLES = 1): their registers (user_regs, regs/user.toml, a target
// of the datapath bus), user_source on the work-request, completion and
// requester payload streams, user_sink on the receive-data stream, and a
// user_pat_stream answering READs of streaming MRs with the source's data
// (so a peer can READ back what the source makes). docs/user-logic.md,
// "Examples"; the console's `user` command drives them.
`default_nettype none

module user_examples (
  input  wire logic         clk,
  input  wire logic         rst,
  // datapath bus target (user_regs)
  input  wire logic         req,
  input  wire logic         we,
  input  wire logic [15:0]  addr,
  input  wire logic [3:0]   be,
  input  wire logic [31:0]  wdata,
  output logic              gnt,
  output logic              rvalid,
  output logic [31:0]       rdata,
  output logic              err,
  // the transport's user ports, seen from the user side
  output logic              m_wr_valid,
  input  wire logic         m_wr_ready,
  output logic [3:0]        m_wr_opcode,
  output logic [23:0]       m_wr_qpn,
  output logic [63:0]       m_wr_laddr,
  output logic [31:0]       m_wr_lkey,
  output logic [63:0]       m_wr_raddr,
  output logic [31:0]       m_wr_rkey,
  output logic [31:0]       m_wr_len,
  output logic [31:0]       m_wr_imm,
  output logic [63:0]       m_wr_compare,
  output logic [63:0]       m_wr_swap_add,
  output logic [47:0]       m_wr_wr_id,
  output logic              m_wr_signaled,
  input  wire logic         s_cpl_valid,
  output logic              s_cpl_ready,
  input  wire logic [4:0]   s_cpl_status,
  input  wire logic         s_utx_req_valid,
  output logic              s_utx_req_ready,
  input  wire logic [63:0]  s_utx_req_addr,
  input  wire logic [31:0]  s_utx_req_len,
  output logic              m_utx_valid,
  input  wire logic         m_utx_ready,
  output logic [511:0]      m_utx_data,
  output logic              m_utx_last,
  input  wire logic         s_urd_req_valid,
  output logic              s_urd_req_ready,
  input  wire logic [63:0]  s_urd_req_addr,
  input  wire logic [31:0]  s_urd_req_len,
  output logic              m_urd_valid,
  input  wire logic         m_urd_ready,
  output logic [511:0]      m_urd_data,
  output logic              m_urd_last,
  input  wire logic         s_urx_valid,
  output logic              s_urx_ready,
  input  wire logic [511:0] s_urx_data,
  input  wire logic [63:0]  s_urx_keep,
  input  wire logic         s_urx_last,
  input  wire logic [63:0]  s_urx_addr,
  input  wire logic [31:0]  s_urx_len,
  input  wire logic         s_urx_first,
  input  wire logic         s_urx_msg_last
);
  logic [23:0] src_qpn;
  logic [31:0] src_lkey, src_rkey, src_addr_lo, src_addr_hi, src_region, src_len, src_count;
  logic [31:0] src_seed_lo, src_seed_hi, src_posted, src_completed, src_errors, src_cycles;
  logic [31:0] src_unaligned, rd_unaligned;
  logic [15:0] src_rate;
  logic        src_mode, src_ctrl_we, src_busy, src_done, src_ferr_v;
  logic [1:0]  src_ctrl;
  logic [4:0]  src_ferr;
  logic        snk_mode, snk_clear_we, snk_clear, snk_fbv;
  logic [31:0] snk_seed_lo, snk_seed_hi, snk_chunks, snk_msgs, snk_bad, snk_gaps, snk_unal, snk_cycles;
  logic [63:0] snk_bytes, snk_fba;

  user_regs u_regs (
    .clk, .rst, .req, .we, .addr, .be, .wdata, .gnt, .rvalid, .rdata, .err,
    .src_qpn_q(src_qpn), .src_lkey_q(src_lkey), .src_rkey_q(src_rkey),
    .src_addr_lo_q(src_addr_lo), .src_addr_hi_q(src_addr_hi), .src_region_q(src_region),
    .src_len_q(src_len), .src_count_q(src_count), .src_rate_q(src_rate), .src_mode_q(src_mode),
    .src_seed_lo_q(src_seed_lo), .src_seed_hi_q(src_seed_hi),
    .src_ctrl_wdata(src_ctrl), .src_ctrl_we(src_ctrl_we),
    .src_status_i({src_ferr, src_ferr_v, src_done, src_busy}),
    .src_posted_i(src_posted), .src_completed_i(src_completed), .src_errors_i(src_errors),
    .src_cycles_i(src_cycles), .src_unaligned_i(src_unaligned + rd_unaligned),
    .snk_mode_q(snk_mode), .snk_seed_lo_q(snk_seed_lo), .snk_seed_hi_q(snk_seed_hi),
    .snk_clear_wdata(snk_clear), .snk_clear_we(snk_clear_we),
    .snk_status_i(snk_fbv), .snk_chunks_i(snk_chunks), .snk_messages_i(snk_msgs),
    .snk_bytes_lo_i(snk_bytes[31:0]), .snk_bytes_hi_i(snk_bytes[63:32]), .snk_bad_beats_i(snk_bad),
    .snk_first_bad_lo_i(snk_fba[31:0]), .snk_first_bad_hi_i(snk_fba[63:32]), .snk_gaps_i(snk_gaps),
    .snk_unaligned_i(snk_unal), .snk_cycles_i(snk_cycles)
  );

  user_source u_src (
    .clk, .rst,
    .start(src_ctrl_we && src_ctrl[0]), .stop(src_ctrl_we && src_ctrl[1]),
    .cfg_qpn(src_qpn), .cfg_lkey(src_lkey), .cfg_rkey(src_rkey), .cfg_addr({src_addr_hi, src_addr_lo}),
    .cfg_region(src_region), .cfg_len(src_len), .cfg_count(src_count), .cfg_rate(src_rate),
    .cfg_mode(src_mode), .cfg_seed({src_seed_hi, src_seed_lo}),
    .busy(src_busy), .done(src_done), .posted(src_posted), .completed(src_completed),
    .errors(src_errors), .first_err_valid(src_ferr_v), .first_err_status(src_ferr),
    .cycles(src_cycles), .unaligned(src_unaligned),
    .m_wr_valid, .m_wr_ready, .m_wr_opcode, .m_wr_qpn, .m_wr_laddr, .m_wr_lkey, .m_wr_raddr,
    .m_wr_rkey, .m_wr_len, .m_wr_wr_id, .m_wr_signaled,
    .s_cpl_valid, .s_cpl_ready, .s_cpl_status,
    .s_utx_req_valid, .s_utx_req_ready, .s_utx_req_addr, .s_utx_req_len,
    .m_utx_valid, .m_utx_ready, .m_utx_data, .m_utx_last
  );
  assign m_wr_imm      = '0;
  assign m_wr_compare  = '0;
  assign m_wr_swap_add = '0;

  // READs of a streaming MR: the source's data for those addresses
  user_pat_stream u_rd (
    .clk, .rst, .mode(src_mode), .seed({src_seed_hi, src_seed_lo}), .unaligned(rd_unaligned),
    .s_req_valid(s_urd_req_valid), .s_req_ready(s_urd_req_ready), .s_req_addr(s_urd_req_addr),
    .s_req_len(s_urd_req_len),
    .m_valid(m_urd_valid), .m_ready(m_urd_ready), .m_data(m_urd_data), .m_last(m_urd_last)
  );

  user_sink u_snk (
    .clk, .rst, .clear(snk_clear_we && snk_clear), .cfg_mode(snk_mode), .cfg_seed({snk_seed_hi, snk_seed_lo}),
    .chunks(snk_chunks), .messages(snk_msgs), .bytes(snk_bytes), .bad_beats(snk_bad),
    .first_bad_valid(snk_fbv), .first_bad_addr(snk_fba), .gaps(snk_gaps), .unaligned(snk_unal),
    .cycles(snk_cycles),
    .s_urx_valid, .s_urx_ready, .s_urx_data, .s_urx_keep, .s_urx_last, .s_urx_addr, .s_urx_len,
    .s_urx_first, .s_urx_msg_last
  );
endmodule
