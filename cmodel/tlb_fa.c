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
    free(a->valid);
    free(a->w);
    free(a->plru);
    free(a->tag);
    free(a->data);
    memset(a, 0, sizeof(*a));
}

uint32_t tlb_fa_fill_pick(const tlb_fa_t *a, uint64_t tag) {
    return plru_fill_pick(a->valid, a->tag, a->n, tag, a->plru);
}

void tlb_fa_flush(tlb_fa_t *a, int all, uint64_t tag, uint64_t mask) {
    if (all) {
        memset(a->valid, 0, a->n);
        return;
    }
    for (uint32_t i = 0; i < a->n; i++)
        if ((a->tag[i] & mask) == (tag & mask))
            a->valid[i] = 0;
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
