/*
 * fuzz_trace_text.c - libFuzzer harness of the text trace reader (tools/trace/trace_text.c) and
 * of the writer: the input is a text trace; every record the reader accepts must also be
 * accepted by the writer (one validation rule), and the binary trace written from them must
 * read back as the same records. A reader error must name the file and line.
 */
#include "fuzz_util.h"
#include "trace.h"

static int rec_same(const trace_rec_t *a, const trace_rec_t *b) {
    /* a kernel record has no address space of its own (docs/trace-format.md) */
    if (a->kind != b->kind || (a->kind != TRACE_REC_KERNEL && a->space != b->space))
        return 0;
    switch (a->kind) {
    case TRACE_REC_ALLOC:
        return strcmp(a->name, b->name) == 0 && a->base == b->base && a->size == b->size &&
               !a->readonly == !b->readonly;
    case TRACE_REC_KERNEL:
        return strcmp(a->name, b->name) == 0;
    case TRACE_REC_EXIT:
        return a->cta == b->cta && a->warp == b->warp;
    case TRACE_REC_FREE:
        return strcmp(a->name, b->name) == 0;
    case TRACE_REC_ADVISE:
    case TRACE_REC_PREFETCH:
        return a->base == b->base && a->size == b->size && a->arg == b->arg;
    case TRACE_REC_CPU:
        return a->base == b->base && a->size == b->size && a->op == b->op;
    case TRACE_REC_MEM:
        if (a->cta != b->cta || a->warp != b->warp || a->op != b->op || a->gap != b->gap ||
            a->mask != b->mask)
            return 0;
        for (int i = 0; i < TRACE_LANES; i++)
            if ((a->mask >> i & 1u) && a->addr[i] != b->addr[i])
                return 0;
        return 1;
    }
    return 0;
}

#define MAX_RECS 512

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* binary input is the binary harness's business */
    if (size >= 4 && memcmp(data, "GMTB", 4) == 0)
        return 0;
    char in[256], out[256], err[512];
    fuzz_path(in, sizeof(in), "text", ".trc");
    fuzz_path(out, sizeof(out), "text-rt", ".trc");
    if (fuzz_write_file(in, NULL, 0, data, size) != 0)
        abort();
    err[0] = '\0';
    trace_reader_t *r = trace_open(in, err, sizeof(err));
    if (!r) {
        fuzz_check_msg("trace_open", err);
        return 0;
    }
    trace_rec_t *recs = calloc(MAX_RECS, sizeof(*recs));
    if (!recs)
        abort();
    int n = 0, rc = 0;
    while (n < MAX_RECS && (rc = trace_next(r, &recs[n], err, sizeof(err))) == 1)
        n++;
    trace_close(r);
    if (n == MAX_RECS || rc < 0) {
        free(recs);
        if (rc < 0) {
            fuzz_check_msg("trace_next", err);
            if (strncmp(err, in, strlen(in)) != 0) {
                fprintf(stderr, "fuzz: reader error does not name the file: %s\n", err);
                abort();
            }
        }
        return 0;
    }
    /* round trip through the binary writer */
    trace_writer_t *w = trace_create(out, 1, err, sizeof(err));
    if (!w)
        abort();
    for (int i = 0; i < n; i++) {
        if (trace_write(w, &recs[i], err, sizeof(err)) != 0) {
            fprintf(stderr, "fuzz: record %d read from text is refused by the writer: %s\n", i,
                    err);
            abort();
        }
    }
    if (trace_finish(w, err, sizeof(err)) != 0) {
        fprintf(stderr, "fuzz: trace_finish: %s\n", err);
        abort();
    }
    r = trace_open(out, err, sizeof(err));
    if (!r)
        abort();
    trace_rec_t back;
    for (int i = 0; i < n; i++) {
        if (trace_next(r, &back, err, sizeof(err)) != 1 || !rec_same(&recs[i], &back)) {
            fprintf(stderr, "fuzz: record %d differs after the binary round trip (%s)\n", i, err);
            abort();
        }
    }
    if (trace_next(r, &back, err, sizeof(err)) != 0) {
        fprintf(stderr, "fuzz: extra record after the round trip\n");
        abort();
    }
    trace_close(r);
    unlink(out);
    free(recs);
    return 0;
}
