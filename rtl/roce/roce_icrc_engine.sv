// roce_icrc_engine: the RoCEv2 invariant CRC of a frame, one 512-bit beat
// per cycle.
//
// The ICRC (IBTA annex A17) is the Ethernet CRC-32 over 8 bytes of 0xFF, the
// IPv4 header with TOS, TTL and header checksum set to ones, the UDP header
// with its checksum set to ones, the BTH with byte 4 (FECN, BECN, resv6) set
// to ones, and the rest of the packet up to the ICRC. The frame arrives whole
// (Ethernet header in bytes 0..13). On the first beat the engine replaces the
// Ethernet header: the CRC starts at all ones, which equals starting at zero
// with the first 32 input bits inverted, so bytes 6..9 (the first four 0xFF,
// inverted) and 0..5 become zeros and bytes 10..13 become 0xFF, and the state
// before the beat is zero. Bytes at and above in_nbytes are zeroed; a beat
// with fewer than 64 bytes is therefore computed as a full beat followed by
// (64 - in_nbytes) zero bytes, which the result stage undoes by rewinding the
// CRC by that many zero bytes (the CRC step is invertible).
//
// Pipeline (all stages advance together on en; each stage from registers,
// make timing: at most 6 LUT levels, the deepest the state loop of s3):
//   s0  the inputs, registered as they are (IN_REG = 1; with IN_REG = 0 the
//       user's registers are s0 and the engine is a cycle shorter)
//   s1  masked beat (first-beat bytes, bytes at and above in_nbytes zeroed);
//       rew = 64 - in_nbytes, the bytes to rewind
//   s2  four partial products G_q * beat[128q +: 128] (the data matrix G,
//       512 -> 32, split by quarters of the beat); rew decoded one-hot
//   s3  state = A64 * state ^ p0 ^ p1 ^ p2 ^ p3 (A64: 64 zero bytes; the
//       state term is zero at the first beat); the new state is also captured
//       as the result of a last beat, with the rewind matrix RW^rew (RW: one
//       zero byte backwards, a constant table indexed by rew) beside it
//   s4  out_crc = RW^rew * state: the raw CRC state (the CRC of zlib is
//       ~out_crc). Checking a frame with its ICRC: the raw state over
//       data + ICRC equals ICRC_RESIDUE.
// A beat entering on cycle t with in_last gives out_valid on cycle t + 5
// (roce_pkg::ICRC_ENGINE_LAT cycles with en high), t + 4 with IN_REG = 0.
`default_nettype none

module roce_icrc_engine #(
  parameter int TAG_W  = 1,                    // bits carried from in_tag to out_tag
  // 1: s0 registers the inputs; 0: the inputs come from registers of the
  // user (a few LUT levels at most) and s1 takes them directly, a cycle less
  parameter bit IN_REG = 1'b1
) (
  input  wire logic                       clk,
  input  wire logic                       rst,
  input  wire logic                       en,         // advance the pipeline
  input  wire logic                       in_valid,
  input  wire logic [roce_pkg::DATA_W-1:0] in_data,
  input  wire logic                       in_first,   // first beat of a frame
  input  wire logic [6:0]                 in_nbytes,  // bytes of the beat covered (from byte 0)
  input  wire logic                       in_last,    // last covered beat: a result follows
  input  wire logic [TAG_W-1:0]           in_tag,
  output logic                            out_valid,
  output logic [31:0]                     out_crc,    // raw CRC state after the frame
  output logic [TAG_W-1:0]                out_tag
);
  localparam int DW = roce_pkg::DATA_W;

  localparam logic [32*DW-1:0] DMAT  = roce_pkg::roce_crc_data_mat();
  // zero-byte advance: 8 bits derived step by step, the larger powers of two
  // by squaring
  localparam logic [32*32-1:0] A1    = roce_pkg::roce_crc_adv_mat(8);
  localparam logic [32*32-1:0] A2    = roce_pkg::roce_crc_mat_mul(A1, A1);
  localparam logic [32*32-1:0] A4    = roce_pkg::roce_crc_mat_mul(A2, A2);
  localparam logic [32*32-1:0] A8    = roce_pkg::roce_crc_mat_mul(A4, A4);
  localparam logic [32*32-1:0] A16   = roce_pkg::roce_crc_mat_mul(A8, A8);
  localparam logic [32*32-1:0] A32   = roce_pkg::roce_crc_mat_mul(A16, A16);
  localparam logic [32*32-1:0] A64   = roce_pkg::roce_crc_mat_mul(A32, A32);   // one beat

  // Rewind table: matrix k (bits [1024*k +: 1024]) rewinds the state by k
  // zero bytes, k = 0..64 (RW1 applied k times).
  function automatic logic [65*1024-1:0] rewind_table();
    logic [65*1024-1:0] t;
    logic [32*32-1:0]   rw1, m;
    rw1 = roce_pkg::roce_crc_rewind_mat(8);
    for (int j = 0; j < 32; j++) m[32*j +: 32] = 32'd1 << j;
    for (int k = 0; k <= 64; k++) begin
      t[1024*k +: 1024] = m;
      m = roce_pkg::roce_crc_mat_mul(rw1, m);
    end
    rewind_table = t;
  endfunction
  localparam logic [65*1024-1:0] RWT = rewind_table();

  // Byte masks of the first beat: bytes forced to zero, bytes forced to ones.
  // Frame offsets: IPv4 TOS 15, TTL 22, checksum 24-25; UDP checksum 40-41;
  // BTH byte 4 at 46.
  function automatic logic [DW-1:0] first_zero_mask();
    logic [DW-1:0] m;
    m = '0;
    for (int i = 0; i < 10; i++) m[8*i +: 8] = 8'hFF;
    first_zero_mask = m;
  endfunction
  function automatic logic [DW-1:0] first_ones_mask();
    logic [DW-1:0] m;
    m = '0;
    for (int i = 10; i < 14; i++) m[8*i +: 8] = 8'hFF;
    m[8*15 +: 8] = 8'hFF;
    m[8*22 +: 8] = 8'hFF;
    m[8*24 +: 16] = 16'hFFFF;
    m[8*40 +: 16] = 16'hFFFF;
    m[8*46 +: 8] = 8'hFF;
    first_ones_mask = m;
  endfunction
  localparam logic [DW-1:0] FIRST_ZERO = first_zero_mask();
  localparam logic [DW-1:0] FIRST_ONES = first_ones_mask();

  // ----------------------------------------------------------------- stage 0
  logic             s0_v_q, s0_v_d, s0_first_q, s0_first_d, s0_last_q, s0_last_d;
  logic [DW-1:0]    s0_data_q, s0_data_d;
  logic [6:0]       s0_nb_q, s0_nb_d;
  logic [TAG_W-1:0] s0_tag_q, s0_tag_d;

  always_comb begin
    s0_v_d     = s0_v_q;
    s0_data_d  = s0_data_q;
    s0_first_d = s0_first_q;
    s0_last_d  = s0_last_q;
    s0_nb_d    = s0_nb_q;
    s0_tag_d   = s0_tag_q;
    if (en) begin
      s0_v_d     = in_valid;
      s0_data_d  = in_data;
      s0_first_d = in_first;
      s0_last_d  = in_last;
      s0_nb_d    = in_nbytes;
      s0_tag_d   = in_tag;
    end
  end

  // without IN_REG the stage is the user's registers: s1 takes the inputs
  logic             s0_v, s0_first, s0_last;
  logic [DW-1:0]    s0_data;
  logic [6:0]       s0_nb;
  logic [TAG_W-1:0] s0_tag;
  always_comb begin
    s0_v     = IN_REG ? s0_v_q     : in_valid;
    s0_data  = IN_REG ? s0_data_q  : in_data;
    s0_first = IN_REG ? s0_first_q : in_first;
    s0_last  = IN_REG ? s0_last_q  : in_last;
    s0_nb    = IN_REG ? s0_nb_q    : in_nbytes;
    s0_tag   = IN_REG ? s0_tag_q   : in_tag;
  end

  // ----------------------------------------------------------------- stage 1
  logic             s1_v_q, s1_v_d, s1_first_q, s1_first_d, s1_last_q, s1_last_d;
  logic [DW-1:0]    s1_data_q, s1_data_d;
  logic [6:0]       s1_rew_q, s1_rew_d;
  logic [TAG_W-1:0] s1_tag_q, s1_tag_d;

  always_comb begin
    s1_v_d     = s1_v_q;
    s1_data_d  = s1_data_q;
    s1_first_d = s1_first_q;
    s1_last_d  = s1_last_q;
    s1_rew_d   = s1_rew_q;
    s1_tag_d   = s1_tag_q;
    if (en) begin
      s1_v_d     = s0_v;
      s1_data_d  = s0_first ? ((s0_data & ~FIRST_ZERO) | FIRST_ONES) : s0_data;
      s1_data_d  = s1_data_d & roce_pkg::roce_bytes_first(s0_nb);
      s1_first_d = s0_first;
      s1_last_d  = s0_last;
      s1_rew_d   = 7'd64 - s0_nb;
      s1_tag_d   = s0_tag;
    end
  end

  // ----------------------------------------------------------------- stage 2
  logic             s2_v_q, s2_v_d, s2_first_q, s2_first_d, s2_last_q, s2_last_d;
  logic [4*32-1:0]  s2_p_q, s2_p_d;             // quarter q in [32*q +: 32]
  logic [64:0]      s2_hit_q, s2_hit_d;         // one-hot: s2_hit[k] = (rew == k)
  logic [TAG_W-1:0] s2_tag_q, s2_tag_d;

  always_comb begin
    s2_v_d     = s2_v_q;
    s2_p_d     = s2_p_q;
    s2_first_d = s2_first_q;
    s2_last_d  = s2_last_q;
    s2_hit_d   = s2_hit_q;
    s2_tag_d   = s2_tag_q;
    if (en) begin
      s2_v_d     = s1_v_q;
      for (int q = 0; q < 4; q++) begin
        for (int j = 0; j < 32; j++) begin
          s2_p_d[32*q + j] = ^(DMAT[DW*j + (DW/4)*q +: DW/4] & s1_data_q[(DW/4)*q +: DW/4]);
        end
      end
      s2_first_d = s1_first_q;
      s2_last_d  = s1_last_q;
      for (int k = 0; k <= 64; k++) s2_hit_d[k] = s1_rew_q == 7'(k);
      s2_tag_d   = s1_tag_q;
    end
  end

  // ----------------------------------------------------------------- stage 3
  logic [31:0]      state_q, state_d, state_next;
  logic             s3_v_q, s3_v_d;
  logic [31:0]      s3_crc_q, s3_crc_d;
  logic [32*32-1:0] s3_rw_q, s3_rw_d;
  logic [TAG_W-1:0] s3_tag_q, s3_tag_d;

  always_comb begin
    state_next = (s2_first_q ? 32'd0 : roce_pkg::roce_crc_apply32(A64, state_q))
               ^ s2_p_q[0 +: 32] ^ s2_p_q[32 +: 32] ^ s2_p_q[64 +: 32] ^ s2_p_q[96 +: 32];
    state_d    = state_q;
    s3_v_d     = s3_v_q;
    s3_crc_d   = s3_crc_q;
    s3_rw_d    = s3_rw_q;
    s3_tag_d   = s3_tag_q;
    if (en) begin
      if (s2_v_q) state_d = state_next;
      s3_v_d   = s2_v_q && s2_last_q;
      s3_crc_d = state_next;
      s3_rw_d  = '0;
      for (int k = 0; k <= 64; k++) begin
        if (s2_hit_q[k]) s3_rw_d = s3_rw_d | RWT[1024*k +: 1024];
      end
      s3_tag_d = s2_tag_q;
    end
  end

  // ----------------------------------------------------------------- stage 4
  logic             s4_v_q, s4_v_d;
  logic [31:0]      s4_crc_q, s4_crc_d;
  logic [TAG_W-1:0] s4_tag_q, s4_tag_d;

  always_comb begin
    s4_v_d   = s4_v_q;
    s4_crc_d = s4_crc_q;
    s4_tag_d = s4_tag_q;
    if (en) begin
      s4_v_d   = s3_v_q;
      s4_crc_d = roce_pkg::roce_crc_apply32(s3_rw_q, s3_crc_q);
      s4_tag_d = s3_tag_q;
    end
  end

  assign out_valid = s4_v_q;
  assign out_crc   = s4_crc_q;
  assign out_tag   = s4_tag_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      s0_v_q  <= 1'b0;
      s1_v_q  <= 1'b0;
      s2_v_q  <= 1'b0;
      s3_v_q  <= 1'b0;
      s4_v_q  <= 1'b0;
      state_q <= '0;
    end else begin
      s0_v_q  <= s0_v_d;
      s1_v_q  <= s1_v_d;
      s2_v_q  <= s2_v_d;
      s3_v_q  <= s3_v_d;
      s4_v_q  <= s4_v_d;
      state_q <= state_d;
    end
    s0_data_q  <= s0_data_d;
    s0_first_q <= s0_first_d;
    s0_last_q  <= s0_last_d;
    s0_nb_q    <= s0_nb_d;
    s0_tag_q   <= s0_tag_d;
    s1_data_q  <= s1_data_d;
    s1_first_q <= s1_first_d;
    s1_last_q  <= s1_last_d;
    s1_rew_q   <= s1_rew_d;
    s1_tag_q   <= s1_tag_d;
    s2_p_q     <= s2_p_d;
    s2_first_q <= s2_first_d;
    s2_last_q  <= s2_last_d;
    s2_hit_q   <= s2_hit_d;
    s2_tag_q   <= s2_tag_d;
    s3_crc_q   <= s3_crc_d;
    s3_rw_q    <= s3_rw_d;
    s3_tag_q   <= s3_tag_d;
    s4_crc_q   <= s4_crc_d;
    s4_tag_q   <= s4_tag_d;
  end

endmodule
