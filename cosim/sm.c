/* sm.c - the SM front-ends (see sm.h); the kernel loader is sm_kern.c, the ready set sm_ready.c. */
#include "sm.h"

#include <stdlib.h>
#include <string.h>

int sm_init(sm_t *sm, uint32_t id, uint32_t nports, uint32_t max_res) {
    memset(sm, 0, sizeof(*sm));
    sm->id = id;
    sm->nports = nports;
    sm->max_res = max_res;
    sm->res = calloc(max_res, sizeof(uint32_t));
    if (smr_init(&sm->rdy, max_res) != 0) {
        sm_free(sm);
        return -1;
    }
    for (uint32_t i = 0; i < SM_MAX_IDS; i++)
        sm->id_fifo[i] = (uint8_t)i;
    sm->fifo_count = SM_MAX_IDS;
    return sm->res ? 0 : -1;
}

void sm_free(sm_t *sm) {
    free(sm->res);
    sm->res = NULL;
    smr_free(&sm->rdy);
}

/* 1 if the SM has a warp to admit (reading k as far as needed). */
static int have_queued(const sm_t *sm, kern_t *k) {
    kern_pull_sm(k, sm->id, sm->qhead);
    return sm->qhead < k->nsq[sm->id];
}

void sm_set_issue_ipc(sm_t *sm, uint32_t ipc) {
    sm->issue_ipc = ipc;
    sm->issue_free = 0;
}

/* Cycle at which a gap of `gap` instructions that starts at now ends. Without an issue limit
 * (issue_ipc 0) after gap cycles, whatever the other warps do. With one, the SM issues at most
 * issue_ipc instructions per cycle: the gap's instructions take issue slots after those taken
 * by the gaps that started before it (issue_free counts slots, issue_ipc per cycle), and a warp
 * still issues at most one per cycle (docs/cosim.md "SM issue model"). */
static uint64_t gap_end(sm_t *sm, uint64_t now, uint32_t gap) {
    if (sm->issue_ipc == 0 || gap == 0)
        return now + gap;
    const uint64_t first = (uint64_t)now * sm->issue_ipc;
    const uint64_t end = (sm->issue_free > first ? sm->issue_free : first) + gap;
    sm->issue_free = end;
    const uint64_t slots_end = (end + sm->issue_ipc - 1) / sm->issue_ipc;
    return slots_end > now + gap ? slots_end : now + gap;
}

/* Cycle warp w's instruction may issue: after its gap and its data (hbm.h, l2d.h: misses). */
static uint64_t instr_ready(sm_t *sm, kern_t *k, const sm_warp_t *w, uint64_t now) {
    const sm_instr_t *in = &w->ins[w->pc];
    const uint32_t lines = l2d_data(k->l2d, &w->pages[in->first + in->npages], in->lines);
    return hbm_reserve(&k->hbm, gap_end(sm, now, in->gap), lines);
}

static void admit(sm_t *sm, kern_t *k, uint32_t slot, uint64_t now) {
    const uint32_t wi = k->sq[sm->id][sm->qhead++];
    sm_warp_t *w = &k->warps[wi];
    w->state = SM_W_GAP;
    w->pc = 0;
    w->next_page = 0;
    w->pending = 0;
    w->ready_at = instr_ready(sm, k, w, now);
    w->hold_until = 0;
    w->slot = slot;
    sm->res[slot] = wi;
    smr_gap(&sm->rdy, slot, w->ready_at);
}

int sm_start_kernel(sm_t *sm, kern_t *k, uint64_t now) {
    sm->qhead = 0;
    sm->nres = 0;
    sm->rr = 0;
    sm->warps_done = 0;
    if (sm->id >= KERN_MAX_SM)
        return -1;
    smr_clear(&sm->rdy);
    while (sm->nres < sm->max_res && have_queued(sm, k)) {
        admit(sm, k, sm->nres, now);
        sm->nres++;
    }
    return k->error ? -1 : 0;
}

/* Presents the pages of the warp in `slot` (its gap has ended, or it has pages left) on the
 * ports from *port on, while ports and request ids last. */
static void present(sm_t *sm, kern_t *k, uint32_t slot, uint8_t *valid, uint64_t *vpn,
                    uint8_t *write, uint8_t *id, uint32_t *port) {
    sm_warp_t *w = &k->warps[sm->res[slot]];
    if (w->state == SM_W_GAP) { /* its gap has ended (smr_pop_due) */
        w->state = SM_W_ISSUE;
        w->next_page = 0;
        w->pending = 0;
    }
    const sm_instr_t *in = &w->ins[w->pc];
    while (w->next_page < in->npages && *port < sm->nports && sm->fifo_count > 0) {
        const uint8_t rid = sm->id_fifo[sm->fifo_head];
        sm->fifo_head = (sm->fifo_head + 1) % SM_MAX_IDS;
        sm->fifo_count--;
        sm->id_busy[rid] = 1;
        sm->id_warp[rid] = sm->res[slot];
        sm->id_page[rid] = (uint8_t)w->next_page;
        valid[*port] = 1;
        vpn[*port] = w->pages[in->first + w->next_page];
        write[*port] = in->op != TRACE_OP_READ;
        id[*port] = rid;
        (*port)++;
        w->next_page++;
        if (w->next_page == in->npages)
            smr_unset(&sm->rdy, slot); /* every page of the instruction presented */
        w->pending++;
        sm->outstanding++;
    }
}

/* The resident warps are visited in round-robin order from rr; only those in the ready set can
 * present (the others wait in their gap or for their translations), so only those are visited. */
uint32_t sm_issue(sm_t *sm, kern_t *k, uint64_t now, uint8_t *valid, uint64_t *vpn, uint8_t *write,
                  uint8_t *id) {
    uint32_t port = 0;
    if (sm->nres == 0)
        return 0;
    smr_pop_due(&sm->rdy, now);
    uint32_t first_served = UINT32_MAX;
    for (uint32_t pass = 0; pass < 2 && port < sm->nports; pass++) {
        const uint32_t end = pass ? sm->rr : sm->nres; /* slots rr..nres-1, then 0..rr-1 */
        for (uint32_t slot = smr_next(&sm->rdy, pass ? 0 : sm->rr, end);
             slot < end && port < sm->nports; slot = smr_next(&sm->rdy, slot + 1, end)) {
            const uint32_t before = port;
            present(sm, k, slot, valid, vpn, write, id, &port);
            if (port > before && first_served == UINT32_MAX)
                first_served = slot;
        }
    }
    if (first_served != UINT32_MAX)
        sm->rr = (first_served + 1) % sm->nres;
    return port;
}

/* Moves the instructions from pc on (and their pages) to the front of the warp's buffers. */
static void warp_compact(sm_warp_t *w) {
    const uint32_t p0 = w->ins[w->pc].first;
    const uint32_t n = w->n_ins - w->pc;
    memmove(w->ins, w->ins + w->pc, (size_t)n * sizeof(sm_instr_t));
    memmove(w->pages, w->pages + p0, (size_t)(w->n_pages - p0) * sizeof(uint64_t));
    memmove(w->lmask, w->lmask + p0, (size_t)(w->n_pages - p0) * sizeof(uint32_t));
    for (uint32_t i = 0; i < n; i++)
        w->ins[i].first -= p0;
    w->n_ins = n;
    w->n_pages -= p0;
    w->pc = 0;
}

uint8_t sm_req_line(const sm_t *sm, const kern_t *k, uint8_t id) {
    const sm_warp_t *w = &k->warps[sm->id_warp[id]];
    const uint32_t m = w->lmask[w->ins[w->pc].first + sm->id_page[id]];
    return m ? (uint8_t)__builtin_ctz(m) : 0u;
}

int sm_response(sm_t *sm, kern_t *k, uint8_t id, uint64_t now, sm_resp_t *r) {
    if (!sm->id_busy[id])
        return -1;
    sm->id_busy[id] = 0;
    sm->id_fifo[(sm->fifo_head + sm->fifo_count) % SM_MAX_IDS] = id;
    sm->fifo_count++;
    sm->outstanding--;
    const uint32_t wi = sm->id_warp[id];
    sm_warp_t *w = &k->warps[wi];
    const sm_instr_t *in = &w->ins[w->pc];
    memset(r, 0, sizeof(*r));
    r->warp = wi;
    r->vpn = w->pages[in->first + sm->id_page[id]];
    r->lines = w->lmask[in->first + sm->id_page[id]];
    r->op = in->op;
    r->line = in->line;
    w->pending--;
    if (w->pending > 0 || w->next_page < in->npages)
        return 0;
    r->instr_done = 1;
    sm->instr_done++;
    w->pc++;
    w->done_ins++;
    k->buffered--;
    if (w->pc == w->n_ins) {
        /* buffer consumed: reuse it, read on until the warp's next instruction or its end */
        w->pc = w->n_ins = w->n_pages = 0;
        kern_pull_warp(k, wi);
        w = &k->warps[wi]; /* the warp array may have moved */
    } else if (w->pc >= 32 && 2 * w->pc >= w->n_ins) {
        warp_compact(w); /* drop the completed instructions (amortized O(1)) */
    }
    if (w->pc < w->n_ins) {
        w->state = SM_W_GAP;
        w->ready_at = instr_ready(sm, k, w, now);
        if (w->ready_at < w->hold_until)
            w->ready_at = w->hold_until;
        w->hold_until = 0;
        smr_gap(&sm->rdy, w->slot, w->ready_at);
        return 0;
    }
    r->warp_done = 1;
    w->state = SM_W_DONE;
    free(w->ins);
    free(w->pages);
    free(w->lmask);
    w->ins = NULL;
    w->pages = NULL;
    w->lmask = NULL;
    w->cap_ins = w->cap_pages = w->cap_lmask = 0;
    sm->warps_done++;
    /* the warp leaves: its slot goes to the next queued warp, else the slot closes */
    const uint32_t slot = w->slot;
    if (slot >= sm->nres || sm->res[slot] != wi)
        return 0;
    if (have_queued(sm, k)) {
        admit(sm, k, slot, now);
    } else {
        memmove(&sm->res[slot], &sm->res[slot + 1], (sm->nres - slot - 1) * sizeof(uint32_t));
        sm->nres--;
        smr_remove_slot(&sm->rdy, slot);
        for (uint32_t i = slot; i < sm->nres; i++)
            k->warps[sm->res[i]].slot = i;
        if (sm->rr > slot)
            sm->rr--;
        if (sm->nres == 0 || sm->rr >= sm->nres)
            sm->rr = 0;
    }
    return 0;
}

void sm_hold(sm_t *sm, kern_t *k, uint32_t warp, uint64_t until) {
    sm_warp_t *w = &k->warps[warp];
    if (w->state == SM_W_GAP && w->ready_at < until) { /* the instruction just completed */
        w->ready_at = until;
        smr_gap(&sm->rdy, w->slot, until);
    } else if (w->state == SM_W_ISSUE && w->hold_until < until) {
        w->hold_until = until;
    }
}

int sm_wants_issue(sm_t *sm, const kern_t *k, uint64_t now) {
    (void)k;
    return smr_any(&sm->rdy, now);
}

void sm_advance(sm_t *sm, uint64_t now) {
    smr_pop_due(&sm->rdy, now);
}

uint64_t sm_next_event(const sm_t *sm, const kern_t *k, uint64_t now) {
    (void)k;
    return smr_next_after(&sm->rdy, now);
}

int sm_kernel_done(const sm_t *sm, const kern_t *k) {
    return sm->nres == 0 && sm->qhead == k->nsq[sm->id] && kern_at_end(k);
}

void sm_dump(const sm_t *sm, const kern_t *k, FILE *f, uint64_t now) {
    fprintf(f,
            "  SM %u: %u warps done, %u resident, %u queued (read so far), %u translations "
            "outstanding\n",
            sm->id, sm->warps_done, sm->nres, k->nsq[sm->id] - sm->qhead, sm->outstanding);
    for (uint32_t i = 0; i < sm->nres; i++) {
        const sm_warp_t *w = &k->warps[sm->res[i]];
        const sm_instr_t *in = &w->ins[w->pc];
        if (w->state == SM_W_GAP) {
            fprintf(f, "    warp (cta %u, warp %u): instr %llu in its gap until cycle %llu%s\n",
                    w->cta, w->warp, (unsigned long long)w->done_ins,
                    (unsigned long long)w->ready_at,
                    w->ready_at <= now ? " (ready, waiting for req_ready)" : "");
        } else if (w->state == SM_W_ISSUE) {
            fprintf(
                f,
                "    warp (cta %u, warp %u): instr %llu (trace pos %llu) %u/%u pages presented, "
                "%u waiting:",
                w->cta, w->warp, (unsigned long long)w->done_ins, (unsigned long long)in->line,
                w->next_page, in->npages, w->pending);
            for (uint32_t id = 0; id < SM_MAX_IDS; id++)
                if (sm->id_busy[id] && sm->id_warp[id] == sm->res[i])
                    fprintf(f, " id %u vpn 0x%llx", id,
                            (unsigned long long)w->pages[in->first + sm->id_page[id]]);
            fprintf(f, "\n");
        }
    }
}
