/*
 * gmmu_trace.c - gmmu-trace: convert and inspect traces (docs/trace-format.md).
 *
 *   gmmu-trace convert IN OUT [--binary|--text]   re-encode (default: binary unless OUT ends .txt)
 *   gmmu-trace stats IN                           record counts, distinct pages, footprint
 *   gmmu-trace check IN                           parse + every access inside an allocation,
 *                                                 nothing before the first kernel, exit rules
 *
 * check keeps, per kernel, the warps that have exited (cleared at each kernel record): its
 * memory is bounded by the warps of one kernel, whatever the length of the trace.
 * IN / OUT may be "-" (stdin / stdout) and may end in .xz.
 */
#define _POSIX_C_SOURCE 200809L

#include "trace.h"
#include "u64map.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_SHIFT 12

typedef struct {
    uint64_t base, size;
    char name[TRACE_NAME_MAX];
} alloc_t;

static int usage(void) {
    fprintf(stderr, "usage: gmmu-trace convert IN OUT [--binary|--text]\n"
                    "       gmmu-trace stats IN\n"
                    "       gmmu-trace check IN\n"
                    "IN/OUT may be '-' (stdin/stdout) and may end in .xz\n");
    return 2;
}

static int cmd_convert(const char *in, const char *out, int binary) {
    char err[512];
    trace_reader_t *r = trace_open(in, err, sizeof(err));
    if (!r) {
        fprintf(stderr, "gmmu-trace: %s\n", err);
        return 1;
    }
    trace_writer_t *w = trace_create(out, binary, err, sizeof(err));
    if (!w) {
        fprintf(stderr, "gmmu-trace: %s\n", err);
        trace_close(r);
        return 1;
    }
    int rc = trace_copy(r, w, err, sizeof(err));
    if (rc != 0)
        fprintf(stderr, "gmmu-trace: %s\n", err);
    trace_close(r);
    if (trace_finish(w, err, sizeof(err)) != 0) {
        fprintf(stderr, "gmmu-trace: %s\n", err);
        rc = -1;
    }
    return rc == 0 ? 0 : 1;
}

/* Position of a record for messages: "line 9" (text) or "offset 4402" (binary). */
static const char *pos_str(char *buf, size_t n, int binary, uint64_t pos) {
    snprintf(buf, n, "%s %" PRIu64, binary ? "offset" : "line", pos);
    return buf;
}

/* Prefix of a message about a record: "t.trc:12" (text) or "t.bin:offset 4711" (binary). */
static const char *where(char *buf, size_t n, const char *path, int binary, uint64_t pos) {
    snprintf(buf, n, "%s:%s%" PRIu64, path, binary ? "offset " : "", pos);
    return buf;
}

#define MAX_REPORTS 10 /* detailed messages per kind of error; the total is reported */

static int alloc_find(const alloc_t *a, size_t n, uint64_t addr) {
    for (size_t i = n; i-- > 0;)
        if (addr >= a[i].base && addr - a[i].base < a[i].size)
            return (int)i;
    return -1;
}

/* stats (check = 0) or check (check = 1) */
static int cmd_stats(const char *in, int check) {
    char err[512];
    trace_reader_t *r = trace_open(in, err, sizeof(err));
    if (!r) {
        fprintf(stderr, "gmmu-trace: %s\n", err);
        return 1;
    }
    uint64_t records = 0, nalloc = 0, nkernel = 0, ninst = 0, lanes = 0, reads = 0, writes = 0,
             atomics = 0, alloc_bytes = 0, outside = 0, before_kernel = 0, gap_sum = 0,
             translations = 0, exits = 0, exit_errors = 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    u64map_t pages; /* distinct 4 KB pages touched (value unused) */
    u64map_init(&pages);
    alloc_t *allocs = NULL;
    size_t cap = 0;
    int last_hit = -1, rc, bad = 0;
    const int binary = trace_is_binary(r);
    u64map_t exited; /* check: (cta << 32 | warp) -> position of its exit, this kernel only */
    u64map_init(&exited);
    char wh[600], at[64];
    trace_rec_t rec;
    while ((rc = trace_next(r, &rec, err, sizeof(err))) == 1) {
        records++;
        if (rec.kind == TRACE_REC_ALLOC) {
            if (nalloc == cap) {
                cap = cap ? cap * 2 : 16;
                alloc_t *na = realloc(allocs, cap * sizeof(*na));
                if (!na) {
                    fprintf(stderr, "gmmu-trace: out of memory\n");
                    bad = 1;
                    break;
                }
                allocs = na;
            }
            for (size_t i = 0; i < nalloc; i++)
                if (rec.base < allocs[i].base + allocs[i].size &&
                    allocs[i].base < rec.base + rec.size) {
                    if (check)
                        fprintf(stderr, "%s: allocation %s overlaps %s\n",
                                where(wh, sizeof(wh), in, binary, rec.line), rec.name,
                                allocs[i].name);
                    bad = check;
                }
            allocs[nalloc].base = rec.base;
            allocs[nalloc].size = rec.size;
            memcpy(allocs[nalloc].name, rec.name, TRACE_NAME_MAX);
            nalloc++;
            alloc_bytes += rec.size;
            continue;
        }
        if (rec.kind == TRACE_REC_KERNEL) {
            nkernel++;
            u64map_clear(&exited);
            continue;
        }
        const uint64_t wkey = (uint64_t)rec.cta << 32 | rec.warp;
        uint64_t exit_pos;
        if (rec.kind == TRACE_REC_EXIT) {
            exits++;
            if (!check)
                continue;
            if (nkernel == 0) {
                if (exit_errors++ < MAX_REPORTS)
                    fprintf(stderr, "%s: exit record before the first kernel\n",
                            where(wh, sizeof(wh), in, binary, rec.line));
            } else if (u64map_get(&exited, wkey, &exit_pos)) {
                if (exit_errors++ < MAX_REPORTS)
                    fprintf(stderr,
                            "%s: warp (cta %" PRIu32 ", warp %" PRIu32 ") exits twice "
                            "(first exit at %s)\n",
                            where(wh, sizeof(wh), in, binary, rec.line), rec.cta, rec.warp,
                            pos_str(at, sizeof(at), binary, exit_pos));
            } else if (u64map_put(&exited, wkey, rec.line) != 0) {
                fprintf(stderr, "gmmu-trace: out of memory\n");
                bad = 1;
                break;
            }
            continue;
        }
        if (check && nkernel > 0 && u64map_get(&exited, wkey, &exit_pos) &&
            exit_errors++ < MAX_REPORTS)
            fprintf(stderr, "%s: warp (cta %" PRIu32 ", warp %" PRIu32 ") has exited at %s\n",
                    where(wh, sizeof(wh), in, binary, rec.line), rec.cta, rec.warp,
                    pos_str(at, sizeof(at), binary, exit_pos));
        ninst++;
        gap_sum += rec.gap;
        if (nkernel == 0)
            before_kernel++;
        if (rec.op == TRACE_OP_READ)
            reads++;
        else if (rec.op == TRACE_OP_WRITE)
            writes++;
        else
            atomics++;
        uint64_t last_page = UINT64_MAX, seen[TRACE_LANES] = {0};
        int nseen = 0;
        for (int i = 0; i < TRACE_LANES; i++) {
            if (!(rec.mask >> i & 1u))
                continue;
            uint64_t a = rec.addr[i];
            lanes++;
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
            if (last_hit < 0 || a < allocs[last_hit].base ||
                a - allocs[last_hit].base >= allocs[last_hit].size)
                last_hit = alloc_find(allocs, nalloc, a);
            if (last_hit < 0) {
                if (check && outside < MAX_REPORTS)
                    fprintf(stderr,
                            "%s: lane %d address 0x%" PRIx64 " is outside every allocation\n",
                            where(wh, sizeof(wh), in, binary, rec.line), i, a);
                outside++;
            }
            int dup = 0;
            for (int j = 0; j < nseen && !dup; j++)
                dup = seen[j] == a >> PAGE_SHIFT;
            if (!dup)
                seen[nseen++] = a >> PAGE_SHIFT;
            if ((a >> PAGE_SHIFT) != last_page) {
                last_page = a >> PAGE_SHIFT;
                uint64_t unused;
                if (!u64map_get(&pages, last_page, &unused) &&
                    u64map_put(&pages, last_page, 1) != 0) {
                    fprintf(stderr, "gmmu-trace: out of memory\n");
                    bad = 1;
                    break;
                }
            }
        }
        translations += (uint64_t)nseen;
    }
    if (rc < 0) {
        fprintf(stderr, "gmmu-trace: %s\n", err);
        bad = 1;
    }
    trace_close(r);
    if (!check) {
        printf("records        %" PRIu64 "\n", records);
        printf("allocations    %" PRIu64 " (%" PRIu64 " bytes, %.1f MB)\n", nalloc, alloc_bytes,
               alloc_bytes / 1048576.0);
        printf("kernels        %" PRIu64 "\n", nkernel);
        printf("warp exits     %" PRIu64 "\n", exits);
        printf("instructions   %" PRIu64 " (R %" PRIu64 ", W %" PRIu64 ", A %" PRIu64 ")\n", ninst,
               reads, writes, atomics);
        printf("lane accesses  %" PRIu64 "\n", lanes);
        printf("translations   %" PRIu64 " (distinct pages per instruction, summed)\n",
               translations);
        printf("mean gap       %.1f\n", ninst ? (double)gap_sum / (double)ninst : 0.0);
        printf("distinct pages %zu\n", pages.count);
        printf("footprint      %" PRIu64 " bytes (%.1f MB, distinct 4 KB pages touched)\n",
               (uint64_t)pages.count << PAGE_SHIFT, (double)pages.count * 4096.0 / 1048576.0);
        if (ninst)
            printf("address range  0x%" PRIx64 "-0x%" PRIx64 "\n", lo, hi);
        printf("outside allocs %" PRIu64 "\n", outside);
    } else {
        if (before_kernel) {
            fprintf(stderr, "%s: %" PRIu64 " memory instructions before the first kernel\n", in,
                    before_kernel);
            bad = 1;
        }
        if (outside) {
            fprintf(stderr, "%s: %" PRIu64 " lane accesses outside every allocation\n", in,
                    outside);
            bad = 1;
        }
        if (exit_errors) {
            fprintf(stderr,
                    "%s: %" PRIu64 " warp exit errors (exit before the first kernel, second "
                    "exit, memory record after the exit)\n",
                    in, exit_errors);
            bad = 1;
        }
        if (!bad)
            printf("%s: ok (%" PRIu64 " records, %zu pages)\n", in, records, pages.count);
    }
    u64map_free(&pages);
    free(allocs);
    u64map_free(&exited);
    return bad ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc < 3)
        return usage();
    if (strcmp(argv[1], "convert") == 0) {
        if (argc < 4 || argc > 5)
            return usage();
        int binary = 1;
        size_t n = strlen(argv[3]);
        if ((n >= 4 && strcmp(argv[3] + n - 4, ".txt") == 0) ||
            (n >= 7 && strcmp(argv[3] + n - 7, ".txt.xz") == 0) || strcmp(argv[3], "-") == 0)
            binary = 0;
        if (argc == 5) {
            if (strcmp(argv[4], "--binary") == 0)
                binary = 1;
            else if (strcmp(argv[4], "--text") == 0)
                binary = 0;
            else
                return usage();
        }
        return cmd_convert(argv[2], argv[3], binary);
    }
    if (strcmp(argv[1], "stats") == 0 && argc == 3)
        return cmd_stats(argv[2], 0);
    if (strcmp(argv[1], "check") == 0 && argc == 3)
        return cmd_stats(argv[2], 1);
    return usage();
}
