#include "u64map.h"

#include <stdlib.h>
#include <string.h>

#include "rng.h"

void u64map_init(u64map_t *m) {
    memset(m, 0, sizeof(*m));
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

static size_t slot_of(uint64_t key, size_t cap) {
    return (size_t)rng_mix64(key) & (cap - 1);
}

int u64map_get(const u64map_t *m, uint64_t key, uint64_t *val) {
    if (m->cap == 0)
        return 0;
    for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (!m->used[i])
            return 0;
        if (m->keys[i] == key) {
            if (val)
                *val = m->vals[i];
            return 1;
        }
    }
}

static int grow(u64map_t *m) {
    const size_t ncap = m->cap ? m->cap * 2 : 64;
    uint64_t *nk = malloc(ncap * sizeof(*nk));
    uint64_t *nv = malloc(ncap * sizeof(*nv));
    uint8_t *nu = calloc(ncap, 1);
    if (!nk || !nv || !nu) {
        free(nk);
        free(nv);
        free(nu);
        return -1;
    }
    for (size_t j = 0; j < m->cap; j++) {
        if (!m->used[j])
            continue;
        size_t i = slot_of(m->keys[j], ncap);
        while (nu[i])
            i = (i + 1) & (ncap - 1);
        nu[i] = 1;
        nk[i] = m->keys[j];
        nv[i] = m->vals[j];
    }
    free(m->keys);
    free(m->vals);
    free(m->used);
    m->keys = nk;
    m->vals = nv;
    m->used = nu;
    m->cap = ncap;
    return 0;
}

int u64map_put(u64map_t *m, uint64_t key, uint64_t val) {
    if ((m->count + 1) * 2 > m->cap && grow(m) != 0)
        return -1;
    size_t i = slot_of(key, m->cap);
    while (m->used[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    if (!m->used[i]) {
        m->used[i] = 1;
        m->keys[i] = key;
        m->count++;
    }
    m->vals[i] = val;
    return 0;
}
