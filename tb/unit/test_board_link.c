/*
 * test_board_link.c - cmocka tests of the board's UARTBone client (host/board_link.c): the bytes
 * on the wire (LiteX's framing), write combining, fixed-address bursts, answer decoding, timeout
 * and error paths. The test plays the board on the master side of a pseudo-terminal.
 */
#define _XOPEN_SOURCE 600
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "board_link.h"

typedef struct {
    int master;
    blink_t *l;
} fix_t;

static int setup(void **state) {
    fix_t *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->master = posix_openpt(O_RDWR | O_NOCTTY);
    assert_true(f->master >= 0);
    assert_int_equal(grantpt(f->master), 0);
    assert_int_equal(unlockpt(f->master), 0);
    char err[256];
    f->l = blink_open(ptsname(f->master), 0, 200, err, sizeof err);
    assert_non_null(f->l);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fix_t *f = *state;
    blink_close(f->l);
    close(f->master);
    free(f);
    return 0;
}

/* exactly n bytes the host sent (the board's side of the line) */
static void expect_wire(const fix_t *f, const uint8_t *want, size_t n) {
    uint8_t got[1100];
    size_t have = 0;
    while (have < n) {
        struct pollfd p = {f->master, POLLIN, 0};
        assert_int_equal(poll(&p, 1, 1000), 1);
        const ssize_t r = read(f->master, got + have, n - have);
        assert_true(r > 0);
        have += (size_t)r;
    }
    assert_memory_equal(got, want, n);
    struct pollfd p = {f->master, POLLIN, 0};
    assert_int_equal(poll(&p, 1, 50), 0); /* nothing more */
}

static void test_posted_writes_combine(void **state) {
    fix_t *f = *state;
    assert_int_equal(blink_post(f->l, 0x100000, 0x11223344u), 0);
    assert_int_equal(blink_post(f->l, 0x100004, 0x55667788u), 0);
    assert_int_equal(blink_post(f->l, 0x100008, 0x99aabbccu), 0);
    assert_int_equal(blink_post(f->l, 0x14, 0xdeadbeefu), 0); /* not the next address: flush */
    const uint8_t first[] = {0x01, 3,    0x00, 0x04, 0x00, 0x00, 0x11, 0x22, 0x33,
                             0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc};
    expect_wire(f, first, sizeof first);
    assert_int_equal(blink_flush(f->l), 0);
    const uint8_t second[] = {0x01, 1, 0x00, 0x00, 0x00, 0x05, 0xde, 0xad, 0xbe, 0xef};
    expect_wire(f, second, sizeof second);
    assert_int_equal(blink_commands(f->l), 2);
}

static void test_long_burst_splits(void **state) {
    fix_t *f = *state;
    for (uint32_t i = 0; i < BLINK_MAX_BURST + 1; i++)
        assert_int_equal(blink_post(f->l, 4 * i, i), 0);
    assert_int_equal(blink_flush(f->l), 0);
    uint8_t want[6 + 4 * BLINK_MAX_BURST + 10];
    const uint8_t h1[] = {0x01, (uint8_t)BLINK_MAX_BURST, 0, 0, 0, 0};
    memcpy(want, h1, 6);
    for (uint32_t i = 0; i < BLINK_MAX_BURST; i++) {
        want[6 + 4 * i] = 0;
        want[7 + 4 * i] = 0;
        want[8 + 4 * i] = (uint8_t)(i >> 8);
        want[9 + 4 * i] = (uint8_t)i;
    }
    const uint8_t h2[] = {0x01, 1, 0, 0, 0, (uint8_t)BLINK_MAX_BURST, 0, 0, 0, BLINK_MAX_BURST};
    memcpy(want + 6 + 4 * BLINK_MAX_BURST, h2, sizeof h2);
    expect_wire(f, want, sizeof want);
}

static void test_read_incr_and_fixed(void **state) {
    fix_t *f = *state;
    /* the posted write goes out before the read's command */
    assert_int_equal(blink_post(f->l, 0x30, 7), 0);
    const uint8_t answer[] = {0x47, 0x4d, 0x4d, 0x42, 0x00, 0x00, 0x00, 0x2a};
    assert_int_equal(write(f->master, answer, sizeof answer), (ssize_t)sizeof answer);
    uint32_t w[2] = {0, 0};
    assert_int_equal(blink_read(f->l, 0x10000, w, 2, 0), 0);
    assert_int_equal(w[0], 0x474d4d42u);
    assert_int_equal(w[1], 42u);
    const uint8_t sent[] = {0x01, 1, 0, 0, 0, 0x0c, 0, 0, 0, 7, 0x02, 2, 0x00, 0x00, 0x40, 0x00};
    expect_wire(f, sent, sizeof sent);
    assert_int_equal(write(f->master, answer, 4), 4);
    assert_int_equal(blink_read(f->l, 0x38, w, 1, 1), 0);
    const uint8_t fixed[] = {0x04, 1, 0, 0, 0, 0x0e};
    expect_wire(f, fixed, sizeof fixed);
    assert_int_equal(blink_write(f->l, 0x30, w, 2, 1), 0);
    const uint8_t wfixed[] = {0x03, 2, 0, 0, 0, 0x0c, 0x47, 0x4d, 0x4d, 0x42, 0, 0, 0, 0x2a};
    expect_wire(f, wfixed, sizeof wfixed);
}

/* traffic per class (the throughput split): a command's bytes, answer included, go to the class
 * set when it is sent; changing the class sends pending posted writes under the old one */
static void test_class_counts(void **state) {
    fix_t *f = *state;
    assert_int_equal(blink_set_class(f->l, BLINK_CLS_FAULT), BLINK_CLS_SETUP);
    assert_int_equal(blink_post(f->l, 0x100000, 1), 0);
    assert_int_equal(blink_post(f->l, 0x100004, 2), 0);
    assert_int_equal(blink_class_bytes(f->l, BLINK_CLS_FAULT), 0); /* still pending */
    assert_int_equal(blink_set_class(f->l, BLINK_CLS_POLL), BLINK_CLS_FAULT);
    assert_int_equal(blink_class_bytes(f->l, BLINK_CLS_FAULT), 6 + 8);
    assert_int_equal(blink_class_commands(f->l, BLINK_CLS_FAULT), 1);
    const uint8_t burst[] = {0x01, 2, 0x00, 0x04, 0x00, 0x00, 0, 0, 0, 1, 0, 0, 0, 2};
    expect_wire(f, burst, sizeof burst);
    const uint8_t answer[] = {0, 0, 0, 3, 0, 0, 0, 4};
    assert_int_equal(write(f->master, answer, sizeof answer), (ssize_t)sizeof answer);
    uint32_t w[2];
    assert_int_equal(blink_read(f->l, 0x10, w, 2, 0), 0);
    assert_int_equal(blink_class_bytes(f->l, BLINK_CLS_POLL), 6 + 8);
    assert_int_equal(blink_class_commands(f->l, BLINK_CLS_POLL), 1);
    assert_int_equal(blink_class_reads(f->l, BLINK_CLS_POLL), 1);
    assert_int_equal(blink_class_reads(f->l, BLINK_CLS_FAULT), 0); /* a write */
    assert_int_equal(blink_class_bytes(f->l, BLINK_CLS_SETUP), 0);
    assert_int_equal(blink_bytes(f->l), 28);
    assert_int_equal(blink_class_bytes(f->l, BLINK_NCLS), 0); /* no such class */
}

static void test_timeout_is_sticky(void **state) {
    fix_t *f = *state;
    uint32_t v = 1;
    assert_int_equal(blink_read32(f->l, 0x0, &v), -1);
    assert_non_null(strstr(blink_error(f->l), "no answer from the board"));
    assert_int_equal(blink_post(f->l, 0x0, 1), -1);
    assert_int_equal(blink_write(f->l, 0x0, &v, 1, 0), -1);
    assert_int_equal(blink_flush(f->l), -1);
}

static void test_open_errors(void **state) {
    (void)state;
    char err[256];
    assert_null(blink_open("/nonexistent/tty", 0, 100, err, sizeof err));
    assert_non_null(strstr(err, "cannot open /nonexistent/tty"));
    assert_null(blink_open("/dev/null", 0, 100, err, sizeof err));
    assert_non_null(strstr(err, "is not a terminal"));
    assert_null(blink_open("/dev/null", 12345, 100, err, sizeof err));
    assert_non_null(strstr(err, "baud rate 12345"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_posted_writes_combine, setup, teardown),
        cmocka_unit_test_setup_teardown(test_long_burst_splits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_incr_and_fixed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_class_counts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timeout_is_sticky, setup, teardown),
        cmocka_unit_test(test_open_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
