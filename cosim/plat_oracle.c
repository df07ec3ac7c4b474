/*
 * plat_oracle.c - the oracle prefetcher's input (Zheng et al. §5, docs/handler.md §6d): with
 * prefetch_policy = oracle, a first pass over the trace lists the pages of its memory records
 * in file order (record by record, active lanes in lane order) and gives that first-touch order
 * to the handler (uvm_handler_set_page_order). File order stands in for the run's touch order:
 * the warps' real interleaving depends on the simulation, which the first pass does not run.
 */
#include <stdlib.h>
#include <string.h>

#include "plat_int.h"
#include "u64map.h"

int plat_oracle_order(plat_t *p, const char *trace_path, char *err, size_t errlen) {
    p->access_oracle = (uvm_policy_props(UVM_POLICY_EVICT, p->cfg->evict_policy) &
                        UVM_POLICY_PROP_ACCESS_ORACLE) != 0;
    if (!(uvm_policy_props(UVM_POLICY_PREFETCH, p->cfg->prefetch_policy) &
          UVM_POLICY_PROP_PAGE_ORDER))
        return 0; /* the handler's prefetch policy wants no page order */
    if (strcmp(trace_path, "-") == 0) {
        snprintf(err, errlen, "prefetch_policy = %s reads the trace twice: give a file, not -",
                 p->cfg->prefetch_policy);
        return -1;
    }
    trace_reader_t *r = trace_open(trace_path, err, errlen);
    if (!r)
        return -1;
    uint64_t *v = NULL;
    size_t n = 0, cap = 0;
    trace_rec_t rec;
    int rc = 0, got = 0;
    u64map_t seen; /* first touches only: the list stays as long as the distinct pages */
    u64map_init(&seen, 0);
    while (rc == 0 && (got = trace_next(r, &rec, err, errlen)) > 0) {
        if (rec.kind != TRACE_REC_MEM)
            continue;
        for (unsigned l = 0; l < TRACE_LANES && rc == 0; l++) {
            if (!(rec.mask >> l & 1u))
                continue;
            const uint64_t vpn = (uint64_t)rec.space << KERN_SPACE_SHIFT |
                                 rec.addr[l] / TRACE_PAGE_BYTES; /* (space, vpn) */
            if (u64map_get(&seen, vpn, NULL))
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 4096;
                uint64_t *nv = realloc(v, cap * sizeof *nv);
                if (!nv) {
                    snprintf(err, errlen, "%s: out of memory listing the oracle's pages",
                             trace_path);
                    rc = -1;
                    break;
                }
                v = nv;
            }
            if (u64map_put(&seen, vpn, 1) != 0) {
                snprintf(err, errlen, "%s: out of memory listing the oracle's pages", trace_path);
                rc = -1;
                break;
            }
            v[n++] = vpn;
        }
    }
    if (rc == 0 && got < 0)
        rc = -1;
    trace_close(r);
    u64map_free(&seen);
    if (rc == 0)
        rc = hdrv_set_page_order(p->hd.host, v, n, err, errlen);
    free(v);
    return rc;
}
