/*
 * engine_rtl.c - the Verilator model of gmmu_top (vshim.h) as an engine (engine.h). The model
 * linked into the binary is built for one parameter set; create refuses any other.
 *
 * The same code serves every Verilated model of gmmu_top: engine_netlist.c includes this file
 * with the shim's name space (VSHIM_NS), the ops' symbol, name and label and the binary that
 * links the model defined first (ENGINE_RTL_*); without them it is the RTL engine.
 */
#include <stdlib.h>

#include "config.h"
#include "engine.h"
#include "vshim.h"

#ifndef ENGINE_RTL_OPS
#define ENGINE_RTL_OPS engine_rtl_ops
#define ENGINE_RTL_NAME "rtl"
#define ENGINE_RTL_LABEL "RTL"
#define ENGINE_RTL_BINARY "gmmu-sim" /* build/<config>/ name of the binary with the model */
#define ENGINE_RTL_TARGET "sim"      /* its make target */
#define ENGINE_RTL_STATE 1           /* the model can have a --state-compare table */
#endif

typedef struct {
    engine_t head;
    vshim_t *v;
} engine_rtl_t;

static engine_rtl_t *rtl(engine_t *e) {
    return (engine_rtl_t *)e;
}

static engine_t *rtl_create(const engine_args_t *a, char *err, size_t errlen) {
    gmmu_params_t built;
    VSHIM_FN(built_params)(&built);
    char why[256];
    if (built.num_sm == 0) { /* a model has at least one SM: none is linked into this binary */
        snprintf(err, errlen,
                 "%s: this binary has no " ENGINE_RTL_LABEL " model linked in; use "
                 "build/<config>/" ENGINE_RTL_BINARY " (make " ENGINE_RTL_TARGET " CONFIG=<name>)",
                 a->cfg_path);
        return NULL;
    }
    if (cfg_rtl_equal(a->prm, &built, why, sizeof(why)) != 0) {
        snprintf(err, errlen,
                 "%s: the " ENGINE_RTL_LABEL " model linked into this binary was built for other "
                 "RTL parameters (%s); use the " ENGINE_RTL_BINARY " built for this configuration "
                 "(make " ENGINE_RTL_TARGET " CONFIG=<name>) or --engine cmodel",
                 a->cfg_path, why);
        return NULL;
    }
    engine_rtl_t *r = calloc(1, sizeof(*r));
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->head.ops = &ENGINE_RTL_OPS;
    r->v = VSHIM_FN(new)(a->prm, err, errlen);
    if (!r->v) {
        free(r);
        return NULL;
    }
    return &r->head;
}

static void rtl_outputs(engine_t *e, gmmu_out_t *out) {
    VSHIM_FN(outputs)(rtl(e)->v, out);
}

static void rtl_step(engine_t *e, const gmmu_in_t *in, uint64_t cycle) {
    VSHIM_FN(step)(rtl(e)->v, in, cycle);
}

static int rtl_wave_open(engine_t *e, const char *path, int with_ref) {
    return VSHIM_FN(trace_open)(rtl(e)->v, path, with_ref);
}

static void rtl_wave_ref(engine_t *e, const gmmu_out_t *before, const gmmu_out_t *after) {
    VSHIM_FN(trace_ref)(rtl(e)->v, before, after);
}

static int rtl_failed(const engine_t *e) {
    return VSHIM_FN(failed)(((const engine_rtl_t *)e)->v);
}

static void rtl_wave_close(engine_t *e) {
    VSHIM_FN(trace_close)(rtl(e)->v);
}

#if ENGINE_RTL_STATE
static const vshim_state_reg_t *rtl_state_table(engine_t *e, size_t *n, char *err, size_t errlen) {
    (void)e;
    return VSHIM_FN(state_table)(n, err, errlen);
}

static int rtl_state_get(engine_t *e, const vshim_state_reg_t *r, size_t row, uint32_t i,
                         uint32_t word, uint64_t *val, char *err, size_t errlen) {
    (void)r;
    return VSHIM_FN(state_get)(rtl(e)->v, row, i, word, val, err, errlen);
}
#else
#define rtl_state_table NULL
#define rtl_state_get NULL
#endif

static void rtl_free(engine_t *e) {
    VSHIM_FN(free)(rtl(e)->v); /* closes an open waveform */
    free(e);
}

const engine_ops_t ENGINE_RTL_OPS = {
    .name = ENGINE_RTL_NAME,
    .label = ENGINE_RTL_LABEL,
    .create = rtl_create,
    .outputs = rtl_outputs,
    .step = rtl_step,
    .quiet = NULL,
    .dump = NULL,
    .wave_open = rtl_wave_open,
    .wave_close = rtl_wave_close,
    .wave_ref = rtl_wave_ref,
    .violations = NULL,
    .failed = rtl_failed,
    .state_table = rtl_state_table,
    .state_get = rtl_state_get,
    .free = rtl_free,
};
