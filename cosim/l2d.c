/*
 * l2d.c - the GPU's L2 data cache (see l2d.h).
 */
#include "l2d.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hbm.h"
#include "rng.h"

#define L2D_DATA_BIT (1ull << 63)
#define L2D_SPACE_SHIFT TRACE_VA_BITS

int l2d_init(l2d_t *c, uint32_t capacity_kb, uint32_t ways, uint32_t line, char *err,
             size_t errlen) {
    memset(c, 0, sizeof(*c));
    if (capacity_kb == 0)
        return 0;
    if (ways == 0 || line < 8 || (line & (line - 1)) != 0) {
        snprintf(err, errlen, "l2d: ways %u, line %u B: need ways >= 1 and a power-of-two line",
                 ways, line);
        return -1;
    }
    const uint64_t bytes = (uint64_t)capacity_kb * 1024u;
    const uint64_t set_bytes = (uint64_t)ways * line;
    if (bytes % set_bytes != 0 || bytes / set_bytes > UINT32_MAX) {
        snprintf(err, errlen,
                 "l2d: l2d_kb = %u is not a whole number of sets of %u ways x %u B lines",
                 capacity_kb, ways, line);
        return -1;
    }
    c->sets = (uint32_t)(bytes / set_bytes);
    c->ways = ways;
    while ((1u << c->line_shift) < line)
        c->line_shift++;
    const size_t n = (size_t)c->sets * ways;
    c->tag = calloc(n, sizeof(uint64_t));
    c->stamp = calloc(n, sizeof(uint64_t));
    if (!c->tag || !c->stamp) {
        l2d_free(c);
        snprintf(err, errlen, "out of memory for the L2 data cache");
        return -2;
    }
    return 0;
}

void l2d_free(l2d_t *c) {
    free(c->tag);
    free(c->stamp);
    c->tag = NULL;
    c->stamp = NULL;
    c->sets = 0;
}

int l2d_on(const l2d_t *c) {
    return c->sets != 0;
}

int l2d_access(l2d_t *c, uint64_t addr) {
    const uint64_t lineno = addr >> c->line_shift;
    const uint64_t set = rng_hash2(0x6c3264ull /* "l2d" */, lineno) % c->sets;
    uint64_t *tag = &c->tag[set * c->ways];
    uint64_t *stamp = &c->stamp[set * c->ways];
    const uint64_t now = ++c->clock;
    uint32_t victim = 0;
    for (uint32_t w = 0; w < c->ways; w++) {
        if (tag[w] == lineno + 1u) {
            stamp[w] = now;
            return 1;
        }
        if (stamp[w] < stamp[victim]) /* invalid ways have stamp 0: filled first */
            victim = w;
    }
    tag[victim] = lineno + 1u;
    stamp[victim] = now;
    return 0;
}

int l2d_pte(l2d_t *c, uint64_t pa) {
    const int hit = l2d_access(c, pa);
    if (hit)
        c->pte_hits++;
    else
        c->pte_misses++;
    return hit;
}

uint32_t l2d_data(l2d_t *c, const uint64_t *keys, uint32_t n) {
    if (!c)
        return n; /* off: every line goes to DRAM (hbm.h) */
    uint32_t miss = 0;
    for (uint32_t i = 0; i < n; i++)
        miss += l2d_access(c, keys[i]) ? 0u : 1u;
    c->data_hits += n - miss;
    c->data_misses += miss;
    return miss;
}

uint32_t l2d_data_lines(const l2d_t *c, uint32_t mask, const uint64_t *addr, uint32_t space,
                        uint64_t *keys) {
    const uint64_t hi = L2D_DATA_BIT | (uint64_t)space << L2D_SPACE_SHIFT;
    const uint64_t low = (1ull << L2D_SPACE_SHIFT) - 1u;
    uint32_t n = 0;
    for (uint32_t lane = 0; lane < TRACE_LANES; lane++) {
        if (!(mask & (1u << lane)))
            continue;
        const uint64_t key = hi | ((addr[lane] & low) >> c->line_shift << c->line_shift);
        uint32_t j = 0;
        while (j < n && keys[j] != key)
            j++;
        if (j == n)
            keys[n++] = key;
    }
    return n;
}

uint32_t l2d_instr_lines(const l2d_t *c, int hbm_on, const trace_rec_t *rec, uint64_t *keys) {
    if (c)
        return l2d_data_lines(c, rec->mask, rec->addr, rec->space, keys);
    return hbm_on ? hbm_lines(rec->mask, rec->addr) : 0u;
}
