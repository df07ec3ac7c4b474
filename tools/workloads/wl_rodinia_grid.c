/*
 * wl_rodinia_grid.c - Rodinia workloads on 2-D grids: hotspot, pathfinder, srad (stencils) and nw
 * (wavefront); the others are in wl_rodinia.c. Each kernel follows the Rodinia 3.1 CUDA source:
 * same grid and block shapes, same index arithmetic, same order of global loads and stores per
 * thread. See docs/workloads.md for the parameters and footprints.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define R TRACE_OP_READ
#define W TRACE_OP_WRITE

static inline int in_range(int64_t x, int64_t lo, int64_t hi) {
    return x >= lo && x <= hi;
}

/* ============================================================================================
 * hotspot: calculate_temp, BLOCK_SIZE 16, pyramid height 2
 * ========================================================================================== */
#define HS_BS 16

typedef struct {
    uint64_t src, dst, power;
    int64_t n;         /* grid_rows = grid_cols */
    int64_t iteration; /* this launch's pyramid steps */
    int64_t border;
    uint32_t bcols;
} hs_t;

/* lane geometry of the warp: row/col in the grid and whether the lane loads / stores */
static void hs_lanes(const hs_t *c, const gen_warp_t *w, int64_t *idx, uint32_t *ld, uint32_t *st) {
    int64_t bx = w->cta % c->bcols, by = w->cta / c->bcols;
    int64_t small = HS_BS - c->iteration * 2;
    int64_t blkY = small * by - c->border, blkX = small * bx - c->border;
    int64_t blkYmax = blkY + HS_BS - 1, blkXmax = blkX + HS_BS - 1;
    int64_t vYmin = blkY < 0 ? -blkY : 0, vXmin = blkX < 0 ? -blkX : 0;
    int64_t vYmax = blkYmax > c->n - 1 ? HS_BS - 1 - (blkYmax - c->n + 1) : HS_BS - 1;
    int64_t vXmax = blkXmax > c->n - 1 ? HS_BS - 1 - (blkXmax - c->n + 1) : HS_BS - 1;
    int64_t i = c->iteration - 1;
    *ld = *st = 0;
    for (int l = 0; l < 32; l++) {
        int64_t t = w->warp * 32 + l, tx = t % HS_BS, ty = t / HS_BS;
        int64_t y = blkY + ty, x = blkX + tx;
        idx[l] = c->n * y + x;
        if (in_range(y, 0, c->n - 1) && in_range(x, 0, c->n - 1))
            *ld |= 1u << l;
        if (in_range(tx, i + 1, HS_BS - i - 2) && in_range(ty, i + 1, HS_BS - i - 2) &&
            in_range(tx, vXmin, vXmax) && in_range(ty, vYmin, vYmax))
            *st |= 1u << l;
    }
}

static int hs_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const hs_t *c = k->arg;
    int64_t idx[32];
    uint32_t ld, st;
    hs_lanes(c, w, idx, &ld, &st);
    uint64_t a[32];
    uint64_t base = w->step == 0 ? c->src : w->step == 1 ? c->power : c->dst;
    for (int l = 0; l < 32; l++)
        a[l] = base + 4 * (uint64_t)idx[l];
    if (w->step < 2)
        gen_mem(g, w, R, w->step == 0 ? 30 : 2, ld, a);
    else
        gen_mem(g, w, W, (uint32_t)(40 * c->iteration), st, a);
    return w->step < 2;
}

void gen_hotspot(gen_t *g) {
    int64_t n = (int64_t)sqrt((double)g->o.size / 12.0);
    if (n < HS_BS)
        n = HS_BS;
    const int64_t ph = 2;
    hs_t c;
    memset(&c, 0, sizeof(c));
    c.n = n;
    uint64_t bytes = (uint64_t)(n * n) * 4;
    uint64_t temp[2];
    temp[0] = gen_alloc(g, "MatrixTemp0", bytes, 0);
    temp[1] = gen_alloc(g, "MatrixTemp1", bytes, 0);
    c.power = gen_alloc(g, "MatrixPower", bytes, 1);
    int64_t total = g->o.iters ? g->o.iters : 4;
    c.border = ph; /* borderCols = pyramid_height * EXPAND_RATE / 2 */
    int64_t small = HS_BS - ph * 2;
    c.bcols = (uint32_t)(n / small + ((n % small) ? 1 : 0));
    int src = 0;
    for (int64_t t = 0; t < total; t += ph) {
        c.iteration = total - t < ph ? total - t : ph;
        c.src = temp[src];
        c.dst = temp[1 - src];
        gen_kernel_t kk = {"calculate_temp", c.bcols * c.bcols, HS_BS * HS_BS, 0, hs_step, &c};
        gen_launch(g, &kk);
        src = 1 - src;
    }
    gen_note(g, "hotspot: %lld x %lld grid, %lld iterations, pyramid %lld", (long long)n,
             (long long)n, (long long)total, (long long)ph);
}

/* ============================================================================================
 * pathfinder: dynproc_kernel, BLOCK_SIZE 256, HALO 1, pyramid height 20, rows 100
 * ========================================================================================== */
#define PF_BS 256

typedef struct {
    uint64_t wall, src, dst;
    int64_t cols, iteration, start, border;
} pf_t;

static int pf_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const pf_t *c = k->arg;
    int64_t bx = w->cta, small = PF_BS - c->iteration * 2;
    int64_t blkX = small * bx - c->border, blkXmax = blkX + PF_BS - 1;
    int64_t vXmin = blkX < 0 ? -blkX : 0;
    int64_t vXmax = blkXmax > c->cols - 1 ? PF_BS - 1 - (blkXmax - c->cols + 1) : PF_BS - 1;
    uint64_t a[32];
    uint32_t m = 0;
    int64_t s = w->step;
    for (int l = 0; l < 32; l++) {
        int64_t tx = w->warp * 32 + l, x = blkX + tx;
        int valid = in_range(tx, vXmin, vXmax);
        if (s == 0) { /* prev[tx] = gpuSrc[xidx] */
            a[l] = c->src + 4 * (uint64_t)x;
            m |= (uint32_t)in_range(x, 0, c->cols - 1) << l;
        } else if (s <= c->iteration) { /* gpuWall[cols*(startStep+i)+xidx] */
            int64_t i = s - 1;
            a[l] = c->wall + 4 * (uint64_t)(c->cols * (c->start + i) + x);
            m |= (uint32_t)(in_range(tx, i + 1, PF_BS - i - 2) && valid) << l;
        } else { /* gpuResults[xidx] = result[tx] where computed */
            int64_t i = c->iteration - 1;
            a[l] = c->dst + 4 * (uint64_t)x;
            m |= (uint32_t)(in_range(tx, i + 1, PF_BS - i - 2) && valid) << l;
        }
    }
    gen_mem(g, w, s <= c->iteration ? R : W, s == 0 ? 14 : s <= c->iteration ? 16 : 4, m, a);
    return s <= c->iteration;
}

void gen_pathfinder(gen_t *g) {
    int64_t rows = g->o.iters ? (int64_t)g->o.iters + 1 : 100, ph = 20;
    int64_t cols = (int64_t)(g->o.size / (4 * (uint64_t)(rows + 1)));
    if (cols < PF_BS)
        cols = PF_BS;
    pf_t c;
    memset(&c, 0, sizeof(c));
    c.cols = cols;
    uint64_t res[2];
    res[0] = gen_alloc(g, "gpuResult0", (uint64_t)cols * 4, 0);
    res[1] = gen_alloc(g, "gpuResult1", (uint64_t)cols * 4, 0);
    c.wall = gen_alloc(g, "gpuWall", (uint64_t)(cols * (rows - 1)) * 4, 1);
    c.border = ph;
    int64_t small = PF_BS - ph * 2;
    uint32_t bcols = (uint32_t)(cols / small + ((cols % small) ? 1 : 0));
    int src = 1, dst = 0;
    for (int64_t t = 0; t < rows - 1; t += ph) {
        int tmp = src;
        src = dst;
        dst = tmp;
        c.iteration = ph < rows - t - 1 ? ph : rows - t - 1;
        c.start = t;
        c.src = res[src];
        c.dst = res[dst];
        gen_kernel_t kk = {"dynproc_kernel", bcols, PF_BS, 0, pf_step, &c};
        gen_launch(g, &kk);
    }
    gen_note(g, "pathfinder: %lld cols x %lld rows, pyramid %lld", (long long)cols, (long long)rows,
             (long long)ph);
}

/* ============================================================================================
 * srad (srad_v2): srad_cuda_1 + srad_cuda_2, 16x16 blocks
 * ========================================================================================== */
#define SR_BS 16

typedef struct {
    uint64_t J, C, E, Wc, N, S;
    int64_t n; /* rows = cols */
    uint32_t gx;
} srad_t;

/* Address of lane l for "which": 0 index, 1 north, 2 south, 3 west, 4 east (with the
 * first/last block row/column replacements of srad_v2). */
static uint64_t srad_elem(const srad_t *c, const gen_warp_t *w, int l, int which) {
    int64_t n = c->n, gx = c->gx, bx = w->cta % c->gx, by = w->cta / c->gx;
    int64_t t = w->warp * 32 + l, tx = t % SR_BS, ty = t / SR_BS;
    int64_t base = n * SR_BS * by + SR_BS * bx;
    switch (which) {
    case 1:
        return (uint64_t)(by == 0 ? SR_BS * bx + tx : base + tx - n);
    case 2:
        return (uint64_t)(by == gx - 1 ? n * SR_BS * (gx - 1) + SR_BS * bx + n * (SR_BS - 1) + tx
                                       : base + n * SR_BS + tx);
    case 3:
        return (uint64_t)(bx == 0 ? n * SR_BS * by + n * ty : base + n * ty - 1);
    case 4:
        return (uint64_t)(bx == gx - 1 ? n * SR_BS * by + SR_BS * (gx - 1) + n * ty + SR_BS - 1
                                       : base + n * ty + SR_BS);
    default:
        return (uint64_t)(base + n * ty + tx);
    }
}

static int srad1_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const srad_t *c = k->arg;
    /* loads J north, south, west, east, center; stores C, E_C, W_C, S_C, N_C */
    static const int which[10] = {1, 2, 3, 4, 0, 0, 0, 0, 0, 0};
    static const uint32_t gaps[10] = {24, 2, 12, 2, 10, 70, 1, 1, 1, 1};
    int s = (int)w->step;
    const uint64_t arr[10] = {c->J, c->J, c->J, c->J, c->J, c->C, c->E, c->Wc, c->S, c->N};
    uint64_t a[32];
    for (int l = 0; l < 32; l++)
        a[l] = arr[s] + 4 * srad_elem(c, w, l, which[s]);
    gen_mem(g, w, s < 5 ? R : W, gaps[s], 0xffffffffu, a);
    return s < 9;
}

static int srad2_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const srad_t *c = k->arg;
    /* loads C south, C east, C center, N_C, S_C, W_C, E_C, J; store J */
    static const int which[9] = {2, 4, 0, 0, 0, 0, 0, 0, 0};
    static const uint32_t gaps[9] = {20, 10, 8, 16, 1, 1, 1, 1, 20};
    int s = (int)w->step;
    const uint64_t arr[9] = {c->C, c->C, c->C, c->N, c->S, c->Wc, c->E, c->J, c->J};
    uint64_t a[32];
    for (int l = 0; l < 32; l++)
        a[l] = arr[s] + 4 * srad_elem(c, w, l, which[s]);
    gen_mem(g, w, s < 8 ? R : W, gaps[s], 0xffffffffu, a);
    return s < 8;
}

void gen_srad(gen_t *g) {
    int64_t n = (int64_t)sqrt((double)g->o.size / 24.0) / SR_BS * SR_BS;
    if (n < SR_BS)
        n = SR_BS;
    srad_t c;
    memset(&c, 0, sizeof(c));
    c.n = n;
    c.gx = (uint32_t)(n / SR_BS);
    uint64_t bytes = (uint64_t)(n * n) * 4;
    c.J = gen_alloc(g, "J_cuda", bytes, 0);
    c.C = gen_alloc(g, "C_cuda", bytes, 0);
    c.E = gen_alloc(g, "E_C", bytes, 0);
    c.Wc = gen_alloc(g, "W_C", bytes, 0);
    c.N = gen_alloc(g, "N_C", bytes, 0);
    c.S = gen_alloc(g, "S_C", bytes, 0);
    uint32_t niter = g->o.iters ? g->o.iters : 2;
    for (uint32_t it = 0; it < niter; it++) {
        gen_kernel_t k1 = {"srad_cuda_1", c.gx * c.gx, SR_BS * SR_BS, 0, srad1_step, &c};
        gen_launch(g, &k1);
        gen_kernel_t k2 = {"srad_cuda_2", c.gx * c.gx, SR_BS * SR_BS, 0, srad2_step, &c};
        gen_launch(g, &k2);
    }
    gen_note(g, "srad: %lld x %lld image, %u iterations", (long long)n, (long long)n, niter);
}

/* ============================================================================================
 * nw: needle_cuda_shared_1 / _2, BLOCK_SIZE 16 (one half-warp per CTA)
 * ========================================================================================== */
#define NW_BS 16

typedef struct {
    uint64_t ref, mat;
    int64_t cols, i, bw;
    int second;
} nw_t;

static int nw_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const nw_t *c = k->arg;
    int64_t bx = w->cta, cols = c->cols;
    int64_t bix = c->second ? bx + c->bw - c->i : bx;
    int64_t biy = c->second ? c->bw - bx - 1 : c->i - 1 - bx;
    int64_t corner = cols * NW_BS * biy + NW_BS * bix;
    int64_t index = corner + cols + 1, index_n = corner + 1, index_w = corner + cols;
    int s = (int)w->step;
    if (s == 0) { /* if (tx == 0) temp[0][0] = matrix_cuda[index_nw] */
        gen_mem_strided(g, w, R, 12, 0x1, c->mat + 4 * (uint64_t)corner, 0);
    } else if (s <= 16) { /* ref[ty][tx] = referrence[index + cols * ty] */
        gen_mem_strided(g, w, R, 3, 0xffff, c->ref + 4 * (uint64_t)(index + cols * (s - 1)), 4);
    } else if (s == 17) { /* temp[tx + 1][0] = matrix_cuda[index_w + cols * tx] */
        gen_mem_strided(g, w, R, 4, 0xffff, c->mat + 4 * (uint64_t)index_w, 4 * cols);
    } else if (s == 18) { /* temp[0][tx + 1] = matrix_cuda[index_n] */
        gen_mem_strided(g, w, R, 4, 0xffff, c->mat + 4 * (uint64_t)index_n, 4);
    } else { /* matrix_cuda[index + ty * cols] = temp[ty+1][tx+1] */
        gen_mem_strided(g, w, W, s == 19 ? 31 * 14 : 3, 0xffff,
                        c->mat + 4 * (uint64_t)(index + (s - 19) * cols), 4);
    }
    return s < 34;
}

void gen_nw(gen_t *g) {
    int64_t n = ((int64_t)sqrt((double)g->o.size / 8.0) - 1) / NW_BS * NW_BS;
    if (n < NW_BS)
        n = NW_BS;
    nw_t c;
    memset(&c, 0, sizeof(c));
    c.cols = n + 1;
    uint64_t bytes = (uint64_t)(c.cols * c.cols) * 4;
    c.ref = gen_alloc(g, "referrence_cuda", bytes, 1);
    c.mat = gen_alloc(g, "matrix_cuda", bytes, 0);
    c.bw = n / NW_BS;
    for (int64_t i = 1; i <= c.bw; i++) {
        c.i = i;
        c.second = 0;
        gen_kernel_t kk = {"needle_cuda_shared_1", (uint32_t)i, NW_BS, 0, nw_step, &c};
        gen_launch(g, &kk);
    }
    for (int64_t i = c.bw - 1; i >= 1; i--) {
        c.i = i;
        c.second = 1;
        gen_kernel_t kk = {"needle_cuda_shared_2", (uint32_t)i, NW_BS, 0, nw_step, &c};
        gen_launch(g, &kk);
    }
    gen_note(g, "nw: %lld x %lld score matrix, %lld launches", (long long)n, (long long)n,
             (long long)(2 * c.bw - 1));
}
