/*
 * test_trace_profile.c - cmocka tests of the object profile (tools/trace/trace_profile.c,
 * docs/trace-format.md "Object profile"): access density, regional and global locality, reuse
 * distance on a hand-made trace; a free ends an object after its launch; errors.
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

#include "test_trace_fixture.h"
#include "trace.h"
#include "trace_profile.h"

/* a: 256 B; launch 0 reads its first 128 B twice (density 0.5, 64 accesses), launch 2 all of it
 * once; b: 2 pages, one write in its second page in launch 0, freed inside launch 0's records
 * (after the launch); b2 declared where b was among launch 0's records (an object from launch 1
 * on: launch 0's access there is b's), used in launch 1 with c. */
static const char *k_trace = "alloc a 0x100000 0x100\n"
                             "alloc b 0x200000 0x2000\n"
                             "alloc c 0x300000 0x1000 ro\n"
                             "kernel k0\n"
                             "s 0 0 R 0 0xffffffff 0x100000 4\n"
                             "s 1 0 R 0 0xffffffff 0x100000 4\n"
                             "s 0 1 W 0 0x1 0x201000 0\n"
                             "free b\n"
                             "s 0 2 W 0 0x1 0x201004 0\n"
                             "alloc b2 0x200000 0x1000\n"
                             "s 0 3 W 0 0x1 0x200000 0\n"
                             "kernel k1\n"
                             "s 0 0 R 0 0x3 0x300000 0x800\n"
                             "s 0 0 W 0 0x1 0x200ff0 0\n"
                             "kernel k2\n"
                             "s 0 0 R 0 0xffffffff 0x100000 4\n"
                             "s 0 0 R 0 0xffffffff 0x100080 4\n";

static const trace_prof_use_t *use_of(const trace_prof_t *p, size_t k, const char *obj) {
    for (size_t j = 0; j < p->kern[k].n; j++) {
        const trace_prof_use_t *u = &p->use[p->kern[k].first + j];
        if (strcmp(p->obj[u->obj].name, obj) == 0)
            return u;
    }
    return NULL;
}

static void test_profile_values(void **state) {
    fixture_t *f = *state;
    write_file(tpath(f, "p.txt"), k_trace, strlen(k_trace));
    trace_prof_t p;
    char err[256];
    assert_int_equal(trace_profile(f->path, &p, err, sizeof(err)), 0);
    assert_int_equal(p.nobj, 4);
    assert_int_equal(p.nkern, 3);
    assert_string_equal(p.kern[1].name, "k1");
    /* launch 0: a and b */
    assert_int_equal(p.kern[0].n, 2);
    const trace_prof_use_t *a0 = use_of(&p, 0, "a");
    assert_non_null(a0);
    assert_int_equal(a0->accesses, 64);
    assert_int_equal(a0->bytes, 128);
    assert_int_equal(a0->pages, 1);
    assert_true(a0->density == 0.5);
    assert_int_equal(a0->reuse, 2); /* next used by launch 2 */
    const trace_prof_use_t *b0 = use_of(&p, 0, "b");
    assert_non_null(b0);
    /* the accesses after the free are still launch 0's, and so is the one in b2's range: b is
     * the allocation there until the launch ends */
    assert_int_equal(b0->accesses, 3);
    assert_null(use_of(&p, 0, "b2"));
    assert_int_equal(b0->bytes, 12);
    assert_int_equal(b0->pages, 2);
    assert_int_equal(b0->reuse, TRACE_PROF_NEVER);
    /* launch 1: b2 (not b: freed) and c, two lanes 2 KB apart: one page, 8 bytes */
    assert_int_equal(p.kern[1].n, 2);
    assert_null(use_of(&p, 1, "b"));
    const trace_prof_use_t *c1 = use_of(&p, 1, "c");
    assert_non_null(c1);
    assert_int_equal(c1->accesses, 2);
    assert_int_equal(c1->bytes, 8);
    assert_true(c1->density == 8.0 / 4096.0);
    assert_int_equal(use_of(&p, 1, "b2")->accesses, 1);
    /* launch 2: all of a once: density 1, never reused after */
    const trace_prof_use_t *a2 = use_of(&p, 2, "a");
    assert_int_equal(a2->bytes, 256);
    assert_true(a2->density == 1.0);
    assert_int_equal(a2->reuse, TRACE_PROF_NEVER);
    /* global locality: every launch's accesses */
    assert_int_equal(p.obj[0].global, 128);
    assert_int_equal(p.obj[0].uses, 2);
    assert_int_equal(p.obj[1].global, 3);
    trace_profile_free(&p);
    assert_int_equal(p.nobj, 0);
}

/* the binary encoding of the same trace gives the same profile */
static void test_profile_binary(void **state) {
    fixture_t *f = *state;
    char txt[300];
    write_file(tpath(f, "p.txt"), k_trace, strlen(k_trace));
    snprintf(txt, sizeof(txt), "%s", f->path);
    char err[256];
    trace_reader_t *r = trace_open(txt, err, sizeof(err));
    assert_non_null(r);
    trace_writer_t *w = trace_create(tpath(f, "p.bin"), 1, err, sizeof(err));
    assert_non_null(w);
    assert_int_equal(trace_copy(r, w, err, sizeof(err)), 0);
    assert_int_equal(trace_finish(w, err, sizeof(err)), 0);
    trace_close(r);
    trace_prof_t pt, pb;
    assert_int_equal(trace_profile(txt, &pt, err, sizeof(err)), 0);
    assert_int_equal(trace_profile(f->path, &pb, err, sizeof(err)), 0);
    assert_int_equal(pt.nuse, pb.nuse);
    assert_memory_equal(pt.use, pb.use, pt.nuse * sizeof(*pt.use));
    trace_profile_free(&pt);
    trace_profile_free(&pb);
}

static void test_profile_errors(void **state) {
    fixture_t *f = *state;
    trace_prof_t p;
    char err[256];
    assert_int_equal(trace_profile(tpath(f, "none.txt"), &p, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "none.txt"));
    assert_int_equal(p.nobj, 0);
    const char *bad = "alloc a 0x100000 0x100\nkernel k\ns 0 0 Q 0 0x1 0x100000 0\n";
    write_file(tpath(f, "bad.txt"), bad, strlen(bad));
    assert_int_equal(trace_profile(f->path, &p, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "bad.txt:3"));
    assert_null(p.use);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_profile_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_profile_binary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_profile_errors, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
