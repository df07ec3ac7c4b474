/*
 * uvm_lc.c - Li & Chapman's object placement (SC'19, seeds/003 §3; docs/handler.md §6s) as a
 * pure planner: no handler, no device. Per launch, the objects the kernel uses are taken in
 * the order of their priority (RLM: regional locality, GLM: global locality, RDM: the earliest
 * predicted next reuse, global locality breaking ties, LRU: the most recent use); each one
 * already in GPU memory stays; else it goes there if it fits, or if enough room can be made by
 * removing objects of strictly lower priority (the lowest first; objects placed earlier in this
 * launch are never removed); else it is placed in host memory. Objects placed in GPU memory are
 * prefetched (explicit transfer) or left to fault (implicit) by the transfer mode: by access
 * density (>= 0.5: explicit), always implicit, always explicit; LRU always explicit. With
 * partial mapping (their §3.4), the first object that does not go to the GPU takes the room the
 * launch's placement leaves for its first part (from its lowest address, whole pages) and the
 * rest is placed in host memory.
 */
#include "uvm_lc.h"

#include <stdlib.h>
#include <string.h>

#define LC_PAGE 4096u

void uvm_lc_init(uvm_lc_t *lc, uint32_t policy, uint32_t transfer, uint64_t cap_bytes) {
    memset(lc, 0, sizeof(*lc));
    lc->policy = policy;
    lc->transfer = transfer;
    lc->cap_bytes = cap_bytes;
}

void uvm_lc_fini(uvm_lc_t *lc) {
    free(lc->obj);
    memset(lc, 0, sizeof(*lc));
}

static uint64_t lc_bytes(const uvm_lc_obj_t *o) {
    return (o->size + LC_PAGE - 1u) / LC_PAGE * LC_PAGE;
}

/* the bytes of GPU memory object o takes: all its pages, its first part, or none */
static uint64_t lc_gpu(const uvm_lc_obj_t *o) {
    return o->loc == UVM_LC_LOC_GPU ? lc_bytes(o) : o->loc == UVM_LC_LOC_PART ? o->part : 0;
}

uint64_t uvm_lc_gpu_bytes(const uvm_lc_t *lc) {
    uint64_t b = 0;
    for (size_t i = 0; i < lc->nobj; i++)
        b += lc_gpu(&lc->obj[i]);
    return b;
}

/* the room in GPU memory for object o: the capacity less what the other objects take */
static uint64_t lc_room(const uvm_lc_t *lc, size_t o) {
    const uint64_t used = uvm_lc_gpu_bytes(lc) - lc_gpu(&lc->obj[o]);
    return lc->cap_bytes > used ? lc->cap_bytes - used : 0;
}

/* The object at base (a new one, or a different size: a new allocation there), or SIZE_MAX. */
static size_t lc_object(uvm_lc_t *lc, uint64_t base, uint64_t size) {
    for (size_t i = 0; i < lc->nobj; i++)
        if (lc->obj[i].base == base) {
            if (lc->obj[i].size != size) {
                memset(&lc->obj[i], 0, sizeof(lc->obj[i]));
                lc->obj[i].base = base;
                lc->obj[i].size = size;
            }
            return i;
        }
    if (lc->nobj == lc->capobj) {
        const size_t c = lc->capobj ? 2 * lc->capobj : 16;
        uvm_lc_obj_t *o = realloc(lc->obj, c * sizeof(*o));
        if (!o)
            return SIZE_MAX;
        lc->obj = o;
        lc->capobj = c;
    }
    uvm_lc_obj_t *o = &lc->obj[lc->nobj];
    memset(o, 0, sizeof(*o));
    o->base = base;
    o->size = size;
    return lc->nobj++;
}

static int cmp_u64(uint64_t a, uint64_t b) {
    return a < b ? -1 : a > b ? 1 : 0;
}

/* The scheme's priority of object a against b: 1 higher, -1 lower, 0 equal (rl: this launch's
 * regional locality per object). */
static int lc_prio(const uvm_lc_t *lc, const uint64_t *rl, size_t a, size_t b) {
    const uvm_lc_obj_t *x = &lc->obj[a], *y = &lc->obj[b];
    switch (lc->policy) {
    case UVM_OBJ_POLICY_RLM:
        return cmp_u64(rl[a], rl[b]);
    case UVM_OBJ_POLICY_GLM:
        return cmp_u64(x->gl, y->gl);
    case UVM_OBJ_POLICY_RDM: {
        const int c = cmp_u64(y->next, x->next); /* sooner is higher */
        return c ? c : cmp_u64(x->gl, y->gl);
    }
    default: /* LRU */
        return cmp_u64(x->last, y->last);
    }
}

/* the order in which a launch's objects are placed: priority, then regional and global
 * locality, then the trace's order */
static int lc_before(const uvm_lc_t *lc, const uint64_t *rl, size_t a, size_t b) {
    int c = lc_prio(lc, rl, a, b);
    if (!c)
        c = cmp_u64(rl[a], rl[b]);
    if (!c)
        c = cmp_u64(lc->obj[a].gl, lc->obj[b].gl);
    return c ? c > 0 : a < b;
}

static bool lc_explicit(const uvm_lc_t *lc, const uvm_obj_use_t *u) {
    if (lc->policy == UVM_OBJ_POLICY_LRU || lc->transfer == UVM_OBJ_XFER_EXPLICIT)
        return true;
    return lc->transfer == UVM_OBJ_XFER_DENSITY && u->density >= UVM_OBJ_DENSITY_THRESHOLD;
}

typedef struct {
    uvm_lc_t *lc;
    const uint64_t *rl;
    bool *keep; /* placed on the GPU in this launch: never removed in it */
    bool *cand; /* on the replacement candidate list */
    uvm_lc_act_t *act;
    size_t nact;
    /* partial mapping: the first object of the launch that does not go to the GPU (SIZE_MAX:
     * none yet), where its action belongs, its location and part before the launch, and its
     * transfer */
    size_t pc, pc_at;
    uvm_lc_loc_t pc_loc;
    uint64_t pc_part;
    bool pc_xfer;
} lc_launch_t;

static void lc_emit(lc_launch_t *l, size_t o, uvm_lc_act_kind_t k, bool moved, bool prefetch) {
    uvm_lc_act_t *a = &l->act[l->nact++];
    a->obj = o;
    a->kind = k;
    a->moved = moved;
    a->prefetch = prefetch;
    a->part = 0;
}

/* Steps 2-4 of their algorithm for object o, not in GPU memory: room, or candidates of strictly
 * lower priority (the lowest first) until there is room. true: o goes to the GPU. */
static bool lc_make_room(lc_launch_t *l, size_t o) {
    uvm_lc_t *lc = l->lc;
    const uint64_t need = lc_bytes(&lc->obj[o]);
    uint64_t room = lc_room(lc, o);
    for (size_t i = 0; i < lc->nobj; i++)
        l->cand[i] = false;
    while (room < need) {
        size_t c = SIZE_MAX;
        for (size_t i = 0; i < lc->nobj; i++) {
            if (lc_gpu(&lc->obj[i]) == 0 || l->keep[i] || l->cand[i] ||
                lc_prio(lc, l->rl, i, o) >= 0)
                continue;
            if (c == SIZE_MAX || lc_before(lc, l->rl, c, i))
                c = i;
        }
        if (c == SIZE_MAX)
            return false; /* the list is dropped: nothing replaced */
        l->cand[c] = true;
        room += lc_gpu(&lc->obj[c]);
    }
    for (size_t i = 0; i < lc->nobj; i++)
        if (l->cand[i]) {
            lc->obj[i].loc = UVM_LC_LOC_CPU;
            lc->obj[i].part = 0;
            lc_emit(l, i, UVM_LC_ACT_EVICT, true, false);
        }
    return true;
}

static void lc_place(lc_launch_t *l, size_t o, const uvm_obj_use_t *u) {
    uvm_lc_obj_t *ob = &l->lc->obj[o];
    if (l->lc->policy == UVM_OBJ_POLICY_HOST) {
        lc_emit(l, o, UVM_LC_ACT_CPU, ob->loc != UVM_LC_LOC_CPU, false);
        ob->loc = UVM_LC_LOC_CPU;
        return;
    }
    if (l->lc->policy == UVM_OBJ_POLICY_TRANSFER) {
        lc_emit(l, o, UVM_LC_ACT_GPU, false, lc_explicit(l->lc, u));
        return;
    }
    if (ob->loc == UVM_LC_LOC_GPU || lc_make_room(l, o)) {
        lc_emit(l, o, UVM_LC_ACT_GPU, ob->loc != UVM_LC_LOC_GPU, lc_explicit(l->lc, u));
        ob->loc = UVM_LC_LOC_GPU;
        ob->part = 0;
        l->keep[o] = true;
        return;
    }
    if (l->lc->partial && l->pc == SIZE_MAX) {
        /* partial mapping: the first object that does not go to the GPU is decided after the
         * launch's other objects (lc_partial); its room, old part included, is theirs meanwhile */
        l->pc = o;
        l->pc_at = l->nact;
        l->pc_loc = ob->loc;
        l->pc_part = ob->part;
        l->pc_xfer = lc_explicit(l->lc, u);
        ob->loc = UVM_LC_LOC_CPU;
        ob->part = 0;
        return;
    }
    lc_emit(l, o, UVM_LC_ACT_CPU, ob->loc != UVM_LC_LOC_CPU, false);
    ob->loc = UVM_LC_LOC_CPU;
    ob->part = 0;
}

static void lc_insert(lc_launch_t *l, size_t at, const uvm_lc_act_t *a) {
    memmove(&l->act[at + 1], &l->act[at], (l->nact - at) * sizeof(*a));
    l->act[at] = *a;
    l->nact++;
}

/* Partial mapping (their §3.4, docs/handler.md §6s.1): the object whose priority follows those
 * placed in GPU memory takes, for its first part (lowest addresses, whole pages), the room the
 * launch's placement leaves unused; the rest is in host memory. No room: it is placed in host
 * memory, as without partial mapping (the same action at the same place). */
static void lc_partial(lc_launch_t *l) {
    const size_t o = l->pc;
    uvm_lc_obj_t *ob = &l->lc->obj[o];
    const uint64_t part = lc_room(l->lc, o) / LC_PAGE * LC_PAGE;
    uvm_lc_act_t a = {o, UVM_LC_ACT_CPU, l->pc_loc != UVM_LC_LOC_CPU, false, 0};
    if (part == 0) {
        lc_insert(l, l->pc_at, &a);
        return;
    }
    /* its old part removed earlier in this launch as a candidate, or shrinking: only what lies
     * beyond the new part leaves, where the object's action belongs (before the objects after
     * it take their room) */
    bool evicted = false;
    for (size_t i = 0; i < l->nact; i++)
        if (l->act[i].obj == o && l->act[i].kind == UVM_LC_ACT_EVICT) {
            l->act[i].part = part;
            evicted = true;
        }
    if (!evicted && l->pc_loc == UVM_LC_LOC_PART && l->pc_part > part) {
        a.kind = UVM_LC_ACT_EVICT;
        a.part = part;
        lc_insert(l, l->pc_at, &a);
    }
    a.kind = UVM_LC_ACT_PART;
    a.moved = l->pc_loc != UVM_LC_LOC_PART || l->pc_part != part;
    a.prefetch = l->pc_xfer;
    a.part = part;
    l->act[l->nact++] = a;
    ob->loc = UVM_LC_LOC_PART;
    ob->part = part;
}

int uvm_lc_plan(uvm_lc_t *lc, const uvm_obj_use_t *use, size_t n, uvm_lc_act_t **act,
                size_t *nact) {
    *act = NULL;
    *nact = 0;
    size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
    for (size_t j = 0; idx && j < n; j++) {
        idx[j] = lc_object(lc, use[j].base, use[j].size);
        if (idx[j] == SIZE_MAX) {
            free(idx);
            return -1;
        }
    }
    const size_t m = lc->nobj ? lc->nobj : 1;
    lc_launch_t l = {lc,
                     NULL,
                     calloc(m, sizeof(bool)),
                     calloc(m, sizeof(bool)),
                     malloc((n + m) * sizeof(uvm_lc_act_t)),
                     0,
                     SIZE_MAX,
                     0,
                     UVM_LC_LOC_NONE,
                     0,
                     false};
    uint64_t *rl = calloc(m, sizeof(*rl));
    size_t *ord = malloc((n ? n : 1) * sizeof(*ord));
    int rc = idx && l.keep && l.cand && l.act && rl && ord ? 0 : -1;
    for (size_t j = 0; rc == 0 && j < n; j++) {
        uvm_lc_obj_t *o = &lc->obj[idx[j]];
        o->gl = use[j].gl;
        o->next = use[j].reuse == UVM_OBJ_NEVER ? UINT64_MAX : lc->trc + use[j].reuse;
        o->last = lc->trc + 1u; /* 0: never used */
        rl[idx[j]] = use[j].rl;
        ord[j] = j;
    }
    l.rl = rl;
    /* insertion sort of the launch's objects by placement order (a launch uses few objects) */
    for (size_t j = 1; rc == 0 && j < n; j++)
        for (size_t k = j; k > 0 && lc_before(lc, rl, idx[ord[k]], idx[ord[k - 1]]); k--) {
            const size_t t = ord[k];
            ord[k] = ord[k - 1];
            ord[k - 1] = t;
        }
    for (size_t j = 0; rc == 0 && j < n; j++)
        lc_place(&l, idx[ord[j]], &use[ord[j]]);
    if (rc == 0 && l.pc != SIZE_MAX)
        lc_partial(&l);
    if (rc == 0) {
        lc->trc++;
        *act = l.act;
        *nact = l.nact;
    } else {
        free(l.act);
    }
    free(idx);
    free(ord);
    free(rl);
    free(l.keep);
    free(l.cand);
    return rc;
}

void uvm_lc_forget(uvm_lc_t *lc, uint64_t base) {
    for (size_t i = 0; i < lc->nobj; i++)
        if (lc->obj[i].base == base) {
            lc->obj[i].loc = UVM_LC_LOC_NONE;
            lc->obj[i].part = 0;
        }
}
