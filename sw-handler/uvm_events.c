/*
 * uvm_events.c - the handler's event stream (as nvidia-uvm's uvm_perf_events): fault, migrate,
 * evict and replay events delivered synchronously to the subscribed observers, in subscription
 * order. The statistics counters are observer 0.
 */
#include "uvm_priv.h"

void uvm_event_emit(uvm_handler_t *h, const uvm_event_t *ev) {
    const uint32_t bit = UVM_EVENT_MASK(ev->kind);
    for (uint32_t i = 0; i < h->nobservers; i++)
        if (h->observers[i].mask & bit)
            h->observers[i].fn(h->observers[i].ctx, ev);
}

int uvm_handler_subscribe(uvm_handler_t *h, uint32_t mask, uvm_event_fn_t fn, void *ctx) {
    if (!h || !fn || mask == 0 || (mask >> UVM_EVENT_KINDS) != 0 ||
        h->nobservers >= UVM_EVENT_MAX_OBSERVERS)
        return -1;
    h->observers[h->nobservers++] = (uvm_observer_t){fn, ctx, mask};
    return 0;
}

void uvm_stats_observer(void *ctx, const uvm_event_t *ev) {
    uvm_stats_t *s = ctx;
    const uint64_t bytes = (uint64_t)ev->pages * UVM_PAGE_BYTES;
    switch (ev->kind) {
    case UVM_EVENT_FAULT:
        s->faults_fetched++;
        break;
    case UVM_EVENT_MIGRATE:
        if (ev->dir == UVM_DMA_H2D) {
            s->pages_h2d += ev->pages;
            s->bytes_h2d += bytes;
        } else {
            s->pages_d2h += ev->pages;
            s->bytes_d2h += bytes;
        }
        break;
    case UVM_EVENT_EVICT:
        s->evictions++;
        break;
    case UVM_EVENT_REPLAY:
        s->replays++;
        break;
    case UVM_EVENT_KINDS:
        break;
    }
}
