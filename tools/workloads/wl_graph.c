/*
 * wl_graph.c - graph workloads on implicit R-MAT graphs (graph.h): bfs (Rodinia), sssp
 * (Harish & Narayanan's frontier Bellman-Ford, as in LonestarGPU's topology-driven version),
 * pagerank (Pannotia, push style with atomicAdd). The algorithms run for real on the generated
 * graph: frontiers, distances and ranks decide which lanes are active and which neighbours are
 * touched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "graph.h"

#define R TRACE_OP_READ
#define W TRACE_OP_WRITE
#define A TRACE_OP_ATOMIC

/* ---- bit sets (algorithm state: V bits each) ---- */
static inline int bit_get(const uint64_t *b, uint64_t i) {
    return (int)(b[i >> 6] >> (i & 63) & 1u);
}
static inline void bit_set(uint64_t *b, uint64_t i) {
    b[i >> 6] |= 1ULL << (i & 63);
}
static inline void bit_clr(uint64_t *b, uint64_t i) {
    b[i >> 6] &= ~(1ULL << (i & 63));
}

/* Per-warp state of the edge-loop kernels. */
typedef struct {
    int phase;
    uint32_t act;       /* lanes working on a vertex */
    uint32_t k, maxdeg; /* edge loop */
    uint32_t sub;       /* instruction within one loop iteration */
    uint32_t upd;       /* lanes of this iteration that update their neighbour */
    uint64_t off[32];
    uint32_t deg[32];
    uint64_t nbr[32];
} edge_warp_t;

/* Starts the edge loop of the working lanes: the longest degree, k and sub reset, next phase.
 * Returns whether any lane has an edge. */
static int edge_loop_start(edge_warp_t *s, int next_phase) {
    s->maxdeg = 0;
    for (int l = 0; l < 32; l++)
        if ((s->act >> l & 1u) && s->deg[l] > s->maxdeg)
            s->maxdeg = s->deg[l];
    s->k = 0;
    s->sub = 0;
    s->phase = next_phase;
    return s->maxdeg != 0;
}

/* The working lanes that still have an edge at loop index k. */
static uint32_t edge_lanes(const edge_warp_t *s) {
    uint32_t lanes = 0;
    for (int l = 0; l < 32; l++)
        if ((s->act >> l & 1u) && s->k < s->deg[l])
            lanes |= 1u << l;
    return lanes;
}

/* ============================================================================================
 * bfs: Kernel (expand the frontier) + Kernel2 (update masks), 512 threads per block
 * ========================================================================================== */
typedef struct {
    graph_t gr;
    uint64_t nodes, edges, mask, updating, visited, cost, over;
    uint64_t *b_mask, *b_upd, *b_vis;
} bfs_t;

static int bfs_k1_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const bfs_t *c = k->arg;
    edge_warp_t *s = w->state;
    uint64_t a[32];
    const uint64_t t0 = w->tid0;
    switch (s->phase) {
    case 0: { /* if (tid < no_of_nodes && g_graph_mask[tid]) */
        uint32_t m = gen_lanes_below(w, c->gr.nv);
        gen_mem_strided(g, w, R, 6, m, c->mask + t0, 1);
        s->act = 0;
        for (int l = 0; l < 32; l++)
            if ((m >> l & 1u) && bit_get(c->b_mask, t0 + (uint64_t)l))
                s->act |= 1u << l;
        s->phase = 1;
        return s->act != 0;
    }
    case 1: /* g_graph_mask[tid] = false */
        gen_mem_strided(g, w, W, 2, s->act, c->mask + t0, 1);
        for (int l = 0; l < 32; l++)
            if (s->act >> l & 1u)
                bit_clr(c->b_mask, t0 + (uint64_t)l);
        s->phase = 2;
        return 1;
    case 2: /* g_graph_nodes[tid].starting */
        gen_mem_strided(g, w, R, 1, s->act, c->nodes + 8 * t0, 8);
        graph_range(&c->gr, t0, w->nthreads, s->off, s->deg);
        s->phase = 3;
        return 1;
    case 3: /* g_graph_nodes[tid].no_of_edges */
        gen_mem_strided(g, w, R, 1, s->act, c->nodes + 8 * t0 + 4, 8);
        return edge_loop_start(s, 4);
    default:
        break;
    }
    /* for (i = starting; i < starting + no_of_edges; i++) */
    const uint32_t lanes = edge_lanes(s);
    switch (s->sub) {
    case 0: /* id = g_graph_edges[i] */
        for (int l = 0; l < 32; l++)
            if (lanes >> l & 1u) {
                a[l] = c->edges + 4 * (s->off[l] + s->k);
                s->nbr[l] = graph_neighbor(&c->gr, t0 + (uint64_t)l, s->k);
            }
        gen_mem(g, w, R, s->k == 0 ? 4 : 6, lanes, a);
        s->sub = 1;
        return 1;
    case 1: /* if (!g_graph_visited[id]) */
        for (int l = 0; l < 32; l++)
            a[l] = c->visited + s->nbr[l];
        gen_mem(g, w, R, 1, lanes, a);
        s->upd = 0;
        for (int l = 0; l < 32; l++)
            if ((lanes >> l & 1u) && !bit_get(c->b_vis, s->nbr[l]))
                s->upd |= 1u << l;
        s->sub = s->upd ? 2 : 0;
        break;
    case 2: /* g_cost[tid] (reloaded: g_cost[id] may alias it) */
        gen_mem_strided(g, w, R, 2, s->upd, c->cost + 4 * t0, 4);
        s->sub = 3;
        return 1;
    case 3: /* g_cost[id] = g_cost[tid] + 1 */
        for (int l = 0; l < 32; l++)
            a[l] = c->cost + 4 * s->nbr[l];
        gen_mem(g, w, W, 1, s->upd, a);
        s->sub = 4;
        return 1;
    default: /* g_updating_graph_mask[id] = true */
        for (int l = 0; l < 32; l++) {
            a[l] = c->updating + s->nbr[l];
            if (s->upd >> l & 1u)
                bit_set(c->b_upd, s->nbr[l]);
        }
        gen_mem(g, w, W, 0, s->upd, a);
        s->sub = 0;
        break;
    }
    if (s->sub == 0 && ++s->k >= s->maxdeg)
        return 0;
    return 1;
}

static int bfs_k2_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const bfs_t *c = k->arg;
    edge_warp_t *s = w->state;
    const uint64_t t0 = w->tid0;
    switch (w->step) {
    case 0: { /* if (tid < no_of_nodes && g_updating_graph_mask[tid]) */
        uint32_t m = gen_lanes_below(w, c->gr.nv);
        gen_mem_strided(g, w, R, 6, m, c->updating + t0, 1);
        s->act = 0;
        for (int l = 0; l < 32; l++)
            if ((m >> l & 1u) && bit_get(c->b_upd, t0 + (uint64_t)l))
                s->act |= 1u << l;
        return s->act != 0;
    }
    case 1: /* g_graph_mask[tid] = true */
        gen_mem_strided(g, w, W, 2, s->act, c->mask + t0, 1);
        return 1;
    case 2: /* g_graph_visited[tid] = true */
        gen_mem_strided(g, w, W, 1, s->act, c->visited + t0, 1);
        return 1;
    case 3: /* *g_over = true */
        gen_mem_strided(g, w, W, 1, s->act, c->over, 0);
        return 1;
    default: /* g_updating_graph_mask[tid] = false */
        gen_mem_strided(g, w, W, 1, s->act, c->updating + t0, 1);
        for (int l = 0; l < 32; l++)
            if (s->act >> l & 1u) {
                uint64_t v = t0 + (uint64_t)l;
                bit_set(c->b_mask, v);
                bit_set(c->b_vis, v);
                bit_clr(c->b_upd, v);
            }
        return 0;
    }
}

static uint64_t *bits_new(uint64_t n) {
    return calloc((size_t)(n + 63) / 64, sizeof(uint64_t));
}

void gen_bfs(gen_t *g) {
    uint32_t scale;
    uint64_t edges;
    graph_plan(g->o.size, 8 + 1 + 1 + 1 + 4, 4, 8, &scale, &edges);
    bfs_t c;
    memset(&c, 0, sizeof(c));
    if (graph_init(&c.gr, scale, edges, g->o.seed) != 0) {
        gen_fail(g, "out of memory");
        return;
    }
    uint64_t nv = c.gr.nv;
    c.nodes = gen_alloc(g, "d_graph_nodes", nv * 8, 1);
    c.edges = gen_alloc(g, "d_graph_edges", gen_max(c.gr.ne, 1) * 4, 1);
    c.mask = gen_alloc(g, "d_graph_mask", nv, 0);
    c.updating = gen_alloc(g, "d_updating_graph_mask", nv, 0);
    c.visited = gen_alloc(g, "d_graph_visited", nv, 0);
    c.cost = gen_alloc(g, "d_cost", nv * 4, 0);
    c.over = gen_alloc(g, "d_over", 1, 0);
    c.b_mask = bits_new(nv);
    c.b_upd = bits_new(nv);
    c.b_vis = bits_new(nv);
    if (!c.b_mask || !c.b_upd || !c.b_vis) {
        gen_fail(g, "out of memory");
        goto out;
    }
    uint64_t src = graph_hub(&c.gr);
    bit_set(c.b_mask, src);
    bit_set(c.b_vis, src);
    uint32_t block = nv < 512 ? (uint32_t)nv : 512;
    uint32_t grid = (uint32_t)gen_ceil_div(nv, block);
    uint32_t maxlev = g->o.iters ? g->o.iters : 1000000, lev;
    for (lev = 0; lev < maxlev && !g->failed; lev++) {
        gen_kernel_t k1 = {"Kernel", grid, block, sizeof(edge_warp_t), bfs_k1_step, &c};
        gen_launch(g, &k1);
        gen_kernel_t k2 = {"Kernel2", grid, block, sizeof(edge_warp_t), bfs_k2_step, &c};
        gen_launch(g, &k2);
        int over = 0; /* any vertex newly reached? (the next frontier) */
        for (uint64_t i = 0; i < (nv + 63) / 64 && !over; i++)
            over = c.b_mask[i] != 0;
        if (!over)
            break;
    }
    uint64_t reached = 0;
    for (uint64_t i = 0; i < (nv + 63) / 64; i++)
        reached += (uint64_t)__builtin_popcountll(c.b_vis[i]);
    gen_note(g,
             "bfs: R-MAT scale %u (%llu vertices, %llu edges), source %llu, %u levels, "
             "%llu vertices reached",
             scale, (unsigned long long)nv, (unsigned long long)c.gr.ne, (unsigned long long)src,
             lev < maxlev ? lev + 1 : maxlev, (unsigned long long)reached);
out:
    free(c.b_mask);
    free(c.b_upd);
    free(c.b_vis);
    graph_free(&c.gr);
}

/* ============================================================================================
 * sssp: CUDA_SSSP_KERNEL1 (relax the edges of masked vertices with atomicMin) + KERNEL2
 * ========================================================================================== */
typedef struct {
    graph_t gr;
    uint64_t va, ea, wa, ma, ca, ua, over;
    uint64_t *b_mask;
    uint32_t *cost, *ucost;
} sssp_t;

#define SSSP_INF 0x7fffffffu

static int sssp_k1_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const sssp_t *c = k->arg;
    edge_warp_t *s = w->state;
    uint64_t a[32];
    const uint64_t t0 = w->tid0;
    switch (s->phase) {
    case 0: { /* if (Ma[tid]) */
        uint32_t m = gen_lanes_below(w, c->gr.nv);
        gen_mem_strided(g, w, R, 6, m, c->ma + t0, 1);
        s->act = 0;
        for (int l = 0; l < 32; l++)
            if ((m >> l & 1u) && bit_get(c->b_mask, t0 + (uint64_t)l))
                s->act |= 1u << l;
        s->phase = 1;
        return s->act != 0;
    }
    case 1: /* Ma[tid] = false */
        gen_mem_strided(g, w, W, 2, s->act, c->ma + t0, 1);
        for (int l = 0; l < 32; l++)
            if (s->act >> l & 1u)
                bit_clr(c->b_mask, t0 + (uint64_t)l);
        s->phase = 2;
        return 1;
    case 2: /* start = Va[tid] */
        gen_mem_strided(g, w, R, 1, s->act, c->va + 4 * t0, 4);
        graph_range(&c->gr, t0, w->nthreads, s->off, s->deg);
        s->phase = 3;
        return 1;
    case 3: /* end = Va[tid + 1] */
        gen_mem_strided(g, w, R, 1, s->act, c->va + 4 * (t0 + 1), 4);
        s->phase = 4;
        return 1;
    case 4: /* Ca[tid] */
        gen_mem_strided(g, w, R, 1, s->act, c->ca + 4 * t0, 4);
        return edge_loop_start(s, 5);
    default:
        break;
    }
    const uint32_t lanes = edge_lanes(s);
    if (s->sub == 0) { /* nid = Ea[i] */
        for (int l = 0; l < 32; l++)
            if (lanes >> l & 1u) {
                a[l] = c->ea + 4 * (s->off[l] + s->k);
                s->nbr[l] = graph_neighbor(&c->gr, t0 + (uint64_t)l, s->k);
            }
        gen_mem(g, w, R, 5, lanes, a);
        s->sub = 1;
        return 1;
    }
    if (s->sub == 1) { /* Wa[i] */
        for (int l = 0; l < 32; l++)
            a[l] = c->wa + 4 * (s->off[l] + s->k);
        gen_mem(g, w, R, 1, lanes, a);
        s->sub = 2;
        return 1;
    }
    /* atomicMin(&Ua[nid], Ca[tid] + Wa[i]) */
    for (int l = 0; l < 32; l++) {
        a[l] = c->ua + 4 * s->nbr[l];
        if (lanes >> l & 1u) {
            uint64_t v = t0 + (uint64_t)l;
            uint32_t d = c->cost[v] + graph_weight(&c->gr, v, s->k);
            if (d < c->ucost[s->nbr[l]])
                c->ucost[s->nbr[l]] = d;
        }
    }
    gen_mem(g, w, A, 2, lanes, a);
    s->sub = 0;
    return ++s->k < s->maxdeg;
}

static int sssp_k2_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const sssp_t *c = k->arg;
    edge_warp_t *s = w->state;
    const uint64_t t0 = w->tid0;
    uint32_t m = gen_lanes_below(w, c->gr.nv);
    switch (w->step) {
    case 0: /* Ca[tid] */
        gen_mem_strided(g, w, R, 6, m, c->ca + 4 * t0, 4);
        return m != 0;
    case 1: /* if (Ca[tid] > Ua[tid]) */
        gen_mem_strided(g, w, R, 1, m, c->ua + 4 * t0, 4);
        s->act = 0;
        for (int l = 0; l < 32; l++)
            if ((m >> l & 1u) && c->cost[t0 + (uint64_t)l] > c->ucost[t0 + (uint64_t)l])
                s->act |= 1u << l;
        s->phase = s->act ? 2 : 5;
        return 1;
    default:
        break;
    }
    switch (s->phase) {
    case 2: /* Ca[tid] = Ua[tid] */
        gen_mem_strided(g, w, W, 2, s->act, c->ca + 4 * t0, 4);
        s->phase = 3;
        return 1;
    case 3: /* Ma[tid] = true */
        gen_mem_strided(g, w, W, 1, s->act, c->ma + t0, 1);
        s->phase = 4;
        return 1;
    case 4: /* *over = true */
        gen_mem_strided(g, w, W, 1, s->act, c->over, 0);
        s->phase = 5;
        return 1;
    default: /* Ua[tid] = Ca[tid] */
        gen_mem_strided(g, w, W, 1, m, c->ua + 4 * t0, 4);
        for (int l = 0; l < 32; l++) {
            uint64_t v = t0 + (uint64_t)l;
            if (s->act >> l & 1u) {
                c->cost[v] = c->ucost[v];
                bit_set(c->b_mask, v);
            }
            if (m >> l & 1u)
                c->ucost[v] = c->cost[v];
        }
        return 0;
    }
}

void gen_sssp(gen_t *g) {
    uint32_t scale;
    uint64_t edges;
    graph_plan(g->o.size, 4 + 1 + 4 + 4, 8, 8, &scale, &edges);
    sssp_t c;
    memset(&c, 0, sizeof(c));
    if (graph_init(&c.gr, scale, edges, g->o.seed) != 0) {
        gen_fail(g, "out of memory");
        return;
    }
    uint64_t nv = c.gr.nv, ne = gen_max(c.gr.ne, 1);
    c.va = gen_alloc(g, "Va", (nv + 1) * 4, 1);
    c.ea = gen_alloc(g, "Ea", ne * 4, 1);
    c.wa = gen_alloc(g, "Wa", ne * 4, 1);
    c.ma = gen_alloc(g, "Ma", nv, 0);
    c.ca = gen_alloc(g, "Ca", nv * 4, 0);
    c.ua = gen_alloc(g, "Ua", nv * 4, 0);
    c.over = gen_alloc(g, "over", 4, 0);
    c.b_mask = bits_new(nv);
    c.cost = malloc(nv * sizeof(uint32_t));
    c.ucost = malloc(nv * sizeof(uint32_t));
    if (!c.b_mask || !c.cost || !c.ucost) {
        gen_fail(g, "out of memory");
        goto out;
    }
    for (uint64_t v = 0; v < nv; v++)
        c.cost[v] = c.ucost[v] = SSSP_INF;
    uint64_t src = graph_hub(&c.gr);
    c.cost[src] = c.ucost[src] = 0;
    bit_set(c.b_mask, src);
    uint32_t grid = (uint32_t)gen_ceil_div(nv, 256);
    uint32_t maxit = g->o.iters ? g->o.iters : 1000000, it;
    for (it = 0; it < maxit && !g->failed; it++) {
        gen_kernel_t k1 = {"CUDA_SSSP_KERNEL1", grid, 256, sizeof(edge_warp_t), sssp_k1_step, &c};
        gen_launch(g, &k1);
        gen_kernel_t k2 = {"CUDA_SSSP_KERNEL2", grid, 256, sizeof(edge_warp_t), sssp_k2_step, &c};
        gen_launch(g, &k2);
        int over = 0;
        for (uint64_t i = 0; i < (nv + 63) / 64 && !over; i++)
            over = c.b_mask[i] != 0;
        if (!over)
            break;
    }
    uint64_t reached = 0, far = 0;
    for (uint64_t v = 0; v < nv; v++)
        if (c.cost[v] != SSSP_INF) {
            reached++;
            far = c.cost[v] > far ? c.cost[v] : far;
        }
    gen_note(g,
             "sssp: R-MAT scale %u (%llu vertices, %llu edges), %u iterations, %llu reached, "
             "max distance %llu",
             scale, (unsigned long long)nv, (unsigned long long)c.gr.ne,
             it < maxit ? it + 1 : maxit, (unsigned long long)reached, (unsigned long long)far);
out:
    free(c.b_mask);
    free(c.cost);
    free(c.ucost);
    graph_free(&c.gr);
}

/* ============================================================================================
 * pagerank (Pannotia): inibuffer, then per iteration pagerank1 (push with atomicAdd) and
 * pagerank2 (damping, reset)
 * ========================================================================================== */
typedef struct {
    graph_t gr;
    uint64_t row, col, pr1, pr2;
    float *r1, *r2;
} pr_t;

static int pr_init_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const pr_t *c = k->arg;
    uint32_t m = gen_lanes_below(w, c->gr.nv);
    gen_mem_strided(g, w, W, w->step == 0 ? 8 : 1, m,
                    (w->step == 0 ? c->pr1 : c->pr2) + 4 * w->tid0, 4);
    return m && w->step == 0;
}

static int pr1_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const pr_t *c = k->arg;
    edge_warp_t *s = w->state;
    uint64_t a[32];
    const uint64_t t0 = w->tid0;
    switch (s->phase) {
    case 0: /* start = row[tid] */
        s->act = gen_lanes_below(w, c->gr.nv);
        gen_mem_strided(g, w, R, 6, s->act, c->row + 4 * t0, 4);
        graph_range(&c->gr, t0, w->nthreads, s->off, s->deg);
        s->phase = 1;
        return s->act != 0;
    case 1: /* end = row[tid + 1] (tid + 1 < num_nodes) */
        gen_mem_strided(g, w, R, 2, s->act & gen_lanes_below(w, c->gr.nv - 1),
                        c->row + 4 * (t0 + 1), 4);
        s->phase = 2;
        return 1;
    case 2: /* page_rank1[tid] */
        gen_mem_strided(g, w, R, 3, s->act, c->pr1 + 4 * t0, 4);
        return edge_loop_start(s, 3);
    default:
        break;
    }
    const uint32_t lanes = edge_lanes(s);
    if (s->sub == 0) { /* col[edge] */
        for (int l = 0; l < 32; l++)
            if (lanes >> l & 1u) {
                a[l] = c->col + 4 * (s->off[l] + s->k);
                s->nbr[l] = graph_neighbor(&c->gr, t0 + (uint64_t)l, s->k);
            }
        gen_mem(g, w, R, s->k == 0 ? 8 : 4, lanes, a);
        s->sub = 1;
        return 1;
    }
    /* atomicAdd(&page_rank2[col[edge]], page_rank1[tid] / nb) */
    for (int l = 0; l < 32; l++) {
        a[l] = c->pr2 + 4 * s->nbr[l];
        if (lanes >> l & 1u)
            c->r2[s->nbr[l]] += c->r1[t0 + (uint64_t)l] / (float)s->deg[l];
    }
    gen_mem(g, w, A, 1, lanes, a);
    s->sub = 0;
    return ++s->k < s->maxdeg;
}

static int pr2_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    const pr_t *c = k->arg;
    uint32_t m = gen_lanes_below(w, c->gr.nv);
    const uint64_t t0 = w->tid0;
    switch (w->step) {
    case 0: /* page_rank2[tid] */
        gen_mem_strided(g, w, R, 6, m, c->pr2 + 4 * t0, 4);
        return m != 0;
    case 1: /* page_rank1[tid] = 0.15/n + 0.85*page_rank2[tid] */
        gen_mem_strided(g, w, W, 4, m, c->pr1 + 4 * t0, 4);
        return 1;
    default: /* page_rank2[tid] = 0 */
        gen_mem_strided(g, w, W, 1, m, c->pr2 + 4 * t0, 4);
        for (int l = 0; l < 32; l++)
            if (m >> l & 1u) {
                uint64_t v = t0 + (uint64_t)l;
                c->r1[v] = 0.15f / (float)c->gr.nv + 0.85f * c->r2[v];
                c->r2[v] = 0.0f;
            }
        return 0;
    }
}

void gen_pagerank(gen_t *g) {
    uint32_t scale;
    uint64_t edges;
    graph_plan(g->o.size, 4 + 4 + 4, 4, 8, &scale, &edges);
    pr_t c;
    memset(&c, 0, sizeof(c));
    if (graph_init(&c.gr, scale, edges, g->o.seed) != 0) {
        gen_fail(g, "out of memory");
        return;
    }
    uint64_t nv = c.gr.nv;
    c.row = gen_alloc(g, "row_d", nv * 4, 1);
    c.col = gen_alloc(g, "col_d", gen_max(c.gr.ne, 1) * 4, 1);
    c.pr1 = gen_alloc(g, "pagerank1_d", nv * 4, 0);
    c.pr2 = gen_alloc(g, "pagerank2_d", nv * 4, 0);
    c.r1 = malloc(nv * sizeof(float));
    c.r2 = malloc(nv * sizeof(float));
    if (!c.r1 || !c.r2) {
        gen_fail(g, "out of memory");
        goto out;
    }
    for (uint64_t v = 0; v < nv; v++) {
        c.r1[v] = 1.0f / (float)nv;
        c.r2[v] = 0.0f;
    }
    uint32_t grid = (uint32_t)gen_ceil_div(nv, 256);
    gen_kernel_t ki = {"inibuffer", grid, 256, 0, pr_init_step, &c};
    gen_launch(g, &ki);
    uint32_t iters = g->o.iters ? g->o.iters : 2;
    for (uint32_t it = 0; it < iters; it++) {
        gen_kernel_t k1 = {"pagerank1", grid, 256, sizeof(edge_warp_t), pr1_step, &c};
        gen_launch(g, &k1);
        gen_kernel_t k2 = {"pagerank2", grid, 256, 0, pr2_step, &c};
        gen_launch(g, &k2);
    }
    uint64_t best = 0;
    for (uint64_t v = 1; v < nv; v++)
        if (c.r1[v] > c.r1[best])
            best = v;
    gen_note(g,
             "pagerank: R-MAT scale %u (%llu vertices, %llu edges), %u iterations, top vertex "
             "%llu (rank %.3g)",
             scale, (unsigned long long)nv, (unsigned long long)c.gr.ne, iters,
             (unsigned long long)best, (double)c.r1[best]);
out:
    free(c.r1);
    free(c.r2);
    graph_free(&c.gr);
}
