/*
 * config.h - configuration files (configs/<name>.cfg): one format for the RTL build and the
 * platform (module cfg_). Format: `key = value` lines, `#` comments, every key at most once.
 * The RTL keys (gmmu_params_t) are mandatory; every other key has a default. docs/config.md
 * lists every key with its unit and default.
 */
#ifndef COSIM_CONFIG_H
#define COSIM_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gmmu_if.h"
#include "uvm_handler.h"

typedef enum { CFG_PCIE_TABLE = 0, CFG_PCIE_ATAN = 1 } cfg_pcie_model_t;
/* fault_mode: the value written to FAULT_CTRL.BLOCKING at initialization (docs/microarch.md §4.1)
 */
typedef enum { CFG_FAULT_REPLAYABLE = 0, CFG_FAULT_BLOCKING = 1 } cfg_fault_mode_t;
typedef enum { CFG_GROW_4K = 0, CFG_GROW_64K = 1 } cfg_grow_t; /* migrate_grow */
/* frame_alloc and page_size: the handler's enumerations (uvm_frame_alloc_t, uvm_page_size_t) */
/* run_mode: demand paging (every page migrated on its far-fault, the default) or the memcpy
 * baseline (every allocation copied to GPU memory and mapped before each kernel launch) */
typedef enum { CFG_RUN_DEMAND = 0, CFG_RUN_MEMCPY = 1 } cfg_run_mode_t;
typedef enum { CFG_COPY_WAIT_BLOCK = 0, CFG_COPY_WAIT_BATCH = 1 } cfg_copy_wait_t; /* copy_wait */
typedef enum { CFG_TS_BATCH = 0, CFG_TS_PIPELINED = 1 } cfg_transfer_sets_t; /* transfer_sets */

/* Handler cost keys (hdl_*_ns) left unset keep the handler's own calibrated default. */
#define CFG_HDL_DEFAULT UINT64_MAX

typedef struct {
    gmmu_params_t rtl; /* RTL keys */
    /* platform */
    uint32_t clock_mhz;
    uint32_t warps_per_sm;
    uint32_t hbm_gbps; /* GPU DRAM bandwidth shared by every SM's memory instructions; 0: off */
    uint64_t gpu_mem_pages;
    uint64_t pt_pages;
    uint32_t mem_latency;
    uint32_t mem_jitter;
    uint32_t mem_ready_pct;
    uint32_t fb_ready_pct;
    uint32_t pcie_latency_ns;
    cfg_pcie_model_t pcie_model;
    double pcie_peak_gbps;
    uint32_t copy_channels; /* DMA copy channels per direction */
    uint64_t watchdog_cycles;
    uint64_t chaos_inval;
    cfg_run_mode_t run_mode;
    /* test hook of the coalesce unit (docs/microarch.md §15, docs/cosim.md): COALESCE / SPLINTER
       of the region of co_vpn at the first host point at or after these cycles (0 = never) */
    uint64_t coalesce_at, splinter_at, co_vpn;
    /* multi-application traces (docs/trace-format.md "Address spaces"): sm_part[i] SMs run the
     * CTAs of address space i (SMs numbered in order: space 0 first); sm_parts = 0 (default):
     * every space runs on every SM (CTA c on SM c % num_sm) */
    uint32_t sm_part[GMMU_MAX_SM];
    uint32_t sm_parts;
    /* host handler */
    uint32_t fb_entries;
    uint32_t batch_size;
    uint32_t max_batches_per_irq;
    cfg_fault_mode_t fault_mode;
    /* handler policy names, checked against the handler's registry (uvm_policy_check) */
    char replay_policy[UVM_POLICY_NAME_MAX];
    char evict_policy[UVM_POLICY_NAME_MAX];
    char prefetch_policy[UVM_POLICY_NAME_MAX];
    cfg_grow_t migrate_grow;    /* a faulted page grows to 4 KB (none) or its 64 KB big page */
    uint32_t migrate_max_pages; /* pages per H2D transfer */
    cfg_copy_wait_t copy_wait;  /* a block's copies waited per block (block) or per batch */
    uint32_t transfer_set_us;   /* Zheng's service interval: transfer set = link x interval */
    uint32_t frame_alloc;       /* any | cocoa (uvm_frame_alloc_t) */
    uint32_t page_size;         /* 4k | 2m | cocoa (uvm_page_size_t) */
    uint32_t coalesce_by;       /* host | gmmu (uvm_coalesce_by_t) */
    cfg_transfer_sets_t transfer_sets; /* Zheng's sets per fault batch or pipelined */
    uint64_t hdl_irq_ns, hdl_batch_ns, hdl_fault_ns, hdl_page_ns, hdl_pte_ns, hdl_evict_ns;
    uint64_t hdl_block_ns;
} cfg_t;

/* Every non-RTL key at its default; RTL keys 0 (unset). */
void cfg_defaults(cfg_t *c);
/* Parses a file over the defaults. 0, or -1 with err = "file:line: key: reason". */
int cfg_load(cfg_t *c, const char *path, char *err, size_t errlen);
/* Run-time override "key=value" (non-RTL keys only). 0 or -1 with err. */
int cfg_set(cfg_t *c, const char *kv, char *err, size_t errlen);
/* 1 if key names an RTL parameter. */
int cfg_is_rtl_key(const char *key);
/* Cross-key validation (also done by cfg_load); 0 or -1 with err = "key: reason". */
int cfg_check(const cfg_t *c, char *err, size_t errlen);
/* Compares the RTL keys with p; 0 if equal, else -1 with err naming the first different key. */
int cfg_rtl_equal(const gmmu_params_t *a, const gmmu_params_t *b, char *err, size_t errlen);
/* Human-readable `key = value` lines, prefixed by `prefix`. */
void cfg_print(const cfg_t *c, FILE *f, const char *prefix);
/* JSON object (no trailing newline) with every key. */
void cfg_print_json(const cfg_t *c, FILE *f, const char *indent);
/* Value of key as text (for messages); 0, or -1 if the key is unknown. */
int cfg_format_value(const cfg_t *c, const char *key, char *buf, size_t len);

/* Zheng's transfer set in 4 KB pages: what the link moves at pcie_peak_gbps in transfer_set_us
 * (16 GB/s x 20 us = 320 000 B = 78 pages; at least 1). */
uint32_t cfg_transfer_set_pages(const cfg_t *c);

#endif
