/*
 * uvm_lc.h - Li & Chapman's object placement as a pure planner (uvm_lc.c; docs/handler.md §6s):
 * the runtime's book-keeping (each object's location, predicted next reuse time, last use) and
 * the decision per kernel launch. The handler enforces the decisions (uvm_lc_run.c); the unit
 * tests pin them on hand-made object tables.
 */
#ifndef UVM_LC_H
#define UVM_LC_H

#include "uvm_objects.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* PART: partial mapping (their §3.4): the first uvm_lc_obj_t.part bytes (from the lowest
 * address) in GPU memory, the rest in host memory */
typedef enum {
    UVM_LC_LOC_NONE = 0,
    UVM_LC_LOC_GPU = 1,
    UVM_LC_LOC_CPU = 2,
    UVM_LC_LOC_PART = 3
} uvm_lc_loc_t;

typedef struct {
    uint64_t base, size; /* extended base, bytes */
    uint64_t gl;         /* global locality */
    uint64_t next;       /* predicted next reuse time (TRC + reuse distance; UINT64_MAX: never) */
    uint64_t last;       /* launch of its last use (LRU) */
    uint64_t part;       /* PART: the bytes of its first portion in GPU memory (whole pages) */
    uvm_lc_loc_t loc;
} uvm_lc_obj_t;

typedef enum {
    UVM_LC_ACT_GPU = 0,   /* a used object placed (or kept) in GPU memory */
    UVM_LC_ACT_CPU = 1,   /* a used object placed in host memory (not moved to the GPU) */
    UVM_LC_ACT_EVICT = 2, /* an object removed from GPU memory to make room */
    UVM_LC_ACT_PART = 3   /* a used object mapped partially: its first part bytes on the GPU */
} uvm_lc_act_kind_t;

typedef struct {
    size_t obj; /* index in uvm_lc_t.obj */
    uvm_lc_act_kind_t kind;
    bool moved;    /* GPU: newly placed on the GPU; CPU: newly placed on the host; PART: newly
                    * partial, or its split moved */
    bool prefetch; /* GPU, PART: explicit transfer (prefetch the GPU part before the kernel) */
    uint64_t part; /* PART: the bytes of its first portion placed on the GPU; EVICT: the bytes
                    * that stay there (a partial object's part removed, then mapped partially
                    * again in the same launch: only what lies beyond leaves) */
} uvm_lc_act_t;

typedef struct uvm_lc {
    uint32_t policy;    /* UVM_OBJ_POLICY_* (not NONE) */
    uint32_t transfer;  /* UVM_OBJ_XFER_* */
    uint64_t cap_bytes; /* GPU memory for objects */
    uint64_t trc;       /* target region counter: launches planned so far */
    bool partial;       /* partial mapping (key object_partial): set after uvm_lc_init */
    uvm_lc_obj_t *obj;
    size_t nobj, capobj;
} uvm_lc_t;

void uvm_lc_init(uvm_lc_t *lc, uint32_t policy, uint32_t transfer, uint64_t cap_bytes);
void uvm_lc_fini(uvm_lc_t *lc);
/* Plans the launch that uses use[0..n): act receives at most n + lc->nobj actions in the order
 * they are to be performed (evictions before the placement that needed them), *nact their
 * number. Updates the book-keeping. 0, or -1 when out of memory. */
int uvm_lc_plan(uvm_lc_t *lc, const uvm_obj_use_t *use, size_t n, uvm_lc_act_t **act, size_t *nact);
/* The allocation at base was freed: the object leaves GPU memory's book-keeping. */
void uvm_lc_forget(uvm_lc_t *lc, uint64_t base);
/* The bytes of GPU memory the objects placed there take (their sizes rounded to 4 KB pages). */
uint64_t uvm_lc_gpu_bytes(const uvm_lc_t *lc);

#endif
