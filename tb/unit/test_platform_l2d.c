/*
 * test_platform_l2d.c - cmocka tests of the L2 data cache (cosim/l2d.c): geometry checks, LRU
 * within a set worked out by hand, capacity, the PTE / data counters, the data-line keys, the
 * PTE read latency through gpumem_accept_lat, and its use by the SM front-ends (cosim/sm.c: only
 * the missed lines take HBM bandwidth).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gpumem.h"
#include "hbm.h"
#include "l2d.h"
#include "sm.h"
#include "test_mem_rec.h"

static void test_geometry(void **state) {
    (void)state;
    l2d_t c;
    char err[256] = "";
    assert_int_equal(l2d_init(&c, 0, 16, 128, err, sizeof(err)), 0); /* off */
    assert_false(l2d_on(&c));
    assert_null(c.tag);
    /* 3 KB is not a whole number of 16 x 128 B sets */
    assert_int_equal(l2d_init(&c, 3, 16, 128, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "l2d_kb = 3"));
    assert_int_equal(l2d_init(&c, 4, 16, 96, err, sizeof(err)), -1); /* line not a power of 2 */
    assert_non_null(strstr(err, "power-of-two"));
    assert_int_equal(l2d_init(&c, 4, 0, 128, err, sizeof(err)), -1);
    /* the H100's 50 MB, 16 ways, 128 B: 25600 sets (not a power of two: hashed index) */
    assert_int_equal(l2d_init(&c, 51200, 16, 128, err, sizeof(err)), 0);
    assert_true(l2d_on(&c));
    assert_int_equal(c.sets, 25600);
    assert_int_equal(c.line_shift, 7);
    l2d_free(&c);
    assert_false(l2d_on(&c));
}

/* One set of two 512 B ways (1 KB): LRU by hand. */
static void test_lru(void **state) {
    (void)state;
    l2d_t c;
    char err[256];
    assert_int_equal(l2d_init(&c, 1, 2, 512, err, sizeof(err)), 0);
    assert_int_equal(c.sets, 1);
    const uint64_t A = 0x10000, B = 0x20000, C = 0x30000;
    assert_int_equal(l2d_access(&c, A), 0);
    assert_int_equal(l2d_access(&c, A + 504), 1); /* same line */
    assert_int_equal(l2d_access(&c, A + 512), 0); /* next line: B's way is free still */
    assert_int_equal(l2d_access(&c, B), 0);       /* evicts A (A+512 was used later) */
    assert_int_equal(l2d_access(&c, A + 512), 1);
    assert_int_equal(l2d_access(&c, C), 0); /* evicts B, the least recently used */
    assert_int_equal(l2d_access(&c, A + 512), 1);
    assert_int_equal(l2d_access(&c, B), 0); /* evicts C */
    assert_int_equal(l2d_access(&c, C), 0); /* evicts A+512 */
    assert_int_equal(l2d_access(&c, B), 1);
    l2d_free(&c);
}

/* A fully associative cache of 16 lines: 16 lines in a loop hit from the second pass on, 17
 * lines in a loop always miss (LRU's cyclic pathology). */
static void test_capacity(void **state) {
    (void)state;
    l2d_t c;
    char err[256];
    assert_int_equal(l2d_init(&c, 2, 16, 128, err, sizeof(err)), 0);
    assert_int_equal(c.sets, 1);
    for (int pass = 0; pass < 3; pass++)
        for (uint64_t i = 0; i < 16; i++)
            assert_int_equal(l2d_pte(&c, 0x100000 + 128 * i), pass > 0);
    assert_int_equal(c.pte_hits, 32);
    assert_int_equal(c.pte_misses, 16);
    l2d_free(&c);
    assert_int_equal(l2d_init(&c, 2, 16, 128, err, sizeof(err)), 0);
    for (int pass = 0; pass < 3; pass++)
        for (uint64_t i = 0; i < 17; i++)
            assert_int_equal(l2d_pte(&c, 0x100000 + 128 * i), 0);
    assert_int_equal(c.pte_misses, 51);
    l2d_free(&c);
    /* many sets (hashed): a working set of a quarter of the capacity (4 lines per set on
     * average) hits on its second pass; at half the capacity some sets get more than 16 lines
     * (conflict misses of the hashed index), but few */
    assert_int_equal(l2d_init(&c, 1024, 16, 128, err, sizeof(err)), 0); /* 8192 lines */
    for (int pass = 0; pass < 2; pass++)
        for (uint64_t i = 0; i < 2048; i++)
            (void)l2d_pte(&c, 0x40000000ull + 128 * i);
    assert_int_equal(c.pte_misses, 2048);
    assert_int_equal(c.pte_hits, 2048);
    l2d_free(&c);
    assert_int_equal(l2d_init(&c, 1024, 16, 128, err, sizeof(err)), 0);
    for (int pass = 0; pass < 2; pass++)
        for (uint64_t i = 0; i < 4096; i++)
            (void)l2d_pte(&c, 0x40000000ull + 128 * i);
    assert_true(c.pte_misses >= 4096 && c.pte_misses < 4096 + 4096 / 20);
    assert_int_equal(c.pte_hits + c.pte_misses, 8192);
    l2d_free(&c);
}

static void test_data_lines(void **state) {
    (void)state;
    l2d_t c;
    char err[256];
    assert_int_equal(l2d_init(&c, 64, 16, 128, err, sizeof(err)), 0);
    uint64_t addr[TRACE_LANES], k0[TRACE_LANES], k1[TRACE_LANES];
    for (int i = 0; i < TRACE_LANES; i++)
        addr[i] = 0x10040ull + 8ull * (uint64_t)i; /* 256 B from mid-line: 3 lines */
    assert_int_equal(l2d_data_lines(&c, 0xffffffffu, addr, 0, k0), 3);
    assert_int_equal(k0[0], (1ull << 63) | 0x10000ull);
    assert_int_equal(k0[1], (1ull << 63) | 0x10080ull);
    assert_int_equal(l2d_data_lines(&c, 0x1u, addr, 0, k0), 1); /* inactive lanes do not count */
    assert_int_equal(l2d_data_lines(&c, 0, addr, 0, k0), 0);
    /* the same addresses in another address space are other lines */
    assert_int_equal(l2d_data_lines(&c, 0xffffffffu, addr, 0, k0), 3);
    assert_int_equal(l2d_data_lines(&c, 0xffffffffu, addr, 2, k1), 3);
    assert_int_equal(l2d_data(&c, k0, 3), 3);
    assert_int_equal(l2d_data(&c, k0, 3), 0);
    assert_int_equal(l2d_data(&c, k1, 3), 3);
    assert_int_equal(c.data_misses, 6);
    assert_int_equal(c.data_hits, 3);
    /* a data line never names a page-table line (bit 63) */
    assert_int_equal(l2d_pte(&c, 0x10000ull), 0);
    assert_int_equal(c.pte_misses, 1);
    l2d_free(&c);
}

/* gpumem_accept_lat: the request's own latency, the port's otherwise. */
static void test_pte_latency(void **state) {
    (void)state;
    gpumem_t g;
    assert_int_equal(gpumem_init(&g, 0x100000, 4, 0x1000000, 4, 200, 0, 1), 0);
    assert_int_equal(gpumem_write64(&g, 0x100008, 0xabc), 0);
    assert_int_equal(gpumem_accept_lat(&g, 100, 0x100008, 3, 10), 0); /* a hit */
    assert_int_equal(gpumem_accept(&g, 100, 0x100010, 4), 0);         /* mem_latency */
    assert_int_equal(gpumem_next_due(&g), 110);
    uint8_t id;
    uint64_t data;
    assert_int_equal(gpumem_pop_due(&g, 109, &id, &data), 0);
    assert_int_equal(gpumem_pop_due(&g, 110, &id, &data), 1);
    assert_int_equal(id, 3);
    assert_int_equal(data, 0xabc);
    assert_int_equal(gpumem_next_due(&g), 300);
    gpumem_free(&g);
}

static uint32_t answer(sm_t *sm, kern_t *k, uint64_t now) {
    uint8_t valid[8] = {0}, write[8], id[8];
    uint64_t vpn[8];
    const uint32_t n = sm_issue(sm, k, now, valid, vpn, write, id);
    for (uint32_t i = 0; i < n; i++) {
        sm_resp_t r;
        assert_int_equal(sm_response(sm, k, id[i], now, &r), 0);
    }
    return n;
}

/*
 * One line per cycle of HBM, the cache on. Warp (0,0): a 32-line load (gap 0), then the same 32
 * lines again (gap 10), then 2 new lines and 30 old (gap 0). Warp (1,0) on SM 1: the first load's
 * lines (gap 0), admitted after warp (0,0) at cycle 0.
 *   (0,0) at 0: 32 misses, 0..32; (1,0) at 0: all 32 hit (filled by (0,0)'s lookup): ready at 0
 *   (0,0)'s load answered at 40: gap to 50, every line hits: ready at 50
 *   answered at 60: 2 misses: 60..62
 */
static void test_sm_shared(void **state) {
    (void)state;
    kern_t k;
    kern_init(&k);
    hbm_init(&k.hbm, 128, 1000);
    l2d_t c;
    char err[256];
    assert_int_equal(l2d_init(&c, 64, 16, 128, err, sizeof(err)), 0);
    k.l2d = &c; /* before the records: kern_add stores their line keys */
    trace_rec_t r = test_mem_rec(0, 0, TRACE_OP_READ, 0, 0xffffffffu, 0x100000, 128);
    assert_int_equal(kern_add(&k, &r, 2), 0);
    r = test_mem_rec(1, 0, TRACE_OP_READ, 0, 0xffffffffu, 0x100000, 128);
    assert_int_equal(kern_add(&k, &r, 2), 0);
    r = test_mem_rec(0, 0, TRACE_OP_READ, 10, 0xffffffffu, 0x100000, 128);
    assert_int_equal(kern_add(&k, &r, 2), 0);
    r = test_mem_rec(0, 0, TRACE_OP_WRITE, 0, 0xffffffffu, 0x100100, 128);
    assert_int_equal(kern_add(&k, &r, 2), 0);
    assert_int_equal(k.warps[0].ins[0].lines, 32);
    assert_int_equal(k.warps[0].ins[0].npages, 1);
    assert_int_equal(k.warps[0].ins[2].npages, 2); /* 0x100100 + 31 x 128 crosses a page */
    sm_t sm[2];
    for (uint32_t s = 0; s < 2; s++) {
        assert_int_equal(sm_init(&sm[s], s, 4, 4), 0);
        assert_int_equal(sm_start_kernel(&sm[s], &k, 0), 0);
    }
    assert_int_equal(k.warps[0].ready_at, 32);
    assert_int_equal(k.warps[1].ready_at, 0);
    assert_int_equal(c.data_misses, 32);
    assert_int_equal(c.data_hits, 32);
    assert_int_equal(answer(&sm[1], &k, 0), 1);
    assert_true(sm_kernel_done(&sm[1], &k));
    assert_int_equal(answer(&sm[0], &k, 40), 1);
    assert_int_equal(k.warps[0].ready_at, 50);
    assert_int_equal(c.data_hits, 64);
    assert_int_equal(answer(&sm[0], &k, 60), 1);
    assert_int_equal(k.warps[0].ready_at, 62);
    assert_int_equal(c.data_misses, 34);
    assert_int_equal(c.data_hits, 94);
    assert_int_equal(answer(&sm[0], &k, 62), 2);
    assert_true(sm_kernel_done(&sm[0], &k));
    for (uint32_t s = 0; s < 2; s++)
        sm_free(&sm[s]);
    kern_free(&k);
    l2d_free(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry),    cmocka_unit_test(test_lru),
        cmocka_unit_test(test_capacity),    cmocka_unit_test(test_data_lines),
        cmocka_unit_test(test_pte_latency), cmocka_unit_test(test_sm_shared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
