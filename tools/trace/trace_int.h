/*
 * trace_int.h - internals shared by the files of the trace library (tools/trace/trace_*.c):
 * binary record types, the reader's state, helpers. Not part of the API (trace.h).
 */
#ifndef GMMU_TRACE_INT_H
#define GMMU_TRACE_INT_H

#include "err.h"
#include "trace.h"

#include <stdio.h>

#define TRACE_MAGIC "GMTB"
#define TRACE_VERSION 1u
#define TRACE_BIN_ALLOC 1
#define TRACE_BIN_KERNEL 2
#define TRACE_BIN_MEM_LIST 3
#define TRACE_BIN_MEM_STRIDED 4
#define TRACE_BIN_MEM_TILE 5
#define TRACE_BIN_EXIT 6
#define TRACE_BIN_SPACE 7 /* u8 space: address space of the following records */
/* host calls: u64 base, u64 size, u8 advice / destination / op (0 R, 1 W); free: u8 namelen, name
 */
#define TRACE_BIN_ADVISE 8
#define TRACE_BIN_PREFETCH 9
#define TRACE_BIN_FREE 10
#define TRACE_BIN_CPU 11
#define TRACE_BIN_RANGE_BYTES 18 /* type, base, size, argument byte */
#define TRACE_BIN_END 0xff
#define TRACE_BUF_SIZE (1u << 16)
#define TRACE_LINE_MAX 4096
#define TRACE_MAX_FIELDS (7 + TRACE_LANES)

typedef enum { SRC_FILE, SRC_PIPE, SRC_STDIO } trace_src_t;

struct trace_reader {
    FILE *f;
    trace_src_t src;
    char *path;
    int binary;
    int done;
    unsigned char buf[TRACE_BUF_SIZE];
    size_t pos, len; /* valid bytes are buf[pos..len) */
    int eof;         /* the underlying stream reached its end */
    uint64_t offset; /* byte offset of buf[pos] in the (decompressed) stream */
    uint64_t line;   /* text: number of the line last read */
    uint32_t space;  /* address space set by the last `space` record (0 before any) */
    char text[TRACE_LINE_MAX + 2];
};

char *trace_strdup(const char *s);
int trace_ends_with(const char *s, const char *suffix);
/* "prefix 'path' suffix" with the path single-quoted (malloc'ed; NULL when out of memory). */
char *trace_shell_cmd(const char *prefix, const char *path, const char *suffix);
/* Closes the stream; returns 0, or -1 when a pipe's command failed. */
int trace_close_stream(FILE *f, trace_src_t src);
/* "R", "W", "A" */
const char *trace_op_name(trace_op_t op);
/* Fills the active lanes: lane i accesses base + (i % group)*stride + (i / group)*stride2
 * (modulo 2^64). group = TRACE_LANES gives the 1-D strided form. */
void trace_expand(trace_rec_t *rec, uint64_t base, int64_t stride, int group, int64_t stride2);

static inline int trace_popcount(uint32_t m) {
    int n = 0;
    while (m) {
        m &= m - 1;
        n++;
    }
    return n;
}

static inline int trace_valid_group(uint64_t g) {
    return g == 2 || g == 4 || g == 8 || g == 16;
}

/* reader (trace_read.c): ensures at least n bytes are buffered (n <= TRACE_BUF_SIZE); returns the
 * number available */
size_t trace_rd_fill(trace_reader_t *r, size_t n);
/* reader: called when the stream ended normally; reports a failed decompressor */
int trace_rd_finish_stream(trace_reader_t *r, char *err, size_t errlen);
/* text reader (trace_text.c): next record, as trace_next */
int trace_rd_text(trace_reader_t *r, trace_rec_t *rec, char *err, size_t errlen);

#endif
