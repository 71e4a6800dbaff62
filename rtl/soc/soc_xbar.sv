`default_nettype none

// One sbus master (the core's data port) to N sbus targets, decoded by
// address: target i is selected when (addr & MASK_i) == BASE_i; the lowest
// matching index wins (regions should not overlap). An address no target
// claims is answered with err.
//
// Every output comes from a register (timing: the decode and the read-data
// mux sit between registers, nothing passes through combinationally).
// sbus allows one outstanding request, so the decoder holds at most one:
//   cycle 0  s_req with s_gnt (s_gnt = nothing held): the request and its
//            decoded target are registered
//   cycle 1  m_req to that target (addr/we/be/wdata from the registers),
//            held until the target's m_gnt
//   ...      the target's m_rvalid/m_rdata/m_err (chosen by the registered
//            target index) are registered
//   next     s_rvalid/s_rdata/s_err; s_gnt is up again in this cycle
// Two cycles more than a direct connection (a BRAM target answers in 3
// cycles); an unmapped address answers one cycle after its grant, with err.
// A target in DIRECT sees the master's request itself, in the cycle of its
// grant (soc_sys wires it straight to a BRAM port): the decoder takes and
// holds it as any other but raises no m_req for it, and registers the
// target's answer as usual (a BRAM target answers in 2 cycles).
module soc_xbar #(
  parameter int                  N      = 2,
  parameter logic [N*32-1:0]    BASE   = '0,   // target i: BASE[i*32 +: 32]
  parameter logic [N*32-1:0]    MASK   = '0,   // target i: MASK[i*32 +: 32]
  parameter logic [N-1:0]       DIRECT = '0    // target i takes the request itself: DIRECT[i]
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

  logic          busy_q, busy_d;      // a request is held (until its response is registered)
  logic [SW-1:0] psel_q, psel_d;      // ... for this target
  logic [N-1:0]  req_q, req_d;        // m_req: the held request not yet granted
  logic [31:0]   addr_q, addr_d;
  logic          we_q, we_d;
  logic [3:0]    be_q, be_d;
  logic [31:0]   wdata_q, wdata_d;
  logic          rvalid_q, rvalid_d;
  logic [31:0]   rdata_q, rdata_d;
  logic          err_q, err_d;
  logic [N-1:0]  hit;
  logic [SW-1:0] sel;
  logic          found;
  logic          take;

  // decode of the incoming address
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

  // the request: taken when nothing is held, passed on from the registers
  always_comb begin
    s_gnt = !busy_q;
    take = s_req && !busy_q;
    addr_d = addr_q;
    we_d = we_q;
    be_d = be_q;
    wdata_d = wdata_q;
    psel_d = psel_q;
    req_d = req_q & ~m_gnt;
    if (take) begin
      addr_d = s_addr;
      we_d = s_we;
      be_d = s_be;
      wdata_d = s_wdata;
      psel_d = sel;
      req_d = hit & ~DIRECT;
    end
    m_req = req_q;
    m_addr = addr_q;
    m_we = we_q;
    m_be = be_q;
    m_wdata = wdata_q;
  end

  // the response, from the held target (or err for an unmapped address)
  always_comb begin
    rvalid_d = 1'b0;
    rdata_d = 32'd0;
    err_d = 1'b0;
    busy_d = busy_q;
    if (take && !found) begin
      rvalid_d = 1'b1;
      err_d = 1'b1;
    end else if (take) begin
      busy_d = 1'b1;
    end
    if (busy_q && m_rvalid[psel_q]) begin
      rvalid_d = 1'b1;
      rdata_d = m_rdata[psel_q*32 +: 32];
      err_d = m_err[psel_q];
      busy_d = 1'b0;
    end
    s_rvalid = rvalid_q;
    s_rdata = rdata_q;
    s_err = err_q;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      busy_q <= 1'b0;
      req_q <= '0;
      rvalid_q <= 1'b0;
    end else begin
      busy_q <= busy_d;
      req_q <= req_d;
      rvalid_q <= rvalid_d;
    end
    psel_q <= psel_d;
    addr_q <= addr_d;
    we_q <= we_d;
    be_q <= be_d;
    wdata_q <= wdata_d;
    rdata_q <= rdata_d;
    err_q <= err_d;
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
        if (m_rvalid[i] && !(busy_q && req_q == '0 && psel_q == SW'(i))) begin
          $error("soc_xbar: target %0d answered without an outstanding request", i);
        end
      end
    end
  end
`endif

endmodule
