/* l1_tlb.c - per-SM L1 TLB (RTL gmmu_l1_tlb, docs/microarch.md §4). */
#include "l1_tlb.h"

#include "tlb_rec.h"

#include <stdlib.h>
#include <string.h>

int l1_init(l1_t *l, uint32_t sm, const gmmu_params_t *p) {
    memset(l, 0, sizeof(*l));
    l->sm = sm;
    l->n_ports = p->num_ports;
    l->n_base = p->l1_entries;
    l->n_large = p->l1_large_entries;
    l->n_req = p->l1_req_entries;
    l->asid_mask = (uint8_t)(p->num_asids - 1u);
    l->lbm = p->line_bitmap ? 1u : 0u;
    l->b_sets = p->l1_sets;
    l1_req_init(&l->req, l->n_req);
    /* §1.4: a set-associative base array (checked by gmmu_model_new: l1_sets <= l1_entries,
       line_bitmap = 0); the fully associative one stays in `base` (its index, docs/sweep.md) */
    const int base_err = l->b_sets > 1u
                             ? tlb_sa_init(&l->bsa, l->b_sets, l->n_base / l->b_sets)
                             : (tlb_fa_init(&l->base, l->n_base) || tlb_fa_index(&l->base));
    if (base_err || tlb_fa_init(&l->large, l->n_large) || tlb_fa_index(&l->large) ||
        (p->line_bitmap && !(l->bmp = calloc(l->n_base, sizeof(*l->bmp))))) {
        l1_free(l);
        return -1;
    }
    return 0;
}

void l1_free(l1_t *l) {
    free(l->bmp);
    l->bmp = NULL;
    tlb_fa_free(&l->base);
    if (l->b_sets > 1u)
        tlb_sa_free(&l->bsa);
    tlb_fa_free(&l->large);
}

/* The base array's entries that a tag of `vpn` can occupy: the whole fully associative array,
 * or the set view of §1.4; *off = the index of its entry 0 in the array (set * ways). */
static const tlb_fa_t *l1_bview_c(const l1_t *l, uint64_t vpn, uint32_t *off) {
    if (l->b_sets <= 1u) {
        *off = 0;
        return &l->base;
    }
    const uint32_t set = (uint32_t)(vpn & (l->b_sets - 1u));
    *off = set * l->bsa.ways;
    return tlb_sa_set_c(&l->bsa, set);
}
/* The same, writable (the fill): the view points into l's own storage. */
static tlb_fa_t *l1_bview(l1_t *l, uint64_t vpn, uint32_t *off) {
    return (tlb_fa_t *)l1_bview_c(l, vpn, off);
}

void l1_comb(const l1_t *l, uint8_t cmd_cycle, l1_comb_t *c) {
    l1_req_comb_t t;
    l1_req_comb(&l->req, l->n_ports, cmd_cycle, &t);
    c->ready = t.ready;
    c->out = t.out;
    c->send = t.send;
    c->req_valid = c->send >= 0;
    c->req.vpn = c->send >= 0 ? l->req.ent[c->send].vpn : 0;
    c->req.write = c->send >= 0 ? l->req.ent[c->send].write : 0;
    c->req.asid = c->send >= 0 ? l->req.ent[c->send].asid : 0;
}

void l1_outputs(const l1_t *l, const l1_comb_t *c, gmmu_out_t *out) {
    const uint32_t s = l->sm;
    out->req_ready[s] = c->ready;
    for (uint32_t p = 0; p < l->n_ports; p++) {
        out->hit_valid[s][p] = l->hv[p];
        out->hit_id[s][p] = l->hid[p];
        out->hit_ppn[s][p] = l->hppn[p];
        out->hit_sys[s][p] = l->hsys[p];
    }
    if (c->out >= 0) {
        out->miss_valid[s] = 1;
        const l1_req_entry_t *e = &l->req.ent[c->out];
        out->miss_id[s] = e->id;
        out->miss_ppn[s] = e->ppn;
        out->miss_fatal[s] = e->fatal;
        out->miss_sys[s] = e->sys;
    } else {
        out->miss_valid[s] = 0;
        out->miss_id[s] = 0;
        out->miss_ppn[s] = 0;
        out->miss_fatal[s] = 0;
        out->miss_sys[s] = 0;
    }
}

int l1_busy(const l1_t *l) {
    if (l1_req_busy(&l->req))
        return 1;
    for (uint32_t p = 0; p < l->n_ports; p++)
        if (l->hv[p])
            return 1;
    return 0;
}

int l1_quiet(const l1_t *l) {
    if (l->req.m_done)
        return 0;
    for (uint32_t p = 0; p < l->n_ports; p++)
        if (l->hv[p])
            return 0;
    return 1;
}

enum { HIT_NONE = 0, HIT_BASE = 1, HIT_LARGE = 2 };

/* The lookups of one cycle (accepted ports, on the _q arrays). */
typedef struct {
    uint8_t acc[GMMU_MAX_PORTS], hk[GMMU_MAX_PORTS], hsys[GMMU_MAX_PORTS];
    uint32_t hidx[GMMU_MAX_PORTS];
    uint64_t hppn[GMMU_MAX_PORTS];
} l1_lookup_t;

/* Lookups of the accepted ports, on _q arrays: FA-1 in both arrays, the base hit wins. */
static void l1_lookups(const l1_t *l, const l1_comb_t *c, const l1_in_t *in, gmmu_viol_t *v,
                       l1_lookup_t *lk) {
    for (uint32_t p = 0; p < l->n_ports; p++) {
        lk->acc[p] = c->ready && in->req_valid[p];
        lk->hk[p] = HIT_NONE;
        lk->hidx[p] = 0;
        lk->hppn[p] = 0;
        lk->hsys[p] = 0;
        if (!lk->acc[p])
            continue;
        const uint64_t vpn = in->req_vpn[p] & GMMU_VPN_MASK;
        const uint8_t asid = in->req_asid[p] & l->asid_mask;
        const uint8_t wr = in->req_write[p] ? 1u : 0u;
        unsigned nb = 0, ng = 0;
        uint32_t bi = 0, gi = 0;
        /* FA-1 (AS-1 in the vpn's set, §1.4) in both arrays; base hit wins */
        uint32_t boff = 0;
        const tlb_fa_t *bv = l1_bview_c(l, vpn, &boff);
        const int bh = tlb_fa_lookup(bv, tlb_base_tag(asid, vpn), wr, &bi, &nb);
        const int gh = tlb_fa_lookup(&l->large, tlb_large_tag(asid, vpn), wr, &gi, &ng);
        if (bh) {
            lk->hk[p] = HIT_BASE;
            lk->hidx[p] = boff + bi;
            const gmmu_base_data_t d = gmmu_base_data_unpack(bv->data[bi]);
            lk->hppn[p] = d.ppn;
            lk->hsys[p] = d.sys;
        } else if (gh) {
            lk->hk[p] = HIT_LARGE;
            lk->hidx[p] = gi;
            lk->hppn[p] =
                ((uint64_t)gmmu_large_data_unpack(l->large.data[gi]).lppn << GMMU_PT_IDX_W) |
                (vpn & GMMU_IDX_MASK);
            lk->hsys[p] = gmmu_large_data_unpack(l->large.data[gi]).sys;
        }
        if (nb > 1 || ng > 1)
            gmmu_viol(v, "l1[%u]: multi-hit for vpn 0x%llx (%u base, %u large)", l->sm,
                      (unsigned long long)vpn, nb, ng);
    }
}

/* (c) response: the request table, then FA-2 (on arrays not yet written this cycle) and FA-3
 * of a cacheable OK response. Returns the array filled (HIT_*) and its entry in *fill_idx. */
static int l1_response(l1_t *l, const gmmu_rsp_t *r, uint8_t blocking, gmmu_viol_t *v,
                       uint32_t *fill_idx, l1_lb_out_t *lo) {
    int fill = HIT_NONE;
    if (r->valid && (r->mask >> l->sm) & 1u) {
        const uint32_t fb = l->lbm ? l1_bmp_fill_lines(l, r) : 0u; /* §20.3 step 2 */
        if (!l1_req_response(&l->req, r, blocking))
            v->orphan_rsp++;
        if (!r->r.nack && !r->r.nocache) {
            if (r->r.is_large) {
                const uint64_t tag = tlb_large_tag(r->r.req.asid, r->r.req.vpn);
                fill = HIT_LARGE;
                *fill_idx = tlb_fa_fill_pick(&l->large, tag);
                tlb_fa_fill(&l->large, *fill_idx, tag, r->r.w, tlb_large_data(r->r.ppn, r->r.sys));
            } else {
                fill = HIT_BASE;
                const uint64_t tag = tlb_base_tag(r->r.req.asid, r->r.req.vpn);
                uint32_t boff = 0;
                tlb_fa_t *bv = l1_bview(l, r->r.req.vpn, &boff);
                const uint32_t way = tlb_fa_fill_pick(bv, tag);
                *fill_idx = boff + way;
                if (l->lbm)
                    l1_bmp_fill(l, *fill_idx, tag, fb, lo);
                tlb_fa_fill(bv, way, tag, r->r.w, tlb_base_data(r->r.ppn, r->r.sys));
            }
        }
    }
    return fill;
}

/* FA-4 / AS-4: touch base entry idx (an index of the whole array) in its PLRU. */
static void l1_base_touch(l1_t *l, uint32_t idx) {
    if (l->b_sets <= 1u)
        tlb_fa_touch(&l->base, idx);
    else
        tlb_fa_touch(tlb_sa_set(&l->bsa, idx / l->bsa.ways), idx % l->bsa.ways);
}

int l1_step(l1_t *l, const l1_comb_t *c, const l1_in_t *in, gmmu_viol_t *v) {
    return l1_step_lb(l, c, in, NULL, NULL, v);
}

int l1_step_lb(l1_t *l, const l1_comb_t *c, const l1_in_t *in, const l1_lb_in_t *lb,
               l1_lb_out_t *lo, gmmu_viol_t *v) {
    const uint32_t P = l->n_ports;
    if (l->lbm && (!lb || !lo || !lb->req_line || !lo->flush)) {
        gmmu_viol(v, "l1[%u]: line_bitmap without its inputs / outputs (§20)", l->sm);
        return 0;
    }
    uint64_t free_q = l1_req_free_mask(&l->req);
    l1_lookup_t lk;
    l1_lookups(l, c, in, v, &lk);
    const uint8_t *acc = lk.acc, *hk = lk.hk;
    const uint32_t *hidx = lk.hidx;
    const uint64_t *hppn = lk.hppn;
    if (l->lbm) { /* §20.3 step 1 (after the scanner's take), before the fill's eviction */
        uint8_t hb[GMMU_MAX_PORTS];
        for (uint32_t p = 0; p < P; p++)
            hb[p] = hk[p] == HIT_BASE;
        if (lo) {
            lo->evict = 0;
            lo->n_flush = 0;
        }
        l1_bmp_hits(l, lb, acc, hb, hidx);
    }

    const l1_req_comb_t tc = {c->ready, c->out, c->send};
    /* (a) output */
    l1_req_output(&l->req, &tc);

    /* (b) send */
    if (in->grant && l1_req_send(&l->req, &tc))
        gmmu_viol(v, "l1[%u]: granted without a request", l->sm);

    /* (c) response */
    uint32_t fill_idx = 0;
    const int fill = l1_response(l, in->rsp, in->blocking, v, &fill_idx, lo);

    /* (d) replay */
    if (in->replay)
        l1_req_replay(&l->req);

    /* (e) cancel */
    if (in->cancel_valid)
        l1_req_cancel(&l->req, in->cancel_asid, in->cancel_vpn);

    /* (f) allocate + hit registers */
    for (uint32_t p = 0; p < P; p++) {
        l->hv[p] = 0;
        l->hid[p] = 0;
        l->hppn[p] = 0;
        l->hsys[p] = 0;
        if (!acc[p])
            continue;
        if (hk[p] != HIT_NONE) {
            l->hv[p] = 1;
            l->hid[p] = in->req_id[p];
            l->hppn[p] = hppn[p];
            l->hsys[p] = lk.hsys[p];
            continue;
        }
        if (l->lbm && free_q) /* §20.3 step 3: line_q of the entry (f) takes */
            l->line[gmmu_ctz64(free_q)] = lb->req_line[p] & 31u;
        if (l1_req_alloc(&l->req, &free_q, in->req_asid[p] & l->asid_mask,
                         in->req_vpn[p] & GMMU_VPN_MASK, in->req_write[p] ? 1u : 0u, in->req_id[p]))
            gmmu_viol(v, "l1[%u]: accepted miss on port %u finds no FREE entry", l->sm, p);
    }

    /* 7. PLRU (FA-4; AS-4 on the entry's set): hits in port order, then the fill */
    int large_hit = 0;
    for (uint32_t p = 0; p < P; p++) {
        if (hk[p] == HIT_BASE) {
            l1_base_touch(l, hidx[p]);
        } else if (hk[p] == HIT_LARGE) {
            tlb_fa_touch(&l->large, hidx[p]);
            large_hit = 1;
        }
    }
    if (fill == HIT_BASE)
        l1_base_touch(l, fill_idx);
    else if (fill == HIT_LARGE)
        tlb_fa_touch(&l->large, fill_idx);

    /* (g) flush, on the _d values above */
    const gmmu_flush_t *fl = &in->flush;
    if (fl->kind != GMMU_FLUSH_NONE) { /* FA-5, selective with the masks of §14.4 */
        if (l->lbm)
            l1_bmp_flush(l, fl, lo); /* §20.4: the departing bitmaps, before FA-5 */
        const int all = fl->kind == GMMU_FLUSH_ALL && !fl->scope;
        const int page = fl->kind == GMMU_FLUSH_PAGE;
        /* AS-5 compares every entry too (the RTL's set-local compare is the same, §1.4) */
        tlb_fa_flush(l->b_sets > 1u ? &l->bsa.all : &l->base, all, tlb_base_tag(fl->asid, fl->vpn),
                     tlb_base_flush_mask(page, fl->scope));
        tlb_fa_flush(&l->large, all, tlb_large_tag(fl->asid, fl->vpn),
                     tlb_large_flush_mask(page, fl->scope));
    }
    l1_req_flush(&l->req, fl);
    return large_hit;
}

void l1_dump(const l1_t *l, FILE *f) {
    fprintf(f, "l1[%u]:\n", l->sm);
    for (uint32_t p = 0; p < l->n_ports; p++)
        if (l->hv[p])
            fprintf(f, "  hit[%u] id=%u ppn=0x%llx\n", p, l->hid[p],
                    (unsigned long long)l->hppn[p]);
    l1_req_dump(&l->req, f);
    if (l->b_sets > 1u)
        tlb_sa_dump(&l->bsa, f, "base", "vpn", "ppn");
    else
        tlb_fa_dump(&l->base, f, "base", "vpn", "ppn");
    tlb_fa_dump(&l->large, f, "large", "region", "lppn");
    fprintf(f, "  plru base:");
    if (l->b_sets > 1u)
        tlb_sa_dump_plru(&l->bsa, f);
    else
        tlb_fa_dump_plru(&l->base, f);
    fprintf(f, " large:");
    tlb_fa_dump_plru(&l->large, f);
    fprintf(f, "\n");
}

int l1_state_get(const l1_t *l, const char *reg, uint32_t i, uint64_t *val) {
    if (strcmp(reg, "hv_q") == 0 && i == 0) {
        *val = gmmu_pack_bits(l->hv, l->n_ports);
        return 0;
    }
    if (strcmp(reg, "hsys_q") == 0 && i == 0) {
        *val = gmmu_pack_bits(l->hsys, l->n_ports);
        return 0;
    }
    if (i >= l->n_ports)
        return -1;
    if (strcmp(reg, "hid_q") == 0)
        *val = l->hid[i];
    else if (strcmp(reg, "hppn_q") == 0)
        *val = l->hppn[i];
    else
        return -1;
    return 0;
}

/* The L1 base array g_l1[s].u_l1.g_base.u_base (rest = the path after it): gmmu_tlb_fa with
 * l1_sets = 1, else gmmu_tlb_sa_async (§1.4): plru_q[set]; its u_store keeps valid and the tags'
 * ASID bits (w_q, data_q constant 0); g_way[w].tmem_q[set] = the tag without its set bits,
 * g_way[w].pmem_q[set] = {w, data}. */
int l1_base_state_get(const l1_t *l, const char *rest, const char *reg, uint32_t i, uint32_t word,
                      uint64_t *val) {
    if (l->b_sets <= 1u) {
        if (rest[0] == '\0')
            return tlb_fa_state_get(&l->base, reg, i, word, val);
        return strcmp(rest, ".u_store") == 0 ? tlb_store_state_get(&l->base, reg, i, word, val)
                                             : -1;
    }
    const tlb_sa_t *a = &l->bsa;
    if (rest[0] == '\0')
        return strcmp(reg, "plru_q") == 0 ? tlb_sa_state_get(a, reg, i, word, val) : -1;
    if (strcmp(rest, ".u_store") == 0) {
        if (strcmp(reg, "w_q") == 0 || strcmp(reg, "data_q") == 0)
            return (*val = 0, 0);
        const int r = tlb_store_state_get(&a->all, reg, i, word, val);
        if (r == 0 && strcmp(reg, "tag_q") == 0) {
            const gmmu_base_tag_t t = gmmu_base_tag_unpack(*val);
            *val = gmmu_base_tag_pack((gmmu_base_tag_t){.asid = t.asid, .vpn = 0});
        }
        return r;
    }
    if (strncmp(rest, ".g_way[", 7) != 0 || i >= a->sets || word)
        return -1;
    char *end = NULL;
    const unsigned long way = strtoul(rest + 7, &end, 10);
    if (!end || strcmp(end, "]") != 0 || way >= a->ways)
        return -1;
    const uint32_t e = i * a->ways + (uint32_t)way;
    if (strcmp(reg, "tmem_q") == 0) {
        gmmu_base_tag_t t = gmmu_base_tag_unpack(a->all.tag[e]);
        t.vpn &= ~(uint64_t)(a->sets - 1u);
        *val = gmmu_base_tag_pack(t);
        return 0;
    }
    if (strcmp(reg, "pmem_q") == 0) {
        *val = a->all.data[e] | ((uint64_t)(a->all.w[e] & 1u) << GMMU_BASE_DATA_W);
        return 0;
    }
    return -1;
}
