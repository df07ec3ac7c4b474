/*
 * test_platform_sm.c - cmocka tests of the SM front-ends and kernel loader (cosim/sm.c) and of
 * the lock-step output comparison (cosim/compare.c); the SM issue width (sm_set_issue_ipc).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_mem_rec.h"
#include "test_tmpfile.h"

#include "compare.h"
#include "sm.h"

static trace_rec_t mem(uint32_t cta, uint32_t warp, trace_op_t op, uint32_t gap, uint32_t mask,
                       uint64_t base, int64_t stride) {
    return test_mem_rec(cta, warp, op, gap, mask, base, stride);
}

static void test_coalesce(void **state) {
    (void)state;
    uint64_t addr[TRACE_LANES], pages[TRACE_LANES];
    for (int i = 0; i < TRACE_LANES; i++)
        addr[i] = 0x7f0000000000ull + 4ull * i; /* 128 B: one page */
    assert_int_equal(sm_coalesce(0xffffffffu, addr, pages), 1);
    assert_int_equal(pages[0], 0x7f0000000ull);
    for (int i = 0; i < TRACE_LANES; i++)
        addr[i] = 0x1000ull * (uint64_t)(i % 5) + 0xff8; /* 5 pages, lane order */
    assert_int_equal(sm_coalesce(0xffffffffu, addr, pages), 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(pages[i], (uint64_t)i);
    /* inactive lanes do not count */
    assert_int_equal(sm_coalesce(0x1u | 0x4u, addr, pages), 2);
    assert_int_equal(pages[0], 0);
    assert_int_equal(pages[1], 2);
    assert_int_equal(sm_coalesce(0, addr, pages), 0);
    /* page-crossing stride: 32 distinct pages, descending with a negative stride */
    for (int i = 0; i < TRACE_LANES; i++)
        addr[i] = 0x100000ull - 0x1000ull * (uint64_t)i;
    assert_int_equal(sm_coalesce(0xffffffffu, addr, pages), 32);
    assert_int_equal(pages[0], 0x100);
    assert_int_equal(pages[31], 0x100 - 31);
}

static void test_issue_and_complete(void **state) {
    (void)state;
    kern_t k;
    kern_init(&k);
    /* SM 0 (num_sm 2): CTAs 0 and 2; warp (0,0): 3 pages then 1 page; warp (2,0): 1 page */
    trace_rec_t r = mem(0, 0, TRACE_OP_READ, 5, 0x7, 0x10000, 0x1000);
    assert_int_equal(kern_add(&k, &r, 2), 0);
    r = mem(2, 0, TRACE_OP_WRITE, 0, 0x1, 0x90000, 0);
    assert_int_equal(kern_add(&k, &r, 2), 0);
    r = mem(0, 0, TRACE_OP_ATOMIC, 2, 0x3, 0x20000, 8);
    assert_int_equal(kern_add(&k, &r, 2), 0);
    r = mem(1, 0, TRACE_OP_READ, 0, 0x1, 0x30000, 0); /* SM 1 */
    assert_int_equal(kern_add(&k, &r, 2), 0);
    r = mem(3, 0, TRACE_OP_READ, 0, 0, 0x30000, 0); /* no active lane: dropped */
    assert_int_equal(kern_add(&k, &r, 2), 0);
    assert_int_equal(k.n_warps, 3);
    assert_int_equal(k.n_instr, 4);

    sm_t sm;
    assert_int_equal(sm_init(&sm, 0, 2, 8), 0);
    assert_int_equal(sm_start_kernel(&sm, &k, 100), 0);
    assert_int_equal(k.nsq[0], 2);
    uint8_t valid[8] = {0}, write[8] = {0}, id[8] = {0};
    uint64_t vpn[8] = {0};
    /* cycle 100: warp (0,0) waits its gap of 5; warp (2,0) issues its write */
    assert_int_equal(sm_next_event(&sm, &k, 100), 105);
    assert_true(sm_wants_issue(&sm, &k, 100)); /* warp (2,0): gap 0 */
    assert_int_equal(sm_issue(&sm, &k, 100, valid, vpn, write, id), 1);
    assert_int_equal(vpn[0], 0x90);
    assert_int_equal(write[0], 1);
    const uint8_t wid = id[0];
    /* cycle 105: warp (0,0) presents 2 of its 3 pages (2 ports) */
    memset(valid, 0, sizeof(valid));
    assert_int_equal(sm_issue(&sm, &k, 105, valid, vpn, write, id), 2);
    assert_int_equal(vpn[0], 0x10);
    assert_int_equal(vpn[1], 0x11);
    assert_int_equal(write[0], 0);
    assert_true(id[0] != id[1] && id[0] != wid && id[1] != wid);
    const uint8_t a = id[0], b = id[1];
    assert_int_equal(sm_issue(&sm, &k, 106, valid, vpn, write, id), 1);
    assert_int_equal(vpn[0], 0x12);
    const uint8_t c = id[0];
    assert_int_equal(sm.outstanding, 4);
    assert_false(sm_wants_issue(&sm, &k, 107)); /* everything presented, nobody in a gap */
    assert_int_equal(sm_issue(&sm, &k, 107, valid, vpn, write, id), 0);
    /* responses in any order; the instruction completes with the last */
    sm_resp_t resp;
    assert_int_equal(sm_response(&sm, &k, c, 110, &resp), 0);
    assert_int_equal(resp.vpn, 0x12);
    assert_false(resp.instr_done);
    assert_int_equal(sm_response(&sm, &k, a, 111, &resp), 0);
    assert_int_equal(sm_response(&sm, &k, b, 112, &resp), 0);
    assert_true(resp.instr_done);
    assert_false(resp.warp_done);
    assert_int_equal(sm_response(&sm, &k, b, 112, &resp), -1); /* not outstanding any more */
    /* next instruction after its gap of 2: an atomic (translated as a write) on one page */
    assert_int_equal(sm_next_event(&sm, &k, 112), 114);
    assert_false(sm_wants_issue(&sm, &k, 113));
    assert_true(sm_wants_issue(&sm, &k, 114));
    assert_int_equal(sm_issue(&sm, &k, 113, valid, vpn, write, id), 0);
    assert_int_equal(sm_issue(&sm, &k, 114, valid, vpn, write, id), 1);
    assert_int_equal(vpn[0], 0x20);
    assert_int_equal(write[0], 1);
    assert_int_equal(sm_response(&sm, &k, id[0], 120, &resp), 0);
    assert_true(resp.warp_done);
    assert_int_equal(resp.op, TRACE_OP_ATOMIC);
    assert_false(sm_kernel_done(&sm, &k));
    assert_int_equal(sm_response(&sm, &k, wid, 121, &resp), 0);
    assert_true(resp.warp_done);
    assert_true(sm_kernel_done(&sm, &k));
    assert_int_equal(sm.instr_done, 3);
    sm_free(&sm);
    kern_free(&k);
}

static void test_residency_and_round_robin(void **state) {
    (void)state;
    kern_t k;
    kern_init(&k);
    /* 4 warps on SM 0, one instruction of 1 page each, 2 resident at most */
    for (uint32_t w = 0; w < 4; w++) {
        trace_rec_t r = mem(0, w, TRACE_OP_READ, 0, 0x1, 0x1000ull * (w + 1), 0);
        assert_int_equal(kern_add(&k, &r, 1), 0);
    }
    sm_t sm;
    assert_int_equal(sm_init(&sm, 0, 1, 2), 0); /* one port */
    sm_start_kernel(&sm, &k, 0);
    assert_int_equal(sm.nres, 2);
    uint8_t valid[1], write[1], id[1];
    uint64_t vpn[1];
    assert_int_equal(sm_issue(&sm, &k, 0, valid, vpn, write, id), 1);
    assert_int_equal(vpn[0], 1);
    const uint8_t i0 = id[0];
    assert_int_equal(sm_issue(&sm, &k, 1, valid, vpn, write, id), 1);
    assert_int_equal(vpn[0], 2); /* round-robin: the other warp */
    assert_int_equal(sm_issue(&sm, &k, 2, valid, vpn, write, id), 0);
    sm_resp_t resp;
    assert_int_equal(sm_response(&sm, &k, i0, 3, &resp), 0);
    assert_true(resp.warp_done);
    /* the finished warp's slot goes to the first queued warp (0,2) */
    assert_int_equal(sm_issue(&sm, &k, 3, valid, vpn, write, id), 1);
    assert_int_equal(vpn[0], 3);
    sm_free(&sm);
    kern_free(&k);
}

static void test_ids_unique(void **state) {
    (void)state;
    kern_t k;
    kern_init(&k);
    /* 40 warps x 32 pages: more than 256 translations wanted at once */
    for (uint32_t w = 0; w < 40; w++) {
        trace_rec_t r = mem(0, w, TRACE_OP_READ, 0, 0xffffffffu, 0x100000ull * w, 0x1000);
        kern_add(&k, &r, 1);
    }
    sm_t sm;
    sm_init(&sm, 0, 8, 64);
    sm_start_kernel(&sm, &k, 0);
    uint8_t seen[256] = {0};
    uint32_t total = 0;
    for (uint64_t t = 0; t < 100; t++) {
        uint8_t valid[8] = {0}, write[8], id[8];
        uint64_t vpn[8];
        const uint32_t n = sm_issue(&sm, &k, t, valid, vpn, write, id);
        for (uint32_t q = 0; q < n; q++) {
            assert_false(seen[id[q]]);
            seen[id[q]] = 1;
        }
        total += n;
    }
    assert_int_equal(total, 256); /* stops when every id is outstanding */
    assert_int_equal(sm.outstanding, 256);
    sm_free(&sm);
    kern_free(&k);
}

static void count_alloc(void *ctx, const trace_rec_t *rec) {
    int *n = ctx;
    (void)rec;
    (*n)++;
}

static void test_stream_kernels(void **state) {
    (void)state;
    char path[64];
    test_write_tmp(path, "test_platform_sm",
                   "alloc a 0x10000 0x4000\nkernel k1\ns 0 0 R 1 0x3 0x10000 4096\n"
                   "alloc b 0x40000 0x1000 ro\nkernel k2\ns 1 0 W 0 0x1 0x10000 0\n"
                   "s 1 1 R 0 0x1 0x40000 0\nkernel empty\n");
    char err[256];
    trace_reader_t *tr = trace_open(path, err, sizeof(err));
    assert_non_null(tr);
    kern_stream_t ks;
    kern_stream_init(&ks, tr, 2, "t.trc");
    kern_t k;
    kern_init(&k);
    int nalloc = 0;
    assert_int_equal(kern_stream_next(&ks, &k, count_alloc, &nalloc, err, sizeof(err)), 1);
    assert_string_equal(k.name, "k1");
    assert_int_equal(k.n_warps, 0); /* records are read on demand */
    assert_int_equal(nalloc, 1);
    assert_int_equal(kern_pull_all(&k), 0);
    assert_int_equal(k.n_warps, 1);
    assert_int_equal(k.warps[0].ins[0].npages, 2);
    assert_true(kern_at_end(&k));
    assert_int_equal(nalloc, 1); /* the allocation inside k1's records: declared before k2 */
    assert_int_equal(kern_stream_next(&ks, &k, count_alloc, &nalloc, err, sizeof(err)), 1);
    assert_int_equal(nalloc, 2);
    assert_string_equal(k.name, "k2");
    assert_int_equal(kern_pull_all(&k), 0);
    assert_int_equal(k.n_warps, 2);
    assert_int_equal(k.warps[0].sm, 1);
    assert_int_equal(kern_stream_next(&ks, &k, count_alloc, &nalloc, err, sizeof(err)), 1);
    assert_string_equal(k.name, "empty");
    assert_int_equal(kern_pull_all(&k), 0);
    assert_int_equal(k.n_warps, 0);
    assert_int_equal(kern_stream_next(&ks, &k, count_alloc, &nalloc, err, sizeof(err)), 0);
    assert_int_equal(ks.kernels_read, 3);
    kern_free(&k);
    kern_stream_free(&ks);
    trace_close(tr);
    unlink(path);
}

/* Writes text to a temporary trace and opens it; *path receives the name (unlink it). */
static trace_reader_t *open_text(const char *text, char *path) {
    test_write_tmp(path, "test_platform_sm", text);
    char err[256];
    trace_reader_t *tr = trace_open(path, err, sizeof(err));
    assert_non_null(tr);
    return tr;
}

/* Completes every translation of the SM's resident warps at cycle now. */
static void answer_all(sm_t *sm, kern_t *k, uint64_t now) {
    uint8_t valid[4] = {0}, write[4], id[4];
    uint64_t vpn[4];
    const uint32_t n = sm_issue(sm, k, now, valid, vpn, write, id);
    for (uint32_t q = 0; q < n; q++) {
        sm_resp_t r;
        assert_int_equal(sm_response(sm, k, id[q], now, &r), 0);
    }
}

static void test_stream_lazy_exit(void **state) {
    (void)state;
    /* one SM, one resident warp: warp (0,0) has 2 instructions and exits; then warp (0,1) */
    char path[64], err[256];
    trace_reader_t *tr = open_text("alloc a 0x10000 0x4000\nkernel k\n"
                                   "s 0 0 R 0 0x1 0x10000 0\ns 0 0 R 0 0x1 0x11000 0\nx 0 0\n"
                                   "s 0 1 W 0 0x1 0x12000 0\nx 0 1\nx 0 7\n",
                                   path);
    kern_stream_t ks;
    kern_stream_init(&ks, tr, 1, path);
    kern_t k;
    kern_init(&k);
    int nalloc = 0;
    assert_int_equal(kern_stream_next(&ks, &k, count_alloc, &nalloc, err, sizeof(err)), 1);
    sm_t sm;
    assert_int_equal(sm_init(&sm, 0, 4, 1), 0);
    assert_int_equal(sm_start_kernel(&sm, &k, 0), 0);
    assert_int_equal(k.n_warps, 1); /* only what admission needed was read */
    assert_int_equal(k.n_instr, 1);
    answer_all(&sm, &k, 0); /* instruction 1 completes: instruction 2 is read */
    assert_int_equal(k.n_instr, 2);
    assert_false(k.warps[0].exited);
    answer_all(&sm, &k, 1); /* the exit is read, warp (0,1) replaces it */
    assert_true(k.warps[0].exited);
    assert_int_equal(k.warps[0].state, SM_W_DONE);
    assert_int_equal(k.n_warps, 2);
    assert_false(kern_at_end(&k)); /* the exit of (0,1) and the rest are not read yet */
    assert_false(sm_kernel_done(&sm, &k));
    answer_all(&sm, &k, 2);
    assert_true(kern_at_end(&k)); /* (0,1) exited; looking for a next warp read to the end */
    assert_true(sm_kernel_done(&sm, &k));
    assert_int_equal(k.buffered, 0);
    assert_int_equal(k.buffered_peak, 1); /* never more than one instruction held */
    assert_int_equal(sm.instr_done, 3);
    assert_false(k.error);
    sm_free(&sm);
    kern_free(&k);
    kern_stream_free(&ks);
    trace_close(tr);
    unlink(path);
}

static void test_stream_exit_errors(void **state) {
    (void)state;
    static const struct {
        const char *text;
        int next_rc; /* kern_stream_next: -1 = the error is found before the kernel starts */
        const char *msg;
    } bad[] = {
        /* a record of a warp after its exit */
        {"alloc a 0x10000 0x4000\nkernel k\ns 0 0 R 0 0x1 0x10000 0\nx 0 0\n"
         "s 0 0 R 0 0x1 0x10000 0\n",
         1, ":5: warp (cta 0, warp 0) has exited at line 4"},
        /* two exits */
        {"alloc a 0x10000 0x4000\nkernel k\ns 0 0 R 0 0x1 0x10000 0\nx 0 0\nx 0 0\n", 1,
         ":5: warp (cta 0, warp 0) exits twice (first at line 4)"},
        /* a warp that exited without memory records: a later record, a second exit */
        {"alloc a 0x10000 0x4000\nkernel k\nx 0 0\ns 0 0 R 0 0x1 0x10000 0\n", 1,
         ":4: warp (cta 0, warp 0) has exited at line 3"},
        {"alloc a 0x10000 0x4000\nkernel k\nx 0 0\nx 0 0\n", 1,
         ":4: warp (cta 0, warp 0) exits twice (first at line 3)"},
        /* a memory record before the first kernel */
        {"alloc a 0x10000 0x4000\ns 0 0 R 1 0x3 0x10000 4096\n", -1,
         ":2: memory instruction before the first kernel"},
        /* an exit before the first kernel */
        {"alloc a 0x10000 0x4000\nx 0 0\nkernel k\n", -1, ":2: warp exit before the first kernel"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char path[64], err[512];
        trace_reader_t *tr = open_text(bad[i].text, path);
        kern_stream_t ks;
        kern_stream_init(&ks, tr, 1, path);
        kern_t k;
        kern_init(&k);
        int nalloc = 0;
        assert_int_equal(kern_stream_next(&ks, &k, count_alloc, &nalloc, err, sizeof(err)),
                         bad[i].next_rc);
        if (bad[i].next_rc == 1) {
            assert_int_equal(kern_pull_all(&k), -1);
            assert_true(k.error);
            snprintf(err, sizeof(err), "%s", k.err);
        }
        assert_non_null(strstr(err, bad[i].msg));
        assert_non_null(strstr(err, path));
        kern_free(&k);
        kern_stream_free(&ks);
        trace_close(tr);
        unlink(path);
    }
}

/* Address spaces: with a partition, CTA c of space a runs on SM first[a] + c % count[a]; the
 * same (cta, warp) in two spaces are two warps; pages carry the space above the VPN; a space
 * beyond num_asids or without SMs is an error naming the field. */
static void test_spaces_partition(void **state) {
    (void)state;
    kern_t k;
    kern_init(&k);
    kern_part_t part = {.n = 2, .first = {0, 1}, .count = {1, 3}, .spaces = 4};
    k.part = &part;
    trace_rec_t r = mem(5, 0, TRACE_OP_READ, 0, 0x1, 0x10000, 0);
    assert_int_equal(kern_add(&k, &r, 4), 0); /* space 0: SM 0 */
    r.space = 1;
    assert_int_equal(kern_add(&k, &r, 4), 0); /* space 1: SM 1 + 5 % 3 = 3 */
    r.cta = 1;
    assert_int_equal(kern_add(&k, &r, 4), 0); /* space 1: SM 2 */
    assert_int_equal(k.n_warps, 3);
    assert_int_equal(k.warps[0].sm, 0);
    assert_int_equal(k.warps[1].sm, 3);
    assert_int_equal(k.warps[2].sm, 2);
    assert_int_equal(k.warps[1].space, 1);
    assert_int_equal(k.warps[0].pages[0], 0x10);
    assert_int_equal(k.warps[1].pages[0], (1ull << KERN_SPACE_SHIFT) | 0x10);
    r.space = 2; /* no SMs */
    r.line = 7;
    assert_int_equal(kern_add(&k, &r, 4), -1);
    assert_non_null(strstr(k.err, ":7: field space: address space 2 has no SMs"));
    kern_reset(&k);
    assert_ptr_equal(k.part, &part); /* kept */
    r.space = 4;                     /* beyond num_asids */
    assert_int_equal(kern_add(&k, &r, 4), -1);
    assert_non_null(strstr(k.err, "address space 4 needs num_asids > 4"));
    kern_reset(&k);
    k.part = NULL; /* no partition: space 0 only */
    r.space = 1;
    assert_int_equal(kern_add(&k, &r, 4), -1);
    assert_non_null(strstr(k.err, "(the configuration has num_asids = 1)"));
    kern_free(&k);
}

static void test_compare(void **state) {
    (void)state;
    const gmmu_params_t p = {.num_sm = 2, .num_ports = 2};
    static gmmu_out_t a, b;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    cmp_diff_t d;
    assert_int_equal(cmp_outputs(&p, &a, &b, &d), 0);
    /* fields beyond num_sm / num_ports are ignored */
    b.hit_ppn[2][0] = 5;
    b.hit_valid[0][3] = 1;
    assert_int_equal(cmp_outputs(&p, &a, &b, &d), 0);
    b.hit_ppn[1][0] = 0x1234;
    b.fb_wr_data[7] = 0x80000000u;
    assert_int_equal(cmp_outputs(&p, &a, &b, &d), 1);
    assert_string_equal(d.signal, "hit_ppn[1][0]");
    assert_int_equal(d.expected, 0);
    assert_int_equal(d.actual, 0x1234);
    assert_int_equal(d.count, 2);
    memset(&b, 0, sizeof(b));
    b.ev = 4;
    assert_int_equal(cmp_outputs(&p, &a, &b, &d), 1);
    assert_string_equal(d.signal, "ev");
    a.ev = 4;
    a.req_ready[1] = 1;
    assert_int_equal(cmp_outputs(&p, &a, &b, &d), 1);
    assert_string_equal(d.signal, "req_ready[1]");
    assert_int_equal(d.expected, 1);
}

/* The issue width: four warps start a gap of 8 at cycle 100. Without a limit each is ready at 108;
 * with 2 instructions per cycle the gaps share the SM's slots in the order they started (2x8 slots
 * by cycle 108, then 8 more per 4 cycles), and a warp never issues faster than one per cycle. */
static void test_issue_width(void **state) {
    (void)state;
    static const uint32_t ipc[3] = {0, 2, 64};
    static const uint64_t ready[3][4] = {
        {108, 108, 108, 108}, {108, 108, 112, 116}, {108, 108, 108, 108}};
    for (int c = 0; c < 3; c++) {
        kern_t k;
        kern_init(&k);
        for (uint32_t w = 0; w < 4; w++) {
            trace_rec_t r = mem(0, w, TRACE_OP_READ, 8, 0x1, 0x10000 + 0x1000ull * w, 0);
            assert_int_equal(kern_add(&k, &r, 1), 0);
        }
        sm_t sm;
        assert_int_equal(sm_init(&sm, 0, 4, 8), 0);
        sm_set_issue_ipc(&sm, ipc[c]);
        assert_int_equal(sm_start_kernel(&sm, &k, 100), 0);
        for (uint32_t w = 0; w < 4; w++)
            assert_int_equal(k.warps[w].ready_at, ready[c][w]);
        assert_int_equal(sm_next_event(&sm, &k, 100), 108);
        sm_free(&sm);
        kern_free(&k);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coalesce),
        cmocka_unit_test(test_issue_and_complete),
        cmocka_unit_test(test_residency_and_round_robin),
        cmocka_unit_test(test_ids_unique),
        cmocka_unit_test(test_stream_kernels),
        cmocka_unit_test(test_stream_lazy_exit),
        cmocka_unit_test(test_stream_exit_errors),
        cmocka_unit_test(test_spaces_partition),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_issue_width),
    };
    return cmocka_run_group_tests_name("platform_sm", tests, NULL, NULL);
}
