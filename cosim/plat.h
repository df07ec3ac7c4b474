/*
 * plat.h - the co-simulation platform (module plat_): a list of engines (engine.h: the C model,
 * the Verilator model, or several compared in lock-step), GPU and host memory, the PCIe DMA
 * engine, the SM front-ends replaying a trace, the host program (host_drv.h: the fault handler
 * behind the uvm_dev_t interface), the chaos agent, idle skipping, the watchdog, statistics.
 * docs/cosim.md describes the cycle loop. Library code: every failure is returned as a status.
 */
#ifndef COSIM_PLAT_H
#define COSIM_PLAT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "engine.h"

#define PLAT_CSR_STEPS_MAX 128
#define PLAT_PRELOADS_MAX 8

typedef struct {
    cfg_t cfg;
    const char *cfg_path;
    const char *trace_path;
    uint64_t seed;
    const char *engine_name; /* the --engine value as reported ("cosim") */
    engine_list_t engines;   /* the first drives, the others are compared with it */
    const char *waves_path;  /* FST of the whole run, or NULL */
    const char *stats_path;  /* JSON stats, or NULL */
    int no_skip;             /* clock every cycle */
    int no_quiet;            /* skip idle cycles only, not quiet ones */
    int no_score;            /* no handler scoreboard (plat_score.h) */
    const char *score_break; /* testing the scoreboard: a handler fault the platform injects
                              * (perm|dup|noinval|tag|order; docs/cosim.md), or NULL */
    int quiet;               /* no progress line, terse output */
    int state_compare;       /* 1: compare every _q register too (all must be covered), 2: the
                              * covered ones (--state-compare-partial); docs/cosim.md */
    uint64_t max_cycles;     /* 0: unlimited */
    int expect_fault;        /* program faults (outside every allocation, write to read-only)
                              * are expected: they do not fail the run */
    uint64_t chaos_streak;   /* chaos agent: at most this many commands in a row that restart a
                              * walk without a completed translation (0: no bound) */
    uint64_t hang_at;        /* testing the watchdog: from this cycle the memory never answers */
    const char *csr[PLAT_CSR_STEPS_MAX]; /* --csr steps (docs/cosim.md "Scripted CSR accesses") */
    unsigned ncsr;
    const char *preload[PLAT_PRELOADS_MAX]; /* --preload ALLOC:large|nocache */
    unsigned npreload;
    double progress_every;       /* seconds between progress lines when stderr is not a terminal
                                  * (0: PLAT_LOG_PROGRESS_S) */
    volatile sig_atomic_t *stop; /* set to a signal number: stop, report, exit 128 + signal */
    /* waveform re-run after a mismatch: open the FST (waves_path) at this clocked cycle, stop
     * silently PLAT_WAVE_TAIL clocked cycles after the mismatch, print no summary */
    int rerun;
    uint64_t rerun_from;
} plat_opts_t;

/* Clocked cycles a waveform re-run goes on past the mismatch (the waveform shows how the engines
 * diverge further, and a viewer can centre the mismatch); the compare is off in them. */
#define PLAT_WAVE_TAIL 20u

/* Platform addresses (fixed). */
#define PLAT_DATA_BASE_PA 0x100000000ull /* GPU data frames */
#define PLAT_PT_BASE_PA 0x800000000ull   /* GPU page-table pages */
/* line_bitmap = 1: the most pages the handler's bitmap table covers (16 page-table pages) */
#define PLAT_BMP_WINDOW_PAGES 16384u
#define PLAT_FB_HOST_ADDR 0x10000000ull /* fault ring in host memory */
/* access-counter notification ring (docs/microarch.md §19.8), with acc_entries > 0: host memory
 * after the largest fault ring, room for the largest notification ring (2^FB_IDX_W entries) */
#define PLAT_ACC_HOST_ADDR (PLAT_FB_HOST_ADDR + ((uint64_t)GMMU_FB_ENTRY_BYTES << GMMU_FB_IDX_W))
#define PLAT_ACC_HOST_BYTES ((uint64_t)GMMU_FB_ENTRY_BYTES << GMMU_FB_IDX_W)

typedef struct plat plat_t;

/* NULL + err on a bad configuration/trace/engine combination. */
plat_t *plat_new(const plat_opts_t *o, char *err, size_t errlen);
/* Exit status of gmmu-sim, one per class of failure (docs/cosim.md "Exit status"). */
enum {
    PLAT_EXIT_PASS = 0,
    PLAT_EXIT_MISMATCH = 1,  /* lock-step mismatch, model invariant violation: a hardware bug */
    PLAT_EXIT_INPUT = 2,     /* bad command line, configuration, trace; unwritable output */
    PLAT_EXIT_PROGRAM = 3,   /* the simulated program faulted (not --expect-fault) */
    PLAT_EXIT_TIMEOUT = 4,   /* watchdog (hang or livelock), --max-cycles */
    PLAT_EXIT_INTEGRITY = 5, /* a page's content was wrong (integrity error) */
    PLAT_EXIT_PLATFORM = 6   /* platform protocol error, handler failure (init, a valid access
                              * cancelled: out of page-table pages) */
};                           /* a signal: 128 + its number (SIGINT 130, SIGTERM 143) */

/* Runs to the end of the trace or to the first failure (diagnostics on stderr); returns the exit
 * status (PLAT_EXIT_*). */
int plat_run(plat_t *p);
/* 1 if the run stopped on a lock-step mismatch that no open waveform covers; *clocked = the
 * clocked cycle of the mismatch (the program may re-run itself to write the waveform). */
int plat_mismatch_needs_wave(const plat_t *p, uint64_t *clocked);
/* After plat_run: prints the summary on stdout and writes the stats (nothing in a re-run).
 * 0, or -1 (reported) if the stats file could not be written. */
int plat_report(const plat_t *p);
void plat_free(plat_t *p);

#endif
