/*
 * cc: congestion control (docs/cc.md): the transport's ECT(0) marking
 * (regs/roce.toml ecn_ctrl: with it on, the RoCE packets this NIC sends are
 * ECN-capable, so an ECN switch marks them CE where it would drop) and DCQCN's
 * notification point (CE-marked packets make the NIC send CNPs, at most one
 * per QP per np_interval cycles). The reaction point (rtl/cc/cc_rp.sv) is not
 * in the datapath yet: CNPs received are only counted, and the command says so.
 *
 *   cc                  the state and the notification point's counters
 *   cc ect on|off       ECT(0) marking
 *   cc np-interval N    the least cycles between two CNPs to one QP (1..NP_INT_MAX)
 */
#include <solonic_regs.h>
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "roce/roce.h"

/* 1 s at 250 MHz: cc_np compares its deadlines by the sign of a 32-bit difference */
#define NP_INT_MAX 250000000u

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
    printf("cc: reaction point: not in the datapath yet (docs/cc.md); CNPs received are counted, rates stay at line\n");
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
    } else {
        printf("cc: unknown argument '%s' (cc, cc ect on|off, or cc np-interval N)\n", argv[1]);
        return CON_ERR;
    }
    cc_show();
    return CON_OK;
}
CON_COMMAND(cc, "[ect on|off | np-interval N]",
            "congestion control: ECT(0) marking, DCQCN notification point interval and counters", cmd_cc);
