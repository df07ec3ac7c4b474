/*
 * test_lockstep.h - lock-step attachment for the model scenarios of the cmocka tests: the
 * Verilated RTL (the configuration it was built for) takes the inputs the C model takes, cycle by
 * cycle, and every output port of both is compared in every cycle (cmp_outputs,
 * cosim/compare.c); the first difference fails the test with the port, the cycle and both values.
 * A scenario whose parameters differ from the built model's runs on the model alone and says so.
 * Used by test_asid_lockstep.c and test_co_lockstep.c (one program each).
 */
#ifndef TEST_LOCKSTEP_H
#define TEST_LOCKSTEP_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare.h"
#include "test_cmodel_harness.h"
#include "vshim.h"

typedef struct {
    th_t *h;
    vshim_t *v;
    unsigned cycles; /* compared cycles */
} ls_t;

/* before each model edge: compare the outputs of the cycle, then clock the RTL with its inputs */
static void ls_cycle(void *ctx, const gmmu_out_t *out) {
    ls_t *l = ctx;
    gmmu_out_t r;
    memset(&r, 0, sizeof(r));
    vshim_outputs(l->v, &r);
    cmp_diff_t d;
    if (cmp_outputs(&l->h->p, out, &r, &d))
        fail_msg("lock-step mismatch at cycle %llu: %s expected (C model) 0x%llx, actual (RTL) "
                 "0x%llx (%u fields differ)",
                 (unsigned long long)l->h->cycle, d.signal, (unsigned long long)d.expected,
                 (unsigned long long)d.actual, d.count);
    vshim_step(l->v, &l->h->in, l->h->cycle);
    l->cycles++;
}

static void ls_attach(th_t *h) {
    gmmu_params_t built;
    vshim_built_params(&built);
    if (memcmp(&built, &h->p, sizeof(built)) != 0) {
        printf("  (num_asids = %u: model only, the RTL is built with %u)\n", h->p.num_asids,
               built.num_asids);
        return;
    }
    ls_t *l = calloc(1, sizeof(*l));
    assert_non_null(l);
    char err[256];
    l->h = h;
    l->v = vshim_new(&h->p, err, sizeof(err));
    if (!l->v)
        fail_msg("vshim_new: %s", err);
    h->ctx = l;
    h->on_cycle = ls_cycle;
}

static void ls_detach(th_t *h) {
    ls_t *l = h->ctx;
    if (!l)
        return;
    printf("  lock-step: %u cycles, RTL = C model on every output port\n", l->cycles);
    assert_int_equal(l->cycles, h->cycle); /* every cycle of the scenario was compared */
    vshim_free(l->v);
    free(l);
    h->ctx = NULL;
    h->on_cycle = NULL;
}

#endif
