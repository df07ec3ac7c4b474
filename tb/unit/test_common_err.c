/*
 * test_common_err.c - cmocka tests of the error-message helper (common/err.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "err.h"

static void wrap(char *err, size_t len, const char *fmt, ...) ERR_PRINTF(3, 4);
static void wrap(char *err, size_t len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    err_vsetf(err, len, fmt, ap);
    va_end(ap);
}

static void test_formats(void **state) {
    (void)state;
    char err[64] = "old";
    err_setf(err, sizeof(err), "%s:%u: field %d (%s): bad", "a.trc", 12u, 3, "mask");
    assert_string_equal(err, "a.trc:12: field 3 (mask): bad");
    wrap(err, sizeof(err), "%s = %llu", "x", 42ull);
    assert_string_equal(err, "x = 42");
}

static void test_truncates(void **state) {
    (void)state;
    char err[8];
    memset(err, 'z', sizeof(err));
    err_setf(err, 5, "%s", "abcdefgh");
    assert_string_equal(err, "abcd");
    assert_int_equal(err[5], 'z'); /* nothing written past errlen */
}

static void test_no_buffer(void **state) {
    (void)state;
    char err[4] = "abc";
    err_setf(NULL, 10, "x"); /* no crash */
    err_setf(err, 0, "xyz"); /* nothing written */
    assert_string_equal(err, "abc");
    wrap(NULL, 0, "%d", 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_truncates),
        cmocka_unit_test(test_no_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
