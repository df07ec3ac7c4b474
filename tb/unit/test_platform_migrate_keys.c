/*
 * test_platform_migrate_keys.c - the configuration keys of issue 8's migration and prefetch
 * (cosim/config.c): prefetch_policy, migrate_grow, migrate_max_pages, copy_channels, copy_wait,
 * transfer_sets. Defaults keep the old behaviour; bad values fail with a message naming the
 * reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"

static void test_defaults_are_the_old_behaviour(void **state) {
    (void)state;
    cfg_t c;
    cfg_defaults(&c);
    assert_string_equal(c.prefetch_policy, "none");
    assert_int_equal(c.migrate_grow, CFG_GROW_4K);
    assert_int_equal(c.migrate_max_pages, 1);
    assert_int_equal(c.copy_channels, 1);
    assert_int_equal(c.copy_wait, UVM_COPY_WAIT_BLOCK);
    assert_int_equal(c.transfer_sets, UVM_TS_BATCH);
    char v[64];
    assert_int_equal(cfg_format_value(&c, "migrate_grow", v, sizeof v), 0);
    assert_string_equal(v, "4k");
    assert_int_equal(cfg_format_value(&c, "copy_wait", v, sizeof v), 0);
    assert_string_equal(v, "block");
    assert_int_equal(cfg_format_value(&c, "transfer_sets", v, sizeof v), 0);
    assert_string_equal(v, "batch");
}

static void test_set_values(void **state) {
    (void)state;
    cfg_t c;
    char err[256];
    cfg_defaults(&c);
    const char *ok[] = {"prefetch_policy=nvidia", "migrate_grow=64k", "migrate_max_pages=512",
                        "copy_channels=8", "copy_wait=batch"};
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(cfg_set(&c, ok[i], err, sizeof err), 0);
    assert_int_equal(c.copy_wait, UVM_COPY_WAIT_BATCH);
    assert_int_equal(cfg_set(&c, "transfer_sets=pipelined", err, sizeof err), 0);
    assert_int_equal(c.transfer_sets, UVM_TS_PIPELINED);
    assert_string_equal(c.prefetch_policy, "nvidia");
    assert_int_equal(c.migrate_grow, CFG_GROW_64K);
    assert_int_equal(c.migrate_max_pages, 512);
    assert_int_equal(c.copy_channels, 8);
    const char *names[] = {"tbn", "seq_local", "random_local", "none"};
    for (size_t i = 0; i < 4; i++) {
        char kv[64];
        snprintf(kv, sizeof kv, "prefetch_policy=%s", names[i]);
        assert_int_equal(cfg_set(&c, kv, err, sizeof err), 0);
        assert_string_equal(c.prefetch_policy, names[i]);
    }
}

static void test_bad_values(void **state) {
    (void)state;
    static const struct {
        const char *kv, *msg;
    } bad[] = {
        {"prefetch_policy=tree", "'tree' is not one of none|nvidia|tbn|seq_local|random_local"},
        {"migrate_grow=32k", "'32k' is not one of 4k|64k"},
        {"migrate_max_pages=0", "out of range [1, 512]"},
        {"migrate_max_pages=513", "out of range [1, 512]"},
        {"copy_channels=0", "out of range [1, 8]"},
        {"copy_channels=9", "out of range [1, 8]"},
        {"copy_wait=tracker", "'tracker' is not one of block|batch"},
        {"transfer_sets=timer", "'timer' is not one of batch|pipelined"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cfg_t c;
        char err[256] = "";
        cfg_defaults(&c);
        assert_int_equal(cfg_set(&c, bad[i].kv, err, sizeof err), -1);
        if (!strstr(err, bad[i].msg))
            fail_msg("%s: '%s' does not contain '%s'", bad[i].kv, err, bad[i].msg);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_are_the_old_behaviour),
        cmocka_unit_test(test_set_values),
        cmocka_unit_test(test_bad_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
