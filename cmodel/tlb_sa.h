/*
 * tlb_sa.h - set-associative TLB array of docs/microarch.md §1.3 (RTL gmmu_tlb_sa): sets x ways
 * entries (valid, tag, w, data), entry (set, way) at index set * ways + way, one tree PLRU per
 * set. Used by the L2 base array. Each set is a fully associative array of `ways` entries (a
 * tlb_fa_t view into the shared storage), so the steps are those of tlb_fa.h, per set:
 *   SA-1 tlb_fa_lookup(tlb_sa_set(a, set), ...)   SA-2 tlb_fa_fill_pick(set view)
 *   SA-3 tlb_fa_fill(set view)   SA-4 tlb_fa_touch(set view)   SA-5 tlb_sa_flush
 * The payloads (w, data) live in synchronous-read RAMs in the RTL (g_way[w].u_ram, §1.3
 * "payload RAM"): SA-1 reads them from the RAMs' output registers rd_w / rd_data, loaded at
 * the clock edge with the words of the set the next lookup uses, after the cycle's fill
 * (write-first): tlb_sa_lookup_view(), tlb_sa_ram_read(). The RAM words hold the tags too
 * (rd_tag, issue 25): SA-1 takes the tags from there and only the valid bits from `all`. The
 * RTL keeps no other copy of the tags: its set-local page flush (SA-5) reads rd_tag too (the
 * owner reads the flush's set one cycle ahead, rd_set), its fill choice (SA-2) takes "same tag"
 * from the owner (the L2's same-tag vectors). Here SA-2 and SA-5 compare the tags of `all`, and
 * tlb_sa_flush() checks that the set was read. The storage `all` keeps tag, w and data (they are
 * the RAM words).
 */
#ifndef GMMU_TLB_SA_H
#define GMMU_TLB_SA_H

#include <stdint.h>
#include <stdio.h>

#include "tlb_fa.h"

typedef struct {
    uint32_t sets, ways;
    tlb_fa_t all;      /* the storage: sets * ways entries (its plru field is unused) */
    uint8_t *plru;     /* plru_q[set * (ways - 1) + node] */
    tlb_fa_t *set;     /* [sets]: views of each set's entries and PLRU bits */
    uint8_t *rd_w;     /* [ways]: payload RAM output registers (rdata_q of g_way[w].u_ram): */
    uint64_t *rd_data; /* w and data of the set read at the last clock edge */
    uint64_t *rd_tag;  /* and its tags (the RAM word is {tag, w, data}) */
    uint32_t rd_set;   /* the set read at the last clock edge (rd_set_q, simulation only) */
} tlb_sa_t;

int tlb_sa_init(tlb_sa_t *a, uint32_t sets, uint32_t ways);
void tlb_sa_free(tlb_sa_t *a);
static inline tlb_fa_t *tlb_sa_set(tlb_sa_t *a, uint32_t set) {
    return &a->set[set];
}
static inline const tlb_fa_t *tlb_sa_set_c(const tlb_sa_t *a, uint32_t set) {
    return &a->set[set];
}
/* SA-1's view of `set`: valid and PLRU of the set, tag, w and data from the RAMs' output
 * registers (valid only if the last tlb_sa_ram_read() read this set). */
static inline tlb_fa_t tlb_sa_lookup_view(const tlb_sa_t *a, uint32_t set) {
    tlb_fa_t v = a->set[set];
    v.tag = a->rd_tag;
    v.w = a->rd_w;
    v.data = a->rd_data;
    return v;
}
/* The RAMs' read at the clock edge: rd_tag / rd_w / rd_data <- tag / w / data of every way of
 * `set`, as stored after this cycle's fill (write-first: call it after SA-3). */
void tlb_sa_ram_read(tlb_sa_t *a, uint32_t set);
/* SA-5: all = every entry invalid; else the entries whose tag equals `tag` in the bits of
 * `mask`. set >= 0: only that set is looked at (a mask with every vpn bit: such an entry can
 * only live in its set); set < 0: every set (a flush by ASID, §14.4). PLRU unchanged. Returns
 * -1 (nothing flushed) if set >= 0 is not the set read at the last edge (the RTL compares the
 * tags of the RAMs' output registers), else 0. */
int tlb_sa_flush(tlb_sa_t *a, int all, int set, uint64_t tag, uint64_t mask);
/* The ways of `set` whose valid entry has `tag` (SA-1's match, whatever w), as a bit vector;
 * tlb_sa_view_match: the same on a set's view (tlb_sa_lookup_view(): the RAMs' tags). */
uint64_t tlb_sa_match(const tlb_sa_t *a, uint32_t set, uint64_t tag);
uint64_t tlb_sa_view_match(const tlb_fa_t *s, uint64_t tag);
/* Prints the valid entries as "  <name>[set s way w] <tag_name>=.. <data_name>=.. w=..". */
void tlb_sa_dump(const tlb_sa_t *a, FILE *f, const char *name, const char *tag_name,
                 const char *data_name);
/* Prints the PLRU bits, one group per set (no newline). */
void tlb_sa_dump_plru(const tlb_sa_t *a, FILE *f);

/* State accessor: element i (= set i) of plru_q of the gmmu_tlb_sa instance, or rd_set_q (its
 * u_store: tlb_store_state_get on the storage `all`). 0, or -1 if there is none. */
int tlb_sa_state_get(const tlb_sa_t *a, const char *reg, uint32_t i, uint32_t word, uint64_t *val);
/* State accessor of g_way[way].u_ram: rdata_q = {tag, w, data} (data_bits wide payload), in
 * 64-bit words (word 0 = bits 63:0). */
int tlb_sa_ram_state_get(const tlb_sa_t *a, uint32_t way, uint32_t data_bits, const char *reg,
                         uint32_t i, uint32_t word, uint64_t *val);

#endif
