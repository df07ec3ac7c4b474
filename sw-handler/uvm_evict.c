/*
 * uvm_evict.c - the eviction policies of the registry (docs/handler.md §6):
 *   lru     the page with the oldest migration (a migration-ordered list; a fault on a resident
 *           page does not refresh it, as nvidia-uvm evicts by allocation/migration age)
 *   random  a start frame from xorshift64 seeded with cfg.seed, then the first eligible frame
 * Both skip frames pinned in the current 2 MB block. pick(gran_pages) returns the first frame of
 * a naturally aligned group of gran_pages frames (a power of two: 1 = a 4 KB page, 16 = a 64 KB
 * chunk, 512 = a 2 MB chunk) that holds at least one resident page and no resident page pinned in
 * the current block; lru takes the group of the oldest such page, random the first such group
 * from a random start. The handler evicts single pages (gran_pages = 1) only; nothing evicts a
 * whole group yet (see docs/handler.md §6). lru keeps its list from the RESIDENT / NONRESIDENT
 * events (it subscribes like any observer, docs/handler.md §6i); random observes nothing.
 * fifo is in uvm_evict_fifo.c.
 */
#include <stdlib.h>

#include "rng.h"
#include "uvm_priv.h"

/* The group of gran frames starting at g (aligned) can be a victim. */
bool uvm_evict_group_ok(const uvm_handler_t *h, uint32_t g, uint32_t gran) {
    if ((uint64_t)g + gran > h->cfg.gpu_data_pages)
        return false;
    bool any = false;
    for (uint32_t i = 0; i < gran; i++) {
        if (!h->frames[g + i].resident)
            continue;
        if (uvm_frame_pinned(h, g + i))
            return false;
        any = true;
    }
    return any;
}

bool uvm_evict_gran_valid(uint32_t gran) {
    return gran != 0 && (gran & (gran - 1u)) == 0 && gran <= UVM_BLOCK_PAGES;
}

/* ------------------------------------------------------------------------------------------ */
/* lru                                                                                         */

typedef struct {
    uint32_t *prev, *next;
    uint32_t head, tail; /* head = oldest migration */
} lru_t;

static int lru_init(uvm_handler_t *h, void **priv) {
    const uint32_t n = (uint32_t)h->cfg.gpu_data_pages;
    lru_t *l = calloc(1, sizeof *l);
    if (!l)
        return -1;
    l->prev = malloc((size_t)n * sizeof *l->prev);
    l->next = malloc((size_t)n * sizeof *l->next);
    if (!l->prev || !l->next) {
        free(l->prev);
        free(l->next);
        free(l);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        l->prev[i] = l->next[i] = UVM_NONE;
    l->head = l->tail = UVM_NONE;
    *priv = l;
    return 0;
}

static void lru_fini(void *priv) {
    lru_t *l = priv;
    if (!l)
        return;
    free(l->prev);
    free(l->next);
    free(l);
}

static void lru_append(lru_t *l, uint32_t f) {
    l->prev[f] = l->tail;
    l->next[f] = UVM_NONE;
    if (l->tail != UVM_NONE)
        l->next[l->tail] = f;
    else
        l->head = f;
    l->tail = f;
}

static void lru_unlink(lru_t *l, uint32_t f) {
    if (l->prev[f] != UVM_NONE)
        l->next[l->prev[f]] = l->next[f];
    else
        l->head = l->next[f];
    if (l->next[f] != UVM_NONE)
        l->prev[l->next[f]] = l->prev[f];
    else
        l->tail = l->prev[f];
    l->prev[f] = l->next[f] = UVM_NONE;
}

/* The list follows residency: a page given a frame goes to the tail, a page losing it leaves.
 * Faults on resident pages (BLOCK_FAULT) are not observed: migration order only (the handler
 * never sees GPU accesses). */
static void lru_observe(void *priv, const uvm_event_t *ev) {
    for (uint32_t i = 0; i < ev->page.pages; i++) {
        if (ev->kind == UVM_EVENT_RESIDENT)
            lru_append(priv, ev->page.frame + i);
        else
            lru_unlink(priv, ev->page.frame + i);
    }
}

static uint32_t lru_pick(uvm_handler_t *h, void *priv, uint32_t gran_pages) {
    const lru_t *l = priv;
    if (gran_pages == 1u) {
        for (uint32_t f = l->head; f != UVM_NONE; f = l->next[f])
            if (!uvm_frame_pinned(h, f))
                return f;
        return UVM_NONE;
    }
    if (!uvm_evict_gran_valid(gran_pages))
        return UVM_NONE;
    for (uint32_t f = l->head; f != UVM_NONE; f = l->next[f]) {
        const uint32_t g = f & ~(gran_pages - 1u);
        if (uvm_evict_group_ok(h, g, gran_pages))
            return g;
    }
    return UVM_NONE;
}

const uvm_evict_ops_t uvm_evict_lru_ops = {
    "lru",       lru_init,
    lru_fini,    UVM_EVENT_MASK(UVM_EVENT_RESIDENT) | UVM_EVENT_MASK(UVM_EVENT_NONRESIDENT),
    lru_observe, lru_pick,
    false,       NULL};

/* ------------------------------------------------------------------------------------------ */
/* random                                                                                      */

typedef struct {
    uint64_t rng;
} rnd_t;

static int rnd_init(uvm_handler_t *h, void **priv) {
    rnd_t *r = malloc(sizeof *r);
    if (!r)
        return -1;
    r->rng = h->cfg.seed ? h->cfg.seed : RNG_GOLDEN;
    *priv = r;
    return 0;
}

static void rnd_fini(void *priv) {
    free(priv);
}

static uint32_t rnd_pick(uvm_handler_t *h, void *priv, uint32_t gran_pages) {
    rnd_t *r = priv;
    if (gran_pages != 1u) {
        const uint64_t groups =
            h->cfg.gpu_data_pages / (uvm_evict_gran_valid(gran_pages) ? gran_pages : 1u);
        if (!uvm_evict_gran_valid(gran_pages) || groups == 0)
            return UVM_NONE;
        const uint64_t start = rng_xorshift64(&r->rng) % groups;
        for (uint64_t i = 0; i < groups; i++) {
            const uint32_t g = (uint32_t)(((start + i) % groups) * gran_pages);
            if (uvm_evict_group_ok(h, g, gran_pages))
                return g;
        }
        return UVM_NONE;
    }
    const uint64_t n = h->cfg.gpu_data_pages;
    const uint64_t start = rng_xorshift64(&r->rng) % n;
    for (uint64_t i = 0; i < n; i++) {
        const uint32_t f = (uint32_t)((start + i) % n);
        if (h->frames[f].resident && !uvm_frame_pinned(h, f))
            return f;
    }
    return UVM_NONE;
}

/* random keeps no order: it observes nothing */
const uvm_evict_ops_t uvm_evict_random_ops = {"random", rnd_init, rnd_fini, 0,
                                              NULL,     rnd_pick, false,    NULL};
