/*
 * uvm_place_2m.c - the 2m placement (docs/handler.md §6f, "Placement layer"): the first fault on
 * a 2 MB region whose managed pages are of one writability migrates the whole region into a
 * 2 MB chunk and maps it by one 2 MB PTE (uvm_large.c); such a page is evicted and freed whole.
 * Other pages (mixed writability) are placed as by 4k, except that a demand migration set never
 * takes 2 MB / 64 KB chunks: they are kept for 2 MB pages (the programmer-directed copy does).
 */
#include "uvm_place.h"

/* A 2 MB page (pages = 512 at a region base) has one 2 MB PTE; other pages 4 KB PTEs. */
static int map_2m(uvm_handler_t *h, uint64_t vpn, uint32_t frame, uint32_t pages, bool writable,
                  bool charge) {
    if (pages == UVM_BLOCK_PAGES)
        return uvm_pt_map_large_charged(h, vpn, uvm_frame_pa(h, frame), writable, charge);
    return uvm_place_map_4k(h, vpn, frame, pages, writable, charge);
}

static void unmap_2m(uvm_handler_t *h, uint64_t vpn, uint32_t pages) {
    if (pages == UVM_BLOCK_PAGES)
        uvm_large_unmap(h, vpn);
    else
        uvm_place_unmap_4k(h, vpn, pages);
}

static bool writeback_2m(uvm_handler_t *h, uint64_t vpn, uint32_t frame, uint32_t pages) {
    if (pages == UVM_BLOCK_PAGES)
        return uvm_large_writeback(h, vpn, frame);
    return uvm_place_writeback_4k(h, vpn, frame, pages);
}

const uvm_place_ops_t uvm_place_2m_ops = {
    .name = "2m",
    .alloc_page = uvm_place_pmm_frame,
    .alloc_range = uvm_place_pmm_range,
    .range_on_demand = false,
    .frames_free = uvm_place_pmm_free,
    .frame_unuse = uvm_place_keep,
    .frame_free = uvm_place_pmm_put,
    .map = map_2m,
    .unmap = unmap_2m,
    .region_whole = uvm_large_region_ok,
    .migrate_whole = uvm_large_migrate,
    .writeback = writeback_2m,
    .evict_large = uvm_large_evict,
};
