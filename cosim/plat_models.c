/*
 * plat_models.c - the platform's models behind one interface (plat_model.h, docs/cosim.md
 * "Platform models"): each model's operations and the list the cycle loop iterates for the next
 * event, the models that advance by themselves, the statistics and freeing.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "plat_int.h"

/* ------------------------------------------------------------------------------------------ */
/* statistics                                                                                 */

#define PLAT_STAT_NAME(k) #k,
static const char *const stat_names[PLAT_NSTATS] = {PLAT_STAT_KEYS(PLAT_STAT_NAME)};
#undef PLAT_STAT_NAME

const char *plat_stat_name(plat_stat_t k) {
    return (unsigned)k < PLAT_NSTATS ? stat_names[k] : "?";
}

plat_stat_t plat_stats_incomplete(const plat_stats_w_t *w) {
    for (unsigned k = 0; k < PLAT_NSTATS; k++)
        if (w->set[k] != 1)
            return (plat_stat_t)k;
    return PLAT_NSTATS;
}

/* cycles -> ns at clock_mhz (floor; as plat_now_ns, no overflow below 1.8e16 cycles) */
static uint64_t cycles_ns(uint32_t mhz, uint64_t c) {
    return c / mhz * 1000ull + c % mhz * 1000ull / mhz;
}

/* ------------------------------------------------------------------------------------------ */
/* "sm": SM front-ends and the workload                                                       */

static uint64_t wl_next_event(const void *m, uint64_t now) {
    const plat_wl_t *w = m;
    uint64_t t = UINT64_MAX;
    for (uint32_t s = 0; s < w->num_sm && w->kernel_active; s++) {
        const uint64_t e = sm_next_event(&w->sm[s], &w->kern, now);
        if (e < t)
            t = e;
    }
    return t;
}

static void wl_stats(const void *m, plat_stats_w_t *st) {
    const plat_wl_t *w = m;
    const uint64_t copy_ns = cycles_ns(w->clock_mhz, w->copy_cycles);
    const uint64_t kernel_ns = cycles_ns(w->clock_mhz, w->kernel_cycles);
    plat_stat(st, PLAT_ST_translations, w->translations);
    plat_stat(st, PLAT_ST_l1_hits, w->l1_hits);
    plat_stat(st, PLAT_ST_l1_miss_responses, w->miss_rsps);
    plat_stat(st, PLAT_ST_req_stalls, w->req_stalls);
    plat_stat(st, PLAT_ST_fatal_faults, w->fatal_faults);
    plat_stat(st, PLAT_ST_program_faults, w->program_faults);
    plat_stat(st, PLAT_ST_failed_accesses, w->failed_accesses);
    plat_stat(st, PLAT_ST_instructions, w->instructions);
    plat_stat(st, PLAT_ST_kernels, w->kernels);
    plat_stat(st, PLAT_ST_trace_buffer_peak, w->kern.buffered_peak);
    plat_stat(st, PLAT_ST_kernel_ns, kernel_ns);
    plat_stat(st, PLAT_ST_copy_ns, copy_ns);
    plat_stat(st, PLAT_ST_copy_bytes, w->copy_bytes);
    /* the ideal overlap bound (Zheng et al.'s "Ideal Copy + Execute Overlap", docs/cosim.md "Run
     * modes"): the copy and the kernels of the memcpy run perfectly overlapped; 0 in demand mode
     * (the kernels' time with every page resident is not known there) */
    plat_stat(st, PLAT_ST_ideal_ns,
              !w->memcpy_mode       ? 0
              : copy_ns > kernel_ns ? copy_ns
                                    : kernel_ns);
}

static void wl_free(void *m) {
    plat_wl_t *w = m;
    if (w->tr)
        trace_close(w->tr);
    w->tr = NULL;
    for (uint32_t s = 0; s < GMMU_MAX_SM; s++)
        sm_free(&w->sm[s]);
    kern_free(&w->kern);
    l2d_free(&w->l2d);
    kern_stream_free(&w->ks);
    u64map_free(&w->ro_cancels);
}

/* a warp in its compute gap: the SMs' next events are timed waits */
static const plat_model_ops_t wl_ops = {"sm",     wl_next_event, NULL,
                                        wl_stats, wl_free,       wl_next_event};

/* ------------------------------------------------------------------------------------------ */
/* "pcie": the DMA engine                                                                     */

static void apply_dma(plat_dmaq_t *q, const plat_dma_t *d, uint64_t now) {
    for (uint64_t i = 0; i < d->npages; i++) {
        if (d->dir == UVM_DMA_H2D)
            gpumem_set_tag(q->gm, d->dst / PLAT_PAGE + i, d->tags[i]);
        else
            hostmem_set_page_tag(q->hm, d->dst / PLAT_PAGE + i, d->tags[i]);
    }
    evr_add(q->ring, now, EVR_DMA_DONE, (uint8_t)d->dir, 0, (uint32_t)d->handle, 0, 0);
}

void plat_dmaq_step_to(void *m, uint64_t t) {
    plat_dmaq_t *q = m;
    for (;;) {
        size_t best = SIZE_MAX;
        for (size_t i = 0; i < q->ndma; i++)
            if (q->dmas[i].done <= t && (best == SIZE_MAX || q->dmas[i].done < q->dmas[best].done ||
                                         (q->dmas[i].done == q->dmas[best].done &&
                                          q->dmas[i].handle < q->dmas[best].handle)))
                best = i;
        if (best == SIZE_MAX)
            return;
        apply_dma(q, &q->dmas[best], t);
        free(q->dmas[best].tags);
        q->dmas[best] = q->dmas[--q->ndma];
    }
}

uint64_t plat_dma_next_done(const plat_dmaq_t *q) {
    uint64_t t = UINT64_MAX;
    for (size_t i = 0; i < q->ndma; i++)
        if (q->dmas[i].done < t)
            t = q->dmas[i].done;
    return t;
}

void plat_dma_free(plat_dmaq_t *q) {
    for (size_t i = 0; i < q->ndma; i++)
        free(q->dmas[i].tags);
    free(q->dmas);
    q->dmas = NULL;
    q->ndma = q->capdma = 0;
}

static uint64_t dmaq_next_event(const void *m, uint64_t now) {
    (void)now;
    return plat_dma_next_done(m);
}

static void dmaq_stats(const void *m, plat_stats_w_t *st) {
    const plat_dmaq_t *q = m;
    plat_stat(st, PLAT_ST_h2d_busy_ns, cycles_ns(q->clock_mhz, q->dma.busy_cycles[PCIE_H2D]));
    plat_stat(st, PLAT_ST_dma_h2d, q->dma_h2d);
    plat_stat(st, PLAT_ST_dma_d2h, q->dma_d2h);
}

static void dmaq_free(void *m) {
    plat_dma_free(m);
}

/* a DMA in flight (one already due: now) */
static uint64_t dmaq_wait_end(const void *m, uint64_t now) {
    const plat_dmaq_t *q = m;
    if (!q->ndma)
        return UINT64_MAX;
    const uint64_t d = plat_dma_next_done(q);
    return d > now ? d : now;
}

static const plat_model_ops_t dmaq_ops = {"pcie",     dmaq_next_event, plat_dmaq_step_to,
                                          dmaq_stats, dmaq_free,       dmaq_wait_end};

/* ------------------------------------------------------------------------------------------ */
/* "gpumem" (its PTE read port) and "hostmem"                                                 */

static uint64_t gm_next_event(const void *m, uint64_t now) {
    (void)now;
    return gpumem_next_due(m);
}

static void gm_free(void *m) {
    gpumem_free(m);
}

static void hm_free(void *m) {
    hostmem_free(m);
}

/* a PTE read due now or later: the watchdog runs before this cycle delivers it (a skip lands on
 * its due cycle; issue 26: mem_latency = 1000000 was called a hang) */
static uint64_t gm_wait_end(const void *m, uint64_t now) {
    const uint64_t due = gpumem_next_due(m);
    return gpumem_pending(m) && due >= now ? due : UINT64_MAX;
}

static const plat_model_ops_t gm_ops = {"gpumem", gm_next_event, NULL, NULL, gm_free, gm_wait_end};
static const plat_model_ops_t hm_ops = {"hostmem", NULL, NULL, NULL, hm_free, NULL};

/* ------------------------------------------------------------------------------------------ */
/* "handler": the handler device                                                              */

static void hd_stats(const void *m, plat_stats_w_t *st) {
    const plat_hdev_t *d = m;
    uvm_stats_t z = {0};
    const uvm_stats_t *h = d->host ? hdrv_stats(d->host) : &z;
    plat_stat(st, PLAT_ST_irqs, h->irqs);
    plat_stat(st, PLAT_ST_handler_calls, d->calls);
    plat_stat(st, PLAT_ST_fault_batches, h->fault_batches);
    plat_stat(st, PLAT_ST_faults_fetched, h->faults_fetched);
    plat_stat(st, PLAT_ST_faults_duplicate, h->faults_duplicate);
    plat_stat(st, PLAT_ST_faults_stale, h->faults_stale);
    plat_stat(st, PLAT_ST_replays, h->replays);
    plat_stat(st, PLAT_ST_invalidates, h->invalidates);
    plat_stat(st, PLAT_ST_cancels, h->cancels);
    plat_stat(st, PLAT_ST_pte_writes, h->pte_writes);
    plat_stat(st, PLAT_ST_handler_overflows, h->overflows);
    plat_stat(st, PLAT_ST_pages_h2d, h->pages_h2d);
    plat_stat(st, PLAT_ST_pages_d2h, h->pages_d2h);
    plat_stat(st, PLAT_ST_evictions, h->evictions);
    plat_stat(st, PLAT_ST_bytes_h2d, h->bytes_h2d);
    plat_stat(st, PLAT_ST_bytes_d2h, h->bytes_d2h);
    plat_stat(st, PLAT_ST_pages_prefetched, h->pages_prefetched);
    plat_stat(st, PLAT_ST_bytes_prefetched, h->bytes_prefetched);
    plat_stat(st, PLAT_ST_ts_sets, h->ts_sets);
    plat_stat(st, PLAT_ST_ts_pages, h->ts_pages);
    plat_stat(st, PLAT_ST_pt_pages_used, h->pt_pages_used);
    plat_stat(st, PLAT_ST_data_pages_resident, h->data_pages_resident);
    plat_stat(st, PLAT_ST_large_maps, h->large_maps);
    plat_stat(st, PLAT_ST_coalesces, h->coalesces);
    plat_stat(st, PLAT_ST_splinters, h->splinters);
    plat_stat(st, PLAT_ST_large_evictions, h->large_evictions);
    plat_stat(st, PLAT_ST_cocoa_fallbacks, h->cocoa_fallbacks);
}

static void hd_free(void *m) {
    plat_hdev_t *d = m;
    hdrv_free(d->host);
    d->host = NULL;
}

static const plat_model_ops_t hd_ops = {"handler", NULL, NULL, hd_stats, hd_free, NULL};

/* ------------------------------------------------------------------------------------------ */
/* "chaos", "script", "co", "watchdog", "gmmu"                                                */

static uint64_t ch_next_event(const void *m, uint64_t now) {
    const plat_chaos_t *c = m;
    return c->period && c->next > now ? c->next : UINT64_MAX;
}

static void ch_stats(const void *m, plat_stats_w_t *st) {
    const plat_chaos_t *c = m;
    plat_stat(st, PLAT_ST_chaos_cmds, c->cmds);
    plat_stat(st, PLAT_ST_chaos_held, c->held);
}

static const plat_model_ops_t ch_ops = {"chaos", ch_next_event, NULL, ch_stats, NULL, NULL};

uint64_t plat_script_next(const plat_script_t *s) {
    return s->next_step < s->nsteps ? s->steps[s->next_step].cycle : UINT64_MAX;
}

static uint64_t scr_next_event(const void *m, uint64_t now) {
    const uint64_t t = plat_script_next(m);
    return t > now ? t : UINT64_MAX;
}

static void scr_free(void *m) {
    plat_script_t *s = m;
    u64map_free(&s->pl_tables);
}

static const plat_model_ops_t scr_ops = {"script", scr_next_event, NULL, NULL, scr_free, NULL};

uint64_t plat_co_next(const plat_co_t *c) {
    uint64_t t = 0;
    for (unsigned k = 0; k < 2; k++)
        if (c->next[k] && (!t || c->next[k] < t))
            t = c->next[k];
    return t;
}

static uint64_t co_next_event(const void *m, uint64_t now) {
    const uint64_t t = plat_co_next(m);
    return t > now ? t : UINT64_MAX;
}

static void co_stats(const void *m, plat_stats_w_t *st) {
    const plat_co_t *c = m;
    plat_stat(st, PLAT_ST_co_cmds, c->cmds);
    plat_stat(st, PLAT_ST_co_errors, c->errors);
}

static const plat_model_ops_t co_ops = {"co", co_next_event, NULL, co_stats, NULL, NULL};

/* the watchdog's check is due (plat_step) */
static uint64_t wd_next_event(const void *m, uint64_t now) {
    const plat_wd_t *w = m;
    (void)now;
    return w->from + w->cycles + 1;
}

/* the host's modeled CPU time or DMA wait (plat_host_wait) */
static uint64_t wd_wait_end(const void *m, uint64_t now) {
    const plat_wd_t *w = m;
    return now < w->wait_until ? w->wait_until : UINT64_MAX;
}

static const plat_model_ops_t wd_ops = {"watchdog", wd_next_event, NULL, NULL, NULL, wd_wait_end};

static void gmmu_stats(const void *m, plat_stats_w_t *st) {
    const plat_gmmu_ctr_t *g = m;
    plat_stat(st, PLAT_ST_l2_hits, g->l2_hits);
    plat_stat(st, PLAT_ST_l2_misses, g->l2_misses);
    plat_stat(st, PLAT_ST_walks, g->walks);
    plat_stat(st, PLAT_ST_walk_restarts, g->walk_restarts);
    plat_stat(st, PLAT_ST_far_faults, g->far_faults);
    plat_stat(st, PLAT_ST_ff_merges, g->ff_merges);
    plat_stat(st, PLAT_ST_ff_drops, g->ff_drops);
    plat_stat(st, PLAT_ST_fb_overflows, g->fb_overflows);
    plat_stat(st, PLAT_ST_fb_writes, g->fb_writes);
    plat_stat(st, PLAT_ST_pte_reads, g->pte_reads);
    plat_stat(st, PLAT_ST_l1_large_hit_cycles, g->l1_large_hit_cycles);
    plat_stat(st, PLAT_ST_l2_large_hits, g->l2_large_hits);
    plat_stat(st, PLAT_ST_walks_large, g->walks_large);
    plat_stat(st, PLAT_ST_gmmu_pte_writes, g->gmmu_pte_writes);
    plat_stat(st, PLAT_ST_co_done, g->co_done);
    plat_stat(st, PLAT_ST_mismatches, g->mismatches);
    plat_stat(st, PLAT_ST_model_violations, g->model_violations);
}

static const plat_model_ops_t gmmu_ops = {"gmmu", NULL, NULL, gmmu_stats, NULL, NULL};

/* ------------------------------------------------------------------------------------------ */
/* the list                                                                                   */

static void add(plat_t *p, const plat_model_ops_t *ops, void *m) {
    p->models[p->nmodels].ops = ops;
    p->models[p->nmodels].m = m;
    p->nmodels++;
}

void plat_models_init(plat_t *p) {
    p->nmodels = 0;
    add(p, &wl_ops, &p->wl);
    add(p, &dmaq_ops, &p->dq);
    add(p, &gm_ops, &p->gm);
    add(p, &hm_ops, &p->hm);
    add(p, &hd_ops, &p->hd);
    add(p, &ch_ops, &p->ch);
    add(p, &scr_ops, &p->scr);
    add(p, &co_ops, &p->co);
    add(p, &wd_ops, &p->wd);
    add(p, &gmmu_ops, &p->gmmu);
}

/* The earliest of the models' next_event (wait = false) or wait_end (wait = true) at now. */
static uint64_t earliest(const plat_t *p, bool wait) {
    uint64_t t = UINT64_MAX;
    for (unsigned i = 0; i < p->nmodels; i++) {
        const plat_model_t *md = &p->models[i];
        uint64_t (*const at)(const void *, uint64_t) =
            wait ? md->ops->wait_end : md->ops->next_event;
        if (!at)
            continue;
        const uint64_t e = at(md->m, p->now);
        if (e < t)
            t = e;
    }
    return t;
}

uint64_t plat_models_next_event(const plat_t *p) {
    return earliest(p, false);
}

uint64_t plat_models_wait_end(const plat_t *p) {
    return earliest(p, true);
}

void plat_models_step(plat_t *p) {
    for (unsigned i = 0; i < p->nmodels; i++)
        if (p->models[i].ops->step_to)
            p->models[i].ops->step_to(p->models[i].m, p->now);
}

void plat_models_stats(const plat_t *p, plat_stats_w_t *w) {
    for (unsigned i = 0; i < p->nmodels; i++)
        if (p->models[i].ops->stats)
            p->models[i].ops->stats(p->models[i].m, w);
}

void plat_models_free(plat_t *p) {
    for (unsigned i = 0; i < p->nmodels; i++)
        if (p->models[i].ops->free)
            p->models[i].ops->free(p->models[i].m);
}
