/*
 * wl_rodinia.c - Rodinia workloads: backprop, hotspot, pathfinder, srad, nw, gaussian, kmeans, nn
 * (bfs is in wl_graph.c). Each kernel follows the Rodinia 3.1 CUDA source: same grid and block
 * shapes, same index arithmetic, same order of global loads and stores per thread. See
 * docs/workloads.md for the parameters and footprints.
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
 * backprop: bpnn_layerforward_CUDA + bpnn_adjust_weights_cuda, 16x16 blocks, hid = 16
 * ========================================================================================== */
#define BP_HID 16
#define BP_W 16 /* WIDTH = HEIGHT = 16 */

typedef struct {
    uint64_t input, output_hidden, in_hid, partial, delta, prev;
    uint32_t in;
} bp_t;

static int bp_forward_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const bp_t *c = k->arg;
    const uint64_t by = w->cta, hid1 = BP_HID + 1;
    uint64_t a[32];
    uint32_t m = 0;
    for (int l = 0; l < 32; l++) {
        uint32_t t = w->warp * 32 + (uint32_t)l, tx = t % BP_W, ty = t / BP_W;
        uint64_t index = hid1 * BP_W * by + hid1 * ty + tx + 1 + hid1;
        switch (w->step) {
        case 0: /* if (tx == 0) input_node[ty] = input_cuda[index_in] */
            a[l] = c->input + 4 * (BP_W * by + ty + 1);
            m |= (tx == 0) << l;
            break;
        case 1: /* weight_matrix[ty][tx] = input_hidden_cuda[index] */
        case 2: /* input_hidden_cuda[index] = weight_matrix[ty][tx] */
            a[l] = c->in_hid + 4 * index;
            m |= 1u << l;
            break;
        default: /* if (tx == 0) hidden_partial_sum[by * hid + ty] = weight_matrix[tx][ty] */
            a[l] = c->partial + 4 * (by * BP_HID + ty);
            m |= (tx == 0) << l;
            break;
        }
    }
    static const uint32_t gaps[4] = {8, 6, 48, 4};
    gen_mem(g, w, w->step == 0 || w->step == 1 ? R : W, gaps[w->step], m, a);
    return w->step < 3;
}

static int bp_adjust_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const bp_t *c = k->arg;
    const uint64_t by = w->cta, hid1 = BP_HID + 1;
    /* steps 0..5: delta[index_x], ly[index_y], oldw[index], w[index] loads; w, oldw stores;
     * steps 6..10 (ty == 0 && by == 0 only): delta, oldw, w loads, w, oldw stores at index_x */
    static const int op[11] = {R, R, R, R, W, W, R, R, R, W, W};
    static const uint32_t gaps[11] = {10, 1, 1, 1, 8, 1, 4, 1, 1, 6, 1};
    uint64_t a[32];
    uint32_t m = 0;
    int s = (int)w->step;
    for (int l = 0; l < 32; l++) {
        uint32_t t = w->warp * 32 + (uint32_t)l, tx = t % BP_W, ty = t / BP_W;
        uint64_t index = hid1 * BP_W * by + hid1 * ty + tx + 1 + hid1;
        uint64_t ix = tx + 1, iy = BP_W * by + ty + 1;
        static const int which[11] = {0, 1, 2, 3, 3, 2, 0, 4, 5, 5, 4};
        switch (which[s]) {
        case 0:
            a[l] = c->delta + 4 * ix;
            break;
        case 1:
            a[l] = c->input + 4 * iy;
            break;
        case 2:
            a[l] = c->prev + 4 * index;
            break;
        case 3:
            a[l] = c->in_hid + 4 * index;
            break;
        case 4:
            a[l] = c->prev + 4 * ix;
            break;
        default:
            a[l] = c->in_hid + 4 * ix;
            break;
        }
        m |= (uint32_t)(s < 6 || (ty == 0 && by == 0)) << l;
    }
    gen_mem(g, w, (trace_op_t)op[s], gaps[s], m, a);
    if (s == 5 && !(by == 0 && w->warp == 0))
        return 0;
    return s < 10;
}

void gen_backprop(gen_t *g) {
    /* two (in+1) x 17 weight matrices, input units and partial sums: 144 bytes per unit */
    uint64_t in = g->o.size / (2 * (BP_HID + 1) * 4 + 8) / BP_W * BP_W;
    if (in < BP_W)
        in = BP_W;
    bp_t c;
    memset(&c, 0, sizeof(c));
    c.in = (uint32_t)in;
    uint64_t nblocks = in / BP_W;
    c.input = gen_alloc(g, "input_cuda", (in + 1) * 4, 0);
    c.output_hidden = gen_alloc(g, "output_hidden_cuda", (BP_HID + 1) * 4, 0);
    c.in_hid = gen_alloc(g, "input_hidden_cuda", (in + 1) * (BP_HID + 1) * 4, 0);
    c.partial = gen_alloc(g, "hidden_partial_sum", nblocks * BP_W * 4, 0);
    c.delta = gen_alloc(g, "hidden_delta_cuda", (BP_HID + 1) * 4, 0);
    c.prev = gen_alloc(g, "input_prev_weights_cuda", (in + 1) * (BP_HID + 1) * 4, 0);
    uint32_t passes = g->o.iters ? g->o.iters : 1;
    for (uint32_t p = 0; p < passes; p++) {
        gen_kernel_t f = {"bpnn_layerforward_CUDA", (uint32_t)nblocks, 256, 0, bp_forward_step, &c};
        gen_launch(g, &f);
        gen_kernel_t a = {
            "bpnn_adjust_weights_cuda", (uint32_t)nblocks, 256, 0, bp_adjust_step, &c};
        gen_launch(g, &a);
    }
    gen_note(g, "backprop: %u input units, %u training passes", c.in, passes);
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

/* ============================================================================================
 * gaussian: Fan1 (512 threads) + Fan2 (4x4 blocks) per elimination step t
 * ========================================================================================== */
#define GS_XY 4

typedef struct {
    uint64_t m, a, b;
    int64_t n, t;
    uint32_t gx;
} gs_t;

static int fan1_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const gs_t *c = k->arg;
    int64_t n = c->n, t = c->t;
    uint32_t m = gen_lanes_below(w, (uint64_t)(n - 1 - t));
    int64_t row0 = (int64_t)w->tid0 + t + 1;
    switch (w->step) {
    case 0: /* a_cuda[Size*(i+t+1)+t] */
        gen_mem_strided(g, w, R, 10, m, c->a + 4 * (uint64_t)(n * row0 + t), 4 * n);
        return m != 0;
    case 1: /* a_cuda[Size*t+t] */
        gen_mem_strided(g, w, R, 1, m, c->a + 4 * (uint64_t)(n * t + t), 0);
        return 1;
    default: /* m_cuda[Size*(i+t+1)+t] = ... */
        gen_mem_strided(g, w, W, 24, m, c->m + 4 * (uint64_t)(n * row0 + t), 4 * n);
        return 0;
    }
}

static int fan2_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const gs_t *c = k->arg;
    int64_t n = c->n, t = c->t, bx = w->cta % c->gx, by = w->cta / c->gx;
    uint64_t a[32];
    uint32_t m = 0, m0 = 0;
    int s = (int)w->step;
    for (int l = 0; l < 16; l++) {
        int64_t tx = l % GS_XY, ty = l / GS_XY;
        int64_t xidx = bx * GS_XY + tx, yidx = by * GS_XY + ty;
        int act = xidx < n - 1 - t && yidx < n - t;
        m |= (uint32_t)act << l;
        m0 |= (uint32_t)(act && yidx == 0) << l;
        switch (s) {
        case 0: /* m_cuda[Size*(xidx+1+t)+t] */
        case 4:
            a[l] = c->m + 4 * (uint64_t)(n * (xidx + 1 + t) + t);
            break;
        case 1: /* a_cuda[Size*t+(yidx+t)] */
            a[l] = c->a + 4 * (uint64_t)(n * t + yidx + t);
            break;
        case 2: /* a_cuda[Size*(xidx+1+t)+(yidx+t)] -= ... */
        case 3:
            a[l] = c->a + 4 * (uint64_t)(n * (xidx + 1 + t) + yidx + t);
            break;
        case 5: /* b_cuda[t] */
            a[l] = c->b + 4 * (uint64_t)t;
            break;
        default: /* b_cuda[xidx+1+t] -= ... */
            a[l] = c->b + 4 * (uint64_t)(xidx + 1 + t);
            break;
        }
    }
    if (!m)
        return 0;
    static const uint32_t gaps[8] = {14, 1, 1, 3, 4, 1, 1, 3};
    gen_mem(g, w, s == 3 || s == 7 ? W : R, gaps[s], s < 4 ? m : m0, a);
    if (s == 3 && !m0)
        return 0;
    return s < 7;
}

void gen_gaussian(gen_t *g) {
    int64_t n = (int64_t)sqrt((double)g->o.size / 8.0);
    if (n < 16)
        n = 16;
    gs_t c;
    memset(&c, 0, sizeof(c));
    c.n = n;
    c.m = gen_alloc(g, "m_cuda", (uint64_t)(n * n) * 4, 0);
    c.a = gen_alloc(g, "a_cuda", (uint64_t)(n * n) * 4, 0);
    c.b = gen_alloc(g, "b_cuda", (uint64_t)n * 4, 0);
    int64_t steps = g->o.iters ? g->o.iters : 2;
    if (steps > n - 1)
        steps = n - 1;
    uint32_t f1grid = (uint32_t)(n / 512 + (n % 512 != 0));
    c.gx = (uint32_t)(n / GS_XY + (n % GS_XY != 0));
    for (int64_t t = 0; t < steps; t++) {
        c.t = t;
        gen_kernel_t k1 = {"Fan1", f1grid, 512, 0, fan1_step, &c};
        gen_launch(g, &k1);
        gen_kernel_t k2 = {"Fan2", c.gx * c.gx, GS_XY * GS_XY, 0, fan2_step, &c};
        gen_launch(g, &k2);
    }
    gen_note(g, "gaussian: %lld x %lld system, %lld of %lld elimination steps", (long long)n,
             (long long)n, (long long)steps, (long long)(n - 1));
}

/* ============================================================================================
 * kmeans: invert_mapping once, then kmeansPoint per iteration (until no membership changes)
 * ========================================================================================== */
#define KM_F 34 /* features (kdd_cup) */
#define KM_K 5  /* clusters */

typedef struct {
    uint64_t flipped, feat, member;
    uint64_t np;
} km_t;

static double km_feature(uint64_t seed, uint64_t p, int j) {
    /* points scattered around KM_K true centres */
    uint64_t cl = gen_hash(seed, p, 999) % KM_K;
    double centre = gen_unit(gen_hash(seed, 1000 + cl, (uint64_t)j)) * 10.0;
    return centre + (gen_unit(gen_hash(seed, p, (uint64_t)j)) - 0.5) * 4.0;
}

static int km_invert_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const km_t *c = k->arg;
    uint32_t m = gen_lanes_below(w, c->np);
    if (!m)
        return 0;
    uint64_t j = w->step / 2;
    if (w->step % 2 == 0) /* input[point_id*nfeatures + i] */
        gen_mem_strided(g, w, R, j == 0 ? 8 : 3, m, c->feat + 4 * (w->tid0 * KM_F + j), 4 * KM_F);
    else /* output[point_id + npoints*i] */
        gen_mem_strided(g, w, W, 1, m, c->flipped + 4 * (w->tid0 + c->np * j), 4);
    return w->step < 2 * KM_F - 1;
}

static int km_point_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const km_t *c = k->arg;
    uint32_t m = gen_lanes_below(w, c->np);
    if (!m)
        return 0;
    if (w->step < KM_K * KM_F) { /* tex1Dfetch(t_features, point_id + j*npoints) */
        uint64_t j = w->step % KM_F;
        gen_mem_strided(g, w, R, w->step == 0 ? 12 : 4, m, c->flipped + 4 * (w->tid0 + j * c->np),
                        4);
        return 1;
    }
    gen_mem_strided(g, w, W, 6, m, c->member + 4 * w->tid0, 4); /* membership[point_id] */
    return 0;
}

void gen_kmeans(gen_t *g) {
    km_t c;
    memset(&c, 0, sizeof(c));
    c.np = g->o.size / (KM_F * 4 * 2 + 4);
    if (c.np < 64)
        c.np = 64;
    c.flipped = gen_alloc(g, "feature_flipped_d", c.np * KM_F * 4, 0);
    c.feat = gen_alloc(g, "feature_d", c.np * KM_F * 4, 1);
    c.member = gen_alloc(g, "membership_d", c.np * 4, 0);
    uint32_t nblocks = (uint32_t)gen_ceil_div(c.np, 256);
    gen_kernel_t inv = {"invert_mapping", nblocks, 256, 0, km_invert_step, &c};
    gen_launch(g, &inv);
    /* the host side of the algorithm: initial centres = KM_K hash-chosen points */
    double centre[KM_K][KM_F], sum[KM_K][KM_F];
    uint64_t count[KM_K];
    for (int i = 0; i < KM_K; i++) {
        uint64_t p = gen_hash(g->o.seed, 77, (uint64_t)i) % c.np;
        for (int j = 0; j < KM_F; j++)
            centre[i][j] = km_feature(g->o.seed, p, j);
    }
    unsigned char *member = malloc(c.np);
    if (!member) {
        gen_fail(g, "out of memory");
        return;
    }
    memset(member, 0xff, c.np);
    uint32_t maxit = g->o.iters ? g->o.iters : 2, it;
    uint64_t delta = 0;
    for (it = 0; it < maxit; it++) {
        gen_kernel_t kp = {"kmeansPoint", nblocks, 256, 0, km_point_step, &c};
        gen_launch(g, &kp);
        /* what the kernel computes (nearest centre) and the host's new centres */
        memset(sum, 0, sizeof(sum));
        memset(count, 0, sizeof(count));
        delta = 0;
        for (uint64_t p = 0; p < c.np; p++) {
            double f[KM_F], best = 1e300;
            int bi = 0;
            for (int j = 0; j < KM_F; j++)
                f[j] = km_feature(g->o.seed, p, j);
            for (int i = 0; i < KM_K; i++) {
                double d = 0;
                for (int j = 0; j < KM_F; j++)
                    d += (f[j] - centre[i][j]) * (f[j] - centre[i][j]);
                if (d < best) {
                    best = d;
                    bi = i;
                }
            }
            delta += member[p] != bi;
            member[p] = (unsigned char)bi;
            count[bi]++;
            for (int j = 0; j < KM_F; j++)
                sum[bi][j] += f[j];
        }
        for (int i = 0; i < KM_K; i++)
            for (int j = 0; j < KM_F; j++)
                if (count[i])
                    centre[i][j] = sum[i][j] / (double)count[i];
        if (delta == 0)
            break;
    }
    free(member);
    gen_note(g, "kmeans: %llu points, %d features, %d clusters, %u iterations (last delta %llu)",
             (unsigned long long)c.np, KM_F, KM_K, it < maxit ? it + 1 : maxit,
             (unsigned long long)delta);
}

/* ============================================================================================
 * nn: euclid, one thread per record, 256 threads per block
 * ========================================================================================== */
typedef struct {
    uint64_t loc, dist, n;
} nn_t;

static int nn_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const nn_t *c = k->arg;
    uint32_t m = gen_lanes_below(w, c->n);
    if (!m)
        return 0;
    if (w->step == 0) /* latLong->lat */
        gen_mem_strided(g, w, R, 10, m, c->loc + 8 * w->tid0, 8);
    else if (w->step == 1) /* latLong->lng */
        gen_mem_strided(g, w, R, 1, m, c->loc + 8 * w->tid0 + 4, 8);
    else /* *dist = sqrt(...) */
        gen_mem_strided(g, w, W, 12, m, c->dist + 4 * w->tid0, 4);
    return w->step < 2;
}

void gen_nn(gen_t *g) {
    nn_t c;
    c.n = g->o.size / 12;
    if (c.n < 32)
        c.n = 32;
    c.loc = gen_alloc(g, "d_locations", c.n * 8, 1);
    c.dist = gen_alloc(g, "d_distances", c.n * 4, 0);
    uint32_t queries = g->o.iters ? g->o.iters : 1;
    for (uint32_t q = 0; q < queries; q++) {
        gen_kernel_t kk = {"euclid", (uint32_t)gen_ceil_div(c.n, 256), 256, 0, nn_step, &c};
        gen_launch(g, &kk);
        /* the host picks the 10 nearest records */
        double lat = gen_unit(gen_hash(g->o.seed, 5, q)) * 180 - 90;
        double lng = gen_unit(gen_hash(g->o.seed, 6, q)) * 360 - 180, best[10];
        for (int i = 0; i < 10; i++)
            best[i] = 1e300;
        for (uint64_t r = 0; r < c.n; r++) {
            double la = gen_unit(gen_hash(g->o.seed, r, 1)) * 180 - 90;
            double lo = gen_unit(gen_hash(g->o.seed, r, 2)) * 360 - 180;
            double d = sqrt((lat - la) * (lat - la) + (lng - lo) * (lng - lo));
            for (int i = 0; i < 10; i++)
                if (d < best[i]) {
                    memmove(&best[i + 1], &best[i], (size_t)(9 - i) * sizeof(double));
                    best[i] = d;
                    break;
                }
        }
        gen_note(g, "nn: query %u: nearest distance %.4f", q, best[0]);
    }
}
