/*
 * sm_ready.h - an SM's ready set (module smr_): which of its resident-warp slots may present a
 * translation, kept beside the slot array so that the front-end does not visit every resident
 * warp per cycle (docs/cosim.md "SM issue model", docs/sweep.md "Speed").
 *
 * Two parts, over slots 0 .. slots-1:
 *  - a bitmap of the slots that may present: a warp with pages of its instruction left to
 *    present, or a warp whose gap has ended (sm.c moves it to SM_W_ISSUE when it visits it);
 *  - a min-heap of the slots whose warp is in its gap, by the cycle the gap ends.
 * smr_pop_due moves the slots whose gap has ended from the heap to the bitmap; smr_next walks the
 * bitmap in slot order (the SM's round-robin walks it from its pointer, then wraps).
 */
#ifndef COSIM_SM_READY_H
#define COSIM_SM_READY_H

#include <stdint.h>

typedef struct {
    uint64_t at;   /* cycle the gap ends */
    uint32_t slot; /* resident-warp slot */
} smr_gap_t;

typedef struct {
    uint32_t slots;  /* capacity (the SM's max_resident) */
    uint64_t *bits;  /* bit i: slot i may present */
    uint32_t count;  /* bits set */
    smr_gap_t *heap; /* slots in their gap, min-heap by at */
    uint32_t *pos;   /* slot -> index in heap, SMR_NONE if not there */
    uint32_t n;      /* heap entries */
} sm_ready_t;

#define SMR_NONE UINT32_MAX

int smr_init(sm_ready_t *r, uint32_t slots);
void smr_free(sm_ready_t *r);
/* Empties both parts (a kernel starts). */
void smr_clear(sm_ready_t *r);
void smr_set(sm_ready_t *r, uint32_t slot);
void smr_unset(sm_ready_t *r, uint32_t slot);
/* First slot in [from, end) whose bit is set; end if none. */
uint32_t smr_next(const sm_ready_t *r, uint32_t from, uint32_t end);
/* The warp of slot waits until cycle at (in the heap: its end moves; in the bitmap: it leaves). */
void smr_gap(sm_ready_t *r, uint32_t slot, uint64_t at);
/* Moves every slot whose gap ends at or before now from the heap to the bitmap. */
void smr_pop_due(sm_ready_t *r, uint64_t now);
/* 1 if a slot may present at now: a bit set, or a gap that ends at or before now. */
int smr_any(const sm_ready_t *r, uint64_t now);
/* Earliest gap end > now in the heap (UINT64_MAX if none). */
uint64_t smr_next_after(const sm_ready_t *r, uint64_t now);
/* Slot `slot` is removed from the slot array (empty in both parts): slots above it move down by
 * one. */
void smr_remove_slot(sm_ready_t *r, uint32_t slot);

#endif
