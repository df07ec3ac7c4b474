/*
 * plat_script.c - directed-test mechanisms of the platform (see plat_int.h and docs/cosim.md,
 * "Scripted CSR accesses" and "Preloaded mappings"):
 *   --csr STEP     a host CSR access at a given cycle, driven on the CSR port like the host's own
 *                  (both engines see it, every output is compared as usual); a read may check
 *                  the value read, a write may require an event in the same cycle (a race).
 *   --preload A:K  before the first kernel, the platform maps allocation A itself with 2 MB
 *                  pages (K = large) or with 4 KB nocache pages (K = nocache, PTE D bit), in
 *                  page-table pages and frames the handler does not own; or remotely, its host
 *                  pages with the system aperture (PTE APER, docs/microarch.md §17), 4 KB
 *                  (K = remote) or 2 MB (K = remote_large) pages, no GPU frame used.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "num.h"
#include "plat_int.h"

#define PTE_BIT(b) (UINT64_C(1) << (b))
#define REGION_PAGES 512u /* 4 KB pages in a 2 MB region */

static const gmmu_csr_desc_t k_csrs[] = GMMU_CSR_TABLE;
/* the ev_o bits a scripted write may require (spec/gmmu.toml [ev]; "" = not nameable) */
static const char *const k_events[16] = {
    "L2_HIT", "L2_MISS", "WALK", "FF_NEW", "FF_MERGE", "FF_DROP", "FB_OVF",     "WALK_RESTART",
    "",       "",        "",     "",       "",         "",        "ACC_NOTIFY", "ACC_OVF"};

/* ------------------------------------------------------------------------------------------ */
/* parsing                                                                                    */

static int parse_u32(const char *s, uint32_t *v) {
    uint64_t x = 0;
    if (num_parse_u64(s, &x) != NUM_OK || x > UINT32_MAX)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

static int parse_reg(const char *s, uint32_t *addr) {
    for (size_t i = 0; i < sizeof(k_csrs) / sizeof(k_csrs[0]); i++)
        if (strcasecmp(s, k_csrs[i].name) == 0) {
            *addr = k_csrs[i].addr;
            return 0;
        }
    return parse_u32(s, addr) == 0 && *addr < 4096u ? 0 : -1;
}

static int parse_event(const char *s) {
    for (int i = 0; i < 16; i++)
        if (k_events[i][0] &&
            (strcasecmp(s, k_events[i]) == 0 ||
             (strncasecmp(s, "EV_", 3) == 0 && strcasecmp(s + 3, k_events[i]) == 0)))
            return i;
    return -1;
}

/* "CYCLE:w:REG:VALUE[:EVENT]" or "CYCLE:r:REG[:VALUE[/MASK]]". */
static int parse_step(const char *text, plat_csr_step_t *st, char *err, size_t errlen) {
    char buf[128], *f[6] = {0};
    unsigned n = 0;
    snprintf(buf, sizeof(buf), "%s", text);
    for (char *s = buf; s && n < 6;) {
        f[n++] = s;
        s = strchr(s, ':');
        if (s)
            *s++ = '\0';
    }
    memset(st, 0, sizeof(*st));
    st->race_ev = -1;
    st->mask = UINT32_MAX;
    const char *why = NULL;
    if (n < 3 || n > 5 || num_parse_u64(f[0], &st->cycle) != NUM_OK)
        why = "expected CYCLE:w:REG:VALUE[:EVENT] or CYCLE:r:REG[:VALUE[/MASK]]";
    else if (strcmp(f[1], "w") != 0 && strcmp(f[1], "r") != 0)
        why = "the access is w or r";
    else if (parse_reg(f[2], &st->addr) != 0)
        why = "unknown register (a name of docs/gen/regmap.md or an address below 0x1000)";
    else if (f[1][0] == 'w') {
        st->write = 1;
        if (n < 4 || parse_u32(f[3], &st->value) != 0)
            why = "a write needs a 32-bit VALUE";
        else if (n == 5 && (st->race_ev = parse_event(f[4])) < 0)
            why = "unknown event (L2_HIT L2_MISS WALK FF_NEW FF_MERGE FF_DROP FB_OVF WALK_RESTART)";
    } else if (n == 5)
        why = "a read takes at most VALUE[/MASK]";
    else if (n == 4) {
        char *slash = strchr(f[3], '/');
        if (slash)
            *slash++ = '\0';
        st->check = 1;
        if (parse_u32(f[3], &st->value) != 0 || (slash && parse_u32(slash, &st->mask) != 0))
            why = "expected VALUE[/MASK], 32-bit numbers";
    }
    if (why) {
        snprintf(err, errlen, "--csr %s: %s", text, why);
        return -1;
    }
    return 0;
}

static int parse_preload(const char *text, plat_preload_t *pl, char *err, size_t errlen) {
    const char *colon = strrchr(text, ':');
    const size_t len = colon ? (size_t)(colon - text) : 0;
    static const char *const kinds[] = {"nocache", "large", "remote", "remote_large"};
    int kind = -1;
    for (int i = 0; colon && i < 4; i++)
        if (strcmp(colon + 1, kinds[i]) == 0)
            kind = i;
    if (!colon || len == 0 || len >= sizeof(pl->name) || kind < 0) {
        snprintf(err, errlen,
                 "--preload %s: expected ALLOCATION:large, ALLOCATION:nocache, "
                 "ALLOCATION:remote or ALLOCATION:remote_large",
                 text);
        return -1;
    }
    memcpy(pl->name, text, len);
    pl->name[len] = '\0';
    pl->large = kind & 1;
    pl->remote = kind >> 1;
    return 0;
}

int plat_script_init(plat_t *p, char *err, size_t errlen) {
    for (unsigned i = 0; i < p->o.ncsr; i++) {
        if (parse_step(p->o.csr[i], &p->scr.steps[i], err, errlen) != 0)
            return -1;
        if (i > 0 && p->scr.steps[i].cycle < p->scr.steps[i - 1].cycle) {
            snprintf(err, errlen, "--csr %s: steps must be given in cycle order", p->o.csr[i]);
            return -1;
        }
    }
    p->scr.nsteps = p->o.ncsr;
    for (unsigned i = 0; i < p->o.npreload; i++)
        if (parse_preload(p->o.preload[i], &p->scr.preloads[i], err, errlen) != 0)
            return -1;
    p->scr.npreloads = p->o.npreload;
    if (p->scr.npreloads && p->cfg->pt_pages < PLAT_PRELOAD_PT_PAGES + GMMU_PT_LEVELS) {
        snprintf(err, errlen, "--preload needs pt_pages >= %u (%u are kept for the platform)",
                 PLAT_PRELOAD_PT_PAGES + GMMU_PT_LEVELS, PLAT_PRELOAD_PT_PAGES);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* scripted CSR accesses                                                                      */

int plat_script_drive(plat_t *p, gmmu_in_t *in) {
    if (p->hd.csr_valid || p->scr.step_issued || p->scr.next_step >= p->scr.nsteps)
        return 0;
    plat_csr_step_t *st = &p->scr.steps[p->scr.next_step];
    if (p->now < st->cycle)
        return 0;
    in->csr_valid = 1;
    in->csr_write = (uint8_t)st->write;
    in->csr_addr = (uint16_t)st->addr;
    in->csr_wdata = st->write ? st->value : 0;
    st->done_at = p->now;
    p->scr.step_issued = 1;
    evr_add(&p->ring, p->now, st->write ? EVR_CSR_WR : EVR_CSR_RD, 0, 0, st->addr, st->value, 0);
    return 1;
}

static void step_fail(plat_t *p, const plat_csr_step_t *st, const char *what, uint32_t got) {
    char b[16];
    plat_perr(p, "csr script step %u (%s %s at cycle %llu, done at cycle %llu): %s (0x%x)",
              p->scr.next_step + 1u, st->write ? "write" : "read",
              hdrv_csr_name(st->addr, b, sizeof(b)), (unsigned long long)st->cycle,
              (unsigned long long)st->done_at, what, got);
    p->st.platform_errors++;
}

/* The outputs of the cycle after a scripted access: the read data, the events of its cycle. */
void plat_script_outputs(plat_t *p, const gmmu_out_t *o) {
    if (!p->scr.step_issued)
        return;
    plat_csr_step_t *st = &p->scr.steps[p->scr.next_step];
    if (st->write) {
        if (st->race_ev >= 0 && (st->done_at != st->cycle || !((o->ev >> st->race_ev) & 1u)))
            step_fail(p, st,
                      st->done_at != st->cycle ? "not done in its cycle (port busy)"
                                               : "the event did not happen in its cycle",
                      o->ev);
    } else if (!o->csr_rvalid)
        step_fail(p, st, "csr_rvalid_o is 0 one cycle after the read", 0);
    else if (st->check && (o->csr_rdata & st->mask) != st->value)
        step_fail(p, st, "read value differs from the expected one", o->csr_rdata);
    if (!st->write)
        st->got = o->csr_rdata;
    p->scr.step_issued = 0;
    p->scr.next_step++;
}

int plat_script_end(plat_t *p) {
    if (p->scr.next_step < p->scr.nsteps) {
        const plat_csr_step_t *st = &p->scr.steps[p->scr.next_step];
        plat_perr(p,
                  "csr script: %u of %u steps not done (next at cycle %llu); the run ended at "
                  "cycle %llu",
                  p->scr.nsteps - p->scr.next_step, p->scr.nsteps, (unsigned long long)st->cycle,
                  (unsigned long long)p->now);
        p->st.platform_errors++;
        return -1;
    }
    if (p->scr.nsteps && !p->o.quiet)
        fprintf(stderr, "gmmu-sim: csr script: %u steps done\n", p->scr.nsteps);
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* preloaded mappings                                                                         */

static uint64_t pt_index(uint64_t vpn, unsigned level) {
    return (vpn >> (GMMU_VPN_W - GMMU_PT_IDX_W * (level + 1u))) & ((1u << GMMU_PT_IDX_W) - 1u);
}

/* A page-table word of the platform's own mappings (the scoreboard sees it too). */
static void pl_write(plat_t *p, uint64_t pa, uint64_t v) {
    if (p->score)
        plat_score_pt_write(p->score, pa);
    (void)gpumem_write64(&p->gm, pa, v);
}

/* The table at `level` (1..3) on the walk path of vpn, made (zeroed, linked) if missing. */
static int pl_table(plat_t *p, uint64_t vpn, unsigned level, uint64_t *pa) {
    uint64_t table = p->gm.pt_base; /* the handler's root */
    for (unsigned l = 1; l <= level; l++) {
        const uint64_t key = (uint64_t)l << 40 | vpn >> (GMMU_VPN_W - GMMU_PT_IDX_W * l);
        uint64_t child = 0;
        if (!u64map_get(&p->scr.pl_tables, key, &child)) {
            if (p->scr.pl_pt_used >= PLAT_PRELOAD_PT_PAGES)
                return -1;
            child = p->gm.pt_base +
                    (p->cfg->pt_pages - PLAT_PRELOAD_PT_PAGES + p->scr.pl_pt_used++) * PLAT_PAGE;
            for (unsigned i = 0; i < 512u; i++)
                pl_write(p, child + 8u * i, 0);
            if (u64map_put(&p->scr.pl_tables, key, child) != 0)
                return -1;
            pl_write(p, table + 8u * pt_index(vpn, l - 1u), child | PTE_BIT(GMMU_PTE_V));
        }
        table = child;
    }
    *pa = table;
    return 0;
}

/* The next free platform frame (aligned to `align` frames), or 0. */
static uint64_t pl_frames(plat_t *p, uint64_t n, uint64_t align) {
    const uint64_t first = p->gm.data_base / PLAT_PAGE + p->scr.pl_frame_base;
    uint64_t f = (first + p->scr.pl_frames_used + align - 1u) / align * align;
    if (f + n > p->gm.data_base / PLAT_PAGE + p->gm.data_pages)
        return 0;
    p->scr.pl_frames_used = f + n - first;
    return f;
}

/* One allocation: every 2 MB region (large) or 4 KB page (nocache) mapped, content version 0;
 * remote: onto the pages' host frames (plat_host_frame) with APER, cacheable, no GPU frame. */
static int pl_map(plat_t *p, const plat_alloc_t *a, int large, int remote, char *err,
                  size_t errlen) {
    const uint64_t v0 = a->base / PLAT_PAGE, v1 = (a->base + a->size + PLAT_PAGE - 1) / PLAT_PAGE;
    const uint64_t w = (a->ro ? 0 : PTE_BIT(GMMU_PTE_W)) | (remote ? PTE_BIT(GMMU_PTE_APER) : 0);
    const uint64_t step = large ? REGION_PAGES : 1u;
    for (uint64_t vpn = v0; vpn < v1; vpn += step) {
        uint64_t table = 0;
        const uint64_t f = remote ? plat_host_frame(vpn) : pl_frames(p, step, step);
        if (!f || pl_table(p, vpn, large ? 2u : 3u, &table) != 0) {
            snprintf(err, errlen, "--preload %s: out of platform %s", a->name,
                     f ? "page-table pages" : "frames");
            return -1;
        }
        if (large) {
            uint64_t leaf = 0; /* the level-3 table of a large page: its entry 0 is the leaf */
            if (p->scr.pl_pt_used >= PLAT_PRELOAD_PT_PAGES) {
                snprintf(err, errlen, "--preload %s: out of platform page-table pages", a->name);
                return -1;
            }
            leaf = p->gm.pt_base +
                   (p->cfg->pt_pages - PLAT_PRELOAD_PT_PAGES + p->scr.pl_pt_used++) * PLAT_PAGE;
            pl_write(p, leaf, f * PLAT_PAGE | w | PTE_BIT(GMMU_PTE_V));
            pl_write(p, table + 8u * pt_index(vpn, 2u),
                     leaf | PTE_BIT(GMMU_PTE_L) | PTE_BIT(GMMU_PTE_V));
        } else
            pl_write(p, table + 8u * pt_index(vpn, 3u),
                     f * PLAT_PAGE | w | (remote ? 0 : PTE_BIT(GMMU_PTE_D)) | PTE_BIT(GMMU_PTE_V));
        for (uint64_t i = 0; !remote && i < step; i++)
            gpumem_set_tag(&p->gm, f + i, hostmem_content_tag(vpn + i, 0));
    }
    return 0;
}

/* A preloaded allocation owns its 512 GB root slot of space 0's root table: the handler writes
 * a root entry only for the slots of its own (non-preloaded) allocations. */
static const char *pl_conflict(const plat_t *p, const plat_alloc_t *a) {
    const uint64_t slot = pt_index(a->base / PLAT_PAGE, 0);
    for (size_t i = 0; i < p->nalloc; i++) {
        const plat_alloc_t *b = &p->allocs[i];
        if (!b->preloaded && b->base >> TRACE_VA_BITS == 0 && /* other spaces: own roots */
            pt_index(b->base / PLAT_PAGE, 0) == slot)
            return b->name;
    }
    return NULL;
}

/* Allocation `name` of address space 0 (--preload maps space 0 only: docs/cosim.md), or NULL;
 * *space_of: the space of a same-named allocation elsewhere (UINT32_MAX: none). */
static plat_alloc_t *pl_find(plat_t *p, const char *name, uint32_t *space_of) {
    plat_alloc_t *a = NULL;
    *space_of = UINT32_MAX;
    for (size_t k = 0; k < p->nalloc; k++)
        if (strcmp(p->allocs[k].name, name) == 0) {
            const uint32_t space = (uint32_t)(p->allocs[k].base >> TRACE_VA_BITS);
            if (space == 0)
                a = &p->allocs[k];
            else
                *space_of = space;
        }
    return a;
}

int plat_preload(plat_t *p, char *err, size_t errlen) {
    for (unsigned i = 0; i < p->scr.npreloads; i++) {
        uint32_t space = 0;
        plat_alloc_t *a = pl_find(p, p->scr.preloads[i].name, &space);
        if (!a && space != UINT32_MAX) {
            snprintf(err, errlen,
                     "--preload %s: the allocation is in address space %u; --preload maps "
                     "allocations of address space 0 only",
                     p->scr.preloads[i].name, space);
            return -1;
        }
        if (!a) {
            snprintf(err, errlen, "--preload %s: no such allocation before the first kernel",
                     p->scr.preloads[i].name);
            return -1;
        }
        if (p->scr.preloads[i].large && a->base % (REGION_PAGES * PLAT_PAGE) != 0) {
            snprintf(err, errlen, "--preload %s:large: base 0x%llx is not 2 MB-aligned", a->name,
                     (unsigned long long)a->base);
            return -1;
        }
        /* a 2 MB page over a smaller tail would map bytes outside every allocation (issue 26) */
        if (p->scr.preloads[i].large && a->size % (REGION_PAGES * PLAT_PAGE) != 0) {
            snprintf(err, errlen,
                     "--preload %s:large: size 0x%llx is not a multiple of 2 MB (a 2 MB page "
                     "would map bytes outside the allocation); use %s:nocache",
                     a->name, (unsigned long long)a->size, a->name);
            return -1;
        }
        if (a->preloaded) { /* named twice: one mapping only (issue 26) */
            snprintf(err, errlen, "--preload %s: the allocation is preloaded twice; give one kind",
                     a->name);
            return -1;
        }
        a->preloaded = 1;
    }
    for (size_t k = 0; k < p->nalloc; k++) {
        const char *other = p->allocs[k].preloaded ? pl_conflict(p, &p->allocs[k]) : NULL;
        if (other) {
            snprintf(err, errlen,
                     "--preload %s: allocation %s shares its 512 GB page-table root slot (VA "
                     "bits 47:39); put preloaded allocations in a slot of their own",
                     p->allocs[k].name, other);
            return -1;
        }
    }
    for (unsigned i = 0; i < p->scr.npreloads; i++) {
        uint32_t space = 0;
        if (pl_map(p, pl_find(p, p->scr.preloads[i].name, &space), p->scr.preloads[i].large,
                   p->scr.preloads[i].remote, err, errlen) != 0)
            return -1;
    }
    p->scr.preload_done = p->scr.npreloads > 0;
    return 0;
}

uint64_t plat_preload_root(const plat_t *p, uint64_t pa, uint64_t value) {
    if (pa < p->gm.pt_base || pa >= p->gm.pt_base + PLAT_PAGE || value != 0)
        return value;
    const uint64_t slot = (pa - p->gm.pt_base) / 8u;
    uint64_t child = 0;
    return u64map_get(&p->scr.pl_tables, UINT64_C(1) << 40 | slot, &child)
               ? child | PTE_BIT(GMMU_PTE_V)
               : value;
}

/* A later allocation in the slot of a preloaded one: refused (the handler would relink it). */
int plat_preload_check_alloc(const plat_t *p, const char *name, uint64_t base, char *err,
                             size_t errlen) {
    if (!p->scr.preload_done || base >> TRACE_VA_BITS != 0) /* another space: its own root table */
        return 0;
    const uint64_t slot = pt_index(base / PLAT_PAGE, 0);
    for (size_t i = 0; i < p->nalloc; i++)
        if (p->allocs[i].preloaded && pt_index(p->allocs[i].base / PLAT_PAGE, 0) == slot) {
            snprintf(err, errlen,
                     "allocation %s shares the page-table root slot of the preloaded "
                     "allocation %s",
                     name, p->allocs[i].name);
            return -1;
        }
    return 0;
}
