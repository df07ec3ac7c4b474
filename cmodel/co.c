/* co.c - the coalesce unit (RTL gmmu_co, docs/microarch.md §15.3). */
#include "co.h"

#include <string.h>

#define CO_LAST_IDX 511u /* the last level-3 entry of a table */

void co_init(co_t *c, const gmmu_params_t *p) {
    memset(c, 0, sizeof(*c));
    c->asid_mask = (uint8_t)(p->num_asids - 1u);
}

static uint64_t co_pte_addr(uint64_t base, uint64_t idx) {
    return ((base << GMMU_PAGE_SHIFT) + 8u * (idx & GMMU_IDX_MASK)) & GMMU_PA_MASK;
}

/* table index of level l of vpn = {region, 9'b0}: vpn[35-9l -: 9] */
static uint64_t co_lvl_idx(uint32_t region, unsigned l) {
    const uint64_t vpn = (uint64_t)region << GMMU_PT_IDX_W;
    return (vpn >> (GMMU_PT_IDX_W * (GMMU_PT_LEVELS - 1u - l))) & GMMU_IDX_MASK;
}

void co_req(const co_t *c, co_req_t *r) {
    memset(r, 0, sizeof(*r));
    switch (c->state) {
    case CO_PATH:
        r->valid = !c->pend;
        r->addr = co_pte_addr(c->tbl, co_lvl_idx(c->region, c->lvl));
        break;
    case CO_CHECK:
    case CO_ERD:
        r->valid = !c->pend;
        r->addr = co_pte_addr(c->l4, c->idx);
        break;
    case CO_EWR:
        r->valid = 1;
        r->write = 1;
        r->addr = co_pte_addr(c->l4, c->idx);
        break;
    case CO_LRD:
        r->valid = !c->pend;
        r->addr = co_pte_addr(c->tbl, c->region & GMMU_IDX_MASK);
        break;
    case CO_LWR:
        r->valid = 1;
        r->write = 1;
        r->addr = co_pte_addr(c->tbl, c->region & GMMU_IDX_MASK);
        break;
    default:
        break;
    }
}

static void co_finish(co_t *c, uint8_t err, uint16_t *ev) {
    c->state = CO_IDLE;
    c->err = err;
    *ev |= (uint16_t)(1u << GMMU_EV_CO_DONE);
}

/* step 1: the request register took a write */
static void co_write_taken(co_t *c, uint16_t *ev) {
    if (c->state == CO_EWR) {
        if (c->idx == CO_LAST_IDX) {
            if (c->op == 0)
                c->state = CO_LRD;
            else
                co_finish(c, GMMU_CO_OK, ev);
        } else {
            c->idx++;
            c->state = CO_ERD;
        }
    } else if (c->op == 0) { /* CO_LWR */
        co_finish(c, GMMU_CO_OK, ev);
    } else {
        c->state = CO_FLUSH;
    }
}

/* step 2, state CHECK: entry idx of the region's level-3 table */
static void co_check(co_t *c, uint64_t pte, uint16_t *ev) {
    const uint64_t ppn = (pte >> GMMU_PTE_PPN_LSB) & GMMU_PPN_MASK;
    const uint8_t w = (uint8_t)((pte >> GMMU_PTE_W) & 1u);
    const uint8_t a = (uint8_t)((pte >> GMMU_PTE_APER) & 1u);
    if (!((pte >> GMMU_PTE_V) & 1u)) {
        co_finish(c, GMMU_CO_NOT_MAPPED, ev);
        return;
    }
    if (c->idx == 0) {
        c->lppn = (uint32_t)(ppn >> GMMU_PT_IDX_W);
        c->w0 = w;
        c->a0 = a;
        if (ppn & GMMU_IDX_MASK) {
            co_finish(c, GMMU_CO_NOT_CONTIG, ev);
            return;
        }
    } else if (ppn != (((uint64_t)c->lppn << GMMU_PT_IDX_W) | c->idx) || w != c->w0 || a != c->a0) {
        co_finish(c, GMMU_CO_NOT_CONTIG, ev);
        return;
    }
    if (c->idx == CO_LAST_IDX) {
        c->idx = 0;
        c->state = CO_ERD;
    } else {
        c->idx++;
    }
}

/* step 2: the response to the unit's read */
static void co_response(co_t *c, uint64_t pte, uint16_t *ev) {
    const uint64_t ppn = (pte >> GMMU_PTE_PPN_LSB) & GMMU_PPN_MASK;
    c->pend = 0;
    switch (c->state) {
    case CO_PATH:
        if (!((pte >> GMMU_PTE_V) & 1u)) {
            co_finish(c, GMMU_CO_NOT_MAPPED, ev);
        } else if (c->lvl < 2u) {
            c->tbl = ppn;
            c->lvl++;
        } else {
            c->l4 = ppn;
            c->idx = 0;
            c->state = c->op == 0 ? CO_CHECK : CO_LRD;
        }
        break;
    case CO_CHECK:
        co_check(c, pte, ev);
        break;
    case CO_ERD:
        c->dat = c->op == 0 ? (pte | GMMU_BIT(GMMU_PTE_D)) : (pte & ~GMMU_BIT(GMMU_PTE_D));
        c->state = CO_EWR;
        break;
    default: /* CO_LRD */
        c->dat = c->op == 0 ? (pte | GMMU_BIT(GMMU_PTE_L)) : (pte & ~GMMU_BIT(GMMU_PTE_L));
        c->state = CO_LWR;
        break;
    }
}

void co_step(co_t *c, const co_in_t *in, uint16_t *ev, gmmu_viol_t *v) {
    const uint8_t state_q = c->state, pend_q = c->pend;
    const int read_state =
        state_q == CO_PATH || state_q == CO_CHECK || state_q == CO_ERD || state_q == CO_LRD;
    /* 1. taken */
    if (in->taken) {
        if (read_state)
            c->pend = 1;
        else
            co_write_taken(c, ev);
    }
    /* 2. response (only while a read is awaited, §15.2) */
    if (in->rsp_valid) {
        if (read_state && pend_q)
            co_response(c, in->rsp_data, ev);
        else
            gmmu_viol(v, "co: memory response with CO_MEM_ID while no read is awaited");
    }
    /* 3. flush */
    if (state_q == CO_FLUSH) {
        c->idx = 0;
        c->state = CO_ERD;
    }
    /* 4. start */
    if (in->start) {
        if (state_q != CO_IDLE)
            gmmu_viol(v, "co: command started while the unit is busy");
        c->state = CO_PATH;
        c->op = in->start_op == GMMU_CMD_SPLINTER ? 1u : 0u;
        c->asid = in->cmd_asid & c->asid_mask;
        c->region = (uint32_t)gmmu_region(in->cmd_vpn);
        c->lvl = 0;
        c->pend = 0;
        c->tbl = (in->pt_base[c->asid] >> GMMU_PAGE_SHIFT) & GMMU_PPN_MASK;
        c->err = GMMU_CO_OK;
    }
}

static const char *const co_state_name[] = {"IDLE", "PATH", "CHECK", "ERD",
                                            "EWR",  "LRD",  "LWR",   "FLUSH"};

void co_dump(const co_t *c, FILE *f) {
    fprintf(f,
            "co: %s op=%u asid=%u region=0x%x lvl=%u idx=%u pend=%u err=%u tbl=0x%llx l4=0x%llx "
            "dat=0x%llx lppn=0x%x w0=%u\n",
            co_state_name[c->state & 7u], c->op, c->asid, c->region, c->lvl, c->idx, c->pend,
            c->err, (unsigned long long)c->tbl, (unsigned long long)c->l4,
            (unsigned long long)c->dat, c->lppn, c->w0);
}

int co_state_get(const co_t *c, const char *reg, uint32_t i, uint64_t *val) {
    const struct {
        const char *name;
        uint64_t v;
    } regs[] = {{"co_state_q", c->state},   {"co_op_q", c->op},   {"co_asid_q", c->asid},
                {"co_region_q", c->region}, {"co_lvl_q", c->lvl}, {"co_idx_q", c->idx},
                {"co_tbl_q", c->tbl},       {"co_l4_q", c->l4},   {"co_dat_q", c->dat},
                {"co_lppn_q", c->lppn},     {"co_w0_q", c->w0},   {"co_a0_q", c->a0},
                {"co_pend_q", c->pend},     {"co_err_q", c->err}};
    for (size_t k = 0; k < sizeof(regs) / sizeof(regs[0]); k++) {
        if (strcmp(reg, regs[k].name) == 0) {
            *val = regs[k].v;
            return i == 0 ? 0 : -1;
        }
    }
    return -1;
}
