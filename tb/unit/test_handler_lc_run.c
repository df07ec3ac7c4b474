/*
 * test_handler_lc_run.c - Li & Chapman's object placement enforced by the handler
 * (uvm_handler_objects, sw-handler/uvm_lc_run.c, docs/handler.md §6s) on the fake device: an
 * RDM launch prefetches its dense objects (explicit transfer), a later launch removes the object
 * reused furthest in the future (its pages moved to the host, written back) to prefetch the one
 * it needs; a sparse object is left to fault; object_policy none does nothing; errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_handler_fake.h"
#include "uvm_objects.h"

#include "../../sw-handler/uvm_place.h"

#define PTE_APER_BIT (UINT64_C(1) << GMMU_PTE_APER)

#define OBJ(k) (ALLOC_BASE + (uint64_t)(k)*0x10000u)

/* frames GPU frames; objects 0, 1, 2 of 4 pages each; partial mapping if partial */
static fx_t *start_n(uint32_t policy, uint32_t transfer, uint32_t frames, uint32_t partial) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = frames;
    x->cfg.object_partial = partial;
    x->fk.max_dma_bytes = 0x200000;
    x->cfg.object_policy = policy;
    x->cfg.object_transfer = transfer;
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    const char *names[] = {"o0", "o1", "o2"};
    for (int k = 0; k < 3; k++)
        assert_int_equal(
            uvm_handler_add_alloc(x->h, names[k], OBJ(k), 4 * PAGE, 0, x->err, sizeof x->err), 0);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    x->fk.nev = 0;
    return x;
}

/* 8 GPU frames, no partial mapping */
static fx_t *start(uint32_t policy, uint32_t transfer) {
    return start_n(policy, transfer, 8, 0);
}

static uvm_obj_use_t use(int k, double density, uint64_t gl, uint32_t reuse) {
    const uvm_obj_use_t u = {OBJ(k), 4 * PAGE, density, 10, gl, reuse};
    return u;
}

/* mapped on a GPU frame (a remote leaf has APER) */
static int mapped(fx_t *x, int k, int page) {
    const uint64_t e = walk(&x->fk, (OBJ(k) >> 12) + (uint64_t)page, NULL);
    return (e & PTE_V_BIT) && !(e & PTE_APER_BIT);
}

/* mapped remotely on its host copy */
static int remote(fx_t *x, int k, int page) {
    const uint64_t e = walk(&x->fk, (OBJ(k) >> 12) + (uint64_t)page, NULL);
    return (e & PTE_V_BIT) && (e & PTE_APER_BIT) && uvm_remote_is(x->h, (OBJ(k) >> 12) + page);
}

static void test_rdm_enforced(void **state) {
    (void)state;
    fx_t *x = start(UVM_OBJ_POLICY_RDM, UVM_OBJ_XFER_DENSITY);
    const uvm_obj_use_t k0[] = {use(0, 1.0, 5, 1), use(1, 1.0, 5, 2)};
    assert_int_equal(uvm_handler_objects(x->h, k0, 2, x->err, sizeof x->err), 0);
    assert_int_equal(st(x)->obj_prefetches, 2);
    assert_int_equal(st(x)->obj_prefetch_pages, 8);
    for (int p = 0; p < 4; p++)
        assert_true(mapped(x, 0, p) && mapped(x, 1, p));
    /* launch 1: object 2 (next reuse 1 + 1 = 2) and object 0 (never reused again): object 0 is
     * removed (4 pages to the host, written back: writable) and mapped remotely on its host
     * copies, object 2 prefetched, object 1 (next reuse 2, tie, same global locality: not
     * lower) kept */
    const size_t d2h0 = x->fk.ndma;
    const uvm_obj_use_t k1[] = {use(2, 1.0, 5, 1), use(0, 1.0, 5, UVM_OBJ_NEVER)};
    assert_int_equal(uvm_handler_objects(x->h, k1, 2, x->err, sizeof x->err), 0);
    assert_int_equal(st(x)->obj_evictions, 1);
    assert_int_equal(st(x)->obj_host_pages, 4);
    assert_int_equal(st(x)->obj_prefetches, 3);
    assert_true(x->fk.ndma > d2h0);
    for (int p = 0; p < 4; p++) {
        assert_false(mapped(x, 0, p));
        assert_true(remote(x, 0, p));
        assert_true(mapped(x, 1, p) && mapped(x, 2, p));
    }
    assert_int_equal(st(x)->remote_maps, 4);
    assert_int_equal(st(x)->obj_launches, 2);
    /* launch 2: object 0 again, reused soon (1): object 1 (never again) leaves for the host, and
     * object 0's remote mappings give way to its frames as the prefetch copies it */
    const uvm_obj_use_t k2[] = {use(0, 1.0, 5, 1), use(1, 1.0, 5, UVM_OBJ_NEVER)};
    assert_int_equal(uvm_handler_objects(x->h, k2, 2, x->err, sizeof x->err), 0);
    for (int p = 0; p < 4; p++) {
        assert_true(mapped(x, 0, p));
        assert_false(uvm_remote_is(x->h, (OBJ(0) >> 12) + (uint64_t)p));
        assert_true(remote(x, 1, p));
    }
    assert_int_equal(st(x)->remote_to_gpu, 4);
    fx_done(x);
}

/* density below 0.5: implicit (nothing copied before the kernel); none: nothing at all */
static void test_implicit_and_none(void **state) {
    (void)state;
    fx_t *x = start(UVM_OBJ_POLICY_GLM, UVM_OBJ_XFER_DENSITY);
    const uvm_obj_use_t k0[] = {use(0, 0.25, 5, 1), use(1, 0.5, 4, 1)};
    assert_int_equal(uvm_handler_objects(x->h, k0, 2, x->err, sizeof x->err), 0);
    assert_int_equal(st(x)->obj_prefetches, 1);
    assert_false(mapped(x, 0, 0));
    assert_true(mapped(x, 1, 0));
    fx_done(x);
    x = start(UVM_OBJ_POLICY_NONE, UVM_OBJ_XFER_EXPLICIT);
    assert_int_equal(uvm_handler_objects(x->h, k0, 2, x->err, sizeof x->err), 0);
    assert_int_equal(st(x)->obj_launches, 0);
    assert_int_equal(x->fk.ndma, 0);
    fx_done(x);
}

/* partial mapping (docs/handler.md §6s.1) with 6 frames: object 0 placed whole, object 1's
 * first 2 pages prefetched into the 2 frames left and its last 2 mapped remotely; a later launch
 * (object 1 reused soon, object 0 never) places object 1 whole (its remote pages migrate) and
 * maps object 0 partially: only its last 2 pages leave the GPU */
static void test_partial_enforced(void **state) {
    (void)state;
    fx_t *x = start_n(UVM_OBJ_POLICY_RDM, UVM_OBJ_XFER_DENSITY, 6, 1);
    const uvm_obj_use_t k0[] = {use(0, 1.0, 5, 1), use(1, 1.0, 5, 2)};
    assert_int_equal(uvm_handler_objects(x->h, k0, 2, x->err, sizeof x->err), 0);
    assert_int_equal(st(x)->obj_partial_maps, 1);
    assert_int_equal(st(x)->obj_partial_pages, 2);
    assert_int_equal(st(x)->obj_prefetch_pages, 6);
    assert_int_equal(st(x)->remote_maps, 2);
    for (int p = 0; p < 4; p++) {
        assert_true(mapped(x, 0, p));
        assert_true(p < 2 ? mapped(x, 1, p) : remote(x, 1, p));
    }
    /* object 1 alone: the split stays, nothing moves */
    const size_t ndma = x->fk.ndma;
    const uvm_obj_use_t k1[] = {use(1, 1.0, 5, 1)};
    assert_int_equal(uvm_handler_objects(x->h, k1, 1, x->err, sizeof x->err), 0);
    assert_int_equal(st(x)->obj_partial_maps, 1);
    assert_int_equal(x->fk.ndma, ndma);
    const uvm_obj_use_t k2[] = {use(1, 1.0, 5, 1), use(0, 1.0, 5, UVM_OBJ_NEVER)};
    assert_int_equal(uvm_handler_objects(x->h, k2, 2, x->err, sizeof x->err), 0);
    assert_int_equal(st(x)->obj_evictions, 1);
    assert_int_equal(st(x)->obj_host_pages, 2);
    assert_int_equal(st(x)->obj_partial_maps, 2);
    assert_int_equal(st(x)->remote_to_gpu, 2);
    for (int p = 0; p < 4; p++) {
        assert_true(mapped(x, 1, p));
        assert_true(p < 2 ? mapped(x, 0, p) : remote(x, 0, p));
    }
    fx_done(x);
}

static void test_errors(void **state) {
    (void)state;
    fx_t *x = start(UVM_OBJ_POLICY_RLM, UVM_OBJ_XFER_DENSITY);
    uvm_obj_use_t u = use(0, 1.0, 1, 1);
    u.size = PAGE; /* not the allocation's size */
    assert_int_equal(uvm_handler_objects(x->h, &u, 1, x->err, sizeof x->err), -1);
    assert_non_null(strstr(x->err, "is not an allocation"));
    u = use(5, 1.0, 1, 1);
    assert_int_equal(uvm_handler_objects(x->h, &u, 1, x->err, sizeof x->err), -1);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rdm_enforced),
        cmocka_unit_test(test_implicit_and_none),
        cmocka_unit_test(test_partial_enforced),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
