/*
 * uvm_service.c - the interrupt service loop: fetch a batch from the fault ring, coalesce and
 * sort it, service it per 2 MB VA block (cancel / skip stale / migrate + map), replay per policy.
 * Modeled on nvidia-uvm's uvm_gpu_service_replayable_faults(); see docs/handler.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "uvm_priv.h"

/* ------------------------------------------------------------------------------------------ */
/* fault ring                                                                                  */

static uint64_t entry_addr(const uvm_handler_t *h, uint32_t idx) {
    return h->cfg.fb_host_addr + (uint64_t)idx * GMMU_FB_ENTRY_BYTES;
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static void put_le32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static bool flags_valid(uint32_t w7) {
    return ((w7 >> GMMU_FB_F_VALID) & 1u) != 0;
}

/* Clears the VALID bit of an entry whose word 7 was read as w7. */
static void clear_valid(const uvm_handler_t *h, uint32_t idx, uint32_t w7) {
    uint8_t b[4];
    put_le32(b, w7 & ~(UINT32_C(1) << GMMU_FB_F_VALID));
    h->dev.host_write(h->dev.ctx, entry_addr(h, idx) + 4u * GMMU_FB_W7_FLAGS, b, sizeof b);
}

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

/*
 * Reads entry idx into *f and clears its VALID bit in host memory. An entry below PUT whose VALID
 * is still clear is re-read a few times (the device advances PUT one transfer before the write
 * lands, like the real GPU); then it is reported as corrupt and skipped. Returns true if *f holds
 * a usable fault.
 */
static bool read_entry(uvm_handler_t *h, uint32_t idx, uvm_fault_t *f) {
    uint8_t raw[GMMU_FB_ENTRY_BYTES];
    uint32_t w7 = 0;
    for (uint32_t poll = 0;; poll++) {
        h->dev.host_read(h->dev.ctx, entry_addr(h, idx), raw, sizeof raw);
        w7 = le32(raw + 4u * GMMU_FB_W7_FLAGS);
        if (flags_valid(w7))
            break;
        if (poll + 1u >= UVM_ENTRY_POLL_MAX) {
            uvm_logf(h,
                     "uvm: corrupt fault-buffer entry %" PRIu32
                     ": VALID clear below PUT (flags 0x%08" PRIx32 "); skipped",
                     idx, w7);
            return false;
        }
        h->dev.cpu_delay(h->dev.ctx, UVM_ENTRY_POLL_NS);
    }
    clear_valid(h, idx, w7);

    const uint32_t vlo = le32(raw + 4u * GMMU_FB_W2_VPN_LO);
    const uint32_t vhi = le32(raw + 4u * GMMU_FB_W3_VPN_HI);
    const uint64_t vpn = ((uint64_t)vhi << 32) | vlo;
    if (vpn >= UVM_VPN_LIMIT) {
        uvm_logf(h,
                 "uvm: corrupt fault-buffer entry %" PRIu32 ": VPN 0x%" PRIx64
                 " exceeds %u bits; skipped",
                 idx, vpn, GMMU_VPN_W);
        return false;
    }
    f->vpn = vpn;
    f->timestamp =
        ((uint64_t)le32(raw + 4u * GMMU_FB_W5_TS_HI) << 32) | le32(raw + 4u * GMMU_FB_W4_TS_LO);
    f->sm_mask = le32(raw + 4u * GMMU_FB_W6_SM_MASK);
    f->fault_type = (uint8_t)((w7 >> GMMU_FB_F_FAULT_TYPE_LSB) & UVM_F_FAULT_TYPE_MASK);
    f->client = (uint8_t)((w7 >> GMMU_FB_F_CLIENT_LSB) & UVM_F_CLIENT_MASK);
    f->access = (uint8_t)((w7 >> GMMU_FB_F_ACCESS_LSB) & UVM_F_ACCESS_MASK);
    f->ro_violation = f->fault_type == GMMU_FT_RO_VIOLATION;
    f->count = 1;
    return true;
}

/* Fetches up to batch_size valid entries in [GET, put); advances and writes FB_GET. */
static uint32_t fetch_batch(uvm_handler_t *h, uint32_t put) {
    const uint32_t mask = h->cfg.fb_entries - 1u;
    const uint32_t start = h->get;
    uint32_t n = 0;
    while (h->get != put && n < h->cfg.batch_size) {
        if (read_entry(h, h->get, &h->batch[n]))
            n++;
        h->get = (h->get + 1u) & mask;
    }
    if (h->get != start)
        uvm_csr_wr(h, GMMU_CSR_FB_GET, h->get);
    return n;
}

/* BATCH_FLUSH: drop every entry posted so far (they come back after the replay). */
static void flush_ring(uvm_handler_t *h) {
    const uint32_t put = uvm_csr_rd(h, GMMU_CSR_FB_PUT);
    if (put >= h->cfg.fb_entries) {
        uvm_logf(h, "uvm: FB_PUT %" PRIu32 " out of range (ring of %" PRIu32 "); flush skipped",
                 put, h->cfg.fb_entries);
        return;
    }
    const uint32_t mask = h->cfg.fb_entries - 1u;
    if (h->get == put)
        return;
    while (h->get != put) {
        uint8_t b[4];
        const uint64_t a = entry_addr(h, h->get) + 4u * GMMU_FB_W7_FLAGS;
        h->dev.host_read(h->dev.ctx, a, b, sizeof b);
        const uint32_t w7 = le32(b);
        if (flags_valid(w7))
            clear_valid(h, h->get, w7);
        h->get = (h->get + 1u) & mask;
    }
    uvm_csr_wr(h, GMMU_CSR_FB_GET, h->get);
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

/* Waits for every DMA of the block, then maps the pages (and replays them under BLOCK). */
static void commit_pending(uvm_handler_t *h) {
    for (uint32_t i = 0; i < h->npending; i++)
        h->dev.dma_wait(h->dev.ctx, h->pending[i].dma);
    for (uint32_t i = 0; i < h->npending; i++) {
        const uvm_pending_t *p = &h->pending[i];
        if (uvm_pt_map(h, p->vpn, uvm_frame_pa(h, p->frame), p->writable) != 0) {
            uvm_frame_release(h, p->frame);
            uvm_cancel_page(h, p->vpn, "cannot build its page-table chain");
            continue;
        }
        if (h->cfg.replay == UVM_REPLAY_BLOCK)
            uvm_replay_page(h, p->vpn);
    }
    h->npending = 0;
}

static void service_block(uvm_handler_t *h, const uvm_fault_t *f, uint32_t n) {
    h->block_gen++;
    h->npending = 0;
    bool pt_checked = false;
    bool pt_ok = true;
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t vpn = f[i].vpn;
        const uvm_alloc_t *al = uvm_find_alloc(h, vpn);
        if (!al) {
            uvm_cancel_page(h, vpn, "outside every allocation");
            continue;
        }
        const bool write = access_is_write(f[i].access) || f[i].ro_violation;
        if (al->readonly && write) {
            char why[160];
            snprintf(why, sizeof why, "write to read-only allocation '%.96s'", al->name);
            uvm_cancel_page(h, vpn, why);
            continue;
        }
        if (uvm_map_get(&h->resident, vpn, NULL)) {
            /* already mapped (stale or duplicate across batches): nothing to migrate */
            h->stats.faults_stale++;
            if (h->cfg.replay == UVM_REPLAY_BLOCK)
                uvm_replay_page(h, vpn);
            continue;
        }
        if (!pt_checked) {
            /* every page of a 2 MB block shares one table chain: check the pool once */
            const uint32_t need = uvm_pt_missing(h, vpn);
            pt_ok = need <= uvm_pt_free_pages(h);
            pt_checked = true;
            if (!pt_ok)
                uvm_logf(h,
                         "uvm: page-table pool exhausted (%" PRIu64 " pages used, %" PRIu32
                         " more needed) for the 2 MB block at VA 0x%" PRIx64,
                         h->cfg.gpu_pt_pages - uvm_pt_free_pages(h), need,
                         (vpn >> UVM_BLOCK_SHIFT) << GMMU_LARGE_SHIFT);
        }
        if (!pt_ok) {
            uvm_cancel_page(h, vpn, "no page-table page left");
            continue;
        }
        uint32_t fr = uvm_frame_get(h);
        if (fr == UVM_NONE) {
            /* every frame holds a page of this block: map what we have, then evict among them */
            commit_pending(h);
            h->block_gen++;
            fr = uvm_frame_get(h);
        }
        if (fr == UVM_NONE) {
            uvm_logf(h, "uvm: no GPU frame for VA 0x%" PRIx64 "; left for the replay",
                     vpn << GMMU_PAGE_SHIFT);
            continue;
        }
        if (uvm_frame_assign(h, fr, vpn, !al->readonly) != 0) {
            uvm_frame_release(h, fr);
            uvm_logf(h, "uvm: out of host memory tracking VA 0x%" PRIx64 "; left for the replay",
                     vpn << GMMU_PAGE_SHIFT);
            continue;
        }
        h->dev.cpu_delay(h->dev.ctx, h->cfg.t_page_ns);
        const uint64_t d = h->dev.dma_submit(h->dev.ctx, UVM_DMA_H2D, vpn << GMMU_PAGE_SHIFT,
                                             uvm_frame_pa(h, fr), UVM_PAGE_BYTES);
        h->pending[h->npending++] = (uvm_pending_t){vpn, d, fr, !al->readonly};
        h->stats.pages_h2d++;
        h->stats.bytes_h2d += UVM_PAGE_BYTES;
    }
    commit_pending(h);
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
        const uint32_t n = fetch_batch(h, put);
        h->stats.fault_batches++;
        h->stats.faults_fetched += n;
        h->dev.cpu_delay(h->dev.ctx, h->cfg.t_batch_ns + (uint64_t)n * h->cfg.t_fault_ns);
        service_batch(h, coalesce(h, n));
        switch (h->cfg.replay) {
        case UVM_REPLAY_BLOCK:
            break; /* pages were replayed one by one */
        case UVM_REPLAY_BATCH:
            uvm_replay_all(h);
            replay_all_owed = false;
            break;
        case UVM_REPLAY_BATCH_FLUSH:
            flush_ring(h);
            uvm_replay_all(h);
            replay_all_owed = false;
            break;
        case UVM_REPLAY_ONCE:
            replay_all_owed = true;
            break;
        }
    }
    if (replay_all_owed)
        uvm_replay_all(h);
}
