/*
 * vshim.h - C interface of the Verilator model of gmmu_top (the only C++ in the project is
 * vshim.cpp). The Verilator model is built for one parameter set (configs/<name>.cfg);
 * vshim_new refuses any other.
 */
#ifndef GMMU_VSHIM_H
#define GMMU_VSHIM_H

#include "gmmu_if.h"
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vshim vshim_t;

/* Creates the model and applies reset (rst_ni low for 2 clock edges). NULL + err on mismatch. */
vshim_t *vshim_new(const gmmu_params_t *p, char *err, size_t errlen);
void vshim_free(vshim_t *v);
/* Output ports of the current cycle (Moore: valid before the inputs of the cycle are known). */
void vshim_outputs(vshim_t *v, gmmu_out_t *out);
/* Drives the inputs and applies one rising edge. cycle = simulated cycle number of this edge
 * (used as the waveform timestamp; skipped idle cycles appear as gaps). */
void vshim_step(vshim_t *v, const gmmu_in_t *in, uint64_t cycle);
/* FST waveform of every signal from now on; 0 on success. */
int vshim_trace_open(vshim_t *v, const char *path);
void vshim_trace_close(vshim_t *v);
/* The parameters this model was compiled with. */
void vshim_built_params(gmmu_params_t *p);

#ifdef __cplusplus
}
#endif
#endif
