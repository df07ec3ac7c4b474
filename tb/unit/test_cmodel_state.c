/* test_cmodel_state.c - the state accessors of gmmu-sim --state-compare (gmmu_model_state_get,
 * docs/cmodel.md "State accessors"): RTL names and encodings of the model's registers. The
 * comparison against the RTL itself is make test-statecmp. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "test_cmodel_harness.h"

static uint64_t get(const th_t *h, const char *scope, const char *reg, uint32_t i, uint32_t word) {
    uint64_t v = ~UINT64_C(0);
    assert_int_equal(gmmu_model_state_get(h->m, scope, reg, i, word, &v), 0);
    return v;
}

static void test_names_and_errors(void **state) {
    (void)state;
    gmmu_params_t p;
    th_params_tiny(&p);
    th_t h;
    th_init(&h, &p);
    uint64_t v = 0;
    assert_int_equal(get(&h, "", "ev_q", 0, 0), 0);
    assert_int_equal(get(&h, "u_csr", "cmd_valid_q", 0, 0), 0);
    /* unknown register, scope, SM, element, word: no accessor */
    assert_int_equal(gmmu_model_state_get(h.m, "u_csr", "nope_q", 0, 0, &v), -1);
    assert_int_equal(gmmu_model_state_get(h.m, "u_nope", "ev_q", 0, 0, &v), -1);
    assert_int_equal(gmmu_model_state_get(h.m, "g_l1[2].u_l1", "hv_q", 0, 0, &v), -1);
    assert_int_equal(gmmu_model_state_get(h.m, "g_l1[].u_l1", "hv_q", 0, 0, &v), -1);
    assert_int_equal(gmmu_model_state_get(h.m, "g_l1[1].u_l2", "hv_q", 0, 0, &v), -1);
    assert_int_equal(gmmu_model_state_get(h.m, "g_l1[1].u_l1.u_nope", "hv_q", 0, 0, &v), -1);
    assert_int_equal(gmmu_model_state_get(h.m, "g_l1[1].u_l1", "hv_q", 0, 0, &v), 0);
    assert_int_equal(gmmu_model_state_get(h.m, "g_l1[1].u_l1.u_req", "state_q", 4, 0, &v), -1);
    assert_int_equal(gmmu_model_state_get(h.m, "u_csr", "get_q", 0, 1, &v), -1);
    assert_int_equal(gmmu_model_state_get(h.m, "g_l1[0].u_l1.u_req", "ent_q", 0, 2, &v), -1);
    th_done(&h);
}

static void test_conversions(void **state) {
    (void)state;
    gmmu_params_t p;
    th_params_tiny(&p);
    th_t h;
    th_init(&h, &p);
    th_setup(&h, UINT64_C(0x800000000), UINT64_C(0x10000000), 4);
    th_steps(&h, 2);
    /* the RTL keeps PT_BASE[47:12] and FB_BASE[47:5] */
    assert_int_equal(get(&h, "u_csr", "pt_base_q", 0, 0), UINT64_C(0x800000000) >> 12);
    assert_int_equal(get(&h, "u_csr", "fb_base_q", 0, 0), UINT64_C(0x10000000) >> 5);
    assert_int_equal(get(&h, "u_csr", "fb_size_q", 0, 0), 4);
    /* one request on SM 1 port 0: request-table entry 0 WAIT (req_state_e ReqWait = 1) with the
     * packed record {vpn[82:47], write[46], id[45:38], ppn[37:2], fatal[1], sys[0]} */
    const uint64_t vpn = UINT64_C(0x123456789);
    th_req(&h, 1, 0, vpn, 1, 0x5a);
    th_step(&h);
    memset(h.in.req_valid, 0, sizeof(h.in.req_valid));
    assert_int_equal(get(&h, "g_l1[1].u_l1.u_req", "state_q", 0, 0), 1);
    assert_int_equal(get(&h, "g_l1[1].u_l1.u_req", "state_q", 1, 0), 0);
    assert_int_equal(get(&h, "g_l1[0].u_l1.u_req", "state_q", 0, 0), 0);
    const uint64_t w0 = get(&h, "g_l1[1].u_l1.u_req", "ent_q", 0, 0);
    const uint64_t w1 = get(&h, "g_l1[1].u_l1.u_req", "ent_q", 0, 1);
    assert_int_equal(w0 & 1u, 0);                                /* sys (§17) */
    assert_int_equal((w0 >> 1) & 1u, 0);                         /* fatal */
    assert_int_equal((w0 >> 2) & ((UINT64_C(1) << 36) - 1u), 0); /* ppn */
    assert_int_equal((w0 >> 38) & 0xffu, 0x5a);                  /* id */
    assert_int_equal((w0 >> 46) & 1u, 1);                        /* write */
    assert_int_equal((w0 >> 47) | (w1 << 17), vpn);              /* vpn */
    assert_int_equal(w1 >> 19, 0);                               /* 83 bits only */
    th_done(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_errors),
        cmocka_unit_test(test_conversions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
