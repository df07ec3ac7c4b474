/*
 * trace_util.c - helpers shared by the trace library's reader and writer (trace_int.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "trace_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* ------------------------------------------------------------------------------------------ */
/* helpers */

char *trace_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

int trace_ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Builds a shell command "prefix 'path' suffix" with the path single-quoted. */
char *trace_shell_cmd(const char *prefix, const char *path, const char *suffix) {
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
int trace_close_stream(FILE *f, trace_src_t src) {
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

const char *trace_op_name(trace_op_t op) {
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

/* Fills the active lanes: lane i accesses base + (i % group)*stride + (i / group)*stride2
 * (modulo 2^64). group = TRACE_LANES gives the 1-D strided form. */
void trace_expand(trace_rec_t *rec, uint64_t base, int64_t stride, int group, int64_t stride2) {
    for (int i = 0; i < TRACE_LANES; i++)
        if (rec->mask >> i & 1u)
            rec->addr[i] = base + (uint64_t)(i % group) * (uint64_t)stride +
                           (uint64_t)(i / group) * (uint64_t)stride2;
}

/* ------------------------------------------------------------------------------------------ */
/* the validation rule of a record (trace.h) */

int trace_name_valid(const char *name) {
    const size_t n = strnlen(name, TRACE_NAME_MAX);
    if (n == 0 || n >= TRACE_NAME_MAX)
        return 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char ch = (unsigned char)name[i];
        if (ch <= ' ' || ch == '#' || ch >= 0x7f)
            return 0;
    }
    return 1;
}

static int check_alloc(const trace_rec_t *rec, char *why, size_t whylen) {
    if (rec->size == 0) {
        err_setf(why, whylen, "allocation '%s' of 0 bytes", rec->name);
        return -1;
    }
    if (rec->base >= TRACE_VA_LIMIT || rec->size > TRACE_VA_LIMIT - rec->base) {
        err_setf(why, whylen,
                 "allocation '%s' [0x%llx, +0x%llx) is outside the %d-bit virtual address space",
                 rec->name, (unsigned long long)rec->base, (unsigned long long)rec->size,
                 TRACE_VA_BITS);
        return -1;
    }
    if (rec->base % TRACE_PAGE_BYTES != 0) {
        err_setf(why, whylen,
                 "allocation '%s' base 0x%llx is not 4 KB-aligned (a managed allocation starts "
                 "on a page)",
                 rec->name, (unsigned long long)rec->base);
        return -1;
    }
    return 0;
}

const char *trace_advice_name(uint32_t advice) {
    static const char *const names[TRACE_ADV_COUNT] = {"read_mostly", "preferred_location=gpu",
                                                       "preferred_location=host", "accessed_by"};
    return advice < TRACE_ADV_COUNT ? names[advice] : "?";
}

const char *trace_loc_name(uint32_t loc) {
    return loc == TRACE_LOC_GPU ? "gpu" : loc == TRACE_LOC_HOST ? "host" : "?";
}

int trace_rec_is_host(const trace_rec_t *rec) {
    return rec->kind == TRACE_REC_ADVISE || rec->kind == TRACE_REC_PREFETCH ||
           rec->kind == TRACE_REC_FREE || rec->kind == TRACE_REC_CPU;
}

/* The RANGE of a host call: > 0 bytes inside the 48-bit space, and its own field. */
static int check_host(const trace_rec_t *rec, char *why, size_t whylen) {
    if (rec->kind == TRACE_REC_FREE) {
        if (!trace_name_valid(rec->name)) {
            err_setf(why, whylen, "name must be 1..%d printable characters without blanks or '#'",
                     TRACE_NAME_MAX - 1);
            return -1;
        }
        return 0;
    }
    if (rec->size == 0) {
        err_setf(why, whylen, "range of 0 bytes");
        return -1;
    }
    if (rec->base >= TRACE_VA_LIMIT || rec->size > TRACE_VA_LIMIT - rec->base) {
        err_setf(why, whylen, "range [0x%llx, +0x%llx) is outside the %d-bit virtual address space",
                 (unsigned long long)rec->base, (unsigned long long)rec->size, TRACE_VA_BITS);
        return -1;
    }
    if (rec->kind == TRACE_REC_ADVISE && rec->arg >= TRACE_ADV_COUNT) {
        err_setf(why, whylen, "advice %u is not 0..%d", rec->arg, TRACE_ADV_COUNT - 1);
        return -1;
    }
    if (rec->kind == TRACE_REC_PREFETCH && rec->arg >= TRACE_LOC_COUNT) {
        err_setf(why, whylen, "prefetch destination %u is not 0 (gpu) or 1 (host)", rec->arg);
        return -1;
    }
    if (rec->kind == TRACE_REC_CPU && rec->op != TRACE_OP_READ && rec->op != TRACE_OP_WRITE) {
        err_setf(why, whylen, "cpu op %d is not R or W", (int)rec->op);
        return -1;
    }
    return 0;
}

int trace_rec_check(const trace_rec_t *rec, char *why, size_t whylen) {
    if (rec->space >= TRACE_SPACES) {
        err_setf(why, whylen, "address space %u is not below %u", rec->space, TRACE_SPACES);
        return -1;
    }
    if (rec->space != 0 && (rec->kind == TRACE_REC_MEM || rec->kind == TRACE_REC_EXIT) &&
        rec->warp >= TRACE_SPACE_WARP_LIMIT) {
        err_setf(why, whylen, "warp %u is not below %u in address space %u", rec->warp,
                 TRACE_SPACE_WARP_LIMIT, rec->space);
        return -1;
    }
    switch (rec->kind) {
    case TRACE_REC_ALLOC:
    case TRACE_REC_KERNEL:
        if (!trace_name_valid(rec->name)) {
            err_setf(why, whylen, "name must be 1..%d printable characters without blanks or '#'",
                     TRACE_NAME_MAX - 1);
            return -1;
        }
        return rec->kind == TRACE_REC_ALLOC ? check_alloc(rec, why, whylen) : 0;
    case TRACE_REC_MEM:
        if (rec->mask == 0) {
            err_setf(why, whylen, "mask has no active lane");
            return -1;
        }
        if (rec->op != TRACE_OP_READ && rec->op != TRACE_OP_WRITE && rec->op != TRACE_OP_ATOMIC) {
            err_setf(why, whylen, "bad op %d", (int)rec->op);
            return -1;
        }
        for (int i = 0; i < TRACE_LANES; i++)
            if ((rec->mask >> i & 1u) && rec->addr[i] >= TRACE_VA_LIMIT) {
                err_setf(why, whylen,
                         "lane %d address 0x%llx is outside the %d-bit virtual address space", i,
                         (unsigned long long)rec->addr[i], TRACE_VA_BITS);
                return -1;
            }
        return 0;
    case TRACE_REC_EXIT:
        return 0;
    case TRACE_REC_ADVISE:
    case TRACE_REC_PREFETCH:
    case TRACE_REC_FREE:
    case TRACE_REC_CPU:
        return check_host(rec, why, whylen);
    }
    err_setf(why, whylen, "unknown record kind %d", (int)rec->kind);
    return -1;
}
