/*
 * u64map.h - open-addressing hash map from uint64_t keys to uint64_t values (module u64map_).
 * Used for per-page tables (truth versions, host copies) and for warp lookup while loading.
 */
#ifndef COSIM_U64MAP_H
#define COSIM_U64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *keys;
    uint64_t *vals;
    uint8_t *used;
    size_t cap; /* power of two, or 0 */
    size_t count;
} u64map_t;

void u64map_init(u64map_t *m);
void u64map_free(u64map_t *m);
void u64map_clear(u64map_t *m);
/* 1 and *val if present, else 0. */
int u64map_get(const u64map_t *m, uint64_t key, uint64_t *val);
/* Inserts or replaces; 0, or -1 if memory runs out. */
int u64map_put(u64map_t *m, uint64_t key, uint64_t val);

#endif
