/* test_cmodel_tlb_index.c - the index of a fully associative TLB array (tlb_fa.h, a speed-up of
 * the C model): an indexed array and a scanned one under the same random fills and flushes give
 * the same FA-1 (hit, lowest entry, match count) and FA-2 results at every step. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tlb_fa.h"

static uint64_t rnd(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void same(const tlb_fa_t *ix, const tlb_fa_t *sc, uint64_t tag) {
    for (int wr = 0; wr < 2; wr++) {
        uint32_t i1 = 7, i2 = 7;
        unsigned n1 = 9, n2 = 9;
        assert_int_equal(tlb_fa_lookup(ix, tag, wr, &i1, &n1),
                         tlb_fa_lookup(sc, tag, wr, &i2, &n2));
        assert_int_equal(i1, i2);
        assert_int_equal(n1, n2);
    }
    assert_int_equal(tlb_fa_fill_pick(ix, tag), tlb_fa_fill_pick(sc, tag));
}

static void run(uint32_t n, uint64_t seed, int steps) {
    tlb_fa_t ix, sc;
    assert_int_equal(tlb_fa_init(&ix, n), 0);
    assert_int_equal(tlb_fa_init(&sc, n), 0);
    assert_int_equal(tlb_fa_index(&ix), 0);
    assert_non_null(ix.ix_head); /* n >= TLB_FA_IX_MIN */
    assert_null(sc.ix_head);
    for (int step = 0; step < steps; step++) {
        const uint64_t tag = rnd(&seed) % (2u * n); /* repeats: hits and duplicate tags */
        const uint32_t r = (uint32_t)(rnd(&seed) % 100);
        if (r < 60) { /* FA-2 + FA-3 as the blocks do, or a fill at any entry (duplicates) */
            const uint32_t i = r < 45 ? tlb_fa_fill_pick(&sc, tag) : (uint32_t)(rnd(&seed) % n);
            const uint8_t w = (uint8_t)(rnd(&seed) & 1u);
            tlb_fa_fill(&ix, i, tag, w, tag * 3u);
            tlb_fa_fill(&sc, i, tag, w, tag * 3u);
            tlb_fa_touch(&ix, i);
            tlb_fa_touch(&sc, i);
        } else if (r < 66) { /* a selective flush (a page, or an address space in high bits) */
            const uint64_t mask = r < 63 ? ~UINT64_C(0) : ~UINT64_C(7);
            tlb_fa_flush(&ix, 0, tag, mask);
            tlb_fa_flush(&sc, 0, tag, mask);
        } else if (r == 66) {
            tlb_fa_flush(&ix, 1, 0, 0);
            tlb_fa_flush(&sc, 1, 0, 0);
        }
        assert_memory_equal(ix.valid, sc.valid, n);
        same(&ix, &sc, tag);
        same(&ix, &sc, rnd(&seed) % (2u * n));
    }
    tlb_fa_free(&ix);
    tlb_fa_free(&sc);
}

static void test_index_equals_scan(void **state) {
    (void)state;
    run(TLB_FA_IX_MIN, 0x1234567u, 20000);
    run(128, 0x9e3779b97f4a7c15ull, 20000);
    run(4096, 0xfeedfaceu, 3000);
}

static void test_small_no_index(void **state) {
    (void)state;
    tlb_fa_t a;
    assert_int_equal(tlb_fa_init(&a, TLB_FA_IX_MIN / 2u), 0);
    assert_int_equal(tlb_fa_index(&a), 0);
    assert_null(a.ix_head); /* small arrays keep the scan */
    tlb_fa_free(&a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_equals_scan),
        cmocka_unit_test(test_small_no_index),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
