/*
 * test_handler_pfull.c - prefetch under memory pressure (docs/handler.md §6k, issue 20 item 3):
 * with prefetch_when_full = yes (the driver) a block's growth pages migrate and evict like
 * faulted pages once GPU memory is full; with no, only the faulted page migrates when the free
 * frames cannot hold the whole set, and nothing is evicted for a prefetch.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

/* 20 frames, 64 KB growth: the first fault takes 16 frames, the second set (16) does not fit */
static fx_t *run(uint32_t when_full) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 20;
    x->cfg.grow_pages = 16;
    x->cfg.prefetch_when_full = when_full;
    fx_start(x);
    fk_post(&x->fk, VPN0, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(x->h->stats.pages_h2d, 16); /* fits: growth taken either way */
    assert_int_equal(x->h->stats.pages_prefetched, 15);
    fk_post(&x->fk, VPN0 + 16, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_true(walk(&x->fk, VPN0 + 16, NULL) & PTE_V_BIT);
    return x;
}

static void test_prefetch_when_full_yes(void **state) {
    (void)state;
    fx_t *x = run(1);
    assert_int_equal(x->h->stats.pages_h2d, 32);
    assert_int_equal(x->h->stats.pages_prefetched, 30);
    assert_int_equal(x->h->stats.evictions, 12);
    fx_done(x);
}

static void test_prefetch_when_full_no(void **state) {
    (void)state;
    fx_t *x = run(0);
    assert_int_equal(x->h->stats.pages_h2d, 17);
    assert_int_equal(x->h->stats.pages_prefetched, 15);
    assert_int_equal(x->h->stats.evictions, 0);
    assert_int_equal(walk(&x->fk, VPN0 + 17, NULL), 0); /* its growth was not taken */
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefetch_when_full_yes),
        cmocka_unit_test(test_prefetch_when_full_no),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
