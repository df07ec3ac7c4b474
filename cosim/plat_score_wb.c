/*
 * plat_score_wb.c - the handler scoreboard's write-back rule (issue 20, docs/cosim.md "Handler
 * scoreboard"): a writable page that loses its frame (an eviction, a move to the host) must be
 * copied back (a D2H from the frame to the page) before the frame is reused (an H2D into it);
 * otherwise the page's content is lost. The copy is taken at submission (the platform's DMA reads
 * the frame's content tag when it is submitted), so a submitted D2H is enough. A page whose
 * allocation was freed meanwhile owes nothing.
 */
#include <stdio.h>

#include "gmmu_consts.h"
#include "plat_score.h"
#include "plat_score_int.h"
#include "u64map.h"

#define WB_VPN_MASK ((1ull << 36) - 1u)
#define WB_KEY(asid, vpn) ((uint64_t)(asid) << 40 | (vpn))

static void wb_put(plat_score_t *s, u64map_t *m, uint64_t k, uint64_t v) {
    if (u64map_put(m, k, v) != 0 && !s->oom) {
        s->oom = 1;
        s->st.violations++;
        s->env.violation(s->env.ctx, "scoreboard: out of memory (the checks stop)");
    }
}

static int wb_managed(const plat_score_t *s, uint64_t who) {
    int ro = 0, pl = 0;
    return s->env.alloc_of(s->env.ctx, (unsigned)((who >> 40) & 0xffu),
                           (who & WB_VPN_MASK) << GMMU_PAGE_SHIFT, &ro, &pl);
}

void plat_score_wb_unmap(plat_score_t *s, uint64_t f, uint64_t who) {
    uint64_t done = 0;
    if (u64map_get(&s->wbdone, f, &done) && done == who)
        u64map_del(&s->wbdone, f); /* already copied back */
    else if (wb_managed(s, who))
        wb_put(s, &s->owed, f, who);
}

void plat_score_wb_reuse(plat_score_t *s, uint64_t f) {
    uint64_t who = 0;
    u64map_del(&s->wbdone, f);
    if (!u64map_get(&s->owed, f, &who))
        return;
    u64map_del(&s->owed, f);
    if (!wb_managed(s, who))
        return;
    char msg[320];
    snprintf(msg, sizeof msg,
             "scoreboard: wb: H2D DMA into frame 0x%llx before the write-back (D2H) of the "
             "writable page it held (ASID %u VA 0x%llx) was submitted",
             (unsigned long long)f, (unsigned)((who >> 40) & 0xffu),
             (unsigned long long)((who & WB_VPN_MASK) << GMMU_PAGE_SHIFT));
    s->st.violations++;
    s->env.violation(s->env.ctx, msg);
}

void plat_score_d2h(plat_score_t *s, uint64_t ppn, uint64_t n, uint64_t dst_vpn) {
    const uint64_t mask = (1ull << GMMU_VPN_W) - 1u;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t who = 0;
        const uint64_t x = dst_vpn + i, key = WB_KEY(x >> GMMU_VPN_W, x & mask);
        if (u64map_get(&s->owed, ppn + i, &who) && who == key)
            u64map_del(&s->owed, ppn + i);
        else
            wb_put(s, &s->wbdone, ppn + i, key); /* its unmap is seen at the next sync */
    }
}

void plat_score_wb_free(plat_score_t *s) {
    u64map_free(&s->owed);
    u64map_free(&s->wbdone);
    u64map_free(&s->pins);
}
