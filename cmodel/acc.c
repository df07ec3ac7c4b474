/* acc.c - access-counter unit (RTL gmmu_acc, docs/microarch.md §19). */
#include "acc.h"

#include <string.h>

#include "gmmu_consts.h"

void acc_init(acc_t *a, uint32_t n, uint32_t num_asids) {
    memset(a, 0, sizeof(*a));
    a->n = n;
    a->asid_mask = num_asids - 1u;
}

int acc_busy(const acc_t *a) {
    return a->nw_valid;
}

unsigned acc_gran_shift(uint8_t gran) {
    if (gran == GMMU_ACC_GRAN_2M)
        return 9u;
    if (gran == GMMU_ACC_GRAN_16M)
        return 12u;
    return 4u;
}

/* Sub-region bits of page vpn in a region of shift g (§19.3). */
static uint32_t sub_bits(uint64_t vpn, unsigned g) {
    if (g == 4u)
        return UINT32_C(3) << (2u * (unsigned)(vpn & 0xfu));
    return UINT32_C(1) << (unsigned)((vpn >> (g - 5u)) & 31u);
}

/* Load the notification write register (§19.4). */
static void notify(acc_t *a, const acc_in_t *in, uint32_t rgn, unsigned g, uint32_t c, uint32_t m) {
    const uint64_t va = ((uint64_t)rgn << (g + 12u)) & ((UINT64_C(1) << 48) - 1u);
    a->nw_valid = 1;
    a->nw_addr = (in->base + (uint64_t)GMMU_FB_ENTRY_BYTES * a->put) & ((UINT64_C(1) << 48) - 1u);
    memset(a->nw_data, 0, sizeof(a->nw_data));
    a->nw_data[0] = in->obs_remote ? (uint32_t)GMMU_ACC_APER_SYS << GMMU_ACC_APER_LSB : 0u;
    a->nw_data[1] = (uint32_t)(in->obs_asid & a->asid_mask);
    a->nw_data[2] = (uint32_t)(va & 0xffffffffu);
    a->nw_data[3] = (uint32_t)(va >> 32);
    a->nw_data[4] = m;
    a->nw_data[6] = c;
    a->nw_data[7] = UINT32_C(1) << 31;
    a->put = (uint16_t)((a->put + 1u) & (in->size - 1u));
}

/* Count one observation (§19.3); returns 1 if it crossed the threshold into an overflow. */
static int count(acc_t *a, const acc_in_t *in, acc_ev_t *ev) {
    const unsigned g = acc_gran_shift(in->gran);
    const uint32_t rgn = (uint32_t)(in->obs_vpn >> g);
    const uint8_t asid = (uint8_t)(in->obs_asid & a->asid_mask);
    int hit = -1, fr = -1;
    for (unsigned i = 0; i < a->n; i++) {
        const acc_entry_t *e = &a->e[i];
        if (hit < 0 && e->valid && e->cls == in->obs_remote && e->asid == asid && e->rgn == rgn)
            hit = (int)i;
        if (fr < 0 && !e->valid)
            fr = (int)i;
    }
    uint32_t c = 1, m = sub_bits(in->obs_vpn, g);
    unsigned sel;
    if (hit >= 0) {
        sel = (unsigned)hit;
        c = a->e[sel].cnt + 1u;
        m |= a->e[sel].mask;
    } else if (fr >= 0) {
        sel = (unsigned)fr;
    } else {
        sel = a->arr;
        ev->repl = a->e[sel].valid;
        a->arr = a->arr + 1u >= a->n ? 0u : a->arr + 1u;
    }
    const int cross = c >= in->thresh;
    acc_entry_t *e = &a->e[sel];
    e->valid = (uint8_t)!cross;
    e->cls = in->obs_remote;
    e->asid = asid;
    e->rgn = rgn;
    e->cnt = (uint16_t)c;
    e->mask = m;
    if (!cross)
        return 0;
    if (in->size == 0u || ((a->put + 1u) & (in->size - 1u)) == in->get) {
        a->overflow = 1;
        ev->ovf = 1;
        return 1;
    }
    notify(a, in, rgn, g, c, m);
    ev->notify = 1;
    return 0;
}

void acc_cycle(acc_t *a, const acc_in_t *in, acc_ev_t *ev) {
    memset(ev, 0, sizeof(*ev));
    const int nw_free = !a->nw_valid || in->wr_ready;
    if (a->nw_valid && in->wr_ready) {
        a->nw_valid = 0;
        a->nw_data[7] = 0; /* w7 is VALID = nw_valid_q; the other words hold their value */
    }
    int ovf_set = 0;
    const uint8_t en = in->obs_remote ? in->en_remote : in->en_local;
    if (in->obs_valid && en && nw_free) {
        ev->count = 1;
        ovf_set = count(a, in, ev);
    }
    /* clears, last (§19.5) */
    if (in->clear_all)
        for (unsigned i = 0; i < a->n; i++)
            a->e[i].valid = 0;
    if (in->clear) {
        const uint32_t crgn = (uint32_t)(in->cmd_vpn >> acc_gran_shift(in->gran));
        const uint8_t casid = (uint8_t)(in->cmd_asid & a->asid_mask);
        for (unsigned i = 0; i < a->n; i++)
            if (a->e[i].asid == casid && a->e[i].rgn == crgn)
                a->e[i].valid = 0;
    }
    /* host ring writes, after the unit's own update */
    if (in->size_wr) {
        a->put = 0;
        a->overflow = 0;
    }
    if (in->ovf_clr && !ovf_set)
        a->overflow = 0;
}

static int acc_entry_get(const acc_t *a, const char *reg, uint32_t i, uint64_t *val) {
    if (i >= a->n)
        return -1;
    const acc_entry_t *e = &a->e[i];
    if (strcmp(reg, "e_asid_q") == 0)
        *val = e->asid;
    else if (strcmp(reg, "e_rgn_q") == 0)
        *val = e->rgn;
    else if (strcmp(reg, "e_cnt_q") == 0)
        *val = e->cnt;
    else if (strcmp(reg, "e_mask_q") == 0)
        *val = e->mask;
    else
        return -1;
    return 0;
}

int acc_state_get(const acc_t *a, const char *reg, uint32_t i, uint32_t word, uint64_t *val) {
    if (word != 0)
        return -1;
    if (strcmp(reg, "e_valid_q") == 0) { /* packed: one bit per entry */
        uint64_t b = 0;
        for (uint32_t k = 0; k < a->n && k < 64u; k++)
            b |= (uint64_t)(a->e[k].valid & 1u) << k;
        return i == 0 ? (*val = b, 0) : -1;
    }
    if (strcmp(reg, "e_cls_q") == 0) /* unpacked, one bit per element */
        return i < a->n ? (*val = a->e[i].cls & 1u, 0) : -1;
    if (strncmp(reg, "e_", 2) == 0)
        return acc_entry_get(a, reg, i, val);
    if (i != 0)
        return -1;
    const uint64_t va = (uint64_t)a->nw_data[2] | ((uint64_t)a->nw_data[3] << 32);
    if (strcmp(reg, "arr_q") == 0)
        *val = a->arr;
    else if (strcmp(reg, "put_q") == 0)
        *val = a->put;
    else if (strcmp(reg, "ovf_q") == 0)
        *val = a->overflow;
    else if (strcmp(reg, "nw_valid_q") == 0)
        *val = a->nw_valid;
    else if (strcmp(reg, "nw_addr_q") == 0)
        *val = a->nw_addr / GMMU_FB_ENTRY_BYTES;
    else if (strcmp(reg, "nw_cls_q") == 0)
        *val = a->nw_data[0] != 0u;
    else if (strcmp(reg, "nw_asid_q") == 0)
        *val = a->nw_data[1];
    else if (strcmp(reg, "nw_va_q") == 0)
        *val = va;
    else if (strcmp(reg, "nw_cnt_q") == 0)
        *val = a->nw_data[6];
    else if (strcmp(reg, "nw_mask_q") == 0)
        *val = a->nw_data[4];
    else
        return -1;
    return 0;
}
