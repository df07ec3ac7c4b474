/*
 * plat_score.h - the handler scoreboard (module plat_score_, docs/cosim.md "Handler scoreboard"):
 * an independent checker of what the fault handler does to the device, built only from what the
 * platform observes - the page-table memory it serves, the allocations and content tags it owns,
 * the handler's CSR accesses and its DMA transfers - never from sw-handler's code or state
 * (one exception, the pin rule: the thrashing pins exist only in the handler; it reads the
 * handler's PIN / UNPIN / EVICT events, never its state).
 *
 * It keeps a shadow of every page-table page reachable from a root (PT_BASE of each ASID),
 * updated incrementally (only the page-table pages written since the last look are compared with
 * their shadow), and from it the set of mappings (ASID, VPN) -> frame. Checks:
 *   perm    every valid leaf maps a page of an allocation, W set exactly for a writable one
 *   frame   a leaf's frame is a GPU data frame, and no frame is mapped by two pages
 *   inval   a frame that lost its mapping gets new content (H2D DMA) or a new page only after an
 *           INVAL_PAGE / INVAL_ALL covering the old page was issued and seen complete (a
 *           CMD_STATUS read with BUSY clear)
 *   tag     the content tag of a newly mapped frame is the page's (checked after each service)
 *   order   evict_policy lru: a page evicted while pages of an older service are still
 *           resident is a violation (the policy evicts in migration order, pages of the current
 *           service may be pinned; so may pages of a thrashing pin, skipped: plat_score_pin.c)
 *   wb      a writable page's frame reused before its write-back (plat_score_wb.c)
 *   pin     a page evicted for capacity while the handler's thrashing pin holds (plat_score_pin.c)
 * A violation is reported through env.violation (one line naming the check, VA and frame).
 */
#ifndef COSIM_PLAT_SCORE_H
#define COSIM_PLAT_SCORE_H

#include <stddef.h>
#include <stdint.h>

#include "gpumem.h"

typedef struct {
    void *ctx;
    /* The allocation of address space asid holding va: 1 (with *ro and *platform: mapped by the
     * platform itself), or 0 if va is in no allocation. */
    int (*alloc_of)(void *ctx, unsigned asid, uint64_t va, int *ro, int *platform);
    /* The content tag page vpn of address space asid must hold now. */
    uint64_t (*truth)(void *ctx, unsigned asid, uint64_t vpn);
    /* One violation (a line without a newline). */
    void (*violation)(void *ctx, const char *msg);
    /* Optional (NULL: none): 1 if page va of address space asid is advised read-mostly, so a
     * read-only leaf of a writable allocation is legal (a read duplicate, docs/handler.md §6o). */
    int (*read_mostly)(void *ctx, unsigned asid, uint64_t va);
} plat_score_env_t;

typedef struct plat_score plat_score_t;

/* gm is read (never written); num_asids a power of two (1..256); lru: check the eviction order.
 * NULL + err if memory runs out or an argument is illegal. */
/* page_size cocoa: a 4 KB leaf outside every allocation is legal when its 2 MB region
 * intersects allocations of one permission (the region's bloat pages, written so that the region
 * can coalesce); such pages hold no content and are not tag-checked. Off by default. */
void plat_score_set_bloat(plat_score_t *s, int on);
/* writeback = dirty (docs/handler.md §6r): a writable page unmapped with DRT clear in its leaf
 * owes no write-back. Off by default. */
void plat_score_set_dirty_only(plat_score_t *s, int on);
/* The current service frees memory (a trace's `free`): the pages it unmaps are no evictions,
 * so the lru order check skips them (until the service ends). */
void plat_score_not_evictions(plat_score_t *s);
/* From now on the lru order check is off: the handler evicts by preferred location first
 * (docs/handler.md §6o), not in migration order alone. */
void plat_score_order_off(plat_score_t *s);
plat_score_t *plat_score_new(const gpumem_t *gm, const plat_score_env_t *env, unsigned num_asids,
                             int lru, char *err, size_t errlen);
void plat_score_free(plat_score_t *s);

/* A page-table word was written (by anyone): its page is compared with the shadow later. */
void plat_score_pt_write(plat_score_t *s, uint64_t pa);
/* A CSR write of the host program (ASID_SEL, PT_BASE_LO/HI, CMD_ARG_LO/HI, CMD are used). */
void plat_score_csr_write(plat_score_t *s, uint32_t addr, uint32_t value);
/* A CSR read of the host program and its value (CMD_STATUS with BUSY clear completes commands). */
void plat_score_csr_read(plat_score_t *s, uint32_t addr, uint32_t value);
/* An H2D DMA submitted into frames [ppn, ppn + n). */
void plat_score_h2d(plat_score_t *s, uint64_t ppn, uint64_t n);
/* The same with the copy's source page (ASID << GMMU_VPN_W | VPN, UINT64_MAX: unknown): in
 * bloat mode a copy into the mapped frame of its own page is legal once, if that page was
 * mapped while it was outside every allocation (a bloat page that became managed). */
void plat_score_h2d_src(plat_score_t *s, uint64_t ppn, uint64_t n, uint64_t src_vpn);
/* A D2H DMA of n frames from ppn to the host pages of extended VPN dst_vpn.. submitted: the
 * write-back of those pages (an H2D into a frame whose writable page was unmapped without one is
 * a violation, "wb"). */
void plat_score_d2h(plat_score_t *s, uint64_t ppn, uint64_t n, uint64_t dst_vpn);
/* The handler's thrashing pins (its PIN / UNPIN events) and capacity evictions (EVICT events of
 * cause UVM_EVICT_CAPACITY): key = ASID << 40 | VPN. An eviction of pages [key, key + pages)
 * (the handler's frame indices frame..) at now_ns that covers a page pinned until a later time is a
 * violation "pin" (plat_score_pin.c). */
void plat_score_pin(plat_score_t *s, uint64_t key, uint64_t until_ns);
/* The time at a service's start (after plat_score_service_begin): the lru order check skips
 * the pages whose pin ends later (lru skips pinned pages; a pin seen at the start holds at
 * least as long as the handler saw it: no false violation). */
void plat_score_pin_time(plat_score_t *s, uint64_t now_ns);
void plat_score_unpin(plat_score_t *s, uint64_t key);
void plat_score_evict(plat_score_t *s, uint64_t key, uint64_t pages, uint64_t frame,
                      uint64_t now_ns);
/* A handler service begins / ends (end: the checks of everything written meanwhile). */
void plat_score_service_begin(plat_score_t *s);
void plat_score_service_end(plat_score_t *s);
/* End of run: the shadow brought up to date and every mapping's content tag checked. */
void plat_score_finish(plat_score_t *s);

typedef struct {
    uint64_t checks, violations, mappings, pt_pages_compared, tags_checked, evictions_ordered;
} plat_score_stats_t;
plat_score_stats_t plat_score_stats(const plat_score_t *s);

#endif
