/*
 * uvm_lazypg.c - DynaMap's software per-page counter baselines (seed 001 §6.1, docs/handler.md
 * §6x.4): LazyPgStatSW (remote_policy lazy_pg_stat_sw) and LazyPgDynSW (lazy_pg_dyn_sw).
 * A faulting page is mapped remotely (stat: always; dyn: once the memory has filled, before that
 * first-touch migration); the instrumented program counts every access of a page in the software
 * PST (the platform, §6x.1); the handler remembers each remote page's count when it was mapped
 * (the REMOTE_MAP event) and polls the counts without a fault - at the end of each service pass
 * and every lazy_pg_poll_us of device time (the wake-up timer) - migrating, in VPN order, each
 * remote page whose count since its mapping reached its threshold: lazy_pg_threshold (stat), or
 * lazy_pg_threshold x (1 + the page's capacity evictions) (dyn, our reading of Ganguly et al.).
 * This file: the decisions and the state (below the remote placement, which asks
 * uvm_lazy_wants_remote); the poll that migrates is uvm_lazypg_poll.c.
 */
#include "uvm_lazypg.h"

#include <stdlib.h>

#include "err.h"
#include "uvm_place.h"

bool uvm_lazy_policy(uint32_t remote_policy) {
    return remote_policy == UVM_REMOTE_LAZY_PG_STAT_SW ||
           remote_policy == UVM_REMOTE_LAZY_PG_DYN_SW;
}

int uvm_lazy_check_cfg(const uvm_cfg_t *c, const uvm_dev_t *d, char *err, size_t errlen) {
    if (!uvm_lazy_policy(c->remote_policy))
        return 0;
    const char *name =
        c->remote_policy == UVM_REMOTE_LAZY_PG_STAT_SW ? "lazy_pg_stat_sw" : "lazy_pg_dyn_sw";
    if (c->pst_source != UVM_PST_SW) {
        err_setf(err, errlen,
                 "uvm: remote_policy %s counts accesses in the software PST: pst_source must be sw",
                 name);
        return -1;
    }
    if (!d->pst_read) {
        err_setf(err, errlen,
                 "uvm: remote_policy %s reads the PST's access counts, which this device does not "
                 "give (uvm_dev_t.pst_read)",
                 name);
        return -1;
    }
    if (!c->lazy_pg_threshold || !c->lazy_pg_poll_us) {
        err_setf(err, errlen, "uvm: lazy_pg_threshold and lazy_pg_poll_us must be nonzero");
        return -1;
    }
    return 0;
}

uint64_t uvm_lazy_threshold(uint32_t remote_policy, uint32_t ts, uint64_t evictions) {
    if (remote_policy == UVM_REMOTE_LAZY_PG_DYN_SW)
        return (uint64_t)ts * (1u + evictions);
    return ts;
}

bool uvm_lazy_wants_remote(const uvm_handler_t *h, uint64_t vpn) {
    const struct uvm_lazy *l = h->lazy;
    if (!l || !uvm_find_alloc(h, vpn))
        return false;
    return h->cfg.remote_policy == UVM_REMOTE_LAZY_PG_STAT_SW || l->evicted_once;
}

uint32_t uvm_lazy_count(const uvm_handler_t *h, uint64_t vpn) {
    uint32_t lines = 0, count = 0;
    (void)uvm_pst_read(h, vpn, &lines, &count);
    return count;
}

/* ---- the observer: remote mappings (the count's base), their removal, evictions ---- */

static void lazy_observe(void *ctx, const uvm_event_t *ev) {
    uvm_handler_t *h = ctx;
    struct uvm_lazy *l = h->lazy;
    if (ev->kind == UVM_EVENT_REMOTE_MAP) {
        for (uint32_t i = 0; i < ev->page.pages; i++) {
            const uint64_t v = ev->page.vpn + i;
            if (!l->watch.count) /* the timer starts with the first watched page */
                l->next_poll_ns = h->dev.now_ns(h->dev.ctx) +
                                  (uint64_t)h->cfg.lazy_pg_poll_us * UVM_LAZY_NS_PER_US;
            if (u64map_put(&l->watch, v, uvm_lazy_count(h, v)) != 0)
                uvm_logf(h, "lazy_pg: out of memory watching a remote page");
        }
    } else if (ev->kind == UVM_EVENT_REMOTE_UNMAP) {
        for (uint32_t i = 0; i < ev->page.pages; i++)
            (void)u64map_del(&l->watch, ev->page.vpn + i);
    } else if (ev->kind == UVM_EVENT_EVICT && ev->evict.cause == UVM_EVICT_CAPACITY) {
        l->evicted_once = true;
        for (uint32_t i = 0; i < ev->evict.pages; i++) {
            uint32_t lines = 0, count = 0;
            (void)uvm_pst_read(h, ev->evict.vpn + i, &lines, &count);
            h->stats.evict_lines[(uint32_t)__builtin_popcount(lines)]++; /* fig. 3a (§6x.6) */
            uint64_t n = 0;
            (void)u64map_get(&l->evictions, ev->evict.vpn + i, &n);
            if (u64map_put(&l->evictions, ev->evict.vpn + i, n + 1) != 0)
                uvm_logf(h, "lazy_pg: out of memory counting an eviction");
        }
    }
}

int uvm_lazy_init(uvm_handler_t *h) {
    if (!uvm_lazy_policy(h->cfg.remote_policy))
        return 0;
    h->lazy = calloc(1, sizeof *h->lazy);
    if (!h->lazy || u64map_init(&h->lazy->watch, 64) != 0 ||
        u64map_init(&h->lazy->evictions, 64) != 0)
        return -1;
    return uvm_event_subscribe_internal(h,
                                        UVM_EVENT_MASK(UVM_EVENT_REMOTE_MAP) |
                                            UVM_EVENT_MASK(UVM_EVENT_REMOTE_UNMAP) |
                                            UVM_EVENT_MASK(UVM_EVENT_EVICT),
                                        lazy_observe, h);
}

void uvm_lazy_free(uvm_handler_t *h) {
    if (!h->lazy)
        return;
    u64map_free(&h->lazy->watch);
    u64map_free(&h->lazy->evictions);
    free(h->lazy);
    h->lazy = NULL;
}
