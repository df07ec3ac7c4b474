/*
 * hbm.c - shared HBM bandwidth (see hbm.h).
 */
#include "hbm.h"

#include "trace.h"

void hbm_init(hbm_t *h, uint32_t gbps, uint32_t clock_mhz) {
    h->free_fp = 0;
    h->line_fp = 0;
    if (gbps == 0)
        return;
    /* 128 B at gbps GB/s = 128 / gbps ns = 128 * clock_mhz / (1000 * gbps) cycles */
    const uint64_t num = (uint64_t)HBM_LINE_BYTES * clock_mhz << HBM_FRAC_BITS;
    const uint64_t den = 1000ull * gbps;
    h->line_fp = (num + den / 2) / den;
    if (h->line_fp == 0)
        h->line_fp = 1; /* faster than 1/65536 cycle per line: the least representable time */
}

uint64_t hbm_reserve(hbm_t *h, uint64_t start, uint32_t lines) {
    if (h->line_fp == 0 || lines == 0)
        return start;
    const uint64_t s = start << HBM_FRAC_BITS;
    const uint64_t end = (s > h->free_fp ? s : h->free_fp) + (uint64_t)lines * h->line_fp;
    h->free_fp = end;
    const uint64_t one = 1ull << HBM_FRAC_BITS;
    return (end + one - 1) >> HBM_FRAC_BITS;
}

uint32_t hbm_lines(uint32_t mask, const uint64_t *addr) {
    uint64_t seen[TRACE_LANES] = {0};
    uint32_t n = 0;
    for (uint32_t lane = 0; lane < TRACE_LANES; lane++) {
        if (!(mask & (1u << lane)))
            continue;
        const uint64_t line = addr[lane] / HBM_LINE_BYTES;
        uint32_t j = 0;
        while (j < n && seen[j] != line)
            j++;
        if (j == n)
            seen[n++] = line;
    }
    return n;
}
