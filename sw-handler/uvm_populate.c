/*
 * uvm_populate.c - the programmer-directed copy (cudaMalloc + cudaMemcpy host-to-device) as the
 * memcpy baseline uses it (docs/handler.md §6e): every page of an allocation is given a GPU frame,
 * copied in large DMAs and mapped before the kernel runs, so the kernel takes no far-fault.
 *
 * Frames come from the chunked allocator in 2 MB / 64 KB chunks where a whole aligned group of
 * the allocation is missing (so a block's pages sit in consecutive frames), 4 KB frames
 * otherwise. A run of consecutive pages in consecutive frames of one 2 MB block is ONE transfer
 * (up to 512 pages, whatever cfg.migrate_max_pages says: a cudaMemcpy moves the whole buffer),
 * and every transfer of the allocation is submitted before the first wait, so all copy channels
 * work at once. No CPU time is charged per page or per PTE (t_page_ns, t_pte_ns): the mapping of
 * a cudaMalloc'ed buffer is made at allocation time, outside the copy; the copy costs what its
 * DMAs cost. Nothing is ever evicted: an allocation that does not fit is an error, as a
 * cudaMalloc beyond the GPU's memory fails.
 *
 * The placement (uvm_place.h, docs/handler.md §6e): 4k maps every page by a 4 KB PTE. 2m makes
 * every 2 MB region of the allocation that a demand-paged 2m fault would make one large page
 * (region_whole: its managed pages of one writability; none resident yet) one 2 MB page, with
 * uvm_large_place as the demand path (every managed page of the region copied, the rest of the
 * frame is bloat), given a free 2 MB chunk; the other regions (mixed writability, pages already
 * resident, no free 2 MB chunk: never an eviction) stay 4 KB-mapped. The CoCoA placements (no
 * alloc_range) place every page at its offset in its region's 2 MB frame, and cocoa's merge
 * coalesces every block the copy leaves fully populated (coalesce_by host or gmmu) as the demand
 * path's uvm_migrate_flush does; partial blocks stay 4 KB-mapped.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "uvm_place.h"

typedef struct {
    uint64_t vpn;          /* first page */
    uint64_t dma;          /* transfer handle */
    uint32_t frame, pages; /* each page mapped with its frame's writability (§6o) */
} pop_run_t;

typedef struct {
    pop_run_t *runs;
    size_t n, cap;
    uint32_t max; /* pages of one run: a VA block, or more for a cudaMemcpy (memcpy_dma_pages) */
} pop_runs_t;

/* Appends page vpn in frame to the last run, or opens a new run. -1: out of memory. */
static int run_add(pop_runs_t *r, uint64_t vpn, uint32_t frame) {
    if (r->n > 0) {
        pop_run_t *last = &r->runs[r->n - 1u];
        if (last->vpn + last->pages == vpn && last->frame + last->pages == frame &&
            last->pages < r->max &&
            (r->max > UVM_BLOCK_PAGES ||
             (last->vpn >> UVM_BLOCK_SHIFT) == (vpn >> UVM_BLOCK_SHIFT))) {
            last->pages++;
            return 0;
        }
    }
    if (r->n == r->cap) {
        const size_t cap = r->cap ? 2u * r->cap : 64u;
        pop_run_t *p = realloc(r->runs, cap * sizeof *p);
        if (!p)
            return -1;
        r->runs = p;
        r->cap = cap;
    }
    r->runs[r->n++] = (pop_run_t){vpn, 0, frame, 1};
    return 0;
}

static bool missing(const uvm_handler_t *h, uint64_t vpn) {
    return uvm_find_alloc(h, vpn) != NULL && !uvm_va_block_resident(h, vpn, NULL);
}

/* true if the n-page group at vpn is naturally aligned, inside [.., last] and wholly missing. */
static bool group_missing(const uvm_handler_t *h, uint64_t vpn, uint64_t last, uint32_t n) {
    if (vpn % n != 0 || vpn + n - 1u > last)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (!missing(h, vpn + i))
            return false;
    return true;
}

/* Frames for the missing pages of [first, last] in VPN order, recorded as runs. -1 + err. */
static int assign_frames(uvm_handler_t *h, const uvm_alloc_t *al, uint64_t first, uint64_t last,
                         pop_runs_t *r, char *err, size_t errlen) {
    static const uvm_chunk_size_t cls[2] = {UVM_CHUNK_2M, UVM_CHUNK_64K};
    uint64_t vpn = first;
    while (vpn <= last) {
        if (!missing(h, vpn)) {
            vpn++;
            continue;
        }
        uint32_t n = 1, f = UVM_NONE;
        const bool ranges = h->place->alloc_range != NULL;
        if (!ranges) /* CoCoA: at its offset in its region's 2 MB frame (or a fallback) */
            f = uvm_migrate_backing(h, vpn, 1u);
        for (int i = 0; i < 2 && f == UVM_NONE && ranges; i++) {
            n = uvm_chunk_frames(cls[i]);
            if (group_missing(h, vpn, last, n))
                f = h->place->alloc_range(h, vpn, n);
        }
        if (f == UVM_NONE && ranges) {
            n = 1;
            f = h->place->alloc_page(h, vpn);
        }
        if (f == UVM_NONE) { /* checked before: only a broken allocator gets here */
            err_setf(err, errlen, "uvm: populate %s: no free GPU frame for VA 0x%" PRIx64, al->name,
                     vpn << GMMU_PAGE_SHIFT);
            return -1;
        }
        for (uint32_t i = 0; i < n; i++) {
            const bool w = uvm_page_writable(h, vpn + i, al); /* read-mostly: a duplicate */
            if (uvm_frame_assign(h, f + i, vpn + i, w) != 0 || run_add(r, vpn + i, f + i) != 0) {
                err_setf(err, errlen, "uvm: populate %s: out of host memory", al->name);
                return -1;
            }
        }
        vpn += n;
    }
    return 0;
}

/* The 2m placement: true if the region at base (VPN, 2 MB aligned) becomes one 2 MB page (*w:
 * its writability): the demand path's condition, and nothing of it resident yet. */
static bool large_region(const uvm_handler_t *h, uint64_t base, bool *w) {
    if (!h->place->region_whole || !h->place->region_whole(h, base, w))
        return false;
    for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++)
        if (uvm_va_block_resident(h, base + p, NULL))
            return false;
    return true;
}

/* Frames the copy needs for [first, last]: a 2 MB frame per region large_region makes a 2 MB
 * page, one per missing page otherwise. */
static uint64_t frames_needed(const uvm_handler_t *h, uint64_t first, uint64_t last) {
    uint64_t need = 0;
    bool w = false;
    for (uint64_t b = first >> UVM_BLOCK_SHIFT; b <= last >> UVM_BLOCK_SHIFT; b++) {
        const uint64_t base = b << UVM_BLOCK_SHIFT;
        if (large_region(h, base, &w)) {
            need += UVM_BLOCK_PAGES;
            continue;
        }
        const uint64_t lo = base > first ? base : first;
        const uint64_t hi = base + UVM_BLOCK_PAGES - 1u < last ? base + UVM_BLOCK_PAGES - 1u : last;
        for (uint64_t v = lo; v <= hi; v++)
            need += missing(h, v) ? 1u : 0u;
    }
    return need;
}

uint64_t uvm_prefetch_frames(const uvm_handler_t *h, uint64_t base, uint64_t size,
                             uint64_t *nfree) {
    const uint64_t first = base >> GMMU_PAGE_SHIFT, last = (base + size - 1u) >> GMMU_PAGE_SHIFT;
    *nfree = h->place->frames_free(h, uvm_vpn_asid(first));
    return frames_needed(h, first, last);
}

/* The 2m placement: every region of [first, last] large_region accepts, given a free 2 MB chunk
 * (never an eviction), becomes one 2 MB page (copied, mapped, no CPU time charged); *pages += its
 * managed pages. 0 or -1 + err. */
static int place_large(uvm_handler_t *h, const uvm_alloc_t *al, uint64_t first, uint64_t last,
                       uint64_t *pages, char *err, size_t errlen) {
    bool w = false;
    for (uint64_t b = first >> UVM_BLOCK_SHIFT; b <= last >> UVM_BLOCK_SHIFT; b++) {
        const uint64_t base = b << UVM_BLOCK_SHIFT;
        if (!large_region(h, base, &w))
            continue;
        const uint32_t chunk = h->place->alloc_range(h, base, UVM_BLOCK_PAGES);
        if (chunk == UVM_NONE)
            continue; /* fragmented: its pages get 4 KB frames */
        uvm_va_block_t *blk = uvm_va_block_get(h, base, true);
        if (!blk || uvm_large_place(h, blk, chunk, w, false) != 0) {
            if (!blk)
                (void)uvm_pmm_free(&h->pmm, chunk, UVM_CHUNK_2M);
            err_setf(err, errlen, "uvm: populate %s: cannot map VA 0x%" PRIx64 " as a 2 MB page",
                     al->name, base << GMMU_PAGE_SHIFT);
            return -1;
        }
        for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++)
            *pages += uvm_find_alloc(h, base + p) ? 1u : 0u;
    }
    return 0;
}

/* The copy of the missing pages of [first, last] of allocation al (what: "populate" or
 * "prefetch", in messages). *pages += the pages copied. 0 or -1 + err. */
/* The pages of the runs, their copies submitted, join the set in flight (h->ts): mapped as the
 * copies complete (uvm_handler_wake), or when a fault or an eviction waits for them. */
static void queue_in_flight(uvm_handler_t *h, const pop_runs_t *r, uint64_t *pages) {
    for (size_t i = 0; i < r->n; i++)
        for (uint32_t k = 0; k < r->runs[i].pages; k++) {
            const uint32_t f = r->runs[i].frame + k;
            h->ts.pending[h->ts.n++] = (uvm_pending_t){r->runs[i].vpn + k,    r->runs[i].dma, f,
                                                       h->frames[f].writable, k == 0,         true};
            (*pages)++;
        }
}

static int copy_range(uvm_handler_t *h, const uvm_alloc_t *al, uint64_t first, uint64_t last,
                      const char *what, bool async, uint64_t *pages, char *err, size_t errlen) {
    const uint64_t need = frames_needed(h, first, last);
    /* asynchronous (a prefetch on another stream): pages placed one by one (no 2 MB page, no
     * merge), as many as the set in flight holds; else synchronous */
    async = async && !h->place->region_whole && !h->place->merge && need <= UVM_TS_CAP - h->ts.n;
    const uint64_t nfree = h->place->frames_free(h, uvm_vpn_asid(first));
    if (need > nfree) {
        err_setf(err, errlen,
                 "uvm: %s %s: %" PRIu64 " pages to copy, %" PRIu64
                 " free GPU frames (gpu_data_pages %" PRIu64 "): %s",
                 what, al->name, need, nfree, h->cfg.gpu_data_pages,
                 what[1] == 'o' ? "GPU memory is oversubscribed, a programmer-directed copy cannot "
                                  "hold it (cudaMalloc would fail)"
                                : "a prefetch that needs evictions is not modeled yet");
        return -1;
    }
    const uint64_t tables = uvm_pt_missing_range(h, first, last);
    if (tables > uvm_pt_free_pages(h)) {
        err_setf(err, errlen,
                 "uvm: %s %s: page-table pool exhausted (%" PRIu64 " table pages needed, %" PRIu64
                 " free of gpu_pt_pages %" PRIu64 ")",
                 what, al->name, tables, uvm_pt_free_pages(h), h->cfg.gpu_pt_pages);
        return -1;
    }
    /* a cudaMemcpy is one copy (memcpy_dma_pages); a prefetch moves a VA block at a time */
    const bool memcpy_copy = strcmp(what, "populate") == 0;
    const uint32_t max = memcpy_copy && h->cfg.memcpy_dma_pages > UVM_BLOCK_PAGES
                             ? h->cfg.memcpy_dma_pages
                             : UVM_BLOCK_PAGES;
    pop_runs_t r = {NULL, 0, 0, max};
    int rc = place_large(h, al, first, last, pages, err, errlen);
    if (rc == 0)
        rc = assign_frames(h, al, first, last, &r, err, errlen);
    for (size_t i = 0; rc == 0 && i < r.n; i++) { /* every transfer first: all channels busy */
        pop_run_t *x = &r.runs[i];
        x->dma = h->dev.dma_submit(h->dev.ctx, UVM_DMA_H2D, x->vpn << GMMU_PAGE_SHIFT,
                                   uvm_frame_pa(h, x->frame), (uint64_t)x->pages * UVM_PAGE_BYTES);
        uvm_emit_migrate(h, UVM_EVENT_MIGRATE, UVM_DMA_H2D, x->vpn, x->frame, x->pages, x->dma);
    }
    if (rc == 0 && async) {
        queue_in_flight(h, &r, pages);
        free(r.runs);
        h->block_gen++; /* in flight: no victim (an eviction drains the set first) */
        return 0;
    }
    for (size_t i = 0; rc == 0 && i < r.n; i++) {
        h->dev.dma_wait(h->dev.ctx, r.runs[i].dma);
        uvm_emit_migrate(h, UVM_EVENT_MIGRATE_DONE, UVM_DMA_H2D, r.runs[i].vpn, r.runs[i].frame,
                         r.runs[i].pages, r.runs[i].dma);
    }
    for (size_t i = 0; rc == 0 && i < r.n; i++) {
        const pop_run_t *x = &r.runs[i];
        uint32_t k = 0;
        while (k < x->pages && h->place->map(h, x->vpn + k, x->frame + k, 1,
                                             h->frames[x->frame + k].writable, false) == 0)
            k++;
        if (k < x->pages) {
            err_setf(err, errlen, "uvm: %s %s: cannot map VA 0x%" PRIx64 " (%" PRIu32 " pages)",
                     what, al->name, x->vpn << GMMU_PAGE_SHIFT, x->pages);
            rc = -1;
        }
        *pages += x->pages;
    }
    /* cocoa's merge: every block the copy filled is coalesced once its base PTEs are written
     * (runs of one block are adjacent; the check wants every managed page of the region
     * resident at its offset, so a partial block stays 4 KB-mapped) */
    uint64_t merged = UINT64_MAX; /* the block coalesced last (a run may span several blocks) */
    for (size_t i = 0; rc == 0 && h->place->merge && i < r.n; i++)
        for (uint64_t b = r.runs[i].vpn >> UVM_BLOCK_SHIFT;
             b <= (r.runs[i].vpn + r.runs[i].pages - 1u) >> UVM_BLOCK_SHIFT; b++)
            if (b != merged) {
                uvm_large_maybe_coalesce(h, uvm_va_block_get(h, b << UVM_BLOCK_SHIFT, false));
                merged = b;
            }
    free(r.runs);
    h->block_gen++; /* nothing stays pinned */
    return rc;
}

int uvm_handler_populate(uvm_handler_t *h, uint64_t base, uint64_t *pages, char *err,
                         size_t errlen) {
    *pages = 0;
    const uvm_alloc_t *al = uvm_find_alloc(h, base >> GMMU_PAGE_SHIFT);
    if (!h->initialized || !al || al->base != base) {
        err_setf(err, errlen, "uvm: populate 0x%" PRIx64 ": %s", base,
                 !h->initialized ? "the device is not initialized (uvm_handler_init_device)"
                                 : "not the base of a managed allocation");
        return -1;
    }
    return copy_range(h, al, al->base >> GMMU_PAGE_SHIFT,
                      (al->base + al->size - 1u) >> GMMU_PAGE_SHIFT, "populate", false, pages, err,
                      errlen);
}

int uvm_handler_prefetch(uvm_handler_t *h, uint64_t base, uint64_t size, uint64_t *pages, char *err,
                         size_t errlen) {
    *pages = 0;
    const uvm_alloc_t *al = size ? uvm_find_alloc(h, base >> GMMU_PAGE_SHIFT) : NULL;
    if (!h->initialized || !al || base + size - 1u > al->base + al->size - 1u) {
        err_setf(err, errlen, "uvm: prefetch [0x%" PRIx64 ", +0x%" PRIx64 "): %s", base, size,
                 !h->initialized ? "the device is not initialized (uvm_handler_init_device)"
                                 : "not inside one managed allocation");
        return -1;
    }
    if (h->ts.n) /* pipelined transfer sets: the copies in flight land first */
        uvm_ts_pipe_drain(h);
    return copy_range(h, al, base >> GMMU_PAGE_SHIFT, (base + size - 1u) >> GMMU_PAGE_SHIFT,
                      "prefetch", h->cfg.prefetch_async != 0, pages, err, errlen);
}
