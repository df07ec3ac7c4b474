/* test_cmodel_co.c - the coalesce unit (docs/microarch.md §15) through the top level with the
 * harness's fake PTE memory: COALESCE / SPLINTER sequences, their PTE writes, errors that write
 * nothing, the splinter flush of cached large entries, BUSY and the opcode check, and a
 * coalesce / splinter in one address space while another maps the same region.
 *
 * tb/unit/test_co_lockstep.c includes this file with CO_ATTACH / CO_DETACH defined (and
 * CO_NUM_ASIDS 4): every scenario then also runs the Verilated RTL of configs/asid4.cfg in
 * lock-step with the model, output ports compared every cycle (make test-co-lockstep). */
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

#ifndef CO_ATTACH
#define CO_NUM_ASIDS 1
#define CO_ATTACH(h) ((void)(h))
#define CO_DETACH(h) ((void)(h))
#endif

static void setup_asids(th_t *h, uint32_t num_asids) {
    gmmu_params_t p;
    th_params_tiny(&p);
    p.num_asids = num_asids;
    th_init(h, &p);
    CO_ATTACH(h);
    th_setup(h, 0x100000, 0x800000, 16);
}

static void setup(th_t *h) {
    setup_asids(h, CO_NUM_ASIDS);
}

static void done(th_t *h) {
    CO_DETACH(h);
    th_done(h);
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
    done(&h);
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
    done(&h);
    setup(&h);
    th_map(&h, RVPN(0) + (1ull << 9), 0x1234, PTE_VW); /* the region's path is absent */
    expect_refused(&h, GMMU_CMD_COALESCE, GMMU_CO_NOT_MAPPED);
    expect_refused(&h, GMMU_CMD_SPLINTER, GMMU_CO_NOT_MAPPED);
    done(&h);
}

static void test_coalesce_not_contig(void **state) {
    (void)state;
    th_t h;
    setup(&h);
    map_region(&h, PTE_VW);
    th_mem_write(&h, th_pte_addr(&h, RVPN(300), 3), ((FRAME + 301) << GMMU_PTE_PPN_LSB) | PTE_VW);
    expect_refused(&h, GMMU_CMD_COALESCE, GMMU_CO_NOT_CONTIG);
    done(&h);
    setup(&h);
    map_region(&h, PTE_VW);
    th_mem_write(&h, th_pte_addr(&h, RVPN(7), 3), ((FRAME + 7) << GMMU_PTE_PPN_LSB) | B(0));
    expect_refused(&h, GMMU_CMD_COALESCE, GMMU_CO_NOT_CONTIG); /* W differs */
    done(&h);
    setup(&h); /* one page remote (docs/microarch.md §17): apertures differ */
    map_region(&h, PTE_VW);
    th_mem_write(&h, th_pte_addr(&h, RVPN(511), 3),
                 ((FRAME + 511) << GMMU_PTE_PPN_LSB) | PTE_VW | B(GMMU_PTE_APER));
    expect_refused(&h, GMMU_CMD_COALESCE, GMMU_CO_NOT_CONTIG);
    done(&h);
    setup(&h); /* every page remote: coalesced, the large translation is remote */
    map_region(&h, PTE_VW | B(GMMU_PTE_APER));
    assert_int_equal(run_cmd(&h, GMMU_CMD_COALESCE), GMMU_CO_OK);
    th_miss_t r;
    run_miss(&h, 0, RVPN(0x40), 1, &r);
    assert_int_equal(h.ev_count[GMMU_EV_WALK_LARGE], 1u);
    assert_int_equal(r.ppn, FRAME + 0x40);
    assert_int_equal(r.sys, 1);
    done(&h);
    setup(&h);
    for (unsigned i = 0; i < 512; i++) /* contiguous but not 2 MB aligned */
        th_map(&h, RVPN(i), FRAME + 1 + i, PTE_VW);
    expect_refused(&h, GMMU_CMD_COALESCE, GMMU_CO_NOT_CONTIG);
    done(&h);
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
    done(&h);
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
    done(&h);
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
    done(&h);
}

/* a request in address space asid on (sm, port 0); runs until it completes */
static th_miss_t miss_asid(th_t *h, uint32_t sm, uint32_t asid, uint64_t vpn, uint8_t id) {
    for (unsigned i = 0; i < 200 && !h->out.req_ready[sm]; i++)
        th_step(h);
    h->in.req_asid[sm][0] = (uint8_t)asid;
    th_miss_t r;
    run_miss(h, sm, vpn, id, &r);
    return r;
}

/* COALESCE / SPLINTER of the region in address space asid (CMD_ARG_HI.ASID), polled to the end */
static unsigned run_cmd_asid(th_t *h, uint32_t op, uint32_t asid) {
    th_csr_write(h, GMMU_CSR_CMD_ARG_LO, (uint32_t)RVPN(0x17));
    th_csr_write(h, GMMU_CSR_CMD_ARG_HI, asid << GMMU_CSR_CMD_ARG_HI_ASID_LSB);
    th_csr_write(h, GMMU_CSR_CMD, op);
    uint32_t st;
    do
        st = th_csr_read(h, GMMU_CSR_CMD_STATUS);
    while (st & STATUS_BUSY);
    return (st >> GMMU_CSR_CMD_STATUS_CO_ERR_LSB) & GMMU_CSR_CMD_STATUS_CO_ERR_MASK;
}

/* ASID 0 and ASID 1 map the same region onto different frames; ASID 1 is coalesced and then
 * splintered: ASID 0 keeps its base translations (its cached entries survive the splinter's
 * flush, which is scoped to ASID 1), ASID 1 goes large and back (§14.4, §15.4) */
static void test_coalesce_asid_mix(void **state) {
    (void)state;
    th_t h;
    setup_asids(&h, 4);
    map_region(&h, PTE_VW); /* ASID 0: FRAME + i */
    th_csr_write(&h, GMMU_CSR_ASID_SEL, 1);
    th_csr_write(&h, GMMU_CSR_PT_BASE_LO, 0x300000);
    th_csr_write(&h, GMMU_CSR_PT_BASE_HI, 0);
    th_csr_write(&h, GMMU_CSR_ASID_SEL, 0);
    h.pt_base = 0x300000;
    const uint64_t frame1 = FRAME + 0x400;
    for (unsigned i = 0; i < 512; i++) /* ASID 1: frame1 + i */
        th_map(&h, RVPN(i), frame1 + i, PTE_VW);
    assert_int_equal(miss_asid(&h, 0, 0, RVPN(5), 1).ppn, FRAME + 5);
    assert_int_equal(miss_asid(&h, 0, 1, RVPN(5), 2).ppn, frame1 + 5);
    assert_int_equal(run_cmd_asid(&h, GMMU_CMD_COALESCE, 1), GMMU_CO_OK);
    assert_true(th_mem_read(&h, th_pte_addr(&h, RVPN(0), 2)) & B(GMMU_PTE_L)); /* ASID 1's */
    assert_int_equal(miss_asid(&h, 0, 1, RVPN(0x80), 3).ppn, frame1 + 0x80);
    assert_int_equal(h.ev_count[GMMU_EV_WALK_LARGE], 1u);
    assert_int_equal(miss_asid(&h, 0, 0, RVPN(0x80), 4).ppn, FRAME + 0x80); /* base walk */
    assert_int_equal(h.ev_count[GMMU_EV_WALK_LARGE], 1u);
    assert_int_equal(miss_asid(&h, 1, 1, RVPN(0x90), 5).ppn, frame1 + 0x90); /* L2 large hit */
    assert_int_equal(h.ev_count[GMMU_EV_L2_LARGE_HIT], 1u);
    assert_int_equal(run_cmd_asid(&h, GMMU_CMD_SPLINTER, 1), GMMU_CO_OK);
    const unsigned walks = h.ev_count[GMMU_EV_WALK];
    th_req(&h, 0, 0, RVPN(0x80), 0, 6); /* ASID 0's base entry survived */
    h.in.req_asid[0][0] = 0;
    th_step(&h);
    assert_int_equal(h.out.hit_valid[0][0], 1);
    assert_int_equal(h.out.hit_ppn[0][0], FRAME + 0x80);
    assert_int_equal(miss_asid(&h, 0, 1, RVPN(0x81), 7).ppn, frame1 + 0x81); /* base walk */
    assert_int_equal(h.ev_count[GMMU_EV_WALK], walks + 1u);
    assert_int_equal(h.ev_count[GMMU_EV_WALK_LARGE], 1u);
    assert_int_equal(gmmu_model_violations(h.m, (char[8]){0}, 8), 0);
    done(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coalesce_ok),
        cmocka_unit_test(test_coalesce_not_mapped),
        cmocka_unit_test(test_coalesce_not_contig),
        cmocka_unit_test(test_splinter_flushes),
        cmocka_unit_test(test_splinter_walk_in_flight),
        cmocka_unit_test(test_busy_and_opcodes),
        cmocka_unit_test(test_coalesce_asid_mix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
