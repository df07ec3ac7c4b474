/*
 * test_handler_fake.h - the FAKE device shared by the cmocka tests of the host fault handler
 * (tb/unit/test_handler_*.c): a CSR register file that records every access and models
 * CMD_STATUS.BUSY, a host memory buffer holding the fault ring, GPU memory for the page-table pool,
 * a DMA engine that records transfers and a simulated clock advanced by cpu_delay and dma_wait.
 */
#ifndef TEST_HANDLER_FAKE_H
#define TEST_HANDLER_FAKE_H

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
    uint64_t t_submit, t_done; /* simulated times (t_done: dma_timeline only) */
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
    uint64_t max_dma_bytes; /* largest accepted transfer (0: one 4 KB page, the default) */
    /* 0: dma_wait advances the clock by DMA_NS (the default); 1: one link, a transfer takes
     * DMA_NS per page from max(submit, link free) and dma_wait advances the clock to its end */
    int dma_timeline;
    uint64_t link_free;
    void *user; /* a test's own state behind an optional device call (e.g. uvm_dev_t.pst_read) */
    /* 1: the GMMU has no access-counter unit: 0x080..0x09C are unmapped (ERR_STATUS.BAD_ADDR) */
    int no_acc;
} fake_t;

static inline void ev_add(fake_t *f, ev_kind_t k, uint64_t a, uint64_t b) {
    if (f->nev == f->evcap) {
        f->evcap = f->evcap ? 2 * f->evcap : 1024;
        f->ev = realloc(f->ev, f->evcap * sizeof *f->ev);
        assert_non_null(f->ev);
    }
    f->ev[f->nev++] = (ev_t){k, a, b};
}

static inline uint32_t fk_csr_read(void *ctx, uint32_t addr) {
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
        if (f->no_acc && addr >= GMMU_CSR_ACC_CTRL && addr <= GMMU_CSR_ACC_STATUS) {
            f->err_status |= 1u << GMMU_CSR_ERR_STATUS_BAD_ADDR_LSB;
            v = 0;
            break;
        }
        v = f->csr[(addr / 4) % (sizeof f->csr / 4)];
    }
    ev_add(f, EV_CSR_R, addr, v);
    return v;
}

static inline void fk_csr_write(void *ctx, uint32_t addr, uint32_t value) {
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
    case GMMU_CSR_ACC_SIZE: /* the ring restarts: GET = PUT = 0, OVERFLOW cleared (§19.2) */
        f->csr[GMMU_CSR_ACC_SIZE / 4] = value;
        f->csr[GMMU_CSR_ACC_GET / 4] = f->csr[GMMU_CSR_ACC_PUT / 4] = 0;
        f->csr[GMMU_CSR_ACC_STATUS / 4] = 0;
        break;
    case GMMU_CSR_ACC_STATUS: /* OVERFLOW is W1C */
        f->csr[GMMU_CSR_ACC_STATUS / 4] &= ~value;
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

static inline uint8_t *host_ptr(fake_t *f, uint64_t addr, size_t len) {
    if (addr < HOST_BASE || addr + len > HOST_BASE + HOST_BYTES) {
        f->host_oob++;
        return NULL;
    }
    return &f->host[addr - HOST_BASE];
}

static inline void fk_host_read(void *ctx, uint64_t addr, void *buf, size_t len) {
    const uint8_t *p = host_ptr(ctx, addr, len);
    if (p)
        memcpy(buf, p, len);
    else
        memset(buf, 0, len);
}

static inline void fk_host_write(void *ctx, uint64_t addr, const void *buf, size_t len) {
    uint8_t *p = host_ptr(ctx, addr, len);
    if (p)
        memcpy(p, buf, len);
}

static inline uint64_t *gpu_word(fake_t *f, uint64_t pa) {
    if (pa < PT_BASE || pa >= PT_BASE + PT_MAX_PAGES * PAGE || (pa & 7u) != 0) {
        f->gpu_oob++;
        return NULL;
    }
    return &f->gpu[(pa - PT_BASE) / 8];
}

static inline void fk_gpu_write64(void *ctx, uint64_t pa, uint64_t value) {
    fake_t *f = ctx;
    ev_add(f, EV_GPU_W, pa, value);
    uint64_t *w = gpu_word(f, pa);
    if (w)
        *w = value;
}

static inline uint64_t fk_gpu_read64(void *ctx, uint64_t pa) {
    uint64_t *w = gpu_word(ctx, pa);
    return w ? *w : 0;
}

static inline uint64_t fk_dma_submit(void *ctx, uvm_dma_dir_t dir, uint64_t src, uint64_t dst,
                                     uint64_t bytes) {
    fake_t *f = ctx;
    assert_true(f->ndma < 8192);
    const uint64_t h = f->ndma + 100; /* handles are opaque: not indices */
    const uint64_t max = f->max_dma_bytes ? f->max_dma_bytes : PAGE;
    if (bytes == 0 || bytes % PAGE != 0 || bytes > max) {
        f->dma_bad++;
    } else if (dir == UVM_DMA_H2D && src >= ALLOC_BASE && src + bytes <= ALLOC_BASE + 2048 * PAGE &&
               dst >= DATA_BASE && dst + bytes <= DATA_BASE + 64 * PAGE) {
        for (uint64_t i = 0; i < bytes / PAGE; i++)
            f->frame_tag[(dst - DATA_BASE) / PAGE + i] = f->host_tag[(src - ALLOC_BASE) / PAGE + i];
    } else if (dir == UVM_DMA_D2H && dst >= ALLOC_BASE && dst + bytes <= ALLOC_BASE + 2048 * PAGE &&
               src >= DATA_BASE && src + bytes <= DATA_BASE + 64 * PAGE) {
        for (uint64_t i = 0; i < bytes / PAGE; i++)
            f->host_tag[(dst - ALLOC_BASE) / PAGE + i] = f->frame_tag[(src - DATA_BASE) / PAGE + i];
    }
    ev_add(f, EV_DMA_SUB, h, 0);
    const uint64_t start = f->link_free > f->now ? f->link_free : f->now;
    const uint64_t done = start + DMA_NS * (bytes / PAGE);
    if (f->dma_timeline)
        f->link_free = done;
    f->dma[f->ndma++] = (dma_t){dir, src, dst, bytes, f->nev - 1, SIZE_MAX, f->now, done};
    return h;
}

static inline void fk_dma_wait(void *ctx, uint64_t handle) {
    fake_t *f = ctx;
    if (handle < 100 || handle - 100 >= f->ndma || f->dma[handle - 100].ev_wait != SIZE_MAX) {
        f->dma_bad++;
        return;
    }
    ev_add(f, EV_DMA_WAIT, handle, 0);
    f->dma[handle - 100].ev_wait = f->nev - 1;
    if (!f->dma_timeline)
        f->now += DMA_NS;
    else if (f->dma[handle - 100].t_done > f->now)
        f->now = f->dma[handle - 100].t_done;
}

static inline void fk_cpu_delay(void *ctx, uint64_t ns) {
    ((fake_t *)ctx)->now += ns;
}
static inline uint64_t fk_now(void *ctx) {
    return ((fake_t *)ctx)->now;
}

static inline void fk_log(void *ctx, const char *line) {
    fake_t *f = ctx;
    ev_add(f, EV_LOG, f->nlogs, 0);
    if (getenv("TEST_HANDLER_VERBOSE"))
        fprintf(stderr, "  log: %s\n", line);
    if (f->nlogs < 32)
        snprintf(f->logs[f->nlogs++], sizeof f->logs[0], "%s", line);
}

/* Posts a fault entry at PUT (as the GMMU's fault-buffer writer does) and advances PUT. */
static inline void fk_post_raw(fake_t *f, uint64_t vpn, uint32_t access, uint32_t type, uint32_t sm,
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

static inline void fk_post(fake_t *f, uint64_t vpn, uint32_t access) {
    fk_post_raw(f, vpn, access, GMMU_FT_PTE, 0, 1);
}

static inline uint32_t ring_flags(fake_t *f, uint32_t idx) {
    uint32_t w7;
    fk_host_read(f, HOST_BASE + 32u * idx + 4u * GMMU_FB_W7_FLAGS, &w7, 4);
    return w7;
}

/* Walks the fake GPU page table as the GMMU walker does (microarch §6). Returns the leaf PTE
 * (0 if a level is invalid) and its address in *leaf_pa (0 if the walk stopped early). */
static inline uint64_t walk(fake_t *f, uint64_t vpn, uint64_t *leaf_pa) {
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
static inline size_t ev_find(const fake_t *f, size_t from, ev_kind_t k, uint64_t a, int use_b,
                             uint64_t b) {
    for (size_t i = from; i < f->nev; i++)
        if (f->ev[i].k == k && f->ev[i].a == a && (!use_b || f->ev[i].b == b))
            return i;
    return SIZE_MAX;
}

static inline size_t count_cmds(const fake_t *f, uint32_t op) {
    size_t n = 0;
    for (size_t i = 0; i < f->ncmd; i++)
        n += f->cmd[i].op == op;
    return n;
}

static inline int any_log_contains(const fake_t *f, const char *s) {
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

static inline fx_t *fx_new(void) {
    fx_t *x = calloc(1, sizeof *x);
    assert_non_null(x);
    x->fk.id = GMMU_CSR_ID_VALUE;
    x->fk.busy_per_cmd = 2;
    x->dev = (uvm_dev_t){&x->fk,         fk_csr_read,   fk_csr_write,  fk_host_read, fk_host_write,
                         fk_gpu_write64, fk_gpu_read64, fk_dma_submit, fk_dma_wait,  fk_cpu_delay,
                         fk_now,         fk_log,        NULL,          NULL};
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
static inline void fx_start(fx_t *x) {
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(
        uvm_handler_add_alloc(x->h, "a", ALLOC_BASE, 0x100000, 0, x->err, sizeof x->err), 0);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    x->fk.nev = 0; /* forget the initialization traffic */
}

static inline void fx_done(fx_t *x) {
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

/* sets a policy by name in a test configuration (the name must be registered) */
static inline void set_policy(uvm_cfg_t *c, uvm_policy_kind_t kind, const char *name) {
    char err[256];
    if (uvm_cfg_set_policy(c, kind, name, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static inline const uvm_stats_t *st(const fx_t *x) {
    return uvm_handler_stats(x->h);
}

/* services one fault: the SM writes vpn */
static inline void fx_service_write(fx_t *x, uint64_t vpn) {
    fk_post(&x->fk, vpn, GMMU_AT_WRITE);
    uvm_handler_service(x->h);
}

/* the victims' VPNs in eviction order, filled by fx_record_evict (an EVICT subscriber) */
typedef struct {
    uint64_t vpn[32];
    size_t n;
} fx_evicts_t;

static inline void fx_record_evict(void *ctx, const uvm_event_t *ev) {
    fx_evicts_t *l = ctx;
    assert_true(l->n < 32);
    l->vpn[l->n++] = ev->evict.vpn;
}

#endif
