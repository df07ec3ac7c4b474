/*
 * wl_oversub.c - the three access patterns of NVIDIA's `uvm_oversubs` benchmark (the sample of
 * the blog post "Improving GPU Memory Oversubscription Performance", NVIDIA-developer-blog
 * code-samples, posts/unified-memory-oversubscription; docs/workloads.md), one managed buffer
 * sized by an oversubscription factor relative to the GPU memory:
 *
 *   streaming        read_thread_blocksync: grid-stride read, lane l of thread t reads element
 *                    t + i*threads; the CTA leaves the loop once its first thread is past n.
 *   block_streaming  read_thread_blockCont_blocksync: CTA c reads its own contiguous chunk of
 *                    epb = ceil(n/grid)+1 elements from c*epb, blockDim elements per step (the
 *                    loop runs while the step offset is <= epb, so a chunk overlaps the next one
 *                    by up to one block, as in the sample).
 *   random_warp      cta_random_warp_streaming_read: per iteration a warp picks a random page
 *                    (glibc LCG of its lane 0, seeded by lane 0's thread id) and reads 32
 *                    consecutive elements at a random offset inside it; n/threads iterations.
 *
 * Every kernel ends with thread 0 of each CTA storing its sum to ptr[0] (a write to page 0).
 * Size: with gpu_pages (the configuration's gpu_mem_pages) the allocation is
 * gpu_pages*4 KB*oversub_pct/100, else --size-mb; rounded up to page_kb (the sample's -s, which
 * also sets random_warp's page). The element is lane_bytes (the sample's float: 4; larger values
 * scale the trace down: one record stands for lane_bytes/4 real warp loads).
 */
#include <string.h>

#include "gen.h"

#define OS_PAGE 4096ULL

typedef enum { OS_STREAMING, OS_BLOCK, OS_RANDOM } os_kind_t;

typedef struct {
    os_kind_t kind;
    uint64_t base;       /* the managed buffer */
    uint64_t n;          /* elements of lane_bytes */
    uint64_t lane_bytes; /* element size */
    uint64_t threads;    /* block * grid */
    uint32_t block, grid, gap;
    uint64_t epb;        /* block_streaming: elements per CTA */
    uint64_t per_page;   /* random_warp: elements per page */
    uint64_t num_pages;  /* random_warp: pages of page_kb in the buffer */
    uint64_t loop_count; /* random_warp: iterations per thread */
    uint64_t seed_off;   /* random_warp: LCG start offset (0 for seed 1: the sample's) */
} os_t;

typedef struct {
    uint64_t rnd; /* random_warp: lane 0's LCG state */
    int stored;   /* the final ptr[0] store was emitted */
} os_warp_t;

/* The sample's myrand: glibc's LCG, x' = (1103515245 x + 12345) mod 2^31. */
static uint64_t os_lcg(uint64_t x) {
    return (1103515245ULL * x + 12345ULL) & ((1ULL << 31) - 1);
}

/* Thread 0 of the CTA stores its sum to ptr[0] after the loop (warp 0 only). Returns 1 when a
 * record was emitted (the warp then has one more step: its exit). */
static int os_final_store(gen_t *g, const os_t *c, gen_warp_t *w, os_warp_t *s) {
    if (w->warp != 0 || s->stored)
        return 0;
    s->stored = 1;
    uint64_t a[GEN_WARP] = {0};
    a[0] = c->base;
    gen_mem(g, w, TRACE_OP_WRITE, 2, 1u, a);
    return 1;
}

static int os_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const os_t *c = k->arg;
    os_warp_t *s = w->state;
    const uint64_t j = w->step;
    const uint64_t tx0 = (uint64_t)w->warp * GEN_WARP; /* threadIdx.x of lane 0 */
    uint64_t first;                                    /* element of lane 0 */
    if (s->stored)
        return 0;
    if (c->kind == OS_STREAMING) {
        /* tid - threadIdx.x = blockIdx*blockDim + j*threads: break when past n */
        const uint64_t cta0 = (uint64_t)w->cta * c->block + j * c->threads;
        if (cta0 > c->n)
            return os_final_store(g, c, w, s);
        first = cta0 + tx0;
    } else if (c->kind == OS_BLOCK) {
        const uint64_t off = j * c->block;
        if (off > c->epb)
            return os_final_store(g, c, w, s);
        first = c->epb * w->cta + off + tx0;
    } else {
        if (j >= c->loop_count)
            return os_final_store(g, c, w, s);
        if (j == 0)
            s->rnd = os_lcg(w->tid0 + c->seed_off);
        s->rnd = os_lcg(s->rnd);
        const uint64_t page = s->rnd % c->num_pages;
        const uint64_t mod = c->per_page - GEN_WARP; /* the warp stays inside the page */
        const uint64_t idx = mod ? s->rnd % mod : 0;
        gen_mem_strided(g, w, TRACE_OP_READ, c->gap, gen_lanes(w),
                        c->base + (page * c->per_page + idx) * c->lane_bytes,
                        (int64_t)c->lane_bytes);
        return 1;
    }
    const uint32_t mask =
        first < c->n
            ? gen_lanes(w) & (c->n - first >= 32 ? 0xffffffffu : (1u << (c->n - first)) - 1u)
            : 0;
    gen_mem_strided(g, w, TRACE_OP_READ, c->gap, mask, c->base + first * c->lane_bytes,
                    (int64_t)c->lane_bytes);
    return 1;
}

static void os_run(gen_t *g, os_kind_t kind, const char *name, const char *kname,
                   uint32_t def_gap) {
    const uint64_t gpu_pages = gen_param(g, "gpu_pages", 0);
    const uint64_t pct = gen_param(g, "oversub_pct", 0);
    const uint64_t page_kb = gen_param(g, "page_kb", 2048);
    const uint64_t block = gen_param(g, "block", 128);
    const uint64_t ctas = gen_param(g, "ctas", 256);
    const uint64_t lane_bytes = gen_param(g, "lane_bytes", 4);
    const uint64_t gap = gen_param(g, "gap", def_gap);
    if (page_kb != 4 && page_kb != 64 && page_kb != 2048) {
        gen_fail(g, "%s: page_kb must be 4, 64 or 2048 (the sample's -s 4K/64K/2M)", name);
        return;
    }
    if (block == 0 || block > 1024 || block % GEN_WARP || ctas == 0 || ctas > (1u << 20)) {
        gen_fail(g, "%s: block must be a multiple of 32 in 32..1024, ctas 1..%u", name, 1u << 20);
        return;
    }
    if (lane_bytes < 4 || lane_bytes > 128 || (lane_bytes & (lane_bytes - 1))) {
        gen_fail(g, "%s: lane_bytes must be a power of two in 4..128", name);
        return;
    }
    if (gap > UINT32_MAX || (pct && !gpu_pages) || (gpu_pages && (pct == 0 || pct > 10000))) {
        gen_fail(g, "%s: oversub_pct (1..10000) needs gpu_pages and gpu_pages needs oversub_pct",
                 name);
        return;
    }
    const uint64_t psize = page_kb * 1024;
    uint64_t bytes = gpu_pages ? gpu_pages * OS_PAGE * pct / 100 : g->o.size;
    bytes = gen_max(gen_ceil_div(bytes, psize), 1) * psize;
    g->o.size = bytes; /* reported as the footprint */
    os_t c;
    memset(&c, 0, sizeof(c));
    c.kind = kind;
    c.lane_bytes = lane_bytes;
    c.n = bytes / lane_bytes;
    c.block = (uint32_t)block;
    c.grid = (uint32_t)ctas;
    c.threads = block * ctas;
    c.gap = (uint32_t)gap;
    c.epb = gen_ceil_div(c.n, ctas) + 1;
    c.per_page = psize / lane_bytes;
    c.num_pages = bytes / psize;
    c.loop_count = c.n / c.threads;
    c.seed_off = (g->o.seed - 1) * 0x9e3779b9ULL;
    if (c.per_page < GEN_WARP) {
        gen_fail(g, "%s: a page of %llu KB holds fewer than 32 elements of %llu B", name,
                 (unsigned long long)page_kb, (unsigned long long)lane_bytes);
        return;
    }
    c.base = gen_alloc(g, "uvm_alloc", bytes, 0);
    /* the sample sizes its grid to what is resident (SMs x occupancy): every CTA runs at once */
    const uint32_t window = g->o.window;
    g->o.window = (uint32_t)gen_max(window, ctas);
    const gen_kernel_t k = {kname, c.grid, c.block, sizeof(os_warp_t), os_step, &c};
    const uint32_t passes = g->o.iters ? g->o.iters : 1;
    for (uint32_t p = 0; p < passes; p++)
        gen_launch(g, &k);
    g->o.window = window;
    gen_note(g, "%s: %llu MB (%llu pages of 4 KB), %llu elements of %llu B, %u x %u threads", name,
             (unsigned long long)(bytes >> 20), (unsigned long long)(bytes / OS_PAGE),
             (unsigned long long)c.n, (unsigned long long)lane_bytes, c.grid, c.block);
}

/* gaps: streaming / block_streaming ~6 instructions per iteration (index update, bound check,
 * branch, float add, bar.sync); random_warp ~80 (two 64-bit remainders by a run-time divisor,
 * each a ~35-instruction software routine, the LCG, two shuffles, the address arithmetic) */
void gen_os_streaming(gen_t *g) {
    os_run(g, OS_STREAMING, "streaming", "read_thread_blocksync", 6);
}
void gen_os_block_streaming(gen_t *g) {
    os_run(g, OS_BLOCK, "block_streaming", "read_thread_blockCont_blocksync", 6);
}
void gen_os_random_warp(gen_t *g) {
    os_run(g, OS_RANDOM, "random_warp", "cta_random_warp_streaming_read", 80);
}
