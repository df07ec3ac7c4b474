/*
 * uvm_objects.h - object-level placement (Li & Chapman, SC'19; docs/handler.md §6s, issue 22
 * item 3): before each kernel launch the host program tells the handler which data objects
 * (allocations) the kernel uses, with what its object profile measured (docs/trace-format.md
 * "Object profile"); the configured object policy (key object_policy) places them as Li &
 * Chapman's runtime does, through the calls a program has (prefetch to the GPU or the host,
 * preferred-location advice).
 */
#ifndef UVM_OBJECTS_H
#define UVM_OBJECTS_H

#include <stddef.h>
#include <stdint.h>

/* cfg.object_policy (spec/config.toml key object_policy) */
#define UVM_OBJ_POLICY_NONE 0u     /* nothing: the driver's default (UM) */
#define UVM_OBJ_POLICY_TRANSFER 1u /* implicit/explicit selection only, no placement (§3.1) */
#define UVM_OBJ_POLICY_RLM 2u      /* regional locality (§3.2) */
#define UVM_OBJ_POLICY_GLM 3u      /* global locality (§3.3) */
#define UVM_OBJ_POLICY_RDM 4u      /* target reuse distance (§3.4) */
#define UVM_OBJ_POLICY_LRU 5u      /* their runtime reference: object LRU, explicit (§5.2) */
#define UVM_OBJ_POLICY_HOST 6u     /* every object in host memory (§2.3 "Host") */
/* cfg.object_transfer (key object_transfer): how an object placed on the GPU gets there */
#define UVM_OBJ_XFER_DENSITY 0u  /* explicit (prefetch) if access density >= 0.5, else on demand */
#define UVM_OBJ_XFER_IMPLICIT 1u /* always on demand */
#define UVM_OBJ_XFER_EXPLICIT 2u /* always prefetched before the kernel */
/* their empirically chosen density threshold (§3.1) */
#define UVM_OBJ_DENSITY_THRESHOLD 0.5
/* reuse distance of a last use */
#define UVM_OBJ_NEVER UINT32_MAX

/* One object the next kernel uses. */
typedef struct {
    uint64_t base, size; /* the allocation (extended base: ASID << 48 | VA) */
    double density;      /* access density in this launch (0..1) */
    uint64_t rl;         /* regional locality: accesses in this launch */
    uint64_t gl;         /* global locality: accesses over the run */
    uint32_t reuse;      /* target reuse distance (launches to the next use) or UVM_OBJ_NEVER */
} uvm_obj_use_t;

/* Before a kernel launch (host context): the objects it uses (the launch's uses of the trace's
 * object profile), placed by cfg.object_policy (nothing when it is none). Each must be an
 * allocation (base its start). 0, or -1 + err (an unknown object, out of memory, a failed
 * prefetch or move to the host). */
struct uvm_handler;
int uvm_handler_objects(struct uvm_handler *h, const uvm_obj_use_t *use, size_t n, char *err,
                        size_t errlen);

#endif
