/*
 * graph.c - implicit R-MAT graphs (see graph.h).
 */
#include "graph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define RMAT_A 0.57
#define RMAT_B 0.19
#define RMAT_C 0.19
#define RMAT_D 0.05

static uint64_t graph_orig(const graph_t *gr, uint64_t v) {
    return ((v * gr->inv) & (gr->nv - 1)) ^ gr->xr;
}

static uint64_t graph_label(const graph_t *gr, uint64_t o) {
    return ((o ^ gr->xr) * gr->mul) & (gr->nv - 1);
}

uint32_t graph_degree(const graph_t *gr, uint64_t v) {
    if (v >= gr->nv)
        return 0;
    uint64_t o = graph_orig(gr, v);
    double lam = gr->lambda[__builtin_popcountll(o)];
    uint64_t h = gen_hash(gr->seed, 0x6465677265650000ULL, v);
    double u = rng_unit(h);
    if (lam <= 32.0) { /* Poisson by inversion */
        double p = exp(-lam), cdf = p;
        uint32_t k = 0;
        while (u > cdf && k < 1000) {
            k++;
            p *= lam / k;
            cdf += p;
        }
        return k;
    }
    double u2 = rng_unit(rng_mix64(h));
    double z = sqrt(-2.0 * log(u2 > 0 ? u2 : 1e-300)) * cos(6.283185307179586 * u);
    double d = floor(lam + sqrt(lam) * z + 0.5);
    if (d < 0)
        d = 0;
    if (d > 2147483647.0)
        d = 2147483647.0;
    return (uint32_t)d;
}

int graph_init(graph_t *gr, uint32_t scale, uint64_t edges_target, uint64_t seed) {
    memset(gr, 0, sizeof(*gr));
    gr->scale = scale;
    gr->nv = 1ULL << scale;
    gr->seed = rng_mix64(seed ^ 0x52a7e1ULL);
    for (uint32_t p = 0; p <= 64; p++)
        gr->lambda[p] = p <= scale ? (double)edges_target * pow(RMAT_A + RMAT_B, scale - p) *
                                         pow(RMAT_C + RMAT_D, p)
                                   : 0.0;
    gr->thr0 = (uint32_t)(RMAT_B / (RMAT_A + RMAT_B) * 65536.0);
    gr->thr1 = (uint32_t)(RMAT_D / (RMAT_C + RMAT_D) * 65536.0);
    gr->mul = rng_mix64(gr->seed + 1) | 1u;
    uint64_t inv = gr->mul; /* Newton: inverse of an odd number modulo 2^64 */
    for (int i = 0; i < 6; i++)
        inv *= 2 - gr->mul * inv;
    gr->inv = inv;
    gr->xr = rng_mix64(gr->seed + 2) & (gr->nv - 1);
    uint64_t nck = gr->nv / 64 + 1;
    gr->ckpt = malloc(nck * sizeof(uint64_t));
    if (!gr->ckpt)
        return -1;
    uint64_t off = 0;
    for (uint64_t v = 0; v < gr->nv; v++) {
        if (v % 64 == 0)
            gr->ckpt[v / 64] = off;
        off += graph_degree(gr, v);
    }
    gr->ckpt[gr->nv / 64] = off;
    gr->ne = off;
    return 0;
}

void graph_free(graph_t *gr) {
    free(gr->ckpt);
    gr->ckpt = NULL;
}

uint64_t graph_offset(const graph_t *gr, uint64_t v) {
    if (v >= gr->nv)
        return gr->ne;
    uint64_t off = gr->ckpt[v / 64];
    for (uint64_t u = v & ~63ULL; u < v; u++)
        off += graph_degree(gr, u);
    return off;
}

void graph_range(const graph_t *gr, uint64_t v0, uint32_t n, uint64_t *off, uint32_t *deg) {
    uint64_t o = graph_offset(gr, v0);
    for (uint32_t i = 0; i < n; i++) {
        off[i] = o;
        deg[i] = graph_degree(gr, v0 + i);
        o += deg[i];
    }
}

uint64_t graph_neighbor(const graph_t *gr, uint64_t v, uint64_t k) {
    uint64_t src = graph_orig(gr, v), dst = 0;
    rng_sm_t r = {gen_hash(gr->seed, v, k)};
    uint64_t bits = 0;
    for (uint32_t i = 0; i < gr->scale; i++) {
        if (i % 4 == 0)
            bits = rng_sm_next(&r);
        uint32_t u = (uint32_t)(bits & 0xffff);
        bits >>= 16;
        uint32_t thr = (src >> i & 1u) ? gr->thr1 : gr->thr0;
        dst |= (uint64_t)(u < thr) << i;
    }
    return graph_label(gr, dst);
}

uint32_t graph_weight(const graph_t *gr, uint64_t v, uint64_t k) {
    return 1 + (uint32_t)(gen_hash(gr->seed ^ 0x77, v, k) % 100);
}

uint64_t graph_hub(const graph_t *gr) {
    return graph_label(gr, 0);
}

/* Chooses scale (V = 2^scale, 2^10..2^22) and the edge count for a footprint of
 * per_vertex*V + per_edge*E bytes: V is the power of two nearest to the count that gives an
 * average degree of deg; the edges take the rest of the footprint. Above 2^22 vertices the
 * average degree grows instead (bounded generator memory: V/8 bytes of offsets, a few bits or
 * words of algorithm state per vertex). */
void graph_plan(uint64_t bytes, uint64_t per_vertex, uint64_t per_edge, uint64_t deg,
                uint32_t *scale, uint64_t *edges) {
    double ideal = (double)bytes / (double)(per_vertex + per_edge * deg);
    uint32_t s = 0;
    while (s < 22 && (double)(1ULL << (s + 1)) <= ideal * 1.41421356)
        s++;
    if (s < 10)
        s = 10;
    uint64_t nv = 1ULL << s;
    uint64_t e = bytes > per_vertex * nv ? (bytes - per_vertex * nv) / per_edge : nv;
    *scale = s;
    *edges = gen_max(e, nv);
}
