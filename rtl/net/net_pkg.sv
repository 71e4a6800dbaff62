// net_pkg: types, constants and header functions of the Ethernet/IPv4/UDP
// layer (rtl/net). See rtl/net/README.md for the RX rules and the interfaces.
//
// Byte order: a packed header struct lists its fields in wire order, so the
// struct's most significant byte is the first byte on the wire. A stream beat
// carries byte 0 of the frame in tdata[7:0] (AXI4-Stream order). The
// *_to_bytes / bytes_to_* functions convert between the two.
`default_nettype none

// Constants here are offered to every block; a build that uses only some of
// them must not warn about the rest.
/* verilator lint_off UNUSEDPARAM */
package net_pkg;

  // ---------------------------------------------------------------- constants
  localparam int unsigned DATA_W    = 512;        // datapath width, bits
  localparam int unsigned KEEP_W    = DATA_W / 8; // bytes per beat

  localparam logic [15:0] ETHERTYPE_IPV4 = 16'h0800;
  localparam logic [15:0] ETHERTYPE_ARP  = 16'h0806;
  localparam logic [7:0]  IP_PROTO_UDP   = 8'd17;
  localparam logic [15:0] UDP_PORT_ROCEV2 = 16'd4791;

  localparam int unsigned ETH_HDR_BYTES  = 14;
  localparam int unsigned IPV4_HDR_BYTES = 20;   // without options (IHL = 5)
  localparam int unsigned UDP_HDR_BYTES  = 8;
  localparam int unsigned NET_HDR_BYTES  = ETH_HDR_BYTES + IPV4_HDR_BYTES + UDP_HDR_BYTES; // 42

  // Largest frame the RX path forwards (jumbo, without FCS).
  localparam int unsigned MAX_FRAME_BYTES = 9018;

  // Values Linux rxe puts in the headers it sends (shared/reference/README.md).
  localparam logic [7:0] TX_TTL = 8'd64;

  // ------------------------------------------------------------------ headers
  typedef struct packed {
    logic [47:0] dst_mac;
    logic [47:0] src_mac;
    logic [15:0] ethertype;
  } eth_hdr_t;                                      // 14 bytes

  typedef struct packed {
    logic [3:0]  version;
    logic [3:0]  ihl;
    logic [5:0]  dscp;
    logic [1:0]  ecn;
    logic [15:0] total_len;
    logic [15:0] id;
    logic        flag_rsvd;
    logic        flag_df;
    logic        flag_mf;
    logic [12:0] frag_off;
    logic [7:0]  ttl;
    logic [7:0]  proto;
    logic [15:0] csum;
    logic [31:0] src_ip;
    logic [31:0] dst_ip;
  } ipv4_hdr_t;                                     // 20 bytes

  typedef struct packed {
    logic [15:0] src_port;
    logic [15:0] dst_port;
    logic [15:0] length;
    logic [15:0] csum;
  } udp_hdr_t;                                      // 8 bytes

  // The three headers of a RoCEv2 frame as they sit on the wire (42 bytes).
  typedef struct packed {
    eth_hdr_t  eth;
    ipv4_hdr_t ip;
    udp_hdr_t  udp;
  } net_hdr_t;

  localparam int unsigned NET_HDR_W = NET_HDR_BYTES * 8;  // 336 = $bits(net_hdr_t)

  // What a sender chooses; net_tx_build (and tx_hdr_fill) fill in the rest the
  // way rxe does: version 4, IHL 5, DSCP 0, ECN 0, DF, TTL 64, UDP, UDP
  // checksum 0, lengths from payload_len, IP header checksum.
  typedef struct packed {
    logic [47:0] dst_mac;
    logic [47:0] src_mac;
    logic [31:0] src_ip;
    logic [31:0] dst_ip;
    logic [15:0] ip_id;
    logic [15:0] src_port;
    logic [15:0] dst_port;
    logic [15:0] payload_len;  // bytes after the UDP header (BTH ... ICRC for RoCE)
  } tx_hdr_t;

  localparam int unsigned TX_HDR_W = 224;  // $bits(tx_hdr_t)

  // ----------------------------------------------------------- RX verdicts
  // Why the RX path sent a frame where it did; one counter per value.
  typedef enum logic [3:0] {
    RX_ROCE       = 4'd0,  // forwarded to the RoCE output
    RX_MGMT       = 4'd1,  // forwarded to the management output
    RX_BAD_CSUM   = 4'd2,  // IPv4 header checksum wrong (IHL 5 only)
    RX_TRUNC      = 4'd3,  // frame shorter than its headers / IP total length
    RX_BAD_HDR    = 4'd4,  // IP version != 4, IHL < 5, total length < header, RoCE UDP length
    RX_MALFORMED  = 4'd5,  // tkeep hole / partial non-last beat / longer than MAX_FRAME_BYTES
    RX_MAC_ERR    = 4'd6,  // the MAC flagged the frame (tuser on tlast)
    RX_NOT_FOR_US = 4'd7,  // unicast to another MAC
    RX_ROCE_FULL  = 4'd8,  // RoCE output could not take the frame
    RX_MGMT_FULL  = 4'd9   // management output could not take the frame
  } rx_verdict_e;

  // ---------------------------------------------------------------- functions
  // Yosys 0.23 takes neither struct-typed function results/locals nor
  // `return`, so these work on plain vectors; a struct converts implicitly
  // (net_hdr_t <-> logic [NET_HDR_W-1:0], ipv4_hdr_t <-> logic [159:0]).

  // Header (struct bits, first wire byte most significant) -> bytes in stream
  // order (byte 0 in bits [7:0]).
  function automatic logic [NET_HDR_W-1:0] hdr_to_bytes(logic [NET_HDR_W-1:0] h);
    for (int i = 0; i < NET_HDR_BYTES; i++) begin
      hdr_to_bytes[8*i +: 8] = h[NET_HDR_W-8-8*i +: 8];
    end
  endfunction

  // Bytes in stream order (byte 0 in bits [7:0]) -> header struct bits.
  function automatic logic [NET_HDR_W-1:0] bytes_to_hdr(logic [NET_HDR_W-1:0] b);
    for (int i = 0; i < NET_HDR_BYTES; i++) begin
      bytes_to_hdr[NET_HDR_W-8-8*i +: 8] = b[8*i +: 8];
    end
  endfunction

  // One's complement sum (folded to 16 bits) of the ten 16-bit words of an
  // IPv4 header (ipv4_hdr_t bits); the checksum word counts when with_csum.
  function automatic logic [15:0] ipv4_sum(logic [159:0] h, logic with_csum);
    logic [19:0] s;
    s = '0;
    for (int i = 0; i < 10; i++) begin
      if (i != 5 || with_csum) begin
        s = s + 20'(h[144-16*i +: 16]);
      end
    end
    s = 20'(s[15:0]) + 20'(s[19:16]);
    s = 20'(s[15:0]) + 20'(s[19:16]);
    ipv4_sum = s[15:0];
  endfunction

  // The header checksum field value for h (the csum field of h is ignored).
  function automatic logic [15:0] ipv4_csum(logic [159:0] h);
    ipv4_csum = ~ipv4_sum(h, 1'b0);
  endfunction

  // A received header is valid when its ten words sum to 0xFFFF.
  function automatic logic ipv4_csum_ok(logic [159:0] h);
    ipv4_csum_ok = ipv4_sum(h, 1'b1) == 16'hFFFF;
  endfunction

  // The full header (net_hdr_t bits) of a frame sent with t (tx_hdr_t bits),
  // filled the way rxe fills it (see tx_hdr_t).
  function automatic logic [NET_HDR_W-1:0] tx_hdr_fill(logic [TX_HDR_W-1:0] t);
    logic [159:0] ip;
    ip = {4'd4, 4'd5, 6'd0, 2'd0,                              // version IHL DSCP ECN
          t[15:0] + 16'(IPV4_HDR_BYTES + UDP_HDR_BYTES),      // total length
          t[63:48],                                           // identification
          3'b010, 13'd0,                                      // DF, offset 0
          TX_TTL, IP_PROTO_UDP, 16'h0000,                     // TTL proto csum
          t[127:96], t[95:64]};                               // src, dst IP
    ip[79:64] = ipv4_csum(ip);
    tx_hdr_fill = {t[223:176], t[175:128], ETHERTYPE_IPV4,     // Ethernet
                   ip,                                         // IPv4
                   t[47:32], t[31:16],                         // UDP ports
                   t[15:0] + 16'(UDP_HDR_BYTES), 16'h0000};    // UDP length, csum 0
  endfunction

  // tkeep of a beat holding the first n bytes (0 <= n <= KEEP_W).
  function automatic logic [KEEP_W-1:0] keep_first(logic [6:0] n);
    for (int i = 0; i < KEEP_W; i++) begin
      keep_first[i] = 7'(i) < n;
    end
  endfunction

endpackage
/* verilator lint_on UNUSEDPARAM */
