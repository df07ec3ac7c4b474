/*
 * fuzz_util.h - helpers shared by the libFuzzer harnesses of tb/fuzz/ (docs/verification.md,
 * "Fuzzing"): the fuzz input written to a per-process scratch file (the readers under test take
 * a path), argv built from the input, and the check that an error message is not empty.
 * Test code only (not linked into any tool).
 */
#ifndef GMMU_FUZZ_UTIL_H
#define GMMU_FUZZ_UTIL_H

#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The scratch file of this process for harness `tag` with suffix `ext` into buf. */
static inline void fuzz_path(char *buf, size_t len, const char *tag, const char *ext) {
    const char *dir = getenv("GMMU_FUZZ_TMP");
    snprintf(buf, len, "%s/gmmu-fuzz-%s-%ld%s", dir ? dir : "/tmp", tag, (long)getpid(), ext);
}

/* Writes data (plus an optional prefix) to path. 0 or -1. */
static inline int fuzz_write_file(const char *path, const void *prefix, size_t plen,
                                  const uint8_t *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = (plen == 0 || fwrite(prefix, 1, plen, f) == plen) &&
             (size == 0 || fwrite(data, 1, size, f) == size);
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

/* An error reported by the code under test must say something: an empty message is a bug. */
static inline void fuzz_check_msg(const char *what, const char *err) {
    if (err[0] == '\0') {
        fprintf(stderr, "fuzz: %s failed with an empty error message\n", what);
        abort();
    }
}

#define FUZZ_ARGV_MAX 32
#define FUZZ_ARG_LEN 256

/* argv[0] = prog, then the input split at NUL and newline bytes (at most FUZZ_ARGV_MAX - 2
 * arguments of FUZZ_ARG_LEN - 1 bytes). Every '/' becomes '_' so that a path names a file of
 * the current (scratch) directory only. Returns argc; argv[argc] = NULL. */
static inline int fuzz_argv(const uint8_t *data, size_t size, const char *prog,
                            char store[FUZZ_ARGV_MAX][FUZZ_ARG_LEN], char *argv[FUZZ_ARGV_MAX]) {
    int argc = 0;
    snprintf(store[0], FUZZ_ARG_LEN, "%s", prog);
    argv[argc++] = store[0];
    size_t i = 0;
    while (i < size && argc < FUZZ_ARGV_MAX - 1) {
        size_t n = 0;
        while (i < size && data[i] != 0 && data[i] != '\n') {
            if (n < FUZZ_ARG_LEN - 1)
                store[argc][n++] = data[i] == '/' ? '_' : (char)data[i];
            i++;
        }
        store[argc][n] = '\0';
        argv[argc] = store[argc];
        argc++;
        i++; /* the separator */
    }
    argv[argc] = NULL;
    return argc;
}

#endif
