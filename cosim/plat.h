/*
 * plat.h - the co-simulation platform (module plat_): the engines (C model, Verilator model or
 * both in lock-step), GPU and host memory, the PCIe DMA engine, the SM front-ends replaying a
 * trace, the host fault handler (sw-handler) behind the uvm_dev_t interface, the chaos agent, idle
 * skipping, the watchdog, statistics. docs/cosim.md describes the cycle loop.
 */
#ifndef COSIM_PLAT_H
#define COSIM_PLAT_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"

typedef enum { PLAT_ENGINE_COSIM = 0, PLAT_ENGINE_CMODEL = 1, PLAT_ENGINE_RTL = 2 } plat_engine_t;

typedef struct {
    cfg_t cfg;
    const char *cfg_path;
    const char *trace_path;
    uint64_t seed;
    plat_engine_t engine;
    const char *waves_path; /* FST of the whole run, or NULL */
    const char *stats_path; /* JSON stats, or NULL */
    int no_skip;            /* clock every cycle */
    int no_quiet;           /* cmodel engine: skip idle cycles only, not quiet ones */
    int quiet;              /* no progress line, terse output */
    uint64_t max_cycles;    /* 0: unlimited */
    /* waveform re-run after a mismatch (internal): open the FST at this clocked cycle */
    int rerun;
    uint64_t rerun_from;
    int argc; /* the command line, re-executed for the mismatch waveform */
    char **argv;
} plat_opts_t;

/* Platform addresses (fixed). */
#define PLAT_DATA_BASE_PA 0x100000000ull /* GPU data frames */
#define PLAT_PT_BASE_PA 0x800000000ull   /* GPU page-table pages */
#define PLAT_FB_HOST_ADDR 0x10000000ull  /* fault ring in host memory */

typedef struct plat plat_t;

const char *plat_engine_name(plat_engine_t e);
/* NULL + err on a bad configuration/trace/engine combination. */
plat_t *plat_new(const plat_opts_t *o, char *err, size_t errlen);
/* Runs to the end of the trace; prints the summary, writes the stats; returns the exit status
 * (0: completed, no mismatch, no integrity or platform error). Some failures exit directly
 * after printing the same summary. */
int plat_run(plat_t *p);
void plat_free(plat_t *p);

#endif
