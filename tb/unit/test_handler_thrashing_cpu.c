/*
 * test_handler_thrashing_cpu.c - CPU<->GPU ping-pong seen by the thrashing policy "nvidia"
 * (docs/handler.md §6p, nvidia-uvm's thrashing_event_cb): a page leaving the GPU carries the
 * cause of its move in its EVICT event (capacity eviction, CPU fault, user call); `nvidia` counts
 * a CPU fault's as an event of the CPU, skips an eviction's and forgets the pages a user call
 * moved; `capacity` counts them all.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

#define G UVM_PROC_GPU
#define C UVM_PROC_CPU

static fx_t *start(const char *policy, uint32_t frames) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = frames;
    assert_int_equal(
        uvm_cfg_set_policy(&x->cfg, UVM_POLICY_THRASHING, policy, x->err, sizeof x->err), 0);
    fx_start(x);
    return x;
}

typedef struct {
    uint8_t cause[64];
    size_t n;
} causes_t;

static void record(void *ctx, const uvm_event_t *ev) {
    causes_t *c = ctx;
    if (c->n < 64)
        c->cause[c->n++] = ev->evict.cause;
}

/* The GPU writes page 1 of "a", then the CPU touches it: `cpu` = true as a CPU fault
 * (uvm_handler_cpu_fault), false as a user call (uvm_handler_to_host). */
static void rounds(fx_t *x, int n, bool cpu) {
    for (int i = 0; i < n; i++) {
        fk_post(&x->fk, VPN0 + 1, GMMU_AT_WRITE);
        uvm_handler_service(x->h);
        uint64_t pages = 0;
        const int rc =
            cpu ? uvm_handler_cpu_fault(x->h, ALLOC_BASE + PAGE, PAGE, &pages, x->err,
                                        sizeof x->err)
                : uvm_handler_to_host(x->h, ALLOC_BASE + PAGE, PAGE, &pages, x->err, sizeof x->err);
        assert_int_equal(rc, 0);
    }
}

/* Each EVICT names its cause; the cause is back to CAPACITY after a host call. */
static void test_evict_cause(void **state) {
    (void)state;
    fx_t *x = start("none", 1);
    causes_t c = {{0}, 0};
    assert_int_equal(uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT), record, &c), 0);
    rounds(x, 1, true);  /* page 1 leaves by a CPU fault */
    rounds(x, 1, false); /* page 1 leaves by a user call */
    fk_post(&x->fk, VPN0 + 1, GMMU_AT_READ);
    uvm_handler_service(x->h);
    fk_post(&x->fk, VPN0 + 2, GMMU_AT_READ); /* one frame: page 1 is evicted */
    uvm_handler_service(x->h);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.cause[0], UVM_EVICT_CPU_FAULT);
    assert_int_equal(c.cause[1], UVM_EVICT_API);
    assert_int_equal(c.cause[2], UVM_EVICT_CAPACITY);
    fx_done(x);
}

/* GPU write, CPU fault, GPU write, ... on one page within a lapse: the driver tracks the block
 * at the first CPU event and detects thrashing at the threshold-th (3) event after it. The CPU
 * asks no hint (its touches are the trace's), so the GPU is the first requester of each
 * throttling period: exempt in the first (thrashing_throttle_update), throttled in the next
 * (a period is a nap, 500 us, and the fault must come within a lapse of the page's last event). */
static void test_cpu_pingpong_detected(void **state) {
    (void)state;
    fx_t *x = start("nvidia", 64);
    rounds(x, 2, true); /* G (block), C (tracked), G (1), C (2) */
    assert_int_equal(x->h->stats.num_thrashing, 0);
    rounds(x, 1, true); /* G (3): thrashing; C */
    assert_int_equal(x->h->stats.num_thrashing, 1);
    fk_post(&x->fk, VPN0 + 1, GMMU_AT_WRITE);
    uvm_handler_service(x->h); /* G asks first: exempt in period 1 (one nap, 500 us) */
    assert_int_equal(x->h->stats.num_throttle, 0);
    x->fk.now += 480000u; /* near the end of period 1, within a lapse of the last event */
    uint64_t pages = 0;
    assert_int_equal(
        uvm_handler_cpu_fault(x->h, ALLOC_BASE + PAGE, PAGE, &pages, x->err, sizeof x->err), 0);
    assert_int_equal(pages, 1); /* the GPU had it: it was not throttled */
    fk_post(&x->fk, VPN0 + 1, GMMU_AT_WRITE);
    uvm_handler_service(x->h); /* period 2: the GPU was exempt last: throttled */
    assert_int_equal(x->h->stats.num_throttle, 1);
    assert_int_equal(walk(&x->fk, VPN0 + 1, NULL) & PTE_V_BIT, 0); /* left unmapped */
    fx_done(x);
}

/* The same ping-pong by user calls (cudaMemPrefetchAsync to the CPU): no event of the CPU, the
 * page's history is forgotten at each call, nothing is detected. */
static void test_api_migration_not_counted(void **state) {
    (void)state;
    fx_t *x = start("nvidia", 64);
    rounds(x, 8, false);
    assert_int_equal(x->h->stats.num_thrashing, 0);
    assert_int_equal(x->h->stats.num_throttle, 0);
    fx_done(x);
}

/* `capacity` counts the CPU faults' evictions as well (every page leaving is an event of the
 * CPU), and `none` counts nothing. */
static void test_capacity_and_none(void **state) {
    (void)state;
    fx_t *x = start("capacity", 64);
    rounds(x, 3, true);
    assert_int_equal(x->h->stats.num_thrashing, 1);
    fx_done(x);
    x = start("none", 64);
    rounds(x, 3, true);
    assert_int_equal(x->h->stats.num_thrashing, 0);
    fx_done(x);
}

/* uvm_thrash_nv_reset: a tracked page starts over (its events counted from zero again). */
static void test_core_reset(void **state) {
    (void)state;
    uvm_stats_t st = {0};
    const uvm_thrash_nv_params_t p = {3, 2, 64000u, 64000u, 128000000u, 640000u, 4};
    uvm_thrash_nv_t *t = uvm_thrash_nv_new(&p, false, &st, NULL);
    assert_non_null(t);
    uvm_thrash_nv_event(t, 5, 1, G, 64);  /* block */
    uvm_thrash_nv_event(t, 5, 1, C, 128); /* tracked */
    uvm_thrash_nv_event(t, 5, 1, G, 192); /* 1 */
    uvm_thrash_nv_event(t, 5, 1, C, 256); /* 2 */
    uvm_thrash_nv_reset(t, 4, 3);         /* pages 4..6 */
    uvm_thrash_nv_event(t, 5, 1, G, 320); /* first event again */
    uvm_thrash_nv_event(t, 5, 1, C, 384); /* 1 */
    assert_int_equal(st.num_thrashing, 0);
    uvm_thrash_nv_event(t, 5, 1, G, 448); /* 2 */
    uvm_thrash_nv_event(t, 5, 1, C, 512); /* 3: thrashing */
    assert_int_equal(st.num_thrashing, 1);
    uvm_thrash_nv_reset(t, 1000, 1); /* an untracked block: nothing */
    uvm_thrash_nv_free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_evict_cause),
        cmocka_unit_test(test_cpu_pingpong_detected),
        cmocka_unit_test(test_api_migration_not_counted),
        cmocka_unit_test(test_capacity_and_none),
        cmocka_unit_test(test_core_reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
