/*
 * test_handler_unused.c - count_unused (docs/handler.md §6z, issue 20 item 3): pages evicted
 * before any GPU access since their migration, of them the prefetched ones, and the prefetched
 * pages still unused at the end, on hand-made histories against the fake device. 16 GPU frames,
 * the locality prefetcher with transfer sets of 8 that keep prefetching when memory is full
 * (transfer_sets_full = evict, §6p.5), lru: fault 0 brings pages 0..7 (0 faulted, 1..7
 * prefetched), fault 100 pages 100..107; fault 200 evicts pages 0..7 (the oldest migrations),
 * fault 150 pages 100..107. The uses come from the access oracle (uvm_handler_note_access) or
 * from the leaf PTE's accessed bit (set here as the walker would, with ad_bits = 1).
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

#define ACC_BIT (UINT64_C(1) << GMMU_PTE_ACC)

static fx_t *start(uvm_count_unused_t mode) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 16;
    set_policy(&x->cfg, UVM_POLICY_PREFETCH, "locality");
    set_policy(&x->cfg, UVM_POLICY_EVICT, "lru");
    x->cfg.transfer_set_pages = 8;
    x->cfg.ts_full = 1;
    x->cfg.count_unused = mode;
    fx_start(x);
    return x;
}

static void fault(fx_t *x, uint32_t page) {
    fk_post(&x->fk, VPN0 + page, GMMU_AT_READ);
    uvm_handler_service(x->h);
}

static uint32_t frame_of(fx_t *x, uint32_t page) {
    uint32_t f = UVM_NONE;
    assert_true(uvm_va_block_resident(x->h, VPN0 + page, &f));
    return f;
}

/* the oracle: the platform reports an access to page's frame */
static void use(fx_t *x, uint32_t page) {
    uvm_handler_note_access(x->h, DATA_BASE + (uint64_t)frame_of(x, page) * PAGE, x->fk.now);
}

/* the walker's set-bits write of ACC on page's leaf */
static void set_acc(fx_t *x, uint32_t page) {
    uint64_t pa = 0;
    const uint64_t pte = walk(&x->fk, VPN0 + page, &pa);
    assert_true(pte & PTE_V_BIT);
    fk_gpu_write64(&x->fk, pa, pte | ACC_BIT);
}

static void fill(fx_t *x) {
    fault(x, 0);
    fault(x, 100);
    assert_int_equal(st(x)->pages_prefetched, 14);
    assert_int_equal(st(x)->evictions, 0);
}

/* oracle: pages 0 (faulted), 1, 2 used; fault 200 evicts 0..7: 3..7 unused, all prefetched.
 * Page 100 (faulted) is never used: fault 150 evicts 100..107, all 8 unused, 7 prefetched.
 * At the end 200..207 and 150..157 are resident, none used; a use of 201 takes it out. */
static void test_oracle(void **state) {
    (void)state;
    fx_t *x = start(UVM_UNUSED_ORACLE);
    fill(x);
    use(x, 0);
    use(x, 1);
    use(x, 2);
    use(x, 2);
    fault(x, 200);
    assert_int_equal(st(x)->evictions, 8);
    assert_int_equal(st(x)->unused_evicted, 5);
    assert_int_equal(st(x)->unused_evicted_prefetch, 5);
    fault(x, 150);
    assert_int_equal(st(x)->evictions, 16);
    assert_int_equal(st(x)->unused_evicted, 13);
    assert_int_equal(st(x)->unused_evicted_prefetch, 12);
    uint64_t pref = 0, all = 0;
    uvm_handler_unused_resident(x->h, &pref, &all);
    assert_int_equal(all, 16);
    assert_int_equal(pref, 14);
    use(x, 201);
    use(x, 150);
    uvm_handler_unused_resident(x->h, &pref, &all);
    assert_int_equal(all, 14);
    assert_int_equal(pref, 13);
    fx_done(x);
}

/* off (the default): nothing counted, the same victims */
static void test_off(void **state) {
    (void)state;
    fx_t *x = start(UVM_UNUSED_OFF);
    fill(x);
    use(x, 0);
    fault(x, 200);
    fault(x, 150);
    assert_int_equal(st(x)->evictions, 16);
    assert_int_equal(st(x)->unused_evicted, 0);
    assert_int_equal(st(x)->unused_evicted_prefetch, 0);
    fx_done(x);
}

/* acc: the accessed bit read at the unmap; page 0's ACC cleared by a clock test (a use seen
 * before the unmap), pages 1 and 4 with ACC at the unmap; the oracle's reports are ignored
 * (page 2's use below does not count). Each unmap reads the leaf: 16 reads of t_pte_read_ns. */
static void test_acc(void **state) {
    (void)state;
    fx_t *x = start(UVM_UNUSED_ACC);
    fill(x);
    set_acc(x, 0);
    assert_true(uvm_place_clear_accessed(x->h, VPN0 + 0));
    assert_false(walk(&x->fk, VPN0 + 0, NULL) & ACC_BIT);
    set_acc(x, 1);
    set_acc(x, 4);
    use(x, 2); /* an oracle report: not a use for acc */
    fault(x, 200);
    assert_int_equal(st(x)->evictions, 8);
    assert_int_equal(st(x)->unused_evicted, 5);          /* 2, 3, 5, 6, 7 */
    assert_int_equal(st(x)->unused_evicted_prefetch, 5); /* all prefetched */
    set_acc(x, 100);
    fault(x, 150);
    assert_int_equal(st(x)->unused_evicted, 12);
    assert_int_equal(st(x)->unused_evicted_prefetch, 12); /* 101..107: page 100 was used */
    fx_done(x);
}

/* acc costs one leaf read per unmapped page: the same history takes longer than with off */
static void test_acc_cost(void **state) {
    (void)state;
    uint64_t t[2];
    for (int i = 0; i < 2; i++) {
        fx_t *x = start(i ? UVM_UNUSED_ACC : UVM_UNUSED_OFF);
        fill(x);
        const uint64_t t0 = x->fk.now;
        fault(x, 200);
        t[i] = x->fk.now - t0;
        fx_done(x);
    }
    assert_true(t[1] >= t[0] + 8u * 1000u); /* 8 unmaps, hdl_pte_read_ns = 1000 each */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle),
        cmocka_unit_test(test_off),
        cmocka_unit_test(test_acc),
        cmocka_unit_test(test_acc_cost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
