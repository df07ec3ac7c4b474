/*
 * test_handler_dynamap.c - DynaMap's placement decision (sw-handler/uvm_dynamap.c,
 * docs/handler.md §6x): the cost model of eq. (1)-(3) and StaticMap's threshold on hand-made
 * inputs; end to end on the fake device with a hand-made Page Spatial Table behind the HAL
 * (uvm_dev_t.pst_read): a page evicted before is mapped remotely or migrated by its referenced
 * lines, a page never evicted migrates, evicted pages are counted by their lines (fig. 3a); the
 * keys that cannot run are refused by name.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_place.h"

#define PTE_APER_BIT (UINT64_C(1) << GMMU_PTE_APER)

/* DynaMap's table (seed 001 §5.3): B_C 12.8 GB/s, B_G 336 GB/s, B_PCI 16 GB/s, H 20 us */
static const uvm_dyn_params_t PAPER = {12800, 336000, 16000, 20000.0};

/* eq. (1) and (3) by hand: one line (x = 128 B) and f_over = 0:
 * C_CPU = 128/12.8 + 128/16 + 20000 = 20018 ns;
 * C_GPU = 128/336 + (1 + 0) * (20000 + 4096/12.8 + 4096/16) = 20576.38 ns */
static void test_costs(void **state) {
    (void)state;
    uvm_dyn_cost_t c = uvm_dyn_costs(&PAPER, 1, 0.0);
    assert_true(c.cpu_ns > 20017.99 && c.cpu_ns < 20018.01);
    assert_true(c.gpu_ns > 20576.37 && c.gpu_ns < 20576.39);
    assert_true(c.cpu_ns < c.gpu_ns); /* one line: stay on the host */
    c = uvm_dyn_costs(&PAPER, 2, 0.0);
    assert_true(c.gpu_ns < c.cpu_ns); /* two lines (40036 ns vs 20576.8 ns): migrate */
    c = uvm_dyn_costs(&PAPER, 2, 1.0);
    assert_true(c.cpu_ns < c.gpu_ns); /* twice the faults: 41152.8 ns > 40036 ns */
    c = uvm_dyn_costs(&PAPER, 3, 1.0);
    assert_true(c.gpu_ns < c.cpu_ns); /* 60054 ns */
    c = uvm_dyn_costs(&PAPER, 0, 0.0);
    assert_true(c.cpu_ns == 0.0 && c.gpu_ns > 20000.0); /* nothing referenced: host */
    /* eq. (2) */
    assert_true(uvm_dyn_fover(3.0, 1.0) == 2.0);
    assert_true(uvm_dyn_fover(0.5, 1.0) == -0.5);
    assert_true(uvm_dyn_fover(3.0, 0.0) == 0.0); /* no base rate: no pressure */
}

static void test_static_threshold(void **state) {
    (void)state;
    assert_true(uvm_dyn_static_migrates(16, 50));
    assert_false(uvm_dyn_static_migrates(15, 50));
    assert_true(uvm_dyn_static_migrates(7, 20)); /* 21.9 % */
    assert_false(uvm_dyn_static_migrates(6, 20));
    assert_true(uvm_dyn_static_migrates(29, 90)); /* 90.6 % */
    assert_false(uvm_dyn_static_migrates(28, 90));
    assert_true(uvm_dyn_static_migrates(0, 0));
    assert_false(uvm_dyn_static_migrates(31, 100));
}

/* the terms from the configuration: H = the handler's cost of a lone fault */
static void test_params(void **state) {
    (void)state;
    uvm_cfg_t c;
    uvm_cfg_defaults(&c);
    c.t_irq_ns = 1;
    c.t_batch_ns = 20;
    c.t_fault_ns = 300;
    c.t_page_ns = 4000;
    c.dynamap_pci_mbps = 32000;
    const uvm_dyn_params_t p = uvm_dyn_params(&c);
    assert_true(p.h_ns == 4321.0);
    assert_int_equal(p.bpci_mbps, 32000);
    assert_int_equal(p.bc_mbps, 12800);
    assert_int_equal(p.bg_mbps, 336000);
}

/* ---- end to end: a hand-made PST behind the HAL ---- */

typedef struct {
    uint64_t vpn[8];
    uint32_t lines[8];
    size_t n;
    size_t reads;
} pst_t;

static void pst_read(void *ctx, uint64_t vpn, uint32_t *lines, uint32_t *count) {
    pst_t *t = ((fake_t *)ctx)->user;
    t->reads++;
    *lines = *count = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->vpn[i] == vpn)
            *lines = t->lines[i];
}

static void pst_set(pst_t *t, uint64_t vpn, uint32_t lines) {
    t->vpn[t->n] = vpn;
    t->lines[t->n++] = lines;
}

/* 4 frames; pages 0..3 fault and fill them, 4..7 evict them (fifo order: 0, 1, 2, 3) */
static fx_t *start(uint32_t policy, pst_t *t, fx_evicts_t *ev) {
    fx_t *x = fx_new();
    x->fk.user = t;
    x->dev.pst_read = pst_read;
    x->cfg.gpu_data_pages = 4;
    x->cfg.remote_policy = policy;
    set_policy(&x->cfg, UVM_POLICY_EVICT, "fifo");
    fx_start(x);
    assert_int_equal(
        uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT), fx_record_evict, ev), 0);
    for (uint64_t p = 0; p < 8; p++)
        fx_service_write(x, VPN0 + p);
    assert_int_equal(ev->n, 4);
    assert_int_equal(st(x)->remote_maps, 0); /* never evicted: every page migrated (Eager) */
    assert_int_equal(st(x)->pst_migrate + st(x)->pst_remote, 0);
    return x;
}

static bool remote_leaf(fx_t *x, uint64_t vpn) {
    return (walk(&x->fk, vpn, NULL) & PTE_APER_BIT) != 0;
}

static void test_static_map(void **state) {
    (void)state;
    pst_t t = {0};
    fx_evicts_t ev = {0};
    pst_set(&t, VPN0 + 0, 0x0000000fu); /* 4 lines: 12.5 % */
    pst_set(&t, VPN0 + 1, 0xffff0000u); /* 16 lines: 50 % */
    fx_t *x = start(UVM_REMOTE_STATIC_MAP, &t, &ev);
    assert_int_equal(st(x)->evict_lines[4], 1); /* page 0 */
    assert_int_equal(st(x)->evict_lines[16], 1);
    assert_int_equal(st(x)->evict_lines[0], 2); /* pages 2, 3: nothing recorded */
    fx_service_write(x, VPN0 + 0);              /* below 50 %: remote */
    assert_true(remote_leaf(x, VPN0 + 0));
    assert_int_equal(st(x)->remote_maps, 1);
    assert_int_equal(st(x)->pst_remote, 1);
    const uint64_t h2d = st(x)->pages_h2d;
    fx_service_write(x, VPN0 + 1); /* 50 %: migrates */
    assert_false(remote_leaf(x, VPN0 + 1));
    assert_true(walk(&x->fk, VPN0 + 1, NULL) & PTE_V_BIT);
    assert_int_equal(st(x)->pages_h2d, h2d + 1);
    assert_int_equal(st(x)->pst_migrate, 1);
    assert_int_equal(st(x)->remote_maps, 1);
    assert_true(t.reads > 0);
    fx_done(x);
}

/* pages 0 (one line) and 1 (two lines), both evicted, fault again under dynamap with f_over = 0:
 * page 0 stays on the host, page 1 migrates */
static void expect_one_remote_one_migrated(fx_t *x) {
    fx_service_write(x, VPN0 + 0);
    assert_true(remote_leaf(x, VPN0 + 0));
    fx_service_write(x, VPN0 + 1);
    assert_false(remote_leaf(x, VPN0 + 1));
    assert_int_equal(st(x)->pst_remote, 1);
    assert_int_equal(st(x)->pst_migrate, 1);
}

/* dynamap with the default costs (H = 16.1 us) and no measured pressure (f_over = 0): one line
 * stays on the host, two lines migrate */
static void test_dynamap(void **state) {
    (void)state;
    pst_t t = {0};
    fx_evicts_t ev = {0};
    pst_set(&t, VPN0 + 0, 0x00000001u);
    pst_set(&t, VPN0 + 1, 0x00000003u);
    fx_t *x = start(UVM_REMOTE_DYNAMAP, &t, &ev);
    expect_one_remote_one_migrated(x);
    fx_done(x);
}

/* the measured pressure: f_over = 0 before the first eviction; then eq. (2) from the rate of the
 * last window (1 us: one batch) against the rate before the first eviction (clamped at 0) */
static void test_fault_rate(void **state) {
    (void)state;
    pst_t t = {0};
    fx_t *x = fx_new();
    x->fk.user = &t;
    x->dev.pst_read = pst_read;
    x->cfg.gpu_data_pages = 4;
    x->cfg.remote_policy = UVM_REMOTE_DYNAMAP;
    x->cfg.dynamap_window_us = 1;
    fx_start(x);
    for (uint64_t p = 0; p < 4; p++) {
        x->fk.now += 200000; /* 200 us between faults before the memory is full: a low rate */
        fx_service_write(x, VPN0 + p);
    }
    assert_true(uvm_dyn_current_fover(x->h) == 0.0); /* no eviction yet */
    for (uint64_t p = 4; p < 8; p++)
        fx_service_write(x, VPN0 + p); /* back to back: one fault per service time */
    assert_int_equal(st(x)->evictions, 4);
    assert_true(uvm_dyn_current_fover(x->h) > 1.0); /* more than twice the base rate */
    fx_done(x);

    x = fx_new(); /* the other way round: faults slower after the first eviction: f_over 0 */
    x->fk.user = &t;
    x->dev.pst_read = pst_read;
    x->cfg.gpu_data_pages = 4;
    x->cfg.remote_policy = UVM_REMOTE_DYNAMAP;
    x->cfg.dynamap_window_us = 1;
    fx_start(x);
    for (uint64_t p = 0; p < 8; p++) {
        x->fk.now += p < 4 ? 0u : 500000u;
        fx_service_write(x, VPN0 + p);
    }
    assert_true(uvm_dyn_current_fover(x->h) == 0.0);
    fx_done(x);
}

/* ---- pst_source = hw: the GMMU's bitmap table (§6x.7) ---- */

#define HW_TABLE (PT_BASE + 1u * PAGE) /* the table: the first pool page after the root */

/* ORs page vpn's bitmap into the table as the GMMU's set-bits write would (§20.5) */
static void gmmu_or(fx_t *x, uint64_t vpn, uint32_t bmp) {
    const uint64_t i = vpn - VPN0, pa = HW_TABLE + 8u * (i >> 1);
    fk_gpu_write64(&x->fk, pa, fk_gpu_read64(&x->fk, pa) | ((uint64_t)bmp << (32u * (i & 1u))));
}

/* 4 frames, fifo, pst_source = hw with the handler's table over "a" (1 MB at VPN0, 256 pages) and
 * no software PST (the device gives no pst_read); evictions recorded in ev */
static fx_t *start_hw(uint32_t policy, fx_evicts_t *ev) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 4;
    x->cfg.remote_policy = policy;
    x->cfg.pst_source = UVM_PST_HW;
    x->cfg.bmp_window_pages = 256;
    set_policy(&x->cfg, UVM_POLICY_EVICT, "fifo");
    fx_start(x);
    assert_int_equal(x->fk.csr[GMMU_CSR_BMP_PAGES / 4], 256);
    assert_int_equal(
        uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT), fx_record_evict, ev), 0);
    return x;
}

/* static_map at 50 % on the table, no software PST (the device gives no pst_read): the lines at
 * the eviction counted (fig. 3a), the decision from the table as it is at the fault */
static void test_hw_static_map(void **state) {
    (void)state;
    fx_evicts_t ev = {0};
    fx_t *x = start_hw(UVM_REMOTE_STATIC_MAP, &ev);
    gmmu_or(x, VPN0 + 0, 0x0000000fu); /* 4 lines: 12.5 % */
    gmmu_or(x, VPN0 + 1, 0xffff0000u); /* 16 lines: 50 % (the upper half of word 0) */
    for (uint64_t p = 0; p < 8; p++)
        fx_service_write(x, VPN0 + p);
    assert_int_equal(ev.n, 4);
    assert_int_equal(st(x)->evict_lines[4], 1);
    assert_int_equal(st(x)->evict_lines[16], 1);
    assert_int_equal(st(x)->evict_lines[0], 2);
    assert_int_equal(st(x)->remote_maps, 0);
    /* page 2 was evicted with nothing in the table; a write-back landing after the eviction
     * is read at the decision: 32 lines, migrates */
    gmmu_or(x, VPN0 + 2, 0xffffffffu);
    fx_service_write(x, VPN0 + 0); /* below 50 %: remote */
    assert_true(remote_leaf(x, VPN0 + 0));
    assert_int_equal(st(x)->pst_remote, 1);
    fx_service_write(x, VPN0 + 1); /* 50 %: migrates */
    assert_false(remote_leaf(x, VPN0 + 1));
    assert_true(walk(&x->fk, VPN0 + 1, NULL) & PTE_V_BIT);
    fx_service_write(x, VPN0 + 2);
    assert_false(remote_leaf(x, VPN0 + 2));
    assert_int_equal(st(x)->pst_migrate, 2);
    fx_service_write(x, VPN0 + 3); /* 0 lines: remote */
    assert_true(remote_leaf(x, VPN0 + 3));
    assert_int_equal(st(x)->pst_remote, 2);
    assert_int_equal(st(x)->remote_maps, 2);
    assert_int_equal(count_cmds(&x->fk, GMMU_CMD_BMP_FLUSH), 0); /* the table as it is */
    fx_done(x);
}

/* dynamap on the table: the cost model as with the software PST (1 line remote, 2 migrate) */
static void test_hw_dynamap(void **state) {
    (void)state;
    fx_evicts_t ev = {0};
    fx_t *x = start_hw(UVM_REMOTE_DYNAMAP, &ev);
    gmmu_or(x, VPN0 + 0, 0x00000001u);
    gmmu_or(x, VPN0 + 1, 0x00000003u);
    for (uint64_t p = 0; p < 8; p++)
        fx_service_write(x, VPN0 + p);
    assert_int_equal(ev.n, 4);
    expect_one_remote_one_migrated(x);
    /* uvm_pst_read under hw: the table's word, no count; false outside the window */
    uint32_t lines = 0, count = 7;
    assert_true(uvm_pst_read(x->h, VPN0 + 1, &lines, &count));
    assert_int_equal(lines, 3);
    assert_int_equal(count, 0);
    assert_false(uvm_pst_read(x->h, VPN0 + 256, &lines, &count));
    assert_int_equal(lines, 0);
    fx_done(x);
}

/* hw without the device's table refused by name; the lazy policies keep refusing hw */
static void test_hw_refused(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.remote_policy = UVM_REMOTE_DYNAMAP;
    x->cfg.pst_source = UVM_PST_HW; /* bmp_window_pages = 0: line_bitmap = 0 */
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "pst_source = hw"));
    assert_non_null(strstr(x->err, "bmp_window_pages"));
    x->cfg.bmp_window_pages = 256;
    uvm_handler_t *h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(h); /* with the table, and without pst_read */
    uvm_handler_free(h);
    x->dev.pst_read = pst_read;
    x->cfg.remote_policy = UVM_REMOTE_LAZY_PG_STAT_SW;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "pst_source must be sw"));
    x->cfg.remote_policy = UVM_REMOTE_LAZY_PG_DYN_SW;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "pst_source must be sw"));
    free(x);
}

static void test_refused(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.remote_policy = UVM_REMOTE_STATIC_MAP; /* the fake gives no PST */
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "pst_read"));
    x->dev.pst_read = pst_read;
    x->cfg.pst_source = 2;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "must be sw (0) or hw (1)"));
    x->cfg.pst_source = UVM_PST_SW;
    x->cfg.static_map_pct = 101;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "static_map_pct"));
    x->cfg.static_map_pct = 50;
    x->cfg.remote_policy = UVM_REMOTE_POLICIES;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "static_map (3)"));
    free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_costs),      cmocka_unit_test(test_static_threshold),
        cmocka_unit_test(test_params),     cmocka_unit_test(test_static_map),
        cmocka_unit_test(test_dynamap),    cmocka_unit_test(test_fault_rate),
        cmocka_unit_test(test_refused),    cmocka_unit_test(test_hw_static_map),
        cmocka_unit_test(test_hw_dynamap), cmocka_unit_test(test_hw_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
