/*
 * bmp.h - the referenced-line bitmap write-back queue and the BMP_FLUSH scanner
 * (docs/microarch.md §20.4, §20.5; the RTL block gmmu_bmp is not built yet, §20.7).
 * Block level: gmmu_top does not instantiate it yet (line_bitmap = 1 is refused by
 * gmmu_model_new), the unit tests drive it directly.
 */
#ifndef GMMU_BMP_H
#define GMMU_BMP_H

#include <stdint.h>

#include "gmmu_consts.h"

/* A departing bitmap (§20.4): the page and its referenced lines. */
typedef struct {
    uint64_t vpn;
    uint32_t bmp;
} bmp_dep_t;

typedef struct {
    uint32_t n_scan; /* entries the scanner visits: NumSm * L1Entries */
    bmp_dep_t q[GMMU_BMP_Q];
    uint32_t head, count; /* queue: head slot, slots in use */
    uint8_t bs_busy;      /* bs_busy_q: BMP_FLUSH executing (CMD_STATUS.BUSY) */
    uint32_t bs_idx;      /* bs_idx_q: next entry, sm * L1Entries + entry */
} bmp_t;

/* Inputs of one edge. */
typedef struct {
    uint64_t base;  /* BMP_BASE (8-byte aligned) */
    uint32_t pages; /* BMP_PAGES: pages with a table word, 0 = off */
    uint64_t vpn0;  /* BMP_VPN0 << 4: the window's first page */
    /* this cycle's departures in push order: fill evictions (SM order), then flushes (SM, entry) */
    const bmp_dep_t *dep;
    uint32_t n_dep;
    uint32_t scan_bmp; /* bitmap (_q) of entry bs_idx_q (0 if invalid or past the end) */
    uint64_t scan_vpn; /* its vpn */
    uint8_t load_ok;   /* request register free and loaded by no walker / coalesce unit */
    uint8_t mr_bmp;    /* the request register holds a bitmap write not yet transferred */
    uint8_t start;     /* BMP_FLUSH executes this cycle (a command cycle) */
} bmp_in_t;

/* Outputs of one edge (decided on _q, applied by bmp_step). */
typedef struct {
    uint8_t load;   /* the head is loaded into the request register: */
    uint64_t addr;  /*   mem_req_addr = BMP_BASE + 8 * (i >> 1), i = vpn - vpn0 */
    uint64_t wdata; /*   set-bits data = bmp << (32 * (i & 1)) */
    /* the scanner visited entry bs_idx_q: its bitmap becomes this cycle's hits */
    uint8_t scan_take;
    uint32_t lost; /* non-zero bitmaps dropped this cycle (no slot, or no table word) */
    uint8_t done;  /* bs_busy falls: every bit set before BMP_FLUSH is in the table */
} bmp_out_t;

void bmp_init(bmp_t *b, uint32_t n_scan);
/* One edge: load (from _q), the scanner's push, then the departures' pushes (free slots of _q),
 * then the scanner's bookkeeping and a start. */
void bmp_step(bmp_t *b, const bmp_in_t *in, bmp_out_t *out);
/* a queued bitmap or a scan in progress prevents idle (§20.6) */
static inline int bmp_busy(const bmp_t *b) {
    return b->count != 0 || b->bs_busy;
}
/* the table word of table index i = vpn - vpn0 (§20.5) */
static inline uint64_t bmp_word_addr(uint64_t base, uint64_t i) {
    return base + 8u * (i >> 1);
}
static inline uint64_t bmp_word_data(uint64_t i, uint32_t bmp) {
    return (uint64_t)bmp << (32u * (i & 1u));
}
/* page vpn has a word in the window (vpn0, pages) */
static inline int bmp_in_table(uint64_t vpn0, uint32_t pages, uint64_t vpn) {
    return vpn >= vpn0 && vpn - vpn0 < pages;
}

/* State accessor of g_bmp.u_bmp (§20.4): bs_busy_q, bs_idx_q, head_q, cnt_q, q_vpn_q[i],
 * q_bmp_q[i] (slot i of the queue, as the RTL's slots: a slot keeps its last push). 0, or -1. */
int bmp_state_get(const bmp_t *b, const char *reg, uint32_t i, uint64_t *val);

#endif
