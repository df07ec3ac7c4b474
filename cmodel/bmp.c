/* bmp.c - referenced-line bitmap write-back queue and BMP_FLUSH scanner (docs/microarch.md
 * §20.4, §20.5). */
#include "bmp.h"

#include <string.h>

void bmp_init(bmp_t *b, uint32_t n_scan) {
    memset(b, 0, sizeof(*b));
    b->n_scan = n_scan;
}

/* One push on a slot of _q (*free counts them down); returns 1 if the bitmap is lost. */
static int bmp_push(bmp_t *b, const bmp_in_t *in, uint32_t *free, uint64_t vpn, uint32_t bmp) {
    if (bmp == 0)
        return 0;
    if (!bmp_in_table(in->vpn0, in->pages, vpn) || *free == 0)
        return 1;
    b->q[(b->head + b->count) % GMMU_BMP_Q] = (bmp_dep_t){vpn, bmp};
    b->count++;
    (*free)--;
    return 0;
}

void bmp_step(bmp_t *b, const bmp_in_t *in, bmp_out_t *out) {
    memset(out, 0, sizeof(*out));
    uint32_t free = GMMU_BMP_Q - b->count; /* slots the head frees this cycle not counted */
    const uint32_t count_q = b->count;
    /* the scanner first (§20.4): it visits entry bs_idx_q only when a slot of _q is free */
    if (b->bs_busy && b->bs_idx < b->n_scan && free > 0) {
        out->scan_take = 1;
        out->lost += (uint32_t)bmp_push(b, in, &free, in->scan_vpn, in->scan_bmp);
        b->bs_idx++;
    } else if (b->bs_busy && b->bs_idx >= b->n_scan && count_q == 0 && !in->mr_bmp) {
        b->bs_busy = 0;
        out->done = 1;
    }
    for (uint32_t i = 0; i < in->n_dep; i++)
        out->lost += (uint32_t)bmp_push(b, in, &free, in->dep[i].vpn, in->dep[i].bmp);
    /* the head (of _q) goes to the walker's request register at the lowest priority (§20.5) */
    if (count_q > 0 && in->load_ok) {
        const bmp_dep_t h = b->q[b->head];
        out->load = 1;
        out->addr = bmp_word_addr(in->base, h.vpn - in->vpn0);
        out->wdata = bmp_word_data(h.vpn - in->vpn0, h.bmp);
        b->head = (b->head + 1u) % GMMU_BMP_Q;
        b->count--;
    }
    if (in->start) {
        b->bs_busy = 1;
        b->bs_idx = 0;
    }
}

int bmp_state_get(const bmp_t *b, const char *reg, uint32_t i, uint64_t *val) {
    if (i < GMMU_BMP_Q && strcmp(reg, "q_vpn_q") == 0)
        return (*val = b->q[i].vpn, 0);
    if (i < GMMU_BMP_Q && strcmp(reg, "q_bmp_q") == 0)
        return (*val = b->q[i].bmp, 0);
    if (i != 0)
        return -1;
    if (strcmp(reg, "bs_busy_q") == 0)
        *val = b->bs_busy;
    else if (strcmp(reg, "bs_idx_q") == 0)
        *val = b->bs_idx;
    else if (strcmp(reg, "head_q") == 0)
        *val = b->head;
    else if (strcmp(reg, "cnt_q") == 0)
        *val = b->count;
    else
        return -1;
    return 0;
}
