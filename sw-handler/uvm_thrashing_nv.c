/*
 * uvm_thrashing_nv.c - the thrashing policies "nvidia" and "capacity" (docs/handler.md §6j):
 * nvidia-uvm's per-page detection (uvm_perf_thrashing.c: thrashing_event_cb,
 * uvm_perf_thrashing_get_hint, get_hint_for_migration_thrashing) with its parameters as keys.
 *
 * Processors: the GPU (UVM_PROC_GPU) and the CPU (UVM_PROC_CPU). An event is a page becoming
 * resident on a processor (a migration by a fault or a prefetch: RESIDENT on the GPU). As in
 * the driver, a migration caused by an eviction is no event, and a VA block gets per-page
 * tracking only when an event follows one of the other processor within a lapse. A page
 * becomes resident on the CPU by a CPU fault (a trace's `cpu` record: EVICT with cause
 * UVM_EVICT_CPU_FAULT), so `nvidia` sees a CPU<->GPU ping-pong (§6p); one GPU thrashing against
 * its own capacity stays invisible to it, as to the driver. `capacity` (not in the driver)
 * counts every eviction as an event of the CPU, so an evict -> re-fault of a page within a lapse
 * is a thrashing event. The CPU is never throttled nor pinned on: its touches are the trace's.
 *
 * Hints: THROTTLE (the requester does not service the page until the nap ends), PIN (the page
 * stays where the requester gets it, not evicted until the pin ends). The driver pins on a
 * location every thrashing processor can access and maps the others remotely; with no remote
 * mapping yet (issue 21) the pin is the GPU-side one. No preferred location exists and PCIe has
 * no NVLINK/native atomics, so the driver's preferred-location and fast-access branches never
 * apply. State is created lazily; unpinning (the driver's delayed worker) is done lazily at the
 * block's next event or hint.
 */
#include <stdlib.h>
#include <string.h>

#include "u64map.h"
#include "uvm_priv.h"

#define TS_MASK (~(uint64_t)63) /* the driver keeps page time stamps at 64 ns resolution */
#define EVENTS_MAX 7u           /* 3-bit event counter */
#define THROTTLES_MAX 255u      /* 8-bit throttle counter */
#define NO_PROC (-1)

typedef struct {
    uint64_t last_ts, throttle_end, pin_deadline;
    uint8_t events, throttles;
    uint8_t procs, throttled; /* processor masks (bit = processor id) */
    int8_t dnt;               /* processor not throttled in this period; NO_PROC */
    bool pinned, has_events;
} tpage_t;

typedef struct {
    tpage_t *pages; /* UVM_BLOCK_PAGES entries; NULL: no per-page tracking (yet) */
    uint64_t last_ts, last_thrash_ts;
    uint64_t thrashing[UVM_BLOCK_WORDS];
    uint32_t nthrash, npinned;
    int8_t last_proc;
    uint8_t resets;
} tblock_t;

struct uvm_thrash_nv {
    uvm_thrash_nv_params_t prm;
    bool capacity;
    u64map_t idx; /* VA block id -> index in blk */
    tblock_t *blk;
    size_t nblk, cap;
    uvm_stats_t *stats;
    const uvm_handler_t *h; /* its clock (NULL in unit tests of the core) */
};

static tblock_t *block_get(uvm_thrash_nv_t *t, uint64_t id, bool create) {
    uint64_t v = 0;
    if (u64map_get(&t->idx, id, &v))
        return &t->blk[v];
    if (!create)
        return NULL;
    if (t->nblk == t->cap) {
        const size_t cap = t->cap ? 2 * t->cap : 16;
        tblock_t *b = realloc(t->blk, cap * sizeof *b);
        if (!b)
            return NULL;
        t->blk = b;
        t->cap = cap;
    }
    if (u64map_put(&t->idx, id, t->nblk) != 0)
        return NULL;
    tblock_t *b = &t->blk[t->nblk++];
    memset(b, 0, sizeof *b);
    b->last_proc = NO_PROC;
    return b;
}

static void unpin(tblock_t *b, tpage_t *p) {
    p->pinned = false;
    p->pin_deadline = 0;
    b->npinned--;
}

/* thrashing_reset_page: the page forgets its history (its throttle count stays) */
static void reset_page(tblock_t *b, uint32_t i) {
    tpage_t *p = &b->pages[i];
    p->throttled = 0;
    p->throttle_end = 0;
    if (p->pinned)
        unpin(b, p);
    p->last_ts = 0;
    p->has_events = false;
    p->events = 0;
    p->procs = 0;
    if (b->thrashing[i / 64] & (1ull << (i % 64))) {
        b->thrashing[i / 64] &= ~(1ull << (i % 64));
        b->nthrash--;
    }
}

/* the driver's unpin worker: pins past their deadline are reset */
static void expire_pins(uvm_thrash_nv_t *t, tblock_t *b, uint64_t now) {
    if (b->npinned == 0 || t->prm.pin_ns == 0)
        return;
    for (uint32_t i = 0; i < UVM_BLOCK_PAGES && b->npinned; i++)
        if (b->pages[i].pinned && b->pages[i].pin_deadline <= now)
            reset_page(b, i);
}

void uvm_thrash_nv_event(uvm_thrash_nv_t *t, uint64_t vpn, uint32_t pages, int proc, uint64_t now) {
    for (uint32_t k = 0; k < pages;) { /* one VA block at a time */
        const uint64_t v = vpn + k, id = v / UVM_BLOCK_PAGES;
        const uint32_t first = (uint32_t)(v % UVM_BLOCK_PAGES);
        uint32_t n = UVM_BLOCK_PAGES - first;
        if (n > pages - k)
            n = pages - k;
        k += n;
        tblock_t *b = block_get(t, id, true);
        if (!b)
            continue; /* out of host memory: no tracking, as the driver */
        const uint64_t ts = now & TS_MASK;
        if (!b->pages) {
            if (b->last_ts == 0 || b->last_proc == proc || now - b->last_ts > t->prm.lapse_ns)
                goto done;
            b->pages = calloc(UVM_BLOCK_PAGES, sizeof *b->pages);
            if (!b->pages)
                goto done;
            for (uint32_t i = 0; i < UVM_BLOCK_PAGES; i++)
                b->pages[i].dnt = NO_PROC;
        }
        expire_pins(t, b, now);
        for (uint32_t i = first; i < first + n; i++) {
            tpage_t *p = &b->pages[i];
            const uint64_t last = p->last_ts;
            p->procs |= (uint8_t)(1u << proc);
            p->last_ts = ts;
            if (last == 0)
                continue;
            if (ts - last <= t->prm.lapse_ns) {
                if (p->events < EVENTS_MAX)
                    p->events++;
                if (p->events == t->prm.threshold) {
                    if (!(b->thrashing[i / 64] & (1ull << (i % 64)))) {
                        b->thrashing[i / 64] |= 1ull << (i % 64);
                        b->nthrash++;
                    }
                    t->stats->num_thrashing++;
                }
                if (p->events >= t->prm.threshold)
                    b->last_thrash_ts = now;
                p->has_events = true;
            } else if (p->events >= t->prm.threshold && !p->pinned) {
                reset_page(b, i);
            }
        }
    done:
        b->last_ts = now;
        b->last_proc = (int8_t)proc;
    }
}

void uvm_thrash_nv_reset(uvm_thrash_nv_t *t, uint64_t vpn, uint32_t pages) {
    for (uint32_t k = 0; k < pages; k++) {
        const uint64_t v = vpn + k;
        tblock_t *b = block_get(t, v / UVM_BLOCK_PAGES, false);
        if (b && b->pages)
            reset_page(b, (uint32_t)(v % UVM_BLOCK_PAGES));
    }
}

/* get_hint_for_migration_thrashing without a preferred location and without fast links */
static uvm_thrash_type_t migration_hint(const uvm_thrash_nv_t *t, const tpage_t *p, int req) {
    if (p->pinned)
        return UVM_THRASH_PIN; /* the requester is dnt or can access the pinned residency (the
                                  GPU pin: the GPU itself) */
    if (req != p->dnt)
        return UVM_THRASH_THROTTLE;
    if (p->throttles >= t->prm.pin_threshold)
        return UVM_THRASH_PIN;
    return UVM_THRASH_NONE;
}

uvm_thrash_hint_t uvm_thrash_nv_hint(uvm_thrash_nv_t *t, uint64_t vpn, int req, uint64_t now) {
    uvm_thrash_hint_t hint = {UVM_THRASH_NONE, 0};
    tblock_t *b = block_get(t, vpn / UVM_BLOCK_PAGES, false);
    if (!b || !b->pages)
        return hint;
    expire_pins(t, b, now);
    if (b->last_thrash_ts != 0 && now - b->last_thrash_ts > t->prm.epoch_ns && b->npinned == 0 &&
        b->resets < t->prm.max_resets) {
        b->resets++;
        free(b->pages);
        b->pages = NULL;
        b->nthrash = 0;
        b->last_proc = NO_PROC;
        b->last_ts = 0;
        b->last_thrash_ts = 0;
        memset(b->thrashing, 0, sizeof b->thrashing);
        return hint;
    }
    tpage_t *p = &b->pages[vpn % UVM_BLOCK_PAGES];
    const uint8_t bit = (uint8_t)(1u << req);
    if (p->events < t->prm.threshold)
        return hint;
    if (p->throttled & bit) {
        if (now < p->throttle_end && req != p->dnt) {
            hint.type = UVM_THRASH_THROTTLE;
            goto done;
        }
        p->throttled &= (uint8_t)~bit;
        if (!p->throttled)
            p->throttle_end = 0;
    }
    if (now - p->last_ts > t->prm.lapse_ns && !p->pinned)
        return hint;
    p->procs |= bit;
    if (now > p->throttle_end) { /* thrashing_throttle_update */
        p->throttle_end = now + t->prm.nap_ns;
        p->dnt = p->dnt == req ? NO_PROC : (int8_t)req;
    } else if (p->dnt == NO_PROC) {
        p->dnt = (int8_t)req;
    }
    hint.type = migration_hint(t, p, req);
done:
    if (hint.type == UVM_THRASH_PIN) {
        if (!p->pinned) { /* thrashing_pin_page */
            p->throttled = 0;
            p->throttle_end = 0;
            p->pin_deadline = now + t->prm.pin_ns;
            p->throttles = 0;
            p->pinned = true;
            b->npinned++;
        }
        t->stats->num_pin++;
        hint.until_ns = t->prm.pin_ns ? p->pin_deadline : UINT64_MAX;
    } else if (hint.type == UVM_THRASH_THROTTLE) {
        if (!(p->throttled & bit)) { /* thrashing_throttle_processor */
            p->throttled |= bit;
            if (!p->pinned && p->throttles < THROTTLES_MAX)
                p->throttles++;
        }
        t->stats->num_throttle++;
        hint.until_ns = p->throttle_end;
    }
    return hint;
}

uvm_thrash_nv_t *uvm_thrash_nv_new(const uvm_thrash_nv_params_t *prm, bool capacity,
                                   uvm_stats_t *stats, const uvm_handler_t *h) {
    uvm_thrash_nv_t *t = calloc(1, sizeof *t);
    if (!t || u64map_init(&t->idx, 64) != 0) {
        free(t);
        return NULL;
    }
    t->prm = *prm;
    t->capacity = capacity;
    t->stats = stats;
    t->h = h;
    return t;
}

void uvm_thrash_nv_free(uvm_thrash_nv_t *t) {
    if (!t)
        return;
    for (size_t i = 0; i < t->nblk; i++)
        free(t->blk[i].pages);
    free(t->blk);
    u64map_free(&t->idx);
    free(t);
}

uvm_thrash_nv_params_t uvm_thrash_nv_params(const uvm_cfg_t *c) {
    const uint64_t lapse = (uint64_t)c->thrashing_lapse_us * 1000u;
    return (uvm_thrash_nv_params_t){
        c->thrashing_threshold,   c->thrashing_pin_threshold, lapse,
        lapse * c->thrashing_nap, lapse * c->thrashing_epoch, lapse * c->thrashing_pin,
        c->thrashing_max_resets};
}

/* ---- the registered policies ------------------------------------------------------------- */

static uint64_t now_ns(const uvm_handler_t *h) {
    return h && h->dev.now_ns ? h->dev.now_ns(h->dev.ctx) : 0;
}

static int init_common(uvm_handler_t *h, void **priv, bool capacity) {
    const uvm_thrash_nv_params_t prm = uvm_thrash_nv_params(&h->cfg);
    *priv = uvm_thrash_nv_new(&prm, capacity, &h->stats, h);
    return *priv ? 0 : -1;
}

static int nv_init(uvm_handler_t *h, void **priv) {
    return init_common(h, priv, false);
}

static int cap_init(uvm_handler_t *h, void **priv) {
    return init_common(h, priv, true);
}

static void nv_fini(void *priv) {
    uvm_thrash_nv_free(priv);
}

/* the time of an event is the device's clock when it is delivered (the driver: NV_GETTIME).
 * A page leaving the GPU: capacity counts every one as an event of the CPU; nvidia, as
 * thrashing_event_cb, only a CPU fault's (a migration to the CPU caused by a fault), skips an
 * eviction's, and forgets the pages a user call moved (thrashing_reset_pages_in_region). */
static void nv_observe(void *priv, const uvm_event_t *ev) {
    uvm_thrash_nv_t *t = priv;
    if (ev->kind == UVM_EVENT_RESIDENT)
        uvm_thrash_nv_event(t, ev->page.vpn, ev->page.pages, UVM_PROC_GPU, now_ns(t->h));
    else if (ev->kind != UVM_EVENT_EVICT)
        return;
    else if (t->capacity || ev->evict.cause == UVM_EVICT_CPU_FAULT)
        uvm_thrash_nv_event(t, ev->evict.vpn, ev->evict.pages, UVM_PROC_CPU, now_ns(t->h));
    else if (ev->evict.cause == UVM_EVICT_API)
        uvm_thrash_nv_reset(t, ev->evict.vpn, ev->evict.pages);
}

static uvm_thrash_hint_t nv_hint(uvm_handler_t *h, void *priv, uint64_t vpn) {
    return uvm_thrash_nv_hint(priv, vpn, UVM_PROC_GPU, now_ns(h));
}

const uvm_thrashing_ops_t uvm_thrashing_nvidia_ops = {
    "nvidia",   nv_init,
    nv_fini,    UVM_EVENT_MASK(UVM_EVENT_RESIDENT) | UVM_EVENT_MASK(UVM_EVENT_EVICT),
    nv_observe, nv_hint};
const uvm_thrashing_ops_t uvm_thrashing_capacity_ops = {
    "capacity", cap_init,
    nv_fini,    UVM_EVENT_MASK(UVM_EVENT_RESIDENT) | UVM_EVENT_MASK(UVM_EVENT_EVICT),
    nv_observe, nv_hint};
