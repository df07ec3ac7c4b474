/*
 * test_handler_reserve.c - pre-eviction (evict_reserve_pages, docs/handler.md §6u) against the
 * fake device: after each interrupt service the handler evicts the eviction policy's victims
 * until evict_reserve_pages frames are free, so the next faults take free frames and never wait
 * for an eviction; the cost is counted (reserve_evictions, reserve_ns); 0 is off; a reserve as
 * large as GPU memory is refused.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

typedef struct {
    uint64_t vpn[16];
    uint64_t resv[16]; /* reserve_evictions when the EVICT event came */
    size_t n;
    const uvm_handler_t *h;
} evs_t;

static void record(void *ctx, const uvm_event_t *ev) {
    evs_t *l = ctx;
    assert_true(l->n < 16);
    l->resv[l->n] = uvm_handler_stats(l->h)->reserve_evictions;
    l->vpn[l->n++] = ev->evict.vpn;
}

static void service_one(fx_t *x, uint64_t vpn) {
    fk_post(&x->fk, vpn, GMMU_AT_WRITE);
    uvm_handler_service(x->h);
}

/* 4 frames, a reserve of 2, lru: a and b take free frames; c leaves 1 free, so after c's
 * service a (the oldest) is evicted; d takes that frame, then b goes; e, then c. Every eviction
 * is the reserve's, done after the service's replay. */
static void test_reserve_refills(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 4;
    x->cfg.evict_reserve_pages = 2;
    fx_start(x);
    evs_t log = {.h = x->h};
    assert_int_equal(uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT), record, &log), 0);
    service_one(x, VPN0 + 0);
    service_one(x, VPN0 + 1);
    assert_int_equal(log.n, 0);
    assert_int_equal(x->h->pmm.nfree, 2);
    const uint64_t replays = uvm_handler_stats(x->h)->replays;
    service_one(x, VPN0 + 2);
    assert_int_equal(uvm_handler_stats(x->h)->replays, replays + 1); /* replayed first */
    assert_int_equal(log.n, 1);
    assert_int_equal(log.vpn[0], VPN0 + 0);
    assert_int_equal(x->h->pmm.nfree, 2);
    service_one(x, VPN0 + 3);
    service_one(x, VPN0 + 4);
    assert_int_equal(log.n, 3);
    assert_int_equal(log.vpn[1], VPN0 + 1);
    assert_int_equal(log.vpn[2], VPN0 + 2);
    const uvm_stats_t *s = uvm_handler_stats(x->h);
    assert_int_equal(s->evictions, 3);
    assert_int_equal(s->reserve_evictions, 3); /* no fault waited for an eviction */
    assert_true(s->reserve_ns >= 3 * x->cfg.t_evict_ns);
    assert_int_equal(x->h->pmm.nfree, 2);
    fx_done(x);
}

/* Without a reserve the same faults evict on demand, inside the service, and nothing counts
 * as the reserve's. */
static void test_reserve_off(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 4;
    fx_start(x);
    for (uint64_t p = 0; p < 6; p++)
        service_one(x, VPN0 + p);
    const uvm_stats_t *s = uvm_handler_stats(x->h);
    assert_int_equal(s->evictions, 2);
    assert_int_equal(s->reserve_evictions, 0);
    assert_int_equal(s->reserve_ns, 0);
    assert_int_equal(x->h->pmm.nfree, 0);
    fx_done(x);
}

/* A reserve of every frame is refused, with the key named. */
static void test_reserve_too_large(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 4;
    x->cfg.evict_reserve_pages = 4;
    char err[256];
    assert_null(uvm_handler_new(&x->cfg, &x->dev, err, sizeof err));
    assert_non_null(strstr(err, "evict_reserve_pages 4 must be below the GPU data frames (4)"));
    x->cfg.evict_reserve_pages = 3;
    fx_start(x);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reserve_refills),
        cmocka_unit_test(test_reserve_off),
        cmocka_unit_test(test_reserve_too_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
