/*
 * test_cmodel_pwc.c - the page-walk cache (docs/microarch.md §16) through the C model's top
 * level with the harness's fake PTE memory, on configs/pwc.cfg's parameters (tiny, 4 address
 * spaces, 6 entries, 3-cycle hits): a hit at each level (the walk reads only the levels below),
 * the level-2 large-page entry, the round-robin victim, invalidation by page, by (ASID, page) and
 * by ASID, no hit across address spaces, and the race of a read in flight with an invalidation
 * of its path (the response must not fill, §16.4).
 *
 * tb/unit/test_pwc_lockstep.c includes this file with PWC_ATTACH / PWC_DETACH defined: every
 * scenario then also runs the Verilated RTL of configs/pwc.cfg in lock-step with the model,
 * output ports compared every cycle (make test-pwc-lockstep).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_cmodel_harness.h"

#ifndef PWC_ATTACH
#define PWC_ATTACH(h) ((void)(h))
#define PWC_DETACH(h) ((void)(h))
#endif

#define ROOT0 0x100000ull
#define ROOT1 0x300000ull
#define FB 0x800000ull
#define PTE_VW ((1ull << GMMU_PTE_V) | (1ull << GMMU_PTE_W))
/* vpn of the level indices (l0, l1, l2, l3) */
#define VPN(a, b, c, d)                                                                            \
    (((uint64_t)(a) << 27) | ((uint64_t)(b) << 18) | ((uint64_t)(c) << 9) | (uint64_t)(d))
#define PWC_ENTRIES 6u
#define PWC_LATENCY 3u

static void init(th_t *h) {
    gmmu_params_t p;
    th_params_tiny(&p);
    p.num_asids = 4;
    p.pwc_entries = PWC_ENTRIES;
    p.pwc_latency = PWC_LATENCY;
    th_init(h, &p);
    PWC_ATTACH(h);
    th_setup(h, ROOT0, FB, 16);
}

static void done(th_t *h) {
    assert_int_equal(gmmu_model_violations(h->m, (char[8]){0}, 8), 0);
    PWC_DETACH(h);
    th_done(h);
}

/* PT_BASE of ASID a (through ASID_SEL, left at 0) */
static void set_root(th_t *h, uint32_t a, uint64_t root) {
    th_csr_write(h, GMMU_CSR_ASID_SEL, a);
    th_csr_write(h, GMMU_CSR_PT_BASE_LO, (uint32_t)root);
    th_csr_write(h, GMMU_CSR_PT_BASE_HI, (uint32_t)(root >> 32));
    th_csr_write(h, GMMU_CSR_ASID_SEL, 0);
}

/* a command with CMD_ARG_HI.ASID and .SCOPE (§14.4); returns in the command cycle */
static void cmd_asid(th_t *h, uint32_t op, uint32_t asid, uint32_t scope, uint64_t vpn) {
    th_csr_write(h, GMMU_CSR_CMD_ARG_LO, (uint32_t)vpn);
    th_csr_write(h, GMMU_CSR_CMD_ARG_HI,
                 (uint32_t)(vpn >> 32) | asid << GMMU_CSR_CMD_ARG_HI_ASID_LSB |
                     scope << GMMU_CSR_CMD_ARG_HI_SCOPE_LSB);
    th_csr_write(h, GMMU_CSR_CMD, op);
}

/* maps vpn in ASID a's table (root) */
static void map_in(th_t *h, uint64_t root, uint64_t vpn, uint64_t ppn) {
    const uint64_t keep = h->pt_base;
    h->pt_base = root;
    th_map(h, vpn, ppn, PTE_VW);
    h->pt_base = keep;
}

/* One read request of SM sm in ASID asid, to its completion; returns the PTE reads it took
 * and checks the translation. */
static unsigned walk(th_t *h, uint32_t sm, uint32_t asid, uint64_t vpn, uint64_t ppn) {
    for (unsigned i = 0; i < 200 && !h->out.req_ready[sm]; i++)
        th_step(h);
    assert_true(h->out.req_ready[sm]);
    const unsigned reads0 = h->mem_reqs, n0 = h->nmiss;
    th_req(h, sm, 0, vpn, 0, (uint8_t)(h->nmiss + 1u));
    h->in.req_asid[sm][0] = (uint8_t)asid;
    th_step(h);
    for (int i = 0; i < 5000 && h->nmiss == n0; i++)
        th_step(h);
    assert_int_equal(h->nmiss, n0 + 1u);
    assert_int_equal(h->miss[n0].fatal, 0);
    assert_int_equal(h->miss[n0].ppn, ppn);
    return h->mem_reqs - reads0;
}

static uint64_t st(const th_t *h, const char *scope, const char *reg, uint32_t i) {
    uint64_t v = 0;
    assert_int_equal(gmmu_model_state_get(h->m, scope, reg, i, 0, &v), 0);
    return v;
}

/* a hit at each level skips the levels above it; the deepest hit wins; round-robin victim */
static void test_pwc_levels(void **state) {
    (void)state;
    th_t h;
    init(&h);
    const uint64_t a = VPN(1, 2, 3, 4), b = VPN(1, 2, 3, 5), c = VPN(1, 2, 7, 0);
    const uint64_t d = VPN(1, 9, 0, 0), e = VPN(6, 0, 0, 0), f = VPN(1, 2, 3, 9);
    th_map(&h, a, 0x111, PTE_VW);
    th_map(&h, b, 0x222, PTE_VW);
    th_map(&h, c, 0x333, PTE_VW);
    th_map(&h, d, 0x444, PTE_VW);
    th_map(&h, e, 0x555, PTE_VW);
    th_map(&h, f, 0x666, PTE_VW);
    assert_int_equal(walk(&h, 0, 0, a, 0x111), 4u); /* empty cache: 4 reads, fills 3 entries */
    assert_int_equal(h.ev_count[GMMU_EV_PWC_HIT], 0u);
    assert_int_equal(walk(&h, 0, 0, b, 0x222), 1u); /* level-2 hit: the leaf only */
    assert_int_equal(walk(&h, 0, 0, c, 0x333), 2u); /* level-1 hit */
    assert_int_equal(walk(&h, 0, 0, d, 0x444), 3u); /* level-0 hit */
    assert_int_equal(h.ev_count[GMMU_EV_PWC_HIT], 3u);
    /* a, c, d filled 3 + 1 + 2 = 6 entries: full; e misses and its 3 fills replace entries
     * 0, 1, 2 (level 0 of a, level 1 of a, level 2 of a) round robin */
    assert_int_equal(walk(&h, 0, 0, e, 0x555), 4u);
    assert_int_equal(st(&h, "u_ptw.g_pwc.u_pwc", "prr_q", 0), 3u);
    assert_int_equal(walk(&h, 0, 0, f, 0x666), 4u); /* a's path is gone; f refills it in 3..5 */
    th_map(&h, VPN(6, 0, 0, 1), 0x777, PTE_VW);
    assert_int_equal(walk(&h, 0, 0, VPN(6, 0, 0, 1), 0x777), 1u); /* e's level 2 (entry 2) */
    assert_int_equal(h.ev_count[GMMU_EV_PWC_HIT], 4u);
    done(&h);
}

/* a hit starts the first read PwcLatency cycles after the cycle a miss would (§16.2) */
static void test_pwc_latency(void **state) {
    (void)state;
    th_t h;
    init(&h);
    const uint64_t a = VPN(3, 1, 1, 1), b = VPN(3, 1, 1, 2), c = VPN(3, 1, 2, 0);
    th_map(&h, a, 0x10, PTE_VW);
    th_map(&h, b, 0x20, PTE_VW);
    th_map(&h, c, 0x30, PTE_VW);
    h.mem_lat = 7;
    uint64_t t0 = h.cycle;
    assert_int_equal(walk(&h, 0, 0, a, 0x10), 4u);
    const uint64_t miss4 = h.miss[h.nmiss - 1u].cycle - t0;
    t0 = h.cycle;
    assert_int_equal(walk(&h, 0, 0, b, 0x20), 1u);
    const uint64_t hit1 = h.miss[h.nmiss - 1u].cycle - t0;
    t0 = h.cycle;
    assert_int_equal(walk(&h, 0, 0, c, 0x30), 2u);
    const uint64_t hit2 = h.miss[h.nmiss - 1u].cycle - t0;
    /* the same request path: a read costs rt = hit2 - hit1 cycles, a hit PWC_LATENCY */
    const uint64_t rt = hit2 - hit1;
    assert_true(rt >= h.mem_lat);
    assert_int_equal(miss4 - hit1, 3u * rt - PWC_LATENCY);
    done(&h);
}

/* the level-2 entry with L: a large walk from it reads entry 0 of the level-3 table only */
static void test_pwc_large(void **state) {
    (void)state;
    th_t h;
    init(&h);
    for (unsigned r = 0; r < 3; r++)
        th_map_large(&h, VPN(2, 0, r, 0), 0x40000ull + 0x200ull * r, PTE_VW);
    assert_int_equal(walk(&h, 0, 0, VPN(2, 0, 0, 7), 0x40007), 4u);
    assert_int_equal(walk(&h, 0, 0, VPN(2, 0, 1, 7), 0x40207), 2u); /* level-1 hit */
    assert_int_equal(walk(&h, 0, 0, VPN(2, 0, 2, 7), 0x40407), 2u);
    assert_int_equal(h.ev_count[GMMU_EV_WALK_LARGE], 3u);
    /* region 0 left the L2 large array (2 entries); SM 1 walks it from the cached L entry */
    assert_int_equal(walk(&h, 1, 0, VPN(2, 0, 0, 9), 0x40009), 1u);
    assert_int_equal(h.ev_count[GMMU_EV_WALK_LARGE], 4u);
    assert_int_equal(h.ev_count[GMMU_EV_PWC_HIT], 3u);
    done(&h);
}

/* INVAL_PAGE invalidates every cached entry on the page's path, nothing else; INVAL_ALL all */
static void test_pwc_inval_page(void **state) {
    (void)state;
    th_t h;
    init(&h);
    for (unsigned i = 0; i < 6; i++)
        th_map(&h, VPN(1, 2, 3, i), 0x100 + i, PTE_VW);
    th_map(&h, VPN(5, 0, 0, 0), 0x500, PTE_VW);
    th_map(&h, VPN(5, 0, 0, 1), 0x501, PTE_VW);
    assert_int_equal(walk(&h, 0, 0, VPN(1, 2, 3, 0), 0x100), 4u);
    assert_int_equal(walk(&h, 0, 0, VPN(5, 0, 0, 0), 0x500), 4u); /* 6 entries now */
    /* no entry of the other path */
    cmd_asid(&h, GMMU_CMD_INVAL_PAGE, 0, 0, VPN(5, 0, 0, 0));
    th_steps(&h, 2);
    assert_int_equal(walk(&h, 0, 0, VPN(1, 2, 3, 1), 0x101), 1u);
    assert_int_equal(walk(&h, 0, 0, VPN(5, 0, 0, 1), 0x501), 4u);
    /* a page of the path: every level of it */
    cmd_asid(&h, GMMU_CMD_INVAL_PAGE, 0, 0, VPN(1, 2, 3, 4));
    th_steps(&h, 2);
    assert_int_equal(walk(&h, 0, 0, VPN(1, 2, 3, 2), 0x102), 4u);
    cmd_asid(&h, GMMU_CMD_INVAL_ALL, 0, 0, 0);
    th_steps(&h, 2);
    assert_int_equal(walk(&h, 0, 0, VPN(1, 2, 3, 3), 0x103), 4u);
    assert_int_equal(walk(&h, 0, 0, VPN(1, 2, 3, 5), 0x105), 1u);
    done(&h);
}

/* address spaces: no hit across them; invalidation by (ASID, page) and by ASID */
static void test_pwc_asid(void **state) {
    (void)state;
    th_t h;
    init(&h);
    set_root(&h, 1, ROOT1);
    for (unsigned i = 0; i < 6; i++) {
        map_in(&h, ROOT0, VPN(1, 2, 3, i), 0x100 + i);
        map_in(&h, ROOT1, VPN(1, 2, 3, i), 0x200 + i);
    }
    assert_int_equal(walk(&h, 0, 0, VPN(1, 2, 3, 0), 0x100), 4u);
    assert_int_equal(walk(&h, 0, 1, VPN(1, 2, 3, 0), 0x200), 4u); /* same vpn, ASID 1: miss */
    assert_int_equal(walk(&h, 0, 1, VPN(1, 2, 3, 1), 0x201), 1u);
    /* by ASID: ASID 0's entries go, ASID 1's stay */
    cmd_asid(&h, GMMU_CMD_INVAL_ALL, 0, 1, 0);
    th_steps(&h, 2);
    assert_int_equal(walk(&h, 0, 0, VPN(1, 2, 3, 2), 0x102), 4u);
    assert_int_equal(walk(&h, 0, 1, VPN(1, 2, 3, 3), 0x203), 1u);
    /* by (ASID 1, page): ASID 0's path stays */
    cmd_asid(&h, GMMU_CMD_INVAL_PAGE, 1, 1, VPN(1, 2, 3, 3));
    th_steps(&h, 2);
    assert_int_equal(walk(&h, 0, 0, VPN(1, 2, 3, 4), 0x104), 1u);
    assert_int_equal(walk(&h, 0, 1, VPN(1, 2, 3, 4), 0x204), 4u);
    /* page in every address space (SCOPE = 0) */
    cmd_asid(&h, GMMU_CMD_INVAL_PAGE, 0, 0, VPN(1, 2, 3, 0));
    th_steps(&h, 2);
    assert_int_equal(walk(&h, 0, 0, VPN(1, 2, 3, 5), 0x105), 4u);
    assert_int_equal(walk(&h, 0, 1, VPN(1, 2, 3, 5), 0x205), 4u);
    done(&h);
}

/* steps until walker 0 waits for the response of a read at level lv */
static void until_waiting(th_t *h, unsigned lv) {
    for (int i = 0; i < 500; i++) {
        if (st(h, "u_ptw", "w_state_q", 0) == 2u && st(h, "u_ptw", "w_level_q", 0) == lv)
            return;
        th_step(h);
    }
    fail_msg("walker 0 never waited at level %u", lv);
}

/* a walk outside the flushed region whose level-1 read is in flight when its path is
 * invalidated: the walk goes on (not poisoned) but its level-1 response fills nothing (§16.4);
 * the levels read after the invalidation fill */
static void test_pwc_race_nofill(void **state) {
    (void)state;
    th_t h;
    init(&h);
    const uint64_t y = VPN(1, 2, 5, 1), x = VPN(1, 2, 3, 0);
    th_map(&h, y, 0x71, PTE_VW);
    th_map(&h, x, 0x70, PTE_VW);
    th_map(&h, VPN(1, 2, 9, 0), 0x72, PTE_VW);
    th_map(&h, VPN(1, 2, 5, 7), 0x73, PTE_VW);
    h.mem_lat = 40;
    th_req(&h, 0, 0, y, 0, 1);
    th_step(&h);
    until_waiting(&h, 1);
    cmd_asid(&h, GMMU_CMD_INVAL_PAGE, 0, 0, x); /* now the command cycle */
    th_step(&h);
    assert_int_equal(st(&h, "u_ptw", "w_state_q", 0), 2u);
    assert_int_equal(st(&h, "u_ptw", "w_level_q", 0), 1u);
    assert_int_equal(st(&h, "u_ptw", "w_nofill_q", 0) & 1u, 1u);
    assert_int_equal(st(&h, "u_ptw", "w_poison_q", 0) & 1u, 0u);
    assert_int_equal(st(&h, "u_ptw.g_pwc.u_pwc", "pv_q", 0), 0u); /* level 0 of y: invalid */
    for (int i = 0; i < 2000 && h.nmiss == 0; i++)
        th_step(&h);
    assert_int_equal(h.nmiss, 1u);
    assert_int_equal(h.miss[0].ppn, 0x71);
    assert_int_equal(h.ev_count[GMMU_EV_WALK_RESTART], 0u);
    h.mem_lat = 1;
    /* level 1 (1, 2) was not filled: a page of another level-2 table misses entirely */
    assert_int_equal(walk(&h, 0, 0, VPN(1, 2, 9, 0), 0x72), 4u);
    /* y's level-2 entry was read after the invalidation and filled */
    assert_int_equal(walk(&h, 1, 0, VPN(1, 2, 5, 7), 0x73), 1u);
    done(&h);
}

/* a walk in its hit latency (WK_PWC) when its region is flushed restarts at level 0 */
static void test_pwc_flush_in_latency(void **state) {
    (void)state;
    th_t h;
    init(&h);
    const uint64_t a = VPN(4, 4, 4, 0), b = VPN(4, 4, 4, 1);
    th_map(&h, a, 0x80, PTE_VW);
    th_map(&h, b, 0x81, PTE_VW);
    assert_int_equal(walk(&h, 0, 0, a, 0x80), 4u);
    /* the CMD write in the walker's first WK_PWC cycle: the command cycle is its second */
    const unsigned reads0 = h.mem_reqs;
    th_req(&h, 0, 0, b, 0, 9);
    th_step(&h);
    for (int i = 0; i < 50 && st(&h, "u_ptw", "w_state_q", 0) != 3u; i++)
        th_step(&h);
    assert_int_equal(st(&h, "u_ptw", "w_state_q", 0), 3u);
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_INVAL_PAGE); /* CMD_ARG = 0 from reset: no match */
    th_step(&h);
    for (int i = 0; i < 2000 && h.nmiss == 1; i++)
        th_step(&h);
    assert_int_equal(h.nmiss, 2u);
    assert_int_equal(h.miss[1].ppn, 0x81);
    assert_int_equal(h.mem_reqs - reads0, 1u);
    cmd_asid(&h, GMMU_CMD_INVAL_ALL, 2, 1, 0); /* by another ASID: nothing of ASID 0 */
    th_steps(&h, 2);
    /* now the region's vpn in CMD_ARG (ASID 0, SCOPE 0) */
    th_csr_write(&h, GMMU_CSR_CMD_ARG_LO, (uint32_t)a);
    th_csr_write(&h, GMMU_CSR_CMD_ARG_HI, (uint32_t)(a >> 32));
    th_map(&h, VPN(4, 4, 4, 2), 0x82, PTE_VW);
    assert_int_equal(walk(&h, 0, 0, VPN(4, 4, 4, 2), 0x82), 1u);
    th_map(&h, VPN(4, 4, 4, 3), 0x83, PTE_VW);
    const unsigned reads1 = h.mem_reqs;
    th_req(&h, 0, 0, VPN(4, 4, 4, 3), 0, 10);
    th_step(&h);
    for (int i = 0; i < 50 && st(&h, "u_ptw", "w_state_q", 0) != 3u; i++)
        th_step(&h);
    assert_int_equal(st(&h, "u_ptw", "w_state_q", 0), 3u);
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_INVAL_PAGE);   /* CMD_ARG = a: the region */
    assert_int_equal(st(&h, "u_ptw", "w_state_q", 0), 3u); /* still in the hit latency */
    th_step(&h);                                           /* the command cycle */
    assert_int_equal(st(&h, "u_ptw", "w_state_q", 0), 1u); /* restarted: ISSUE */
    assert_int_equal(st(&h, "u_ptw", "w_level_q", 0), 0u);
    for (int i = 0; i < 2000 && h.nmiss == 3; i++)
        th_step(&h);
    assert_int_equal(h.nmiss, 4u);
    assert_int_equal(h.miss[3].ppn, 0x83);
    assert_int_equal(h.mem_reqs - reads1, 4u);
    done(&h);
}

/* two walks of one new region at once: both miss, both fill the same three tags (update in
 * place, no duplicate: RTL SVA a_pwc_unique, and pv_q shows three entries); the next walk hits
 * level 2 */
static void test_pwc_concurrent(void **state) {
    (void)state;
    th_t h;
    init(&h);
    for (unsigned i = 1; i <= 3; i++)
        th_map(&h, VPN(7, 1, 1, i), 0x90 + i, PTE_VW);
    h.mem_lat = 5;
    const unsigned reads0 = h.mem_reqs;
    th_req(&h, 0, 0, VPN(7, 1, 1, 1), 0, 1);
    th_req(&h, 1, 0, VPN(7, 1, 1, 2), 0, 2);
    th_step(&h);
    for (int i = 0; i < 2000 && h.nmiss < 2; i++)
        th_step(&h);
    assert_int_equal(h.nmiss, 2u);
    assert_int_equal(h.mem_reqs - reads0, 8u);
    assert_int_equal(h.ev_count[GMMU_EV_PWC_HIT], 0u);
    /* three entries, not six */
    assert_int_equal(st(&h, "u_ptw.g_pwc.u_pwc", "pv_q", 0), 7u);
    assert_int_equal(walk(&h, 0, 0, VPN(7, 1, 1, 3), 0x93), 1u);
    done(&h);
}

/* a page flush in the very cycle a walker is assigned with a cache hit (the L2's walk request in
 * a command cycle): the walker is restarted at the root like any other, not left in its hit
 * latency (RTL gmmu_ptw compares it on the assigned request's key, docs/fpga.md session 15) */
static void test_pwc_flush_at_assign(void **state) {
    (void)state;
    th_t h;
    init(&h);
    const uint64_t a = VPN(4, 4, 4, 0), c = VPN(4, 4, 4, 5);
    th_map(&h, a, 0x80, PTE_VW);
    th_map(&h, c, 0x85, PTE_VW);
    assert_int_equal(walk(&h, 0, 0, a, 0x80), 4u); /* fills the cache */
    th_csr_write(&h, GMMU_CSR_CMD_ARG_LO, (uint32_t)a);
    th_csr_write(&h, GMMU_CSR_CMD_ARG_HI, (uint32_t)(a >> 32));
    const unsigned n0 = h.nmiss;
    th_req(&h, 0, 0, c, 0, 9);
    th_step(&h);
    /* the cycle whose edge allocates the L2 MSHR (its last stage, L2Latency 3, valid): the CMD
     * write there makes the next cycle, the walker assignment's, the command cycle */
    for (int i = 0; i < 50 && !((st(&h, "u_l2", "pv_q", 0) >> 2) & 1u); i++)
        th_step(&h);
    assert_true((st(&h, "u_l2", "pv_q", 0) >> 2) & 1u);
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_INVAL_PAGE);   /* CMD_ARG = a: c's region */
    assert_int_equal(st(&h, "u_l2", "m_state_q", 0), 1u);  /* NEED_WALK */
    assert_int_equal(st(&h, "u_ptw", "w_state_q", 0), 0u); /* IDLE */
    th_step(&h); /* the command cycle: assigned with a cache hit, restarted by the flush */
    assert_int_equal(st(&h, "u_ptw", "w_state_q", 0), 1u); /* ISSUE, not PWC */
    assert_int_equal(st(&h, "u_ptw", "w_level_q", 0), 0u);
    for (int i = 0; i < 2000 && h.nmiss == n0; i++)
        th_step(&h);
    assert_int_equal(h.nmiss, n0 + 1u);
    assert_int_equal(h.miss[n0].ppn, 0x85);
    th_done(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pwc_levels),
        cmocka_unit_test(test_pwc_latency),
        cmocka_unit_test(test_pwc_large),
        cmocka_unit_test(test_pwc_inval_page),
        cmocka_unit_test(test_pwc_asid),
        cmocka_unit_test(test_pwc_race_nofill),
        cmocka_unit_test(test_pwc_flush_in_latency),
        cmocka_unit_test(test_pwc_flush_at_assign),
        cmocka_unit_test(test_pwc_concurrent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
