/* test_cmodel_bmp.c - referenced-line bitmaps of docs/microarch.md §20, block level: the L1's
 * accumulation and departures (l1_step_lb, §20.3 / §20.4) and the write-back queue with the
 * BMP_FLUSH scanner (bmp_step, §20.4 / §20.5). gmmu_top does not connect them yet (§20.7). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bmp.h"
#include "l1_tlb.h"
#include "test_cmodel_harness.h"
#include "tlb_rec.h"

/* ------------------------------------------------------------------ L1 (§20.3, §20.4) */
typedef struct {
    gmmu_params_t p;
    l1_t l;
    gmmu_viol_t v;
    uint8_t rv[GMMU_MAX_PORTS], rw[GMMU_MAX_PORTS], rid[GMMU_MAX_PORTS], rasid[GMMU_MAX_PORTS];
    uint8_t rline[GMMU_MAX_PORTS];
    uint64_t rvpn[GMMU_MAX_PORTS];
    uint8_t grant;
    int scan_e;
    gmmu_rsp_t rsp;
    gmmu_flush_t fl;
    l1_comb_t c;
    bmp_dep_t fdep[64];
    l1_lb_out_t lo;
} bt_t;

static void bt_init(bt_t *t) {
    memset(t, 0, sizeof(*t));
    th_params_tiny(&t->p); /* 2 ports, 8 base entries, 4 request entries */
    t->p.line_bitmap = 1;
    assert_int_equal(l1_init(&t->l, 0, &t->p), 0);
    t->scan_e = -1;
    l1_comb(&t->l, 0, &t->c);
}

static void bt_step(bt_t *t) {
    l1_comb(&t->l, 0, &t->c);
    const l1_in_t in = {t->rv, t->rw, t->rid, t->rasid, t->rvpn, t->grant, &t->rsp,
                        0,     0,     0,      0,        t->fl,   0};
    const l1_lb_in_t lb = {t->rline, t->scan_e};
    t->lo.flush = t->fdep;
    l1_step_lb(&t->l, &t->c, &in, &lb, &t->lo, &t->v);
    memset(t->rv, 0, sizeof(t->rv));
    memset(t->rline, 0, sizeof(t->rline));
    memset(&t->rsp, 0, sizeof(t->rsp));
    t->grant = 0;
    t->scan_e = -1;
    t->fl.kind = GMMU_FLUSH_NONE;
    l1_comb(&t->l, 0, &t->c);
}

static void bt_req(bt_t *t, uint32_t port, uint64_t vpn, int write, uint8_t line) {
    assert_int_equal(t->c.ready, 1);
    t->rv[port] = 1;
    t->rvpn[port] = vpn;
    t->rw[port] = (uint8_t)write;
    t->rid[port] = (uint8_t)(port + 1u);
    t->rline[port] = line;
}

static void bt_rsp(bt_t *t, uint64_t vpn, int write, int large, int nocache) {
    t->rsp.valid = 1;
    t->rsp.mask = 1;
    t->rsp.r.req.vpn = vpn;
    t->rsp.r.req.write = (uint8_t)write;
    t->rsp.r.ppn = vpn + 0x100;
    t->rsp.r.is_large = (uint8_t)large;
    t->rsp.r.w = 1;
    t->rsp.r.nocache = (uint8_t)nocache;
}

/* the base entry holding vpn, or -1 */
static int bt_entry(const bt_t *t, uint64_t vpn) {
    for (uint32_t i = 0; i < t->l.n_base; i++)
        if (t->l.base.valid[i] && gmmu_base_tag_unpack(t->l.base.tag[i]).vpn == vpn)
            return (int)i;
    return -1;
}

/* A miss on port 0 with line `line`, granted, filled; the completion is output. */
static void bt_fill(bt_t *t, uint64_t vpn, uint8_t line) {
    bt_req(t, 0, vpn, 0, line);
    bt_step(t);
    t->grant = 1;
    bt_step(t);
    bt_rsp(t, vpn, 0, 0, 0);
    bt_step(t);
    bt_step(t);
}

static void bt_done(bt_t *t) {
    assert_int_equal(t->v.count, 0);
    l1_free(&t->l);
}

/* hits and fills accumulate; two misses of one key record both lines; a large hit records
 * nothing; a nocache fill records nothing */
static void test_accumulate(void **state) {
    (void)state;
    bt_t t;
    bt_init(&t);
    /* two misses to the same page (lines 3 and 7), completed by one response */
    bt_req(&t, 0, 0x40, 0, 3);
    bt_req(&t, 1, 0x40, 0, 7);
    bt_step(&t);
    t.grant = 1;
    bt_step(&t);
    bt_rsp(&t, 0x40, 0, 0, 0);
    bt_step(&t);
    const int e = bt_entry(&t, 0x40);
    assert_true(e >= 0);
    assert_int_equal(t.l.bmp[e], (1u << 3) | (1u << 7));
    assert_int_equal(t.lo.evict, 0);
    /* hits on both ports, lines 0 and 31; then line 3 again: no change */
    bt_step(&t);
    bt_step(&t);
    bt_req(&t, 0, 0x40, 0, 0);
    bt_req(&t, 1, 0x40, 0, 31);
    bt_step(&t);
    assert_int_equal(t.l.bmp[e], (1u << 0) | (1u << 3) | (1u << 7) | (1u << 31));
    bt_req(&t, 0, 0x40, 0, 3);
    bt_step(&t);
    assert_int_equal(t.l.bmp[e], (1u << 0) | (1u << 3) | (1u << 7) | (1u << 31));
    /* a large fill and a hit through it: no bitmap anywhere else */
    bt_req(&t, 0, 0x200, 0, 5);
    bt_step(&t);
    t.grant = 1;
    bt_step(&t);
    bt_rsp(&t, 0x200, 0, 1, 0);
    bt_step(&t);
    bt_step(&t);
    bt_req(&t, 0, 0x201, 0, 9);
    bt_step(&t);
    assert_int_equal(bt_entry(&t, 0x201), -1);
    /* a nocache page is not cached and records nothing */
    bt_req(&t, 0, 0x50, 0, 4);
    bt_step(&t);
    t.grant = 1;
    bt_step(&t);
    bt_rsp(&t, 0x50, 0, 0, 1);
    bt_step(&t);
    assert_int_equal(bt_entry(&t, 0x50), -1);
    for (uint32_t i = 0; i < t.l.n_base; i++)
        if ((int)i != e)
            assert_int_equal(t.l.bmp[i], 0);
    bt_done(&t);
}

/* a same-tag fill (the write re-walk of a clean page) keeps the bitmap; a fill into a full
 * array evicts a valid entry and its bitmap departs, with the hits of that cycle */
static void test_fill_keep_and_evict(void **state) {
    (void)state;
    bt_t t;
    bt_init(&t);
    bt_fill(&t, 0x10, 1);
    const int e = bt_entry(&t, 0x10);
    /* a write misses (w = 1 entry, but let the response be a write re-walk of the same tag) */
    t.l.base.w[e] = 0;
    bt_req(&t, 0, 0x10, 1, 2);
    bt_step(&t);
    t.grant = 1;
    bt_step(&t);
    bt_rsp(&t, 0x10, 1, 0, 0);
    bt_step(&t);
    assert_int_equal(bt_entry(&t, 0x10), e);
    assert_int_equal(t.l.bmp[e], (1u << 1) | (1u << 2));
    assert_int_equal(t.lo.evict, 0);
    bt_step(&t);
    /* fill the other 7 entries; the eighth new page evicts the PLRU victim */
    for (uint64_t k = 1; k < 8; k++)
        bt_fill(&t, 0x10 + k, (uint8_t)k);
    for (uint64_t k = 0; k < 8; k++)
        assert_true(bt_entry(&t, 0x10 + k) >= 0);
    bt_req(&t, 0, 0x30, 0, 20);
    bt_step(&t);
    t.grant = 1;
    bt_step(&t);
    /* the victim (FA-2 on _q) */
    const uint32_t victim = tlb_fa_fill_pick(&t.l.base, tlb_base_tag(0, 0x30));
    const uint64_t vvpn = gmmu_base_tag_unpack(t.l.base.tag[victim]).vpn;
    const uint32_t vbmp = t.l.bmp[victim];
    assert_int_not_equal(vbmp, 0);
    /* the response and, the same cycle, a hit on the victim with line 30 */
    bt_rsp(&t, 0x30, 0, 0, 0);
    bt_req(&t, 1, vvpn, 0, 30);
    bt_step(&t);
    assert_int_equal(t.lo.evict, 1);
    assert_int_equal(t.lo.ev.vpn, vvpn);
    assert_int_equal(t.lo.ev.bmp, vbmp | (1u << 30));
    assert_int_equal(t.l.bmp[victim], 1u << 20);
    bt_done(&t);
}

/* INVAL_PAGE: the page's bitmap departs (with the hits of the flush cycle), the others stay;
 * INVAL_ALL: every non-zero bitmap departs in entry order; the scanner's take keeps the hits */
static void test_flush_and_scan(void **state) {
    (void)state;
    bt_t t;
    bt_init(&t);
    bt_fill(&t, 0x20, 4);
    bt_fill(&t, 0x21, 5);
    bt_fill(&t, 0x22, 6);
    const int e0 = bt_entry(&t, 0x20), e1 = bt_entry(&t, 0x21), e2 = bt_entry(&t, 0x22);
    t.fl = (gmmu_flush_t){.kind = GMMU_FLUSH_PAGE, .vpn = 0x21};
    bt_req(&t, 0, 0x21, 0, 9);
    bt_step(&t);
    assert_int_equal(t.lo.n_flush, 1);
    assert_int_equal(t.fdep[0].vpn, 0x21);
    assert_int_equal(t.fdep[0].bmp, (1u << 5) | (1u << 9));
    assert_int_equal(t.l.bmp[e1], 0);
    assert_int_equal(t.l.bmp[e0], 1u << 4);
    /* the scanner takes e2 while port 0 hits it with line 11: e2 keeps only line 11 */
    t.scan_e = e2;
    bt_req(&t, 0, 0x22, 0, 11);
    bt_step(&t);
    assert_int_equal(t.l.bmp[e2], 1u << 11);
    t.fl = (gmmu_flush_t){.kind = GMMU_FLUSH_ALL};
    bt_step(&t);
    assert_int_equal(t.lo.n_flush, 2);
    const int first = e0 < e2 ? e0 : e2;
    assert_int_equal(t.fdep[0].vpn, first == e0 ? 0x20 : 0x22);
    assert_int_equal(t.fdep[1].vpn, first == e0 ? 0x22 : 0x20);
    for (uint32_t i = 0; i < t.l.n_base; i++)
        assert_int_equal(t.l.bmp[i], 0);
    bt_done(&t);
}

/* ------------------------------------------------------------------ queue and scanner */
static void test_queue(void **state) {
    (void)state;
    bmp_t b;
    bmp_out_t o;
    bmp_init(&b, 4);
    /* the window: pages 0x1000..0x1063; table index = vpn - 0x1000 */
    const bmp_dep_t d[6] = {{0x1002, 0x1}, {0x1003, 0x2}, {0x1000, 0},
                            {0x1004, 0x4}, {0x1005, 0x8}, {0x1006, 0x10}};
    bmp_in_t in = {.base = 0x8000, .pages = 100, .vpn0 = 0x1000, .dep = d, .n_dep = 6};
    /* 5 non-zero departures, 4 slots: the fifth is lost; nothing loaded (the queue was empty) */
    bmp_step(&b, &in, &o);
    assert_int_equal(o.lost, 1);
    assert_int_equal(o.load, 0);
    assert_int_equal(b.count, 4);
    assert_true(bmp_busy(&b));
    /* loads in order when the register is free; odd pages go to the upper half */
    in.n_dep = 0;
    in.load_ok = 1;
    bmp_step(&b, &in, &o);
    assert_int_equal(o.load, 1);
    assert_int_equal(o.addr, 0x8000 + 8 * 1);
    assert_int_equal(o.wdata, 0x1);
    bmp_step(&b, &in, &o);
    assert_int_equal(o.addr, 0x8000 + 8 * 1);
    assert_int_equal(o.wdata, UINT64_C(0x2) << 32);
    in.load_ok = 0; /* a walker loads the register: the head waits */
    bmp_step(&b, &in, &o);
    assert_int_equal(o.load, 0);
    assert_int_equal(b.count, 2);
    /* a full queue this cycle: the slot freed by the head's load is not free yet */
    const bmp_dep_t e[3] = {{0x1007, 1}, {0x1008, 1}, {0x1009, 1}};
    in.dep = e;
    in.n_dep = 3;
    in.load_ok = 1;
    bmp_step(&b, &in, &o);
    assert_int_equal(o.lost, 1);
    assert_int_equal(o.load, 1);
    assert_int_equal(o.addr, 0x8000 + 8 * 2); /* page 4 */
    assert_int_equal(b.count, 3);
    /* out of the window (past BMP_PAGES, below vpn0) and a table switched off: lost */
    const bmp_dep_t f[3] = {{0x1064, 1}, {0xfff, 1}, {0x1063, 0}};
    in.dep = f;
    in.n_dep = 3;
    in.load_ok = 0;
    bmp_step(&b, &in, &o);
    assert_int_equal(o.lost, 2);
    in.pages = 0;
    in.dep = d;
    in.n_dep = 1;
    bmp_step(&b, &in, &o);
    assert_int_equal(o.lost, 1);
    assert_int_equal(b.count, 3);
}

static void test_scanner(void **state) {
    (void)state;
    bmp_t b;
    bmp_out_t o;
    bmp_init(&b, 3);
    bmp_in_t in = {.base = 0, .pages = 64, .start = 1};
    bmp_step(&b, &in, &o); /* the command cycle */
    assert_int_equal(o.scan_take, 0);
    assert_int_equal(b.bs_busy, 1);
    in.start = 0;
    /* entry 0: bitmap 0x5, page 10 */
    in.scan_bmp = 0x5;
    in.scan_vpn = 10;
    bmp_step(&b, &in, &o);
    assert_int_equal(o.scan_take, 1);
    assert_int_equal(b.count, 1);
    assert_int_equal(b.bs_idx, 1);
    /* fill the queue with departures: the scanner waits (its slot comes from _q) */
    const bmp_dep_t d[3] = {{1, 1}, {2, 1}, {3, 1}};
    in.dep = d;
    in.n_dep = 3;
    in.scan_bmp = 0;
    bmp_step(&b, &in, &o); /* scanner visits entry 1 (empty), then 3 departures fill the queue */
    assert_int_equal(o.scan_take, 1);
    assert_int_equal(o.lost, 0);
    assert_int_equal(b.count, 4);
    in.n_dep = 0;
    in.scan_bmp = 0x80;
    in.scan_vpn = 11;
    bmp_step(&b, &in, &o);
    assert_int_equal(o.scan_take, 0); /* waits: no slot */
    assert_int_equal(b.bs_idx, 2);
    in.load_ok = 1;
    bmp_step(&b, &in, &o); /* the head leaves; the scanner still saw a full _q */
    assert_int_equal(o.scan_take, 0);
    bmp_step(&b, &in, &o);
    assert_int_equal(o.scan_take, 1);
    assert_int_equal(b.bs_idx, 3);
    /* the end: not done while the queue holds bitmaps or the register holds one */
    in.scan_bmp = 0;
    while (b.count > 0) {
        bmp_step(&b, &in, &o);
        assert_int_equal(o.done, 0);
    }
    in.load_ok = 0;
    in.mr_bmp = 1;
    bmp_step(&b, &in, &o);
    assert_int_equal(o.done, 0);
    in.mr_bmp = 0;
    bmp_step(&b, &in, &o);
    assert_int_equal(o.done, 1);
    assert_int_equal(b.bs_busy, 0);
    assert_false(bmp_busy(&b));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accumulate),     cmocka_unit_test(test_fill_keep_and_evict),
        cmocka_unit_test(test_flush_and_scan), cmocka_unit_test(test_queue),
        cmocka_unit_test(test_scanner),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
