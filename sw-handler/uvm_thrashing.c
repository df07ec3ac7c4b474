/*
 * uvm_thrashing.c - thrashing mitigation as nvidia-uvm's uvm_perf_thrashing (docs/handler.md
 * §6i): a thrashing policy keeps its detection state from events (it subscribes like any
 * observer) and is asked for a hint on each faulting page that is not resident; the service
 * acts on the hint here:
 *   THROTTLE  the fault is not serviced in this batch and stays for a later replay (the driver
 *             marks the fault throttled and continues with the other pages; a REPLAY_ALL is
 *             owed so the SM asks again); the policy keeps answering THROTTLE until its nap ends
 *   PIN       the driver maps the page where it is and stops migrating it for a while. With no
 *             remote mapping yet (issue 21) the GPU-side case only: the page is migrated as
 *             usual and, while resident, excluded from eviction until the hint's time
 * The registry has only "none" (no detection, always NONE); tb/unit/test_handler_events.c
 * defines its own policy through uvm_thrashing_set_ops to exercise both actions.
 */
#include <stdlib.h>

#include "uvm_priv.h"

static uvm_thrash_hint_t none_hint(uvm_handler_t *h, void *priv, uint64_t vpn) {
    (void)h;
    (void)priv;
    (void)vpn;
    return (uvm_thrash_hint_t){UVM_THRASH_NONE, 0};
}

const uvm_thrashing_ops_t uvm_thrashing_none_ops = {"none", NULL, NULL, 0, NULL, none_hint};

static uint64_t now_ns(const uvm_handler_t *h) {
    return h->dev.now_ns ? h->dev.now_ns(h->dev.ctx) : 0;
}

void uvm_thrash_batch(uvm_handler_t *h) {
    h->throttled = 0;
    if (h->thrash_pin.count == 0)
        return;
    const uint64_t now = now_ns(h);
    for (bool again = true; again;) { /* no change during an iteration: one removal per pass */
        again = false;
        size_t pos = 0;
        uint64_t vpn = 0, until = 0;
        while (u64map_next(&h->thrash_pin, &pos, &vpn, &until))
            if (until <= now) {
                again = true;
                break;
            }
        if (again) {
            (void)u64map_del(&h->thrash_pin, vpn);
            uvm_event_emit(
                h, &(uvm_event_t){.kind = UVM_EVENT_UNPIN, .pin = {.vpn = vpn, .until_ns = until}});
        }
    }
}

bool uvm_thrash_act(uvm_handler_t *h, uint64_t vpn) {
    const uvm_thrash_hint_t hint = h->thrashing->get_hint(h, h->thrashing_priv, vpn);
    switch (hint.type) {
    case UVM_THRASH_THROTTLE:
        h->throttled++;
        return true;
    case UVM_THRASH_PIN: {
        uint64_t was = 0;
        const bool same = u64map_get(&h->thrash_pin, vpn, &was) && was == hint.until_ns;
        if (u64map_put(&h->thrash_pin, vpn, hint.until_ns) != 0)
            uvm_logf(h, "uvm: out of host memory pinning a thrashing page; not pinned");
        else if (!same) /* the scoreboard's pin rule (docs/handler.md §6p.2) */
            uvm_event_emit(h, &(uvm_event_t){.kind = UVM_EVENT_PIN,
                                             .pin = {.vpn = vpn,
                                                     .until_ns = hint.until_ns,
                                                     .to_host = h->cfg.thrashing_pin_host != 0}});
        return false;
    }
    case UVM_THRASH_NONE:
        break;
    }
    return false;
}

bool uvm_thrash_pinned(const uvm_handler_t *h, uint64_t vpn) {
    uint64_t until = 0;
    return h->thrash_pin.count != 0 && u64map_get(&h->thrash_pin, vpn, &until) && now_ns(h) < until;
}

void uvm_emit_block_fault(uvm_handler_t *h, const uvm_fault_t *f, bool resident, uint32_t frame) {
    uvm_event_emit(h, &(uvm_event_t){.kind = UVM_EVENT_BLOCK_FAULT,
                                     .fault = {.vpn = f->vpn,
                                               .timestamp = f->timestamp,
                                               .count = f->count,
                                               .frame = resident ? frame : UVM_NONE,
                                               .access = f->access,
                                               .resident = resident}});
}

int uvm_thrashing_set_ops(uvm_handler_t *h, const uvm_thrashing_ops_t *ops) {
    if (!h || !ops || !ops->get_hint || h->thrashing->events != 0)
        return -1;
    void *priv = NULL;
    if (ops->init && ops->init(h, &priv) != 0)
        return -1;
    if (ops->events && uvm_event_subscribe_internal(h, ops->events, ops->observe, priv) != 0) {
        if (ops->fini)
            ops->fini(priv);
        return -1;
    }
    if (h->thrashing->fini)
        h->thrashing->fini(h->thrashing_priv);
    h->thrashing = ops;
    h->thrashing_priv = priv;
    return 0;
}
