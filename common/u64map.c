/*
 * u64map.c - open-addressing u64 -> u64 hash map (u64map.h).
 */
#include "u64map.h"

#include <stdlib.h>
#include <string.h>

#include "rng.h"

#define U64MAP_MIN_CAP 64u

static size_t slot_of(uint64_t key, size_t cap) {
    return (size_t)rng_mix64(key) & (cap - 1);
}

/* Allocates an empty table of ncap slots into *m (other fields untouched); 0 or -1. */
static int alloc_table(u64map_t *m, size_t ncap) {
    uint64_t *nk = malloc(ncap * sizeof(*nk));
    uint64_t *nv = malloc(ncap * sizeof(*nv));
    uint8_t *nu = calloc(ncap, 1);
    if (!nk || !nv || !nu) {
        free(nk);
        free(nv);
        free(nu);
        return -1;
    }
    m->keys = nk;
    m->vals = nv;
    m->used = nu;
    m->cap = ncap;
    return 0;
}

int u64map_init(u64map_t *m, size_t expected) {
    memset(m, 0, sizeof(*m));
    if (expected == 0)
        return 0;
    size_t cap = U64MAP_MIN_CAP;
    while (cap / 2 < expected && cap < ((size_t)1 << 40))
        cap <<= 1;
    return alloc_table(m, cap);
}

void u64map_free(u64map_t *m) {
    free(m->keys);
    free(m->vals);
    free(m->used);
    memset(m, 0, sizeof(*m));
}

void u64map_clear(u64map_t *m) {
    if (m->used)
        memset(m->used, 0, m->cap);
    m->count = 0;
}

/* The slot holding key, or the empty slot where it would go (m->cap > 0). */
static size_t find_slot(const u64map_t *m, uint64_t key) {
    const size_t mask = m->cap - 1;
    size_t i = slot_of(key, m->cap);
    while (m->used[i] && m->keys[i] != key)
        i = (i + 1) & mask;
    return i;
}

int u64map_get(const u64map_t *m, uint64_t key, uint64_t *val) {
    if (m->cap == 0)
        return 0;
    const size_t i = find_slot(m, key);
    if (!m->used[i])
        return 0;
    if (val)
        *val = m->vals[i];
    return 1;
}

static int grow(u64map_t *m) {
    u64map_t bigger;
    memset(&bigger, 0, sizeof(bigger));
    if (alloc_table(&bigger, m->cap ? m->cap * 2 : U64MAP_MIN_CAP) != 0)
        return -1;
    for (size_t j = 0; j < m->cap; j++) {
        if (!m->used[j])
            continue;
        const size_t i = find_slot(&bigger, m->keys[j]);
        bigger.used[i] = 1;
        bigger.keys[i] = m->keys[j];
        bigger.vals[i] = m->vals[j];
    }
    bigger.count = m->count;
    u64map_free(m);
    *m = bigger;
    return 0;
}

int u64map_put(u64map_t *m, uint64_t key, uint64_t val) {
    if (m->cap != 0) {
        const size_t i = find_slot(m, key);
        if (m->used[i]) {
            m->vals[i] = val;
            return 0;
        }
    }
    if ((m->count + 1) * 2 > m->cap && grow(m) != 0)
        return -1;
    const size_t i = find_slot(m, key);
    m->used[i] = 1;
    m->keys[i] = key;
    m->vals[i] = val;
    m->count++;
    return 0;
}

int u64map_del(u64map_t *m, uint64_t key) {
    if (m->cap == 0)
        return 0;
    const size_t mask = m->cap - 1;
    size_t i = find_slot(m, key);
    if (!m->used[i])
        return 0;
    /* backward-shift deletion keeps every probe chain contiguous */
    for (size_t j = (i + 1) & mask; m->used[j]; j = (j + 1) & mask) {
        const size_t home = slot_of(m->keys[j], m->cap);
        /* move j into the hole i if its home lies cyclically outside (i, j] */
        const int outside = (i <= j) ? (home <= i || home > j) : (home <= i && home > j);
        if (outside) {
            m->keys[i] = m->keys[j];
            m->vals[i] = m->vals[j];
            i = j;
        }
    }
    m->used[i] = 0;
    m->count--;
    return 1;
}

int u64map_next(const u64map_t *m, size_t *pos, uint64_t *key, uint64_t *val) {
    for (size_t i = *pos; i < m->cap; i++) {
        if (!m->used[i])
            continue;
        if (key)
            *key = m->keys[i];
        if (val)
            *val = m->vals[i];
        *pos = i + 1;
        return 1;
    }
    *pos = m->cap;
    return 0;
}
