/*
 * test_handler_policy.c - the policy registry of the host fault handler: lookup by name for every
 * kind, unknown names rejected with the list of known ones, uvm_cfg_set_policy, and the eviction
 * policy interface (state from the RESIDENT / NONRESIDENT events it subscribed to, pick at a
 * granularity) driven directly through the handler's event stream.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

static void test_kind_names(void **state) {
    (void)state;
    assert_string_equal(uvm_policy_kind_name(UVM_POLICY_REPLAY), "replay");
    assert_string_equal(uvm_policy_kind_name(UVM_POLICY_EVICT), "evict");
    assert_string_equal(uvm_policy_kind_name(UVM_POLICY_PREFETCH), "prefetch");
    assert_string_equal(uvm_policy_kind_name(UVM_POLICY_THRASHING), "thrashing");
    assert_null(uvm_policy_kind_name(UVM_POLICY_KINDS));
}

static void test_lookup_known(void **state) {
    (void)state;
    static const struct {
        uvm_policy_kind_t kind;
        const char *name;
    } known[] = {{UVM_POLICY_REPLAY, "block"},       {UVM_POLICY_REPLAY, "batch"},
                 {UVM_POLICY_REPLAY, "batch_flush"}, {UVM_POLICY_REPLAY, "once"},
                 {UVM_POLICY_EVICT, "lru"},          {UVM_POLICY_EVICT, "random"},
                 {UVM_POLICY_EVICT, "fifo"},         {UVM_POLICY_PREFETCH, "none"},
                 {UVM_POLICY_THRASHING, "none"}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        char err[128] = "";
        const void *ops = uvm_policy_find(known[i].kind, known[i].name);
        assert_non_null(ops);
        /* every ops struct starts with its registered name, shorter than the cfg field */
        assert_string_equal(*(const char *const *)ops, known[i].name);
        assert_true(strlen(known[i].name) < UVM_POLICY_NAME_MAX);
        assert_int_equal(uvm_policy_check(known[i].kind, known[i].name, err, sizeof err), 0);
    }
    assert_ptr_equal(uvm_policy_find(UVM_POLICY_EVICT, "lru"), &uvm_evict_lru_ops);
    assert_ptr_equal(uvm_policy_find(UVM_POLICY_EVICT, "random"), &uvm_evict_random_ops);
    assert_ptr_equal(uvm_policy_find(UVM_POLICY_EVICT, "fifo"), &uvm_evict_fifo_ops);
    /* a name of another kind is not found */
    assert_null(uvm_policy_find(UVM_POLICY_EVICT, "batch"));
    assert_null(uvm_policy_find(UVM_POLICY_REPLAY, "lru"));
    assert_null(uvm_policy_find(UVM_POLICY_KINDS, "lru"));
    assert_null(uvm_policy_find(UVM_POLICY_REPLAY, NULL));
}

static void test_unknown_names_list_known(void **state) {
    (void)state;
    char err[128];
    assert_int_equal(uvm_policy_check(UVM_POLICY_REPLAY, "never", err, sizeof err), -1);
    assert_string_equal(err, "'never' is not one of block|batch|batch_flush|once");
    assert_int_equal(uvm_policy_check(UVM_POLICY_EVICT, "LRU", err, sizeof err), -1);
    assert_string_equal(
        err, "'LRU' is not one of lru|random|fifo|nvidia|lru_oracle|lfu|optimal|clock|tbne");
    assert_int_equal(uvm_policy_check(UVM_POLICY_PREFETCH, "tree", err, sizeof err), -1);
    assert_string_equal(err,
                        "'tree' is not one of "
                        "none|nvidia|tbn|seq_local|random_local|random|sequential|locality|oracle");
    assert_int_equal(uvm_policy_check(UVM_POLICY_THRASHING, "", err, sizeof err), -1);
    assert_string_equal(err, "'' is not one of none|nvidia|capacity");
    assert_int_equal(uvm_policy_check(UVM_POLICY_KINDS, "none", err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown policy kind"));
    /* a short buffer truncates the message, never overflows */
    char small[12];
    assert_int_equal(uvm_policy_check(UVM_POLICY_REPLAY, "never", small, sizeof small), -1);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_int_equal(uvm_policy_check(UVM_POLICY_REPLAY, "never", NULL, 0), -1);
}

static void test_cfg_set_policy(void **state) {
    (void)state;
    uvm_cfg_t c;
    char err[128];
    uvm_cfg_defaults(&c);
    assert_int_equal(uvm_cfg_set_policy(&c, UVM_POLICY_EVICT, "random", err, sizeof err), 0);
    assert_string_equal(c.policy[UVM_POLICY_EVICT], "random");
    assert_int_equal(uvm_cfg_set_policy(&c, UVM_POLICY_EVICT, "mru", err, sizeof err), -1);
    assert_string_equal(c.policy[UVM_POLICY_EVICT], "random"); /* unchanged on error */
    assert_string_equal(
        err, "'mru' is not one of lru|random|fifo|nvidia|lru_oracle|lfu|optimal|clock|tbne");
    assert_int_equal(uvm_cfg_set_policy(NULL, UVM_POLICY_EVICT, "lru", err, sizeof err), -1);
}

/* The events an eviction policy observes, emitted as uvm_mem.c does (page vpn in frame f). */
static void resident(uvm_handler_t *h, uint64_t vpn, uint32_t f) {
    uvm_emit_page(h, UVM_EVENT_RESIDENT, vpn, f, 1, true);
}
static void nonresident(uvm_handler_t *h, uint64_t vpn, uint32_t f) {
    uvm_emit_page(h, UVM_EVENT_NONRESIDENT, vpn, f, 1, true);
}
static void touch(uvm_handler_t *h, uint64_t vpn, uint32_t f) {
    const uvm_fault_t fault = {.vpn = vpn, .count = 1, .access = GMMU_AT_READ};
    uvm_emit_block_fault(h, &fault, true, f);
}

/* The eviction interface driven through the event stream: lru picks in migration order, skips
 * pinned frames, forgets unmapped ones, ignores accesses; a granularity other than one page is
 * rejected. */
static void test_evict_interface_lru(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fx_start(x);
    uvm_handler_t *h = x->h;
    const uvm_evict_ops_t *ev = h->evict;
    assert_ptr_equal(ev, &uvm_evict_lru_ops);
    h->block_gen = 100; /* no frame pinned */
    for (uint32_t f = 0; f < 4; f++)
        h->frames[f].resident = true;
    assert_int_equal(ev->events,
                     UVM_EVENT_MASK(UVM_EVENT_RESIDENT) | UVM_EVENT_MASK(UVM_EVENT_NONRESIDENT));
    resident(h, VPN0 + 7, 2);
    resident(h, VPN0 + 5, 0);
    resident(h, VPN0 + 9, 3);
    touch(h, VPN0 + 7, 2); /* migration order: not refreshed */
    assert_int_equal(ev->pick(h, h->evict_priv, 1), 2);
    h->frames[2].pin_block = h->block_gen; /* pinned in the current block */
    assert_int_equal(ev->pick(h, h->evict_priv, 1), 0);
    nonresident(h, VPN0 + 5, 0);
    assert_int_equal(ev->pick(h, h->evict_priv, 1), 3);
    assert_int_equal(ev->pick(h, h->evict_priv, 16), UVM_NONE); /* group 0 holds pinned 2 */
    h->frames[3].pin_block = h->block_gen;
    assert_int_equal(ev->pick(h, h->evict_priv, 1), UVM_NONE);
    for (uint32_t f = 0; f < 4; f++)
        h->frames[f].resident = false;
    fx_done(x);
}

static void test_evict_interface_random(void **state) {
    (void)state;
    fx_t *x = fx_new();
    set_policy(&x->cfg, UVM_POLICY_EVICT, "random");
    fx_start(x);
    uvm_handler_t *h = x->h;
    assert_ptr_equal(h->evict, &uvm_evict_random_ops);
    h->block_gen = 100;
    h->frames[5].resident = true;
    h->frames[9].resident = true;
    for (int i = 0; i < 20; i++) {
        const uint32_t v = h->evict->pick(h, h->evict_priv, 1);
        assert_true(v == 5 || v == 9);
    }
    h->frames[9].pin_block = h->block_gen;
    assert_int_equal(h->evict->pick(h, h->evict_priv, 1), 5);
    assert_int_equal(h->evict->pick(h, h->evict_priv, 3), UVM_NONE); /* not a power of two */
    h->frames[5].resident = false;
    h->frames[9].resident = false;
    fx_done(x);
}

/* Victim groups: aligned, holding a resident page and no pinned resident page; lru takes the
 * group of the oldest eligible page, random any eligible group; bad granularities give none. */
static void test_evict_granularity(void **state) {
    (void)state;
    for (int pol = 0; pol < 2; pol++) {
        fx_t *x = fx_new(); /* 64 frames */
        set_policy(&x->cfg, UVM_POLICY_EVICT, pol ? "random" : "lru");
        fx_start(x);
        uvm_handler_t *h = x->h;
        const uvm_evict_ops_t *ev = h->evict;
        h->block_gen = 100;
        const uint32_t res[] = {40, 20, 5}; /* migration order */
        for (size_t i = 0; i < 3; i++) {
            h->frames[res[i]].resident = true;
            resident(h, VPN0 + i, res[i]);
        }
        for (int k = 0; k < 8; k++) {
            const uint32_t g = ev->pick(h, h->evict_priv, 16);
            if (!pol)
                assert_int_equal(g, 32); /* the group of frame 40, the oldest */
            else
                assert_true(g == 0 || g == 16 || g == 32); /* never 48: nothing resident */
        }
        h->frames[40].pin_block = h->block_gen;
        h->frames[5].pin_block = h->block_gen;
        for (int k = 0; k < 8; k++)
            assert_int_equal(ev->pick(h, h->evict_priv, 16), 16);
        assert_int_equal(ev->pick(h, h->evict_priv, 64), UVM_NONE);  /* holds pinned frames */
        assert_int_equal(ev->pick(h, h->evict_priv, 512), UVM_NONE); /* beyond the 64 frames */
        assert_int_equal(ev->pick(h, h->evict_priv, 1024), UVM_NONE);
        assert_int_equal(ev->pick(h, h->evict_priv, 0), UVM_NONE);
        assert_int_equal(ev->pick(h, h->evict_priv, 24), UVM_NONE);
        h->block_gen++; /* a new block: nothing pinned */
        assert_int_equal(ev->pick(h, h->evict_priv, 64), 0);
        for (size_t i = 0; i < 3; i++)
            h->frames[res[i]].resident = false;
        fx_done(x);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_lookup_known),
        cmocka_unit_test(test_unknown_names_list_known),
        cmocka_unit_test(test_cfg_set_policy),
        cmocka_unit_test(test_evict_interface_lru),
        cmocka_unit_test(test_evict_interface_random),
        cmocka_unit_test(test_evict_granularity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
