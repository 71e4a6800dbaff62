`default_nettype none

// Everything of the SoC except the core: instruction and data BRAM, the data
// bus decoder, the SoC register blocks and the logic behind them, and the
// sbus master port to the datapath. soc_top puts rv_core in front of it; test
// benches drive it with a bus master of their own. Two resets: `rst` for
// everything here but the watchdog, which only `rst_por` (power-on) resets;
// soc_top makes `rst` from `rst_por` and the watchdog's `wdog_bite`.
//
// Data bus address map (docs/DEVELOPING.md):
//   0x0000_0000  IMEM_BYTES   instruction BRAM, port B (port A is the fetch port)
//   0x1000_0000  DMEM_BYTES   data BRAM
//   0x2000_0000  4 KiB        sysinfo
//   0x2000_1000  4 KiB        uart
//   0x2000_2000  4 KiB        timer
//   0x2000_3000  4 KiB        simctrl
//   0x2000_4000  4 KiB        wdog
//   0x3000_0000  256 MiB      datapath register blocks  } both on the m_ext port
//   0x4000_0000  256 MiB      management packet buffers } (full address passed on)
//   anything else: err
module soc_sys #(
  parameter int          IMEM_BYTES  = 262144,
  parameter int          DMEM_BYTES  = 262144,
  parameter int          CLK_HZ      = 250000000,
  parameter logic [31:0] GIT_HASH    = 32'h0,
  parameter              IMEM_INIT   = "",     // firmware image baked in (synthesis)
  parameter              FW_PLUSARG  = "fw",   // simulation: +fw=FILE loads FILE into IMEM
  parameter int          UART_SERIAL = 0       // 0: character interface, 1: txd/rxd pins
) (
  input  wire logic        clk,
  input  wire logic        rst,        // power-on or watchdog
  input  wire logic        rst_por,    // power-on only (the watchdog)
  output logic             wdog_bite,
  // instruction fetch (BRAM read port, one cycle latency)
  input  wire logic        imem_en,
  input  wire logic [31:0] imem_addr,
  output logic      [31:0] imem_rdata,
  // data bus from the core (sbus target)
  input  wire logic        dbus_req,
  input  wire logic [31:0] dbus_addr,
  input  wire logic        dbus_we,
  input  wire logic [3:0]  dbus_be,
  input  wire logic [31:0] dbus_wdata,
  output logic             dbus_gnt,
  output logic             dbus_rvalid,
  output logic [31:0]      dbus_rdata,
  output logic             dbus_err,
  output logic             irq_timer,
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
  // UART character interface (UART_SERIAL = 0)
  output logic             uart_tx_valid,
  output logic [7:0]       uart_tx_data,
  input  wire logic        uart_tx_ready,
  input  wire logic        uart_rx_valid,
  input  wire logic [7:0]  uart_rx_data,
  output logic             uart_rx_ready,
  // UART pins (UART_SERIAL = 1)
  output logic             uart_txd,
  input  wire logic        uart_rxd,
  // simulation control
  output logic             exit_valid,
  output logic [31:0]      exit_code
);

  localparam int IAW = $clog2(IMEM_BYTES / 4);
  localparam int DAW = $clog2(DMEM_BYTES / 4);

  if (IMEM_BYTES > 32'h1000_0000 || DMEM_BYTES > 32'h1000_0000) begin : g_bad_mem
    $error("soc_sys: IMEM_BYTES and DMEM_BYTES must fit their 256 MiB windows");
  end

  localparam int T_IMEM = 0, T_DMEM = 1, T_SYSINFO = 2, T_UART = 3, T_TIMER = 4,
                 T_SIMCTRL = 5, T_DPREGS = 6, T_MGMTBUF = 7, T_WDOG = 8, NT = 9;

  // target i at BASE[i*32 +: 32], claiming the addresses that agree with it under
  // MASK[i*32 +: 32] (flat vectors: Yosys 0.23 takes no packed array parameters)
  localparam logic [NT*32-1:0] BASE = {
    32'h2000_4000, 32'h4000_0000, 32'h3000_0000, 32'h2000_3000, 32'h2000_2000,
    32'h2000_1000, 32'h2000_0000, 32'h1000_0000, 32'h0000_0000};
  localparam logic [NT*32-1:0] MASK = {
    32'hFFFF_F000, 32'hF000_0000, 32'hF000_0000, 32'hFFFF_F000, 32'hFFFF_F000,
    32'hFFFF_F000, 32'hFFFF_F000, ~(32'(DMEM_BYTES) - 32'd1), ~(32'(IMEM_BYTES) - 32'd1)};

  logic [NT-1:0]       t_req;
  logic [31:0]         t_addr;
  logic                t_we;
  logic [3:0]          t_be;
  logic [31:0]         t_wdata;
  logic [NT-1:0]       t_gnt;
  logic [NT-1:0]       t_rvalid;
  logic [NT*32-1:0]    t_rdata;   // target i: t_rdata[i*32 +: 32]
  logic [NT-1:0]       t_err;

  // The two memories are direct targets: the core's request goes straight to a
  // BRAM port (IMEM port B, DMEM port A) in the cycle it is granted, a cycle
  // before the decoder would pass it on; the decoder still registers the word
  // on its way back (every load and store of the firmware: its stack, data
  // and .rodata, in 3 cycles instead of 4).
  localparam logic [NT-1:0] DIRECT = NT'((1 << T_IMEM) | (1 << T_DMEM));

  soc_xbar #(.N(NT), .BASE(BASE), .MASK(MASK), .DIRECT(DIRECT)) u_xbar (
    .clk, .rst,
    .s_req(dbus_req), .s_addr(dbus_addr), .s_we(dbus_we), .s_be(dbus_be), .s_wdata(dbus_wdata),
    .s_gnt(dbus_gnt), .s_rvalid(dbus_rvalid), .s_rdata(dbus_rdata), .s_err(dbus_err),
    .m_req(t_req), .m_addr(t_addr), .m_we(t_we), .m_be(t_be), .m_wdata(t_wdata),
    .m_gnt(t_gnt), .m_rvalid(t_rvalid), .m_rdata(t_rdata), .m_err(t_err)
  );

  // ---- memories: always ready, answer one cycle after the request
  logic        imem_go, dmem_go;             // a granted request for IMEM / DMEM, this cycle
  logic        imem_rvalid_q, imem_rvalid_d;
  logic        dmem_rvalid_q, dmem_rvalid_d;
  logic [3:0]  mem_we;
  logic [31:0] imem_b_rdata, dmem_a_rdata;
  logic [31:0] dmem_b_rdata;   // port B of the data BRAM is not used
  logic        unused;

  always_comb begin
    imem_go = dbus_req && dbus_gnt && (dbus_addr & MASK[T_IMEM*32 +: 32]) == BASE[T_IMEM*32 +: 32];
    dmem_go = dbus_req && dbus_gnt && (dbus_addr & MASK[T_DMEM*32 +: 32]) == BASE[T_DMEM*32 +: 32];
    mem_we = dbus_we ? dbus_be : 4'b0;
    imem_rvalid_d = imem_go;
    dmem_rvalid_d = dmem_go;
    unused = ^{dmem_b_rdata, imem_addr[31:IAW+2], imem_addr[1:0], t_req[T_IMEM], t_req[T_DMEM]};
  end

  soc_bram #(.BYTES(IMEM_BYTES), .INIT_FILE(IMEM_INIT), .LOAD_PLUSARG(FW_PLUSARG)) u_imem (
    .clk,
    .a_en(imem_en), .a_we(4'b0), .a_addr(imem_addr[IAW+1:2]), .a_wdata(32'd0), .a_rdata(imem_rdata),
    .b_en(imem_go), .b_we(mem_we), .b_addr(dbus_addr[IAW+1:2]), .b_wdata(dbus_wdata),
    .b_rdata(imem_b_rdata)
  );

  soc_bram #(.BYTES(DMEM_BYTES)) u_dmem (
    .clk,
    .a_en(dmem_go), .a_we(mem_we), .a_addr(dbus_addr[DAW+1:2]), .a_wdata(dbus_wdata), .a_rdata(dmem_a_rdata),
    .b_en(1'b0), .b_we(4'b0), .b_addr('0), .b_wdata(32'd0), .b_rdata(dmem_b_rdata)
  );

  always_ff @(posedge clk) begin
    if (rst) begin
      imem_rvalid_q <= 1'b0;
      dmem_rvalid_q <= 1'b0;
    end else begin
      imem_rvalid_q <= imem_rvalid_d;
      dmem_rvalid_q <= dmem_rvalid_d;
    end
  end

  // ---- SoC register blocks
  logic        sysinfo_gnt, sysinfo_rvalid, sysinfo_err;
  logic [31:0] sysinfo_rdata;
  logic        uart_gnt, uart_rvalid, uart_err;
  logic [31:0] uart_rdata;
  logic        timer_gnt, timer_rvalid, timer_err;
  logic [31:0] timer_rdata;
  logic        simctrl_gnt, simctrl_rvalid, simctrl_err;
  logic [31:0] simctrl_rdata;
  logic        wdog_gnt, wdog_rvalid, wdog_err;
  logic [31:0] wdog_rdata;
  logic [31:0] sysinfo_scratch_q;
  logic        unused_scratch;

  sysinfo_regs u_sysinfo (
    .clk, .rst,
    .req(t_req[T_SYSINFO]), .we(t_we), .addr(t_addr[11:0]), .be(t_be), .wdata(t_wdata),
    .gnt(sysinfo_gnt), .rvalid(sysinfo_rvalid), .rdata(sysinfo_rdata),
    .err(sysinfo_err),
    .git_hash_i(GIT_HASH),
    .clk_hz_i(32'(CLK_HZ)),
    .imem_bytes_i(32'(IMEM_BYTES)),
    .dmem_bytes_i(32'(DMEM_BYTES)),
    .scratch_q(sysinfo_scratch_q)
  );

  always_comb unused_scratch = ^sysinfo_scratch_q;  // for software only

  soc_uart #(.SERIAL(UART_SERIAL)) u_uart (
    .clk, .rst,
    .req(t_req[T_UART]), .we(t_we), .addr(t_addr[11:0]), .be(t_be), .wdata(t_wdata),
    .gnt(uart_gnt), .rvalid(uart_rvalid), .rdata(uart_rdata), .err(uart_err),
    .tx_valid(uart_tx_valid), .tx_data(uart_tx_data), .tx_ready(uart_tx_ready),
    .rx_valid(uart_rx_valid), .rx_data(uart_rx_data), .rx_ready(uart_rx_ready),
    .txd(uart_txd), .rxd(uart_rxd)
  );

  soc_timer u_timer (
    .clk, .rst,
    .req(t_req[T_TIMER]), .we(t_we), .addr(t_addr[11:0]), .be(t_be), .wdata(t_wdata),
    .gnt(timer_gnt), .rvalid(timer_rvalid), .rdata(timer_rdata), .err(timer_err),
    .irq_timer
  );

  soc_simctrl u_simctrl (
    .clk, .rst,
    .req(t_req[T_SIMCTRL]), .we(t_we), .addr(t_addr[11:0]), .be(t_be), .wdata(t_wdata),
    .gnt(simctrl_gnt), .rvalid(simctrl_rvalid), .rdata(simctrl_rdata),
    .err(simctrl_err),
    .exit_valid, .exit_code
  );

  soc_wdog u_wdog (
    .clk, .rst(rst_por),
    .req(t_req[T_WDOG]), .we(t_we), .addr(t_addr[11:0]), .be(t_be), .wdata(t_wdata),
    .gnt(wdog_gnt), .rvalid(wdog_rvalid), .rdata(wdog_rdata), .err(wdog_err),
    .bite(wdog_bite)
  );

  // ---- datapath registers and mgmt buffers: two windows, one port. The
  // response goes back to the window that was granted.
  logic ext_mgmt_q, ext_mgmt_d;   // the outstanding ext request is a mgmt buffer access

  always_comb begin
    m_ext_req = t_req[T_DPREGS] || t_req[T_MGMTBUF];
    m_ext_addr = t_addr;
    m_ext_we = t_we;
    m_ext_be = t_be;
    m_ext_wdata = t_wdata;
  end

  // apart from the request: m_ext_gnt may depend on m_ext_req outside
  always_comb ext_mgmt_d = (m_ext_req && m_ext_gnt) ? t_req[T_MGMTBUF] : ext_mgmt_q;

  always_ff @(posedge clk) begin
    if (rst) ext_mgmt_q <= 1'b0;
    else ext_mgmt_q <= ext_mgmt_d;
  end

  // ---- the targets' responses, in target order (index T_*)
  always_comb begin
    t_gnt = {wdog_gnt, m_ext_gnt, m_ext_gnt, simctrl_gnt, timer_gnt, uart_gnt, sysinfo_gnt, 1'b1, 1'b1};
    t_rvalid = {wdog_rvalid, m_ext_rvalid && ext_mgmt_q, m_ext_rvalid && !ext_mgmt_q, simctrl_rvalid,
                timer_rvalid, uart_rvalid, sysinfo_rvalid, dmem_rvalid_q, imem_rvalid_q};
    t_rdata = {wdog_rdata, m_ext_rdata, m_ext_rdata, simctrl_rdata, timer_rdata, uart_rdata, sysinfo_rdata,
               dmem_a_rdata, imem_b_rdata};
    t_err = {wdog_err, m_ext_err, m_ext_err, simctrl_err, timer_err, uart_err, sysinfo_err, 1'b0, 1'b0};
  end

endmodule
