/*
 * uvm_remote.c - remote pages that migrate to the GPU, and the policies that map pages remotely
 * (docs/handler.md §6l, issue 21 item 1). The mapping itself is uvm_place_remote.c.
 */
#include "uvm_place.h"

/* ---- §6l.2: faults served by a remote mapping instead of a migration ---- */

bool uvm_remote_pin(uvm_handler_t *h, uvm_blk_ctx_t *c, uint64_t vpn) {
    if (!h->cfg.thrashing_pin_host || !uvm_thrash_pinned(h, vpn))
        return false;
    h->stats.remote_pins++;
    if (!uvm_block_pt_room(h, c, vpn))
        uvm_cancel_page(h, vpn, "no page-table page left");
    else if (uvm_remote_map(h, vpn, 1, true) < 0)
        uvm_cancel_page(h, vpn, "its remote mapping could not be built");
    else if (h->replay->page_done)
        h->replay->page_done(h, vpn);
    return true;
}

bool uvm_remote_fault(uvm_handler_t *h, uvm_blk_ctx_t *c, uint64_t vpn) {
    const bool remote = uvm_remote_wanted(h, vpn);
    uvm_dyn_decided(h, vpn, remote); /* §6x: a page evicted before */
    if (!remote)
        return false;
    if (!uvm_block_pt_room(h, c, vpn))
        uvm_cancel_page(h, vpn, "no page-table page left");
    else if (uvm_remote_map(h, vpn, 1, true) < 0)
        uvm_cancel_page(h, vpn, "its remote mapping could not be built");
    else if (h->replay->page_done)
        h->replay->page_done(h, vpn);
    return true;
}

bool uvm_remote_migrate(uvm_handler_t *h, uint64_t vpn) {
    const uvm_alloc_t *al = uvm_find_alloc(h, vpn);
    if (!al || !uvm_remote_is(h, vpn))
        return false;
    /* the remote mapping goes when the page gets its frame (uvm_frame_assign): with none free
     * and no victim the page stays remote, still mapped */
    return uvm_migrate_page(h, vpn, al);
}

uint32_t uvm_remote_to_gpu(uvm_handler_t *h, uint64_t vpn, uint32_t pages) {
    uint32_t n = 0;
    if (h->ts.n) /* pipelined transfer sets: the copies in flight land first */
        uvm_ts_pipe_drain(h);
    h->block_gen++; /* the frames given now are no victims until they are mapped */
    uvm_migrate_begin(h);
    for (uint32_t i = 0; i < pages; i++)
        n += uvm_remote_migrate(h, vpn + i) ? 1u : 0u;
    uvm_migrate_flush(h);
    h->block_gen++; /* nothing stays pinned */
    return n;
}
