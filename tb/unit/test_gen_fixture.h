/*
 * test_gen_fixture.h - helper of the workload generators' cmocka tests (test_trace_gen_*.c):
 * runs one generator with its framework options and "k=v,k=v" parameters. Include after
 * <cmocka.h> and "gen.h".
 */
#ifndef GMMU_TEST_GEN_FIXTURE_H
#define GMMU_TEST_GEN_FIXTURE_H

#include <stdio.h>
#include <string.h>

/* Generates workload wl into path; params "k=v,k=v" (or NULL). Returns gen_run's status, the
 * error in g->err. */
static inline int tgen_run(gen_t *g, const char *wl, uint64_t size, uint64_t seed, uint32_t iters,
                           const char *params, const char *path) {
    memset(g, 0, sizeof(*g));
    g->o.size = size;
    g->o.seed = seed;
    g->o.iters = iters;
    g->o.window = 16;
    char buf[256], err[256];
    if (params) {
        snprintf(buf, sizeof(buf), "%s", params);
        for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
            if (gen_param_add(&g->o, t, err, sizeof(err)) != 0)
                fail_msg("%s", err);
    }
    return gen_run(g, gen_find(wl), path, 1);
}

#endif
