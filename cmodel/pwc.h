/*
 * pwc.h - page-walk cache (RTL gmmu_pwc, docs/microarch.md §16): upper-level PTEs (levels 0..2)
 * tagged {asid, level, virtual prefix}, payload {next table base, L}, round-robin victim.
 */
#ifndef GMMU_PWC_H
#define GMMU_PWC_H

#include <stdint.h>
#include <stdio.h>

#include "gmmu_int.h"

#define PWC_MAX 64

typedef struct {
    uint32_t n;         /* PwcEntries (0: no cache) */
    uint8_t asid_mask;  /* NumAsids - 1: the stored ASID bits (§14.1) */
    uint8_t v[PWC_MAX]; /* pv_q */
    uint8_t asid[PWC_MAX], lvl[PWC_MAX];
    uint32_t pfx[PWC_MAX];  /* vpn[35:9], low 9 * (2 - lvl) bits zero */
    uint64_t next[PWC_MAX]; /* payload (LUT RAM): pte[47:12] */
    uint8_t l[PWC_MAX];     /* payload: level-2 entry with PTE_L */
    uint32_t rr;            /* prr_q, the round-robin victim */
} pwc_t;

typedef struct {
    int hit;
    unsigned lvl; /* deepest hit level h (0..2) */
    uint64_t next;
    uint8_t l;
} pwc_hit_t;

void pwc_init(pwc_t *c, uint32_t entries, uint32_t num_asids);
/* pfx_l(vpn) of §16.1 */
uint32_t pwc_pfx(uint64_t vpn, unsigned lvl);
/* §16.2: lookup on _q (no state change). */
void pwc_lookup(const pwc_t *c, uint8_t asid, uint64_t vpn, pwc_hit_t *h);
/* §16.3: fill, choice on _q; call before pwc_flush of the same cycle (and after the lookup). */
void pwc_fill(pwc_t *c, uint8_t asid, unsigned lvl, uint64_t vpn, uint64_t next, uint8_t l);
/* §16.4: invalidation, applied last. */
void pwc_flush(pwc_t *c, const gmmu_flush_t *f);
void pwc_dump(const pwc_t *c, FILE *f);
/* State accessor: element i of register reg of u_ptw.g_pwc.u_pwc; 0, or -1 if there is none. */
int pwc_state_get(const pwc_t *c, const char *reg, uint32_t i, uint64_t *val);

#endif
