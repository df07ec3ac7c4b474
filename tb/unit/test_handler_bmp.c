/*
 * test_handler_bmp.c - the handler's read of the GMMU's referenced-line bitmap table
 * (sw-handler/uvm_bmp.c, docs/handler.md §6x.2) against a table written in the fake device's GPU
 * memory in the layout of docs/microarch.md §20.5 (4 bytes per page, two pages per 8-byte word,
 * the window BMP_VPN0 / BMP_PAGES).
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_bmp.h"
#include "../../sw-handler/uvm_priv.h"

#define TABLE (PT_BASE + 32u * PAGE) /* beside the page-table pool (16 pages) */

/* what the GMMU's set-bits write does to the word of page vpn (§20.5) */
static void gmmu_or(fx_t *x, uint64_t vpn0, uint64_t vpn, uint32_t bmp) {
    const uint64_t i = vpn - vpn0;
    const uint64_t pa = TABLE + 8u * (i >> 1);
    fk_gpu_write64(&x->fk, pa, fk_gpu_read64(&x->fk, pa) | ((uint64_t)bmp << (32u * (i & 1u))));
}

static void test_read_clear(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fx_start(x);
    /* no table yet: every page reads 0, nothing is read from the device */
    assert_int_equal(uvm_bmp_read(x->h, VPN0), 0);
    assert_false(uvm_bmp_clear(x->h, VPN0));
    /* misaligned base or first page: refused */
    assert_false(uvm_bmp_table_set(x->h, TABLE + 4, VPN0, 64));
    assert_false(uvm_bmp_table_set(x->h, TABLE, VPN0 + 1, 64));
    assert_true(uvm_bmp_table_set(x->h, TABLE, VPN0, 64));
    /* two pages of one word, and a page of the next word */
    gmmu_or(x, VPN0, VPN0, 0x80000001u);
    gmmu_or(x, VPN0, VPN0 + 1, 0x0000ff00u);
    gmmu_or(x, VPN0, VPN0 + 2, 0x10u);
    gmmu_or(x, VPN0, VPN0 + 1, 0x00010000u); /* a later OR adds lines */
    assert_int_equal(fk_gpu_read64(&x->fk, TABLE), UINT64_C(0x0001ff0080000001));
    assert_int_equal(uvm_bmp_read(x->h, VPN0), 0x80000001u);
    assert_int_equal(uvm_bmp_read(x->h, VPN0 + 1), 0x0001ff00u);
    assert_int_equal(uvm_bmp_read(x->h, VPN0 + 2), 0x10u);
    assert_int_equal(uvm_bmp_read(x->h, VPN0 + 3), 0);
    assert_int_equal(uvm_bmp_bytes(uvm_bmp_read(x->h, VPN0 + 1)), 9u * 128u);
    assert_int_equal(uvm_bmp_bytes(0xffffffffu), 4096u);
    /* outside the window: 0, and clear refuses */
    assert_int_equal(uvm_bmp_read(x->h, VPN0 - 1), 0);
    assert_int_equal(uvm_bmp_read(x->h, VPN0 + 64), 0);
    assert_false(uvm_bmp_clear(x->h, VPN0 + 64));
    /* clearing one page keeps the other page of its word */
    assert_true(uvm_bmp_clear(x->h, VPN0 + 1));
    assert_int_equal(uvm_bmp_read(x->h, VPN0 + 1), 0);
    assert_int_equal(uvm_bmp_read(x->h, VPN0), 0x80000001u);
    assert_true(uvm_bmp_clear(x->h, VPN0));
    assert_int_equal(fk_gpu_read64(&x->fk, TABLE), 0);
    assert_int_equal(uvm_bmp_read(x->h, VPN0 + 2), 0x10u);
    /* the table switched off */
    assert_true(uvm_bmp_table_set(x->h, TABLE, VPN0, 0));
    assert_int_equal(uvm_bmp_read(x->h, VPN0 + 2), 0);
    fx_done(x);
}

/* uvm_bmp_init_device: the window over the allocations, the table in the page-table pool, the
 * registers programmed; nothing without bmp_window_pages; a pool too small refused by name */
static void test_init_device(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fx_start(x); /* bmp_window_pages = 0: no table, no BMP_* write */
    assert_int_equal(x->fk.csr[GMMU_CSR_BMP_PAGES / 4], 0);
    assert_int_equal(uvm_bmp_read(x->h, VPN0), 0);
    fx_done(x);

    x = fx_new();
    x->cfg.bmp_window_pages =
        2000; /* "a" (1 MB = 256 pages at VPN0) and "b" 2 pages above its end */
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "a", ALLOC_BASE + 5 * PAGE, 0x100000, 0, x->err, sizeof x->err),
        0);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "b", ALLOC_BASE + 0x106000, 3 * PAGE, 0, x->err, sizeof x->err),
        0);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    /* vpn0 = VPN0 (5 pages below "a", rounded down to 16), pages up to b's end: 0x106 + 3 */
    const uint64_t base = PT_BASE + 1u * PAGE; /* after the root page */
    assert_int_equal(x->fk.csr[GMMU_CSR_BMP_BASE_LO / 4], (uint32_t)base);
    assert_int_equal(x->fk.csr[GMMU_CSR_BMP_BASE_HI / 4], (uint32_t)(base >> 32));
    assert_int_equal(x->fk.csr[GMMU_CSR_BMP_VPN0 / 4], (uint32_t)(VPN0 >> 4));
    assert_int_equal(x->fk.csr[GMMU_CSR_BMP_PAGES / 4], 0x109u);
    fk_gpu_write64(&x->fk, base + 8u * (0x108u >> 1), UINT64_C(0x4));
    assert_int_equal(uvm_bmp_read(x->h, VPN0 + 0x108), 0x4u);
    assert_int_equal(uvm_bmp_read(x->h, VPN0 + 0x109), 0);
    fx_done(x);

    x = fx_new();
    x->cfg.bmp_window_pages = 17u * 1024u; /* 17 pool pages: the pool has 16 */
    x->cfg.gpu_pt_pages = 16;
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "a", ALLOC_BASE, 0x10000000, 0, x->err, sizeof x->err), 0);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), -1);
    assert_non_null(strstr(x->err, "bitmap table"));
    uvm_handler_free(x->h);
    free(x->fk.ev);
    free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_clear),
        cmocka_unit_test(test_init_device),
    };
    return cmocka_run_group_tests_name("handler_bmp", tests, NULL, NULL);
}
