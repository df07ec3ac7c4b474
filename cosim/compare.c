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

static void run(cmp_ctx_t *c, const gmmu_out_t *e, const gmmu_out_t *a) {
    const int S = (int)c->p->num_sm, P = (int)c->p->num_ports;
    for (int s = 0; s < S; s++)
        diff(c, "req_ready", s, -1, e->req_ready[s], a->req_ready[s]);
    for (int s = 0; s < S; s++)
        for (int q = 0; q < P; q++) {
            diff(c, "hit_valid", s, q, e->hit_valid[s][q], a->hit_valid[s][q]);
            diff(c, "hit_id", s, q, e->hit_id[s][q], a->hit_id[s][q]);
            diff(c, "hit_ppn", s, q, e->hit_ppn[s][q], a->hit_ppn[s][q]);
        }
    for (int s = 0; s < S; s++) {
        diff(c, "miss_valid", s, -1, e->miss_valid[s], a->miss_valid[s]);
        diff(c, "miss_id", s, -1, e->miss_id[s], a->miss_id[s]);
        diff(c, "miss_ppn", s, -1, e->miss_ppn[s], a->miss_ppn[s]);
        diff(c, "miss_fatal", s, -1, e->miss_fatal[s], a->miss_fatal[s]);
    }
    diff(c, "mem_req_valid", -1, -1, e->mem_req_valid, a->mem_req_valid);
    diff(c, "mem_req_addr", -1, -1, e->mem_req_addr, a->mem_req_addr);
    diff(c, "mem_req_id", -1, -1, e->mem_req_id, a->mem_req_id);
    diff(c, "fb_wr_valid", -1, -1, e->fb_wr_valid, a->fb_wr_valid);
    diff(c, "fb_wr_addr", -1, -1, e->fb_wr_addr, a->fb_wr_addr);
    for (int k = 0; k < 8; k++)
        diff(c, "fb_wr_data", k, -1, e->fb_wr_data[k], a->fb_wr_data[k]);
    diff(c, "csr_rvalid", -1, -1, e->csr_rvalid, a->csr_rvalid);
    diff(c, "csr_rdata", -1, -1, e->csr_rdata, a->csr_rdata);
    diff(c, "irq", -1, -1, e->irq, a->irq);
    diff(c, "idle", -1, -1, e->idle, a->idle);
    diff(c, "ev", -1, -1, e->ev, a->ev);
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
