/*
 * test_platform_engine.c - the engine interface: --engine lists over a registry, creating a
 * list, and the lock-step comparison of two engines through the generated port table with its
 * readable report. The second engine is the C model with one output port forced (a stand-in for
 * a faulty implementation), so the comparison must name exactly that port.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare.h"
#include "config.h"
#include "engine.h"

/* ---- a faulty engine: the C model, with req_ready[1] forced to 0 ---- */
typedef struct {
    engine_t head;
    engine_t *inner;
} faulty_t;

static const engine_ops_t k_faulty_ops;

static engine_t *faulty_create(const engine_args_t *a, char *err, size_t errlen) {
    faulty_t *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->head.ops = &k_faulty_ops;
    f->inner = engine_cmodel_ops.create(a, err, errlen);
    assert_non_null(f->inner);
    return &f->head;
}
static void faulty_outputs(engine_t *e, gmmu_out_t *out) {
    engine_t *in = ((faulty_t *)e)->inner;
    in->ops->outputs(in, out);
    out->req_ready[1] = 0;
}
static void faulty_step(engine_t *e, const gmmu_in_t *in, uint64_t cycle) {
    engine_t *m = ((faulty_t *)e)->inner;
    m->ops->step(m, in, cycle);
}
static void faulty_free(engine_t *e) {
    engine_free(((faulty_t *)e)->inner);
    free(e);
}
static const engine_ops_t k_faulty_ops = {
    .name = "faulty",
    .label = "faulty",
    .create = faulty_create,
    .outputs = faulty_outputs,
    .step = faulty_step,
    .free = faulty_free,
};

static const engine_ops_t *const k_ops[] = {&engine_cmodel_ops, &k_faulty_ops};
static const engine_registry_t k_reg = {k_ops, 2};

static void test_parse(void **state) {
    (void)state;
    engine_list_t l;
    char err[256];
    assert_int_equal(engine_list_parse(&k_reg, "cmodel", &l, err, sizeof(err)), 0);
    assert_int_equal(l.n, 1);
    assert_ptr_equal(l.ops[0], &engine_cmodel_ops);
    assert_true(engine_list_all_quiet(&l));
    assert_false(engine_list_has_waves(&l));
    assert_int_equal(engine_list_parse(&k_reg, "faulty,cmodel", &l, err, sizeof(err)), 0);
    assert_int_equal(l.n, 2);
    assert_ptr_equal(l.ops[0], &k_faulty_ops);
    assert_ptr_equal(l.ops[1], &engine_cmodel_ops);
    assert_false(engine_list_all_quiet(&l)); /* faulty has no quiet test */
    /* "cosim" needs an engine named rtl, which this registry does not have */
    assert_int_equal(engine_list_parse(&k_reg, "cosim", &l, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "rtl is not registered"));
    assert_int_equal(engine_list_parse(&k_reg, "foo", &l, err, sizeof(err)), -1);
    assert_string_equal(err, "--engine foo: expected cosim, cmodel or rtl");
    assert_int_equal(engine_list_parse(&k_reg, "cmodel,fo", &l, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "(cmodel, faulty)"));
    assert_int_equal(
        engine_list_parse(&k_reg, "cmodel,cmodel,cmodel,cmodel,cmodel", &l, err, sizeof(err)), -1);
    assert_int_equal(engine_list_parse(&k_reg, "cmodel,", &l, err, sizeof(err)), -1);
}

static void test_compare_names_the_port(void **state) {
    (void)state;
    cfg_t c;
    char err[256];
    cfg_defaults(&c);
    assert_int_equal(cfg_load(&c, "configs/tiny.cfg", err, sizeof(err)), 0); /* 2 SMs, 2 ports */
    assert_int_equal(c.rtl.num_sm, 2);
    assert_int_equal(c.rtl.num_ports, 2);
    engine_list_t l;
    assert_int_equal(engine_list_parse(&k_reg, "cmodel,faulty", &l, err, sizeof(err)), 0);
    engine_t *e[ENGINE_MAX] = {NULL};
    const engine_args_t a = {&c.rtl, "test.cfg"};
    assert_int_equal(engine_list_create(&l, &a, e, err, sizeof(err)), 0);
    gmmu_in_t in;
    memset(&in, 0, sizeof(in));
    for (uint64_t t = 0; t < 4; t++) {
        e[0]->ops->step(e[0], &in, t);
        e[1]->ops->step(e[1], &in, t);
    }
    gmmu_out_t o0, o1;
    e[0]->ops->outputs(e[0], &o0);
    e[1]->ops->outputs(e[1], &o1);
    assert_int_equal(o0.req_ready[1], 1); /* idle after reset: every SM may present */
    cmp_diff_t d;
    assert_int_equal(cmp_outputs(&c.rtl, &o0, &o0, &d), 0);
    assert_int_equal(cmp_outputs(&c.rtl, &o0, &o1, &d), 1);
    assert_string_equal(d.signal, "req_ready[1]");
    assert_int_equal(d.expected, 1);
    assert_int_equal(d.actual, 0);
    assert_int_equal(d.count, 1);
    /* a port outside the configured SMs is not compared */
    o1 = o0;
    o1.req_ready[c.rtl.num_sm] = 1;
    o1.hit_ppn[0][c.rtl.num_ports] = 7;
    assert_int_equal(cmp_outputs(&c.rtl, &o0, &o1, &d), 0);
    /* several differences: the first in port order, all printed with both engines' labels */
    e[1]->ops->outputs(e[1], &o1);
    o1.fb_wr_data[7] = 0x80000180u;
    o1.hit_ppn[1][0] = 0x123;
    assert_int_equal(cmp_outputs(&c.rtl, &o0, &o1, &d), 1);
    assert_string_equal(d.signal, "req_ready[1]");
    assert_int_equal(d.count, 3);
    char buf[1024] = "";
    FILE *f = fmemopen(buf, sizeof(buf), "w");
    assert_non_null(f);
    cmp_print_all(&c.rtl, &o0, &o1, e[0]->ops->label, e[1]->ops->label, f);
    fclose(f);
    assert_non_null(strstr(buf, "req_ready[1]"));
    assert_non_null(
        strstr(buf, "hit_ppn[1][0]        expected (C model) 0x0  actual (faulty) 0x123"));
    assert_non_null(strstr(buf, "fb_wr_data[7]"));
    assert_true(strstr(buf, "req_ready[1]") < strstr(buf, "hit_ppn[1][0]"));
    assert_true(strstr(buf, "hit_ppn[1][0]") < strstr(buf, "fb_wr_data[7]"));
    engine_free(e[0]);
    engine_free(e[1]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_compare_names_the_port),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
