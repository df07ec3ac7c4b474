/*
 * uvm_mem.c - GPU data frames: free list, migration-ordered LRU list, victim selection and
 * eviction (PTE clear -> INVAL_PAGE -> wait -> D2H write-back -> frame reuse).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "uvm_priv.h"

uint64_t uvm_frame_pa(const uvm_handler_t *h, uint32_t frame) {
    return h->cfg.gpu_data_base_pa + ((uint64_t)frame << GMMU_PAGE_SHIFT);
}

int uvm_mem_init(uvm_handler_t *h) {
    const uint32_t n = (uint32_t)h->cfg.gpu_data_pages;
    h->frames = calloc(n, sizeof *h->frames);
    h->free_stack = malloc((size_t)n * sizeof *h->free_stack);
    if (!h->frames || !h->free_stack)
        return -1;
    const size_t expect = n < (UINT32_C(1) << 20) ? n : (UINT32_C(1) << 20);
    if (uvm_map_init(&h->resident, expect) != 0)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        h->frames[i].lru_prev = UVM_NONE;
        h->frames[i].lru_next = UVM_NONE;
        h->free_stack[i] = n - 1u - i; /* pop order: frame 0 first */
    }
    h->nfree = n;
    h->lru_head = UVM_NONE;
    h->lru_tail = UVM_NONE;
    return 0;
}

void uvm_mem_free(uvm_handler_t *h) {
    free(h->frames);
    free(h->free_stack);
    h->frames = NULL;
    h->free_stack = NULL;
    uvm_map_free(&h->resident);
}

static void lru_unlink(uvm_handler_t *h, uint32_t f) {
    uvm_frame_t *fr = &h->frames[f];
    if (fr->lru_prev != UVM_NONE)
        h->frames[fr->lru_prev].lru_next = fr->lru_next;
    else
        h->lru_head = fr->lru_next;
    if (fr->lru_next != UVM_NONE)
        h->frames[fr->lru_next].lru_prev = fr->lru_prev;
    else
        h->lru_tail = fr->lru_prev;
    fr->lru_prev = UVM_NONE;
    fr->lru_next = UVM_NONE;
}

static void lru_append(uvm_handler_t *h, uint32_t f) {
    uvm_frame_t *fr = &h->frames[f];
    fr->lru_prev = h->lru_tail;
    fr->lru_next = UVM_NONE;
    if (h->lru_tail != UVM_NONE)
        h->frames[h->lru_tail].lru_next = f;
    else
        h->lru_head = f;
    h->lru_tail = f;
}

static bool pinned(const uvm_handler_t *h, uint32_t f) {
    return h->frames[f].pin_block == h->block_gen;
}

static uint64_t xorshift64(uint64_t *s) {
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *s = x;
    return x;
}

static uint32_t pick_victim(uvm_handler_t *h) {
    if (h->cfg.evict == UVM_EVICT_RANDOM) {
        const uint64_t n = h->cfg.gpu_data_pages;
        const uint64_t start = xorshift64(&h->rng) % n;
        for (uint64_t i = 0; i < n; i++) {
            const uint32_t f = (uint32_t)((start + i) % n);
            if (h->frames[f].resident && !pinned(h, f))
                return f;
        }
        return UVM_NONE;
    }
    /* LRU by migration time (nvidia-uvm evicts by allocation/migration age, not GPU access) */
    for (uint32_t f = h->lru_head; f != UVM_NONE; f = h->frames[f].lru_next)
        if (!pinned(h, f))
            return f;
    return UVM_NONE;
}

static void evict(uvm_handler_t *h, uint32_t f) {
    uvm_frame_t *fr = &h->frames[f];
    const uint64_t vpn = fr->vpn;
    /* 1. unmap, 2. shoot down the GPU TLBs and wait, 3. write back, 4. reuse */
    uvm_pt_unmap(h, vpn);
    uvm_cmd(h, GMMU_CMD_INVAL_PAGE, true, vpn, true);
    h->stats.invalidates++;
    if (fr->writable) {
        const uint64_t d = h->dev.dma_submit(h->dev.ctx, UVM_DMA_D2H, uvm_frame_pa(h, f),
                                             vpn << GMMU_PAGE_SHIFT, UVM_PAGE_BYTES);
        h->dev.dma_wait(h->dev.ctx, d);
        h->stats.pages_d2h++;
        h->stats.bytes_d2h += UVM_PAGE_BYTES;
    }
    h->dev.cpu_delay(h->dev.ctx, h->cfg.t_evict_ns);
    uvm_map_del(&h->resident, vpn);
    lru_unlink(h, f);
    fr->resident = false;
    h->stats.evictions++;
    h->stats.data_pages_resident--;
}

uint32_t uvm_frame_get(uvm_handler_t *h) {
    if (h->nfree > 0)
        return h->free_stack[--h->nfree];
    const uint32_t v = pick_victim(h);
    if (v != UVM_NONE)
        evict(h, v);
    return v;
}

int uvm_frame_assign(uvm_handler_t *h, uint32_t f, uint64_t vpn, bool writable) {
    if (uvm_map_put(&h->resident, vpn, f) != 0)
        return -1;
    uvm_frame_t *fr = &h->frames[f];
    fr->vpn = vpn;
    fr->resident = true;
    fr->writable = writable;
    fr->mig_seq = ++h->mig_seq;
    fr->mig_ns = h->dev.now_ns ? h->dev.now_ns(h->dev.ctx) : 0;
    fr->pin_block = h->block_gen;
    lru_append(h, f);
    h->stats.data_pages_resident++;
    return 0;
}

void uvm_frame_release(uvm_handler_t *h, uint32_t f) {
    uvm_frame_t *fr = &h->frames[f];
    if (fr->resident) {
        uvm_map_del(&h->resident, fr->vpn);
        lru_unlink(h, f);
        fr->resident = false;
        h->stats.data_pages_resident--;
    }
    h->free_stack[h->nfree++] = f;
}
