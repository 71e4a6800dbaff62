// tb_roce_rx: drives frames into roce_icrc_check -> roce_rx_parse and writes
// what comes out (headers, payloads, counters, link statistics) for the
// Python test to compare with Scapy's expectations.
//
//   +in=FILE    one frame per line, hex; a second word "bad" sets the drop
//               marker (tuser) on the frame's tlast beat
//   +out=FILE   results: "H <rx_hdr_t hex> <user hex>", "P <payload hex>",
//               "C <counter> <value>", "S <statistic> <value>"
//   +seed=N     randomness of idle cycles, back-pressure and junk bytes
//   +idle=P     % of cycles the input holds back a beat
//   +bp=P       % of cycles the payload output is not ready
//   +hbp=P      % of cycles the header output is not ready
//   +max=N      cycle limit (the run fails when it is reached)
#include "Vtb_roce_rx.h"

#include <memory>

#include "tb_util.h"

int main(int argc, char** argv) {
  Args a(argc, argv);
  const std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
  ctx->commandArgs(argc, argv);
  const std::unique_ptr<Vtb_roce_rx> top{new Vtb_roce_rx{ctx.get(), "tb"}};

  std::vector<Bytes> frames;
  std::vector<bool> marked;
  {
    std::ifstream f(a.str("in"));
    if (!f) {
      std::fprintf(stderr, "tb_roce_rx: cannot read +in=%s\n", a.str("in").c_str());
      return 2;
    }
    std::string line;
    while (std::getline(f, line)) {
      if (line.empty()) continue;
      std::istringstream ss(line);
      std::string hx, flag;
      ss >> hx >> flag;
      frames.push_back(hex_to_bytes(hx));
      marked.push_back(flag == "bad");
    }
  }
  FILE* out = std::fopen(a.str("out").c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "tb_roce_rx: cannot write +out=%s\n", a.str("out").c_str());
    return 2;
  }
  Rng rng(uint64_t(a.num("seed", 1)));
  const int idle = int(a.num("idle", 0)), bp = int(a.num("bp", 0)), hbp = int(a.num("hbp", 0));
  const long max_cycles = a.num("max", 2000000);

  top->clk = 0;
  top->rst = 1;
  for (int i = 0; i < 4; i++) {
    top->clk = 0;
    top->eval();
    top->clk = 1;
    top->eval();
  }
  top->rst = 0;

  size_t fi = 0, bi = 0;        // frame, beat being offered
  bool holding = false;         // a beat is offered (must stay until taken)
  uint8_t junk[64];
  Bytes payload;
  long cycle = 0, quiet = 0, in_stall = 0;
  LinkStats in_st, mid_st, pay_st;
  uint8_t buf[64];
  long n_hdr = 0, n_pay = 0;

  while (cycle < max_cycles) {
    const bool more = fi < frames.size();
    if (!holding && more && !rng.chance(idle)) {
      holding = true;
      for (int i = 0; i < 64; i++) junk[i] = rng.byte();
    }
    if (holding) {
      const Bytes& fr = frames[fi];
      size_t off = 64 * bi, n = std::min<size_t>(64, fr.size() - off);
      // bytes beyond tkeep: junk (zeros for frames too short to hold the IPv4 length)
      beat_set(top->s_axis_frame_tdata, fr.data() + off, n, fr.size() >= 18 ? junk : nullptr);
      top->s_axis_frame_tkeep = keep_first(n);
      top->s_axis_frame_tlast = off + n >= fr.size();
      // the marker counts on tlast only: random on the other beats
      top->s_axis_frame_tuser = top->s_axis_frame_tlast ? marked[fi] : (junk[0] & 1);
      top->s_frame_meta = uint16_t(fi);
    }
    top->s_axis_frame_tvalid = holding;
    top->m_hdr_ready = !rng.chance(hbp);
    top->m_axis_payload_tready = !rng.chance(bp);
    top->clk = 0;
    top->eval();

    const bool in_fire = top->s_axis_frame_tvalid && top->s_axis_frame_tready;
    if (top->s_axis_frame_tvalid && !top->s_axis_frame_tready) in_stall++;
    in_st.cycle(cycle, in_fire);
    mid_st.cycle(cycle, top->mid_tvalid && top->mid_tready);
    const bool hdr_fire = top->m_hdr_valid && top->m_hdr_ready;
    if (hdr_fire) {
      std::fprintf(out, "H %s %04x\n", vec_to_hex(top->m_hdr, 796).c_str(), unsigned(top->m_hdr_user));
      n_hdr++;
    }
    const bool pay_fire = top->m_axis_payload_tvalid && top->m_axis_payload_tready;
    pay_st.cycle(cycle, pay_fire);
    if (pay_fire) {
      int n = keep_count(top->m_axis_payload_tkeep);
      beat_get(top->m_axis_payload_tdata, buf, 64);
      // bytes beyond tkeep must be zero (the parser clears them)
      for (int i = n; i < 64; i++) {
        if (buf[i]) {
          std::fprintf(stderr, "FAIL: payload byte %d beyond tkeep (%d bytes) is %02x, expected 00\n", i, n, buf[i]);
          return 1;
        }
      }
      payload.insert(payload.end(), buf, buf + n);
      if (top->m_axis_payload_tlast) {
        std::fprintf(out, "P %s\n", bytes_to_hex(payload.data(), payload.size()).c_str());
        payload.clear();
        n_pay++;
      }
    }
    top->clk = 1;
    top->eval();
    cycle++;

    if (in_fire) {
      holding = false;
      if (64 * (bi + 1) >= frames[fi].size()) {
        fi++;
        bi = 0;
      } else {
        bi++;
      }
    }
    quiet = (in_fire || hdr_fire || pay_fire || top->mid_tvalid) ? 0 : quiet + 1;
    if (fi >= frames.size() && quiet > 100) break;
  }
  if (!payload.empty()) std::fprintf(out, "P %s (no tlast)\n", bytes_to_hex(payload.data(), payload.size()).c_str());
  std::fprintf(out, "C icrc %u\nC trunc %u\nC opcode %u\nC version %u\nC len %u\nC ok %u\n",
               top->cnt_drop_icrc, top->cnt_drop_trunc, top->cnt_drop_opcode, top->cnt_drop_version,
               top->cnt_drop_len, top->cnt_pkt_ok);
  std::fprintf(out, "S cycles %ld\nS frames_in %zu\nS in_beats %ld\nS in_first %ld\nS in_last %ld\nS in_stall %ld\n",
               cycle, fi, in_st.beats, in_st.first, in_st.last, in_stall);
  std::fprintf(out, "S in_gaps %ld\nS mid_beats %ld\nS mid_gaps %ld\nS mid_first %ld\nS mid_last %ld\n",
               in_st.gaps, mid_st.beats, mid_st.gaps, mid_st.first, mid_st.last);
  std::fprintf(out, "S pay_beats %ld\nS headers %ld\nS payloads %ld\n", pay_st.beats, n_hdr, n_pay);
  std::fclose(out);
  top->final();
  if (cycle >= max_cycles) {
    std::fprintf(stderr, "FAIL: cycle limit %ld reached with %zu of %zu frames sent\n", max_cycles, fi, frames.size());
    return 1;
  }
  return 0;
}
