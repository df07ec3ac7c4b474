/*
 * compare.h - lock-step comparison of two gmmu_out_t (module cmp_): every field, for the
 * configured num_sm / num_ports only. The fields are those of the generated port table
 * (GMMU_OUT_PORT_TABLE, spec/ports.toml): a new output port is compared without an edit here.
 */
#ifndef COSIM_COMPARE_H
#define COSIM_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gmmu_if.h"

typedef struct {
    char signal[48]; /* e.g. "hit_ppn[1][0]" */
    uint64_t expected, actual;
    unsigned count; /* number of differing fields in this cycle */
} cmp_diff_t;

/* 0 if every field is equal; else 1 with the first difference (in the port order of
 * spec/ports.toml; ports of one replication loop are compared index by index). */
int cmp_outputs(const gmmu_params_t *p, const gmmu_out_t *exp, const gmmu_out_t *act,
                cmp_diff_t *d);
/* Prints every differing field, one per line, naming the engines (labels, e.g. "C model"). */
void cmp_print_all(const gmmu_params_t *p, const gmmu_out_t *exp, const gmmu_out_t *act,
                   const char *exp_label, const char *act_label, FILE *f);

#endif
