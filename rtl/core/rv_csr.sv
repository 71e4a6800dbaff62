`default_nettype none
// rv_csr: machine-mode CSRs, trap entry and mret, interrupt pending logic.
// rv_core reads a CSR in its M stage while W is empty (so the read sees the
// state left by every older instruction; mcycle reads one cycle early) and
// registers the value; the write happens at the commit (W) stage. mcycle and
// minstret count in two 32-bit halves with the carry registered a cycle ahead;
// a write to either half is done instead of that cycle's (that instruction's)
// increment of the whole counter (the privileged spec's rule: the next
// instruction reads what was written, the other half unchanged).
module rv_csr (
  input  wire logic        clk,
  input  wire logic        rst,

  // Existence check of the CSR of an instruction (rv_core's D stage).
  input  wire logic [11:0] chk_addr,
  output logic             chk_exists,

  // Read (combinational, from the state; the address decoded a stage ahead:
  // raddr is E's, registered when M takes E's instruction, raddr_take) and
  // write (when we) of an access.
  input  wire logic [11:0] raddr,
  input  wire logic        raddr_take,
  output logic      [31:0] rdata,
  input  wire logic [11:0] waddr,
  input  wire logic        we,
  input  wire logic [31:0] wdata,

  // Trap entry (exception or interrupt) and return.
  input  wire logic        trap,
  input  wire logic        trap_irq,
  input  wire logic [3:0]  trap_cause,
  input  wire logic [31:2] trap_pc,
  input  wire logic [31:0] trap_tval,
  output logic      [31:0] trap_target,
  input  wire logic        mret,
  output logic      [31:0] mepc,

  input  wire logic        retire,

  // Interrupts.
  input  wire logic        irq_timer,
  input  wire logic        irq_external,
  // registered: from the lines of the cycle before and the enables of this cycle
  output logic             irq_take,   // an enabled interrupt is pending and MIE=1
  output logic             irq_take_next_nw,  // irq_take of the next cycle, if this
                                              // cycle has no trap, mret or CSR write
  output logic      [3:0]  irq_cause,
  output logic             wfi_wake    // an interrupt is pending and enabled in mie (any MIE)
);

  // Architectural state.
  logic        mie_q, mie_d;            // mstatus.MIE
  logic        mpie_q, mpie_d;          // mstatus.MPIE
  logic        mtie_q, mtie_d;          // mie.MTIE
  logic        meie_q, meie_d;          // mie.MEIE
  logic [31:0] mtvec_q, mtvec_d;        // BASE[31:2], MODE[0] (direct or vectored)
  logic [31:0] mscratch_q, mscratch_d;
  logic [31:2] mepc_q, mepc_d;
  logic        mcause_irq_q, mcause_irq_d;
  logic [3:0]  mcause_code_q, mcause_code_d;
  logic [31:0] mtval_q, mtval_d;
  logic [63:0] mcycle_q, mcycle_d;
  logic [63:0] minstret_q, minstret_d;
  // The carry from the low half into the high half, a cycle ahead: the low
  // half is all ones (registered), so each half is a 32-bit increment.
  logic        mcycle_cy_q, mcycle_cy_d;
  logic        minstret_cy_q, minstret_cy_d;
  logic        wdata_ones;
  logic        take_q, take_d;
  logic        wake_q, wake_d;
  logic        en_ms, en_ie, mtie_n, meie_n;
  logic [3:0]  cause_q, cause_d;

  logic [31:0] mstatus_v, mie_v, mip_v;
  logic [12:0] rsel_q, rsel_d;   // read select (see rsel_of)

  always_comb begin
    mstatus_v = 32'b0;
    mstatus_v[3]     = mie_q;
    mstatus_v[7]     = mpie_q;
    mstatus_v[12:11] = 2'b11;       // MPP: machine mode is the only mode
    mie_v = 32'b0;
    mie_v[7]  = mtie_q;
    mie_v[11] = meie_q;
    mip_v = 32'b0;
    mip_v[7]  = irq_timer;
    mip_v[11] = irq_external;
  end

  function automatic logic is_hpm(input logic [11:0] a);
    // mhpmcounter3-31 (B03-B1F), mhpmcounter3h-31h (B83-B9F), mhpmevent3-31
    // (323-33F), hpmcounter3-31(h) (C03-C1F, C83-C9F): hardwired to zero.
    logic [4:0] n;
    n = a[4:0];
    is_hpm = (n >= 5'd3) &&
             ((a[11:5] == 7'b1011000) || (a[11:5] == 7'b1011100) ||
              (a[11:5] == 7'b0011001) ||
              (a[11:5] == 7'b1100000) || (a[11:5] == 7'b1100100));
  endfunction

  function automatic logic [12:0] rsel_of(input logic [11:0] a);
    rsel_of = '0;
    unique case (a)
      core_pkg::CSR_MSTATUS:   rsel_of[0]  = 1'b1;
      core_pkg::CSR_MISA:      rsel_of[1]  = 1'b1;
      core_pkg::CSR_MIE:       rsel_of[2]  = 1'b1;
      core_pkg::CSR_MTVEC:     rsel_of[3]  = 1'b1;
      core_pkg::CSR_MSCRATCH:  rsel_of[4]  = 1'b1;
      core_pkg::CSR_MEPC:      rsel_of[5]  = 1'b1;
      core_pkg::CSR_MCAUSE:    rsel_of[6]  = 1'b1;
      core_pkg::CSR_MTVAL:     rsel_of[7]  = 1'b1;
      core_pkg::CSR_MIP:       rsel_of[8]  = 1'b1;
      core_pkg::CSR_MCYCLE,
      core_pkg::CSR_CYCLE:     rsel_of[9]  = 1'b1;
      core_pkg::CSR_MCYCLEH,
      core_pkg::CSR_CYCLEH:    rsel_of[10] = 1'b1;
      core_pkg::CSR_MINSTRET,
      core_pkg::CSR_INSTRET:   rsel_of[11] = 1'b1;
      core_pkg::CSR_MINSTRETH,
      core_pkg::CSR_INSTRETH:  rsel_of[12] = 1'b1;
      default: ;
    endcase
  endfunction

  function automatic logic exists(input logic [11:0] a);
    unique case (a)
      core_pkg::CSR_MSTATUS, core_pkg::CSR_MISA, core_pkg::CSR_MIE, core_pkg::CSR_MTVEC,
      core_pkg::CSR_MSTATUSH, core_pkg::CSR_MCOUNTINH, core_pkg::CSR_MSCRATCH, core_pkg::CSR_MEPC,
      core_pkg::CSR_MCAUSE, core_pkg::CSR_MTVAL, core_pkg::CSR_MIP,
      core_pkg::CSR_MCYCLE, core_pkg::CSR_MINSTRET, core_pkg::CSR_MCYCLEH,
      core_pkg::CSR_MINSTRETH, core_pkg::CSR_CYCLE, core_pkg::CSR_INSTRET,
      core_pkg::CSR_CYCLEH, core_pkg::CSR_INSTRETH, core_pkg::CSR_MVENDORID,
      core_pkg::CSR_MARCHID, core_pkg::CSR_MIMPID, core_pkg::CSR_MHARTID:
        exists = 1'b1;
      default:
        exists = is_hpm(a);
    endcase
  endfunction

  always_comb begin
    chk_exists = exists(chk_addr);
    // the read select of the CSR in M, one-hot (none: reads 0: mstatush,
    // mcountinhibit, the ids, the hpm counters)
    rsel_d = raddr_take ? rsel_of(raddr) : rsel_q;
    rdata  = ({32{rsel_q[0]}} & mstatus_v) | ({32{rsel_q[1]}} & core_pkg::MISA_VALUE) |
             ({32{rsel_q[2]}} & mie_v) | ({32{rsel_q[3]}} & mtvec_q) |
             ({32{rsel_q[4]}} & mscratch_q) | ({32{rsel_q[5]}} & {mepc_q, 2'b00}) |
             ({32{rsel_q[6]}} & {mcause_irq_q, 27'b0, mcause_code_q}) | ({32{rsel_q[7]}} & mtval_q) |
             ({32{rsel_q[8]}} & mip_v) | ({32{rsel_q[9]}} & mcycle_q[31:0]) |
             ({32{rsel_q[10]}} & mcycle_q[63:32]) | ({32{rsel_q[11]}} & minstret_q[31:0]) |
             ({32{rsel_q[12]}} & minstret_q[63:32]);
  end

  always_comb begin
    mie_d         = mie_q;
    mpie_d        = mpie_q;
    mtie_d        = mtie_q;
    meie_d        = meie_q;
    mtvec_d       = mtvec_q;
    mscratch_d    = mscratch_q;
    mepc_d        = mepc_q;
    mcause_irq_d  = mcause_irq_q;
    mcause_code_d = mcause_code_q;
    mtval_d       = mtval_q;
    mcycle_d[31:0]    = mcycle_q[31:0] + 32'd1;
    mcycle_d[63:32]   = mcycle_q[63:32] + {31'b0, mcycle_cy_q};
    // the increments from registers, retire only chooses (it comes late)
    minstret_d[31:0]  = retire ? (minstret_q[31:0] + 32'd1) : minstret_q[31:0];
    minstret_d[63:32] = (retire && minstret_cy_q) ? (minstret_q[63:32] + 32'd1) : minstret_q[63:32];

    if (we) begin
      unique case (waddr)
        core_pkg::CSR_MSTATUS: begin
          mie_d  = wdata[3];
          mpie_d = wdata[7];
        end
        core_pkg::CSR_MIE: begin
          mtie_d = wdata[7];
          meie_d = wdata[11];
        end
        // MODE 0 (direct) and 1 (vectored); the reserved modes 2 and 3 are
        // not legal values, so bit 1 is hardwired to zero.
        core_pkg::CSR_MTVEC:     mtvec_d       = {wdata[31:2], 1'b0, wdata[0]};
        core_pkg::CSR_MSCRATCH:  mscratch_d    = wdata;
        core_pkg::CSR_MEPC:      mepc_d        = wdata[31:2];
        core_pkg::CSR_MCAUSE: begin
          mcause_irq_d  = wdata[31];
          mcause_code_d = wdata[3:0];
        end
        core_pkg::CSR_MTVAL:     mtval_d       = wdata;
        // A write to either half of a counter is done instead of this
        // cycle's (this instruction's) increment of the whole counter: the
        // other half keeps its value, no carry crosses.
        core_pkg::CSR_MCYCLE:    mcycle_d   = {mcycle_q[63:32], wdata};
        core_pkg::CSR_MCYCLEH:   mcycle_d   = {wdata, mcycle_q[31:0]};
        core_pkg::CSR_MINSTRET:  minstret_d = {minstret_q[63:32], wdata};
        core_pkg::CSR_MINSTRETH: minstret_d = {wdata, minstret_q[31:0]};
        // misa, mip, mstatush, mcountinhibit and the hpm registers: writes are ignored.
        default: ;
      endcase
    end

    // Carries for next cycle: the new low half is all ones.
    wdata_ones    = (wdata == 32'hFFFF_FFFF);
    mcycle_cy_d   = (mcycle_q[31:0] == 32'hFFFF_FFFE);
    minstret_cy_d = retire ? (minstret_q[31:0] == 32'hFFFF_FFFE) : minstret_cy_q;
    if (we && (waddr == core_pkg::CSR_MCYCLE)) begin
      mcycle_cy_d = wdata_ones;
    end
    if (we && (waddr == core_pkg::CSR_MCYCLEH)) begin
      mcycle_cy_d = mcycle_cy_q;            // the low half kept
    end
    if (we && (waddr == core_pkg::CSR_MINSTRET)) begin
      minstret_cy_d = wdata_ones;
    end
    if (we && (waddr == core_pkg::CSR_MINSTRETH)) begin
      minstret_cy_d = minstret_cy_q;        // the low half kept
    end

    if (trap) begin
      mepc_d        = trap_pc;
      mcause_irq_d  = trap_irq;
      mcause_code_d = trap_cause;
      mtval_d       = trap_tval;
      mpie_d        = mie_q;
      mie_d         = 1'b0;
    end else if (mret) begin
      mie_d  = mpie_q;
      mpie_d = 1'b1;
    end

  end

  always_comb begin
    // (an interrupt's cause is cause_q: the vectored target's adder works
    // from registers, only the choice waits for trap_irq)
    if (mtvec_q[0] && trap_irq) begin
      trap_target = {mtvec_q[31:2], 2'b00} + {26'b0, cause_q, 2'b00};
    end else begin
      trap_target = {mtvec_q[31:2], 2'b00};
    end
    mepc = {mepc_q, 2'b00};

    // From the next state of the enables, so a write that disables an
    // interrupt holds from the next instruction on (written flat: the
    // enables after this cycle's CSR write, then trap and mret on MIE).
    en_ms   = we && (waddr == core_pkg::CSR_MSTATUS);
    en_ie   = we && (waddr == core_pkg::CSR_MIE);
    mtie_n  = en_ie ? wdata[7] : mtie_q;
    meie_n  = en_ie ? wdata[11] : meie_q;
    wake_d  = (irq_timer && mtie_n) || (irq_external && meie_n);
    take_d  = !trap && (mret ? mpie_q : (en_ms ? wdata[3] : mie_q)) && wake_d;
    // without trap, mret and CSR write the enables stay: from registers and
    // the interrupt lines only
    irq_take_next_nw = mie_q && ((irq_timer && mtie_q) || (irq_external && meie_q));
    // Priority: machine external before machine timer.
    cause_d = (irq_external && meie_n) ? core_pkg::IRQ_M_EXTERNAL : core_pkg::IRQ_M_TIMER;
    wfi_wake  = wake_q;
    irq_take  = take_q;
    irq_cause = cause_q;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      mie_q         <= 1'b0;
      mpie_q        <= 1'b0;
      mtie_q        <= 1'b0;
      meie_q        <= 1'b0;
      mtvec_q       <= '0;
      mscratch_q    <= '0;
      mepc_q        <= '0;
      mcause_irq_q  <= 1'b0;
      mcause_code_q <= '0;
      mtval_q       <= '0;
      mcycle_q      <= '0;
      minstret_q    <= '0;
      mcycle_cy_q   <= 1'b0;
      minstret_cy_q <= 1'b0;
      take_q        <= 1'b0;
      wake_q        <= 1'b0;
      cause_q       <= core_pkg::IRQ_M_TIMER;
    end else begin
      mie_q         <= mie_d;
      mpie_q        <= mpie_d;
      mtie_q        <= mtie_d;
      meie_q        <= meie_d;
      mtvec_q       <= mtvec_d;
      mscratch_q    <= mscratch_d;
      mepc_q        <= mepc_d;
      mcause_irq_q  <= mcause_irq_d;
      mcause_code_q <= mcause_code_d;
      mtval_q       <= mtval_d;
      mcycle_q      <= mcycle_d;
      minstret_q    <= minstret_d;
      mcycle_cy_q   <= mcycle_cy_d;
      minstret_cy_q <= minstret_cy_d;
      take_q        <= take_d;
      wake_q        <= wake_d;
      cause_q       <= cause_d;
    end
    rsel_q <= rsel_d;
  end

endmodule
