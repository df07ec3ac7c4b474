/*
 * uvm_prefetch_zheng.c - Zheng et al.'s allocation-wide prefetchers (seed 000, §5), driven by
 * transfer sets (docs/handler.md §6d): once per fault batch, after its demand pages, the
 * service asks the policy's alloc_hint for up to max pages anywhere in the managed
 * allocations (max = cfg.transfer_set_pages minus the batch's demand pages, capped by the free
 * frames) and migrates them. The per-block hint adds nothing for these policies.
 *
 *   random      pages drawn uniformly from the allocation of the batch's latest fault
 *   sequential  the lowest non-resident managed addresses first (every allocation, by address)
 *   locality    the UVM_PREFETCH_LOCALITY_PAGES (128) pages after the batch's latest fault
 *               (pipelined sets: then VA-sequential order when the window is exhausted)
 *   oracle      the first non-resident pages of the workload's first-touch order
 *               (uvm_handler_set_page_order): the pages it needs next
 *
 * Written from the paper's description; no code is copied.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"

#include "rng.h"
#include "uvm_priv.h"

static void hint_block_none(uvm_handler_t *h, const uvm_prefetch_ctx_t *c,
                            uint64_t hint[UVM_BLOCK_WORDS]) {
    (void)h;
    (void)c;
    (void)hint; /* the pages come from alloc_hint */
}

static bool resident(const uvm_handler_t *h, uint64_t vpn) {
    return uvm_va_block_resident(h, vpn, NULL);
}

/* ------------------------------------------------------------------------------------------ */
/* sequential                                                                                  */

static uint32_t alloc_sequential(uvm_handler_t *h, const uvm_alloc_hint_ctx_t *c, uint64_t *vpns,
                                 uint32_t max) {
    (void)c;
    uint32_t n = 0;
    for (size_t a = 0; a < h->nallocs && n < max; a++) {
        const uvm_alloc_t *al = &h->allocs[a];
        const uint64_t first = al->base >> GMMU_PAGE_SHIFT;
        const uint64_t outer = ((al->base + al->size - 1u) >> GMMU_PAGE_SHIFT) + 1u;
        for (uint64_t v = first; v < outer && n < max; v++) {
            const uvm_va_block_t *blk = uvm_va_block_get(h, v, false);
            if (!blk) { /* a block never faulted: all of its pages are missing */
                vpns[n++] = v;
                continue;
            }
            if (!uvm_bitmap_test(blk->resident, uvm_block_page(v)))
                vpns[n++] = v;
        }
    }
    return n;
}

/* ------------------------------------------------------------------------------------------ */
/* locality                                                                                    */

static uint32_t alloc_locality(uvm_handler_t *h, const uvm_alloc_hint_ctx_t *c, uint64_t *vpns,
                               uint32_t max) {
    uint32_t n = 0;
    if (!c->any_fault)
        return 0;
    for (uint64_t v = c->last_vpn + 1u; v <= c->last_vpn + UVM_PREFETCH_LOCALITY_PAGES && n < max;
         v++)
        if (uvm_find_alloc(h, v) && !resident(h, v))
            vpns[n++] = v;
    if (!c->fill_sequential || n == max)
        return n;
    /* pipelined sets: the window is exhausted, the rest in VA-sequential order (Zheng §4.2) */
    const uint32_t w = n;
    const uint32_t k = alloc_sequential(h, c, vpns + w, max - w);
    for (uint32_t i = 0; i < k; i++) {
        bool dup = false;
        for (uint32_t j = 0; j < w && !dup; j++)
            dup = vpns[j] == vpns[w + i];
        if (!dup)
            vpns[n++] = vpns[w + i];
    }
    return n;
}

/* ------------------------------------------------------------------------------------------ */
/* random                                                                                      */

static int random_init(uvm_handler_t *h, void **priv) {
    rng_t *r = malloc(sizeof *r);
    if (!r)
        return -1;
    rng_seed(r, h->cfg.seed, 0x7a68656e67ull /* "zheng" */);
    *priv = r;
    return 0;
}

static void priv_free(void *priv) {
    free(priv);
}

/* Up to max distinct non-resident pages of the latest fault's allocation, each drawn uniformly
 * among the pages of the allocation; a draw that hits a resident or already chosen page is
 * lost (4 * max draws per batch), so a nearly resident allocation yields fewer pages. */
static uint32_t alloc_random(uvm_handler_t *h, const uvm_alloc_hint_ctx_t *c, uint64_t *vpns,
                             uint32_t max) {
    if (!c->any_fault)
        return 0;
    const uvm_alloc_t *al = uvm_find_alloc(h, c->last_vpn);
    if (!al)
        return 0;
    const uint64_t first = al->base >> GMMU_PAGE_SHIFT;
    const uint64_t pages = ((al->base + al->size - 1u) >> GMMU_PAGE_SHIFT) + 1u - first;
    uint32_t n = 0;
    for (uint32_t d = 0; d < 4u * max && n < max; d++) {
        const uint64_t v = first + rng_next(c->priv) % pages;
        bool dup = resident(h, v);
        for (uint32_t i = 0; i < n && !dup; i++)
            dup = vpns[i] == v;
        if (!dup)
            vpns[n++] = v;
    }
    return n;
}

/* ------------------------------------------------------------------------------------------ */
/* oracle                                                                                      */

int uvm_handler_set_page_order(uvm_handler_t *h, const uint64_t *vpns, size_t n, char *err,
                               size_t errlen) {
    if (!h || (n > 0 && !vpns)) {
        err_setf(err, errlen, "uvm: set_page_order: no handler or no pages");
        return -1;
    }
    free(h->page_order);
    h->page_order = NULL;
    h->npage_order = 0;
    u64map_free(&h->page_pos);
    uint64_t *order = malloc((n > 0 ? n : 1u) * sizeof *order);
    if (!order || u64map_init(&h->page_pos, n) != 0) {
        free(order);
        err_setf(err, errlen, "uvm: set_page_order: out of memory for %zu pages", n);
        return -1;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (u64map_get(&h->page_pos, vpns[i], NULL))
            continue; /* first touch only */
        if (u64map_put(&h->page_pos, vpns[i], m) != 0) {
            free(order);
            u64map_free(&h->page_pos);
            err_setf(err, errlen, "uvm: set_page_order: out of memory for %zu pages", n);
            return -1;
        }
        order[m++] = vpns[i];
    }
    h->page_order = order;
    h->npage_order = m;
    return 0;
}

static int oracle_init(uvm_handler_t *h, void **priv) {
    (void)h;
    size_t *cursor = calloc(1, sizeof *cursor);
    if (!cursor)
        return -1;
    *priv = cursor;
    return 0;
}

/* The first non-resident pages of the order: the pages the workload needs next. The cursor
 * skips the resident head of the order for good: a page evicted after its turn is not brought
 * back (it faults again on demand). */
static uint32_t alloc_oracle(uvm_handler_t *h, const uvm_alloc_hint_ctx_t *c, uint64_t *vpns,
                             uint32_t max) {
    size_t *cursor = c->priv;
    while (*cursor < h->npage_order && resident(h, h->page_order[*cursor]))
        (*cursor)++;
    uint32_t n = 0;
    for (size_t i = *cursor; i < h->npage_order && n < max; i++)
        if (!resident(h, h->page_order[i]))
            vpns[n++] = h->page_order[i];
    return n;
}

/* ------------------------------------------------------------------------------------------ */
/* the registry's entries                                                                      */

const uvm_prefetch_ops_t uvm_prefetch_random_ops = {"random", random_init, priv_free,
                                                    hint_block_none, alloc_random};
const uvm_prefetch_ops_t uvm_prefetch_sequential_ops = {"sequential", NULL, NULL, hint_block_none,
                                                        alloc_sequential};
const uvm_prefetch_ops_t uvm_prefetch_locality_ops = {"locality", NULL, NULL, hint_block_none,
                                                      alloc_locality};
const uvm_prefetch_ops_t uvm_prefetch_oracle_ops = {"oracle", oracle_init, priv_free,
                                                    hint_block_none, alloc_oracle};
