/*
 * uvm_handler.h - the host-side GPU fault handler ("driver"), modeled on NVIDIA's nvidia-uvm.
 * Reaches the device only through uvm_dev_t (uvm_dev.h). Module prefix uvm_. No global state.
 */
#ifndef UVM_HANDLER_H
#define UVM_HANDLER_H

#include "uvm_dev.h"
#include <stddef.h>
#include <stdint.h>

/* Policy kinds. Policies are looked up by name in the handler's registry (uvm_policy.c):
 *   replay     block | batch | batch_flush (default) | once      (docs/handler.md §5)
 *   evict      lru (default) | random | fifo | nvidia (§6, §6.1)
 *   prefetch   none (default) | nvidia | tbn | seq_local | random_local  (§6a)
 *   thrashing  none (default), nvidia, capacity                   (§6a, §6j) */
typedef enum {
    UVM_POLICY_REPLAY = 0,
    UVM_POLICY_EVICT = 1,
    UVM_POLICY_PREFETCH = 2,
    UVM_POLICY_THRASHING = 3,
    UVM_POLICY_KINDS = 4
} uvm_policy_kind_t;

#define UVM_POLICY_NAME_MAX 32 /* bytes, including the terminating NUL */

/* The handler's configuration: uvm_cfg_t, its defaults (UVM_CFG_DEFAULT_INIT) and the enums of
 * its keys are generated from spec/config.toml (uvm_cfg_gen.h; docs/config.md lists the keys):
 *   uvm_frame_alloc_t  GPU frame allocation (docs/handler.md §6f): any free 4 KB frame (the
 *                      default), or CoCoA: a 2 MB VA region's pages in one 2 MB frame of its
 *                      address space, at their offsets
 *   uvm_page_size_t    page-size mode (§6f): 4k (default), 2m (a whole large page migrated and
 *                      mapped at the first fault of a region), cocoa (4 KB pages in the region's
 *                      CoCoA frame, coalesced when fully populated; implies CoCoA frames)
 *   uvm_coalesce_by_t  who rewrites the page table when CoCoA coalesces or splinters: the host
 *                      (PTE writes + page invalidate, the default) or the GMMU's COALESCE /
 *                      SPLINTER commands (docs/microarch.md §15)
 *   uvm_copy_wait_t    a VA block's copies waited by the block (default) or once per batch
 *                      (nvidia-uvm: the block's tracker merged into the batch tracker)
 *   uvm_transfer_sets_t Zheng's transfer sets per fault batch (default) or pipelined (the
 *                      platform wakes the handler, uvm_handler_wake_ns / uvm_handler_wake)
 * A key added to the spec is parsed, range-checked, printed and copied into its uvm_cfg_t member
 * without an edit of cosim/ or of this file. */
#include "uvm_cfg_gen.h"

typedef struct {
    uint64_t irqs, fault_batches, faults_fetched, faults_duplicate, faults_stale;
    uint64_t pages_h2d, pages_d2h, bytes_h2d, bytes_d2h, evictions;
    uint64_t replays, invalidates, cancels, pte_writes, overflows;
    uint64_t pt_pages_used, data_pages_resident;
    /* pages migrated H2D that did not fault (growth + prefetch hint), and their bytes */
    uint64_t pages_prefetched, bytes_prefetched;
    /* large pages (docs/handler.md §6f): 2 MB pages mapped whole (page_size 2m), host-side
     * coalesces and splinters (cocoa), 2 MB pages evicted whole, 4 KB frames CoCoA could not
     * place at their offset (fallback) */
    uint64_t large_maps, coalesces, splinters, large_evictions, cocoa_fallbacks;
    /* frees and compaction (§6g): pages released by frees, 2 MB frames freed by compaction,
     * pages moved by it */
    uint64_t pages_freed, compactions, pages_compacted;
    /* Zheng's transfer sets that carried prefetch pages, and those pages (both modes) */
    uint64_t ts_sets, ts_pages;
    /* thrashing policies (§6j): pages found thrashing, THROTTLE and PIN hints given; pins
     * dropped before their end because every evictable frame was pinned (§6i, forward progress) */
    uint64_t num_thrashing, num_throttle, num_pin, thrash_pins_dropped;
    /* read duplication (advise read_mostly, §6o): pages that became read-only GPU duplicates
     * (host copy valid), duplicates collapsed to one copy (a GPU write: made writable; a CPU
     * write: the GPU copy dropped) */
    uint64_t read_dup_pages, read_dup_collapses;
    /* Li & Chapman's object placement (object_policy, §6s): launches planned, objects removed
     * from GPU memory (their pages moved to the host: obj_host_pages), objects placed in host
     * memory, prefetches of objects (explicit transfer) and their pages, prefetches left out
     * (more pages than free frames even after the host-placed objects' pages left) */
    uint64_t obj_launches, obj_evictions, obj_host_pages, obj_host_placements;
    uint64_t obj_prefetches, obj_prefetch_pages, obj_prefetch_skipped;
    /* partial mapping (object_partial, §6s.1): objects mapped partially (or their split moved),
     * and the GPU pages of those parts */
    uint64_t obj_partial_maps, obj_partial_pages;
    /* remote mappings (docs/handler.md §6l): pages mapped remotely on their host copy, remote
     * mappings removed (each with its INVAL_PAGE, also counted in invalidates), remote pages
     * migrated to the GPU (also counted in the migrations) */
    uint64_t remote_maps, remote_unmaps, remote_to_gpu;
    /* pre-eviction (evict_reserve_pages, §6u): pages evicted to keep the free reserve (also in
     * evictions), and the handler time spent on it (ns, after the service's replays) */
    uint64_t reserve_evictions, reserve_ns;
    /* count_unused (§6z): pages evicted (for capacity) with no GPU access since their migration,
     * and of them the pages a prefetcher brought in */
    uint64_t unused_evicted, unused_evicted_prefetch;
    /* accessed / dirty bits (§6r): PTEs the clock policy read, ACC bits it cleared (each with an
     * INVAL_PAGE); writable pages not copied back because clean (writeback = dirty), their bytes */
    uint64_t clock_pte_reads, clock_acc_clears, wb_clean_pages, wb_bytes_saved;
    /* thrashing_pin_to = host: PIN hints served by a remote mapping (§6l.4) */
    uint64_t remote_pins;
    /* remote_policy static_map / dynamap (§6x): faults of pages evicted before that migrated /
     * were mapped remotely by the decision; evicted pages by their referenced 128 B lines (0..32,
     * the PST's bitmap at the eviction: DynaMap's fig. 3a) */
    uint64_t pst_migrate, pst_remote;
    uint64_t evict_lines[33];
    /* remote_policy lazy_pg_stat_sw / lazy_pg_dyn_sw (§6x.4): polls of the remote pages' counts
     * (service passes and timer wake-ups), the timer wake-ups among them, pages migrated by a
     * count that reached its threshold */
    uint64_t lazy_polls, lazy_timer_polls, lazy_pages;
    /* the access-counter service (remote_policy lazy_grp_hw, §6w.1): notification batches
     * fetched, notifications serviced (decoded), those with no page left to migrate (stale),
     * their stale pages (resident, freed or no longer remote), pages migrated by the counters,
     * entries dropped (malformed or never valid), ACC_STATUS.OVERFLOW seen (and cleared) */
    uint64_t acc_batches, acc_serviced, acc_stale, acc_stale_pages, acc_pages, acc_dropped;
    uint64_t acc_ovf_seen;
} uvm_stats_t;

typedef struct uvm_handler uvm_handler_t;

/* Event stream (as nvidia-uvm's uvm_perf_events, docs/handler.md §6i): typed events, each kind
 * with its payload in a union member, delivered synchronously to the observers subscribed to its
 * kind, in subscription order. The statistics counters are the first observer, the configured
 * policies (eviction, prefetch, thrashing) come next, then the observers of
 * uvm_handler_subscribe. Payload member per kind in parentheses. */
typedef enum {
    UVM_EVENT_FAULT = 0,           /* a valid fault entry was fetched from the ring (fault) */
    UVM_EVENT_MIGRATE = 1,         /* a DMA was submitted (migrate) */
    UVM_EVENT_EVICT = 2,           /* a page (or a 2 MB page) was evicted (evict) */
    UVM_EVENT_REPLAY = 3,          /* a replay command was issued (replay) */
    UVM_EVENT_BATCH_BEGIN = 4,     /* a fault batch was fetched, before its servicing (batch) */
    UVM_EVENT_BATCH_END = 5,       /* the batch was serviced and its replay policy ran (batch) */
    UVM_EVENT_MIGRATE_DONE = 6,    /* the handler waited for a DMA: its copy completed (migrate) */
    UVM_EVENT_PAGE_MAPPED = 7,     /* leaf PTE(s) written: a 4 KB or a 2 MB mapping (page) */
    UVM_EVENT_PAGE_UNMAPPED = 8,   /* a leaf PTE cleared (page) */
    UVM_EVENT_RESIDENT = 9,        /* a page was given a GPU frame (page) */
    UVM_EVENT_NONRESIDENT = 10,    /* a page lost its GPU frame: evicted, freed, moved (page) */
    UVM_EVENT_BLOCK_FAULT = 11,    /* a coalesced fault is serviced in its VA block (fault) */
    UVM_EVENT_REVOCATION = 12,     /* a read duplicate collapsed (§6o) (revocation) */
    UVM_EVENT_ACCESS_COUNTER = 13, /* an access-counter notification serviced (§6w.1) (counter) */
    UVM_EVENT_REMOTE_ACCESS = 14,  /* no source yet (issue 21: remote mappings) (remote) */
    UVM_EVENT_REMOTE_MAP = 15,     /* a page mapped remotely on its host copy (§6l) (page) */
    UVM_EVENT_REMOTE_UNMAP = 16,   /* its remote mapping removed; INVAL_PAGE follows (page) */
    UVM_EVENT_PIN = 17,            /* a thrashing PIN hint honoured: not evicted until (pin) */
    UVM_EVENT_UNPIN = 18,          /* an expired thrashing pin dropped (pin) */
    UVM_EVENT_KINDS = 19
} uvm_event_kind_t;

#define UVM_EVENT_MASK(kind) (UINT32_C(1) << (kind))
#define UVM_EVENT_ALL (UVM_EVENT_MASK(UVM_EVENT_KINDS) - 1u)
/* observers uvm_handler_subscribe accepts (besides the statistics and the policies) */
#define UVM_EVENT_MAX_OBSERVERS 8

/* FAULT: an entry as fetched (count 1, resident false). BLOCK_FAULT: a page's coalesced faults
 * of the batch (access: the most intrusive), resident = the page already has a frame (frame). */
typedef struct {
    uint64_t vpn; /* extended VPN (ASID << 36 | VPN) */
    uint64_t timestamp;
    uint32_t count;
    uint32_t frame; /* BLOCK_FAULT with resident */
    uint8_t access; /* GMMU_AT_* */
    uint8_t resident;
} uvm_event_fault_t;

/* MIGRATE / MIGRATE_DONE: one DMA of pages consecutive pages (vpn..) and frames (frame..). */
typedef struct {
    uint64_t vpn;
    uint64_t dma; /* the device's handle */
    uint32_t pages;
    uint32_t frame;
    uvm_dma_dir_t dir;
} uvm_event_migrate_t;

/* PAGE_MAPPED / PAGE_UNMAPPED / RESIDENT / NONRESIDENT: pages consecutive pages from vpn in
 * consecutive frames from frame (pages = 512: a 2 MB mapping). REMOTE_MAP / REMOTE_UNMAP: one
 * page, frame UINT32_MAX (no GPU frame: the host copy). */
typedef struct {
    uint64_t vpn;
    uint32_t pages;
    uint32_t frame;
    uint8_t writable;
} uvm_event_page_t;

/* Why a page left the GPU for the host (the driver's uvm_make_resident_cause_t of a migration to
 * the CPU): the GPU needed the frame (EVICTION), the CPU touched the page (a CPU fault: a trace's
 * `cpu` record, REPLAYABLE_FAULT on the CPU), or a user call moved it (`prefetch RANGE host`:
 * API_MIGRATE). */
typedef enum {
    UVM_EVICT_CAPACITY = 0,
    UVM_EVICT_CPU_FAULT = 1,
    UVM_EVICT_API = 2
} uvm_evict_cause_t;

typedef struct {
    uint64_t vpn;
    uint32_t pages; /* 1, or 512 for a 2 MB page evicted whole */
    uint32_t frame;
    uint8_t writeback; /* its content was copied back to the host (D2H) */
    uint8_t cause;     /* uvm_evict_cause_t: the processor that wanted it (CPU_FAULT: the CPU) */
} uvm_event_evict_t;

typedef struct {
    uint64_t vpn;
    uint32_t pages; /* 1: REPLAY_PAGE vpn; 0: REPLAY_ALL */
} uvm_event_replay_t;

typedef struct {
    uint32_t index;  /* batch number within the interrupt (0..max_batches_per_irq-1) */
    uint32_t faults; /* BEGIN: entries fetched; END: distinct pages serviced (coalesced) */
} uvm_event_batch_t;

/* The copies of a read-duplicated page collapsed (docs/handler.md §6o): on a GPU write the host
 * copy is revoked and the GPU's copy made writable (access: GMMU_AT_WRITE, what the GPU may do
 * now); on a CPU write the GPU's copy is dropped (access: GMMU_AT_PREFETCH: nothing). */
typedef struct {
    uint64_t vpn;
    uint32_t pages;
    uint8_t access; /* the access kind still allowed (GMMU_AT_*) */
} uvm_event_revocation_t;

/* An access-counter notification (a region's counter crossed its threshold), emitted by the
 * service of lazy_grp_hw (§6w.1) for each notification fetched, before its pages migrate. */
typedef struct {
    uint64_t vpn; /* first page of the region */
    uint32_t pages;
    uint32_t value;
    uint32_t sub_mask; /* sub-regions that were accessed */
} uvm_event_counter_t;

/* A GPU access served remotely (a page mapped in host memory). Nothing emits it yet. */
typedef struct {
    uint64_t vpn;
    uint8_t access;
} uvm_event_remote_t;

/* PIN: the service honoured a thrashing PIN hint for page vpn (uvm_thrash_act): while the
 * device's time (uvm_dev_t.now_ns) is below until_ns the page is no eviction victim (to_host: the
 * page is mapped remotely on its host copy instead, thrashing_pin_to = host). Emitted when the pin
 * is new or its end moved. UNPIN: the expired pin was dropped (at the next batch start, so
 * possibly after until_ns; the pin holds only while the time is below until_ns). */
typedef struct {
    uint64_t vpn;
    uint64_t until_ns;
    uint8_t to_host;
} uvm_event_pin_t;

typedef struct {
    uvm_event_kind_t kind;
    union {
        uvm_event_fault_t fault;     /* FAULT, BLOCK_FAULT */
        uvm_event_migrate_t migrate; /* MIGRATE, MIGRATE_DONE */
        uvm_event_page_t page;       /* PAGE_(UN)MAPPED, (NON)RESIDENT, REMOTE_(UN)MAP */
        uvm_event_evict_t evict;
        uvm_event_replay_t replay;
        uvm_event_batch_t batch; /* BATCH_BEGIN, BATCH_END */
        uvm_event_revocation_t revocation;
        uvm_event_counter_t counter; /* ACCESS_COUNTER */
        uvm_event_remote_t remote;   /* REMOTE_ACCESS */
        uvm_event_pin_t pin;         /* PIN, UNPIN */
    };
} uvm_event_t;

typedef void (*uvm_event_fn_t)(void *ctx, const uvm_event_t *ev);

/* Sets the default values (UVM_CFG_DEFAULT_INIT: spec/config.toml's defaults). */
void uvm_cfg_defaults(uvm_cfg_t *cfg);
/* Name of a policy kind ("replay", "evict", "prefetch", "thrashing"); NULL if out of range. */
const char *uvm_policy_kind_name(uvm_policy_kind_t kind);
/* 0 if name is a registered policy of kind; else -1 and err = "'name' is not one of a|b|c". */
int uvm_policy_check(uvm_policy_kind_t kind, const char *name, char *err, size_t errlen);
/* Properties of a registered policy that the platform may need to know (uvm_policy_props), so
 * that it never compares policy names: */
/* evict: victims leave in the order their pages were mapped (the scoreboard may check it) */
#define UVM_POLICY_PROP_MAP_ORDER 1u
/* prefetch: wants the workload's first-touch page order (uvm_handler_set_page_order) first */
#define UVM_POLICY_PROP_PAGE_ORDER 2u
/* evict: wants every GPU access from the platform (uvm_handler_note_access): an ORACLE of the
 * last access time, which the hardware does not report yet (lru_oracle, docs/handler.md §6.1) */
#define UVM_POLICY_PROP_ACCESS_ORACLE 4u
/* thrashing: a detector runs; its statistics (num_thrashing, num_throttle, num_pin) are reported */
#define UVM_POLICY_PROP_DETECTS 8u
/* evict: wants every use of a page in the trace ahead (uvm_handler_set_page_uses): an ORACLE of
 * the future (optimal, Belady, docs/handler.md §6t) */
#define UVM_POLICY_PROP_NEXT_USE 16u
/* The UVM_POLICY_PROP_* bits of the registered policy `name` of kind; 0 if none or unknown. */
uint32_t uvm_policy_props(uvm_policy_kind_t kind, const char *name);
/* uvm_policy_check, then stores name in cfg->policy[kind]. 0 or -1 + err. */
int uvm_cfg_set_policy(uvm_cfg_t *cfg, uvm_policy_kind_t kind, const char *name, char *err,
                       size_t errlen);
uvm_handler_t *uvm_handler_new(const uvm_cfg_t *cfg, const uvm_dev_t *dev, char *err,
                               size_t errlen);
void uvm_handler_free(uvm_handler_t *h);
/* Declares a managed allocation (from the trace). base is an extended VA: ASID << 48 | VA
 * (docs/handler.md "Address spaces"; ASID 0: the plain VA); the ASID gets its own page table.
 * Overlaps, zero size, or a range outside the 48-bit VA space are errors (-1 + err naming the
 * allocation). */
int uvm_handler_add_alloc(uvm_handler_t *h, const char *name, uint64_t base, uint64_t size,
                          int readonly, char *err, size_t errlen);
/* The oracle prefetcher's input (docs/handler.md §6d): the pages (VPNs) of the workload in
 * first-touch order, e.g. from a first pass over the trace; repeated VPNs keep their first
 * position. Replaces an earlier order. 0, or -1 + err (out of memory). */
int uvm_handler_set_page_order(uvm_handler_t *h, const uint64_t *vpns, size_t n, char *err,
                               size_t errlen);
/* Belady's oracle (UVM_POLICY_PROP_NEXT_USE, docs/handler.md §6t): every use of a page by the
 * workload in trace order (one entry per distinct page per memory record; extended VPNs as
 * uvm_handler_set_page_order), from a first pass over the trace; each uvm_handler_note_access
 * of a page consumes its next use. Replaces earlier uses. 0, or -1 + err (out of memory, or the
 * eviction policy takes no uses). */
int uvm_handler_set_page_uses(uvm_handler_t *h, const uint64_t *vpns, size_t n, char *err,
                              size_t errlen);
/* The access oracle (UVM_POLICY_PROP_ACCESS_ORACLE, docs/handler.md §6.1): the platform says that
 * the GPU frame at physical address frame_pa was accessed at now_ns (a translation used). Not
 * something a real driver sees; ignored for a frame outside GPU data memory or not resident. */
void uvm_handler_note_access(uvm_handler_t *h, uint64_t frame_pa, uint64_t now_ns);
/* count_unused (docs/handler.md §6z): the GPU-resident pages with no GPU access seen since their
 * migration (*all) and of them the ones a prefetcher brought in (*prefetched). Meaningful with
 * count_unused = oracle (acc reads the leaves only at the unmap). */
void uvm_handler_unused_resident(const uvm_handler_t *h, uint64_t *prefetched, uint64_t *all);
/* The programmer-directed copy of the memcpy baseline (cudaMalloc + cudaMemcpy H2D,
 * docs/handler.md §6e): gives every non-resident page of the allocation based at `base` a GPU
 * frame (2 MB / 64 KB chunks where whole groups fit), copies them (a run of consecutive pages
 * and frames of a 2 MB block is one DMA; every DMA submitted before the first wait), then maps
 * them; no per-page or per-PTE CPU time, no eviction. Needs uvm_handler_init_device first.
 * *pages = pages copied. 0, or -1 + err: unknown allocation, not enough free GPU frames (GPU
 * memory oversubscribed: a cudaMalloc would fail), page-table pool too small; after an error
 * the allocation may be left partly populated (the run is to stop). */
int uvm_handler_populate(uvm_handler_t *h, uint64_t base, uint64_t *pages, char *err,
                         size_t errlen);
/* cudaMemPrefetchAsync(base, size, GPU) (a trace's `prefetch RANGE gpu`, issue 22): every
 * non-resident page of [base, base + size), which must lie inside one allocation, gets a GPU frame
 * and is copied and mapped as uvm_handler_populate does (one DMA per run of consecutive pages
 * and frames, all submitted before the first wait; 2m / CoCoA placements as there): a bulk
 * migration without faults. Pages already resident are left alone. A prefetch that would need
 * evictions (more pages than free frames) is refused (-1 + err: not modeled yet). *pages = the
 * pages copied. 0 or -1 + err. */
int uvm_handler_prefetch(uvm_handler_t *h, uint64_t base, uint64_t size, uint64_t *pages, char *err,
                         size_t errlen);
/* Migrates the GPU-resident pages of [base, base + size) (inside one allocation) to the host: a
 * trace's `prefetch RANGE host` (cudaMemPrefetchAsync to the CPU) and `cpu RANGE R|W` (a CPU
 * fault per page, issue 22). Each page as an eviction does it (uvm_mem_evict: unmap, INVAL_PAGE,
 * D2H if writable, frame released; a 2m page whole, a coalesced CoCoA region split first), so it
 * is counted in evictions. A read-mostly page (uvm_handler_advise) is read-duplicated instead:
 * its GPU copy stays, read-only (a writable one is written back and mapped read-only first).
 * *pages = the pages that left the GPU. 0 or -1 + err. */
int uvm_handler_to_host(uvm_handler_t *h, uint64_t base, uint64_t size, uint64_t *pages, char *err,
                        size_t errlen);
/* cudaMemAdvise(base, size, advice) (a trace's `advise RANGE ADVICE`, issue 22, docs/handler.md
 * §6o) on the pages of [base, base + size) (inside one allocation). UVM_ADVISE_READ_MOSTLY: read
 * duplication (needs the 4k placement); the others are refused (-1 + err) until they are built.
 * 0 or -1 + err. */
typedef enum {
    UVM_ADVISE_READ_MOSTLY = 0,
    UVM_ADVISE_PREFER_GPU = 1,
    UVM_ADVISE_PREFER_HOST = 2,
    UVM_ADVISE_ACCESSED_BY = 3
} uvm_advice_t;
int uvm_handler_advise(uvm_handler_t *h, uint64_t base, uint64_t size, uvm_advice_t advice,
                       char *err, size_t errlen);
/* A CPU write of [base, base + size) (a trace's `cpu RANGE W`): as uvm_handler_to_host, but a
 * read-duplicated page collapses (its GPU copy unmapped and dropped: the host copy is the one
 * written). For pages that are not read-mostly both are the same. 0 or -1 + err. */
int uvm_handler_cpu_write(uvm_handler_t *h, uint64_t base, uint64_t size, uint64_t *pages,
                          char *err, size_t errlen);
/* As uvm_handler_to_host, for a CPU access (a trace's `cpu` record): the pages leave because the
 * CPU faulted on them, so their EVICT events carry cause UVM_EVICT_CPU_FAULT (an event of the CPU
 * for the thrashing detection, docs/handler.md §6p); uvm_handler_to_host's carry UVM_EVICT_API. A
 * CPU read: a read-mostly page is read-duplicated (uvm_handler_to_host's rule);
 * uvm_handler_cpu_write is the write, with the same cause. */
int uvm_handler_cpu_fault(uvm_handler_t *h, uint64_t base, uint64_t size, uint64_t *pages,
                          char *err, size_t errlen);
/* Programs the device: page-table root, fault ring, interrupt enables. 0 or -1 + err. */
int uvm_handler_init_device(uvm_handler_t *h, char *err, size_t errlen);
/* Services the interrupt: called by the platform while irq_o is high. Returns when done. */
void uvm_handler_service(uvm_handler_t *h);
/* Pipelined transfer sets (docs/handler.md §6m): the simulated time (ns) at which the handler
 * wants uvm_handler_wake called (the earliest completion of a copy of the set in flight; 0 =
 * now), UINT64_MAX when it has nothing in flight (always, with transfer_sets = batch). */
uint64_t uvm_handler_wake_ns(const uvm_handler_t *h);
/* The wake-up (a copy-engine completion interrupt): maps the pages whose copies completed; once
 * the whole set is mapped, submits the next one (if prefetch candidates and free frames remain).
 * Called by the platform between interrupt services, never inside one. */
void uvm_handler_wake(uvm_handler_t *h);
const uvm_stats_t *uvm_handler_stats(const uvm_handler_t *h);
/* The application frees the allocation `name` (cudaFree; docs/handler.md §6g): its resident
 * pages are unmapped (a coalesced region splintered first, a 2m page evicted whole) and their
 * frames released without write-back, the allocation is removed, then CoCoA frames that fell
 * below cfg.compact_pct are compacted. 0, or -1 + err (unknown name). */
int uvm_handler_free_alloc(uvm_handler_t *h, const char *name, char *err, size_t errlen);
/* As uvm_handler_free_alloc, the allocation that starts at the extended address base (ASID <<
 * GMMU_VA_W | VA): a free in any address space (two spaces may use one name). 0 or -1 + err. */
int uvm_handler_free_alloc_at(uvm_handler_t *h, uint64_t base, char *err, size_t errlen);
/* Host-side coalescing of the 2 MB region at va_2m of address space asid (docs/handler.md §6f):
 * D = 1 in its 512 level-4 entries, then L = 1 in its level-3 entry (no TLB flush: D-marked base
 * translations stay correct). The region must be CoCoA-placed and fully populated. 0, or -1 and
 * a log line (nothing written). The single entry point: a hardware command may take over later. */
int uvm_coalesce(uvm_handler_t *h, uint32_t asid, uint64_t va_2m);
/* Splinters a coalesced region: L = 0, INVAL_PAGE of the region (flushes its large entries),
 * then D = 0 (resident pages get their base PTE back, the others 0). 0, or -1 and a log line. */
int uvm_splinter(uvm_handler_t *h, uint32_t asid, uint64_t va_2m);
/* Subscribes fn(ctx, event) to the event kinds in mask (UVM_EVENT_MASK bits). 0, or -1 if
 * UVM_EVENT_MAX_OBSERVERS observers are already subscribed or the arguments are invalid. */
int uvm_handler_subscribe(uvm_handler_t *h, uint32_t mask, uvm_event_fn_t fn, void *ctx);

#endif
