/*
 * test_handler_accsvc.c - the handler's service of the access-counter notification ring and the
 * policy lazy_grp_hw (sw-handler/uvm_acc_svc.c, docs/handler.md §6w.1-§6w.2) on the fake device,
 * whose ring the tests write as gmmu_acc does (docs/microarch.md §19.4): the unit programmed at
 * init, first-touch faults mapped remotely, a notification's pages migrated (the mask expanded,
 * VALID cleared, ACC_GET written, a targeted ACC_CLEAR after), stale notifications and pages
 * dropped, a batch that wraps the ring, an overflow cleared (W1C), malformed entries dropped, an
 * evicted page mapped remotely again at its next fault, and the refusals (no ring, no unit).
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_acc.h"
#include "../../sw-handler/uvm_place.h"
#include "../../sw-handler/uvm_priv.h"

#define RING (HOST_BASE + 0x8000u) /* beside the fault ring at HOST_BASE */
#define PTE_APER_BIT (UINT64_C(1) << GMMU_PTE_APER)
#define ENTRIES 16u /* the ring: fb_entries entries */

static void put32(uint8_t *raw, unsigned word, uint32_t v) {
    for (unsigned b = 0; b < 4; b++)
        raw[4u * word + b] = (uint8_t)(v >> (8u * b));
}

static uint32_t ring_w7(fake_t *f, uint32_t idx) {
    uint8_t raw[GMMU_FB_ENTRY_BYTES];
    fk_host_read(f, RING + (uint64_t)idx * GMMU_FB_ENTRY_BYTES, raw, sizeof raw);
    return (uint32_t)raw[28] | (uint32_t)raw[29] << 8 | (uint32_t)raw[30] << 16 |
           (uint32_t)raw[31] << 24;
}

/* gmmu_acc's write of one notification at PUT (class, region base VPN, mask, count), then PUT
 * advances; aper 1 (a peer aperture) makes a malformed entry */
static void notify(fake_t *f, uint32_t aper, uint64_t vpn, uint32_t mask, uint32_t cnt) {
    uint8_t raw[GMMU_FB_ENTRY_BYTES] = {0};
    const uint64_t va = vpn << 12;
    put32(raw, 0, aper << GMMU_ACC_APER_LSB);
    put32(raw, GMMU_ACC_W_ADDR_LO, (uint32_t)va);
    put32(raw, GMMU_ACC_W_ADDR_HI, (uint32_t)(va >> 32));
    put32(raw, GMMU_ACC_W_SUBGRAN, mask);
    put32(raw, GMMU_ACC_W_COUNTER, cnt);
    put32(raw, GMMU_ACC_W_VALID, 1u << GMMU_ACC_VALID_LSB);
    uint32_t *put = &f->csr[GMMU_CSR_ACC_PUT / 4];
    fk_host_write(f, RING + (uint64_t)*put * GMMU_FB_ENTRY_BYTES, raw, sizeof raw);
    *put = (*put + 1u) & (ENTRIES - 1u);
}

static void remote(fake_t *f, uint64_t vpn, uint32_t mask) {
    notify(f, GMMU_ACC_APER_SYS, vpn, mask, 256);
}

typedef struct {
    uint32_t events;
    uint64_t vpn;
    uint32_t pages, value, mask;
} cev_t;

static void on_counter(void *ctx, const uvm_event_t *ev) {
    cev_t *c = ctx;
    c->events++;
    c->vpn = ev->counter.vpn;
    c->pages = ev->counter.pages;
    c->value = ev->counter.value;
    c->mask = ev->counter.sub_mask;
}

static fx_t *start(uint32_t frames, cev_t *c) {
    fx_t *x = fx_new();
    x->cfg.remote_policy = UVM_REMOTE_LAZY_GRP_HW;
    x->cfg.acc_host_addr = RING;
    x->cfg.gpu_data_pages = frames;
    x->cfg.fb_entries = ENTRIES;
    fx_start(x);
    if (c)
        assert_int_equal(
            uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_ACCESS_COUNTER), on_counter, c),
            0);
    return x;
}

/* first-touch faults of pages [vpn, vpn + n) (reads): each mapped remotely, no copy */
static void touch(fx_t *x, uint64_t vpn, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        fk_post(&x->fk, vpn + i, GMMU_AT_READ);
    uvm_handler_service(x->h);
}

static int is_local(fake_t *f, uint64_t vpn) {
    const uint64_t e = walk(f, vpn, NULL);
    return (e & PTE_V_BIT) && !(e & PTE_APER_BIT);
}

static int is_remote(fake_t *f, uint64_t vpn) {
    const uint64_t e = walk(f, vpn, NULL);
    return (e & PTE_V_BIT) && (e & PTE_APER_BIT);
}

/* init: the unit is programmed (ring, size, threshold 256, remote class at 64 KB, both
 * interrupts) and the ring's VALID bits cleared; a first-touch fault maps the page remotely */
static void test_init_and_first_touch(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.remote_policy = UVM_REMOTE_LAZY_GRP_HW;
    x->cfg.acc_host_addr = RING;
    x->cfg.fb_entries = ENTRIES;
    x->fk.host[RING - HOST_BASE + 31] = 0x80; /* a stale VALID from before */
    fx_start(x);
    fake_t *f = &x->fk;
    assert_int_equal(f->csr[GMMU_CSR_ACC_BASE_LO / 4], (uint32_t)RING);
    assert_int_equal(f->csr[GMMU_CSR_ACC_BASE_HI / 4], 0);
    assert_int_equal(f->csr[GMMU_CSR_ACC_SIZE / 4], ENTRIES);
    assert_int_equal(f->csr[GMMU_CSR_ACC_THRESH / 4], 256);
    assert_int_equal(f->csr[GMMU_CSR_ACC_CTRL / 4],
                     (1u << GMMU_CSR_ACC_CTRL_EN_REMOTE_LSB) |
                         (GMMU_ACC_GRAN_64K << GMMU_CSR_ACC_CTRL_GRAN_LSB));
    assert_int_equal(f->csr[GMMU_CSR_INT_ENABLE / 4], 0xfu);
    assert_int_equal(ring_w7(f, 0), 0);
    touch(x, VPN0, 3);
    for (uint64_t p = 0; p < 3; p++)
        assert_true(is_remote(f, VPN0 + p));
    assert_int_equal(f->ndma, 0);
    assert_int_equal(st(x)->remote_maps, 3);
    assert_int_equal(st(x)->acc_batches, 0); /* an empty ring: nothing serviced */
    fx_done(x);
}

/* a notification: its mask expanded (2 KB sub-regions, two bits per page), the named pages
 * migrated (remote mapping shot down first), the others stay remote; VALID cleared, ACC_GET
 * written, then ACC_CLEAR of the region; the event carries the notification */
static void test_service_migrates(void **state) {
    (void)state;
    cev_t c = {0};
    fx_t *x = start(64, &c);
    fake_t *f = &x->fk;
    touch(x, VPN0, 8); /* a fault ring of 16 holds 15 */
    touch(x, VPN0 + 8, 8);
    const size_t cmds0 = f->ncmd;
    remote(f, VPN0, 0x3u | (0x2u << 2) | (0x1u << 10)); /* pages 0, 1, 5 */
    uvm_handler_service(x->h);
    for (uint64_t p = 0; p < 16; p++)
        assert_int_equal(is_local(f, VPN0 + p), p == 0 || p == 1 || p == 5);
    assert_int_equal(st(x)->pages_h2d, 3);
    assert_int_equal(st(x)->remote_to_gpu, 3);
    assert_int_equal(st(x)->acc_serviced, 1);
    assert_int_equal(st(x)->acc_pages, 3);
    assert_int_equal(st(x)->acc_batches, 1);
    assert_int_equal(st(x)->acc_stale, 0);
    assert_int_equal(ring_w7(f, 0) >> GMMU_ACC_VALID_LSB, 0); /* VALID cleared */
    assert_int_equal(f->csr[GMMU_CSR_ACC_GET / 4], 1);
    /* the targeted clear of the region comes after the region's copies */
    assert_int_equal(count_cmds(f, GMMU_CMD_ACC_CLEAR), 1);
    assert_int_equal(count_cmds(f, GMMU_CMD_ACC_CLEAR_ALL), 0);
    const cmd_t *clr = &f->cmd[f->ncmd - 1];
    assert_int_equal(clr->op, GMMU_CMD_ACC_CLEAR);
    assert_int_equal(clr->arg, VPN0);
    assert_true(f->ncmd > cmds0);
    assert_true(f->dma[f->ndma - 1].ev_wait < clr->ev);
    assert_int_equal(c.events, 1);
    assert_int_equal(c.vpn, VPN0);
    assert_int_equal(c.pages, 16);
    assert_int_equal(c.value, 256);
    fx_done(x);
}

/* stale: a region whose pages became resident (faulted in: here migrated by an earlier
 * notification), a region outside every allocation, a local-class notification: nothing
 * migrates, no clear; a malformed entry is dropped and counted */
static void test_stale_and_malformed(void **state) {
    (void)state;
    fx_t *x = start(64, NULL);
    fake_t *f = &x->fk;
    touch(x, VPN0, 2);
    remote(f, VPN0, 0xfu); /* pages 0, 1 */
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->acc_pages, 2);
    const size_t dma0 = f->ndma;
    remote(f, VPN0, 0xfu);              /* the same pages: resident now */
    remote(f, VPN0 + 0x100000, 0x1u);   /* outside every allocation */
    notify(f, 0, VPN0 + 16, 0x1u, 256); /* the local class */
    notify(f, 1, VPN0 + 32, 0x1u, 256); /* aperture 1: malformed */
    remote(f, VPN0 + 48, 0x1u);         /* managed, never touched: not remote */
    uvm_handler_service(x->h);
    assert_int_equal(f->ndma, dma0);
    assert_int_equal(st(x)->acc_serviced, 5);
    assert_int_equal(st(x)->acc_stale, 4);
    assert_int_equal(st(x)->acc_stale_pages, 2 + 1 + 1);
    assert_int_equal(st(x)->acc_dropped, 1);
    assert_int_equal(count_cmds(f, GMMU_CMD_ACC_CLEAR), 1); /* only the first, migrated */
    assert_int_equal(f->csr[GMMU_CSR_ACC_GET / 4], 6);
    fx_done(x);
}

/* a batch across the ring's end: GET 14 -> 2 (four entries, one fetch), each region migrated */
static void test_wrap_batch(void **state) {
    (void)state;
    fx_t *x = start(64, NULL);
    fake_t *f = &x->fk;
    touch(x, VPN0, 4);
    for (uint32_t i = 0; i < 14; i++) /* stale: untouched regions */
        remote(f, VPN0 + 256 + 16u * i, 0x1u);
    uvm_handler_service(x->h);
    assert_int_equal(f->csr[GMMU_CSR_ACC_GET / 4], 14);
    assert_int_equal(st(x)->acc_stale, 14);
    touch(x, VPN0 + 16, 1);
    touch(x, VPN0 + 32, 1);
    touch(x, VPN0 + 48, 1);
    remote(f, VPN0, 0x3u);
    remote(f, VPN0 + 16, 0x3u);
    remote(f, VPN0 + 32, 0x3u);
    remote(f, VPN0 + 48, 0x3u);
    assert_int_equal(f->csr[GMMU_CSR_ACC_PUT / 4], 2);
    const uint64_t b0 = st(x)->acc_batches;
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->acc_batches - b0, 1);
    assert_int_equal(f->csr[GMMU_CSR_ACC_GET / 4], 2);
    for (uint64_t r = 0; r < 4; r++)
        assert_true(is_local(f, VPN0 + 16 * r));
    assert_true(is_remote(f, VPN0 + 1));
    assert_int_equal(st(x)->acc_pages, 4);
    assert_int_equal(count_cmds(f, GMMU_CMD_ACC_CLEAR), 4);
    for (uint32_t i = 0; i < ENTRIES; i++)
        assert_int_equal(ring_w7(f, i) >> GMMU_ACC_VALID_LSB, 0);
    fx_done(x);
}

/* ACC_STATUS.OVERFLOW: cleared by a W1C write and counted; the ring is serviced after */
static void test_overflow(void **state) {
    (void)state;
    fx_t *x = start(64, NULL);
    fake_t *f = &x->fk;
    touch(x, VPN0, 1);
    f->csr[GMMU_CSR_ACC_STATUS / 4] = 1u << GMMU_CSR_ACC_STATUS_OVERFLOW_LSB;
    remote(f, VPN0, 0x3u);
    uvm_handler_service(x->h);
    assert_int_equal(f->csr[GMMU_CSR_ACC_STATUS / 4], 0);
    assert_true(ev_find(f, 0, EV_CSR_W, GMMU_CSR_ACC_STATUS, 1, 1) != SIZE_MAX);
    assert_int_equal(st(x)->acc_ovf_seen, 1);
    assert_int_equal(st(x)->acc_pages, 1);
    uvm_handler_service(x->h); /* nothing new: no second count */
    assert_int_equal(st(x)->acc_ovf_seen, 1);
    fx_done(x);
}

/* the policy's cycle with little GPU memory: pages migrated by counters are evicted by later
 * ones and, at their next fault, mapped remotely again (lazy again), never migrated by a fault */
static void test_evicted_remote_again(void **state) {
    (void)state;
    fx_t *x = start(2, NULL);
    fake_t *f = &x->fk;
    touch(x, VPN0, 4);
    remote(f, VPN0, 0xffu); /* 4 pages, 2 frames: two evicted on the way */
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->acc_pages, 4);
    assert_int_equal(st(x)->evictions, 2);
    uint32_t local = 0, none = 0;
    uint64_t gone = 0;
    for (uint64_t p = 0; p < 4; p++) {
        local += (uint32_t)is_local(f, VPN0 + p);
        if (walk(f, VPN0 + p, NULL) == 0) {
            none++;
            gone = VPN0 + p;
        }
    }
    assert_int_equal(local, 2);
    assert_int_equal(none, 2);
    const uint64_t h2d = st(x)->pages_h2d;
    touch(x, gone, 1);
    assert_true(is_remote(f, gone));
    assert_int_equal(st(x)->pages_h2d, h2d);
    fx_done(x);
}

/* refusals: no ring given (the platform gives none without the unit), a GMMU without the unit
 * (its registers unmapped), a threshold out of range */
static void test_refused(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.remote_policy = UVM_REMOTE_LAZY_GRP_HW;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "acc_entries > 0"));
    x->cfg.acc_host_addr = RING + 4;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "acc_host_addr"));
    x->cfg.acc_host_addr = RING;
    x->cfg.acc_threshold = 0;
    assert_null(uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err));
    assert_non_null(strstr(x->err, "acc_threshold"));
    x->cfg.acc_threshold = 256;
    x->fk.no_acc = 1;
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), -1);
    assert_non_null(strstr(x->err, "unmapped"));
    x->fk.err_status = 0;
    /* without the policy nothing touches the unit's registers */
    uvm_handler_free(x->h);
    x->cfg.remote_policy = UVM_REMOTE_NONE;
    fx_start(x);
    assert_int_equal(x->fk.err_status, 0);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_and_first_touch),
        cmocka_unit_test(test_service_migrates),
        cmocka_unit_test(test_stale_and_malformed),
        cmocka_unit_test(test_wrap_batch),
        cmocka_unit_test(test_overflow),
        cmocka_unit_test(test_evicted_remote_again),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
