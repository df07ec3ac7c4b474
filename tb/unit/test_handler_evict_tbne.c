/*
 * test_handler_evict_tbne.c - the "tbne" eviction policy (UVMSmart's tree-based neighbourhood
 * eviction, docs/handler.md §6y) against the fake device, on hand-made histories: the candidate
 * is the least recently accessed page (the platform's oracle) whose 64 KB basic block holds no
 * pinned page; its basic block goes, and every subtree left less than half resident loses its
 * wholly resident basic blocks too; the tree is the 2 MB block or an allocation's remainder
 * rounded up to a power of two of basic blocks. lru_oracle on the same history evicts one page.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

typedef struct {
    uint64_t vpn[64];
    size_t n;
} evicts_t;

static void record(void *ctx, const uvm_event_t *ev) {
    evicts_t *l = ctx;
    assert_true(l->n < 64);
    l->vpn[l->n++] = ev->evict.vpn;
}

/* frames GPU frames, one writable allocation of bytes at ALLOC_BASE (2 MB aligned) */
static fx_t *start(const char *policy, uint32_t frames, uint64_t bytes, evicts_t *log) {
    fx_t *x = fx_new();
    x->cfg.gpu_data_pages = frames;
    set_policy(&x->cfg, UVM_POLICY_EVICT, policy);
    x->h = uvm_handler_new(&x->cfg, &x->dev, x->err, sizeof x->err);
    assert_non_null(x->h);
    assert_int_equal(uvm_handler_add_alloc(x->h, "s", ALLOC_BASE, bytes, 0, x->err, sizeof x->err),
                     0);
    assert_int_equal(uvm_handler_init_device(x->h, x->err, sizeof x->err), 0);
    x->fk.nev = 0;
    if (log)
        assert_int_equal(uvm_handler_subscribe(x->h, UVM_EVENT_MASK(UVM_EVENT_EVICT), record, log),
                         0);
    return x;
}

static void fill(fx_t *x, uint64_t first, uint64_t n) {
    for (uint64_t p = first; p < first + n; p++) {
        x->fk.now += 10;
        fx_service_write(x, VPN0 + p);
    }
}

static void touch(fx_t *x, uint64_t first, uint64_t n) {
    for (uint64_t p = first; p < first + n; p++) {
        x->fk.now += 10;
        const uvm_va_block_t *b = uvm_va_block_get(x->h, VPN0 + p, false);
        assert_non_null(b);
        const uint32_t f = b->frame[uvm_block_page(VPN0 + p)];
        uvm_handler_note_access(x->h, DATA_BASE + (uint64_t)f * PAGE, x->fk.now);
    }
}

static void expect_run(const evicts_t *l, size_t at, uint64_t first, uint64_t n) {
    for (uint64_t i = 0; i < n; i++)
        assert_int_equal(l->vpn[at + i], VPN0 + first + i);
}

/* 256 KB allocation (a tree of 4 basic blocks), 36 frames: blocks 0 and 1 whole, 4 pages of
 * block 2; block 0 accessed after the rest. The fault on page 36: the candidate is page 16 (the
 * oldest access; block 0 was touched), block 1 goes; node {2,3} holds 4 < 16 pages (block 2 is
 * not whole: stays); the root holds 20 < 32: block 0 (whole) goes too. lru_oracle: page 16. */
static void run_neighbourhood(const char *policy, evicts_t *l) {
    fx_t *x = start(policy, 36, 0x40000, l);
    fill(x, 0, 36);
    touch(x, 0, 16);
    fill(x, 36, 1);
    assert_int_equal(st(x)->evictions, l->n);
    fx_done(x);
}

static void test_tbne_neighbourhood(void **state) {
    (void)state;
    evicts_t a = {{0}, 0}, b = {{0}, 0};
    run_neighbourhood("tbne", &a);
    assert_int_equal(a.n, 32);
    expect_run(&a, 0, 0, 32); /* blocks 0 and 1, in VA order */
    run_neighbourhood("lru_oracle", &b);
    assert_int_equal(b.n, 1);
    assert_int_equal(b.vpn[0], VPN0 + 16);
}

/* 48 frames, blocks 0-2 whole; the fault on page 48 (block 3). In a 256 KB tree nothing is
 * below half after block 0 goes (16, 16, root 32): 64 KB alone. In a 2 MB allocation's tree
 * the node of blocks 0-7 holds 32 < 64 pages: blocks 1 and 2 go too. */
static void test_tbne_tree_size(void **state) {
    (void)state;
    evicts_t a = {{0}, 0}, b = {{0}, 0};
    fx_t *x = start("tbne", 48, 0x40000, &a);
    fill(x, 0, 49);
    assert_int_equal(a.n, 16);
    expect_run(&a, 0, 0, 16);
    fx_done(x);
    x = start("tbne", 48, 0x200000, &b);
    fill(x, 0, 49);
    assert_int_equal(b.n, 48);
    expect_run(&b, 0, 0, 48);
    fx_done(x);
}

/* The victim set directly: a pinned page makes its basic block no candidate and keeps a whole
 * block out of a neighbourhood; pick(gran) is lru_oracle's scan; the oracle property. */
static void test_tbne_pins(void **state) {
    (void)state;
    uint32_t set[UVM_BLOCK_PAGES];
    fx_t *x = start("tbne", 48, 0x40000, NULL);
    fill(x, 0, 48);
    x->h->block_gen++; /* nothing pinned */
    assert_int_equal(uvm_evict_tbne_victims(x->h, set), 16);
    assert_int_equal(x->h->frames[set[0]].vpn, VPN0);
    uvm_va_block_t *b = uvm_va_block_get(x->h, VPN0, false);
    x->h->frames[b->frame[3]].pin_block = x->h->block_gen; /* block 0 pinned */
    assert_int_equal(uvm_evict_tbne_victims(x->h, set), 16);
    assert_int_equal(x->h->frames[set[0]].vpn, VPN0 + 16);
    assert_int_equal(x->h->frames[set[15]].vpn, VPN0 + 31);
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 1), b->frame[0]);
    assert_int_equal(x->h->evict->pick(x->h, x->h->evict_priv, 16), b->frame[16]);
    assert_int_equal(uvm_policy_props(UVM_POLICY_EVICT, "tbne"), UVM_POLICY_PROP_ACCESS_ORACLE);
    fx_done(x);
    /* the neighbourhood of test_tbne_neighbourhood with block 0 pinned: block 1 alone */
    x = start("tbne", 36, 0x40000, NULL);
    fill(x, 0, 36);
    touch(x, 0, 16);
    x->h->block_gen++;
    b = uvm_va_block_get(x->h, VPN0, false);
    x->h->frames[b->frame[5]].pin_block = x->h->block_gen;
    assert_int_equal(uvm_evict_tbne_victims(x->h, set), 16);
    assert_int_equal(x->h->frames[set[0]].vpn, VPN0 + 16);
    fx_done(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tbne_neighbourhood),
        cmocka_unit_test(test_tbne_tree_size),
        cmocka_unit_test(test_tbne_pins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
