/*
 * user: the user-logic examples built into nic_top (rtl/user, regs/user.toml,
 * docs/user-logic.md "Examples"): a source that streams generated data to a
 * remote QP as RDMA WRITEs with no firmware work per message, and a sink that
 * checks and counts what arrives on the streaming MRs of this NIC.
 *
 *   user [status]
 *   user source start [QPN] [--len N] [--count N] [--gbps N] [--addr A] [--region R]
 *                           [--rkey K] [--mode pattern|counter] [--seed S]
 *   user source stop
 *   user sink [--mode pattern|counter] [--seed S] [--addr A --region R [--pd N]]
 *
 * The source's payload comes from a streaming MR of this NIC over the same
 * addresses as the remote buffer (registered here when none covers them); its
 * data is a function of the address, so a retransmission gets the same bytes.
 * Everything here only writes registers: start returns at once and `user`
 * shows the counters (the hardware bounds every message by the QP's retries).
 */
#include <solonic_regs.h>
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "roce/qpx.h"
#include "roce/roce.h"
#include "timer.h"
#include "trap.h"

#define USER_LEN_DEFAULT 65536u
#define USER_GBPS_MAX 400u /* the rate register: 16 bits of bytes/cycle x 256 */

static int user_present(void) {
    uint32_t id, cause;
    if (trap_probe_read32(USER_ID, &id, &cause) != 0 || id != USER_ID_VALUE) {
        printf("user: no user-logic examples in this build (nic_top USER_EXAMPLES = 0)\n");
        return 0;
    }
    return 1;
}

static uint64_t rd64(uint32_t lo, uint32_t hi) { return (uint64_t)REG32(hi) << 32 | REG32(lo); }

/* ---- options shared by source and sink */
struct user_opts {
    uint32_t qpn, len, count, gbps, rkey, mode, pd;
    uint64_t seed, addr, region;
    bool has_qpn, has_addr, has_region, has_rkey, has_pd, has_mode, has_seed;
};

static int parse_opts(const char *cmd, int argc, char **argv, int i, bool source, struct user_opts *o) {
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0) {
            if (!source || o->has_qpn) {
                printf("%s: unexpected argument '%s' (see 'help user')\n", cmd, a);
                return -1;
            }
            if (con_parse_u32(cmd, "QPN", a, &o->qpn) != 0) return -1;
            o->has_qpn = true;
            continue;
        }
        static const char *const src_only[] = {"--len", "--count", "--gbps", "--rkey"};
        static const char *const all[] = {"--addr", "--region", "--mode", "--seed", "--pd"};
        bool known = false, src_opt = false;
        for (unsigned k = 0; k < 4; k++)
            if (strcmp(a, src_only[k]) == 0) known = src_opt = true;
        for (unsigned k = 0; k < 5; k++)
            if (strcmp(a, all[k]) == 0) known = true;
        if (!known || (src_opt && !source) || (source && strcmp(a, "--pd") == 0)) {
            printf("%s: unknown option '%s' (see 'help user')\n", cmd, a);
            return -1;
        }
        if (i + 1 >= argc) {
            printf("%s: %s needs a value\n", cmd, a);
            return -1;
        }
        const char *v = argv[++i];
        int r = 0;
        if (strcmp(a, "--len") == 0) r = con_parse_u32(cmd, a, v, &o->len);
        else if (strcmp(a, "--count") == 0) r = con_parse_u32(cmd, a, v, &o->count);
        else if (strcmp(a, "--gbps") == 0) r = con_parse_u32(cmd, a, v, &o->gbps);
        else if (strcmp(a, "--rkey") == 0) r = con_parse_u32(cmd, a, v, &o->rkey), o->has_rkey = true;
        else if (strcmp(a, "--pd") == 0) r = con_parse_u32(cmd, a, v, &o->pd), o->has_pd = true;
        else if (strcmp(a, "--addr") == 0) r = roce_parse_u64(cmd, a, v, &o->addr), o->has_addr = true;
        else if (strcmp(a, "--region") == 0) r = roce_parse_u64(cmd, a, v, &o->region), o->has_region = true;
        else if (strcmp(a, "--seed") == 0) r = roce_parse_u64(cmd, a, v, &o->seed), o->has_seed = true;
        else {
            o->has_mode = true;
            if (strcmp(v, "pattern") == 0) o->mode = 0;
            else if (strcmp(v, "counter") == 0) o->mode = 1;
            else {
                printf("%s: --mode: expected pattern or counter, got '%s'\n", cmd, v);
                return -1;
            }
        }
        if (r != 0) return -1;
    }
    return 0;
}

/* A streaming MR of this NIC over [addr, addr + len) in PD pd with access acc (the stream bit
   added): an existing one, else a new one. NULL (printed) when none can be had. */
static struct roce_mr *stream_mr(const char *cmd, uint64_t addr, uint64_t len, uint32_t acc, uint32_t pd) {
    acc |= ROCE_ACC_STREAM;
    struct roce_mr *m = roce_mr_covering(addr, len, acc, pd);
    if (m) return m;
    const char *err;
    m = roce_mr_reg(addr, len, acc, pd, &err);
    if (!m) {
        printf("%s: cannot register a streaming MR over 0x%llx + 0x%llx: %s\n", cmd,
               (unsigned long long)addr, (unsigned long long)len, err);
        return NULL;
    }
    printf("%s: streaming MR key 0x%08lx over 0x%llx + 0x%llx pd %lu\n", cmd, (unsigned long)m->key,
           (unsigned long long)addr, (unsigned long long)len, (unsigned long)pd);
    return m;
}

/* ---- source */
static int source_start(int argc, char **argv) {
    const char *cmd = "user source start";
    struct user_opts o;
    memset(&o, 0, sizeof o);
    o.len = USER_LEN_DEFAULT;
    o.seed = 1;
    if (parse_opts(cmd, argc, argv, 3, true, &o) != 0) return CON_ERR;
    if ((o.len & 63) || o.len == 0) {
        printf("%s: --len must be a multiple of 64 (got %lu)\n", cmd, (unsigned long)o.len);
        return CON_ERR;
    }
    if (o.has_region && (o.region < o.len || o.region > 0xffffffffu)) {
        printf("%s: --region: expected --len (%lu) .. 0xffffffff bytes, got 0x%llx\n", cmd,
               (unsigned long)o.len, (unsigned long long)o.region);
        return CON_ERR;
    }
    if (o.gbps > USER_GBPS_MAX) {
        printf("%s: --gbps: expected 0 (unpaced) .. %u, got %lu\n", cmd, USER_GBPS_MAX,
               (unsigned long)o.gbps);
        return CON_ERR;
    }
    if (REG32(USER_SRC_STATUS) & USER_SRC_STATUS_BUSY_MASK) {
        printf("%s: the source is running ('user source stop' ends it)\n", cmd);
        return CON_ERR;
    }
    if (roce_need("user") != 0) return CON_ERR;
    struct roce_qp *qp = o.has_qpn ? roce_qp_find(o.qpn) : qpx_qp(0);
    if (!qp) {
        printf(o.has_qpn ? "%s: QP 0x%lx was not created here (see 'qp list')\n"
                         : "%s: no connected QP (run listen or connect first, or give a QPN)\n",
               cmd, (unsigned long)o.qpn);
        return CON_ERR;
    }
    if (qp->ctx.state != ROCE_QPS_RTS) {
        printf("%s: QP 0x%lx is in %s, not RTS\n", cmd, (unsigned long)qp->qpn,
               roce_qp_state_name(qp->ctx.state));
        return CON_ERR;
    }
    uint64_t vaddr;
    uint32_t prkey;
    bool known = qpx_peer_buffer(qp->qpn, &prkey, &vaddr) == 0;
    if (!o.has_addr) {
        if (!known) {
            printf("%s: the exchange carried no remote buffer: give --addr and --rkey\n", cmd);
            return CON_ERR;
        }
        o.addr = vaddr;
    }
    if (!o.has_rkey) {
        if (!known) {
            printf("%s: the exchange carried no rkey: give --rkey\n", cmd);
            return CON_ERR;
        }
        o.rkey = prkey;
    }
    if (!o.has_region) o.region = QPX_BUF_BYTES;
    if (o.region < o.len) {
        printf("%s: --len %lu is more than the region (0x%llx; --region sets it)\n", cmd,
               (unsigned long)o.len, (unsigned long long)o.region);
        return CON_ERR;
    }
    if (o.addr & 63) {
        printf("%s: --addr must be a multiple of 64 (got 0x%llx)\n", cmd, (unsigned long long)o.addr);
        return CON_ERR;
    }
    if (o.addr + o.region < o.addr) {
        printf("%s: --addr + --region wraps around 2^64\n", cmd);
        return CON_ERR;
    }
    struct roce_mr *m = stream_mr(cmd, o.addr, o.region, 0, qp->ctx.pd);
    if (!m) return CON_ERR;
    uint32_t rate = (uint32_t)((uint64_t)o.gbps * 32000000000ull / tmr_clk_hz());
    REG32(USER_SRC_QPN) = qp->qpn;
    REG32(USER_SRC_LKEY) = m->key;
    REG32(USER_SRC_RKEY) = o.rkey;
    REG32(USER_SRC_ADDR_LO) = (uint32_t)o.addr;
    REG32(USER_SRC_ADDR_HI) = (uint32_t)(o.addr >> 32);
    REG32(USER_SRC_REGION) = (uint32_t)o.region;
    REG32(USER_SRC_LEN) = o.len;
    REG32(USER_SRC_COUNT) = o.count;
    REG32(USER_SRC_RATE) = rate > 0xffff ? 0xffff : rate;
    REG32(USER_SRC_MODE) = o.mode;
    REG32(USER_SRC_SEED_LO) = (uint32_t)o.seed;
    REG32(USER_SRC_SEED_HI) = (uint32_t)(o.seed >> 32);
    REG32(USER_SRC_CTRL) = 1;
    printf("user source: QP 0x%lx, ", (unsigned long)qp->qpn);
    if (o.count) printf("%lu", (unsigned long)o.count);
    else printf("until stopped,");
    printf(" WRITEs of %lu B round 0x%llx + 0x%llx rkey 0x%08lx, %s seed 0x%llx, ", (unsigned long)o.len,
           (unsigned long long)o.addr, (unsigned long long)o.region, (unsigned long)o.rkey,
           o.mode ? "counter" : "pattern", (unsigned long long)o.seed);
    if (o.gbps) printf("paced at %lu Gb/s\n", (unsigned long)o.gbps);
    else printf("unpaced\n");
    return CON_OK;
}

/* ---- sink */
static int sink_cmd(int argc, char **argv) {
    const char *cmd = "user sink";
    struct user_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    if (parse_opts(cmd, argc, argv, 2, false, &o) != 0) return CON_ERR;
    if (o.has_addr != o.has_region) {
        printf("%s: --addr and --region go together (a streaming MR for remote writes)\n", cmd);
        return CON_ERR;
    }
    if (o.has_addr) {
        if (roce_need("user") != 0) return CON_ERR;
        if (!o.has_pd) {
            struct roce_qp *qp = qpx_qp(0);
            o.pd = qp ? qp->ctx.pd : 1;
        }
        if (o.region == 0 || o.addr + o.region < o.addr) {
            printf("%s: --region: expected at least one byte, no wrap\n", cmd);
            return CON_ERR;
        }
        if (!stream_mr(cmd, o.addr, o.region, ROCE_ACC_REMOTE_WRITE, o.pd)) return CON_ERR;
    }
    REG32(USER_SNK_MODE) = o.mode;
    REG32(USER_SNK_SEED_LO) = (uint32_t)o.seed;
    REG32(USER_SNK_SEED_HI) = (uint32_t)(o.seed >> 32);
    REG32(USER_SNK_CLEAR) = 1;
    printf("user sink: cleared, checking %s seed 0x%llx\n", o.mode ? "counter" : "pattern",
           (unsigned long long)o.seed);
    return CON_OK;
}

/* ---- status */
static void status(void) {
    uint32_t st = REG32(USER_SRC_STATUS), posted = REG32(USER_SRC_POSTED), cyc = REG32(USER_SRC_CYCLES);
    uint32_t len = REG32(USER_SRC_LEN), done = REG32(USER_SRC_COMPLETED), errs = REG32(USER_SRC_ERRORS);
    printf("user source: %s, %lu posted, %lu completed, %lu errors",
           (st & USER_SRC_STATUS_BUSY_MASK) ? "running" : (st & USER_SRC_STATUS_DONE_MASK) ? "done" : "idle",
           (unsigned long)posted, (unsigned long)done, (unsigned long)errs);
    if (st & USER_SRC_STATUS_FIRST_ERR_VALID_MASK)
        printf(" (first: status %lu)",
               (unsigned long)((st & USER_SRC_STATUS_FIRST_ERR_STATUS_MASK) >> USER_SRC_STATUS_FIRST_ERR_STATUS_SHIFT));
    printf(", %lu unaligned, %lu cycles, %.2f Gb/s\n", (unsigned long)REG32(USER_SRC_UNALIGNED),
           (unsigned long)cyc, tmr_gbps((uint64_t)(done - errs) * len, cyc));
    uint64_t bytes = rd64(USER_SNK_BYTES_LO, USER_SNK_BYTES_HI);
    uint32_t kc = REG32(USER_SNK_CYCLES), bad = REG32(USER_SNK_BAD_BEATS);
    printf("user sink: %lu chunks, %lu messages, %llu bytes, %lu bad beats", (unsigned long)REG32(USER_SNK_CHUNKS),
           (unsigned long)REG32(USER_SNK_MESSAGES), (unsigned long long)bytes, (unsigned long)bad);
    if (REG32(USER_SNK_STATUS) & USER_SNK_STATUS_FIRST_BAD_VALID_MASK)
        printf(" (first at 0x%llx)", (unsigned long long)rd64(USER_SNK_FIRST_BAD_LO, USER_SNK_FIRST_BAD_HI));
    printf(", %lu gaps, %lu unaligned, %lu cycles, %.2f Gb/s\n", (unsigned long)REG32(USER_SNK_GAPS),
           (unsigned long)REG32(USER_SNK_UNALIGNED), (unsigned long)kc, tmr_gbps(bytes, kc));
}

static int cmd_user(int argc, char **argv) {
    const char *sub = argc >= 2 ? argv[1] : "status";
    if (!user_present()) return CON_ERR;
    if (strcmp(sub, "status") == 0) {
        if (argc > 2) {
            printf("user status: takes no arguments\n");
            return CON_ERR;
        }
        status();
        return CON_OK;
    }
    if (strcmp(sub, "sink") == 0) return sink_cmd(argc, argv);
    if (strcmp(sub, "source") == 0) {
        const char *what = argc >= 3 ? argv[2] : "";
        if (strcmp(what, "start") == 0) return source_start(argc, argv);
        if (strcmp(what, "stop") == 0 && argc == 3) {
            REG32(USER_SRC_CTRL) = 2;
            printf("user source: stopping (what was posted completes; 'user' shows it)\n");
            return CON_OK;
        }
        printf("user source: expected start [QPN] [OPTIONS] or stop\n");
        return CON_ERR;
    }
    printf("user: unknown subcommand '%s' (status, source start|stop, sink)\n", sub);
    return CON_ERR;
}

static void user_help_more(void) {
    printf("  source start [QPN]: RDMA WRITEs made by the source on QPN (default: the\n");
    printf("  newest session's QP) to the peer's buffer, no firmware work per message.\n");
    printf("  --len N bytes per WRITE (multiple of 64, default %u); --count N WRITEs (default\n",
           USER_LEN_DEFAULT);
    printf("  0: until 'user source stop'); --gbps N pacing (default 0: unpaced); --addr A,\n");
    printf("  --region R: the remote range the WRITEs go round (default the exchange's buffer);\n");
    printf("  --rkey K; --mode pattern|counter, --seed S: the data ('verify ADDR LEN SEED'\n");
    printf("  checks a pattern in memory). The payload comes from a streaming MR of this NIC\n");
    printf("  over the same addresses (registered when none covers them).\n");
    printf("  sink: clear the sink's counters and set what it expects (--mode, --seed); with\n");
    printf("  --addr A --region R [--pd N] also register a streaming MR for remote WRITEs\n");
    printf("  there (its key is printed: the source's --rkey).\n");
    printf("  status (or nothing): both examples' counters and Gb/s.\n");
}
CON_COMMAND_MORE(user, "[status | source start [QPN] [OPTIONS] | source stop | sink [OPTIONS]]",
                 "the user-logic examples: a streaming source of RDMA WRITEs and a checking sink",
                 cmd_user, user_help_more);
