/* test_cmodel_ptw.c - page-table walkers (docs/microarch.md §6) through the top level with a
 * fake PTE memory: walks, large pages, disabled bit, faults, poison restart, back-pressure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_cmodel_harness.h"

#define B(n) (1u << (n))
#define PTE_VW (B(GMMU_PTE_V) | B(GMMU_PTE_W))

static void setup(th_t *h) {
    gmmu_params_t p;
    th_params_tiny(&p);
    th_init(h, &p);
    th_setup(h, 0x100000, 0x800000, 16);
}

/* Presents a request and runs until SM sm completes it; returns the cycles it took. */
static long run_miss(th_t *h, uint32_t sm, uint64_t vpn, int write, uint8_t id, th_miss_t *res) {
    assert_int_equal(h->out.req_ready[sm], 1);
    const uint64_t t0 = h->cycle;
    const unsigned n0 = h->nmiss;
    th_req(h, sm, 0, vpn, write, id);
    th_step(h);
    for (int i = 0; i < 2000 && h->nmiss == n0; i++) {
        if (h->out.miss_valid[sm]) {
            th_step(h); /* logged by th_step */
            break;
        }
        th_step(h);
    }
    assert_int_equal(h->nmiss, n0 + 1);
    *res = h->miss[n0];
    assert_int_equal(res->id, id);
    return (long)(res->cycle - t0);
}

static void test_walk_addresses(void **state) {
    (void)state;
    th_t h;
    setup(&h);
    const uint64_t vpn = (0x1aull << 27) | (0x0bull << 18) | (0x1c3ull << 9) | 0x77;
    th_map(&h, vpn, 0xfeedf, PTE_VW);
    th_miss_t r;
    assert_int_equal(run_miss(&h, 0, vpn, 1, 3, &r), 20);
    assert_int_equal(r.ppn, 0xfeedf);
    assert_int_equal(r.fatal, 0);
    assert_int_equal(h.mem_reqs, 4);
    assert_int_equal(h.mem_req_addr[0], 0x100000 + 8 * 0x1a);
    assert_int_equal(h.mem_req_addr[1],
                     (th_mem_read(&h, h.mem_req_addr[0]) & ~0xfffull) + 8 * 0x0b);
    assert_int_equal(h.mem_req_addr[3], th_pte_addr(&h, vpn, 3));
    assert_int_equal(h.mem_req_addr[3] & 0xfff, 8 * 0x77);
    th_done(&h);
}

static void test_large_page(void **state) {
    (void)state;
    th_t h;
    setup(&h);
    const uint64_t vpn = 0x2345ull << 9 | 0x1a5;                      /* region 0x2345 */
    const uint64_t t = th_map_large(&h, vpn, 0x40000, B(GMMU_PTE_V)); /* read-only 2 MB page */
    th_mem_write(&h, t + 8 * 0x1a5, 0xdead000ull | PTE_VW);           /* must not be read */
    th_miss_t r;
    assert_int_equal(run_miss(&h, 0, vpn, 0, 1, &r), 20);
    assert_int_equal(r.ppn, 0x40000 | 0x1a5);
    assert_int_equal(h.mem_reqs, 4);
    assert_int_equal(h.mem_req_addr[3], t); /* entry 0 of the level-3 table */
    /* another page of the region: L1 large hit, next cycle */
    th_req(&h, 0, 1, (0x2345ull << 9) | 0x3, 0, 2);
    th_step(&h);
    assert_int_equal(h.out.hit_valid[0][1], 1);
    assert_int_equal(h.out.hit_ppn[0][1], 0x40003);
    /* SM 1: L2 large hit (no walk) */
    assert_int_equal(run_miss(&h, 1, (0x2345ull << 9) | 0x100, 0, 4, &r), 6);
    assert_int_equal(r.ppn, 0x40100);
    assert_int_equal(h.mem_reqs, 4);
    /* a write to the read-only large page walks and faults (RO violation) */
    th_req(&h, 1, 0, (0x2345ull << 9) | 0x100, 1, 5);
    th_step(&h);
    assert_true(th_run_until_idle(&h, 200) > 0);
    assert_int_equal(h.mem_reqs, 8);
    assert_int_equal(h.nfb, 1);
    assert_int_equal(h.fb[0].data[GMMU_FB_W7_FLAGS] & 0x1f, GMMU_FT_RO_VIOLATION);
    th_done(&h);
}

static void test_disabled_bit_nocache(void **state) {
    (void)state;
    th_t h;
    setup(&h);
    th_map(&h, 0x333, 0x444, PTE_VW | B(GMMU_PTE_D));
    th_miss_t r;
    assert_int_equal(run_miss(&h, 0, 0x333, 0, 1, &r), 20);
    assert_int_equal(r.ppn, 0x444);
    /* not cached in L1 nor L2: the next request walks again, same timing */
    assert_int_equal(run_miss(&h, 0, 0x333, 0, 2, &r), 20);
    assert_int_equal(h.mem_reqs, 8);
    /* the D bit of a large page's entry 0 is ignored: cached */
    th_map_large(&h, 0x1000, 0x200, PTE_VW | B(GMMU_PTE_D));
    assert_int_equal(run_miss(&h, 0, 0x1001, 0, 3, &r), 20);
    th_req(&h, 0, 0, 0x1002, 0, 4);
    th_step(&h);
    assert_int_equal(h.out.hit_valid[0][0], 1);
    assert_int_equal(h.out.hit_ppn[0][0], 0x202);
    th_done(&h);
}

/* The aperture (§17): sys = the APER bit of the leaf PTE that gives the PPN, carried through the
 * walk, the L2 and L1 fills and hits (base and large), kept by a nocache walk, changed by a PTE
 * change + INVAL_PAGE; never from a level 0-2 entry. */
static void test_aperture(void **state) {
    (void)state;
    th_t h;
    setup(&h);
    th_miss_t r;
    th_map(&h, 0x333, 0x444, PTE_VW | B(GMMU_PTE_APER)); /* remote */
    th_map(&h, 0x334, 0x445, PTE_VW);                    /* local, same level-3 table */
    assert_int_equal(run_miss(&h, 0, 0x333, 0, 1, &r), 20);
    assert_int_equal(r.ppn, 0x444);
    assert_int_equal(r.sys, 1);
    assert_int_equal(run_miss(&h, 0, 0x334, 0, 2, &r), 20);
    assert_int_equal(r.sys, 0);
    /* L1 hits on both ports: the payload's sys */
    th_req(&h, 0, 0, 0x334, 0, 3);
    th_req(&h, 0, 1, 0x333, 1, 4);
    th_step(&h);
    memset(h.in.req_valid, 0, sizeof(h.in.req_valid));
    assert_int_equal(h.out.hit_valid[0][0], 1);
    assert_int_equal(h.out.hit_sys[0][0], 0);
    assert_int_equal(h.out.hit_valid[0][1], 1);
    assert_int_equal(h.out.hit_ppn[0][1], 0x444);
    assert_int_equal(h.out.hit_sys[0][1], 1);
    th_step(&h);
    assert_int_equal(h.out.hit_sys[0][1], 0); /* 0 when not valid */
    /* SM 1: L2 base hit */
    assert_int_equal(run_miss(&h, 1, 0x333, 0, 5, &r), 6);
    assert_int_equal(r.sys, 1);
    /* large remote page: entry 0's APER; the L1 large hit and the L2 large hit carry it */
    th_map_large(&h, 0x1000, 0x200, PTE_VW | B(GMMU_PTE_APER));
    assert_int_equal(run_miss(&h, 0, 0x1001, 0, 6, &r), 20);
    assert_int_equal(r.ppn, 0x201);
    assert_int_equal(r.sys, 1);
    th_req(&h, 0, 0, 0x1002, 0, 7);
    th_step(&h);
    memset(h.in.req_valid, 0, sizeof(h.in.req_valid));
    assert_int_equal(h.out.hit_valid[0][0], 1);
    assert_int_equal(h.out.hit_sys[0][0], 1);
    assert_int_equal(run_miss(&h, 1, 0x1003, 0, 8, &r), 6);
    assert_int_equal(r.sys, 1);
    /* APER of the level-2 entry (with L) is not the aperture: entry 0's is */
    th_map_large(&h, 0x3000, 0x400, PTE_VW);
    const uint64_t l2e = th_pte_addr(&h, 0x3000, 2);
    th_mem_write(&h, l2e, th_mem_read(&h, l2e) | B(GMMU_PTE_APER));
    assert_int_equal(run_miss(&h, 1, 0x3005, 0, 11, &r), 20);
    assert_int_equal(r.ppn, 0x405);
    assert_int_equal(r.sys, 0);
    /* nocache remote page: sys on every walk */
    th_map(&h, 0x2000, 0x99, PTE_VW | B(GMMU_PTE_D) | B(GMMU_PTE_APER));
    assert_int_equal(run_miss(&h, 1, 0x2000, 0, 9, &r), 20);
    assert_int_equal(r.sys, 1);
    /* aperture change (remote -> local migration): PTE rewritten, INVAL_PAGE, re-walk */
    const uint64_t a = th_map(&h, 0x333, 0x777, PTE_VW);
    assert_int_equal(th_mem_read(&h, a) & B(GMMU_PTE_APER), 0);
    th_cmd(&h, GMMU_CMD_INVAL_PAGE, 0x333);
    th_steps(&h, 2);
    const unsigned reqs = h.mem_reqs;
    assert_int_equal(run_miss(&h, 1, 0x333, 0, 10, &r), 20);
    assert_int_equal(r.ppn, 0x777);
    assert_int_equal(r.sys, 0);
    assert_int_equal(h.mem_reqs, reqs + 4);
    th_done(&h);
}

/* Fault entry flags word for a fault of type ft by SM sm */
static uint32_t flags(uint32_t ft, uint32_t sm, int write) {
    return ft | B(GMMU_FB_F_REPLAYABLE) | sm << GMMU_FB_F_CLIENT_LSB |
           (write ? GMMU_AT_WRITE : GMMU_AT_READ) << GMMU_FB_F_ACCESS_LSB | B(GMMU_FB_F_VALID);
}

static void fault_case(uint64_t vpn, int write, unsigned reads, uint32_t ft, int setup_kind) {
    th_t h;
    setup(&h);
    if (setup_kind == 1) /* RO page */
        th_map(&h, vpn, 0x55, B(GMMU_PTE_V));
    else if (setup_kind == 2) /* level-1 entry missing: level 0 exists, points to an empty table */
        th_pte_addr(&h, vpn, 1);
    else if (setup_kind == 3) /* leaf invalid */
        th_map(&h, vpn, 0x55, B(GMMU_PTE_W));
    const uint64_t t0 = h.cycle;
    th_req(&h, 1, 1, vpn, write, 9);
    th_step(&h);
    while (h.nfb == 0 && h.cycle < t0 + 200)
        th_step(&h);
    assert_int_equal(h.nfb, 1);
    assert_int_equal(h.mem_reqs, reads);
    /* the last read at t0+7+3(reads-1), its response 1 later, RESP, then response selection
     * offers it into the far-fault unit's offer register, processed (a post) one cycle later,
     * fw_valid_q one cycle after that, transferred that cycle (§7) */
    assert_int_equal(h.fb[0].cycle, t0 + 7 + 3 * (reads - 1) + 1 + 3);
    assert_int_equal(h.fb[0].addr, 0x800000);
    assert_int_equal(h.fb[0].data[GMMU_FB_W2_VPN_LO], (uint32_t)vpn);
    assert_int_equal(h.fb[0].data[GMMU_FB_W3_VPN_HI], (uint32_t)(vpn >> 32));
    assert_int_equal(h.fb[0].data[GMMU_FB_W6_SM_MASK], 2);
    assert_int_equal(h.fb[0].data[GMMU_FB_W7_FLAGS], flags(ft, 1, write));
    assert_int_equal(h.fb[0].data[0], 0);
    assert_int_equal(h.fb[0].data[1], 0);
    /* the SM is Nacked: nothing completes, the model becomes idle (NACK entries do not count) */
    assert_true(th_run_until_idle(&h, 50) > 0);
    assert_int_equal(h.nmiss, 0);
    th_done(&h);
}

static void test_faults(void **state) {
    (void)state;
    fault_case(0x12345, 1, 4, GMMU_FT_RO_VIOLATION, 1);
    fault_case(0xf12345678ull, 0, 1, GMMU_FT_PDE, 0); /* empty root: PDE at level 0 */
    fault_case(0x2345678, 0, 2, GMMU_FT_PDE, 2);
    fault_case(0x777, 1, 4, GMMU_FT_PTE, 3);
}

static void test_poison_restart(void **state) {
    (void)state;
    th_t h;
    setup(&h);
    h.mem_lat = 40;
    th_map(&h, 0x600, 0x66, PTE_VW);
    th_map(&h, 0x900, 0x99, PTE_VW); /* another region */
    th_req(&h, 0, 0, 0x600, 0, 1);
    th_req(&h, 0, 1, 0x900, 0, 2);
    th_step(&h);
    th_steps(&h, 15); /* both walkers wait for their level-0 read */
    assert_int_equal(h.mem_reqs, 2);
    /* page flush of a page in 0x600's region (0x7ff): walker of 0x600 poisoned */
    th_cmd(&h, GMMU_CMD_INVAL_PAGE, 0x7ff);
    unsigned restarts = 0;
    for (int i = 0; i < 1000 && h.nmiss < 2; i++) {
        th_step(&h);
        restarts += (h.out.ev >> GMMU_EV_WALK_RESTART) & 1u;
    }
    assert_int_equal(h.nmiss, 2);
    assert_int_equal(restarts, 1);
    /* 4 reads for 0x900, 1 poisoned + 4 for 0x600 */
    assert_int_equal(h.mem_reqs, 9);
    assert_int_equal(h.mem_req_addr[2], h.mem_req_addr[0]); /* restart at level 0 */
    assert_int_equal(h.miss[0].ppn, 0x99);
    assert_int_equal(h.miss[1].ppn, 0x66);
    /* full flush while waiting: every walk restarts */
    th_map(&h, 0xa00, 0xaa, PTE_VW);
    th_req(&h, 0, 0, 0xa00, 0, 3);
    th_step(&h);
    th_steps(&h, 15);
    th_cmd(&h, GMMU_CMD_INVAL_ALL, 0);
    restarts = 0;
    for (int i = 0; i < 1000 && h.nmiss < 3; i++) {
        th_step(&h);
        restarts += (h.out.ev >> GMMU_EV_WALK_RESTART) & 1u;
    }
    assert_int_equal(restarts, 1);
    assert_int_equal(h.miss[2].ppn, 0xaa);
    th_done(&h);
}

static void test_mem_backpressure(void **state) {
    (void)state;
    th_t h;
    setup(&h);
    th_map(&h, 0x10, 0x1, PTE_VW);
    th_map(&h, 0x20, 0x2, PTE_VW);
    h.mem_ready = 0;
    const uint64_t t0 = h.cycle;
    th_req(&h, 0, 0, 0x10, 0, 1);
    th_req(&h, 0, 1, 0x20, 0, 2);
    th_step(&h);
    th_steps(&h, 30);
    /* the request register holds walker 0's read; walker 1 waits in ISSUE */
    assert_int_equal(h.out.mem_req_valid, 1);
    assert_int_equal(h.out.mem_req_id, 0);
    assert_int_equal(h.out.mem_req_addr, th_pte_addr(&h, 0x10, 0));
    assert_int_equal(h.mem_reqs, 0);
    h.mem_ready = 1;
    th_step(&h);
    /* transferred; the same edge loads walker 1's read (mr_free = ready) */
    assert_int_equal(h.out.mem_req_valid, 1);
    assert_int_equal(h.out.mem_req_id, 1);
    th_step(&h);
    assert_int_equal(h.mem_reqs, 2);
    assert_int_equal(h.mem_req_cycle[0], t0 + 31);
    /* after a transfer with nothing to load, valid drops but addr / id hold */
    assert_int_equal(h.out.mem_req_valid, 0);
    assert_int_equal(h.out.mem_req_id, 1);
    assert_int_equal(h.out.mem_req_addr, th_pte_addr(&h, 0x20, 0));
    while (h.nmiss < 2 && h.cycle < t0 + 200)
        th_step(&h);
    assert_int_equal(h.nmiss, 2);
    th_done(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_addresses),   cmocka_unit_test(test_large_page),
        cmocka_unit_test(test_aperture),         cmocka_unit_test(test_disabled_bit_nocache),
        cmocka_unit_test(test_faults),           cmocka_unit_test(test_poison_restart),
        cmocka_unit_test(test_mem_backpressure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
