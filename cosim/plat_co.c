/*
 * plat_co.c - test hook of the coalesce unit (docs/microarch.md §15, docs/cosim.md "Coalesce
 * hook"): keys coalesce_at / splinter_at / co_vpn issue COALESCE / SPLINTER for the 2 MB region
 * of co_vpn at the first host point at or after those cycles, like a host would (CMD_ARG, CMD,
 * then CMD_STATUS polled until BUSY clears), and count the result (co_cmds, co_errors).
 * Platform only: both engines see the same CSR accesses.
 */
#include "plat_int.h"

uint64_t plat_co_next(const plat_co_t *c) {
    uint64_t t = 0;
    for (unsigned k = 0; k < 2; k++)
        if (c->next[k] && (!t || c->next[k] < t))
            t = c->next[k];
    return t;
}

static void co_issue(plat_t *p, uint32_t op) {
    const uint64_t vpn = p->cfg->co_vpn;
    evr_add(&p->ring, p->now, EVR_CHAOS, 0, 0, op, vpn, 0);
    p->co.cmds++;
    /* the handler never leaves BUSY set; a CMD written while BUSY would be refused */
    while ((plat_csr_read(p, GMMU_CSR_CMD_STATUS) >> GMMU_BIT_CMD_STATUS_BUSY) & 1u)
        if (p->halted)
            return;
    plat_csr_write_cycle(p, GMMU_CSR_CMD_ARG_LO, (uint32_t)vpn);
    plat_csr_write_cycle(p, GMMU_CSR_CMD_ARG_HI,
                         (uint32_t)(vpn >> 32) & GMMU_CSR_CMD_ARG_HI_VPN_MASK);
    plat_csr_write_cycle(p, GMMU_CSR_CMD, op);
    uint32_t st;
    do {
        st = plat_csr_read(p, GMMU_CSR_CMD_STATUS);
    } while (((st >> GMMU_BIT_CMD_STATUS_BUSY) & 1u) && !p->halted);
    const uint32_t err = (st >> GMMU_CSR_CMD_STATUS_CO_ERR_LSB) & GMMU_CSR_CMD_STATUS_CO_ERR_MASK;
    if (err != GMMU_CO_OK)
        p->co.errors++;
}

void plat_co_hook(plat_t *p) {
    p->hd.running = 1; /* the handler cannot start meanwhile */
    for (unsigned k = 0; k < 2 && !p->halted; k++) {
        if (p->co.next[k] && p->now >= p->co.next[k]) {
            p->co.next[k] = 0;
            co_issue(p, k == 0 ? GMMU_CMD_COALESCE : GMMU_CMD_SPLINTER);
        }
    }
    p->hd.running = 0;
}
