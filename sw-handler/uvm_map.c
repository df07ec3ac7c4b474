/*
 * uvm_map.c - small open-addressing hash map (u64 -> u64) with linear probing and
 * backward-shift deletion. Used for the resident-page index and the page-table directory.
 */
#include <stdlib.h>

#include "uvm_priv.h"

#define MAP_EMPTY UINT64_MAX

static uint64_t map_hash(uint64_t x) {
    /* splitmix64 finalizer */
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    x ^= x >> 31;
    return x;
}

static int map_alloc(uvm_map_t *m, size_t cap) {
    m->keys = malloc(cap * sizeof *m->keys);
    m->vals = malloc(cap * sizeof *m->vals);
    if (!m->keys || !m->vals) {
        free(m->keys);
        free(m->vals);
        m->keys = NULL;
        m->vals = NULL;
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        m->keys[i] = MAP_EMPTY;
    m->cap = cap;
    m->count = 0;
    return 0;
}

int uvm_map_init(uvm_map_t *m, size_t expected) {
    size_t cap = 16;
    while (cap < 2 * expected && cap < ((size_t)1 << 40))
        cap <<= 1;
    return map_alloc(m, cap);
}

void uvm_map_free(uvm_map_t *m) {
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = 0;
    m->count = 0;
}

static size_t map_find(const uvm_map_t *m, uint64_t key) {
    const size_t mask = m->cap - 1;
    size_t i = (size_t)map_hash(key) & mask;
    while (m->keys[i] != MAP_EMPTY && m->keys[i] != key)
        i = (i + 1) & mask;
    return i;
}

bool uvm_map_get(const uvm_map_t *m, uint64_t key, uint64_t *val) {
    if (m->cap == 0)
        return false;
    const size_t i = map_find(m, key);
    if (m->keys[i] != key)
        return false;
    if (val)
        *val = m->vals[i];
    return true;
}

static int map_grow(uvm_map_t *m) {
    uvm_map_t bigger;
    if (map_alloc(&bigger, m->cap * 2) != 0)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->keys[i] == MAP_EMPTY)
            continue;
        const size_t j = map_find(&bigger, m->keys[i]);
        bigger.keys[j] = m->keys[i];
        bigger.vals[j] = m->vals[i];
        bigger.count++;
    }
    uvm_map_free(m);
    *m = bigger;
    return 0;
}

int uvm_map_put(uvm_map_t *m, uint64_t key, uint64_t val) {
    if (key == MAP_EMPTY || m->cap == 0)
        return -1;
    size_t i = map_find(m, key);
    if (m->keys[i] == key) {
        m->vals[i] = val;
        return 0;
    }
    if (2 * (m->count + 1) > m->cap) {
        if (map_grow(m) != 0)
            return -1;
        i = map_find(m, key);
    }
    m->keys[i] = key;
    m->vals[i] = val;
    m->count++;
    return 0;
}

bool uvm_map_del(uvm_map_t *m, uint64_t key) {
    if (m->cap == 0)
        return false;
    const size_t mask = m->cap - 1;
    size_t i = map_find(m, key);
    if (m->keys[i] != key)
        return false;
    /* backward-shift deletion keeps every probe chain contiguous */
    size_t j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (m->keys[j] == MAP_EMPTY)
            break;
        const size_t home = (size_t)map_hash(m->keys[j]) & mask;
        /* move j into the hole i if its home lies cyclically outside (i, j] */
        const bool outside = (i <= j) ? (home <= i || home > j) : (home <= i && home > j);
        if (outside) {
            m->keys[i] = m->keys[j];
            m->vals[i] = m->vals[j];
            i = j;
        }
    }
    m->keys[i] = MAP_EMPTY;
    m->count--;
    return true;
}
