/*
 * test_platform_config_spec.c - the keys declared in spec/config.toml (generated key table, cfg_t
 * and uvm_cfg_t, docs/config.md): a key of each type parsed and printed back, range and enum
 * errors naming file, line and key, the generated defaults equal to the handler's, the copy into
 * uvm_cfg_t (with its conversions), keys hidden while at their default, and the policy
 * properties the platform asks the handler for (uvm_policy_props).
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
    "ff_quota = 2\nnum_asids = 2\npwc_entries = 0\npwc_latency = 1\n";
#define TINY_LINES 16u

/* Loads tiny's RTL keys followed by extra into c (over the defaults); cfg_load's result. */
static int load_with(const char *extra, cfg_t *c, char *err, size_t len, char *path) {
    char text[4096];
    snprintf(text, sizeof(text), "%s%s", tiny_rtl, extra);
    test_write_tmp(path, "test_platform_cfg_spec", text);
    cfg_defaults(c);
    const int rc = cfg_load(c, path, err, len);
    unlink(path);
    return rc;
}

/* extra (one line) fails with "<path>:15: <rest>..." */
static void expect_error(const char *extra, const char *rest) {
    cfg_t c;
    char err[512] = "", path[64], want[600];
    assert_int_equal(load_with(extra, &c, err, sizeof(err), path), -1);
    snprintf(want, sizeof(want), "%s:%u: %s", path, TINY_LINES + 1u, rest);
    if (strncmp(err, want, strlen(want)) != 0)
        fail_msg("got '%s', want prefix '%s'", err, want);
}

static void check_value(const cfg_t *c, const char *key, const char *want) {
    char v[256];
    assert_int_equal(cfg_format_value(c, key, v, sizeof(v)), 0);
    if (strcmp(v, want) != 0)
        fail_msg("%s = '%s', want '%s'", key, v, want);
}

/* One key of each type of the spec (u32, u64, f64, enum, enum with a map, policy, cost, part):
 * stored in its cfg_t field and printed back as written. */
static void test_each_type(void **state) {
    (void)state;
    cfg_t c;
    char err[512] = "", path[64];
    assert_int_equal(load_with("mem_latency = 0x20\ngpu_mem_pages = 4194304\n"
                               "pcie_peak_gbps = 32.5\npage_size = cocoa\nmigrate_grow = 64k\n"
                               "evict_policy = random\nhdl_pte_ns = 7\nsm_partition = 1,1\n",
                               &c, err, sizeof(err), path),
                     0);
    assert_int_equal(c.mem_latency, 32);
    assert_true(c.gpu_mem_pages == 4194304u);
    assert_true(c.pcie_peak_gbps == 32.5);
    assert_int_equal(c.page_size, UVM_PSIZE_COCOA);
    assert_int_equal(c.migrate_grow, CFG_GROW_64K);
    assert_string_equal(c.evict_policy, "random");
    assert_true(c.hdl_pte_ns == 7u);
    assert_true(c.hdl_irq_ns == CFG_HDL_DEFAULT);
    assert_int_equal(c.sm_parts, 2);
    check_value(&c, "mem_latency", "32");
    check_value(&c, "gpu_mem_pages", "4194304");
    check_value(&c, "pcie_peak_gbps", "32.5");
    check_value(&c, "page_size", "cocoa");
    check_value(&c, "migrate_grow", "64k");
    check_value(&c, "evict_policy", "random");
    check_value(&c, "hdl_pte_ns", "7");
    check_value(&c, "hdl_irq_ns", "default");
    check_value(&c, "sm_partition", "1,1");
    /* a cost key takes back "default", as it is printed */
    assert_int_equal(cfg_set(&c, "hdl_pte_ns=default", err, sizeof(err)), 0);
    assert_true(c.hdl_pte_ns == CFG_HDL_DEFAULT);
}

/* Range, power-of-two and enum errors name the file, the line and the key. */
static void test_errors_name_file_line_key(void **state) {
    (void)state;
    expect_error("warps_per_sm = 4097\n", "warps_per_sm: 4097 is out of range [1, 4096]");
    expect_error("gpu_mem_pages = 4194305\n",
                 "gpu_mem_pages: 4194305 is out of range [1, 4194304]");
    expect_error("copy_channels = 9\n", "copy_channels: 9 is out of range [1, 8]");
    expect_error("co_vpn = 0x1000000000\n",
                 "co_vpn: 0x1000000000 is out of range [0, 68719476735]");
    expect_error("hdl_irq_ns = 1099511627777\n",
                 "hdl_irq_ns: 1099511627777 is out of range [0, 1099511627776]");
    expect_error("fb_entries = 131072\n", "fb_entries: 131072 is out of range [2, 65536]");
    expect_error("batch_size = 0\n", "batch_size: 0 is out of range [1, 65536]");
    expect_error("pcie_peak_gbps = 2e6\n",
                 "pcie_peak_gbps: '2e6' is not a number in [0.001, 1e+06]");
    expect_error("page_size = 1g\n", "page_size: '1g' is not one of 4k|2m|cocoa");
    expect_error("migrate_grow = 2m\n", "migrate_grow: '2m' is not one of 4k|64k");
    expect_error("copy_wait = never\n", "copy_wait: 'never' is not one of block|batch");
    expect_error("transfer_sets = 3\n", "transfer_sets: '3' is not one of batch|pipelined");
    expect_error("coalesce_by = cpu\n", "coalesce_by: 'cpu' is not one of host|gmmu");
    expect_error("frame_alloc = first\n", "frame_alloc: 'first' is not one of any|cocoa");
    expect_error("prefetch_policy = psychic\n", "prefetch_policy: 'psychic' is not one of none|");
    expect_error("sm_partition = 0\n", "sm_partition: entry 1 '0' is not a number of SMs");
}

/* One source for defaults: the keys' defaults copied into uvm_cfg_t give the handler's own
 * defaults (uvm_cfg_defaults), but for the derived transfer_set_pages. */
static void test_defaults_are_the_handlers(void **state) {
    (void)state;
    cfg_t c;
    uvm_cfg_t mine, hdl;
    cfg_defaults(&c);
    uvm_cfg_defaults(&hdl);
    memset(&mine, 0xa5, sizeof mine);
    cfg_to_handler(&c, &mine);
    assert_int_equal(mine.transfer_set_pages, 78); /* 16 GB/s x 20 us / 4 KB, derived */
    assert_int_equal(hdl.transfer_set_pages, 80);  /* the handler's own default */
    mine.transfer_set_pages = hdl.transfer_set_pages;
    assert_memory_equal(&mine, &hdl, sizeof mine);
    /* the handler's documented defaults */
    assert_string_equal(hdl.policy[UVM_POLICY_REPLAY], "batch_flush");
    assert_string_equal(hdl.policy[UVM_POLICY_EVICT], "lru");
    assert_string_equal(hdl.policy[UVM_POLICY_PREFETCH], "none");
    assert_string_equal(hdl.policy[UVM_POLICY_THRASHING], "none");
    assert_true(hdl.t_irq_ns == 4000u && hdl.t_batch_ns == 8600u && hdl.t_block_ns == 0u);
    assert_int_equal(hdl.grow_pages, 1);
    assert_int_equal(hdl.fb_entries, 1024);
    assert_true(hdl.gpu_data_pages == c.gpu_mem_pages);
    for (int k = 0; k < UVM_POLICY_KINDS; k++)
        assert_int_equal(uvm_policy_check((uvm_policy_kind_t)k, hdl.policy[k], NULL, 0), 0);
}

/* The copy into uvm_cfg_t: plain, mapped (migrate_grow -> grow_pages), cost only when set,
 * derived (transfer_set_us -> transfer_set_pages), policies by kind. */
static void test_copy_to_handler(void **state) {
    (void)state;
    cfg_t c;
    uvm_cfg_t h;
    char err[512] = "", path[64];
    assert_int_equal(load_with("migrate_grow = 64k\nhdl_irq_ns = 0\nbatch_size = 7\n"
                               "transfer_set_us = 40\npcie_peak_gbps = 32\n"
                               "copy_wait = batch\nprefetch_policy = oracle\n"
                               "gpu_mem_pages = 48\nfb_entries = 64\n",
                               &c, err, sizeof(err), path),
                     0);
    cfg_to_handler(&c, &h);
    assert_int_equal(h.grow_pages, 16);
    assert_true(h.t_irq_ns == 0u);
    assert_true(h.t_batch_ns == 8600u); /* not set: the handler's */
    assert_int_equal(h.batch_size, 7);
    assert_int_equal(h.transfer_set_pages, 312); /* 32 GB/s x 40 us / 4 KB */
    assert_int_equal(h.copy_wait, UVM_COPY_WAIT_BATCH);
    assert_string_equal(h.policy[UVM_POLICY_PREFETCH], "oracle");
    assert_string_equal(h.policy[UVM_POLICY_REPLAY], "batch_flush");
    assert_true(h.gpu_data_pages == 48u);
    assert_int_equal(h.fb_entries, 64);
}

static char *print_json(const cfg_t *c) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cfg_print_json(c, f, "");
    fclose(f);
    return buf;
}

/* hide_default keys are printed only away from their default (the printed configuration of
 * every old run stays byte-identical); the others always. */
static void test_hidden_while_default(void **state) {
    (void)state;
    cfg_t c;
    char err[512] = "", path[64];
    assert_int_equal(load_with("hbm_gbps = 0\nsm_partition = none\n", &c, err, sizeof(err), path),
                     0);
    char *j = print_json(&c);
    assert_null(strstr(j, "hbm_gbps"));
    assert_null(strstr(j, "sm_partition"));
    assert_non_null(strstr(j, "\"mem_jitter\": 0"));
    assert_non_null(strstr(j, "\"hdl_block_ns\": \"default\""));
    free(j);
    assert_int_equal(cfg_set(&c, "hbm_gbps=3015", err, sizeof(err)), 0);
    assert_int_equal(cfg_set(&c, "sm_partition=1,1", err, sizeof(err)), 0);
    j = print_json(&c);
    assert_non_null(strstr(j, "\"hbm_gbps\": 3015"));
    assert_non_null(strstr(j, "\"sm_partition\": \"1,1\""));
    free(j);
}

/* The worked example of docs/config.md "Adding a key": thrashing_policy, added by its spec entry
 * alone (the handler already read cfg.policy[UVM_POLICY_THRASHING]): parsed, checked against the
 * registry, copied into the handler's configuration, and not printed while "none" (the golden
 * statistics predate it). */
static void test_thrashing_policy_key(void **state) {
    (void)state;
    cfg_t c;
    uvm_cfg_t h;
    char err[512] = "", path[64];
    cfg_defaults(&c);
    assert_string_equal(c.thrashing_policy, "none");
    assert_int_equal(load_with("thrashing_policy = none\n", &c, err, sizeof(err), path), 0);
    cfg_to_handler(&c, &h);
    assert_string_equal(h.policy[UVM_POLICY_THRASHING], "none");
    char *j = print_json(&c);
    assert_null(strstr(j, "thrashing_policy"));
    free(j);
    expect_error("thrashing_policy = bogus\n", "thrashing_policy: 'bogus' is not one of ");
    assert_int_equal(load_with("thrashing_policy = pin_all\n", &c, err, sizeof(err), path), -1);
    assert_non_null(strstr(err, "none")); /* the registry's names */
}

/* The platform asks the handler about policies instead of comparing names. */
static void test_policy_props(void **state) {
    (void)state;
    assert_int_equal(uvm_policy_props(UVM_POLICY_EVICT, "lru"), UVM_POLICY_PROP_MAP_ORDER);
    assert_int_equal(uvm_policy_props(UVM_POLICY_EVICT, "random"), 0);
    assert_int_equal(uvm_policy_props(UVM_POLICY_PREFETCH, "oracle"), UVM_POLICY_PROP_PAGE_ORDER);
    assert_int_equal(uvm_policy_props(UVM_POLICY_PREFETCH, "locality"), 0);
    assert_int_equal(uvm_policy_props(UVM_POLICY_PREFETCH, "lru"), 0); /* not a prefetcher */
    assert_int_equal(uvm_policy_props(UVM_POLICY_EVICT, NULL), 0);
    assert_int_equal(uvm_policy_props(UVM_POLICY_KINDS, "lru"), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_type),
        cmocka_unit_test(test_errors_name_file_line_key),
        cmocka_unit_test(test_defaults_are_the_handlers),
        cmocka_unit_test(test_copy_to_handler),
        cmocka_unit_test(test_hidden_while_default),
        cmocka_unit_test(test_thrashing_policy_key),
        cmocka_unit_test(test_policy_props),
    };
    return cmocka_run_group_tests_name("platform_config_spec", tests, NULL, NULL);
}
