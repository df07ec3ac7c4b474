/*
 * uvm_place.c - the choice of the placement (docs/handler.md "Placement layer"): the only code
 * of the handler that reads cfg.page_size and cfg.frame_alloc (make check-style checks it).
 */
#include <inttypes.h>

#include "err.h"
#include "uvm_place.h"

int uvm_place_check_cfg(const uvm_cfg_t *c, char *err, size_t errlen) {
    if (c->frame_alloc > UVM_FRAME_COCOA || c->page_size > UVM_PSIZE_COCOA ||
        c->coalesce_by > UVM_COALESCE_BY_GMMU) {
        err_setf(err, errlen,
                 "uvm: frame_alloc %" PRIu32 " / page_size %" PRIu32 " / coalesce_by %" PRIu32
                 " out of range",
                 c->frame_alloc, c->page_size, c->coalesce_by);
        return -1;
    }
    if (c->frame_alloc == UVM_FRAME_COCOA && c->page_size == UVM_PSIZE_2M) {
        err_setf(err, errlen,
                 "uvm: frame_alloc cocoa with page_size 2m: a 2 MB page takes a whole 2 MB frame "
                 "(use page_size cocoa for CoCoA frames with large pages)");
        return -1;
    }
    /* a 2 MB page takes a whole 2 MB frame: with fewer frames no fault could ever be served
     * (the run would livelock into the watchdog, issue 26) */
    if (c->page_size == UVM_PSIZE_2M &&
        c->gpu_data_pages < (UINT64_C(1) << (GMMU_LARGE_SHIFT - GMMU_PAGE_SHIFT))) {
        err_setf(err, errlen,
                 "uvm: page_size 2m needs at least %u GPU frames (one 2 MB frame); the GPU memory "
                 "has %" PRIu64 " (gpu_mem_pages)",
                 1u << (GMMU_LARGE_SHIFT - GMMU_PAGE_SHIFT), c->gpu_data_pages);
        return -1;
    }
    if ((c->frame_alloc != UVM_FRAME_ANY || c->page_size != UVM_PSIZE_4K) &&
        (c->gpu_data_base_pa & ((UINT64_C(1) << GMMU_LARGE_SHIFT) - 1u)) != 0) {
        err_setf(err, errlen,
                 "uvm: gpu_data base 0x%" PRIx64 " must be 2 MB aligned for 2 MB frames",
                 c->gpu_data_base_pa);
        return -1;
    }
    return 0;
}

const uvm_place_ops_t *uvm_place_select(const uvm_cfg_t *c) {
    if (c->page_size == UVM_PSIZE_COCOA)
        return &uvm_place_cocoa_ops;
    if (c->page_size == UVM_PSIZE_2M)
        return &uvm_place_2m_ops;
    return c->frame_alloc == UVM_FRAME_COCOA ? &uvm_place_cocoa_frames_ops : &uvm_place_4k_ops;
}

void uvm_large_maybe_coalesce(uvm_handler_t *h, uvm_va_block_t *blk) {
    if (blk && h->place->merge)
        h->place->merge(h, blk);
}

/* The clock policy's test of the accessed bit (docs/handler.md §6r): true if page vpn's leaf
 * (entry 0 of its level-3 table for a large page) has ACC; then ACC is cleared (read and write
 * at one instant, so a walker's set-bits write lands before or after both) and the page's
 * translations are shot down (INVAL_PAGE, waited for), as an OS does. Cost: t_pte_read_ns per
 * read, t_pte_ns per clear. */
bool uvm_place_clear_accessed(uvm_handler_t *h, uint64_t vpn) {
    const uvm_va_block_t *blk = uvm_va_block_get(h, vpn, false);
    const uint64_t leaf_vpn =
        blk && blk->large ? vpn & ~(uint64_t)((1u << GMMU_PT_IDX_W) - 1u) : vpn;
    uint64_t pa = 0;
    if (!uvm_pt_leaf_pa(h, leaf_vpn, &pa))
        return false;
    const uint64_t pte = h->dev.gpu_read64(h->dev.ctx, pa);
    h->stats.clock_pte_reads++;
    const uint64_t acc = UINT64_C(1) << GMMU_PTE_ACC;
    const bool ref = ((pte >> GMMU_PTE_V) & 1u) && (pte & acc);
    if (ref) { /* cleared at the instant of the read, then the shootdown (as an OS does) */
        uvm_pt_write(h, pa, pte & ~acc);
        h->stats.clock_acc_clears++;
        uint32_t f = UVM_NONE;
        if (h->cfg.count_unused == UVM_UNUSED_ACC && uvm_va_block_resident(h, vpn, &f))
            h->frames[f].used = true; /* the ACC this clear drops was a use (§6z) */
    }
    h->dev.cpu_delay(h->dev.ctx, h->cfg.t_pte_read_ns);
    if (ref) {
        uvm_cmd(h, GMMU_CMD_INVAL_PAGE, true, vpn, true);
        h->stats.invalidates++;
    }
    return ref;
}
