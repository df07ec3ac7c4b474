/*
 * test_handler_evict_nvidia.c - the "nvidia" eviction policy (docs/handler.md §6.1) against the
 * fake device: root chunks (scaled down: evict_chunk_pages = 4) evicted whole, FIFO by
 * allocation, never reordered by an access, the chunk's pages written back in VA order (a VA
 * block at a time), a partial last chunk, pinned chunks skipped, the key checked.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

#define BLOCK_PAGES 512u
#define NV_LOG 64u

typedef struct {
    uvm_event_t ev[NV_LOG];
    size_t n;
} nvlog_t;

static void record(void *ctx, const uvm_event_t *ev) {
    nvlog_t *l = ctx;
    assert_true(l->n < NV_LOG);
    l->ev[l->n++] = *ev;
}

/* a: block 0 (fx_start); b, c, d: 64 KB at the start of blocks 1, 2, 3 */
static fx_t *nv_start(const char *policy, uint64_t frames, uint32_t chunk) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = frames;
    x->cfg.evict_chunk_pages = chunk;
    set_policy(&x->cfg, UVM_POLICY_EVICT, policy);
    fx_start(x);
    static const char *const names[] = {"b", "c", "d"};
    for (uint64_t k = 1; k <= 3; k++)
        assert_int_equal(uvm_handler_add_alloc(x->h, names[k - 1], ALLOC_BASE + (k << 21), 0x10000,
                                               0, x->err, sizeof x->err),
                         0);
    return x;
}

static uint64_t blk(uint32_t k, uint32_t page) {
    return VPN0 + (uint64_t)k * BLOCK_PAGES + page;
}

/* Evictions since log index from: their VPNs in vpn[]; returns how many. */
static size_t evicted(const nvlog_t *l, size_t from, uint64_t *vpn) {
    size_t n = 0;
    for (size_t i = from; i < l->n; i++)
        if (l->ev[i].kind == UVM_EVENT_EVICT)
            vpn[n++] = l->ev[i].evict.vpn;
    return n;
}

static void expect_evicted(const nvlog_t *l, size_t from, const uint64_t *want, size_t n) {
    uint64_t got[NV_LOG];
    const size_t m = evicted(l, from, got);
    assert_int_equal(m, n);
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("eviction %zu: vpn 0x%llx, expected 0x%llx", i, (unsigned long long)got[i],
                     (unsigned long long)want[i]);
}

/* 8 frames in two root chunks of 4. a0 b0 a1 b1 fill chunk 0, a2 a3 b2 b3 chunk 1; an access to
 * a0 reorders nothing; c0 evicts chunk 0 whole, in VA order (a0 a1, then b0 b1: a VA block at a
 * time); c1..c3 find free frames; d0 evicts chunk 1 (the oldest allocation), not chunk 0;
 * after d1..d3, a0 evicts chunk 0 again (c0..c3). lru evicts a0 alone at c0. */
static void test_nvidia_root_chunk_fifo(void **state) {
    (void)state;
    fx_t *x = nv_start("nvidia", 8, 4);
    nvlog_t log = {0};
    assert_int_equal(uvm_handler_subscribe(
                         x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT) | UVM_EVENT_MASK(UVM_EVENT_RESIDENT),
                         record, &log),
                     0);
    const uint64_t fill[8] = {blk(0, 0), blk(1, 0), blk(0, 1), blk(1, 1),
                              blk(0, 2), blk(0, 3), blk(1, 2), blk(1, 3)};
    for (uint32_t i = 0; i < 8; i++) {
        fx_service_write(x, fill[i]);
        assert_int_equal(log.ev[log.n - 1].page.frame, i); /* the allocator: lowest first */
    }
    fx_service_write(x, blk(0, 0)); /* stale: an access */
    assert_int_equal(st(x)->faults_stale, 1);
    size_t from = log.n;
    fx_service_write(x, blk(2, 0));
    const uint64_t chunk0[4] = {blk(0, 0), blk(0, 1), blk(1, 0), blk(1, 1)};
    expect_evicted(&log, from, chunk0, 4);
    assert_true(log.ev[log.n - 1].page.frame < 4u);
    from = log.n;
    for (uint32_t p = 1; p < 4; p++)
        fx_service_write(x, blk(2, p));
    expect_evicted(&log, from, NULL, 0);
    fx_service_write(x, blk(3, 0));
    const uint64_t chunk1[4] = {blk(0, 2), blk(0, 3), blk(1, 2), blk(1, 3)};
    expect_evicted(&log, from, chunk1, 4);
    for (uint32_t p = 1; p < 4; p++)
        fx_service_write(x, blk(3, p));
    from = log.n;
    fx_service_write(x, blk(0, 0));
    const uint64_t again[4] = {blk(2, 0), blk(2, 1), blk(2, 2), blk(2, 3)};
    expect_evicted(&log, from, again, 4);
    for (uint32_t i = 0; i < 4; i++)
        assert_int_equal(walk(&x->fk, again[i], NULL), 0); /* unmapped */
    assert_int_equal(st(x)->evictions, 12);
    assert_int_equal(st(x)->pages_d2h, 12); /* every page of a chunk written back */
    fx_done(x);

    x = nv_start("lru", 8, 4);
    for (uint32_t i = 0; i < 8; i++)
        fx_service_write(x, fill[i]);
    fx_service_write(x, blk(2, 0));
    assert_int_equal(st(x)->evictions, 1);
    fx_done(x);
}

/* 6 frames: chunk 1 is frames 4..5 (partial). a0..a5 fill; a6 evicts chunk 0 (a0..a3) and
 * a7..a9 reuse it; a10 evicts the partial chunk 1 (a4, a5). */
static void test_nvidia_partial_chunk(void **state) {
    (void)state;
    fx_t *x = nv_start("nvidia", 6, 4);
    nvlog_t log = {0};
    assert_int_equal(uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT), record, &log), 0);
    for (uint32_t p = 0; p < 10; p++)
        fx_service_write(x, blk(0, p));
    const uint64_t c0[4] = {blk(0, 0), blk(0, 1), blk(0, 2), blk(0, 3)};
    expect_evicted(&log, 0, c0, 4);
    fx_service_write(x, blk(0, 10));
    const uint64_t c1[2] = {blk(0, 4), blk(0, 5)};
    expect_evicted(&log, 4, c1, 2);
    fx_done(x);
}

/* pick: a chunk holding a pinned page is skipped; a group larger than the chunk is aligned. */
static void test_nvidia_pick_skips_pinned(void **state) {
    (void)state;
    fx_t *x = nv_start("nvidia", 8, 4);
    for (uint32_t p = 0; p < 8; p++)
        fx_service_write(x, blk(0, p));
    x->h->block_gen++; /* nothing pinned */
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 0);
    x->h->frames[2].pin_block = x->h->block_gen; /* a page of chunk 0 pinned */
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), 4);
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 8), UVM_NONE);
    x->h->frames[2].pin_block = x->h->block_gen - 1u;
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 8), 0);
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 3), UVM_NONE); /* not 2^k */
    assert_true(x->h->evict->root_chunks);
    fx_done(x);
}

static void test_nvidia_chunk_key(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.evict_chunk_pages = 3;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_string_equal(x->err, "uvm: evict_chunk_pages 3 must be a power of two in [1, 512]");
    x->cfg.evict_chunk_pages = 1024;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvidia_root_chunk_fifo),
        cmocka_unit_test(test_nvidia_partial_chunk),
        cmocka_unit_test(test_nvidia_pick_skips_pinned),
        cmocka_unit_test(test_nvidia_chunk_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
