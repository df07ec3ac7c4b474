/*
 * l2d.h - the GPU's L2 data cache in the platform (module l2d_; docs/cosim.md "L2 data cache").
 *
 * Off unless the configuration sets l2d_kb. One cache for the whole GPU, set-associative, LRU
 * within a set, allocate on every access (read or write). It serves the walker's PTE reads
 * (gmmu_top's memory port: a hit answers after l2d_hit_latency, a miss after mem_latency, the
 * DRAM round trip) and is shared with the SMs' data accesses as the platform models them: each
 * memory instruction's distinct lines are looked up when its compute gap starts, and only the
 * missed lines take HBM bandwidth (hbm.h). The set of a line is a hash of its address (GPUs hash
 * addresses over their L2 slices; the set count need not be a power of two, 50 MB / 128 B / 16
 * ways = 25600 sets). Data lines are named by (address space, virtual address) because the
 * front-end moves data before its translation: with a hashed index the only thing that matters
 * is that data lines and page-table lines compete for the same capacity, which this keeps.
 */
#ifndef COSIM_L2D_H
#define COSIM_L2D_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

typedef struct {
    uint32_t sets, ways, line_shift;
    uint64_t *tag;   /* sets * ways: line number + 1 of each way, 0: invalid */
    uint64_t *stamp; /* sets * ways: use time of each way (LRU) */
    uint64_t clock;  /* accesses so far (the use time) */
    uint64_t pte_hits, pte_misses, data_hits, data_misses;
} l2d_t;

/* capacity_kb 0: off (0 returned, nothing allocated). Otherwise ways >= 1 and line a power of
 * two; capacity_kb * 1024 must be a whole number of sets of ways lines. 0, -1 with the reason in
 * err (geometry), -2 out of memory. */
int l2d_init(l2d_t *c, uint32_t capacity_kb, uint32_t ways, uint32_t line, char *err,
             size_t errlen);
void l2d_free(l2d_t *c);
/* 1 if the cache is on. */
int l2d_on(const l2d_t *c);
/* Accesses the line holding byte address addr: 1 hit, 0 miss (the line is filled, the least
 * recently used way of its set replaced). The caller counts (l2d_pte / l2d_data do). */
int l2d_access(l2d_t *c, uint64_t addr);
/* A PTE read of page-table word pa: 1 hit, 0 miss; counted as pte_hits / pte_misses. */
int l2d_pte(l2d_t *c, uint64_t pa);
/* A memory instruction's data lines (keys from l2d_data_lines): returns how many missed;
 * counted as data_hits / data_misses. c NULL (off): returns n. */
uint32_t l2d_data(l2d_t *c, const uint64_t *keys, uint32_t n);
/* The distinct lines of a memory instruction's active lanes (<= 32) as keys for l2d_data:
 * address space space, line-aligned virtual addresses (bit 63 set: never a page-table line).
 * Returns their number. */
uint32_t l2d_data_lines(const l2d_t *c, uint32_t mask, const uint64_t *addr, uint32_t space,
                        uint64_t *keys);

/* kern_add's line count of a memory record (sm_instr_t.lines): with the cache (c not NULL) its
 * distinct lines, whose keys are written to keys (l2d_data_lines); without it, with the HBM model
 * on (hbm_on), hbm_lines; else 0. */
uint32_t l2d_instr_lines(const l2d_t *c, int hbm_on, const trace_rec_t *rec, uint64_t *keys);

#endif
