/*
 * wl_misc.c - Parboil sgemm and stencil, PolyBench atax, a binary-search-tree lookup kernel and
 * XSBench's cross-section lookup kernel.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define R TRACE_OP_READ
#define W TRACE_OP_WRITE

/* ============================================================================================
 * sgemm (Parboil mysgemmNT): C = alpha*A*B^T + beta*C, A column-major m x k, B n x k,
 * TILE_N 16, TILE_TB_HEIGHT 8, TILE_M 128; block (16, 8), grid (m/128, n/16)
 * ========================================================================================== */
#define SG_TN 16
#define SG_TH 8
#define SG_TM (SG_TN * SG_TH)

typedef struct {
    uint64_t a, b, c;
    int64_t m, n, k;
    uint32_t gx;
} sg_t;

static int sg_step(gen_t *g, const gen_kernel_t *kk, gen_warp_t *w) {
    const sg_t *c = kk->arg;
    int64_t bx = w->cta % c->gx, by = w->cta / c->gx;
    int64_t mid0 = w->warp * 32; /* flattened thread id of lane 0 */
    int64_t m0 = bx * SG_TM + mid0;
    int64_t ntiles = c->k / SG_TH, s = w->step;
    if (s < ntiles * (SG_TH + 1)) {
        int64_t i = (s / (SG_TH + 1)) * SG_TH, j = s % (SG_TH + 1);
        if (j == 0) { /* b_s[ty][tx] = B[n + (i+ty)*ldb]: two rows of 16 */
            uint64_t a[32];
            for (int l = 0; l < 32; l++) {
                int64_t t = mid0 + l, tx = t % SG_TN, ty = t / SG_TN;
                a[l] = c->b + 4 * (uint64_t)(by * SG_TN + tx + (i + ty) * c->n);
            }
            gen_mem(g, w, R, i == 0 ? 12 : 6, 0xffffffffu, a);
        } else { /* a = A[m + (i+j)*lda] */
            gen_mem_strided(g, w, R, j == 1 ? 3 : 2 * SG_TN + 1, 0xffffffffu,
                            c->a + 4 * (uint64_t)(m0 + (i + j - 1) * c->m), 4);
        }
        return 1;
    }
    /* C[t+i*ldc] = C[t+i*ldc] * beta + alpha * c[i], t = ldc*by*TILE_N + m */
    int64_t e = s - ntiles * (SG_TH + 1), i = e / 2;
    uint64_t addr = c->c + 4 * (uint64_t)(c->m * by * SG_TN + m0 + i * c->m);
    gen_mem_strided(g, w, e % 2 ? W : R,
                    e == 0  ? 2 * SG_TN + 4
                    : e % 2 ? 3
                            : 1,
                    0xffffffffu, addr, 4);
    return e < 2 * SG_TN - 1;
}

void gen_sgemm(gen_t *g) {
    sg_t c;
    memset(&c, 0, sizeof(c));
    double s = (double)g->o.size;
    if (s < 4.0 * GEN_MB) { /* square m = n = k */
        c.m = (int64_t)sqrt(s / 12.0) / SG_TM * SG_TM;
        if (c.m < SG_TM)
            c.m = SG_TM;
        c.n = c.k = c.m;
    } else { /* k = 64: the footprint grows with C, the work stays linear in it */
        c.k = 64;
        c.m = (int64_t)(sqrt((double)(c.k * c.k) + s / 4.0) - (double)c.k) / SG_TM * SG_TM;
        c.n = c.m;
    }
    c.a = gen_alloc(g, "dA", (uint64_t)(c.m * c.k) * 4, 1);
    c.b = gen_alloc(g, "dB", (uint64_t)(c.n * c.k) * 4, 1);
    c.c = gen_alloc(g, "dC", (uint64_t)(c.m * c.n) * 4, 0);
    c.gx = (uint32_t)(c.m / SG_TM);
    uint32_t reps = g->o.iters ? g->o.iters : 1;
    for (uint32_t r = 0; r < reps; r++) {
        gen_kernel_t kk = {"mysgemmNT", c.gx * (uint32_t)(c.n / SG_TN), SG_TN * SG_TH, 0, sg_step,
                           &c};
        gen_launch(g, &kk);
    }
    gen_note(g, "sgemm: m %lld n %lld k %lld", (long long)c.m, (long long)c.n, (long long)c.k);
}

/* ============================================================================================
 * stencil (Parboil block2D_hybrid_coarsen_x): 7-point Jacobi, block (32, 4), each thread two
 * x positions, z marched in registers; one launch per time step (A0 / Anext swapped)
 * ========================================================================================== */
#define ST_TX 32
#define ST_TY 4

typedef struct {
    uint64_t a0, an;
    int64_t nx, ny, nz;
    uint32_t gx;
} st_t;

typedef struct {
    uint32_t k, sub;
} st_warp_t;

static uint64_t st_idx(const st_t *c, int64_t i, int64_t j, int64_t k) {
    return (uint64_t)((k * c->ny + j) * c->nx + i);
}

static int st_step(gen_t *g, const gen_kernel_t *kk, gen_warp_t *w) {
    const st_t *c = kk->arg;
    st_warp_t *s = w->state;
    int64_t bx = w->cta % c->gx, by = w->cta / c->gx, ty = w->warp;
    int64_t j = by * ST_TY + ty, i0 = bx * ST_TX * 2, i20 = i0 + ST_TX;
    int64_t nx = c->nx, ny = c->ny;
    uint32_t in1 = 0, in2 = 0, wr1 = 0, wr2 = 0;
    for (int l = 0; l < 32; l++) {
        int64_t i = i0 + l, i2 = i20 + l;
        in1 |= (uint32_t)(i < nx && j < ny) << l;
        in2 |= (uint32_t)(i2 < nx && j < ny) << l;
        wr1 |= (uint32_t)(i > 0 && j > 0 && i < nx - 1 && j < ny - 1) << l;
        wr2 |= (uint32_t)(j > 0 && i2 < nx - 1 && j < ny - 1) << l;
    }
    int yl = ty == 0, yh = ty == ST_TY - 1;
    if (w->step < 4) { /* bottom / sh_A0 planes 0 and 1, first i then i2 */
        int64_t k = w->step % 2, ii = w->step < 2 ? i0 : i20;
        gen_mem_strided(g, w, R, w->step == 0 ? 16 : 1, w->step < 2 ? in1 : in2,
                        c->a0 + 4 * st_idx(c, ii, j, k), 4);
        if (w->step == 3) {
            s->k = 1;
            s->sub = 0;
        }
        return c->nz > 2 || w->step < 3;
    }
    /* for k = 1 .. nz-2: top, [left], [down], [up], store; top2, [right], [down], [up], store */
    for (;;) {
        if ((int64_t)s->k >= c->nz - 1)
            return 0;
        int64_t k = s->k;
        uint32_t sub = s->sub;
        if (++s->sub == 10) {
            s->sub = 0;
            s->k++;
        }
        int half = sub >= 5;
        int64_t ii = half ? i20 : i0;
        uint32_t wr = half ? wr2 : wr1, xb = wr & (half ? 0x80000000u : 1u);
        switch (sub % 5) {
        case 0: /* top = A0[i, j, k+1] (top2 for i2) */
            gen_mem_strided(g, w, R, 10, half ? in2 : in1, c->a0 + 4 * st_idx(c, ii, j, k + 1), 4);
            return 1;
        case 1: /* x bound: A0[i-1, j, k] (thread 0) or A0[i2+1, j, k] (thread 31) */
            if (xb) {
                gen_mem_strided(g, w, R, 2, xb, c->a0 + 4 * st_idx(c, ii + (half ? 1 : -1), j, k),
                                4);
                return 1;
            }
            break;
        case 2: /* y low bound (threadIdx.y == 0): A0[i, j-1, k] */
            if (yl && wr) {
                gen_mem_strided(g, w, R, 1, wr, c->a0 + 4 * st_idx(c, ii, j - 1, k), 4);
                return 1;
            }
            break;
        case 3: /* y high bound (threadIdx.y == 3): A0[i, j+1, k] */
            if (yh && wr) {
                gen_mem_strided(g, w, R, 1, wr, c->a0 + 4 * st_idx(c, ii, j + 1, k), 4);
                return 1;
            }
            break;
        default: /* Anext[i, j, k] = ... */
            if (wr) {
                gen_mem_strided(g, w, W, 14, wr, c->an + 4 * st_idx(c, ii, j, k), 4);
                return 1;
            }
            break;
        }
    }
}

void gen_stencil(gen_t *g) {
    st_t c;
    memset(&c, 0, sizeof(c));
    c.nx = c.ny = g->o.size < 64 * GEN_MB ? 128 : 512;
    c.nz = (int64_t)(g->o.size / (8 * (uint64_t)(c.nx * c.ny)));
    if (c.nz < 3)
        c.nz = 3;
    uint64_t bytes = (uint64_t)(c.nx * c.ny * c.nz) * 4;
    uint64_t buf[2];
    buf[0] = gen_alloc(g, "d_A0", bytes, 0);
    buf[1] = gen_alloc(g, "d_Anext", bytes, 0);
    c.gx = (uint32_t)((c.nx + ST_TX * 2 - 1) / (ST_TX * 2));
    uint32_t gy = (uint32_t)((c.ny + ST_TY - 1) / ST_TY);
    uint32_t iters = g->o.iters ? g->o.iters : 2;
    for (uint32_t t = 0; t < iters; t++) {
        c.a0 = buf[t % 2];
        c.an = buf[1 - t % 2];
        gen_kernel_t kk = {"block2D_hybrid_coarsen_x", c.gx * gy, ST_TX * ST_TY,
                           sizeof(st_warp_t),          st_step,   &c};
        gen_launch(g, &kk);
    }
    gen_note(g, "stencil: %lld x %lld x %lld, %u time steps", (long long)c.nx, (long long)c.ny,
             (long long)c.nz, iters);
}

/* ============================================================================================
 * atax (PolyBench/GPU): tmp = A x (atax_kernel1, one thread per row), y = A^T tmp
 * (atax_kernel2, one thread per column); 256 threads per block
 * ========================================================================================== */
typedef struct {
    uint64_t a, x, y, tmp;
    uint64_t nx, ny;
} atax_t;

static int atax1_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const atax_t *c = k->arg;
    uint32_t m = gen_lanes_below(w, c->nx);
    if (!m)
        return 0;
    uint64_t s = w->step;
    if (s == 0) { /* tmp[i] (kept in a register by store-to-load forwarding afterwards) */
        gen_mem_strided(g, w, R, 6, m, c->tmp + 4 * w->tid0, 4);
        return 1;
    }
    uint64_t j = (s - 1) / 3;
    switch ((s - 1) % 3) {
    case 0: /* A[i * NY + j] */
        gen_mem_strided(g, w, R, 3, m, c->a + 4 * (w->tid0 * c->ny + j), (int64_t)(4 * c->ny));
        return 1;
    case 1: /* x[j] */
        gen_mem_strided(g, w, R, 1, m, c->x + 4 * j, 0);
        return 1;
    default: /* tmp[i] += ... */
        gen_mem_strided(g, w, W, 2, m, c->tmp + 4 * w->tid0, 4);
        return j + 1 < c->ny;
    }
}

static int atax2_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const atax_t *c = k->arg;
    uint32_t m = gen_lanes_below(w, c->ny);
    if (!m)
        return 0;
    uint64_t s = w->step;
    if (s == 0) { /* y[j] */
        gen_mem_strided(g, w, R, 6, m, c->y + 4 * w->tid0, 4);
        return 1;
    }
    uint64_t i = (s - 1) / 3;
    switch ((s - 1) % 3) {
    case 0: /* A[i * NY + j] */
        gen_mem_strided(g, w, R, 3, m, c->a + 4 * (i * c->ny + w->tid0), 4);
        return 1;
    case 1: /* tmp[i] */
        gen_mem_strided(g, w, R, 1, m, c->tmp + 4 * i, 0);
        return 1;
    default: /* y[j] += ... */
        gen_mem_strided(g, w, W, 2, m, c->y + 4 * w->tid0, 4);
        return i + 1 < c->nx;
    }
}

void gen_atax(gen_t *g) {
    atax_t c;
    memset(&c, 0, sizeof(c));
    c.nx = c.ny = gen_max((uint64_t)sqrt((double)g->o.size / 4.0) / 32 * 32, 32);
    c.a = gen_alloc(g, "A_gpu", c.nx * c.ny * 4, 1);
    c.x = gen_alloc(g, "x_gpu", c.ny * 4, 1);
    c.y = gen_alloc(g, "y_gpu", c.ny * 4, 0);
    c.tmp = gen_alloc(g, "tmp_gpu", c.nx * 4, 0);
    gen_kernel_t k1 = {"atax_kernel1", (uint32_t)gen_ceil_div(c.nx, 256), 256, 0, atax1_step, &c};
    gen_launch(g, &k1);
    gen_kernel_t k2 = {"atax_kernel2", (uint32_t)gen_ceil_div(c.ny, 256), 256, 0, atax2_step, &c};
    gen_launch(g, &k2);
    gen_note(g, "atax: %llu x %llu", (unsigned long long)c.nx, (unsigned long long)c.ny);
}

/* ============================================================================================
 * bst: lookups in a forest of T binary search trees of nt = 2^h - 1 nodes each, nodes
 * {key, left, right, value} (16 B). Tree t is the complete BST over the keys t*2nt + 1, 3, 5...;
 * a directory d_roots[T] holds the root pointers (the lookup first loads the root of its key's
 * tree, then chases child pointers until it finds its key or falls off a leaf). Node i (level
 * order) of tree t lives in slot perm(t*nt + i) of one node pool (a seeded bijection), as if the
 * nodes had been allocated in a random order. T makes the footprint any size, not just powers
 * of two.
 * ========================================================================================== */
typedef struct {
    uint64_t nodes, roots, queries, results;
    uint64_t nt, trees, total, q, qoff, seed;
    uint32_t h, bits;
} bst_t;

typedef struct {
    uint64_t node[32]; /* level-order index of the lane's current node in its tree */
    uint64_t tree[32];
    uint64_t key[32];
    uint32_t live; /* lanes still searching */
    int phase;
} bst_warp_t;

/* bijection on [0, total): a 4-round balanced Feistel network on 2*ceil(bits/2) bits,
 * cycle-walked until the value falls below total */
static uint64_t bst_perm(const bst_t *c, uint64_t x) {
    uint32_t hb = (c->bits + 1) / 2;
    uint64_t mh = (1ULL << hb) - 1;
    do {
        uint64_t l = x >> hb, r = x & mh;
        for (uint64_t round = 0; round < 4; round++) {
            uint64_t t = r;
            r = (l ^ gen_hash(c->seed, round, r)) & mh;
            l = t;
        }
        x = l << hb | r;
    } while (x >= c->total);
    return x;
}

/* key of level-order node i of tree t: t*2nt + 2*rank + 1, rank = its in-order position */
static uint64_t bst_key(const bst_t *c, uint64_t t, uint64_t i) {
    uint32_t d = 0;
    while ((2ULL << d) - 1 <= i)
        d++;
    uint64_t p = i + 1 - (1ULL << d);
    uint64_t rank = (2 * p + 1) * (1ULL << (c->h - 1 - d)) - 1;
    return t * 2 * c->nt + 2 * rank + 1;
}

static int bst_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const bst_t *c = k->arg;
    bst_warp_t *s = w->state;
    uint64_t a[32];
    uint32_t m = gen_lanes_below(w, c->q);
    if (!m)
        return 0;
    if (s->phase == 0) { /* key = queries[tid] */
        gen_mem_strided(g, w, R, 6, m, c->queries + 4 * w->tid0, 4);
        for (int l = 0; l < 32; l++) {
            uint64_t h = gen_hash(c->seed, 0x9e7, c->qoff + w->tid0 + (uint64_t)l);
            uint64_t r = h % c->total; /* 90% hits (odd keys), 10% misses (even keys) */
            uint64_t t = r / c->nt, rr = r % c->nt;
            s->key[l] = t * 2 * c->nt + ((h >> 40) % 10 ? 2 * rr + 1 : 2 * rr);
            s->tree[l] = t;
            s->node[l] = 0;
        }
        s->live = m;
        s->phase = 1;
        return 1;
    }
    if (s->phase == 1) { /* root = d_roots[key / (2*nt)] */
        for (int l = 0; l < 32; l++)
            a[l] = c->roots + 8 * s->tree[l];
        gen_mem(g, w, R, 4, s->live, a);
        s->phase = 2;
        return 1;
    }
    if (s->phase == 2) { /* node = *cur (one 16-byte load) */
        for (int l = 0; l < 32; l++)
            a[l] = c->nodes + 16 * bst_perm(c, s->tree[l] * c->nt + s->node[l]);
        gen_mem(g, w, R, 5, s->live, a);
        for (int l = 0; l < 32; l++) {
            if (!(s->live >> l & 1u))
                continue;
            uint64_t key = bst_key(c, s->tree[l], s->node[l]);
            uint64_t next = s->key[l] < key ? 2 * s->node[l] + 1 : 2 * s->node[l] + 2;
            if (s->key[l] == key || next >= c->nt)
                s->live &= ~(1u << l);
            else
                s->node[l] = next;
        }
        if (!s->live)
            s->phase = 3;
        return 1;
    }
    /* results[tid] = found ? node.value : -1 */
    gen_mem_strided(g, w, W, 4, m, c->results + 4 * w->tid0, 4);
    return 0;
}

void gen_bst(gen_t *g) {
    bst_t c;
    memset(&c, 0, sizeof(c));
    c.seed = gen_mix(g->o.seed ^ 0xb57);
    uint32_t batches = g->o.iters ? g->o.iters : 2;
    c.q = gen_min(gen_max(g->o.size / 512, 4096), 1u << 20);
    uint64_t rest = g->o.size > 8 * c.q * batches ? g->o.size - 8 * c.q * batches : 4096;
    /* trees of height h <= 20, at least 4 of them (or h = 2 for tiny sizes), and the slots
       left over by whole trees at most 1/64 of the pool (so the footprint reaches the target) */
    uint64_t slots = gen_max(rest / 16, 12);
    uint32_t h = 2;
    while (h < 20 && ((2ULL << h) - 1) * 4 <= slots)
        h++;
    while (h > 2 && slots % ((1ULL << h) - 1) > slots / 64)
        h--;
    c.h = h;
    c.nt = (1ULL << h) - 1;
    c.trees = gen_max(slots / c.nt, 1);
    c.total = c.trees * c.nt;
    c.bits = 1;
    while ((1ULL << c.bits) < c.total)
        c.bits++;
    c.roots = gen_alloc(g, "d_roots", c.trees * 8, 1);
    c.nodes = gen_alloc(g, "d_nodes", c.total * 16, 1);
    c.queries = gen_alloc(g, "d_queries", c.q * batches * 4, 1);
    c.results = gen_alloc(g, "d_results", c.q * batches * 4, 0);
    uint64_t qbase = c.queries, rbase = c.results;
    for (uint32_t b = 0; b < batches; b++) {
        c.qoff = b * c.q;
        c.queries = qbase + 4 * c.qoff;
        c.results = rbase + 4 * c.qoff;
        gen_kernel_t kk = {
            "bst_lookup", (uint32_t)gen_ceil_div(c.q, 256), 256, sizeof(bst_warp_t), bst_step, &c};
        gen_launch(g, &kk);
    }
    gen_note(g, "bst: %llu trees of %llu nodes (height %u), %u batches of %llu lookups",
             (unsigned long long)c.trees, (unsigned long long)c.nt, h, batches,
             (unsigned long long)c.q);
}

/* ============================================================================================
 * xsbench: xs_lookup_kernel_baseline with the unionized energy grid (XSBench 20, CUDA).
 * 68 isotopes, 12 materials; n_gridpoints scales the footprint. Energies are implicit: the
 * unionized grid is monotone, nuclide grids are offset uniform grids; the binary search runs
 * for real on these values.
 * ========================================================================================== */
#define XS_ISO 68
#define XS_MATS 12
#define XS_MAXNUC 34

static const int xs_num_nucs[XS_MATS] = {34, 5, 4, 4, 27, 21, 11, 11, 18, 18, 15, 15};
static const double xs_dist[XS_MATS] = {0.140, 0.052, 0.275, 0.134, 0.154, 0.064,
                                        0.066, 0.055, 0.008, 0.015, 0.025, 0.013};

typedef struct {
    uint64_t num_nucs, concs, mats, egrid, index, ngrid, verif;
    uint64_t ngp, lookups, seed;
} xs_t;

typedef struct {
    double e[32];
    int mat[32];
    uint64_t idx[32]; /* unionized grid index */
    uint64_t lo[32], hi[32], len[32];
    uint32_t j; /* nuclide loop */
    uint32_t sub;
    int phase;
    uint32_t nmax;
} xs_warp_t;

static double xs_egrid(const xs_t *c, uint64_t i) {
    double n = (double)(c->ngp * XS_ISO);
    return ((double)i + 0.25 + 0.5 * gen_unit(gen_hash(c->seed, 1, i))) / n;
}

static uint64_t xs_nuc_of(const xs_t *c, int mat, uint32_t j) {
    /* material mat's j-th nuclide: distinct ids (fuel = the first 34) */
    return mat == 0
               ? j
               : (j * 7 + (uint64_t)mat * 5 + gen_hash(c->seed, 7, (uint64_t)mat) % 3) % XS_ISO;
}

/* index of nuclide nuc's grid point below the unionized grid point idx */
static uint64_t xs_nuc_index(const xs_t *c, uint64_t idx, uint64_t nuc) {
    double off = gen_unit(gen_hash(c->seed, 3, nuc));
    double pos = xs_egrid(c, idx) * (double)c->ngp - off;
    if (pos < 0)
        pos = 0;
    uint64_t p = (uint64_t)pos;
    return p > c->ngp - 1 ? c->ngp - 1 : p;
}

static int xs_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const xs_t *c = k->arg;
    xs_warp_t *s = w->state;
    uint64_t a[32];
    uint32_t m = gen_lanes_below(w, c->lookups);
    if (!m)
        return 0;
    if (s->phase == 0) { /* sample energy and material; num_nucs[mat] */
        for (int l = 0; l < 32; l++) {
            uint64_t id = w->tid0 + (uint64_t)l;
            s->e[l] = gen_unit(gen_hash(c->seed, 11, id));
            double u = gen_unit(gen_hash(c->seed, 12, id)), acc = 0;
            int mt = XS_MATS - 1;
            for (int i = 0; i < XS_MATS; i++) {
                acc += xs_dist[i];
                if (u < acc) {
                    mt = i;
                    break;
                }
            }
            s->mat[l] = mt;
            s->lo[l] = 0;
            s->hi[l] = c->ngp * XS_ISO - 1;
            s->len[l] = s->hi[l];
        }
        s->phase = 1;
        /* grid_search: while (length > 1) loads A[examinationPoint] */
        return 1;
    }
    if (s->phase == 1) {
        uint32_t act = 0;
        for (int l = 0; l < 32; l++)
            if ((m >> l & 1u) && s->len[l] > 1) {
                act |= 1u << l;
                uint64_t ex = s->lo[l] + s->len[l] / 2;
                a[l] = c->egrid + 8 * ex;
                if (xs_egrid(c, ex) > s->e[l])
                    s->hi[l] = ex;
                else
                    s->lo[l] = ex;
                s->len[l] = s->hi[l] - s->lo[l];
            }
        if (act) {
            gen_mem(g, w, R, 8, act, a);
            return 1;
        }
        for (int l = 0; l < 32; l++)
            s->idx[l] = s->lo[l];
        s->nmax = 0;
        for (int l = 0; l < 32; l++)
            if ((m >> l & 1u) && (uint32_t)xs_num_nucs[s->mat[l]] > s->nmax)
                s->nmax = (uint32_t)xs_num_nucs[s->mat[l]];
        for (int l = 0; l < 32; l++)
            a[l] = c->num_nucs + 4 * (uint64_t)s->mat[l];
        gen_mem(g, w, R, 4, m, a); /* num_nucs[mat] */
        s->phase = 2;
        s->j = 0;
        s->sub = 0;
        return 1;
    }
    if (s->phase == 2) { /* for j < num_nucs[mat]: mats, index_grid, low (3x16 B), high, concs */
        uint32_t act = 0;
        for (int l = 0; l < 32; l++)
            if ((m >> l & 1u) && s->j < (uint32_t)xs_num_nucs[s->mat[l]])
                act |= 1u << l;
        uint32_t sub = s->sub;
        for (int l = 0; l < 32; l++) {
            uint64_t mt = (uint64_t)s->mat[l], nuc = xs_nuc_of(c, s->mat[l], s->j);
            uint64_t ni = xs_nuc_index(c, s->idx[l], nuc);
            if (ni == c->ngp - 1)
                ni--;
            uint64_t low = c->ngrid + 48 * (nuc * c->ngp + ni);
            switch (sub) {
            case 0: /* p_nuc = mats[mat*max_num_nucs + j] */
                a[l] = c->mats + 4 * (mt * XS_MAXNUC + s->j);
                break;
            case 1: /* index_data[idx * n_isotopes + nuc] */
                a[l] = c->index + 4 * (s->idx[l] * XS_ISO + nuc);
                break;
            case 2:
            case 3:
            case 4: /* low point: energy..fission, 3 x 16 B */
                a[l] = low + 16 * (sub - 2);
                break;
            case 5:
            case 6:
            case 7: /* high = low + 1 */
                a[l] = low + 48 + 16 * (sub - 5);
                break;
            default: /* conc = concs[mat*max_num_nucs + j] */
                a[l] = c->concs + 8 * (mt * XS_MAXNUC + s->j);
                break;
            }
        }
        static const uint32_t gaps[9] = {6, 3, 4, 1, 1, 1, 1, 1, 24};
        gen_mem(g, w, R, gaps[sub], act, a);
        if (++s->sub == 9) {
            s->sub = 0;
            if (++s->j >= s->nmax)
                s->phase = 3;
        }
        return 1;
    }
    /* verification[i] = max_idx + 1 */
    gen_mem_strided(g, w, W, 20, m, c->verif + 8 * w->tid0, 8);
    return 0;
}

void gen_xsbench(gen_t *g) {
    xs_t c;
    memset(&c, 0, sizeof(c));
    c.seed = gen_mix(g->o.seed ^ 0x85b);
    uint64_t per_gp = XS_ISO * (8 + 48 + 4 * XS_ISO);
    c.ngp = gen_max(g->o.size / per_gp, 16);
    c.lookups = gen_min(gen_max(g->o.size / 4096, 1024), 1u << 20);
    if (g->o.iters)
        c.lookups = (uint64_t)g->o.iters * 1024;
    c.num_nucs = gen_alloc(g, "num_nucs", XS_MATS * 4, 1);
    c.concs = gen_alloc(g, "concs", XS_MATS * XS_MAXNUC * 8, 1);
    c.mats = gen_alloc(g, "mats", XS_MATS * XS_MAXNUC * 4, 1);
    c.egrid = gen_alloc(g, "unionized_energy_array", c.ngp * XS_ISO * 8, 1);
    c.index = gen_alloc(g, "index_grid", c.ngp * XS_ISO * XS_ISO * 4, 1);
    c.ngrid = gen_alloc(g, "nuclide_grid", c.ngp * XS_ISO * 48, 1);
    c.verif = gen_alloc(g, "verification", c.lookups * 8, 0);
    gen_kernel_t kk = {"xs_lookup_kernel_baseline",
                       (uint32_t)gen_ceil_div(c.lookups, 256),
                       256,
                       sizeof(xs_warp_t),
                       xs_step,
                       &c};
    gen_launch(g, &kk);
    gen_note(g, "xsbench: %d isotopes x %llu grid points, %llu lookups", XS_ISO,
             (unsigned long long)c.ngp, (unsigned long long)c.lookups);
}
