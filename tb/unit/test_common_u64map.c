/*
 * test_common_u64map.c - cmocka tests of the hash map (common/u64map.c): get/put/replace, growth,
 * backward-shift deletion against a reference array under random operations, iteration, every key
 * value allowed (0 and UINT64_MAX), init with an expected size, clear.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rng.h"
#include "u64map.h"

static void test_put_get_replace(void **state) {
    (void)state;
    u64map_t m;
    assert_int_equal(u64map_init(&m, 0), 0);
    assert_int_equal(m.cap, 0);
    uint64_t v = 5;
    assert_int_equal(u64map_get(&m, 1, &v), 0);
    assert_int_equal(u64map_del(&m, 1), 0);
    assert_int_equal(v, 5);
    assert_int_equal(u64map_put(&m, 0, 10), 0);
    assert_int_equal(u64map_put(&m, UINT64_MAX, 20), 0);
    assert_int_equal(u64map_put(&m, 0, 11), 0); /* replace */
    assert_int_equal(m.count, 2);
    assert_int_equal(u64map_get(&m, 0, &v), 1);
    assert_int_equal(v, 11);
    assert_int_equal(u64map_get(&m, UINT64_MAX, NULL), 1);
    assert_int_equal(u64map_get(&m, 2, NULL), 0);
    u64map_clear(&m);
    assert_int_equal(m.count, 0);
    assert_int_equal(u64map_get(&m, 0, NULL), 0);
    u64map_free(&m);
    u64map_free(&m); /* twice is harmless */
}

static void test_grow_and_expected(void **state) {
    (void)state;
    u64map_t m;
    assert_int_equal(u64map_init(&m, 1000), 0);
    const size_t cap0 = m.cap;
    assert_true(cap0 >= 2000 && (cap0 & (cap0 - 1)) == 0);
    for (uint64_t k = 0; k < 1000; k++)
        assert_int_equal(u64map_put(&m, k * 4096, k), 0);
    assert_int_equal(m.cap, cap0); /* no growth up to the expected size */
    for (uint64_t k = 1000; k < 5000; k++)
        assert_int_equal(u64map_put(&m, k * 4096, k), 0);
    assert_true(m.cap >= 10000);
    for (uint64_t k = 0; k < 5000; k++) {
        uint64_t v = 0;
        assert_int_equal(u64map_get(&m, k * 4096, &v), 1);
        assert_true(v == k);
    }
    u64map_free(&m);
}

/* Random puts and deletes over a small key space (long probe chains that wrap around the table)
 * against a plain array. */
static void test_delete_random(void **state) {
    (void)state;
    enum { KEYS = 300, OPS = 200000 };
    uint64_t ref[KEYS];
    int present[KEYS];
    memset(present, 0, sizeof(present));
    u64map_t m;
    assert_int_equal(u64map_init(&m, 0), 0);
    rng_t r;
    rng_seed(&r, 3, 0x75363461ull);
    size_t count = 0;
    for (int op = 0; op < OPS; op++) {
        const uint64_t k = rng_below(&r, KEYS);
        const uint64_t key = k * 0x100000001ull; /* spread keys, some colliding homes */
        if (rng_below(&r, 3) == 0) {
            assert_int_equal(u64map_del(&m, key), present[k]);
            count -= (size_t)present[k];
            present[k] = 0;
        } else {
            const uint64_t v = rng_next(&r);
            assert_int_equal(u64map_put(&m, key, v), 0);
            count += (size_t)!present[k];
            present[k] = 1;
            ref[k] = v;
        }
        if (op % 997 == 0) {
            for (uint64_t j = 0; j < KEYS; j++) {
                uint64_t v = 0;
                assert_int_equal(u64map_get(&m, j * 0x100000001ull, &v), present[j]);
                if (present[j])
                    assert_true(v == ref[j]);
            }
        }
        assert_int_equal(m.count, count);
    }
    u64map_free(&m);
}

static void test_iteration(void **state) {
    (void)state;
    u64map_t m;
    assert_int_equal(u64map_init(&m, 4), 0);
    size_t pos = 0;
    assert_int_equal(u64map_next(&m, &pos, NULL, NULL), 0);
    for (uint64_t k = 1; k <= 100; k++)
        assert_int_equal(u64map_put(&m, k, k * k), 0);
    for (uint64_t k = 1; k <= 100; k += 2)
        assert_int_equal(u64map_del(&m, k), 1);
    int seen[101];
    memset(seen, 0, sizeof(seen));
    uint64_t key = 0, val = 0;
    size_t n = 0;
    pos = 0;
    while (u64map_next(&m, &pos, &key, &val)) {
        assert_true(key >= 1 && key <= 100 && key % 2 == 0);
        assert_true(val == key * key);
        assert_int_equal(seen[key], 0);
        seen[key] = 1;
        n++;
    }
    assert_int_equal(n, 50);
    assert_int_equal(u64map_next(&m, &pos, &key, &val), 0); /* stays at the end */
    u64map_free(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_put_get_replace),
        cmocka_unit_test(test_grow_and_expected),
        cmocka_unit_test(test_delete_random),
        cmocka_unit_test(test_iteration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
