`default_nettype none

// Simulation stand-ins for the Xilinx primitives the board tops instantiate
// (Verilator has no UNISIM library). They keep the board top's wiring real
// and move the clock generation to the bench:
//   IBUFDS, BUFG   pass-through
//   MMCME4_BASE    CLKOUT0 and CLKOUT1 are CLKIN1 itself: the bench drives the
//                  board's clock pin at the NIC clock (250 MHz), not at the
//                  board oscillator's frequency; LOCKED rises 16 input cycles
//                  after RST falls.
// One file holds the three small stand-ins, hence the waiver of the
// one-module-per-file-name rule.
/* verilator lint_off DECLFILENAME */

module IBUFDS (
  input  wire logic I,
  input  wire logic IB,
  output logic      O
);
  logic unused;
  assign unused = IB;
  assign O = I;
endmodule

module BUFG (
  input  wire logic I,
  output logic      O
);
  assign O = I;
endmodule

// the configuration parameters are those of the real primitive; the stand-in ignores them
/* verilator lint_off UNUSEDPARAM */
module MMCME4_BASE #(
  parameter real CLKIN1_PERIOD    = 8.0,
  parameter int  DIVCLK_DIVIDE    = 1,
  parameter real CLKFBOUT_MULT_F  = 10.0,
  parameter real CLKOUT0_DIVIDE_F = 5.0,
  parameter int  CLKOUT1_DIVIDE   = 10
) (
/* verilator lint_on UNUSEDPARAM */
  input  wire logic CLKIN1,
  input  wire logic CLKFBIN,
  input  wire logic RST,
  input  wire logic PWRDWN,
  output logic      CLKFBOUT,
  output logic      CLKFBOUTB,
  output logic      CLKOUT0,
  output logic      CLKOUT0B,
  output logic      CLKOUT1,
  output logic      CLKOUT1B,
  output logic      CLKOUT2,
  output logic      CLKOUT2B,
  output logic      CLKOUT3,
  output logic      CLKOUT3B,
  output logic      CLKOUT4,
  output logic      CLKOUT5,
  output logic      CLKOUT6,
  output logic      LOCKED
);
  logic [4:0] cnt_q;
  logic unused;

  always_ff @(posedge CLKIN1 or posedge RST) begin
    if (RST)                cnt_q <= '0;
    else if (!cnt_q[4])     cnt_q <= cnt_q + 1'b1;
  end

  assign unused    = ^{CLKFBIN, PWRDWN};
  assign LOCKED    = cnt_q[4];
  assign CLKFBOUT  = CLKIN1;
  assign CLKFBOUTB = !CLKIN1;
  assign CLKOUT0   = CLKIN1;
  assign CLKOUT0B  = !CLKIN1;
  assign CLKOUT1   = CLKIN1;
  assign CLKOUT1B  = !CLKIN1;
  assign CLKOUT2   = 1'b0;
  assign CLKOUT2B  = 1'b1;
  assign CLKOUT3   = 1'b0;
  assign CLKOUT3B  = 1'b1;
  assign CLKOUT4   = 1'b0;
  assign CLKOUT5   = 1'b0;
  assign CLKOUT6   = 1'b0;
endmodule
