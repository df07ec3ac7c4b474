/*
 * engine_cmodel.c - the C golden model (cmodel/) as an engine (engine.h).
 */
#include <stdlib.h>

#include "engine.h"
#include "gmmu_model.h"

typedef struct {
    engine_t head;
    gmmu_model_t *m;
} engine_cmodel_t;

static gmmu_model_t *model(const engine_t *e) {
    return ((const engine_cmodel_t *)e)->m;
}

static engine_t *cm_create(const engine_args_t *a, char *err, size_t errlen) {
    engine_cmodel_t *c = calloc(1, sizeof(*c));
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->head.ops = &engine_cmodel_ops;
    c->m = gmmu_model_new(a->prm, err, errlen);
    if (!c->m) {
        free(c);
        return NULL;
    }
    return &c->head;
}

static void cm_outputs(engine_t *e, gmmu_out_t *out) {
    gmmu_model_outputs(model(e), out);
}

static void cm_step(engine_t *e, const gmmu_in_t *in, uint64_t cycle) {
    (void)cycle;
    gmmu_model_step(model(e), in);
}

static int cm_quiet(const engine_t *e) {
    return gmmu_model_quiet(model(e));
}

static void cm_dump(const engine_t *e, FILE *f) {
    gmmu_model_dump(model(e), f);
}

static unsigned cm_violations(const engine_t *e, char *first, size_t len) {
    return gmmu_model_violations(model(e), first, len);
}

static int cm_state_get(engine_t *e, const vshim_state_reg_t *r, size_t row, uint32_t i,
                        uint32_t word, uint64_t *val, char *err, size_t errlen) {
    (void)row;
    (void)err;
    (void)errlen;
    return gmmu_model_state_get(model(e), r->scope, r->name, i, word, val) == 0 ? 0 : 1;
}

static void cm_free(engine_t *e) {
    gmmu_model_free(model(e));
    free(e);
}

const engine_ops_t engine_cmodel_ops = {
    .name = "cmodel",
    .label = "C model",
    .create = cm_create,
    .outputs = cm_outputs,
    .step = cm_step,
    .quiet = cm_quiet,
    .dump = cm_dump,
    .wave_open = NULL,
    .wave_close = NULL,
    .wave_ref = NULL,
    .violations = cm_violations,
    .state_table = NULL,
    .state_get = cm_state_get,
    .free = cm_free,
};
