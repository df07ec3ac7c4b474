#include "hostmem.h"

#include <stdlib.h>
#include <string.h>

#include "rng.h"

uint64_t hostmem_content_tag(uint64_t vpn, uint64_t version) {
    const uint64_t t = rng_hash2(vpn ^ 0x7a6d6d75ull, version);
    return t ? t : 1;
}

int hostmem_init(hostmem_t *h, uint64_t base, uint64_t bytes) {
    memset(h, 0, sizeof(*h));
    h->base = base;
    h->bytes = bytes;
    h->mem = calloc(bytes ? bytes : 1, 1);
    (void)u64map_init(&h->tags, 0);
    (void)u64map_init(&h->pst, 0);
    return h->mem ? 0 : -1;
}

void hostmem_free(hostmem_t *h) {
    free(h->mem);
    h->mem = NULL;
    u64map_free(&h->tags);
    u64map_free(&h->pst);
}

int hostmem_in_range(const hostmem_t *h, uint64_t addr, uint64_t len) {
    return addr >= h->base && len <= h->bytes && addr - h->base <= h->bytes - len;
}

int hostmem_read(const hostmem_t *h, uint64_t addr, void *buf, size_t len) {
    if (!hostmem_in_range(h, addr, len))
        return -1;
    memcpy(buf, h->mem + (addr - h->base), len);
    return 0;
}

int hostmem_write(hostmem_t *h, uint64_t addr, const void *buf, size_t len) {
    if (!hostmem_in_range(h, addr, len))
        return -1;
    memcpy(h->mem + (addr - h->base), buf, len);
    return 0;
}

uint64_t hostmem_page_tag(const hostmem_t *h, uint64_t vpn) {
    uint64_t t;
    if (u64map_get(&h->tags, vpn, &t))
        return t;
    return hostmem_content_tag(vpn, 0);
}

int hostmem_set_page_tag(hostmem_t *h, uint64_t vpn, uint64_t tag) {
    return u64map_put(&h->tags, vpn, tag);
}

int hostmem_pst_record(hostmem_t *h, uint64_t vpn, uint32_t lines, int count) {
    uint64_t e = 0;
    u64map_get(&h->pst, vpn, &e);
    uint64_t n = e | lines;
    if (count && (n >> 32) != UINT32_MAX)
        n += UINT64_C(1) << 32;
    if (n == e)
        return 0;
    return u64map_put(&h->pst, vpn, n) == 0 ? 1 : -1;
}

void hostmem_pst_get(const hostmem_t *h, uint64_t vpn, uint32_t *lines, uint32_t *count) {
    uint64_t e = 0;
    u64map_get(&h->pst, vpn, &e);
    *lines = (uint32_t)e;
    *count = (uint32_t)(e >> 32);
}

void hostmem_pst_clear(hostmem_t *h, uint64_t vpn) {
    (void)u64map_del(&h->pst, vpn);
}
