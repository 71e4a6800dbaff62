`default_nettype none
// rv_mul: 33x33-bit signed multiplier for MUL/MULH/MULHSU/MULHU. Purely
// combinational; rv_core registers its operands in front of it (E->M) and
// its result behind it (M->W), the shape of one DSP cascade.
module rv_mul (
  input  wire logic [31:0]   a,
  input  wire logic [31:0]   b,
  input  wire logic [1:0]   op,      // core_pkg::MUL_*
  output logic      [31:0]   result
);

  logic               a_signed, b_signed;
  logic signed [32:0] a_ext, b_ext;
  logic signed [63:0] product;  // low 64 bits of the 66-bit product are all we need

  always_comb begin
    a_signed = (op == core_pkg::MUL_MULH) || (op == core_pkg::MUL_MULHSU);
    b_signed = (op == core_pkg::MUL_MULH);
    a_ext    = $signed({a_signed & a[31], a});
    b_ext    = $signed({b_signed & b[31], b});
    product  = a_ext * b_ext;
    result   = (op == core_pkg::MUL_MUL) ? product[31:0] : product[63:32];
  end

endmodule
