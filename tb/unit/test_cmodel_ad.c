/* test_cmodel_ad.c - accessed and dirty bits (docs/microarch.md §18) through the top level of the
 * C model with ad_bits = 1 and a fake PTE memory: ACC set on the first access and DRT on the first
 * write by one set-bits write then a re-read of the leaf; a clean translation is cached read-only
 * so a write to it (L1 hit and L2 hit) walks again and sets DRT; bits already set cost nothing;
 * a large page's A/D live in entry 0; a host clear between the write and the re-read makes the
 * walker write again; the set-bits write ORs (never clears, never changes another bit). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_cmodel_harness.h"

#define B(n) (UINT64_C(1) << (n))
#define PTE_VW (B(GMMU_PTE_V) | B(GMMU_PTE_W))
#define AD (B(GMMU_PTE_ACC) | B(GMMU_PTE_DRT))

static void setup(th_t *h, uint32_t ad) {
    gmmu_params_t p;
    th_params_tiny(&p);
    p.ad_bits = ad;
    th_init(h, &p);
    th_setup(h, 0x100000, 0x800000, 16);
}

/* Presents a request and runs until SM sm completes it. */
static void run_miss(th_t *h, uint32_t sm, uint64_t vpn, int write, uint8_t id, th_miss_t *res) {
    assert_int_equal(h->out.req_ready[sm], 1);
    const unsigned n0 = h->nmiss;
    th_req(h, sm, 0, vpn, write, id);
    th_step(h);
    memset(h->in.req_valid, 0, sizeof(h->in.req_valid));
    for (int i = 0; i < 2000 && h->nmiss == n0; i++)
        th_step(h);
    assert_int_equal(h->nmiss, n0 + 1);
    *res = h->miss[n0];
    assert_int_equal(res->id, id);
}

/* one cycle's request on (sm, 0): 1 if it hit in the L1 */
static int l1_hit(th_t *h, uint32_t sm, uint64_t vpn, int write, uint8_t id) {
    th_req(h, sm, 0, vpn, write, id);
    th_step(h);
    memset(h->in.req_valid, 0, sizeof(h->in.req_valid));
    const int hit = h->out.hit_valid[sm][0];
    assert_true(th_run_until_idle(h, 500) >= 0);
    return hit;
}

static void test_first_access_and_write(void **state) {
    (void)state;
    th_t h;
    setup(&h, 1);
    const uint64_t leaf = th_map(&h, 0x333, 0x444, PTE_VW | B(11)); /* bit 11: must be kept */
    th_miss_t r;
    run_miss(&h, 0, 0x333, 0, 1, &r);
    assert_int_equal(r.ppn, 0x444);
    assert_int_equal(h.mem_writes, 1); /* ACC only */
    assert_int_equal(h.mem_reqs, 5);   /* 4 reads + the re-read */
    assert_int_equal(h.mem_req_addr[4], leaf);
    assert_int_equal(th_mem_read(&h, leaf), (0x444ull << 12) | PTE_VW | B(11) | B(GMMU_PTE_ACC));
    assert_int_equal(h.ev_count[GMMU_EV_PTE_WRITE], 1);
    /* read hit; a write to the clean cached page misses in the L1, then in the L2, walks and
     * sets DRT */
    assert_int_equal(l1_hit(&h, 0, 0x333, 0, 2), 1);
    run_miss(&h, 0, 0x333, 1, 3, &r);
    assert_int_equal(r.ppn, 0x444);
    assert_int_equal(h.mem_writes, 2);
    assert_int_equal(h.mem_reqs, 10);
    assert_int_equal(th_mem_read(&h, leaf), (0x444ull << 12) | PTE_VW | B(11) | AD);
    /* now cached writable: write and read hit, no walk */
    assert_int_equal(l1_hit(&h, 0, 0x333, 1, 4), 1);
    assert_int_equal(l1_hit(&h, 0, 0x333, 0, 5), 1);
    assert_int_equal(h.mem_reqs, 10);
    th_done(&h);
}

/* a write first: one set-bits write sets both; bits already set: no write, no re-read; the L2
 * holds a clean translation: SM 1's write misses it and walks */
static void test_write_first_and_l2(void **state) {
    (void)state;
    th_t h;
    setup(&h, 1);
    const uint64_t a = th_map(&h, 0x10, 0x50, PTE_VW);
    const uint64_t b = th_map(&h, 0x11, 0x51, PTE_VW | AD);
    const uint64_t c = th_map(&h, 0x12, 0x52, PTE_VW);
    th_miss_t r;
    run_miss(&h, 0, 0x10, 1, 1, &r);
    assert_int_equal(h.mem_writes, 1);
    assert_int_equal(th_mem_read(&h, a) & AD, AD);
    run_miss(&h, 0, 0x11, 1, 2, &r);
    assert_int_equal(h.mem_writes, 1);
    assert_int_equal(h.mem_reqs, 5 + 4);
    (void)b;
    run_miss(&h, 0, 0x12, 0, 3, &r); /* SM 0 reads: clean, in the L2 */
    assert_int_equal(h.mem_writes, 2);
    const unsigned reqs = h.mem_reqs;
    run_miss(&h, 1, 0x12, 0, 4, &r); /* SM 1 read: L2 hit, no walk */
    assert_int_equal(h.mem_reqs, reqs);
    run_miss(&h, 1, 0x12, 1, 5, &r); /* SM 1 write: the clean L2 entry does not serve it */
    assert_int_equal(h.mem_writes, 3);
    assert_true(h.mem_reqs > reqs);
    assert_int_equal(th_mem_read(&h, c) & AD, AD);
    th_done(&h);
}

/* large page: entry 0 of the level-3 table carries A/D for the whole 2 MB */
static void test_large_entry0(void **state) {
    (void)state;
    th_t h;
    setup(&h, 1);
    const uint64_t t = th_map_large(&h, 0x1000, 0x200, PTE_VW);
    th_miss_t r;
    run_miss(&h, 0, 0x1005, 0, 1, &r);
    assert_int_equal(r.ppn, 0x205);
    assert_int_equal(th_mem_read(&h, t) & AD, B(GMMU_PTE_ACC));
    assert_int_equal(th_mem_read(&h, t + 8 * 5) & AD, 0);
    run_miss(&h, 0, 0x1007, 1, 2, &r);
    assert_int_equal(r.ppn, 0x207);
    assert_int_equal(th_mem_read(&h, t) & AD, AD);
    assert_int_equal(h.mem_writes, 2);
    th_done(&h);
}

/* the host clears ACC between the walker's write and its re-read: the walker writes again */
static void test_host_clear_in_flight(void **state) {
    (void)state;
    th_t h;
    setup(&h, 1);
    const uint64_t leaf = th_map(&h, 0x77, 0x88, PTE_VW);
    th_req(&h, 0, 0, 0x77, 0, 1);
    th_step(&h);
    memset(h.in.req_valid, 0, sizeof(h.in.req_valid));
    int cleared = 0;
    for (int i = 0; i < 400 && h.nmiss == 0; i++) {
        th_step(&h);
        if (!cleared && h.mem_writes == 1) {
            th_mem_write(&h, leaf, th_mem_read(&h, leaf) & ~B(GMMU_PTE_ACC));
            cleared = 1;
        }
    }
    assert_int_equal(h.nmiss, 1);
    assert_int_equal(h.mem_writes, 2);
    assert_int_equal(th_mem_read(&h, leaf) & AD, B(GMMU_PTE_ACC));
    th_done(&h);
}

/* ad_bits = 0: the walker never writes, a read translation of a W page is writable */
static void test_disabled(void **state) {
    (void)state;
    th_t h;
    setup(&h, 0);
    const uint64_t leaf = th_map(&h, 0x333, 0x444, PTE_VW);
    th_miss_t r;
    run_miss(&h, 0, 0x333, 0, 1, &r);
    assert_int_equal(l1_hit(&h, 0, 0x333, 1, 2), 1);
    assert_int_equal(h.mem_writes, 0);
    assert_int_equal(h.mem_reqs, 4);
    assert_int_equal(th_mem_read(&h, leaf), (0x444ull << 12) | PTE_VW);
    th_done(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_access_and_write),
        cmocka_unit_test(test_write_first_and_l2),
        cmocka_unit_test(test_large_entry0),
        cmocka_unit_test(test_host_clear_in_flight),
        cmocka_unit_test(test_disabled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
