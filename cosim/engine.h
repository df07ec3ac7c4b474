/*
 * engine.h - one implementation of gmmu_top behind one interface (module engine_), the pattern of
 * lowRISC Ibex's dv/cosim Cosim class: the platform (cosim/plat*.c) holds a list of engines; the
 * first drives the platform, every other one receives the same inputs and its outputs are
 * compared with the first's every clocked cycle (compare.h), a difference is reported as a
 * readable line naming the signal, the expected and actual values and both engines.
 *
 * Implementations: engine_cmodel.c (the C golden model), engine_rtl.c (the Verilator model through
 * vshim). A new engine (a synthesized netlist, a board over a serial link) is one new file that
 * defines an engine_ops_t, plus its row in engine_registry.c (docs/cosim.md, "Adding an engine").
 */
#ifndef COSIM_ENGINE_H
#define COSIM_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gmmu_if.h"
#include "vshim.h"

#define ENGINE_MAX 4 /* engines in one run */

typedef struct engine engine_t;

/* What an engine is created from. */
typedef struct {
    const gmmu_params_t *prm; /* RTL parameters of the configuration */
    const char *cfg_path;     /* for messages */
} engine_args_t;

typedef struct {
    const char *name;  /* --engine name: "cmodel", "rtl" */
    const char *label; /* in messages: "C model", "RTL" */
    /* New engine in reset state. NULL + err (naming the reason) on failure. */
    engine_t *(*create)(const engine_args_t *a, char *err, size_t errlen);
    /* Output ports of the current cycle (Moore: a function of registered state only). */
    void (*outputs)(engine_t *e, gmmu_out_t *out);
    /* Drives the inputs and applies one rising edge; cycle = simulated cycle of the edge. */
    void (*step)(engine_t *e, const gmmu_in_t *in, uint64_t cycle);
    /* Optional (NULL: never). 1 if an edge with idle inputs cannot change any register (more
     * than idle_o: gmmu_model_quiet). Cycles are skipped on it only if every engine has it. */
    int (*quiet)(const engine_t *e);
    /* Optional: human-readable dump of the internal state (watchdog). */
    void (*dump)(const engine_t *e, FILE *f);
    /* Optional: waveform of every signal from now on (0 on success) / closed. with_ref: the
     * waveform also holds a reference engine's outputs beside this engine's (given by wave_ref
     * before every step), a diff bit per output element and a mismatch marker. */
    int (*wave_open)(engine_t *e, const char *path, int with_ref);
    void (*wave_close)(engine_t *e);
    /* With wave_open: the reference engine's outputs before and after the edge of the next
     * step, written into the waveform beside this engine's (docs/cosim.md, "Waveforms"). */
    void (*wave_ref)(engine_t *e, const gmmu_out_t *before, const gmmu_out_t *after);
    /* Optional: internal invariant violations so far (0 = none) and the first message. */
    unsigned (*violations)(const engine_t *e, char *first, size_t len);
    /* Optional: 1 once an assertion inside the engine failed (the RTL's SVA, vshim_failed):
     * the platform stops the run at that cycle as it does at a mismatch (docs/cosim.md). */
    int (*failed)(const engine_t *e);
    /* Optional (--state-compare): the engine's table of registered state (_q) signals, or NULL
     * + err (the RTL: the name table generated from the Verilated model, vshim.h). */
    const vshim_state_reg_t *(*state_table)(engine_t *e, size_t *n, char *err, size_t errlen);
    /* Optional: bits [64 * word + 63 : 64 * word] of element i of a registered signal of the
     * table. 0; 1 if the engine has no accessor for the signal (never for a row of its own
     * table); -1 + err on an error. */
    int (*state_get)(engine_t *e, const vshim_state_reg_t *r, size_t row, uint32_t i, uint32_t word,
                     uint64_t *val, char *err, size_t errlen);
    void (*free)(engine_t *e);
} engine_ops_t;

/* The common head of every engine: implementations embed it first. */
struct engine {
    const engine_ops_t *ops;
};

extern const engine_ops_t engine_cmodel_ops;  /* engine_cmodel.c */
extern const engine_ops_t engine_rtl_ops;     /* engine_rtl.c */
extern const engine_ops_t engine_netlist_ops; /* engine_netlist.c (gmmu-sim-netlist) */

/* The engines a program offers (engine_registry.c: gmmu-sim's; tests pass their own). */
typedef struct {
    const engine_ops_t *const *ops;
    size_t n;
} engine_registry_t;
extern const engine_registry_t engine_registry;

/* A parsed --engine value: "cosim" (= cmodel,rtl), "cmodel", "rtl", or a comma-separated list
 * of registered engine names; the first drives. */
typedef struct {
    const engine_ops_t *ops[ENGINE_MAX];
    unsigned n;
} engine_list_t;

/* 0, or -1 + err for a name not in the registry or a list that is too long or empty. */
int engine_list_parse(const engine_registry_t *r, const char *spec, engine_list_t *l, char *err,
                      size_t errlen);
/* 1 if some engine of the list can write a waveform / every engine has a quiet test. */
int engine_list_has_waves(const engine_list_t *l);
int engine_list_all_quiet(const engine_list_t *l);
/* Creates every engine of the list into e[] (l->n entries). 0, or -1 + err (none left). */
int engine_list_create(const engine_list_t *l, const engine_args_t *a, engine_t **e, char *err,
                       size_t errlen);

static inline void engine_free(engine_t *e) {
    if (e)
        e->ops->free(e);
}

#endif
