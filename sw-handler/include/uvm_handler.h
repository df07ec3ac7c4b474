/*
 * uvm_handler.h - the host-side GPU fault handler ("driver"), modeled on NVIDIA's nvidia-uvm.
 * Reaches the device only through uvm_dev_t (uvm_dev.h). Module prefix uvm_. No global state.
 */
#ifndef UVM_HANDLER_H
#define UVM_HANDLER_H

#include "uvm_dev.h"
#include <stddef.h>
#include <stdint.h>

typedef enum {
    UVM_REPLAY_BLOCK = 0, /* replay each page as soon as it is mapped (REPLAY_PAGE) */
    UVM_REPLAY_BATCH = 1, /* REPLAY_ALL after each batch */
    UVM_REPLAY_BATCH_FLUSH =
        2,              /* flush the ring (GET = PUT), then REPLAY_ALL after each batch (default) */
    UVM_REPLAY_ONCE = 3 /* one REPLAY_ALL after all batches of an interrupt */
} uvm_replay_policy_t;

typedef enum { UVM_EVICT_LRU = 0, UVM_EVICT_RANDOM = 1 } uvm_evict_policy_t;

typedef struct {
    uint32_t batch_size;          /* faults fetched per batch (256) */
    uint32_t max_batches_per_irq; /* (20) */
    uvm_replay_policy_t replay;
    uvm_evict_policy_t evict;
    uint64_t seed;             /* for random eviction */
    uint64_t gpu_data_base_pa; /* GPU frames for managed pages: [base, base + pages*4K) */
    uint64_t gpu_data_pages;
    uint64_t gpu_pt_base_pa; /* GPU frames for page-table pages */
    uint64_t gpu_pt_pages;
    uint64_t fb_host_addr; /* fault ring in host memory, 32-byte aligned */
    uint32_t fb_entries;   /* power of two */
    /* modeled host CPU time, ns */
    uint64_t t_irq_ns;   /* interrupt entry and exit */
    uint64_t t_batch_ns; /* per batch: fetch, sort, bookkeeping */
    uint64_t t_fault_ns; /* per fault entry read and coalesced */
    uint64_t t_page_ns;  /* per page serviced: frame allocation, DMA setup */
    uint64_t t_pte_ns;   /* per PTE write */
    uint64_t t_evict_ns; /* per eviction, besides its DMA and invalidate */
} uvm_cfg_t;

typedef struct {
    uint64_t irqs, fault_batches, faults_fetched, faults_duplicate, faults_stale;
    uint64_t pages_h2d, pages_d2h, bytes_h2d, bytes_d2h, evictions;
    uint64_t replays, invalidates, cancels, pte_writes, overflows;
    uint64_t pt_pages_used, data_pages_resident;
} uvm_stats_t;

typedef struct uvm_handler uvm_handler_t;

/* Sets default values (the numbers above in parentheses, BATCH_FLUSH, LRU, calibrated costs). */
void uvm_cfg_defaults(uvm_cfg_t *cfg);
uvm_handler_t *uvm_handler_new(const uvm_cfg_t *cfg, const uvm_dev_t *dev, char *err,
                               size_t errlen);
void uvm_handler_free(uvm_handler_t *h);
/* Declares a managed allocation (from the trace). Overlaps, zero size, or a range outside the
 * 48-bit VA space are errors (-1 + err naming the allocation). */
int uvm_handler_add_alloc(uvm_handler_t *h, const char *name, uint64_t base, uint64_t size,
                          int readonly, char *err, size_t errlen);
/* Programs the device: page-table root, fault ring, interrupt enables. 0 or -1 + err. */
int uvm_handler_init_device(uvm_handler_t *h, char *err, size_t errlen);
/* Services the interrupt: called by the platform while irq_o is high. Returns when done. */
void uvm_handler_service(uvm_handler_t *h);
const uvm_stats_t *uvm_handler_stats(const uvm_handler_t *h);

#endif
