/*
 * l1_req.h - L1 request table ("miss MSHRs") of docs/microarch.md §4 (RTL gmmu_l1_req_table,
 * instance u_req of each L1). The functions are the steps of §4 with the RTL's letters:
 *   l1_req_comb (ready, c_out, c_send from _q)
 *   (a) l1_req_output  (b) l1_req_send  (c) l1_req_response  (d) l1_req_replay
 *   (e) l1_req_cancel  (f) l1_req_alloc  (g) l1_req_flush
 * The state is kept as one bit mask per state (FREE = none of them), so "lowest entry in state X",
 * free_cnt and the k-th lowest FREE entry are a ctz / popcount. m_flt is the RTL's flt_q (the
 * blocking fault mode of §4.1: Nacked while blocking, not output yet; any bit blocks ready).
 */
#ifndef GMMU_L1_REQ_H
#define GMMU_L1_REQ_H

#include <stdint.h>
#include <stdio.h>

#include "gmmu_int.h"
#include "gmmu_tlb_types.h"

#define L1_MAX_REQ 64

typedef enum { L1_FREE = 0, L1_WAIT = 1, L1_INFL = 2, L1_DONE = 3, L1_NACK = 4 } l1_state_t;

/* One entry record (RTL req_entry_t): spec/tlb.toml [l1_req_entry], key = (asid, vpn, write). */
typedef gmmu_l1_req_entry_t l1_req_entry_t;

typedef struct {
    uint32_t n;   /* entries R */
    uint64_t all; /* R low bits set */
    uint64_t m_wait, m_infl, m_done, m_nack;
    uint64_t m_flt; /* flt_q: faulted in blocking mode, not output yet (§4.1) */
    l1_req_entry_t ent[L1_MAX_REQ];
} l1_req_t;

/* Combinational signals from _q. */
typedef struct {
    uint8_t ready; /* free_cnt >= P, no command cycle, no flt bit (§4.1) */
    int out;       /* c_out entry or -1 */
    int send;      /* c_send entry or -1 */
} l1_req_comb_t;

void l1_req_init(l1_req_t *r, uint32_t n);
static inline uint64_t l1_req_free_mask(const l1_req_t *r) {
    return r->all & ~(r->m_wait | r->m_infl | r->m_done | r->m_nack);
}
l1_state_t l1_req_state(const l1_req_t *r, uint32_t i);
/* (the small per-cycle functions are inline: they run for every L1 on every edge) */
static inline int l1_req_same_key(const l1_req_t *r, uint32_t i, uint32_t j) {
    return r->ent[i].vpn == r->ent[j].vpn && r->ent[i].write == r->ent[j].write &&
           r->ent[i].asid == r->ent[j].asid;
}
static inline void l1_req_comb(const l1_req_t *r, uint32_t n_ports, uint8_t cmd_cycle,
                               l1_req_comb_t *c) {
    c->ready = (gmmu_popcount64(l1_req_free_mask(r)) >= n_ports) && !cmd_cycle && !r->m_flt;
    c->out = r->m_done ? (int)gmmu_ctz64(r->m_done) : -1;
    c->send = -1;
    for (uint64_t w = r->m_wait; w; w &= w - 1u) {
        const uint32_t i = gmmu_ctz64(w);
        int blocked = 0;
        for (uint64_t f = r->m_infl; f; f &= f - 1u) {
            if (l1_req_same_key(r, i, gmmu_ctz64(f))) {
                blocked = 1;
                break;
            }
        }
        if (!blocked) {
            c->send = (int)i;
            break;
        }
    }
}
/* a WAIT, INFL or DONE entry (§9) */
static inline int l1_req_busy(const l1_req_t *r) {
    return (r->m_wait | r->m_infl | r->m_done) != 0;
}

/* (a) c_out -> FREE, its flt bit cleared. */
static inline void l1_req_output(l1_req_t *r, const l1_req_comb_t *c) {
    if (c->out >= 0) {
        r->m_done &= ~GMMU_BIT(c->out);
        r->m_flt &= ~GMMU_BIT(c->out);
    }
}
/* (b) c_send -> INFL; returns -1 if there is no c_send (a violation). */
static inline int l1_req_send(l1_req_t *r, const l1_req_comb_t *c) {
    if (c->send < 0)
        return -1;
    r->m_wait &= ~GMMU_BIT(c->send);
    r->m_infl |= GMMU_BIT(c->send);
    return 0;
}
/* (c) every WAIT/INFL entry with the key of rsp: OK -> DONE (ppn, fatal 0), NACK -> NACK (and
 * flt set if blocking, the fault mode blocking_q). Returns the number of matching entries. */
unsigned l1_req_response(l1_req_t *r, const gmmu_rsp_t *rsp, uint8_t blocking);
/* (d) every NACK -> WAIT. */
static inline void l1_req_replay(l1_req_t *r) {
    r->m_wait |= r->m_nack;
    r->m_nack = 0;
}
/* (e) every NACK entry with this (asid, vpn) -> DONE, fatal 1, ppn 0. */
void l1_req_cancel(l1_req_t *r, uint8_t asid, uint64_t vpn);
/* (f) the lowest entry of *free_q (FREE in _q, not taken yet) -> WAIT with the request; it is
 * removed from *free_q. Returns -1 if *free_q is empty (a violation). */
int l1_req_alloc(l1_req_t *r, uint64_t *free_q, uint8_t asid, uint64_t vpn, uint8_t write,
                 uint8_t id);
/* (g) full flush: every DONE -> WAIT; page flush: DONE entries whose vpn region-matches; both
 * only in the command's address space if its scope is one ASID (§14.4). */
void l1_req_flush(l1_req_t *r, const gmmu_flush_t *fl);
void l1_req_dump(const l1_req_t *r, FILE *f);
/* State accessor: bits [64 * word + 63 : 64 * word] of element i of register reg of u_req
 * (state_q: the RTL's req_state_e, which l1_state_t mirrors; ent_q: the packed entry record;
 * flt_q: element 0, the packed vector of flt bits).
 * 0, or -1 if there is none. */
int l1_req_state_get(const l1_req_t *r, const char *reg, uint32_t i, uint32_t word, uint64_t *val);

#endif
