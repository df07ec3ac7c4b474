/*
 * test_platform_score.c - cmocka tests of the handler scoreboard (cosim/plat_score.c): a clean
 * map / evict / invalidate / remap sequence passes; each broken handler behaviour (wrong
 * permission, page outside every allocation, a frame mapped twice, a frame reused before or
 * without its invalidate, a wrong content tag, an eviction out of lru order, a 2 MB page over a
 * mapped frame, a 2 MB page over no allocation or over two permissions) is reported naming its
 * check; a 2 MB page's bloat (pages outside every allocation) is not a violation; a read
 * duplicate (a read-only leaf of a read-mostly page) is legal and its in-place W upgrade is no
 * eviction (docs/handler.md §6o).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gmmu_consts.h"
#include "gpumem.h"
#include "plat_score.h"

#define PT_BASE 0x10000000ull
#define PT_PAGES 16u
#define DATA_BASE 0x100000000ull
#define FRAMES 1024u
#define RW_BASE 0x40000000ull  /* writable allocation, 4 MB (two 2 MB regions) */
#define RO_BASE 0x80000000ull  /* read-only allocation, 64 KB */
#define MIX_BASE 0xc0000000ull /* two allocations in one 2 MB region: 64 KB RO, then 64 KB RW */
#define V (1ull << GMMU_PTE_V)
#define W (1ull << GMMU_PTE_W)
#define L (1ull << GMMU_PTE_L)

typedef struct {
    gpumem_t gm;
    plat_score_t *s;
    unsigned nviol;
    char last[320];
    uint64_t tag_flip; /* vpn whose truth differs from version 0 (0: none) */
} fx_t;

static int fx_alloc_of(void *ctx, unsigned asid, uint64_t va, int *ro, int *platform) {
    (void)asid;
    (void)ctx;
    *platform = 0;
    if (va >= RW_BASE && va < RW_BASE + (4u << 20)) {
        *ro = 0;
        return 1;
    }
    if (va >= RO_BASE && va < RO_BASE + (64u << 10)) {
        *ro = 1;
        return 1;
    }
    if (va >= MIX_BASE && va < MIX_BASE + (128u << 10)) { /* 64 KB read-only, 64 KB writable */
        *ro = va < MIX_BASE + (64u << 10);
        return 1;
    }
    return 0;
}

static uint64_t tag_of(uint64_t vpn) {
    return 0x5a5a000000000000ull ^ vpn;
}

static uint64_t fx_truth(void *ctx, unsigned asid, uint64_t vpn) {
    (void)asid;
    const fx_t *f = ctx;
    return tag_of(vpn) ^ (vpn == f->tag_flip ? 1u : 0u);
}

static void fx_violation(void *ctx, const char *msg) {
    fx_t *f = ctx;
    f->nviol++;
    snprintf(f->last, sizeof f->last, "%s", msg);
}

static int setup(void **state) {
    static fx_t f;
    memset(&f, 0, sizeof f);
    assert_int_equal(gpumem_init(&f.gm, PT_BASE, PT_PAGES, DATA_BASE, FRAMES, 10, 0, 1), 0);
    const plat_score_env_t env = {&f, fx_alloc_of, fx_truth, fx_violation, NULL};
    char err[128];
    f.s = plat_score_new(&f.gm, &env, 1, 1, err, sizeof err);
    assert_non_null(f.s);
    *state = &f;
    return 0;
}

/* pages RW0 .. RW0 + 7 are advised read-mostly */
static int fx_read_mostly(void *ctx, unsigned asid, uint64_t va) {
    (void)ctx;
    (void)asid;
    return va >= RW_BASE && va < RW_BASE + 8u * 4096u;
}

static int setup_rm(void **state) {
    static fx_t f;
    memset(&f, 0, sizeof f);
    assert_int_equal(gpumem_init(&f.gm, PT_BASE, PT_PAGES, DATA_BASE, FRAMES, 10, 0, 1), 0);
    const plat_score_env_t env = {&f, fx_alloc_of, fx_truth, fx_violation, fx_read_mostly};
    char err[128];
    f.s = plat_score_new(&f.gm, &env, 1, 1, err, sizeof err);
    assert_non_null(f.s);
    *state = &f;
    return 0;
}

static int teardown(void **state) {
    fx_t *f = *state;
    plat_score_free(f->s);
    gpumem_free(&f->gm);
    return 0;
}

static void wr(fx_t *f, uint64_t pa, uint64_t v) {
    assert_int_equal(gpumem_write64(&f->gm, pa, v), 0);
    plat_score_pt_write(f->s, pa);
}

static uint64_t page(unsigned i) {
    return PT_BASE + (uint64_t)i * 4096u;
}

static unsigned idx(uint64_t vpn, unsigned level) {
    return (unsigned)(vpn >> (27u - 9u * level)) & 511u;
}

/* Root in page 0, programmed in PT_BASE; tables of the VPN's chain in pages 1..3 (one chain per
 * test: all VPNs used share levels 0-1, the RW and RO ranges have their own level-2 page). */
static void chain(fx_t *f, uint64_t vpn, unsigned l2page, unsigned l3page) {
    wr(f, page(0) + 8u * idx(vpn, 0), page(1) | V);
    wr(f, page(1) + 8u * idx(vpn, 1), page(l2page) | V);
    wr(f, page(l2page) + 8u * idx(vpn, 2), page(l3page) | V);
}

static void program_root(fx_t *f) {
    plat_score_csr_write(f->s, GMMU_CSR_PT_BASE_LO, (uint32_t)PT_BASE);
    plat_score_csr_write(f->s, GMMU_CSR_PT_BASE_HI, (uint32_t)(PT_BASE >> 32));
}

/* Maps vpn -> frame with w (leaf in l3page), the frame holding the page's content. */
static void map(fx_t *f, unsigned l3page, uint64_t vpn, unsigned frame, uint64_t w) {
    const uint64_t ppn = DATA_BASE / 4096u + frame;
    plat_score_h2d(f->s, ppn, 1);
    gpumem_set_tag(&f->gm, ppn, tag_of(vpn));
    wr(f, page(l3page) + 8u * idx(vpn, 3), ppn << 12 | w | V);
}

static void inval(fx_t *f, uint64_t vpn, int complete) {
    plat_score_csr_write(f->s, GMMU_CSR_CMD_ARG_LO, (uint32_t)vpn);
    plat_score_csr_write(f->s, GMMU_CSR_CMD_ARG_HI, (uint32_t)(vpn >> 32));
    plat_score_csr_write(f->s, GMMU_CSR_CMD, GMMU_CMD_INVAL_PAGE);
    plat_score_csr_read(f->s, GMMU_CSR_CMD_STATUS, 1u); /* busy */
    if (complete)
        plat_score_csr_read(f->s, GMMU_CSR_CMD_STATUS, 0u);
}

static const uint64_t RW0 = RW_BASE / 4096u, RO0 = RO_BASE / 4096u;

/* Initialization, two services mapping three pages, an eviction with its invalidate, the frame
 * reused for another page: no violation. */
static void test_clean(void **state) {
    fx_t *f = *state;
    program_root(f);
    plat_score_service_begin(f->s);
    chain(f, RW0, 2, 3);
    map(f, 3, RW0, 0, W);
    map(f, 3, RW0 + 1, 1, W);
    plat_score_service_end(f->s);
    plat_score_service_begin(f->s);
    chain(f, RO0, 4, 5);
    map(f, 5, RO0, 2, 0);
    plat_score_service_end(f->s);
    plat_score_service_begin(f->s);
    wr(f, page(3) + 8u * idx(RW0, 3), 0); /* evict the oldest */
    inval(f, RW0, 1);
    plat_score_d2h(f->s, DATA_BASE / 4096u, 1, RW0); /* its write-back */
    map(f, 3, RW0 + 2, 0, W);
    plat_score_service_end(f->s);
    plat_score_finish(f->s);
    assert_int_equal(f->nviol, 0);
    const plat_score_stats_t st = plat_score_stats(f->s);
    assert_int_equal(st.mappings, 3);
    assert_true(st.tags_checked >= 4);
    assert_int_equal(st.evictions_ordered, 1);
}

static void test_perm(void **state) {
    fx_t *f = *state;
    program_root(f);
    plat_score_service_begin(f->s);
    chain(f, RO0, 2, 3);
    map(f, 3, RO0, 0, W); /* W on a read-only allocation */
    plat_score_service_end(f->s);
    assert_int_equal(f->nviol, 1);
    assert_non_null(strstr(f->last, "perm:"));
    assert_non_null(strstr(f->last, "VA 0x80000000"));
    plat_score_service_begin(f->s);
    chain(f, RW0, 4, 5);
    map(f, 5, RW0, 1, 0); /* no W on a writable allocation */
    plat_score_service_end(f->s);
    assert_int_equal(f->nviol, 2);
    assert_non_null(strstr(f->last, "W = 0 on a writable allocation"));
    plat_score_service_begin(f->s);
    gpumem_set_tag(&f->gm, DATA_BASE / 4096u + 7u, tag_of(RW0 + 511));
    wr(f, page(5) + 8u * idx(RW0 + 511, 3), (DATA_BASE / 4096u + 7u) << 12 | W | V);
    plat_score_service_end(f->s); /* inside: fine */
    assert_int_equal(f->nviol, 2);
    chain(f, 0x123456, 6, 7); /* outside every allocation */
    wr(f, page(7) + 8u * idx(0x123456, 3), (DATA_BASE / 4096u + 9u) << 12 | W | V);
    plat_score_finish(f->s);
    assert_int_equal(f->nviol, 3);
    assert_non_null(strstr(f->last, "not inside an allocation"));
}

static void test_frame_twice(void **state) {
    fx_t *f = *state;
    program_root(f);
    plat_score_service_begin(f->s);
    chain(f, RW0, 2, 3);
    map(f, 3, RW0, 5, W);
    wr(f, page(3) + 8u * idx(RW0 + 1, 3), (DATA_BASE / 4096u + 5u) << 12 | W | V);
    plat_score_service_end(f->s);
    assert_int_equal(f->nviol, 1);
    assert_non_null(strstr(f->last, "frame: frame 0x100005 mapped twice"));
    /* a leaf outside the GPU data frames */
    wr(f, page(3) + 8u * idx(RW0 + 2, 3), (DATA_BASE / 4096u + FRAMES) << 12 | W | V);
    plat_score_finish(f->s);
    assert_int_equal(f->nviol, 2);
    assert_non_null(strstr(f->last, "not a GPU data frame"));
}

static void test_no_inval(void **state) {
    fx_t *f = *state;
    program_root(f);
    plat_score_service_begin(f->s);
    chain(f, RW0, 2, 3);
    map(f, 3, RW0, 0, W);
    map(f, 3, RW0 + 1, 1, W);
    plat_score_service_end(f->s);
    plat_score_service_begin(f->s);
    wr(f, page(3) + 8u * idx(RW0, 3), 0);
    plat_score_d2h(f->s, DATA_BASE / 4096u, 1,
                   RW0);      /* written back (before the scoreboard syncs) */
    map(f, 3, RW0 + 2, 0, W); /* H2D and remap without an invalidate */
    plat_score_service_end(f->s);
    assert_int_equal(f->nviol, 2);
    assert_non_null(strstr(f->last, "inval: frame 0x100000 mapped to ASID 0 VA 0x40002000"));
    /* invalidate issued, but its completion never seen (BUSY still set) */
    plat_score_service_begin(f->s);
    wr(f, page(3) + 8u * idx(RW0 + 1, 3), 0);
    inval(f, RW0 + 1, 0);
    plat_score_d2h(f->s, DATA_BASE / 4096u + 1u, 1, RW0 + 1);
    plat_score_h2d(f->s, DATA_BASE / 4096u + 1u, 1);
    assert_int_equal(f->nviol, 3);
    assert_non_null(strstr(f->last, "H2D DMA into frame 0x100001 before the invalidate"));
    /* an invalidate of another page does not count; a DMA into a mapped frame is caught */
    plat_score_h2d(f->s, DATA_BASE / 4096u + 0u, 1);
    assert_int_equal(f->nviol, 4);
    assert_non_null(strstr(f->last, "while it maps ASID 0 VA 0x40002000"));
    plat_score_service_end(f->s);
}

static void test_tag(void **state) {
    fx_t *f = *state;
    program_root(f);
    f->tag_flip = RW0 + 1; /* the page was written since: its frame holds an old version */
    plat_score_service_begin(f->s);
    chain(f, RW0, 2, 3);
    map(f, 3, RW0, 0, W);
    map(f, 3, RW0 + 1, 1, W);
    plat_score_service_end(f->s);
    assert_int_equal(f->nviol, 1);
    assert_non_null(strstr(f->last, "tag: ASID 0 VA 0x40001000 -> frame 0x100001"));
}

static void test_lru_order(void **state) {
    fx_t *f = *state;
    program_root(f);
    plat_score_service_begin(f->s);
    chain(f, RW0, 2, 3);
    map(f, 3, RW0, 0, W);
    plat_score_service_end(f->s);
    plat_score_service_begin(f->s);
    map(f, 3, RW0 + 1, 1, W);
    plat_score_service_end(f->s);
    plat_score_service_begin(f->s);
    map(f, 3, RW0 + 2, 2, W);
    plat_score_h2d(f->s, DATA_BASE / 4096u + 3u, 1); /* (the scoreboard looks at the tables) */
    /* a page of this service evicted while service 1's page is resident */
    wr(f, page(3) + 8u * idx(RW0 + 2, 3), 0);
    inval(f, RW0 + 2, 1);
    assert_int_equal(f->nviol, 1);
    assert_non_null(strstr(f->last, "order: frame 0x100002 evicted (mapped in service 3)"));
    /* service 2's page evicted before service 1's */
    wr(f, page(3) + 8u * idx(RW0 + 1, 3), 0);
    inval(f, RW0 + 1, 1);
    assert_int_equal(f->nviol, 2);
    assert_non_null(strstr(f->last, "older service 1"));
    /* the oldest: fine */
    wr(f, page(3) + 8u * idx(RW0, 3), 0);
    inval(f, RW0, 1);
    plat_score_service_end(f->s);
    assert_int_equal(f->nviol, 2);
}

/* Read duplication (§6o): a read-only leaf of a read-mostly page of a writable allocation is
 * legal (elsewhere it is not); its W upgrade in place (same frame) is no unmap: no lru order
 * violation although an older page is resident, the frame stays mapped (a DMA into it is
 * caught). */
static void test_read_dup(void **state) {
    fx_t *f = *state;
    program_root(f);
    plat_score_service_begin(f->s);
    chain(f, RW0, 2, 3);
    map(f, 3, RW0 + 9, 1, W);
    plat_score_service_end(f->s);
    plat_score_service_begin(f->s);
    map(f, 3, RW0, 0, 0); /* a read duplicate */
    plat_score_service_end(f->s);
    assert_int_equal(f->nviol, 0);
    plat_score_service_begin(f->s);
    const uint64_t leaf = page(3) + 8u * idx(RW0, 3);
    wr(f, leaf, (DATA_BASE / 4096u) << 12 | W | V); /* collapsed: W in place */
    inval(f, RW0, 1);
    plat_score_service_end(f->s);
    assert_int_equal(f->nviol, 0);
    plat_score_h2d(f->s, DATA_BASE / 4096u, 1);
    assert_int_equal(f->nviol, 1);
    assert_non_null(strstr(f->last, "while it maps ASID 0 VA 0x40000000"));
    plat_score_service_begin(f->s);
    map(f, 3, RW0 + 8, 2, 0); /* not read-mostly: W = 0 is wrong */
    plat_score_service_end(f->s);
    assert_int_equal(f->nviol, 2);
    assert_non_null(strstr(f->last, "W = 0 on a writable allocation"));
}

/* A 2 MB page (level-2 entry with L, its leaf at entry 0 of the next table) maps 512 frames; a
 * 4 KB page on one of them is a frame mapped twice; unmapping the large page and invalidating a
 * page inside the region releases all of them. */
static void test_large(void **state) {
    fx_t *f = *state;
    program_root(f);
    const uint64_t region = RW0 + 512u; /* the second 2 MB region of the RW allocation */
    plat_score_service_begin(f->s);
    wr(f, page(0) + 8u * idx(region, 0), page(1) | V);
    wr(f, page(1) + 8u * idx(region, 1), page(2) | V);
    wr(f, page(2) + 8u * idx(region, 2), page(3) | L | V);
    for (unsigned i = 0; i < 512u; i++)
        gpumem_set_tag(&f->gm, DATA_BASE / 4096u + 512u + i, tag_of(region + i));
    wr(f, page(3), (DATA_BASE / 4096u + 512u) << 12 | W | V);
    wr(f, page(3) + 8u, 0x1234000u | V); /* not read in a large-page table */
    plat_score_service_end(f->s);
    assert_int_equal(f->nviol, 0);
    assert_int_equal(plat_score_stats(f->s).tags_checked, 512);
    wr(f, page(2) + 8u * idx(RW0, 2), page(5) | V); /* the first region, 4 KB pages */
    wr(f, page(5) + 8u * idx(RW0, 3), (DATA_BASE / 4096u + 700u) << 12 | W | V);
    plat_score_finish(f->s);
    assert_int_equal(f->nviol, 1);
    assert_non_null(strstr(f->last, "frame 0x1002bc mapped twice"));
    wr(f, page(2) + 8u * idx(region, 2), 0);
    inval(f, region + 77u, 1);
    plat_score_d2h(f->s, DATA_BASE / 4096u + 512u, 512u, region);
    plat_score_h2d(f->s, DATA_BASE / 4096u + 600u, 1);
    assert_int_equal(f->nviol, 1);
}

/* page_size 2m: a 2 MB page may cover VAs outside every allocation (Mosaic's bloat) when the
 * pages of its region that are inside allocations have one permission; only those pages'
 * contents are checked. A 2 MB page over no allocation, or over allocations of two
 * permissions, is a perm violation. */
static void test_large_bloat(void **state) {
    fx_t *f = *state;
    program_root(f);
    const uint64_t ppn = DATA_BASE / 4096u + 512u;
    plat_score_service_begin(f->s);
    wr(f, page(0) + 8u * idx(RO0, 0), page(1) | V);
    wr(f, page(1) + 8u * idx(RO0, 1), page(2) | V);
    wr(f, page(2) + 8u * idx(RO0, 2), page(3) | L | V);
    for (unsigned i = 0; i < 16u; i++) /* the 64 KB allocation; frames 16..511 are bloat */
        gpumem_set_tag(&f->gm, ppn + i, tag_of(RO0 + i));
    wr(f, page(3), ppn << 12 | V); /* read-only, as its allocation */
    plat_score_service_end(f->s);
    assert_int_equal(f->nviol, 0);
    assert_int_equal(plat_score_stats(f->s).tags_checked, 16);
    /* a 2 MB page of the region after it: no allocation at all */
    const uint64_t none = RO0 + 512u;
    wr(f, page(2) + 8u * idx(none, 2), page(4) | L | V);
    wr(f, page(4), (ppn + 512u) << 12 | V);
    plat_score_finish(f->s);
    assert_int_equal(f->nviol, 1);
    assert_non_null(strstr(f->last, "perm: ASID 0 VA 0x80200000 (2 MB page)"));
    assert_non_null(strstr(f->last, "no page of it inside an allocation"));
    /* a 2 MB page over a read-only and a writable allocation */
    const uint64_t mix = MIX_BASE / 4096u;
    wr(f, page(0) + 8u * idx(mix, 0), page(5) | V);
    wr(f, page(5) + 8u * idx(mix, 1), page(6) | V);
    wr(f, page(6) + 8u * idx(mix, 2), page(7) | L | V);
    wr(f, page(7), (ppn - 512u) << 12 | W | V);
    plat_score_finish(f->s);
    assert_int_equal(f->nviol, 2);
    assert_non_null(strstr(f->last, "VA 0xc0000000 (2 MB page)"));
    assert_non_null(strstr(f->last, "different permission"));
}

/* page_size cocoa (bloat mode): a 4 KB leaf outside every allocation is legal in a 2 MB region
 * that intersects an allocation of its permission (the region's bloat page, written before it
 * coalesces) and holds no content; the page's first copy into that frame is legal once. In a
 * region of no allocation it is a perm violation. */
static void test_bloat_base_pages(void **state) {
    fx_t *f = *state;
    program_root(f);
    plat_score_set_bloat(f->s, 1);
    const uint64_t ppn = DATA_BASE / 4096u + 512u, bloat = RO0 + 100u; /* outside the 64 KB */
    plat_score_service_begin(f->s);
    chain(f, RO0, 2, 3);
    map(f, 3, RO0, 512u, 0);
    wr(f, page(3) + 8u * idx(bloat, 3), (ppn + 100u) << 12 | V); /* no content, no tag */
    plat_score_service_end(f->s);
    assert_int_equal(f->nviol, 0);
    plat_score_h2d_src(f->s, ppn + 100u, 1, bloat); /* its first content: legal once */
    assert_int_equal(f->nviol, 0);
    plat_score_h2d_src(f->s, ppn + 100u, 1, bloat);
    assert_int_equal(f->nviol, 1);
    assert_non_null(strstr(f->last, "H2D DMA of host page 0x80064000 into frame 0x100264"));
    plat_score_h2d_src(f->s, ppn, 1, bloat); /* a mapped frame of another page */
    assert_int_equal(f->nviol, 2);
    /* a 4 KB leaf in a region of no allocation */
    const uint64_t none = RO0 + 512u;
    wr(f, page(2) + 8u * idx(none, 2), page(4) | V);
    wr(f, page(4) + 8u * idx(none, 3), (ppn + 600u) << 12 | V);
    plat_score_finish(f->s);
    assert_int_equal(f->nviol, 3);
    assert_non_null(strstr(f->last, "nor in a 2 MB region of one permission"));
    /* (without bloat mode such a leaf is refused: test_perm) */
    /* a base leaf with D = 1 is never cached: clearing it owes no invalidate */
    const uint64_t d = 1ull << GMMU_PTE_D, other = RO0 + 200u;
    wr(f, page(3) + 8u * idx(other, 3), (ppn + 200u) << 12 | d | V);
    plat_score_finish(f->s);
    wr(f, page(3) + 8u * idx(other, 3), 0);
    plat_score_h2d(f->s, ppn + 200u, 1);
    assert_int_equal(f->nviol, 3);
}

/* Write-back precedes reuse (issue 20): a writable page evicted (unmapped, invalidated) whose
 * frame gets an H2D before a D2H of the page was submitted is a "wb" violation; a D2H submitted
 * before or after the scoreboard saw the unmap clears it; a read-only page owes nothing. */
static void test_writeback(void **state) {
    fx_t *f = *state;
    const uint64_t p0 = DATA_BASE / 4096u;
    program_root(f);
    plat_score_service_begin(f->s);
    chain(f, RW0, 2, 3);
    map(f, 3, RW0, 0, W);
    map(f, 3, RW0 + 1, 1, W);
    map(f, 3, RW0 + 2, 2, W);
    chain(f, RO0, 4, 5);
    map(f, 5, RO0, 3, 0);
    plat_score_service_end(f->s);
    plat_score_service_begin(f->s);
    wr(f, page(3) + 8u * idx(RW0, 3), 0);
    inval(f, RW0, 1);
    plat_score_h2d(f->s, p0, 1); /* no write-back of RW0 */
    assert_int_equal(f->nviol, 1);
    assert_non_null(strstr(f->last, "wb: H2D DMA into frame 0x100000 before the write-back"));
    assert_non_null(strstr(f->last, "VA 0x40000000"));
    wr(f, page(3) + 8u * idx(RW0 + 1, 3), 0);
    inval(f, RW0 + 1, 1);                       /* the unmap is seen here */
    plat_score_d2h(f->s, p0 + 1u, 1, RW0 + 1u); /* then written back */
    plat_score_h2d(f->s, p0 + 1u, 1);
    plat_score_d2h(f->s, p0 + 2u, 1, RW0 + 2u); /* written back before the unmap is seen */
    wr(f, page(3) + 8u * idx(RW0 + 2, 3), 0);
    inval(f, RW0 + 2, 1);
    plat_score_h2d(f->s, p0 + 2u, 1);
    wr(f, page(5) + 8u * idx(RO0, 3), 0); /* read-only: nothing to write back */
    inval(f, RO0, 1);
    plat_score_h2d(f->s, p0 + 3u, 1);
    plat_score_d2h(f->s, p0 + 2u, 1, RW0 + 5u); /* a copy of another page excuses nothing */
    assert_int_equal(f->nviol, 1);
    plat_score_service_end(f->s);
}

/* A pinned page is never evicted (issue 20): hand-made PIN / UNPIN / EVICT sequences as the
 * platform forwards them (keys ASID << 40 | VPN, the platform's time). An eviction of a page
 * pinned until a later time is a "pin" violation; at or after the pin's end, after its UNPIN, or
 * of another page it is not; a 2 MB eviction covering a pinned page is. */
static void test_pin(void **state) {
    fx_t *f = *state;
    const uint64_t k = (uint64_t)1 << 40 | RW0, p0 = 40; /* the handler's frame index */
    plat_score_pin(f->s, k, 5000);
    plat_score_evict(f->s, k + 1u, 1, p0 + 1u, 100); /* another page */
    plat_score_evict(f->s, k, 1, p0, 5000);          /* the pin has ended */
    plat_score_evict(f->s, k, 1, p0, 9000);
    assert_int_equal(f->nviol, 0);
    plat_score_evict(f->s, k, 1, p0, 4999);
    assert_int_equal(f->nviol, 1);
    assert_non_null(strstr(f->last, "pin: page ASID 1 VA 0x40000000 (handler frame 40) evicted "
                                    "at 4999 ns while pinned by a thrashing PIN until 5000 ns"));
    plat_score_pin(f->s, k + 7u, 8000); /* inside a 2 MB page evicted whole */
    plat_score_evict(f->s, k - 3u, 512, p0, 7000);
    assert_int_equal(f->nviol, 2);
    assert_non_null(strstr(f->last, "VA 0x40007000 (handler frame 50)"));
    plat_score_unpin(f->s, k);
    plat_score_unpin(f->s, k + 7u);
    plat_score_evict(f->s, k - 3u, 512, p0, 100); /* no pin left */
    plat_score_pin(f->s, k, 5000);                /* a pin's end moved later */
    plat_score_pin(f->s, k, 20000);
    plat_score_evict(f->s, k, 1, p0, 6000);
    assert_int_equal(f->nviol, 3);
}

/* The lru order check with thrashing pins (plat_score_pin.c): a pinned page is skipped (lru
 * skips it), the check goes on for the others, and a pin that ended before the service holds
 * nothing. Services 1-3 map RW0, RW0 + 1, RW0 + 2; RW0 is pinned until 5000 ns. */
static void test_lru_order_pins(void **state) {
    fx_t *f = *state;
    program_root(f);
    for (unsigned i = 0; i < 3; i++) {
        plat_score_service_begin(f->s);
        if (i == 0)
            chain(f, RW0, 2, 3);
        map(f, 3, RW0 + i, i, W);
        plat_score_service_end(f->s);
    }
    plat_score_pin(f->s, RW0, 5000);
    plat_score_service_begin(f->s);
    plat_score_pin_time(f->s, 1000);
    /* service 3's page while service 2's (not pinned) is resident: out of order */
    wr(f, page(3) + 8u * idx(RW0 + 2, 3), 0);
    inval(f, RW0 + 2, 1);
    assert_int_equal(f->nviol, 1);
    assert_non_null(strstr(f->last, "mapped in service 3) while pages mapped in the older "
                                    "service 2"));
    /* service 2's page while only the pinned service-1 page is older: in order */
    wr(f, page(3) + 8u * idx(RW0 + 1, 3), 0);
    inval(f, RW0 + 1, 1);
    assert_int_equal(f->nviol, 1);
    plat_score_d2h(f->s, DATA_BASE / 4096u + 1u, 1, RW0 + 1); /* its write-back */
    map(f, 3, RW0 + 3, 1, W);                                 /* service 4 */
    plat_score_service_end(f->s);
    plat_score_service_begin(f->s);
    plat_score_pin_time(f->s, 5000); /* the pin has ended: RW0 is the oldest again */
    wr(f, page(3) + 8u * idx(RW0 + 3, 3), 0);
    inval(f, RW0 + 3, 1);
    plat_score_service_end(f->s);
    assert_int_equal(f->nviol, 2);
    assert_non_null(strstr(f->last, "older service 1"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_clean, setup, teardown),
        cmocka_unit_test_setup_teardown(test_perm, setup, teardown),
        cmocka_unit_test_setup_teardown(test_frame_twice, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_inval, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tag, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lru_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_large, setup, teardown),
        cmocka_unit_test_setup_teardown(test_large_bloat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bloat_base_pages, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_dup, setup_rm, teardown),
        cmocka_unit_test_setup_teardown(test_writeback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pin, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lru_order_pins, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
