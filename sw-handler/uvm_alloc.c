/*
 * uvm_alloc.c - the lookup of the managed allocations (kept sorted by base by
 * uvm_handler_add_alloc): which allocation a page belongs to. Calls nothing of the handler.
 */
#include "uvm_priv.h"

/* The allocation intersecting page vpn (the highest one if an unaligned pair shares it). */
const uvm_alloc_t *uvm_find_alloc(const uvm_handler_t *h, uint64_t vpn) {
    const uint64_t lo = vpn << GMMU_PAGE_SHIFT;
    const uint64_t hi = lo + UVM_PAGE_BYTES; /* exclusive */
    /* last allocation with base < hi */
    size_t a = 0, b = h->nallocs;
    while (a < b) {
        const size_t mid = a + (b - a) / 2;
        if (h->allocs[mid].base < hi)
            a = mid + 1;
        else
            b = mid;
    }
    if (a == 0)
        return NULL;
    const uvm_alloc_t *al = &h->allocs[a - 1];
    return (al->base + al->size > lo) ? al : NULL;
}
