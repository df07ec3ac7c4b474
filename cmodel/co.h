/*
 * co.h - the coalesce unit: COALESCE / SPLINTER commands (RTL gmmu_co, docs/microarch.md §15).
 */
#ifndef GMMU_CO_H
#define GMMU_CO_H

#include <stdint.h>
#include <stdio.h>

#include "gmmu_if.h"
#include "gmmu_int.h"

typedef enum {
    CO_IDLE = 0,
    CO_PATH = 1,
    CO_CHECK = 2,
    CO_ERD = 3,
    CO_EWR = 4,
    CO_LRD = 5,
    CO_LWR = 6,
    CO_FLUSH = 7
} co_state_t;

typedef struct {
    uint8_t asid_mask;                               /* NumAsids - 1 */
    uint8_t state, op, asid, lvl, w0, a0, pend, err; /* a0: APER of entry 0 (§17) */
    uint16_t idx;
    uint32_t region, lppn;
    uint64_t tbl, l4, dat;
} co_t;

/* The unit's request to the memory request register (§15.2), from _q state. */
typedef struct {
    uint8_t valid, write;
    uint64_t addr;
} co_req_t;

typedef struct {
    uint8_t start; /* command cycle with COALESCE / SPLINTER */
    uint8_t start_op;
    uint8_t cmd_asid;
    uint64_t cmd_vpn;
    const uint64_t *pt_base; /* pt_base_q[NumAsids] */
    uint8_t taken;           /* the request register took co_req this cycle */
    uint8_t rsp_valid;       /* a memory response with CO_MEM_ID */
    uint64_t rsp_data;
} co_in_t;

void co_init(co_t *c, const gmmu_params_t *p);
static inline int co_busy(const co_t *c) {
    return c->state != CO_IDLE;
}
/* co_flush (§15.4): the CSR block loads an INVAL_PAGE of the region this cycle. */
static inline int co_flush(const co_t *c) {
    return c->state == CO_FLUSH;
}
void co_req(const co_t *c, co_req_t *r);
void co_step(co_t *c, const co_in_t *in, uint16_t *ev, gmmu_viol_t *v);
void co_dump(const co_t *c, FILE *f);
/* State accessor: element i of register reg of u_co. 0, or -1 if there is none. */
int co_state_get(const co_t *c, const char *reg, uint32_t i, uint64_t *val);

#endif
