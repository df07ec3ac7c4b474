/*
 * test_handler_evict_oracle.c - the "lru_oracle" eviction policy (docs/handler.md §6.1) against
 * the fake device: the victim is the page with the oldest last GPU access, the accesses given by
 * the platform's oracle (uvm_handler_note_access); lru (by migration) on the same history picks
 * another page; accesses to frames outside GPU memory or not resident are ignored.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

static uint64_t frame_pa(uint32_t f) {
    return DATA_BASE + (uint64_t)f * PAGE;
}

/* 3 frames: a, b, c migrate in that order (frames 0, 1, 2); the oracle reports an access to a,
 * then to c; d evicts b (never accessed since its migration), e evicts a, then f evicts c.
 * Returns the evictions of d, e and f. */
static void run(const char *policy, fx_evicts_t *log) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 3;
    set_policy(&x->cfg, UVM_POLICY_EVICT, policy);
    fx_start(x);
    assert_int_equal(
        uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT), fx_record_evict, log), 0);
    for (uint64_t p = 0; p < 3; p++)
        fx_service_write(x, VPN0 + p);
    for (uint32_t f = 0; f < 3; f++)
        assert_int_equal(x->h->frames[f].vpn, VPN0 + f);
    x->fk.now += 1000;
    uvm_handler_note_access(x->h, frame_pa(0), x->fk.now);
    x->fk.now += 1000;
    uvm_handler_note_access(x->h, frame_pa(2), x->fk.now);
    uvm_handler_note_access(x->h, frame_pa(3), x->fk.now + 5); /* outside: ignored */
    uvm_handler_note_access(x->h, DATA_BASE - PAGE, x->fk.now + 5);
    for (uint64_t p = 3; p < 6; p++)
        fx_service_write(x, VPN0 + p);
    fx_done(x);
}

static void test_lru_oracle_order(void **state) {
    (void)state;
    fx_evicts_t a = {0}, b = {0};
    run("lru_oracle", &a);
    assert_int_equal(a.n, 3);
    assert_int_equal(a.vpn[0], VPN0 + 1);
    assert_int_equal(a.vpn[1], VPN0 + 0);
    assert_int_equal(a.vpn[2], VPN0 + 2);
    run("lru", &b); /* by migration: the oracle's accesses change nothing */
    assert_int_equal(b.n, 3);
    assert_int_equal(b.vpn[0], VPN0 + 0);
    assert_int_equal(b.vpn[1], VPN0 + 1);
    assert_int_equal(b.vpn[2], VPN0 + 2);
}

/* pick: a pinned page is skipped; a group is the aligned group of the oldest eligible page; the
 * property asks the platform for the oracle, lru does not. */
static void test_lru_oracle_pick(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 4;
    set_policy(&x->cfg, UVM_POLICY_EVICT, "lru_oracle");
    fx_start(x);
    for (uint64_t p = 0; p < 4; p++)
        fx_service_write(x, VPN0 + p);
    x->h->block_gen++; /* nothing pinned */
    uvm_handler_note_access(x->h, frame_pa(0), x->fk.now + 10);
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 1);
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 2), 0); /* frames 0-1 */
    x->h->frames[1].pin_block = x->h->block_gen;
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 2);
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 2), 2); /* frames 2-3 */
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 3), UVM_NONE);
    assert_int_equal(uvm_policy_props(UVM_POLICY_EVICT, "lru_oracle"),
                     UVM_POLICY_PROP_ACCESS_ORACLE);
    assert_int_equal(uvm_policy_props(UVM_POLICY_EVICT, "lru"), UVM_POLICY_PROP_MAP_ORDER);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lru_oracle_order),
        cmocka_unit_test(test_lru_oracle_pick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
