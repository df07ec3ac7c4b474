/*
 * test_handler_evict_clock.c - the "clock" eviction policy and writeback = dirty
 * (docs/handler.md §6r) against the fake device: the accessed / dirty bits are set in the fake's
 * page table as the walker would (docs/microarch.md §18); clock gives a page with ACC a second
 * chance (ACC cleared, INVAL_PAGE) and evicts the first page without it; writeback = dirty copies
 * back only a page whose leaf had DRT when it was unmapped, and counts the bytes saved.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

#define ACC_BIT (UINT64_C(1) << GMMU_PTE_ACC)
#define DRT_BIT (UINT64_C(1) << GMMU_PTE_DRT)

/* the walker's set-bits write on page vpn's leaf */
static void set_bits(fx_t *x, uint64_t vpn, uint64_t bits) {
    uint64_t pa = 0;
    const uint64_t pte = walk(&x->fk, vpn, &pa);
    assert_true(pte & PTE_V_BIT);
    fk_gpu_write64(&x->fk, pa, pte | bits);
}

static uint64_t leaf(fx_t *x, uint64_t vpn) {
    return walk(&x->fk, vpn, NULL);
}

/* 3 frames: a, b, c (frames 0, 1, 2); a and c accessed (ACC). d: the hand clears a's ACC and
 * evicts b; e: clears c's ACC, evicts a (cleared, not accessed since); f: evicts d (frame 1, no
 * ACC). lru on the same history evicts a, b, c. */
static void test_clock_second_chance(void **state) {
    (void)state;
    fx_evicts_t log = {0};
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 3;
    set_policy(&x->cfg, UVM_POLICY_EVICT, "clock");
    fx_start(x);
    assert_int_equal(
        uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT), fx_record_evict, &log), 0);
    for (uint64_t p = 0; p < 3; p++)
        fx_service_write(x, VPN0 + p);
    set_bits(x, VPN0 + 0, ACC_BIT);
    set_bits(x, VPN0 + 2, ACC_BIT);
    const uint64_t inv0 = x->h->stats.invalidates;
    fx_service_write(x, VPN0 + 3);
    assert_int_equal(log.n, 1);
    assert_int_equal(log.vpn[0], VPN0 + 1);
    assert_false(leaf(x, VPN0 + 0) & ACC_BIT); /* cleared: its second chance */
    assert_true(leaf(x, VPN0 + 0) & PTE_V_BIT);
    assert_int_equal(x->h->stats.clock_acc_clears, 1);
    /* one INVAL_PAGE after the clear, one for the eviction's unmap */
    assert_int_equal(x->h->stats.invalidates - inv0, 2);
    fx_service_write(x, VPN0 + 4);
    assert_int_equal(log.n, 2);
    assert_int_equal(log.vpn[1], VPN0 + 0);
    assert_false(leaf(x, VPN0 + 2) & ACC_BIT);
    fx_service_write(x, VPN0 + 5);
    assert_int_equal(log.n, 3);
    assert_int_equal(log.vpn[2], VPN0 + 3);
    assert_int_equal(x->h->stats.clock_acc_clears, 2);
    assert_int_equal(x->h->stats.clock_pte_reads, 5); /* a b | c a | d */
    fx_done(x);
}

/* every page referenced: one sweep clears them all, the second finds the first page; a pinned
 * page is skipped without reading its PTE */
static void test_clock_all_referenced(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 2;
    set_policy(&x->cfg, UVM_POLICY_EVICT, "clock");
    fx_start(x);
    for (uint64_t p = 0; p < 2; p++)
        fx_service_write(x, VPN0 + p);
    x->h->block_gen++; /* nothing pinned */
    set_bits(x, VPN0 + 0, ACC_BIT);
    set_bits(x, VPN0 + 1, ACC_BIT);
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 0);
    assert_int_equal(x->h->stats.clock_acc_clears, 2);
    x->h->frames[0].pin_block = x->h->block_gen;
    const uint64_t reads = x->h->stats.clock_pte_reads;
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 1);
    assert_int_equal(x->h->stats.clock_pte_reads - reads, 1);
    x->h->frames[1].pin_block = x->h->block_gen;
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), UVM_NONE);
    fx_done(x);
}

/* writeback = dirty: a clean writable page is not copied back (4096 bytes saved), a dirty one
 * is; writeback = all copies both */
static void run_wb(bool dirty_only, uint64_t *d2h, uint64_t *saved) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 1;
    x->cfg.writeback_dirty = dirty_only ? 1u : 0u;
    set_policy(&x->cfg, UVM_POLICY_EVICT, "lru");
    fx_start(x);
    fx_service_write(x, VPN0 + 0);
    set_bits(x, VPN0 + 0, ACC_BIT); /* read only: clean */
    fx_service_write(x, VPN0 + 1);  /* evicts page 0 */
    set_bits(x, VPN0 + 1, ACC_BIT | DRT_BIT);
    fx_service_write(x, VPN0 + 2); /* evicts page 1 */
    *d2h = x->h->stats.pages_d2h;
    *saved = x->h->stats.wb_bytes_saved;
    assert_int_equal(x->h->stats.evictions, 2);
    fx_done(x);
}

static void test_writeback_dirty(void **state) {
    (void)state;
    uint64_t d2h = 0, saved = 0;
    run_wb(true, &d2h, &saved);
    assert_int_equal(d2h, 1);
    assert_int_equal(saved, PAGE);
    run_wb(false, &d2h, &saved);
    assert_int_equal(d2h, 2);
    assert_int_equal(saved, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_second_chance),
        cmocka_unit_test(test_clock_all_referenced),
        cmocka_unit_test(test_writeback_dirty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
