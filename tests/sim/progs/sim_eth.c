/* sim_eth: a small console program that moves Ethernet frames through the
   NIC's management buffers, to test the harness's Ethernet plumbing without
   the real firmware. Prompt "solonic> "; commands:

     tx N LEN [SEQ0]  send N frames of LEN bytes (16..2048), sequence numbers SEQ0.. (default 0)
     rx N [CYCLES]    print received frames as they come until N were printed or none came
                      for CYCLES cycles (default 2000000); "rx 0" prints what is waiting
     echo N [CYCLES]  send each received frame back (MACs swapped), N frames or quiet CYCLES
     stats            the mgmt and net counters
     exit N           end with exit code N

   Frame made by tx (byte offsets): 0..5 dst ff:ff:ff:ff:ff:ff, 6..11 src
   02:00:00:00:00:<instance>, 12..13 ethertype 0x88b5 (local experimental),
   14 instance, 15..18 sequence number (big-endian), 19.. byte i = (seq + i) & 0xff.
   Broadcast and not IPv4, so the receiving NIC hands it to the firmware.
   The program sets the NIC's MAC to 02:00:00:00:00:<instance>.
   A received frame prints as "rx LEN FNV1A32 HEX" (HEX: all bytes if LEN <= 256,
   else the first 256). Replies end with "ok ..." or "timeout ...". */
#include <stdint.h>

#include "solonic_regs.h"

/* start-up: tests/soc/progs/crt.S (stack, .bss, mtvec = trap_vector, main's
   return value to simctrl.exit via soc_exit) */
#define REG(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define CSR_READ(csr) ({ uint32_t v_; __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })
__attribute__((noreturn)) void soc_exit(uint32_t code);

static void put_char(char c) {
    while (REG(UART_STATUS) & UART_STATUS_TX_FULL_MASK) {}
    REG(UART_TXDATA) = (uint8_t)c;
}
static void put_str(const char *s) { while (*s) put_char(*s++); }
static void put_hex(uint32_t v) {
    for (int i = 28; i >= 0; i -= 4) put_char("0123456789abcdef"[(v >> i) & 15]);
}

#define MGMT_RX_BUF 0x40000000u
#define MGMT_TX_BUF 0x40010000u
#define SPIN_LIMIT 4000000u /* polls of a register before giving up on the hardware */

__attribute__((interrupt("machine"), aligned(4))) void trap_vector(void);
void trap_vector(void) {
    put_str("FAIL unexpected trap, mcause 0x");
    put_hex(CSR_READ(mcause));
    put_str(" mtval 0x");
    put_hex(CSR_READ(mtval));
    put_char('\n');
    soc_exit(99);
}

static uint32_t inst, slot_bytes;

static void put_dec(uint32_t v) {
    char b[11];
    int n = 0;
    do { b[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (n) put_char(b[--n]);
}
static void put_hex8(uint32_t v) {
    put_char("0123456789abcdef"[(v >> 4) & 15]);
    put_char("0123456789abcdef"[v & 15]);
}
static uint32_t now(void) { return REG(TIMER_MTIME_LO); }

static int get_char(void) {
    uint32_t v;
    do { v = REG(UART_RXDATA); } while (!(v & 0x100u));
    return (int)(v & 0xffu);
}

/* whole-word copies to and from the buffers (they take 32-bit accesses) */
static void put_frame_byte(uint32_t *w, uint32_t i, uint32_t b) {
    uint32_t sh = 8 * (i & 3);
    w[i >> 2] = (w[i >> 2] & ~(0xffu << sh)) | (b << sh);
}

static int send_frame(const uint32_t *words, uint32_t len) {
    uint32_t st, spins = 0;
    while (((st = REG(MGMT_TX_STATUS)) & MGMT_TX_STATUS_FREE_MASK) == 0)
        if (++spins > SPIN_LIMIT) return 0;
    uint32_t slot = (st & MGMT_TX_STATUS_SLOT_MASK) >> MGMT_TX_STATUS_SLOT_SHIFT;
    volatile uint32_t *dst = (volatile uint32_t *)(uintptr_t)(MGMT_TX_BUF + slot * slot_bytes);
    for (uint32_t i = 0; i < (len + 3) / 4; i++) dst[i] = words[i];
    REG(MGMT_TX_SEND) = len;
    return 1;
}

static uint32_t frame[2048 / 4];

static void cmd_tx(uint32_t n, uint32_t len, uint32_t seq0) {
    if (len < 19 || len > slot_bytes) {
        put_str("error: LEN is 19..");
        put_dec(slot_bytes);
        put_char('\n');
        return;
    }
    /* the first frame byte by byte, the next ones by adding 1 to every
       payload byte a word at a time (fast enough to outrun a 1 Gb/s wire) */
    for (uint32_t k = 0; k < n; k++) {
        uint32_t seq = seq0 + k;
        if (k == 0) {
            for (uint32_t i = 0; i < len; i++) {
                uint32_t b;
                if (i < 6) b = 0xff;
                else if (i < 11) b = i == 6 ? 0x02 : 0x00;
                else if (i == 11) b = inst;
                else if (i == 12) b = 0x88;
                else if (i == 13) b = 0xb5;
                else if (i == 14) b = inst;
                else b = (seq + i) & 0xff;
                put_frame_byte(frame, i, b);
            }
        } else {
            for (uint32_t w = 4; w < (len + 3) / 4; w++) {
                uint32_t v = frame[w];
                frame[w] = ((v & 0x7f7f7f7fu) + 0x01010101u) ^ (v & 0x80808080u);
            }
        }
        for (uint32_t i = 15; i < 19; i++) put_frame_byte(frame, i, (seq >> (8 * (18 - i))) & 0xff);
        if (!send_frame(frame, len)) {
            put_str("timeout tx ");
            put_dec(k);
            put_char('\n');
            return;
        }
    }
    put_str("ok tx ");
    put_dec(n);
    put_char('\n');
}

/* the head frame into frame[], returns its length (0: none) */
static uint32_t take_frame(void) {
    uint32_t h = REG(MGMT_RX_HEAD);
    if (!(h & MGMT_RX_HEAD_VALID_MASK)) return 0;
    uint32_t len = h & MGMT_RX_HEAD_LEN_MASK;
    uint32_t slot = (h & MGMT_RX_HEAD_SLOT_MASK) >> MGMT_RX_HEAD_SLOT_SHIFT;
    volatile uint32_t *src = (volatile uint32_t *)(uintptr_t)(MGMT_RX_BUF + slot * slot_bytes);
    for (uint32_t i = 0; i < (len + 3) / 4 && i < sizeof frame / 4; i++) frame[i] = src[i];
    REG(MGMT_RX_POP) = 1;
    return len;
}

static uint32_t byte_at(uint32_t i) { return (frame[i >> 2] >> (8 * (i & 3))) & 0xff; }

static void print_frame(uint32_t len) {
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < len; i++) h = (h ^ byte_at(i)) * 16777619u;
    put_str("rx ");
    put_dec(len);
    put_char(' ');
    put_hex(h);
    put_char(' ');
    for (uint32_t i = 0; i < len && i < 256; i++) put_hex8(byte_at(i));
    put_char('\n');
}

/* frames as they come: N of them, or until none came for `quiet` cycles */
static void cmd_rx(uint32_t n, uint32_t quiet, int echo) {
    uint32_t got = 0, last = now();
    if (n == 0) {
        uint32_t len;
        while ((len = take_frame()) != 0) { print_frame(len); got++; }
        put_str("ok rx ");
        put_dec(got);
        put_char('\n');
        return;
    }
    while (got < n) {
        uint32_t len = take_frame();
        if (!len) {
            if (now() - last > quiet) {
                put_str(echo ? "timeout echo " : "timeout rx ");
                put_dec(got);
                put_char('\n');
                return;
            }
            continue;
        }
        got++;
        last = now();
        if (!echo) {
            print_frame(len);
            continue;
        }
        /* back to the sender: dst = its src, src = ours */
        for (uint32_t i = 0; i < 6; i++) {
            put_frame_byte(frame, i, byte_at(6 + i));
            put_frame_byte(frame, 6 + i, i == 0 ? 0x02 : i == 5 ? inst : 0x00);
        }
        if (!send_frame(frame, len)) {
            put_str("timeout echo send\n");
            return;
        }
    }
    put_str(echo ? "ok echo " : "ok rx ");
    put_dec(got);
    put_char('\n');
}

static void stat(const char *name, uint32_t addr) {
    put_char(' ');
    put_str(name);
    put_char('=');
    put_dec(REG(addr));
}

static void cmd_stats(void) {
    put_str("stats");
    stat("rx_frames", MGMT_RX_FRAMES);
    stat("rx_drop_full", MGMT_RX_DROP_FULL);
    stat("rx_drop_too_long", MGMT_RX_DROP_TOO_LONG);
    stat("rx_drop_bad", MGMT_RX_DROP_BAD);
    stat("tx_frames", MGMT_TX_FRAMES);
    stat("tx_err", MGMT_TX_ERR);
    stat("net_rx_mgmt", NET_RX_MGMT);
    stat("net_drop_not_for_us", NET_DROP_NOT_FOR_US);
    stat("net_drop_mgmt_full", NET_DROP_MGMT_FULL);
    stat("net_tx_frames", NET_TX_FRAMES);
    put_char('\n');
}

/* the words of a command line */
static int split(char *s, char **w, int max) {
    int n = 0;
    while (*s && n < max) {
        while (*s == ' ') *s++ = 0;
        if (!*s) break;
        w[n++] = s;
        while (*s && *s != ' ') s++;
    }
    return n;
}
static int eq(const char *a, const char *b) {
    while (*a && *a == *b) { a++; b++; }
    return *a == *b;
}
static uint32_t num(const char *s) {
    uint32_t v = 0;
    while (*s >= '0' && *s <= '9') v = v * 10 + (uint32_t)(*s++ - '0');
    return v;
}

int main(void) {
    char line[96];
    inst = REG(MGMT_INSTANCE);
    /* our MAC 02:00:00:00:00:<instance>, so echoed frames pass the RX filter */
    REG(NET_MAC_HI) = 0x0200u;
    REG(NET_MAC_LO) = inst;
    slot_bytes = (REG(MGMT_CONFIG) & MGMT_CONFIG_SLOT_BYTES_MASK) >> MGMT_CONFIG_SLOT_BYTES_SHIFT;
    put_str("sim_eth instance ");
    put_dec(inst);
    put_str(" mgmt id ");
    put_hex(REG(MGMT_ID));
    put_char('\n');
    for (;;) {
        put_str("solonic> ");
        unsigned n = 0;
        for (;;) {
            int c = get_char();
            if (c == '\n' || c == '\r') break;
            if (n < sizeof line - 1) line[n++] = (char)c;
        }
        line[n] = 0;
        char *w[4] = {0, 0, 0, 0};
        int nw = split(line, w, 4);
        if (nw == 0) continue;
        if (eq(w[0], "tx") && nw >= 3) cmd_tx(num(w[1]), num(w[2]), nw > 3 ? num(w[3]) : 0);
        else if (eq(w[0], "rx") && nw >= 2) cmd_rx(num(w[1]), nw > 2 ? num(w[2]) : 2000000u, 0);
        else if (eq(w[0], "echo") && nw >= 2) cmd_rx(num(w[1]), nw > 2 ? num(w[2]) : 2000000u, 1);
        else if (eq(w[0], "stats")) cmd_stats();
        else if (eq(w[0], "exit") && nw >= 2) return (int)num(w[1]);
        else put_str("error: unknown command\n");
    }
}
