/* plru.c - tree pseudo-LRU (docs/microarch.md §1.1). */
#include "plru.h"

uint32_t plru_victim(const uint8_t *bits, uint32_t n) {
    uint32_t node = 0;
    while (node + 1u < n) /* internal nodes are 0..n-2 */
        node = 2u * node + 1u + (bits[node] ? 1u : 0u);
    return node - (n - 1u);
}

void plru_touch(uint8_t *bits, uint32_t n, uint32_t way) {
    uint32_t node = n - 1u + way; /* leaf */
    while (node > 0u) {
        const uint32_t parent = (node - 1u) / 2u;
        /* 1 if the way lies in the left subtree (node is the left child), else 0 */
        bits[parent] = (node == 2u * parent + 1u) ? 1u : 0u;
        node = parent;
    }
}

uint32_t plru_fill_pick(const uint8_t *valid, const uint64_t *tag, uint32_t n, uint64_t want,
                        const uint8_t *bits) {
    for (uint32_t i = 0; i < n; i++)
        if (valid[i] && tag[i] == want)
            return i;
    for (uint32_t i = 0; i < n; i++)
        if (!valid[i])
            return i;
    return plru_victim(bits, n);
}
