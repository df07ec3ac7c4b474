/*
 * test_trace.c - cmocka unit tests of the trace library (tools/trace/trace_*.c): reader and
 * writer (docs/trace-format.md).
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

static const char *k_sample = "# sample trace\n"
                              "alloc a 0x7f0000000000 0x100000\n"
                              "alloc b 0x7f0000100000 4096 ro   # read-only input\n"
                              "\n"
                              "kernel vecadd\n"
                              "s 0 0 R 10 0xffffffff 0x7f0000000000 4\n"
                              "m 0 1 W 0 0x3 0x7f0000001000 0x7f0000002000\n"
                              "s 3 2 A 7 0xf0 0x7f0000100400 -8\n"
                              "\tm 1 0 R 0x10 0x80000001 0x7f0000000000 0x7f00000fff00\r\n"
                              "kernel second\n"
                              "s 0 0 W 0 1 0x7f0000000040 0\n";

static void test_text_parse(void **state) {
    fixture_t *f = *state;
    write_file(tpath(f, "s.txt"), k_sample, strlen(k_sample));
    trace_rec_t r[16];
    char err[256];
    int n = read_all(tpath(f, "s.txt"), r, 16, err, sizeof(err));
    assert_int_equal(n, 9);
    assert_int_equal(r[0].kind, TRACE_REC_ALLOC);
    assert_string_equal(r[0].name, "a");
    assert_int_equal(r[0].base, 0x7f0000000000ULL);
    assert_int_equal(r[0].size, 0x100000);
    assert_int_equal(r[0].readonly, 0);
    assert_int_equal(r[0].line, 2);
    assert_int_equal(r[1].readonly, 1);
    assert_int_equal(r[1].size, 4096);
    assert_int_equal(r[2].kind, TRACE_REC_KERNEL);
    assert_string_equal(r[2].name, "vecadd");
    assert_int_equal(r[3].kind, TRACE_REC_MEM);
    assert_int_equal(r[3].line, 6);
    for (int i = 0; i < 32; i++)
        assert_int_equal(r[3].addr[i], 0x7f0000000000ULL + 4u * (unsigned)i);
    assert_int_equal(r[3].gap, 10);
    assert_int_equal(r[4].op, TRACE_OP_WRITE);
    assert_int_equal(r[4].warp, 1);
    assert_int_equal(r[4].addr[1], 0x7f0000002000ULL);
    assert_int_equal(r[5].op, TRACE_OP_ATOMIC);
    assert_int_equal(r[5].cta, 3);
    assert_int_equal(r[5].addr[4], 0x7f0000100400ULL - 32);
    assert_int_equal(r[5].addr[7], 0x7f0000100400ULL - 56);
    assert_int_equal(r[6].gap, 16);
    assert_int_equal(r[6].addr[31], 0x7f00000fff00ULL);
    assert_string_equal(r[7].name, "second");
    assert_int_equal(r[8].addr[0], 0x7f0000000040ULL);
    assert_int_equal(r[8].line, 11);
}

/* a[0..n) -> binary p_bin -> b -> text p_txt2 -> c -> binary p_bin2: the same records, and
 * the two binaries byte-identical. Returns the first binary (caller frees) and its size. */
static void test_round_trip(void **state) {
    fixture_t *f = *state;
    write_file(tpath(f, "s.txt"), k_sample, strlen(k_sample));
    trace_rec_t a[16], b[16], c[16];
    char err[256];
    char p_txt[300], p_bin[300], p_txt2[300], p_bin2[300];
    snprintf(p_txt, sizeof(p_txt), "%s", tpath(f, "s.txt"));
    snprintf(p_bin, sizeof(p_bin), "%s", tpath(f, "s.bin"));
    snprintf(p_txt2, sizeof(p_txt2), "%s", tpath(f, "s2.txt"));
    snprintf(p_bin2, sizeof(p_bin2), "%s", tpath(f, "s2.bin"));
    int n = read_all(p_txt, a, 16, err, sizeof(err));
    assert_int_equal(n, 9);
    /* text -> binary -> text -> binary: same records, byte-stable */
    size_t n1;
    char *x = round_trip(a, n, b, c, p_bin, p_txt2, p_bin2, &n1);
    assert_int_equal((unsigned char)x[n1 - 1], 0xff);
    assert_memory_equal(x, "GMTB\1\0\0\0", 8);
    free(x);
    /* binary offsets are reported as positions */
    assert_int_equal(b[0].line, 8);
}

static void expect_text_error(fixture_t *f, const char *text, const char *const *want) {
    write_file(tpath(f, "bad.trc"), text, strlen(text));
    char err[512] = "";
    trace_rec_t recs[8];
    int n = read_all(f->path, recs, 8, err, sizeof(err));
    if (n >= 0)
        fail_msg("no error for: %s", text);
    for (; *want; want++)
        if (!strstr(err, *want))
            fail_msg("error '%s' lacks '%s'", err, *want);
}

static void test_malformed_text(void **state) {
    fixture_t *f = *state;
    expect_text_error(f, "kernel k\nm 0 0 X 0 0x1 0x10\n",
                      (const char *const[]){"bad.trc:2:", "field 4 (op)", "'X'", NULL});
    expect_text_error(f, "kernel k\ns 0 0 R 0 0xzz 0x10 4\n",
                      (const char *const[]){":2: field 6 (mask): '0xzz' is not a number", NULL});
    expect_text_error(f, "# c\n\nkernel k\ns 0 0 R 12a 0x1 0x10 4\n",
                      (const char *const[]){":4: field 5 (gap)", "not a number", NULL});
    expect_text_error(f, "kernel k\ns 0 0 R 0 0x1 0x10\n",
                      (const char *const[]){":2: field 8 (stride): missing", NULL});
    expect_text_error(f, "alloc a 0x1000\n",
                      (const char *const[]){":1: field 4 (size): missing", NULL});
    expect_text_error(f, "kernel\n", (const char *const[]){":1: field 2 (name): missing", NULL});
    expect_text_error(f, "kernel k\nm 0 0 R 0 0x7 0x10 0x20\n",
                      (const char *const[]){":2:", "(addr)", "3 active lanes but 2", NULL});
    expect_text_error(f, "kernel k\nm 0 0 R 0 0x1 0x10 0x20\n",
                      (const char *const[]){":2:", "1 active lanes but 2", NULL});
    expect_text_error(f, "kernel k\ny 0 0 R 0 0x1 0x10\n",
                      (const char *const[]){":2: field 1 (record): unknown record 'y'", NULL});
    expect_text_error(f, "kernel k\ns 0 0 R 0 0 0x10 4\n",
                      (const char *const[]){"field 6 (mask): no active lane", NULL});
    expect_text_error(f, "kernel k\ns 0 0 R 0 0x100000000 0x10 4\n",
                      (const char *const[]){"field 6 (mask)", "out of range", NULL});
    expect_text_error(f, "kernel k\ns 0 0 R 0 1 0x10 4 5\n",
                      (const char *const[]){"field 9", "unexpected", NULL});
    expect_text_error(f, "alloc a 0x1000 0x1000 rw\n",
                      (const char *const[]){"field 5 (flags)", NULL});
    expect_text_error(f, "alloc a 0x1000 0\n",
                      (const char *const[]){"field 4 (size)", "0 bytes", NULL});
    expect_text_error(f, "alloc a 0xffffffffffffffff 2\n",
                      (const char *const[]){"field 4 (size)", "overflows", NULL});
    expect_text_error(f, "kernel k\ns 0 0 R 0 1 99999999999999999999999 4\n",
                      (const char *const[]){"field 7 (base)", "out of range", NULL});
    expect_text_error(f, "kernel k\ns 4294967296 0 R 0 1 0 4\n",
                      (const char *const[]){"field 2 (cta)", "out of range", NULL});
    expect_text_error(f, "kernel k\nt 0 0 R 0 0xf 0x10 4 3 8\n",
                      (const char *const[]){"field 9 (group)", "'3' is not 2, 4, 8 or 16", NULL});
    expect_text_error(f, "kernel k\nt 0 0 R 0 0xf 0x10 4 4\n",
                      (const char *const[]){"field 10 (stride2): missing", NULL});
    char longname[200];
    snprintf(longname, sizeof(longname), "kernel %0100d\n", 7);
    expect_text_error(f, longname, (const char *const[]){"field 2 (name)", "longer", NULL});
}

/* The shared validation rule (trace_rec_check, issue 11 items 1, 9, 12, 14): the 48-bit space,
 * 4 KB-aligned allocations, printable names, no control byte in a line. */
static void test_validation_rule(void **state) {
    fixture_t *f = *state;
    expect_text_error(f, "alloc a 0x1000 0x1000\nkernel k\ns 0 0 R 0 0x1 0x1000000001000 4\n",
                      (const char *const[]){"bad.trc:3:", "lane 0 address 0x1000000001000",
                                            "outside the 48-bit", NULL});
    expect_text_error(f, "alloc a 0xffffffff000 0x1000000000000\n",
                      (const char *const[]){"bad.trc:1:", "outside the 48-bit", NULL});
    expect_text_error(f, "alloc a 0x1000000000000 0x1000\n",
                      (const char *const[]){"bad.trc:1:", "outside the 48-bit", NULL});
    expect_text_error(f, "alloc a 0x1010 0x1000\n",
                      (const char *const[]){"bad.trc:1:", "not 4 KB-aligned", NULL});
    expect_text_error(f, "kernel k\x01x\n",
                      (const char *const[]){"bad.trc:1: column 9: control byte 0x01", NULL});
    static const char nul[] = "kernel k\0 junk\n";
    char p[300];
    snprintf(p, sizeof(p), "%s", tpath(f, "nul.trc"));
    write_file(p, nul, sizeof(nul) - 1);
    trace_rec_t r[4];
    char err[256];
    assert_int_equal(read_all(p, r, 4, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "control byte 0x00"));
    expect_text_error(f, "kernel k\xc3\xa9\n",
                      (const char *const[]){"field 2 (name)", "not printable", NULL});
    /* the last valid address and a whole-space allocation are accepted */
    static const char ok[] =
        "alloc a 0x0 0x1000000000000\nkernel k\nm 0 0 R 0 0x1 0xffffffffffff\n";
    snprintf(p, sizeof(p), "%s", tpath(f, "ok.trc"));
    write_file(p, ok, sizeof(ok) - 1);
    assert_int_equal(read_all(p, r, 4, err, sizeof(err)), 3);
}

/* exit records: "x cta warp" (text), type 6 + u32 cta + u32 warp (binary, 9 bytes) */
static const char *k_exits = "alloc a 0x7f0000000000 0x100000\n"
                             "kernel k\n"
                             "s 3 1 R 2 0xffffffff 0x7f0000000000 4\n"
                             "x 3 1\n"
                             "s 0 0 W 0 0xffffffff 0x7f0000000080 4\n"
                             "x\t0x10 0   # hex cta, comment\n"
                             "x 0 0\r\n"
                             "kernel k2\n"
                             "x 4294967295 4294967295\n"
                             "s 3 1 R 0 0xffffffff 0x7f0000000000 4\n"
                             "x 3 1\n";

static void test_exit_records(void **state) {
    fixture_t *f = *state;
    char p_txt[300], p_bin[300], p_txt2[300], p_bin2[300];
    snprintf(p_txt, sizeof(p_txt), "%s", tpath(f, "x.txt"));
    snprintf(p_bin, sizeof(p_bin), "%s", tpath(f, "x.bin"));
    snprintf(p_txt2, sizeof(p_txt2), "%s", tpath(f, "x2.txt"));
    snprintf(p_bin2, sizeof(p_bin2), "%s", tpath(f, "x2.bin"));
    write_file(p_txt, k_exits, strlen(k_exits));
    trace_rec_t a[16], b[16], c[16];
    char err[256];
    int n = read_all(p_txt, a, 16, err, sizeof(err));
    assert_int_equal(n, 11);
    assert_int_equal(a[3].kind, TRACE_REC_EXIT);
    assert_int_equal(a[3].cta, 3);
    assert_int_equal(a[3].warp, 1);
    assert_int_equal(a[3].line, 4);
    assert_int_equal(a[3].mask, 0);
    assert_int_equal(a[5].kind, TRACE_REC_EXIT);
    assert_int_equal(a[5].cta, 16);
    assert_int_equal(a[5].warp, 0);
    assert_int_equal(a[6].kind, TRACE_REC_EXIT);
    assert_int_equal(a[6].line, 7);
    assert_int_equal(a[8].kind, TRACE_REC_EXIT);
    assert_int_equal(a[8].cta, UINT32_MAX);
    assert_int_equal(a[8].warp, UINT32_MAX);
    /* text -> binary -> text -> binary: same records, byte-stable */
    size_t n1;
    char *x = round_trip(a, n, b, c, p_bin, p_txt2, p_bin2, &n1);
    /* positions are byte offsets in a binary trace, line numbers in a text one */
    trace_reader_t *rd = trace_open(p_bin, err, sizeof(err));
    assert_non_null(rd);
    assert_int_equal(trace_is_binary(rd), 1);
    trace_close(rd);
    rd = trace_open(p_txt, err, sizeof(err));
    assert_non_null(rd);
    assert_int_equal(trace_is_binary(rd), 0);
    trace_close(rd);
    /* header 8, alloc 19 + 1, kernel 2 + 1, strided 34: the first exit is at offset 65 */
    static const unsigned char exit31[9] = {6, 3, 0, 0, 0, 1, 0, 0, 0};
    assert_memory_equal(x + 65, exit31, 9);
    assert_int_equal(b[3].line, 65);
    assert_int_equal(b[4].line, 74);
    static const unsigned char exitmax[9] = {6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    assert_int_equal(b[8].line, 65 + 9 + 34 + 9 + 9 + 4);
    assert_memory_equal(x + b[8].line, exitmax, 9);
    /* 5 exits of 9 bytes, 3 strided records, alloc, 2 kernels, header and end */
    assert_int_equal(n1, 8 + 20 + 3 + 4 + 3 * 34 + 5 * 9 + 1);
    free(x);
    /* the text writer's form */
    char *t = read_file(p_txt2, &n1);
    assert_string_equal(t, "alloc a 0x7f0000000000 0x100000\n"
                           "kernel k\n"
                           "s 3 1 R 2 0xffffffff 0x7f0000000000 4\n"
                           "x 3 1\n"
                           "s 0 0 W 0 0xffffffff 0x7f0000000080 4\n"
                           "x 16 0\n"
                           "x 0 0\n"
                           "kernel k2\n"
                           "x 4294967295 4294967295\n"
                           "s 3 1 R 0 0xffffffff 0x7f0000000000 4\n"
                           "x 3 1\n");
    free(t);
}

static void test_malformed_exit(void **state) {
    fixture_t *f = *state;
    expect_text_error(f, "kernel k\nx 3\n",
                      (const char *const[]){"bad.trc:2: field 3 (warp): missing", NULL});
    expect_text_error(f, "kernel k\nx\n",
                      (const char *const[]){"bad.trc:2: field 2 (cta): missing", NULL});
    expect_text_error(f, "kernel k\nx c 1\n",
                      (const char *const[]){"bad.trc:2: field 2 (cta): 'c' is not a number", NULL});
    expect_text_error(
        f, "kernel k\nx 0 0x1q\n",
        (const char *const[]){"bad.trc:2: field 3 (warp): '0x1q' is not a number", NULL});
    expect_text_error(
        f, "kernel k\n\nx 3 1 7\n",
        (const char *const[]){"bad.trc:3: field 4 (end): unexpected extra field '7'", NULL});
    expect_text_error(f, "kernel k\nx 0 0 R 0 0x1 0x10\n",
                      (const char *const[]){":2: field 4 (end): unexpected extra field 'R'", NULL});
    expect_text_error(f, "kernel k\nx 4294967296 0\n",
                      (const char *const[]){":2: field 2 (cta)", "out of range", NULL});
    expect_text_error(f, "kernel k\nx 0 -1\n",
                      (const char *const[]){":2: field 3 (warp)", "not a number", NULL});
}

/* Binary trace helpers */
static size_t bin_header(unsigned char *p) {
    memcpy(p, "GMTB\1\0\0\0", 8);
    return 8;
}

static void expect_bin_error(fixture_t *f, const unsigned char *data, size_t n, const char *want) {
    write_file(tpath(f, "bad.bin"), data, n);
    char err[512] = "";
    trace_rec_t recs[8];
    int rc = read_all(f->path, recs, 8, err, sizeof(err));
    if (rc >= 0)
        fail_msg("no error, expected '%s'", want);
    if (!strstr(err, want))
        fail_msg("error '%s' lacks '%s'", err, want);
}

static void test_malformed_binary(void **state) {
    fixture_t *f = *state;
    unsigned char b[256];
    size_t n = bin_header(b);
    b[n++] = 2; /* kernel "k" */
    b[n++] = 1;
    b[n++] = 'k';
    size_t after_kernel = n;
    /* missing end record */
    expect_bin_error(f, b, n, "bad.bin:offset 11: truncated trace: end of data without end record");
    /* truncated mem record */
    unsigned char rec[] = {3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0x10, 0, 0, 0};
    memcpy(b + n, rec, sizeof(rec));
    n += sizeof(rec);
    expect_bin_error(f, b, n, "offset 11: truncated record (type 3)");
    /* truncated exit record: type 6 needs 8 more bytes (cta, warp) */
    static const unsigned char ex[] = {6, 1, 0, 0, 0, 2, 0, 0};
    for (size_t cut = 1; cut <= sizeof(ex); cut++) {
        n = after_kernel;
        memcpy(b + n, ex, cut);
        n += cut;
        expect_bin_error(f, b, n, "bad.bin:offset 11: truncated record (type 6)");
    }
    /* a complete exit record followed by a truncated one */
    n = after_kernel;
    memcpy(b + n, ex, sizeof(ex));
    n += sizeof(ex);
    b[n++] = 0;
    memcpy(b + n, ex, 3);
    n += 3;
    expect_bin_error(f, b, n, "bad.bin:offset 20: truncated record (type 6)");
    /* unknown record type */
    n = after_kernel;
    b[n++] = 12; /* 8..11 are the host calls (test_trace_host.c) */
    expect_bin_error(f, b, n, "offset 11: unknown record type 0x0c");
    /* bad op */
    n = after_kernel;
    unsigned char badop[] = {4, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 1, 0, 0, 0};
    memcpy(b + n, badop, sizeof(badop));
    n += sizeof(badop);
    memset(b + n, 0, 16);
    n += 16;
    b[n++] = 0xff;
    expect_bin_error(f, b, n, "offset 11: op 7");
    /* data after the end record */
    n = after_kernel;
    b[n++] = 0xff;
    b[n++] = 0;
    expect_bin_error(f, b, n, "data after the end record");
    /* bad version */
    memcpy(b, "GMTB\2\0\0\0", 8);
    expect_bin_error(f, b, 8, "unsupported binary version 2");
    /* well-formed: header + kernel + end reads fine */
    n = bin_header(b);
    b[n++] = 2;
    b[n++] = 1;
    b[n++] = 'k';
    b[n++] = 0xff;
    write_file(tpath(f, "ok.bin"), b, n);
    char err[256];
    trace_rec_t recs[2];
    assert_int_equal(read_all(f->path, recs, 2, err, sizeof(err)), 1);
    /* header + kernel + exit (cta 0x04030201, warp 7) + end */
    n = after_kernel;
    static const unsigned char ex2[] = {6, 1, 2, 3, 4, 7, 0, 0, 0, 0xff};
    memcpy(b + n, ex2, sizeof(ex2));
    n += sizeof(ex2);
    write_file(tpath(f, "ok.bin"), b, n);
    assert_int_equal(read_all(f->path, recs, 2, err, sizeof(err)), 2);
    assert_int_equal(recs[1].kind, TRACE_REC_EXIT);
    assert_int_equal(recs[1].cta, 0x04030201);
    assert_int_equal(recs[1].warp, 7);
    assert_int_equal(recs[1].line, 11);
}

static void test_truncated_written_binary(void **state) {
    fixture_t *f = *state;
    const char *samples[] = {k_sample, k_exits};
    for (size_t s = 0; s < 2; s++) {
        write_file(tpath(f, "s.txt"), samples[s], strlen(samples[s]));
        trace_rec_t a[16];
        char err[256];
        int n = read_all(f->path, a, 16, err, sizeof(err));
        assert_true(n > 0);
        write_all(tpath(f, "full.bin"), 1, a, n);
        size_t len;
        char *data = read_file(f->path, &len);
        /* every strict prefix of the file is an error (never a silently shorter trace) */
        for (size_t cut = 0; cut < len; cut++) {
            write_file(tpath(f, "cut.bin"), data, cut);
            trace_rec_t tmp[16];
            int rc = read_all(f->path, tmp, 16, err, sizeof(err));
            if (cut < 4) /* shorter than the magic: read as (malformed) text */
                continue;
            if (rc >= 0)
                fail_msg("sample %zu: prefix of %zu bytes accepted", s, cut);
        }
        free(data);
    }
}

static void test_writer_rejects(void **state) {
    fixture_t *f = *state;
    char err[256];
    trace_writer_t *w = trace_create(tpath(f, "w.txt"), 0, err, sizeof(err));
    assert_non_null(w);
    trace_rec_t r;
    memset(&r, 0, sizeof(r));
    r.kind = TRACE_REC_MEM;
    r.mask = 0;
    assert_int_equal(trace_write(w, &r, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "no active lane"));
    r.kind = TRACE_REC_KERNEL;
    strcpy(r.name, "has blank");
    assert_int_equal(trace_write(w, &r, err, sizeof(err)), -1);
    assert_int_equal(trace_finish(w, err, sizeof(err)), 0);
    assert_null(trace_create(tpath(f, "no/such/dir/x"), 0, err, sizeof(err)));
    assert_null(trace_open(tpath(f, "missing"), err, sizeof(err)));
    assert_non_null(strstr(err, "cannot open"));
}

static void test_xz(void **state) {
    fixture_t *f = *state;
    if (system("xz --version >/dev/null 2>&1") != 0)
        skip();
    write_file(tpath(f, "s.txt"), k_sample, strlen(k_sample));
    trace_rec_t a[16], b[16], c[16];
    char err[256];
    int n = read_all(f->path, a, 16, err, sizeof(err));
    write_all(tpath(f, "s.trc.xz"), 1, a, n);
    assert_int_equal(read_all(f->path, b, 16, err, sizeof(err)), n);
    write_all(tpath(f, "s.txt.xz"), 0, a, n);
    assert_int_equal(read_all(f->path, c, 16, err, sizeof(err)), n);
    for (int i = 0; i < n; i++) {
        assert_rec_equal(&a[i], &b[i]);
        assert_rec_equal(&a[i], &c[i]);
    }
    /* corrupt .xz */
    write_file(tpath(f, "bad.xz"), "not xz at all", 13);
    int rc = read_all(f->path, b, 16, err, sizeof(err));
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err, "xz"));
}

static void test_empty_text(void **state) {
    fixture_t *f = *state;
    write_file(tpath(f, "e.txt"), "# nothing\n\n", 11);
    trace_rec_t r[1];
    char err[256];
    assert_int_equal(read_all(f->path, r, 1, err, sizeof(err)), 0);
    write_file(tpath(f, "e2.txt"), "", 0);
    assert_int_equal(read_all(f->path, r, 1, err, sizeof(err)), 0);
    /* last line without newline */
    write_file(tpath(f, "e3.txt"), "kernel k", 8);
    assert_int_equal(read_all(f->path, r, 1, err, sizeof(err)), 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_text_parse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_malformed_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_validation_rule, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exit_records, setup, teardown),
        cmocka_unit_test_setup_teardown(test_malformed_exit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_malformed_binary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_truncated_written_binary, setup, teardown),
        cmocka_unit_test_setup_teardown(test_writer_rejects, setup, teardown),
        cmocka_unit_test_setup_teardown(test_xz, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty_text, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
