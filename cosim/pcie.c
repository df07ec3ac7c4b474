#include "pcie.h"

#include <math.h>
#include <string.h>

#define PCIE_PI 3.14159265358979323846

static const double tbl_kb[] = {4, 16, 64, 256, 1024};
static const double tbl_gbps[] = {3.22, 6.44, 8.48, 10.51, 11.22};
#define TBL_N 5

double pcie_bandwidth_gbps(const pcie_link_t *l, uint64_t bytes) {
    const double kb = (double)(bytes ? bytes : 1) / 1024.0;
    const double scale = l->peak_gbps / 16.0;
    if (l->model == PCIE_MODEL_ATAN)
        return (l->peak_gbps * 1.5 / PCIE_PI) * atan(0.07292 * kb);
    if (kb <= tbl_kb[0])
        return tbl_gbps[0] * scale;
    if (kb >= tbl_kb[TBL_N - 1])
        return tbl_gbps[TBL_N - 1] * scale;
    int i = 0;
    while (kb > tbl_kb[i + 1])
        i++;
    if (kb == tbl_kb[i + 1])
        return tbl_gbps[i + 1] * scale;
    const double x0 = log(tbl_kb[i]), x1 = log(tbl_kb[i + 1]);
    const double t = (log(kb) - x0) / (x1 - x0);
    return (tbl_gbps[i] + t * (tbl_gbps[i + 1] - tbl_gbps[i])) * scale;
}

double pcie_transfer_ns(const pcie_link_t *l, uint64_t bytes) {
    return l->latency_ns + (double)bytes / pcie_bandwidth_gbps(l, bytes);
}

uint64_t pcie_ns_to_cycles(double ns, double clock_mhz) {
    if (ns <= 0.0)
        return 0;
    return (uint64_t)ceil(ns * clock_mhz / 1000.0 - 1e-9);
}

void pcie_dma_init(pcie_dma_t *d, const pcie_link_t *link, double clock_mhz) {
    d->link = *link;
    d->clock_mhz = clock_mhz;
    d->channels = 1;
    memset(d->chan_free, 0, sizeof d->chan_free);
    d->busy_cycles[0] = d->busy_cycles[1] = 0;
}

void pcie_dma_set_channels(pcie_dma_t *d, unsigned channels) {
    d->channels = channels < 1 ? 1 : channels > PCIE_MAX_CHANNELS ? PCIE_MAX_CHANNELS : channels;
}

uint64_t pcie_remote_access(pcie_dma_t *d, int dir, uint64_t bytes, double latency_ns,
                            uint64_t now) {
    uint64_t *free_at = d->chan_free[dir ? 1 : 0];
    unsigned c = 0;
    for (unsigned i = 1; i < d->channels; i++)
        if (free_at[i] < free_at[c])
            c = i;
    const uint64_t start = free_at[c] > now ? free_at[c] : now;
    uint64_t occ =
        pcie_ns_to_cycles((double)bytes / pcie_bandwidth_gbps(&d->link, bytes), d->clock_mhz);
    if (occ == 0)
        occ = 1;
    free_at[c] = start + occ;
    d->busy_cycles[dir ? 1 : 0] += occ;
    return start + occ + pcie_ns_to_cycles(latency_ns, d->clock_mhz);
}

uint64_t pcie_dma_schedule(pcie_dma_t *d, int dir, uint64_t bytes, uint64_t now) {
    uint64_t *free_at = d->chan_free[dir ? 1 : 0];
    unsigned c = 0;
    for (unsigned i = 1; i < d->channels; i++)
        if (free_at[i] < free_at[c])
            c = i;
    const uint64_t start = free_at[c] > now ? free_at[c] : now;
    uint64_t dur = pcie_ns_to_cycles(pcie_transfer_ns(&d->link, bytes), d->clock_mhz);
    if (dur == 0)
        dur = 1;
    free_at[c] = start + dur;
    d->busy_cycles[dir ? 1 : 0] += dur;
    return start + dur;
}
