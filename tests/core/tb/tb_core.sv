`default_nettype none
// tb_core: stand-alone bench of rv_core (tests/core). Not the SoC: a BRAM
// model for the instruction port, a data RAM, a sim-control device and an
// sbus model that can insert random grant and response delays.
//
// Data-port map (as docs/DEVELOPING.md, minus the SoC registers):
//   0x0000_0000 +256 KiB  instruction BRAM (second port)
//   0x1000_0000 +256 KiB  data RAM (zeroed)
//   0x2000_0000 +256 B    sim control (below)
//   anything else         err (load/store access fault)
// Sim control (word registers):
//   0x00 EXIT     write: end the run with this exit code
//   0x04 SIG      write: append a signature word (+sig=<file>)
//   0x08 PUTC     write: print a character
//   0x0C CHK_EXP, 0x10 CHK_GOT, 0x14 CHK_ID  write (id last): report a failed self-check
//   0x18 TIMER    write N>0: raise irq_timer N cycles later; 0: lower it
//   0x1C EXTIRQ   write: irq_external = bit 0
//   0x20 PERF_TAG, 0x24 PERF_CYC, 0x28 PERF_INS  write (ins last): print a PERF line
//   0x30 CYCLES   read: bench cycle counter
// Plusargs: +prog=<hex> (required), +sig=<file>, +stall=<0|1> random bus
// delays, +seed=<n>, +trace (print every retired pc).
module tb_core (
  input  wire logic        clk,
  input  wire logic        rst,
  output logic             done,
  output logic      [31:0] exit_code,
  output logic      [63:0] instret,
  output logic      [63:0] cycles,
  output logic             check_failed
);

  localparam int MEM_WORDS = 65536;

  logic [31:0] imem [0:MEM_WORDS-1];
  logic [31:0] dmem [0:MEM_WORDS-1];

  logic        imem_en;
  // The BRAM model decodes only the word index of the instruction address.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] imem_addr;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0] imem_rdata;
  logic        dbus_req, dbus_we, dbus_gnt, dbus_rvalid, dbus_err;
  logic [31:0] dbus_addr, dbus_wdata, dbus_rdata;
  logic [3:0]  dbus_be;
  logic        irq_timer, irq_external, retire;

  rv_core #(
    .BOOT_ADDR  (32'h0000_0000),
    .IMEM_BASE  (32'h0000_0000),
    .IMEM_BYTES (32'd262144)
  ) u_core (
    .clk          (clk),
    .rst          (rst),
    .imem_en      (imem_en),
    .imem_addr    (imem_addr),
    .imem_rdata   (imem_rdata),
    .dbus_req     (dbus_req),
    .dbus_addr    (dbus_addr),
    .dbus_we      (dbus_we),
    .dbus_be      (dbus_be),
    .dbus_wdata   (dbus_wdata),
    .dbus_gnt     (dbus_gnt),
    .dbus_rvalid  (dbus_rvalid),
    .dbus_rdata   (dbus_rdata),
    .dbus_err     (dbus_err),
    .irq_timer    (irq_timer),
    .irq_external (irq_external),
    .retire       (retire)
  );

  // ------------------------------------------------------------ set-up
  string  prog_path, sig_path;
  int     sig_fd;
  int     stall_en;
  int     seed;
  logic   trace_en;
  int     sig_count;

  initial begin
    for (int i = 0; i < MEM_WORDS; i++) begin
      imem[i] = 32'h0;
      dmem[i] = 32'h0;
    end
    if (!$value$plusargs("prog=%s", prog_path)) begin
      $display("tb_core: +prog=<hex file> is required");
      $fatal(1);
    end
    $readmemh(prog_path, imem);
    sig_fd = 0;
    if ($value$plusargs("sig=%s", sig_path)) begin
      sig_fd = $fopen(sig_path, "w");
      if (sig_fd == 0) begin
        $display("tb_core: cannot open %s", sig_path);
        $fatal(1);
      end
    end
    if (!$value$plusargs("stall=%d", stall_en)) stall_en = 0;
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    trace_en = $test$plusargs("trace") != 0;
  end

  final begin
    if (sig_fd != 0) $fclose(sig_fd);
  end

  // ------------------------------------------------------------ instruction BRAM port
  always_ff @(posedge clk) begin
    if (imem_en) imem_rdata <= imem[imem_addr[17:2]];
  end

  // ------------------------------------------------------------ random delays
  logic [31:0] lfsr_q;
  always_ff @(posedge clk) begin
    if (rst) lfsr_q <= 32'h1234_5678 ^ seed;
    else     lfsr_q <= {lfsr_q[30:0], lfsr_q[31] ^ lfsr_q[21] ^ lfsr_q[1] ^ lfsr_q[0]};
  end

  // ------------------------------------------------------------ data port (sbus target)
  logic        pend_q;      // a response is owed
  logic [2:0]  pend_cnt_q;  // cycles until it is given
  logic [31:0] pend_rdata_q;
  logic        pend_err_q;
  logic [31:0] timer_cnt_q;
  logic        timer_on_q;
  logic [31:0] chk_exp_q, chk_got_q, perf_tag_q, perf_cyc_q;

  always_comb begin
    dbus_gnt    = dbus_req && ((stall_en == 0) || lfsr_q[3:2] != 2'b00);
    dbus_rvalid = pend_q && (pend_cnt_q == 3'd0);
    dbus_rdata  = dbus_rvalid ? pend_rdata_q : 32'hDEAD_BEEF;
    dbus_err    = dbus_rvalid && pend_err_q;
    irq_timer   = timer_on_q && (timer_cnt_q == 32'd0);
  end

  function automatic logic [31:0] merge(input logic [31:0] old, input logic [31:0] wd,
                                        input logic [3:0] be);
    for (int i = 0; i < 4; i++) begin
      if (be[i]) old[8*i +: 8] = wd[8*i +: 8];
    end
    return old;
  endfunction

  always_ff @(posedge clk) begin
    if (rst) begin
      pend_q       <= 1'b0;
      timer_on_q   <= 1'b0;
      timer_cnt_q  <= 32'd0;
      irq_external <= 1'b0;
      done         <= 1'b0;
      exit_code    <= 32'd0;
      instret      <= 64'd0;
      cycles       <= 64'd0;
      check_failed <= 1'b0;
      sig_count    <= 0;
    end else begin
      cycles <= cycles + 64'd1;
      if (retire) begin
        instret <= instret + 64'd1;
        if (trace_en) $display("R %08x %0d", u_core.w_pc_q, cycles);
      end
      if (timer_on_q && timer_cnt_q != 32'd0) timer_cnt_q <= timer_cnt_q - 32'd1;

      if (dbus_rvalid) pend_q <= 1'b0;
      else if (pend_q) pend_cnt_q <= pend_cnt_q - 3'd1;

      if (dbus_req && dbus_gnt) begin
        logic [31:0] rd;
        logic        err;
        rd  = 32'h0;
        err = 1'b0;
        if (dbus_addr < 32'h0004_0000) begin
          if (dbus_we) imem[dbus_addr[17:2]] <= merge(imem[dbus_addr[17:2]], dbus_wdata, dbus_be);
          rd = imem[dbus_addr[17:2]];
        end else if (dbus_addr >= 32'h1000_0000 && dbus_addr < 32'h1004_0000) begin
          if (dbus_we) dmem[dbus_addr[17:2]] <= merge(dmem[dbus_addr[17:2]], dbus_wdata, dbus_be);
          rd = dmem[dbus_addr[17:2]];
        end else if (dbus_addr >= 32'h2000_0000 && dbus_addr < 32'h2000_0100) begin
          if (dbus_we) begin
            unique case (dbus_addr[7:0])
              8'h00: begin done <= 1'b1; exit_code <= dbus_wdata; end
              8'h04: begin
                if (sig_fd != 0) $fdisplay(sig_fd, "%08x", dbus_wdata);
                sig_count <= sig_count + 1;
              end
              8'h08: $write("%c", dbus_wdata[7:0]);
              8'h0C: chk_exp_q <= dbus_wdata;
              8'h10: chk_got_q <= dbus_wdata;
              8'h14: begin
                $display("CHECK FAIL id=%0d expected=%08x got=%08x", dbus_wdata, chk_exp_q, chk_got_q);
                check_failed <= 1'b1;
              end
              8'h18: begin timer_on_q <= dbus_wdata != 32'd0; timer_cnt_q <= dbus_wdata; end
              8'h1C: irq_external <= dbus_wdata[0];
              8'h20: perf_tag_q <= dbus_wdata;
              8'h24: perf_cyc_q <= dbus_wdata;
              8'h28: $display("PERF tag=%0d cycles=%0d instret=%0d", perf_tag_q, perf_cyc_q, dbus_wdata);
              default: ;
            endcase
          end else begin
            rd = (dbus_addr[7:0] == 8'h30) ? cycles[31:0] : 32'h0;
          end
        end else begin
          err = 1'b1;
        end
        pend_q       <= 1'b1;
        pend_cnt_q   <= (stall_en != 0) ? {1'b0, lfsr_q[9:8]} : 3'd0;
        pend_rdata_q <= rd;
        pend_err_q   <= err;
      end
    end
  end

endmodule
