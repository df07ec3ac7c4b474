/*
 * graph.h - implicit R-MAT (Kronecker) graphs for the graph workloads (docs/workloads.md).
 *
 * The graph is never stored: vertex v's out-degree and its k-th neighbour are pure functions of
 * (seed, v, k). Degrees follow R-MAT's source marginal: an original vertex id o with p one-bits
 * has expected degree E * (a+b)^(scale-p) * (c+d)^p (sampled Poisson); the k-th neighbour draws
 * every destination bit from R-MAT's conditional probabilities given the source bit. Vertex ids
 * are scrambled by a bijection (as Graph500 does) so hubs are spread over the id space. CSR row
 * offsets are recomputed from a checkpoint every 64 vertices (V/8 bytes of memory).
 * Module prefix graph_.
 */
#ifndef GMMU_GRAPH_H
#define GMMU_GRAPH_H

#include <stdint.h>

typedef struct {
    uint32_t scale;
    uint64_t nv; /* vertices = 2^scale */
    uint64_t ne; /* edges = sum of the degrees */
    uint64_t seed;
    double lambda[65];   /* expected degree by popcount of the original id */
    uint32_t thr0, thr1; /* P(dst bit = 1 | src bit = 0 / 1) in 1/65536 */
    uint64_t mul, inv, xr;
    uint64_t *ckpt; /* offset of vertex 64*i */
} graph_t;

/* Chooses scale (V = 2^scale, 2^10..2^22) and the edge target for a footprint of
 * per_vertex*V + per_edge*E bytes with an average degree near deg (see graph.c). */
void graph_plan(uint64_t bytes, uint64_t per_vertex, uint64_t per_edge, uint64_t deg,
                uint32_t *scale, uint64_t *edges);
/* R-MAT parameters a = 0.57, b = c = 0.19, d = 0.05 (Graph500). 0 or -1 (out of memory). */
int graph_init(graph_t *gr, uint32_t scale, uint64_t edges_target, uint64_t seed);
void graph_free(graph_t *gr);
uint32_t graph_degree(const graph_t *gr, uint64_t v);
uint64_t graph_offset(const graph_t *gr, uint64_t v);
/* Offsets and degrees of the n (<= 32) consecutive vertices v0.. (vertices >= nv get 0). */
void graph_range(const graph_t *gr, uint64_t v0, uint32_t n, uint64_t *off, uint32_t *deg);
uint64_t graph_neighbor(const graph_t *gr, uint64_t v, uint64_t k);
/* Edge weight 1..100 (sssp). */
uint32_t graph_weight(const graph_t *gr, uint64_t v, uint64_t k);
/* Vertex with the largest expected degree (the R-MAT hub). */
uint64_t graph_hub(const graph_t *gr);

#endif
