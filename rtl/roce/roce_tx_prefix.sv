// roce_tx_prefix: the Ethernet/IPv4/UDP header (42 bytes) in front of a RoCE
// packet's BTH, computed over two registered stages between the TX mux and
// roce_tx_build, so no wide length or checksum arithmetic sits on one path.
//
// In: a qp_tx_hdr_t (the RoCE headers, the peer's MAC/IP, the UDP source port)
// from roce_tx_mux. Out: the RoCE headers for roce_tx_build and the prefix
// bytes (byte 0 in bits [7:0]), equal to
//   net_pkg::hdr_to_bytes(net_pkg::tx_hdr_fill(nh)), nh.payload_len =
//   roce_udp_payload_len(hdr_len, has_payload ? pay_len : 0), ip_id 0,
// as rxe fills them (checked against that expression in simulation), except
// the IPv4 ECN field: ECT(0) (2'b10) when ect (congestion control on,
// regs/roce.toml ecn_ctrl) and the packet is not a CNP, else 0 as rxe sends it.
//
// Cycle plan (each stage is a lib_skid, so every output and s_hdr_ready come
// from flip-flops and one header per cycle passes):
//   A: the opcode table (header length, payload or not; the row is carried
//      on to m_info) and the IPv4 total
//      length (header + payload + pad + ICRC + 28) in one carry chain (the
//      pad is its carry in); the checksum partial sum: the peer's IP words
//      and then base_q (two one's complement adds, each two parallel carry
//      chains and a select)
//   B: the checksum (one more one's complement add with the total length,
//      inverted; marking, also the add with the ECN bits in the length's
//      two low bits, and the packet's kind chooses), the ECN field, the UDP
//      length; the prefix is wiring of stage B's
//      registers, and m_info (the opcode table's row of m_hdr) too:
//      roce_tx_build takes its flags from flip-flops, not through the decode
// our_mac, our_ip and ect (firmware registers that do not change while packets
// are sent) are registered, and base_q, the sum of the constant words and our IP,
// is computed from them two registers further on.
`default_nettype none

module roce_tx_prefix (
  input  wire logic                         clk,
  input  wire logic                         rst,
  input  wire logic [47:0]                  our_mac,
  input  wire logic [31:0]                  our_ip,
  input  wire logic                         ect,       // mark non-CNP packets ECT(0)
  input  wire logic                         s_hdr_valid,
  output logic                              s_hdr_ready,
  input  wire roce_qp_pkg::qp_tx_hdr_t      s_hdr,
  output logic                              m_hdr_valid,
  input  wire logic                         m_hdr_ready,
  output roce_pkg::tx_hdr_t                 m_hdr,
  output roce_pkg::opcode_info_t            m_info,    // roce_opcode_info(m_hdr.hdr.bth.opcode)
  output logic [8*net_pkg::NET_HDR_BYTES-1:0] m_prefix
);
  localparam int RW = roce_qp_pkg::ROCE_TX_HDR_W;
  // the stages' widths (Yosys 0.23 takes no $bits of a type): the headers and
  // addresses every stage carries, and 2 or 3 x 16 bits of figures
  localparam int CW = RW + 32 + 48 + 16;
  localparam int AW_ = CW + 2 * 16 + roce_pkg::OPINFO_W;
  localparam int CW_ = CW + 3 * 16 + 2 + roce_pkg::OPINFO_W;
  // the IPv4 words that do not depend on the packet: version/IHL/TOS, flags
  // (DF), TTL/protocol (identification and the checksum field are 0)
  localparam logic [17:0] IP_CONST = 18'(16'h4500) + 18'(16'h4000) +
                                     18'({net_pkg::TX_TTL, net_pkg::IP_PROTO_UDP});

  function automatic logic [15:0] fold16(input logic [16:0] s);
    fold16 = s[15:0] + 16'(s[16]);
  endfunction

  // ------------------------------------------------ the constant words + our IP
  // our addresses registered (static firmware registers; no output is driven from an input)
  logic [47:0] mac_q;
  logic [31:0] ip_q;
  logic        ect_q;
  logic [17:0] base_a_q, base_a_d;
  logic [15:0] base_q, base_d;
  always_comb begin
    base_a_d = IP_CONST + 18'(ip_q[31:16]) + 18'(ip_q[15:0]);
    base_d   = fold16(17'(base_a_q[15:0]) + 17'(base_a_q[17:16]));
  end
  always_ff @(posedge clk) begin
    mac_q    <= our_mac;
    ip_q     <= our_ip;
    ect_q    <= ect;
    base_a_q <= base_a_d;
    base_q   <= base_d;
  end

  // one's complement sum of two 16-bit words: both sums at once (with and
  // without the end-around carry), the carry of the first chooses
  function automatic logic [15:0] oc_add(input logic [15:0] x, input logic [15:0] y);
    logic [16:0] s0;
    logic [15:0] s1;
    s0     = 17'(x) + 17'(y);
    s1     = x + y + 16'd1;
    oc_add = s0[16] ? s1 : s0[15:0];
  endfunction

  // --------------------------------------------------------------- stage A
  typedef struct packed {
    logic [RW-1:0] roce;
    logic [31:0]   remote_ip;
    logic [47:0]   remote_mac;
    logic [15:0]   udp_sport;
    logic [15:0]   ip_len;   // IPv4 total length
    logic [15:0]   psum;     // every checksummed word but the total length and ECN
    logic [roce_pkg::OPINFO_W-1:0] info;   // the opcode's table row (a roce_pkg::opcode_info_t)
  } st_a_t;
  st_a_t a_d, a_q;
  logic  a_v, a_r;
  roce_pkg::tx_hdr_t      in_roce;
  roce_pkg::opcode_info_t in_info;

  always_comb begin
    logic [15:0] hl32, pay;
    in_roce     = s_hdr.roce;
    in_info     = roce_pkg::roce_opcode_info(in_roce.hdr.bth.opcode);
    // RoCE header length + ICRC (4) + IPv4 and UDP headers (28)
    hl32           = 16'(in_info.hdr_len) + 16'(roce_pkg::ICRC_BYTES) +
                     16'(net_pkg::IPV4_HDR_BYTES + net_pkg::UDP_HDR_BYTES);
    pay            = in_info.has_payload ? in_roce.pay_len : 16'd0;
    a_d.roce       = s_hdr.roce;
    a_d.remote_ip  = s_hdr.remote_ip;
    a_d.remote_mac = s_hdr.remote_mac;
    a_d.udp_sport  = s_hdr.udp_sport;
    // hl32 + the payload rounded up to 4 (its pad), one carry chain: the
    // rounding is the chain's carry in
    a_d.ip_len     = {hl32[15:2] + pay[15:2] + 14'(pay[1:0] != 2'd0), hl32[1:0]};
    a_d.psum       = oc_add(base_q, oc_add(s_hdr.remote_ip[31:16], s_hdr.remote_ip[15:0]));
    a_d.info       = in_info;
  end

  lib_skid #(.WIDTH(AW_)) u_a (
    .clk, .rst,
    .s_valid(s_hdr_valid), .s_ready(s_hdr_ready), .s_data(a_d),
    .m_valid(a_v), .m_ready(a_r), .m_data(a_q)
  );

  // --------------------------------------------------------------- stage B
  typedef struct packed {
    logic [RW-1:0] roce;
    logic [31:0]   remote_ip;
    logic [47:0]   remote_mac;
    logic [15:0]   udp_sport;
    logic [15:0]   ip_len;
    logic [15:0]   udp_len;
    logic [15:0]   csum;
    logic [1:0]    ecn;
    logic [roce_pkg::OPINFO_W-1:0] info;   // (a roce_pkg::opcode_info_t)
  } st_c_t;
  st_c_t c_d, c_q;

  /* verilator lint_off UNUSEDSIGNAL */
  roce_pkg::opcode_info_t b_info;      // only kind is needed here
  /* verilator lint_on UNUSEDSIGNAL */
  logic                   b_ect;
  always_comb begin
    b_info         = a_q.info;
    b_ect          = ect_q && b_info.kind != roce_pkg::KIND_CNP;
    c_d.roce       = a_q.roce;
    c_d.remote_ip  = a_q.remote_ip;
    c_d.remote_mac = a_q.remote_mac;
    c_d.udp_sport  = a_q.udp_sport;
    c_d.ip_len     = a_q.ip_len;
    c_d.udp_len    = a_q.ip_len - 16'(net_pkg::IPV4_HDR_BYTES);
    // the total length is a multiple of 4 (every header length is): the ECN
    // bits, the low bits of the first IPv4 word, take its two low bits' place.
    // Both sums at once, the CNP decision (beside the carry chains) chooses.
    c_d.csum       = b_ect ? ~oc_add(a_q.psum, {a_q.ip_len[15:2], 2'b10}) : ~oc_add(a_q.psum, a_q.ip_len);
    c_d.ecn        = b_ect ? 2'b10 : 2'b00;
    c_d.info       = a_q.info;
  end

  lib_skid #(.WIDTH(CW_)) u_c (
    .clk, .rst,
    .s_valid(a_v), .s_ready(a_r), .s_data(c_d),
    .m_valid(m_hdr_valid), .m_ready(m_hdr_ready), .m_data(c_q)
  );

  // ------------------------------------------------------------ the prefix
  logic [159:0] ip;
  always_comb begin
    ip = {4'd4, 4'd5, 6'd0, c_q.ecn, c_q.ip_len, 16'd0, 3'b010, 13'd0,
          net_pkg::TX_TTL, net_pkg::IP_PROTO_UDP, c_q.csum, ip_q, c_q.remote_ip};
    m_hdr    = c_q.roce;
    m_info   = c_q.info;
    m_prefix = net_pkg::hdr_to_bytes({c_q.remote_mac, mac_q, net_pkg::ETHERTYPE_IPV4, ip,
                                      c_q.udp_sport, 16'(roce_pkg::UDP_PORT_ROCEV2), c_q.udp_len, 16'h0000});
  end

`ifndef SYNTHESIS
  initial begin
    if ($bits(st_a_t) != AW_ || $bits(st_c_t) != CW_)
      $fatal(1, "roce_tx_prefix: stage widths disagree with the structs");
  end
  // the prefix is the one net_pkg's reference function gives for the same header
  net_pkg::tx_hdr_t       ref_nh;
  /* verilator lint_off UNUSEDSIGNAL */
  roce_pkg::opcode_info_t ref_info;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [8*net_pkg::NET_HDR_BYTES-1:0] ref_prefix;
  net_pkg::net_hdr_t      ref_h;
  always_comb begin
    ref_info           = roce_pkg::roce_opcode_info(m_hdr.hdr.bth.opcode);
    ref_nh.dst_mac     = c_q.remote_mac;
    ref_nh.src_mac     = mac_q;
    ref_nh.src_ip      = ip_q;
    ref_nh.dst_ip      = c_q.remote_ip;
    ref_nh.ip_id       = 16'd0;
    ref_nh.src_port    = c_q.udp_sport;
    ref_nh.dst_port    = roce_pkg::UDP_PORT_ROCEV2;
    ref_nh.payload_len = roce_pkg::roce_udp_payload_len(ref_info.hdr_len,
                                                         ref_info.has_payload ? m_hdr.pay_len : 16'd0);
    ref_h              = net_pkg::tx_hdr_fill(ref_nh);
    ref_h.ip.ecn       = (ect_q && m_hdr.hdr.bth.opcode != roce_pkg::OP_CNP) ? 2'b10 : 2'b00;
    ref_h.ip.csum      = net_pkg::ipv4_csum(ref_h.ip);
    ref_prefix         = net_pkg::hdr_to_bytes(ref_h);
  end
  always_ff @(posedge clk) begin
    if (!rst && a_v && a_q.ip_len[1:0] != 2'd0)
      $error("roce_tx_prefix: IPv4 total length %0d not a multiple of 4", a_q.ip_len);
    if (!rst && m_hdr_valid && m_prefix != ref_prefix)
      $error("roce_tx_prefix: prefix %h, expected %h", m_prefix, ref_prefix);
  end
`endif

endmodule
