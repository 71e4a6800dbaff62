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
// dma_status (worst AXI response seen), cycles (start to done) and peek: the
// first 16 bytes a check read (byte addr in bits 7:0, bytes past len zero),
// which is how the firmware reads on-board memory (a 16-byte check).
//
// The engine owns a mem_dma_rd and a mem_dma_wr; its two AXI ports are one
// read client and one write client of mem_axi_arb. A beat of the pattern is
// nine pat_word values (the 8-byte words touched by 64 bytes at any byte
// offset) shifted by addr mod 8, made in a four-stage generator pipeline
// (G1..G4): a fill beat leaves G4 for the write stream; a check's read beat
// travels through G1..G4 beside its pattern and is compared in four more
// stages (C1 mismatching bytes, C2 per-8-lane counts and first lanes, C3 pair
// sums and first lane, C4 beat count and first bad address) before the
// results take it: done comes 7 cycles later than with a one-stage compare.
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
  output logic [127:0]                       peek,
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
  logic [63:0]          seed_q, seed_d;
  logic [2:0]           sub_q, sub_d;         // addr mod 8: the pattern's byte shift
  logic [63:0]          addr_q, addr_d;
  logic [31:0]          len_q, len_d;
  logic [SW-1:0]        lkeep_q, lkeep_d;     // tkeep of the fill stream's last beat
  logic [60:0]          gword_q, gword_d;     // first pattern word of the next beat
  logic [BW-1:0]        gleft_q, gleft_d;     // fill: beats still to send
  logic                 gone_q, gone_d;       // gleft_q == 1
  logic [63:0]          caddr_q, caddr_d;     // check: address of the next stream beat
  logic                 done_q, done_d;
  logic [31:0]          errs_q, errs_d, cyc_q, cyc_d;
  logic                 fbv_q, fbv_d;
  logic [63:0]          fba_q, fba_d;
  logic [1:0]           dst_q, dst_d;
  logic                 pfirst_q, pfirst_d;   // check: the next stream beat is the first
  logic [127:0]         peek_q, peek_d;

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

  // ------------------------------------------------------------ generator
  // A beat of the pattern: 64 bytes from byte address gword*8 + addr[2:0],
  // i.e. words gword..gword+8 shifted down by addr[2:0] bytes. pat_word in
  // three registered stages (G1: seed ^ word, G2: first add and xorshift,
  // G3: second add and xorshift), the byte shift into G4. Fill: beats enter
  // G1 while the stream has beats left, G4 feeds the write stream. Check: a
  // read stream beat enters G1 with its own pattern words and travels along
  // (the read stream has no back-pressure). All stages move together (en).
  logic            en;                         // the pipeline moves
  logic            g0_v, g0_last;              // a beat enters G1
  logic [DW-1:0]   g0_data;
  logic [SW-1:0]   g0_keep;
  logic            g1_v_q, g2_v_q, g3_v_q, g4_v_q;
  logic            g1_last_q, g2_last_q, g3_last_q, g4_last_q;
  logic [DW-1:0]   g1_data_q, g2_data_q, g3_data_q, g4_data_q;
  logic [SW-1:0]   g1_keep_q, g2_keep_q, g3_keep_q, g4_keep_q;
  logic [63:0]     g1_addr_q, g2_addr_q, g3_addr_q, g4_addr_q;
  logic [9*64-1:0] g1_w_q, g1_w_d, g2_w_q, g2_w_d, g3_w_q, g3_w_d;
  logic [DW-1:0]   pat, g4_pat_q;
  // the top 8 bytes only ever shift down into the beat
  /* verilator lint_off UNUSEDSIGNAL */
  logic [9*64-1:0] pat_wide;
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    for (int i = 0; i < 9; i++) begin
      g1_w_d[64*i +: 64] = seed_q ^ {3'b0, gword_q + 61'(i)};
      g2_w_d[64*i +: 64] = mem_pkg::pat_xorshift(g1_w_q[64*i +: 64] + mem_pkg::PAT_C1);
      g3_w_d[64*i +: 64] = mem_pkg::pat_xorshift(g2_w_q[64*i +: 64] + mem_pkg::PAT_C2);
    end
    pat_wide = g3_w_q >> {sub_q, 3'b0};
    pat      = pat_wide[DW-1:0];
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      g1_v_q <= 1'b0;
      g2_v_q <= 1'b0;
      g3_v_q <= 1'b0;
      g4_v_q <= 1'b0;
    end else if (en) begin
      g1_v_q <= g0_v;
      g2_v_q <= g1_v_q;
      g3_v_q <= g2_v_q;
      g4_v_q <= g3_v_q;
    end
    if (en) begin
      g1_last_q <= g0_last;
      g2_last_q <= g1_last_q;
      g3_last_q <= g2_last_q;
      g4_last_q <= g3_last_q;
      g1_data_q <= g0_data;
      g2_data_q <= g1_data_q;
      g3_data_q <= g2_data_q;
      g4_data_q <= g3_data_q;
      g1_keep_q <= g0_keep;
      g2_keep_q <= g1_keep_q;
      g3_keep_q <= g2_keep_q;
      g4_keep_q <= g3_keep_q;
      g1_addr_q <= caddr_q;
      g2_addr_q <= g1_addr_q;
      g3_addr_q <= g2_addr_q;
      g4_addr_q <= g3_addr_q;
      g1_w_q    <= g1_w_d;
      g2_w_q    <= g2_w_d;
      g3_w_q    <= g3_w_d;
      g4_pat_q  <= pat;
    end
  end

  // ------------------------------------------------------------ compare
  // C1: mismatching bytes of a read beat; C2: their count and the first one
  // per group of 8 lanes; C3: pair sums and the first bad lane; C4: the beat's
  // count and the first bad address; C5 (the result registers): accumulate.
  logic          c1_v_q, c1_last_q, c2_v_q, c2_last_q, c3_v_q, c3_last_q, c4_v_q, c4_last_q;
  logic [SW-1:0] c1_mis_q, c1_mis_d;
  logic [63:0]   c1_addr_q, c2_addr_q, c3_addr_q;
  logic [31:0]   c2_cnt_q, c2_cnt_d;             // 8 x 4 bits: bad bytes per group of 8 lanes
  logic [7:0]    c2_any_q, c2_any_d;             // a bad byte in the group
  logic [23:0]   c2_idx_q, c2_idx_d;             // 8 x 3 bits: the group's first bad lane
  logic [19:0]   c3_cnt_q, c3_cnt_d;             // 4 x 5 bits: pair sums
  logic          c3_any_q, c3_any_d;
  logic [5:0]    c3_first_q, c3_first_d;
  logic [6:0]    c4_cnt_q, c4_cnt_d;
  logic          c4_any_q;
  logic [63:0]   c4_fba_q, c4_fba_d;

  always_comb begin
    for (int b = 0; b < SW; b++) begin
      c1_mis_d[b] = g4_keep_q[b] && (g4_data_q[8*b +: 8] != g4_pat_q[8*b +: 8]);
    end
    for (int j = 0; j < 8; j++) begin
      c2_cnt_d[4*j +: 4] = '0;
      c2_idx_d[3*j +: 3] = '0;
      for (int k = 7; k >= 0; k--) begin
        c2_cnt_d[4*j +: 4] = c2_cnt_d[4*j +: 4] + 4'(c1_mis_q[8*j + k]);
        if (c1_mis_q[8*j + k]) c2_idx_d[3*j +: 3] = 3'(k);
      end
      c2_any_d[j] = c1_mis_q[8*j +: 8] != '0;
    end
    for (int j = 0; j < 4; j++) begin
      c3_cnt_d[5*j +: 5] = 5'(c2_cnt_q[8*j +: 4]) + 5'(c2_cnt_q[8*j + 4 +: 4]);
    end
    c3_any_d   = c2_any_q != '0;
    c3_first_d = '0;
    for (int j = 7; j >= 0; j--) begin
      if (c2_any_q[j]) c3_first_d = {3'(j), c2_idx_q[3*j +: 3]};
    end
    c4_cnt_d = 7'(c3_cnt_q[4:0]) + 7'(c3_cnt_q[9:5]) + 7'(c3_cnt_q[14:10]) + 7'(c3_cnt_q[19:15]);
    c4_fba_d = c3_addr_q + 64'(c3_first_q);
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      c1_v_q <= 1'b0;
      c2_v_q <= 1'b0;
      c3_v_q <= 1'b0;
      c4_v_q <= 1'b0;
    end else begin
      c1_v_q <= g4_v_q && en && mode_q == mem_pkg::PAT_CHECK;
      c2_v_q <= c1_v_q;
      c3_v_q <= c2_v_q;
      c4_v_q <= c3_v_q;
    end
    c1_last_q  <= g4_last_q;
    c2_last_q  <= c1_last_q;
    c3_last_q  <= c2_last_q;
    c4_last_q  <= c3_last_q;
    c1_mis_q   <= c1_mis_d;
    c1_addr_q  <= g4_addr_q;
    c2_addr_q  <= c1_addr_q;
    c3_addr_q  <= c2_addr_q;
    c2_cnt_q   <= c2_cnt_d;
    c2_any_q   <= c2_any_d;
    c2_idx_q   <= c2_idx_d;
    c3_cnt_q   <= c3_cnt_d;
    c3_any_q   <= c3_any_d;
    c3_first_q <= c3_first_d;
    c4_cnt_q   <= c4_cnt_d;
    c4_any_q   <= c3_any_q;
    c4_fba_q   <= c4_fba_d;
  end

  // ------------------------------------------------------------ control
  always_comb begin
    rd_cmd.addr = addr_q;
    rd_cmd.len  = len_q;
    rd_cmd.tag  = '0;
    wr_cmd.addr = addr_q;
    wr_cmd.len  = len_q;
    wr_cmd.tag  = '0;
    rd_cmd_valid = st_q == ST_CMD && mode_q == mem_pkg::PAT_CHECK;
    wr_cmd_valid = st_q == ST_CMD && mode_q == mem_pkg::PAT_FILL;

    // fill stream: G4's beat; a check never waits
    ws_valid = g4_v_q && mode_q == mem_pkg::PAT_FILL;
    ws_data  = g4_pat_q;
    ws_last  = g4_last_q;
    ws_keep  = g4_keep_q;
    en       = !g4_v_q || mode_q == mem_pkg::PAT_CHECK || ws_ready;

    // what enters G1: the next fill beat, or the read stream's beat
    if (mode_q == mem_pkg::PAT_FILL) begin
      g0_v    = st_q != ST_IDLE && gleft_q != '0;
      g0_last = gone_q;
      g0_data = '0;
      g0_keep = gone_q ? lkeep_q : {SW{1'b1}};
    end else begin
      g0_v    = rs_valid;
      g0_last = rs_last;
      g0_data = rs_data;
      g0_keep = rs_keep;
    end
  end

  // The generator's and the checker's counters; a start loads them.
  always_comb begin
    lkeep_d = lkeep_q;
    gword_d = gword_q;
    gleft_d = gleft_q;
    gone_d  = gone_q;
    caddr_d = caddr_q;
    errs_d  = errs_q;
    cyc_d   = cyc_q;
    fbv_d   = fbv_q;
    fba_d   = fba_q;
    pfirst_d = pfirst_q;
    peek_d   = peek_q;

    if (st_q != ST_IDLE) cyc_d = cyc_q + 32'd1;

    // peek: the first read beat's first 16 bytes, the lanes past len zero
    if (rs_valid && pfirst_q) begin
      pfirst_d = 1'b0;
      for (int b = 0; b < 16; b++) peek_d[8*b +: 8] = rs_keep[b] ? rs_data[8*b +: 8] : 8'd0;
    end

    if (g0_v && en) begin
      gword_d = gword_q + 61'd8;
      if (mode_q == mem_pkg::PAT_FILL) begin
        gleft_d = gleft_q - BW'(1);
        gone_d  = gleft_q == BW'(2);
      end else begin
        caddr_d = caddr_q + 64'd64;
      end
    end

    // C5: count, and the first bad byte
    if (c4_v_q) begin
      errs_d = errs_q + 32'(c4_cnt_q);
      if (!fbv_q && c4_any_q) begin
        fbv_d = 1'b1;
        fba_d = c4_fba_q;
      end
    end

    if (st_q == ST_IDLE && start) begin
      gword_d = addr[63:3];
      // beats of the fill stream: ceil(len / 64), one null beat for len 0
      gleft_d = (len == '0) ? BW'(1) : BW'(({1'b0, len} + 33'd63) >> 6);
      gone_d  = len <= 32'd64;
      lkeep_d = (len[5:0] == 6'd0) ? {SW{1'b1}} : ~({SW{1'b1}} << len[5:0]);
      if (len == '0) lkeep_d = '0;
      caddr_d = addr;
      errs_d  = '0;
      cyc_d   = '0;
      fbv_d   = 1'b0;
      fba_d   = '0;
      pfirst_d = 1'b1;
      peek_d   = '0;
    end
  end

  // The run: command, data, completion (fill) or the last beat counted (check).
  always_comb begin
    st_d    = st_q;
    mode_d  = mode_q;
    seed_d  = seed_q;
    sub_d   = sub_q;
    addr_d  = addr_q;
    len_d   = len_q;
    done_d  = done_q;
    dst_d   = dst_q;

    if (g0_v && en && mode_q != mem_pkg::PAT_FILL && rs_last) begin
      dst_d = mem_pkg::status_merge(dst_q, rs_user.status);
    end

    unique case (st_q)
      ST_IDLE: begin
        if (start) begin
          st_d    = ST_CMD;
          mode_d  = mode;
          addr_d  = addr;
          len_d   = len;
          seed_d  = seed;
          sub_d   = addr[2:0];
          done_d  = 1'b0;
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
        // the tlast beat reaches the counters at this edge
        if (c4_v_q && c4_last_q) begin
          st_d   = ST_IDLE;
          done_d = 1'b1;
        end
      end
      default: st_d = ST_IDLE;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q    <= ST_IDLE;
      done_q  <= 1'b0;
      gleft_q <= '0;
    end else begin
      st_q    <= st_d;
      done_q  <= done_d;
      gleft_q <= gleft_d;
    end
    mode_q  <= mode_d;
    seed_q  <= seed_d;
    sub_q   <= sub_d;
    addr_q  <= addr_d;
    len_q   <= len_d;
    lkeep_q <= lkeep_d;
    gword_q <= gword_d;
    gone_q  <= gone_d;
    caddr_q <= caddr_d;
    errs_q  <= errs_d;
    cyc_q   <= cyc_d;
    fbv_q   <= fbv_d;
    fba_q   <= fba_d;
    dst_q   <= dst_d;
    pfirst_q <= pfirst_d;
    peek_q   <= peek_d;
  end

  assign busy            = st_q != ST_IDLE;
  assign done            = done_q;
  assign err_count       = errs_q;
  assign first_bad_valid = fbv_q;
  assign first_bad_addr  = fba_q;
  assign dma_status      = dst_q;
  assign cycles          = cyc_q;
  assign peek            = peek_q;

  logic [mem_pkg::TAG_W-1:0] unused_tags;
  assign unused_tags    = rs_user.tag ^ cpl.tag;
endmodule
