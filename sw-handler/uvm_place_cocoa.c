/*
 * uvm_place_cocoa.c - the CoCoA placements (docs/handler.md §6f, "Placement layer"), after
 * Mosaic's Contiguity-Conserving Allocation: a page goes to the frame at its offset in the 2 MB
 * frame its region reserved (uvm_cocoa.c), else (no free 2 MB frame, or the offset is taken by a
 * borrowed page) to an unused frame of another 2 MB frame of its address space, else to any free
 * 4 KB frame (a fallback). A frame goes back to its owner when its page leaves: its 2 MB frame
 * (which returns to the allocator with its last page) or the allocator.
 *
 * cocoa (page_size cocoa) also merges: a region fully populated at its offsets is coalesced into
 * one 2 MB page once its pages are mapped, and splintered before one of its pages is evicted or
 * freed; a free compacts the address space's sparse 2 MB frames (uvm_compact.c).
 * cocoa-frames (frame_alloc cocoa, page_size 4k) places the same way and never merges; it is
 * its own table (not a flag of cocoa) so that no operation asks which of the two it is.
 */
#include <inttypes.h>

#include "uvm_place.h"

/* CoCoA fallback: an unused frame of a 2 MB frame owned by the same address space (the lowest).
 * The borrowed page keeps that region from coalescing until it leaves. Never a frame of a
 * coalesced region: its 2 MB page (and its D-marked base entries) map every frame of the chunk,
 * the unused ones as the region's bloat, so a borrowed one would be reachable through two VAs. */
static uint32_t cocoa_borrow(uvm_handler_t *h, uint32_t asid) {
    const uvm_cocoa_t *c = &h->cocoa;
    for (uint32_t k = 0; k < c->nchunks; k++) {
        if (c->owner[k] == UVM_COCOA_NONE || (c->owner[k] >> 40) != asid ||
            c->used[k] >= UVM_BLOCK_PAGES)
            continue;
        const uint64_t region = c->owner[k] & ((UINT64_C(1) << 40) - 1u);
        const uvm_va_block_t *blk = uvm_va_block_get(
            h, (uint64_t)asid << UVM_ASID_VPN_SHIFT | region << UVM_BLOCK_SHIFT, false);
        if (blk && blk->large)
            continue;
        for (uint32_t i = 0; i < UVM_BLOCK_PAGES; i++)
            if (!h->frames[k * UVM_BLOCK_PAGES + i].resident)
                return k * UVM_BLOCK_PAGES + i;
    }
    return UVM_NONE;
}

/* The frame at vpn's offset in its region's 2 MB frame (reserving a free one), else a fallback
 * (counted); UVM_NONE if neither (never evicts). */
static uint32_t cocoa_frame(uvm_handler_t *h, uint64_t vpn) {
    const uint32_t first = uvm_cocoa_chunk(&h->cocoa, &h->pmm, uvm_cocoa_xkey(vpn));
    if (first != UVM_NONE && !h->frames[first + uvm_block_page(vpn)].resident)
        return first + uvm_block_page(vpn);
    uint32_t f = cocoa_borrow(h, uvm_vpn_asid(vpn));
    if (f == UVM_NONE)
        f = uvm_pmm_alloc(&h->pmm, UVM_CHUNK_4K);
    if (f != UVM_NONE)
        h->stats.cocoa_fallbacks++;
    return f;
}

/* The allocator's free frames, and the unused frames of the 2 MB frames reserved by address
 * space asid (its regions' own offsets, or borrowed): a region's reservation takes 512 free
 * frames out of the allocator. */
static uint64_t cocoa_frames_free(const uvm_handler_t *h, uint32_t asid) {
    uint64_t n = h->pmm.nfree;
    const uvm_cocoa_t *c = &h->cocoa;
    for (uint32_t k = 0; k < c->nchunks; k++)
        if (c->owner[k] != UVM_COCOA_NONE && (c->owner[k] >> 40) == asid)
            n += UVM_BLOCK_PAGES - c->used[k];
    return n;
}

static void cocoa_use(uvm_handler_t *h, uint32_t f) {
    uvm_cocoa_use(&h->cocoa, f);
}

/* The frame returns to its 2 MB frame (which returns to the allocator with its last page) or to
 * the allocator (a 4 KB fallback frame outside every 2 MB frame). */
static bool cocoa_unuse(uvm_handler_t *h, uint32_t f) {
    if (uvm_cocoa_reserved(&h->cocoa, f))
        uvm_cocoa_unuse(&h->cocoa, &h->pmm, f);
    else if (uvm_pmm_free(&h->pmm, f, UVM_CHUNK_4K) != 0)
        uvm_logf(h, "uvm: internal: frame %" PRIu32 " freed twice", f);
    return true;
}

static void cocoa_free(uvm_handler_t *h, uint32_t f) {
    if (uvm_cocoa_reserved(&h->cocoa, f)) {
        uvm_cocoa_use(&h->cocoa, f); /* never used: drop an empty reservation */
        uvm_cocoa_unuse(&h->cocoa, &h->pmm, f);
    } else if (uvm_pmm_free(&h->pmm, f, UVM_CHUNK_4K) != 0) {
        uvm_logf(h, "uvm: internal: frame %" PRIu32 " released twice", f);
    }
}

/* A coalesced region is splintered (before a page of it is evicted, freed or compacted, §6f):
 * host-side or by the GMMU's SPLINTER (coalesce_by). */
static int cocoa_split(uvm_handler_t *h, uvm_va_block_t *blk) {
    const uint64_t base = blk->id << UVM_BLOCK_SHIFT;
    return uvm_splinter(h, uvm_vpn_asid(base), uvm_vpn_plain(base) << GMMU_PAGE_SHIFT);
}

/* The two CoCoA placements share every operation; cocoa-frames has no merge (a region
 * coalesced through uvm_coalesce is refused by its split: logged). */
#define COCOA_OPS(kind, merge_op)                                                                  \
    {                                                                                              \
        .name = (kind), .init = uvm_compact_init, .alloc_page = cocoa_frame,                       \
        .frames_free = cocoa_frames_free, .frame_use = cocoa_use, .frame_unuse = cocoa_unuse,      \
        .frame_free = cocoa_free, .map = uvm_place_map_4k, .unmap = uvm_place_unmap_4k,            \
        .merge = (merge_op), .split = cocoa_split, .writeback = uvm_place_writeback_4k,            \
        .freed = uvm_compact,                                                                      \
    }

const uvm_place_ops_t uvm_place_cocoa_ops = COCOA_OPS("cocoa", uvm_large_coalesce_full);
const uvm_place_ops_t uvm_place_cocoa_frames_ops = COCOA_OPS("cocoa-frames", NULL);
