/*
 * test_platform_pst.c - DynaMap's software Page Spatial Table in the platform (docs/handler.md
 * §6x.1): the lines an instruction's lanes touch per page (sm_line_mask), carried with each
 * translation's response (sm_resp_t.lines), and the table in host memory
 * (hostmem_pst_record / hostmem_pst_get: set bits, read-and-bypass, the access count), and
 * the line a request carries on req_line (sm_req_line, docs/microarch.md §20.1).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_mem_rec.h"

#include "hostmem.h"
#include "sm.h"

static void test_line_mask(void **state) {
    (void)state;
    uint64_t addr[TRACE_LANES];
    for (int i = 0; i < TRACE_LANES; i++)
        addr[i] = 0x7f0000000000ull + 128ull * (uint64_t)i; /* lane i: line i of one page */
    assert_int_equal(sm_line_mask(0xffffffffu, addr, 0x7f0000000ull), 0xffffffffu);
    assert_int_equal(sm_line_mask(0x5u, addr, 0x7f0000000ull), 0x5u);      /* lanes 0, 2 */
    assert_int_equal(sm_line_mask(0xffffffffu, addr, 0x7f0000001ull), 0u); /* another page */
    for (int i = 0; i < TRACE_LANES; i++)
        addr[i] = 0x3000ull + 4ull * (uint64_t)i + (i >= 16 ? 0x1f80ull : 0u); /* 0x4fc0.. */
    assert_int_equal(sm_line_mask(0xffffffffu, addr, 0x3u), 0x1u);             /* line 0 */
    assert_int_equal(sm_line_mask(0xffffffffu, addr, 0x4u), 0x80000000u);      /* line 31 */
    assert_int_equal(sm_line_mask(0x0000ffffu, addr, 0x4u), 0u);
    for (int i = 16; i < TRACE_LANES; i++)
        addr[i] = 0x3f80ull + 4ull * (uint64_t)i; /* line 31 */
    assert_int_equal(sm_line_mask(0xffffffffu, addr, 0x3u), 0x80000001u);
    assert_int_equal(sm_line_mask(0, addr, 0x3u), 0u);
}

/* the lines travel with each page's response: a 2-page instruction, lanes split 3 / 1 lines */
static void test_response_lines(void **state) {
    (void)state;
    kern_t k;
    kern_init(&k);
    trace_rec_t r = test_mem_rec(0, 0, TRACE_OP_READ, 0, 0xf, 0x10000, 0x80); /* lines 0..3 */
    r.addr[3] = 0x11f80; /* page 0x11 line 31 */
    assert_int_equal(kern_add(&k, &r, 1), 0);
    sm_t sm;
    assert_int_equal(sm_init(&sm, 0, 2, 8), 0);
    assert_int_equal(sm_start_kernel(&sm, &k, 0), 0);
    uint8_t valid[8] = {0}, write[8] = {0}, id[8] = {0};
    uint64_t vpn[8] = {0};
    assert_int_equal(sm_issue(&sm, &k, 0, valid, vpn, write, id), 2);
    sm_resp_t resp;
    for (int i = 0; i < 2; i++) /* req_line (docs/microarch.md §20.1): the lowest line touched */
        assert_int_equal(sm_req_line(&sm, &k, id[i]), vpn[i] == 0x10 ? 0u : 31u);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(sm_response(&sm, &k, id[i], 5, &resp), 0);
        assert_int_equal(resp.vpn, vpn[i]);
        assert_int_equal(resp.lines, resp.vpn == 0x10 ? 0x7u : 0x80000000u);
    }
    sm_free(&sm);
    kern_free(&k);
}

static void test_table(void **state) {
    (void)state;
    hostmem_t h;
    assert_int_equal(hostmem_init(&h, 0x1000, 64), 0);
    uint32_t lines = 1, count = 1;
    hostmem_pst_get(&h, 7, &lines, &count);
    assert_int_equal(lines, 0);
    assert_int_equal(count, 0);
    assert_int_equal(hostmem_pst_record(&h, 7, 0x3u, 0), 1);  /* new lines: written */
    assert_int_equal(hostmem_pst_record(&h, 7, 0x1u, 0), 0);  /* read-and-bypass */
    assert_int_equal(hostmem_pst_record(&h, 7, 0x10u, 0), 1); /* one new line */
    assert_int_equal(hostmem_pst_record(&h, 7, 0x0u, 1), 1);  /* counted: written */
    assert_int_equal(hostmem_pst_record(&h, 8, 0x80000000u, 1), 1);
    hostmem_pst_get(&h, 7, &lines, &count);
    assert_int_equal(lines, 0x13u);
    assert_int_equal(count, 1);
    hostmem_pst_get(&h, 8, &lines, &count);
    assert_int_equal(lines, 0x80000000u);
    assert_int_equal(count, 1);
    hostmem_pst_clear(&h, 7);
    hostmem_pst_get(&h, 7, &lines, &count);
    assert_int_equal(lines | count, 0);
    hostmem_free(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_mask),
        cmocka_unit_test(test_response_lines),
        cmocka_unit_test(test_table),
    };
    return cmocka_run_group_tests_name("platform_pst", tests, NULL, NULL);
}
