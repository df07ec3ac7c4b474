/* l1_tlb.c - per-SM L1 TLB (RTL gmmu_l1_tlb, docs/microarch.md §4). */
#include "l1_tlb.h"

#include <stdlib.h>
#include <string.h>

#include "plru.h"

static void *zalloc(size_t n, size_t sz) {
    return calloc(n ? n : 1u, sz);
}

int l1_init(l1_t *l, uint32_t sm, const gmmu_params_t *p) {
    memset(l, 0, sizeof(*l));
    l->sm = sm;
    l->n_ports = p->num_ports;
    l->n_base = p->l1_entries;
    l->n_large = p->l1_large_entries;
    l->n_req = p->l1_req_entries;
    l->all = l->n_req >= 64u ? ~UINT64_C(0) : (GMMU_BIT(l->n_req) - 1u);
    l->b_valid = zalloc(l->n_base, 1);
    l->b_w = zalloc(l->n_base, 1);
    l->b_plru = zalloc(l->n_base, 1);
    l->b_vpn = zalloc(l->n_base, sizeof(uint64_t));
    l->b_ppn = zalloc(l->n_base, sizeof(uint64_t));
    l->g_valid = zalloc(l->n_large, 1);
    l->g_w = zalloc(l->n_large, 1);
    l->g_plru = zalloc(l->n_large, 1);
    l->g_region = zalloc(l->n_large, sizeof(uint32_t));
    l->g_lppn = zalloc(l->n_large, sizeof(uint32_t));
    if (!l->b_valid || !l->b_w || !l->b_plru || !l->b_vpn || !l->b_ppn || !l->g_valid || !l->g_w ||
        !l->g_plru || !l->g_region || !l->g_lppn) {
        l1_free(l);
        return -1;
    }
    return 0;
}

void l1_free(l1_t *l) {
    free(l->b_valid);
    free(l->b_w);
    free(l->b_plru);
    free(l->b_vpn);
    free(l->b_ppn);
    free(l->g_valid);
    free(l->g_w);
    free(l->g_plru);
    free(l->g_region);
    free(l->g_lppn);
    l->b_valid = l->b_w = l->b_plru = l->g_valid = l->g_w = l->g_plru = NULL;
    l->b_vpn = l->b_ppn = NULL;
    l->g_region = l->g_lppn = NULL;
}

l1_state_t l1_entry_state(const l1_t *l, uint32_t i) {
    const uint64_t b = GMMU_BIT(i);
    if (l->m_wait & b)
        return L1_WAIT;
    if (l->m_infl & b)
        return L1_INFL;
    if (l->m_done & b)
        return L1_DONE;
    if (l->m_nack & b)
        return L1_NACK;
    return L1_FREE;
}

static int same_key(const l1_t *l, uint32_t i, uint32_t j) {
    return l->r_vpn[i] == l->r_vpn[j] && l->r_write[i] == l->r_write[j];
}

void l1_comb(const l1_t *l, uint8_t cmd_cycle, l1_comb_t *c) {
    c->ready = (gmmu_popcount64(l1_free_mask(l)) >= l->n_ports) && !cmd_cycle;
    c->out = l->m_done ? (int)gmmu_ctz64(l->m_done) : -1;
    c->send = -1;
    for (uint64_t w = l->m_wait; w; w &= w - 1u) {
        const uint32_t i = gmmu_ctz64(w);
        int blocked = 0;
        for (uint64_t f = l->m_infl; f; f &= f - 1u) {
            if (same_key(l, i, gmmu_ctz64(f))) {
                blocked = 1;
                break;
            }
        }
        if (!blocked) {
            c->send = (int)i;
            break;
        }
    }
    c->req_valid = c->send >= 0;
    c->req_vpn = c->send >= 0 ? l->r_vpn[c->send] : 0;
    c->req_write = c->send >= 0 ? l->r_write[c->send] : 0;
}

void l1_outputs(const l1_t *l, const l1_comb_t *c, gmmu_out_t *out) {
    const uint32_t s = l->sm;
    out->req_ready[s] = c->ready;
    for (uint32_t p = 0; p < l->n_ports; p++) {
        out->hit_valid[s][p] = l->hv[p];
        out->hit_id[s][p] = l->hid[p];
        out->hit_ppn[s][p] = l->hppn[p];
    }
    if (c->out >= 0) {
        out->miss_valid[s] = 1;
        out->miss_id[s] = l->r_id[c->out];
        out->miss_ppn[s] = l->r_ppn[c->out];
        out->miss_fatal[s] = l->r_fatal[c->out];
    } else {
        out->miss_valid[s] = 0;
        out->miss_id[s] = 0;
        out->miss_ppn[s] = 0;
        out->miss_fatal[s] = 0;
    }
}

int l1_busy(const l1_t *l) {
    if (l->m_wait | l->m_infl | l->m_done)
        return 1;
    for (uint32_t p = 0; p < l->n_ports; p++)
        if (l->hv[p])
            return 1;
    return 0;
}

int l1_quiet(const l1_t *l) {
    if (l->m_done)
        return 0;
    for (uint32_t p = 0; p < l->n_ports; p++)
        if (l->hv[p])
            return 0;
    return 1;
}

/* Fill choice of §1.1 on _q state. */
static uint32_t fill_way_base(const l1_t *l, uint64_t vpn) {
    return plru_fill_pick64(l->b_valid, l->b_vpn, l->n_base, vpn, l->b_plru);
}

static uint32_t fill_way_large(const l1_t *l, uint32_t region) {
    return plru_fill_pick32(l->g_valid, l->g_region, l->n_large, region, l->g_plru);
}

enum { HIT_NONE = 0, HIT_BASE = 1, HIT_LARGE = 2 };

void l1_step(l1_t *l, const l1_comb_t *c, const l1_in_t *in, gmmu_viol_t *v) {
    const uint32_t P = l->n_ports;
    const uint64_t free_q = l1_free_mask(l);
    uint8_t acc[GMMU_MAX_PORTS], hk[GMMU_MAX_PORTS];
    uint32_t hidx[GMMU_MAX_PORTS];
    uint64_t hppn[GMMU_MAX_PORTS];

    /* Lookups of the accepted ports, on _q arrays. */
    for (uint32_t p = 0; p < P; p++) {
        acc[p] = c->ready && in->req_valid[p];
        hk[p] = HIT_NONE;
        hidx[p] = 0;
        hppn[p] = 0;
        if (!acc[p])
            continue;
        const uint64_t vpn = in->req_vpn[p] & GMMU_VPN_MASK;
        const uint8_t wr = in->req_write[p] ? 1u : 0u;
        const uint32_t region = (uint32_t)gmmu_region(vpn);
        unsigned nb = 0, ng = 0;
        for (uint32_t i = 0; i < l->n_base; i++) {
            if (l->b_valid[i] && l->b_vpn[i] == vpn) {
                nb++;
                if ((!wr || l->b_w[i]) && hk[p] == HIT_NONE) {
                    hk[p] = HIT_BASE;
                    hidx[p] = i;
                    hppn[p] = l->b_ppn[i];
                }
            }
        }
        for (uint32_t i = 0; i < l->n_large; i++) {
            if (l->g_valid[i] && l->g_region[i] == region) {
                ng++;
                if ((!wr || l->g_w[i]) && hk[p] == HIT_NONE) {
                    hk[p] = HIT_LARGE;
                    hidx[p] = i;
                    hppn[p] = ((uint64_t)l->g_lppn[i] << GMMU_PT_IDX_W) | (vpn & GMMU_IDX_MASK);
                }
            }
        }
        if (nb > 1 || ng > 1)
            gmmu_viol(v, "l1[%u]: multi-hit for vpn 0x%llx (%u base, %u large)", l->sm,
                      (unsigned long long)vpn, nb, ng);
    }

    /* (a) output */
    if (c->out >= 0)
        l->m_done &= ~GMMU_BIT(c->out);

    /* (b) send */
    if (in->grant) {
        if (c->send >= 0) {
            l->m_wait &= ~GMMU_BIT(c->send);
            l->m_infl |= GMMU_BIT(c->send);
        } else {
            gmmu_viol(v, "l1[%u]: granted without a request", l->sm);
        }
    }

    /* (c) response */
    int fill = HIT_NONE;
    uint32_t fill_idx = 0;
    const gmmu_rsp_t *r = in->rsp;
    if (r->valid && (r->mask >> l->sm) & 1u) {
        unsigned matched = 0;
        for (uint64_t m = l->m_wait | l->m_infl; m; m &= m - 1u) {
            const uint32_t i = gmmu_ctz64(m);
            if (l->r_vpn[i] != r->vpn || l->r_write[i] != r->write)
                continue;
            matched++;
            l->m_wait &= ~GMMU_BIT(i);
            l->m_infl &= ~GMMU_BIT(i);
            if (!r->nack) {
                l->m_done |= GMMU_BIT(i);
                l->r_ppn[i] =
                    r->large ? ((r->ppn & ~GMMU_IDX_MASK) | (l->r_vpn[i] & GMMU_IDX_MASK)) : r->ppn;
                l->r_fatal[i] = 0;
            } else {
                l->m_nack |= GMMU_BIT(i);
            }
        }
        if (!matched)
            v->orphan_rsp++;
        if (!r->nack && !r->nocache) {
            if (r->large) {
                const uint32_t region = (uint32_t)gmmu_region(r->vpn);
                fill = HIT_LARGE;
                fill_idx = fill_way_large(l, region);
                l->g_valid[fill_idx] = 1;
                l->g_region[fill_idx] = region;
                l->g_lppn[fill_idx] = (uint32_t)((r->ppn & GMMU_PPN_MASK) >> GMMU_PT_IDX_W);
                l->g_w[fill_idx] = r->w;
            } else {
                fill = HIT_BASE;
                fill_idx = fill_way_base(l, r->vpn);
                l->b_valid[fill_idx] = 1;
                l->b_vpn[fill_idx] = r->vpn;
                l->b_ppn[fill_idx] = r->ppn;
                l->b_w[fill_idx] = r->w;
            }
        }
    }

    /* (d) replay */
    if (in->replay) {
        l->m_wait |= l->m_nack;
        l->m_nack = 0;
    }

    /* (e) cancel */
    if (in->cancel_valid) {
        for (uint64_t m = l->m_nack; m; m &= m - 1u) {
            const uint32_t i = gmmu_ctz64(m);
            if (l->r_vpn[i] == in->cancel_vpn) {
                l->m_nack &= ~GMMU_BIT(i);
                l->m_done |= GMMU_BIT(i);
                l->r_fatal[i] = 1;
                l->r_ppn[i] = 0;
            }
        }
    }

    /* (f) allocate + hit registers */
    uint64_t fr = free_q;
    for (uint32_t p = 0; p < P; p++) {
        l->hv[p] = 0;
        l->hid[p] = 0;
        l->hppn[p] = 0;
        if (!acc[p])
            continue;
        if (hk[p] != HIT_NONE) {
            l->hv[p] = 1;
            l->hid[p] = in->req_id[p];
            l->hppn[p] = hppn[p];
            continue;
        }
        if (!fr) {
            gmmu_viol(v, "l1[%u]: accepted miss on port %u finds no FREE entry", l->sm, p);
            continue;
        }
        const uint32_t i = gmmu_ctz64(fr);
        fr &= fr - 1u;
        l->m_wait |= GMMU_BIT(i);
        l->r_vpn[i] = in->req_vpn[p] & GMMU_VPN_MASK;
        l->r_write[i] = in->req_write[p] ? 1u : 0u;
        l->r_id[i] = in->req_id[p];
        l->r_ppn[i] = 0;
        l->r_fatal[i] = 0;
    }

    /* PLRU: hits in port order, then the fill */
    for (uint32_t p = 0; p < P; p++) {
        if (hk[p] == HIT_BASE)
            plru_touch(l->b_plru, l->n_base, hidx[p]);
        else if (hk[p] == HIT_LARGE)
            plru_touch(l->g_plru, l->n_large, hidx[p]);
    }
    if (fill == HIT_BASE)
        plru_touch(l->b_plru, l->n_base, fill_idx);
    else if (fill == HIT_LARGE)
        plru_touch(l->g_plru, l->n_large, fill_idx);

    /* (g) flush, on the _d values above */
    const gmmu_flush_t *fl = &in->flush;
    if (fl->kind == GMMU_FLUSH_ALL) {
        memset(l->b_valid, 0, l->n_base);
        memset(l->g_valid, 0, l->n_large);
        l->m_wait |= l->m_done;
        l->m_done = 0;
    } else if (fl->kind == GMMU_FLUSH_PAGE) {
        const uint32_t region = (uint32_t)gmmu_region(fl->vpn);
        for (uint32_t i = 0; i < l->n_base; i++)
            if (l->b_vpn[i] == fl->vpn)
                l->b_valid[i] = 0;
        for (uint32_t i = 0; i < l->n_large; i++)
            if (l->g_region[i] == region)
                l->g_valid[i] = 0;
        for (uint64_t m = l->m_done; m; m &= m - 1u) {
            const uint32_t i = gmmu_ctz64(m);
            if (gmmu_region(l->r_vpn[i]) == region) {
                l->m_done &= ~GMMU_BIT(i);
                l->m_wait |= GMMU_BIT(i);
            }
        }
    }
}

static const char *const l1_state_name[] = {"FREE", "WAIT", "INFL", "DONE", "NACK"};

void l1_dump(const l1_t *l, FILE *f) {
    fprintf(f, "l1[%u]:\n", l->sm);
    for (uint32_t p = 0; p < l->n_ports; p++)
        if (l->hv[p])
            fprintf(f, "  hit[%u] id=%u ppn=0x%llx\n", p, l->hid[p],
                    (unsigned long long)l->hppn[p]);
    for (uint32_t i = 0; i < l->n_req; i++) {
        const l1_state_t st = l1_entry_state(l, i);
        if (st != L1_FREE)
            fprintf(f, "  req[%u] %s vpn=0x%llx write=%u id=%u ppn=0x%llx fatal=%u\n", i,
                    l1_state_name[st], (unsigned long long)l->r_vpn[i], l->r_write[i], l->r_id[i],
                    (unsigned long long)l->r_ppn[i], l->r_fatal[i]);
    }
    for (uint32_t i = 0; i < l->n_base; i++)
        if (l->b_valid[i])
            fprintf(f, "  base[%u] vpn=0x%llx ppn=0x%llx w=%u\n", i,
                    (unsigned long long)l->b_vpn[i], (unsigned long long)l->b_ppn[i], l->b_w[i]);
    for (uint32_t i = 0; i < l->n_large; i++)
        if (l->g_valid[i])
            fprintf(f, "  large[%u] region=0x%x lppn=0x%x w=%u\n", i, l->g_region[i], l->g_lppn[i],
                    l->g_w[i]);
    fprintf(f, "  plru base:");
    for (uint32_t i = 0; i + 1u < l->n_base; i++)
        fprintf(f, "%u", l->b_plru[i]);
    fprintf(f, " large:");
    for (uint32_t i = 0; i + 1u < l->n_large; i++)
        fprintf(f, "%u", l->g_plru[i]);
    fprintf(f, "\n");
}
