/*
 * test_platform_host.c - the host program (cosim/host_drv.c) against a fake backend: a CSR
 * register file behind uvm_dev_t and scripted platform services. Checks the order of the phases
 * (launch, device init, interrupt services, end-of-run ERR_STATUS check), that an init failure
 * and a platform halt inside a device call are returned as statuses, and that a bad ERR_STATUS
 * is reported through the services.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gmmu_consts.h"
#include "host_drv.h"

typedef struct {
    uint32_t csr[1024];
    uint32_t id;           /* value of the ID register */
    uint32_t err_at_end;   /* ERR_STATUS once the workload is done */
    int halt_after_writes; /* > 0: the platform halts at this CSR write */
    int writes, halted, done;
    int irqs_left;
    char log[256];
    /* phases, in order: L(aunch) O(nline) W(ait) B(egin) E(nd) X (error); memcpy mode:
     * D(eclare) S(tart) M (a DMA submitted) */
    char trace[64];
    size_t ntrace;
    /* memcpy mode: launches the wait asks for, and the script of declare/start */
    int launches_left, declares;
    uint64_t alloc_pages; /* size of the allocation each declare adds */
    hdrv_t *h;
} fake_t;

static void mark(fake_t *f, char c) {
    if (f->ntrace + 1 < sizeof(f->trace))
        f->trace[f->ntrace++] = c;
}

static uint32_t csr_read(void *ctx, uint32_t addr) {
    fake_t *f = ctx;
    if (f->halted)
        return 0;
    if (addr == GMMU_CSR_ID)
        return f->id;
    if (addr == GMMU_CSR_ERR_STATUS)
        return f->done ? f->err_at_end : 0;
    if (addr == GMMU_CSR_ERR_ADDR)
        return GMMU_CSR_CMD;
    return f->csr[(addr / 4) % 1024];
}
static void csr_write(void *ctx, uint32_t addr, uint32_t value) {
    fake_t *f = ctx;
    if (f->halted)
        return;
    if (++f->writes == f->halt_after_writes)
        f->halted = 1;
    f->csr[(addr / 4) % 1024] = value;
}
static void host_read(void *ctx, uint64_t addr, void *buf, size_t len) {
    (void)ctx;
    (void)addr;
    memset(buf, 0, len);
}
static void host_write(void *ctx, uint64_t addr, const void *buf, size_t len) {
    (void)ctx;
    (void)addr;
    (void)buf;
    (void)len;
}
static void gpu_write64(void *ctx, uint64_t pa, uint64_t value) {
    (void)ctx;
    (void)pa;
    (void)value;
}
static uint64_t gpu_read64(void *ctx, uint64_t pa) {
    (void)ctx;
    (void)pa;
    return 0;
}
static uint64_t dma_submit(void *ctx, uvm_dma_dir_t dir, uint64_t src, uint64_t dst, uint64_t n) {
    mark(ctx, 'M');
    (void)dir;
    (void)src;
    (void)dst;
    (void)n;
    return 1;
}
static void dma_wait(void *ctx, uint64_t h) {
    (void)ctx;
    (void)h;
}
static void cpu_delay(void *ctx, uint64_t ns) {
    (void)ctx;
    (void)ns;
}
static uint64_t now_ns(void *ctx) {
    (void)ctx;
    return 0;
}
static void dev_log(void *ctx, const char *line) {
    fake_t *f = ctx;
    snprintf(f->log, sizeof(f->log), "%s", line);
}

static void svc_launch(void *ctx) {
    mark(ctx, 'L');
}
static void svc_online(void *ctx) {
    mark(ctx, 'O');
}
static hdrv_wait_t svc_wait(void *ctx, uint64_t wake_ns) {
    fake_t *f = ctx;
    assert_true(wake_ns == UINT64_MAX); /* batch transfer sets: the handler never asks to wake */
    mark(f, 'W');
    if (f->halted)
        return HDRV_WAIT_HALTED;
    if (f->launches_left > 0) {
        f->launches_left--;
        return HDRV_WAIT_LAUNCH;
    }
    if (f->irqs_left > 0) {
        f->irqs_left--;
        return HDRV_WAIT_IRQ;
    }
    f->done = 1;
    return HDRV_WAIT_DONE;
}
static void svc_begin(void *ctx) {
    mark(ctx, 'B');
}
static void svc_end(void *ctx) {
    mark(ctx, 'E');
}
static void svc_error(void *ctx, const char *msg) {
    fake_t *f = ctx;
    mark(f, 'X');
    snprintf(f->log, sizeof(f->log), "%s", msg);
}
static int svc_halted(void *ctx) {
    return ((fake_t *)ctx)->halted;
}

/* memcpy mode: every declare adds one allocation (2 MB apart) and finds a kernel */
static int svc_declare(void *ctx) {
    fake_t *f = ctx;
    mark(f, 'D');
    char name[8], err[256];
    snprintf(name, sizeof name, "a%d", f->declares);
    const uint64_t base = 0x7f0000000000ull + 0x200000ull * (uint64_t)f->declares++;
    assert_int_equal(hdrv_add_alloc(f->h, name, base, f->alloc_pages * 4096u, 0, err, sizeof err),
                     0);
    return 1;
}
/* the second kernel is empty: the host declares the next one */
static int svc_start(void *ctx) {
    fake_t *f = ctx;
    mark(f, 'S');
    return f->declares == 2 ? 0 : 1;
}

static hdrv_t *new_host(fake_t *f) {
    memset(f, 0, sizeof(*f));
    f->id = GMMU_CSR_ID_VALUE;
    const uvm_dev_t dev = {f,           csr_read,   csr_write,  host_read, host_write,
                           gpu_write64, gpu_read64, dma_submit, dma_wait,  cpu_delay,
                           now_ns,      dev_log,    NULL,       NULL};
    const hdrv_svc_t svc = {f,       svc_launch, svc_online, svc_wait,    svc_begin,
                            svc_end, svc_error,  svc_halted, svc_declare, svc_start};
    uvm_cfg_t c;
    uvm_cfg_defaults(&c);
    c.gpu_data_base_pa = 0x100000000ull;
    c.gpu_data_pages = 64;
    c.gpu_pt_base_pa = 0x800000000ull;
    c.gpu_pt_pages = 16;
    c.fb_host_addr = 0x10000000ull;
    c.fb_entries = 64;
    char err[256];
    hdrv_t *h = hdrv_new(&c, &dev, &svc, err, sizeof(err));
    assert_non_null(h);
    f->h = h;
    f->alloc_pages = 1;
    return h;
}

static void test_phases(void **state) {
    (void)state;
    fake_t f;
    hdrv_t *h = new_host(&f);
    f.irqs_left = 2;
    char err[256];
    assert_int_equal(hdrv_run(h, err, sizeof(err)), HDRV_OK);
    assert_string_equal(f.trace, "LOWBEWBEW");
    assert_int_equal(hdrv_stats(h)->irqs, 2);
    assert_int_equal(f.csr[GMMU_CSR_FB_SIZE / 4], 64); /* the device was programmed */
    hdrv_free(h);
}

static void test_err_status_reported(void **state) {
    (void)state;
    fake_t f;
    hdrv_t *h = new_host(&f);
    f.err_at_end = GMMU_ERR_CMD_BUSY;
    char err[256];
    assert_int_equal(hdrv_run(h, err, sizeof(err)), HDRV_OK);
    assert_string_equal(f.trace, "LOWX");
    assert_non_null(strstr(f.log, "device ERR_STATUS = 0x3 (last bad CSR access: CMD)"));
    hdrv_free(h);
}

static void test_init_failure(void **state) {
    (void)state;
    fake_t f;
    hdrv_t *h = new_host(&f);
    f.id = 0x1234;
    char err[256] = "";
    assert_int_equal(hdrv_run(h, err, sizeof(err)), HDRV_INIT_FAILED);
    assert_string_equal(f.trace, "L");
    assert_true(strlen(err) > 0);
    hdrv_free(h);
}

static void test_halt_inside_a_device_call(void **state) {
    (void)state;
    fake_t f;
    hdrv_t *h = new_host(&f);
    f.halt_after_writes = 2; /* during device init */
    char err[256];
    assert_int_equal(hdrv_run(h, err, sizeof(err)), HDRV_HALTED);
    assert_string_equal(f.trace, "L");
    hdrv_free(h);
}

/* memcpy mode: the device first, then per launch declare, copy (a DMA per new allocation),
 * start; an empty kernel makes the host declare the next one; no launch callback */
static void test_memcpy_phases(void **state) {
    (void)state;
    fake_t f;
    hdrv_t *h = new_host(&f);
    char err[256];
    assert_int_equal(hdrv_set_memcpy(h, err, sizeof(err)), 0);
    f.launches_left = 1;
    assert_int_equal(hdrv_run(h, err, sizeof(err)), HDRV_OK);
    assert_string_equal(f.trace, "ODMSWDMSDMSW");
    assert_int_equal(f.csr[GMMU_CSR_FB_SIZE / 4], 64); /* programmed before the first copy */
    assert_int_equal(hdrv_stats(h)->pages_h2d, 3);
    hdrv_free(h);
}

/* memcpy mode: an allocation larger than GPU memory (64 frames) is not copied: the run fails */
static void test_memcpy_copy_fails(void **state) {
    (void)state;
    fake_t f;
    hdrv_t *h = new_host(&f);
    char err[256];
    assert_int_equal(hdrv_set_memcpy(h, err, sizeof(err)), 0);
    f.alloc_pages = 65;
    assert_int_equal(hdrv_run(h, err, sizeof(err)), HDRV_COPY_FAILED);
    assert_string_equal(f.trace, "OD");
    assert_non_null(strstr(err, "oversubscribed"));
    hdrv_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phases),        cmocka_unit_test(test_err_status_reported),
        cmocka_unit_test(test_init_failure),  cmocka_unit_test(test_halt_inside_a_device_call),
        cmocka_unit_test(test_memcpy_phases), cmocka_unit_test(test_memcpy_copy_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
