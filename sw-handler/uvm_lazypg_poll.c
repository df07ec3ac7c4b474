/*
 * uvm_lazypg_poll.c - the poll of lazy_pg_stat_sw / lazy_pg_dyn_sw (docs/handler.md §6x.4): the
 * remote pages' counts read without a fault, at the end of each service pass (uvm_service.c) and
 * by the timer (uvm_handler_wake_ns / uvm_handler_wake, uvm_handler.c); the due pages migrate
 * (uvm_remote_to_gpu) in VPN order. Above the migration; the decisions and the state are
 * uvm_lazypg.c, below the remote placement.
 */
#include <stdlib.h>

#include "uvm_lazypg.h"
#include "uvm_place.h"

static int cmp_u64(const void *a, const void *b) {
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint32_t uvm_lazy_poll(uvm_handler_t *h) {
    struct uvm_lazy *l = h->lazy;
    if (!l)
        return 0;
    h->stats.lazy_polls++;
    l->next_poll_ns =
        h->dev.now_ns(h->dev.ctx) + (uint64_t)h->cfg.lazy_pg_poll_us * UVM_LAZY_NS_PER_US;
    if (!l->watch.count)
        return 0;
    uint64_t *due = malloc(l->watch.count * sizeof *due);
    if (!due) {
        uvm_logf(h, "lazy_pg: out of memory polling the counts");
        return 0;
    }
    size_t n = 0, pos = 0;
    uint64_t vpn, base;
    while (u64map_next(&l->watch, &pos, &vpn, &base)) {
        uint64_t ev = 0;
        (void)u64map_get(&l->evictions, vpn, &ev);
        const uint64_t c = uvm_lazy_count(h, vpn);
        if (c - (c < base ? c : base) >=
            uvm_lazy_threshold(h->cfg.remote_policy, h->cfg.lazy_pg_threshold, ev))
            due[n++] = vpn;
    }
    qsort(due, n, sizeof *due, cmp_u64); /* deterministic: VPN order, not the table's */
    uint32_t moved = 0;
    for (size_t i = 0; i < n; i++) {
        (void)u64map_del(&l->watch, due[i]); /* a page that stays remote (no frame) re-arms */
        const uint32_t m = uvm_remote_to_gpu(h, due[i], 1);
        if (!m && uvm_remote_is(h, due[i]) &&
            u64map_put(&l->watch, due[i], uvm_lazy_count(h, due[i])))
            uvm_logf(h, "lazy_pg: out of memory re-arming a remote page");
        moved += m;
    }
    free(due);
    h->stats.lazy_pages += moved;
    return moved;
}

void uvm_lazy_service(uvm_handler_t *h) {
    if (h->lazy)
        (void)uvm_lazy_poll(h);
}

uint64_t uvm_lazy_wake_ns(const uvm_handler_t *h) {
    const struct uvm_lazy *l = h->lazy;
    return l && l->watch.count ? l->next_poll_ns : UINT64_MAX;
}

bool uvm_lazy_wake(uvm_handler_t *h) {
    const uint64_t at = uvm_lazy_wake_ns(h);
    if (at == UINT64_MAX || h->dev.now_ns(h->dev.ctx) < at)
        return false;
    h->dev.cpu_delay(h->dev.ctx, h->cfg.t_irq_ns); /* the timer interrupt */
    h->stats.lazy_timer_polls++;
    (void)uvm_lazy_poll(h);
    return true;
}
