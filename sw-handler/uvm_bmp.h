/*
 * uvm_bmp.h - the handler's read of the GMMU's referenced-line bitmaps (DynaMap's AccPST over the
 * hardware PST): the per-page table in GPU memory that the L1 TLBs' bitmaps are ORed into,
 * docs/microarch.md §20.5; docs/handler.md §6x.2.
 */
#ifndef UVM_BMP_H
#define UVM_BMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uvm_handler.h"

/* the bytes of a line a bit stands for (DynaMap's L) and the lines of a 4 KB page */
#define UVM_BMP_LINE_BYTES 128u
#define UVM_BMP_LINES 32u

/* Records where the table is: GPU physical address of its first word (8-byte aligned), its
 * first page vpn0 (a multiple of 16: the CSR BMP_VPN0 holds vpn0 >> 4) and its pages (0: no
 * table). The device's registers BMP_BASE / BMP_VPN0 / BMP_PAGES must hold the same values.
 * False (nothing recorded) on a misaligned base or vpn0. */
bool uvm_bmp_table_set(uvm_handler_t *h, uint64_t base, uint64_t vpn0, uint32_t pages);

/* Whether page vpn has a word in the table (a table is set and vpn lies in its window). */
bool uvm_bmp_has(const uvm_handler_t *h, uint64_t vpn);

/* The 32-bit bitmap of page vpn (bit i: line i of 128 B was referenced while a translation of
 * the page was cached in an L1 and has been written back), read from GPU memory through the
 * device as the driver would (dev.gpu_read64); 0 for a page outside the table or with no table. */
uint32_t uvm_bmp_read(const uvm_handler_t *h, uint64_t vpn);

/* Clears page vpn's bitmap in the table (a read-modify-write of its 8-byte word through the
 * device; the other page of the word is kept), so the next count starts from nothing (DynaMap
 * measures per residence). False for a page outside the table. */
bool uvm_bmp_clear(uvm_handler_t *h, uint64_t vpn);

/* uvm_handler_init_device's step with cfg.bmp_window_pages > 0 (the GMMU has the bitmaps):
 * allocates the table in the page-table pool over the window of the allocations declared so far
 * (first page rounded down to 16, at most bmp_window_pages pages), records it
 * (uvm_bmp_table_set) and programs BMP_BASE_LO/HI, BMP_VPN0, BMP_PAGES. 0, or -1 with err set
 * when the pool has no room. Nothing with bmp_window_pages = 0. */
int uvm_bmp_init_device(uvm_handler_t *h, char *err, size_t errlen);

/* DynaMap's spatial utilization of a bitmap, in bytes: referenced lines * 128. */
static inline uint32_t uvm_bmp_bytes(uint32_t bmp) {
    return (uint32_t)__builtin_popcount(bmp) * UVM_BMP_LINE_BYTES;
}

#endif
