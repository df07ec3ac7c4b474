/*
 * test_trace_gen.c - cmocka tests of the workload generators (tools/workloads, docs/workloads.md):
 * determinism per seed, every access inside an allocation, and spot checks that the addresses
 * follow the algorithm (hotspot's stencil neighbours, bfs reads only the edges of frontier
 * vertices, sgemm's tile reuse).
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gen.h"
#include "graph.h"
#include "test_trace_fixture.h"
#include "trace.h"
#include "u64map.h"

/* ---- helpers ---- */

static void generate(const char *wl, uint64_t size, uint64_t seed, const char *path) {
    gen_t g;
    memset(&g, 0, sizeof(g));
    g.o.size = size;
    g.o.seed = seed;
    g.o.window = 16;
    const gen_workload_t *w = gen_find(wl);
    assert_non_null(w);
    if (gen_run(&g, w, path, 1) != 0)
        fail_msg("%s: %s", wl, g.err);
}

static int same_file(const char *a, const char *b) {
    FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
    assert_non_null(x);
    assert_non_null(y);
    int same = 1;
    for (;;) {
        int c = getc(x), d = getc(y);
        if (c != d) {
            same = 0;
            break;
        }
        if (c == EOF)
            break;
    }
    fclose(x);
    fclose(y);
    return same;
}

/* counts per key: the project's hash map (common/u64map.h) */
typedef u64map_t cmap_t;

static void cm_init(cmap_t *m, size_t expected) {
    assert_int_equal(u64map_init(m, expected), 0);
}

static void cm_free(cmap_t *m) {
    u64map_free(m);
}

static uint32_t cm_get(const cmap_t *m, uint64_t k) {
    uint64_t v = 0;
    return u64map_get(m, k, &v) ? (uint32_t)v : 0;
}
static void cm_set(cmap_t *m, uint64_t k, uint32_t v) {
    assert_int_equal(u64map_put(m, k, v), 0);
}
static void cm_add(cmap_t *m, uint64_t k) {
    cm_set(m, k, cm_get(m, k) + 1);
}

typedef struct {
    char name[TRACE_NAME_MAX];
    uint64_t base, size;
} alloc_t;

/* Reads the allocations (they precede the first kernel in generated traces). */
static int find_alloc(const alloc_t *al, int n, const char *name, alloc_t *out) {
    for (int i = 0; i < n; i++)
        if (strcmp(al[i].name, name) == 0) {
            *out = al[i];
            return 1;
        }
    return 0;
}

static int in_alloc(const alloc_t *a, uint64_t addr) {
    return addr >= a->base && addr - a->base < a->size;
}

/* ---- determinism and allocation coverage, every workload ---- */

static void test_determinism(void **state) {
    fixture_t *f = *state;
    for (const gen_workload_t *w = gen_workloads(); w->name; w++) {
        char a[320], b[320], c[320];
        snprintf(a, sizeof(a), "%s/%s-a.trc", f->dir, w->name);
        snprintf(b, sizeof(b), "%s/%s-b.trc", f->dir, w->name);
        snprintf(c, sizeof(c), "%s/%s-c.trc", f->dir, w->name);
        generate(w->name, 0, 7, a);
        generate(w->name, 0, 7, b);
        if (!same_file(a, b))
            fail_msg("%s: two runs with seed 7 differ", w->name);
        /* data-dependent workloads change with the seed */
        static const char *dep[] = {"bfs", "sssp", "pagerank", "bst", "xsbench", NULL};
        for (const char **d = dep; *d; d++)
            if (strcmp(*d, w->name) == 0) {
                generate(w->name, 0, 8, c);
                if (same_file(a, c))
                    fail_msg("%s: seeds 7 and 8 give the same trace", w->name);
            }
        unlink(a);
        unlink(b);
        unlink(c);
    }
}

/* also: the warp exit records (docs/trace-format.md) */
static void test_accesses_inside_allocations(void **state) {
    fixture_t *f = *state;
    for (const gen_workload_t *w = gen_workloads(); w->name; w++) {
        const char *p = tpath(f, "cover.trc");
        generate(w->name, 0, 1, p);
        char err[256];
        trace_reader_t *r = trace_open(p, err, sizeof(err));
        assert_non_null(r);
        alloc_t al[16];
        int nal = 0, kernels = 0;
        uint64_t bytes = 0, records = 0, warps = 0, exits = 0;
        /* (kernel, cta, warp) -> 1: has memory records, 2: has exited (warp < 32: block <= 1024) */
        cmap_t ws;
        cm_init(&ws, 1 << 18);
        trace_rec_t rec;
        int rc;
        while ((rc = trace_next(r, &rec, err, sizeof(err))) == 1) {
            if (rec.kind == TRACE_REC_ALLOC) {
                assert_true(nal < 16);
                assert_int_equal(kernels, 0);
                snprintf(al[nal].name, sizeof(al[nal].name), "%s", rec.name);
                al[nal].base = rec.base;
                al[nal].size = rec.size;
                bytes += rec.size;
                nal++;
            } else if (rec.kind == TRACE_REC_KERNEL) {
                kernels++;
            } else if (rec.kind == TRACE_REC_EXIT) {
                /* exactly one exit per warp that emitted memory records, after the last one */
                assert_true(kernels > 0 && rec.warp < 32 && rec.cta < (1u << 30));
                const uint64_t wk = (uint64_t)kernels << 35 | (uint64_t)rec.cta << 5 | rec.warp;
                const uint32_t st = cm_get(&ws, wk);
                if (st != 1)
                    fail_msg("%s: position %llu: exit of warp (%u, %u) %s", w->name,
                             (unsigned long long)rec.line, rec.cta, rec.warp,
                             st ? "twice" : "without memory records");
                cm_set(&ws, wk, 2);
                exits++;
            } else {
                assert_true(kernels > 0);
                assert_true(rec.warp < 32 && rec.cta < (1u << 30));
                const uint64_t wk = (uint64_t)kernels << 35 | (uint64_t)rec.cta << 5 | rec.warp;
                const uint32_t st = cm_get(&ws, wk);
                if (st == 2)
                    fail_msg("%s: position %llu: record of warp (%u, %u) after its exit", w->name,
                             (unsigned long long)rec.line, rec.cta, rec.warp);
                if (st == 0)
                    warps++;
                cm_set(&ws, wk, 1);
                records++;
                for (int i = 0; i < TRACE_LANES; i++) {
                    if (!(rec.mask >> i & 1u))
                        continue;
                    int ok = 0;
                    for (int j = 0; j < nal && !ok; j++)
                        ok = in_alloc(&al[j], rec.addr[i]);
                    if (!ok)
                        fail_msg("%s: position %llu lane %d: 0x%llx outside every allocation",
                                 w->name, (unsigned long long)rec.line, i,
                                 (unsigned long long)rec.addr[i]);
                }
            }
        }
        if (rc < 0)
            fail_msg("%s: %s", w->name, err);
        trace_close(r);
        cm_free(&ws);
        if (exits != warps) /* every exit ended a warp with records: then all of them exited */
            fail_msg("%s: %llu warps with memory records, %llu exits", w->name,
                     (unsigned long long)warps, (unsigned long long)exits);
        uint64_t want = (uint64_t)w->default_size_kb * 1024;
        if (bytes > want + want / 20 || bytes < want / 2)
            fail_msg("%s: %llu allocated bytes for a %llu-byte footprint", w->name,
                     (unsigned long long)bytes, (unsigned long long)want);
        assert_true(records > 1000);
    }
}

/* ---- hotspot: every stored cell's stencil neighbourhood was loaded by the same CTA ---- */

static void test_hotspot_neighbours(void **state) {
    fixture_t *f = *state;
    const char *p = tpath(f, "hotspot.trc");
    uint64_t size = 2 * GEN_MB;
    generate("hotspot", size, 1, p);
    int64_t n = 0;
    while ((n + 1) * (n + 1) * 12 <= (int64_t)size)
        n++; /* gen_hotspot: n = floor(sqrt(size / 12)) */
    const int64_t iteration = 2;
    char err[256];
    trace_reader_t *r = trace_open(p, err, sizeof(err));
    assert_non_null(r);
    alloc_t al[8], temp[2], power;
    memset(temp, 0, sizeof(temp));
    memset(&power, 0, sizeof(power));
    int nal = 0, launch = -1;
    cmap_t loaded, stored, pw;
    memset(&loaded, 0, sizeof(loaded));
    trace_rec_t rec;
    uint64_t checked = 0;
    for (;;) {
        int rc = trace_next(r, &rec, err, sizeof(err));
        assert_true(rc >= 0);
        if (rc == 0 || rec.kind == TRACE_REC_KERNEL) {
            if (launch >= 0) { /* check the finished launch */
                size_t pos = 0;
                uint64_t key = 0, val = 0;
                while (u64map_next(&stored, &pos, &key, &val)) {
                    uint64_t cta = key >> 32, idx = key & 0xffffffffu;
                    int64_t row = (int64_t)idx / n, col = (int64_t)idx % n;
                    assert_int_equal(val, 1);
                    assert_true(cm_get(&pw, key) == 1);
                    for (int64_t dr = -iteration; dr <= iteration; dr++)
                        for (int64_t dc = -iteration; dc <= iteration; dc++) {
                            int64_t rr = row + dr, cc = col + dc;
                            if ((dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc) > iteration || rr < 0 ||
                                cc < 0 || rr >= n || cc >= n)
                                continue;
                            if (cm_get(&loaded, cta << 32 | (uint64_t)(rr * n + cc)) != 1)
                                fail_msg("launch %d CTA %llu: cell (%lld,%lld) stored but its "
                                         "neighbour (%lld,%lld) not loaded once",
                                         launch, (unsigned long long)cta, (long long)row,
                                         (long long)col, (long long)rr, (long long)cc);
                            checked++;
                        }
                }
                cm_free(&loaded);
                cm_free(&stored);
                cm_free(&pw);
            }
            if (rc == 0)
                break;
            launch++;
            cm_init(&loaded, 1 << 20);
            cm_init(&stored, 1 << 20);
            cm_init(&pw, 1 << 20);
            if (launch == 0) {
                assert_true(find_alloc(al, nal, "MatrixTemp0", &temp[0]));
                assert_true(find_alloc(al, nal, "MatrixTemp1", &temp[1]));
                assert_true(find_alloc(al, nal, "MatrixPower", &power));
            }
            continue;
        }
        if (rec.kind == TRACE_REC_ALLOC) {
            snprintf(al[nal].name, sizeof(al[nal].name), "%s", rec.name);
            al[nal].base = rec.base;
            al[nal].size = rec.size;
            nal++;
            continue;
        }
        const alloc_t *src = &temp[launch % 2], *dst = &temp[1 - launch % 2];
        for (int i = 0; i < TRACE_LANES; i++) {
            if (!(rec.mask >> i & 1u))
                continue;
            uint64_t a = rec.addr[i];
            if (rec.op == TRACE_OP_READ && in_alloc(src, a))
                cm_add(&loaded, (uint64_t)rec.cta << 32 | (a - src->base) / 4);
            else if (rec.op == TRACE_OP_READ && in_alloc(&power, a))
                cm_add(&pw, (uint64_t)rec.cta << 32 | (a - power.base) / 4);
            else if (rec.op == TRACE_OP_WRITE && in_alloc(dst, a))
                cm_add(&stored, (uint64_t)rec.cta << 32 | (a - dst->base) / 4);
            else
                fail_msg("hotspot launch %d: unexpected %s of 0x%llx", launch,
                         rec.op == TRACE_OP_READ ? "read" : "write", (unsigned long long)a);
        }
    }
    trace_close(r);
    assert_int_equal(launch, 1); /* 4 iterations, pyramid height 2 */
    assert_true(checked > 100000);
}

/* ---- bfs: Kernel of level L reads exactly the edges of the level-L frontier ---- */

static void test_bfs_frontier_edges(void **state) {
    fixture_t *f = *state;
    const char *p = tpath(f, "bfs.trc");
    uint64_t size = 256 * 1024, seed = 3;
    generate("bfs", size, seed, p);
    /* the same graph, and its BFS levels computed independently */
    uint32_t scale;
    uint64_t edges;
    graph_plan(size, 8 + 1 + 1 + 1 + 4, 4, 8, &scale, &edges);
    graph_t gr;
    assert_int_equal(graph_init(&gr, scale, edges, seed), 0);
    uint64_t nv = gr.nv;
    int *level = malloc(nv * sizeof(int));
    uint64_t *queue = malloc(nv * sizeof(uint64_t));
    assert_non_null(level);
    assert_non_null(queue);
    for (uint64_t v = 0; v < nv; v++)
        level[v] = -1;
    uint64_t head = 0, tail = 0, src = graph_hub(&gr);
    level[src] = 0;
    queue[tail++] = src;
    int maxlev = 0;
    while (head < tail) {
        uint64_t v = queue[head++];
        uint32_t d = graph_degree(&gr, v);
        for (uint32_t k = 0; k < d; k++) {
            uint64_t u = graph_neighbor(&gr, v, k);
            if (level[u] < 0) {
                level[u] = level[v] + 1;
                maxlev = level[u] > maxlev ? level[u] : maxlev;
                queue[tail++] = u;
            }
        }
    }
    uint32_t block = nv < 512 ? (uint32_t)nv : 512;
    char err[256];
    trace_reader_t *r = trace_open(p, err, sizeof(err));
    assert_non_null(r);
    alloc_t al[8], ed, vis;
    memset(&ed, 0, sizeof(ed));
    memset(&vis, 0, sizeof(vis));
    int nal = 0, lev = -1, in_k1 = 0;
    cmap_t reads; /* vertex -> number of edge reads in this level */
    memset(&reads, 0, sizeof(reads));
    trace_rec_t rec;
    uint64_t frontier_checked = 0;
    for (;;) {
        int rc = trace_next(r, &rec, err, sizeof(err));
        assert_true(rc >= 0);
        if (rc == 0 || rec.kind == TRACE_REC_KERNEL) {
            if (in_k1) { /* every vertex of the level-lev frontier read all its edges */
                for (uint64_t v = 0; v < nv; v++)
                    if (level[v] == lev) {
                        if (cm_get(&reads, v) != graph_degree(&gr, v))
                            fail_msg("level %d: frontier vertex %llu read %u of its %u edges", lev,
                                     (unsigned long long)v, cm_get(&reads, v),
                                     graph_degree(&gr, v));
                        frontier_checked++;
                    }
                cm_free(&reads);
            }
            if (rc == 0)
                break;
            in_k1 = strcmp(rec.name, "Kernel") == 0;
            if (in_k1) {
                lev++;
                cm_init(&reads, nv + 16);
            }
            if (lev == 0 && in_k1) {
                assert_true(find_alloc(al, nal, "d_graph_edges", &ed));
                assert_true(find_alloc(al, nal, "d_graph_visited", &vis));
            }
            continue;
        }
        if (rec.kind == TRACE_REC_ALLOC) {
            snprintf(al[nal].name, sizeof(al[nal].name), "%s", rec.name);
            al[nal].base = rec.base;
            al[nal].size = rec.size;
            nal++;
            continue;
        }
        if (!in_k1)
            continue;
        for (int i = 0; i < TRACE_LANES; i++) {
            if (!(rec.mask >> i & 1u) || !in_alloc(&ed, rec.addr[i]))
                continue;
            uint64_t v = (uint64_t)rec.cta * block + rec.warp * 32 + (uint64_t)i;
            uint64_t e = (rec.addr[i] - ed.base) / 4, off = graph_offset(&gr, v);
            assert_int_equal(rec.op, TRACE_OP_READ);
            if (level[v] != lev)
                fail_msg("level %d: vertex %llu (level %d) read edge %llu", lev,
                         (unsigned long long)v, level[v], (unsigned long long)e);
            if (e < off || e >= off + graph_degree(&gr, v))
                fail_msg("vertex %llu read edge %llu outside its list [%llu, +%u)",
                         (unsigned long long)v, (unsigned long long)e, (unsigned long long)off,
                         graph_degree(&gr, v));
            cm_add(&reads, v);
        }
    }
    trace_close(r);
    /* one Kernel per level, plus the final one that finds an empty next frontier */
    assert_int_equal(lev, maxlev);
    assert_int_equal(frontier_checked, tail);
    free(level);
    free(queue);
    graph_free(&gr);
}

/* ---- sgemm: A panels reused along n, B tiles along m, each loaded once per CTA ---- */

static void test_sgemm_tile_reuse(void **state) {
    fixture_t *f = *state;
    const char *p = tpath(f, "sgemm.trc");
    generate("sgemm", GEN_MB, 1, p);
    const uint64_t m = 256, k = 256; /* 1 MB: square 256 */
    const uint64_t gx = m / 128, gy = m / 16;
    char err[256];
    trace_reader_t *r = trace_open(p, err, sizeof(err));
    assert_non_null(r);
    alloc_t al[8], A, B, C;
    memset(&A, 0, sizeof(A));
    memset(&B, 0, sizeof(B));
    memset(&C, 0, sizeof(C));
    int nal = 0, kernels = 0;
    cmap_t ca, cb, cc_r, cc_w; /* (cta, element) -> count */
    cm_init(&ca, gx * gy * 128 * k);
    cm_init(&cb, gx * gy * 16 * k);
    cm_init(&cc_r, m * m);
    cm_init(&cc_w, m * m);
    trace_rec_t rec;
    int rc;
    while ((rc = trace_next(r, &rec, err, sizeof(err))) == 1) {
        if (rec.kind == TRACE_REC_ALLOC) {
            snprintf(al[nal].name, sizeof(al[nal].name), "%s", rec.name);
            al[nal].base = rec.base;
            al[nal].size = rec.size;
            nal++;
            continue;
        }
        if (rec.kind == TRACE_REC_KERNEL) {
            kernels++;
            assert_true(find_alloc(al, nal, "dA", &A));
            assert_true(find_alloc(al, nal, "dB", &B));
            assert_true(find_alloc(al, nal, "dC", &C));
            continue;
        }
        for (int i = 0; i < TRACE_LANES; i++) {
            if (!(rec.mask >> i & 1u))
                continue;
            uint64_t a = rec.addr[i], key = (uint64_t)rec.cta << 32;
            if (in_alloc(&A, a))
                cm_add(&ca, key | (a - A.base) / 4);
            else if (in_alloc(&B, a))
                cm_add(&cb, key | (a - B.base) / 4);
            else if (in_alloc(&C, a))
                cm_add(rec.op == TRACE_OP_READ ? &cc_r : &cc_w, (a - C.base) / 4);
            else
                fail_msg("sgemm: 0x%llx outside A, B, C", (unsigned long long)a);
        }
    }
    assert_int_equal(rc, 0);
    trace_close(r);
    assert_int_equal(kernels, 1);
    for (uint64_t by = 0; by < gy; by++)
        for (uint64_t bx = 0; bx < gx; bx++) {
            uint64_t cta = bx + by * gx, key = cta << 32;
            /* A panel rows [bx*128, +128) x all k: each element exactly once in this CTA */
            for (uint64_t kk = 0; kk < k; kk++) {
                for (uint64_t mm = bx * 128; mm < bx * 128 + 128; mm++)
                    if (cm_get(&ca, key | (mm + kk * m)) != 1)
                        fail_msg("CTA (%llu,%llu): A[%llu,%llu] loaded %u times",
                                 (unsigned long long)bx, (unsigned long long)by,
                                 (unsigned long long)mm, (unsigned long long)kk,
                                 cm_get(&ca, key | (mm + kk * m)));
                /* B tile columns [by*16, +16) x all k: each exactly once */
                for (uint64_t nn = by * 16; nn < by * 16 + 16; nn++)
                    assert_int_equal(cm_get(&cb, key | (nn + kk * m)), 1);
            }
        }
    /* nothing else was loaded: counts equal the panel sizes, so CTAs sharing bx read the same A
     * panel and CTAs sharing by the same B tile (the reuse the shared-memory tiling relies on) */
    assert_int_equal(ca.count, gx * gy * 128 * k);
    assert_int_equal(cb.count, gx * gy * 16 * k);
    /* C: every element read once and written once */
    assert_int_equal(cc_r.count, m * m);
    assert_int_equal(cc_w.count, m * m);
    cm_free(&ca);
    cm_free(&cb);
    cm_free(&cc_r);
    cm_free(&cc_w);
}

/* ---- exit records come out as soon as a warp's step returns 0 ---- */

/* warp (cta, warp) emits (2*cta + warp) % 3 records, one per step, the last step returning 0 */
static int exit_step(gen_t *g, const gen_kernel_t *k, gen_warp_t *w) {
    (void)k;
    uint32_t n = (2 * w->cta + w->warp) % 3;
    if (w->step < n)
        gen_mem_strided(g, w, TRACE_OP_READ, w->step, 0xffffffffu, GEN_VA_BASE + 128 * w->step, 4);
    return w->step + 1 < n;
}

static void exit_run(gen_t *g) {
    gen_alloc(g, "a", 4096, 1);
    const gen_kernel_t k = {"k", 2, 64, 0, exit_step, NULL};
    gen_launch(g, &k);
    gen_launch(g, &k);
}

static void test_exit_right_away(void **state) {
    fixture_t *f = *state;
    const gen_workload_t wl = {"exits", "test", 4, "exit records", exit_run};
    gen_t g;
    memset(&g, 0, sizeof(g));
    g.o.window = 16;
    assert_int_equal(gen_run(&g, &wl, tpath(f, "x.txt"), 0), 0);
    assert_int_equal(g.st.exits, 4);
    FILE *fp = fopen(f->path, "r");
    assert_non_null(fp);
    char buf[1024];
    size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    /* warps (0,0) and (1,1) emit nothing and get no exit; (0,1) exits in the same step as its
     * only record, before CTA 1 runs; (1,0) right after its second step */
    const char *kernel = "kernel k\n"
                         "s 0 1 R 0 0xffffffff 0x7f0000000000 4\n"
                         "x 0 1\n"
                         "s 1 0 R 0 0xffffffff 0x7f0000000000 4\n"
                         "s 1 0 R 1 0xffffffff 0x7f0000000080 4\n"
                         "x 1 0\n";
    char want[1024];
    snprintf(want, sizeof(want), "alloc a 0x7f0000000000 0x1000 ro\n%s%s", kernel, kernel);
    assert_string_equal(buf, want);
}

/* ---- footprint scales with --size-mb ---- */

static void test_footprint_scales(void **state) {
    fixture_t *f = *state;
    static const char *wls[] = {"nn", "hotspot", "xsbench", "bfs", NULL};
    for (const char **w = wls; *w; w++) {
        gen_t g;
        memset(&g, 0, sizeof(g));
        g.o.size = 24 * GEN_MB;
        g.o.seed = 1;
        g.o.iters = 1;
        assert_int_equal(gen_run(&g, gen_find(*w), tpath(f, "fp.trc"), 1), 0);
        if (g.st.alloc_bytes < 18 * GEN_MB || g.st.alloc_bytes > 25 * GEN_MB)
            fail_msg("%s: %llu bytes allocated for 24 MB", *w,
                     (unsigned long long)g.st.alloc_bytes);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_determinism, setup, teardown),
        cmocka_unit_test_setup_teardown(test_accesses_inside_allocations, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hotspot_neighbours, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bfs_frontier_edges, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sgemm_tile_reuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exit_right_away, setup, teardown),
        cmocka_unit_test_setup_teardown(test_footprint_scales, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
