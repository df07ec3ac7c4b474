/*
 * trace_profile.h - the object profile of a trace (docs/trace-format.md "Object profile"): per
 * data object (allocation record) and kernel launch, what Li & Chapman (SC'19, seeds/003) take
 * from their compiler analyses, measured instead by one pass over the trace (we have no
 * compiler): the access density (distinct bytes accessed / object size, their §4.2 definition),
 * the regional locality (accesses to the object in the launch, §4.1), the global locality
 * (accesses over the whole trace, their Equation 1 summed per launch) and the target reuse
 * distance (launches from this one to the object's next use, §3.4).
 */
#ifndef GMMU_TRACE_PROFILE_H
#define GMMU_TRACE_PROFILE_H

#include "trace.h"

#include <stddef.h>
#include <stdint.h>

/* reuse distance of an object's last use: never reused */
#define TRACE_PROF_NEVER UINT32_MAX
/* bytes one lane access is counted as (the trace records a lane's start address only) */
#define TRACE_PROF_WORD 4u

typedef struct {
    char name[TRACE_NAME_MAX];
    uint32_t space;  /* address space of the allocation record */
    uint64_t base;   /* byte address (in its space) */
    uint64_t size;   /* bytes */
    uint64_t global; /* lane accesses over the whole trace: global locality GL */
    uint64_t uses;   /* launches that access it */
} trace_prof_obj_t;

typedef struct {
    uint32_t obj;      /* index in trace_prof_t.obj */
    uint64_t accesses; /* lane accesses in this launch: regional locality RL */
    uint64_t bytes;    /* distinct bytes accessed, TRACE_PROF_WORD per distinct lane address word */
    uint64_t pages;    /* distinct 4 KB pages touched */
    double density;    /* bytes / size: access density (<= 1) */
    uint32_t reuse;    /* launches until its next use (1: the next launch), or TRACE_PROF_NEVER */
} trace_prof_use_t;

typedef struct {
    char name[TRACE_NAME_MAX];
    size_t first, n; /* its uses: use[first .. first + n), ordered by object index */
} trace_prof_kernel_t;

typedef struct {
    trace_prof_obj_t *obj;
    size_t nobj;
    trace_prof_kernel_t *kern; /* one per kernel launch, in trace order */
    size_t nkern;
    trace_prof_use_t *use;
    size_t nuse;
} trace_prof_t;

/* One pass over the trace at path. Accesses outside every live allocation are not counted (the
 * run reports them as fatal faults); a `free` ends its object, a later allocation is a new one.
 * 0, or -1 with err (a reader error: "path:line: reason", or out of memory); *p is then empty. */
int trace_profile(const char *path, trace_prof_t *p, char *err, size_t errlen);
void trace_profile_free(trace_prof_t *p);

#endif
