/*
 * trace_profile.c - the object profile of a trace (trace_profile.h, docs/trace-format.md
 * "Object profile"): one pass over the records, per kernel launch the accesses of every live
 * allocation counted, its distinct words and pages marked in bitmaps cleared at the launch's
 * end; the reuse distances filled in afterwards, walking the launches backwards.
 */
#include "trace_profile.h"

#include "err.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t *words; /* bit per TRACE_PROF_WORD bytes touched in the current launch */
    uint64_t *pages; /* bit per 4 KB page touched in the current launch */
    size_t nw, np;   /* 64-bit words of the two bitmaps */
    uint64_t acc, nbytes, npages;
    int live;
    int dying;   /* freed by a `free` read in the current launch: gone at its end */
    int pending; /* declared among a launch's records: an object from the next launch on */
} prof_live_t;

typedef struct {
    trace_prof_t *p;
    prof_live_t *lv; /* parallel to p->obj */
    size_t capobj, capkern, capuse;
    long last; /* object of the last access (a cache) */
} prof_state_t;

static int grow(void **a, size_t *cap, size_t n, size_t elem) {
    if (n < *cap)
        return 0;
    const size_t c = *cap ? 2 * *cap : 16;
    void *q = realloc(*a, c * elem);
    if (!q)
        return -1;
    *a = q;
    *cap = c;
    return 0;
}

static int bit_set(uint64_t *bm, uint64_t i) {
    const uint64_t m = 1ull << (i & 63u);
    if (bm[i >> 6] & m)
        return 0;
    bm[i >> 6] |= m;
    return 1;
}

static int prof_alloc(prof_state_t *s, const trace_rec_t *rec) {
    trace_prof_t *p = s->p;
    if (grow((void **)&p->obj, &s->capobj, p->nobj, sizeof(*p->obj)) != 0)
        return -1;
    prof_live_t *lv = realloc(s->lv, s->capobj * sizeof(*lv));
    if (!lv)
        return -1;
    s->lv = lv;
    trace_prof_obj_t *o = &p->obj[p->nobj];
    memset(o, 0, sizeof(*o));
    memcpy(o->name, rec->name, sizeof(o->name));
    o->space = rec->space;
    o->base = rec->base;
    o->size = rec->size;
    prof_live_t *l = &s->lv[p->nobj];
    memset(l, 0, sizeof(*l));
    l->nw = (size_t)((rec->size + TRACE_PROF_WORD - 1) / TRACE_PROF_WORD / 64 + 1);
    l->np = (size_t)((rec->size + 2 * TRACE_PAGE_BYTES) / TRACE_PAGE_BYTES / 64 + 1);
    l->words = calloc(l->nw, sizeof(uint64_t));
    l->pages = calloc(l->np, sizeof(uint64_t));
    if (!l->words || !l->pages) {
        free(l->words);
        free(l->pages);
        return -1;
    }
    l->live = 1;
    l->pending = p->nkern > 0;
    p->nobj++;
    return 0;
}

static void prof_free(prof_state_t *s, const trace_rec_t *rec) {
    for (size_t i = s->p->nobj; i-- > 0;)
        if (s->lv[i].live && !s->lv[i].dying && s->p->obj[i].space == rec->space &&
            strcmp(s->p->obj[i].name, rec->name) == 0) {
            s->lv[i].dying = 1;
            return;
        }
}

static long prof_find(prof_state_t *s, uint32_t space, uint64_t va) {
    const trace_prof_obj_t *o = s->p->obj;
    if (s->last >= 0 && s->lv[s->last].live && !s->lv[s->last].pending &&
        o[s->last].space == space && va - o[s->last].base < o[s->last].size)
        return s->last;
    for (size_t i = s->p->nobj; i-- > 0;)
        if (s->lv[i].live && !s->lv[i].pending && o[i].space == space && va - o[i].base < o[i].size)
            return s->last = (long)i;
    return -1;
}

static void prof_mem(prof_state_t *s, const trace_rec_t *rec) {
    for (unsigned i = 0; i < TRACE_LANES; i++) {
        if (!(rec->mask >> i & 1u))
            continue;
        const long k = prof_find(s, rec->space, rec->addr[i]);
        if (k < 0)
            continue;
        prof_live_t *l = &s->lv[k];
        const uint64_t off = rec->addr[i] - s->p->obj[k].base;
        l->acc++;
        if (bit_set(l->words, off / TRACE_PROF_WORD))
            l->nbytes += TRACE_PROF_WORD;
        const uint64_t pg = rec->addr[i] / TRACE_PAGE_BYTES - s->p->obj[k].base / TRACE_PAGE_BYTES;
        if (bit_set(l->pages, pg))
            l->npages++;
    }
}

/* The launch that ran since the last kernel record ends: its uses recorded, bitmaps cleared. */
static int prof_end_launch(prof_state_t *s) {
    trace_prof_t *p = s->p;
    if (p->nkern == 0)
        return 0;
    trace_prof_kernel_t *k = &p->kern[p->nkern - 1];
    for (size_t i = 0; i < p->nobj; i++) {
        prof_live_t *l = &s->lv[i];
        if (l->acc == 0)
            continue;
        if (grow((void **)&p->use, &s->capuse, p->nuse, sizeof(*p->use)) != 0)
            return -1;
        trace_prof_use_t *u = &p->use[p->nuse++];
        memset(u, 0, sizeof(*u)); /* padding too: uses compare with memcmp */
        const uint64_t size = p->obj[i].size;
        u->obj = (uint32_t)i;
        u->accesses = l->acc;
        u->bytes = l->nbytes < size ? l->nbytes : size;
        u->pages = l->npages;
        u->density = (double)u->bytes / (double)size;
        u->reuse = TRACE_PROF_NEVER;
        p->obj[i].global += l->acc;
        p->obj[i].uses++;
        memset(l->words, 0, l->nw * sizeof(uint64_t));
        memset(l->pages, 0, l->np * sizeof(uint64_t));
        l->acc = l->nbytes = l->npages = 0;
    }
    k->n = p->nuse - k->first;
    return 0;
}

/* the frees read since the last launch take effect (host calls run between launches), the
 * allocations declared among its records become objects */
static void prof_frees(prof_state_t *s) {
    for (size_t i = 0; i < s->p->nobj; i++) {
        s->lv[i].pending = 0;
        if (s->lv[i].dying) {
            s->lv[i].dying = 0;
            s->lv[i].live = 0;
        }
    }
}

/* reuse distance: launches from a use to the object's next use (walking the launches back) */
static int prof_reuse(trace_prof_t *p) {
    size_t *next = malloc((p->nobj ? p->nobj : 1) * sizeof(*next));
    if (!next)
        return -1;
    for (size_t i = 0; i < p->nobj; i++)
        next[i] = SIZE_MAX;
    for (size_t k = p->nkern; k-- > 0;)
        for (size_t j = 0; j < p->kern[k].n; j++) {
            trace_prof_use_t *u = &p->use[p->kern[k].first + j];
            if (next[u->obj] != SIZE_MAX)
                u->reuse = next[u->obj] - k >= TRACE_PROF_NEVER ? TRACE_PROF_NEVER - 1u
                                                                : (uint32_t)(next[u->obj] - k);
            next[u->obj] = k;
        }
    free(next);
    return 0;
}

static int prof_rec(prof_state_t *s, const trace_rec_t *rec) {
    trace_prof_t *p = s->p;
    switch (rec->kind) {
    case TRACE_REC_ALLOC:
        return prof_alloc(s, rec);
    case TRACE_REC_KERNEL:
        if (prof_end_launch(s) != 0 ||
            grow((void **)&p->kern, &s->capkern, p->nkern, sizeof(*p->kern)) != 0)
            return -1;
        prof_frees(s);
        memset(&p->kern[p->nkern], 0, sizeof(p->kern[0]));
        memcpy(p->kern[p->nkern].name, rec->name, sizeof(rec->name));
        p->kern[p->nkern].first = p->nuse;
        p->nkern++;
        return 0;
    case TRACE_REC_MEM:
        if (p->nkern > 0)
            prof_mem(s, rec);
        return 0;
    case TRACE_REC_FREE:
        /* performed before the next launch: the current launch still sees the object */
        prof_free(s, rec);
        return 0;
    default:
        return 0;
    }
}

void trace_profile_free(trace_prof_t *p) {
    free(p->obj);
    free(p->kern);
    free(p->use);
    memset(p, 0, sizeof(*p));
}

int trace_profile(const char *path, trace_prof_t *p, char *err, size_t errlen) {
    memset(p, 0, sizeof(*p));
    trace_reader_t *r = trace_open(path, err, errlen);
    if (!r)
        return -1;
    prof_state_t s = {p, NULL, 0, 0, 0, -1};
    trace_rec_t rec;
    int rc = 0, oom = 0;
    while (!oom && (rc = trace_next(r, &rec, err, errlen)) == 1)
        oom = prof_rec(&s, &rec) != 0;
    trace_close(r);
    if (!oom && rc == 0)
        oom = prof_end_launch(&s) != 0 || prof_reuse(p) != 0;
    for (size_t i = 0; i < p->nobj; i++) {
        free(s.lv[i].words);
        free(s.lv[i].pages);
    }
    free(s.lv);
    if (oom)
        err_setf(err, errlen, "%s: out of memory while profiling", path);
    if (oom || rc < 0) {
        trace_profile_free(p);
        return -1;
    }
    return 0;
}
