/*
 * test_trace_gen_oversub.c - cmocka tests of the uvm_oversubs workloads
 * (tools/workloads/wl_oversub.c, docs/workloads.md): the allocation derived from gpu_pages x
 * oversub_pct (rounded to page_kb) or --size-mb; streaming reads every element once in the
 * grid-stride order; block_streaming gives each CTA its contiguous chunk (overlapping the next
 * by at most one block, as the sample); random_warp reads 32 consecutive elements of one page per
 * record, pages drawn by the glibc LCG of lane 0 seeded by its thread id; every CTA's thread 0
 * stores ptr[0] once; parameter errors; the framework parameter compute (every record's gap,
 * any workload) and its bound.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gen.h"
#include "test_gen_fixture.h"
#include "test_trace_fixture.h"
#include "trace.h"

#define PG 4096ULL

/* Generates workload wl with params "k=v,k=v" (or NULL); gen_run's status, error in g->err. */
static int gen(gen_t *g, const char *wl, uint64_t size, uint64_t seed, const char *params,
               const char *path) {
    return tgen_run(g, wl, size, seed, 0, params, path);
}

typedef struct {
    uint64_t base, size;
    uint32_t allocs, kernels, ro;
    trace_rec_t *mem;
    size_t n, cap;
} parsed_t;

static void parse(const char *path, parsed_t *p) {
    memset(p, 0, sizeof(*p));
    char err[256];
    trace_reader_t *r = trace_open(path, err, sizeof(err));
    assert_non_null(r);
    trace_rec_t rec;
    int rc;
    while ((rc = trace_next(r, &rec, err, sizeof(err))) == 1) {
        if (rec.kind == TRACE_REC_ALLOC) {
            p->base = rec.base;
            p->size = rec.size;
            p->ro = rec.readonly;
            p->allocs++;
        } else if (rec.kind == TRACE_REC_KERNEL) {
            p->kernels++;
        } else if (rec.kind == TRACE_REC_MEM) {
            if (p->n == p->cap) {
                p->cap = p->cap ? 2 * p->cap : 1024;
                p->mem = realloc(p->mem, p->cap * sizeof(*p->mem));
                assert_non_null(p->mem);
            }
            p->mem[p->n++] = rec;
        }
    }
    assert_int_equal(rc, 0);
    trace_close(r);
}

/* Checks the final stores (one per CTA, lane 0 of warp 0, write to ptr[0], after the warp's
 * reads) and returns the number of read records. */
static size_t check_stores(const parsed_t *p, uint32_t ctas) {
    size_t stores = 0, reads = 0;
    uint8_t *stored = calloc(ctas, 1);
    assert_non_null(stored);
    for (size_t i = 0; i < p->n; i++) {
        const trace_rec_t *m = &p->mem[i];
        if (m->op == TRACE_OP_WRITE) {
            assert_int_equal(m->mask, 1u);
            assert_int_equal(m->warp, 0);
            assert_int_equal(m->addr[0], p->base);
            assert_true(m->cta < ctas);
            assert_false(stored[m->cta]);
            stored[m->cta] = 1;
            stores++;
        } else {
            assert_int_equal(m->op, TRACE_OP_READ);
            if (m->warp == 0)
                assert_false(stored[m->cta]); /* the store is the warp's last record */
            reads++;
        }
    }
    assert_int_equal(stores, ctas);
    free(stored);
    return reads;
}

static void test_size(void **state) {
    fixture_t *f = *state;
    gen_t g;
    parsed_t p;
    /* 48 GPU pages x 150% = 72 pages; at 4 KB pages exactly that */
    assert_int_equal(
        gen(&g, "streaming", 0, 1, "gpu_pages=48,oversub_pct=150,page_kb=4", tpath(f, "a.trc")), 0);
    parse(f->path, &p);
    assert_int_equal(p.allocs, 1);
    assert_int_equal(p.size, 72 * PG);
    assert_false(p.ro); /* ptr[0] is written */
    free(p.mem);
    /* the sample's default 2 MB page: rounded up to 2 MB; 64 KB: to 64 KB */
    assert_int_equal(
        gen(&g, "random_warp", 0, 1, "gpu_pages=1000,oversub_pct=110", tpath(f, "a.trc")), 0);
    parse(f->path, &p);
    assert_int_equal(p.size, 6 * GEN_MB); /* 1100 pages = 4.3 MB -> 6 MB */
    free(p.mem);
    assert_int_equal(gen(&g, "block_streaming", 0, 1, "gpu_pages=1000,oversub_pct=125,page_kb=64",
                         tpath(f, "a.trc")),
                     0);
    parse(f->path, &p);
    assert_int_equal(p.size, 79 * 65536ULL); /* 1250 pages = 78.1 x 64 KB */
    free(p.mem);
    /* without gpu_pages: --size-mb */
    assert_int_equal(gen(&g, "streaming", 3 * GEN_MB, 1, "page_kb=4", tpath(f, "a.trc")), 0);
    parse(f->path, &p);
    assert_int_equal(p.size, 3 * GEN_MB);
    free(p.mem);
}

static void test_streaming(void **state) {
    fixture_t *f = *state;
    gen_t g;
    parsed_t p;
    /* 1 MB of floats = 262144 elements; 8 CTAs x 128 = 1024 threads: 256 grid steps */
    assert_int_equal(gen(&g, "streaming", GEN_MB, 1, "ctas=8,page_kb=4,gap=9", tpath(f, "s.trc")),
                     0);
    parse(f->path, &p);
    assert_int_equal(p.kernels, 1);
    const uint64_t n = GEN_MB / 4;
    assert_int_equal(check_stores(&p, 8), n / 32);
    uint8_t *cnt = calloc(n, 1);
    uint32_t step[32] = {0}; /* per global warp */
    for (size_t i = 0; i < p.n; i++) {
        const trace_rec_t *m = &p.mem[i];
        if (m->op != TRACE_OP_READ)
            continue;
        assert_int_equal(m->gap, 9);
        assert_int_equal(m->mask, 0xffffffffu);
        const uint64_t e0 = (m->addr[0] - p.base) / 4;
        const uint32_t gw = m->cta * 4 + m->warp;
        /* warp gw's j-th read: element 32 gw + 1024 j, lanes consecutive floats */
        assert_int_equal(e0, 32ULL * gw + 1024ULL * step[gw]);
        step[gw]++;
        for (int l = 0; l < 32; l++) {
            assert_int_equal(m->addr[l], m->addr[0] + 4ULL * (uint64_t)l);
            cnt[e0 + (uint64_t)l]++;
        }
    }
    for (uint64_t e = 0; e < n; e++)
        assert_int_equal(cnt[e], 1); /* every element once */
    /* all CTAs resident (the grid is sized to occupancy): warps interleave from the start */
    assert_int_equal(p.mem[0].cta, 0);
    assert_int_equal(p.mem[4].cta, 1);
    free(cnt);
    free(p.mem);
    /* scaled: lane_bytes = 128, one record per 4 KB page */
    assert_int_equal(
        gen(&g, "streaming", GEN_MB, 1, "ctas=8,page_kb=4,lane_bytes=128", tpath(f, "s.trc")), 0);
    parse(f->path, &p);
    assert_int_equal(check_stores(&p, 8), GEN_MB / PG);
    free(p.mem);
}

static void test_block_streaming(void **state) {
    fixture_t *f = *state;
    gen_t g;
    parsed_t p;
    /* 1 MB = 262144 floats over 8 CTAs: epb = 32769; steps of 128 while offset <= epb */
    assert_int_equal(gen(&g, "block_streaming", GEN_MB, 1, "ctas=8,page_kb=4", tpath(f, "b.trc")),
                     0);
    parse(f->path, &p);
    const uint64_t n = GEN_MB / 4, epb = n / 8 + 1;
    check_stores(&p, 8);
    uint8_t *cnt = calloc(n, 1);
    uint64_t lo[8], hi[8];
    for (int c = 0; c < 8; c++) {
        lo[c] = UINT64_MAX;
        hi[c] = 0;
    }
    for (size_t i = 0; i < p.n; i++) {
        const trace_rec_t *m = &p.mem[i];
        if (m->op != TRACE_OP_READ)
            continue;
        for (int l = 0; l < 32; l++) {
            if (!(m->mask >> l & 1u))
                continue;
            const uint64_t e = (m->addr[l] - p.base) / 4;
            assert_true(e < n);
            cnt[e]++;
            lo[m->cta] = e < lo[m->cta] ? e : lo[m->cta];
            hi[m->cta] = e > hi[m->cta] ? e : hi[m->cta];
        }
    }
    for (int c = 0; c < 8; c++) {
        assert_int_equal(lo[c], epb * (uint64_t)c); /* its own chunk, from c * epb */
        const uint64_t top = epb * (uint64_t)c + (epb / 128) * 128 + 127;
        assert_int_equal(hi[c], top < n ? top : n - 1); /* last step: offset <= epb */
    }
    for (uint64_t e = 0; e < n; e++)
        assert_true(cnt[e] >= 1 && cnt[e] <= 2); /* covered; chunks overlap by < one block */
    free(cnt);
    free(p.mem);
}

static uint64_t lcg(uint64_t x) {
    return (1103515245ULL * x + 12345ULL) % (1ULL << 31);
}

static void test_random_warp(void **state) {
    fixture_t *f = *state;
    gen_t g;
    parsed_t p;
    /* 8 MB of floats, 2 MB pages (4 of them); 8 CTAs x 128: 2048 iterations per warp */
    assert_int_equal(gen(&g, "random_warp", 8 * GEN_MB, 1, "ctas=8", tpath(f, "r.trc")), 0);
    parse(f->path, &p);
    const uint64_t per_page = 2 * GEN_MB / 4, loops = 8 * GEN_MB / 4 / 1024;
    assert_int_equal(check_stores(&p, 8), 32 * loops);
    uint64_t rnd[32], seen_pages = 0;
    for (int w = 0; w < 32; w++)
        rnd[w] = lcg(32ULL * (uint64_t)w); /* myrand(thread id of lane 0) */
    for (size_t i = 0; i < p.n; i++) {
        const trace_rec_t *m = &p.mem[i];
        if (m->op != TRACE_OP_READ)
            continue;
        assert_int_equal(m->gap, 80);
        const uint32_t gw = m->cta * 4 + m->warp;
        rnd[gw] = lcg(rnd[gw]);
        const uint64_t page = rnd[gw] % 4, idx = rnd[gw] % (per_page - 32);
        assert_int_equal(m->addr[0], p.base + (page * per_page + idx) * 4);
        for (int l = 0; l < 32; l++)
            assert_int_equal(m->addr[l], m->addr[0] + 4ULL * (uint64_t)l); /* in one page */
        assert_int_equal((m->addr[31] - p.base) / (2 * GEN_MB), page);
        seen_pages |= 1ULL << page;
    }
    assert_int_equal(seen_pages, 0xf);
    free(p.mem);
    /* another seed: another sequence; the same seed: the same bytes */
    parsed_t q;
    assert_int_equal(gen(&g, "random_warp", 8 * GEN_MB, 2, "ctas=8", tpath(f, "r.trc")), 0);
    parse(f->path, &p);
    assert_int_equal(gen(&g, "random_warp", 8 * GEN_MB, 2, "ctas=8", tpath(f, "q.trc")), 0);
    parse(f->path, &q);
    assert_int_equal(p.n, q.n);
    for (size_t i = 0; i < p.n; i++) {
        assert_int_equal(p.mem[i].cta, q.mem[i].cta);
        assert_int_equal(p.mem[i].mask, q.mem[i].mask);
        assert_memory_equal(p.mem[i].addr, q.mem[i].addr, sizeof(p.mem[i].addr));
    }
    assert_int_equal(gen(&g, "random_warp", 8 * GEN_MB, 1, "ctas=8", tpath(f, "q.trc")), 0);
    free(q.mem);
    parse(f->path, &q);
    size_t differ = 0;
    for (size_t i = 0; i < p.n; i++)
        differ += p.mem[i].addr[0] != q.mem[i].addr[0];
    assert_true(differ > p.n / 2);
    free(p.mem);
    free(q.mem);
}

static void test_params(void **state) {
    fixture_t *f = *state;
    gen_t g;
    const char *bad[] = {"page_kb=8",       "block=0",      "block=100",
                         "ctas=0",          "lane_bytes=3", "lane_bytes=256",
                         "oversub_pct=150", "gpu_pages=48", "gpu_pages=48,oversub_pct=0",
                         "stride_kb=4"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(gen(&g, "streaming", GEN_MB, 1, bad[i], tpath(f, "x.trc")), -1);
        assert_non_null(strstr(g.err, "streaming"));
    }
    /* 4 KB pages of 128-byte elements hold 32: the warp covers the page (offset 0) */
    assert_int_equal(
        gen(&g, "random_warp", GEN_MB, 1, "page_kb=4,lane_bytes=128,ctas=1", tpath(f, "x.trc")), 0);
    parsed_t p;
    parse(f->path, &p);
    for (size_t i = 0; i < p.n; i++)
        assert_int_equal((p.mem[i].addr[0] - p.base) % PG, 0);
    free(p.mem);
}

/* compute=N replaces every record's gap (any workload, here hotspot whose source-read gaps differ
 * per instruction); without it the gaps are the source's; out of range is an error. */
static void test_compute(void **state) {
    fixture_t *f = *state;
    gen_t g;
    parsed_t p;
    assert_int_equal(gen(&g, "hotspot", 2 * GEN_MB, 1, NULL, tpath(f, "a.trc")), 0);
    parse(f->path, &p);
    assert_true(p.n > 0);
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t i = 0; i < p.n; i++) {
        lo = p.mem[i].gap < lo ? p.mem[i].gap : lo;
        hi = p.mem[i].gap > hi ? p.mem[i].gap : hi;
    }
    assert_true(lo < hi);
    const size_t n_src = p.n;
    free(p.mem);
    assert_int_equal(gen(&g, "hotspot", 2 * GEN_MB, 1, "compute=44", tpath(f, "a.trc")), 0);
    parse(f->path, &p);
    assert_int_equal(p.n, n_src); /* the same records, only the gaps differ */
    for (size_t i = 0; i < p.n; i++)
        assert_int_equal(p.mem[i].gap, 44);
    free(p.mem);
    assert_int_equal(gen(&g, "streaming", 0, 1, "gpu_pages=48,oversub_pct=150,page_kb=4,compute=0",
                         tpath(f, "a.trc")),
                     0);
    parse(f->path, &p);
    for (size_t i = 0; i < p.n; i++)
        assert_int_equal(p.mem[i].gap, 0);
    free(p.mem);
    assert_int_equal(gen(&g, "hotspot", 2 * GEN_MB, 1, "compute=1000001", tpath(f, "a.trc")), -1);
    assert_non_null(strstr(g.err, "compute=1000001"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_size, setup, teardown),
        cmocka_unit_test_setup_teardown(test_streaming, setup, teardown),
        cmocka_unit_test_setup_teardown(test_block_streaming, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_warp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_params, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compute, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
