// roce_qp_pkg: the shared types of the RC transport (docs/transport.md):
// QP context, MR entry, receive and send WQEs, CQE, the TX header channel of
// the transport engines, AETH syndromes, and the MR check every client uses.
//
// Read after roce_pkg.sv and mem_pkg.sv. Stable: fields are added, never
// changed. Widths of the structs are given as *_W localparams (Yosys 0.23
// has no $bits of a type); a wrong value is a width error wherever the struct
// meets a vector of that width.
//
// Yosys 0.23 compatibility: functions take and return plain vectors.
`default_nettype none

package roce_qp_pkg;

  /* verilator lint_off UNUSEDPARAM */

  // ---------------------------------------------------------------- widths
  localparam int QPN_W = 24;
  localparam int PSN_W = 24;
  localparam int MSN_W = 24;
  localparam int KEY_W = 32;
  // Protection domain number (docs/transport.md, "Protection domains"): 8 bits
  // name 256 PDs, one per QP of the default NQP 256 (the firmware gives one to
  // each session, and a session has at least one QP), and keep the PD compare
  // within the LUT level of the key compare it is folded into.
  localparam int PD_W  = 8;

  // ------------------------------------------------------------ QP state
  // ibv_qp_state numbering (SQD is not used by this NIC).
  typedef enum logic [2:0] {
    QPS_RESET = 3'd0,
    QPS_INIT  = 3'd1,
    QPS_RTR   = 3'd2,   // READY_RECV
    QPS_RTS   = 3'd3,   // READY_SEND
    QPS_SQD   = 3'd4,
    QPS_SQE   = 3'd5,   // SQ_ERROR
    QPS_ERR   = 3'd6    // ERROR
  } qp_state_e;

  // Access flags (ibv_access_flags bit positions), for QPs and MRs.
  localparam int ACC_W = 4;
  localparam logic [3:0] ACC_LOCAL_WRITE   = 4'b0001;
  localparam logic [3:0] ACC_REMOTE_WRITE  = 4'b0010;
  localparam logic [3:0] ACC_REMOTE_READ   = 4'b0100;
  localparam logic [3:0] ACC_REMOTE_ATOMIC = 4'b1000;

  // Path MTU: IB enum 1..5 = 256..4096 bytes.
  localparam logic [2:0] PMTU_256  = 3'd1;
  localparam logic [2:0] PMTU_512  = 3'd2;
  localparam logic [2:0] PMTU_1024 = 3'd3;
  localparam logic [2:0] PMTU_2048 = 3'd4;
  localparam logic [2:0] PMTU_4096 = 3'd5;

  // ---------------------------------------------------------- QP context
  // Static context of a QP, written by the firmware (docs/transport.md,
  // "Tables"). Writing it with state RESET clears the QP's dynamic state in
  // every engine (roce_qp_table broadcasts qp_reset + QPN).
  typedef struct packed {
    qp_state_e   state;
    logic [2:0]  pmtu;                // PMTU_*
    logic [23:0] remote_qpn;
    logic [31:0] remote_ip;
    logic [47:0] remote_mac;
    logic [15:0] udp_sport;
    logic [23:0] sq_psn;              // first PSN the requester sends
    logic [23:0] rq_psn;              // first PSN the responder expects
    logic [2:0]  retry_cnt;
    logic [2:0]  rnr_retry;           // 7 = forever
    logic [4:0]  timeout;             // 4.096 us x 2^timeout, 0 = none
    logic [4:0]  min_rnr_timer;       // IB encoding, advertised in our RNR NAKs
    logic [4:0]  max_rd_atomic;       // as requester, <= 16
    logic [4:0]  max_dest_rd_atomic;  // as responder, <= 16
    logic [3:0]  access;              // ACC_REMOTE_* allowed on this QP
    logic [7:0]  pd;                  // protection domain: only MRs of this PD serve the QP
  } qp_ctx_t;
  localparam int QP_CTX_W = 3 + 3 + 24 + 32 + 48 + 16 + 24 + 24 + 3 + 3 + 5 + 5 + 5 + 5 + 4 + PD_W;  // 212

  // -------------------------------------------------------------- MR entry
  // A key is {tag, index}: the low log2(NMR) bits index the table, the whole
  // key must equal the stored one. lkey == rkey. A QP may use the MR only when
  // their PDs are equal (the engines fold that into their key compare).
  // stream (docs/user-logic.md, "Streaming MRs"): the region is user logic's
  // streams, not memory (mr_access bit 4); the MSB, so mr_check's field
  // positions below stay those of the 173-bit entry without it.
  typedef struct packed {
    logic        stream;
    logic        valid;
    logic [3:0]  access;              // ACC_*
    logic [31:0] key;
    logic [63:0] base;                // virtual = on-board byte address
    logic [63:0] length;              // bytes
    logic [7:0]  pd;                  // protection domain
  } mr_entry_t;
  localparam int MR_ENTRY_W = 1 + 1 + 4 + 32 + 64 + 64 + PD_W;  // 174

  // ----------------------------------------------------------- receive WQE
  typedef struct packed {
    logic [63:0] addr;
    logic [31:0] len;
    logic [31:0] lkey;
    logic [63:0] wr_id;
  } rwqe_t;
  localparam int RWQE_W = 64 + 32 + 32 + 64;  // 192

  // -------------------------------------------------------------- send WQE
  // ibv_wr_opcode numbering.
  typedef enum logic [3:0] {
    WR_RDMA_WRITE          = 4'd0,
    WR_RDMA_WRITE_WITH_IMM = 4'd1,
    WR_SEND                = 4'd2,
    WR_SEND_WITH_IMM       = 4'd3,
    WR_RDMA_READ           = 4'd4,
    WR_ATOMIC_CMP_AND_SWP  = 4'd5,
    WR_ATOMIC_FETCH_AND_ADD = 4'd6
  } wr_opcode_e;

  typedef struct packed {
    wr_opcode_e  opcode;
    logic [23:0] qpn;                 // local QPN
    logic [63:0] local_addr;
    logic [31:0] lkey;
    logic [63:0] remote_addr;
    logic [31:0] rkey;
    logic [31:0] length;
    logic [31:0] imm;                 // immediate (network order as on the wire)
    logic [63:0] compare;             // CMP_AND_SWP compare
    logic [63:0] swap_add;            // CMP_AND_SWP swap / FETCH_AND_ADD add
    logic [63:0] wr_id;
    logic        signaled;
    logic        solicited;
  } swqe_t;
  localparam int SWQE_W = 4 + 24 + 64 + 32 + 64 + 32 + 32 + 32 + 64 + 64 + 64 + 1 + 1;  // 478

  // ------------------------------------------------------------ completion
  // ibv_wc_status numbering.
  typedef enum logic [4:0] {
    WC_SUCCESS           = 5'd0,
    WC_LOC_LEN_ERR       = 5'd1,
    WC_LOC_QP_OP_ERR     = 5'd2,
    WC_LOC_PROT_ERR      = 5'd4,
    WC_WR_FLUSH_ERR      = 5'd5,
    WC_BAD_RESP_ERR      = 5'd7,
    WC_LOC_ACCESS_ERR    = 5'd8,
    WC_REM_INV_REQ_ERR   = 5'd9,
    WC_REM_ACCESS_ERR    = 5'd10,
    WC_REM_OP_ERR        = 5'd11,
    WC_RETRY_EXC_ERR     = 5'd12,
    WC_RNR_RETRY_EXC_ERR = 5'd13,
    WC_GENERAL_ERR       = 5'd21
  } wc_status_e;

  // ibv_wc_opcode numbering.
  typedef enum logic [7:0] {
    WC_OP_SEND               = 8'd0,
    WC_OP_RDMA_WRITE         = 8'd1,
    WC_OP_RDMA_READ          = 8'd2,
    WC_OP_COMP_SWAP          = 8'd3,
    WC_OP_FETCH_ADD          = 8'd4,
    WC_OP_RECV               = 8'd128,
    WC_OP_RECV_RDMA_WITH_IMM = 8'd129
  } wc_opcode_e;

  typedef struct packed {
    logic [63:0] wr_id;
    wc_status_e  status;
    wc_opcode_e  opcode;
    logic [31:0] byte_len;
    logic [23:0] qpn;                 // local QPN
    logic [31:0] imm_data;            // as on the wire (BTH order)
    logic        has_imm;
    logic        is_recv;
  } cqe_t;
  localparam int CQE_W = 64 + 5 + 8 + 32 + 24 + 32 + 1 + 1;  // 167

  // ---------------------------------------------- TX header of the engines
  // What roce_resp and roce_req hand to the TX path: the RoCE headers for
  // roce_tx_build plus what the Eth/IPv4/UDP builder needs from the QP
  // context. `roce` is a roce_pkg::tx_hdr_t: Yosys 0.23 does not resolve
  // another package's names inside a package, so it is declared as a vector
  // of that width (assign it to/from a roce_pkg::tx_hdr_t; the engines check
  // ROCE_TX_HDR_W == roce_pkg::TX_HDR_W at elaboration).
  localparam int ROCE_TX_HDR_W = 656;
  typedef struct packed {
    logic [ROCE_TX_HDR_W-1:0] roce;
    logic [31:0]       remote_ip;
    logic [47:0]       remote_mac;
    logic [15:0]       udp_sport;
  } qp_tx_hdr_t;
  localparam int QP_TX_HDR_W = ROCE_TX_HDR_W + 32 + 48 + 16;  // 752

  // ---------------------------------------------------------- AETH syndromes
  // bits [7:5]: 000 ACK, 001 RNR NAK, 011 NAK; [4:0] credits / timer / code.
  localparam logic [7:0] AETH_ACK          = 8'h1F;  // ACK, no credits advertised (as rxe)
  localparam logic [7:0] AETH_RNR_NAK      = 8'h20;  // | min_rnr_timer
  localparam logic [7:0] AETH_NAK_PSN_SEQ  = 8'h60;
  localparam logic [7:0] AETH_NAK_INV_REQ  = 8'h61;
  localparam logic [7:0] AETH_NAK_REM_ACC  = 8'h62;
  localparam logic [7:0] AETH_NAK_REM_OP   = 8'h63;
  localparam logic [7:0] AETH_NAK_INV_RD   = 8'h64;

  // ------------------------------------------------------------- functions
  // PMTU enum -> bytes (13 bits: 256..4096); an illegal enum counts as 256.
  function automatic logic [12:0] pmtu_bytes(input logic [2:0] pmtu);
    logic [12:0] b;
    case (pmtu)
      3'd2:    b = 13'd512;
      3'd3:    b = 13'd1024;
      3'd4:    b = 13'd2048;
      3'd5:    b = 13'd4096;
      default: b = 13'd256;
    endcase
    pmtu_bytes = b;
  endfunction

  // MR check: 1 when the entry grants `need` (ACC_* bits) for the byte range
  // [va, va + len) under key `key` to a QP of protection domain `pd`. The
  // range must lie in [base, base + length) with no wrap of any sum; len = 0
  // needs only a valid, matching, permitting entry of that PD and va inside
  // [base, base + length].
  // (the stream bit, 173, is not looked at: a streaming MR passes the same check)
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic mr_check(input logic [MR_ENTRY_W-1:0] mr_vec, input logic [31:0] key,
                                    input logic [63:0] va, input logic [31:0] len,
                                    input logic [3:0] need, input logic [7:0] pd);
    // fields of mr_entry_t by position (Yosys 0.23 takes no struct local here)
    logic        m_valid;
    logic [3:0]  m_access;
    logic [31:0] m_key;
    logic [63:0] m_base, m_length;
    logic [7:0]  m_pd;
    logic [64:0] off;     // va - base (bit 64: borrow, va < base)
    logic [64:0] room;    // length - off
    m_valid  = mr_vec[172];
    m_access = mr_vec[171:168];
    m_key    = mr_vec[167:136];
    m_base   = mr_vec[135:72];
    m_length = mr_vec[71:8];
    m_pd     = mr_vec[7:0];
    off  = {1'b0, va} - {1'b0, m_base};
    room = {1'b0, m_length} - {1'b0, off[63:0]};
    mr_check = m_valid && (m_key == key) && (m_pd == pd) && ((m_access & need) == need) &&
               !off[64] && !room[64] && (room[63:0] >= {32'd0, len});
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ------------------------------------------------ responder internals
  // (roce_resp_check -> roce_resp_tx; listed here so both files share them)

  // Message in progress on a QP's receive side.
  typedef enum logic [1:0] {
    MSG_NONE  = 2'd0,
    MSG_SEND  = 2'd1,
    MSG_WRITE = 2'd2
  } resp_msg_e;

  // Dynamic responder state of a QP (cleared by qp_reset: valid = 0 means
  // "fresh": epsn comes from the context's rq_psn, everything else zero).
  typedef struct packed {
    logic        valid;
    logic [23:0] epsn;        // expected PSN
    logic [23:0] msn;         // messages completed
    logic        nak;         // a NAK/RNR NAK was sent; out-of-sequence packets are dropped silently
    resp_msg_e   in_msg;      // message in progress (opcode sequence)
    logic [63:0] va;          // next byte address of the WRITE in progress
    logic [31:0] rem;         // bytes still to come of the WRITE in progress
    logic [31:0] msg_len;     // bytes received so far of the message in progress
    logic        stream;      // the WRITE in progress targets a streaming MR (its FIRST's rkey)
  } resp_dyn_t;
  localparam int RESP_DYN_W = 1 + 24 + 24 + 1 + 2 + 64 + 32 + 32 + 1;  // 181

  typedef enum logic [1:0] {
    EV_ACK        = 2'd0,     // wait for a DMA write, then CQE and/or ACK/NAK
    EV_READ       = 2'd1,     // READ response
    EV_ATOMIC     = 2'd2,     // execute an atomic, answer, cache the result
    EV_ATOMIC_DUP = 2'd3      // answer a duplicate atomic from the cache
  } resp_ev_kind_e;

  typedef struct packed {
    resp_ev_kind_e kind;
    logic          wait_dma;  // one DMA write completion belongs to this event
    logic          send;      // send an ACK (coalescable) or NAK
    logic          nak;       // the syndrome is a NAK / RNR NAK (never coalesced)
    logic [7:0]    syndrome;
    logic [23:0]   psn;
    logic [23:0]   msn;
    logic [23:0]   qpn;       // local QPN
    logic [23:0]   dqpn;      // remote QPN
    logic [31:0]   remote_ip;
    logic [47:0]   remote_mac;
    logic [15:0]   udp_sport;
    logic [2:0]    pmtu;
    logic [63:0]   va;        // READ / atomic address
    logic [31:0]   len;       // READ length
    logic [23:0]   rnext;     // READ: the PSN after its last response (psn + its response count)
    logic          is_cmp;    // atomic: COMPARE SWAP (else FETCH ADD)
    logic          rd_dup;    // READ: a duplicate (roce_resp_tx drops its QP's READ responses in progress)
    logic          stream;    // READ: the rkey's MR is streaming (data from user logic)
    logic [63:0]   swap_add;
    logic [63:0]   compare;
    logic          cqe_valid;
    cqe_t          cqe;
  } resp_ev_t;
  localparam int RESP_EV_W = 2 + 1 + 1 + 1 + 8 + 24 + 24 + 24 + 24 + 32 + 48 + 16 + 3 + 64 + 32 + 24
                             + 1 + 1 + 1 + 64 + 64 + 1 + CQE_W;  // 627

  // ------------------------------------------- DMA command side band
  // What travels beside a payload DMA command (mem_pkg::dma_*_cmd_t) for the
  // streaming MRs (docs/user-logic.md): stream = 1 sends the command to user
  // logic instead of memory (roce_ustream_wr / roce_ustream_rd in
  // roce_transport); the rest are the user stream's header fields.
  typedef struct packed {
    logic        stream;
    logic [23:0] qpn;         // local QPN
    logic        first;       // write: the chunk is the first of its message
    logic        msg_last;    // write: the last of it
    logic        send;        // write: a SEND's payload (else a WRITE's)
  } dma_usr_t;
  localparam int DMA_USR_W = 1 + 24 + 1 + 1 + 1;  // 28

  /* verilator lint_on UNUSEDPARAM */

endpackage
