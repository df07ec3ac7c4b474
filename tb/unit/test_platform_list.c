/*
 * test_platform_list.c - cmocka tests of the platform's model list (plat_model.h, plat_models.c):
 * the next event is the earliest of the models', with each model's own filter; so is the
 * watchdog's timed work (wait_end); DMA completions
 * land through step_to; every key of the stats JSON is reported exactly once (the models' keys
 * plus the loop's own), in the documented order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "plat_int.h"

static plat_t *new_plat(void) {
    plat_t *p = calloc(1, sizeof(*p));
    assert_non_null(p);
    plat_models_init(p);
    p->wl.num_sm = 1;
    p->wl.clock_mhz = 1000;
    p->dq.clock_mhz = 1000;
    p->dq.gm = &p->gm;
    p->dq.hm = &p->hm;
    p->dq.ring = &p->ring;
    p->wd.cycles = 100000;
    return p;
}

static void free_plat(plat_t *p) {
    plat_models_free(p);
    free(p);
}

static void test_next_event(void **state) {
    (void)state;
    plat_t *p = new_plat();
    p->now = 50;
    /* only the watchdog: its check is due watchdog_cycles + 1 after its clock */
    assert_int_equal(plat_models_next_event(p), 100001);
    /* the chaos agent counts when on and ahead of now */
    p->ch.next = 400;
    assert_int_equal(plat_models_next_event(p), 100001);
    p->ch.period = 400;
    assert_int_equal(plat_models_next_event(p), 400);
    p->ch.next = 50;
    assert_int_equal(plat_models_next_event(p), 100001);
    /* the coalesce hook: the earliest pending command ahead of now */
    p->co.next[0] = 900;
    p->co.next[1] = 300;
    assert_int_equal(plat_models_next_event(p), 300);
    /* a scripted step */
    p->scr.nsteps = 1;
    p->scr.steps[0].cycle = 200;
    assert_int_equal(plat_models_next_event(p), 200);
    /* a PTE read response due: also at or before now (no cycle may be skipped) */
    assert_int_equal(gpumem_init(&p->gm, 0x1000, 1, 0x100000, 4, 10, 0, 1), 0);
    assert_int_equal(gpumem_accept(&p->gm, 30, 0x1000, 3), 0);
    assert_int_equal(plat_models_next_event(p), 40);
    free_plat(p);
}

/* The watchdog's timed work (wait_end): none on an idle platform (a hang), then each model's
 * wait: the host's modeled wait ahead of now, a PTE read due now or later, a DMA in flight (one
 * already due counts as now). The scripted steps, chaos and coalesce commands are not waits. */
static void test_wait_end(void **state) {
    (void)state;
    plat_t *p = new_plat();
    p->now = 50;
    p->ch.next = p->ch.period = 60;
    p->co.next[0] = 70;
    p->scr.nsteps = 1;
    p->scr.steps[0].cycle = 80;
    assert_int_equal(plat_models_wait_end(p), UINT64_MAX);
    p->wd.wait_until = 50; /* not ahead of now: over */
    assert_int_equal(plat_models_wait_end(p), UINT64_MAX);
    p->wd.wait_until = 900;
    assert_int_equal(plat_models_wait_end(p), 900);
    assert_int_equal(gpumem_init(&p->gm, 0x1000, 1, 0x100000, 4, 10, 0, 1), 0);
    assert_int_equal(gpumem_accept(&p->gm, 30, 0x1000, 3), 0); /* due at 40: before now */
    assert_int_equal(plat_models_wait_end(p), 900);
    p->now = 20;
    assert_int_equal(plat_models_wait_end(p), 40);
    p->now = 40; /* due now: the watchdog runs before this cycle delivers it */
    assert_int_equal(plat_models_wait_end(p), 40);
    p->now = 50;
    p->dq.dmas = calloc(1, sizeof(plat_dma_t));
    assert_non_null(p->dq.dmas);
    p->dq.capdma = p->dq.ndma = 1;
    p->dq.dmas[0].done = 45; /* due: counts as now */
    assert_int_equal(plat_models_wait_end(p), 50);
    p->dq.dmas[0].done = 700;
    assert_int_equal(plat_models_wait_end(p), 700);
    free_plat(p);
}

static void test_dma_step_to(void **state) {
    (void)state;
    plat_t *p = new_plat();
    assert_int_equal(gpumem_init(&p->gm, 0x1000, 1, 0x100000, 4, 10, 0, 1), 0);
    assert_int_equal(hostmem_init(&p->hm, 0x10000000, 4096), 0);
    const pcie_link_t link = {PCIE_MODEL_TABLE, 16.0, 1000.0};
    pcie_dma_init(&p->dq.dma, &link, 1000.0);
    p->dq.dmas = calloc(1, sizeof(plat_dma_t));
    assert_non_null(p->dq.dmas);
    p->dq.capdma = p->dq.ndma = 1;
    plat_dma_t *d = &p->dq.dmas[0];
    d->handle = 1;
    d->done = 500;
    d->dir = UVM_DMA_H2D;
    d->dst = 0x100000 + PLAT_PAGE;
    d->npages = 1;
    d->tags = malloc(sizeof(uint64_t));
    assert_non_null(d->tags);
    d->tags[0] = 0xabcdu;
    assert_int_equal(plat_models_next_event(p), 500);
    p->now = 499;
    plat_models_step(p);
    assert_int_equal(p->dq.ndma, 1);
    p->now = 500;
    plat_models_step(p);
    assert_int_equal(p->dq.ndma, 0);
    assert_int_equal(gpumem_tag(&p->gm, 0x100000 / PLAT_PAGE + 1), 0xabcdu);
    assert_int_equal(plat_models_next_event(p), 100001);
    free_plat(p);
}

static void test_stats_once(void **state) {
    (void)state;
    plat_t *p = new_plat();
    p->wl.l1_hits = 7;
    p->gmmu.pte_reads = 11;
    p->co.errors = 2;
    p->ch.held = 3;
    p->dq.dma_d2h = 5;
    p->hd.calls = 13;
    p->wl.copy_cycles = 2500; /* 2.5 us at 1000 MHz */
    plat_stats_w_t w;
    memset(&w, 0, sizeof(w));
    plat_models_stats(p, &w);
    /* the loop's own keys are the only ones missing */
    const plat_stat_t loop[] = {PLAT_ST_cycles,           PLAT_ST_clocked_cycles,
                                PLAT_ST_integrity_errors, PLAT_ST_platform_errors,
                                PLAT_ST_sim_time_ns,      PLAT_ST_seed,
                                PLAT_ST_exit_status};
    for (unsigned k = 0; k < PLAT_NSTATS; k++) {
        int is_loop = 0;
        for (unsigned i = 0; i < sizeof loop / sizeof loop[0]; i++)
            is_loop |= loop[i] == (plat_stat_t)k;
        assert_int_equal(w.set[k], is_loop ? 0 : 1);
    }
    assert_int_equal(plat_stats_incomplete(&w), PLAT_ST_cycles);
    for (unsigned i = 0; i < sizeof loop / sizeof loop[0]; i++)
        plat_stat(&w, loop[i], 0);
    assert_int_equal(plat_stats_incomplete(&w), PLAT_NSTATS);
    assert_int_equal(w.v[PLAT_ST_l1_hits], 7);
    assert_int_equal(w.v[PLAT_ST_pte_reads], 11);
    assert_int_equal(w.v[PLAT_ST_co_errors], 2);
    assert_int_equal(w.v[PLAT_ST_chaos_held], 3);
    assert_int_equal(w.v[PLAT_ST_dma_d2h], 5);
    assert_int_equal(w.v[PLAT_ST_handler_calls], 13);
    assert_int_equal(w.v[PLAT_ST_copy_ns], 2500);
    assert_int_equal(w.v[PLAT_ST_ideal_ns], 0); /* demand mode */
    /* a key reported twice is found */
    plat_stat(&w, PLAT_ST_walks, 1);
    assert_int_equal(plat_stats_incomplete(&w), PLAT_ST_walks);
    /* the JSON order and names (docs/cosim.md) */
    assert_string_equal(plat_stat_name(0), "cycles");
    assert_string_equal(plat_stat_name(PLAT_ST_l1_miss_responses), "l1_miss_responses");
    assert_string_equal(plat_stat_name(PLAT_NSTATS - 1), "exit_status");
    free_plat(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_next_event),
        cmocka_unit_test(test_wait_end),
        cmocka_unit_test(test_dma_step_to),
        cmocka_unit_test(test_stats_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
