/*
 * test_cmodel_asid.c - address spaces (docs/microarch.md §14) through the C model's top level:
 * the page-table-base table behind ASID_SEL, walks from the request's ASID's root, ASID-tagged
 * L1 / L2 entries (an ASID mix in one L2 set), invalidation by (ASID, page) and by ASID (also
 * during walks), and the fault entry / page commands per (ASID, page).
 *
 * tb/unit/test_asid_lockstep.c includes this file with ASID_ATTACH / ASID_DETACH defined: every
 * scenario then also runs the Verilated RTL (configs/asid4.cfg) in lock-step with the model,
 * output ports compared every cycle (make test-asid-lockstep).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "test_cmodel_harness.h"

#ifndef ASID_ATTACH
#define ASID_ATTACH(h) ((void)(h))
#define ASID_DETACH(h) ((void)(h))
#endif

#define ROOT0 0x100000ull
#define ROOT1 0x300000ull
#define FB 0x800000ull

static void init(th_t *h, uint32_t num_asids) {
    gmmu_params_t p;
    th_params_tiny(&p);
    p.num_asids = num_asids;
#ifdef ASID_PARAMS
    ASID_PARAMS(&p); /* a variant's further parameters (test_asid_l1sa_lockstep.c) */
#endif
    th_init(h, &p);
    ASID_ATTACH(h);
    th_setup(h, ROOT0, FB, 16);
}

static void done(th_t *h) {
    ASID_DETACH(h);
    th_done(h);
}

/* PT_BASE of ASID a (through ASID_SEL, which is left at 0); later th_map calls build under it */
static void set_root(th_t *h, uint32_t a, uint64_t root) {
    th_csr_write(h, GMMU_CSR_ASID_SEL, a);
    th_csr_write(h, GMMU_CSR_PT_BASE_LO, (uint32_t)root);
    th_csr_write(h, GMMU_CSR_PT_BASE_HI, (uint32_t)(root >> 32));
    th_csr_write(h, GMMU_CSR_ASID_SEL, 0);
}

/* a command with CMD_ARG_HI.ASID and .SCOPE (§14.4) */
static void cmd_asid(th_t *h, uint32_t op, uint32_t asid, uint32_t scope, uint64_t vpn) {
    th_csr_write(h, GMMU_CSR_CMD_ARG_LO, (uint32_t)vpn);
    th_csr_write(h, GMMU_CSR_CMD_ARG_HI,
                 (uint32_t)(vpn >> 32) | asid << GMMU_CSR_CMD_ARG_HI_ASID_LSB |
                     scope << GMMU_CSR_CMD_ARG_HI_SCOPE_LSB);
    th_csr_write(h, GMMU_CSR_CMD, op);
}

/* one request on (sm, port 0) in address space asid; waits for ready first */
static void req(th_t *h, uint32_t sm, uint32_t asid, uint64_t vpn, uint8_t id) {
    for (unsigned i = 0; i < 200 && !h->out.req_ready[sm]; i++)
        th_step(h);
    assert_true(h->out.req_ready[sm]);
    th_req(h, sm, 0, vpn, 0, id);
    h->in.req_asid[sm][0] = (uint8_t)asid;
    th_step(h);
}

/* the completion of request id of sm in the log (-1 if none) */
static int find_miss(const th_t *h, uint32_t sm, uint8_t id) {
    for (unsigned i = 0; i < h->nmiss; i++)
        if (h->miss[i].sm == sm && h->miss[i].id == id)
            return (int)i;
    return -1;
}

/* a CMD_ARG_HI word: VPN[35:32], ASID, SCOPE */
static uint32_t arg_hi_word(uint32_t vpn_hi, uint32_t asid, uint32_t scope) {
    return vpn_hi << GMMU_CSR_CMD_ARG_HI_VPN_LSB | asid << GMMU_CSR_CMD_ARG_HI_ASID_LSB |
           scope << GMMU_CSR_CMD_ARG_HI_SCOPE_LSB;
}

static void test_pt_base_table(void **state) {
    (void)state;
    th_t h;
    init(&h, 4);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_ASID_SEL), 0);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_PT_BASE_LO), (uint32_t)ROOT0); /* ASID 0 */
    th_csr_write(&h, GMMU_CSR_ASID_SEL, 1);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_PT_BASE_LO), 0); /* ASID 1: reset 0 */
    th_csr_write(&h, GMMU_CSR_PT_BASE_LO, (uint32_t)ROOT1);
    th_csr_write(&h, GMMU_CSR_ASID_SEL, 5);                  /* 5 & (4 - 1) = entry 1 */
    assert_int_equal(th_csr_read(&h, GMMU_CSR_ASID_SEL), 1); /* keeps ASID & (NumAsids-1) */
    assert_int_equal(th_csr_read(&h, GMMU_CSR_PT_BASE_LO), (uint32_t)ROOT1);
    th_csr_write(&h, GMMU_CSR_ASID_SEL, 0);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_PT_BASE_LO), (uint32_t)ROOT0);
    th_csr_write(&h, GMMU_CSR_ASID_SEL, 0x100); /* must-be-0 bits */
    assert_int_equal(th_csr_read(&h, GMMU_CSR_ERR_STATUS), 1u << GMMU_ERR_BAD_VALUE);
    /* CMD_ARG_HI keeps VPN[35:32], ASID & (NumAsids-1) and SCOPE (§14.4) */
    th_csr_write(&h, GMMU_CSR_CMD_ARG_HI, arg_hi_word(0x3, 5, 1));
    assert_int_equal(th_csr_read(&h, GMMU_CSR_CMD_ARG_HI), arg_hi_word(0x3, 1, 1));
    done(&h);
    /* one address space: every ASID_SEL value selects the one entry (the old PT_BASE), and
     * neither ASID_SEL nor the ASID / SCOPE fields of CMD_ARG_HI are stored (they read 0) */
    init(&h, 1);
    th_csr_write(&h, GMMU_CSR_ASID_SEL, 3);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_PT_BASE_LO), (uint32_t)ROOT0);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_ASID_SEL), 0);
    th_csr_write(&h, GMMU_CSR_CMD_ARG_HI, arg_hi_word(0x3, 5, 1));
    assert_int_equal(th_csr_read(&h, GMMU_CSR_CMD_ARG_HI), arg_hi_word(0x3, 0, 0));
    done(&h);
}

/* the same VPN in two address spaces: two walks from two roots, two translations; both then
 * live in the L1 and in the same L2 set (tiny: 4 sets x 2 ways) and hit there */
static void test_two_spaces_one_set(void **state) {
    (void)state;
    th_t h;
    init(&h, 4);
    th_map(&h, 0x40, 0x111, 1u << GMMU_PTE_V);
    set_root(&h, 1, ROOT1);
    h.pt_base = ROOT1;
    th_map(&h, 0x40, 0x222, 1u << GMMU_PTE_V);
    req(&h, 0, 0, 0x40, 1);
    assert_true(th_run_until_idle(&h, 500) > 0);
    const unsigned reads0 = h.mem_reqs;
    assert_int_equal(reads0, 4);
    assert_int_equal(h.mem_req_addr[0], ROOT0); /* level-0 index of vpn 0x40 is 0 */
    req(&h, 0, 1, 0x40, 2);
    assert_true(th_run_until_idle(&h, 500) > 0);
    assert_int_equal(h.mem_reqs, 8);            /* ASID 1 missed in L1 and L2: its own walk */
    assert_int_equal(h.mem_req_addr[4], ROOT1); /* from ASID 1's root */
    int i = find_miss(&h, 0, 1), j = find_miss(&h, 0, 2);
    assert_true(i >= 0 && j >= 0);
    assert_int_equal(h.miss[i].ppn, 0x111);
    assert_int_equal(h.miss[j].ppn, 0x222);
    /* SM 0's L1 holds both: hits, each with its own PPN */
    th_req(&h, 0, 0, 0x40, 0, 3);
    h.in.req_asid[0][0] = 1;
    th_req(&h, 0, 1, 0x40, 0, 4);
    th_step(&h);
    assert_int_equal(h.out.hit_valid[0][0], 1);
    assert_int_equal(h.out.hit_ppn[0][0], 0x222);
    assert_int_equal(h.out.hit_valid[0][1], 1);
    assert_int_equal(h.out.hit_ppn[0][1], 0x111);
    /* SM 1 (empty L1): both hit in the one L2 set, no walk */
    const unsigned hits = h.ev_count[GMMU_EV_L2_HIT];
    req(&h, 1, 0, 0x40, 5);
    req(&h, 1, 1, 0x40, 6);
    assert_true(th_run_until_idle(&h, 500) > 0);
    assert_int_equal(h.mem_reqs, 8);
    assert_int_equal(h.ev_count[GMMU_EV_L2_HIT], hits + 2u);
    i = find_miss(&h, 1, 5);
    j = find_miss(&h, 1, 6);
    assert_true(i >= 0 && j >= 0);
    assert_int_equal(h.miss[i].ppn, 0x111);
    assert_int_equal(h.miss[j].ppn, 0x222);
    done(&h);
}

/* INVAL_PAGE with SCOPE = 1 removes (ASID 1, page) only; SCOPE = 0 removes the page in both;
 * INVAL_ALL with SCOPE = 1 removes ASID 1 only */
static void test_inval_scopes(void **state) {
    (void)state;
    th_t h;
    init(&h, 4);
    th_map(&h, 0x40, 0x111, 1u << GMMU_PTE_V);
    set_root(&h, 1, ROOT1);
    h.pt_base = ROOT1;
    th_map(&h, 0x40, 0x222, 1u << GMMU_PTE_V);
    req(&h, 0, 0, 0x40, 1);
    req(&h, 0, 1, 0x40, 2);
    assert_true(th_run_until_idle(&h, 500) > 0);
    assert_int_equal(h.mem_reqs, 8);
    /* (ASID 1, page 0x40): ASID 0 still hits in the L1, ASID 1 walks again */
    cmd_asid(&h, GMMU_CMD_INVAL_PAGE, 1, 1, 0x40);
    assert_true(th_run_until_idle(&h, 50) > 0);
    req(&h, 0, 0, 0x40, 3);
    assert_int_equal(h.out.hit_valid[0][0], 1);
    req(&h, 0, 1, 0x40, 4);
    assert_int_equal(h.out.hit_valid[0][0], 0);
    assert_true(th_run_until_idle(&h, 500) > 0);
    assert_int_equal(h.mem_reqs, 12);
    /* by ASID 1: the same */
    cmd_asid(&h, GMMU_CMD_INVAL_ALL, 1, 1, 0);
    assert_true(th_run_until_idle(&h, 50) > 0);
    req(&h, 0, 0, 0x40, 5);
    assert_int_equal(h.out.hit_valid[0][0], 1);
    req(&h, 0, 1, 0x40, 6);
    assert_int_equal(h.out.hit_valid[0][0], 0);
    assert_true(th_run_until_idle(&h, 500) > 0);
    assert_int_equal(h.mem_reqs, 16);
    /* page 0x40 in every address space (SCOPE = 0, the old command) */
    cmd_asid(&h, GMMU_CMD_INVAL_PAGE, 1, 0, 0x40);
    assert_true(th_run_until_idle(&h, 50) > 0);
    req(&h, 0, 0, 0x40, 7);
    assert_int_equal(h.out.hit_valid[0][0], 0);
    req(&h, 0, 1, 0x40, 8);
    assert_int_equal(h.out.hit_valid[0][0], 0);
    assert_true(th_run_until_idle(&h, 500) > 0);
    assert_int_equal(h.mem_reqs, 24);
    done(&h);
}

/* INVAL_ALL by ASID 1 while a walk of each address space waits for memory: only ASID 1's
 * walker is poisoned and restarts; the unscoped INVAL_ALL poisons both */
static void run_walks_inval(uint32_t scope, unsigned *restarts) {
    th_t h;
    init(&h, 4);
    h.mem_lat = 40;
    th_map(&h, 0x80, 0x111, 1u << GMMU_PTE_V);
    set_root(&h, 1, ROOT1);
    h.pt_base = ROOT1;
    th_map(&h, 0x80, 0x222, 1u << GMMU_PTE_V);
    req(&h, 0, 0, 0x80, 1);
    req(&h, 1, 1, 0x80, 2);
    th_steps(&h, 12); /* both walkers wait for their level-0 read */
    assert_int_equal(h.mem_reqs, 2);
    cmd_asid(&h, GMMU_CMD_INVAL_ALL, 1, scope, 0);
    assert_true(th_run_until_idle(&h, 2000) > 0);
    const int i = find_miss(&h, 0, 1), j = find_miss(&h, 1, 2);
    assert_true(i >= 0 && j >= 0);
    assert_int_equal(h.miss[i].ppn, 0x111);
    assert_int_equal(h.miss[j].ppn, 0x222);
    *restarts = h.ev_count[GMMU_EV_WALK_RESTART];
    done(&h);
}

static void test_inval_asid_during_walks(void **state) {
    (void)state;
    unsigned scoped = 0, all = 0;
    run_walks_inval(1, &scoped);
    run_walks_inval(0, &all);
    assert_int_equal(scoped, 1);
    assert_int_equal(all, 2);
}

/* a far fault in ASID 1: the fault entry carries the ASID; a CANCEL_PAGE of the same page in
 * another address space completes nothing, the one of (ASID 1, page) completes it FATAL */
static void test_fault_entry_asid(void **state) {
    (void)state;
    th_t h;
    init(&h, 4);
    set_root(&h, 1, ROOT1);
    req(&h, 0, 1, 0x99, 1);
    assert_true(th_run_until_idle(&h, 500) > 0);
    assert_int_equal(h.nfb, 1);
    assert_int_equal(h.fb[0].data[GMMU_FB_ASID_WORD] >> GMMU_FB_ASID_LSB & GMMU_FB_ASID_MASK, 1);
    assert_int_equal(h.fb[0].data[GMMU_FB_W2_VPN_LO], 0x99);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FF_COUNT), 1);
    cmd_asid(&h, GMMU_CMD_CANCEL_PAGE, 2, 0, 0x99); /* other address space */
    assert_true(th_run_until_idle(&h, 50) > 0);
    assert_int_equal(h.nmiss, 0);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FF_COUNT), 1);
    cmd_asid(&h, GMMU_CMD_CANCEL_PAGE, 1, 0, 0x99);
    assert_true(th_run_until_idle(&h, 50) > 0);
    assert_int_equal(h.nmiss, 1);
    assert_int_equal(h.miss[0].fatal, 1);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FF_COUNT), 0);
    done(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pt_base_table),    cmocka_unit_test(test_two_spaces_one_set),
        cmocka_unit_test(test_inval_scopes),     cmocka_unit_test(test_inval_asid_during_walks),
        cmocka_unit_test(test_fault_entry_asid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
