/*
 * test_platform_config.c - cmocka tests of the configuration parser (cosim/config.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_tmpfile.h"

#include "config.h"

static const char *const tiny_rtl =
    "num_sm = 2\nnum_ports = 2\nl1_entries = 8\n"
    "l1_large_entries = 2\nl1_req_entries = 4\nl2_sets = 4\n"
    "l2_ways = 2\nl2_large_entries = 2\nl2_latency = 3\n"
    "l2_mshr_entries = 4\nnum_walkers = 2\nff_entries = 4\n"
    "ff_quota = 2\nnum_asids = 1\npwc_entries = 0\npwc_latency = 1\n";

/* Writes text to a temporary file; path (64 bytes) receives its name. */
static void write_tmp(char *path, const char *text) {
    test_write_tmp(path, "test_platform_cfg", text);
}

/* Loads tiny's RTL keys followed by extra; returns cfg_load's result, err filled. */
static int load_with(const char *extra, cfg_t *c, char *err, size_t len, char *path) {
    char text[4096];
    snprintf(text, sizeof(text), "%s%s", tiny_rtl, extra);
    write_tmp(path, text);
    cfg_defaults(c);
    const int rc = cfg_load(c, path, err, len);
    unlink(path);
    return rc;
}

static void test_repo_configs_load(void **state) {
    (void)state;
    const char *files[] = {"configs/tiny.cfg", "configs/default.cfg", "configs/oversub.cfg",
                           "configs/paper.cfg"};
    for (size_t i = 0; i < 4; i++) {
        cfg_t c;
        char err[256] = "";
        cfg_defaults(&c);
        assert_int_equal(cfg_load(&c, files[i], err, sizeof(err)), 0);
        assert_true(c.rtl.num_sm >= 1);
    }
    cfg_t c;
    char err[256];
    cfg_defaults(&c);
    assert_int_equal(cfg_load(&c, "configs/default.cfg", err, sizeof(err)), 0);
    assert_int_equal(c.rtl.num_sm, 4);
    assert_int_equal(c.rtl.l2_latency, 10);
    assert_int_equal(c.warps_per_sm, 32);
    assert_int_equal(c.mem_jitter, 20);
    assert_string_equal(c.replay_policy, "batch_flush");
    assert_string_equal(c.evict_policy, "lru");
    /* defaults of keys the file does not set */
    assert_int_equal(c.mem_ready_pct, 100);
    assert_int_equal(c.pcie_latency_ns, 1000);
    assert_true(c.pcie_peak_gbps == 16.0);
    assert_int_equal(c.watchdog_cycles, 2000000);
    assert_int_equal(c.chaos_inval, 0);
    assert_true(c.hdl_irq_ns == CFG_HDL_DEFAULT);
}

static void test_values_and_comments(void **state) {
    (void)state;
    cfg_t c;
    char err[256] = "", path[64];
    assert_int_equal(load_with("# comment\n\n  mem_latency=0x20   # hex, no spaces\n"
                               "pcie_model = atan\npcie_peak_gbps = 32.5\nevict_policy = random\n"
                               "replay_policy = once\nhdl_pte_ns = 0\nfb_entries = 16\n",
                               &c, err, sizeof(err), path),
                     0);
    assert_int_equal(c.mem_latency, 32);
    assert_int_equal(c.pcie_model, CFG_PCIE_ATAN);
    assert_true(c.pcie_peak_gbps == 32.5);
    assert_string_equal(c.evict_policy, "random");
    assert_string_equal(c.replay_policy, "once");
    assert_int_equal(c.hdl_pte_ns, 0);
    assert_int_equal(c.fb_entries, 16);
}

/* error message = "<path>:<line>: <rest>" */
static void expect_error(const char *extra, unsigned line, const char *rest) {
    cfg_t c;
    char err[512] = "", path[64], want[600];
    assert_int_equal(load_with(extra, &c, err, sizeof(err), path), -1);
    snprintf(want, sizeof(want), "%s:%u: %s", path, line, rest);
    if (strncmp(err, want, strlen(want)) != 0)
        fail_msg("got '%s', want prefix '%s'", err, want);
}

static void test_errors(void **state) {
    (void)state;
    expect_error("bogus = 1\n", 17, "bogus: unknown key");
    expect_error("mem_latency = abc\n", 17, "mem_latency: 'abc' is not a decimal or 0x hex number");
    expect_error("mem_latency = -5\n", 17, "mem_latency: '-5' is not a decimal or 0x hex number");
    expect_error("mem_latency = 12x\n", 17, "mem_latency: '12x' is not a decimal or 0x hex number");
    expect_error("mem_latency = 0\n", 17, "mem_latency: 0 is out of range");
    expect_error("mem_ready_pct = 101\n", 17, "mem_ready_pct: 101 is out of range");
    expect_error("fb_entries = 48\n", 17, "fb_entries: 48 is not a power of two");
    expect_error("pcie_model = fast\n", 17, "pcie_model: 'fast' is not one of table|atan");
    expect_error("fault_mode = sometimes\n", 17,
                 "fault_mode: 'sometimes' is not one of replayable|blocking");
    expect_error("run_mode = prefetch\n", 17, "run_mode: 'prefetch' is not one of demand|memcpy");
    expect_error("replay_policy = never\n", 17,
                 "replay_policy: 'never' is not one of block|batch|batch_flush|once");
    expect_error("evict_policy = mru\n", 17,
                 "evict_policy: 'mru' is not one of "
                 "lru|random|fifo|nvidia|lru_oracle|lfu|optimal|clock|tbne");
    expect_error("evict_policy = lru_but_much_longer_than_any_registered_name\n", 17,
                 "evict_policy: 'lru_but_much_longer_than_any_registered_name' is not one of");
    expect_error("pcie_peak_gbps = 0\n", 17,
                 "pcie_peak_gbps: '0' is not a number in [0.001, 1e+06]");
    expect_error("pcie_peak_gbps = 1e-300\n", 17,
                 "pcie_peak_gbps: '1e-300' is not a number in [0.001, 1e+06]");
    /* the handler's rule, found by the configuration check with its line (issue 11 item 13) */
    expect_error("fb_entries = 1\n", 17, "fb_entries: 1 is out of range [2, 65536]");
    expect_error("mem_latency\n", 17, "expected 'key = value'");
    expect_error("mem_latency = \n", 17, "mem_latency: empty value");
    expect_error("mem_latency = 5\nmem_latency = 6\n", 18,
                 "mem_latency: duplicate key (first set on line 17)");
    expect_error("num_sm = 3\n", 17, "num_sm: duplicate key");
}

/* Numbers follow the trace format's rule (common/num.h): decimal or 0x hex; a leading zero does
 * not make a number octal. */
static void test_numbers_decimal_or_hex(void **state) {
    (void)state;
    cfg_t c;
    char err[256] = "", path[64];
    assert_int_equal(load_with("mem_latency = 010\nmem_jitter = 0X1f\nchaos_inval = 0\n", &c, err,
                               sizeof(err), path),
                     0);
    assert_int_equal(c.mem_latency, 10);
    assert_int_equal(c.mem_jitter, 31);
    assert_int_equal(c.chaos_inval, 0);
    expect_error("mem_latency = 0o17\n", 17,
                 "mem_latency: '0o17' is not a decimal or 0x hex number");
    expect_error("mem_latency = +5\n", 17, "mem_latency: '+5' is not a decimal or 0x hex number");
    expect_error("mem_latency = 0x\n", 17, "mem_latency: '0x' is not a decimal or 0x hex number");
    expect_error("watchdog_cycles = 18446744073709551616\n", 17,
                 "watchdog_cycles: '18446744073709551616' is above 2^64-1");
}

static void test_missing_rtl_key(void **state) {
    (void)state;
    cfg_t c;
    char err[512] = "", path[64];
    write_tmp(path, "num_sm = 2\n# only one key\n");
    cfg_defaults(&c);
    assert_int_equal(cfg_load(&c, path, err, sizeof(err)), -1);
    unlink(path);
    assert_non_null(strstr(err, "num_ports: missing RTL key"));
    assert_int_equal(strncmp(err, path, strlen(path)), 0);
}

static void test_rtl_range_points_at_line(void **state) {
    (void)state;
    /* l1_entries = 12 (not a power of two) is rejected by gmmu_params_check; the message
       names the line of the key. */
    cfg_t c;
    char err[512] = "", path[64];
    write_tmp(path, "num_sm = 2\nnum_ports = 2\nl1_entries = 12\nl1_large_entries = 2\n"
                    "l1_req_entries = 4\nl2_sets = 4\nl2_ways = 2\nl2_large_entries = 2\n"
                    "l2_latency = 3\nl2_mshr_entries = 4\nnum_walkers = 2\nff_entries = 4\n"
                    "ff_quota = 2\nnum_asids = 1\npwc_entries = 0\npwc_latency = 1\n");
    cfg_defaults(&c);
    assert_int_equal(cfg_load(&c, path, err, sizeof(err)), -1);
    unlink(path);
    char want[128];
    snprintf(want, sizeof(want), "%s:3: l1_entries", path);
    if (strncmp(err, want, strlen(want)) != 0)
        fail_msg("got '%s', want prefix '%s'", err, want);
}

static void test_set(void **state) {
    (void)state;
    cfg_t c;
    char err[512] = "";
    cfg_defaults(&c);
    assert_int_equal(c.fault_mode, CFG_FAULT_REPLAYABLE);
    assert_int_equal(cfg_set(&c, "fault_mode=blocking", err, sizeof(err)), 0);
    assert_int_equal(c.fault_mode, CFG_FAULT_BLOCKING);
    assert_int_equal(c.run_mode, CFG_RUN_DEMAND);
    assert_int_equal(cfg_set(&c, "run_mode=memcpy", err, sizeof(err)), 0);
    assert_int_equal(c.run_mode, CFG_RUN_MEMCPY);
    assert_int_equal(cfg_set(&c, "mem_ready_pct=30", err, sizeof(err)), 0);
    assert_int_equal(c.mem_ready_pct, 30);
    assert_int_equal(cfg_set(&c, " chaos_inval = 500 ", err, sizeof(err)), 0);
    assert_int_equal(c.chaos_inval, 500);
    assert_int_equal(cfg_set(&c, "num_sm=4", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "num_sm: RTL parameter"));
    assert_int_equal(cfg_set(&c, "nokey=4", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "nokey: unknown key"));
    assert_int_equal(cfg_set(&c, "mem_latency", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "expected key=value"));
    assert_int_equal(cfg_set(&c, "fb_entries=3", err, sizeof(err)), -1);
    assert_int_equal(c.fb_entries, 1024);
    assert_true(cfg_is_rtl_key("ff_quota"));
    assert_false(cfg_is_rtl_key("fb_entries"));
}

static void test_rtl_equal_and_print(void **state) {
    (void)state;
    cfg_t a, b;
    char err[256] = "";
    cfg_defaults(&a);
    assert_int_equal(cfg_load(&a, "configs/tiny.cfg", err, sizeof(err)), 0);
    b = a;
    assert_int_equal(cfg_rtl_equal(&a.rtl, &b.rtl, err, sizeof(err)), 0);
    b.rtl.num_walkers = 3;
    assert_int_equal(cfg_rtl_equal(&a.rtl, &b.rtl, err, sizeof(err)), -1);
    assert_string_equal(err, "num_walkers: 2 in the configuration, 3 in the built model");
    char v[64];
    assert_int_equal(cfg_format_value(&a, "replay_policy", v, sizeof(v)), 0);
    assert_string_equal(v, "batch_flush");
    assert_int_equal(cfg_format_value(&a, "hdl_irq_ns", v, sizeof(v)), 0);
    assert_string_equal(v, "default");
    assert_int_equal(cfg_format_value(&a, "nokey", v, sizeof(v)), -1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cfg_print_json(&a, f, "");
    fclose(f);
    assert_non_null(strstr(buf, "\"num_sm\": 2"));
    assert_non_null(strstr(buf, "\"pcie_model\": \"table\""));
    assert_non_null(strstr(buf, "\"replay_policy\": \"batch_flush\""));
    assert_non_null(strstr(buf, "\"evict_policy\": \"lru\""));
    free(buf);
}

/* Every parameter of spec/params.toml is a mandatory RTL key of the configuration, compared by
 * cfg_rtl_equal and refused by --set (the key table is generated from the spec). */
/* sm_partition: a list of SM counts summing to num_sm, at most num_asids entries; errors name
 * the file, line and key; listed in the JSON only when set. */
static void test_sm_partition(void **state) {
    (void)state;
    cfg_t c;
    char err[512] = "", path[64], v[64];
    assert_int_equal(load_with("", &c, err, sizeof(err), path), 0);
    assert_int_equal(c.sm_parts, 0);
    assert_int_equal(cfg_format_value(&c, "sm_partition", v, sizeof(v)), 0);
    assert_string_equal(v, "none");
    expect_error("sm_partition = 1,1\n", 17, "sm_partition: 2 applications but num_asids is 1");
    expect_error("sm_partition = 1,x\n", 17, "sm_partition: entry 2 'x' is not a number of SMs");
    expect_error("sm_partition = 1,,1\n", 17, "sm_partition: '1,,1' is not a comma-separated");
    expect_error("sm_partition = 0,2\n", 17, "sm_partition: entry 1 '0' is not a number of SMs");
    expect_error("sm_partition = 3\n", 17, "sm_partition: the 1 entries sum to 3 SMs, num_sm is 2");
    /* tiny's RTL keys with num_asids = 1 come first: a second file with num_asids = 2 */
    char text[4096];
    snprintf(text, sizeof(text),
             "%.*snum_asids = 2\npwc_entries = 0\npwc_latency = 1\nsm_partition = 1, 1\n",
             (int)(strstr(tiny_rtl, "num_asids") - tiny_rtl), tiny_rtl);
    write_tmp(path, text);
    cfg_defaults(&c);
    assert_int_equal(cfg_load(&c, path, err, sizeof(err)), 0);
    unlink(path);
    assert_int_equal(c.sm_parts, 2);
    assert_int_equal(c.sm_part[1], 1);
    assert_int_equal(cfg_format_value(&c, "sm_partition", v, sizeof(v)), 0);
    assert_string_equal(v, "1,1");
    assert_int_equal(cfg_set(&c, "sm_partition=2", err, sizeof(err)), 0);
    assert_int_equal(c.sm_parts, 1);
    assert_int_equal(cfg_set(&c, "sm_partition=1", err, sizeof(err)), -1);
    assert_non_null(strstr(err, "sum to 1 SMs, num_sm is 2"));
    assert_int_equal(cfg_set(&c, "sm_partition=none", err, sizeof(err)), 0);
    assert_int_equal(c.sm_parts, 0);
}

static void test_rtl_keys_from_spec(void **state) {
    (void)state;
    static const gmmu_param_desc_t desc[] = GMMU_PARAM_DESC_INIT;
    cfg_t a;
    char err[256] = "", kv[64], want[96];
    cfg_defaults(&a);
    assert_int_equal(cfg_load(&a, "configs/tiny.cfg", err, sizeof(err)), 0);
    assert_int_equal(sizeof(desc) / sizeof(desc[0]), GMMU_PARAM_COUNT);
    /* configs/tiny.cfg is the SV default of gmmu_top (the unit tests' th_params_tiny) */
    const gmmu_params_t dflt = GMMU_PARAMS_DEFAULT_INIT;
    assert_int_equal(cfg_rtl_equal(&a.rtl, &dflt, err, sizeof(err)), 0);
    for (unsigned i = 0; i < GMMU_PARAM_COUNT; i++) {
        assert_true(cfg_is_rtl_key(desc[i].key));
        gmmu_params_t b = a.rtl;
        uint32_t v;
        memcpy(&v, (const char *)&b + desc[i].off, sizeof(v));
        v++;
        memcpy((char *)&b + desc[i].off, &v, sizeof(v));
        assert_int_equal(cfg_rtl_equal(&a.rtl, &b, err, sizeof(err)), -1);
        snprintf(want, sizeof(want), "%s: ", desc[i].key);
        assert_int_equal(strncmp(err, want, strlen(want)), 0);
        snprintf(kv, sizeof(kv), "%s=%u", desc[i].key, v);
        assert_int_equal(cfg_set(&a, kv, err, sizeof(err)), -1);
        assert_non_null(strstr(err, "RTL parameter"));
    }
}

/* A hide_default RTL key (spec/params.toml, acc_entries): may be left out (its default), is not
 * printed while at its default (set explicitly or not), is printed and compared otherwise. */
static void test_rtl_hidden_default(void **state) {
    (void)state;
    cfg_t c;
    char err[256] = "", path[64];
    const gmmu_params_t dflt = GMMU_PARAMS_DEFAULT_INIT;
    const char *const extras[] = {"", "acc_entries = 0\n"};
    for (unsigned i = 0; i < 2; i++) {
        assert_int_equal(load_with(extras[i], &c, err, sizeof(err), path), 0);
        assert_int_equal(c.rtl.acc_entries, dflt.acc_entries);
        assert_true(cfg_is_rtl_key("acc_entries"));
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        cfg_print_json(&c, f, "");
        cfg_print(&c, f, "");
        fclose(f);
        assert_null(strstr(buf, "acc_entries"));
        assert_non_null(strstr(buf, "pwc_entries")); /* a key without hide_default is printed */
        free(buf);
    }
    assert_int_equal(load_with("acc_entries = 8\n", &c, err, sizeof(err), path), 0);
    assert_int_equal(c.rtl.acc_entries, 8);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cfg_print_json(&c, f, "");
    fclose(f);
    assert_non_null(strstr(buf, "\"acc_entries\": 8"));
    free(buf);
    assert_int_equal(cfg_rtl_equal(&c.rtl, &dflt, err, sizeof(err)), -1);
    assert_string_equal(err, "acc_entries: 8 in the configuration, 0 in the built model");
    assert_int_equal(load_with("acc_entries = 65\n", &c, err, sizeof(err), path), -1);
    assert_non_null(strstr(err, "acc_entries: 65 is out of range"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repo_configs_load),
        cmocka_unit_test(test_values_and_comments),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_numbers_decimal_or_hex),
        cmocka_unit_test(test_missing_rtl_key),
        cmocka_unit_test(test_rtl_range_points_at_line),
        cmocka_unit_test(test_set),
        cmocka_unit_test(test_rtl_equal_and_print),
        cmocka_unit_test(test_rtl_keys_from_spec),
        cmocka_unit_test(test_sm_partition),
        cmocka_unit_test(test_rtl_hidden_default),
    };
    return cmocka_run_group_tests_name("platform_config", tests, NULL, NULL);
}
