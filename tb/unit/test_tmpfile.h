/*
 * test_tmpfile.h - a temporary file holding a given text, for the cmocka tests (the caller
 * unlinks it). Header-only: included by the tests that need it.
 */
#ifndef TEST_TMPFILE_H
#define TEST_TMPFILE_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* path (at least 64 bytes) receives "/tmp/<prefix>_XXXXXX" made unique; text is written to it. */
static void test_write_tmp(char *path, const char *prefix, const char *text) {
    snprintf(path, 64, "/tmp/%s_XXXXXX", prefix);
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

#endif
