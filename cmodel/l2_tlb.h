/*
 * l2_tlb.h - shared L2 TLB (RTL gmmu_l2_tlb, docs/microarch.md §5): arbiter, pipeline, arrays,
 * MSHRs and the response register rsp_q.
 */
#ifndef GMMU_L2_TLB_H
#define GMMU_L2_TLB_H

#include <stdint.h>
#include <stdio.h>

#include "gmmu_if.h"
#include "gmmu_int.h"
#include "l1_tlb.h"
#include "tlb_fa.h"
#include "tlb_sa.h"

#define L2_MAX_MSHR 64

typedef enum { L2M_FREE = 0, L2M_NEED_WALK = 1, L2M_WALKING = 2, L2M_RESP = 3 } l2_mshr_state_t;

typedef struct {
    uint32_t n_sm, sets, ways, n_large, lat, n_mshr;
    tlb_sa_t base;  /* u_base: tag vpn, data ppn, set vpn & (sets - 1) */
    tlb_fa_t large; /* u_large: tag region vpn[35:9], data lppn */
    /* pipeline, index k-1 = stage k */
    uint8_t *pv, *psm, *pwrite, *pasid;
    uint64_t *pvpn;
    uint32_t rr;
    /* MSHRs: state m_state_q, record mshr_q (spec/tlb.toml [l2_mshr]: asid, vpn, write, mask,
     * walk result res) */
    uint8_t m_state[L2_MAX_MSHR];
    gmmu_l2_mshr_t mshr[L2_MAX_MSHR];
    /* same-tag vectors msame_q (§5): per MSHR, the ways of its key's set holding its key's tag
     * (where valid); the RTL's SA-2 "same tag", mirrored here and checked against the tags */
    uint64_t msame[L2_MAX_MSHR];
    gmmu_rsp_t rsp; /* rsp_q */
} l2_t;

/* Decisions of the cycle computed from _q state (§5.1, §5.2, §5.3 candidates). */
typedef struct {
    uint8_t last;      /* the last stage is processed this cycle (valid, no command cycle) */
    uint8_t lk_hit;    /* ... and hits */
    uint8_t hit;       /* ... and the hit answers (no MSHR response this cycle, §5.1) */
    uint8_t hold;      /* stage L holds: a stall, or a hit while an MSHR responds */
    uint8_t hit_large; /* the hit is in the large array */
    uint32_t hit_idx;  /* base: set * ways + way; large: entry */
    uint64_t match;    /* SA-1: the ways of the set whose valid entry has the tag (any w) */
    int merge;         /* MSHR to merge into, or -1 */
    int alloc;         /* MSHR to allocate, or -1 */
    uint8_t stall;
    uint8_t advance;
    int grant;     /* granted SM or -1 */
    int need_walk; /* lowest NEED_WALK MSHR (_q), or -1 */
    int resp_sel;  /* MSHR chosen by response selection this cycle (lowest RESP whose result is
                    * OK, or FAULT while the far-fault unit is ready), or -1 */
} l2_plan_t;

int l2_init(l2_t *l2, const gmmu_params_t *p);
void l2_free(l2_t *l2);
int l2_busy(const l2_t *l2);
/* l1c: the S L1s' combinational signals (requests); ff_ready: the far-fault unit's ready_o
 * (§7, a register). */
void l2_plan(const l2_t *l2, uint8_t cmd_cycle, uint8_t ff_ready, const l1_comb_t *l1c,
             l2_plan_t *pl, gmmu_viol_t *v);
/* done: walker completion (valid, mshr, result); assigned: a walker took pl->need_walk. */
void l2_update(l2_t *l2, const l2_plan_t *pl, const l1_comb_t *l1c, int done_valid,
               uint32_t done_mshr, const gmmu_walk_res_t *done, int assigned,
               const gmmu_flush_t *fl, uint16_t *ev, gmmu_viol_t *v);
/* The base array's RAM read at the edge (§1.3), after every update of the cycle: the set of the
 * last stage, or, when the next cycle is a command cycle (cmd_next: the CSR block's
 * cmd_valid_q after its step), the set of cmd_vpn_next (its cmd_vpn). */
void l2_ram_read(l2_t *l2, int cmd_next, uint64_t cmd_vpn_next);
void l2_dump(const l2_t *l2, FILE *f);
/* State accessor (gmmu_model_state_get): bits [64 * word + 63 : 64 * word] of element i of
 * register reg of u_l2 itself (pipeline, MSHRs, response register; its arrays:
 * tlb_sa_state_get, tlb_fa_state_get). 0, or -1. */
int l2_state_get(const l2_t *l2, const char *reg, uint32_t i, uint32_t word, uint64_t *val);

#endif
