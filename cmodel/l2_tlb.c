/* l2_tlb.c - shared L2 TLB (RTL gmmu_l2_tlb, docs/microarch.md §5). */
#include "l2_tlb.h"

#include "tlb_rec.h"

#include <stdlib.h>
#include <string.h>

static void *zalloc(size_t n, size_t sz) {
    return calloc(n ? n : 1u, sz);
}

int l2_init(l2_t *l2, const gmmu_params_t *p) {
    memset(l2, 0, sizeof(*l2));
    l2->n_sm = p->num_sm;
    l2->sets = p->l2_sets;
    l2->ways = p->l2_ways;
    l2->n_large = p->l2_large_entries;
    l2->lat = p->l2_latency;
    l2->n_mshr = p->l2_mshr_entries;
    l2->pv = zalloc(l2->lat, 1);
    l2->psm = zalloc(l2->lat, 1);
    l2->pwrite = zalloc(l2->lat, 1);
    l2->pasid = zalloc(l2->lat, 1);
    l2->pvpn = zalloc(l2->lat, sizeof(uint64_t));
    if (!l2->pv || !l2->psm || !l2->pwrite || !l2->pasid || !l2->pvpn ||
        tlb_sa_init(&l2->base, l2->sets, l2->ways) || tlb_fa_init(&l2->large, l2->n_large) ||
        tlb_fa_index(&l2->large)) {
        l2_free(l2);
        return -1;
    }
    return 0;
}

void l2_free(l2_t *l2) {
    tlb_sa_free(&l2->base);
    tlb_fa_free(&l2->large);
    free(l2->pv);
    free(l2->psm);
    free(l2->pwrite);
    free(l2->pasid);
    free(l2->pvpn);
    memset(l2, 0, sizeof(*l2));
}

int l2_busy(const l2_t *l2) {
    if (l2->rsp.valid)
        return 1;
    for (uint32_t k = 0; k < l2->lat; k++)
        if (l2->pv[k])
            return 1;
    for (uint32_t i = 0; i < l2->n_mshr; i++)
        if (l2->m_state[i] != L2M_FREE)
            return 1;
    return 0;
}

void l2_plan(const l2_t *l2, uint8_t cmd_cycle, uint8_t ff_ready, const l1_comb_t *l1c,
             l2_plan_t *pl, gmmu_viol_t *v) {
    memset(pl, 0, sizeof(*pl));
    pl->merge = pl->alloc = pl->grant = pl->need_walk = pl->resp_sel = -1;
    const uint32_t L = l2->lat - 1u; /* index of the last stage */

    /* §5.1 last stage */
    if (!cmd_cycle && l2->pv[L]) {
        pl->last = 1;
        const uint64_t vpn = l2->pvpn[L];
        const uint8_t wr = l2->pwrite[L];
        const uint8_t asid = l2->pasid[L];
        const uint32_t set = (uint32_t)(vpn & (l2->sets - 1u));
        unsigned nb = 0, ng = 0;
        uint32_t bw = 0, gi = 0;
        /* SA-1 in the set (payloads from the RAM output registers, §1.3), then FA-1 in the large
         * array; base hit wins */
        const tlb_fa_t bset = tlb_sa_lookup_view(&l2->base, set);
        pl->match = tlb_sa_view_match(&bset, tlb_base_tag(asid, vpn));
        if (tlb_fa_lookup(&bset, tlb_base_tag(asid, vpn), wr, &bw, &nb)) {
            pl->lk_hit = 1;
            pl->hit_idx = set * l2->ways + bw;
        }
        if (tlb_fa_lookup(&l2->large, tlb_large_tag(asid, vpn), wr, &gi, &ng) && !pl->lk_hit) {
            pl->lk_hit = 1;
            pl->hit_large = 1;
            pl->hit_idx = gi;
        }
        if (nb > 1 || ng > 1)
            gmmu_viol(v, "l2: multi-hit for vpn 0x%llx (%u base, %u large)",
                      (unsigned long long)vpn, nb, ng);
        if (!pl->lk_hit) {
            for (uint32_t m = 0; m < l2->n_mshr; m++) {
                if ((l2->m_state[m] == L2M_NEED_WALK || l2->m_state[m] == L2M_WALKING) &&
                    l2->mshr[m].req.vpn == vpn && l2->mshr[m].req.write == wr &&
                    l2->mshr[m].req.asid == asid) {
                    pl->merge = (int)m;
                    break;
                }
            }
            if (pl->merge < 0) {
                for (uint32_t m = 0; m < l2->n_mshr; m++) {
                    if (l2->m_state[m] == L2M_FREE) {
                        pl->alloc = (int)m;
                        break;
                    }
                }
                if (pl->alloc < 0)
                    pl->stall = 1;
            }
        }
    }

    /* §5.3 step 1 response selection (_q and ff_ready: not the lookup); an MSHR response has
     * priority over a last-stage hit, which then holds (§5.1) */
    if (!cmd_cycle) {
        for (uint32_t m = 0; m < l2->n_mshr; m++) {
            /* a FAULT result waits while the far-fault unit's write register is full */
            if (l2->m_state[m] == L2M_RESP && (!l2->mshr[m].res.fault || ff_ready)) {
                pl->resp_sel = (int)m;
                break;
            }
        }
    }
    pl->hit = pl->lk_hit && pl->resp_sel < 0;
    pl->hold = pl->stall || (pl->lk_hit && pl->resp_sel >= 0);

    /* §5.2 advance and grant: registers only (the last stage valid with no FREE MSHR entry, or
     * with an MSHR response going out, holds the pipeline) */
    int mfree = 0;
    for (uint32_t m = 0; m < l2->n_mshr; m++)
        mfree |= l2->m_state[m] == L2M_FREE;
    pl->advance = !cmd_cycle && !(l2->pv[L] && (!mfree || pl->resp_sel >= 0));
    if (pl->hold && pl->advance)
        gmmu_viol(v, "l2: the last stage holds with the pipeline advancing");
    if (pl->advance) {
        for (uint32_t k = 0; k < l2->n_sm; k++) {
            const uint32_t s = (l2->rr + k) % l2->n_sm;
            if (l1c[s].req_valid) {
                pl->grant = (int)s;
                break;
            }
        }
    }

    /* §5.3 candidates on _q */
    for (uint32_t m = 0; m < l2->n_mshr; m++) {
        if (l2->m_state[m] == L2M_NEED_WALK) {
            pl->need_walk = (int)m;
            break;
        }
    }
}

/* SA-4 at entry idx = set * ways + way */
static void touch_base(l2_t *l2, uint32_t idx) {
    tlb_fa_touch(tlb_sa_set(&l2->base, idx / l2->ways), idx % l2->ways);
}

/* §5.1 last-stage hit (the response of this cycle when no MSHR responds), then step 1: the
 * response selection of an MSHR (priority: pl->hit excludes it). */
static void l2_respond(l2_t *l2, const l2_plan_t *pl, gmmu_rsp_t *rsp_out, uint16_t *ev) {
    const uint32_t L = l2->lat - 1u;
    gmmu_rsp_t rsp = *rsp_out;
    if (pl->hit) {
        rsp.valid = 1;
        rsp.mask = UINT32_C(1) << l2->psm[L];
        rsp.r.req.vpn = l2->pvpn[L];
        rsp.r.req.write = l2->pwrite[L];
        rsp.r.req.asid = l2->pasid[L];
        if (pl->hit_large) {
            rsp.r.ppn = (uint64_t)gmmu_large_data_unpack(l2->large.data[pl->hit_idx]).lppn
                        << GMMU_PT_IDX_W;
            rsp.r.is_large = 1;
            rsp.r.w = l2->large.w[pl->hit_idx];
            rsp.r.sys = gmmu_large_data_unpack(l2->large.data[pl->hit_idx]).sys;
            *ev |= (uint16_t)(1u << GMMU_EV_L2_LARGE_HIT);
        } else {
            /* the payload RAM output registers of the last stage's set (§1.3) */
            const uint32_t way = pl->hit_idx % l2->ways;
            rsp.r.ppn = gmmu_base_data_unpack(l2->base.rd_data[way]).ppn;
            rsp.r.w = l2->base.rd_w[way];
            rsp.r.sys = gmmu_base_data_unpack(l2->base.rd_data[way]).sys;
        }
        *ev |= (uint16_t)(1u << GMMU_EV_L2_HIT);
    } else if (pl->last && !pl->lk_hit && !pl->stall) {
        *ev |= (uint16_t)(1u << GMMU_EV_L2_MISS);
    }

    /* 1. response selection */
    if (pl->resp_sel >= 0) {
        const uint32_t m = (uint32_t)pl->resp_sel;
        const gmmu_l2_mshr_t *e = &l2->mshr[m];
        if (!e->res.fault) {
            rsp.valid = 1;
            rsp.mask = e->mask;
            rsp.r.req = e->req;
            rsp.r.ppn = e->res.ppn;
            rsp.r.is_large = e->res.is_large;
            rsp.r.w = e->res.w;
            rsp.r.nocache = e->res.nocache;
            rsp.r.sys = e->res.sys;
            l2->m_state[m] = L2M_FREE;
        } else { /* offered to the far-fault unit, which takes it (§7) */
            rsp.valid = 1;
            rsp.r.nack = 1;
            rsp.mask = e->mask;
            rsp.r.req = e->req;
            l2->m_state[m] = L2M_FREE;
        }
    }

    *rsp_out = rsp;
}

/* Step 2: walker completion (fill choice on _q arrays: not modified before this point). Returns
 * the array filled (1 base, 2 large, 0 none) and its entry (set * ways + way) in *fill_idx. */
static int l2_complete(l2_t *l2, int done_valid, uint32_t done_mshr, const gmmu_walk_res_t *done,
                       gmmu_viol_t *v, uint32_t *fill_idx_out) {
    int fill = 0;
    uint32_t fill_idx = 0;
    if (done_valid) {
        const uint32_t m = done_mshr;
        if (m >= l2->n_mshr) {
            gmmu_viol(v, "l2: walker completion for MSHR %u out of range", m);
        } else {
            if (l2->m_state[m] != L2M_WALKING)
                gmmu_viol(v, "l2: walker completion for MSHR %u in state %u", m, l2->m_state[m]);
            l2->m_state[m] = L2M_RESP;
            l2->mshr[m].res = *done;
            if (!done->fault && !done->nocache) {
                const uint64_t vpn = l2->mshr[m].req.vpn;
                const uint8_t asid = l2->mshr[m].req.asid;
                if (done->is_large) {
                    const uint64_t tag = tlb_large_tag(asid, vpn);
                    fill = 2;
                    fill_idx = tlb_fa_fill_pick(&l2->large, tag); /* FA-2, FA-3 */
                    tlb_fa_fill(&l2->large, fill_idx, tag, done->w,
                                tlb_large_data(done->ppn, done->sys));
                } else {
                    const uint32_t set = (uint32_t)(vpn & (l2->sets - 1u));
                    fill = 1;
                    tlb_fa_t *bs = tlb_sa_set(&l2->base, set);
                    const uint64_t tag = tlb_base_tag(asid, vpn);
                    /* the RTL's "same tag" is the MSHR's same-tag vector (§5): on the valid
                     * ways of the set it is the tag compare */
                    uint64_t vmask = 0;
                    for (uint32_t w = 0; w < l2->ways; w++)
                        vmask |= (uint64_t)(bs->valid[w] & 1u) << w;
                    const uint64_t same = tlb_sa_view_match(bs, tag);
                    if ((l2->msame[m] & vmask) != same)
                        gmmu_viol(v, "l2: same-tag vector 0x%llx of MSHR %u, set %u holds 0x%llx",
                                  (unsigned long long)(l2->msame[m] & vmask), m, set,
                                  (unsigned long long)same);
                    const uint32_t way = tlb_fa_fill_pick(bs, tag); /* SA-2, SA-3 */
                    tlb_fa_fill(bs, way, tag, done->w, tlb_base_data(done->ppn, done->sys));
                    fill_idx = set * l2->ways + way;
                }
            }
        }
    }

    *fill_idx_out = fill_idx;
    return fill;
}

/* Step 5.2: the pipeline advances and takes the granted L1 request. */
static void l2_advance(l2_t *l2, const l2_plan_t *pl, const l1_comb_t *l1c) {
    const uint32_t L = l2->lat - 1u;
    if (pl->advance) {
        for (uint32_t k = L; k >= 1u; k--) {
            l2->pv[k] = l2->pv[k - 1u];
            l2->psm[k] = l2->psm[k - 1u];
            l2->pvpn[k] = l2->pvpn[k - 1u];
            l2->pwrite[k] = l2->pwrite[k - 1u];
            l2->pasid[k] = l2->pasid[k - 1u];
        }
        if (pl->grant >= 0) {
            const uint32_t s = (uint32_t)pl->grant;
            l2->pv[0] = 1;
            l2->psm[0] = (uint8_t)s;
            l2->pvpn[0] = l1c[s].req.vpn;
            l2->pwrite[0] = l1c[s].req.write;
            l2->pasid[0] = l1c[s].req.asid;
            l2->rr = (s + 1u) % l2->n_sm;
        } else {
            l2->pv[0] = 0;
            l2->psm[0] = 0;
            l2->pvpn[0] = 0;
            l2->pwrite[0] = 0;
            l2->pasid[0] = 0;
        }
    } else if (pl->last && !pl->hold) {
        /* no advance: the last stage answered, merged or allocated; it is done (stages 1..L-1
         * hold) */
        l2->pv[L] = 0;
    }
}

void l2_update(l2_t *l2, const l2_plan_t *pl, const l1_comb_t *l1c, int done_valid,
               uint32_t done_mshr, const gmmu_walk_res_t *done, int assigned,
               const gmmu_flush_t *fl, uint16_t *ev, gmmu_viol_t *v) {
    const uint32_t L = l2->lat - 1u;
    gmmu_rsp_t rsp;
    memset(&rsp, 0, sizeof(rsp));

    /* §5.1 last-stage hit, 1. response selection */
    l2_respond(l2, pl, &rsp, ev);

    /* 2. walker completion */
    uint32_t fill_idx = 0;
    const int fill =
        l2_complete(l2, done_valid, done_mshr, done, v, &fill_idx); /* 1 base, 2 large */

    /* 3. walker assignment */
    if (assigned && pl->need_walk >= 0)
        l2->m_state[pl->need_walk] = L2M_WALKING;

    /* 4. merge / allocate */
    if (pl->merge >= 0) {
        l2->mshr[pl->merge].mask |= UINT32_C(1) << l2->psm[L];
    } else if (pl->alloc >= 0) {
        gmmu_l2_mshr_t *e = &l2->mshr[pl->alloc];
        l2->m_state[pl->alloc] = L2M_NEED_WALK;
        e->req.vpn = l2->pvpn[L];
        e->req.write = l2->pwrite[L];
        e->req.asid = l2->pasid[L];
        e->mask = UINT32_C(1) << l2->psm[L];
        l2->msame[pl->alloc] = pl->match; /* the same-tag vector: SA-1's match (§5) */
    }
    /* same-tag vectors: the base fill of step 2 sets the filled way's bit of every entry whose
     * key is in the filled set (every entry, FREE ones too, as the RTL) */
    if (fill == 1) {
        const uint32_t fset = fill_idx / l2->ways, fway = fill_idx % l2->ways;
        const uint64_t ftag = l2->base.all.tag[fill_idx];
        for (uint32_t m = 0; m < l2->n_mshr; m++) {
            const gmmu_l2_mshr_t *e = &l2->mshr[m];
            if ((uint32_t)(e->req.vpn & (l2->sets - 1u)) != fset)
                continue;
            if (tlb_base_tag(e->req.asid, e->req.vpn) == ftag)
                l2->msame[m] |= UINT64_C(1) << fway;
            else
                l2->msame[m] &= ~(UINT64_C(1) << fway);
        }
    }

    /* 5. PLRU: hit touch, then fill touch */
    if (pl->hit) {
        if (pl->hit_large)
            tlb_fa_touch(&l2->large, pl->hit_idx);
        else
            touch_base(l2, pl->hit_idx);
    }
    if (fill == 1)
        touch_base(l2, fill_idx);
    else if (fill == 2)
        tlb_fa_touch(&l2->large, fill_idx);

    /* 5.2 advance and grant (the base array's RAM read of the edge: l2_ram_read, after the CSR
     * block's step) */
    l2_advance(l2, pl, l1c);

    /* 6. flush, on _d */
    if (fl->kind != GMMU_FLUSH_NONE) { /* SA-5, FA-5, selective with the masks of §14.4 */
        const int all = fl->kind == GMMU_FLUSH_ALL && !fl->scope;
        const int page = fl->kind == GMMU_FLUSH_PAGE;
        const int fset = page ? (int)(fl->vpn & (l2->sets - 1u)) : -1;
        if (tlb_sa_flush(&l2->base, all, fset, tlb_base_tag(fl->asid, fl->vpn),
                         tlb_base_flush_mask(page, fl->scope)))
            gmmu_viol(v, "l2: page flush of set %d, but the RAMs read set %u", fset,
                      l2->base.rd_set);
        tlb_fa_flush(&l2->large, all, tlb_large_tag(fl->asid, fl->vpn),
                     tlb_large_flush_mask(page, fl->scope));
        /* RESP entries with an OK result that match (region, asid) -> NEED_WALK */
        for (uint32_t m = 0; m < l2->n_mshr; m++)
            if (l2->m_state[m] == L2M_RESP && !l2->mshr[m].res.fault &&
                gmmu_flush_match(fl, l2->mshr[m].req.asid, l2->mshr[m].req.vpn))
                l2->m_state[m] = L2M_NEED_WALK;
    }

    /* 5.4 */
    l2->rsp = rsp;
}

void l2_ram_read(l2_t *l2, int cmd_next, uint64_t cmd_vpn_next) {
    /* the set the last stage looks up in the next cycle, or the next command cycle's set (a page
     * flush reads its tags; a command cycle looks nothing up); after every fill of the cycle
     * (write-first, §1.3 "payload RAM"); the flush does not touch the RAM words */
    const uint64_t vpn = cmd_next ? cmd_vpn_next : l2->pvpn[l2->lat - 1u];
    tlb_sa_ram_read(&l2->base, (uint32_t)(vpn & (l2->sets - 1u)));
}

static const char *const l2_state_name[] = {"FREE", "NEED_WALK", "WALKING", "RESP"};

void l2_dump(const l2_t *l2, FILE *f) {
    fprintf(f, "l2: rr=%u\n", l2->rr);
    for (uint32_t k = 0; k < l2->lat; k++)
        if (l2->pv[k])
            fprintf(f, "  stage%u sm=%u asid=%u vpn=0x%llx write=%u\n", k + 1u, l2->psm[k],
                    l2->pasid[k], (unsigned long long)l2->pvpn[k], l2->pwrite[k]);
    for (uint32_t m = 0; m < l2->n_mshr; m++) {
        if (l2->m_state[m] == L2M_FREE)
            continue;
        const gmmu_l2_mshr_t *e = &l2->mshr[m];
        const gmmu_walk_res_t *r = &e->res;
        fprintf(f,
                "  mshr[%u] %s asid=%u vpn=0x%llx write=%u mask=0x%x | fault=%u ppn=0x%llx "
                "large=%u w=%u nocache=%u ft=%u\n",
                m, l2_state_name[l2->m_state[m]], e->req.asid, (unsigned long long)e->req.vpn,
                e->req.write, e->mask, r->fault, (unsigned long long)r->ppn, r->is_large, r->w,
                r->nocache, r->fault_type);
    }
    if (l2->rsp.valid)
        fprintf(f, "  rsp %s mask=0x%x vpn=0x%llx write=%u ppn=0x%llx large=%u w=%u nocache=%u\n",
                l2->rsp.r.nack ? "NACK" : "OK", l2->rsp.mask, (unsigned long long)l2->rsp.r.req.vpn,
                l2->rsp.r.req.write, (unsigned long long)l2->rsp.r.ppn, l2->rsp.r.is_large,
                l2->rsp.r.w, l2->rsp.r.nocache);
    tlb_sa_dump(&l2->base, f, "base", "vpn", "ppn");
    tlb_fa_dump(&l2->large, f, "large", "region", "lppn");
    fprintf(f, "  plru base:");
    tlb_sa_dump_plru(&l2->base, f);
    fprintf(f, " large:");
    tlb_fa_dump_plru(&l2->large, f);
    fprintf(f, "\n");
}

/* The response registers rsp_valid_q, rsp_mask_q and the packed record rsp_q (tlb_rsp_t, 85
 * bits: two words), or -1. */
static int l2_rsp_get(const gmmu_rsp_t *r, const char *reg, uint32_t word, uint64_t *val) {
    if (strcmp(reg, "rsp_q") == 0) {
        if (word > 1u)
            return -1;
        *val = gmmu_tlb_rsp_word(&r->r, word);
        return 0;
    }
    if (word != 0)
        return -1;
    if (strcmp(reg, "rsp_valid_q") == 0)
        *val = r->valid;
    else if (strcmp(reg, "rsp_mask_q") == 0)
        *val = r->mask;
    else
        return -1;
    return 0;
}

int l2_state_get(const l2_t *l2, const char *reg, uint32_t i, uint32_t word, uint64_t *val) {
    if (strcmp(reg, "mshr_q") == 0) { /* the packed record l2_mshr_t, 122 bits: two words */
        if (i >= l2->n_mshr || word > 1u)
            return -1;
        *val = gmmu_l2_mshr_word(&l2->mshr[i], word);
        return 0;
    }
    if (i == 0 && l2_rsp_get(&l2->rsp, reg, word, val) == 0)
        return 0;
    if (word != 0)
        return -1;
    if (i == 0) {
        if (strcmp(reg, "pv_q") == 0 || strcmp(reg, "pwrite_q") == 0) {
            *val = gmmu_pack_bits(reg[1] == 'v' ? l2->pv : l2->pwrite, l2->lat);
            return 0;
        }
        if (strcmp(reg, "rr_q") == 0) {
            *val = l2->rr;
            return 0;
        }
    }
    if (i < l2->lat && strcmp(reg, "psm_q") == 0)
        *val = l2->psm[i];
    else if (i < l2->lat && strcmp(reg, "pvpn_q") == 0)
        *val = l2->pvpn[i];
    else if (i < l2->lat && strcmp(reg, "pasid_q") == 0)
        *val = l2->pasid[i];
    else if (i < l2->n_mshr && strcmp(reg, "m_state_q") == 0)
        *val = l2->m_state[i];
    else if (i < l2->n_mshr && strcmp(reg, "msame_q") == 0)
        *val = l2->msame[i];
    else
        return -1;
    return 0;
}
