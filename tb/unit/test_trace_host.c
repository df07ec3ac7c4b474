/*
 * test_trace_host.c - cmocka tests of the host-call records of the trace library (issue 22 item
 * 1, docs/trace-format.md "Host calls"): advise, prefetch, free, cpu in text and binary, their
 * round trip, the flat writer calls and every malformed form.
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

static const char *k_host = "alloc a 0x7f0000000000 0x200000\n"
                            "advise 0x7f0000000000 0x1000 read_mostly\n"
                            "advise 0x7f0000001000 4096 preferred_location=gpu # comment\n"
                            "advise 0x7f0000002000 0x1000 preferred_location=host\n"
                            "advise 0x7f0000003000 0x1000 accessed_by\n"
                            "prefetch 0x7f0000000000 0x200000 gpu\n"
                            "kernel k\n"
                            "s 0 0 R 10 0xffffffff 0x7f0000000000 4\n"
                            "cpu 0x7f0000000010 0x10 W\n"
                            "cpu 0x7f0000004000 0x2000 R\n"
                            "prefetch 0x7f0000100000 0x100000 host\n"
                            "space 3\n"
                            "free a\n";

static void test_host_parse(void **state) {
    fixture_t *f = *state;
    write_file(tpath(f, "h.txt"), k_host, strlen(k_host));
    trace_rec_t r[16];
    char err[256];
    assert_int_equal(read_all(f->path, r, 16, err, sizeof(err)), 12);
    assert_int_equal(r[1].kind, TRACE_REC_ADVISE);
    assert_int_equal(r[1].base, 0x7f0000000000ULL);
    assert_int_equal(r[1].size, 0x1000);
    assert_int_equal(r[1].arg, TRACE_ADV_READ_MOSTLY);
    assert_int_equal(r[2].arg, TRACE_ADV_PREFER_GPU);
    assert_int_equal(r[2].size, 4096);
    assert_int_equal(r[3].arg, TRACE_ADV_PREFER_HOST);
    assert_int_equal(r[4].arg, TRACE_ADV_ACCESSED_BY);
    assert_int_equal(r[5].kind, TRACE_REC_PREFETCH);
    assert_int_equal(r[5].arg, TRACE_LOC_GPU);
    assert_int_equal(r[5].size, 0x200000);
    assert_int_equal(r[8].kind, TRACE_REC_CPU);
    assert_int_equal(r[8].op, TRACE_OP_WRITE);
    assert_int_equal(r[8].base, 0x7f0000000010ULL);
    assert_int_equal(r[9].op, TRACE_OP_READ);
    assert_int_equal(r[10].arg, TRACE_LOC_HOST);
    assert_int_equal(r[11].kind, TRACE_REC_FREE);
    assert_string_equal(r[11].name, "a");
    assert_int_equal(r[11].space, 3);
    assert_int_equal(r[11].line, 13);
    for (int i = 0; i < 12; i++)
        assert_int_equal(trace_rec_is_host(&r[i]), i != 0 && i != 6 && i != 7);
}

/* text -> binary -> text -> binary: same records, the binaries byte-identical, and the canonical
 * text written twice is byte-identical too; the binary sizes are the documented ones. */
static void test_host_round_trip(void **state) {
    fixture_t *f = *state;
    write_file(tpath(f, "h.txt"), k_host, strlen(k_host));
    trace_rec_t a[16], b[16], c[16];
    char err[256], p_bin[300], p_txt2[300], p_bin2[300];
    assert_int_equal(read_all(tpath(f, "h.txt"), a, 16, err, sizeof(err)), 12);
    snprintf(p_bin, sizeof(p_bin), "%s", tpath(f, "h.bin"));
    snprintf(p_txt2, sizeof(p_txt2), "%s", tpath(f, "h2.txt"));
    snprintf(p_bin2, sizeof(p_bin2), "%s", tpath(f, "h2.bin"));
    size_t n1;
    char *x = round_trip(a, 12, b, c, p_bin, p_txt2, p_bin2, &n1);
    /* header 8, alloc 19+1, 5 range records 18 each, kernel 2+1, strided 34, 3 range records,
     * space 2, free 2+1, end 1 */
    assert_int_equal(n1, 8 + 20 + 5 * 18 + 3 + 34 + 3 * 18 + 2 + 3 + 1);
    assert_int_equal((unsigned char)x[8 + 20], 8); /* first advise: type 8 */
    assert_int_equal((unsigned char)x[8 + 20 + 17], TRACE_ADV_READ_MOSTLY);
    assert_int_equal((unsigned char)x[8 + 20 + 4 * 18], 9); /* prefetch: type 9 */
    assert_int_equal((unsigned char)x[n1 - 4], 10);         /* free: type 10, "a" */
    free(x);
    write_all(tpath(f, "h3.txt"), 0, c, 12);
    size_t l2, l3;
    char *t2 = read_file(p_txt2, &l2), *t3 = read_file(tpath(f, "h3.txt"), &l3);
    assert_int_equal(l2, l3);
    assert_memory_equal(t2, t3, l2);
    assert_non_null(strstr(t2, "advise 0x7f0000001000 0x1000 preferred_location=gpu\n"));
    assert_non_null(strstr(t2, "cpu 0x7f0000000010 0x10 W\n"));
    assert_non_null(strstr(t2, "prefetch 0x7f0000100000 0x100000 host\n"));
    assert_non_null(strstr(t2, "space 3\nfree a\n"));
    free(t2);
    free(t3);
}

static void expect_err(fixture_t *f, const char *name, const void *data, size_t n,
                       const char *const *want) {
    write_file(tpath(f, name), data, n);
    char err[512] = "";
    trace_rec_t recs[8];
    if (read_all(f->path, recs, 8, err, sizeof(err)) >= 0)
        fail_msg("no error for %s", name);
    for (; *want; want++)
        if (!strstr(err, *want))
            fail_msg("error '%s' lacks '%s'", err, *want);
}

#define TXT_ERR(text, ...)                                                                         \
    expect_err(f, "bad.trc", text, strlen(text), (const char *const[]){__VA_ARGS__, NULL})

static void test_host_malformed_text(void **state) {
    fixture_t *f = *state;
    TXT_ERR("advise 0x1000 0x1000 read_often\n", "bad.trc:1: field 4 (advice)", "'read_often'");
    TXT_ERR("advise 0x1000 0x1000\n", ":1: field 4 (advice): missing");
    TXT_ERR("advise 0x1000\n", ":1: field 3 (size): missing");
    TXT_ERR("advise\n", ":1: field 2 (base): missing");
    TXT_ERR("advise 0x1000 0 read_mostly\n", "field 3 (size): range of 0 bytes");
    TXT_ERR("advise 0xffffffffffff 2 read_mostly\n", "field 3 (size)", "48-bit");
    TXT_ERR("advise 0x1000 0x1000 read_mostly x\n", "field 5 (end)", "'x'");
    TXT_ERR("advise 0x1000 0x1000 preferred_location=cpu\n", "field 4 (advice)");
    TXT_ERR("prefetch 0x1000 0x1000 device\n",
            "field 4 (destination): 'device' is not gpu or host");
    TXT_ERR("prefetch 0x1000 zz gpu\n", "field 3 (size): 'zz' is not a number");
    TXT_ERR("prefetch 0x1000 0x1000\n", "field 4 (destination): missing");
    TXT_ERR("cpu 0x1000 0x1000 A\n", "field 4 (op): 'A' is not R or W");
    TXT_ERR("cpu 0x1000 0x1000 R R\n", "field 5 (end)");
    TXT_ERR("cpu 0x1g 0x1000 R\n", "field 2 (base): '0x1g' is not a number");
    TXT_ERR("free\n", "field 2 (name): missing");
    TXT_ERR("free a b\n", "field 3 (end): unexpected extra field 'b'");
    TXT_ERR("kernel k\nfree a#b\nfree a\x01\n", ":3: column 7: control byte 0x01");
}

static void test_host_malformed_binary(void **state) {
    fixture_t *f = *state;
    unsigned char b[64] = {'G', 'M', 'T', 'B', 1, 0, 0, 0};
    /* advise [0x1000, +0x1000) read_mostly, then end */
    const unsigned char adv[18] = {8, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0};
    memcpy(b + 8, adv, 18);
    b[26] = 0xff;
    write_file(tpath(f, "ok.bin"), b, 27);
    char err[256];
    trace_rec_t r[4];
    assert_int_equal(read_all(f->path, r, 4, err, sizeof(err)), 1);
    assert_int_equal(r[0].kind, TRACE_REC_ADVISE);
    assert_int_equal(r[0].base, 0x1000);
    for (size_t cut = 9; cut < 26; cut++)
        expect_err(f, "bad.bin", b, cut,
                   (const char *const[]){"bad.bin:offset 8: truncated record (type 8)", NULL});
    b[25] = 4; /* advice 4 */
    expect_err(f, "bad.bin", b, 27, (const char *const[]){"offset 8: advice 4 is not 0..3", NULL});
    b[8] = 9; /* prefetch to 4 */
    expect_err(f, "bad.bin", b, 27,
               (const char *const[]){"offset 8: prefetch destination 4", NULL});
    b[8] = 11; /* cpu op 2 (atomic) */
    b[25] = 2;
    expect_err(f, "bad.bin", b, 27, (const char *const[]){"offset 8: cpu op 2", NULL});
    b[25] = 1;
    b[10] = 0; /* size 0 */
    b[18] = 0;
    expect_err(f, "bad.bin", b, 27, (const char *const[]){"offset 8: range of 0 bytes", NULL});
    b[18] = 1; /* base 0xffff_ffff_ffff_0000: outside 48 bits */
    memset(b + 11, 0xff, 6);
    expect_err(f, "bad.bin", b, 27, (const char *const[]){"offset 8: range", "48-bit", NULL});
    /* free with a bad name length, a non-printable name, truncated */
    const unsigned char fr[] = {10, 0, 0xff};
    memcpy(b + 8, fr, 3);
    expect_err(f, "bad.bin", b, 11, (const char *const[]){"offset 8: name length 0", NULL});
    const unsigned char fr2[] = {10, 2, 'a', ' ', 0xff};
    memcpy(b + 8, fr2, 5);
    expect_err(f, "bad.bin", b, 13, (const char *const[]){"offset 8: name byte 1", NULL});
    expect_err(f, "bad.bin", b, 10,
               (const char *const[]){"offset 8: truncated record (type 10)", NULL});
}

/* The flat calls (what the Python importers call) and what the writer refuses. */
static void test_host_flat_writer(void **state) {
    fixture_t *f = *state;
    char err[256];
    trace_writer_t *w = trace_create(tpath(f, "w.txt"), 0, err, sizeof(err));
    assert_non_null(w);
    assert_int_equal(trace_write_advise(w, 0x1000, 0x1000, TRACE_ADV_ACCESSED_BY, err, 256), 0);
    assert_int_equal(trace_write_space(w, 2, err, sizeof(err)), 0);
    assert_int_equal(trace_write_prefetch(w, 0x2000, 0x10, TRACE_LOC_HOST, err, 256), 0);
    assert_int_equal(trace_write_cpu(w, 0x3000, 1, TRACE_OP_WRITE, err, 256), 0);
    assert_int_equal(trace_write_free(w, "buf", err, 256), 0);
    assert_int_equal(trace_write_advise(w, 0x1000, 0x1000, 4, err, 256), -1);
    assert_non_null(strstr(err, "record 5: advice 4 is not 0..3"));
    assert_int_equal(trace_write_prefetch(w, 0x1000, 0, TRACE_LOC_GPU, err, 256), -1);
    assert_non_null(strstr(err, "range of 0 bytes"));
    assert_int_equal(trace_write_cpu(w, 0x1000, 1, TRACE_OP_ATOMIC, err, 256), -1);
    assert_non_null(strstr(err, "cpu op 2 is not 0 (R) or 1 (W)"));
    assert_int_equal(trace_write_free(w, "a b", err, 256), -1);
    assert_int_equal(trace_write_prefetch(w, TRACE_VA_LIMIT - 1, 2, TRACE_LOC_GPU, err, 256), -1);
    assert_non_null(strstr(err, "48-bit"));
    assert_int_equal(trace_finish(w, err, sizeof(err)), 0);
    size_t n;
    char *t = read_file(tpath(f, "w.txt"), &n);
    const char *want = "advise 0x1000 0x1000 accessed_by\n"
                       "space 2\n"
                       "prefetch 0x2000 0x10 host\n"
                       "cpu 0x3000 0x1 W\n"
                       "free buf\n";
    assert_int_equal(n, strlen(want));
    assert_memory_equal(t, want, n);
    free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_host_parse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_host_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_host_malformed_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_host_malformed_binary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_host_flat_writer, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
