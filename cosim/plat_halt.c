/*
 * plat_halt.c - the bottom of the platform (see plat_int.h): simulated time, halting with the
 * statistics snapshot (every model reports into it: plat_model.h), error reports. Every other
 * platform file may call it; it calls only the model list (plat_models.c) below it.
 *
 * Failures found anywhere (inside a handler call too) halt the platform: the statistics are
 * frozen, every later step does nothing, device calls return without effect, so the handler
 * returns and plat_run returns the status. Nothing here exits the process.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <string.h>

#include "plat_int.h"

static double wall_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

uint64_t plat_now_ns(const plat_t *p) {
    /* floor(now * 1000 / mhz) without the product overflowing above 1.8e16 cycles */
    const uint64_t mhz = p->cfg->clock_mhz;
    return p->now / mhz * 1000ull + p->now % mhz * 1000ull / mhz;
}

void plat_clear_progress(plat_t *p) {
    if (p->progress_shown) {
        fprintf(stderr, "\r%79s\r", "");
        p->progress_shown = 0;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* halting and errors                                                                         */

int plat_halt(plat_t *p, int status, const char *result) {
    if (p->halted)
        return p->fin.status;
    plat_clear_progress(p);
    if (p->waves_open) {
        p->wave_eng->ops->wave_close(p->wave_eng);
        p->waves_open = 0;
    }
    p->halted = 1;
    p->st.cycles = p->now;
    p->st.clocked_cycles = p->clocked;
    p->fin.wall = wall_now() - ((double)p->t0.tv_sec + (double)p->t0.tv_nsec * 1e-9);
    p->fin.result = result;
    p->fin.status = status;
    /* the loop's own keys, then every model's (plat_model.h) */
    plat_stats_w_t *w = &p->fin.st;
    memset(w, 0, sizeof(*w));
    plat_stat(w, PLAT_ST_cycles, p->st.cycles);
    plat_stat(w, PLAT_ST_clocked_cycles, p->st.clocked_cycles);
    plat_stat(w, PLAT_ST_integrity_errors, p->st.integrity_errors);
    plat_stat(w, PLAT_ST_platform_errors, p->st.platform_errors);
    plat_stat(w, PLAT_ST_sim_time_ns, plat_now_ns(p));
    plat_stat(w, PLAT_ST_seed, p->o.seed);
    plat_stat(w, PLAT_ST_exit_status, (uint64_t)status);
    plat_models_stats(p, w);
    return status;
}

/* "gmmu-sim: <what> at cycle N: <message>" on stderr (the progress line cleared first). */
static void __attribute__((format(printf, 3, 0)))
report(plat_t *p, const char *what, const char *fmt, va_list ap) {
    plat_clear_progress(p);
    fprintf(stderr, "gmmu-sim: %s at cycle %llu: ", what, (unsigned long long)p->now);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
}

void plat_perr(plat_t *p, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report(p, "error", fmt, ap);
    va_end(ap);
}

void plat_platform_error(plat_t *p, const char *fmt, ...) {
    if (p->halted)
        return;
    va_list ap;
    va_start(ap, fmt);
    report(p, "platform error", fmt, ap);
    va_end(ap);
    p->st.platform_errors++;
    evr_print(&p->ring, stderr);
    plat_halt(p, PLAT_EXIT_PLATFORM, "FAIL (platform error)");
}
