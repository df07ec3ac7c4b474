/*
 * plat_eng.c - the platform's engines in the cycle (see plat_int.h, docs/cosim.md "Lock-step
 * compare"): the outputs of a cycle read once and compared across the list, the mismatch report,
 * the clock edge of every engine (with the waveform's reference engine), --state-compare.
 */
#include "compare.h"
#include "plat_int.h"

/* 1 if the mismatch is reported (not in a waveform re-run, which goes on PLAT_WAVE_TAIL clocked
 * cycles, then stops silently: plat_clock_engines). */
static int mismatch_head(plat_t *p) {
    plat_clear_progress(p);
    p->gmmu.mismatches = 1;
    p->mismatch = 1;
    if (p->o.rerun) {
        if (!p->rerun_stop)
            p->rerun_stop = p->clocked + PLAT_WAVE_TAIL;
        return 0;
    }
    return 1;
}

static void mismatch_tail(plat_t *p) {
    evr_print(&p->ring, stderr);
    if (p->waves_open) {
        p->wave_eng->ops->wave_close(p->wave_eng);
        p->waves_open = 0;
        fprintf(stderr, "  waveform of the whole run: %s\n", p->o.waves_path);
        p->mismatch = 2; /* covered */
    }
    plat_halt(p, 1, "FAIL (mismatch)");
}

/* --state-compare: a register differs (msg names it) or cannot be read (err = 1). */
static void on_state_mismatch(plat_t *p, const char *msg, int err) {
    if (!mismatch_head(p))
        return;
    fprintf(stderr, "\n%s at cycle %llu (clocked cycle %llu): %s\n",
            err ? "STATE COMPARE ERROR" : "STATE MISMATCH", (unsigned long long)p->now,
            (unsigned long long)p->clocked, msg);
    mismatch_tail(p);
}

static void on_mismatch(plat_t *p, unsigned i, const cmp_diff_t *d) {
    if (!mismatch_head(p))
        return;
    const char *exp = p->eng[0]->ops->label, *act = p->eng[i]->ops->label;
    fprintf(stderr,
            "\nMISMATCH at cycle %llu (clocked cycle %llu): %s: expected (%s) 0x%llx, actual "
            "(%s) 0x%llx\n",
            (unsigned long long)p->now, (unsigned long long)p->clocked, d->signal, exp,
            (unsigned long long)d->expected, act, (unsigned long long)d->actual);
    if (d->count > 1) {
        fprintf(stderr, "  all %u differing outputs of this cycle:\n", d->count);
        cmp_print_all(&p->prm, &p->eout[0], &p->eout[i], exp, act, stderr);
    }
    mismatch_tail(p);
}

/* An engine's own assertion failed (the RTL's SVA: the %Error lines above name it). */
static void on_failed(plat_t *p, unsigned i) {
    if (!mismatch_head(p))
        return;
    fprintf(stderr,
            "\nASSERTION FAILED at cycle %llu (clocked cycle %llu): %s (the %%Error lines above "
            "name the assertion)\n",
            (unsigned long long)p->now, (unsigned long long)p->clocked, p->eng[i]->ops->label);
    mismatch_tail(p);
}

const gmmu_out_t *plat_outputs(plat_t *p) {
    if (p->out_fresh || p->halted)
        return p->out;
    for (unsigned i = 0; i < p->neng; i++)
        p->eng[i]->ops->outputs(p->eng[i], &p->eout[i]);
    p->out_fresh = 1;
    for (unsigned i = 0; i < p->neng; i++) {
        if (p->eng[i]->ops->failed && p->eng[i]->ops->failed(p->eng[i])) {
            on_failed(p, i);
            return p->out;
        }
    }
    for (unsigned i = 1; i < p->neng; i++) {
        cmp_diff_t d;
        if (cmp_outputs(&p->prm, &p->eout[0], &p->eout[i], &d)) {
            on_mismatch(p, i, &d);
            return p->out;
        }
    }
    if (p->scmp && p->state_due) {
        char msg[512];
        const int r = scmp_check(p->scmp, msg, sizeof(msg));
        p->state_due = 0;
        if (r != 0)
            on_state_mismatch(p, msg, r < 0);
    }
    return p->out;
}

/* One edge of every engine; with an open waveform that holds a reference engine's outputs, the
 * reference steps first so that the waveform engine gets its outputs before and after the edge
 * (engines are independent: the order of their steps changes nothing). */
static void step_engines(plat_t *p) {
    engine_t *const ref = p->waves_open ? p->wave_ref : NULL;
    if (ref) {
        gmmu_out_t before, after;
        ref->ops->outputs(ref, &before);
        ref->ops->step(ref, &p->in, p->now);
        ref->ops->outputs(ref, &after);
        p->wave_eng->ops->wave_ref(p->wave_eng, &before, &after);
    }
    for (unsigned i = 0; i < p->neng; i++)
        if (p->eng[i] != ref)
            p->eng[i]->ops->step(p->eng[i], &p->in, p->now);
}

void plat_clock_engines(plat_t *p) {
    if (p->rerun_stop && p->clocked >= p->rerun_stop) { /* the waveform's tail is written */
        plat_halt(p, 1, "FAIL (mismatch)");
        return;
    }
    if (p->o.rerun && !p->waves_open && p->clocked >= p->o.rerun_from && p->wave_eng) {
        if (p->wave_eng->ops->wave_open(p->wave_eng, p->o.waves_path, p->wave_ref != NULL) == 0)
            p->waves_open = 1;
    }
    step_engines(p);
    p->out_fresh = 0;
    p->state_due = 1;
    p->now++;
    p->clocked++;
}

int plat_mismatch_needs_wave(const plat_t *p, uint64_t *clocked) {
    *clocked = p->clocked;
    return p->mismatch == 1 && !p->o.rerun && p->wave_eng;
}
