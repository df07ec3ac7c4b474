/*
 * trace_text.c - parser of the text encoding (docs/trace-format.md, "Text encoding"): one record
 * per line, errors "file:line: field N (name): reason".
 */
#define _POSIX_C_SOURCE 200809L

#include "num.h"
#include "trace_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* reader: text */

/* Reads one line into r->text (without the newline). 1: line, 0: EOF, -1: error. */
static int rd_line(trace_reader_t *r, char *err, size_t errlen) {
    size_t n = 0;
    for (;;) {
        if (r->pos == r->len && trace_rd_fill(r, 1) == 0) {
            if (n == 0)
                return 0;
            break; /* last line without newline */
        }
        unsigned char *start = r->buf + r->pos;
        size_t avail = r->len - r->pos;
        unsigned char *nl = memchr(start, '\n', avail);
        size_t take = nl ? (size_t)(nl - start) : avail;
        if (n + take > TRACE_LINE_MAX) {
            err_setf(err, errlen, "%s:%llu: line longer than %d characters", r->path,
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
    /* a control byte (a NUL would end the line early) is never part of a record or comment */
    for (size_t i = 0; i < n; i++) {
        const unsigned char ch = (unsigned char)r->text[i];
        if ((ch < ' ' && ch != '\t' && ch != '\r') || ch == 0x7f) {
            err_setf(err, errlen, "%s:%llu: column %zu: control byte 0x%02x", r->path,
                     (unsigned long long)r->line, i + 1, ch);
            return -1;
        }
    }
    return 1;
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
    err_vsetf(reason, sizeof(reason), fmt, ap);
    va_end(ap);
    err_setf(c->err, c->errlen, "%s:%llu: field %d (%s): %s", c->r->path,
             (unsigned long long)c->r->line, idx + 1, name, reason);
    return -1;
}

static int field_u64(field_ctx_t *c, char **tok, int ntok, int idx, const char *name, uint64_t max,
                     uint64_t *out) {
    if (idx >= ntok)
        return field_err(c, idx, name, "missing");
    int rc = num_parse_u64(tok[idx], out);
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
    int rc = num_parse_u64(s, &v);
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
    if (!trace_name_valid(tok[idx]))
        return field_err(c, idx, "name", "'%s' is not printable characters without '#'", tok[idx]);
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

/* fields 1 and 2 of a host call: base and size of its range */
static int field_range(field_ctx_t *c, char **tok, int ntok, trace_rec_t *rec) {
    if (field_u64(c, tok, ntok, 1, "base", UINT64_MAX, &rec->base) ||
        field_u64(c, tok, ntok, 2, "size", UINT64_MAX, &rec->size))
        return -1;
    if (rec->size == 0)
        return field_err(c, 2, "size", "range of 0 bytes");
    if (rec->base >= TRACE_VA_LIMIT || rec->size > TRACE_VA_LIMIT - rec->base)
        return field_err(c, 2, "size",
                         "range [0x%llx, +0x%llx) is outside the %d-bit virtual "
                         "address space",
                         (unsigned long long)rec->base, (unsigned long long)rec->size,
                         TRACE_VA_BITS);
    return 0;
}

/* field 3 of a host call with a range: the advice, destination or op; 0 or -1 */
static int field_host_arg(field_ctx_t *c, char **tok, int ntok, trace_rec_t *rec) {
    static const char *const fname[] = {"advice", "destination", "op"};
    const int which = rec->kind == TRACE_REC_ADVISE ? 0 : rec->kind == TRACE_REC_PREFETCH ? 1 : 2;
    if (ntok <= 3)
        return field_err(c, 3, fname[which], "missing");
    const char *v = tok[3];
    if (which == 0) {
        for (uint32_t a = 0; a < TRACE_ADV_COUNT; a++)
            if (strcmp(v, trace_advice_name(a)) == 0) {
                rec->arg = a;
                return 0;
            }
        return field_err(c, 3, fname[0],
                         "'%s' is not read_mostly, preferred_location=gpu, "
                         "preferred_location=host or accessed_by",
                         v);
    }
    if (which == 1) {
        for (uint32_t l = 0; l < TRACE_LOC_COUNT; l++)
            if (strcmp(v, trace_loc_name(l)) == 0) {
                rec->arg = l;
                return 0;
            }
        return field_err(c, 3, fname[1], "'%s' is not gpu or host", v);
    }
    if (strcmp(v, "R") == 0)
        rec->op = TRACE_OP_READ;
    else if (strcmp(v, "W") == 0)
        rec->op = TRACE_OP_WRITE;
    else
        return field_err(c, 3, fname[2], "'%s' is not R or W", v);
    return 0;
}

/* advise, prefetch, cpu (base size arg) and free (name); 1, or -1 + err */
static int rd_text_host(field_ctx_t *c, trace_rec_t *rec, char **tok, int ntok) {
    if (rec->kind == TRACE_REC_FREE) {
        if (field_name(c, tok, ntok, 1, rec->name))
            return -1;
        if (ntok > 2)
            return field_err(c, 2, "end", "unexpected extra field '%s'", tok[2]);
        return 1;
    }
    if (field_range(c, tok, ntok, rec) || field_host_arg(c, tok, ntok, rec))
        return -1;
    if (ntok > 4)
        return field_err(c, 4, "end", "unexpected extra field '%s'", tok[4]);
    return 1;
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
    if (strcmp(kw, "space") == 0) { /* not a record of its own: sets r->space, returns 0 */
        uint64_t v;
        if (field_u64(&c, tok, ntok, 1, "space", TRACE_SPACES - 1, &v))
            return -1;
        if (ntok > 2)
            return field_err(&c, 2, "end", "unexpected extra field '%s'", tok[2]);
        r->space = (uint32_t)v;
        return 0;
    }
    static const struct {
        const char *kw;
        trace_rec_kind_t kind;
    } host[] = {{"advise", TRACE_REC_ADVISE},
                {"prefetch", TRACE_REC_PREFETCH},
                {"free", TRACE_REC_FREE},
                {"cpu", TRACE_REC_CPU}};
    for (size_t i = 0; i < sizeof(host) / sizeof(host[0]); i++)
        if (strcmp(kw, host[i].kw) == 0) {
            rec->kind = host[i].kind;
            return rd_text_host(&c, rec, tok, ntok);
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
    err_setf(err, errlen, "%s:%llu: field 1 (record): unknown record '%s'", r->path,
             (unsigned long long)r->line, kw);
    return -1;
}

int trace_rd_text(trace_reader_t *r, trace_rec_t *rec, char *err, size_t errlen) {
    for (;;) {
        int rc = rd_line(r, err, errlen);
        if (rc <= 0) {
            if (rc == 0 && trace_rd_finish_stream(r, err, errlen) != 0)
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
                err_setf(err, errlen, "%s:%llu: field %d: too many fields", r->path,
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
        const int rc2 = rd_text_record(r, rec, tok, ntok, err, errlen);
        if (rc2 == 0)
            continue; /* a `space` record */
        rec->space = r->space;
        return rc2;
    }
}
