/*
 * plat_dev.c - the uvm_dev_t backend of the co-simulation platform (see plat_int.h and
 * docs/cosim.md, "The host handler"): the host program's device calls advance the whole platform
 * (plat_step) without re-entering the handler. Once the platform has halted on an error, every
 * call returns at once without effect (reads return zero), so the handler returns.
 */
#include <string.h>

#include "plat_int.h"

uint32_t plat_csr_read(plat_t *p, uint32_t addr) {
    p->hd.csr_valid = 1;
    p->hd.csr_write = 0;
    p->hd.csr_addr = addr;
    p->hd.csr_wdata = 0;
    const uint64_t c = p->clocked;
    while (p->clocked == c && !p->halted)
        plat_step(p, UINT64_MAX);
    p->hd.csr_valid = 0;
    const gmmu_out_t *o = plat_outputs(p);
    if (p->halted)
        return 0;
    if (!o->csr_rvalid) {
        plat_platform_error(p, "csr_rvalid_o is 0 one cycle after a CSR read of 0x%03x", addr);
        return 0;
    }
    evr_add(&p->ring, p->now, EVR_CSR_RD, 0, 0, addr, o->csr_rdata, 0);
    if (p->score && !p->ch.running)
        plat_score_csr_read(p->score, addr, o->csr_rdata);
    return o->csr_rdata;
}

void plat_csr_write_cycle(plat_t *p, uint32_t addr, uint32_t value) {
    evr_add(&p->ring, p->now, EVR_CSR_WR, 0, 0, addr, value, 0);
    if (p->score && !p->ch.running)
        plat_score_csr_write(p->score, addr, value);
    if (!p->ch.running)
        p->hd.csr_writes++;
    p->hd.csr_valid = 1;
    p->hd.csr_write = 1;
    p->hd.csr_addr = addr;
    p->hd.csr_wdata = value;
    const uint64_t c = p->clocked;
    while (p->clocked == c && !p->halted)
        plat_step(p, UINT64_MAX);
    p->hd.csr_valid = 0;
    p->hd.csr_write = 0;
}

static uint32_t dev_csr_read(void *ctx, uint32_t addr) {
    return plat_csr_read(ctx, addr);
}

static void dev_csr_write(void *ctx, uint32_t addr, uint32_t value) {
    plat_t *p = ctx;
    if (p->halted)
        return;
    if (p->score_break == PLAT_BREAK_NOINVAL && addr == GMMU_CSR_CMD &&
        value == GMMU_CMD_INVAL_PAGE)
        value = GMMU_CMD_NOP; /* --score-break noinval: the handler's invalidates are lost */
    plat_csr_write_cycle(p, addr, value);
}

static void dev_host_read(void *ctx, uint64_t addr, void *buf, size_t len) {
    plat_t *p = ctx;
    if (!p->halted && hostmem_read(&p->hm, addr, buf, len) == 0)
        return;
    memset(buf, 0, len);
    plat_platform_error(p, "handler host_read of %zu bytes at 0x%llx: outside host memory", len,
                        (unsigned long long)addr);
}

static void dev_host_write(void *ctx, uint64_t addr, const void *buf, size_t len) {
    plat_t *p = ctx;
    if (p->halted)
        return;
    if (hostmem_write(&p->hm, addr, buf, len) != 0)
        plat_platform_error(p, "handler host_write of %zu bytes at 0x%llx: outside host memory",
                            len, (unsigned long long)addr);
}

static void dev_gpu_write64(void *ctx, uint64_t pa, uint64_t value) {
    plat_t *p = ctx;
    if (p->halted)
        return;
    evr_add(&p->ring, p->now, EVR_PTE_WR, 0, 0, 0, pa, value);
    if (p->scr.preload_done)
        value = plat_preload_root(p, pa, value);
    if (p->score_break)
        value = plat_score_break_pte(p, value);
    if (p->score)
        plat_score_pt_write(p->score, pa);
    if (gpumem_write64(&p->gm, pa, value) != 0) {
        plat_platform_error(p, "handler gpu_write64 at 0x%llx: not page-table memory",
                            (unsigned long long)pa);
        return;
    }
}

static uint64_t dev_gpu_read64(void *ctx, uint64_t pa) {
    plat_t *p = ctx;
    uint64_t v = 0;
    if (p->halted)
        return 0;
    if (gpumem_read64(&p->gm, pa, &v) != 0) {
        plat_platform_error(p, "handler gpu_read64 at 0x%llx: not page-table memory",
                            (unsigned long long)pa);
        return 0;
    }
    return v;
}

static uint64_t dev_dma_submit(void *ctx, uvm_dma_dir_t dir, uint64_t src, uint64_t dst,
                               uint64_t bytes) {
    plat_t *p = ctx;
    if (p->halted)
        return 0;
    return plat_dma_submit(p, dir, src, dst, bytes);
}

/* The handler resumes in the cycle the transfer completes (its data has landed). */
static void dev_dma_wait(void *ctx, uint64_t handle) {
    plat_t *p = ctx;
    const uint64_t done = plat_dma_done_at(p, handle);
    if (done == 0 || p->halted)
        return;
    plat_run_until(p, done);
    if (!p->halted)
        plat_dmaq_step_to(&p->dq, p->now);
}

/* When the transfer completes (ns, floor as plat_now_ns), 0 if it already has. */
static uint64_t dev_dma_done_ns(void *ctx, uint64_t handle) {
    const plat_t *p = ctx;
    const uint64_t c = plat_dma_done_at(p, handle);
    const uint64_t mhz = p->cfg->clock_mhz;
    return c == 0 ? 0 : c / mhz * 1000ull + c % mhz * 1000ull / mhz;
}

static void dev_cpu_delay(void *ctx, uint64_t ns) {
    plat_t *p = ctx;
    plat_run_until(p, p->now + pcie_ns_to_cycles((double)ns, (double)p->cfg->clock_mhz));
}

static uint64_t dev_now_ns(void *ctx) {
    return plat_now_ns((const plat_t *)ctx);
}

static void dev_log(void *ctx, const char *line) {
    plat_t *p = ctx;
    if (p->halted)
        return;
    p->hd.log_lines++;
    if (p->o.quiet && p->hd.log_lines > 3)
        return;
    if (p->hd.log_lines > 50) {
        if (p->hd.log_lines == 51)
            fprintf(stderr, "gmmu-sim: (further handler messages suppressed)\n");
        return;
    }
    plat_clear_progress(p);
    fprintf(stderr, "[cycle %llu] handler: %s\n", (unsigned long long)p->now, line);
}

static void dev_pst_read(void *ctx, uint64_t vpn, uint32_t *lines, uint32_t *count) {
    const plat_t *p = ctx;
    hostmem_pst_get(&p->hm, vpn, lines, count);
}

void plat_dev_init(plat_t *p, uvm_dev_t *dev) {
    memset(dev, 0, sizeof(*dev));
    dev->ctx = p;
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
    dev->dma_done_ns = dev_dma_done_ns;
    /* the program is instrumented only for a policy that reads the software PST (docs/handler.md
     * §6x.1); with pst_source = hw the GMMU's bitmap table is read instead, nothing is written
     * here and pst_update_cycles charges nothing (§6x.7) */
    p->pst_on = (p->cfg->remote_policy == CFG_REMOTE_STATIC_MAP ||
                 p->cfg->remote_policy == CFG_REMOTE_DYNAMAP || plat_pst_counts(p)) &&
                p->cfg->pst_source == CFG_PST_SW;
    dev->pst_read = p->pst_on ? dev_pst_read : NULL;
}

/* The handler's configuration: the keys (cfg_to_handler: spec/config.toml), then the platform's
 * layout and the handler's seed. */
void plat_handler_cfg(const plat_t *p, uvm_cfg_t *hc) {
    const cfg_t *c = p->cfg;
    cfg_to_handler(c, hc);
    hc->seed = rng_hash2(p->o.seed, 0x68646c72ull);
    hc->gpu_data_base_pa = PLAT_DATA_BASE_PA;
    hc->dynamap_pci_mbps = (uint32_t)(c->pcie_peak_gbps * 1000.0 + 0.5); /* B_PCI (§6x) */
    if (c->hbm_gbps)
        hc->dynamap_gpu_mbps = c->hbm_gbps * 1000u; /* B_G: the platform's DRAM model */
    hc->gpu_pt_base_pa = PLAT_PT_BASE_PA;
    hc->gpu_pt_pages = c->pt_pages - (p->o.npreload ? PLAT_PRELOAD_PT_PAGES : 0u);
    hc->fb_host_addr = PLAT_FB_HOST_ADDR;
    /* the notification ring exists only with the unit (docs/microarch.md §19.8) */
    hc->acc_host_addr = p->prm.acc_entries ? PLAT_ACC_HOST_ADDR : 0u;
    /* the bitmap table's window exists only with the bitmaps (docs/microarch.md §20) */
    hc->bmp_window_pages = p->prm.line_bitmap ? PLAT_BMP_WINDOW_PAGES : 0u;
}
