/* test_cmodel_l1.c - L1 TLB block (docs/microarch.md §4), driven directly through l1_step with
 * hand-made grants, L2 responses, replays, cancels and flushes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "l1_tlb.h"
#include "plru.h"
#include "test_cmodel_harness.h"

typedef struct {
    gmmu_params_t p;
    l1_t l;
    gmmu_viol_t v;
    /* inputs of the current cycle (cleared after each step) */
    uint8_t rv[GMMU_MAX_PORTS], rw[GMMU_MAX_PORTS], rid[GMMU_MAX_PORTS], rasid[GMMU_MAX_PORTS];
    uint64_t rvpn[GMMU_MAX_PORTS];
    uint8_t grant, replay, cancel, cmd;
    uint8_t blocking; /* blocking_q (held across steps) */
    uint64_t cancel_vpn;
    uint8_t cancel_asid;
    gmmu_rsp_t rsp;
    gmmu_flush_t fl;
    /* outputs of the current cycle */
    l1_comb_t c;
    gmmu_out_t o;
} lt_t;

static void lt_outputs(lt_t *t) {
    l1_comb(&t->l, t->cmd, &t->c);
    memset(&t->o, 0, sizeof(t->o));
    l1_outputs(&t->l, &t->c, &t->o);
}

/* sets: l1_sets (1: the fully associative base array; more: §1.4) */
static void lt_init_sets(lt_t *t, uint32_t ports, uint32_t req, uint32_t sets) {
    memset(t, 0, sizeof(*t));
    th_params_tiny(&t->p);
    t->p.num_ports = ports;
    t->p.l1_req_entries = req;
    t->p.l1_sets = sets;
    assert_int_equal(l1_init(&t->l, 0, &t->p), 0);
    lt_outputs(t);
}

static void lt_init(lt_t *t, uint32_t ports, uint32_t req) {
    lt_init_sets(t, ports, req, 1);
}

static void lt_step(lt_t *t) {
    l1_comb(&t->l, t->cmd, &t->c);
    const l1_in_t in = {t->rv,         t->rw,   t->rid,     t->rasid,  t->rvpn,
                        t->grant,      &t->rsp, t->replay,  t->cancel, t->cancel_asid,
                        t->cancel_vpn, t->fl,   t->blocking};
    l1_step(&t->l, &t->c, &in, &t->v);
    memset(t->rv, 0, sizeof(t->rv));
    memset(t->rw, 0, sizeof(t->rw));
    memset(t->rid, 0, sizeof(t->rid));
    memset(t->rasid, 0, sizeof(t->rasid));
    memset(t->rvpn, 0, sizeof(t->rvpn));
    memset(&t->rsp, 0, sizeof(t->rsp));
    t->grant = t->replay = t->cancel = t->cmd = 0;
    t->fl.kind = GMMU_FLUSH_NONE;
    lt_outputs(t);
}

static void lt_done(lt_t *t) {
    assert_int_equal(t->v.count, 0);
    l1_free(&t->l);
}

static void req(lt_t *t, uint32_t port, uint64_t vpn, int write, uint8_t id) {
    assert_int_equal(t->c.ready, 1);
    t->rv[port] = 1;
    t->rvpn[port] = vpn;
    t->rw[port] = (uint8_t)write;
    t->rid[port] = id;
}

static void rsp_ok(lt_t *t, uint64_t vpn, int write, uint64_t ppn, int large, int w, int nocache) {
    t->rsp.valid = 1;
    t->rsp.mask = 1;
    t->rsp.r.req.vpn = vpn;
    t->rsp.r.req.write = (uint8_t)write;
    t->rsp.r.ppn = ppn;
    t->rsp.r.is_large = (uint8_t)large;
    t->rsp.r.w = (uint8_t)w;
    t->rsp.r.nocache = (uint8_t)nocache;
}

static void rsp_nack(lt_t *t, uint64_t vpn, int write) {
    t->rsp.valid = 1;
    t->rsp.r.nack = 1;
    t->rsp.mask = 1;
    t->rsp.r.req.vpn = vpn;
    t->rsp.r.req.write = (uint8_t)write;
}

/* A miss that becomes DONE then leaves through miss_*: returns nothing, checks everything. */
static void miss_and_fill(lt_t *t, uint64_t vpn, int write, uint64_t ppn, int large, int w) {
    req(t, 0, vpn, write, 0x33);
    lt_step(t);
    assert_int_equal(t->c.req_valid, 1);
    assert_int_equal(t->c.req.vpn, vpn);
    t->grant = 1;
    lt_step(t);
    rsp_ok(t, vpn, write, ppn, large, w, 0);
    lt_step(t);
    assert_int_equal(t->o.miss_valid[0], 1);
    lt_step(t);
    assert_int_equal(t->o.miss_valid[0], 0);
}

static void test_hit_next_cycle(void **state) {
    (void)state;
    lt_t t;
    lt_init(&t, 2, 4);
    assert_int_equal(t.o.req_ready[0], 1);
    req(&t, 0, 0x1000, 0, 5);
    lt_step(&t);
    /* miss: no hit response, entry 0 WAIT and sendable */
    assert_int_equal(t.o.hit_valid[0][0], 0);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_WAIT);
    assert_int_equal(t.c.send, 0);
    assert_int_equal(t.c.req_valid, 1);
    assert_int_equal(t.c.req.vpn, 0x1000);
    lt_step(&t); /* not granted: stays WAIT */
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_WAIT);
    t.grant = 1;
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_INFL);
    assert_int_equal(t.c.req_valid, 0);
    rsp_ok(&t, 0x1000, 0, 0x5555, 0, 1, 0);
    lt_step(&t);
    assert_int_equal(t.o.miss_valid[0], 1);
    assert_int_equal(t.o.miss_id[0], 5);
    assert_int_equal(t.o.miss_ppn[0], 0x5555);
    assert_int_equal(t.o.miss_fatal[0], 0);
    /* the same cycle a hit on port 1 (the fill is visible) */
    req(&t, 1, 0x1000, 1, 6);
    lt_step(&t);
    assert_int_equal(t.o.miss_valid[0], 0);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_FREE);
    assert_int_equal(t.o.hit_valid[0][1], 1);
    assert_int_equal(t.o.hit_id[0][1], 6);
    assert_int_equal(t.o.hit_ppn[0][1], 0x5555);
    assert_int_equal(t.o.hit_valid[0][0], 0);
    lt_step(&t);
    assert_int_equal(t.o.hit_valid[0][1], 0);
    assert_int_equal(t.o.hit_id[0][1], 0);
    assert_int_equal(t.o.hit_ppn[0][1], 0);
    assert_int_equal(l1_busy(&t.l), 0);
    lt_done(&t);
}

static void test_write_needs_w_and_large(void **state) {
    (void)state;
    lt_t t;
    lt_init(&t, 2, 4);
    miss_and_fill(&t, 0x2000, 0, 0x7000, 0, 0); /* read-only base entry */
    /* large, writable: region of 0x40203 is 0x201; the entry completes with {ppn[35:9], vpn[8:0]}
     */
    req(&t, 0, 0x40203, 1, 1);
    lt_step(&t);
    t.grant = 1;
    lt_step(&t);
    rsp_ok(&t, 0x40203, 1, 0x12345e00, 1, 1, 0);
    lt_step(&t);
    assert_int_equal(t.o.miss_ppn[0], 0x12345e03);
    lt_step(&t);
    /* read of the base page hits; write of it misses (w = 0) */
    req(&t, 0, 0x2000, 0, 2);
    req(&t, 1, 0x2000, 1, 3);
    lt_step(&t);
    assert_int_equal(t.o.hit_valid[0][0], 1);
    assert_int_equal(t.o.hit_ppn[0][0], 0x7000);
    assert_int_equal(t.o.hit_valid[0][1], 0);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_WAIT);
    assert_int_equal(t.l.req.ent[0].write, 1);
    assert_int_equal(t.l.req.ent[0].id, 3);
    /* a write anywhere in the large region hits with {lppn, vpn[8:0]} */
    req(&t, 0, 0x403ff, 1, 4);
    req(&t, 1, 0x40200, 0, 5);
    lt_step(&t);
    assert_int_equal(t.o.hit_valid[0][0], 1);
    assert_int_equal(t.o.hit_ppn[0][0], 0x12345fff);
    assert_int_equal(t.o.hit_valid[0][1], 1);
    assert_int_equal(t.o.hit_ppn[0][1], 0x12345e00);
    lt_done(&t);
}

static void test_allocation_order_and_backpressure(void **state) {
    (void)state;
    lt_t t;
    lt_init(&t, 2, 4);
    /* two misses in one cycle: port order takes entries 0 and 1 */
    req(&t, 0, 0x10, 0, 10);
    req(&t, 1, 0x11, 0, 11);
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_WAIT);
    assert_int_equal(t.l.req.ent[0].vpn, 0x10);
    assert_int_equal(l1_req_state(&t.l.req, 1), L1_WAIT);
    assert_int_equal(t.l.req.ent[1].vpn, 0x11);
    assert_int_equal(t.o.req_ready[0], 1); /* 2 FREE >= P */
    /* a single miss on port 1 takes the lowest FREE entry (2) */
    req(&t, 1, 0x12, 0, 12);
    lt_step(&t);
    assert_int_equal(t.l.req.ent[2].vpn, 0x12);
    assert_int_equal(t.l.req.ent[2].id, 12);
    assert_int_equal(t.o.req_ready[0], 0); /* 1 FREE < P = 2 */
    t.rv[0] = 1;                           /* ignored while not ready */
    t.rvpn[0] = 0x13;
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 3), L1_FREE);
    /* complete entry 1 (key 0x11): it is freed by the output step, ready comes back after */
    t.grant = 1; /* sends entry 0 */
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_INFL);
    assert_int_equal(t.c.send, 1);
    rsp_ok(&t, 0x11, 0, 0x99, 0, 1, 1); /* nocache: no fill */
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 1), L1_DONE);
    assert_int_equal(t.o.req_ready[0], 0);
    assert_int_equal(t.o.miss_id[0], 11);
    for (uint32_t i = 0; i < t.l.n_base; i++)
        assert_int_equal(t.l.base.valid[i], 0);
    lt_step(&t);
    assert_int_equal(t.o.req_ready[0], 1);
    /* with two FREE entries 1 and 3, two misses take 1 then 3 */
    req(&t, 0, 0x20, 0, 20);
    req(&t, 1, 0x21, 0, 21);
    lt_step(&t);
    assert_int_equal(t.l.req.ent[1].vpn, 0x20);
    assert_int_equal(t.l.req.ent[3].vpn, 0x21);
    /* a command cycle drops req_ready */
    lt_done(&t);
    lt_init(&t, 2, 4);
    t.cmd = 1;
    lt_outputs(&t);
    assert_int_equal(t.o.req_ready[0], 0);
    lt_done(&t);
}

static void test_merge_same_key(void **state) {
    (void)state;
    lt_t t;
    lt_init(&t, 2, 6);
    req(&t, 0, 0x50, 0, 1);
    req(&t, 1, 0x50, 0, 2);
    lt_step(&t);
    req(&t, 0, 0x50, 1, 3); /* same vpn, write: another key */
    lt_step(&t);
    assert_int_equal(t.c.send, 0);
    t.grant = 1;
    lt_step(&t);
    /* entry 1 has the key of INFL entry 0: not sendable; entry 2 is */
    assert_int_equal(t.c.send, 2);
    assert_int_equal(t.c.req.write, 1);
    rsp_ok(&t, 0x50, 0, 0x600, 0, 1, 0);
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_DONE);
    assert_int_equal(l1_req_state(&t.l.req, 1), L1_DONE); /* WAIT entries with the key too */
    assert_int_equal(l1_req_state(&t.l.req, 2), L1_WAIT);
    assert_int_equal(t.o.miss_id[0], 1);
    lt_step(&t);
    assert_int_equal(t.o.miss_valid[0], 1);
    assert_int_equal(t.o.miss_id[0], 2);
    assert_int_equal(t.o.miss_ppn[0], 0x600);
    lt_step(&t);
    assert_int_equal(t.o.miss_valid[0], 0);
    lt_done(&t);
}

static void test_nack_replay_cancel(void **state) {
    (void)state;
    lt_t t;
    lt_init(&t, 2, 4);
    req(&t, 0, 0x70, 0, 1);
    req(&t, 1, 0x71, 0, 2);
    lt_step(&t);
    t.grant = 1;
    lt_step(&t);
    t.grant = 1;
    lt_step(&t);
    rsp_nack(&t, 0x70, 0);
    lt_step(&t);
    rsp_nack(&t, 0x71, 0);
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_NACK);
    assert_int_equal(l1_req_state(&t.l.req, 1), L1_NACK);
    assert_int_equal(t.o.miss_valid[0], 0);
    assert_int_equal(t.c.req_valid, 0);
    assert_int_equal(l1_busy(&t.l), 0); /* NACK entries do not prevent idle */
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_NACK);
    /* cancel of 0x71: only that entry completes FATAL with ppn 0 */
    t.cancel = 1;
    t.cancel_vpn = 0x71;
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_NACK);
    assert_int_equal(t.o.miss_valid[0], 1);
    assert_int_equal(t.o.miss_id[0], 2);
    assert_int_equal(t.o.miss_fatal[0], 1);
    assert_int_equal(t.o.miss_ppn[0], 0);
    lt_step(&t);
    /* replay: NACK -> WAIT, re-sent */
    t.replay = 1;
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_WAIT);
    assert_int_equal(t.c.send, 0);
    /* a NACK arriving in the cycle of a replay is replayed at once (step d after c) */
    t.grant = 1;
    lt_step(&t);
    rsp_nack(&t, 0x70, 0);
    t.replay = 1;
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_WAIT);
    /* a cancel in the cycle of the NACK completes it (step e after c) */
    t.grant = 1;
    lt_step(&t);
    rsp_nack(&t, 0x70, 0);
    t.cancel = 1;
    t.cancel_vpn = 0x70;
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_DONE);
    assert_int_equal(t.o.miss_fatal[0], 1);
    lt_done(&t);
}

static void test_flush(void **state) {
    (void)state;
    lt_t t;
    lt_init(&t, 2, 4);
    miss_and_fill(&t, 0x200, 0, 0x1200, 0, 1);  /* base way 0 */
    miss_and_fill(&t, 0x201, 0, 0x1201, 0, 1);  /* base way 1 */
    miss_and_fill(&t, 0x400, 0, 0x8000, 1, 1);  /* large region 2 */
    miss_and_fill(&t, 0x1000, 0, 0x9000, 1, 1); /* large region 8 */
    uint8_t plru[8];
    memcpy(plru, t.l.base.plru, 7);
    /* an entry that is DONE when a page flush of its region happens goes back to WAIT */
    req(&t, 0, 0x3ff, 0, 9); /* region 1, like 0x200 */
    lt_step(&t);
    t.grant = 1;
    lt_step(&t);
    rsp_ok(&t, 0x3ff, 0, 0x5, 0, 1, 1);
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_DONE);
    t.fl.kind = GMMU_FLUSH_PAGE;
    t.fl.vpn = 0x200;
    lt_step(&t); /* (a) outputs entry 0 first: FREE, not WAIT */
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_FREE);
    assert_int_equal(t.l.base.valid[0], 0); /* vpn 0x200 */
    assert_int_equal(t.l.base.valid[1], 1); /* vpn 0x201: exact vpn match only */
    assert_int_equal(t.l.large.valid[0], 1);
    assert_memory_equal(t.l.base.plru, plru, 7);
    /* DONE in _d (response this cycle) + page flush of its region -> WAIT */
    req(&t, 0, 0x3fe, 0, 9);
    lt_step(&t);
    t.grant = 1;
    lt_step(&t);
    rsp_ok(&t, 0x3fe, 0, 0x5, 0, 1, 1);
    t.fl.kind = GMMU_FLUSH_PAGE;
    t.fl.vpn = 0x210;
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_WAIT);
    assert_int_equal(t.o.miss_valid[0], 0);
    assert_int_equal(t.l.base.valid[1], 1);
    /* page flush of 0x401 kills the large entry of region 2 only */
    t.fl.kind = GMMU_FLUSH_PAGE;
    t.fl.vpn = 0x401;
    lt_step(&t);
    assert_int_equal(t.l.large.valid[0], 0);
    assert_int_equal(t.l.large.valid[1], 1);
    /* full flush */
    t.fl.kind = GMMU_FLUSH_ALL;
    lt_step(&t);
    for (uint32_t i = 0; i < t.l.n_base; i++)
        assert_int_equal(t.l.base.valid[i], 0);
    assert_int_equal(t.l.large.valid[1], 0);
    req(&t, 0, 0x201, 0, 1);
    lt_step(&t);
    assert_int_equal(t.o.hit_valid[0][0], 0);
    lt_done(&t);
}

static void test_fill_choice_and_plru(void **state) {
    (void)state;
    lt_t t;
    lt_init(&t, 2, 4);
    for (uint64_t k = 0; k < 8; k++)
        miss_and_fill(&t, 0x100 + k, 0, 0x900 + k, 0, 1);
    for (uint32_t i = 0; i < 8; i++)
        assert_int_equal(t.l.base.tag[i], 0x100 + i); /* lowest invalid way each time */
    /* fills touched 0..7 in order: victim is 0 (root 0 after touching 7, ...) */
    assert_int_equal(plru_victim(t.l.base.plru, 8), 0);
    /* hits on ports 0 and 1 touch in port order: ways 0 then 5 */
    req(&t, 0, 0x100, 0, 1);
    req(&t, 1, 0x105, 0, 2);
    lt_step(&t);
    assert_int_equal(plru_victim(t.l.base.plru, 8), 2);
    /* a new page replaces the victim (way 2) */
    miss_and_fill(&t, 0x1ff, 0, 0xaaa, 0, 0);
    assert_int_equal(t.l.base.tag[2], 0x1ff);
    assert_int_equal(t.l.base.data[2], 0xaaa);
    /* same tag (a write missing on the read-only entry): updated in place, no duplicate */
    miss_and_fill(&t, 0x1ff, 1, 0xbbb, 0, 1);
    assert_int_equal(t.l.base.data[2], 0xbbb);
    assert_int_equal(t.l.base.w[2], 1);
    uint32_t n = 0;
    for (uint32_t i = 0; i < 8; i++)
        n += t.l.base.valid[i] && t.l.base.tag[i] == 0x1ff;
    assert_int_equal(n, 1);
    lt_done(&t);
}

/* §1.4: the set-associative base array (l1_sets = 4: 8 entries as 4 sets x 2 ways, set = vpn &
 * 3, entry (set, way) at index set * 2 + way): fills go to their own set, a full set evicts its
 * PLRU victim while other sets have invalid ways, hits touch their set's PLRU only, a page flush
 * invalidates its entry only. */
static void test_set_associative(void **state) {
    (void)state;
    lt_t t;
    lt_init_sets(&t, 2, 4, 4);
    const tlb_fa_t *all = &t.l.bsa.all;
    miss_and_fill(&t, 0x100, 0, 0x900, 0, 1); /* set 0 way 0: entry 0 */
    miss_and_fill(&t, 0x104, 0, 0x904, 0, 1); /* set 0 way 1: entry 1 */
    miss_and_fill(&t, 0x101, 0, 0x901, 0, 1); /* set 1 way 0: entry 2 */
    assert_int_equal(all->valid[0] && all->tag[0] == 0x100, 1);
    assert_int_equal(all->valid[1] && all->tag[1] == 0x104, 1);
    assert_int_equal(all->valid[2] && all->tag[2] == 0x101, 1);
    for (uint32_t i = 3; i < 8; i++)
        assert_int_equal(all->valid[i], 0);
    /* a hit on 0x100 (set 0, way 0) and one on 0x101 (set 1, way 0) in one cycle: each set's
       PLRU points away from way 0 */
    req(&t, 0, 0x100, 0, 1);
    req(&t, 1, 0x101, 0, 2);
    lt_step(&t);
    assert_int_equal(t.o.hit_valid[0][0], 1);
    assert_int_equal(t.o.hit_ppn[0][0], 0x900);
    assert_int_equal(t.o.hit_valid[0][1], 1);
    assert_int_equal(plru_victim(t.l.bsa.set[0].plru, 2), 1);
    assert_int_equal(plru_victim(t.l.bsa.set[1].plru, 2), 1);
    /* 0x108 (set 0) evicts set 0's victim, 0x104, though sets 1-3 have invalid ways */
    miss_and_fill(&t, 0x108, 0, 0x908, 0, 1);
    assert_int_equal(all->tag[1], 0x108);
    assert_int_equal(all->data[1], 0x908);
    assert_int_equal(all->valid[3] + all->valid[4] + all->valid[6], 0);
    req(&t, 0, 0x104, 0, 3);
    lt_step(&t);
    assert_int_equal(t.o.hit_valid[0][0], 0); /* a conflict miss */
    t.grant = 1;
    lt_step(&t);
    rsp_ok(&t, 0x104, 0, 0x904, 0, 1, 0); /* refilled into set 0: evicts 0x100 (victim way 0) */
    lt_step(&t);
    lt_step(&t);
    assert_int_equal(all->tag[0], 0x104);
    /* a page flush of 0x101 invalidates entry 2 only; PLRU bits unchanged */
    uint8_t pl[4];
    for (uint32_t s = 0; s < 4; s++)
        pl[s] = t.l.bsa.set[s].plru[0];
    t.fl.kind = GMMU_FLUSH_PAGE;
    t.fl.vpn = 0x101;
    lt_step(&t);
    assert_int_equal(all->valid[2], 0);
    assert_int_equal(all->valid[0] && all->valid[1], 1);
    for (uint32_t s = 0; s < 4; s++)
        assert_int_equal(t.l.bsa.set[s].plru[0], pl[s]);
    lt_done(&t);
}

/* §4.1: send the WAIT entry that is the send candidate and answer it. */
static void send_and_answer(lt_t *t, uint64_t vpn, int nack) {
    assert_int_equal(t->c.req_valid, 1);
    assert_int_equal(t->c.req.vpn, vpn);
    t->grant = 1;
    lt_step(t);
    if (nack)
        rsp_nack(t, vpn, 0);
    else
        rsp_ok(t, vpn, 0, vpn + 0x100, 0, 1, 0);
    lt_step(t);
}

/* Blocking fault mode (§4.1): a NACK in blocking mode blocks req_ready_o until the faulted entry
 * is output; the other entries go on; replay, flush and cancel keep the block; replayable mode
 * never blocks; the mode is sampled at the NACK. */
static void test_blocking_mode(void **state) {
    (void)state;
    lt_t t;
    lt_init(&t, 2, 4);
    t.blocking = 1;
    req(&t, 0, 0x10, 0, 1);
    req(&t, 1, 0x20, 0, 2);
    lt_step(&t);
    send_and_answer(&t, 0x10, 1); /* A Nacked: flt set, blocked (2 FREE entries are enough) */
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_NACK);
    assert_int_equal(t.l.req.m_flt, 1);
    assert_int_equal(t.o.req_ready[0], 0);
    send_and_answer(&t, 0x20, 0); /* B is still sent and completes */
    assert_int_equal(t.o.miss_valid[0], 1);
    assert_int_equal(t.o.miss_id[0], 2);
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 1), L1_FREE);
    assert_int_equal(t.o.req_ready[0], 0);
    t.replay = 1; /* replay: NACK -> WAIT, still blocked */
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_WAIT);
    assert_int_equal(t.o.req_ready[0], 0);
    t.grant = 1; /* OK in a flush cycle: DONE, then back to WAIT by the flush: still blocked */
    lt_step(&t);
    rsp_ok(&t, 0x10, 0, 0x110, 0, 1, 0);
    t.fl.kind = GMMU_FLUSH_ALL;
    t.fl.vpn = 0;
    t.cmd = 1;
    lt_step(&t);
    assert_int_equal(l1_req_state(&t.l.req, 0), L1_WAIT);
    assert_int_equal(t.l.req.m_flt, 1);
    assert_int_equal(t.o.req_ready[0], 0);
    send_and_answer(&t, 0x10, 0); /* OK: DONE, on the port, still blocked this cycle */
    assert_int_equal(t.o.miss_valid[0], 1);
    assert_int_equal(t.o.miss_id[0], 1);
    assert_int_equal(t.o.req_ready[0], 0);
    lt_step(&t); /* output: flt cleared, ready again */
    assert_int_equal(t.l.req.m_flt, 0);
    assert_int_equal(t.o.req_ready[0], 1);
    /* cancel: the FATAL completion releases the SM */
    req(&t, 0, 0x30, 0, 3);
    lt_step(&t);
    send_and_answer(&t, 0x30, 1);
    assert_int_equal(t.o.req_ready[0], 0);
    t.cancel = 1;
    t.cancel_vpn = 0x30;
    lt_step(&t);
    assert_int_equal(t.o.miss_valid[0], 1);
    assert_int_equal(t.o.miss_fatal[0], 1);
    assert_int_equal(t.o.req_ready[0], 0);
    lt_step(&t);
    assert_int_equal(t.o.req_ready[0], 1);
    /* the mode is sampled at the NACK: 0 -> 1 later does not block, 1 -> 0 later does not
       release */
    t.blocking = 0;
    req(&t, 0, 0x40, 0, 4);
    lt_step(&t);
    send_and_answer(&t, 0x40, 1);
    assert_int_equal(t.o.req_ready[0], 1);
    t.blocking = 1;
    lt_step(&t);
    assert_int_equal(t.o.req_ready[0], 1);
    req(&t, 0, 0x50, 0, 5);
    lt_step(&t);
    send_and_answer(&t, 0x50, 1);
    assert_int_equal(t.o.req_ready[0], 0);
    t.blocking = 0;
    t.replay = 1;
    lt_step(&t);
    assert_int_equal(t.o.req_ready[0], 0);
    assert_int_equal(t.l.req.m_flt, 1u << 1);
    lt_done(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hit_next_cycle),
        cmocka_unit_test(test_write_needs_w_and_large),
        cmocka_unit_test(test_allocation_order_and_backpressure),
        cmocka_unit_test(test_merge_same_key),
        cmocka_unit_test(test_nack_replay_cancel),
        cmocka_unit_test(test_flush),
        cmocka_unit_test(test_fill_choice_and_plru),
        cmocka_unit_test(test_set_associative),
        cmocka_unit_test(test_blocking_mode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
