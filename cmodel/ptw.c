/* ptw.c - page-table walkers (RTL gmmu_ptw, docs/microarch.md §6). */
#include "ptw.h"

#include <string.h>

void ptw_init(ptw_t *w, const gmmu_params_t *p) {
    memset(w, 0, sizeof(*w));
    w->n = p->num_walkers;
    w->pwc_latency = p->pwc_latency;
    w->ad = p->ad_bits ? 1u : 0u;
    pwc_init(&w->pwc, p->pwc_entries, p->num_asids);
}

int ptw_busy(const ptw_t *w) {
    if (w->mr_valid)
        return 1;
    for (uint32_t k = 0; k < w->n; k++)
        if (w->state[k] != PTW_IDLE)
            return 1;
    return 0;
}

/* vpn[35-9l -: 9] */
static uint64_t level_index(uint64_t vpn, unsigned level) {
    return (vpn >> (GMMU_PT_IDX_W * (GMMU_PT_LEVELS - 1u - level))) & GMMU_IDX_MASK;
}

static uint64_t pte_addr(uint64_t base, uint64_t idx) {
    return (base + 8u * idx) & GMMU_PA_MASK;
}

/* {pte[47:12], 12'b0} */
static uint64_t pte_next(uint64_t pte) {
    return pte & (GMMU_PA_MASK & ~((UINT64_C(1) << GMMU_PAGE_SHIFT) - 1u));
}

/* level 0 in the root of the walker's address space (§6, §14.2) */
static void restart(ptw_t *w, uint32_t k, const uint64_t *pt_base) {
    w->level[k] = 0;
    w->large_mode[k] = 0;
    w->addr[k] = pte_addr(pt_base[w->asid[k]], level_index(w->vpn[k], 0));
}

static void complete(ptw_t *w, uint32_t k, ptw_out_t *o, int fault, uint8_t ft) {
    w->state[k] = PTW_IDLE;
    o->done = 1;
    o->done_mshr = w->mshr[k];
    memset(&o->res, 0, sizeof(o->res));
    o->res.fault = fault ? 1u : 0u;
    o->res.fault_type = fault ? ft : 0u;
}

/* §6 step 1 with the coalesce unit's request (§15.2): walkers first */
static void mem_request(ptw_t *w, const ptw_in_t *in, int issue, ptw_out_t *o, uint16_t *ev) {
    const int mr_free = !w->mr_valid || in->mem_req_ready;
    if (mr_free && issue >= 0) {
        w->state[issue] = PTW_WAIT_RSP;
        w->mr_valid = 1;
        w->mr_addr = w->addr[issue];
        w->mr_id = (uint8_t)issue;
        w->mr_write = 0;
        w->mr_co = 0;
        w->mr_drt = 0;
        w->mr_bmp = 0;
        if (w->adw[issue]) { /* §18.2: the set-bits write; the walker re-reads next */
            w->state[issue] = PTW_ISSUE;
            w->adw[issue] = 0;
            w->mr_write = 1;
            w->mr_drt = w->write[issue];
            *ev |= (uint16_t)(1u << GMMU_EV_PTE_WRITE);
        }
    } else if (mr_free && in->co_req_valid) {
        w->mr_valid = 1;
        w->mr_addr = in->co_req_addr;
        w->mr_id = GMMU_CO_MEM_ID;
        w->mr_write = in->co_req_write;
        w->mr_co = 1;
        w->mr_drt = 0;
        w->mr_bmp = 0;
        o->co_taken = 1;
        if (in->co_req_write)
            *ev |= (uint16_t)(1u << GMMU_EV_PTE_WRITE);
    } else if (mr_free && in->bmp_valid) { /* §20.5: a bitmap write, when nobody else loads */
        w->mr_valid = 1;
        w->mr_addr = in->bmp_addr;
        w->mr_id = GMMU_CO_MEM_ID;
        w->mr_write = 1;
        w->mr_co = 0;
        w->mr_drt = 0;
        w->mr_bmp = 1;
        w->mr_bhi = in->bmp_hi;
        w->mr_bdat = in->bmp_dat;
        o->bmp_taken = 1;
    } else if (w->mr_valid && in->mem_req_ready) {
        w->mr_valid = 0; /* mr_bmp, like mr_co, holds until the next load (the id stays) */
    }
}

/* §6 step 2: the response to walker k (in WAIT_RSP), with the fill of §16.3 */
static void ptw_response(ptw_t *w, uint32_t k, const ptw_in_t *in, ptw_out_t *o, uint16_t *ev) {
    const int nofill = w->nofill[k];
    w->nofill[k] = 0;
    const uint64_t pte = in->mem_rsp_data;
    const unsigned lv = w->level[k];
    const int pv = (pte >> GMMU_PTE_V) & 1u;
    if (w->poison[k]) {
        restart(w, k, in->pt_base);
        w->poison[k] = 0;
        w->state[k] = PTW_ISSUE;
        *ev |= (uint16_t)(1u << GMMU_EV_WALK_RESTART);
    } else if (lv < 3u && !pv) {
        complete(w, k, o, 1, GMMU_FT_PDE);
    } else if (lv < 3u && w->pwc.n && !nofill) {
        /* §16.3: the fill; the walk goes on below as without a cache */
        pwc_fill(&w->pwc, w->asid[k], lv, w->vpn[k], pte_next(pte) >> GMMU_PAGE_SHIFT,
                 (uint8_t)(lv == 2u && ((pte >> GMMU_PTE_L) & 1u)));
    }
    if (w->state[k] != PTW_WAIT_RSP) {
        /* restarted or completed above */
    } else if (lv == 2u && ((pte >> GMMU_PTE_L) & 1u)) {
        w->large_mode[k] = 1;
        w->level[k] = 3;
        w->addr[k] = pte_addr(pte_next(pte), 0);
        w->state[k] = PTW_ISSUE;
    } else if (lv < 3u) {
        w->level[k] = (uint8_t)(lv + 1u);
        w->addr[k] = pte_addr(pte_next(pte), level_index(w->vpn[k], lv + 1u));
        w->state[k] = PTW_ISSUE;
    } else if (!pv) {
        complete(w, k, o, 1, GMMU_FT_PTE);
    } else if (w->write[k] && !((pte >> GMMU_PTE_W) & 1u)) {
        complete(w, k, o, 1, GMMU_FT_RO_VIOLATION);
    } else if (w->ad &&
               (!((pte >> GMMU_PTE_ACC) & 1u) || (w->write[k] && !((pte >> GMMU_PTE_DRT) & 1u)))) {
        /* §18.2: set ACC (DRT) first, then re-read the leaf */
        w->state[k] = PTW_ISSUE;
        w->adw[k] = 1;
    } else {
        const uint64_t ppn = (pte >> GMMU_PTE_PPN_LSB) & GMMU_PPN_MASK;
        complete(w, k, o, 0, 0);
        o->res.is_large = w->large_mode[k];
        o->res.ppn = w->large_mode[k] ? (ppn & ~GMMU_IDX_MASK) : ppn;
        /* §18.4: writable only if W and (with A/D) DRT */
        o->res.w = ((pte >> GMMU_PTE_W) & 1u) && (!w->ad || ((pte >> GMMU_PTE_DRT) & 1u));
        o->res.nocache = !w->large_mode[k] && ((pte >> GMMU_PTE_D) & 1u);
        o->res.sys = (pte >> GMMU_PTE_APER) & 1u; /* aperture (§17) */
        if (w->large_mode[k])
            *ev |= (uint16_t)(1u << GMMU_EV_WALK_LARGE);
    }
}

/* §6 step 4 and §16.4: the flush of a command cycle, applied to _d */
static void ptw_flush(ptw_t *w, const ptw_in_t *in) {
    for (uint32_t k = 0; k < w->n; k++) {
        if (!gmmu_flush_match(&in->flush, w->asid[k], w->vpn[k]))
            continue;
        if (w->state[k] == PTW_WAIT_RSP) {
            w->poison[k] = 1;
        } else if (w->state[k] == PTW_ISSUE || w->state[k] == PTW_PWC) {
            restart(w, k, in->pt_base);
            w->state[k] = PTW_ISSUE;
            w->adw[k] = 0;
        }
    }
    /* §16.4: a read in flight on the flushed path must not fill the cache */
    for (uint32_t k = 0; k < w->n && w->pwc.n; k++) {
        const gmmu_flush_t *f = &in->flush;
        if (w->state[k] != PTW_WAIT_RSP || w->level[k] >= 3u || (f->scope && w->asid[k] != f->asid))
            continue;
        if (f->kind == GMMU_FLUSH_ALL ||
            pwc_pfx(w->vpn[k], w->level[k]) == pwc_pfx(f->vpn, w->level[k]))
            w->nofill[k] = 1;
    }
    pwc_flush(&w->pwc, &in->flush);
}

void ptw_step(ptw_t *w, const ptw_in_t *in, ptw_out_t *o, uint16_t *ev, gmmu_viol_t *v) {
    memset(o, 0, sizeof(*o));
    /* choices on _q, before any update */
    int issue = -1, idle = -1;
    for (uint32_t k = 0; k < w->n; k++) {
        /* §18.2: a pending set-bits write waits while the coalesce unit is busy */
        if (issue < 0 && w->state[k] == PTW_ISSUE && !(w->adw[k] && in->co_busy))
            issue = (int)k;
        if (idle < 0 && w->state[k] == PTW_IDLE)
            idle = (int)k;
    }
    /* a response with CO_MEM_ID is the coalesce unit's (§15.2) */
    const int rsp_k =
        in->mem_rsp_valid && in->mem_rsp_id != GMMU_CO_MEM_ID ? (int)in->mem_rsp_id : -1;
    const int rsp_ok = rsp_k >= 0 && (uint32_t)rsp_k < w->n && w->state[rsp_k] == PTW_WAIT_RSP;
    if (rsp_k >= 0 && !rsp_ok)
        gmmu_viol(v, "ptw: memory response id %d for a walker not in WAIT_RSP", rsp_k);

    /* 1. memory request */
    mem_request(w, in, issue, o, ev);

    /* 1b. page-walk cache hit latency (§16.2) */
    for (uint32_t k = 0; k < w->n; k++) {
        if (w->state[k] != PTW_PWC)
            continue;
        if (w->pcnt[k] == 0)
            w->state[k] = PTW_ISSUE;
        else
            w->pcnt[k]--;
    }

    /* the lookup of step 3 reads the cache's _q state: before the fill of step 2 (§16.2) */
    pwc_hit_t hit = {0};
    if (idle >= 0 && in->need_walk >= 0)
        pwc_lookup(&w->pwc, in->nw.asid, in->nw.vpn, &hit);

    /* 2. response */
    if (rsp_ok)
        ptw_response(w, (uint32_t)rsp_k, in, o, ev);

    /* 3. assignment */
    if (idle >= 0 && in->need_walk >= 0) {
        const uint32_t k = (uint32_t)idle;
        w->state[k] = PTW_ISSUE;
        w->poison[k] = 0;
        w->vpn[k] = in->nw.vpn;
        w->write[k] = in->nw.write;
        w->asid[k] = in->nw.asid;
        w->mshr[k] = (uint8_t)in->need_walk;
        restart(w, k, in->pt_base);
        w->nofill[k] = 0;
        w->adw[k] = 0;
        if (hit.hit) { /* §16.2: start below the deepest cached level */
            const unsigned lv = hit.lvl + 1u;
            const uint64_t base = hit.next << GMMU_PAGE_SHIFT;
            w->state[k] = PTW_PWC;
            w->pcnt[k] = (uint8_t)(w->pwc_latency - 1u);
            w->level[k] = (uint8_t)lv;
            w->large_mode[k] = hit.lvl == 2u && hit.l;
            w->addr[k] = pte_addr(base, w->large_mode[k] ? 0u : level_index(in->nw.vpn, lv));
            *ev |= (uint16_t)(1u << GMMU_EV_PWC_HIT);
        }
        o->assigned = 1;
        *ev |= (uint16_t)(1u << GMMU_EV_WALK);
    }

    /* 4. flush, on _d */
    if (in->flush.kind != GMMU_FLUSH_NONE)
        ptw_flush(w, in);
}

static const char *const ptw_state_name[] = {"IDLE", "ISSUE", "WAIT_RSP", "PWC"};

void ptw_dump(const ptw_t *w, FILE *f) {
    fprintf(f, "ptw: mr valid=%u addr=0x%llx id=%u write=%u co=%u\n", w->mr_valid,
            (unsigned long long)w->mr_addr, w->mr_id, w->mr_write, w->mr_co);
    for (uint32_t k = 0; k < w->n; k++)
        if (w->state[k] != PTW_IDLE)
            fprintf(f,
                    "  walker[%u] %s asid=%u vpn=0x%llx write=%u mshr=%u level=%u large_mode=%u "
                    "addr=0x%llx poison=%u\n",
                    k, ptw_state_name[w->state[k]], w->asid[k], (unsigned long long)w->vpn[k],
                    w->write[k], w->mshr[k], w->level[k], w->large_mode[k],
                    (unsigned long long)w->addr[k], w->poison[k]);
}

/* RTL PteOffW: w_addr_q and mr_addr_q keep PA[47:3] of the 8-byte PTE. */
#define PTW_PTE_OFF_W 3u

int ptw_state_get(const ptw_t *w, const char *reg, uint32_t i, uint64_t *val) {
    const struct {
        const char *name;
        const uint8_t *b; /* packed bit vector of per-walker flags */
    } bits[] = {{"w_write_q", w->write},
                {"w_lmode_q", w->large_mode},
                {"w_poison_q", w->poison},
                {"w_nofill_q", w->nofill},
                {"w_adw_q", w->adw}};
    if (strcmp(reg, "mr_bmp_q") == 0 || strcmp(reg, "mr_bhi_q") == 0 ||
        strcmp(reg, "mr_bdat_q") == 0) { /* §20.5 the bitmap write */
        *val = reg[4] == 'm' ? w->mr_bmp : reg[4] == 'h' ? w->mr_bhi : w->mr_bdat;
        return i == 0 ? 0 : -1;
    }
    if (strcmp(reg, "mr_write_q") == 0 || strcmp(reg, "mr_co_q") == 0 ||
        strcmp(reg, "mr_drt_q") == 0) {
        *val = reg[3] == 'w' ? w->mr_write : reg[3] == 'c' ? w->mr_co : w->mr_drt;
        return i == 0 ? 0 : -1;
    }
    for (size_t k = 0; k < sizeof(bits) / sizeof(bits[0]); k++) {
        if (strcmp(reg, bits[k].name) == 0) {
            *val = gmmu_pack_bits(bits[k].b, w->n);
            return i == 0 ? 0 : -1;
        }
    }
    /* mr_id_q: the RTL stores 0 for the coalesce unit's and the bitmap writes (their
     * mem_req_id is CO_MEM_ID by the output multiplexer); the model keeps CO_MEM_ID */
    if (strcmp(reg, "mr_valid_q") == 0 || strcmp(reg, "mr_addr_q") == 0 ||
        strcmp(reg, "mr_id_q") == 0) {
        *val = reg[3] == 'v' ? w->mr_valid
                             : (reg[3] == 'a' ? w->mr_addr >> PTW_PTE_OFF_W
                                              : ((w->mr_co || w->mr_bmp) ? 0u : w->mr_id));
        return i == 0 ? 0 : -1;
    }
    if (i >= w->n)
        return -1;
    if (strcmp(reg, "w_state_q") == 0)
        *val = w->state[i];
    else if (strcmp(reg, "w_vpn_q") == 0)
        *val = w->vpn[i];
    else if (strcmp(reg, "w_asid_q") == 0)
        *val = w->asid[i];
    else if (strcmp(reg, "w_mshr_q") == 0)
        *val = w->mshr[i];
    else if (strcmp(reg, "w_level_q") == 0)
        *val = w->level[i];
    else if (strcmp(reg, "w_pcnt_q") == 0)
        *val = w->pcnt[i];
    else if (strcmp(reg, "w_addr_q") == 0)
        *val = w->addr[i] >> PTW_PTE_OFF_W;
    else
        return -1;
    return 0;
}
