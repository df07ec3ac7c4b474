/*
 * uvm_lc_run.c - Li & Chapman's object placement enforced (docs/handler.md §6s): before a
 * launch, the planner's decisions (uvm_lc.c) become the calls their runtime makes (§3.2 "Data
 * Mapping Enforcement"): an object removed from GPU memory is moved to the host
 * (cudaMemPrefetchAsync to the CPU: uvm_handler_to_host) and advised preferred on the host; an
 * object placed in host memory is advised preferred on the host; an object placed in GPU memory
 * is advised preferred on the GPU and, with explicit transfer, prefetched (uvm_handler_prefetch).
 * Host memory is the remote placement (§6l): every page of a host-placed object is mapped
 * remotely on its host copy. A partially mapped object (object_partial, §6s.1) is both: its
 * first part as a GPU-placed object, the rest as a host-placed one.
 */
#include "err.h"
#include "uvm_lc.h"
#include "uvm_objects.h"
#include "uvm_place.h"
#include "uvm_priv.h"

#include <inttypes.h>
#include <stdlib.h>

void uvm_lc_release(uvm_handler_t *h) {
    if (h->lc) {
        uvm_lc_fini(h->lc);
        free(h->lc);
        h->lc = NULL;
    }
}

static int lc_to_host(uvm_handler_t *h, uint64_t base, uint64_t size, char *err, size_t errlen) {
    uint64_t pages = 0;
    const int rc = uvm_handler_to_host(h, base, size, &pages, err, errlen);
    h->stats.obj_host_pages += pages;
    return rc;
}

static uint32_t lc_pages(uint64_t size) {
    return (uint32_t)((size + UVM_PAGE_BYTES - 1u) / UVM_PAGE_BYTES);
}

/* [base, base + size) of an object placed in host memory (all of it, or the rest of a partial
 * one): its GPU-resident pages go to the host, then every page is mapped remotely on its host
 * copy (the remote placement, §6l): the GPU reads and writes it over the link and never faults
 * on it, as their Host placement (§2.3) */
static int lc_host(uvm_handler_t *h, uint64_t base, uint64_t size, char *err, size_t errlen) {
    if (uvm_handler_advise(h, base, size, UVM_ADVISE_PREFER_HOST, err, errlen) != 0 ||
        lc_to_host(h, base, size, err, errlen) != 0)
        return -1;
    if (uvm_remote_map(h, base >> GMMU_PAGE_SHIFT, lc_pages(size), true) < 0) {
        err_setf(err, errlen,
                 "uvm: objects: mapping [0x%" PRIx64 ", +0x%" PRIx64 ") remotely failed", base,
                 size);
        return -1;
    }
    return 0;
}

/* Explicit transfer of [base, base + size) (an object, or a partial one's GPU part): its missing
 * pages prefetched; when the free frames do not hold them, the pages of host-placed objects
 * (faulted in on demand) go to the host first; if still too few, the prefetch is left out (the
 * pages fault in). */
static int lc_prefetch(uvm_handler_t *h, uint64_t base, uint64_t size, char *err, size_t errlen) {
    uint64_t nfree = 0, need = uvm_prefetch_frames(h, base, size, &nfree);
    for (size_t i = 0; need > nfree && i < h->lc->nobj; i++) {
        const uvm_lc_obj_t *x = &h->lc->obj[i];
        if (x->loc == UVM_LC_LOC_CPU && uvm_find_alloc(h, x->base >> GMMU_PAGE_SHIFT)) {
            if (lc_to_host(h, x->base, x->size, err, errlen) != 0)
                return -1;
            need = uvm_prefetch_frames(h, base, size, &nfree);
        }
    }
    if (need == 0)
        return 0;
    if (need > nfree) {
        h->stats.obj_prefetch_skipped++;
        return 0;
    }
    uint64_t pages = 0;
    if (uvm_handler_prefetch(h, base, size, &pages, err, errlen) != 0)
        return -1;
    h->stats.obj_prefetches++;
    h->stats.obj_prefetch_pages += pages;
    return 0;
}

/* [base, base + size) of an object placed in GPU memory (all of it, or a partial one's first
 * part): preferred on the GPU; moved from host memory with implicit transfer, its remote
 * mappings go so that the GPU faults it in on demand (a prefetch replaces each remote mapping as
 * the page gets its frame) */
static int lc_gpu(uvm_handler_t *h, uint64_t base, uint64_t size, const uvm_lc_act_t *a, char *err,
                  size_t errlen) {
    if (a->moved) {
        if (uvm_handler_advise(h, base, size, UVM_ADVISE_PREFER_GPU, err, errlen) != 0)
            return -1;
        if (!a->prefetch)
            (void)uvm_remote_unmap(h, base >> GMMU_PAGE_SHIFT, lc_pages(size));
    }
    return a->prefetch ? lc_prefetch(h, base, size, err, errlen) : 0;
}

/* Partial mapping (their §3.4, docs/handler.md §6s.1): the first a->part bytes as an object
 * placed in GPU memory, the rest as one placed in host memory (first, so that pages of the rest
 * resident on the GPU leave before the part is prefetched) */
static int lc_part(uvm_handler_t *h, const uvm_lc_act_t *a, char *err, size_t errlen) {
    const uvm_lc_obj_t *o = &h->lc->obj[a->obj];
    if (a->moved) {
        h->stats.obj_partial_maps++;
        h->stats.obj_partial_pages += lc_pages(a->part);
        if (lc_host(h, o->base + a->part, o->size - a->part, err, errlen) != 0)
            return -1;
    }
    return lc_gpu(h, o->base, a->part, a, err, errlen);
}

static int lc_act(uvm_handler_t *h, const uvm_lc_act_t *a, char *err, size_t errlen) {
    const uvm_lc_obj_t *o = &h->lc->obj[a->obj];
    switch (a->kind) {
    case UVM_LC_ACT_EVICT:
        h->stats.obj_evictions++;
        return lc_host(h, o->base + a->part, o->size - a->part, err, errlen);
    case UVM_LC_ACT_CPU:
        if (!a->moved)
            return 0;
        h->stats.obj_host_placements++;
        return lc_host(h, o->base, o->size, err, errlen);
    case UVM_LC_ACT_PART:
        return lc_part(h, a, err, errlen);
    default:
        return lc_gpu(h, o->base, o->size, a, err, errlen);
    }
}

int uvm_handler_objects(uvm_handler_t *h, const uvm_obj_use_t *use, size_t n, char *err,
                        size_t errlen) {
    if (h->cfg.object_policy == UVM_OBJ_POLICY_NONE)
        return 0;
    for (size_t j = 0; j < n; j++) {
        const uvm_alloc_t *al =
            use[j].size ? uvm_find_alloc(h, use[j].base >> GMMU_PAGE_SHIFT) : NULL;
        if (!al || al->base != use[j].base || al->size != use[j].size) {
            err_setf(err, errlen,
                     "uvm: objects: [0x%" PRIx64 ", +0x%" PRIx64 ") is not an allocation",
                     use[j].base, use[j].size);
            return -1;
        }
    }
    if (!h->lc) {
        h->lc = malloc(sizeof(*h->lc));
        if (!h->lc) {
            err_setf(err, errlen, "uvm: objects: out of memory");
            return -1;
        }
        uvm_lc_init(h->lc, h->cfg.object_policy, h->cfg.object_transfer,
                    h->cfg.gpu_data_pages * UVM_PAGE_BYTES);
        h->lc->partial = h->cfg.object_partial != 0;
    }
    uvm_lc_act_t *act = NULL;
    size_t nact = 0;
    if (uvm_lc_plan(h->lc, use, n, &act, &nact) != 0) {
        err_setf(err, errlen, "uvm: objects: out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < nact; i++)
        rc = lc_act(h, &act[i], err, errlen);
    free(act);
    h->stats.obj_launches++;
    return rc;
}
