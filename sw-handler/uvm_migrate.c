/*
 * uvm_migrate.c - H2D migration of the pages of the 2 MB block being serviced, in two phases as
 * nvidia-uvm's block migration: submit (per page: t_page_ns of CPU time, then the page joins the
 * open run; a run of consecutive pages in consecutive frames goes as ONE DMA of up to
 * cfg.migrate_max_pages pages, submitted as soon as it cannot grow) and commit (wait for every
 * DMA, then write the PTEs). migrate_max_pages = 1 (the default) submits every page as its own
 * 4 KB transfer right after its t_page_ns. With cfg.copy_wait batch the commit of a block only
 * submits its copies; the wait and the PTE writes of every block of the batch happen once, at
 * the batch end (uvm_migrate_flush), as nvidia-uvm's batch tracker.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "uvm_place.h"

void uvm_migrate_done_event(uvm_handler_t *h, const uvm_pending_t *p, uint32_t n, uint32_t i) {
    uint32_t e = i + 1u;
    while (e < n && !p[e].run_head)
        e++;
    uvm_emit_migrate(h, UVM_EVENT_MIGRATE_DONE, UVM_DMA_H2D, p[i].vpn, p[i].frame, e - i, p[i].dma);
}

static bool batch_wait(const uvm_handler_t *h) {
    return h->cfg.copy_wait == UVM_COPY_WAIT_BATCH;
}

static void pending_reset(uvm_handler_t *h) {
    h->npending = 0;
    h->run_start = 0;
    h->run_len = 0;
}

void uvm_migrate_begin(uvm_handler_t *h) {
    if (!batch_wait(h)) /* batch: the earlier blocks' pages stay pending */
        pending_reset(h);
}

void uvm_migrate_pin_block(uvm_handler_t *h) {
    if (!batch_wait(h))
        h->block_gen++;
}

void uvm_migrate_pin_batch(uvm_handler_t *h) {
    if (batch_wait(h))
        h->block_gen++;
}

/* Submits the open run as one DMA. */
static void submit_run(uvm_handler_t *h) {
    if (h->run_len == 0)
        return;
    const uvm_pending_t *first = &h->pending[h->run_start];
    const uint64_t d =
        h->dev.dma_submit(h->dev.ctx, UVM_DMA_H2D, first->vpn << GMMU_PAGE_SHIFT,
                          uvm_frame_pa(h, first->frame), (uint64_t)h->run_len * UVM_PAGE_BYTES);
    h->irq_h2d_bytes += (uint64_t)h->run_len * UVM_PAGE_BYTES;
    for (uint32_t i = 0; i < h->run_len; i++) {
        h->pending[h->run_start + i].dma = d;
        h->pending[h->run_start + i].run_head = i == 0;
    }
    uvm_emit_migrate(h, UVM_EVENT_MIGRATE, UVM_DMA_H2D, first->vpn, first->frame, h->run_len, d);
    h->run_start += h->run_len;
    h->run_len = 0;
}

void uvm_migrate_submit(uvm_handler_t *h) {
    submit_run(h);
}

void uvm_migrate_add(uvm_handler_t *h, uint64_t vpn, uint32_t frame, bool writable) {
    if (h->npending == h->pending_cap) /* copy_wait batch, more pages than a batch's worth */
        uvm_migrate_flush(h);
    h->dev.cpu_delay(h->dev.ctx, h->cfg.t_page_ns);
    if (h->run_len > 0) {
        const uvm_pending_t *last = &h->pending[h->run_start + h->run_len - 1u];
        if (last->vpn + 1u != vpn || last->frame + 1u != frame)
            submit_run(h);
    }
    h->pending[h->npending++] = (uvm_pending_t){vpn, 0, frame, writable, false, false};
    h->run_len++;
    if (h->run_len >= h->cfg.migrate_max_pages)
        submit_run(h);
}

void uvm_migrate_commit(uvm_handler_t *h) {
    if (batch_wait(h))
        submit_run(h);
    else
        uvm_migrate_flush(h);
}

/* A placement that merges (cocoa): every block with pages in this commit is offered to its
 * merge (coalesced if it is now fully populated in its CoCoA frame) - after its copies completed
 * and its base PTEs were written, as the driver maps a 2 MB page once the block's copies are done
 * (under copy_wait batch that is the batch end, not the block's service). Pending pages of one
 * block are adjacent. */
static void coalesce_pending(uvm_handler_t *h) {
    if (!h->place->merge)
        return;
    uint64_t last = UINT64_MAX;
    for (uint32_t i = 0; i < h->npending; i++) {
        const uint64_t b = h->pending[i].vpn >> UVM_BLOCK_SHIFT;
        if (b == last)
            continue;
        last = b;
        uvm_va_block_t *blk = uvm_va_block_get(h, h->pending[i].vpn, false);
        if (blk)
            h->place->merge(h, blk);
    }
}

void uvm_migrate_flush(uvm_handler_t *h) {
    submit_run(h);
    for (uint32_t i = 0; i < h->npending; i++)
        if (h->pending[i].run_head) {
            h->dev.dma_wait(h->dev.ctx, h->pending[i].dma);
            uvm_migrate_done_event(h, h->pending, h->npending, i);
        }
    for (uint32_t i = 0; i < h->npending; i++) {
        const uvm_pending_t *p = &h->pending[i];
        if (h->place->map(h, p->vpn, p->frame, 1, p->writable, true) != 0) {
            uvm_frame_release(h, p->frame);
            uvm_cancel_page(h, p->vpn, "cannot build its page-table chain");
            continue;
        }
        if (h->replay->page_done && !p->prefetched)
            h->replay->page_done(h, p->vpn);
    }
    coalesce_pending(h);
    pending_reset(h);
}

typedef struct {
    uint64_t vpn;
    uint32_t frame;
} victim_t;

static int victim_cmp(const void *a, const void *b) {
    const uint64_t x = ((const victim_t *)a)->vpn, y = ((const victim_t *)b)->vpn;
    return (x > y) - (x < y);
}

/* Evicts the resident pages of frames[0, n) in VA order (a VA block at a time, as the driver
 * evicts a chunk). With pages = 1 the first frame handed back is kept for the caller and the
 * others go to the allocator; returns it, or UVM_NONE (the caller asks the placement again). */
static uint32_t evict_set(uvm_handler_t *h, const uint32_t *frames, uint32_t n, uint32_t pages) {
    victim_t list[UVM_BLOCK_PAGES] = {{0, 0}};
    for (uint32_t i = 0; i < n; i++)
        list[i] = (victim_t){h->frames[frames[i]].vpn, frames[i]};
    qsort(list, n, sizeof list[0], victim_cmp);
    uint32_t mine = UVM_NONE;
    for (uint32_t i = 0; i < n; i++) {
        if (!h->frames[list[i].frame].resident) /* gone with a 2 MB page evicted before it */
            continue;
        const uint32_t kept = uvm_mem_evict(h, list[i].frame);
        if (kept == UVM_NONE)
            continue;
        if (pages == 1u && mine == UVM_NONE)
            mine = kept;
        else if (uvm_pmm_free(&h->pmm, kept, UVM_CHUNK_4K) != 0)
            uvm_logf(h, "uvm: internal: frame %" PRIu32 " freed twice", kept);
    }
    return mine;
}

/* A victim group (an nvidia root chunk, or evict_granularity frames, docs/handler.md §6.1): every
 * resident page of the frames [v, v + gran), as evict_set. */
static uint32_t evict_root_chunk(uvm_handler_t *h, uint32_t v, uint32_t gran, uint32_t pages) {
    uint32_t frames[UVM_BLOCK_PAGES];
    uint32_t n = 0;
    for (uint32_t i = 0; i < gran && (uint64_t)v + i < h->cfg.gpu_data_pages; i++)
        if (h->frames[v + i].resident)
            frames[n++] = v + i;
    return evict_set(h, frames, n, pages);
}

/* One round of the policy's choice: a set of frames (pick_set: tbne, §6y, for single frames;
 * its size in *n) or an aligned group (pick; *n = 0). Its first frame, or UVM_NONE. */
static uint32_t pick_once(uvm_handler_t *h, uint32_t gran, uint32_t *set, uint32_t *n) {
    *n = 0;
    if (h->evict->pick_set && gran == 1u) {
        *n = h->evict->pick_set(h, h->evict_priv, set);
        return *n ? set[0] : UVM_NONE;
    }
    return h->evict->pick(h, h->evict_priv, gran);
}

/* The eviction policy's victim, by preferred location (§6o): a group of pages preferred on the
 * host first, then one without pages preferred on the GPU, then any; the policy's own order
 * inside each round. Without advice: the policy's pick alone. */
static uint32_t pick_victim(uvm_handler_t *h, uint32_t gran, uint32_t *set, uint32_t *n) {
    if (h->pref_pages == 0)
        return pick_once(h, gran, set, n);
    uint32_t v = UVM_NONE;
    for (uint32_t r = UVM_EVICT_ROUND_HOST; r <= UVM_EVICT_ROUND_NOT_GPU && v == UVM_NONE; r++) {
        h->evict_round = r;
        v = pick_once(h, gran, set, n);
    }
    h->evict_round = UVM_EVICT_ROUND_ALL;
    return v != UVM_NONE ? v : pick_once(h, gran, set, n);
}

/* Forward progress with thrashing pins (docs/handler.md §6i): drops the pin that ends first among
 * the resident pages no other reason pins (UVM_EVENT_UNPIN, thrash_pins_dropped); false if there
 * is none. Here, not in uvm_thrashing.c: it needs the frames (uvm_mem), which need the pins. */
static bool thrash_unpin_first(uvm_handler_t *h) {
    if (h->thrash_pin.count == 0)
        return false;
    const uint64_t now = h->dev.now_ns ? h->dev.now_ns(h->dev.ctx) : 0;
    size_t pos = 0;
    uint64_t vpn = 0, until = 0, best_vpn = 0, best = UINT64_MAX;
    bool found = false;
    while (u64map_next(&h->thrash_pin, &pos, &vpn, &until)) {
        uint32_t f = UVM_NONE;
        if (until <= now || !uvm_va_block_resident(h, vpn, &f) || f == UVM_NONE ||
            uvm_frame_pinned_not_thrash(h, f))
            continue;
        /* the earliest end, ties by VPN: independent of the map's iteration order */
        if (!found || until < best || (until == best && vpn < best_vpn)) {
            found = true;
            best = until;
            best_vpn = vpn;
        }
    }
    if (!found)
        return false;
    (void)u64map_del(&h->thrash_pin, best_vpn);
    h->stats.thrash_pins_dropped++;
    uvm_event_emit(
        h, &(uvm_event_t){.kind = UVM_EVENT_UNPIN, .pin = {.vpn = best_vpn, .until_ns = best}});
    return true;
}

uint32_t uvm_migrate_backing(uvm_handler_t *h, uint64_t vpn, uint32_t pages) {
    /* the eviction unit: a root chunk (nvidia), else evict_granularity (UVMSmart's 4 KB, 64 KB,
     * 2 MB), at least the frames asked for */
    const uint32_t unit =
        h->evict->root_chunks ? h->cfg.evict_chunk_pages : h->cfg.evict_granularity;
    const uint32_t gran = unit > pages ? unit : pages;
    for (uint32_t tries = 0; tries <= h->pmm.frames / pages; tries++) {
        const uint32_t f =
            pages == 1u ? h->place->alloc_page(h, vpn) : h->place->alloc_range(h, vpn, pages);
        if (f != UVM_NONE)
            return f;
        if (h->ts.n) /* pipelined transfer sets: no frame with a copy in flight is a victim */
            uvm_ts_pipe_drain(h);
        uint32_t set[UVM_BLOCK_PAGES], n = 0;
        const uint32_t v = pick_victim(h, gran, set, &n);
        if (v == UVM_NONE) {
            /* every candidate pinned by thrashing: a pin that outlasts the memory would stop
             * the GPU for good (docs/handler.md §6i), so for a faulted page (not a prefetched one)
             * the first to end is dropped early */
            if (h->unpin_for_demand && thrash_unpin_first(h))
                continue;
            return UVM_NONE;
        }
        if (n > 0) { /* a set of frames (tbne) */
            const uint32_t mine = evict_set(h, set, n, pages);
            if (mine != UVM_NONE)
                return mine;
            continue;
        }
        if (h->evict->root_chunks || gran != pages) {
            const uint32_t mine = evict_root_chunk(h, v, gran, pages);
            if (mine != UVM_NONE)
                return mine;
            continue;
        }
        for (uint32_t i = 0; i < pages; i++) {
            if (pages > 1u && !h->frames[v + i].resident)
                continue;
            const uint32_t kept = uvm_mem_evict(h, v + i);
            if (kept != UVM_NONE && pages == 1u)
                return kept; /* the victim's frame is handed over */
            if (kept != UVM_NONE)
                h->place->frame_free(h, kept); /* back to its owner: the chunk forms again */
        }
    }
    return UVM_NONE;
}

void uvm_migrate_reserve(uvm_handler_t *h) {
    const uint32_t want = h->cfg.evict_reserve_pages;
    if (want == 0 || h->pmm.nfree >= want)
        return;
    const uint64_t t0 = h->dev.now_ns ? h->dev.now_ns(h->dev.ctx) : 0;
    const uint64_t ev0 = h->stats.evictions;
    if (h->ts.n) /* pipelined transfer sets: no frame with a copy in flight is a victim */
        uvm_ts_pipe_drain(h);
    h->block_gen++; /* no block is being serviced: only thrashing pins hold */
    const uint32_t unit =
        h->evict->root_chunks ? h->cfg.evict_chunk_pages : h->cfg.evict_granularity;
    for (uint32_t tries = 0; h->pmm.nfree < want && tries < h->pmm.frames; tries++) {
        const uint32_t nfree = h->pmm.nfree;
        uint32_t set[UVM_BLOCK_PAGES], n = 0;
        const uint32_t v = pick_victim(h, unit, set, &n);
        if (v == UVM_NONE)
            break;
        if (n > 0)
            (void)evict_set(h, set, n, 0u); /* every frame back to the allocator */
        else if (unit > 1u)
            (void)evict_root_chunk(h, v, unit, 0u); /* every frame back to the allocator */
        else {
            const uint32_t kept = uvm_mem_evict(h, v);
            if (kept != UVM_NONE)
                h->place->frame_free(h, kept);
        }
        if (h->pmm.nfree <= nfree)
            break; /* the placement kept the frames (a reserved region): no progress */
    }
    h->stats.reserve_evictions += h->stats.evictions - ev0;
    h->stats.reserve_ns += (h->dev.now_ns ? h->dev.now_ns(h->dev.ctx) : 0) - t0;
}

bool uvm_migrate_page(uvm_handler_t *h, uint64_t vpn, const uvm_alloc_t *al) {
    uint32_t fr = uvm_migrate_backing(h, vpn, 1u);
    if (fr == UVM_NONE) {
        /* every frame holds a page of this block (of this batch: copy_wait batch): map what we
         * have, then evict among them */
        uvm_migrate_flush(h);
        h->block_gen++;
        fr = uvm_migrate_backing(h, vpn, 1u);
    }
    if (fr == UVM_NONE) {
        uvm_logf(h, "uvm: no GPU frame for VA 0x%" PRIx64 "; left for the replay",
                 vpn << GMMU_PAGE_SHIFT);
        return false;
    }
    const bool w = uvm_page_writable(h, vpn, al); /* read-mostly: a read duplicate (§6o) */
    if (uvm_frame_assign(h, fr, vpn, w) != 0) {
        uvm_frame_release(h, fr);
        uvm_logf(h, "uvm: out of host memory tracking VA 0x%" PRIx64 "; left for the replay",
                 vpn << GMMU_PAGE_SHIFT);
        return false;
    }
    uvm_migrate_add(h, vpn, fr, w);
    return true;
}

static bool all_set(const uint64_t *bm, uint32_t first, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (!uvm_bitmap_test(bm, first + i))
            return false;
    return true;
}

/* A chunk of consecutive frames for the aligned group of set starting at page p (2 MB, else
 * 64 KB) of the block at base; *pages = its size; UVM_NONE if p starts no whole group, the
 * placement places pages alone on demand (cocoa at their offsets; 2m keeps its chunks for 2 MB
 * pages) or the allocator has none. */
static uint32_t group_chunk(uvm_handler_t *h, uint64_t base, const uint64_t *set, uint32_t p,
                            uint32_t *pages) {
    static const uvm_chunk_size_t cls[2] = {UVM_CHUNK_2M, UVM_CHUNK_64K};
    if (!h->place->range_on_demand)
        return UVM_NONE;
    for (int i = 0; i < 2; i++) {
        const uint32_t n = uvm_chunk_frames(cls[i]);
        if (p % n != 0 || h->pmm.nfree < n || !all_set(set, p, n))
            continue;
        const uint32_t f = h->place->alloc_range(h, base + p, n);
        if (f != UVM_NONE) {
            *pages = n;
            return f;
        }
    }
    return UVM_NONE;
}

uint32_t uvm_migrate_set(uvm_handler_t *h, uint64_t blk_id, const uint64_t set[UVM_BLOCK_WORDS],
                         const uint64_t demand[UVM_BLOCK_WORDS]) {
    const uint64_t base = blk_id << UVM_BLOCK_SHIFT;
    uint32_t queued = 0;
    bool w = false;
    if (h->place->region_whole && h->place->region_whole(h, base, &w))
        return 0; /* a 2m region moves as one 2 MB page, at its first fault only */
    uint32_t p = uvm_bitmap_next(set, UVM_BLOCK_PAGES, 0);
    while (p < UVM_BLOCK_PAGES) {
        uint32_t n = 1;
        const uint32_t f = group_chunk(h, base, set, p, &n);
        for (uint32_t i = 0; i < n; i++) {
            const uint64_t vpn = base + p + i;
            const uvm_alloc_t *al = uvm_find_alloc(h, vpn);
            bool ok = true;
            if (f == UVM_NONE) {
                h->unpin_for_demand = uvm_bitmap_test(demand, p + i);
                ok = uvm_migrate_page(h, vpn, al);
                h->unpin_for_demand = false;
            } else if (uvm_frame_assign(h, f + i, vpn, uvm_page_writable(h, vpn, al)) != 0) {
                uvm_frame_release(h, f + i);
                uvm_logf(h,
                         "uvm: out of host memory tracking VA 0x%" PRIx64 "; left for the replay",
                         vpn << GMMU_PAGE_SHIFT);
                ok = false;
            } else {
                uvm_migrate_add(h, vpn, f + i, h->frames[f + i].writable);
            }
            if (ok && !uvm_bitmap_test(demand, p + i)) {
                h->pending[h->npending - 1u].prefetched = true;
                uvm_unused_migrated(h, h->pending[h->npending - 1u].frame, true);
                h->stats.pages_prefetched++;
                h->stats.bytes_prefetched += UVM_PAGE_BYTES;
            }
            queued += ok ? 1u : 0u;
        }
        p = uvm_bitmap_next(set, UVM_BLOCK_PAGES, p + n);
    }
    return queued;
}

/* ---- the pipelined transfer set in flight (uvm_prefetch_pipe.c submits it): its completed
 * copies are mapped here, below the evict-and-retry loop that drains it ---- */

/* The first copy of the set in flight has completed (per the device; unknown = no). */
static bool head_done(const uvm_handler_t *h) {
    if (!h->dev.dma_done_ns)
        return false;
    const uint64_t t = h->dev.dma_done_ns(h->dev.ctx, h->ts.pending[h->ts.mapped].dma);
    return t == 0 || (h->dev.now_ns && t <= h->dev.now_ns(h->dev.ctx));
}

/* Maps the run of pages starting at the first unmapped one, after waiting for its copy. */
static void map_head_run(uvm_handler_t *h) {
    uvm_ts_pipe_t *t = &h->ts;
    h->dev.dma_wait(h->dev.ctx, t->pending[t->mapped].dma);
    uvm_migrate_done_event(h, t->pending, t->n, t->mapped);
    uint32_t e = t->mapped + 1u;
    while (e < t->n && !t->pending[e].run_head)
        e++;
    for (uint32_t i = t->mapped; i < e; i++) {
        const uvm_pending_t *q = &t->pending[i];
        if (h->place->map(h, q->vpn, q->frame, 1, q->writable, true) != 0) {
            uvm_frame_release(h, q->frame);
            uvm_cancel_page(h, q->vpn, "cannot build its page-table chain");
        }
    }
    t->mapped = e;
}

void uvm_ts_retire(uvm_handler_t *h, uint32_t min_runs, bool all) {
    uvm_ts_pipe_t *t = &h->ts;
    for (uint32_t r = 0; t->mapped < t->n && (r < min_runs || all || head_done(h)); r++)
        map_head_run(h);
    if (t->mapped == t->n)
        t->n = t->mapped = 0;
}

void uvm_ts_pipe_drain(uvm_handler_t *h) {
    uvm_ts_retire(h, 0, true);
}
