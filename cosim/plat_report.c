/*
 * plat_report.c - the end of a run (see plat_int.h): the one-screen summary and the JSON stats
 * file, both from the statistics frozen when the run stopped (plat_final_t). Every key and line
 * is listed in docs/cosim.md; scripts/stats_golden.py compares them across versions.
 */
#include <errno.h>
#include <string.h>

#include "plat_int.h"

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
    if (h->pages_prefetched)
        fprintf(f, "  prefetch      %llu pages (%llu B) besides the faulted ones, %llu H2D DMAs\n",
                (unsigned long long)h->pages_prefetched, (unsigned long long)h->bytes_prefetched,
                (unsigned long long)s->dma_h2d);
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
    U("dma_h2d", s->dma_h2d);
    U("dma_d2h", s->dma_d2h);
    U("pt_pages_used", h->pt_pages_used);
    U("data_pages_resident", h->data_pages_resident);
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
