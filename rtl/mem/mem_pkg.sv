// mem_pkg: types and constants of the memory subsystem (rtl/mem): DMA command
// and completion structs, the AXI4 constants every master here uses, and the
// seeded test pattern (mem_pattern, and its C++ twin rtl/mem/mem_pattern_ref.h).
// See rtl/mem/README.md for the interfaces.
`default_nettype none

// Constants here are offered to every user of the package; a build that uses
// only some of them must not warn about the rest.
/* verilator lint_off UNUSEDPARAM */
package mem_pkg;

  // ---------------------------------------------------------------- constants
  localparam int unsigned DATA_W     = 512;          // AXI and stream data, bits
  localparam int unsigned STRB_W     = DATA_W / 8;   // bytes per beat (64)
  localparam int unsigned ADDR_W     = 64;           // byte addresses
  localparam int unsigned LEN_W      = 32;           // command length, bytes
  localparam int unsigned TAG_W      = 8;            // command tag, echoed in the completion
  localparam int unsigned BEAT_SHIFT = 6;            // log2(STRB_W)
  localparam int unsigned PAGE_SHIFT = 12;           // AXI4: a burst never crosses 4 KiB
  localparam int unsigned MAX_BURST  = 64;           // beats per burst (= 4 KiB / 64 B)
  // Beat counters: a 32-bit length at any offset is at most (2^32 + 126) / 64 beats.
  localparam int unsigned BCNT_W     = 27;

  localparam logic [2:0] AXI_SIZE_64B = 3'd6;        // every burst is full width
  localparam logic [1:0] AXI_BURST_INCR = 2'b01;
  localparam logic [1:0] AXI_RESP_OKAY   = 2'b00;
  localparam logic [1:0] AXI_RESP_SLVERR = 2'b10;
  localparam logic [1:0] AXI_RESP_DECERR = 2'b11;

  // ------------------------------------------------------------ DMA commands
  // A command moves len bytes starting at byte address addr (any alignment).
  // len = 0 is allowed: no memory access; the stream carries one null beat
  // (tkeep all zero, tlast) so that every command is exactly one packet.
  typedef struct packed {
    logic [ADDR_W-1:0] addr;
    logic [LEN_W-1:0]  len;
    logic [TAG_W-1:0]  tag;
  } dma_rd_cmd_t;

  typedef struct packed {
    logic [ADDR_W-1:0] addr;
    logic [LEN_W-1:0]  len;
    logic [TAG_W-1:0]  tag;
  } dma_wr_cmd_t;

  // $bits of the command structs (Yosys 0.23 has no $bits of a type; a wrong
  // value is a width error where the struct is connected)
  localparam int unsigned DMA_CMD_W = ADDR_W + LEN_W + TAG_W;

  // Completion status: the AXI response code it comes from. The worst
  // response of all bursts of a command wins (DECERR over SLVERR over OK).
  // (Plain logic [1:0] rather than an enum: Yosys 0.23 takes neither a cast to
  // a package type nor an enum-typed function result, Verilator wants one.)
  localparam logic [1:0] DMA_OK     = 2'b00;
  localparam logic [1:0] DMA_SLVERR = 2'b10;
  localparam logic [1:0] DMA_DECERR = 2'b11;

  // Write completion (m_cpl of mem_dma_wr), and the tuser of the read stream
  // of mem_dma_rd (status so far on every beat, final on the tlast beat).
  typedef struct packed {
    logic [TAG_W-1:0] tag;
    logic [1:0]       status;   // DMA_OK, DMA_SLVERR or DMA_DECERR
  } dma_cpl_t;

  localparam int unsigned CPL_W = TAG_W + 2;

  // Merge an AXI response into an accumulated status: OKAY and EXOKAY are
  // fine, SLVERR and DECERR are errors, DECERR is the worse.
  // (Yosys 0.23 takes no `return`: results are assigned to the function name.)
  function automatic logic [1:0] status_merge(logic [1:0] acc, logic [1:0] resp);
    status_merge = acc;
    if (resp == AXI_RESP_DECERR) begin
      status_merge = DMA_DECERR;
    end else if (resp == AXI_RESP_SLVERR && acc == DMA_OK) begin
      status_merge = DMA_SLVERR;
    end
  endfunction

  // ------------------------------------------------------------ test pattern
  // The pattern byte at byte address A for a seed S is byte (A mod 8) (little
  // endian) of pat_word(S, A / 8): a pure function of (S, A), so any sub-range
  // can be generated or checked on its own. pat_word is a bijective mix of
  // S ^ (A / 8) built from additions and xorshifts only (no multipliers).
  localparam logic [63:0] PAT_C1 = 64'h9E37_79B9_7F4A_7C15;
  localparam logic [63:0] PAT_C2 = 64'hD1B5_4A32_D192_ED03;

  function automatic logic [63:0] pat_xorshift(logic [63:0] v);
    logic [63:0] x;
    x = v;
    x = x ^ {x[50:0], 13'b0};
    x = x ^ {7'b0, x[63:7]};
    x = x ^ {x[46:0], 17'b0};
    pat_xorshift = x;
  endfunction

  function automatic logic [63:0] pat_word(logic [63:0] seed, logic [63:0] word);
    pat_word = pat_xorshift(pat_xorshift((seed ^ word) + PAT_C1) + PAT_C2);
  endfunction

  typedef enum logic {
    PAT_FILL  = 1'b0,
    PAT_CHECK = 1'b1
  } pat_mode_e;

endpackage
/* verilator lint_on UNUSEDPARAM */
