/*
 * hostmem.h - host memory model (module hostmem_): the bytes of one region the GMMU writes fault
 * entries into (the fault ring) and the host copy of every managed page, as a 64-bit content tag
 * per VPN. A page that was never written back holds its initial content, hostmem_content_tag(vpn,
 * 0).
 */
#ifndef COSIM_HOSTMEM_H
#define COSIM_HOSTMEM_H

#include <stddef.h>
#include <stdint.h>

#include "u64map.h"

typedef struct {
    uint64_t base;  /* host address of the byte region */
    uint64_t bytes; /* its size */
    uint8_t *mem;
    u64map_t tags; /* vpn -> host copy tag, when different from the initial content */
    u64map_t pst;  /* DynaMap's page statistics table, pinned in host memory (docs/handler.md
                    * §6x): vpn -> referenced-line bitmap (low 32 bits) | access count (high 32);
                    * absent: 0 (no access recorded) */
} hostmem_t;

/* The content tag of version `version` of page vpn (version 0 = initial content). Never 0. */
uint64_t hostmem_content_tag(uint64_t vpn, uint64_t version);

/* The host frame of managed page vpn's pinned host copy, the PPN of a remote mapping (PTE APER,
 * docs/microarch.md §17; docs/cosim.md "Remote accesses"): the page's VPN in its address space. */
static inline uint64_t hostmem_frame(uint64_t vpn) {
    return vpn & ((UINT64_C(1) << 36) - 1u);
}

int hostmem_init(hostmem_t *h, uint64_t base, uint64_t bytes);
void hostmem_free(hostmem_t *h);
/* 1 if [addr, addr+len) lies inside the byte region. */
int hostmem_in_range(const hostmem_t *h, uint64_t addr, uint64_t len);
/* Byte access; 0, or -1 if outside the region (nothing is copied). */
int hostmem_read(const hostmem_t *h, uint64_t addr, void *buf, size_t len);
int hostmem_write(hostmem_t *h, uint64_t addr, const void *buf, size_t len);
/* Host copy of a managed page. */
uint64_t hostmem_page_tag(const hostmem_t *h, uint64_t vpn);
int hostmem_set_page_tag(hostmem_t *h, uint64_t vpn, uint64_t tag);

/* The PST as the instrumented program writes it (docs/handler.md §6x.1): an access of page vpn
 * touching the 128-byte lines `lines` sets their bits (read-and-bypass: an already set bit is
 * not written again) and, with `count`, adds 1 to the page's access count (saturating). Returns
 * 1 if the entry was written, 0 if the access was bypassed, -1 out of memory. */
int hostmem_pst_record(hostmem_t *h, uint64_t vpn, uint32_t lines, int count);
/* The PST entry of page vpn: its line bitmap and access count (0, 0 if never recorded). */
void hostmem_pst_get(const hostmem_t *h, uint64_t vpn, uint32_t *lines, uint32_t *count);
/* Clears the entry of page vpn (the handler's reset after a decision). */
void hostmem_pst_clear(hostmem_t *h, uint64_t vpn);

#endif
