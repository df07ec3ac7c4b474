/* tlb_fa.c - fully associative TLB array (RTL gmmu_tlb_fa, docs/microarch.md §1.2). */
#include "tlb_fa.h"

#include "gmmu_int.h"

#include <stdlib.h>
#include <string.h>

#include "plru.h"

int tlb_fa_init(tlb_fa_t *a, uint32_t n) {
    memset(a, 0, sizeof(*a));
    a->n = n;
    const size_t cnt = n ? n : 1u;
    a->valid = calloc(cnt, 1);
    a->w = calloc(cnt, 1);
    a->plru = calloc(cnt, 1);
    a->tag = calloc(cnt, sizeof(uint64_t));
    a->data = calloc(cnt, sizeof(uint64_t));
    if (!a->valid || !a->w || !a->plru || !a->tag || !a->data) {
        tlb_fa_free(a);
        return -1;
    }
    return 0;
}

void tlb_fa_free(tlb_fa_t *a) {
    free(a->ix_head);
    free(a->ix_next);
    free(a->valid);
    free(a->w);
    free(a->plru);
    free(a->tag);
    free(a->data);
    memset(a, 0, sizeof(*a));
}

/* ---- the index (tlb_fa.h) ---- */

static uint32_t ix_bucket(const tlb_fa_t *a, uint64_t tag) {
    return (uint32_t)((tag * UINT64_C(0x9E3779B97F4A7C15)) >> a->ix_shift);
}

static void ix_reset(tlb_fa_t *a) {
    memset(a->ix_head, 0xff, ((size_t)1u << (64u - a->ix_shift)) * sizeof(uint32_t));
}

int tlb_fa_index(tlb_fa_t *a) {
    if (a->n < TLB_FA_IX_MIN || a->ix_head)
        return 0;
    uint32_t bits = 1;
    while ((1u << bits) < 2u * a->n) /* two buckets per entry */
        bits++;
    a->ix_head = malloc(((size_t)1u << bits) * sizeof(uint32_t));
    a->ix_next = malloc((size_t)a->n * sizeof(uint32_t));
    if (!a->ix_head || !a->ix_next) {
        free(a->ix_head);
        free(a->ix_next);
        a->ix_head = a->ix_next = NULL;
        return -1;
    }
    a->ix_shift = 64u - bits;
    ix_reset(a);
    for (uint32_t i = a->n; i-- > 0;)
        if (a->valid[i]) {
            const uint32_t b = ix_bucket(a, a->tag[i]);
            a->ix_next[i] = a->ix_head[b];
            a->ix_head[b] = i;
        }
    return 0;
}

/* Removes valid entry i from its chain. */
static void ix_unlink(tlb_fa_t *a, uint32_t i) {
    uint32_t *at = &a->ix_head[ix_bucket(a, a->tag[i])];
    while (*at != i)
        at = &a->ix_next[*at];
    *at = a->ix_next[i];
}

void tlb_fa_ix_fill(tlb_fa_t *a, uint32_t idx, uint64_t tag) {
    if (a->valid[idx])
        ix_unlink(a, idx);
    const uint32_t b = ix_bucket(a, tag);
    a->ix_next[idx] = a->ix_head[b];
    a->ix_head[b] = idx;
}

int tlb_fa_lookup_ix(const tlb_fa_t *a, uint64_t tag, int write, uint32_t *idx, unsigned *nmatch) {
    uint32_t best = TLB_FA_NONE;
    unsigned nm = 0;
    for (uint32_t i = a->ix_head[ix_bucket(a, tag)]; i != TLB_FA_NONE; i = a->ix_next[i]) {
        if (a->tag[i] != tag)
            continue;
        nm++;
        if ((!write || a->w[i]) && i < best)
            best = i; /* the lowest, as the scan finds it */
    }
    if (nmatch)
        *nmatch = nm;
    if (best == TLB_FA_NONE)
        return 0;
    *idx = best;
    return 1;
}

uint32_t tlb_fa_fill_pick(const tlb_fa_t *a, uint64_t tag) {
    if (!a->ix_head)
        return plru_fill_pick(a->valid, a->tag, a->n, tag, a->plru);
    /* plru_fill_pick's order: the lowest valid entry of the tag, the lowest invalid, the PLRU */
    uint32_t best = TLB_FA_NONE;
    for (uint32_t i = a->ix_head[ix_bucket(a, tag)]; i != TLB_FA_NONE; i = a->ix_next[i])
        if (i < best && a->tag[i] == tag)
            best = i;
    if (best != TLB_FA_NONE)
        return best;
    const uint8_t *z = memchr(a->valid, 0, a->n);
    if (z)
        return (uint32_t)(z - a->valid);
    return plru_victim(a->plru, a->n);
}

void tlb_fa_flush(tlb_fa_t *a, int all, uint64_t tag, uint64_t mask) {
    if (all) {
        memset(a->valid, 0, a->n);
        if (a->ix_head)
            ix_reset(a);
        return;
    }
    for (uint32_t i = 0; i < a->n; i++)
        if ((a->tag[i] & mask) == (tag & mask)) {
            if (a->ix_head && a->valid[i])
                ix_unlink(a, i);
            a->valid[i] = 0;
        }
}

void tlb_fa_dump(const tlb_fa_t *a, FILE *f, const char *name, const char *tag_name,
                 const char *data_name) {
    for (uint32_t i = 0; i < a->n; i++)
        if (a->valid[i])
            fprintf(f, "  %s[%u] %s=0x%llx %s=0x%llx w=%u\n", name, i, tag_name,
                    (unsigned long long)a->tag[i], data_name, (unsigned long long)a->data[i],
                    a->w[i]);
}

void tlb_fa_dump_plru(const tlb_fa_t *a, FILE *f) {
    for (uint32_t i = 0; i + 1u < a->n; i++)
        fprintf(f, "%u", a->plru[i]);
}

int tlb_fa_state_get(const tlb_fa_t *a, const char *reg, uint32_t i, uint32_t word, uint64_t *val) {
    if (strcmp(reg, "plru_q") != 0 || i != 0)
        return -1;
    *val = gmmu_pack_bits_word(a->plru, a->n > 1 ? a->n - 1u : 1u, word);
    return 0;
}

int tlb_store_state_get(const tlb_fa_t *a, const char *reg, uint32_t i, uint32_t word,
                        uint64_t *val) {
    if (strcmp(reg, "valid_q") == 0 || strcmp(reg, "w_q") == 0) {
        *val = gmmu_pack_bits_word(reg[0] == 'v' ? a->valid : a->w, a->n, word);
        return i == 0 ? 0 : -1;
    }
    if (i >= a->n || word != 0)
        return -1;
    if (strcmp(reg, "tag_q") == 0)
        *val = a->tag[i];
    else if (strcmp(reg, "data_q") == 0)
        *val = a->data[i];
    else
        return -1;
    return 0;
}
