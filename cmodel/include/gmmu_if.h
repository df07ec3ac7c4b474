/*
 * gmmu_if.h - the cycle interface of gmmu_top, shared by every engine.
 *
 * gmmu_in_t holds the value of every input port of gmmu_top for one cycle, gmmu_out_t the value
 * of every output port. Every output is a function of registered state only (Moore), so a cycle is:
 *   out = engine_outputs();   harness computes in from out;   engine_step(in)  (one rising edge).
 * Arrays are indexed [sm][port]; only the first num_sm / num_ports entries are meaningful, the
 * rest must be zero in inputs and are ignored in outputs.
 * Bit-level layout of the flattened SystemVerilog ports is given in docs/microarch.md §2; the
 * port list itself is spec/ports.toml.
 */
#ifndef GMMU_IF_H
#define GMMU_IF_H

#include <stdint.h>

/* RTL-visible parameters: gmmu_params_t, generated from spec/params.toml (SystemVerilog parameters
 * of gmmu_top; legal ranges in docs/gen/params.md). */
#include "gmmu_params.h"

#define GMMU_MAX_SM GMMU_PARAM_NUM_SM_MAX
#define GMMU_MAX_PORTS GMMU_PARAM_NUM_PORTS_MAX

/* gmmu_in_t (every input port) and gmmu_out_t (every output port), generated from the port list
 * spec/ports.toml by scripts/gen_ports.py, with the port tables compare.c walks. */
#include "gmmu_ports.h"

#endif
