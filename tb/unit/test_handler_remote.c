/*
 * test_handler_remote.c - the placement kind `remote` (sw-handler/uvm_place_remote.c,
 * uvm_remote.c, docs/handler.md §6l): a page mapped on its host copy (PTE APER, PPN = its VPN in
 * its address space, no frame, no copy), unmapped with its shoot-down, migrated to the GPU (the
 * remote mapping removed and shot down before the H2D copy), never evicted, unmapped by a free;
 * a fault on a remote page is stale.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_place.h"

#define PTE_APER_BIT (UINT64_C(1) << GMMU_PTE_APER)
#define HOST_PPN(vpn) (((vpn) & ((UINT64_C(1) << 36) - 1u)) << 12)

typedef struct {
    uint32_t mapped, unmapped, other_frame;
} rev_t;

static void on_remote(void *ctx, const uvm_event_t *ev) {
    rev_t *r = ctx;
    if (ev->kind == UVM_EVENT_REMOTE_MAP)
        r->mapped++;
    else
        r->unmapped++;
    r->other_frame += ev->page.frame != UINT32_MAX || ev->page.pages != 1;
}

static fx_t *start(rev_t *r, uint32_t frames) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = frames;
    fx_start(x);
    assert_int_equal(uvm_handler_add_alloc(x->h, "ro", ALLOC_BASE + 0x200000, 4 * PAGE, 1, x->err,
                                           sizeof x->err),
                     0);
    assert_int_equal(uvm_handler_subscribe(x->h,
                                           UVM_EVENT_MASK(UVM_EVENT_REMOTE_MAP) |
                                               UVM_EVENT_MASK(UVM_EVENT_REMOTE_UNMAP),
                                           on_remote, r),
                     0);
    return x;
}

static size_t invals_of(const fake_t *f, uint64_t vpn) {
    size_t n = 0;
    for (size_t i = 0; i < f->ncmd; i++)
        n += f->cmd[i].op == GMMU_CMD_INVAL_PAGE && f->cmd[i].arg == vpn;
    return n;
}

/* a remote leaf: V, W as the allocation, APER, the host frame; no DMA, no frame, no shoot-down */
static void test_map(void **state) {
    (void)state;
    rev_t r = {0};
    fx_t *x = start(&r, 64);
    fake_t *f = &x->fk;
    assert_int_equal(uvm_remote_map(x->h, VPN0, 4, true), 4);
    assert_int_equal(uvm_remote_map(x->h, VPN0 + 2, 4, true), 2); /* 2 already remote */
    const uint64_t ro = (ALLOC_BASE + 0x200000) >> 12;
    assert_int_equal(uvm_remote_map(x->h, ro + 3, 2, true), 1); /* the page after: unmanaged */
    for (uint64_t p = 0; p < 6; p++) {
        const uint64_t e = walk(f, VPN0 + p, NULL);
        assert_true(e & PTE_V_BIT);
        assert_true(e & PTE_W_BIT);
        assert_true(e & PTE_APER_BIT);
        assert_int_equal(e & PPN_MASK, HOST_PPN(VPN0 + p));
        assert_true(uvm_remote_is(x->h, VPN0 + p));
    }
    const uint64_t e = walk(f, ro + 3, NULL);
    assert_true((e & PTE_APER_BIT) && !(e & PTE_W_BIT)); /* read-only allocation */
    assert_false(uvm_remote_is(x->h, VPN0 + 6));
    assert_int_equal(walk(f, VPN0 + 6, NULL), 0);
    assert_int_equal(f->ndma, 0);
    assert_int_equal(count_cmds(f, GMMU_CMD_INVAL_PAGE), 0);
    assert_int_equal(st(x)->remote_maps, 7);
    assert_int_equal(st(x)->data_pages_resident, 0);
    assert_int_equal(r.mapped, 7);
    assert_int_equal(r.other_frame, 0);
    fx_done(x);
}

/* unmap: PTE cleared, then INVAL_PAGE waited for, per remote page; the next access faults and
 * migrates as usual; a resident page is not mapped remotely */
static void test_unmap(void **state) {
    (void)state;
    rev_t r = {0};
    fx_t *x = start(&r, 64);
    fake_t *f = &x->fk;
    assert_int_equal(uvm_remote_map(x->h, VPN0, 4, true), 4);
    const uint64_t inv0 = st(x)->invalidates;
    assert_int_equal(uvm_remote_unmap(x->h, VPN0 + 1, 8), 3);
    assert_int_equal(st(x)->invalidates - inv0, 3);
    assert_int_equal(st(x)->remote_unmaps, 3);
    assert_int_equal(r.unmapped, 3);
    for (uint64_t p = 1; p < 4; p++) {
        uint64_t pa = 0;
        assert_int_equal(walk(f, VPN0 + p, &pa), 0);
        assert_int_equal(invals_of(f, VPN0 + p), 1);
        /* the clear precedes the shoot-down */
        const size_t clr = ev_find(f, 0, EV_GPU_W, pa, 1, 0);
        assert_true(clr != SIZE_MAX);
        assert_true(clr < f->cmd[f->ncmd - 3u + (size_t)(p - 1u)].ev);
        assert_false(uvm_remote_is(x->h, VPN0 + p));
    }
    assert_true(uvm_remote_is(x->h, VPN0));
    fk_post(f, VPN0 + 1, GMMU_AT_WRITE);
    uvm_handler_service(x->h);
    uint64_t e = walk(f, VPN0 + 1, NULL);
    assert_true((e & PTE_V_BIT) && !(e & PTE_APER_BIT));
    assert_int_equal(st(x)->pages_h2d, 1);
    assert_int_equal(uvm_remote_map(x->h, VPN0 + 1, 1, true), 0); /* resident: stays local */
    e = walk(f, VPN0 + 1, NULL);
    assert_false(e & PTE_APER_BIT);
    fx_done(x);
}

/* a fault on a remote page (raised before it was mapped) is stale: nothing migrates */
static void test_fault_stale(void **state) {
    (void)state;
    rev_t r = {0};
    fx_t *x = start(&r, 64);
    fake_t *f = &x->fk;
    assert_int_equal(uvm_remote_map(x->h, VPN0, 1, true), 1);
    fk_post(f, VPN0, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(f->ndma, 0);
    assert_int_equal(st(x)->faults_stale, 1);
    assert_true(walk(f, VPN0, NULL) & PTE_APER_BIT);
    fx_done(x);
}

/* migrate to the GPU: the remote mapping removed and shot down before the H2D copy of the host
 * copy, then a local PTE; only remote pages move */
static void test_to_gpu(void **state) {
    (void)state;
    rev_t r = {0};
    fx_t *x = start(&r, 64);
    fake_t *f = &x->fk;
    assert_int_equal(uvm_remote_map(x->h, VPN0, 2, true), 2);
    assert_int_equal(uvm_remote_to_gpu(x->h, VPN0, 4), 2);
    uint64_t bytes = 0;
    for (size_t i = 0; i < f->ndma; i++) {
        assert_int_equal(f->dma[i].dir, UVM_DMA_H2D); /* nothing written back */
        assert_int_equal(f->dma[i].src, (VPN0 << 12) + (i ? PAGE : 0));
        bytes += f->dma[i].bytes;
    }
    assert_int_equal(bytes, 2 * PAGE);
    for (uint64_t p = 0; p < 2; p++) {
        const uint64_t e = walk(f, VPN0 + p, NULL);
        assert_true((e & PTE_V_BIT) && (e & PTE_W_BIT) && !(e & PTE_APER_BIT));
        assert_true((e & PPN_MASK) >= DATA_BASE);
        assert_false(uvm_remote_is(x->h, VPN0 + p));
        assert_int_equal(invals_of(f, VPN0 + p), 1);
    }
    /* each page's shoot-down before the copy of its host copy */
    for (size_t i = 0; i < f->ncmd; i++)
        for (size_t d = 0; d < f->ndma; d++)
            if (f->cmd[i].op == GMMU_CMD_INVAL_PAGE && f->cmd[i].arg < VPN0 + 2 &&
                f->cmd[i].arg << 12 >= f->dma[d].src &&
                f->cmd[i].arg << 12 < f->dma[d].src + f->dma[d].bytes)
                assert_true(f->cmd[i].ev < f->dma[d].ev_submit);
    assert_int_equal(walk(f, VPN0 + 2, NULL), 0);
    assert_int_equal(st(x)->remote_to_gpu, 2);
    assert_int_equal(st(x)->remote_unmaps, 2);
    assert_int_equal(st(x)->data_pages_resident, 2);
    assert_int_equal(r.unmapped, 2);
    /* a prefetch to the GPU takes a remote page the same way */
    assert_int_equal(uvm_remote_map(x->h, VPN0 + 8, 1, true), 1);
    uint64_t pages = 0;
    assert_int_equal(
        uvm_handler_prefetch(x->h, ALLOC_BASE + 8 * PAGE, PAGE, &pages, x->err, sizeof x->err), 0);
    assert_false(walk(f, VPN0 + 8, NULL) & PTE_APER_BIT);
    assert_int_equal(invals_of(f, VPN0 + 8), 1);
    assert_int_equal(st(x)->remote_to_gpu, 3);
    fx_done(x);
}

/* a remote page has no frame: memory full of faulted pages evicts among them, never it */
static void test_never_evicted(void **state) {
    (void)state;
    rev_t r = {0};
    fx_t *x = start(&r, 8);
    fake_t *f = &x->fk;
    assert_int_equal(uvm_remote_map(x->h, VPN0 + 100, 4, true), 4);
    for (uint64_t p = 0; p < 12; p++) {
        fk_post(f, VPN0 + p, GMMU_AT_WRITE);
        uvm_handler_service(x->h);
    }
    assert_true(st(x)->evictions >= 4);
    for (uint64_t p = 100; p < 104; p++) {
        assert_true(walk(f, VPN0 + p, NULL) & PTE_APER_BIT);
        assert_int_equal(invals_of(f, VPN0 + p), 0);
    }
    assert_int_equal(st(x)->remote_unmaps, 0);
    fx_done(x);
}

/* a free unmaps its remote pages (shoot-down, no write-back, nothing counted as a freed frame) */
static void test_free_unmaps(void **state) {
    (void)state;
    rev_t r = {0};
    fx_t *x = start(&r, 64);
    fake_t *f = &x->fk;
    assert_int_equal(uvm_remote_map(x->h, VPN0 + 5, 3, true), 3);
    assert_int_equal(uvm_handler_free_alloc(x->h, "a", x->err, sizeof x->err), 0);
    for (uint64_t p = 5; p < 8; p++) {
        assert_int_equal(walk(f, VPN0 + p, NULL), 0);
        assert_int_equal(invals_of(f, VPN0 + p), 1);
        assert_false(uvm_remote_is(x->h, VPN0 + p));
    }
    assert_int_equal(f->ndma, 0);
    assert_int_equal(st(x)->remote_unmaps, 3);
    assert_int_equal(st(x)->pages_freed, 0);
    fx_done(x);
}

/* remote_policy = pin_host: every faulting managed page mapped remotely, none migrated (with
 * 64 KB growth and the nvidia prefetcher asked), its fault replayed; outside an allocation still
 * fatal; a write to a read-only allocation still cancelled; a bad value refused */
static void test_pin_host(void **state) {
    (void)state;
    rev_t r = {0};
    fx_t *x = fx_new();
    x->cfg.remote_policy = UVM_REMOTE_PIN_HOST;
    x->cfg.grow_pages = 16;
    set_policy(&x->cfg, UVM_POLICY_PREFETCH, "nvidia");
    fx_start(x);
    assert_int_equal(
        uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_REMOTE_MAP), on_remote, &r), 0);
    fake_t *f = &x->fk;
    fk_post(f, VPN0 + 0, GMMU_AT_READ);
    fk_post(f, VPN0 + 1, GMMU_AT_WRITE);
    fk_post(f, VPN0 + 40, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(f->ndma, 0);
    assert_int_equal(st(x)->data_pages_resident, 0);
    assert_int_equal(st(x)->remote_maps, 3);
    assert_int_equal(r.mapped, 3);
    assert_true(st(x)->replays >= 1);
    for (uint64_t p = 0; p < 41; p++) {
        const uint64_t e = walk(f, VPN0 + p, NULL);
        if (p == 0 || p == 1 || p == 40)
            assert_true((e & PTE_APER_BIT) && (e & PTE_W_BIT) &&
                        (e & PPN_MASK) == HOST_PPN(VPN0 + p));
        else
            assert_int_equal(e, 0); /* no growth, no prefetch */
    }
    fk_post(f, VPN0 + 0, GMMU_AT_WRITE);    /* stale: already mapped remotely */
    fk_post(f, VPN0 + 0x200, GMMU_AT_READ); /* outside "a" (1 MB): fatal */
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->faults_stale, 1);
    assert_int_equal(st(x)->cancels, 1);
    assert_int_equal(st(x)->remote_maps, 3);
    assert_int_equal(f->ndma, 0);
    fx_done(x);

    fx_t *y = fx_new();
    y->cfg.remote_policy = UVM_REMOTE_POLICIES;
    assert_null(uvm_handler_new(&y->cfg, &y->dev, y->err, sizeof y->err));
    assert_non_null(strstr(y->err, "remote_policy"));
    free(y);
}

/* advise accessed_by: the non-resident pages of the range mapped remotely at once (a resident one
 * keeps its local mapping), a fault on an advised page not mapped maps it remotely, an evicted
 * advised page is re-mapped remotely after its write-back; a free forgets the advice */
static void test_accessed_by(void **state) {
    (void)state;
    rev_t r = {0};
    fx_t *x = start(&r, 4);
    fake_t *f = &x->fk;
    fk_post(f, VPN0 + 0, GMMU_AT_WRITE); /* resident before the advice */
    uvm_handler_service(x->h);
    assert_int_equal(uvm_handler_advise(x->h, ALLOC_BASE, 4 * PAGE, UVM_ADVISE_ACCESSED_BY, x->err,
                                        sizeof x->err),
                     0);
    assert_false(walk(f, VPN0 + 0, NULL) & PTE_APER_BIT); /* stays local */
    for (uint64_t p = 1; p < 4; p++)
        assert_int_equal(walk(f, VPN0 + p, NULL) & PPN_MASK, HOST_PPN(VPN0 + p));
    assert_int_equal(st(x)->remote_maps, 3);
    uvm_remote_unmap(x->h, VPN0 + 3, 1); /* then a fault on it: mapped remotely, not migrated */
    const size_t dma0 = f->ndma;
    fk_post(f, VPN0 + 3, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(f->ndma, dma0);
    assert_true(walk(f, VPN0 + 3, NULL) & PTE_APER_BIT);
    /* 4 frames: faults on 4 other pages evict page 0, which comes back remote after its D2H */
    for (uint64_t p = 10; p < 14; p++) {
        fk_post(f, VPN0 + p, GMMU_AT_WRITE);
        uvm_handler_service(x->h);
    }
    assert_true(st(x)->evictions >= 1);
    assert_int_equal(st(x)->pages_d2h, 1);
    const uint64_t e = walk(f, VPN0 + 0, NULL);
    assert_true((e & PTE_APER_BIT) && (e & PTE_W_BIT) && (e & PPN_MASK) == HOST_PPN(VPN0));
    assert_true(uvm_remote_is(x->h, VPN0));
    assert_int_equal(st(x)->remote_maps, 5);
    assert_false(uvm_remote_is(x->h, VPN0 + 10)); /* not advised: migrated */
    assert_int_equal(uvm_handler_free_alloc(x->h, "a", x->err, sizeof x->err), 0);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "a2", ALLOC_BASE, PAGE * 8, 0, x->err, sizeof x->err), 0);
    fk_post(f, VPN0 + 1, GMMU_AT_READ); /* the advice died with "a": migrated */
    uvm_handler_service(x->h);
    assert_false(walk(f, VPN0 + 1, NULL) & PTE_APER_BIT);
    fx_done(x);
}

/* preferred_location=host: a GPU fault maps the page remotely (the host can be mapped by the
 * GPU); preferred_location=gpu replaces it: the next fault migrates */
static void test_prefer_host(void **state) {
    (void)state;
    rev_t r = {0};
    fx_t *x = start(&r, 64);
    fake_t *f = &x->fk;
    assert_int_equal(uvm_handler_advise(x->h, ALLOC_BASE, 2 * PAGE, UVM_ADVISE_PREFER_HOST, x->err,
                                        sizeof x->err),
                     0);
    assert_int_equal(st(x)->remote_maps, 0); /* nothing mapped by the advice itself */
    fk_post(f, VPN0 + 0, GMMU_AT_WRITE);
    fk_post(f, VPN0 + 2, GMMU_AT_WRITE);
    uvm_handler_service(x->h);
    assert_true(walk(f, VPN0 + 0, NULL) & PTE_APER_BIT);
    assert_false(walk(f, VPN0 + 2, NULL) & PTE_APER_BIT);
    assert_int_equal(st(x)->pages_h2d, 1);
    assert_int_equal(uvm_handler_advise(x->h, ALLOC_BASE + PAGE, PAGE, UVM_ADVISE_PREFER_GPU,
                                        x->err, sizeof x->err),
                     0);
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_false(walk(f, VPN0 + 1, NULL) & PTE_APER_BIT);
    assert_int_equal(st(x)->pages_h2d, 2);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map),           cmocka_unit_test(test_unmap),
        cmocka_unit_test(test_fault_stale),   cmocka_unit_test(test_to_gpu),
        cmocka_unit_test(test_never_evicted), cmocka_unit_test(test_free_unmaps),
        cmocka_unit_test(test_pin_host),      cmocka_unit_test(test_accessed_by),
        cmocka_unit_test(test_prefer_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
