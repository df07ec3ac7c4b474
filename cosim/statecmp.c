#include "statecmp.h"

#include <stdlib.h>

struct scmp {
    engine_t *exp, *act;
    const vshim_state_reg_t *tab;
    size_t n;
    size_t *rows; /* rows of tab that are compared */
    size_t nrows, elems, skipped;
};

/* 64-bit words of one element. */
static uint32_t words(const vshim_state_reg_t *t) {
    return (t->width + 63u) / 64u;
}

/* 1 if both engines give every word of every element of row r, 0 if one has no accessor for it,
 * -1 + err on an error (e.g. a signal of the table missing in the Verilated model). */
static int covered(scmp_t *s, size_t r, char *err, size_t errlen) {
    const vshim_state_reg_t *t = &s->tab[r];
    engine_t *const eng[2] = {s->exp, s->act};
    for (uint32_t i = 0; i < t->elems; i++) {
        for (uint32_t w = 0; w < words(t); w++) {
            for (int k = 0; k < 2; k++) {
                uint64_t v;
                const int rc = eng[k]->ops->state_get(eng[k], t, r, i, w, &v, err, errlen);
                if (rc != 0)
                    return rc < 0 ? -1 : 0;
            }
        }
    }
    return 1;
}

static void print_name(FILE *f, const vshim_state_reg_t *t) {
    fprintf(f, "  %s%s%s (%u bits x %u)\n", t->scope, t->scope[0] ? "." : "", t->name, t->width,
            t->elems);
}

scmp_t *scmp_new(engine_t *exp, engine_t *act, int partial, FILE *f, char *err, size_t errlen) {
    engine_t *owner = act->ops->state_table ? act : exp;
    if (!owner->ops->state_table || !exp->ops->state_get || !act->ops->state_get) {
        snprintf(err, errlen, "--state-compare: engines %s and %s cannot compare registers",
                 exp->ops->name, act->ops->name);
        return NULL;
    }
    scmp_t *s = calloc(1, sizeof(*s));
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->exp = exp;
    s->act = act;
    s->tab = owner->ops->state_table(owner, &s->n, err, errlen);
    s->rows = s->tab ? calloc(s->n ? s->n : 1, sizeof(*s->rows)) : NULL;
    if (!s->rows) {
        if (s->tab)
            snprintf(err, errlen, "out of memory");
        free(s);
        return NULL;
    }
    for (size_t r = 0; r < s->n; r++) {
        const int c = covered(s, r, err, errlen);
        if (c < 0) {
            scmp_free(s);
            return NULL;
        }
        if (c) {
            s->rows[s->nrows++] = r;
            s->elems += s->tab[r].elems;
            continue;
        }
        if (s->skipped++ == 0)
            fprintf(f, "gmmu-sim: --state-compare: registers of the RTL without a model "
                       "accessor (not compared):\n");
        print_name(f, &s->tab[r]);
    }
    if (s->skipped && !partial) {
        snprintf(err, errlen,
                 "--state-compare: %zu of %zu registers have no model accessor (listed above); "
                 "--state-compare-partial compares the other %zu",
                 s->skipped, s->n, s->nrows);
        scmp_free(s);
        return NULL;
    }
    return s;
}

/* "g_l1[1].u_l1.u_req.state_q[3]: expected (C model) 0x2, actual (RTL) 0x4" (a register wider
 * than 64 bits names the bits that differ, e.g. "ent_q[0][81:64]"). */
static void report(const scmp_t *s, const vshim_state_reg_t *t, uint32_t i, uint32_t w, uint64_t e,
                   uint64_t a, char *msg, size_t len) {
    char idx[16] = "", bits[24] = "";
    if (t->udims)
        snprintf(idx, sizeof(idx), "[%u]", i);
    if (t->width > 64) {
        const uint32_t hi = 64u * w + 63u < t->width - 1u ? 64u * w + 63u : t->width - 1u;
        snprintf(bits, sizeof(bits), "[%u:%u]", hi, 64u * w);
    }
    snprintf(msg, len, "%s%s%s%s%s: expected (%s) 0x%llx, actual (%s) 0x%llx", t->scope,
             t->scope[0] ? "." : "", t->name, idx, bits, s->exp->ops->label, (unsigned long long)e,
             s->act->ops->label, (unsigned long long)a);
}

int scmp_check(scmp_t *s, char *msg, size_t len) {
    for (size_t k = 0; k < s->nrows; k++) {
        const size_t r = s->rows[k];
        const vshim_state_reg_t *t = &s->tab[r];
        for (uint32_t i = 0; i < t->elems; i++) {
            for (uint32_t w = 0; w < words(t); w++) {
                uint64_t e = 0, a = 0;
                if (s->exp->ops->state_get(s->exp, t, r, i, w, &e, msg, len) != 0 ||
                    s->act->ops->state_get(s->act, t, r, i, w, &a, msg, len) != 0)
                    return -1;
                if (e != a) {
                    report(s, t, i, w, e, a, msg, len);
                    return 1;
                }
            }
        }
    }
    return 0;
}

void scmp_counts(const scmp_t *s, size_t *rows, size_t *elems, size_t *skipped) {
    *rows = s->nrows;
    *elems = s->elems;
    *skipped = s->skipped;
}

void scmp_free(scmp_t *s) {
    if (!s)
        return;
    free(s->rows);
    free(s);
}
