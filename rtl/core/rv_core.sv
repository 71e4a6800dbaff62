`default_nettype none
// rv_core: RV32IM + Zicsr, machine mode only, in-order pipeline F D E M W
// Every output comes from a register.
//
//   F  imem_addr is the register f_pc: the next word is chosen a cycle ahead
//      (f_pc + 4, or a redirect), its fetch-fault check too
//   D  the word arrives from the BRAM (or from d_instr, where D keeps it while
//      it stalls); decode (the encoding checks too, registered into E with
//      the control), CSR existence check, register read (no bypass: what W
//      writes this cycle is taken from W itself), exceptions of the fetch (flat, no priority
//      through the decoder). jal and backward branches redirect F here, from
//      opcode bits alone (static prediction: backward taken, forward not
//      taken): a taken jump costs one bubble. Their target is a carry select
//      (16-bit halves, the upper one with carry in 0 and 1) straight from
//      the BRAM word, registered while D holds its word (d_tgt), and F's
//      next address is picked with one LUT behind the chains (f_use_raw,
//      f_alt). The forwarding of E's operands
//      is chosen here, a cycle ahead, and the ALU's operand registers are
//      filled (the pc, zero, the immediate, 4 for a link, the register, or
//      the result of an older instruction in M or W: M's as it enters W,
//      W's as it leaves) with the ALU's result class, all from opcode bits 6:2 and
//      funct3.
//   E  operands from registers only (M's result or the operand's own
//      register, a registered select: one 2:1 mux per operand bit), ALU (every kind in parallel, gated by its
//      one-hot class; the add a carry select with one LUT behind the chains,
//      slt / sltu from its carry out), the first two steps of a shift (by
//      shamt[3:0], registered; M shifts by 16 more), the branch compare
//      (equal, less than signed and unsigned, registered raw into M),
//      address alignment (the two low bits added per forwarding source,
//      then picked), iterative divide (stalls E). A misprediction or a
//      jalr is registered and redirects F the cycle after (r_go): the wrong
//      path in D and E is emptied then (3 bubbles). A jalr's redirect is
//      registered whole (its target a carry select, one LUT behind the
//      chains picking it or e_alt); a branch's is decided in M from the raw
//      compare (m_taken from funct3, r_bmis, ANDed with r_br), and its
//      target follows the prediction, not the compare (a branch redirects
//      only the other way: e_alt, pc + 4 or the target, from registers).
//      Byte enables and store data are put on their lanes here, for M's
//      registered bus outputs. The exception of E is decided flat (the late
//      address bits decide valid only, not cause or tval source); M takes
//      it whenever M moves on, bubble or not (every use of m_exc is gated
//      by m_valid, in W by w_valid), with M's load / store and CSR flags
//      (m_memx, m_csrx) from E's checks directly, so that M's stall starts
//      from registers. The tval of a misaligned jalr or access is filled in
//      on the way into W (m_tsrc). A taken branch to a misaligned target
//      traps from the compare registered in M (m_taken, m_btrap), raised on
//      the way into W. The encoding check is ORed here from three registered
//      pieces (rv_decode: opcode / funct3, funct7 of OP / OP-IMM, SYSTEM
//      funct3 0 that is none of ecall, ebreak, mret, wfi).
//   M  the sbus request (dbus_req registered, see below), multiply (operands
//      registered in front; four 17x17 DSP products, one carry-save level
//      and one chain each behind them, see rv_mul: MUL's low word into
//      w_result, a MULH*'s high word as three sums and the carry that picks
//      one in W), the shift's last step (by 16, into w_result), CSR read
//      (its select decoded in E and registered; the value registered into
//      w_result; only while W is empty, so the state is that left by every
//      older instruction)
//   W  commit: load data, a MULH*'s high word (picked from the three sums),
//      CSR write, traps, mret, wfi, fence.i, register
//      write (w_final, also taken by E's operand registers). The one place architectural state changes, so every trap is
//      precise; an sbus error arrives here with rvalid: it holds W one
//      more cycle and becomes W's exception, trapped the cycle after from
//      registers (no bus input behind the flush). A CSR write, mret
//      and fence.i make no bus access: their effects need no bus input.
//
// Forwarding: E takes operands from M (ALU, jump link, divide results) with
// a 2:1 mux; the results of older instructions in M and W are captured
// into E's own operand registers as they move on: M's result on its way into W (also MUL's
// product, a shift and a CSR's old value: m_wres) and W's on its way out
// (everything, load data and a MULH*'s high word included: w_final). A
// load, multiply, shift or CSR read followed by a user costs one bubble
// (the user waits in E, e_ml, registered a cycle ahead), a load or MULH*
// used by the next instruction or the one after one more (e_wl: it is
// complete only in W, taken as it leaves).
// The bus request of a load or store is registered: it is presented only
// while W holds nothing that could trap, flush, stall or access the bus (and
// not when W may take an interrupt next cycle: from registers, and not while
// W writes mstatus or mie), so a load or store right after
// another one is requested the cycle after the first one's response.
// Interrupts (pending/enabled state registered in rv_csr) are taken at W on
// an instruction that has not started a bus access and is not a wfi, never
// while M's request is up; that instruction does not execute and mepc points
// at it. After an mret at least one instruction retires before the next
// interrupt (forward progress). retire is one cycle late (benches count it).
module rv_core #(
  parameter logic [31:0] BOOT_ADDR  = 32'h0000_0000,
  parameter logic [31:0] IMEM_BASE  = 32'h0000_0000,
  parameter logic [31:0] IMEM_BYTES = 32'd262144
) (
  input  wire logic        clk,
  input  wire logic        rst,

  // Instruction BRAM read port (data valid the cycle after imem_en).
  output logic             imem_en,
  output logic      [31:0] imem_addr,
  input  wire logic [31:0] imem_rdata,

  // Data port (sbus).
  output logic             dbus_req,
  output logic      [31:0] dbus_addr,
  output logic             dbus_we,
  output logic      [3:0]  dbus_be,
  output logic      [31:0] dbus_wdata,
  input  wire logic        dbus_gnt,
  input  wire logic        dbus_rvalid,
  input  wire logic [31:0] dbus_rdata,
  input  wire logic        dbus_err,

  // Interrupts (level).
  input  wire logic        irq_timer,
  input  wire logic        irq_external,

  // One instruction retires this cycle (for benches and counters).
  output logic             retire
);

`ifndef SYNTHESIS
  if ((BOOT_ADDR[1:0] != 2'b00) || (IMEM_BASE[1:0] != 2'b00) || (IMEM_BYTES == 32'd0)) begin : g_param_check
    $error("rv_core: BOOT_ADDR and IMEM_BASE must be word aligned and IMEM_BYTES non-zero");
  end
`endif

  // ---------------------------------------------------------------- signals
  // Stall and flush (see the pipeline register updates at the end).
  logic stall_w, stall_m, stall_e, stall_d;
  logic w_flush;
  logic [31:0] w_flush_pc;
  logic e_go;              // E redirects the fetch (jalr)
  logic [31:0] e_redirect_pc;
  // ... registered: next cycle F goes to r_pc and the (wrong path) D and E
  // empty (r_go). A jalr's go is registered whole (r_go_q); a branch's in two
  // registers, so that the operand compare reaches a flip-flop without the
  // stall and flush gating behind it: r_br (a branch with a legal funct3 and
  // no exception left E) and r_bmis (its compare disagrees with the
  // prediction and it does not trap).
  logic        r_go_q, r_go_d;
  logic        r_br_q, r_br_d, r_bmis;
  logic        r_go;
  logic [31:0] r_pc_q, r_pc_d;

  // D stage.
  // F: the fetch address, registered (imem_addr); its word arrives in D.
  logic [31:0]     f_pc_q, f_pc_d;
  logic [31:0]     f_imem_off;
  logic            d_valid_q, d_valid_d;
  logic [31:0]     d_pc_q, d_pc_d;
  logic            d_ffault_q, d_ffault_d;   // d_pc is outside the instruction BRAM
  logic            d_buf_q, d_buf_d;         // D's word is in d_instr_q (held while stalled)
  logic [31:0]     d_instr_q, d_instr_d;
  logic [31:0]     d_instr;
  core_pkg::ctrl_t   d_dec, d_ctrl;
  core_pkg::exc_t    d_exc;
  logic            e_csr_bad;
  logic [31:0]     d_target;              // jal / branch target
  // The target as a carry select (halves, the upper one with carry in 0
  // and 1) straight from the BRAM word (d_tgt_raw); while D holds its word
  // (d_buf) the target is the registered one (d_tgt_q). F's next address
  // is picked with one LUT behind the chains: d_tgt_raw or f_alt.
  logic [31:0]     d_tgt_raw, d_raw_imm, d_tgt_q, f_alt;
  logic [16:0]     d_tlo;
  logic [15:0]     d_thi0;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [17:0]     d_thi1;                // bit 0: the carry in
  /* verilator lint_on UNUSEDSIGNAL */
  logic            f_use_raw;
  logic            d_rs1_used, d_rs2_used;  // from the opcode alone (a superset)
  logic            d_pred, d_jump;
  logic [31:0]     d_rs1_val, d_rs2_val;
  logic [31:0]     rf_rdata1, rf_rdata2;
  logic            csr_chk_exists;
  logic            m_late;                // M holds a load, multiply or CSR read

  // E stage.
  logic            e_valid_q, e_valid_d;
  logic [31:0]     e_pc_q, e_pc_d;
  core_pkg::ctrl_t   e_ctrl_q, e_ctrl_d;
  core_pkg::ctrl_t   e_ctrl;                // e_ctrl_q with illegal whole
  logic [31:0]     e_rs1_q, e_rs1_d;
  logic [31:0]     e_rs2_q, e_rs2_d;
  logic [31:0]     e_target_q, e_target_d;
  logic            e_pred_q, e_pred_d;
  core_pkg::exc_t    e_exc_q, e_exc_d;
  logic [31:0]     e_a, e_b, e_opa, e_opb, e_alu, e_result;
  logic [31:0]     e_jalr_target;
  // jalr's rs1 + imm as a carry select (halves; the upper one with carry in
  // 0 and 1), so that one LUT follows the chains: jalr's target or e_alt,
  // the redirect of a branch (the other way than predicted: pc + 4 from D,
  // e_pc4, or the target), from registers
  logic [15:0]     e_jhi0;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [16:0]     e_jlo;                 // bit 0 masked (jalr)
  logic [17:0]     e_jhi1;                // bit 0: the carry in
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0]     e_alt, e_pc4_q, e_pc4_d;
  logic            e_late, e_w_load;
  // A taken branch with a misaligned target traps, decided in M from the
  // compare registered there (m_taken), on the way into W (m_btrap).
  // The compare is registered raw (equal, signed and unsigned less than)
  // with the prediction; M picks taken from funct3 (m_taken).
  logic            m_taken, m_bmisal_q, m_bmisal_d, m_btrap;
  logic            m_eq_q, m_eq_d, m_lt_q, m_lt_d, m_ltu_q, m_ltu_d, m_pred_q, m_pred_d;
  logic            e_eq, e_lt, e_ltu;
  // Forwarding, decided a cycle ahead: each operand of E is M's result
  // (e_mn, registered) or its own register, a 2:1 mux after registers: for
  // rs1, rs2 (e_a, e_b) and for the ALU's operands (e_opa, e_opb), whose own
  // registers hold the pc, zero, the immediate or 4 (the link of jal / jalr)
  // instead when not a register. The result of an older instruction in M or
  // W is captured into the own register as it moves on: M's as it enters W
  // (m_wres) or W's as it leaves (w_final). e_pn: operand n waits for a load
  // or MULH* in W (captured from w_final when W moves on; e_wl: E waits).
  logic            e_m1_q, e_m1_d, e_m2_q, e_m2_d, e_ma_q, e_ma_d, e_mb_q, e_mb_d;
  logic            e_p1_q, e_p1_d, e_p2_q, e_p2_d;
  // what an own register takes: 0 its value, 1 D's, 2 m_wres, 3 w_final
  logic [1:0]      e_c1, e_c2, e_ca, e_cb;
  logic            e_ml_q, e_ml_d;        // E waits for a late result in M
  logic            e_m_late;
  logic            e_ua_q, e_ua_d, e_ub_q, e_ub_d;   // opa / opb is rs1 / rs2
  logic [31:0]     e_opav_q, e_opav_d, e_opbv_q, e_opbv_d;
  logic            d_ua, d_ub;
  logic [31:0]     d_opav, d_opbv;
  // The ALU's result class, one-hot, decoded in D: {logic, slt, shr, shl,
  // add}; e_div_q: the result is the divider's.
  logic [4:0]      d_cls, e_cls_q, e_cls_d;
  // the ALU subtracts (sub, slt, sltu) / compares signed (slt), from D
  logic            e_sub_q, e_sub_d, e_slt_q, e_slt_d;
  logic            e_div_q, e_div_d;
  logic            e_wl_q, e_wl_d;
  logic [1:0]      e_addr_lo;             // low bits of rs1 + imm (alignment checks)
  logic            e_tmis_q, e_tmis_d;    // the branch target is misaligned (from D)
  core_pkg::exc_t    e_exc_out;
  // Where the tval of E's exception comes from: e_exc_out (0), the access
  // address (1: M's result) or the jalr target (2: rs1 + imm from M's
  // registers); filled in on the way into W, so no address adder sits in
  // front of m_exc.
  logic [1:0]      e_tsrc, m_tsrc_q, m_tsrc_d;
  logic            e_csrok_q, e_csrok_d;  // E's CSR address exists (checked in D)
  logic            e_early;               // an encoding exception of E's word
  logic            div_ready;
  logic [31:0]     div_result;

  // M stage.
  logic            m_valid_q, m_valid_d;
  logic [31:0]     m_pc_q, m_pc_d;
  core_pkg::ctrl_t   m_ctrl_q, m_ctrl_d;
  logic [31:0]     m_result_q, m_result_d;
  logic [31:0]     m_a_q, m_a_d;
  logic [31:0]     m_b_q, m_b_d;
  core_pkg::exc_t    m_exc_q, m_exc_d;
  logic [3:0]      m_be_q, m_be_d;        // byte enables and store data, on their
  logic [31:0]     m_wdata_q, m_wdata_d;  // lanes a stage ahead (registered dbus outputs)
  logic            m_req_q, m_req_d;      // dbus_req: the access of M is presented
  logic            m_mem;                 // M holds a load or store
  // M's instruction is a load or store / a CSR access without exception,
  // registered with m_exc (so that the stall of M starts from registers)
  logic            m_memx_q, m_memx_d, m_csrx_q, m_csrx_d;
  logic            m_safe, w_safe;        // the instruction ahead cannot trap, flush,
                                          // stall or access the bus
  logic            e_mem;                 // E passes a load or store to M
  logic            e_mem_ok;              // ... but for e_valid
  logic            m_csr_wait;            // a CSR read in M waits for an empty W
  logic [31:0]     m_mul_lo, m_mul_h0, m_mul_h1, m_mul_h2;
  // A shift: E shifts by shamt[3:0] (left and right apart), M by 16 more
  // (m_sh16) into w_result; forwarded from W like a product's low word.
  logic [31:0]     e_sh_l, e_sh_r;
  logic            e_sh_fill, e_sh_16;
  logic            m_shift_q, m_shift_d, m_shleft_q, m_shleft_d, m_sh16_q, m_sh16_d;
  logic            m_shfill_q, m_shfill_d;
  logic [31:0]     m_shl_q, m_shl_d, m_shr_q, m_shr_d, m_sh_res;
  logic [1:0]      m_mul_k;
  logic [31:0]     m_wres;                // what M passes to W's w_result
  logic            m_xonly;               // M holds a result complete only in W
                                          // (load data, a MULH* high word)

  // W stage.
  logic            w_valid_q, w_valid_d;
  logic [31:0]     w_pc_q, w_pc_d;
  core_pkg::ctrl_t   w_ctrl_q, w_ctrl_d;
  logic [31:0]     w_result_q, w_result_d;
  logic [31:0]     w_a_q, w_a_d;
  logic            w_issued_q, w_issued_d;
  // No interrupt at W: its access is outstanding or has answered an error
  // (w_issued, or the error's trap is raised next cycle)
  logic            w_noirq_q, w_noirq_d;
  logic            w_wfi_q, w_wfi_d;      // W holds a wfi without exception
  // The high word of a MULH* in W: picked from three sums by the carry k
  // (rv_mul); w_result holds the low word.
  logic            w_mulh_q, w_mulh_d;
  logic [1:0]      w_mk_q, w_mk_d;
  logic [31:0]     w_mh0_q, w_mh0_d, w_mh1_q, w_mh1_d, w_mh2_q, w_mh2_d;
  logic [31:0]     w_mul_hi;
  core_pkg::exc_t    w_exc_q, w_exc_d;
  logic            w_wait, w_err, w_irq, w_trap, w_retire;
  logic            retire_q;
  logic [3:0]      w_trap_cause;
  logic [31:0]     w_trap_tval;
  logic [31:0]     w_load_data, w_final;
  logic [31:0]     w_shifted;
  logic [31:0]     csr_rdata, csr_src, csr_wdata, csr_trap_target, csr_mepc;
  logic            csr_we, w_mret;
  logic            w_csrw;                // W writes mstatus or mie (from registers)
  logic            irq_take, irq_take_next_nw, wfi_wake;
  logic [3:0]      irq_cause;
  logic            rf_we;
  logic            irq_hold_q, irq_hold_d;

  // pc + 4 as a carry select (the upper half + 1 beside the lower half's
  // chain, picked by its carry): the fetch address's next value and W's
  // redirect go through one LUT behind two short chains.
  function automatic logic [31:0] pc_plus4(input logic [31:0] pc);
    logic [16:0] lo;
    logic [15:0] hi1;
    lo       = {1'b0, pc[15:0]} + 17'd4;
    hi1      = pc[31:16] + 16'd1;
    pc_plus4 = {lo[16] ? hi1 : pc[31:16], lo[15:0]};
  endfunction

  // ---------------------------------------------------------------- D stage
  always_comb begin
    d_instr    = d_buf_q ? d_instr_q : imem_rdata;
    f_imem_off = f_pc_q - IMEM_BASE;
  end

  rv_decode u_decode (
    .instr (d_instr),
    .ctrl  (d_dec)
  );

  rv_regfile u_regfile (
    .clk    (clk),
    .raddr1 (d_instr[19:15]),
    .rdata1 (rf_rdata1),
    .raddr2 (d_instr[24:20]),
    .rdata2 (rf_rdata2),
    .we     (rf_we),
    .waddr  (w_ctrl_q.rd),
    .wdata  (w_final)
  );

  always_comb begin
    // The immediate of jal or of a branch straight from the BRAM word
    // (instr[2] tells them apart); only these two use the target.
    d_raw_imm  = imem_rdata[2] ? {{11{imem_rdata[31]}}, imem_rdata[31], imem_rdata[19:12], imem_rdata[20], imem_rdata[30:21], 1'b0}
                               : {{19{imem_rdata[31]}}, imem_rdata[31], imem_rdata[7], imem_rdata[30:25], imem_rdata[11:8], 1'b0};
    d_tlo      = {1'b0, d_pc_q[15:0]} + {1'b0, d_raw_imm[15:0]};
    d_thi0     = d_pc_q[31:16] + d_raw_imm[31:16];
    d_thi1     = {1'b0, d_pc_q[31:16], 1'b1} + {1'b0, d_raw_imm[31:16], 1'b1};
    d_tgt_raw  = {d_tlo[16] ? d_thi1[16:1] : d_thi0, d_tlo[15:0]};
    d_target   = d_buf_q ? d_tgt_q : d_tgt_raw;
    // From opcode bits 6:2 (exact for every legal opcode; an illegal word
    // traps, whatever it waits for or predicts): rs1 is unused by lui /
    // auipc (x01x1 with bit 4) and jal (11x11), rs2 used by branch, store
    // and op (x1x00, not system).
    d_rs1_used = !((d_instr[4] && d_instr[2]) || (d_instr[6] && d_instr[3]));
    d_rs2_used = d_instr[5] && !d_instr[3] && !d_instr[2] && !(d_instr[6] && d_instr[4]);

    // The exception found in D: the fetch fault (from a register); the
    // encoding (illegal, ecall, ebreak) and a misaligned jal are decoded here
    // and raised in E (from e_ctrl, e_tmis); the word travels in tval.
    d_exc.valid = d_ffault_q;
    d_exc.cause = core_pkg::EXC_INSN_ACCESS;
    d_exc.tval  = d_ffault_q ? d_pc_q : d_instr;
    // An excepting instruction travels on with its exception; its effects are
    // cancelled where they would happen (no redirect, divide or bus access;
    // nothing written at W).
    d_ctrl = d_dec;

    // From the opcode alone (an excepting instruction that jumps here is
    // cancelled at W all the same): backward branches, jal.
    // (opcode bits 6:2: branch is the legal one with 6 set, 4 and 2 clear;
    // jal the one with 6 and 3 set)
    d_pred = d_instr[6] && !d_instr[4] && !d_instr[2] && d_instr[31] && !d_instr[8];
    d_jump = d_valid_q && ((d_instr[6] && d_instr[3]) || d_pred);

    // No bypass here: what W writes this cycle is taken from W (w_final).
    d_rs1_val = rf_rdata1;
    d_rs2_val = rf_rdata2;

    // A result produced late (load data, CSR read at W, product at M) cannot
    // be forwarded to the next instruction from M: the user goes on to E and
    // waits there one cycle (e_ml, registered), then takes it from W.
    e_late   = e_ctrl_q.load || e_ctrl_q.mul || (e_ctrl_q.csr_op != core_pkg::CSR_NONE) ||
               e_cls_q[1] || e_cls_q[2];
    m_late   = m_ctrl_q.load || m_ctrl_q.mul || (m_ctrl_q.csr_op != core_pkg::CSR_NONE) || m_shift_q;
    // load data and a MULH*'s high word are complete only in W (w_final)
    m_xonly  = m_ctrl_q.load || (m_ctrl_q.mul && (m_ctrl_q.mul_op != core_pkg::MUL_MUL));
  end

  // ---------------------------------------------------------------- E stage
  // Operand forwarding, chosen a cycle ahead: the youngest older writer of
  // rs wins. In E now (M next cycle): E takes M's result. In M now (W next):
  // the own register takes m_wres, what M passes to W. In W now (gone next):
  // the own register takes w_final, what W writes. Older ones are in the
  // register file. A load or MULH* in M is complete only in W: E waits for
  // it there (e_pn) and takes w_final when W moves on.
  function automatic logic [1:0] lo_add(input logic [1:0] x, input logic [1:0] y);
    lo_add = {x[1] ^ y[1] ^ (x[0] && y[0]), x[0] ^ y[0]};
  endfunction

  // {take M next, wait for W next, what the own register takes}. Taken from
  // D: the pipeline moves on (M <- E, W <- M, W empties). Held in E: a
  // result in M that is late moves to W (m_wres, or waited for in W when
  // it is a load or MULH*), one waited for in W is taken as W moves on.
  function automatic logic [3:0] fwd_next(input logic hold, input logic [4:0] rs,
                                          input logic cur_m, input logic cur_p);
    logic m_hit, w_hit, x_hit;
    m_hit = e_valid_q && e_ctrl_q.rd_we && (e_ctrl_q.rd == rs);
    w_hit = m_valid_q && m_ctrl_q.rd_we && (m_ctrl_q.rd == rs);
    x_hit = w_valid_q && w_ctrl_q.rd_we && (w_ctrl_q.rd == rs);
    if (hold) begin
      if (cur_m) begin
        if (stall_m) begin
          fwd_next = {2'b10, 2'd0};
        end else if (m_xonly) begin
          fwd_next = {2'b01, 2'd0};
        end else begin
          fwd_next = {2'b00, 2'd2};
        end
      end else if (cur_p) begin
        fwd_next = stall_w ? {2'b01, 2'd0} : {2'b00, 2'd3};
      end else begin
        fwd_next = {2'b00, 2'd0};
      end
    end else if (m_hit) begin
      fwd_next = {2'b10, 2'd1};
    end else if (w_hit) begin
      fwd_next = m_xonly ? {2'b01, 2'd1} : {2'b00, 2'd2};
    end else if (x_hit) begin
      fwd_next = {2'b00, 2'd3};
    end else begin
      fwd_next = {2'b00, 2'd1};
    end
  endfunction

  function automatic logic [31:0] cap4(input logic [1:0] sel, input logic [31:0] own,
                                       input logic [31:0] dval);
    cap4 = sel[1] ? (sel[0] ? w_final : m_wres) : (sel[0] ? dval : own);
  endfunction

  always_comb begin
    {e_m1_d, e_p1_d, e_c1} = fwd_next(stall_e, d_instr[19:15], e_m1_q, e_p1_q);
    {e_m2_d, e_p2_d, e_c2} = fwd_next(stall_e, d_instr[24:20], e_m2_q, e_p2_q);
    e_ua_d   = stall_e ? e_ua_q : d_ua;
    e_ub_d   = stall_e ? e_ub_q : d_ub;
    e_ma_d   = e_ua_d && e_m1_d;
    e_mb_d   = e_ub_d && e_m2_d;
    // not a register: D's value (the pc, zero, an immediate, 4), or held
    e_ca     = e_ua_d ? e_c1 : {1'b0, !stall_e};
    e_cb     = e_ub_d ? e_c2 : {1'b0, !stall_e};
    e_rs1_d  = cap4(e_c1, e_rs1_q, d_rs1_val);
    e_rs2_d  = cap4(e_c2, e_rs2_q, d_rs2_val);
    e_opav_d = cap4(e_ca, e_opav_q, d_opav);
    e_opbv_d = cap4(e_cb, e_opbv_q, d_opbv);
  end

  // The ALU operands' own registers and the result class, from D: straight
  // from the word's opcode bits [6:2] (not through the decoder; an encoding
  // the decoder calls illegal traps, whatever it computes). Opcodes (bits
  // 6,5,4,2): LOAD 0000, STORE 0100, OP-IMM 0010, OP 0110, AUIPC 0011,
  // LUI 0111, BRANCH / JALR / JAL / SYSTEM 1xxx (the ALU's result matters
  // for jal / jalr only: pc + 4).
  logic d_isop, d_div_raw;
  always_comb begin
    // opa: the pc (auipc, jal, jalr), zero (lui), else rs1
    d_ua   = !d_instr[6] && !(d_instr[4] && d_instr[2]);
    if (d_instr[6] || (d_instr[4] && d_instr[2] && !d_instr[5])) begin
      d_opav = d_pc_q;
    end else if (d_instr[4] && d_instr[2]) begin
      d_opav = 32'b0;
    end else begin
      d_opav = d_rs1_val;
    end
    // opb: rs2 (op), 4 (jal, jalr), the U (lui, auipc), S (store) or I immediate
    d_ub   = !d_instr[6] && d_instr[5] && d_instr[4] && !d_instr[2];
    if (d_instr[6]) begin
      d_opbv = 32'd4;                       // the link: pc + 4
    end else if (d_instr[4] && d_instr[2]) begin
      d_opbv = {d_instr[31:12], 12'b0};
    end else if (d_instr[4] && d_instr[5]) begin
      d_opbv = d_rs2_val;
    end else if (!d_instr[4] && d_instr[5]) begin
      d_opbv = {{20{d_instr[31]}}, d_instr[31:25], d_instr[11:7]};
    end else begin
      d_opbv = {{20{d_instr[31]}}, d_instr[31:20]};
    end
    // op / op-imm choose the class by funct3; everything else adds; a divide
    // (op, funct7 bit 0, funct3 1xx) takes the divider's result
    d_isop    = !d_instr[6] && d_instr[4] && !d_instr[2];
    d_div_raw = d_isop && d_instr[5] && d_instr[25] && d_instr[14];
    d_cls     = '0;
    if (!d_isop) begin
      d_cls[0] = 1'b1;
    end else if (!d_div_raw) begin
      unique case (d_instr[14:12])
        3'b000:          d_cls[0] = 1'b1;
        3'b001:          d_cls[1] = 1'b1;
        3'b101:          d_cls[2] = 1'b1;
        3'b010, 3'b011:  d_cls[3] = 1'b1;
        default:         d_cls[4] = 1'b1;
      endcase
    end
  end

  // A load or MULH* in W that E's instruction needs next cycle (E waits for
  // it to leave W), and a late result in M that it needs next cycle (E
  // waits for it to reach W). (From the decode before the exception squash:
  // a needless wait of an excepting instruction is harmless.)
  logic e_u1, e_u2;
  always_comb begin
    e_u1   = stall_e ? e_ctrl_q.rs1_used : d_rs1_used;
    e_u2   = stall_e ? e_ctrl_q.rs2_used : d_rs2_used;
    e_wl_d = (e_u1 && e_p1_d) || (e_u2 && e_p2_d);
    e_ml_d = (stall_e ? m_late : e_late) && ((e_u1 && e_m1_d) || (e_u2 && e_m2_d));
  end

  rv_alu u_alu (
    .a      (e_opa),
    .b      (e_opb),
    .op     (e_ctrl_q.alu_op),
    .sub    (e_sub_q),
    .slt    (e_slt_q),
    .cls    (e_cls_q),
    .ext    (e_div_q ? div_result : 32'b0),
    .result (e_alu),
    .sh_l   (e_sh_l),
    .sh_r   (e_sh_r),
    .sh_fill(e_sh_fill),
    .sh_16  (e_sh_16)
  );

  rv_div u_div (
    .clk    (clk),
    .rst    (rst),
    .start  (e_valid_q && e_ctrl_q.div && !e_exc_q.valid && !e_w_load && !e_m_late && !w_flush && !r_go),
    .ack    (!stall_m),
    .kill   (w_flush),
    .op     (e_ctrl_q.div_op),
    .a      (e_a),
    .b      (e_b),
    .ready  (div_ready),
    .result (div_result)
  );

  always_comb begin
    e_a   = e_m1_q ? m_result_q : e_rs1_q;
    e_b   = e_m2_q ? m_result_q : e_rs2_q;
    e_opa = e_ma_q ? m_result_q : e_opav_q;
    e_opb = e_mb_q ? m_result_q : e_opbv_q;
    e_w_load = e_valid_q && e_wl_q;
    e_m_late = e_valid_q && e_ml_q;

    // the branch compare, raw: taken is picked in M from these registered
    e_eq  = (e_a == e_b);
    e_lt  = ($signed(e_a) < $signed(e_b));
    e_ltu = (e_a < e_b);

    e_jlo         = {1'b0, e_a[15:0]} + {1'b0, e_ctrl_q.imm[15:0]};
    e_jhi0        = e_a[31:16] + e_ctrl_q.imm[31:16];
    e_jhi1        = {1'b0, e_a[31:16], 1'b1} + {1'b0, e_ctrl_q.imm[31:16], 1'b1};
    e_jalr_target = {e_jlo[16] ? e_jhi1[16:1] : e_jhi0, e_jlo[15:1], 1'b0};
    // rs1 + imm is also the load/store address (e_alu); its two low bits on
    // their own, for the alignment checks.
    // (the two bits added to the immediate's for each source, then picked)
    e_addr_lo     = e_m1_q ? lo_add(m_result_q[1:0], e_ctrl_q.imm[1:0]) : lo_add(e_rs1_q[1:0], e_ctrl_q.imm[1:0]);
  end

  // The encoding check completed here from registers: rv_decode's opcode
  // check (with MISC-MEM's and SYSTEM's funct3), the funct7 of OP / OP-IMM
  // (opx, opb_imm tells OP-IMM; funct7 is csr_addr[11:5]), SYSTEM with funct3
  // 0 that is none of ecall, ebreak, mret, wfi, and the funct3 of jalr,
  // branch, load and store. e_ctrl is E's control with illegal whole (to M).
  always_comb begin
    e_ctrl         = e_ctrl_q;
    e_ctrl.illegal = e_ctrl_q.illegal ||
                     (e_ctrl_q.opx && !e_ctrl_q.opb_imm &&
                      !((e_ctrl_q.csr_addr[11:5] == 7'b0000001) || (e_ctrl_q.csr_addr[11:5] == 7'b0000000) ||
                        ((e_ctrl_q.csr_addr[11:5] == 7'b0100000) && ((e_ctrl_q.funct3 == 3'b000) || (e_ctrl_q.funct3 == 3'b101))))) ||
                     (e_ctrl_q.opx && e_ctrl_q.opb_imm &&
                      (((e_ctrl_q.funct3 == 3'b001) && (e_ctrl_q.csr_addr[11:5] != 7'b0000000)) ||
                       ((e_ctrl_q.funct3 == 3'b101) && (e_ctrl_q.csr_addr[11:5] != 7'b0000000) &&
                        (e_ctrl_q.csr_addr[11:5] != 7'b0100000)))) ||
                     (e_ctrl_q.jalr && (e_ctrl_q.funct3 != 3'b000)) ||
                     (e_ctrl_q.branch && (e_ctrl_q.funct3[2:1] == 2'b01)) ||
                     (e_ctrl_q.load && ((e_ctrl_q.funct3 == 3'b011) || (e_ctrl_q.funct3[2:1] == 2'b11))) ||
                     (e_ctrl_q.store && (e_ctrl_q.funct3[2] || (e_ctrl_q.funct3[1:0] == 2'b11))) ||
                     (e_ctrl_q.sys0 && !(e_ctrl_q.ecall || e_ctrl_q.ebreak || e_ctrl_q.mret || e_ctrl_q.wfi));
  end

  always_comb begin
    // jal / jalr: the ALU adds pc + 4; a divide: the ALU gives 0
    e_result = e_alu;

    // A CSR that does not exist or a write to a read-only one: checked here,
    // from registers (tval: the word, carried from D).
    e_csr_bad = (e_ctrl_q.csr_op != core_pkg::CSR_NONE) &&
                (!e_csrok_q || (e_ctrl_q.csr_write && (e_ctrl_q.csr_addr[11:10] == 2'b11)));
    e_exc_out = e_exc_q;
    e_tsrc    = 2'd0;
    // Flat, so that the late conditions (the branch compare, the address's
    // low bits) only decide valid and tsrc: the encoding exceptions first
    // (illegal, ecall, ebreak), then jalr / branch target misaligned, then a
    // misaligned access. tval is final here except for a misaligned jalr or
    // access (tsrc: filled in on the way into W); a taken misaligned branch's
    // tval is the target, put in whenever no encoding exception stands.
    e_early = e_ctrl.illegal || e_csr_bad || e_ctrl_q.ecall || e_ctrl_q.ebreak;
    if (!e_exc_q.valid) begin
      e_exc_out.valid = e_early || (e_ctrl_q.jalr && e_addr_lo[1]) || (e_ctrl_q.jal && e_tmis_q) ||
                        ((e_ctrl_q.load || e_ctrl_q.store) &&
                         (((e_ctrl_q.mem_size == core_pkg::SIZE_H) && e_addr_lo[0]) ||
                          ((e_ctrl_q.mem_size == core_pkg::SIZE_W) && (e_addr_lo != 2'b00))));
      if (e_ctrl.illegal || e_csr_bad) begin
        e_exc_out.cause = core_pkg::EXC_ILLEGAL;          // tval: the word
      end else if (e_ctrl_q.ecall) begin
        e_exc_out.cause = core_pkg::EXC_ECALL_M;
        e_exc_out.tval  = 32'b0;
      end else if (e_ctrl_q.ebreak) begin
        e_exc_out.cause = core_pkg::EXC_BREAKPOINT;
        e_exc_out.tval  = 32'b0;    // allowed by the spec; what QEMU writes too
      end else begin
        // (a jalr excepts here only with e_addr_lo[1]: cause and tsrc need
        // not look at the address)
        e_exc_out.cause = (e_ctrl_q.jalr || e_ctrl_q.branch || e_ctrl_q.jal) ?
                          core_pkg::EXC_INSN_MISALIGNED :
                          (e_ctrl_q.load ? core_pkg::EXC_LOAD_MISALIGNED : core_pkg::EXC_STORE_MISALIGNED);
        e_exc_out.tval  = e_target_q;
        if (e_ctrl_q.jalr) begin
          e_tsrc = 2'd2;                    // e_jalr_target
        end else if (!(e_ctrl_q.branch || e_ctrl_q.jal)) begin
          e_tsrc = 2'd1;                    // e_alu, the address
        end
      end
    end
  end

  // Redirect: jalr always, a branch whose prediction was wrong; not for an
  // excepting one (its own encoding and alignment checked here directly,
  // not through e_exc_out). A branch redirects only when its compare
  // disagrees with the prediction, so its target is the other way: from the
  // prediction, not the compare. (The target whether or not E redirects: it
  // is used only with r_go.)
  always_comb begin
    // the branch that left E last cycle is in M (r_br_q: M took it)
    unique case (m_ctrl_q.funct3)
      3'b000:  m_taken = m_eq_q;      // beq
      3'b001:  m_taken = !m_eq_q;     // bne
      3'b100:  m_taken = m_lt_q;      // blt
      3'b101:  m_taken = !m_lt_q;     // bge
      3'b110:  m_taken = m_ltu_q;     // bltu
      default: m_taken = !m_ltu_q;    // bgeu
    endcase
    r_bmis        = (m_taken != m_pred_q) && !(m_taken && m_bmisal_q);
    r_go          = r_go_q || (r_br_q && r_bmis);
    e_alt         = e_pred_q ? e_pc4_q : e_target_q;
    e_redirect_pc = e_ctrl_q.jalr ? e_jalr_target : e_alt;
    e_go          = 1'b0;
    r_br_d        = 1'b0;
    if (e_valid_q && !e_exc_q.valid && !stall_e && !w_flush && !r_go) begin
      e_go   = e_ctrl_q.jalr && (e_ctrl_q.funct3 == 3'b000) && !e_addr_lo[1];
      r_br_d = e_ctrl_q.branch && (e_ctrl_q.funct3[2:1] != 2'b01);
    end
  end

  // ---------------------------------------------------------------- M stage
  rv_mul u_mul (
    .a      (m_a_q),
    .b      (m_b_q),
    .op     (m_ctrl_q.mul_op),
    .lo     (m_mul_lo),
    .k      (m_mul_k),
    .h0     (m_mul_h0),
    .h1     (m_mul_h1),
    .h2     (m_mul_h2)
  );

  always_comb begin
    // the shift's last step (by 16)
    if (m_shleft_q) begin
      m_sh_res = m_sh16_q ? {m_shl_q[15:0], 16'b0} : m_shl_q;
    end else begin
      m_sh_res = m_sh16_q ? {{16{m_shfill_q}}, m_shr_q[31:16]} : m_shr_q;
    end
    dbus_req   = m_req_q;
    dbus_addr  = m_result_q;
    dbus_we    = m_ctrl_q.store;
    dbus_be    = m_be_q;
    dbus_wdata = m_wdata_q;

    // what M passes to W (w_result): the shift's, the product's low word,
    // the CSR's old value or the ALU's
    if (m_shift_q) begin
      m_wres = m_sh_res;
    end else if (m_ctrl_q.mul) begin
      m_wres = m_mul_lo;
    end else if (m_ctrl_q.csr_op != core_pkg::CSR_NONE) begin
      m_wres = csr_rdata;
    end else begin
      m_wres = m_result_q;
    end

    // A CSR is read in M (into w_result) while W is empty, so that no older
    // instruction changes CSR state in the cycle of the read; W writes it.
    m_csr_wait = m_valid_q && m_csrx_q && w_valid_q;
  end

  // The request is registered. It is presented only while the instruction
  // ahead (in W) is one that retires in this cycle for sure, or none: one
  // access outstanding at a time, and none for an instruction that a trap at W
  // would cancel (no request when W is about to take an interrupt; W takes
  // none while M's request is up). A load or
  // store leaves M in the cycle of its grant; back to back, the second one's
  // request comes the cycle after the first one's response.
  always_comb begin
    m_mem  = m_valid_q && m_memx_q;
    m_btrap = m_bmisal_q && m_taken;
    m_safe = !m_valid_q || !(m_ctrl_q.load || m_ctrl_q.store || m_exc_q.valid || m_btrap || m_ctrl_q.mret ||
                             m_ctrl_q.fence_i || m_ctrl_q.wfi);
    w_safe = !w_valid_q;   // W holds: only a waiting access or wfi stalls it
    // a load or store without exception (encoding and alignment checked directly)
    e_mem_ok = !e_exc_q.valid &&
             ((e_ctrl_q.load && (e_ctrl_q.funct3 != 3'b011) && (e_ctrl_q.funct3[2:1] != 2'b11)) ||
              (e_ctrl_q.store && !e_ctrl_q.funct3[2] && (e_ctrl_q.funct3[1:0] != 2'b11))) &&
             !(((e_ctrl_q.mem_size == core_pkg::SIZE_H) && e_addr_lo[0]) ||
               ((e_ctrl_q.mem_size == core_pkg::SIZE_W) && (e_addr_lo != 2'b00)));
    e_mem  = e_valid_q && e_mem_ok;
  end

  always_comb begin
    if (w_flush) begin
      m_req_d = 1'b0;
    end else if (m_req_q) begin
      m_req_d = !dbus_gnt;                 // held until granted, then it leaves M
    end else if (stall_m) begin
      m_req_d = m_mem && (!stall_w || w_safe);
    end else begin
      // not when M's instruction may take an interrupt at W next cycle: W
      // does not flush here (no trap, no mret), and while W writes mstatus
      // or mie (which may enable one) the request waits a cycle
      m_req_d = e_mem && !stall_e && !r_go && m_safe &&
                !((irq_take_next_nw || w_csrw) && m_valid_q && !irq_hold_d);
    end
  end

  // Byte enables and store data of the access, from E (address low bits and rs2).
  always_comb begin
    unique case (e_ctrl_q.mem_size)
      core_pkg::SIZE_B: begin
        m_be_d    = 4'b0001 << e_addr_lo;
        m_wdata_d = {4{e_b[7:0]}};
      end
      core_pkg::SIZE_H: begin
        m_be_d    = {e_addr_lo[1], e_addr_lo[1], !e_addr_lo[1], !e_addr_lo[1]};
        m_wdata_d = {2{e_b[15:0]}};
      end
      default: begin
        m_be_d    = 4'b1111;
        m_wdata_d = e_b;
      end
    endcase
    if (stall_m) begin
      m_be_d    = m_be_q;
      m_wdata_d = m_wdata_q;
    end
  end

  // ---------------------------------------------------------------- W stage
  rv_csr u_csr (
    .clk          (clk),
    .rst          (rst),
    .chk_addr     (d_instr[31:20]),
    .chk_exists   (csr_chk_exists),
    .raddr        (e_ctrl_q.csr_addr),
    .raddr_take   (!stall_m),
    .rdata        (csr_rdata),
    .waddr        (w_ctrl_q.csr_addr),
    .we           (csr_we),
    .wdata        (csr_wdata),
    .trap         (w_trap),
    .trap_irq     (w_irq),
    .trap_cause   (w_trap_cause),
    .trap_pc      (w_pc_q[31:2]),
    .trap_tval    (w_trap_tval),
    .trap_target  (csr_trap_target),
    .mret         (w_mret),
    .mepc         (csr_mepc),
    .retire       (w_retire),
    .irq_timer    (irq_timer),
    .irq_external (irq_external),
    .irq_take     (irq_take),
    .irq_take_next_nw(irq_take_next_nw),
    .irq_cause    (irq_cause),
    .wfi_wake     (wfi_wake)
  );

  always_comb begin
    // A bus error holds W one more cycle and becomes W's exception (the trap
    // is taken the cycle after, from registers)
    w_wait = w_issued_q && !dbus_rvalid;
    w_err  = w_issued_q && dbus_rvalid && dbus_err;

    // Load data: select the addressed bytes, then extend.
    w_shifted = dbus_rdata >> {w_result_q[1:0], 3'b000};
    unique case (w_ctrl_q.mem_size)
      core_pkg::SIZE_B: w_load_data = {{24{!w_ctrl_q.mem_unsigned && w_shifted[7]}}, w_shifted[7:0]};
      core_pkg::SIZE_H: w_load_data = {{16{!w_ctrl_q.mem_unsigned && w_shifted[15]}}, w_shifted[15:0]};
      default:        w_load_data = w_shifted;
    endcase

    // w_result holds the ALU result, the product's low word or the CSR's
    // old value; a MULH*'s high word is picked here from three sums.
    unique case (w_mk_q)
      2'd0:    w_mul_hi = w_mh0_q;
      2'd1:    w_mul_hi = w_mh1_q;
      default: w_mul_hi = w_mh2_q;
    endcase
    w_final = w_ctrl_q.load ? w_load_data : (w_mulh_q ? w_mul_hi : w_result_q);

    stall_w = w_valid_q && (w_wait || w_err || (w_wfi_q && !wfi_wake));

    // Forward progress: after an mret one instruction retires before the next
    // interrupt, so an interrupt period shorter than a divide cannot livelock.
    w_irq  = w_valid_q && irq_take && !irq_hold_q && !w_noirq_q && !w_ctrl_q.wfi && !m_req_q;
    w_trap = w_irq || (w_valid_q && w_exc_q.valid);
    if (w_irq) begin
      w_trap_cause = irq_cause;
      w_trap_tval  = 32'b0;
    end else begin
      w_trap_cause = w_exc_q.cause;
      w_trap_tval  = w_exc_q.tval;
    end

    w_retire = w_valid_q && !stall_w && !w_trap;
    rf_we    = w_retire && w_ctrl_q.rd_we;
    retire   = retire_q;   // for benches: one cycle late

    csr_src = w_ctrl_q.csr_imm ? w_ctrl_q.imm : w_a_q;
    unique case (w_ctrl_q.csr_op)
      core_pkg::CSR_RS: csr_wdata = w_result_q | csr_src;
      core_pkg::CSR_RC: csr_wdata = w_result_q & ~csr_src;
      default:        csr_wdata = csr_src;
    endcase
    // A CSR instruction or mret makes no bus access, so it never waits at W
    // and never takes a bus error: its retirement needs no bus input.
    csr_we = w_valid_q && !w_irq && !w_exc_q.valid &&
             (w_ctrl_q.csr_op != core_pkg::CSR_NONE) && w_ctrl_q.csr_write;
    w_mret = w_valid_q && !w_irq && !w_exc_q.valid && w_ctrl_q.mret;
    w_csrw = w_valid_q && (w_ctrl_q.csr_op != core_pkg::CSR_NONE) && w_ctrl_q.csr_write &&
             ((w_ctrl_q.csr_addr == core_pkg::CSR_MSTATUS) || (w_ctrl_q.csr_addr == core_pkg::CSR_MIE));

  end

  always_comb begin
    // (mret and fence.i make no bus access: they retire unless they trap)
    w_flush    = w_irq || (w_valid_q && (w_exc_q.valid || w_ctrl_q.mret || w_ctrl_q.fence_i));
    irq_hold_d = w_retire ? w_ctrl_q.mret : irq_hold_q;
    if (w_trap) begin
      w_flush_pc = csr_trap_target;
    end else if (w_ctrl_q.mret) begin
      w_flush_pc = csr_mepc;
    end else begin
      w_flush_pc = pc_plus4(w_pc_q);
    end
  end

  // ---------------------------------------------------------------- control
  always_comb begin
    stall_m = stall_w || (m_mem && !(m_req_q && dbus_gnt)) || m_csr_wait;
    stall_e = stall_m || (e_valid_q && e_ctrl_q.div && !e_exc_q.valid && !div_ready) || e_w_load ||
              e_m_late;
    stall_d = stall_e;
  end

  // ---------------------------------------------------------------- pipeline registers
  // One block per stage boundary: what W, M, E and D take next.
  always_comb begin
    // W <- M
    w_valid_d  = w_valid_q;
    w_pc_d     = w_pc_q;
    w_ctrl_d   = w_ctrl_q;
    w_result_d = w_result_q;
    w_a_d      = w_a_q;
    w_issued_d = w_issued_q;
    w_noirq_d  = w_noirq_q;
    w_wfi_d    = w_wfi_q;
    w_exc_d    = w_exc_q;
    w_mulh_d   = w_mulh_q;
    w_mk_d     = w_mk_q;
    w_mh0_d    = w_mh0_q;
    w_mh1_d    = w_mh1_q;
    w_mh2_d    = w_mh2_q;
    if (!stall_w) begin
      if (w_flush || stall_m) begin
        w_valid_d  = 1'b0;
        w_issued_d = 1'b0;
        w_noirq_d  = 1'b0;
        w_wfi_d    = 1'b0;
        w_exc_d    = '0;
        w_ctrl_d   = '0;
        w_mulh_d   = 1'b0;
      end else begin
        w_valid_d  = m_valid_q;
        w_pc_d     = m_pc_q;
        w_ctrl_d   = m_ctrl_q;
        w_result_d = m_wres;
        w_a_d      = m_a_q;
        w_issued_d = m_req_q;
        w_noirq_d  = m_req_q;
        w_wfi_d    = m_ctrl_q.wfi && !m_exc_q.valid;
        w_mulh_d   = m_ctrl_q.mul && (m_ctrl_q.mul_op != core_pkg::MUL_MUL);
        w_mk_d     = m_mul_k;
        w_mh0_d    = m_mul_h0;
        w_mh1_d    = m_mul_h1;
        w_mh2_d    = m_mul_h2;
        w_exc_d    = m_exc_q;
        if (m_btrap) begin
          w_exc_d.valid = 1'b1;     // cause and tval set in E (the target)
        end
        if (m_tsrc_q == 2'd1) begin
          w_exc_d.tval = m_result_q;
        end else if (m_tsrc_q == 2'd2) begin
          w_exc_d.tval = (m_a_q + m_ctrl_q.imm) & 32'hFFFF_FFFE;
        end
      end
    end else if (w_err) begin
      // the access answered an error: W's exception, trapped next cycle
      w_issued_d    = 1'b0;
      w_exc_d.valid = 1'b1;
      w_exc_d.cause = w_ctrl_q.load ? core_pkg::EXC_LOAD_ACCESS : core_pkg::EXC_STORE_ACCESS;
      w_exc_d.tval  = w_result_q;
    end
  end

  always_comb begin
    // M <- E
    m_valid_d  = m_valid_q;
    m_pc_d     = m_pc_q;
    m_ctrl_d   = m_ctrl_q;
    m_result_d = m_result_q;
    m_a_d      = m_a_q;
    m_b_d      = m_b_q;
    m_exc_d    = m_exc_q;
    m_tsrc_d   = m_tsrc_q;
    m_eq_d     = m_eq_q;
    m_lt_d     = m_lt_q;
    m_ltu_d    = m_ltu_q;
    m_pred_d   = m_pred_q;
    m_bmisal_d = m_bmisal_q;
    m_shift_d  = m_shift_q;
    m_shleft_d = m_shleft_q;
    m_sh16_d   = m_sh16_q;
    m_shfill_d = m_shfill_q;
    m_shl_d    = m_shl_q;
    m_shr_d    = m_shr_q;
    // M's exception (and its tval source) follows E's whenever M moves on,
    // bubble or not: every use of it is gated by m_valid (in W by w_valid),
    // so that no flush or stall-of-E gating sits behind E's decision.
    m_memx_d = m_memx_q;
    m_csrx_d = m_csrx_q;
    if (!stall_m) begin
      m_exc_d  = e_exc_out;
      m_tsrc_d = e_tsrc;
      // (= load or store / CSR access without e_exc_out.valid: a load or
      // store is legal but for funct3 and alignment, a CSR access but for
      // e_csr_bad, see rv_decode)
      m_memx_d = e_mem_ok && !e_ctrl_q.illegal;
      m_csrx_d = (e_ctrl_q.csr_op != core_pkg::CSR_NONE) && !e_exc_q.valid && !e_ctrl_q.illegal && !e_csr_bad;
    end
    if (w_flush || (!stall_m && (stall_e || r_go))) begin
      m_valid_d = 1'b0;
      m_ctrl_d  = '0;
      m_bmisal_d = 1'b0;
      m_shift_d  = 1'b0;
    end else if (!stall_m) begin
      m_valid_d  = e_valid_q;
      m_pc_d     = e_pc_q;
      m_ctrl_d   = e_ctrl;     // an excepting one is cancelled by m_exc / w_exc
      m_result_d = e_result;
      m_a_d      = e_a;
      m_b_d      = e_b;
      m_eq_d     = e_eq;
      m_lt_d     = e_lt;
      m_ltu_d    = e_ltu;
      m_pred_d   = e_pred_q;
      m_shift_d  = e_cls_q[1] || e_cls_q[2];
      m_shleft_d = e_cls_q[1];
      m_sh16_d   = e_sh_16;
      m_shfill_d = e_sh_fill;
      m_shl_d    = e_sh_l;
      m_shr_d    = e_sh_r;
      m_bmisal_d = e_ctrl_q.branch && e_tmis_q;
    end
  end

  always_comb begin
    // E <- D
    e_valid_d  = e_valid_q;
    e_pc_d     = e_pc_q;
    e_ctrl_d   = e_ctrl_q;
    e_target_d = e_target_q;
    e_pc4_d    = e_pc4_q;
    e_tmis_d   = e_tmis_q;
    e_pred_d   = e_pred_q;
    e_exc_d    = e_exc_q;
    e_cls_d    = e_cls_q;
    e_sub_d    = e_sub_q;
    e_slt_d    = e_slt_q;
    e_div_d    = e_div_q;
    e_csrok_d  = stall_e ? e_csrok_q : csr_chk_exists;
    if (w_flush || r_go || (!stall_e && stall_d)) begin
      e_valid_d = 1'b0;
      e_ctrl_d  = '0;
      e_exc_d   = '0;
    end else if (!stall_e) begin
      // (the operands: see the forwarding above; held, they are kept up to
      // date as the instructions they come from move on)
      e_valid_d  = d_valid_q;
      e_pc_d     = d_pc_q;
      e_ctrl_d   = d_ctrl;
      e_cls_d    = d_cls;
      e_sub_d    = (d_dec.alu_op == core_pkg::ALU_SUB) || (d_dec.alu_op == core_pkg::ALU_SLT) ||
                   (d_dec.alu_op == core_pkg::ALU_SLTU);
      e_slt_d    = (d_dec.alu_op == core_pkg::ALU_SLT);
      e_div_d    = d_div_raw;
      e_target_d = d_target;
      e_pc4_d    = d_pc_q + 32'd4;
      e_tmis_d   = d_dec.imm[1];
      e_pred_d   = d_pred;
      e_exc_d    = d_exc;
    end
    if (!d_valid_q && !w_flush && !r_go && !stall_e && !stall_d) begin
      e_exc_d  = '0;
      e_ctrl_d = '0;
    end
    r_go_d = e_go;
    r_pc_d = e_redirect_pc;
  end

  always_comb begin
    // D <- F. A redirect (W, E or a jump in D) sends F to the target and
    // empties D: the word arriving next cycle is the old path's.
    d_valid_d  = d_valid_q;
    d_pc_d     = d_pc_q;
    d_ffault_d = d_ffault_q;
    d_buf_d    = 1'b0;
    d_instr_d  = d_instr;
    f_alt      = f_pc_q;
    f_use_raw  = 1'b0;
    if (w_flush) begin
      d_valid_d = 1'b0;
      f_alt     = w_flush_pc;
    end else if (r_go) begin
      d_valid_d = 1'b0;
      f_alt     = r_pc_q;
    end else if (d_valid_q && stall_d) begin
      d_buf_d   = 1'b1;          // hold D's word; F reads the next one again
    end else if (d_jump) begin
      d_valid_d = 1'b0;
      f_alt     = d_tgt_q;       // (used while D holds its word)
      f_use_raw = !d_buf_q;
    end else begin
      d_valid_d  = 1'b1;
      d_pc_d     = f_pc_q;
      d_ffault_d = !(f_imem_off < IMEM_BYTES);
      f_alt      = pc_plus4(f_pc_q);
    end
    f_pc_d = f_use_raw ? d_tgt_raw : f_alt;

    imem_en    = 1'b1;   // reads during reset are harmless
    imem_addr  = {f_pc_q[31:2], 2'b00};
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      d_valid_q <= 1'b0;
      f_pc_q    <= BOOT_ADDR;
      e_valid_q <= 1'b0;
      e_ctrl_q  <= '0;
      e_exc_q   <= '0;
      m_valid_q <= 1'b0;
      m_ctrl_q  <= '0;
      m_exc_q   <= '0;
      w_valid_q  <= 1'b0;
      w_ctrl_q   <= '0;
      w_exc_q    <= '0;
      w_issued_q <= 1'b0;
      w_noirq_q  <= 1'b0;
      w_wfi_q    <= 1'b0;
      w_mulh_q   <= 1'b0;
      irq_hold_q <= 1'b0;
      retire_q   <= 1'b0;
      m_req_q    <= 1'b0;
      m_shift_q  <= 1'b0;
      r_go_q     <= 1'b0;
      r_br_q     <= 1'b0;
    end else begin
      d_valid_q <= d_valid_d;
      f_pc_q    <= f_pc_d;
      e_valid_q <= e_valid_d;
      e_ctrl_q  <= e_ctrl_d;
      e_exc_q   <= e_exc_d;
      m_valid_q <= m_valid_d;
      m_ctrl_q  <= m_ctrl_d;
      m_exc_q   <= m_exc_d;
      w_valid_q  <= w_valid_d;
      w_ctrl_q   <= w_ctrl_d;
      w_exc_q    <= w_exc_d;
      w_issued_q <= w_issued_d;
      w_noirq_q  <= w_noirq_d;
      w_wfi_q    <= w_wfi_d;
      w_mulh_q   <= w_mulh_d;
      irq_hold_q <= irq_hold_d;
      retire_q   <= w_retire;
      m_req_q    <= m_req_d;
      m_shift_q  <= m_shift_d;
      r_go_q     <= r_go_d;
      r_br_q     <= r_br_d;
    end
    d_pc_q     <= d_pc_d;
    r_pc_q     <= r_pc_d;
    m_eq_q     <= m_eq_d;
    m_lt_q     <= m_lt_d;
    m_ltu_q    <= m_ltu_d;
    m_pred_q   <= m_pred_d;
    m_shleft_q <= m_shleft_d;
    m_sh16_q   <= m_sh16_d;
    m_shfill_q <= m_shfill_d;
    m_shl_q    <= m_shl_d;
    m_shr_q    <= m_shr_d;
    m_bmisal_q <= m_bmisal_d;
    d_ffault_q <= d_ffault_d;
    d_buf_q    <= d_buf_d;
    d_instr_q  <= d_instr_d;
    e_pc_q     <= e_pc_d;
    e_rs1_q    <= e_rs1_d;
    e_rs2_q    <= e_rs2_d;
    e_target_q <= e_target_d;
    d_tgt_q    <= d_target;
    e_pc4_q    <= e_pc4_d;
    e_tmis_q   <= e_tmis_d;
    e_pred_q   <= e_pred_d;
    e_m1_q     <= e_m1_d;
    e_m2_q     <= e_m2_d;
    e_ma_q     <= e_ma_d;
    e_mb_q     <= e_mb_d;
    e_p1_q     <= e_p1_d;
    e_p2_q     <= e_p2_d;
    e_ua_q     <= e_ua_d;
    e_ub_q     <= e_ub_d;
    e_opav_q   <= e_opav_d;
    e_opbv_q   <= e_opbv_d;
    e_cls_q    <= e_cls_d;
    e_sub_q    <= e_sub_d;
    e_slt_q    <= e_slt_d;
    e_div_q    <= e_div_d;
    e_csrok_q  <= e_csrok_d;
    e_wl_q     <= e_wl_d;
    e_ml_q     <= e_ml_d;
    m_pc_q     <= m_pc_d;
    m_result_q <= m_result_d;
    m_a_q      <= m_a_d;
    m_tsrc_q   <= m_tsrc_d;
    m_memx_q   <= m_memx_d;
    m_csrx_q   <= m_csrx_d;
    m_b_q      <= m_b_d;
    w_pc_q     <= w_pc_d;
    w_result_q <= w_result_d;
    w_a_q      <= w_a_d;
    w_mk_q     <= w_mk_d;
    w_mh0_q    <= w_mh0_d;
    w_mh1_q    <= w_mh1_d;
    w_mh2_q    <= w_mh2_d;
    m_be_q     <= m_be_d;
    m_wdata_q  <= m_wdata_d;
  end

`ifndef SYNTHESIS
  // sbus rules (docs/DEVELOPING.md): a request not yet granted stays, with
  // stable address, direction, byte enables and data; one access outstanding.
  logic        a_wait_q, a_out_q, a_we_q;
  logic [31:0] a_addr_q, a_wdata_q;
  logic [3:0]  a_be_q;
  always_ff @(posedge clk) begin
    a_wait_q  <= !rst && dbus_req && !dbus_gnt;
    a_out_q   <= !rst && ((dbus_req && dbus_gnt) || (a_out_q && !dbus_rvalid));
    a_addr_q  <= dbus_addr;
    a_we_q    <= dbus_we;
    a_be_q    <= dbus_be;
    a_wdata_q <= dbus_wdata;
    if (!rst && a_wait_q) begin
      assert (dbus_req && (dbus_addr == a_addr_q) && (dbus_we == a_we_q) && (dbus_be == a_be_q) &&
              (!dbus_we || (dbus_wdata == a_wdata_q)))
        else $error("rv_core: sbus request changed or withdrawn before its grant");
    end
    if (!rst && a_out_q && !dbus_rvalid) begin
      assert (!dbus_req) else $error("rv_core: second sbus request while one is outstanding");
    end
  end
`endif

endmodule
