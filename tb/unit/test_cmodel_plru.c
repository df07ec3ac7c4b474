/* test_cmodel_plru.c - tree PLRU of docs/microarch.md §1.1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "plru.h"

static void test_one_way(void **state) {
    (void)state;
    uint8_t b[1] = {0};
    assert_int_equal(plru_victim(b, 1), 0);
    plru_touch(b, 1, 0); /* no bits: must not write */
    assert_int_equal(b[0], 0);
    assert_int_equal(plru_victim(b, 1), 0);
}

static void test_two_way(void **state) {
    (void)state;
    uint8_t b[1] = {0};
    assert_int_equal(plru_victim(b, 2), 0);
    plru_touch(b, 2, 0);
    assert_int_equal(b[0], 1);
    assert_int_equal(plru_victim(b, 2), 1);
    plru_touch(b, 2, 1);
    assert_int_equal(b[0], 0);
    assert_int_equal(plru_victim(b, 2), 0);
}

static void test_four_way_sequence(void **state) {
    (void)state;
    uint8_t b[3] = {0, 0, 0};
    assert_int_equal(plru_victim(b, 4), 0);
    plru_touch(b, 4, 0); /* root -> 1, node1 -> 1 */
    assert_memory_equal(b, ((uint8_t[]){1, 1, 0}), 3);
    assert_int_equal(plru_victim(b, 4), 2);
    plru_touch(b, 4, 2); /* root -> 0, node2 -> 1 */
    assert_memory_equal(b, ((uint8_t[]){0, 1, 1}), 3);
    assert_int_equal(plru_victim(b, 4), 1);
    plru_touch(b, 4, 1); /* root -> 1, node1 -> 0 */
    assert_memory_equal(b, ((uint8_t[]){1, 0, 1}), 3);
    assert_int_equal(plru_victim(b, 4), 3);
    plru_touch(b, 4, 3); /* root -> 0, node2 -> 0 */
    assert_memory_equal(b, ((uint8_t[]){0, 0, 0}), 3);
    assert_int_equal(plru_victim(b, 4), 0);
}

static void test_eight_way_fill_order(void **state) {
    (void)state;
    /* filling victim after victim from reset visits 0,4,2,6,1,5,3,7 */
    uint8_t b[7];
    memset(b, 0, sizeof(b));
    const uint32_t expect[8] = {0, 4, 2, 6, 1, 5, 3, 7};
    for (int i = 0; i < 8; i++) {
        const uint32_t v = plru_victim(b, 8);
        assert_int_equal(v, expect[i]);
        plru_touch(b, 8, v);
    }
    assert_int_equal(plru_victim(b, 8), 0);
    /* touching way 5 sets root 0 (right subtree), node 2 -> 1 (left of node 2), node 5 -> 0 */
    memset(b, 0, sizeof(b));
    plru_touch(b, 8, 5);
    assert_memory_equal(b, ((uint8_t[]){0, 0, 1, 0, 0, 0, 0}), 7);
    plru_touch(b, 8, 0);
    assert_memory_equal(b, ((uint8_t[]){1, 1, 1, 1, 0, 0, 0}), 7);
    assert_int_equal(plru_victim(b, 8), 6);
}

static void test_touch_points_away_16(void **state) {
    (void)state;
    uint8_t b[15];
    for (uint32_t w = 0; w < 16; w++) {
        /* from any state, right after touch(w) the victim lies in the other half of the tree
         * and, from reset, is the mirror of w's root half: (w < 8) ? 8 : 0 */
        memset(b, 0, sizeof(b));
        plru_touch(b, 16, w);
        assert_int_equal(plru_victim(b, 16), w < 8 ? 8 : 0);
        memset(b, 1, sizeof(b));
        plru_touch(b, 16, w);
        assert_int_equal(plru_victim(b, 16) < 8, !(w < 8));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_way),
        cmocka_unit_test(test_two_way),
        cmocka_unit_test(test_four_way_sequence),
        cmocka_unit_test(test_eight_way_fill_order),
        cmocka_unit_test(test_touch_points_away_16),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
