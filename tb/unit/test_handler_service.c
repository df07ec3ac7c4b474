/*
 * test_handler_service.c - cmocka tests of the host fault handler (sw-handler/) against the
 * fake device (test_handler_fake.h): batches, cost model, replay policies, fatal faults, the ring,
 * overflow and page-table pool exhaustion.
 */
#include "test_handler_fake.h"

/* ------------------------------------------------------------------------------------------ */
/* servicing                                                                                   */

static void test_batch_coalesce_sort_dma_pte(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fx_start(x);
    fake_t *f = &x->fk;
    fk_post(f, VPN0 + 5, GMMU_AT_READ);
    fk_post(f, VPN0 + 3, GMMU_AT_READ);
    fk_post(f, VPN0 + 5, GMMU_AT_WRITE);
    fk_post(f, VPN0 + 4, GMMU_AT_PREFETCH);
    fk_post(f, VPN0 + 3, GMMU_AT_READ);
    uvm_handler_service(x->h);

    const uvm_stats_t *s = st(x);
    assert_int_equal(s->irqs, 1);
    assert_int_equal(s->fault_batches, 1);
    assert_int_equal(s->faults_fetched, 5);
    assert_int_equal(s->faults_duplicate, 2);
    assert_int_equal(s->pages_h2d, 3);
    assert_int_equal(s->bytes_h2d, 3 * PAGE);
    assert_int_equal(s->data_pages_resident, 3);
    assert_int_equal(s->pt_pages_used, 4);
    assert_int_equal(s->pte_writes, 3 + 3); /* 3 parents on the new chain + 3 leaves */

    /* one H2D per distinct page, sorted by VPN, all submitted before the first wait */
    assert_int_equal(f->ndma, 3);
    size_t first_wait = SIZE_MAX;
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(f->dma[i].dir, UVM_DMA_H2D);
        assert_int_equal(f->dma[i].src, (VPN0 + 3 + i) << 12);
        assert_int_equal(f->dma[i].dst, DATA_BASE + i * PAGE);
        assert_int_equal(f->dma[i].bytes, PAGE);
        if (f->dma[i].ev_wait < first_wait)
            first_wait = f->dma[i].ev_wait;
    }
    for (size_t i = 0; i < 3; i++)
        assert_true(f->dma[i].ev_submit < first_wait);

    /* the PTE chain: each leaf maps the frame, W since "a" is writable */
    for (uint64_t i = 0; i < 3; i++) {
        uint64_t leaf_pa;
        const uint64_t leaf = walk(f, VPN0 + 3 + i, &leaf_pa);
        assert_int_equal(leaf, (DATA_BASE + i * PAGE) | PTE_V_BIT | PTE_W_BIT);
        /* the leaf is written only after the page's DMA completed */
        const size_t lw = ev_find(f, 0, EV_GPU_W, leaf_pa, 1, leaf);
        assert_true(lw != SIZE_MAX && lw > f->dma[i].ev_wait);
    }
    /* each intermediate table was zeroed before its parent entry pointed at it */
    uint64_t leaf_pa;
    walk(f, VPN0 + 3, &leaf_pa);
    const uint64_t l3_table = leaf_pa & PPN_MASK;
    const size_t zeroed = ev_find(f, 0, EV_GPU_W, l3_table + 8 * 511, 1, 0);
    size_t parent = SIZE_MAX;
    for (size_t i = 0; i < f->nev; i++)
        if (f->ev[i].k == EV_GPU_W && f->ev[i].b == (l3_table | PTE_V_BIT)) {
            parent = i;
            break;
        }
    assert_true(zeroed != SIZE_MAX && parent != SIZE_MAX && zeroed < parent);

    /* ring consumed: VALID cleared, GET advanced and written */
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(ring_flags(f, i) >> GMMU_FB_F_VALID, 0);
    assert_int_equal(f->get, 5);
    /* default BATCH_FLUSH: one REPLAY_ALL */
    assert_int_equal(f->ncmd, 1);
    assert_int_equal(f->cmd[0].op, GMMU_CMD_REPLAY_ALL);
    fx_done(x);
}

static void test_cost_model_unloaded_fault(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fx_start(x);
    fake_t *f = &x->fk;
    fk_post(f, VPN0, GMMU_AT_READ);
    const uint64_t t0 = f->now;
    uvm_handler_service(x->h);
    /* irq + batch + 1 fault + 1 page + DMA + 4 PTE writes (3 new tables + leaf) */
    const uint64_t expect = 4000 + 8600 + 500 + 3000 + DMA_NS + 4 * 250;
    assert_int_equal(f->now - t0, expect);
    /* a warm second fault in the same 2 MB block costs one PTE write only */
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    const uint64_t t1 = f->now;
    uvm_handler_service(x->h);
    assert_int_equal(f->now - t1, 4000 + 8600 + 500 + 3000 + DMA_NS + 250);
    fx_done(x);
}

/* t_block_ns is charged once per VA block of a batch (two faults in one block, one in another) */
static void test_cost_model_block(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.t_block_ns = 7000;
    fx_start(x);
    fake_t *f = &x->fk;
    fk_post(f, VPN0, GMMU_AT_READ);
    const uint64_t t0 = f->now;
    uvm_handler_service(x->h);
    assert_int_equal(f->now - t0, 4000 + 8600 + 7000 + 500 + 3000 + DMA_NS + 4 * 250);
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    fk_post(f, VPN0 + 2, GMMU_AT_READ);
    fk_post(f, VPN0 + 512, GMMU_AT_READ);
    const uint64_t t1 = f->now;
    uvm_handler_service(x->h);
    /* two blocks of the batch, each charged once: VPN0+1 and VPN0+2 share the first (two pages,
     * two leaf PTEs); VPN0+512 is outside the 1 MB allocation (cancelled, no page) but its block
     * is serviced all the same */
    const uint64_t want = 4000 + 8600 + 3 * 500 + 2 * 7000 + 2 * (3000 + DMA_NS + 250);
    assert_int_equal(f->now - t1, want);
    fx_done(x);
}

/* t_block_first_ns: once per VA block, on its first service with a fault inside an allocation
 * (nvidia-uvm's first GPU touch); a later visit of the block pays t_block_ns only */
static void test_cost_model_block_first(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.t_block_ns = 7000;
    x->cfg.t_block_first_ns = 20000;
    fx_start(x);
    fake_t *f = &x->fk;
    fk_post(f, VPN0, GMMU_AT_READ);
    const uint64_t t0 = f->now;
    uvm_handler_service(x->h);
    assert_int_equal(f->now - t0, 4000 + 8600 + 7000 + 20000 + 500 + 3000 + DMA_NS + 4 * 250);
    /* the same block again, and a block outside the allocation (cancelled: no first touch) */
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    fk_post(f, VPN0 + 512, GMMU_AT_READ);
    const uint64_t t1 = f->now;
    uvm_handler_service(x->h);
    assert_int_equal(f->now - t1, 4000 + 8600 + 2 * 500 + 2 * 7000 + 3000 + DMA_NS + 250);
    fx_done(x);
}

/* t_pt_sync_ns: the first fault allocates the upper directories (levels 1 and 2) and waits once
 * for their push; a second fault in the same 2 MB block allocates nothing and does not wait */
static void test_cost_model_pt_sync(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.t_pt_sync_ns = 9000;
    fx_start(x);
    fake_t *f = &x->fk;
    fk_post(f, VPN0, GMMU_AT_READ);
    const uint64_t t0 = f->now;
    uvm_handler_service(x->h);
    assert_int_equal(f->now - t0, 4000 + 8600 + 500 + 3000 + DMA_NS + 4 * 250 + 9000);
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    const uint64_t t1 = f->now;
    uvm_handler_service(x->h);
    assert_int_equal(f->now - t1, 4000 + 8600 + 500 + 3000 + DMA_NS + 250);
    fx_done(x);
}

static void post_four(fake_t *f) {
    fk_post(f, VPN0 + 9, GMMU_AT_READ);
    fk_post(f, VPN0 + 2, GMMU_AT_WRITE);
    fk_post(f, VPN0 + 7, GMMU_AT_READ);
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
}

static void test_replay_block(void **state) {
    (void)state;
    fx_t *x = fx_new();
    set_policy(&x->cfg, UVM_POLICY_REPLAY, "block");
    fx_start(x);
    fake_t *f = &x->fk;
    post_four(f);
    uvm_handler_service(x->h);
    const uint64_t order[4] = {VPN0 + 1, VPN0 + 2, VPN0 + 7, VPN0 + 9};
    assert_int_equal(f->ncmd, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(f->cmd[i].op, GMMU_CMD_REPLAY_PAGE);
        assert_int_equal(f->cmd[i].arg, order[i]);
        uint64_t leaf_pa;
        const uint64_t leaf = walk(f, order[i], &leaf_pa);
        assert_true(leaf & PTE_V_BIT);
        /* replayed right after its own leaf PTE, before the next page's */
        const size_t lw = ev_find(f, 0, EV_GPU_W, leaf_pa, 1, leaf);
        assert_true(lw < f->cmd[i].ev);
        if (i + 1 < 4) {
            uint64_t next_pa;
            const uint64_t next = walk(f, order[i + 1], &next_pa);
            assert_true(f->cmd[i].ev < ev_find(f, 0, EV_GPU_W, next_pa, 1, next));
        }
    }
    assert_int_equal(st(x)->replays, 4);
    /* a stale fault of a resident page is replayed too (frees its far-fault MSHR) */
    fk_post(f, VPN0 + 2, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(f->ncmd, 5);
    assert_int_equal(f->cmd[4].op, GMMU_CMD_REPLAY_PAGE);
    assert_int_equal(f->cmd[4].arg, VPN0 + 2);
    assert_int_equal(st(x)->faults_stale, 1);
    assert_int_equal(st(x)->pages_h2d, 4);
    fx_done(x);
}

static void test_replay_batch(void **state) {
    (void)state;
    fx_t *x = fx_new();
    set_policy(&x->cfg, UVM_POLICY_REPLAY, "batch");
    x->cfg.batch_size = 2;
    fx_start(x);
    fake_t *f = &x->fk;
    post_four(f);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->fault_batches, 2);
    assert_int_equal(st(x)->faults_fetched, 4);
    assert_int_equal(st(x)->pages_h2d, 4);
    assert_int_equal(f->ncmd, 2);
    assert_int_equal(f->cmd[0].op, GMMU_CMD_REPLAY_ALL);
    assert_int_equal(f->cmd[1].op, GMMU_CMD_REPLAY_ALL);
    /* first batch = entries 0,1 (VPN0+9, VPN0+2): replayed before the second batch's DMAs */
    assert_int_equal(f->dma[0].src, (VPN0 + 2) << 12);
    assert_int_equal(f->dma[1].src, (VPN0 + 9) << 12);
    assert_true(f->dma[1].ev_wait < f->cmd[0].ev);
    assert_true(f->cmd[0].ev < f->dma[2].ev_submit);
    assert_int_equal(f->get, 4);
    fx_done(x);
}

static void test_replay_batch_flush(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.batch_size = 2; /* default policy: BATCH_FLUSH */
    fx_start(x);
    fake_t *f = &x->fk;
    post_four(f);
    uvm_handler_service(x->h);
    /* one batch of 2; the other 2 entries are flushed (they come back after the replay) */
    assert_int_equal(st(x)->fault_batches, 1);
    assert_int_equal(st(x)->faults_fetched, 2);
    assert_int_equal(st(x)->pages_h2d, 2);
    for (uint32_t i = 0; i < 4; i++)
        assert_int_equal(ring_flags(f, i) >> GMMU_FB_F_VALID, 0);
    assert_int_equal(f->get, 4);
    assert_int_equal(f->ncmd, 1);
    assert_int_equal(f->cmd[0].op, GMMU_CMD_REPLAY_ALL);
    /* GET=2 after the fetch, then a fresh PUT read, GET=4, then REPLAY_ALL */
    const size_t g2 = ev_find(f, 0, EV_CSR_W, GMMU_CSR_FB_GET, 1, 2);
    const size_t put = ev_find(f, g2, EV_CSR_R, GMMU_CSR_FB_PUT, 0, 0);
    const size_t g4 = ev_find(f, put, EV_CSR_W, GMMU_CSR_FB_GET, 1, 4);
    assert_true(g2 != SIZE_MAX && put != SIZE_MAX && g4 != SIZE_MAX);
    assert_true(g4 < f->cmd[0].ev);
    /* flushed pages were not migrated */
    assert_int_equal(walk(f, VPN0 + 7, NULL), 0);
    assert_int_not_equal(walk(f, VPN0 + 9, NULL), 0);
    fx_done(x);
}

static void test_replay_once(void **state) {
    (void)state;
    fx_t *x = fx_new();
    set_policy(&x->cfg, UVM_POLICY_REPLAY, "once");
    x->cfg.batch_size = 2;
    fx_start(x);
    fake_t *f = &x->fk;
    post_four(f);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->fault_batches, 2);
    assert_int_equal(st(x)->pages_h2d, 4);
    assert_int_equal(f->ncmd, 1);
    assert_int_equal(f->cmd[0].op, GMMU_CMD_REPLAY_ALL);
    for (size_t i = 0; i < f->ndma; i++)
        assert_true(f->dma[i].ev_wait < f->cmd[0].ev);
    /* nothing serviced: no replay */
    uvm_handler_service(x->h);
    assert_int_equal(f->ncmd, 1);
    fx_done(x);
}

static void test_max_batches_per_irq(void **state) {
    (void)state;
    fx_t *x = fx_new();
    set_policy(&x->cfg, UVM_POLICY_REPLAY, "batch");
    x->cfg.batch_size = 2;
    x->cfg.max_batches_per_irq = 1;
    fx_start(x);
    fake_t *f = &x->fk;
    for (uint64_t i = 0; i < 6; i++)
        fk_post(f, VPN0 + i, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->faults_fetched, 2);
    assert_int_equal(f->get, 2);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->faults_fetched, 4);
    assert_int_equal(f->get, 4);
    assert_int_equal(st(x)->irqs, 2);
    fx_done(x);
}

static void test_fatal_outside_allocation(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->fk.busy_per_cmd = 3;
    fx_start(x);
    fake_t *f = &x->fk;
    const uint64_t bad = VPN0 + 0x100; /* just past the 1 MB allocation */
    fk_post(f, bad, GMMU_AT_READ);
    fk_post(f, VPN0, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->cancels, 1);
    assert_int_equal(st(x)->pages_h2d, 1);
    assert_int_equal(f->ncmd, 2);
    assert_int_equal(f->cmd[0].op, GMMU_CMD_CANCEL_PAGE);
    assert_int_equal(f->cmd[0].arg, bad);
    assert_int_equal(f->cmd[1].op, GMMU_CMD_REPLAY_ALL);
    char va[32];
    snprintf(va, sizeof va, "0x%llx", (unsigned long long)(bad << 12));
    assert_true(any_log_contains(f, va));
    /* ARG_LO, ARG_HI, CMD, then CMD_STATUS polled until BUSY cleared (3 busy + 1 idle) */
    const size_t c = f->cmd[0].ev;
    assert_int_equal(f->ev[c - 2].k, EV_CSR_W);
    assert_int_equal(f->ev[c - 2].a, GMMU_CSR_CMD_ARG_LO);
    assert_int_equal(f->ev[c - 2].b, (uint32_t)bad);
    assert_int_equal(f->ev[c - 1].a, GMMU_CSR_CMD_ARG_HI);
    assert_int_equal(f->ev[c - 1].b, (uint32_t)(bad >> 32));
    for (size_t i = 1; i <= 4; i++) {
        assert_int_equal(f->ev[c + i].k, EV_CSR_R);
        assert_int_equal(f->ev[c + i].a, GMMU_CSR_CMD_STATUS);
        assert_int_equal(f->ev[c + i].b, i < 4 ? 1 : 0);
    }
    assert_int_equal(walk(f, bad, NULL), 0);
    fx_done(x);
}

static void test_fatal_write_to_readonly(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fx_start(x);
    fake_t *f = &x->fk;
    const uint64_t ro = UINT64_C(0x7f1000000000);
    assert_int_equal(uvm_handler_add_alloc(x->h, "ro", ro, 0x10000, 1, x->err, sizeof x->err), 0);
    const uint64_t v = ro >> 12;
    fk_post(f, v + 0, GMMU_AT_WRITE);
    fk_post(f, v + 0, GMMU_AT_READ); /* duplicate: the write (most intrusive) wins */
    fk_post(f, v + 1, GMMU_AT_READ);
    fk_post_raw(f, v + 2, GMMU_AT_READ, GMMU_FT_RO_VIOLATION, 1, 1);
    fk_post(f, v + 3, GMMU_AT_ATOMIC);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->cancels, 3);
    assert_int_equal(count_cmds(f, GMMU_CMD_CANCEL_PAGE), 3);
    assert_int_equal(f->cmd[0].arg, v + 0);
    assert_int_equal(f->cmd[1].arg, v + 2);
    assert_int_equal(f->cmd[2].arg, v + 3);
    assert_true(any_log_contains(f, "read-only allocation 'ro'"));
    /* the read is migrated and mapped without W */
    assert_int_equal(walk(f, v + 1, NULL), DATA_BASE | PTE_V_BIT);
    assert_int_equal(st(x)->pages_h2d, 1);
    fx_done(x);
}

static void test_ring_wraparound(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.fb_entries = 8;
    set_policy(&x->cfg, UVM_POLICY_REPLAY, "batch");
    fx_start(x);
    fake_t *f = &x->fk;
    for (uint64_t i = 0; i < 6; i++)
        fk_post(f, VPN0 + i, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(f->get, 6);
    for (uint64_t i = 6; i < 10; i++) /* ring indices 6, 7, 0, 1 */
        fk_post(f, VPN0 + i, GMMU_AT_READ);
    assert_int_equal(f->put, 2);
    uvm_handler_service(x->h);
    assert_int_equal(f->get, 2);
    assert_int_equal(st(x)->faults_fetched, 10);
    assert_int_equal(st(x)->pages_h2d, 10);
    for (uint64_t i = 0; i < 10; i++)
        assert_int_equal(walk(f, VPN0 + i, NULL) & PPN_MASK, DATA_BASE + i * PAGE);
    for (uint32_t i = 0; i < 8; i++)
        assert_int_equal(ring_flags(f, i) >> GMMU_FB_F_VALID, 0);
    fx_done(x);
}

static void test_overflow_w1c_and_replay(void **state) {
    (void)state;
    fx_t *x = fx_new();
    set_policy(&x->cfg, UVM_POLICY_REPLAY, "block");
    fx_start(x);
    fake_t *f = &x->fk;
    /* overflow alone (ring empty): W1C, then REPLAY_ALL */
    f->overflow = 1;
    uvm_handler_service(x->h);
    assert_int_equal(f->overflow, 0);
    assert_true(ev_find(f, 0, EV_CSR_W, GMMU_CSR_FB_STATUS, 1, 1) != SIZE_MAX);
    assert_int_equal(st(x)->overflows, 1);
    assert_int_equal(f->ncmd, 1);
    assert_int_equal(f->cmd[0].op, GMMU_CMD_REPLAY_ALL);
    /* overflow with faults under BLOCK: REPLAY_PAGE per page, then one REPLAY_ALL at the end */
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    fk_post(f, VPN0 + 2, GMMU_AT_READ);
    f->overflow = 1;
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->overflows, 2);
    assert_int_equal(f->ncmd, 4);
    assert_int_equal(f->cmd[1].op, GMMU_CMD_REPLAY_PAGE);
    assert_int_equal(f->cmd[2].op, GMMU_CMD_REPLAY_PAGE);
    assert_int_equal(f->cmd[3].op, GMMU_CMD_REPLAY_ALL);
    /* no overflow: no W1C write and no REPLAY_ALL */
    const size_t nev = f->nev;
    fk_post(f, VPN0 + 3, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(ev_find(f, nev, EV_CSR_W, GMMU_CSR_FB_STATUS, 0, 0), SIZE_MAX);
    assert_int_equal(f->ncmd, 5);
    assert_int_equal(f->cmd[4].op, GMMU_CMD_REPLAY_PAGE);
    fx_done(x);
}

static void test_corrupt_entries_skipped(void **state) {
    (void)state;
    fx_t *x = fx_new();
    set_policy(&x->cfg, UVM_POLICY_REPLAY, "batch");
    fx_start(x);
    fake_t *f = &x->fk;
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    fk_post_raw(f, VPN0 + 2, GMMU_AT_READ, GMMU_FT_PTE, 0, 0);         /* VALID clear */
    fk_post_raw(f, VPN0 | (UINT64_C(1) << 40), GMMU_AT_READ, 2, 0, 1); /* VPN > 36 bits */
    fk_post(f, VPN0 + 4, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->faults_fetched, 2);
    assert_int_equal(st(x)->pages_h2d, 2);
    assert_int_equal(f->get, 4);
    assert_true(any_log_contains(f, "corrupt fault-buffer entry 1"));
    assert_true(any_log_contains(f, "corrupt fault-buffer entry 2"));
    assert_int_not_equal(walk(f, VPN0 + 1, NULL), 0);
    assert_int_equal(walk(f, VPN0 + 2, NULL), 0);
    assert_int_not_equal(walk(f, VPN0 + 4, NULL), 0);
    fx_done(x);
}

static void test_pt_pool_exhaustion_cancels(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_pt_pages = 4; /* root + one chain */
    fx_start(x);
    fake_t *f = &x->fk;
    assert_int_equal(uvm_handler_add_alloc(x->h, "far", UINT64_C(0x7f2000000000), 0x400000, 0,
                                           x->err, sizeof x->err),
                     0);
    fk_post(f, VPN0, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->pages_h2d, 1);
    assert_int_equal(st(x)->pt_pages_used, 4);
    /* "far" lies in another 2 MB block (and 1 GB region): its chain needs new tables */
    const uint64_t v = UINT64_C(0x7f2000000000) >> 12;
    fk_post(f, v + 512, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->cancels, 1);
    assert_int_equal(st(x)->pages_h2d, 1);
    assert_int_equal(st(x)->pt_pages_used, 4);
    assert_true(any_log_contains(f, "page-table pool exhausted"));
    assert_int_equal(f->cmd[f->ncmd - 2].op, GMMU_CMD_CANCEL_PAGE);
    assert_int_equal(f->cmd[f->ncmd - 2].arg, v + 512);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_coalesce_sort_dma_pte),
        cmocka_unit_test(test_cost_model_unloaded_fault),
        cmocka_unit_test(test_cost_model_block),
        cmocka_unit_test(test_cost_model_block_first),
        cmocka_unit_test(test_cost_model_pt_sync),
        cmocka_unit_test(test_replay_block),
        cmocka_unit_test(test_replay_batch),
        cmocka_unit_test(test_replay_batch_flush),
        cmocka_unit_test(test_replay_once),
        cmocka_unit_test(test_max_batches_per_irq),
        cmocka_unit_test(test_fatal_outside_allocation),
        cmocka_unit_test(test_fatal_write_to_readonly),
        cmocka_unit_test(test_ring_wraparound),
        cmocka_unit_test(test_overflow_w1c_and_replay),
        cmocka_unit_test(test_corrupt_entries_skipped),
        cmocka_unit_test(test_pt_pool_exhaustion_cancels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
