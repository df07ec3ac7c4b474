/*
 * test_handler_lc.c - Li & Chapman's object placement planner (sw-handler/uvm_lc.c,
 * docs/handler.md §6s) on hand-made object tables: RLM's intra-kernel priority, GLM's fixed
 * priority, RDM's next reuse time with the global-locality tie break, LRU, Host, the transfer
 * selection by access density, a freed object forgotten.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../sw-handler/uvm_lc.h"

#define PG 4096u
#define NEVER UVM_OBJ_NEVER

/* object k: base (k + 1) MB, pages pages */
static uvm_obj_use_t obj(unsigned k, unsigned pages, uint64_t rl, uint64_t gl, uint32_t reuse,
                         double density) {
    const uvm_obj_use_t u = {(uint64_t)(k + 1) << 20, (uint64_t)pages * PG, density, rl, gl, reuse};
    return u;
}

typedef struct {
    uvm_lc_act_t *a;
    size_t n;
} plan_t;

static plan_t plan(uvm_lc_t *lc, const uvm_obj_use_t *u, size_t n) {
    plan_t p;
    assert_int_equal(uvm_lc_plan(lc, u, n, &p.a, &p.n), 0);
    return p;
}

/* the action of p on the object at base (kind), -1 if none */
static int act_of(const uvm_lc_t *lc, const plan_t *p, uint64_t base, uvm_lc_act_t *out) {
    for (size_t i = 0; i < p->n; i++)
        if (lc->obj[p->a[i].obj].base == base) {
            if (out)
                *out = p->a[i];
            return (int)p->a[i].kind;
        }
    return -1;
}

static uvm_lc_loc_t loc_of(const uvm_lc_t *lc, uint64_t base) {
    for (size_t i = 0; i < lc->nobj; i++)
        if (lc->obj[i].base == base)
            return lc->obj[i].loc;
    return UVM_LC_LOC_NONE;
}

/* RLM: a kernel's objects by regional locality; the one that does not fit goes to the host
 * (nothing of lower priority to replace); the next kernel replaces the lowest-priority objects
 * not used by it, the lowest first */
static void test_rlm(void **state) {
    (void)state;
    uvm_lc_t lc;
    uvm_lc_init(&lc, UVM_OBJ_POLICY_RLM, UVM_OBJ_XFER_DENSITY, 3 * PG);
    const uvm_obj_use_t k0[] = {obj(0, 1, 10, 10, NEVER, 1.0), obj(1, 1, 5, 5, NEVER, 1.0),
                                obj(2, 2, 100, 100, NEVER, 0.1)};
    plan_t p = plan(&lc, k0, 3);
    assert_int_equal(p.n, 3);
    assert_int_equal(lc.obj[p.a[0].obj].base, k0[2].base); /* highest RL first */
    uvm_lc_act_t a = {0};
    assert_int_equal(act_of(&lc, &p, k0[2].base, &a), UVM_LC_ACT_GPU);
    assert_true(a.moved);
    assert_false(a.prefetch); /* density 0.1: implicit */
    assert_int_equal(act_of(&lc, &p, k0[0].base, &a), UVM_LC_ACT_GPU);
    assert_true(a.prefetch); /* density 1: explicit */
    assert_int_equal(act_of(&lc, &p, k0[1].base, &a), UVM_LC_ACT_CPU);
    assert_int_equal(uvm_lc_gpu_bytes(&lc), 3 * PG);
    free(p.a);
    /* kernel 1 uses object 3 (2 pages): objects 0 and 2 have RL 0 here; the lower in the
     * placement order (global locality 10 < 100) goes first: 0 (1 page) then 2 */
    const uvm_obj_use_t k1[] = {obj(3, 2, 1, 1, NEVER, 1.0)};
    p = plan(&lc, k1, 1);
    assert_int_equal(p.n, 3);
    assert_int_equal(p.a[0].kind, UVM_LC_ACT_EVICT);
    assert_int_equal(p.a[1].kind, UVM_LC_ACT_EVICT);
    assert_int_equal(p.a[2].kind, UVM_LC_ACT_GPU);
    assert_int_equal(loc_of(&lc, k0[0].base), UVM_LC_LOC_CPU);
    assert_int_equal(loc_of(&lc, k0[2].base), UVM_LC_LOC_CPU);
    assert_int_equal(loc_of(&lc, k1[0].base), UVM_LC_LOC_GPU);
    free(p.a);
    /* kernel 2: object 0 again, 1 page free: fits, nothing replaced; an object used again while
     * on the GPU stays (not moved) */
    const uvm_obj_use_t k2[] = {obj(0, 1, 3, 10, NEVER, 1.0), obj(3, 2, 1, 1, NEVER, 1.0)};
    p = plan(&lc, k2, 2);
    assert_int_equal(p.n, 2);
    assert_int_equal(act_of(&lc, &p, k2[1].base, &a), UVM_LC_ACT_GPU);
    assert_false(a.moved);
    assert_true(a.prefetch); /* explicit each launch: only its missing pages are copied */
    free(p.a);
    uvm_lc_fini(&lc);
}

/* GLM: the priority is global and fixed: an object of lower global locality never replaces
 * one of higher, whatever the kernel (no inter-kernel thrashing) */
static void test_glm(void **state) {
    (void)state;
    uvm_lc_t lc;
    uvm_lc_init(&lc, UVM_OBJ_POLICY_GLM, UVM_OBJ_XFER_IMPLICIT, 2 * PG);
    const uvm_obj_use_t a = obj(0, 2, 1, 50, NEVER, 1.0), b = obj(1, 2, 1000, 40, NEVER, 1.0);
    for (int it = 0; it < 3; it++) {
        plan_t p = plan(&lc, &a, 1);
        uvm_lc_act_t x = {0};
        assert_int_equal(act_of(&lc, &p, a.base, &x), UVM_LC_ACT_GPU);
        assert_false(x.prefetch); /* implicit only */
        assert_int_equal(x.moved, it == 0);
        free(p.a);
        p = plan(&lc, &b, 1); /* RL 1000 here, but GL 40 < 50: stays on the host */
        assert_int_equal(p.n, 1);
        assert_int_equal(act_of(&lc, &p, b.base, &x), UVM_LC_ACT_CPU);
        assert_int_equal(x.moved, it == 0);
        free(p.a);
    }
    /* with RLM the same sequence moves them back and forth (their bfs 19 GB case) */
    uvm_lc_fini(&lc);
    uvm_lc_init(&lc, UVM_OBJ_POLICY_RLM, UVM_OBJ_XFER_IMPLICIT, 2 * PG);
    int evictions = 0;
    for (int it = 0; it < 3; it++) {
        for (int k = 0; k < 2; k++) {
            plan_t p = plan(&lc, k ? &b : &a, 1);
            for (size_t i = 0; i < p.n; i++)
                evictions += p.a[i].kind == UVM_LC_ACT_EVICT;
            free(p.a);
        }
    }
    assert_int_equal(evictions, 5);
    uvm_lc_fini(&lc);
}

/* RDM: the object reused in the furthest future is the candidate; one reused later than every
 * candidate stays on the host; equal next reuse times: global locality decides */
static void test_rdm(void **state) {
    (void)state;
    uvm_lc_t lc;
    uvm_lc_init(&lc, UVM_OBJ_POLICY_RDM, UVM_OBJ_XFER_DENSITY, 2 * PG);
    /* launch 0: X reused at 2, Y at 1 */
    const uvm_obj_use_t k0[] = {obj(0, 1, 1, 5, 2, 1.0), obj(1, 1, 1, 5, 1, 1.0)};
    plan_t p = plan(&lc, k0, 2);
    assert_int_equal(lc.obj[p.a[0].obj].base, k0[1].base); /* sooner reuse placed first */
    free(p.a);
    /* launch 1: Z, reused at 1 + 4 = 5: X (2) and Y (next use is this launch + 3 = 4) sooner */
    const uvm_obj_use_t k1[] = {obj(1, 1, 1, 5, 3, 1.0), obj(2, 1, 1, 5, 4, 1.0)};
    p = plan(&lc, k1, 2);
    assert_int_equal(act_of(&lc, &p, k1[1].base, NULL), UVM_LC_ACT_CPU);
    assert_int_equal(p.n, 2);
    free(p.a);
    /* launch 2: X (never reused after it) and W (reused at 2 + 2 = 4): W first; X, its next
     * reuse now never, is the furthest candidate: removed for W, then not moved back (Belady's
     * bypass); Y (next 4 = W's, global locality 5 < 9) would have been next */
    const uvm_obj_use_t k2[] = {obj(0, 1, 1, 5, NEVER, 1.0), obj(3, 1, 1, 9, 2, 1.0)};
    p = plan(&lc, k2, 2);
    assert_int_equal(p.n, 3);
    assert_int_equal(p.a[0].kind, UVM_LC_ACT_EVICT);
    assert_int_equal(lc.obj[p.a[0].obj].base, k2[0].base);
    assert_int_equal(p.a[1].kind, UVM_LC_ACT_GPU);
    assert_int_equal(lc.obj[p.a[1].obj].base, k2[1].base);
    assert_true(p.a[1].moved);
    assert_int_equal(p.a[2].kind, UVM_LC_ACT_CPU);
    assert_false(p.a[2].moved); /* already on the host */
    assert_int_equal(loc_of(&lc, k1[0].base), UVM_LC_LOC_GPU);
    free(p.a);
    /* launch 3: V reused at 4, as Y and W: the tie is broken by global locality: Y (5 < 9) is
     * replaced, W (9, not lower) is not */
    const uvm_obj_use_t k3[] = {obj(4, 1, 1, 9, 1, 1.0)};
    p = plan(&lc, k3, 1);
    assert_int_equal(p.n, 2);
    assert_int_equal(p.a[0].kind, UVM_LC_ACT_EVICT);
    assert_int_equal(lc.obj[p.a[0].obj].base, k1[0].base);
    assert_int_equal(loc_of(&lc, k2[1].base), UVM_LC_LOC_GPU);
    assert_int_equal(loc_of(&lc, k3[0].base), UVM_LC_LOC_GPU);
    free(p.a);
    uvm_lc_fini(&lc);
}

/* LRU: the least recently used object leaves; explicit transfer always */
static void test_lru(void **state) {
    (void)state;
    uvm_lc_t lc;
    uvm_lc_init(&lc, UVM_OBJ_POLICY_LRU, UVM_OBJ_XFER_IMPLICIT, 2 * PG);
    const uvm_obj_use_t a = obj(0, 1, 1, 1, NEVER, 0.0), b = obj(1, 1, 1, 1, NEVER, 0.0),
                        c = obj(2, 1, 1, 1, NEVER, 0.0);
    plan_t p = plan(&lc, &a, 1);
    assert_true(p.a[0].prefetch);
    free(p.a);
    free(plan(&lc, &b, 1).a);
    free(plan(&lc, &a, 1).a); /* a used again: b is the least recent */
    p = plan(&lc, &c, 1);
    assert_int_equal(act_of(&lc, &p, b.base, NULL), UVM_LC_ACT_EVICT);
    assert_int_equal(loc_of(&lc, a.base), UVM_LC_LOC_GPU);
    free(p.a);
    uvm_lc_fini(&lc);
}

/* Host: every object placed in host memory once; transfer-only: no placement, the density
 * threshold decides the prefetch (0.5 explicit, below implicit) */
static void test_host_and_transfer(void **state) {
    (void)state;
    uvm_lc_t lc;
    uvm_lc_init(&lc, UVM_OBJ_POLICY_HOST, UVM_OBJ_XFER_DENSITY, 100 * PG);
    const uvm_obj_use_t u[] = {obj(0, 1, 1, 1, NEVER, 0.5), obj(1, 1, 1, 1, NEVER, 0.49)};
    plan_t p = plan(&lc, u, 2);
    assert_int_equal(p.n, 2);
    assert_int_equal(p.a[0].kind, UVM_LC_ACT_CPU);
    assert_true(p.a[0].moved);
    free(p.a);
    p = plan(&lc, u, 2);
    assert_false(p.a[0].moved);
    assert_false(p.a[1].prefetch);
    free(p.a);
    uvm_lc_fini(&lc);
    uvm_lc_init(&lc, UVM_OBJ_POLICY_TRANSFER, UVM_OBJ_XFER_DENSITY, 1 * PG);
    p = plan(&lc, u, 2);
    uvm_lc_act_t x = {0};
    assert_int_equal(act_of(&lc, &p, u[0].base, &x), UVM_LC_ACT_GPU);
    assert_true(x.prefetch);
    assert_int_equal(act_of(&lc, &p, u[1].base, &x), UVM_LC_ACT_GPU);
    assert_false(x.prefetch);
    assert_int_equal(uvm_lc_gpu_bytes(&lc), 0); /* nothing placed */
    free(p.a);
    uvm_lc_fini(&lc);
    uvm_lc_init(&lc, UVM_OBJ_POLICY_TRANSFER, UVM_OBJ_XFER_EXPLICIT, 1 * PG);
    p = plan(&lc, u, 2);
    assert_true(p.a[0].prefetch && p.a[1].prefetch);
    free(p.a);
    uvm_lc_fini(&lc);
}

/* a freed object leaves the book-keeping; a new allocation at its base is a new object */
static void test_forget(void **state) {
    (void)state;
    uvm_lc_t lc;
    uvm_lc_init(&lc, UVM_OBJ_POLICY_GLM, UVM_OBJ_XFER_DENSITY, 1 * PG);
    const uvm_obj_use_t a = obj(0, 1, 1, 9, NEVER, 1.0), b = obj(1, 1, 1, 1, NEVER, 1.0);
    free(plan(&lc, &a, 1).a);
    plan_t p = plan(&lc, &b, 1);
    assert_int_equal(p.a[0].kind, UVM_LC_ACT_CPU);
    free(p.a);
    uvm_lc_forget(&lc, a.base);
    assert_int_equal(uvm_lc_gpu_bytes(&lc), 0);
    p = plan(&lc, &b, 1);
    assert_int_equal(p.a[0].kind, UVM_LC_ACT_GPU);
    free(p.a);
    uvm_lc_fini(&lc);
}

/* the part in GPU memory of the object at base (partial mapping), 0 if none */
static uint64_t part_of(const uvm_lc_t *lc, uint64_t base) {
    for (size_t i = 0; i < lc->nobj; i++)
        if (lc->obj[i].base == base)
            return lc->obj[i].loc == UVM_LC_LOC_PART ? lc->obj[i].part : 0;
    return 0;
}

/* partial mapping (their §3.4): with 5 pages, RDM places 0 and 1 (2 pages each, reused sooner)
 * whole and object 2 (4 pages, reused last) partly: its first page in GPU memory, the rest in
 * host memory; without partial mapping it goes to the host whole and a page stays empty */
static void test_partial(void **state) {
    (void)state;
    uvm_lc_t lc;
    uvm_lc_init(&lc, UVM_OBJ_POLICY_RDM, UVM_OBJ_XFER_DENSITY, 5 * PG);
    lc.partial = true;
    const uvm_obj_use_t k0[] = {obj(2, 4, 9, 9, 3, 1.0), obj(0, 2, 5, 5, 1, 1.0),
                                obj(1, 2, 5, 5, 2, 0.1)};
    plan_t p = plan(&lc, k0, 3);
    assert_int_equal(p.n, 3);
    uvm_lc_act_t a = {0};
    assert_int_equal(lc.obj[p.a[2].obj].base, k0[0].base); /* placed last: reused last */
    assert_int_equal(act_of(&lc, &p, k0[0].base, &a), UVM_LC_ACT_PART);
    assert_true(a.moved);
    assert_true(a.prefetch); /* density 1: its part prefetched */
    assert_int_equal(a.part, PG);
    assert_int_equal(loc_of(&lc, k0[0].base), UVM_LC_LOC_PART);
    assert_int_equal(part_of(&lc, k0[0].base), PG);
    assert_int_equal(uvm_lc_gpu_bytes(&lc), 5 * PG);
    free(p.a);
    /* the same launch again: nothing moves, the split stays */
    p = plan(&lc, k0, 3);
    assert_int_equal(act_of(&lc, &p, k0[0].base, &a), UVM_LC_ACT_PART);
    assert_false(a.moved);
    assert_int_equal(a.part, PG);
    free(p.a);
    /* a launch of object 3 (1 page, reused soonest): the room is gone; the partial object is
     * the replacement candidate (its part, reused furthest), so object 3 takes its page and it
     * goes to the host whole; object 2 then reused soon with 0 and 1 never again: 0 and 1
     * are removed and object 2 placed whole */
    const uvm_obj_use_t k1[] = {obj(3, 1, 9, 9, 1, 1.0)};
    p = plan(&lc, k1, 1);
    assert_int_equal(act_of(&lc, &p, k0[0].base, &a), UVM_LC_ACT_EVICT);
    assert_int_equal(loc_of(&lc, k0[0].base), UVM_LC_LOC_CPU);
    assert_int_equal(part_of(&lc, k0[0].base), 0);
    assert_int_equal(uvm_lc_gpu_bytes(&lc), 5 * PG);
    free(p.a);
    const uvm_obj_use_t k2[] = {obj(2, 4, 9, 9, 1, 1.0), obj(0, 2, 5, 5, NEVER, 1.0),
                                obj(1, 2, 5, 5, NEVER, 1.0)};
    p = plan(&lc, k2, 3);
    assert_int_equal(act_of(&lc, &p, k0[1].base, NULL), UVM_LC_ACT_EVICT);
    assert_int_equal(act_of(&lc, &p, k0[2].base, NULL), UVM_LC_ACT_EVICT);
    assert_int_equal(act_of(&lc, &p, k0[0].base, &a), UVM_LC_ACT_GPU);
    assert_true(a.moved);
    assert_int_equal(uvm_lc_gpu_bytes(&lc), 5 * PG);
    free(p.a);
    uvm_lc_fini(&lc);
    /* without partial mapping: object 2 whole in host memory, 1 page of GPU memory unused */
    uvm_lc_init(&lc, UVM_OBJ_POLICY_RDM, UVM_OBJ_XFER_DENSITY, 5 * PG);
    p = plan(&lc, k0, 3);
    assert_int_equal(act_of(&lc, &p, k0[0].base, &a), UVM_LC_ACT_CPU);
    assert_int_equal(uvm_lc_gpu_bytes(&lc), 4 * PG);
    free(p.a);
    uvm_lc_fini(&lc);
}

/* a partial object's part grows when room appears and shrinks when a higher-priority object
 * takes room (GLM: fixed priority by global locality); an object of a size not a multiple of
 * pages: the part is whole pages, the rest holds the tail */
static void test_partial_resplit(void **state) {
    (void)state;
    uvm_lc_t lc;
    uvm_lc_init(&lc, UVM_OBJ_POLICY_GLM, UVM_OBJ_XFER_IMPLICIT, 6 * PG);
    lc.partial = true;
    uvm_obj_use_t big = obj(0, 8, 1, 1, NEVER, 1.0);
    big.size -= 100; /* 8 pages less 100 bytes */
    const uvm_obj_use_t k0[] = {obj(1, 3, 9, 9, NEVER, 1.0), big};
    plan_t p = plan(&lc, k0, 2);
    uvm_lc_act_t a = {0};
    assert_int_equal(act_of(&lc, &p, big.base, &a), UVM_LC_ACT_PART);
    assert_int_equal(a.part, 3 * PG);
    assert_false(a.prefetch); /* implicit */
    free(p.a);
    /* object 4 (2 pages, higher global locality) joins: the part shrinks to 1 page */
    const uvm_obj_use_t k1[] = {obj(1, 3, 9, 9, NEVER, 1.0), obj(4, 2, 8, 8, NEVER, 1.0), big};
    p = plan(&lc, k1, 3);
    assert_int_equal(p.n, 4);
    /* the part (lower priority) is the candidate removed for object 4, then the object gets
     * the room left: only what lies beyond its new part leaves the GPU */
    assert_int_equal(p.a[1].kind, UVM_LC_ACT_EVICT);
    assert_int_equal(lc.obj[p.a[1].obj].base, big.base);
    assert_int_equal(p.a[1].part, PG);
    assert_int_equal(lc.obj[p.a[2].obj].base, k1[1].base);
    assert_int_equal(p.a[2].kind, UVM_LC_ACT_GPU);
    assert_int_equal(p.a[3].kind, UVM_LC_ACT_PART);
    assert_true(p.a[3].moved);
    assert_int_equal(p.a[3].part, PG);
    assert_int_equal(part_of(&lc, big.base), PG);
    free(p.a);
    /* object 1 freed: the part grows into its room (6 - 2 = 4 pages) */
    uvm_lc_forget(&lc, k0[0].base);
    const uvm_obj_use_t k2[] = {obj(4, 2, 8, 8, NEVER, 1.0), big};
    p = plan(&lc, k2, 2);
    assert_int_equal(act_of(&lc, &p, big.base, &a), UVM_LC_ACT_PART);
    assert_true(a.moved);
    assert_int_equal(a.part, 4 * PG);
    assert_int_equal(uvm_lc_gpu_bytes(&lc), 6 * PG);
    free(p.a);
    uvm_lc_fini(&lc);
}

/* the part is the room the launch's placement leaves: an object after the partial one in the
 * priority order that fits whole keeps its place (RDM, 6 pages: 0 and 2 whole, 1 gets 2 pages);
 * a later launch removes the part as a candidate and maps what is left (1 page) again, the
 * removal keeping that page */
static void test_partial_leftover(void **state) {
    (void)state;
    uvm_lc_t lc;
    uvm_lc_init(&lc, UVM_OBJ_POLICY_RDM, UVM_OBJ_XFER_DENSITY, 6 * PG);
    lc.partial = true;
    const uvm_obj_use_t k0[] = {obj(0, 2, 9, 9, 1, 1.0), obj(1, 8, 5, 5, 2, 1.0),
                                obj(2, 2, 1, 1, 3, 1.0)};
    plan_t p = plan(&lc, k0, 3);
    assert_int_equal(p.n, 3);
    assert_int_equal(lc.obj[p.a[0].obj].base, k0[0].base);
    assert_int_equal(p.a[1].kind, UVM_LC_ACT_GPU); /* object 2 fits whole after object 1 */
    assert_int_equal(lc.obj[p.a[1].obj].base, k0[2].base);
    assert_int_equal(p.a[2].kind, UVM_LC_ACT_PART);
    assert_int_equal(lc.obj[p.a[2].obj].base, k0[1].base);
    assert_int_equal(p.a[2].part, 2 * PG);
    assert_int_equal(uvm_lc_gpu_bytes(&lc), 6 * PG);
    free(p.a);
    /* object 3 (3 pages, reused soonest): objects 2 (next reuse 3, GL 1) then 1 (3, GL 5) are
     * removed for it; object 1 then gets the page left: its removal keeps that page */
    const uvm_obj_use_t k1[] = {obj(3, 3, 9, 9, 1, 1.0), obj(1, 8, 5, 5, 2, 1.0)};
    p = plan(&lc, k1, 2);
    assert_int_equal(p.n, 4);
    /* the removals in the objects' table order */
    assert_int_equal(p.a[0].kind, UVM_LC_ACT_EVICT);
    assert_int_equal(lc.obj[p.a[0].obj].base, k0[1].base);
    assert_int_equal(p.a[0].part, PG);
    assert_int_equal(p.a[1].kind, UVM_LC_ACT_EVICT);
    assert_int_equal(lc.obj[p.a[1].obj].base, k0[2].base);
    assert_int_equal(p.a[1].part, 0);
    assert_int_equal(p.a[2].kind, UVM_LC_ACT_GPU);
    assert_int_equal(p.a[3].kind, UVM_LC_ACT_PART);
    assert_true(p.a[3].moved);
    assert_int_equal(p.a[3].part, PG);
    assert_int_equal(uvm_lc_gpu_bytes(&lc), 6 * PG);
    free(p.a);
    uvm_lc_fini(&lc);
}

/* a part shrinks without being a candidate: GLM, 6 pages, A (GL 9) and C (GL 1) whole, B (GL 5)
 * 2 pages; then D (GL 7, 1 page) removes C, B's turn frees its part to the objects after it, C
 * comes back whole and B keeps 1 page: the shrink is enforced where B's action belongs (before
 * C's placement), the part at the end */
static void test_partial_shrink(void **state) {
    (void)state;
    uvm_lc_t lc;
    uvm_lc_init(&lc, UVM_OBJ_POLICY_GLM, UVM_OBJ_XFER_DENSITY, 6 * PG);
    lc.partial = true;
    const uvm_obj_use_t a = obj(0, 2, 9, 9, NEVER, 1.0), b = obj(1, 8, 5, 5, NEVER, 1.0),
                        c = obj(2, 2, 1, 1, NEVER, 1.0), d = obj(3, 1, 7, 7, NEVER, 1.0);
    const uvm_obj_use_t k0[] = {a, b, c};
    plan_t p = plan(&lc, k0, 3);
    assert_int_equal(part_of(&lc, b.base), 2 * PG);
    free(p.a);
    const uvm_obj_use_t k1[] = {a, b, c, d};
    p = plan(&lc, k1, 4);
    assert_int_equal(p.n, 6);
    const uint64_t want_base[] = {a.base, c.base, d.base, b.base, c.base, b.base};
    const int want_kind[] = {UVM_LC_ACT_GPU,   UVM_LC_ACT_EVICT, UVM_LC_ACT_GPU,
                             UVM_LC_ACT_EVICT, UVM_LC_ACT_GPU,   UVM_LC_ACT_PART};
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(lc.obj[p.a[i].obj].base, want_base[i]);
        assert_int_equal(p.a[i].kind, want_kind[i]);
    }
    assert_int_equal(p.a[3].part, PG); /* the shrink keeps the new part */
    assert_int_equal(p.a[5].part, PG);
    assert_true(p.a[5].moved);
    assert_int_equal(uvm_lc_gpu_bytes(&lc), 6 * PG);
    free(p.a);
    uvm_lc_fini(&lc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rlm),
        cmocka_unit_test(test_glm),
        cmocka_unit_test(test_rdm),
        cmocka_unit_test(test_lru),
        cmocka_unit_test(test_host_and_transfer),
        cmocka_unit_test(test_forget),
        cmocka_unit_test(test_partial),
        cmocka_unit_test(test_partial_resplit),
        cmocka_unit_test(test_partial_leftover),
        cmocka_unit_test(test_partial_shrink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
