/*
 * gmmu_trace.c - gmmu-trace: convert and inspect traces (docs/trace-format.md).
 *
 *   gmmu-trace convert IN OUT [--binary|--text]   re-encode (default: binary unless OUT ends .txt)
 *   gmmu-trace stats IN                           record counts, distinct pages, footprint
 *   gmmu-trace check IN                           parse + every access inside an allocation,
 *                                                 nothing before the first kernel, exit rules
 *   gmmu-trace mix OUT IN1 IN2 ...                multi-application trace: INi in address space
 *                                                 i-1, kernels merged (trace_mix)
 *   gmmu-trace profile IN                         object profile: per allocation and launch the
 *                                                 access density, locality, reuse (trace_profile.h)
 *
 * check keeps, per kernel, the warps that have exited (cleared at each kernel record): its
 * memory is bounded by the warps of one kernel, whatever the length of the trace.
 * IN / OUT may be "-" (stdin / stdout) and may end in .xz.
 */
#define _POSIX_C_SOURCE 200809L

#include "trace.h"
#include "trace_out.h"
#include "trace_profile.h"
#include "u64map.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE_SHIFT 12

typedef struct {
    uint64_t base, size;
    uint32_t space;
    int freed; /* a `free` record released it: no longer an allocation */
    char name[TRACE_NAME_MAX];
} alloc_t;

/* u64map key of (space, cta, warp), trace.h */
static uint64_t warp_key(const trace_rec_t *rec) {
    return trace_warp_key(rec->space, rec->cta, rec->warp);
}
static int usage(void) {
    fprintf(stderr, "usage: gmmu-trace convert IN OUT [--binary|--text]\n"
                    "       gmmu-trace stats IN\n"
                    "       gmmu-trace check IN\n"
                    "       gmmu-trace profile IN (per object and launch: density, locality, "
                    "reuse)\n"
                    "       gmmu-trace mix OUT IN1 IN2 ... (INi in address space i-1)\n"
                    "IN/OUT may be '-' (stdin/stdout) and may end in .xz\n");
    return 2;
}

/* IN and OUT name the same file (converting in place would truncate the input first). */
static int same_file(const char *in, const char *out) {
    struct stat a, b;
    if (strcmp(in, "-") == 0 || strcmp(out, "-") == 0)
        return 0;
    return stat(in, &a) == 0 && stat(out, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The output is written as trace_out.h says (issue 26): a regular file through a temporary file
 * renamed at the end (a failed conversion leaves no output and no shorter, valid-looking trace);
 * a device node or FIFO in place, never replaced or removed. */
static int cmd_convert(const char *in, const char *out, int binary) {
    char err[512];
    if (same_file(in, out)) {
        fprintf(stderr, "gmmu-trace: convert: %s and %s are the same file\n", in, out);
        return 2;
    }
    trace_reader_t *r = trace_open(in, err, sizeof(err));
    if (!r) {
        fprintf(stderr, "gmmu-trace: %s\n", err);
        return 1;
    }
    trace_out_t o;
    const char *wpath = trace_out_begin(&o, out, err, sizeof(err));
    trace_writer_t *w = wpath ? trace_create(wpath, binary, err, sizeof(err)) : NULL;
    if (!w) {
        if (wpath && !trace_out_in_place(&o)) /* name the output, not the temporary file */
            fprintf(stderr, "gmmu-trace: %s: cannot create: %s\n", out, strerror(errno));
        else
            fprintf(stderr, "gmmu-trace: %s\n", err);
        trace_close(r);
        (void)trace_out_end(&o, 0, err, sizeof(err));
        return 1;
    }
    int rc = trace_copy(r, w, err, sizeof(err));
    if (rc != 0)
        fprintf(stderr, "gmmu-trace: %s\n", err);
    trace_close(r);
    if (trace_finish(w, err, sizeof(err)) != 0) {
        if (rc == 0) /* a write error is reported once */
            fprintf(stderr, "gmmu-trace: %s\n", err);
        rc = -1;
    }
    if (trace_out_end(&o, rc == 0, err, sizeof(err)) != 0) {
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

static int alloc_find(const alloc_t *a, size_t n, uint32_t space, uint64_t addr) {
    for (size_t i = n; i-- > 0;)
        if (!a[i].freed && a[i].space == space && addr >= a[i].base && addr - a[i].base < a[i].size)
            return (int)i;
    return -1;
}

/* State of one stats / check pass over a trace. */
typedef struct {
    const char *in;
    int check, binary, bad;
    uint64_t records, nalloc, nkernel, ninst, lanes, reads, writes, atomics, alloc_bytes, outside,
        before_kernel, gap_sum, translations, exits, exit_errors, host[4], host_errors;
    uint64_t lo, hi;
    uint32_t spaces; /* highest address space + 1 */
    u64map_t pages;  /* distinct (space, 4 KB page) touched (value unused) */
    u64map_t exited; /* check: warp_key -> position of its exit, this kernel only */
    alloc_t *allocs;
    size_t cap;
    int last_hit;
    char wh[600], at[64];
} ts_t;

static const char *ts_where(ts_t *s, const trace_rec_t *rec) {
    return where(s->wh, sizeof(s->wh), s->in, s->binary, rec->line);
}

/* 0, or -1 when memory runs out */
static int ts_alloc(ts_t *s, const trace_rec_t *rec) {
    if (s->nalloc == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 16;
        alloc_t *na = realloc(s->allocs, s->cap * sizeof(*na));
        if (!na)
            return -1;
        s->allocs = na;
    }
    for (size_t i = 0; i < s->nalloc; i++)
        if (!s->allocs[i].freed && s->allocs[i].space == rec->space &&
            rec->base < s->allocs[i].base + s->allocs[i].size &&
            s->allocs[i].base < rec->base + rec->size) {
            if (s->check) {
                fprintf(stderr, "%s: allocation %s overlaps %s\n", ts_where(s, rec), rec->name,
                        s->allocs[i].name);
                s->bad = 1;
            }
        }
    s->allocs[s->nalloc].base = rec->base;
    s->allocs[s->nalloc].size = rec->size;
    s->allocs[s->nalloc].space = rec->space;
    s->allocs[s->nalloc].freed = 0;
    memcpy(s->allocs[s->nalloc].name, rec->name, TRACE_NAME_MAX);
    s->nalloc++;
    s->alloc_bytes += rec->size;
    return 0;
}

/* A host call (advise, prefetch, free, cpu): its range lies inside one allocation of its space;
 * a free names a live allocation of its space, which is then gone. */
static void ts_host(ts_t *s, const trace_rec_t *rec) {
    static const char *const kw[4] = {"advise", "prefetch", "free", "cpu"};
    const int k = (int)rec->kind - (int)TRACE_REC_ADVISE;
    s->host[k]++;
    if (rec->kind == TRACE_REC_FREE) {
        for (size_t i = s->nalloc; i-- > 0;)
            if (!s->allocs[i].freed && s->allocs[i].space == rec->space &&
                strcmp(s->allocs[i].name, rec->name) == 0) {
                s->allocs[i].freed = 1;
                s->last_hit = -1;
                return;
            }
        if (s->check && s->host_errors++ < MAX_REPORTS)
            fprintf(stderr, "%s: field 2 (name): free of '%s': no such allocation%s\n",
                    ts_where(s, rec), rec->name, rec->space ? " in this address space" : "");
        return;
    }
    const int a = alloc_find(s->allocs, s->nalloc, rec->space, rec->base);
    if (a >= 0 && rec->size <= s->allocs[a].size - (rec->base - s->allocs[a].base))
        return;
    if (s->check && s->host_errors++ < MAX_REPORTS) {
        if (a < 0)
            fprintf(stderr,
                    "%s: field 2 (base): %s range 0x%" PRIx64 " is outside every allocation\n",
                    ts_where(s, rec), kw[k], rec->base);
        else
            fprintf(stderr,
                    "%s: field 3 (size): %s range [0x%" PRIx64 ", +0x%" PRIx64
                    ") does not lie inside allocation %s [0x%" PRIx64 ", +0x%" PRIx64 ")\n",
                    ts_where(s, rec), kw[k], rec->base, rec->size, s->allocs[a].name,
                    s->allocs[a].base, s->allocs[a].size);
    }
}

/* 0, or -1 when memory runs out */
static int ts_exit(ts_t *s, const trace_rec_t *rec) {
    const uint64_t wkey = warp_key(rec);
    uint64_t exit_pos;
    s->exits++;
    if (!s->check)
        return 0;
    if (s->nkernel == 0) {
        if (s->exit_errors++ < MAX_REPORTS)
            fprintf(stderr, "%s: exit record before the first kernel\n", ts_where(s, rec));
    } else if (u64map_get(&s->exited, wkey, &exit_pos)) {
        if (s->exit_errors++ < MAX_REPORTS)
            fprintf(stderr,
                    "%s: warp (cta %" PRIu32 ", warp %" PRIu32 ") exits twice "
                    "(first exit at %s)\n",
                    ts_where(s, rec), rec->cta, rec->warp,
                    pos_str(s->at, sizeof(s->at), s->binary, exit_pos));
    } else if (u64map_put(&s->exited, wkey, rec->line) != 0) {
        return -1;
    }
    return 0;
}

/* Lane i's address a: range, allocation it falls in, page. 0, or -1 when memory runs out. */
static int ts_lane(ts_t *s, const trace_rec_t *rec, int i, uint64_t *last_page) {
    const uint64_t a = rec->addr[i];
    s->lanes++;
    s->lo = a < s->lo ? a : s->lo;
    s->hi = a > s->hi ? a : s->hi;
    const alloc_t *h = s->last_hit >= 0 ? &s->allocs[s->last_hit] : NULL;
    if (!h || h->space != rec->space || a < h->base || a - h->base >= h->size)
        s->last_hit = alloc_find(s->allocs, s->nalloc, rec->space, a);
    if (s->last_hit < 0) {
        if (s->check && s->outside < MAX_REPORTS)
            fprintf(stderr, "%s: lane %d address 0x%" PRIx64 " is outside every allocation\n",
                    ts_where(s, rec), i, a);
        s->outside++;
    }
    const uint64_t page = (uint64_t)rec->space << 36 | a >> PAGE_SHIFT; /* (space, vpn) */
    if (page != *last_page) {
        *last_page = page;
        uint64_t unused;
        if (!u64map_get(&s->pages, *last_page, &unused) &&
            u64map_put(&s->pages, *last_page, 1) != 0)
            return -1;
    }
    return 0;
}

static void ts_mem(ts_t *s, const trace_rec_t *rec) {
    const uint64_t wkey = warp_key(rec);
    uint64_t exit_pos;
    if (s->check && s->nkernel > 0 && u64map_get(&s->exited, wkey, &exit_pos) &&
        s->exit_errors++ < MAX_REPORTS)
        fprintf(stderr, "%s: warp (cta %" PRIu32 ", warp %" PRIu32 ") has exited at %s\n",
                ts_where(s, rec), rec->cta, rec->warp,
                pos_str(s->at, sizeof(s->at), s->binary, exit_pos));
    s->ninst++;
    s->gap_sum += rec->gap;
    if (s->nkernel == 0)
        s->before_kernel++;
    if (rec->op == TRACE_OP_READ)
        s->reads++;
    else if (rec->op == TRACE_OP_WRITE)
        s->writes++;
    else
        s->atomics++;
    uint64_t last_page = UINT64_MAX, seen[TRACE_LANES] = {0};
    int nseen = 0;
    for (int i = 0; i < TRACE_LANES; i++) {
        if (!(rec->mask >> i & 1u))
            continue;
        const uint64_t page = rec->addr[i] >> PAGE_SHIFT;
        int dup = 0;
        for (int j = 0; j < nseen && !dup; j++)
            dup = seen[j] == page;
        if (!dup)
            seen[nseen++] = page;
        if (ts_lane(s, rec, i, &last_page) != 0) {
            fprintf(stderr, "gmmu-trace: out of memory\n");
            s->bad = 1;
            break;
        }
    }
    s->translations += (uint64_t)nseen;
}

static void ts_print_stats(const ts_t *s) {
    printf("records        %" PRIu64 "\n", s->records);
    printf("allocations    %" PRIu64 " (%" PRIu64 " bytes, %.1f MB)\n", s->nalloc, s->alloc_bytes,
           s->alloc_bytes / 1048576.0);
    printf("kernels        %" PRIu64 "\n", s->nkernel);
    printf("warp exits     %" PRIu64 "\n", s->exits);
    printf("instructions   %" PRIu64 " (R %" PRIu64 ", W %" PRIu64 ", A %" PRIu64 ")\n", s->ninst,
           s->reads, s->writes, s->atomics);
    printf("lane accesses  %" PRIu64 "\n", s->lanes);
    printf("translations   %" PRIu64 " (distinct pages per instruction, summed)\n",
           s->translations);
    printf("mean gap       %.1f\n", s->ninst ? (double)s->gap_sum / (double)s->ninst : 0.0);
    printf("distinct pages %zu\n", s->pages.count);
    printf("footprint      %" PRIu64 " bytes (%.1f MB, distinct 4 KB pages touched)\n",
           (uint64_t)s->pages.count << PAGE_SHIFT, (double)s->pages.count * 4096.0 / 1048576.0);
    if (s->ninst)
        printf("address range  0x%" PRIx64 "-0x%" PRIx64 "\n", s->lo, s->hi);
    printf("outside allocs %" PRIu64 "\n", s->outside);
    if (s->host[0] + s->host[1] + s->host[2] + s->host[3])
        printf("host calls     advise %" PRIu64 ", prefetch %" PRIu64 ", free %" PRIu64
               ", cpu %" PRIu64 "\n",
               s->host[0], s->host[1], s->host[2], s->host[3]);
    if (s->spaces > 1)
        printf("address spaces %" PRIu32 " (0..%" PRIu32 ")\n", s->spaces, s->spaces - 1);
}

/* check's verdict; sets s->bad */
static void ts_print_check(ts_t *s) {
    if (s->before_kernel) {
        fprintf(stderr, "%s: %" PRIu64 " memory instructions before the first kernel\n", s->in,
                s->before_kernel);
        s->bad = 1;
    }
    if (s->outside) {
        fprintf(stderr, "%s: %" PRIu64 " lane accesses outside every allocation\n", s->in,
                s->outside);
        s->bad = 1;
    }
    if (s->host_errors) {
        fprintf(stderr,
                "%s: %" PRIu64 " host call errors (a range outside one allocation, a free of "
                "no allocation)\n",
                s->in, s->host_errors);
        s->bad = 1;
    }
    if (s->exit_errors) {
        fprintf(stderr,
                "%s: %" PRIu64 " warp exit errors (exit before the first kernel, second "
                "exit, memory record after the exit)\n",
                s->in, s->exit_errors);
        s->bad = 1;
    }
    if (s->nkernel == 0 && !s->bad) { /* the simulator's rule (an empty trace included) */
        fprintf(stderr, "%s: no kernel record: nothing to simulate (gmmu-sim refuses it)\n", s->in);
        s->bad = 1;
    }
    if (!s->bad)
        printf("%s: ok (%" PRIu64 " records, %zu pages)\n", s->in, s->records, s->pages.count);
}

/* stats (check = 0) or check (check = 1) */
static int cmd_stats(const char *in, int check) {
    char err[512];
    trace_reader_t *r = trace_open(in, err, sizeof(err));
    if (!r) {
        fprintf(stderr, "gmmu-trace: %s\n", err);
        return 1;
    }
    ts_t *s = calloc(1, sizeof(*s));
    if (!s) {
        fprintf(stderr, "gmmu-trace: out of memory\n");
        trace_close(r);
        return 1;
    }
    s->in = in;
    s->check = check;
    s->binary = trace_is_binary(r);
    s->lo = UINT64_MAX;
    s->last_hit = -1;
    (void)u64map_init(&s->pages, 0);
    (void)u64map_init(&s->exited, 0);
    trace_rec_t rec;
    int rc;
    while ((rc = trace_next(r, &rec, err, sizeof(err))) == 1) {
        s->records++;
        if (rec.kind != TRACE_REC_KERNEL && rec.space >= s->spaces)
            s->spaces = rec.space + 1;
        int oom = 0;
        if (rec.kind == TRACE_REC_ALLOC) {
            oom = ts_alloc(s, &rec) != 0;
        } else if (rec.kind == TRACE_REC_KERNEL) {
            s->nkernel++;
            u64map_clear(&s->exited);
        } else if (rec.kind == TRACE_REC_EXIT) {
            oom = ts_exit(s, &rec) != 0;
        } else if (trace_rec_is_host(&rec)) {
            ts_host(s, &rec);
        } else {
            ts_mem(s, &rec);
        }
        if (oom) {
            fprintf(stderr, "gmmu-trace: out of memory\n");
            s->bad = 1;
            break;
        }
    }
    if (rc < 0) {
        fprintf(stderr, "gmmu-trace: %s\n", err);
        s->bad = 1;
    }
    trace_close(r);
    if (check)
        ts_print_check(s);
    else
        ts_print_stats(s);
    const int bad = s->bad;
    u64map_free(&s->pages);
    u64map_free(&s->exited);
    free(s->allocs);
    free(s);
    return bad ? 1 : 0;
}

/* profile IN: the object profile (trace_profile.h, docs/trace-format.md "Object profile") */
static int cmd_profile(const char *in) {
    char err[512];
    trace_prof_t p;
    if (trace_profile(in, &p, err, sizeof(err)) != 0) {
        fprintf(stderr, "gmmu-trace: %s\n", err);
        return 1;
    }
    printf("# object NAME SPACE BASE SIZE GLOBAL_ACCESSES LAUNCHES\n");
    for (size_t i = 0; i < p.nobj; i++)
        printf("object %s %u 0x%llx 0x%llx %llu %llu\n", p.obj[i].name, p.obj[i].space,
               (unsigned long long)p.obj[i].base, (unsigned long long)p.obj[i].size,
               (unsigned long long)p.obj[i].global, (unsigned long long)p.obj[i].uses);
    printf("# use LAUNCH KERNEL OBJECT ACCESSES BYTES PAGES DENSITY REUSE (- : never)\n");
    for (size_t k = 0; k < p.nkern; k++)
        for (size_t j = 0; j < p.kern[k].n; j++) {
            const trace_prof_use_t *u = &p.use[p.kern[k].first + j];
            char reuse[16] = "-";
            if (u->reuse != TRACE_PROF_NEVER)
                snprintf(reuse, sizeof(reuse), "%u", u->reuse);
            printf("use %zu %s %s %llu %llu %llu %.4f %s\n", k, p.kern[k].name, p.obj[u->obj].name,
                   (unsigned long long)u->accesses, (unsigned long long)u->bytes,
                   (unsigned long long)u->pages, u->density, reuse);
        }
    trace_profile_free(&p);
    return 0;
}

/* mix OUT IN...: the output is text if OUT ends in .txt(.xz) or is -, else binary. */
static int cmd_mix(int argc, char **argv) {
    char err[512];
    const char *out = argv[2];
    for (int i = 3; i < argc; i++)
        if (same_file(argv[i], out)) {
            fprintf(stderr, "gmmu-trace: mix: %s and %s are the same file\n", argv[i], out);
            return 2;
        }
    const size_t n = strlen(out);
    const int text = (n >= 4 && strcmp(out + n - 4, ".txt") == 0) ||
                     (n >= 7 && strcmp(out + n - 7, ".txt.xz") == 0) || strcmp(out, "-") == 0;
    trace_out_t o;
    const char *wpath = trace_out_begin(&o, out, err, sizeof(err));
    trace_writer_t *w = wpath ? trace_create(wpath, !text, err, sizeof(err)) : NULL;
    if (!w) {
        if (wpath && !trace_out_in_place(&o)) /* name the output, not the temporary file */
            fprintf(stderr, "gmmu-trace: %s: cannot create: %s\n", out, strerror(errno));
        else
            fprintf(stderr, "gmmu-trace: %s\n", err);
        (void)trace_out_end(&o, 0, err, sizeof(err));
        return 1;
    }
    int rc = trace_mix((const char *const *)&argv[3], (unsigned)(argc - 3), w, err, sizeof(err));
    if (rc != 0)
        fprintf(stderr, "gmmu-trace: mix: %s\n", err);
    if (trace_finish(w, err, sizeof(err)) != 0 && rc == 0) {
        fprintf(stderr, "gmmu-trace: %s\n", err);
        rc = -1;
    }
    if (trace_out_end(&o, rc == 0, err, sizeof(err)) != 0) {
        fprintf(stderr, "gmmu-trace: %s\n", err);
        rc = -1;
    }
    return rc == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    /* a write to a closed pipe (an .xz output whose xz died, `| head`) is a write error with a
     * message and exit status 1, not a silent death by SIGPIPE */
    signal(SIGPIPE, SIG_IGN);
    if (argc < 3)
        return usage();
    if (strcmp(argv[1], "mix") == 0) {
        if (argc < 4)
            return usage();
        if (argc - 3 > (int)TRACE_SPACES) {
            fprintf(stderr,
                    "gmmu-trace: mix: %d inputs; at most %u (one address space each, "
                    "TRACE_SPACES)\n",
                    argc - 3, (unsigned)TRACE_SPACES);
            return 2;
        }
        return cmd_mix(argc, argv);
    }
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
    if (strcmp(argv[1], "profile") == 0 && argc == 3)
        return cmd_profile(argv[2]);
    return usage();
}
