/*
 * test_trace_gen_calib.c - cmocka tests of the H100 probe's workloads (tools/workloads/wl_calib.c,
 * docs/calibration.md): chase (one load per stride block at a page of the block, shuffled, the
 * same order every pass), stream (every page once per pass, one page per instruction, the
 * grid-stride order), sparse (thread i reads page i*k; shuffle permutes the same pages), and the
 * --param checks (unknown or out-of-range parameters fail).
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

/* Generates workload wl (seed 3); params "k=v,k=v" (or NULL). Returns gen_run's status. */
static int gen(gen_t *g, const char *wl, uint64_t size, uint32_t iters, const char *params,
               const char *path) {
    return tgen_run(g, wl, size, 3, iters, params, path);
}

typedef struct {
    uint64_t base, size;
    uint32_t kernels;
    trace_rec_t *mem; /* memory records in file order, with their kernel in .line */
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
        } else if (rec.kind == TRACE_REC_KERNEL) {
            p->kernels++;
        } else if (rec.kind == TRACE_REC_MEM) {
            if (p->n == p->cap) {
                p->cap = p->cap ? 2 * p->cap : 1024;
                p->mem = realloc(p->mem, p->cap * sizeof(*p->mem));
                assert_non_null(p->mem);
            }
            rec.line = p->kernels;
            p->mem[p->n++] = rec;
        }
    }
    assert_int_equal(rc, 0);
    trace_close(r);
}

static void test_chase(void **state) {
    fixture_t *f = *state;
    gen_t g;
    parsed_t p;
    /* 64 MB span, 2 MB stride: 32 loads per pass, 3 passes */
    assert_int_equal(gen(&g, "chase", 64 * GEN_MB, 3, NULL, tpath(f, "c.trc")), 0);
    parse(f->path, &p);
    assert_int_equal(p.kernels, 3);
    assert_int_equal(p.size, 64 * GEN_MB);
    assert_int_equal(p.n, 3 * 32);
    uint32_t seen = 0;
    int ascending = 1;
    for (size_t i = 0; i < p.n; i++) {
        const trace_rec_t *m = &p.mem[i];
        assert_int_equal(m->mask, 1u); /* one thread */
        assert_int_equal(m->cta, 0);
        assert_int_equal(m->warp, 0);
        assert_int_equal(m->op, TRACE_OP_READ);
        assert_int_equal(m->line, i / 32 + 1);
        const uint64_t off = m->addr[0] - p.base;
        assert_true(off < p.size);
        assert_int_equal(off % PG, 0);
        /* the same order every pass */
        assert_int_equal(m->addr[0], p.mem[i % 32].addr[0]);
        if (i < 32) {
            const uint32_t blk = (uint32_t)(off >> 21);
            assert_false(seen >> blk & 1u); /* each 2 MB block once */
            seen |= 1u << blk;
            if (i && m->addr[0] < p.mem[i - 1].addr[0])
                ascending = 0;
        }
    }
    assert_int_equal(seen, 0xffffffffu);
    assert_false(ascending); /* shuffled */
    free(p.mem);
    /* 64 KB stride: 16 loads in 1 MB, one per 64 KB */
    assert_int_equal(gen(&g, "chase", 1 * GEN_MB, 1, "stride_kb=64,gap=7", tpath(f, "c.trc")), 0);
    parse(f->path, &p);
    assert_int_equal(p.n, 16);
    seen = 0;
    for (size_t i = 0; i < p.n; i++) {
        assert_int_equal(p.mem[i].gap, 7);
        seen |= 1u << ((p.mem[i].addr[0] - p.base) >> 16);
    }
    assert_int_equal(seen, 0xffffu);
    free(p.mem);
}

static void test_stream(void **state) {
    fixture_t *f = *state;
    gen_t g;
    parsed_t p;
    /* 3 MB = 768 pages, 2 CTAs = 32 model warps: 24 grid steps, 2 passes */
    assert_int_equal(gen(&g, "stream", 3 * GEN_MB, 2, "ctas=2,gap=11", tpath(f, "s.trc")), 0);
    parse(f->path, &p);
    assert_int_equal(p.kernels, 2);
    assert_int_equal(p.n, 2 * 768);
    uint8_t *cnt = calloc(768, 1);
    uint32_t next_step[32] = {0};
    for (size_t i = 0; i < p.n; i++) {
        const trace_rec_t *m = &p.mem[i];
        assert_int_equal(m->mask, 0xffffffffu);
        assert_int_equal(m->gap, 11);
        const uint64_t page = (m->addr[0] - p.base) / PG;
        for (int l = 0; l < 32; l++) /* one page, 128 B per lane */
            assert_int_equal(m->addr[l], p.base + page * PG + (uint64_t)l * 128);
        const uint32_t gw = m->cta * 16 + m->warp;
        if (i == 768)
            memset(next_step, 0, sizeof(next_step));
        /* grid-stride: warp gw's j-th instruction reads page gw + 32 j */
        assert_int_equal(page, gw + 32ULL * next_step[gw]);
        next_step[gw]++;
        cnt[page]++;
    }
    for (int i = 0; i < 768; i++)
        assert_int_equal(cnt[i], 2); /* every page once per pass */
    free(cnt);
    free(p.mem);
}

static void check_sparse(const parsed_t *p, uint64_t k, uint64_t n, int ascending) {
    assert_int_equal(p->kernels, 1);
    uint8_t *hit = calloc(n, 1);
    uint64_t lanes = 0;
    int in_order = 1;
    for (size_t i = 0; i < p->n; i++) {
        const trace_rec_t *m = &p->mem[i];
        for (int l = 0; l < 32; l++) {
            if (!(m->mask >> l & 1u))
                continue;
            const uint64_t t = (uint64_t)m->cta * 256 + m->warp * 32 + (uint64_t)l;
            const uint64_t off = m->addr[l] - p->base;
            assert_int_equal(off % (k * PG), 0);
            const uint64_t j = off / (k * PG);
            assert_true(j < n);
            assert_false(hit[j]);
            hit[j] = 1;
            if (j != t)
                in_order = 0;
            lanes++;
        }
    }
    assert_int_equal(lanes, n);
    assert_int_equal(in_order, ascending);
    free(hit);
}

static void test_sparse(void **state) {
    fixture_t *f = *state;
    gen_t g;
    parsed_t p;
    /* 16 MB = 4096 pages, k = 8: 512 threads, 2 CTAs of 256 */
    assert_int_equal(gen(&g, "sparse", 16 * GEN_MB, 0, "k=8", tpath(f, "p.trc")), 0);
    parse(f->path, &p);
    assert_int_equal(p.size, 16 * GEN_MB);
    check_sparse(&p, 8, 512, 1);
    free(p.mem);
    assert_int_equal(gen(&g, "sparse", 16 * GEN_MB, 0, "k=8,shuffle=1", tpath(f, "p.trc")), 0);
    parse(f->path, &p);
    check_sparse(&p, 8, 512, 0);
    free(p.mem);
    /* k = 3: 1365 threads, the last warp partial */
    assert_int_equal(gen(&g, "sparse", 16 * GEN_MB, 0, "k=3", tpath(f, "p.trc")), 0);
    parse(f->path, &p);
    check_sparse(&p, 3, 1365, 1);
    free(p.mem);
}

static void test_params(void **state) {
    fixture_t *f = *state;
    gen_t g;
    assert_int_equal(gen(&g, "sparse", 4 * GEN_MB, 0, "stride_kb=64", tpath(f, "x.trc")), -1);
    assert_non_null(strstr(g.err, "no parameter 'stride_kb'"));
    assert_int_equal(gen(&g, "chase", 4 * GEN_MB, 0, "stride_kb=6", tpath(f, "x.trc")), -1);
    assert_non_null(strstr(g.err, "stride_kb"));
    assert_int_equal(gen(&g, "sparse", 4 * GEN_MB, 0, "k=0", tpath(f, "x.trc")), -1);
    assert_int_equal(gen(&g, "sparse", 4 * GEN_MB, 0, "shuffle=2", tpath(f, "x.trc")), -1);
    assert_int_equal(gen(&g, "stream", 4 * GEN_MB, 0, "ctas=0", tpath(f, "x.trc")), -1);
    gen_opts_t o;
    memset(&o, 0, sizeof(o));
    char err[256];
    assert_int_equal(gen_param_add(&o, "k=4", err, sizeof(err)), 0);
    assert_int_equal(gen_param_add(&o, "k=5", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "twice"));
    assert_int_equal(gen_param_add(&o, "=5", err, sizeof(err)), -1);
    assert_int_equal(gen_param_add(&o, "gap", err, sizeof(err)), -1);
    assert_int_equal(gen_param_add(&o, "gap=-1", err, sizeof(err)), -1);
    assert_int_equal(gen_param_add(&o, "gap=0x10", err, sizeof(err)), 0);
    assert_int_equal(o.params[1].val, 16);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_chase, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stream, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sparse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_params, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
