/*
 * test_handler_advise.c - memory advice and read duplication (uvm_handler_advise,
 * sw-handler/uvm_advise.c, docs/handler.md §6o): a GPU read of a read-mostly page maps a
 * read-only duplicate (the host copy stays valid), a GPU write (RO violation) collapses it in
 * place (PTE made writable, INVAL_PAGE, REVOCATION, no copy), a write fault on a read-mostly page
 * migrates it writable; a CPU read keeps the GPU copy (a writable one written back and mapped
 * read-only), a CPU write drops it without write-back; a free forgets the advice; the errors.
 */
#include "test_handler_fake.h"

typedef struct {
    uint32_t n;
    uvm_event_revocation_t last;
} revs_t;

static void on_revocation(void *ctx, const uvm_event_t *ev) {
    revs_t *r = ctx;
    r->n++;
    r->last = ev->revocation;
}

/* handler with "a" (1 MB, writable) at ALLOC_BASE, initialized; pages [0, 8) read-mostly */
static fx_t *start(revs_t *r) {
    fx_t *x = fx_new();
    for (uint32_t i = 0; i < 256; i++)
        x->fk.host_tag[i] = 0x5000u + i;
    fx_start(x);
    assert_int_equal(
        uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_REVOCATION), on_revocation, r), 0);
    assert_int_equal(uvm_handler_advise(x->h, ALLOC_BASE, 8 * PAGE, UVM_ADVISE_READ_MOSTLY, x->err,
                                        sizeof x->err),
                     0);
    return x;
}

static size_t invals_of(const fake_t *f, uint64_t vpn) {
    size_t n = 0;
    for (size_t i = 0; i < f->ncmd; i++)
        n += f->cmd[i].op == GMMU_CMD_INVAL_PAGE && f->cmd[i].arg == vpn;
    return n;
}

/* reads of read-mostly pages map read-only duplicates; a write fault migrates writable; pages
 * outside the advice are writable as before */
static void test_read_fault_duplicates(void **state) {
    (void)state;
    revs_t r = {0};
    fx_t *x = start(&r);
    fake_t *f = &x->fk;
    fk_post(f, VPN0 + 0, GMMU_AT_READ);
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    fk_post(f, VPN0 + 2, GMMU_AT_WRITE);
    fk_post(f, VPN0 + 10, GMMU_AT_READ);
    uvm_handler_service(x->h);
    for (uint64_t p = 0; p < 3; p++)
        assert_true(walk(f, VPN0 + p, NULL) & PTE_V_BIT);
    assert_false(walk(f, VPN0 + 0, NULL) & PTE_W_BIT);
    assert_false(walk(f, VPN0 + 1, NULL) & PTE_W_BIT);
    assert_true(walk(f, VPN0 + 2, NULL) & PTE_W_BIT);
    assert_true(walk(f, VPN0 + 10, NULL) & PTE_W_BIT);
    assert_int_equal(st(x)->read_dup_pages, 2);
    assert_int_equal(st(x)->read_dup_collapses, 0);
    assert_int_equal(st(x)->pages_h2d, 4);
    assert_int_equal(r.n, 0);
    fx_done(x);
}

/* a GPU write to a duplicate (RO violation) collapses it in place: same frame, W = 1, one
 * INVAL_PAGE of the page, one REVOCATION, no copy, no eviction; its replay is issued */
static void test_gpu_write_collapses(void **state) {
    (void)state;
    revs_t r = {0};
    fx_t *x = start(&r);
    fake_t *f = &x->fk;
    fk_post(f, VPN0 + 0, GMMU_AT_READ);
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    uvm_handler_service(x->h);
    const uint64_t before = walk(f, VPN0 + 0, NULL);
    const size_t dma0 = f->ndma, inv0 = invals_of(f, VPN0 + 0);
    const uint64_t replays0 = st(x)->replays;
    fk_post_raw(f, VPN0 + 0, GMMU_AT_WRITE, GMMU_FT_RO_VIOLATION, 0, 1);
    uvm_handler_service(x->h);
    assert_int_equal(walk(f, VPN0 + 0, NULL), before | PTE_W_BIT);
    assert_false(walk(f, VPN0 + 1, NULL) & PTE_W_BIT); /* the other duplicate stays */
    assert_int_equal(invals_of(f, VPN0 + 0), inv0 + 1);
    assert_int_equal(f->ndma, dma0);
    assert_int_equal(st(x)->read_dup_collapses, 1);
    assert_int_equal(st(x)->evictions, 0);
    assert_int_equal(st(x)->data_pages_resident, 2);
    assert_true(st(x)->replays > replays0);
    assert_int_equal(r.n, 1);
    assert_int_equal(r.last.vpn, VPN0 + 0);
    assert_int_equal(r.last.access, GMMU_AT_WRITE);
    /* a second write fault (another SM's, stale): nothing more */
    fk_post_raw(f, VPN0 + 0, GMMU_AT_WRITE, GMMU_FT_RO_VIOLATION, 1, 1);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->read_dup_collapses, 1);
    assert_int_equal(st(x)->faults_stale, 1);
    /* the now writable page is written back when it leaves (it may be dirty) */
    uint64_t pages = 0;
    assert_int_equal(uvm_handler_cpu_write(x->h, ALLOC_BASE, PAGE, &pages, x->err, 256), 0);
    assert_int_equal(pages, 1);
    assert_int_equal(st(x)->pages_d2h, 1);
    fx_done(x);
}

/* CPU read: a duplicate stays (nothing copied), a writable read-mostly page is written back
 * and mapped read-only; a page without the advice goes to the host. CPU write: a duplicate
 * collapses to the host copy (unmapped, INVAL_PAGE, no D2H) */
static void test_cpu_access(void **state) {
    (void)state;
    revs_t r = {0};
    fx_t *x = start(&r);
    fake_t *f = &x->fk;
    fk_post(f, VPN0 + 0, GMMU_AT_READ);
    fk_post(f, VPN0 + 2, GMMU_AT_WRITE);
    fk_post(f, VPN0 + 9, GMMU_AT_WRITE);
    uvm_handler_service(x->h);
    const uint64_t pa2 = walk(f, VPN0 + 2, NULL) & PPN_MASK;
    const size_t dma0 = f->ndma;
    uint64_t pages = 0;
    /* CPU read of pages 0..9 */
    assert_int_equal(uvm_handler_to_host(x->h, ALLOC_BASE, 10 * PAGE, &pages, x->err, 256), 0);
    assert_int_equal(pages, 1); /* page 9 only left */
    assert_false(walk(f, VPN0 + 9, NULL) & PTE_V_BIT);
    assert_int_equal(walk(f, VPN0 + 2, NULL), pa2 | PTE_V_BIT); /* same frame, read-only */
    assert_true(walk(f, VPN0 + 0, NULL) & PTE_V_BIT);
    assert_int_equal(f->ndma - dma0, 2); /* the D2H of pages 2 and 9 */
    assert_int_equal(f->dma[dma0].dir, UVM_DMA_D2H);
    assert_int_equal(f->dma[dma0].dst, (VPN0 + 2) << 12);
    assert_int_equal(st(x)->read_dup_pages, 2);
    /* CPU write of pages 0..2: both duplicates collapse to the host, nothing copied */
    const size_t dma1 = f->ndma, inv0 = invals_of(f, VPN0 + 0);
    assert_int_equal(uvm_handler_cpu_write(x->h, ALLOC_BASE, 3 * PAGE, &pages, x->err, 256), 0);
    assert_int_equal(pages, 2);
    assert_int_equal(f->ndma, dma1);
    assert_false(walk(f, VPN0 + 0, NULL) & PTE_V_BIT);
    assert_false(walk(f, VPN0 + 2, NULL) & PTE_V_BIT);
    assert_int_equal(invals_of(f, VPN0 + 0), inv0 + 1);
    assert_int_equal(st(x)->read_dup_collapses, 2);
    assert_int_equal(r.n, 2);
    assert_int_equal(r.last.access, GMMU_AT_PREFETCH);
    assert_int_equal(st(x)->data_pages_resident, 0);
    fx_done(x);
}

/* a prefetch to the GPU of read-mostly pages maps duplicates too */
static void test_prefetch_duplicates(void **state) {
    (void)state;
    revs_t r = {0};
    fx_t *x = start(&r);
    x->fk.max_dma_bytes = 0x200000;
    uint64_t pages = 0;
    assert_int_equal(
        uvm_handler_prefetch(x->h, ALLOC_BASE + 6 * PAGE, 4 * PAGE, &pages, x->err, sizeof x->err),
        0);
    assert_int_equal(pages, 4);
    for (uint64_t p = 6; p < 10; p++)
        assert_int_equal((walk(&x->fk, VPN0 + p, NULL) & PTE_W_BIT) != 0, p >= 8);
    assert_int_equal(st(x)->read_dup_pages, 2);
    fx_done(x);
}

/* a free forgets the advice: an allocation made again there is not read-mostly */
static void test_free_forgets(void **state) {
    (void)state;
    revs_t r = {0};
    fx_t *x = start(&r);
    fk_post(&x->fk, VPN0 + 0, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(uvm_handler_free_alloc(x->h, "a", x->err, sizeof x->err), 0);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "b", ALLOC_BASE, 0x100000, 0, x->err, sizeof x->err), 0);
    fk_post(&x->fk, VPN0 + 0, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_true(walk(&x->fk, VPN0 + 0, NULL) & PTE_W_BIT);
    assert_int_equal(st(x)->read_dup_pages, 1);
    fx_done(x);
}

/* one fault of page p of "a", serviced alone */
static void fault1(fx_t *x, uint64_t p) {
    fk_post(&x->fk, VPN0 + p, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_true(walk(&x->fk, VPN0 + p, NULL) & PTE_V_BIT);
}

static int mapped(fx_t *x, uint64_t p) {
    return (walk(&x->fk, VPN0 + p, NULL) & PTE_V_BIT) != 0;
}

/* preferred_location: with 8 frames full (pages 0..7, migrated in that order), pages 0, 1
 * preferred on the GPU, 4 on the host (lru eviction): the victims are 4 (preferred on the host,
 * first), then 2, 3, 5 (lru order, sparing 0 and 1), ...; when only pages preferred on the GPU
 * are left, they go too (lru among them). A later preference replaces the earlier one. */
static void test_prefer_eviction_order(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 8;
    fx_start(x);
    for (uint64_t p = 0; p < 8; p++)
        fault1(x, p);
    assert_int_equal(uvm_handler_advise(x->h, ALLOC_BASE, 2 * PAGE, UVM_ADVISE_PREFER_GPU, x->err,
                                        sizeof x->err),
                     0);
    assert_int_equal(uvm_handler_advise(x->h, ALLOC_BASE + 4 * PAGE, PAGE, UVM_ADVISE_PREFER_HOST,
                                        x->err, sizeof x->err),
                     0);
    fault1(x, 20);
    assert_false(mapped(x, 4));
    fault1(x, 21);
    assert_false(mapped(x, 2));
    fault1(x, 22);
    assert_false(mapped(x, 3));
    fault1(x, 23);
    assert_false(mapped(x, 5));
    assert_true(mapped(x, 0) && mapped(x, 1));
    /* page 6 preferred on the GPU now, 7 on the host: 7 goes before 6 */
    assert_int_equal(uvm_handler_advise(x->h, ALLOC_BASE + 6 * PAGE, PAGE, UVM_ADVISE_PREFER_GPU,
                                        x->err, sizeof x->err),
                     0);
    assert_int_equal(uvm_handler_advise(x->h, ALLOC_BASE + 7 * PAGE, PAGE, UVM_ADVISE_PREFER_HOST,
                                        x->err, sizeof x->err),
                     0);
    fault1(x, 24);
    assert_false(mapped(x, 7));
    assert_true(mapped(x, 6));
    /* every other resident page preferred on the GPU too: then lru among them (page 0 first) */
    assert_int_equal(uvm_handler_advise(x->h, ALLOC_BASE + 20 * PAGE, 5 * PAGE,
                                        UVM_ADVISE_PREFER_GPU, x->err, sizeof x->err),
                     0);
    fault1(x, 30);
    assert_false(mapped(x, 0));
    assert_true(mapped(x, 1) && mapped(x, 6) && mapped(x, 20));
    assert_int_equal(st(x)->evictions, 6);
    fx_done(x);
}

/* prefetch_stream = other (§6o): the prefetch's copies are submitted, not waited for, its pages
 * not mapped; a fault on one of them waits for the copies in flight, which are then mapped (the
 * fault is stale, replayed); without a fault the wake-up maps them. With a 2m placement the
 * prefetch stays synchronous. */
static void test_prefetch_async(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.prefetch_async = 1;
    x->fk.max_dma_bytes = 0x200000;
    fx_start(x);
    uint64_t pages = 0;
    assert_int_equal(uvm_handler_prefetch(x->h, ALLOC_BASE, 8 * PAGE, &pages, x->err, 256), 0);
    assert_int_equal(pages, 8);
    assert_int_equal(x->fk.ndma, 1); /* one run */
    assert_int_equal(x->fk.dma[0].ev_wait, SIZE_MAX);
    assert_false(mapped(x, 0));
    assert_int_not_equal(uvm_handler_wake_ns(x->h), UINT64_MAX);
    fk_post(&x->fk, VPN0 + 3, GMMU_AT_READ);
    uvm_handler_service(x->h);
    for (uint64_t p = 0; p < 8; p++)
        assert_true(mapped(x, p));
    assert_int_equal(st(x)->faults_stale, 1);
    assert_int_equal(st(x)->pages_h2d, 8);
    assert_int_equal(st(x)->replays, 1);
    assert_int_equal(uvm_handler_wake_ns(x->h), UINT64_MAX);
    /* no fault: the wake-up maps them */
    assert_int_equal(
        uvm_handler_prefetch(x->h, ALLOC_BASE + 16 * PAGE, 4 * PAGE, &pages, x->err, 256), 0);
    assert_false(mapped(x, 16));
    uvm_handler_wake(x->h);
    assert_true(mapped(x, 16) && mapped(x, 19));
    assert_int_equal(uvm_handler_wake_ns(x->h), UINT64_MAX);
    fx_done(x);
    /* 2m: synchronous */
    x = fx_new();
    x->cfg.prefetch_async = 1;
    x->cfg.page_size = UVM_PSIZE_2M;
    x->cfg.gpu_data_pages = 1024;
    x->fk.max_dma_bytes = 0x200000;
    fx_start(x);
    assert_int_equal(uvm_handler_prefetch(x->h, ALLOC_BASE, 8 * PAGE, &pages, x->err, 256), 0);
    assert_true(mapped(x, 0));
    assert_int_equal(uvm_handler_wake_ns(x->h), UINT64_MAX);
    fx_done(x);
}

static void test_advise_errors(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "a", ALLOC_BASE, 0x10000, 0, x->err, sizeof x->err), 0);
    assert_int_equal(
        uvm_handler_advise(x->h, ALLOC_BASE, PAGE, UVM_ADVISE_READ_MOSTLY, x->err, 256), -1);
    assert_non_null(strstr(x->err, "not initialized"));
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    assert_int_equal(
        uvm_handler_advise(x->h, ALLOC_BASE, 0x10001, UVM_ADVISE_READ_MOSTLY, x->err, 256), -1);
    assert_non_null(strstr(x->err, "not inside one managed allocation"));
    assert_int_equal(uvm_handler_advise(x->h, ALLOC_BASE, 0, UVM_ADVISE_READ_MOSTLY, x->err, 256),
                     -1);
    assert_int_equal(
        uvm_handler_advise(x->h, ALLOC_BASE, 0x10001, UVM_ADVISE_ACCESSED_BY, x->err, 256), -1);
    assert_non_null(strstr(x->err, "not inside one managed allocation"));
    assert_int_equal(uvm_handler_advise(x->h, ALLOC_BASE, PAGE, (uvm_advice_t)7, x->err, 256), -1);
    assert_non_null(strstr(x->err, "unknown advice 7"));
    fx_done(x);
    /* read duplication needs the 4k placement */
    x = fx_new();
    x->cfg.page_size = UVM_PSIZE_2M;
    x->cfg.gpu_data_pages = 1024;
    fx_start(x);
    assert_int_equal(
        uvm_handler_advise(x->h, ALLOC_BASE, PAGE, UVM_ADVISE_READ_MOSTLY, x->err, 256), -1);
    assert_non_null(strstr(x->err, "needs the 4k placement"));
    assert_non_null(strstr(x->err, "'2m'"));
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_fault_duplicates),
        cmocka_unit_test(test_gpu_write_collapses),
        cmocka_unit_test(test_cpu_access),
        cmocka_unit_test(test_prefetch_duplicates),
        cmocka_unit_test(test_free_forgets),
        cmocka_unit_test(test_prefer_eviction_order),
        cmocka_unit_test(test_prefetch_async),
        cmocka_unit_test(test_advise_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
