`default_nettype none
// rv_decode: combinational RV32IM + Zicsr decoder. Every encoding not in the
// ISA sets ctrl.illegal (the existence of a CSR is checked by rv_csr); the
// other fields of an illegal word are left as decoded (rv_core cancels it).
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
    ctrl.imm     = imm;
  end

  // Every encoding not in the ISA, as one flat sum of products (no priority
  // through the decode above). The other fields of an illegal word are not
  // cleared: rv_core cancels an excepting instruction by its exception.
  always_comb begin
    illegal = 1'b0;
    unique case (opcode)
      core_pkg::OPC_LUI, core_pkg::OPC_AUIPC, core_pkg::OPC_JAL: illegal = 1'b0;
      core_pkg::OPC_JALR:     illegal = (funct3 != 3'b000);
      core_pkg::OPC_BRANCH:   illegal = (funct3[2:1] == 2'b01);
      core_pkg::OPC_LOAD:     illegal = (funct3 == 3'b011) || (funct3[2:1] == 2'b11);
      core_pkg::OPC_STORE:    illegal = funct3[2] || (funct3[1:0] == 2'b11);
      core_pkg::OPC_OP_IMM:   illegal = ((funct3 == 3'b001) && (funct7 != 7'b0000000)) ||
                                        ((funct3 == 3'b101) && (funct7 != 7'b0000000) &&
                                         (funct7 != 7'b0100000));
      core_pkg::OPC_OP:       illegal = !((funct7 == 7'b0000001) || (funct7 == 7'b0000000) ||
                                          ((funct7 == 7'b0100000) &&
                                           ((funct3 == 3'b000) || (funct3 == 3'b101))));
      core_pkg::OPC_MISC_MEM: illegal = funct3[2:1] != 2'b00;
      core_pkg::OPC_SYSTEM:   illegal = (funct3 == 3'b100) ||
                                        ((funct3 == 3'b000) && (instr[31:7] != 25'h0000000) &&
                                         (instr[31:7] != 25'h0002000) && (instr[31:7] != 25'h0604000) &&
                                         (instr[31:7] != 25'h020A000));
      default:                illegal = 1'b1;
    endcase
  end

endmodule
