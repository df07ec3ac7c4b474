/*
 * test_handler_evict_optimal.c - the "optimal" eviction policy (Belady, docs/handler.md §6t)
 * against the fake device: the victim is the resident page whose next use (the uses given by
 * uvm_handler_set_page_uses, consumed by uvm_handler_note_access) is the farthest; pages never
 * used again go first, ties by the older migration; a page faulted in is used now until its
 * access is noted; lru and lru_oracle on the same history pick
 * other orders; without uses it is the migration order; the uses are refused by other policies.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

/* the oracle reports a use of page vpn (through its frame); none if it is not resident (the
 * access faults, as in the platform) */
static void use(fx_t *x, uint64_t vpn) {
    uvm_va_block_t *blk = uvm_va_block_get(x->h, vpn, false);
    assert_non_null(blk);
    if (!uvm_bitmap_test(blk->resident, uvm_block_page(vpn)))
        return;
    x->fk.now += 100;
    uvm_handler_note_access(x->h, DATA_BASE + (uint64_t)blk->frame[uvm_block_page(vpn)] * PAGE,
                            x->fk.now);
}

#define A (VPN0 + 0)
#define B (VPN0 + 1)
#define C (VPN0 + 2)
#define D (VPN0 + 3)
#define E (VPN0 + 4)

/* The trace's uses: a b c d a c e b c (positions 0..8). 3 frames: a, b, c migrate and are
 * used (0, 1, 2): next uses a 4, b 7, c 5. d evicts b (7, the farthest). d and a are used (3,
 * 4): neither is used again. e evicts a (never again, migrated before d). c and e are used (5,
 * 6): c next 8, e never. b evicts d (never again, older than e). */
static void run(const char *policy, bool uses, fx_evicts_t *log) {
    static const uint64_t seq[] = {A, B, C, D, A, C, E, B, C};
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 3;
    set_policy(&x->cfg, UVM_POLICY_EVICT, policy);
    fx_start(x);
    char err[256];
    if (uses)
        assert_int_equal(uvm_handler_set_page_uses(x->h, seq, 9, err, sizeof err), 0);
    assert_int_equal(
        uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT), fx_record_evict, log), 0);
    for (uint64_t p = A; p <= C; p++) {
        fx_service_write(x, p);
        use(x, p);
    }
    fx_service_write(x, D);
    use(x, D);
    use(x, A);
    fx_service_write(x, E);
    use(x, C);
    use(x, E);
    fx_service_write(x, B);
    fx_done(x);
}

static void test_optimal_order(void **state) {
    (void)state;
    fx_evicts_t o = {0}, l = {0}, lo = {0}, nu = {0};
    run("optimal", true, &o);
    assert_int_equal(o.n, 3);
    assert_int_equal(o.vpn[0], B); /* next use 7, the farthest */
    assert_int_equal(o.vpn[1], A); /* never used again, older migration than d */
    assert_int_equal(o.vpn[2], D); /* never used again, older migration than e */
    run("lru", false, &l);         /* by migration: a, b, c */
    assert_int_equal(l.n, 3);
    assert_int_equal(l.vpn[0], A);
    assert_int_equal(l.vpn[1], B);
    run("lru_oracle", false, &lo); /* by the last use: a, b, d */
    assert_int_equal(lo.n, 3);
    assert_int_equal(lo.vpn[0], A);
    assert_int_equal(lo.vpn[1], B);
    assert_int_equal(lo.vpn[2], D);
    run("optimal", false, &nu); /* no uses: every page "never again", the oldest migration */
    assert_int_equal(nu.n, 3);
    assert_int_equal(nu.vpn[0], A);
    assert_int_equal(nu.vpn[1], B);
    assert_int_equal(nu.vpn[2], C);
}

/* pick: a page faulted in and not yet used is used now; the farthest next use, a page absent
 * from the uses is never used, pinned pages are skipped, groups; uses given again restart; the
 * uses refused by another policy; the props. */
static void test_optimal_pick(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 4;
    set_policy(&x->cfg, UVM_POLICY_EVICT, "optimal");
    fx_start(x);
    char err[256];
    static const uint64_t seq[] = {A, B, C, A, C, B, A};
    assert_int_equal(uvm_handler_set_page_uses(x->h, seq, 7, err, sizeof err), 0);
    for (uint64_t p = A; p <= D; p++)
        fx_service_write(x, p);
    x->h->block_gen++; /* nothing pinned */
    for (uint32_t f = 0; f < 4; f++)
        assert_int_equal(x->h->frames[f].next_use, 0); /* faulted, not used yet: now */
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 0); /* ties: the oldest */
    for (uint64_t p = A; p <= D; p++)
        use(x, p); /* a next 3, b 5, c 4, d never */
    assert_int_equal(x->h->frames[1].next_use, 5);
    assert_int_equal(x->h->frames[3].next_use, UINT64_MAX);
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 3); /* d: not in the uses */
    x->h->frames[3].pin_block = x->h->block_gen;
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 1); /* b at 5: the farthest */
    use(x, C);                                                         /* c never again */
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 2);
    use(x, B); /* b never again */
    use(x, B); /* past its last use */
    assert_int_equal(x->h->frames[1].next_use, UINT64_MAX);
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 1);        /* older than c */
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 2), 0);        /* frames 0-1 */
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 4), UVM_NONE); /* d pinned */
    assert_int_equal(uvm_handler_set_page_uses(x->h, seq, 7, err, sizeof err), 0);
    assert_int_equal(x->h->frames[1].next_use, 1); /* restarted */
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 2);
    assert_int_equal(uvm_handler_set_page_uses(x->h, NULL, 3, err, sizeof err), -1);
    fx_done(x);
    assert_int_equal(uvm_policy_props(UVM_POLICY_EVICT, "optimal"),
                     UVM_POLICY_PROP_ACCESS_ORACLE | UVM_POLICY_PROP_NEXT_USE);
    x = fx_new();
    set_policy(&x->cfg, UVM_POLICY_EVICT, "lru_oracle");
    fx_start(x);
    assert_int_equal(uvm_handler_set_page_uses(x->h, seq, 7, err, sizeof err), -1);
    assert_non_null(strstr(err, "evict_policy 'lru_oracle' takes no page uses"));
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_optimal_order),
        cmocka_unit_test(test_optimal_pick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
