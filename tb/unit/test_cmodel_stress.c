/* test_cmodel_stress.c - random traffic through the whole model with a simple host fault handler
 * (map on demand, cancel illegal pages, replay, random invalidates): every request completes
 * with the right translation, no invariant is violated, the model ends idle. Also reports the
 * speed of the paper configuration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "rng.h"
#include "test_cmodel_harness.h"

#define B(n) (1u << (n))
#define NPAGES 96

typedef struct {
    uint64_t x;
} stress_rng_t;

static uint32_t rnd(stress_rng_t *r) {
    return (uint32_t)(rng_xorshift64(&r->x) >> 16);
}

/* page k: vpn; k % 8 == 7 illegal (cancelled), k % 8 == 5 disabled (nocache), k < 16 in two
 * large regions (pre-mapped), others mapped on demand (read-only if k % 8 == 3). */
static uint64_t page_vpn(unsigned k) {
    if (k < 16)
        return (0x40ull << 9) + (k < 8 ? 0 : 512) + k * 3;
    return 0x10000ull + (uint64_t)k * 0x2c1 + ((uint64_t)(k & 3) << 27);
}
static uint64_t page_ppn(uint64_t vpn) {
    return (vpn * 7 + 0x1000) & 0xfffffffff;
}

typedef struct {
    uint8_t busy;
    uint64_t vpn;
    uint8_t write;
} out_t;

typedef struct {
    const gmmu_params_t *p;
    out_t (*outst)[256];
    unsigned completed, fatal;
} chk_t;

static void check_cycle(void *ctx, const gmmu_out_t *out) {
    chk_t *x = ctx;
    for (uint32_t s = 0; s < x->p->num_sm; s++) {
        for (uint32_t q = 0; q < x->p->num_ports; q++) {
            if (!out->hit_valid[s][q])
                continue;
            out_t *o = &x->outst[s][out->hit_id[s][q]];
            assert_int_equal(o->busy, 1);
            const uint64_t e =
                o->vpn < (0x41ull << 9) || o->vpn >= (0x42ull << 9) ? page_ppn(o->vpn) : 0;
            if (o->vpn >> 9 == 0x40)
                assert_int_equal(out->hit_ppn[s][q], 0x200 | (o->vpn & 0x1ff));
            else if (o->vpn >> 9 == 0x41)
                assert_int_equal(out->hit_ppn[s][q], 0x400 | (o->vpn & 0x1ff));
            else
                assert_int_equal(out->hit_ppn[s][q], e);
            o->busy = 0;
            x->completed++;
        }
        if (out->miss_valid[s]) {
            out_t *o = &x->outst[s][out->miss_id[s]];
            assert_int_equal(o->busy, 1);
            if (out->miss_fatal[s]) {
                x->fatal++;
                assert_int_equal(out->miss_ppn[s], 0);
            } else if (o->vpn >> 9 == 0x40) {
                assert_int_equal(out->miss_ppn[s], 0x200 | (o->vpn & 0x1ff));
            } else if (o->vpn >> 9 == 0x41) {
                assert_int_equal(out->miss_ppn[s], 0x400 | (o->vpn & 0x1ff));
                assert_int_equal(o->write, 0);
            } else {
                assert_int_equal(out->miss_ppn[s], page_ppn(o->vpn));
            }
            o->busy = 0;
            x->completed++;
        }
    }
}

/* mem_lat: cycles of a page-table read; *quiet: quiet cycles checked by the harness. */
static void run(const gmmu_params_t *p, uint64_t cycles, uint32_t seed, int with_host_noise,
                unsigned mem_lat, double *khz, unsigned *quiet) {
    th_t *h = test_malloc(sizeof(th_t));
    th_init(h, p);
    stress_rng_t r = {RNG_GOLDEN ^ seed};
    h->mem_lat = mem_lat;
    th_setup(h, 0x100000, 0x4000000, 64);
    th_csr_write(h, GMMU_CSR_INT_ENABLE, 3);
    uint8_t mapped[NPAGES] = {0};
    for (unsigned k = 0; k < 16; k++)
        mapped[k] = 1;
    th_map_large(h, 0x40ull << 9, 0x200, B(GMMU_PTE_V) | B(GMMU_PTE_W));
    th_map_large(h, 0x41ull << 9, 0x400, B(GMMU_PTE_V));
    static out_t outst[GMMU_MAX_SM][256];
    memset(outst, 0, sizeof(outst));
    uint8_t next_id[GMMU_MAX_SM] = {0};
    unsigned fb_seen = 0, issued = 0;
    chk_t x = {p, outst, 0, 0};
    h->on_cycle = check_cycle;
    h->ctx = &x;
    uint32_t get = 0;
    const clock_t c0 = clock();
    for (uint64_t c = 0; c < cycles || h->nq || !h->out.idle || x.completed < issued; c++) {
        if (c >= cycles + 200000) {
            gmmu_model_dump(h->m, stderr);
            fail_msg("no progress: %u of %u completed", x.completed, issued);
        }
        /* new requests */
        if (c < cycles) {
            for (uint32_t s = 0; s < p->num_sm; s++) {
                if (!h->out.req_ready[s])
                    continue;
                for (uint32_t q = 0; q < p->num_ports; q++) {
                    if (rnd(&r) % 4)
                        continue;
                    if (outst[s][next_id[s]].busy)
                        continue;
                    const unsigned k = rnd(&r) % NPAGES;
                    const uint64_t vpn = page_vpn(k);
                    int wr = (int)(rnd(&r) % 3 == 0);
                    if (vpn >> 9 == 0x41)
                        wr = 0; /* read-only large region: never written */
                    if (k >= 16 && k % 8 == 3)
                        wr = 0;
                    th_req(h, s, q, vpn, wr, next_id[s]);
                    outst[s][next_id[s]] = (out_t){1, vpn, (uint8_t)wr};
                    next_id[s]++;
                    issued++;
                }
            }
        }
        /* host: one action per cycle at most, only when no CSR access is pending */
        if (h->nfb > fb_seen && c % 7 == 0) {
            const th_fb_t *e = &h->fb[fb_seen % TH_LOG_MAX];
            const uint64_t vpn = e->data[2] | (uint64_t)e->data[3] << 32;
            unsigned k = NPAGES;
            for (unsigned i = 0; i < NPAGES; i++)
                if (page_vpn(i) == vpn)
                    k = i;
            assert_in_range(k, 0, NPAGES - 1);
            k %= NPAGES; /* for static analysis: k < NPAGES holds here */
            fb_seen++;
            get = (get + 1) & 63;
            th_csr_write(h, GMMU_CSR_FB_GET, get);
            if (k % 8 == 7) {
                th_cmd(h, GMMU_CMD_CANCEL_PAGE, vpn);
            } else {
                if (!mapped[k]) {
                    uint64_t f = B(GMMU_PTE_V) | B(GMMU_PTE_W);
                    if (k % 8 == 5)
                        f |= B(GMMU_PTE_D);
                    th_map(h, vpn, page_ppn(vpn), f);
                    mapped[k] = 1;
                }
                th_cmd(h, GMMU_CMD_REPLAY_PAGE, vpn);
            }
            c += 4;
            continue;
        }
        if (h->out.irq && h->nfb == fb_seen && c % 11 == 0) {
            /* overflow: clear and replay everybody */
            th_csr_write(h, GMMU_CSR_FB_STATUS, 1);
            th_cmd(h, GMMU_CMD_REPLAY_ALL, 0);
            c += 4;
            continue;
        }
        if (h->out.idle && !h->nq && h->nfb == fb_seen && c % 13 == 0) {
            /* NACKed requests left with nothing posted (drops): replay all */
            th_cmd(h, GMMU_CMD_REPLAY_ALL, 0);
            c += 3;
            continue;
        }
        if (with_host_noise && rnd(&r) % 500 == 0) {
            const unsigned k = rnd(&r) % NPAGES;
            th_cmd(h, rnd(&r) % 4 ? GMMU_CMD_INVAL_PAGE : GMMU_CMD_INVAL_ALL, page_vpn(k));
            c += 3;
            continue;
        }
        th_step(h);
    }
    const double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
    *khz = secs > 0 ? (double)h->cycle / secs / 1000.0 : 0;
    for (uint32_t s = 0; s < p->num_sm; s++)
        for (unsigned i = 0; i < 256; i++)
            assert_int_equal(outst[s][i].busy, 0);
    assert_int_equal(x.completed, issued);
    assert_true(issued > 100);
    assert_true(x.fatal > 0);
    *quiet = h->quiet_checked;
    print_message("    %u requests, %u faults posted, %u fatal, %llu cycles (%u quiet, checked), "
                  "%.0f kcycles/s\n",
                  issued, fb_seen, x.fatal, (unsigned long long)h->cycle, h->quiet_checked, *khz);
    th_done(h);
    test_free(h);
}

static void test_stress_tiny(void **state) {
    (void)state;
    gmmu_params_t p;
    th_params_tiny(&p);
    double khz;
    unsigned quiet = 0, q;
    for (uint32_t seed = 1; seed <= 4; seed++) {
        run(&p, 20000, seed, 1, seed < 3 ? 5u : 30u, &khz, &q);
        quiet += q;
    }
    assert_true(quiet > 500); /* gmmu_model_quiet was exercised (the harness checks each) */
}

static void test_stress_default(void **state) {
    (void)state;
    const gmmu_params_t p = {.num_sm = 4,
                             .num_ports = 4,
                             .l1_entries = 64,
                             .l1_sets = 1,
                             .l1_large_entries = 8,
                             .l1_req_entries = 16,
                             .l2_sets = 16,
                             .l2_ways = 8,
                             .l2_large_entries = 16,
                             .l2_latency = 10,
                             .l2_mshr_entries = 16,
                             .num_walkers = 8,
                             .ff_entries = 16,
                             .ff_quota = 4,
                             .num_asids = 1,
                             .pwc_entries = 0,
                             .pwc_latency = 1,
                             .ad_bits = 0,
                             .acc_entries = 0,
                             .line_bitmap = 0};
    double khz;
    unsigned q;
    run(&p, 20000, 7, 1, 5, &khz, &q);
}

/* the page-walk cache (docs/microarch.md §16): tiny with 6 entries, 3-cycle hits, under the
 * same traffic and host noise (its invalidations race with the walks) */
static void test_stress_pwc(void **state) {
    (void)state;
    gmmu_params_t p;
    th_params_tiny(&p);
    p.pwc_entries = 6;
    p.pwc_latency = 3;
    double khz;
    unsigned q;
    for (uint32_t seed = 1; seed <= 2; seed++)
        run(&p, 20000, seed, 1, seed < 2 ? 5u : 30u, &khz, &q);
}

static void test_stress_paper(void **state) {
    (void)state;
    gmmu_params_t p;
    th_params_paper(&p);
    double khz;
    unsigned q;
    run(&p, 20000, 11, 0, 5, &khz, &q);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stress_tiny),
        cmocka_unit_test(test_stress_default),
        cmocka_unit_test(test_stress_paper),
        cmocka_unit_test(test_stress_pwc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
