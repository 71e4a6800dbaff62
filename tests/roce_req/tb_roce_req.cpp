// tb_roce_req.cpp: tests of the send side of the RC transport (requester,
// completer, send queue, CQ, TX mux) against a C++ model of a peer responder.
//
// The peer is written from the IB rules (IBTA vol. 1 ch. 9: PSN checks,
// opcode sequences, ACK/NAK, READ responses, atomics), not from the RTL: it
// sees whole frames (Eth/IPv4/UDP/BTH/...) as a wire would, checks every
// header field the requester owns, executes the requests on its own memory,
// and answers with frames into the RX parser. Faults by seed: drop,
// duplicate and delay on both directions, RNR NAKs, fatal NAKs, silence.
// Every byte moved is compared with its source; every CQE with the WR the
// test posted (order, wr_id, status, opcode, length).
//
// Usage: Vtb_roce_req +test=NAME [+seed=N]   (exit 0 = pass)
#include "Vtb_roce_req.h"
#include "verilated.h"
#include "mem_model.h"

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
#include <string>
#include <vector>
#include <unistd.h>

// ------------------------------------------------------------------ basics
static std::unique_ptr<Vtb_roce_req> top;
static uint64_t cyc = 0;
static int n_fail = 0;
static bool trace = getenv("TB_TRACE") != nullptr;
static const int ACKREQ_EVERY = 16;   // bench parameter of roce_req
static const int SQ_DEPTH = 16;

static void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stdout, "FAIL @%llu: ", (unsigned long long)cyc);
    vfprintf(stdout, fmt, ap);
    fprintf(stdout, "\n");
    va_end(ap);
    if (++n_fail > 20) {
        printf("too many failures\n");
        fflush(stdout);
        _exit(1);
    }
}

static inline uint32_t psn_add(uint32_t a, uint32_t b) { return (a + b) & 0xFFFFFF; }
static inline uint32_t psn_sub(uint32_t a, uint32_t b) { return (a - b) & 0xFFFFFF; }

// local (NIC) memory pattern: a pure function of address and seed
static uint8_t lpat(uint64_t a, uint32_t seed) {
    uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (uint64_t)seed * 0xD1B54A32D192ED03ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return (uint8_t)x;
}

static void lmem_fill(uint64_t addr, uint64_t len, uint32_t seed) {
    std::vector<uint8_t> b(65536);
    for (uint64_t o = 0; o < len; o += b.size()) {
        size_t n = (size_t)std::min<uint64_t>(b.size(), len - o);
        for (size_t i = 0; i < n; i++) b[i] = lpat(addr + o + i, seed);
        mem_model_write(0, addr + o, b.data(), n);
    }
}
static std::vector<uint8_t> lmem_read(uint64_t addr, uint64_t len) {
    std::vector<uint8_t> b(len);
    if (len) mem_model_read(0, addr, b.data(), len);
    return b;
}

// remote (peer) memory
static const uint64_t RBASE = 0x200000000ull;
static std::vector<uint8_t> rmem(48u << 20);
static uint8_t *rptr(uint64_t va, uint64_t len) {
    if (va < RBASE || va - RBASE + len > rmem.size()) return nullptr;
    return &rmem[va - RBASE];
}

// ------------------------------------------------------------------ work requests
enum { OP_WRITE = 0, OP_WRITE_IMM = 1, OP_SEND = 2, OP_SEND_IMM = 3, OP_READ = 4, OP_CMP_SWAP = 5, OP_FETCH_ADD = 6 };
static const char *opname[] = {"WRITE", "WRITE_IMM", "SEND", "SEND_IMM", "READ", "CMP_SWAP", "FETCH_ADD"};
enum { WC_SUCCESS = 0, WC_LOC_QP_OP_ERR = 2, WC_LOC_PROT_ERR = 4, WC_WR_FLUSH_ERR = 5, WC_REM_INV_REQ_ERR = 9,
       WC_REM_ACCESS_ERR = 10, WC_REM_OP_ERR = 11, WC_RETRY_EXC_ERR = 12, WC_RNR_RETRY_EXC_ERR = 13 };
static const int wc_op_of[] = {1, 1, 0, 0, 2, 3, 4};

struct WR {
    int op;
    uint32_t qpn;
    uint64_t laddr, raddr;
    uint32_t lkey, rkey, len, imm;
    uint64_t cmp, swp, wr_id;
    bool signaled = true;
    int exp_status = WC_SUCCESS;
    bool exp_any_error = false;     // a status other than SUCCESS is all that is known
    bool posted = false, completed = false;
    uint64_t t_post = 0;
    uint64_t atomic_orig = 0;       // what the peer returned
    bool peer_done = false;
};
static std::deque<WR> wrs;          // every WR of the test, in posting order

// ------------------------------------------------------------------ peer model
struct Faults {
    unsigned drop_req = 0, drop_rsp = 0, dup_req = 0, dup_rsp = 0;  // per mille
    unsigned lat = 40, jitter = 0;    // response latency (cycles), extra random (order kept)
    unsigned rnr_per_send = 0;        // RNR NAKs before each SEND is accepted
    unsigned rnr_timer = 1;           // AETH RNR timer code
    int fatal_msg = -1, fatal_code = 0;   // NAK this message (index) with this code
    int silent_after = -1;            // stop answering from this message on
    int implicit_read = -1;           // drop the second half of this READ message's responses, once
    int64_t drop_psn = -1;            // drop the request with this PSN, once
    unsigned ack_every = 1;           // coalescing: ACK only every n-th AckReq WRITE/SEND packet
    bool strict = true;               // no faults: every packet must be in order
};

struct ReadRec { uint64_t va; uint32_t len, n; };

struct PeerQP {
    uint32_t nic_qpn = 0, peer_qpn = 0;
    uint32_t pmtu = 1024;
    uint32_t epsn = 0, msn = 0;
    int cur = -1;                     // message in progress: -1 none, 0 SEND, 1 WRITE
    uint64_t w_va = 0;
    uint32_t w_len = 0, w_got = 0;
    std::vector<uint8_t> sbuf;
    bool nak_ep = false;
    int since_ackreq = 0;
    int sport = -1;
    std::vector<WR *> expect;         // the WRs of this QP in posting order
    size_t msg = 0;                   // messages accepted in order
    std::map<uint32_t, ReadRec> reads;
    std::map<uint32_t, uint64_t> atomics;
    unsigned rnr_left = 0;
    bool dead = false;                // after a fatal NAK: silent
    bool implicit_done = false;
    uint64_t pkts = 0, dups = 0, oos = 0;
    unsigned ackreqs = 0;
};
static std::map<uint32_t, PeerQP> peers;   // by peer QPN (the requester's dest QP)
static Faults flt;
static std::mt19937_64 rng(1);
static bool chance(unsigned pm) { return pm && (rng() % 1000) < pm; }

static const uint8_t NIC_MAC[6] = {2, 0, 0, 0, 0, 1};
static const uint32_t NIC_IP = 0x0A000001;
static uint8_t peer_mac(int i) { return (uint8_t)(0x10 + i); }

// response frames towards the NIC
struct OutFrame { uint64_t due; std::vector<uint8_t> b; };
static std::deque<OutFrame> outq;
static uint64_t last_due = 0;

static void put16(std::vector<uint8_t> &b, uint32_t v) { b.push_back(v >> 8); b.push_back(v); }
static void put24(std::vector<uint8_t> &b, uint32_t v) { b.push_back(v >> 16); b.push_back(v >> 8); b.push_back(v); }
static void put32(std::vector<uint8_t> &b, uint32_t v) { put16(b, v >> 16); put16(b, v); }
static void put64(std::vector<uint8_t> &b, uint64_t v) { put32(b, v >> 32); put32(b, (uint32_t)v); }
static uint32_t get16(const uint8_t *p) { return (p[0] << 8) | p[1]; }
static uint32_t get24(const uint8_t *p) { return (p[0] << 16) | (p[1] << 8) | p[2]; }
static uint32_t get32(const uint8_t *p) { return (get16(p) << 16) | get16(p + 2); }
static uint64_t get64(const uint8_t *p) { return ((uint64_t)get32(p) << 32) | get32(p + 4); }

static void send_rsp(PeerQP &q, uint8_t opcode, uint32_t psn, int syndrome, bool atomic, uint64_t orig,
                     const uint8_t *pay, uint32_t plen) {
    std::vector<uint8_t> r;
    uint32_t pad = (4 - (plen & 3)) & 3;
    uint32_t roce = 12 + (syndrome >= 0 ? 4 : 0) + (atomic ? 8 : 0) + plen + pad + 4;
    // Ethernet
    for (int i = 0; i < 6; i++) r.push_back(NIC_MAC[i]);
    for (int i = 0; i < 6; i++) r.push_back(i == 5 ? peer_mac(q.peer_qpn & 0x3F) : 2 * (i == 0));
    put16(r, 0x0800);
    // IPv4
    size_t ip0 = r.size();
    r.push_back(0x45); r.push_back(0); put16(r, 20 + 8 + roce); put16(r, 0); put16(r, 0x4000);
    r.push_back(64); r.push_back(17); put16(r, 0);
    put32(r, 0x0A000100 | (q.peer_qpn & 0xFF)); put32(r, NIC_IP);
    uint32_t s = 0;
    for (int i = 0; i < 20; i += 2) s += get16(&r[ip0 + i]);
    while (s >> 16) s = (s & 0xFFFF) + (s >> 16);
    r[ip0 + 10] = (~s >> 8) & 0xFF; r[ip0 + 11] = ~s & 0xFF;
    // UDP
    put16(r, 0xC000 | (q.peer_qpn & 0x3FFF)); put16(r, 4791); put16(r, 8 + roce); put16(r, 0);
    // BTH
    r.push_back(opcode); r.push_back(pad << 4); put16(r, 0xFFFF);
    r.push_back(0); put24(r, q.nic_qpn);
    r.push_back(0); put24(r, psn);
    if (syndrome >= 0) { r.push_back(syndrome); put24(r, q.msn); }
    if (atomic) put64(r, orig);
    for (uint32_t i = 0; i < plen; i++) r.push_back(pay[i]);
    for (uint32_t i = 0; i < pad + 4; i++) r.push_back(0);
    if (q.dead) return;
    if (chance(flt.drop_rsp)) return;
    uint64_t due = std::max<uint64_t>(cyc + flt.lat + (flt.jitter ? rng() % flt.jitter : 0), last_due);
    last_due = due;
    outq.push_back({due, r});
    if (chance(flt.dup_rsp)) outq.push_back({due, r});
}

static void send_ack(PeerQP &q, uint32_t psn, int syn) { send_rsp(q, 0x11, psn, syn, false, 0, nullptr, 0); }

static void read_responses(PeerQP &q, uint32_t psn, uint64_t va, uint32_t len, bool drop_first) {
    uint32_t n = len == 0 ? 1 : (len + q.pmtu - 1) / q.pmtu;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t off = k * q.pmtu;
        uint32_t pl = std::min(q.pmtu, len - off);
        if (len == 0) pl = 0;
        uint8_t op = n == 1 ? 0x10 : k == 0 ? 0x0D : k == n - 1 ? 0x0F : 0x0E;
        bool aeth = op != 0x0E;
        if (drop_first && k >= n / 2) continue;
        uint8_t *src = rptr(va + off, pl);
        if (!src) { fail("peer: READ source outside remote memory"); return; }
        send_rsp(q, op, psn_add(psn, k), aeth ? 0x1F : -1, false, 0, src, pl);
    }
}

static uint64_t frames_rx = 0;

// one request frame from the NIC (without ICRC)
static void peer_rx(const std::vector<uint8_t> &f) {
    frames_rx++;
    if (trace && f.size() >= 54) printf("@%llu pkt qp %06x op %02x psn %06x ackreq %d len %zu\n", (unsigned long long)cyc,
                                        get24(&f[47]), f[42], get24(&f[51]), f[50] >> 7, f.size());
    if (f.size() < 54) { fail("frame of %zu bytes: shorter than Eth/IP/UDP/BTH", f.size()); return; }
    const uint8_t *ip = &f[14], *udp = &f[34], *bth = &f[42];
    if (get16(&f[12]) != 0x0800 || ip[0] != 0x45 || ip[9] != 17 || get16(udp + 2) != 4791)
        { fail("not an IPv4/UDP 4791 frame"); return; }
    if (get16(ip + 2) + 14 != f.size() + 4)
        { fail("IPv4 total length %u does not match frame %zu + ICRC", get16(ip + 2), f.size()); return; }
    if (get16(udp + 4) != get16(ip + 2) - 20) fail("UDP length %u, IP says %u", get16(udp + 4), get16(ip + 2) - 20);
    if (ip[8] != 64 || get16(ip + 6) != 0x4000) fail("TTL/DF: got ttl %u flags %04x", ip[8], get16(ip + 6));
    if (memcmp(&f[6], NIC_MAC, 6) != 0) fail("source MAC is not the NIC's");
    uint8_t opc = bth[0];
    uint32_t pad = (bth[1] >> 4) & 3;
    if ((bth[1] & 0x0F) != 0) fail("BTH TVer/M not 0: %02x", bth[1]);
    if (get16(bth + 2) != 0xFFFF) fail("P_Key %04x, expected FFFF", get16(bth + 2));
    uint32_t dqpn = get24(bth + 5);
    bool ackreq = bth[8] & 0x80;
    uint32_t psn = get24(bth + 9);
    auto it = peers.find(dqpn);
    if (it == peers.end()) { fail("packet for unknown destination QP %06x", dqpn); return; }
    PeerQP &q = it->second;
    q.pkts++;
    // per-QP constants of the headers
    uint8_t exp_mac[6] = {2, 0, 0, 0, 0, peer_mac(dqpn & 0x3F)};
    if (memcmp(&f[0], exp_mac, 6) != 0) fail("QP %06x: destination MAC is not the QP's", dqpn);
    if (get32(ip + 16) != (0x0A000100 | (dqpn & 0xFF))) fail("QP %06x: destination IP %08x", dqpn, get32(ip + 16));
    int sport = get16(udp);
    if (q.sport < 0) q.sport = sport;
    else if (q.sport != sport) fail("QP %06x: UDP source port changed %d -> %d", dqpn, q.sport, sport);
    // opcode table (requests of RC)
    int kind, pos; bool reth = false, imm = false, aeth_ = false, atom = false, haspay = true;
    switch (opc) {
    case 0x00: kind = 0; pos = 0; break;
    case 0x01: kind = 0; pos = 1; break;
    case 0x02: kind = 0; pos = 2; break;
    case 0x03: kind = 0; pos = 2; imm = true; break;
    case 0x04: kind = 0; pos = 3; break;
    case 0x05: kind = 0; pos = 3; imm = true; break;
    case 0x06: kind = 1; pos = 0; reth = true; break;
    case 0x07: kind = 1; pos = 1; break;
    case 0x08: kind = 1; pos = 2; break;
    case 0x09: kind = 1; pos = 2; imm = true; break;
    case 0x0A: kind = 1; pos = 3; reth = true; break;
    case 0x0B: kind = 1; pos = 3; reth = true; imm = true; break;
    case 0x0C: kind = 2; pos = 3; reth = true; haspay = false; break;
    case 0x13: kind = 3; pos = 3; atom = true; haspay = false; break;
    case 0x14: kind = 4; pos = 3; atom = true; haspay = false; break;
    default: fail("QP %06x: opcode %02x is not an RC request", dqpn, opc); return;
    }
    (void)aeth_;
    size_t h = 54;
    uint64_t va = 0; uint32_t rkey = 0, dlen = 0, immv = 0; uint64_t swp = 0, cmpv = 0;
    if (reth) { va = get64(&f[h]); rkey = get32(&f[h + 8]); dlen = get32(&f[h + 12]); h += 16; }
    if (atom) { va = get64(&f[h]); rkey = get32(&f[h + 8]); swp = get64(&f[h + 12]); cmpv = get64(&f[h + 20]); h += 28; }
    if (imm) { immv = get32(&f[h]); h += 4; }
    if (f.size() < h + pad) { fail("QP %06x: frame shorter than headers + pad", dqpn); return; }
    uint32_t plen = f.size() - h - pad;
    if (!haspay && (plen || pad)) fail("QP %06x: opcode %02x carries %u payload bytes", dqpn, opc, plen);
    if (pad != ((4 - (plen & 3)) & 3)) fail("QP %06x: pad count %u for %u payload bytes", dqpn, pad, plen);
    for (uint32_t i = 0; i < pad; i++) if (f[h + plen + i]) fail("pad byte not zero");
    const uint8_t *pay = &f[h];
    // packet-level rules of a requester
    if ((pos == 0 || pos == 1) && plen != q.pmtu)
        fail("QP %06x PSN %06x: %s packet of %u bytes, PMTU %u", dqpn, psn, pos ? "MIDDLE" : "FIRST", plen, q.pmtu);
    if ((pos == 2 || pos == 3) && plen > q.pmtu) fail("QP %06x: LAST/ONLY of %u bytes > PMTU", dqpn, plen);
    if (pos == 2 && plen == 0) fail("QP %06x: LAST packet without payload", dqpn);
    if ((pos >= 2 || kind >= 2) && !ackreq) fail("QP %06x PSN %06x opcode %02x: AckReq missing", dqpn, psn, opc);
    q.since_ackreq = ackreq ? 0 : q.since_ackreq + 1;
    if (flt.strict && q.since_ackreq >= ACKREQ_EVERY)
        fail("QP %06x: %d packets in a row without AckReq (max %d)", dqpn, q.since_ackreq, ACKREQ_EVERY - 1);

    if (q.dead) return;
    if (flt.silent_after >= 0 && (int)q.msg >= flt.silent_after) return;
    if (chance(flt.drop_req)) return;
    if (flt.drop_psn >= 0 && psn == (uint32_t)flt.drop_psn) { flt.drop_psn = -1; return; }

    uint32_t d = psn_sub(psn, q.epsn);
    if (d != 0 && flt.strict) fail("QP %06x: PSN %06x, expected %06x (no faults in this test)", dqpn, psn, q.epsn);
    if (d >= 0x800000) {
        // ------------------------------------------------ duplicate
        q.dups++;
        if (kind == 2) {
            const ReadRec *rr = nullptr; uint32_t start = 0;
            for (auto &kv : q.reads) {
                if (psn_sub(psn, kv.first) < kv.second.n) { rr = &kv.second; start = kv.first; }
            }
            if (!rr) { fail("QP %06x: duplicate READ at PSN %06x matches no READ", dqpn, psn); return; }
            uint64_t off = (uint64_t)psn_sub(psn, start) * q.pmtu;
            if (va != rr->va + off || dlen != rr->len - off)
                fail("QP %06x: resumed READ at PSN %06x: va %llx len %u, expected va %llx len %llu", dqpn, psn,
                     (unsigned long long)va, dlen, (unsigned long long)(rr->va + off),
                     (unsigned long long)(rr->len - off));
            read_responses(q, psn, va, dlen, false);
        } else if (kind >= 3) {
            auto a = q.atomics.find(psn);
            if (a == q.atomics.end()) fail("QP %06x: duplicate atomic PSN %06x unknown", dqpn, psn);
            else send_rsp(q, 0x12, psn, 0x1F, true, a->second, nullptr, 0);
        } else if (ackreq) {
            send_ack(q, psn_sub(q.epsn, 1), 0x1F);
        }
        return;
    }
    if (d != 0) {
        q.oos++;
        if (!q.nak_ep) { q.nak_ep = true; send_ack(q, q.epsn, 0x60); }
        return;
    }
    // ---------------------------------------------------- in order
    q.nak_ep = false;
    if (q.msg >= q.expect.size()) { fail("QP %06x: message %zu was never posted", dqpn, q.msg); return; }
    WR &w = *q.expect[q.msg];
    int wkind = (w.op <= 1) ? 1 : (w.op <= 3) ? 0 : (w.op == 4) ? 2 : (w.op == 5) ? 3 : 4;
    if ((pos == 1 || pos == 2) && q.cur != kind) { fail("QP %06x: %02x without a FIRST", dqpn, opc); return; }
    if ((pos == 0 || pos == 3) && q.cur >= 0) { fail("QP %06x: %02x inside a message", dqpn, opc); return; }
    if (wkind != kind) { fail("QP %06x msg %zu: opcode %02x, the WR is %s", dqpn, q.msg, opc, opname[w.op]); return; }
    bool last = pos >= 2;
    bool want_imm = (w.op == OP_WRITE_IMM || w.op == OP_SEND_IMM) && last;
    if (kind <= 1 && imm != want_imm) fail("QP %06x: opcode %02x, immediate expected %d", dqpn, opc, want_imm);
    if (imm && immv != w.imm) fail("QP %06x: immediate %08x, expected %08x", dqpn, immv, w.imm);
    if ((int)q.msg == flt.fatal_msg && (pos == 0 || pos == 3)) {
        send_ack(q, psn, 0x60 | flt.fatal_code);
        q.dead = true;
        return;
    }
    if (kind == 0 && (pos == 0 || pos == 3) && q.rnr_left > 0) {
        q.rnr_left--;
        send_ack(q, psn, 0x20 | flt.rnr_timer);
        return;
    }
    switch (kind) {
    case 0:   // SEND
        if (pos == 0 || pos == 3) q.sbuf.clear();
        q.sbuf.insert(q.sbuf.end(), pay, pay + plen);
        q.cur = last ? -1 : 0;
        if (last) {
            if (q.sbuf.size() != w.len) fail("QP %06x: SEND of %zu bytes, WR has %u", dqpn, q.sbuf.size(), w.len);
            else if (q.sbuf != lmem_read(w.laddr, w.len)) fail("QP %06x: SEND data differs from the source", dqpn);
            q.msn++; q.msg++; q.rnr_left = flt.rnr_per_send; w.peer_done = true;
        }
        break;
    case 1:   // WRITE
        if (reth) {
            if (va != w.raddr || rkey != w.rkey || dlen != w.len)
                fail("QP %06x: RETH va %llx rkey %x len %u, WR va %llx rkey %x len %u", dqpn,
                     (unsigned long long)va, rkey, dlen, (unsigned long long)w.raddr, w.rkey, w.len);
            q.w_va = va; q.w_len = dlen; q.w_got = 0;
        }
        if (q.w_got + plen > q.w_len) { fail("QP %06x: WRITE longer than its RETH", dqpn); return; }
        if (plen) {
            uint8_t *dst = rptr(q.w_va + q.w_got, plen);
            if (!dst) { fail("WRITE outside remote memory"); return; }
            memcpy(dst, pay, plen);
        }
        q.w_got += plen;
        q.cur = last ? -1 : 1;
        if (last) {
            if (q.w_got != q.w_len) fail("QP %06x: WRITE of %u bytes, RETH says %u", dqpn, q.w_got, q.w_len);
            q.msn++; q.msg++; w.peer_done = true;
        }
        break;
    case 2: { // READ
        if (va != w.raddr || rkey != w.rkey || dlen != w.len)
            fail("QP %06x: READ va %llx rkey %x len %u, WR va %llx rkey %x len %u", dqpn,
                 (unsigned long long)va, rkey, dlen, (unsigned long long)w.raddr, w.rkey, w.len);
        uint32_t n = dlen == 0 ? 1 : (dlen + q.pmtu - 1) / q.pmtu;
        q.reads[psn] = {va, dlen, n};
        q.msn++; q.msg++;
        q.epsn = psn_add(q.epsn, n);
        bool drop = (int)(q.msg - 1) == flt.implicit_read && !q.implicit_done;
        if (drop) q.implicit_done = true;
        read_responses(q, psn, va, dlen, drop);
        w.peer_done = true;
        return;
    }
    default: { // atomics
        if (va != w.raddr || rkey != w.rkey || (kind == 3 && (cmpv != w.cmp || swp != w.swp)) ||
            (kind == 4 && swp != w.swp))
            fail("QP %06x: AtomicETH differs from the WR", dqpn);
        if (va & 7) { fail("atomic va not 8-byte aligned"); return; }
        uint8_t *m = rptr(va, 8);
        uint64_t orig = 0;
        memcpy(&orig, m, 8);
        uint64_t nv = kind == 3 ? (orig == cmpv ? swp : orig) : orig + swp;
        memcpy(m, &nv, 8);
        q.atomics[psn] = orig;
        w.atomic_orig = orig;
        q.msn++; q.msg++; w.peer_done = true;
        q.epsn = psn_add(q.epsn, 1);
        send_rsp(q, 0x12, psn, 0x1F, true, orig, nullptr, 0);
        return;
    }
    }
    q.epsn = psn_add(q.epsn, 1);
    if (ackreq && ++q.ackreqs % flt.ack_every == 0) send_ack(q, psn, 0x1F);
}

// ------------------------------------------------------------------ DUT access
static void set_wide(VlWide<16> &w, const uint8_t *b, size_t n) {
    for (int i = 0; i < 16; i++) w[i] = 0;
    for (size_t i = 0; i < n && i < 64; i++) w[i / 4] |= (uint32_t)b[i] << (8 * (i % 4));
}

struct QPCfg {
    uint32_t qpn, peer_qpn;
    int pmtu_enum = 3;
    uint32_t sq_psn = 0;
    int retry_cnt = 7, rnr_retry = 7, timeout = 12, max_rd_atomic = 4;   // 16.8 ms: never in a fault-free test
    int state = 3;
};

static void tick();

static void write_ctx(const QPCfg &c, int state) {
    top->ctx_we = 1;
    top->ctx_qpn = c.qpn;
    top->ctx_state = state;
    top->ctx_pmtu = c.pmtu_enum;
    top->ctx_remote_qpn = c.peer_qpn;
    top->ctx_remote_ip = 0x0A000100 | (c.peer_qpn & 0xFF);
    top->ctx_remote_mac = 0x020000000000ull | peer_mac(c.peer_qpn & 0x3F);
    top->ctx_udp_sport = 0xC000 | ((c.qpn * 0x9E37 + c.peer_qpn) & 0x3FFF);
    top->ctx_sq_psn = c.sq_psn;
    top->ctx_retry_cnt = c.retry_cnt;
    top->ctx_rnr_retry = c.rnr_retry;
    top->ctx_timeout = c.timeout;
    top->ctx_max_rd_atomic = c.max_rd_atomic;
    tick();
    top->ctx_we = 0;
}

static void setup_qp(const QPCfg &c) {
    write_ctx(c, 0);     // RESET: clears the QP's dynamic state
    for (int i = 0; i < 4; i++) tick();
    write_ctx(c, c.state);
    PeerQP &p = peers[c.peer_qpn];
    p = PeerQP();
    p.nic_qpn = c.qpn;
    p.peer_qpn = c.peer_qpn;
    p.pmtu = 128u << c.pmtu_enum;
    p.epsn = c.sq_psn;
    p.rnr_left = flt.rnr_per_send;
}

static const uint32_t LKEY = 0x00ABCD01, RKEY = 0x55AA0001;
static void write_mr(int idx, uint32_t key, uint64_t base, uint64_t len, unsigned access) {
    top->mr_we = 1; top->mr_idx = idx; top->mr_valid = 1; top->mr_access = access;
    top->mr_key = key; top->mr_base = base; top->mr_length = len;
    tick();
    top->mr_we = 0;
}

// ------------------------------------------------------------------ simulation loop
static std::deque<WR *> post_q;           // waiting to be posted, in order
static std::map<uint32_t, std::deque<WR *>> cq_expect;   // per QP: signaled WRs in posting order
static std::map<uint32_t, int> inflight;  // per QP: posted, not yet completed
static uint64_t n_cqe = 0;
static std::vector<uint8_t> txf, rxf;
static size_t rx_off = 0;
static bool rx_busy = false;
static uint64_t tx_first_beat = 0, tx_last_beat = 0, tx_beats = 0, first_pay_beat = 0;
static double wire_cycles = 0;
static std::function<void(const std::vector<uint8_t> &)> tx_hook;
static uint64_t rsp_frames = 0, req_frames = 0, rsp_pay_frames = 0;
static std::deque<uint32_t> rsp_lens;   // responder stand-in packets granted, in order
static bool rsp_mix = false;
static unsigned tx_stall = 0;              // per mille of cycles with tx_tready low
static uint64_t qp_err_events = 0;

static void check_cqe() {
    uint32_t qpn = top->cq_qpn;
    if (trace) printf("@%llu CQE qp %u wr_id %llx status %u op %u len %u\n", (unsigned long long)cyc, qpn,
                      (unsigned long long)top->cq_wr_id, top->cq_status, top->cq_opcode, top->cq_byte_len);
    auto &dq = cq_expect[qpn];
    if (dq.empty()) { fail("CQE for QP %u wr_id %llx: none expected", qpn, (unsigned long long)top->cq_wr_id); return; }
    WR &w = *dq.front();
    dq.pop_front();
    w.completed = true;
    inflight[qpn]--;
    n_cqe++;
    int st = top->cq_status;
    if (top->cq_wr_id != w.wr_id)
        fail("QP %u: CQE wr_id %llx, expected %llx (in order)", qpn, (unsigned long long)top->cq_wr_id,
             (unsigned long long)w.wr_id);
    if (w.exp_any_error ? st == WC_SUCCESS : st != w.exp_status)
        fail("QP %u wr_id %llx %s: status %d, expected %s%d", qpn, (unsigned long long)w.wr_id, opname[w.op], st,
             w.exp_any_error ? "an error, not " : "", w.exp_any_error ? 0 : w.exp_status);
    if (st == WC_SUCCESS) {
        if (top->cq_opcode != wc_op_of[w.op]) fail("wr_id %llx: CQE opcode %d, expected %d",
                                                   (unsigned long long)w.wr_id, top->cq_opcode, wc_op_of[w.op]);
        uint32_t bl = (w.op >= 5) ? 8 : w.len;
        if (top->cq_byte_len != bl) fail("wr_id %llx: byte_len %u, expected %u", (unsigned long long)w.wr_id,
                                        top->cq_byte_len, bl);
        if (!w.peer_done) fail("wr_id %llx completed before the peer executed it", (unsigned long long)w.wr_id);
        // data: the CQE must find it in place
        if (w.op == OP_READ) {
            auto got = lmem_read(w.laddr, w.len);
            uint8_t *src = rptr(w.raddr, w.len);
            if (w.len && memcmp(got.data(), src, w.len) != 0) {
                size_t i = 0;
                while (got[i] == src[i]) i++;
                fail("READ wr_id %llx: local byte %zu = %02x, remote %02x", (unsigned long long)w.wr_id, i, got[i], src[i]);
            }
        } else if (w.op <= 1) {
            auto src = lmem_read(w.laddr, w.len);
            uint8_t *dst = rptr(w.raddr, w.len);
            if (w.len && memcmp(src.data(), dst, w.len) != 0) fail("WRITE wr_id %llx: remote data differs", (unsigned long long)w.wr_id);
        } else if (w.op >= 5) {
            auto got = lmem_read(w.laddr, 8);
            uint64_t v;
            memcpy(&v, got.data(), 8);
            if (v != w.atomic_orig) fail("atomic wr_id %llx: local result %llx, peer's original %llx",
                                         (unsigned long long)w.wr_id, (unsigned long long)v, (unsigned long long)w.atomic_orig);
        }
    }
}

static WR *cur_post = nullptr;

static void tick() {
    // ---- inputs for this cycle
    // posts
    if (!cur_post && !post_q.empty()) {
        WR *w = post_q.front();
        if (inflight[w->qpn] < SQ_DEPTH) {
            post_q.pop_front();
            cur_post = w;
            inflight[w->qpn]++;
        }
    }
    if (cur_post) {
        WR &w = *cur_post;
        top->post_valid = 1; top->post_opcode = w.op; top->post_qpn = w.qpn; top->post_laddr = w.laddr;
        top->post_lkey = w.lkey; top->post_raddr = w.raddr; top->post_rkey = w.rkey; top->post_len = w.len;
        top->post_imm = w.imm; top->post_compare = w.cmp; top->post_swap_add = w.swp; top->post_wr_id = w.wr_id;
        top->post_signaled = w.signaled;
    } else {
        top->post_valid = 0;
    }
    // frames to the NIC
    if (!rx_busy && !outq.empty() && outq.front().due <= cyc) {
        rxf = outq.front().b;
        outq.pop_front();
        rx_busy = true;
        rx_off = 0;
    }
    if (rx_busy) {
        size_t n = std::min<size_t>(64, rxf.size() - rx_off);
        set_wide(top->rx_tdata, &rxf[rx_off], n);
        top->rx_tkeep = n == 64 ? ~0ull : ((1ull << n) - 1);
        top->rx_tlast = rx_off + n == rxf.size();
        top->rx_tvalid = 1;
    } else {
        top->rx_tvalid = 0;
    }
    top->tx_tready = !(tx_stall && (rng() % 1000) < tx_stall);
    top->cq_pop = 0;
    top->eval();
    bool cq_take = top->cq_valid;
    if (cq_take) { top->cq_pop = 1; top->eval(); }
    // ---- sample handshakes before the edge
    bool post_hs = top->post_valid && top->post_ready;
    bool rx_hs = top->rx_tvalid && top->rx_tready;
    bool tx_hs = top->tx_tvalid && top->tx_tready;
    bool rsp_hs = top->rsp_valid && top->rsp_ready;
    if (rsp_hs) rsp_lens.push_back(top->rsp_paylen);
    if (top->req_pay_beat && !first_pay_beat) first_pay_beat = cyc;
    if (cq_take) check_cqe();
    if (top->qp_err_valid) qp_err_events++;
    bool tx_end = tx_hs && top->tx_tlast;
    if (tx_hs) {
        size_t n = 0;
        uint64_t k = top->tx_tkeep;
        while (n < 64 && ((k >> n) & 1)) n++;
        for (size_t i = 0; i < n; i++) txf.push_back((top->tx_tdata[i / 4] >> (8 * (i % 4))) & 0xFF);
        if (!tx_first_beat) tx_first_beat = cyc;
        tx_last_beat = cyc;
        tx_beats++;
    }
    top->clk = 1;
    top->eval();
    top->clk = 0;
    top->eval();
    cyc++;
    if (post_hs) {
        if (trace) printf("@%llu post qp %u wr_id %llx %s len %u\n", (unsigned long long)cyc, cur_post->qpn,
                          (unsigned long long)cur_post->wr_id, opname[cur_post->op], cur_post->len);
        cur_post->posted = true;
        cur_post->t_post = cyc - 1;
        cur_post = nullptr;
    }
    if (rx_hs) {
        rx_off += 64;
        if (rx_off >= rxf.size()) rx_busy = false;
    }
    if (rsp_hs) {
        top->rsp_psn = (top->rsp_psn + 1) & 0xFFFFFF;
        top->rsp_paylen = rsp_mix && (rng() & 1) ? 1 + rng() % 700 : 0;
    }
    if (tx_end) {
        std::vector<uint8_t> f;
        f.swap(txf);
        wire_cycles += (f.size() + 4 + 24) / 50.0;
        if (f.size() >= 54 && get24(&f[47]) == 0xABCD) {
            rsp_frames++;                     // the responder stand-in's ACKs and READ responses
            if (rsp_lens.empty()) fail("responder frame nobody sent");
            else {
                uint32_t exp = rsp_lens.front();
                rsp_lens.pop_front();
                uint32_t pad = (4 - (exp & 3)) & 3;
                if (exp == 0 ? (f[42] != 0x11 || f.size() != 58) : (f[42] != 0x10 || f.size() != 58 + exp + pad))
                    fail("responder frame: opcode %02x %zu bytes, expected %s of %u payload bytes", f[42], f.size(),
                         exp ? "READ RESPONSE ONLY" : "ACK", exp);
                else
                    for (uint32_t i = 0; i < exp; i++)
                        if (f[58 + i] != (uint8_t)i) { fail("responder payload byte %u = %02x", i, f[58 + i]); break; }
                if (exp) rsp_pay_frames++;
            }
        } else {
            req_frames++;
            if (tx_hook) tx_hook(f);
            peer_rx(f);
        }
    }
}

static void post(WR w) {
    wrs.push_back(w);
    WR *p = &wrs.back();
    post_q.push_back(p);
    cq_expect[p->qpn].push_back(p);     // every WR of these tests is signaled
    for (auto &kv : peers) if (kv.second.nic_qpn == p->qpn) kv.second.expect.push_back(p);
}

static bool run_until(std::function<bool()> done, uint64_t max_cycles, const char *what) {
    uint64_t end = cyc + max_cycles;
    while (cyc < end) {
        tick();
        if (done()) return true;
    }
    fail("%s: not done after %llu cycles (debug %08x)", what, (unsigned long long)max_cycles, top->dbg);
    return false;
}
static bool all_done() {
    for (auto &w : wrs) if (w.signaled && !w.completed) return false;
    return post_q.empty() && !cur_post;
}

// ------------------------------------------------------------------ tests
static const uint64_t LBASE = 0x10000000ull;
static uint64_t lnext = LBASE, rnext = RBASE;
static uint64_t wr_seq = 1;

static uint64_t lalloc(uint64_t len, unsigned align_off) {
    uint64_t a = ((lnext + 63) & ~63ull) + align_off;
    lnext = a + len + 64;
    return a;
}
static uint64_t ralloc(uint64_t len, unsigned align_off) {
    uint64_t a = ((rnext + 63) & ~63ull) + align_off;
    rnext = a + len + 64;
    if (rnext - RBASE > rmem.size()) { printf("remote memory exhausted\n"); exit(1); }
    return a;
}

// a WR with its buffers prepared
static WR mk(int op, uint32_t qpn, uint32_t len, unsigned aoff = 0) {
    WR w{};
    w.op = op; w.qpn = qpn; w.len = len; w.lkey = LKEY; w.rkey = RKEY;
    w.wr_id = 0x5700000000000000ull | wr_seq++;
    w.imm = 0xC0DE0000u | (uint32_t)(wr_seq & 0xFFFF);
    if (op >= 5) {
        w.len = 8;
        w.laddr = lalloc(8, 0);
        w.raddr = ralloc(8, 0);
        uint64_t v = rng();
        memcpy(rptr(w.raddr, 8), &v, 8);
        w.cmp = (rng() & 1) ? v : v ^ 1;   // CMP_SWAP matches half of the time
        w.swp = rng();
        return w;
    }
    w.laddr = lalloc(len, aoff);
    w.raddr = ralloc(len, (aoff * 7) & 63);
    if (op == OP_READ) {
        uint8_t *r = rptr(w.raddr, len);
        for (uint32_t i = 0; i < len; i++) r[i] = (uint8_t)rng();
    } else {
        lmem_fill(w.laddr, len, 0x1234);
    }
    return w;
}

static void reset_dut() {
    top->rst = 1;
    for (int i = 0; i < 10; i++) tick();
    top->rst = 0;
    for (int i = 0; i < 300; i++) tick();     // the engines clear their tables (NQP cycles)
    write_mr(LKEY & 0xF, LKEY, LBASE, 256ull << 20, 1);
}

static void report_counters() {
    printf("counters: pkt %u retry %u timeout %u rnr %u nak_seq %u nak_inv %u nak_acc %u nak_op %u implicit %u drop %u locerr %u post %u reject %u\n",
           top->cnt_pkt, top->cnt_retry, top->cnt_timeout, top->cnt_rnr, top->cnt_nak_seq, top->cnt_nak_inv,
           top->cnt_nak_acc, top->cnt_nak_op, top->cnt_implicit, top->cnt_drop, top->cnt_locerr, top->cnt_post,
           top->cnt_reject);
}

static void expect_ge(const char *what, uint64_t got, uint64_t min) {
    if (got < min) fail("%s: expected at least %llu, got %llu", what, (unsigned long long)min, (unsigned long long)got);
}
static void expect_eq(const char *what, uint64_t got, uint64_t exp) {
    if (got != exp) fail("%s: expected %llu, got %llu", what, (unsigned long long)exp, (unsigned long long)got);
}

static std::vector<uint32_t> sizes_all = {0, 1, 3, 63, 64, 65, 255, 256, 257, 1000, 1024, 1025, 2047, 2048,
                                          4095, 4096, 4097, 9000, 12293};

// every opcode at every MTU, sizes 0 .. 12 KiB, odd alignments
static void t_ops() {
    for (int pm = 1; pm <= 5; pm++) {
        QPCfg c; c.qpn = 1 + pm; c.peer_qpn = 0x100 + pm; c.pmtu_enum = pm; c.sq_psn = rng() & 0xFFFFFF;
        setup_qp(c);
    }
    for (int pm = 1; pm <= 5; pm++) {
        for (uint32_t len : sizes_all) {
            for (int op = 0; op <= 4; op++) post(mk(op, 1 + pm, len, (len * 13 + op) & 63));
        }
        for (int k = 0; k < 3; k++) { post(mk(OP_CMP_SWAP, 1 + pm, 8)); post(mk(OP_FETCH_ADD, 1 + pm, 8)); }
    }
    run_until(all_done, 3000000, "ops");
}

// messages of several MiB
static void t_big() {
    QPCfg a; a.qpn = 7; a.peer_qpn = 0x207; a.pmtu_enum = 5; setup_qp(a);
    QPCfg b; b.qpn = 8; b.peer_qpn = 0x208; b.pmtu_enum = 3; setup_qp(b);
    post(mk(OP_WRITE, 7, 4u << 20, 5));
    post(mk(OP_READ, 7, 3u << 20, 9));
    post(mk(OP_SEND, 8, 1u << 20, 0));
    post(mk(OP_READ, 8, (1u << 20) + 77, 3));
    post(mk(OP_WRITE_IMM, 8, (2u << 20) + 1, 1));
    run_until(all_done, 3000000, "big");
}

// PSN wrap inside messages, READs spanning the wrap
static void t_wrap() {
    QPCfg c; c.qpn = 9; c.peer_qpn = 0x309; c.pmtu_enum = 1; c.sq_psn = 0xFFFFF0; setup_qp(c);
    QPCfg d; d.qpn = 10; d.peer_qpn = 0x30A; d.pmtu_enum = 3; d.sq_psn = 0xFFFFFE; setup_qp(d);
    for (int i = 0; i < 3; i++) {
        post(mk(OP_WRITE, 9, 5000, i));
        post(mk(OP_READ, 9, 3000, i));
        post(mk(OP_SEND, 10, 2500, i));
        post(mk(OP_READ, 10, 5000, i));
        post(mk(OP_FETCH_ADD, 10, 8));
    }
    run_until(all_done, 1000000, "wrap");
    for (auto &kv : peers)
        if (psn_sub(kv.second.epsn, 0) > 0x100) fail("QP %x: the PSN did not wrap (epsn %06x)", kv.first, kv.second.epsn);
}

// many QPs at once, random operations
static void t_many() {
    const int N = 64;
    for (int i = 0; i < N; i++) {
        QPCfg c; c.qpn = 16 + i; c.peer_qpn = 0x400 + i; c.pmtu_enum = 1 + rng() % 5; c.sq_psn = rng() & 0xFFFFFF;
        setup_qp(c);
    }
    for (int k = 0; k < 6; k++)
        for (int i = 0; i < N; i++) {
            int op = rng() % 7;
            post(mk(op, 16 + i, rng() % 20000, rng() & 63));
        }
    run_until(all_done, 3000000, "many QPs");
}

// random loss / duplication / delay on both directions
static void t_loss() {
    flt.strict = false;
    flt.drop_req = 25; flt.drop_rsp = 25; flt.dup_rsp = 20; flt.jitter = 200;
    tx_stall = 100;
    mem_model_cfg mc = mem_model_get_config(0);
    mc.stall_permille = 50;
    mem_model_configure(0, mc);
    for (int i = 0; i < 8; i++) {
        QPCfg c; c.qpn = 32 + i; c.peer_qpn = 0x500 + i; c.pmtu_enum = 1 + i % 5; c.sq_psn = rng() & 0xFFFFFF;
        c.timeout = 1; c.retry_cnt = 7; setup_qp(c);
    }
    for (int k = 0; k < 24; k++)
        for (int i = 0; i < 8; i++) post(mk(rng() % 7, 32 + i, rng() % 30000, rng() & 63));
    run_until(all_done, 6000000, "loss");
    expect_ge("retransmissions", top->cnt_retry, 1);
}

// coalesced ACKs: one ACK retires several WQEs; the last ones are acknowledged
// only when the timeout's resend draws duplicate ACKs; memory and TX stall
static void t_coalesce() {
    flt.strict = false;
    flt.ack_every = 3;
    tx_stall = 200;
    mem_model_cfg mc = mem_model_get_config(0);
    mc.stall_permille = 150;
    mc.rd_latency = 60;
    mem_model_configure(0, mc);
    for (int i = 0; i < 4; i++) {
        QPCfg c; c.qpn = 36 + i; c.peer_qpn = 0x580 + i; c.pmtu_enum = 2 + i; c.timeout = 2; setup_qp(c);
    }
    for (int k = 0; k < 20; k++)
        for (int i = 0; i < 4; i++) post(mk(rng() % 4 == 0 ? OP_READ : rng() % 4, 36 + i, rng() % 9000, rng() & 63));
    run_until(all_done, 2000000, "coalesced ACKs");
    expect_ge("timeouts (the last WRs of each QP wait for one)", top->cnt_timeout, 1);
}

// one lost request in the middle of a message: sequence NAK, resend from it
static void t_seqnak() {
    flt.strict = false;
    QPCfg c; c.qpn = 40; c.peer_qpn = 0x600; c.pmtu_enum = 1; c.sq_psn = 0x100; setup_qp(c);
    flt.drop_psn = 0x102;                 // third packet of the WRITE
    post(mk(OP_WRITE, 40, 10 * 256, 0));
    post(mk(OP_SEND, 40, 700, 0));
    run_until(all_done, 200000, "seq NAK");
    expect_eq("NAK sequence errors", top->cnt_nak_seq, 1);
    expect_ge("retransmissions", top->cnt_retry, 1);
    expect_eq("timeouts", top->cnt_timeout, 0);
}

// the last (AckReq) packet lost: only the ACK timeout brings it back
static void t_timeout() {
    flt.strict = false;
    QPCfg c; c.qpn = 41; c.peer_qpn = 0x601; c.pmtu_enum = 2; c.sq_psn = 0x200; c.timeout = 1; setup_qp(c);
    flt.drop_psn = 0x203;                 // the LAST of a 4-packet WRITE
    post(mk(OP_WRITE, 41, 4 * 512 - 5, 0));
    uint64_t t0 = cyc;
    run_until(all_done, 200000, "timeout");
    expect_eq("timeouts", top->cnt_timeout, 1);
    expect_ge("cycles until the resend (>= 4.096 us x 2 at 250 MHz)", cyc - t0, 2048);
}

// READ responses lost: implicit NAK (an ACK beyond the READ) and ACK timeout;
// both resume the READ at its first missing response, address and length advanced
static void t_read_resume() {
    flt.strict = false;
    QPCfg c; c.qpn = 42; c.peer_qpn = 0x602; c.pmtu_enum = 1; c.timeout = 1; setup_qp(c);
    flt.implicit_read = 0;
    post(mk(OP_READ, 42, 10 * 256 + 17, 3));  // second half of its responses lost
    post(mk(OP_WRITE, 42, 300, 0));           // its ACK is beyond the READ
    run_until(all_done, 200000, "implicit NAK");
    expect_eq("implicit NAKs", top->cnt_implicit, 1);
    // alone: only the timer
    QPCfg d; d.qpn = 43; d.peer_qpn = 0x603; d.pmtu_enum = 2; d.timeout = 1; setup_qp(d);
    flt.implicit_read = 0;
    post(mk(OP_READ, 43, 7 * 512 + 100, 0));
    run_until(all_done, 200000, "READ resumed after a timeout");
    expect_ge("timeouts", top->cnt_timeout, 1);
}

// RNR NAKs: waited out and retried; rnr_retry 7 = forever; exhaustion
static void t_rnr() {
    flt.strict = false;
    flt.rnr_per_send = 3; flt.rnr_timer = 1;
    QPCfg c; c.qpn = 44; c.peer_qpn = 0x604; c.rnr_retry = 7; setup_qp(c);
    post(mk(OP_SEND, 44, 3000, 0));
    post(mk(OP_WRITE, 44, 100, 0));
    post(mk(OP_SEND, 44, 10, 0));
    uint64_t t0 = cyc;
    run_until(all_done, 400000, "RNR");
    expect_eq("RNR waits", top->cnt_rnr, 6);
    expect_ge("cycles (6 waits of 10 us = 2500 cycles)", cyc - t0, 6 * 2500);
    // more RNRs than rnr_retry 7 would allow if it were a count: forever
    flt.rnr_per_send = 9;
    QPCfg d; d.qpn = 45; d.peer_qpn = 0x605; d.rnr_retry = 7; setup_qp(d);
    post(mk(OP_SEND, 45, 64, 0));
    run_until(all_done, 400000, "RNR forever");
    // rnr_retry 2: the third RNR NAK fails the SEND, the rest is flushed
    flt.rnr_per_send = 5;
    QPCfg e; e.qpn = 46; e.peer_qpn = 0x606; e.rnr_retry = 2; setup_qp(e);
    WR w0 = mk(OP_WRITE, 46, 100, 0);
    WR w1 = mk(OP_SEND, 46, 64, 0); w1.exp_status = WC_RNR_RETRY_EXC_ERR;
    WR w2 = mk(OP_WRITE, 46, 5000, 0); w2.exp_status = WC_WR_FLUSH_ERR;
    post(w0); post(w1); post(w2);
    run_until(all_done, 400000, "RNR exhausted");
}

// the peer goes silent: retries exhausted, the WR fails, everything after is flushed
static void t_retry_exc() {
    flt.strict = false;
    flt.silent_after = 2;
    QPCfg c; c.qpn = 47; c.peer_qpn = 0x607; c.timeout = 1; c.retry_cnt = 3; setup_qp(c);
    post(mk(OP_WRITE, 47, 2000, 0));
    post(mk(OP_READ, 47, 2000, 0));
    WR w = mk(OP_WRITE, 47, 3000, 0); w.exp_status = WC_RETRY_EXC_ERR; post(w);
    for (int i = 0; i < 5; i++) { WR f = mk(i & 1 ? OP_READ : OP_SEND, 47, 500, 0); f.exp_status = WC_WR_FLUSH_ERR; post(f); }
    run_until(all_done, 400000, "retry exhausted");
    expect_eq("timeouts (retry_cnt 3: 4 expiries)", top->cnt_timeout, 4);
    // WRs posted to the QP in ERROR complete with WR_FLUSH_ERR
    for (int i = 0; i < 3; i++) { WR f = mk(OP_WRITE, 47, 100, 0); f.exp_status = WC_WR_FLUSH_ERR; post(f); }
    run_until(all_done, 100000, "flush of later posts");
    expect_ge("QP error events", qp_err_events, 1);
}

// fatal NAKs: the WR gets that status, the QP goes to ERROR
static void t_fatal() {
    flt.strict = false;
    const int codes[3] = {1, 2, 3};
    const int st[3] = {WC_REM_INV_REQ_ERR, WC_REM_ACCESS_ERR, WC_REM_OP_ERR};
    for (int k = 0; k < 3; k++) {
        flt.fatal_msg = 1; flt.fatal_code = codes[k];
        QPCfg c; c.qpn = 48 + k; c.peer_qpn = 0x608 + k; setup_qp(c);
        post(mk(OP_SEND, 48 + k, 100, 0));
        WR w = mk(k == 1 ? OP_READ : OP_WRITE, 48 + k, 3000, 0); w.exp_status = st[k]; post(w);
        for (int i = 0; i < 3; i++) { WR f = mk(OP_WRITE, 48 + k, 700, 0); f.exp_status = WC_WR_FLUSH_ERR; post(f); }
        run_until(all_done, 200000, "fatal NAK");
    }
    expect_eq("NAK invalid request", top->cnt_nak_inv, 1);
    expect_eq("NAK remote access", top->cnt_nak_acc, 1);
    expect_eq("NAK remote operational", top->cnt_nak_op, 1);
}

// a local range outside the lkey's MR: LOC_PROT_ERR, nothing sent for it
static void t_lkey() {
    QPCfg c; c.qpn = 51; c.peer_qpn = 0x60B; setup_qp(c);
    post(mk(OP_WRITE, 51, 1000, 0));
    WR bad = mk(OP_WRITE, 51, 1000, 0); bad.laddr = LBASE + (256ull << 20) - 10; bad.exp_status = WC_LOC_PROT_ERR;
    post(bad);
    WR bad2 = mk(OP_READ, 51, 100, 0); bad2.exp_status = WC_WR_FLUSH_ERR; post(bad2);
    uint64_t f0 = frames_rx;
    run_until(all_done, 100000, "lkey");
    expect_eq("frames sent (only the first WRITE)", frames_rx - f0, 1);
    expect_eq("local errors", top->cnt_locerr, 1);
}

// a QP reset and reused (also after ERROR), new PSN
static void t_reset() {
    QPCfg c; c.qpn = 52; c.peer_qpn = 0x60C; c.sq_psn = 0x123; setup_qp(c);
    for (int i = 0; i < 4; i++) post(mk(rng() % 7, 52, 3000, i));
    run_until(all_done, 200000, "before reset");
    flt.strict = false; flt.fatal_msg = 1; flt.fatal_code = 2;
    c.sq_psn = 0xABC000; setup_qp(c);
    post(mk(OP_WRITE, 52, 100, 0));
    WR w = mk(OP_WRITE, 52, 100, 0); w.exp_status = WC_REM_ACCESS_ERR; post(w);
    run_until(all_done, 200000, "ERROR");
    flt.fatal_msg = -1; flt.strict = true;
    c.sq_psn = 0x777777; setup_qp(c);
    for (int i = 0; i < 6; i++) post(mk(rng() % 7, 52, 5000, i));
    run_until(all_done, 200000, "after reset");
}

// posts refused: QPN outside the table, QPN 0
static void t_post_reject() {
    WR w = mk(OP_WRITE, 0, 10, 0); w.exp_status = WC_LOC_QP_OP_ERR;
    post(w);
    run_until(all_done, 10000, "post to QPN 0");
    expect_eq("refused posts", top->cnt_reject, 1);
}

// line rate: 1 MiB WRITEs at MTU 4096, peer ACKs at once
static void t_perf() {
    flt.lat = 1;
    QPCfg c; c.qpn = 60; c.peer_qpn = 0x700; c.pmtu_enum = 5; setup_qp(c);
    // a lone small WRITE: post -> first payload byte
    post(mk(OP_WRITE, 60, 64, 0));
    run_until(all_done, 10000, "latency probe");
    uint64_t lat_pay = first_pay_beat - wrs.back().t_post;
    uint64_t lat_frame = tx_first_beat - wrs.back().t_post;
    printf("latency: WR post -> first payload beat into the TX mux %llu cycles, -> first frame beat %llu cycles\n",
           (unsigned long long)lat_pay, (unsigned long long)lat_frame);
    // throughput
    const int NW = 4;
    for (int i = 0; i < NW; i++) post(mk(OP_WRITE, 60, 1u << 20, 0));
    tx_first_beat = 0; tx_beats = 0; wire_cycles = 0;
    run_until(all_done, 1000000, "perf");
    uint64_t span = tx_last_beat - tx_first_beat + 1;
    double busy = wire_cycles / span;
    printf("perf: %d x 1 MiB WRITE, MTU 4096: %llu frame beats in %llu cycles; the 100 GbE wire needs %.0f cycles "
           "-> %.1f%% of line rate (%.2f Gb/s goodput at 250 MHz)\n", NW, (unsigned long long)tx_beats,
           (unsigned long long)span, wire_cycles, 100.0 * busy, NW * 8.0 * (1 << 20) / (span * 4.0));
    if (busy < 0.95) fail("TX at %.1f%% of the wire's rate, expected >= 95%%", 100.0 * busy);
    // 46 measured: 38 before the register slices of the SQ's posts and the requester's kicks and
    // payload, the requester's registered DMA command FIFO and its read cycle after idling (S_RD),
    // and the memory arbiter's registered AR and R
    if (lat_pay > 48) fail("post -> first payload beat %llu cycles, expected <= 48", (unsigned long long)lat_pay);
}

// the TX mux: a responder that always has ACKs does not starve the requester, and is served first
static void t_mux() {
    flt.lat = 1;
    QPCfg c; c.qpn = 61; c.peer_qpn = 0x701; c.pmtu_enum = 3; setup_qp(c);
    // phase 1: the responder always has an ACK: it goes first, the requester still gets 1 in 5
    for (int i = 0; i < 8; i++) post(mk(OP_WRITE, 61, 16384, 0));
    top->rsp_paylen = 0;
    top->rsp_valid = 1;
    run_until(all_done, 400000, "mux, ACKs");
    top->rsp_valid = 0;
    for (int i = 0; i < 200; i++) tick();
    printf("mux: %llu responder frames, %llu requester frames\n", (unsigned long long)rsp_frames,
           (unsigned long long)req_frames);
    expect_ge("requester frames", req_frames, 8 * 16);
    expect_ge("responder frames (RESP_BURST 4 per requester frame)", rsp_frames, 4 * (req_frames - 1));
    // phase 2: responder packets with payload mixed in: whole packets, nothing interleaved
    uint64_t r0 = rsp_frames;
    for (int i = 0; i < 8; i++) post(mk(OP_WRITE, 61, 16384, 0));
    rsp_mix = true;
    top->rsp_paylen = 300;
    top->rsp_valid = 1;
    run_until(all_done, 400000, "mux, READ responses");
    top->rsp_valid = 0;
    for (int i = 0; i < 200; i++) tick();
    if (!rsp_lens.empty()) fail("%zu responder packets granted but not sent", rsp_lens.size());
    printf("mux: %llu responder packets with payload, %llu responder frames in phase 2\n",
           (unsigned long long)rsp_pay_frames, (unsigned long long)(rsp_frames - r0));
    expect_ge("responder packets with payload", rsp_pay_frames, 50);
}

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    std::string test = "ops";
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a.rfind("+test=", 0) == 0) test = a.substr(6);
        if (a.rfind("+seed=", 0) == 0) seed = strtoull(a.c_str() + 6, nullptr, 0);
    }
    rng.seed(seed);
    top.reset(new Vtb_roce_req);
    top->clk = 0;
    reset_dut();
    std::map<std::string, void (*)()> tests = {
        {"ops", t_ops}, {"big", t_big}, {"wrap", t_wrap}, {"many", t_many}, {"loss", t_loss},
        {"seqnak", t_seqnak}, {"timeout", t_timeout}, {"read_resume", t_read_resume}, {"rnr", t_rnr},
        {"retry_exc", t_retry_exc}, {"fatal", t_fatal}, {"lkey", t_lkey}, {"reset", t_reset},
        {"post_reject", t_post_reject}, {"perf", t_perf}, {"mux", t_mux}, {"coalesce", t_coalesce}};
    auto it = tests.find(test);
    if (it == tests.end()) { printf("unknown test %s\n", test.c_str()); return 2; }
    it->second();
    // nothing may be left over
    for (int i = 0; i < 2000; i++) tick();
    for (auto &w : wrs) if (!w.completed) fail("wr_id %llx (%s) never completed", (unsigned long long)w.wr_id, opname[w.op]);
    auto st = mem_model_get_stats(0);
    if (st.violations) fail("memory model saw %llu AXI protocol violations", (unsigned long long)st.violations);
    uint64_t pk = 0, du = 0, oo = 0;
    for (auto &kv : peers) { pk += kv.second.pkts; du += kv.second.dups; oo += kv.second.oos; }
    printf("test %s seed %llu: %zu WRs, %llu CQEs, %llu request packets (%llu duplicate, %llu out of sequence), %llu cycles\n",
           test.c_str(), (unsigned long long)seed, wrs.size(), (unsigned long long)n_cqe, (unsigned long long)pk,
           (unsigned long long)du, (unsigned long long)oo, (unsigned long long)cyc);
    report_counters();
    top->final();
    top.reset();          // before the static destructors run
    fflush(stdout);
    if (n_fail) { printf("FAILED (%d)\n", n_fail); return 1; }
    printf("PASSED\n");
    return 0;
}
