/*
 * plat_mem.c - the platform's memories as the workload sees them (see plat_int.h and
 * docs/cosim.md, "Accesses and the integrity check", "Memory and DMA"): managed allocations,
 * the truth of every page's content version, the access of a page when its translation arrives
 * (tag check), and the queue of DMA transfers moving content tags between host and GPU memory.
 */
#include <stdlib.h>
#include <string.h>

#include "plat_int.h"

/* ------------------------------------------------------------------------------------------ */
/* allocations and page accesses                                                              */

const plat_alloc_t *plat_find_alloc(const plat_t *p, uint64_t va) {
    for (size_t i = 0; i < p->nalloc; i++)
        if (va >= p->allocs[i].base && va - p->allocs[i].base < p->allocs[i].size)
            return &p->allocs[i];
    return NULL;
}

int plat_add_alloc(plat_t *p, const trace_rec_t *rec) {
    if (p->nalloc == p->capalloc) {
        const size_t cap = p->capalloc ? p->capalloc * 2 : 8;
        plat_alloc_t *a = realloc(p->allocs, cap * sizeof(*a));
        if (!a)
            return -1;
        p->allocs = a;
        p->capalloc = cap;
    }
    plat_alloc_t *a = &p->allocs[p->nalloc++];
    snprintf(a->name, sizeof(a->name), "%s", rec->name);
    a->base = rec->base;
    a->size = rec->size;
    a->ro = rec->readonly;
    a->preloaded = 0;
    return 0;
}

void plat_del_alloc(plat_t *p, uint64_t base) {
    for (size_t i = 0; i < p->nalloc; i++)
        if (p->allocs[i].base == base) {
            memmove(&p->allocs[i], &p->allocs[i + 1], (p->nalloc - i - 1) * sizeof(*p->allocs));
            p->nalloc--;
            return;
        }
}

static uint64_t truth_tag(const plat_t *p, uint64_t vpn) {
    uint64_t ver = 0;
    u64map_get(&p->truth, vpn, &ver);
    return hostmem_content_tag(vpn, ver);
}

static void integrity_error(plat_t *p, const sm_resp_t *r, uint32_t s, uint64_t ppn,
                            uint64_t expected, uint64_t actual, const char *what) {
    p->st.integrity_errors++;
    if (p->st.integrity_errors > PLAT_MAX_REPORTED)
        return;
    const sm_warp_t *w = &p->wl.kern.warps[r->warp];
    plat_clear_progress(p);
    fprintf(stderr,
            "gmmu-sim: INTEGRITY ERROR at cycle %llu: SM %u warp (cta %u, warp %u) trace pos %llu "
            "%s vpn 0x%llx -> ppn 0x%llx: %s (expected tag 0x%016llx, actual 0x%016llx)\n",
            (unsigned long long)p->now, s, w->cta, w->warp, (unsigned long long)r->line,
            r->op == TRACE_OP_READ    ? "read"
            : r->op == TRACE_OP_WRITE ? "write"
                                      : "atomic",
            (unsigned long long)r->vpn, (unsigned long long)ppn, what, (unsigned long long)expected,
            (unsigned long long)actual);
    if (p->st.integrity_errors == PLAT_MAX_REPORTED)
        fprintf(stderr, "gmmu-sim: (further integrity errors are counted, not printed)\n");
}

/* Bytes of one remote access: one 128 B line per translated page (the SM front-end keeps
 * pages, not lines, per instruction: docs/cosim.md "Remote accesses"). */
#define PLAT_REMOTE_LINE 128u

/* A translation with the system aperture: the data is the host copy of the page, reached over
 * PCIe; the content tag is checked against host memory as a local access's against GPU memory. */
static void access_remote(plat_t *p, uint32_t s, const sm_resp_t *r, uint64_t ppn,
                          const plat_alloc_t *a) {
    if (ppn != plat_host_frame(r->vpn)) {
        integrity_error(p, r, s, ppn, 0, 0, "remote translation to another page's host frame");
        return;
    }
    const uint64_t expected = truth_tag(p, r->vpn);
    const uint64_t actual = hostmem_page_tag(&p->hm, r->vpn);
    if (expected != actual)
        integrity_error(p, r, s, ppn, expected, actual, "wrong content (host memory)");
    const int write = r->op != TRACE_OP_READ;
    const uint64_t done =
        pcie_remote_access(&p->dq.dma, write ? PCIE_D2H : PCIE_H2D, PLAT_REMOTE_LINE,
                           (double)p->cfg->remote_latency_ns, p->now);
    sm_hold(&p->wl.sm[s], &p->wl.kern, r->warp, done);
    p->wl.remote_bytes += PLAT_REMOTE_LINE;
    p->wl.remote_wait_cycles += done - p->now;
    if (!write) {
        p->wl.remote_reads++;
        return;
    }
    p->wl.remote_writes++;
    if (a->ro)
        integrity_error(p, r, s, ppn, 0, 0, "write translated on a read-only allocation");
    uint64_t ver = 0;
    u64map_get(&p->truth, r->vpn, &ver);
    ver++;
    if (u64map_put(&p->truth, r->vpn, ver) != 0 ||
        hostmem_set_page_tag(&p->hm, r->vpn, hostmem_content_tag(r->vpn, ver)) != 0)
        plat_platform_error(p, "out of memory");
}

int plat_pst_counts(const plat_t *p) {
    return p->cfg->remote_policy == CFG_REMOTE_LAZY_PG_STAT_SW ||
           p->cfg->remote_policy == CFG_REMOTE_LAZY_PG_DYN_SW;
}

/* The instrumented program's PST update after its access (docs/handler.md §6x.1): the lines
 * set in host memory; a write (not a read-and-bypass: a line bit not set before) holds the warp
 * pst_update_cycles more. With lazy_pg_stat_sw / lazy_pg_dyn_sw (§6x.4) the program also counts
 * the access (one per warp access to the page): every access is then a write, and costs so. */
static void pst_update(plat_t *p, uint32_t s, const sm_resp_t *r) {
    const int w = hostmem_pst_record(&p->hm, r->vpn, r->lines, plat_pst_counts(p));
    if (w < 0) {
        plat_platform_error(p, "out of memory");
        return;
    }
    p->wl.pst_writes += (uint64_t)w;
    if (w && p->cfg->pst_update_cycles)
        sm_hold(&p->wl.sm[s], &p->wl.kern, r->warp, p->now + p->cfg->pst_update_cycles);
}

void plat_access_page(plat_t *p, uint32_t s, const sm_resp_t *r, uint64_t ppn, int sys) {
    const plat_alloc_t *a = plat_find_alloc(p, r->vpn * PLAT_PAGE);
    if (!a) {
        integrity_error(p, r, s, ppn, 0, 0, "page outside every allocation was translated");
        return;
    }
    if (p->pst_on)
        pst_update(p, s, r);
    if (sys) {
        access_remote(p, s, r, ppn, a);
        return;
    }
    if (!gpumem_is_frame(&p->gm, ppn)) {
        integrity_error(p, r, s, ppn, 0, 0, "translated to a PPN outside the GPU data frames");
        return;
    }
    const uint64_t expected = truth_tag(p, r->vpn);
    const uint64_t actual = gpumem_tag(&p->gm, ppn);
    if (expected != actual)
        integrity_error(p, r, s, ppn, expected, actual, "wrong content");
    if (p->access_oracle) /* lru_oracle: the time of the access, which no hardware reports yet */
        hdrv_note_access(p->hd.host, ppn * PLAT_PAGE, plat_now_ns(p));
    if (r->op != TRACE_OP_READ) {
        if (a->ro)
            integrity_error(p, r, s, ppn, 0, 0, "write translated on a read-only allocation");
        uint64_t ver = 0;
        u64map_get(&p->truth, r->vpn, &ver);
        ver++;
        if (u64map_put(&p->truth, r->vpn, ver) != 0) {
            plat_platform_error(p, "out of memory");
            return;
        }
        gpumem_set_tag(&p->gm, ppn, hostmem_content_tag(r->vpn, ver));
    }
}

/* ------------------------------------------------------------------------------------------ */
/* DMA                                                                                        */

uint64_t plat_dma_done_at(const plat_t *p, uint64_t handle) {
    for (size_t i = 0; i < p->dq.ndma; i++)
        if (p->dq.dmas[i].handle == handle)
            return p->dq.dmas[i].done;
    return 0;
}

/* Whole pages of a managed allocation (VA side) and of the GPU data frames (PA side). */
static int dma_check(plat_t *p, uvm_dma_dir_t dir, uint64_t src, uint64_t dst, uint64_t bytes) {
    const char *dn = dir == UVM_DMA_H2D ? "H2D" : "D2H";
    if (bytes == 0 || bytes % PLAT_PAGE || src % PLAT_PAGE || dst % PLAT_PAGE) {
        plat_platform_error(p, "DMA %s src 0x%llx dst 0x%llx bytes %llu: not whole 4 KB pages", dn,
                            (unsigned long long)src, (unsigned long long)dst,
                            (unsigned long long)bytes);
        return -1;
    }
    const uint64_t n = bytes / PLAT_PAGE;
    const uint64_t va = dir == UVM_DMA_H2D ? src : dst;
    const uint64_t pa = dir == UVM_DMA_H2D ? dst : src;
    for (uint64_t i = 0; i < n; i++) {
        if (!plat_find_alloc(p, va + i * PLAT_PAGE)) {
            plat_platform_error(p, "DMA %s: VA 0x%llx is not in a managed allocation", dn,
                                (unsigned long long)(va + i * PLAT_PAGE));
            return -1;
        }
        if (!gpumem_is_frame(&p->gm, pa / PLAT_PAGE + i)) {
            plat_platform_error(p, "DMA %s: PA 0x%llx is not a GPU data frame", dn,
                                (unsigned long long)(pa + i * PLAT_PAGE));
            return -1;
        }
    }
    return 0;
}

uint64_t plat_dma_submit(plat_t *p, uvm_dma_dir_t dir, uint64_t src, uint64_t dst, uint64_t bytes) {
    if (dma_check(p, dir, src, dst, bytes) != 0)
        return 0;
    if (p->score && dir == UVM_DMA_H2D) {
        plat_score_h2d_src(p->score, dst / PLAT_PAGE, bytes / PLAT_PAGE, src / PLAT_PAGE);
        if (p->halted)
            return 0;
    } else if (p->score) {
        plat_score_d2h(p->score, src / PLAT_PAGE, bytes / PLAT_PAGE, dst / PLAT_PAGE);
    }
    const uint64_t n = bytes / PLAT_PAGE;
    if (p->dq.ndma == p->dq.capdma) {
        const size_t cap = p->dq.capdma ? p->dq.capdma * 2 : 16;
        plat_dma_t *d = realloc(p->dq.dmas, cap * sizeof(*d));
        if (!d) {
            plat_platform_error(p, "out of memory");
            return 0;
        }
        p->dq.dmas = d;
        p->dq.capdma = cap;
    }
    uint64_t *tags = malloc(n * sizeof(uint64_t));
    if (!tags) {
        plat_platform_error(p, "out of memory");
        return 0;
    }
    plat_dma_t *d = &p->dq.dmas[p->dq.ndma++];
    d->handle = ++p->dq.next_handle;
    d->dir = dir;
    d->src = src;
    d->dst = dst;
    d->npages = n;
    d->tags = tags;
    for (uint64_t i = 0; i < n; i++)
        d->tags[i] = dir == UVM_DMA_H2D ? hostmem_page_tag(&p->hm, src / PLAT_PAGE + i)
                                        : gpumem_tag(&p->gm, src / PLAT_PAGE + i);
    if (p->score_break == PLAT_BREAK_TAG && dir == UVM_DMA_H2D) {
        p->score_break = PLAT_BREAK_NONE; /* once: the copy lands stale content */
        d->tags[0] ^= 1u;
    }
    d->done =
        pcie_dma_schedule(&p->dq.dma, dir == UVM_DMA_H2D ? PCIE_H2D : PCIE_D2H, bytes, p->now);
    if (dir == UVM_DMA_H2D)
        p->dq.dma_h2d++;
    else
        p->dq.dma_d2h++;
    evr_add(&p->ring, p->now, EVR_DMA_SUB, (uint8_t)dir, (uint16_t)(n > 0xffff ? 0xffff : n),
            (uint32_t)d->handle, src, dst);
    return d->handle;
}

/* ------------------------------------------------------------------------------------------ */
/* the handler scoreboard's view of the platform                                              */

/* (the platform keys allocations and content by the extended address: the ASID above the VA) */
static int score_alloc_of(void *ctx, unsigned asid, uint64_t va, int *ro, int *platform) {
    const plat_alloc_t *a = plat_find_alloc(ctx, (uint64_t)asid << GMMU_VA_W | va);
    if (!a)
        return 0;
    *ro = a->ro;
    *platform = a->preloaded;
    return 1;
}

static uint64_t score_truth(void *ctx, unsigned asid, uint64_t vpn) {
    return truth_tag(ctx, (uint64_t)asid << GMMU_VPN_W | vpn);
}

static int score_read_mostly(void *ctx, unsigned asid, uint64_t va) {
    const plat_t *p = ctx;
    return u64map_get(&p->rmostly, ((uint64_t)asid << GMMU_VA_W | va) / PLAT_PAGE, NULL);
}

static void score_violation(void *ctx, const char *msg) {
    plat_platform_error(ctx, "%s", msg);
}

/* the pin rule's events (plat_score_pin.c): extended VPN (ASID << GMMU_VPN_W | VPN) -> key */
static void score_event(void *ctx, const uvm_event_t *ev) {
    plat_t *p = ctx;
    const uint64_t m = (1ull << GMMU_VPN_W) - 1u;
    if (ev->kind == UVM_EVENT_PIN || ev->kind == UVM_EVENT_UNPIN) {
        const uint64_t k = (ev->pin.vpn >> GMMU_VPN_W) << 40 | (ev->pin.vpn & m);
        if (ev->kind == UVM_EVENT_PIN) /* (the lru order check skips pinned pages) */
            plat_score_pin(p->score, k, ev->pin.until_ns);
        else
            plat_score_unpin(p->score, k);
    } else if (ev->kind == UVM_EVENT_EVICT && ev->evict.cause == UVM_EVICT_CAPACITY) {
        const uint64_t k = (ev->evict.vpn >> GMMU_VPN_W) << 40 | (ev->evict.vpn & m);
        plat_score_evict(p->score, k, ev->evict.pages, ev->evict.frame, plat_now_ns(p));
    }
}

int plat_score_subscribe(plat_t *p) {
    const uint32_t mask = UVM_EVENT_MASK(UVM_EVENT_PIN) | UVM_EVENT_MASK(UVM_EVENT_UNPIN) |
                          UVM_EVENT_MASK(UVM_EVENT_EVICT);
    return p->score ? hdrv_subscribe(p->hd.host, mask, score_event, p) : 0;
}

int plat_score_init(plat_t *p, char *err, size_t errlen) {
    static const char *const breaks[] = {"", "perm", "dup", "noinval", "tag", "order"};
    if (p->o.score_break) {
        for (unsigned i = 1; i < sizeof breaks / sizeof breaks[0]; i++)
            if (strcmp(p->o.score_break, breaks[i]) == 0)
                p->score_break = (int)i;
        if (!p->score_break || p->o.no_score) {
            snprintf(err, errlen,
                     "--score-break %s: expected perm|dup|noinval|tag|order (and no "
                     "--no-scoreboard)",
                     p->o.score_break);
            return -1;
        }
    }
    /* page_size 2m / cocoa: Mosaic's bloat is legal (docs/cosim.md "Handler scoreboard"): the
     * rest of a 2 MB page's region, and (cocoa) the base entries of a region's bloat pages */
    if (p->o.no_score)
        return 0;
    const plat_score_env_t env = {p, score_alloc_of, score_truth, score_violation,
                                  score_read_mostly};
    const unsigned na = p->prm.num_asids ? p->prm.num_asids : 1u;
    /* order: the check of an eviction policy that evicts in mapping order (lru; the handler
     * says which), or on a handler configured otherwise (--score-break order with random) */
    /* (not with cocoa: a region's switch between its base and its large mapping loses the pages'
     * migration order, which the check reads from when each page was mapped) */
    const uint32_t props = uvm_policy_props(UVM_POLICY_EVICT, p->cfg->evict_policy);
    /* (evict_granularity > 1: a group goes whole, with pages younger than other resident ones) */
    const int lru = (((props & UVM_POLICY_PROP_MAP_ORDER) && p->cfg->evict_granularity == 1) ||
                     p->score_break == PLAT_BREAK_ORDER) &&
                    p->cfg->page_size != UVM_PSIZE_COCOA;
    p->score = plat_score_new(&p->gm, &env, na, lru, err, errlen);
    if (p->score)
        plat_score_set_bloat(p->score, p->cfg->page_size == UVM_PSIZE_COCOA);
    if (p->score)
        plat_score_set_dirty_only(p->score, p->cfg->writeback == CFG_WB_DIRTY);
    return p->score ? 0 : -1;
}

uint64_t plat_score_break_pte(plat_t *p, uint64_t value) {
    const uint64_t m = ((1ull << 36) - 1u) << GMMU_PTE_PPN_LSB;
    if (!(value & (1ull << GMMU_PTE_V)) ||
        !gpumem_is_frame(&p->gm, (value & m) >> GMMU_PTE_PPN_LSB))
        return value; /* not a leaf */
    if (p->score_break == PLAT_BREAK_PERM && (value & (1ull << GMMU_PTE_W))) {
        p->score_break = PLAT_BREAK_NONE; /* once: a writable page mapped read-only */
        return value & ~(1ull << GMMU_PTE_W);
    }
    if (p->score_break == PLAT_BREAK_DUP) {
        if (!p->break_leaf) {
            p->break_leaf = value;
            return value;
        }
        p->score_break = PLAT_BREAK_NONE; /* once: the second leaf gets the first one's frame */
        return (value & ~m) | (p->break_leaf & m);
    }
    return value;
}
