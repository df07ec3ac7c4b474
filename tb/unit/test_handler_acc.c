/*
 * test_handler_acc.c - the access-counter notification HAL of the handler (sw-handler/uvm_acc.c,
 * docs/handler.md §6w) against hand-made notification rings (docs/microarch.md §19.4 layout):
 * decoding (fields, classes, rejects), expansion of the sub-region mask to pages at each
 * granularity, a batch fetched from a ring that wraps (VALID cleared, GET advanced, malformed
 * and never-valid entries dropped, the batch limit), and the stale-page filter (freed or
 * already-resident pages dropped).
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_acc.h"
#include "../../sw-handler/uvm_priv.h"

#define RING (HOST_BASE + 0x8000u) /* beside the fault ring at HOST_BASE */

static void put32(uint8_t *raw, unsigned word, uint32_t v) {
    for (unsigned b = 0; b < 4; b++)
        raw[4u * word + b] = (uint8_t)(v >> (8u * b));
}

static uint32_t get32(const uint8_t *raw, unsigned word) {
    return (uint32_t)raw[4u * word] | (uint32_t)raw[4u * word + 1] << 8 |
           (uint32_t)raw[4u * word + 2] << 16 | (uint32_t)raw[4u * word + 3] << 24;
}

/* one notification as gmmu_acc writes it: class, ASID, region base VA, mask, count, VALID */
static void notif(uint8_t raw[GMMU_FB_ENTRY_BYTES], int remote, uint32_t asid, uint64_t va,
                  uint32_t mask, uint32_t cnt, int valid) {
    memset(raw, 0, GMMU_FB_ENTRY_BYTES);
    put32(raw, 0, remote ? GMMU_ACC_APER_SYS << GMMU_ACC_APER_LSB : 0u);
    put32(raw, GMMU_ACC_W_INST, asid);
    put32(raw, GMMU_ACC_W_ADDR_LO, (uint32_t)va);
    put32(raw, GMMU_ACC_W_ADDR_HI, (uint32_t)(va >> 32));
    put32(raw, GMMU_ACC_W_SUBGRAN, mask);
    put32(raw, GMMU_ACC_W_COUNTER, cnt);
    put32(raw, GMMU_ACC_W_VALID, valid ? 1u << GMMU_ACC_VALID_LSB : 0u);
}

static void test_decode(void **state) {
    (void)state;
    uint8_t raw[GMMU_FB_ENTRY_BYTES];
    uvm_acc_notif_t n;
    assert_int_equal(uvm_acc_gran_shift(GMMU_ACC_GRAN_64K), 4);
    assert_int_equal(uvm_acc_gran_shift(GMMU_ACC_GRAN_2M), 9);
    assert_int_equal(uvm_acc_gran_shift(GMMU_ACC_GRAN_16M), 12);
    assert_int_equal(uvm_acc_gran_shift(3), 0);
    notif(raw, 1, 3, UINT64_C(0xA1234560000), 0x80000001u, 256, 1);
    assert_true(uvm_acc_decode(raw, 4, &n));
    assert_true(n.remote);
    assert_int_equal(n.xvpn, (UINT64_C(3) << UVM_ASID_VPN_SHIFT) | UINT64_C(0xA1234560));
    assert_int_equal(n.sub_mask, 0x80000001u);
    assert_int_equal(n.count, 256);
    notif(raw, 0, 0, UINT64_C(0x7f0000200000), 4, 65535, 1); /* local class, 2 MB base */
    assert_true(uvm_acc_decode(raw, 9, &n));
    assert_false(n.remote);
    assert_int_equal(n.xvpn, UINT64_C(0x7f0000200000) >> 12);
    assert_int_equal(n.count, 65535);
    /* rejects: VALID clear, base not aligned to the region, aperture 1 (peer), empty mask */
    notif(raw, 0, 0, UINT64_C(0x7f0000200000), 4, 1, 0);
    assert_false(uvm_acc_decode(raw, 9, &n));
    notif(raw, 0, 0, UINT64_C(0x7f0000210000), 4, 1, 1); /* 64 KB aligned, not 2 MB */
    assert_false(uvm_acc_decode(raw, 9, &n));
    assert_true(uvm_acc_decode(raw, 4, &n));
    put32(raw, 0, 1u << GMMU_ACC_APER_LSB);
    assert_false(uvm_acc_decode(raw, 4, &n));
    notif(raw, 0, 0, UINT64_C(0x7f0000210000), 0, 1, 1);
    assert_false(uvm_acc_decode(raw, 4, &n));
    notif(raw, 0, 0, UINT64_C(0x7f0000210000), 1, 1, 1);
    assert_false(uvm_acc_decode(raw, 3, &n)); /* no such granularity */
}

static void test_expand(void **state) {
    (void)state;
    uint64_t pages[UVM_ACC_REGION_PAGES_MAX];
    uvm_acc_notif_t n = {.xvpn = 0x1000, .sub_mask = 0, .count = 1, .remote = true};
    /* 64 KB: bits 0 and 1 are page 0, bit 5 page 2, bit 31 page 15 */
    n.sub_mask = 0x80000023u;
    assert_int_equal(uvm_acc_expand(&n, 4, pages), 3);
    assert_int_equal(pages[0], 0x1000);
    assert_int_equal(pages[1], 0x1002);
    assert_int_equal(pages[2], 0x100f);
    n.sub_mask = 0xffffffffu;
    assert_int_equal(uvm_acc_expand(&n, 4, pages), 16);
    /* 2 MB: a bit is 16 pages (64 KB) */
    n.sub_mask = (1u << 0) | (1u << 31);
    assert_int_equal(uvm_acc_expand(&n, 9, pages), 32);
    assert_int_equal(pages[15], 0x100f);
    assert_int_equal(pages[16], 0x1000 + 31 * 16);
    assert_int_equal(pages[31], 0x1000 + 511);
    /* 16 MB: a bit is 128 pages; every bit = the whole region */
    n.sub_mask = 0xffffffffu;
    assert_int_equal(uvm_acc_expand(&n, 12, pages), 4096);
    assert_int_equal(pages[4095], 0x1000 + 4095);
}

/* a ring of 4 entries, GET = 2, PUT = 1: entries 2, 3, 0 are consumed (wrap) */
static void test_fetch_wrap(void **state) {
    (void)state;
    fx_t *x = fx_new();
    uint8_t raw[GMMU_FB_ENTRY_BYTES];
    notif(raw, 1, 0, UINT64_C(0x7f0000000000), 1, 256, 1);
    fk_host_write(&x->fk, RING + 2 * 32, raw, sizeof raw);
    notif(raw, 1, 0, UINT64_C(0x7f0000000008), 1, 256, 1); /* not a region base: malformed */
    fk_host_write(&x->fk, RING + 3 * 32, raw, sizeof raw);
    notif(raw, 0, 1, UINT64_C(0x7f0000010000), 2, 300, 1);
    fk_host_write(&x->fk, RING + 0 * 32, raw, sizeof raw);
    notif(raw, 0, 1, UINT64_C(0x7f0000020000), 2, 300, 1); /* at PUT: not consumed */
    fk_host_write(&x->fk, RING + 1 * 32, raw, sizeof raw);
    uvm_acc_ring_t r = {RING, 4, 2, 1};
    uvm_acc_notif_t out[4];
    uvm_acc_fetch_stats_t fs;
    assert_int_equal(uvm_acc_fetch(&x->dev, &r, 4, out, 4, &fs), 2);
    assert_int_equal(fs.fetched, 3);
    assert_int_equal(fs.malformed, 1);
    assert_int_equal(fs.not_ready, 0);
    assert_int_equal(r.get, 1);
    assert_int_equal(out[0].xvpn, UINT64_C(0x7f0000000000) >> 12);
    assert_true(out[0].remote);
    assert_int_equal(out[1].xvpn,
                     (UINT64_C(1) << UVM_ASID_VPN_SHIFT) | (UINT64_C(0x7f0000010000) >> 12));
    assert_int_equal(out[1].count, 300);
    for (uint32_t i = 0; i < 4; i++) { /* VALID cleared exactly in the consumed entries */
        fk_host_read(&x->fk, RING + i * 32, raw, sizeof raw);
        assert_int_equal(get32(raw, GMMU_ACC_W_VALID) >> GMMU_ACC_VALID_LSB, i == 1 ? 1u : 0u);
    }
    /* an entry below PUT whose VALID never comes is dropped after polling */
    r.put = 2;
    assert_int_equal(uvm_acc_fetch(&x->dev, &r, 4, out, 4, &fs), 1);
    assert_int_equal(fs.fetched, 1);
    const uint64_t t0 = x->fk.now;
    assert_int_equal(uvm_acc_fetch(&x->dev, &r, 4, out, 4, &fs), 0);
    assert_int_equal(fs.not_ready, 0); /* GET = PUT: nothing */
    r.put = 3;
    assert_int_equal(uvm_acc_fetch(&x->dev, &r, 4, out, 4, &fs), 0);
    assert_int_equal(fs.not_ready, 1);
    assert_int_equal(r.get, 3);
    assert_true(x->fk.now > t0); /* the handler waited for VALID */
    /* the batch limit: at most max entries */
    for (uint32_t i = 0; i < 4; i++) {
        notif(raw, 0, 0, UINT64_C(0x7f0000000000) + i * 0x10000u, 1, 256, 1);
        fk_host_write(&x->fk, RING + i * 32, raw, sizeof raw);
    }
    r.get = 0;
    r.put = 3;
    assert_int_equal(uvm_acc_fetch(&x->dev, &r, 4, out, 2, &fs), 2);
    assert_int_equal(r.get, 2);
    /* a ring that is off (size 0) or not a power of two: nothing read */
    uvm_acc_ring_t off = {RING, 0, 0, 1}, bad = {RING, 3, 0, 1};
    assert_int_equal(uvm_acc_fetch(&x->dev, &off, 4, out, 4, &fs), 0);
    assert_int_equal(uvm_acc_fetch(&x->dev, &bad, 4, out, 4, &fs), 0);
    assert_int_equal(x->fk.host_oob, 0);
    free(x->fk.ev);
    free(x);
}

/* pages of allocation "a" (16 pages) are resident after populate, "b" (16 pages at +64 KB) is
 * not; pages beyond "b" belong to no allocation */
static void test_drop_stale(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->fk.max_dma_bytes = UINT64_C(0x200000); /* populate copies 64 KB in one transfer */
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "a", ALLOC_BASE, 16 * PAGE, 0, x->err, sizeof x->err), 0);
    assert_int_equal(uvm_handler_add_alloc(x->h, "b", ALLOC_BASE + 16 * PAGE, 16 * PAGE, 0, x->err,
                                           sizeof x->err),
                     0);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    uint64_t populated = 0;
    assert_int_equal(uvm_handler_populate(x->h, ALLOC_BASE, &populated, x->err, sizeof x->err), 0);
    assert_int_equal(populated, 16);
    /* the 2 MB region of ALLOC_BASE, sub-regions 0 ("a"), 1 ("b") and 2 (no allocation) */
    uvm_acc_notif_t n = {.xvpn = VPN0, .sub_mask = 7, .count = 256, .remote = true};
    uint64_t pages[UVM_ACC_REGION_PAGES_MAX];
    const uint32_t k = uvm_acc_expand(&n, 9, pages);
    assert_int_equal(k, 48);
    assert_int_equal(uvm_acc_drop_stale(x->h, pages, k), 16);
    for (uint32_t i = 0; i < 16; i++)
        assert_int_equal(pages[i], VPN0 + 16 + i);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_expand),
        cmocka_unit_test(test_fetch_wrap),
        cmocka_unit_test(test_drop_stale),
    };
    return cmocka_run_group_tests_name("handler_acc", tests, NULL, NULL);
}
