// tb_rc.cpp: two complete RC transports end to end (tests/rc).
//
// Two models of tb_rc_side (roce_transport + mem_axi_arb + mem_axi_ram, memory
// instances 0 and 1) joined by an eth_wire::Cable (100 Gb/s incl. preamble,
// FCS and IFG, delay, seeded drop/dup/reorder/corrupt). The C++ side is the
// "firmware": it programs QPs and MRs, posts receives and work requests and
// pops the CQ through each transport's sbus registers (offsets from
// solonic_regs.h), fills source buffers with random bytes through the
// mem_model API and compares every destination byte with what it posted.
// Expectations come from the IB rules (ordering, completion status, what a
// NAK means), never from the RTL: a WRITE's bytes equal the source, a READ's
// local bytes equal the remote source, a SEND lands in the oldest posted
// receive, an atomic returns the cell's value before it (memory little
// endian) and executes exactly once, nothing outside a failing request's
// target changes, and every WR completes before its deadline (a budget from
// its post, or from its queue's previous completion when that came later:
// check_deadlines).
//
// Usage: Vtb_rc +test=NAME [+seed=N] [+ops=N] [+maxcyc=N]   (exit 0 = pass)
#include "Vtb_rc_side.h"
#include "eth_wire.h"
#include "mem_model.h"
#include "solonic_regs.h"
#include "verilated.h"

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>
#include <unistd.h>

// ------------------------------------------------------------------ basics
static uint64_t cyc = 0, max_cycles = 50000000;
static int n_fail = 0;
static std::mt19937_64 rng(1);
static uint64_t seed_arg = 1;

static void dump_state();
static void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL @%llu: ", (unsigned long long)cyc);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    if (++n_fail > 20) {
        printf("too many failures\n");
        dump_state();
        printf("FAILED\n");
        fflush(stdout);
        _exit(1);
    }
}
[[noreturn]] static void fatal(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL @%llu: ", (unsigned long long)cyc);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    dump_state();
    printf("FAILED\n");
    fflush(stdout);
    _exit(1);
}

enum { OP_WRITE = 0, OP_WRITE_IMM, OP_SEND, OP_SEND_IMM, OP_READ, OP_CMP_SWAP, OP_FETCH_ADD };
static const char *opname[] = {"WRITE", "WRITE_IMM", "SEND", "SEND_IMM", "READ", "CMP_SWAP", "FETCH_ADD"};
static const int wc_op_of[] = {1, 1, 0, 0, 2, 3, 4};
enum { WC_SUCCESS = 0, WC_LOC_QP_OP_ERR = 2, WC_LOC_PROT_ERR = 4, WC_WR_FLUSH_ERR = 5, WC_REM_INV_REQ_ERR = 9,
       WC_REM_ACCESS_ERR = 10, WC_REM_OP_ERR = 11, WC_RETRY_EXC_ERR = 12, WC_RNR_RETRY_EXC_ERR = 13 };
static int SQ_DEPTH = 0, RQ_DEPTH = 0;   // the transport's, from caps (reset_all)
static const uint32_t PSN_MASK = 0xFFFFFF;
static inline uint32_t mtu_of(int pmtu) { return 128u << pmtu; }

// memory layout of each side (identical on both): one big MR for traffic,
// small ones for the protection tests
static const uint64_t ARENA = 0x10000000ull, ARENA_LEN = 0x04000000ull;  // 64 MiB
static const uint64_t MR1_BASE = 0x10000000ull, MR1_LEN = 0x10000000ull;  // 256 MiB, all access
static const uint64_t MR2_BASE = 0x30000000ull, MR2_LEN = 4096;           // small, all access
static const uint64_t MR3_BASE = 0x30010000ull, MR3_LEN = 65536;          // local write only
static uint32_t key_of(int idx, int side) { return ((uint32_t)(0x5A00 + idx * 7 + side * 3) << 8) | (uint32_t)idx; }

// ------------------------------------------------------------------ one side
struct Op;
struct UCqe {
    uint64_t wr_id;
    uint32_t status, opcode, has_imm, byte_len, qpn, imm;
    uint64_t t;   // the cycle it was taken
};
// a receive WQE posted on user logic's receive-post stream (s_rq_*)
struct URq {
    uint32_t qpn, len, lkey;
    uint64_t addr, wr_id;
};
struct Side {
    std::unique_ptr<Vtb_rc_side> m;
    int id = 0;
    uint8_t mac[6];
    uint32_t ip;
    wire::Link *out = nullptr, *in = nullptr;
    bool cut = false;                    // frames sent are lost (the cable is cut)
    std::deque<wire::Frame> rxq;
    size_t rx_beat = 0;
    wire::Frame txf;
    bool tx_in = false;
    uint64_t tx_start = 0;
    // bus
    bool gnt_seen = false, rv_seen = false;
    uint32_t rv_data = 0;
    int outstanding = 0;
    std::map<uint32_t, uint32_t> shadow;  // staged register values
    // figures
    uint64_t rx_stall = 0, rx_frames = 0, tx_frames = 0, cut_frames = 0, bad_keep = 0;
    size_t rxq_max = 0;
    uint64_t last_rx_last = 0, last_w_last = 0, w_beats = 0;
    bool rec_tx = false;
    uint32_t last_req_psn = 0;
    std::map<uint32_t, int> psn_wrap;   // per destination QP: 1 a request PSN >= 0xFFFF00 seen, 2 then one < 0x100
    int wrapped_qps() const {
        int n = 0;
        for (auto &kv : psn_wrap) n += kv.second == 2;
        return n;
    }
    uint64_t last_gnt = 0;
    std::vector<std::pair<uint64_t, uint8_t>> tx_log;  // (first beat cycle, BTH opcode) while rec_tx
    // user logic (s_wr_* / m_cpl_* of roce_transport): WRs waiting to be taken, completions taken
    std::deque<struct Op *> uq;
    bool ucpl_stall = false;               // hold m_cpl_ready low
    uint64_t u_taken = 0, u_cpl = 0, u_err = 0, u_valid_cycles = 0;
    std::deque<struct UCqe> ucq;
    // user logic's receive posts (s_rq_*): waiting to be taken; posts expected to be refused
    // (wr_id -> the QPN their LOC_QP_OP_ERR completion names)
    std::deque<URq> urq;
    uint64_t urq_taken = 0, urq_valid_cycles = 0;
    std::map<uint64_t, uint32_t> urq_refused;
};
static Side S[2];
static std::unique_ptr<wire::Cable> cable;
static std::unique_ptr<VerilatedContext> ctx;

// tests may watch every frame a side sends (before the wire)
static std::function<void(int, const wire::Frame &)> on_tx_frame;
// tests may change a frame a side sends before it goes on the wire (then
// icrc_fix() makes its ICRC right again)
static std::function<void(int, wire::Frame &)> tx_mutate;
// tests may watch every frame a side takes in (called in the cycle its first beat is taken)
static std::function<void(int, const wire::Frame &)> on_rx_frame;

// RoCEv2 ICRC of a frame (Ethernet + IPv4 + UDP + BTH...; the last 4 bytes
// are the ICRC): CRC-32 over 8 bytes of 1s, the IPv4 header with TOS, TTL and
// checksum as 1s, the UDP header with its checksum as 1s, the BTH with its
// reserved byte 4 as 1s, and the rest up to the ICRC
static uint32_t icrc_of(const wire::Frame &f) {
    std::vector<uint8_t> b(8, 0xFF);
    b.insert(b.end(), f.begin() + 14, f.end() - 4);
    uint8_t *ip = &b[8], *udp = ip + 20, *bth = udp + 8;
    ip[1] = 0xFF, ip[8] = 0xFF, ip[10] = 0xFF, ip[11] = 0xFF;
    udp[6] = 0xFF, udp[7] = 0xFF;
    bth[4] = 0xFF;
    uint32_t c = 0xFFFFFFFFu;
    for (uint8_t x : b) {
        c ^= x;
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
    }
    return ~c;
}
static uint32_t icrc_stored(const wire::Frame &f) {
    size_t n = f.size();
    return f[n - 4] | (f[n - 3] << 8) | (f[n - 2] << 16) | ((uint32_t)f[n - 1] << 24);
}
static void icrc_fix(wire::Frame &f) {
    uint32_t c = icrc_of(f);
    size_t n = f.size();
    for (int i = 0; i < 4; i++) f[n - 4 + i] = (uint8_t)(c >> (8 * i));
}

static void set_user_inputs(Side &s);
static void set_inputs(Side &s) {
    Vtb_rc_side *m = s.m.get();
    m->tx_tready = s.tx_in || s.cut || s.out->ready(cyc);
    set_user_inputs(s);
    if (s.rxq.empty()) {
        m->rx_tvalid = 0;
        m->rx_tlast = 0;
        m->rx_tkeep = 0;
        return;
    }
    const wire::Frame &f = s.rxq.front();
    size_t off = s.rx_beat * 64, n = std::min<size_t>(64, f.size() - off);
    for (int w = 0; w < 16; w++) {
        uint32_t v = 0;
        for (int b = 0; b < 4; b++) {
            size_t i = (size_t)w * 4 + b;
            if (i < n) v |= (uint32_t)f[off + i] << (8 * b);
        }
        m->rx_tdata[w] = v;
    }
    m->rx_tkeep = n == 64 ? ~0ull : ((1ull << n) - 1);
    m->rx_tvalid = 1;
    m->rx_tlast = off + n == f.size();
}

static void sample_user(Side &s);
static void sample(Side &s) {
    Vtb_rc_side *m = s.m.get();
    if (m->req && m->gnt) {
        s.gnt_seen = true;
        s.last_gnt = cyc;
        s.outstanding++;
    }
    if (m->rvalid) {
        if (!s.outstanding) fail("side %d: sbus rvalid without a request", s.id);
        s.outstanding--;
        s.rv_seen = true;
        s.rv_data = m->rdata;
        if (m->err) fail("side %d: sbus access answered with err", s.id);
    }
    if (m->tx_tvalid && m->tx_tready) {
        if (!s.tx_in) s.tx_start = cyc;
        s.tx_in = true;
        uint64_t keep = m->tx_tkeep;
        bool last = m->tx_tlast;
        bool contiguous = keep != 0 && (keep & (keep + 1)) == 0;
        if (!contiguous || (!last && keep != ~0ull)) s.bad_keep++;
        for (int i = 0; i < 64; i++)
            if (keep >> i & 1) s.txf.push_back((uint8_t)(m->tx_tdata[i / 4] >> (8 * (i % 4))));
        if (last) {
            s.tx_in = false;
            s.tx_frames++;
            if (s.rec_tx && s.txf.size() > 42) s.tx_log.push_back({s.tx_start, s.txf[42]});
            if (s.txf.size() >= 54 && s.txf[42] != 0x11 && (s.txf[42] < 0x0d || s.txf[42] > 0x12)) {
                uint32_t psn = (s.txf[51] << 16) | (s.txf[52] << 8) | s.txf[53];   // BTH bytes 9..11
                uint32_t dq = (s.txf[47] << 16) | (s.txf[48] << 8) | s.txf[49];
                int &w = s.psn_wrap[dq];
                if (psn >= 0xFFFF00 && w == 0) w = 1;
                if (psn < 0x100 && w == 1) w = 2;
            }
            if (getenv("RC_TRACE") && s.txf.size() >= 54) {
                const uint8_t *b = &s.txf[42];
                printf("  [%llu] side %d tx op 0x%02x qp %u psn %06x ackreq %d len %zu", (unsigned long long)cyc, s.id, b[0],
                       (b[5] << 16) | (b[6] << 8) | b[7], (b[9] << 16) | (b[10] << 8) | b[11], b[8] >> 7, s.txf.size());
                if (b[0] >= 0x0d && b[0] <= 0x12 && b[0] != 0x0e) printf(" aeth %02x msn %06x", b[12], (b[13] << 16) | (b[14] << 8) | b[15]);
                printf("%s\n", s.cut ? " (cut)" : "");
            }
            if (on_tx_frame) on_tx_frame(s.id, s.txf);
            if (tx_mutate) tx_mutate(s.id, s.txf);
            if (s.cut) s.cut_frames++;
            else s.out->send(cyc, std::move(s.txf));
            s.txf = wire::Frame();
        }
    }
    if (m->rx_tvalid) {
        if (m->rx_tready) {
            if (s.rx_beat == 0 && on_rx_frame) on_rx_frame(s.id, s.rxq.front());
            if (s.rx_beat == 0 && getenv("RC_TRACE") && s.rxq.front().size() >= 54) {
                const uint8_t *b = &s.rxq.front()[42];
                printf("  [%llu] side %d rx op 0x%02x qp %u psn %06x len %zu\n", (unsigned long long)cyc, s.id, b[0],
                       (b[5] << 16) | (b[6] << 8) | b[7], (b[9] << 16) | (b[10] << 8) | b[11], s.rxq.front().size());
            }
            if (m->rx_tlast) {
                s.rxq.pop_front();
                s.rx_beat = 0;
                s.rx_frames++;
                s.last_rx_last = cyc;
            } else {
                s.rx_beat++;
            }
        } else {
            s.rx_stall++;
        }
    }
    if (m->probe_w_fire) s.w_beats++;
    if (m->probe_w_last) s.last_w_last = cyc;
    sample_user(s);
}

static void tick() {
    for (auto &s : S) set_inputs(s);
    for (auto &s : S) {
        s.m->eval();
        sample(s);
    }
    for (auto &s : S) {
        s.m->clk = 1;
        s.m->eval();
        s.m->clk = 0;
    }
    cyc++;
    for (auto &s : S) {
        wire::Frame f;
        while (s.in->pop_arrived(cyc, f)) s.rxq.push_back(std::move(f));
        s.rxq_max = std::max(s.rxq_max, s.rxq.size());
    }
    if (cyc >= max_cycles) fatal("HANG: cycle limit %llu reached", (unsigned long long)max_cycles);
}
static void run(uint64_t n) {
    for (uint64_t i = 0; i < n; i++) tick();
}

// ------------------------------------------------------------------ register driver
static inline uint16_t R(uint32_t a) { return (uint16_t)(a - ROCE_BASE); }

// A write: presented this cycle, granted (roce_regs grants at once and answers two
// cycles later); writes follow one per cycle, a read waits for their answers.
static void wr(int side, uint32_t a, uint32_t v) {
    Side &s = S[side];
    Vtb_rc_side *m = s.m.get();
    m->req = 1;
    m->we = 1;
    m->addr = R(a);
    m->wdata = v;
    m->be = 0xF;
    s.gnt_seen = false;
    for (int n = 0; !s.gnt_seen; n++) {
        if (n > 100) fatal("side %d: sbus write 0x%x never granted", side, a);
        tick();
    }
    m->req = 0;
    s.shadow[a] = v;
}
// a staging register: written only when its value changes
static void stage(int side, uint32_t a, uint32_t v) {
    auto it = S[side].shadow.find(a);
    if (it != S[side].shadow.end() && it->second == v) return;
    wr(side, a, v);
}
static uint32_t rd(int side, uint32_t a) {
    Side &s = S[side];
    Vtb_rc_side *m = s.m.get();
    // the writes before it answer first (the register block answers two cycles after a request)
    for (int n = 0; s.outstanding; n++) {
        if (n > 100) fatal("side %d: %d sbus writes never answered", side, s.outstanding);
        tick();
    }
    m->req = 1;
    m->we = 0;
    m->addr = R(a);
    m->be = 0xF;
    s.gnt_seen = false;
    for (int n = 0; !s.gnt_seen; n++) {
        if (n > 100) fatal("side %d: sbus read 0x%x never granted", side, a);
        tick();
    }
    m->req = 0;
    s.rv_seen = false;
    for (int n = 0; !s.rv_seen; n++) {
        if (n > 100) fatal("side %d: sbus read 0x%x never answered", side, a);
        tick();
    }
    return s.rv_data;
}

// ------------------------------------------------------------------ memory
static void fill_random(int side, uint64_t a, uint64_t len, std::vector<uint8_t> *keep = nullptr) {
    std::vector<uint8_t> b(std::min<uint64_t>(len, 1 << 16));
    if (keep) keep->clear();
    for (uint64_t o = 0; o < len; o += b.size()) {
        size_t n = (size_t)std::min<uint64_t>(b.size(), len - o);
        for (size_t i = 0; i < n; i += 8) {
            uint64_t r = rng();
            memcpy(&b[i], &r, std::min<size_t>(8, n - i));
        }
        mem_model_write(side, a + o, b.data(), n);
        if (keep) keep->insert(keep->end(), b.begin(), b.begin() + n);
    }
}
static std::vector<uint8_t> mread(int side, uint64_t a, uint64_t len) {
    std::vector<uint8_t> b(len);
    if (len) mem_model_read(side, a, b.data(), len);
    return b;
}
// compare memory with expected bytes; print the first differences
static bool mcheck(int side, uint64_t a, const std::vector<uint8_t> &exp, const char *what) {
    std::vector<uint8_t> got = mread(side, a, exp.size());
    if (got == exp) return true;
    size_t bad = 0, first = SIZE_MAX;
    for (size_t i = 0; i < exp.size(); i++)
        if (got[i] != exp[i]) {
            if (first == SIZE_MAX) first = i;
            bad++;
        }
    fail("%s: side %d memory 0x%llx+%zu: %zu of %zu bytes differ, first at +%zu: expected %02x got %02x", what, side,
         (unsigned long long)a, first, bad, exp.size(), first, exp[first], got[first]);
    return false;
}
static uint64_t le64(const std::vector<uint8_t> &b, size_t o = 0) {
    uint64_t v;
    memcpy(&v, &b[o], 8);
    return v;
}

// ------------------------------------------------------------------ QPs and MRs
struct QpCfg {
    int pmtu = 5;
    uint32_t sq_psn = 0, rq_psn = 0;
    // local ACK timeout 5: 4.096 us x 2^5 = 131 us (RC_TIMEOUT overrides). READs no longer
    // wait for other QPs' long READs (the responder answers them in turn); what needs more
    // than 65 us (timeout 4: RETRY_EXC in campaign seed 4) is the queueing of 8 saturating
    // QPs on the bench's wire and receive path. Linux's default is 14 (67 ms).
    int retry_cnt = 7, rnr_retry = 7, timeout = getenv("RC_TIMEOUT") ? atoi(getenv("RC_TIMEOUT")) : 5,
        min_rnr_timer = 1;
    int max_rd_atomic = 16, max_dest_rd_atomic = 16;
    uint32_t access = 0xE;
    uint32_t pd = 0;   // protection domain
    int state = 3;
};
static void qp_write(int side, uint32_t qpn, uint32_t rqpn, const QpCfg &c) {
    const Side &o = S[side ^ 1];
    stage(side, ROCE_QP_QPN, qpn);
    stage(side, ROCE_QP_STATE, c.state);
    stage(side, ROCE_QP_PMTU, c.pmtu);
    stage(side, ROCE_QP_REMOTE_QPN, rqpn);
    stage(side, ROCE_QP_REMOTE_IP, o.ip);
    stage(side, ROCE_QP_REMOTE_MAC_HI, (o.mac[0] << 8) | o.mac[1]);
    stage(side, ROCE_QP_REMOTE_MAC_LO, (o.mac[2] << 24) | (o.mac[3] << 16) | (o.mac[4] << 8) | o.mac[5]);
    stage(side, ROCE_QP_UDP_SPORT, 0xC000 | (qpn & 0x3FFF));
    stage(side, ROCE_QP_SQ_PSN, c.sq_psn & PSN_MASK);
    stage(side, ROCE_QP_RQ_PSN, c.rq_psn & PSN_MASK);
    stage(side, ROCE_QP_TIMERS, c.retry_cnt | (c.rnr_retry << 3) | (c.timeout << 6) | (c.min_rnr_timer << 11));
    stage(side, ROCE_QP_RD_ATOMIC, c.max_rd_atomic | (c.max_dest_rd_atomic << 5));
    stage(side, ROCE_QP_ACCESS, c.access);
    stage(side, ROCE_QP_PD, c.pd);
    wr(side, ROCE_QP_WRITE, 1);
}
static uint32_t qp_hw_state(int side, uint32_t qpn) {
    stage(side, ROCE_QP_QPN, qpn);
    run(4);
    return rd(side, ROCE_QP_HW_STATE);
}
static void mr_write(int side, int idx, uint64_t base, uint64_t len, uint32_t access, bool valid = true,
                     uint32_t pd = 0) {
    stage(side, ROCE_MR_INDEX, idx);
    stage(side, ROCE_MR_KEY, key_of(idx, side));
    stage(side, ROCE_MR_BASE_LO, (uint32_t)base);
    stage(side, ROCE_MR_BASE_HI, (uint32_t)(base >> 32));
    stage(side, ROCE_MR_LEN_LO, (uint32_t)len);
    stage(side, ROCE_MR_LEN_HI, (uint32_t)(len >> 32));
    stage(side, ROCE_MR_ACCESS, access);
    stage(side, ROCE_MR_PD, pd);
    wr(side, ROCE_MR_WRITE, valid ? 1 : 0);
}

// a connected pair: QPN qa on side 0 <-> qb on side 1
struct Pair {
    uint32_t q[2];
    QpCfg cfg[2];
    int pmtu = 5;
    // per initiator side: the atomic cell on the other side and its value
    uint64_t cell_addr[2] = {0, 0}, cell_val[2] = {0, 0};
};
static std::vector<Pair> pairs;

static void pair_connect(Pair &p, int pmtu, uint32_t psn0, uint32_t psn1, QpCfg base = QpCfg()) {
    p.pmtu = pmtu;
    for (int s = 0; s < 2; s++) {
        p.cfg[s] = base;
        p.cfg[s].pmtu = pmtu;
        p.cfg[s].sq_psn = s ? psn1 : psn0;
        p.cfg[s].rq_psn = s ? psn0 : psn1;
    }
    for (int s = 0; s < 2; s++) qp_write(s, p.q[s], p.q[s ^ 1], p.cfg[s]);
}
static void pair_reset(Pair &p) {
    for (int s = 0; s < 2; s++) {
        QpCfg c = p.cfg[s];
        c.state = 0;
        qp_write(s, p.q[s], p.q[s ^ 1], c);
    }
}

// ------------------------------------------------------------------ operations
struct Op {
    int id = 0, side = 0, pair = 0, op = 0;
    uint32_t len = 0, imm = 0;
    uint64_t laddr = 0, raddr = 0, cmp = 0, swp = 0, wr_id = 0;
    uint32_t lkey = 0, rkey = 0;
    bool signaled = true;
    bool user = false;               // posted on the user-logic WR stream (s_wr_*), not the registers
    bool urecv = false;              // its receive posted by user logic (s_rq_*), completed on m_cpl_*
    uint32_t uqpn = 0, exp_qpn = ~0u; // user: the QPN posted and the one its completion names
    int uopcode = 0;                 // user: the opcode posted (an illegal one for the error case)
    int exp_status = WC_SUCCESS;
    bool any_error = false;          // only "not SUCCESS" is known (e.g. flushed or the error itself)
    bool check_data = true;
    std::vector<uint8_t> src;         // the bytes that must arrive (WRITE/SEND: local; READ: remote)
    // receive side (SEND, SEND_IMM, WRITE_IMM)
    bool needs_recv = false;
    uint64_t rbuf = 0;
    uint32_t rbuf_len = 0;
    uint64_t recv_wr_id = 0;
    uint32_t recv_lkey = 0;          // the receive WQE's lkey (0: MR1's)
    bool recv_done = false, done = false;
    int exp_recv_status = -1;        // >= 0: a receive CQE with this status is expected despite the error
    uint64_t atomic_orig = 0, atomic_new = 0;
    uint64_t t_post = 0, t_done = 0, deadline = 0;
    std::vector<uint8_t> guard_lo, guard_hi;  // bytes around the destination
    uint64_t dst = 0;
    int dst_side = 0;
    uint32_t dst_len = 0;
};
static std::vector<std::unique_ptr<Op>> ops;
static std::map<uint64_t, Op *> by_wr_id;
// expected completions, per side and QPN, in order
static std::map<std::pair<int, uint32_t>, std::deque<Op *>> exp_sq, exp_rq;
// the cycle of each queue's last completion (check_deadlines)
static std::map<std::pair<int, uint32_t>, uint64_t> last_done_sq, last_done_usr;
static uint64_t n_cqe = 0, n_recv_cqe = 0, bytes_ok = 0;
static uint64_t wr_deadline_slack = 400000;   // cycles a WR may take beyond its wire time
static const int GUARD = 64;

// allocation: a bump pointer per side in the arena, wrapping; never overlaps a live op
struct Range { uint64_t lo, hi; };
static uint64_t bump[2] = {ARENA, ARENA};
static std::multimap<uint64_t, std::pair<uint64_t, int>> live[2];   // lo -> (hi, op id)
static void poll_all();
static bool overlaps_live(int side, uint64_t lo, uint64_t hi) {
    for (auto &kv : live[side])
        if (kv.first < hi && lo < kv.second.first) return true;
    return false;
}
static uint64_t alloc(int side, uint64_t len, int opid) {
    uint64_t need = (len + 2 * GUARD + 63) & ~63ull;
    if (bump[side] + need > ARENA + ARENA_LEN) bump[side] = ARENA;
    uint64_t lo = bump[side];
    for (int n = 0; overlaps_live(side, lo, lo + need); n++) {
        if (n > 100000) fatal("allocator: the arena stays busy (ops never complete?)");
        poll_all();
    }
    bump[side] += need;
    live[side].insert({lo, {lo + need, opid}});
    return lo + GUARD;
}
static void release(const Op &o) {
    for (int s = 0; s < 2; s++)
        for (auto it = live[s].begin(); it != live[s].end();)
            it = it->second.second == o.id ? live[s].erase(it) : std::next(it);
}

static double wire_cycles_for(uint64_t len, int pmtu) {
    uint64_t m = mtu_of(pmtu), pk = len ? (len + m - 1) / m : 1;
    return ((double)len + pk * (82 + 16 + 4 + 24)) * 8 * 250e6 / 100e9;
}

static int sq_out(int side, uint32_t qpn) { return (int)exp_sq[{side, qpn}].size(); }
static int rq_out(int side, uint32_t qpn) { return (int)exp_rq[{side, qpn}].size(); }

static void post_recv(Op &o) {
    int rs = o.side ^ 1;
    Pair &p = pairs[o.pair];
    stage(rs, ROCE_RQ_QPN, p.q[rs]);
    stage(rs, ROCE_RQ_ADDR_LO, (uint32_t)o.rbuf);
    stage(rs, ROCE_RQ_ADDR_HI, (uint32_t)(o.rbuf >> 32));
    stage(rs, ROCE_RQ_LEN, o.rbuf_len);
    stage(rs, ROCE_RQ_LKEY, o.recv_lkey ? o.recv_lkey : key_of(1, rs));
    stage(rs, ROCE_RQ_WR_ID_LO, (uint32_t)o.recv_wr_id);
    stage(rs, ROCE_RQ_WR_ID_HI, (uint32_t)(o.recv_wr_id >> 32));
    wr(rs, ROCE_RQ_POST, 1);
    exp_rq[{rs, p.q[rs]}].push_back(&o);
    by_wr_id[o.recv_wr_id] = &o;
}

// the op's receive posted by the receiving side's user logic (s_rq_*): a 48-bit
// wr_id; its completion must come on m_cpl_*, not the firmware's CQ
static void post_urecv(Op &o) {
    int rs = o.side ^ 1;
    Pair &p = pairs[o.pair];
    o.urecv = true;
    o.recv_wr_id = ((uint64_t)(rs + 1) << 44) | ((rng() & 0xFFFFF) << 20) | (uint64_t)o.id;
    S[rs].urq.push_back({p.q[rs], o.rbuf_len, o.recv_lkey ? o.recv_lkey : key_of(1, rs), o.rbuf, o.recv_wr_id});
    exp_rq[{rs, p.q[rs]}].push_back(&o);
    by_wr_id[o.recv_wr_id] = &o;
}

static void post_sq(Op &o) {
    int s = o.side;
    Pair &p = pairs[o.pair];
    stage(s, ROCE_SQ_OPCODE, o.op);
    stage(s, ROCE_SQ_QPN, p.q[s]);
    stage(s, ROCE_SQ_LADDR_LO, (uint32_t)o.laddr);
    stage(s, ROCE_SQ_LADDR_HI, (uint32_t)(o.laddr >> 32));
    stage(s, ROCE_SQ_LKEY, o.lkey);
    stage(s, ROCE_SQ_RADDR_LO, (uint32_t)o.raddr);
    stage(s, ROCE_SQ_RADDR_HI, (uint32_t)(o.raddr >> 32));
    stage(s, ROCE_SQ_RKEY, o.rkey);
    stage(s, ROCE_SQ_LEN, o.len);
    if (o.op == OP_WRITE_IMM || o.op == OP_SEND_IMM) stage(s, ROCE_SQ_IMM, o.imm);
    if (o.op == OP_CMP_SWAP) {
        stage(s, ROCE_SQ_COMPARE_LO, (uint32_t)o.cmp);
        stage(s, ROCE_SQ_COMPARE_HI, (uint32_t)(o.cmp >> 32));
    }
    if (o.op >= OP_CMP_SWAP) {
        stage(s, ROCE_SQ_SWAP_ADD_LO, (uint32_t)o.swp);
        stage(s, ROCE_SQ_SWAP_ADD_HI, (uint32_t)(o.swp >> 32));
    }
    stage(s, ROCE_SQ_WR_ID_LO, (uint32_t)o.wr_id);
    stage(s, ROCE_SQ_WR_ID_HI, (uint32_t)(o.wr_id >> 32));
    stage(s, ROCE_SQ_FLAGS, o.signaled ? 1 : 0);
    o.t_post = cyc;
    o.deadline = cyc + wr_deadline_slack + (uint64_t)(4 * wire_cycles_for(o.len, p.pmtu));
    for (int w = 0; !(rd(s, ROCE_SQ_STATUS) & 1); w++)   // the register contract: post only when ready
        if (w > 10000) fatal("side %d: sq_status.ready stays 0", s);
    wr(s, ROCE_SQ_POST, 1);
    if (o.signaled) exp_sq[{s, p.q[s]}].push_back(&o);
    by_wr_id[o.wr_id] = &o;
}

// Build an op with fresh buffers and its expected outcome; post its receive
// (if any) first, then the WR.
static Op &make_op(int side, int pair, int op, uint32_t len, bool post = true) {
    ops.emplace_back(new Op);
    Op &o = *ops.back();
    o.id = (int)ops.size();
    o.side = side;
    o.pair = pair;
    o.op = op;
    int rs = side ^ 1;
    Pair &p = pairs[pair];
    o.wr_id = ((uint64_t)(side + 1) << 56) | ((uint64_t)op << 48) | (uint64_t)o.id;
    o.lkey = key_of(1, side);
    o.rkey = key_of(1, rs);
    o.imm = (uint32_t)rng();
    if (op == OP_CMP_SWAP || op == OP_FETCH_ADD) {
        len = 8;
        if (!p.cell_addr[side]) {
            p.cell_addr[side] = alloc(rs, 8, -1);   // permanent
            p.cell_val[side] = rng();
            mem_model_write(rs, p.cell_addr[side], &p.cell_val[side], 8);
        }
        o.raddr = p.cell_addr[side];
        o.laddr = alloc(side, 8, o.id);
        o.atomic_orig = p.cell_val[side];
        if (op == OP_CMP_SWAP) {
            o.cmp = (rng() & 1) ? p.cell_val[side] : p.cell_val[side] ^ (1ull << (rng() % 64));
            o.swp = rng();
            o.atomic_new = o.cmp == p.cell_val[side] ? o.swp : p.cell_val[side];
        } else {
            o.swp = (rng() & 3) ? (rng() & 0xFFFF) : rng();
            o.atomic_new = p.cell_val[side] + o.swp;
        }
        p.cell_val[side] = o.atomic_new;
        o.dst = o.laddr, o.dst_side = side, o.dst_len = 8;
    } else if (op == OP_READ) {
        o.raddr = alloc(rs, len, o.id);
        fill_random(rs, o.raddr, len, &o.src);
        o.laddr = alloc(side, len, o.id);
        fill_random(side, o.laddr, len);  // canary: must be overwritten
        o.dst = o.laddr, o.dst_side = side, o.dst_len = len;
    } else {
        o.laddr = alloc(side, len, o.id);
        fill_random(side, o.laddr, len, &o.src);
        if (op == OP_SEND || op == OP_SEND_IMM) {
            o.rbuf_len = len + (uint32_t)(rng() % 3 == 0 ? rng() % 200 : 0);
            o.rbuf = alloc(rs, o.rbuf_len, o.id);
            fill_random(rs, o.rbuf, o.rbuf_len);
            o.dst = o.rbuf, o.dst_side = rs, o.dst_len = o.rbuf_len;
        } else {
            o.raddr = alloc(rs, len, o.id);
            fill_random(rs, o.raddr, len);
            o.dst = o.raddr, o.dst_side = rs, o.dst_len = len;
            if (op == OP_WRITE_IMM) o.rbuf = alloc(rs, 16, o.id), o.rbuf_len = 16;
        }
    }
    o.len = len;
    o.needs_recv = op == OP_SEND || op == OP_SEND_IMM || op == OP_WRITE_IMM;
    o.recv_wr_id = (1ull << 63) | ((uint64_t)rs << 56) | (uint64_t)o.id;
    // everything the op may not touch: its guards and the rest of the receive buffer
    o.guard_lo = mread(o.dst_side, o.dst - GUARD, GUARD);
    o.guard_hi = mread(o.dst_side, o.dst + o.dst_len, GUARD);
    if (post) {
        if (o.needs_recv) post_recv(o);
        post_sq(o);
    }
    return o;
}

static void finish_check(Op &o) {
    if (!o.done || (o.needs_recv && !o.recv_done && o.exp_status == WC_SUCCESS && !o.any_error)) return;
    if (o.exp_status == WC_SUCCESS && !o.any_error && o.check_data) {
        char what[96];
        snprintf(what, sizeof what, "op %d %s len %u side %d", o.id, opname[o.op], o.len, o.side);
        bool ok = true;
        if (o.op == OP_CMP_SWAP || o.op == OP_FETCH_ADD) {
            std::vector<uint8_t> e(8);
            memcpy(e.data(), &o.atomic_orig, 8);
            ok &= mcheck(o.side, o.laddr, e, what);
        } else if (o.op == OP_READ) {
            ok &= mcheck(o.side, o.laddr, o.src, what);
        } else {
            ok &= mcheck(o.dst_side, o.dst, o.src, what);
        }
        ok &= mcheck(o.dst_side, o.dst - GUARD, o.guard_lo, "guard below the destination");
        ok &= mcheck(o.dst_side, o.dst + o.dst_len, o.guard_hi, "guard above the destination");
        if (ok) bytes_ok += o.len;
    }
    release(o);
}

// one CQE from the head of side's CQ (the caller saw cq_status.valid)
struct Cqe {
    uint64_t wr_id;
    uint32_t status, opcode, has_imm, is_recv, byte_len, qpn, imm;
};
static Cqe read_cqe(int side) {
    Cqe c;
    uint32_t lo = rd(side, ROCE_CQ_WR_ID_LO), hi = rd(side, ROCE_CQ_WR_ID_HI);
    uint32_t info = rd(side, ROCE_CQ_INFO);
    c.wr_id = ((uint64_t)hi << 32) | lo;
    c.status = info & 0x1F;
    c.opcode = (info >> 8) & 0xFF;
    c.has_imm = (info >> 16) & 1;
    c.is_recv = (info >> 17) & 1;
    c.byte_len = rd(side, ROCE_CQ_BYTE_LEN);
    c.qpn = rd(side, ROCE_CQ_QPN);
    c.imm = rd(side, ROCE_CQ_IMM);
    wr(side, ROCE_CQ_POP, 1);
    return c;
}

static std::function<void(int, const Cqe &)> on_cqe;   // tests may watch completions

static bool cqe_from_user = false;   // handle_cqe's CQE came on m_cpl_* (user logic's receives)
static void handle_cqe(int side, const Cqe &c) {
    n_cqe++;
    if (on_cqe) on_cqe(side, c);
    auto key = std::make_pair(side, c.qpn);
    if (c.is_recv) {
        n_recv_cqe++;
        auto &q = exp_rq[key];
        if (q.empty()) {
            fail("side %d: unexpected receive CQE wr_id %llx qpn %u status %u", side, (unsigned long long)c.wr_id, c.qpn,
                 c.status);
            return;
        }
        Op &o = *q.front();
        q.pop_front();
        if (c.wr_id != o.recv_wr_id)
            fail("side %d qpn %u: receive CQE out of order: expected wr_id %llx (op %d) got %llx", side, c.qpn,
                 (unsigned long long)o.recv_wr_id, o.id, (unsigned long long)c.wr_id);
        if (o.urecv != cqe_from_user)
            fail("side %d qpn %u: the receive completion of op %d came on %s, its receive was posted by %s", side,
                 c.qpn, o.id, cqe_from_user ? "m_cpl_*" : "the firmware's CQ", o.urecv ? "user logic" : "the firmware");
        int exp_opc = o.op == OP_WRITE_IMM ? 129 : 128;
        bool exp_imm = o.op != OP_SEND;
        if (o.exp_recv_status >= 0 && c.status != (uint32_t)o.exp_recv_status)
            fail("receive CQE of op %d (%s len %u): expected status %d got %u", o.id, opname[o.op], o.len,
                 o.exp_recv_status, c.status);
        if (o.exp_status == WC_SUCCESS && !o.any_error) {
            if (c.status != WC_SUCCESS || c.opcode != (uint32_t)exp_opc || c.has_imm != exp_imm ||
                (exp_imm && c.imm != o.imm) || c.byte_len != o.len)
                fail("receive CQE of op %d (%s len %u): expected status 0 opcode %d has_imm %d imm %08x byte_len %u; got "
                     "status %u opcode %u has_imm %u imm %08x byte_len %u",
                     o.id, opname[o.op], o.len, exp_opc, exp_imm, o.imm, o.len, c.status, c.opcode, c.has_imm, c.imm,
                     c.byte_len);
        }
        o.recv_done = true;
        finish_check(o);
        return;
    }
    auto &q = exp_sq[key];
    if (q.empty()) {
        fail("side %d: unexpected CQE wr_id %llx qpn %u status %u opcode %u", side, (unsigned long long)c.wr_id, c.qpn,
             c.status, c.opcode);
        return;
    }
    Op &o = *q.front();
    q.pop_front();
    last_done_sq[key] = cyc;
    if (c.wr_id != o.wr_id) {
        fail("side %d qpn %u: CQE out of order: expected wr_id %llx (op %d %s) got %llx status %u", side, c.qpn,
             (unsigned long long)o.wr_id, o.id, opname[o.op], (unsigned long long)c.wr_id, c.status);
    }
    o.t_done = cyc;
    o.done = true;
    if (o.any_error ? c.status == WC_SUCCESS : c.status != (uint32_t)o.exp_status)
        fail("CQE of op %d (%s len %u side %d qpn %u): expected status %s%d got %u", o.id, opname[o.op], o.len, side,
             c.qpn, o.any_error ? "not " : "", o.any_error ? 0 : o.exp_status, c.status);
    if (c.status == WC_SUCCESS && c.opcode != (uint32_t)wc_op_of[o.op])
        fail("CQE of op %d: expected opcode %d got %u", o.id, wc_op_of[o.op], c.opcode);
    if (c.status == WC_SUCCESS && (o.op == OP_READ || o.op >= OP_CMP_SWAP) && c.byte_len != o.len)
        fail("CQE of op %d (%s): expected byte_len %u got %u", o.id, opname[o.op], o.len, c.byte_len);
    finish_check(o);
}

static int poll_side(int side) {
    uint32_t st = rd(side, ROCE_CQ_STATUS);
    int n = 0;
    while (st & 0x10000) {
        handle_cqe(side, read_cqe(side));
        n++;
        st = rd(side, ROCE_CQ_STATUS);
    }
    return n;
}
static std::map<std::pair<int, uint32_t>, std::deque<Op *>> exp_usr;   // user completions, per side and QPN
// A queue's completions come in order, so only its oldest op is checked, and
// its time runs from its post or, when later, from its predecessor's
// completion on the same queue (last_done): a WR queued behind others (a
// long READ under loss, each loss an ACK timeout) is not charged for their
// time, and a queue that stops completing fails within its front op's budget.
static uint64_t due(const Op *o, uint64_t last_done) {
    return o->deadline + (last_done > o->t_post ? last_done - o->t_post : 0);
}
static void check_deadlines() {
    for (auto &kv : exp_usr) {
        if (kv.second.empty()) continue;
        const Op *o = kv.second.front();
        uint64_t d = due(o, last_done_usr[kv.first]);
        if (cyc > d)
            fatal("HANG: user op %d (%s len %u, side %d qpn %u, queued @%llu, its queue's last completion @%llu) not "
                  "completed by its deadline @%llu", o->id, opname[o->op], o->len, o->side, o->uqpn,
                  (unsigned long long)o->t_post, (unsigned long long)last_done_usr[kv.first], (unsigned long long)d);
    }
    for (auto &kv : exp_sq) {
        if (kv.second.empty()) continue;
        const Op *o = kv.second.front();
        uint64_t d = due(o, last_done_sq[kv.first]);
        if (cyc > d)
            fatal("HANG: op %d (%s len %u, side %d qpn %u, posted @%llu, its queue's last completion @%llu) not completed "
                  "by its deadline @%llu", o->id, opname[o->op], o->len, o->side, pairs[o->pair].q[o->side],
                  (unsigned long long)o->t_post, (unsigned long long)last_done_sq[kv.first], (unsigned long long)d);
    }
}
static void poll_user(int side);
static void poll_all() {
    poll_side(0);
    poll_side(1);
    poll_user(0);
    poll_user(1);
    check_deadlines();
    tick();
}
static size_t outstanding() {
    size_t n = 0;
    for (auto &kv : exp_sq) n += kv.second.size();
    for (auto &kv : exp_usr) n += kv.second.size();
    for (auto &s : S) n += s.uq.size();
    return n;
}
// wait until every signaled WR completed (receives too unless told otherwise)
static void drain(bool recvs = true) {
    while (true) {
        size_t n = outstanding();
        if (recvs)
            for (auto &kv : exp_rq)
                for (Op *o : kv.second)
                    if (o->exp_status == WC_SUCCESS && !o->any_error) n++;
        if (!n) break;
        poll_all();
        if (n && outstanding() == 0 && recvs) {
            // receive CQEs follow the data; give them a bounded time
            uint64_t until = cyc + 200000;
            bool left = true;
            while (left && cyc < until) {
                poll_all();
                left = false;
                for (auto &kv : exp_rq)
                    for (Op *o : kv.second)
                        if (o->exp_status == WC_SUCCESS && !o->any_error) left = true;
            }
            if (left) {
                for (auto &kv : exp_rq)
                    for (Op *o : kv.second)
                        if (o->exp_status == WC_SUCCESS && !o->any_error)
                            fail("HANG: receive completion of op %d (%s len %u) never came", o->id, opname[o->op], o->len);
                return;
            }
        }
    }
}

// ------------------------------------------------------------------ user logic
// The bench as user logic on roce_transport's WR stream (s_wr_*) and completion
// stream (m_cpl_*): WRs queued per side go in one per handshake (valid stays up
// until ready; a random idle cycle between WRs), completions are taken unless
// the test stalls them. Expected completions per side and QPN, in order; an
// unsignaled WR that succeeds has none (its data is checked once a later WR of
// its QP completed: user_settle_unsignaled).
static void us_set_inputs(Side &s);
static void us_sample(Side &s);
static void set_user_inputs(Side &s) {
    Vtb_rc_side *m = s.m.get();
    us_set_inputs(s);
    m->cpl_ready = !s.ucpl_stall;
    bool rv = !s.urq.empty() && (m->rq_valid || rng() % 4 != 0);
    m->rq_valid = rv;
    if (rv) {
        const URq &r = s.urq.front();
        m->rq_qpn = r.qpn;
        m->rq_addr = r.addr;
        m->rq_len = r.len;
        m->rq_lkey = r.lkey;
        m->rq_wr_id = r.wr_id;
    }
    bool v = !s.uq.empty() && (m->wr_valid || rng() % 4 != 0);
    m->wr_valid = v;
    if (!v) return;
    const Op &o = *s.uq.front();
    m->wr_opcode = o.uopcode;
    m->wr_qpn = o.uqpn;
    m->wr_laddr = o.laddr;
    m->wr_lkey = o.lkey;
    m->wr_raddr = o.raddr;
    m->wr_rkey = o.rkey;
    m->wr_len = o.len;
    m->wr_imm = o.imm;
    m->wr_compare = o.cmp;
    m->wr_swap_add = o.swp;
    m->wr_wr_id = o.wr_id;
    m->wr_signaled = o.signaled;
}
static void sample_user(Side &s) {
    Vtb_rc_side *m = s.m.get();
    us_sample(s);
    if (m->rq_valid) s.urq_valid_cycles++;
    if (m->rq_valid && m->rq_ready) {
        s.urq.pop_front();
        s.urq_taken++;
    }
    if (m->wr_valid) s.u_valid_cycles++;
    if (m->wr_valid && m->wr_ready) {
        s.uq.front()->t_post = cyc;
        s.uq.pop_front();
        s.u_taken++;
    }
    if (m->cpl_valid && m->cpl_ready) {
        UCqe c;
        c.wr_id = m->cpl_wr_id;
        c.status = m->cpl_status;
        c.opcode = m->cpl_opcode;
        c.has_imm = m->cpl_has_imm;
        c.byte_len = m->cpl_byte_len;
        c.qpn = m->cpl_qpn;
        c.imm = m->cpl_imm;
        c.t = cyc;
        s.ucq.push_back(c);
        s.u_cpl++;
        s.u_err += c.status != WC_SUCCESS;
    }
}
static void post_user(Op &o) {
    Side &s = S[o.side];
    o.user = true;
    if (!o.uopcode) o.uopcode = o.op;
    if (!o.uqpn) o.uqpn = pairs[o.pair].q[o.side];
    if (o.exp_qpn == ~0u) o.exp_qpn = o.uqpn;
    // 48-bit wr_id: random upper bits, the op's id below (unique)
    o.wr_id = (rng() & 0xFFFF00000000ull) | (uint64_t)o.id;
    o.t_post = cyc;
    o.deadline = cyc + wr_deadline_slack + (uint64_t)(4 * wire_cycles_for(o.len, pairs[o.pair].pmtu));
    if (o.signaled || o.exp_status != WC_SUCCESS || o.any_error) exp_usr[{o.side, o.exp_qpn}].push_back(&o);
    s.uq.push_back(&o);
}
static void handle_ucqe(int side, const UCqe &c) {
    if (c.opcode & 0x80) {   // a receive of user logic's (docs/user-logic.md)
        auto it = S[side].urq_refused.find(c.wr_id);
        if (it != S[side].urq_refused.end()) {
            n_cqe++;
            if (c.status != WC_LOC_QP_OP_ERR || c.opcode != 128 || c.byte_len || c.has_imm || c.imm || c.qpn != it->second)
                fail("side %d: the refused receive post wr_id %llx: expected LOC_QP_OP_ERR opcode 128 qpn %u, nothing "
                     "else; got status %u opcode %u qpn %u byte_len %u has_imm %u", side, (unsigned long long)c.wr_id,
                     it->second, c.status, c.opcode, c.qpn, c.byte_len, c.has_imm);
            S[side].urq_refused.erase(it);
            return;
        }
        Cqe r{c.wr_id, c.status, c.opcode, c.has_imm, 1, c.byte_len, c.qpn, c.imm};
        cqe_from_user = true;
        handle_cqe(side, r);
        cqe_from_user = false;
        return;
    }
    n_cqe++;
    auto &q = exp_usr[{side, c.qpn}];
    if (q.empty()) {
        fail("side %d: unexpected user completion wr_id %llx qpn %u status %u opcode %u", side,
             (unsigned long long)c.wr_id, c.qpn, c.status, c.opcode);
        return;
    }
    Op &o = *q.front();
    q.pop_front();
    last_done_usr[{side, c.qpn}] = cyc;
    if (c.wr_id != o.wr_id)
        fail("side %d qpn %u: user completion out of order: expected wr_id %llx (op %d %s) got %llx status %u", side,
             c.qpn, (unsigned long long)o.wr_id, o.id, opname[o.op], (unsigned long long)c.wr_id, c.status);
    o.t_done = c.t;
    o.done = true;
    if (o.any_error ? c.status == WC_SUCCESS : c.status != (uint32_t)o.exp_status)
        fail("user completion of op %d (%s len %u side %d qpn %u): expected status %s%d got %u", o.id, opname[o.op],
             o.len, side, c.qpn, o.any_error ? "not " : "", o.any_error ? 0 : o.exp_status, c.status);
    // a send-side completion: the WR's length as byte count (8 for an atomic, 0 for an
    // error), no immediate; its opcode from the WR's (docs/user-logic.md)
    uint32_t exp_len = c.status == WC_SUCCESS ? o.len : 0;
    if (c.status == WC_SUCCESS && c.opcode != (uint32_t)wc_op_of[o.op])
        fail("user completion of op %d: expected opcode %d got %u", o.id, wc_op_of[o.op], c.opcode);
    if (c.byte_len != exp_len || c.has_imm || c.imm)
        fail("user completion of op %d (%s): expected byte_len %u, no immediate; got byte_len %u has_imm %u imm %08x",
             o.id, opname[o.op], exp_len, c.byte_len, c.has_imm, c.imm);
    finish_check(o);
}
static void poll_user(int side) {
    while (!S[side].ucq.empty()) {
        UCqe c = S[side].ucq.front();
        S[side].ucq.pop_front();
        handle_ucqe(side, c);
    }
}
// unsignaled user WRs that succeeded: done once every user WR completed (a later
// signaled WR of the same QP completed after them: RC order)
static void user_settle_unsignaled() {
    for (auto &o : ops)
        if (o->user && !o->signaled && !o->done && o->exp_status == WC_SUCCESS && !o->any_error) {
            o->done = true;
            finish_check(*o);
        }
}

// ------------------------------------------------------------------ streaming MRs
// User logic on the streaming MRs' streams (docs/user-logic.md, "Streaming
// MRs"): MR SMR_IDX of each side is streaming, its bytes a function of the
// side and the address (ubyte). The model checks every receive-data chunk
// (m_urx_*) against the chunks expected per local QPN, in order (each
// accepted packet's payload exactly once), and answers the read requests of
// the responder (m_urd_req_* / s_urd_*) and the requester (m_utx_req_* /
// s_utx_*) with ubyte's bytes, each request checked to lie in a range a test
// allowed for its QPN. Back-pressure: m_urx_ready low in stretches
// (rx_stall permille of cycles start one), answer beats withheld (rd_slow permille).
static const int SMR_IDX = 4;
static const uint64_t SMR_BASE = 0x4000000000ull, SMR_LEN = 1ull << 32;   // 4 GiB that are no memory
static uint8_t ubyte(int side, uint64_t a) {
    uint64_t x = (a >> 3) * 0x9E3779B97F4A7C15ull ^ (uint64_t)(side + 1) * 0xC2B2AE3D27D4EB4Full;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return (uint8_t)(x >> (8 * (a & 7)));
}
static std::vector<uint8_t> ubytes(int side, uint64_t a, uint64_t n) {
    std::vector<uint8_t> v(n);
    for (uint64_t i = 0; i < n; i++) v[i] = ubyte(side, a + i);
    return v;
}
struct UChunk {
    uint64_t addr = 0;
    uint32_t len = 0, qpn = 0;
    bool first = false, msg_last = false, send = false;
    std::vector<uint8_t> data;
    int op = 0;
};
struct UReq {
    uint64_t addr;
    uint32_t len, qpn, beat;
};
struct UStream {
    std::map<uint32_t, std::deque<UChunk>> exp_rx;   // per local QPN, in order
    bool in_chunk = false;
    UChunk cur;
    uint32_t beats = 0;
    int rx_stall = 0, stall_left = 0, rd_slow = 0;
    std::deque<UReq> rq[2];                            // requests taken: 0 responder READ data, 1 requester payload
    bool dv[2] = {false, false};                       // a data beat presented (held until taken)
    int bad_last = 0;                                  // answers to give with s_*_last wrong
    bool use_null = false;                             // roce_ustream_null answers (zeros), not this model
    std::map<uint32_t, std::vector<std::pair<uint64_t, uint64_t>>> ranges[2];   // allowed request ranges per QPN
    uint64_t chunks = 0, rx_bytes = 0, reqs[2] = {0, 0}, beats_out[2] = {0, 0}, stall_cycles = 0;
};
static UStream US[2];

// the chunks a WRITE / SEND of `len` bytes at `addr` gives on the receiver's stream
static void us_expect(int rs, uint32_t qpn, uint64_t addr, uint32_t len, uint32_t mtu, bool send,
                      const std::vector<uint8_t> &data, int opid) {
    for (uint32_t off = 0; off < len; off += mtu) {
        UChunk c;
        c.addr = addr + off;
        c.len = std::min(mtu, len - off);
        c.qpn = qpn;
        c.first = off == 0;
        c.msg_last = off + c.len == len;
        c.send = send;
        c.data.assign(data.begin() + off, data.begin() + off + c.len);
        c.op = opid;
        US[rs].exp_rx[qpn].push_back(std::move(c));
    }
}
static size_t us_pending(int side) {
    size_t n = US[side].rq[0].size() + US[side].rq[1].size() + US[side].in_chunk;
    for (auto &kv : US[side].exp_rx) n += kv.second.size();
    return n;
}

static void us_set_inputs(Side &s) {
    Vtb_rc_side *m = s.m.get();
    UStream &u = US[s.id];
    if (u.stall_left > 0) u.stall_left--;
    else if (u.rx_stall && (int)(rng() % 1000) < u.rx_stall) u.stall_left = 1 + (int)(rng() % 48);
    m->urx_ready = u.stall_left == 0;
    m->use_null = u.use_null;
    m->urd_req_ready = u.rq[0].size() < 8;
    m->utx_req_ready = u.rq[1].size() < 8;
    for (int k = 0; k < 2; k++) {
        auto &q = u.rq[k];
        if (q.empty()) u.dv[k] = false;
        else if (!u.dv[k]) u.dv[k] = u.rd_slow == 0 || (int)(rng() % 1000) >= u.rd_slow;
        VlWide<16> d;
        for (int w = 0; w < 16; w++) d[w] = 0;
        bool last = false;
        if (u.dv[k]) {
            const UReq &r = q.front();
            uint32_t nb = (r.len + 63) / 64, off = r.beat * 64, n = std::min<uint32_t>(64, r.len - off);
            for (uint32_t i = 0; i < n; i++) d[i / 4] |= (uint32_t)ubyte(s.id, r.addr + off + i) << (8 * (i % 4));
            last = r.beat + 1 == nb;
            if (k == 0 && u.bad_last && r.beat == 0) last = !last;
        }
        if (k == 0) {
            m->urd_valid = u.dv[k];
            m->urd_data = d;
            m->urd_last = last;
        } else {
            m->utx_valid = u.dv[k];
            m->utx_data = d;
            m->utx_last = last;
        }
    }
}

static void us_sample(Side &s) {
    Vtb_rc_side *m = s.m.get();
    UStream &u = US[s.id];
    if (m->urx_valid && !m->urx_ready) u.stall_cycles++;
    if (m->urx_valid && m->urx_ready) {
        UChunk h;
        h.addr = m->urx_addr, h.len = m->urx_len, h.qpn = m->urx_qpn;
        h.first = m->urx_first, h.msg_last = m->urx_msg_last, h.send = m->urx_send;
        if (!u.in_chunk) {
            u.in_chunk = true;
            u.cur = h;
            u.beats = 0;
        } else if (h.addr != u.cur.addr || h.len != u.cur.len || h.qpn != u.cur.qpn || h.first != u.cur.first ||
                   h.msg_last != u.cur.msg_last || h.send != u.cur.send) {
            fail("side %d m_urx: a header field changed inside a chunk (addr %llx len %u qpn %u)", s.id,
                 (unsigned long long)u.cur.addr, u.cur.len, u.cur.qpn);
        }
        uint32_t nb = (u.cur.len + 63) / 64, off = u.beats * 64, n = std::min<uint32_t>(64, u.cur.len - std::min(off, u.cur.len));
        uint64_t exp_keep = n >= 64 ? ~0ull : ((1ull << n) - 1);
        if (u.cur.len == 0 || u.beats >= nb) fail("side %d m_urx: beat %u of a %u-byte chunk", s.id, u.beats, u.cur.len);
        if ((uint64_t)m->urx_keep != exp_keep)
            fail("side %d m_urx: chunk %llx len %u beat %u keep %016llx, expected %016llx", s.id, (unsigned long long)u.cur.addr,
                 u.cur.len, u.beats, (unsigned long long)m->urx_keep, (unsigned long long)exp_keep);
        if ((bool)m->urx_last != (u.beats + 1 == nb))
            fail("side %d m_urx: last %d on beat %u of %u", s.id, (int)m->urx_last, u.beats, nb);
        for (uint32_t i = 0; i < n; i++) u.cur.data.push_back((uint8_t)(m->urx_data[i / 4] >> (8 * (i % 4))));
        u.beats++;
        if (m->urx_last) {
            u.in_chunk = false;
            u.chunks++;
            u.rx_bytes += u.cur.len;
            auto &q = u.exp_rx[u.cur.qpn];
            if (q.empty()) {
                fail("side %d m_urx: unexpected chunk qpn %u addr %llx len %u first %d last %d send %d", s.id, u.cur.qpn,
                     (unsigned long long)u.cur.addr, u.cur.len, u.cur.first, u.cur.msg_last, u.cur.send);
            } else {
                const UChunk &e = q.front();
                if (e.addr != u.cur.addr || e.len != u.cur.len || e.first != u.cur.first || e.msg_last != u.cur.msg_last ||
                    e.send != u.cur.send)
                    fail("side %d m_urx qpn %u (op %d): expected chunk addr %llx len %u first %d last %d send %d, got addr "
                         "%llx len %u first %d last %d send %d", s.id, u.cur.qpn, e.op, (unsigned long long)e.addr, e.len,
                         e.first, e.msg_last, e.send, (unsigned long long)u.cur.addr, u.cur.len, u.cur.first,
                         u.cur.msg_last, u.cur.send);
                else if (e.data != u.cur.data)
                    fail("side %d m_urx qpn %u (op %d): chunk addr %llx len %u: bytes differ", s.id, u.cur.qpn, e.op,
                         (unsigned long long)e.addr, e.len);
                q.pop_front();
            }
            u.cur = UChunk();
        }
    }
    for (int k = 0; k < 2; k++) {
        if (u.use_null) continue;   // (tb_rc_side answers with roce_ustream_null)
        bool rv = k ? m->utx_req_valid : m->urd_req_valid, rr = k ? m->utx_req_ready : m->urd_req_ready;
        if (rv && rr) {
            UReq r{k ? (uint64_t)m->utx_req_addr : (uint64_t)m->urd_req_addr, k ? m->utx_req_len : m->urd_req_len,
                   k ? m->utx_req_qpn : m->urd_req_qpn, 0};
            bool ok = false;
            for (auto &rg : u.ranges[k][r.qpn]) ok |= r.addr >= rg.first && r.addr + r.len <= rg.second;
            if (!ok || r.len == 0 || r.len > 4096)
                fail("side %d %s request qpn %u addr %llx len %u: in no range a test allowed", s.id,
                     k ? "m_utx_req" : "m_urd_req", r.qpn, (unsigned long long)r.addr, r.len);
            u.rq[k].push_back(r);
            u.reqs[k]++;
        }
        bool dv = k ? m->utx_valid : m->urd_valid, dr = k ? m->utx_ready : m->urd_ready;
        if (dv && dr) {
            UReq &r = u.rq[k].front();
            if (u.bad_last && r.beat == 0 && k == 0) u.bad_last--;
            u.beats_out[k]++;
            u.dv[k] = false;
            if (++r.beat == (r.len + 63) / 64) u.rq[k].pop_front();
        }
    }
}

// ------------------------------------------------------------------ setup
static void build_world(const wire::Config &wc, int npairs, int pmtu, uint32_t psn_base = 0, int first_q = 2) {
    cable.reset(new wire::Cable(wc));
    S[0].out = &cable->ab, S[0].in = &cable->ba;
    S[1].out = &cable->ba, S[1].in = &cable->ab;
    for (int s = 0; s < 2; s++) {
        mr_write(s, 1, MR1_BASE, MR1_LEN, 0xF);
        mr_write(s, 2, MR2_BASE, MR2_LEN, 0xF);
        mr_write(s, 3, MR3_BASE, MR3_LEN, 0x1);
    }
    pairs.clear();
    for (int i = 0; i < npairs; i++) {
        Pair p;
        p.q[0] = first_q + i;
        p.q[1] = first_q + 100 + i;
        pairs.push_back(p);
        pair_connect(pairs.back(), pmtu, (psn_base + i * 0x10101) & PSN_MASK, (psn_base + 0x777 + i * 0x1357) & PSN_MASK);
    }
}

static void reset_all() {
    for (int s = 0; s < 2; s++) {
        S[s].m->rst = 1;
        S[s].m->req = 0;
    }
    run(10);
    for (int s = 0; s < 2; s++) S[s].m->rst = 0;
    // The tables' start-up sweep: one row per cycle, NQP QP rows (and the
    // engines' own clearing alongside) and NMR MR rows, sized from caps. A
    // qp_write/mr_write commit is held while its table sweeps, but only one:
    // a second commit restages the registers under the first, so nothing is
    // written before the sweep has ended (at NQP 4096 the sweep is 4096 cycles).
    uint32_t sweep = 0;
    for (int s = 0; s < 2; s++) {
        uint32_t c = rd(s, ROCE_CAPS);
        uint32_t lq = (c & ROCE_CAPS_LOG2_NQP_MASK) >> ROCE_CAPS_LOG2_NQP_SHIFT;
        uint32_t lm = (c & ROCE_CAPS_LOG2_NMR_MASK) >> ROCE_CAPS_LOG2_NMR_SHIFT;
        if (lq > 24 || lm > 24) fatal("side %d: caps 0x%x out of range", s, c);
        SQ_DEPTH = 1 << ((c & ROCE_CAPS_LOG2_SQ_DEPTH_MASK) >> ROCE_CAPS_LOG2_SQ_DEPTH_SHIFT);
        RQ_DEPTH = 1 << ((c & ROCE_CAPS_LOG2_RQ_DEPTH_MASK) >> ROCE_CAPS_LOG2_RQ_DEPTH_SHIFT);
        sweep = std::max(sweep, std::max(1u << lq, 1u << lm));
    }
    run(sweep + 64);
}

static void init_sides() {
    ctx.reset(new VerilatedContext);
    for (int s = 0; s < 2; s++) {
        Side &d = S[s];
        d.id = s;
        d.m.reset(new Vtb_rc_side(ctx.get(), s ? "side1" : "side0"));
        uint8_t mac[6] = {0x02, 0x00, 0x5e, 0x00, 0x00, (uint8_t)(0x10 + s)};
        memcpy(d.mac, mac, 6);
        d.ip = 0x0A000064 + s;
        d.m->inst_id = s;
        d.m->our_mac = ((uint64_t)mac[0] << 40) | ((uint64_t)mac[1] << 32) | ((uint64_t)mac[2] << 24) |
                       ((uint64_t)mac[3] << 16) | ((uint64_t)mac[4] << 8) | mac[5];
        d.m->our_ip = d.ip;
        d.m->clk = 0;
        d.m->req = 0;
        d.m->tx_tready = 0;
        d.m->rx_tvalid = 0;
        d.m->wr_valid = 0;
        d.m->cpl_ready = 1;
    }
    wire::Config wc;
    cable.reset(new wire::Cable(wc));
    S[0].out = &cable->ab, S[0].in = &cable->ba;
    S[1].out = &cable->ba, S[1].in = &cable->ab;
    reset_all();
}

// every pair, both directions, a random mix (the campaign's generator)
static int pick_op(std::mt19937_64 &r) {
    return (int)(r() % 7);
}
static uint32_t pick_len(std::mt19937_64 &r, int pmtu, bool big_ok) {
    uint32_t m = mtu_of(pmtu);
    switch (r() % 10) {
    case 0: return 0;
    case 1: return 1 + (uint32_t)(r() % 64);
    case 2: return m - 1 + (uint32_t)(r() % 3);           // around one MTU
    case 3: return 2 * m + (uint32_t)(r() % 3) - 1;
    case 4: return big_ok && r() % 8 == 0 ? 65536 + (uint32_t)(r() % 200000) : (uint32_t)(r() % 4096);
    default: return (uint32_t)(r() % (4 * m + 1));
    }
}

// post `n` random ops over all pairs from both sides, keeping within the queues
static void campaign(int n, bool big_ok) {
    int posted = 0;
    uint64_t last_print = cyc;
    while (posted < n) {
        int side = (int)(rng() % 2), pi = (int)(rng() % pairs.size());
        Pair &p = pairs[pi];
        int op = pick_op(rng);
        bool recv = op == OP_SEND || op == OP_SEND_IMM || op == OP_WRITE_IMM;
        if (sq_out(side, p.q[side]) >= SQ_DEPTH || (recv && rq_out(side ^ 1, p.q[side ^ 1]) >= RQ_DEPTH)) {
            poll_all();
            continue;
        }
        make_op(side, pi, op, pick_len(rng, p.pmtu, big_ok));
        posted++;
        if (posted % 4 == 0) {
            poll_side(0);
            poll_side(1);
            check_deadlines();
        }
        if (getenv("RC_PROGRESS") && cyc - last_print > 1000000) {
            printf("  .. %d posted, %zu outstanding, cycle %llu\n", posted, outstanding(), (unsigned long long)cyc);
            fflush(stdout);
            last_print = cyc;
        }
    }
    drain();
}

// ------------------------------------------------------------------ report
static void counters(int side) {
    struct { const char *n; uint32_t a; } cs[] = {
        {"rx_packets", ROCE_RX_PACKETS}, {"icrc_bad", ROCE_RX_ICRC_BAD}, {"drop_qp", ROCE_RESP_DROP_QP},
        {"resp_dup", ROCE_RESP_DUP}, {"nak_seq", ROCE_RESP_NAK_SEQ}, {"nak_inv", ROCE_RESP_NAK_INV},
        {"nak_acc", ROCE_RESP_NAK_ACC}, {"nak_rnr", ROCE_RESP_NAK_RNR}, {"nak_op", ROCE_RESP_NAK_OP},
        {"retrans", ROCE_REQ_RETRANS}, {"timeouts", ROCE_REQ_TIMEOUTS}, {"rnr_waits", ROCE_REQ_RNR_WAITS},
        {"naks_rx", ROCE_REQ_NAKS}, {"comp_drop", ROCE_COMP_DROP_RESP}, {"tx_packets", ROCE_TX_PACKETS},
        {"rq_overflow", ROCE_RQ_OVERFLOW}, {"sq_refused", ROCE_SQ_REFUSED}};
    printf("  side %d:", side);
    for (auto &c : cs) printf(" %s=%u", c.n, rd(side, c.a));
    printf(" | rx_stall_cycles=%llu rxq_max=%zu\n", (unsigned long long)S[side].rx_stall, S[side].rxq_max);
}
static uint32_t ctr(int side, uint32_t a) { return rd(side, a); }
static void dump_state() {
    static bool once = false;
    if (once) return;
    once = true;
    max_cycles = cyc + 100000;
    counters(0);
    counters(1);
}

static uint32_t rq_overflow_expected[2] = {0, 0};   // firmware receive posts a test made to be refused
static void final_checks() {
    for (int s = 0; s < 2; s++) {
        if (S[s].bad_keep) fail("side %d sent %llu beats with a bad tkeep", s, (unsigned long long)S[s].bad_keep);
        auto st = mem_model_get_stats(s);
        if (st.violations) fail("memory %d saw %llu AXI protocol violations", s, (unsigned long long)st.violations);
        if (ctr(s, ROCE_SQ_REFUSED)) fail("side %d refused %u posts (the bench never overfills)", s, ctr(s, ROCE_SQ_REFUSED));
        if (ctr(s, ROCE_RQ_OVERFLOW) != rq_overflow_expected[s])
            fail("side %d: rq_overflow %u (expected %u)", s, ctr(s, ROCE_RQ_OVERFLOW), rq_overflow_expected[s]);
        if (us_pending(s)) fail("side %d: %zu streaming chunks / requests expected or unanswered at the end", s, us_pending(s));
    }
    for (auto &o : ops)
        if (o->signaled && !o->done) fail("op %d (%s) never completed", o->id, opname[o->op]);
    for (auto &kv : exp_usr)
        if (!kv.second.empty()) fail("side %d qpn %u: %zu user completions never came", kv.first.first, kv.first.second,
                                     kv.second.size());
}

#include "tests.inc"

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    std::string test = "smoke";
    int nops = 0;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a.rfind("+test=", 0) == 0) test = a.substr(6);
        if (a.rfind("+seed=", 0) == 0) seed_arg = strtoull(a.c_str() + 6, nullptr, 0);
        if (a.rfind("+ops=", 0) == 0) nops = atoi(a.c_str() + 5);
        if (a.rfind("+maxcyc=", 0) == 0) max_cycles = strtoull(a.c_str() + 8, nullptr, 0);
    }
    rng.seed(seed_arg);
    init_sides();
    int rc = run_test(test, nops);
    if (rc == 2) return 2;
    final_checks();
    printf("test %s seed %llu: %zu ops, %llu CQEs (%llu receive), %llu payload bytes checked, %llu cycles\n",
           test.c_str(), (unsigned long long)seed_arg, ops.size(), (unsigned long long)n_cqe,
           (unsigned long long)n_recv_cqe, (unsigned long long)bytes_ok, (unsigned long long)cyc);
    counters(0);
    counters(1);
    auto ab = cable->ab.stats(), ba = cable->ba.stats();
    printf("  wire a->b: %llu frames, %llu dropped, %llu reordered, %llu duplicated, %llu corrupted; b->a: %llu frames, "
           "%llu dropped, %llu reordered, %llu duplicated, %llu corrupted\n",
           (unsigned long long)ab.frames_in, (unsigned long long)ab.dropped, (unsigned long long)ab.reordered,
           (unsigned long long)ab.duplicated, (unsigned long long)ab.corrupted, (unsigned long long)ba.frames_in,
           (unsigned long long)ba.dropped, (unsigned long long)ba.reordered, (unsigned long long)ba.duplicated,
           (unsigned long long)ba.corrupted);
    for (auto &s : S) s.m->final();
    for (auto &s : S) s.m.reset();
    fflush(stdout);
    if (n_fail || rc) {
        printf("FAILED (%d)\n", n_fail);
        return 1;
    }
    printf("PASSED\n");
    return 0;
}
