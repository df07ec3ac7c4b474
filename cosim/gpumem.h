/*
 * gpumem.h - GPU memory model (module gpumem_): page-table pages (512 u64 each) and data frames
 * (one 64-bit content tag per 4 KB frame), plus the PTE read port of gmmu_top: a request is read
 * when it is transferred (data as of acceptance), its response is due mem_latency (or the
 * request's own latency: the L2 data cache's hit or miss, l2d.h) + a seeded jitter in
 * [0, mem_jitter] cycles later; at most one response per cycle, the earliest due first
 * (ties: acceptance order), so responses may come back out of order.
 */
#ifndef COSIM_GPUMEM_H
#define COSIM_GPUMEM_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

typedef struct {
    uint64_t due, seq, data;
    uint8_t id;
} gpumem_rsp_t;

typedef struct {
    uint64_t pt_base, pt_pages; /* page-table region [pt_base, pt_base + pt_pages*4K) */
    uint64_t data_base, data_pages;
    uint64_t *pt;   /* pt_pages * 512 words */
    uint64_t *tags; /* data_pages content tags */
    uint32_t latency, jitter;
    rng_t rng;
    gpumem_rsp_t *q;
    size_t nq, capq;
    uint64_t seq;
    uint64_t reads, bad_reads;
} gpumem_t;

/* 0, or -1 if memory runs out. Frames start with a "never written" tag (gpumem_garbage_tag). */
int gpumem_init(gpumem_t *g, uint64_t pt_base, uint64_t pt_pages, uint64_t data_base,
                uint64_t data_pages, uint32_t latency, uint32_t jitter, uint64_t seed);
void gpumem_free(gpumem_t *g);
uint64_t gpumem_garbage_tag(uint64_t ppn);

/* 1 if pa (8-byte aligned) lies in page-table memory. */
int gpumem_is_pt(const gpumem_t *g, uint64_t pa);
/* 1 if ppn is a data frame. */
int gpumem_is_frame(const gpumem_t *g, uint64_t ppn);
/* Page-table word access; 0 / -1 if pa is outside page-table memory or unaligned. */
int gpumem_write64(gpumem_t *g, uint64_t pa, uint64_t v);
int gpumem_read64(const gpumem_t *g, uint64_t pa, uint64_t *v);
/* Frame content tags (ppn must be a data frame). */
uint64_t gpumem_tag(const gpumem_t *g, uint64_t ppn);
void gpumem_set_tag(gpumem_t *g, uint64_t ppn, uint64_t tag);

/* PTE read port. accept: a request transferred at cycle now; returns 0, -1 if the address is
 * not page-table memory (the response then carries 0), -2 if memory runs out (not queued). */
int gpumem_accept(gpumem_t *g, uint64_t now, uint64_t pa, uint8_t id);
/* The same with this request's latency instead of g->latency (the L2 data cache's hit or miss,
 * l2d.h); the jitter is added as for every request. */
int gpumem_accept_lat(gpumem_t *g, uint64_t now, uint64_t pa, uint8_t id, uint32_t latency);
/* The response to deliver at cycle now (removed from the queue): 1, or 0 if none is due. */
int gpumem_pop_due(gpumem_t *g, uint64_t now, uint8_t *id, uint64_t *data);
/* 1 if a response is due at or before now. */
int gpumem_has_due(const gpumem_t *g, uint64_t now);
/* Earliest due cycle of a pending response (UINT64_MAX if none). */
uint64_t gpumem_next_due(const gpumem_t *g);
size_t gpumem_pending(const gpumem_t *g);

#endif
