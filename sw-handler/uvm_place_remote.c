/*
 * uvm_place_remote.c - the placement kind `remote` (docs/handler.md §6l, issue 21 item 1): a
 * managed page mapped on its pinned host copy with the system-memory aperture (PTE APER,
 * docs/microarch.md §17). No GPU frame and no copy: the GPU's loads and stores to the page go
 * over PCIe to the host copy, which stays the only copy.
 *
 * Per page, not per handler (the plan of §6h): a VA block's `remote` bitmap, beside `resident`;
 * a page is remote, resident, or neither. A remote page is never an eviction victim (it has no
 * frame); it stops being remote by uvm_remote_unmap (PTE cleared, INVAL_PAGE waited for: after
 * it no walk or TLB entry reaches the host copy), by a free of its allocation, or when it gets a
 * GPU frame (uvm_frame_assign calls uvm_remote_leave before the copy: every migration path,
 * demand, prefetch, 2 MB page, populate, goes through it), which is how a remote page migrates to
 * the GPU: the driver's unmap of the remote mapping, then the normal migration (H2D copy of the
 * host copy, local PTE). Nothing is written back: the data never left the host.
 *
 * This file is the mechanics, below the residency code (uvm_mem.c calls uvm_remote_leave); the
 * migration of a remote page and the policies are uvm_remote.c, above the migration.
 */
#include <inttypes.h>

#include "uvm_lazypg.h"
#include "uvm_place.h"

bool uvm_remote_is(const uvm_handler_t *h, uint64_t vpn) {
    uint64_t v = 0;
    if (!u64map_get(&h->blocks, vpn >> UVM_BLOCK_SHIFT, &v))
        return false;
    const uvm_va_block_t *blk = (const uvm_va_block_t *)(uintptr_t)v;
    return uvm_bitmap_test(blk->remote, uvm_block_page(vpn));
}

int64_t uvm_remote_map(uvm_handler_t *h, uint64_t vpn, uint32_t pages, bool charge) {
    int64_t n = 0;
    for (uint32_t i = 0; i < pages; i++) {
        const uint64_t v = vpn + i;
        const uvm_alloc_t *al = uvm_find_alloc(h, v);
        if (!al || uvm_remote_is(h, v) || uvm_va_block_resident(h, v, NULL))
            continue; /* unmanaged, already remote, or on the GPU (mapped locally) */
        uvm_va_block_t *blk = uvm_va_block_get(h, v, true);
        if (!blk) {
            uvm_logf(h, "uvm: out of memory mapping VA 0x%" PRIx64 " remotely",
                     v << GMMU_PAGE_SHIFT);
            return -1;
        }
        if (uvm_pt_map_remote(h, v, !al->readonly, charge) != 0)
            return -1;
        uvm_bitmap_set(blk->remote, uvm_block_page(v));
        h->stats.remote_maps++;
        n++;
    }
    return n;
}

/* Page vpn of blk is remote: 1. its PTE cleared, 2. the GPU TLBs shot down, waited for. */
static void unmap_page(uvm_handler_t *h, uvm_va_block_t *blk, uint64_t vpn) {
    uvm_pt_unmap_remote(h, vpn);
    uvm_cmd(h, GMMU_CMD_INVAL_PAGE, true, vpn, true);
    h->stats.invalidates++;
    h->stats.remote_unmaps++;
    uvm_bitmap_clear(blk->remote, uvm_block_page(vpn));
}

uint32_t uvm_remote_unmap(uvm_handler_t *h, uint64_t vpn, uint32_t pages) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < pages; i++) {
        uvm_va_block_t *blk = uvm_va_block_get(h, vpn + i, false);
        if (blk && uvm_bitmap_test(blk->remote, uvm_block_page(vpn + i))) {
            unmap_page(h, blk, vpn + i);
            n++;
        }
    }
    return n;
}

void uvm_remote_leave(uvm_handler_t *h, uvm_va_block_t *blk, uint64_t vpn) {
    if (!uvm_bitmap_test(blk->remote, uvm_block_page(vpn)))
        return;
    unmap_page(h, blk, vpn);
    h->stats.remote_to_gpu++;
}

/* ---- §6l.2: which pages a fault maps remotely instead of migrating ---- */

bool uvm_remote_wanted(const uvm_handler_t *h, uint64_t vpn) {
    if (!uvm_find_alloc(h, vpn))
        return false;
    if (uvm_remote_first_touch(h->cfg.remote_policy))
        return true;
    if (uvm_dyn_wants_remote(h, vpn) || uvm_lazy_wants_remote(h, vpn))
        return true;
    uint64_t v = 0;
    if (!u64map_get(&h->blocks, vpn >> UVM_BLOCK_SHIFT, &v))
        return false;
    const uvm_va_block_t *blk = (const uvm_va_block_t *)(uintptr_t)v;
    const uint32_t p = uvm_block_page(vpn);
    return uvm_bitmap_test(blk->accessed_by, p) || uvm_bitmap_test(blk->pref_host, p);
}

void uvm_remote_wanted_mask(const uvm_handler_t *h, const uvm_va_block_t *blk,
                            uint64_t out[UVM_BLOCK_WORDS]) {
    for (uint32_t w = 0; w < UVM_BLOCK_WORDS; w++)
        out[w] = uvm_remote_first_touch(h->cfg.remote_policy)
                     ? UINT64_MAX
                     : blk->remote[w] | blk->accessed_by[w] | blk->pref_host[w];
    if (uvm_lazy_wants_remote(h, blk->id << UVM_BLOCK_SHIFT)) /* §6x.4: every page, as pin_host */
        for (uint32_t w = 0; w < UVM_BLOCK_WORDS; w++)
            out[w] = UINT64_MAX;
    if (!h->dyn)
        return;
    for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++) /* §6x: evicted pages the decision keeps away */
        if (uvm_dyn_wants_remote(h, (blk->id << UVM_BLOCK_SHIFT) + p))
            out[p / 64u] |= UINT64_C(1) << (p % 64u);
}
