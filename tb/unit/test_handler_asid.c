/*
 * test_handler_asid.c - cmocka tests of the handler's address spaces (docs/handler.md "Address
 * spaces"): extended VAs / VPNs (ASID << 48 | VA), a root per ASID programmed through ASID_SEL,
 * faults serviced in the ASID of FB_ASID, CMD_ARG_HI.ASID and SCOPE; one ASID: the old writes.
 */
#include "../../sw-handler/uvm_priv.h"
#include "test_handler_fake.h"

#define XVA(asid, va) ((uint64_t)(asid) << 48 | (va))
#define XVPN(asid, vpn) ((uint64_t)(asid) << 36 | (vpn))

/* Walks the fake page table from root as the GMMU walker does; the leaf PTE or 0. */
static uint64_t walk_from(fake_t *f, uint64_t root, uint64_t vpn) {
    uint64_t table = root;
    for (unsigned l = 0; l < 3; l++) {
        const uint64_t e = fk_gpu_read64(f, table + 8 * ((vpn >> (36 - 9 * (l + 1))) & 511u));
        if (!(e & PTE_V_BIT))
            return 0;
        table = e & PPN_MASK;
    }
    return fk_gpu_read64(f, table + 8 * (vpn & 511u));
}

/* The value of the last CSR write to addr before event index `before`, or UINT64_MAX. */
static uint64_t last_write(const fake_t *f, uint32_t addr, size_t before) {
    for (size_t i = before; i-- > 0;)
        if (f->ev[i].k == EV_CSR_W && f->ev[i].a == addr)
            return f->ev[i].b;
    return UINT64_MAX;
}

static void test_roots_and_faults(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fake_t *f = &x->fk;
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    char err[256];
    /* the same VA in ASIDs 0 and 1: no overlap; ASID 256 does not exist */
    assert_int_equal(uvm_handler_add_alloc(x->h, "a", ALLOC_BASE, 0x100000, 0, err, sizeof err), 0);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "b", XVA(1, ALLOC_BASE), 0x100000, 0, err, sizeof err), 0);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "c", XVA(256, ALLOC_BASE), 0x1000, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "'c'"));
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    /* ASID 0's root is the first PT page (PT_BASE_LO/HI as before), ASID 1's the second,
     * programmed with ASID_SEL = 1 and ASID_SEL back to 0 */
    assert_int_equal(st(x)->pt_pages_used, 2);
    const size_t sel1 = ev_find(f, 0, EV_CSR_W, GMMU_CSR_ASID_SEL, 1, 1);
    const size_t sel0 = ev_find(f, sel1, EV_CSR_W, GMMU_CSR_ASID_SEL, 1, 0);
    assert_true(sel1 != SIZE_MAX && sel0 != SIZE_MAX);
    assert_int_equal(last_write(f, GMMU_CSR_PT_BASE_LO, sel1), (uint32_t)PT_BASE);
    assert_int_equal(last_write(f, GMMU_CSR_PT_BASE_LO, sel0), (uint32_t)(PT_BASE + PAGE));
    assert_int_equal(last_write(f, GMMU_CSR_PT_BASE_HI, sel0), (uint32_t)(PT_BASE >> 32));
    /* a fault of ASID 1 (FB_ASID = 1) is serviced in ASID 1's table and allocation */
    f->nev = 0;
    fk_post(f, VPN0 + 2, GMMU_AT_WRITE);
    const uint32_t asid1 = 1;
    fk_host_write(f, HOST_BASE + 32u * ((f->put - 1) & (f->fb_size - 1)) + 4u * GMMU_FB_W0_ASID,
                  &asid1, 4);
    uvm_handler_service(x->h);
    assert_true(walk_from(f, PT_BASE + PAGE, VPN0 + 2) & PTE_V_BIT);
    assert_int_equal(walk_from(f, PT_BASE, VPN0 + 2), 0);
    assert_int_equal(f->ndma, 1);
    assert_int_equal(f->dma[0].src, XVA(1, ALLOC_BASE + 2 * PAGE)); /* the host copy of (1, VA) */
    /* page commands carry the ASID; INVAL_PAGE is scoped to it (SCOPE = 1) */
    const size_t n0 = f->ncmd;
    uvm_cmd(x->h, GMMU_CMD_INVAL_PAGE, true, XVPN(1, VPN0 + 2), true);
    uvm_cmd(x->h, GMMU_CMD_REPLAY_PAGE, true, XVPN(1, VPN0 + 2), true);
    const uint64_t hi = f->cmd[n0].arg >> 32;
    assert_int_equal(f->cmd[n0].arg & UINT32_MAX, (uint32_t)(VPN0 + 2));
    assert_int_equal((hi >> GMMU_CSR_CMD_ARG_HI_ASID_LSB) & 0xffu, 1);
    assert_int_equal((hi >> GMMU_CSR_CMD_ARG_HI_SCOPE_LSB) & 1u, 1);
    assert_int_equal((f->cmd[n0 + 1].arg >> 32 >> GMMU_CSR_CMD_ARG_HI_SCOPE_LSB) & 1u, 0);
    /* an address space declared after initialization gets its root at once */
    f->nev = 0;
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "d", XVA(3, ALLOC_BASE), 0x1000, 0, err, sizeof err), 0);
    assert_int_not_equal(ev_find(f, 0, EV_CSR_W, GMMU_CSR_ASID_SEL, 1, 3), SIZE_MAX);
    assert_int_equal(last_write(f, GMMU_CSR_ASID_SEL, f->nev), 0);
    assert_int_equal(st(x)->pt_pages_used, 6); /* + ASID 1's 3 tables + ASID 3's root */
    fx_done(x);
}

/* A free by extended base (uvm_handler_free_alloc_at, issue 22): ASID 1's "a" goes, ASID 0's
 * allocation of the same name and VA stays mapped; an address where none starts is refused. */
static void test_free_at(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fake_t *f = &x->fk;
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "a", ALLOC_BASE, 0x10000, 0, x->err, sizeof x->err), 0);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "a", XVA(1, ALLOC_BASE), 0x10000, 0, x->err, sizeof x->err), 0);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    const uint32_t asid1 = 1;
    fk_post(f, VPN0 + 2, GMMU_AT_READ); /* ASID 0 */
    fk_post(f, VPN0 + 2, GMMU_AT_READ); /* ASID 1 */
    fk_host_write(f, HOST_BASE + 32u * ((f->put - 1) & (f->fb_size - 1)) + 4u * GMMU_FB_W0_ASID,
                  &asid1, 4);
    uvm_handler_service(x->h);
    assert_true(walk_from(f, PT_BASE, VPN0 + 2) & PTE_V_BIT);
    assert_true(walk_from(f, PT_BASE + PAGE, VPN0 + 2) & PTE_V_BIT);
    assert_int_equal(uvm_handler_free_alloc_at(x->h, XVA(1, ALLOC_BASE) + PAGE, x->err, 256), -1);
    assert_non_null(strstr(x->err, "no allocation starts there"));
    assert_int_equal(uvm_handler_free_alloc_at(x->h, XVA(1, ALLOC_BASE), x->err, 256), 0);
    assert_int_equal(walk_from(f, PT_BASE + PAGE, VPN0 + 2) & PTE_V_BIT, 0);
    assert_true(walk_from(f, PT_BASE, VPN0 + 2) & PTE_V_BIT);
    assert_int_equal(st(x)->pages_freed, 1);
    assert_int_equal(st(x)->data_pages_resident, 1);
    /* the name now means ASID 0's allocation */
    assert_int_equal(uvm_handler_free_alloc(x->h, "a", x->err, 256), 0);
    assert_int_equal(walk_from(f, PT_BASE, VPN0 + 2) & PTE_V_BIT, 0);
    fx_done(x);
}

/* One address space: no ASID_SEL write, ASID 0 and SCOPE 0 in every command (the old values). */
static void test_one_space_unchanged(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fake_t *f = &x->fk;
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "a", ALLOC_BASE, 0x100000, 0, x->err, sizeof x->err), 0);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    assert_int_equal(ev_find(f, 0, EV_CSR_W, GMMU_CSR_ASID_SEL, 0, 0), SIZE_MAX);
    const size_t n0 = f->ncmd;
    uvm_cmd(x->h, GMMU_CMD_INVAL_PAGE, true, VPN0 + 7, true);
    assert_int_equal(f->cmd[n0].arg, VPN0 + 7);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roots_and_faults),
        cmocka_unit_test(test_one_space_unchanged),
        cmocka_unit_test(test_free_at),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
