/*
 * test_mem_rec.h - a memory trace record (trace_rec_t, kind MEM) whose 32 lanes access base +
 * i * stride, for the cmocka tests of the SM front-ends. Header-only: included by the tests
 * that need it.
 */
#ifndef TEST_MEM_REC_H
#define TEST_MEM_REC_H

#include <stdint.h>
#include <string.h>

#include "sm.h"

static trace_rec_t test_mem_rec(uint32_t cta, uint32_t warp, trace_op_t op, uint32_t gap,
                                uint32_t mask, uint64_t base, int64_t stride) {
    trace_rec_t r;
    memset(&r, 0, sizeof(r));
    r.kind = TRACE_REC_MEM;
    r.cta = cta;
    r.warp = warp;
    r.op = op;
    r.gap = gap;
    r.mask = mask;
    for (int i = 0; i < TRACE_LANES; i++)
        r.addr[i] = base + (uint64_t)(stride * i);
    return r;
}

#endif
