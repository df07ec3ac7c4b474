#include "gpumem.h"

#include <stdlib.h>
#include <string.h>

#define GPUMEM_PAGE 4096ull

uint64_t gpumem_garbage_tag(uint64_t ppn) {
    return rng_hash2(0xbad0f4a3e5ull, ppn);
}

int gpumem_init(gpumem_t *g, uint64_t pt_base, uint64_t pt_pages, uint64_t data_base,
                uint64_t data_pages, uint32_t latency, uint32_t jitter, uint64_t seed) {
    memset(g, 0, sizeof(*g));
    g->pt_base = pt_base;
    g->pt_pages = pt_pages;
    g->data_base = data_base;
    g->data_pages = data_pages;
    g->latency = latency ? latency : 1;
    g->jitter = jitter;
    rng_seed(&g->rng, seed, 0x6d656d6a6974ull /* "memjit" */);
    g->pt = calloc(pt_pages * 512, sizeof(uint64_t));
    g->tags = malloc(data_pages * sizeof(uint64_t));
    if (!g->pt || !g->tags) {
        gpumem_free(g);
        return -1;
    }
    const uint64_t ppn0 = data_base / GPUMEM_PAGE;
    for (uint64_t i = 0; i < data_pages; i++)
        g->tags[i] = gpumem_garbage_tag(ppn0 + i);
    return 0;
}

void gpumem_free(gpumem_t *g) {
    free(g->pt);
    free(g->tags);
    free(g->q);
    g->pt = NULL;
    g->tags = NULL;
    g->q = NULL;
}

int gpumem_is_pt(const gpumem_t *g, uint64_t pa) {
    return (pa & 7) == 0 && pa >= g->pt_base && pa < g->pt_base + g->pt_pages * GPUMEM_PAGE;
}

int gpumem_is_frame(const gpumem_t *g, uint64_t ppn) {
    const uint64_t ppn0 = g->data_base / GPUMEM_PAGE;
    return ppn >= ppn0 && ppn < ppn0 + g->data_pages;
}

int gpumem_write64(gpumem_t *g, uint64_t pa, uint64_t v) {
    if (!gpumem_is_pt(g, pa))
        return -1;
    g->pt[(pa - g->pt_base) / 8] = v;
    return 0;
}

int gpumem_read64(const gpumem_t *g, uint64_t pa, uint64_t *v) {
    if (!gpumem_is_pt(g, pa)) {
        *v = 0;
        return -1;
    }
    *v = g->pt[(pa - g->pt_base) / 8];
    return 0;
}

uint64_t gpumem_tag(const gpumem_t *g, uint64_t ppn) {
    return g->tags[ppn - g->data_base / GPUMEM_PAGE];
}

void gpumem_set_tag(gpumem_t *g, uint64_t ppn, uint64_t tag) {
    g->tags[ppn - g->data_base / GPUMEM_PAGE] = tag;
}

static int rsp_before(const gpumem_rsp_t *a, const gpumem_rsp_t *b) {
    return a->due < b->due || (a->due == b->due && a->seq < b->seq);
}

int gpumem_accept(gpumem_t *g, uint64_t now, uint64_t pa, uint8_t id) {
    return gpumem_accept_lat(g, now, pa, id, g->latency);
}

int gpumem_accept_lat(gpumem_t *g, uint64_t now, uint64_t pa, uint8_t id, uint32_t latency) {
    if (g->nq == g->capq) {
        const size_t ncap = g->capq ? g->capq * 2 : 16;
        gpumem_rsp_t *nq = realloc(g->q, ncap * sizeof(*nq));
        if (!nq)
            return -2;
        g->q = nq;
        g->capq = ncap;
    }
    uint64_t data = 0;
    const int rc = gpumem_read64(g, pa, &data);
    g->reads++;
    if (rc != 0)
        g->bad_reads++;
    const uint64_t jit = g->jitter ? rng_below(&g->rng, (uint64_t)g->jitter + 1) : 0;
    /* binary min-heap on (due, seq) */
    gpumem_rsp_t r = {now + (latency ? latency : 1u) + jit, g->seq++, data, id};
    size_t i = g->nq++;
    while (i > 0 && rsp_before(&r, &g->q[(i - 1) / 2])) {
        g->q[i] = g->q[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    g->q[i] = r;
    return rc;
}

int gpumem_pop_due(gpumem_t *g, uint64_t now, uint8_t *id, uint64_t *data) {
    if (g->nq == 0 || g->q[0].due > now)
        return 0;
    *id = g->q[0].id;
    *data = g->q[0].data;
    const gpumem_rsp_t last = g->q[--g->nq];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= g->nq)
            break;
        if (c + 1 < g->nq && rsp_before(&g->q[c + 1], &g->q[c]))
            c++;
        if (!rsp_before(&g->q[c], &last))
            break;
        g->q[i] = g->q[c];
        i = c;
    }
    if (g->nq > 0)
        g->q[i] = last;
    return 1;
}

int gpumem_has_due(const gpumem_t *g, uint64_t now) {
    return g->nq > 0 && g->q[0].due <= now;
}

uint64_t gpumem_next_due(const gpumem_t *g) {
    return g->nq ? g->q[0].due : UINT64_MAX;
}

size_t gpumem_pending(const gpumem_t *g) {
    return g->nq;
}
