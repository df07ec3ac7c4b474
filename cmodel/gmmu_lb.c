/* gmmu_lb.c - the top level's part of the referenced-line bitmaps (docs/microarch.md §20): the
 * BMP_FLUSH scanner's visit, the L1s' departures, the queue's head offered to the walker's
 * request register and the write-back queue's edge (cmodel/bmp.c, cmodel/l1_bmp.c). */
#include "gmmu_priv.h"

/* §20.4: the entry the BMP_FLUSH scanner visits this cycle (from _q: scanning, a slot of _q
 * free), as sm * L1Entries + entry, with its page and bitmap; -1 if none. */
int gmmu_bmp_scan_pick(const gmmu_model_t *m, bmp_dep_t *scan) {
    const bmp_t *b = &m->bmp;
    if (!m->p.line_bitmap || !b->bs_busy || b->bs_idx >= b->n_scan || b->count >= GMMU_BMP_Q)
        return -1;
    const l1_t *l = &m->l1[b->bs_idx / m->p.l1_entries];
    const uint32_t e = b->bs_idx % m->p.l1_entries;
    if (l->base.valid[e])
        *scan = (bmp_dep_t){gmmu_base_tag_unpack(l->base.tag[e]).vpn, l->bmp[e]};
    return (int)b->bs_idx;
}

/* One L1's edge; with the bitmaps its fill eviction goes to m->bdep[*n_dep] (SM order) and its
 * flush departures after every SM's eviction slot (m->bdep[S ..], compacted by step_bmp). */
int gmmu_step_l1(gmmu_model_t *m, uint32_t s, const l1_comb_t *c, const l1_in_t *li,
                 const uint8_t *req_line, int scan_idx, uint32_t *n_dep) {
    if (!m->p.line_bitmap)
        return l1_step(&m->l1[s], c, li, &m->viol);
    const uint32_t E = m->p.l1_entries;
    const l1_lb_in_t lb = {req_line,
                           scan_idx >= 0 && (uint32_t)scan_idx / E == s ? (int)(scan_idx % E) : -1};
    l1_lb_out_t lo = {0, {0, 0}, 0, &m->bdep[m->p.num_sm + s * E]};
    const int r = l1_step_lb(&m->l1[s], c, li, &lb, &lo, &m->viol);
    if (lo.evict)
        m->bdep[(*n_dep)++] = lo.ev;
    m->bflush[s] = lo.n_flush;
    return r;
}

/* The bitmap queue's head (_q) offered to the walker's request register (§20.5). */
void gmmu_bmp_head(const gmmu_model_t *m, ptw_in_t *pi) {
    const bmp_t *b = &m->bmp;
    if (!m->p.line_bitmap || b->count == 0)
        return;
    const bmp_dep_t h = b->q[b->head];
    const uint64_t i = h.vpn - ((uint64_t)m->csr.bmp_vpn0 << 4);
    pi->bmp_valid = 1;
    pi->bmp_addr = bmp_word_addr(m->csr.bmp_base, i);
    pi->bmp_hi = (uint8_t)(i & 1u);
    pi->bmp_dat = h.bmp;
}

/* The write-back queue and scanner's edge (§20.4, §20.5); returns its events. */
uint32_t gmmu_step_bmp(gmmu_model_t *m, const csr_t *cq, const bmp_dep_t *scan, int scan_idx,
                       uint32_t n_ev, uint8_t taken, uint8_t mr_bmp_q, uint8_t start) {
    if (!m->p.line_bitmap)
        return 0;
    uint32_t n = n_ev; /* the flushes' departures after the evictions, (SM, entry) order */
    for (uint32_t s = 0; s < m->p.num_sm; s++)
        for (uint32_t k = 0; k < m->bflush[s]; k++)
            m->bdep[n++] = m->bdep[m->p.num_sm + s * m->p.l1_entries + k];
    const bmp_in_t bi = {cq->bmp_base,
                         cq->bmp_pages,
                         (uint64_t)cq->bmp_vpn0 << 4,
                         m->bdep,
                         n,
                         scan_idx >= 0 ? scan->bmp : 0u,
                         scan->vpn,
                         taken,
                         mr_bmp_q,
                         start};
    bmp_out_t bo;
    bmp_step(&m->bmp, &bi, &bo);
    if (bo.load != taken)
        gmmu_viol(&m->viol, "bmp: the queue's load (%u) and the request register's (%u) differ",
                  bo.load, taken);
    m->bmp_lost += bo.lost;
    return (bo.load ? 1u << GMMU_EV_BMP_WB : 0u) | (bo.lost ? 1u << GMMU_EV_BMP_LOST : 0u);
}
