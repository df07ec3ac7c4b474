/*
 * test_trace_out.c - cmocka tests of where the trace tools write an output file
 * (tools/trace/trace_out.c, issue 26): a new name and a regular file through a temporary file
 * renamed over it; a symbolic link followed (the link stays); a character device, a FIFO and a
 * dangling link written in place; a failed output removes only the temporary file.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "trace_out.h"

typedef struct {
    char dir[64];
    char path[4][128];
} tdir_t;

static char *in_dir(tdir_t *d, int i, const char *name) {
    snprintf(d->path[i], sizeof d->path[i], "%s/%s", d->dir, name);
    return d->path[i];
}

static int setup(void **state) {
    tdir_t *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    snprintf(d->dir, sizeof d->dir, "/tmp/test_trace_out_XXXXXX");
    if (!mkdtemp(d->dir)) {
        free(d);
        return -1;
    }
    *state = d;
    return 0;
}

static int teardown(void **state) {
    tdir_t *d = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d->dir);
    const int rc = system(cmd);
    free(d);
    return rc == 0 ? 0 : -1;
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void read_text(const char *path, char *buf, size_t n) {
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    const size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    fclose(f);
}

/* a new name and a regular file: a temporary file beside it, renamed over it; a failure removes
 * the temporary file and leaves the old file */
static void test_regular_file(void **state) {
    tdir_t *d = *state;
    char err[256], buf[64];
    trace_out_t o;
    const char *out = in_dir(d, 0, "new.trc");
    const char *w = trace_out_begin(&o, out, err, sizeof err);
    assert_non_null(w);
    assert_false(trace_out_in_place(&o));
    assert_string_not_equal(w, out);
    write_text(w, "new");
    assert_int_equal(trace_out_end(&o, 1, err, sizeof err), 0);
    read_text(out, buf, sizeof buf);
    assert_string_equal(buf, "new");
    /* a failed run over an existing file: the old content stays, no temporary is left */
    w = trace_out_begin(&o, out, err, sizeof err);
    assert_non_null(w);
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s", w);
    write_text(tmp, "partial");
    assert_int_equal(trace_out_end(&o, 0, err, sizeof err), 0);
    read_text(out, buf, sizeof buf);
    assert_string_equal(buf, "new");
    assert_int_not_equal(access(tmp, F_OK), 0);
}

/* .xz: the temporary name keeps the suffix (the writer compresses by name) */
static void test_xz_suffix(void **state) {
    tdir_t *d = *state;
    char err[256];
    trace_out_t o;
    const char *w = trace_out_begin(&o, in_dir(d, 0, "t.trc.xz"), err, sizeof err);
    assert_non_null(w);
    assert_string_equal(w + strlen(w) - 3, ".xz");
    assert_int_equal(trace_out_end(&o, 0, err, sizeof err), 0);
}

/* a symbolic link to a regular file: the temporary file beside the target, the link stays */
static void test_symlink_followed(void **state) {
    tdir_t *d = *state;
    char err[256], buf[64];
    trace_out_t o;
    const char *target = in_dir(d, 0, "target.trc"), *link = in_dir(d, 1, "link.trc");
    write_text(target, "old");
    assert_int_equal(symlink("target.trc", link), 0);
    const char *w = trace_out_begin(&o, link, err, sizeof err);
    assert_non_null(w);
    assert_false(trace_out_in_place(&o));
    write_text(w, "new");
    assert_int_equal(trace_out_end(&o, 1, err, sizeof err), 0);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    read_text(target, buf, sizeof buf);
    assert_string_equal(buf, "new");
}

/* a character device, a FIFO, a dangling link, stdout: written in place, never removed */
static void test_in_place(void **state) {
    tdir_t *d = *state;
    char err[256];
    trace_out_t o;
    const char *fifo = in_dir(d, 0, "fifo"), *dang = in_dir(d, 1, "dangling.trc");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(symlink("nowhere.trc", dang), 0);
    const char *const cases[] = {"/dev/null", "/dev/full", fifo, dang, "-"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *w = trace_out_begin(&o, cases[i], err, sizeof err);
        assert_non_null(w);
        assert_true(trace_out_in_place(&o));
        assert_string_equal(w, cases[i]);
        assert_int_equal(trace_out_end(&o, 0, err, sizeof err), 0); /* a failure: nothing removed */
    }
    struct stat st;
    assert_int_equal(stat("/dev/full", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(stat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(lstat(dang, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_regular_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_xz_suffix, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symlink_followed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_in_place, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
