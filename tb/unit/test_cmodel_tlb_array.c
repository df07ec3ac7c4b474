/* test_cmodel_tlb_array.c - the TLB array classes of docs/microarch.md §1.2 / §1.3 (tlb_fa,
 * tlb_sa) and the L1 request table (l1_req) driven directly, step by step. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "l1_req.h"
#include "tlb_fa.h"
#include "tlb_sa.h"

static void test_fa_lookup(void **state) {
    (void)state;
    tlb_fa_t a;
    assert_int_equal(tlb_fa_init(&a, 4), 0);
    uint32_t idx = 99;
    unsigned nm = 99;
    assert_int_equal(tlb_fa_lookup(&a, 0x10, 0, &idx, &nm), 0); /* all invalid */
    assert_int_equal(nm, 0);
    assert_int_equal(idx, 99); /* untouched on a miss */
    tlb_fa_fill(&a, 2, 0x10, 0, 0xaaa);
    tlb_fa_fill(&a, 3, 0x10, 1, 0xbbb); /* a duplicate tag (multi-hit) */
    assert_int_equal(tlb_fa_lookup(&a, 0x10, 0, &idx, &nm), 1);
    assert_int_equal(idx, 2); /* lowest index */
    assert_int_equal(nm, 2);
    assert_int_equal(a.data[idx], 0xaaa);
    /* a write needs w: entry 2 is read-only, entry 3 writable */
    assert_int_equal(tlb_fa_lookup(&a, 0x10, 1, &idx, NULL), 1);
    assert_int_equal(idx, 3);
    a.valid[3] = 0;
    assert_int_equal(tlb_fa_lookup(&a, 0x10, 1, &idx, &nm), 0); /* tag matches, no permission */
    assert_int_equal(nm, 1);
    tlb_fa_free(&a);
}

static void test_fa_fill_pick_and_touch(void **state) {
    (void)state;
    tlb_fa_t a;
    assert_int_equal(tlb_fa_init(&a, 4), 0);
    /* lowest invalid way each time; each fill is touched */
    for (uint32_t i = 0; i < 4; i++) {
        const uint32_t w = tlb_fa_fill_pick(&a, 0x100 + i);
        assert_int_equal(w, i);
        tlb_fa_fill(&a, w, 0x100 + i, 1, i);
        tlb_fa_touch(&a, w);
    }
    /* full: the PLRU victim (ways touched 0,1,2,3 -> victim 0) */
    assert_int_equal(tlb_fa_fill_pick(&a, 0x200), 0);
    /* same tag wins over the victim and over an invalid way */
    a.valid[1] = 0;
    assert_int_equal(tlb_fa_fill_pick(&a, 0x102), 2);
    assert_int_equal(tlb_fa_fill_pick(&a, 0x200), 1);
    /* an invalid entry holding the tag is not a "same tag" entry */
    assert_int_equal(tlb_fa_fill_pick(&a, 0x101), 1);
    /* touches apply in call order: touch 0 then 2 -> victim 1 (root points left, node 1 right) */
    memset(a.plru, 0, 3);
    tlb_fa_touch(&a, 0);
    tlb_fa_touch(&a, 2);
    assert_memory_equal(a.plru, ((uint8_t[]){0, 1, 1}), 3);
    tlb_fa_free(&a);
}

static void test_fa_flush(void **state) {
    (void)state;
    tlb_fa_t a;
    assert_int_equal(tlb_fa_init(&a, 2), 0);
    tlb_fa_fill(&a, 0, 0x7, 1, 1);
    tlb_fa_fill(&a, 1, 0x8, 1, 2);
    a.plru[0] = 1;
    tlb_fa_flush(&a, 0, 0x8, ~UINT64_C(0)); /* page flush: only the matching tag */
    assert_int_equal(a.valid[0], 1);
    assert_int_equal(a.valid[1], 0);
    assert_int_equal(a.tag[1], 0x8); /* tag and data kept, only valid cleared */
    tlb_fa_fill(&a, 1, 0x9, 1, 3);
    tlb_fa_flush(&a, 1, 0, 0); /* full flush */
    assert_int_equal(a.valid[0] | a.valid[1], 0);
    assert_int_equal(a.plru[0], 1); /* PLRU unchanged */
    tlb_fa_free(&a);
}

static void test_sa_sets(void **state) {
    (void)state;
    tlb_sa_t a;
    assert_int_equal(tlb_sa_init(&a, 4, 2), 0);
    tlb_fa_t *s1 = tlb_sa_set(&a, 1), *s2 = tlb_sa_set(&a, 2);
    assert_int_equal(s1->n, 2);
    /* a fill in set 1 lands at index 1 * ways + way of the storage, nothing in set 2 */
    uint32_t w = tlb_fa_fill_pick(s1, 0x5);
    tlb_fa_fill(s1, w, 0x5, 1, 0x55);
    tlb_fa_touch(s1, w);
    assert_int_equal(a.all.valid[2], 1);
    assert_int_equal(a.all.data[2], 0x55);
    uint32_t way = 9;
    assert_int_equal(tlb_fa_lookup(tlb_sa_set_c(&a, 1), 0x5, 0, &way, NULL), 1);
    assert_int_equal(way, 0);
    assert_int_equal(tlb_fa_lookup(s2, 0x5, 0, &way, NULL), 0);
    /* per-set PLRU: set 1's bit moved, set 2's did not */
    assert_int_equal(a.plru[1], 1);
    assert_int_equal(a.plru[2], 0);
    assert_int_equal(tlb_fa_fill_pick(s1, 0x9), 1);
    assert_int_equal(tlb_fa_fill_pick(s2, 0x9), 0);
    /* SA-5: a page flush looks in the tag's set only; a full flush clears every set */
    tlb_fa_fill(s2, 0, 0x5, 1, 0x66);
    assert_int_equal(tlb_sa_match(&a, 1, 0x5), 1);
    assert_int_equal(tlb_sa_match(&a, 2, 0x5), 1);
    assert_int_equal(tlb_sa_match(&a, 1, 0x9), 0);
    /* a local flush of a set the RAMs did not read is refused (the RTL compares rd_tag) */
    tlb_sa_ram_read(&a, 2);
    assert_int_equal(tlb_sa_flush(&a, 0, 1, 0x5, ~UINT64_C(0)), -1);
    assert_int_equal(a.all.valid[2], 1);
    tlb_sa_ram_read(&a, 1);
    assert_int_equal(tlb_sa_flush(&a, 0, 1, 0x5, ~UINT64_C(0)), 0);
    assert_int_equal(a.all.valid[2], 0);
    assert_int_equal(a.all.valid[4], 1);
    tlb_sa_flush(&a, 1, 0, 0, 0);
    assert_int_equal(a.all.valid[4], 0);
    tlb_sa_free(&a);
}

static void test_req_steps(void **state) {
    (void)state;
    l1_req_t r;
    l1_req_comb_t c;
    l1_req_init(&r, 4);
    l1_req_comb(&r, 2, 0, &c);
    assert_int_equal(c.ready, 1);
    assert_int_equal(c.out, -1);
    assert_int_equal(c.send, -1);
    /* (f) allocate: k-th miss -> k-th lowest FREE entry of _q */
    uint64_t fr = l1_req_free_mask(&r);
    assert_int_equal(l1_req_alloc(&r, &fr, 0, 0x40, 0, 1), 0);
    assert_int_equal(l1_req_alloc(&r, &fr, 0, 0x40, 0, 2), 0);
    assert_int_equal(l1_req_state(&r, 0), L1_WAIT);
    assert_int_equal(r.ent[1].id, 2);
    l1_req_comb(&r, 2, 0, &c);
    assert_int_equal(c.ready, 1); /* 2 FREE >= 2 ports */
    assert_int_equal(c.send, 0);
    l1_req_comb(&r, 3, 0, &c);
    assert_int_equal(c.ready, 0); /* 2 FREE < 3 ports */
    l1_req_comb(&r, 2, 1, &c);
    assert_int_equal(c.ready, 0); /* command cycle */
    /* (b) send; the other entry with the same key is then blocked */
    assert_int_equal(l1_req_send(&r, &c), 0);
    assert_int_equal(l1_req_state(&r, 0), L1_INFL);
    l1_req_comb(&r, 2, 0, &c);
    assert_int_equal(c.send, -1);
    /* (c) a large OK response completes both key holders with their own vpn[8:0] */
    const gmmu_rsp_t ok = {
        .valid = 1, .mask = 1, .r = {.req = {.vpn = 0x40}, .ppn = 0x1200, .is_large = 1}};
    assert_int_equal(l1_req_response(&r, &ok, 0), 2);
    assert_int_equal(l1_req_state(&r, 1), L1_DONE);
    assert_int_equal(r.ent[1].ppn, 0x1240);
    /* (g) a page flush of the region sends DONE entries back to WAIT */
    const gmmu_flush_t fl = {.kind = GMMU_FLUSH_PAGE, .vpn = 0x1ff};
    l1_req_flush(&r, &fl);
    assert_int_equal(l1_req_state(&r, 0), L1_WAIT);
    /* NACK, (d) replay and (e) cancel */
    const gmmu_rsp_t nack = {.valid = 1, .mask = 1, .r = {.req = {.vpn = 0x40}, .nack = 1}};
    assert_int_equal(l1_req_response(&r, &nack, 0), 2);
    assert_int_equal(l1_req_state(&r, 0), L1_NACK);
    l1_req_cancel(&r, 0, 0x41); /* other vpn: nothing */
    assert_int_equal(l1_req_state(&r, 0), L1_NACK);
    l1_req_cancel(&r, 0, 0x40);
    assert_int_equal(l1_req_state(&r, 0), L1_DONE);
    assert_int_equal(r.ent[0].fatal, 1);
    assert_int_equal(r.ent[0].ppn, 0);
    l1_req_comb(&r, 2, 0, &c);
    assert_int_equal(c.out, 0);
    l1_req_output(&r, &c); /* (a) */
    assert_int_equal(l1_req_state(&r, 0), L1_FREE);
    assert_int_equal(l1_req_busy(&r), 1);
    l1_req_replay(&r); /* nothing in NACK any more */
    assert_int_equal(l1_req_state(&r, 1), L1_DONE);
    /* no FREE entry left in the mask: a violation for the caller */
    fr = 0;
    assert_int_equal(l1_req_alloc(&r, &fr, 0, 0x1, 0, 0), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fa_lookup), cmocka_unit_test(test_fa_fill_pick_and_touch),
        cmocka_unit_test(test_fa_flush),  cmocka_unit_test(test_sa_sets),
        cmocka_unit_test(test_req_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
