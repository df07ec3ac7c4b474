/*
 * uvm_dynamap.c - DynaMap's placement decision (seed 001 §5, docs/handler.md §6x): on a fault of
 * a page evicted before, its spatial utilization (the referenced 128-byte lines of DynaMap's Page
 * Spatial Table, read through the HAL: uvm_pst_read) decides between migrating it and mapping it
 * remotely (pst_source = sw), or from the GMMU's bitmap table (pst_source = hw, §6x.7:
 * uvm_bmp_read): `static_map` by a fixed threshold, `dynamap` by the cost model of eq. (1)-(3) with
 * f_over from the measured fault rate. A page never evicted migrates (Eager).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "err.h"
#include "uvm_bmp.h"
#include "uvm_place.h"

#define DYN_LINE 128.0  /* L: the cache line (bytes) */
#define DYN_PAGE 4096.0 /* P: the page (bytes) */
#define DYN_LINES 32u   /* lines of a page */
#define DYN_NS_PER_US 1000u

/* the policy's state (h->dyn) */
struct uvm_dyn {
    u64map_t evicted; /* extended VPN -> 1: the page was evicted (capacity) at least once */
    /* the fault rate (faults fetched per ns of device time) */
    uint64_t win_start_ns, win_faults; /* the window being measured */
    double f_current;                  /* over the last complete window (valid: have_current) */
    bool have_current, started;
    uint64_t first_fault_ns, faults_before_evict;
    double f_under; /* before the first eviction (valid: have_under) */
    bool have_under, evicted_once;
};

bool uvm_pst_read(const uvm_handler_t *h, uint64_t vpn, uint32_t *lines, uint32_t *count) {
    *lines = *count = 0;
    if (h->cfg.pst_source == UVM_PST_HW) {
        /* the GMMU's bitmap table as it is (§6x.7): no counts; a page without a word: none */
        if (!uvm_bmp_has(h, vpn))
            return false;
        *lines = uvm_bmp_read(h, vpn);
        return true;
    }
    if (h->cfg.pst_source != UVM_PST_SW || !h->dev.pst_read)
        return false;
    h->dev.pst_read(h->dev.ctx, vpn, lines, count);
    return true;
}

bool uvm_dyn_policy(uint32_t remote_policy) {
    return remote_policy == UVM_REMOTE_STATIC_MAP || remote_policy == UVM_REMOTE_DYNAMAP;
}

int uvm_dyn_check_cfg(const uvm_cfg_t *c, const uvm_dev_t *d, char *err, size_t errlen) {
    if (!uvm_dyn_policy(c->remote_policy))
        return 0;
    if (c->pst_source == UVM_PST_HW && c->bmp_window_pages == 0) {
        err_setf(err, errlen,
                 "uvm: pst_source = hw reads the GMMU's referenced-line bitmap table, which this "
                 "device does not have (bmp_window_pages = 0: line_bitmap = 1 needed; "
                 "docs/handler.md §6x.7)");
        return -1;
    }
    if (c->pst_source != UVM_PST_SW && c->pst_source != UVM_PST_HW) {
        err_setf(err, errlen, "uvm: pst_source %" PRIu32 " must be sw (0) or hw (1)",
                 c->pst_source);
        return -1;
    }
    if (c->pst_source == UVM_PST_SW && !d->pst_read) {
        err_setf(err, errlen,
                 "uvm: remote_policy %s reads the Page Spatial Table, which this device does not "
                 "give (uvm_dev_t.pst_read)",
                 c->remote_policy == UVM_REMOTE_DYNAMAP ? "dynamap" : "static_map");
        return -1;
    }
    if ((!c->dynamap_host_mbps || !c->dynamap_gpu_mbps || !c->dynamap_pci_mbps ||
         !c->dynamap_window_us || c->static_map_pct > 100u)) {
        err_setf(err, errlen,
                 "uvm: dynamap's bandwidths and window must be nonzero and static_map_pct <= 100");
        return -1;
    }
    return 0;
}

/* ---- the cost model, eq. (1)-(3) (times in ns, bandwidths in MB/s = bytes per ms) ---- */

static double ns_of(double bytes, uint32_t mbps) {
    return bytes * 1000.0 / (double)mbps;
}

double uvm_dyn_fover(double f_current, double f_under) {
    return f_under > 0.0 ? (f_current - f_under) / f_under : 0.0; /* eq. (2) */
}

uvm_dyn_cost_t uvm_dyn_costs(const uvm_dyn_params_t *p, uint32_t lines, double f_over) {
    const double x = (double)lines * DYN_LINE; /* bytes accessed: whole lines (the PST's) */
    const double n = (double)lines;            /* ceil(x / L) */
    uvm_dyn_cost_t c;
    /* eq. (1): the x bytes read from host memory over PCIe, a fault cost H per line */
    c.cpu_ns = ns_of(n * DYN_LINE, p->bc_mbps) + ns_of(n * DYN_LINE, p->bpci_mbps) + n * p->h_ns;
    /* eq. (3): x from GPU memory, (1 + f_over) faults that each move the page */
    c.gpu_ns = ns_of(x, p->bg_mbps) + (1.0 + f_over) * (p->h_ns + ns_of(DYN_PAGE, p->bc_mbps) +
                                                        ns_of(DYN_PAGE, p->bpci_mbps));
    return c;
}

uvm_dyn_params_t uvm_dyn_params(const uvm_cfg_t *c) {
    uvm_dyn_params_t p;
    p.bc_mbps = c->dynamap_host_mbps;
    p.bg_mbps = c->dynamap_gpu_mbps;
    p.bpci_mbps = c->dynamap_pci_mbps;
    /* H: a lone fault's service by the handler's own costs (interrupt, batch, entry, page) */
    p.h_ns = (double)(c->t_irq_ns + c->t_batch_ns + c->t_fault_ns + c->t_page_ns);
    return p;
}

bool uvm_dyn_static_migrates(uint32_t lines, uint32_t pct) {
    return (uint64_t)lines * 100u >= (uint64_t)pct * DYN_LINES;
}

double uvm_dyn_current_fover(const uvm_handler_t *h) {
    const struct uvm_dyn *d = h->dyn;
    if (!d || !d->have_current || !d->have_under)
        return 0.0; /* no pressure measured yet: the migration costs one fault */
    const double f = uvm_dyn_fover(d->f_current, d->f_under);
    return f > 0.0 ? f : 0.0; /* an expected number of extra evictions: never below 0 */
}

/* ---- the decision ---- */

bool uvm_dyn_wants_remote(const uvm_handler_t *h, uint64_t vpn) {
    const struct uvm_dyn *d = h->dyn;
    if (!d || !u64map_get(&d->evicted, vpn, NULL))
        return false; /* never evicted: Eager */
    uint32_t lines = 0, count = 0;
    if (!uvm_pst_read(h, vpn, &lines, &count))
        return false;
    const uint32_t n = (uint32_t)__builtin_popcount(lines);
    if (h->cfg.remote_policy == UVM_REMOTE_STATIC_MAP)
        return !uvm_dyn_static_migrates(n, h->cfg.static_map_pct);
    const uvm_dyn_params_t p = uvm_dyn_params(&h->cfg);
    const uvm_dyn_cost_t c = uvm_dyn_costs(&p, n, uvm_dyn_current_fover(h));
    return !(c.gpu_ns < c.cpu_ns);
}

void uvm_dyn_decided(uvm_handler_t *h, uint64_t vpn, bool remote) {
    if (!h->dyn || !u64map_get(&h->dyn->evicted, vpn, NULL))
        return;
    if (remote)
        h->stats.pst_remote++;
    else
        h->stats.pst_migrate++;
}

/* ---- the measurements: evicted pages, the fault rate (events, §6i) ---- */

static void on_batch(uvm_handler_t *h, struct uvm_dyn *d, uint32_t faults) {
    const uint64_t now = h->dev.now_ns(h->dev.ctx);
    if (!d->started) {
        d->started = true;
        d->win_start_ns = d->first_fault_ns = now;
    }
    const uint64_t win = (uint64_t)h->cfg.dynamap_window_us * DYN_NS_PER_US;
    if (now - d->win_start_ns >= win) {
        d->f_current = (double)d->win_faults / (double)(now - d->win_start_ns);
        d->have_current = true;
        d->win_start_ns = now;
        d->win_faults = 0;
    }
    d->win_faults += faults;
    if (!d->evicted_once)
        d->faults_before_evict += faults;
}

static void on_evict(uvm_handler_t *h, struct uvm_dyn *d, const uvm_event_evict_t *e) {
    if (e->cause != UVM_EVICT_CAPACITY)
        return;
    if (!d->evicted_once) {
        d->evicted_once = true;
        const uint64_t now = h->dev.now_ns(h->dev.ctx);
        if (d->started && now > d->first_fault_ns) {
            d->f_under = (double)d->faults_before_evict / (double)(now - d->first_fault_ns);
            d->have_under = d->f_under > 0.0;
        }
    }
    for (uint32_t i = 0; i < e->pages; i++) {
        uint32_t lines = 0, count = 0;
        (void)uvm_pst_read(h, e->vpn + i, &lines, &count);
        h->stats.evict_lines[(uint32_t)__builtin_popcount(lines)]++; /* DynaMap's fig. 3a */
        if (u64map_put(&d->evicted, e->vpn + i, 1) != 0)
            uvm_logf(h, "dynamap: out of memory recording an evicted page");
    }
}

static void dyn_observe(void *ctx, const uvm_event_t *ev) {
    uvm_handler_t *h = ctx;
    if (ev->kind == UVM_EVENT_BATCH_BEGIN)
        on_batch(h, h->dyn, ev->batch.faults);
    else if (ev->kind == UVM_EVENT_EVICT)
        on_evict(h, h->dyn, &ev->evict);
}

int uvm_dyn_init(uvm_handler_t *h) {
    if (!uvm_dyn_policy(h->cfg.remote_policy))
        return 0;
    h->dyn = calloc(1, sizeof *h->dyn);
    if (!h->dyn || u64map_init(&h->dyn->evicted, 64) != 0)
        return -1;
    return uvm_event_subscribe_internal(
        h, UVM_EVENT_MASK(UVM_EVENT_BATCH_BEGIN) | UVM_EVENT_MASK(UVM_EVENT_EVICT), dyn_observe, h);
}

void uvm_dyn_free(uvm_handler_t *h) {
    if (!h->dyn)
        return;
    u64map_free(&h->dyn->evicted);
    free(h->dyn);
    h->dyn = NULL;
}
