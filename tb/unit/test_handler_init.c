/*
 * test_handler_init.c - cmocka tests of the host fault handler's configuration (defaults, checks,
 * policy names), allocations and device initialization against the fake device
 * (test_handler_fake.h).
 */
#include "../../sw-handler/uvm_priv.h"
#include "test_handler_fake.h"

/* ------------------------------------------------------------------------------------------ */
/* configuration, allocations, initialization                                                  */

static void test_cfg_defaults(void **state) {
    (void)state;
    uvm_cfg_t c;
    memset(&c, 0xA5, sizeof c);
    uvm_cfg_defaults(&c);
    assert_int_equal(c.batch_size, 256);
    assert_int_equal(c.max_batches_per_irq, 20);
    assert_string_equal(c.policy[UVM_POLICY_REPLAY], "batch_flush");
    assert_string_equal(c.policy[UVM_POLICY_EVICT], "lru");
    assert_string_equal(c.policy[UVM_POLICY_PREFETCH], "none");
    assert_string_equal(c.policy[UVM_POLICY_THRASHING], "none");
    assert_int_equal(c.migrate_max_pages, 1);
    assert_int_equal(c.t_irq_ns, 4000);
    assert_int_equal(c.t_batch_ns, 8600);
    assert_int_equal(c.t_fault_ns, 500);
    assert_int_equal(c.t_page_ns, 3000);
    assert_int_equal(c.t_pte_ns, 250);
    assert_int_equal(c.t_evict_ns, 2000);
    assert_int_equal(c.t_block_ns, 0);
}

static void test_new_rejects_bad_cfg(void **state) {
    (void)state;
    fx_t *x = fx_new();
    char err[256];
    uvm_cfg_t c = x->cfg;
    c.batch_size = 0;
    assert_null(uvm_handler_new(&c, &x->dev, err, sizeof err));
    assert_non_null(strstr(err, "batch_size"));
    c = x->cfg;
    c.fb_entries = 24;
    assert_null(uvm_handler_new(&c, &x->dev, err, sizeof err));
    assert_non_null(strstr(err, "fb_entries"));
    c = x->cfg;
    c.fb_host_addr = HOST_BASE + 8;
    assert_null(uvm_handler_new(&c, &x->dev, err, sizeof err));
    assert_non_null(strstr(err, "fb_host_addr"));
    c = x->cfg;
    c.gpu_data_base_pa = PT_BASE + PAGE;
    assert_null(uvm_handler_new(&c, &x->dev, err, sizeof err));
    assert_non_null(strstr(err, "overlap"));
    c = x->cfg;
    c.gpu_pt_pages = 3;
    assert_null(uvm_handler_new(&c, &x->dev, err, sizeof err));
    assert_non_null(strstr(err, "gpu_pt_pages"));
    c = x->cfg;
    memcpy(c.policy[UVM_POLICY_REPLAY], "never", sizeof "never");
    assert_null(uvm_handler_new(&c, &x->dev, err, sizeof err));
    assert_string_equal(err,
                        "uvm: replay policy 'never' is not one of block|batch|batch_flush|once");
    c = x->cfg;
    memcpy(c.policy[UVM_POLICY_EVICT], "mru", sizeof "mru");
    assert_null(uvm_handler_new(&c, &x->dev, err, sizeof err));
    assert_string_equal(err, "uvm: evict policy 'mru' is not one of "
                             "lru|random|fifo|nvidia|lru_oracle|lfu|optimal|clock|tbne");
    c = x->cfg;
    memset(c.policy[UVM_POLICY_PREFETCH], 'x', UVM_POLICY_NAME_MAX);
    assert_null(uvm_handler_new(&c, &x->dev, err, sizeof err));
    assert_non_null(strstr(err, "prefetch policy name is not NUL-terminated"));
    c = x->cfg;
    c.migrate_max_pages = 0;
    assert_null(uvm_handler_new(&c, &x->dev, err, sizeof err));
    assert_non_null(strstr(err, "migrate_max_pages"));
    c.migrate_max_pages = 513;
    assert_null(uvm_handler_new(&c, &x->dev, err, sizeof err));
    assert_non_null(strstr(err, "migrate_max_pages"));
    uvm_dev_t d = x->dev;
    d.dma_submit = NULL;
    assert_null(uvm_handler_new(&x->cfg, &d, err, sizeof err));
    assert_non_null(strstr(err, "device interface"));
    fx_done(x);
}

static void test_alloc_validation(void **state) {
    (void)state;
    fx_t *x = fx_new();
    uvm_handler_t *h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(h);
    x->h = h;
    char err[256];
    assert_int_equal(uvm_handler_add_alloc(h, "a", 0x100000, 0x10000, 0, err, sizeof err), 0);
    assert_int_equal(uvm_handler_add_alloc(h, "c", 0x200000, 0x10000, 1, err, sizeof err), 0);
    /* adjacent on both sides: fine */
    assert_int_equal(uvm_handler_add_alloc(h, "b", 0x110000, 0xF0000, 0, err, sizeof err), 0);

    err[0] = 0;
    assert_int_equal(uvm_handler_add_alloc(h, "zero", 0x400000, 0, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "'zero'"));
    assert_non_null(strstr(err, "zero size"));

    assert_int_equal(uvm_handler_add_alloc(h, "ovl", 0x1FF000, 0x2000, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "'ovl'"));
    assert_non_null(strstr(err, "overlaps"));
    assert_non_null(strstr(err, "'b'"));

    assert_int_equal(uvm_handler_add_alloc(h, "inside", 0x201000, 0x10, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "'c'"));

    assert_int_equal(
        uvm_handler_add_alloc(h, "big", (UINT64_C(1) << 48) - 0x1000, 0x2000, 0, err, sizeof err),
        -1);
    assert_non_null(strstr(err, "'big'"));
    assert_non_null(strstr(err, "VA space"));

    assert_int_equal(
        uvm_handler_add_alloc(h, "wrap", UINT64_MAX - 0xFFF, 0x2000, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "VA space"));

    assert_int_equal(uvm_handler_add_alloc(h, NULL, 0x800000, 0x1000, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "no name"));
    assert_int_equal(uvm_handler_add_alloc(h, "", 0x800000, 0x1000, 0, err, sizeof err), -1);
    /* the last page of the VA space is legal */
    assert_int_equal(
        uvm_handler_add_alloc(h, "top", (UINT64_C(1) << 48) - 0x1000, 0x1000, 0, err, sizeof err),
        0);
    fx_done(x);
}

static void test_init_programs_registers(void **state) {
    (void)state;
    fx_t *x = fx_new();
    memset(x->fk.gpu, 0xEE, sizeof x->fk.gpu); /* garbage the root must be cleared of */
    memset(x->fk.host, 0xFF, 32 * 16);         /* stale ring contents with VALID set */
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    fake_t *f = &x->fk;
    assert_int_equal(f->csr[GMMU_CSR_PT_BASE_LO / 4], (uint32_t)PT_BASE);
    assert_int_equal(f->csr[GMMU_CSR_PT_BASE_HI / 4], (uint32_t)(PT_BASE >> 32));
    assert_int_equal(f->csr[GMMU_CSR_FB_BASE_LO / 4], (uint32_t)HOST_BASE);
    assert_int_equal(f->csr[GMMU_CSR_FB_BASE_HI / 4], 0);
    assert_int_equal(f->fb_size, 16);
    assert_int_equal(f->csr[GMMU_CSR_INT_ENABLE / 4], 3);
    for (unsigned i = 0; i < 512; i++)
        assert_int_equal(f->gpu[i], 0);
    assert_int_equal(f->gpu[512], UINT64_C(0xEEEEEEEEEEEEEEEE)); /* only the root page */
    for (unsigned i = 0; i < 16; i++)
        assert_int_equal(ring_flags(f, i) >> 31, 0);
    /* root zeroed before PT_BASE is programmed; ERR_STATUS checked after everything */
    const size_t last_zero = ev_find(f, 0, EV_GPU_W, PT_BASE + 8 * 511, 0, 0);
    const size_t ptb = ev_find(f, 0, EV_CSR_W, GMMU_CSR_PT_BASE_LO, 0, 0);
    const size_t ie = ev_find(f, 0, EV_CSR_W, GMMU_CSR_INT_ENABLE, 0, 0);
    const size_t es = ev_find(f, 0, EV_CSR_R, GMMU_CSR_ERR_STATUS, 0, 0);
    assert_true(last_zero < ptb);
    assert_true(ie < es && es != SIZE_MAX);
    assert_int_equal(st(x)->pt_pages_used, 1);
    /* a second init is refused */
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), -1);
    fx_done(x);
}

/* coalesce_by = gmmu: the command sequence of uvm_gmmu_coalesce (docs/microarch.md §15.1) */
static void test_gmmu_coalesce_cmd(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fx_start(x);
    fake_t *f = &x->fk;
    const size_t n0 = f->ncmd;
    const uint64_t va = UINT64_C(0x1234) << GMMU_LARGE_SHIFT;
    assert_int_equal(uvm_gmmu_coalesce(x->h, 2, va, false), GMMU_CO_OK);
    assert_int_equal(uvm_gmmu_coalesce(x->h, 2, va, true), GMMU_CO_OK);
    assert_int_equal(f->ncmd, n0 + 2);
    assert_int_equal(f->cmd[n0].op, GMMU_CMD_COALESCE);
    assert_int_equal(f->cmd[n0 + 1].op, GMMU_CMD_SPLINTER);
    /* CMD_ARG_HI.ASID = 2 above VPN[35:32] */
    const uint64_t arg =
        (va >> GMMU_PAGE_SHIFT) | (UINT64_C(2) << (32 + GMMU_CSR_CMD_ARG_HI_ASID_LSB));
    assert_int_equal(f->cmd[n0].arg, arg);
    assert_int_equal(f->cmd_without_poll, 0); /* BUSY polled before each command */
    assert_int_equal(f->cmd_while_busy, 0);
    assert_int_equal(f->busy_left, 0); /* and waited for after it */
    fx_done(x);
}

static void test_init_fails_on_err_status(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->fk.err_status = 1u << GMMU_ERR_BAD_VALUE;
    x->fk.csr[GMMU_CSR_ERR_ADDR / 4] = GMMU_CSR_FB_SIZE;
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), -1);
    assert_non_null(strstr(x->err, "ERR_STATUS 0x4"));
    assert_non_null(strstr(x->err, "0x020"));
    x->fk.err_status = 0;
    /* not initialized: an interrupt is ignored with a log line, no device access */
    const size_t nev = x->fk.nev;
    uvm_handler_service(x->h);
    assert_int_equal(x->fk.ncmd, 0);
    assert_int_equal(x->fk.nev, nev + 1); /* just the log event */
    fx_done(x);
}

static void test_init_rejects_wrong_id(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->fk.id = 0xDEADBEEF;
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), -1);
    assert_non_null(strstr(x->err, "0xdeadbeef"));
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cfg_defaults),
        cmocka_unit_test(test_new_rejects_bad_cfg),
        cmocka_unit_test(test_alloc_validation),
        cmocka_unit_test(test_gmmu_coalesce_cmd),
        cmocka_unit_test(test_init_programs_registers),
        cmocka_unit_test(test_init_fails_on_err_status),
        cmocka_unit_test(test_init_rejects_wrong_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
