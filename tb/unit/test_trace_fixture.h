/*
 * test_trace_fixture.h - helpers of the trace library's cmocka tests (test_trace.c,
 * test_trace_write.c): a temporary directory per test, whole-file and whole-trace reads and
 * writes, record comparison, the text -> binary -> text -> binary round trip. Include after
 * <cmocka.h>.
 */
#ifndef GMMU_TEST_TRACE_FIXTURE_H
#define GMMU_TEST_TRACE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

typedef struct {
    char dir[256];
    char path[300];
} fixture_t;

static inline int setup(void **state) {
    fixture_t *f = calloc(1, sizeof(*f));
    if (!f)
        return -1;
    const char *tmp = getenv("TMPDIR");
    snprintf(f->dir, sizeof(f->dir), "%s/test_trace.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(f->dir)) {
        free(f);
        return -1;
    }
    *state = f;
    return 0;
}

static inline int teardown(void **state) {
    fixture_t *f = *state;
    char cmd[400];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
    if (system(cmd) != 0)
        return -1;
    free(f);
    return 0;
}

static inline const char *tpath(fixture_t *f, const char *name) {
    snprintf(f->path, sizeof(f->path), "%s/%s", f->dir, name);
    return f->path;
}

static inline void write_file(const char *path, const void *data, size_t n) {
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(data, 1, n, fp), n);
    assert_int_equal(fclose(fp), 0);
}

static inline char *read_file(const char *path, size_t *n) {
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
    buf[len] = '\0';
    fclose(fp);
    *n = (size_t)len;
    return buf;
}

/* Reads every record of path into recs (up to max). Returns the count, or -1 with err. */
static inline int read_all(const char *path, trace_rec_t *recs, int max, char *err, size_t errlen) {
    trace_reader_t *r = trace_open(path, err, errlen);
    if (!r)
        return -1;
    int n = 0, rc;
    trace_rec_t rec;
    while ((rc = trace_next(r, &rec, err, errlen)) == 1) {
        if (n < max)
            recs[n] = rec;
        n++;
    }
    trace_close(r);
    return rc < 0 ? -1 : n;
}

static inline void write_all(const char *path, int binary, const trace_rec_t *recs, int n) {
    char err[256];
    trace_writer_t *w = trace_create(path, binary, err, sizeof(err));
    assert_non_null(w);
    for (int i = 0; i < n; i++)
        assert_int_equal(trace_write(w, &recs[i], err, sizeof(err)), 0);
    assert_int_equal(trace_finish(w, err, sizeof(err)), 0);
}

static inline void assert_rec_equal(const trace_rec_t *a, const trace_rec_t *b) {
    assert_int_equal(a->kind, b->kind);
    if (a->kind != TRACE_REC_KERNEL) /* a kernel record has no address space of its own */
        assert_int_equal(a->space, b->space);
    if (a->kind == TRACE_REC_ADVISE || a->kind == TRACE_REC_PREFETCH || a->kind == TRACE_REC_CPU) {
        assert_int_equal(a->base, b->base);
        assert_int_equal(a->size, b->size);
        assert_int_equal(a->arg, b->arg);
        assert_int_equal(a->op, b->op);
        return;
    }
    if (a->kind == TRACE_REC_EXIT) {
        assert_int_equal(a->cta, b->cta);
        assert_int_equal(a->warp, b->warp);
        return;
    }
    if (a->kind != TRACE_REC_MEM) {
        assert_string_equal(a->name, b->name);
        if (a->kind == TRACE_REC_ALLOC) {
            assert_int_equal(a->base, b->base);
            assert_int_equal(a->size, b->size);
            assert_int_equal(a->readonly, b->readonly);
        }
        return;
    }
    assert_int_equal(a->cta, b->cta);
    assert_int_equal(a->warp, b->warp);
    assert_int_equal(a->op, b->op);
    assert_int_equal(a->gap, b->gap);
    assert_int_equal(a->mask, b->mask);
    for (int i = 0; i < TRACE_LANES; i++)
        if (a->mask >> i & 1u)
            assert_int_equal(a->addr[i], b->addr[i]);
}

static inline char *round_trip(const trace_rec_t *a, int n, trace_rec_t *b, trace_rec_t *c,
                               const char *p_bin, const char *p_txt2, const char *p_bin2,
                               size_t *len) {
    char err[256];
    write_all(p_bin, 1, a, n);
    assert_int_equal(read_all(p_bin, b, 16, err, sizeof(err)), n);
    write_all(p_txt2, 0, b, n);
    assert_int_equal(read_all(p_txt2, c, 16, err, sizeof(err)), n);
    for (int i = 0; i < n; i++) {
        assert_rec_equal(&a[i], &b[i]);
        assert_rec_equal(&a[i], &c[i]);
    }
    write_all(p_bin2, 1, c, n);
    size_t n2;
    char *x = read_file(p_bin, len), *y = read_file(p_bin2, &n2);
    assert_int_equal(*len, n2);
    assert_memory_equal(x, y, n2);
    free(y);
    return x;
}

#endif
