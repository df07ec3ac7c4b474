/*
 * plat_oracle.c - the oracles' input from a first pass over the trace (docs/handler.md §6d,
 * §6t), read before the run:
 *  - prefetch_policy = oracle: the pages of the memory records in file order (record by record,
 *    active lanes in lane order), first touches only, given to the handler as its page order
 *    (uvm_handler_set_page_order);
 *  - evict_policy = optimal (Belady): every use, one entry per distinct page per memory record
 *    (as an SM coalesces an instruction's lanes), given as the page uses
 *    (uvm_handler_set_page_uses); the run consumes them through the access oracle.
 * File order stands in for the run's touch order: the warps' real interleaving depends on the
 * simulation, which the first pass does not run.
 */
#include <stdlib.h>
#include <string.h>

#include "plat_int.h"
#include "u64map.h"

typedef struct {
    uint64_t *v;
    size_t n, cap;
} vec_t;

static int vec_push(vec_t *a, uint64_t x) {
    if (a->n == a->cap) {
        const size_t cap = a->cap ? 2 * a->cap : 4096;
        uint64_t *nv = realloc(a->v, cap * sizeof *nv);
        if (!nv)
            return -1;
        a->v = nv;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

/* One memory record: its first touches into order (want_order), its distinct pages, coalesced
 * as an SM does (sm_coalesce), into uses (want_uses). 0 or -1 (out of memory). */
static int note_record(const trace_rec_t *rec, u64map_t *seen, vec_t *order, vec_t *uses,
                       int want_order, int want_uses) {
    uint64_t pages[TRACE_LANES];
    const uint32_t np = sm_coalesce(rec->mask, rec->addr, pages);
    for (uint32_t i = 0; i < np; i++) {
        const uint64_t vpn = (uint64_t)rec->space << KERN_SPACE_SHIFT | pages[i]; /* (space, vpn) */
        if (want_uses && vec_push(uses, vpn) != 0)
            return -1;
        if (!want_order || u64map_get(seen, vpn, NULL))
            continue;
        if (u64map_put(seen, vpn, 1) != 0 || vec_push(order, vpn) != 0)
            return -1;
    }
    return 0;
}

int plat_oracle_order(plat_t *p, const char *trace_path, char *err, size_t errlen) {
    const uint32_t eprops = uvm_policy_props(UVM_POLICY_EVICT, p->cfg->evict_policy);
    /* an eviction policy by last access, or the count of pages evicted before use (§6z) */
    p->access_oracle =
        (eprops & UVM_POLICY_PROP_ACCESS_ORACLE) != 0 || p->cfg->count_unused == UVM_UNUSED_ORACLE;
    const int want_uses = (eprops & UVM_POLICY_PROP_NEXT_USE) != 0;
    const int want_order = (uvm_policy_props(UVM_POLICY_PREFETCH, p->cfg->prefetch_policy) &
                            UVM_POLICY_PROP_PAGE_ORDER) != 0;
    if (!want_order && !want_uses)
        return 0; /* no policy of the handler wants the trace ahead */
    if (strcmp(trace_path, "-") == 0) {
        snprintf(err, errlen, "%s = %s reads the trace twice: give a file, not -",
                 want_uses ? "evict_policy" : "prefetch_policy",
                 want_uses ? p->cfg->evict_policy : p->cfg->prefetch_policy);
        return -1;
    }
    trace_reader_t *r = trace_open(trace_path, err, errlen);
    if (!r)
        return -1;
    vec_t order = {0}, uses = {0};
    trace_rec_t rec;
    int rc = 0, got = 0;
    u64map_t seen; /* first touches only: the order stays as long as the distinct pages */
    u64map_init(&seen, 0);
    while (rc == 0 && (got = trace_next(r, &rec, err, errlen)) > 0) {
        if (rec.kind != TRACE_REC_MEM)
            continue;
        if (note_record(&rec, &seen, &order, &uses, want_order, want_uses) != 0) {
            snprintf(err, errlen, "%s: out of memory listing the oracle's pages", trace_path);
            rc = -1;
        }
    }
    if (rc == 0 && got < 0)
        rc = -1;
    trace_close(r);
    u64map_free(&seen);
    if (rc == 0 && want_order)
        rc = hdrv_set_page_order(p->hd.host, order.v, order.n, err, errlen);
    if (rc == 0 && want_uses)
        rc = hdrv_set_page_uses(p->hd.host, uses.v, uses.n, err, errlen);
    free(order.v);
    free(uses.v);
    return rc;
}
