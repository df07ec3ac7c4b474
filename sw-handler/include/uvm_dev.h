/*
 * uvm_dev.h - the narrow interface through which the host fault handler reaches the device.
 * The co-simulation platform implements it (cosim/); an FPGA port would implement it over PCIe.
 * Every call may advance simulated time (the platform keeps simulating the GPU while the host
 * "waits"), exactly as a real CSR read or DMA wait does.
 */
#ifndef UVM_DEV_H
#define UVM_DEV_H

#include <stddef.h>
#include <stdint.h>

typedef enum { UVM_DMA_H2D = 0, UVM_DMA_D2H = 1 } uvm_dma_dir_t;

typedef struct uvm_dev {
    void *ctx;
    /* CSR access: one bus transaction each (takes device cycles). */
    uint32_t (*csr_read)(void *ctx, uint32_t addr);
    void (*csr_write)(void *ctx, uint32_t addr, uint32_t value);
    /* Host memory (where the fault buffer lives): plain CPU loads/stores. */
    void (*host_read)(void *ctx, uint64_t addr, void *buf, size_t len);
    void (*host_write)(void *ctx, uint64_t addr, const void *buf, size_t len);
    /* GPU memory 64-bit word access (page tables): a posted PCIe write / a PCIe read. */
    void (*gpu_write64)(void *ctx, uint64_t pa, uint64_t value);
    uint64_t (*gpu_read64)(void *ctx, uint64_t pa);
    /* DMA: copy bytes of managed memory. H2D: src = VA of the managed page (host copy),
     * dst = GPU physical address; D2H: src = GPU physical address, dst = VA (host copy).
     * Returns a handle; dma_wait blocks (simulated time advances) until it completes. */
    uint64_t (*dma_submit)(void *ctx, uvm_dma_dir_t dir, uint64_t src, uint64_t dst,
                           uint64_t bytes);
    void (*dma_wait)(void *ctx, uint64_t handle);
    /* Model host CPU time: the device keeps running for ns nanoseconds. */
    void (*cpu_delay)(void *ctx, uint64_t ns);
    /* Current simulated time in ns. */
    uint64_t (*now_ns)(void *ctx);
    /* Diagnostics (fatal faults, warnings): one line, no trailing newline. */
    void (*log)(void *ctx, const char *line);
    /* Optional (NULL: unknown): the simulated time (ns) at which the transfer completes, 0 if it
     * already has; no time passes. A real backend has the copy engine's completion interrupt
     * instead. Used by pipelined transfer sets (docs/handler.md §6m) to know when to wake. */
    uint64_t (*dma_done_ns)(void *ctx, uint64_t handle);
    /* Optional (NULL: no PST): DynaMap's software Page Spatial Table, pinned in host memory and
     * written by the instrumented program (docs/handler.md §6x.1): the referenced-line bitmap of
     * page vpn (extended VPN; bit i: its 128-byte line i was accessed) and its access count, as
     * recorded so far (0 if never). A host-memory read: no device time passes. */
    void (*pst_read)(void *ctx, uint64_t vpn, uint32_t *lines, uint32_t *count);
} uvm_dev_t;

#endif
