// cc_rp: DCQCN reaction point (Zhu et al., SIGCOMM 2015) for NQP QPs; the
// sending side's rate per QP, lowered on a CNP and raised by timers and
// transmitted bytes. docs/cc.md gives the state machine, formats and defaults.
//
// Per-QP row in a block RAM (roce_ram_sdp): active, Rc, Rt (Mb/s, 17 bits),
// alpha (1/1024 units, 0..1024), the timer and byte stage counts iT, iB
// (saturating at 7), the byte counter, the time of the last decrease and the
// alpha and rate-increase timers' deadlines (cycles, 32 bits, serial compare).
// A QP is active from its first accepted CNP until Rc and Rt are both back at
// the line rate; an inactive QP sends at the line rate and has no timers.
//
// One engine does one operation at a time, as a sequence of states each doing
// one add, compare or multiply digit on registered values:
//   ISSUE  an event from the input FIFO (CNP or tx bytes, stamped with the
//          cycle it arrived), else the scan's next QP; the row is read
//   LATCH  the row (RAM output) registered
//   timers (every operation, before its event): alpha timer due:
//          alpha = alpha*G/1024, deadline + period; rate timer due: iT + 1,
//          deadline + period, increase. So a QP's timers act before any later
//          event of that QP, whenever the scan comes by.
//   then   CNP: the decrease-interval check; accepted: Rt = Rc,
//                Rc = max(Rmin, Rc - Rc*alpha/2048), alpha = alpha*G/1024 +
//                (1024 - G), stages and byte counter cleared, timers armed
//          TX:   byte counter += bytes; >= B: byte counter -= B, iB + 1, increase
//          increase: max(iT,iB) < F: fast recovery; min(iT,iB) > F: Rt += HAI;
//                else Rt += AI; Rt = min(Rt, line); Rc = ceil((Rt + Rc)/2)
//   WRITE  the row and the QP's rate written back
// Multiplies go through mul_*: 2-bit digits of the 11-bit factor, one digit a
// cycle (6 cycles), with 3a computed a cycle ahead (one LUT + carry a step).
// Events and the scan alternate when both wait, so a QP's timers are looked
// at least once per 2 x NQP operations (docs/cc.md has the cycle counts).
//
// Rate read port: rate_rd_qpn in, rate_rd_mbps 2 cycles later (registered);
// an inactive QP reads the line rate. State read port (st_rd_qpn, st_rd_data:
// {act, Rc, Rt, alpha}, 2 cycles later) for the registers.
`default_nettype none

module cc_rp #(
  parameter int NQP = 256,
  parameter int QAW = $clog2(NQP)
) (
  input  wire logic        clk,
  input  wire logic        rst,
  // parameters (regs/roce.toml rp_*)
  input  wire logic [16:0] cfg_line_mbps,
  input  wire logic [16:0] cfg_min_mbps,
  input  wire logic [16:0] cfg_ai_mbps,
  input  wire logic [16:0] cfg_hai_mbps,
  input  wire logic [9:0]  cfg_g,           // alpha <- alpha * g / 1024 (+ 1024 - g on a CNP)
  input  wire logic [10:0] cfg_alpha_init,  // alpha of a QP's first CNP (1024 = 1.0)
  input  wire logic [2:0]  cfg_f,           // fast recovery stages
  input  wire logic [31:0] cfg_dec_cyc,     // decrease interval, cycles
  input  wire logic [31:0] cfg_alpha_cyc,   // alpha timer period, cycles
  input  wire logic [31:0] cfg_rai_cyc,     // rate-increase timer period, cycles
  input  wire logic [31:0] cfg_b_bytes,     // byte counter threshold
  // events
  input  wire logic        cnp_valid,
  input  wire logic [23:0] cnp_qpn,
  input  wire logic        tx_valid,
  input  wire logic [23:0] tx_qpn,
  input  wire logic [15:0] tx_bytes,
  // rate lookup for a pacer
  input  wire logic [QAW-1:0] rate_rd_qpn,
  output logic [16:0]      rate_rd_mbps,
  // a QP's state for the registers: {act, Rc, Rt, alpha} as last written, 2 cycles later
  input  wire logic [QAW-1:0] st_rd_qpn,
  output logic [45:0]      st_rd_data,
  // counters
  output logic [31:0]      cnt_cnp_handled,
  output logic [31:0]      cnt_cnp_ignored,
  output logic [31:0]      cnt_rate_dec,
  output logic [31:0]      cnt_ev_dropped
);
  if ((1 << QAW) != NQP) begin : g_bad_nqp
    $error("cc_rp: NQP must be a power of two");
  end

  typedef struct packed {
    logic        act;
    logic [16:0] rc;
    logic [16:0] rt;
    logic [10:0] al;
    logic [2:0]  it;
    logic [2:0]  ib;
    logic [31:0] bc;
    logic [31:0] tdec;
    logic [31:0] tal;
    logic [31:0] trai;
  } row_t;
  localparam int ROW_W = 1 + 17 + 17 + 11 + 3 + 3 + 32 * 4;

  // event: kind (1 = CNP), qpn, bytes, arrival cycle
  typedef struct packed {
    logic        cnp;
    logic [23:0] qpn;
    logic [15:0] bytes;
    logic [31:0] stamp;
  } ev_t;
  localparam int EV_W = 1 + 24 + 16 + 32;

  typedef enum logic [4:0] {
    S_INIT, S_ISSUE, S_RD, S_LATCH,
    S_CNP0, S_CNP1, S_CNPM1, S_CNP2, S_CNPM2, S_CNP3,
    S_TX0, S_TX1,
    S_SC0, S_SCD, S_SCM, S_SC1, S_SC2,
    S_INC0, S_INC1, S_INC2, S_INC3, S_INC4, S_WRITE
  } st_e;

  // ---- inputs: registered, then one FIFO of 16 events; a full FIFO, or a tx
  //      event in the same cycle as a CNP, drops the event (cnt_ev_dropped)
  logic        cnp_q, tx_q;
  logic [23:0] cnp_qpn_q, tx_qpn_q;
  logic [15:0] tx_bytes_q;
  logic [31:0] now_q;
  logic        in_valid, in_ready;
  ev_t         in_ev, ev;
  logic        ev_valid, ev_pop;

  always_comb begin
    in_valid     = cnp_q | tx_q;
    in_ev.cnp    = cnp_q;
    in_ev.qpn    = cnp_q ? cnp_qpn_q : tx_qpn_q;
    in_ev.bytes  = tx_bytes_q;
    in_ev.stamp  = now_q;
  end

  // the FIFO's fill level is not needed
  /* verilator lint_off PINCONNECTEMPTY */
  lib_fifo #(.WIDTH(EV_W), .DEPTH(16)) u_evq (
    .clk, .rst,
    .s_valid(in_valid), .s_ready(in_ready), .s_data(in_ev),
    .m_valid(ev_valid), .m_ready(ev_pop), .m_data(ev), .count()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- engine registers
  st_e          st_q, st_d;
  logic [QAW-1:0] scan_q, scan_d, init_q, init_d;
  logic         turn_q, turn_d;        // 1: an event goes first when both wait
  logic         cnp_op_q, cnp_op_d, tx_op_q, tx_op_d;
  logic [QAW-1:0] qpn_q, qpn_d;
  logic [15:0]  bytes_q, bytes_d;
  logic [31:0]  stamp_q, stamp_d;
  row_t         row_q, row_d;
  logic [31:0]  dt_q, dt_d;            // stamp - tdec
  logic         fal_q, fal_d, fri_q, fri_d;
  logic         evph_q, evph_d;        // 0: the timers, 1: the event
  logic         dirty_q, dirty_d;      // the row changed: write it back
  st_e          next_ev;               // the state that starts the event phase
  logic [17:0]  tmp_q, tmp_d;          // Rc - Rc*alpha/2048, Rt + Rc
  // multiplier
  logic [27:0]  ma_q, ma_d, ma3_q, ma3_d, acc_q, acc_d;
  logic [10:0]  mb_q, mb_d;
  logic [2:0]   mk_q, mk_d;
  // RAM ports
  logic         wr_en;
  logic [QAW-1:0] wr_addr;
  row_t         wr_row, rd_row;
  logic [ROW_W-1:0] rd_data;
  logic         rd_en;
  logic [QAW-1:0] rd_addr;
  // counters
  logic [31:0]  c_hand_q, c_hand_d, c_ign_q, c_ign_d, c_dec_q, c_dec_d, c_drop_q, c_drop_d;

  assign rd_row = rd_data;

  // one multiply digit: acc + {0, a, 2a, 3a}[b[1:0]]
  logic [27:0] mul_p;
  always_comb begin
    unique case (mb_q[1:0])
      2'd0: mul_p = '0;
      2'd1: mul_p = ma_q;
      2'd2: mul_p = {ma_q[26:0], 1'b0};
      default: mul_p = ma3_q;
    endcase
  end

  // the engine's control: the states, the RAM ports, the operation's registers
  // (its datapath, the row and the multiplier, is the block after this one)
  always_comb begin
    st_d = st_q; scan_d = scan_q; init_d = init_q; turn_d = turn_q;
    cnp_op_d = cnp_op_q; tx_op_d = tx_op_q; qpn_d = qpn_q; bytes_d = bytes_q; stamp_d = stamp_q;
    evph_d = evph_q; dirty_d = dirty_q; fal_d = fal_q; fri_d = fri_q;
    ev_pop = 1'b0;
    rd_en = 1'b0; rd_addr = qpn_q;
    wr_en = 1'b0; wr_addr = qpn_q; wr_row = row_q;
    next_ev = cnp_op_q ? S_CNP0 : tx_op_q ? S_TX0 : dirty_q ? S_WRITE : S_ISSUE;
    unique case (st_q)
      S_INIT: begin
        wr_en = 1'b1; wr_addr = init_q;
        wr_row = '0;
        init_d = init_q + 1'b1;
        if (init_q == QAW'(NQP - 1)) st_d = S_ISSUE;
      end
      S_ISSUE: begin
        if (ev_valid && turn_q) begin
          ev_pop = 1'b1; turn_d = 1'b0;
          cnp_op_d = ev.cnp; tx_op_d = ~ev.cnp;
          qpn_d = ev.qpn[QAW-1:0]; bytes_d = ev.bytes; stamp_d = ev.stamp;
          if (ev.qpn[23:QAW] == '0) begin   // else an unknown QP (counted in the datapath)
            rd_en = 1'b1; rd_addr = ev.qpn[QAW-1:0];
            st_d = S_RD;
          end
        end else begin
          turn_d = 1'b1;
          cnp_op_d = 1'b0; tx_op_d = 1'b0;
          qpn_d = scan_q; stamp_d = now_q;
          scan_d = scan_q + 1'b1;
          rd_en = 1'b1; rd_addr = scan_q;
          st_d = S_RD;
        end
      end
      S_RD: st_d = S_LATCH;
      S_LATCH: begin
        evph_d = 1'b0; dirty_d = 1'b0;
        st_d = S_SC0;
      end
      // ---- CNP: inside the decrease interval ignored, else Rc * alpha, alpha * g
      S_CNP0: st_d = S_CNP1;
      S_CNP1: st_d = (row_q.act && dt_q < cfg_dec_cyc) ? (dirty_q ? S_WRITE : S_ISSUE) : S_CNPM1;
      S_CNPM1: if (mk_q == 3'd5) st_d = S_CNP2;
      S_CNP2: st_d = S_CNPM2;
      S_CNPM2: if (mk_q == 3'd5) st_d = S_CNP3;
      S_CNP3: st_d = S_WRITE;
      // ---- transmitted bytes
      S_TX0: st_d = row_q.act ? S_TX1 : dirty_q ? S_WRITE : S_ISSUE;
      S_TX1: st_d = (row_q.bc >= cfg_b_bytes) ? S_INC0 : S_WRITE;
      // ---- scan: the timers
      S_SC0: begin
        fal_d = !($signed(stamp_q - row_q.tal) < 0);
        fri_d = !($signed(stamp_q - row_q.trai) < 0);
        evph_d = ~row_q.act;
        st_d = row_q.act ? S_SCD : next_ev;
      end
      S_SCD: begin
        dirty_d = fal_q | fri_q;
        evph_d = ~(fal_q | fri_q);
        st_d = fal_q ? S_SCM : fri_q ? S_SC2 : next_ev;
      end
      S_SCM: if (mk_q == 3'd5) st_d = S_SC1;
      S_SC1: begin
        evph_d = ~fri_q;
        st_d = fri_q ? S_SC2 : next_ev;
      end
      S_SC2: st_d = S_INC0;
      // ---- rate increase
      S_INC0: begin
        fal_d = (row_q.it < cfg_f) && (row_q.ib < cfg_f);   // fast recovery
        fri_d = (row_q.it > cfg_f) && (row_q.ib > cfg_f);   // hyper increase
        st_d = S_INC1;
      end
      S_INC1: st_d = S_INC2;
      S_INC2: st_d = S_INC3;
      S_INC3: st_d = S_INC4;
      S_INC4: begin
        evph_d = 1'b1;
        st_d = evph_q ? S_WRITE : next_ev;
      end
      S_WRITE: begin
        wr_en = 1'b1;
        st_d = S_ISSUE;
      end
      default: st_d = S_ISSUE;
    endcase
  end

  // the engine's datapath: the row, the multiplier, the counters (the states as above)
  always_comb begin
    row_d = row_q; dt_d = dt_q; tmp_d = tmp_q;
    c_hand_d = c_hand_q; c_ign_d = c_ign_q; c_dec_d = c_dec_q;
    c_drop_d = c_drop_q + {31'd0, in_valid & ~in_ready} + {31'd0, cnp_q & tx_q};
    // a multiply in progress (states S_CNPM1, S_CNPM2, S_SCM)
    acc_d = acc_q + mul_p;
    ma_d  = {ma_q[25:0], 2'b00};
    ma3_d = {ma3_q[25:0], 2'b00};
    mb_d  = {2'b00, mb_q[10:2]};
    mk_d  = mk_q + 3'd1;
    unique case (st_q)
      S_ISSUE:   // an unknown QP: a CNP is counted as ignored, tx bytes are dropped
        if (ev_valid && turn_q && ev.qpn[23:QAW] != '0) c_ign_d = c_ign_q + 32'(ev.cnp);
      S_LATCH: row_d = rd_row;
      S_CNP0: begin
        dt_d = stamp_q - row_q.tdec;
        if (!row_q.act) begin
          row_d.rc = cfg_line_mbps; row_d.rt = cfg_line_mbps; row_d.al = cfg_alpha_init;
        end
      end
      S_CNP1: begin
        if (row_q.act && dt_q < cfg_dec_cyc) begin
          c_ign_d = c_ign_q + 32'd1;
        end else begin
          c_hand_d = c_hand_q + 32'd1;
          // multiply Rc * alpha
          ma_d = 28'(row_q.rc); ma3_d = 28'(row_q.rc) + {10'd0, row_q.rc, 1'b0};
          mb_d = row_q.al; acc_d = '0; mk_d = '0;
        end
      end
      S_CNP2: begin
        // Rc*alpha/2048 <= Rc/2: no underflow
        tmp_d = {1'b0, row_q.rc - acc_q[27:11]};
        row_d.rt = row_q.rc;
        // multiply alpha * g
        ma_d = 28'(row_q.al); ma3_d = 28'(row_q.al) + {16'd0, row_q.al, 1'b0};
        mb_d = {1'b0, cfg_g}; acc_d = '0; mk_d = '0;
      end
      S_CNP3: begin
        row_d.al = acc_q[20:10] + (11'd1024 - {1'b0, cfg_g});
        row_d.rc = (tmp_q[16:0] < cfg_min_mbps) ? cfg_min_mbps : tmp_q[16:0];
        c_dec_d = c_dec_q + 32'(tmp_q[16:0] < row_q.rc && row_q.rc > cfg_min_mbps);
        row_d.act = 1'b1;
        row_d.it = '0; row_d.ib = '0; row_d.bc = '0;
        row_d.tdec = stamp_q;
        row_d.tal = stamp_q + cfg_alpha_cyc;
        row_d.trai = stamp_q + cfg_rai_cyc;
      end
      S_TX0: if (row_q.act) row_d.bc = row_q.bc + 32'(bytes_q);
      S_TX1: if (row_q.bc >= cfg_b_bytes) begin
        row_d.bc = row_q.bc - cfg_b_bytes;
        row_d.ib = (row_q.ib == 3'd7) ? 3'd7 : row_q.ib + 3'd1;
      end
      S_SCD: begin
        // multiply alpha * g
        ma_d = 28'(row_q.al); ma3_d = 28'(row_q.al) + {16'd0, row_q.al, 1'b0};
        mb_d = {1'b0, cfg_g}; acc_d = '0; mk_d = '0;
      end
      S_SC1: begin
        row_d.al = acc_q[20:10];
        row_d.tal = row_q.tal + cfg_alpha_cyc;
      end
      S_SC2: begin
        row_d.it = (row_q.it == 3'd7) ? 3'd7 : row_q.it + 3'd1;
        row_d.trai = row_q.trai + cfg_rai_cyc;
      end
      S_INC1: tmp_d = {1'b0, row_q.rt} + (fal_q ? 18'd0 : fri_q ? {1'b0, cfg_hai_mbps} : {1'b0, cfg_ai_mbps});
      S_INC2: row_d.rt = (tmp_q > {1'b0, cfg_line_mbps}) ? cfg_line_mbps : tmp_q[16:0];
      S_INC3: tmp_d = {1'b0, row_q.rt} + {1'b0, row_q.rc} + 18'd1;
      S_INC4: begin
        row_d.rc = tmp_q[17:1];
        row_d.act = !(tmp_q[17:1] == cfg_line_mbps && row_q.rt == cfg_line_mbps);
      end
      default: ;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q <= S_INIT; init_q <= '0; scan_q <= '0; turn_q <= 1'b0;
      cnp_q <= 1'b0; tx_q <= 1'b0; now_q <= '0;
      c_hand_q <= '0; c_ign_q <= '0; c_dec_q <= '0; c_drop_q <= '0;
    end else begin
      st_q <= st_d; init_q <= init_d; scan_q <= scan_d; turn_q <= turn_d;
      cnp_q <= cnp_valid; tx_q <= tx_valid; now_q <= now_q + 32'd1;
      c_hand_q <= c_hand_d; c_ign_q <= c_ign_d; c_dec_q <= c_dec_d; c_drop_q <= c_drop_d;
    end
    cnp_qpn_q <= cnp_qpn; tx_qpn_q <= tx_qpn; tx_bytes_q <= tx_bytes;
    cnp_op_q <= cnp_op_d; tx_op_q <= tx_op_d; qpn_q <= qpn_d; bytes_q <= bytes_d; stamp_q <= stamp_d;
    row_q <= row_d; dt_q <= dt_d; evph_q <= evph_d; dirty_q <= dirty_d; fal_q <= fal_d; fri_q <= fri_d; tmp_q <= tmp_d;
    ma_q <= ma_d; ma3_q <= ma3_d; acc_q <= acc_d; mb_q <= mb_d; mk_q <= mk_d;
  end

  roce_ram_sdp #(.WIDTH(ROW_W), .DEPTH(NQP)) u_rows (
    .clk, .wr_en, .wr_addr, .wr_data(wr_row), .rd_en, .rd_addr, .rd_data
  );

  // ---- rate table for the pacer: {active, Rc}, read, then the line rate for
  //      an inactive QP, registered
  logic [17:0] rate_rd;
  logic [17:0] rate_wr;
  logic [16:0] rate_d;
  assign rate_wr = {wr_row.act, wr_row.rc};
  roce_ram_sdp #(.WIDTH(18), .DEPTH(NQP)) u_rate (
    .clk, .wr_en, .wr_addr, .wr_data(rate_wr), .rd_en(1'b1), .rd_addr(rate_rd_qpn), .rd_data(rate_rd)
  );
  assign rate_d = rate_rd[17] ? rate_rd[16:0] : cfg_line_mbps;
  always_ff @(posedge clk) rate_rd_mbps <= rate_d;

  // ---- the state for the registers (a copy of the row's first fields), registered
  logic [45:0] st_rd;
  roce_ram_sdp #(.WIDTH(46), .DEPTH(NQP)) u_st (
    .clk, .wr_en, .wr_addr, .wr_data({wr_row.act, wr_row.rc, wr_row.rt, wr_row.al}),
    .rd_en(1'b1), .rd_addr(st_rd_qpn), .rd_data(st_rd)
  );
  always_ff @(posedge clk) st_rd_data <= st_rd;

  assign cnt_cnp_handled = c_hand_q;
  assign cnt_cnp_ignored = c_ign_q;
  assign cnt_rate_dec    = c_dec_q;
  assign cnt_ev_dropped  = c_drop_q;
endmodule
