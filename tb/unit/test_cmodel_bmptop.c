/* test_cmodel_bmptop.c - referenced-line bitmaps (docs/microarch.md §20) through the top level of
 * the C model with line_bitmap = 1 and a fake memory: lines accumulate on the miss and the hits
 * of an L1 entry and reach the table word (upper or lower half) on BMP_FLUSH (CMD_STATUS.BUSY
 * until then), on INVAL_PAGE and on a fill's eviction; a page outside the table's window is lost
 * and counted (EV_BMP_LOST); the table write is a set-bits write (it ORs); with line_bitmap = 0
 * the BMP_* registers are unmapped and BMP_FLUSH is BAD_OPCODE. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_cmodel_harness.h"

#define B(n) (UINT64_C(1) << (n))
#define PTE_VW (B(GMMU_PTE_V) | B(GMMU_PTE_W))
#define TBL 0x900000u /* BMP_BASE */
#define VPN0 0x300u   /* the window's first page (BMP_VPN0 = VPN0 >> 4) */
#define NPAGES 64u    /* BMP_PAGES */

static void setup(th_t *h, uint32_t lbm) {
    gmmu_params_t p;
    th_params_tiny(&p);
    p.line_bitmap = lbm;
    th_init(h, &p);
    th_setup(h, 0x100000, 0x800000, 16);
    if (!lbm)
        return;
    th_csr_write(h, GMMU_CSR_BMP_BASE_LO, TBL);
    th_csr_write(h, GMMU_CSR_BMP_BASE_HI, 0);
    th_csr_write(h, GMMU_CSR_BMP_PAGES, NPAGES);
    th_csr_write(h, GMMU_CSR_BMP_VPN0, VPN0 >> 4);
    assert_int_equal(th_csr_read(h, GMMU_CSR_BMP_PAGES), NPAGES);
    assert_int_equal(th_csr_read(h, GMMU_CSR_ERR_STATUS), 0);
}

/* the page's table word (§20.5) */
static uint32_t word(const th_t *h, uint64_t vpn) {
    const uint64_t i = vpn - VPN0;
    return (uint32_t)(th_mem_read(h, TBL + 8u * (i >> 1)) >> (32u * (i & 1u)));
}

/* one request on (sm, 0) with line `line`, run until idle; 1 if it hit in the L1 */
static int access(th_t *h, uint32_t sm, uint64_t vpn, uint8_t line, uint8_t id) {
    assert_int_equal(h->out.req_ready[sm], 1);
    th_req(h, sm, 0, vpn, 0, id);
    h->in.req_line[sm][0] = line;
    th_step(h);
    const int hit = h->out.hit_valid[sm][0];
    assert_true(th_run_until_idle(h, 2000) >= 0);
    return hit;
}

static void bmp_flush(th_t *h) {
    th_cmd(h, GMMU_CMD_BMP_FLUSH, 0);
    th_step(h);
    assert_int_equal(th_csr_read(h, GMMU_CSR_ERR_STATUS), 0);
    assert_true(th_run_until_idle(h, 2000) >= 0);
    assert_int_equal(th_csr_read(h, GMMU_CSR_CMD_STATUS) & B(GMMU_BIT_CMD_STATUS_BUSY), 0);
}

static void test_hits_then_flush(void **state) {
    (void)state;
    th_t h;
    setup(&h, 1);
    th_map(&h, 0x333, 0x444, PTE_VW); /* index 0x33: the upper half */
    th_map(&h, 0x332, 0x445, PTE_VW); /* index 0x32: the lower half of the same word */
    assert_int_equal(access(&h, 0, 0x333, 3, 1), 0); /* the miss's line is recorded by the fill */
    assert_int_equal(access(&h, 0, 0x333, 7, 2), 1);
    assert_int_equal(access(&h, 0, 0x333, 31, 3), 1);
    assert_int_equal(access(&h, 1, 0x332, 0, 4), 0); /* the other SM */
    assert_int_equal(access(&h, 1, 0x332, 5, 5), 1);
    assert_int_equal(word(&h, 0x333), 0); /* nothing written while the entries stay */
    assert_int_equal(h.ev_count[GMMU_EV_BMP_WB], 0);
    bmp_flush(&h);
    assert_int_equal(word(&h, 0x333), B(3) | B(7) | B(31));
    assert_int_equal(word(&h, 0x332), B(0) | B(5));
    assert_int_equal(h.ev_count[GMMU_EV_BMP_WB], 2);
    assert_int_equal(h.ev_count[GMMU_EV_BMP_LOST], 0);
    /* the entries stay valid with empty bitmaps: a new hit, a second flush writes only it */
    assert_int_equal(access(&h, 0, 0x333, 9, 6), 1);
    th_mem_write(&h, TBL + 8u * (0x33u >> 1), 0); /* the host clears the word */
    bmp_flush(&h);
    assert_int_equal(word(&h, 0x333), B(9));
    assert_int_equal(word(&h, 0x332), 0);
    assert_int_equal(h.ev_count[GMMU_EV_BMP_WB], 3);
    th_done(&h);
}

static void test_inval_page_writes_back(void **state) {
    (void)state;
    th_t h;
    setup(&h, 1);
    th_map(&h, 0x310, 0x500, PTE_VW);
    assert_int_equal(access(&h, 0, 0x310, 1, 1), 0);
    assert_int_equal(access(&h, 0, 0x310, 2, 2), 1);
    assert_int_equal(access(&h, 1, 0x310, 4, 3), 0);
    th_mem_write(&h, TBL + 8u * (0x10u >> 1), B(12)); /* a bit already there is kept (OR) */
    th_cmd(&h, GMMU_CMD_INVAL_PAGE, 0x310);
    assert_true(th_run_until_idle(&h, 2000) >= 0);
    assert_int_equal(word(&h, 0x310), B(1) | B(2) | B(4) | B(12));
    assert_int_equal(h.ev_count[GMMU_EV_BMP_WB], 2); /* one per SM */
    assert_int_equal(access(&h, 0, 0x310, 6, 4), 0); /* gone from the L1: a miss */
    th_done(&h);
}

static void test_eviction_and_out_of_table(void **state) {
    (void)state;
    th_t h;
    setup(&h, 1);
    const uint32_t n = h.p.l1_entries;
    assert_true(n < 31u);             /* n + 1 pages inside the window */
    for (uint32_t i = 0; i <= n; i++) /* n + 1 pages on SM 0: some fill evicts */
        th_map(&h, 0x320 + i, 0x600 + i, PTE_VW);
    for (uint32_t i = 0; i <= n; i++)
        assert_int_equal(access(&h, 0, 0x320 + i, (uint8_t)(i & 31u), (uint8_t)(i + 1)), 0);
    assert_int_equal(h.ev_count[GMMU_EV_BMP_WB], 1);
    uint32_t written = 0;
    for (uint32_t i = 0; i <= n; i++)
        if (word(&h, 0x320 + i)) {
            assert_int_equal(word(&h, 0x320 + i), B(i & 31u));
            written++;
        }
    assert_int_equal(written, 1);
    /* a page outside the window: its bitmap is lost and counted, nothing written */
    th_map(&h, 0x2ff, 0x700, PTE_VW);
    assert_int_equal(access(&h, 1, 0x2ff, 8, 20), 0);
    th_cmd(&h, GMMU_CMD_INVAL_ALL, 0);
    assert_true(th_run_until_idle(&h, 2000) >= 0);
    assert_true(h.ev_count[GMMU_EV_BMP_LOST] >= 1);
    assert_int_equal(th_mem_read(&h, TBL - 8u), 0);
    th_done(&h);
}

static void test_absent_without_key(void **state) {
    (void)state;
    th_t h;
    setup(&h, 0);
    (void)th_csr_read(&h, GMMU_CSR_BMP_PAGES);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_ERR_STATUS) & B(GMMU_ERR_BAD_ADDR),
                     B(GMMU_ERR_BAD_ADDR));
    th_csr_write(&h, GMMU_CSR_ERR_STATUS, 0xffffffffu);
    th_cmd(&h, GMMU_CMD_BMP_FLUSH, 0);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_ERR_STATUS) & B(GMMU_ERR_BAD_OPCODE),
                     B(GMMU_ERR_BAD_OPCODE));
    th_done(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hits_then_flush),
        cmocka_unit_test(test_inval_page_writes_back),
        cmocka_unit_test(test_eviction_and_out_of_table),
        cmocka_unit_test(test_absent_without_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
