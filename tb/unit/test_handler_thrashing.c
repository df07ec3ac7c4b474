/*
 * test_handler_thrashing.c - the thrashing policies "nvidia" and "capacity" (docs/handler.md
 * §6j, nvidia-uvm's uvm_perf_thrashing.c): the detection core on hand-made histories of events
 * by the GPU and the CPU (each decision of the driver: block gate, threshold, throttle, pin,
 * unpin, lapse reset, epoch reset), then both policies in the handler with the fake device
 * (one GPU against its own capacity: invisible to `nvidia`, throttled by `capacity`).
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

#define G UVM_PROC_GPU
#define C UVM_PROC_CPU
#define L 64000u /* the lapse of the core tests (ns; a multiple of the 64 ns resolution) */

static uvm_thrash_nv_params_t params(void) {
    return (uvm_thrash_nv_params_t){3, 2, L, L, 2000u * (uint64_t)L, 10u * (uint64_t)L, 4};
}

typedef struct {
    uvm_stats_t st;
    uvm_thrash_nv_t *t;
} core_t;

static core_t *core_new(bool capacity) {
    core_t *c = calloc(1, sizeof *c);
    assert_non_null(c);
    const uvm_thrash_nv_params_t p = params();
    c->t = uvm_thrash_nv_new(&p, capacity, &c->st, NULL);
    assert_non_null(c->t);
    return c;
}

static void core_free(core_t *c) {
    uvm_thrash_nv_free(c->t);
    free(c);
}

static uvm_thrash_type_t hint(core_t *c, uint64_t vpn, int req, uint64_t now) {
    return uvm_thrash_nv_hint(c->t, vpn, req, now).type;
}

/* One processor moving a page within every lapse is never tracked (no block gate passed). */
static void test_one_processor_invisible(void **state) {
    (void)state;
    core_t *c = core_new(false);
    for (uint64_t k = 1; k <= 20; k++)
        uvm_thrash_nv_event(c->t, 7, 1, G, k * 64);
    assert_int_equal(c->st.num_thrashing, 0);
    assert_int_equal(hint(c, 7, G, 21 * 64), UVM_THRASH_NONE);
    assert_int_equal(c->st.num_throttle + c->st.num_pin, 0);
    core_free(c);
}

/* Two processors alternating outside the lapse: the block gate does not open. */
static void test_outside_lapse_not_tracked(void **state) {
    (void)state;
    core_t *c = core_new(false);
    for (uint64_t k = 1; k <= 10; k++)
        uvm_thrash_nv_event(c->t, 7, 1, k % 2 ? G : C, k * (2u * L));
    assert_int_equal(c->st.num_thrashing, 0);
    assert_int_equal(hint(c, 7, G, 21u * L), UVM_THRASH_NONE);
    core_free(c);
}

/* The driver's phases on a page: detection at the threshold-th event within lapses, a throttling
 * period per processor not exempt, pin after pin_threshold (2 here) throttles, PIN for every
 * processor while pinned, unpin (and reset) at the pin's end. Hand-traced against
 * thrashing_event_cb / uvm_perf_thrashing_get_hint. */
static void test_phases(void **state) {
    (void)state;
    core_t *c = core_new(false);
    const uint64_t v = 3;
    uvm_thrash_nv_event(c->t, v, 1, G, 64);  /* block: first event */
    uvm_thrash_nv_event(c->t, v, 1, C, 128); /* other processor within a lapse: pages tracked */
    uvm_thrash_nv_event(c->t, v, 1, G, 192); /* 1 */
    uvm_thrash_nv_event(c->t, v, 1, C, 256); /* 2 */
    assert_int_equal(c->st.num_thrashing, 0);
    assert_int_equal(hint(c, v, C, 300), UVM_THRASH_NONE); /* below the threshold */
    uvm_thrash_nv_event(c->t, v, 1, G, 320);               /* 3: thrashing */
    assert_int_equal(c->st.num_thrashing, 1);
    /* period 1 (ends 384 + L): C asks first and is exempt; G is throttled for the period */
    assert_int_equal(hint(c, v, C, 384), UVM_THRASH_NONE);
    uvm_thrash_hint_t h = uvm_thrash_nv_hint(c->t, v, G, 448);
    assert_int_equal(h.type, UVM_THRASH_THROTTLE);
    assert_int_equal(h.until_ns, 384 + L);
    assert_int_equal(hint(c, v, G, 512), UVM_THRASH_THROTTLE);
    assert_int_equal(c->st.num_throttle, 2);
    uvm_thrash_nv_event(c->t, v, 1, C, 576);
    /* period 2: G (the last exempt was C) is exempt; C is throttled (its first throttle) */
    uvm_thrash_nv_event(c->t, v, 1, G, 64000);
    assert_int_equal(hint(c, v, G, 64448), UVM_THRASH_NONE);
    assert_int_equal(hint(c, v, C, 64512), UVM_THRASH_THROTTLE);
    assert_int_equal(c->st.num_pin, 0);
    /* period 3: C exempt with 2 throttles counted -> pinned; G gets PIN too */
    uvm_thrash_nv_event(c->t, v, 1, C, 128000);
    h = uvm_thrash_nv_hint(c->t, v, C, 128512);
    assert_int_equal(h.type, UVM_THRASH_PIN);
    assert_int_equal(h.until_ns, 128512 + 10u * (uint64_t)L);
    assert_int_equal(hint(c, v, G, 128576), UVM_THRASH_PIN);
    assert_int_equal(c->st.num_pin, 2);
    assert_int_equal(c->st.num_throttle, 3);
    /* an event long after does not reset a pinned page */
    uvm_thrash_nv_event(c->t, v, 1, G, 128576 + 5u * L);
    assert_int_equal(hint(c, v, G, 128576 + 5u * L + 64), UVM_THRASH_PIN);
    /* the pin ends: the page forgets its history */
    assert_int_equal(hint(c, v, G, 128512 + 10u * (uint64_t)L + 64), UVM_THRASH_NONE);
    assert_int_equal(c->st.num_pin, 3);
    core_free(c);
}

/* A thrashing page whose next event comes after a lapse is reset (not pinned); the block's
 * tracking is reset after an epoch without thrashing, at most max_resets times. */
static void test_lapse_and_epoch_reset(void **state) {
    (void)state;
    core_t *c = core_new(false);
    const uint64_t v = 9;
    uint64_t t = 64;
    for (int k = 0; k < 5; k++, t += 64)
        uvm_thrash_nv_event(c->t, v, 1, k % 2 ? C : G, t);
    assert_int_equal(c->st.num_thrashing, 1);
    uvm_thrash_nv_event(c->t, v, 1, G, t + 2u * L); /* a lapse later: reset */
    assert_int_equal(hint(c, v, C, t + 2u * L + 64), UVM_THRASH_NONE);
    /* thrashing again (the page counts from 0), then an epoch passes: block reset */
    t += 2u * L + 128;
    for (int k = 0; k < 4; k++, t += 64)
        uvm_thrash_nv_event(c->t, v, 1, k % 2 ? G : C, t);
    assert_int_equal(c->st.num_thrashing, 2);
    const uint64_t epoch = 2000u * (uint64_t)L;
    assert_int_equal(hint(c, v, C, t + epoch + 64), UVM_THRASH_NONE);
    /* after the reset the block needs the gate again: one processor does nothing */
    for (int k = 0; k < 6; k++)
        uvm_thrash_nv_event(c->t, v, 1, G, t + epoch + 128u + 64u * (uint64_t)k);
    assert_int_equal(c->st.num_thrashing, 2);
    core_free(c);
}

/* max_resets: the first 4 epoch resets drop the block's tracking (then one processor alone
 * counts nothing: the gate is closed again); after them the tracking stays, and a page already
 * tracked counts events of one processor (the driver checks processors only at the gate). */
static uint64_t one_processor(core_t *c, uint64_t v, uint64_t t) {
    /* 5 events: a thrashing page reset by a late event restarts from no time stamp (as the
     * driver: the reset clears the stamp just set), then 3 more count */
    for (int k = 0; k < 5; k++, t += 64)
        uvm_thrash_nv_event(c->t, v, 1, G, t);
    return t;
}

static void test_max_resets(void **state) {
    (void)state;
    core_t *c = core_new(false);
    const uint64_t v = 1, epoch = 2000u * (uint64_t)L;
    uint64_t t = 64;
    for (uint64_t r = 0; r < 5; r++) {
        t = one_processor(c, v, t);
        assert_int_equal(c->st.num_thrashing, r); /* no tracking: nothing */
        for (int k = 0; k < 5; k++, t += 64)
            uvm_thrash_nv_event(c->t, v, 1, k % 2 ? C : G, t);
        assert_int_equal(c->st.num_thrashing, r + 1);
        t += epoch + 64;
        assert_int_equal(hint(c, v, G, t), UVM_THRASH_NONE); /* resets the first 4 times */
        t += 2u * L;
    }
    t = one_processor(c, v, t); /* the 5th epoch did not reset: tracked */
    assert_int_equal(c->st.num_thrashing, 6);
    core_free(c);
}

/* ---- in the handler (fake device) ------------------------------------------------------- */

static fx_t *start(const char *policy, uint32_t frames) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = frames;
    assert_int_equal(
        uvm_cfg_set_policy(&x->cfg, UVM_POLICY_THRASHING, policy, x->err, sizeof x->err), 0);
    fx_start(x);
    return x;
}

/* Two pages ping-pong through one frame: each fault evicts the other page. */
static void pingpong(fx_t *x, int rounds, uint64_t *throttled_unmapped) {
    const uint64_t a = VPN0 + 1, b = VPN0 + 2;
    for (int i = 0; i < rounds; i++) {
        const uint64_t v = i % 2 ? b : a, before = x->h->stats.num_throttle;
        fk_post(&x->fk, v, GMMU_AT_READ);
        uvm_handler_service(x->h);
        if (x->h->stats.num_throttle != before && !(walk(&x->fk, v, NULL) & PTE_V_BIT))
            (*throttled_unmapped)++;
    }
}

static void test_handler_nvidia_invisible(void **state) {
    (void)state;
    fx_t *x = start("nvidia", 1);
    assert_ptr_equal(x->h->thrashing, &uvm_thrashing_nvidia_ops);
    uint64_t n = 0;
    pingpong(x, 200, &n);
    assert_true(x->h->stats.evictions >= 199);
    assert_int_equal(x->h->stats.num_thrashing, 0);
    assert_int_equal(x->h->stats.num_throttle, 0);
    fx_done(x);
}

static void test_handler_capacity_throttles(void **state) {
    (void)state;
    fx_t *x = start("capacity", 1);
    assert_ptr_equal(x->h->thrashing, &uvm_thrashing_capacity_ops);
    uint64_t n = 0;
    pingpong(x, 200, &n);
    assert_true(x->h->stats.num_thrashing >= 2);
    assert_true(x->h->stats.num_throttle >= 1);
    assert_int_equal(n, x->h->stats.num_throttle); /* every throttled fault was left unmapped */
    assert_int_equal(x->h->stats.num_pin, 0);      /* one processor: no event while throttled */
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_processor_invisible),
        cmocka_unit_test(test_outside_lapse_not_tracked),
        cmocka_unit_test(test_phases),
        cmocka_unit_test(test_lapse_and_epoch_reset),
        cmocka_unit_test(test_max_resets),
        cmocka_unit_test(test_handler_nvidia_invisible),
        cmocka_unit_test(test_handler_capacity_throttles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
