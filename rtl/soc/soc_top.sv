`default_nettype none

// The SoC: the rv_core soft core in front of soc_sys (instruction and data
// BRAM, bus decoder, sysinfo/uart/timer/simctrl). Reset vector 0, the start
// of the instruction BRAM. The m_ext sbus master port carries the core's
// accesses to 0x3000_0000..0x4FFF_FFFF (datapath registers, mgmt buffers).
// The watchdog (soc_wdog, in soc_sys) resets the core and soc_sys with
// `soc_rst` when it bites; the datapath behind m_ext keeps running.
module soc_top #(
  parameter int          IMEM_BYTES  = 262144,
  parameter int          DMEM_BYTES  = 262144,
  parameter int          CLK_HZ      = 250000000,
  parameter logic [31:0] GIT_HASH    = 32'h0,   // first 8 hex digits of the commit
  parameter              IMEM_INIT   = "",      // firmware image baked in (synthesis)
  parameter              FW_PLUSARG  = "fw",    // simulation: +fw=FILE loads the firmware
  parameter int          UART_SERIAL = 0        // 0: character interface, 1: txd/rxd pins
) (
  input  wire logic        clk,
  input  wire logic        rst,
  input  wire logic        irq_external,
  // datapath registers and mgmt buffers (sbus master)
  output logic             m_ext_req,
  output logic [31:0]      m_ext_addr,
  output logic             m_ext_we,
  output logic [3:0]       m_ext_be,
  output logic [31:0]      m_ext_wdata,
  input  wire logic        m_ext_gnt,
  input  wire logic        m_ext_rvalid,
  input  wire logic [31:0] m_ext_rdata,
  input  wire logic        m_ext_err,
  // UART character interface (UART_SERIAL = 0): one character per cycle
  output logic             uart_tx_valid,
  output logic [7:0]       uart_tx_data,
  input  wire logic        uart_tx_ready,
  input  wire logic        uart_rx_valid,
  input  wire logic [7:0]  uart_rx_data,
  output logic             uart_rx_ready,
  // UART pins (UART_SERIAL = 1)
  output logic             uart_txd,
  input  wire logic        uart_rxd,
  // simulation control and statistics
  output logic             exit_valid,
  output logic [31:0]      exit_code,
  output logic             retire
);

  logic        imem_en;
  logic [31:0] imem_addr;
  logic [31:0] imem_rdata;
  logic        dbus_req;
  logic [31:0] dbus_addr;
  logic        dbus_we;
  logic [3:0]  dbus_be;
  logic [31:0] dbus_wdata;
  logic        dbus_gnt;
  logic        dbus_rvalid;
  logic [31:0] dbus_rdata;
  logic        dbus_err;
  logic        irq_timer;
  logic        wdog_bite;
  logic        soc_rst;

  always_comb soc_rst = rst || wdog_bite;   // wdog_bite is a flip-flop

  rv_core #(
    .BOOT_ADDR(32'h0000_0000),
    .IMEM_BASE(32'h0000_0000),
    .IMEM_BYTES(IMEM_BYTES)
  ) u_core (
    .clk, .rst(soc_rst),
    .imem_en, .imem_addr, .imem_rdata,
    .dbus_req, .dbus_addr, .dbus_we, .dbus_be, .dbus_wdata,
    .dbus_gnt, .dbus_rvalid, .dbus_rdata, .dbus_err,
    .irq_timer, .irq_external,
    .retire
  );

  soc_sys #(
    .IMEM_BYTES(IMEM_BYTES),
    .DMEM_BYTES(DMEM_BYTES),
    .CLK_HZ(CLK_HZ),
    .GIT_HASH(GIT_HASH),
    .IMEM_INIT(IMEM_INIT),
    .FW_PLUSARG(FW_PLUSARG),
    .UART_SERIAL(UART_SERIAL)
  ) u_sys (
    .clk, .rst(soc_rst), .rst_por(rst), .wdog_bite,
    .imem_en, .imem_addr, .imem_rdata,
    .dbus_req, .dbus_addr, .dbus_we, .dbus_be, .dbus_wdata,
    .dbus_gnt, .dbus_rvalid, .dbus_rdata, .dbus_err,
    .irq_timer,
    .m_ext_req, .m_ext_addr, .m_ext_we, .m_ext_be, .m_ext_wdata,
    .m_ext_gnt, .m_ext_rvalid, .m_ext_rdata, .m_ext_err,
    .uart_tx_valid, .uart_tx_data, .uart_tx_ready,
    .uart_rx_valid, .uart_rx_data, .uart_rx_ready,
    .uart_txd, .uart_rxd,
    .exit_valid, .exit_code
  );

endmodule
