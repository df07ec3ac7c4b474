/*
 * plat_report.c - the end of a run (see plat_int.h): the one-screen summary and the JSON stats
 * file, both from the statistics frozen when the run stopped (plat_final_t); the state dump and
 * the progress line. Every key and line
 * is listed in docs/cosim.md; scripts/stats_golden.py compares them across versions.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "plat_int.h"

/* A frozen statistic (plat_model.h). */
#define V(k) (p->fin.st.v[PLAT_ST_##k])
#define ULL(k) ((unsigned long long)V(k))
#define ULL_(x) ((unsigned long long)(x))

/* a thrashing detector runs (a policy property, not a name test): its statistics are reported */
static bool thrashing_reported(const plat_t *p) {
    return p->hd.host && (uvm_policy_props(UVM_POLICY_THRASHING, p->cfg->thrashing_policy) &
                          UVM_POLICY_PROP_DETECTS) != 0;
}

/* The handler's statistics if it mapped a page remotely (docs/handler.md §6l), else NULL: the
 * remote-mapping counters are printed only then (no other run's statistics change). */
static const uvm_stats_t *remote_handled(const plat_t *p) {
    const uvm_stats_t *s = p->hd.host ? hdrv_stats(p->hd.host) : NULL;
    return s && (s->remote_maps || s->remote_unmaps || s->remote_to_gpu) ? s : NULL;
}

/* The stats JSON's keys of static_map / dynamap (docs/handler.md §6x): the PST's writes, the
 * decisions, and the evicted pages by their referenced lines (fig. 3a of seed 001). */
static void print_pst_json(FILE *f, const plat_t *p) {
    const uvm_stats_t *h = hdrv_stats(p->hd.host);
    if (p->pst_on) /* the software PST; not written with pst_source = hw (§6x.7) */
        fprintf(f, "  \"pst_writes\": %llu,\n", ULL_(p->wl.pst_writes));
    if (!h)
        return;
    fprintf(f, "  \"pst_migrate\": %llu,\n  \"pst_remote\": %llu,\n", ULL_(h->pst_migrate),
            ULL_(h->pst_remote));
    if (p->cfg->remote_policy == CFG_REMOTE_LAZY_PG_STAT_SW ||
        p->cfg->remote_policy == CFG_REMOTE_LAZY_PG_DYN_SW) /* §6x.4 */
        fprintf(f,
                "  \"lazy_polls\": %llu,\n  \"lazy_timer_polls\": %llu,\n  \"lazy_pages\": %llu,\n",
                ULL_(h->lazy_polls), ULL_(h->lazy_timer_polls), ULL_(h->lazy_pages));
    fprintf(f, "  \"evict_lines\": [");
    for (unsigned i = 0; i < 33u; i++)
        fprintf(f, "%s%llu", i ? ", " : "", ULL_(h->evict_lines[i]));
    fprintf(f, "],\n");
}

/* DynaMap's statistics are printed with the software PST, or with static_map / dynamap reading
 * the GMMU's bitmap table (pst_source = hw, §6x.7) */
static int pst_reported(const plat_t *p) {
    return p->pst_on || ((p->cfg->remote_policy == CFG_REMOTE_STATIC_MAP ||
                          p->cfg->remote_policy == CFG_REMOTE_DYNAMAP) &&
                         p->cfg->pst_source == CFG_PST_HW);
}

static void report_acc(const plat_t *p, FILE *f, int json);
static void report_bmp(const plat_t *p, FILE *f, int json);

/* The summary's objects line (docs/handler.md §6s): only with an object policy; then the access
 * counters' line (only with the unit). */
static void print_objects(FILE *f, const plat_t *p) {
    report_acc(p, f, 0);
    report_bmp(p, f, 0);
    if (!p->prof)
        return;
    const uvm_stats_t *hs = hdrv_stats(p->hd.host);
    fprintf(f,
            "  objects       %llu launches, %llu objects removed (%llu pages to the host), "
            "%llu placed on the host, %llu prefetches (%llu pages, %llu left out)\n",
            ULL_(hs->obj_launches), ULL_(hs->obj_evictions), ULL_(hs->obj_host_pages),
            ULL_(hs->obj_host_placements), ULL_(hs->obj_prefetches), ULL_(hs->obj_prefetch_pages),
            ULL_(hs->obj_prefetch_skipped));
    if (p->cfg->object_partial) /* docs/handler.md §6s.1 */
        fprintf(f, "  partial map   %llu objects mapped partially (%llu pages of their parts)\n",
                ULL_(hs->obj_partial_maps), ULL_(hs->obj_partial_pages));
}

/* The access counters' lines (docs/microarch.md §19.8), only with the unit: the summary's or
 * (json) the stats JSON's. */
static void report_acc(const plat_t *p, FILE *f, int json) {
    if (!p->prm.acc_entries)
        return;
    /* the handler's service (docs/handler.md §6w.1): only with remote_policy lazy_grp_hw */
    const uvm_stats_t *h = p->hd.host && p->cfg->remote_policy == CFG_REMOTE_LAZY_GRP_HW
                               ? hdrv_stats(p->hd.host)
                               : NULL;
    if (!json) {
        fprintf(f, "  acc counters  %llu notifications (%llu written), %llu overflows\n",
                ULL_(p->gmmu.acc_notifies), ULL_(p->gmmu.acc_writes), ULL_(p->gmmu.acc_overflows));
        if (h)
            fprintf(f,
                    "  acc service   %llu notifications in %llu batches (%llu stale, %llu stale "
                    "pages, %llu dropped), %llu pages migrated, %llu overflows cleared\n",
                    ULL_(h->acc_serviced), ULL_(h->acc_batches), ULL_(h->acc_stale),
                    ULL_(h->acc_stale_pages), ULL_(h->acc_dropped), ULL_(h->acc_pages),
                    ULL_(h->acc_ovf_seen));
        return;
    }
    fprintf(f, "  \"acc_notifies\": %llu,\n  \"acc_overflows\": %llu,\n",
            ULL_(p->gmmu.acc_notifies), ULL_(p->gmmu.acc_overflows));
    fprintf(f, "  \"acc_writes\": %llu,\n", ULL_(p->gmmu.acc_writes));
    if (!h)
        return;
    fprintf(f, "  \"acc_svc_batches\": %llu,\n  \"acc_svc_notifications\": %llu,\n",
            ULL_(h->acc_batches), ULL_(h->acc_serviced));
    fprintf(f, "  \"acc_svc_stale\": %llu,\n  \"acc_svc_stale_pages\": %llu,\n", ULL_(h->acc_stale),
            ULL_(h->acc_stale_pages));
    fprintf(f, "  \"acc_svc_dropped\": %llu,\n  \"acc_svc_pages\": %llu,\n", ULL_(h->acc_dropped),
            ULL_(h->acc_pages));
    fprintf(f, "  \"acc_svc_overflows\": %llu,\n", ULL_(h->acc_ovf_seen));
}

/* The referenced-line bitmaps' lines (docs/microarch.md §20.6), only with line_bitmap = 1. */
static void report_bmp(const plat_t *p, FILE *f, int json) {
    if (!p->prm.line_bitmap)
        return;
    const plat_bmp_t *b = &p->bmp;
    if (!json) {
        fprintf(f, "  line bitmaps  %llu table writes, %llu cycles with a bitmap lost\n",
                ULL_(p->gmmu.bmp_wb), ULL_(p->gmmu.bmp_lost));
        fprintf(f, "  bitmap table  %llu pages, %llu lines (%llu referenced, %llu missing)\n",
                ULL_(b->table_pages), ULL_(b->table_lines), ULL_(b->truth_lines), ULL_(b->missing));
        return;
    }
    fprintf(f, "  \"bmp_wb\": %llu,\n  \"bmp_lost\": %llu,\n", ULL_(p->gmmu.bmp_wb),
            ULL_(p->gmmu.bmp_lost));
    fprintf(f, "  \"bmp_writes\": %llu,\n  \"bmp_table_pages\": %llu,\n", ULL_(b->writes),
            ULL_(b->table_pages));
    fprintf(f, "  \"bmp_table_lines\": %llu,\n  \"bmp_referenced_lines\": %llu,\n",
            ULL_(b->table_lines), ULL_(b->truth_lines));
    fprintf(f, "  \"bmp_missing_lines\": %llu,\n  \"bmp_extra_lines\": %llu,\n", ULL_(b->missing),
            ULL_(b->extra));
}

void plat_print_summary(const plat_t *p, FILE *f) {
    const char *result = p->fin.result;
    const double wall = p->fin.wall;
    const double sim_us = (double)V(sim_time_ns) / 1000.0;
    fprintf(f, "== gmmu-sim summary (engine %s, seed %llu)\n", p->o.engine_name,
            (unsigned long long)p->o.seed);
    fprintf(f, "  config %s  trace %s\n", p->o.cfg_path, p->o.trace_path);
    fprintf(f, "  cycles        %llu simulated (%.1f us), %llu clocked (%.1f%%)\n", ULL(cycles),
            sim_us, ULL(clocked_cycles),
            V(cycles) ? 100.0 * (double)V(clocked_cycles) / (double)V(cycles) : 0.0);
    fprintf(f, "  workload      %llu kernels, %llu instructions, %llu translations\n", ULL(kernels),
            ULL(instructions), ULL(translations));
    fprintf(
        f,
        "  TLB           L1 hits %llu, L2 hits %llu, L2 misses %llu, walks %llu (%llu restarted)\n",
        ULL(l1_hits), ULL(l2_hits), ULL(l2_misses), ULL(walks), ULL(walk_restarts));
    fprintf(
        f,
        "  far-faults    %llu posted, %llu merged, %llu dropped (%llu ring overflow), %llu fatal\n",
        ULL(far_faults), ULL(ff_merges), ULL(ff_drops), ULL(fb_overflows), ULL(fatal_faults));
    fprintf(f,
            "  handler       %llu irqs, %llu batches, %llu faults fetched (%llu dup, %llu stale), "
            "%llu replays, %llu invalidates, %llu cancels\n",
            ULL(irqs), ULL(fault_batches), ULL(faults_fetched), ULL(faults_duplicate),
            ULL(faults_stale), ULL(replays), ULL(invalidates), ULL(cancels));
    fprintf(f, "  migration     H2D %llu pages (%llu B), D2H %llu pages (%llu B), %llu evictions\n",
            ULL(pages_h2d), ULL(bytes_h2d), ULL(pages_d2h), ULL(bytes_d2h), ULL(evictions));
    if (p->cfg->page_size != UVM_PSIZE_4K || p->cfg->frame_alloc != UVM_FRAME_ANY)
        fprintf(f,
                "  large pages   %llu mapped whole, %llu coalesced, %llu splintered, %llu evicted "
                "whole, %llu CoCoA fallbacks; walks ending large %llu, L1 large-hit cycles %llu, "
                "L2 large hits %llu\n",
                ULL(large_maps), ULL(coalesces), ULL(splinters), ULL(large_evictions),
                ULL(cocoa_fallbacks), ULL(walks_large), ULL(l1_large_hit_cycles),
                ULL(l2_large_hits));
    if (thrashing_reported(p)) {
        const uvm_stats_t *t = hdrv_stats(p->hd.host);
        fprintf(f, "  thrashing     %s: %llu detected, %llu throttles, %llu pins, %llu dropped\n",
                p->cfg->thrashing_policy, ULL_(t->num_thrashing), ULL_(t->num_throttle),
                ULL_(t->num_pin), ULL_(t->thrash_pins_dropped));
    }
    if (V(pages_prefetched))
        fprintf(f, "  prefetch      %llu pages (%llu B) besides the faulted ones, %llu H2D DMAs\n",
                ULL(pages_prefetched), ULL(bytes_prefetched), ULL(dma_h2d));
    if (p->cfg->run_mode == CFG_RUN_MEMCPY)
        fprintf(f,
                "  memcpy        copy %.1f us (%llu B), kernels %.1f us, ideal overlap %.1f us\n",
                (double)V(copy_ns) / 1000.0, ULL(copy_bytes), (double)V(kernel_ns) / 1000.0,
                (double)V(ideal_ns) / 1000.0);
    if (p->wl.remote_reads || p->wl.remote_writes) /* only with remote mappings (§17) */
        fprintf(f,
                "  remote        %llu reads, %llu writes over PCIe (%llu B), %llu cycles waited "
                "for data\n",
                ULL_(p->wl.remote_reads), ULL_(p->wl.remote_writes), ULL_(p->wl.remote_bytes),
                ULL_(p->wl.remote_wait_cycles));
    if (remote_handled(p)) {
        const uvm_stats_t *r = remote_handled(p);
        fprintf(f, "  remote maps   %llu pages mapped remotely, %llu unmapped, %llu to the GPU\n",
                ULL_(r->remote_maps), ULL_(r->remote_unmaps), ULL_(r->remote_to_gpu));
    }
    if (l2d_on(&p->wl.l2d)) { /* only with the L2 data cache (l2d_kb) */
        const l2d_t *c = &p->wl.l2d;
        fprintf(f,
                "  L2 data       PTE reads %llu hits, %llu misses; data lines %llu hits, %llu "
                "misses\n",
                ULL_(c->pte_hits), ULL_(c->pte_misses), ULL_(c->data_hits), ULL_(c->data_misses));
    }
    if (V(chaos_cmds))
        fprintf(f, "  chaos         %llu invalidate commands (%llu held back: restart streak)\n",
                ULL(chaos_cmds), ULL(chaos_held));
    if (V(fatal_faults))
        fprintf(f, "  fatal faults  %llu program faults, %llu valid accesses cancelled\n",
                ULL(program_faults), ULL(failed_accesses));
    fprintf(f,
            "  checks        integrity errors %llu, mismatches %llu, platform errors %llu, model "
            "invariant violations %llu\n",
            ULL(integrity_errors), ULL(mismatches), ULL(platform_errors), ULL(model_violations));
    fprintf(f, "  speed         %.2f s wall, %.0f simulated cycles/s, %.0f clocked cycles/s\n",
            wall, wall > 0 ? (double)V(cycles) / wall : 0.0,
            wall > 0 ? (double)V(clocked_cycles) / wall : 0.0);
    if (p->o.stats_path)
        fprintf(f, "  stats         %s\n", p->o.stats_path);
    if (p->o.waves_path && p->wave_eng)
        fprintf(f, "  waveform      %s\n", p->o.waves_path);
    if (p->wl.host_frees || p->wl.host_prefetches || p->wl.host_cpu_touches || p->wl.host_advises) {
        const uvm_stats_t *hs = hdrv_stats(p->hd.host);
        fprintf(f, "  host calls    %llu prefetches (%llu pages to the GPU), %llu cpu touches, ",
                ULL_(p->wl.host_prefetches), ULL_(p->wl.host_prefetch_pages),
                ULL_(p->wl.host_cpu_touches));
        fprintf(f, "%llu pages to the host, ", ULL_(p->wl.host_d2h_pages));
        fprintf(f, "%llu frees (%llu pages freed), %llu compactions (%llu pages)\n",
                ULL_(p->wl.host_frees), ULL_(hs->pages_freed), ULL_(hs->compactions),
                ULL_(hs->pages_compacted));
        if (p->wl.host_advises) /* docs/handler.md §6o */
            fprintf(f, "  advice        %llu advises, %llu read duplicates, %llu collapses\n",
                    ULL_(p->wl.host_advises), ULL_(hs->read_dup_pages),
                    ULL_(hs->read_dup_collapses));
    }
    print_objects(f, p);
    fprintf(f, "  RESULT        %s\n", result);
    fflush(f);
}

#undef ULL
#undef V

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

/* Every key in the order of plat_model.h; -1 (reported) if a key was not reported exactly once
 * (a model's stats operation is missing one, or two report the same). */
static int write_counts(FILE *f, const plat_t *p) {
    const plat_stat_t bad = plat_stats_incomplete(&p->fin.st);
    if (bad != PLAT_NSTATS) {
        fprintf(stderr,
                "gmmu-sim: internal error: statistic %s reported %u times (once expected)\n",
                plat_stat_name(bad), p->fin.st.set[bad]);
        return -1;
    }
    for (unsigned k = 0; k < PLAT_NSTATS; k++)
        fprintf(f, "  \"%s\": %llu,\n", plat_stat_name((plat_stat_t)k),
                (unsigned long long)p->fin.st.v[k]);
    return 0;
}

/* The stats JSON's keys of the trace's host calls (docs/cosim.md): only when the trace has one. */
static void print_host_json(FILE *f, const plat_t *p) {
    if (!(p->wl.host_frees || p->wl.host_prefetches || p->wl.host_cpu_touches ||
          p->wl.host_advises)) /* cosim.md */
        return;
    {
        const uvm_stats_t *hs = hdrv_stats(p->hd.host);
        fprintf(f, "  \"host_cpu_touches\": %llu,\n  \"host_d2h_pages\": %llu,\n",
                ULL_(p->wl.host_cpu_touches), ULL_(p->wl.host_d2h_pages));
        fprintf(f, "  \"host_prefetches\": %llu,\n  \"host_prefetch_pages\": %llu,\n",
                ULL_(p->wl.host_prefetches), ULL_(p->wl.host_prefetch_pages));
        if (p->wl.host_prefetch_pages) /* the um_prefetch calibration rows (calibration.md) */
            fprintf(f, "  \"host_prefetch_gpu_ns\": %llu,\n", ULL_(p->wl.host_prefetch_gpu_ns));
        fprintf(f, "  \"host_frees\": %llu,\n  \"pages_freed\": %llu,\n", ULL_(p->wl.host_frees),
                ULL_(hs->pages_freed));
        fprintf(f, "  \"compactions\": %llu,\n  \"pages_compacted\": %llu,\n",
                ULL_(hs->compactions), ULL_(hs->pages_compacted));
        if (p->wl.host_advises || hs->read_dup_pages || hs->read_dup_collapses) /* §6o */
            fprintf(f,
                    "  \"host_advises\": %llu,\n  \"read_dup_pages\": %llu,\n"
                    "  \"read_dup_collapses\": %llu,\n",
                    ULL_(p->wl.host_advises), ULL_(hs->read_dup_pages),
                    ULL_(hs->read_dup_collapses));
    }
}

int plat_write_stats(const plat_t *p) {
    FILE *f = fopen(p->o.stats_path, "w");
    if (!f) {
        fprintf(stderr, "gmmu-sim: cannot write %s: %s\n", p->o.stats_path, strerror(errno));
        return -1;
    }
    fprintf(f, "{\n");
    if (write_counts(f, p) != 0) {
        fclose(f);
        return -1;
    }
    print_host_json(f, p);
    const uvm_stats_t *ad = p->hd.host ? hdrv_stats(p->hd.host) : NULL;
    if (ad && (ad->clock_pte_reads || p->cfg->writeback == CFG_WB_DIRTY)) { /* §6r, only then */
        fprintf(f, "  \"clock_pte_reads\": %llu,\n  \"clock_acc_clears\": %llu,\n",
                ULL_(ad->clock_pte_reads), ULL_(ad->clock_acc_clears));
        fprintf(f, "  \"wb_clean_pages\": %llu,\n  \"wb_bytes_saved\": %llu,\n",
                ULL_(ad->wb_clean_pages), ULL_(ad->wb_bytes_saved));
    }
    report_acc(p, f, 1);
    report_bmp(p, f, 1);
    if (p->wl.remote_reads || p->wl.remote_writes) { /* only with remote mappings (§17) */
        fprintf(f, "  \"remote_reads\": %llu,\n  \"remote_writes\": %llu,\n",
                ULL_(p->wl.remote_reads), ULL_(p->wl.remote_writes));
        fprintf(f, "  \"remote_bytes\": %llu,\n  \"remote_wait_cycles\": %llu,\n",
                ULL_(p->wl.remote_bytes), ULL_(p->wl.remote_wait_cycles));
    }
    if (p->prof) { /* only with an object policy (docs/handler.md §6s) */
        const uvm_stats_t *h = hdrv_stats(p->hd.host);
        fprintf(f, "  \"obj_launches\": %llu,\n  \"obj_evictions\": %llu,\n", ULL_(h->obj_launches),
                ULL_(h->obj_evictions));
        fprintf(f, "  \"obj_host_pages\": %llu,\n  \"obj_host_placements\": %llu,\n",
                ULL_(h->obj_host_pages), ULL_(h->obj_host_placements));
        fprintf(f, "  \"obj_prefetches\": %llu,\n  \"obj_prefetch_pages\": %llu,\n",
                ULL_(h->obj_prefetches), ULL_(h->obj_prefetch_pages));
        fprintf(f, "  \"obj_prefetch_skipped\": %llu,\n", ULL_(h->obj_prefetch_skipped));
        if (p->cfg->object_partial) /* only with partial mapping (§6s.1) */
            fprintf(f, "  \"obj_partial_maps\": %llu,\n  \"obj_partial_pages\": %llu,\n",
                    ULL_(h->obj_partial_maps), ULL_(h->obj_partial_pages));
    }
    if (pst_reported(p)) /* DynaMap's PST (docs/handler.md §6x): only with its policies */
        print_pst_json(f, p);
    if (remote_handled(p)) { /* docs/handler.md §6l */
        const uvm_stats_t *r = remote_handled(p);
        fprintf(f, "  \"remote_maps\": %llu,\n  \"remote_unmaps\": %llu,\n", ULL_(r->remote_maps),
                ULL_(r->remote_unmaps));
        fprintf(f, "  \"remote_to_gpu\": %llu,\n", ULL_(r->remote_to_gpu));
        if (r->remote_pins) /* thrashing_pin_to = host (§6l.4) */
            fprintf(f, "  \"remote_pins\": %llu,\n", ULL_(r->remote_pins));
    }
    /* only with the L2 data cache (l2d_kb): no other run's stats change */
    if (l2d_on(&p->wl.l2d)) {
        const l2d_t *c = &p->wl.l2d;
        fprintf(f, "  \"l2d_pte_hits\": %llu,\n  \"l2d_pte_misses\": %llu,\n", ULL_(c->pte_hits),
                ULL_(c->pte_misses));
        fprintf(f, "  \"l2d_data_hits\": %llu,\n  \"l2d_data_misses\": %llu,\n", ULL_(c->data_hits),
                ULL_(c->data_misses));
    }
    if (thrashing_reported(p)) {
        /* only with a thrashing policy (docs/handler.md §6j): no other run's stats change */
        const uvm_stats_t *h = hdrv_stats(p->hd.host);
        fprintf(f, "  \"num_thrashing\": %llu,\n  \"num_throttle\": %llu,\n  \"num_pin\": %llu,\n",
                (unsigned long long)h->num_thrashing, (unsigned long long)h->num_throttle,
                (unsigned long long)h->num_pin);
        if (h->thrash_pins_dropped) /* forward progress (§6i): only when it happened */
            fprintf(f, "  \"thrash_pins_dropped\": %llu,\n", ULL_(h->thrash_pins_dropped));
    }
    if (p->hd.host && p->cfg->evict_reserve_pages) { /* pre-eviction only (handler.md §6u) */
        const uvm_stats_t *h = hdrv_stats(p->hd.host);
        fprintf(f, "  \"reserve_evictions\": %llu,\n  \"reserve_ns\": %llu,\n",
                ULL_(h->reserve_evictions), ULL_(h->reserve_ns));
    }
    if (p->hd.host && p->cfg->count_unused != UVM_UNUSED_OFF) { /* handler.md §6z only */
        const uvm_stats_t *h = hdrv_stats(p->hd.host);
        fprintf(f, "  \"unused_evicted\": %llu,\n  \"unused_evicted_prefetch\": %llu,\n",
                ULL_(h->unused_evicted), ULL_(h->unused_evicted_prefetch));
        if (p->cfg->count_unused == UVM_UNUSED_ORACLE) { /* acc reads no leaf at the end */
            uint64_t pref = 0, all = 0;
            hdrv_unused_resident(p->hd.host, &pref, &all);
            fprintf(f, "  \"prefetch_unused_resident\": %llu,\n  \"unused_resident\": %llu,\n",
                    ULL_(pref), ULL_(all));
        }
    }
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
            (unsigned long long)p->wl.kernels, p->wl.kern.name, p->wl.kernel_active,
            p->wl.trace_done, p->hd.running);
    if (p->wl.kernel_active)
        for (uint32_t s = 0; s < p->prm.num_sm; s++)
            sm_dump(&p->wl.sm[s], &p->wl.kern, f, p->now);
    fprintf(f, "  PTE reads pending %zu, DMAs pending %zu\n", gpumem_pending(&p->gm), p->dq.ndma);
    for (size_t i = 0; i < p->dq.ndma; i++)
        fprintf(f, "    DMA #%llu %s %llu pages done at cycle %llu\n",
                (unsigned long long)p->dq.dmas[i].handle, p->dq.dmas[i].dir ? "D2H" : "H2D",
                (unsigned long long)p->dq.dmas[i].npages, (unsigned long long)p->dq.dmas[i].done);
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
    const uvm_stats_t *h = hdrv_stats(p->hd.host);
    const uint64_t ev = h->evictions - p->prog_evictions, in = h->pages_h2d - p->prog_h2d;
    const uint64_t ins = p->wl.instructions - p->prog_instructions;
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
    p->prog_instructions = p->wl.instructions;
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
    if (p->wl.trace_total) {
        /* kernels are read as their warps run: the position read is the progress */
        const double pos = (double)p->wl.ks.last_pos;
        snprintf(share, sizeof(share), "%5.1f%%", 100.0 * pos / (double)p->wl.trace_total);
    } else
        snprintf(share, sizeof(share), "kernel %llu", (unsigned long long)p->wl.kernels);
    fprintf(stderr, "%s  cycle %12llu  trace %s  far-faults %8llu  instr %10llu %s",
            p->progress_tty ? "\r" : "gmmu-sim: progress:", (unsigned long long)p->now, share,
            (unsigned long long)p->gmmu.far_faults, (unsigned long long)p->wl.instructions,
            p->progress_tty ? "" : "\n");
    p->progress_shown = p->progress_tty;
}
