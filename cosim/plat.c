/*
 * plat.c - the co-simulation platform (see plat.h, plat_int.h and docs/cosim.md): construction,
 * the platform services (host_drv.h) through which the host program runs the workload, the run
 * and its result. Halting: plat_halt.c; the engines in the cycle: plat_eng.c.
 */
#define _POSIX_C_SOURCE 200809L

#include "plat.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gmmu_consts.h"
#include "plat_int.h"

/* ------------------------------------------------------------------------------------------ */
/* platform services of the host program                                                      */

static void svc_launch(void *ctx) {
    plat_t *p = ctx;
    char err[512];
    plat_next_kernel(p);
    /* the allocations of the first kernel are known, no cycle has run: the preloaded mappings
       exist before any walk (the root entries they use survive the handler's zeroing of its
       root, plat_preload_root) */
    if (p->scr.npreloads && !p->scr.preload_done && !p->halted &&
        plat_preload(p, err, sizeof(err)) != 0) {
        plat_perr(p, "%s", err);
        plat_halt(p, PLAT_EXIT_INPUT, "FAIL (bad trace)");
    }
}

static void svc_online(void *ctx) {
    plat_t *p = ctx;
    p->wl.online = 1;
    plat_progress_mark(p);
}

static void svc_service_begin(void *ctx);
static void svc_service_end(void *ctx);

/* memcpy mode: the workload up to the next kernel; the copy starts now. At the end of the trace,
 * its last host calls are performed. */
static int svc_declare(void *ctx) {
    plat_t *p = ctx;
    p->wl.launch_due = 0;
    const int k = plat_declare_kernel(p);
    if (k == 0 && plat_host_calls(p, svc_service_begin, svc_service_end) != 0)
        return -1;
    if (k <= 0)
        return k;
    uint64_t pages = 0;
    for (size_t i = 0; i < p->nalloc; i++)
        pages += (p->allocs[i].size + PLAT_PAGE - 1) / PLAT_PAGE;
    if (pages > p->cfg->gpu_mem_pages) {
        plat_perr(p,
                  "run_mode = memcpy: the allocations need %llu pages, GPU memory holds %llu "
                  "(gpu_mem_pages): it is oversubscribed, and a program that copies its data "
                  "before the kernel cannot run (cudaMalloc fails); use run_mode = demand",
                  (unsigned long long)pages, (unsigned long long)p->cfg->gpu_mem_pages);
        plat_halt(p, PLAT_EXIT_INPUT, "FAIL (memcpy: GPU memory oversubscribed)");
        return -1;
    }
    p->wl.copy_from = p->now;
    p->wl.copy_bytes_from = hdrv_stats(p->hd.host)->bytes_h2d;
    return 1;
}

/* The cycle loop between host actions: the chaos agent, the workload, idle skipping. */
static hdrv_wait_t svc_wait(void *ctx, uint64_t wake_ns) {
    plat_t *p = ctx;
    /* the handler's wake-up as a cycle, so that idle skipping stops there */
    const uint64_t wake = wake_ns == UINT64_MAX
                              ? UINT64_MAX
                              : pcie_ns_to_cycles((double)wake_ns, (double)p->cfg->clock_mhz);
    int stepped = 0;
    while (!p->wl.trace_done && !p->halted) {
        if (p->wl.launch_due)
            return HDRV_WAIT_LAUNCH;
        if ((++p->iter & 1023) == 0 && p->show_progress)
            plat_progress(p);
        const gmmu_out_t *o = plat_outputs(p);
        if (p->halted)
            break;
        /* the fault interrupt first: a handler whose copies complete faster than it prepares
           the next set would otherwise never service the faults; and one cycle of the
           workload between two wake-ups, in which the next kernel can be launched (not while
           the handler runs) */
        if (o->irq && p->now != p->hd.idle_at)
            return HDRV_WAIT_IRQ;
        if (stepped && wake != UINT64_MAX && plat_now_ns(p) >= wake_ns)
            return HDRV_WAIT_WAKE;
        const uint64_t co = plat_co_next(&p->co);
        if (co && p->now >= co) {
            plat_co_hook(p);
            continue;
        }
        if (p->cfg->chaos_inval && p->now >= p->ch.next) {
            while (p->ch.next <= p->now)
                p->ch.next += p->cfg->chaos_inval;
            plat_chaos(p);
            continue;
        }
        plat_step(p, wake);
        stepped = 1;
    }
    return p->halted ? HDRV_WAIT_HALTED : HDRV_WAIT_DONE;
}

static void svc_service_begin(void *ctx) {
    plat_t *p = ctx;
    p->hd.start = p->now;
    p->hd.running = 1;
    p->hd.calls++;
    if (p->score) {
        plat_score_service_begin(p->score);
        plat_score_pin_time(p->score, plat_now_ns(p)); /* the lru check's pins: at the start */
    }
    evr_add(&p->ring, p->now, EVR_HDL, 1, 0, 0, 0, 0);
}

static void svc_service_end(void *ctx) {
    plat_t *p = ctx;
    evr_add(&p->ring, p->now, EVR_HDL, 0, 0, 0, 0, 0);
    if (p->score && !p->halted)
        plat_score_service_end(p->score);
    p->hd.running = 0;
    /* a handler that used no time is not called again in the same cycle */
    p->hd.idle_at = p->now == p->hd.start ? p->hd.start : UINT64_MAX;
}

/* The host launches the declared kernel (host context). memcpy mode: the copy is over. Both
 * modes: the trace's host calls read since the last launch are performed first (plat_host.c);
 * demand mode (after HDRV_WAIT_LAUNCH): an empty kernel goes on to the next one. */
static int svc_start(void *ctx) {
    plat_t *p = ctx;
    if (p->wl.memcpy_mode) {
        p->wl.copy_cycles += p->now - p->wl.copy_from;
        p->wl.copy_bytes += hdrv_stats(p->hd.host)->bytes_h2d - p->wl.copy_bytes_from;
    }
    if (plat_host_calls(p, svc_service_begin, svc_service_end) != 0)
        return -1;
    if (p->wl.memcpy_mode)
        return plat_start_kernel(p);
    p->wl.launch_due = 0;
    if (p->wl.calls_at_end) { /* the trace ended after its host calls */
        p->wl.trace_done = 1;
        return 1;
    }
    if (p->prof && plat_objects_launch(p, svc_service_begin, svc_service_end) != 0)
        return -1;
    if (plat_start_kernel(p) == 0)
        plat_next_kernel(p); /* an empty kernel: the next one (declared on the way) */
    return p->halted ? -1 : 1;
}

static void svc_error(void *ctx, const char *msg) {
    plat_t *p = ctx;
    plat_perr(p, "%s", msg);
    p->st.platform_errors++;
}

static int svc_halted(void *ctx) {
    return ((const plat_t *)ctx)->halted;
}

/* ------------------------------------------------------------------------------------------ */
/* construction                                                                               */

/* The size of the trace for the progress line (binary: bytes, text: lines); 0 = unknown. Only a
 * regular file is read a second time: a pipe, FIFO or <(...) is read once, by the reader. */
static uint64_t trace_size(const char *path, int *binary) {
    const size_t n = strlen(path);
    struct stat sb;
    if (strcmp(path, "-") == 0 || (n > 3 && strcmp(path + n - 3, ".xz") == 0) ||
        stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
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

static int new_engines(plat_t *p, char *err, size_t errlen) {
    const engine_args_t a = {&p->prm, p->o.cfg_path};
    if (engine_list_create(&p->o.engines, &a, p->eng, err, errlen) != 0)
        return -1;
    p->neng = p->o.engines.n;
    p->out = &p->eout[0];
    p->quiet_skip = !p->o.no_quiet && engine_list_all_quiet(&p->o.engines);
    for (unsigned i = 0; i < p->neng && !p->wave_eng; i++)
        if (p->eng[i]->ops->wave_open)
            p->wave_eng = p->eng[i];
    /* the reference written beside it: the engine it is compared with (the driving one, or the
       second when it drives itself) */
    if (p->wave_eng && p->wave_eng->ops->wave_ref && p->neng > 1)
        p->wave_ref = p->wave_eng == p->eng[0] ? p->eng[1] : p->eng[0];
    if (p->o.waves_path && !p->o.rerun && p->wave_eng) {
        if (p->wave_eng->ops->wave_open(p->wave_eng, p->o.waves_path, p->wave_ref != NULL) != 0) {
            snprintf(err, errlen, "cannot open waveform %s", p->o.waves_path);
            return -1;
        }
        p->waves_open = 1;
    }
    if (p->o.state_compare) {
        if (p->neng < 2) {
            snprintf(err, errlen, "--state-compare needs two engines (--engine cosim)");
            return -1;
        }
        p->scmp = scmp_new(p->eng[0], p->eng[1], p->o.state_compare == 2, stderr, err, errlen);
        if (!p->scmp)
            return -1;
        p->state_due = 1;
    }
    return 0;
}

static int new_models(plat_t *p, char *err, size_t errlen) {
    const cfg_t *c = p->cfg;
    p->wl.num_sm = p->prm.num_sm;
    p->wl.clock_mhz = c->clock_mhz;
    p->wl.memcpy_mode = c->run_mode == CFG_RUN_MEMCPY;
    p->dq.clock_mhz = c->clock_mhz;
    p->dq.gm = &p->gm;
    p->dq.hm = &p->hm;
    p->dq.ring = &p->ring;
    p->ch.period = c->chaos_inval;
    p->wd.cycles = c->watchdog_cycles;
    /* --preload: platform frames above the handler's, 2 MB-aligned */
    p->scr.pl_frame_base = (c->gpu_mem_pages + 511u) / 512u * 512u;
    const uint64_t frames =
        p->o.npreload ? p->scr.pl_frame_base + PLAT_PRELOAD_FRAMES : c->gpu_mem_pages;
    if (gpumem_init(&p->gm, PLAT_PT_BASE_PA, c->pt_pages, PLAT_DATA_BASE_PA, frames, c->mem_latency,
                    c->mem_jitter, p->o.seed) != 0 ||
        hostmem_init(&p->hm, PLAT_FB_HOST_ADDR,
                     p->prm.acc_entries
                         ? PLAT_ACC_HOST_ADDR + PLAT_ACC_HOST_BYTES - PLAT_FB_HOST_ADDR
                         : (uint64_t)c->fb_entries * GMMU_FB_ENTRY_BYTES) != 0) {
        snprintf(err, errlen, "out of memory for the memory models");
        return -1;
    }
    if (plat_score_init(p, err, errlen) != 0)
        return -1;
    const pcie_link_t link = {c->pcie_model == CFG_PCIE_ATAN ? PCIE_MODEL_ATAN : PCIE_MODEL_TABLE,
                              c->pcie_peak_gbps, (double)c->pcie_latency_ns};
    pcie_dma_init(&p->dq.dma, &link, (double)c->clock_mhz);
    pcie_dma_set_channels(&p->dq.dma, c->copy_channels);
    (void)u64map_init(&p->truth, 0);
    (void)u64map_init(&p->bmp.lines, 0);
    (void)u64map_init(&p->rmostly, 0);
    (void)u64map_init(&p->scr.pl_tables, 0);
    (void)u64map_init(&p->wl.ro_cancels, 0);
    kern_init(&p->wl.kern);
    p->wl.part.spaces = p->prm.num_asids;
    p->wl.part.n = p->cfg->sm_parts;
    for (uint32_t i = 0, first = 0; i < p->wl.part.n; first += p->cfg->sm_part[i++]) {
        p->wl.part.first[i] = first;
        p->wl.part.count[i] = p->cfg->sm_part[i];
    }
    p->wl.kern.part = &p->wl.part;
    hbm_init(&p->wl.kern.hbm, c->hbm_gbps, c->clock_mhz);
    if (l2d_init(&p->wl.l2d, c->l2d_kb, c->l2d_ways, c->l2d_line, err, errlen) != 0)
        return -1;
    p->wl.kern.l2d = l2d_on(&p->wl.l2d) ? &p->wl.l2d : NULL;
    for (uint32_t s = 0; s < p->prm.num_sm; s++) {
        if (sm_init(&p->wl.sm[s], s, p->prm.num_ports, c->warps_per_sm) != 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        sm_set_issue_ipc(&p->wl.sm[s], c->sm_issue_ipc);
    }
    p->mem_ready_seed = rng_hash2(p->o.seed, 0x6d656d7264ull);
    p->fb_ready_seed = rng_hash2(p->o.seed, 0x666272647900ull);
    rng_seed(&p->ch.rng, p->o.seed, 0x6368616f73ull);
    p->ch.next = c->chaos_inval;
    p->co.next[0] = c->coalesce_at;
    p->co.next[1] = c->splinter_at;
    return 0;
}

static int new_host(plat_t *p, char *err, size_t errlen) {
    const cfg_t *c = p->cfg;
    plat_dev_init(p, &p->hd.dev);
    const hdrv_svc_t svc = {
        p,         svc_launch, svc_online,  svc_wait, svc_service_begin, svc_service_end,
        svc_error, svc_halted, svc_declare, svc_start};
    uvm_cfg_t hc;
    plat_handler_cfg(p, &hc);
    p->hd.host = hdrv_new(&hc, &p->hd.dev, &svc, err, errlen);
    if (p->hd.host && c->fault_mode == CFG_FAULT_BLOCKING)
        hdrv_set_fault_ctrl(p->hd.host, 1u << GMMU_CSR_FAULT_CTRL_BLOCKING_LSB);
    if (p->hd.host && c->run_mode == CFG_RUN_MEMCPY &&
        hdrv_set_memcpy(p->hd.host, err, errlen) != 0)
        return -1;
    if (p->hd.host && plat_score_subscribe(p) != 0) {
        snprintf(err, errlen, "the scoreboard could not subscribe to the handler's events");
        return -1;
    }
    return p->hd.host ? 0 : -1;
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
    p->hd.idle_at = UINT64_MAX;
    plat_models_init(p);
    /* a terminal gets the \r line twice a second, a log a line every PLAT_LOG_PROGRESS_S */
    p->show_progress = !o->quiet && !o->rerun;
    p->progress_tty = isatty(2);
    clock_gettime(CLOCK_MONOTONIC, &p->t0);
    if (plat_script_init(p, err, errlen) != 0 || new_engines(p, err, errlen) != 0 ||
        new_models(p, err, errlen) != 0 || new_host(p, err, errlen) != 0)
        goto fail;
    if (plat_oracle_order(p, o->trace_path, err, errlen) != 0 ||
        plat_objects_init(p, o->trace_path, err, errlen) != 0)
        goto fail;
    p->wl.tr = trace_open(o->trace_path, err, errlen);
    if (!p->wl.tr)
        goto fail;
    kern_stream_init(&p->wl.ks, p->wl.tr, p->prm.num_sm, o->trace_path);
    p->wl.trace_total = trace_size(o->trace_path, &p->wl.trace_binary);
    return p;
fail:
    plat_free(p);
    return NULL;
}

void plat_free(plat_t *p) {
    if (!p)
        return;
    if (p->waves_open)
        p->wave_eng->ops->wave_close(p->wave_eng);
    scmp_free(p->scmp);
    for (unsigned i = 0; i < ENGINE_MAX; i++)
        engine_free(p->eng[i]);
    free(p->allocs);
    free(p->wl.calls);
    u64map_free(&p->truth);
    u64map_free(&p->bmp.lines);
    u64map_free(&p->rmostly);
    plat_score_free(p->score);
    plat_models_free(p);
    plat_objects_free(p);
    free(p);
}

/* ------------------------------------------------------------------------------------------ */
/* the run                                                                                    */

/* The result of a run that reached the end of the trace (exit status, RESULT text). */
static int run_result(plat_t *p) {
    const plat_stats_t *s = &p->st;
    const plat_gmmu_ctr_t *g = &p->gmmu;
    const plat_wl_t *w = &p->wl;
    if (g->mismatches || g->model_violations)
        return plat_halt(p, PLAT_EXIT_MISMATCH,
                         g->mismatches ? "FAIL (mismatch)" : "FAIL (model invariant violation)");
    if (s->integrity_errors)
        return plat_halt(p, PLAT_EXIT_INTEGRITY, "FAIL (integrity error)");
    if (s->platform_errors)
        return plat_halt(p, PLAT_EXIT_PLATFORM, "FAIL (platform error)");
    if (w->failed_accesses) {
        plat_perr(p,
                  "%llu valid accesses (inside an allocation, permitted) ended in a fatal fault: "
                  "the handler could not serve them (out of page-table pages? pt_pages = %llu)",
                  (unsigned long long)w->failed_accesses, (unsigned long long)p->cfg->pt_pages);
        return plat_halt(p, PLAT_EXIT_PLATFORM, "FAIL (valid accesses cancelled)");
    }
    if (w->program_faults && !p->o.expect_fault) {
        plat_perr(p,
                  "the simulated program faulted: %llu accesses outside every allocation or "
                  "writes to a read-only allocation (a CUDA program stops with an illegal "
                  "address error; --expect-fault if the test expects them)",
                  (unsigned long long)w->program_faults);
        return plat_halt(p, PLAT_EXIT_PROGRAM, "FAIL (program fault)");
    }
    if (w->kernels == 0) {
        plat_perr(p, "%s: the trace has no kernel: nothing was simulated", p->o.trace_path);
        return plat_halt(p, PLAT_EXIT_INPUT, "FAIL (empty trace)");
    }
    return plat_halt(p, PLAT_EXIT_PASS,
                     w->program_faults ? "PASS (program faults expected)" : "PASS");
}

int plat_run(plat_t *p) {
    char err[512];
    const hdrv_status_t hs = hdrv_run(p->hd.host, err, sizeof(err));
    if (hs == HDRV_INIT_FAILED) {
        plat_perr(p, "handler init_device: %s", err);
        return plat_halt(p, PLAT_EXIT_PLATFORM, "FAIL (handler init)");
    }
    if (hs == HDRV_HALTED || p->halted)
        return p->fin.status;
    if (hs == HDRV_COPY_FAILED) {
        plat_perr(p, "run_mode = memcpy: %s", err);
        p->st.platform_errors++;
        return plat_halt(p, PLAT_EXIT_PLATFORM, "FAIL (memcpy: copy failed)");
    }
    for (unsigned i = 0; i < p->neng; i++) {
        if (!p->eng[i]->ops->violations)
            continue;
        char first[256] = "";
        const unsigned n = p->eng[i]->ops->violations(p->eng[i], first, sizeof(first));
        p->gmmu.model_violations += n;
        if (n)
            plat_perr(p, "%s invariant violations: %u, first: %s", p->eng[i]->ops->label, n, first);
    }
    (void)plat_script_end(p);
    plat_bmp_finish(p); /* the bitmap table against the referenced lines (§20) */
    if (p->score && !p->halted)
        plat_score_finish(p->score);
    if (p->halted)
        return p->fin.status;
    plat_collateral(p);
    return run_result(p);
}

int plat_report(const plat_t *p) {
    if (p->o.rerun || !p->halted)
        return 0;
    plat_print_summary(p, stdout);
    return p->o.stats_path ? plat_write_stats(p) : 0;
}
