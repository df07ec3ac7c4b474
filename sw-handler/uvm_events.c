/*
 * uvm_events.c - the handler's event stream (as nvidia-uvm's uvm_perf_events, docs/handler.md
 * §6i): typed events (uvm_event_kind_t) with a payload per kind, delivered synchronously to the
 * observers subscribed to the kind, in subscription order: the statistics counters (observer
 * 0), the configured policies (eviction, prefetch, thrashing: uvm_policy_subscribe), then the
 * observers of uvm_handler_subscribe. Emission helpers for the places where events happen.
 */
#include "uvm_priv.h"

void uvm_event_emit(uvm_handler_t *h, const uvm_event_t *ev) {
    const uint32_t bit = UVM_EVENT_MASK(ev->kind);
    for (uint32_t i = 0; i < h->nobservers; i++)
        if (h->observers[i].mask & bit)
            h->observers[i].fn(h->observers[i].ctx, ev);
}

static bool mask_ok(uint32_t mask) {
    return mask != 0 && (mask >> UVM_EVENT_KINDS) == 0;
}

int uvm_event_subscribe_internal(uvm_handler_t *h, uint32_t mask, uvm_event_fn_t fn, void *ctx) {
    if (!h || !fn || !mask_ok(mask) || h->nobservers >= UVM_EVENT_TABLE)
        return -1;
    h->observers[h->nobservers++] = (uvm_observer_t){fn, ctx, mask};
    return 0;
}

int uvm_handler_subscribe(uvm_handler_t *h, uint32_t mask, uvm_event_fn_t fn, void *ctx) {
    if (!h || h->npublic >= UVM_EVENT_MAX_OBSERVERS)
        return -1;
    if (uvm_event_subscribe_internal(h, mask, fn, ctx) != 0)
        return -1;
    h->npublic++;
    return 0;
}

void uvm_emit_migrate(uvm_handler_t *h, uvm_event_kind_t kind, uvm_dma_dir_t dir, uint64_t vpn,
                      uint32_t frame, uint32_t pages, uint64_t dma) {
    uvm_event_emit(
        h, &(uvm_event_t){
               .kind = kind,
               .migrate = {.vpn = vpn, .dma = dma, .pages = pages, .frame = frame, .dir = dir}});
}

void uvm_emit_page(uvm_handler_t *h, uvm_event_kind_t kind, uint64_t vpn, uint32_t frame,
                   uint32_t pages, bool writable) {
    uvm_event_emit(
        h,
        &(uvm_event_t){.kind = kind,
                       .page = {.vpn = vpn, .pages = pages, .frame = frame, .writable = writable}});
}

void uvm_emit_evict(uvm_handler_t *h, uint64_t vpn, uint32_t frame, uint32_t pages, bool wb) {
    uvm_event_emit(h, &(uvm_event_t){.kind = UVM_EVENT_EVICT,
                                     .evict = {.vpn = vpn,
                                               .pages = pages,
                                               .frame = frame,
                                               .writeback = wb,
                                               .cause = (uint8_t)h->evict_cause}});
}

void uvm_emit_batch(uvm_handler_t *h, uvm_event_kind_t kind, uint32_t index, uint32_t faults) {
    uvm_event_emit(h, &(uvm_event_t){.kind = kind, .batch = {.index = index, .faults = faults}});
}

void uvm_stats_observer(void *ctx, const uvm_event_t *ev) {
    uvm_stats_t *s = ctx;
    switch (ev->kind) {
    case UVM_EVENT_FAULT:
        s->faults_fetched++;
        break;
    case UVM_EVENT_MIGRATE: {
        const uint64_t bytes = (uint64_t)ev->migrate.pages * UVM_PAGE_BYTES;
        if (ev->migrate.dir == UVM_DMA_H2D) {
            s->pages_h2d += ev->migrate.pages;
            s->bytes_h2d += bytes;
        } else {
            s->pages_d2h += ev->migrate.pages;
            s->bytes_d2h += bytes;
        }
        break;
    }
    case UVM_EVENT_EVICT:
        s->evictions++;
        break;
    case UVM_EVENT_REPLAY:
        s->replays++;
        break;
    default:
        break; /* the other kinds count nothing (their counters stay where they were kept) */
    }
}
