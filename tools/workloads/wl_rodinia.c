/*
 * wl_rodinia.c - Rodinia workloads: backprop, gaussian, kmeans, nn (hotspot, pathfinder, srad
 * and nw are in wl_rodinia_grid.c, bfs in wl_graph.c). Each kernel follows the Rodinia 3.1 CUDA
 * source: same grid and block shapes, same index arithmetic, same order of global loads and stores
 * per thread. See docs/workloads.md for the parameters and footprints.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define R TRACE_OP_READ
#define W TRACE_OP_WRITE

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
    double centre = rng_unit(gen_hash(seed, 1000 + cl, (uint64_t)j)) * 10.0;
    return centre + (rng_unit(gen_hash(seed, p, (uint64_t)j)) - 0.5) * 4.0;
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
        double lat = rng_unit(gen_hash(g->o.seed, 5, q)) * 180 - 90;
        double lng = rng_unit(gen_hash(g->o.seed, 6, q)) * 360 - 180, best[10];
        for (int i = 0; i < 10; i++)
            best[i] = 1e300;
        for (uint64_t r = 0; r < c.n; r++) {
            double la = rng_unit(gen_hash(g->o.seed, r, 1)) * 180 - 90;
            double lo = rng_unit(gen_hash(g->o.seed, r, 2)) * 360 - 180;
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
