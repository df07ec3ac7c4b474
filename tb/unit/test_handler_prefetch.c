/*
 * test_handler_prefetch.c - the prefetch policies (sw-handler/uvm_prefetch.c): exactly which
 * pages each one chooses for given resident and faulted pages (nvidia's 51% bitmap tree with
 * 64 KB growth, UVMSmart's tbn, seq_local and random_local), and the service around them:
 * growth, one DMA per contiguous run, the prefetch statistics.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"
#include "rng.h"

/* Blocks of the test layout (fx_start's "a" is 1 MB at ALLOC_BASE, block B0 pages 0..255):
 * B1 = a whole 2 MB allocation "b"; B2 holds "c", pages [5, 40) only. */
#define B0 (VPN0 >> 9)
#define B1 (B0 + 1u)
#define B2 (B0 + 2u)

static fx_t *layout(void) {
    fx_t *x = fx_new();
    fx_start(x);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "b", (B1 << 21), 2u << 20, 0, x->err, sizeof x->err), 0);
    assert_int_equal(uvm_handler_add_alloc(x->h, "c", (B2 << 21) + 5 * PAGE, 35 * PAGE, 0, x->err,
                                           sizeof x->err),
                     0);
    return x;
}

typedef struct {
    uvm_va_block_t blk;
    uint64_t faulted[UVM_BLOCK_WORDS];
    uint64_t managed[UVM_BLOCK_WORDS];
    uint64_t hint[UVM_BLOCK_WORDS];
} pf_case_t;

static void set_range(uint64_t *bm, uint32_t a, uint32_t b) {
    for (uint32_t i = a; i < b; i++)
        uvm_bitmap_set(bm, i);
}

static pf_case_t *new_case(const fx_t *x, uint64_t blk_id) {
    pf_case_t *k = calloc(1, sizeof *k);
    assert_non_null(k);
    k->blk.id = blk_id;
    for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++)
        if (uvm_find_alloc(x->h, (blk_id << 9) + p))
            uvm_bitmap_set(k->managed, p);
    return k;
}

/* Runs policy name on the case (faulted pages also in blk.faulted, as the service does). */
static void run(fx_t *x, pf_case_t *k, const char *name, void *priv) {
    const uvm_prefetch_ops_t *ops = uvm_policy_find(UVM_POLICY_PREFETCH, name);
    assert_non_null(ops);
    memcpy(k->blk.faulted, k->faulted, sizeof k->faulted);
    const uvm_prefetch_ctx_t c = {&k->blk, k->faulted, k->managed, 0, 1, 0, 0, priv};
    memset(k->hint, 0, sizeof k->hint);
    ops->hint(x->h, &c, k->hint);
}

/* The hint equals the ranges [r[2i], r[2i+1]) minus the pages in except[]. */
static void expect(const pf_case_t *k, const uint32_t *r, size_t nr, const uint32_t *except,
                   size_t ne) {
    uint64_t want[UVM_BLOCK_WORDS] = {0};
    for (size_t i = 0; i + 1 < nr; i += 2)
        set_range(want, r[i], r[i + 1]);
    for (size_t i = 0; i < ne; i++)
        uvm_bitmap_clear(want, except[i]);
    for (uint32_t p = 0; p < UVM_BLOCK_PAGES; p++)
        if (uvm_bitmap_test(want, p) != uvm_bitmap_test(k->hint, p))
            fail_msg("page %u: expected %s in the hint", p, uvm_bitmap_test(want, p) ? "" : "not");
}

#define EXPECT(k, ranges, except)                                                                  \
    expect((k), (ranges), sizeof(ranges) / sizeof((ranges)[0]), (except),                          \
           sizeof(except) / sizeof((except)[0]))

/* ------------------------------------------------------------------------------------------ */
/* nvidia                                                                                      */

/* An isolated fault grows to its 64 KB big page and no further: [0,32) holds 16/32 = 50%. */
static void test_nvidia_isolated_fault_is_big_page(void **state) {
    (void)state;
    fx_t *x = layout();
    pf_case_t *k = new_case(x, B1);
    uvm_bitmap_set(k->faulted, 5);
    run(x, k, "nvidia", NULL);
    const uint32_t r[] = {0, 16}, ex[] = {5};
    EXPECT(k, r, ex);
    free(k);
    fx_done(x);
}

/* Bottom-up: the largest subtree above the fault with more than 51% resident or faulted. */
static void test_nvidia_tree_levels(void **state) {
    (void)state;
    fx_t *x = layout();
    pf_case_t *k = new_case(x, B1);
    /* 0..15 resident, fault 20: [0,32) full; [0,64) 32/64 = 50% is not > 51% */
    set_range(k->blk.resident, 0, 16);
    uvm_bitmap_set(k->faulted, 20);
    run(x, k, "nvidia", NULL);
    const uint32_t r1[] = {16, 32}, ex1[] = {20};
    EXPECT(k, r1, ex1);
    /* 0..31 resident, fault 40: [0,64) holds 48 (75%), [0,128) 48 (37.5%) */
    set_range(k->blk.resident, 16, 32);
    memset(k->faulted, 0, sizeof k->faulted);
    uvm_bitmap_set(k->faulted, 40);
    run(x, k, "nvidia", NULL);
    const uint32_t r2[] = {32, 64}, ex2[] = {40};
    EXPECT(k, r2, ex2);
    /* 0..299 resident, fault 300: 320 of 512 (62.5%): the whole block */
    set_range(k->blk.resident, 0, 300);
    memset(k->faulted, 0, sizeof k->faulted);
    uvm_bitmap_set(k->faulted, 300);
    run(x, k, "nvidia", NULL);
    const uint32_t r3[] = {301, 512}, ex3[] = {300};
    EXPECT(k, r3, ex3);
    free(k);
    fx_done(x);
}

/* The threshold is 51, not 50: 65 of 128 (50.8%) does not fill the subtree, 66 (51.6%) does. */
static void test_nvidia_threshold_51(void **state) {
    (void)state;
    fx_t *x = layout();
    pf_case_t *k = new_case(x, B1);
    set_range(k->blk.resident, 0, 49); /* 49 + the big page 64..79 = 65 in [0,128) */
    uvm_bitmap_set(k->faulted, 64);
    run(x, k, "nvidia", NULL);
    const uint32_t r1[] = {64, 80}, ex1[] = {64};
    EXPECT(k, r1, ex1);
    uvm_bitmap_set(k->blk.resident, 49); /* 66 */
    run(x, k, "nvidia", NULL);
    const uint32_t r2[] = {50, 128}, ex2[] = {64};
    EXPECT(k, r2, ex2);
    free(k);
    fx_done(x);
}

/* Several faults of one batch: each one's region on the same tree (not updated in between). */
static void test_nvidia_several_faults(void **state) {
    (void)state;
    fx_t *x = layout();
    pf_case_t *k = new_case(x, B1);
    uvm_bitmap_set(k->faulted, 0);
    uvm_bitmap_set(k->faulted, 40);
    run(x, k, "nvidia", NULL); /* two big pages, [0,64) holds 32 = 50% */
    const uint32_t r1[] = {0, 16, 32, 48}, ex1[] = {0, 40};
    EXPECT(k, r1, ex1);
    uvm_bitmap_set(k->faulted, 16); /* 48 of [0,64) */
    run(x, k, "nvidia", NULL);
    const uint32_t r2[] = {0, 64}, ex2[] = {0, 16, 40};
    EXPECT(k, r2, ex2);
    free(k);
    fx_done(x);
}

/* The tree covers the allocation's part of the block only: "a" is 256 pages. */
static void test_nvidia_allocation_bounds(void **state) {
    (void)state;
    fx_t *x = layout();
    pf_case_t *k = new_case(x, B0);
    set_range(k->blk.resident, 0, 128);
    uvm_bitmap_set(k->faulted, 130); /* 144 of 256 = 56% */
    run(x, k, "nvidia", NULL);
    const uint32_t r1[] = {128, 256}, ex1[] = {130};
    EXPECT(k, r1, ex1);
    free(k);
    /* "c" = pages [5,40) of B2: the tree is anchored at page 0 (big-page aligned leaves), the
     * fault at 7 grows to the prefix [5,16), [0,16) holds 11/16: filled, clamped to [5,16) */
    k = new_case(x, B2);
    uvm_bitmap_set(k->faulted, 7);
    run(x, k, "nvidia", NULL);
    const uint32_t r2[] = {5, 16}, ex2[] = {7};
    EXPECT(k, r2, ex2);
    /* fault at 35 grows to the suffix [32,40); with [5,32) resident the whole region */
    set_range(k->blk.resident, 5, 32);
    memset(k->faulted, 0, sizeof k->faulted);
    uvm_bitmap_set(k->faulted, 35);
    run(x, k, "nvidia", NULL);
    const uint32_t r3[] = {32, 40}, ex3[] = {35};
    EXPECT(k, r3, ex3);
    free(k);
    fx_done(x);
}

/* ------------------------------------------------------------------------------------------ */
/* UVMSmart                                                                                    */

static void test_tbn(void **state) {
    (void)state;
    fx_t *x = layout();
    pf_case_t *k = new_case(x, B1);
    /* an isolated fault: its 64 KB leaf; [0,32) would be 16/32, not more than half */
    uvm_bitmap_set(k->faulted, 5);
    run(x, k, "tbn", NULL);
    const uint32_t r1[] = {0, 16}, ex1[] = {5};
    EXPECT(k, r1, ex1);
    /* leaves 0 and 2 valid, fault in leaf 1: [0,64) has 48 > 32: filled; [0,128) 64, not > 64 */
    memset(k->faulted, 0, sizeof k->faulted);
    set_range(k->blk.resident, 0, 16);
    set_range(k->blk.resident, 32, 48);
    uvm_bitmap_set(k->faulted, 20);
    run(x, k, "tbn", NULL);
    const uint32_t r2[] = {16, 32, 48, 64}, ex2[] = {20};
    EXPECT(k, r2, ex2);
    free(k);
    /* fault by fault: 0, 16, 48 -> after 48, [0,64) has 48 valid > 32: filled */
    k = new_case(x, B1);
    uvm_bitmap_set(k->faulted, 0);
    uvm_bitmap_set(k->faulted, 48);
    run(x, k, "tbn", NULL);
    const uint32_t r3[] = {0, 16, 48, 64}, ex3[] = {0, 48};
    EXPECT(k, r3, ex3);
    uvm_bitmap_set(k->faulted, 16);
    run(x, k, "tbn", NULL);
    const uint32_t r4[] = {0, 64}, ex4[] = {0, 16, 48};
    EXPECT(k, r4, ex4);
    free(k);
    /* the root of "a" (256 pages) is [0,256): with 0..127 valid a fault at 130 fills it */
    k = new_case(x, B0);
    set_range(k->blk.resident, 0, 128);
    uvm_bitmap_set(k->faulted, 130);
    run(x, k, "tbn", NULL);
    const uint32_t r5[] = {128, 256}, ex5[] = {130};
    EXPECT(k, r5, ex5);
    free(k);
    fx_done(x);
}

static void test_seq_local(void **state) {
    (void)state;
    fx_t *x = layout();
    pf_case_t *k = new_case(x, B1);
    uvm_bitmap_set(k->faulted, 5);
    uvm_bitmap_set(k->faulted, 40);
    uvm_bitmap_set(k->blk.resident, 33); /* resident pages are not hinted */
    run(x, k, "seq_local", NULL);
    const uint32_t r1[] = {0, 16, 32, 48}, ex1[] = {5, 40, 33};
    EXPECT(k, r1, ex1);
    free(k);
    k = new_case(x, B2); /* "c" = [5,40): the 64 KB block of 35 is [32,48), managed [32,40) */
    uvm_bitmap_set(k->faulted, 35);
    uvm_bitmap_set(k->faulted, 6);
    run(x, k, "seq_local", NULL);
    const uint32_t r2[] = {5, 16, 32, 40}, ex2[] = {35, 6};
    EXPECT(k, r2, ex2);
    free(k);
    fx_done(x);
}

/* One page per fault, uniform among managed non-resident non-faulted pages of the block, drawn
 * from an xoshiro256** seeded with cfg.seed: the same draws as a reference generator. */
static void test_random_local(void **state) {
    (void)state;
    fx_t *x = layout();
    void *priv = NULL;
    const uvm_prefetch_ops_t *ops = &uvm_prefetch_random_local_ops;
    assert_int_equal(ops->init(x->h, &priv), 0);
    pf_case_t *k = new_case(x, B2); /* candidates: [5,40) minus resident and faulted */
    set_range(k->blk.resident, 10, 30);
    uvm_bitmap_set(k->faulted, 6);
    uvm_bitmap_set(k->faulted, 35);
    run(x, k, "random_local", priv);
    rng_t ref;
    rng_seed(&ref, x->h->cfg.seed, 0x7066726e64ull);
    uint32_t cand[64] = {0}, n = 0;
    for (uint32_t p = 5; p < 40; p++)
        if ((p < 10 || p >= 30) && p != 6 && p != 35)
            cand[n++] = p;
    assert_int_equal(n, 13);
    uint32_t picks[2];
    for (int i = 0; i < 2; i++) {
        const uint32_t r = (uint32_t)(rng_next(&ref) % n);
        picks[i] = cand[r];
        memmove(&cand[r], &cand[r + 1], (n - r - 1) * sizeof cand[0]);
        n--;
    }
    assert_int_not_equal(picks[0], picks[1]);
    const uint32_t r[] = {picks[0], picks[0] + 1, picks[1], picks[1] + 1};
    const uint32_t none[] = {0};
    expect(k, r, 4, none, 0);
    /* fewer candidates than faults: every candidate, nothing else */
    set_range(k->blk.resident, 5, 40);
    uvm_bitmap_clear(k->blk.resident, 7);
    run(x, k, "random_local", priv);
    const uint32_t r2[] = {7, 8};
    expect(k, r2, 2, none, 0);
    ops->fini(priv);
    free(k);
    fx_done(x);
}

/* ------------------------------------------------------------------------------------------ */
/* the service                                                                                 */

/* nvidia with multi-page DMA: an isolated fault moves its 64 KB big page as ONE transfer. */
static void test_service_nvidia_isolated_fault_moves_64k(void **state) {
    (void)state;
    fx_t *x = fx_new();
    set_policy(&x->cfg, UVM_POLICY_PREFETCH, "nvidia");
    x->cfg.migrate_max_pages = UVM_BLOCK_PAGES;
    fx_start(x);
    fake_t *f = &x->fk;
    f->max_dma_bytes = 64 * 1024;
    for (uint32_t i = 0; i < 32; i++)
        f->host_tag[i] = 500 + i;
    fk_post(f, VPN0 + 21, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(f->ndma, 1);
    assert_int_equal(f->dma[0].src, ALLOC_BASE + 16 * PAGE);
    assert_int_equal(f->dma[0].bytes, 64 * 1024);
    assert_int_equal(st(x)->pages_h2d, 16);
    assert_int_equal(st(x)->bytes_h2d, 64 * 1024);
    assert_int_equal(st(x)->pages_prefetched, 15);
    assert_int_equal(st(x)->bytes_prefetched, 15 * PAGE);
    for (uint32_t p = 16; p < 32; p++) {
        const uint64_t leaf = walk(f, VPN0 + p, NULL);
        assert_true(leaf & PTE_V_BIT);
        assert_int_equal(f->frame_tag[((leaf & PPN_MASK) - DATA_BASE) / PAGE], 500 + p);
    }
    assert_int_equal(walk(f, VPN0 + 15, NULL), 0);
    assert_int_equal(walk(f, VPN0 + 32, NULL), 0);
    /* a fault in the next big page: [0,64) holds 32 = 50%, not more than 51%: 32..47 only */
    fk_post(f, VPN0 + 40, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->pages_h2d, 32);
    assert_int_equal(f->ndma, 2);
    /* then one at 5: [0,64) holds 48 (75%): 0..15 and 48..63, two runs, two transfers */
    fk_post(f, VPN0 + 5, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->pages_h2d, 64);
    assert_int_equal(st(x)->pages_prefetched, 15 + 15 + 31);
    assert_int_equal(f->ndma, 4);
    assert_int_equal(f->dma[2].src, ALLOC_BASE);
    assert_int_equal(f->dma[2].bytes, 64 * 1024);
    assert_int_equal(f->dma[3].src, ALLOC_BASE + 48 * PAGE);
    fx_done(x);
}

/* Growth without a prefetcher (grow_pages = 16): the 64 KB big page inside the allocation; the
 * default (1) migrates the faulted page alone. Resident pages of the big page are skipped. */
static void test_service_grow(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.grow_pages = 16;
    x->cfg.migrate_max_pages = 16;
    fx_start(x);
    fake_t *f = &x->fk;
    f->max_dma_bytes = 64 * 1024;
    fk_post(f, VPN0 + 250, GMMU_AT_WRITE); /* "a" ends at page 255 */
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->pages_h2d, 16);
    assert_int_equal(f->ndma, 1);
    assert_int_equal(f->dma[0].src, ALLOC_BASE + 240 * PAGE);
    fk_post(f, VPN0 + 3, GMMU_AT_READ);
    fk_post(f, VPN0 + 245, GMMU_AT_READ); /* stale: no growth */
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->pages_h2d, 32);
    assert_int_equal(st(x)->pages_prefetched, 30);
    assert_int_equal(st(x)->faults_stale, 1);
    fx_done(x);
    /* bad values are refused */
    fx_t *y = fx_new();
    y->cfg.grow_pages = 8;
    assert_null(uvm_handler_new(&y->cfg, &y->dev, y->err, sizeof y->err));
    assert_non_null(strstr(y->err, "grow_pages 8"));
    free(y);
}

/* A set larger than GPU memory would evict its own pages: only the demand pages migrate. */
static void test_service_set_larger_than_memory(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 8;
    set_policy(&x->cfg, UVM_POLICY_PREFETCH, "nvidia");
    x->cfg.migrate_max_pages = 16;
    fx_start(x);
    fake_t *f = &x->fk;
    f->max_dma_bytes = 64 * 1024;
    fk_post(f, VPN0 + 3, GMMU_AT_READ);
    fk_post(f, VPN0 + 4, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->pages_h2d, 2);
    assert_int_equal(st(x)->pages_prefetched, 0);
    assert_int_equal(f->ndma, 1); /* pages 3 and 4 in consecutive frames: one run */
    assert_int_equal(f->dma[0].bytes, 2 * PAGE);
    assert_int_equal(st(x)->evictions, 0);
    fx_done(x);
}

/* Under the block replay policy only the faulted pages are replayed, not the prefetched ones;
 * a cancelled fault of the same block is not a demand page (nothing grows around it). */
static void test_service_block_replay_and_cancel(void **state) {
    (void)state;
    fx_t *x = fx_new();
    set_policy(&x->cfg, UVM_POLICY_PREFETCH, "nvidia");
    set_policy(&x->cfg, UVM_POLICY_REPLAY, "block");
    x->cfg.migrate_max_pages = UVM_BLOCK_PAGES;
    fx_start(x);
    fake_t *f = &x->fk;
    f->max_dma_bytes = 64 * 1024;
    fk_post(f, VPN0 + 21, GMMU_AT_READ);
    fk_post(f, VPN0 + 300, GMMU_AT_READ); /* outside "a": cancelled */
    uvm_handler_service(x->h);
    assert_int_equal(count_cmds(f, GMMU_CMD_REPLAY_PAGE), 1);
    assert_int_equal(count_cmds(f, GMMU_CMD_CANCEL_PAGE), 1);
    assert_int_equal(st(x)->pages_h2d, 16);
    assert_int_equal(st(x)->pages_prefetched, 15);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvidia_isolated_fault_is_big_page),
        cmocka_unit_test(test_nvidia_tree_levels),
        cmocka_unit_test(test_nvidia_threshold_51),
        cmocka_unit_test(test_nvidia_several_faults),
        cmocka_unit_test(test_nvidia_allocation_bounds),
        cmocka_unit_test(test_tbn),
        cmocka_unit_test(test_seq_local),
        cmocka_unit_test(test_random_local),
        cmocka_unit_test(test_service_nvidia_isolated_fault_moves_64k),
        cmocka_unit_test(test_service_grow),
        cmocka_unit_test(test_service_set_larger_than_memory),
        cmocka_unit_test(test_service_block_replay_and_cancel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
