/*
 * test_handler_evict.c - eviction (lru, random) and randomized stress of the host fault handler
 * against the fake device (test_handler_fake.h).
 */
#include "rng.h"
#include "test_handler_fake.h"

/* ------------------------------------------------------------------------------------------ */
/* eviction                                                                                    */

static void service_one(fx_t *x, uint64_t vpn) {
    fk_post(&x->fk, vpn, GMMU_AT_READ);
    uvm_handler_service(x->h);
}

static void test_evict_lru_order_of_operations(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 2;
    fx_start(x);
    fake_t *f = &x->fk;
    const uint64_t a = VPN0 + 10, b = VPN0 + 20, c = VPN0 + 30;
    service_one(x, a);
    service_one(x, b);
    uint64_t a_leaf_pa;
    const uint64_t a_leaf = walk(f, a, &a_leaf_pa);
    const uint64_t a_frame = a_leaf & PPN_MASK;
    assert_int_equal(a_frame, DATA_BASE);
    /* A faults again (stale): LRU is by migration time, not access: A stays the oldest */
    service_one(x, a);
    assert_int_equal(st(x)->faults_stale, 1);
    const size_t ncmd0 = f->ncmd, ndma0 = f->ndma, nev0 = f->nev;
    service_one(x, c);

    const uvm_stats_t *s = st(x);
    assert_int_equal(s->evictions, 1);
    assert_int_equal(s->invalidates, 1);
    assert_int_equal(s->pages_d2h, 1);
    assert_int_equal(s->bytes_d2h, PAGE);
    assert_int_equal(s->data_pages_resident, 2);
    /* 1. leaf PTE of A cleared */
    const size_t clr = ev_find(f, nev0, EV_GPU_W, a_leaf_pa, 1, 0);
    assert_true(clr != SIZE_MAX);
    /* 2. INVAL_PAGE(A) */
    assert_int_equal(f->cmd[ncmd0].op, GMMU_CMD_INVAL_PAGE);
    assert_int_equal(f->cmd[ncmd0].arg, a);
    assert_true(clr < f->cmd[ncmd0].ev);
    /* 3. CMD_STATUS polled until idle */
    const size_t idle = ev_find(f, f->cmd[ncmd0].ev, EV_CSR_R, GMMU_CSR_CMD_STATUS, 1, 0);
    assert_true(idle != SIZE_MAX);
    /* 4. D2H of the frame to A's VA, waited */
    assert_int_equal(f->ndma, ndma0 + 2);
    const dma_t *wb = &f->dma[ndma0];
    assert_int_equal(wb->dir, UVM_DMA_D2H);
    assert_int_equal(wb->src, a_frame);
    assert_int_equal(wb->dst, a << 12);
    assert_int_equal(wb->bytes, PAGE);
    assert_true(idle < wb->ev_submit);
    /* 5. the frame is reused for C only after the write-back completed */
    const dma_t *in = &f->dma[ndma0 + 1];
    assert_int_equal(in->dir, UVM_DMA_H2D);
    assert_int_equal(in->src, c << 12);
    assert_int_equal(in->dst, a_frame);
    assert_true(wb->ev_wait < in->ev_submit);
    /* final mappings */
    assert_int_equal(walk(f, a, NULL), 0);
    assert_int_equal(walk(f, c, NULL), a_frame | PTE_V_BIT | PTE_W_BIT);
    assert_int_not_equal(walk(f, b, NULL), 0);
    /* next victim is B (now the oldest) */
    service_one(x, a);
    assert_int_equal(f->cmd[f->ncmd - 2].op, GMMU_CMD_INVAL_PAGE);
    assert_int_equal(f->cmd[f->ncmd - 2].arg, b);
    fx_done(x);
}

static void test_evict_readonly_no_writeback(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 1;
    fx_start(x);
    fake_t *f = &x->fk;
    const uint64_t ro = UINT64_C(0x7f1000000000);
    assert_int_equal(uvm_handler_add_alloc(x->h, "ro", ro, 0x10000, 1, x->err, sizeof x->err), 0);
    service_one(x, (ro >> 12) + 1);
    service_one(x, (ro >> 12) + 2);
    assert_int_equal(st(x)->evictions, 1);
    assert_int_equal(st(x)->invalidates, 1);
    assert_int_equal(st(x)->pages_d2h, 0);
    for (size_t i = 0; i < f->ndma; i++)
        assert_int_equal(f->dma[i].dir, UVM_DMA_H2D);
    /* writable page evicted by the next fault is written back */
    service_one(x, VPN0);
    service_one(x, VPN0 + 1);
    assert_int_equal(st(x)->evictions, 3);
    assert_int_equal(st(x)->pages_d2h, 1);
    fx_done(x);
}

static void test_evict_within_block_commits_first(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 2;
    fx_start(x);
    fake_t *f = &x->fk;
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    fk_post(f, VPN0 + 2, GMMU_AT_READ);
    fk_post(f, VPN0 + 3, GMMU_AT_READ);
    uvm_handler_service(x->h);
    /* pages 1 and 2 fill the frames; page 3 evicts page 1 only after 1 and 2 were mapped */
    assert_int_equal(st(x)->evictions, 1);
    assert_int_equal(f->cmd[0].op, GMMU_CMD_INVAL_PAGE);
    assert_int_equal(f->cmd[0].arg, VPN0 + 1);
    uint64_t pa1 = 0;
    walk(f, VPN0 + 3, &pa1); /* same leaf table */
    pa1 = (pa1 & PPN_MASK) + 8 * ((VPN0 + 1) & 511);
    const size_t mapped1 = ev_find(f, 0, EV_GPU_W, pa1, 1, DATA_BASE | PTE_V_BIT | PTE_W_BIT);
    assert_true(mapped1 < f->cmd[0].ev);
    assert_true(f->dma[0].ev_wait < f->cmd[0].ev && f->dma[1].ev_wait < f->cmd[0].ev);
    assert_int_equal(walk(f, VPN0 + 1, NULL), 0);
    assert_int_equal(walk(f, VPN0 + 3, NULL) & PPN_MASK, DATA_BASE);
    assert_int_equal(walk(f, VPN0 + 2, NULL) & PPN_MASK, DATA_BASE + PAGE);
    fx_done(x);
}

/* Random victims; records the INVAL_PAGE arguments of `n` single-page faults. */
static void random_run(uint64_t seed, uint64_t *victims, size_t n) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 4;
    set_policy(&x->cfg, UVM_POLICY_EVICT, "random");
    x->cfg.seed = seed;
    x->cfg.fb_entries = 64;
    fx_start(x);
    for (uint64_t i = 0; i < 4 + n; i++)
        service_one(x, VPN0 + i);
    size_t k = 0;
    for (size_t i = 0; i < x->fk.ncmd; i++)
        if (x->fk.cmd[i].op == GMMU_CMD_INVAL_PAGE)
            victims[k++] = x->fk.cmd[i].arg;
    assert_int_equal(k, n);
    assert_int_equal(st(x)->evictions, n);
    fx_done(x);
}

static void test_evict_random_deterministic(void **state) {
    (void)state;
    enum { N = 24 };
    uint64_t a[N], b[N], c[N];
    random_run(7, a, N);
    random_run(7, b, N);
    random_run(8, c, N);
    assert_memory_equal(a, b, sizeof a);
    assert_memory_not_equal(a, c, sizeof a);
    /* not simply FIFO: LRU would evict VPN0+0, +1, +2, ... in order */
    int fifo = 1;
    for (size_t i = 0; i < N; i++)
        fifo = fifo && a[i] == VPN0 + i;
    assert_false(fifo);
}

static void test_evict_random_never_current_block(void **state) {
    (void)state;
    /* two old pages elsewhere + a block of three faulting pages, four frames: the third page
     * of the block must evict one of the old pages, never a page of its own block */
    for (uint64_t seed = 1; seed <= 24; seed++) {
        fx_t *x = fx_new();
        x->cfg.gpu_data_pages = 4;
        set_policy(&x->cfg, UVM_POLICY_EVICT, "random");
        x->cfg.seed = seed;
        fx_start(x);
        assert_int_equal(uvm_handler_add_alloc(x->h, "b", UINT64_C(0x7f3000000000), 0x200000, 0,
                                               x->err, sizeof x->err),
                         0);
        const uint64_t old0 = VPN0, old1 = VPN0 + 1, blk = UINT64_C(0x7f3000000000) >> 12;
        service_one(x, old0);
        service_one(x, old1);
        fk_post(&x->fk, blk + 5, GMMU_AT_READ);
        fk_post(&x->fk, blk + 6, GMMU_AT_READ);
        fk_post(&x->fk, blk + 7, GMMU_AT_READ);
        uvm_handler_service(x->h);
        assert_int_equal(st(x)->evictions, 1);
        const uint64_t v = x->fk.cmd[x->fk.ncmd - 2].arg;
        assert_int_equal(x->fk.cmd[x->fk.ncmd - 2].op, GMMU_CMD_INVAL_PAGE);
        assert_true(v == old0 || v == old1);
        for (uint64_t p = 5; p <= 7; p++)
            assert_int_not_equal(walk(&x->fk, blk + p, NULL), 0);
        fx_done(x);
    }
}

/* Random fault streams (duplicates, reads and writes, several 2 MB blocks) against 8 frames:
 * after every interrupt the page table and the frames stay consistent, and no write is lost:
 * the GPU "writes" each mapped page it faulted on for write (bumping the frame's version tag),
 * eviction must carry that version back to the host copy. */
static void stress_run(const char *pol, const char *rp, uint64_t seed) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 8;
    set_policy(&x->cfg, UVM_POLICY_EVICT, pol);
    set_policy(&x->cfg, UVM_POLICY_REPLAY, rp);
    x->cfg.seed = seed;
    x->cfg.batch_size = 16; /* one batch per interrupt: exact accounting below */
    x->cfg.fb_entries = 32;
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "big", ALLOC_BASE, 2048 * PAGE, 0, x->err, sizeof x->err), 0);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    fake_t *f = &x->fk;
    static uint64_t expect[2048];
    memset(expect, 0, sizeof expect);
    uint64_t r = seed * RNG_GOLDEN + 1;
    for (int it = 0; it < 300; it++) {
        const int n = 1 + (int)(r % 9);
        uint64_t pages[9];
        int wr[9];
        for (int k = 0; k < n; k++) {
            rng_xorshift64(&r);
            /* pages in 3 blocks (0, 1, 3), 24 pages each: heavy reuse and eviction */
            const uint64_t blk = (r >> 8) % 3;
            pages[k] = (blk == 2 ? 3 : blk) * 512 + (r >> 16) % 24;
            wr[k] = (int)((r >> 40) & 1);
            fk_post(f, VPN0 + pages[k], wr[k] ? GMMU_AT_WRITE : GMMU_AT_READ);
        }
        /* distinct posted pages: each is either stale (still resident when serviced: only pages
         * mapped before the interrupt qualify, as an earlier block may evict them) or migrated */
        uint64_t stale = 0, fresh = 0;
        for (int k = 0; k < n; k++) {
            int dup = 0;
            for (int j = 0; j < k; j++)
                dup |= pages[j] == pages[k];
            if (!dup)
                *(walk(f, VPN0 + pages[k], NULL) ? &stale : &fresh) += 1;
        }
        const uint64_t stale0 = st(x)->faults_stale, h2d0 = st(x)->pages_h2d;
        uvm_handler_service(x->h);
        assert_true(st(x)->faults_stale - stale0 <= stale);
        assert_int_equal(st(x)->faults_stale - stale0 + st(x)->pages_h2d - h2d0, stale + fresh);
        /* consistency: every mapped page owns a distinct frame inside the data range */
        int used[8] = {0};
        uint64_t mapped = 0;
        for (uint64_t p = 0; p < 4 * 512; p++) {
            if (p % 512 >= 24)
                continue;
            const uint64_t leaf = walk(f, VPN0 + p, NULL);
            if (!leaf)
                continue;
            const uint64_t fr = ((leaf & PPN_MASK) - DATA_BASE) / PAGE;
            assert_true(fr < 8);
            assert_int_equal(used[fr], 0);
            used[fr] = 1;
            mapped++;
            assert_int_equal(leaf & ~PPN_MASK, PTE_V_BIT | PTE_W_BIT);
            /* the frame holds the latest version of the page */
            assert_int_equal(f->frame_tag[fr], expect[p]);
        }
        assert_int_equal(mapped, st(x)->data_pages_resident);
        /* the GPU writes the pages it wrote to, if they are mapped now */
        for (int k = 0; k < n; k++) {
            const uint64_t leaf = walk(f, VPN0 + pages[k], NULL);
            if (wr[k] && leaf) {
                const uint64_t fr = ((leaf & PPN_MASK) - DATA_BASE) / PAGE;
                f->frame_tag[fr] = ++expect[pages[k]];
            }
        }
        /* every page not resident has its latest version in host memory */
        for (uint64_t p = 0; p < 4 * 512; p++)
            if (p % 512 < 24 && !walk(f, VPN0 + p, NULL))
                assert_int_equal(f->host_tag[p], expect[p]);
    }
    const uvm_stats_t *s = st(x);
    assert_true(s->evictions > 50);
    assert_int_equal(s->evictions, s->invalidates);
    assert_int_equal(s->evictions, s->pages_d2h);
    assert_int_equal(s->cancels, 0);
    fx_done(x);
}

static void test_stress_lru(void **state) {
    (void)state;
    stress_run("lru", "batch_flush", 1);
    stress_run("lru", "block", 2);
}

static void test_stress_random(void **state) {
    (void)state;
    stress_run("random", "batch", 3);
    stress_run("random", "once", 4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_evict_lru_order_of_operations),
        cmocka_unit_test(test_evict_readonly_no_writeback),
        cmocka_unit_test(test_evict_within_block_commits_first),
        cmocka_unit_test(test_evict_random_deterministic),
        cmocka_unit_test(test_evict_random_never_current_block),
        cmocka_unit_test(test_stress_lru),
        cmocka_unit_test(test_stress_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
