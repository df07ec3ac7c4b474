/*
 * uvm_place.h - the placement layer of the host fault handler (docs/handler.md "Placement
 * layer"): where a page lives and how it is mapped. One table of operations per placement kind;
 * the handler picks its table once, in uvm_handler_new (uvm_place_select), and the service loop,
 * migration, eviction, populate and free/compaction call the table: none of them tests a
 * page-size key, writes or clears a leaf PTE, shoots down a page or copies one back to the host
 * (map, unmap, writeback; make check-style greps for both).
 *
 * Kinds (cfg.page_size x cfg.frame_alloc):
 *   4k           4 KB frames from the chunked allocator, 4 KB PTEs (page_size 4k)
 *   2m           a managed 2 MB region of one writability migrates, maps (one 2 MB PTE) and is
 *                evicted whole; other pages as 4k (page_size 2m)
 *   cocoa        CoCoA frames (a page at its offset in its region's reserved 2 MB frame), a fully
 *                populated region coalesced, splintered before a page of it is evicted
 *                (page_size cocoa, any frame_alloc)
 *   cocoa-frames CoCoA frames, never coalesced (frame_alloc cocoa, page_size 4k)
 *
 * A frame index is a 4 KB GPU data frame (uvm_frame_pa). The operations never evict: the one
 * evict-and-retry loop (uvm_migrate_backing, uvm_migrate.c) asks the table for backing, and
 * when it has none, the eviction policy for a victim and the table to evict it.
 */
#ifndef UVM_PLACE_H
#define UVM_PLACE_H

#include "uvm_priv.h"

struct uvm_place_ops {
    const char *name;
    /* Optional: state taken at uvm_handler_new after the frame allocator (cocoa: the emergency
     * frames of compaction). 0, or -1 (out of memory). */
    int (*init)(uvm_handler_t *h);

    /* ---- backing ---- */
    /* A free frame for page vpn; UVM_NONE if none is free (never evicts). */
    uint32_t (*alloc_page)(uvm_handler_t *h, uint64_t vpn);
    /* The first of `pages` (16 or 512) consecutive free frames, naturally aligned, for the
     * aligned group of pages at vpn; UVM_NONE if none is free. NULL: every page is placed alone
     * (alloc_page), a range never takes a chunk. */
    uint32_t (*alloc_range)(uvm_handler_t *h, uint64_t vpn, uint32_t pages);
    /* true: a demand/prefetch migration set takes alloc_range chunks for its whole aligned
     * 2 MB / 64 KB groups (false: only the programmer-directed copy, uvm_handler_populate). */
    bool range_on_demand;
    /* Frames a programmer-directed copy into address space asid can still take. */
    uint64_t (*frames_free)(const uvm_handler_t *h, uint32_t asid);
    /* Optional: frame f now holds a resident page (after the common bookkeeping). */
    void (*frame_use)(uvm_handler_t *h, uint32_t f);
    /* Frame f's page stopped being resident (after the common bookkeeping). true if the frame
     * went back to its owner (the allocator or a reservation); false: the caller still holds
     * it (hands it over, or frees it with frame_free). */
    bool (*frame_unuse)(uvm_handler_t *h, uint32_t f);
    /* Frame f, held and not resident, goes back to its owner. */
    void (*frame_free)(uvm_handler_t *h, uint32_t f);

    /* ---- mapping, split, merge ---- */
    /* Maps `pages` pages from vpn in consecutive frames from frame: their 4 KB leaf PTEs, or,
     * for a placement that maps regions whole (2m) and pages = UVM_BLOCK_PAGES at a region base,
     * one 2 MB PTE. charge = false: no t_pte_ns of CPU time (populate). Emits PAGE_MAPPED
     * (uvm_pt.c). 0, or -1 (a page-table chain could not be built, logged). */
    int (*map)(uvm_handler_t *h, uint64_t vpn, uint32_t frame, uint32_t pages, bool writable,
               bool charge);
    /* Clears the mapping of `pages` pages from vpn (2m, pages = UVM_BLOCK_PAGES at a region
     * base: its 2 MB page) and shoots them down in the GPU TLBs (INVAL_PAGE, waited for): after
     * it no walk or TLB entry reaches the backing. Emits PAGE_UNMAPPED. */
    void (*unmap)(uvm_handler_t *h, uint64_t vpn, uint32_t pages);
    /* Optional: changes the GPU's access to mapped 4 KB page vpn in place (same frame): its
     * leaf rewritten with W = writable (PAGE_MAPPED), then its cached translation shot down
     * (INVAL_PAGE, waited for), so the next access walks. 0, or -1 (logged). NULL: pages of this
     * placement are never re-protected (read duplication, §6o, needs it: 4k only). */
    int (*protect)(uvm_handler_t *h, uint64_t vpn, uint32_t frame, bool writable);
    /* Optional: true (and *writable) if the first fault on the region of vpn, nothing of it
     * resident, migrates and maps the whole 2 MB region as one page (migrate_whole). */
    bool (*region_whole)(const uvm_handler_t *h, uint64_t vpn, bool *writable);
    /* With region_whole: the first fault on the region of vpn (region_whole true, nothing of it
     * resident) migrates and maps the whole region as one page (2m: uvm_large_migrate). true if
     * it is mapped; false: left for the replay (logged) or cancelled. */
    bool (*migrate_whole)(uvm_handler_t *h, uint64_t vpn, bool writable);
    /* Optional: the pages of blk were just mapped (their copies complete, their PTEs written):
     * merge the region into one 2 MB mapping if it is complete (coalesce). NULL: regions of
     * this placement are never merged, and uvm_splinter refuses them. */
    void (*merge)(uvm_handler_t *h, uvm_va_block_t *blk);
    /* Optional: blk is mapped by one 2 MB PTE made of its 4 KB pages (merged): make it 4 KB-mapped
     * again, its pages staying where they are (splinter). 0, or -1 (refused, logged). NULL: a
     * large region of this placement is never split (2m: it is evicted whole). */
    int (*split)(uvm_handler_t *h, uvm_va_block_t *blk);

    /* ---- eviction, write back, free ---- */
    /* Before the backing of `pages` unmapped pages from vpn in frames from frame (2m,
     * UVM_BLOCK_PAGES: its 2 MB page) is reused: copies their data back to the host (D2H,
     * submitted and waited for; MIGRATE / MIGRATE_DONE) if it may differ from the host's copy
     * (a writable page). true if it copied. */
    bool (*writeback)(uvm_handler_t *h, uint64_t vpn, uint32_t frame, uint32_t pages);
    /* Optional: the page to evict or free lies in blk, mapped by one 2 MB PTE that is not split
     * (2m): the whole 2 MB page is evicted (unmapped, written back, its frames back to the
     * allocator). NULL: the region is split first (split) and its 4 KB page goes as usual. */
    void (*evict_large)(uvm_handler_t *h, uvm_va_block_t *blk);
    /* Optional: an allocation of address space asid was freed (cocoa: compaction). */
    void (*freed)(uvm_handler_t *h, uint32_t asid);
};

/* The registered placements (uvm_place_4k.c, uvm_place_2m.c, uvm_place_cocoa.c). */
extern const uvm_place_ops_t uvm_place_4k_ops;
extern const uvm_place_ops_t uvm_place_2m_ops;
extern const uvm_place_ops_t uvm_place_cocoa_ops;
extern const uvm_place_ops_t uvm_place_cocoa_frames_ops;

/* uvm_place.c: the selection (the only reader of cfg.page_size / cfg.frame_alloc besides
 * uvm_place_check_cfg). */
/* The large-page keys (docs/handler.md §6f) are valid: 0, or -1 with the message in err. */
int uvm_place_check_cfg(const uvm_cfg_t *c, char *err, size_t errlen);
/* The placement of a configuration uvm_place_check_cfg accepted. */
const uvm_place_ops_t *uvm_place_select(const uvm_cfg_t *c);

/* Shared pieces of the implementations (uvm_place_4k.c). */
uint32_t uvm_place_pmm_frame(uvm_handler_t *h, uint64_t vpn);
uint32_t uvm_place_pmm_range(uvm_handler_t *h, uint64_t vpn, uint32_t pages);
uint64_t uvm_place_pmm_free(const uvm_handler_t *h, uint32_t asid);
bool uvm_place_keep(uvm_handler_t *h, uint32_t f);
void uvm_place_pmm_put(uvm_handler_t *h, uint32_t f);
int uvm_place_map_4k(uvm_handler_t *h, uint64_t vpn, uint32_t frame, uint32_t pages, bool writable,
                     bool charge);
void uvm_place_unmap_4k(uvm_handler_t *h, uint64_t vpn, uint32_t pages);
bool uvm_place_writeback_4k(uvm_handler_t *h, uint64_t vpn, uint32_t frame, uint32_t pages);

/* ---- the placement kind `remote` (uvm_place_remote.c, docs/handler.md §6l): per page, beside
 * the handler's table; the API policies use (pin_host, static_map, accessed_by, access counters,
 * a thrashing pin to the host) ---- */
/* Page vpn is mapped remotely (on its host copy, no GPU frame). */
bool uvm_remote_is(const uvm_handler_t *h, uint64_t vpn);
/* Maps the pages [vpn, vpn + pages) remotely: per page of a managed allocation that is neither
 * remote nor resident, a leaf PTE with APER, W as its allocation, PPN = its host frame (no frame,
 * no copy; REMOTE_MAP); the others are skipped (a resident page stays mapped locally).
 * charge: t_pte_ns per PTE written. The pages mapped, or -1 (a page-table chain could not be
 * built or out of memory, logged; the pages mapped before it stay). */
int64_t uvm_remote_map(uvm_handler_t *h, uint64_t vpn, uint32_t pages, bool charge);
/* Removes the remote mappings among [vpn, vpn + pages), as the driver's unmap: per remote page
 * its PTE cleared (REMOTE_UNMAP), then INVAL_PAGE, waited for; nothing written back. The next
 * GPU access faults. The pages unmapped. */
uint32_t uvm_remote_unmap(uvm_handler_t *h, uint64_t vpn, uint32_t pages);
/* Inside a block's service (between uvm_migrate_begin and uvm_migrate_commit): remote page vpn
 * migrates to the GPU, the normal migration (uvm_migrate_page: a frame, evicting if needed, the
 * H2D copy of the host copy, mapped at the commit) whose frame assignment first removes the
 * remote mapping (uvm_remote_leave). false: not remote, or no frame (the page stays remote). */
bool uvm_remote_migrate(uvm_handler_t *h, uint64_t vpn);
/* Outside a service (a host call, a notification): the remote pages of [vpn, vpn + pages)
 * migrated to the GPU, copies waited for, mapped. The pages migrated. */
uint32_t uvm_remote_to_gpu(uvm_handler_t *h, uint64_t vpn, uint32_t pages);
/* remote_policy (spec/config.toml, docs/handler.md §6l.2) */
enum {
    UVM_REMOTE_NONE = 0,
    UVM_REMOTE_PIN_HOST = 1,
    UVM_REMOTE_DYNAMAP = 2,
    UVM_REMOTE_STATIC_MAP = 3,
    UVM_REMOTE_LAZY_PG_STAT_SW = 4, /* DynaMap's LazyPgStatSW (§6x.4, uvm_lazypg.c) */
    UVM_REMOTE_LAZY_PG_DYN_SW = 5,  /* DynaMap's LazyPgDynSW (§6x.4) */
    UVM_REMOTE_LAZY_GRP_HW = 6,     /* DynaMap's LazyGrpHW (§6w.2, uvm_acc_svc.c) */
    UVM_REMOTE_POLICIES = 7
};
/* The policy maps every managed page remotely at its first fault and no hint migrates it:
 * pin_host (§6l.2) and lazy_grp_hw (the access counters migrate it, §6w.2). */
static inline bool uvm_remote_first_touch(uint32_t remote_policy) {
    return remote_policy == UVM_REMOTE_PIN_HOST || remote_policy == UVM_REMOTE_LAZY_GRP_HW;
}
/* pst_source (spec/config.toml, docs/handler.md §6x) */
enum { UVM_PST_SW = 0, UVM_PST_HW = 1 };
/* A fault on page vpn (not resident, not remote) is served by mapping it remotely: every
 * managed page under pin_host; a page advised accessed_by or preferred_location=host (§6o); under
 * static_map / dynamap a page evicted before whose spatial utilization says so (§6x). */
bool uvm_remote_wanted(const uvm_handler_t *h, uint64_t vpn);
/* The pages of blk that a growth or prefetch hint must not migrate: remote, or wanted remote. */
void uvm_remote_wanted_mask(const uvm_handler_t *h, const uvm_va_block_t *blk,
                            uint64_t out[UVM_BLOCK_WORDS]);
/* The service's hook (uvm_service.c): if page vpn is wanted remote, maps it so (page-table room
 * checked, cancelled if none; the replay policy told) and returns true; else false. */
bool uvm_remote_fault(uvm_handler_t *h, uvm_blk_ctx_t *c, uint64_t vpn);
/* The service's hook after the thrashing hint: with thrashing_pin_to = host, a page the hint pinned
 * is mapped remotely (pinned in host memory, §6l.4) instead of migrating; true if so. */
bool uvm_remote_pin(uvm_handler_t *h, uvm_blk_ctx_t *c, uint64_t vpn);
/* uvm_frame_assign's hook: page vpn of blk gets a GPU frame; if it is remote, its remote mapping
 * is removed first (uvm_remote_unmap of the page; remote_to_gpu counted). */
void uvm_remote_leave(uvm_handler_t *h, uvm_va_block_t *blk, uint64_t vpn);

/* ---- DynaMap's placement decision (uvm_dynamap.c, docs/handler.md §6x) ---- */
/* The Page Spatial Table entry of page vpn: pst_source = sw through the HAL (uvm_dev_t.pst_read):
 * its referenced-line bitmap and access count; pst_source = hw from the GMMU's bitmap table
 * (uvm_bmp_read, count 0); false (both 0) if there is no PST source or the page has no entry. */
bool uvm_pst_read(const uvm_handler_t *h, uint64_t vpn, uint32_t *lines, uint32_t *count);
/* remote_policy reads the PST (static_map, dynamap) */
bool uvm_dyn_policy(uint32_t remote_policy);
/* its keys and the device's PST: 0, or -1 with a message naming the key */
int uvm_dyn_check_cfg(const uvm_cfg_t *c, const uvm_dev_t *d, char *err, size_t errlen);
/* the terms of eq. (1) and (3): bandwidths B_C, B_G, B_PCI (MB/s), the fault cost H (ns) */
typedef struct {
    uint32_t bc_mbps, bg_mbps, bpci_mbps;
    double h_ns;
} uvm_dyn_params_t;
typedef struct {
    double cpu_ns, gpu_ns; /* C_CPU (eq. (1)) and C_GPU (eq. (3)) */
} uvm_dyn_cost_t;
/* the terms from the configuration: B_C, B_G, B_PCI from their fields, H = t_irq_ns + t_batch_ns +
 * t_fault_ns + t_page_ns (a lone fault's service) */
uvm_dyn_params_t uvm_dyn_params(const uvm_cfg_t *c);
/* eq. (2): (f_current - f_under) / f_under; 0 if f_under is not positive */
double uvm_dyn_fover(double f_current, double f_under);
/* C_CPU and C_GPU of a page whose `lines` 128-byte lines are referenced (x = lines * 128) */
uvm_dyn_cost_t uvm_dyn_costs(const uvm_dyn_params_t *p, uint32_t lines, double f_over);
/* static_map: lines of 32 >= pct % */
bool uvm_dyn_static_migrates(uint32_t lines, uint32_t pct);
/* f_over from the measured fault rates, eq. (2) clamped at 0 (the table's "expected number of
 * evictions"; 0 until both f_under and a window of f_current are measured) */
double uvm_dyn_current_fover(const uvm_handler_t *h);
/* the decision for a fault on page vpn: true = map remotely (only a page evicted before) */
bool uvm_dyn_wants_remote(const uvm_handler_t *h, uint64_t vpn);
/* counts a decision taken at a fault (pst_remote / pst_migrate), for a page evicted before */
void uvm_dyn_decided(uvm_handler_t *h, uint64_t vpn, bool remote);
/* the policy's state and its event observer (init: 0, -1 out of memory; nothing when off) */
int uvm_dyn_init(uvm_handler_t *h);
void uvm_dyn_free(uvm_handler_t *h);

#endif
