/*
 * test_handler_pmm.c - the chunked frame allocator (sw-handler/uvm_pmm.c): 4 KB / 64 KB / 2 MB
 * chunks, split, lazy merge, exhaustion, bad frees, and the 4 KB order against the former single
 * free stack (lowest frame first, last freed first) on random alloc/free sequences.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../sw-handler/uvm_priv.h"
#include "rng.h"

static void test_sizes(void **state) {
    (void)state;
    assert_int_equal(uvm_chunk_frames(UVM_CHUNK_4K), 1);
    assert_int_equal(uvm_chunk_frames(UVM_CHUNK_64K), 16);
    assert_int_equal(uvm_chunk_frames(UVM_CHUNK_2M), 512);
    assert_int_equal(uvm_chunk_frames(UVM_CHUNK_CLASSES), 0);
}

/* 2 roots + 2 tail 64 KB chunks + 5 tail frames = 1061 frames */
#define NFR (2u * 512u + 2u * 16u + 5u)

static void test_split_and_exhaustion(void **state) {
    (void)state;
    uvm_pmm_t p;
    assert_int_equal(uvm_pmm_init(&p, NFR), 0);
    assert_int_equal(p.nfree, NFR);
    /* a 4 KB allocation splits root 0 down to frame 0 */
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_4K), 0);
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_4K), 1);
    /* 64 KB: the lowest free 64 KB chunk is the second piece of root 0 */
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_64K), 16);
    /* 2 MB: root 1 */
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_2M), 512);
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_2M), UVM_NONE); /* no free root left */
    assert_int_equal(p.nfree, NFR - 2u - 16u - 512u);
    /* drain with 64 KB chunks: 30 left in root 0, then the 2 tail chunks */
    for (uint32_t i = 0; i < 30; i++)
        assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_64K), 32u + 16u * i);
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_64K), 1024);
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_64K), 1040);
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_64K), UVM_NONE);
    /* 4 KB: the rest of chunk 0 (frames 2..15), then the 5 tail frames, then none */
    for (uint32_t i = 2; i < 16; i++)
        assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_4K), i);
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_4K), 1056u + i);
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_4K), UVM_NONE);
    assert_int_equal(p.nfree, 0);
    uvm_pmm_fini(&p);
}

static void test_merge_and_bad_free(void **state) {
    (void)state;
    uvm_pmm_t p;
    assert_int_equal(uvm_pmm_init(&p, 512), 0);
    uint32_t f[512];
    for (uint32_t i = 0; i < 512; i++)
        assert_int_equal(f[i] = uvm_pmm_alloc(&p, UVM_CHUNK_4K), i);
    /* bad frees change nothing */
    assert_int_equal(uvm_pmm_free(&p, 512, UVM_CHUNK_4K), -1); /* out of range */
    assert_int_equal(uvm_pmm_free(&p, 8, UVM_CHUNK_64K), -1);  /* misaligned */
    assert_int_equal(uvm_pmm_free(&p, 0, UVM_CHUNK_CLASSES), -1);
    assert_int_equal(uvm_pmm_free(&p, 3, UVM_CHUNK_4K), 0);
    assert_int_equal(uvm_pmm_free(&p, 3, UVM_CHUNK_4K), -1);  /* double free */
    assert_int_equal(uvm_pmm_free(&p, 0, UVM_CHUNK_64K), -1); /* frame 3 of it is free */
    assert_int_equal(p.nfree, 1);
    /* free frames 16..31 one by one: a 64 KB allocation merges them (lazily) */
    for (uint32_t i = 16; i < 32; i++)
        assert_int_equal(uvm_pmm_free(&p, i, UVM_CHUNK_4K), 0);
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_64K), 16);
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_64K), UVM_NONE); /* only frame 3 is free */
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_4K), 3);         /* merged frames gone */
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_4K), UVM_NONE);
    /* free everything as 4 KB and 64 KB chunks: a 2 MB allocation merges the whole root */
    for (uint32_t i = 0; i < 512; i++)
        if (i < 16 || i >= 32)
            assert_int_equal(uvm_pmm_free(&p, i, UVM_CHUNK_4K), 0);
    assert_int_equal(uvm_pmm_free(&p, 16, UVM_CHUNK_64K), 0);
    assert_int_equal(p.nfree, 512);
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_2M), 0);
    assert_int_equal(p.nfree, 0);
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_4K), UVM_NONE);
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_64K), UVM_NONE);
    /* and splits again after it is freed */
    assert_int_equal(uvm_pmm_free(&p, 0, UVM_CHUNK_2M), 0);
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_64K), 0);
    assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_4K), 16);
    uvm_pmm_fini(&p);
}

/* 4 KB only: the same frames in the same order as the former free stack. */
static void test_4k_order_matches_old_stack(void **state) {
    (void)state;
    const uint32_t sizes[] = {1, 7, 16, 17, 512, 700, NFR};
    uint64_t r = 12345;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        const uint32_t n = sizes[si];
        uvm_pmm_t p;
        assert_int_equal(uvm_pmm_init(&p, n), 0);
        uint32_t *stack = malloc(n * sizeof *stack), *held = malloc(n * sizeof *held);
        assert_non_null(stack);
        assert_non_null(held);
        uint32_t ns = n, nh = 0;
        for (uint32_t i = 0; i < n; i++)
            stack[i] = n - 1u - i;
        for (int it = 0; it < 20000; it++) {
            rng_xorshift64(&r);
            if ((r % 3u) != 0 || nh == 0) { /* allocate */
                const uint32_t want = ns ? stack[--ns] : UVM_NONE;
                assert_int_equal(uvm_pmm_alloc(&p, UVM_CHUNK_4K), want);
                if (want != UVM_NONE)
                    held[nh++] = want;
            } else { /* free a random held frame */
                const uint32_t k = (uint32_t)((r >> 20) % nh);
                const uint32_t fr = held[k];
                held[k] = held[--nh];
                stack[ns++] = fr;
                assert_int_equal(uvm_pmm_free(&p, fr, UVM_CHUNK_4K), 0);
            }
            assert_int_equal(p.nfree, ns);
        }
        free(stack);
        free(held);
        uvm_pmm_fini(&p);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_split_and_exhaustion),
        cmocka_unit_test(test_merge_and_bad_free),
        cmocka_unit_test(test_4k_order_matches_old_stack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
