/*
 * plat_model.h - the one interface of the platform's models (module plat_model_; in the spirit of
 * gem5's SimObjects; docs/cosim.md "Platform models").
 *
 * A model is its own struct (the SM front-ends with the workload, the PCIe DMA engine, GPU and
 * host memory, the handler device, the chaos agent, the scripted CSR steps, the coalesce hook,
 * the watchdog, the device's port counters) behind a table of operations. The cycle loop keeps a
 * list of them (plat_models.c) and iterates it instead of naming each model: for the next cycle
 * at which something happens without an engine input (idle/quiet skipping), for the models that
 * advance with time by themselves, for the statistics and to free them. What a model does at the
 * engines' ports (responses, PTE reads, fault-entry writes, CSR accesses) the cycle does through
 * the model's own functions, in the order of docs/cosim.md "The cycle".
 */
#ifndef COSIM_PLAT_MODEL_H
#define COSIM_PLAT_MODEL_H

#include <stdint.h>

/* The keys of the stats JSON in the order they are written (docs/cosim.md "Statistics"; the
 * order is part of the format): every key is reported by exactly one model, or by the loop
 * itself (cycles, clocked_cycles, integrity_errors, platform_errors, sim_time_ns, seed,
 * exit_status). */
#define PLAT_STAT_KEYS(X)                                                                          \
    X(cycles)                                                                                      \
    X(clocked_cycles)                                                                              \
    X(translations)                                                                                \
    X(l1_hits)                                                                                     \
    X(l1_miss_responses)                                                                           \
    X(l2_hits)                                                                                     \
    X(l2_misses)                                                                                   \
    X(walks)                                                                                       \
    X(walk_restarts)                                                                               \
    X(far_faults)                                                                                  \
    X(ff_merges)                                                                                   \
    X(ff_drops)                                                                                    \
    X(fb_overflows)                                                                                \
    X(fb_writes)                                                                                   \
    X(pte_reads)                                                                                   \
    X(l1_large_hit_cycles)                                                                         \
    X(l2_large_hits)                                                                               \
    X(walks_large)                                                                                 \
    X(gmmu_pte_writes)                                                                             \
    X(co_cmds)                                                                                     \
    X(co_done)                                                                                     \
    X(co_errors)                                                                                   \
    X(irqs)                                                                                        \
    X(handler_calls)                                                                               \
    X(fault_batches)                                                                               \
    X(faults_fetched)                                                                              \
    X(faults_duplicate)                                                                            \
    X(faults_stale)                                                                                \
    X(replays)                                                                                     \
    X(invalidates)                                                                                 \
    X(cancels)                                                                                     \
    X(pte_writes)                                                                                  \
    X(handler_overflows)                                                                           \
    X(pages_h2d)                                                                                   \
    X(pages_d2h)                                                                                   \
    X(evictions)                                                                                   \
    X(bytes_h2d)                                                                                   \
    X(bytes_d2h)                                                                                   \
    X(pages_prefetched)                                                                            \
    X(bytes_prefetched)                                                                            \
    X(ts_sets)                                                                                     \
    X(ts_pages)                                                                                    \
    X(h2d_busy_ns)                                                                                 \
    X(dma_h2d)                                                                                     \
    X(dma_d2h)                                                                                     \
    X(pt_pages_used)                                                                               \
    X(data_pages_resident)                                                                         \
    X(large_maps)                                                                                  \
    X(coalesces)                                                                                   \
    X(splinters)                                                                                   \
    X(large_evictions)                                                                             \
    X(cocoa_fallbacks)                                                                             \
    X(chaos_cmds)                                                                                  \
    X(chaos_held)                                                                                  \
    X(req_stalls)                                                                                  \
    X(integrity_errors)                                                                            \
    X(mismatches)                                                                                  \
    X(platform_errors)                                                                             \
    X(model_violations)                                                                            \
    X(fatal_faults)                                                                                \
    X(program_faults)                                                                              \
    X(failed_accesses)                                                                             \
    X(instructions)                                                                                \
    X(kernels)                                                                                     \
    X(trace_buffer_peak)                                                                           \
    X(sim_time_ns)                                                                                 \
    X(kernel_ns)                                                                                   \
    X(copy_ns)                                                                                     \
    X(copy_bytes)                                                                                  \
    X(ideal_ns)                                                                                    \
    X(seed)                                                                                        \
    X(exit_status)

#define PLAT_STAT_ENUM(k) PLAT_ST_##k,
typedef enum { PLAT_STAT_KEYS(PLAT_STAT_ENUM) PLAT_NSTATS } plat_stat_t;
#undef PLAT_STAT_ENUM

/* The statistics of a run as the models report them. */
typedef struct {
    uint64_t v[PLAT_NSTATS];
    uint8_t set[PLAT_NSTATS]; /* times each key was reported (1 when complete) */
} plat_stats_w_t;

/* The JSON name of a key. */
const char *plat_stat_name(plat_stat_t k);
static inline void plat_stat(plat_stats_w_t *w, plat_stat_t k, uint64_t v) {
    w->v[k] = v;
    w->set[k]++;
}
/* The first key not reported exactly once, or PLAT_NSTATS when every key was. */
plat_stat_t plat_stats_incomplete(const plat_stats_w_t *w);

typedef struct {
    const char *name;
    /* The earliest cycle at which the model acts without an input from the engines (<= now: it
     * acts now, no cycle may be skipped); UINT64_MAX: none. NULL: never by itself. */
    uint64_t (*next_event)(const void *m, uint64_t now);
    /* Time has reached t: the model does what is due by then (DMA completions land). NULL: the
     * cycle drives it through its ports only. */
    void (*step_to)(void *m, uint64_t t);
    /* Its statistics (NULL: none). */
    void (*stats)(const void *m, plat_stats_w_t *w);
    /* Frees what it holds (the struct itself belongs to the platform); safe on a zeroed struct.
     * NULL: nothing to free. */
    void (*free)(void *m);
    /* Timed work that will end by itself (the watchdog waits for it, the run does not hang: a
     * warp in its compute gap, a PTE read due later, a DMA in flight, the host's modeled CPU
     * time or DMA wait): the cycle its first such wait ends; UINT64_MAX: none. NULL: never. */
    uint64_t (*wait_end)(const void *m, uint64_t now);
} plat_model_ops_t;

typedef struct {
    const plat_model_ops_t *ops;
    void *m;
} plat_model_t;

#define PLAT_MAX_MODELS 16

#endif
