/*
 * u64map.h - the project's one hash map: open addressing with linear probing, uint64_t keys
 * (every value allowed) to uint64_t values, backward-shift deletion (module u64map_).
 *
 * Used for the platform's per-page tables (truth versions, host copies), the trace tool's and
 * loader's lookups, and the handler's page-table directory and VA-block index. The capacity is a
 * power of two and the table grows at half load. Iteration (u64map_next) visits the slots in
 * table order, which depends on the hash, not on the order of insertion: nothing whose result
 * must be reproducible may depend on that order (freeing every value is fine).
 */
#ifndef COMMON_U64MAP_H
#define COMMON_U64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *keys;
    uint64_t *vals;
    uint8_t *used;
    size_t cap; /* power of two, or 0 (nothing allocated yet) */
    size_t count;
} u64map_t;

/* Empty map with room for `expected` entries before it grows (0: allocates on the first put).
 * 0, or -1 if memory runs out (never with expected == 0); the map is then empty and usable. */
int u64map_init(u64map_t *m, size_t expected);
void u64map_free(u64map_t *m);
/* Removes every entry, keeps the memory. */
void u64map_clear(u64map_t *m);
/* 1 and *val (if val is not NULL) when key is present, else 0. */
int u64map_get(const u64map_t *m, uint64_t key, uint64_t *val);
/* Inserts or replaces; 0, or -1 if memory runs out (the map is then unchanged). */
int u64map_put(u64map_t *m, uint64_t key, uint64_t val);
/* Removes key; 1 if it was present, else 0. */
int u64map_del(u64map_t *m, uint64_t key);
/* Iteration: start with *pos = 0; each call returning 1 gives the next entry (key, val may be
 * NULL); 0 at the end. The map must not change during an iteration (except by u64map_free after
 * it). */
int u64map_next(const u64map_t *m, size_t *pos, uint64_t *key, uint64_t *val);

#endif
