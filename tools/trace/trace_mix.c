/*
 * trace_mix.c - the multi-application combiner (docs/trace-format.md "Address spaces"):
 * n single-application traces become one trace in which input i runs in address space i.
 * Output kernel k is kernel k of every input that has one (the inputs' records of their kernel k
 * interleaved record by record, round-robin); the allocations before each input's first kernel
 * come first, input by input; allocations inside a kernel keep their place in it.
 */
#include "trace_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    trace_reader_t *r;
    const char *path;
    trace_rec_t look; /* a KERNEL record read ahead: the start of the input's next kernel */
    int have_look;
    int active; /* the current segment (before the first kernel, or a kernel) has records left */
} mix_in_t;

/* The next record of input m's current segment: 1, 0 (segment or input ended), -1 + err. */
static int mix_next(mix_in_t *m, uint32_t space, trace_rec_t *rec, char *err, size_t errlen) {
    if (!m->active)
        return 0;
    const int rc = trace_next(m->r, rec, err, errlen);
    if (rc <= 0) {
        m->active = 0;
        return rc;
    }
    if (rec->space != 0) {
        err_setf(err, errlen,
                 "%s:%s%llu: address space %u: every input of mix must be a one-application "
                 "trace (address space 0)",
                 m->path, trace_is_binary(m->r) ? "offset " : "", (unsigned long long)rec->line,
                 rec->space);
        return -1;
    }
    if (rec->kind == TRACE_REC_KERNEL) {
        m->look = *rec;
        m->have_look = 1;
        m->active = 0;
        return 0;
    }
    rec->space = space;
    return 1;
}

/* The name of an output kernel: the inputs' kernel names joined by '+', cut to fit. */
static void mix_name(char *out, const char *add) {
    size_t n = strlen(out);
    if (n > 0 && n + 1 < TRACE_NAME_MAX)
        out[n++] = '+';
    for (size_t i = 0; add[i] && n + 1 < TRACE_NAME_MAX; i++)
        out[n++] = add[i];
    out[n] = '\0';
}

/* Writes the records of the current segments, round-robin over the inputs. 0 or -1 + err. */
static int mix_segment(mix_in_t *in, unsigned n, trace_writer_t *w, int round_robin, char *err,
                       size_t errlen) {
    int any = 1;
    trace_rec_t rec;
    while (any) {
        any = 0;
        for (unsigned i = 0; i < n; i++) {
            int rc;
            while ((rc = mix_next(&in[i], i, &rec, err, errlen)) == 1) {
                if (trace_write(w, &rec, err, errlen) != 0)
                    return -1;
                any = 1;
                if (round_robin)
                    break;
            }
            if (rc < 0)
                return -1;
        }
    }
    return 0;
}

static int mix_run(mix_in_t *in, unsigned n, trace_writer_t *w, char *err, size_t errlen) {
    for (unsigned i = 0; i < n; i++)
        in[i].active = 1; /* the records before the first kernel */
    if (mix_segment(in, n, w, 0, err, errlen) != 0)
        return -1;
    for (;;) {
        trace_rec_t k = {.kind = TRACE_REC_KERNEL};
        for (unsigned i = 0; i < n; i++)
            if (in[i].have_look) {
                mix_name(k.name, in[i].look.name);
                in[i].have_look = 0;
                in[i].active = 1;
            }
        if (k.name[0] == '\0')
            return 0; /* no input has a further kernel */
        if (trace_write(w, &k, err, errlen) != 0 || mix_segment(in, n, w, 1, err, errlen) != 0)
            return -1;
    }
}

int trace_mix(const char *const *paths, unsigned n, trace_writer_t *w, char *err, size_t errlen) {
    if (!paths || !w || n == 0 || n > TRACE_SPACES) {
        err_setf(err, errlen, "trace_mix: %u inputs (1..%u)", n, TRACE_SPACES);
        return -1;
    }
    mix_in_t *in = calloc(n, sizeof(*in));
    if (!in) {
        err_setf(err, errlen, "trace_mix: out of memory");
        return -1;
    }
    int rc = 0;
    for (unsigned i = 0; i < n && rc == 0; i++) {
        in[i].path = paths[i];
        in[i].r = trace_open(paths[i], err, errlen);
        if (!in[i].r)
            rc = -1;
    }
    if (rc == 0)
        rc = mix_run(in, n, w, err, errlen);
    for (unsigned i = 0; i < n; i++)
        if (in[i].r)
            trace_close(in[i].r);
    free(in);
    return rc;
}
