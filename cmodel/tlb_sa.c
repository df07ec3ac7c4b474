/* tlb_sa.c - set-associative TLB array (RTL gmmu_tlb_sa, docs/microarch.md §1.3). */
#include "tlb_sa.h"

#include "gmmu_int.h"

#include <stdlib.h>
#include <string.h>

int tlb_sa_init(tlb_sa_t *a, uint32_t sets, uint32_t ways) {
    memset(a, 0, sizeof(*a));
    a->sets = sets;
    a->ways = ways;
    const size_t nbits = (size_t)sets * (ways - 1u);
    a->plru = calloc(nbits ? nbits : 1u, 1);
    a->set = calloc(sets ? sets : 1u, sizeof(tlb_fa_t));
    a->rd_w = calloc(ways ? ways : 1u, 1);
    a->rd_data = calloc(ways ? ways : 1u, sizeof(uint64_t));
    a->rd_tag = calloc(ways ? ways : 1u, sizeof(uint64_t));
    if (!a->plru || !a->set || !a->rd_w || !a->rd_data || !a->rd_tag ||
        tlb_fa_init(&a->all, sets * ways)) {
        tlb_sa_free(a);
        return -1;
    }
    for (uint32_t s = 0; s < sets; s++) {
        const size_t b = (size_t)s * ways;
        a->set[s] = (tlb_fa_t){.n = ways,
                               .valid = a->all.valid + b,
                               .w = a->all.w + b,
                               .tag = a->all.tag + b,
                               .data = a->all.data + b,
                               .plru = a->plru + (size_t)s * (ways - 1u)};
    }
    return 0;
}

void tlb_sa_free(tlb_sa_t *a) {
    tlb_fa_free(&a->all);
    free(a->plru);
    free(a->set);
    free(a->rd_w);
    free(a->rd_data);
    free(a->rd_tag);
    memset(a, 0, sizeof(*a));
}

void tlb_sa_ram_read(tlb_sa_t *a, uint32_t set) {
    const tlb_fa_t *s = &a->set[set];
    a->rd_set = set;
    for (uint32_t w = 0; w < a->ways; w++) {
        a->rd_tag[w] = s->tag[w];
        a->rd_w[w] = s->w[w];
        a->rd_data[w] = s->data[w];
    }
}

int tlb_sa_flush(tlb_sa_t *a, int all, int set, uint64_t tag, uint64_t mask) {
    if (all || set < 0) {
        tlb_fa_flush(&a->all, all, tag, mask);
        return 0;
    }
    if ((uint32_t)set != a->rd_set)
        return -1;
    tlb_fa_flush(&a->set[set], 0, tag, mask);
    return 0;
}

uint64_t tlb_sa_match(const tlb_sa_t *a, uint32_t set, uint64_t tag) {
    return tlb_sa_view_match(&a->set[set], tag);
}

uint64_t tlb_sa_view_match(const tlb_fa_t *s, uint64_t tag) {
    uint64_t m = 0;
    for (uint32_t w = 0; w < s->n && w < 64u; w++)
        if (s->valid[w] && s->tag[w] == tag)
            m |= UINT64_C(1) << w;
    return m;
}

void tlb_sa_dump(const tlb_sa_t *a, FILE *f, const char *name, const char *tag_name,
                 const char *data_name) {
    const tlb_fa_t *e = &a->all;
    for (uint32_t i = 0; i < e->n; i++)
        if (e->valid[i])
            fprintf(f, "  %s[set %u way %u] %s=0x%llx %s=0x%llx w=%u\n", name, i / a->ways,
                    i % a->ways, tag_name, (unsigned long long)e->tag[i], data_name,
                    (unsigned long long)e->data[i], e->w[i]);
}

void tlb_sa_dump_plru(const tlb_sa_t *a, FILE *f) {
    for (uint32_t i = 0; i < a->sets * (a->ways - 1u); i++)
        fprintf(f, "%s%u", i % (a->ways - 1u) == 0 && a->ways > 1u ? " " : "", a->plru[i]);
}

int tlb_sa_state_get(const tlb_sa_t *a, const char *reg, uint32_t i, uint32_t word, uint64_t *val) {
    if (strcmp(reg, "rd_set_q") == 0 && i == 0 && word == 0)
        return (*val = a->rd_set, 0);
    if (strcmp(reg, "plru_q") != 0 || i >= a->sets)
        return -1;
    const uint32_t nodes = a->ways > 1 ? a->ways - 1u : 1u;
    *val = gmmu_pack_bits_word(a->plru + (size_t)i * (a->ways - 1u), nodes, word);
    return 0;
}

int tlb_sa_ram_state_get(const tlb_sa_t *a, uint32_t way, uint32_t data_bits, const char *reg,
                         uint32_t i, uint32_t word, uint64_t *val) {
    if (strcmp(reg, "rdata_q") != 0 || way >= a->ways || i != 0 || word > 1 || data_bits >= 63)
        return -1;
    /* {tag, w, data}: the tag starts at bit data_bits + 1 */
    const uint32_t ts = data_bits + 1u;
    if (word == 0)
        *val =
            a->rd_data[way] | ((uint64_t)(a->rd_w[way] & 1u) << data_bits) | (a->rd_tag[way] << ts);
    else
        *val = a->rd_tag[way] >> (64u - ts);
    return 0;
}
