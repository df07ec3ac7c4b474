/*
 * test_handler_lazypg.c - DynaMap's software per-page counter baselines (sw-handler/uvm_lazypg.c,
 * docs/handler.md §6x.4): the thresholds (static; dynamic = static x (1 + evictions)); end to end
 * on the fake device with hand-made PST counts behind the HAL (uvm_dev_t.pst_read): a faulting
 * page mapped remotely, the count since its mapping checked against the threshold by the poll at
 * the end of a service pass and by the timer wake-up (uvm_handler_wake_ns / uvm_handler_wake),
 * the page migrated when it reaches it and not one access before; LazyPgDynSW's first-touch
 * migration before the first eviction and its doubled threshold after one, the evicted page
 * counted by its referenced lines (fig. 3a); the keys refused.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_lazypg.h"
#include "../../sw-handler/uvm_place.h"

#define PTE_APER_BIT (UINT64_C(1) << GMMU_PTE_APER)

typedef struct {
    uint64_t vpn[16];
    uint32_t count[16];
    uint32_t lines[16];
    size_t n;
} cnt_t;

static void pst_read(void *ctx, uint64_t vpn, uint32_t *lines, uint32_t *count) {
    const cnt_t *t = ((fake_t *)ctx)->user;
    *lines = *count = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->vpn[i] == vpn) {
            *count = t->count[i];
            *lines = t->lines[i];
        }
}

static void cnt_set(cnt_t *t, uint64_t vpn, uint32_t count) {
    for (size_t i = 0; i < t->n; i++)
        if (t->vpn[i] == vpn) {
            t->count[i] = count;
            return;
        }
    t->vpn[t->n] = vpn;
    t->count[t->n++] = count;
}

static bool remote_leaf(fx_t *x, uint64_t vpn) {
    return (walk(&x->fk, vpn, NULL) & PTE_APER_BIT) != 0;
}

static bool local_leaf(fx_t *x, uint64_t vpn) {
    const uint64_t pte = walk(&x->fk, vpn, NULL);
    return (pte & PTE_V_BIT) && !(pte & PTE_APER_BIT);
}

static fx_t *start(uint32_t policy, cnt_t *t, uint32_t frames) {
    fx_t *x = fx_new();
    x->fk.user = t;
    x->dev.pst_read = pst_read;
    x->cfg.gpu_data_pages = frames;
    x->cfg.remote_policy = policy;
    x->cfg.lazy_pg_threshold = 8;
    x->cfg.lazy_pg_poll_us = 10;
    set_policy(&x->cfg, UVM_POLICY_EVICT, "fifo");
    fx_start(x);
    return x;
}

static void test_thresholds(void **state) {
    (void)state;
    assert_int_equal(uvm_lazy_threshold(UVM_REMOTE_LAZY_PG_STAT_SW, 8, 0), 8);
    assert_int_equal(uvm_lazy_threshold(UVM_REMOTE_LAZY_PG_STAT_SW, 8, 3), 8);
    assert_int_equal(uvm_lazy_threshold(UVM_REMOTE_LAZY_PG_DYN_SW, 8, 0), 8);
    assert_int_equal(uvm_lazy_threshold(UVM_REMOTE_LAZY_PG_DYN_SW, 8, 1), 16);
    assert_int_equal(uvm_lazy_threshold(UVM_REMOTE_LAZY_PG_DYN_SW, 256, 3), 1024);
    assert_true(uvm_lazy_policy(UVM_REMOTE_LAZY_PG_STAT_SW));
    assert_true(uvm_lazy_policy(UVM_REMOTE_LAZY_PG_DYN_SW));
    assert_false(uvm_lazy_policy(UVM_REMOTE_DYNAMAP));
    assert_false(uvm_lazy_policy(UVM_REMOTE_PIN_HOST));
}

/* stat: the first fault maps the page remotely; the count since the mapping (the count before
 * it, 5, is the base) reaches 8 at 13: the service pass's poll migrates it then, not at 12 */
static void test_stat_service_poll(void **state) {
    (void)state;
    cnt_t t = {0};
    cnt_set(&t, VPN0, 5); /* accesses before the page was mapped: not counted */
    fx_t *x = start(UVM_REMOTE_LAZY_PG_STAT_SW, &t, 4);
    assert_int_equal(uvm_handler_wake_ns(x->h), UINT64_MAX); /* nothing watched: no timer */
    fx_service_write(x, VPN0);
    assert_true(remote_leaf(x, VPN0));
    assert_int_equal(st(x)->remote_maps, 1);
    assert_int_equal(st(x)->pages_h2d, 0);
    assert_int_equal(st(x)->lazy_polls, 1); /* the pass's own poll: count 0 since the mapping */
    cnt_set(&t, VPN0, 12);                  /* 7 accesses */
    fx_service_write(x, VPN0 + 1);          /* another page's fault: a pass, its poll */
    assert_true(remote_leaf(x, VPN0));
    assert_true(remote_leaf(x, VPN0 + 1));
    assert_int_equal(st(x)->lazy_pages, 0);
    cnt_set(&t, VPN0, 13); /* the 8th access */
    fx_service_write(x, VPN0 + 2);
    assert_true(local_leaf(x, VPN0));
    assert_true(remote_leaf(x, VPN0 + 1));
    assert_int_equal(st(x)->lazy_pages, 1);
    assert_int_equal(st(x)->pages_h2d, 1);
    assert_int_equal(st(x)->remote_to_gpu, 1);
    assert_int_equal(st(x)->lazy_timer_polls, 0);
    fx_done(x);
}

/* with every page remote no fault comes: the timer polls every lazy_pg_poll_us of device time,
 * charging the wake-up's interrupt; the due pages migrate in VPN order */
static void test_timer_poll(void **state) {
    (void)state;
    cnt_t t = {0};
    fx_t *x = start(UVM_REMOTE_LAZY_PG_STAT_SW, &t, 4);
    fx_service_write(x, VPN0 + 3);
    fx_service_write(x, VPN0 + 1);
    const uint64_t at = uvm_handler_wake_ns(x->h);
    assert_int_equal(at, x->fk.now + 10000u); /* the last poll (the pass's) + 10 us */
    cnt_set(&t, VPN0 + 3, 8);
    cnt_set(&t, VPN0 + 1, 9);
    uvm_handler_wake(x->h); /* too early: nothing */
    assert_int_equal(st(x)->lazy_timer_polls, 0);
    assert_true(remote_leaf(x, VPN0 + 1));
    x->fk.now = at;
    const uint64_t polls = st(x)->lazy_polls;
    uvm_handler_wake(x->h);
    assert_int_equal(st(x)->lazy_timer_polls, 1);
    assert_int_equal(st(x)->lazy_polls, polls + 1);
    assert_true(local_leaf(x, VPN0 + 1));
    assert_true(local_leaf(x, VPN0 + 3));
    assert_int_equal(st(x)->lazy_pages, 2);
    /* VPN order: page 1's copy was submitted first */
    assert_int_equal(x->fk.ndma, 2);
    assert_true(x->fk.dma[0].src < x->fk.dma[1].src);
    assert_int_equal(uvm_handler_wake_ns(x->h), UINT64_MAX); /* nothing remote: timer off */
    fx_done(x);
}

/* dyn: before the memory fills, faults migrate (first touch); after the first capacity eviction
 * a fault maps remotely, and an evicted page needs threshold x (1 + its evictions) */
static void test_dyn(void **state) {
    (void)state;
    cnt_t t = {0};
    fx_t *x = start(UVM_REMOTE_LAZY_PG_DYN_SW, &t, 2);
    cnt_set(&t, VPN0 + 0, 0);
    t.lines[0] = 0x7u; /* page 0: 3 lines referenced, counted at its eviction (fig. 3a) */
    fx_service_write(x, VPN0 + 0);
    fx_service_write(x, VPN0 + 1);
    assert_int_equal(st(x)->remote_maps, 0); /* first touch */
    assert_true(local_leaf(x, VPN0 + 0));
    fx_service_write(x, VPN0 + 2); /* memory full: evicts page 0 (fifo), then still migrates */
    assert_int_equal(st(x)->evictions, 1);
    assert_int_equal(st(x)->evict_lines[3], 1);
    assert_true(local_leaf(x, VPN0 + 2));
    fx_service_write(x, VPN0 + 0); /* evicted once: remote, threshold 16 */
    assert_true(remote_leaf(x, VPN0 + 0));
    fx_service_write(x, VPN0 + 3); /* never evicted, but the memory has filled: remote, 8 */
    assert_true(remote_leaf(x, VPN0 + 3));
    cnt_set(&t, VPN0 + 0, 15);
    cnt_set(&t, VPN0 + 3, 8);
    assert_int_equal(uvm_lazy_poll(x->h), 1);
    assert_true(remote_leaf(x, VPN0 + 0));
    assert_true(local_leaf(x, VPN0 + 3));
    cnt_set(&t, VPN0 + 0, 16);
    assert_int_equal(uvm_lazy_poll(x->h), 1);
    assert_true(local_leaf(x, VPN0 + 0));
    assert_int_equal(st(x)->lazy_pages, 2);
    fx_done(x);
}

static void test_refused(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.remote_policy = UVM_REMOTE_LAZY_PG_STAT_SW; /* the fake gives no PST */
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "pst_read"));
    assert_non_null(strstr(x->err, "lazy_pg_stat_sw"));
    x->dev.pst_read = pst_read;
    x->cfg.remote_policy = UVM_REMOTE_LAZY_PG_DYN_SW;
    x->cfg.pst_source = UVM_PST_HW;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "pst_source must be sw"));
    x->cfg.pst_source = UVM_PST_SW;
    x->cfg.lazy_pg_threshold = 0;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "lazy_pg_threshold"));
    x->cfg.lazy_pg_threshold = 8;
    x->cfg.remote_policy = UVM_REMOTE_POLICIES;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "lazy_pg_dyn_sw (5)"));
    free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thresholds), cmocka_unit_test(test_stat_service_poll),
        cmocka_unit_test(test_timer_poll), cmocka_unit_test(test_dyn),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
