/*
 * statecmp.h - gmmu-sim --state-compare (module scmp_, docs/cosim.md): after the port
 * comparison of every clocked cycle, every registered signal (_q) of every RTL instance, listed
 * by the name table generated from the Verilated model (scripts/gen_state_table.py), is compared
 * with the C model's value (its hand-written accessors, gmmu_model_state_get); the first
 * difference is reported naming the register, e.g.
 *   g_l1[1].u_l1.u_req.state_q[3]: expected (C model) 2, actual (RTL) 4
 */
#ifndef COSIM_STATECMP_H
#define COSIM_STATECMP_H

#include <stddef.h>
#include <stdio.h>

#include "engine.h"

typedef struct scmp scmp_t;

/* Compares engine act's table (or exp's, if act has none) between exp and act. A register that
 * one of them cannot give (no accessor, wider than 64 bits) is listed on f by name; with
 * partial = 0 that is an error, with partial = 1 the others are compared. NULL + err. */
scmp_t *scmp_new(engine_t *exp, engine_t *act, int partial, FILE *f, char *err, size_t errlen);
/* 0 if every compared register is equal; 1 + msg (the first difference, in table order); -1 +
 * msg on an error reading a register. */
int scmp_check(scmp_t *s, char *msg, size_t len);
/* Registers (rows) and elements compared, and rows not compared. */
void scmp_counts(const scmp_t *s, size_t *rows, size_t *elems, size_t *skipped);
void scmp_free(scmp_t *s);

#endif
