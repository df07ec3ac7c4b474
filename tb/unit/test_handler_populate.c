/*
 * test_handler_populate.c - the programmer-directed copy of the memcpy baseline
 * (uvm_handler_populate, sw-handler/uvm_populate.c, docs/handler.md §6e): every page of the
 * allocation mapped to a frame holding its content, large DMAs all submitted before the first
 * wait, no CPU time charged, read-only allocations mapped without W, a second populate copies
 * nothing, a populated page's fault is stale, and the errors (oversubscribed GPU memory, too
 * small a page-table pool, unknown allocation, device not initialized).
 * The fake GPU has 64 frames; its DMA engine takes transfers up to 2 MB here.
 */
#include "test_handler_fake.h"

#define BLOCK_BYTES UINT64_C(0x200000)

/* handler with allocation "a" (a_pages, writable) at ALLOC_BASE and "r" (8 pages, read-only) at
 * ALLOC_BASE + 2 MB; initialized when init */
static fx_t *start(uint64_t a_pages, int init) {
    fx_t *x = fx_new();
    x->fk.max_dma_bytes = BLOCK_BYTES;
    for (uint32_t i = 0; i < 2048; i++)
        x->fk.host_tag[i] = 0x1000u + i;
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "a", ALLOC_BASE, a_pages * PAGE, 0, x->err, sizeof x->err), 0);
    assert_int_equal(uvm_handler_add_alloc(x->h, "r", ALLOC_BASE + BLOCK_BYTES, 8 * PAGE, 1, x->err,
                                           sizeof x->err),
                     0);
    if (init)
        assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    x->fk.nev = 0;
    return x;
}

/* every page of [page0, page0 + n) mapped (W as asked) to a frame holding its host content */
static void expect_copied(fx_t *x, uint64_t page0, uint64_t n, int writable) {
    for (uint64_t p = page0; p < page0 + n; p++) {
        const uint64_t leaf = walk(&x->fk, VPN0 + p, NULL);
        if (!(leaf & PTE_V_BIT))
            fail_msg("page %llu not mapped", (unsigned long long)p);
        assert_int_equal((leaf & PTE_W_BIT) != 0, writable);
        const uint64_t pa = leaf & PPN_MASK;
        assert_true(pa >= DATA_BASE && pa < DATA_BASE + 64 * PAGE);
        assert_int_equal(x->fk.frame_tag[(pa - DATA_BASE) / PAGE], x->fk.host_tag[p]);
    }
}

static void test_populate_copies_and_maps(void **state) {
    (void)state;
    fx_t *x = start(40, 1);
    uint64_t pages = 0;
    assert_int_equal(uvm_handler_populate(x->h, ALLOC_BASE, &pages, x->err, sizeof x->err), 0);
    assert_int_equal(pages, 40);
    expect_copied(x, 0, 40, 1);
    assert_int_equal(st(x)->pages_h2d, 40);
    assert_int_equal(st(x)->bytes_h2d, 40 * PAGE);
    assert_int_equal(st(x)->pages_prefetched, 0);
    assert_int_equal(st(x)->data_pages_resident, 40);
    assert_int_equal(st(x)->pte_writes, 40 + 3); /* 40 leaves + a cold chain of 3 tables */
    /* large transfers (64 KB chunks for pages 0..31, then 4 KB frames): at most 40 / 16 + 8 */
    assert_true(x->fk.ndma >= 1 && x->fk.ndma <= 10);
    uint64_t bytes = 0;
    size_t last_submit = 0, first_wait = SIZE_MAX;
    for (size_t i = 0; i < x->fk.ndma; i++) {
        assert_int_equal(x->fk.dma[i].dir, UVM_DMA_H2D);
        bytes += x->fk.dma[i].bytes;
        last_submit = x->fk.dma[i].ev_submit;
        if (x->fk.dma[i].ev_wait < first_wait)
            first_wait = x->fk.dma[i].ev_wait;
    }
    assert_int_equal(bytes, 40 * PAGE);
    assert_true(last_submit < first_wait); /* every DMA in flight at once: all channels */
    assert_true(x->fk.dma[0].bytes >= 16 * PAGE);
    /* no CPU time: the fake clock moved by the DMA waits only */
    assert_int_equal(x->fk.now, x->fk.ndma * DMA_NS);
    /* the read-only allocation: mapped without W */
    assert_int_equal(
        uvm_handler_populate(x->h, ALLOC_BASE + BLOCK_BYTES, &pages, x->err, sizeof x->err), 0);
    assert_int_equal(pages, 8);
    expect_copied(x, 512, 8, 0);
    assert_int_equal(st(x)->pages_h2d, 48);
    fx_done(x);
}

/* populating again copies nothing; a fault on a populated page is stale (no migration) */
static void test_populate_twice_and_fault(void **state) {
    (void)state;
    fx_t *x = start(20, 1);
    uint64_t pages = 0;
    assert_int_equal(uvm_handler_populate(x->h, ALLOC_BASE, &pages, x->err, sizeof x->err), 0);
    assert_int_equal(pages, 20);
    const size_t ndma = x->fk.ndma;
    assert_int_equal(uvm_handler_populate(x->h, ALLOC_BASE, &pages, x->err, sizeof x->err), 0);
    assert_int_equal(pages, 0);
    assert_int_equal(x->fk.ndma, ndma);
    fk_post(&x->fk, VPN0 + 7, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->faults_stale, 1);
    assert_int_equal(st(x)->pages_h2d, 20);
    assert_int_equal(x->fk.ndma, ndma);
    fx_done(x);
}

/* more pages than GPU frames: refused before anything is moved */
static void test_populate_oversubscribed(void **state) {
    (void)state;
    fx_t *x = start(65, 1);
    uint64_t pages = 1;
    assert_int_equal(uvm_handler_populate(x->h, ALLOC_BASE, &pages, x->err, sizeof x->err), -1);
    assert_non_null(strstr(x->err, "oversubscribed"));
    assert_non_null(strstr(x->err, "65 pages to copy, 64 free"));
    assert_int_equal(pages, 0);
    assert_int_equal(x->fk.ndma, 0);
    assert_int_equal(st(x)->data_pages_resident, 0);
    fx_done(x);
}

/* an allocation across two 2 MB blocks needs 4 tables; a pool of root + 3 cannot hold them */
static void test_populate_pt_pool(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->fk.max_dma_bytes = BLOCK_BYTES;
    x->cfg.gpu_pt_pages = 4;
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(uvm_handler_add_alloc(x->h, "s", ALLOC_BASE + BLOCK_BYTES - PAGE, 2 * PAGE, 0,
                                           x->err, sizeof x->err),
                     0);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    uint64_t pages = 0;
    assert_int_equal(
        uvm_handler_populate(x->h, ALLOC_BASE + BLOCK_BYTES - PAGE, &pages, x->err, sizeof x->err),
        -1);
    assert_non_null(strstr(x->err, "page-table pool exhausted (4 table pages needed, 3 free"));
    assert_int_equal(x->fk.ndma, 0);
    fx_done(x);
}

static void test_populate_bad_calls(void **state) {
    (void)state;
    fx_t *x = start(4, 0);
    uint64_t pages = 0;
    assert_int_equal(uvm_handler_populate(x->h, ALLOC_BASE, &pages, x->err, sizeof x->err), -1);
    assert_non_null(strstr(x->err, "not initialized"));
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    assert_int_equal(uvm_handler_populate(x->h, ALLOC_BASE + PAGE, &pages, x->err, sizeof x->err),
                     -1);
    assert_non_null(strstr(x->err, "not the base of a managed allocation"));
    assert_int_equal(uvm_handler_populate(x->h, 0x1000, &pages, x->err, sizeof x->err), -1);
    assert_int_equal(x->fk.ndma, 0);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_populate_copies_and_maps),
        cmocka_unit_test(test_populate_twice_and_fault),
        cmocka_unit_test(test_populate_oversubscribed),
        cmocka_unit_test(test_populate_pt_pool),
        cmocka_unit_test(test_populate_bad_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
