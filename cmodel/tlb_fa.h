/*
 * tlb_fa.h - fully associative TLB array of docs/microarch.md §1.2 (RTL gmmu_tlb_fa): n entries
 * (valid, tag, w, data) and a tree PLRU (§1.1). Used by the L1 base and large arrays and the L2
 * large array. The functions are the steps of the RTL module, with the same numbers:
 *   FA-1 tlb_fa_lookup     FA-2 tlb_fa_fill_pick   FA-3 tlb_fa_fill
 *   FA-4 tlb_fa_touch      FA-5 tlb_fa_flush
 * Tags and payloads are held as uint64_t whatever their width (the block masks them).
 *
 * Speed (docs/sweep.md "Speed"): an array of at least TLB_FA_IX_MIN entries that owns its
 * storage (not a set view of tlb_sa) keeps an index beside it, a hash table from tag to its
 * valid entries, so that FA-1 and FA-2 look at the entries of one tag instead of every entry.
 * The index holds exactly the valid entries (fill and flush keep it); the results are those of
 * the scan, which the RTL does in parallel.
 */
#ifndef GMMU_TLB_FA_H
#define GMMU_TLB_FA_H

#include <stdint.h>
#include <stdio.h>

#include "plru.h"

typedef struct {
    uint32_t n;     /* entries (power of two) */
    uint8_t *valid; /* valid_q[n] */
    uint8_t *w;     /* w_q[n] */
    uint64_t *tag;  /* tag_q[n] */
    uint64_t *data; /* data_q[n] */
    uint8_t *plru;  /* plru_q[n - 1] (at least one byte) */
    /* index (NULL: none, every lookup scans): bucket -> first valid entry, entry -> next valid
       entry of its bucket (TLB_FA_NONE ends a chain); bucket of a tag: its hash >> ix_shift */
    uint32_t *ix_head;
    uint32_t *ix_next;
    uint32_t ix_shift;
} tlb_fa_t;

#define TLB_FA_IX_MIN 32u
#define TLB_FA_NONE UINT32_MAX

/* Allocates n entries, all invalid, PLRU 0. Returns 0, or -1 (nothing allocated). */
int tlb_fa_init(tlb_fa_t *a, uint32_t n);
void tlb_fa_free(tlb_fa_t *a);
/* Adds the index (arrays of TLB_FA_IX_MIN entries or more; smaller ones keep the scan).
 * Returns 0, or -1 (out of memory: no index). */
int tlb_fa_index(tlb_fa_t *a);
/* FA-1 and the index's upkeep of FA-3 on an array with an index (tlb_fa.c). */
int tlb_fa_lookup_ix(const tlb_fa_t *a, uint64_t tag, int write, uint32_t *idx, unsigned *nmatch);
void tlb_fa_ix_fill(tlb_fa_t *a, uint32_t idx, uint64_t tag);

/* FA-1: the lowest valid entry with this tag and (!write || w). Returns 1 and *idx on a hit.
 * *nmatch (if not NULL) = number of valid entries with this tag (no-multi-hit check). */
static inline int tlb_fa_lookup(const tlb_fa_t *a, uint64_t tag, int write, uint32_t *idx,
                                unsigned *nmatch) {
    if (a->ix_head)
        return tlb_fa_lookup_ix(a, tag, write, idx, nmatch);
    int hit = 0;
    unsigned nm = 0;
    for (uint32_t i = 0; i < a->n; i++) {
        if (!a->valid[i] || a->tag[i] != tag)
            continue;
        nm++;
        if (!hit && (!write || a->w[i])) {
            hit = 1;
            *idx = i;
        }
    }
    if (nmatch)
        *nmatch = nm;
    return hit;
}
/* FA-2: fill choice of §1.1 on the current (_q) state. */
uint32_t tlb_fa_fill_pick(const tlb_fa_t *a, uint64_t tag);
/* FA-3: writes entry idx valid with tag, w and data. */
static inline void tlb_fa_fill(tlb_fa_t *a, uint32_t idx, uint64_t tag, uint8_t w, uint64_t data) {
    if (a->ix_head)
        tlb_fa_ix_fill(a, idx, tag);
    a->valid[idx] = 1;
    a->tag[idx] = tag;
    a->w[idx] = w;
    a->data[idx] = data;
}
/* FA-4: one PLRU touch (several are applied in call order). */
static inline void tlb_fa_touch(tlb_fa_t *a, uint32_t idx) {
    plru_touch(a->plru, a->n, idx);
}
/* FA-5: all = every entry invalid; else the entries whose tag equals `tag` in the bits of
 * `mask` (a selective flush, §14.4). PLRU unchanged. */
void tlb_fa_flush(tlb_fa_t *a, int all, uint64_t tag, uint64_t mask);
/* Prints the valid entries as "  <name>[i] <tag_name>=0x.. <data_name>=0x.. w=.." lines. */
void tlb_fa_dump(const tlb_fa_t *a, FILE *f, const char *name, const char *tag_name,
                 const char *data_name);
/* Prints the PLRU bits (no newline). */
void tlb_fa_dump_plru(const tlb_fa_t *a, FILE *f);

/* State accessors (gmmu_model_state_get): bits [64 * word + 63 : 64 * word] of element i of
 * register reg of the gmmu_tlb_fa instance (plru_q) / of its u_store (valid_q, w_q, tag_q,
 * data_q). 0, or -1 if there is none. */
int tlb_fa_state_get(const tlb_fa_t *a, const char *reg, uint32_t i, uint32_t word, uint64_t *val);
int tlb_store_state_get(const tlb_fa_t *a, const char *reg, uint32_t i, uint32_t word,
                        uint64_t *val);

#endif
