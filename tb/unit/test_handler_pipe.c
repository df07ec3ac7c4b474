/*
 * test_handler_pipe.c - pipelined transfer sets (cfg.transfer_sets = pipelined,
 * sw-handler/uvm_prefetch_pipe.c, docs/handler.md §6m): exactly which pages each set carries
 * and when it is submitted, that the link never idles while candidates remain, the wake-up
 * protocol (uvm_handler_wake_ns / uvm_handler_wake), a fault on a page in flight, an eviction
 * with a set in flight, and the device without dma_done_ns. The fake device runs one link
 * (dma_timeline: DMA_NS per page, in submission order). fx_start's allocation "a" is 1 MB
 * (pages VPN0 + 0..255); the GPU has 64 frames unless a test says otherwise.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

#define T_IRQ UINT64_C(1000)
#define T_PAGE UINT64_C(100)

/* The completion time of a transfer; a completed one reports its (past) time, which the
 * handler must compare with now (the platform reports 0 once it has retired the transfer). */
static uint64_t fk_done_ns(void *ctx, uint64_t handle) {
    const fake_t *f = ctx;
    assert_true(handle >= 100 && handle - 100 < f->ndma);
    return f->dma[handle - 100].t_done;
}

static fx_t *start_ex(const char *policy, uint32_t set_pages, uint64_t frames, bool done_ns) {
    fx_t *x = fx_new();
    set_policy(&x->cfg, UVM_POLICY_PREFETCH, policy);
    x->cfg.transfer_set_pages = set_pages;
    x->cfg.transfer_sets = UVM_TS_PIPELINED;
    x->cfg.gpu_data_pages = frames;
    x->cfg.t_irq_ns = T_IRQ;
    x->cfg.t_batch_ns = 0;
    x->cfg.t_fault_ns = 0;
    x->cfg.t_page_ns = T_PAGE;
    x->cfg.t_pte_ns = 0;
    x->fk.dma_timeline = 1;
    x->dev.dma_done_ns = done_ns ? fk_done_ns : NULL;
    fx_start(x);
    return x;
}

static fx_t *start(const char *policy, uint32_t set_pages, uint64_t frames) {
    return start_ex(policy, set_pages, frames, true);
}

static bool mapped(fx_t *x, uint32_t page) {
    return (walk(&x->fk, VPN0 + page, NULL) & PTE_V_BIT) != 0;
}

static uint32_t page_of(const fake_t *f, size_t d) {
    return (uint32_t)((f->dma[d].src - ALLOC_BASE) / PAGE);
}

static void fault(fx_t *x, uint32_t page) {
    fk_post(&x->fk, VPN0 + page, GMMU_AT_READ);
    uvm_handler_service(x->h);
}

/* The platform's part: advance to the wake-up time and wake the handler, until it has nothing
 * in flight (or max wake-ups). Returns the wake-ups done. */
static uint32_t run_wakes(fx_t *x, uint32_t max) {
    uint32_t n = 0;
    for (; n < max; n++) {
        /* never more than one set queued behind the set in flight */
        assert_true(x->h->ts.n - x->h->ts.mapped <= 2u * x->cfg.transfer_set_pages - 1u);
        const uint64_t w = uvm_handler_wake_ns(x->h);
        if (w == UINT64_MAX)
            break;
        if (w > x->fk.now)
            x->fk.now = w;
        uvm_handler_wake(x->h);
    }
    return n;
}

/* sequential, sets of 4: the first set after the batch (pages 0..3, not waited for), then at
 * each completion the next set while less than one set is in flight. */
static void test_sets_sequential(void **state) {
    (void)state;
    fx_t *x = start("sequential", 4, 64);
    fault(x, 100);
    /* demand 100 (DMA 0, waited and mapped), then the first set: 0..3 submitted, none mapped */
    assert_int_equal(x->fk.ndma, 5);
    assert_int_equal(page_of(&x->fk, 0), 100);
    for (size_t d = 1; d < 5; d++) {
        assert_int_equal(page_of(&x->fk, d), d - 1);
        assert_int_equal(x->fk.dma[d].ev_wait, SIZE_MAX);
        assert_false(mapped(x, (uint32_t)d - 1));
    }
    assert_true(mapped(x, 100));
    assert_int_equal(st(x)->ts_sets, 1);
    assert_int_equal(st(x)->ts_pages, 4);
    assert_int_equal(st(x)->pages_prefetched, 4);
    /* the wake-up is the completion of the set's first copy */
    assert_int_equal(uvm_handler_wake_ns(x->h), x->fk.dma[1].t_done);
    /* first wake: 1 us of interrupt, page 0 mapped (1 done 2270 ns after 0: still in flight);
       3 pages in flight < 4: the next set, 4..7, queued behind them */
    assert_int_equal(run_wakes(x, 1), 1);
    assert_true(mapped(x, 0));
    assert_false(mapped(x, 1));
    assert_int_equal(x->fk.ndma, 9);
    for (size_t d = 5; d < 9; d++) {
        assert_int_equal(page_of(&x->fk, d), d - 1);
        assert_true(x->fk.dma[d].t_submit >= x->fk.dma[1].t_done + T_IRQ);
    }
    assert_int_equal(st(x)->ts_sets, 2);
    assert_int_equal(uvm_handler_wake_ns(x->h), x->fk.dma[2].t_done);
    /* to the end: the 63 free frames hold 0..62; no eviction; every copy waited for and mapped */
    run_wakes(x, 1000);
    assert_int_equal(uvm_handler_wake_ns(x->h), UINT64_MAX);
    for (uint32_t p = 0; p < 256; p++)
        assert_int_equal(mapped(x, p), p < 63 || p == 100);
    assert_int_equal(st(x)->ts_pages, 63);
    assert_int_equal(st(x)->pages_prefetched, 63);
    assert_int_equal(st(x)->evictions, 0);
    /* pages in VA order, one copy each; the link never idled between the first set's copy and
       the last one (CPU work of a set, 4 x 100 ns + 1 us, is shorter than 3 copies) */
    for (size_t d = 1; d < x->fk.ndma; d++) {
        assert_int_equal(page_of(&x->fk, d), d - 1);
        if (d > 1)
            assert_int_equal(x->fk.dma[d].t_done, x->fk.dma[d - 1].t_done + DMA_NS);
    }
    fx_done(x);
}

/* locality: the window after the latest fault, then (pipelined only) VA-sequential order. */
static void test_locality_fill(void **state) {
    (void)state;
    fx_t *x = start("locality", 8, 64);
    fault(x, 250); /* window 251..255 (the allocation ends), then 0, 1, 2; copied in VA order */
    const uint32_t want[8] = {0, 1, 2, 251, 252, 253, 254, 255};
    assert_int_equal(x->fk.ndma, 9);
    for (size_t d = 1; d < 9; d++)
        assert_int_equal(page_of(&x->fk, d), want[d - 1]);
    run_wakes(x, 1);
    /* 7 in flight < 8: the next set anchors on the same fault: window exhausted, 3..10 */
    assert_int_equal(x->fk.ndma, 17);
    for (size_t d = 9; d < 17; d++)
        assert_int_equal(page_of(&x->fk, d), d - 6);
    run_wakes(x, 1000);
    fx_done(x);
}

/* A batch maps the copies that completed meanwhile without waiting, then queues the next set. */
static void test_batch_maps_completed(void **state) {
    (void)state;
    fx_t *x = start("sequential", 4, 64);
    fault(x, 100); /* set 0..3 in flight */
    const size_t waits = x->fk.nev;
    x->fk.now = x->fk.dma[4].t_done + 1; /* time passes: every copy of the set completed */
    fault(x, 200);
    for (uint32_t p = 0; p < 4; p++)
        assert_true(mapped(x, p));
    assert_true(x->fk.dma[1].ev_wait > waits); /* retired by the batch, no wake-up needed */
    assert_int_equal(st(x)->ts_sets, 2);       /* then the next set: 4..7 */
    assert_int_equal(page_of(&x->fk, 6), 4);
    run_wakes(x, 1000);
    fx_done(x);
}

/* A fault on a page still in flight waits for the set: the page is mapped, the fault stale. */
static void test_fault_in_flight(void **state) {
    (void)state;
    fx_t *x = start("sequential", 4, 64);
    fault(x, 100); /* set 0..3 in flight */
    assert_false(mapped(x, 2));
    fault(x, 2);
    for (uint32_t p = 0; p < 4; p++)
        assert_true(mapped(x, p));
    assert_int_equal(st(x)->faults_stale, 1);
    assert_int_equal(st(x)->pages_h2d, 1 + 4 + 4); /* no demand copy of 2; next set 4..7 */
    assert_int_equal(page_of(&x->fk, 5), 4);
    run_wakes(x, 1000);
    fx_done(x);
}

/* An eviction with a set in flight first waits for and maps the set (no frame with a copy in
 * flight is a victim). 8 frames: 100 + set 0..3, then 4 demand pages need one eviction. */
static void test_evict_drains(void **state) {
    (void)state;
    fx_t *x = start("sequential", 4, 8);
    fault(x, 100);
    assert_int_equal(x->fk.ndma, 5);
    for (uint32_t i = 0; i < 4; i++)
        fk_post(&x->fk, VPN0 + 200 + i, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->evictions, 1);
    size_t inval = SIZE_MAX;
    for (size_t i = 0; i < x->fk.ncmd && inval == SIZE_MAX; i++)
        if (x->fk.cmd[i].op == GMMU_CMD_INVAL_PAGE)
            inval = x->fk.cmd[i].ev;
    assert_int_not_equal(inval, SIZE_MAX);
    for (size_t d = 1; d < 5; d++) /* the set's copies were waited for before the invalidate */
        assert_true(x->fk.dma[d].ev_wait < inval);
    assert_true(walk(&x->fk, VPN0 + 100, NULL) == 0); /* the victim: the oldest, 100 */
    for (uint32_t p = 0; p < 4; p++)
        assert_true(mapped(x, p) && mapped(x, 200 + p));
    run_wakes(x, 1000);
    assert_int_equal(st(x)->evictions, 1); /* no free frame: no further set */
    fx_done(x);
}

/* Without dma_done_ns the handler asks to be woken at once and waits for the whole set. */
static void test_no_done_ns(void **state) {
    (void)state;
    fx_t *x = start_ex("sequential", 4, 64, false);
    fault(x, 100);
    assert_int_equal(uvm_handler_wake_ns(x->h), 0);
    uvm_handler_wake(x->h);
    for (uint32_t p = 0; p < 4; p++)
        assert_true(mapped(x, p));
    assert_int_equal(x->fk.now >= x->fk.dma[4].t_done, 1);
    assert_int_equal(st(x)->ts_sets, 2); /* the next set, 4..7, was submitted */
    run_wakes(x, 1000);
    fx_done(x);
}

/* batch mode (the default) never asks to be woken; per-block prefetchers ignore the mode. */
static void test_batch_and_other_policies(void **state) {
    (void)state;
    fx_t *x = fx_new();
    set_policy(&x->cfg, UVM_POLICY_PREFETCH, "sequential");
    fx_start(x);
    fault(x, 100);
    assert_int_equal(uvm_handler_wake_ns(x->h), UINT64_MAX);
    assert_int_equal(st(x)->ts_sets, 1);
    assert_int_equal(st(x)->ts_pages, 63); /* 80 - 1 demand page, capped by the 63 free frames */
    fx_done(x);
    x = start("nvidia", 4, 64);
    fault(x, 100);
    assert_int_equal(uvm_handler_wake_ns(x->h), UINT64_MAX);
    assert_int_equal(st(x)->ts_sets, 0);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sets_sequential),
        cmocka_unit_test(test_locality_fill),
        cmocka_unit_test(test_batch_maps_completed),
        cmocka_unit_test(test_fault_in_flight),
        cmocka_unit_test(test_evict_drains),
        cmocka_unit_test(test_no_done_ns),
        cmocka_unit_test(test_batch_and_other_policies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
