/*
 * trace.h - reader/writer of the project's trace format (docs/trace-format.md), text and binary.
 * Module prefix trace_. No global state. Errors are reported as "file:line: reason" (text) or
 * "file:offset N: reason" (binary) in the caller's buffer.
 */
#ifndef GMMU_TRACE_H
#define GMMU_TRACE_H

#include <stddef.h>
#include <stdint.h>

#define TRACE_LANES 32
#define TRACE_NAME_MAX 64
/* The GPU's virtual address space (docs/trace-format.md, "Validation"): every allocation and
 * every lane address lies below 2^TRACE_VA_BITS (= GMMU_VA_W; the simulator asserts it). */
#define TRACE_VA_BITS 48
#define TRACE_VA_LIMIT (1ull << TRACE_VA_BITS)
#define TRACE_PAGE_BYTES 4096ull
/* Address spaces (docs/trace-format.md "Address spaces"): a record's space is 0..TRACE_SPACES-1
 * (= the GMMU's 8-bit ASID field); traces without `space` records are all in space 0. */
#define TRACE_SPACES 256u
/* In an address space other than 0 a warp index is below 2^24 (a CUDA CTA has at most 32 warps),
 * so that (space, cta, warp) fits one 64-bit key: trace_warp_key. */
#define TRACE_SPACE_WARP_LIMIT (1u << 24)

/* The 64-bit key of warp (cta, warp) of address space space: cta << 32 | warp in space 0 (as
 * before address spaces), and the space in bits 24..31 otherwise (exact: trace_rec_check keeps
 * warp below TRACE_SPACE_WARP_LIMIT there). */
static inline uint64_t trace_warp_key(uint32_t space, uint32_t cta, uint32_t warp) {
    return ((uint64_t)cta << 32 | warp) ^ ((uint64_t)space << 24);
}

typedef enum {
    TRACE_REC_ALLOC = 1,  /* allocation: name, base, size, readonly */
    TRACE_REC_KERNEL = 2, /* kernel boundary: name; every later record belongs to it */
    TRACE_REC_MEM = 3,    /* one warp memory instruction */
    TRACE_REC_EXIT = 4,   /* warp (cta, warp) has no further memory instruction in this kernel */
    /* host calls between kernels (docs/trace-format.md "Host calls"): base/size is the RANGE */
    TRACE_REC_ADVISE = 5,   /* cudaMemAdvise(base, size, arg = trace_advice_t) */
    TRACE_REC_PREFETCH = 6, /* cudaMemPrefetchAsync(base, size, arg = trace_loc_t) */
    TRACE_REC_FREE = 7,     /* cudaFree of the allocation called name */
    TRACE_REC_CPU = 8       /* the CPU reads (op R) or writes (op W) [base, base + size) */
} trace_rec_kind_t;

/* advise: the advice (text keyword in trace_advice_name) */
typedef enum {
    TRACE_ADV_READ_MOSTLY = 0, /* read_mostly: cudaMemAdviseSetReadMostly */
    TRACE_ADV_PREFER_GPU = 1,  /* preferred_location=gpu */
    TRACE_ADV_PREFER_HOST = 2, /* preferred_location=host */
    TRACE_ADV_ACCESSED_BY = 3, /* accessed_by (the GPU): cudaMemAdviseSetAccessedBy */
    TRACE_ADV_COUNT = 4
} trace_advice_t;

/* prefetch: the destination */
typedef enum { TRACE_LOC_GPU = 0, TRACE_LOC_HOST = 1, TRACE_LOC_COUNT = 2 } trace_loc_t;

typedef enum { TRACE_OP_READ = 0, TRACE_OP_WRITE = 1, TRACE_OP_ATOMIC = 2 } trace_op_t;

typedef struct {
    trace_rec_kind_t kind;
    char name[TRACE_NAME_MAX];  /* ALLOC, KERNEL, FREE */
    uint64_t base, size;        /* ALLOC: byte address and size; ADVISE, PREFETCH, CPU: range */
    uint32_t arg;               /* ADVISE: trace_advice_t; PREFETCH: trace_loc_t */
    int readonly;               /* ALLOC */
    uint32_t cta;               /* MEM, EXIT: CTA id; SM = cta % num_sm */
    uint32_t warp;              /* MEM, EXIT: warp index within the CTA */
    trace_op_t op;              /* MEM; CPU (R or W) */
    uint32_t gap;               /* MEM: compute cycles between the warp's previous instruction
                                   completing and this one issuing */
    uint32_t mask;              /* MEM: active lanes */
    uint64_t addr[TRACE_LANES]; /* MEM: byte address of lane i (valid where mask bit i is set) */
    uint64_t line;  /* position of the record in its file (line number or byte offset) */
    uint32_t space; /* every record but KERNEL: address space (application), 0..TRACE_SPACES-1; set
                       by the last `space` record before it (0 if none); the reader fills it, the
                       writer emits a `space` record when it changes */
} trace_rec_t;

/* The one validation rule of a record, shared by the reader (text and binary), the writer (so
 * the generators and importers), gmmu-trace and the simulator: name 1..63 printable bytes without
 * blanks or '#'; an allocation of > 0 bytes, base 4 KB-aligned, [base, base + size) inside the
 * 48-bit space; a memory record with an active lane, a valid op and every active lane's address
 * inside the 48-bit space. 0, or -1 with the reason in why (no position). */
int trace_rec_check(const trace_rec_t *rec, char *why, size_t whylen);
/* 1 if name is 1..TRACE_NAME_MAX-1 printable bytes without blanks or '#'. */
int trace_name_valid(const char *name);
/* The text keywords of an advice ("read_mostly", "preferred_location=gpu", ...) and of a
 * prefetch destination ("gpu", "host"); "?" out of range. */
const char *trace_advice_name(uint32_t advice);
const char *trace_loc_name(uint32_t loc);
/* 1 if rec is a host call (ADVISE, PREFETCH, FREE, CPU): a record between kernels. */
int trace_rec_is_host(const trace_rec_t *rec);

typedef struct trace_reader trace_reader_t;
typedef struct trace_writer trace_writer_t;

/* Opens a text or binary trace (detected from the magic "GMTB"), or "-" for stdin (text or binary).
 * Also accepts .xz files (decompressed through xz -dc). NULL on error with err filled. */
trace_reader_t *trace_open(const char *path, char *err, size_t errlen);
/* 1: a record was read; 0: end of trace; -1: error (err = "path:line: reason"). */
int trace_next(trace_reader_t *r, trace_rec_t *rec, char *err, size_t errlen);
void trace_close(trace_reader_t *r);
/* 1 if the trace is binary (rec.line is then a byte offset, reported as "offset N"), else 0. */
int trace_is_binary(const trace_reader_t *r);

/* binary != 0: binary format. "-" writes to stdout. */
trace_writer_t *trace_create(const char *path, int binary, char *err, size_t errlen);
int trace_write(trace_writer_t *w, const trace_rec_t *rec, char *err, size_t errlen);
/* flushes and closes; returns 0 or -1 with err. */
int trace_finish(trace_writer_t *w, char *err, size_t errlen);

/* One call per record, the fields as arguments (what language bindings call: the Python
 * importers write through these, tools/trace/trace_ctypes.py). addrs: the addresses of the
 * active lanes of mask, in lane order (popcount(mask) values). 0 or -1 with err, as trace_write. */
int trace_write_alloc(trace_writer_t *w, const char *name, uint64_t base, uint64_t size,
                      int readonly, char *err, size_t errlen);
int trace_write_kernel(trace_writer_t *w, const char *name, char *err, size_t errlen);
int trace_write_mem(trace_writer_t *w, uint32_t cta, uint32_t warp, int op, uint32_t gap,
                    uint32_t mask, const uint64_t *addrs, char *err, size_t errlen);
int trace_write_exit(trace_writer_t *w, uint32_t cta, uint32_t warp, char *err, size_t errlen);
/* Host calls (docs/trace-format.md "Host calls"): advice a trace_advice_t, loc a trace_loc_t,
 * op 0 (R) or 1 (W). */
int trace_write_advise(trace_writer_t *w, uint64_t base, uint64_t size, uint32_t advice, char *err,
                       size_t errlen);
int trace_write_prefetch(trace_writer_t *w, uint64_t base, uint64_t size, uint32_t loc, char *err,
                         size_t errlen);
int trace_write_free(trace_writer_t *w, const char *name, char *err, size_t errlen);
int trace_write_cpu(trace_writer_t *w, uint64_t base, uint64_t size, int op, char *err,
                    size_t errlen);
/* The address space of the following trace_write_alloc/mem/exit calls (0 until called).
 * 0, or -1 with err if space >= TRACE_SPACES. */
int trace_write_space(trace_writer_t *w, uint32_t space, char *err, size_t errlen);
/* Multi-application combiner (docs/trace-format.md "Address spaces"): writes to w the n traces
 * of paths (each in address space 0) with trace i in address space i; output kernel k holds
 * kernel k of every input that has one, records interleaved round-robin. 1 <= n <= TRACE_SPACES.
 * 0, or -1 with err naming the input file and position. */
int trace_mix(const char *const *paths, unsigned n, trace_writer_t *w, char *err, size_t errlen);
/* Writes every remaining record of r to w (re-encoded: the encoding choice is the writer's);
 * 0 at the end of r, -1 with err on a read or write error. */
int trace_copy(trace_reader_t *r, trace_writer_t *w, char *err, size_t errlen);

#endif
