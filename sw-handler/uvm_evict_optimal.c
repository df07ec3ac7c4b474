/*
 * uvm_evict_optimal.c - eviction policy "optimal": Belady's MIN, an upper bound like Zheng et
 * al.'s oracle (docs/handler.md §6t). The victim is the resident page not pinned in the current
 * block whose next use is the farthest in the future; a page never used again goes first (ties:
 * the older migration). No driver can know the future: it is an ORACLE from the trace. The
 * platform reads the trace ahead once (cosim/plat_oracle.c) and gives the handler every use of a
 * page in file order (uvm_handler_set_page_uses: one entry per distinct page per memory record,
 * as an SM coalesces an instruction's lanes), asked for by UVM_POLICY_PROP_NEXT_USE. The run
 * consumes the uses page by page: each translation an SM uses (uvm_handler_note_access, also an
 * oracle: UVM_POLICY_PROP_ACCESS_ORACLE) moves that page's cursor to its next use, so the next
 * use of a resident page is the position of its first unconsumed use. The warps' interleaving
 * is the simulation's, not file order: across pages, positions are file order (an
 * approximation of the run's order that the first pass cannot do better without running it).
 * Without uses (no set call: the FPGA backend, unit tests) every page is "never used again" and
 * the victim is the oldest migration. pick(gran): the aligned group of gran frames of the
 * first such page that uvm_evict_group_ok accepts (the scan of lru_oracle and lfu).
 */
#include <stdlib.h>

#include "err.h"
#include "uvm_priv.h"

#define OPT_NEVER UINT64_MAX

typedef struct {
    uvm_handler_t *h;
    u64map_t idx;    /* vpn -> page index k */
    uint64_t *start; /* uses of page k: pos[start[k] .. start[k + 1]) */
    uint64_t *pos;   /* use positions (file order), grouped by page */
    uint64_t *cur;   /* page k's consumed uses */
    size_t npages;
    bool have; /* uses were given */
} opt_t;

static void opt_clear(opt_t *o) {
    if (o->have)
        u64map_free(&o->idx);
    free(o->start);
    free(o->pos);
    free(o->cur);
    o->start = o->pos = o->cur = NULL;
    o->npages = 0;
    o->have = false;
}

static int opt_init(uvm_handler_t *h, void **priv) {
    opt_t *o = calloc(1, sizeof *o);
    if (!o)
        return -1;
    o->h = h;
    *priv = o;
    return 0;
}

static void opt_fini(void *priv) {
    opt_t *o = priv;
    if (!o)
        return;
    opt_clear(o);
    free(o);
}

/* The position of vpn's next unconsumed use; OPT_NEVER if none (or no uses given). */
static uint64_t next_use(const opt_t *o, uint64_t vpn) {
    uint64_t k = 0;
    if (!o->have || !u64map_get(&o->idx, vpn, &k))
        return OPT_NEVER;
    const uint64_t at = o->start[k] + o->cur[k];
    return at < o->start[k + 1] ? o->pos[at] : OPT_NEVER;
}

/* A page got a frame: a page faulted in the batch being serviced is used now (its faulting use,
 * the current reference of Belady's stream, until the replayed access is noted: never the
 * victim before it); a page brought in otherwise (prefetch) is next used at its first unconsumed
 * use. */
static void opt_observe(void *priv, const uvm_event_t *ev) {
    const opt_t *o = priv;
    for (uint32_t i = 0; i < ev->page.pages; i++) {
        uvm_frame_t *fr = &o->h->frames[ev->page.frame + i];
        const uvm_va_block_t *blk = uvm_va_block_get(o->h, fr->vpn, false);
        const bool now = blk && uvm_bitmap_test(blk->faulted, uvm_block_page(fr->vpn));
        fr->next_use = now ? 0 : next_use(o, fr->vpn);
    }
}

/* The access oracle of lru_oracle, lfu and optimal: the time and count of the frame's accesses;
 * with optimal, the page's use is consumed and its next use moves on. */
void uvm_handler_note_access(uvm_handler_t *h, uint64_t frame_pa, uint64_t now_ns) {
    if (frame_pa < h->cfg.gpu_data_base_pa)
        return;
    const uint64_t f = (frame_pa - h->cfg.gpu_data_base_pa) >> GMMU_PAGE_SHIFT;
    if (f >= h->cfg.gpu_data_pages || !h->frames[f].resident)
        return;
    uvm_frame_t *fr = &h->frames[f];
    fr->access_ns = now_ns;
    fr->accesses++;
    if (h->cfg.count_unused == UVM_UNUSED_ORACLE)
        fr->used = true; /* §6z: acc counts the walker's ACC only */
    if (h->evict != &uvm_evict_optimal_ops)
        return;
    opt_t *o = h->evict_priv;
    uint64_t k = 0;
    if (o->have && u64map_get(&o->idx, fr->vpn, &k) && o->start[k] + o->cur[k] < o->start[k + 1])
        o->cur[k]++;
    fr->next_use = next_use(o, fr->vpn);
}

int uvm_handler_set_page_uses(uvm_handler_t *h, const uint64_t *vpns, size_t n, char *err,
                              size_t errlen) {
    if (!h || (n > 0 && !vpns)) {
        err_setf(err, errlen, "uvm: set_page_uses: no handler or no pages");
        return -1;
    }
    if (h->evict != &uvm_evict_optimal_ops) {
        err_setf(err, errlen, "uvm: set_page_uses: evict_policy '%s' takes no page uses",
                 h->evict->name);
        return -1;
    }
    opt_t *o = h->evict_priv;
    opt_clear(o);
    (void)u64map_init(&o->idx, 0); /* never fails with 0: it grows with the distinct pages */
    o->have = true;
    /* pass 1: page indices and use counts (in cur); pass 2: positions grouped by page */
    uint64_t *cnt = calloc(n + 1, sizeof *cnt);
    o->pos = malloc((n > 0 ? n : 1u) * sizeof *o->pos);
    int rc = cnt && o->pos ? 0 : -1;
    for (size_t i = 0; i < n && rc == 0; i++) {
        uint64_t k = o->npages;
        if (u64map_get(&o->idx, vpns[i], &k))
            cnt[k]++;
        else if (u64map_put(&o->idx, vpns[i], k) == 0)
            cnt[o->npages++]++;
        else
            rc = -1;
    }
    if (rc == 0) {
        o->start = malloc((o->npages + 1) * sizeof *o->start);
        o->cur = calloc(o->npages + 1, sizeof *o->cur);
        rc = o->start && o->cur ? 0 : -1;
    }
    if (rc == 0) {
        o->start[0] = 0;
        for (size_t k = 0; k < o->npages; k++)
            o->start[k + 1] = o->start[k] + cnt[k];
        for (size_t i = 0; i < n; i++) {
            uint64_t k = 0;
            (void)u64map_get(&o->idx, vpns[i], &k);
            o->pos[o->start[k] + o->cur[k]++] = i;
        }
        for (size_t k = 0; k < o->npages; k++)
            o->cur[k] = 0;
        for (uint32_t f = 0; f < h->cfg.gpu_data_pages; f++)
            if (h->frames[f].resident)
                h->frames[f].next_use = next_use(o, h->frames[f].vpn);
    }
    free(cnt);
    if (rc != 0) {
        opt_clear(o);
        err_setf(err, errlen, "uvm: set_page_uses: out of memory for %zu uses", n);
    }
    return rc;
}

/* a is the better victim: used later (never = the latest), ties the older migration */
static bool later(const uvm_frame_t *a, const uvm_frame_t *b) {
    return a->next_use > b->next_use || (a->next_use == b->next_use && a->mig_seq < b->mig_seq);
}

static uint32_t opt_pick(uvm_handler_t *h, void *priv, uint32_t gran_pages) {
    (void)priv;
    return uvm_evict_scan_pick(h, gran_pages, later);
}

const uvm_evict_ops_t uvm_evict_optimal_ops = {
    "optimal",   opt_init, opt_fini, UVM_EVENT_MASK(UVM_EVENT_RESIDENT),
    opt_observe, opt_pick, false,    NULL};
