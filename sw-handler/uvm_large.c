/*
 * uvm_large.c - large pages in the handler (docs/handler.md §6f), the mechanics the placements
 * use (uvm_place_2m.c, uvm_place_cocoa.c): a whole 2 MB page migrated and mapped at the first
 * fault of its region, evicted whole (2m); 4 KB pages placed by CoCoA at their offsets in the
 * region's 2 MB frame, coalesced when the region is fully populated, splintered before one of
 * its pages is evicted (cocoa).
 *
 * PTE formats (spec/gmmu.toml [pte], docs/microarch.md §6): L in a level-3 entry makes the walk
 * read entry 0 of the level-4 table it points to, whose PPN[35:9] is the 2 MB frame; D in a
 * level-4 entry means "covered by a coalesced page": the base translation is correct but never
 * cached. One address space (ASID 0) until the platform drives more.
 */
#include <inttypes.h>

#include "uvm_place.h"

#define PTE_BIT(b) (UINT64_C(1) << (b))

bool uvm_large_region_ok(const uvm_handler_t *h, uint64_t vpn, bool *writable) {
    const uint64_t base = (vpn >> UVM_BLOCK_SHIFT) << UVM_BLOCK_SHIFT;
    bool any = false, w = false;
    for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++) {
        const uvm_alloc_t *al = uvm_find_alloc(h, base + p);
        if (!al)
            continue;
        if (any && w != !al->readonly)
            return false; /* one large PTE has one W bit */
        w = !al->readonly;
        any = true;
    }
    *writable = w;
    return any;
}

/* Copies the managed pages of the region at base (VPN) to / from the 2 MB frame at first: one
 * DMA per run of managed pages, all submitted, then all waited for. */
static void copy_managed(uvm_handler_t *h, uvm_dma_dir_t dir, uint64_t base, uint32_t first) {
    uint64_t handles[UVM_BLOCK_PAGES];
    uint32_t run_at[UVM_BLOCK_PAGES], run_len[UVM_BLOCK_PAGES]; /* for the events */
    uint32_t n = 0;
    for (uint32_t p = 0; p < UVM_BLOCK_PAGES;) {
        if (!uvm_find_alloc(h, base + p)) {
            p++;
            continue;
        }
        uint32_t e = p + 1u;
        while (e < UVM_BLOCK_PAGES && uvm_find_alloc(h, base + e))
            e++;
        const uint64_t va = (base + p) << GMMU_PAGE_SHIFT, pa = uvm_frame_pa(h, first + p);
        const uint64_t bytes = (uint64_t)(e - p) * UVM_PAGE_BYTES;
        handles[n++] = dir == UVM_DMA_H2D ? h->dev.dma_submit(h->dev.ctx, dir, va, pa, bytes)
                                          : h->dev.dma_submit(h->dev.ctx, dir, pa, va, bytes);
        if (dir == UVM_DMA_H2D)
            h->irq_h2d_bytes += bytes;
        run_at[n - 1] = p;
        run_len[n - 1] = e - p;
        uvm_emit_migrate(h, UVM_EVENT_MIGRATE, dir, base + p, first + p, e - p, handles[n - 1]);
        p = e;
    }
    for (uint32_t i = 0; i < n; i++) {
        h->dev.dma_wait(h->dev.ctx, handles[i]);
        uvm_emit_migrate(h, UVM_EVENT_MIGRATE_DONE, dir, base + run_at[i], first + run_at[i],
                         run_len[i], handles[i]);
    }
}

bool uvm_large_migrate(uvm_handler_t *h, uint64_t vpn, bool writable) {
    const uint64_t base = (vpn >> UVM_BLOCK_SHIFT) << UVM_BLOCK_SHIFT;
    uvm_va_block_t *blk = uvm_va_block_get(h, vpn, true);
    const uint32_t first = blk ? uvm_migrate_backing(h, vpn, UVM_BLOCK_PAGES) : UVM_NONE;
    if (first == UVM_NONE) {
        uvm_logf(h, "uvm: no 2 MB frame for VA 0x%" PRIx64 "; left for the replay",
                 base << GMMU_PAGE_SHIFT);
        return false;
    }
    if (uvm_large_place(h, blk, first, writable, true) != 0) {
        uvm_cancel_page(h, vpn, "cannot build its page-table chain");
        return false;
    }
    return true;
}

int uvm_large_place(uvm_handler_t *h, uvm_va_block_t *blk, uint32_t first, bool writable,
                    bool charge) {
    const uint64_t base = blk->id << UVM_BLOCK_SHIFT;
    for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++)
        (void)uvm_frame_assign(h, first + p, base + p, writable); /* blk exists: cannot fail */
    /* one frame allocation: t_page_ns once; the managed part of the region as one transfer per
     * run of managed pages (the rest of the 2 MB frame is bloat: it holds no data) */
    if (charge)
        h->dev.cpu_delay(h->dev.ctx, h->cfg.t_page_ns);
    copy_managed(h, UVM_DMA_H2D, base, first);
    if (h->place->map(h, base, first, UVM_BLOCK_PAGES, writable, charge) != 0) {
        for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++)
            uvm_mem_unmake_resident(h, first + p);
        (void)uvm_pmm_free(&h->pmm, first, UVM_CHUNK_2M);
        return -1;
    }
    blk->large = true;
    h->stats.large_maps++;
    return 0;
}

void uvm_large_unmap(uvm_handler_t *h, uint64_t base) {
    const uvm_va_block_t *blk = uvm_va_block_get(h, base, false);
    if (!blk || !blk->large) {
        uvm_logf(h, "uvm: internal: unmap of VA 0x%" PRIx64 ": not a 2 MB page",
                 base << GMMU_PAGE_SHIFT);
        return;
    }
    const uint32_t first = blk->frame[0];
    uint64_t table = 0, parent = 0;
    /* 1. entry 0 invalid (the level-3 entry keeps L: the next walk faults), 2. shoot down the
     * region's large entries (a page invalidate matches large entries by region) */
    if (uvm_pt_region(h, base, &table, &parent))
        uvm_pt_write(h, table, 0);
    uvm_emit_page(h, UVM_EVENT_PAGE_UNMAPPED, base, first, UVM_BLOCK_PAGES,
                  h->frames[first].writable);
    uvm_cmd(h, GMMU_CMD_INVAL_PAGE, true, base, true);
    h->stats.invalidates++;
}

bool uvm_large_writeback(uvm_handler_t *h, uint64_t base, uint32_t first) {
    if (!h->frames[first].writable)
        return false;
    copy_managed(h, UVM_DMA_D2H, base, first); /* the managed runs of the 2 MB frame */
    return true;
}

void uvm_large_evict(uvm_handler_t *h, uvm_va_block_t *blk) {
    const uint64_t base = blk->id << UVM_BLOCK_SHIFT;
    const uint32_t first = blk->frame[0];
    /* 1. unmap and shoot down, 2. write back the 2 MB (one transfer per managed run), 3. the
     * chunk returns to the allocator */
    h->place->unmap(h, base, UVM_BLOCK_PAGES);
    const bool wb = h->place->writeback(h, base, first, UVM_BLOCK_PAGES);
    h->dev.cpu_delay(h->dev.ctx, h->cfg.t_evict_ns);
    for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++)
        if (uvm_bitmap_test(blk->resident, p)) {
            uvm_unused_evicted(h, blk->frame[p], true);
            uvm_mem_unmake_resident(h, blk->frame[p]);
        }
    blk->large = false;
    if (uvm_pmm_free(&h->pmm, first, UVM_CHUNK_2M) != 0)
        uvm_logf(h, "uvm: internal: 2 MB frame %" PRIu32 " freed twice", first);
    h->stats.large_evictions++;
    uvm_emit_evict(h, base, first, UVM_BLOCK_PAGES, wb);
}

/* The region's CoCoA frame if every managed page of blk is resident at its offset in it and
 * the region is one writability (*writable); else UVM_NONE. */
static uint32_t populated(const uvm_handler_t *h, const uvm_va_block_t *blk, bool *writable) {
    const uint64_t base = blk->id << UVM_BLOCK_SHIFT;
    if (!uvm_large_region_ok(h, base, writable))
        return UVM_NONE;
    const uint32_t first = uvm_cocoa_lookup(&h->cocoa, uvm_cocoa_xkey(base));
    if (first == UVM_NONE)
        return UVM_NONE;
    for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++) {
        if (!uvm_find_alloc(h, base + p))
            continue;
        if (!uvm_bitmap_test(blk->resident, p) || blk->frame[p] != first + p)
            return UVM_NONE;
    }
    return first;
}

void uvm_large_coalesce_full(uvm_handler_t *h, uvm_va_block_t *blk) {
    bool w = false;
    if (!blk->large && populated(h, blk, &w) != UVM_NONE) {
        const uint64_t base = blk->id << UVM_BLOCK_SHIFT;
        (void)uvm_coalesce(h, uvm_vpn_asid(base), uvm_vpn_plain(base) << GMMU_PAGE_SHIFT);
    }
}

/* The block of a 2 MB-aligned VA of address space asid, with its level-4 table and level-3
 * entry; NULL (logged) if the arguments are wrong or nothing is mapped there. */
static uvm_va_block_t *region(uvm_handler_t *h, uint32_t asid, uint64_t va_2m, const char *op,
                              uint64_t *table, uint64_t *parent) {
    /* the extended VPN of the region (docs/handler.md: address spaces) */
    const uint64_t vpn = ((uint64_t)asid << UVM_ASID_VPN_SHIFT) | (va_2m >> GMMU_PAGE_SHIFT);
    uvm_va_block_t *blk = NULL;
    if (asid >= UVM_SPACES || (va_2m & ((UINT64_C(1) << GMMU_LARGE_SHIFT) - 1u)) != 0 ||
        va_2m >= UVM_VA_LIMIT || !(blk = uvm_va_block_get(h, vpn, false)) ||
        !uvm_pt_region(h, vpn, table, parent)) {
        uvm_logf(h,
                 "uvm: %s of ASID %" PRIu32 " VA 0x%" PRIx64 " refused (not a mapped 2 MB region"
                 " of that address space)",
                 op, asid, va_2m);
        return NULL;
    }
    return blk;
}

int uvm_coalesce(uvm_handler_t *h, uint32_t asid, uint64_t va_2m) {
    uint64_t table = 0, parent = 0;
    uvm_va_block_t *blk = region(h, asid, va_2m, "coalesce", &table, &parent);
    bool w = false;
    const uint32_t first = blk && !blk->large ? populated(h, blk, &w) : UVM_NONE;
    if (first == UVM_NONE) {
        if (blk)
            uvm_logf(h,
                     "uvm: coalesce of VA 0x%" PRIx64 " refused (not fully populated in its "
                     "CoCoA frame, or already large)",
                     va_2m);
        return -1;
    }
    /* 1. D = 1 in every level-4 entry (the whole 2 MB frame, at the offsets): a walk that still
     * reads a base entry gets a correct translation that is not cached; 2. L = 1 in the level-3
     * entry: from now on walks end on entry 0 (the 2 MB frame). Each walk reads each entry once,
     * so no walk sees a mix; cached base entries stay correct (no TLB flush). */
    if (h->cfg.coalesce_by == UVM_COALESCE_BY_GMMU) {
        /* the GMMU's check wants all 512 entries valid at the frame's offsets with one W
         * (docs/microarch.md §15.3): the pages outside every allocation get theirs first, with
         * D = 1 (never cached; the large page maps them anyway), then one COALESCE */
        for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++)
            if (!uvm_bitmap_test(blk->resident, p))
                uvm_pt_write(h, table + 8u * p,
                             uvm_pt_leaf(uvm_frame_pa(h, first + p), w) | PTE_BIT(GMMU_PTE_D));
        const int st = uvm_gmmu_coalesce(h, asid, va_2m, false);
        if (st != GMMU_CO_OK) {
            uvm_logf(h, "uvm: GMMU COALESCE of VA 0x%" PRIx64 " failed (CO_ERR %d)", va_2m, st);
            return -1;
        }
    } else {
        for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++)
            uvm_pt_write(h, table + 8u * p,
                         uvm_pt_leaf(uvm_frame_pa(h, first + p), w) | PTE_BIT(GMMU_PTE_D));
        uvm_pt_write(h, parent,
                     (table & UVM_PTE_PPN_MASK) | PTE_BIT(GMMU_PTE_V) | PTE_BIT(GMMU_PTE_L));
    }
    blk->large = true;
    h->stats.coalesces++;
    return 0;
}

/* coalesce_by = gmmu: one SPLINTER command (L = 0, the flush of the region's large
 * translations, D = 0 in the 512 entries; docs/microarch.md §15). The entries of non-resident
 * pages go first, while L = 1 makes every walk end on entry 0; entry 0 itself (if its page is
 * not resident) after the command, with a page invalidate, as its D bit was cleared. */
static int gmmu_splinter(uvm_handler_t *h, uint32_t asid, uint64_t va_2m, uvm_va_block_t *blk,
                         uint64_t table) {
    for (uint32_t p = 1; p < UVM_BLOCK_PAGES; p++)
        if (!uvm_bitmap_test(blk->resident, p))
            uvm_pt_write(h, table + 8u * p, 0);
    const int st = uvm_gmmu_coalesce(h, asid, va_2m, true);
    if (st != GMMU_CO_OK) {
        uvm_logf(h, "uvm: GMMU SPLINTER of VA 0x%" PRIx64 " failed (CO_ERR %d)", va_2m, st);
        return -1;
    }
    if (!uvm_bitmap_test(blk->resident, 0)) {
        uvm_pt_write(h, table, 0);
        uvm_cmd(h, GMMU_CMD_INVAL_PAGE, true, blk->id << UVM_BLOCK_SHIFT, true);
        h->stats.invalidates++;
    }
    blk->large = false;
    h->stats.splinters++;
    return 0;
}

int uvm_splinter(uvm_handler_t *h, uint32_t asid, uint64_t va_2m) {
    uint64_t table = 0, parent = 0;
    uvm_va_block_t *blk = region(h, asid, va_2m, "splinter", &table, &parent);
    if (!blk || !blk->large || !h->place->merge) { /* a placement that merges regions */
        if (blk)
            uvm_logf(h, "uvm: splinter of VA 0x%" PRIx64 " refused (not a coalesced region)",
                     va_2m);
        return -1;
    }
    const uint64_t base = blk->id << UVM_BLOCK_SHIFT;
    if (h->cfg.coalesce_by == UVM_COALESCE_BY_GMMU)
        return gmmu_splinter(h, asid, va_2m, blk, table);
    /* 1. L = 0: new walks read the D-marked base entries (correct, not cached); 2. INVAL_PAGE of
     * the region: the page flush matches large entries by region (docs/microarch.md §4 (g),
     * §5.3, §6), so every cached large translation and every walk in flight on it goes;
     * 3. D = 0: resident pages get their base PTE back, the others none. */
    uvm_pt_write(h, parent, (table & UVM_PTE_PPN_MASK) | PTE_BIT(GMMU_PTE_V));
    uvm_cmd(h, GMMU_CMD_INVAL_PAGE, true, base, true);
    h->stats.invalidates++;
    for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++) {
        const bool res = uvm_bitmap_test(blk->resident, p);
        const uint32_t f = blk->frame[p];
        uvm_pt_write(h, table + 8u * p,
                     res ? uvm_pt_leaf(uvm_frame_pa(h, f), h->frames[f].writable) : 0);
    }
    blk->large = false;
    h->stats.splinters++;
    return 0;
}
