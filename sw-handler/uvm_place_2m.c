/*
 * uvm_place_2m.c - the 2m placement (docs/handler.md §6f, "Placement layer"): the first fault on
 * a 2 MB region whose managed pages are of one writability migrates the whole region into a
 * 2 MB chunk and maps it by one 2 MB PTE (uvm_large.c); such a page is evicted and freed whole.
 * Other pages (mixed writability) are placed as by 4k, except that a demand migration set never
 * takes 2 MB / 64 KB chunks: they are kept for 2 MB pages (the programmer-directed copy does).
 */
#include "uvm_place.h"

static bool evict_whole(uvm_handler_t *h, uvm_va_block_t *blk) {
    uvm_large_evict(h, blk);
    return true;
}

const uvm_place_ops_t uvm_place_2m_ops = {
    .name = "2m",
    .alloc_page = uvm_place_pmm_frame,
    .alloc_range = uvm_place_pmm_range,
    .range_on_demand = false,
    .frames_free = uvm_place_pmm_free,
    .frame_unuse = uvm_place_keep,
    .frame_free = uvm_place_pmm_put,
    .region_whole = uvm_large_region_ok,
    .evict_large = evict_whole,
};
