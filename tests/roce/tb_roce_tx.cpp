// tb_roce_tx: drives headers and payloads into the two TX chains of
// tb_roce_tx (a: build with Eth/IPv4/UDP prefix + ICRC insert, b: build
// without prefix) and writes the frames that come out.
//
//   +in=FILE    one packet per line: "<tx_hdr_t hex> <prefix hex> <payload hex or ->"
//   +out=FILE   "A <frame hex>", "B <packet hex>", "S <statistic> <value>"
//   +seed=N +idle=P (header and payload inputs) +bp=P (outputs) +max=N
#include "Vtb_roce_tx.h"

#include <memory>

#include "tb_util.h"

struct Pkt {
  std::string hdr, prefix;
  Bytes pay;
};

int main(int argc, char** argv) {
  Args a(argc, argv);
  const std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
  ctx->commandArgs(argc, argv);
  const std::unique_ptr<Vtb_roce_tx> top{new Vtb_roce_tx{ctx.get(), "tb"}};

  std::vector<Pkt> pkts;
  {
    std::ifstream f(a.str("in"));
    if (!f) {
      std::fprintf(stderr, "tb_roce_tx: cannot read +in=%s\n", a.str("in").c_str());
      return 2;
    }
    std::string line;
    while (std::getline(f, line)) {
      if (line.empty()) continue;
      std::istringstream ss(line);
      Pkt p;
      std::string pay;
      ss >> p.hdr >> p.prefix >> pay;
      p.pay = hex_to_bytes(pay);
      pkts.push_back(p);
    }
  }
  FILE* out = std::fopen(a.str("out").c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "tb_roce_tx: cannot write +out=%s\n", a.str("out").c_str());
    return 2;
  }
  Rng rng(uint64_t(a.num("seed", 1)));
  const int idle = int(a.num("idle", 0)), bp = int(a.num("bp", 0));
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

  // per chain: header index, payload packet index and beat, held flags
  struct Drv {
    size_t hi = 0, pi = 0, pb = 0;
    bool hhold = false, phold = false;
    Bytes cur;
    long frames = 0;
    LinkStats st;
  } da, db;
  long cycle = 0, quiet = 0;
  uint8_t buf[64];

  // next packet with payload at or after index i
  auto next_pay = [&](size_t i) {
    while (i < pkts.size() && pkts[i].pay.empty()) i++;
    return i;
  };
  da.pi = next_pay(0);
  db.pi = next_pay(0);

  while (cycle < max_cycles) {
    // ---- drive chain a and b inputs
    for (int c = 0; c < 2; c++) {
      Drv& d = c ? db : da;
      if (!d.hhold && d.hi < pkts.size() && !rng.chance(idle)) d.hhold = true;
      if (!d.phold && d.pi < pkts.size() && !rng.chance(idle)) d.phold = true;
    }
    top->a_hdr_valid = da.hhold;
    if (da.hhold) {
      vec_from_hex(top->a_hdr, pkts[da.hi].hdr);
      vec_from_hex(top->a_prefix, pkts[da.hi].prefix);
    }
    top->b_hdr_valid = db.hhold;
    if (db.hhold) vec_from_hex(top->b_hdr, pkts[db.hi].hdr);
    top->a_pay_tvalid = da.phold;
    if (da.phold) {
      const Bytes& p = pkts[da.pi].pay;
      size_t off = 64 * da.pb, n = std::min<size_t>(64, p.size() - off);
      beat_set(top->a_pay_tdata, p.data() + off, n, nullptr);
      top->a_pay_tkeep = keep_first(n);
      top->a_pay_tlast = off + n >= p.size();
    }
    top->b_pay_tvalid = db.phold;
    if (db.phold) {
      const Bytes& p = pkts[db.pi].pay;
      size_t off = 64 * db.pb, n = std::min<size_t>(64, p.size() - off);
      beat_set(top->b_pay_tdata, p.data() + off, n, nullptr);
      top->b_pay_tkeep = keep_first(n);
      top->b_pay_tlast = off + n >= p.size();
    }
    top->a_out_tready = !rng.chance(bp);
    top->b_out_tready = !rng.chance(bp);
    top->clk = 0;
    top->eval();

    const bool ah = top->a_hdr_valid && top->a_hdr_ready, bh = top->b_hdr_valid && top->b_hdr_ready;
    const bool ap = top->a_pay_tvalid && top->a_pay_tready, bpf = top->b_pay_tvalid && top->b_pay_tready;
    const bool ao = top->a_out_tvalid && top->a_out_tready, bo = top->b_out_tvalid && top->b_out_tready;
    da.st.cycle(cycle, ao);
    db.st.cycle(cycle, bo);
    if (ao) {
      int n = keep_count(top->a_out_tkeep);
      beat_get(top->a_out_tdata, buf, 64);
      da.cur.insert(da.cur.end(), buf, buf + n);
      if (top->a_out_tlast) {
        std::fprintf(out, "A %s\n", bytes_to_hex(da.cur.data(), da.cur.size()).c_str());
        da.cur.clear();
        da.frames++;
      }
    }
    if (bo) {
      int n = keep_count(top->b_out_tkeep);
      beat_get(top->b_out_tdata, buf, 64);
      db.cur.insert(db.cur.end(), buf, buf + n);
      if (top->b_out_tlast) {
        std::fprintf(out, "B %s\n", bytes_to_hex(db.cur.data(), db.cur.size()).c_str());
        db.cur.clear();
        db.frames++;
      }
    }
    top->clk = 1;
    top->eval();
    cycle++;

    for (int c = 0; c < 2; c++) {
      Drv& d = c ? db : da;
      bool hf = c ? bh : ah, pf = c ? bpf : ap;
      if (hf) {
        d.hhold = false;
        d.hi++;
      }
      if (pf) {
        d.phold = false;
        if (64 * (d.pb + 1) >= pkts[d.pi].pay.size()) {
          d.pi = next_pay(d.pi + 1);
          d.pb = 0;
        } else {
          d.pb++;
        }
      }
    }
    quiet = (ah || bh || ap || bpf || ao || bo || top->a_out_tvalid || top->b_out_tvalid) ? 0 : quiet + 1;
    if (da.hi >= pkts.size() && db.hi >= pkts.size() && quiet > 100) break;
  }
  std::fprintf(out, "S cycles %ld\nS a_frames %ld\nS a_beats %ld\nS a_gaps %ld\nS a_first %ld\nS a_last %ld\n",
               cycle, da.frames, da.st.beats, da.st.gaps, da.st.first, da.st.last);
  std::fprintf(out, "S b_frames %ld\nS b_beats %ld\nS b_gaps %ld\nS b_first %ld\nS b_last %ld\n", db.frames,
               db.st.beats, db.st.gaps, db.st.first, db.st.last);
  std::fclose(out);
  top->final();
  if (cycle >= max_cycles) {
    std::fprintf(stderr, "FAIL: cycle limit %ld reached (%zu/%zu headers taken)\n", max_cycles, da.hi, pkts.size());
    return 1;
  }
  return 0;
}
