/*
 * test_two_models.c - two Verilated models of gmmu_top (configurations tiny and default, built
 * with --prefix Vtiny / Vdefault, shims compiled with -DVSHIM_NS) linked into one binary. The
 * test shows that they link without symbol clashes, that each one is its own configuration
 * (PARAMS register) and that stepping or writing one leaves the other unchanged. It is not a
 * verification of the RTL (no model is compared with another).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gmmu_consts.h"

#define VSHIM_NS tiny
#include "vshim.h"
#undef VSHIM_NS
#define VSHIM_NS default
#include "vshim.h"
#undef VSHIM_NS

typedef struct {
    vshim_t *(*create)(const gmmu_params_t *p, char *err, size_t errlen);
    void (*free)(vshim_t *v);
    void (*outputs)(vshim_t *v, gmmu_out_t *out);
    void (*step)(vshim_t *v, const gmmu_in_t *in, uint64_t cycle);
    void (*built)(gmmu_params_t *p);
} model_t;

static const model_t k_tiny = {vshim_tiny_new, vshim_tiny_free, vshim_tiny_outputs, vshim_tiny_step,
                               vshim_tiny_built_params};
static const model_t k_default = {vshim_default_new, vshim_default_free, vshim_default_outputs,
                                  vshim_default_step, vshim_default_built_params};

static vshim_t *create(const model_t *m) {
    gmmu_params_t p;
    char err[256];
    m->built(&p);
    vshim_t *v = m->create(&p, err, sizeof(err));
    assert_non_null(v);
    return v;
}

/* One CSR access cycle; for a read, returns csr_rdata_o of the next cycle. */
static uint32_t csr(const model_t *m, vshim_t *v, uint64_t *cycle, int write, uint32_t addr,
                    uint32_t value) {
    gmmu_in_t in;
    memset(&in, 0, sizeof(in));
    in.csr_valid = 1;
    in.csr_write = (uint8_t)write;
    in.csr_addr = (uint16_t)addr;
    in.csr_wdata = value;
    m->step(v, &in, (*cycle)++);
    gmmu_out_t o;
    m->outputs(v, &o);
    if (!write)
        assert_int_equal(o.csr_rvalid, 1);
    return o.csr_rdata;
}

static void test_each_model_is_its_configuration(void **state) {
    (void)state;
    vshim_t *t = create(&k_tiny), *d = create(&k_default);
    gmmu_params_t pt, pd;
    k_tiny.built(&pt);
    k_default.built(&pd);
    assert_int_not_equal(pt.num_sm, pd.num_sm); /* the test needs two different configurations */
    uint64_t ct = 0, cd = 0;
    const uint32_t rt = csr(&k_tiny, t, &ct, 0, GMMU_CSR_PARAMS, 0);
    const uint32_t rd = csr(&k_default, d, &cd, 0, GMMU_CSR_PARAMS, 0);
    assert_int_equal(rt & 0xffu, pt.num_sm); /* PARAMS [7:0] NumSm */
    assert_int_equal(rd & 0xffu, pd.num_sm);
    assert_int_equal((rt >> 8) & 0xffu, pt.num_ports); /* [15:8] NumPorts */
    assert_int_equal((rd >> 8) & 0xffu, pd.num_ports);
    k_tiny.free(t);
    k_default.free(d);
}

static void test_models_are_independent(void **state) {
    (void)state;
    vshim_t *t = create(&k_tiny), *d = create(&k_default);
    uint64_t ct = 0, cd = 0;
    gmmu_out_t before, after;
    k_default.outputs(d, &before);
    /* write and step the tiny model only */
    csr(&k_tiny, t, &ct, 1, GMMU_CSR_PT_BASE_LO, 0x5000u);
    gmmu_in_t idle;
    memset(&idle, 0, sizeof(idle));
    for (int i = 0; i < 100; i++)
        k_tiny.step(t, &idle, ct++);
    k_default.outputs(d, &after);
    assert_memory_equal(&before, &after, sizeof(before));
    assert_int_equal(csr(&k_tiny, t, &ct, 0, GMMU_CSR_PT_BASE_LO, 0), 0x5000u);
    assert_int_equal(csr(&k_default, d, &cd, 0, GMMU_CSR_PT_BASE_LO, 0), 0u);
    k_tiny.free(t);
    k_default.free(d);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_model_is_its_configuration),
        cmocka_unit_test(test_models_are_independent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
