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

const uvm_place_ops_t uvm_place_4k_ops = {
    .name = "4k",
    .alloc_page = uvm_place_pmm_frame,
    .alloc_range = uvm_place_pmm_range,
    .range_on_demand = true,
    .frames_free = uvm_place_pmm_free,
    .frame_unuse = uvm_place_keep,
    .frame_free = uvm_place_pmm_put,
};
