/* Loads and stores to unmapped addresses trap with access faults (mcause 5
   for loads, 7 for stores, mtval the address) and never hang the core; the
   program carries on after each. The datapath window (0x3000_0000..0x4fff_ffff)
   goes out of the SoC; addresses in it that no NIC block claims answer err too. */
#include "soc_test.h"

static volatile uint32_t traps, last_cause, last_tval;

uint32_t on_trap(struct trap *t) {
    traps++;
    last_cause = t->mcause;
    last_tval = t->mtval;
    return t->mepc + 4;  /* skip the faulting load or store (no compressed code) */
}

static const uint32_t bad[] = {
    0x00040000u,  /* just past IMEM */
    0x0ffffffcu,
    0x10040000u,  /* just past DMEM */
    0x20005000u,  /* first unused register block */
    0x2000fffcu,
    0x20000ffcu,  /* inside sysinfo, past its registers */
    0x30f00000u,  /* datapath registers: no block there */
    0x40f00000u,  /* mgmt buffers: no buffer there */
    0x50000000u, 0x80000000u, 0xfffffffcu,
};

int main(void) {
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint32_t before = traps;
        (void)REG(bad[i]);
        check("traps after a load from an unmapped address", before + 1, traps);
        check("mcause of the load (load access fault)", 5, last_cause);
        check("mtval of the load", bad[i], last_tval);
        REG(bad[i]) = 0x12345678u;
        check("traps after a store to an unmapped address", before + 2, traps);
        check("mcause of the store (store access fault)", 7, last_cause);
        check("mtval of the store", bad[i], last_tval);
    }
    /* a mapped access right after still works */
    check("sysinfo ID after the faults", 0x534c4e43u, REG(SYSINFO_BASE));
    put_str(soc_fails ? "soc_unmapped: FAILED\n" : "soc_unmapped: ok\n");
    return soc_fails ? 1 : 0;
}
