/*
 * uvm_evict_fifo.c - eviction policy "fifo": the driver's idea of order at 2 MB granularity
 * (docs/handler.md §6, §6i). nvidia-uvm keeps its GPU root chunks (2 MB) in a list ordered by
 * the time they first became used (block_mark_memory_used in uvm_va_block.c puts a chunk at
 * the tail of the used list; it is never reordered by accesses) and evicts from the head
 * (pick_root_chunk_to_evict in uvm_pmm_gpu.c). Here the unit is the VA block: a block goes to
 * the tail when it first becomes resident (its first page gets a frame), is never reordered,
 * and leaves the list when its last resident page goes. The victim is a page of the head block
 * (its lowest resident page not pinned in the current block; the next block if every page of it
 * is pinned): a trivial fifo that evicts 4 KB pages; whole-chunk eviction is issue 20's.
 *
 * The state comes from events only: RESIDENT and NONRESIDENT, subscribed like any observer.
 */
#include <stdlib.h>

#include "u64map.h"
#include "uvm_priv.h"

typedef struct {
    u64map_t node;   /* VA block id -> node index */
    uint64_t *id;    /* per node: its block id */
    uint32_t *count; /* per node: resident pages of the block */
    uint32_t *prev, *next;
    uint32_t *free_nodes; /* stack of unused node indices */
    uint32_t nfree;
    uint32_t head, tail; /* head = first to become resident */
} fifo_t;

static void fifo_fini(void *priv) {
    fifo_t *q = priv;
    if (!q)
        return;
    u64map_free(&q->node);
    free(q->id);
    free(q->count);
    free(q->prev);
    free(q->next);
    free(q->free_nodes);
    free(q);
}

/* A block on the list has a resident page: at most gpu_data_pages nodes, and the map is sized
 * for them, so the observer never allocates. */
static int fifo_init(uvm_handler_t *h, void **priv) {
    const uint32_t n = (uint32_t)h->cfg.gpu_data_pages;
    fifo_t *q = calloc(1, sizeof *q);
    if (!q)
        return -1;
    q->id = malloc((size_t)n * sizeof *q->id);
    q->count = malloc((size_t)n * sizeof *q->count);
    q->prev = malloc((size_t)n * sizeof *q->prev);
    q->next = malloc((size_t)n * sizeof *q->next);
    q->free_nodes = malloc((size_t)n * sizeof *q->free_nodes);
    if (!q->id || !q->count || !q->prev || !q->next || !q->free_nodes ||
        u64map_init(&q->node, n) != 0) {
        fifo_fini(q);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        q->free_nodes[i] = n - 1u - i; /* node 0 first */
    q->nfree = n;
    q->head = q->tail = UVM_NONE;
    *priv = q;
    return 0;
}

static void became_resident(fifo_t *q, uint64_t blk_id) {
    uint64_t v = 0;
    if (u64map_get(&q->node, blk_id, &v)) {
        q->count[v]++;
        return;
    }
    if (q->nfree == 0)
        return; /* cannot happen: a node per block with a resident page */
    const uint32_t i = q->free_nodes[--q->nfree];
    (void)u64map_put(&q->node, blk_id, i); /* sized at init: no allocation */
    q->id[i] = blk_id;
    q->count[i] = 1;
    q->prev[i] = q->tail;
    q->next[i] = UVM_NONE;
    if (q->tail != UVM_NONE)
        q->next[q->tail] = i;
    else
        q->head = i;
    q->tail = i;
}

static void lost_residency(fifo_t *q, uint64_t blk_id) {
    uint64_t v = 0;
    if (!u64map_get(&q->node, blk_id, &v))
        return;
    const uint32_t i = (uint32_t)v;
    if (--q->count[i] > 0)
        return;
    if (q->prev[i] != UVM_NONE)
        q->next[q->prev[i]] = q->next[i];
    else
        q->head = q->next[i];
    if (q->next[i] != UVM_NONE)
        q->prev[q->next[i]] = q->prev[i];
    else
        q->tail = q->prev[i];
    (void)u64map_del(&q->node, blk_id);
    q->free_nodes[q->nfree++] = i;
}

static void fifo_observe(void *priv, const uvm_event_t *ev) {
    for (uint32_t p = 0; p < ev->page.pages; p++) {
        const uint64_t blk_id = (ev->page.vpn + p) >> UVM_BLOCK_SHIFT;
        if (ev->kind == UVM_EVENT_RESIDENT)
            became_resident(priv, blk_id);
        else
            lost_residency(priv, blk_id);
    }
}

/* The first victim in block blk_id (a resident page, by page index) for gran_pages. */
static uint32_t block_victim(uvm_handler_t *h, uint64_t blk_id, uint32_t gran_pages) {
    const uvm_va_block_t *blk = uvm_va_block_get(h, blk_id << UVM_BLOCK_SHIFT, false);
    if (!blk)
        return UVM_NONE;
    for (uint32_t p = uvm_bitmap_next(blk->resident, UVM_BLOCK_PAGES, 0); p < UVM_BLOCK_PAGES;
         p = uvm_bitmap_next(blk->resident, UVM_BLOCK_PAGES, p + 1u)) {
        const uint32_t f = blk->frame[p];
        if (gran_pages == 1u) {
            if (!uvm_frame_pinned(h, f))
                return f;
            continue;
        }
        const uint32_t g = f & ~(gran_pages - 1u);
        if (uvm_evict_group_ok(h, g, gran_pages))
            return g;
    }
    return UVM_NONE;
}

static uint32_t fifo_pick(uvm_handler_t *h, void *priv, uint32_t gran_pages) {
    const fifo_t *q = priv;
    if (!uvm_evict_gran_valid(gran_pages))
        return UVM_NONE;
    for (uint32_t i = q->head; i != UVM_NONE; i = q->next[i]) {
        const uint32_t f = block_victim(h, q->id[i], gran_pages);
        if (f != UVM_NONE)
            return f;
    }
    return UVM_NONE;
}

const uvm_evict_ops_t uvm_evict_fifo_ops = {
    "fifo",       fifo_init,
    fifo_fini,    UVM_EVENT_MASK(UVM_EVENT_RESIDENT) | UVM_EVENT_MASK(UVM_EVENT_NONRESIDENT),
    fifo_observe, fifo_pick,
    false,        NULL};
