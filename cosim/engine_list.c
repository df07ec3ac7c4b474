/*
 * engine_list.c - the registered engines and the --engine value (engine.h).
 * A new engine adds its ops to k_engines (and its file to COSIM_MODS in mk/cosim.mk).
 */
#include <string.h>

#include "engine.h"

static const engine_ops_t *const k_engines[] = {&engine_cmodel_ops, &engine_rtl_ops};
#define N_ENGINES (sizeof(k_engines) / sizeof(k_engines[0]))

static const engine_ops_t *find(const char *name, size_t len) {
    for (size_t i = 0; i < N_ENGINES; i++)
        if (strlen(k_engines[i]->name) == len && strncmp(k_engines[i]->name, name, len) == 0)
            return k_engines[i];
    return NULL;
}

static void names(char *buf, size_t len) {
    buf[0] = '\0';
    for (size_t i = 0; i < N_ENGINES; i++) {
        const size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? ", " : "", k_engines[i]->name);
    }
}

int engine_list_parse(const char *spec, engine_list_t *l, char *err, size_t errlen) {
    memset(l, 0, sizeof(*l));
    if (strcmp(spec, "cosim") == 0) {
        l->ops[l->n++] = &engine_cmodel_ops;
        l->ops[l->n++] = &engine_rtl_ops;
        return 0;
    }
    if (!strchr(spec, ',')) {
        l->ops[0] = find(spec, strlen(spec));
        l->n = l->ops[0] ? 1 : 0;
        if (!l->n)
            snprintf(err, errlen, "--engine %s: expected cosim, cmodel or rtl", spec);
        return l->n ? 0 : -1;
    }
    char all[128];
    names(all, sizeof(all));
    for (const char *s = spec;;) {
        const char *comma = strchr(s, ',');
        const size_t len = comma ? (size_t)(comma - s) : strlen(s);
        const engine_ops_t *o = find(s, len);
        if (!o || l->n == ENGINE_MAX) {
            snprintf(err, errlen,
                     "--engine %s: expected cosim, cmodel, rtl or a list of at most %d of "
                     "(%s) separated by commas, the first driving",
                     spec, ENGINE_MAX, all);
            return -1;
        }
        l->ops[l->n++] = o;
        if (!comma)
            return 0;
        s = comma + 1;
    }
}

int engine_list_has_waves(const engine_list_t *l) {
    for (unsigned i = 0; i < l->n; i++)
        if (l->ops[i]->wave_open)
            return 1;
    return 0;
}

int engine_list_all_quiet(const engine_list_t *l) {
    for (unsigned i = 0; i < l->n; i++)
        if (!l->ops[i]->quiet)
            return 0;
    return l->n > 0;
}

int engine_list_create(const engine_list_t *l, const engine_args_t *a, engine_t **e, char *err,
                       size_t errlen) {
    for (unsigned i = 0; i < l->n; i++) {
        e[i] = l->ops[i]->create(a, err, errlen);
        if (!e[i]) {
            while (i > 0) {
                engine_free(e[--i]);
                e[i] = NULL;
            }
            return -1;
        }
    }
    return 0;
}
