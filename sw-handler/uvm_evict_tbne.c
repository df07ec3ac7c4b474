/*
 * uvm_evict_tbne.c - eviction policy "tbne": UVMSmart's tree-based neighbourhood eviction
 * (docs/handler.md §6y; gpgpu-sim_UVMSmart's eviction_policy TBN, page_eviction_procedure and
 * traverse_and_remove_lp_tree). The 2 MB VA block is a full binary tree whose leaves are its
 * 64 KB basic blocks (16 pages); a node's valid size is the number of its resident pages.
 *   1. the candidate: the resident page with the oldest last GPU access (ties: the older
 *      migration; the platform's ORACLE, as for lru_oracle) whose basic block holds no pinned
 *      page; every resident page of that basic block is a victim and its leaf becomes empty;
 *   2. the tree of that block is walked bottom-up (post-order): a node whose valid size is
 *      not 0 but below half its size has every leaf of its subtree that is wholly resident and
 *      holds no pinned page emptied too (its pages are victims), and its valid size recomputed.
 * The tree spans the 2 MB block, or, when the candidate's allocation ends inside the block and
 * does not start after its base, the allocation's remainder rounded up to a power of two of
 * basic blocks (UVMSmart's rule for an allocation that is not a multiple of 2 MB).
 * pick_set gives the victims' frames in VA order; pick(gran) (frame groups: evict_granularity >
 * 1, or a 2 MB chunk) is lru_oracle's scan. No list, no event: the frames and blocks hold all.
 */
#include "uvm_priv.h"

#define TBNE_LEAF 16u                             /* pages of a 64 KB basic block */
#define TBNE_LEAVES (UVM_BLOCK_PAGES / TBNE_LEAF) /* 32 leaves in a 2 MB tree */

typedef struct {
    uvm_handler_t *h;
    const uvm_va_block_t *blk;
    uint32_t valid[TBNE_LEAVES]; /* resident pages per leaf (0 once scheduled) */
    bool sched[TBNE_LEAVES];     /* the leaf's pages are victims */
} tbne_tree_t;

/* The leaf of page index p (block-relative) holds no pinned resident page. */
static bool leaf_evictable(const tbne_tree_t *t, uint32_t leaf) {
    for (uint32_t i = leaf * TBNE_LEAF; i < (leaf + 1u) * TBNE_LEAF; i++)
        if (uvm_bitmap_test(t->blk->resident, i) && uvm_frame_pinned(t->h, t->blk->frame[i]))
            return false;
    return true;
}

/* The basic block of resident frame f can be the candidate's. */
static bool frame_leaf_ok(uvm_handler_t *h, uint32_t f) {
    const uvm_va_block_t *blk = uvm_va_block_get(h, h->frames[f].vpn, false);
    if (!blk)
        return false;
    const tbne_tree_t t = {h, blk, {0}, {false}};
    return leaf_evictable(&t, uvm_block_page(h->frames[f].vpn) / TBNE_LEAF);
}

/* The leaves of the tree of the block at base (page), for the candidate page vpn. */
static uint32_t tree_leaves(const uvm_handler_t *h, uint64_t base, uint64_t vpn) {
    const uvm_alloc_t *al = uvm_find_alloc(h, vpn);
    if (!al || (al->base >> GMMU_PAGE_SHIFT) > base)
        return TBNE_LEAVES;
    const uint64_t end = (al->base + al->size + UVM_PAGE_BYTES - 1u) >> GMMU_PAGE_SHIFT;
    if (end >= base + UVM_BLOCK_PAGES)
        return TBNE_LEAVES;
    const uint64_t need = (end - base + TBNE_LEAF - 1u) / TBNE_LEAF;
    uint32_t n = 1;
    while (n < need)
        n <<= 1;
    return n;
}

/* Empties every wholly resident, evictable leaf of [first, first + n). */
static void remove_subtree(tbne_tree_t *t, uint32_t first, uint32_t n) {
    for (uint32_t l = first; l < first + n; l++)
        if (t->valid[l] == TBNE_LEAF && leaf_evictable(t, l)) {
            t->valid[l] = 0;
            t->sched[l] = true;
        }
}

/* traverse_and_remove_lp_tree: the valid size of node [first, first + n) after the walk. */
static uint32_t traverse(tbne_tree_t *t, uint32_t first, uint32_t n) {
    if (n == 1u)
        return t->valid[first];
    const uint32_t half = n / 2u;
    uint32_t v = traverse(t, first, half) + traverse(t, first + half, half);
    if (v != 0 && v < n * TBNE_LEAF / 2u) {
        remove_subtree(t, first, n);
        v = 0;
        for (uint32_t l = first; l < first + n; l++)
            v += t->valid[l];
    }
    return v;
}

static bool older(const uvm_frame_t *a, const uvm_frame_t *b) {
    return a->access_ns < b->access_ns || (a->access_ns == b->access_ns && a->mig_seq < b->mig_seq);
}

uint32_t uvm_evict_tbne_victims(uvm_handler_t *h, uint32_t *frames) {
    uint32_t best = UVM_NONE;
    for (uint32_t f = 0; f < h->cfg.gpu_data_pages; f++)
        if (h->frames[f].resident && (best == UVM_NONE || older(&h->frames[f], &h->frames[best])) &&
            frame_leaf_ok(h, f))
            best = f;
    if (best == UVM_NONE)
        return 0;
    const uint64_t vpn = h->frames[best].vpn;
    const uint64_t base = vpn & ~(uint64_t)(UVM_BLOCK_PAGES - 1u);
    tbne_tree_t t = {h, uvm_va_block_get(h, vpn, false), {0}, {false}};
    for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++)
        t.valid[p / TBNE_LEAF] += uvm_bitmap_test(t.blk->resident, p) ? 1u : 0u;
    const uint32_t leaf = uvm_block_page(vpn) / TBNE_LEAF;
    t.valid[leaf] = 0;
    t.sched[leaf] = true;
    const uint32_t n = tree_leaves(h, base, vpn);
    (void)traverse(&t, leaf / n * n, n);
    uint32_t k = 0;
    for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++)
        if (t.sched[p / TBNE_LEAF] && uvm_bitmap_test(t.blk->resident, p))
            frames[k++] = t.blk->frame[p];
    return k;
}

static uint32_t tbne_pick_set(uvm_handler_t *h, void *priv, uint32_t *frames) {
    (void)priv;
    return uvm_evict_tbne_victims(h, frames);
}

static uint32_t tbne_pick(uvm_handler_t *h, void *priv, uint32_t gran_pages) {
    (void)priv;
    return uvm_evict_scan_pick(h, gran_pages, older);
}

const uvm_evict_ops_t uvm_evict_tbne_ops = {
    "tbne",       uvm_evict_stateless_init, uvm_evict_stateless_fini, 0, NULL, tbne_pick, false,
    tbne_pick_set};
