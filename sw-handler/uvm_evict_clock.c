/*
 * uvm_evict_clock.c - eviction policy "clock" (second chance from the accessed bit, as an OS
 * does; docs/handler.md §6r). Needs the walker's accessed bits (ad_bits = 1, docs/microarch.md
 * §18): the hand sweeps the GPU frames in frame order; a resident page not pinned in the current
 * block whose leaf PTE has ACC set gets a second chance: the handler clears ACC (its own
 * read-modify-write of the leaf, at one instant), then INVAL_PAGE (waited for) so that the next
 * access walks again and sets ACC; the first such page found with ACC clear is the victim and
 * the hand moves past it. Two sweeps at most (after one, every ACC seen was cleared). A large
 * page's A/D are in entry 0 of its level-3 table (the read and the clear are the placement layer's
 * uvm_place_clear_accessed, which owns leaf writes and shootdowns). Cost: per PTE read
 * hdl_pte_read_ns (a PCIe read of GPU memory), per clear hdl_pte_ns and the INVAL_PAGE's wait.
 * pick(gran): the aligned group of gran frames of the victim that uvm_evict_group_ok accepts.
 */
#include <stdlib.h>

#include "uvm_priv.h"

typedef struct {
    uint32_t hand; /* next frame the sweep looks at */
} clock_t_;

static int clock_init(uvm_handler_t *h, void **priv) {
    (void)h;
    clock_t_ *c = calloc(1, sizeof *c);
    *priv = c;
    return c ? 0 : -1;
}

static void clock_fini(void *priv) {
    free(priv);
}

static uint32_t clock_pick(uvm_handler_t *h, void *priv, uint32_t gran_pages) {
    clock_t_ *c = priv;
    const uint32_t n = h->cfg.gpu_data_pages;
    if (!uvm_evict_gran_valid(gran_pages) || n == 0)
        return UVM_NONE;
    for (uint64_t step = 0; step < 2u * (uint64_t)n + 1u; step++) {
        const uint32_t f = c->hand % n;
        c->hand = (f + 1u) % n;
        const uvm_frame_t *fr = &h->frames[f];
        if (!fr->resident)
            continue;
        if (gran_pages == 1u ? uvm_frame_pinned(h, f)
                             : !uvm_evict_group_ok(h, f & ~(gran_pages - 1u), gran_pages))
            continue;
        if (uvm_place_clear_accessed(h, fr->vpn))
            continue;
        return f & ~(gran_pages - 1u);
    }
    return UVM_NONE;
}

const uvm_evict_ops_t uvm_evict_clock_ops = {"clock", clock_init, clock_fini, 0,
                                             NULL,    clock_pick, false,      NULL};
