/*
 * plat.c - the co-simulation platform (see plat.h and docs/cosim.md).
 *
 * One cycle (plat_step): DMA completions due now are applied; the engines' outputs of the cycle
 * are read (and compared in lock-step); responses are delivered to the SMs (each page is accessed
 * and its content tag checked as its translation arrives), fault-entry writes and PTE reads are
 * transferred; the inputs are computed (memory response due, SM requests, host CSR access); then
 * either the engines are clocked once, or - when idle_o is 1 and no input is active - the clock
 * jumps to the next platform event without clocking the engines.
 *
 * The host handler is synchronous: its uvm_dev_t calls advance the whole platform (plat_step)
 * without re-entering the handler.
 */
#define _POSIX_C_SOURCE 200809L

#include "plat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"
#include "evring.h"
#include "gmmu_consts.h"
#include "gmmu_model.h"
#include "gpumem.h"
#include "hostmem.h"
#include "pcie.h"
#include "rng.h"
#include "sm.h"
#include "trace.h"
#include "u64map.h"
#include "uvm_handler.h"
#include "vshim.h"

#define PAGE 4096ull
#define MAX_REPORTED 10     /* integrity errors / fatal faults printed in full */
#define RECENT_PAGES 64     /* recently translated pages, for the chaos agent */
#define WAVE_WINDOW 4000ull /* clocked cycles of waveform before a mismatch */

typedef struct {
    char name[TRACE_NAME_MAX];
    uint64_t base, size;
    int ro;
} plat_alloc_t;

typedef struct {
    uint64_t handle, done, src, dst, npages;
    int dir;
    uint64_t *tags; /* source tags read at submission */
} plat_dma_t;

typedef struct {
    uint64_t cycles, clocked_cycles, translations, l1_hits, miss_rsps, l2_hits, l2_misses, walks,
        walk_restarts, far_faults, ff_merges, ff_drops, fb_overflows, fb_writes, mem_reads,
        integrity_errors, mismatches, fatal_faults, instructions, kernels, platform_errors,
        model_violations, chaos_cmds, req_stalls, dma_h2d, dma_d2h, handler_calls;
} plat_stats_t;

struct plat {
    plat_opts_t o;
    const cfg_t *cfg;
    gmmu_params_t prm;
    /* engines */
    gmmu_model_t *model;
    vshim_t *rtl;
    gmmu_out_t out_m, out_r;
    const gmmu_out_t *out; /* outputs driving the platform (model's in lock-step) */
    int out_fresh;
    int waves_open;
    gmmu_in_t in;
    uint64_t req_rows; /* SMs whose request inputs are not all zero */
    /* platform models */
    gpumem_t gm;
    hostmem_t hm;
    pcie_dma_t dma;
    plat_dma_t *dmas;
    size_t ndma, capdma;
    uint64_t next_handle;
    u64map_t truth; /* vpn -> content version */
    plat_alloc_t *allocs;
    size_t nalloc, capalloc;
    /* workload */
    trace_reader_t *tr;
    kern_stream_t ks;
    kern_t kern;
    sm_t sm[GMMU_MAX_SM];
    int kernel_active, trace_done;
    uint64_t trace_total; /* for the progress line: lines or bytes, 0 = unknown */
    int trace_binary;
    /* host */
    uvm_handler_t *hdl;
    uvm_dev_t dev;
    int handler_running;
    int csr_valid, csr_write;
    uint32_t csr_addr, csr_wdata;
    uint64_t hdl_log_lines;
    /* chaos agent */
    rng_t chaos_rng;
    uint64_t chaos_next;
    uint64_t recent[RECENT_PAGES];
    uint64_t nrecent;
    /* time */
    uint64_t now, clocked, last_progress;
    uint64_t mem_ready_seed, fb_ready_seed;
    /* diagnostics */
    evr_t ring;
    plat_stats_t st;
    struct timespec t0;
    double last_progress_print;
    int progress_shown;
    int finished;
};

static const char *const engine_names[] = {"cosim", "cmodel", "rtl"};
const char *plat_engine_name(plat_engine_t e) {
    return engine_names[e];
}

static int use_model(const plat_t *p) {
    return p->o.engine != PLAT_ENGINE_RTL;
}
static int use_rtl(const plat_t *p) {
    return p->o.engine != PLAT_ENGINE_CMODEL;
}

static double wall_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t now_ns(const plat_t *p) {
    return p->now * 1000ull / p->cfg->clock_mhz;
}

static void clear_progress(plat_t *p) {
    if (p->progress_shown) {
        fprintf(stderr, "\r%79s\r", "");
        p->progress_shown = 0;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* finishing                                                                                  */

static void write_stats(plat_t *p, const char *result, double wall);
static void print_summary(plat_t *p, const char *result, double wall);

/* Prints the summary, writes the stats, and returns the exit status. */
static int finish(plat_t *p, int status, const char *result) {
    clear_progress(p);
    if (p->waves_open) {
        vshim_trace_close(p->rtl);
        p->waves_open = 0;
    }
    p->finished = 1;
    const double wall = wall_now() - ((double)p->t0.tv_sec + (double)p->t0.tv_nsec * 1e-9);
    p->st.cycles = p->now;
    p->st.clocked_cycles = p->clocked;
    if (p->o.rerun)
        return status;
    print_summary(p, result, wall);
    if (p->o.stats_path)
        write_stats(p, result, wall);
    return status;
}

/* A failure found deep inside the cycle loop (possibly inside a handler call): report, finish,
 * exit. */
static void fail(plat_t *p, int status, const char *result) {
    const int rc = finish(p, status, result);
    fflush(stdout);
    fflush(stderr);
    exit(rc);
}

static void perr(plat_t *p, const char *fmt, ...) {
    clear_progress(p);
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gmmu-sim: error at cycle %llu: ", (unsigned long long)p->now);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

/* A platform protocol error (bad handler request, bad device output): fatal. */
static void platform_error(plat_t *p, const char *fmt, ...) {
    clear_progress(p);
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gmmu-sim: platform error at cycle %llu: ", (unsigned long long)p->now);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    p->st.platform_errors++;
    evr_print(&p->ring, stderr);
    fail(p, 1, "FAIL (platform error)");
}

/* ------------------------------------------------------------------------------------------ */
/* engines                                                                                    */

static void dump_state(plat_t *p, FILE *f);

static void on_mismatch(plat_t *p, const cmp_diff_t *d) {
    clear_progress(p);
    p->st.mismatches = 1;
    if (p->o.rerun) {
        /* waveform re-run: the window is written; stop here */
        if (p->waves_open)
            vshim_trace_close(p->rtl);
        p->waves_open = 0;
        exit(1);
    }
    fprintf(stderr,
            "\nMISMATCH at cycle %llu (clocked cycle %llu): %s: expected (C model) 0x%llx, actual "
            "(RTL) 0x%llx\n",
            (unsigned long long)p->now, (unsigned long long)p->clocked, d->signal,
            (unsigned long long)d->expected, (unsigned long long)d->actual);
    if (d->count > 1) {
        fprintf(stderr, "  all %u differing outputs of this cycle:\n", d->count);
        cmp_print_all(&p->prm, &p->out_m, &p->out_r, stderr);
    }
    evr_print(&p->ring, stderr);
    char path[1024];
    if (p->waves_open) {
        vshim_trace_close(p->rtl);
        p->waves_open = 0;
        fprintf(stderr, "  waveform of the whole run: %s\n", p->o.waves_path);
    } else {
        if (p->o.stats_path) {
            snprintf(path, sizeof(path), "%s", p->o.stats_path);
            char *dot = strrchr(path, '.');
            char *slash = strrchr(path, '/');
            if (dot && (!slash || dot > slash))
                *dot = '\0';
            strncat(path, "-mismatch.fst", sizeof(path) - strlen(path) - 1);
        } else {
            snprintf(path, sizeof(path), "gmmu-sim-mismatch.fst");
        }
        const uint64_t from = p->clocked > WAVE_WINDOW ? p->clocked - WAVE_WINDOW : 0;
        fprintf(stderr, "  re-running to write the waveform of clocked cycles %llu..%llu ...\n",
                (unsigned long long)from, (unsigned long long)p->clocked);
        fflush(stderr);
        fflush(stdout);
        char window[1100];
        snprintf(window, sizeof(window), "%llu:%s", (unsigned long long)from, path);
        char **argv = calloc((size_t)p->o.argc + 3, sizeof(char *));
        int n = 0;
        for (int i = 0; i < p->o.argc; i++)
            argv[n++] = p->o.argv[i];
        argv[n++] = (char *)"--wave-rerun";
        argv[n++] = window;
        argv[n] = NULL;
        const pid_t pid = fork();
        if (pid == 0) {
            FILE *nul = freopen("/dev/null", "w", stdout);
            (void)nul;
            execv("/proc/self/exe", argv);
            _exit(127);
        }
        int status = 0;
        if (pid > 0)
            waitpid(pid, &status, 0);
        free(argv);
        struct stat sb;
        if (pid > 0 && stat(path, &sb) == 0)
            fprintf(stderr, "  waveform (FST, clocked cycles %llu..%llu): %s\n",
                    (unsigned long long)from, (unsigned long long)p->clocked, path);
        else
            fprintf(stderr, "  could not write the waveform %s\n", path);
    }
    fail(p, 1, "FAIL (mismatch)");
}

/* The outputs of the current cycle (computed once per cycle; compared in lock-step). */
static const gmmu_out_t *outputs(plat_t *p) {
    if (p->out_fresh)
        return p->out;
    if (use_model(p))
        gmmu_model_outputs(p->model, &p->out_m);
    if (use_rtl(p))
        vshim_outputs(p->rtl, &p->out_r);
    p->out_fresh = 1;
    if (p->o.engine == PLAT_ENGINE_COSIM) {
        cmp_diff_t d;
        if (cmp_outputs(&p->prm, &p->out_m, &p->out_r, &d))
            on_mismatch(p, &d);
    }
    return p->out;
}

static void clock_engines(plat_t *p) {
    if (p->o.rerun && !p->waves_open && p->clocked >= p->o.rerun_from && use_rtl(p)) {
        if (vshim_trace_open(p->rtl, p->o.waves_path) == 0)
            p->waves_open = 1;
    }
    if (use_model(p))
        gmmu_model_step(p->model, &p->in);
    if (use_rtl(p))
        vshim_step(p->rtl, &p->in, p->now);
    p->out_fresh = 0;
    p->now++;
    p->clocked++;
}

/* ------------------------------------------------------------------------------------------ */
/* memory, DMA, allocations                                                                   */

static const plat_alloc_t *find_alloc(const plat_t *p, uint64_t va) {
    for (size_t i = 0; i < p->nalloc; i++)
        if (va >= p->allocs[i].base && va - p->allocs[i].base < p->allocs[i].size)
            return &p->allocs[i];
    return NULL;
}

static uint64_t truth_tag(const plat_t *p, uint64_t vpn) {
    uint64_t ver = 0;
    u64map_get(&p->truth, vpn, &ver);
    return hostmem_content_tag(vpn, ver);
}

static void apply_dma(plat_t *p, plat_dma_t *d) {
    for (uint64_t i = 0; i < d->npages; i++) {
        if (d->dir == UVM_DMA_H2D)
            gpumem_set_tag(&p->gm, d->dst / PAGE + i, d->tags[i]);
        else
            hostmem_set_page_tag(&p->hm, d->dst / PAGE + i, d->tags[i]);
    }
    evr_add(&p->ring, p->now, EVR_DMA_DONE, (uint8_t)d->dir, 0, (uint32_t)d->handle, 0, 0);
    p->last_progress = p->now;
}

static void dma_completions(plat_t *p) {
    for (;;) {
        size_t best = SIZE_MAX;
        for (size_t i = 0; i < p->ndma; i++)
            if (p->dmas[i].done <= p->now &&
                (best == SIZE_MAX || p->dmas[i].done < p->dmas[best].done ||
                 (p->dmas[i].done == p->dmas[best].done &&
                  p->dmas[i].handle < p->dmas[best].handle)))
                best = i;
        if (best == SIZE_MAX)
            return;
        apply_dma(p, &p->dmas[best]);
        free(p->dmas[best].tags);
        p->dmas[best] = p->dmas[--p->ndma];
    }
}

static uint64_t dma_next_done(const plat_t *p) {
    uint64_t t = UINT64_MAX;
    for (size_t i = 0; i < p->ndma; i++)
        if (p->dmas[i].done < t)
            t = p->dmas[i].done;
    return t;
}

/* ------------------------------------------------------------------------------------------ */
/* SM responses and page accesses                                                             */

static void integrity_error(plat_t *p, const sm_resp_t *r, uint32_t s, uint64_t ppn,
                            uint64_t expected, uint64_t actual, const char *what) {
    p->st.integrity_errors++;
    if (p->st.integrity_errors > MAX_REPORTED)
        return;
    const sm_warp_t *w = &p->kern.warps[r->warp];
    clear_progress(p);
    fprintf(stderr,
            "gmmu-sim: INTEGRITY ERROR at cycle %llu: SM %u warp (cta %u, warp %u) trace pos %llu "
            "%s vpn 0x%llx -> ppn 0x%llx: %s (expected tag 0x%016llx, actual 0x%016llx)\n",
            (unsigned long long)p->now, s, w->cta, w->warp, (unsigned long long)r->line,
            r->op == TRACE_OP_READ    ? "read"
            : r->op == TRACE_OP_WRITE ? "write"
                                      : "atomic",
            (unsigned long long)r->vpn, (unsigned long long)ppn, what, (unsigned long long)expected,
            (unsigned long long)actual);
    if (p->st.integrity_errors == MAX_REPORTED)
        fprintf(stderr, "gmmu-sim: (further integrity errors are counted, not printed)\n");
}

/* The access of one page, performed when its translation arrives. */
static void access_page(plat_t *p, uint32_t s, const sm_resp_t *r, uint64_t ppn) {
    const plat_alloc_t *a = find_alloc(p, r->vpn * PAGE);
    if (!a) {
        integrity_error(p, r, s, ppn, 0, 0, "page outside every allocation was translated");
        return;
    }
    if (!gpumem_is_frame(&p->gm, ppn)) {
        integrity_error(p, r, s, ppn, 0, 0, "translated to a PPN outside the GPU data frames");
        return;
    }
    const uint64_t expected = truth_tag(p, r->vpn);
    const uint64_t actual = gpumem_tag(&p->gm, ppn);
    if (expected != actual)
        integrity_error(p, r, s, ppn, expected, actual, "wrong content");
    if (r->op != TRACE_OP_READ) {
        if (a->ro)
            integrity_error(p, r, s, ppn, 0, 0, "write translated on a read-only allocation");
        uint64_t ver = 0;
        u64map_get(&p->truth, r->vpn, &ver);
        ver++;
        if (u64map_put(&p->truth, r->vpn, ver) != 0)
            platform_error(p, "out of memory");
        gpumem_set_tag(&p->gm, ppn, hostmem_content_tag(r->vpn, ver));
    }
}

static void kern_check(plat_t *p);

static void response(plat_t *p, uint32_t s, uint8_t id, uint64_t ppn, int fatal) {
    sm_resp_t r;
    if (sm_response(&p->sm[s], &p->kern, id, p->now, &r) != 0)
        platform_error(p, "SM %u: response with id %u, which is not outstanding", s, id);
    kern_check(p);
    p->st.translations++;
    p->last_progress = p->now;
    if (fatal) {
        p->st.fatal_faults++;
        if (!p->o.quiet && p->st.fatal_faults <= MAX_REPORTED) {
            const sm_warp_t *w = &p->kern.warps[r.warp];
            clear_progress(p);
            fprintf(stderr,
                    "gmmu-sim: fatal fault at cycle %llu: SM %u warp (cta %u, warp %u) trace pos "
                    "%llu %s vpn 0x%llx: access skipped\n",
                    (unsigned long long)p->now, s, w->cta, w->warp, (unsigned long long)r.line,
                    r.op == TRACE_OP_READ ? "read" : "write", (unsigned long long)r.vpn);
        }
    } else {
        p->recent[p->nrecent++ % RECENT_PAGES] = r.vpn;
        access_page(p, s, &r, ppn);
    }
    if (r.instr_done)
        p->st.instructions++;
}

/* ------------------------------------------------------------------------------------------ */
/* kernels                                                                                    */

static void on_alloc(void *ctx, const trace_rec_t *rec) {
    plat_t *p = ctx;
    char err[256];
    if (uvm_handler_add_alloc(p->hdl, rec->name, rec->base, rec->size, rec->readonly, err,
                              sizeof(err)) != 0) {
        perr(p, "%s:%s%llu: allocation %s: %s", p->o.trace_path, p->trace_binary ? "offset " : "",
             (unsigned long long)rec->line, rec->name, err);
        fail(p, 2, "FAIL (bad trace)");
    }
    if (p->nalloc == p->capalloc) {
        p->capalloc = p->capalloc ? p->capalloc * 2 : 8;
        p->allocs = realloc(p->allocs, p->capalloc * sizeof(*p->allocs));
        if (!p->allocs)
            abort();
    }
    plat_alloc_t *a = &p->allocs[p->nalloc++];
    snprintf(a->name, sizeof(a->name), "%s", rec->name);
    a->base = rec->base;
    a->size = rec->size;
    a->ro = rec->readonly;
}

/* A failed read of the kernel's records (malformed record, exited warp, out of memory). */
static void kern_check(plat_t *p) {
    if (!p->kern.error)
        return;
    perr(p, "%s", p->kern.err);
    fail(p, 2, "FAIL (bad trace)");
}

/* Loads and starts the next kernel, or marks the trace done. */
static void next_kernel(plat_t *p) {
    char err[512];
    for (;;) {
        const int rc = kern_stream_next(&p->ks, &p->kern, on_alloc, p, err, sizeof(err));
        if (rc < 0) {
            perr(p, "%s", err);
            fail(p, 2, "FAIL (bad trace)");
        }
        if (rc == 0) {
            p->trace_done = 1;
            p->kernel_active = 0;
            return;
        }
        p->st.kernels++;
        evr_add(&p->ring, p->now, EVR_KERNEL, 0, 0, (uint32_t)p->st.kernels, 0, 0);
        for (uint32_t s = 0; s < p->prm.num_sm; s++)
            sm_start_kernel(&p->sm[s], &p->kern, p->now);
        kern_check(p);
        if (p->kern.n_warps == 0 && kern_at_end(&p->kern))
            continue; /* empty kernel */
        p->kernel_active = 1;
        p->last_progress = p->now;
        return;
    }
}

static int kernel_complete(const plat_t *p) {
    for (uint32_t s = 0; s < p->prm.num_sm; s++)
        if (!sm_kernel_done(&p->sm[s], &p->kern))
            return 0;
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* the cycle                                                                                  */

static int ready_bit(uint64_t seed, uint64_t cycle, uint32_t pct) {
    if (pct >= 100)
        return 1;
    return rng_hash2(seed, cycle) % 100 < pct;
}

static void watchdog(plat_t *p);

/* Next cycle > now at which something happens without an input to the engines. */
static uint64_t next_event(const plat_t *p, uint64_t limit) {
    uint64_t t = limit;
    for (uint32_t s = 0; s < p->prm.num_sm && p->kernel_active; s++) {
        const uint64_t e = sm_next_event(&p->sm[s], &p->kern, p->now);
        if (e < t)
            t = e;
    }
    const uint64_t d = dma_next_done(p);
    if (d < t)
        t = d;
    const uint64_t m = gpumem_next_due(&p->gm);
    if (m < t)
        t = m;
    if (p->cfg->chaos_inval && p->chaos_next > p->now && p->chaos_next < t)
        t = p->chaos_next;
    const uint64_t wd = p->last_progress + p->cfg->watchdog_cycles + 1;
    if (wd < t)
        t = wd;
    if (p->o.max_cycles && p->o.max_cycles < t)
        t = p->o.max_cycles;
    return t;
}

/* Runs one cycle, or skips idle cycles up to (not beyond) limit. */
static void plat_step(plat_t *p, uint64_t limit) {
    if (p->o.max_cycles && p->now >= p->o.max_cycles) {
        perr(p, "--max-cycles %llu reached before the end of the trace",
             (unsigned long long)p->o.max_cycles);
        fail(p, 3, "INCOMPLETE (max cycles)");
    }
    if (p->now > p->last_progress + p->cfg->watchdog_cycles)
        watchdog(p);
    dma_completions(p);
    const gmmu_out_t *o = outputs(p);
    const uint32_t S = p->prm.num_sm, P = p->prm.num_ports;
    gmmu_in_t *in = &p->in;

    /* events of the previous cycle */
    if (o->ev) {
        const uint8_t ev = o->ev;
        p->st.l2_hits += (ev >> GMMU_EV_L2_HIT) & 1;
        p->st.l2_misses += (ev >> GMMU_EV_L2_MISS) & 1;
        p->st.walks += (ev >> GMMU_EV_WALK) & 1;
        p->st.far_faults += (ev >> GMMU_EV_FF_NEW) & 1;
        p->st.ff_merges += (ev >> GMMU_EV_FF_MERGE) & 1;
        p->st.ff_drops += (ev >> GMMU_EV_FF_DROP) & 1;
        p->st.fb_overflows += (ev >> GMMU_EV_FB_OVF) & 1;
        p->st.walk_restarts += (ev >> GMMU_EV_WALK_RESTART) & 1;
    }
    /* translation responses */
    for (uint32_t s = 0; s < S; s++) {
        for (uint32_t q = 0; q < P; q++) {
            if (!o->hit_valid[s][q])
                continue;
            evr_add(&p->ring, p->now, EVR_HIT, (uint8_t)s, (uint16_t)q, o->hit_id[s][q],
                    o->hit_ppn[s][q], 0);
            p->st.l1_hits++;
            response(p, s, o->hit_id[s][q], o->hit_ppn[s][q], 0);
        }
        if (o->miss_valid[s]) {
            evr_add(&p->ring, p->now, EVR_MISS, (uint8_t)s, 0, o->miss_id[s], o->miss_ppn[s],
                    o->miss_fatal[s]);
            p->st.miss_rsps++;
            response(p, s, o->miss_id[s], o->miss_ppn[s], o->miss_fatal[s]);
        }
    }
    /* The next kernel is launched by the host: not while a host agent (the handler) runs, which
       also keeps allocations from being declared to the handler in the middle of a service. */
    if (p->kernel_active && !p->handler_running && kernel_complete(p))
        next_kernel(p);

    /* inputs of this cycle */
    for (uint32_t s = 0; s < S; s++) {
        if (!(p->req_rows & (1ull << s)))
            continue;
        memset(in->req_valid[s], 0, P);
        memset(in->req_write[s], 0, P);
        memset(in->req_id[s], 0, P);
        memset(in->req_vpn[s], 0, P * sizeof(uint64_t));
    }
    p->req_rows = 0;
    in->time = now_ns(p);
    in->mem_req_ready = (uint8_t)ready_bit(p->mem_ready_seed, p->now, p->cfg->mem_ready_pct);
    in->fb_wr_ready = (uint8_t)ready_bit(p->fb_ready_seed, p->now, p->cfg->fb_ready_pct);
    in->mem_rsp_valid = 0;
    in->mem_rsp_id = 0;
    in->mem_rsp_data = 0;
    int active = 0;
    uint64_t stalled = 0; /* SMs held back by req_ready this cycle */
    {
        uint8_t id;
        uint64_t data;
        if (gpumem_pop_due(&p->gm, p->now, &id, &data)) {
            in->mem_rsp_valid = 1;
            in->mem_rsp_id = id;
            in->mem_rsp_data = data;
            active = 1;
            evr_add(&p->ring, p->now, EVR_MEM_RSP, 0, 0, id, data, 0);
        }
    }
    if (p->kernel_active) {
        for (uint32_t s = 0; s < S; s++) {
            if (!o->req_ready[s]) {
                /* back-pressure while the GMMU is busy (not while it idles on far-faults,
                   so that the count does not depend on idle skipping) */
                if (!o->idle && sm_wants_issue(&p->sm[s], &p->kern, p->now)) {
                    p->st.req_stalls++;
                    stalled++;
                }
                continue;
            }
            const uint32_t n = sm_issue(&p->sm[s], &p->kern, p->now, in->req_valid[s],
                                        in->req_vpn[s], in->req_write[s], in->req_id[s]);
            for (uint32_t q = 0; q < n; q++)
                evr_add(&p->ring, p->now, EVR_REQ, (uint8_t)s, (uint16_t)q, in->req_id[s][q],
                        in->req_vpn[s][q], in->req_write[s][q]);
            if (n) {
                active = 1;
                p->req_rows |= 1ull << s;
            }
        }
    }
    in->csr_valid = (uint8_t)p->csr_valid;
    in->csr_write = (uint8_t)p->csr_write;
    in->csr_addr = (uint16_t)p->csr_addr;
    in->csr_wdata = p->csr_wdata;
    if (p->csr_valid)
        active = 1;

    /* Skipping: idle_o (every engine), or - C model alone - a quiet state (the GMMU only waits
       for page-table reads or far-faults; gmmu_model_quiet). Until the next event the outputs,
       the SMs' wishes to issue and so the stalls of this cycle stay the same. */
    if (!active && !p->o.no_skip &&
        (o->idle ||
         (p->o.engine == PLAT_ENGINE_CMODEL && !p->o.no_quiet && gmmu_model_quiet(p->model)))) {
        const uint64_t t = next_event(p, limit);
        if (t > p->now) {
            p->st.req_stalls += stalled * (t - p->now - 1u);
            p->now = t;
            return;
        }
    }

    /* transfers at this edge */
    if (o->mem_req_valid && in->mem_req_ready) {
        evr_add(&p->ring, p->now, EVR_MEM_REQ, 0, 0, o->mem_req_id, o->mem_req_addr, 0);
        p->st.mem_reads++;
        if (gpumem_accept(&p->gm, p->now, o->mem_req_addr, o->mem_req_id) != 0)
            platform_error(p,
                           "page-table walk read at 0x%llx (walker %u): not page-table memory "
                           "[0x%llx, 0x%llx)",
                           (unsigned long long)o->mem_req_addr, o->mem_req_id,
                           (unsigned long long)p->gm.pt_base,
                           (unsigned long long)(p->gm.pt_base + p->gm.pt_pages * PAGE));
    }
    if (o->fb_wr_valid && in->fb_wr_ready) {
        uint8_t bytes[32];
        for (int k = 0; k < 8; k++)
            for (int b = 0; b < 4; b++)
                bytes[4 * k + b] = (uint8_t)(o->fb_wr_data[k] >> (8 * b));
        evr_add(&p->ring, p->now, EVR_FB_WR, 0, 0, o->fb_wr_data[7], o->fb_wr_addr,
                (uint64_t)o->fb_wr_data[3] << 32 | o->fb_wr_data[2]);
        p->st.fb_writes++;
        if (hostmem_write(&p->hm, o->fb_wr_addr, bytes, sizeof(bytes)) != 0)
            platform_error(p, "fault-entry write at host address 0x%llx: outside the fault ring",
                           (unsigned long long)o->fb_wr_addr);
    }
    clock_engines(p);
}

/* ------------------------------------------------------------------------------------------ */
/* uvm_dev_t on the platform                                                                  */

static void run_until(plat_t *p, uint64_t t) {
    while (p->now < t)
        plat_step(p, t);
}

static uint32_t dev_csr_read(void *ctx, uint32_t addr) {
    plat_t *p = ctx;
    p->csr_valid = 1;
    p->csr_write = 0;
    p->csr_addr = addr;
    p->csr_wdata = 0;
    const uint64_t c = p->clocked;
    while (p->clocked == c)
        plat_step(p, UINT64_MAX);
    p->csr_valid = 0;
    const gmmu_out_t *o = outputs(p);
    if (!o->csr_rvalid)
        platform_error(p, "csr_rvalid_o is 0 one cycle after a CSR read of 0x%03x", addr);
    evr_add(&p->ring, p->now, EVR_CSR_RD, 0, 0, addr, o->csr_rdata, 0);
    return o->csr_rdata;
}

static void csr_write_cycle(plat_t *p, uint32_t addr, uint32_t value) {
    evr_add(&p->ring, p->now, EVR_CSR_WR, 0, 0, addr, value, 0);
    p->csr_valid = 1;
    p->csr_write = 1;
    p->csr_addr = addr;
    p->csr_wdata = value;
    const uint64_t c = p->clocked;
    while (p->clocked == c)
        plat_step(p, UINT64_MAX);
    p->csr_valid = 0;
    p->csr_write = 0;
}

static void dev_csr_write(void *ctx, uint32_t addr, uint32_t value) {
    plat_t *p = ctx;
    csr_write_cycle(p, addr, value);
    p->last_progress = p->now;
}

static void dev_host_read(void *ctx, uint64_t addr, void *buf, size_t len) {
    plat_t *p = ctx;
    if (hostmem_read(&p->hm, addr, buf, len) != 0)
        platform_error(p, "handler host_read of %zu bytes at 0x%llx: outside host memory", len,
                       (unsigned long long)addr);
}

static void dev_host_write(void *ctx, uint64_t addr, const void *buf, size_t len) {
    plat_t *p = ctx;
    if (hostmem_write(&p->hm, addr, buf, len) != 0)
        platform_error(p, "handler host_write of %zu bytes at 0x%llx: outside host memory", len,
                       (unsigned long long)addr);
}

static void dev_gpu_write64(void *ctx, uint64_t pa, uint64_t value) {
    plat_t *p = ctx;
    evr_add(&p->ring, p->now, EVR_PTE_WR, 0, 0, 0, pa, value);
    if (gpumem_write64(&p->gm, pa, value) != 0)
        platform_error(p, "handler gpu_write64 at 0x%llx: not page-table memory",
                       (unsigned long long)pa);
    p->last_progress = p->now;
}

static uint64_t dev_gpu_read64(void *ctx, uint64_t pa) {
    plat_t *p = ctx;
    uint64_t v = 0;
    if (gpumem_read64(&p->gm, pa, &v) != 0)
        platform_error(p, "handler gpu_read64 at 0x%llx: not page-table memory",
                       (unsigned long long)pa);
    return v;
}

static uint64_t dev_dma_submit(void *ctx, uvm_dma_dir_t dir, uint64_t src, uint64_t dst,
                               uint64_t bytes) {
    plat_t *p = ctx;
    const char *dn = dir == UVM_DMA_H2D ? "H2D" : "D2H";
    if (bytes == 0 || bytes % PAGE || src % PAGE || dst % PAGE)
        platform_error(p, "DMA %s src 0x%llx dst 0x%llx bytes %llu: not whole 4 KB pages", dn,
                       (unsigned long long)src, (unsigned long long)dst, (unsigned long long)bytes);
    const uint64_t n = bytes / PAGE;
    const uint64_t va = dir == UVM_DMA_H2D ? src : dst;
    const uint64_t pa = dir == UVM_DMA_H2D ? dst : src;
    for (uint64_t i = 0; i < n; i++) {
        if (!find_alloc(p, va + i * PAGE))
            platform_error(p, "DMA %s: VA 0x%llx is not in a managed allocation", dn,
                           (unsigned long long)(va + i * PAGE));
        if (!gpumem_is_frame(&p->gm, pa / PAGE + i))
            platform_error(p, "DMA %s: PA 0x%llx is not a GPU data frame", dn,
                           (unsigned long long)(pa + i * PAGE));
    }
    if (p->ndma == p->capdma) {
        p->capdma = p->capdma ? p->capdma * 2 : 16;
        p->dmas = realloc(p->dmas, p->capdma * sizeof(*p->dmas));
        if (!p->dmas)
            abort();
    }
    plat_dma_t *d = &p->dmas[p->ndma++];
    d->handle = ++p->next_handle;
    d->dir = dir;
    d->src = src;
    d->dst = dst;
    d->npages = n;
    d->tags = malloc(n * sizeof(uint64_t));
    if (!d->tags)
        abort();
    for (uint64_t i = 0; i < n; i++)
        d->tags[i] = dir == UVM_DMA_H2D ? hostmem_page_tag(&p->hm, src / PAGE + i)
                                        : gpumem_tag(&p->gm, src / PAGE + i);
    d->done = pcie_dma_schedule(&p->dma, dir == UVM_DMA_H2D ? PCIE_H2D : PCIE_D2H, bytes, p->now);
    if (dir == UVM_DMA_H2D)
        p->st.dma_h2d++;
    else
        p->st.dma_d2h++;
    evr_add(&p->ring, p->now, EVR_DMA_SUB, (uint8_t)dir, (uint16_t)(n > 0xffff ? 0xffff : n),
            (uint32_t)d->handle, src, dst);
    p->last_progress = p->now;
    return d->handle;
}

/* Completion cycle of a pending DMA, or 0 if it is not pending. */
static uint64_t dma_done_at(const plat_t *p, uint64_t handle) {
    for (size_t i = 0; i < p->ndma; i++)
        if (p->dmas[i].handle == handle)
            return p->dmas[i].done;
    return 0;
}

/* The handler resumes in the cycle the transfer completes (its data has landed). */
static void dev_dma_wait(void *ctx, uint64_t handle) {
    plat_t *p = ctx;
    const uint64_t done = dma_done_at(p, handle);
    if (done == 0)
        return;
    run_until(p, done);
    dma_completions(p);
}

static void dev_cpu_delay(void *ctx, uint64_t ns) {
    plat_t *p = ctx;
    run_until(p, p->now + pcie_ns_to_cycles((double)ns, (double)p->cfg->clock_mhz));
}

static uint64_t dev_now_ns(void *ctx) {
    return now_ns((const plat_t *)ctx);
}

static void dev_log(void *ctx, const char *line) {
    plat_t *p = ctx;
    p->hdl_log_lines++;
    if (p->o.quiet && p->hdl_log_lines > 3)
        return;
    if (p->hdl_log_lines > 50) {
        if (p->hdl_log_lines == 51)
            fprintf(stderr, "gmmu-sim: (further handler messages suppressed)\n");
        return;
    }
    clear_progress(p);
    fprintf(stderr, "[cycle %llu] handler: %s\n", (unsigned long long)p->now, line);
}

/* ------------------------------------------------------------------------------------------ */
/* host agents: handler and chaos                                                             */

static void run_handler(plat_t *p) {
    p->handler_running = 1;
    p->st.handler_calls++;
    evr_add(&p->ring, p->now, EVR_HDL, 1, 0, 0, 0, 0);
    uvm_handler_service(p->hdl);
    evr_add(&p->ring, p->now, EVR_HDL, 0, 0, 0, 0, 0);
    p->handler_running = 0;
}

static void chaos(plat_t *p) {
    p->handler_running = 1; /* the handler cannot start meanwhile */
    uint32_t op = GMMU_CMD_INVAL_ALL;
    uint64_t vpn = 0;
    if (p->nrecent > 0 && rng_below(&p->chaos_rng, 4) != 0) {
        const uint64_t n = p->nrecent < RECENT_PAGES ? p->nrecent : RECENT_PAGES;
        vpn = p->recent[rng_below(&p->chaos_rng, n)];
        op = GMMU_CMD_INVAL_PAGE;
    }
    evr_add(&p->ring, p->now, EVR_CHAOS, 0, 0, op, vpn, 0);
    p->st.chaos_cmds++;
    csr_write_cycle(p, GMMU_CSR_CMD_ARG_LO, (uint32_t)vpn);
    csr_write_cycle(p, GMMU_CSR_CMD_ARG_HI, (uint32_t)(vpn >> 32) & 0xf);
    csr_write_cycle(p, GMMU_CSR_CMD, op);
    while (dev_csr_read(p, GMMU_CSR_CMD_STATUS) & 1)
        ;
    p->handler_running = 0;
}

/* ------------------------------------------------------------------------------------------ */
/* watchdog, dumps, progress                                                                  */

static void dump_state(plat_t *p, FILE *f) {
    fprintf(f, "platform state at cycle %llu (clocked %llu):\n", (unsigned long long)p->now,
            (unsigned long long)p->clocked);
    fprintf(f, "  kernel %llu '%s' active %d, trace done %d, handler running %d\n",
            (unsigned long long)p->st.kernels, p->kern.name, p->kernel_active, p->trace_done,
            p->handler_running);
    if (p->kernel_active)
        for (uint32_t s = 0; s < p->prm.num_sm; s++)
            sm_dump(&p->sm[s], &p->kern, f, p->now);
    fprintf(f, "  PTE reads pending %zu, DMAs pending %zu\n", gpumem_pending(&p->gm), p->ndma);
    for (size_t i = 0; i < p->ndma; i++)
        fprintf(f, "    DMA #%llu %s %llu pages done at cycle %llu\n",
                (unsigned long long)p->dmas[i].handle, p->dmas[i].dir ? "D2H" : "H2D",
                (unsigned long long)p->dmas[i].npages, (unsigned long long)p->dmas[i].done);
    const gmmu_out_t *o = p->out;
    fprintf(f, "  device outputs: idle %u irq %u req_ready", o->idle, o->irq);
    for (uint32_t s = 0; s < p->prm.num_sm; s++)
        fprintf(f, " %u", o->req_ready[s]);
    fprintf(f, "\n");
    evr_print(&p->ring, f);
    if (use_model(p)) {
        fprintf(f, "C model state:\n");
        gmmu_model_dump(p->model, f);
    }
}

static void watchdog(plat_t *p) {
    clear_progress(p);
    fprintf(stderr,
            "gmmu-sim: WATCHDOG: no progress (translation completed, DMA, handler action) for %llu "
            "cycles, since cycle %llu\n",
            (unsigned long long)p->cfg->watchdog_cycles, (unsigned long long)p->last_progress);
    dump_state(p, stderr);
    fail(p, 2, "FAIL (watchdog)");
}

static void progress(plat_t *p) {
    const double t = wall_now();
    if (t - p->last_progress_print < 0.5)
        return;
    p->last_progress_print = t;
    char share[32];
    if (p->trace_total) {
        /* kernels are read as their warps run: the position read is the progress */
        const double pos = (double)p->ks.last_pos;
        snprintf(share, sizeof(share), "%5.1f%%", 100.0 * pos / (double)p->trace_total);
    } else
        snprintf(share, sizeof(share), "kernel %llu", (unsigned long long)p->st.kernels);
    fprintf(stderr, "\r  cycle %12llu  trace %s  far-faults %8llu  instr %10llu ",
            (unsigned long long)p->now, share, (unsigned long long)p->st.far_faults,
            (unsigned long long)p->st.instructions);
    p->progress_shown = 1;
}

/* ------------------------------------------------------------------------------------------ */
/* summary and stats                                                                          */

static void print_summary(plat_t *p, const char *result, double wall) {
    const uvm_stats_t *h = uvm_handler_stats(p->hdl);
    const plat_stats_t *s = &p->st;
    FILE *f = stdout;
    const double sim_us = (double)now_ns(p) / 1000.0;
    fprintf(f, "== gmmu-sim summary (engine %s, seed %llu)\n", plat_engine_name(p->o.engine),
            (unsigned long long)p->o.seed);
    fprintf(f, "  config %s  trace %s\n", p->o.cfg_path, p->o.trace_path);
    fprintf(f, "  cycles        %llu simulated (%.1f us), %llu clocked (%.1f%%)\n",
            (unsigned long long)s->cycles, sim_us, (unsigned long long)s->clocked_cycles,
            s->cycles ? 100.0 * (double)s->clocked_cycles / (double)s->cycles : 0.0);
    fprintf(f, "  workload      %llu kernels, %llu instructions, %llu translations\n",
            (unsigned long long)s->kernels, (unsigned long long)s->instructions,
            (unsigned long long)s->translations);
    fprintf(
        f,
        "  TLB           L1 hits %llu, L2 hits %llu, L2 misses %llu, walks %llu (%llu restarted)\n",
        (unsigned long long)s->l1_hits, (unsigned long long)s->l2_hits,
        (unsigned long long)s->l2_misses, (unsigned long long)s->walks,
        (unsigned long long)s->walk_restarts);
    fprintf(
        f,
        "  far-faults    %llu posted, %llu merged, %llu dropped (%llu ring overflow), %llu fatal\n",
        (unsigned long long)s->far_faults, (unsigned long long)s->ff_merges,
        (unsigned long long)s->ff_drops, (unsigned long long)s->fb_overflows,
        (unsigned long long)s->fatal_faults);
    fprintf(f,
            "  handler       %llu irqs, %llu batches, %llu faults fetched (%llu dup, %llu stale), "
            "%llu replays, %llu invalidates, %llu cancels\n",
            (unsigned long long)h->irqs, (unsigned long long)h->fault_batches,
            (unsigned long long)h->faults_fetched, (unsigned long long)h->faults_duplicate,
            (unsigned long long)h->faults_stale, (unsigned long long)h->replays,
            (unsigned long long)h->invalidates, (unsigned long long)h->cancels);
    fprintf(f, "  migration     H2D %llu pages (%llu B), D2H %llu pages (%llu B), %llu evictions\n",
            (unsigned long long)h->pages_h2d, (unsigned long long)h->bytes_h2d,
            (unsigned long long)h->pages_d2h, (unsigned long long)h->bytes_d2h,
            (unsigned long long)h->evictions);
    if (s->chaos_cmds)
        fprintf(f, "  chaos         %llu invalidate commands\n", (unsigned long long)s->chaos_cmds);
    fprintf(f,
            "  checks        integrity errors %llu, mismatches %llu, platform errors %llu, model "
            "invariant violations %llu\n",
            (unsigned long long)s->integrity_errors, (unsigned long long)s->mismatches,
            (unsigned long long)s->platform_errors, (unsigned long long)s->model_violations);
    fprintf(f, "  speed         %.2f s wall, %.0f simulated cycles/s, %.0f clocked cycles/s\n",
            wall, wall > 0 ? (double)s->cycles / wall : 0.0,
            wall > 0 ? (double)s->clocked_cycles / wall : 0.0);
    if (p->o.stats_path)
        fprintf(f, "  stats         %s\n", p->o.stats_path);
    if (p->o.waves_path && use_rtl(p))
        fprintf(f, "  waveform      %s\n", p->o.waves_path);
    fprintf(f, "  RESULT        %s\n", result);
    fflush(f);
}

static void write_stats(plat_t *p, const char *result, double wall) {
    FILE *f = fopen(p->o.stats_path, "w");
    if (!f) {
        fprintf(stderr, "gmmu-sim: cannot write %s: %s\n", p->o.stats_path, strerror(errno));
        return;
    }
    const uvm_stats_t *h = uvm_handler_stats(p->hdl);
    const plat_stats_t *s = &p->st;
#define U(name, v) fprintf(f, "  \"%s\": %llu,\n", name, (unsigned long long)(v))
    fprintf(f, "{\n");
    U("cycles", s->cycles);
    U("clocked_cycles", s->clocked_cycles);
    U("translations", s->translations);
    U("l1_hits", s->l1_hits);
    U("l1_miss_responses", s->miss_rsps);
    U("l2_hits", s->l2_hits);
    U("l2_misses", s->l2_misses);
    U("walks", s->walks);
    U("walk_restarts", s->walk_restarts);
    U("far_faults", s->far_faults);
    U("ff_merges", s->ff_merges);
    U("ff_drops", s->ff_drops);
    U("fb_overflows", s->fb_overflows);
    U("fb_writes", s->fb_writes);
    U("pte_reads", s->mem_reads);
    U("irqs", h->irqs);
    U("handler_calls", s->handler_calls);
    U("fault_batches", h->fault_batches);
    U("faults_fetched", h->faults_fetched);
    U("faults_duplicate", h->faults_duplicate);
    U("faults_stale", h->faults_stale);
    U("replays", h->replays);
    U("invalidates", h->invalidates);
    U("cancels", h->cancels);
    U("pte_writes", h->pte_writes);
    U("handler_overflows", h->overflows);
    U("pages_h2d", h->pages_h2d);
    U("pages_d2h", h->pages_d2h);
    U("evictions", h->evictions);
    U("bytes_h2d", h->bytes_h2d);
    U("bytes_d2h", h->bytes_d2h);
    U("dma_h2d", s->dma_h2d);
    U("dma_d2h", s->dma_d2h);
    U("pt_pages_used", h->pt_pages_used);
    U("data_pages_resident", h->data_pages_resident);
    U("chaos_cmds", s->chaos_cmds);
    U("req_stalls", s->req_stalls);
    U("integrity_errors", s->integrity_errors);
    U("mismatches", s->mismatches);
    U("platform_errors", s->platform_errors);
    U("model_violations", s->model_violations);
    U("fatal_faults", s->fatal_faults);
    U("instructions", s->instructions);
    U("kernels", s->kernels);
    U("trace_buffer_peak", p->kern.buffered_peak);
    U("sim_time_ns", now_ns(p));
    U("seed", p->o.seed);
#undef U
    fprintf(f, "  \"wall_seconds\": %.3f,\n", wall);
    fprintf(f, "  \"engine\": \"%s\",\n", plat_engine_name(p->o.engine));
    fprintf(f, "  \"no_skip\": %s,\n", p->o.no_skip ? "true" : "false");
    fprintf(f, "  \"no_quiet\": %s,\n", p->o.no_quiet ? "true" : "false");
    fprintf(f, "  \"trace\": \"");
    for (const char *c = p->o.trace_path; *c; c++)
        fprintf(f, (*c == '"' || *c == '\\') ? "\\%c" : "%c", *c);
    fprintf(f, "\",\n  \"config_file\": \"%s\",\n", p->o.cfg_path);
    fprintf(f, "  \"result\": \"%s\",\n", result);
    fprintf(f, "  \"config\": ");
    cfg_print_json(p->cfg, f, "  ");
    fprintf(f, "\n}\n");
    fclose(f);
}

/* ------------------------------------------------------------------------------------------ */
/* construction and the run                                                                   */

static uint64_t trace_size(const char *path, int *binary) {
    const size_t n = strlen(path);
    if (strcmp(path, "-") == 0 || (n > 3 && strcmp(path + n - 3, ".xz") == 0))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char magic[4] = {0};
    const size_t got = fread(magic, 1, 4, f);
    uint64_t total = 0;
    if (got == 4 && memcmp(magic, "GMTB", 4) == 0) {
        *binary = 1;
        fseek(f, 0, SEEK_END);
        total = (uint64_t)ftell(f);
    } else {
        rewind(f);
        char buf[65536];
        size_t r;
        while ((r = fread(buf, 1, sizeof(buf), f)) > 0)
            for (size_t i = 0; i < r; i++)
                total += buf[i] == '\n';
    }
    fclose(f);
    return total;
}

plat_t *plat_new(const plat_opts_t *o, char *err, size_t errlen) {
    plat_t *p = calloc(1, sizeof(*p));
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    p->o = *o;
    p->cfg = &p->o.cfg;
    p->prm = p->cfg->rtl;
    clock_gettime(CLOCK_MONOTONIC, &p->t0);
    const cfg_t *c = p->cfg;
    if (use_rtl(p)) {
        gmmu_params_t built;
        vshim_built_params(&built);
        char why[256];
        if (cfg_rtl_equal(&p->prm, &built, why, sizeof(why)) != 0) {
            snprintf(err, errlen,
                     "%s: the Verilator model linked into this binary was built for other RTL "
                     "parameters (%s); use the gmmu-sim built for this configuration (make sim "
                     "CONFIG=<name>) or --engine cmodel",
                     o->cfg_path, why);
            goto fail;
        }
        p->rtl = vshim_new(&p->prm, err, errlen);
        if (!p->rtl)
            goto fail;
        if (o->waves_path && !o->rerun) {
            if (vshim_trace_open(p->rtl, o->waves_path) != 0) {
                snprintf(err, errlen, "cannot open waveform %s", o->waves_path);
                goto fail;
            }
            p->waves_open = 1;
        }
    }
    if (use_model(p)) {
        p->model = gmmu_model_new(&p->prm, err, errlen);
        if (!p->model)
            goto fail;
    }
    p->out = use_model(p) ? &p->out_m : &p->out_r;
    if (gpumem_init(&p->gm, PLAT_PT_BASE_PA, c->pt_pages, PLAT_DATA_BASE_PA, c->gpu_mem_pages,
                    c->mem_latency, c->mem_jitter, o->seed) != 0 ||
        hostmem_init(&p->hm, PLAT_FB_HOST_ADDR, (uint64_t)c->fb_entries * GMMU_FB_ENTRY_BYTES) !=
            0) {
        snprintf(err, errlen, "out of memory for the memory models");
        goto fail;
    }
    const pcie_link_t link = {c->pcie_model == CFG_PCIE_ATAN ? PCIE_MODEL_ATAN : PCIE_MODEL_TABLE,
                              c->pcie_peak_gbps, (double)c->pcie_latency_ns};
    pcie_dma_init(&p->dma, &link, (double)c->clock_mhz);
    u64map_init(&p->truth);
    kern_init(&p->kern);
    for (uint32_t s = 0; s < p->prm.num_sm; s++)
        if (sm_init(&p->sm[s], s, p->prm.num_ports, c->warps_per_sm) != 0) {
            snprintf(err, errlen, "out of memory");
            goto fail;
        }
    p->mem_ready_seed = rng_hash2(o->seed, 0x6d656d7264ull);
    p->fb_ready_seed = rng_hash2(o->seed, 0x666272647900ull);
    rng_seed(&p->chaos_rng, o->seed, 0x6368616f73ull);
    p->chaos_next = c->chaos_inval;

    p->dev.ctx = p;
    p->dev.csr_read = dev_csr_read;
    p->dev.csr_write = dev_csr_write;
    p->dev.host_read = dev_host_read;
    p->dev.host_write = dev_host_write;
    p->dev.gpu_write64 = dev_gpu_write64;
    p->dev.gpu_read64 = dev_gpu_read64;
    p->dev.dma_submit = dev_dma_submit;
    p->dev.dma_wait = dev_dma_wait;
    p->dev.cpu_delay = dev_cpu_delay;
    p->dev.now_ns = dev_now_ns;
    p->dev.log = dev_log;
    uvm_cfg_t hc;
    uvm_cfg_defaults(&hc);
    hc.batch_size = c->batch_size;
    hc.max_batches_per_irq = c->max_batches_per_irq;
    memcpy(hc.policy[UVM_POLICY_REPLAY], c->replay_policy, sizeof hc.policy[UVM_POLICY_REPLAY]);
    memcpy(hc.policy[UVM_POLICY_EVICT], c->evict_policy, sizeof hc.policy[UVM_POLICY_EVICT]);
    hc.seed = rng_hash2(o->seed, 0x68646c72ull);
    hc.gpu_data_base_pa = PLAT_DATA_BASE_PA;
    hc.gpu_data_pages = c->gpu_mem_pages;
    hc.gpu_pt_base_pa = PLAT_PT_BASE_PA;
    hc.gpu_pt_pages = c->pt_pages;
    hc.fb_host_addr = PLAT_FB_HOST_ADDR;
    hc.fb_entries = c->fb_entries;
    if (c->hdl_irq_ns != CFG_HDL_DEFAULT)
        hc.t_irq_ns = c->hdl_irq_ns;
    if (c->hdl_batch_ns != CFG_HDL_DEFAULT)
        hc.t_batch_ns = c->hdl_batch_ns;
    if (c->hdl_fault_ns != CFG_HDL_DEFAULT)
        hc.t_fault_ns = c->hdl_fault_ns;
    if (c->hdl_page_ns != CFG_HDL_DEFAULT)
        hc.t_page_ns = c->hdl_page_ns;
    if (c->hdl_pte_ns != CFG_HDL_DEFAULT)
        hc.t_pte_ns = c->hdl_pte_ns;
    if (c->hdl_evict_ns != CFG_HDL_DEFAULT)
        hc.t_evict_ns = c->hdl_evict_ns;
    p->hdl = uvm_handler_new(&hc, &p->dev, err, errlen);
    if (!p->hdl)
        goto fail;
    p->tr = trace_open(o->trace_path, err, errlen);
    if (!p->tr)
        goto fail;
    kern_stream_init(&p->ks, p->tr, p->prm.num_sm, o->trace_path);
    p->trace_total = trace_size(o->trace_path, &p->trace_binary);
    return p;
fail:
    plat_free(p);
    return NULL;
}

void plat_free(plat_t *p) {
    if (!p)
        return;
    if (p->tr)
        trace_close(p->tr);
    if (p->hdl)
        uvm_handler_free(p->hdl);
    if (p->model)
        gmmu_model_free(p->model);
    if (p->rtl) {
        if (p->waves_open)
            vshim_trace_close(p->rtl);
        vshim_free(p->rtl);
    }
    for (uint32_t s = 0; s < GMMU_MAX_SM; s++)
        sm_free(&p->sm[s]);
    kern_free(&p->kern);
    kern_stream_free(&p->ks);
    for (size_t i = 0; i < p->ndma; i++)
        free(p->dmas[i].tags);
    free(p->dmas);
    free(p->allocs);
    u64map_free(&p->truth);
    gpumem_free(&p->gm);
    hostmem_free(&p->hm);
    free(p);
}

int plat_run(plat_t *p) {
    char err[512];
    const int show_progress = !p->o.quiet && !p->o.rerun && isatty(2);
    /* allocations before the first kernel, then the device, then the first kernel */
    next_kernel(p);
    if (uvm_handler_init_device(p->hdl, err, sizeof(err)) != 0) {
        perr(p, "handler init_device: %s", err);
        return finish(p, 1, "FAIL (handler init)");
    }
    p->last_progress = p->now;
    uint64_t iter = 0;
    uint64_t idle_handler_at = UINT64_MAX; /* the handler returned without using any time */
    while (!p->trace_done) {
        if ((++iter & 1023) == 0 && show_progress)
            progress(p);
        const gmmu_out_t *o = outputs(p);
        if (o->irq && p->now != idle_handler_at) {
            const uint64_t start = p->now;
            run_handler(p);
            idle_handler_at = p->now == start ? start : UINT64_MAX;
            continue;
        }
        if (p->cfg->chaos_inval && p->now >= p->chaos_next) {
            while (p->chaos_next <= p->now)
                p->chaos_next += p->cfg->chaos_inval;
            chaos(p);
            continue;
        }
        plat_step(p, UINT64_MAX);
    }
    /* end of run: the device must have seen no bad CSR access */
    const uint32_t es = dev_csr_read(p, GMMU_CSR_ERR_STATUS);
    if (es) {
        const uint32_t ea = dev_csr_read(p, GMMU_CSR_ERR_ADDR);
        char b[16];
        perr(p,
             "device ERR_STATUS = 0x%x (last bad CSR access: %s): the host issued an illegal CSR "
             "access",
             es, evr_csr_name(ea, b, sizeof(b)));
        p->st.platform_errors++;
    }
    if (use_model(p)) {
        char first[256] = "";
        p->st.model_violations = gmmu_model_violations(p->model, first, sizeof(first));
        if (p->st.model_violations)
            perr(p, "C model invariant violations: %llu, first: %s",
                 (unsigned long long)p->st.model_violations, first);
    }
    const int ok = p->st.mismatches == 0 && p->st.integrity_errors == 0 &&
                   p->st.platform_errors == 0 && p->st.model_violations == 0;
    return finish(p, ok ? 0 : 1, ok ? "PASS" : "FAIL");
}
