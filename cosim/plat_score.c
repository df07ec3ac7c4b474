/*
 * plat_score.c - the handler scoreboard (see plat_score.h and docs/cosim.md "Handler
 * scoreboard"). The shadow: for every page-table page linked from a root, its words as last
 * compared and where it sits (ASID, level, first VPN, large-page table); the mappings derived
 * from the leaves; the frames they use; the frames that lost a mapping and wait for its
 * invalidate. Page-table words are only read from the platform's GPU memory.
 */
#include "plat_score.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmmu_consts.h"
#include "hostmem.h"
#include "plat_score_int.h"
#include "u64map.h"

static void violation(plat_score_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void violation(plat_score_t *s, const char *fmt, ...) {
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(msg, sizeof msg, "scoreboard: ");
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    s->st.violations++;
    s->env.violation(s->env.ctx, msg);
}

static int push(uint64_t **a, size_t *n, size_t *cap, uint64_t v) {
    if (*n == *cap) {
        const size_t c = *cap ? *cap * 2 : 64;
        uint64_t *b = realloc(*a, c * sizeof(*b));
        if (!b)
            return -1;
        *a = b;
        *cap = c;
    }
    (*a)[(*n)++] = v;
    return 0;
}

static void put(plat_score_t *s, u64map_t *m, uint64_t k, uint64_t v) {
    if (u64map_put(m, k, v) != 0 && !s->oom) {
        s->oom = 1;
        violation(s, "out of memory (the checks stop)");
    }
}

/* push, and on failure the checks stop with one violation */
static void keep(plat_score_t *s, uint64_t **a, size_t *n, size_t *cap, uint64_t v) {
    if (push(a, n, cap, v) != 0 && !s->oom) {
        s->oom = 1;
        violation(s, "out of memory (the checks stop)");
    }
}

plat_score_t *plat_score_new(const gpumem_t *gm, const plat_score_env_t *env, unsigned num_asids,
                             int lru, char *err, size_t errlen) {
    if (num_asids == 0 || num_asids > 256 || (num_asids & (num_asids - 1u)) || !env->alloc_of ||
        !env->truth || !env->violation) {
        snprintf(err, errlen, "plat_score_new: illegal arguments (num_asids %u)", num_asids);
        return NULL;
    }
    plat_score_t *s = calloc(1, sizeof(*s));
    if (!s) {
        snprintf(err, errlen, "plat_score_new: out of memory");
        return NULL;
    }
    s->gm = gm;
    s->env = *env;
    s->num_asids = num_asids;
    s->lru = lru;
    const size_t np = gm->pt_pages;
    s->shadow = calloc(np * SC_WORDS, sizeof(uint64_t));
    s->pg = calloc(np, sizeof(sc_page_t));
    s->dirty = calloc(np, 1);
    s->dlist = calloc(np, sizeof(uint32_t));
    for (unsigned a = 0; a < 256; a++)
        s->root[a] = -1;
    if ((np && (!s->shadow || !s->pg || !s->dirty || !s->dlist))) {
        plat_score_free(s);
        snprintf(err, errlen, "plat_score_new: out of memory (%zu page-table pages)", np);
        return NULL;
    }
    return s;
}

void plat_score_free(plat_score_t *s) {
    if (!s)
        return;
    free(s->shadow);
    free(s->pg);
    free(s->dirty);
    free(s->dlist);
    free(s->fresh);
    free(s->removed);
    free(s->scr);
    u64map_free(&s->maps);
    u64map_free(&s->frames);
    u64map_free(&s->pending);
    u64map_free(&s->epochs);
    u64map_free(&s->bloatp);
    plat_score_wb_free(s);
    free(s);
}

void plat_score_pt_write(plat_score_t *s, uint64_t pa) {
    if (!gpumem_is_pt(s->gm, pa & ~7ull))
        return;
    const uint32_t i = (uint32_t)((pa - s->gm->pt_base) / SC_PAGE);
    if (!s->dirty[i]) {
        s->dirty[i] = 1;
        s->dlist[s->ndirty++] = i;
    }
}

/* ---- mappings ---- */

static uint64_t word(const plat_score_t *s, uint32_t page, uint32_t idx) {
    return s->gm->pt[(size_t)page * SC_WORDS + idx];
}

static void epoch_add(plat_score_t *s, uint64_t e, int d) {
    uint64_t n = 0;
    u64map_get(&s->epochs, e, &n);
    n = (uint64_t)((int64_t)n + d);
    if (n)
        put(s, &s->epochs, e, n);
    else
        u64map_del(&s->epochs, e);
}

/* The oldest epoch with a resident handler page, before the current service's. */
static int oldest_epoch(plat_score_t *s, uint64_t *e) {
    while (s->min_epoch < s->epoch && !u64map_get(&s->epochs, s->min_epoch, NULL))
        s->min_epoch++;
    *e = s->min_epoch;
    return s->min_epoch < s->epoch;
}

/* The 2 MB region at va (docs/cosim.md "Handler scoreboard"): 0 unless some page is inside an
 * allocation and all such share one permission and owner (the rest is Mosaic's bloat). */
static int large_allocs(const plat_score_t *s, unsigned asid, uint64_t va, int *ro, int *plat) {
    int found = 0;
    for (uint64_t i = 0; i < SC_LARGE_PAGES; i++) {
        int r = 0, p = 0;
        if (!s->env.alloc_of(s->env.ctx, asid, va + i * SC_PAGE, &r, &p))
            continue;
        if (found && (r != *ro || p != *plat))
            return 0;
        *ro = r;
        *plat = p;
        found = 1;
    }
    return found;
}

/* W must be the allocation's (ro: 0); a read duplicate of a read-mostly page may be W = 0. */
static void perm_check(plat_score_t *s, unsigned asid, uint64_t va, uint64_t ppn, int w, int ro) {
    if (w == ro && !(ro == 0 && s->env.read_mostly && s->env.read_mostly(s->env.ctx, asid, va)))
        violation(s, "perm: ASID %u VA 0x%llx -> frame 0x%llx: W = %d on a %s allocation", asid,
                  (unsigned long long)va, (unsigned long long)ppn, w,
                  ro ? "read-only" : "writable");
}

/* A 4 KB leaf rewritten in place from read-only to writable, same frame (a read duplicate
 * collapsed on a GPU write, §6o): the page stays mapped (no unmap, no eviction, its epoch kept);
 * the stale read-only translation can only cause a fault, so no invalidate is owed. */
static void upgrade_leaf(plat_score_t *s, unsigned asid, uint64_t vpn, uint64_t pte) {
    const uint64_t key = SC_KEY(asid, vpn);
    uint64_t v = 0;
    int ro = 0, plat = 0;
    if (!u64map_get(&s->maps, key, &v) ||
        !s->env.alloc_of(s->env.ctx, asid, vpn * SC_PAGE, &ro, &plat))
        return; /* refused when it was mapped (outside every allocation) */
    perm_check(s, asid, vpn * SC_PAGE, (pte >> GMMU_PTE_PPN_LSB) & SC_PPN_MASK, 1, ro);
    put(s, &s->maps, key, v | SC_VAL_W);
    keep(s, &s->fresh, &s->nfresh, &s->capfresh, key);
}

static void map_leaf(plat_score_t *s, unsigned asid, uint64_t vpn, uint64_t pte, int large) {
    const uint64_t ppn = (pte >> GMMU_PTE_PPN_LSB) & SC_PPN_MASK;
    const uint64_t ppn0 = large ? ppn & ~(uint64_t)(SC_LARGE_PAGES - 1u) : ppn;
    const uint64_t n = large ? SC_LARGE_PAGES : 1u;
    const uint64_t va = vpn * SC_PAGE;
    const int w = (pte >> GMMU_PTE_W) & 1u;
    int ro = 0, plat = 0;
    const uint64_t region = va & ~(uint64_t)(SC_LARGE_PAGES * SC_PAGE - 1u);
    if (large ? !large_allocs(s, asid, va, &ro, &plat)
              : !s->env.alloc_of(s->env.ctx, asid, va, &ro, &plat) &&
                    !(s->bloat && large_allocs(s, asid, region, &ro, &plat))) {
        violation(s, "perm: ASID %u VA 0x%llx (%s page) -> frame 0x%llx: %s", asid,
                  (unsigned long long)va, large ? "2 MB" : "4 KB", (unsigned long long)ppn0,
                  large      ? "no page of it inside an allocation, or its allocations' pages of "
                               "different permission"
                  : s->bloat ? "not inside an allocation, nor in a 2 MB region of one "
                               "permission that intersects one"
                             : "not inside an allocation");
        return;
    }
    perm_check(s, asid, va, ppn0, w, ro);
    const uint64_t key = SC_KEY(asid, vpn) | (large ? SC_KEY_LARGE : 0);
    const int sys = (pte >> GMMU_PTE_APER) & 1u;
    /* remote: the pages' own host frames; no GPU frame is taken, none to invalidate before reuse */
    for (uint64_t i = 0; sys && i < n; i++)
        if (ppn0 + i != hostmem_frame(vpn + i)) {
            violation(
                s, "frame: ASID %u VA 0x%llx -> PPN 0x%llx (remote): not the page's host frame",
                asid, (unsigned long long)((vpn + i) * SC_PAGE), (unsigned long long)(ppn0 + i));
            return;
        }
    for (uint64_t i = 0; !sys && i < n; i++) {
        const uint64_t f = ppn0 + i, who = SC_KEY(asid, vpn + i);
        uint64_t other = 0, pend = 0;
        if (!gpumem_is_frame(s->gm, f)) {
            violation(s, "frame: ASID %u VA 0x%llx -> PPN 0x%llx: not a GPU data frame", asid,
                      (unsigned long long)((vpn + i) * SC_PAGE), (unsigned long long)f);
            return;
        }
        if (u64map_get(&s->frames, f, &other)) {
            violation(s,
                      "frame: frame 0x%llx mapped twice: ASID %u VA 0x%llx and ASID %u VA "
                      "0x%llx",
                      (unsigned long long)f, SC_KEY_ASID(other),
                      (unsigned long long)(SC_KEY_VPN(other) * SC_PAGE), asid,
                      (unsigned long long)((vpn + i) * SC_PAGE));
            return;
        }
        if (u64map_get(&s->pending, f, &pend)) {
            if ((pend & ~SC_PEND_FLAGS) != who)
                violation(s,
                          "inval: frame 0x%llx mapped to ASID %u VA 0x%llx before the "
                          "invalidate of its old page (ASID %u VA 0x%llx) completed",
                          (unsigned long long)f, asid, (unsigned long long)((vpn + i) * SC_PAGE),
                          SC_KEY_ASID(pend), (unsigned long long)(SC_KEY_VPN(pend) * SC_PAGE));
            u64map_del(&s->pending, f);
        }
        put(s, &s->frames, f, who);
        int r = 0, pl = 0;
        if (s->bloat && !s->env.alloc_of(s->env.ctx, asid, (vpn + i) * SC_PAGE, &r, &pl))
            put(s, &s->bloatp, who, 1);
    }
    const uint64_t e = s->epoch > SC_EPOCH_MAX ? SC_EPOCH_MAX : s->epoch;
    put(s, &s->maps, key,
        ppn0 | (w ? SC_VAL_W : 0) | (plat ? SC_VAL_PLAT : 0) | (sys ? SC_VAL_SYS : 0) | e << 40);
    if (!large && !plat && !sys) /* a remote leaf has no frame: no eviction order (lru) */
        epoch_add(s, e, 1);
    keep(s, &s->fresh, &s->nfresh, &s->capfresh, key);
    s->st.mappings++;
}

/* nocache: a base leaf with D = 1, never cached by a TLB (microarch §15): no invalidate owed */
static void unmap_leaf(plat_score_t *s, unsigned asid, uint64_t vpn, int large, int nocache,
                       int clean) {
    const uint64_t key = SC_KEY(asid, vpn) | (large ? SC_KEY_LARGE : 0);
    uint64_t v = 0;
    if (!u64map_get(&s->maps, key, &v))
        return; /* it was refused when it was mapped */
    u64map_del(&s->maps, key);
    const uint64_t n = (v & SC_VAL_SYS) ? 0u : large ? SC_LARGE_PAGES : 1u; /* remote: no frame */
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t f = (v & SC_PPN_MASK) + i;
        uint64_t who = 0;
        if (u64map_get(&s->frames, f, &who) && who == SC_KEY(asid, vpn + i)) {
            u64map_del(&s->frames, f);
            u64map_del(&s->bloatp, who);
            if (!nocache)
                put(s, &s->pending, f, who | (large ? SC_PEND_LARGE : 0));
            if ((v & SC_VAL_W) && !(v & SC_VAL_PLAT) && !clean)
                plat_score_wb_unmap(s, f, who);
        }
    }
    if (!large && !(v & (SC_VAL_PLAT | SC_VAL_SYS))) {
        epoch_add(s, SC_VAL_EPOCH(v), -1);
        if (s->in_service)
            keep(s, &s->removed, &s->nremoved, &s->capremoved, v);
    }
}

static void link_page(plat_score_t *s, uint64_t table_pa, unsigned asid, unsigned level,
                      uint64_t vpn0, int large, uint64_t at_va);

/* Entry idx of a linked page changes from its shadow old to new. */
static void entry_change(plat_score_t *s, uint32_t page, uint32_t idx, uint64_t old, uint64_t nw);

static void unlink_page(plat_score_t *s, uint32_t page) {
    sc_page_t *g = &s->pg[page];
    if (!g->linked)
        return;
    for (uint32_t i = 0; i < SC_WORDS; i++) {
        uint64_t *sh = &s->shadow[(size_t)page * SC_WORDS + i];
        if (*sh) {
            const uint64_t old = *sh;
            *sh = 0;
            entry_change(s, page, i, old, 0);
        }
    }
    g->linked = 0;
}

static void link_page(plat_score_t *s, uint64_t table_pa, unsigned asid, unsigned level,
                      uint64_t vpn0, int large, uint64_t at_va) {
    if (!gpumem_is_pt(s->gm, table_pa)) {
        violation(s,
                  "frame: ASID %u level %u entry for VA 0x%llx links PA 0x%llx outside "
                  "page-table memory",
                  asid, level, (unsigned long long)at_va, (unsigned long long)table_pa);
        return;
    }
    const uint32_t page = (uint32_t)((table_pa - s->gm->pt_base) / SC_PAGE);
    sc_page_t *g = &s->pg[page];
    if (g->linked) {
        violation(s,
                  "frame: page-table page 0x%llx linked twice (ASID %u level %u, and ASID %u "
                  "level %u VA 0x%llx)",
                  (unsigned long long)table_pa, g->asid, g->level, asid, level,
                  (unsigned long long)at_va);
        return;
    }
    *g = (sc_page_t){.vpn0 = vpn0,
                     .linked = 1,
                     .level = (uint8_t)level,
                     .large = (uint8_t)large,
                     .asid = (uint8_t)asid};
    s->st.pt_pages_compared++;
    for (uint32_t i = 0; i < SC_WORDS; i++) {
        const uint64_t w = word(s, page, i);
        if (w) {
            s->shadow[(size_t)page * SC_WORDS + i] = w;
            entry_change(s, page, i, 0, w);
        }
    }
}

static void entry_change(plat_score_t *s, uint32_t page, uint32_t idx, uint64_t old, uint64_t nw) {
    const sc_page_t g = s->pg[page];
    const unsigned shift = 9u * (3u - g.level);
    const uint64_t vpn = g.vpn0 + ((uint64_t)idx << shift);
    const int vo = (old >> GMMU_PTE_V) & 1u, vn = (nw >> GMMU_PTE_V) & 1u;
    if (g.level == 3u) {
        if (g.large && idx != 0)
            return; /* a large-page table: only entry 0 is read */
        if (((old ^ nw) & ~((UINT64_C(1) << GMMU_PTE_ACC) | (UINT64_C(1) << GMMU_PTE_DRT))) == 0)
            return; /* accessed / dirty only (docs/microarch.md §18): the mapping is unchanged */
        if (vo && vn && !g.large && !((old >> GMMU_PTE_W) & 1u) && ((nw >> GMMU_PTE_W) & 1u) &&
            ((old ^ nw) & ~(UINT64_C(1) << GMMU_PTE_W)) == 0) {
            upgrade_leaf(s, g.asid, vpn, nw);
            return;
        }
        if (vo)
            unmap_leaf(s, g.asid, vpn, g.large, !g.large && ((old >> GMMU_PTE_D) & 1u),
                       s->dirty_only && !((old >> GMMU_PTE_DRT) & 1u));
        if (vn)
            map_leaf(s, g.asid, vpn, nw, g.large);
        return;
    }
    if (vo) {
        const uint64_t pa = ((old >> GMMU_PTE_PPN_LSB) & SC_PPN_MASK) * SC_PAGE;
        if (gpumem_is_pt(s->gm, pa))
            unlink_page(s, (uint32_t)((pa - s->gm->pt_base) / SC_PAGE));
    }
    if (vn)
        link_page(s, ((nw >> GMMU_PTE_PPN_LSB) & SC_PPN_MASK) * SC_PAGE, g.asid, g.level + 1u, vpn,
                  g.level == 2u && ((nw >> GMMU_PTE_L) & 1u), vpn * SC_PAGE);
}

/* ---- bringing the shadow up to date ---- */

static void sync_roots(plat_score_t *s) {
    for (unsigned a = 0; a < s->num_asids; a++) {
        const uint64_t pa = ((uint64_t)(s->base_hi[a] & 0xffffu) << 32) | (s->base_lo[a] & ~0xfffu);
        const int64_t want =
            gpumem_is_pt(s->gm, pa) ? (int64_t)((pa - s->gm->pt_base) / SC_PAGE) : -1;
        if (want == s->root[a])
            continue;
        if (s->root[a] >= 0)
            unlink_page(s, (uint32_t)s->root[a]);
        s->root[a] = -1;
        if (want >= 0 && !s->pg[want].linked) {
            link_page(s, pa, a, 0, 0, 0, 0);
            s->root[a] = want;
        }
    }
}

/* lru: every page unmapped in this sync during a service is of the oldest epoch still resident
 * (pages of the current service may be pinned, as thrashing pins are: never a reason). */
static void check_order(plat_score_t *s) {
    uint64_t oldest = 0;
    if (s->lru && s->nremoved && !s->not_evictions && oldest_epoch(s, &oldest)) {
        for (size_t i = 0; i < s->nremoved; i++) {
            const uint64_t e = SC_VAL_EPOCH(s->removed[i]);
            if (e > oldest && plat_score_order_broken(s, e, &oldest)) {
                violation(s,
                          "order: frame 0x%llx evicted (mapped in service %llu) while pages "
                          "mapped in the older service %llu are resident (evict_policy lru "
                          "evicts in migration order)",
                          (unsigned long long)(s->removed[i] & SC_PPN_MASK), (unsigned long long)e,
                          (unsigned long long)oldest);
                break;
            }
            s->st.evictions_ordered++;
        }
    }
    s->nremoved = 0;
}

static void sync(plat_score_t *s) {
    if (s->oom)
        return;
    sync_roots(s);
    for (size_t k = 0; k < s->ndirty; k++) {
        const uint32_t page = s->dlist[k];
        s->dirty[page] = 0;
        if (!s->pg[page].linked)
            continue;
        s->st.pt_pages_compared++;
        for (uint32_t i = 0; i < SC_WORDS && s->pg[page].linked; i++) {
            uint64_t *sh = &s->shadow[(size_t)page * SC_WORDS + i];
            const uint64_t w = word(s, page, i);
            if (w != *sh) {
                const uint64_t old = *sh;
                *sh = w;
                entry_change(s, page, i, old, w);
            }
        }
    }
    s->ndirty = 0;
    check_order(s);
}

/* ---- commands, DMA, services ---- */

void plat_score_csr_write(plat_score_t *s, uint32_t addr, uint32_t value) {
    switch (addr) {
    case GMMU_CSR_ASID_SEL:
        s->asid_sel = value & (s->num_asids - 1u);
        break;
    case GMMU_CSR_PT_BASE_LO:
        s->base_lo[s->asid_sel] = value;
        break;
    case GMMU_CSR_PT_BASE_HI:
        s->base_hi[s->asid_sel] = value;
        break;
    case GMMU_CSR_CMD_ARG_LO:
        s->arg_lo = value;
        break;
    case GMMU_CSR_CMD_ARG_HI:
        s->arg_hi = value;
        break;
    case GMMU_CSR_CMD:
        if (value == GMMU_CMD_INVAL_PAGE || value == GMMU_CMD_INVAL_ALL) {
            sync(s); /* the unmapping it invalidates happened before */
            const uint64_t vpn = (uint64_t)(s->arg_hi & 0xfu) << 32 | s->arg_lo;
            const unsigned asid = ((s->arg_hi >> 8) & 0xffu) & (s->num_asids - 1u);
            const int scope = (s->arg_hi >> 16) & 1u, all = value == GMMU_CMD_INVAL_ALL;
            size_t pos = 0;
            uint64_t f = 0, v = 0;
            s->nscr = 0;
            while (u64map_next(&s->pending, &pos, &f, &v)) {
                const uint64_t pv = SC_KEY_VPN(v);
                const int hit = (!scope || SC_KEY_ASID(v) == asid) &&
                                (all || pv == vpn || ((v & SC_PEND_LARGE) && pv >> 9 == vpn >> 9));
                if (hit && !(v & SC_PEND_ISSUED))
                    keep(s, &s->scr, &s->nscr, &s->capscr, f);
            }
            for (size_t i = 0; i < s->nscr; i++)
                if (u64map_get(&s->pending, s->scr[i], &v))
                    put(s, &s->pending, s->scr[i], v | SC_PEND_ISSUED);
        }
        break;
    default:
        break;
    }
}

void plat_score_csr_read(plat_score_t *s, uint32_t addr, uint32_t value) {
    if (addr != GMMU_CSR_CMD_STATUS || (value & GMMU_CSR_CMD_STATUS_BUSY_MASK))
        return;
    /* every issued invalidate has completed */
    size_t pos = 0;
    uint64_t f = 0, v = 0;
    s->nscr = 0;
    while (u64map_next(&s->pending, &pos, &f, &v))
        if (v & SC_PEND_ISSUED)
            keep(s, &s->scr, &s->nscr, &s->capscr, f);
    for (size_t i = 0; i < s->nscr; i++)
        u64map_del(&s->pending, s->scr[i]);
}

void plat_score_h2d(plat_score_t *s, uint64_t ppn, uint64_t n) { /* source unknown */
    plat_score_h2d_src(s, ppn, n, UINT64_MAX);
}
void plat_score_h2d_src(plat_score_t *s, uint64_t ppn, uint64_t n, uint64_t src_vpn) {
    sync(s);
    for (uint64_t i = 0; i < n && !s->oom; i++) {
        uint64_t who = 0;
        const uint64_t mask = (1ull << GMMU_VPN_W) - 1u, x = src_vpn + i;
        plat_score_wb_reuse(s, ppn + i);
        if (src_vpn != UINT64_MAX && u64map_get(&s->frames, ppn + i, &who) &&
            who == SC_KEY(x >> GMMU_VPN_W, x & mask) && u64map_get(&s->bloatp, who, NULL)) {
            u64map_del(&s->bloatp, who); /* the first content of a bloat page (no access could
                                            reach it while it had none): legal once */
            continue;
        }
        if (u64map_get(&s->frames, ppn + i, &who))
            violation(s,
                      "inval: H2D DMA %s0x%llx into frame 0x%llx while it maps ASID %u VA 0x%llx",
                      src_vpn == UINT64_MAX ? "(source unknown) " : "of host page ",
                      src_vpn == UINT64_MAX ? 0ull : (unsigned long long)(x * SC_PAGE),
                      (unsigned long long)(ppn + i), SC_KEY_ASID(who),
                      (unsigned long long)(SC_KEY_VPN(who) * SC_PAGE));
        else if (u64map_get(&s->pending, ppn + i, &who))
            violation(s,
                      "inval: H2D DMA into frame 0x%llx before the invalidate of its old page "
                      "(ASID %u VA 0x%llx) completed",
                      (unsigned long long)(ppn + i), SC_KEY_ASID(who),
                      (unsigned long long)(SC_KEY_VPN(who) * SC_PAGE));
    }
}

void plat_score_service_begin(plat_score_t *s) {
    sync(s); /* what changed outside the service (the coalesce unit, preloads) */
    s->nfresh = 0;
    s->epoch++;
    s->in_service = 1;
}

/* The content tag of every frame of the mapping key (if still mapped). */
static void check_tags(plat_score_t *s, uint64_t key) {
    uint64_t v = 0;
    if (!u64map_get(&s->maps, key, &v))
        return;
    /* remote: the data is in host memory, checked at every access by the platform */
    const uint64_t n = (v & SC_VAL_SYS) ? 0u : (key & SC_KEY_LARGE) ? SC_LARGE_PAGES : 1u;
    const uint64_t vpn = SC_KEY_VPN(key);
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t f = (v & SC_PPN_MASK) + i;
        int ro = 0, plat = 0;
        if ((n > 1u || s->bloat) &&
            !s->env.alloc_of(s->env.ctx, SC_KEY_ASID(key), (vpn + i) * SC_PAGE, &ro, &plat))
            continue; /* bloat (of a 2 MB page, or a region's 4 KB bloat page): no content */
        const uint64_t want = s->env.truth(s->env.ctx, SC_KEY_ASID(key), vpn + i),
                       got = gpumem_tag(s->gm, f);
        s->st.tags_checked++;
        if (want != got) {
            violation(s,
                      "tag: ASID %u VA 0x%llx -> frame 0x%llx holds content tag 0x%016llx, "
                      "the page's is 0x%016llx",
                      SC_KEY_ASID(key), (unsigned long long)((vpn + i) * SC_PAGE),
                      (unsigned long long)f, (unsigned long long)got, (unsigned long long)want);
            return;
        }
    }
}

void plat_score_service_end(plat_score_t *s) {
    sync(s);
    s->not_evictions = 0;
    s->in_service = 0;
    s->st.checks++;
    for (size_t i = 0; i < s->nfresh && !s->oom; i++)
        check_tags(s, s->fresh[i]);
    s->nfresh = 0;
}

void plat_score_finish(plat_score_t *s) {
    sync(s);
    s->st.checks++;
    s->nfresh = 0;
    size_t pos = 0;
    uint64_t k = 0;
    while (!s->oom && u64map_next(&s->maps, &pos, &k, NULL))
        check_tags(s, k);
}

void plat_score_not_evictions(plat_score_t *s) {
    s->not_evictions = 1;
}

void plat_score_set_bloat(plat_score_t *s, int on) {
    s->bloat = on;
}

void plat_score_set_dirty_only(plat_score_t *s, int on) {
    s->dirty_only = on;
}

plat_score_stats_t plat_score_stats(const plat_score_t *s) {
    plat_score_stats_t st = s->st;
    st.mappings = s->maps.count;
    return st;
}

void plat_score_order_off(plat_score_t *s) {
    s->lru = 0;
}
