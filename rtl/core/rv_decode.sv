`default_nettype none
// rv_decode: combinational RV32IM + Zicsr decoder. Every encoding not in the
// ISA is flagged in one of three pieces, each a small function of the word
// (no wide compare behind another one: the word comes straight from the
// instruction RAM), that rv_core completes a stage later from registers:
// illegal (an opcode not in the ISA, MISC-MEM or SYSTEM with a funct3 not in
// it), opx (OP or OP-IMM: rv_core checks funct7 against funct3) and sys0
// (SYSTEM with funct3 0: illegal unless it is ecall, ebreak, mret or wfi).
// The funct3 of jalr, branch, load and store is checked by rv_core from its
// registered control too (jalr, branch, load, store, funct3; funct7 is
// csr_addr[11:5]). The existence of a CSR is checked by rv_csr. The other
// fields of an illegal word are left as decoded (rv_core cancels it).
// imm is decoded from the opcode's format bits alone: meaningful only for the
// instructions that use an immediate (and the CSR instructions' zimm).
module rv_decode (
  input  wire logic [31:0] instr,
  output core_pkg::ctrl_t    ctrl
);

  logic [6:0] opcode;
  logic [2:0] funct3;
  logic [6:0] funct7;
  logic [4:0] rs1, rs2, rd;
  logic [31:0] imm_i, imm_s, imm_b, imm_u, imm_j, imm_z, imm;
  logic        illegal;

  always_comb begin
    opcode = instr[6:0];
    funct3 = instr[14:12];
    funct7 = instr[31:25];
    rs1    = instr[19:15];
    rs2    = instr[24:20];
    rd     = instr[11:7];
    imm_i  = {{20{instr[31]}}, instr[31:20]};
    imm_s  = {{20{instr[31]}}, instr[31:25], instr[11:7]};
    imm_b  = {{19{instr[31]}}, instr[31], instr[7], instr[30:25], instr[11:8], 1'b0};
    imm_u  = {instr[31:12], 12'b0};
    imm_j  = {{11{instr[31]}}, instr[31], instr[19:12], instr[20], instr[30:21], 1'b0};
    imm_z  = {27'b0, rs1};    // a CSR instruction's zimm
    // The immediate's format from opcode bits 6:2 alone (every opcode that
    // uses one: LUI / AUIPC U, JAL J, JALR / LOAD / OP-IMM I, BRANCH B,
    // STORE S, SYSTEM zimm); for the others it is a don't care.
    if (instr[6]) begin
      if (instr[3]) begin
        imm = imm_j;
      end else if (instr[2]) begin
        imm = imm_i;
      end else if (instr[4]) begin
        imm = imm_z;
      end else begin
        imm = imm_b;
      end
    end else if (instr[4] && instr[2]) begin
      imm = imm_u;
    end else if (instr[5] && !instr[4]) begin
      imm = imm_s;
    end else begin
      imm = imm_i;
    end
  end

  always_comb begin
    ctrl          = '0;
    ctrl.rs1      = rs1;
    ctrl.rs2      = rs2;
    ctrl.rd       = rd;
    ctrl.funct3   = funct3;
    ctrl.alu_op   = core_pkg::ALU_ADD;
    ctrl.opa_sel  = core_pkg::OPA_RS1;
    ctrl.mem_size = funct3[1:0];
    ctrl.mul_op   = funct3[1:0];
    ctrl.div_op   = funct3[1:0];
    ctrl.csr_op   = core_pkg::CSR_NONE;
    ctrl.csr_addr = instr[31:20];

    unique case (opcode)
      core_pkg::OPC_LUI: begin
        ctrl.rd_we   = 1'b1;
        ctrl.opa_sel = core_pkg::OPA_ZERO;
        ctrl.opb_imm = 1'b1;
      end
      core_pkg::OPC_AUIPC: begin
        ctrl.rd_we   = 1'b1;
        ctrl.opa_sel = core_pkg::OPA_PC;
        ctrl.opb_imm = 1'b1;
      end
      core_pkg::OPC_JAL: begin
        ctrl.rd_we = 1'b1;
        ctrl.jal   = 1'b1;
      end
      core_pkg::OPC_JALR: begin
        ctrl.rd_we    = 1'b1;
        ctrl.jalr     = 1'b1;
        ctrl.rs1_used = 1'b1;
      end
      core_pkg::OPC_BRANCH: begin
        ctrl.branch   = 1'b1;
        ctrl.rs1_used = 1'b1;
        ctrl.rs2_used = 1'b1;
      end
      core_pkg::OPC_LOAD: begin
        ctrl.rd_we        = 1'b1;
        ctrl.load         = 1'b1;
        ctrl.rs1_used     = 1'b1;
        ctrl.opb_imm      = 1'b1;
        ctrl.mem_unsigned = funct3[2];
        // lb lh lw lbu lhu
      end
      core_pkg::OPC_STORE: begin
        ctrl.store    = 1'b1;
        ctrl.rs1_used = 1'b1;
        ctrl.rs2_used = 1'b1;
        ctrl.opb_imm  = 1'b1;
      end
      core_pkg::OPC_OP_IMM: begin
        ctrl.rd_we    = 1'b1;
        ctrl.rs1_used = 1'b1;
        ctrl.opb_imm  = 1'b1;
        unique case (funct3)
          3'b000: ctrl.alu_op = core_pkg::ALU_ADD;
          3'b010: ctrl.alu_op = core_pkg::ALU_SLT;
          3'b011: ctrl.alu_op = core_pkg::ALU_SLTU;
          3'b100: ctrl.alu_op = core_pkg::ALU_XOR;
          3'b110: ctrl.alu_op = core_pkg::ALU_OR;
          3'b111: ctrl.alu_op = core_pkg::ALU_AND;
          3'b001: begin
            ctrl.alu_op  = core_pkg::ALU_SLL;
          end
          default: begin // 3'b101
            ctrl.alu_op  = funct7[5] ? core_pkg::ALU_SRA : core_pkg::ALU_SRL;
          end
        endcase
      end
      core_pkg::OPC_OP: begin
        ctrl.rd_we    = 1'b1;
        ctrl.rs1_used = 1'b1;
        ctrl.rs2_used = 1'b1;
        if (funct7 == 7'b0000001) begin
          ctrl.mul = !funct3[2];
          ctrl.div = funct3[2];
        end else begin
          unique case (funct3)
            3'b000:  ctrl.alu_op = funct7[5] ? core_pkg::ALU_SUB : core_pkg::ALU_ADD;
            3'b001:  ctrl.alu_op = core_pkg::ALU_SLL;
            3'b010:  ctrl.alu_op = core_pkg::ALU_SLT;
            3'b011:  ctrl.alu_op = core_pkg::ALU_SLTU;
            3'b100:  ctrl.alu_op = core_pkg::ALU_XOR;
            3'b101:  ctrl.alu_op = funct7[5] ? core_pkg::ALU_SRA : core_pkg::ALU_SRL;
            3'b110:  ctrl.alu_op = core_pkg::ALU_OR;
            default: ctrl.alu_op = core_pkg::ALU_AND;
          endcase
          // funct7 0100000 only for sub and sra
        end
      end
      core_pkg::OPC_MISC_MEM: begin
        // fence (any pred/succ/fm) is a no-op; fence.i refetches.
        ctrl.fence_i = (funct3 == 3'b001);
      end
      core_pkg::OPC_SYSTEM: begin
        if (funct3 == 3'b000) begin
          ctrl.ecall   = (instr[31:7] == 25'h0000000);
          ctrl.ebreak  = (instr[31:7] == 25'h0002000);
          ctrl.mret    = (instr[31:7] == 25'h0604000);
          ctrl.wfi     = (instr[31:7] == 25'h020A000);
          ctrl.sys0    = 1'b1;   // illegal unless one of the four (rv_core)
        end else if (funct3 == 3'b100) begin
        end else begin
          ctrl.rd_we    = 1'b1;
          ctrl.csr_imm  = funct3[2];
          ctrl.rs1_used = !funct3[2];
          unique case (funct3[1:0])
            2'b01:   ctrl.csr_op = core_pkg::CSR_RW;
            2'b10:   ctrl.csr_op = core_pkg::CSR_RS;
            default: ctrl.csr_op = core_pkg::CSR_RC;
          endcase
          // csrrw always writes; csrrs/csrrc with x0 / zimm 0 only read.
          ctrl.csr_write = (funct3[1:0] == 2'b01) || (rs1 != 5'd0);
        end
      end
      default: ;
    endcase

    if (rd == 5'd0) begin
      ctrl.rd_we = 1'b0;
    end
    ctrl.illegal = illegal;
    ctrl.opx     = is_op || is_opimm;
    ctrl.imm     = imm;
  end

  // The encodings not in the ISA that are told from opcode and funct3 here,
  // as a flat sum of products over one-hot opcode compares (no priority
  // through the decode above); the rest is completed by rv_core (see the
  // header). The other fields of an illegal word are not cleared: rv_core
  // cancels an excepting instruction by its exception.
  logic is_lui, is_auipc, is_jal, is_jalr, is_branch, is_load, is_store;
  logic is_opimm, is_op, is_miscmem, is_system;
  always_comb begin
    is_lui     = (opcode == core_pkg::OPC_LUI);
    is_auipc   = (opcode == core_pkg::OPC_AUIPC);
    is_jal     = (opcode == core_pkg::OPC_JAL);
    is_jalr    = (opcode == core_pkg::OPC_JALR);
    is_branch  = (opcode == core_pkg::OPC_BRANCH);
    is_load    = (opcode == core_pkg::OPC_LOAD);
    is_store   = (opcode == core_pkg::OPC_STORE);
    is_opimm   = (opcode == core_pkg::OPC_OP_IMM);
    is_op      = (opcode == core_pkg::OPC_OP);
    is_miscmem = (opcode == core_pkg::OPC_MISC_MEM);
    is_system  = (opcode == core_pkg::OPC_SYSTEM);
    illegal    = !(is_lui || is_auipc || is_jal || is_jalr || is_branch || is_load || is_store ||
                   is_opimm || is_op || is_miscmem || is_system) ||
                 (is_miscmem && (funct3[2:1] != 2'b00)) ||
                 (is_system && (funct3 == 3'b100));
  end

endmodule
