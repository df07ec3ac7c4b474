/*
 * test_trace_write.c - cmocka tests of the trace writer (tools/trace/trace_write.c): the encoding
 * choice (strided, tile), the one-call-per-record entry points and trace_copy that the Python
 * importers call through ctypes. (The number parser the text format uses is common/num.c, tested
 * in test_common_num.c.)
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

static void test_strided_detection(void **state) {
    fixture_t *f = *state;
    trace_rec_t recs[5];
    memset(recs, 0, sizeof(recs));
    recs[0].kind = TRACE_REC_KERNEL;
    strcpy(recs[0].name, "k");
    for (int j = 1; j < 5; j++) {
        recs[j].kind = TRACE_REC_MEM;
        recs[j].op = TRACE_OP_READ;
    }
    /* 1: full warp, stride 8 */
    recs[1].mask = 0xffffffff;
    for (int i = 0; i < 32; i++)
        recs[1].addr[i] = 0x1000 + 8u * (unsigned)i;
    /* 2: lanes 2, 5 and 8 only, stride -16 relative to lane index: base is lane 0's virtual address
     */
    recs[2].mask = (1u << 2) | (1u << 5) | (1u << 8);
    recs[2].addr[2] = 0x2000 - 32;
    recs[2].addr[5] = 0x2000 - 80;
    recs[2].addr[8] = 0x2000 - 128;
    /* 3: irregular */
    recs[3].mask = 0x7;
    recs[3].addr[0] = 0x10;
    recs[3].addr[1] = 0x20;
    recs[3].addr[2] = 0x40;
    /* 4: lanes 0, 3 and 6 differ by 10: not divisible by 3 -> list */
    recs[4].mask = 0x49;
    recs[4].addr[0] = 0x100;
    recs[4].addr[3] = 0x10a;
    recs[4].addr[6] = 0x114;
    write_all(tpath(f, "st.txt"), 0, recs, 5);
    size_t n;
    char *txt = read_file(tpath(f, "st.txt"), &n);
    assert_string_equal(txt, "kernel k\n"
                             "s 0 0 R 0 0xffffffff 0x1000 8\n"
                             "s 0 0 R 0 0x124 0x2000 -16\n"
                             "m 0 0 R 0 0x7 0x10 0x20 0x40\n"
                             "m 0 0 R 0 0x49 0x100 0x10a 0x114\n");
    free(txt);
    write_all(tpath(f, "st.bin"), 1, recs, 5);
    char *bin = read_file(tpath(f, "st.bin"), &n);
    /* header 8, kernel 1+1+1 = 3, then a type-4 record */
    assert_int_equal((unsigned char)bin[11], 4);
    assert_int_equal(n, 8 + 3 + 2 * (1 + 17 + 16) + 2 * (1 + 17 + 24) + 1);
    free(bin);
    trace_rec_t back[5];
    char err[256];
    assert_int_equal(read_all(tpath(f, "st.bin"), back, 5, err, sizeof(err)), 5);
    for (int j = 0; j < 5; j++)
        assert_rec_equal(&recs[j], &back[j]);
}

static void test_tile_detection(void **state) {
    fixture_t *f = *state;
    trace_rec_t recs[4];
    memset(recs, 0, sizeof(recs));
    recs[0].kind = TRACE_REC_KERNEL;
    strcpy(recs[0].name, "k");
    for (int j = 1; j < 4; j++) {
        recs[j].kind = TRACE_REC_MEM;
        recs[j].op = TRACE_OP_WRITE;
    }
    /* 1: two rows of 16 floats (a 16x16 thread block's warp): group 16, row pitch 0x1000 */
    recs[1].mask = 0xffffffff;
    for (int i = 0; i < 32; i++)
        recs[1].addr[i] = 0x10000 + 4u * (unsigned)(i % 16) + 0x1000u * (unsigned)(i / 16);
    /* 2: 16 rows x 2 columns with lanes along rows (gaussian Fan2), half the lanes active */
    recs[2].mask = 0x00ff00ff;
    for (int i = 0; i < 32; i++)
        recs[2].addr[i] = 0x20000 + 0x2000u * (unsigned)(i % 16) + 4u * (unsigned)(i / 16);
    /* 3: groups of 4 with a negative outer stride */
    recs[3].mask = 0xffff;
    for (int i = 0; i < 32; i++)
        recs[3].addr[i] = 0x90000 + 8u * (unsigned)(i % 4) - 0x100u * (unsigned)(i / 4);
    write_all(tpath(f, "t.txt"), 0, recs, 4);
    size_t n;
    char *txt = read_file(tpath(f, "t.txt"), &n);
    assert_string_equal(txt, "kernel k\n"
                             "t 0 0 W 0 0xffffffff 0x10000 4 16 4096\n"
                             "t 0 0 W 0 0xff00ff 0x20000 8192 16 4\n"
                             "t 0 0 W 0 0xffff 0x90000 8 4 -256\n");
    free(txt);
    write_all(tpath(f, "t.bin"), 1, recs, 4);
    char *bin = read_file(tpath(f, "t.bin"), &n);
    assert_int_equal(n, 8 + 3 + 3 * (18 + 25) + 1);
    assert_int_equal((unsigned char)bin[11], 5);
    free(bin);
    trace_rec_t back[4];
    char err[256];
    assert_int_equal(read_all(tpath(f, "t.bin"), back, 4, err, sizeof(err)), 4);
    for (int j = 0; j < 4; j++)
        assert_rec_equal(&recs[j], &back[j]);
    assert_int_equal(read_all(tpath(f, "t.txt"), back, 4, err, sizeof(err)), 4);
    for (int j = 0; j < 4; j++)
        assert_rec_equal(&recs[j], &back[j]);
}

/* Parses text and expects an error whose message contains every string of want[] */
/* The flat entry points write the same text as trace_write with a filled record; the lane list
 * maps onto the active lanes in lane order, and the writer picks the encoding (s, t, m). */
static void test_flat_text(void **state) {
    fixture_t *f = *state;
    char err[256];
    trace_writer_t *w = trace_create(tpath(f, "a.txt"), 0, err, sizeof(err));
    assert_non_null(w);
    assert_int_equal(trace_write_alloc(w, "buf", 0x1000, 0x2000, 1, err, sizeof(err)), 0);
    assert_int_equal(trace_write_kernel(w, "k1", err, sizeof(err)), 0);
    const uint64_t strided[3] = {0x1004, 0x1008, 0x100c}; /* lanes 1..3: base 0x1000, 4 */
    assert_int_equal(trace_write_mem(w, 3, 1, TRACE_OP_WRITE, 9, 0xe, strided, err, sizeof(err)),
                     0);
    const uint64_t tile[4] = {0x1000, 0x1004, 0x2000, 0x2004}; /* g = 2, 4, 0x1000 */
    assert_int_equal(trace_write_mem(w, 0, 0, TRACE_OP_READ, 1, 0xf, tile, err, sizeof(err)), 0);
    const uint64_t list[2] = {0x1ff8, 0x1000}; /* lanes 0 and 31 */
    assert_int_equal(
        trace_write_mem(w, 1, 2, TRACE_OP_ATOMIC, 0, 0x80000001u, list, err, sizeof(err)), 0);
    assert_int_equal(trace_write_exit(w, 3, 1, err, sizeof(err)), 0);
    assert_int_equal(trace_finish(w, err, sizeof(err)), 0);
    size_t len;
    char *got = read_file(tpath(f, "a.txt"), &len);
    assert_string_equal(got, "alloc buf 0x1000 0x2000 ro\n"
                             "kernel k1\n"
                             "s 3 1 W 9 0xe 0x1000 4\n"
                             "t 0 0 R 1 0xf 0x1000 4 2 4096\n"
                             "m 1 2 A 0 0x80000001 0x1ff8 0x1000\n"
                             "x 3 1\n");
    free(got);
}

/* What the writer cannot encode is an error naming the output and the record number. */
static void test_flat_rejects(void **state) {
    fixture_t *f = *state;
    char err[256];
    trace_writer_t *w = trace_create(tpath(f, "r.trc"), 1, err, sizeof(err));
    assert_non_null(w);
    char longname[80];
    memset(longname, 'n', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    assert_int_equal(trace_write_kernel(w, longname, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "r.trc: record 1: name must be 1..63 printable characters"));
    assert_int_equal(trace_write_kernel(w, "has blank", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "record 1: name must be"));
    assert_int_equal(trace_write_alloc(w, "a", 0x1000, 0, 0, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "record 1: allocation 'a' of 0 bytes"));
    /* the shared rule (trace_rec_check): 48-bit space, aligned base */
    assert_int_equal(trace_write_alloc(w, "a", 0xfffffffff000, 0x2000, 0, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "record 1: allocation 'a' [0xfffffffff000, +0x2000) is outside"));
    assert_int_equal(trace_write_alloc(w, "a", 0x1800, 0x2000, 0, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "not 4 KB-aligned"));
    assert_int_equal(trace_write_kernel(w, "k", err, sizeof(err)), 0);
    assert_int_equal(trace_write_mem(w, 0, 0, TRACE_OP_READ, 0, 1, NULL, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "null address list"));
    const uint64_t a = 0x1000;
    assert_int_equal(trace_write_mem(w, 0, 0, 3, 0, 1, &a, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "record 2: bad op 3"));
    assert_int_equal(trace_write_mem(w, 0, 0, TRACE_OP_READ, 0, 0, &a, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "record 2: mask has no active lane"));
    const uint64_t hi = 1ull << 48;
    assert_int_equal(trace_write_mem(w, 0, 0, TRACE_OP_READ, 0, 1, &hi, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "record 2: lane 0 address 0x1000000000000 is outside the 48-bit"));
    assert_int_equal(trace_finish(w, err, sizeof(err)), 0);
}

/* trace_copy re-encodes every record: binary -> text -> binary gives the same bytes, and a
 * truncated input is an error (not a shorter copy). */
static void test_copy(void **state) {
    fixture_t *f = *state;
    char err[256];
    trace_writer_t *w = trace_create(tpath(f, "c1.trc"), 1, err, sizeof(err));
    assert_non_null(w);
    assert_int_equal(trace_write_alloc(w, "a", 0x10000, 0x100000, 0, err, sizeof(err)), 0);
    assert_int_equal(trace_write_kernel(w, "k", err, sizeof(err)), 0);
    uint64_t addrs[32];
    for (uint32_t n = 0; n < 64; n++) {
        uint32_t mask = n % 3 == 0 ? 0xffffffffu : n % 3 == 1 ? 0x00ff00ffu : 0x5u;
        int k = 0;
        for (int i = 0; i < 32; i++)
            if (mask >> i & 1u)
                addrs[k++] = 0x10000 + (uint64_t)(n % 2 ? i * 8 : (i * 7919) % 4096) * 16;
        assert_int_equal(
            trace_write_mem(w, n % 5, n % 4, (int)(n % 3), n, mask, addrs, err, sizeof(err)), 0);
        if (n % 16 == 15)
            assert_int_equal(trace_write_exit(w, n % 5, n % 4, err, sizeof(err)), 0);
    }
    assert_int_equal(trace_finish(w, err, sizeof(err)), 0);
    const char *steps[][2] = {{"c1.trc", "c2.txt"}, {"c2.txt", "c3.trc"}};
    for (int s = 0; s < 2; s++) {
        char in[300];
        snprintf(in, sizeof(in), "%s", tpath(f, steps[s][0]));
        trace_reader_t *r = trace_open(in, err, sizeof(err));
        assert_non_null(r);
        w = trace_create(tpath(f, steps[s][1]), s == 1, err, sizeof(err));
        assert_non_null(w);
        assert_int_equal(trace_copy(r, w, err, sizeof(err)), 0);
        trace_close(r);
        assert_int_equal(trace_finish(w, err, sizeof(err)), 0);
    }
    char a[300];
    snprintf(a, sizeof(a), "%s", tpath(f, "c1.trc"));
    FILE *x = fopen(a, "rb"), *y = fopen(tpath(f, "c3.trc"), "rb");
    assert_non_null(x);
    assert_non_null(y);
    const size_t cap = 1u << 16;
    unsigned char *bx = malloc(cap), *by = malloc(cap);
    assert_non_null(bx);
    assert_non_null(by);
    size_t nx = fread(bx, 1, cap, x), ny = fread(by, 1, cap, y);
    fclose(x);
    fclose(y);
    assert_true(nx > 64 && nx < cap);
    assert_int_equal(nx, ny);
    assert_memory_equal(bx, by, nx);
    /* truncated: drop the end record */
    FILE *t = fopen(tpath(f, "trunc.trc"), "wb");
    assert_non_null(t);
    assert_int_equal(fwrite(bx, 1, nx - 1, t), nx - 1);
    fclose(t);
    trace_reader_t *r = trace_open(f->path, err, sizeof(err));
    assert_non_null(r);
    w = trace_create(tpath(f, "c4.trc"), 1, err, sizeof(err));
    assert_non_null(w);
    assert_int_equal(trace_copy(r, w, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "truncated trace"));
    trace_close(r);
    assert_int_equal(trace_finish(w, err, sizeof(err)), 0);
    assert_int_equal(trace_copy(NULL, w, err, sizeof(err)), -1);
    free(bx);
    free(by);
}

/* Address spaces: the flat writer emits a `space` record when the space changes (not for a
 * kernel record), the readers (text and binary) stamp every record with it, and the combiner
 * puts input i in space i with kernel k of every input merged, records round-robin. */
static void test_spaces_and_mix(void **state) {
    fixture_t *f = *state;
    char err[256];
    trace_writer_t *w = trace_create(tpath(f, "sp.txt"), 0, err, sizeof(err));
    assert_non_null(w);
    const uint64_t a = 0x1000;
    assert_int_equal(trace_write_alloc(w, "x", 0x1000, 0x1000, 0, err, sizeof(err)), 0);
    assert_int_equal(trace_write_space(w, 3, err, sizeof(err)), 0);
    assert_int_equal(trace_write_alloc(w, "x", 0x1000, 0x1000, 0, err, sizeof(err)), 0);
    assert_int_equal(trace_write_kernel(w, "k", err, sizeof(err)), 0);
    assert_int_equal(trace_write_mem(w, 0, 1, TRACE_OP_READ, 0, 1, &a, err, sizeof(err)), 0);
    assert_int_equal(trace_write_space(w, 0, err, sizeof(err)), 0);
    assert_int_equal(trace_write_exit(w, 0, 1, err, sizeof(err)), 0);
    assert_int_equal(trace_write_space(w, 256, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "address space 256 is not below 256"));
    assert_int_equal(trace_finish(w, err, sizeof(err)), 0);
    size_t len;
    char *got = read_file(tpath(f, "sp.txt"), &len);
    assert_string_equal(got, "alloc x 0x1000 0x1000\n"
                             "space 3\n"
                             "alloc x 0x1000 0x1000\n"
                             "kernel k\n"
                             "m 0 1 R 0 0x1 0x1000\n"
                             "space 0\n"
                             "x 0 1\n");
    free(got);
    /* binary: the same records and spaces */
    const uint32_t want_space[] = {0, 3, 3, 3, 0};
    for (int bin = 0; bin < 2; bin++) {
        if (bin) {
            trace_reader_t *r = trace_open(tpath(f, "sp.txt"), err, sizeof(err));
            assert_non_null(r);
            w = trace_create(tpath(f, "sp.trc"), 1, err, sizeof(err));
            assert_non_null(w);
            assert_int_equal(trace_copy(r, w, err, sizeof(err)), 0);
            trace_close(r);
            assert_int_equal(trace_finish(w, err, sizeof(err)), 0);
        }
        trace_reader_t *r = trace_open(tpath(f, bin ? "sp.trc" : "sp.txt"), err, sizeof(err));
        assert_non_null(r);
        trace_rec_t rec;
        for (int i = 0; i < 5; i++) {
            assert_int_equal(trace_next(r, &rec, err, sizeof(err)), 1);
            assert_int_equal(rec.space, want_space[i]);
        }
        assert_int_equal(trace_next(r, &rec, err, sizeof(err)), 0);
        trace_close(r);
    }
    /* mix: A has 2 kernels, B one */
    char pa[300], pb[300];
    snprintf(pa, sizeof(pa), "%s", tpath(f, "a.txt"));
    snprintf(pb, sizeof(pb), "%s", tpath(f, "b.txt"));
    const char *ta = "alloc a 0x1000 0x2000\nkernel ka\nm 0 0 R 0 0x1 0x1000\n"
                     "m 1 0 R 0 0x1 0x2000\nkernel kb\nm 0 0 W 0 0x1 0x1000\n";
    const char *tb = "alloc b 0x1000 0x1000\nkernel kc\nm 0 0 R 0 0x1 0x1000\n";
    write_file(pa, ta, strlen(ta));
    write_file(pb, tb, strlen(tb));
    const char *ins[2] = {pa, pb};
    w = trace_create(tpath(f, "mix.txt"), 0, err, sizeof(err));
    assert_non_null(w);
    assert_int_equal(trace_mix(ins, 2, w, err, sizeof(err)), 0);
    assert_int_equal(trace_finish(w, err, sizeof(err)), 0);
    got = read_file(tpath(f, "mix.txt"), &len);
    assert_string_equal(got, "alloc a 0x1000 0x2000\n"
                             "space 1\n"
                             "alloc b 0x1000 0x1000\n"
                             "kernel ka+kc\n"
                             "space 0\n"
                             "m 0 0 R 0 0x1 0x1000\n"
                             "space 1\n"
                             "m 0 0 R 0 0x1 0x1000\n"
                             "space 0\n"
                             "m 1 0 R 0 0x1 0x2000\n"
                             "kernel kb\n"
                             "m 0 0 W 0 0x1 0x1000\n");
    free(got);
    /* an input that already has address spaces is refused, naming it */
    char pm[300];
    snprintf(pm, sizeof(pm), "%s", tpath(f, "mix.txt"));
    const char *ins2[2] = {pa, pm};
    w = trace_create(tpath(f, "mix2.txt"), 0, err, sizeof(err));
    assert_non_null(w);
    assert_int_equal(trace_mix(ins2, 2, w, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "mix.txt:3: address space 1: every input of mix"));
    assert_int_equal(trace_finish(w, err, sizeof(err)), 0);
    /* text reader: a bad space field names the line and field */
    const char *bad = "space 1\nkernel k\nspace x\n";
    write_file(pa, bad, strlen(bad));
    trace_reader_t *r = trace_open(pa, err, sizeof(err));
    assert_non_null(r);
    trace_rec_t rec;
    assert_int_equal(trace_next(r, &rec, err, sizeof(err)), 1);
    assert_int_equal(trace_next(r, &rec, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "a.txt:3: field 2 (space): 'x' is not a number"));
    trace_close(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_strided_detection, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tile_detection, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flat_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flat_rejects, setup, teardown),
        cmocka_unit_test_setup_teardown(test_copy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_spaces_and_mix, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
