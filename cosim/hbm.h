/*
 * hbm.h - the GPU's DRAM bandwidth shared by every SM's memory instructions (module hbm_).
 *
 * Off unless the configuration sets hbm_gbps (docs/cosim.md, "HBM bandwidth"). One server for
 * the whole GPU: a memory instruction moves its distinct 128-byte lines (the GPU's cache-line
 * size; the trace has no access size) and occupies the server for lines x 128 B / hbm_gbps. The
 * transfer follows the instruction's compute gap: it starts at max(gap end, end of the previous
 * reservation) and the instruction may issue its translations when it ends. Reservations are
 * made in the order the warps start their gaps (deterministic: the platform's order of SMs and
 * responses), at that moment; time is kept in 1/65536 cycle, so no bandwidth is lost to rounding
 * to whole cycles.
 */
#ifndef COSIM_HBM_H
#define COSIM_HBM_H

#include <stdint.h>

#define HBM_LINE_BYTES 128u
#define HBM_FRAC_BITS 16

typedef struct {
    uint64_t line_fp; /* one line's time in 1/65536 cycle; 0: off */
    uint64_t free_fp; /* end of the last reservation, in 1/65536 cycle */
} hbm_t;

/* gbps 0: off (every reservation returns its start unchanged). */
void hbm_init(hbm_t *h, uint32_t gbps, uint32_t clock_mhz);
/* Reserves the server for lines lines from cycle start on; returns the cycle the transfer has
 * ended (rounded up to a whole cycle). */
uint64_t hbm_reserve(hbm_t *h, uint64_t start, uint32_t lines);
/* Distinct 128-byte lines of the active lanes (<= 32). */
uint32_t hbm_lines(uint32_t mask, const uint64_t *addr);

#endif
