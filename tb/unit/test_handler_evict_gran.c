/*
 * test_handler_evict_gran.c - evict_granularity (docs/handler.md §6.1, UVMSmart's eviction
 * granularities) against the fake device: lru and random evict the naturally aligned group of
 * their victim page, every resident page of it, in VA order; 1 keeps single pages; the key is
 * checked.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

/* 8 frames filled by pages 0..7 (frames 0..7); page 1 faults again (stale: no reorder); then
 * pages 8..11. Returns the evictions. */
static void run(const char *policy, uint32_t gran, fx_evicts_t *log) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 8;
    x->cfg.evict_granularity = gran;
    set_policy(&x->cfg, UVM_POLICY_EVICT, policy);
    fx_start(x);
    assert_int_equal(
        uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT), fx_record_evict, log), 0);
    for (uint64_t p = 0; p < 8; p++)
        fx_service_write(x, VPN0 + p);
    for (uint32_t f = 0; f < 8; f++)
        assert_int_equal(x->h->frames[f].vpn, VPN0 + f);
    for (uint64_t p = 8; p < 12; p++)
        fx_service_write(x, VPN0 + p);
    assert_int_equal(st(x)->evictions, log->n);
    fx_done(x);
}

static void test_lru_granularity(void **state) {
    (void)state;
    fx_evicts_t one = {0}, four = {0};
    run("lru", 1, &one); /* a page per fault: 0, 1, 2, 3 */
    assert_int_equal(one.n, 4);
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(one.vpn[i], VPN0 + i);
    run("lru", 4, &four); /* page 8 evicts frames 0..3 whole; 9..11 reuse them */
    assert_int_equal(four.n, 4);
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(four.vpn[i], VPN0 + i);
    fx_evicts_t two = {0};
    run("lru", 2, &two); /* 8 evicts 0-1, 9 reuses, 10 evicts 2-3, 11 reuses */
    assert_int_equal(two.n, 4);
}

/* random at 4 frames: every eviction takes a whole aligned group of 4, in VA order */
static void test_random_granularity(void **state) {
    (void)state;
    fx_evicts_t g = {0};
    run("random", 4, &g);
    assert_int_equal(g.n, 4);
    const uint64_t first = g.vpn[0];
    assert_int_equal((first - VPN0) % 4u, 0);
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(g.vpn[i], first + i);
}

static void test_granularity_key(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.evict_granularity = 12;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_string_equal(x->err, "uvm: evict_granularity 12 must be a power of two in [1, 512]");
    free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lru_granularity),
        cmocka_unit_test(test_random_granularity),
        cmocka_unit_test(test_granularity_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
