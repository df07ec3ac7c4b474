/*
 * engine_list.c - the --engine value (engine.h): a list of engines of a registry.
 */
#include <string.h>

#include "engine.h"

static const engine_ops_t *find(const engine_registry_t *r, const char *name, size_t len) {
    for (size_t i = 0; i < r->n; i++)
        if (strlen(r->ops[i]->name) == len && strncmp(r->ops[i]->name, name, len) == 0)
            return r->ops[i];
    return NULL;
}

static void names(const engine_registry_t *r, char *buf, size_t len) {
    buf[0] = '\0';
    for (size_t i = 0; i < r->n; i++) {
        const size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? ", " : "", r->ops[i]->name);
    }
}

int engine_list_parse(const engine_registry_t *r, const char *spec, engine_list_t *l, char *err,
                      size_t errlen) {
    memset(l, 0, sizeof(*l));
    if (strcmp(spec, "cosim") == 0) {
        static const char *const cosim[] = {"cmodel", "rtl"};
        for (unsigned i = 0; i < 2; i++)
            if ((l->ops[l->n++] = find(r, cosim[i], strlen(cosim[i]))) == NULL) {
                snprintf(err, errlen, "--engine cosim: engine %s is not registered", cosim[i]);
                return -1;
            }
        return 0;
    }
    if (!strchr(spec, ',')) {
        l->ops[0] = find(r, spec, strlen(spec));
        l->n = l->ops[0] ? 1 : 0;
        if (!l->n)
            snprintf(err, errlen, "--engine %s: expected cosim, cmodel or rtl", spec);
        return l->n ? 0 : -1;
    }
    char all[128];
    names(r, all, sizeof(all));
    for (const char *s = spec;;) {
        const char *comma = strchr(s, ',');
        const size_t len = comma ? (size_t)(comma - s) : strlen(s);
        const engine_ops_t *o = find(r, s, len);
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
