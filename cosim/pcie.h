/*
 * pcie.h - PCIe link model and DMA engine (module pcie_).
 * Transfer time = latency + bytes / bandwidth(bytes). Bandwidth: `table` interpolates the measured
 * PCIe 3.0 x16 figures (4 KB 3.22, 16 KB 6.44, 64 KB 8.48, 256 KB 10.51, 1 MB 11.22 GB/s) linearly
 * in GB/s over log(size), clamped outside; `atan` is UVMSmart's fitted curve
 * (peak*1.5/pi)*atan(0.07292*KB). Both are scaled by peak_gbps/16 (the table was measured on a
 * 16 GB/s link). The DMA engine has independent H2D and D2H directions with `channels` copy
 * channels each (1 by default); a transfer takes the channel of its direction that is free
 * first (the lowest-numbered one on a tie) and occupies it for its whole duration.
 */
#ifndef COSIM_PCIE_H
#define COSIM_PCIE_H

#include <stdint.h>

typedef enum { PCIE_MODEL_TABLE = 0, PCIE_MODEL_ATAN = 1 } pcie_model_t;

typedef struct {
    pcie_model_t model;
    double peak_gbps;
    double latency_ns;
} pcie_link_t;

/* Effective bandwidth in GB/s (= bytes per ns) of a transfer of `bytes` (> 0). */
double pcie_bandwidth_gbps(const pcie_link_t *l, uint64_t bytes);
/* Duration of one transfer in ns: latency + bytes / bandwidth. */
double pcie_transfer_ns(const pcie_link_t *l, uint64_t bytes);

enum { PCIE_H2D = 0, PCIE_D2H = 1 };
#define PCIE_MAX_CHANNELS 8

typedef struct {
    pcie_link_t link;
    double clock_mhz;
    unsigned channels;                        /* copy channels per direction (1..8) */
    uint64_t chan_free[2][PCIE_MAX_CHANNELS]; /* cycle at which each channel is free */
    uint64_t busy_cycles[2];                  /* per direction, summed over its channels */
} pcie_dma_t;

/* One channel per direction. */
void pcie_dma_init(pcie_dma_t *d, const pcie_link_t *link, double clock_mhz);
/* Copy channels per direction, clamped to [1, PCIE_MAX_CHANNELS]; before the first transfer. */
void pcie_dma_set_channels(pcie_dma_t *d, unsigned channels);
/* Schedules a transfer submitted at cycle `now` on channel dir; returns its completion cycle
 * (> now). The channel is busy until then. */
uint64_t pcie_dma_schedule(pcie_dma_t *d, int dir, uint64_t bytes, uint64_t now);
/* A remote access (docs/microarch.md §17, docs/cosim.md "Remote accesses"): `bytes` (128 per
 * line) of host memory read (dir PCIE_H2D: the data comes to the GPU) or written (PCIE_D2H) by
 * an SM at cycle `now`. It shares the link with the DMA copies of its direction: it takes the
 * channel that frees first, occupies it for bytes / bandwidth(bytes) only (requests pipeline on
 * the link; the latency is not link occupancy), and its data is there `latency_ns` after the
 * transfer ends. Returns that cycle (> now). */
uint64_t pcie_remote_access(pcie_dma_t *d, int dir, uint64_t bytes, double latency_ns,
                            uint64_t now);
/* ns -> cycles, rounded up. */
uint64_t pcie_ns_to_cycles(double ns, double clock_mhz);

#endif
