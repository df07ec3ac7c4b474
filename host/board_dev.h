/*
 * board_dev.h - the uvm_dev_t backend of the FPGA board (module bdev_): the handler's device
 * calls become bus accesses over the UART bridge (board_link.h). Bus map and registers:
 * fpga/rtl/gmmu_board.sv, docs/fpga.md "Board top".
 *
 *   csr_read/write      GMMU CSR window (one UARTBone command each)
 *   host_read/write     the fault ring, which lives in board memory at host address 0
 *   gpu_write64/read64  the board's PT memory (posted, combined into bursts)
 *   dma_submit          moves content tags: H2D writes the host copy's tag into the frame's tag
 *                       word, D2H reads it back into the host copy; done at submission (dma_wait
 *                       returns at once)
 *   cpu_delay           nothing (the host's time is real time)
 *   now_ns              the board's free-running cycle counter at its clock
 * After a link failure every call does nothing (reads return 0) and bdev_failed() is 1.
 */
#ifndef HOST_BOARD_DEV_H
#define HOST_BOARD_DEV_H

#include <stddef.h>
#include <stdint.h>

#include "board_link.h"
#include "uvm_dev.h"

/* bus map (byte addresses) and board registers */
#define BDEV_REGS 0x00000000u
#define BDEV_CSR 0x00010000u
#define BDEV_RING 0x00020000u
#define BDEV_TAGS 0x00040000u
#define BDEV_PT 0x00100000u
#define BDEV_REG_ID 0x00u
#define BDEV_REG_PARAMS0 0x04u
#define BDEV_REG_PARAMS1 0x08u
#define BDEV_REG_CLK_KHZ 0x0cu
#define BDEV_REG_STATUS 0x10u /* [0] irq, [1] GMMU idle, [2] player busy, [3] an error bit set */
#define BDEV_REG_ERR 0x14u    /* sticky, write 1 to clear (BDEV_ERR_*) */
#define BDEV_REG_REQ_FREE 0x18u
#define BDEV_REG_RES_COUNT 0x1cu
#define BDEV_REG_TIME_LO 0x20u /* reading it latches TIME_HI */
#define BDEV_REG_TIME_HI 0x24u
#define BDEV_REG_ISSUED 0x28u
#define BDEV_REG_RETIRED 0x2cu
#define BDEV_REG_REQ 0x30u  /* write twice per request: vpn[31:0], {write, sm, vpn[35:32]} */
#define BDEV_REG_RES 0x38u  /* read 4 words per result */
#define BDEV_ID 0x474d4d42u /* "GMMB" */
#define BDEV_STATUS_IRQ 0x1u
#define BDEV_STATUS_BUSY 0x4u

typedef struct {
    uint32_t num_sm, num_ports, num_ids, fb_entries;
    uint32_t frames, pt_pages, data_base_ppn, clk_khz;
} bdev_info_t;

typedef struct bdev bdev_t;

/* Reads the board's identity and parameters over link (which the device then uses; the caller
 * keeps ownership). NULL + err if the board does not answer or is not a gmmu board. */
bdev_t *bdev_new(blink_t *link, char *err, size_t errlen);
void bdev_free(bdev_t *d);
const bdev_info_t *bdev_info(const bdev_t *d);
/* The device table for the handler. */
void bdev_dev(bdev_t *d, uvm_dev_t *dev);
int bdev_failed(const bdev_t *d);
/* One line naming the first failure (link or a call outside the board's memories). */
const char *bdev_error(const bdev_t *d);
/* The host copy's content tag of a page (the truth before the page's first migration). */
uint64_t bdev_host_tag(const bdev_t *d, uint64_t vpn);
/* Walks the board's page table (root at PA 0, docs/microarch.md §6) for vpn: 1 and the PPN if
 * mapped, 0 if not, -1 on a link failure or a table outside the PT memory. */
int bdev_translate(bdev_t *d, uint64_t vpn, uint64_t *ppn);
/* The content tag of a board frame (a bus read). 0 or -1. */
int bdev_frame_tag(bdev_t *d, uint32_t frame, uint64_t *tag);
/* The initial content tag of a page. */
uint64_t bdev_initial_tag(uint64_t vpn);
/* Fault injection (to show that the checks catch a lost or wrong page): the n-th page moved
 * host-to-device (1-based; 0: none) arrives with a wrong content tag. */
void bdev_inject_bad_h2d(bdev_t *d, uint64_t n);
/* DMA transfers so far (pages each way). */
void bdev_dma_counts(const bdev_t *d, uint64_t *h2d, uint64_t *d2h);

#endif
