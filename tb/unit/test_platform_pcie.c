/*
 * test_platform_pcie.c - the DMA engine's copy channels (cosim/pcie.c, configuration key
 * copy_channels) and the size-dependent transfer time a multi-page DMA gets.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pcie.h"

static const pcie_link_t table16 = {PCIE_MODEL_TABLE, 16.0, 1000.0};

/* n channels per direction: n transfers submitted together overlap; the next one takes the
 * channel that frees first; the other direction is independent; a clamp to [1, 8]. */
static void test_channels(void **state) {
    (void)state;
    pcie_dma_t d;
    pcie_dma_init(&d, &table16, 1000.0);
    assert_int_equal(d.channels, 1);
    pcie_dma_set_channels(&d, 2);
    assert_int_equal(d.channels, 2);
    const uint64_t one = pcie_ns_to_cycles(pcie_transfer_ns(&table16, 4096), 1000.0);
    const uint64_t big = pcie_ns_to_cycles(pcie_transfer_ns(&table16, 65536), 1000.0);
    assert_int_equal(pcie_dma_schedule(&d, PCIE_H2D, 65536, 0), big); /* channel 0 */
    assert_int_equal(pcie_dma_schedule(&d, PCIE_H2D, 4096, 0), one);  /* channel 1 */
    /* the third waits for channel 1 (frees first), not for the 64 KB transfer */
    assert_int_equal(pcie_dma_schedule(&d, PCIE_H2D, 4096, 0), 2 * one);
    assert_int_equal(pcie_dma_schedule(&d, PCIE_D2H, 4096, 0), one);
    assert_int_equal(d.busy_cycles[PCIE_H2D], big + 2 * one);
    pcie_dma_set_channels(&d, 0);
    assert_int_equal(d.channels, 1);
    pcie_dma_set_channels(&d, 100);
    assert_int_equal(d.channels, PCIE_MAX_CHANNELS);
}

/* One 64 KB transfer at 8.48 GB/s is faster than 16 transfers of 4 KB at 3.22 GB/s each, even
 * without their 16 latencies: the reason a run of a block goes as one DMA. */
static void test_run_vs_pages(void **state) {
    (void)state;
    const double run = pcie_transfer_ns(&table16, 65536);
    assert_true(fabs(run - (1000.0 + 65536.0 / 8.48)) < 1e-6);
    assert_true(run < 16.0 * (4096.0 / 3.22));
}

/* Remote accesses (docs/cosim.md "Remote accesses"): 128 B occupy the link for 128 B at the
 * model's small-transfer bandwidth (3.22 GB/s: 40 cycles at 1 GHz), not for the latency; the
 * data comes latency later; they queue behind a DMA copy of their direction and delay the next
 * copy; the other direction is independent. */
static void test_remote_access(void **state) {
    (void)state;
    pcie_dma_t d;
    pcie_dma_init(&d, &table16, 1000.0);
    const uint64_t occ = pcie_ns_to_cycles(128.0 / 3.22, 1000.0);
    assert_int_equal(occ, 40);
    assert_int_equal(pcie_remote_access(&d, PCIE_H2D, 128, 1000.0, 10), 10 + occ + 1000);
    /* pipelined: the second waits for the link (occ), not for the first one's latency */
    assert_int_equal(pcie_remote_access(&d, PCIE_H2D, 128, 1000.0, 10), 10 + 2 * occ + 1000);
    assert_int_equal(d.busy_cycles[PCIE_H2D], 2 * occ);
    /* a DMA copy submitted now starts after them; a remote read after it waits for the copy */
    const uint64_t copy = pcie_ns_to_cycles(pcie_transfer_ns(&table16, 4096), 1000.0);
    const uint64_t end = pcie_dma_schedule(&d, PCIE_H2D, 4096, 10);
    assert_int_equal(end, 10 + 2 * occ + copy);
    assert_int_equal(pcie_remote_access(&d, PCIE_H2D, 128, 500.0, 10), end + occ + 500);
    /* a remote write (D2H) is not delayed by the H2D traffic */
    assert_int_equal(pcie_remote_access(&d, PCIE_D2H, 128, 1000.0, 10), 10 + occ + 1000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_remote_access),
        cmocka_unit_test(test_channels),
        cmocka_unit_test(test_run_vs_pages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
