/*
 * plat_co.c - the host-context agents that issue GMMU commands between the workload's cycles, as
 * a host would (CMD_ARG, CMD, then CMD_STATUS polled until BUSY clears); platform only: every
 * engine sees the same CSR accesses.
 *
 * The chaos agent (docs/cosim.md "Chaos agent"): INVAL_PAGE of a recently translated page or
 * INVAL_ALL every chaos_inval cycles.
 *
 * The coalesce test hook (docs/microarch.md §15, docs/cosim.md "Coalesce hook"): keys
 * coalesce_at / splinter_at / co_vpn issue COALESCE / SPLINTER for the 2 MB region of co_vpn at
 * the first host point at or after those cycles, and count the result (co_cmds, co_errors).
 */
#include "plat_int.h"

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

void plat_chaos(plat_t *p) {
    /* forward progress under invalidation storms (docs/cosim.md "Chaos agent"): a command after
       which a walk restarted extends the streak, a completed translation ends it
       (plat_progress_mark); at chaos_streak commands in a streak the agent holds back */
    if (p->ch.restarted) {
        p->ch.streak++;
        p->ch.restarted = 0;
    }
    /* commands longer than chaos_inval run back to back; after PLAT_CHAOS_BACK_TO_BACK of them
       the next one waits for a cycle of the workload (else, with chaos_inval shorter than a
       command, the host could never launch the next kernel) */
    if (p->ch.busy >= PLAT_CHAOS_BACK_TO_BACK)
        return;
    if (p->o.chaos_streak && p->ch.streak >= p->o.chaos_streak) {
        p->ch.held++;
        return;
    }
    p->hd.running = 1; /* the handler cannot start meanwhile */
    p->ch.running = 1;
    uint32_t op = GMMU_CMD_INVAL_ALL;
    uint64_t vpn = 0;
    if (p->ch.nrecent > 0 && rng_below(&p->ch.rng, 4) != 0) {
        const uint64_t n = p->ch.nrecent < PLAT_RECENT_PAGES ? p->ch.nrecent : PLAT_RECENT_PAGES;
        vpn = p->ch.recent[rng_below(&p->ch.rng, n)];
        op = GMMU_CMD_INVAL_PAGE;
    }
    evr_add(&p->ring, p->now, EVR_CHAOS, 0, 0, op, vpn, 0);
    p->ch.cmds++;
    plat_csr_write_cycle(p, GMMU_CSR_CMD_ARG_LO, (uint32_t)vpn);
    plat_csr_write_cycle(p, GMMU_CSR_CMD_ARG_HI,
                         (uint32_t)(vpn >> 32) & ((1u << (GMMU_VPN_W - 32u)) - 1u));
    plat_csr_write_cycle(p, GMMU_CSR_CMD, op);
    while ((plat_csr_read(p, GMMU_CSR_CMD_STATUS) >> GMMU_BIT_CMD_STATUS_BUSY) & 1u)
        ;
    p->hd.running = 0;
    p->ch.running = 0;
    p->ch.busy++;
}
