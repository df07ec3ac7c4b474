#include "compare.h"

#include <string.h>

typedef struct {
    const gmmu_params_t *p;
    cmp_diff_t *d;
    FILE *f;
    const char *exp_label, *act_label;
} cmp_ctx_t;

static void diff(cmp_ctx_t *c, const char *name, int i, int j, uint64_t e, uint64_t a) {
    if (e == a)
        return;
    char sig[48];
    if (i < 0)
        snprintf(sig, sizeof(sig), "%s", name);
    else if (j < 0)
        snprintf(sig, sizeof(sig), "%s[%d]", name, i);
    else
        snprintf(sig, sizeof(sig), "%s[%d][%d]", name, i, j);
    if (c->d->count == 0) {
        snprintf(c->d->signal, sizeof(c->d->signal), "%s", sig);
        c->d->expected = e;
        c->d->actual = a;
    }
    c->d->count++;
    if (c->f)
        fprintf(c->f, "    %-20s expected (%s) 0x%llx  actual (%s) 0x%llx\n", sig, c->exp_label,
                (unsigned long long)e, c->act_label, (unsigned long long)a);
}

/* The output ports, generated from spec/ports.toml (gmmu_ports.h). */
static const gmmu_port_desc_t k_out[] = GMMU_OUT_PORT_TABLE;
#define N_OUT (sizeof(k_out) / sizeof(k_out[0]))

/* Element i (struct index) of a field, widened to 64 bits. */
static uint64_t elem(const gmmu_out_t *o, const gmmu_port_desc_t *f, unsigned i) {
    const unsigned char *b = (const unsigned char *)o + f->offset + (size_t)i * f->elem;
    uint8_t v8;
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;
    switch (f->elem) {
    case 1:
        memcpy(&v8, b, 1);
        return v8;
    case 2:
        memcpy(&v16, b, 2);
        return v16;
    case 4:
        memcpy(&v32, b, 4);
        return v32;
    default:
        memcpy(&v64, b, 8);
        return v64;
    }
}

/* Elements of a field in use for the configured num_sm / num_ports. */
static unsigned n_used(const gmmu_params_t *p, const gmmu_port_desc_t *f) {
    switch (f->rep) {
    case GMMU_REP_SM:
        return p->num_sm;
    case GMMU_REP_SM_PORT:
        return p->num_sm * p->num_ports;
    case GMMU_REP_COUNT:
        return f->count;
    default:
        return 1;
    }
}

/* Element k (of n_used) of field f: its index in the struct and its printed indices. */
static void compare_elem(cmp_ctx_t *c, const gmmu_port_desc_t *f, unsigned k, const gmmu_out_t *e,
                         const gmmu_out_t *a) {
    const unsigned P = c->p->num_ports;
    int i = -1, j = -1;
    unsigned at = 0;
    if (f->rep == GMMU_REP_SM_PORT) {
        i = (int)(k / P);
        j = (int)(k % P);
        at = (unsigned)i * GMMU_MAX_PORTS + (unsigned)j;
    } else if (f->rep != GMMU_REP_ONE) {
        i = (int)k;
        at = k;
    }
    diff(c, f->name, i, j, elem(e, f, at), elem(a, f, at));
}

/* Ports of one loop (consecutive ports with the same replication) share the index loop. */
static void run(cmp_ctx_t *c, const gmmu_out_t *e, const gmmu_out_t *a) {
    for (size_t f = 0; f < N_OUT;) {
        size_t end = f + 1;
        while (end < N_OUT && k_out[end].loop == k_out[f].loop)
            end++;
        const unsigned n = n_used(c->p, &k_out[f]);
        for (unsigned k = 0; k < n; k++)
            for (size_t g = f; g < end; g++)
                compare_elem(c, &k_out[g], k, e, a);
        f = end;
    }
}

int cmp_outputs(const gmmu_params_t *p, const gmmu_out_t *exp, const gmmu_out_t *act,
                cmp_diff_t *d) {
    memset(d, 0, sizeof(*d));
    cmp_ctx_t c = {p, d, NULL, "", ""};
    run(&c, exp, act);
    return d->count ? 1 : 0;
}

void cmp_print_all(const gmmu_params_t *p, const gmmu_out_t *exp, const gmmu_out_t *act,
                   const char *exp_label, const char *act_label, FILE *f) {
    cmp_diff_t d;
    memset(&d, 0, sizeof(d));
    cmp_ctx_t c = {p, &d, f, exp_label, act_label};
    run(&c, exp, act);
}
