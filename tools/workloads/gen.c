/*
 * gen.c - generator framework: allocations, kernel launches, warp scheduling, record output.
 */
#define _POSIX_C_SOURCE 200809L

#include "gen.h"

#include "err.h"
#include "num.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gen_fail(gen_t *g, const char *fmt, ...) {
    if (g->failed)
        return;
    g->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    err_vsetf(g->err, sizeof(g->err), fmt, ap);
    va_end(ap);
}

void gen_note(gen_t *g, const char *fmt, ...) {
    if (!g->o.verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("gmmu-gen: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

uint64_t gen_param(gen_t *g, const char *key, uint64_t def) {
    for (uint32_t i = 0; i < g->o.nparams; i++)
        if (strcmp(g->o.params[i].key, key) == 0) {
            g->o.params[i].used = 1;
            return g->o.params[i].val;
        }
    return def;
}

int gen_param_add(gen_opts_t *o, const char *kv, char *err, size_t errlen) {
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv || (size_t)(eq - kv) >= GEN_PARAM_KEY) {
        err_setf(err, errlen, "--param %s: expected key=value (key of 1..%d characters)", kv,
                 GEN_PARAM_KEY - 1);
        return -1;
    }
    if (o->nparams >= GEN_MAX_PARAMS) {
        err_setf(err, errlen, "--param %s: more than %d parameters", kv, GEN_MAX_PARAMS);
        return -1;
    }
    gen_param_t *p = &o->params[o->nparams];
    memset(p, 0, sizeof(*p));
    memcpy(p->key, kv, (size_t)(eq - kv));
    for (uint32_t i = 0; i < o->nparams; i++)
        if (strcmp(o->params[i].key, p->key) == 0) {
            err_setf(err, errlen, "--param %s: '%s' given twice", kv, p->key);
            return -1;
        }
    const int rc = num_parse_u64(eq + 1, &p->val);
    if (rc != NUM_OK) {
        err_setf(err, errlen, "--param %s: %s", kv, num_strerror(rc));
        return -1;
    }
    o->nparams++;
    return 0;
}

/* Writes one record; a failure is recorded with gen_fail. 0 or -1. */
static int gen_write(gen_t *g, const trace_rec_t *rec) {
    char err[256];
    if (trace_write(g->w, rec, err, sizeof(err)) == 0)
        return 0;
    gen_fail(g, "%s", err);
    return -1;
}

uint64_t gen_alloc(gen_t *g, const char *name, uint64_t bytes, int readonly) {
    if (bytes == 0)
        bytes = 1;
    if (g->next_va == 0)
        g->next_va = GEN_VA_BASE;
    uint64_t base = g->next_va;
    g->next_va = (base + bytes + GEN_ALLOC_ALIGN - 1) & ~(GEN_ALLOC_ALIGN - 1);
    if (g->next_va >= (1ULL << 47))
        gen_fail(g, "allocations exceed the 47-bit user address space");
    trace_rec_t rec;
    memset(&rec, 0, sizeof(rec));
    rec.kind = TRACE_REC_ALLOC;
    snprintf(rec.name, sizeof(rec.name), "%s", name);
    rec.base = base;
    rec.size = bytes;
    rec.readonly = readonly;
    if (!g->failed)
        gen_write(g, &rec);
    g->st.allocs++;
    g->st.alloc_bytes += bytes;
    return base;
}

void gen_mem(gen_t *g, gen_warp_t *w, trace_op_t op, uint32_t gap, uint32_t mask,
             const uint64_t *addr) {
    mask &= gen_lanes(w);
    if (!mask || g->failed)
        return;
    trace_rec_t rec;
    rec.kind = TRACE_REC_MEM;
    rec.space = 0; /* one application: address space 0 (docs/trace-format.md) */
    rec.name[0] = '\0';
    rec.base = rec.size = 0;
    rec.readonly = 0;
    rec.cta = w->cta;
    rec.warp = w->warp;
    rec.op = op;
    rec.gap = g->compute_on ? g->compute : gap;
    rec.mask = mask;
    rec.line = 0;
    for (int i = 0; i < GEN_WARP; i++)
        rec.addr[i] = (mask >> i & 1u) ? addr[i] : 0;
    gen_write(g, &rec);
    w->emitted = 1;
    g->st.records++;
    g->st.lanes += (uint64_t)__builtin_popcount(mask);
}

/* The warp's exit record (it emitted memory records and its step returned 0). */
static void gen_exit(gen_t *g, const gen_warp_t *w) {
    if (g->failed)
        return;
    trace_rec_t rec;
    memset(&rec, 0, sizeof(rec));
    rec.kind = TRACE_REC_EXIT;
    rec.cta = w->cta;
    rec.warp = w->warp;
    gen_write(g, &rec);
    g->st.exits++;
}

void gen_mem_strided(gen_t *g, gen_warp_t *w, trace_op_t op, uint32_t gap, uint32_t mask,
                     uint64_t base, int64_t stride) {
    uint64_t a[GEN_WARP];
    for (int i = 0; i < GEN_WARP; i++)
        a[i] = base + (uint64_t)i * (uint64_t)stride;
    gen_mem(g, w, op, gap, mask, a);
}

typedef struct {
    uint32_t cta; /* UINT32_MAX: empty slot */
    uint32_t alive;
} gen_slot_t;

void gen_launch(gen_t *g, const gen_kernel_t *k) {
    if (g->failed)
        return;
    if (k->block == 0 || k->block > 1024) {
        gen_fail(g, "kernel %s: block of %u threads", k->name, k->block);
        return;
    }
    trace_rec_t rec;
    memset(&rec, 0, sizeof(rec));
    rec.kind = TRACE_REC_KERNEL;
    snprintf(rec.name, sizeof(rec.name), "%s", k->name);
    if (gen_write(g, &rec) != 0)
        return;
    g->st.kernels++;
    if (k->grid == 0)
        return;
    const uint32_t wpc = (k->block + GEN_WARP - 1) / GEN_WARP;
    const uint32_t nslots = g->o.window ? g->o.window : 16;
    const size_t ssz = k->state_size ? (k->state_size + 15) & ~(size_t)15 : 0;
    gen_slot_t *slots = calloc(nslots, sizeof(*slots));
    gen_warp_t *warps = calloc((size_t)nslots * wpc, sizeof(*warps));
    unsigned char *states = ssz ? calloc((size_t)nslots * wpc, ssz) : NULL;
    unsigned char *done = calloc((size_t)nslots * wpc, 1);
    if (!slots || !warps || !done || (ssz && !states)) {
        gen_fail(g, "out of memory (kernel %s)", k->name);
        goto out;
    }
    uint32_t next_cta = 0, resident = 0;
    for (uint32_t s = 0; s < nslots; s++)
        slots[s].cta = UINT32_MAX;
    for (;;) {
        /* fill empty slots with the next CTAs */
        for (uint32_t s = 0; s < nslots && next_cta < k->grid; s++) {
            if (slots[s].cta != UINT32_MAX)
                continue;
            uint32_t c = next_cta++;
            slots[s].cta = c;
            slots[s].alive = wpc;
            resident++;
            for (uint32_t i = 0; i < wpc; i++) {
                gen_warp_t *w = &warps[(size_t)s * wpc + i];
                uint32_t first = i * GEN_WARP;
                w->cta = c;
                w->warp = i;
                w->nthreads = k->block - first < GEN_WARP ? k->block - first : GEN_WARP;
                w->tid0 = (uint64_t)c * k->block + first;
                w->step = 0;
                w->emitted = 0;
                w->state = ssz ? states + ((size_t)s * wpc + i) * ssz : NULL;
                if (ssz)
                    memset(w->state, 0, ssz);
                done[(size_t)s * wpc + i] = 0;
            }
        }
        if (resident == 0 || g->failed)
            break;
        /* one step of every live warp, slot by slot */
        for (uint32_t s = 0; s < nslots; s++) {
            if (slots[s].cta == UINT32_MAX)
                continue;
            for (uint32_t i = 0; i < wpc; i++) {
                size_t wi = (size_t)s * wpc + i;
                if (done[wi])
                    continue;
                gen_warp_t *w = &warps[wi];
                int more = k->step(g, k, w);
                w->step++;
                if (!more) {
                    done[wi] = 1;
                    if (w->emitted)
                        gen_exit(g, w);
                    if (--slots[s].alive == 0) {
                        slots[s].cta = UINT32_MAX;
                        resident--;
                    }
                }
            }
        }
    }
out:
    free(slots);
    free(warps);
    free(states);
    free(done);
}

static const gen_workload_t k_workloads[] = {
    {"backprop", "rodinia", 1024, "neural-network training pass: forward + weight adjust",
     gen_backprop},
    {"bfs", "rodinia", 256, "breadth-first search (Harish & Narayanan) on an R-MAT graph", gen_bfs},
    {"hotspot", "rodinia", 2048, "thermal 5-point stencil with pyramid blocking", gen_hotspot},
    {"pathfinder", "rodinia", 4096, "dynamic programming over a grid, pyramid blocking",
     gen_pathfinder},
    {"srad", "rodinia", 1024, "speckle-reducing anisotropic diffusion (srad_v2)", gen_srad},
    {"nw", "rodinia", 2048, "Needleman-Wunsch, one launch per block anti-diagonal", gen_nw},
    {"gaussian", "rodinia", 512, "Gaussian elimination, Fan1/Fan2 per column", gen_gaussian},
    {"kmeans", "rodinia", 1024, "k-means clustering (invert_mapping + kmeansPoint)", gen_kmeans},
    {"nn", "rodinia", 4096, "nearest neighbour: distance of every record", gen_nn},
    {"sgemm", "parboil", 1024, "dense matrix multiply C = A*B^T (mysgemmNT, register tiling)",
     gen_sgemm},
    {"stencil", "parboil", 2048, "7-point 3-D Jacobi stencil (block2D_hybrid_coarsen_x)",
     gen_stencil},
    {"atax", "polybench", 512, "y = A^T (A x): row kernel then column kernel", gen_atax},
    {"pagerank", "pannotia", 256, "push-style PageRank with atomics on an R-MAT graph",
     gen_pagerank},
    {"sssp", "lonestar", 256, "frontier Bellman-Ford with atomicMin on an R-MAT graph", gen_sssp},
    {"bst", "micro", 2048, "binary-search-tree lookups (pointer chasing)", gen_bst},
    {"xsbench", "xsbench", 4096, "macroscopic cross-section lookups (unionized grid)", gen_xsbench},
    {"chase", "h100probe", 1048576,
     "dependent loads, one per stride block (random page), shuffled, passes (params stride_kb, "
     "gap)",
     gen_chase},
    {"stream", "h100probe", 8192,
     "grid-stride read of a buffer, one warp instruction per 4 KB page (params ctas, gap)",
     gen_stream},
    {"sparse", "h100probe", 262144,
     "thread i reads page i*k of a buffer, all at once (params k, shuffle, gap)", gen_sparse},
    {"streaming", "uvm_oversubs", 8192,
     "grid-stride read of one managed buffer (params gpu_pages, oversub_pct, page_kb, block, "
     "ctas, lane_bytes, gap)",
     gen_os_streaming},
    {"block_streaming", "uvm_oversubs", 8192,
     "each CTA reads its own contiguous chunk (params as streaming)", gen_os_block_streaming},
    {"random_warp", "uvm_oversubs", 8192,
     "each warp reads 128 B of a random page per iteration (params as streaming)",
     gen_os_random_warp},
    {NULL, NULL, 0, NULL, NULL},
};
const gen_workload_t *gen_workloads(void) {
    return k_workloads;
}

const gen_workload_t *gen_find(const char *name) {
    for (const gen_workload_t *w = k_workloads; w->name; w++)
        if (strcmp(w->name, name) == 0)
            return w;
    return NULL;
}

int gen_run(gen_t *g, const gen_workload_t *wl, const char *out, int binary) {
    char err[512];
    if (g->o.size == 0)
        g->o.size = (uint64_t)wl->default_size_kb * 1024;
    g->w = trace_create(out, binary, err, sizeof(err));
    if (!g->w) {
        gen_fail(g, "%s", err);
        return -1;
    }
    const uint64_t compute = gen_param(g, "compute", UINT64_MAX);
    if (compute != UINT64_MAX) {
        if (compute > 1000000u)
            gen_fail(g,
                     "--param compute=%llu: more than 1000000 instructions per memory "
                     "instruction",
                     (unsigned long long)compute);
        g->compute_on = 1;
        g->compute = (uint32_t)compute;
    }
    wl->run(g);
    for (uint32_t i = 0; i < g->o.nparams; i++)
        if (!g->o.params[i].used)
            gen_fail(g, "%s has no parameter '%s'", wl->name, g->o.params[i].key);
    if (trace_finish(g->w, err, sizeof(err)) != 0)
        gen_fail(g, "%s", err);
    g->w = NULL;
    return g->failed ? -1 : 0;
}
