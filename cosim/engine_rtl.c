/*
 * engine_rtl.c - the Verilator model of gmmu_top (vshim.h) as an engine (engine.h). The model
 * linked into the binary is built for one parameter set; create refuses any other.
 */
#include <stdlib.h>

#include "config.h"
#include "engine.h"
#include "vshim.h"

typedef struct {
    engine_t head;
    vshim_t *v;
} engine_rtl_t;

static engine_rtl_t *rtl(engine_t *e) {
    return (engine_rtl_t *)e;
}

static engine_t *rtl_create(const engine_args_t *a, char *err, size_t errlen) {
    gmmu_params_t built;
    vshim_built_params(&built);
    char why[256];
    if (cfg_rtl_equal(a->prm, &built, why, sizeof(why)) != 0) {
        snprintf(err, errlen,
                 "%s: the Verilator model linked into this binary was built for other RTL "
                 "parameters (%s); use the gmmu-sim built for this configuration (make sim "
                 "CONFIG=<name>) or --engine cmodel",
                 a->cfg_path, why);
        return NULL;
    }
    engine_rtl_t *r = calloc(1, sizeof(*r));
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->head.ops = &engine_rtl_ops;
    r->v = vshim_new(a->prm, err, errlen);
    if (!r->v) {
        free(r);
        return NULL;
    }
    return &r->head;
}

static void rtl_outputs(engine_t *e, gmmu_out_t *out) {
    vshim_outputs(rtl(e)->v, out);
}

static void rtl_step(engine_t *e, const gmmu_in_t *in, uint64_t cycle) {
    vshim_step(rtl(e)->v, in, cycle);
}

static int rtl_wave_open(engine_t *e, const char *path) {
    return vshim_trace_open(rtl(e)->v, path);
}

static void rtl_wave_close(engine_t *e) {
    vshim_trace_close(rtl(e)->v);
}

static const vshim_state_reg_t *rtl_state_table(engine_t *e, size_t *n, char *err, size_t errlen) {
    (void)e;
    return vshim_state_table(n, err, errlen);
}

static int rtl_state_get(engine_t *e, const vshim_state_reg_t *r, size_t row, uint32_t i,
                         uint32_t word, uint64_t *val, char *err, size_t errlen) {
    (void)r;
    return vshim_state_get(rtl(e)->v, row, i, word, val, err, errlen);
}

static void rtl_free(engine_t *e) {
    vshim_free(rtl(e)->v); /* closes an open waveform */
    free(e);
}

const engine_ops_t engine_rtl_ops = {
    .name = "rtl",
    .label = "RTL",
    .create = rtl_create,
    .outputs = rtl_outputs,
    .step = rtl_step,
    .quiet = NULL,
    .dump = NULL,
    .wave_open = rtl_wave_open,
    .wave_close = rtl_wave_close,
    .violations = NULL,
    .state_table = rtl_state_table,
    .state_get = rtl_state_get,
    .free = rtl_free,
};
