/*
 * test_handler_shootdown.c - the TLB shootdown granularity (tlb_shootdown, docs/handler.md §6q):
 * `entry` (the default) invalidates a changed translation with INVAL_PAGE and a newly mapped page
 * with nothing; `all` (UVMSmart's default, seed 002 C.3) flushes every TLB with INVAL_ALL after
 * each page-table update: before each replay of a serviced batch, and instead of each INVAL_PAGE.
 * Against the fake device (test_handler_fake.h).
 */
#include "test_handler_fake.h"

static void service_one(fx_t *x, uint64_t vpn) {
    fk_post(&x->fk, vpn, GMMU_AT_READ);
    uvm_handler_service(x->h);
}

/* The index of the last command with opcode op before index end (SIZE_MAX: none). */
static size_t last_cmd(const fake_t *f, uint32_t op, size_t end) {
    for (size_t i = end; i-- > 0;)
        if (f->cmd[i].op == op)
            return i;
    return SIZE_MAX;
}

static void test_entry_default(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 2;
    fx_start(x);
    const fake_t *f = &x->fk;
    service_one(x, VPN0 + 1);
    service_one(x, VPN0 + 2);
    assert_int_equal(count_cmds(f, GMMU_CMD_INVAL_ALL), 0); /* new mappings: nothing stale */
    assert_int_equal(count_cmds(f, GMMU_CMD_INVAL_PAGE), 0);
    service_one(x, VPN0 + 3); /* evicts VPN0 + 1: one INVAL_PAGE of it */
    assert_int_equal(count_cmds(f, GMMU_CMD_INVAL_PAGE), 1);
    assert_int_equal(f->cmd[last_cmd(f, GMMU_CMD_INVAL_PAGE, f->ncmd)].arg, VPN0 + 1);
    assert_int_equal(count_cmds(f, GMMU_CMD_INVAL_ALL), 0);
    assert_int_equal(st(x)->invalidates, 1);
    fx_done(x);
}

static void test_all(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 2;
    x->cfg.tlb_shootdown = UVM_TLB_SHOOTDOWN_ALL;
    fx_start(x);
    const fake_t *f = &x->fk;
    service_one(x, VPN0 + 1);
    /* the batch's page mapped, then INVAL_ALL (waited for), then the replay */
    assert_int_equal(count_cmds(f, GMMU_CMD_INVAL_ALL), 1);
    const size_t inv = last_cmd(f, GMMU_CMD_INVAL_ALL, f->ncmd);
    const size_t rep = last_cmd(f, GMMU_CMD_REPLAY_ALL, f->ncmd);
    assert_true(rep != SIZE_MAX && inv < rep);
    assert_true(ev_find(f, f->cmd[inv].ev, EV_CSR_R, GMMU_CSR_CMD_STATUS, 0, 0) < f->cmd[rep].ev);
    uint64_t leaf_pa;
    assert_int_not_equal(walk(&x->fk, VPN0 + 1, &leaf_pa), 0);
    assert_true(ev_find(f, 0, EV_GPU_W, leaf_pa, 0, 0) < f->cmd[inv].ev); /* mapped before */
    service_one(x, VPN0 + 2);
    assert_int_equal(count_cmds(f, GMMU_CMD_INVAL_ALL), 2);
    assert_int_equal(st(x)->invalidates, 2);
    /* an eviction: INVAL_ALL instead of INVAL_PAGE, then the batch's own before its replay */
    service_one(x, VPN0 + 3);
    assert_int_equal(count_cmds(f, GMMU_CMD_INVAL_PAGE), 0);
    assert_int_equal(count_cmds(f, GMMU_CMD_INVAL_ALL), 4);
    assert_int_equal(st(x)->invalidates, 4);
    assert_int_equal(st(x)->evictions, 1);
    assert_int_equal(walk(&x->fk, VPN0 + 1, NULL), 0);
    fx_done(x);
}

static void test_bad_value(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.tlb_shootdown = (uvm_tlb_shootdown_t)2;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "tlb_shootdown 2"));
    free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry_default),
        cmocka_unit_test(test_all),
        cmocka_unit_test(test_bad_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
