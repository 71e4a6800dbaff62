// user_source: an example of user logic (docs/user-logic.md, "Examples"): it
// streams generated data to a remote QP as RDMA WRITEs, with no firmware work
// per message.
//
// Posting: after `start` it posts `cfg_count` WRITEs (0: until `stop`) of
// `cfg_len` bytes on the work-request port, message i to
// cfg_addr + (i * cfg_len mod the largest multiple of cfg_len within
// cfg_region), local and remote address equal: the firmware registers the
// source's local MR as a streaming MR over the same addresses as the remote
// buffer. wr_id = the message number, every message signaled. A token bucket
// paces the posts at `cfg_rate` bytes per cycle (8 fraction bits; 0 = as fast
// as the transport takes them): credit grows by cfg_rate a cycle up to one
// message, a post needs credit >= 0 and costs cfg_len.
//
// Data: the transport asks for a WRITE's payload on the requester payload
// stream (m_utx_req_*: address, length; again for a retransmission) and the
// source answers each request, in order, with ceil(len/64) beats of
// user_pat_gen's data for those addresses (pattern or counter, `cfg_mode`,
// `cfg_seed`): the same bytes however often it is asked. Addresses must be
// 64-byte aligned (the firmware checks cfg_addr and cfg_len); a request
// that is not is answered all the same and counted in `unaligned`.
//
// Status: busy from start until every posted message has completed, then
// done; posted, completed, errors (completions with a status other than
// SUCCESS, the first one's status kept), cycles (from the first post to the
// last completion). Change the configuration only while not busy; keep
// cfg_mode and cfg_seed while the QP may still retransmit.
`default_nettype none

module user_source (
  input  wire logic        clk,
  input  wire logic        rst,
  // control (register block user_regs)
  input  wire logic        start,
  input  wire logic        stop,
  input  wire logic [23:0] cfg_qpn,
  input  wire logic [31:0] cfg_lkey,
  input  wire logic [31:0] cfg_rkey,
  input  wire logic [63:0] cfg_addr,
  input  wire logic [31:0] cfg_region,
  input  wire logic [31:0] cfg_len,
  input  wire logic [31:0] cfg_count,
  input  wire logic [15:0] cfg_rate,
  input  wire logic        cfg_mode,
  input  wire logic [63:0] cfg_seed,
  output logic             busy,
  output logic             done,
  output logic [31:0]      posted,
  output logic [31:0]      completed,
  output logic [31:0]      errors,
  output logic             first_err_valid,
  output logic [4:0]       first_err_status,
  output logic [31:0]      cycles,
  output logic [31:0]      unaligned,
  // work requests to the transport (its s_wr_*)
  output logic             m_wr_valid,
  input  wire logic        m_wr_ready,
  output logic [3:0]       m_wr_opcode,
  output logic [23:0]      m_wr_qpn,
  output logic [63:0]      m_wr_laddr,
  output logic [31:0]      m_wr_lkey,
  output logic [63:0]      m_wr_raddr,
  output logic [31:0]      m_wr_rkey,
  output logic [31:0]      m_wr_len,
  output logic [47:0]      m_wr_wr_id,
  output logic             m_wr_signaled,
  // their completions (the transport's m_cpl_*)
  input  wire logic        s_cpl_valid,
  output logic             s_cpl_ready,
  input  wire logic [4:0]  s_cpl_status,
  // payload requests and data (the transport's m_utx_req_* / s_utx_*)
  input  wire logic        s_utx_req_valid,
  output logic             s_utx_req_ready,
  input  wire logic [63:0] s_utx_req_addr,
  input  wire logic [31:0] s_utx_req_len,
  output logic             m_utx_valid,
  input  wire logic        m_utx_ready,
  output logic [511:0]     m_utx_data,
  output logic             m_utx_last
);
  // ------------------------------------------------------------ posting
  typedef enum logic [2:0] {
    S_IDLE  = 3'd0,
    S_ADDR  = 3'd1,   // addr = cfg_addr + off
    S_PACE  = 3'd2,   // wait for credit
    S_POST  = 3'd3,   // m_wr_valid until taken
    S_NEXT  = 3'd4,   // off += len
    S_WRAP  = 3'd5,   // off = 0 when the next message would pass the region
    S_DRAIN = 3'd6    // wait for the completions of what was posted
  } state_e;

  state_e       st_q, st_d;
  logic [31:0]  off_q, off_d;
  logic [63:0]  addr_q, addr_d;
  logic [31:0]  posted_q, posted_d, completed_q, completed_d, errors_q, errors_d;
  logic [31:0]  cycles_q, cycles_d;
  logic         done_q, done_d, stop_q, stop_d, ferr_v_q, ferr_v_d;
  logic [4:0]   ferr_q, ferr_d;
  logic signed [40:0] credit_q, credit_d;
  logic         wr_valid_q;           // m_wr_valid: in S_POST
  logic         free_q;               // cfg_rate == 0: no pacing (a cycle late)
  logic         go;                   // S_PACE: the post may go
  logic         drained_q;            // completed_q == posted_q (a cycle late)
  logic         hit_q;                // posted_q has reached cfg_count (a cycle late)
  logic [23:0]  qpn_q;                // the work request's fields taken from cfg_* at S_ADDR
  logic [31:0]  lkey_q, rkey_q, len_q;
  logic         below_q;              // credit below one message (a cycle late)
  logic signed [40:0] cost_q;         // cfg_rate - cfg_len * 256: a cycle with a post
  logic         timing_q, timing_d;   // cycles counts
  logic [32:0]  off_end;              // off + len + len, for the wrap

  always_comb begin
    st_d        = st_q;
    off_d       = off_q;
    addr_d      = addr_q;
    posted_d    = posted_q;
    completed_d = completed_q;
    errors_d    = errors_q;
    cycles_d    = cycles_q;
    done_d      = done_q;
    stop_d      = stop_q || stop;
    ferr_v_d    = ferr_v_q;
    ferr_d      = ferr_q;
    timing_d    = timing_q;
    off_end     = {1'b0, off_q} + {1'b0, cfg_len};
    go          = free_q || !credit_q[40];
    // the token bucket: cfg_rate a cycle, capped at about one message of credit
    credit_d    = credit_q;
    if (below_q) credit_d = credit_q + $signed({25'd0, cfg_rate});
    if (timing_q) cycles_d = cycles_q + 32'd1;
    if (s_cpl_valid) begin
      completed_d = completed_q + 32'd1;
      if (s_cpl_status != 5'd0) begin
        errors_d = errors_q + 32'd1;
        if (!ferr_v_q) begin
          ferr_v_d = 1'b1;
          ferr_d   = s_cpl_status;
        end
      end
    end
    case (st_q)
      S_IDLE: if (start) begin
        st_d        = S_ADDR;
        off_d       = '0;
        posted_d    = '0;
        completed_d = '0;
        errors_d    = '0;
        cycles_d    = '0;
        done_d      = 1'b0;
        stop_d      = 1'b0;
        ferr_v_d    = 1'b0;
        credit_d    = '0;
        timing_d    = 1'b0;
      end
      S_ADDR: begin
        addr_d = cfg_addr + {32'd0, off_q};
        st_d   = S_PACE;
      end
      S_PACE: if (stop_q) st_d = S_DRAIN;
              else if (go) st_d = S_POST;
      S_POST: if (m_wr_ready) begin
        posted_d = posted_q + 32'd1;
        timing_d = 1'b1;
        if (!free_q) credit_d = credit_q + cost_q;
        st_d     = S_NEXT;
      end
      S_NEXT: begin
        off_d = off_end[31:0];
        st_d  = S_WRAP;
      end
      S_WRAP: begin
        if (off_end > {1'b0, cfg_region}) off_d = '0;
        st_d = hit_q ? S_DRAIN : S_ADDR;
      end
      default: ;   // S_DRAIN
    endcase
    if (st_q == S_DRAIN && drained_q) begin
      st_d     = S_IDLE;
      done_d   = 1'b1;
      timing_d = 1'b0;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q        <= S_IDLE;
      wr_valid_q  <= 1'b0;
      posted_q    <= '0;
      completed_q <= '0;
      errors_q    <= '0;
      cycles_q    <= '0;
      done_q      <= 1'b0;
      stop_q      <= 1'b0;
      ferr_v_q    <= 1'b0;
      timing_q    <= 1'b0;
      credit_q    <= '0;
    end else begin
      st_q        <= st_d;
      wr_valid_q  <= (st_q == S_PACE && !stop_q && go) || (st_q == S_POST && !m_wr_ready);
      posted_q    <= posted_d;
      completed_q <= completed_d;
      errors_q    <= errors_d;
      cycles_q    <= cycles_d;
      done_q      <= done_d;
      stop_q      <= stop_d;
      ferr_v_q    <= ferr_v_d;
      timing_q    <= timing_d;
      credit_q    <= credit_d;
    end
    off_q  <= off_d;
    addr_q <= addr_d;
    ferr_q <= ferr_d;
    drained_q <= completed_q == posted_q;
    free_q    <= cfg_rate == 16'd0;
    hit_q   <= cfg_count != 32'd0 && posted_q == cfg_count;
    if (st_q == S_ADDR) begin
      qpn_q  <= cfg_qpn;
      lkey_q <= cfg_lkey;
      rkey_q <= cfg_rkey;
      len_q  <= cfg_len;
    end
    below_q <= credit_q < $signed({1'b0, cfg_len, 8'd0});
    cost_q  <= $signed({25'd0, cfg_rate}) - $signed({1'b0, cfg_len, 8'd0});
  end

  assign busy             = st_q != S_IDLE;
  assign done             = done_q;
  assign posted           = posted_q;
  assign completed        = completed_q;
  assign errors           = errors_q;
  assign first_err_valid  = ferr_v_q;
  assign first_err_status = ferr_q;
  assign cycles           = cycles_q;
  assign s_cpl_ready      = 1'b1;

  assign m_wr_valid    = wr_valid_q;
  assign m_wr_opcode   = 4'd0;      // RDMA WRITE
  assign m_wr_qpn      = qpn_q;
  assign m_wr_laddr    = addr_q;
  assign m_wr_lkey     = lkey_q;
  assign m_wr_raddr    = addr_q;
  assign m_wr_rkey     = rkey_q;
  assign m_wr_len      = len_q;
  assign m_wr_wr_id    = {16'd0, posted_q};
  assign m_wr_signaled = 1'b1;

  // --------------------------------------------------------------- data
  user_pat_stream u_data (
    .clk, .rst, .mode(cfg_mode), .seed(cfg_seed), .unaligned,
    .s_req_valid(s_utx_req_valid), .s_req_ready(s_utx_req_ready), .s_req_addr(s_utx_req_addr),
    .s_req_len(s_utx_req_len),
    .m_valid(m_utx_valid), .m_ready(m_utx_ready), .m_data(m_utx_data), .m_last(m_utx_last)
  );
endmodule
