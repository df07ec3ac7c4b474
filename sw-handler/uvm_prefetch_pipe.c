/*
 * uvm_prefetch_pipe.c - pipelined transfer sets (cfg.transfer_sets = pipelined, docs/handler.md
 * §6m): Zheng et al.'s allocation-wide prefetchers issue their transfer sets independently of
 * the fault batches. A set's copies are submitted and not waited for; the platform wakes the
 * handler when the first copy still in flight completes (uvm_handler_wake_ns: the device's
 * dma_done_ns), the handler maps the pages whose copies completed and, while less than one set
 * is in flight, submits the next set. So the next set is prepared and queued while the previous
 * one is on the link (at most two in flight), and the link idles only when the CPU work of a set
 * (t_page_ns per page, t_pte_ns per PTE) takes longer than its transfer, or when the prefetcher
 * has no candidate or no free frame is left (a prefetch never evicts).
 *
 * Interactions: a fault batch first maps the completed copies; a fault on a page still in
 * flight waits for the whole set (the page is then mapped and the fault stale). An eviction
 * first waits for and maps the whole set (uvm_migrate_backing: an in-flight frame is never a
 * victim). Mapping the completed copies (uvm_ts_retire) is the migration layer's (uvm_migrate.c).
 * An asynchronous prefetch (prefetch_stream = other, docs/handler.md §6o) puts its copies in the
 * same set in flight: the fault wait, the wake-up and the drain apply to them; no next set follows.
 */
#include <string.h>

#include "uvm_priv.h"

/* Submits the next set if less than one set is in flight and the prefetcher has candidates. */
static void submit_next(uvm_handler_t *h) {
    uvm_ts_pipe_t *t = &h->ts;
    const uint32_t set =
        h->cfg.transfer_set_pages < UVM_BLOCK_PAGES ? h->cfg.transfer_set_pages : UVM_BLOCK_PAGES;
    if (t->n - t->mapped >= set)
        return;
    if (t->mapped > 0) { /* compact: the unmapped runs to the front */
        memmove(t->pending, t->pending + t->mapped, (t->n - t->mapped) * sizeof *t->pending);
        t->n -= t->mapped;
        t->mapped = 0;
    }
    /* the batch's pending list is empty between batches: the set's storage stands in for it */
    uvm_pending_t *const pending = h->pending;
    const uint32_t npending = h->npending, cap = h->pending_cap;
    const uint32_t run_start = h->run_start, run_len = h->run_len;
    h->pending = t->pending + t->n;
    h->pending_cap = UVM_TS_CAP - t->n;
    h->npending = h->run_start = h->run_len = 0;
    const uvm_alloc_hint_ctx_t c = {t->last_vpn, t->any_fault, h->prefetch_priv, true};
    (void)uvm_transfer_set(h, &c, set, true);
    t->n += h->npending;
    h->pending = pending;
    h->npending = npending;
    h->pending_cap = cap;
    h->run_start = run_start;
    h->run_len = run_len;
}

void uvm_ts_pipe_batch(uvm_handler_t *h, uint32_t m) {
    uvm_ts_pipe_t *t = &h->ts;
    uvm_ts_retire(h, 0, false);
    bool hit = false;
    for (uint32_t i = t->mapped; i < t->n && !hit; i++)
        for (uint32_t j = 0; j < m && !hit; j++)
            hit = h->batch[j].vpn == t->pending[i].vpn;
    if (hit)
        uvm_ts_retire(h, 0, true);
}

void uvm_ts_pipe_after_batch(uvm_handler_t *h, uint32_t m) {
    uvm_alloc_hint_ctx_t c = {0, false, NULL, false};
    uvm_batch_anchor(h, m, &c);
    if (c.any_fault) {
        h->ts.last_vpn = c.last_vpn;
        h->ts.any_fault = true;
    }
    submit_next(h);
}

uint64_t uvm_ts_wake_ns(const uvm_handler_t *h) {
    if (!h || h->ts.n == 0)
        return UINT64_MAX;
    if (!h->dev.dma_done_ns)
        return 0; /* unknown: wake at once and wait for the copies */
    return h->dev.dma_done_ns(h->dev.ctx, h->ts.pending[h->ts.mapped].dma);
}

void uvm_ts_wake(uvm_handler_t *h) {
    if (!h || h->ts.n == 0)
        return;
    h->dev.cpu_delay(h->dev.ctx, h->cfg.t_irq_ns); /* the copy-completion interrupt */
    uvm_ts_retire(h, 1, !h->dev.dma_done_ns);
    if (h->prefetch->alloc_hint && h->cfg.transfer_sets == UVM_TS_PIPELINED)
        submit_next(h); /* not for an asynchronous prefetch's copies alone (§6o) */
}
