/*
 * plat_int.h - the platform's state, shared by its modules (not part of the plat.h interface):
 *   plat_halt.c   simulated time, halting (the statistics snapshot), error reports: the bottom
 *   plat_eng.c    the engines in the cycle: outputs compared, mismatch report, clocking
 *   plat.c        construction, the run (host services of host_drv.h)
 *   plat_cycle.c  the cycle loop: plat_step, idle/quiet skipping, kernels, watchdog
 *   plat_co.c     the chaos agent and the coalesce test hook (host-context command agents)
 *   plat_mem.c    allocations, content tags (truth), page accesses and integrity, DMA queue
 *   plat_dev.c    the uvm_dev_t backend the host program talks to
 *   plat_report.c the summary and the JSON stats
 *   plat_models.c the models' operations (plat_model.h) and their list
 */
#ifndef COSIM_PLAT_INT_H
#define COSIM_PLAT_INT_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "engine.h"
#include "evring.h"
#include "gmmu_consts.h"
#include "gpumem.h"
#include "host_drv.h"
#include "hostmem.h"
#include "l2d.h"
#include "pcie.h"
#include "plat.h"
#include "plat_model.h"
#include "plat_score.h"
#include "rng.h"
#include "sm.h"
#include "statecmp.h"
#include "trace.h"
#include "trace_profile.h"
#include "u64map.h"

#define PLAT_PAGE (1ull << GMMU_PAGE_SHIFT)
#define PLAT_MAX_REPORTED 10 /* integrity errors / fatal faults printed in full */
#define PLAT_RECENT_PAGES 64 /* recently translated pages, for the chaos agent */
/* watchdog: handler calls + walk restarts without progress that make a livelock */
#define PLAT_LIVELOCK_EVENTS 32
#define PLAT_CHAOS_BACK_TO_BACK 4 /* chaos commands in a row without a workload cycle */
#define PLAT_LOG_PROGRESS_S 10.0  /* progress line period when stderr is not a terminal */

#define PLAT_PRELOAD_PT_PAGES 32u /* page-table pages kept for --preload (top of the pool) */
#define PLAT_PRELOAD_FRAMES 4096u /* frames for --preload, above the handler's (16 MB) */

/* --score-break: handler faults injected by the platform to test the scoreboard */
enum {
    PLAT_BREAK_NONE,
    PLAT_BREAK_PERM,
    PLAT_BREAK_DUP,
    PLAT_BREAK_NOINVAL,
    PLAT_BREAK_TAG,
    PLAT_BREAK_ORDER
};

typedef struct {
    char name[TRACE_NAME_MAX];
    uint64_t base, size;
    int ro;
    int preloaded; /* mapped by the platform (--preload) */
} plat_alloc_t;

/* One --csr step (plat_script.c). */
typedef struct {
    uint64_t cycle;   /* the first cycle it may be done in */
    uint64_t done_at; /* the cycle it was driven */
    uint32_t addr, value, mask, got;
    int write, check; /* a read with an expected value (under mask) */
    int race_ev;      /* a write: EV_* bit that must happen in its cycle, or -1 */
} plat_csr_step_t;

typedef struct {
    char name[TRACE_NAME_MAX];
    int large;  /* 1: 2 MB pages, 0: 4 KB pages */
    int remote; /* 1: host pages with the system aperture (APER, docs/microarch.md §17), 0: GPU
                 * frames (4 KB pages: nocache) */
} plat_preload_t;

typedef struct {
    uint64_t handle, done, src, dst, npages;
    int dir;
    uint64_t *tags; /* source tags read at submission */
} plat_dma_t;

/* The loop's own counters (the models count theirs: plat_model.h). */
typedef struct {
    uint64_t cycles, clocked_cycles, integrity_errors, platform_errors;
} plat_stats_t;

/* Everything the summary and the stats report, frozen when the run stops. */
typedef struct {
    plat_stats_w_t st; /* every key of the stats JSON (plat_model.h) */
    double wall;
    const char *result;
    int status;
} plat_final_t;

/* ------------------------------------------------------------------------------------------ */
/* the models (plat_model.h; their operations and the list: plat_models.c)                    */

/* "sm": the SM front-ends with the workload they replay (trace, kernels, the HBM server in
 * kern.hbm) and what the responses they receive count. */
typedef struct {
    trace_reader_t *tr;
    kern_stream_t ks;
    kern_t kern;
    l2d_t l2d;        /* the L2 data cache (l2d_kb; off: sets 0), shared by the PTE reads and
                       * kern's data lines (kern.l2d) */
    kern_part_t part; /* SMs of each address space (sm_partition), kern.part */
    /* an allocation of an address space other than 0 was declared: the SMs issue only once the
     * device is online (every ASID's PT_BASE programmed; docs/cosim.md "Address spaces") */
    int multi, online;
    sm_t sm[GMMU_MAX_SM];
    uint32_t num_sm;
    int kernel_active, trace_done;
    uint64_t kernel_from; /* launch cycle of the running kernel */
    /* memcpy mode: a kernel completed and the host has not launched the next one yet; the
     * copy before the next launch started at copy_from with the handler's bytes_h2d at
     * copy_bytes_from */
    int launch_due;
    uint64_t copy_from, copy_bytes_from;
    uint64_t trace_total; /* for the progress line: lines or bytes, 0 = unknown */
    int trace_binary;
    u64map_t ro_cancels; /* read-only vpn -> 2 * cancelled reads | a write was cancelled */
    uint32_t clock_mhz;
    int memcpy_mode; /* run_mode = memcpy (ideal_ns) */
    uint64_t translations, l1_hits, miss_rsps, req_stalls, fatal_faults, program_faults,
        failed_accesses, instructions, kernels;
    /* run time split (docs/cosim.md "Run modes"): cycles with a kernel running; cycles and H2D
     * bytes of the memcpy mode's copies before the launches */
    uint64_t kernel_cycles, copy_cycles, copy_bytes;
    /* host calls of the trace (advise, prefetch, free, cpu: docs/trace-format.md "Host calls")
     * read since the last launch, performed by the host before the next one (plat_host.c);
     * calls_at_end: the trace ended after them (no kernel to launch) */
    trace_rec_t *calls;
    uint32_t ncalls, capcalls;
    int calls_at_end;
    uint64_t host_frees, host_prefetches, host_prefetch_pages, host_cpu_touches, host_d2h_pages;
    uint64_t host_advises;
    uint64_t host_prefetch_gpu_ns; /* simulated time spent in prefetches to the GPU */
    /* remote accesses (translations with sys = 1, docs/cosim.md "Remote accesses"): reads,
     * writes (atomics included), bytes over the link, cycles from the translation to the data */
    uint64_t remote_reads, remote_writes, remote_bytes, remote_wait_cycles;
    uint64_t pst_writes; /* software PST entries written (a new line bit; docs/handler.md §6x.1) */
} plat_wl_t;

/* "pcie": the DMA engine (pcie.h) and the transfers in flight; a completion lands in the
 * memories (tags) when time reaches it. */
typedef struct {
    pcie_dma_t dma;
    plat_dma_t *dmas;
    size_t ndma, capdma;
    uint64_t next_handle;
    uint64_t dma_h2d, dma_d2h;
    uint32_t clock_mhz;
    gpumem_t *gm; /* where completions land */
    hostmem_t *hm;
    evr_t *ring;
} plat_dmaq_t;

/* "handler": the handler device - the host program and the CSR port it drives. */
typedef struct {
    hdrv_t *host;
    uvm_dev_t dev;
    int running;
    uint64_t start, idle_at; /* idle_at: the handler returned without using any time */
    int csr_valid, csr_write;
    uint32_t csr_addr, csr_wdata;
    uint64_t log_lines;
    uint64_t calls;
    uint64_t csr_writes; /* the handler's CSR writes (device commands and their arguments) */
} plat_hdev_t;

/* "chaos": the chaos agent (docs/cosim.md "Chaos agent"). */
typedef struct {
    rng_t rng;
    uint64_t period; /* chaos_inval (0: off) */
    uint64_t next;
    uint64_t recent[PLAT_RECENT_PAGES]; /* recently translated pages */
    uint64_t nrecent;
    uint64_t streak; /* commands followed by a walk restart since the last progress */
    int restarted;   /* a walk restarted since the last command */
    int busy;        /* commands with no cycle outside the chaos agent in between */
    int running;     /* plat_chaos is issuing a command */
    uint64_t cmds, held;
} plat_chaos_t;

/* "script": scripted CSR accesses and preloaded mappings (plat_script.c). */
typedef struct {
    plat_csr_step_t steps[PLAT_CSR_STEPS_MAX];
    unsigned nsteps, next_step;
    int step_issued; /* steps[next_step] was driven in the last clocked cycle */
    plat_preload_t preloads[PLAT_PRELOADS_MAX];
    unsigned npreloads;
    int preload_done;
    u64map_t pl_tables;                  /* (level, VPN prefix) -> platform table PA */
    uint64_t pl_pt_used, pl_frames_used; /* platform page-table pages, frames used */
    uint64_t pl_frame_base;              /* first platform frame (index in the data frames) */
} plat_script_t;

/* "co": the coalesce test hook (plat_co.c): cycles of the pending commands, 0 = none. */
typedef struct {
    uint64_t next[2]; /* [0] COALESCE, [1] SPLINTER */
    uint64_t cmds, errors;
} plat_co_t;

/* "watchdog" (docs/cosim.md "Watchdog"; platform only, never compared). */
typedef struct {
    uint64_t cycles;        /* watchdog_cycles */
    uint64_t last_progress; /* last completed translation or instruction, kernel launch */
    uint64_t from;          /* the watchdog's clock: last progress or postponement */
    uint64_t busy_base;     /* handler calls + walk restarts at the last progress */
    uint64_t wait_until;    /* the host waits (handler CPU time, DMA) until this cycle */
    uint64_t csr_writes;    /* the handler's CSR writes at the last check */
} plat_wd_t;

/* "gmmu": the device's port activity as the platform counts it (ev_o, the PTE and fault-entry
 * transfers, the engines' comparison and invariant checks). */
typedef struct {
    uint64_t l2_hits, l2_misses, walks, walk_restarts, far_faults, ff_merges, ff_drops,
        fb_overflows, fb_writes, pte_reads, l1_large_hit_cycles, l2_large_hits, walks_large,
        co_done, gmmu_pte_writes, mismatches, model_violations;
    /* access counters (docs/microarch.md §19.8): reported only with acc_entries > 0 */
    uint64_t acc_notifies, acc_overflows, acc_writes;
    uint64_t bmp_wb, bmp_lost; /* EV_BMP_WB / EV_BMP_LOST cycles (docs/microarch.md §20.6) */
} plat_gmmu_ctr_t;

/* The referenced-line bitmaps (docs/microarch.md §20, line_bitmap = 1; plat_bmp.c): the table
 * registers as written (a shadow), the lines the accepted requests referenced, the end check. */
typedef struct {
    uint64_t base, vpn0; /* BMP_BASE, BMP_VPN0 << 4 */
    uint32_t pages;      /* BMP_PAGES */
    u64map_t lines;      /* vpn -> the lines its accepted requests referenced */
    uint64_t writes;     /* table writes transferred on the memory port */
    /* at the end: the table's lines and pages, the referenced lines of the window's pages,
     * those missing from the table, and table bits never referenced (platform errors) */
    uint64_t table_lines, table_pages, truth_lines, missing, extra;
} plat_bmp_t;

/* The loop's own state; the models in their structs, listed in models[] (plat_models.c). */
struct plat {
    plat_opts_t o;
    const cfg_t *cfg;
    gmmu_params_t prm;
    /* engines: eng[0] drives, the others are compared with it */
    engine_t *eng[ENGINE_MAX];
    unsigned neng;
    gmmu_out_t eout[ENGINE_MAX];
    const gmmu_out_t *out; /* &eout[0] */
    int out_fresh;
    engine_t *wave_eng; /* the engine writing the waveform (first one that can) */
    engine_t *wave_ref; /* the engine whose outputs it writes beside its own, or NULL */
    scmp_t *scmp;       /* --state-compare of eng[0] and eng[1], or NULL */
    int state_due;      /* clocked since the last state comparison */
    int waves_open;
    uint64_t rerun_stop; /* waveform re-run: the clocked cycle it stops at (0: no mismatch yet) */
    int quiet_skip;      /* every engine has a quiet test and --no-quiet-skip is not given */
    gmmu_in_t in;
    uint64_t req_rows; /* SMs whose request inputs are not all zero */
    /* the models */
    plat_model_t models[PLAT_MAX_MODELS];
    unsigned nmodels;
    plat_wl_t wl;
    gpumem_t gm;
    hostmem_t hm;
    plat_dmaq_t dq;
    plat_hdev_t hd;
    plat_chaos_t ch;
    plat_script_t scr;
    plat_co_t co;
    plat_wd_t wd;
    plat_gmmu_ctr_t gmmu;
    plat_bmp_t bmp;
    /* checks: the handler scoreboard, content truth, the allocations */
    plat_score_t *score; /* the handler scoreboard, or NULL (--no-scoreboard) */
    int score_break;     /* PLAT_BREAK_*: the injected handler fault (--score-break) */
    trace_prof_t *prof;  /* object_policy: the trace's object profile (plat_objects.c), or NULL */
    size_t prof_next;    /* its next launch */
    int access_oracle;   /* the eviction policy wants every access (lru_oracle): an oracle */
    int pst_on; /* the program is instrumented: every access writes DynaMap's software PST in host
                 * memory (hostmem_pst_record; remote_policy static_map / dynamap, pst_source sw) */
    uint64_t break_leaf; /* dup: the first leaf PTE the handler wrote (0: none yet) */
    u64map_t truth;      /* vpn -> content version */
    u64map_t rmostly;    /* vpn -> 1: advised read_mostly (the scoreboard allows W = 0) */
    plat_alloc_t *allocs;
    size_t nalloc, capalloc;
    /* time */
    uint64_t now, clocked;
    uint64_t mem_ready_seed, fb_ready_seed;
    uint64_t iter;
    /* diagnostics */
    evr_t ring;
    plat_stats_t st;
    struct timespec t0;
    double last_progress_print;
    int show_progress, progress_shown, progress_tty;
    uint64_t progress_ticks, prog_evictions, prog_h2d, prog_instructions; /* thrashing note */
    /* stop */
    int halted;
    int mismatch; /* halted on a lock-step mismatch */
    plat_final_t fin;
};

/* plat_bmp.c (docs/microarch.md §20; no-ops with line_bitmap = 0) */
void plat_bmp_csr(plat_t *p, uint32_t addr, uint32_t v);
void plat_bmp_line(plat_t *p, uint64_t vpn, uint8_t line);
int plat_bmp_write(plat_t *p, const gmmu_out_t *o);
void plat_bmp_finish(plat_t *p);

/* plat_halt.c */
uint64_t plat_now_ns(const plat_t *p);
void plat_clear_progress(plat_t *p);
/* Stops the run: freezes the statistics (plat_final_t) and the engines; every later step of the
 * platform does nothing and device calls return without effect. Returns status. */
int plat_halt(plat_t *p, int status, const char *result);
/* "gmmu-sim: error at cycle N: ..." on stderr. */
void plat_perr(plat_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A platform protocol error (bad handler request, bad device output): reported, run halted. */
void plat_platform_error(plat_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* plat_eng.c: outputs of the current cycle (computed once per cycle, compared across engines) */
const gmmu_out_t *plat_outputs(plat_t *p);
void plat_clock_engines(plat_t *p);

/* plat_cycle.c */
/* Progress (a completed translation, a kernel launch): resets the watchdog and the chaos streak. */
void plat_progress_mark(plat_t *p);
/* Runs one cycle, or skips idle cycles up to (not beyond) limit. */
void plat_step(plat_t *p, uint64_t limit);
void plat_run_until(plat_t *p, uint64_t t);
/* Loads and starts the next kernel, or marks the trace done (demand mode: the platform
 * launches; the completed kernel's time is counted). */
void plat_next_kernel(plat_t *p);
/* The two halves of a launch (memcpy mode: the host copies in between). declare: reads up to
 * the next kernel record, declaring the allocations on the way; 1 a kernel is ready, 0 end of
 * trace (trace_done), -1 halted. start: starts it on the SMs; 1 running, 0 empty, -1 halted. */
int plat_declare_kernel(plat_t *p);
int plat_start_kernel(plat_t *p);
/* plat_co.c: the chaos agent's command (host context) */
void plat_chaos(plat_t *p);
/* End of run: cancelled reads of a read-only page whose write was cancelled too count as program
 * faults, not as failed accesses. */
void plat_collateral(plat_t *p);
/* The coalesce test hook (plat_co.c): issuing every command due at now (host context: the
 * handler is not running); its next command: plat_co_next. */
void plat_co_hook(plat_t *p);
void plat_progress(plat_t *p);
void plat_dump_state(plat_t *p, FILE *f);

/* plat_dev.c: the handler's uvm_cfg_t built from the configuration */
void plat_handler_cfg(const plat_t *p, uvm_cfg_t *hc);

/* plat_mem.c */
const plat_alloc_t *plat_find_alloc(const plat_t *p, uint64_t va);
int plat_add_alloc(plat_t *p, const trace_rec_t *rec);
/* Removes the allocation based at (extended) VA base (a free): its pages are outside every
 * allocation from now on. */
void plat_del_alloc(plat_t *p, uint64_t base);

/* plat_host.c: a host call read from the trace (on_alloc): checked against the allocations
 * (exit 2 on a range outside one allocation, a free of no allocation, a call not acted on yet)
 * and queued for the host. */
void plat_host_rec(plat_t *p, const trace_rec_t *rec);
/* Performs the queued host calls (host context: the host program, before a launch), each
 * bracketed as a handler service (the scoreboard checks what it changed). 0 or -1 (halted). */
int plat_host_calls(plat_t *p, void (*begin)(void *), void (*end)(void *));
/* prefetch_policy = oracle: a first pass over the trace gives the handler its pages in
 * first-touch order; evict_policy = optimal: every page use ahead (plat_oracle.c); nothing for
 * the other policies. 0 or -1 + err. */
int plat_oracle_order(plat_t *p, const char *trace_path, char *err, size_t errlen);
/* object_policy (docs/handler.md §6s): the trace's object profile, from a first pass over it
 * (plat_objects.c); nothing for object_policy = none. 0 or -1 + err. */
int plat_objects_init(plat_t *p, const char *trace_path, char *err, size_t errlen);
/* Before a launch: the launch's objects to the handler (a handler service between begin and
 * end). 0 or -1 (halted). */
int plat_objects_launch(plat_t *p, void (*begin)(void *), void (*end)(void *));
void plat_objects_free(plat_t *p);
/* The access of one page, performed when its translation arrives. */
/* The data access of a translated page: ppn a GPU frame (sys = 0) or the host frame of a remote
 * mapping (sys = 1, over PCIe). */
void plat_access_page(plat_t *p, uint32_t s, const sm_resp_t *r, uint64_t ppn, int sys);
/* The instrumented program counts every access in the software PST (remote_policy
 * lazy_pg_stat_sw / lazy_pg_dyn_sw, docs/handler.md §6x.4) */
int plat_pst_counts(const plat_t *p);
/* The host frame of a managed page mapped remotely (docs/cosim.md "Remote accesses"). */
static inline uint64_t plat_host_frame(uint64_t vpn) {
    return hostmem_frame(vpn & KERN_VPN_MASK);
}
/* Completion cycle of a pending DMA, or 0 if it is not pending. */
uint64_t plat_dma_done_at(const plat_t *p, uint64_t handle);
/* Queues a checked transfer; returns its handle (0 after a platform error). */
uint64_t plat_dma_submit(plat_t *p, uvm_dma_dir_t dir, uint64_t src, uint64_t dst, uint64_t bytes);
/* The handler scoreboard on the platform's memories and allocations (NULL with no_score). */
int plat_score_init(plat_t *p, char *err, size_t errlen);
/* The scoreboard's pin rule observes the handler's PIN, UNPIN and EVICT events. 0 or -1. */
int plat_score_subscribe(plat_t *p);
/* --score-break perm|dup: a leaf PTE of the handler as the broken handler writes it. */
uint64_t plat_score_break_pte(plat_t *p, uint64_t value);

/* plat_dev.c */
void plat_dev_init(plat_t *p, uvm_dev_t *dev);
/* One clocked cycle with a CSR write of the host (the chaos agent uses it too). */
void plat_csr_write_cycle(plat_t *p, uint32_t addr, uint32_t value);
uint32_t plat_csr_read(plat_t *p, uint32_t addr);

/* plat_script.c */
/* Parses the --csr steps and the --preload specifications. 0 or -1 + err. */
int plat_script_init(plat_t *p, char *err, size_t errlen);
/* Drives the due step on the CSR port if the host leaves it free this cycle; 1 if driven. */
int plat_script_drive(plat_t *p, gmmu_in_t *in);
/* The outputs of the cycle after a driven step: its checks. */
void plat_script_outputs(plat_t *p, const gmmu_out_t *o);
/* End of run: every step done (else a platform error). 0 or -1. */
int plat_script_end(plat_t *p);
/* Maps the --preload allocations (when the device is online, before the first kernel runs). */
int plat_preload(plat_t *p, char *err, size_t errlen);
/* A handler write of a page-table word: a root entry of a preloaded slot keeps the platform's
 * value (the handler zeroes its root page at initialization, after the preload). */
uint64_t plat_preload_root(const plat_t *p, uint64_t pa, uint64_t value);
/* A later allocation may not share the root slot of a preloaded one. 0 or -1 + err. */
int plat_preload_check_alloc(const plat_t *p, const char *name, uint64_t base, char *err,
                             size_t errlen);

/* plat_models.c */
/* Lists the models (before anything can fail: plat_free frees them through the list). */
void plat_models_init(plat_t *p);
/* The earliest next_event of the models (UINT64_MAX: none). */
uint64_t plat_models_next_event(const plat_t *p);
/* The earliest wait_end of the models (UINT64_MAX: no timed work; the watchdog). */
uint64_t plat_models_wait_end(const plat_t *p);
/* step_to(now) of every model that advances by itself (DMA completions). */
void plat_models_step(plat_t *p);
/* Every model's statistics into w (the loop's own keys are not included). */
void plat_models_stats(const plat_t *p, plat_stats_w_t *w);
void plat_models_free(plat_t *p);
/* The models' own functions (on their structs only, so the list is a layer below the loop):
 * DMA completions due by t land in the memories (the "pcie" model's step_to); the earliest
 * completion (UINT64_MAX: none); the transfers freed. */
void plat_dmaq_step_to(void *m, uint64_t t);
uint64_t plat_dma_next_done(const plat_dmaq_t *q);
void plat_dma_free(plat_dmaq_t *q);
/* The first cycle of the next pending --csr step (UINT64_MAX: none). */
uint64_t plat_script_next(const plat_script_t *s);
/* The coalesce hook's earliest pending command cycle (0 = none). */
uint64_t plat_co_next(const plat_co_t *c);

/* plat_report.c */
void plat_print_summary(const plat_t *p, FILE *f);
/* 0, or -1 (reported) when the file cannot be written. */
int plat_write_stats(const plat_t *p);

#endif
