/*
 * trace_read.c - trace reader (docs/trace-format.md): opening (plain, xz, stdin), buffering,
 * encoding detection ("GMTB" = binary), the binary decoder. The text parser is trace_text.c.
 * No global state: every reader owns its buffers. Parsing is strict: any malformed record is an
 * error with its position.
 */
#define _POSIX_C_SOURCE 200809L

#include "trace_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------------------------------ */
/* reader: buffered input */

size_t trace_rd_fill(trace_reader_t *r, size_t n) {
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
        err_setf(err, errlen, "(null): no trace path");
        return NULL;
    }
    trace_reader_t *r = calloc(1, sizeof(*r));
    if (!r) {
        err_setf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    r->path = trace_strdup(path);
    if (!r->path) {
        free(r);
        err_setf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    if (strcmp(path, "-") == 0) {
        r->f = stdin;
        r->src = SRC_STDIO;
    } else {
        r->f = fopen(path, "rb");
        r->src = SRC_FILE;
        if (!r->f) {
            err_setf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
            trace_close(r);
            return NULL;
        }
        struct stat sb;
        if (fstat(fileno(r->f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
            err_setf(err, errlen, "%s: is a directory, not a trace", path);
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
                err_setf(err, errlen, "%s: cannot run xz -dc: %s", path, strerror(errno));
                trace_close(r);
                return NULL;
            }
            r->src = SRC_PIPE;
        } else {
            memcpy(r->buf, head, got);
            r->len = got;
        }
    }
    size_t avail = trace_rd_fill(r, 8);
    if (r->src == SRC_PIPE && avail == 0) {
        /* an empty decompressed stream is an empty text trace unless xz failed */
        FILE *f = r->f;
        r->f = NULL;
        if (trace_close_stream(f, SRC_PIPE) != 0) {
            err_setf(err, errlen, "%s: xz -dc failed (not a valid .xz file?)", path);
            trace_close(r);
            return NULL;
        }
        r->src = SRC_STDIO; /* nothing left to close */
    }
    if (avail >= 4 && memcmp(r->buf + r->pos, TRACE_MAGIC, 4) == 0) {
        r->binary = 1;
        if (avail < 8) {
            err_setf(err, errlen, "%s:offset 4: truncated header (missing version)", path);
            trace_close(r);
            return NULL;
        }
        const unsigned char *v = r->buf + r->pos + 4;
        uint32_t ver =
            (uint32_t)v[0] | (uint32_t)v[1] << 8 | (uint32_t)v[2] << 16 | (uint32_t)v[3] << 24;
        if (ver != TRACE_VERSION) {
            err_setf(err, errlen, "%s:offset 4: unsupported binary version %u (expected %u)", path,
                     ver, TRACE_VERSION);
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

int trace_rd_finish_stream(trace_reader_t *r, char *err, size_t errlen) {
    if (r->f && r->src != SRC_PIPE && ferror(r->f)) {
        err_setf(err, errlen, "%s: read error", r->path);
        return -1;
    }
    if (r->src == SRC_PIPE && r->f) {
        FILE *f = r->f;
        r->f = NULL;
        if (trace_close_stream(f, SRC_PIPE) != 0) {
            err_setf(err, errlen, "%s: xz -dc failed (corrupt or truncated .xz file)", r->path);
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* reader: binary */

static uint64_t get_le(const unsigned char *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Results of the record-body decoders below. */
#define RD_OK 0
#define RD_ERROR (-1)
#define RD_TRUNCATED (-2)

/* Alloc or kernel record at r->pos (need = its fixed part, the name length is its last byte);
 * adds the name length to *need. */
static int rd_bin_named(trace_reader_t *r, trace_rec_t *rec, unsigned type, uint64_t at,
                        size_t *need, char *err, size_t errlen) {
    const unsigned char *p = r->buf + r->pos;
    size_t nl = p[*need - 1];
    if (nl == 0 || nl >= TRACE_NAME_MAX) {
        err_setf(err, errlen, "%s:offset %llu: name length %zu not in 1..%d", r->path,
                 (unsigned long long)at, nl, TRACE_NAME_MAX - 1);
        return RD_ERROR;
    }
    if (trace_rd_fill(r, *need + nl) < *need + nl)
        return RD_TRUNCATED;
    p = r->buf + r->pos;
    for (size_t i = 0; i < nl; i++) {
        unsigned char ch = p[*need + i];
        if (ch <= ' ' || ch == '#' || ch >= 0x7f) {
            err_setf(err, errlen, "%s:offset %llu: name byte %zu (0x%02x) is not printable",
                     r->path, (unsigned long long)at, i, ch);
            return RD_ERROR;
        }
    }
    memcpy(rec->name, p + *need, nl);
    rec->name[nl] = '\0';
    *need += nl;
    if (type != TRACE_BIN_ALLOC) {
        rec->kind = type == TRACE_BIN_FREE ? TRACE_REC_FREE : TRACE_REC_KERNEL;
        return RD_OK;
    }
    rec->kind = TRACE_REC_ALLOC;
    if (p[1] > 1) {
        err_setf(err, errlen, "%s:offset %llu: readonly flag %u is not 0 or 1", r->path,
                 (unsigned long long)at, p[1]);
        return RD_ERROR;
    }
    rec->readonly = p[1];
    rec->base = get_le(p + 2, 8);
    rec->size = get_le(p + 10, 8);
    if (rec->size == 0 || rec->base + rec->size < rec->base) {
        err_setf(err, errlen, "%s:offset %llu: bad allocation size 0x%llx", r->path,
                 (unsigned long long)at, (unsigned long long)rec->size);
        return RD_ERROR;
    }
    return RD_OK;
}

/* Memory record (list, strided, tile) at r->pos; need = its fixed part; adds the rest. */
static int rd_bin_mem(trace_reader_t *r, trace_rec_t *rec, unsigned type, uint64_t at, size_t *need,
                      char *err, size_t errlen) {
    const unsigned char *p = r->buf + r->pos;
    rec->kind = TRACE_REC_MEM;
    rec->cta = (uint32_t)get_le(p + 1, 4);
    rec->warp = (uint32_t)get_le(p + 5, 4);
    unsigned op = p[9];
    rec->gap = (uint32_t)get_le(p + 10, 4);
    rec->mask = (uint32_t)get_le(p + 14, 4);
    if (op > TRACE_OP_ATOMIC) {
        err_setf(err, errlen, "%s:offset %llu: op %u is not 0 (R), 1 (W) or 2 (A)", r->path,
                 (unsigned long long)at, op);
        return RD_ERROR;
    }
    rec->op = (trace_op_t)op;
    if (rec->mask == 0) {
        err_setf(err, errlen, "%s:offset %llu: mask has no active lane", r->path,
                 (unsigned long long)at);
        return RD_ERROR;
    }
    size_t n = *need;
    size_t extra = type == TRACE_BIN_MEM_LIST      ? 8u * (size_t)trace_popcount(rec->mask)
                   : type == TRACE_BIN_MEM_STRIDED ? 16u
                                                   : 25u;
    if (trace_rd_fill(r, n + extra) < n + extra)
        return RD_TRUNCATED;
    p = r->buf + r->pos;
    if (type == TRACE_BIN_MEM_LIST) {
        const unsigned char *a = p + n;
        for (int i = 0; i < TRACE_LANES; i++)
            if (rec->mask >> i & 1u) {
                rec->addr[i] = get_le(a, 8);
                a += 8;
            }
    } else if (type == TRACE_BIN_MEM_STRIDED) {
        trace_expand(rec, get_le(p + n, 8), (int64_t)get_le(p + n + 8, 8), TRACE_LANES, 0);
    } else {
        unsigned group = p[n + 16];
        if (!trace_valid_group(group)) {
            err_setf(err, errlen, "%s:offset %llu: tile group %u is not 2, 4, 8 or 16", r->path,
                     (unsigned long long)at, group);
            return RD_ERROR;
        }
        trace_expand(rec, get_le(p + n, 8), (int64_t)get_le(p + n + 8, 8), (int)group,
                     (int64_t)get_le(p + n + 17, 8));
    }
    *need = n + extra;
    return RD_OK;
}

/* Host call with a range (advise, prefetch, cpu) at r->pos, its TRACE_BIN_RANGE_BYTES buffered. */
static int rd_bin_range(trace_reader_t *r, trace_rec_t *rec, unsigned type, uint64_t at, char *err,
                        size_t errlen) {
    const unsigned char *p = r->buf + r->pos;
    rec->base = get_le(p + 1, 8);
    rec->size = get_le(p + 9, 8);
    const unsigned v = p[17];
    if (type == TRACE_BIN_CPU) {
        rec->kind = TRACE_REC_CPU;
        if (v > TRACE_OP_WRITE) {
            err_setf(err, errlen, "%s:offset %llu: cpu op %u is not 0 (R) or 1 (W)", r->path,
                     (unsigned long long)at, v);
            return RD_ERROR;
        }
        rec->op = (trace_op_t)v;
        return RD_OK;
    }
    rec->kind = type == TRACE_BIN_ADVISE ? TRACE_REC_ADVISE : TRACE_REC_PREFETCH;
    rec->arg = v; /* range checked by trace_rec_check */
    return RD_OK;
}

/* The end record: nothing may follow it; then the decompressor's status. */
static int rd_bin_end(trace_reader_t *r, char *err, size_t errlen) {
    r->pos++;
    r->offset++;
    if (trace_rd_fill(r, 1) != 0) {
        err_setf(err, errlen, "%s:offset %llu: data after the end record", r->path,
                 (unsigned long long)r->offset);
        return -1;
    }
    r->done = 1;
    return trace_rd_finish_stream(r, err, errlen) == 0 ? 0 : -1;
}

/* One binary record; 2: a `space` record was consumed (read on). */
static int rd_binary_one(trace_reader_t *r, trace_rec_t *rec, char *err, size_t errlen) {
    if (r->done)
        return 0;
    uint64_t at = r->offset;
    size_t avail = trace_rd_fill(r, 1);
    if (avail == 0) {
        err_setf(err, errlen, "%s:offset %llu: truncated trace: end of data without end record",
                 r->path, (unsigned long long)at);
        return -1;
    }
    unsigned type = r->buf[r->pos];
    memset(rec, 0, sizeof(*rec));
    rec->line = at;
    size_t need;
    switch (type) {
    case TRACE_BIN_END:
        return rd_bin_end(r, err, errlen);
    case TRACE_BIN_ALLOC:
        need = 1 + 1 + 8 + 8 + 1;
        break;
    case TRACE_BIN_KERNEL:
    case TRACE_BIN_FREE:
        need = 1 + 1;
        break;
    case TRACE_BIN_ADVISE:
    case TRACE_BIN_PREFETCH:
    case TRACE_BIN_CPU:
        need = TRACE_BIN_RANGE_BYTES;
        break;
    case TRACE_BIN_EXIT:
        need = 1 + 4 + 4;
        break;
    case TRACE_BIN_SPACE:
        need = 1 + 1;
        break;
    case TRACE_BIN_MEM_LIST:
    case TRACE_BIN_MEM_STRIDED:
    case TRACE_BIN_MEM_TILE:
        need = 1 + 4 + 4 + 1 + 4 + 4;
        break;
    default:
        err_setf(err, errlen, "%s:offset %llu: unknown record type 0x%02x", r->path,
                 (unsigned long long)at, type);
        return -1;
    }
    int rc = RD_TRUNCATED;
    if (trace_rd_fill(r, need) >= need) {
        if (type == TRACE_BIN_ALLOC || type == TRACE_BIN_KERNEL || type == TRACE_BIN_FREE) {
            rc = rd_bin_named(r, rec, type, at, &need, err, errlen);
        } else if (type == TRACE_BIN_SPACE) {
            r->space = r->buf[r->pos + 1];
            r->pos += need;
            r->offset += need;
            return 2; /* not a record of its own */
        } else if (type == TRACE_BIN_ADVISE || type == TRACE_BIN_PREFETCH ||
                   type == TRACE_BIN_CPU) {
            rc = rd_bin_range(r, rec, type, at, err, errlen);
        } else if (type == TRACE_BIN_EXIT) {
            rec->kind = TRACE_REC_EXIT;
            rec->cta = (uint32_t)get_le(r->buf + r->pos + 1, 4);
            rec->warp = (uint32_t)get_le(r->buf + r->pos + 5, 4);
            rc = RD_OK;
        } else {
            rc = rd_bin_mem(r, rec, type, at, &need, err, errlen);
        }
    }
    if (rc == RD_TRUNCATED)
        err_setf(err, errlen, "%s:offset %llu: truncated record (type %u)", r->path,
                 (unsigned long long)at, type);
    if (rc != RD_OK)
        return -1;
    rec->space = r->space;
    r->pos += need;
    r->offset += need;
    return 1;
}

static int rd_binary(trace_reader_t *r, trace_rec_t *rec, char *err, size_t errlen) {
    int rc;
    while ((rc = rd_binary_one(r, rec, err, errlen)) == 2) {
    }
    return rc;
}

int trace_next(trace_reader_t *r, trace_rec_t *rec, char *err, size_t errlen) {
    if (!r || !rec) {
        err_setf(err, errlen, "trace_next: null argument");
        return -1;
    }
    const int rc = r->binary ? rd_binary(r, rec, err, errlen) : trace_rd_text(r, rec, err, errlen);
    char why[256];
    if (rc == 1 && trace_rec_check(rec, why, sizeof(why)) != 0) {
        err_setf(err, errlen, "%s:%s%llu: %s", r->path, r->binary ? "offset " : "",
                 (unsigned long long)rec->line, why);
        return -1;
    }
    return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* writer */
