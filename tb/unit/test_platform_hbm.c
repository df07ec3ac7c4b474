/*
 * test_platform_hbm.c - cmocka tests of the shared HBM bandwidth (cosim/hbm.c) and of its use by
 * the SM front-ends (cosim/sm.c): the timing of a few warps worked out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hbm.h"
#include "sm.h"
#include "test_mem_rec.h"

static trace_rec_t mem(uint32_t cta, uint32_t gap, uint32_t mask, uint64_t base, int64_t stride) {
    return test_mem_rec(cta, 0, TRACE_OP_READ, gap, mask, base, stride);
}

static void test_reserve(void **state) {
    (void)state;
    hbm_t h;
    /* 128 GB/s at 1000 MHz: 128 B per ns = one line per cycle */
    hbm_init(&h, 128, 1000);
    assert_int_equal(h.line_fp, 1u << HBM_FRAC_BITS);
    assert_int_equal(hbm_reserve(&h, 0, 4), 4);   /* 0..4 */
    assert_int_equal(hbm_reserve(&h, 2, 1), 5);   /* queued behind: 4..5 */
    assert_int_equal(hbm_reserve(&h, 10, 2), 12); /* idle server: starts at once */
    assert_int_equal(hbm_reserve(&h, 11, 0), 11); /* no line: no wait, server untouched */
    assert_int_equal(hbm_reserve(&h, 12, 1), 13);
    /* 256 GB/s: half a cycle per line; the fractions add up, the result is rounded up */
    hbm_init(&h, 256, 1000);
    assert_int_equal(hbm_reserve(&h, 0, 1), 1); /* 0.5 */
    assert_int_equal(hbm_reserve(&h, 0, 1), 1); /* 1.0 */
    assert_int_equal(hbm_reserve(&h, 0, 1), 2); /* 1.5 */
    assert_int_equal(hbm_reserve(&h, 0, 3), 3); /* 3.0 */
    /* H100: 3015 GB/s at 1980 MHz, 4 KB = 32 lines: 4096 / 3015 ns = 2.69 cycles; 1056 such
     * loads back to back: 1056 x 4096 / 3015 ns = 1434.6 ns = 2840.5 cycles */
    hbm_init(&h, 3015, 1980);
    assert_int_equal(hbm_reserve(&h, 0, 32), 3);
    for (int i = 1; i < 1055; i++)
        (void)hbm_reserve(&h, 0, 32);
    assert_int_equal(hbm_reserve(&h, 0, 32), 2841);
    /* off */
    hbm_init(&h, 0, 1000);
    assert_int_equal(hbm_reserve(&h, 7, 32), 7);
    assert_int_equal(hbm_reserve(&h, 3, 32), 3);
}

static void test_lines(void **state) {
    (void)state;
    uint64_t addr[TRACE_LANES];
    for (int i = 0; i < TRACE_LANES; i++)
        addr[i] = 0x10000ull + 128ull * (uint64_t)i; /* the stream: 4 KB, 32 lines */
    assert_int_equal(hbm_lines(0xffffffffu, addr), 32);
    assert_int_equal(hbm_lines(0x5u, addr), 2); /* inactive lanes do not count */
    for (int i = 0; i < TRACE_LANES; i++)
        addr[i] = 0x10000ull + 4ull * (uint64_t)i; /* 32 x 4 B: one line */
    assert_int_equal(hbm_lines(0xffffffffu, addr), 1);
    for (int i = 0; i < TRACE_LANES; i++)
        addr[i] = 0x10040ull + 8ull * (uint64_t)i; /* 256 B from mid-line: 3 lines */
    assert_int_equal(hbm_lines(0xffffffffu, addr), 3);
    assert_int_equal(hbm_lines(0, addr), 0);
}

/* Answers every translation SM sm presents at cycle now; returns how many. */
static uint32_t answer(sm_t *sm, kern_t *k, uint64_t now, int *instr_done) {
    uint8_t valid[8] = {0}, write[8], id[8];
    uint64_t vpn[8];
    const uint32_t n = sm_issue(sm, k, now, valid, vpn, write, id);
    for (uint32_t i = 0; i < n; i++) {
        sm_resp_t r;
        assert_int_equal(sm_response(sm, k, id[i], now, &r), 0);
        *instr_done += r.instr_done;
    }
    return n;
}

/*
 * Two SMs, one line per cycle. SM 0: warp (0,0) with a 32-line load (gap 0) and then a 1-line
 * load with gap 10; SM 1: warp (1,0) with one 32-line load (gap 0).
 *   start at 0: (0,0) reserves 0..32, (1,0) queues behind it: 32..64
 *   (0,0)'s first translation comes back at 40: its next load starts after its gap at 50, the
 *   server is busy until 64: 64..65, so it issues at 65
 * Without the model both loads of the first wave would issue at 0 and the second at 50.
 */
static void test_warps_share(void **state) {
    (void)state;
    kern_t k;
    kern_init(&k);
    hbm_init(&k.hbm, 128, 1000); /* before the records: kern_add counts their lines */
    trace_rec_t r = mem(0, 0, 0xffffffffu, 0x100000, 128);
    assert_int_equal(kern_add(&k, &r, 2), 0);
    r = mem(1, 0, 0xffffffffu, 0x200000, 128);
    assert_int_equal(kern_add(&k, &r, 2), 0);
    r = mem(0, 10, 0x1u, 0x300000, 0);
    assert_int_equal(kern_add(&k, &r, 2), 0);
    assert_int_equal(k.warps[0].ins[0].lines, 32);
    assert_int_equal(k.warps[0].ins[1].lines, 1);
    sm_t sm[2];
    for (uint32_t s = 0; s < 2; s++) {
        assert_int_equal(sm_init(&sm[s], s, 4, 4), 0);
        assert_int_equal(sm_start_kernel(&sm[s], &k, 0), 0);
    }
    assert_int_equal(k.warps[0].ready_at, 32);
    assert_int_equal(k.warps[1].ready_at, 64);
    assert_int_equal(sm_next_event(&sm[0], &k, 0), 32);
    assert_int_equal(sm_next_event(&sm[1], &k, 0), 64);
    assert_false(sm_wants_issue(&sm[0], &k, 31));
    assert_true(sm_wants_issue(&sm[0], &k, 32));
    int done = 0;
    assert_int_equal(answer(&sm[0], &k, 40, &done), 1);
    assert_int_equal(done, 1);
    assert_int_equal(k.warps[0].ready_at, 65); /* max(40 + 10, 64) + 1 */
    assert_false(sm_wants_issue(&sm[1], &k, 63));
    assert_true(sm_wants_issue(&sm[1], &k, 64));
    done = 0;
    assert_int_equal(answer(&sm[1], &k, 64, &done), 1);
    assert_true(sm_kernel_done(&sm[1], &k));
    assert_int_equal(answer(&sm[0], &k, 65, &done), 1);
    assert_int_equal(done, 2);
    assert_true(sm_kernel_done(&sm[0], &k));
    /* a warp alone gets the whole bandwidth: one 32-line load after a gap of 5 at cycle 100 */
    kern_reset(&k); /* keeps the HBM model */
    r = mem(0, 5, 0xffffffffu, 0x400000, 128);
    assert_int_equal(kern_add(&k, &r, 2), 0);
    assert_int_equal(sm_start_kernel(&sm[0], &k, 100), 0);
    assert_int_equal(k.warps[0].ready_at, 137); /* 100 + 5 + 32 */
    for (uint32_t s = 0; s < 2; s++)
        sm_free(&sm[s]);
    kern_free(&k);
}

/* Off (hbm_gbps 0, kern_init's state): the gap alone, no line counted. */
static void test_off(void **state) {
    (void)state;
    kern_t k;
    kern_init(&k);
    trace_rec_t r = mem(0, 7, 0xffffffffu, 0x100000, 128);
    assert_int_equal(kern_add(&k, &r, 1), 0);
    assert_int_equal(k.warps[0].ins[0].lines, 0);
    sm_t sm;
    assert_int_equal(sm_init(&sm, 0, 4, 4), 0);
    assert_int_equal(sm_start_kernel(&sm, &k, 3), 0);
    assert_int_equal(k.warps[0].ready_at, 10);
    sm_free(&sm);
    kern_free(&k);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reserve),
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_warps_share),
        cmocka_unit_test(test_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
