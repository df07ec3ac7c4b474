/*
 * l1_tlb.h - per-SM L1 TLB (RTL gmmu_l1_tlb, docs/microarch.md §4).
 * Blocks as in the RTL: u_base / u_large (tlb_fa.h), u_req (l1_req.h), hit registers.
 */
#ifndef GMMU_L1_TLB_H
#define GMMU_L1_TLB_H

#include <stdint.h>
#include <stdio.h>

#include "gmmu_if.h"
#include "gmmu_int.h"
#include "l1_req.h"
#include "tlb_fa.h"

typedef struct {
    uint32_t sm, n_ports, n_base, n_large, n_req;
    uint8_t asid_mask; /* NumAsids - 1: a request's asid is req_asid & asid_mask (§14.1) */
    tlb_fa_t base;     /* u_base: tag vpn, data ppn (§4) */
    tlb_fa_t large;    /* u_large: tag region vpn[35:9], data lppn */
    /* hit response registers */
    uint8_t hv[GMMU_MAX_PORTS], hid[GMMU_MAX_PORTS], hsys[GMMU_MAX_PORTS]; /* hsys: §17 */
    uint64_t hppn[GMMU_MAX_PORTS];
    l1_req_t req; /* u_req: request table */
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
void l1_dump(const l1_t *l, FILE *f);
/* State accessor: element i of register reg of g_l1[sm].u_l1 itself (hit registers hv_q,
 * hid_q, hppn_q). 0, or -1 if there is none. */
int l1_state_get(const l1_t *l, const char *reg, uint32_t i, uint64_t *val);

#endif
