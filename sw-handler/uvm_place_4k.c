/*
 * uvm_place_4k.c - the 4k placement (docs/handler.md "Placement layer"): every page in a 4 KB
 * frame of the chunked allocator (uvm_pmm.c), mapped by a 4 KB PTE; a whole aligned 2 MB /
 * 64 KB group of a migration set takes one chunk of consecutive frames (one transfer). An
 * evicted page's frame is handed to the page that needed it. Also the allocator-backed
 * operations the 2m placement shares.
 */
#include <inttypes.h>

#include "uvm_place.h"

uint32_t uvm_place_pmm_frame(uvm_handler_t *h, uint64_t vpn) {
    (void)vpn;
    return uvm_pmm_alloc(&h->pmm, UVM_CHUNK_4K);
}

uint32_t uvm_place_pmm_range(uvm_handler_t *h, uint64_t vpn, uint32_t pages) {
    (void)vpn;
    return uvm_pmm_alloc(&h->pmm, pages == UVM_BLOCK_PAGES ? UVM_CHUNK_2M : UVM_CHUNK_64K);
}

uint64_t uvm_place_pmm_free(const uvm_handler_t *h, uint32_t asid) {
    (void)asid;
    return h->pmm.nfree;
}

/* frame_unuse: the caller keeps the frame (hands it over or frees it). */
bool uvm_place_keep(uvm_handler_t *h, uint32_t f) {
    (void)h;
    (void)f;
    return false;
}

void uvm_place_pmm_put(uvm_handler_t *h, uint32_t f) {
    if (uvm_pmm_free(&h->pmm, f, UVM_CHUNK_4K) != 0)
        uvm_logf(h, "uvm: internal: frame %" PRIu32 " released twice", f);
}

/* ---- map, unmap, write back of 4 KB pages (every placement's, 2m's outside 2 MB pages) ---- */

int uvm_place_map_4k(uvm_handler_t *h, uint64_t vpn, uint32_t frame, uint32_t pages, bool writable,
                     bool charge) {
    for (uint32_t i = 0; i < pages; i++)
        if (uvm_pt_map_charged(h, vpn + i, uvm_frame_pa(h, frame + i), writable, charge) != 0)
            return -1;
    return 0;
}

/* Per page: 1. the PTE cleared, 2. the GPU TLBs shot down, waited for. */
void uvm_place_unmap_4k(uvm_handler_t *h, uint64_t vpn, uint32_t pages) {
    for (uint32_t i = 0; i < pages; i++) {
        uvm_pt_unmap(h, vpn + i);
        uvm_cmd(h, GMMU_CMD_INVAL_PAGE, true, vpn + i, true);
        h->stats.invalidates++;
    }
}

/* The leaf rewritten in place, then INVAL_PAGE (a read duplicate collapsed on a GPU write). */
static int uvm_place_protect_4k(uvm_handler_t *h, uint64_t vpn, uint32_t frame, bool writable) {
    if (uvm_pt_map_charged(h, vpn, uvm_frame_pa(h, frame), writable, true) != 0)
        return -1;
    uvm_cmd(h, GMMU_CMD_INVAL_PAGE, true, vpn, true);
    h->stats.invalidates++;
    return 0;
}

/* A writable page may be dirty: one D2H transfer, waited for. writeback = dirty (§6r): only if
 * the leaf's DRT was set when it was unmapped (uvm_pt_unmap); a clean page's bytes are saved. */
bool uvm_place_writeback_4k(uvm_handler_t *h, uint64_t vpn, uint32_t frame, uint32_t pages) {
    if (!h->frames[frame].writable)
        return false;
    if (h->cfg.writeback_dirty && pages == 1u && !h->frames[frame].dirty) {
        h->stats.wb_clean_pages++;
        h->stats.wb_bytes_saved += UVM_PAGE_BYTES;
        return false;
    }
    const uint64_t d = h->dev.dma_submit(h->dev.ctx, UVM_DMA_D2H, uvm_frame_pa(h, frame),
                                         vpn << GMMU_PAGE_SHIFT, (uint64_t)pages * UVM_PAGE_BYTES);
    uvm_emit_migrate(h, UVM_EVENT_MIGRATE, UVM_DMA_D2H, vpn, frame, pages, d);
    h->dev.dma_wait(h->dev.ctx, d);
    uvm_emit_migrate(h, UVM_EVENT_MIGRATE_DONE, UVM_DMA_D2H, vpn, frame, pages, d);
    return true;
}

const uvm_place_ops_t uvm_place_4k_ops = {
    .name = "4k",
    .alloc_page = uvm_place_pmm_frame,
    .alloc_range = uvm_place_pmm_range,
    .range_on_demand = true,
    .frames_free = uvm_place_pmm_free,
    .frame_unuse = uvm_place_keep,
    .frame_free = uvm_place_pmm_put,
    .map = uvm_place_map_4k,
    .unmap = uvm_place_unmap_4k,
    .protect = uvm_place_protect_4k,
    .writeback = uvm_place_writeback_4k,
};
