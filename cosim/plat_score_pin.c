/*
 * plat_score_pin.c - the handler scoreboard's pin rule (issue 20, docs/handler.md §6p.2,
 * docs/cosim.md "Handler scoreboard"): a page the handler pinned for thrashing (its PIN event:
 * not evicted while the time is below the pin's end) is evicted for capacity (an EVICT event of
 * cause UVM_EVICT_CAPACITY covering it) while the pin holds: violation "pin". A page that leaves
 * because the CPU touched it or a user call moved it (causes CPU_FAULT, API) is no eviction. The
 * pins and evictions are the handler's own events (the one rule built from them: the page tables
 * cannot tell an eviction from another unmap); the time is the platform's. And the lru order
 * check's exception: a page pinned now is skipped by lru, so it is no older resident page.
 */
#include <stdio.h>

#include "gmmu_consts.h"
#include "plat_score.h"
#include "plat_score_int.h"
#include "u64map.h"

void plat_score_pin(plat_score_t *s, uint64_t key, uint64_t until_ns) {
    if (u64map_put(&s->pins, key, until_ns) != 0 && !s->oom) {
        s->oom = 1;
        s->st.violations++;
        s->env.violation(s->env.ctx, "scoreboard: out of memory (the checks stop)");
    }
}

void plat_score_unpin(plat_score_t *s, uint64_t key) {
    u64map_del(&s->pins, key);
}

void plat_score_evict(plat_score_t *s, uint64_t key, uint64_t pages, uint64_t frame,
                      uint64_t now_ns) {
    if (s->pins.count == 0)
        return;
    for (uint64_t i = 0; i < pages; i++) {
        uint64_t until = 0;
        s->st.checks++;
        if (!u64map_get(&s->pins, key + i, &until) || now_ns >= until)
            continue;
        char msg[320];
        snprintf(
            msg, sizeof msg,
            "scoreboard: pin: page ASID %u VA 0x%llx (handler frame %llu) evicted at %llu ns while "
            "pinned by a thrashing PIN until %llu ns",
            SC_KEY_ASID(key + i), (unsigned long long)(SC_KEY_VPN(key + i) << GMMU_PAGE_SHIFT),
            (unsigned long long)(frame + i), (unsigned long long)now_ns, (unsigned long long)until);
        s->st.violations++;
        s->env.violation(s->env.ctx, msg);
        return;
    }
}

void plat_score_pin_time(plat_score_t *s, uint64_t now_ns) {
    s->pin_now = now_ns;
}

int plat_score_order_broken(const plat_score_t *s, uint64_t e, uint64_t *oldest) {
    if (s->pins.count == 0)
        return 1;
    const uint64_t now = s->pin_now;
    uint64_t best = UINT64_MAX, key = 0, v = 0, until = 0;
    for (size_t pos = 0; u64map_next(&s->maps, &pos, &key, &v);) {
        const uint64_t ve = SC_VAL_EPOCH(v);
        if ((key & SC_KEY_LARGE) || (v & SC_VAL_PLAT) || ve >= s->epoch || ve >= best)
            continue;
        if (u64map_get(&s->pins, key, &until) && now < until)
            continue; /* pinned: lru skips it */
        best = ve;
    }
    if (best == UINT64_MAX || e <= best)
        return 0;
    *oldest = best;
    return 1;
}
