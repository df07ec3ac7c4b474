/*
 * test_handler_ts_full.c - transfer_sets_full (docs/handler.md §6p.5): Zheng's continued
 * prefetch while oversubscribed. With `stop` (the default) a transfer set takes at most the free
 * frames; with `evict` the locality prefetcher keeps prefetching once memory is full, each page
 * evicting one through the eviction policy, at most half the GPU frames per set, and the pages
 * the batch itself migrated are never its victims. fx_start's allocation "a" is 1 MB (pages
 * VPN0 + 0..255); 16 GPU frames; transfer sets of 8 pages.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

static fx_t *start(const char *evict, uint32_t ts_full) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 16;
    set_policy(&x->cfg, UVM_POLICY_PREFETCH, "locality");
    set_policy(&x->cfg, UVM_POLICY_EVICT, evict);
    x->cfg.transfer_set_pages = 8;
    x->cfg.ts_full = ts_full;
    fx_start(x);
    return x;
}

static bool mapped(fx_t *x, uint32_t page) {
    return (walk(&x->fk, VPN0 + page, NULL) & PTE_V_BIT) != 0;
}

static void fault(fx_t *x, uint32_t page) {
    fk_post(&x->fk, VPN0 + page, GMMU_AT_READ);
    uvm_handler_service(x->h);
}

/* faults 0 and 100 fill the 16 frames (each with 7 prefetch pages); then fault 200 */
static void fill_then_fault(fx_t *x) {
    fault(x, 0);
    fault(x, 100);
    assert_int_equal(st(x)->pages_prefetched, 14);
    assert_int_equal(st(x)->evictions, 0);
    fault(x, 200);
}

static void test_stop(void **state) {
    (void)state;
    fx_t *x = start("lru", 0);
    fill_then_fault(x);
    assert_int_equal(st(x)->pages_prefetched, 14); /* no free frame: no prefetch */
    assert_int_equal(st(x)->evictions, 1);         /* the demand page's */
    assert_true(mapped(x, 200));
    assert_false(mapped(x, 201));
    fx_done(x);
}

/* lru: the demand page evicts page 0, the 7 prefetch pages 201..207 evict pages 1..7 (the
 * oldest migrations); the set is at most half the frames (8 with its demand page). */
static void test_evict(void **state) {
    (void)state;
    fx_t *x = start("lru", 1);
    fill_then_fault(x);
    assert_int_equal(st(x)->pages_prefetched, 21);
    assert_int_equal(st(x)->evictions, 8);
    for (uint32_t p = 0; p < 8; p++) {
        assert_false(mapped(x, p));
        assert_true(mapped(x, 200 + p));
        assert_true(mapped(x, 100 + p));
    }
    fx_done(x);
}

/* random eviction, several seeds: the batch's demand page is never a victim of its own set. */
static void test_evict_keeps_batch(void **state) {
    (void)state;
    for (uint64_t seed = 1; seed <= 16; seed++) {
        fx_t *x = fx_new();
        x->cfg.gpu_data_pages = 16;
        x->cfg.seed = seed;
        set_policy(&x->cfg, UVM_POLICY_PREFETCH, "locality");
        set_policy(&x->cfg, UVM_POLICY_EVICT, "random");
        x->cfg.transfer_set_pages = 8;
        x->cfg.ts_full = 1;
        fx_start(x);
        fill_then_fault(x);
        assert_int_equal(st(x)->pages_prefetched, 21);
        assert_true(mapped(x, 200));
        for (uint32_t p = 201; p < 208; p++)
            assert_true(mapped(x, p));
        fx_done(x);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop),
        cmocka_unit_test(test_evict),
        cmocka_unit_test(test_evict_keeps_batch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
