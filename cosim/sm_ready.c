/*
 * sm_ready.c - an SM's ready set (see sm_ready.h).
 */
#include "sm_ready.h"

#include <stdlib.h>
#include <string.h>

int smr_init(sm_ready_t *r, uint32_t slots) {
    memset(r, 0, sizeof(*r));
    r->slots = slots;
    const uint32_t words = (slots + 63u) / 64u;
    r->bits = calloc(words ? words : 1u, sizeof(uint64_t));
    r->heap = calloc(slots ? slots : 1u, sizeof(smr_gap_t));
    r->pos = malloc((slots ? slots : 1u) * sizeof(uint32_t));
    if (!r->bits || !r->heap || !r->pos)
        return -1;
    smr_clear(r);
    return 0;
}

void smr_free(sm_ready_t *r) {
    free(r->bits);
    free(r->heap);
    free(r->pos);
    memset(r, 0, sizeof(*r));
}

void smr_clear(sm_ready_t *r) {
    memset(r->bits, 0, (r->slots + 63u) / 64u * sizeof(uint64_t));
    r->count = 0;
    r->n = 0;
    for (uint32_t i = 0; i < r->slots; i++)
        r->pos[i] = SMR_NONE;
}

void smr_set(sm_ready_t *r, uint32_t slot) {
    const uint64_t m = 1ull << (slot % 64u);
    if (!(r->bits[slot / 64u] & m)) {
        r->bits[slot / 64u] |= m;
        r->count++;
    }
}

void smr_unset(sm_ready_t *r, uint32_t slot) {
    const uint64_t m = 1ull << (slot % 64u);
    if (r->bits[slot / 64u] & m) {
        r->bits[slot / 64u] &= ~m;
        r->count--;
    }
}

uint32_t smr_next(const sm_ready_t *r, uint32_t from, uint32_t end) {
    uint32_t w = from / 64u;
    if (from >= end)
        return end;
    uint64_t b = r->bits[w] & (~0ull << (from % 64u));
    const uint32_t last = (end - 1u) / 64u;
    for (;;) {
        if (b) {
            const uint32_t s = w * 64u + (uint32_t)__builtin_ctzll(b);
            return s < end ? s : end;
        }
        if (++w > last)
            return end;
        b = r->bits[w];
    }
}

/* heap */

static void put(sm_ready_t *r, uint32_t i, smr_gap_t g) {
    r->heap[i] = g;
    r->pos[g.slot] = i;
}

static void sift_up(sm_ready_t *r, uint32_t i) {
    const smr_gap_t g = r->heap[i];
    while (i > 0) {
        const uint32_t up = (i - 1u) / 2u;
        if (r->heap[up].at <= g.at)
            break;
        put(r, i, r->heap[up]);
        i = up;
    }
    put(r, i, g);
}

static void sift_down(sm_ready_t *r, uint32_t i) {
    const smr_gap_t g = r->heap[i];
    for (;;) {
        uint32_t c = 2u * i + 1u;
        if (c >= r->n)
            break;
        if (c + 1u < r->n && r->heap[c + 1u].at < r->heap[c].at)
            c++;
        if (g.at <= r->heap[c].at)
            break;
        put(r, i, r->heap[c]);
        i = c;
    }
    put(r, i, g);
}

/* Removes heap entry i. */
static void heap_del(sm_ready_t *r, uint32_t i) {
    r->pos[r->heap[i].slot] = SMR_NONE;
    if (--r->n == i)
        return;
    put(r, i, r->heap[r->n]);
    sift_down(r, i);
    sift_up(r, i); /* no-op unless the moved entry stayed at i */
}

void smr_gap(sm_ready_t *r, uint32_t slot, uint64_t at) {
    smr_unset(r, slot);
    uint32_t i = r->pos[slot];
    if (i == SMR_NONE) {
        i = r->n++;
        put(r, i, (smr_gap_t){at, slot});
        sift_up(r, i);
        return;
    }
    const uint64_t old = r->heap[i].at;
    r->heap[i].at = at;
    if (at < old)
        sift_up(r, i);
    else
        sift_down(r, i);
}

void smr_pop_due(sm_ready_t *r, uint64_t now) {
    while (r->n && r->heap[0].at <= now) {
        const uint32_t slot = r->heap[0].slot;
        heap_del(r, 0);
        smr_set(r, slot);
    }
}

int smr_any(const sm_ready_t *r, uint64_t now) {
    return r->count > 0 || (r->n > 0 && r->heap[0].at <= now);
}

/* Earliest end > now in the subtree of heap entry i: an entry <= now may have children > now. */
static uint64_t after(const sm_ready_t *r, uint32_t i, uint64_t now) {
    if (i >= r->n)
        return UINT64_MAX;
    if (r->heap[i].at > now)
        return r->heap[i].at; /* the subtree's minimum */
    const uint64_t a = after(r, 2u * i + 1u, now), b = after(r, 2u * i + 2u, now);
    return a < b ? a : b;
}

uint64_t smr_next_after(const sm_ready_t *r, uint64_t now) {
    return after(r, 0, now);
}

void smr_remove_slot(sm_ready_t *r, uint32_t slot) {
    if (r->pos[slot] != SMR_NONE)
        heap_del(r, r->pos[slot]);
    smr_unset(r, slot);
    /* bits above slot move down by one */
    const uint32_t words = (r->slots + 63u) / 64u;
    for (uint32_t w = slot / 64u; w < words; w++) {
        const uint64_t carry = w + 1u < words ? r->bits[w + 1u] << 63 : 0u;
        const uint64_t keep = slot / 64u == w ? r->bits[w] & ((1ull << (slot % 64u)) - 1u) : 0u;
        const uint64_t high =
            slot / 64u == w ? r->bits[w] & ~((2ull << (slot % 64u)) - 1u) : r->bits[w] & ~1ull;
        r->bits[w] = keep | high >> 1 | carry;
    }
    for (uint32_t i = 0; i < r->n; i++)
        if (r->heap[i].slot > slot)
            r->heap[i].slot--;
    for (uint32_t s = slot; s + 1u < r->slots; s++)
        r->pos[s] = r->pos[s + 1u];
    r->pos[r->slots - 1u] = SMR_NONE;
}
