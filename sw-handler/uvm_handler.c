/*
 * uvm_handler.c - the entry of the host fault handler: lifetime, configuration, allocations,
 * device initialization, the service entry point. See docs/handler.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "uvm_acc.h"
#include "uvm_bmp.h"
#include "uvm_lazypg.h"
#include "uvm_place.h"

/* ------------------------------------------------------------------------------------------ */
/* configuration                                                                               */

void uvm_cfg_defaults(uvm_cfg_t *cfg) {
    /* spec/config.toml's defaults; registered policy names, shorter than UVM_POLICY_NAME_MAX */
    static const uvm_cfg_t dflt = UVM_CFG_DEFAULT_INIT;
    memcpy(cfg, &dflt, sizeof *cfg);
}

static bool is_pow2(uint64_t x) {
    return x != 0 && (x & (x - 1)) == 0;
}

/* The policy names against the registry, and the eviction policies' keys. */
static int check_policies(const uvm_cfg_t *c, char *err, size_t errlen) {
    for (uint32_t k = 0; k < UVM_POLICY_KINDS; k++) {
        char why[256];
        const char *name = c->policy[k];
        if (memchr(name, '\0', UVM_POLICY_NAME_MAX) == NULL) {
            err_setf(err, errlen, "uvm: %s policy name is not NUL-terminated",
                     uvm_policy_kind_name((uvm_policy_kind_t)k));
            return -1;
        }
        if (uvm_policy_check((uvm_policy_kind_t)k, name, why, sizeof why) != 0) {
            err_setf(err, errlen, "uvm: %s policy %s", uvm_policy_kind_name((uvm_policy_kind_t)k),
                     why);
            return -1;
        }
    }
    if (!uvm_evict_gran_valid(c->evict_granularity)) {
        err_setf(err, errlen,
                 "uvm: evict_granularity %" PRIu32 " must be a power of two in [1, %" PRIu32 "]",
                 c->evict_granularity, UVM_BLOCK_PAGES);
        return -1;
    }
    if (!uvm_evict_gran_valid(c->evict_chunk_pages)) {
        err_setf(err, errlen,
                 "uvm: evict_chunk_pages %" PRIu32 " must be a power of two in [1, %" PRIu32 "]",
                 c->evict_chunk_pages, UVM_BLOCK_PAGES);
        return -1;
    }
    if (c->evict_reserve_pages > 0 && c->evict_reserve_pages >= c->gpu_data_pages) {
        err_setf(err, errlen,
                 "uvm: evict_reserve_pages %" PRIu32 " must be below the GPU data frames (%" PRIu64
                 ")",
                 c->evict_reserve_pages, (uint64_t)c->gpu_data_pages);
        return -1;
    }
    return 0;
}

static int check_cfg(const uvm_cfg_t *c, const uvm_dev_t *d, char *err, size_t errlen) {
    if (!d || !d->csr_read || !d->csr_write || !d->host_read || !d->host_write || !d->gpu_write64 ||
        !d->dma_submit || !d->dma_wait || !d->cpu_delay) {
        err_setf(err, errlen, "uvm: device interface incomplete (csr/host/gpu/dma/cpu_delay)");
        return -1;
    }
    if (c->batch_size == 0) {
        err_setf(err, errlen, "uvm: batch_size must be >= 1");
        return -1;
    }
    if (c->max_batches_per_irq == 0) {
        err_setf(err, errlen, "uvm: max_batches_per_irq must be >= 1");
        return -1;
    }
    if (check_policies(c, err, errlen) != 0)
        return -1;
    if (c->migrate_max_pages == 0 || c->migrate_max_pages > UVM_BLOCK_PAGES) {
        err_setf(err, errlen, "uvm: migrate_max_pages %" PRIu32 " must be in [1, %" PRIu32 "]",
                 c->migrate_max_pages, UVM_BLOCK_PAGES);
        return -1;
    }
    if (c->copy_wait != UVM_COPY_WAIT_BLOCK && c->copy_wait != UVM_COPY_WAIT_BATCH) {
        err_setf(err, errlen, "uvm: copy_wait %d must be block (0) or batch (1)",
                 (int)c->copy_wait);
        return -1;
    }
    if (c->tlb_shootdown != UVM_TLB_SHOOTDOWN_ENTRY && c->tlb_shootdown != UVM_TLB_SHOOTDOWN_ALL) {
        err_setf(err, errlen, "uvm: tlb_shootdown %d must be entry (0) or all (1)",
                 (int)c->tlb_shootdown);
        return -1;
    }
    if (c->transfer_sets != UVM_TS_BATCH && c->transfer_sets != UVM_TS_PIPELINED) {
        err_setf(err, errlen, "uvm: transfer_sets %d must be batch (0) or pipelined (1)",
                 (int)c->transfer_sets);
        return -1;
    }
    if (c->remote_policy >= UVM_REMOTE_POLICIES) {
        err_setf(err, errlen,
                 "uvm: remote_policy %" PRIu32
                 " must be none (0), pin_host (1), dynamap (2), static_map (3), lazy_pg_stat_sw "
                 "(4), lazy_pg_dyn_sw (5) or lazy_grp_hw (6)",
                 c->remote_policy);
        return -1;
    }
    if (uvm_acc_check_cfg(c, err, errlen) != 0 || uvm_dyn_check_cfg(c, d, err, errlen) != 0 ||
        uvm_lazy_check_cfg(c, d, err, errlen) != 0)
        return -1;
    if (c->grow_pages != 1 && c->grow_pages != UVM_BIG_PAGES) {
        err_setf(err, errlen, "uvm: grow_pages %" PRIu32 " must be 1 (4 KB) or %u (64 KB)",
                 c->grow_pages, UVM_BIG_PAGES);
        return -1;
    }
    if (!is_pow2(c->fb_entries) || c->fb_entries < 2 ||
        c->fb_entries > (UINT32_C(1) << GMMU_FB_IDX_W)) {
        err_setf(err, errlen, "uvm: fb_entries %" PRIu32 " must be a power of two in [2, %u]",
                 c->fb_entries, 1u << GMMU_FB_IDX_W);
        return -1;
    }
    const uint64_t fb_bytes = (uint64_t)c->fb_entries * GMMU_FB_ENTRY_BYTES;
    if ((c->fb_host_addr % GMMU_FB_ENTRY_BYTES) != 0 || c->fb_host_addr >= UVM_PA_LIMIT ||
        fb_bytes > UVM_PA_LIMIT - c->fb_host_addr) {
        err_setf(err, errlen,
                 "uvm: fb_host_addr 0x%" PRIx64 " must be %u-byte aligned and the ring must fit "
                 "in %u address bits",
                 c->fb_host_addr, GMMU_FB_ENTRY_BYTES, GMMU_PA_W);
        return -1;
    }
    if (c->gpu_pt_pages < GMMU_PT_LEVELS) {
        err_setf(err, errlen, "uvm: gpu_pt_pages %" PRIu64 " must be >= %u (one table per level)",
                 c->gpu_pt_pages, GMMU_PT_LEVELS);
        return -1;
    }
    if (c->gpu_data_pages == 0 || c->gpu_data_pages >= UVM_NONE) {
        err_setf(err, errlen, "uvm: gpu_data_pages %" PRIu64 " must be in [1, %" PRIu32 ")",
                 c->gpu_data_pages, UVM_NONE);
        return -1;
    }
    const struct {
        const char *name;
        uint64_t base, pages;
    } r[2] = {{"gpu_pt", c->gpu_pt_base_pa, c->gpu_pt_pages},
              {"gpu_data", c->gpu_data_base_pa, c->gpu_data_pages}};
    for (int i = 0; i < 2; i++) {
        if ((r[i].base & (UVM_PAGE_BYTES - 1)) != 0 || r[i].base >= UVM_PA_LIMIT ||
            r[i].pages > (UVM_PA_LIMIT - r[i].base) >> GMMU_PAGE_SHIFT) {
            err_setf(err, errlen,
                     "uvm: %s range base 0x%" PRIx64 " + %" PRIu64
                     " pages must be 4 KB aligned and inside the %u-bit PA space",
                     r[i].name, r[i].base, r[i].pages, GMMU_PA_W);
            return -1;
        }
    }
    if (uvm_place_check_cfg(c, err, errlen) != 0)
        return -1;
    const uint64_t pt_end = c->gpu_pt_base_pa + (c->gpu_pt_pages << GMMU_PAGE_SHIFT);
    const uint64_t da_end = c->gpu_data_base_pa + (c->gpu_data_pages << GMMU_PAGE_SHIFT);
    if (c->gpu_pt_base_pa < da_end && c->gpu_data_base_pa < pt_end) {
        err_setf(err, errlen, "uvm: gpu_pt and gpu_data ranges overlap");
        return -1;
    }
    return 0;
}

uvm_handler_t *uvm_handler_new(const uvm_cfg_t *cfg, const uvm_dev_t *dev, char *err,
                               size_t errlen) {
    if (!cfg) {
        err_setf(err, errlen, "uvm: no configuration");
        return NULL;
    }
    if (check_cfg(cfg, dev, err, errlen) != 0)
        return NULL;
    uvm_handler_t *h = calloc(1, sizeof *h);
    if (h)
        h->spaces = 1;
    if (!h) {
        err_setf(err, errlen, "uvm: out of memory");
        return NULL;
    }
    h->cfg = *cfg;
    h->dev = *dev;
    h->replay = uvm_policy_find(UVM_POLICY_REPLAY, cfg->policy[UVM_POLICY_REPLAY]);
    h->evict = uvm_policy_find(UVM_POLICY_EVICT, cfg->policy[UVM_POLICY_EVICT]);
    h->prefetch = uvm_policy_find(UVM_POLICY_PREFETCH, cfg->policy[UVM_POLICY_PREFETCH]);
    h->thrashing = uvm_policy_find(UVM_POLICY_THRASHING, cfg->policy[UVM_POLICY_THRASHING]);
    h->place = uvm_place_select(cfg);
    (void)uvm_event_subscribe_internal(h, UVM_EVENT_ALL, uvm_stats_observer, &h->stats);
    h->batch = calloc(cfg->batch_size, sizeof *h->batch);
    /* copy_wait batch: a batch's pages stay pending until its end (more: flushed early) */
    h->pending_cap =
        cfg->copy_wait == UVM_COPY_WAIT_BATCH
            ? UVM_BLOCK_PAGES * ((cfg->batch_size < 512u ? cfg->batch_size : 512u) + 1u)
            : UVM_BLOCK_PAGES;
    h->pending = calloc(h->pending_cap, sizeof *h->pending);
    h->ts.pending = calloc(UVM_TS_CAP, sizeof *h->ts.pending);
    if (!h->batch || !h->pending || !h->ts.pending || u64map_init(&h->pt_tables, 64) != 0 ||
        uvm_mem_init(h) != 0 || (h->place->init && h->place->init(h) != 0) ||
        uvm_va_blocks_init(h) != 0 || h->evict->init(h, &h->evict_priv) != 0 ||
        (h->prefetch->init && h->prefetch->init(h, &h->prefetch_priv) != 0) ||
        (h->thrashing->init && h->thrashing->init(h, &h->thrashing_priv) != 0) ||
        uvm_policy_subscribe(h) != 0 || uvm_dyn_init(h) != 0 || uvm_lazy_init(h) != 0 ||
        uvm_acc_svc_init(h) != 0) {
        uvm_handler_free(h);
        err_setf(err, errlen, "uvm: out of memory");
        return NULL;
    }
    return h;
}

void uvm_handler_free(uvm_handler_t *h) {
    if (!h)
        return;
    for (size_t i = 0; i < h->nallocs; i++)
        free(h->allocs[i].name);
    free(h->allocs);
    free(h->batch);
    free(h->pending);
    free(h->ts.pending);
    u64map_free(&h->pt_tables);
    free(h->page_order);
    u64map_free(&h->page_pos);
    uvm_mem_free(h);
    uvm_va_blocks_free(h);
    if (h->evict && h->evict_priv)
        h->evict->fini(h->evict_priv);
    if (h->prefetch && h->prefetch->fini)
        h->prefetch->fini(h->prefetch_priv);
    if (h->thrashing && h->thrashing->fini)
        h->thrashing->fini(h->thrashing_priv);
    u64map_free(&h->thrash_pin);
    uvm_lc_release(h);
    uvm_dyn_free(h);
    uvm_lazy_free(h);
    uvm_acc_svc_free(h);
    free(h);
}

/* ------------------------------------------------------------------------------------------ */
/* allocations                                                                                 */

int uvm_handler_add_alloc(uvm_handler_t *h, const char *name, uint64_t base, uint64_t size,
                          int readonly, char *err, size_t errlen) {
    if (!h) {
        err_setf(err, errlen, "uvm: no handler");
        return -1;
    }
    const char *nm = (name && name[0]) ? name : NULL;
    if (!nm) {
        err_setf(err, errlen, "uvm: allocation at 0x%" PRIx64 " has no name", base);
        return -1;
    }
    if (size == 0) {
        err_setf(err, errlen, "uvm: allocation '%s' at 0x%" PRIx64 " has zero size", nm, base);
        return -1;
    }
    /* base is an extended VA (docs/handler.md "Address spaces"): ASID above the 48-bit VA */
    const uint64_t asid = base >> GMMU_VA_W, va = base & (UVM_VA_LIMIT - 1u);
    if (asid >= UVM_SPACES || size > UVM_VA_LIMIT - va) {
        err_setf(err, errlen,
                 "uvm: allocation '%s' [0x%" PRIx64 ", +0x%" PRIx64
                 ") is outside the %u-bit VA space of an address space",
                 nm, base, size, GMMU_VA_W);
        return -1;
    }
    /* insertion point keeping allocs sorted by base */
    size_t pos = 0;
    while (pos < h->nallocs && h->allocs[pos].base < base)
        pos++;
    const uvm_alloc_t *nb[2] = {pos > 0 ? &h->allocs[pos - 1] : NULL,
                                pos < h->nallocs ? &h->allocs[pos] : NULL};
    for (int i = 0; i < 2; i++) {
        const uvm_alloc_t *o = nb[i];
        if (o && o->base < base + size && base < o->base + o->size) {
            /* the VAs as the trace gives them: the ASID bits above the 48-bit VA named apart */
            const uint64_t ova = o->base & (UVM_VA_LIMIT - 1u);
            err_setf(err, errlen,
                     "uvm: allocation '%s' [0x%" PRIx64 ", 0x%" PRIx64
                     ") overlaps allocation '%s' [0x%" PRIx64 ", 0x%" PRIx64
                     ") (address space %" PRIu64 ")",
                     nm, va, va + size, o->name, ova, ova + o->size, asid);
            return -1;
        }
    }
    if (h->nallocs == h->allocs_cap) {
        const size_t ncap = h->allocs_cap ? 2 * h->allocs_cap : 16;
        uvm_alloc_t *na = realloc(h->allocs, ncap * sizeof *na);
        if (!na) {
            err_setf(err, errlen, "uvm: out of memory adding allocation '%s'", nm);
            return -1;
        }
        h->allocs = na;
        h->allocs_cap = ncap;
    }
    const size_t len = strlen(nm);
    char *copy = malloc(len + 1);
    if (!copy) {
        err_setf(err, errlen, "uvm: out of memory adding allocation '%s'", nm);
        return -1;
    }
    memcpy(copy, nm, len + 1);
    memmove(&h->allocs[pos + 1], &h->allocs[pos], (h->nallocs - pos) * sizeof *h->allocs);
    h->allocs[pos] = (uvm_alloc_t){copy, base, size, readonly != 0};
    h->nallocs++;
    if (asid + 1u > h->spaces)
        h->spaces = (uint32_t)asid + 1u;
    /* before uvm_handler_init_device the roots are made there (ASID 0's first) */
    if (asid > 0 && h->initialized && uvm_pt_root_add(h, (uint32_t)asid) != 0) {
        err_setf(err, errlen, "uvm: no page-table page for the root of address space %" PRIu64,
                 asid);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* device initialization                                                                       */

int uvm_handler_init_device(uvm_handler_t *h, char *err, size_t errlen) {
    if (!h) {
        err_setf(err, errlen, "uvm: no handler");
        return -1;
    }
    if (h->initialized) {
        err_setf(err, errlen, "uvm: device already initialized");
        return -1;
    }
    const uint32_t id = uvm_csr_rd(h, GMMU_CSR_ID);
    if (id != GMMU_CSR_ID_VALUE) {
        err_setf(err, errlen, "uvm: CSR ID reads 0x%08" PRIx32 ", expected 0x%08x (not a GMMU)", id,
                 GMMU_CSR_ID_VALUE);
        return -1;
    }
    /* page-table root: first page of the PT pool, zeroed before the device may walk it */
    uint64_t root = 0;
    if (!uvm_pt_alloc(h, &root)) {
        err_setf(err, errlen, "uvm: no page-table page for the root");
        return -1;
    }
    uvm_csr_wr(h, GMMU_CSR_PT_BASE_LO, (uint32_t)(root & UINT32_MAX));
    uvm_csr_wr(h, GMMU_CSR_PT_BASE_HI, (uint32_t)(root >> 32));
    h->pt_root[0] = root;
    h->pt_has_root[0] = 1;
    /* the other address spaces declared so far (ASID_SEL window, docs/microarch.md §14.2) */
    for (uint32_t a = 1; a < h->spaces; a++)
        if (uvm_pt_root_add(h, a) != 0) {
            err_setf(err, errlen, "uvm: no page-table page for the root of address space %" PRIu32,
                     a);
            return -1;
        }

    /* fault ring: clear every entry's VALID bit in host memory, then program it */
    const uint8_t zero[GMMU_FB_ENTRY_BYTES] = {0};
    for (uint32_t i = 0; i < h->cfg.fb_entries; i++)
        h->dev.host_write(h->dev.ctx, h->cfg.fb_host_addr + (uint64_t)i * GMMU_FB_ENTRY_BYTES, zero,
                          sizeof zero);
    uvm_csr_wr(h, GMMU_CSR_FB_BASE_LO, (uint32_t)(h->cfg.fb_host_addr & UINT32_MAX));
    uvm_csr_wr(h, GMMU_CSR_FB_BASE_HI, (uint32_t)(h->cfg.fb_host_addr >> 32));
    uvm_csr_wr(h, GMMU_CSR_FB_SIZE, h->cfg.fb_entries); /* also resets GET, PUT, OVERFLOW */
    h->get = 0;
    uvm_csr_wr(h, GMMU_CSR_INT_ENABLE, UVM_INT_ENABLE_FAULT | UVM_INT_ENABLE_OVERFLOW);
    if (uvm_acc_init_device(h, err, errlen) != 0) /* lazy_grp_hw: the notification ring (§6w.1) */
        return -1;
    if (uvm_bmp_init_device(h, err, errlen) != 0) /* line_bitmap: the table (§6x.2) */
        return -1;

    const uint32_t es = uvm_csr_rd(h, GMMU_CSR_ERR_STATUS);
    if (es != 0) {
        const uint32_t ea = uvm_csr_rd(h, GMMU_CSR_ERR_ADDR);
        err_setf(err, errlen,
                 "uvm: device reported ERR_STATUS 0x%" PRIx32 " (last bad CSR 0x%03" PRIx32
                 ") while programming PT_BASE/FB_BASE/FB_SIZE/INT_ENABLE",
                 es, ea);
        return -1;
    }
    h->initialized = true;
    return 0;
}

const uvm_stats_t *uvm_handler_stats(const uvm_handler_t *h) {
    return h ? &h->stats : NULL;
}

/* The wake-ups: the pipelined copies' completion (§6m, uvm_prefetch_pipe.c) and the timer of
 * lazy_pg_*'s poll (§6x.4, never due without those policies) */
uint64_t uvm_handler_wake_ns(const uvm_handler_t *h) {
    if (!h)
        return UINT64_MAX;
    const uint64_t ts = uvm_ts_wake_ns(h), lazy = uvm_lazy_wake_ns(h);
    return ts < lazy ? ts : lazy;
}

void uvm_handler_wake(uvm_handler_t *h) {
    if (!h)
        return;
    /* the copies' part runs when called for them (always, with no lazy_pg_* timer due) */
    if (uvm_lazy_wake(h) && (h->ts.n == 0 || h->dev.now_ns(h->dev.ctx) < uvm_ts_wake_ns(h)))
        return;
    uvm_ts_wake(h);
}

void uvm_handler_service(uvm_handler_t *h) {
    if (!h)
        return;
    if (!h->initialized) {
        uvm_logf(h, "uvm: interrupt before uvm_handler_init_device; ignored");
        return;
    }
    uvm_service_impl(h);
}
