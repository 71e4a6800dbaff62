`default_nettype none
// rv_alu: the integer ALU (add/sub, shifts, compares, logic).
module rv_alu (
  input  wire logic [31:0]     a,
  input  wire logic [31:0]     b,
  input  core_pkg::alu_op_e      op,
  output logic      [31:0]     result
);

  logic [4:0] shamt;

  always_comb begin
    shamt = b[4:0];
    unique case (op)
      core_pkg::ALU_ADD:  result = a + b;
      core_pkg::ALU_SUB:  result = a - b;
      core_pkg::ALU_SLL:  result = a << shamt;
      core_pkg::ALU_SLT:  result = {31'b0, $signed(a) < $signed(b)};
      core_pkg::ALU_SLTU: result = {31'b0, a < b};
      core_pkg::ALU_XOR:  result = a ^ b;
      core_pkg::ALU_SRL:  result = a >> shamt;
`ifdef SOLONIC_FAULT_INJECT
      // Deliberate fault for the mutation test (tests/core): SRA acts as SRL.
      core_pkg::ALU_SRA:  result = a >> shamt;
`else
      core_pkg::ALU_SRA:  result = $unsigned($signed(a) >>> shamt);
`endif
      core_pkg::ALU_OR:   result = a | b;
      core_pkg::ALU_AND:  result = a & b;
      default:          result = a + b;
    endcase
  end

endmodule
