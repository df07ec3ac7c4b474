/* uvm_bmp.c - the handler's read of the GMMU's referenced-line bitmap table (docs/microarch.md
 * §20.5, docs/handler.md §6x.2). */
#include "uvm_bmp.h"

#include <inttypes.h>

#include "err.h"

#include "uvm_priv.h"

/* the table index of vpn, or false if the page has no word */
static bool bmp_index(const uvm_handler_t *h, uint64_t vpn, uint64_t *i) {
    if (h->bmp_pages == 0 || vpn < h->bmp_vpn0 || vpn - h->bmp_vpn0 >= h->bmp_pages)
        return false;
    *i = vpn - h->bmp_vpn0;
    return true;
}

bool uvm_bmp_table_set(uvm_handler_t *h, uint64_t base, uint64_t vpn0, uint32_t pages) {
    if ((base & 7u) != 0 || (vpn0 & 15u) != 0)
        return false;
    h->bmp_base = base;
    h->bmp_vpn0 = vpn0;
    h->bmp_pages = pages;
    return true;
}

bool uvm_bmp_has(const uvm_handler_t *h, uint64_t vpn) {
    uint64_t i;
    return bmp_index(h, vpn, &i);
}

uint32_t uvm_bmp_read(const uvm_handler_t *h, uint64_t vpn) {
    uint64_t i;
    if (!bmp_index(h, vpn, &i))
        return 0;
    const uint64_t w = h->dev.gpu_read64(h->dev.ctx, h->bmp_base + 8u * (i >> 1));
    return (uint32_t)(w >> (32u * (i & 1u)));
}

bool uvm_bmp_clear(uvm_handler_t *h, uint64_t vpn) {
    uint64_t i;
    if (!bmp_index(h, vpn, &i))
        return false;
    const uint64_t pa = h->bmp_base + 8u * (i >> 1);
    const uint64_t keep = (i & 1u) ? UINT64_C(0x00000000ffffffff) : UINT64_C(0xffffffff00000000);
    h->dev.gpu_write64(h->dev.ctx, pa, h->dev.gpu_read64(h->dev.ctx, pa) & keep);
    return true;
}

int uvm_bmp_init_device(uvm_handler_t *h, char *err, size_t errlen) {
    const uint32_t max = h->cfg.bmp_window_pages;
    if (max == 0)
        return 0;
    /* the window: the pages of address space 0's allocations declared so far (one table per
     * GMMU, indexed by the VPN: line_bitmap = 1 has one address space, docs/microarch.md §20.5) */
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < h->nallocs; i++) {
        const uvm_alloc_t *a = &h->allocs[i];
        if ((a->base >> GMMU_VA_W) != 0)
            continue;
        lo = a->base / UVM_PAGE_BYTES < lo ? a->base / UVM_PAGE_BYTES : lo;
        hi = (a->base + a->size + UVM_PAGE_BYTES - 1u) / UVM_PAGE_BYTES > hi
                 ? (a->base + a->size + UVM_PAGE_BYTES - 1u) / UVM_PAGE_BYTES
                 : hi;
    }
    if (lo == UINT64_MAX)
        lo = hi = 0;
    const uint64_t vpn0 = lo & ~UINT64_C(15);
    const uint32_t pages = hi - vpn0 < max ? (uint32_t)(hi - vpn0) : max;
    /* 4 bytes per page: whole page-table pages of the pool (zeroed by uvm_pt_alloc), contiguous
     * (the pool is bump-allocated) */
    const uint32_t tpages = (pages * 4u + UVM_PAGE_BYTES - 1u) / UVM_PAGE_BYTES;
    uint64_t base = 0;
    for (uint32_t k = 0; k < tpages; k++) {
        uint64_t pa = 0;
        if (!uvm_pt_alloc(h, &pa)) {
            err_setf(err, errlen,
                     "uvm: no page-table page for the referenced-line bitmap table (%" PRIu32
                     " pages for %" PRIu32 " pages of VA, bmp_window_pages; docs/handler.md "
                     "§6x.2)",
                     tpages, pages);
            return -1;
        }
        if (k == 0)
            base = pa;
    }
    if (!uvm_bmp_table_set(h, base, vpn0, pages)) {
        err_setf(err, errlen, "uvm: bitmap table at 0x%" PRIx64 " / vpn0 0x%" PRIx64 " misaligned",
                 base, vpn0);
        return -1;
    }
    uvm_csr_wr(h, GMMU_CSR_BMP_BASE_LO, (uint32_t)(base & UINT32_MAX));
    uvm_csr_wr(h, GMMU_CSR_BMP_BASE_HI, (uint32_t)(base >> 32));
    uvm_csr_wr(h, GMMU_CSR_BMP_VPN0, (uint32_t)(vpn0 >> 4));
    uvm_csr_wr(h, GMMU_CSR_BMP_PAGES, pages);
    return 0;
}
