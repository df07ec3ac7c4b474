/*
 * trace_write.c - trace writer (docs/trace-format.md): the one implementation of the encodings
 * (text and binary) and of the encoding choice (lane list, strided, tile). A writer whose path
 * ends in ".xz" compresses through "xz -c"; "-" is stdout. The Python importers write through
 * this file too (tools/trace/trace_ctypes.py).
 */
#define _POSIX_C_SOURCE 200809L

#include "trace_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct trace_writer {
    FILE *f;
    trace_src_t src;
    char *path;
    int binary;
    uint64_t records;
    uint32_t space;      /* address space of the last `space` record written (0 at the start) */
    uint32_t flat_space; /* trace_write_space: the space of the flat calls' records */
    unsigned char out[16 + 8 * TRACE_LANES + TRACE_NAME_MAX + 16];
};

trace_writer_t *trace_create(const char *path, int binary, char *err, size_t errlen) {
    if (!path) {
        err_setf(err, errlen, "(null): no trace path");
        return NULL;
    }
    trace_writer_t *w = calloc(1, sizeof(*w));
    if (!w || !(w->path = trace_strdup(path))) {
        free(w);
        err_setf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    w->binary = binary != 0;
    if (strcmp(path, "-") == 0) {
        w->f = stdout;
        w->src = SRC_STDIO;
    } else if (trace_ends_with(path, ".xz")) {
        /* the shell's redirect would fail silently (xz never starts, the first write gets
         * SIGPIPE): the file is created here first, so a bad path is an error with its reason */
        FILE *probe = fopen(path, "wb");
        if (!probe) {
            err_setf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
            free(w->path);
            free(w);
            return NULL;
        }
        fclose(probe);
        char *cmd = trace_shell_cmd("xz -c -T1 > ", path, "");
        w->f = cmd ? popen(cmd, "w") : NULL;
        free(cmd);
        w->src = SRC_PIPE;
    } else {
        w->f = fopen(path, "wb");
        w->src = SRC_FILE;
    }
    if (!w->f) {
        err_setf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        free(w->path);
        free(w);
        return NULL;
    }
    if (w->src != SRC_STDIO)
        setvbuf(w->f, NULL, _IOFBF, 1u << 16);
    if (w->binary) {
        unsigned char hdr[8] = {'G', 'M', 'T', 'B', TRACE_VERSION, 0, 0, 0};
        if (fwrite(hdr, 1, sizeof(hdr), w->f) != sizeof(hdr)) {
            err_setf(err, errlen, "%s: write error: %s", path, strerror(errno));
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

/* Checks what the writer may not encode (the shared rule, trace_rec_check); 0 or -1 with err.
 * n: the record's number. */
static int wr_check(const trace_writer_t *w, const trace_rec_t *rec, uint64_t n, char *err,
                    size_t errlen) {
    char why[256];
    if (trace_rec_check(rec, why, sizeof(why)) != 0) {
        err_setf(err, errlen, "%s: record %llu: %s", w->path, (unsigned long long)n, why);
        return -1;
    }
    return 0;
}

/* The encoding chosen for a memory record (docs/trace-format.md, "Encoding choice"). */
typedef struct {
    int type; /* TRACE_BIN_MEM_LIST, _STRIDED or _TILE */
    uint64_t base;
    int64_t stride, stride2;
    int group;
} wr_enc_t;

static wr_enc_t wr_choose(const trace_rec_t *rec) {
    wr_enc_t e = {TRACE_BIN_MEM_LIST, 0, 0, 0, 0};
    if (trace_find_stride(rec, &e.base, &e.stride))
        e.type = TRACE_BIN_MEM_STRIDED;
    else if (trace_find_tile(rec, &e.base, &e.stride, &e.group, &e.stride2))
        e.type = TRACE_BIN_MEM_TILE;
    return e;
}

static unsigned char *put_name(unsigned char *p, const char *name) {
    size_t nl = strlen(name);
    *p++ = (unsigned char)nl;
    memcpy(p, name, nl);
    return p + nl;
}

/* Binary encoding of one record into w->out; returns its length. */
static size_t wr_binary(trace_writer_t *w, const trace_rec_t *rec, const wr_enc_t *e) {
    unsigned char *p = w->out;
    switch (rec->kind) {
    case TRACE_REC_ALLOC:
        *p++ = TRACE_BIN_ALLOC;
        *p++ = rec->readonly ? 1 : 0;
        p = put_le(p, rec->base, 8);
        p = put_le(p, rec->size, 8);
        p = put_name(p, rec->name);
        break;
    case TRACE_REC_KERNEL:
        *p++ = TRACE_BIN_KERNEL;
        p = put_name(p, rec->name);
        break;
    case TRACE_REC_MEM:
        *p++ = (unsigned char)e->type;
        p = put_le(p, rec->cta, 4);
        p = put_le(p, rec->warp, 4);
        *p++ = (unsigned char)rec->op;
        p = put_le(p, rec->gap, 4);
        p = put_le(p, rec->mask, 4);
        if (e->type != TRACE_BIN_MEM_LIST) {
            p = put_le(p, e->base, 8);
            p = put_le(p, (uint64_t)e->stride, 8);
        }
        if (e->type == TRACE_BIN_MEM_TILE) {
            *p++ = (unsigned char)e->group;
            p = put_le(p, (uint64_t)e->stride2, 8);
        }
        if (e->type == TRACE_BIN_MEM_LIST) {
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
    case TRACE_REC_FREE:
        *p++ = TRACE_BIN_FREE;
        p = put_name(p, rec->name);
        break;
    case TRACE_REC_ADVISE:
    case TRACE_REC_PREFETCH:
    case TRACE_REC_CPU:
        *p++ = rec->kind == TRACE_REC_ADVISE     ? TRACE_BIN_ADVISE
               : rec->kind == TRACE_REC_PREFETCH ? TRACE_BIN_PREFETCH
                                                 : TRACE_BIN_CPU;
        p = put_le(p, rec->base, 8);
        p = put_le(p, rec->size, 8);
        *p++ = (unsigned char)(rec->kind == TRACE_REC_CPU ? (uint32_t)rec->op : rec->arg);
        break;
    }
    return (size_t)(p - w->out);
}

/* Text encoding of a memory record; 1 if written. */
static int wr_text_mem(trace_writer_t *w, const trace_rec_t *rec, const wr_enc_t *e) {
    char line[TRACE_LINE_MAX];
    char kw = e->type == TRACE_BIN_MEM_STRIDED ? 's' : e->type == TRACE_BIN_MEM_TILE ? 't' : 'm';
    int k = snprintf(line, sizeof(line), "%c %u %u %s %u 0x%x", kw, rec->cta, rec->warp,
                     trace_op_name(rec->op), rec->gap, rec->mask);
    if (e->type == TRACE_BIN_MEM_STRIDED) {
        k += snprintf(line + k, sizeof(line) - (size_t)k, " 0x%llx %lld",
                      (unsigned long long)e->base, (long long)e->stride);
    } else if (e->type == TRACE_BIN_MEM_TILE) {
        k += snprintf(line + k, sizeof(line) - (size_t)k, " 0x%llx %lld %d %lld",
                      (unsigned long long)e->base, (long long)e->stride, e->group,
                      (long long)e->stride2);
    } else {
        for (int i = 0; i < TRACE_LANES; i++)
            if (rec->mask >> i & 1u)
                k += snprintf(line + k, sizeof(line) - (size_t)k, " 0x%llx",
                              (unsigned long long)rec->addr[i]);
    }
    line[k++] = '\n';
    return fwrite(line, 1, (size_t)k, w->f) == (size_t)k;
}

/* Text encoding of one record; 1 if written. */
static int wr_text(trace_writer_t *w, const trace_rec_t *rec, const wr_enc_t *e) {
    switch (rec->kind) {
    case TRACE_REC_ALLOC:
        return fprintf(w->f, "alloc %s 0x%llx 0x%llx%s\n", rec->name, (unsigned long long)rec->base,
                       (unsigned long long)rec->size, rec->readonly ? " ro" : "") > 0;
    case TRACE_REC_KERNEL:
        return fprintf(w->f, "kernel %s\n", rec->name) > 0;
    case TRACE_REC_EXIT:
        return fprintf(w->f, "x %u %u\n", rec->cta, rec->warp) > 0;
    case TRACE_REC_MEM:
        return wr_text_mem(w, rec, e);
    case TRACE_REC_FREE:
        return fprintf(w->f, "free %s\n", rec->name) > 0;
    case TRACE_REC_ADVISE:
    case TRACE_REC_PREFETCH:
    case TRACE_REC_CPU:
        return fprintf(w->f, "%s 0x%llx 0x%llx %s\n",
                       rec->kind == TRACE_REC_ADVISE     ? "advise"
                       : rec->kind == TRACE_REC_PREFETCH ? "prefetch"
                                                         : "cpu",
                       (unsigned long long)rec->base, (unsigned long long)rec->size,
                       rec->kind == TRACE_REC_ADVISE     ? trace_advice_name(rec->arg)
                       : rec->kind == TRACE_REC_PREFETCH ? trace_loc_name(rec->arg)
                                                         : trace_op_name(rec->op)) > 0;
    }
    return 0;
}

int trace_write(trace_writer_t *w, const trace_rec_t *rec, char *err, size_t errlen) {
    if (!w || !rec) {
        err_setf(err, errlen, "trace_write: null argument");
        return -1;
    }
    uint64_t n = w->records + 1;
    if (wr_check(w, rec, n, err, errlen) != 0)
        return -1;
    wr_enc_t e = {TRACE_BIN_MEM_LIST, 0, 0, 0, 0};
    if (rec->kind == TRACE_REC_MEM)
        e = wr_choose(rec);
    int ok = 1;
    if (rec->kind != TRACE_REC_KERNEL && rec->space != w->space) {
        if (w->binary) {
            const unsigned char sp[2] = {TRACE_BIN_SPACE, (unsigned char)rec->space};
            ok = fwrite(sp, 1, 2, w->f) == 2;
        } else {
            ok = fprintf(w->f, "space %u\n", rec->space) > 0;
        }
        w->space = rec->space;
    }
    if (!ok) {
    } else if (w->binary) {
        size_t len = wr_binary(w, rec, &e);
        ok = fwrite(w->out, 1, len, w->f) == len;
    } else {
        ok = wr_text(w, rec, &e);
    }
    if (!ok) {
        err_setf(err, errlen, "%s: write error: %s", w->path, strerror(errno));
        return -1;
    }
    w->records = n;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* one call per record, fields as arguments (the Python importers' entry points, through ctypes) */

static int wr_set_name(const trace_writer_t *w, trace_rec_t *rec, const char *name, char *err,
                       size_t errlen) {
    if (!name || strnlen(name, TRACE_NAME_MAX) >= TRACE_NAME_MAX) {
        err_setf(err, errlen,
                 "%s: record %llu: name must be 1..%d printable characters without blanks "
                 "or '#'",
                 w ? w->path : "(null)", w ? (unsigned long long)w->records + 1 : 0ull,
                 TRACE_NAME_MAX - 1);
        return -1;
    }
    strcpy(rec->name, name);
    return 0;
}

int trace_write_alloc(trace_writer_t *w, const char *name, uint64_t base, uint64_t size,
                      int readonly, char *err, size_t errlen) {
    trace_rec_t rec = {.kind = TRACE_REC_ALLOC,
                       .base = base,
                       .size = size,
                       .readonly = !!readonly,
                       .space = w ? w->flat_space : 0};
    if (wr_set_name(w, &rec, name, err, errlen) != 0)
        return -1;
    return trace_write(w, &rec, err, errlen);
}

int trace_write_kernel(trace_writer_t *w, const char *name, char *err, size_t errlen) {
    trace_rec_t rec = {.kind = TRACE_REC_KERNEL};
    if (wr_set_name(w, &rec, name, err, errlen) != 0)
        return -1;
    return trace_write(w, &rec, err, errlen);
}

int trace_write_mem(trace_writer_t *w, uint32_t cta, uint32_t warp, int op, uint32_t gap,
                    uint32_t mask, const uint64_t *addrs, char *err, size_t errlen) {
    trace_rec_t rec = {.kind = TRACE_REC_MEM,
                       .cta = cta,
                       .warp = warp,
                       .op = (trace_op_t)op,
                       .gap = gap,
                       .mask = mask,
                       .space = w ? w->flat_space : 0};
    if (mask != 0 && !addrs) {
        err_setf(err, errlen, "trace_write_mem: null address list");
        return -1;
    }
    int k = 0;
    for (int i = 0; i < TRACE_LANES; i++)
        if (mask >> i & 1u)
            rec.addr[i] = addrs[k++];
    return trace_write(w, &rec, err, errlen);
}

int trace_write_exit(trace_writer_t *w, uint32_t cta, uint32_t warp, char *err, size_t errlen) {
    trace_rec_t rec = {
        .kind = TRACE_REC_EXIT, .cta = cta, .warp = warp, .space = w ? w->flat_space : 0};
    return trace_write(w, &rec, err, errlen);
}

/* A host call with a range (advise, prefetch, cpu). */
static int wr_host_range(trace_writer_t *w, trace_rec_kind_t kind, uint64_t base, uint64_t size,
                         uint32_t arg, char *err, size_t errlen) {
    trace_rec_t rec = {.kind = kind, .base = base, .size = size, .space = w ? w->flat_space : 0};
    if (kind == TRACE_REC_CPU)
        rec.op = (trace_op_t)arg;
    else
        rec.arg = arg;
    return trace_write(w, &rec, err, errlen);
}

int trace_write_advise(trace_writer_t *w, uint64_t base, uint64_t size, uint32_t advice, char *err,
                       size_t errlen) {
    return wr_host_range(w, TRACE_REC_ADVISE, base, size, advice, err, errlen);
}

int trace_write_prefetch(trace_writer_t *w, uint64_t base, uint64_t size, uint32_t loc, char *err,
                         size_t errlen) {
    return wr_host_range(w, TRACE_REC_PREFETCH, base, size, loc, err, errlen);
}

int trace_write_cpu(trace_writer_t *w, uint64_t base, uint64_t size, int op, char *err,
                    size_t errlen) {
    if (op != TRACE_OP_READ && op != TRACE_OP_WRITE) {
        err_setf(err, errlen, "%s: record %llu: cpu op %d is not 0 (R) or 1 (W)",
                 w ? w->path : "(null)", w ? (unsigned long long)w->records + 1 : 0ull, op);
        return -1;
    }
    return wr_host_range(w, TRACE_REC_CPU, base, size, (uint32_t)op, err, errlen);
}

int trace_write_free(trace_writer_t *w, const char *name, char *err, size_t errlen) {
    trace_rec_t rec = {.kind = TRACE_REC_FREE, .space = w ? w->flat_space : 0};
    if (wr_set_name(w, &rec, name, err, errlen) != 0)
        return -1;
    return trace_write(w, &rec, err, errlen);
}

int trace_write_space(trace_writer_t *w, uint32_t space, char *err, size_t errlen) {
    if (!w) {
        err_setf(err, errlen, "trace_write_space: null writer");
        return -1;
    }
    if (space >= TRACE_SPACES) {
        err_setf(err, errlen, "%s: record %llu: address space %u is not below %u", w->path,
                 (unsigned long long)w->records + 1, space, TRACE_SPACES);
        return -1;
    }
    w->flat_space = space;
    return 0;
}

int trace_copy(trace_reader_t *r, trace_writer_t *w, char *err, size_t errlen) {
    if (!r || !w) {
        err_setf(err, errlen, "trace_copy: null argument");
        return -1;
    }
    trace_rec_t rec;
    int rc;
    while ((rc = trace_next(r, &rec, err, errlen)) == 1)
        if (trace_write(w, &rec, err, errlen) != 0)
            return -1;
    return rc;
}

int trace_finish(trace_writer_t *w, char *err, size_t errlen) {
    if (!w) {
        err_setf(err, errlen, "trace_finish: null writer");
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
        err_setf(err, errlen, "%s: write error: %s", w->path, strerror(errno));
    if (trace_close_stream(w->f, w->src) != 0 && rc == 0) {
        err_setf(err, errlen, "%s: %s failed", w->path, w->src == SRC_PIPE ? "xz -c" : "close");
        rc = -1;
    }
    free(w->path);
    free(w);
    return rc;
}
