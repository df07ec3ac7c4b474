/*
 * plat_report.c - the end of a run (see plat_int.h): the one-screen summary and the JSON stats
 * file, both from the statistics frozen when the run stopped (plat_final_t); the state dump and
 * the progress line. Every key and line
 * is listed in docs/cosim.md; scripts/stats_golden.py compares them across versions.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <string.h>

#include "plat_int.h"

/* cycles -> ns at clock_mhz (floor; as plat_now_ns, no overflow below 1.8e16 cycles) */
static uint64_t cycles_ns(const plat_t *p, uint64_t c) {
    const uint64_t mhz = p->cfg->clock_mhz;
    return c / mhz * 1000ull + c % mhz * 1000ull / mhz;
}

/* The ideal overlap bound (Zheng et al.'s "Ideal Copy + Execute Overlap", docs/cosim.md "Run
 * modes"): the copy and the kernels of the memcpy run perfectly overlapped, max(copy, kernels);
 * 0 in demand mode (the kernels' time with every page resident is not known there). */
static uint64_t ideal_ns(const plat_t *p) {
    if (p->cfg->run_mode != CFG_RUN_MEMCPY)
        return 0;
    const uint64_t c = cycles_ns(p, p->fin.st.copy_cycles);
    const uint64_t k = cycles_ns(p, p->fin.st.kernel_cycles);
    return c > k ? c : k;
}

void plat_print_summary(const plat_t *p, FILE *f) {
    const uvm_stats_t *h = &p->fin.hst;
    const plat_stats_t *s = &p->fin.st;
    const char *result = p->fin.result;
    const double wall = p->fin.wall;
    const double sim_us = (double)p->fin.sim_ns / 1000.0;
    fprintf(f, "== gmmu-sim summary (engine %s, seed %llu)\n", p->o.engine_name,
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
    if (p->cfg->page_size != UVM_PSIZE_4K || p->cfg->frame_alloc != UVM_FRAME_ANY)
        fprintf(f,
                "  large pages   %llu mapped whole, %llu coalesced, %llu splintered, %llu evicted "
                "whole, %llu CoCoA fallbacks; walks ending large %llu, L1 large-hit cycles %llu, "
                "L2 large hits %llu\n",
                (unsigned long long)h->large_maps, (unsigned long long)h->coalesces,
                (unsigned long long)h->splinters, (unsigned long long)h->large_evictions,
                (unsigned long long)h->cocoa_fallbacks, (unsigned long long)s->walks_large,
                (unsigned long long)s->l1_large_hit_cycles, (unsigned long long)s->l2_large_hits);
    if (h->pages_prefetched)
        fprintf(f, "  prefetch      %llu pages (%llu B) besides the faulted ones, %llu H2D DMAs\n",
                (unsigned long long)h->pages_prefetched, (unsigned long long)h->bytes_prefetched,
                (unsigned long long)s->dma_h2d);
    if (p->cfg->run_mode == CFG_RUN_MEMCPY)
        fprintf(f,
                "  memcpy        copy %.1f us (%llu B), kernels %.1f us, ideal overlap %.1f us\n",
                (double)cycles_ns(p, s->copy_cycles) / 1000.0, (unsigned long long)s->copy_bytes,
                (double)cycles_ns(p, s->kernel_cycles) / 1000.0, (double)ideal_ns(p) / 1000.0);
    if (s->chaos_cmds)
        fprintf(f, "  chaos         %llu invalidate commands (%llu held back: restart streak)\n",
                (unsigned long long)s->chaos_cmds, (unsigned long long)s->chaos_held);
    if (s->fatal_faults)
        fprintf(f, "  fatal faults  %llu program faults, %llu valid accesses cancelled\n",
                (unsigned long long)s->program_faults, (unsigned long long)s->failed_accesses);
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
    if (p->o.waves_path && p->wave_eng)
        fprintf(f, "  waveform      %s\n", p->o.waves_path);
    fprintf(f, "  RESULT        %s\n", result);
    fflush(f);
}

/* A JSON string: quotes, backslashes and control bytes escaped. */
static void json_str(FILE *f, const char *v) {
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(f, "\\%c", *c);
        else if (*c < 0x20 || *c == 0x7f)
            fprintf(f, "\\u%04x", *c);
        else
            fputc(*c, f);
    }
    fputc('"', f);
}

static void json_kv_str(FILE *f, const char *key, const char *v) {
    fprintf(f, "  \"%s\": ", key);
    json_str(f, v);
    fprintf(f, ",\n");
}

static void write_counts(FILE *f, const plat_t *p) {
    const uvm_stats_t *h = &p->fin.hst;
    const plat_stats_t *s = &p->fin.st;
#define U(name, v) fprintf(f, "  \"%s\": %llu,\n", name, (unsigned long long)(v))
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
    U("l1_large_hit_cycles", s->l1_large_hit_cycles);
    U("l2_large_hits", s->l2_large_hits);
    U("walks_large", s->walks_large);
    U("gmmu_pte_writes", s->gmmu_pte_writes);
    U("co_cmds", s->co_cmds);
    U("co_done", s->co_done);
    U("co_errors", s->co_errors);
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
    U("pages_prefetched", h->pages_prefetched);
    U("bytes_prefetched", h->bytes_prefetched);
    U("ts_sets", h->ts_sets);
    U("ts_pages", h->ts_pages);
    U("h2d_busy_ns", cycles_ns(p, p->dma.busy_cycles[UVM_DMA_H2D]));
    U("dma_h2d", s->dma_h2d);
    U("dma_d2h", s->dma_d2h);
    U("pt_pages_used", h->pt_pages_used);
    U("data_pages_resident", h->data_pages_resident);
    U("large_maps", h->large_maps);
    U("coalesces", h->coalesces);
    U("splinters", h->splinters);
    U("large_evictions", h->large_evictions);
    U("cocoa_fallbacks", h->cocoa_fallbacks);
    U("chaos_cmds", s->chaos_cmds);
    U("chaos_held", s->chaos_held);
    U("req_stalls", s->req_stalls);
    U("integrity_errors", s->integrity_errors);
    U("mismatches", s->mismatches);
    U("platform_errors", s->platform_errors);
    U("model_violations", s->model_violations);
    U("fatal_faults", s->fatal_faults);
    U("program_faults", s->program_faults);
    U("failed_accesses", s->failed_accesses);
    U("instructions", s->instructions);
    U("kernels", s->kernels);
    U("trace_buffer_peak", p->fin.trace_buffer_peak);
    U("sim_time_ns", p->fin.sim_ns);
    U("kernel_ns", cycles_ns(p, s->kernel_cycles));
    U("copy_ns", cycles_ns(p, s->copy_cycles));
    U("copy_bytes", s->copy_bytes);
    U("ideal_ns", ideal_ns(p));
    U("seed", p->o.seed);
    U("exit_status", p->fin.status);
#undef U
}

int plat_write_stats(const plat_t *p) {
    FILE *f = fopen(p->o.stats_path, "w");
    if (!f) {
        fprintf(stderr, "gmmu-sim: cannot write %s: %s\n", p->o.stats_path, strerror(errno));
        return -1;
    }
    fprintf(f, "{\n");
    write_counts(f, p);
    fprintf(f, "  \"wall_seconds\": %.3f,\n", p->fin.wall);
    json_kv_str(f, "engine", p->o.engine_name);
    fprintf(f, "  \"no_skip\": %s,\n", p->o.no_skip ? "true" : "false");
    fprintf(f, "  \"no_quiet\": %s,\n", p->o.no_quiet ? "true" : "false");
    json_kv_str(f, "trace", p->o.trace_path);
    json_kv_str(f, "config_file", p->o.cfg_path);
    json_kv_str(f, "result", p->fin.result);
    fprintf(f, "  \"config\": ");
    cfg_print_json(p->cfg, f, "  ");
    fprintf(f, "\n}\n");
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "gmmu-sim: write error on %s\n", p->o.stats_path);
        return -1;
    }
    return 0;
}

/* Moved from plat_cycle.c (size limit): the state dump and the progress line. */
void plat_dump_state(plat_t *p, FILE *f) {
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
    for (unsigned i = 0; i < p->neng; i++) {
        if (!p->eng[i]->ops->dump)
            continue;
        fprintf(f, "%s state:\n", p->eng[i]->ops->label);
        p->eng[i]->ops->dump(p->eng[i], f);
    }
}

/* Thrashing note (issue 11 item 16): in the interval since the last progress output the handler
 * evicted more pages than the GPU has frames while fewer instructions completed than pages
 * migrated in. */
static void thrashing_note(plat_t *p) {
    const uvm_stats_t *h = hdrv_stats(p->host);
    const uint64_t ev = h->evictions - p->prog_evictions, in = h->pages_h2d - p->prog_h2d;
    const uint64_t ins = p->st.instructions - p->prog_instructions;
    if (ev > p->cfg->gpu_mem_pages && ins < in) {
        plat_clear_progress(p);
        fprintf(stderr,
                "gmmu-sim: note: thrashing: %llu pages evicted, %llu migrated in, %llu "
                "instructions completed since the last report (working set larger than "
                "gpu_mem_pages = %llu)\n",
                (unsigned long long)ev, (unsigned long long)in, (unsigned long long)ins,
                (unsigned long long)p->cfg->gpu_mem_pages);
    }
    p->prog_evictions = h->evictions;
    p->prog_h2d = h->pages_h2d;
    p->prog_instructions = p->st.instructions;
}

void plat_progress(plat_t *p) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    const double t = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    if (p->last_progress_print == 0.0)
        p->last_progress_print = t;
    const double every = p->o.progress_every > 0 ? p->o.progress_every : PLAT_LOG_PROGRESS_S;
    if (t - p->last_progress_print < (p->progress_tty ? 0.5 : every))
        return;
    p->last_progress_print = t;
    if (!p->progress_tty || ++p->progress_ticks % 20 == 0)
        thrashing_note(p); /* every 10 s on a terminal */
    char share[32];
    if (p->trace_total) {
        /* kernels are read as their warps run: the position read is the progress */
        const double pos = (double)p->ks.last_pos;
        snprintf(share, sizeof(share), "%5.1f%%", 100.0 * pos / (double)p->trace_total);
    } else
        snprintf(share, sizeof(share), "kernel %llu", (unsigned long long)p->st.kernels);
    fprintf(stderr, "%s  cycle %12llu  trace %s  far-faults %8llu  instr %10llu %s",
            p->progress_tty ? "\r" : "gmmu-sim: progress:", (unsigned long long)p->now, share,
            (unsigned long long)p->st.far_faults, (unsigned long long)p->st.instructions,
            p->progress_tty ? "" : "\n");
    p->progress_shown = p->progress_tty;
}
