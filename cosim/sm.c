/*
 * sm.c - SM front-ends and kernel loader (see sm.h).
 */
#include "sm.h"

#include <stdlib.h>
#include <string.h>

uint32_t sm_coalesce(uint32_t mask, const uint64_t *addr, uint64_t *pages) {
    uint32_t n = 0;
    for (uint32_t lane = 0; lane < TRACE_LANES; lane++) {
        if (!(mask & (1u << lane)))
            continue;
        const uint64_t vpn = addr[lane] >> 12;
        uint32_t j = 0;
        while (j < n && pages[j] != vpn)
            j++;
        if (j == n)
            pages[n++] = vpn;
    }
    return n;
}

void kern_init(kern_t *k) {
    memset(k, 0, sizeof(*k));
    (void)u64map_init(&k->index, 0);
    (void)u64map_init(&k->exited0, 0);
}

void kern_reset(kern_t *k) {
    for (uint32_t i = 0; i < k->n_warps; i++) {
        free(k->warps[i].ins);
        free(k->warps[i].pages);
    }
    k->n_warps = 0;
    k->n_instr = 0;
    k->buffered = 0;
    k->name[0] = '\0';
    for (uint32_t s = 0; s < KERN_MAX_SM; s++)
        k->nsq[s] = 0;
    k->src = NULL;
    k->end = 0;
    k->error = 0;
    k->err[0] = '\0';
    u64map_clear(&k->index);
    u64map_clear(&k->exited0);
}

void kern_free(kern_t *k) {
    kern_reset(k);
    free(k->warps);
    for (uint32_t s = 0; s < KERN_MAX_SM; s++)
        free(k->sq[s]);
    u64map_free(&k->index);
    u64map_free(&k->exited0);
    memset(k, 0, sizeof(*k));
}

static int grow(void **p, uint32_t *cap, uint32_t need, size_t elem) {
    if (need <= *cap)
        return 0;
    uint32_t ncap = *cap ? *cap : 8;
    while (ncap < need)
        ncap *= 2;
    void *np = realloc(*p, (size_t)ncap * elem);
    if (!np)
        return -1;
    *p = np;
    *cap = ncap;
    return 0;
}

static const char *kpath(const kern_t *k) {
    return k->src && k->src->path ? k->src->path : "trace";
}

/* "line " or "offset " (binary trace) before a record position in messages */
static const char *kunit(const kern_t *k) {
    return k->src && trace_is_binary(k->src->r) ? "offset " : "line ";
}

static int kern_fail(kern_t *k, const char *msg) {
    if (!k->error) {
        k->error = 1;
        snprintf(k->err, sizeof(k->err), "%s", msg);
    }
    return -1;
}

/* "file:line N: warp (cta c, warp w) <what> line M<end>" (offsets in a binary trace) */
static int warp_error(kern_t *k, const trace_rec_t *rec, const char *what, uint64_t at,
                      const char *end) {
    char msg[320];
    const char *u = kunit(k);
    snprintf(msg, sizeof(msg), "%s:%s%llu: warp (cta %u, warp %u) %s %s%llu%s", kpath(k),
             *u == 'o' ? u : "", (unsigned long long)rec->line, rec->cta, rec->warp, what, u,
             (unsigned long long)at, end);
    return kern_fail(k, msg);
}

/* The address space of rec is legal for the GMMU and has SMs. 0, or -1 + k->err. */
static int kern_space_check(kern_t *k, const trace_rec_t *rec) {
    const kern_part_t *pt = k->part;
    const uint32_t spaces = pt && pt->spaces ? pt->spaces : 1u;
    char msg[320];
    const char *u = kunit(k);
    if (rec->space >= spaces) {
        snprintf(msg, sizeof(msg),
                 "%s:%s%llu: field space: address space %u needs num_asids > %u (the "
                 "configuration has num_asids = %u)",
                 kpath(k), *u == 'o' ? u : "", (unsigned long long)rec->line, rec->space,
                 rec->space, spaces);
        return kern_fail(k, msg);
    }
    if (pt && pt->n && rec->space >= pt->n) {
        snprintf(msg, sizeof(msg),
                 "%s:%s%llu: field space: address space %u has no SMs (sm_partition has %u "
                 "entries)",
                 kpath(k), *u == 'o' ? u : "", (unsigned long long)rec->line, rec->space, pt->n);
        return kern_fail(k, msg);
    }
    return 0;
}

/* Index of warp (space, cta, warp), creating it (queued to its SM) if new; -1 if out of memory. */
static int64_t kern_warp(kern_t *k, uint32_t space, uint32_t cta, uint32_t warp, uint32_t num_sm) {
    const uint64_t key = trace_warp_key(space, cta, warp);
    uint64_t wi;
    if (u64map_get(&k->index, key, &wi))
        return (int64_t)wi;
    const kern_part_t *pt = k->part;
    const uint32_t sm = pt && pt->n ? pt->first[space] + cta % pt->count[space] : cta % num_sm;
    if (sm >= KERN_MAX_SM ||
        grow((void **)&k->warps, &k->cap_warps, k->n_warps + 1, sizeof(sm_warp_t)) != 0 ||
        grow((void **)&k->sq[sm], &k->capsq[sm], k->nsq[sm] + 1, sizeof(uint32_t)) != 0)
        return -1;
    wi = k->n_warps++;
    sm_warp_t *w = &k->warps[wi];
    memset(w, 0, sizeof(*w));
    w->cta = cta;
    w->warp = warp;
    w->space = space;
    w->sm = sm;
    w->state = SM_W_QUEUED;
    k->sq[sm][k->nsq[sm]++] = (uint32_t)wi;
    if (u64map_put(&k->index, key, wi) != 0)
        return -1;
    return (int64_t)wi;
}

int kern_add(kern_t *k, const trace_rec_t *rec, uint32_t num_sm) {
    uint64_t pages[TRACE_LANES];
    const uint32_t np = sm_coalesce(rec->mask, rec->addr, pages);
    if (np == 0)
        return 0; /* no active lane: nothing to translate */
    uint64_t at;
    if (kern_space_check(k, rec) != 0)
        return -1;
    for (uint32_t i = 0; i < np; i++)
        pages[i] |= (uint64_t)rec->space << KERN_SPACE_SHIFT;
    if (u64map_get(&k->exited0, trace_warp_key(rec->space, rec->cta, rec->warp), &at))
        return warp_error(k, rec, "has exited at", at, "");
    const int64_t wi = kern_warp(k, rec->space, rec->cta, rec->warp, num_sm);
    if (wi < 0)
        return kern_fail(k, "out of memory loading a kernel");
    sm_warp_t *w = &k->warps[wi];
    if (w->exited)
        return warp_error(k, rec, "has exited at", w->exit_line, "");
    if (grow((void **)&w->ins, &w->cap_ins, w->n_ins + 1, sizeof(sm_instr_t)) != 0 ||
        grow((void **)&w->pages, &w->cap_pages, w->n_pages + np, sizeof(uint64_t)) != 0)
        return kern_fail(k, "out of memory loading a kernel");
    sm_instr_t *in = &w->ins[w->n_ins++];
    in->line = rec->line;
    in->gap = rec->gap;
    in->first = w->n_pages;
    in->npages = (uint8_t)np;
    in->op = (uint8_t)rec->op;
    in->lines = k->hbm.line_fp ? (uint8_t)hbm_lines(rec->mask, rec->addr) : 0u;
    memcpy(&w->pages[w->n_pages], pages, np * sizeof(uint64_t));
    w->n_pages += np;
    k->n_instr++;
    if (++k->buffered > k->buffered_peak)
        k->buffered_peak = k->buffered;
    return 0;
}

int kern_at_end(const kern_t *k) {
    return k->end || !k->src || k->error;
}

/* Reads the kernel's next record. 1: read; 0: the kernel has no further record; -1: error. */
static int kern_read_one(kern_t *k) {
    if (kern_at_end(k))
        return k->error ? -1 : 0;
    kern_stream_t *s = k->src;
    trace_rec_t rec;
    char err[512];
    const int rc = trace_next(s->r, &rec, err, sizeof(err));
    if (rc < 0)
        return kern_fail(k, err);
    if (rc == 0) {
        s->eof = 1;
        k->end = 1;
        return 0;
    }
    s->last_pos = rec.line;
    switch (rec.kind) {
    case TRACE_REC_KERNEL:
        s->look = rec;
        s->have_look = 1;
        k->end = 1;
        return 0;
    case TRACE_REC_ALLOC:
    case TRACE_REC_ADVISE: /* host calls: performed between kernels, like an allocation */
    case TRACE_REC_PREFETCH:
    case TRACE_REC_FREE:
    case TRACE_REC_CPU:
        if (grow((void **)&s->pending, &s->cap_pending, s->n_pending + 1, sizeof(trace_rec_t)) != 0)
            return kern_fail(k, "out of memory");
        s->pending[s->n_pending++] = rec;
        return 1;
    case TRACE_REC_MEM:
        return kern_add(k, &rec, s->num_sm) == 0 ? 1 : -1;
    case TRACE_REC_EXIT: {
        const uint64_t key = trace_warp_key(rec.space, rec.cta, rec.warp);
        uint64_t wi, at;
        if (!u64map_get(&k->index, key, &wi)) { /* a warp without memory instructions */
            if (u64map_get(&k->exited0, key, &at))
                return warp_error(k, &rec, "exits twice (first at", at, ")");
            return u64map_put(&k->exited0, key, rec.line) == 0 ? 1 : kern_fail(k, "out of memory");
        }
        sm_warp_t *w = &k->warps[wi];
        if (w->exited)
            return warp_error(k, &rec, "exits twice (first at", w->exit_line, ")");
        w->exited = 1;
        w->exit_line = rec.line;
        return 1;
    }
    }
    return 1;
}

int kern_pull_all(kern_t *k) {
    int rc;
    while ((rc = kern_read_one(k)) > 0) {
    }
    return rc;
}

/* Reads until warp wi has an instruction buffered beyond pc - 1, or has finished. */
static void kern_pull_warp(kern_t *k, uint32_t wi) {
    while (k->warps[wi].pc >= k->warps[wi].n_ins && !k->warps[wi].exited)
        if (kern_read_one(k) <= 0)
            return;
}

/* Reads until SM sm has a warp at queue position qhead, or the kernel has no further record. */
static void kern_pull_sm(kern_t *k, uint32_t sm, uint32_t qhead) {
    while (k->nsq[sm] <= qhead)
        if (kern_read_one(k) <= 0)
            return;
}

void kern_stream_init(kern_stream_t *s, trace_reader_t *r, uint32_t num_sm, const char *path) {
    memset(s, 0, sizeof(*s));
    s->path = path;
    s->r = r;
    s->num_sm = num_sm;
}

void kern_stream_free(kern_stream_t *s) {
    free(s->pending);
    s->pending = NULL;
    s->n_pending = s->cap_pending = 0;
}

int kern_stream_next(kern_stream_t *s, kern_t *k, kern_alloc_fn cb, void *ctx, char *err,
                     size_t errlen) {
    /* the previous kernel's remaining records (normally none: every SM read to its end) */
    if (k->src && kern_pull_all(k) < 0) {
        snprintf(err, errlen, "%s", k->err);
        return -1;
    }
    kern_reset(k);
    for (uint32_t i = 0; i < s->n_pending; i++)
        cb(ctx, &s->pending[i]);
    s->n_pending = 0;
    int in_kernel = 0;
    if (s->have_look) {
        snprintf(k->name, sizeof(k->name), "%s", s->look.name);
        s->have_look = 0;
        in_kernel = 1;
    }
    while (!in_kernel && !s->eof) {
        trace_rec_t rec;
        const int rc = trace_next(s->r, &rec, err, errlen);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            s->eof = 1;
            break;
        }
        s->last_pos = rec.line;
        if (rec.kind == TRACE_REC_ALLOC || trace_rec_is_host(&rec)) {
            cb(ctx, &rec);
        } else if (rec.kind == TRACE_REC_KERNEL) {
            snprintf(k->name, sizeof(k->name), "%s", rec.name);
            in_kernel = 1;
        } else {
            snprintf(err, errlen,
                     "%s:%llu: %s before the first kernel record (line, or byte offset in a "
                     "binary trace)",
                     s->path ? s->path : "trace", (unsigned long long)rec.line,
                     rec.kind == TRACE_REC_EXIT ? "warp exit" : "memory instruction");
            return -1;
        }
    }
    if (!in_kernel)
        return 0;
    k->src = s;
    k->end = s->eof;
    s->kernels_read++;
    return 1;
}

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

/* Cycle at which instruction in, whose gap starts at now, may issue: after its gap and, with the
 * HBM model on, its data transfer (hbm.h). */
static uint64_t instr_ready(sm_t *sm, kern_t *k, const sm_instr_t *in, uint64_t now) {
    return hbm_reserve(&k->hbm, gap_end(sm, now, in->gap), in->lines);
}

static void admit(sm_t *sm, kern_t *k, uint32_t slot, uint64_t now) {
    const uint32_t wi = k->sq[sm->id][sm->qhead++];
    sm_warp_t *w = &k->warps[wi];
    w->state = SM_W_GAP;
    w->pc = 0;
    w->next_page = 0;
    w->pending = 0;
    w->ready_at = instr_ready(sm, k, &w->ins[0], now);
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
    for (uint32_t i = 0; i < n; i++)
        w->ins[i].first -= p0;
    w->n_ins = n;
    w->n_pages -= p0;
    w->pc = 0;
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
        w->ready_at = instr_ready(sm, k, &w->ins[w->pc], now);
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
    w->ins = NULL;
    w->pages = NULL;
    w->cap_ins = w->cap_pages = 0;
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
