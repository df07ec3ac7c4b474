/*
 * plat_host.c - the host calls of a trace (docs/trace-format.md "Host calls", docs/cosim.md
 * "Host calls"): advise, prefetch, free, cpu. A call read from the trace (between kernels, or
 * inside a kernel's records: then it happens after that kernel) is checked against the
 * allocations of its address space and queued; the host program performs the queued calls right
 * before it launches the next kernel (svc_start, host context), each bracketed as a handler
 * service so that the scoreboard checks the page tables and content tags it changed.
 *
 * Acted on: free (the handler's uvm_handler_free_alloc: unmap, INVAL_PAGE, frames released,
 * then CoCoA compaction; the platform forgets the allocation, so a later access to it is a
 * fatal fault, exit 3); prefetch to the GPU (uvm_handler_prefetch: a bulk migration, large
 * DMAs, no faults; one that needs evictions stops the run, exit 2); prefetch to the host and
 * cpu (uvm_handler_to_host for a prefetch; uvm_handler_cpu_fault / uvm_handler_cpu_write for a
 * `cpu` record: every GPU-resident page of the range goes to the host as an eviction does, a `cpu`
 * record's as CPU faults, an event of the CPU for the thrashing detection; a CPU write then gives
 * each page of the range a new content version in host memory).
 * advise read_mostly: read duplication (uvm_handler_advise, docs/handler.md §6o; a cpu W then
 * collapses the duplicates, uvm_handler_cpu_write); advise preferred_location=gpu|host: the
 * eviction order. Refused with a message (exit 2) until they are built: advise accessed_by (remote
 * mappings). A free acts in the record's address space (the allocation by its extended base).
 */
#include <stdlib.h>
#include <string.h>

#include "plat_int.h"

static const char *call_kw(const trace_rec_t *rec) {
    switch (rec->kind) {
    case TRACE_REC_ADVISE:
        return "advise";
    case TRACE_REC_PREFETCH:
        return "prefetch";
    case TRACE_REC_FREE:
        return "free";
    case TRACE_REC_CPU:
        return "cpu";
    default:
        return "?";
    }
}

/* "file:line" or "file:offset N" of a record */
static void rec_where(const plat_t *p, const trace_rec_t *rec, char *buf, size_t n) {
    snprintf(buf, n, "%s:%s%llu", p->o.trace_path, p->wl.trace_binary ? "offset " : "",
             (unsigned long long)rec->line);
}

static void bad_call(plat_t *p, const char *where, const char *msg) {
    plat_perr(p, "%s: %s", where, msg);
    plat_halt(p, PLAT_EXIT_INPUT, "FAIL (bad trace)");
}

/* The allocation of space `space` called name (NULL if none). */
static const plat_alloc_t *alloc_named(const plat_t *p, uint32_t space, const char *name) {
    for (size_t i = 0; i < p->nalloc; i++)
        if (p->allocs[i].base >> TRACE_VA_BITS == space && strcmp(p->allocs[i].name, name) == 0)
            return &p->allocs[i];
    return NULL;
}

/* 1 if a free of allocation a is queued (it is gone for the calls after it). */
static int free_queued(const plat_t *p, const plat_alloc_t *a) {
    for (uint32_t i = 0; a && i < p->wl.ncalls; i++)
        if (p->wl.calls[i].kind == TRACE_REC_FREE &&
            (uint64_t)p->wl.calls[i].space == a->base >> TRACE_VA_BITS &&
            strcmp(p->wl.calls[i].name, a->name) == 0)
            return 1;
    return 0;
}

void plat_host_rec(plat_t *p, const trace_rec_t *rec) {
    char where[400], msg[400];
    rec_where(p, rec, where, sizeof(where));
    const uint64_t xbase = rec->base | (uint64_t)rec->space << TRACE_VA_BITS;
    if (rec->kind == TRACE_REC_FREE) {
        const plat_alloc_t *fa = alloc_named(p, rec->space, rec->name);
        if (!fa || free_queued(p, fa)) {
            snprintf(msg, sizeof(msg), "field 2 (name): free of '%s': no such allocation%s",
                     rec->name, rec->space ? " in this address space" : "");
            bad_call(p, where, msg);
            return;
        }
    } else {
        const plat_alloc_t *a = plat_find_alloc(p, xbase);
        if (free_queued(p, a))
            a = NULL;
        if (!a || rec->size > a->size - (xbase - a->base)) {
            snprintf(msg, sizeof(msg),
                     "field %d: %s range [0x%llx, +0x%llx) does not lie inside one allocation",
                     a ? 3 : 2, call_kw(rec), (unsigned long long)rec->base,
                     (unsigned long long)rec->size);
            bad_call(p, where, msg);
            return;
        }
    }
    if (p->wl.ncalls == p->wl.capcalls) {
        const uint32_t cap = p->wl.capcalls ? 2u * p->wl.capcalls : 8u;
        trace_rec_t *c = realloc(p->wl.calls, cap * sizeof(*c));
        if (!c) {
            plat_platform_error(p, "out of memory");
            return;
        }
        p->wl.calls = c;
        p->wl.capcalls = cap;
    }
    p->wl.calls[p->wl.ncalls++] = *rec;
}

/* The CPU writes the pages of rec's range (after they reached the host): a new content version
 * of each in host memory, which the next GPU access checks. */
static void cpu_write(plat_t *p, uint64_t xbase, uint64_t size) {
    for (uint64_t v = xbase / PLAT_PAGE; v <= (xbase + size - 1u) / PLAT_PAGE; v++) {
        uint64_t ver = 0;
        u64map_get(&p->truth, v, &ver);
        ver++;
        if (u64map_put(&p->truth, v, ver) != 0 ||
            hostmem_set_page_tag(&p->hm, v, hostmem_content_tag(v, ver)) != 0) {
            plat_platform_error(p, "cpu write of VA 0x%llx: out of memory or outside host memory",
                                (unsigned long long)(v * PLAT_PAGE));
            return;
        }
    }
}

/* prefetch RANGE host, cpu RANGE R|W: the GPU-resident pages go to the host. 0 or -1. */
static int to_host(plat_t *p, const trace_rec_t *rec) {
    char err[256];
    const uint64_t xbase = rec->base | (uint64_t)rec->space << TRACE_VA_BITS;
    uint64_t pages = 0;
    const int rc = rec->kind == TRACE_REC_CPU && rec->op == TRACE_OP_WRITE
                       ? hdrv_cpu_write(p->hd.host, xbase, rec->size, &pages, err, sizeof(err))
                   : rec->kind == TRACE_REC_CPU
                       ? hdrv_cpu_fault(p->hd.host, xbase, rec->size, &pages, err, sizeof(err))
                       : hdrv_to_host(p->hd.host, xbase, rec->size, &pages, err, sizeof(err));
    if (p->halted)
        return -1;
    if (rc != 0) {
        plat_perr(p, "%s: %s", call_kw(rec), err);
        plat_halt(p, PLAT_EXIT_PLATFORM, "FAIL (platform error)");
        return -1;
    }
    p->wl.host_d2h_pages += pages;
    if (rec->kind == TRACE_REC_PREFETCH) {
        p->wl.host_prefetches++;
    } else {
        p->wl.host_cpu_touches++;
        if (rec->op == TRACE_OP_WRITE)
            cpu_write(p, xbase, rec->size);
    }
    return p->halted ? -1 : 0;
}

/* The trace's advice codes are the handler's (one numbering, docs/trace-format.md). */
_Static_assert(TRACE_ADV_READ_MOSTLY == (int)UVM_ADVISE_READ_MOSTLY &&
                   TRACE_ADV_PREFER_GPU == (int)UVM_ADVISE_PREFER_GPU &&
                   TRACE_ADV_PREFER_HOST == (int)UVM_ADVISE_PREFER_HOST &&
                   TRACE_ADV_ACCESSED_BY == (int)UVM_ADVISE_ACCESSED_BY,
               "advice codes differ");

/* advise RANGE read_mostly | preferred_location=gpu|host (docs/handler.md §6o): the handler's read
 * duplication or eviction order; read-mostly pages are remembered for the scoreboard (a
 * read-only leaf of a writable allocation is then legal). */
static int advise(plat_t *p, const trace_rec_t *rec) {
    char err[256];
    const uint64_t xbase = rec->base | (uint64_t)rec->space << TRACE_VA_BITS;
    if (hdrv_advise(p->hd.host, xbase, rec->size, rec->arg, err, sizeof(err)) != 0) {
        char where[400];
        rec_where(p, rec, where, sizeof(where));
        plat_perr(p, "%s: advise: %s", where, err);
        plat_halt(p, PLAT_EXIT_INPUT, "FAIL (host call not modeled)");
        return -1;
    }
    /* preferred locations reorder the evictions: lru's migration order no longer holds */
    if (rec->arg != TRACE_ADV_READ_MOSTLY && p->score)
        plat_score_order_off(p->score);
    for (uint64_t v = xbase / PLAT_PAGE;
         rec->arg == TRACE_ADV_READ_MOSTLY && v <= (xbase + rec->size - 1u) / PLAT_PAGE; v++)
        if (u64map_put(&p->rmostly, v, 1) != 0) {
            plat_platform_error(p, "advise: out of memory");
            return -1;
        }
    p->wl.host_advises++;
    return p->halted ? -1 : 0;
}

/* One call (host context). 0 or -1 (halted). */
static int host_call(plat_t *p, const trace_rec_t *rec) {
    char err[256];
    if (rec->kind == TRACE_REC_FREE) {
        const plat_alloc_t *a = alloc_named(p, rec->space, rec->name);
        const uint64_t base = a ? a->base : 0, size = a ? a->size : 0;
        if (!a || hdrv_free_alloc_at(p->hd.host, base, err, sizeof(err)) != 0) {
            plat_perr(p, "free %s: %s", rec->name, a ? err : "no such allocation");
            plat_halt(p, PLAT_EXIT_PLATFORM, "FAIL (platform error)");
            return -1;
        }
        plat_del_alloc(p, base);
        for (uint64_t v = base / PLAT_PAGE; v < (base + size + PLAT_PAGE - 1u) / PLAT_PAGE; v++)
            u64map_del(&p->rmostly, v); /* its advice ends with it */
        p->wl.host_frees++;
    } else if (rec->kind == TRACE_REC_ADVISE) {
        return advise(p, rec);
    } else if (rec->kind == TRACE_REC_CPU ||
               (rec->kind == TRACE_REC_PREFETCH && rec->arg == TRACE_LOC_HOST)) {
        return to_host(p, rec);
    } else if (rec->kind == TRACE_REC_PREFETCH) {
        const uint64_t xbase = rec->base | (uint64_t)rec->space << TRACE_VA_BITS;
        uint64_t pages = 0;
        const uint64_t t0 = plat_now_ns(p); /* the call's time: its copies are waited for */
        const int rc = hdrv_prefetch(p->hd.host, xbase, rec->size, &pages, err, sizeof(err));
        if (p->halted)
            return -1;
        if (rc != 0) {
            char where[400];
            rec_where(p, rec, where, sizeof(where));
            plat_perr(p, "%s: prefetch: %s", where, err);
            plat_halt(p, PLAT_EXIT_INPUT, "FAIL (host call not modeled)");
            return -1;
        }
        p->wl.host_prefetches++;
        p->wl.host_prefetch_pages += pages;
        p->wl.host_prefetch_gpu_ns += plat_now_ns(p) - t0;
    }
    return p->halted ? -1 : 0;
}

int plat_host_calls(plat_t *p, void (*begin)(void *), void (*end)(void *)) {
    int rc = 0;
    for (uint32_t i = 0; i < p->wl.ncalls && rc == 0; i++) {
        begin(p);
        if (p->score) /* a free's or a migration to the host's unmaps follow no LRU order */
            plat_score_not_evictions(p->score);
        rc = host_call(p, &p->wl.calls[i]);
        end(p);
    }
    p->wl.ncalls = 0;
    return rc == 0 && !p->halted ? 0 : -1;
}
