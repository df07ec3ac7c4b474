/* test_cmodel_ff.c - far-fault unit and fault-buffer writer (docs/microarch.md §7): the offer
 * logic driven directly (merge, quota, drop, ring full / disabled, writer not ready, commands) and
 * the replay / cancel loop through the top level. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ff.h"
#include "test_cmodel_harness.h"

#define B(n) (1u << (n))
#define PTE_VW (B(GMMU_PTE_V) | B(GMMU_PTE_W))

typedef struct {
    gmmu_params_t p;
    ff_t f;
    ff_cycle_t cy;
    ff_ring_t ring;
    gmmu_viol_t v;
    uint16_t ev;
} ft_t;

static void ft_init(ft_t *t, uint32_t sm, uint32_t entries, uint32_t quota) {
    memset(t, 0, sizeof(*t));
    th_params_tiny(&t->p);
    t->p.num_sm = sm;
    t->p.ff_entries = entries;
    t->p.ff_quota = quota;
    ff_init(&t->f, &t->p);
    t->ring.fb_base = 0x10000;
    t->ring.fb_size = 8;
}

/* a cycle without an offer and without a command (the L2 waits while the unit is not ready):
 * the offer register, if full, is processed; fb_wr_ready given */
static void idle(ft_t *t, int ready) {
    t->ev = 0;
    ff_begin(&t->f, (uint8_t)ready, &t->cy);
    ff_process(&t->f, &t->cy, &t->ring, 0x1122334455667788ull, 0, &t->ev);
}

/* the L2's offer (§5.3 step 1) into the offer register, in a cycle without a command */
static void take(ft_t *t, uint64_t vpn, int write, uint32_t mask, uint8_t ft) {
    idle(t, 1);
    assert_int_equal(t->ev, 0); /* the register was empty: nothing processed */
    const gmmu_fault_offer_t o = {.req = {.asid = 0, .vpn = vpn, .write = (uint8_t)write},
                                  .fault_type = ft};
    ff_take(&t->f, &t->cy, &o, mask, &t->v);
}

/* an offer as the L2 makes it: cycles with fb_wr_ready = 1 and no offer while ready_o is 0 (a
 * post's write drains), one cycle with the offer (into the offer register), then the cycle that
 * processes it; fb_wr_ready of that cycle given */
static void offer(ft_t *t, int ready, uint64_t vpn, int write, uint32_t mask, uint8_t ft) {
    while (!ff_ready(&t->f))
        idle(t, 1);
    take(t, vpn, write, mask, ft);
    assert_int_equal(ff_ready(&t->f), 0); /* the offer register is full */
    idle(t, ready);
}

static void test_post_entry(void **state) {
    (void)state;
    ft_t t;
    ft_init(&t, 4, 4, 2);
    t.f.put = 5;
    offer(&t, 1, 0x9abcdef01ull, 1, 0xc, GMMU_FT_PTE);
    assert_int_equal(t.ev, B(GMMU_EV_FF_NEW));
    assert_int_equal(t.f.valid[0], 1);
    assert_int_equal(t.f.mask[0], 0xc);
    assert_int_equal(t.f.fw_valid, 1);
    assert_int_equal(t.f.fw_addr, 0x10000 + 32 * 5);
    const uint32_t exp[8] = {0,
                             0,
                             0xabcdef01,
                             0x9,
                             0x55667788,
                             0x11223344,
                             0xc,
                             GMMU_FT_PTE | B(GMMU_FB_F_REPLAYABLE) | 2u << GMMU_FB_F_CLIENT_LSB |
                                 GMMU_AT_WRITE << GMMU_FB_F_ACCESS_LSB | B(GMMU_FB_F_VALID)};
    assert_memory_equal(t.f.fw_data, exp, sizeof(exp));
    assert_int_equal(t.f.put, 6);
    assert_int_equal(t.f.dropped, 0);
    /* merge: same vpn (any write), no ring write; fw_valid cleared by the transfer */
    offer(&t, 1, 0x9abcdef01ull, 0, 0x1, GMMU_FT_PDE);
    assert_int_equal(t.ev, B(GMMU_EV_FF_MERGE));
    assert_int_equal(t.f.mask[0], 0xd);
    assert_int_equal(t.f.write[0], 1);
    assert_int_equal(t.f.fw_valid, 0);
    assert_int_equal(t.f.put, 6);
    /* wrap of put: size 8, put 7 -> 0 */
    t.f.put = 7;
    t.ring.get = 3; /* with get 0 the ring would be full: (7 + 1) & 7 == 0 */
    offer(&t, 1, 0x5, 0, 0x2, GMMU_FT_PTE);
    assert_int_equal(t.f.put, 0);
    assert_int_equal(t.f.fw_addr, 0x10000 + 32 * 7);
    assert_int_equal(t.v.count, 0);
}

static void test_quota_and_drop(void **state) {
    (void)state;
    ft_t t;
    ft_init(&t, 4, 4, 2);
    offer(&t, 1, 0x1, 0, 0x1, 0);
    offer(&t, 1, 0x2, 0, 0x3, 0);
    /* SM 0 has 2 entries (quota): a fault of SMs {0, 2} records only SM 2 */
    offer(&t, 1, 0x3, 0, 0x5, 0);
    assert_int_equal(t.ev, B(GMMU_EV_FF_NEW));
    assert_int_equal(t.f.mask[2], 0x4);
    assert_int_equal(t.f.dropped, 0x1);
    assert_int_equal((t.f.fw_data[7] >> GMMU_FB_F_CLIENT_LSB) & 0x7f, 2);
    assert_int_equal(t.f.fw_data[6], 0x4);
    /* A empty: drop without overflow */
    offer(&t, 1, 0x4, 0, 0x1, 0);
    assert_int_equal(t.ev, B(GMMU_EV_FF_DROP));
    assert_int_equal(t.f.dropped, 0x1);
    assert_int_equal(t.f.valid[0], 0x7);
    assert_int_equal(t.f.overflow, 0);
    /* no FREE entry */
    offer(&t, 1, 0x5, 0, 0x8, 0);
    assert_int_equal(t.f.valid[0], 0xf);
    offer(&t, 1, 0x6, 0, 0x8, 0);
    assert_int_equal(t.ev, B(GMMU_EV_FF_DROP));
    assert_int_equal(t.f.dropped, 0x9);
    /* merging still works above the quota */
    offer(&t, 1, 0x1, 0, 0x1, 0);
    assert_int_equal(t.ev, B(GMMU_EV_FF_MERGE));
    assert_int_equal(t.v.count, 0);
}

static void test_ring_full_disabled_not_ready(void **state) {
    (void)state;
    ft_t t;
    ft_init(&t, 2, 8, 8);
    /* disabled ring */
    t.ring.fb_size = 0;
    offer(&t, 1, 0x1, 0, 0x1, 0);
    assert_int_equal(t.ev, B(GMMU_EV_FF_DROP) | B(GMMU_EV_FB_OVF));
    assert_int_equal(t.f.overflow, 1);
    assert_int_equal(t.cy.ovf_set, 1);
    assert_int_equal(t.f.valid[0], 0);
    assert_int_equal(t.f.dropped, 1);
    /* full ring: size 4, get 1, put 0 -> (0+1)&3 == 1 */
    t.f.overflow = 0;
    t.ring.fb_size = 4;
    t.ring.get = 1;
    offer(&t, 1, 0x2, 0, 0x2, 0);
    assert_int_equal(t.f.overflow, 1);
    assert_int_equal(t.f.dropped, 3);
    /* room again: post; the writer then holds its entry (ready 0) */
    t.ring.get = 0;
    offer(&t, 1, 0x3, 0, 0x2, 0);
    assert_int_equal(t.f.put, 1);
    /* the memory holds the write (fb_wr_ready 0): ready_o stays 0, the register keeps it */
    assert_int_equal(t.f.fw_valid, 1);
    assert_int_equal(ff_ready(&t.f), 0);
    idle(&t, 0);
    assert_int_equal(t.f.fw_valid, 1);
    assert_int_equal(ff_ready(&t.f), 0);
    /* an offer while not ready is a violation and changes nothing (RTL a_offer_ready) */
    ff_t before = t.f;
    ff_begin(&t.f, 0, &t.cy);
    before.replay = 0; /* ff_begin clears these defaults */
    before.cancel_valid = 0;
    const gmmu_fault_offer_t o4 = {.req = {.asid = 0, .vpn = 0x4, .write = 1},
                                   .fault_type = GMMU_FT_PTE};
    t.ev = 0;
    ff_take(&t.f, &t.cy, &o4, 0x1, &t.v);
    assert_int_equal(t.v.count, 1);
    assert_int_equal(t.ev, 0);
    assert_memory_equal(&t.f, &before, sizeof(before));
    t.v.count = 0;
    /* the write is accepted (fb_wr_ready 1): ready_o is 1 from the next cycle on */
    idle(&t, 1);
    assert_int_equal(t.f.fw_valid, 0);
    assert_int_equal(ff_ready(&t.f), 1);
    /* a merge, then (after the L2 waited for the drain) a post */
    offer(&t, 1, 0x3, 0, 0x1, 0);
    assert_int_equal(t.ev, B(GMMU_EV_FF_MERGE));
    offer(&t, 1, 0x4, 1, 0x1, GMMU_FT_PTE);
    assert_int_equal(t.ev, B(GMMU_EV_FF_NEW));
    assert_int_equal(t.f.put, 2);
    assert_int_equal(t.v.count, 0);
}

/* The offer register (§7): taken while ready, ready_o 0 while full, held through a command cycle
 * (a merge there would add an SM the same page's replay no longer sees), processed after. */
static void test_offer_register(void **state) {
    (void)state;
    ft_t t;
    ft_init(&t, 2, 4, 4);
    offer(&t, 1, 0x10, 0, 0x1, GMMU_FT_PTE); /* entry 0x10 for SM 0 */
    assert_int_equal(t.ev, B(GMMU_EV_FF_NEW));
    while (!ff_ready(&t.f))
        idle(&t, 1);
    take(&t, 0x10, 1, 0x2, GMMU_FT_PTE); /* SM 1 faults on the same page */
    assert_int_equal(t.f.off_valid, 1);
    assert_int_equal(ff_ready(&t.f), 0);
    assert_int_equal(ff_busy(&t.f), 1);
    uint64_t v = 0;
    assert_int_equal(ff_state_get(&t.f, "off_mask_q", 0, 0, &v), 0);
    assert_int_equal(v, 0x2);
    assert_int_equal(ff_state_get(&t.f, "off_write_q", 0, 0, &v), 0);
    assert_int_equal(v, 1);
    /* a command cycle: REPLAY_PAGE of that page replays SM 0; the register holds */
    t.ev = 0;
    ff_begin(&t.f, 1, &t.cy);
    ff_process(&t.f, &t.cy, &t.ring, 0, 1, &t.ev);
    ff_command(&t.f, GMMU_CMD_REPLAY_PAGE, 0, 0x10);
    assert_int_equal(t.ev, 0);
    assert_int_equal(t.f.off_valid, 1);
    assert_int_equal(t.f.replay, 0x1);
    assert_int_equal(ff_count(&t.f), 0);
    /* the next cycle processes it: a new entry for SM 1 (its fault is not lost) */
    idle(&t, 1);
    assert_int_equal(t.ev, B(GMMU_EV_FF_NEW));
    assert_int_equal(t.f.off_valid, 0);
    assert_int_equal(ff_count(&t.f), 1);
    assert_int_equal(t.f.mask[0], 0x2);
    assert_int_equal(t.f.fw_valid, 1);
    assert_int_equal(t.v.count, 0);
}

static void test_commands(void **state) {
    (void)state;
    ft_t t;
    ft_init(&t, 3, 4, 4);
    offer(&t, 1, 0x10, 0, 0x1, 0);
    offer(&t, 1, 0x20, 0, 0x2, 0);
    t.f.dropped = 0x4;
    ff_begin(&t.f, 1, &t.cy);
    ff_command(&t.f, GMMU_CMD_REPLAY_PAGE, 0, 0x20);
    assert_int_equal(t.f.replay, 0x6);
    assert_int_equal(t.f.dropped, 0);
    assert_int_equal(t.f.valid[0], 0x1);
    ff_begin(&t.f, 1, &t.cy); /* replay lasts one cycle */
    assert_int_equal(t.f.replay, 0);
    ff_command(&t.f, GMMU_CMD_REPLAY_PAGE, 0, 0x30); /* no entry: only dropped (0) */
    assert_int_equal(t.f.replay, 0);
    assert_int_equal(t.f.valid[0], 0x1);
    ff_begin(&t.f, 1, &t.cy);
    ff_command(&t.f, GMMU_CMD_CANCEL_PAGE, 0, 0x10);
    assert_int_equal(t.f.cancel_valid, 1);
    assert_int_equal(t.f.cancel_vpn, 0x10);
    assert_int_equal(t.f.valid[0], 0);
    ff_begin(&t.f, 1, &t.cy);
    assert_int_equal(t.f.cancel_valid, 0);
    offer(&t, 1, 0x10, 0, 0x1, 0);
    t.f.dropped = 1;
    ff_begin(&t.f, 1, &t.cy);
    ff_command(&t.f, GMMU_CMD_REPLAY_ALL, 0, 0);
    assert_int_equal(t.f.replay, 0x7);
    assert_int_equal(t.f.valid[0], 0);
    assert_int_equal(t.f.dropped, 0);
    /* INVAL / NOP do nothing here */
    ff_begin(&t.f, 1, &t.cy);
    ff_command(&t.f, GMMU_CMD_NOP, 0, 0);
    ff_command(&t.f, GMMU_CMD_INVAL_ALL, 0, 0);
    assert_int_equal(t.f.replay, 0);
    assert_int_equal(t.v.count, 0);
}

/* Through the top level: fault, Nack, the host maps the page and replays; or cancels. */
static void test_replay_cancel_loop(void **state) {
    (void)state;
    gmmu_params_t p;
    th_params_tiny(&p);
    th_t h;
    th_init(&h, &p);
    th_setup(&h, 0x100000, 0x800000, 16);
    th_csr_write(&h, GMMU_CSR_INT_ENABLE, 1);
    th_req(&h, 0, 0, 0x4242, 1, 1);
    th_req(&h, 1, 0, 0x4242, 0, 2);
    th_req(&h, 1, 1, 0x5000, 0, 3);
    th_step(&h);
    assert_true(th_run_until_idle(&h, 300) > 0);
    /* 0x4242 read and write are two L2 keys (two walks) but one far-fault entry (merged) */
    assert_int_equal(h.nfb, 2);
    assert_int_equal(h.ev_count[GMMU_EV_FF_NEW], 2);
    assert_int_equal(h.ev_count[GMMU_EV_FF_MERGE], 1);
    assert_int_equal(h.nmiss, 0);
    assert_int_equal(h.out.irq, 1);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FF_COUNT), 2);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FB_PUT), 2);
    th_csr_write(&h, GMMU_CSR_FB_GET, 2);
    assert_int_equal(h.out.irq, 0);
    /* host maps 0x4242 and replays it: SMs 0 and 1 (mask of the merged entry) */
    th_map(&h, 0x4242, 0x77, PTE_VW);
    th_csr_write(&h, GMMU_CSR_CMD_ARG_LO, 0x4242);
    th_csr_write(&h, GMMU_CSR_CMD_ARG_HI, 0);
    const uint64_t tc = h.cycle;
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_REPLAY_PAGE);
    assert_int_equal(h.out.req_ready[0], 0); /* command cycle tc+1 */
    assert_int_equal(h.out.idle, 0);
    th_step(&h);
    assert_int_equal(h.out.req_ready[0], 1);
    assert_true(th_run_until_idle(&h, 300) > 0);
    assert_int_equal(h.nmiss, 2);
    /* replay_q at tc+2, WAIT at tc+3, sent at tc+3 ... (L2 miss, walk), both complete */
    assert_int_equal(h.miss[0].ppn, 0x77);
    assert_int_equal(h.miss[1].ppn, 0x77);
    assert_int_equal(h.miss[0].fatal + h.miss[1].fatal, 0);
    assert_true(h.miss[0].cycle > tc + 20);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FF_COUNT), 1);
    /* cancel 0x5000: SM 1 completes FATAL, ppn 0, two cycles after the command cycle */
    th_csr_write(&h, GMMU_CSR_CMD_ARG_LO, 0x5000);
    const uint64_t tk = h.cycle;
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_CANCEL_PAGE);
    th_steps(&h, 2);
    assert_int_equal(h.cycle, tk + 3);
    assert_int_equal(h.out.miss_valid[1], 1);
    assert_int_equal(h.out.miss_fatal[1], 1);
    assert_int_equal(h.out.miss_id[1], 3);
    assert_int_equal(h.out.miss_ppn[1], 0);
    th_step(&h);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FF_COUNT), 0);
    assert_true(th_run_until_idle(&h, 10) > 0);
    th_done(&h);
}

/* Blocking fault mode (docs/microarch.md §4.1) through the top level: SM 0's fault blocks SM 0
 * only; the replay re-sends it; SM 0 is ready again the cycle after its completion. */
static void test_blocking_mode_top(void **state) {
    (void)state;
    gmmu_params_t p;
    th_params_tiny(&p);
    th_t h;
    th_init(&h, &p);
    th_setup(&h, 0x100000, 0x800000, 16);
    th_csr_write(&h, GMMU_CSR_FAULT_CTRL, 1);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FAULT_CTRL), 1);
    uint64_t v = 0;
    assert_int_equal(gmmu_model_state_get(h.m, "u_csr", "blocking_q", 0, 0, &v), 0);
    assert_int_equal(v, 1);
    th_map(&h, 0x100, 0x99, PTE_VW);
    th_req(&h, 0, 0, 0x4242, 0, 1);
    th_step(&h);
    assert_true(th_run_until_idle(&h, 300) > 0);
    assert_int_equal(h.nfb, 1);
    assert_int_equal(h.out.req_ready[0], 0); /* SM 0 blocked (its entry is NACK, flt set) */
    assert_int_equal(h.out.req_ready[1], 1);
    assert_int_equal(gmmu_model_state_get(h.m, "g_l1[0].u_l1.u_req", "flt_q", 0, 0, &v), 0);
    assert_int_equal(v, 1);
    th_req(&h, 1, 0, 0x100, 0, 2); /* SM 1 proceeds */
    th_step(&h);
    assert_true(th_run_until_idle(&h, 300) > 0);
    assert_int_equal(h.nmiss, 1);
    assert_int_equal(h.miss[0].ppn, 0x99);
    assert_int_equal(h.out.req_ready[0], 0);
    /* the host maps the page and replays it: still blocked until the completion is output */
    th_map(&h, 0x4242, 0x77, PTE_VW);
    th_csr_write(&h, GMMU_CSR_CMD_ARG_LO, 0x4242);
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_REPLAY_PAGE);
    unsigned n = 0;
    while (!h.out.miss_valid[0] && n++ < 300) {
        assert_int_equal(h.out.req_ready[0], 0);
        th_step(&h);
    }
    assert_int_equal(h.out.miss_valid[0], 1);
    assert_int_equal(h.out.miss_ppn[0], 0x77);
    assert_int_equal(h.out.req_ready[0], 0);
    th_step(&h);
    assert_int_equal(h.out.req_ready[0], 1);
    assert_int_equal(gmmu_model_state_get(h.m, "g_l1[0].u_l1.u_req", "flt_q", 0, 0, &v), 0);
    assert_int_equal(v, 0);
    assert_true(th_run_until_idle(&h, 10) > 0);
    th_done(&h);
}

/* 256 entries (the spec maximum): the valid bits span four 64-bit words; posts take the lowest
 * FREE entry across words, FF_COUNT counts all of them, REPLAY_PAGE frees an entry of word 2,
 * the next post takes it back, and the state accessor gives e_valid_q word by word. */
static void test_deep_entries(void **state) {
    (void)state;
    ft_t t;
    ft_init(&t, 4, 256, 64);
    t.ring.fb_size = 512;
    for (uint32_t k = 0; k < 256; k++) {
        offer(&t, 1, 0x1000 + k, 0, B(k % 4), GMMU_FT_PTE);
        assert_int_equal(t.ev, B(GMMU_EV_FF_NEW));
    }
    assert_int_equal(ff_count(&t.f), 256);
    for (uint32_t w = 0; w < FF_WORDS; w++) {
        uint64_t v = 0;
        assert_int_equal(ff_state_get(&t.f, "e_valid_q", 0, w, &v), 0);
        assert_true(v == ~UINT64_C(0));
    }
    uint64_t v = 0;
    assert_int_equal(ff_state_get(&t.f, "e_vpn_q", 200, 0, &v), 0);
    assert_int_equal(v, 0x1000 + 200);
    assert_int_equal(ff_state_get(&t.f, "e_vpn_q", 256, 0, &v), -1);
    /* full: a new VPN is dropped, a known one (entry 255, word 3) merges */
    offer(&t, 1, 0x9999, 0, B(1), GMMU_FT_PTE);
    assert_int_equal(t.ev, B(GMMU_EV_FF_DROP));
    offer(&t, 1, 0x1000 + 255, 1, B(0), GMMU_FT_PTE);
    assert_int_equal(t.ev, B(GMMU_EV_FF_MERGE));
    assert_int_equal(t.f.mask[255], B(3) | B(0));
    ff_command(&t.f, GMMU_CMD_REPLAY_PAGE, 0, 0x1000 + 130);
    assert_int_equal(ff_count(&t.f), 255);
    assert_int_equal(ff_state_get(&t.f, "e_valid_q", 0, 2, &v), 0);
    assert_true(v == ~GMMU_BIT(130 - 128));
    assert_int_equal(t.f.replay, B(130 % 4) | B(1)); /* its mask and the dropped SM */
    offer(&t, 1, 0x7777, 0, B(2), GMMU_FT_PTE);
    assert_int_equal(t.f.vpn[130], 0x7777);
    assert_int_equal(ff_count(&t.f), 256);
    ff_command(&t.f, GMMU_CMD_REPLAY_ALL, 0, 0);
    assert_int_equal(ff_count(&t.f), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deep_entries),
        cmocka_unit_test(test_post_entry),
        cmocka_unit_test(test_quota_and_drop),
        cmocka_unit_test(test_ring_full_disabled_not_ready),
        cmocka_unit_test(test_offer_register),
        cmocka_unit_test(test_commands),
        cmocka_unit_test(test_replay_cancel_loop),
        cmocka_unit_test(test_blocking_mode_top),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
