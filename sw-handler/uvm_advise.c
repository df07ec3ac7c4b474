/*
 * uvm_advise.c - memory advice (cudaMemAdvise, a trace's `advise` record) and read duplication
 * (docs/handler.md §6o), modeled on nvidia-uvm's read duplication (uvm_va_policy.c,
 * uvm_va_block.c: uvm_va_block_make_resident_read_duplicate, the revocation of the other copies
 * on a write).
 *
 * A read-mostly page is a per-page placement kind `duplicated` beside the handler's default
 * placement (§6h's plan): its state is the advice bit in its VA block (read_mostly) and its
 * frame's writability. A GPU read of a read-mostly page that is not resident copies it and maps
 * it read-only (uvm_page_writable: false); the host copy stays valid, so evicting or dropping the
 * duplicate writes nothing back (the placement's writeback copies writable frames only). A GPU
 * write to a duplicate faults (RO violation) and collapses it (uvm_dup_collapse): the host copy
 * is revoked and the PTE becomes writable in place, its stale read-only translation shot down; a
 * GPU write fault on a read-mostly page that is not resident migrates it writable at once (the
 * driver migrates and revokes the other copies in the same service). A CPU read of a GPU-resident
 * read-mostly page duplicates it to the host (a writable copy written back, then mapped
 * read-only); a CPU write collapses it to the host copy (the GPU copy unmapped, INVAL_PAGE, frame
 * released, no write-back). The duplicates live in 4 KB frames of the 4k placement: with the
 * other placements (2 MB pages, CoCoA) read_mostly is refused.
 */
#include <inttypes.h>

#include "err.h"
#include "uvm_place.h"

static void emit_revocation(uvm_handler_t *h, uint64_t vpn, uint8_t access_left) {
    uvm_event_emit(h,
                   &(uvm_event_t){.kind = UVM_EVENT_REVOCATION,
                                  .revocation = {.vpn = vpn, .pages = 1, .access = access_left}});
    h->stats.read_dup_collapses++;
}

void uvm_dup_collapse(uvm_handler_t *h, uint64_t vpn, uint32_t f) {
    emit_revocation(h, vpn, GMMU_AT_WRITE);
    h->frames[f].writable = true;
    /* the same frame, W = 1: the PTE rewritten in place (no unmap: the page stays resident),
     * then the read-only translation cached by a TLB shot down, so the replay walks again */
    if (!h->place->protect || h->place->protect(h, vpn, f, true) != 0)
        uvm_cancel_page(h, vpn, "cannot make its read duplicate writable");
}

void uvm_advise_forget(uvm_handler_t *h, uint64_t first, uint64_t last) {
    for (uint64_t vpn = first; vpn <= last; vpn++) {
        uvm_va_block_t *blk = uvm_va_block_get(h, vpn, false);
        if (!blk) { /* no block: nothing advised up to its end */
            vpn |= UVM_BLOCK_PAGES - 1u;
            continue;
        }
        const uint32_t p = uvm_block_page(vpn);
        uvm_bitmap_clear(blk->read_mostly, p);
        if (uvm_bitmap_test(blk->pref_gpu, p) || uvm_bitmap_test(blk->pref_host, p))
            h->pref_pages--;
        uvm_bitmap_clear(blk->pref_gpu, p);
        uvm_bitmap_clear(blk->pref_host, p);
        uvm_bitmap_clear(blk->accessed_by, p);
    }
}

/* SetAccessedBy(gpu): the GPU keeps a mapping of the pages wherever they are (the driver's
 * uvm_va_range_set_accessed_by maps them at once): every page of the range not resident on the
 * GPU is mapped remotely now, and again whenever it is evicted (uvm_mem_evict); a resident page
 * keeps its local mapping. A fault on such a page maps it remotely instead of migrating it. */
static int accessed_by(uvm_handler_t *h, uint64_t base, uint64_t size, char *err, size_t errlen) {
    const uint64_t first = base >> GMMU_PAGE_SHIFT, last = (base + size - 1u) >> GMMU_PAGE_SHIFT;
    for (uint64_t vpn = first; vpn <= last; vpn++) {
        uvm_va_block_t *blk = uvm_va_block_get(h, vpn, true);
        if (!blk) {
            err_setf(err, errlen, "uvm: advise: out of host memory");
            return -1;
        }
        uvm_bitmap_set(blk->accessed_by, uvm_block_page(vpn));
    }
    if (uvm_remote_map(h, first, (uint32_t)(last - first + 1u), true) < 0) {
        err_setf(err, errlen,
                 "uvm: advise accessed_by: cannot map the range remotely (page-table "
                 "pool exhausted)");
        return -1;
    }
    return 0;
}

/* The allocation holding [base, base + size) whole, NULL (and err) if none. */
static const uvm_alloc_t *range_alloc(const uvm_handler_t *h, const char *what, uint64_t base,
                                      uint64_t size, char *err, size_t errlen) {
    const uvm_alloc_t *al = size ? uvm_find_alloc(h, base >> GMMU_PAGE_SHIFT) : NULL;
    if (!h->initialized || !al || base < al->base || base + size - 1u > al->base + al->size - 1u) {
        err_setf(err, errlen, "uvm: %s [0x%" PRIx64 ", +0x%" PRIx64 "): %s", what, base, size,
                 !h->initialized ? "the device is not initialized (uvm_handler_init_device)"
                                 : "not inside one managed allocation");
        return NULL;
    }
    return al;
}

/* SetPreferredLocation(gpu / host): the page's preference replaces the other one. The eviction
 * order (pick_victim), and a GPU fault on a page preferred on the host maps it remotely instead
 * of migrating it (uvm_remote_wanted, as the driver's block_select_processor_residency keeps it
 * on the host when the GPU can map host memory); a CPU touch migrates a page preferred on the GPU
 * as the driver does when the CPU cannot map GPU memory (PCIe). */
static int prefer(uvm_handler_t *h, uint64_t base, uint64_t size, bool gpu, char *err,
                  size_t errlen) {
    const uint64_t last = (base + size - 1u) >> GMMU_PAGE_SHIFT;
    for (uint64_t vpn = base >> GMMU_PAGE_SHIFT; vpn <= last; vpn++) {
        uvm_va_block_t *blk = uvm_va_block_get(h, vpn, true);
        if (!blk) {
            err_setf(err, errlen, "uvm: advise: out of host memory");
            return -1;
        }
        const uint32_t p = uvm_block_page(vpn);
        if (!uvm_bitmap_test(blk->pref_gpu, p) && !uvm_bitmap_test(blk->pref_host, p))
            h->pref_pages++;
        if (gpu) {
            uvm_bitmap_set(blk->pref_gpu, p);
            uvm_bitmap_clear(blk->pref_host, p);
        } else {
            uvm_bitmap_set(blk->pref_host, p);
            uvm_bitmap_clear(blk->pref_gpu, p);
        }
    }
    return 0;
}

int uvm_handler_advise(uvm_handler_t *h, uint64_t base, uint64_t size, uvm_advice_t advice,
                       char *err, size_t errlen) {
    if ((unsigned)advice > UVM_ADVISE_ACCESSED_BY) {
        err_setf(err, errlen, "uvm: advise: unknown advice %u", (unsigned)advice);
        return -1;
    }
    if (!range_alloc(h, "advise", base, size, err, errlen))
        return -1;
    if (advice == UVM_ADVISE_ACCESSED_BY)
        return accessed_by(h, base, size, err, errlen);
    if (advice != UVM_ADVISE_READ_MOSTLY)
        return prefer(h, base, size, advice == UVM_ADVISE_PREFER_GPU, err, errlen);
    if (!h->place->protect) {
        err_setf(err, errlen,
                 "uvm: advise read_mostly: read duplication needs the 4k placement (page_size 4k, "
                 "frame_alloc not cocoa), this run places pages by '%s'",
                 h->place->name);
        return -1;
    }
    /* as the driver's SetReadMostly on resident pages: the GPU keeps its (only, possibly dirty)
     * copy writable until a CPU read duplicates it or it leaves (§6o: the driver revokes the
     * GPU's write access at once; here the first GPU write after the advice takes no fault) */
    const uint64_t last = (base + size - 1u) >> GMMU_PAGE_SHIFT;
    for (uint64_t vpn = base >> GMMU_PAGE_SHIFT; vpn <= last; vpn++) {
        uvm_va_block_t *blk = uvm_va_block_get(h, vpn, true);
        if (!blk) {
            err_setf(err, errlen, "uvm: advise: out of host memory");
            return -1;
        }
        uvm_bitmap_set(blk->read_mostly, uvm_block_page(vpn));
    }
    return 0;
}

/* A CPU read of resident read-mostly page vpn in frame f: read-duplicated to the host. A
 * duplicate already is one (nothing to do); a writable copy is unmapped, written back, then
 * mapped read-only in the same frame (the driver maps every copy read-only). */
static int dup_to_host(uvm_handler_t *h, uint64_t vpn, uint32_t f, char *err, size_t errlen) {
    if (!h->frames[f].writable)
        return 0;
    h->place->unmap(h, vpn, 1);
    (void)h->place->writeback(h, vpn, f, 1);
    h->frames[f].writable = false;
    if (h->place->map(h, vpn, f, 1, false, true) != 0) {
        err_setf(err, errlen, "uvm: read duplication of VA 0x%" PRIx64 ": cannot map it",
                 vpn << GMMU_PAGE_SHIFT);
        return -1;
    }
    h->stats.read_dup_pages++;
    return 0;
}

static int to_host(uvm_handler_t *h, uint64_t base, uint64_t size, bool write,
                   uvm_evict_cause_t cause, uint64_t *pages, char *err, size_t errlen) {
    *pages = 0;
    const uvm_alloc_t *al = range_alloc(h, "migration to the host", base, size, err, errlen);
    if (!al)
        return -1;
    if (h->ts.n) /* pipelined transfer sets: the copies in flight land first */
        uvm_ts_pipe_drain(h);
    const uint64_t last = (base + size - 1u) >> GMMU_PAGE_SHIFT;
    h->evict_cause = cause; /* the EVICT events name who wanted the pages */
    for (uint64_t vpn = base >> GMMU_PAGE_SHIFT; vpn <= last; vpn++) {
        uint32_t f = 0;
        if (!uvm_va_block_resident(h, vpn, &f))
            continue;
        if (uvm_read_mostly(h, vpn) && !write) {
            if (dup_to_host(h, vpn, f, err, errlen) != 0) {
                h->evict_cause = UVM_EVICT_CAPACITY;
                return -1;
            }
            continue;
        }
        if (uvm_read_mostly(h, vpn) && !al->readonly && !h->frames[f].writable)
            emit_revocation(h, vpn, GMMU_AT_PREFETCH); /* a duplicate collapses to the host */
        const uint64_t before = h->stats.data_pages_resident;
        const uint32_t kept = uvm_mem_evict(h, f); /* unmap, INVAL_PAGE, D2H if writable */
        if (kept != UVM_NONE && h->place->frame_free)
            h->place->frame_free(h, kept);
        else if (kept != UVM_NONE && uvm_pmm_free(&h->pmm, kept, UVM_CHUNK_4K) != 0)
            uvm_logf(h, "uvm: internal: frame %" PRIu32 " freed twice", kept);
        *pages += before - h->stats.data_pages_resident;
    }
    h->evict_cause = UVM_EVICT_CAPACITY;
    return 0;
}

int uvm_handler_to_host(uvm_handler_t *h, uint64_t base, uint64_t size, uint64_t *pages, char *err,
                        size_t errlen) {
    return to_host(h, base, size, false, UVM_EVICT_API, pages, err, errlen);
}

int uvm_handler_cpu_fault(uvm_handler_t *h, uint64_t base, uint64_t size, uint64_t *pages,
                          char *err, size_t errlen) {
    return to_host(h, base, size, false, UVM_EVICT_CPU_FAULT, pages, err, errlen);
}

int uvm_handler_cpu_write(uvm_handler_t *h, uint64_t base, uint64_t size, uint64_t *pages,
                          char *err, size_t errlen) {
    return to_host(h, base, size, true, UVM_EVICT_CPU_FAULT, pages, err, errlen);
}
