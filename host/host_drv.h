/*
 * host_drv.h - the host program (module hdrv_): the fault handler (sw-handler) and what a host
 * does around it - declares the managed allocations, programs the device, services each
 * interrupt, and checks the device's error status at the end of the run.
 *
 * It is backend-independent: it reaches the device only through uvm_dev_t (CSRs, memories, DMA,
 * delays) and the platform only through hdrv_svc_t (workload and interrupt wait). The
 * co-simulation platform (cosim/plat_dev.c, plat.c) implements both; the FPGA backend beside it
 * (host/board_dev.c, board_run.c: the handler behind a UART) implements the same two tables and
 * reuses this module unchanged. It links without the simulator platform (library gmmu_host; make
 * check-board-link).
 */
#ifndef HOST_HOST_DRV_H
#define HOST_HOST_DRV_H

#include <stddef.h>
#include <stdint.h>

#include "uvm_handler.h"
#include "uvm_objects.h"

typedef enum {
    HDRV_WAIT_IRQ = 0,    /* the interrupt is pending and may be serviced now */
    HDRV_WAIT_DONE = 1,   /* the workload has finished */
    HDRV_WAIT_HALTED = 2, /* the platform stopped on an error (already reported) */
    HDRV_WAIT_LAUNCH = 3, /* memcpy mode: a kernel finished, the host launches the next one;
                             demand mode: the trace has host calls (docs/trace-format.md "Host
                             calls") before the next kernel: the host launches it (start), which
                             performs them first */
    HDRV_WAIT_WAKE = 4    /* the handler's wake-up time has come (uvm_handler_wake_ns) */
} hdrv_wait_t;

/* Platform services: what the host program needs besides the device. */
typedef struct {
    void *ctx;
    /* Starts the workload: the allocations declared before the first kernel reach the host
     * (hdrv_add_alloc), then the first kernel is launched. */
    void (*launch)(void *ctx);
    /* The device is programmed (the workload now runs against it). */
    void (*online)(void *ctx);
    /* Runs device and workload until the host has something to do: an interrupt, or wake_ns
     * (simulated ns; UINT64_MAX = never) reached - the handler's copy-completion wake-up of
     * pipelined transfer sets (docs/handler.md §6m). */
    hdrv_wait_t (*wait)(void *ctx, uint64_t wake_ns);
    /* Bracket one interrupt service (no kernel launch meanwhile). */
    void (*service_begin)(void *ctx);
    void (*service_end)(void *ctx);
    /* A host-side error found by the program (one line): reported, counted, run failed. */
    void (*error)(void *ctx, const char *msg);
    /* 1 once the platform has stopped on an error inside a device call: the program returns. */
    int (*halted)(void *ctx);
    /* memcpy mode only (hdrv_set_memcpy; NULL otherwise): launch split in two so the host copies
     * the allocations in between, as a cudaMemcpy program does. declare reads the workload up
     * to its next kernel, declaring the allocations on the way (hdrv_add_alloc): 1 a kernel is
     * ready, 0 the workload has ended, -1 the platform stopped. start launches it: 1 running,
     * 0 an empty kernel (declare the next), -1 the platform stopped. In demand mode start is
     * called after HDRV_WAIT_LAUNCH (the platform declared the kernel itself): 1 or -1. */
    int (*declare)(void *ctx);
    int (*start)(void *ctx);
} hdrv_svc_t;

typedef enum {
    HDRV_OK = 0,          /* the workload finished (errors found at the end were reported) */
    HDRV_INIT_FAILED = 1, /* the handler could not program the device (err) */
    HDRV_HALTED = 2,      /* the platform stopped on an error */
    HDRV_COPY_FAILED = 3  /* memcpy mode: an allocation could not be copied (err) */
} hdrv_status_t;

typedef struct hdrv hdrv_t;

/* NULL + err if the handler configuration is illegal or memory runs out. dev and svc are copied. */
hdrv_t *hdrv_new(const uvm_cfg_t *cfg, const uvm_dev_t *dev, const hdrv_svc_t *svc, char *err,
                 size_t errlen);
void hdrv_free(hdrv_t *h);
/* Declares a managed allocation of the workload (uvm_handler_add_alloc). 0 or -1 + err. */
int hdrv_add_alloc(hdrv_t *h, const char *name, uint64_t base, uint64_t size, int readonly,
                   char *err, size_t errlen);
/* The program frees a managed allocation (cudaFree: uvm_handler_free_alloc): its resident pages
 * are unmapped, their translations invalidated, their frames released; then compaction (CoCoA).
 * Host context only (between kernels). 0 or -1 + err. */
int hdrv_free_alloc(hdrv_t *h, const char *name, char *err, size_t errlen);
/* The same for the allocation at the extended address base (any address space). */
int hdrv_free_alloc_at(hdrv_t *h, uint64_t base, char *err, size_t errlen);
/* The program prefetches [base, base + size) to the GPU (uvm_handler_prefetch). Host context
 * only. *pages: the pages copied. 0 or -1 + err. */
int hdrv_prefetch(hdrv_t *h, uint64_t base, uint64_t size, uint64_t *pages, char *err,
                  size_t errlen);
/* The GPU-resident pages of [base, base + size) go to the host (uvm_handler_to_host). Host
 * context only. *pages: the pages moved. 0 or -1 + err. */
int hdrv_to_host(hdrv_t *h, uint64_t base, uint64_t size, uint64_t *pages, char *err,
                 size_t errlen);
/* A CPU write of [base, base + size) (uvm_handler_cpu_write: read duplicates collapse; a CPU
 * event). */
int hdrv_cpu_write(hdrv_t *h, uint64_t base, uint64_t size, uint64_t *pages, char *err,
                   size_t errlen);
/* Before a kernel launch: the objects it uses, placed by the object policy (uvm_handler_objects,
 * docs/handler.md §6s). Host context only. 0 or -1 + err. */
int hdrv_objects(hdrv_t *h, const uvm_obj_use_t *use, size_t n, char *err, size_t errlen);
/* cudaMemAdvise (uvm_handler_advise; advice: the trace's code, uvm_advice_t). */
int hdrv_advise(hdrv_t *h, uint64_t base, uint64_t size, unsigned advice, char *err, size_t errlen);
/* The CPU touches [base, base + size): its GPU-resident pages go to the host as CPU faults
 * (uvm_handler_cpu_fault). Host context only. *pages: the pages moved. 0 or -1 + err. */
int hdrv_cpu_fault(hdrv_t *h, uint64_t base, uint64_t size, uint64_t *pages, char *err,
                   size_t errlen);
/* The oracle prefetcher's page order (uvm_handler_set_page_order). 0 or -1 + err. */
int hdrv_set_page_order(hdrv_t *h, const uint64_t *vpns, size_t n, char *err, size_t errlen);
/* optimal eviction's uses of the pages ahead (uvm_handler_set_page_uses). 0 or -1 + err. */
int hdrv_set_page_uses(hdrv_t *h, const uint64_t *vpns, size_t n, char *err, size_t errlen);
/* Subscribes fn(ctx, event) to the handler's events of mask (uvm_handler_subscribe). 0 or -1. */
int hdrv_subscribe(hdrv_t *h, uint32_t mask, uvm_event_fn_t fn, void *ctx);
/* The access oracle of an lru_oracle eviction (uvm_handler_note_access). */
void hdrv_note_access(hdrv_t *h, uint64_t frame_pa, uint64_t now_ns);
/* count_unused: resident pages never used since their migration (uvm_handler_unused_resident). */
void hdrv_unused_resident(const hdrv_t *h, uint64_t *prefetched, uint64_t *all);
/* memcpy mode (run_mode = memcpy): before each kernel launch, every allocation declared since
 * the previous one is copied to GPU memory and mapped (uvm_handler_populate), so the kernel
 * takes no far-fault. Needs the declare and start services. 0, or -1 + err if they are missing. */
int hdrv_set_memcpy(hdrv_t *h, char *err, size_t errlen);
/* The whole run: launch, program the device, service interrupts until the workload is done,
 * check ERR_STATUS. In memcpy mode: program the device, then per kernel declare, copy, start. */
hdrv_status_t hdrv_run(hdrv_t *h, char *err, size_t errlen);
const uvm_stats_t *hdrv_stats(const hdrv_t *h);
/* The value hdrv_run writes to FAULT_CTRL after the handler has programmed the device (before
 * the first kernel runs); 0 (replayable faults, the reset value) writes nothing. */
void hdrv_set_fault_ctrl(hdrv_t *h, uint32_t value);
/* Name of a CSR address from the generated CSR table ("FB_GET"), or "0x123" written into buf. */
const char *hdrv_csr_name(uint32_t addr, char *buf, size_t len);

#endif
