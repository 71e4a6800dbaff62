// roce_resp_tx: the answering half of the responder. Takes the events of
// roce_resp_check in order and produces, on one TX header channel plus
// payload stream:
//   EV_ACK        waits for the DMA write completion of its packet (memory
//                 holds the data before anything is acknowledged), pushes
//                 the receive CQE, then sends a NAK / RNR NAK, or folds an
//                 ACK into the pending ACK (coalescing, below)
//   EV_READ       takes a READ response context (RD_CTX of them): the
//                 contexts send READ RESPONSE FIRST/MIDDLE/LAST or ONLY
//                 packets round robin, one packet per turn, one DMA read
//                 command per packet (issued while fewer than RD_AHEAD data
//                 beats are owed: a few packets at MTU 4096, tens at 256),
//                 the payload passed straight from the DMA read stream
//   EV_ATOMIC     8-byte read, compare-swap / fetch-add, 8-byte write (its
//                 own DMA write port), wait for the write, ATOMIC ACKNOWLEDGE,
//                 result into the per-QP cache of the last NATOM atomics
//   EV_ATOMIC_DUP ATOMIC ACKNOWLEDGE from the cache (never executed twice);
//                 a PSN no longer cached is dropped and counted
//
// Per-QP order (docs/transport.md, "READ responses of several QPs"): every
// answer of a QP goes out in the order of its requests. The READs of one QP
// are chained (a context waits for its predecessor of the same QP); an ACK
// or NAK of a QP with READ contexts becomes its youngest context's trailing
// answer, sent right after that READ's last packet (later ACKs replace an
// earlier trailing ACK: they are cumulative); an atomic of such a QP waits
// until its READs are out. Answers of other QPs pass. A READ/atomic reads
// memory only after every earlier packet's DMA write completed (the events
// come in order), so a READ sees the WRITEs before it.
//
// Every header goes into one header FIFO (in the order it was decided), every
// DMA read command into one command FIFO: the DMA read data (in command order)
// pairs with the headers that carry payload in the same order. Atomic reads
// carry tag 1 and are taken here, READ data (tag 0) goes to m_axis_tx.
//
// ACK coalescing: an ACK (not a NAK) of a QP without READ contexts becomes
// the pending ACK; later ACKs of the same QP update it (PSN, MSN). It is sent
// when it is ACK_COALESCE cycles old, or before anything else must be sent
// by the event engine (another QP's ACK, a NAK, a READ or an atomic).
// ACK_COALESCE = 0 sends every ACK one cycle after its event.
//
// Boundaries (timing, docs/timing.md): every output from a register. The
// events, the payload write completions and the DMA read data enter through
// skid buffers (u_ev, u_cpl, u_rd: +1 cycle each, ready from a register);
// READ data leaves through u_tx, CQEs through u_cqe (+1 cycle each); the
// header FIFO has a registered output (lib_fifo, +1 cycle), the command FIFO
// an output register a command reaches in the cycle after it was decided
// when the FIFO is empty (so the RD_AHEAD loop is as short as before: a READ
// packet's beats count as owed from its command until each enters u_rd; its
// room, cf_room_q, is registered from the next count, so a fire starts at
// flip-flops). The
// atomic's state machine is one-hot (st_q[S_x]). Its new value is computed
// in a state of its own (S_AT_NV, +1 cycle) into the register that drives
// m_aw_axis_tdata; the counter pulses are registered (+1 cycle; the ACK/NAK
// pulses of the contexts' answers +2: they are decided in the cycle after the
// fire, fire_q, from the fired context's registered class hack_q/hnak_q or
// its trailing answer's tnak). A duplicate atomic's cache look-up takes two
// states of its own after the cache read (+3 cycles): S_DUP_M registers each
// entry's PSN match (dm_q) from the RAM's output, S_DUP_P per group of four
// entries the orig of the last that matches (go_q, ga_q) and the hit
// (hit_q), S_DUP_H the last group's (hit_orig_q), which S_DUP answers from.
//
// The head event's QP against the READ contexts: qm_q[i] (context i's QPN is
// the head event's) and pm_q (the pending ACK's QPN is) are registered,
// computed a cycle ahead from the event that becomes the head (u_ev's skid
// register, copied in skq_q, or s_ev) and each context's QPN (a context
// allocated now takes the present head's), so the engine's decisions start
// from flip-flops (no cycle added). Likewise, from the next head event (u_ev's
// skid register's flags copied in skf_q, or s_ev) and the next state: aeh_q
// (in S_IDLE, an EV_ACK head whose DMA write completed or that waits for
// none), aeq_q (its CQE pushed or none), se_q (ev.send || err_q), ne_q
// (ev.nak || err_q: err_q as an EV_ACK head sees it) and age_old_q (the
// pending ACK is ACK_COALESCE cycles old). The EV_ACK decision is taken in
// parts kept apart (ack_ok, ack_fl, ack_go), each a LUT of registers.
// Whether the head event's QP has a context in use is registered too, per
// group of three contexts (xbg_q, from the next head's QPN matches and the
// contexts in use or allocated now, in parts like qm_q's): x_bf = |xbg_q is
// at least x_busy, and the same unless a context was freed (or done without
// a trailing answer) or a QP reset came in the last cycle (xch_q); the
// decisions that look at it (the EV_ACK's trailing answer or own context,
// the atomic's answer) wait a cycle then, so they start at flip-flops.
//
// The READ contexts, cycle by cycle: in cycle 0 a context is written
// (allocated, or a packet of it sent: nw); in cycle 1 its next packet's
// length (plen_q), "more than one packet left" (big_q) and "no byte left"
// (lz_q) are computed from the registered context; in cycle 2 whether it
// is a candidate (cand_q, with its done and payload flags cdone_q, cpay_q)
// is registered, without the choice made in that cycle, and so is "a
// candidate from the round robin's next mask on" (candh_q: cand_q && rrm_q);
// from cycle 3 on it may be chosen. The round-robin choice among the
// candidates (the first of candh_q, else the first of cand_q) is made in
// two steps, per group of four contexts (the first of each kind, its index,
// done and payload flags) and then across the groups, every step a kept net;
// it is registered (sel_q and one-hot sel_oh_q, with the chosen context's
// done and payload flags) and its packet
// goes to the FIFOs from the next cycle on, as soon as RD_AHEAD, the FIFOs
// and the serial engine's header (seh_q, first) let it, while the next
// choice (another context) is made. So one context sends at most one
// packet every 4 cycles (a READ response packet has at least 4 beats, at
// MTU 256), several contexts one per cycle. A freed context's successor is
// unblocked in the cycle after (freed_q). Each context computes its own
// next PSN, address and bytes left when it fires (no multiplexer in front of
// the adders), and a cycle ahead its next packet's opcode (opr_q; a READ
// context's hsyn is AETH_ACK and its orig 0), so the header is a multiplexer
// of registers. The head event's QP's contexts (its youngest) and the first
// free context are one-hot vectors reduced in parallel; whether the youngest
// can take a trailing answer comes from per-context flags registered from
// the next state (ok0_q: any answer, oka_q: an ACK), "a context is free"
// likewise (free_v_q: one allocated counts as in use; one a QP reset frees,
// or one done without a trailing answer in a cycle a trailing answer is
// written, counts a cycle later); a new context's fields come from registers,
// and every context not in use takes them in every cycle; the allocation
// decision is registered (ap_v_q, ap_oh_q: the first free context) and sets
// the in-use flag (and clears the youngest's tail) a cycle later, as a
// trailing answer decided is written a cycle later (tr_v_q, from the head
// event, which is not looked at in that cycle), so no decision reaches the
// contexts' registers (a new context is a candidate a cycle later). The event engine's own header (seh) takes the pending ACK's fields
// or the event's by registers only (a flush happens only with an ACK
// pending, a NAK is pushed only with none), and seh_q loads while empty.
//
// The head event is decided from registers and the contexts as before, but
// taken from u_ev (pop_q) in the cycle after it is done, a cycle in which
// it is not looked at (ev_live): the decision's depth stays off u_ev's
// enables and off qm_q/pm_q (an event every 2 cycles at most; nothing is
// decided later than before). A chosen context is taken as still in use
// unless a QP reset came in the last two cycles (krs_q: then it waits; a
// context a reset kills may still be a candidate, and chosen, in the next
// cycle), and the atomic's read command state is a state bit of its own
// (st_q[S_AT_CMD]), so a context's fire starts at flip-flops.
//
// The event engine's own answers (a flushed pending ACK, a NAK, an atomic's
// answer) wait one cycle in seh_q and enter the header FIFO before any
// context's packet; their QP has no READ context, so each QP's order holds.
`default_nettype none

module roce_resp_tx #(
  parameter int NQP          = 256,
  parameter int ACK_COALESCE = 8,      // cycles an ACK may wait for more ACKs of its QP
  parameter int RD_AHEAD     = 128,    // READ response data beats owed (issued, not yet through) below which a packet goes
  parameter int RD_CTX       = 8,      // READ response contexts (READs being answered at once)
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
  // the tags of the DMA write completions are not needed (in order)
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire mem_pkg::dma_cpl_t           s_cpl,
  /* verilator lint_on UNUSEDSIGNAL */
  // DMA read (READ responses, atomics)
  output logic                             m_rd_cmd_valid,
  input  wire logic                        m_rd_cmd_ready,
  output mem_pkg::dma_rd_cmd_t             m_rd_cmd,
  output roce_qp_pkg::dma_usr_t            m_rd_cmd_usr,   // beside m_rd_cmd: a READ of a streaming MR
  input  wire logic [mem_pkg::DATA_W-1:0]  s_rd_axis_tdata,
  input  wire logic [mem_pkg::STRB_W-1:0]  s_rd_axis_tkeep,
  input  wire logic                        s_rd_axis_tvalid,
  output logic                             s_rd_axis_tready,
  input  wire logic                        s_rd_axis_tlast,
  input  wire mem_pkg::dma_cpl_t           s_rd_axis_tuser,
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
  localparam int NC  = RD_CTX;
  localparam int CXW = (NC > 1) ? $clog2(NC) : 1;
  localparam int AHW = $clog2(RD_AHEAD + 65) + 1;  // (up to RD_AHEAD - 1 + 64 beats owed)

  // the atomic's state machine, one-hot (st_q[S_x]: in state x)
  localparam int S_IDLE   = 0;
  localparam int S_AT_CMD = 1;
  localparam int S_AT_RD  = 2;
  localparam int S_AT_WR  = 3;
  localparam int S_AT_CPL = 4;
  localparam int S_AT_ACK = 5;
  localparam int S_DUP    = 6;
  localparam int S_AT_NV  = 7;    // the new value, a cycle after the read
  localparam int S_DUP_M  = 8;    // the cache row read: each entry's PSN match, registered
  localparam int S_DUP_P  = 9;    // per group of four entries the last match's orig, and the hit, registered
  localparam int S_DUP_H  = 10;   // that entry's orig, registered
  localparam int NS       = 11;

  // A header as decided (the header FIFO's entry); m_tx_hdr is built from it.
  typedef struct packed {
    logic [7:0]  op;
    logic [23:0] psn;
    logic [7:0]  syn;
    logic [23:0] msn;
    logic [23:0] dqpn;
    logic [31:0] ip;
    logic [47:0] mac;
    logic [15:0] sport;
    logic [15:0] len;
    logic [63:0] orig;
  } hdr_t;
  localparam int HW = 8 + 24 + 8 + 24 + 24 + 32 + 48 + 16 + 16 + 64;   // $bits(hdr_t), for Yosys

  // A READ response context: one READ being answered, or (hdr) one other
  // answer of a QP whose READs are being answered, waiting for its turn.
  typedef struct packed {
    logic           v;       // in use
    logic           nw;      // written last cycle (allocated or a packet sent): its big_q, lz_q, plen_q are stale
    logic           hdr;     // an answer without payload (hop, hsyn, orig), not a READ
    logic           blk;     // waits for its predecessor (an older READ of the same QP)
    logic [CXW-1:0] pred;    // that predecessor
    logic           tail;    // youngest context of its QP
    logic           st;      // first packet sent
    logic [QW-1:0]  qpn;
    logic [23:0]    psn;     // PSN of the next packet
    logic [23:0]    msn;
    logic [23:0]    dqpn;
    logic [31:0]    ip;
    logic [47:0]    mac;
    logic [15:0]    sport;
    logic [2:0]     pmtu;
    logic [63:0]    addr;    // next byte to read
    logic [31:0]    left;    // bytes not yet issued
    logic [23:0]    npe;     // the PSN after the READ's last response
    logic           stream;  // the READ's MR is streaming: its data comes from user logic
    logic           tv;      // trailing answer (ACK/NAK after the READ's last packet)
    logic           tnak;
    logic [23:0]    tpsn;
    logic [23:0]    tmsn;
    logic [7:0]     tsyn;
    logic [7:0]     hop;
    logic [7:0]     hsyn;
    logic [63:0]    orig;
  } ctx_t;
  localparam int XW = 8 + 8 + 64 + 6 + CXW + QW + 24 * 4 + 32 + 48 + 16 + 3 + 64 + 32 + 1 + 2 + 24 * 2 + 8;  // $bits(ctx_t)

  logic [NS-1:0] st_q, st_d;                      // one-hot
  logic    cpl_done_q, cpl_done_d, cqe_done_q, cqe_done_d, err_q, err_d;
  logic    killed_q, killed_d;
  // pending ACK
  logic                  pend_v_q, pend_v_d;
  roce_qp_pkg::resp_ev_t pend_q, pend_d;
  logic [7:0]            age_q, age_d;
  // READ contexts
  logic [XW-1:0]  cx_q [NC];
  logic [XW-1:0]  cx_d [NC];
  logic [NC-1:0]  rrm_q, rrm_d;                    // round robin: the contexts from the first to look at on
  logic [AHW-1:0] ahead_q, ahead_d;                // READ data beats issued, not yet through
  // atomic
  logic [63:0] orig_q, orig_d;
  logic        oeq_q, oeq_d;                         // orig == the compare-swap's compare (registered with orig_q)
  logic [63:0] nv_q, nv_d;                         // the atomic's new value
  logic        awc_v_q, awc_v_d, awd_v_q, awd_v_d;   // the atomic's write command and data (outputs)
  logic        at_start, rd_fin, rd_bad, wr_done;  // the atomic's state machine: its transitions
  logic        krs_q;                              // a QP reset in the last two cycles
  logic        krs_q_1;                            // a QP reset last cycle
  logic        pop_q;                              // the head event is done: u_ev takes the next one now
  logic        ev_live;                            // the head event, not yet done
  logic        ap_v_q, ap_v_d, tr_v_q;             // an allocation, a trailing answer decided last cycle
  logic        ap_dup_q;                           // that allocation is a duplicate READ's
  logic        dk;                                 // ... now: its QP's other contexts are dropped
  logic [NC-1:0] olt_q, olt_d;                     // context in use whose next PSN is before the head event's (a cycle ago)
  logic [NC-1:0] cov_q, cov_d;                     // READ context in use that answers the head event's PSN next or later
  logic        oltv_q;                             // olt_q, cov_q were computed for the present head event
  logic        rd_hold;                            // a duplicate READ head: wait (olt_q, cov_q not yet valid)
  logic        rd_chain;                           // a duplicate READ head behind older contexts: queued as any READ
  logic [23:0] olt_dp [NC];                         // (PSN differences, their sign)
  logic [23:0] cov_da [NC], cov_db [NC];
  /* verilator lint_off UNUSEDSIGNAL */
  ctx_t        oc;                                 // (its PSN)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [NC-1:0] ap_oh_q;                          // the allocation's context (the first free one then)
  // cache
  logic          c_rd_en, c_we;
  logic [QW-1:0] c_wa;
  logic [CW-1:0] c_wd, c_rd;
  // header FIFO, DMA read command FIFO
  logic                 hf_in_valid, hf_in_ready, hf_out_valid;
  hdr_t                 hf_in, hf_out;
  logic                 cf_in_valid, cf_in_ready;
  mem_pkg::dma_rd_cmd_t cf_in;
  roce_qp_pkg::dma_usr_t cf_usr;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [2:0]           hf_cnt, cf_cnt;            // occupancy (hf_cnt: not needed)
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- the inputs, each through a skid buffer (registered ready, registered data)
  roce_qp_pkg::resp_ev_t ev;                       // the head event
  logic                  ev_valid, ev_ready;
  lib_skid #(.WIDTH(roce_qp_pkg::RESP_EV_W)) u_ev (
    .clk, .rst, .s_valid(s_ev_valid), .s_ready(s_ev_ready), .s_data(s_ev),
    .m_valid(ev_valid), .m_ready(pop_q), .m_data(ev));

  logic              cpl_valid, cpl_ready;
  /* verilator lint_off UNUSEDSIGNAL */
  mem_pkg::dma_cpl_t cpl;                          // (its tag: the completions come in order)
  /* verilator lint_on UNUSEDSIGNAL */
  lib_skid #(.WIDTH(mem_pkg::CPL_W)) u_cpl (
    .clk, .rst, .s_valid(s_cpl_valid), .s_ready(s_cpl_ready), .s_data(s_cpl),
    .m_valid(cpl_valid), .m_ready(cpl_ready), .m_data(cpl));

  // the DMA read data (READ responses and atomics' reads)
  // (with the beat's "tag 0" decided before the skid buffer: rd_tag0)
  localparam int RDW = 1 + mem_pkg::DATA_W + mem_pkg::STRB_W + 1 + mem_pkg::CPL_W;
  logic                       rd_valid, rd_ready, rd_last;
  logic [mem_pkg::DATA_W-1:0] rd_data;
  logic [mem_pkg::STRB_W-1:0] rd_keep;
  /* verilator lint_off UNUSEDSIGNAL */
  mem_pkg::dma_cpl_t          rd_user;             // (its tag: rd_tag0)
  /* verilator lint_on UNUSEDSIGNAL */
  lib_skid #(.WIDTH(RDW)) u_rd (
    .clk, .rst, .s_valid(s_rd_axis_tvalid), .s_ready(s_rd_axis_tready),
    .s_data({s_rd_axis_tuser.tag == '0, s_rd_axis_tuser, s_rd_axis_tlast, s_rd_axis_tkeep, s_rd_axis_tdata}),
    .m_valid(rd_valid), .m_ready(rd_ready), .m_data({rd_tag0, rd_user, rd_last, rd_keep, rd_data}));

  logic [63:0] newval;
  // the duplicate atomic's cache look-up, a stage per decision: the entries'
  // PSN matches (dm_q, in S_DUP_M); per group of four entries, the orig of
  // the last entry that matches and whether one does (go_q, ga_q), and the
  // hit (in S_DUP_P); the last group's orig (in S_DUP_H)
  localparam int NG = (NATOM + 3) / 4;
  logic [NATOM-1:0] dm_q, dm_d;
  logic [NG-1:0]    ga_q, ga_d;
  logic [63:0]      go_q [NG];
  logic [63:0]      go_d [NG];
  logic        hit_q, hit_d;
  logic [63:0] hit_orig_q, hit_orig_d;
  logic        rd_tag0;                            // the DMA read beat is READ response data
  logic        tx_valid, tx_ready;                 // READ data into u_tx
  logic        cqe_valid, cqe_ready;               // the receive CQE into u_cqe
  roce_qp_pkg::cqe_t cqe;
  // the counters' pulses, registered
  logic        inc_ack_d, inc_nak_d, inc_rd_pkt_d, inc_atomic_d, inc_atomic_miss_d, inc_dma_err_d;
  logic [5:0]  inc_q, inc_d;
  assign inc_d = {inc_ack_d, inc_nak_d, inc_rd_pkt_d, inc_atomic_d, inc_atomic_miss_d, inc_dma_err_d};
  assign {inc_ack, inc_nak, inc_rd_pkt, inc_atomic, inc_atomic_miss, inc_dma_err} = inc_q;
  logic        flush, ev_conflict, pend_merge;


  always_comb begin
    newval = ev.is_cmp ? (oeq_q ? ev.swap_add : orig_q) : orig_q + ev.swap_add;
  end
  // (the cache's read data holds from S_DUP_M to S_DUP: read only in S_IDLE)
  always_comb begin
    for (int i = 0; i < NATOM; i++) dm_d[i] = c_rd[i*AEW + 88] && c_rd[i*AEW + 64 +: 24] == ev.psn;
    for (int k = 0; k < NG; k++) begin
      ga_d[k] = 1'b0;
      go_d[k] = '0;
      for (int i = 4 * k; i < 4 * k + 4 && i < NATOM; i++) begin
        if (dm_q[i]) begin                       // the last entry that matches
          ga_d[k] = 1'b1;
          go_d[k] = c_rd[i*AEW +: 64];
        end
      end
    end
    hit_d      = |dm_q;
    hit_orig_d = '0;
    for (int k = 0; k < NG; k++) begin
      if (ga_q[k]) hit_orig_d = go_q[k];
    end
  end

  // module-level variables: Yosys 0.23 takes no struct variables in blocks
  /* verilator lint_off UNUSEDSIGNAL */
  ctx_t        cs, cc, cr, cp, cf;         // contexts read (the scan's, the choice's, the chosen, the next packet's, the fired: not every field used)
  /* verilator lint_on UNUSEDSIGNAL */
  ctx_t        nf, nu, na, nt;         // contexts written (the fire's, the freeing's, the allocation's, the tail's)
  (* keep *) logic x_busy;                        // the head event's QP has a context in use
  localparam int NG3 = (RD_CTX + 2) / 3;           // groups of three contexts
  (* keep *) logic [NG3-1:0] xb_g, xo_g, xa_g;     // per group: xb, xto, xta reduced
  // x_busy for the decisions, from flip-flops: per group, registered from the
  // next head's QPN match and "in use next cycle" without the frees and
  // resets of this cycle (xbg_q: at least x_busy's groups); exact unless a
  // context was freed or a QP reset came last cycle (xch_q: the decisions
  // that need x_busy wait a cycle then)
  logic [NG3-1:0] xbg_q, xbg_d;
  (* keep *) logic [NG3-1:0] xsk_g, xin_g, xap_g;  // per group: in use and of the skid's, s_ev's QP; allocated now
  logic           xch_q, xch_d, x_bf;
  logic        free_v, alloc, alloc_h, trail_we, se_push, se_cmd;
  logic [CXW-1:0] x_tail, free_i, sel, ch, sel_q;
  logic [NC-1:0]  xb, xt, xto, xta, fr;
  // registered a cycle ahead, from the contexts' next state: context i is its
  // QP's youngest, in use and not done, and has no trailing answer (ok0_q) or
  // no trailing NAK (oka_q); some context is free next cycle (free_v_q: one
  // a QP reset frees counts a cycle later)
  logic [NC-1:0]  ok0_q, ok0_d, oka_q, oka_d, dn_n, dnf;
  logic           free_v_q, free_v_d;
  logic           age_old_q, age_old_d;  // the pending ACK is ACK_COALESCE cycles old (age_q >= ACK_COALESCE)
  (* keep *) logic x_tail_ok;      // per context: the head event's QP's, its youngest, ... ; free first
  logic        ch_v, ch_done, ch_pay, sel_v_q, sel_done_q, sel_pay_q;   // the choice, registered
  logic        hold, sel_v_d, sel_done_d, sel_pay_d;
  logic [CXW-1:0] sel_d;
  // (kept apart: each a LUT of the ones before it, none of them shared in chains)
  (* keep *) logic [NC-1:0] gh, gl, ch_g;           // the round-robin choice, one-hot
  logic [NC-1:0]  fh, fl;                          // gh, gl as computed
  localparam int NG4 = (NC + 3) / 4;               // groups of four contexts
  (* keep *) logic [NG4-1:0] hg_any, cg_any, hg_dn, cg_dn, hg_py, cg_py;   // per group: see the choice
  (* keep *) logic [1:0]     hg_ix [NG4];
  (* keep *) logic [1:0]     cg_ix [NG4];
  (* keep *) logic [NG4-1:0] gsh, gsl, gdn, gpy;
  (* keep *) logic           ch_hv;
  logic [1:0]     ch_ix;
  logic [NC-1:0]  sel_oh_q, sel_oh_d, rrm_n;       // the choice registered, one-hot; rrm_q after it
  logic        sel_v, fire, sel_pay;
  logic [NC-1:0] done, cand, freed;
  logic [NC-1:0] cand_q, cand_d, cand_n, candh_q, candh_n, cdone_q, cdone_d, cpay_q, cpay_d;   // a cycle ahead of the choice
  logic [NC-1:0] cx_rs, cs_v;                      // context in use and of the reset QP; in use
  logic          ev_rs;                            // the head event's QP is the reset one
  // per context, a cycle after it was written: more than one packet left, no byte left, the next packet's length
  logic [NC-1:0] big_q, big_d, lz_q, lz_d, freed_q;
  logic [12:0]   plen_q [NC];
  logic [12:0]   plen_d [NC];
  logic [12:0]   pmtu_i [NC];
  logic [7:0]    opr_q [NC];                       // the opcode of its next packet, a cycle later still
  logic [7:0]    opr_d [NC];
  logic [31:0] plen;
  hdr_t        seh, seh_q, seh_d;          // the serial engine's header, as decided and registered
  logic        seh_v_q, seh_v_d, se_room, se_we;
  logic [XW-1:0] cx_f [NC];                        // the contexts after the fire
  logic [XW-1:0] cx_u [NC];                        // ... after freeing and unblocking
  // the event engine's decisions, by what decides them
  logic        ack_cpl_ok, ack_ready, ack_nak_push;
  // the EV_ACK decision in parts (kept apart: each a function of registers)
  (* keep *) logic ack_ev, ack_ok, ack_fl, ack_go;
  // registered a cycle ahead, from the next state and the next head event
  // (u_ev's skid register's kind and flags copied in skf_q): in S_IDLE with
  // an EV_ACK head whose DMA write completed or that waits for none (aeh_q),
  // its CQE pushed or none (aeq_q); ack_ev && ack_cpl_ok is aeh_q && !pop_q
  logic          aeh_q, aeh_d, aeq_q, aeq_d;
  logic [5:0]    skf_q, skf_d;                     // {kind, wait_dma, cqe_valid, send, nak} in u_ev's skid register
  logic [1:0]    nx_kind;
  logic          nx_valid, nx_wait, nx_cqe, nx_send, nx_nak;   // the next cycle's head event
  // the head event's answer, registered likewise: ev.send || err_q (se_q), ev.nak || err_q (ne_q)
  logic          se_q, ne_q;
  logic          err_a;
  logic        ack_cpl_set, ack_cqe_set, ack_err_set, ack_dma_err, ack_inc_nak, ack_alloc_h;
  logic        rd_alloc, rd_ev;
  logic        at_ready, at_push, at_alloc_h, at_err_set, at_err_clr, at_inc_nak, at_dma_err;
  logic        f_inc_ack, f_inc_nak, d_dma_err;
  logic           fire_q, fdone_q;                 // a context's packet went out last cycle (a trailing answer)
  logic [CXW-1:0] fsel_q;                          // that context
  logic [NC-1:0]  hack_q, hack_d, hnak_q, hnak_d;  // per context: an answer without payload that is an ACK, a NAK

  // ---- which contexts belong to the head event's QP, registered: qm_q[i] is
  // (cx_q[i].qpn == ev.qpn) for every context in use, and pm_q is
  // (pend_q.qpn == ev.qpn) while an ACK is pending. Both are computed a cycle
  // ahead from the next head event (u_ev's skid register, copied in skq_q, or
  // s_ev) and the contexts' next QPN (a context allocated takes ev.qpn).
  logic [NC-1:0] qm_q, qm_d;
  logic          pm_q, pm_d;
  logic [23:0]   skq_q, skq_d;                     // the QPN in u_ev's skid register
  logic          ev_adv, ev_sk;
  logic [NC-1:0] qm_sk, qm_in;                     // context i's QPN == the skid's, s_ev's
  logic          qe_sk, qe_in, pe_sk, pe_in;       // ev.qpn, pend_q.qpn == the skid's, s_ev's
  always_comb begin
    skq_d  = s_ev_ready ? s_ev.qpn : skq_q;        // (u_ev's skid register loads only when empty)
    ev_sk  = !s_ev_ready;                          // u_ev's skid register holds an event
    ev_adv = pop_q || !ev_valid;                   // u_ev's head is replaced next cycle
    for (int i = 0; i < NC; i++) begin
      cs       = cx_q[i];
      qm_sk[i] = cs.qpn == skq_q[QW-1:0];
      qm_in[i] = cs.qpn == s_ev.qpn[QW-1:0];
    end
    qe_sk = ev.qpn[QW-1:0] == skq_q[QW-1:0];
    qe_in = ev.qpn[QW-1:0] == s_ev.qpn[QW-1:0];
    // (the QPN's QW low bits, as for qm_q: a QP's number is below NQP)
    pe_sk = pend_q.qpn[QW-1:0] == skq_q[QW-1:0];
    pe_in = pend_q.qpn[QW-1:0] == s_ev.qpn[QW-1:0];
    // a context not in use now may be allocated now (its QPN: ev.qpn, and
    // the event is taken), else it stays unused and its qm_q does not matter;
    // likewise the pending ACK (merged only with its own QP's ACKs)
    for (int i = 0; i < NC; i++) begin
      cs = cx_q[i];
      // (the head stays: a context allocated now is the head's)
      if (!ev_adv)    qm_d[i] = cs.v ? qm_q[i] : 1'b1;
      else if (cs.v)  qm_d[i] = ev_sk ? qm_sk[i] : qm_in[i];
      else            qm_d[i] = ev_sk ? qe_sk : qe_in;
    end
    if (!ev_adv)       pm_d = pend_v_q ? pm_q : 1'b1;   // (an ACK merged now is the head's)
    else if (pend_v_q) pm_d = ev_sk ? pe_sk : pe_in;
    else               pm_d = ev_sk ? qe_sk : qe_in;
  end

  // ---- x_busy a cycle ahead, per group: a context in use next cycle unless
  // freed or reset now (then xch_q), or allocated now (ap_v_q), and of the
  // next head's QP (qm_d)
  // (in parts, as qm_d's: the head stays, xb_g, as no context is allocated
  // then; the next head from the skid register, from s_ev; a context
  // allocated now is the present head's)
  always_comb begin
    for (int g = 0; g < NG3; g++) begin
      xsk_g[g] = 1'b0;
      xin_g[g] = 1'b0;
      xap_g[g] = 1'b0;
      for (int k = 0; k < 3; k++) begin
        if (3 * g + k < NC) begin
          xsk_g[g] = xsk_g[g] || (cs_v[3*g+k] && qm_sk[3*g+k]);
          xin_g[g] = xin_g[g] || (cs_v[3*g+k] && qm_in[3*g+k]);
          xap_g[g] = xap_g[g] || (!cs_v[3*g+k] && ap_oh_q[3*g+k]);
        end
      end
      xbg_d[g] = !ev_adv ? xb_g[g] :
                 ev_sk   ? (xsk_g[g] || (ap_v_q && qe_sk && xap_g[g])) :
                           (xin_g[g] || (ap_v_q && qe_in && xap_g[g]));
    end
  end

  // ---- the contexts of the head event's QP, and a free context, as one-hot
  // vectors reduced in parallel: xt (the QP's youngest context: at most one),
  // fr (the first context not in use)
  always_comb begin
    x_tail      = '0;
    free_i      = '0;
    for (int i = 0; i < NC; i++) begin
      cs      = cx_q[i];
      done[i] = cs.v && cs.st && lz_q[i] && !cs.nw;
      xb[i]   = cs.v && qm_q[i];
      xt[i]   = cs.v && qm_q[i] && cs.tail;
      // the head event's ACK/NAK may become this context's trailing answer
      // (an ACK replaces an earlier trailing ACK): from the registered
      // per-context flags (ok0_q: any answer, oka_q: an ACK)
      xto[i]  = qm_q[i] && ok0_q[i];
      xta[i]  = qm_q[i] && oka_q[i];
      fr[i]   = !cs.v;
      for (int j = 0; j < i; j++) begin
        cs = cx_q[j];
        if (!cs.v) fr[i] = 1'b0;
      end
    end
    // (in groups of three contexts, kept: two LUT levels each)
    for (int g = 0; g < NG3; g++) begin
      xb_g[g] = 1'b0;
      xo_g[g] = 1'b0;
      xa_g[g] = 1'b0;
      for (int k = 0; k < 3; k++) begin
        if (3 * g + k < NC) begin
          xb_g[g] = xb_g[g] || xb[3*g+k];
          xo_g[g] = xo_g[g] || xto[3*g+k];
          xa_g[g] = xa_g[g] || xta[3*g+k];
        end
      end
    end
    x_busy      = |xb_g;
    x_bf        = |xbg_q;
    x_tail_ok   = (|xo_g) || (!ne_q && (|xa_g));
    free_v      = free_v_q;
    for (int i = 0; i < NC; i++) begin
      if (xt[i]) x_tail = x_tail | CXW'(i);
      if (fr[i]) free_i = free_i | CXW'(i);
    end
  end

  // ================================================ the event engine
  // must the pending ACK go first?
  assign ev_live     = ev_valid && !pop_q;
  assign ev_conflict = ev_live && st_q[S_IDLE] &&
                       (ev.kind != roce_qp_pkg::EV_ACK ||
                        (se_q && (ne_q || !pm_q)));
  assign flush       = pend_v_q && st_q[S_IDLE] && (age_old_q || ev_conflict);

  // ---- EV_ACK: the DMA write completion, the receive CQE, then the answer
  always_comb begin
    ack_ev       = st_q[S_IDLE] && ev_live && ev.kind == roce_qp_pkg::EV_ACK;
    cpl_ready  = 1'b0;
    ack_cpl_set  = 1'b0;
    ack_err_set  = 1'b0;
    ack_dma_err  = 1'b0;
    ack_cqe_set  = 1'b0;
    cqe_valid  = 1'b0;
    cqe        = ev.cqe;
    if (err_q) cqe.status = roce_qp_pkg::WC_GENERAL_ERR;
    if (ack_ev && ev.wait_dma && !cpl_done_q) begin
      cpl_ready = 1'b1;
      if (cpl_valid) begin
        ack_cpl_set = 1'b1;
        if (cpl.status != mem_pkg::DMA_OK) begin
          ack_err_set = 1'b1;
          ack_dma_err = 1'b1;
        end
      end
    end
    ack_cpl_ok = !ev.wait_dma || cpl_done_q;
    if (ack_ev && ack_cpl_ok && ev.cqe_valid && !cqe_done_q) begin
      cqe_valid = 1'b1;
      if (cqe_ready) ack_cqe_set = 1'b1;
    end
    // (ack_ok, ack_fl: ack_cpl_ok, ack_cqe_ok and flush, given ack_ev)
    // (aeh_q: in S_IDLE, an EV_ACK head, its DMA write complete; aeq_q: its
    // CQE pushed or none; both registered, see below)
    ack_ok = aeh_q && !pop_q && (aeq_q || cqe_ready);
    ack_fl = pend_v_q && (age_old_q || (se_q && (ne_q || !pm_q)));
    ack_go = ack_ok && !ack_fl;
  end

  // ---- EV_ACK: nothing to send, the trailing answer of a READ, a NAK, or the pending ACK
  always_comb begin
    ack_ready    = 1'b0;
    ack_nak_push = 1'b0;
    ack_inc_nak  = 1'b0;
    ack_alloc_h  = 1'b0;
    trail_we     = 1'b0;
    pend_merge   = 1'b0;
    if (ack_go) begin
      if (!se_q) begin
        ack_ready = 1'b1;
      end else if (x_bf) begin
        // after the QP's READ responses: the trailing answer of its
        // youngest context (an ACK replaces an earlier trailing ACK),
        // else a context of its own (x_bf not sure, xch_q: a cycle later)
        if (!xch_q && x_tail_ok) begin
          trail_we  = 1'b1;
          ack_ready = 1'b1;
        end else if (!xch_q && free_v) begin
          ack_alloc_h = 1'b1;
          ack_ready   = 1'b1;
        end
      end else if (ne_q) begin
        if (!pend_v_q) begin
          ack_nak_push = 1'b1;
          if (se_room) begin
            ack_ready   = 1'b1;
            ack_inc_nak = 1'b1;
          end
        end
      end else if (!pend_v_q || pm_q) begin
        pend_merge = 1'b1;
        ack_ready  = 1'b1;
      end
    end
  end

  always_comb begin
    skf_d    = s_ev_ready ? {s_ev.kind, s_ev.wait_dma, s_ev.cqe_valid, s_ev.send, s_ev.nak} : skf_q;
    nx_valid = ev_adv ? (ev_sk || s_ev_valid) : ev_valid;
    {nx_kind, nx_wait, nx_cqe, nx_send, nx_nak} =
      !ev_adv ? {ev.kind, ev.wait_dma, ev.cqe_valid, ev.send, ev.nak} :
      ev_sk   ? skf_q : {s_ev.kind, s_ev.wait_dma, s_ev.cqe_valid, s_ev.send, s_ev.nak};
    // (st_q, not st_d: the state enters S_IDLE only with at_ready, and the
    // head is popped next cycle, when aeh_q is not looked at)
    aeh_d    = st_q[S_IDLE] && nx_valid && nx_kind == roce_qp_pkg::EV_ACK && (!nx_wait || cpl_done_d);
    aeq_d    = !nx_cqe || cqe_done_d;
    // err_d as far as an EV_ACK head goes (the atomic's states set and
    // clear err_q only for an atomic head, and a head's err_q starts at 0)
    err_a    = (err_q || ack_err_set) && !pop_q;
  end

  // ---- EV_READ: a context, chained behind the QP's youngest (not one in its last cycle)
  assign rd_ev    = st_q[S_IDLE] && ev.kind == roce_qp_pkg::EV_READ;
  assign rd_alloc = rd_ev && ev_live && !pend_v_q && free_v && !rd_hold;
  // A duplicate READ at PSN p, judged from registers of the cycle before
  // (the head unchanged since, no context dropped then: oltv_q; qm_q the
  // contexts of its QP):
  //   no READ context of its QP answers p next or later (its next PSN <= p <
  //     the PSN after its last: cov_q) and one answers an earlier PSN (olt_q:
  //     an earlier duplicate of the same resend still answering, whose
  //     responses the requester waits for first): queued behind it as any
  //     READ (rd_chain);
  //   else (the requester restarted inside a READ being answered, or nothing
  //     of its QP is being answered) allocated at once, and its QP's other
  //     contexts are dropped in the next cycle (dk): its answers start again
  //     at p with a READ RESPONSE FIRST or ONLY, as rxe replays a READ.
  // No duplicate waits at the head for another context to finish: the
  // event queue is every QP's.
  always_comb begin
    for (int i = 0; i < NC; i++) begin
      oc        = cx_q[i];
      olt_dp[i] = oc.psn - ev.psn;
      olt_d[i]  = cs_v[i] && olt_dp[i][23];
      cov_da[i] = ev.psn - oc.psn;
      cov_db[i] = ev.psn - oc.npe;
      cov_d[i]  = cs_v[i] && !oc.hdr && !cov_da[i][23] && cov_db[i][23];
    end
    rd_hold  = ev.rd_dup && !oltv_q;
    rd_chain = |(olt_q & qm_q) && !(|(cov_q & qm_q));
  end

  // ---- EV_ATOMIC / EV_ATOMIC_DUP: the atomic's own state machine
  always_comb begin
    killed_d   = killed_q;
    orig_d     = orig_q;
    oeq_d      = oeq_q;
    nv_d       = nv_q;
    awc_v_d    = awc_v_q;
    awd_v_d    = awd_v_q;
    se_cmd     = st_q[S_AT_CMD];                 // the atomic's read command: {va, 8}, tag 1
    at_err_set = 1'b0;
    at_err_clr = 1'b0;
    at_start   = st_q[S_IDLE] && ev_live && !pend_v_q && (ev.kind == roce_qp_pkg::EV_ATOMIC ||
                                                          ev.kind == roce_qp_pkg::EV_ATOMIC_DUP);
    c_rd_en    = at_start;
    if (!st_q[S_IDLE] && qp_reset_valid && qp_reset_qpn == ev.qpn[QW-1:0]) killed_d = 1'b1;
    if (at_start) begin
      killed_d = 1'b0;
      if (ev.kind == roce_qp_pkg::EV_ATOMIC) at_err_clr = 1'b1;
    end
    if (st_q[S_AT_RD] && rd_valid && !rd_tag0) begin   // rd_ready below
      orig_d = rd_data[63:0];                    // little endian in memory
      oeq_d  = rd_data[63:0] == ev.compare;      // (the compare a cycle ahead of S_AT_NV's choice)
      if (rd_user.status != mem_pkg::DMA_OK) at_err_set = 1'b1;
    end
    if (st_q[S_AT_NV]) begin                     // the new value, a cycle after the read
      nv_d    = newval;
      awc_v_d = 1'b1;
      awd_v_d = 1'b1;
    end
    if (st_q[S_AT_WR]) begin
      if (m_aw_cmd_ready)   awc_v_d = 1'b0;
      if (m_aw_axis_tready) awd_v_d = 1'b0;
    end
    if (st_q[S_AT_CPL] && s_aw_cpl_valid && s_aw_cpl.status != mem_pkg::DMA_OK) at_err_set = 1'b1;
  end
  // the next state, one-hot: each state from the states and conditions that lead to it
  // (a failed read writes nothing and answers a NAK)
  always_comb begin
    rd_fin  = rd_valid && !rd_tag0 && rd_last;
    rd_bad  = rd_user.status != mem_pkg::DMA_OK;
    wr_done = (!awc_v_q || m_aw_cmd_ready) && (!awd_v_q || m_aw_axis_tready);
    st_d[S_IDLE]   = (st_q[S_IDLE] && !at_start) || ((st_q[S_AT_ACK] || st_q[S_DUP]) && at_ready);
    st_d[S_AT_CMD] = (at_start && ev.kind == roce_qp_pkg::EV_ATOMIC) || (st_q[S_AT_CMD] && !cf_room_q);
    st_d[S_AT_RD]  = (st_q[S_AT_CMD] && cf_room_q) || (st_q[S_AT_RD] && !rd_fin);
    st_d[S_AT_NV]  = st_q[S_AT_RD] && rd_fin && !rd_bad;
    st_d[S_AT_WR]  = st_q[S_AT_NV] || (st_q[S_AT_WR] && !wr_done);
    st_d[S_AT_CPL] = (st_q[S_AT_WR] && wr_done) || (st_q[S_AT_CPL] && !s_aw_cpl_valid);
    st_d[S_AT_ACK] = (st_q[S_AT_RD] && rd_fin && rd_bad) || (st_q[S_AT_CPL] && s_aw_cpl_valid) ||
                     (st_q[S_AT_ACK] && !at_ready);
    st_d[S_DUP_M]  = at_start && ev.kind == roce_qp_pkg::EV_ATOMIC_DUP;
    st_d[S_DUP_P]  = st_q[S_DUP_M];
    st_d[S_DUP_H]  = st_q[S_DUP_P];
    st_d[S_DUP]    = st_q[S_DUP_H] || (st_q[S_DUP] && !at_ready);
  end

  // ---- the atomic's answer (S_AT_ACK) or a duplicate's from the cache (S_DUP)
  always_comb begin
    at_ready        = 1'b0;
    at_push         = 1'b0;
    at_alloc_h      = 1'b0;
    at_inc_nak      = 1'b0;
    at_dma_err      = 1'b0;
    inc_atomic_d      = 1'b0;
    inc_atomic_miss_d = 1'b0;
    c_we            = 1'b0;
    c_wa            = ev.qpn[QW-1:0];
    // the cache row: entry [ptr] = {1, psn, orig}, ptr + 1
    c_wd = c_rd;
    for (int i = 0; i < NATOM; i++) begin
      if (APW'(i) == c_rd[NATOM*AEW +: APW]) c_wd[i*AEW +: AEW] = {1'b1, ev.psn, orig_q};
    end
    c_wd[NATOM*AEW +: APW] = c_rd[NATOM*AEW +: APW] + APW'(1);
    if (st_q[S_AT_ACK]) begin
      // the answer goes out now, or after the QP's READ responses (the
      // memory is updated now: IB fence semantics, as for a WRITE)
      // (x_bf: at least x_busy, the same unless xch_q)
      if (!qp_reset_valid && (x_bf ? free_v && !xch_q : se_room)) begin
        at_push    = !x_bf;
        at_alloc_h = x_bf;
        c_we       = !err_q && !killed_q;
        at_ready   = 1'b1;
        inc_atomic_d = !err_q;
        at_inc_nak = err_q && !x_bf;             // a deferred NAK is counted when sent
        at_dma_err = err_q;
      end else if (!qp_reset_valid && !x_bf) begin
        at_push    = 1'b1;                       // waits for room in the header FIFO
      end
    end
    if (st_q[S_DUP]) begin
      if (hit_q) begin
        at_push = !x_bf;
        if (x_bf ? free_v && !xch_q : se_room) begin
          at_alloc_h = x_bf;
          at_ready   = 1'b1;
        end
      end else begin
        inc_atomic_miss_d = 1'b1;
        at_ready        = 1'b1;
      end
    end
    if (qp_reset_valid) begin                    // reset owns the cache write port
      c_we = 1'b1;
      c_wa = qp_reset_qpn;
      c_wd = '0;
    end
  end

  // ---- the serial engine's header: the pending ACK unless said otherwise
  always_comb begin
    seh       = '0;
    seh.op    = roce_pkg::OP_RC_ACKNOWLEDGE;
    seh.syn   = roce_qp_pkg::AETH_ACK;
    seh.psn   = pend_q.psn;
    seh.msn   = pend_q.msn;
    seh.dqpn  = pend_q.dqpn;
    seh.ip    = pend_q.remote_ip;
    seh.mac   = pend_q.remote_mac;
    seh.sport = pend_q.udp_sport;
    seh.orig  = orig_q;
    // (the pending ACK's fields only for a flush: in S_IDLE with an ACK
    // pending; a NAK of the event engine is pushed only with none pending)
    if (!(st_q[S_IDLE] && pend_v_q)) begin
      seh.psn   = ev.psn;
      seh.msn   = ev.msn;
      seh.dqpn  = ev.dqpn;
      seh.ip    = ev.remote_ip;
      seh.mac   = ev.remote_mac;
      seh.sport = ev.udp_sport;
    end
    if (st_q[S_IDLE] && !pend_v_q) seh.syn = err_q ? roce_qp_pkg::AETH_NAK_REM_OP : ev.syndrome;
    if (st_q[S_AT_ACK]) begin
      if (err_q) seh.syn = roce_qp_pkg::AETH_NAK_REM_OP;
      else       seh.op  = roce_pkg::OP_RC_ATOMIC_ACKNOWLEDGE;
    end
    if (st_q[S_DUP]) begin
      seh.op   = roce_pkg::OP_RC_ATOMIC_ACKNOWLEDGE;
      seh.orig = hit_orig_q;
    end
  end

  // ---- the event's handshake, the pending ACK, the event engine's flags
  assign ev_ready = ack_ready || rd_alloc || at_ready;
  assign se_push    = flush || ack_nak_push || at_push;
  // the serial engine's header waits in seh_q, and goes into the header FIFO
  // before any context's (its QP has no READ context, so the order of each
  // QP's answers stays)
  assign se_room    = !seh_v_q;
  assign se_we      = se_push && se_room;
  assign seh_v_d    = (seh_v_q && !hf_in_ready) || se_we;
  assign seh_d      = seh_v_q ? seh_q : seh;       // (loaded while empty: read only when valid)
  assign alloc      = rd_alloc;
  assign alloc_h    = ack_alloc_h || at_alloc_h;
  always_comb begin
    pend_v_d   = pend_v_q;
    pend_d     = pend_q;
    age_d      = (pend_v_q && age_q != 8'hFF) ? age_q + 8'd1 : age_q;
    // (age_d >= ACK_COALESCE; age_q saturates at 255 > ACK_COALESCE)
    age_old_d  = ACK_COALESCE == 0 || (pend_v_q && 9'(age_q) + 9'd1 >= 9'(ACK_COALESCE));
    if (flush && se_room) pend_v_d = 1'b0;
    if (!pend_v_q) age_d = 8'd0;                 // (counts from the first ACK merged)
    if (pend_merge) begin
      pend_v_d = 1'b1;
      pend_d   = ev;
    end
    cpl_done_d = (cpl_done_q || ack_cpl_set) && !pop_q;
    cqe_done_d = (cqe_done_q || ack_cqe_set) && !pop_q;
    err_d      = err_q;
    if (ack_err_set || at_err_set) err_d = 1'b1;
    if (at_err_clr)                err_d = 1'b0;
    if (pop_q)                   err_d = 1'b0;
    inc_ack_d     = (flush && se_room) || f_inc_ack;
    inc_nak_d     = ack_inc_nak || at_inc_nak || f_inc_nak;
    inc_dma_err_d = ack_dma_err || at_dma_err || d_dma_err;
  end

  // ================================================ the READ contexts
  // candidates: a packet to send (within RD_AHEAD unless it has no payload),
  // or a finished READ's trailing answer; round robin from rr_q. The choice
  // is registered (sel_q); its packet goes out in the next cycle, while the
  // next choice (not the same context) is made.
  // Each context's candidacy and its done and payload flags are registered
  // (cand_q, cdone_q, cpay_q) and the choice made from them a cycle later.
  // Left out a cycle ahead: the context chosen now (it may fire now) and the
  // contexts a QP reset kills now. A context not in use now is no candidate
  // (allocated now, it is written: nw); a candidate is freed only by its own
  // fire (done with a trailing answer) and blocked only when allocated; its
  // done, trailing answer and byte count change only with a write (nw). An
  // unblocking or a trailing answer makes a candidate a cycle later.
  always_comb begin
    for (int i = 0; i < NC; i++) begin
      cc         = cx_q[i];
      // (a context a QP reset kills now may be a candidate next cycle, and
      // chosen then: its choice never fires, krs_q)
      cand_d[i]  = cc.v && !cc.blk && !cc.nw && (!done[i] || cc.tv) &&   // (RD_AHEAD: checked when sent)
                   !sel_oh_q[i];
      cdone_d[i] = done[i];
      cpay_d[i]  = !done[i] && !lz_q[i];
      cand[i]    = cand_q[i];                     // (without the present choice, sel_oh_q: see cand_n)
    end
  end
  // the first candidate from the round robin's on (candh_q: cand_q && rrm_q),
  // else the first one, in two steps: per group of four contexts the first
  // candidate of each kind (gh, gl: one-hot), whether there is one (hg_any,
  // cg_any), its index and its done and payload flags; then the first group
  // that has one (gsh, gsl) and its first
  always_comb begin
    for (int g = 0; g < NG4; g++) begin
      hg_any[g] = 1'b0;
      cg_any[g] = 1'b0;
      hg_dn[g]  = 1'b0;
      cg_dn[g]  = 1'b0;
      hg_py[g]  = 1'b0;
      cg_py[g]  = 1'b0;
      hg_ix[g]  = '0;
      cg_ix[g]  = '0;
      for (int k = 0; k < 4; k++) begin
        if (4 * g + k < NC) begin
          fh[4*g+k] = candh_q[4*g+k] && !hg_any[g];
          fl[4*g+k] = cand[4*g+k]    && !cg_any[g];
          if (fh[4*g+k]) begin
            hg_dn[g] = cdone_q[4*g+k];
            hg_py[g] = cpay_q[4*g+k];
            hg_ix[g] = 2'(k);
          end
          if (fl[4*g+k]) begin
            cg_dn[g] = cdone_q[4*g+k];
            cg_py[g] = cpay_q[4*g+k];
            cg_ix[g] = 2'(k);
          end
          hg_any[g] = hg_any[g] || candh_q[4*g+k];
          cg_any[g] = cg_any[g] || cand[4*g+k];
        end
      end
    end
    gh = fh;                                     // (kept: the choice's one-hot from these)
    gl = fl;
  end
  always_comb begin
    for (int g = 0; g < NG4; g++) begin
      gsh[g] = hg_any[g];
      gsl[g] = cg_any[g];
      for (int f = 0; f < g; f++) begin
        if (hg_any[f]) gsh[g] = 1'b0;
        if (cg_any[f]) gsl[g] = 1'b0;
      end
    end
    ch_hv   = |hg_any;
    ch_v    = |cg_any;
    ch_g    = '0;
    ch      = '0;
    ch_ix   = '0;
    for (int g = 0; g < NG4; g++) begin
      // the group's share of the choice's done and payload flags
      gdn[g] = ch_hv ? gsh[g] && hg_dn[g] : gsl[g] && cg_dn[g];
      gpy[g] = ch_hv ? gsh[g] && hg_py[g] : gsl[g] && cg_py[g];
    end
    ch_done = |gdn;
    ch_pay  = |gpy;
    for (int g = 0; g < NG4; g++) begin
      for (int k = 0; k < 4; k++) begin
        if (4 * g + k < NC) ch_g[4*g+k] = ch_hv ? gsh[g] && gh[4*g+k] : gsl[g] && gl[4*g+k];
      end
      if (ch_hv ? gsh[g] : gsl[g]) begin
        ch_ix   = ch_hv ? hg_ix[g] : cg_ix[g];
        ch      = CXW'(4 * g) | CXW'(ch_ix);
      end
    end
  end
  // the choice stays until its packet is sent (e.g. waiting for RD_AHEAD), unless its context is gone
  always_comb begin
    hold       = sel_v_q && cr.v && !fire;
    sel_v_d    = hold || ch_v;
    sel_d      = hold ? sel_q : ch;
    sel_oh_d   = hold ? sel_oh_q : ch_g;
    sel_done_d = hold ? sel_done_q : ch_done;
    sel_pay_d  = hold ? sel_pay_q : ch_pay;
    // the candidates of the next cycle without its choice (sel_oh_d: the
    // choice made now unless the present one is held; cand_d is without
    // the present one)
    cand_n     = cand_d & ~(ch_g & {NC{!hold}});
    candh_n    = cand_n & rrm_d;                 // (and from the round robin's next mask on)
  end

  // ---- the chosen context's packet (a context chosen stays as it was, but for a QP reset)
  always_comb begin
    sel     = sel_q;
    cr      = cx_q[sel];
    // (the chosen context is still in use unless a QP reset came last cycle)
    sel_v   = sel_v_q && !krs_q && (!sel_pay_q || ahead_q < AHW'(RD_AHEAD));
    plen    = 32'(plen_q[sel]);
    sel_pay = sel_pay_q;
    fire = sel_v && !seh_v_q && hf_in_ready && (!sel_pay || (!se_cmd && cf_room_q));
  end

  // ---- each context's next packet, computed from the registered context a cycle ahead
  always_comb begin
    for (int i = 0; i < NC; i++) begin
      cp        = cx_q[i];
      // the opcode of its next packet (unless it is done: then its trailing answer)
      if (cp.hdr)     opr_d[i] = cp.hop;
      else if (!cp.st) opr_d[i] = big_q[i] ? roce_pkg::OP_RC_READ_RESPONSE_FIRST
                                           : roce_pkg::OP_RC_READ_RESPONSE_ONLY;
      else            opr_d[i] = big_q[i] ? roce_pkg::OP_RC_READ_RESPONSE_MIDDLE
                                           : roce_pkg::OP_RC_READ_RESPONSE_LAST;
      pmtu_i[i] = roce_qp_pkg::pmtu_bytes(cp.pmtu);
      big_d[i]  = cp.left > 32'(pmtu_i[i]);
      lz_d[i]   = cp.left == 32'd0;
      plen_d[i] = big_d[i] ? pmtu_i[i] : cp.left[12:0];
    end
  end

  // ---- the header FIFO's and the command FIFO's inputs
  // (the data as if pushed; the valids choose: a fire needs !seh_v_q, and
  // a fire with payload !se_cmd)
  always_comb begin
    hf_in_valid = seh_v_q || fire;
    cf_in_valid = se_cmd || (fire && sel_pay);
    hf_in       = '0;
    cf_in.addr  = ev.va;                         // the atomic's 8-byte read
    cf_in.len   = 32'd8;
    cf_in.tag   = {{(mem_pkg::TAG_W-1){1'b0}}, 1'b1};
    cf_usr      = '0;                            // (an atomic's read: memory; a streaming MR grants no atomic)
    if (seh_v_q) begin
      hf_in       = seh_q;
    end else begin
      hf_in.dqpn  = cr.dqpn;
      hf_in.ip    = cr.ip;
      hf_in.mac   = cr.mac;
      hf_in.sport = cr.sport;
      // (a READ context's hsyn is AETH_ACK and its orig 0; the length is 0
      // but for a READ response packet: no byte left)
      hf_in.len   = plen[15:0];
      if (sel_done_q) begin
        hf_in.op  = roce_pkg::OP_RC_ACKNOWLEDGE;
        hf_in.psn = cr.tpsn;
        hf_in.msn = cr.tmsn;
        hf_in.syn = cr.tsyn;
      end else begin
        hf_in.op   = opr_q[sel];
        hf_in.psn  = cr.psn;
        hf_in.msn  = cr.msn;
        hf_in.syn  = cr.hsyn;
        hf_in.orig = cr.orig;
      end
    end
    if (!se_cmd) begin                           // (a context's command: never with the atomic's, see fire)
      cf_in.addr  = cr.addr;
      cf_in.len   = plen;
      cf_in.tag   = '0;
      cf_usr.stream = cr.stream;
      cf_usr.qpn    = 24'(cr.qpn);
    end
  end

  // ---- the chosen context after its packet (each context computes its own
  // next packet's fields: no multiplexer in front of the adders)
  always_comb begin
    for (int i = 0; i < NC; i++) begin
      nf      = cx_q[i];
      nf.nw   = 1'b0;
      if (fire && sel_oh_q[i]) begin
        if (sel_done_q) begin
          nf.v = 1'b0;                           // the trailing answer is out: free
        end else begin
          nf.st = 1'b1;
          nf.nw = 1'b1;
          if (!nf.hdr) begin
            nf.psn  = nf.psn + 24'd1;
            nf.addr = nf.addr + 64'(plen_q[i]);
            nf.left = nf.left - 32'(plen_q[i]);
          end
        end
      end
      cx_f[i] = nf;
    end
  end
  always_comb begin
    rrm_d      = rrm_q;
    for (int i = 0; i < NC; i++) rrm_n[i] = ({1'b0, sel} == (CXW+1)'(NC - 1)) || CXW'(i) > sel;
    inc_rd_pkt_d = 1'b0;
    if (fire && !sel_done_q) begin
      rrm_d = rrm_n;
      if (!cr.hdr) inc_rd_pkt_d = 1'b1;
    end
  end
  // the ACK/NAK pulses of the contexts' packets, a cycle after the fire
  // (fire_q, fsel_q, fdone_q), from the context as it was written then (a
  // context freed keeps its fields for that cycle)
  always_comb begin
    for (int i = 0; i < NC; i++) begin
      cf        = cx_q[i];
      hack_d[i] = cf.hdr && cf.hop == roce_pkg::OP_RC_ACKNOWLEDGE && cf.hsyn[7:5] == 3'b000;
      hnak_d[i] = cf.hdr && cf.hop == roce_pkg::OP_RC_ACKNOWLEDGE && cf.hsyn[7:5] != 3'b000;
    end
    cf        = cx_q[fsel_q];
    f_inc_ack = fire_q && (fdone_q ? !cf.tnak : hack_q[fsel_q]);
    f_inc_nak = fire_q && (fdone_q ?  cf.tnak : hnak_q[fsel_q]);
  end

  // ---- finished contexts freed, their successors unblocked
  always_comb begin
    freed = '0;
    if (fire && sel_done_q) freed[sel] = 1'b1;
    // finished without a trailing answer: free now
    for (int i = 0; i < NC; i++) begin
      nu = cx_f[i];
      if (done[i] && !nu.tv && !(tr_v_q && xt[i])) begin   // (its trailing answer written now: kept)
        nu.v     = 1'b0;
        freed[i] = 1'b1;
      end
      cx_u[i] = nu;
    end
    // the successor of a context freed last cycle may start
    for (int i = 0; i < NC; i++) begin
      nu = cx_u[i];
      if (nu.v && nu.blk && freed_q[nu.pred]) nu.blk = 1'b0;   // freed last cycle
      cx_u[i] = nu;
    end
  end

  // ---- the head event's new context or trailing answer; a QP reset
  always_comb begin
    for (int i = 0; i < NC; i++) begin
      cs       = cx_q[i];
      cs_v[i]  = cs.v;
      cx_rs[i] = cs.v && cs.qpn == qp_reset_qpn;
    end
    ev_rs = ev.qpn[QW-1:0] == qp_reset_qpn;
  end
  always_comb begin
    for (int i = 0; i < NC; i++) cx_d[i] = cx_u[i];
    // the head event's READ (or deferred answer): a new context behind the
    // QP's youngest. Every context not in use takes its fields in every
    // cycle (they are looked at only in use), so the allocation decides
    // only the in-use flag of the first free one (and the youngest's tail)
    na = '0;
    begin
      na.v     = 1'b0;
      // (from registers: an allocation in S_IDLE is the event's, a READ
      // or an ACK/NAK; else the atomic's answer)
      na.hdr   = !rd_ev;
      na.hop   = seh.op;
      na.hsyn  = rd_ev                           ? roce_qp_pkg::AETH_ACK :
                 st_q[S_IDLE]                    ? (err_q ? roce_qp_pkg::AETH_NAK_REM_OP : ev.syndrome) :
                 (st_q[S_AT_ACK] && err_q)       ? roce_qp_pkg::AETH_NAK_REM_OP : roce_qp_pkg::AETH_ACK;
      na.orig  = rd_ev ? 64'd0 : seh.orig;
      na.nw    = 1'b1;
      na.blk   = x_busy;                         // (x_tail freed now: unblocked by freed_q next cycle)
      na.pred  = x_tail;
      na.tail  = 1'b1;
      na.qpn   = ev.qpn[QW-1:0];
      na.psn   = ev.psn;                         // (seh's too, when alloc_h)
      na.msn   = ev.msn;
      na.dqpn  = ev.dqpn;
      na.ip    = ev.remote_ip;
      na.mac   = ev.remote_mac;
      na.sport = ev.udp_sport;
      na.pmtu  = ev.pmtu;
      na.addr  = ev.va;
      na.left  = rd_ev ? ev.len : 32'd0;
      na.npe   = ev.rnext;
      na.stream = ev.stream;
    end
    for (int i = 0; i < NC; i++) begin
      // the allocation decided last cycle (ap_v_q: the event is not looked
      // at now) puts its context in use, its fields loaded then; its
      // predecessor may have been freed last cycle
      if (!cs_v[i]) begin
        if (ap_v_q && ap_oh_q[i]) begin
          nt      = cx_q[i];
          nt.v    = 1'b1;
          if (freed_q[nt.pred] || ap_dup_q) nt.blk = 1'b0;   // (a duplicate READ's: its predecessors go now)
        end else begin
          nt      = na;
          nt.v    = 1'b0;
        end
        cx_d[i] = nt;
      end
      // the QP's youngest is no longer (its context is in use: not fr[i])
      if (ap_v_q && xt[i]) begin
        nt      = cx_d[i];
        nt.tail = 1'b0;
        cx_d[i] = nt;
      end
      // the head event's ACK/NAK: the trailing answer of the QP's youngest
      // READ, decided last cycle (the event is still the head, not looked at)
      if (tr_v_q && xt[i]) begin
        nt      = cx_d[i];
        nt.tv   = 1'b1;
        nt.tnak = ne_q;
        nt.tpsn = ev.psn;
        nt.tmsn = ev.msn;
        nt.tsyn = err_q ? roce_qp_pkg::AETH_NAK_REM_OP : ev.syndrome;
        cx_d[i] = nt;
      end
      // a reset QP loses its READs (packets already issued still go out);
      // a context not in use now is in use next only if allocated now, for ev.qpn.
      // A duplicate READ's allocation (dk: last cycle's, the event still the
      // head, qm_q its QP's contexts) drops every other context of its QP:
      // the requester resends everything from the duplicate's PSN on
      nt = cx_d[i];
      if ((qp_reset_valid && (cx_rs[i] || (!cs_v[i] && ev_rs))) || (dk && cs_v[i] && qm_q[i])) nt.v = 1'b0;
      cx_d[i] = nt;
    end
  end

  // ---- the per-context flags of the trailing-answer test and the free test,
  // a cycle ahead from the next state. A context in use stays unless freed
  // (only when done) or reset; it is done next cycle when its first packet is
  // out and no byte is left (!big_q after a packet, lz_q else); its tail is cleared
  // and its trailing answer set by this cycle's ap_v_q, tr_v_q. A context not
  // in use is in use next only when allocated now (its fields loaded in the
  // last cycle: tail, no trailing answer, not done). A QP reset is left out:
  // next cycle no context of that QP is in use, so x_busy is 0 for it and
  // x_tail_ok is not looked at; for another QP's event qm_q[i] is 0.
  always_comb begin
    for (int i = 0; i < NC; i++) begin
      cs       = cx_q[i];
      // (written last cycle with its first packet out: a packet was sent
      // then, and no byte is left after it unless it was more than one
      // packet's worth, big_q as of the fire)
      dn_n[i]  = cs.st && (cs.nw ? !big_q[i] : lz_q[i]);
      if (cs_v[i]) begin
        ok0_d[i] = cs.tail && !(ap_v_q && xt[i]) && !dn_n[i];
        oka_d[i] = ok0_d[i] && ((tr_v_q && xt[i]) ? !ne_q : (!cs.tv || !cs.tnak));
        ok0_d[i] = ok0_d[i] && !cs.tv && !(tr_v_q && xt[i]);
      end else begin
        ok0_d[i] = ap_v_q && ap_oh_q[i];
        oka_d[i] = ok0_d[i];
      end
    end
    // (a context allocated now, ap_v_q, is in use next cycle; one freed
    // now is free next cycle: by its trailing answer's fire, or done without
    // one, unless a trailing answer is written now, tr_v_q)
    for (int i = 0; i < NC; i++) begin
      cs        = cx_q[i];
      dnf[i]    = done[i] && !cs.tv;
    end
    free_v_d = |(~cs_v & ~(ap_oh_q & {NC{ap_v_q}})) || (fire && sel_done_q) || (!tr_v_q && (|dnf));
    // a context freed now (|freed, or one done without a trailing answer
    // whose answer is written now: a cycle of waiting more) or a QP reset
    xch_d    = (fire && sel_done_q) || (|dnf) || qp_reset_valid || dk;
  end

  // ---- READ data through to m_axis_tx; atomic data (tag 1) taken here
  always_comb begin
    ahead_d          = ahead_q;
    d_dma_err        = 1'b0;
    tx_valid = rd_valid && rd_tag0;
    rd_ready = rd_tag0 ? tx_ready : st_q[S_AT_RD];
    if (rd_valid && rd_tag0 && tx_ready && rd_last && rd_user.status != mem_pkg::DMA_OK) d_dma_err = 1'b1;
    // a READ packet's beats (its length / 64, rounded up: the DMA stream
    // packs them) are owed from its command until each enters u_rd
    if (s_rd_axis_tvalid && s_rd_axis_tready && s_rd_axis_tuser.tag == '0)
      ahead_d = ahead_d - AHW'(1);
    if (cf_in_valid && cf_room_q && cf_in.tag == '0)
      ahead_d = ahead_d + AHW'(plen[12:6]) + AHW'(plen[5:0] != '0);
  end

  // the atomic's write: the new value at the atomic's address
  assign s_aw_cpl_ready = st_q[S_AT_CPL];
  // an allocation for a QP reset now is not made (as its context would be freed now)
  assign ap_v_d         = (alloc || alloc_h) && !(qp_reset_valid && ev_rs);
  assign dk             = ap_v_q && ap_dup_q;
  always_comb begin
    m_aw_cmd_valid   = awc_v_q;
    m_aw_cmd.addr    = ev.va;
    m_aw_cmd.len     = 32'd8;
    m_aw_cmd.tag     = '0;
    m_aw_axis_tvalid = awd_v_q;
    m_aw_axis_tdata  = {448'd0, nv_q};
    m_aw_axis_tkeep  = 64'h0000_0000_0000_00FF;
    m_aw_axis_tlast  = 1'b1;
  end
  // the outputs: FIFOs with a registered output, skid buffers
  lib_fifo #(.WIDTH(HW), .DEPTH(4)) u_hdr (
    .clk, .rst,
    .s_valid(hf_in_valid), .s_ready(hf_in_ready), .s_data(hf_in),
    .m_valid(hf_out_valid), .m_ready(m_tx_hdr_ready), .m_data(hf_out), .count(hf_cnt));

  // the command FIFO: roce_fifo, then an output register that a command
  // reaches directly when the FIFO is empty (one cycle from cf_in to
  // m_rd_cmd, as without it: the READ responses' RD_AHEAD loop is not longer)
  logic                 cq_valid, cq_ready, cq_push, co_v_q, co_v_d, co_load;
  // the FIFO's room (cf_in_ready) registered, from the next count: full
  // next cycle when full now or one short and pushed, and not popped (with
  // three or four held, cq_valid: a pop is co_load, a push cf_in_valid)
  logic                 cf_room_q, cf_room_d;
  assign cf_room_d = !((cf_cnt == 3'd4 || (cf_cnt == 3'd3 && cf_in_valid)) && !co_load);
  localparam int CQW = roce_qp_pkg::DMA_USR_W + mem_pkg::DMA_CMD_W;
  logic [CQW-1:0] cq, co_q, co_d;
  roce_fifo #(.WIDTH(CQW), .DEPTH(4)) u_cmd (
    .clk, .rst,
    .in_valid(cq_push), .in_ready(cf_in_ready), .in_data({cf_usr, cf_in}),
    .out_valid(cq_valid), .out_ready(cq_ready), .out_data(cq), .count(cf_cnt));
  always_comb begin
    co_load  = !co_v_q || m_rd_cmd_ready;
    cq_ready = co_load;
    cq_push  = cf_in_valid && !(co_load && !cq_valid);   // else straight into the output register
    co_v_d   = co_v_q && !m_rd_cmd_ready;
    co_d     = co_q;
    if (co_load && cq_valid) begin
      co_v_d = 1'b1;
      co_d   = cq;
    end else if (co_load && cf_in_valid && cf_room_q) begin
      co_v_d = 1'b1;
      co_d   = {cf_usr, cf_in};
    end
  end
  assign m_rd_cmd_valid = co_v_q;
  assign {m_rd_cmd_usr, m_rd_cmd} = co_q;

  lib_skid #(.WIDTH(roce_pkg::DATA_W + roce_pkg::KEEP_W + 1)) u_tx (
    .clk, .rst, .s_valid(tx_valid), .s_ready(tx_ready), .s_data({rd_last, rd_keep, rd_data}),
    .m_valid(m_axis_tx_tvalid), .m_ready(m_axis_tx_tready),
    .m_data({m_axis_tx_tlast, m_axis_tx_tkeep, m_axis_tx_tdata}));

  lib_skid #(.WIDTH(roce_qp_pkg::CQE_W)) u_cqe (
    .clk, .rst, .s_valid(cqe_valid), .s_ready(cqe_ready), .s_data(cqe),
    .m_valid(m_cqe_valid), .m_ready(m_cqe_ready), .m_data(m_cqe));

  // ---- the header itself
  roce_pkg::tx_hdr_t t;
  always_comb begin
    t                       = '0;
    t.hdr.bth.opcode        = hf_out.op;
    t.hdr.bth.pkey          = 16'hFFFF;
    t.hdr.bth.dqpn          = hf_out.dqpn;
    t.hdr.bth.psn           = hf_out.psn;
    t.hdr.aeth.syndrome     = hf_out.syn;
    t.hdr.aeth.msn          = hf_out.msn;
    t.hdr.atomicacketh.orig = hf_out.orig;
    t.pay_len               = hf_out.len;
    m_tx_hdr.roce           = t;
    m_tx_hdr.remote_ip      = hf_out.ip;
    m_tx_hdr.remote_mac     = hf_out.mac;
    m_tx_hdr.udp_sport      = hf_out.sport;
  end
  assign m_tx_hdr_valid  = hf_out_valid;

  roce_ram_sdp #(.WIDTH(CW), .DEPTH(NQP)) u_cache (
    .clk(clk), .wr_en(c_we), .wr_addr(c_wa), .wr_data(c_wd),
    .rd_en(c_rd_en), .rd_addr(ev.qpn[QW-1:0]), .rd_data(c_rd));

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q       <= NS'(1) << S_IDLE;
      cpl_done_q <= 1'b0;
      cqe_done_q <= 1'b0;
      err_q      <= 1'b0;
      killed_q   <= 1'b0;
      pend_v_q   <= 1'b0;
      age_q      <= 8'd0;
      age_old_q  <= ACK_COALESCE == 0;
      aeh_q      <= 1'b0;
      se_q       <= 1'b0;
      ne_q       <= 1'b0;
      aeq_q      <= 1'b0;
      ok0_q      <= '0;
      oka_q      <= '0;
      free_v_q   <= 1'b0;
      rrm_q      <= '1;
      ahead_q    <= '0;
      awc_v_q    <= 1'b0;
      krs_q      <= 1'b0;
      krs_q_1    <= 1'b0;
      xbg_q      <= '0;
      xch_q      <= 1'b0;
      pop_q      <= 1'b0;
      ap_v_q     <= 1'b0;
      ap_dup_q   <= 1'b0;
      oltv_q     <= 1'b0;
      tr_v_q     <= 1'b0;
      awd_v_q    <= 1'b0;
      inc_q      <= '0;
      fire_q     <= 1'b0;
      co_v_q     <= 1'b0;
      freed_q    <= '0;
      cand_q     <= '0;
      candh_q    <= '0;
      sel_v_q    <= 1'b0;
      sel_oh_q   <= '0;
      seh_v_q    <= 1'b0;
      cf_room_q  <= 1'b1;
      for (int i = 0; i < NC; i++) cx_q[i] <= '0;
    end else begin
      st_q       <= st_d;
      cpl_done_q <= cpl_done_d;
      cqe_done_q <= cqe_done_d;
      err_q      <= err_d;
      killed_q   <= killed_d;
      pend_v_q   <= pend_v_d;
      age_q      <= age_d;
      age_old_q  <= age_old_d;
      aeh_q      <= aeh_d;
      se_q       <= nx_send || err_a;
      ne_q       <= nx_nak || err_a;
      aeq_q      <= aeq_d;
      ok0_q      <= ok0_d;
      oka_q      <= oka_d;
      free_v_q   <= free_v_d;
      rrm_q      <= rrm_d;
      ahead_q    <= ahead_d;
      awc_v_q    <= awc_v_d;
      krs_q      <= qp_reset_valid || dk || krs_q_1;
      krs_q_1    <= qp_reset_valid || dk;
      xbg_q      <= xbg_d;
      xch_q      <= xch_d;
      pop_q      <= ev_ready;
      ap_v_q     <= ap_v_d;
      ap_dup_q   <= rd_alloc && ev.rd_dup && !rd_chain;
      oltv_q     <= !ev_adv && !dk && !qp_reset_valid;
      tr_v_q     <= trail_we;
      awd_v_q    <= awd_v_d;
      inc_q      <= inc_d;
      fire_q     <= fire;
      co_v_q     <= co_v_d;
      freed_q    <= freed;
      cand_q     <= cand_n;
      candh_q    <= candh_n;
      sel_v_q    <= sel_v_d;
      sel_oh_q   <= sel_oh_d;
      seh_v_q    <= seh_v_d;
      cf_room_q  <= cf_room_d;
      for (int i = 0; i < NC; i++) cx_q[i] <= cx_d[i];
    end
    pend_q     <= pend_d;
    orig_q     <= orig_d;
    oeq_q      <= oeq_d;
    nv_q       <= nv_d;
    co_q       <= co_d;
    big_q      <= big_d;
    cdone_q    <= cdone_d;
    cpay_q     <= cpay_d;
    sel_q      <= sel_d;
    seh_q      <= seh_d;
    sel_done_q <= sel_done_d;
    fdone_q    <= sel_done_q;
    fsel_q     <= sel_q;
    hack_q     <= hack_d;
    hnak_q     <= hnak_d;
    sel_pay_q  <= sel_pay_d;
    lz_q       <= lz_d;
    dm_q       <= dm_d;
    ga_q       <= ga_d;
    for (int k = 0; k < NG; k++) go_q[k] <= go_d[k];
    qm_q       <= qm_d;
    olt_q      <= olt_d;
    cov_q      <= cov_d;
    pm_q       <= pm_d;
    skq_q      <= skq_d;
    skf_q      <= skf_d;
    hit_q      <= hit_d;
    ap_oh_q    <= fr;
    hit_orig_q <= hit_orig_d;
    for (int i = 0; i < NC; i++) plen_q[i] <= plen_d[i];
    for (int i = 0; i < NC; i++) opr_q[i]  <= opr_d[i];
  end

`ifndef SYNTHESIS
  /* verilator lint_off UNUSEDSIGNAL */
  ctx_t          cs_chk;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [NC-1:0] qm_chk, big_chk;                          // what qm_q must be, for the contexts in use
  always_comb begin
    for (int i = 0; i < NC; i++) begin
      cs_chk    = cx_q[i];
      qm_chk[i] = !cs_chk.v || qm_q[i] == (cs_chk.qpn == ev.qpn[QW-1:0]);
      // (a context written last cycle with a packet: no byte left iff it was its last)
      big_chk[i] = !(cs_chk.v && cs_chk.nw && cs_chk.st) || lz_d[i] == !big_q[i];
    end
  end
  initial begin
    if (NATOM < 1 || (NATOM & (NATOM - 1)) != 0) $error("roce_resp_tx: NATOM %0d is not a power of two", NATOM);
    if (ACK_COALESCE < 0 || ACK_COALESCE > 200) $error("roce_resp_tx: ACK_COALESCE %0d not in 0..200", ACK_COALESCE);
    if (RD_CTX < 1 || RD_AHEAD < 1) $error("roce_resp_tx: RD_CTX %0d and RD_AHEAD %0d must be >= 1", RD_CTX, RD_AHEAD);
    if (roce_qp_pkg::ROCE_TX_HDR_W != roce_pkg::TX_HDR_W) $error("roce_resp_tx: roce_qp_pkg::ROCE_TX_HDR_W is stale");
  end
  // the atomic's read command is never displaced by a context's
  always_ff @(posedge clk) begin
    if (!rst && se_cmd && cf_room_q && !(cf_in_valid && cf_in.tag != '0))
      $error("roce_resp_tx: the atomic's DMA read command was not pushed");
  end
  // the registered QPN matches are those of the head event
  always_ff @(posedge clk) begin
    if (!rst) begin
      if (!$onehot(st_q)) $error("roce_resp_tx: the state %b is not one-hot", st_q);
      if (!pop_q && aeh_q != (st_q[S_IDLE] && ev_valid && ev.kind == roce_qp_pkg::EV_ACK && (!ev.wait_dma || cpl_done_q)))
        $error("roce_resp_tx: aeh_q is not the head's EV_ACK state");
      if (ev_valid && ev.kind == roce_qp_pkg::EV_ACK && (se_q != (ev.send || err_q) || ne_q != (ev.nak || err_q)))
        $error("roce_resp_tx: se_q, ne_q are not the head's");
      if (ev_valid && aeq_q != (!ev.cqe_valid || cqe_done_q))
        $error("roce_resp_tx: aeq_q is not the head's CQE state");
      if (free_v_q && fr == '0) $error("roce_resp_tx: free_v_q without a free context");
      if (!(&big_chk)) $error("roce_resp_tx: big_q %b is not the last fire's", big_q);
      if (!(&qm_chk)) $error("roce_resp_tx: qm_q %b is not the contexts' QPN match", qm_q);
      if (sel_v_q && !krs_q && !cr.v)
        $error("roce_resp_tx: the chosen context %0d is no longer in use without a QP reset", sel_q);
      if (sel_v_q ? sel_oh_q != NC'(1) << sel_q : sel_oh_q != '0)
        $error("roce_resp_tx: sel_oh_q %b is not sel_q %0d", sel_oh_q, sel_q);
      if (ev_valid && !pop_q && (x_busy && !x_bf || !xch_q && x_busy != x_bf))
        $error("roce_resp_tx: x_bf %b is not x_busy %b", x_bf, x_busy);
      if (!$onehot0(xt) || (x_busy && xt == '0))
        $error("roce_resp_tx: the head event's QP has %0d youngest contexts", $countones(xt));
      if (pend_v_q && pm_q != (pend_q.qpn == ev.qpn))
        $error("roce_resp_tx: pm_q is not the pending ACK's QPN match");
    end
  end
  // the command FIFO's room, registered, is the FIFO's
  always_ff @(posedge clk) begin
    if (!rst && cf_room_q != cf_in_ready) $error("roce_resp_tx: cf_room_q %b is not the command FIFO's room", cf_room_q);
  end
  // the data of a READ packet never comes without its issued command
  always_ff @(posedge clk) begin
    if (!rst && s_rd_axis_tvalid && s_rd_axis_tready && s_rd_axis_tuser.tag == '0 && ahead_q == '0)
      $error("roce_resp_tx: READ response data without an issued command");
  end
`endif

endmodule
