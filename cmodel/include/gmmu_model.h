/*
 * gmmu_model.h - the cycle-accurate C golden model of gmmu_top, written by hand from
 * docs/microarch.md. Never includes or links Verilator output.
 */
#ifndef GMMU_MODEL_H
#define GMMU_MODEL_H

#include "gmmu_if.h"
#include <stddef.h>
#include <stdio.h>

typedef struct gmmu_model gmmu_model_t;

/* Checks every parameter against its legal range (message names the config key, e.g.
 * "l1_entries: 12 is not a power of two"); returns 0 if legal, -1 with err otherwise. */
int gmmu_params_check(const gmmu_params_t *p, char *err, size_t errlen);
/* New model in reset state. NULL + err if the parameters are illegal or memory runs out. */
gmmu_model_t *gmmu_model_new(const gmmu_params_t *p, char *err, size_t errlen);
void gmmu_model_free(gmmu_model_t *m);
/* Output ports for the current cycle (function of state only). */
void gmmu_model_outputs(const gmmu_model_t *m, gmmu_out_t *out);
/* 1 if the state is quiet: a rising edge with idle inputs (no req_valid, no mem_rsp_valid, no
 * csr_valid; any mem_req_ready, fb_wr_ready, time) leaves every register unchanged, so the
 * outputs stay the same. Not an RTL port: the cmodel engine uses it to skip cycles in which the
 * GMMU only waits for page-table reads (docs/cmodel.md). Conservative: 0 does not mean a change. */
int gmmu_model_quiet(const gmmu_model_t *m);
/* One rising edge with these inputs. */
void gmmu_model_step(gmmu_model_t *m, const gmmu_in_t *in);
/* Invariant violations of docs/microarch.md §11 seen so far (0 = none); the first message. */
unsigned gmmu_model_violations(const gmmu_model_t *m, char *first, size_t len);
/* Human-readable dump of every block's state (watchdog, mismatch reports). */
void gmmu_model_dump(const gmmu_model_t *m, FILE *f);

/* --state-compare (docs/cmodel.md, "State accessors"): the model's value of bits
 * [64 * word + 63 : 64 * word] (word 0 for registers of up to 64 bits) of element i of the
 * registered signal reg (an RTL _q name) of the RTL instance scope (path below gmmu_top, "" for
 * gmmu_top itself, e.g. "g_l1[1].u_l1.u_req"), converted to the RTL's encoding. 0, or -1 when
 * the model has no accessor for that register (it is then listed, not compared). */
int gmmu_model_state_get(const gmmu_model_t *m, const char *scope, const char *reg, uint32_t i,
                         uint32_t word, uint64_t *val);

#endif
