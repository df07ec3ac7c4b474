/* l1_bmp.c - the L1 halves of the referenced-line bitmaps (docs/microarch.md §20.3, §20.4):
 * accumulation on hits and fills, departure on a fill's eviction and on a flush. */
#include "l1_tlb.h"
#include "tlb_rec.h"

void l1_bmp_hits(l1_t *l, const l1_lb_in_t *lb, const uint8_t *acc, const uint8_t *hk_base,
                 const uint32_t *hidx) {
    if (lb->scan_e >= 0) /* the scanner took bmp_q: the entry keeps this cycle's hits only */
        l->bmp[lb->scan_e] = 0;
    for (uint32_t p = 0; p < l->n_ports; p++)
        if (acc[p] && hk_base[p])
            l->bmp[hidx[p]] |= UINT32_C(1) << (lb->req_line[p] & 31u);
}

uint32_t l1_bmp_fill_lines(const l1_t *l, const gmmu_rsp_t *r) {
    uint32_t fb = 0;
    if (r->r.nack || r->r.nocache || r->r.is_large)
        return 0;
    for (uint64_t m = l->req.m_wait | l->req.m_infl; m; m &= m - 1u) {
        const uint32_t i = gmmu_ctz64(m);
        const l1_req_entry_t *e = &l->req.ent[i];
        if (e->vpn == r->r.req.vpn && e->write == r->r.req.write && e->asid == r->r.req.asid)
            fb |= UINT32_C(1) << l->line[i];
    }
    return fb;
}

void l1_bmp_fill(l1_t *l, uint32_t idx, uint64_t tag, uint32_t fb, l1_lb_out_t *lo) {
    if (l->base.valid[idx] && l->base.tag[idx] == tag) { /* same tag: the bitmap is kept */
        l->bmp[idx] |= fb;
        return;
    }
    if (l->base.valid[idx] && l->bmp[idx] != 0) {
        lo->evict = 1;
        lo->ev = (bmp_dep_t){gmmu_base_tag_unpack(l->base.tag[idx]).vpn, l->bmp[idx]};
    }
    l->bmp[idx] = fb;
}

void l1_bmp_flush(l1_t *l, const gmmu_flush_t *fl, l1_lb_out_t *lo) {
    const int all = fl->kind == GMMU_FLUSH_ALL && !fl->scope;
    const uint64_t mask = tlb_base_flush_mask(fl->kind == GMMU_FLUSH_PAGE, fl->scope);
    const uint64_t ftag = tlb_base_tag(fl->asid, fl->vpn);
    for (uint32_t i = 0; i < l->n_base; i++) {
        if (!l->base.valid[i] || (!all && (l->base.tag[i] & mask) != (ftag & mask)))
            continue;
        if (l->bmp[i] != 0)
            lo->flush[lo->n_flush++] =
                (bmp_dep_t){gmmu_base_tag_unpack(l->base.tag[i]).vpn, l->bmp[i]};
        l->bmp[i] = 0;
    }
}
