/* test_cmodel_l2.c - L2 TLB block (docs/microarch.md §5) driven directly: pipeline latency,
 * round-robin arbitration, MSHR allocate / merge / stall, responses, fills and flushes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "l2_tlb.h"
#include "test_cmodel_harness.h"

typedef struct {
    gmmu_params_t p;
    l2_t l2;
    gmmu_viol_t v;
    l1_comb_t c[GMMU_MAX_SM]; /* L1 requests: persistent */
    l2_plan_t pl;             /* plan of the last step */
    uint16_t ev;              /* events of the last step */
    /* one-shot inputs */
    uint8_t cmd, assign, ff_busy, done; /* ff_busy: the far-fault unit is not ready */
    uint32_t done_m;
    gmmu_walk_res_t res;
    gmmu_flush_t fl;
} lt2_t;

static void t_init(lt2_t *t, uint32_t sm, uint32_t lat) {
    memset(t, 0, sizeof(*t));
    th_params_tiny(&t->p);
    t->p.num_sm = sm;
    t->p.l2_latency = lat;
    assert_int_equal(l2_init(&t->l2, &t->p), 0);
}

static void t_step(lt2_t *t) {
    /* the RAM read of the last edge (gmmu.c does it at the end of a cycle, when the CSR block's
     * next command is known; here the test sets the command before the step, and its pokes into
     * the arrays come between the steps) */
    l2_ram_read(&t->l2, t->cmd, t->fl.vpn);
    l2_plan(&t->l2, t->cmd, (uint8_t)!t->ff_busy, t->c, &t->pl, &t->v);
    t->ev = 0;
    l2_update(&t->l2, &t->pl, t->c, t->done, t->done_m, &t->res, t->assign && t->pl.need_walk >= 0,
              &t->fl, &t->ev, &t->v);
    t->cmd = t->assign = t->ff_busy = t->done = 0;
    t->fl.kind = GMMU_FLUSH_NONE;
}

static void t_done(lt2_t *t) {
    assert_int_equal(t->v.count, 0);
    l2_free(&t->l2);
}

static void set_req(lt2_t *t, uint32_t s, uint64_t vpn, int write) {
    t->c[s].req_valid = 1;
    t->c[s].req.vpn = vpn;
    t->c[s].req.write = (uint8_t)write;
}

static void put_base(lt2_t *t, uint64_t vpn, uint32_t way, uint64_t ppn, int w) {
    const uint32_t i = (uint32_t)(vpn & (t->l2.sets - 1u)) * t->l2.ways + way;
    t->l2.base.all.valid[i] = 1;
    t->l2.base.all.tag[i] = vpn;
    t->l2.base.all.data[i] = ppn;
    t->l2.base.all.w[i] = (uint8_t)w;
}

static void test_pipeline_latency_hit(void **state) {
    (void)state;
    for (uint32_t lat = 1; lat <= 6; lat++) {
        lt2_t t;
        t_init(&t, 2, lat);
        put_base(&t, 0x35, 1, 0x777, 1);
        set_req(&t, 1, 0x35, 1);
        t_step(&t); /* cycle 0: grant */
        assert_int_equal(t.pl.grant, 1);
        assert_int_equal(t.l2.rr, 0);
        t.c[1].req_valid = 0;
        for (uint32_t k = 1; k < lat; k++) {
            t_step(&t);
            assert_int_equal(t.pl.last, 0);
            assert_int_equal(t.l2.rsp.valid, 0);
        }
        t_step(&t); /* cycle lat: the last stage */
        assert_int_equal(t.pl.last, 1);
        assert_int_equal(t.pl.hit, 1);
        assert_int_equal(t.ev, 1u << GMMU_EV_L2_HIT);
        assert_int_equal(t.l2.rsp.valid, 1);
        assert_int_equal(t.l2.rsp.r.nack, 0);
        assert_int_equal(t.l2.rsp.mask, 2);
        assert_int_equal(t.l2.rsp.r.req.vpn, 0x35);
        assert_int_equal(t.l2.rsp.r.req.write, 1);
        assert_int_equal(t.l2.rsp.r.ppn, 0x777);
        assert_int_equal(t.l2.rsp.r.w, 1);
        assert_int_equal(t.l2.rsp.r.is_large, 0);
        /* set 1, way 1 touched: the PLRU bit points to way 0 */
        assert_int_equal(t.l2.base.plru[1], 0);
        t_step(&t);
        assert_int_equal(t.l2.rsp.valid, 0);
        assert_int_equal(l2_busy(&t.l2), 0);
        t_done(&t);
    }
}

static void test_large_hit_and_write_needs_w(void **state) {
    (void)state;
    lt2_t t;
    t_init(&t, 2, 1);
    t.l2.large.valid[1] = 1;
    t.l2.large.tag[1] = 0x3;
    t.l2.large.data[1] = 0x55;
    t.l2.large.w[1] = 0;
    set_req(&t, 0, 0x7ab, 0); /* region 3 */
    t_step(&t);
    t.c[0].req_valid = 0;
    t_step(&t);
    assert_int_equal(t.pl.hit, 1);
    assert_int_equal(t.l2.rsp.r.is_large, 1);
    assert_int_equal(t.l2.rsp.r.ppn, 0x55u << 9);
    assert_int_equal(t.l2.large.plru[0], 0); /* way 1 touched -> points left */
    /* a write misses (w = 0) and allocates MSHR 0 */
    set_req(&t, 0, 0x7ab, 1);
    t_step(&t);
    t.c[0].req_valid = 0;
    t_step(&t);
    assert_int_equal(t.pl.hit, 0);
    assert_int_equal(t.ev, 1u << GMMU_EV_L2_MISS);
    assert_int_equal(t.l2.m_state[0], L2M_NEED_WALK);
    assert_int_equal(t.l2.mshr[0].req.vpn, 0x7ab);
    assert_int_equal(t.l2.mshr[0].req.write, 1);
    assert_int_equal(t.l2.mshr[0].mask, 1);
    t_done(&t);
}

static void test_round_robin(void **state) {
    (void)state;
    lt2_t t;
    t_init(&t, 4, 2);
    set_req(&t, 0, 0x1, 0);
    set_req(&t, 2, 0x2, 0);
    set_req(&t, 3, 0x3, 0);
    const int expect[] = {0, 2, 3, 0, 2};
    for (int i = 0; i < 5; i++) {
        t_step(&t);
        assert_int_equal(t.pl.grant, expect[i]);
        assert_int_equal(t.l2.rr, (uint32_t)(expect[i] + 1) % 4u);
        assert_int_equal(t.l2.psm[0], expect[i]);
        /* each grant fills an MSHR; free them so nothing stalls */
        for (uint32_t m = 0; m < t.l2.n_mshr; m++)
            t.l2.m_state[m] = L2M_FREE;
    }
    /* no request: rr holds, stage 1 becomes invalid */
    memset(t.c, 0, sizeof(t.c));
    t_step(&t);
    assert_int_equal(t.pl.grant, -1);
    assert_int_equal(t.l2.rr, 3);
    assert_int_equal(t.l2.pv[0], 0);
    assert_int_equal(t.l2.pv[1], 1);
    /* a command cycle grants nothing and holds the pipeline */
    set_req(&t, 1, 0x4, 0);
    t.cmd = 1;
    t_step(&t);
    assert_int_equal(t.pl.grant, -1);
    assert_int_equal(t.pl.last, 0);
    assert_int_equal(t.l2.pv[1], 1);
    assert_int_equal(t.l2.rr, 3);
    t_step(&t);
    assert_int_equal(t.pl.grant, 1);
    t_done(&t);
}

static void test_mshr_merge_stall(void **state) {
    (void)state;
    lt2_t t;
    t_init(&t, 2, 1); /* M = 4 */
    /* SM 0 and SM 1 ask for the same key back to back: one MSHR, mask 3 */
    set_req(&t, 0, 0x40, 0);
    set_req(&t, 1, 0x40, 0);
    t_step(&t);
    assert_int_equal(t.pl.grant, 0);
    t.c[0].req_valid = 0;
    t_step(&t);
    assert_int_equal(t.pl.grant, 1);
    assert_int_equal(t.pl.alloc, 0);
    t.c[1].req_valid = 0;
    t.assign = 1; /* a walker takes MSHR 0 in the cycle SM 1's lookup merges into it */
    t_step(&t);
    assert_int_equal(t.pl.merge, 0);
    assert_int_equal(t.ev, 1u << GMMU_EV_L2_MISS);
    assert_int_equal(t.l2.m_state[0], L2M_WALKING);
    assert_int_equal(t.l2.mshr[0].mask, 3);
    /* same vpn as a write: another key, another MSHR; then fill up the MSHRs */
    set_req(&t, 0, 0x40, 1);
    t_step(&t);
    set_req(&t, 0, 0x41, 0);
    t_step(&t);
    assert_int_equal(t.l2.m_state[1], L2M_NEED_WALK);
    assert_int_equal(t.l2.mshr[1].req.write, 1);
    set_req(&t, 0, 0x42, 0);
    t_step(&t);
    set_req(&t, 0, 0x43, 0);
    t_step(&t);
    assert_int_equal(t.l2.mshr[3].req.vpn, 0x42);
    /* 0x43 in the last stage finds no FREE MSHR: stall, no miss event, no grant */
    set_req(&t, 1, 0x44, 0);
    t_step(&t);
    assert_int_equal(t.pl.stall, 1);
    assert_int_equal(t.pl.advance, 0);
    assert_int_equal(t.pl.grant, -1);
    assert_int_equal(t.ev, 0);
    assert_int_equal(t.l2.pvpn[0], 0x43);
    t_step(&t);
    assert_int_equal(t.pl.stall, 1);
    /* MSHR 0 completes (walker) -> RESP; still no FREE entry this cycle */
    t.done = 1;
    t.done_m = 0;
    t.res.fault = 0;
    t.res.ppn = 0x1234;
    t.res.w = 1;
    t_step(&t);
    assert_int_equal(t.pl.stall, 1);
    assert_int_equal(t.l2.m_state[0], L2M_RESP);
    /* fill of the base array, set 0, way 0 */
    assert_int_equal(t.l2.base.all.valid[0], 1);
    assert_int_equal(t.l2.base.all.tag[0], 0x40);
    /* response selection frees MSHR 0 (rsp_q OK, mask 3); the lookup still stalls (_q) */
    t_step(&t);
    assert_int_equal(t.pl.stall, 1);
    assert_int_equal(t.l2.rsp.valid, 1);
    assert_int_equal(t.l2.rsp.mask, 3);
    assert_int_equal(t.l2.rsp.r.ppn, 0x1234);
    assert_int_equal(t.l2.m_state[0], L2M_FREE);
    t_step(&t);
    assert_int_equal(t.pl.stall, 0);
    assert_int_equal(t.pl.alloc, 0);
    assert_int_equal(t.pl.grant, 1); /* rr = 1 after SM 0's last grant */
    assert_int_equal(t.ev, 1u << GMMU_EV_L2_MISS);
    assert_int_equal(t.l2.mshr[0].req.vpn, 0x43);
    t_done(&t);
}

/* §5.2: advance is a function of registers. With every MSHR busy the pipeline holds, but the
 * last stage is still looked up: a hit answers and a merge merges, each leaving a bubble (no
 * grant in that cycle, stage L invalid), and the pipeline advances in the next cycle. */
static void test_full_mshr_bubble(void **state) {
    (void)state;
    lt2_t t;
    t_init(&t, 2, 1); /* M = 4, one stage */
    for (uint32_t m = 0; m < 4; m++) {
        t.l2.m_state[m] = L2M_NEED_WALK;
        t.l2.mshr[m].req.vpn = 0x50 + m;
        t.l2.mshr[m].mask = 1;
    }
    put_base(&t, 0x8, 0, 0x88, 1);
    set_req(&t, 0, 0x8, 0);
    t_step(&t); /* the stage was empty: advance, SM 0 granted */
    assert_int_equal(t.pl.advance, 1);
    assert_int_equal(t.pl.grant, 0);
    t.c[0].req_valid = 0;
    set_req(&t, 1, 0x51, 0);
    t_step(&t); /* no FREE entry: no advance, no grant; the hit still answers */
    assert_int_equal(t.pl.advance, 0);
    assert_int_equal(t.pl.grant, -1);
    assert_int_equal(t.pl.hit, 1);
    assert_int_equal(t.pl.stall, 0);
    assert_int_equal(t.l2.rsp.valid, 1);
    assert_int_equal(t.l2.rsp.r.ppn, 0x88);
    assert_int_equal(t.l2.pv[0], 0);
    t_step(&t); /* the bubble: advance, SM 1 granted */
    assert_int_equal(t.pl.advance, 1);
    assert_int_equal(t.pl.grant, 1);
    assert_int_equal(t.l2.pvpn[0], 0x51);
    t.c[1].req_valid = 0;
    set_req(&t, 0, 0x60, 0);
    t_step(&t); /* misses and merges into MSHR 1 while no entry is FREE: a bubble again */
    assert_int_equal(t.pl.advance, 0);
    assert_int_equal(t.pl.grant, -1);
    assert_int_equal(t.pl.merge, 1);
    assert_int_equal(t.ev, 1u << GMMU_EV_L2_MISS);
    assert_int_equal(t.l2.mshr[1].mask, 3);
    assert_int_equal(t.l2.pv[0], 0);
    t_step(&t);
    assert_int_equal(t.pl.grant, 0);
    t.c[0].req_valid = 0;
    t_step(&t); /* 0x60 misses with no merge and no FREE entry: stall, the stage holds */
    assert_int_equal(t.pl.stall, 1);
    assert_int_equal(t.pl.advance, 0);
    assert_int_equal(t.l2.pv[0], 1);
    assert_int_equal(t.l2.pvpn[0], 0x60);
    t_done(&t);
}

static void test_response_priority_and_fault(void **state) {
    (void)state;
    lt2_t t;
    t_init(&t, 2, 1);
    put_base(&t, 0x8, 0, 0x88, 1);
    set_req(&t, 0, 0x8, 0);
    t_step(&t);
    t.c[0].req_valid = 0;
    t.l2.m_state[2] = L2M_RESP;
    t.l2.mshr[2].req.vpn = 0x9;
    t.l2.mshr[2].mask = 2;
    t.l2.mshr[2].res.fault = 1;
    t.l2.mshr[2].res.fault_type = GMMU_FT_PTE;
    t.l2.m_state[3] = L2M_RESP;
    t.l2.mshr[3].req.vpn = 0xa;
    t.l2.mshr[3].res.ppn = 0xaa;
    /* the last stage hits, but a finished MSHR has the response bus (§5.1): the lowest RESP is
     * the FAULT entry 2 and the far-fault unit is not ready (§5.3 step 1), so it waits and the OK
     * entry 3 above it is answered; the hit holds (no event, the stage keeps its request) */
    t.ff_busy = 1;
    t_step(&t);
    assert_int_equal(t.pl.resp_sel, 3);
    assert_int_equal(t.pl.lk_hit, 1);
    assert_int_equal(t.pl.hit, 0);
    assert_int_equal(t.pl.hold, 1);
    assert_int_equal(t.pl.advance, 0);
    assert_int_equal(t.ev, 0);
    assert_int_equal(t.l2.rsp.valid, 1);
    assert_int_equal(t.l2.rsp.r.nack, 0);
    assert_int_equal(t.l2.rsp.r.ppn, 0xaa);
    assert_int_equal(t.l2.m_state[2], L2M_RESP);
    assert_int_equal(t.l2.m_state[3], L2M_FREE);
    assert_int_equal(t.l2.pv[0], 1);
    /* still not ready, nothing else to answer: the held hit answers now */
    t.ff_busy = 1;
    t_step(&t);
    assert_int_equal(t.pl.resp_sel, -1);
    assert_int_equal(t.pl.hit, 1);
    assert_int_equal(t.ev, 1u << GMMU_EV_L2_HIT);
    assert_int_equal(t.l2.rsp.valid, 1);
    assert_int_equal(t.l2.rsp.r.ppn, 0x88);
    assert_int_equal(t.l2.m_state[2], L2M_RESP);
    t.ff_busy = 1; /* not ready, the pipeline empty: no response at all */
    t_step(&t);
    assert_int_equal(t.pl.resp_sel, -1);
    assert_int_equal(t.l2.rsp.valid, 0);
    assert_int_equal(t.l2.m_state[2], L2M_RESP);
    /* ready: NACK with mask, vpn, write, other fields 0 */
    t.l2.m_state[3] = L2M_RESP;
    t_step(&t);
    assert_int_equal(t.pl.resp_sel, 2);
    assert_int_equal(t.l2.rsp.valid, 1);
    assert_int_equal(t.l2.rsp.r.nack, 1);
    assert_int_equal(t.l2.rsp.mask, 2);
    assert_int_equal(t.l2.rsp.r.req.vpn, 0x9);
    assert_int_equal(t.l2.rsp.r.ppn, 0);
    assert_int_equal(t.l2.m_state[2], L2M_FREE);
    /* command cycle: no response selection */
    t.cmd = 1;
    t_step(&t);
    assert_int_equal(t.l2.rsp.valid, 0);
    assert_int_equal(t.l2.m_state[3], L2M_RESP);
    t_step(&t);
    assert_int_equal(t.l2.rsp.r.ppn, 0xaa);
    t_done(&t);
}

static void test_fill_and_flush(void **state) {
    (void)state;
    lt2_t t;
    t_init(&t, 2, 1); /* 4 sets x 2 ways, 2 large */
    /* walker completions fill: base set 1 ways 0, 1, then the PLRU victim */
    const uint64_t vpns[3] = {0x1, 0x5, 0x9};
    for (int i = 0; i < 3; i++) {
        t.l2.m_state[i] = L2M_WALKING;
        t.l2.mshr[i].req.vpn = vpns[i];
        t.done = 1;
        t.done_m = (uint32_t)i;
        memset(&t.res, 0, sizeof(t.res));
        t.res.ppn = 0x100u + (unsigned)i;
        t.res.w = 1;
        t.cmd = 1; /* response selection stays off: MSHRs remain RESP */
        t_step(&t);
    }
    /* way 0 then way 1 filled; the victim after touching 1 is way 0 */
    assert_int_equal(t.l2.base.all.tag[1 * 2 + 0], 0x9);
    assert_int_equal(t.l2.base.all.tag[1 * 2 + 1], 0x5);
    /* nocache and large results */
    t.l2.m_state[3] = L2M_WALKING;
    t.l2.mshr[3].req.vpn = 0x2;
    t.done = 1;
    t.done_m = 3;
    memset(&t.res, 0, sizeof(t.res));
    t.res.ppn = 0x300;
    t.res.nocache = 1;
    t.cmd = 1;
    t_step(&t);
    assert_int_equal(t.l2.base.all.valid[2 * 2 + 0], 0);
    t.l2.m_state[3] = L2M_WALKING;
    t.l2.mshr[3].req.vpn = 0x403;
    t.done = 1;
    memset(&t.res, 0, sizeof(t.res));
    t.res.ppn = 0xa00;
    t.res.is_large = 1;
    t.cmd = 1;
    t_step(&t);
    assert_int_equal(t.l2.large.valid[0], 1);
    assert_int_equal(t.l2.large.tag[0], 2);
    assert_int_equal(t.l2.large.data[0], 5);
    /* page flush of 0x5: base entry 0x5 only; RESP/OK entries of region 0 -> NEED_WALK */
    t.l2.mshr[1].res.fault = 1; /* entry 1 (0x5) made a FAULT: kept */
    t.cmd = 1;
    t.fl.kind = GMMU_FLUSH_PAGE;
    t.fl.vpn = 0x5;
    t_step(&t);
    assert_int_equal(t.l2.base.all.valid[1 * 2 + 1], 0);
    assert_int_equal(t.l2.base.all.valid[1 * 2 + 0], 1);
    assert_int_equal(t.l2.large.valid[0], 1);
    assert_int_equal(t.l2.m_state[0], L2M_NEED_WALK);
    assert_int_equal(t.l2.m_state[1], L2M_RESP);
    assert_int_equal(t.l2.m_state[2], L2M_NEED_WALK);
    assert_int_equal(t.l2.m_state[3], L2M_RESP); /* region 2 */
    /* a completion in the cycle of a full flush: filled then invalidated, RESP -> NEED_WALK */
    t.l2.m_state[0] = L2M_WALKING;
    t.done = 1;
    t.done_m = 0;
    memset(&t.res, 0, sizeof(t.res));
    t.res.ppn = 0x999;
    t.cmd = 1;
    t.fl.kind = GMMU_FLUSH_ALL;
    t_step(&t);
    assert_int_equal(t.l2.m_state[0], L2M_NEED_WALK);
    assert_int_equal(t.l2.m_state[1], L2M_RESP);
    assert_int_equal(t.l2.m_state[3], L2M_NEED_WALK);
    for (uint32_t i = 0; i < 8; i++)
        assert_int_equal(t.l2.base.all.valid[i], 0);
    assert_int_equal(t.l2.large.valid[0], 0);
    t_done(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline_latency_hit),
        cmocka_unit_test(test_large_hit_and_write_needs_w),
        cmocka_unit_test(test_round_robin),
        cmocka_unit_test(test_mshr_merge_stall),
        cmocka_unit_test(test_full_mshr_bubble),
        cmocka_unit_test(test_response_priority_and_fault),
        cmocka_unit_test(test_fill_and_flush),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
