/*
 * cc: congestion control (docs/cc.md): the transport's ECT(0) marking
 * (regs/roce.toml ecn_ctrl: with it on, the RoCE packets this NIC sends are
 * ECN-capable, so an ECN switch marks them CE where it would drop), DCQCN's
 * notification point (CE-marked packets make the NIC send CNPs, at most one
 * per QP per np_interval cycles) and its reaction point (rtl/cc/cc_rp.sv: a
 * rate per QP lowered by the CNPs received, raised by timers and bytes sent;
 * rtl/cc/cc_pacer.sv holds each QP's packets to it).
 *
 *   cc                  the state, the parameters and the counters
 *   cc ect on|off       ECT(0) marking
 *   cc np-interval N    the least cycles between two CNPs to one QP (1..NP_INT_MAX)
 *   cc set NAME VALUE   a reaction-point parameter (the table below, range checked)
 *   cc qp N             QP N's rate, target rate, alpha and whether it is under rate control
 */
#include <solonic_regs.h>
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "roce/roce.h"

/* 1 s at 250 MHz: cc_np compares its deadlines by the sign of a 32-bit difference */
#define NP_INT_MAX 250000000u

/* the reaction point's parameters: name, register, range, unit */
struct cc_param {
    const char *name;
    uint32_t reg;
    uint32_t lo, hi;
    const char *unit;
};
/* timers and the decrease interval: deadlines compared by the sign of a 32-bit
 * difference (below 2^31 cycles); rates fit the 17-bit fields (131071 Mb/s) */
static const struct cc_param cc_params[] = {
    {"line_mbps", ROCE_RP_LINE_MBPS, 1, 131071, "Mb/s"},
    {"min_mbps", ROCE_RP_MIN_MBPS, 1, 131071, "Mb/s"},
    {"ai_mbps", ROCE_RP_AI_MBPS, 0, 131071, "Mb/s"},
    {"hai_mbps", ROCE_RP_HAI_MBPS, 0, 131071, "Mb/s"},
    {"g", ROCE_RP_G, 0, 1023, "/1024"},
    {"alpha_init", ROCE_RP_ALPHA_INIT, 0, 1024, "/1024"},
    {"f", ROCE_RP_F, 0, 7, "stages"},
    {"dec_cyc", ROCE_RP_DEC_CYC, 1, 250000000, "cycles"},
    {"alpha_cyc", ROCE_RP_ALPHA_CYC, 1, 250000000, "cycles"},
    {"rai_cyc", ROCE_RP_RAI_CYC, 1, 250000000, "cycles"},
    {"b_bytes", ROCE_RP_B_BYTES, 1, 0x7fffffffu, "bytes"},
    {"burst", ROCE_RP_BURST, 0, 262143, "bytes"},
};
#define CC_NPARAMS (sizeof cc_params / sizeof cc_params[0])

static void cc_show(void) {
    uint32_t iv = REG32(ROCE_NP_INTERVAL);

    printf("cc: ECT(0) marking %s (RoCE packets leave with ECN %s)\n", REG32(ROCE_ECN_CTRL) ? "on" : "off",
           REG32(ROCE_ECN_CTRL) ? "2'b10, ECN-capable" : "0, as rxe sends");
    printf("cc: notification point: a CNP per CE-marked QP at most every %lu cycles (%lu ns)\n", (unsigned long)iv,
           (unsigned long)iv * 4u);
    printf("cc: np_ecn_marked_roce_packets %lu np_cnp_sent %lu np_cnp_dropped %lu rp_cnp_received %lu "
           "rp_cnp_dropped %lu\n",
           (unsigned long)REG32(ROCE_NP_ECN_MARKED_ROCE_PACKETS), (unsigned long)REG32(ROCE_NP_CNP_SENT),
           (unsigned long)REG32(ROCE_NP_CNP_DROPPED), (unsigned long)REG32(ROCE_RP_CNP_RECEIVED),
           (unsigned long)REG32(ROCE_RP_CNP_DROPPED));
    printf("cc: reaction point (DCQCN):");
    for (unsigned i = 0; i < CC_NPARAMS; i++) printf(" %s %lu", cc_params[i].name, (unsigned long)REG32(cc_params[i].reg));
    printf("\n");
    printf("cc: rp_cnp_handled %lu rp_cnp_ignored %lu rp_rate_dec %lu rp_ev_dropped %lu rp_paced %lu\n",
           (unsigned long)REG32(ROCE_RP_CNP_HANDLED), (unsigned long)REG32(ROCE_RP_CNP_IGNORED),
           (unsigned long)REG32(ROCE_RP_RATE_DEC), (unsigned long)REG32(ROCE_RP_EV_DROPPED),
           (unsigned long)REG32(ROCE_RP_PACED));
}

static int cc_set(int argc, char **argv) {
    uint32_t v;
    const struct cc_param *p = NULL;

    if (argc != 4) {
        printf("cc: set: expected NAME VALUE\n");
        return CON_ERR;
    }
    for (unsigned i = 0; i < CC_NPARAMS; i++)
        if (strcmp(argv[2], cc_params[i].name) == 0) p = &cc_params[i];
    if (!p) {
        printf("cc: set: unknown parameter '%s' (", argv[2]);
        for (unsigned i = 0; i < CC_NPARAMS; i++) printf("%s%s", i ? " " : "", cc_params[i].name);
        printf(")\n");
        return CON_ERR;
    }
    if (con_parse_u32("cc", p->name, argv[3], &v) != 0) return CON_ERR;
    if (v < p->lo || v > p->hi) {
        printf("cc: set: %s %lu out of range %lu..%lu %s\n", p->name, (unsigned long)v, (unsigned long)p->lo,
               (unsigned long)p->hi, p->unit);
        return CON_ERR;
    }
    REG32(p->reg) = v;
    printf("cc: %s %lu %s\n", p->name, (unsigned long)REG32(p->reg), p->unit);
    return CON_OK;
}

static int cc_qp(int argc, char **argv) {
    uint32_t q, r;
    uint32_t nqp = roce_hw_caps()->nqp;   /* (cmd_cc checked roce_need first) */

    if (argc != 3) {
        printf("cc: qp: expected a QP number\n");
        return CON_ERR;
    }
    if (con_parse_u32("cc", "qp", argv[2], &q) != 0) return CON_ERR;
    if (q >= nqp) {
        printf("cc: qp: %lu out of range 0..%lu\n", (unsigned long)q, (unsigned long)(nqp - 1));
        return CON_ERR;
    }
    REG32(ROCE_RP_QP_SEL) = q;
    (void)REG32(ROCE_RP_QP_SEL);   /* the state follows the selection within 3 cycles */
    r = REG32(ROCE_RP_QP_RATE);
    if (r & ROCE_RP_QP_RATE_ACTIVE_MASK)
        printf("cc: qp %lu: rate %lu Mb/s, target %lu Mb/s, alpha %lu/1024, active\n", (unsigned long)q,
               (unsigned long)(r & ROCE_RP_QP_RATE_MBPS_MASK), (unsigned long)REG32(ROCE_RP_QP_TARGET),
               (unsigned long)REG32(ROCE_RP_QP_ALPHA));
    else
        printf("cc: qp %lu: rate %lu Mb/s (line), not under rate control\n", (unsigned long)q,
               (unsigned long)(r & ROCE_RP_QP_RATE_MBPS_MASK));
    return CON_OK;
}

static int cmd_cc(int argc, char **argv) {
    if (roce_need("cc") != 0) return CON_ERR;
    if (argc == 1) {
        cc_show();
        return CON_OK;
    }
    if (strcmp(argv[1], "ect") == 0) {
        if (argc != 3 || (strcmp(argv[2], "on") != 0 && strcmp(argv[2], "off") != 0)) {
            printf("cc: ect: expected on or off\n");
            return CON_ERR;
        }
        REG32(ROCE_ECN_CTRL) = strcmp(argv[2], "on") == 0;
    } else if (strcmp(argv[1], "np-interval") == 0) {
        uint32_t v;
        if (argc != 3) {
            printf("cc: np-interval: expected a number of cycles\n");
            return CON_ERR;
        }
        if (con_parse_u32("cc", "np-interval", argv[2], &v) != 0) return CON_ERR;
        if (v < 1 || v > NP_INT_MAX) {
            printf("cc: np-interval: %lu out of range 1..%lu cycles\n", (unsigned long)v, (unsigned long)NP_INT_MAX);
            return CON_ERR;
        }
        REG32(ROCE_NP_INTERVAL) = v;
    } else if (strcmp(argv[1], "set") == 0) {
        return cc_set(argc, argv);
    } else if (strcmp(argv[1], "qp") == 0) {
        return cc_qp(argc, argv);
    } else {
        printf("cc: unknown argument '%s' (cc, cc ect on|off, cc np-interval N, cc set NAME VALUE, or cc qp N)\n",
               argv[1]);
        return CON_ERR;
    }
    cc_show();
    return CON_OK;
}
CON_COMMAND(cc, "[ect on|off | np-interval N | set NAME VALUE | qp N]",
            "congestion control: ECT(0) marking, DCQCN notification and reaction points: parameters, counters, "
            "a QP's rate",
            cmd_cc);
