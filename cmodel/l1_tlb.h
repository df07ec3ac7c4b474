/*
 * l1_tlb.h - per-SM L1 TLB (RTL gmmu_l1_tlb, docs/microarch.md §4).
 * Blocks as in the RTL: u_base / u_large (tlb_fa.h), u_req (l1_req.h), hit registers.
 */
#ifndef GMMU_L1_TLB_H
#define GMMU_L1_TLB_H

#include <stdint.h>
#include <stdio.h>

#include "bmp.h"
#include "gmmu_if.h"
#include "gmmu_int.h"
#include "l1_req.h"
#include "tlb_fa.h"
#include "tlb_sa.h"

typedef struct {
    uint32_t sm, n_ports, n_base, n_large, n_req;
    uint8_t asid_mask; /* NumAsids - 1: a request's asid is req_asid & asid_mask (§14.1) */
    tlb_fa_t base;     /* u_base: tag vpn, data ppn (§4), with b_sets = 1 (fully associative) */
    uint32_t b_sets;   /* l1_sets: > 1 = the set-associative base array of §1.4 in bsa */
    tlb_sa_t bsa;      /* u_base with b_sets > 1 (set = vpn & (b_sets - 1); rd_* unused) */
    tlb_fa_t large;    /* u_large: tag region vpn[35:9], data lppn */
    /* hit response registers */
    uint8_t hv[GMMU_MAX_PORTS], hid[GMMU_MAX_PORTS], hsys[GMMU_MAX_PORTS]; /* hsys: §17 */
    uint64_t hppn[GMMU_MAX_PORTS];
    l1_req_t req; /* u_req: request table */
    /* referenced-line bitmaps (docs/microarch.md §20, line_bitmap = 1; lbm = 0: none of it) */
    uint8_t lbm;
    uint32_t *bmp;            /* bmp_q[n_base]: lines referenced through base entry e */
    uint8_t line[L1_MAX_REQ]; /* line_q[R]: the line of the request that allocated entry i */
} l1_t;

/* Combinational signals of one L1 computed from _q state. */
typedef struct {
    int send;      /* c_send entry or -1 */
    int out;       /* c_out entry or -1 */
    uint8_t ready; /* req_ready_o */
    uint8_t req_valid;
    gmmu_tlb_req_t req; /* L1 -> L2 request l2_req_o (spec/tlb.toml [tlb_req]) */
} l1_comb_t;

/* Inputs of one L1 for one edge. */
typedef struct {
    const uint8_t *req_valid, *req_write, *req_id, *req_asid; /* [n_ports] */
    const uint64_t *req_vpn;
    uint8_t grant;
    const gmmu_rsp_t *rsp; /* rsp_q */
    uint8_t replay;        /* replay_q[s] */
    uint8_t cancel_valid;
    uint8_t cancel_asid;
    uint64_t cancel_vpn;
    gmmu_flush_t flush;
    uint8_t blocking; /* blocking_q: the fault mode (FAULT_CTRL.BLOCKING, §4.1) */
} l1_in_t;

/* Bitmap inputs / outputs of one edge (§20.3, §20.4). */
typedef struct {
    const uint8_t *req_line; /* [n_ports] req_line_i of this SM */
    int scan_e;              /* base entry taken by the BMP_FLUSH scanner this cycle, or -1 */
} l1_lb_in_t;
typedef struct {
    uint8_t evict;    /* a fill evicted a valid entry with a non-zero bitmap: */
    bmp_dep_t ev;     /*   its page and bitmap (after this cycle's hits) */
    uint32_t n_flush; /* entries invalidated by this cycle's flush with a non-zero bitmap, */
    bmp_dep_t *flush; /*   in entry order, into the caller's array of n_base */
} l1_lb_out_t;

int l1_init(l1_t *l, uint32_t sm, const gmmu_params_t *p);
void l1_free(l1_t *l);
void l1_comb(const l1_t *l, uint8_t cmd_cycle, l1_comb_t *c);
void l1_outputs(const l1_t *l, const l1_comb_t *c, gmmu_out_t *out);
int l1_busy(const l1_t *l); /* contributes to !idle (§9) */
/* No hit register and no DONE entry: the L1 changes only on a grant or an input
 * (gmmu_model_quiet). */
int l1_quiet(const l1_t *l);
/* Returns 1 if some accepted port hit a large entry (EV_L1_LARGE_HIT, §15.6). */
int l1_step(l1_t *l, const l1_comb_t *c, const l1_in_t *in, gmmu_viol_t *v);
/* l1_step with the bitmaps of §20 (lb and lo may be NULL when lbm = 0). */
int l1_step_lb(l1_t *l, const l1_comb_t *c, const l1_in_t *in, const l1_lb_in_t *lb,
               l1_lb_out_t *lo, gmmu_viol_t *v);
/* The L1 halves of §20.3 / §20.4 (l1_bmp.c), called by l1_step_lb. */
void l1_bmp_hits(l1_t *l, const l1_lb_in_t *lb, const uint8_t *acc, const uint8_t *hk_base,
                 const uint32_t *hidx);
uint32_t l1_bmp_fill_lines(const l1_t *l, const gmmu_rsp_t *r);
void l1_bmp_fill(l1_t *l, uint32_t idx, uint64_t tag, uint32_t fb, l1_lb_out_t *lo);
void l1_bmp_flush(l1_t *l, const gmmu_flush_t *fl, l1_lb_out_t *lo);
void l1_dump(const l1_t *l, FILE *f);
/* State accessor: element i of register reg of g_l1[sm].u_l1 itself (hit registers hv_q,
 * hid_q, hppn_q). 0, or -1 if there is none. */
int l1_state_get(const l1_t *l, const char *reg, uint32_t i, uint64_t *val);

/* State accessor of the base array g_l1[s].u_l1.g_base.u_base and below (rest = the path after
 * it; docs/cmodel.md): gmmu_tlb_fa with l1_sets = 1, gmmu_tlb_sa_async (§1.4) otherwise.
 * 0, or -1 if there is none. */
int l1_base_state_get(const l1_t *l, const char *rest, const char *reg, uint32_t i, uint32_t word,
                      uint64_t *val);

#endif
