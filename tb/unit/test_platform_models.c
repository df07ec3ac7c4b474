/*
 * test_platform_models.c - cmocka tests of the PCIe model, GPU and host memory, u64map.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gpumem.h"
#include "hostmem.h"
#include "pcie.h"
#include "u64map.h"

static const pcie_link_t table16 = {PCIE_MODEL_TABLE, 16.0, 1000.0};

static void test_pcie_table_points(void **state) {
    (void)state;
    const uint64_t kb[] = {4, 16, 64, 256, 1024};
    const double gbps[] = {3.22, 6.44, 8.48, 10.51, 11.22};
    for (int i = 0; i < 5; i++)
        assert_true(fabs(pcie_bandwidth_gbps(&table16, kb[i] * 1024) - gbps[i]) < 1e-12);
    /* clamped outside the table */
    assert_true(pcie_bandwidth_gbps(&table16, 512) == 3.22);
    assert_true(pcie_bandwidth_gbps(&table16, 64ull << 20) == 11.22);
    /* log-size interpolation: 8 KB lies halfway between 4 and 16 KB on a log scale */
    assert_true(fabs(pcie_bandwidth_gbps(&table16, 8 * 1024) - (3.22 + 6.44) / 2) < 1e-9);
    /* scaled by peak/16 */
    const pcie_link_t t32 = {PCIE_MODEL_TABLE, 32.0, 0.0};
    assert_true(fabs(pcie_bandwidth_gbps(&t32, 4096) - 6.44) < 1e-12);
}

static void test_pcie_monotonic(void **state) {
    (void)state;
    const pcie_link_t atan16 = {PCIE_MODEL_ATAN, 16.0, 1000.0};
    double prev_t = 0, prev_a = 0, prev_ns = 0;
    for (uint64_t b = 256; b <= (4ull << 20); b += b / 8 + 1) {
        const double t = pcie_bandwidth_gbps(&table16, b);
        const double a = pcie_bandwidth_gbps(&atan16, b);
        assert_true(t >= prev_t);
        assert_true(a >= prev_a);
        assert_true(t >= 3.22 && t <= 11.22);
        assert_true(a > 0 && a < 12.0);
        const double ns = pcie_transfer_ns(&table16, b);
        assert_true(ns > prev_ns); /* more bytes never finish earlier */
        prev_t = t;
        prev_a = a;
        prev_ns = ns;
    }
    /* UVMSmart's curve: (24/pi) * atan(0.07292 * KB) */
    assert_true(fabs(pcie_bandwidth_gbps(&atan16, 2 << 20) -
                     24.0 / 3.14159265358979323846 * atan(0.07292 * 2048)) < 1e-9);
    /* 4 KB at the table's 3.22 GB/s: 1000 ns latency + 4096 / 3.22 ns */
    assert_true(fabs(pcie_transfer_ns(&table16, 4096) - (1000.0 + 4096.0 / 3.22)) < 1e-9);
}

static void test_dma_channels(void **state) {
    (void)state;
    pcie_dma_t d;
    pcie_dma_init(&d, &table16, 1000.0);
    const uint64_t one = pcie_ns_to_cycles(pcie_transfer_ns(&table16, 4096), 1000.0);
    assert_int_equal(one, 2273); /* 1000 + 1272.05 ns, rounded up, 1 GHz */
    /* H2D transfers are serialized; D2H is independent */
    const uint64_t a = pcie_dma_schedule(&d, PCIE_H2D, 4096, 100);
    const uint64_t b = pcie_dma_schedule(&d, PCIE_H2D, 4096, 100);
    const uint64_t c = pcie_dma_schedule(&d, PCIE_D2H, 4096, 100);
    assert_int_equal(a, 100 + one);
    assert_int_equal(b, 100 + 2 * one);
    assert_int_equal(c, 100 + one);
    /* a later submission on an idle channel starts at submission */
    assert_int_equal(pcie_dma_schedule(&d, PCIE_D2H, 4096, 100000), 100000 + one);
    assert_int_equal(pcie_ns_to_cycles(1000.0, 1400.0), 1400);
    assert_int_equal(pcie_ns_to_cycles(1.0, 1400.0), 2);
}

static void test_gpumem_ports(void **state) {
    (void)state;
    gpumem_t g;
    assert_int_equal(gpumem_init(&g, 0x800000000ull, 4, 0x100000000ull, 8, 10, 0, 1), 0);
    assert_true(gpumem_is_pt(&g, 0x800000000ull));
    assert_true(gpumem_is_pt(&g, 0x800003ff8ull));
    assert_false(gpumem_is_pt(&g, 0x800004000ull));
    assert_false(gpumem_is_pt(&g, 0x800000004ull));
    assert_int_equal(gpumem_write64(&g, 0x800000008ull, 0x1234), 0);
    assert_int_equal(gpumem_write64(&g, 0x100000000ull, 1), -1);
    uint64_t v = 0;
    assert_int_equal(gpumem_read64(&g, 0x800000008ull, &v), 0);
    assert_int_equal(v, 0x1234);
    assert_true(gpumem_is_frame(&g, 0x100000));
    assert_true(gpumem_is_frame(&g, 0x100007));
    assert_false(gpumem_is_frame(&g, 0x100008));
    assert_int_equal(gpumem_tag(&g, 0x100003), gpumem_garbage_tag(0x100003));
    gpumem_set_tag(&g, 0x100003, 77);
    assert_int_equal(gpumem_tag(&g, 0x100003), 77);

    /* data as of acceptance: a later write is not seen by an accepted read */
    assert_int_equal(gpumem_accept(&g, 100, 0x800000008ull, 3), 0);
    gpumem_write64(&g, 0x800000008ull, 0x5678);
    assert_int_equal(gpumem_accept(&g, 101, 0x800000008ull, 4), 0);
    assert_int_equal(gpumem_accept(&g, 101, 0x800000010ull, 5), 0);
    assert_int_equal(gpumem_next_due(&g), 110);
    uint8_t id;
    uint64_t data;
    assert_false(gpumem_pop_due(&g, 109, &id, &data));
    assert_true(gpumem_pop_due(&g, 110, &id, &data));
    assert_int_equal(id, 3);
    assert_int_equal(data, 0x1234);
    /* one response per cycle: the two due at 111 come out at 111 and 112, in order */
    assert_true(gpumem_has_due(&g, 111));
    assert_true(gpumem_pop_due(&g, 111, &id, &data));
    assert_int_equal(id, 4);
    assert_int_equal(data, 0x5678);
    assert_true(gpumem_pop_due(&g, 112, &id, &data));
    assert_int_equal(id, 5);
    assert_int_equal(data, 0);
    assert_false(gpumem_pop_due(&g, 1000, &id, &data));
    assert_int_equal(gpumem_next_due(&g), UINT64_MAX);
    /* a read outside page-table memory is flagged, and answered with 0 */
    assert_int_equal(gpumem_accept(&g, 200, 0x100000000ull, 1), -1);
    assert_int_equal(g.bad_reads, 1);
    gpumem_free(&g);
}

static void test_gpumem_jitter_order(void **state) {
    (void)state;
    gpumem_t g;
    assert_int_equal(gpumem_init(&g, 0x1000, 1, 0x100000, 1, 20, 15, 42), 0);
    for (uint8_t i = 0; i < 16; i++)
        gpumem_accept(&g, i, 0x1000 + 8ull * i, i);
    int out_of_order = 0, last = -1;
    uint64_t t = 0, last_t = 0;
    int n = 0;
    for (t = 0; t < 200 && n < 16; t++) {
        uint8_t id;
        uint64_t data;
        if (gpumem_pop_due(&g, t, &id, &data)) {
            /* latency bounds: accepted at cycle id, due in [id+20, id+35] */
            assert_true(t >= (uint64_t)id + 20);
            assert_true(t > last_t || n == 0);
            if ((int)id < last)
                out_of_order = 1;
            last = id;
            last_t = t;
            n++;
        }
    }
    assert_int_equal(n, 16);
    assert_true(out_of_order); /* jitter reorders responses (seeded: deterministic) */
    gpumem_free(&g);
    /* same seed, same order */
    gpumem_t a, b;
    gpumem_init(&a, 0x1000, 1, 0x100000, 1, 5, 9, 7);
    gpumem_init(&b, 0x1000, 1, 0x100000, 1, 5, 9, 7);
    for (uint8_t i = 0; i < 8; i++) {
        gpumem_accept(&a, 0, 0x1000, i);
        gpumem_accept(&b, 0, 0x1000, i);
    }
    for (uint64_t c = 0; c < 40; c++) {
        uint8_t ia = 0, ib = 0;
        uint64_t da, db;
        assert_int_equal(gpumem_pop_due(&a, c, &ia, &da), gpumem_pop_due(&b, c, &ib, &db));
        assert_int_equal(ia, ib);
    }
    gpumem_free(&a);
    gpumem_free(&b);
}

static void test_hostmem(void **state) {
    (void)state;
    hostmem_t h;
    assert_int_equal(hostmem_init(&h, 0x10000000, 64), 0);
    const uint8_t in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    uint8_t out[8] = {0};
    assert_int_equal(hostmem_write(&h, 0x10000000 + 56, in, 8), 0);
    assert_int_equal(hostmem_read(&h, 0x10000000 + 56, out, 8), 0);
    assert_memory_equal(in, out, 8);
    assert_int_equal(hostmem_write(&h, 0x10000000 + 57, in, 8), -1);
    assert_int_equal(hostmem_read(&h, 0x0fffffff, out, 1), -1);
    assert_int_equal(hostmem_page_tag(&h, 0x1234), hostmem_content_tag(0x1234, 0));
    assert_true(hostmem_content_tag(0x1234, 0) != hostmem_content_tag(0x1234, 1));
    assert_true(hostmem_content_tag(0x1234, 1) != hostmem_content_tag(0x1235, 1));
    hostmem_set_page_tag(&h, 0x1234, 99);
    assert_int_equal(hostmem_page_tag(&h, 0x1234), 99);
    hostmem_free(&h);
}

static void test_u64map(void **state) {
    (void)state;
    u64map_t m;
    (void)u64map_init(&m, 0);
    uint64_t v;
    assert_false(u64map_get(&m, 0, &v));
    for (uint64_t i = 0; i < 5000; i++)
        assert_int_equal(u64map_put(&m, i * 4096, i + 1), 0);
    assert_int_equal(m.count, 5000);
    for (uint64_t i = 0; i < 5000; i++) {
        assert_true(u64map_get(&m, i * 4096, &v));
        assert_int_equal(v, i + 1);
    }
    assert_false(u64map_get(&m, 1, &v));
    u64map_put(&m, 0, 42);
    assert_true(u64map_get(&m, 0, &v));
    assert_int_equal(v, 42);
    assert_int_equal(m.count, 5000);
    u64map_clear(&m);
    assert_false(u64map_get(&m, 0, &v));
    u64map_free(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pcie_table_points),
        cmocka_unit_test(test_pcie_monotonic),
        cmocka_unit_test(test_dma_channels),
        cmocka_unit_test(test_gpumem_ports),
        cmocka_unit_test(test_gpumem_jitter_order),
        cmocka_unit_test(test_hostmem),
        cmocka_unit_test(test_u64map),
    };
    return cmocka_run_group_tests_name("platform_models", tests, NULL, NULL);
}
