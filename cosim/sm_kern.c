/* sm_kern.c - the kernel loader of the SM front-ends (see sm.h): a kernel's warps and their
 * instructions, read from the trace on demand as the SMs reach them (kern_*), and the stream of
 * kernels of one trace (kern_stream_*), and the coalescing of a warp's lanes into pages
 * (sm_coalesce). Split from sm.c (the file size limit). */
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

uint32_t sm_line_mask(uint32_t mask, const uint64_t *addr, uint64_t vpn) {
    uint32_t m = 0;
    for (uint32_t lane = 0; lane < TRACE_LANES; lane++)
        if ((mask & (1u << lane)) && addr[lane] >> 12 == vpn)
            m |= 1u << ((addr[lane] >> 7) & 31u);
    return m;
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
        free(k->warps[i].lmask);
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
    uint64_t pages[2 * TRACE_LANES]; /* the pages, then (L2 data cache on) the line keys */
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
    const uint32_t nl = l2d_instr_lines(k->l2d, k->hbm.line_fp != 0, rec, &pages[np]);
    const uint32_t nk = k->l2d ? nl : 0u; /* line keys stored after the pages */
    if (grow((void **)&w->ins, &w->cap_ins, w->n_ins + 1, sizeof(sm_instr_t)) != 0 ||
        grow((void **)&w->pages, &w->cap_pages, w->n_pages + np + nk, sizeof(uint64_t)) != 0 ||
        grow((void **)&w->lmask, &w->cap_lmask, w->n_pages + np + nk, sizeof(uint32_t)) != 0)
        return kern_fail(k, "out of memory loading a kernel");
    sm_instr_t *in = &w->ins[w->n_ins++];
    in->line = rec->line;
    in->gap = rec->gap;
    in->first = w->n_pages;
    in->npages = (uint8_t)np;
    in->op = (uint8_t)rec->op;
    in->lines = (uint8_t)nl;
    memcpy(&w->pages[w->n_pages], pages, (np + nk) * sizeof(uint64_t));
    for (uint32_t i = 0; i < np + nk; i++)
        w->lmask[w->n_pages + i] =
            i < np ? sm_line_mask(rec->mask, rec->addr, pages[i] & KERN_VPN_MASK) : 0u;
    w->n_pages += np + nk;
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

/* Reads until warp wi has an instruction buffered beyond pc - 1, or has finished (sm.h). */
void kern_pull_warp(kern_t *k, uint32_t wi) {
    while (k->warps[wi].pc >= k->warps[wi].n_ins && !k->warps[wi].exited)
        if (kern_read_one(k) <= 0)
            return;
}

/* Reads until SM sm has a warp at queue position qhead, or the kernel has no further record. */
void kern_pull_sm(kern_t *k, uint32_t sm, uint32_t qhead) {
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
