/*
 * uvm_migrate.c - H2D migration of the pages of the 2 MB block being serviced, in two phases as
 * nvidia-uvm's block migration: submit (per page: t_page_ns of CPU time, then the page joins the
 * open run; a run of consecutive pages in consecutive frames goes as ONE DMA of up to
 * cfg.migrate_max_pages pages, submitted as soon as it cannot grow) and commit (wait for every
 * DMA, then write the PTEs). migrate_max_pages = 1 (the default) submits every page as its own
 * 4 KB transfer right after its t_page_ns.
 */
#include "uvm_priv.h"

void uvm_migrate_begin(uvm_handler_t *h) {
    h->npending = 0;
    h->run_start = 0;
    h->run_len = 0;
}

/* Submits the open run as one DMA. */
static void submit_run(uvm_handler_t *h) {
    if (h->run_len == 0)
        return;
    const uvm_pending_t *first = &h->pending[h->run_start];
    const uint64_t d =
        h->dev.dma_submit(h->dev.ctx, UVM_DMA_H2D, first->vpn << GMMU_PAGE_SHIFT,
                          uvm_frame_pa(h, first->frame), (uint64_t)h->run_len * UVM_PAGE_BYTES);
    for (uint32_t i = 0; i < h->run_len; i++) {
        h->pending[h->run_start + i].dma = d;
        h->pending[h->run_start + i].run_head = i == 0;
    }
    uvm_event_emit(h, &(uvm_event_t){.kind = UVM_EVENT_MIGRATE,
                                     .vpn = first->vpn,
                                     .pages = h->run_len,
                                     .frame = first->frame,
                                     .dir = UVM_DMA_H2D});
    h->run_start += h->run_len;
    h->run_len = 0;
}

void uvm_migrate_add(uvm_handler_t *h, uint64_t vpn, uint32_t frame, bool writable) {
    h->dev.cpu_delay(h->dev.ctx, h->cfg.t_page_ns);
    if (h->run_len > 0) {
        const uvm_pending_t *last = &h->pending[h->run_start + h->run_len - 1u];
        if (last->vpn + 1u != vpn || last->frame + 1u != frame)
            submit_run(h);
    }
    h->pending[h->npending++] = (uvm_pending_t){vpn, 0, frame, writable, false};
    h->run_len++;
    if (h->run_len >= h->cfg.migrate_max_pages)
        submit_run(h);
}

void uvm_migrate_commit(uvm_handler_t *h) {
    submit_run(h);
    for (uint32_t i = 0; i < h->npending; i++)
        if (h->pending[i].run_head)
            h->dev.dma_wait(h->dev.ctx, h->pending[i].dma);
    for (uint32_t i = 0; i < h->npending; i++) {
        const uvm_pending_t *p = &h->pending[i];
        if (uvm_pt_map(h, p->vpn, uvm_frame_pa(h, p->frame), p->writable) != 0) {
            uvm_frame_release(h, p->frame);
            uvm_cancel_page(h, p->vpn, "cannot build its page-table chain");
            continue;
        }
        if (h->replay->page_done)
            h->replay->page_done(h, p->vpn);
    }
    uvm_migrate_begin(h);
}
