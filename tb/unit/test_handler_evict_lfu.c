/*
 * test_handler_evict_lfu.c - the "lfu" eviction policy (docs/handler.md §6p) against the fake
 * device: the victim is the page with the fewest GPU accesses since its migration (the
 * platform's oracle, uvm_handler_note_access), ties broken by the older migration; a page's
 * count restarts when it migrates again; lru_oracle on the same history picks another order.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

static void access_n(fx_t *x, uint32_t f, unsigned n) {
    for (unsigned i = 0; i < n; i++) {
        x->fk.now += 100;
        uvm_handler_note_access(x->h, DATA_BASE + (uint64_t)f * PAGE, x->fk.now);
    }
}

/* 3 frames: a, b, c migrate in that order (frames 0, 1, 2); accesses: a 3, b 1, c 2, then b 5
 * more (the last access is b's). d evicts c (2, the fewest of a 3, b 6, c 2); e evicts d (0
 * since its migration into frame 2); f evicts e (0). */
static void run(const char *policy, fx_evicts_t *log) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 3;
    set_policy(&x->cfg, UVM_POLICY_EVICT, policy);
    fx_start(x);
    assert_int_equal(
        uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT), fx_record_evict, log), 0);
    for (uint64_t p = 0; p < 3; p++)
        fx_service_write(x, VPN0 + p);
    access_n(x, 0, 3);
    access_n(x, 1, 1);
    access_n(x, 2, 2);
    access_n(x, 1, 5);
    for (uint64_t p = 3; p < 6; p++)
        fx_service_write(x, VPN0 + p);
    fx_done(x);
}

static void test_lfu_order(void **state) {
    (void)state;
    fx_evicts_t a = {0}, b = {0};
    run("lfu", &a);
    assert_int_equal(a.n, 3);
    assert_int_equal(a.vpn[0], VPN0 + 2); /* c: 2 accesses */
    assert_int_equal(a.vpn[1], VPN0 + 3); /* d: 0 since its migration (frame 2, count reset) */
    assert_int_equal(a.vpn[2], VPN0 + 4); /* e: 0 */
    run("lru_oracle", &b);                /* by the last access: a, c, then b */
    assert_int_equal(b.n, 3);
    assert_int_equal(b.vpn[0], VPN0 + 0);
    assert_int_equal(b.vpn[1], VPN0 + 2);
}

/* pick: ties by migration order; a pinned page is skipped; groups; the oracle property. */
static void test_lfu_pick(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 4;
    set_policy(&x->cfg, UVM_POLICY_EVICT, "lfu");
    fx_start(x);
    for (uint64_t p = 0; p < 4; p++)
        fx_service_write(x, VPN0 + p);
    x->h->block_gen++;                                                 /* nothing pinned */
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 0); /* all 0: the oldest */
    access_n(x, 0, 2);
    access_n(x, 1, 1);
    access_n(x, 3, 1);
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 2);
    x->h->frames[2].pin_block = x->h->block_gen;
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 1); /* 1 access, older */
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 2), 0); /* frames 0-1 */
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 3), UVM_NONE);
    assert_int_equal(uvm_policy_props(UVM_POLICY_EVICT, "lfu"), UVM_POLICY_PROP_ACCESS_ORACLE);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lfu_order),
        cmocka_unit_test(test_lfu_pick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
