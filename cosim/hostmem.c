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
    return h->mem ? 0 : -1;
}

void hostmem_free(hostmem_t *h) {
    free(h->mem);
    h->mem = NULL;
    u64map_free(&h->tags);
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
