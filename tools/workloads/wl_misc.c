/*
 * wl_misc.c - Parboil sgemm and stencil, PolyBench atax (the lookup kernels bst and XSBench are in
 * wl_lookup.c).
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
