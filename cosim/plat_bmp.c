/*
 * plat_bmp.c - the platform's side of the referenced-line bitmaps (docs/microarch.md §20,
 * line_bitmap = 1): the table writes of the GMMU's memory port land in GPU memory (the table is
 * in page-table memory, where the handler reads it with gpu_read64) and are not PTE writes; the
 * lines every accepted request referenced (the truth); at the end of the run the table is checked
 * against it: a bit set in the table whose line no request of the page referenced is a platform
 * error (docs/cosim.md "Referenced-line bitmaps").
 */
#include "plat_int.h"

/* Shadow of a CSR write of the table registers (every engine sees the same write; a write the
 * device refuses for its alignment is not taken, as the device does not take it). */
void plat_bmp_csr(plat_t *p, uint32_t addr, uint32_t v) {
    plat_bmp_t *b = &p->bmp;
    if (!p->prm.line_bitmap)
        return;
    if (addr == GMMU_CSR_BMP_BASE_LO && (v & 7u) == 0)
        b->base = (b->base & ~UINT64_C(0xffffffff)) | v;
    else if (addr == GMMU_CSR_BMP_BASE_HI && (v >> (GMMU_PA_W - 32)) == 0)
        b->base = (b->base & UINT64_C(0xffffffff)) | ((uint64_t)v << 32);
    else if (addr == GMMU_CSR_BMP_PAGES)
        b->pages = v;
    else if (addr == GMMU_CSR_BMP_VPN0)
        b->vpn0 = (uint64_t)v << 4;
}

/* An accepted request of page vpn referenced line (0..31). */
void plat_bmp_line(plat_t *p, uint64_t vpn, uint8_t line) {
    uint64_t m = 0;
    (void)u64map_get(&p->bmp.lines, vpn, &m);
    const uint64_t n = m | (UINT64_C(1) << (line & 31u));
    if (n != m && u64map_put(&p->bmp.lines, vpn, n) != 0)
        plat_platform_error(p, "out of memory (referenced lines)");
}

/* A bitmap table write (§20.5: a set-bits write with the coalesce unit's id CO_MEM_ID; the
 * unit's own writes are plain writes, the walkers' set-bits writes carry a walker's id). Returns
 * 0 if o's write is not one. */
int plat_bmp_write(plat_t *p, const gmmu_out_t *o) {
    const plat_bmp_t *b = &p->bmp;
    if (!p->prm.line_bitmap || !o->mem_req_setbits || o->mem_req_id != GMMU_CO_MEM_ID)
        return 0;
    const uint64_t a = o->mem_req_addr;
    const uint64_t words = ((uint64_t)b->pages + 1u) / 2u;
    if (a < b->base || (a - b->base) / 8u >= words || (a & 7u) != 0) {
        plat_platform_error(p,
                            "bitmap table write at 0x%llx: outside the table [0x%llx, +%llu "
                            "words) programmed in BMP_BASE / BMP_PAGES",
                            (unsigned long long)a, (unsigned long long)b->base,
                            (unsigned long long)words);
        return 1;
    }
    uint64_t old = 0;
    if (gpumem_read64(&p->gm, a, &old) != 0 || gpumem_write64(&p->gm, a, old | o->mem_req_wdata)) {
        plat_platform_error(p, "bitmap table write at 0x%llx: not page-table memory",
                            (unsigned long long)a);
        return 1;
    }
    evr_add(&p->ring, p->now, EVR_PTE_WR, 0, 0, GMMU_CO_MEM_ID, a, old | o->mem_req_wdata);
    p->bmp.writes++;
    return 1;
}

/* The end of the run: every bit of the table is a line a request of the page referenced. */
void plat_bmp_finish(plat_t *p) {
    plat_bmp_t *b = &p->bmp;
    if (!p->prm.line_bitmap || b->pages == 0)
        return;
    for (uint64_t i = 0; i < b->pages; i++) {
        uint64_t w = 0, truth = 0;
        if (gpumem_read64(&p->gm, b->base + 8u * (i >> 1), &w) != 0) {
            plat_platform_error(p, "bitmap table word %llu at 0x%llx: not page-table memory",
                                (unsigned long long)(i >> 1),
                                (unsigned long long)(b->base + 8u * (i >> 1)));
            return;
        }
        const uint32_t t = (uint32_t)(w >> (32u * (i & 1u)));
        (void)u64map_get(&b->lines, b->vpn0 + i, &truth);
        b->table_lines += (uint64_t)__builtin_popcount(t);
        b->table_pages += t != 0;
        b->truth_lines += (uint64_t)__builtin_popcount((uint32_t)truth);
        b->missing += (uint64_t)__builtin_popcount((uint32_t)truth & ~t);
        if (t & ~(uint32_t)truth) {
            b->extra += (uint64_t)__builtin_popcount(t & ~(uint32_t)truth);
            plat_platform_error(p,
                                "bitmap table: page 0x%llx has lines 0x%08x set that no request "
                                "referenced (referenced 0x%08x)",
                                (unsigned long long)(b->vpn0 + i), t & ~(uint32_t)truth,
                                (uint32_t)truth);
        }
    }
}
