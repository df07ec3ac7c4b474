/*
 * ptw.h - page-table walkers and the memory request register (RTL gmmu_ptw,
 * docs/microarch.md §6).
 */
#ifndef GMMU_PTW_H
#define GMMU_PTW_H

#include <stdint.h>
#include <stdio.h>

#include "gmmu_if.h"
#include "gmmu_int.h"
#include "pwc.h"

#define PTW_MAX 64

/* PTW_PWC: page-walk cache hit latency (§16.2) */
typedef enum { PTW_IDLE = 0, PTW_ISSUE = 1, PTW_WAIT_RSP = 2, PTW_PWC = 3 } ptw_state_t;

typedef struct {
    uint32_t n;
    uint8_t state[PTW_MAX], write[PTW_MAX], mshr[PTW_MAX], level[PTW_MAX];
    uint8_t large_mode[PTW_MAX], poison[PTW_MAX], asid[PTW_MAX];
    uint64_t vpn[PTW_MAX], addr[PTW_MAX];
    uint8_t pcnt[PTW_MAX], nofill[PTW_MAX]; /* §16.2 hit latency count, §16.4 no fill */
    uint8_t adw[PTW_MAX];                   /* §18.2 the next request is a set-bits write */
    uint8_t ad;                             /* AdBits */
    uint32_t pwc_latency;                   /* PwcLatency */
    pwc_t pwc;                              /* page-walk cache (pwc.n = 0: none) */
    /* memory request register -> mem_req_*_o */
    uint8_t mr_valid, mr_id; /* mr_id: the walker index, or CO_MEM_ID if mr_co (§15.2) */
    uint8_t mr_write, mr_co;
    uint8_t mr_drt; /* §18.3 the set-bits write sets DRT */
    uint64_t mr_addr;
    /* §20.5: a referenced-line bitmap write (set-bits, CO_MEM_ID, no response) */
    uint8_t mr_bmp, mr_bhi; /* mr_bhi: the upper half of the 8-byte word */
    uint32_t mr_bdat;
} ptw_t;

typedef struct {
    uint8_t mem_req_ready;
    uint8_t mem_rsp_valid;
    uint8_t mem_rsp_id;
    uint64_t mem_rsp_data;
    const uint64_t *pt_base; /* pt_base_q[NumAsids]: the root of each address space (§14.2) */
    int need_walk;           /* lowest NEED_WALK L2 MSHR (_q) or -1 */
    gmmu_tlb_req_t nw;       /* its walk request walk_o (spec/tlb.toml [tlb_req]) */
    gmmu_flush_t flush;
    /* the coalesce unit's request (§15.2, from its _q state) */
    uint8_t co_req_valid, co_req_write;
    uint64_t co_req_addr;
    uint8_t co_busy; /* §18.2: a walker's set-bits write waits while the unit is busy */
    /* the bitmap write-back queue's head (§20.5, lowest priority; bmp_valid 0 without it) */
    uint8_t bmp_valid, bmp_hi;
    uint32_t bmp_dat;
    uint64_t bmp_addr;
} ptw_in_t;

typedef struct {
    uint8_t done; /* a walk completed: result to MSHR done_mshr */
    uint32_t done_mshr;
    gmmu_walk_res_t res; /* spec/tlb.toml [walk_res] */
    uint8_t assigned;    /* a walker took need_walk */
    uint8_t co_taken;    /* the request register took the coalesce unit's request */
    uint8_t bmp_taken;   /* the request register took the bitmap queue's head (§20.5) */
} ptw_out_t;

void ptw_init(ptw_t *w, const gmmu_params_t *p);
int ptw_busy(const ptw_t *w);
void ptw_step(ptw_t *w, const ptw_in_t *in, ptw_out_t *o, uint16_t *ev, gmmu_viol_t *v);
void ptw_dump(const ptw_t *w, FILE *f);
/* State accessor: element i of register reg of u_ptw. 0, or -1 if there is none. */
int ptw_state_get(const ptw_t *w, const char *reg, uint32_t i, uint64_t *val);

#endif
