/*
 * test_handler_populate.c - the programmer-directed copy of the memcpy baseline
 * (uvm_handler_populate, sw-handler/uvm_populate.c, docs/handler.md §6e): every page of the
 * allocation mapped to a frame holding its content, large DMAs all submitted before the first
 * wait, no CPU time charged, read-only allocations mapped without W, a second populate copies
 * nothing, a populated page's fault is stale, and the errors (oversubscribed GPU memory, too
 * small a page-table pool, unknown allocation, device not initialized); page_size 2m (a 2 MB PTE
 * per whole 2 MB chunk, partial blocks 4 KB) and cocoa (CoCoA offsets, coalesced when full, by
 * the host or by the GMMU's COALESCE).
 * The fake GPU has 64 frames; its DMA engine takes transfers up to 2 MB here.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h" /* uvm_va_block_get: the block is marked large */

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

/* uvm_handler_prefetch (a trace's `prefetch RANGE gpu`, issue 22): only the non-resident pages of
 * the range are copied (pages outside it stay on the host), as large DMAs all submitted before
 * the first wait; a range outside one allocation, and one that needs evictions, are refused */
static void test_prefetch_range(void **state) {
    (void)state;
    fx_t *x = start(40, 1);
    uint64_t pages = 0;
    /* pages 4..11 first (8 pages), then 0..19: the 12 others */
    assert_int_equal(
        uvm_handler_prefetch(x->h, ALLOC_BASE + 4 * PAGE, 8 * PAGE, &pages, x->err, 256), 0);
    assert_int_equal(pages, 8);
    expect_copied(x, 4, 8, 1);
    assert_false(walk(&x->fk, VPN0 + 3, NULL) & PTE_V_BIT);
    assert_false(walk(&x->fk, VPN0 + 12, NULL) & PTE_V_BIT);
    const size_t d0 = x->fk.ndma;
    /* an unaligned range: every page it touches (0x10 .. 19 pages + 0x10 bytes: pages 0..19) */
    assert_int_equal(
        uvm_handler_prefetch(x->h, ALLOC_BASE + 0x10, 19 * PAGE + 1, &pages, x->err, 256), 0);
    assert_int_equal(pages, 12);
    expect_copied(x, 0, 20, 1);
    assert_false(walk(&x->fk, VPN0 + 20, NULL) & PTE_V_BIT);
    assert_int_equal(st(x)->pages_h2d, 20);
    assert_int_equal(st(x)->faults_fetched, 0);
    assert_true(x->fk.ndma - d0 <= 2); /* pages 0..3 and 12..19: one DMA per run */
    /* errors: beyond the allocation, no allocation, more pages than free frames */
    assert_int_equal(uvm_handler_prefetch(x->h, ALLOC_BASE, 41 * PAGE, &pages, x->err, 256), -1);
    assert_non_null(strstr(x->err, "not inside one managed allocation"));
    assert_int_equal(uvm_handler_prefetch(x->h, ALLOC_BASE + 100 * PAGE, PAGE, &pages, x->err, 256),
                     -1);
    fx_done(x);
    x = start(65, 1);
    assert_int_equal(uvm_handler_prefetch(x->h, ALLOC_BASE, 65 * PAGE, &pages, x->err, 256), -1);
    assert_non_null(strstr(x->err, "prefetch a: 65 pages to copy, 64 free GPU frames"));
    assert_non_null(strstr(x->err, "needs evictions is not modeled yet"));
    assert_int_equal(x->fk.ndma, 0);
    fx_done(x);
}

/* uvm_handler_to_host (a trace's `prefetch RANGE host` / `cpu RANGE R|W`): the GPU-resident pages
 * of the range leave the GPU (unmapped, written back: D2H of a writable page, frame freed), the
 * others are untouched; a range outside one allocation is refused */
static void test_to_host_range(void **state) {
    (void)state;
    fx_t *x = start(20, 1);
    uint64_t pages = 0;
    assert_int_equal(uvm_handler_populate(x->h, ALLOC_BASE, &pages, x->err, sizeof x->err), 0);
    const size_t d0 = x->fk.ndma;
    /* pages 2..4 (an unaligned range touching them) */
    assert_int_equal(
        uvm_handler_to_host(x->h, ALLOC_BASE + 2 * PAGE + 8, 2 * PAGE + 8, &pages, x->err, 256), 0);
    assert_int_equal(pages, 3);
    for (uint64_t p = 0; p < 20; p++)
        assert_int_equal((walk(&x->fk, VPN0 + p, NULL) & PTE_V_BIT) != 0, p < 2 || p > 4);
    assert_int_equal(st(x)->pages_d2h, 3);
    assert_int_equal(st(x)->data_pages_resident, 17);
    assert_int_equal(x->fk.ndma - d0, 3);
    assert_int_equal(x->fk.dma[d0].dir, UVM_DMA_D2H);
    assert_int_equal(x->fk.dma[d0].dst, (VPN0 + 2) << 12);
    /* again: nothing resident there any more */
    assert_int_equal(
        uvm_handler_to_host(x->h, ALLOC_BASE + 2 * PAGE, 3 * PAGE, &pages, x->err, 256), 0);
    assert_int_equal(pages, 0);
    assert_int_equal(uvm_handler_to_host(x->h, ALLOC_BASE, 21 * PAGE, &pages, x->err, 256), -1);
    assert_non_null(strstr(x->err, "not inside one managed allocation"));
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

/* ------------------------------------------------------------------------------------------ */
/* page_size 2m / cocoa (docs/handler.md §6e)                                                  */

#define PTE_L_BIT (UINT64_C(1) << GMMU_PTE_L)
#define PTE_D_BIT (UINT64_C(1) << GMMU_PTE_D)

/* handler with page_size / coalesce_by, 2048 data frames (four 2 MB frames) and the allocations
 * given as (first page, pages, read-only) from ALLOC_BASE; initialized */
static fx_t *start_ps(uint32_t page_size, uint32_t coalesce_by, const uint32_t (*al)[3], size_t n) {
    fx_t *x = fx_new();
    x->fk.max_dma_bytes = BLOCK_BYTES;
    x->cfg.page_size = page_size;
    x->cfg.coalesce_by = coalesce_by;
    x->cfg.gpu_data_pages = 2048;
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    for (size_t i = 0; i < n; i++) {
        char name[8] = {(char)('a' + i), 0};
        assert_int_equal(uvm_handler_add_alloc(x->h, name, ALLOC_BASE + al[i][0] * PAGE,
                                               al[i][1] * PAGE, (int)al[i][2], x->err,
                                               sizeof x->err),
                         0);
    }
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    x->fk.nev = 0;
    return x;
}

/* the level-3 entry of vpn's region (the parent of its level-4 table); 0 if a level is invalid */
static uint64_t parent_entry(fake_t *f, uint64_t vpn) {
    uint64_t table = PT_BASE, e = 0;
    for (unsigned l = 0; l < 3; l++) {
        e = fk_gpu_read64(f, table + 8 * ((vpn >> (36 - 9 * (l + 1))) & 511u));
        if (!(e & PTE_V_BIT))
            return 0;
        table = e & PPN_MASK;
    }
    return e;
}

static void populate_ok(fx_t *x, uint64_t first_page, uint64_t want) {
    uint64_t pages = 0;
    assert_int_equal(
        uvm_handler_populate(x->h, ALLOC_BASE + first_page * PAGE, &pages, x->err, sizeof x->err),
        0);
    assert_int_equal(pages, want);
}

/* 2m: a region whose managed pages are of one writability is one 2 MB page (level-3 L, entry 0
 * = its 2 MB frame, V W D), whole or partly managed (region 1: 40 pages, the rest bloat, as a
 * demand-paged 2m page); region 2 (read-write and read-only pages) stays 4 KB-mapped; no CPU
 * time is charged. Under 4k the same allocations get 4 KB PTEs only. */
static void test_populate_2m(void **state) {
    (void)state;
    static const uint32_t al[3][3] = {{0, 512 + 40, 0}, {1024, 16, 0}, {1024 + 256, 8, 1}};
    for (int two = 0; two < 2; two++) {
        fx_t *x = start_ps(two ? UVM_PSIZE_2M : UVM_PSIZE_4K, UVM_COALESCE_BY_HOST, al, 3);
        populate_ok(x, 0, 552);
        populate_ok(x, 1024, 16);
        populate_ok(x, 1024 + 256, 8);
        assert_int_equal(st(x)->pages_h2d, 576);
        assert_int_equal(x->fk.now, x->fk.ndma * DMA_NS); /* the DMA waits only */
        for (uint32_t p = 0; p < 24; p++) { /* region 2: 4 KB PTEs, W as the allocation's */
            const uint64_t leaf = walk(&x->fk, VPN0 + 1024 + (p < 16 ? p : 240 + p), NULL);
            assert_true(leaf & PTE_V_BIT);
            assert_int_equal((leaf & PTE_W_BIT) != 0, p < 16);
            assert_false(leaf & PTE_D_BIT);
        }
        assert_false(parent_entry(&x->fk, VPN0 + 1024) & PTE_L_BIT);
        if (!two) {
            assert_false(parent_entry(&x->fk, VPN0) & PTE_L_BIT);
            assert_false(parent_entry(&x->fk, VPN0 + 512) & PTE_L_BIT);
            assert_int_equal(st(x)->large_maps, 0);
            assert_int_equal(st(x)->data_pages_resident, 576);
            fx_done(x);
            continue;
        }
        assert_int_equal(st(x)->large_maps, 2);
        assert_int_equal(st(x)->data_pages_resident, 512 + 512 + 24);
        for (uint32_t r = 0; r < 2; r++) {
            const uint64_t par = parent_entry(&x->fk, VPN0 + 512 * r);
            assert_true(par & PTE_L_BIT);
            const uint64_t table = par & PPN_MASK;
            const uint64_t e0 = fk_gpu_read64(&x->fk, table);
            assert_int_equal(e0 & ~PPN_MASK, PTE_V_BIT | PTE_W_BIT | PTE_D_BIT);
            assert_int_equal((e0 & PPN_MASK) % BLOCK_BYTES, 0); /* a 2 MB frame */
            for (uint32_t p = 1; p < 512; p++)
                assert_int_equal(fk_gpu_read64(&x->fk, table + 8 * p), 0);
            assert_true(uvm_va_block_get(x->h, VPN0 + 512 * r, false)->large);
        }
        /* region 1: the 40 managed pages copied (one DMA), not the bloat */
        size_t n40 = 0;
        for (size_t i = 0; i < x->fk.ndma; i++)
            n40 += x->fk.dma[i].src == ALLOC_BASE + 512 * PAGE && x->fk.dma[i].bytes == 40 * PAGE;
        assert_int_equal(n40, 1);
        fx_done(x);
    }
}

/* the 512 level-4 entries of vpn's region after a host coalesce: the frames at their offsets
 * from `first` (a 2 MB frame), V W D */
static void expect_coalesced(fake_t *f, uint64_t vpn, uint32_t first) {
    const uint64_t par = parent_entry(f, vpn);
    assert_true(par & PTE_L_BIT);
    for (uint32_t p = 0; p < 512; p++)
        assert_int_equal(fk_gpu_read64(f, (par & PPN_MASK) + 8 * p),
                         (DATA_BASE + (first + p) * PAGE) | PTE_V_BIT | PTE_W_BIT | PTE_D_BIT);
}

/* cocoa: pages at their offsets in their region's 2 MB frame; a region whose managed pages the
 * copy leaves all resident is coalesced; one with a managed page not yet copied stays 4 KB */
static void test_populate_cocoa(void **state) {
    (void)state;
    /* a: region 1 whole; b: pages 0..39 of region 0; c: pages 256..271 of region 0 */
    static const uint32_t al[3][3] = {{512, 512, 0}, {0, 40, 0}, {256, 16, 0}};
    fx_t *x = start_ps(UVM_PSIZE_COCOA, UVM_COALESCE_BY_HOST, al, 3);
    populate_ok(x, 512, 512);
    assert_int_equal(st(x)->coalesces, 1);
    expect_coalesced(&x->fk, VPN0 + 512, 0); /* the first 2 MB frame reserved */
    assert_int_equal(count_cmds(&x->fk, GMMU_CMD_INVAL_PAGE), 0);
    populate_ok(x, 0, 40);
    assert_int_equal(st(x)->coalesces, 1); /* c is not resident yet: partial, 4 KB */
    assert_false(parent_entry(&x->fk, VPN0) & PTE_L_BIT);
    for (uint32_t p = 0; p < 40; p++) /* at their offsets in the second 2 MB frame */
        assert_int_equal(walk(&x->fk, VPN0 + p, NULL),
                         (DATA_BASE + (512 + p) * PAGE) | PTE_V_BIT | PTE_W_BIT);
    assert_int_equal(walk(&x->fk, VPN0 + 256, NULL), 0);
    populate_ok(x, 256, 16);
    assert_int_equal(st(x)->coalesces, 2);
    expect_coalesced(&x->fk, VPN0, 512);
    assert_int_equal(st(x)->cocoa_fallbacks, 0);
    assert_int_equal(st(x)->data_pages_resident, 568);
    fx_done(x);
}

/* cocoa with coalesce_by gmmu: the entries of the unmanaged pages D-marked by the host, then one
 * COALESCE command for the region (the GMMU writes D and L itself) */
static void test_populate_cocoa_gmmu(void **state) {
    (void)state;
    static const uint32_t al[1][3] = {{0, 300, 0}};
    fx_t *x = start_ps(UVM_PSIZE_COCOA, UVM_COALESCE_BY_GMMU, al, 1);
    populate_ok(x, 0, 300);
    assert_int_equal(st(x)->coalesces, 1);
    assert_int_equal(count_cmds(&x->fk, GMMU_CMD_COALESCE), 1);
    size_t c = 0;
    while (x->fk.cmd[c].op != GMMU_CMD_COALESCE)
        c++;
    assert_int_equal(x->fk.cmd[c].arg, VPN0);
    uint64_t leaf_pa = 0;
    assert_int_equal(walk(&x->fk, VPN0 + 299, &leaf_pa),
                     (DATA_BASE + 299 * PAGE) | PTE_V_BIT | PTE_W_BIT);
    const uint64_t table = leaf_pa - 8 * 299;
    for (uint32_t p = 300; p < 512; p++) { /* written before the command */
        const uint64_t e = (DATA_BASE + p * PAGE) | PTE_V_BIT | PTE_W_BIT | PTE_D_BIT;
        assert_int_equal(fk_gpu_read64(&x->fk, table + 8 * p), e);
        assert_true(ev_find(&x->fk, 0, EV_GPU_W, table + 8 * p, 1, e) < x->fk.cmd[c].ev);
    }
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_populate_copies_and_maps),
        cmocka_unit_test(test_populate_twice_and_fault),
        cmocka_unit_test(test_populate_oversubscribed),
        cmocka_unit_test(test_prefetch_range),
        cmocka_unit_test(test_to_host_range),
        cmocka_unit_test(test_populate_pt_pool),
        cmocka_unit_test(test_populate_bad_calls),
        cmocka_unit_test(test_populate_2m),
        cmocka_unit_test(test_populate_cocoa),
        cmocka_unit_test(test_populate_cocoa_gmmu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
