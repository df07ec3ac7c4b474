/*
 * board_dev.c - uvm_dev_t over the board's UART bridge (see board_dev.h).
 */
#include "board_dev.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "gmmu_consts.h"
#include "rng.h"
#include "u64map.h"

#define PAGE 4096u

struct bdev {
    blink_t *link;
    bdev_info_t info;
    u64map_t host_tags; /* vpn -> tag of the host copy (absent: bdev_initial_tag) */
    uint64_t handles, h2d, d2h;
    uint64_t bad_h2d; /* fault injection: this H2D page (1-based) gets a wrong tag */
    int failed;
    char msg[256];
};

static void dfail(bdev_t *d, const char *fmt, ...) ERR_PRINTF(2, 3);
static void dfail(bdev_t *d, const char *fmt, ...) {
    if (d->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    err_vsetf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    d->failed = 1;
}

/* a link call's status: a failure is recorded once */
static int lk(bdev_t *d, int rc) {
    if (rc != 0)
        dfail(d, "%s", blink_error(d->link));
    return rc;
}

uint64_t bdev_initial_tag(uint64_t vpn) {
    const uint64_t t = rng_hash2(vpn ^ 0x626f617264ull, 0); /* "board" */
    return t ? t : 1;
}

bdev_t *bdev_new(blink_t *link, char *err, size_t errlen) {
    uint32_t r[4];
    if (blink_read(link, BDEV_REGS + BDEV_REG_ID, r, 4, 0) != 0) {
        err_setf(err, errlen, "board: %s", blink_error(link));
        return NULL;
    }
    if (r[0] != BDEV_ID) {
        err_setf(err, errlen,
                 "board: ID register is 0x%08x, not 0x%08x (\"GMMB\"): not a gmmu board", r[0],
                 BDEV_ID);
        return NULL;
    }
    bdev_t *d = calloc(1, sizeof(*d));
    if (!d || u64map_init(&d->host_tags, 0) != 0) {
        free(d);
        err_setf(err, errlen, "out of memory");
        return NULL;
    }
    d->link = link;
    d->info.num_sm = r[1] >> 24;
    d->info.num_ports = (r[1] >> 16) & 0xffu;
    d->info.num_ids = (r[1] >> 8) & 0xffu;
    d->info.fb_entries = 1u << (r[1] & 0x1fu);
    d->info.frames = 1u << ((r[2] >> 24) & 0x1fu);
    d->info.pt_pages = 1u << ((r[2] >> 16) & 0x1fu);
    d->info.data_base_ppn = r[2] & 0xffffu;
    d->info.clk_khz = r[3];
    return d;
}

void bdev_free(bdev_t *d) {
    if (!d)
        return;
    u64map_free(&d->host_tags);
    free(d);
}

const bdev_info_t *bdev_info(const bdev_t *d) {
    return &d->info;
}

int bdev_failed(const bdev_t *d) {
    return d->failed;
}

const char *bdev_error(const bdev_t *d) {
    return d->failed ? d->msg : "no error";
}

uint64_t bdev_host_tag(const bdev_t *d, uint64_t vpn) {
    uint64_t t = 0;
    return u64map_get(&d->host_tags, vpn, &t) ? t : bdev_initial_tag(vpn);
}

void bdev_inject_bad_h2d(bdev_t *d, uint64_t n) {
    d->bad_h2d = n;
}

void bdev_dma_counts(const bdev_t *d, uint64_t *h2d, uint64_t *d2h) {
    *h2d = d->h2d;
    *d2h = d->d2h;
}

int bdev_frame_tag(bdev_t *d, uint32_t frame, uint64_t *tag) {
    uint32_t w[2] = {0, 0};
    *tag = 0;
    if (d->failed || lk(d, blink_read(d->link, BDEV_TAGS + 8u * frame, w, 2, 0)) != 0)
        return -1;
    *tag = (uint64_t)w[1] << 32 | w[0];
    return 0;
}

static int pt_check(bdev_t *d, uint64_t pa, const char *what);

int bdev_translate(bdev_t *d, uint64_t vpn, uint64_t *ppn) {
    uint64_t table = 0; /* the root is the first PT page (the handler's gpu_pt_base_pa = 0) */
    for (uint32_t l = 0; l < GMMU_PT_LEVELS; l++) {
        const uint32_t shift = GMMU_VPN_W - GMMU_PT_IDX_W * (l + 1u);
        const uint64_t pa = table + 8u * ((vpn >> shift) & ((1u << GMMU_PT_IDX_W) - 1u));
        uint32_t w[2];
        if (d->failed || pt_check(d, pa, "page-table walk") != 0 ||
            lk(d, blink_read(d->link, BDEV_PT + (uint32_t)pa, w, 2, 0)) != 0)
            return -1;
        const uint64_t pte = (uint64_t)w[1] << 32 | w[0];
        if (!(pte >> GMMU_PTE_V & 1u))
            return 0;
        const uint64_t next = (pte >> GMMU_PTE_PPN_LSB) &
                              ((UINT64_C(1) << (GMMU_PTE_PPN_MSB - GMMU_PTE_PPN_LSB + 1)) - 1u);
        if (l == GMMU_PT_LEVELS - 1u || (pte >> GMMU_PTE_L & 1u)) {
            *ppn = next + (vpn & ((UINT64_C(1) << shift) - 1u)); /* a large leaf covers 2^shift */
            return 1;
        }
        table = next << 12;
    }
    return 0;
}

static uint32_t dev_csr_read(void *ctx, uint32_t addr) {
    bdev_t *d = ctx;
    uint32_t v = 0;
    if (d->failed || lk(d, blink_read32(d->link, BDEV_CSR + addr, &v)) != 0)
        return 0;
    return v;
}

static void dev_csr_write(void *ctx, uint32_t addr, uint32_t value) {
    bdev_t *d = ctx;
    if (!d->failed)
        (void)lk(d, blink_write(d->link, BDEV_CSR + addr, &value, 1, 0));
}

/* the fault ring: host addresses [0, fb_entries * 32), whole 32-bit words */
static int ring_check(bdev_t *d, uint64_t addr, size_t len, const char *what) {
    if (addr % 4 || len % 4 || addr + len > (uint64_t)d->info.fb_entries * GMMU_FB_ENTRY_BYTES) {
        dfail(d,
              "board: handler %s of %zu bytes at host address 0x%llx: outside the fault ring "
              "(whole words of [0, 0x%x))",
              what, len, (unsigned long long)addr, d->info.fb_entries * GMMU_FB_ENTRY_BYTES);
        return -1;
    }
    return 0;
}

static void dev_host_read(void *ctx, uint64_t addr, void *buf, size_t len) {
    bdev_t *d = ctx;
    uint32_t w[64];
    memset(buf, 0, len);
    if (d->failed || ring_check(d, addr, len, "host_read") != 0)
        return;
    for (size_t off = 0; off < len; off += sizeof w) {
        const size_t n = len - off < sizeof w ? len - off : sizeof w;
        if (lk(d, blink_read(d->link, BDEV_RING + (uint32_t)(addr + off), w, (uint32_t)(n / 4),
                             0)) != 0)
            return;
        memcpy((uint8_t *)buf + off, w, n); /* host byte order = the GMMU's little-endian words */
    }
}

static void dev_host_write(void *ctx, uint64_t addr, const void *buf, size_t len) {
    bdev_t *d = ctx;
    if (d->failed || ring_check(d, addr, len, "host_write") != 0)
        return;
    for (size_t off = 0; off < len; off += 4) {
        uint32_t v;
        memcpy(&v, (const uint8_t *)buf + off, 4);
        if (lk(d, blink_post(d->link, BDEV_RING + (uint32_t)(addr + off), v)) != 0)
            return;
    }
}

static int pt_check(bdev_t *d, uint64_t pa, const char *what) {
    if (pa % 8 || pa >= (uint64_t)d->info.pt_pages * PAGE) {
        dfail(d, "board: handler %s at PA 0x%llx: not in the board's PT memory [0, 0x%x)", what,
              (unsigned long long)pa, d->info.pt_pages * PAGE);
        return -1;
    }
    return 0;
}

static void dev_gpu_write64(void *ctx, uint64_t pa, uint64_t value) {
    bdev_t *d = ctx;
    if (d->failed || pt_check(d, pa, "gpu_write64") != 0)
        return;
    if (lk(d, blink_post(d->link, BDEV_PT + (uint32_t)pa, (uint32_t)value)) == 0)
        (void)lk(d, blink_post(d->link, BDEV_PT + (uint32_t)pa + 4, (uint32_t)(value >> 32)));
}

static uint64_t dev_gpu_read64(void *ctx, uint64_t pa) {
    bdev_t *d = ctx;
    uint32_t w[2] = {0, 0};
    if (d->failed || pt_check(d, pa, "gpu_read64") != 0 ||
        lk(d, blink_read(d->link, BDEV_PT + (uint32_t)pa, w, 2, 0)) != 0)
        return 0;
    return (uint64_t)w[1] << 32 | w[0];
}

/* frame index of a data-frame PA, or -1 (recorded) */
static int64_t frame_index(bdev_t *d, uint64_t pa) {
    const uint64_t ppn = pa / PAGE;
    if (pa % PAGE || ppn < d->info.data_base_ppn || ppn - d->info.data_base_ppn >= d->info.frames) {
        dfail(d, "board: DMA at PA 0x%llx: not a data frame of the board (PPN 0x%x + %u frames)",
              (unsigned long long)pa, d->info.data_base_ppn, d->info.frames);
        return -1;
    }
    return (int64_t)(ppn - d->info.data_base_ppn);
}

static uint64_t dev_dma_submit(void *ctx, uvm_dma_dir_t dir, uint64_t src, uint64_t dst,
                               uint64_t bytes) {
    bdev_t *d = ctx;
    if (d->failed)
        return 0;
    if (bytes == 0 || bytes % PAGE || src % PAGE || dst % PAGE) {
        dfail(d, "board: DMA of %llu bytes: not whole 4 KB pages", (unsigned long long)bytes);
        return 0;
    }
    for (uint64_t i = 0; i < bytes / PAGE; i++) {
        const uint64_t vpn = (dir == UVM_DMA_H2D ? src : dst) / PAGE + i;
        const int64_t f = frame_index(d, (dir == UVM_DMA_H2D ? dst : src) + i * PAGE);
        if (f < 0)
            return 0;
        const uint32_t a = BDEV_TAGS + 8u * (uint32_t)f;
        if (dir == UVM_DMA_H2D) {
            const uint64_t t = bdev_host_tag(d, vpn) ^ (d->h2d + 1 == d->bad_h2d ? 1u : 0u);
            if (lk(d, blink_post(d->link, a, (uint32_t)t)) != 0 ||
                lk(d, blink_post(d->link, a + 4, (uint32_t)(t >> 32))) != 0)
                return 0;
            d->h2d++;
        } else {
            uint64_t t = 0;
            if (bdev_frame_tag(d, (uint32_t)f, &t) != 0)
                return 0;
            if (u64map_put(&d->host_tags, vpn, t) != 0)
                dfail(d, "out of memory");
            d->d2h++;
        }
    }
    return ++d->handles;
}

static void dev_dma_wait(void *ctx, uint64_t handle) {
    (void)ctx; /* the transfer was done at submission */
    (void)handle;
}

static void dev_cpu_delay(void *ctx, uint64_t ns) {
    (void)ctx; /* real host time passes by itself */
    (void)ns;
}

static uint64_t dev_now_ns(void *ctx) {
    bdev_t *d = ctx;
    uint32_t w[2] = {0, 0};
    if (d->failed || lk(d, blink_read(d->link, BDEV_REGS + BDEV_REG_TIME_LO, w, 2, 0)) != 0)
        return 0;
    const uint64_t cyc = (uint64_t)w[1] << 32 | w[0];
    return d->info.clk_khz ? cyc * 1000000u / d->info.clk_khz : cyc;
}

static void dev_log(void *ctx, const char *line) {
    (void)ctx;
    fprintf(stderr, "gmmu-board: handler: %s\n", line);
}

void bdev_dev(bdev_t *d, uvm_dev_t *dev) {
    memset(dev, 0, sizeof(*dev));
    dev->ctx = d;
    dev->csr_read = dev_csr_read;
    dev->csr_write = dev_csr_write;
    dev->host_read = dev_host_read;
    dev->host_write = dev_host_write;
    dev->gpu_write64 = dev_gpu_write64;
    dev->gpu_read64 = dev_gpu_read64;
    dev->dma_submit = dev_dma_submit;
    dev->dma_wait = dev_dma_wait;
    dev->cpu_delay = dev_cpu_delay;
    dev->now_ns = dev_now_ns;
    dev->log = dev_log;
}
