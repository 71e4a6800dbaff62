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
// Pipeline (all stages advance together on en):
//   s1  masked beat
//   s2  G * beat           (data matrix, 512 -> 32)
//   s3  state = A64 * state ^ g (A64: 64 zero bytes) (zero at the first beat); on the last beat
//       the state is captured with the number of bytes to rewind
//   s4  rewind by (rew & 7) bytes
//   s5  rewind by (rew & ~7) bytes: out_crc, the raw CRC state (the CRC of
//       zlib is ~out_crc). Checking a frame with its ICRC: the raw state
//       over data + ICRC equals ICRC_RESIDUE.
// A beat entering on cycle t with in_last gives out_valid on cycle t + 5
// (roce_pkg::ICRC_ENGINE_LAT cycles with en high).
`default_nettype none

module roce_icrc_engine #(
  parameter int TAG_W = 1                      // bits carried from in_tag to out_tag
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
  // zero-byte advance and rewind matrices: 8 bits derived step by step, the
  // larger powers of two by squaring
  localparam logic [32*32-1:0] A1    = roce_pkg::roce_crc_adv_mat(8);
  localparam logic [32*32-1:0] A2    = roce_pkg::roce_crc_mat_mul(A1, A1);
  localparam logic [32*32-1:0] A4    = roce_pkg::roce_crc_mat_mul(A2, A2);
  localparam logic [32*32-1:0] A8    = roce_pkg::roce_crc_mat_mul(A4, A4);
  localparam logic [32*32-1:0] A16   = roce_pkg::roce_crc_mat_mul(A8, A8);
  localparam logic [32*32-1:0] A32   = roce_pkg::roce_crc_mat_mul(A16, A16);
  localparam logic [32*32-1:0] A64   = roce_pkg::roce_crc_mat_mul(A32, A32);   // one beat
  localparam logic [32*32-1:0] RW1   = roce_pkg::roce_crc_rewind_mat(8);
  localparam logic [32*32-1:0] RW2   = roce_pkg::roce_crc_mat_mul(RW1, RW1);
  localparam logic [32*32-1:0] RW4   = roce_pkg::roce_crc_mat_mul(RW2, RW2);
  localparam logic [32*32-1:0] RW8   = roce_pkg::roce_crc_mat_mul(RW4, RW4);
  localparam logic [32*32-1:0] RW16  = roce_pkg::roce_crc_mat_mul(RW8, RW8);
  localparam logic [32*32-1:0] RW32  = roce_pkg::roce_crc_mat_mul(RW16, RW16);
  localparam logic [32*32-1:0] RW64  = roce_pkg::roce_crc_mat_mul(RW32, RW32);

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

  // ----------------------------------------------------------------- stage 1
  logic             s1_v_q, s1_v_d, s1_first_q, s1_first_d, s1_last_q, s1_last_d;
  logic [DW-1:0]    s1_data_q, s1_data_d;
  logic [6:0]       s1_nb_q, s1_nb_d;
  logic [TAG_W-1:0] s1_tag_q, s1_tag_d;

  always_comb begin
    s1_v_d     = s1_v_q;
    s1_data_d  = s1_data_q;
    s1_first_d = s1_first_q;
    s1_last_d  = s1_last_q;
    s1_nb_d    = s1_nb_q;
    s1_tag_d   = s1_tag_q;
    if (en) begin
      s1_v_d     = in_valid;
      s1_data_d  = in_first ? ((in_data & ~FIRST_ZERO) | FIRST_ONES) : in_data;
      s1_data_d  = s1_data_d & roce_pkg::roce_bytes_first(in_nbytes);
      s1_first_d = in_first;
      s1_last_d  = in_last;
      s1_nb_d    = in_nbytes;
      s1_tag_d   = in_tag;
    end
  end

  // ----------------------------------------------------------------- stage 2
  logic             s2_v_q, s2_v_d, s2_first_q, s2_first_d, s2_last_q, s2_last_d;
  logic [31:0]      s2_g_q, s2_g_d;
  logic [6:0]       s2_nb_q, s2_nb_d;
  logic [TAG_W-1:0] s2_tag_q, s2_tag_d;

  always_comb begin
    s2_v_d     = s2_v_q;
    s2_g_d     = s2_g_q;
    s2_first_d = s2_first_q;
    s2_last_d  = s2_last_q;
    s2_nb_d    = s2_nb_q;
    s2_tag_d   = s2_tag_q;
    if (en) begin
      s2_v_d     = s1_v_q;
      for (int j = 0; j < 32; j++) s2_g_d[j] = ^(DMAT[DW*j +: DW] & s1_data_q);
      s2_first_d = s1_first_q;
      s2_last_d  = s1_last_q;
      s2_nb_d    = s1_nb_q;
      s2_tag_d   = s1_tag_q;
    end
  end

  // ----------------------------------------------------------------- stage 3
  logic [31:0]      state_q, state_d, state_next;
  logic             s3_v_q, s3_v_d;
  logic [31:0]      s3_crc_q, s3_crc_d;
  logic [6:0]       s3_rew_q, s3_rew_d;
  logic [TAG_W-1:0] s3_tag_q, s3_tag_d;

  always_comb begin
    state_next = (s2_first_q ? 32'd0 : roce_pkg::roce_crc_apply32(A64, state_q)) ^ s2_g_q;
    state_d    = state_q;
    s3_v_d     = s3_v_q;
    s3_crc_d   = s3_crc_q;
    s3_rew_d   = s3_rew_q;
    s3_tag_d   = s3_tag_q;
    if (en) begin
      if (s2_v_q) state_d = state_next;
      s3_v_d   = s2_v_q && s2_last_q;
      s3_crc_d = state_next;
      s3_rew_d = 7'd64 - s2_nb_q;
      s3_tag_d = s2_tag_q;
    end
  end

  // ------------------------------------------------------------ stages 4, 5
  logic             s4_v_q, s4_v_d, s5_v_q, s5_v_d;
  logic [31:0]      s4_crc_q, s4_crc_d, s5_crc_q, s5_crc_d;
  logic [6:0]       s4_rew_q, s4_rew_d;
  logic [TAG_W-1:0] s4_tag_q, s4_tag_d, s5_tag_q, s5_tag_d;
  logic [31:0]      r4, r5;

  always_comb begin
    r4 = s3_crc_q;
    if (s3_rew_q[0]) r4 = roce_pkg::roce_crc_apply32(RW1, r4);
    if (s3_rew_q[1]) r4 = roce_pkg::roce_crc_apply32(RW2, r4);
    if (s3_rew_q[2]) r4 = roce_pkg::roce_crc_apply32(RW4, r4);
    r5 = s4_crc_q;
    if (s4_rew_q[3]) r5 = roce_pkg::roce_crc_apply32(RW8, r5);
    if (s4_rew_q[4]) r5 = roce_pkg::roce_crc_apply32(RW16, r5);
    if (s4_rew_q[5]) r5 = roce_pkg::roce_crc_apply32(RW32, r5);
    if (s4_rew_q[6]) r5 = roce_pkg::roce_crc_apply32(RW64, r5);
    s4_v_d   = s4_v_q;
    s4_crc_d = s4_crc_q;
    s4_rew_d = s4_rew_q;
    s4_tag_d = s4_tag_q;
    s5_v_d   = s5_v_q;
    s5_crc_d = s5_crc_q;
    s5_tag_d = s5_tag_q;
    if (en) begin
      s4_v_d   = s3_v_q;
      s4_crc_d = r4;
      s4_rew_d = s3_rew_q;
      s4_tag_d = s3_tag_q;
      s5_v_d   = s4_v_q;
      s5_crc_d = r5;
      s5_tag_d = s4_tag_q;
    end
  end

  assign out_valid = s5_v_q;
  assign out_crc   = s5_crc_q;
  assign out_tag   = s5_tag_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      s1_v_q  <= 1'b0;
      s2_v_q  <= 1'b0;
      s3_v_q  <= 1'b0;
      s4_v_q  <= 1'b0;
      s5_v_q  <= 1'b0;
      state_q <= '0;
    end else begin
      s1_v_q  <= s1_v_d;
      s2_v_q  <= s2_v_d;
      s3_v_q  <= s3_v_d;
      s4_v_q  <= s4_v_d;
      s5_v_q  <= s5_v_d;
      state_q <= state_d;
    end
    s1_data_q  <= s1_data_d;
    s1_first_q <= s1_first_d;
    s1_last_q  <= s1_last_d;
    s1_nb_q    <= s1_nb_d;
    s1_tag_q   <= s1_tag_d;
    s2_g_q     <= s2_g_d;
    s2_first_q <= s2_first_d;
    s2_last_q  <= s2_last_d;
    s2_nb_q    <= s2_nb_d;
    s2_tag_q   <= s2_tag_d;
    s3_crc_q   <= s3_crc_d;
    s3_rew_q   <= s3_rew_d;
    s3_tag_q   <= s3_tag_d;
    s4_crc_q   <= s4_crc_d;
    s4_rew_q   <= s4_rew_d;
    s4_tag_q   <= s4_tag_d;
    s5_crc_q   <= s5_crc_d;
    s5_tag_q   <= s5_tag_d;
  end

endmodule
