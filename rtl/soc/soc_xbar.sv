`default_nettype none

// One sbus master (the core's data port) to N sbus targets, decoded by
// address: target i is selected when (addr & MASK_i) == BASE_i; the lowest
// matching index wins (regions should not overlap). An address no target
// claims is granted at once and answered one cycle later with err, so a
// stray access never hangs the core.
//
// sbus allows one outstanding request: the decoder remembers which target
// (or the miss responder) owes the response and routes that target's
// rvalid/rdata/err back. A new request is passed on only when nothing is
// outstanding or in the cycle the outstanding response arrives.
module soc_xbar #(
  parameter int                  N    = 2,
  parameter logic [N*32-1:0]    BASE = '0,   // target i: BASE[i*32 +: 32]
  parameter logic [N*32-1:0]    MASK = '0    // target i: MASK[i*32 +: 32]
) (
  input  wire logic               clk,
  input  wire logic               rst,
  // master side (from the core)
  input  wire logic               s_req,
  input  wire logic [31:0]        s_addr,
  input  wire logic               s_we,
  input  wire logic [3:0]         s_be,
  input  wire logic [31:0]        s_wdata,
  output logic                    s_gnt,
  output logic                    s_rvalid,
  output logic [31:0]             s_rdata,
  output logic                    s_err,
  // target side: request lines per target, the rest shared
  output logic [N-1:0]            m_req,
  output logic [31:0]             m_addr,
  output logic                    m_we,
  output logic [3:0]              m_be,
  output logic [31:0]             m_wdata,
  input  wire logic [N-1:0]       m_gnt,
  input  wire logic [N-1:0]       m_rvalid,
  input  wire logic [N*32-1:0]   m_rdata,   // target i: m_rdata[i*32 +: 32]
  input  wire logic [N-1:0]       m_err
);

  localparam int SW = (N > 1) ? $clog2(N) : 1;

  logic          pend_q, pend_d;      // a response is owed
  logic          miss_q, miss_d;      // ... by the miss responder
  logic [SW-1:0] psel_q, psel_d;      // ... by this target
  logic [N-1:0]  hit;
  logic [SW-1:0] sel;
  logic          found;
  logic          can_issue;

  // the response, from whoever owes it (its own block: the core may base its
  // next request on rvalid, so nothing here may depend on the request)
  always_comb begin
    s_rvalid = 1'b0;
    s_err = 1'b0;
    s_rdata = 32'd0;
    if (pend_q) begin
      if (miss_q) begin
        s_rvalid = 1'b1;
        s_err = 1'b1;
      end else begin
        s_rvalid = m_rvalid[psel_q];
        s_err = m_err[psel_q];
        s_rdata = m_rdata[psel_q*32 +: 32];
      end
    end
  end

  // decode
  always_comb begin
    found = 1'b0;
    sel = '0;
    hit = '0;
    for (int i = 0; i < N; i++) begin
      if (!found && (s_addr & MASK[i*32 +: 32]) == BASE[i*32 +: 32]) begin
        found = 1'b1;
        sel = SW'(i);
        hit[i] = 1'b1;
      end
    end
  end

  // the request, apart from the grant: a target's gnt may depend on its req,
  // so in a chain of decoders the two must not share a block
  always_comb begin
    can_issue = !pend_q || s_rvalid;
    m_req = (s_req && can_issue) ? hit : '0;
    m_addr = s_addr;
    m_we = s_we;
    m_be = s_be;
    m_wdata = s_wdata;
  end

  // grant and bookkeeping
  always_comb begin
    s_gnt = s_req && can_issue && (!found || m_gnt[sel]);
    pend_d = pend_q;
    miss_d = miss_q;
    psel_d = psel_q;
    if (s_rvalid) pend_d = 1'b0;
    if (s_gnt) begin
      pend_d = 1'b1;
      miss_d = !found;
      psel_d = sel;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      pend_q <= 1'b0;
      miss_q <= 1'b0;
      psel_q <= '0;
    end else begin
      pend_q <= pend_d;
      miss_q <= miss_d;
      psel_q <= psel_d;
    end
  end

`ifndef SYNTHESIS
  // Handshake rules (docs/DEVELOPING.md, sbus): a request waiting for gnt
  // stays up with addr, we, be and wdata unchanged; a target answers only
  // what it was granted.
  logic        chk_wait_q;
  logic [68:0] chk_req_q;
  always_ff @(posedge clk) begin
    if (rst) begin
      chk_wait_q <= 1'b0;
    end else begin
      chk_wait_q <= s_req && !s_gnt;
      chk_req_q <= {s_addr, s_we, s_be, s_wdata};
      if (chk_wait_q && !s_req) begin
        $error("soc_xbar: request withdrawn before gnt (addr %08x)", chk_req_q[68:37]);
      end
      if (chk_wait_q && s_req && {s_addr, s_we, s_be, s_wdata} != chk_req_q) begin
        $error("soc_xbar: request changed before gnt (addr %08x -> %08x)", chk_req_q[68:37], s_addr);
      end
      for (int i = 0; i < N; i++) begin
        if (m_rvalid[i] && !(pend_q && !miss_q && psel_q == SW'(i))) begin
          $error("soc_xbar: target %0d answered without an outstanding request", i);
        end
      end
    end
  end
`endif

endmodule
