/*
 * uvm_service.c - the interrupt service loop: fetch a batch from the fault ring, coalesce and
 * sort it, service it per 2 MB VA block (cancel / skip stale / migrate + map), replay per policy.
 * Modeled on nvidia-uvm's uvm_gpu_service_replayable_faults(); see docs/handler.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uvm_acc.h"
#include "uvm_lazypg.h"
#include "uvm_place.h"

/* Access types ordered by how intrusive servicing them is (nvidia-uvm keeps the maximum). */
static uint32_t access_rank(uint32_t at) {
    switch (at) {
    case GMMU_AT_PREFETCH:
        return 0;
    case GMMU_AT_READ:
        return 1;
    case GMMU_AT_WRITE:
        return 2;
    case GMMU_AT_ATOMIC:
        return 3;
    default:
        return 2; /* unknown: treat as a write (conservative) */
    }
}

static bool access_is_write(uint32_t at) {
    return access_rank(at) >= 2;
}

/* ------------------------------------------------------------------------------------------ */
/* batch preprocessing                                                                         */

static int cmp_vpn(const void *a, const void *b) {
    const uvm_fault_t *x = a;
    const uvm_fault_t *y = b;
    if (x->vpn != y->vpn)
        return x->vpn < y->vpn ? -1 : 1;
    /* deterministic order among duplicates: earliest first */
    if (x->timestamp != y->timestamp)
        return x->timestamp < y->timestamp ? -1 : 1;
    return 0;
}

/* Sorts by VPN and merges duplicates in place; returns the number of distinct pages. */
static uint32_t coalesce(uvm_handler_t *h, uint32_t n) {
    if (n == 0)
        return 0;
    uvm_fault_t *b = h->batch;
    qsort(b, n, sizeof *b, cmp_vpn);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (m > 0 && b[m - 1].vpn == b[i].vpn) {
            uvm_fault_t *d = &b[m - 1];
            if (access_rank(b[i].access) > access_rank(d->access))
                d->access = b[i].access;
            d->sm_mask |= b[i].sm_mask;
            d->ro_violation = d->ro_violation || b[i].ro_violation;
            d->count++;
            h->stats.faults_duplicate++;
        } else {
            b[m++] = b[i];
        }
    }
    return m;
}

/* ------------------------------------------------------------------------------------------ */
/* servicing                                                                                   */

/* One faulting page: cancel (fatal), skip (stale), or migrate. */
static void service_fault(uvm_handler_t *h, uvm_blk_ctx_t *c, const uvm_fault_t *f) {
    const uint64_t vpn = f->vpn;
    const uvm_alloc_t *al = uvm_find_alloc(h, vpn);
    if (!al) {
        uvm_cancel_page(h, vpn, "outside every allocation");
        return;
    }
    const bool write = access_is_write(f->access) || f->ro_violation;
    if (al->readonly && write) {
        char why[160];
        snprintf(why, sizeof why, "write to read-only allocation '%.96s'", al->name);
        uvm_cancel_page(h, vpn, why);
        return;
    }
    if (c->blk) {
        uvm_va_block_fault(c->blk, vpn, f->timestamp);
        if (write) /* a read-mostly page migrates writable (§6o) */
            uvm_bitmap_set(c->blk->wfault, uvm_block_page(vpn));
    }
    uint32_t frame = 0;
    const bool resident = uvm_va_block_resident(h, vpn, &frame);
    uvm_emit_block_fault(h, f, resident, frame); /* the policies observe it (§6i) */
    if (resident && write && !h->frames[frame].writable) {
        /* a write to a read duplicate (the only read-only pages of a writable allocation) */
        uvm_dup_collapse(h, vpn, frame);
        if (h->replay->page_done)
            h->replay->page_done(h, vpn);
        return;
    }
    if (resident || uvm_remote_is(h, vpn)) {
        /* already mapped, locally or remotely (§6l) (stale or duplicate across batches) */
        h->stats.faults_stale++;
        if (h->replay->page_done)
            h->replay->page_done(h, vpn);
        return;
    }
    if (uvm_remote_fault(h, c, vpn)) /* mapped on its host copy, not migrated (§6l.2) */
        return;
    if (uvm_thrash_act(h, vpn)) /* THROTTLE: left for a later replay (§6i) */
        return;
    if (uvm_remote_pin(h, c, vpn)) /* PIN to the host: mapped remotely (§6l.4) */
        return;
    if (!uvm_block_pt_room(h, c, vpn)) {
        uvm_cancel_page(h, vpn, "no page-table page left");
        return;
    }
    bool w = false;
    if (h->place->region_whole && c->blk &&
        uvm_bitmap_count(c->blk->resident, UVM_BLOCK_WORDS) == 0 &&
        h->place->region_whole(h, vpn, &w)) {
        /* the first fault of a 2m region brings the whole 2 MB page (§6f) */
        if (h->place->migrate_whole(h, vpn, w) && h->replay->page_done)
            h->replay->page_done(h, vpn);
        return;
    }
    if (c->defer)
        uvm_bitmap_set(c->demand, uvm_block_page(vpn));
    else {
        h->unpin_for_demand = true; /* a faulted page may drop a thrashing pin (§6i) */
        (void)uvm_migrate_page(h, vpn, al);
        h->unpin_for_demand = false;
    }
}

/* Bit per page of block blk_id that lies inside a managed allocation. */
static void block_managed(const uvm_handler_t *h, uint64_t blk_id, uint64_t m[UVM_BLOCK_WORDS]) {
    const uint64_t base = blk_id << UVM_BLOCK_SHIFT;
    memset(m, 0, UVM_BLOCK_WORDS * sizeof *m);
    for (uint32_t p = 0; p < UVM_BLOCK_PAGES;) {
        const uvm_alloc_t *al = uvm_find_alloc(h, base + p);
        if (!al) {
            p++;
            continue;
        }
        /* every page up to the allocation's last one (or the block's end) */
        const uint64_t last = (al->base + al->size - 1u) >> GMMU_PAGE_SHIFT;
        const uint32_t end =
            last - base >= UVM_BLOCK_PAGES ? UVM_BLOCK_PAGES : (uint32_t)(last - base) + 1u;
        for (; p < end; p++)
            uvm_bitmap_set(m, p);
    }
}

/* Deferred migration: the demand pages, their growth (cfg.grow_pages) and the prefetch policy's
 * hint, restricted to managed, non-resident pages, migrated together in VPN order. */
static void service_deferred(uvm_handler_t *h, uvm_blk_ctx_t *c) {
    uint64_t managed[UVM_BLOCK_WORDS], set[UVM_BLOCK_WORDS] = {0}, hint[UVM_BLOCK_WORDS] = {0};
    block_managed(h, c->blk->id, managed);
    if (h->cfg.grow_pages > 1)
        uvm_prefetch_grow(c->demand, managed, h->cfg.grow_pages, set);
    const uvm_prefetch_ctx_t pc = {c->blk,          c->demand,
                                   managed,         h->dev.now_ns ? h->dev.now_ns(h->dev.ctx) : 0,
                                   h->cfg.seed,     h->irq_h2d_bytes,
                                   h->irq_start_ns, h->prefetch_priv};
    h->prefetch->hint(h, &pc, hint);
    uint64_t remote[UVM_BLOCK_WORDS]; /* never migrated by a hint (§6l.2) */
    uvm_remote_wanted_mask(h, c->blk, remote);
    bool any_extra = false;
    for (uint32_t w = 0; w < UVM_BLOCK_WORDS; w++) {
        const uint64_t extra =
            (set[w] | hint[w]) & managed[w] & ~c->blk->resident[w] & ~c->demand[w] & ~remote[w];
        any_extra = any_extra || extra != 0;
        set[w] = extra | c->demand[w];
    }
    /* demand pages passed the page-table check; extra pages share their chain. A set larger
     * than GPU memory would evict its own pages: then only the demand pages migrate. */
    if (any_extra) {
        const uint32_t first = uvm_bitmap_next(set, UVM_BLOCK_PAGES, 0);
        if (uvm_bitmap_count(set, UVM_BLOCK_WORDS) > h->cfg.gpu_data_pages ||
            !uvm_block_pt_room(h, c, (c->blk->id << UVM_BLOCK_SHIFT) + first))
            memcpy(set, c->demand, sizeof set);
        else if (!h->cfg.prefetch_when_full && /* §6k: no eviction for a prefetch */
                 uvm_bitmap_count(set, UVM_BLOCK_WORDS) >
                     h->place->frames_free(h, uvm_vpn_asid(c->blk->id << UVM_BLOCK_SHIFT)))
            memcpy(set, c->demand, sizeof set);
    }
    uvm_migrate_set(h, c->blk->id, set, c->demand);
}

/* nvidia-uvm's first GPU service of a VA block creates its GPU state, its page-table range and
 * its first chunk (block_gpu_state_get_alloc, block_alloc_ptes_with_retry, block_alloc_gpu_chunk):
 * t_block_first_ns, once per block that has a fault inside an allocation. A block made resident
 * by another path (prefetch, populate) has them already and is not charged. */
static void block_first_touch(uvm_handler_t *h, uvm_va_block_t *blk, const uvm_fault_t *f,
                              uint32_t n) {
    bool managed = false;
    for (uint32_t i = 0; i < n && !managed; i++)
        managed = uvm_find_alloc(h, f[i].vpn) != NULL;
    if (!managed)
        return; /* every fault is cancelled: no block in the driver either */
    blk->gpu_state = true;
    if (h->cfg.t_block_first_ns && uvm_bitmap_count(blk->resident, UVM_BLOCK_WORDS) == 0)
        h->dev.cpu_delay(h->dev.ctx, h->cfg.t_block_first_ns);
}

static void service_block(uvm_handler_t *h, const uvm_fault_t *f, uint32_t n) {
    uvm_migrate_pin_block(h);
    if (h->cfg.t_block_ns)
        h->dev.cpu_delay(h->dev.ctx, h->cfg.t_block_ns);
    uvm_migrate_begin(h);
    uvm_blk_ctx_t c = {uvm_va_block_get(h, f[0].vpn, true), false, true, false, {0}};
    if (c.blk && !c.blk->gpu_state)
        block_first_touch(h, c.blk, f, n);
    c.defer = c.blk && (h->prefetch != &uvm_prefetch_none_ops || h->cfg.grow_pages > 1);
    for (uint32_t i = 0; i < n; i++)
        service_fault(h, &c, &f[i]);
    if (c.blk) {
        if (c.defer)
            service_deferred(h, &c);
        memset(c.blk->faulted, 0, sizeof c.blk->faulted);
        memset(c.blk->wfault, 0, sizeof c.blk->wfault);
    }
    uvm_migrate_commit(h);
}

/* Zheng's transfer set (docs/handler.md §6d): after the demand pages of the batch (h2d0 = the
 * interrupt's H2D bytes before the batch), the allocation-wide prefetch pages, while the set
 * stays within cfg.transfer_set_pages and free frames remain (a prefetch never evicts), or with
 * transfer_sets_full = evict evicting, the frames of the batch (from gen0 on) pinned (§6p.5). */
static void service_transfer_set(uvm_handler_t *h, uint32_t m, uint64_t h2d0, uint64_t gen0) {
    const uint64_t demand = (h->irq_h2d_bytes - h2d0) / UVM_PAGE_BYTES;
    const uint32_t max =
        demand >= h->cfg.transfer_set_pages ? 0u : h->cfg.transfer_set_pages - (uint32_t)demand;
    uvm_alloc_hint_ctx_t c = {0, false, h->prefetch_priv, false};
    uvm_batch_anchor(h, m, &c);
    h->pin_floor = h->cfg.ts_full ? gen0 + 1u : 0u;
    (void)uvm_transfer_set(h, &c, max, false);
    h->pin_floor = 0;
}

static void service_batch(uvm_handler_t *h, uint32_t m) {
    uint32_t i = 0;
    while (i < m) {
        const uint64_t block = h->batch[i].vpn >> UVM_BLOCK_SHIFT;
        uint32_t j = i + 1u;
        while (j < m && (h->batch[j].vpn >> UVM_BLOCK_SHIFT) == block)
            j++;
        service_block(h, &h->batch[i], j - i);
        i = j;
    }
}

void uvm_service_impl(uvm_handler_t *h) {
    h->stats.irqs++;
    h->irq_h2d_bytes = 0;
    h->irq_start_ns = h->dev.now_ns ? h->dev.now_ns(h->dev.ctx) : 0;
    h->dev.cpu_delay(h->dev.ctx, h->cfg.t_irq_ns);
    bool replay_all_owed = false;
    for (uint32_t b = 0; b < h->cfg.max_batches_per_irq; b++) {
        if (uvm_csr_rd(h, GMMU_CSR_FB_STATUS) & UVM_FB_STATUS_OVERFLOW) {
            /* faults were dropped: they come back only through a replay */
            uvm_csr_wr(h, GMMU_CSR_FB_STATUS, UVM_FB_STATUS_OVERFLOW);
            h->stats.overflows++;
            replay_all_owed = true;
        }
        const uint32_t put = uvm_csr_rd(h, GMMU_CSR_FB_PUT);
        if (put >= h->cfg.fb_entries) {
            uvm_logf(h, "uvm: FB_PUT %" PRIu32 " out of range (ring of %" PRIu32 ")", put,
                     h->cfg.fb_entries);
            break;
        }
        if (put == h->get)
            break;
        const uint32_t n = uvm_fb_fetch(h, put);
        h->stats.fault_batches++;
        uvm_thrash_batch(h);
        uvm_emit_batch(h, UVM_EVENT_BATCH_BEGIN, b, n);
        h->dev.cpu_delay(h->dev.ctx, h->cfg.t_batch_ns + (uint64_t)n * h->cfg.t_fault_ns);
        const uint64_t replays = h->stats.replays;
        const uint64_t h2d0 = h->irq_h2d_bytes;
        const uint32_t m = coalesce(h, n);
        const bool pipe = h->prefetch->alloc_hint && h->cfg.transfer_sets == UVM_TS_PIPELINED;
        if (pipe || h->ts.n) /* a set or an asynchronous prefetch in flight (§6o) */
            uvm_ts_pipe_batch(h, m);
        const uint64_t gen0 = h->block_gen;
        uvm_migrate_pin_batch(h);
        service_batch(h, m);
        if (h->prefetch->alloc_hint && !pipe)
            service_transfer_set(h, m, h2d0, gen0);
        uvm_migrate_flush(h); /* copy_wait batch: the batch tracker, before the replay */
        replay_all_owed = replay_all_owed || h->throttled; /* throttled faults come back */
        h->replay->batch_done(h, &replay_all_owed);
        uvm_emit_batch(h, UVM_EVENT_BATCH_END, b, m);
        if (pipe) /* after the replay: the set's CPU work does not delay the demand pages */
            uvm_ts_pipe_after_batch(h, m);
        /* a batch that replayed nothing (only fatal or unservable faults under `block`): the
           requests dropped over quota come back only by a replay, so one is owed */
        if (h->stats.replays == replays)
            replay_all_owed = true;
    }
    if (replay_all_owed)
        uvm_replay_all(h);
    uvm_lazy_service(h);    /* lazy_pg_*: the poll of the remote pages' counts (§6x.4) */
    uvm_acc_service(h);     /* lazy_grp_hw: the access-counter notifications (§6w.1) */
    uvm_migrate_reserve(h); /* §6u: after the replays, so no fault waits for it */
}
