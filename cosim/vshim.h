/*
 * vshim.h - C interface of the Verilator model of gmmu_top (the only C++ in the project is
 * vshim.cpp). The Verilator model is built for one parameter set (configs/<name>.cfg);
 * vshim_new refuses any other.
 *
 * Several models in one binary: each configuration's model is built with --prefix V<config>
 * (mk/verilator.mk), and its shim compiled with -DVSHIM_NS=<config> names these functions
 * vshim_<config>_new, ... . To declare them, define VSHIM_NS before including this header (it
 * may be included once per name space); without VSHIM_NS the names are vshim_new, ... .
 */
#ifndef GMMU_VSHIM_H
#define GMMU_VSHIM_H

#include "gmmu_if.h"
#include <stddef.h>
#include <stdint.h>

typedef struct vshim vshim_t;

/* One registered-state signal (_q) of one instance: a row of the name table that
 * scripts/gen_state_table.py generates from the Verilated model (gmmu-sim --state-compare). */
typedef struct {
    const char *scope; /* instance path below gmmu_top ("" = gmmu_top), e.g. "g_l1[1].u_l1.u_req" */
    const char *name;  /* e.g. "state_q" */
    uint32_t width;    /* bits of one element */
    uint32_t elems;    /* elements of the unpacked dimension (1 = none) */
    uint32_t udims;    /* unpacked dimensions (0 or 1) */
} vshim_state_reg_t;

#define VSHIM_CAT_(a, b, c) a##b##_##c
#define VSHIM_CAT(a, b, c) VSHIM_CAT_(a, b, c)
#endif

#undef VSHIM_FN
#ifdef VSHIM_NS
#define VSHIM_FN(f) VSHIM_CAT(vshim_, VSHIM_NS, f)
#else
#define VSHIM_FN(f) vshim_##f
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Creates the model and applies reset (rst_ni low for 2 clock edges). NULL + err on mismatch. */
vshim_t *VSHIM_FN(new)(const gmmu_params_t *p, char *err, size_t errlen);
void VSHIM_FN(free)(vshim_t *v);
/* Output ports of the current cycle (Moore: valid before the inputs of the cycle are known). */
void VSHIM_FN(outputs)(vshim_t *v, gmmu_out_t *out);
/* Drives the inputs and applies one rising edge. cycle = simulated cycle number of this edge
 * (used as the waveform timestamp; skipped idle cycles appear as gaps). */
void VSHIM_FN(step)(vshim_t *v, const gmmu_in_t *in, uint64_t cycle);
/* FST waveform of every signal from now on; 0 on success. with_ref: the FST also has the
 * reference engine's outputs (scope TOP.model, same names and widths as the RTL's output ports),
 * one diff bit per element of each port (TOP.diff) and TOP.mismatch, written from the values
 * given to vshim_trace_ref before each step (docs/cosim.md, "Waveforms"). */
int VSHIM_FN(trace_open)(vshim_t *v, const char *path, int with_ref);
/* The reference engine's outputs before and after the edge of the next step (copied). */
void VSHIM_FN(trace_ref)(vshim_t *v, const gmmu_out_t *before, const gmmu_out_t *after);
void VSHIM_FN(trace_close)(vshim_t *v);
/* 1 once an assertion of the model failed (a Verilator %Error line names it on stdout; the model
 * runs on, with the behaviour of the RTL), else 0. docs/cosim.md "RTL assertions". */
int VSHIM_FN(failed)(const vshim_t *v);
/* The name table of the model's registered state (rows, *n), or NULL + err when this shim was
 * built without it (the normal model: make sim-state builds the one with public _q signals). */
const vshim_state_reg_t *VSHIM_FN(state_table)(size_t *n, char *err, size_t errlen);
/* Bits [64 * word + 63 : 64 * word] of element i of row r of the table (word 0 for a signal of
 * up to 64 bits). 0, or -1 if the signal is not in the model (err names it). */
int VSHIM_FN(state_get)(vshim_t *v, size_t r, uint32_t i, uint32_t word, uint64_t *val, char *err,
                        size_t errlen);
/* The parameters this model was compiled with. */
void VSHIM_FN(built_params)(gmmu_params_t *p);

#ifdef __cplusplus
}
#endif
