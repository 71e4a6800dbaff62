`default_nettype none
// core_pkg: types and constants of the RV32IM + Zicsr core rv_core (rtl/core).
// Written from the RISC-V unprivileged ISA (20191213) and the privileged
// architecture (20211203) specifications.
package core_pkg;

  // The tables below list every encoding, whether or not the RTL names it.
  /* verilator lint_off UNUSEDPARAM */

  // Major opcodes (instr[6:0]).
  localparam logic [6:0] OPC_LOAD     = 7'b0000011;
  localparam logic [6:0] OPC_MISC_MEM = 7'b0001111;
  localparam logic [6:0] OPC_OP_IMM   = 7'b0010011;
  localparam logic [6:0] OPC_AUIPC    = 7'b0010111;
  localparam logic [6:0] OPC_STORE    = 7'b0100011;
  localparam logic [6:0] OPC_OP       = 7'b0110011;
  localparam logic [6:0] OPC_LUI      = 7'b0110111;
  localparam logic [6:0] OPC_BRANCH   = 7'b1100011;
  localparam logic [6:0] OPC_JALR     = 7'b1100111;
  localparam logic [6:0] OPC_JAL      = 7'b1101111;
  localparam logic [6:0] OPC_SYSTEM   = 7'b1110011;

  typedef enum logic [3:0] {
    ALU_ADD,
    ALU_SUB,
    ALU_SLL,
    ALU_SLT,
    ALU_SLTU,
    ALU_XOR,
    ALU_SRL,
    ALU_SRA,
    ALU_OR,
    ALU_AND
  } alu_op_e;

  typedef enum logic [1:0] {
    OPA_RS1,
    OPA_PC,
    OPA_ZERO
  } opa_sel_e;

  // Access size of loads and stores (funct3[1:0]).
  localparam logic [1:0] SIZE_B = 2'd0;
  localparam logic [1:0] SIZE_H = 2'd1;
  localparam logic [1:0] SIZE_W = 2'd2;

  // funct3[1:0] of MUL* (multiply) and of DIV*/REM* (divide).
  localparam logic [1:0] MUL_MUL    = 2'd0;
  localparam logic [1:0] MUL_MULH   = 2'd1;
  localparam logic [1:0] MUL_MULHSU = 2'd2;
  localparam logic [1:0] MUL_MULHU  = 2'd3;
  localparam logic [1:0] DIV_DIV    = 2'd0;
  localparam logic [1:0] DIV_DIVU   = 2'd1;
  localparam logic [1:0] DIV_REM    = 2'd2;
  localparam logic [1:0] DIV_REMU   = 2'd3;

  typedef enum logic [1:0] {
    CSR_NONE,
    CSR_RW,
    CSR_RS,
    CSR_RC
  } csr_op_e;

  // Exception cause codes (mcause with interrupt bit 0).
  typedef enum logic [3:0] {
    EXC_INSN_MISALIGNED  = 4'd0,
    EXC_INSN_ACCESS      = 4'd1,
    EXC_ILLEGAL          = 4'd2,
    EXC_BREAKPOINT       = 4'd3,
    EXC_LOAD_MISALIGNED  = 4'd4,
    EXC_LOAD_ACCESS      = 4'd5,
    EXC_STORE_MISALIGNED = 4'd6,
    EXC_STORE_ACCESS     = 4'd7,
    EXC_ECALL_M          = 4'd11
  } exc_cause_e;

  // Interrupt cause codes (mcause with interrupt bit 1).
  localparam logic [3:0] IRQ_M_TIMER    = 4'd7;
  localparam logic [3:0] IRQ_M_EXTERNAL = 4'd11;

  // CSR addresses.
  localparam logic [11:0] CSR_MSTATUS   = 12'h300;
  localparam logic [11:0] CSR_MISA      = 12'h301;
  localparam logic [11:0] CSR_MIE       = 12'h304;
  localparam logic [11:0] CSR_MTVEC     = 12'h305;
  localparam logic [11:0] CSR_MSTATUSH  = 12'h310;
  localparam logic [11:0] CSR_MCOUNTINH = 12'h320;
  localparam logic [11:0] CSR_MSCRATCH  = 12'h340;
  localparam logic [11:0] CSR_MEPC      = 12'h341;
  localparam logic [11:0] CSR_MCAUSE    = 12'h342;
  localparam logic [11:0] CSR_MTVAL     = 12'h343;
  localparam logic [11:0] CSR_MIP       = 12'h344;
  localparam logic [11:0] CSR_MCYCLE    = 12'hB00;
  localparam logic [11:0] CSR_MINSTRET  = 12'hB02;
  localparam logic [11:0] CSR_MCYCLEH   = 12'hB80;
  localparam logic [11:0] CSR_MINSTRETH = 12'hB82;
  localparam logic [11:0] CSR_CYCLE     = 12'hC00;
  localparam logic [11:0] CSR_INSTRET   = 12'hC02;
  localparam logic [11:0] CSR_CYCLEH    = 12'hC80;
  localparam logic [11:0] CSR_INSTRETH  = 12'hC82;
  localparam logic [11:0] CSR_MVENDORID = 12'hF11;
  localparam logic [11:0] CSR_MARCHID   = 12'hF12;
  localparam logic [11:0] CSR_MIMPID    = 12'hF13;
  localparam logic [11:0] CSR_MHARTID   = 12'hF14;

  // misa: MXL=1 (RV32), extensions I and M.
  localparam logic [31:0] MISA_VALUE = 32'h4000_1100;

  // Decoded instruction: everything the later stages need.
  typedef struct packed {
    logic        illegal;    // rv_decode: from opcode and funct3 (E: the whole decision)
    logic        opx;        // OP or OP-IMM (E checks funct7 = csr_addr[11:5])
    logic        ecall;
    logic        ebreak;
    logic        mret;
    logic        wfi;
    logic        sys0;       // SYSTEM, funct3 0 (illegal unless one of the four above)
    logic        fence_i;
    logic [4:0]  rs1;
    logic [4:0]  rs2;
    logic [4:0]  rd;
    logic        rs1_used;
    logic        rs2_used;
    logic        rd_we;      // writes rd (never set for rd = x0)
    logic [31:0] imm;
    alu_op_e     alu_op;
    opa_sel_e    opa_sel;
    logic        opb_imm;    // operand b is the immediate (else rs2)
    logic        branch;     // conditional branch, condition in funct3
    logic [2:0]  funct3;
    logic        jal;
    logic        jalr;
    logic        load;
    logic        store;
    logic [1:0]  mem_size;   // SIZE_*
    logic        mem_unsigned;
    logic        mul;
    logic [1:0]  mul_op;     // MUL_*
    logic        div;
    logic [1:0]  div_op;     // DIV_*
    csr_op_e     csr_op;
    logic        csr_imm;    // source is the 5-bit zimm (else rs1)
    logic        csr_write;  // the CSR is written (csrrw, or a non-zero set/clear mask source)
    logic [11:0] csr_addr;
  } ctrl_t;

  // A pending exception travelling with an instruction.
  typedef struct packed {
    logic        valid;
    exc_cause_e  cause;
    logic [31:0] tval;
  } exc_t;

  /* verilator lint_on UNUSEDPARAM */

endpackage
