/*
 * trace.c - reader/writer of the project's trace format (docs/trace-format.md).
 *
 * Text and binary encodings, detected from the first four bytes ("GMTB" = binary). xz-compressed
 * input (name ending in ".xz" or xz magic bytes) is read through "xz -dc"; a writer whose path ends
 * in ".xz" compresses through "xz -c". "-" is stdin / stdout. No global state: every reader and
 * writer owns its buffers. Parsing is strict: any malformed record is an error with its position.
 */
#define _POSIX_C_SOURCE 200809L

#include "trace.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define TRACE_MAGIC "GMTB"
#define TRACE_VERSION 1u
#define TRACE_BIN_ALLOC 1
#define TRACE_BIN_KERNEL 2
#define TRACE_BIN_MEM_LIST 3
#define TRACE_BIN_MEM_STRIDED 4
#define TRACE_BIN_MEM_TILE 5
#define TRACE_BIN_EXIT 6
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
    char text[TRACE_LINE_MAX + 2];
};

struct trace_writer {
    FILE *f;
    trace_src_t src;
    char *path;
    int binary;
    uint64_t records;
    unsigned char out[16 + 8 * TRACE_LANES + TRACE_NAME_MAX + 16];
};

/* ------------------------------------------------------------------------------------------ */
/* helpers */

static void trace_errf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void trace_errf(char *err, size_t errlen, const char *fmt, ...) {
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static char *trace_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int trace_popcount(uint32_t m) {
    int n = 0;
    while (m) {
        m &= m - 1;
        n++;
    }
    return n;
}

static int trace_ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Builds a shell command "prefix 'path' suffix" with the path single-quoted. */
static char *trace_shell_cmd(const char *prefix, const char *path, const char *suffix) {
    size_t n = strlen(prefix) + strlen(suffix) + 4 * strlen(path) + 8;
    char *cmd = malloc(n);
    if (!cmd)
        return NULL;
    char *p = cmd;
    p += sprintf(p, "%s'", prefix);
    for (const char *s = path; *s; s++) {
        if (*s == '\'') {
            memcpy(p, "'\\''", 4);
            p += 4;
        } else {
            *p++ = *s;
        }
    }
    sprintf(p, "'%s", suffix);
    return cmd;
}

/* Closes the stream; returns 0, or -1 when a pipe's command failed. */
static int trace_close_stream(FILE *f, trace_src_t src) {
    if (!f)
        return 0;
    if (src == SRC_PIPE) {
        int st = pclose(f);
        if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return -1;
        return 0;
    }
    if (src == SRC_FILE)
        return fclose(f) == 0 ? 0 : -1;
    return 0;
}

static const char *trace_op_name(trace_op_t op) {
    switch (op) {
    case TRACE_OP_READ:
        return "R";
    case TRACE_OP_WRITE:
        return "W";
    case TRACE_OP_ATOMIC:
        return "A";
    }
    return "?";
}

static int trace_valid_group(uint64_t g) {
    return g == 2 || g == 4 || g == 8 || g == 16;
}

/* Fills the active lanes: lane i accesses base + (i % group)*stride + (i / group)*stride2
 * (modulo 2^64). group = TRACE_LANES gives the 1-D strided form. */
static void trace_expand(trace_rec_t *rec, uint64_t base, int64_t stride, int group,
                         int64_t stride2) {
    for (int i = 0; i < TRACE_LANES; i++)
        if (rec->mask >> i & 1u)
            rec->addr[i] = base + (uint64_t)(i % group) * (uint64_t)stride +
                           (uint64_t)(i / group) * (uint64_t)stride2;
}

/* ------------------------------------------------------------------------------------------ */
/* reader: buffered input */

/* Ensures at least n bytes are buffered (n <= TRACE_BUF_SIZE); returns the number available. */
static size_t rd_fill(trace_reader_t *r, size_t n) {
    if (r->len - r->pos >= n || r->eof)
        return r->len - r->pos;
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
    }
    while (r->len < n && !r->eof) {
        size_t got = fread(r->buf + r->len, 1, TRACE_BUF_SIZE - r->len, r->f);
        r->len += got;
        if (got == 0)
            r->eof = 1;
    }
    return r->len - r->pos;
}

trace_reader_t *trace_open(const char *path, char *err, size_t errlen) {
    if (!path) {
        trace_errf(err, errlen, "(null): no trace path");
        return NULL;
    }
    trace_reader_t *r = calloc(1, sizeof(*r));
    if (!r) {
        trace_errf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    r->path = trace_strdup(path);
    if (!r->path) {
        free(r);
        trace_errf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    if (strcmp(path, "-") == 0) {
        r->f = stdin;
        r->src = SRC_STDIO;
    } else {
        r->f = fopen(path, "rb");
        r->src = SRC_FILE;
        if (!r->f) {
            trace_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
            trace_close(r);
            return NULL;
        }
        static const unsigned char xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0};
        unsigned char head[6];
        size_t got = fread(head, 1, sizeof(head), r->f);
        int is_xz = (got == sizeof(head) && memcmp(head, xz_magic, sizeof(head)) == 0) ||
                    trace_ends_with(path, ".xz");
        if (is_xz) {
            fclose(r->f);
            r->f = NULL;
            char *cmd = trace_shell_cmd("xz -dc ", path, "");
            if (cmd)
                r->f = popen(cmd, "r");
            free(cmd);
            if (!r->f) {
                trace_errf(err, errlen, "%s: cannot run xz -dc: %s", path, strerror(errno));
                trace_close(r);
                return NULL;
            }
            r->src = SRC_PIPE;
        } else {
            memcpy(r->buf, head, got);
            r->len = got;
        }
    }
    size_t avail = rd_fill(r, 8);
    if (r->src == SRC_PIPE && avail == 0) {
        /* an empty decompressed stream is an empty text trace unless xz failed */
        FILE *f = r->f;
        r->f = NULL;
        if (trace_close_stream(f, SRC_PIPE) != 0) {
            trace_errf(err, errlen, "%s: xz -dc failed (not a valid .xz file?)", path);
            trace_close(r);
            return NULL;
        }
        r->src = SRC_STDIO; /* nothing left to close */
    }
    if (avail >= 4 && memcmp(r->buf + r->pos, TRACE_MAGIC, 4) == 0) {
        r->binary = 1;
        if (avail < 8) {
            trace_errf(err, errlen, "%s:offset 4: truncated header (missing version)", path);
            trace_close(r);
            return NULL;
        }
        const unsigned char *v = r->buf + r->pos + 4;
        uint32_t ver =
            (uint32_t)v[0] | (uint32_t)v[1] << 8 | (uint32_t)v[2] << 16 | (uint32_t)v[3] << 24;
        if (ver != TRACE_VERSION) {
            trace_errf(err, errlen, "%s:offset 4: unsupported binary version %u (expected %u)",
                       path, ver, TRACE_VERSION);
            trace_close(r);
            return NULL;
        }
        r->pos += 8;
        r->offset = 8;
    }
    return r;
}

void trace_close(trace_reader_t *r) {
    if (!r)
        return;
    if (r->f) {
        if (r->src == SRC_PIPE) {
            /* drain so that xz does not die of SIGPIPE noise; ignore its status */
            pclose(r->f);
        } else if (r->src == SRC_FILE) {
            fclose(r->f);
        }
    }
    free(r->path);
    free(r);
}

int trace_is_binary(const trace_reader_t *r) {
    return r && r->binary;
}

/* Called when the stream ended normally; reports a failed decompressor. */
static int rd_finish_stream(trace_reader_t *r, char *err, size_t errlen) {
    if (r->src == SRC_PIPE && r->f) {
        FILE *f = r->f;
        r->f = NULL;
        if (trace_close_stream(f, SRC_PIPE) != 0) {
            trace_errf(err, errlen, "%s: xz -dc failed (corrupt or truncated .xz file)", r->path);
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* reader: text */

/* Reads one line into r->text (without the newline). 1: line, 0: EOF, -1: error. */
static int rd_line(trace_reader_t *r, char *err, size_t errlen) {
    size_t n = 0;
    for (;;) {
        if (r->pos == r->len && rd_fill(r, 1) == 0) {
            if (n == 0)
                return 0;
            break; /* last line without newline */
        }
        unsigned char *start = r->buf + r->pos;
        size_t avail = r->len - r->pos;
        unsigned char *nl = memchr(start, '\n', avail);
        size_t take = nl ? (size_t)(nl - start) : avail;
        if (n + take > TRACE_LINE_MAX) {
            trace_errf(err, errlen, "%s:%llu: line longer than %d characters", r->path,
                       (unsigned long long)(r->line + 1), TRACE_LINE_MAX);
            return -1;
        }
        memcpy(r->text + n, start, take);
        n += take;
        r->pos += take + (nl ? 1 : 0);
        if (nl)
            break;
    }
    r->text[n] = '\0';
    r->line++;
    return 1;
}

/* Parses an unsigned decimal or 0x-hex number; 0 on success. */
static int parse_u64(const char *s, uint64_t *out) {
    uint64_t v = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        if (!*s)
            return -1;
        for (; *s; s++) {
            int d;
            if (*s >= '0' && *s <= '9')
                d = *s - '0';
            else if (*s >= 'a' && *s <= 'f')
                d = *s - 'a' + 10;
            else if (*s >= 'A' && *s <= 'F')
                d = *s - 'A' + 10;
            else
                return -1;
            if (v >> 60)
                return -2;
            v = v << 4 | (uint64_t)d;
        }
    } else {
        if (!*s)
            return -1;
        for (; *s; s++) {
            if (*s < '0' || *s > '9')
                return -1;
            uint64_t d = (uint64_t)(*s - '0');
            if (v > (UINT64_MAX - d) / 10)
                return -2;
            v = v * 10 + d;
        }
    }
    *out = v;
    return 0;
}

typedef struct {
    trace_reader_t *r;
    char *err;
    size_t errlen;
} field_ctx_t;

static int field_err(field_ctx_t *c, int idx, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int field_err(field_ctx_t *c, int idx, const char *name, const char *fmt, ...) {
    char reason[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof(reason), fmt, ap);
    va_end(ap);
    trace_errf(c->err, c->errlen, "%s:%llu: field %d (%s): %s", c->r->path,
               (unsigned long long)c->r->line, idx + 1, name, reason);
    return -1;
}

static int field_u64(field_ctx_t *c, char **tok, int ntok, int idx, const char *name, uint64_t max,
                     uint64_t *out) {
    if (idx >= ntok)
        return field_err(c, idx, name, "missing");
    int rc = parse_u64(tok[idx], out);
    if (rc == -1)
        return field_err(c, idx, name, "'%s' is not a number", tok[idx]);
    if (rc == -2 || *out > max)
        return field_err(c, idx, name, "'%s' is out of range (max 0x%llx)", tok[idx],
                         (unsigned long long)max);
    return 0;
}

static int field_i64(field_ctx_t *c, char **tok, int ntok, int idx, const char *name,
                     int64_t *out) {
    if (idx >= ntok)
        return field_err(c, idx, name, "missing");
    const char *s = tok[idx];
    int neg = 0;
    if (*s == '-' || *s == '+') {
        neg = *s == '-';
        s++;
    }
    uint64_t v;
    int rc = parse_u64(s, &v);
    if (rc == -1)
        return field_err(c, idx, name, "'%s' is not a number", tok[idx]);
    if (rc == -2 || v > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
        return field_err(c, idx, name, "'%s' is out of range", tok[idx]);
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

static int field_name(field_ctx_t *c, char **tok, int ntok, int idx, char *out) {
    if (idx >= ntok)
        return field_err(c, idx, "name", "missing");
    size_t n = strlen(tok[idx]);
    if (n >= TRACE_NAME_MAX)
        return field_err(c, idx, "name", "longer than %d characters", TRACE_NAME_MAX - 1);
    memcpy(out, tok[idx], n + 1);
    return 0;
}

/* fields 1 and 2 of a memory or exit record */
static int field_cta_warp(field_ctx_t *c, char **tok, int ntok, trace_rec_t *rec) {
    uint64_t v;
    if (field_u64(c, tok, ntok, 1, "cta", UINT32_MAX, &v))
        return -1;
    rec->cta = (uint32_t)v;
    if (field_u64(c, tok, ntok, 2, "warp", UINT32_MAX, &v))
        return -1;
    rec->warp = (uint32_t)v;
    return 0;
}

static int rd_text_record(trace_reader_t *r, trace_rec_t *rec, char **tok, int ntok, char *err,
                          size_t errlen) {
    field_ctx_t c = {r, err, errlen};
    const char *kw = tok[0];
    memset(rec, 0, sizeof(*rec));
    rec->line = r->line;
    if (strcmp(kw, "alloc") == 0) {
        rec->kind = TRACE_REC_ALLOC;
        if (field_name(&c, tok, ntok, 1, rec->name) ||
            field_u64(&c, tok, ntok, 2, "base", UINT64_MAX, &rec->base) ||
            field_u64(&c, tok, ntok, 3, "size", UINT64_MAX, &rec->size))
            return -1;
        if (rec->size == 0)
            return field_err(&c, 3, "size", "allocation of 0 bytes");
        if (rec->base + rec->size < rec->base)
            return field_err(&c, 3, "size", "base + size overflows 64 bits");
        if (ntok > 4) {
            if (strcmp(tok[4], "ro") != 0)
                return field_err(&c, 4, "flags", "'%s' is not 'ro'", tok[4]);
            rec->readonly = 1;
        }
        if (ntok > 5)
            return field_err(&c, 5, "end", "unexpected extra field '%s'", tok[5]);
        return 1;
    }
    if (strcmp(kw, "kernel") == 0) {
        rec->kind = TRACE_REC_KERNEL;
        if (field_name(&c, tok, ntok, 1, rec->name))
            return -1;
        if (ntok > 2)
            return field_err(&c, 2, "end", "unexpected extra field '%s'", tok[2]);
        return 1;
    }
    if (strcmp(kw, "x") == 0) {
        rec->kind = TRACE_REC_EXIT;
        if (field_cta_warp(&c, tok, ntok, rec))
            return -1;
        if (ntok > 3)
            return field_err(&c, 3, "end", "unexpected extra field '%s'", tok[3]);
        return 1;
    }
    if (strcmp(kw, "m") == 0 || strcmp(kw, "s") == 0 || strcmp(kw, "t") == 0) {
        uint64_t v;
        rec->kind = TRACE_REC_MEM;
        if (field_cta_warp(&c, tok, ntok, rec))
            return -1;
        if (ntok <= 3)
            return field_err(&c, 3, "op", "missing");
        if (strcmp(tok[3], "R") == 0)
            rec->op = TRACE_OP_READ;
        else if (strcmp(tok[3], "W") == 0)
            rec->op = TRACE_OP_WRITE;
        else if (strcmp(tok[3], "A") == 0)
            rec->op = TRACE_OP_ATOMIC;
        else
            return field_err(&c, 3, "op", "'%s' is not R, W or A", tok[3]);
        if (field_u64(&c, tok, ntok, 4, "gap", UINT32_MAX, &v))
            return -1;
        rec->gap = (uint32_t)v;
        if (field_u64(&c, tok, ntok, 5, "mask", UINT32_MAX, &v))
            return -1;
        rec->mask = (uint32_t)v;
        if (rec->mask == 0)
            return field_err(&c, 5, "mask", "no active lane");
        int active = trace_popcount(rec->mask);
        if (kw[0] == 'm') {
            int naddr = ntok - 6;
            if (naddr != active)
                return field_err(&c, 6, "addr",
                                 "mask 0x%x has %d active lanes but %d addresses are given",
                                 rec->mask, active, naddr);
            int k = 6;
            for (int i = 0; i < TRACE_LANES; i++) {
                if (!(rec->mask >> i & 1u))
                    continue;
                if (field_u64(&c, tok, ntok, k, "addr", UINT64_MAX, &rec->addr[i]))
                    return -1;
                k++;
            }
        } else if (kw[0] == 's') {
            uint64_t base = 0;
            int64_t stride = 0;
            if (field_u64(&c, tok, ntok, 6, "base", UINT64_MAX, &base) ||
                field_i64(&c, tok, ntok, 7, "stride", &stride))
                return -1;
            if (ntok > 8)
                return field_err(&c, 8, "end", "unexpected extra field '%s'", tok[8]);
            trace_expand(rec, base, stride, TRACE_LANES, 0);
        } else {
            uint64_t base = 0, group = 0;
            int64_t stride = 0, stride2 = 0;
            if (field_u64(&c, tok, ntok, 6, "base", UINT64_MAX, &base) ||
                field_i64(&c, tok, ntok, 7, "stride", &stride) ||
                field_u64(&c, tok, ntok, 8, "group", UINT64_MAX, &group))
                return -1;
            if (!trace_valid_group(group))
                return field_err(&c, 8, "group", "'%s' is not 2, 4, 8 or 16", tok[8]);
            if (field_i64(&c, tok, ntok, 9, "stride2", &stride2))
                return -1;
            if (ntok > 10)
                return field_err(&c, 10, "end", "unexpected extra field '%s'", tok[10]);
            trace_expand(rec, base, stride, (int)group, stride2);
        }
        return 1;
    }
    trace_errf(err, errlen, "%s:%llu: field 1 (record): unknown record '%s'", r->path,
               (unsigned long long)r->line, kw);
    return -1;
}

static int rd_text(trace_reader_t *r, trace_rec_t *rec, char *err, size_t errlen) {
    for (;;) {
        int rc = rd_line(r, err, errlen);
        if (rc <= 0) {
            if (rc == 0 && rd_finish_stream(r, err, errlen) != 0)
                return -1;
            return rc;
        }
        char *tok[TRACE_MAX_FIELDS + 1];
        int ntok = 0;
        char *p = r->text;
        for (;;) {
            while (*p == ' ' || *p == '\t' || *p == '\r')
                p++;
            if (*p == '\0' || *p == '#')
                break;
            if (ntok == TRACE_MAX_FIELDS) {
                trace_errf(err, errlen, "%s:%llu: field %d: too many fields", r->path,
                           (unsigned long long)r->line, ntok + 1);
                return -1;
            }
            tok[ntok++] = p;
            while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '#')
                p++;
            if (*p == '#') {
                *p = '\0';
                break;
            }
            if (*p)
                *p++ = '\0';
        }
        if (ntok == 0)
            continue;
        return rd_text_record(r, rec, tok, ntok, err, errlen);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* reader: binary */

static uint64_t get_le(const unsigned char *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static int rd_binary(trace_reader_t *r, trace_rec_t *rec, char *err, size_t errlen) {
    if (r->done)
        return 0;
    uint64_t at = r->offset;
    size_t avail = rd_fill(r, 1);
    if (avail == 0) {
        trace_errf(err, errlen, "%s:offset %llu: truncated trace: end of data without end record",
                   r->path, (unsigned long long)at);
        return -1;
    }
    unsigned type = r->buf[r->pos];
    memset(rec, 0, sizeof(*rec));
    rec->line = at;
    size_t need;
    switch (type) {
    case TRACE_BIN_END:
        r->pos++;
        r->offset++;
        if (rd_fill(r, 1) != 0) {
            trace_errf(err, errlen, "%s:offset %llu: data after the end record", r->path,
                       (unsigned long long)r->offset);
            return -1;
        }
        r->done = 1;
        return rd_finish_stream(r, err, errlen) == 0 ? 0 : -1;
    case TRACE_BIN_ALLOC:
        need = 1 + 1 + 8 + 8 + 1;
        break;
    case TRACE_BIN_KERNEL:
        need = 1 + 1;
        break;
    case TRACE_BIN_EXIT:
        need = 1 + 4 + 4;
        break;
    case TRACE_BIN_MEM_LIST:
    case TRACE_BIN_MEM_STRIDED:
    case TRACE_BIN_MEM_TILE:
        need = 1 + 4 + 4 + 1 + 4 + 4;
        break;
    default:
        trace_errf(err, errlen, "%s:offset %llu: unknown record type 0x%02x", r->path,
                   (unsigned long long)at, type);
        return -1;
    }
    if (rd_fill(r, need) < need)
        goto truncated;
    const unsigned char *p = r->buf + r->pos;
    if (type == TRACE_BIN_ALLOC || type == TRACE_BIN_KERNEL) {
        size_t nl = p[need - 1];
        if (nl == 0 || nl >= TRACE_NAME_MAX) {
            trace_errf(err, errlen, "%s:offset %llu: name length %zu not in 1..%d", r->path,
                       (unsigned long long)at, nl, TRACE_NAME_MAX - 1);
            return -1;
        }
        if (rd_fill(r, need + nl) < need + nl)
            goto truncated;
        p = r->buf + r->pos;
        for (size_t i = 0; i < nl; i++) {
            unsigned char ch = p[need + i];
            if (ch <= ' ' || ch == '#' || ch >= 0x7f) {
                trace_errf(err, errlen, "%s:offset %llu: name byte %zu (0x%02x) is not printable",
                           r->path, (unsigned long long)at, i, ch);
                return -1;
            }
        }
        memcpy(rec->name, p + need, nl);
        rec->name[nl] = '\0';
        if (type == TRACE_BIN_ALLOC) {
            rec->kind = TRACE_REC_ALLOC;
            if (p[1] > 1) {
                trace_errf(err, errlen, "%s:offset %llu: readonly flag %u is not 0 or 1", r->path,
                           (unsigned long long)at, p[1]);
                return -1;
            }
            rec->readonly = p[1];
            rec->base = get_le(p + 2, 8);
            rec->size = get_le(p + 10, 8);
            if (rec->size == 0 || rec->base + rec->size < rec->base) {
                trace_errf(err, errlen, "%s:offset %llu: bad allocation size 0x%llx", r->path,
                           (unsigned long long)at, (unsigned long long)rec->size);
                return -1;
            }
        } else {
            rec->kind = TRACE_REC_KERNEL;
        }
        need += nl;
    } else if (type == TRACE_BIN_EXIT) {
        rec->kind = TRACE_REC_EXIT;
        rec->cta = (uint32_t)get_le(p + 1, 4);
        rec->warp = (uint32_t)get_le(p + 5, 4);
    } else {
        rec->kind = TRACE_REC_MEM;
        rec->cta = (uint32_t)get_le(p + 1, 4);
        rec->warp = (uint32_t)get_le(p + 5, 4);
        unsigned op = p[9];
        rec->gap = (uint32_t)get_le(p + 10, 4);
        rec->mask = (uint32_t)get_le(p + 14, 4);
        if (op > TRACE_OP_ATOMIC) {
            trace_errf(err, errlen, "%s:offset %llu: op %u is not 0 (R), 1 (W) or 2 (A)", r->path,
                       (unsigned long long)at, op);
            return -1;
        }
        rec->op = (trace_op_t)op;
        if (rec->mask == 0) {
            trace_errf(err, errlen, "%s:offset %llu: mask has no active lane", r->path,
                       (unsigned long long)at);
            return -1;
        }
        size_t extra = type == TRACE_BIN_MEM_LIST      ? 8u * (size_t)trace_popcount(rec->mask)
                       : type == TRACE_BIN_MEM_STRIDED ? 16u
                                                       : 25u;
        if (rd_fill(r, need + extra) < need + extra)
            goto truncated;
        p = r->buf + r->pos;
        if (type == TRACE_BIN_MEM_LIST) {
            const unsigned char *a = p + need;
            for (int i = 0; i < TRACE_LANES; i++)
                if (rec->mask >> i & 1u) {
                    rec->addr[i] = get_le(a, 8);
                    a += 8;
                }
        } else if (type == TRACE_BIN_MEM_STRIDED) {
            trace_expand(rec, get_le(p + need, 8), (int64_t)get_le(p + need + 8, 8), TRACE_LANES,
                         0);
        } else {
            unsigned group = p[need + 16];
            if (!trace_valid_group(group)) {
                trace_errf(err, errlen, "%s:offset %llu: tile group %u is not 2, 4, 8 or 16",
                           r->path, (unsigned long long)at, group);
                return -1;
            }
            trace_expand(rec, get_le(p + need, 8), (int64_t)get_le(p + need + 8, 8), (int)group,
                         (int64_t)get_le(p + need + 17, 8));
        }
        need += extra;
    }
    r->pos += need;
    r->offset += need;
    return 1;
truncated:
    trace_errf(err, errlen, "%s:offset %llu: truncated record (type %u)", r->path,
               (unsigned long long)at, type);
    return -1;
}

int trace_next(trace_reader_t *r, trace_rec_t *rec, char *err, size_t errlen) {
    if (!r || !rec) {
        trace_errf(err, errlen, "trace_next: null argument");
        return -1;
    }
    return r->binary ? rd_binary(r, rec, err, errlen) : rd_text(r, rec, err, errlen);
}

/* ------------------------------------------------------------------------------------------ */
/* writer */

trace_writer_t *trace_create(const char *path, int binary, char *err, size_t errlen) {
    if (!path) {
        trace_errf(err, errlen, "(null): no trace path");
        return NULL;
    }
    trace_writer_t *w = calloc(1, sizeof(*w));
    if (!w || !(w->path = trace_strdup(path))) {
        free(w);
        trace_errf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    w->binary = binary != 0;
    if (strcmp(path, "-") == 0) {
        w->f = stdout;
        w->src = SRC_STDIO;
    } else if (trace_ends_with(path, ".xz")) {
        char *cmd = trace_shell_cmd("xz -c -T1 > ", path, "");
        w->f = cmd ? popen(cmd, "w") : NULL;
        free(cmd);
        w->src = SRC_PIPE;
    } else {
        w->f = fopen(path, "wb");
        w->src = SRC_FILE;
    }
    if (!w->f) {
        trace_errf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        free(w->path);
        free(w);
        return NULL;
    }
    if (w->src != SRC_STDIO)
        setvbuf(w->f, NULL, _IOFBF, 1u << 16);
    if (w->binary) {
        unsigned char hdr[8] = {'G', 'M', 'T', 'B', TRACE_VERSION, 0, 0, 0};
        if (fwrite(hdr, 1, sizeof(hdr), w->f) != sizeof(hdr)) {
            trace_errf(err, errlen, "%s: write error: %s", path, strerror(errno));
            trace_close_stream(w->f, w->src);
            free(w->path);
            free(w);
            return NULL;
        }
    }
    return w;
}

static unsigned char *put_le(unsigned char *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++) {
        *p++ = (unsigned char)(v & 0xff);
        v >>= 8;
    }
    return p;
}

/* 1 if the active lanes are an arithmetic sequence of the lane index (at least 3 active lanes):
 * addr[i] = base + i*stride for every active lane i. */
static int trace_find_stride(const trace_rec_t *rec, uint64_t *base, int64_t *stride) {
    int first = -1, second = -1;
    for (int i = 0; i < TRACE_LANES; i++)
        if (rec->mask >> i & 1u) {
            if (first < 0)
                first = i;
            else {
                second = i;
                break;
            }
        }
    if (second < 0 || trace_popcount(rec->mask) < 3)
        return 0; /* with 1-2 lanes the list is as short and more readable */
    uint64_t d = rec->addr[second] - rec->addr[first];
    int64_t sd = (int64_t)d; /* two's complement; both conversions are well defined in gcc */
    int64_t span = second - first;
    if (sd % span != 0)
        return 0;
    int64_t s = sd / span;
    uint64_t b = rec->addr[first] - (uint64_t)first * (uint64_t)s;
    for (int i = second + 1; i < TRACE_LANES; i++)
        if ((rec->mask >> i & 1u) && rec->addr[i] != b + (uint64_t)i * (uint64_t)s)
            return 0;
    *base = b;
    *stride = s;
    return 1;
}

/* Exact signed quotient of the 64-bit difference a - b by span > 0; 0 if not exact. */
static int trace_exact_div(uint64_t a, uint64_t b, int64_t span, int64_t *q) {
    int64_t d = (int64_t)(a - b);
    if (d % span != 0)
        return 0;
    *q = d / span;
    return 1;
}

/* 1 if the active lanes (at least 4) form a tile of the lane index: addr[i] = base +
 * (i % g)*stride + (i / g)*stride2 for g in 16, 8, 4, 2 (first that fits). stride comes from the
 * first two active lanes of the first group holding two, stride2 from the first active lane
 * outside the first active lane's group. docs/trace-format.md states the same rule. */
static int trace_find_tile(const trace_rec_t *rec, uint64_t *base, int64_t *stride, int *group,
                           int64_t *stride2) {
    if (trace_popcount(rec->mask) < 4)
        return 0;
    int f = __builtin_ctz(rec->mask);
    for (int g = 16; g >= 2; g /= 2) {
        int i = -1, j = -1, k = -1;
        for (int l = 0; l < TRACE_LANES && j < 0; l++) {
            if (!(rec->mask >> l & 1u))
                continue;
            if (i >= 0 && l / g == i / g)
                j = l;
            else
                i = l;
        }
        for (int l = f + 1; l < TRACE_LANES; l++)
            if ((rec->mask >> l & 1u) && l / g != f / g) {
                k = l;
                break;
            }
        int64_t s1, s2;
        if (j < 0 || k < 0 || !trace_exact_div(rec->addr[j], rec->addr[i], j - i, &s1))
            continue;
        uint64_t ok = rec->addr[k] - (uint64_t)(k % g) * (uint64_t)s1;
        uint64_t of = rec->addr[f] - (uint64_t)(f % g) * (uint64_t)s1;
        if (!trace_exact_div(ok, of, k / g - f / g, &s2))
            continue;
        uint64_t b = of - (uint64_t)(f / g) * (uint64_t)s2;
        int fits = 1;
        for (int l = 0; l < TRACE_LANES && fits; l++)
            if ((rec->mask >> l & 1u) && rec->addr[l] != b + (uint64_t)(l % g) * (uint64_t)s1 +
                                                             (uint64_t)(l / g) * (uint64_t)s2)
                fits = 0;
        if (fits) {
            *base = b;
            *stride = s1;
            *group = g;
            *stride2 = s2;
            return 1;
        }
    }
    return 0;
}

static int valid_name(const char *name) {
    size_t n = strnlen(name, TRACE_NAME_MAX);
    if (n == 0 || n >= TRACE_NAME_MAX)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)name[i];
        if (ch <= ' ' || ch == '#' || ch >= 0x7f)
            return 0;
    }
    return 1;
}

int trace_write(trace_writer_t *w, const trace_rec_t *rec, char *err, size_t errlen) {
    if (!w || !rec) {
        trace_errf(err, errlen, "trace_write: null argument");
        return -1;
    }
    uint64_t n = w->records + 1;
    int ok = 1;
    switch (rec->kind) {
    case TRACE_REC_ALLOC:
    case TRACE_REC_KERNEL:
        if (!valid_name(rec->name)) {
            trace_errf(err, errlen,
                       "%s: record %llu: name must be 1..%d printable characters without blanks "
                       "or '#'",
                       w->path, (unsigned long long)n, TRACE_NAME_MAX - 1);
            return -1;
        }
        if (rec->kind == TRACE_REC_ALLOC && (rec->size == 0 || rec->base + rec->size < rec->base)) {
            trace_errf(err, errlen, "%s: record %llu: bad allocation size 0x%llx", w->path,
                       (unsigned long long)n, (unsigned long long)rec->size);
            return -1;
        }
        break;
    case TRACE_REC_MEM:
        if (rec->mask == 0) {
            trace_errf(err, errlen, "%s: record %llu: mask has no active lane", w->path,
                       (unsigned long long)n);
            return -1;
        }
        if (rec->op != TRACE_OP_READ && rec->op != TRACE_OP_WRITE && rec->op != TRACE_OP_ATOMIC) {
            trace_errf(err, errlen, "%s: record %llu: bad op %d", w->path, (unsigned long long)n,
                       (int)rec->op);
            return -1;
        }
        break;
    case TRACE_REC_EXIT:
        break;
    default:
        trace_errf(err, errlen, "%s: record %llu: unknown kind %d", w->path, (unsigned long long)n,
                   (int)rec->kind);
        return -1;
    }
    uint64_t base = 0;
    int64_t stride = 0, stride2 = 0;
    int group = 0;
    int enc = TRACE_BIN_MEM_LIST;
    if (rec->kind == TRACE_REC_MEM) {
        if (trace_find_stride(rec, &base, &stride))
            enc = TRACE_BIN_MEM_STRIDED;
        else if (trace_find_tile(rec, &base, &stride, &group, &stride2))
            enc = TRACE_BIN_MEM_TILE;
    }
    if (w->binary) {
        unsigned char *p = w->out;
        size_t nl;
        switch (rec->kind) {
        case TRACE_REC_ALLOC:
            nl = strlen(rec->name);
            *p++ = TRACE_BIN_ALLOC;
            *p++ = rec->readonly ? 1 : 0;
            p = put_le(p, rec->base, 8);
            p = put_le(p, rec->size, 8);
            *p++ = (unsigned char)nl;
            memcpy(p, rec->name, nl);
            p += nl;
            break;
        case TRACE_REC_KERNEL:
            nl = strlen(rec->name);
            *p++ = TRACE_BIN_KERNEL;
            *p++ = (unsigned char)nl;
            memcpy(p, rec->name, nl);
            p += nl;
            break;
        case TRACE_REC_MEM:
            *p++ = (unsigned char)enc;
            p = put_le(p, rec->cta, 4);
            p = put_le(p, rec->warp, 4);
            *p++ = (unsigned char)rec->op;
            p = put_le(p, rec->gap, 4);
            p = put_le(p, rec->mask, 4);
            if (enc != TRACE_BIN_MEM_LIST) {
                p = put_le(p, base, 8);
                p = put_le(p, (uint64_t)stride, 8);
            }
            if (enc == TRACE_BIN_MEM_TILE) {
                *p++ = (unsigned char)group;
                p = put_le(p, (uint64_t)stride2, 8);
            }
            if (enc == TRACE_BIN_MEM_LIST) {
                for (int i = 0; i < TRACE_LANES; i++)
                    if (rec->mask >> i & 1u)
                        p = put_le(p, rec->addr[i], 8);
            }
            break;
        case TRACE_REC_EXIT:
            *p++ = TRACE_BIN_EXIT;
            p = put_le(p, rec->cta, 4);
            p = put_le(p, rec->warp, 4);
            break;
        }
        size_t len = (size_t)(p - w->out);
        ok = fwrite(w->out, 1, len, w->f) == len;
    } else {
        switch (rec->kind) {
        case TRACE_REC_ALLOC:
            ok = fprintf(w->f, "alloc %s 0x%llx 0x%llx%s\n", rec->name,
                         (unsigned long long)rec->base, (unsigned long long)rec->size,
                         rec->readonly ? " ro" : "") > 0;
            break;
        case TRACE_REC_KERNEL:
            ok = fprintf(w->f, "kernel %s\n", rec->name) > 0;
            break;
        case TRACE_REC_EXIT:
            ok = fprintf(w->f, "x %u %u\n", rec->cta, rec->warp) > 0;
            break;
        case TRACE_REC_MEM: {
            char line[TRACE_LINE_MAX];
            char kw = enc == TRACE_BIN_MEM_STRIDED ? 's' : enc == TRACE_BIN_MEM_TILE ? 't' : 'm';
            int k = snprintf(line, sizeof(line), "%c %u %u %s %u 0x%x", kw, rec->cta, rec->warp,
                             trace_op_name(rec->op), rec->gap, rec->mask);
            if (enc == TRACE_BIN_MEM_STRIDED) {
                k += snprintf(line + k, sizeof(line) - (size_t)k, " 0x%llx %lld",
                              (unsigned long long)base, (long long)stride);
            } else if (enc == TRACE_BIN_MEM_TILE) {
                k += snprintf(line + k, sizeof(line) - (size_t)k, " 0x%llx %lld %d %lld",
                              (unsigned long long)base, (long long)stride, group,
                              (long long)stride2);
            } else {
                for (int i = 0; i < TRACE_LANES; i++)
                    if (rec->mask >> i & 1u)
                        k += snprintf(line + k, sizeof(line) - (size_t)k, " 0x%llx",
                                      (unsigned long long)rec->addr[i]);
            }
            line[k++] = '\n';
            ok = fwrite(line, 1, (size_t)k, w->f) == (size_t)k;
            break;
        }
        }
    }
    if (!ok) {
        trace_errf(err, errlen, "%s: write error: %s", w->path, strerror(errno));
        return -1;
    }
    w->records = n;
    return 0;
}

int trace_finish(trace_writer_t *w, char *err, size_t errlen) {
    if (!w) {
        trace_errf(err, errlen, "trace_finish: null writer");
        return -1;
    }
    int rc = 0;
    if (w->binary) {
        unsigned char end = TRACE_BIN_END;
        if (fwrite(&end, 1, 1, w->f) != 1)
            rc = -1;
    }
    if (fflush(w->f) != 0 || ferror(w->f))
        rc = -1;
    if (rc != 0)
        trace_errf(err, errlen, "%s: write error: %s", w->path, strerror(errno));
    if (trace_close_stream(w->f, w->src) != 0 && rc == 0) {
        trace_errf(err, errlen, "%s: %s failed", w->path, w->src == SRC_PIPE ? "xz -c" : "close");
        rc = -1;
    }
    free(w->path);
    free(w);
    return rc;
}
