/* test_cmodel_top.c - top level: parameters, reset, idle (§9), events (§10) and the end-to-end
 * timing of a miss through L1, L2 pipeline, MSHR, walker and back (§4-§6). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "test_cmodel_harness.h"

#define EVB(n) (1u << GMMU_EV_##n)
#define PTE_VW ((1u << GMMU_PTE_V) | (1u << GMMU_PTE_W))

static void expect_bad(const gmmu_params_t *p, const char *msg) {
    char err[256] = "";
    assert_int_equal(gmmu_params_check(p, err, sizeof(err)), -1);
    assert_string_equal(err, msg);
    assert_null(gmmu_model_new(p, err, sizeof(err)));
}

static void test_params_check(void **state) {
    (void)state;
    gmmu_params_t p;
    char err[256] = "";
    th_params_tiny(&p);
    assert_int_equal(gmmu_params_check(&p, err, sizeof(err)), 0);
    p.l2_ways = 3;
    expect_bad(&p, "l2_ways: 3 is not a power of two");
    th_params_tiny(&p);
    p.num_sm = 0;
    expect_bad(&p, "num_sm: 0 is out of range 1..32");
    th_params_tiny(&p);
    p.num_sm = 33;
    expect_bad(&p, "num_sm: 33 is out of range 1..32");
    th_params_tiny(&p);
    p.num_ports = 9;
    expect_bad(&p, "num_ports: 9 is out of range 1..8");
    th_params_tiny(&p);
    p.l1_entries = 12;
    expect_bad(&p, "l1_entries: 12 is not a power of two");
    th_params_tiny(&p);
    p.l1_large_entries = 0;
    expect_bad(&p, "l1_large_entries: 0 is not a power of two");
    th_params_tiny(&p);
    p.l1_req_entries = 1;
    expect_bad(&p, "l1_req_entries: 1 is out of range 2..64");
    th_params_tiny(&p);
    p.l1_req_entries = 65;
    expect_bad(&p, "l1_req_entries: 65 is out of range 2..64");
    th_params_tiny(&p);
    p.l2_sets = 6;
    expect_bad(&p, "l2_sets: 6 is not a power of two");
    th_params_tiny(&p);
    p.l2_large_entries = 5;
    expect_bad(&p, "l2_large_entries: 5 is not a power of two");
    th_params_tiny(&p);
    p.l2_latency = 0;
    expect_bad(&p, "l2_latency: 0 is out of range 1..256");
    th_params_tiny(&p);
    p.l2_mshr_entries = 0;
    expect_bad(&p, "l2_mshr_entries: 0 is out of range 1..64");
    th_params_tiny(&p);
    p.num_walkers = 65;
    expect_bad(&p, "num_walkers: 65 is out of range 1..64");
    th_params_tiny(&p);
    p.ff_entries = 0;
    expect_bad(&p, "ff_entries: 0 is out of range 1..256");
    th_params_tiny(&p);
    p.ff_quota = 0;
    expect_bad(&p, "ff_quota: 0 is out of range 1..64");
    th_params_tiny(&p);
    p.acc_entries = 65;
    expect_bad(&p, "acc_entries: 65 is out of range 0..64");
    /* acc_entries 1..64 builds the access-counter unit (docs/microarch.md §19.8) */
    p.acc_entries = 8;
    assert_int_equal(gmmu_params_check(&p, err, sizeof(err)), 0);
    gmmu_model_t *m = gmmu_model_new(&p, err, sizeof(err));
    assert_non_null(m);
    gmmu_model_free(m);
    th_params_tiny(&p);
    p.line_bitmap = 2;
    expect_bad(&p, "line_bitmap: 2 is out of range 0..1");
    /* line_bitmap 1 builds the bitmaps (docs/microarch.md §20) with one address space only */
    p.line_bitmap = 1;
    assert_int_equal(gmmu_params_check(&p, err, sizeof(err)), 0);
    m = gmmu_model_new(&p, err, sizeof(err));
    assert_non_null(m);
    gmmu_model_free(m);
    p.num_asids = 2;
    assert_null(gmmu_model_new(&p, err, sizeof(err)));
    assert_non_null(strstr(err, "line_bitmap: 1 needs num_asids = 1"));
    /* the paper configuration is legal */
    gmmu_params_t paper;
    th_params_paper(&paper);
    assert_int_equal(gmmu_params_check(&paper, err, sizeof(err)), 0);
}

static void test_reset_idle(void **state) {
    (void)state;
    gmmu_params_t p;
    th_params_tiny(&p);
    th_t h;
    th_init(&h, &p);
    gmmu_out_t zero;
    memset(&zero, 0, sizeof(zero));
    zero.req_ready[0] = zero.req_ready[1] = 1;
    zero.idle = 1;
    for (int i = 0; i < 5; i++) {
        assert_memory_equal(&h.out, &zero, sizeof(zero));
        th_step(&h);
    }
    /* a CSR read makes the model busy for exactly the cycle of rvalid */
    h.in.csr_valid = 1;
    h.in.csr_addr = GMMU_CSR_ID;
    th_step(&h);
    assert_int_equal(h.out.idle, 0);
    assert_int_equal(h.out.csr_rvalid, 1);
    assert_int_equal(h.out.csr_rdata, GMMU_CSR_ID_VALUE);
    th_step(&h);
    assert_memory_equal(&h.out, &zero, sizeof(zero));
    th_done(&h);
}

/* Request at cycle t0 on SM 0 port 0, tiny config (Lat 3), memory latency 1:
 *   t0     accepted, entry 0 WAIT              t0+1  granted (INFL), stage 1
 *   t0+4   last stage: miss, MSHR 0 NEED_WALK   t0+5  walker 0 assigned (ev_o L2_MISS)
 *   t0+6   mr loaded (ev_o WALK)                t0+7  read 0 transferred; then every 3 cycles
 *   t0+17  last response: MSHR 0 RESP           t0+18 response selection, rsp_d OK
 *   t0+19  L1 entry DONE, fill                  t0+20 miss_valid_o */
static void test_miss_timeline(void **state) {
    (void)state;
    gmmu_params_t p;
    th_params_tiny(&p);
    th_t h;
    th_init(&h, &p);
    th_setup(&h, 0x100000, 0x800000, 16);
    const uint64_t vpn = 0x123456789ull;
    th_map(&h, vpn, 0xabcde, PTE_VW);
    const uint64_t t0 = h.cycle;
    assert_int_equal(h.out.req_ready[0], 1);
    th_req(&h, 0, 0, vpn, 0, 42);
    th_step(&h);
    unsigned ev_seen[64] = {0};
    while (h.cycle < t0 + 40) {
        ev_seen[h.cycle - t0] = h.out.ev;
        if (h.out.miss_valid[0])
            break;
        th_step(&h);
    }
    assert_int_equal(h.cycle - t0, 20);
    assert_int_equal(h.out.miss_id[0], 42);
    assert_int_equal(h.out.miss_ppn[0], 0xabcde);
    assert_int_equal(h.out.miss_fatal[0], 0);
    assert_int_equal(h.out.idle, 0);
    assert_int_equal(ev_seen[5], EVB(L2_MISS));
    assert_int_equal(ev_seen[6], EVB(WALK));
    for (unsigned i = 0; i < 20; i++)
        if (i != 5 && i != 6)
            assert_int_equal(ev_seen[i], 0);
    assert_int_equal(h.mem_reqs, 4);
    for (unsigned l = 0; l < 4; l++) {
        assert_int_equal(h.mem_req_cycle[l], t0 + 7 + 3 * l);
        assert_int_equal(h.mem_req_addr[l], th_pte_addr(&h, vpn, l));
    }
    th_step(&h);
    assert_int_equal(h.out.miss_valid[0], 0);
    assert_int_equal(h.out.miss_id[0], 0);
    assert_int_equal(h.out.miss_ppn[0], 0);
    assert_int_equal(h.out.idle, 1);
    /* now an L1 hit: the response is in the next cycle, on the same port */
    th_req(&h, 0, 1, vpn, 0, 7);
    th_step(&h);
    assert_int_equal(h.out.hit_valid[0][1], 1);
    assert_int_equal(h.out.hit_id[0][1], 7);
    assert_int_equal(h.out.hit_ppn[0][1], 0xabcde);
    assert_int_equal(h.out.hit_valid[0][0], 0);
    assert_int_equal(h.out.idle, 0);
    th_step(&h);
    assert_int_equal(h.out.hit_valid[0][1], 0);
    assert_int_equal(h.out.hit_ppn[0][1], 0);
    assert_int_equal(h.out.idle, 1);
    /* SM 1 misses in its L1 and hits in the L2: t+1 grant, t+4 last stage hit, t+5 rsp_q,
     * t+6 miss_valid_o, ev_o L2_HIT at t+5 */
    const uint64_t t1 = h.cycle;
    th_req(&h, 1, 0, vpn, 0, 9);
    th_step(&h);
    while (!h.out.miss_valid[1] && h.cycle < t1 + 20) {
        if (h.cycle == t1 + 5)
            assert_int_equal(h.out.ev, EVB(L2_HIT));
        th_step(&h);
    }
    assert_int_equal(h.cycle - t1, 6);
    assert_int_equal(h.out.miss_ppn[1], 0xabcde);
    assert_int_equal(h.mem_reqs, 4);
    th_done(&h);
}

static void run_latency(uint32_t lat, unsigned mem_lat) {
    gmmu_params_t p;
    th_params_tiny(&p);
    p.l2_latency = lat;
    th_t h;
    th_init(&h, &p);
    h.mem_lat = mem_lat;
    th_setup(&h, 0x100000, 0x800000, 16);
    th_map(&h, 0x42, 0x77, PTE_VW);
    const uint64_t t0 = h.cycle;
    th_req(&h, 0, 0, 0x42, 0, 1);
    th_step(&h);
    while (!h.out.miss_valid[0] && h.cycle < t0 + 200)
        th_step(&h);
    /* first read transferred at t0+Lat+4, then one every mem_lat+2 cycles; the last response
     * at t0+Lat+4+3(mem_lat+2)+mem_lat, then RESP, rsp_q, DONE, miss_valid_o */
    assert_int_equal(h.cycle - t0, lat + 4 + 3 * (mem_lat + 2) + mem_lat + 3);
    assert_int_equal(h.mem_req_cycle[0], t0 + lat + 4);
    th_done(&h);
}

static void test_l2_latency_exact(void **state) {
    (void)state;
    run_latency(1, 1);
    run_latency(3, 1);
    run_latency(10, 1);
    run_latency(2, 5);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params_check),
        cmocka_unit_test(test_reset_idle),
        cmocka_unit_test(test_miss_timeline),
        cmocka_unit_test(test_l2_latency_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
