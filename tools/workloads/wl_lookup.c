/*
 * wl_lookup.c - irregular lookup kernels: a binary-search-tree lookup kernel and XSBench's
 * cross-section lookup kernel (the regular kernels sgemm, stencil, atax are in wl_misc.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define R TRACE_OP_READ
#define W TRACE_OP_WRITE

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
    c.seed = rng_mix64(g->o.seed ^ 0xb57);
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
    return ((double)i + 0.25 + 0.5 * rng_unit(gen_hash(c->seed, 1, i))) / n;
}

static uint64_t xs_nuc_of(const xs_t *c, int mat, uint32_t j) {
    /* material mat's j-th nuclide: distinct ids (fuel = the first 34) */
    return mat == 0
               ? j
               : (j * 7 + (uint64_t)mat * 5 + gen_hash(c->seed, 7, (uint64_t)mat) % 3) % XS_ISO;
}

/* index of nuclide nuc's grid point below the unionized grid point idx */
static uint64_t xs_nuc_index(const xs_t *c, uint64_t idx, uint64_t nuc) {
    double off = rng_unit(gen_hash(c->seed, 3, nuc));
    double pos = xs_egrid(c, idx) * (double)c->ngp - off;
    if (pos < 0)
        pos = 0;
    uint64_t p = (uint64_t)pos;
    return p > c->ngp - 1 ? c->ngp - 1 : p;
}

/* phase 0: sample energy and material of each lane; no memory access */
static int xs_sample(const xs_t *c, xs_warp_t *s, const gen_warp_t *w) {
    for (int l = 0; l < 32; l++) {
        uint64_t id = w->tid0 + (uint64_t)l;
        s->e[l] = rng_unit(gen_hash(c->seed, 11, id));
        double u = rng_unit(gen_hash(c->seed, 12, id)), acc = 0;
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

/* phase 1: grid_search (while (length > 1) loads A[examinationPoint]), then num_nucs[mat] */
static int xs_search(gen_t *g, const xs_t *c, xs_warp_t *s, gen_warp_t *w, uint32_t m) {
    uint64_t a[32];
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

/* phase 2: for j < num_nucs[mat]: mats, index_grid, low (3x16 B), high, concs */
static int xs_nuclides(gen_t *g, const xs_t *c, xs_warp_t *s, gen_warp_t *w, uint32_t m) {
    uint64_t a[32];
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

static int xs_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const xs_t *c = k->arg;
    xs_warp_t *s = w->state;
    uint32_t m = gen_lanes_below(w, c->lookups);
    if (!m)
        return 0;
    if (s->phase == 0)
        return xs_sample(c, s, w);
    if (s->phase == 1)
        return xs_search(g, c, s, w, m);
    if (s->phase == 2)
        return xs_nuclides(g, c, s, w, m);
    /* verification[i] = max_idx + 1 */
    gen_mem_strided(g, w, W, 20, m, c->verif + 8 * w->tid0, 8);
    return 0;
}

void gen_xsbench(gen_t *g) {
    xs_t c;
    memset(&c, 0, sizeof(c));
    c.seed = rng_mix64(g->o.seed ^ 0x85b);
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
