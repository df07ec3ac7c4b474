/*
 * test_handler_block.c - the per-2 MB VA block (bitmaps, lookup, per-page fault records), the
 * event stream (subscription, masks, order, the statistics observer) and multi-page migration
 * (submit/commit of runs) of the host fault handler, against the fake device.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

/* ------------------------------------------------------------------------------------------ */
/* VA block                                                                                    */

static void test_bitmap_ops(void **state) {
    (void)state;
    uint64_t bm[UVM_BLOCK_WORDS] = {0};
    assert_int_equal(uvm_bitmap_count(bm, UVM_BLOCK_WORDS), 0);
    assert_int_equal(uvm_bitmap_next(bm, UVM_BLOCK_PAGES, 0), UVM_BLOCK_PAGES);
    const uint32_t set[] = {0, 63, 64, 200, 511};
    for (size_t i = 0; i < 5; i++)
        uvm_bitmap_set(bm, set[i]);
    assert_int_equal(uvm_bitmap_count(bm, UVM_BLOCK_WORDS), 5);
    uint32_t p = uvm_bitmap_next(bm, UVM_BLOCK_PAGES, 0);
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(p, set[i]);
        assert_true(uvm_bitmap_test(bm, set[i]));
        p = uvm_bitmap_next(bm, UVM_BLOCK_PAGES, p + 1u);
    }
    assert_int_equal(p, UVM_BLOCK_PAGES);
    assert_false(uvm_bitmap_test(bm, 1));
    assert_false(uvm_bitmap_test(bm, 65));
    uvm_bitmap_clear(bm, 63);
    assert_false(uvm_bitmap_test(bm, 63));
    assert_true(uvm_bitmap_test(bm, 64));
    assert_int_equal(uvm_bitmap_next(bm, UVM_BLOCK_PAGES, 1), 64);
    assert_int_equal(uvm_bitmap_next(bm, 100, 65), 100); /* 200 is beyond nbits */
    assert_int_equal(uvm_bitmap_count(bm, UVM_BLOCK_WORDS), 4);
}

static void test_block_lookup(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fx_start(x);
    uvm_handler_t *h = x->h;
    assert_null(uvm_va_block_get(h, VPN0, false));
    uvm_va_block_t *b = uvm_va_block_get(h, VPN0 + 5, true);
    assert_non_null(b);
    assert_int_equal(b->id, VPN0 >> 9);
    assert_ptr_equal(uvm_va_block_get(h, VPN0 + 511, false), b);
    uvm_va_block_t *c = uvm_va_block_get(h, VPN0 + 512, true);
    assert_non_null(c);
    assert_ptr_not_equal(c, b);
    assert_false(uvm_va_block_resident(h, VPN0 + 5, NULL));
    uvm_va_block_fault(b, VPN0 + 5, 77);
    uvm_va_block_fault(b, VPN0 + 5, 99);
    assert_int_equal(b->fault_count[5], 2);
    assert_int_equal(b->last_fault[5], 99);
    assert_true(uvm_bitmap_test(b->faulted, 5));
    b->policy_priv[UVM_POLICY_PREFETCH] = malloc(16); /* freed with the block */
    fx_done(x);
}

/* Servicing fills the block: resident bits and frames agree with the page table; per-page fault
 * counts and times; the faulted bitmap is only live during the service; eviction clears. */
static void test_block_tracks_service(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 3;
    fx_start(x);
    fake_t *f = &x->fk;
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    fk_post(f, VPN0 + 7, GMMU_AT_WRITE);
    fk_post(f, VPN0 + 1, GMMU_AT_READ); /* duplicate: coalesced, counts once */
    uvm_handler_service(x->h);
    const uvm_va_block_t *b = uvm_va_block_get(x->h, VPN0, false);
    assert_non_null(b);
    assert_int_equal(uvm_bitmap_count(b->resident, UVM_BLOCK_WORDS), 2);
    assert_int_equal(uvm_bitmap_count(b->faulted, UVM_BLOCK_WORDS), 0);
    const uint32_t pages[2] = {1, 7};
    for (int i = 0; i < 2; i++) {
        uint32_t fr = UVM_NONE;
        assert_true(uvm_va_block_resident(x->h, VPN0 + pages[i], &fr));
        assert_int_equal(fr, b->frame[pages[i]]);
        const uint64_t leaf = walk(f, VPN0 + pages[i], NULL);
        assert_int_equal(leaf & PPN_MASK, DATA_BASE + fr * PAGE);
        assert_int_equal(b->fault_count[pages[i]], 1);
    }
    assert_int_equal(b->last_fault[1], 0); /* the earliest of the coalesced entries */
    assert_int_equal(b->last_fault[7], 10);
    /* a stale fault counts too; two new pages: the free frame, then the oldest (page 1) */
    assert_int_equal(uvm_handler_add_alloc(x->h, "b", ALLOC_BASE + 512 * PAGE, 4 * PAGE, 0, x->err,
                                           sizeof x->err),
                     0);
    f->now = 5000;
    fk_post(f, VPN0 + 7, GMMU_AT_READ);
    fk_post(f, VPN0 + 512, GMMU_AT_READ);
    fk_post(f, VPN0 + 513, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(b->fault_count[7], 2);
    assert_int_equal(b->last_fault[7], 5000);
    assert_false(uvm_va_block_resident(x->h, VPN0 + 1, NULL));
    assert_true(uvm_va_block_resident(x->h, VPN0 + 7, NULL));
    assert_int_equal(uvm_bitmap_count(b->resident, UVM_BLOCK_WORDS), 1);
    const uvm_va_block_t *c = uvm_va_block_get(x->h, VPN0 + 512, false);
    assert_non_null(c);
    assert_int_equal(uvm_bitmap_count(c->resident, UVM_BLOCK_WORDS), 2);
    assert_int_equal(c->frame[1], 0); /* page 513 took the evicted frame */
    assert_int_equal(st(x)->evictions, 1);
    fx_done(x);
}

/* A prefetch policy's hint is migrated with the faulted pages (same block, same commit), except
 * pages outside every allocation, faulted or already resident; a thrashing policy observes every
 * fault that is not cancelled (BLOCK_FAULT) and is asked for a hint on the faulting pages that
 * are not resident. The policies are test doubles installed in the handler. */
static void hint_pages(uvm_handler_t *h, const uvm_prefetch_ctx_t *c,
                       uint64_t hint[UVM_BLOCK_WORDS]) {
    (void)h;
    assert_true(uvm_bitmap_test(c->faulted, 10)); /* the input: this batch's faulted pages */
    assert_false(uvm_bitmap_test(c->faulted, 3)); /* resident: not a demand page */
    assert_true(uvm_bitmap_test(c->blk->faulted, 3));
    assert_true(uvm_bitmap_test(c->managed, 255)); /* "a" is 1 MB: pages 0..255 */
    assert_false(uvm_bitmap_test(c->managed, 256));
    const uint32_t pages[] = {10, 11, 12, 3, 300}; /* faulted, 2 new, resident, outside "a" */
    for (size_t i = 0; i < 5; i++)
        uvm_bitmap_set(hint, pages[i]);
}

/* counts the faults it observes ([0]) and the hints it is asked for ([1]) in its priv */
static int count_init(uvm_handler_t *h, void **priv) {
    (void)h;
    *priv = calloc(2, sizeof(uint32_t));
    return *priv ? 0 : -1;
}

static void count_observe(void *priv, const uvm_event_t *ev) {
    uint32_t *calls = priv;
    assert_int_equal(ev->kind, UVM_EVENT_BLOCK_FAULT);
    calls[0]++;
}

static uvm_thrash_hint_t count_hint(uvm_handler_t *h, void *priv, uint64_t vpn) {
    const uvm_va_block_t *blk = uvm_va_block_get(h, vpn, false);
    assert_int_equal(blk->fault_count[uvm_block_page(vpn)] > 0, 1);
    uint32_t *calls = priv;
    calls[1]++;
    return (uvm_thrash_hint_t){UVM_THRASH_NONE, 0};
}

static void test_prefetch_and_thrashing_hooks(void **state) {
    (void)state;
    static const uvm_prefetch_ops_t pf = {"test_hint", NULL, NULL, hint_pages, NULL};
    static const uvm_thrashing_ops_t th = {"test_count",  count_init,
                                           free,          UVM_EVENT_MASK(UVM_EVENT_BLOCK_FAULT),
                                           count_observe, count_hint};
    fx_t *x = fx_new();
    fx_start(x);
    fake_t *f = &x->fk;
    fk_post(f, VPN0 + 3, GMMU_AT_READ);
    uvm_handler_service(x->h); /* page 3 resident, with the "none" policies: 1 DMA */
    assert_int_equal(f->ndma, 1);
    x->h->prefetch = &pf;
    assert_int_equal(uvm_thrashing_set_ops(x->h, &th), 0);
    assert_int_equal(uvm_thrashing_set_ops(x->h, &th), -1); /* replaces only a silent policy */
    uvm_va_block_t *b = uvm_va_block_get(x->h, VPN0, false);
    assert_non_null(b);
    const uint32_t *calls = x->h->thrashing_priv;
    fk_post(f, VPN0 + 10, GMMU_AT_WRITE);
    fk_post(f, VPN0 + 3, GMMU_AT_READ);
    fk_post(f, VPN0 + 400, GMMU_AT_READ); /* outside "a": cancelled, not seen by thrashing */
    uvm_handler_service(x->h);
    assert_int_equal(calls[0], 2); /* pages 10 and 3 observed */
    assert_int_equal(calls[1], 1); /* a hint for 10 only: 3 is resident */
    assert_int_equal(st(x)->cancels, 1);
    assert_int_equal(st(x)->pages_h2d, 1 + 3); /* 10 (faulted), 11 and 12 (hinted) */
    assert_int_equal(f->ndma, 4);
    assert_int_equal(f->dma[2].src, ALLOC_BASE + 11 * PAGE);
    assert_int_equal(f->dma[3].src, ALLOC_BASE + 12 * PAGE);
    for (uint32_t p = 10; p <= 12; p++)
        assert_true(walk(f, VPN0 + p, NULL) & PTE_V_BIT);
    assert_int_equal(walk(f, VPN0 + 300, NULL), 0);
    assert_int_equal(b->fault_count[11], 0); /* prefetched, never faulted */
    assert_int_equal(uvm_bitmap_count(b->resident, UVM_BLOCK_WORDS), 4);
    fx_done(x);
}

/* ------------------------------------------------------------------------------------------ */
/* event stream                                                                                */

typedef struct {
    uvm_event_t ev[64];
    int who[64];
    size_t n;
} evlog_t;

typedef struct {
    evlog_t *log;
    int id;
} obs_t;

static void record(void *ctx, const uvm_event_t *ev) {
    const obs_t *o = ctx;
    assert_true(o->log->n < 64);
    o->log->who[o->log->n] = o->id;
    o->log->ev[o->log->n++] = *ev;
}

static size_t count_kind(const evlog_t *l, int who, uvm_event_kind_t k) {
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        n += l->who[i] == who && l->ev[i].kind == k;
    return n;
}

static void test_events_subscribe(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 1;
    fx_start(x);
    evlog_t log = {0};
    obs_t all = {&log, 1}, evict_only = {&log, 2};
    const uint32_t every = UVM_EVENT_MASK(UVM_EVENT_FAULT) | UVM_EVENT_MASK(UVM_EVENT_MIGRATE) |
                           UVM_EVENT_MASK(UVM_EVENT_EVICT) | UVM_EVENT_MASK(UVM_EVENT_REPLAY);
    assert_int_equal(uvm_handler_subscribe(x->h, every, record, &all), 0);
    assert_int_equal(
        uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT), record, &evict_only), 0);
    /* bad arguments */
    assert_int_equal(uvm_handler_subscribe(NULL, every, record, &all), -1);
    assert_int_equal(uvm_handler_subscribe(x->h, every, NULL, &all), -1);
    assert_int_equal(uvm_handler_subscribe(x->h, 0, record, &all), -1);
    assert_int_equal(uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_KINDS), record, &all),
                     -1);
    fake_t *f = &x->fk;
    fk_post(f, VPN0 + 3, GMMU_AT_WRITE);
    fk_post(f, VPN0 + 3, GMMU_AT_READ);
    uvm_handler_service(x->h);
    /* 2 fetched entries, 1 migration, 1 REPLAY_ALL (batch_flush); nothing for observer 2 */
    assert_int_equal(log.n, 4);
    assert_int_equal(log.ev[0].kind, UVM_EVENT_FAULT);
    assert_int_equal(log.ev[0].fault.vpn, VPN0 + 3);
    assert_int_equal(log.ev[0].fault.access, GMMU_AT_WRITE);
    assert_int_equal(log.ev[1].kind, UVM_EVENT_FAULT);
    assert_int_equal(log.ev[2].kind, UVM_EVENT_MIGRATE);
    assert_int_equal(log.ev[2].migrate.dir, UVM_DMA_H2D);
    assert_int_equal(log.ev[2].migrate.pages, 1);
    assert_int_equal(log.ev[2].migrate.frame, 0);
    assert_int_equal(log.ev[3].kind, UVM_EVENT_REPLAY);
    assert_int_equal(log.ev[3].replay.pages, 0);
    /* a second page evicts the first (writable: write-back): observer 1 then observer 2 */
    log.n = 0;
    fk_post(f, VPN0 + 4, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(count_kind(&log, 1, UVM_EVENT_FAULT), 1);
    assert_int_equal(count_kind(&log, 1, UVM_EVENT_MIGRATE), 2); /* D2H write-back + H2D */
    assert_int_equal(count_kind(&log, 1, UVM_EVENT_EVICT), 1);
    assert_int_equal(count_kind(&log, 2, UVM_EVENT_EVICT), 1);
    assert_int_equal(count_kind(&log, 2, UVM_EVENT_MIGRATE), 0);
    size_t ei = 0;
    while (log.ev[ei].kind != UVM_EVENT_EVICT)
        ei++;
    assert_int_equal(log.who[ei], 1);
    assert_int_equal(log.who[ei + 1], 2);
    assert_int_equal(log.ev[ei].evict.vpn, VPN0 + 3);
    assert_int_equal(log.ev[ei].evict.writeback, 1);
    assert_int_equal(log.ev[ei - 1].kind, UVM_EVENT_MIGRATE);
    assert_int_equal(log.ev[ei - 1].migrate.dir, UVM_DMA_D2H);
    /* the statistics are an observer of the same stream */
    assert_int_equal(st(x)->faults_fetched, 3);
    assert_int_equal(st(x)->pages_h2d, 2);
    assert_int_equal(st(x)->pages_d2h, 1);
    assert_int_equal(st(x)->bytes_d2h, PAGE);
    assert_int_equal(st(x)->evictions, 1);
    assert_int_equal(st(x)->replays, 2);
    /* the table is bounded: 2 subscribed (the statistics and the policies do not count), fill
     * the rest */
    for (int i = 2; i < UVM_EVENT_MAX_OBSERVERS; i++)
        assert_int_equal(uvm_handler_subscribe(x->h, every, record, &all), 0);
    assert_int_equal(uvm_handler_subscribe(x->h, every, record, &all), -1);
    fx_done(x);
}

/* ------------------------------------------------------------------------------------------ */
/* multi-page migration                                                                        */

static size_t count_dma(const fake_t *f, uvm_dma_dir_t dir) {
    size_t n = 0;
    for (size_t i = 0; i < f->ndma; i++)
        n += f->dma[i].dir == dir;
    return n;
}

/* Runs of consecutive pages in consecutive frames go as one transfer of up to
 * migrate_max_pages; a gap in the VPNs starts a new run; every DMA is waited once before the
 * first PTE of the block is written; each page is mapped to its frame. */
static void test_migrate_runs(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.migrate_max_pages = 4;
    x->cfg.batch_size = 16;
    fx_start(x);
    fake_t *f = &x->fk;
    f->max_dma_bytes = 4 * PAGE;
    const uint32_t pg[] = {0, 1, 2, 3, 4, 5, 9, 10};
    for (size_t i = 0; i < 8; i++) {
        f->host_tag[pg[i]] = 1000 + i;
        fk_post(f, VPN0 + pg[i], GMMU_AT_READ);
    }
    uvm_handler_service(x->h);
    /* runs: [0..3] [4,5] [9,10] */
    assert_int_equal(count_dma(f, UVM_DMA_H2D), 3);
    assert_int_equal(f->dma[0].bytes, 4 * PAGE);
    assert_int_equal(f->dma[0].src, ALLOC_BASE);
    assert_int_equal(f->dma[0].dst, DATA_BASE);
    assert_int_equal(f->dma[1].bytes, 2 * PAGE);
    assert_int_equal(f->dma[1].src, ALLOC_BASE + 4 * PAGE);
    assert_int_equal(f->dma[2].bytes, 2 * PAGE);
    assert_int_equal(f->dma[2].src, ALLOC_BASE + 9 * PAGE);
    assert_int_equal(f->dma[2].dst, DATA_BASE + 6 * PAGE);
    assert_int_equal(st(x)->pages_h2d, 8);
    assert_int_equal(st(x)->bytes_h2d, 8 * PAGE);
    /* commit: every DMA is waited for before the first PTE (non-zero GPU write) */
    size_t last_wait = 0, first_pte = SIZE_MAX;
    for (size_t i = 0; i < f->nev; i++) {
        if (f->ev[i].k == EV_DMA_WAIT)
            last_wait = i;
        if (f->ev[i].k == EV_GPU_W && f->ev[i].b != 0 && first_pte == SIZE_MAX)
            first_pte = i;
    }
    assert_int_not_equal(first_pte, SIZE_MAX);
    assert_true(last_wait < first_pte);
    for (size_t i = 0; i < f->ndma; i++)
        assert_int_not_equal(f->dma[i].ev_wait, SIZE_MAX);
    for (size_t i = 0; i < 8; i++) {
        const uint64_t leaf = walk(f, VPN0 + pg[i], NULL);
        assert_true(leaf & PTE_V_BIT);
        const uint64_t fr = ((leaf & PPN_MASK) - DATA_BASE) / PAGE;
        assert_int_equal(fr, i);
        assert_int_equal(f->frame_tag[fr], 1000 + i); /* the data arrived */
    }
    fx_done(x);
}

/* A run ends where the frames stop being consecutive, even if the pages go on: one DMA writes
 * consecutive frames, so pages 0..3 in frames 0, 1, 5, 6 are two transfers, and each page's data
 * lands in the frame its PTE names. */
static void test_migrate_run_frame_gap(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.migrate_max_pages = 4;
    fx_start(x);
    fake_t *f = &x->fk;
    f->max_dma_bytes = 4 * PAGE;
    const uint32_t frame[4] = {0, 1, 5, 6};
    for (uint32_t i = 0; i < 4; i++) {
        f->host_tag[i] = 2000 + i;
        uvm_migrate_add(x->h, VPN0 + i, frame[i], true);
    }
    uvm_migrate_flush(x->h);
    assert_int_equal(count_dma(f, UVM_DMA_H2D), 2);
    assert_int_equal(f->dma[0].src, ALLOC_BASE);
    assert_int_equal(f->dma[0].dst, DATA_BASE);
    assert_int_equal(f->dma[0].bytes, 2 * PAGE);
    assert_int_equal(f->dma[1].src, ALLOC_BASE + 2 * PAGE);
    assert_int_equal(f->dma[1].dst, DATA_BASE + 5 * PAGE);
    assert_int_equal(f->dma[1].bytes, 2 * PAGE);
    assert_int_equal(f->dma_bad, 0);
    for (uint32_t i = 0; i < 4; i++) {
        const uint64_t leaf = walk(f, VPN0 + i, NULL);
        assert_true(leaf & PTE_V_BIT);
        assert_int_equal(((leaf & PPN_MASK) - DATA_BASE) / PAGE, frame[i]);
        assert_int_equal(f->frame_tag[frame[i]], 2000 + i);
    }
    fx_done(x);
}

/* The default (1 page): every page is its own 4 KB transfer, submitted right after its
 * t_page_ns, in page order. */
static void test_migrate_default_single_pages(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fx_start(x);
    fake_t *f = &x->fk;
    for (uint32_t i = 0; i < 3; i++)
        fk_post(f, VPN0 + i, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(f->ndma, 3);
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(f->dma[i].bytes, PAGE);
        assert_int_equal(f->dma[i].src, ALLOC_BASE + i * PAGE);
        assert_true(f->dma[i].ev_submit < f->dma[(i + 1) % 3].ev_submit || i == 2);
    }
    /* all three submitted before the first wait (the block is submitted, then committed) */
    assert_true(f->dma[2].ev_submit < f->dma[0].ev_wait);
    fx_done(x);
}

/* copy_wait: one batch of two faults in two VA blocks (1 page each), one link (the fake's
 * timeline: DMA_NS per page), t_block_ns 1000, t_page_ns 500, no other CPU cost. Returns the
 * handler's end time; *t_sub / *t_done: the two copies' submit and completion times. */
static uint64_t two_block_batch(uvm_copy_wait_t mode, uint64_t t_sub[2], uint64_t t_done[2]) {
    fx_t *x = fx_new();
    x->cfg.copy_wait = mode;
    x->cfg.t_irq_ns = x->cfg.t_batch_ns = x->cfg.t_fault_ns = x->cfg.t_pte_ns = 0;
    x->cfg.t_block_ns = 1000;
    x->cfg.t_page_ns = 500;
    fx_start(x);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "b", ALLOC_BASE + 0x200000, 0x100000, 0, x->err, sizeof x->err),
        0);
    fake_t *f = &x->fk;
    f->dma_timeline = 1;
    f->host_tag[0] = 7;
    f->host_tag[512] = 9;
    fk_post(f, VPN0, GMMU_AT_READ);
    fk_post(f, VPN0 + 512, GMMU_AT_READ);
    f->nev = 0;
    const uint64_t t0 = f->now;
    uvm_handler_service(x->h);
    assert_int_equal(f->ndma, 2);
    size_t last_wait = 0, first_pte = SIZE_MAX, first_cmd = SIZE_MAX;
    for (size_t i = 0; i < f->nev; i++) {
        if (f->ev[i].k == EV_DMA_WAIT)
            last_wait = i;
        if (f->ev[i].k == EV_GPU_W && f->ev[i].b != 0 && first_pte == SIZE_MAX)
            first_pte = i;
    }
    for (size_t i = 0; i < f->ncmd; i++)
        if (f->cmd[i].ev < first_cmd)
            first_cmd = f->cmd[i].ev;
    /* both pages mapped to the data the copies brought, the replay after every wait */
    for (uint32_t i = 0; i < 2; i++) {
        const uint64_t leaf = walk(f, VPN0 + 512 * i, NULL);
        assert_true(leaf & PTE_V_BIT);
        assert_int_equal(f->frame_tag[((leaf & PPN_MASK) - DATA_BASE) / PAGE], i ? 9 : 7);
        t_sub[i] = f->dma[i].t_submit - t0;
        t_done[i] = f->dma[i].t_done - t0;
    }
    assert_int_not_equal(first_cmd, SIZE_MAX);
    assert_true(last_wait < first_cmd);
    if (mode == UVM_COPY_WAIT_BATCH) {
        /* no wait and no PTE before the second block's copy is submitted */
        assert_true(f->dma[1].ev_submit < f->dma[0].ev_wait);
        assert_true(f->dma[1].ev_submit < first_pte);
    } else {
        assert_true(f->dma[0].ev_wait < f->dma[1].ev_submit);
        assert_true(first_pte < f->dma[1].ev_submit);
    }
    const uint64_t end = f->dma[1].t_done - t0;
    fx_done(x);
    return end;
}

/* block: A's CPU 1500, its copy 1500..3770 waited; B's CPU 3770..5270, copy ..7540.
 * batch: B's CPU (1500..3000) overlaps A's copy; B's copy waits for the link (3770..6040). */
static void test_copy_wait_timeline(void **state) {
    (void)state;
    uint64_t s[2], d[2];
    assert_int_equal(two_block_batch(UVM_COPY_WAIT_BLOCK, s, d), 1500 + DMA_NS + 1500 + DMA_NS);
    assert_int_equal(s[0], 1500);
    assert_int_equal(s[1], 1500 + DMA_NS + 1500);
    assert_int_equal(two_block_batch(UVM_COPY_WAIT_BATCH, s, d), 1500 + 2 * DMA_NS);
    assert_int_equal(s[0], 1500);
    assert_int_equal(s[1], 3000); /* submitted while A's copy is on the link */
    assert_int_equal(d[0], 1500 + DMA_NS);
    assert_int_equal(d[1], 1500 + 2 * DMA_NS);
}

/* a copy_wait value that is neither block nor batch is refused with a message naming it */
static void test_copy_wait_bad_value(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.copy_wait = (uvm_copy_wait_t)2;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "copy_wait"));
    free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bitmap_ops),
        cmocka_unit_test(test_block_lookup),
        cmocka_unit_test(test_block_tracks_service),
        cmocka_unit_test(test_prefetch_and_thrashing_hooks),
        cmocka_unit_test(test_events_subscribe),
        cmocka_unit_test(test_migrate_runs),
        cmocka_unit_test(test_migrate_run_frame_gap),
        cmocka_unit_test(test_migrate_default_single_pages),
        cmocka_unit_test(test_copy_wait_timeline),
        cmocka_unit_test(test_copy_wait_bad_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
