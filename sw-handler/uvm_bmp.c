/* uvm_bmp.c - the handler's read of the GMMU's referenced-line bitmap table (docs/microarch.md
 * §20.5, docs/handler.md §6x.2). */
#include "uvm_bmp.h"

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
