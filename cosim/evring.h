/*
 * evring.h - ring buffer of the last platform-level transactions (module evr_), printed on a
 * mismatch, a watchdog expiry or an error. Entries are stored raw and formatted when printed.
 */
#ifndef COSIM_EVRING_H
#define COSIM_EVRING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EVR_SIZE 32

typedef enum {
    EVR_REQ,      /* a: sm, b: port, c: id, x: vpn, y: write */
    EVR_HIT,      /* a: sm, b: port, c: id, x: ppn */
    EVR_MISS,     /* a: sm, c: id, x: ppn, y: fatal */
    EVR_MEM_REQ,  /* c: id, x: addr */
    EVR_MEM_RSP,  /* c: id, x: data */
    EVR_FB_WR,    /* x: addr, y: vpn, c: word 7 */
    EVR_CSR_RD,   /* c: addr, x: data */
    EVR_CSR_WR,   /* c: addr, x: data */
    EVR_DMA_SUB,  /* a: dir, c: handle, x: src, y: dst, b: pages */
    EVR_DMA_DONE, /* a: dir, c: handle */
    EVR_PTE_WR,   /* x: pa, y: value */
    EVR_HDL,      /* a: 1 enter / 0 leave */
    EVR_CHAOS,    /* c: command, x: vpn */
    EVR_KERNEL,   /* c: kernel index */
} evr_kind_t;

typedef struct {
    uint64_t cycle;
    uint8_t kind, a;
    uint16_t b;
    uint32_t c;
    uint64_t x, y;
} evr_ent_t;

typedef struct {
    evr_ent_t e[EVR_SIZE];
    uint64_t n; /* entries ever recorded */
} evr_t;

static inline void evr_add(evr_t *r, uint64_t cycle, evr_kind_t kind, uint8_t a, uint16_t b,
                           uint32_t c, uint64_t x, uint64_t y) {
    evr_ent_t *e = &r->e[r->n++ % EVR_SIZE];
    e->cycle = cycle;
    e->kind = (uint8_t)kind;
    e->a = a;
    e->b = b;
    e->c = c;
    e->x = x;
    e->y = y;
}

/* Prints the last entries, oldest first. */
void evr_print(const evr_t *r, FILE *f);

#endif
