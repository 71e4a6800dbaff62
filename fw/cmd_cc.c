/*
 * cc: congestion control (docs/cc.md). Today the transport's ECT(0) marking
 * (regs/roce.toml ecn_ctrl): with it on, the RoCE packets this NIC sends are
 * ECN-capable, so an ECN switch marks them CE where it would drop. DCQCN's
 * reaction and notification points (rtl/cc) are not in the datapath yet: the
 * command says so rather than show registers that do nothing.
 *
 *   cc              the state
 *   cc ect on|off   ECT(0) marking
 */
#include <solonic_regs.h>
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "roce/roce.h"

static void cc_show(void) {
    printf("cc: ECT(0) marking %s (RoCE packets leave with ECN %s)\n", REG32(ROCE_ECN_CTRL) ? "on" : "off",
           REG32(ROCE_ECN_CTRL) ? "2'b10, ECN-capable" : "0, as rxe sends");
    printf("cc: DCQCN reaction and notification points: not in the datapath yet (docs/cc.md); "
           "CE-marked packets are taken like others and no CNP is sent\n");
}

static int cmd_cc(int argc, char **argv) {
    if (roce_need("cc") != 0) return CON_ERR;
    if (argc == 1) {
        cc_show();
        return CON_OK;
    }
    if (strcmp(argv[1], "ect") != 0) {
        printf("cc: unknown argument '%s' (cc, or cc ect on|off)\n", argv[1]);
        return CON_ERR;
    }
    if (argc != 3 || (strcmp(argv[2], "on") != 0 && strcmp(argv[2], "off") != 0)) {
        printf("cc: ect: expected on or off\n");
        return CON_ERR;
    }
    REG32(ROCE_ECN_CTRL) = strcmp(argv[2], "on") == 0;
    cc_show();
    return CON_OK;
}
CON_COMMAND(cc, "[ect on|off]", "congestion control: ECT(0) marking of the RoCE packets sent", cmd_cc);
