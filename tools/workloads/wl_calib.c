/*
 * wl_calib.c - the experiments of the H100 probe (../shared/hw/uvm_probe.cu) as workloads, so
 * the same access patterns run in the simulator (make calibrate, docs/calibration.md).
 *
 *   chase   k_chase: one thread, n = size/stride dependent loads, load i in stride block i at a
 *           random 4 KB page of the block, the n loads in shuffled order; one kernel per pass.
 *   stream  k_stream: grid-stride read of the whole buffer. Scaling: one model warp stands for
 *           8 consecutive real warps and one model instruction for their 8 loads of one 4 KB
 *           page (32 lanes x 128 B): the probe's 2112 CTAs x 16 warps x 512 B per grid step
 *           become `ctas` (264) CTAs x 16 warps x 4 KB, the same 17.3 MB stride.
 *   sparse  k_touch: thread i reads 4 bytes at the start of page i*k (ascending, or shuffled
 *           with shuffle=1), 256 threads per CTA, one kernel: exact, no scaling.
 *
 * The probe's own bookkeeping accesses (k_chase's offs[] load and lat[] store, k_touch's pages[]
 * load: small cudaMalloc arrays that always hit) are not emitted; `gap` (cycles before each
 * instruction) carries the per-access time the simulator does not model (data access, compute).
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define R TRACE_OP_READ
#define CAL_PAGE 4096ULL

/* Fisher-Yates shuffle of v[0..n) driven by gen_hash(seed, i, salt). */
static void cal_shuffle(uint64_t *v, uint64_t n, uint64_t seed, uint64_t salt) {
    for (uint64_t i = n; i > 1; i--) {
        const uint64_t j = gen_hash(seed, i, salt) % i;
        const uint64_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

/* ---- chase ---------------------------------------------------------------------------------- */
typedef struct {
    const uint64_t *addr; /* the n load addresses in execution order */
    uint64_t n;
    uint32_t gap;
} chase_t;

static int chase_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const chase_t *c = k->arg;
    uint64_t a[GEN_WARP] = {0};
    a[0] = c->addr[w->step];
    gen_mem(g, w, R, c->gap, 1u, a);
    return (uint64_t)w->step + 1 < c->n;
}

void gen_chase(gen_t *g) {
    const uint64_t stride = gen_param(g, "stride_kb", 2048) * 1024;
    const uint32_t gap = (uint32_t)gen_param(g, "gap", 0);
    if (stride < CAL_PAGE || stride % CAL_PAGE) {
        gen_fail(g, "chase: stride_kb must be a non-zero multiple of 4");
        return;
    }
    chase_t c = {NULL, gen_max(g->o.size / stride, 1), gap};
    uint64_t *addr = malloc(c.n * sizeof(*addr));
    if (!addr) {
        gen_fail(g, "chase: out of memory");
        return;
    }
    const uint64_t base = gen_alloc(g, "buf", c.n * stride, 1);
    const uint64_t pages = stride / CAL_PAGE;
    for (uint64_t i = 0; i < c.n; i++)
        addr[i] = base + i * stride + (gen_hash(g->o.seed, i, 0) % pages) * CAL_PAGE;
    cal_shuffle(addr, c.n, g->o.seed, 1);
    c.addr = addr;
    const uint32_t passes = g->o.iters ? g->o.iters : 3;
    const gen_kernel_t k = {"k_chase", 1, 1, 0, chase_step, &c};
    for (uint32_t p = 0; p < passes; p++)
        gen_launch(g, &k);
    gen_note(g, "chase: %llu loads per pass, stride %llu KB, %u passes", (unsigned long long)c.n,
             (unsigned long long)(stride / 1024), passes);
    free(addr);
}

/* ---- stream --------------------------------------------------------------------------------- */
#define ST_BLOCK 512 /* threads per CTA (16 model warps), as the probe */
#define ST_LINE 128  /* bytes per lane: 32 lanes cover one 4 KB page */

typedef struct {
    uint64_t base, pages, nwarps;
    uint32_t gap;
} stream_t;

static int stream_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const stream_t *c = k->arg;
    const uint64_t gw = w->tid0 / GEN_WARP;
    const uint64_t page = gw + (uint64_t)w->step * c->nwarps;
    if (page >= c->pages)
        return 0;
    gen_mem_strided(g, w, R, c->gap, 0xffffffffu, c->base + page * CAL_PAGE, ST_LINE);
    return page + c->nwarps < c->pages;
}

void gen_stream(gen_t *g) {
    const uint64_t ctas = gen_param(g, "ctas", 264);
    const uint32_t gap = (uint32_t)gen_param(g, "gap", 0);
    if (ctas == 0 || ctas > (1u << 24)) {
        gen_fail(g, "stream: ctas must be 1..%u", 1u << 24);
        return;
    }
    stream_t c = {0, gen_max(g->o.size / CAL_PAGE, 1), ctas * (ST_BLOCK / GEN_WARP), gap};
    c.base = gen_alloc(g, "x", c.pages * CAL_PAGE, 1);
    const uint32_t passes = g->o.iters ? g->o.iters : 2;
    const gen_kernel_t k = {"k_stream", (uint32_t)ctas, ST_BLOCK, 0, stream_step, &c};
    for (uint32_t p = 0; p < passes; p++)
        gen_launch(g, &k);
    gen_note(g, "stream: %llu pages, %llu model warps, %u passes", (unsigned long long)c.pages,
             (unsigned long long)c.nwarps, passes);
}

/* ---- sparse --------------------------------------------------------------------------------- */
#define SP_BLOCK 256

typedef struct {
    uint64_t base, n;
    const uint64_t *page; /* page of thread i; NULL: i*k */
    uint64_t k;
    uint32_t gap;
} sparse_t;

static int sparse_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const sparse_t *c = k->arg;
    uint64_t a[GEN_WARP] = {0};
    for (uint32_t l = 0; l < GEN_WARP; l++) {
        const uint64_t t = w->tid0 + l;
        if (t < c->n)
            a[l] = c->base + (c->page ? c->page[t] : t * c->k) * CAL_PAGE;
    }
    gen_mem(g, w, R, c->gap, gen_lanes_below(w, c->n), a);
    return 0;
}

void gen_sparse(gen_t *g) {
    sparse_t c = {0, 0, NULL, gen_param(g, "k", 1), (uint32_t)gen_param(g, "gap", 0)};
    const uint64_t shuffle = gen_param(g, "shuffle", 0);
    const uint64_t pages = gen_max(g->o.size / CAL_PAGE, 1);
    if (c.k == 0 || c.k > pages || shuffle > 1) {
        gen_fail(g, "sparse: k must be 1..%llu (pages of the buffer), shuffle 0 or 1",
                 (unsigned long long)pages);
        return;
    }
    c.n = pages / c.k;
    uint64_t *order = NULL;
    if (shuffle) {
        order = malloc(c.n * sizeof(*order));
        if (!order) {
            gen_fail(g, "sparse: out of memory");
            return;
        }
        for (uint64_t i = 0; i < c.n; i++)
            order[i] = i * c.k;
        cal_shuffle(order, c.n, g->o.seed, 2);
        c.page = order;
    }
    c.base = gen_alloc(g, "buf", pages * CAL_PAGE, 1);
    const gen_kernel_t k = {
        "k_touch", (uint32_t)gen_ceil_div(c.n, SP_BLOCK), SP_BLOCK, 0, sparse_step, &c};
    gen_launch(g, &k);
    gen_note(g, "sparse: %llu of %llu pages touched (k %llu, %s)", (unsigned long long)c.n,
             (unsigned long long)pages, (unsigned long long)c.k,
             shuffle ? "shuffled" : "ascending");
    free(order);
}
