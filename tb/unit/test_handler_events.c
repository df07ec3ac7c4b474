/*
 * test_handler_events.c - the handler's typed event stream (docs/handler.md §6i) against the fake
 * device: the exact sequence and payloads of a small scenario (a fault, then an eviction, then a
 * stale fault), the fifo eviction policy (its order differs from lru's), and the thrashing
 * hint's actions (THROTTLE, PIN) through a policy defined here and installed with the test hook.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

#define BLOCK_PAGES 512u

typedef struct {
    uvm_event_t ev[128];
    size_t n;
} evlog_t;

static void record(void *ctx, const uvm_event_t *ev) {
    evlog_t *l = ctx;
    assert_true(l->n < 128);
    l->ev[l->n++] = *ev;
}

static void expect_kinds(const evlog_t *l, const uvm_event_kind_t *k, size_t n) {
    for (size_t i = 0; i < n && i < l->n; i++)
        if (l->ev[i].kind != k[i])
            fail_msg("event %zu: kind %d, expected %d", i, (int)l->ev[i].kind, (int)k[i]);
    assert_int_equal(l->n, n);
}

/* ------------------------------------------------------------------------------------------ */
/* the sequence of a small scenario                                                            */

static void test_event_sequence(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 1;
    fx_start(x);
    evlog_t log = {0};
    assert_int_equal(uvm_handler_subscribe(x->h, UVM_EVENT_ALL, record, &log), 0);
    const uint64_t a = VPN0 + 3, b = VPN0 + 4;
    fx_service_write(x, a);
    static const uvm_event_kind_t first[] = {
        UVM_EVENT_FAULT,       UVM_EVENT_BATCH_BEGIN, UVM_EVENT_BLOCK_FAULT,
        UVM_EVENT_RESIDENT,    UVM_EVENT_MIGRATE,     UVM_EVENT_MIGRATE_DONE,
        UVM_EVENT_PAGE_MAPPED, UVM_EVENT_REPLAY,      UVM_EVENT_BATCH_END};
    expect_kinds(&log, first, sizeof first / sizeof first[0]);
    assert_int_equal(log.ev[0].fault.vpn, a);
    assert_int_equal(log.ev[0].fault.access, GMMU_AT_WRITE);
    assert_int_equal(log.ev[1].batch.index, 0);
    assert_int_equal(log.ev[1].batch.faults, 1);
    assert_int_equal(log.ev[2].fault.vpn, a);
    assert_int_equal(log.ev[2].fault.resident, 0);
    assert_int_equal(log.ev[2].fault.count, 1);
    assert_int_equal(log.ev[3].page.vpn, a);
    assert_int_equal(log.ev[3].page.frame, 0);
    assert_int_equal(log.ev[3].page.writable, 1);
    const uvm_event_migrate_t *m = &log.ev[4].migrate, *md = &log.ev[5].migrate;
    assert_int_equal(m->dir, UVM_DMA_H2D);
    assert_int_equal(m->vpn, a);
    assert_int_equal(m->pages, 1);
    assert_int_equal(m->dma, md->dma); /* the completion names the submitted copy */
    assert_int_equal(md->vpn, a);
    assert_int_equal(md->pages, 1);
    assert_int_equal(log.ev[6].page.vpn, a);
    assert_int_equal(log.ev[6].page.pages, 1);
    assert_int_equal(log.ev[7].replay.pages, 0); /* batch_flush: REPLAY_ALL */
    assert_int_equal(log.ev[8].batch.faults, 1);

    /* b takes a's only frame: a is unmapped, written back, loses its frame, is evicted */
    log.n = 0;
    fx_service_write(x, b);
    static const uvm_event_kind_t second[] = {
        UVM_EVENT_FAULT,    UVM_EVENT_BATCH_BEGIN,  UVM_EVENT_BLOCK_FAULT,  UVM_EVENT_PAGE_UNMAPPED,
        UVM_EVENT_MIGRATE,  UVM_EVENT_MIGRATE_DONE, UVM_EVENT_NONRESIDENT,  UVM_EVENT_EVICT,
        UVM_EVENT_RESIDENT, UVM_EVENT_MIGRATE,      UVM_EVENT_MIGRATE_DONE, UVM_EVENT_PAGE_MAPPED,
        UVM_EVENT_REPLAY,   UVM_EVENT_BATCH_END};
    expect_kinds(&log, second, sizeof second / sizeof second[0]);
    assert_int_equal(log.ev[3].page.vpn, a);
    assert_int_equal(log.ev[3].page.frame, 0);
    assert_int_equal(log.ev[4].migrate.dir, UVM_DMA_D2H);
    assert_int_equal(log.ev[4].migrate.vpn, a);
    assert_int_equal(log.ev[5].migrate.dir, UVM_DMA_D2H);
    assert_int_equal(log.ev[6].page.vpn, a);
    assert_int_equal(log.ev[7].evict.vpn, a);
    assert_int_equal(log.ev[7].evict.pages, 1);
    assert_int_equal(log.ev[7].evict.writeback, 1);
    assert_int_equal(log.ev[8].page.vpn, b);
    assert_int_equal(log.ev[8].page.frame, 0);
    assert_int_equal(log.ev[9].migrate.dir, UVM_DMA_H2D);
    assert_int_equal(log.ev[11].page.vpn, b);

    /* a stale fault on b: observed with its frame, nothing migrates */
    log.n = 0;
    fx_service_write(x, b);
    static const uvm_event_kind_t third[] = {UVM_EVENT_FAULT, UVM_EVENT_BATCH_BEGIN,
                                             UVM_EVENT_BLOCK_FAULT, UVM_EVENT_REPLAY,
                                             UVM_EVENT_BATCH_END};
    expect_kinds(&log, third, sizeof third / sizeof third[0]);
    assert_int_equal(log.ev[2].fault.resident, 1);
    assert_int_equal(log.ev[2].fault.frame, 0);
    /* the statistics observe the same stream */
    assert_int_equal(st(x)->faults_fetched, 3);
    assert_int_equal(st(x)->evictions, 1);
    assert_int_equal(st(x)->pages_h2d, 2);
    assert_int_equal(st(x)->pages_d2h, 1);
    fx_done(x);
}

/* Two observers of one kind are called in subscription order, each event once. */
static void test_event_order_between_observers(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fx_start(x);
    evlog_t one = {0}, both = {0};
    assert_int_equal(uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_RESIDENT), record, &both),
                     0);
    assert_int_equal(uvm_handler_subscribe(x->h,
                                           UVM_EVENT_MASK(UVM_EVENT_RESIDENT) |
                                               UVM_EVENT_MASK(UVM_EVENT_PAGE_MAPPED),
                                           record, &both),
                     0);
    assert_int_equal(
        uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_PAGE_MAPPED), record, &one), 0);
    fx_service_write(x, VPN0 + 1);
    assert_int_equal(both.n, 3); /* RESIDENT (1st), RESIDENT (2nd), MAPPED (2nd) */
    assert_int_equal(both.ev[0].kind, UVM_EVENT_RESIDENT);
    assert_int_equal(both.ev[1].kind, UVM_EVENT_RESIDENT);
    assert_int_equal(both.ev[2].kind, UVM_EVENT_PAGE_MAPPED);
    assert_int_equal(one.n, 1);
    /* no kind beyond the list; the kinds without a source yet never come */
    assert_int_equal(uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_KINDS), record, &one),
                     -1);
    fx_done(x);
}

/* ------------------------------------------------------------------------------------------ */
/* fifo: VA blocks in order of first residency                                                  */

/* Allocations "b", "c", "d" in the next three 2 MB blocks (block k starts at VPN0 + 512 k). */
static void add_blocks(fx_t *x) {
    static const char *const names[] = {"b", "c", "d"};
    for (uint64_t k = 1; k <= 3; k++)
        assert_int_equal(uvm_handler_add_alloc(x->h, names[k - 1], ALLOC_BASE + (k << 21), PAGE, 0,
                                               x->err, sizeof x->err),
                         0);
}

/* a0 (block 0), b (block 1), a1 (block 0), c (block 2) evicts a0 under both policies; then d
 * (block 3): lru evicts b (the oldest page), fifo a1 (block 0 is still the first resident
 * block). Returns the evicted VPN of d's fault. */
static uint64_t second_victim(const char *policy) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 3;
    set_policy(&x->cfg, UVM_POLICY_EVICT, policy);
    fx_start(x);
    add_blocks(x);
    evlog_t log = {0};
    assert_int_equal(uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT), record, &log), 0);
    const uint64_t a0 = VPN0, b = VPN0 + BLOCK_PAGES, a1 = VPN0 + 1;
    fx_service_write(x, a0);
    fx_service_write(x, b);
    fx_service_write(x, a1);
    fx_service_write(x, a0); /* a stale fault (an access): reorders neither policy */
    assert_int_equal(st(x)->faults_stale, 1);
    fx_service_write(x, VPN0 + 2u * BLOCK_PAGES);
    assert_int_equal(log.n, 1);
    assert_int_equal(log.ev[0].evict.vpn, a0);
    fx_service_write(x, VPN0 + 3u * BLOCK_PAGES);
    assert_int_equal(log.n, 2);
    const uint64_t v = log.ev[1].evict.vpn;
    assert_int_equal(walk(&x->fk, v, NULL), 0);
    fx_done(x);
    return v;
}

static void test_fifo_differs_from_lru(void **state) {
    (void)state;
    assert_int_equal(second_victim("lru"), VPN0 + BLOCK_PAGES);
    assert_int_equal(second_victim("fifo"), VPN0 + 1);
}

/* A block leaves the fifo with its last resident page and goes to the tail when it comes back;
 * accesses never reorder; a 16-frame group is taken from the head block. */
static void test_fifo_requeue(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 2;
    set_policy(&x->cfg, UVM_POLICY_EVICT, "fifo");
    fx_start(x);
    add_blocks(x);
    evlog_t log = {0};
    assert_int_equal(uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT), record, &log), 0);
    const uint64_t a = VPN0, b = VPN0 + BLOCK_PAGES, c = VPN0 + 2u * BLOCK_PAGES;
    fx_service_write(x, a);
    fx_service_write(x, b);
    x->h->block_gen++;                                                 /* nothing pinned */
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 2), 0); /* a's group */
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 3), UVM_NONE);
    fx_service_write(x, a); /* stale: no reorder */
    fx_service_write(x, c); /* evicts a: block 0 leaves the list */
    fx_service_write(x, a); /* block 0 back, at the tail: evicts b */
    fx_service_write(x, b); /* evicts c, then the head is block 0 */
    assert_int_equal(log.n, 3);
    assert_int_equal(log.ev[0].evict.vpn, a);
    assert_int_equal(log.ev[1].evict.vpn, b);
    assert_int_equal(log.ev[2].evict.vpn, c);
    fx_service_write(x, c);
    assert_int_equal(log.ev[3].evict.vpn, a);
    fx_done(x);
}

/* ------------------------------------------------------------------------------------------ */
/* thrashing: the hint is acted on                                                              */

typedef struct {
    uint64_t vpn;           /* the page it answers for */
    uvm_thrash_hint_t hint; /* its answer for that page (NONE for the others) */
    uint32_t faults;        /* BLOCK_FAULT events observed */
    uint32_t evictions;     /* EVICT events observed */
    uint32_t asked;
} tp_t;

/* the test's own policy: its state is set by the test through priv */
static tp_t *tp_of(const fx_t *x) {
    return x->h->thrashing_priv;
}

static int tp_init(uvm_handler_t *h, void **priv) {
    (void)h;
    *priv = calloc(1, sizeof(tp_t));
    return *priv ? 0 : -1;
}

static void tp_observe(void *priv, const uvm_event_t *ev) {
    tp_t *t = priv;
    t->faults += ev->kind == UVM_EVENT_BLOCK_FAULT;
    t->evictions += ev->kind == UVM_EVENT_EVICT;
}

static uvm_thrash_hint_t tp_hint(uvm_handler_t *h, void *priv, uint64_t vpn) {
    (void)h;
    tp_t *t = priv;
    t->asked++;
    return vpn == t->vpn ? t->hint : (uvm_thrash_hint_t){UVM_THRASH_NONE, 0};
}

static const uvm_thrashing_ops_t tp_ops = {
    "test_thrash", tp_init,
    free,          UVM_EVENT_MASK(UVM_EVENT_BLOCK_FAULT) | UVM_EVENT_MASK(UVM_EVENT_EVICT),
    tp_observe,    tp_hint};

static fx_t *tp_start(uint32_t frames, const char *replay) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = frames;
    set_policy(&x->cfg, UVM_POLICY_REPLAY, replay);
    fx_start(x);
    assert_int_equal(uvm_thrashing_set_ops(x->h, &tp_ops), 0);
    return x;
}

/* THROTTLE: the fault is observed but not serviced (no frame, no copy, no REPLAY_PAGE under
 * block); a REPLAY_ALL is owed so the SM asks again; once the policy says NONE it is serviced. */
static void test_thrashing_throttle(void **state) {
    (void)state;
    fx_t *x = tp_start(4, "block");
    tp_t *t = tp_of(x);
    const uint64_t p = VPN0 + 7, q = VPN0 + 8;
    t->vpn = p;
    t->hint = (uvm_thrash_hint_t){UVM_THRASH_THROTTLE, 1000000};
    fk_post(&x->fk, p, GMMU_AT_READ);
    fk_post(&x->fk, q, GMMU_AT_READ);
    const size_t replay_all0 = count_cmds(&x->fk, GMMU_CMD_REPLAY_ALL);
    uvm_handler_service(x->h);
    assert_int_equal(t->faults, 2);
    assert_int_equal(t->asked, 2);
    assert_int_equal(st(x)->pages_h2d, 1); /* q only */
    assert_int_equal(walk(&x->fk, p, NULL), 0);
    assert_true(walk(&x->fk, q, NULL) & PTE_V_BIT);
    assert_int_equal(count_cmds(&x->fk, GMMU_CMD_REPLAY_PAGE), 1); /* q's */
    assert_int_equal(count_cmds(&x->fk, GMMU_CMD_REPLAY_ALL), replay_all0 + 1);
    /* the nap is over: the replayed fault is serviced */
    t->hint.type = UVM_THRASH_NONE;
    fk_post(&x->fk, p, GMMU_AT_READ);
    uvm_handler_service(x->h);
    assert_int_equal(st(x)->pages_h2d, 2);
    assert_true(walk(&x->fk, p, NULL) & PTE_V_BIT);
    fx_done(x);
}

/* PIN: the page is migrated as usual and, while pinned, is not a victim (lru would take it, the
 * oldest); once the pin time has passed it is the victim again. */
static void test_thrashing_pin(void **state) {
    (void)state;
    fx_t *x = tp_start(2, "batch_flush");
    tp_t *t = tp_of(x);
    const uint64_t p = VPN0 + 1, q = VPN0 + 2, r = VPN0 + 3, s = VPN0 + 4;
    evlog_t log = {0}; /* the pins as events (the scoreboard's pin rule, §6p.2) */
    assert_int_equal(
        uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_PIN) | UVM_EVENT_MASK(UVM_EVENT_UNPIN),
                              record, &log),
        0);
    t->vpn = p;
    t->hint = (uvm_thrash_hint_t){UVM_THRASH_PIN, x->fk.now + 1000000000u};
    fx_service_write(x, p);
    assert_int_equal(log.n, 1);
    assert_int_equal(log.ev[0].kind, UVM_EVENT_PIN);
    assert_int_equal(log.ev[0].pin.vpn, p);
    assert_int_equal(log.ev[0].pin.until_ns, t->hint.until_ns);
    assert_int_equal(log.ev[0].pin.to_host, 0);
    assert_true(walk(&x->fk, p, NULL) & PTE_V_BIT);
    assert_true(uvm_thrash_pinned(x->h, p));
    fx_service_write(x, q);
    t->vpn = r;             /* pinned too */
    fx_service_write(x, r); /* lru's victim would be p: pinned, q goes */
    assert_true(walk(&x->fk, p, NULL) & PTE_V_BIT);
    assert_int_equal(walk(&x->fk, q, NULL), 0);
    assert_int_equal(t->evictions, 1);
    /* every frame pinned: a prefetched page (unpin_for_demand false) finds no victim and drops
     * no pin; a faulted page drops the pin that ends first (p and r end together: the lower VPN,
     * p), p is evicted and s mapped (forward progress, docs/handler.md §6i) */
    assert_int_equal(uvm_migrate_backing(x->h, s, 1u), UVM_NONE);
    assert_int_equal(x->h->thrash_pin.count, 2);
    t->vpn = s;
    t->hint.type = UVM_THRASH_NONE;
    fx_service_write(x, s);
    assert_true(walk(&x->fk, s, NULL) & PTE_V_BIT);
    assert_int_equal(walk(&x->fk, p, NULL), 0);
    assert_true(walk(&x->fk, r, NULL) & PTE_V_BIT);
    assert_int_equal(st(x)->thrash_pins_dropped, 1);
    assert_false(uvm_thrash_pinned(x->h, p));
    assert_true(uvm_thrash_pinned(x->h, r));
    /* time passes: r's pin lapses and is dropped at the next batch start */
    x->fk.now += 2000000000u;
    fx_service_write(x, q);
    assert_true(walk(&x->fk, q, NULL) & PTE_V_BIT);
    assert_int_equal(x->h->thrash_pin.count, 0);
    assert_int_equal(st(x)->thrash_pins_dropped, 1);
    static const uvm_event_kind_t pins[] = {UVM_EVENT_PIN, UVM_EVENT_PIN, UVM_EVENT_UNPIN,
                                            UVM_EVENT_UNPIN};
    expect_kinds(&log, pins, sizeof pins / sizeof pins[0]);
    assert_int_equal(log.ev[1].pin.vpn, r);
    assert_int_equal(log.ev[2].pin.vpn, p); /* dropped early */
    assert_int_equal(log.ev[3].pin.vpn, r); /* expired */
    fx_done(x);
}

/* thrashing_pin_to = host (docs/handler.md §6l.4): a PIN hint maps the faulting page remotely
 * on its host copy (no frame, no copy; the driver's pin to host memory), a page the hint does not
 * pin migrates; the page stays remote after the pin lapses (it takes no fault). */
static void test_thrashing_pin_host(void **state) {
    (void)state;
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = 2;
    x->cfg.thrashing_pin_host = 1;
    set_policy(&x->cfg, UVM_POLICY_REPLAY, "batch_flush");
    fx_start(x);
    assert_int_equal(uvm_thrashing_set_ops(x->h, &tp_ops), 0);
    tp_t *t = tp_of(x);
    const uint64_t p = VPN0 + 1, q = VPN0 + 2;
    t->vpn = p;
    t->hint = (uvm_thrash_hint_t){UVM_THRASH_PIN, x->fk.now + 1000000000u};
    fx_service_write(x, p);
    const uint64_t e = walk(&x->fk, p, NULL);
    assert_true((e & PTE_V_BIT) && (e & (UINT64_C(1) << GMMU_PTE_APER)));
    assert_int_equal(e & PPN_MASK, p << 12);
    assert_int_equal(x->fk.ndma, 0);
    assert_int_equal(st(x)->remote_pins, 1);
    assert_int_equal(st(x)->remote_maps, 1);
    assert_int_equal(st(x)->data_pages_resident, 0);
    fx_service_write(x, q); /* not pinned: migrated */
    assert_false(walk(&x->fk, q, NULL) & (UINT64_C(1) << GMMU_PTE_APER));
    assert_int_equal(st(x)->pages_h2d, 1);
    x->fk.now += 2000000000u; /* the pin lapses: p stays mapped remotely */
    assert_true(walk(&x->fk, p, NULL) & (UINT64_C(1) << GMMU_PTE_APER));
    fx_done(x);
}

/* The registered "none" policy observes nothing and never acts. */
static void test_thrashing_none(void **state) {
    (void)state;
    fx_t *x = fx_new();
    fx_start(x);
    assert_ptr_equal(x->h->thrashing, &uvm_thrashing_none_ops);
    assert_int_equal(x->h->thrashing->events, 0);
    fx_service_write(x, VPN0 + 1);
    assert_int_equal(x->h->throttled, 0);
    assert_int_equal(x->h->thrash_pin.count, 0);
    assert_int_equal(uvm_thrashing_set_ops(x->h, NULL), -1);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_sequence),
        cmocka_unit_test(test_event_order_between_observers),
        cmocka_unit_test(test_fifo_differs_from_lru),
        cmocka_unit_test(test_fifo_requeue),
        cmocka_unit_test(test_thrashing_throttle),
        cmocka_unit_test(test_thrashing_pin),
        cmocka_unit_test(test_thrashing_pin_host),
        cmocka_unit_test(test_thrashing_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
