/*
 * plru.h - tree pseudo-LRU of docs/microarch.md §1.1. An N-way tree (N a power of two) has N-1
 * bits in heap order, one uint8_t (0/1) per bit; N = 1 has no bits.
 */
#ifndef GMMU_PLRU_H
#define GMMU_PLRU_H

#include <stdint.h>

/* The way reached from the root going left on 0 and right on 1. */
uint32_t plru_victim(const uint8_t *bits, uint32_t n);
/* Points every node on the path to `way` away from it. */
void plru_touch(uint8_t *bits, uint32_t n, uint32_t way);
/* Fill choice of §1.1 over n ways (valid[i], tag[i]): the lowest valid way holding `want`, else
 * the lowest invalid way, else the PLRU victim of `bits` (RTL gmmu_fill_pick). */
uint32_t plru_fill_pick(const uint8_t *valid, const uint64_t *tag, uint32_t n, uint64_t want,
                        const uint8_t *bits);

#endif
