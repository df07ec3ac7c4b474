/*
 * test_common_num.c - cmocka tests of the number parser (common/num.c): decimal or 0x hex, never
 * octal, no sign, no blanks; overflow reported apart from syntax.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "num.h"

static void test_accepts(void **state) {
    (void)state;
    uint64_t v = 7;
    assert_int_equal(num_parse_u64("0", &v), NUM_OK);
    assert_int_equal(v, 0);
    assert_int_equal(num_parse_u64("010", &v), NUM_OK); /* decimal, never octal */
    assert_int_equal(v, 10);
    assert_int_equal(num_parse_u64("4096", &v), NUM_OK);
    assert_int_equal(v, 4096);
    assert_int_equal(num_parse_u64("0X1f", &v), NUM_OK);
    assert_int_equal(v, 31);
    assert_int_equal(num_parse_u64("0xDeadBeef", &v), NUM_OK);
    assert_true(v == 0xdeadbeefull);
    assert_int_equal(num_parse_u64("18446744073709551615", &v), NUM_OK);
    assert_true(v == UINT64_MAX);
    assert_int_equal(num_parse_u64("0xffffffffffffffff", &v), NUM_OK);
    assert_true(v == UINT64_MAX);
    assert_int_equal(num_parse_u64("0x0000000000000000001", &v), NUM_OK); /* leading zeros */
    assert_int_equal(v, 1);
}

static void test_rejects(void **state) {
    (void)state;
    uint64_t v = 7;
    assert_int_equal(num_parse_u64("18446744073709551616", &v), NUM_ERANGE);
    assert_int_equal(num_parse_u64("99999999999999999999", &v), NUM_ERANGE);
    assert_int_equal(num_parse_u64("0x10000000000000000", &v), NUM_ERANGE);
    const char *bad[] = {"",    "0x",  "-1",  "+1",   " 5",  "5 ",
                         "1e3", "0xg", "12a", "0o17", "0b1", "x10"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_int_equal(num_parse_u64(bad[i], &v), NUM_ESYNTAX);
    assert_int_equal(num_parse_u64(NULL, &v), NUM_ESYNTAX);
    assert_int_equal(num_parse_u64("5", NULL), NUM_ESYNTAX);
    assert_int_equal(v, 7); /* untouched on every error */
}

static void test_strerror(void **state) {
    (void)state;
    assert_string_equal(num_strerror(NUM_ESYNTAX), "not a decimal or 0x hex number");
    assert_string_equal(num_strerror(NUM_ERANGE), "above 2^64-1");
    assert_string_equal(num_strerror(NUM_OK), "ok");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepts),
        cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_strerror),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
