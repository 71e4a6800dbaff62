// roce_resp_tx: the answering half of the responder. Takes the events of
// roce_resp_check in order (one at a time) and produces, on one TX header
// channel plus payload stream:
//   EV_ACK        waits for the DMA write completion of its packet (memory
//                 holds the data before anything is acknowledged), pushes
//                 the receive CQE, then sends a NAK / RNR NAK, or folds an
//                 ACK into the pending ACK (coalescing, below)
//   EV_READ       READ RESPONSE FIRST/MIDDLE/LAST or ONLY: one DMA read
//                 command per response packet (up to RD_AHEAD ahead of the
//                 data), payload passed straight from the DMA read stream
//   EV_ATOMIC     8-byte read, compare-swap / fetch-add, 8-byte write (its
//                 own DMA write port), wait for the write, ATOMIC ACKNOWLEDGE,
//                 result into the per-QP cache of the last NATOM atomics
//   EV_ATOMIC_DUP ATOMIC ACKNOWLEDGE from the cache (never executed twice);
//                 a PSN no longer cached is dropped and counted
// Because events are served in order and a READ/atomic reads memory only
// after every earlier packet's DMA write completed, a READ sees the WRITEs
// before it.
//
// ACK coalescing: an ACK (not a NAK) of a QP becomes the pending ACK; later
// ACKs of the same QP update it (PSN, MSN). It is sent when it is
// ACK_COALESCE cycles old, or before anything else must be sent (another
// QP's ACK, a NAK, a READ response or an atomic answer). ACK_COALESCE = 0
// sends every ACK one cycle after its event.
`default_nettype none

module roce_resp_tx #(
  parameter int NQP          = 256,
  parameter int ACK_COALESCE = 8,      // cycles an ACK may wait for more ACKs of its QP
  parameter int RD_AHEAD     = 4,      // DMA read commands ahead of the READ response data
  parameter int NATOM        = 4,      // atomic results cached per QP (power of two)
  parameter int QW           = $clog2(NQP)
) (
  input  wire logic                        clk,
  input  wire logic                        rst,
  input  wire logic                        qp_reset_valid,
  input  wire logic [QW-1:0]               qp_reset_qpn,
  // events
  input  wire logic                        s_ev_valid,
  output logic                             s_ev_ready,
  input  wire roce_qp_pkg::resp_ev_t       s_ev,
  // completions of the payload DMA writes
  input  wire logic                        s_cpl_valid,
  output logic                             s_cpl_ready,
  // the tags of the DMA completions are not needed (one command at a time, in order)
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire mem_pkg::dma_cpl_t           s_cpl,
  /* verilator lint_on UNUSEDSIGNAL */
  // DMA read (READ responses, atomics)
  output logic                             m_rd_cmd_valid,
  input  wire logic                        m_rd_cmd_ready,
  output mem_pkg::dma_rd_cmd_t             m_rd_cmd,
  input  wire logic [mem_pkg::DATA_W-1:0]  s_rd_axis_tdata,
  input  wire logic [mem_pkg::STRB_W-1:0]  s_rd_axis_tkeep,
  input  wire logic                        s_rd_axis_tvalid,
  output logic                             s_rd_axis_tready,
  input  wire logic                        s_rd_axis_tlast,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire mem_pkg::dma_cpl_t           s_rd_axis_tuser,
  /* verilator lint_on UNUSEDSIGNAL */
  // DMA write of atomics
  output logic                             m_aw_cmd_valid,
  input  wire logic                        m_aw_cmd_ready,
  output mem_pkg::dma_wr_cmd_t             m_aw_cmd,
  output logic [mem_pkg::DATA_W-1:0]       m_aw_axis_tdata,
  output logic [mem_pkg::STRB_W-1:0]       m_aw_axis_tkeep,
  output logic                             m_aw_axis_tvalid,
  input  wire logic                        m_aw_axis_tready,
  output logic                             m_aw_axis_tlast,
  input  wire logic                        s_aw_cpl_valid,
  output logic                             s_aw_cpl_ready,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire mem_pkg::dma_cpl_t           s_aw_cpl,
  /* verilator lint_on UNUSEDSIGNAL */
  // TX
  output logic                             m_tx_hdr_valid,
  input  wire logic                        m_tx_hdr_ready,
  output roce_qp_pkg::qp_tx_hdr_t          m_tx_hdr,
  output logic [roce_pkg::DATA_W-1:0]      m_axis_tx_tdata,
  output logic [roce_pkg::KEEP_W-1:0]      m_axis_tx_tkeep,
  output logic                             m_axis_tx_tvalid,
  input  wire logic                        m_axis_tx_tready,
  output logic                             m_axis_tx_tlast,
  // completions of receives
  output logic                             m_cqe_valid,
  input  wire logic                        m_cqe_ready,
  output roce_qp_pkg::cqe_t                m_cqe,
  // counters (one-cycle pulses)
  output logic                             inc_ack,          // ACK packets sent
  output logic                             inc_nak,          // NAK / RNR NAK packets sent
  output logic                             inc_rd_pkt,       // READ response packets sent
  output logic                             inc_atomic,       // atomics executed
  output logic                             inc_atomic_miss,  // duplicate atomic not in the cache
  output logic                             inc_dma_err       // DMA completion with an error
);
  localparam int AEW = 1 + 24 + 64;                // cache entry: valid, psn, orig
  localparam int APW = (NATOM > 1) ? $clog2(NATOM) : 1;
  localparam int CW  = NATOM * AEW + APW;          // cache row

  typedef enum logic [3:0] {
    T_IDLE    = 4'd0,
    T_READ    = 4'd1,
    T_AT_CMD  = 4'd2,
    T_AT_RD   = 4'd3,
    T_AT_WR   = 4'd4,
    T_AT_CPL  = 4'd5,
    T_AT_ACK  = 4'd6,
    T_DUP     = 4'd7
  } tstate_e;

  tstate_e st_q, st_d;
  logic    cpl_done_q, cpl_done_d, cqe_done_q, cqe_done_d, err_q, err_d;
  logic    killed_q, killed_d;
  // pending ACK
  logic                  pend_v_q, pend_v_d;
  roce_qp_pkg::resp_ev_t pend_q, pend_d;
  logic [7:0]            age_q, age_d;
  // READ
  logic [23:0] r_npk_q, r_npk_d, r_cmd_n_q, r_cmd_n_d, r_hdr_n_q, r_hdr_n_d, r_dat_n_q, r_dat_n_d;
  logic [63:0] r_addr_q, r_addr_d;
  logic [31:0] r_cleft_q, r_cleft_d, r_hleft_q, r_hleft_d;
  // atomic
  logic [63:0] orig_q, orig_d;
  logic        awc_done_q, awc_done_d, awd_done_q, awd_done_d;
  // cache
  logic          c_rd_en, c_we;
  logic [QW-1:0] c_wa;
  logic [CW-1:0] c_wd, c_rd;

  roce_qp_pkg::resp_ev_t ev;
  assign ev = s_ev;

  // ---- header out: one source per cycle
  typedef enum logic [1:0] {
    H_PEND = 2'd0,      // the pending ACK
    H_EV   = 2'd1,      // ACK/NAK of the head event
    H_READ = 2'd2,      // READ response packet
    H_ATOM = 2'd3       // ATOMIC ACKNOWLEDGE (or its NAK)
  } hsrc_e;
  hsrc_e       h_src;
  logic [7:0]  h_op, h_syn;
  logic [23:0] h_psn;
  logic [15:0] h_len;
  logic [63:0] h_orig;

  logic [12:0] pmtu_b;
  logic [3:0]  lg;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] npk32;          // at most 2^23 packets (2^31 bytes at PMTU 256)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0] c_len, h_plen;
  logic        flush, ev_conflict, pend_merge;
  logic        hit;
  logic [63:0] hit_orig;
  logic [63:0] newval;

  always_comb begin
    pmtu_b = roce_qp_pkg::pmtu_bytes(ev.pmtu);
    lg     = 4'(ev.pmtu) + 4'd7;
    if (ev.pmtu < 3'd1 || ev.pmtu > 3'd5) lg = 4'd8;
    npk32  = (ev.len + 32'(pmtu_b) - 32'd1) >> lg;
    c_len  = (r_cleft_q > 32'(pmtu_b)) ? 32'(pmtu_b) : r_cleft_q;
    h_plen = (r_hleft_q > 32'(pmtu_b)) ? 32'(pmtu_b) : r_hleft_q;
    newval = ev.is_cmp ? ((orig_q == ev.compare) ? ev.swap_add : orig_q) : orig_q + ev.swap_add;
    hit      = 1'b0;
    hit_orig = '0;
    for (int i = 0; i < NATOM; i++) begin
      if (c_rd[i*AEW + 88] && c_rd[i*AEW + 64 +: 24] == ev.psn) begin
        hit      = 1'b1;
        hit_orig = c_rd[i*AEW +: 64];
      end
    end
  end

  always_comb begin
    st_d       = st_q;
    cpl_done_d = cpl_done_q;
    cqe_done_d = cqe_done_q;
    err_d      = err_q;
    killed_d   = killed_q;
    pend_v_d   = pend_v_q;
    pend_d     = pend_q;
    age_d      = (pend_v_q && age_q != 8'hFF) ? age_q + 8'd1 : age_q;
    r_npk_d    = r_npk_q;
    r_cmd_n_d  = r_cmd_n_q;
    r_hdr_n_d  = r_hdr_n_q;
    r_dat_n_d  = r_dat_n_q;
    r_addr_d   = r_addr_q;
    r_cleft_d  = r_cleft_q;
    r_hleft_d  = r_hleft_q;
    orig_d     = orig_q;
    awc_done_d = awc_done_q;
    awd_done_d = awd_done_q;

    s_ev_ready       = 1'b0;
    s_cpl_ready      = 1'b0;
    m_rd_cmd_valid   = 1'b0;
    m_rd_cmd.addr    = r_addr_q;
    m_rd_cmd.len     = c_len;
    m_rd_cmd.tag     = '0;
    s_rd_axis_tready = 1'b0;
    m_aw_cmd_valid   = 1'b0;
    m_aw_cmd.addr    = ev.va;
    m_aw_cmd.len     = 32'd8;
    m_aw_cmd.tag     = '0;
    m_aw_axis_tvalid = 1'b0;
    m_aw_axis_tdata  = {448'd0, newval};
    m_aw_axis_tkeep  = 64'h0000_0000_0000_00FF;
    m_aw_axis_tlast  = 1'b1;
    s_aw_cpl_ready   = 1'b0;
    m_tx_hdr_valid   = 1'b0;
    m_axis_tx_tvalid = 1'b0;
    m_cqe_valid      = 1'b0;
    m_cqe            = ev.cqe;
    if (err_q) m_cqe.status = roce_qp_pkg::WC_GENERAL_ERR;
    c_rd_en          = 1'b0;
    c_we             = 1'b0;
    c_wa             = ev.qpn[QW-1:0];
    c_wd             = c_rd;
    h_src            = H_PEND;
    h_op             = roce_pkg::OP_RC_ACKNOWLEDGE;
    h_syn            = roce_qp_pkg::AETH_ACK;
    h_psn            = pend_q.psn;
    h_len            = 16'd0;
    h_orig           = orig_q;
    inc_ack          = 1'b0;
    inc_nak          = 1'b0;
    inc_rd_pkt       = 1'b0;
    inc_atomic       = 1'b0;
    inc_atomic_miss  = 1'b0;
    inc_dma_err      = 1'b0;

    if (st_q != T_IDLE && qp_reset_valid && qp_reset_qpn == ev.qpn[QW-1:0]) killed_d = 1'b1;

    // must the pending ACK go first?
    ev_conflict = s_ev_valid && st_q == T_IDLE &&
                  (ev.kind != roce_qp_pkg::EV_ACK ||
                   ((ev.send || err_q) && (ev.nak || err_q || ev.qpn != pend_q.qpn)));
    flush       = pend_v_q && st_q == T_IDLE && (age_q >= 8'(ACK_COALESCE) || ev_conflict);
    pend_merge  = 1'b0;

    if (flush) begin
      m_tx_hdr_valid = 1'b1;                     // h_src = H_PEND
      if (m_tx_hdr_ready) begin
        pend_v_d = 1'b0;
        inc_ack  = 1'b1;
      end
    end

    unique case (st_q)
      T_IDLE: if (s_ev_valid) begin
        unique case (ev.kind)
          roce_qp_pkg::EV_ACK: begin
            logic cpl_ok, cqe_ok;
            if (ev.wait_dma && !cpl_done_q) begin
              s_cpl_ready = 1'b1;
              if (s_cpl_valid) begin
                cpl_done_d = 1'b1;
                if (s_cpl.status != mem_pkg::DMA_OK) begin
                  err_d       = 1'b1;
                  inc_dma_err = 1'b1;
                end
              end
            end
            cpl_ok = !ev.wait_dma || cpl_done_q;
            cqe_ok = !ev.cqe_valid || cqe_done_q;
            if (cpl_ok && ev.cqe_valid && !cqe_done_q) begin
              m_cqe_valid = 1'b1;
              if (m_cqe_ready) begin
                cqe_done_d = 1'b1;
                cqe_ok     = 1'b1;
              end
            end
            if (cpl_ok && cqe_ok && !flush) begin
              if (!ev.send && !err_q) begin
                s_ev_ready = 1'b1;
              end else if (ev.nak || err_q) begin
                if (!pend_v_q) begin
                  h_src          = H_EV;
                  h_syn          = err_q ? roce_qp_pkg::AETH_NAK_REM_OP : ev.syndrome;
                  h_psn          = ev.psn;
                  m_tx_hdr_valid = 1'b1;
                  if (m_tx_hdr_ready) begin
                    s_ev_ready = 1'b1;
                    inc_nak    = 1'b1;
                  end
                end
              end else if (!pend_v_q || pend_q.qpn == ev.qpn) begin
                pend_merge = 1'b1;
                s_ev_ready = 1'b1;
              end
            end
          end
          roce_qp_pkg::EV_READ: if (!pend_v_q) begin
            r_npk_d   = (ev.len == 32'd0) ? 24'd1 : npk32[23:0];
            r_cmd_n_d = (ev.len == 32'd0) ? 24'd1 : 24'd0;
            r_dat_n_d = (ev.len == 32'd0) ? 24'd1 : 24'd0;
            r_hdr_n_d = 24'd0;
            r_addr_d  = ev.va;
            r_cleft_d = ev.len;
            r_hleft_d = ev.len;
            killed_d  = 1'b0;
            st_d      = T_READ;
          end
          roce_qp_pkg::EV_ATOMIC: if (!pend_v_q) begin
            c_rd_en    = 1'b1;
            killed_d   = 1'b0;
            err_d      = 1'b0;
            awc_done_d = 1'b0;
            awd_done_d = 1'b0;
            r_addr_d   = ev.va;
            r_cleft_d  = 32'd8;
            st_d       = T_AT_CMD;
          end
          default: if (!pend_v_q) begin   // EV_ATOMIC_DUP
            c_rd_en  = 1'b1;
            killed_d = 1'b0;
            st_d     = T_DUP;
          end
        endcase
      end

      T_READ: begin
        // commands, at most RD_AHEAD ahead of the data
        if (r_cmd_n_q != r_npk_q && (r_cmd_n_q - r_dat_n_q) < 24'(RD_AHEAD)) begin
          m_rd_cmd_valid = 1'b1;
          if (m_rd_cmd_ready) begin
            r_cmd_n_d = r_cmd_n_q + 24'd1;
            r_addr_d  = r_addr_q + 64'(c_len);
            r_cleft_d = r_cleft_q - c_len;
          end
        end
        // headers
        if (r_hdr_n_q != r_npk_q) begin
          h_src          = H_READ;
          h_psn          = ev.psn + r_hdr_n_q;
          h_len          = h_plen[15:0];
          if (r_npk_q == 24'd1)                  h_op = roce_pkg::OP_RC_READ_RESPONSE_ONLY;
          else if (r_hdr_n_q == 24'd0)           h_op = roce_pkg::OP_RC_READ_RESPONSE_FIRST;
          else if (r_hdr_n_q == r_npk_q - 24'd1) h_op = roce_pkg::OP_RC_READ_RESPONSE_LAST;
          else                                   h_op = roce_pkg::OP_RC_READ_RESPONSE_MIDDLE;
          m_tx_hdr_valid = 1'b1;
          if (m_tx_hdr_ready) begin
            r_hdr_n_d  = r_hdr_n_q + 24'd1;
            r_hleft_d  = r_hleft_q - h_plen;
            inc_rd_pkt = 1'b1;
          end
        end
        // data, straight through
        m_axis_tx_tvalid = s_rd_axis_tvalid;
        s_rd_axis_tready = m_axis_tx_tready;
        if (s_rd_axis_tvalid && m_axis_tx_tready && s_rd_axis_tlast) begin
          r_dat_n_d = r_dat_n_q + 24'd1;
          if (s_rd_axis_tuser.status != mem_pkg::DMA_OK) inc_dma_err = 1'b1;
        end
        if (r_hdr_n_q == r_npk_q && r_dat_n_q == r_npk_q) begin
          s_ev_ready = 1'b1;
          st_d       = T_IDLE;
        end
      end

      T_AT_CMD: begin
        m_rd_cmd_valid = 1'b1;                   // {va, 8}
        if (m_rd_cmd_ready) st_d = T_AT_RD;
      end

      T_AT_RD: begin
        s_rd_axis_tready = 1'b1;
        if (s_rd_axis_tvalid) begin
          orig_d = s_rd_axis_tdata[63:0];        // little endian in memory
          if (s_rd_axis_tuser.status != mem_pkg::DMA_OK) err_d = 1'b1;
          // a failed read writes nothing and answers a NAK
          if (s_rd_axis_tlast) st_d = (s_rd_axis_tuser.status != mem_pkg::DMA_OK) ? T_AT_ACK : T_AT_WR;
        end
      end

      T_AT_WR: begin
        m_aw_cmd_valid   = !awc_done_q;
        m_aw_axis_tvalid = !awd_done_q;
        if (m_aw_cmd_ready)   awc_done_d = 1'b1;
        if (m_aw_axis_tready) awd_done_d = 1'b1;
        if ((awc_done_q || m_aw_cmd_ready) && (awd_done_q || m_aw_axis_tready)) st_d = T_AT_CPL;
      end

      T_AT_CPL: begin
        s_aw_cpl_ready = 1'b1;
        if (s_aw_cpl_valid) begin
          if (s_aw_cpl.status != mem_pkg::DMA_OK) err_d = 1'b1;
          st_d = T_AT_ACK;
        end
      end

      T_AT_ACK: begin
        h_src = H_ATOM;
        h_psn = ev.psn;
        if (err_q) begin
          h_op  = roce_pkg::OP_RC_ACKNOWLEDGE;
          h_syn = roce_qp_pkg::AETH_NAK_REM_OP;
        end else begin
          h_op  = roce_pkg::OP_RC_ATOMIC_ACKNOWLEDGE;
        end
        // the cache row: entry [ptr] = {1, psn, orig}, ptr + 1
        c_wd = c_rd;
        for (int i = 0; i < NATOM; i++) begin
          if (APW'(i) == c_rd[NATOM*AEW +: APW]) c_wd[i*AEW +: AEW] = {1'b1, ev.psn, orig_q};
        end
        c_wd[NATOM*AEW +: APW] = c_rd[NATOM*AEW +: APW] + APW'(1);
        if (!qp_reset_valid) begin
          m_tx_hdr_valid = 1'b1;
          if (m_tx_hdr_ready) begin
            c_we        = !err_q && !killed_q;
            s_ev_ready  = 1'b1;
            inc_atomic  = !err_q;
            inc_nak     = err_q;
            inc_dma_err = err_q;
            err_d       = 1'b0;
            st_d        = T_IDLE;
          end
        end
      end

      T_DUP: begin
        if (hit) begin
          h_src          = H_ATOM;
          h_op           = roce_pkg::OP_RC_ATOMIC_ACKNOWLEDGE;
          h_psn          = ev.psn;
          h_orig         = hit_orig;
          m_tx_hdr_valid = 1'b1;
          if (m_tx_hdr_ready) begin
            s_ev_ready = 1'b1;
            st_d       = T_IDLE;
          end
        end else begin
          inc_atomic_miss = 1'b1;
          s_ev_ready      = 1'b1;
          st_d            = T_IDLE;
        end
      end

      default: st_d = T_IDLE;
    endcase

    if (pend_merge) begin
      if (!pend_v_q) age_d = 8'd0;
      pend_v_d = 1'b1;
      pend_d   = ev;
    end
    if (s_ev_ready) begin
      cpl_done_d = 1'b0;
      cqe_done_d = 1'b0;
      err_d      = 1'b0;
    end
    if (qp_reset_valid) begin                    // reset owns the cache write port
      c_we = 1'b1;
      c_wa = qp_reset_qpn;
      c_wd = '0;
    end
  end

 // ---- the header itself
  roce_pkg::tx_hdr_t     t;
  /* verilator lint_off UNUSEDSIGNAL */
  roce_qp_pkg::resp_ev_t src;  // only the addressing fields make the header
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    src = (h_src == H_PEND) ? pend_q : ev;
    t                  = '0;
    t.hdr.bth.opcode   = h_op;
    t.hdr.bth.pkey     = 16'hFFFF;
    t.hdr.bth.dqpn     = src.dqpn;
    t.hdr.bth.psn      = h_psn;
    t.hdr.aeth.syndrome = h_syn;
    t.hdr.aeth.msn     = src.msn;
    t.hdr.atomicacketh.orig = h_orig;
    t.pay_len          = h_len;
    m_tx_hdr.roce       = t;
    m_tx_hdr.remote_ip  = src.remote_ip;
    m_tx_hdr.remote_mac = src.remote_mac;
    m_tx_hdr.udp_sport  = src.udp_sport;
  end

  assign m_axis_tx_tdata = s_rd_axis_tdata;
  assign m_axis_tx_tkeep = s_rd_axis_tkeep;
  assign m_axis_tx_tlast = s_rd_axis_tlast;

  roce_ram_sdp #(.WIDTH(CW), .DEPTH(NQP)) u_cache (
    .clk(clk), .wr_en(c_we), .wr_addr(c_wa), .wr_data(c_wd),
    .rd_en(c_rd_en), .rd_addr(ev.qpn[QW-1:0]), .rd_data(c_rd));

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q       <= T_IDLE;
      cpl_done_q <= 1'b0;
      cqe_done_q <= 1'b0;
      err_q      <= 1'b0;
      killed_q   <= 1'b0;
      pend_v_q   <= 1'b0;
      age_q      <= 8'd0;
    end else begin
      st_q       <= st_d;
      cpl_done_q <= cpl_done_d;
      cqe_done_q <= cqe_done_d;
      err_q      <= err_d;
      killed_q   <= killed_d;
      pend_v_q   <= pend_v_d;
      age_q      <= age_d;
    end
    pend_q     <= pend_d;
    r_npk_q    <= r_npk_d;
    r_cmd_n_q  <= r_cmd_n_d;
    r_hdr_n_q  <= r_hdr_n_d;
    r_dat_n_q  <= r_dat_n_d;
    r_addr_q   <= r_addr_d;
    r_cleft_q  <= r_cleft_d;
    r_hleft_q  <= r_hleft_d;
    orig_q     <= orig_d;
    awc_done_q <= awc_done_d;
    awd_done_q <= awd_done_d;
  end

`ifndef SYNTHESIS
  initial begin
    if (NATOM < 1 || (NATOM & (NATOM - 1)) != 0) $error("roce_resp_tx: NATOM %0d is not a power of two", NATOM);
    if (ACK_COALESCE < 0 || ACK_COALESCE > 200) $error("roce_resp_tx: ACK_COALESCE %0d not in 0..200", ACK_COALESCE);
    if (roce_qp_pkg::ROCE_TX_HDR_W != roce_pkg::TX_HDR_W) $error("roce_resp_tx: roce_qp_pkg::ROCE_TX_HDR_W is stale");
  end
`endif

endmodule
