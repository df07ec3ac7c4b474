/*
 * gmmu_priv.h - the C model's top-level state (gmmu.c) shared with its bitmap part (gmmu_lb.c,
 * docs/microarch.md §20). Not a public header: gmmu_model.h is the interface.
 */
#ifndef GMMU_PRIV_H
#define GMMU_PRIV_H

#include "acc.h"
#include "bmp.h"
#include "co.h"
#include "csr.h"
#include "ff.h"
#include "gmmu_model.h"
#include "l1_tlb.h"
#include "l2_tlb.h"
#include "ptw.h"

struct gmmu_model {
    gmmu_params_t p;
    csr_t csr;
    l1_t *l1; /* [num_sm] */
    l2_t l2;
    ptw_t ptw;
    ff_t ff;
    co_t co;
    /* access counters (§19.8), with acc_entries > 0: the unit and the top's registered request
     * of each port (g_acc.hvpn_q / hasid_q), which a hit response belongs to */
    acc_t acc;
    uint64_t acc_hvpn[GMMU_MAX_SM][GMMU_MAX_PORTS];
    uint8_t acc_hasid[GMMU_MAX_SM][GMMU_MAX_PORTS];
    /* referenced-line bitmaps (§20), with line_bitmap = 1: the write-back queue and scanner,
     * this cycle's departures (fill evictions, then flushes) and the count of lost bitmaps */
    bmp_t bmp;
    bmp_dep_t *bdep;              /* [num_sm * (l1_entries + 1)] */
    uint32_t bflush[GMMU_MAX_SM]; /* flush departures of each L1 this cycle */
    uint64_t bmp_lost;
    uint32_t ev; /* ev_q */
    gmmu_viol_t viol;
    l1_comb_t *comb; /* [num_sm]: each L1's combinational signals on the current _q state */
};

/* gmmu_lb.c (§20; every function is a no-op / -1 / 0 with line_bitmap = 0) */
int gmmu_bmp_scan_pick(const gmmu_model_t *m, bmp_dep_t *scan);
int gmmu_step_l1(gmmu_model_t *m, uint32_t s, const l1_comb_t *c, const l1_in_t *li,
                 const uint8_t *req_line, int scan_idx, uint32_t *n_dep);
void gmmu_bmp_head(const gmmu_model_t *m, ptw_in_t *pi);
uint32_t gmmu_step_bmp(gmmu_model_t *m, const csr_t *cq, const bmp_dep_t *scan, int scan_idx,
                       uint32_t n_ev, uint8_t taken, uint8_t mr_bmp_q, uint8_t start);

#endif
