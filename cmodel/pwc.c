/* pwc.c - page-walk cache (RTL gmmu_pwc, docs/microarch.md §16). */
#include "pwc.h"

#include <string.h>

void pwc_init(pwc_t *c, uint32_t entries, uint32_t num_asids) {
    memset(c, 0, sizeof(*c));
    c->n = entries;
    c->asid_mask = (uint8_t)(num_asids - 1u);
}

uint32_t pwc_pfx(uint64_t vpn, unsigned lvl) {
    const unsigned low = lvl >= 2u ? 0u : GMMU_PT_IDX_W * (2u - lvl);
    return (uint32_t)((gmmu_region(vpn) >> low) << low);
}

static int pwc_match(const pwc_t *c, uint32_t e, uint8_t asid, unsigned lvl, uint32_t pfx) {
    return c->v[e] && c->asid[e] == asid && c->lvl[e] == lvl && c->pfx[e] == pfx;
}

void pwc_lookup(const pwc_t *c, uint8_t asid, uint64_t vpn, pwc_hit_t *h) {
    memset(h, 0, sizeof(*h));
    for (unsigned lvl = 0; lvl < 3u; lvl++) {
        const uint32_t pfx = pwc_pfx(vpn, lvl);
        for (uint32_t e = 0; e < c->n; e++) {
            if (pwc_match(c, e, asid, lvl, pfx)) {
                h->hit = 1;
                h->lvl = lvl;
                h->next = c->next[e];
                h->l = c->l[e];
                break;
            }
        }
    }
}

void pwc_fill(pwc_t *c, uint8_t asid, unsigned lvl, uint64_t vpn, uint64_t next, uint8_t l) {
    const uint32_t pfx = pwc_pfx(vpn, lvl);
    int same = -1, inv = -1;
    for (uint32_t e = 0; e < c->n; e++) {
        if (same < 0 && pwc_match(c, e, asid, lvl, pfx))
            same = (int)e;
        if (inv < 0 && !c->v[e])
            inv = (int)e;
    }
    uint32_t e;
    if (same >= 0) {
        e = (uint32_t)same;
    } else if (inv >= 0) {
        e = (uint32_t)inv;
    } else {
        e = c->rr;
        c->rr = c->rr + 1u == c->n ? 0u : c->rr + 1u;
    }
    c->v[e] = 1;
    c->asid[e] = (uint8_t)(asid & c->asid_mask);
    c->lvl[e] = (uint8_t)lvl;
    c->pfx[e] = pfx;
    c->next[e] = next;
    c->l[e] = l;
}

void pwc_flush(pwc_t *c, const gmmu_flush_t *f) {
    if (f->kind == GMMU_FLUSH_NONE)
        return;
    for (uint32_t e = 0; e < c->n; e++) {
        if (f->scope && c->asid[e] != f->asid)
            continue;
        if (f->kind == GMMU_FLUSH_ALL || c->pfx[e] == pwc_pfx(f->vpn, c->lvl[e]))
            c->v[e] = 0;
    }
}

void pwc_dump(const pwc_t *c, FILE *f) {
    if (c->n == 0)
        return;
    fprintf(f, "pwc: rr=%u\n", c->rr);
    for (uint32_t e = 0; e < c->n; e++)
        if (c->v[e])
            fprintf(f, "  entry[%u] asid=%u lvl=%u pfx=0x%x next=0x%llx l=%u\n", e, c->asid[e],
                    c->lvl[e], c->pfx[e], (unsigned long long)c->next[e], c->l[e]);
}

int pwc_state_get(const pwc_t *c, const char *reg, uint32_t i, uint64_t *val) {
    if (strcmp(reg, "pv_q") == 0 || strcmp(reg, "prr_q") == 0) {
        *val = reg[1] == 'v' ? gmmu_pack_bits(c->v, c->n) : c->rr;
        return i == 0 ? 0 : -1;
    }
    if (i >= c->n)
        return -1;
    if (strcmp(reg, "pasid_q") == 0)
        *val = c->asid[i];
    else if (strcmp(reg, "plvl_q") == 0)
        *val = c->lvl[i];
    else if (strcmp(reg, "ppfx_q") == 0)
        *val = c->pfx[i];
    else
        return -1;
    return 0;
}
