/*
 * uvm_prefetch.c - the prefetch policies (docs/handler.md §6a): which pages of the 2 MB block
 * being serviced migrate besides the faulted ones. Each sees the block, its demand (faulted,
 * non-resident) pages and its managed pages (uvm_prefetch_ctx_t) and sets bits in a hint; the
 * service drops hinted pages that are faulted, resident or outside every allocation.
 *
 *   none          nothing
 *   nvidia        nvidia-uvm's bitmap tree (uvm_perf_prefetch.c): 4 KB leaves over the block
 *                 part of the faulting allocation; faulted pages grown to their 64 KB big page;
 *                 the largest subtree above a faulted page with more than 51% of its pages
 *                 resident or faulted is filled
 *   tbn           UVMSmart's tree-based neighborhood prefetcher: 64 KB leaves, a node whose
 *                 to-be-valid size is more than 50% of its capacity is filled, fault by fault
 *   seq_local     UVMSmart's sequential-local prefetcher: the 64 KB block of each fault
 *   random_local  UVMSmart's random prefetcher: one random 4 KB page of the same 2 MB block per
 *                 fault (seeded from cfg.seed)
 *
 * Written from the descriptions (nvidia-uvm source, the UVMSmart paper); no code is copied.
 */
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "uvm_priv.h"

/* ------------------------------------------------------------------------------------------ */
/* helpers                                                                                     */

/* Bits [first, outer) of word w of a bitmap, as a mask. */
static uint64_t word_mask(uint32_t w, uint32_t first, uint32_t outer) {
    const uint32_t lo = first > w * 64u ? first - w * 64u : 0u;
    const uint32_t hi = outer < (w + 1u) * 64u ? outer - w * 64u : 64u;
    if (hi <= lo)
        return 0;
    const uint64_t upto = hi == 64u ? UINT64_MAX : (UINT64_C(1) << hi) - 1u;
    return upto & ~((UINT64_C(1) << lo) - 1u);
}

static uint32_t count_range(const uint64_t *bm, uint32_t first, uint32_t outer) {
    uint32_t n = 0;
    for (uint32_t w = first / 64u; w * 64u < outer; w++)
        n += (uint32_t)__builtin_popcountll(bm[w] & word_mask(w, first, outer));
    return n;
}

static bool any_range(const uint64_t *bm, uint32_t first, uint32_t outer) {
    for (uint32_t w = first / 64u; w * 64u < outer; w++)
        if (bm[w] & word_mask(w, first, outer))
            return true;
    return false;
}

static void fill_range(uint64_t *bm, uint32_t first, uint32_t outer) {
    for (uint32_t w = first / 64u; w * 64u < outer; w++)
        bm[w] |= word_mask(w, first, outer);
}

static uint32_t align_down(uint32_t x, uint32_t a) {
    return x / a * a;
}

/* The part of the block (pages [*first, *outer)) covered by the allocation holding page p. */
static void alloc_region(const uvm_handler_t *h, const uvm_prefetch_ctx_t *c, uint32_t p,
                         uint32_t *first, uint32_t *outer) {
    const uint64_t base = c->blk->id << UVM_BLOCK_SHIFT;
    const uvm_alloc_t *al = uvm_find_alloc(h, base + p);
    *first = p;
    *outer = p + 1u;
    if (!al)
        return;
    const uint64_t a0 = al->base >> GMMU_PAGE_SHIFT;
    const uint64_t a1 = (al->base + al->size - 1u) >> GMMU_PAGE_SHIFT; /* last page */
    *first = a0 <= base ? 0u : (uint32_t)(a0 - base);
    *outer = a1 - base >= UVM_BLOCK_PAGES ? UVM_BLOCK_PAGES : (uint32_t)(a1 - base) + 1u;
}

void uvm_prefetch_grow(const uint64_t *in, const uint64_t *managed, uint32_t grow_pages,
                       uint64_t out[UVM_BLOCK_WORDS]) {
    for (uint32_t g = 0; g < UVM_BLOCK_PAGES; g += grow_pages) {
        if (!any_range(in, g, g + grow_pages))
            continue;
        for (uint32_t i = g; i < g + grow_pages; i++)
            if (uvm_bitmap_test(managed, i))
                uvm_bitmap_set(out, i);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* none                                                                                        */

static void hint_none(uvm_handler_t *h, const uvm_prefetch_ctx_t *c,
                      uint64_t hint[UVM_BLOCK_WORDS]) {
    (void)h;
    (void)c;
    (void)hint; /* no page besides the faulted ones */
}

/* ------------------------------------------------------------------------------------------ */
/* nvidia: the driver's bitmap tree                                                            */

/* The tree of one region [first, outer) of the block (one allocation's part): leaves are the
 * pages from anchor on; anchor is the big page holding first when first is not 64 KB aligned
 * (nvidia-uvm shifts its tree so that leaves align with big pages). pages = resident or
 * faulted pages of the region, grown to big pages. */
typedef struct {
    uint64_t pages[UVM_BLOCK_WORDS];
    uint32_t first, outer, anchor, leaves, levels;
} nv_tree_t;

/* Fills sub-region [a, b) of the tree when it holds a faulted page (grow_fault_granularity). */
static void nv_grow(nv_tree_t *t, const uint64_t *faulted, uint32_t a, uint32_t b) {
    if (a < b && any_range(faulted, a, b))
        fill_range(t->pages, a, b);
}

static void nv_tree_init(nv_tree_t *t, const uvm_prefetch_ctx_t *c, uint32_t first,
                         uint32_t outer) {
    memset(t->pages, 0, sizeof t->pages);
    for (uint32_t i = first; i < outer; i++)
        if (uvm_bitmap_test(c->blk->resident, i) || uvm_bitmap_test(c->faulted, i))
            uvm_bitmap_set(t->pages, i);
    t->first = first;
    t->outer = outer;
    const uint32_t bfirst = (first + UVM_BIG_PAGES - 1u) / UVM_BIG_PAGES * UVM_BIG_PAGES;
    const uint32_t bouter = align_down(outer, UVM_BIG_PAGES);
    const bool big = bfirst < bouter;
    t->anchor = big && bfirst > first ? bfirst - UVM_BIG_PAGES : first;
    t->leaves = outer - t->anchor;
    t->levels = 1;
    while ((UINT32_C(1) << (t->levels - 1u)) < t->leaves)
        t->levels++;
    if (!big) { /* no big page: the whole region grows */
        nv_grow(t, c->faulted, first, outer);
        return;
    }
    nv_grow(t, c->faulted, first, bfirst);
    for (uint32_t b = bfirst; b < bouter; b += UVM_BIG_PAGES)
        nv_grow(t, c->faulted, b, b + UVM_BIG_PAGES);
    nv_grow(t, c->faulted, bouter, outer);
}

/* The largest subtree above page p whose share of set pages exceeds the threshold, clamped to
 * the region: [*a, *b) (empty if none). */
static void nv_region(const nv_tree_t *t, uint32_t p, uint32_t *a, uint32_t *b) {
    *a = *b = 0;
    for (uint32_t k = 0; k < t->levels; k++) {
        const uint32_t size = UINT32_C(1) << k;
        const uint32_t ts = align_down(p - t->anchor, size);
        const uint32_t te = ts + size < t->leaves ? ts + size : t->leaves;
        const uint32_t n = count_range(t->pages, t->anchor + ts, t->anchor + te);
        if (n * 100u > (te - ts) * UVM_PREFETCH_NVIDIA_THRESHOLD) {
            *a = t->anchor + ts;
            *b = t->anchor + te;
        }
    }
    if (*a < t->first)
        *a = t->first;
    if (*b > t->outer)
        *b = t->outer;
}

static void hint_nvidia(uvm_handler_t *h, const uvm_prefetch_ctx_t *c,
                        uint64_t hint[UVM_BLOCK_WORDS]) {
    nv_tree_t t;
    uint32_t p = uvm_bitmap_next(c->faulted, UVM_BLOCK_PAGES, 0);
    while (p < UVM_BLOCK_PAGES) {
        /* one tree per allocation part of the block (nvidia-uvm: one VA block per range) */
        uint32_t first = 0, outer = 0;
        alloc_region(h, c, p, &first, &outer);
        nv_tree_init(&t, c, first, outer);
        for (; p < outer; p = uvm_bitmap_next(c->faulted, UVM_BLOCK_PAGES, p + 1u)) {
            uint32_t a = 0, b = 0;
            nv_region(&t, p, &a, &b);
            fill_range(hint, a, b);
            if (b == outer) /* prefetched up to the end of the region */
                break;
        }
        p = uvm_bitmap_next(c->faulted, UVM_BLOCK_PAGES, outer);
    }
    for (uint32_t w = 0; w < UVM_BLOCK_WORDS; w++)
        hint[w] &= ~c->faulted[w] & ~c->blk->resident[w]; /* demand / already there */
}

/* ------------------------------------------------------------------------------------------ */
/* UVMSmart's prefetchers                                                                      */

/* tbn: fault by fault in VPN order, the 64 KB leaf of the fault becomes valid, then each
 * ancestor (up to the smallest aligned node holding the allocation's part of the block) whose
 * valid pages exceed half its capacity becomes valid as a whole. */
static void hint_tbn(uvm_handler_t *h, const uvm_prefetch_ctx_t *c,
                     uint64_t hint[UVM_BLOCK_WORDS]) {
    uint64_t valid[UVM_BLOCK_WORDS];
    memcpy(valid, c->blk->resident, sizeof valid);
    for (uint32_t p = uvm_bitmap_next(c->faulted, UVM_BLOCK_PAGES, 0); p < UVM_BLOCK_PAGES;
         p = uvm_bitmap_next(c->faulted, UVM_BLOCK_PAGES, p + 1u)) {
        uint32_t first = 0, outer = 0;
        alloc_region(h, c, p, &first, &outer);
        uint32_t root = UVM_BIG_PAGES; /* smallest aligned node covering [first, outer) */
        while (align_down(first, root) + root < outer)
            root *= 2u;
        for (uint32_t size = UVM_BIG_PAGES; size <= root; size *= 2u) {
            const uint32_t a = align_down(p, size);
            const bool leaf = size == UVM_BIG_PAGES;
            if (leaf || count_range(valid, a, a + size) * 2u > size) {
                for (uint32_t i = a; i < a + size; i++)
                    if (uvm_bitmap_test(c->managed, i) && i >= first && i < outer)
                        uvm_bitmap_set(valid, i);
            }
        }
    }
    for (uint32_t w = 0; w < UVM_BLOCK_WORDS; w++)
        hint[w] |= valid[w] & ~c->blk->resident[w] & ~c->faulted[w];
}

/* seq_local: the 64 KB block of every fault. */
static void hint_seq_local(uvm_handler_t *h, const uvm_prefetch_ctx_t *c,
                           uint64_t hint[UVM_BLOCK_WORDS]) {
    (void)h;
    uvm_prefetch_grow(c->faulted, c->managed, UVM_BIG_PAGES, hint);
    for (uint32_t w = 0; w < UVM_BLOCK_WORDS; w++)
        hint[w] &= ~c->faulted[w] & ~c->blk->resident[w];
}

/* random_local: per fault, one page drawn uniformly among the block's managed pages that are
 * neither resident, faulted nor already drawn. */
static int random_init(uvm_handler_t *h, void **priv) {
    rng_t *r = malloc(sizeof *r);
    if (!r)
        return -1;
    rng_seed(r, h->cfg.seed, 0x7066726e64ull /* "pfrnd" */);
    *priv = r;
    return 0;
}

static void random_fini(void *priv) {
    free(priv);
}

static void hint_random_local(uvm_handler_t *h, const uvm_prefetch_ctx_t *c,
                              uint64_t hint[UVM_BLOCK_WORDS]) {
    (void)h;
    uint64_t cand[UVM_BLOCK_WORDS];
    for (uint32_t w = 0; w < UVM_BLOCK_WORDS; w++)
        cand[w] = c->managed[w] & ~c->blk->resident[w] & ~c->faulted[w];
    const uint32_t nfault = uvm_bitmap_count(c->faulted, UVM_BLOCK_WORDS);
    for (uint32_t k = 0; k < nfault; k++) {
        const uint32_t n = uvm_bitmap_count(cand, UVM_BLOCK_WORDS);
        if (n == 0)
            return;
        uint32_t r = (uint32_t)(rng_next(c->priv) % n);
        uint32_t p = uvm_bitmap_next(cand, UVM_BLOCK_PAGES, 0);
        while (r-- > 0)
            p = uvm_bitmap_next(cand, UVM_BLOCK_PAGES, p + 1u);
        uvm_bitmap_set(hint, p);
        uvm_bitmap_clear(cand, p);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* the registry's entries                                                                      */

const uvm_prefetch_ops_t uvm_prefetch_none_ops = {"none", NULL, NULL, hint_none, NULL};
const uvm_prefetch_ops_t uvm_prefetch_nvidia_ops = {"nvidia", NULL, NULL, hint_nvidia, NULL};
const uvm_prefetch_ops_t uvm_prefetch_tbn_ops = {"tbn", NULL, NULL, hint_tbn, NULL};
const uvm_prefetch_ops_t uvm_prefetch_seq_local_ops = {"seq_local", NULL, NULL, hint_seq_local,
                                                       NULL};
const uvm_prefetch_ops_t uvm_prefetch_random_local_ops = {"random_local", random_init, random_fini,
                                                          hint_random_local, NULL};
