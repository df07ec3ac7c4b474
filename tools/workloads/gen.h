/*
 * gen.h - framework of the workload trace generators (gmmu-gen, docs/workloads.md).
 *
 * A workload runs its algorithm on generated inputs and "launches" kernels. A kernel is a grid
 * of CTAs of `block` threads; threads map to lanes (thread t of a CTA is lane t % 32 of warp
 * t / 32). The framework keeps `window` CTAs resident (a new CTA takes the slot of a finished
 * one, lowest CTA id first) and calls each resident warp's step function round-robin; a step
 * emits the warp's next global memory instruction(s) with gen_mem*(). Records therefore come out
 * roughly in execution order and nothing is buffered: memory stays bounded by the warp states
 * of the resident CTAs plus what the workload itself keeps.
 *
 * Module prefix gen_. No global mutable state: everything lives in gen_t.
 */
#ifndef GMMU_GEN_H
#define GMMU_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"
#include "trace.h"

#define GEN_WARP 32
#define GEN_VA_BASE 0x7f0000000000ULL /* first allocation (like CUDA's managed heap) */
#define GEN_ALLOC_ALIGN (2ULL << 20)  /* every allocation starts on a 2 MB boundary */
#define GEN_MB (1ULL << 20)

typedef struct gen gen_t;
typedef struct gen_kernel gen_kernel_t;

typedef struct {
    uint32_t cta;      /* linear CTA id (x + gx*(y + gy*z) for multi-dimensional grids) */
    uint32_t warp;     /* warp index within the CTA */
    uint32_t nthreads; /* threads of this warp that exist (< 32 only in a partial last warp) */
    uint64_t tid0;     /* linear thread id of lane 0: cta*block + warp*32 */
    uint32_t step;     /* number of earlier step() calls for this warp */
    void *state;       /* kernel-defined per-warp state, zeroed before step 0 */
    int emitted;       /* framework: the warp emitted a memory record in this kernel (its exit
                          record follows when its step returns 0) */
} gen_warp_t;

struct gen_kernel {
    const char *name;
    uint32_t grid;     /* number of CTAs */
    uint32_t block;    /* threads per CTA (1..1024) */
    size_t state_size; /* bytes of per-warp state */
    /* Emits the warp's next memory instruction(s); returns 0 when the warp has finished (the
     * framework then emits the warp's exit record if it emitted any memory record). */
    int (*step)(gen_t *g, const gen_kernel_t *k, gen_warp_t *w);
    const void *arg; /* workload context */
};

#define GEN_MAX_PARAMS 8
#define GEN_PARAM_KEY 32
/* A workload parameter (--param key=value); `used` is set when the workload reads it: gen_run
 * fails on a parameter the workload does not have. */
typedef struct {
    char key[GEN_PARAM_KEY];
    uint64_t val;
    int used;
} gen_param_t;

typedef struct {
    uint64_t size;   /* footprint target in bytes (0: the workload's default) */
    uint64_t seed;   /* input data seed */
    uint32_t iters;  /* iterations / steps / batches (0: the workload's default) */
    uint32_t window; /* resident CTAs (default 16) */
    int verbose;
    gen_param_t params[GEN_MAX_PARAMS]; /* --param key=value, in command-line order */
    uint32_t nparams;
} gen_opts_t;

typedef struct {
    uint64_t allocs, alloc_bytes, kernels, records, lanes, exits;
} gen_stats_t;

struct gen {
    gen_opts_t o;
    trace_writer_t *w;
    uint64_t next_va;
    gen_stats_t st;
    int failed;
    char err[512];
    /* --param compute=N (docs/workloads.md "Compute per memory instruction"): every record's gap
     * is N instead of the one read off the kernel's source (compute_on 0: not given) */
    int compute_on;
    uint32_t compute;
};

/* Declares an allocation (cudaMallocManaged) of `bytes` and returns its base address. */
uint64_t gen_alloc(gen_t *g, const char *name, uint64_t bytes, int readonly);
/* Runs a kernel launch: emits the kernel record, then every warp's steps; a finished warp that
 * emitted memory records gets its exit record right away (docs/trace-format.md). */
void gen_launch(gen_t *g, const gen_kernel_t *k);
/* One warp memory instruction; addr[i] is lane i's byte address (lanes outside mask ignored).
 * mask 0 (no active lane) emits nothing. Marks the warp as having emitted (w->emitted). */
void gen_mem(gen_t *g, gen_warp_t *w, trace_op_t op, uint32_t gap, uint32_t mask,
             const uint64_t *addr);
/* Same, lane i accessing base + i*stride. */
void gen_mem_strided(gen_t *g, gen_warp_t *w, trace_op_t op, uint32_t gap, uint32_t mask,
                     uint64_t base, int64_t stride);
/* Records an error (first one wins); generation stops at the next gen_launch. */
void gen_fail(gen_t *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Workload parameter `key` (--param key=value), or def if not given; marks it used. */
uint64_t gen_param(gen_t *g, const char *key, uint64_t def);
/* Adds --param "key=value" to o (value: num_parse_u64). 0, or -1 with a message in err. */
int gen_param_add(gen_opts_t *o, const char *kv, char *err, size_t errlen);
/* Optional progress / result line on stderr with --verbose. */
void gen_note(gen_t *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Mask of the warp's existing threads. */
static inline uint32_t gen_lanes(const gen_warp_t *w) {
    return w->nthreads >= 32 ? 0xffffffffu : (1u << w->nthreads) - 1u;
}
/* Mask of lanes whose linear thread id is below n. */
static inline uint32_t gen_lanes_below(const gen_warp_t *w, uint64_t n) {
    if (w->tid0 >= n)
        return 0;
    uint64_t k = n - w->tid0;
    return gen_lanes(w) & (k >= 32 ? 0xffffffffu : (1u << k) - 1u);
}

/* ---- deterministic pseudo-random numbers (common/rng.h: rng_mix64, rng_sm_t, rng_unit) ---- */
/* The generators' per-item hash; its formula is part of every generated trace (byte-identical
 * traces), so it must not change. */
static inline uint64_t gen_hash(uint64_t seed, uint64_t a, uint64_t b) {
    return rng_mix64(rng_mix64(seed ^ rng_mix64(a)) + b);
}

/* Largest power of two <= x (x >= 1). */
static inline uint64_t gen_pow2_floor(uint64_t x) {
    uint64_t p = 1;
    while (p <= x / 2)
        p *= 2;
    return p;
}
static inline uint64_t gen_min(uint64_t a, uint64_t b) {
    return a < b ? a : b;
}
static inline uint64_t gen_max(uint64_t a, uint64_t b) {
    return a > b ? a : b;
}
static inline uint64_t gen_ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

/* ---- the workloads ---- */
typedef struct {
    const char *name;
    const char *suite;
    uint32_t default_size_kb; /* small default footprint (make traces) */
    const char *desc;
    void (*run)(gen_t *g);
} gen_workload_t;

/* Opens OUT ("-" = stdout; .xz compressed), runs the workload with g->o (size 0 = the workload's
 * default) and finishes the trace. 0, or -1 with g->err. */
int gen_run(gen_t *g, const gen_workload_t *wl, const char *out, int binary);
/* NULL-terminated by name == NULL. */
const gen_workload_t *gen_workloads(void);
const gen_workload_t *gen_find(const char *name);

/* Entry points (one per workload). */
void gen_backprop(gen_t *g);
void gen_bfs(gen_t *g);
void gen_hotspot(gen_t *g);
void gen_pathfinder(gen_t *g);
void gen_srad(gen_t *g);
void gen_nw(gen_t *g);
void gen_gaussian(gen_t *g);
void gen_kmeans(gen_t *g);
void gen_nn(gen_t *g);
void gen_sgemm(gen_t *g);
void gen_stencil(gen_t *g);
void gen_atax(gen_t *g);
void gen_pagerank(gen_t *g);
void gen_sssp(gen_t *g);
void gen_bst(gen_t *g);
void gen_xsbench(gen_t *g);
/* the H100 probe's experiments (wl_calib.c, docs/calibration.md) */
void gen_chase(gen_t *g);
void gen_stream(gen_t *g);
void gen_sparse(gen_t *g);
/* NVIDIA's uvm_oversubs sample (wl_oversub.c, docs/workloads.md) */
void gen_os_streaming(gen_t *g);
void gen_os_block_streaming(gen_t *g);
void gen_os_random_warp(gen_t *g);

#endif
