/*
 * uvm_evict_nvidia.c - eviction policy "nvidia": the real driver's root-chunk eviction
 * (docs/handler.md §6.1). nvidia-uvm evicts a whole 2 MB root chunk (uvm_pmm_gpu.c,
 * pick_root_chunk_to_evict): free chunks first, then the head of the va_block_unused list, then
 * the head of va_block_used. A root chunk moves to the tail of va_block_used whenever one of its
 * subchunks is allocated by a VA block (uvm_pmm_gpu_unpin_allocated) and when a VA block first
 * becomes resident on the GPU (block_mark_memory_used, uvm_va_block.c); GPU accesses never
 * reorder it (the driver's TODO, Bug 1765193). Here:
 *   - a root chunk is a naturally aligned group of cfg.evict_chunk_pages frames (512 = 2 MB; the
 *     last one may be partial when the frame count is not a multiple);
 *   - free chunks first: the placement's allocator answers before any victim is asked for;
 *   - unused: none here. A frame is freed as soon as its page loses residency, so no chunk is
 *     allocated without a resident page; discarded: none (no discard operation is modelled);
 *   - used: a chunk goes to the tail at every RESIDENT event of one of its frames (a frame is
 *     allocated exactly when a page becomes resident: the driver's allocation and first residency
 *     are one event here) and leaves the list when its last resident page goes;
 *   - pick(gran) returns the head chunk (the aligned group of gran frames containing it, if gran
 *     is larger) that holds no page pinned in the current block nor by thrashing; the caller
 *     (uvm_migrate_backing) evicts every resident page of it, a VA block at a time.
 * The state comes from RESIDENT / NONRESIDENT events only.
 */
#include <stdlib.h>

#include "uvm_priv.h"

typedef struct {
    uint32_t chunk;   /* frames per root chunk (cfg.evict_chunk_pages) */
    uint32_t nchunks; /* root chunks covering gpu_data_pages */
    uint32_t *count;  /* per chunk: resident pages */
    uint32_t *prev, *next;
    uint32_t head, tail; /* head = the next victim */
} nv_t;

static void nv_fini(void *priv) {
    nv_t *q = priv;
    if (!q)
        return;
    free(q->count);
    free(q->prev);
    free(q->next);
    free(q);
}

static int nv_init(uvm_handler_t *h, void **priv) {
    const uint32_t n = (uint32_t)h->cfg.gpu_data_pages;
    const uint32_t chunk = h->cfg.evict_chunk_pages;
    if (!uvm_evict_gran_valid(chunk))
        return -1; /* uvm_handler_new checks the key first, with a message */
    nv_t *q = calloc(1, sizeof *q);
    if (!q)
        return -1;
    q->chunk = chunk;
    q->nchunks = (n + chunk - 1u) / chunk;
    const size_t m = q->nchunks ? q->nchunks : 1u;
    q->count = calloc(m, sizeof *q->count);
    q->prev = malloc(m * sizeof *q->prev);
    q->next = malloc(m * sizeof *q->next);
    if (!q->count || !q->prev || !q->next) {
        nv_fini(q);
        return -1;
    }
    for (uint32_t i = 0; i < m; i++)
        q->prev[i] = q->next[i] = UVM_NONE;
    q->head = q->tail = UVM_NONE;
    *priv = q;
    return 0;
}

static bool linked(const nv_t *q, uint32_t r) {
    return q->head == r || q->prev[r] != UVM_NONE;
}

static void unlink_chunk(nv_t *q, uint32_t r) {
    if (!linked(q, r))
        return;
    if (q->prev[r] != UVM_NONE)
        q->next[q->prev[r]] = q->next[r];
    else
        q->head = q->next[r];
    if (q->next[r] != UVM_NONE)
        q->prev[q->next[r]] = q->prev[r];
    else
        q->tail = q->prev[r];
    q->prev[r] = q->next[r] = UVM_NONE;
}

static void to_tail(nv_t *q, uint32_t r) {
    unlink_chunk(q, r);
    q->prev[r] = q->tail;
    q->next[r] = UVM_NONE;
    if (q->tail != UVM_NONE)
        q->next[q->tail] = r;
    else
        q->head = r;
    q->tail = r;
}

static void nv_observe(void *priv, const uvm_event_t *ev) {
    nv_t *q = priv;
    for (uint32_t i = 0; i < ev->page.pages; i++) {
        const uint32_t r = (ev->page.frame + i) / q->chunk;
        if (r >= q->nchunks)
            continue;
        if (ev->kind == UVM_EVENT_RESIDENT) {
            q->count[r]++;
            to_tail(q, r); /* a subchunk allocated: uvm_pmm_gpu_unpin_allocated */
        } else if (q->count[r] > 0 && --q->count[r] == 0) {
            unlink_chunk(q, r); /* no resident page left: the frames are free */
        }
    }
}

/* The frames [g, g + gran) clamped to the frame count hold a resident page and none pinned. */
static bool chunk_ok(const uvm_handler_t *h, uint32_t g, uint32_t gran) {
    const uint64_t n = h->cfg.gpu_data_pages;
    const uint64_t end = (uint64_t)g + gran < n ? (uint64_t)g + gran : n;
    bool any = false;
    for (uint64_t f = g; f < end; f++) {
        if (!h->frames[f].resident)
            continue;
        if (uvm_frame_pinned(h, (uint32_t)f))
            return false;
        any = true;
    }
    return any;
}

static uint32_t nv_pick(uvm_handler_t *h, void *priv, uint32_t gran_pages) {
    const nv_t *q = priv;
    if (!uvm_evict_gran_valid(gran_pages))
        return UVM_NONE;
    for (uint32_t r = q->head; r != UVM_NONE; r = q->next[r]) {
        const uint32_t g = (r * q->chunk) & ~(gran_pages - 1u);
        if (chunk_ok(h, g, gran_pages > q->chunk ? gran_pages : q->chunk))
            return g;
    }
    return UVM_NONE;
}

const uvm_evict_ops_t uvm_evict_nvidia_ops = {
    "nvidia",   nv_init,
    nv_fini,    UVM_EVENT_MASK(UVM_EVENT_RESIDENT) | UVM_EVENT_MASK(UVM_EVENT_NONRESIDENT),
    nv_observe, nv_pick,
    true,       NULL};
