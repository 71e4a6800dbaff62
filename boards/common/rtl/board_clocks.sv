`default_nettype none

// board_clocks: a board's differential oscillator -> MMCM -> the 250 MHz NIC
// clock and the 125 MHz CMAC init/DRP clock (both on BUFGs), the NIC's
// asynchronous reset (MMCM not locked, or the board's reset input) and the
// 125 MHz domain's synchronous reset. VCO = oscillator x 10 (1000 MHz from
// 100 MHz, 1250 MHz from 125 MHz); the dividers make 250 and 125 MHz of it.
// In simulation (tests/boards) the buffers and the MMCM are stand-ins.
module board_clocks #(
  parameter real CLKIN_PERIOD = 8.0,   // ns: 8.0 for 125 MHz, 10.0 for 100 MHz
  parameter real DIV_250      = 5.0,   // VCO / 250 MHz
  parameter int  DIV_125      = 10     // VCO / 125 MHz
) (
  input  wire logic clk_in_p,
  input  wire logic clk_in_n,
  input  wire logic rst_in,    // board reset (button), active high; 0 when none
  output logic      clk_250,
  output logic      clk_125,
  output logic      arst,      // NIC reset, asynchronous, active high
  output logic      rst_125    // clk_125's synchronous reset
);

  logic clk_in, clk_fb, clk_250_mmcm, clk_125_mmcm, mmcm_locked;

  IBUFDS u_clk_ibuf (.I(clk_in_p), .IB(clk_in_n), .O(clk_in));

  // The primitive's unused clock outputs stay open (waiver below).
  /* verilator lint_off PINCONNECTEMPTY */
  MMCME4_BASE #(
    .CLKIN1_PERIOD   (CLKIN_PERIOD),
    .DIVCLK_DIVIDE   (1),
    .CLKFBOUT_MULT_F (10.0),
    .CLKOUT0_DIVIDE_F(DIV_250),
    .CLKOUT1_DIVIDE  (DIV_125)
  ) u_mmcm (
    .CLKIN1(clk_in), .CLKFBIN(clk_fb), .CLKFBOUT(clk_fb), .CLKFBOUTB(),
    .RST(rst_in), .PWRDWN(1'b0),
    .CLKOUT0(clk_250_mmcm), .CLKOUT0B(), .CLKOUT1(clk_125_mmcm), .CLKOUT1B(),
    .CLKOUT2(), .CLKOUT2B(), .CLKOUT3(), .CLKOUT3B(), .CLKOUT4(), .CLKOUT5(), .CLKOUT6(),
    .LOCKED(mmcm_locked)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  BUFG u_bufg_250 (.I(clk_250_mmcm), .O(clk_250));
  BUFG u_bufg_125 (.I(clk_125_mmcm), .O(clk_125));

  assign arst = !mmcm_locked || rst_in;

  board_reset_sync u_rst_125 (.clk(clk_125), .arst(arst), .rst(rst_125));

endmodule
