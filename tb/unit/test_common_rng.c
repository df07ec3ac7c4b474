/*
 * test_common_rng.c - cmocka tests of the PRNGs and hashes (common/rng.h). The expected values
 * pin every sequence bit for bit: statistics, generated traces and test seeds depend on them.
 * splitmix64 from state 0 and xorshift64 from state 1 are the published reference values; the
 * others were taken from the implementations this header replaced (cosim/rng.h,
 * tools/workloads/gen.h, the handler's xorshift64) before the move.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rng.h"

static void test_mix_and_hash(void **state) {
    (void)state;
    assert_true(rng_mix64(42) == 0xbdd732262feb6e95ull);
    assert_true(rng_hash2(0xbad0f4a3e5ull, 12345) == 0xe93d35b1fb70164bull);
}

static void test_xoshiro(void **state) {
    (void)state;
    static const uint64_t want[] = {0xc07281234388a842ull, 0x84614795c21a37aaull,
                                    0x6d0fede5223fc8b7ull, 0x7643ecf34423c395ull};
    rng_t r;
    rng_seed(&r, 1, 0x6d656d6a6974ull);
    for (size_t i = 0; i < 4; i++)
        assert_true(rng_next(&r) == want[i]);
    rng_seed(&r, 1, 0x6d656d6a6974ull);
    for (int i = 0; i < 1000; i++)
        assert_true(rng_below(&r, 7) < 7);
    assert_true(rng_below(&r, 0) == 0);
}

static void test_splitmix(void **state) {
    (void)state;
    rng_sm_t r = {0};
    assert_true(rng_sm_next(&r) == 0xe220a8397b1dcdafull);
    assert_true(rng_sm_next(&r) == 0x6e789e6aa1b965f4ull);
    assert_true(rng_sm_next(&r) == 0x06c45d188009454full);
    rng_sm_t s = {7};
    assert_true(rng_sm_next(&s) == 0x63cbe1e459320dd7ull);
    assert_true(rng_sm_next(&s) == 0x044c3cd7f43c661cull);
    /* rng_mix64 is the splitmix64 output of one state */
    assert_true(rng_mix64(0) == 0xe220a8397b1dcdafull);
    assert_true(rng_sm_below(&s, 0) == 0);
    assert_true(rng_sm_below(&s, 3) < 3);
}

static void test_xorshift(void **state) {
    (void)state;
    uint64_t s = 1;
    assert_true(rng_xorshift64(&s) == 1082269761ull);
    assert_true(s == 1082269761ull);
    s = RNG_GOLDEN ^ 5;
    assert_true(rng_xorshift64(&s) == 0xdc1b77af4979ece8ull);
    assert_true(rng_xorshift64(&s) == 0x34f1aba73e6f2531ull);
    assert_true(rng_xorshift64(&s) == 0x8c62580b210a973bull);
}

static void test_unit(void **state) {
    (void)state;
    assert_true(rng_unit(0) == 0.0);
    assert_true(rng_unit(UINT64_MAX) < 1.0);
    assert_true(rng_unit(1ull << 63) == 0.5);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mix_and_hash), cmocka_unit_test(test_xoshiro),
        cmocka_unit_test(test_splitmix),     cmocka_unit_test(test_xorshift),
        cmocka_unit_test(test_unit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
