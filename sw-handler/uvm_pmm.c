/*
 * uvm_pmm.c - the chunked GPU frame allocator (after nvidia-uvm's uvm_pmm_gpu): chunks of 4 KB,
 * 64 KB (16 frames) and 2 MB (512 frames), naturally aligned. Free chunks of each size are kept
 * on a stack; an allocation takes the free chunk with the lowest address among the tops of the
 * stacks of its size and larger, splitting a larger one (its pieces pushed lowest on top). Freed
 * chunks are pushed back (LIFO). Merging is lazy: only an allocation of 64 KB or 2 MB that finds
 * no free chunk merges fully free groups of smaller chunks.
 *
 * With 4 KB allocations only, nothing is ever merged, chunks are split in ascending address order
 * and every free goes on top of the 4 KB stack, so the frames come back in exactly the order of
 * the former single free stack (lowest frame first, then last freed first); the unit test
 * test_handler_pmm.c checks this against that stack on random sequences.
 */
#include <stdlib.h>
#include <string.h>

#include "uvm_priv.h"

static const uint32_t chunk_frames[UVM_CHUNK_CLASSES] = {1u, 16u, 512u};

uint32_t uvm_chunk_frames(uvm_chunk_size_t c) {
    return (unsigned)c < UVM_CHUNK_CLASSES ? chunk_frames[c] : 0u;
}

static void push(uvm_pmm_t *p, uvm_chunk_size_t c, uint32_t first) {
    p->stack[c][p->n[c]++] = first;
}

static bool frame_free(const uvm_pmm_t *p, uint32_t f) {
    return uvm_bitmap_test(p->free_map, f);
}

static void mark(uvm_pmm_t *p, uint32_t first, uint32_t frames, bool free) {
    for (uint32_t i = 0; i < frames; i++) {
        if (free)
            uvm_bitmap_set(p->free_map, first + i);
        else
            uvm_bitmap_clear(p->free_map, first + i);
    }
}

int uvm_pmm_init(uvm_pmm_t *p, uint32_t frames) {
    memset(p, 0, sizeof *p);
    p->frames = frames;
    for (int c = 0; c < UVM_CHUNK_CLASSES; c++) {
        const size_t cap = frames / chunk_frames[c] + 1u;
        p->stack[c] = malloc(cap * sizeof *p->stack[c]);
        if (!p->stack[c])
            return -1;
    }
    p->free_map = calloc(frames / 64u + 1u, sizeof *p->free_map);
    if (!p->free_map)
        return -1;
    /* every frame free: the largest aligned chunks, each stack lowest address on top */
    const uint32_t roots = frames / 512u, tail64 = (frames % 512u) / 16u;
    for (uint32_t i = frames; i-- > (roots * 512u + tail64 * 16u);)
        push(p, UVM_CHUNK_4K, i);
    for (uint32_t i = tail64; i-- > 0;)
        push(p, UVM_CHUNK_64K, roots * 512u + i * 16u);
    for (uint32_t i = roots; i-- > 0;)
        push(p, UVM_CHUNK_2M, i * 512u);
    mark(p, 0, frames, true);
    p->nfree = frames;
    return 0;
}

void uvm_pmm_fini(uvm_pmm_t *p) {
    for (int c = 0; c < UVM_CHUNK_CLASSES; c++)
        free(p->stack[c]);
    free(p->free_map);
    memset(p, 0, sizeof *p);
}

/* Removes every entry of stack c lying in [first, first + frames); keeps the others' order. */
static void remove_range(uvm_pmm_t *p, uvm_chunk_size_t c, uint32_t first, uint32_t frames) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < p->n[c]; i++)
        if (p->stack[c][i] < first || p->stack[c][i] >= first + frames)
            p->stack[c][k++] = p->stack[c][i];
    p->n[c] = k;
}

/* Lazy merge: the lowest naturally aligned group of class c whose frames are all free and held
 * by smaller chunks only; removes them from the smaller stacks. UVM_NONE if there is none. */
static uint32_t merge_lowest(uvm_pmm_t *p, uvm_chunk_size_t c) {
    const uint32_t size = chunk_frames[c];
    for (uint32_t g = 0; g + size <= p->frames; g += size) {
        uint32_t i = 0;
        while (i < size && frame_free(p, g + i))
            i++;
        if (i < size)
            continue;
        for (int s = 0; s < (int)c; s++)
            remove_range(p, (uvm_chunk_size_t)s, g, size);
        return g;
    }
    return UVM_NONE;
}

uint32_t uvm_pmm_alloc(uvm_pmm_t *p, uvm_chunk_size_t c) {
    if ((unsigned)c >= UVM_CHUNK_CLASSES)
        return UVM_NONE;
    /* the lowest-addressed top among the stacks of class c and larger */
    int best = -1;
    for (int s = (int)c; s < UVM_CHUNK_CLASSES; s++)
        if (p->n[s] > 0 &&
            (best < 0 || p->stack[s][p->n[s] - 1u] < p->stack[best][p->n[best] - 1u]))
            best = s;
    uint32_t first;
    if (best < 0) {
        first = (c == UVM_CHUNK_4K) ? UVM_NONE : merge_lowest(p, c);
        if (first == UVM_NONE)
            return UVM_NONE;
        best = (int)c;
    } else {
        first = p->stack[best][--p->n[best]];
    }
    /* split down to class c: the upper pieces go back on the smaller stacks, lowest on top */
    for (int s = best; s > (int)c; s--) {
        const uint32_t piece = chunk_frames[s - 1];
        for (uint32_t k = chunk_frames[s] / piece; k-- > 1u;)
            push(p, (uvm_chunk_size_t)(s - 1), first + k * piece);
    }
    mark(p, first, chunk_frames[c], false);
    p->nfree -= chunk_frames[c];
    return first;
}

int uvm_pmm_free(uvm_pmm_t *p, uint32_t first, uvm_chunk_size_t c) {
    if ((unsigned)c >= UVM_CHUNK_CLASSES)
        return -1;
    const uint32_t size = chunk_frames[c];
    if (first % size != 0 || first >= p->frames || size > p->frames - first)
        return -1;
    for (uint32_t i = 0; i < size; i++)
        if (frame_free(p, first + i))
            return -1; /* double free, or a chunk that was not allocated as a whole */
    mark(p, first, size, true);
    p->nfree += size;
    push(p, c, first);
    return 0;
}
