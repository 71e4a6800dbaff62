// roce_req_pkg: internal types of the send side of the RC transport (send
// queue, requester, completer, their timers): the messages these engines
// exchange and the per-QP state they publish to each other
// (docs/transport.md, "Requester and completer").
//
// Read after roce_qp_pkg.sv. Yosys 0.23 does not resolve another package's
// names inside a package, so everything here is plain vectors and local
// enums; functions take and return plain vectors.
`default_nettype none

package roce_req_pkg;

  /* verilator lint_off UNUSEDPARAM */

  // SQ ring pointers carry one wrap bit above the index; fixed width here so
  // the structs do not depend on SQ_DEPTH (SQ_DEPTH <= 2^(PTR_W-1)).
  localparam int PTR_W = 16;
  // Wrapping count of READ/atomic WQEs (sent by the requester, retired by the
  // completer); max_rd_atomic <= 16 fits easily.
  localparam int RDC_W = 8;

  // ------------------------------------------- completer -> requester commands
  typedef enum logic [1:0] {
    RC_RETRY = 2'd0,   // go back to (ptr, psn) and send from there
    RC_PAUSE = 2'd1,   // go back to (ptr, psn) and wait for RC_RETRY (RNR wait)
    RC_ERROR = 2'd2    // QP in ERROR: stop, hand every unsent WQE to the flush
  } rcmd_kind_e;

  typedef struct packed {
    rcmd_kind_e        kind;
    logic [23:0]       qpn;
    logic [PTR_W-1:0]  ptr;       // oldest unretired WQE
    logic [23:0]       fpsn;      // its first PSN
    logic [23:0]       psn;       // first PSN to send again (>= fpsn, within that WQE)
    logic [RDC_W-1:0]  rd_done;   // READ/atomic WQEs retired so far
  } rcmd_t;
  localparam int RCMD_W = 2 + 24 + PTR_W + 24 + 24 + RDC_W;

  // ------------------------------------------- requester -> completer events
  typedef enum logic {
    EV_LOCERR = 1'b0,  // WQE ptr failed a local check: complete it with status, QP to ERROR
    EV_FLUSH  = 1'b1   // QP in ERROR: every WQE before ptr (the SQ head) is to be flushed
  } rev_kind_e;

  typedef struct packed {
    rev_kind_e         kind;
    logic [23:0]       qpn;
    logic [PTR_W-1:0]  ptr;
    logic [4:0]        status;    // roce_qp_pkg::wc_status_e (EV_LOCERR)
  } rev_t;
  localparam int REV_W = 1 + 24 + PTR_W + 5;

  // ------------------------------------------------------- timer commands
  typedef enum logic [1:0] {
    TC_ARM = 2'd0,   // requester: an AckReq packet ending at psn was sent
    TC_UNA = 2'd1,   // completer: oldest unacknowledged PSN is now psn (restart on progress)
    TC_RNR = 2'd2    // completer: RNR NAK, wait rnr (AETH timer code) before resending
  } tcmd_kind_e;

  typedef struct packed {
    tcmd_kind_e   kind;
    logic [23:0]  qpn;
    logic [23:0]  psn;
    logic [4:0]   texp;    // TC_ARM: QP timeout exponent (0 = no ACK timeout)
    logic [4:0]   rnr;     // TC_RNR: IB RNR timer code
  } tcmd_t;
  localparam int TCMD_W = 2 + 24 + 24 + 5 + 5;

  // Timer expiry, to the completer.
  typedef struct packed {
    logic         rnr;     // 1: RNR wait over; 0: local ACK timeout
    logic [23:0]  qpn;
  } texp_t;
  localparam int TEXP_W = 1 + 24;

  // ------------------------------------------------ the completer's WQE view
  typedef struct packed {
    logic [3:0]   opcode;  // roce_qp_pkg::wr_opcode_e
    logic [63:0]  laddr;
    logic [31:0]  len;
    logic [63:0]  wr_id;
    logic         signaled;
  } cwqe_t;
  localparam int CWQE_W = 4 + 64 + 32 + 64 + 1;

  // ------------------------------------------------------ published state
  // Completer -> SQ (ring space) and requester (window, READ/atomic credit).
  typedef struct packed {
    logic              inited;   // 0: nothing retired since reset (cptr 0, una = sq_psn)
    logic [PTR_W-1:0]  cptr;     // oldest unretired WQE
    logic [23:0]       fpsn;     // its first PSN
    logic [23:0]       una;      // oldest unacknowledged PSN
    logic [RDC_W-1:0]  rd_done;
  } cpub_t;
  localparam int CPUB_W = 1 + PTR_W + 24 + 24 + RDC_W;

  // Requester -> completer: PSNs below maxpsn have been sent (never moves back).
  typedef struct packed {
    logic         inited;
    logic [23:0]  maxpsn;
  } rpub_t;
  localparam int RPUB_W = 1 + 24;

  // ------------------------------------------------------------ functions
  // PSN serial arithmetic (mod 2^24): a < b.
  function automatic logic psn_lt(input logic [23:0] a, input logic [23:0] b);
    logic [23:0] d;
    d = b - a;
    psn_lt = (d != 24'd0) && !d[23];
  endfunction

  // IB RNR NAK timer code -> wait in units of 10 us (IBTA table 45; code 0
  // is the longest, 655.36 ms).
  function automatic logic [16:0] rnr_units(input logic [4:0] code);
    logic [16:0] u;
    case (code)
      5'd0:  u = 17'd65536;
      5'd1:  u = 17'd1;
      5'd2:  u = 17'd2;
      5'd3:  u = 17'd3;
      5'd4:  u = 17'd4;
      5'd5:  u = 17'd6;
      5'd6:  u = 17'd8;
      5'd7:  u = 17'd12;
      5'd8:  u = 17'd16;
      5'd9:  u = 17'd24;
      5'd10: u = 17'd32;
      5'd11: u = 17'd48;
      5'd12: u = 17'd64;
      5'd13: u = 17'd96;
      5'd14: u = 17'd128;
      5'd15: u = 17'd192;
      5'd16: u = 17'd256;
      5'd17: u = 17'd384;
      5'd18: u = 17'd512;
      5'd19: u = 17'd768;
      5'd20: u = 17'd1024;
      5'd21: u = 17'd1536;
      5'd22: u = 17'd2048;
      5'd23: u = 17'd3072;
      5'd24: u = 17'd4096;
      5'd25: u = 17'd6144;
      5'd26: u = 17'd8192;
      5'd27: u = 17'd12288;
      5'd28: u = 17'd16384;
      5'd29: u = 17'd24576;
      5'd30: u = 17'd32768;
      default: u = 17'd49152;
    endcase
    rnr_units = u;
  endfunction

  /* verilator lint_on UNUSEDPARAM */

endpackage
