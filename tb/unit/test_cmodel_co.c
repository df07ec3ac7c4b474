/* test_cmodel_co.c - the coalesce unit (docs/microarch.md §15) through the top level with the
 * harness's fake PTE memory: COALESCE / SPLINTER sequences, their PTE writes, errors that write
 * nothing, the splinter flush of cached large entries, BUSY and the opcode check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_cmodel_harness.h"

#define B(n) (1ull << (n))
#define PTE_VW (B(GMMU_PTE_V) | B(GMMU_PTE_W))
#define REGION 0x2345ull
#define RVPN(i) ((REGION << 9) | (uint64_t)(i))
#define FRAME 0x40000ull /* 2 MB aligned PPN */
#define STATUS_BUSY B(GMMU_BIT_CMD_STATUS_BUSY)

static void setup(th_t *h) {
    gmmu_params_t p;
    th_params_tiny(&p);
    th_init(h, &p);
    th_setup(h, 0x100000, 0x800000, 16);
}

/* the region mapped page by page onto FRAME + i */
static void map_region(th_t *h, uint64_t flags) {
    for (unsigned i = 0; i < 512; i++)
        th_map(h, RVPN(i), FRAME + i, flags);
}

/* Issues op for the region and polls CMD_STATUS until BUSY clears; returns CO_ERR. */
static unsigned run_cmd(th_t *h, uint32_t op) {
    th_cmd(h, op, RVPN(0x17));
    for (int i = 0; i < 200000; i++) {
        const uint32_t st = th_csr_read(h, GMMU_CSR_CMD_STATUS);
        if (!(st & STATUS_BUSY))
            return (st >> GMMU_CSR_CMD_STATUS_CO_ERR_LSB) & GMMU_CSR_CMD_STATUS_CO_ERR_MASK;
    }
    fail_msg("CMD_STATUS.BUSY never cleared");
    return 99;
}

static long run_miss(th_t *h, uint32_t sm, uint64_t vpn, uint8_t id, th_miss_t *res) {
    assert_int_equal(h->out.req_ready[sm], 1);
    const uint64_t t0 = h->cycle;
    const unsigned n0 = h->nmiss;
    th_req(h, sm, 0, vpn, 0, id);
    th_step(h);
    for (int i = 0; i < 2000 && h->nmiss == n0; i++)
        th_step(h);
    assert_int_equal(h->nmiss, n0 + 1);
    *res = h->miss[n0];
    return (long)(res->cycle - t0);
}

static void snapshot(const th_t *h, uint64_t *v, unsigned *n) {
    *n = h->nmem;
    memcpy(v, h->mem_val, h->nmem * sizeof(v[0]));
}

static void test_coalesce_ok(void **state) {
    (void)state;
    th_t h;
    setup(&h);
    map_region(&h, PTE_VW);
    /* a base translation cached before the coalesce stays (and stays correct) */
    th_miss_t r;
    run_miss(&h, 0, RVPN(5), 1, &r);
    assert_int_equal(r.ppn, FRAME + 5);
    const unsigned reads0 = h.mem_reqs;
    assert_int_equal(run_cmd(&h, GMMU_CMD_COALESCE), GMMU_CO_OK);
    /* 3 path reads, 512 checks, 512 read-modify-writes, 1 read-modify-write of the level-2 entry */
    assert_int_equal(h.mem_reqs - reads0, 3u + 512u + 512u + 1u);
    assert_int_equal(h.mem_writes, 513u);
    assert_int_equal(h.ev_count[GMMU_EV_PTE_WRITE], 513u);
    assert_int_equal(h.ev_count[GMMU_EV_CO_DONE], 1u);
    for (unsigned i = 0; i < 512; i++)
        assert_int_equal(th_mem_read(&h, th_pte_addr(&h, RVPN(i), 3)),
                         ((FRAME + i) << GMMU_PTE_PPN_LSB) | PTE_VW | B(GMMU_PTE_D));
    const uint64_t l2e = th_mem_read(&h, th_pte_addr(&h, RVPN(0), 2));
    assert_true(l2e & B(GMMU_PTE_L));
    assert_true(l2e & B(GMMU_PTE_V));
    /* the old base entry still hits */
    th_req(&h, 0, 0, RVPN(5), 0, 2);
    th_step(&h);
    assert_int_equal(h.out.hit_valid[0][0], 1);
    assert_int_equal(h.out.hit_ppn[0][0], FRAME + 5);
    /* a new page walks to the large entry, then hits the large arrays */
    run_miss(&h, 0, RVPN(0x1a5), 3, &r);
    assert_int_equal(r.ppn, FRAME + 0x1a5);
    assert_int_equal(h.ev_count[GMMU_EV_WALK_LARGE], 1u);
    th_req(&h, 0, 1, RVPN(0x33), 0, 4);
    th_step(&h);
    assert_int_equal(h.out.hit_valid[0][1], 1);
    assert_int_equal(h.out.hit_ppn[0][1], FRAME + 0x33);
    th_step(&h);
    assert_int_equal(h.ev_count[GMMU_EV_L1_LARGE_HIT], 1u);
    run_miss(&h, 1, RVPN(0x100), 5, &r); /* SM 1: L2 large hit */
    assert_int_equal(r.ppn, FRAME + 0x100);
    assert_int_equal(h.ev_count[GMMU_EV_L2_LARGE_HIT], 1u);
    assert_int_equal(h.ev_count[GMMU_EV_WALK_LARGE], 1u);
    assert_int_equal(gmmu_model_violations(h.m, (char[8]){0}, 8), 0);
    th_done(&h);
}

/* an error is reported and nothing is written */
static void expect_refused(th_t *h, uint32_t op, unsigned err) {
    uint64_t before[TH_MEM_MAX];
    unsigned n;
    snapshot(h, before, &n);
    assert_int_equal(run_cmd(h, op), err);
    assert_int_equal(h->mem_writes, 0);
    assert_int_equal(h->ev_count[GMMU_EV_PTE_WRITE], 0);
    assert_int_equal(h->nmem, n);
    assert_memory_equal(h->mem_val, before, n * sizeof(before[0]));
}

static void test_coalesce_not_mapped(void **state) {
    (void)state;
    th_t h;
    setup(&h);
    map_region(&h, PTE_VW);
    th_mem_write(&h, th_pte_addr(&h, RVPN(511), 3), 0); /* the last page is absent */
    expect_refused(&h, GMMU_CMD_COALESCE, GMMU_CO_NOT_MAPPED);
    th_done(&h);
    setup(&h);
    th_map(&h, RVPN(0) + (1ull << 9), 0x1234, PTE_VW); /* the region's path is absent */
    expect_refused(&h, GMMU_CMD_COALESCE, GMMU_CO_NOT_MAPPED);
    expect_refused(&h, GMMU_CMD_SPLINTER, GMMU_CO_NOT_MAPPED);
    th_done(&h);
}

static void test_coalesce_not_contig(void **state) {
    (void)state;
    th_t h;
    setup(&h);
    map_region(&h, PTE_VW);
    th_mem_write(&h, th_pte_addr(&h, RVPN(300), 3), ((FRAME + 301) << GMMU_PTE_PPN_LSB) | PTE_VW);
    expect_refused(&h, GMMU_CMD_COALESCE, GMMU_CO_NOT_CONTIG);
    th_done(&h);
    setup(&h);
    map_region(&h, PTE_VW);
    th_mem_write(&h, th_pte_addr(&h, RVPN(7), 3), ((FRAME + 7) << GMMU_PTE_PPN_LSB) | B(0));
    expect_refused(&h, GMMU_CMD_COALESCE, GMMU_CO_NOT_CONTIG); /* W differs */
    th_done(&h);
    setup(&h);
    for (unsigned i = 0; i < 512; i++) /* contiguous but not 2 MB aligned */
        th_map(&h, RVPN(i), FRAME + 1 + i, PTE_VW);
    expect_refused(&h, GMMU_CMD_COALESCE, GMMU_CO_NOT_CONTIG);
    th_done(&h);
}

static void test_splinter_flushes(void **state) {
    (void)state;
    th_t h;
    setup(&h);
    map_region(&h, PTE_VW);
    assert_int_equal(run_cmd(&h, GMMU_CMD_COALESCE), GMMU_CO_OK);
    th_miss_t r;
    run_miss(&h, 0, RVPN(0x40), 1, &r); /* large entry in SM 0's L1 and in the L2 */
    assert_int_equal(h.ev_count[GMMU_EV_WALK_LARGE], 1u);
    const unsigned w0 = h.mem_writes;
    assert_int_equal(run_cmd(&h, GMMU_CMD_SPLINTER), GMMU_CO_OK);
    assert_int_equal(h.mem_writes - w0, 513u);
    assert_int_equal(h.ev_count[GMMU_EV_CO_DONE], 2u);
    for (unsigned i = 0; i < 512; i++)
        assert_int_equal(th_mem_read(&h, th_pte_addr(&h, RVPN(i), 3)),
                         ((FRAME + i) << GMMU_PTE_PPN_LSB) | PTE_VW);
    assert_false(th_mem_read(&h, th_pte_addr(&h, RVPN(0), 2)) & B(GMMU_PTE_L));
    /* the large entries are gone from the L1 and the L2: a base walk, then a base L1 hit */
    const unsigned walks = h.ev_count[GMMU_EV_WALK];
    run_miss(&h, 0, RVPN(0x41), 2, &r);
    assert_int_equal(r.ppn, FRAME + 0x41);
    assert_int_equal(h.ev_count[GMMU_EV_WALK], walks + 1u);
    assert_int_equal(h.ev_count[GMMU_EV_WALK_LARGE], 1u);
    run_miss(&h, 1, RVPN(0x40), 3, &r);
    assert_int_equal(h.ev_count[GMMU_EV_WALK], walks + 2u);
    th_req(&h, 0, 0, RVPN(0x41), 0, 4);
    th_step(&h);
    assert_int_equal(h.out.hit_valid[0][0], 1);
    assert_int_equal(h.ev_count[GMMU_EV_L1_LARGE_HIT], 0u);
    th_done(&h);
}

/* a walk of the region in flight across the splinter's L write is restarted by its flush */
static void test_splinter_walk_in_flight(void **state) {
    (void)state;
    th_t h;
    setup(&h);
    map_region(&h, PTE_VW);
    assert_int_equal(run_cmd(&h, GMMU_CMD_COALESCE), GMMU_CO_OK);
    h.mem_lat = 40;
    th_cmd(&h, GMMU_CMD_SPLINTER, RVPN(0));
    for (int i = 0; i < 60; i++) /* the path reads and the L write of the unit */
        th_step(&h);
    th_req(&h, 0, 0, RVPN(0x99), 0, 7);
    th_step(&h);
    for (int i = 0; i < 200000 && (th_csr_read(&h, GMMU_CSR_CMD_STATUS) & STATUS_BUSY); i++)
        ;
    for (int i = 0; i < 400; i++)
        th_step(&h);
    assert_true(h.nmiss >= 1);
    assert_int_equal(h.miss[h.nmiss - 1].ppn, FRAME + 0x99);
    assert_int_equal(h.miss[h.nmiss - 1].fatal, 0);
    assert_int_equal(gmmu_model_violations(h.m, (char[8]){0}, 8), 0);
    th_done(&h);
}

static void test_busy_and_opcodes(void **state) {
    (void)state;
    th_t h;
    setup(&h);
    map_region(&h, PTE_VW);
    th_cmd(&h, GMMU_CMD_COALESCE, RVPN(0));
    th_step(&h);
    assert_true(th_csr_read(&h, GMMU_CSR_CMD_STATUS) & STATUS_BUSY);
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_REPLAY_ALL); /* refused while the unit runs */
    assert_true(th_csr_read(&h, GMMU_CSR_ERR_STATUS) & B(GMMU_ERR_CMD_BUSY));
    assert_int_equal(gmmu_model_quiet(h.m), 0);
    assert_int_equal(h.out.idle, 0);
    while (th_csr_read(&h, GMMU_CSR_CMD_STATUS) & STATUS_BUSY)
        ;
    th_csr_write(&h, GMMU_CSR_ERR_STATUS, 0x1f);
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_SPLINTER + 1u);
    assert_true(th_csr_read(&h, GMMU_CSR_ERR_STATUS) & B(GMMU_ERR_BAD_OPCODE));
    th_done(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coalesce_ok),
        cmocka_unit_test(test_coalesce_not_mapped),
        cmocka_unit_test(test_coalesce_not_contig),
        cmocka_unit_test(test_splinter_flushes),
        cmocka_unit_test(test_splinter_walk_in_flight),
        cmocka_unit_test(test_busy_and_opcodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
