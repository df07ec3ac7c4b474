/*
 * plat_objects.c - Li & Chapman's object placement (object_policy, docs/handler.md §6s): the
 * trace's object profile (docs/trace-format.md "Object profile") from a first pass over it, and
 * before each kernel launch the launch's objects handed to the handler (uvm_handler_objects),
 * as their runtime hears of a target region's objects before it runs. With an object policy
 * every kernel is launched by the host program (svc_start), so each launch of the trace gets
 * exactly one call, in order; the profile's launches are the trace's kernel records.
 */
#include <stdlib.h>
#include <string.h>

#include "plat_int.h"

int plat_objects_init(plat_t *p, const char *trace_path, char *err, size_t errlen) {
    if (p->cfg->object_policy == CFG_OBJ_POLICY_NONE)
        return 0;
    if (strcmp(trace_path, "-") == 0) {
        snprintf(err, errlen,
                 "object_policy reads the trace twice (its object profile): give a "
                 "file, not -");
        return -1;
    }
    p->prof = calloc(1, sizeof(*p->prof));
    if (!p->prof) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (trace_profile(trace_path, p->prof, err, errlen) != 0) {
        free(p->prof);
        p->prof = NULL;
        return -1;
    }
    return 0;
}

void plat_objects_free(plat_t *p) {
    if (p->prof) {
        trace_profile_free(p->prof);
        free(p->prof);
        p->prof = NULL;
    }
}

int plat_objects_launch(plat_t *p, void (*begin)(void *), void (*end)(void *)) {
    const trace_prof_t *pr = p->prof;
    if (p->prof_next >= pr->nkern) {
        plat_platform_error(p, "object profile: launch %zu of a profile of %zu launches",
                            p->prof_next, pr->nkern);
        return -1;
    }
    const trace_prof_kernel_t *k = &pr->kern[p->prof_next++];
    uvm_obj_use_t *use = calloc(k->n ? k->n : 1, sizeof(*use));
    if (!use) {
        plat_platform_error(p, "object profile: out of memory");
        return -1;
    }
    for (size_t j = 0; j < k->n; j++) {
        const trace_prof_use_t *u = &pr->use[k->first + j];
        const trace_prof_obj_t *o = &pr->obj[u->obj];
        use[j].base = o->base | (uint64_t)o->space << TRACE_VA_BITS;
        use[j].size = o->size;
        use[j].density = u->density;
        use[j].rl = u->accesses;
        use[j].gl = o->global;
        use[j].reuse = u->reuse == TRACE_PROF_NEVER ? UVM_OBJ_NEVER : u->reuse;
    }
    char err[256];
    begin(p);
    if (p->score) { /* moves to the host and preferred locations follow no LRU order */
        plat_score_not_evictions(p->score);
        plat_score_order_off(p->score);
    }
    const int rc = hdrv_objects(p->hd.host, use, k->n, err, sizeof(err));
    end(p);
    free(use);
    if (p->halted)
        return -1;
    if (rc != 0) {
        plat_perr(p, "launch %zu (kernel %s): %s", p->prof_next - 1u, k->name, err);
        plat_halt(p, PLAT_EXIT_PLATFORM, "FAIL (platform error)");
        return -1;
    }
    return 0;
}
