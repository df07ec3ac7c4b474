/*
 * test_handler_zheng.c - Zheng et al.'s allocation-wide prefetchers with transfer sets
 * (sw-handler/uvm_prefetch_zheng.c, docs/handler.md §6d): exactly which pages random,
 * sequential and locality migrate after a fault batch, and the transfer-set budget (demand
 * pages first, cfg.transfer_set_pages in all, never more than the free frames, no eviction).
 * fx_start's allocation "a" is 1 MB (pages VPN0 + 0..255); the GPU has 64 frames.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"
#include "rng.h"

static fx_t *start(const char *policy, uint32_t set_pages) {
    fx_t *x = fx_new();
    set_policy(&x->cfg, UVM_POLICY_PREFETCH, policy);
    x->cfg.transfer_set_pages = set_pages;
    fx_start(x);
    return x;
}

static bool mapped(fx_t *x, uint32_t page) {
    return (walk(&x->fk, VPN0 + page, NULL) & PTE_V_BIT) != 0;
}

/* The mapped pages of "a" as a 256-bit map, compared with the expected one. */
static void expect_mapped(fx_t *x, const uint32_t *pages, uint32_t n) {
    bool want[256] = {false};
    for (uint32_t i = 0; i < n; i++)
        want[pages[i]] = true;
    for (uint32_t p = 0; p < 256; p++)
        if (mapped(x, p) != want[p])
            fail_msg("page %u: mapped %d, expected %d", p, mapped(x, p), want[p]);
}

static void fault(fx_t *x, uint32_t page) {
    fk_post(&x->fk, VPN0 + page, GMMU_AT_READ);
    uvm_handler_service(x->h);
}

/* sequential: the lowest non-resident pages of the managed allocations first. */
static void test_sequential(void **state) {
    (void)state;
    fx_t *x = start("sequential", 10);
    fault(x, 100); /* demand 100, then 9 prefetch pages: 0..8 */
    uint32_t want[20] = {100};
    for (uint32_t i = 0; i < 9; i++)
        want[1 + i] = i;
    expect_mapped(x, want, 10);
    assert_int_equal(st(x)->pages_h2d, 10);
    assert_int_equal(st(x)->pages_prefetched, 9);
    fault(x, 5); /* resident already: a stale fault, no demand page; the set is 9..18 */
    for (uint32_t i = 0; i < 10; i++)
        want[10 + i] = 9 + i;
    expect_mapped(x, want, 20);
    assert_int_equal(st(x)->pages_prefetched, 19);
    fx_done(x);
}

/* locality: the 128 pages after the latest fault, inside its allocation. */
static void test_locality(void **state) {
    (void)state;
    fx_t *x = start("locality", 10);
    fault(x, 100); /* 101..109 */
    uint32_t want[32] = {100, 101, 102, 103, 104, 105, 106, 107, 108, 109};
    expect_mapped(x, want, 10);
    fault(x, 250); /* the allocation ends at 255: 251..255 */
    const uint32_t more[6] = {250, 251, 252, 253, 254, 255};
    memcpy(&want[10], more, sizeof more);
    expect_mapped(x, want, 16);
    assert_int_equal(st(x)->pages_prefetched, 9 + 5);
    fx_done(x);
}

/* locality skips resident pages and looks no further than 128 pages. */
static void test_locality_window(void **state) {
    (void)state;
    fx_t *x = start("locality", 200);
    fault(x, 0); /* 1..63 only: 64 frames (a prefetch never evicts) */
    assert_int_equal(st(x)->pages_h2d, 64);
    assert_int_equal(st(x)->evictions, 0);
    for (uint32_t p = 0; p < 256; p++)
        assert_int_equal(mapped(x, p), p < 64);
    fx_done(x);
}

/* random: pages drawn from the allocation of the latest fault with the run's seed ("zheng"),
 * resident and repeated draws lost. */
static void test_random(void **state) {
    (void)state;
    fx_t *x = start("random", 10);
    fault(x, 100);
    rng_t r;
    rng_seed(&r, x->cfg.seed, 0x7a68656e67ull);
    uint32_t want[10] = {100};
    uint32_t n = 1;
    for (uint32_t d = 0; d < 4u * 9u && n < 10; d++) {
        const uint32_t p = (uint32_t)(rng_next(&r) % 256u);
        bool dup = false;
        for (uint32_t i = 0; i < n; i++)
            dup = dup || want[i] == p;
        if (!dup)
            want[n++] = p;
    }
    assert_int_equal(n, 10);
    expect_mapped(x, want, n);
    assert_int_equal(st(x)->pages_prefetched, 9);
    fx_done(x);
}

/* The transfer set: demand pages count against it; a batch that fills it prefetches nothing. */
static void test_budget_demand_first(void **state) {
    (void)state;
    fx_t *x = start("sequential", 4);
    fk_post(&x->fk, VPN0 + 100, GMMU_AT_READ);
    fk_post(&x->fk, VPN0 + 120, GMMU_AT_READ);
    fk_post(&x->fk, VPN0 + 140, GMMU_AT_READ);
    uvm_handler_service(x->h); /* one batch: 3 demand pages, 1 prefetch page (0) */
    const uint32_t want[8] = {100, 120, 140, 0, 200, 201, 202, 203};
    expect_mapped(x, want, 4);
    assert_int_equal(st(x)->pages_prefetched, 1);
    for (uint32_t i = 0; i < 4; i++)
        fk_post(&x->fk, VPN0 + 200 + i, GMMU_AT_READ);
    uvm_handler_service(x->h); /* 4 demand pages fill the set */
    expect_mapped(x, want, 8);
    assert_int_equal(st(x)->pages_prefetched, 1);
    fx_done(x);
}

/* The allocation-wide hook crosses 2 MB blocks: "b" starts 2 pages before block 1. */
static void test_across_blocks(void **state) {
    (void)state;
    fx_t *x = start("locality", 8);
    assert_int_equal(uvm_handler_add_alloc(x->h, "b", ALLOC_BASE + 510 * PAGE, 2u << 20, 0, x->err,
                                           sizeof x->err),
                     0);
    fault(x, 510); /* demand 510, then 511 (block 0) and 512..517 (block 1) */
    for (uint32_t p = 505; p < 525; p++)
        assert_int_equal(mapped(x, p), p >= 510 && p < 518);
    assert_int_equal(st(x)->pages_prefetched, 7);
    fx_done(x);
}

/* oracle: the first non-resident pages of the registered first-touch order. */
static void test_oracle(void **state) {
    (void)state;
    fx_t *x = start("oracle", 4);
    const uint32_t order[] = {50, 10, 200, 11, 10, 12, 13, 14, 15, 16, 17, 18};
    uint64_t vpns[12];
    for (uint32_t i = 0; i < 12; i++)
        vpns[i] = VPN0 + order[i];
    assert_int_equal(uvm_handler_set_page_order(x->h, vpns, 12, x->err, sizeof x->err), 0);
    fault(x, 50); /* demand 50, then 10, 200, 11 */
    uint32_t want[16] = {50, 10, 200, 11};
    expect_mapped(x, want, 4);
    fault(x, 13); /* demand 13, then 12, 14, 15 (the repeated 10 was dropped, 13 is resident) */
    const uint32_t more[4] = {13, 12, 14, 15};
    memcpy(&want[4], more, sizeof more);
    expect_mapped(x, want, 8);
    fault(x, 100); /* not in the order: demand 100, then 16, 17, 18 (the order ends) */
    const uint32_t last[4] = {100, 16, 17, 18};
    memcpy(&want[8], last, sizeof last);
    expect_mapped(x, want, 12);
    assert_int_equal(st(x)->pages_prefetched, 3 + 3 + 3);
    fx_done(x);
}

/* oracle without an order prefetches nothing. */
static void test_oracle_no_order(void **state) {
    (void)state;
    fx_t *x = start("oracle", 4);
    fault(x, 50);
    const uint32_t want[1] = {50};
    expect_mapped(x, want, 1);
    assert_int_equal(st(x)->pages_prefetched, 0);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sequential),
        cmocka_unit_test(test_locality),
        cmocka_unit_test(test_locality_window),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_budget_demand_first),
        cmocka_unit_test(test_across_blocks),
        cmocka_unit_test(test_oracle),
        cmocka_unit_test(test_oracle_no_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
