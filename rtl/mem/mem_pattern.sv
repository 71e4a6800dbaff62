// mem_pattern: seeded fill and check of a memory range at line rate, for
// tests and the console.
//
// Fill writes the pattern bytes pat(seed, a) for a in [addr, addr+len);
// check reads the range back and counts the bytes that differ from the
// pattern, and records the address of the first one. pat(S, A) is byte A mod 8
// of mem_pkg::pat_word(S, A / 8) (C++: rtl/mem/mem_pattern_ref.h), a pure
// function of (seed, address): any sub-range of a fill can be checked alone.
//
// Control, shaped for firmware registers: `start` (a pulse, taken while not
// busy) latches mode/addr/len/seed and clears the results; `busy` until the
// operation is over, then `done` (held until the next start). Results:
// err_count (mismatching bytes; check only), first_bad_valid/first_bad_addr,
// dma_status (worst AXI response seen) and cycles (start to done).
//
// The engine owns a mem_dma_rd and a mem_dma_wr; its two AXI ports are one
// read client and one write client of mem_axi_arb. A beat of the pattern is
// nine pat_word values (the 8-byte words touched by 64 bytes at any byte
// offset) shifted by addr mod 8, made in the cycle it is used.
`default_nettype none

module mem_pattern #(
  parameter int unsigned RD_BUF_BEATS = 256,
  parameter int unsigned WR_BUF_BEATS = 128
) (
  input  wire logic                          clk,
  input  wire logic                          rst,
  // control and status
  input  wire logic                          start,
  input  wire mem_pkg::pat_mode_e            mode,
  input  wire logic [63:0]                   addr,
  input  wire logic [31:0]                   len,
  input  wire logic [63:0]                   seed,
  output logic                               busy,
  output logic                               done,
  output logic [31:0]                        err_count,
  output logic                               first_bad_valid,
  output logic [63:0]                        first_bad_addr,
  output logic [1:0]                         dma_status,   // mem_pkg::DMA_*
  output logic [31:0]                        cycles,
  // AXI4 read client
  output logic [63:0]                        m_axi_araddr,
  output logic [7:0]                         m_axi_arlen,
  output logic                               m_axi_arvalid,
  input  wire logic                          m_axi_arready,
  input  wire logic [mem_pkg::DATA_W-1:0]    m_axi_rdata,
  input  wire logic [1:0]                    m_axi_rresp,
  input  wire logic                          m_axi_rlast,
  input  wire logic                          m_axi_rvalid,
  output logic                               m_axi_rready,
  // AXI4 write client
  output logic [63:0]                        m_axi_awaddr,
  output logic [7:0]                         m_axi_awlen,
  output logic                               m_axi_awvalid,
  input  wire logic                          m_axi_awready,
  output logic [mem_pkg::DATA_W-1:0]         m_axi_wdata,
  output logic [mem_pkg::STRB_W-1:0]         m_axi_wstrb,
  output logic                               m_axi_wlast,
  output logic                               m_axi_wvalid,
  input  wire logic                          m_axi_wready,
  input  wire logic [1:0]                    m_axi_bresp,
  input  wire logic                          m_axi_bvalid,
  output logic                               m_axi_bready
);
  localparam int unsigned DW = mem_pkg::DATA_W;
  localparam int unsigned SW = mem_pkg::STRB_W;
  localparam int unsigned BW = mem_pkg::BCNT_W;

  typedef enum logic [1:0] {
    ST_IDLE,
    ST_CMD,     // handing the command to the DMA engine
    ST_RUN,     // data moving
    ST_DRAIN    // check: last beat in the compare pipeline
  } state_e;

  // ------------------------------------------------------------ registers
  state_e               st_q, st_d;
  mem_pkg::pat_mode_e   mode_q, mode_d;
  logic [63:0]          addr_q, addr_d, seed_q, seed_d;
  logic [31:0]          len_q, len_d;
  logic [60:0]          gword_q, gword_d;     // first pattern word of the next beat
  logic [BW-1:0]        gleft_q, gleft_d;     // fill: beats still to send
  logic [63:0]          caddr_q, caddr_d;     // check: address of the next stream beat
  logic                 done_q, done_d;
  logic [31:0]          errs_q, errs_d, cyc_q, cyc_d;
  logic                 fbv_q, fbv_d;
  logic [63:0]          fba_q, fba_d;
  logic [1:0]           dst_q, dst_d;
  // compare pipeline stage
  logic                 c1_v_q, c1_v_d, c1_last_q, c1_last_d;
  logic [SW-1:0]        c1_mis_q, c1_mis_d;
  logic [63:0]          c1_addr_q, c1_addr_d;

  // ------------------------------------------------------------ DMA engines
  mem_pkg::dma_rd_cmd_t rd_cmd;
  mem_pkg::dma_wr_cmd_t wr_cmd;
  logic                 rd_cmd_valid, rd_cmd_ready, wr_cmd_valid, wr_cmd_ready;
  logic [DW-1:0]        rs_data;
  logic [SW-1:0]        rs_keep;
  logic                 rs_valid, rs_last;
  mem_pkg::dma_cpl_t    rs_user;
  logic [DW-1:0]        ws_data;
  logic [SW-1:0]        ws_keep;
  logic                 ws_valid, ws_ready, ws_last;
  logic                 cpl_valid;
  mem_pkg::dma_cpl_t    cpl;

  mem_dma_rd #(.BUF_BEATS(RD_BUF_BEATS)) u_rd (
    .clk, .rst,
    .s_cmd_valid(rd_cmd_valid), .s_cmd_ready(rd_cmd_ready), .s_cmd(rd_cmd),
    .m_axi_araddr, .m_axi_arlen, .m_axi_arvalid, .m_axi_arready,
    .m_axi_rdata, .m_axi_rresp, .m_axi_rlast, .m_axi_rvalid, .m_axi_rready,
    .m_axis_tdata(rs_data), .m_axis_tkeep(rs_keep), .m_axis_tvalid(rs_valid),
    .m_axis_tready(1'b1), .m_axis_tlast(rs_last), .m_axis_tuser(rs_user)
  );

  mem_dma_wr #(.BUF_BEATS(WR_BUF_BEATS)) u_wr (
    .clk, .rst,
    .s_cmd_valid(wr_cmd_valid), .s_cmd_ready(wr_cmd_ready), .s_cmd(wr_cmd),
    .s_axis_tdata(ws_data), .s_axis_tkeep(ws_keep), .s_axis_tvalid(ws_valid),
    .s_axis_tready(ws_ready), .s_axis_tlast(ws_last),
    .m_axi_awaddr, .m_axi_awlen, .m_axi_awvalid, .m_axi_awready,
    .m_axi_wdata, .m_axi_wstrb, .m_axi_wlast, .m_axi_wvalid, .m_axi_wready,
    .m_axi_bresp, .m_axi_bvalid, .m_axi_bready,
    .m_cpl_valid(cpl_valid), .m_cpl_ready(1'b1), .m_cpl(cpl)
  );

  // ------------------------------------------------------------ pattern beat
  // 64 bytes from byte address gword*8 + addr[2:0]: words gword..gword+8.
  logic [9*64-1:0] words;
  logic [DW-1:0]   pat;
  // the top 8 bytes only ever shift down into the beat
  /* verilator lint_off UNUSEDSIGNAL */
  logic [9*64-1:0] pat_wide;
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    for (int i = 0; i < 9; i++) begin
      words[64*i +: 64] = mem_pkg::pat_word(seed_q, {3'b0, gword_q + 61'(i)});
    end
    pat_wide = words >> {addr_q[2:0], 3'b0};
    pat      = pat_wide[DW-1:0];
  end

  // ------------------------------------------------------------ control
  logic [SW-1:0] last_keep, c1_first_mask;
  logic [6:0]    c1_pop;
  logic [5:0]    c1_first;

  always_comb begin
    last_keep = (len_q[5:0] == 6'd0) ? {SW{1'b1}} : ~({SW{1'b1}} << len_q[5:0]);
    if (len_q == '0) last_keep = '0;

    rd_cmd.addr = addr_q;
    rd_cmd.len  = len_q;
    rd_cmd.tag  = '0;
    wr_cmd.addr = addr_q;
    wr_cmd.len  = len_q;
    wr_cmd.tag  = '0;
    rd_cmd_valid = st_q == ST_CMD && mode_q == mem_pkg::PAT_CHECK;
    wr_cmd_valid = st_q == ST_CMD && mode_q == mem_pkg::PAT_FILL;

    // fill stream: the generator runs from the command on
    ws_valid = st_q != ST_IDLE && mode_q == mem_pkg::PAT_FILL && gleft_q != '0;
    ws_data  = pat;
    ws_last  = gleft_q == BW'(1);
    ws_keep  = ws_last ? last_keep : {SW{1'b1}};

    st_d    = st_q;
    mode_d  = mode_q;
    addr_d  = addr_q;
    len_d   = len_q;
    seed_d  = seed_q;
    gword_d = gword_q;
    gleft_d = gleft_q;
    caddr_d = caddr_q;
    done_d  = done_q;
    errs_d  = errs_q;
    cyc_d   = cyc_q;
    fbv_d   = fbv_q;
    fba_d   = fba_q;
    dst_d   = dst_q;

    if (st_q != ST_IDLE) cyc_d = cyc_q + 32'd1;

    // compare stage 1: mismatching bytes of a stream beat
    c1_v_d    = 1'b0;
    c1_last_d = 1'b0;
    c1_addr_d = caddr_q;
    c1_mis_d  = '0;
    for (int b = 0; b < SW; b++) begin
      c1_mis_d[b] = rs_keep[b] && (rs_data[8*b +: 8] != pat[8*b +: 8]);
    end
    if (rs_valid) begin
      c1_v_d    = 1'b1;
      c1_last_d = rs_last;
      caddr_d   = caddr_q + 64'd64;
      gword_d   = gword_q + 61'd8;
      if (rs_last) dst_d = mem_pkg::status_merge(dst_q, rs_user.status);
    end

    // compare stage 2: count, and the first bad byte
    c1_pop   = '0;
    c1_first = '0;
    for (int b = SW - 1; b >= 0; b--) begin
      c1_pop = c1_pop + 7'(c1_mis_q[b]);
      if (c1_mis_q[b]) c1_first = 6'(b);
    end
    c1_first_mask = c1_mis_q;
    if (c1_v_q) begin
      errs_d = errs_q + 32'(c1_pop);
      if (!fbv_q && c1_first_mask != '0) begin
        fbv_d = 1'b1;
        fba_d = c1_addr_q + 64'(c1_first);
      end
    end

    if (ws_valid && ws_ready) begin
      gword_d = gword_q + 61'd8;
      gleft_d = gleft_q - BW'(1);
    end

    unique case (st_q)
      ST_IDLE: begin
        if (start) begin
          st_d    = ST_CMD;
          mode_d  = mode;
          addr_d  = addr;
          len_d   = len;
          seed_d  = seed;
          gword_d = addr[63:3];
          // beats of the fill stream: ceil(len / 64), one null beat for len 0
          gleft_d = (len == '0) ? BW'(1) : BW'(({1'b0, len} + 33'd63) >> 6);
          caddr_d = addr;
          done_d  = 1'b0;
          errs_d  = '0;
          cyc_d   = '0;
          fbv_d   = 1'b0;
          fba_d   = '0;
          dst_d   = mem_pkg::DMA_OK;
        end
      end
      ST_CMD: begin
        if ((rd_cmd_valid && rd_cmd_ready) || (wr_cmd_valid && wr_cmd_ready)) st_d = ST_RUN;
      end
      ST_RUN: begin
        if (mode_q == mem_pkg::PAT_FILL) begin
          if (cpl_valid) begin
            dst_d  = mem_pkg::status_merge(dst_q, cpl.status);
            st_d   = ST_IDLE;
            done_d = 1'b1;
          end
        end else if (rs_valid && rs_last) begin
          st_d = ST_DRAIN;
        end
      end
      ST_DRAIN: begin
        // the tlast beat is in stage 1 now and reaches the counters at this edge
        st_d   = ST_IDLE;
        done_d = 1'b1;
      end
      default: st_d = ST_IDLE;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q   <= ST_IDLE;
      done_q <= 1'b0;
      c1_v_q <= 1'b0;
      gleft_q <= '0;
    end else begin
      st_q   <= st_d;
      done_q <= done_d;
      c1_v_q <= c1_v_d;
      gleft_q <= gleft_d;
    end
    mode_q    <= mode_d;
    addr_q    <= addr_d;
    len_q     <= len_d;
    seed_q    <= seed_d;
    gword_q   <= gword_d;
    caddr_q   <= caddr_d;
    errs_q    <= errs_d;
    cyc_q     <= cyc_d;
    fbv_q     <= fbv_d;
    fba_q     <= fba_d;
    dst_q     <= dst_d;
    c1_last_q <= c1_last_d;
    c1_mis_q  <= c1_mis_d;
    c1_addr_q <= c1_addr_d;
  end

  assign busy            = st_q != ST_IDLE;
  assign done            = done_q;
  assign err_count       = errs_q;
  assign first_bad_valid = fbv_q;
  assign first_bad_addr  = fba_q;
  assign dma_status      = dst_q;
  assign cycles          = cyc_q;

  logic [mem_pkg::TAG_W-1:0] unused_tags;
  logic                      unused_c1_last;
  assign unused_tags    = rs_user.tag ^ cpl.tag;
  assign unused_c1_last = c1_last_q;
endmodule
