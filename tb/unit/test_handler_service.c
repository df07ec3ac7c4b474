/*
 * test_handler_service.c - cmocka tests of the host fault handler (sw-handler/) against a FAKE
 * device: a CSR register file that records every access and models CMD_STATUS.BUSY, a host
 * memory buffer holding the fault ring, GPU memory for the page-table pool, a DMA engine that
 * records transfers and a simulated clock advanced by cpu_delay and dma_wait.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gmmu_consts.h"
#include "uvm_handler.h"

/* ------------------------------------------------------------------------------------------ */
/* the fake device                                                                             */

#define HOST_BASE UINT64_C(0x10000000)
#define HOST_BYTES (64u * 1024u)
#define PT_BASE UINT64_C(0x100000000)
#define PT_MAX_PAGES 64u
#define DATA_BASE UINT64_C(0x200000000)
#define DMA_NS UINT64_C(2270) /* ~1 us latency + 4 KB at 3.22 GB/s */
#define PAGE UINT64_C(4096)
#define ALLOC_BASE UINT64_C(0x7f0000000000)
#define VPN0 (ALLOC_BASE >> 12)
#define PTE_V_BIT (UINT64_C(1) << GMMU_PTE_V)
#define PTE_W_BIT (UINT64_C(1) << GMMU_PTE_W)
#define PPN_MASK UINT64_C(0x0000FFFFFFFFF000)

typedef enum { EV_CSR_R, EV_CSR_W, EV_GPU_W, EV_DMA_SUB, EV_DMA_WAIT, EV_LOG } ev_kind_t;

typedef struct {
    ev_kind_t k;
    uint64_t a, b; /* CSR: addr, value; GPU_W: pa, value; DMA_SUB/WAIT: handle, - */
} ev_t;

typedef struct {
    uvm_dma_dir_t dir;
    uint64_t src, dst, bytes;
    size_t ev_submit, ev_wait; /* event indices (ev_wait == SIZE_MAX until waited) */
} dma_t;

typedef struct {
    uint32_t op;
    uint64_t arg;
    size_t ev; /* event index of the CMD write */
} cmd_t;

typedef struct {
    uint32_t csr[0x100 / 4];
    uint32_t put, get, fb_size;
    int overflow;
    uint32_t err_status, id;
    uint32_t busy_left, busy_per_cmd;
    int idle_seen; /* a CMD_STATUS read returned !BUSY since the last CMD write */
    int cmd_while_busy, cmd_without_poll, gpu_oob, host_oob, dma_bad;
    uint8_t host[HOST_BYTES];
    uint64_t gpu[PT_MAX_PAGES * 512];
    uint64_t now;
    ev_t *ev;
    size_t nev, evcap;
    dma_t dma[8192];
    size_t ndma;
    cmd_t cmd[8192];
    size_t ncmd;
    char logs[32][256];
    size_t nlogs;
    /* page contents as version tags: host copy per page of ALLOC_BASE.., GPU copy per frame */
    uint64_t host_tag[2048];
    uint64_t frame_tag[64];
} fake_t;

static void ev_add(fake_t *f, ev_kind_t k, uint64_t a, uint64_t b) {
    if (f->nev == f->evcap) {
        f->evcap = f->evcap ? 2 * f->evcap : 1024;
        f->ev = realloc(f->ev, f->evcap * sizeof *f->ev);
        assert_non_null(f->ev);
    }
    f->ev[f->nev++] = (ev_t){k, a, b};
}

static uint32_t fk_csr_read(void *ctx, uint32_t addr) {
    fake_t *f = ctx;
    uint32_t v;
    switch (addr) {
    case GMMU_CSR_ID:
        v = f->id;
        break;
    case GMMU_CSR_FB_PUT:
        v = f->put;
        break;
    case GMMU_CSR_FB_GET:
        v = f->get;
        break;
    case GMMU_CSR_FB_SIZE:
        v = f->fb_size;
        break;
    case GMMU_CSR_FB_STATUS:
        v = f->overflow ? 1u : 0u;
        break;
    case GMMU_CSR_ERR_STATUS:
        v = f->err_status;
        break;
    case GMMU_CSR_CMD_STATUS:
        if (f->busy_left > 0) {
            f->busy_left--;
            v = 1;
        } else {
            f->idle_seen = 1;
            v = 0;
        }
        break;
    case GMMU_CSR_CMD:
        v = 0;
        break;
    default:
        v = f->csr[(addr / 4) % (sizeof f->csr / 4)];
    }
    ev_add(f, EV_CSR_R, addr, v);
    return v;
}

static void fk_csr_write(void *ctx, uint32_t addr, uint32_t value) {
    fake_t *f = ctx;
    ev_add(f, EV_CSR_W, addr, value);
    switch (addr) {
    case GMMU_CSR_FB_SIZE:
        f->fb_size = value;
        f->put = f->get = 0;
        f->overflow = 0;
        break;
    case GMMU_CSR_FB_GET:
        f->get = value;
        break;
    case GMMU_CSR_FB_STATUS:
        if (value & 1u)
            f->overflow = 0;
        break;
    case GMMU_CSR_ERR_STATUS:
        f->err_status &= ~value;
        break;
    case GMMU_CSR_CMD:
        if (f->busy_left > 0) {
            f->cmd_while_busy++;
            f->err_status |= 1u << GMMU_ERR_CMD_BUSY;
            break;
        }
        if (!f->idle_seen)
            f->cmd_without_poll++;
        f->idle_seen = 0;
        f->busy_left = f->busy_per_cmd;
        assert_true(f->ncmd < 8192);
        f->cmd[f->ncmd++] = (cmd_t){value,
                                    ((uint64_t)f->csr[GMMU_CSR_CMD_ARG_HI / 4] << 32) |
                                        f->csr[GMMU_CSR_CMD_ARG_LO / 4],
                                    f->nev - 1};
        break;
    default:
        f->csr[(addr / 4) % (sizeof f->csr / 4)] = value;
    }
}

static uint8_t *host_ptr(fake_t *f, uint64_t addr, size_t len) {
    if (addr < HOST_BASE || addr + len > HOST_BASE + HOST_BYTES) {
        f->host_oob++;
        return NULL;
    }
    return &f->host[addr - HOST_BASE];
}

static void fk_host_read(void *ctx, uint64_t addr, void *buf, size_t len) {
    const uint8_t *p = host_ptr(ctx, addr, len);
    if (p)
        memcpy(buf, p, len);
    else
        memset(buf, 0, len);
}

static void fk_host_write(void *ctx, uint64_t addr, const void *buf, size_t len) {
    uint8_t *p = host_ptr(ctx, addr, len);
    if (p)
        memcpy(p, buf, len);
}

static uint64_t *gpu_word(fake_t *f, uint64_t pa) {
    if (pa < PT_BASE || pa >= PT_BASE + PT_MAX_PAGES * PAGE || (pa & 7u) != 0) {
        f->gpu_oob++;
        return NULL;
    }
    return &f->gpu[(pa - PT_BASE) / 8];
}

static void fk_gpu_write64(void *ctx, uint64_t pa, uint64_t value) {
    fake_t *f = ctx;
    ev_add(f, EV_GPU_W, pa, value);
    uint64_t *w = gpu_word(f, pa);
    if (w)
        *w = value;
}

static uint64_t fk_gpu_read64(void *ctx, uint64_t pa) {
    uint64_t *w = gpu_word(ctx, pa);
    return w ? *w : 0;
}

static uint64_t fk_dma_submit(void *ctx, uvm_dma_dir_t dir, uint64_t src, uint64_t dst,
                              uint64_t bytes) {
    fake_t *f = ctx;
    assert_true(f->ndma < 8192);
    const uint64_t h = f->ndma + 100; /* handles are opaque: not indices */
    if (bytes != PAGE) {
        f->dma_bad++;
    } else if (dir == UVM_DMA_H2D && src >= ALLOC_BASE && src < ALLOC_BASE + 2048 * PAGE &&
               dst >= DATA_BASE && dst < DATA_BASE + 64 * PAGE) {
        f->frame_tag[(dst - DATA_BASE) / PAGE] = f->host_tag[(src - ALLOC_BASE) / PAGE];
    } else if (dir == UVM_DMA_D2H && dst >= ALLOC_BASE && dst < ALLOC_BASE + 2048 * PAGE &&
               src >= DATA_BASE && src < DATA_BASE + 64 * PAGE) {
        f->host_tag[(dst - ALLOC_BASE) / PAGE] = f->frame_tag[(src - DATA_BASE) / PAGE];
    }
    ev_add(f, EV_DMA_SUB, h, 0);
    f->dma[f->ndma++] = (dma_t){dir, src, dst, bytes, f->nev - 1, SIZE_MAX};
    return h;
}

static void fk_dma_wait(void *ctx, uint64_t handle) {
    fake_t *f = ctx;
    if (handle < 100 || handle - 100 >= f->ndma || f->dma[handle - 100].ev_wait != SIZE_MAX) {
        f->dma_bad++;
        return;
    }
    ev_add(f, EV_DMA_WAIT, handle, 0);
    f->dma[handle - 100].ev_wait = f->nev - 1;
    f->now += DMA_NS;
}

static void fk_cpu_delay(void *ctx, uint64_t ns) {
    ((fake_t *)ctx)->now += ns;
}
static uint64_t fk_now(void *ctx) {
    return ((fake_t *)ctx)->now;
}

static void fk_log(void *ctx, const char *line) {
    fake_t *f = ctx;
    ev_add(f, EV_LOG, f->nlogs, 0);
    if (getenv("TEST_HANDLER_VERBOSE"))
        fprintf(stderr, "  log: %s\n", line);
    if (f->nlogs < 32)
        snprintf(f->logs[f->nlogs++], sizeof f->logs[0], "%s", line);
}

/* Posts a fault entry at PUT (as the GMMU's fault-buffer writer does) and advances PUT. */
static void fk_post_raw(fake_t *f, uint64_t vpn, uint32_t access, uint32_t type, uint32_t sm,
                        int valid) {
    uint32_t w[8] = {0};
    w[GMMU_FB_W2_VPN_LO] = (uint32_t)vpn;
    w[GMMU_FB_W3_VPN_HI] = (uint32_t)(vpn >> 32);
    w[GMMU_FB_W4_TS_LO] = (uint32_t)f->now;
    w[GMMU_FB_W5_TS_HI] = (uint32_t)(f->now >> 32);
    w[GMMU_FB_W6_SM_MASK] = 1u << sm;
    w[GMMU_FB_W7_FLAGS] = (type << GMMU_FB_F_FAULT_TYPE_LSB) | (1u << GMMU_FB_F_REPLAYABLE) |
                          (sm << GMMU_FB_F_CLIENT_LSB) | (access << GMMU_FB_F_ACCESS_LSB) |
                          ((valid ? 1u : 0u) << GMMU_FB_F_VALID);
    const uint64_t base =
        ((uint64_t)f->csr[GMMU_CSR_FB_BASE_HI / 4] << 32) | f->csr[GMMU_CSR_FB_BASE_LO / 4];
    assert_true(f->fb_size > 0);
    assert_int_not_equal((f->put + 1) & (f->fb_size - 1), f->get); /* ring not full */
    fk_host_write(f, base + 32u * f->put, w, sizeof w);            /* little-endian host */
    f->now += 10;
    f->put = (f->put + 1) & (f->fb_size - 1);
}

static void fk_post(fake_t *f, uint64_t vpn, uint32_t access) {
    fk_post_raw(f, vpn, access, GMMU_FT_PTE, 0, 1);
}

static uint32_t ring_flags(fake_t *f, uint32_t idx) {
    uint32_t w7;
    fk_host_read(f, HOST_BASE + 32u * idx + 4u * GMMU_FB_W7_FLAGS, &w7, 4);
    return w7;
}

/* Walks the fake GPU page table as the GMMU walker does (microarch §6). Returns the leaf PTE
 * (0 if a level is invalid) and its address in *leaf_pa (0 if the walk stopped early). */
static uint64_t walk(fake_t *f, uint64_t vpn, uint64_t *leaf_pa) {
    uint64_t table = PT_BASE;
    if (leaf_pa)
        *leaf_pa = 0;
    for (unsigned l = 0; l < 3; l++) {
        const uint64_t idx = (vpn >> (36 - 9 * (l + 1))) & 511u;
        const uint64_t e = fk_gpu_read64(f, table + 8 * idx);
        if (!(e & PTE_V_BIT))
            return 0;
        table = e & PPN_MASK;
    }
    const uint64_t pa = table + 8 * (vpn & 511u);
    if (leaf_pa)
        *leaf_pa = pa;
    return fk_gpu_read64(f, pa);
}

/* index of the first event at or after `from` matching kind/a (and b if use_b), or SIZE_MAX */
static size_t ev_find(const fake_t *f, size_t from, ev_kind_t k, uint64_t a, int use_b,
                      uint64_t b) {
    for (size_t i = from; i < f->nev; i++)
        if (f->ev[i].k == k && f->ev[i].a == a && (!use_b || f->ev[i].b == b))
            return i;
    return SIZE_MAX;
}

static size_t count_cmds(const fake_t *f, uint32_t op) {
    size_t n = 0;
    for (size_t i = 0; i < f->ncmd; i++)
        n += f->cmd[i].op == op;
    return n;
}

static int any_log_contains(const fake_t *f, const char *s) {
    for (size_t i = 0; i < f->nlogs; i++)
        if (strstr(f->logs[i], s))
            return 1;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* fixture                                                                                     */

typedef struct {
    fake_t fk;
    uvm_dev_t dev;
    uvm_cfg_t cfg;
    uvm_handler_t *h;
    char err[256];
} fx_t;

static fx_t *fx_new(void) {
    fx_t *x = calloc(1, sizeof *x);
    assert_non_null(x);
    x->fk.id = GMMU_CSR_ID_VALUE;
    x->fk.busy_per_cmd = 2;
    x->dev = (uvm_dev_t){&x->fk,        fk_csr_read,    fk_csr_write,  fk_host_read,
                         fk_host_write, fk_gpu_write64, fk_gpu_read64, fk_dma_submit,
                         fk_dma_wait,   fk_cpu_delay,   fk_now,        fk_log};
    uvm_cfg_defaults(&x->cfg);
    x->cfg.gpu_pt_base_pa = PT_BASE;
    x->cfg.gpu_pt_pages = 16;
    x->cfg.gpu_data_base_pa = DATA_BASE;
    x->cfg.gpu_data_pages = 64;
    x->cfg.fb_host_addr = HOST_BASE;
    x->cfg.fb_entries = 16;
    return x;
}

/* creates the handler, one writable allocation "a" (1 MB at ALLOC_BASE), initializes */
static void fx_start(fx_t *x) {
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "a", ALLOC_BASE, 0x100000, 0, x->err, sizeof x->err), 0);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    x->fk.nev = 0; /* forget the initialization traffic */
}

static void fx_done(fx_t *x) {
    /* protocol invariants every test must keep */
    assert_int_equal(x->fk.cmd_while_busy, 0);
    assert_int_equal(x->fk.cmd_without_poll, 0);
    assert_int_equal(x->fk.gpu_oob, 0);
    assert_int_equal(x->fk.host_oob, 0);
    assert_int_equal(x->fk.dma_bad, 0);
    assert_int_equal(x->fk.err_status, 0);
    for (size_t i = 0; i < x->fk.ndma; i++)
        assert_int_not_equal(x->fk.dma[i].ev_wait, SIZE_MAX); /* every DMA was waited for */
    uvm_handler_free(x->h);
    free(x->fk.ev);
    free(x);
}

static const uvm_stats_t *st(const fx_t *x) {
    return uvm_handler_stats(x->h);
}

/* ------------------------------------------------------------------------------------------ */
/* configuration, allocations, initialization                                                  */

static void test_cfg_defaults(void **state) {
    (void)state;
    uvm_cfg_t c;
    memset(&c, 0xA5, sizeof c);
    uvm_cfg_defaults(&c);
    assert_int_equal(c.batch_size, 256);
    assert_int_equal(c.max_batches_per_irq, 20);
    assert_int_equal(c.replay, UVM_REPLAY_BATCH_FLUSH);
    assert_int_equal(c.evict, UVM_EVICT_LRU);
    assert_int_equal(c.t_irq_ns, 4000);
    assert_int_equal(c.t_batch_ns, 8600);
    assert_int_equal(c.t_fault_ns, 500);
    assert_int_equal(c.t_page_ns, 3000);
    assert_int_equal(c.t_pte_ns, 250);
    assert_int_equal(c.t_evict_ns, 2000);
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

/* ------------------------------------------------------------------------------------------ */
/* servicing                                                                                   */

static void test_batch_coalesce_sort_dma_pte(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fx_start(x);
    fake_t *f = &x->fk;
    fk_post(f, VPN0 + 5, GMMU_AT_READ);
    fk_post(f, VPN0 + 3, GMMU_AT_READ);
    fk_post(f, VPN0 + 5, GMMU_AT_WRITE);
    fk_post(f, VPN0 + 4, GMMU_AT_PREFETCH);
    fk_post(f, VPN0 + 3, GMMU_AT_READ);
    uvm_handler_service(x->h);

    const uvm_stats_t *s = st(x);
    assert_int_equal(s->irqs, 1);
    assert_int_equal(s->fault_batches, 1);
    assert_int_equal(s->faults_fetched, 5);
    assert_int_equal(s->faults_duplicate, 2);
    assert_int_equal(s->pages_h2d, 3);
    assert_int_equal(s->bytes_h2d, 3 * PAGE);
    assert_int_equal(s->data_pages_resident, 3);
    assert_int_equal(s->pt_pages_used, 4);
    assert_int_equal(s->pte_writes, 3 + 3); /* 3 parents on the new chain + 3 leaves */

    /* one H2D per distinct page, sorted by VPN, all submitted before the first wait */
    assert_int_equal(f->ndma, 3);
    size_t first_wait = SIZE_MAX;
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(f->dma[i].dir, UVM_DMA_H2D);
        assert_int_equal(f->dma[i].src, (VPN0 + 3 + i) << 12);
        assert_int_equal(f->dma[i].dst, DATA_BASE + i * PAGE);
        assert_int_equal(f->dma[i].bytes, PAGE);
        if (f->dma[i].ev_wait < first_wait)
            first_wait = f->dma[i].ev_wait;
    }
    for (size_t i = 0; i < 3; i++)
        assert_true(f->dma[i].ev_submit < first_wait);

    /* the PTE chain: each leaf maps the frame, W since "a" is writable */
    for (uint64_t i = 0; i < 3; i++) {
        uint64_t leaf_pa;
        const uint64_t leaf = walk(f, VPN0 + 3 + i, &leaf_pa);
        assert_int_equal(leaf, (DATA_BASE + i * PAGE) | PTE_V_BIT | PTE_W_BIT);
        /* the leaf is written only after the page's DMA completed */
        const size_t lw = ev_find(f, 0, EV_GPU_W, leaf_pa, 1, leaf);
        assert_true(lw != SIZE_MAX && lw > f->dma[i].ev_wait);
    }
    /* each intermediate table was zeroed before its parent entry pointed at it */
    uint64_t leaf_pa;
    walk(f, VPN0 + 3, &leaf_pa);
    const uint64_t l3_table = leaf_pa & PPN_MASK;
    const size_t zeroed = ev_find(f, 0, EV_GPU_W, l3_table + 8 * 511, 1, 0);
    size_t parent = SIZE_MAX;
    for (size_t i = 0; i < f->nev; i++)
        if (f->ev[i].k == EV_GPU_W && f->ev[i].b == (l3_table | PTE_V_BIT)) {
            parent = i;
            break;
        }
    assert_true(zeroed != SIZE_MAX && parent != SIZE_MAX && zeroed < parent);

    /* ring consumed: VALID cleared, GET advanced and written */
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(ring_flags(f, i) >> GMMU_FB_F_VALID, 0);
    assert_int_equal(f->get, 5);
    /* default BATCH_FLUSH: one REPLAY_ALL */
    assert_int_equal(f->ncmd, 1);
    assert_int_equal(f->cmd[0].op, GMMU_CMD_REPLAY_ALL);
    fx_done(x);
}

static void test_cost_model_unloaded_fault(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fx_start(x);
    fake_t *f = &x->fk;
    fk_post(f, VPN0, GMMU_AT_READ);
    const uint64_t t0 = f->now;
    uvm_handler_service(x->h);
    /* irq + batch + 1 fault + 1 page + DMA + 4 PTE writes (3 new tables + leaf) */
    const uint64_t expect = 4000 + 8600 + 500 + 3000 + DMA_NS + 4 * 250;
    assert_int_equal(f->now - t0, expect);
    /* a warm second fault in the same 2 MB block costs one PTE write only */
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    const uint64_t t1 = f->now;
    uvm_handler_service(x->h);
    assert_int_equal(f->now - t1, 4000 + 8600 + 500 + 3000 + DMA_NS + 250);
    fx_done(x);
}

static void post_four(fake_t *f) {
    fk_post(f, VPN0 + 9, GMMU_AT_READ);
    fk_post(f, VPN0 + 2, GMMU_AT_WRITE);
    fk_post(f, VPN0 + 7, GMMU_AT_READ);
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
}

static void test_replay_block(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.replay = UVM_REPLAY_BLOCK;
    fx_start(x);
    fake_t *f = &x->fk;
    post_four(f);
    uvm_handler_service(x->h);
    const uint64_t order[4] = {VPN0 + 1, VPN0 + 2, VPN0 + 7, VPN0 + 9};
    assert_int_equal(f->ncmd, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(f->cmd[i].op, GMMU_CMD_REPLAY_PAGE);
        assert_int_equal(f->cmd[i].arg, order[i]);
        uint64_t leaf_pa;
        const uint64_t leaf = walk(f, order[i], &leaf_pa);
        assert_true(leaf & PTE_V_BIT);
        /* replayed right after its own leaf PTE, before the next page's */
        const size_t lw = ev_find(f, 0, EV_GPU_W, leaf_pa, 1, leaf);
        assert_true(lw < f->cmd[i].ev);
        if (i + 1 < 4) {
            uint64_t next_pa;
            const uint64_t next = walk(f, order[i + 1], &next_pa);
            assert_true(f->cmd[i].ev < ev_find(f, 0, EV_GPU_W, next_pa, 1, next));
        }
    }
    assert_int_equal(st(x)->replays, 4);
    /* a stale fault of a resident page is replayed too (frees its far-fault MSHR) */
    fk_post(f, VPN0 + 2, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(f->ncmd, 5);
    assert_int_equal(f->cmd[4].op, GMMU_CMD_REPLAY_PAGE);
    assert_int_equal(f->cmd[4].arg, VPN0 + 2);
    assert_int_equal(st(x)->faults_stale, 1);
    assert_int_equal(st(x)->pages_h2d, 4);
    fx_done(x);
}

static void test_replay_batch(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.replay = UVM_REPLAY_BATCH;
    x->cfg.batch_size = 2;
    fx_start(x);
    fake_t *f = &x->fk;
    post_four(f);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->fault_batches, 2);
    assert_int_equal(st(x)->faults_fetched, 4);
    assert_int_equal(st(x)->pages_h2d, 4);
    assert_int_equal(f->ncmd, 2);
    assert_int_equal(f->cmd[0].op, GMMU_CMD_REPLAY_ALL);
    assert_int_equal(f->cmd[1].op, GMMU_CMD_REPLAY_ALL);
    /* first batch = entries 0,1 (VPN0+9, VPN0+2): replayed before the second batch's DMAs */
    assert_int_equal(f->dma[0].src, (VPN0 + 2) << 12);
    assert_int_equal(f->dma[1].src, (VPN0 + 9) << 12);
    assert_true(f->dma[1].ev_wait < f->cmd[0].ev);
    assert_true(f->cmd[0].ev < f->dma[2].ev_submit);
    assert_int_equal(f->get, 4);
    fx_done(x);
}

static void test_replay_batch_flush(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.batch_size = 2; /* default policy: BATCH_FLUSH */
    fx_start(x);
    fake_t *f = &x->fk;
    post_four(f);
    uvm_handler_service(x->h);
    /* one batch of 2; the other 2 entries are flushed (they come back after the replay) */
    assert_int_equal(st(x)->fault_batches, 1);
    assert_int_equal(st(x)->faults_fetched, 2);
    assert_int_equal(st(x)->pages_h2d, 2);
    for (uint32_t i = 0; i < 4; i++)
        assert_int_equal(ring_flags(f, i) >> GMMU_FB_F_VALID, 0);
    assert_int_equal(f->get, 4);
    assert_int_equal(f->ncmd, 1);
    assert_int_equal(f->cmd[0].op, GMMU_CMD_REPLAY_ALL);
    /* GET=2 after the fetch, then a fresh PUT read, GET=4, then REPLAY_ALL */
    const size_t g2 = ev_find(f, 0, EV_CSR_W, GMMU_CSR_FB_GET, 1, 2);
    const size_t put = ev_find(f, g2, EV_CSR_R, GMMU_CSR_FB_PUT, 0, 0);
    const size_t g4 = ev_find(f, put, EV_CSR_W, GMMU_CSR_FB_GET, 1, 4);
    assert_true(g2 != SIZE_MAX && put != SIZE_MAX && g4 != SIZE_MAX);
    assert_true(g4 < f->cmd[0].ev);
    /* flushed pages were not migrated */
    assert_int_equal(walk(f, VPN0 + 7, NULL), 0);
    assert_int_not_equal(walk(f, VPN0 + 9, NULL), 0);
    fx_done(x);
}

static void test_replay_once(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.replay = UVM_REPLAY_ONCE;
    x->cfg.batch_size = 2;
    fx_start(x);
    fake_t *f = &x->fk;
    post_four(f);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->fault_batches, 2);
    assert_int_equal(st(x)->pages_h2d, 4);
    assert_int_equal(f->ncmd, 1);
    assert_int_equal(f->cmd[0].op, GMMU_CMD_REPLAY_ALL);
    for (size_t i = 0; i < f->ndma; i++)
        assert_true(f->dma[i].ev_wait < f->cmd[0].ev);
    /* nothing serviced: no replay */
    uvm_handler_service(x->h);
    assert_int_equal(f->ncmd, 1);
    fx_done(x);
}

static void test_max_batches_per_irq(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.replay = UVM_REPLAY_BATCH;
    x->cfg.batch_size = 2;
    x->cfg.max_batches_per_irq = 1;
    fx_start(x);
    fake_t *f = &x->fk;
    for (uint64_t i = 0; i < 6; i++)
        fk_post(f, VPN0 + i, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->faults_fetched, 2);
    assert_int_equal(f->get, 2);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->faults_fetched, 4);
    assert_int_equal(f->get, 4);
    assert_int_equal(st(x)->irqs, 2);
    fx_done(x);
}

static void test_fatal_outside_allocation(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->fk.busy_per_cmd = 3;
    fx_start(x);
    fake_t *f = &x->fk;
    const uint64_t bad = VPN0 + 0x100; /* just past the 1 MB allocation */
    fk_post(f, bad, GMMU_AT_READ);
    fk_post(f, VPN0, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->cancels, 1);
    assert_int_equal(st(x)->pages_h2d, 1);
    assert_int_equal(f->ncmd, 2);
    assert_int_equal(f->cmd[0].op, GMMU_CMD_CANCEL_PAGE);
    assert_int_equal(f->cmd[0].arg, bad);
    assert_int_equal(f->cmd[1].op, GMMU_CMD_REPLAY_ALL);
    char va[32];
    snprintf(va, sizeof va, "0x%llx", (unsigned long long)(bad << 12));
    assert_true(any_log_contains(f, va));
    /* ARG_LO, ARG_HI, CMD, then CMD_STATUS polled until BUSY cleared (3 busy + 1 idle) */
    const size_t c = f->cmd[0].ev;
    assert_int_equal(f->ev[c - 2].k, EV_CSR_W);
    assert_int_equal(f->ev[c - 2].a, GMMU_CSR_CMD_ARG_LO);
    assert_int_equal(f->ev[c - 2].b, (uint32_t)bad);
    assert_int_equal(f->ev[c - 1].a, GMMU_CSR_CMD_ARG_HI);
    assert_int_equal(f->ev[c - 1].b, (uint32_t)(bad >> 32));
    for (size_t i = 1; i <= 4; i++) {
        assert_int_equal(f->ev[c + i].k, EV_CSR_R);
        assert_int_equal(f->ev[c + i].a, GMMU_CSR_CMD_STATUS);
        assert_int_equal(f->ev[c + i].b, i < 4 ? 1 : 0);
    }
    assert_int_equal(walk(f, bad, NULL), 0);
    fx_done(x);
}

static void test_fatal_write_to_readonly(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fx_start(x);
    fake_t *f = &x->fk;
    const uint64_t ro = UINT64_C(0x7f1000000000);
    assert_int_equal(uvm_handler_add_alloc(x->h, "ro", ro, 0x10000, 1, x->err, sizeof x->err), 0);
    const uint64_t v = ro >> 12;
    fk_post(f, v + 0, GMMU_AT_WRITE);
    fk_post(f, v + 0, GMMU_AT_READ); /* duplicate: the write (most intrusive) wins */
    fk_post(f, v + 1, GMMU_AT_READ);
    fk_post_raw(f, v + 2, GMMU_AT_READ, GMMU_FT_RO_VIOLATION, 1, 1);
    fk_post(f, v + 3, GMMU_AT_ATOMIC);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->cancels, 3);
    assert_int_equal(count_cmds(f, GMMU_CMD_CANCEL_PAGE), 3);
    assert_int_equal(f->cmd[0].arg, v + 0);
    assert_int_equal(f->cmd[1].arg, v + 2);
    assert_int_equal(f->cmd[2].arg, v + 3);
    assert_true(any_log_contains(f, "read-only allocation 'ro'"));
    /* the read is migrated and mapped without W */
    assert_int_equal(walk(f, v + 1, NULL), DATA_BASE | PTE_V_BIT);
    assert_int_equal(st(x)->pages_h2d, 1);
    fx_done(x);
}

static void test_ring_wraparound(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.fb_entries = 8;
    x->cfg.replay = UVM_REPLAY_BATCH;
    fx_start(x);
    fake_t *f = &x->fk;
    for (uint64_t i = 0; i < 6; i++)
        fk_post(f, VPN0 + i, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(f->get, 6);
    for (uint64_t i = 6; i < 10; i++) /* ring indices 6, 7, 0, 1 */
        fk_post(f, VPN0 + i, GMMU_AT_READ);
    assert_int_equal(f->put, 2);
    uvm_handler_service(x->h);
    assert_int_equal(f->get, 2);
    assert_int_equal(st(x)->faults_fetched, 10);
    assert_int_equal(st(x)->pages_h2d, 10);
    for (uint64_t i = 0; i < 10; i++)
        assert_int_equal(walk(f, VPN0 + i, NULL) & PPN_MASK, DATA_BASE + i * PAGE);
    for (uint32_t i = 0; i < 8; i++)
        assert_int_equal(ring_flags(f, i) >> GMMU_FB_F_VALID, 0);
    fx_done(x);
}

static void test_overflow_w1c_and_replay(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.replay = UVM_REPLAY_BLOCK;
    fx_start(x);
    fake_t *f = &x->fk;
    /* overflow alone (ring empty): W1C, then REPLAY_ALL */
    f->overflow = 1;
    uvm_handler_service(x->h);
    assert_int_equal(f->overflow, 0);
    assert_true(ev_find(f, 0, EV_CSR_W, GMMU_CSR_FB_STATUS, 1, 1) != SIZE_MAX);
    assert_int_equal(st(x)->overflows, 1);
    assert_int_equal(f->ncmd, 1);
    assert_int_equal(f->cmd[0].op, GMMU_CMD_REPLAY_ALL);
    /* overflow with faults under BLOCK: REPLAY_PAGE per page, then one REPLAY_ALL at the end */
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    fk_post(f, VPN0 + 2, GMMU_AT_READ);
    f->overflow = 1;
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->overflows, 2);
    assert_int_equal(f->ncmd, 4);
    assert_int_equal(f->cmd[1].op, GMMU_CMD_REPLAY_PAGE);
    assert_int_equal(f->cmd[2].op, GMMU_CMD_REPLAY_PAGE);
    assert_int_equal(f->cmd[3].op, GMMU_CMD_REPLAY_ALL);
    /* no overflow: no W1C write and no REPLAY_ALL */
    const size_t nev = f->nev;
    fk_post(f, VPN0 + 3, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(ev_find(f, nev, EV_CSR_W, GMMU_CSR_FB_STATUS, 0, 0), SIZE_MAX);
    assert_int_equal(f->ncmd, 5);
    assert_int_equal(f->cmd[4].op, GMMU_CMD_REPLAY_PAGE);
    fx_done(x);
}

static void test_corrupt_entries_skipped(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.replay = UVM_REPLAY_BATCH;
    fx_start(x);
    fake_t *f = &x->fk;
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    fk_post_raw(f, VPN0 + 2, GMMU_AT_READ, GMMU_FT_PTE, 0, 0);         /* VALID clear */
    fk_post_raw(f, VPN0 | (UINT64_C(1) << 40), GMMU_AT_READ, 2, 0, 1); /* VPN > 36 bits */
    fk_post(f, VPN0 + 4, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->faults_fetched, 2);
    assert_int_equal(st(x)->pages_h2d, 2);
    assert_int_equal(f->get, 4);
    assert_true(any_log_contains(f, "corrupt fault-buffer entry 1"));
    assert_true(any_log_contains(f, "corrupt fault-buffer entry 2"));
    assert_int_not_equal(walk(f, VPN0 + 1, NULL), 0);
    assert_int_equal(walk(f, VPN0 + 2, NULL), 0);
    assert_int_not_equal(walk(f, VPN0 + 4, NULL), 0);
    fx_done(x);
}

static void test_pt_pool_exhaustion_cancels(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_pt_pages = 4; /* root + one chain */
    fx_start(x);
    fake_t *f = &x->fk;
    assert_int_equal(uvm_handler_add_alloc(x->h, "far", UINT64_C(0x7f2000000000), 0x400000, 0,
                                           x->err, sizeof x->err),
                     0);
    fk_post(f, VPN0, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->pages_h2d, 1);
    assert_int_equal(st(x)->pt_pages_used, 4);
    /* "far" lies in another 2 MB block (and 1 GB region): its chain needs new tables */
    const uint64_t v = UINT64_C(0x7f2000000000) >> 12;
    fk_post(f, v + 512, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->cancels, 1);
    assert_int_equal(st(x)->pages_h2d, 1);
    assert_int_equal(st(x)->pt_pages_used, 4);
    assert_true(any_log_contains(f, "page-table pool exhausted"));
    assert_int_equal(f->cmd[f->ncmd - 2].op, GMMU_CMD_CANCEL_PAGE);
    assert_int_equal(f->cmd[f->ncmd - 2].arg, v + 512);
    fx_done(x);
}

/* ------------------------------------------------------------------------------------------ */
/* eviction                                                                                    */

static void service_one(fx_t *x, uint64_t vpn) {
    fk_post(&x->fk, vpn, GMMU_AT_READ);
    uvm_handler_service(x->h);
}

static void test_evict_lru_order_of_operations(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 2;
    fx_start(x);
    fake_t *f = &x->fk;
    const uint64_t a = VPN0 + 10, b = VPN0 + 20, c = VPN0 + 30;
    service_one(x, a);
    service_one(x, b);
    uint64_t a_leaf_pa;
    const uint64_t a_leaf = walk(f, a, &a_leaf_pa);
    const uint64_t a_frame = a_leaf & PPN_MASK;
    assert_int_equal(a_frame, DATA_BASE);
    /* A faults again (stale): LRU is by migration time, not access: A stays the oldest */
    service_one(x, a);
    assert_int_equal(st(x)->faults_stale, 1);
    const size_t ncmd0 = f->ncmd, ndma0 = f->ndma, nev0 = f->nev;
    service_one(x, c);

    const uvm_stats_t *s = st(x);
    assert_int_equal(s->evictions, 1);
    assert_int_equal(s->invalidates, 1);
    assert_int_equal(s->pages_d2h, 1);
    assert_int_equal(s->bytes_d2h, PAGE);
    assert_int_equal(s->data_pages_resident, 2);
    /* 1. leaf PTE of A cleared */
    const size_t clr = ev_find(f, nev0, EV_GPU_W, a_leaf_pa, 1, 0);
    assert_true(clr != SIZE_MAX);
    /* 2. INVAL_PAGE(A) */
    assert_int_equal(f->cmd[ncmd0].op, GMMU_CMD_INVAL_PAGE);
    assert_int_equal(f->cmd[ncmd0].arg, a);
    assert_true(clr < f->cmd[ncmd0].ev);
    /* 3. CMD_STATUS polled until idle */
    const size_t idle = ev_find(f, f->cmd[ncmd0].ev, EV_CSR_R, GMMU_CSR_CMD_STATUS, 1, 0);
    assert_true(idle != SIZE_MAX);
    /* 4. D2H of the frame to A's VA, waited */
    assert_int_equal(f->ndma, ndma0 + 2);
    const dma_t *wb = &f->dma[ndma0];
    assert_int_equal(wb->dir, UVM_DMA_D2H);
    assert_int_equal(wb->src, a_frame);
    assert_int_equal(wb->dst, a << 12);
    assert_int_equal(wb->bytes, PAGE);
    assert_true(idle < wb->ev_submit);
    /* 5. the frame is reused for C only after the write-back completed */
    const dma_t *in = &f->dma[ndma0 + 1];
    assert_int_equal(in->dir, UVM_DMA_H2D);
    assert_int_equal(in->src, c << 12);
    assert_int_equal(in->dst, a_frame);
    assert_true(wb->ev_wait < in->ev_submit);
    /* final mappings */
    assert_int_equal(walk(f, a, NULL), 0);
    assert_int_equal(walk(f, c, NULL), a_frame | PTE_V_BIT | PTE_W_BIT);
    assert_int_not_equal(walk(f, b, NULL), 0);
    /* next victim is B (now the oldest) */
    service_one(x, a);
    assert_int_equal(f->cmd[f->ncmd - 2].op, GMMU_CMD_INVAL_PAGE);
    assert_int_equal(f->cmd[f->ncmd - 2].arg, b);
    fx_done(x);
}

static void test_evict_readonly_no_writeback(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 1;
    fx_start(x);
    fake_t *f = &x->fk;
    const uint64_t ro = UINT64_C(0x7f1000000000);
    assert_int_equal(uvm_handler_add_alloc(x->h, "ro", ro, 0x10000, 1, x->err, sizeof x->err), 0);
    service_one(x, (ro >> 12) + 1);
    service_one(x, (ro >> 12) + 2);
    assert_int_equal(st(x)->evictions, 1);
    assert_int_equal(st(x)->invalidates, 1);
    assert_int_equal(st(x)->pages_d2h, 0);
    for (size_t i = 0; i < f->ndma; i++)
        assert_int_equal(f->dma[i].dir, UVM_DMA_H2D);
    /* writable page evicted by the next fault is written back */
    service_one(x, VPN0);
    service_one(x, VPN0 + 1);
    assert_int_equal(st(x)->evictions, 3);
    assert_int_equal(st(x)->pages_d2h, 1);
    fx_done(x);
}

static void test_evict_within_block_commits_first(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 2;
    fx_start(x);
    fake_t *f = &x->fk;
    fk_post(f, VPN0 + 1, GMMU_AT_READ);
    fk_post(f, VPN0 + 2, GMMU_AT_READ);
    fk_post(f, VPN0 + 3, GMMU_AT_READ);
    uvm_handler_service(x->h);
    /* pages 1 and 2 fill the frames; page 3 evicts page 1 only after 1 and 2 were mapped */
    assert_int_equal(st(x)->evictions, 1);
    assert_int_equal(f->cmd[0].op, GMMU_CMD_INVAL_PAGE);
    assert_int_equal(f->cmd[0].arg, VPN0 + 1);
    uint64_t pa1 = 0;
    walk(f, VPN0 + 3, &pa1); /* same leaf table */
    pa1 = (pa1 & PPN_MASK) + 8 * ((VPN0 + 1) & 511);
    const size_t mapped1 = ev_find(f, 0, EV_GPU_W, pa1, 1, DATA_BASE | PTE_V_BIT | PTE_W_BIT);
    assert_true(mapped1 < f->cmd[0].ev);
    assert_true(f->dma[0].ev_wait < f->cmd[0].ev && f->dma[1].ev_wait < f->cmd[0].ev);
    assert_int_equal(walk(f, VPN0 + 1, NULL), 0);
    assert_int_equal(walk(f, VPN0 + 3, NULL) & PPN_MASK, DATA_BASE);
    assert_int_equal(walk(f, VPN0 + 2, NULL) & PPN_MASK, DATA_BASE + PAGE);
    fx_done(x);
}

/* Random victims; records the INVAL_PAGE arguments of `n` single-page faults. */
static void random_run(uint64_t seed, uint64_t *victims, size_t n) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 4;
    x->cfg.evict = UVM_EVICT_RANDOM;
    x->cfg.seed = seed;
    x->cfg.fb_entries = 64;
    fx_start(x);
    for (uint64_t i = 0; i < 4 + n; i++)
        service_one(x, VPN0 + i);
    size_t k = 0;
    for (size_t i = 0; i < x->fk.ncmd; i++)
        if (x->fk.cmd[i].op == GMMU_CMD_INVAL_PAGE)
            victims[k++] = x->fk.cmd[i].arg;
    assert_int_equal(k, n);
    assert_int_equal(st(x)->evictions, n);
    fx_done(x);
}

static void test_evict_random_deterministic(void **state) {
    (void)state;
    enum { N = 24 };
    uint64_t a[N], b[N], c[N];
    random_run(7, a, N);
    random_run(7, b, N);
    random_run(8, c, N);
    assert_memory_equal(a, b, sizeof a);
    assert_memory_not_equal(a, c, sizeof a);
    /* not simply FIFO: LRU would evict VPN0+0, +1, +2, ... in order */
    int fifo = 1;
    for (size_t i = 0; i < N; i++)
        fifo = fifo && a[i] == VPN0 + i;
    assert_false(fifo);
}

static void test_evict_random_never_current_block(void **state) {
    (void)state;
    /* two old pages elsewhere + a block of three faulting pages, four frames: the third page
     * of the block must evict one of the old pages, never a page of its own block */
    for (uint64_t seed = 1; seed <= 24; seed++) {
        fx_t *x = fx_new();
        x->cfg.gpu_data_pages = 4;
        x->cfg.evict = UVM_EVICT_RANDOM;
        x->cfg.seed = seed;
        fx_start(x);
        assert_int_equal(uvm_handler_add_alloc(x->h, "b", UINT64_C(0x7f3000000000), 0x200000, 0,
                                               x->err, sizeof x->err),
                         0);
        const uint64_t old0 = VPN0, old1 = VPN0 + 1, blk = UINT64_C(0x7f3000000000) >> 12;
        service_one(x, old0);
        service_one(x, old1);
        fk_post(&x->fk, blk + 5, GMMU_AT_READ);
        fk_post(&x->fk, blk + 6, GMMU_AT_READ);
        fk_post(&x->fk, blk + 7, GMMU_AT_READ);
        uvm_handler_service(x->h);
        assert_int_equal(st(x)->evictions, 1);
        const uint64_t v = x->fk.cmd[x->fk.ncmd - 2].arg;
        assert_int_equal(x->fk.cmd[x->fk.ncmd - 2].op, GMMU_CMD_INVAL_PAGE);
        assert_true(v == old0 || v == old1);
        for (uint64_t p = 5; p <= 7; p++)
            assert_int_not_equal(walk(&x->fk, blk + p, NULL), 0);
        fx_done(x);
    }
}

/* Random fault streams (duplicates, reads and writes, several 2 MB blocks) against 8 frames:
 * after every interrupt the page table and the frames stay consistent, and no write is lost:
 * the GPU "writes" each mapped page it faulted on for write (bumping the frame's version tag),
 * eviction must carry that version back to the host copy. */
static void stress_run(uvm_evict_policy_t pol, uvm_replay_policy_t rp, uint64_t seed) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 8;
    x->cfg.evict = pol;
    x->cfg.replay = rp;
    x->cfg.seed = seed;
    x->cfg.batch_size = 16; /* one batch per interrupt: exact accounting below */
    x->cfg.fb_entries = 32;
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "big", ALLOC_BASE, 2048 * PAGE, 0, x->err, sizeof x->err), 0);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    fake_t *f = &x->fk;
    static uint64_t expect[2048];
    memset(expect, 0, sizeof expect);
    uint64_t r = seed * UINT64_C(0x9E3779B97F4A7C15) + 1;
    for (int it = 0; it < 300; it++) {
        const int n = 1 + (int)(r % 9);
        uint64_t pages[9];
        int wr[9];
        for (int k = 0; k < n; k++) {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            /* pages in 3 blocks (0, 1, 3), 24 pages each: heavy reuse and eviction */
            const uint64_t blk = (r >> 8) % 3;
            pages[k] = (blk == 2 ? 3 : blk) * 512 + (r >> 16) % 24;
            wr[k] = (int)((r >> 40) & 1);
            fk_post(f, VPN0 + pages[k], wr[k] ? GMMU_AT_WRITE : GMMU_AT_READ);
        }
        /* distinct posted pages: each is either stale (still resident when serviced: only pages
         * mapped before the interrupt qualify, as an earlier block may evict them) or migrated */
        uint64_t stale = 0, fresh = 0;
        for (int k = 0; k < n; k++) {
            int dup = 0;
            for (int j = 0; j < k; j++)
                dup |= pages[j] == pages[k];
            if (!dup)
                *(walk(f, VPN0 + pages[k], NULL) ? &stale : &fresh) += 1;
        }
        const uint64_t stale0 = st(x)->faults_stale, h2d0 = st(x)->pages_h2d;
        uvm_handler_service(x->h);
        assert_true(st(x)->faults_stale - stale0 <= stale);
        assert_int_equal(st(x)->faults_stale - stale0 + st(x)->pages_h2d - h2d0, stale + fresh);
        /* consistency: every mapped page owns a distinct frame inside the data range */
        int used[8] = {0};
        uint64_t mapped = 0;
        for (uint64_t p = 0; p < 4 * 512; p++) {
            if (p % 512 >= 24)
                continue;
            const uint64_t leaf = walk(f, VPN0 + p, NULL);
            if (!leaf)
                continue;
            const uint64_t fr = ((leaf & PPN_MASK) - DATA_BASE) / PAGE;
            assert_true(fr < 8);
            assert_int_equal(used[fr], 0);
            used[fr] = 1;
            mapped++;
            assert_int_equal(leaf & ~PPN_MASK, PTE_V_BIT | PTE_W_BIT);
            /* the frame holds the latest version of the page */
            assert_int_equal(f->frame_tag[fr], expect[p]);
        }
        assert_int_equal(mapped, st(x)->data_pages_resident);
        /* the GPU writes the pages it wrote to, if they are mapped now */
        for (int k = 0; k < n; k++) {
            const uint64_t leaf = walk(f, VPN0 + pages[k], NULL);
            if (wr[k] && leaf) {
                const uint64_t fr = ((leaf & PPN_MASK) - DATA_BASE) / PAGE;
                f->frame_tag[fr] = ++expect[pages[k]];
            }
        }
        /* every page not resident has its latest version in host memory */
        for (uint64_t p = 0; p < 4 * 512; p++)
            if (p % 512 < 24 && !walk(f, VPN0 + p, NULL))
                assert_int_equal(f->host_tag[p], expect[p]);
    }
    const uvm_stats_t *s = st(x);
    assert_true(s->evictions > 50);
    assert_int_equal(s->evictions, s->invalidates);
    assert_int_equal(s->evictions, s->pages_d2h);
    assert_int_equal(s->cancels, 0);
    fx_done(x);
}

static void test_stress_lru(void **state) {
    (void)state;
    stress_run(UVM_EVICT_LRU, UVM_REPLAY_BATCH_FLUSH, 1);
    stress_run(UVM_EVICT_LRU, UVM_REPLAY_BLOCK, 2);
}

static void test_stress_random(void **state) {
    (void)state;
    stress_run(UVM_EVICT_RANDOM, UVM_REPLAY_BATCH, 3);
    stress_run(UVM_EVICT_RANDOM, UVM_REPLAY_ONCE, 4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cfg_defaults),
        cmocka_unit_test(test_new_rejects_bad_cfg),
        cmocka_unit_test(test_alloc_validation),
        cmocka_unit_test(test_init_programs_registers),
        cmocka_unit_test(test_init_fails_on_err_status),
        cmocka_unit_test(test_init_rejects_wrong_id),
        cmocka_unit_test(test_batch_coalesce_sort_dma_pte),
        cmocka_unit_test(test_cost_model_unloaded_fault),
        cmocka_unit_test(test_replay_block),
        cmocka_unit_test(test_replay_batch),
        cmocka_unit_test(test_replay_batch_flush),
        cmocka_unit_test(test_replay_once),
        cmocka_unit_test(test_max_batches_per_irq),
        cmocka_unit_test(test_fatal_outside_allocation),
        cmocka_unit_test(test_fatal_write_to_readonly),
        cmocka_unit_test(test_ring_wraparound),
        cmocka_unit_test(test_overflow_w1c_and_replay),
        cmocka_unit_test(test_corrupt_entries_skipped),
        cmocka_unit_test(test_pt_pool_exhaustion_cancels),
        cmocka_unit_test(test_evict_lru_order_of_operations),
        cmocka_unit_test(test_evict_readonly_no_writeback),
        cmocka_unit_test(test_evict_within_block_commits_first),
        cmocka_unit_test(test_evict_random_deterministic),
        cmocka_unit_test(test_evict_random_never_current_block),
        cmocka_unit_test(test_stress_lru),
        cmocka_unit_test(test_stress_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
