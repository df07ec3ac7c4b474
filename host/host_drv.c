/*
 * host_drv.c - the host program (see host_drv.h).
 */
#include "host_drv.h"

#include <stdio.h>
#include <stdlib.h>

#include "gmmu_consts.h"

static const gmmu_csr_desc_t csr_table[] = GMMU_CSR_TABLE;

const char *hdrv_csr_name(uint32_t addr, char *buf, size_t len) {
    for (unsigned i = 0; i < GMMU_CSR_COUNT; i++)
        if (csr_table[i].addr == addr)
            return csr_table[i].name;
    snprintf(buf, len, "0x%03x", addr);
    return buf;
}

struct hdrv {
    uvm_handler_t *hdl;
    uvm_dev_t dev;
    hdrv_svc_t svc;
    uint32_t fault_ctrl; /* FAULT_CTRL written at initialization (0: no write) */
    int memcpy;          /* hdrv_set_memcpy */
    uint64_t *copy;      /* memcpy mode: bases of the allocations not copied yet */
    size_t ncopy, capcopy;
};

hdrv_t *hdrv_new(const uvm_cfg_t *cfg, const uvm_dev_t *dev, const hdrv_svc_t *svc, char *err,
                 size_t errlen) {
    hdrv_t *h = calloc(1, sizeof(*h));
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    h->dev = *dev;
    h->svc = *svc;
    h->hdl = uvm_handler_new(cfg, &h->dev, err, errlen);
    if (!h->hdl) {
        free(h);
        return NULL;
    }
    return h;
}

void hdrv_free(hdrv_t *h) {
    if (!h)
        return;
    uvm_handler_free(h->hdl);
    free(h->copy);
    free(h);
}

int hdrv_add_alloc(hdrv_t *h, const char *name, uint64_t base, uint64_t size, int readonly,
                   char *err, size_t errlen) {
    if (uvm_handler_add_alloc(h->hdl, name, base, size, readonly, err, errlen) != 0)
        return -1;
    if (!h->memcpy)
        return 0;
    if (h->ncopy == h->capcopy) {
        const size_t cap = h->capcopy ? 2u * h->capcopy : 16u;
        uint64_t *c = realloc(h->copy, cap * sizeof *c);
        if (!c) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        h->copy = c;
        h->capcopy = cap;
    }
    h->copy[h->ncopy++] = base;
    return 0;
}

int hdrv_free_alloc(hdrv_t *h, const char *name, char *err, size_t errlen) {
    return uvm_handler_free_alloc(h->hdl, name, err, errlen);
}

int hdrv_free_alloc_at(hdrv_t *h, uint64_t base, char *err, size_t errlen) {
    return uvm_handler_free_alloc_at(h->hdl, base, err, errlen);
}

int hdrv_prefetch(hdrv_t *h, uint64_t base, uint64_t size, uint64_t *pages, char *err,
                  size_t errlen) {
    return uvm_handler_prefetch(h->hdl, base, size, pages, err, errlen);
}

int hdrv_to_host(hdrv_t *h, uint64_t base, uint64_t size, uint64_t *pages, char *err,
                 size_t errlen) {
    return uvm_handler_to_host(h->hdl, base, size, pages, err, errlen);
}

int hdrv_cpu_write(hdrv_t *h, uint64_t base, uint64_t size, uint64_t *pages, char *err,
                   size_t errlen) {
    return uvm_handler_cpu_write(h->hdl, base, size, pages, err, errlen);
}

int hdrv_advise(hdrv_t *h, uint64_t base, uint64_t size, unsigned advice, char *err,
                size_t errlen) {
    return uvm_handler_advise(h->hdl, base, size, (uvm_advice_t)advice, err, errlen);
}

int hdrv_objects(hdrv_t *h, const uvm_obj_use_t *use, size_t n, char *err, size_t errlen) {
    return uvm_handler_objects(h->hdl, use, n, err, errlen);
}

int hdrv_cpu_fault(hdrv_t *h, uint64_t base, uint64_t size, uint64_t *pages, char *err,
                   size_t errlen) {
    return uvm_handler_cpu_fault(h->hdl, base, size, pages, err, errlen);
}

int hdrv_set_memcpy(hdrv_t *h, char *err, size_t errlen) {
    if (!h->svc.declare || !h->svc.start) {
        snprintf(err, errlen, "run_mode = memcpy: the platform has no declare/start services");
        return -1;
    }
    h->memcpy = 1;
    return 0;
}

int hdrv_set_page_order(hdrv_t *h, const uint64_t *vpns, size_t n, char *err, size_t errlen) {
    return uvm_handler_set_page_order(h->hdl, vpns, n, err, errlen);
}

int hdrv_set_page_uses(hdrv_t *h, const uint64_t *vpns, size_t n, char *err, size_t errlen) {
    return uvm_handler_set_page_uses(h->hdl, vpns, n, err, errlen);
}

int hdrv_subscribe(hdrv_t *h, uint32_t mask, uvm_event_fn_t fn, void *ctx) {
    return uvm_handler_subscribe(h->hdl, mask, fn, ctx);
}

void hdrv_note_access(hdrv_t *h, uint64_t frame_pa, uint64_t now_ns) {
    uvm_handler_note_access(h->hdl, frame_pa, now_ns);
}

void hdrv_unused_resident(const hdrv_t *h, uint64_t *prefetched, uint64_t *all) {
    uvm_handler_unused_resident(h->hdl, prefetched, all);
}

void hdrv_set_fault_ctrl(hdrv_t *h, uint32_t value) {
    h->fault_ctrl = value;
}

const uvm_stats_t *hdrv_stats(const hdrv_t *h) {
    return uvm_handler_stats(h->hdl);
}

/* End of run: the device must have seen no illegal CSR access from the host. */
static hdrv_status_t check_err_status(hdrv_t *h) {
    const hdrv_svc_t *s = &h->svc;
    const uint32_t es = h->dev.csr_read(h->dev.ctx, GMMU_CSR_ERR_STATUS);
    if (s->halted(s->ctx))
        return HDRV_HALTED;
    if (!es)
        return HDRV_OK;
    const uint32_t ea = h->dev.csr_read(h->dev.ctx, GMMU_CSR_ERR_ADDR);
    if (s->halted(s->ctx))
        return HDRV_HALTED;
    char b[16], msg[256];
    snprintf(msg, sizeof(msg),
             "device ERR_STATUS = 0x%x (last bad CSR access: %s): the host issued an illegal CSR "
             "access",
             es, hdrv_csr_name(ea, b, sizeof(b)));
    s->error(s->ctx, msg);
    return HDRV_OK;
}

/* memcpy mode: declare the next kernel's allocations, copy every allocation not copied yet,
 * launch the kernel (the next one if it is empty). */
static hdrv_status_t copy_and_launch(hdrv_t *h, char *err, size_t errlen) {
    const hdrv_svc_t *s = &h->svc;
    for (;;) {
        const int k = s->declare(s->ctx);
        if (k < 0 || s->halted(s->ctx))
            return HDRV_HALTED;
        if (k == 0)
            return HDRV_OK; /* the workload has ended: the next wait says done */
        for (size_t i = 0; i < h->ncopy; i++) {
            uint64_t pages = 0;
            const int rc = uvm_handler_populate(h->hdl, h->copy[i], &pages, err, errlen);
            if (s->halted(s->ctx))
                return HDRV_HALTED;
            if (rc != 0)
                return HDRV_COPY_FAILED;
        }
        h->ncopy = 0;
        const int st = s->start(s->ctx);
        if (st < 0 || s->halted(s->ctx))
            return HDRV_HALTED;
        if (st > 0)
            return HDRV_OK;
    }
}

/* Programs the device and writes FAULT_CTRL. */
static hdrv_status_t init_device(hdrv_t *h, char *err, size_t errlen) {
    const hdrv_svc_t *s = &h->svc;
    const int rc = uvm_handler_init_device(h->hdl, err, errlen);
    if (s->halted(s->ctx))
        return HDRV_HALTED;
    if (rc != 0)
        return HDRV_INIT_FAILED;
    if (h->fault_ctrl) { /* fault mode (blocking); an illegal value shows in ERR_STATUS */
        h->dev.csr_write(h->dev.ctx, GMMU_CSR_FAULT_CTRL, h->fault_ctrl);
        if (s->halted(s->ctx))
            return HDRV_HALTED;
    }
    return HDRV_OK;
}

hdrv_status_t hdrv_run(hdrv_t *h, char *err, size_t errlen) {
    const hdrv_svc_t *s = &h->svc;
    hdrv_status_t st;
    if (h->memcpy) {
        /* the device first: the copies need its page tables */
        if ((st = init_device(h, err, errlen)) != HDRV_OK)
            return st;
        s->online(s->ctx);
        if ((st = copy_and_launch(h, err, errlen)) != HDRV_OK)
            return st;
    } else {
        /* allocations before the first kernel, then the device, then the first kernel runs */
        s->launch(s->ctx);
        if (s->halted(s->ctx))
            return HDRV_HALTED;
        if ((st = init_device(h, err, errlen)) != HDRV_OK)
            return st;
        s->online(s->ctx);
    }
    for (;;) {
        const hdrv_wait_t w = s->wait(s->ctx, uvm_handler_wake_ns(h->hdl));
        if (w == HDRV_WAIT_HALTED)
            return HDRV_HALTED;
        if (w == HDRV_WAIT_DONE)
            break;
        if (w == HDRV_WAIT_LAUNCH && !h->memcpy) { /* host calls, then the launch */
            if (!s->start || s->start(s->ctx) < 0 || s->halted(s->ctx))
                return HDRV_HALTED;
            continue;
        }
        if (w == HDRV_WAIT_LAUNCH) {
            if ((st = copy_and_launch(h, err, errlen)) != HDRV_OK)
                return st;
            continue;
        }
        s->service_begin(s->ctx);
        if (w == HDRV_WAIT_WAKE)
            uvm_handler_wake(h->hdl);
        else
            uvm_handler_service(h->hdl);
        s->service_end(s->ctx);
        if (s->halted(s->ctx))
            return HDRV_HALTED;
    }
    return check_err_status(h);
}
