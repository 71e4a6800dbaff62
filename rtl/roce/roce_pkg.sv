// roce_pkg: types, constants, the opcode table and the ICRC matrices of the
// RoCEv2 header layer (rtl/roce).
//
// Byte order: a packed header struct lists its fields in wire order, so its
// most significant byte is the first byte on the wire. A stream beat carries
// byte 0 of a frame in tdata[7:0] (AXI4-Stream order).
//
// Yosys 0.23 compatibility: functions here take and return plain vectors
// (no struct-typed functions, no `return`); a caller assigns the vector to
// the struct type named in the comment (e.g. opcode_info_t).
`default_nettype none

package roce_pkg;

  // The constants below are for every user of the package; no single module
  // uses all of them.
  /* verilator lint_off UNUSEDPARAM */

  // ---------------------------------------------------------------- constants
  localparam int DATA_W = 512;         // datapath width, bits
  localparam int KEEP_W = DATA_W / 8;  // bytes per beat

  localparam logic [15:0] UDP_PORT_ROCEV2 = 16'd4791;

  // Ethernet 14 + IPv4 20 (no options) + UDP 8: where the BTH starts.
  localparam int NET_HDR_BYTES = 42;

  localparam int BTH_BYTES          = 12;
  localparam int DETH_BYTES         = 8;
  localparam int RETH_BYTES         = 16;
  localparam int ATOMICETH_BYTES    = 28;
  localparam int AETH_BYTES         = 4;
  localparam int ATOMICACKETH_BYTES = 8;
  localparam int IMMDT_BYTES        = 4;
  localparam int CNP_RESV_BYTES     = 16;  // reserved bytes after a CNP's BTH
  localparam int ICRC_BYTES         = 4;
  // Longest BTH + extension headers of any opcode (BTH + AtomicETH).
  localparam int MAX_HDR_BYTES      = 40;

  // Smallest RoCEv2 frame: Eth/IP/UDP + BTH + ICRC.
  localparam int MIN_FRAME_BYTES = NET_HDR_BYTES + BTH_BYTES + ICRC_BYTES;  // 58

  // ------------------------------------------------------------------ opcodes
  // RC (transport 0b000)
  localparam logic [7:0] OP_RC_SEND_FIRST           = 8'h00;
  localparam logic [7:0] OP_RC_SEND_MIDDLE          = 8'h01;
  localparam logic [7:0] OP_RC_SEND_LAST            = 8'h02;
  localparam logic [7:0] OP_RC_SEND_LAST_IMM        = 8'h03;
  localparam logic [7:0] OP_RC_SEND_ONLY            = 8'h04;
  localparam logic [7:0] OP_RC_SEND_ONLY_IMM        = 8'h05;
  localparam logic [7:0] OP_RC_WRITE_FIRST          = 8'h06;
  localparam logic [7:0] OP_RC_WRITE_MIDDLE         = 8'h07;
  localparam logic [7:0] OP_RC_WRITE_LAST           = 8'h08;
  localparam logic [7:0] OP_RC_WRITE_LAST_IMM       = 8'h09;
  localparam logic [7:0] OP_RC_WRITE_ONLY           = 8'h0A;
  localparam logic [7:0] OP_RC_WRITE_ONLY_IMM       = 8'h0B;
  localparam logic [7:0] OP_RC_READ_REQUEST         = 8'h0C;
  localparam logic [7:0] OP_RC_READ_RESPONSE_FIRST  = 8'h0D;
  localparam logic [7:0] OP_RC_READ_RESPONSE_MIDDLE = 8'h0E;
  localparam logic [7:0] OP_RC_READ_RESPONSE_LAST   = 8'h0F;
  localparam logic [7:0] OP_RC_READ_RESPONSE_ONLY   = 8'h10;
  localparam logic [7:0] OP_RC_ACKNOWLEDGE          = 8'h11;
  localparam logic [7:0] OP_RC_ATOMIC_ACKNOWLEDGE   = 8'h12;
  localparam logic [7:0] OP_RC_COMPARE_SWAP         = 8'h13;
  localparam logic [7:0] OP_RC_FETCH_ADD            = 8'h14;
  // UD (transport 0b011)
  localparam logic [7:0] OP_UD_SEND_ONLY            = 8'h64;
  localparam logic [7:0] OP_UD_SEND_ONLY_IMM        = 8'h65;
  // RoCEv2 congestion notification packet
  localparam logic [7:0] OP_CNP                     = 8'h81;

  // What an opcode does (the transport routes on this, never on opcodes).
  typedef enum logic [3:0] {
    KIND_SEND       = 4'd0,
    KIND_WRITE      = 4'd1,
    KIND_READ_REQ   = 4'd2,
    KIND_READ_RESP  = 4'd3,
    KIND_ACK        = 4'd4,
    KIND_ATOMIC_ACK = 4'd5,
    KIND_CMP_SWAP   = 4'd6,
    KIND_FETCH_ADD  = 4'd7,
    KIND_CNP        = 4'd8
  } op_kind_e;

  // Place of a packet in its message.
  typedef enum logic [1:0] {
    POS_FIRST  = 2'd0,
    POS_MIDDLE = 2'd1,
    POS_LAST   = 2'd2,
    POS_ONLY   = 2'd3
  } op_pos_e;

  // One row of the opcode table. Extension headers follow the BTH in the
  // order of the flags below (IBTA: DETH, RETH, AtomicETH, AETH,
  // AtomicAckETH, ImmDt); off_* are their byte offsets from the start of the
  // BTH (meaningful only when the flag is set), hdr_len is BTH + all of them.
  typedef struct packed {
    logic       valid;         // a known opcode
    op_kind_e   kind;
    logic       request;       // 1: request (to the responder); 0: response (to the completer) or CNP
    op_pos_e    pos;
    logic       has_payload;   // may carry payload (and a pad count)
    logic       deth;
    logic       reth;
    logic       atomiceth;
    logic       aeth;
    logic       atomicacketh;
    logic       immdt;
    logic       cnp_resv;      // 16 reserved bytes (CNP)
    logic [5:0] off_deth;
    logic [5:0] off_reth;
    logic [5:0] off_atomiceth;
    logic [5:0] off_aeth;
    logic [5:0] off_atomicacketh;
    logic [5:0] off_immdt;
    logic [5:0] hdr_len;       // bytes: BTH + extension headers
  } opcode_info_t;
  // Width of opcode_info_t (Yosys 0.23 has no $bits of a type); a mismatch
  // is a width error in every assignment of roce_opcode_info().
  localparam int OPINFO_W = 1 + 4 + 1 + 2 + 1 + 7 + 6 * 6 + 6;  // 58

  // ------------------------------------------------------------------ headers
  typedef struct packed {
    logic [7:0]  opcode;
    logic        se;        // solicited event
    logic        mig;       // migration request
    logic [1:0]  padcnt;
    logic [3:0]  tver;      // transport header version, 0
    logic [15:0] pkey;
    logic        fecn;      // variant (masked in the ICRC)
    logic        becn;      // variant (masked in the ICRC)
    logic [5:0]  resv6;     // variant (masked in the ICRC)
    logic [23:0] dqpn;
    logic        ackreq;
    logic [6:0]  resv7;
    logic [23:0] psn;
  } bth_t;                                       // 12 bytes

  typedef struct packed {
    logic [63:0] va;
    logic [31:0] rkey;
    logic [31:0] dma_len;
  } reth_t;                                      // 16 bytes

  typedef struct packed {
    logic [7:0]  syndrome;
    logic [23:0] msn;
  } aeth_t;                                      // 4 bytes

  typedef logic [31:0] immdt_t;                  // 4 bytes

  typedef struct packed {
    logic [63:0] va;
    logic [31:0] rkey;
    logic [63:0] swap_add;   // swap data (COMPARE SWAP) or add data (FETCH ADD)
    logic [63:0] compare;
  } atomiceth_t;                                 // 28 bytes

  typedef struct packed {
    logic [63:0] orig;       // original remote data
  } atomicacketh_t;                              // 8 bytes

  typedef struct packed {
    logic [31:0] qkey;
    logic [7:0]  resv8;
    logic [23:0] sqpn;
  } deth_t;                                      // 8 bytes

  // BTH and every extension header; which ones are meaningful is given by
  // the opcode table row of bth.opcode (the others are zero on RX, ignored
  // on TX).
  typedef struct packed {
    bth_t          bth;
    deth_t         deth;
    reth_t         reth;
    atomiceth_t    atomiceth;
    aeth_t         aeth;
    atomicacketh_t atomicacketh;
    immdt_t        immdt;
  } roce_hdr_t;                                  // 640 bits

  // Header channel of roce_tx_build.
  typedef struct packed {
    roce_hdr_t   hdr;        // bth.padcnt is ignored: the builder computes it
    logic [15:0] pay_len;    // payload bytes (without pad); 0 for opcodes without payload
  } tx_hdr_t;

  // Header channel of roce_rx_parse.
  typedef struct packed {
    roce_hdr_t    hdr;
    opcode_info_t info;      // table row of hdr.bth.opcode
    logic [15:0]  pay_len;   // payload bytes on the payload stream (without pad and ICRC)
    logic [31:0]  src_ip;    // IPv4 source address
    logic [31:0]  dst_ip;    // IPv4 destination address
    logic [15:0]  udp_sport; // UDP source port
    logic [1:0]   ip_ecn;    // ECN bits of the IPv4 header (CE = 2'b11)
  } rx_hdr_t;

  // Widths of the header structs (Yosys 0.23 has no $bits of a type; a wrong
  // value is a width error wherever the struct meets a vector of this width).
  localparam int ROCE_HDR_W = 96 + 64 + 128 + 224 + 32 + 64 + 32;          // 640
  localparam int TX_HDR_W   = ROCE_HDR_W + 16;                             // 656
  localparam int RX_HDR_W   = ROCE_HDR_W + OPINFO_W + 16 + 32 + 32 + 16 + 2; // 796

  // ------------------------------------------------------------ opcode table
  // Flags of the extension headers, in wire order (see opcode_info_t).
  localparam logic [6:0] EXT_NONE         = 7'b0000000;
  localparam logic [6:0] EXT_DETH         = 7'b1000000;
  localparam logic [6:0] EXT_RETH         = 7'b0100000;
  localparam logic [6:0] EXT_ATOMICETH    = 7'b0010000;
  localparam logic [6:0] EXT_AETH         = 7'b0001000;
  localparam logic [6:0] EXT_ATOMICACKETH = 7'b0000100;
  localparam logic [6:0] EXT_IMMDT        = 7'b0000010;
  localparam logic [6:0] EXT_CNP_RESV     = 7'b0000001;

  // One table row (an opcode_info_t): offsets and length follow from the
  // extension flags, so they cannot disagree with them.
  function automatic logic [OPINFO_W-1:0] roce_op_row(input logic [3:0] kind, input logic request,
                                                      input logic [1:0] pos, input logic has_payload,
                                                      input logic [6:0] ext);
    logic [5:0] o_deth, o_reth, o_atomiceth, o_aeth, o_atomicacketh, o_immdt, o_end;
    o_deth         = 6'(BTH_BYTES);
    o_reth         = o_deth         + (ext[6] ? 6'(DETH_BYTES)         : 6'd0);
    o_atomiceth    = o_reth         + (ext[5] ? 6'(RETH_BYTES)         : 6'd0);
    o_aeth         = o_atomiceth    + (ext[4] ? 6'(ATOMICETH_BYTES)    : 6'd0);
    o_atomicacketh = o_aeth         + (ext[3] ? 6'(AETH_BYTES)         : 6'd0);
    o_immdt        = o_atomicacketh + (ext[2] ? 6'(ATOMICACKETH_BYTES) : 6'd0);
    o_end          = o_immdt        + (ext[1] ? 6'(IMMDT_BYTES)        : 6'd0)
                                    + (ext[0] ? 6'(CNP_RESV_BYTES)     : 6'd0);
    roce_op_row = {1'b1, kind, request, pos, has_payload, ext,
                   o_deth, o_reth, o_atomiceth, o_aeth, o_atomicacketh, o_immdt, o_end};
  endfunction

  // THE opcode table: an opcode_info_t for every opcode; valid = 0 for the
  // opcodes this NIC does not know. All behaviour keys off these rows.
  function automatic logic [OPINFO_W-1:0] roce_opcode_info(input logic [7:0] opcode);
    logic [OPINFO_W-1:0] r;
    case (opcode)
      //                                       kind                       req   pos                       pay   extension headers
      OP_RC_SEND_FIRST:           r = roce_op_row(roce_pkg::KIND_SEND,       1'b1, roce_pkg::POS_FIRST,  1'b1, EXT_NONE);
      OP_RC_SEND_MIDDLE:          r = roce_op_row(roce_pkg::KIND_SEND,       1'b1, roce_pkg::POS_MIDDLE, 1'b1, EXT_NONE);
      OP_RC_SEND_LAST:            r = roce_op_row(roce_pkg::KIND_SEND,       1'b1, roce_pkg::POS_LAST,   1'b1, EXT_NONE);
      OP_RC_SEND_LAST_IMM:        r = roce_op_row(roce_pkg::KIND_SEND,       1'b1, roce_pkg::POS_LAST,   1'b1, EXT_IMMDT);
      OP_RC_SEND_ONLY:            r = roce_op_row(roce_pkg::KIND_SEND,       1'b1, roce_pkg::POS_ONLY,   1'b1, EXT_NONE);
      OP_RC_SEND_ONLY_IMM:        r = roce_op_row(roce_pkg::KIND_SEND,       1'b1, roce_pkg::POS_ONLY,   1'b1, EXT_IMMDT);
      OP_RC_WRITE_FIRST:          r = roce_op_row(roce_pkg::KIND_WRITE,      1'b1, roce_pkg::POS_FIRST,  1'b1, EXT_RETH);
      OP_RC_WRITE_MIDDLE:         r = roce_op_row(roce_pkg::KIND_WRITE,      1'b1, roce_pkg::POS_MIDDLE, 1'b1, EXT_NONE);
      OP_RC_WRITE_LAST:           r = roce_op_row(roce_pkg::KIND_WRITE,      1'b1, roce_pkg::POS_LAST,   1'b1, EXT_NONE);
      OP_RC_WRITE_LAST_IMM:       r = roce_op_row(roce_pkg::KIND_WRITE,      1'b1, roce_pkg::POS_LAST,   1'b1, EXT_IMMDT);
      OP_RC_WRITE_ONLY:           r = roce_op_row(roce_pkg::KIND_WRITE,      1'b1, roce_pkg::POS_ONLY,   1'b1, EXT_RETH);
      OP_RC_WRITE_ONLY_IMM:       r = roce_op_row(roce_pkg::KIND_WRITE,      1'b1, roce_pkg::POS_ONLY,   1'b1, EXT_RETH | EXT_IMMDT);
      OP_RC_READ_REQUEST:         r = roce_op_row(roce_pkg::KIND_READ_REQ,   1'b1, roce_pkg::POS_ONLY,   1'b0, EXT_RETH);
      OP_RC_READ_RESPONSE_FIRST:  r = roce_op_row(roce_pkg::KIND_READ_RESP,  1'b0, roce_pkg::POS_FIRST,  1'b1, EXT_AETH);
      OP_RC_READ_RESPONSE_MIDDLE: r = roce_op_row(roce_pkg::KIND_READ_RESP,  1'b0, roce_pkg::POS_MIDDLE, 1'b1, EXT_NONE);
      OP_RC_READ_RESPONSE_LAST:   r = roce_op_row(roce_pkg::KIND_READ_RESP,  1'b0, roce_pkg::POS_LAST,   1'b1, EXT_AETH);
      OP_RC_READ_RESPONSE_ONLY:   r = roce_op_row(roce_pkg::KIND_READ_RESP,  1'b0, roce_pkg::POS_ONLY,   1'b1, EXT_AETH);
      OP_RC_ACKNOWLEDGE:          r = roce_op_row(roce_pkg::KIND_ACK,        1'b0, roce_pkg::POS_ONLY,   1'b0, EXT_AETH);
      OP_RC_ATOMIC_ACKNOWLEDGE:   r = roce_op_row(roce_pkg::KIND_ATOMIC_ACK, 1'b0, roce_pkg::POS_ONLY,   1'b0, EXT_AETH | EXT_ATOMICACKETH);
      OP_RC_COMPARE_SWAP:         r = roce_op_row(roce_pkg::KIND_CMP_SWAP,   1'b1, roce_pkg::POS_ONLY,   1'b0, EXT_ATOMICETH);
      OP_RC_FETCH_ADD:            r = roce_op_row(roce_pkg::KIND_FETCH_ADD,  1'b1, roce_pkg::POS_ONLY,   1'b0, EXT_ATOMICETH);
      OP_UD_SEND_ONLY:            r = roce_op_row(roce_pkg::KIND_SEND,       1'b1, roce_pkg::POS_ONLY,   1'b1, EXT_DETH);
      OP_UD_SEND_ONLY_IMM:        r = roce_op_row(roce_pkg::KIND_SEND,       1'b1, roce_pkg::POS_ONLY,   1'b1, EXT_DETH | EXT_IMMDT);
      OP_CNP:                     r = roce_op_row(roce_pkg::KIND_CNP,        1'b0, roce_pkg::POS_ONLY,   1'b0, EXT_CNP_RESV);
      default:                    r = '0;
    endcase
    roce_opcode_info = r;
  endfunction

  // Pad bytes after a payload of pay_len bytes (0..3).
  function automatic logic [1:0] roce_pad(input logic [15:0] pay_len);
    roce_pad = 2'(-pay_len);
  endfunction

  // UDP payload length (BTH ... ICRC) of a packet with header length hdr_len
  // and pay_len payload bytes: what the Eth/IP/UDP builder in front needs.
  function automatic logic [15:0] roce_udp_payload_len(input logic [5:0] hdr_len, input logic [15:0] pay_len);
    roce_udp_payload_len = 16'(hdr_len) + pay_len + 16'(roce_pad(pay_len)) + 16'(ICRC_BYTES);
  endfunction

  // tkeep with the first n bytes set (0 <= n <= KEEP_W).
  function automatic logic [KEEP_W-1:0] roce_keep_first(input logic [6:0] n);
    logic [KEEP_W-1:0] k;
    for (int i = 0; i < KEEP_W; i++) begin
      k[i] = 7'(i) < n;
    end
    roce_keep_first = k;
  endfunction

  // Byte mask (8 bits per byte) with the first n bytes set.
  function automatic logic [DATA_W-1:0] roce_bytes_first(input logic [6:0] n);
    logic [DATA_W-1:0] m;
    for (int i = 0; i < KEEP_W; i++) begin
      m[8*i +: 8] = (7'(i) < n) ? 8'hFF : 8'h00;
    end
    roce_bytes_first = m;
  endfunction

  // Bytes in a contiguous tkeep (number of the highest set bit + 1).
  function automatic logic [6:0] roce_keep_count(input logic [KEEP_W-1:0] keep);
    logic [6:0] n;
    n = '0;
    for (int i = 0; i < KEEP_W; i++) begin
      if (keep[i]) n = 7'(i + 1);
    end
    roce_keep_count = n;
  endfunction

  // -------------------------------------------------------------------- ICRC
  // CRC-32 of Ethernet (reflected polynomial 0x04C11DB7 -> 0xEDB88320). The
  // raw LFSR state s processes data bit d (LSB of byte 0 first) as
  //   fb = s[0] ^ d;  s = s >> 1;  if (fb) s ^= CRC32_POLY.
  // zlib's crc32 is the complement of the raw state started at all ones.
  // The matrices below are derived from that step, symbolically: each state
  // bit is tracked as the set (bit mask) of inputs it is the XOR of.
  localparam logic [31:0] CRC32_POLY = 32'hEDB88320;

  // Data matrix of one 512-bit beat from state 0: row j (bits [512*j +: 512])
  // selects the data bits whose XOR is state bit j after the beat. Data bit b
  // alone turns state 0 into CRC32_POLY (fb = 1), which then advances through
  // the 511 - b zero bits after it: column b = A^(511-b) * POLY, built from
  // the last bit backwards one step at a time.
  function automatic logic [32*DATA_W-1:0] roce_crc_data_mat();
    logic [32*DATA_W-1:0] cols;   // column b in [32*b +: 32]
    logic [32*DATA_W-1:0] m;
    logic [DATA_W-1:0]    row;
    logic [31:0]          col;
    col = CRC32_POLY;
    for (int b = DATA_W - 1; b >= 0; b--) begin
      cols[32*b +: 32] = col;
      col = (col >> 1) ^ (col[0] ? CRC32_POLY : 32'd0);
    end
    for (int j = 0; j < 32; j++) begin
      for (int b = 0; b < DATA_W; b++) row[b] = cols[32*b + j];
      m[DATA_W*j +: DATA_W] = row;
    end
    roce_crc_data_mat = m;
  endfunction

  // State matrix of nbits zero data bits: row j (bits [32*j +: 32]) selects
  // the old state bits whose XOR is new state bit j.
  function automatic logic [32*32-1:0] roce_crc_adv_mat(input int nbits);
    logic [32*32-1:0] m;
    logic [31:0]      fb;
    for (int j = 0; j < 32; j++) m[32*j +: 32] = 32'd1 << j;
    for (int b = 0; b < nbits; b++) begin
      fb = m[0 +: 32];
      for (int j = 0; j < 31; j++) begin
        m[32*j +: 32] = m[32*(j+1) +: 32] ^ (CRC32_POLY[j] ? fb : 32'd0);
      end
      m[32*31 +: 32] = fb;
    end
    roce_crc_adv_mat = m;
  endfunction

  // Inverse of roce_crc_adv_mat(nbits): the state nbits zero bits earlier.
  // One step back: fb = s'[31]; s[0] = fb; s[j+1] = s'[j] ^ (POLY[j] & fb).
  function automatic logic [32*32-1:0] roce_crc_rewind_mat(input int nbits);
    logic [32*32-1:0] m;
    logic [32*32-1:0] n;
    for (int j = 0; j < 32; j++) m[32*j +: 32] = 32'd1 << j;
    for (int b = 0; b < nbits; b++) begin
      n[0 +: 32] = m[32*31 +: 32];
      for (int j = 0; j < 31; j++) begin
        n[32*(j+1) +: 32] = m[32*j +: 32] ^ (CRC32_POLY[j] ? m[32*31 +: 32] : 32'd0);
      end
      m = n;
    end
    roce_crc_rewind_mat = m;
  endfunction

  // Product of two 32x32 matrices (a after b): row j of a*b is the XOR of
  // the rows k of b that row j of a selects. mul(m, m) doubles the bits.
  function automatic logic [32*32-1:0] roce_crc_mat_mul(input logic [32*32-1:0] a, input logic [32*32-1:0] b);
    logic [32*32-1:0] m;
    logic [31:0]      r;
    for (int j = 0; j < 32; j++) begin
      r = 32'd0;
      for (int k = 0; k < 32; k++) r = r ^ (a[32*j + k] ? b[32*k +: 32] : 32'd0);
      m[32*j +: 32] = r;
    end
    roce_crc_mat_mul = m;
  endfunction

  // A 32x32 matrix (from the functions above) applied to a state.
  function automatic logic [31:0] roce_crc_apply32(input logic [32*32-1:0] m, input logic [31:0] s);
    logic [31:0] r;
    for (int j = 0; j < 32; j++) r[j] = ^(m[32*j +: 32] & s);
    roce_crc_apply32 = r;
  endfunction

  // Raw CRC state after data followed by its correct CRC (stored LSB first):
  // the state meets ~state = all ones, then advances by 32 zero bits.
  // (The well-known Ethernet residue 0xDEBB20E3, derived here.)
  localparam logic [31:0] ICRC_RESIDUE = roce_crc_apply32(roce_crc_adv_mat(32), 32'hFFFF_FFFF);

  // Cycles from a beat entering roce_icrc_engine to its CRC on the output.
  localparam int ICRC_ENGINE_LAT = 5;

  /* verilator lint_on UNUSEDPARAM */

endpackage
