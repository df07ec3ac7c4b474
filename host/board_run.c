/*
 * board_run.c - trace, request feeding, access checks and final page check of gmmu-board (see
 * board_run.h).
 */
#include "board_run.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "trace.h"

#define REQ_WRITE (UINT64_C(1) << 40)
#define MAX_REPORTED 10u

static void check_error(brun_t *r, const char *fmt, ...) ERR_PRINTF(2, 3);
static void check_error(brun_t *r, const char *fmt, ...) {
    r->errors++;
    if (r->errors > MAX_REPORTED)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gmmu-board: CONTENT ERROR: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    if (r->errors == MAX_REPORTED)
        fprintf(stderr, "gmmu-board: (further errors are counted, not printed)\n");
}

static void halt(brun_t *r, const char *fmt, ...) ERR_PRINTF(2, 3);
static void halt(brun_t *r, const char *fmt, ...) {
    if (r->halted)
        return;
    va_list ap;
    va_start(ap, fmt);
    err_vsetf(r->halt_msg, sizeof r->halt_msg, fmt, ap);
    va_end(ap);
    r->halted = 1;
}

/* ------------------------------------------------------------------------------------------ */
/* trace                                                                                      */

static int add_req(brun_kernel_t *k, uint64_t req) {
    if (k->n == k->cap) {
        const size_t cap = k->cap ? 2 * k->cap : 256;
        uint64_t *q = realloc(k->req, cap * sizeof(*q));
        if (!q)
            return -1;
        k->req = q;
        k->cap = cap;
    }
    k->req[k->n++] = req;
    return 0;
}

static int add_mem(brun_t *r, const trace_rec_t *rec) {
    if (r->nkern == 0)
        return -2;
    brun_kernel_t *k = &r->kern[r->nkern - 1];
    uint64_t seen[TRACE_LANES] = {0};
    size_t ns = 0;
    const uint64_t sm = rec->cta % r->info.num_sm;
    for (int i = 0; i < TRACE_LANES; i++) {
        if (!(rec->mask >> i & 1u))
            continue;
        const uint64_t vpn = rec->addr[i] >> 12;
        size_t j = 0;
        while (j < ns && seen[j] != vpn)
            j++;
        if (j < ns)
            continue;
        seen[ns++] = vpn;
        const uint64_t req =
            (vpn & 0xfffffffffull) | (rec->op != TRACE_OP_READ ? REQ_WRITE : 0) | sm << 48;
        if (add_req(k, req) != 0)
            return -1;
        r->total_reqs++;
    }
    return 0;
}

static int add_record(brun_t *r, const trace_rec_t *rec) {
    if (rec->kind == TRACE_REC_ALLOC) {
        brun_alloc_t *a = realloc(r->allocs, (r->nalloc + 1) * sizeof(*a));
        if (!a)
            return -1;
        r->allocs = a;
        a = &r->allocs[r->nalloc++];
        snprintf(a->name, sizeof a->name, "%s", rec->name);
        a->base = rec->base;
        a->size = rec->size;
        a->ro = rec->readonly;
    } else if (rec->kind == TRACE_REC_KERNEL) {
        brun_kernel_t *k = realloc(r->kern, (r->nkern + 1) * sizeof(*k));
        if (!k)
            return -1;
        r->kern = k;
        memset(&r->kern[r->nkern++], 0, sizeof(*k));
    } else if (rec->kind == TRACE_REC_MEM) {
        return add_mem(r, rec);
    }
    return 0;
}

int brun_init(brun_t *r, blink_t *link, bdev_t *dev, const char *trace_path, int quiet, char *err,
              size_t errlen) {
    memset(r, 0, sizeof(*r));
    r->link = link;
    r->dev = dev;
    r->info = *bdev_info(dev);
    r->trace_path = trace_path;
    r->quiet = quiet;
    if (r->info.num_sm == 0) {
        err_setf(err, errlen, "board reports 0 SMs");
        return -1;
    }
    if (u64map_init(&r->truth, 0) != 0) {
        err_setf(err, errlen, "out of memory");
        return -1;
    }
    trace_reader_t *tr = trace_open(trace_path, err, errlen);
    if (!tr)
        return -1;
    trace_rec_t rec;
    int st;
    while ((st = trace_next(tr, &rec, err, errlen)) == 1) {
        if (trace_rec_is_host(&rec)) { /* docs/trace-format.md "Host calls" */
            err_setf(err, errlen,
                     "%s: record %llu: host calls (advise, prefetch, free, cpu) are not supported "
                     "by the board backend",
                     trace_path, (unsigned long long)rec.line);
            st = -1;
            break;
        }
        const int rc = add_record(r, &rec);
        if (rc == -2) {
            err_setf(err, errlen, "%s: record %llu: memory instruction before the first kernel",
                     trace_path, (unsigned long long)rec.line);
            st = -1;
            break;
        }
        if (rc != 0) {
            err_setf(err, errlen, "out of memory");
            st = -1;
            break;
        }
    }
    trace_close(tr);
    if (st != 0) {
        brun_free(r);
        return -1;
    }
    return 0;
}

int brun_repeat(brun_t *r, unsigned n) {
    const size_t one = r->nkern;
    if (n <= 1 || one == 0)
        return 0;
    brun_kernel_t *k = realloc(r->kern, one * n * sizeof(*k));
    if (!k)
        return -1;
    r->kern = k;
    for (size_t i = one; i < one * n; i++) {
        const brun_kernel_t *src = &k[i % one];
        k[i].n = k[i].cap = src->n;
        k[i].req = NULL;
        if (src->n && (k[i].req = malloc(src->n * sizeof(uint64_t))) == NULL) {
            r->nkern = i;
            return -1;
        }
        if (src->n)
            memcpy(k[i].req, src->req, src->n * sizeof(uint64_t));
        r->nkern = i + 1;
        r->total_reqs += src->n;
    }
    return 0;
}

int brun_measure(brun_t *r) {
    free(r->marks);
    r->nmarks = 0;
    r->marks = calloc(r->nkern + 1, sizeof(*r->marks));
    return r->marks ? 0 : -1;
}

/* the mark at the start of kernel r->nmarks (or at the end) */
static void take_mark(brun_t *r) {
    if (!r->marks || r->nmarks > r->nkern)
        return;
    const blink_cls_t old = blink_set_class(r->link, BLINK_CLS_SETUP);
    uint32_t t[2] = {0, 0};
    if (blink_read(r->link, BDEV_REGS + BDEV_REG_TIME_LO, t, 2, 0) != 0) {
        halt(r, "%s", blink_error(r->link));
        return;
    }
    (void)blink_set_class(r->link, old);
    brun_mark_t *m = &r->marks[r->nmarks++];
    m->cycles = (uint64_t)t[1] << 32 | t[0];
    m->faults = hdrv_stats(r->hdrv)->faults_fetched;
    m->results = r->results;
    for (int c = 0; c < BLINK_NCLS; c++) {
        m->bytes[c] = blink_class_bytes(r->link, (blink_cls_t)c);
        m->commands[c] = blink_class_commands(r->link, (blink_cls_t)c);
        m->reads[c] = blink_class_reads(r->link, (blink_cls_t)c);
    }
}

void brun_free(brun_t *r) {
    for (size_t i = 0; i < r->nkern; i++)
        free(r->kern[i].req);
    free(r->kern);
    free(r->marks);
    free(r->allocs);
    u64map_free(&r->truth);
    memset(r, 0, sizeof(*r));
}

/* ------------------------------------------------------------------------------------------ */
/* access checks                                                                              */

static const brun_alloc_t *find_alloc(const brun_t *r, uint64_t vpn) {
    const uint64_t va = vpn << 12;
    for (size_t i = 0; i < r->nalloc; i++)
        if (va >= r->allocs[i].base && va - r->allocs[i].base < r->allocs[i].size)
            return &r->allocs[i];
    return NULL;
}

static uint64_t truth(const brun_t *r, uint64_t vpn) {
    uint64_t t = 0;
    return u64map_get(&r->truth, vpn, &t) ? t : bdev_initial_tag(vpn);
}

/* one reported access: w0 {valid, write, fatal, frame_ok, -, sm, -, vpn[35:32]}, w1 vpn[31:0],
 * w2/w3 the tag read at the translated frame */
static void check_access(brun_t *r, const uint32_t *w) {
    const int valid = (int)(w[0] >> 31), wr = (int)(w[0] >> 30 & 1u);
    const int fatal = (int)(w[0] >> 29 & 1u), ok = (int)(w[0] >> 28 & 1u);
    const uint32_t sm = w[0] >> 16 & 0xffu;
    const uint64_t vpn = (uint64_t)(w[0] & 0xfu) << 32 | w[1];
    const uint64_t tag = (uint64_t)w[3] << 32 | w[2];
    r->results++;
    r->kern_results++;
    if (!valid) {
        check_error(r, "the board's result FIFO returned an empty entry");
        return;
    }
    r->writes += (uint64_t)wr;
    const brun_alloc_t *a = find_alloc(r, vpn);
    if (fatal) {
        r->fatal++;
        if (a && !(wr && a->ro))
            check_error(r, "SM %u %s vpn 0x%llx: fatal fault on a page of allocation %s", sm,
                        wr ? "write" : "read", (unsigned long long)vpn, a->name);
        return;
    }
    if (!a) {
        check_error(r, "SM %u vpn 0x%llx: a page outside every allocation was translated", sm,
                    (unsigned long long)vpn);
        return;
    }
    if (!ok) {
        check_error(r, "SM %u vpn 0x%llx: translated to a PPN outside the board's data frames", sm,
                    (unsigned long long)vpn);
        return;
    }
    const uint64_t expected = truth(r, vpn);
    if (tag != expected)
        check_error(r,
                    "SM %u %s vpn 0x%llx: wrong content (expected tag 0x%016llx, read 0x%016llx)",
                    sm, wr ? "write" : "read", (unsigned long long)vpn,
                    (unsigned long long)expected, (unsigned long long)tag);
    if (wr) {
        if (a->ro)
            check_error(r, "SM %u vpn 0x%llx: write translated on read-only allocation %s", sm,
                        (unsigned long long)vpn, a->name);
        if (u64map_put(&r->truth, vpn, expected + 1) != 0)
            halt(r, "out of memory");
    }
}

/* reads and checks n reported accesses */
static void drain_results(brun_t *r, uint32_t n) {
    uint32_t w[4 * 63];
    while (n && !r->halted && !bdev_failed(r->dev)) {
        const uint32_t k = n > 63 ? 63 : n;
        if (blink_read(r->link, BDEV_REGS + BDEV_REG_RES, w, 4 * k, 1) != 0) {
            halt(r, "%s", blink_error(r->link));
            return;
        }
        for (uint32_t i = 0; i < k; i++)
            check_access(r, &w[4 * i]);
        n -= k;
    }
}

/* sends up to free requests of the running kernel */
static void push_requests(brun_t *r, uint32_t free) {
    const brun_kernel_t *k = &r->kern[r->cur];
    uint32_t w[2 * 127];
    while (free && r->pushed < k->n && !r->halted) {
        uint32_t n = 0;
        while (n < free && n < 127 && r->pushed + n < k->n) {
            const uint64_t q = k->req[r->pushed + n];
            w[2 * n] = (uint32_t)q;
            w[2 * n + 1] = (q & REQ_WRITE ? 0x80000000u : 0) | (uint32_t)(q >> 48 & 0xffu) << 16 |
                           (uint32_t)(q >> 32 & 0xfu);
            n++;
        }
        if (blink_write(r->link, BDEV_REGS + BDEV_REG_REQ, w, 2 * n, 1) != 0) {
            halt(r, "%s", blink_error(r->link));
            return;
        }
        r->pushed += n;
        free -= n;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* platform services                                                                          */

static void svc_launch(void *ctx) {
    brun_t *r = ctx;
    char err[256];
    /* every allocation of the trace is declared at the start (the board has no host to race) */
    for (size_t i = 0; i < r->nalloc; i++)
        if (hdrv_add_alloc(r->hdrv, r->allocs[i].name, r->allocs[i].base, r->allocs[i].size,
                           r->allocs[i].ro, err, sizeof err) != 0) {
            halt(r, "%s", err);
            return;
        }
}

static void svc_online(void *ctx) {
    (void)ctx;
}

/* wake_ns: pipelined transfer sets (docs/handler.md §6m); the board's device has no
 * dma_done_ns, so the handler asks for a wake-up at once (0) while a set is in flight: it is
 * woken after each poll that found no interrupt, and waits for its copies itself. */
static hdrv_wait_t svc_wait(void *ctx, uint64_t wake_ns) {
    brun_t *r = ctx;
    for (;;) {
        uint32_t st[4]; /* STATUS, ERR, REQ_FREE, RES_COUNT */
        if (r->halted || bdev_failed(r->dev))
            return HDRV_WAIT_HALTED;
        if (r->nmarks == 0)
            take_mark(r); /* the first kernel starts (no-op unless brun_measure) */
        (void)blink_set_class(r->link, BLINK_CLS_POLL);
        if (blink_read(r->link, BDEV_REGS + BDEV_REG_STATUS, st, 4, 0) != 0) {
            halt(r, "%s", blink_error(r->link));
            return HDRV_WAIT_HALTED;
        }
        if (st[1] != 0) {
            halt(r,
                 "board ERR register 0x%x (bits: 0 UART overflow, 1 request FIFO overflow, "
                 "2 missing SM, 3 response to no request, 4 fault entry outside the ring, "
                 "5 PTE read outside the PT memory, 6 bus address unmapped)",
                 st[1]);
            return HDRV_WAIT_HALTED;
        }
        (void)blink_set_class(r->link, BLINK_CLS_RES);
        drain_results(r, st[3]);
        (void)blink_set_class(r->link, BLINK_CLS_POLL);
        if (st[0] & BDEV_STATUS_IRQ)
            return r->halted ? HDRV_WAIT_HALTED : HDRV_WAIT_IRQ;
        if (r->cur < r->nkern) {
            (void)blink_set_class(r->link, BLINK_CLS_REQ);
            push_requests(r, st[2]);
            (void)blink_set_class(r->link, BLINK_CLS_POLL);
        }
        while (r->cur < r->nkern && r->pushed == r->kern[r->cur].n &&
               r->kern_results == r->kern[r->cur].n) {
            if (!r->quiet)
                printf("gmmu-board: kernel %zu done (%zu requests)\n", r->cur, r->kern[r->cur].n);
            r->cur++;
            r->pushed = 0;
            r->kern_results = 0;
            take_mark(r);
        }
        if (r->cur == r->nkern) {
            (void)blink_set_class(r->link, BLINK_CLS_SETUP);
            uint32_t t[2] = {0, 0};
            if (blink_read(r->link, BDEV_REGS + BDEV_REG_TIME_LO, t, 2, 0) == 0)
                r->board_cycles = (uint64_t)t[1] << 32 | t[0];
            return HDRV_WAIT_DONE;
        }
        if (wake_ns != UINT64_MAX)
            return HDRV_WAIT_WAKE;
    }
}

static void svc_service_begin(void *ctx) {
    brun_t *r = ctx;
    (void)blink_set_class(r->link, BLINK_CLS_FAULT);
}

static void svc_service_end(void *ctx) {
    brun_t *r = ctx;
    (void)blink_set_class(r->link, BLINK_CLS_POLL);
}

static void svc_error(void *ctx, const char *msg) {
    brun_t *r = ctx;
    r->errors++;
    fprintf(stderr, "gmmu-board: ERROR: %s\n", msg);
}

static int svc_halted(void *ctx) {
    const brun_t *r = ctx;
    return r->halted || bdev_failed(r->dev);
}

void brun_svc(brun_t *r, hdrv_svc_t *svc) {
    memset(svc, 0, sizeof(*svc));
    svc->ctx = r;
    svc->launch = svc_launch;
    svc->online = svc_online;
    svc->wait = svc_wait;
    svc->service_begin = svc_service_begin;
    svc->service_end = svc_service_end;
    svc->error = svc_error;
    svc->halted = svc_halted;
}

void brun_final_check(brun_t *r) {
    const uint64_t base = r->info.data_base_ppn;
    (void)blink_set_class(r->link, BLINK_CLS_SETUP);
    for (size_t i = 0; i < r->nalloc && !bdev_failed(r->dev); i++) {
        const brun_alloc_t *a = &r->allocs[i];
        for (uint64_t va = a->base & ~UINT64_C(0xfff); va < a->base + a->size; va += 4096) {
            const uint64_t vpn = va >> 12;
            uint64_t ppn = 0, tag = 0;
            const int res = bdev_translate(r->dev, vpn, &ppn);
            if (res < 0)
                return;
            if (res && (ppn < base || ppn - base >= r->info.frames)) {
                check_error(
                    r, "end of run: page vpn 0x%llx of %s maps to PPN 0x%llx, not a data frame",
                    (unsigned long long)vpn, a->name, (unsigned long long)ppn);
                continue;
            }
            if (res && bdev_frame_tag(r->dev, (uint32_t)(ppn - base), &tag) != 0)
                return;
            if (!res)
                tag = bdev_host_tag(r->dev, vpn);
            r->pages_checked++;
            r->pages_resident += (uint64_t)res;
            if (tag != truth(r, vpn))
                check_error(r,
                            "end of run: page vpn 0x%llx of %s (%s, PPN 0x%llx): tag 0x%016llx, "
                            "expected 0x%016llx",
                            (unsigned long long)vpn, a->name, res ? "on the board" : "host copy",
                            (unsigned long long)ppn, (unsigned long long)tag,
                            (unsigned long long)truth(r, vpn));
        }
    }
}
