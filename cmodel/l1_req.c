/* l1_req.c - L1 request table (RTL gmmu_l1_req_table, docs/microarch.md §4). */
#include "l1_req.h"

#include <string.h>

void l1_req_init(l1_req_t *r, uint32_t n) {
    memset(r, 0, sizeof(*r));
    r->n = n;
    r->all = n >= 64u ? ~UINT64_C(0) : (GMMU_BIT(n) - 1u);
}

l1_state_t l1_req_state(const l1_req_t *r, uint32_t i) {
    const uint64_t b = GMMU_BIT(i);
    if (r->m_wait & b)
        return L1_WAIT;
    if (r->m_infl & b)
        return L1_INFL;
    if (r->m_done & b)
        return L1_DONE;
    if (r->m_nack & b)
        return L1_NACK;
    return L1_FREE;
}

unsigned l1_req_response(l1_req_t *r, const gmmu_rsp_t *rsp, uint8_t blocking) {
    unsigned matched = 0;
    for (uint64_t m = r->m_wait | r->m_infl; m; m &= m - 1u) {
        const uint32_t i = gmmu_ctz64(m);
        l1_req_entry_t *e = &r->ent[i];
        if (e->vpn != rsp->r.req.vpn || e->write != rsp->r.req.write || e->asid != rsp->r.req.asid)
            continue;
        matched++;
        r->m_wait &= ~GMMU_BIT(i);
        r->m_infl &= ~GMMU_BIT(i);
        if (!rsp->r.nack) {
            r->m_done |= GMMU_BIT(i);
            e->ppn = rsp->r.is_large ? ((rsp->r.ppn & ~GMMU_IDX_MASK) | (e->vpn & GMMU_IDX_MASK))
                                     : rsp->r.ppn;
            e->fatal = 0;
            e->sys = rsp->r.sys;
        } else {
            r->m_nack |= GMMU_BIT(i);
            if (blocking)
                r->m_flt |= GMMU_BIT(i);
        }
    }
    return matched;
}

void l1_req_cancel(l1_req_t *r, uint8_t asid, uint64_t vpn) {
    for (uint64_t m = r->m_nack; m; m &= m - 1u) {
        const uint32_t i = gmmu_ctz64(m);
        if (r->ent[i].vpn == vpn && r->ent[i].asid == asid) {
            r->m_nack &= ~GMMU_BIT(i);
            r->m_done |= GMMU_BIT(i);
            r->ent[i].fatal = 1;
            r->ent[i].ppn = 0;
            r->ent[i].sys = 0;
        }
    }
}

int l1_req_alloc(l1_req_t *r, uint64_t *free_q, uint8_t asid, uint64_t vpn, uint8_t write,
                 uint8_t id) {
    if (!*free_q)
        return -1;
    const uint32_t i = gmmu_ctz64(*free_q);
    *free_q &= *free_q - 1u;
    r->m_wait |= GMMU_BIT(i);
    r->m_flt &= ~GMMU_BIT(i);
    r->ent[i] =
        (l1_req_entry_t){.asid = asid, .vpn = vpn, .ppn = 0, .write = write, .id = id, .fatal = 0};
    return 0;
}

void l1_req_flush(l1_req_t *r, const gmmu_flush_t *fl) {
    if (fl->kind == GMMU_FLUSH_ALL && !fl->scope) {
        r->m_wait |= r->m_done;
        r->m_done = 0;
    } else if (fl->kind != GMMU_FLUSH_NONE) {
        for (uint64_t m = r->m_done; m; m &= m - 1u) {
            const uint32_t i = gmmu_ctz64(m);
            if (gmmu_flush_match(fl, r->ent[i].asid, r->ent[i].vpn)) {
                r->m_done &= ~GMMU_BIT(i);
                r->m_wait |= GMMU_BIT(i);
            }
        }
    }
}

static const char *const l1_state_name[] = {"FREE", "WAIT", "INFL", "DONE", "NACK"};

void l1_req_dump(const l1_req_t *r, FILE *f) {
    for (uint32_t i = 0; i < r->n; i++) {
        const l1_state_t st = l1_req_state(r, i);
        const l1_req_entry_t *e = &r->ent[i];
        if (st != L1_FREE)
            fprintf(f,
                    "  req[%u] %s asid=%u vpn=0x%llx write=%u id=%u ppn=0x%llx fatal=%u flt=%u\n",
                    i, l1_state_name[st], e->asid, (unsigned long long)e->vpn, e->write, e->id,
                    (unsigned long long)e->ppn, e->fatal, (unsigned)((r->m_flt >> i) & 1u));
    }
}

int l1_req_state_get(const l1_req_t *r, const char *reg, uint32_t i, uint32_t word, uint64_t *val) {
    if (strcmp(reg, "flt_q") == 0 && i == 0 && word == 0) {
        *val = r->m_flt;
        return 0;
    }
    if (i >= r->n)
        return -1;
    if (strcmp(reg, "state_q") == 0 && word == 0)
        *val = (uint64_t)l1_req_state(r, i);
    else if (strcmp(reg, "ent_q") == 0 && word < 2)
        *val = gmmu_l1_req_entry_word(&r->ent[i], word); /* spec/tlb.toml, generated */
    else
        return -1;
    return 0;
}
