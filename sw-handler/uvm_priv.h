/*
 * uvm_priv.h - private state and internal interfaces of the host fault handler.
 * Not part of the public API (uvm_handler.h); shared by the sw-handler modules only.
 */
#ifndef UVM_PRIV_H
#define UVM_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gmmu_consts.h"
#include "u64map.h"
#include "uvm_handler.h"

/* ---- derived geometry (from the generated constants) ---- */
#define UVM_PAGE_BYTES (UINT64_C(1) << GMMU_PAGE_SHIFT)
#define UVM_PT_ENTRIES (UINT32_C(1) << GMMU_PT_IDX_W)
#define UVM_PT_IDX_MASK ((UINT64_C(1) << GMMU_PT_IDX_W) - 1u)
#define UVM_VPN_LIMIT (UINT64_C(1) << GMMU_VPN_W)
#define UVM_VA_LIMIT (UINT64_C(1) << GMMU_VA_W)
#define UVM_PA_LIMIT (UINT64_C(1) << GMMU_PA_W)
/* Address spaces (docs/handler.md "Address spaces"): the handler keeps a page of ASID a as the
 * extended VPN a << UVM_ASID_VPN_SHIFT | vpn (an allocation at the extended VA a << GMMU_VA_W |
 * va); ASID 0's pages are the plain VPNs. */
#define UVM_ASID_VPN_SHIFT GMMU_VPN_W
#define UVM_SPACES (UINT32_C(1) << GMMU_FB_ASID_W)
static inline uint32_t uvm_vpn_asid(uint64_t xvpn) {
    return (uint32_t)(xvpn >> UVM_ASID_VPN_SHIFT) & (UVM_SPACES - 1u);
}
#define UVM_BLOCK_SHIFT (GMMU_LARGE_SHIFT - GMMU_PAGE_SHIFT) /* VPN bits inside a 2 MB block */
#define UVM_BLOCK_PAGES (UINT32_C(1) << UVM_BLOCK_SHIFT)
#define UVM_FB_WORDS (GMMU_FB_ENTRY_BYTES / 4u)
#define UVM_BIG_PAGES 16u /* 4 KB pages per 64 KB big page (nvidia-uvm's UVM_BIG_PAGE_SIZE) */
#define UVM_PTE_PPN_MASK                                                                           \
    (((UINT64_C(1) << (GMMU_PTE_PPN_MSB + 1u)) - 1u) & ~((UINT64_C(1) << GMMU_PTE_PPN_LSB) - 1u))

/* Register bit masks, from the [bits] section of spec/gmmu.toml. */
#define UVM_FB_STATUS_OVERFLOW (UINT32_C(1) << GMMU_BIT_FB_STATUS_OVERFLOW)
#define UVM_CMD_STATUS_BUSY (UINT32_C(1) << GMMU_BIT_CMD_STATUS_BUSY)
#define UVM_INT_ENABLE_FAULT (UINT32_C(1) << GMMU_BIT_INT_FAULT)
#define UVM_INT_ENABLE_OVERFLOW (UINT32_C(1) << GMMU_BIT_INT_OVERFLOW)
/* Spin budget while waiting for a command to finish or a fault entry to become valid. */
#define UVM_CMD_POLL_MAX 100000u
#define UVM_ENTRY_POLL_MAX 16u
#define UVM_ENTRY_POLL_NS 100u

#define UVM_NONE UINT32_MAX

/* ---- managed allocations ---- */
typedef struct {
    char *name;
    uint64_t base, size;
    bool readonly;
} uvm_alloc_t;

/* ---- one GPU data frame ---- */
typedef struct {
    uint64_t vpn;       /* page held (valid when resident) */
    uint64_t mig_seq;   /* migration order: smaller = older */
    uint64_t mig_ns;    /* simulated time of the migration, for diagnostics */
    uint64_t access_ns; /* last GPU access (the platform's oracle; mig_ns until one) */
    uint64_t accesses;  /* GPU accesses since the migration (the platform's oracle; lfu) */
    uint64_t next_use;  /* position of the page's next use in the trace (optimal's oracle) */
    uint64_t pin_block; /* == h->block_gen while serviced in the current block */
    bool resident;
    bool writable;
    bool dirty; /* writeback = dirty: the leaf's DRT when it was unmapped (§6r) */
    /* count_unused (§6z): brought in by a prefetcher (not faulted); a GPU access seen since the
     * migration (the access oracle, a clock ACC clear, or the leaf's ACC read at the unmap) */
    bool prefetched, used;
} uvm_frame_t;

/* ---- a coalesced fault of the current batch ---- */
typedef struct {
    uint64_t vpn;
    uint64_t timestamp; /* earliest */
    uint32_t sm_mask;   /* union */
    uint32_t count;     /* entries coalesced into this one */
    uint8_t fault_type; /* of the first entry */
    uint8_t access;     /* most intrusive */
    uint8_t client;     /* of the first entry */
    bool ro_violation;  /* any entry had FT_RO_VIOLATION */
} uvm_fault_t;

/* ---- a page migration of the current block (uvm_migrate.c) ---- */
typedef struct {
    uint64_t vpn;
    uint64_t dma; /* handle of the transfer carrying it (shared by a multi-page run) */
    uint32_t frame;
    bool writable;
    bool run_head;   /* first page of its transfer: the commit waits for dma here */
    bool prefetched; /* grown or hinted, never faulted: no replay (page_done) for it */
} uvm_pending_t;

/* ---- per-2 MB VA block (uvm_va_block.c), what uvm_va_block_t is to nvidia-uvm ---- */
#define UVM_BLOCK_WORDS (UVM_BLOCK_PAGES / 64u)
typedef struct uvm_va_block {
    uint64_t id;                           /* vpn >> UVM_BLOCK_SHIFT */
    uint64_t resident[UVM_BLOCK_WORDS];    /* page has a GPU frame and a valid leaf PTE */
    uint64_t faulted[UVM_BLOCK_WORDS];     /* pages faulted in the batch being serviced */
    uint32_t frame[UVM_BLOCK_PAGES];       /* frame index, valid when resident */
    uint32_t fault_count[UVM_BLOCK_PAGES]; /* serviced faults (coalesced entries count once) */
    uint64_t last_fault[UVM_BLOCK_PAGES];  /* device timestamp of the latest fault */
    void *policy_priv[UVM_POLICY_KINDS];   /* per-policy private state (malloc'ed; freed with it) */
    uint64_t read_mostly[UVM_BLOCK_WORDS]; /* advise read_mostly (§6o) */
    uint64_t wfault[UVM_BLOCK_WORDS];      /* read-mostly pages write-faulted in this batch */
    uint64_t pref_gpu[UVM_BLOCK_WORDS];    /* advise preferred_location=gpu: evicted last */
    uint64_t pref_host[UVM_BLOCK_WORDS];   /* advise preferred_location=host: evicted first */
    uint64_t remote[UVM_BLOCK_WORDS];      /* mapped remotely on its host copy (§6l), no frame */
    uint64_t
        accessed_by[UVM_BLOCK_WORDS]; /* advise accessed_by: mapped remotely when not resident */
    bool large; /* mapped by a 2 MB PTE: a 2m page, or coalesced (cocoa) (docs/handler.md §6f) */
    bool gpu_state; /* serviced on the GPU once: its first-touch cost is paid (t_block_first_ns) */
} uvm_va_block_t;

/* ---- policy interfaces (uvm_policy.c holds the registry) ---- */
typedef struct {
    const char *name;
    /* after a page of the block is mapped or found already resident (stale) */
    void (*page_done)(uvm_handler_t *h, uint64_t vpn);
    /* after each serviced batch; sets *replay_all_owed when a REPLAY_ALL is due at the end */
    void (*batch_done)(uvm_handler_t *h, bool *replay_all_owed);
} uvm_replay_ops_t;

typedef struct {
    const char *name;
    int (*init)(uvm_handler_t *h, void **priv); /* 0 or -1 (out of memory) */
    void (*fini)(void *priv);
    /* the policy's state is kept from events (docs/handler.md §6i): the kinds it observes
     * (UVM_EVENT_MASK bits, 0: none) and its observer, subscribed by uvm_handler_new with ctx =
     * priv; RESIDENT = a page got a frame (append), NONRESIDENT = it lost it (unlink),
     * BLOCK_FAULT with resident = a fault on a resident page (access) */
    uint32_t events;
    uvm_event_fn_t observe;
    /* first frame of an aligned victim group of gran_pages (power of two <= 512) frames holding
     * a resident page and no pinned one; UVM_NONE if none (uvm_evict.c) */
    uint32_t (*pick)(uvm_handler_t *h, void *priv, uint32_t gran_pages);
    /* true: the policy evicts whole root chunks (nvidia, §6.1): the loop asks pick for groups of
     * max(pages, cfg.evict_chunk_pages) frames and evicts every resident page of the group, a
     * VA block at a time; false: the group asked for (1 page, or a 2 MB chunk) */
    bool root_chunks;
    /* optional (tbne, §6y): the victim as a set of frames in several VA ranges, for a single
     * frame at evict_granularity 1: writes up to UVM_BLOCK_PAGES frames of resident pages, none
     * pinned, in VA order and returns their number (0: none); NULL: pick alone */
    uint32_t (*pick_set)(uvm_handler_t *h, void *priv, uint32_t *frames);
} uvm_evict_ops_t;

/* What a prefetch policy sees of the block being serviced (docs/handler.md §6a). Page indices
 * are block-relative (0..511); the block is 2 MB aligned in VA. */
typedef struct {
    const uvm_va_block_t *blk; /* resident bitmap, frames, per-page fault counts and times */
    /* pages faulted in this batch that are not resident: they migrate on demand */
    const uint64_t *faulted;
    /* pages inside a managed allocation (the others can never be migrated) */
    const uint64_t *managed;
    uint64_t now_ns;        /* simulated time (dev.now_ns, 0 if the device has none) */
    uint64_t seed;          /* the run's seed (cfg.seed) */
    uint64_t irq_h2d_bytes; /* link state: bytes submitted H2D since this interrupt began */
    uint64_t irq_start_ns;  /* link state: when this interrupt began */
    void *priv;             /* the policy's handler-wide state (init), NULL if none */
} uvm_prefetch_ctx_t;

/* What an allocation-wide prefetch policy sees of the fault batch just serviced. */
typedef struct {
    uint64_t last_vpn; /* the batch's last serviced fault (in arrival order: the latest) */
    bool any_fault;    /* false: the batch had no serviceable fault (last_vpn meaningless) */
    void *priv;        /* the policy's handler-wide state (init), NULL if none */
    /* pipelined sets (§6m): locality fills a set whose window is exhausted in VA-sequential
     * order, as the paper's locality prefetcher does (false in batch mode: unchanged) */
    bool fill_sequential;
} uvm_alloc_hint_ctx_t;

#define UVM_TS_CAP (2u * UVM_BLOCK_PAGES) /* pages of pipelined sets in flight, at most */
/* The pipelined transfer set in flight (cfg.transfer_sets = pipelined, uvm_prefetch_pipe.c). */
typedef struct {
    uvm_pending_t *pending; /* UVM_TS_CAP entries: the pages in flight in submission order */
    uint32_t n;             /* entries used (0: nothing in flight) */
    uint32_t mapped;        /* entries [0, mapped) mapped (a run's pages together, in order) */
    uint64_t last_vpn;      /* the latest serviceable fault seen: the locality/random anchor */
    bool any_fault;
} uvm_ts_pipe_t;

typedef struct {
    const char *name;
    /* optional handler-wide state: init 0 or -1 (out of memory); fini frees it */
    int (*init)(uvm_handler_t *h, void **priv);
    void (*fini)(void *priv);
    /* pages of the block to migrate besides c->faulted: sets bits in hint. The service drops
     * hinted pages that are faulted, resident or outside every allocation. */
    void (*hint)(uvm_handler_t *h, const uvm_prefetch_ctx_t *c, uint64_t hint[UVM_BLOCK_WORDS]);
    /* optional allocation-wide hook (docs/handler.md §6d), called once per fault batch after
     * its demand pages were migrated: writes up to max VPNs (anywhere in the managed
     * allocations, in the order to migrate) into vpns and returns their number. The service
     * skips VPNs that are resident or outside every allocation. */
    uint32_t (*alloc_hint)(uvm_handler_t *h, const uvm_alloc_hint_ctx_t *c, uint64_t *vpns,
                           uint32_t max);
} uvm_prefetch_ops_t;

/* uvm_prefetch.c: the prefetch policies of the registry */
extern const uvm_prefetch_ops_t uvm_prefetch_none_ops;
extern const uvm_prefetch_ops_t uvm_prefetch_nvidia_ops;
extern const uvm_prefetch_ops_t uvm_prefetch_tbn_ops;
extern const uvm_prefetch_ops_t uvm_prefetch_seq_local_ops;
extern const uvm_prefetch_ops_t uvm_prefetch_random_local_ops;
/* uvm_prefetch_zheng.c: Zheng et al.'s allocation-wide prefetchers with transfer sets */
extern const uvm_prefetch_ops_t uvm_prefetch_random_ops;
extern const uvm_prefetch_ops_t uvm_prefetch_sequential_ops;
extern const uvm_prefetch_ops_t uvm_prefetch_locality_ops;
extern const uvm_prefetch_ops_t uvm_prefetch_oracle_ops;
/* Zheng's locality prefetcher: the pages after the last fault */
#define UVM_PREFETCH_LOCALITY_PAGES 128u
/* nvidia-uvm's threshold: a subtree is filled when more than this % of it is resident/faulted */
#define UVM_PREFETCH_NVIDIA_THRESHOLD 51u
/* Sets in out the grow_pages-aligned groups of the pages of in, restricted to managed pages. */
void uvm_prefetch_grow(const uint64_t *in, const uint64_t *managed, uint32_t grow_pages,
                       uint64_t out[UVM_BLOCK_WORDS]);

/* Thrashing mitigation (nvidia-uvm's uvm_perf_thrashing, docs/handler.md §6i). */
typedef enum { UVM_THRASH_NONE = 0, UVM_THRASH_THROTTLE = 1, UVM_THRASH_PIN = 2 } uvm_thrash_type_t;
typedef struct {
    uvm_thrash_type_t type;
    /* THROTTLE: the page's faults are not serviced before this time (ns; the fault stays for a
     * later replay); PIN: the page, once resident, is not evicted before this time */
    uint64_t until_ns;
} uvm_thrash_hint_t;
typedef struct {
    const char *name;
    /* optional handler-wide state: init 0 or -1 (out of memory); fini frees it */
    int (*init)(uvm_handler_t *h, void **priv);
    void (*fini)(void *priv);
    /* detection from events: the kinds observed (0: none) and the observer (ctx = priv) */
    uint32_t events;
    uvm_event_fn_t observe;
    /* the decision, asked for each faulting page that is not resident (as the driver asks
     * uvm_perf_thrashing_get_hint after the "already authorized" check) */
    uvm_thrash_hint_t (*get_hint)(uvm_handler_t *h, void *priv, uint64_t vpn);
} uvm_thrashing_ops_t;

/* uvm_evict.c: the eviction policies of the registry */
extern const uvm_evict_ops_t uvm_evict_lru_ops;
extern const uvm_evict_ops_t uvm_evict_random_ops;
/* uvm_evict_fifo.c: VA blocks in order of first residency (nvidia-uvm's root-chunk order) */
extern const uvm_evict_ops_t uvm_evict_fifo_ops;
/* uvm_evict_nvidia.c: the driver's root chunks, FIFO by allocation/first residency (§6.1) */
extern const uvm_evict_ops_t uvm_evict_nvidia_ops;
/* uvm_evict_oracle.c: lru by the last GPU access, from the platform's oracle (§6.1) */
extern const uvm_evict_ops_t uvm_evict_lru_oracle_ops;
/* uvm_evict_lfu.c: the fewest GPU accesses since migration, from the platform's oracle (§6p) */
extern const uvm_evict_ops_t uvm_evict_lfu_ops;
/* uvm_evict_optimal.c: Belady's farthest next use, from the trace read ahead (§6t) */
extern const uvm_evict_ops_t uvm_evict_optimal_ops;
extern const uvm_evict_ops_t uvm_evict_clock_ops;
/* uvm_evict_tbne.c: UVMSmart's tree-based neighbourhood eviction (§6y); its victims' frames */
extern const uvm_evict_ops_t uvm_evict_tbne_ops;
uint32_t uvm_evict_tbne_victims(uvm_handler_t *h, uint32_t *frames);
/* uvm_evict.c: the first frame of an aligned group of gran_pages frames starting at g that
 * holds a resident page and no pinned one can be a victim (a power of two <= 512) */
bool uvm_evict_group_ok(const uvm_handler_t *h, uint32_t g, uint32_t gran_pages);
bool uvm_evict_gran_valid(uint32_t gran_pages);
/* uvm_evict_oracle.c: the scan of lru_oracle and lfu: the first resident frame that no other
 * resident frame is `less` than, not pinned (gran 1) or whose group uvm_evict_group_ok accepts;
 * the group's first frame, or UVM_NONE. And the init / fini of a policy without state. */
typedef bool (*uvm_frame_less_fn)(const uvm_frame_t *a, const uvm_frame_t *b);
uint32_t uvm_evict_scan_pick(uvm_handler_t *h, uint32_t gran_pages, uvm_frame_less_fn less);
int uvm_evict_stateless_init(uvm_handler_t *h, void **priv);
void uvm_evict_stateless_fini(void *priv);
/* uvm_thrashing.c: the thrashing policies of the registry */
extern const uvm_thrashing_ops_t uvm_thrashing_none_ops;
/* uvm_thrashing_nv.c: nvidia-uvm's detection (docs/handler.md §6j) and its capacity variant */
extern const uvm_thrashing_ops_t uvm_thrashing_nvidia_ops;
extern const uvm_thrashing_ops_t uvm_thrashing_capacity_ops;
/* processors of the thrashing detection: the GPU and the CPU (bit numbers of a mask) */
enum { UVM_PROC_GPU = 0, UVM_PROC_CPU = 1 };
typedef struct {
    uint32_t threshold, pin_threshold;           /* events; throttles */
    uint64_t lapse_ns, nap_ns, epoch_ns, pin_ns; /* pin_ns 0: pinned for ever */
    uint32_t max_resets;
} uvm_thrash_nv_params_t;
typedef struct uvm_thrash_nv uvm_thrash_nv_t;
/* The parameters of the thrashing_* keys (nap, epoch and pin in lapses -> ns). */
uvm_thrash_nv_params_t uvm_thrash_nv_params(const uvm_cfg_t *c);
/* The detection state; capacity: evictions are events of the CPU; counts into stats
 * (num_thrashing, num_throttle, num_pin); h: the clock of the observer (may be NULL). */
uvm_thrash_nv_t *uvm_thrash_nv_new(const uvm_thrash_nv_params_t *prm, bool capacity,
                                   uvm_stats_t *stats, const uvm_handler_t *h);
void uvm_thrash_nv_free(uvm_thrash_nv_t *t);
/* thrashing_event_cb: pages vpn.. became resident on processor proc at time now (ns). */
void uvm_thrash_nv_event(uvm_thrash_nv_t *t, uint64_t vpn, uint32_t pages, int proc, uint64_t now);
/* thrashing_reset_pages_in_region: pages vpn.. forget their history (a user call moved them). */
void uvm_thrash_nv_reset(uvm_thrash_nv_t *t, uint64_t vpn, uint32_t pages);
/* uvm_perf_thrashing_get_hint for page vpn faulting on processor req at time now. */
uvm_thrash_hint_t uvm_thrash_nv_hint(uvm_thrash_nv_t *t, uint64_t vpn, int req, uint64_t now);

/* Registered policy of kind by name (the ops struct of that kind), NULL if unknown. */
const void *uvm_policy_find(uvm_policy_kind_t kind, const char *name);

/* uvm_pmm.c: the chunked frame allocator (4 KB, 64 KB, 2 MB chunks of frame indices) */
typedef enum {
    UVM_CHUNK_4K = 0,
    UVM_CHUNK_64K = 1,
    UVM_CHUNK_2M = 2,
    UVM_CHUNK_CLASSES = 3
} uvm_chunk_size_t;
typedef struct {
    uint32_t frames;                    /* managed frames [0, frames) */
    uint32_t *stack[UVM_CHUNK_CLASSES]; /* free chunks (first frame), top = next candidate */
    uint32_t n[UVM_CHUNK_CLASSES];
    uint64_t *free_map; /* bit per frame: free */
    uint32_t nfree;     /* free frames */
} uvm_pmm_t;
uint32_t uvm_chunk_frames(uvm_chunk_size_t c);   /* 1, 16, 512; 0 if out of range */
int uvm_pmm_init(uvm_pmm_t *p, uint32_t frames); /* 0 or -1 (out of memory; call uvm_pmm_fini) */
void uvm_pmm_fini(uvm_pmm_t *p);
/* First frame of a free chunk of class c (split or lazily merged as needed); UVM_NONE if none. */
uint32_t uvm_pmm_alloc(uvm_pmm_t *p, uvm_chunk_size_t c);
/* Returns a chunk allocated with class c; -1 (nothing changed) if misaligned, out of range, or
 * any of its frames is already free. */
int uvm_pmm_free(uvm_pmm_t *p, uint32_t first, uvm_chunk_size_t c);

/* CoCoA (docs/handler.md §6f): 2 MB frames (free 2 MB chunks of the allocator) reserved for one
 * 2 MB VA region of one address space; a page of the region goes to the frame at its offset. */
#define UVM_COCOA_NONE UINT64_MAX
typedef struct {
    u64map_t chunk_of; /* uvm_cocoa_key(asid, vpn) -> chunk (first frame / 512) */
    uint64_t *owner;   /* per chunk: the key owning it, UVM_COCOA_NONE if not reserved */
    uint32_t *used;    /* per chunk: resident frames in it (of its region or borrowed) */
    uint32_t nchunks;
    uint32_t *emerg; /* the emergency free-frame list (compaction destinations only) */
    uint32_t nemerg;
} uvm_cocoa_t;
int uvm_cocoa_init(uvm_cocoa_t *c, uint32_t frames); /* 0 or -1 (out of memory; call fini) */
void uvm_cocoa_fini(uvm_cocoa_t *c);
/* The plain VPN (below UVM_VPN_LIMIT) of an extended VPN. */
static inline uint64_t uvm_vpn_plain(uint64_t xvpn) {
    return xvpn & (UVM_VPN_LIMIT - 1u);
}
static inline uint64_t uvm_cocoa_key(uint32_t asid, uint64_t vpn) {
    return ((uint64_t)asid << 40) | (vpn >> (GMMU_LARGE_SHIFT - GMMU_PAGE_SHIFT));
}
/* The CoCoA key of the region of extended VPN xvpn. */
static inline uint64_t uvm_cocoa_xkey(uint64_t xvpn) {
    return uvm_cocoa_key(uvm_vpn_asid(xvpn), uvm_vpn_plain(xvpn));
}
/* First frame of the 2 MB frame reserved for key, reserving a free 2 MB chunk of p if it has
 * none. UVM_NONE if none (no free 2 MB chunk). */
uint32_t uvm_cocoa_chunk(uvm_cocoa_t *c, uvm_pmm_t *p, uint64_t key);
/* First frame of the 2 MB frame reserved for key, UVM_NONE if it has none. */
uint32_t uvm_cocoa_lookup(const uvm_cocoa_t *c, uint64_t key);
/* true if frame f lies in a reserved 2 MB frame. */
bool uvm_cocoa_reserved(const uvm_cocoa_t *c, uint32_t f);
/* A frame of a reserved chunk became resident / stopped being resident; when the last resident
 * frame of a chunk goes, the chunk returns to p (its region loses the reservation). */
void uvm_cocoa_use(uvm_cocoa_t *c, uint32_t f);
void uvm_cocoa_unuse(uvm_cocoa_t *c, uvm_pmm_t *p, uint32_t f);
/* The placement of the handler's pages (uvm_place.h). */
typedef struct uvm_place_ops uvm_place_ops_t;

typedef struct {
    uvm_event_fn_t fn;
    void *ctx;
    uint32_t mask;
} uvm_observer_t;
/* the statistics, the eviction and thrashing policies, DynaMap's (§6x) (and a test's), then the
 * public ones */
#define UVM_EVENT_INTERNAL_OBSERVERS 5u
#define UVM_EVENT_TABLE (UVM_EVENT_INTERNAL_OBSERVERS + UVM_EVENT_MAX_OBSERVERS)

struct uvm_handler {
    uvm_cfg_t cfg;
    uvm_dev_t dev;
    uvm_stats_t stats;
    /* the page being migrated was faulted (not prefetched): when every frame is pinned by
     * thrashing, uvm_migrate_backing may drop the first-ending pin (§6i) */
    bool unpin_for_demand;

    uvm_alloc_t *allocs; /* sorted by base, non-overlapping */
    size_t nallocs, allocs_cap;

    /* policies, from the registry by cfg.policy[] names */
    const uvm_replay_ops_t *replay;
    const uvm_evict_ops_t *evict;
    void *evict_priv;
    const uvm_prefetch_ops_t *prefetch;
    void *prefetch_priv;
    const uvm_thrashing_ops_t *thrashing;
    /* placement, chosen by the page-size keys (uvm_place_select) */
    const uvm_place_ops_t *place;
    void *thrashing_priv;
    /* the cause of the evictions being done (EVICT events): CAPACITY but inside
     * uvm_handler_to_host / uvm_handler_cpu_fault */
    uvm_evict_cause_t evict_cause;
    /* THROTTLE hints acted on in the batch being serviced (a REPLAY_ALL is owed) */
    uint32_t throttled;
    /* pages pinned by a PIN hint: xvpn -> until (ns); empty with thrashing none */
    u64map_t thrash_pin;

    /* event observers: the statistics (0), the policies (uvm_event_subscribe_internal), then
     * those of uvm_handler_subscribe (npublic of them) */
    uvm_observer_t observers[UVM_EVENT_TABLE];
    uint32_t nobservers, npublic;

    /* device state mirrored by the handler */
    bool initialized;
    uint32_t get; /* cached FB_GET */

    /* page tables: pool [gpu_pt_base_pa, + gpu_pt_pages pages), bump-allocated, page 0 = root of
     * ASID 0; the roots of the other ASIDs in use come next (uvm_pt_root_add) */
    uint64_t pt_next;
    u64map_t pt_tables; /* key (level << 40) | (xvpn >> (36 - 9*level)) -> table PA, levels 1..3
                           (the extended VPN keeps the ASIDs' tables apart) */
    uint64_t pt_root[UVM_SPACES];    /* root table PA of each ASID (valid where pt_has_root) */
    uint8_t pt_has_root[UVM_SPACES]; /* the ASID has a root (a PA may be 0: the board's pool) */
    uint32_t spaces;                 /* highest ASID of an allocation + 1 (>= 1) */

    /* data frames */
    uvm_frame_t *frames;
    uvm_pmm_t pmm;     /* free frames, in chunks */
    uvm_cocoa_t cocoa; /* CoCoA reservations (the cocoa placements) */
    u64map_t blocks;   /* VA block id -> uvm_va_block_t * */
    /* the oracle prefetcher's input (uvm_handler_set_page_order): pages in first-touch order,
     * and vpn -> index in it */
    uint64_t *page_order;
    size_t npage_order;
    u64map_t page_pos;
    uint64_t mig_seq;
    uint64_t block_gen;
    /* transfer_sets_full = evict (§6p.5): while a transfer set evicts, frames assigned in the
     * batch (pin_block >= pin_floor) are pinned too; 0: off */
    uint64_t pin_floor;

    /* per-batch / per-block scratch */
    uvm_fault_t *batch;     /* batch_size raw-then-coalesced faults */
    uvm_pending_t *pending; /* pending_cap: UVM_BLOCK_PAGES, or a batch's worth (copy_wait batch) */
    uint32_t npending, pending_cap;
    uint32_t run_start, run_len;          /* open multi-page run: pending[run_start, +run_len) */
    uint64_t irq_h2d_bytes, irq_start_ns; /* link state of the interrupt being serviced */
    uvm_ts_pipe_t ts;                     /* pipelined transfer sets (§6m) */
    /* preferred locations (§6o): pages advised (0: no eviction rounds), and the round of the
     * victim search in progress (uvm_frame_pinned spares pages by it) */
    uint64_t pref_pages;
    uint32_t evict_round;
    /* Li & Chapman's object placement (§6s, uvm_lc_run.c): NULL until the first launch */
    struct uvm_lc *lc;
    /* the GMMU's referenced-line bitmap table (docs/handler.md §6x.2, uvm_bmp.c): GPU PA of its
     * first word, first page and pages; bmp_pages = 0: no table */
    uint64_t bmp_base, bmp_vpn0;
    uint32_t bmp_pages;
    /* DynaMap's placement (§6x, uvm_dynamap.c): NULL unless remote_policy static_map / dynamap */
    struct uvm_dyn *dyn;
    /* DynaMap's LazyPgStatSW / LazyPgDynSW (§6x.4, uvm_lazypg.c): NULL unless remote_policy
     * lazy_pg_stat_sw / lazy_pg_dyn_sw */
    struct uvm_lazy *lazy;
    /* the access-counter service (§6w.1, uvm_acc_svc.c): NULL unless remote_policy lazy_grp_hw */
    struct uvm_acc_svc *acc;
};

/* uvm_log.c: diagnostics (the device's log callback) */
void uvm_logf(const uvm_handler_t *h, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* uvm_dev_cmd.c: registers and commands */
uint32_t uvm_csr_rd(const uvm_handler_t *h, uint32_t addr);
void uvm_csr_wr(const uvm_handler_t *h, uint32_t addr, uint32_t value);
/* Polls CMD_STATUS until BUSY is clear; false (and a log line) if it never clears. */
bool uvm_cmd_wait_idle(const uvm_handler_t *h);
/* Issues a command (poll idle, [arguments], CMD); wait_done also polls until it completed. */
/* A command on the page xvpn (extended VPN: CMD_ARG = its VPN, CMD_ARG_HI.ASID = its ASID;
 * INVAL_PAGE with SCOPE = 1, only that ASID's page, once the handler has several ASIDs). */
void uvm_cmd(const uvm_handler_t *h, uint32_t opcode, bool has_arg, uint64_t vpn, bool wait_done);
/* uvm_pt.c: the roots of the address spaces */
/* *root = the root of the ASID of xvpn; false if that ASID has none (logged). */
bool uvm_pt_root(const uvm_handler_t *h, uint64_t xvpn, uint64_t *root);
/* Gives ASID asid a root table (once) and, if the device is initialized, programs it
 * (ASID_SEL = asid, PT_BASE_LO/HI, ASID_SEL = 0). 0, or -1 (pool exhausted, logged). */
int uvm_pt_root_add(uvm_handler_t *h, uint32_t asid);
/* uvm_dev_cmd.c: cancel and replay */
void uvm_cancel_page(uvm_handler_t *h, uint64_t vpn, const char *why);
void uvm_replay_page(uvm_handler_t *h, uint64_t vpn);
void uvm_replay_all(uvm_handler_t *h);
/* uvm_alloc.c: the allocation intersecting page vpn, NULL if none. */
const uvm_alloc_t *uvm_find_alloc(const uvm_handler_t *h, uint64_t vpn);
/* uvm_populate.c: the GPU frames a prefetch of [base, base + size) would need (its pages not
 * resident; a 2 MB region placed whole counts 512) and the free ones of its address space */
uint64_t uvm_prefetch_frames(const uvm_handler_t *h, uint64_t base, uint64_t size, uint64_t *nfree);
/* uvm_lc_run.c: the object placement's state freed (uvm_handler_free) */
void uvm_lc_release(uvm_handler_t *h);

/* uvm_events.c: the event stream */
void uvm_event_emit(uvm_handler_t *h, const uvm_event_t *ev);
/* Subscribes a handler-internal observer (the statistics, a policy with ctx = its priv); not
 * counted against UVM_EVENT_MAX_OBSERVERS. 0, or -1 (table full, bad arguments). */
int uvm_event_subscribe_internal(uvm_handler_t *h, uint32_t mask, uvm_event_fn_t fn, void *ctx);
/* The statistics observer (subscribed first by uvm_handler_new). */
void uvm_stats_observer(void *ctx, const uvm_event_t *ev);
/* Emission helpers: one call where the thing happens. */
void uvm_emit_migrate(uvm_handler_t *h, uvm_event_kind_t kind, uvm_dma_dir_t dir, uint64_t vpn,
                      uint32_t frame, uint32_t pages, uint64_t dma);
void uvm_emit_page(uvm_handler_t *h, uvm_event_kind_t kind, uint64_t vpn, uint32_t frame,
                   uint32_t pages, bool writable);
void uvm_emit_evict(uvm_handler_t *h, uint64_t vpn, uint32_t frame, uint32_t pages, bool wb);
void uvm_emit_batch(uvm_handler_t *h, uvm_event_kind_t kind, uint32_t index, uint32_t faults);
/* Subscribes the configured policies' observers (after the statistics). 0 or -1. */
int uvm_policy_subscribe(uvm_handler_t *h);
/* uvm_thrashing.c: acting on the thrashing policy's hint (docs/handler.md §6i) */
/* Start of a fault batch: no throttled fault yet; expired pins dropped. */
void uvm_thrash_batch(uvm_handler_t *h);
/* Asks the policy for a hint on the faulting, non-resident page vpn and acts on it: THROTTLE
 * -> true (the fault is not serviced in this batch, h->throttled counts it: a REPLAY_ALL is
 * owed); PIN -> the page is pinned (once resident, no victim) until the hint's time, false;
 * NONE -> false. */
bool uvm_thrash_act(uvm_handler_t *h, uint64_t vpn);
/* true if page xvpn is pinned by a PIN hint now (checked by uvm_frame_pinned). */
bool uvm_thrash_pinned(const uvm_handler_t *h, uint64_t vpn);
/* BLOCK_FAULT of the coalesced fault f (resident: the page has frame). */
void uvm_emit_block_fault(uvm_handler_t *h, const uvm_fault_t *f, bool resident, uint32_t frame);
/* Test hook (tb/unit): replaces the thrashing policy of a new handler (before any service) by
 * ops, e.g. one defined by the test; its init runs, its observer is subscribed. 0 or -1. */
int uvm_thrashing_set_ops(uvm_handler_t *h, const uvm_thrashing_ops_t *ops);

/* uvm_fault_buffer.c: the fault-buffer HAL (ring fetch, decode, flush) */
/* Decodes a 32-byte entry into *f; false if VALID is clear or the VPN is out of range. */
bool uvm_fb_decode(const uint8_t raw[GMMU_FB_ENTRY_BYTES], uvm_fault_t *f);
/* Fetches up to batch_size valid entries in [GET, put) into h->batch; writes FB_GET. */
uint32_t uvm_fb_fetch(uvm_handler_t *h, uint32_t put);
/* Drops every entry posted so far (clears VALID up to a fresh PUT, FB_GET = PUT). */
void uvm_fb_flush(uvm_handler_t *h);

/* uvm_pt.c: page tables */
uint64_t uvm_pt_page_pa(const uvm_handler_t *h, uint64_t index);
/* Allocates and zeroes one page-table page; false if the pool is exhausted. */
bool uvm_pt_alloc(uvm_handler_t *h, uint64_t *pa);
/* Number of table pages still missing on the walk path of vpn. */
uint32_t uvm_pt_missing(const uvm_handler_t *h, uint64_t vpn);
uint64_t uvm_pt_free_pages(const uvm_handler_t *h);
/* Builds the chain down to the level-3 table (on demand) and writes the leaf; charge = false
 * writes the PTEs without t_pte_ns of CPU time (populate). 0 or -1. Called by the placements'
 * map only (uvm_place.h; make check-style checks it), as the unmap below. */
int uvm_pt_map_charged(uvm_handler_t *h, uint64_t vpn, uint64_t frame_pa, bool writable,
                       bool charge);
/* Table pages still missing to map every page of [first, last] (VPNs, inclusive). */
uint64_t uvm_pt_missing_range(const uvm_handler_t *h, uint64_t first, uint64_t last);
/* Clears the leaf PTE of a mapped vpn (gpu_write64 0). */
void uvm_pt_unmap(uvm_handler_t *h, uint64_t vpn);
/* A remote leaf (docs/handler.md §6l): V, W = writable, APER, PPN = the page's host frame (its
 * VPN in its address space); REMOTE_MAP. 0, or -1 (a page-table chain could not be built). */
int uvm_pt_map_remote(uvm_handler_t *h, uint64_t vpn, bool writable, bool charge);
/* Clears the remote leaf of vpn (REMOTE_UNMAP); the caller shoots it down. */
void uvm_pt_unmap_remote(uvm_handler_t *h, uint64_t vpn);
/* the PA of vpn's level-3 entry; false if its leaf table does not exist */
bool uvm_pt_leaf_pa(const uvm_handler_t *h, uint64_t vpn, uint64_t *pa);
/* clock (§6r): true if page vpn's leaf has ACC, which is then cleared and the page invalidated */
bool uvm_place_clear_accessed(uvm_handler_t *h, uint64_t vpn);

/* uvm_va_block.c: per-2 MB VA blocks and page bitmaps */
static inline uint32_t uvm_block_page(uint64_t vpn) {
    return (uint32_t)(vpn & (UVM_BLOCK_PAGES - 1u));
}
static inline bool uvm_bitmap_test(const uint64_t *bm, uint32_t i) {
    return ((bm[i / 64u] >> (i % 64u)) & 1u) != 0;
}
static inline void uvm_bitmap_set(uint64_t *bm, uint32_t i) {
    bm[i / 64u] |= UINT64_C(1) << (i % 64u);
}
static inline void uvm_bitmap_clear(uint64_t *bm, uint32_t i) {
    bm[i / 64u] &= ~(UINT64_C(1) << (i % 64u));
}
uint32_t uvm_bitmap_count(const uint64_t *bm, uint32_t words);
/* Index of the first set bit >= from in a bitmap of nbits, or nbits if none. */
uint32_t uvm_bitmap_next(const uint64_t *bm, uint32_t nbits, uint32_t from);
int uvm_va_blocks_init(uvm_handler_t *h);
void uvm_va_blocks_free(uvm_handler_t *h);
/* The block of vpn; created (zeroed) if create and absent. NULL if absent or out of memory. */
uvm_va_block_t *uvm_va_block_get(uvm_handler_t *h, uint64_t vpn, bool create);
/* true (and *frame) if page vpn is resident. */
bool uvm_va_block_resident(const uvm_handler_t *h, uint64_t vpn, uint32_t *frame);
/* Records a serviced fault of page vpn at device time ts (count, last time, faulted bit). */
void uvm_va_block_fault(uvm_va_block_t *blk, uint64_t vpn, uint64_t ts);
/* Page vpn is advised read-mostly (docs/handler.md §6o). */
static inline bool uvm_read_mostly(const uvm_handler_t *h, uint64_t vpn) {
    uint64_t v = 0;
    if (!u64map_get(&h->blocks, vpn >> UVM_BLOCK_SHIFT, &v))
        return false;
    const uvm_va_block_t *blk = (const uvm_va_block_t *)(uintptr_t)v;
    return uvm_bitmap_test(blk->read_mostly, uvm_block_page(vpn));
}

/* Eviction rounds by preferred location (§6o): 1 = only pages preferred on the host may be
 * victims, 2 = every page but those preferred on the GPU, 0 = every page. */
enum { UVM_EVICT_ROUND_ALL = 0, UVM_EVICT_ROUND_HOST = 1, UVM_EVICT_ROUND_NOT_GPU = 2 };
/* Page vpn is spared by the victim search's current round (h->evict_round). */
static inline bool uvm_evict_spared(const uvm_handler_t *h, uint64_t vpn) {
    uint64_t v = 0;
    if (h->evict_round == UVM_EVICT_ROUND_ALL)
        return false;
    if (!u64map_get(&h->blocks, vpn >> UVM_BLOCK_SHIFT, &v))
        return h->evict_round == UVM_EVICT_ROUND_HOST;
    const uvm_va_block_t *blk = (const uvm_va_block_t *)(uintptr_t)v;
    const uint32_t page = uvm_block_page(vpn);
    return h->evict_round == UVM_EVICT_ROUND_HOST ? !uvm_bitmap_test(blk->pref_host, page)
                                                  : uvm_bitmap_test(blk->pref_gpu, page);
}

/* uvm_advise.c: memory advice, read duplication (docs/handler.md §6o) */
/* The writability of page vpn of allocation al when it migrates to the GPU: not a read-only
 * allocation, and not a read-mostly page unless a write faulted on it in this batch (a read of a
 * read-mostly page makes a read-only duplicate, the host copy staying valid). */
static inline bool uvm_page_writable(const uvm_handler_t *h, uint64_t vpn, const uvm_alloc_t *al) {
    if (al->readonly)
        return false;
    uint64_t v = 0;
    if (!u64map_get(&h->blocks, vpn >> UVM_BLOCK_SHIFT, &v))
        return true;
    const uvm_va_block_t *blk = (const uvm_va_block_t *)(uintptr_t)v;
    const uint32_t page = uvm_block_page(vpn);
    return !uvm_bitmap_test(blk->read_mostly, page) || uvm_bitmap_test(blk->wfault, page);
}
/* A GPU write faulted (RO violation) on resident page vpn in frame f mapped read-only of a
 * writable allocation: a read duplicate. Collapses it: the host copy is revoked (REVOCATION),
 * the PTE rewritten writable in place, the page's stale read-only translation shot down
 * (INVAL_PAGE). */
void uvm_dup_collapse(uvm_handler_t *h, uint64_t vpn, uint32_t f);
/* Forgets the advice of the pages [first, last] (their allocation was freed). */
void uvm_advise_forget(uvm_handler_t *h, uint64_t first, uint64_t last);

/* uvm_mem.c: frames and eviction */
uint64_t uvm_frame_pa(const uvm_handler_t *h, uint32_t frame);
int uvm_mem_init(uvm_handler_t *h);
void uvm_mem_free(uvm_handler_t *h);
bool uvm_frame_pinned(const uvm_handler_t *h, uint32_t frame);
bool uvm_frame_pinned_not_thrash(const uvm_handler_t *h, uint32_t frame);
/* Evicts the page of frame f: its whole 2 MB page if the placement evicts it whole (then
 * UVM_NONE), else the 4 KB page (a coalesced region split first): the placement's unmap, then
 * its writeback, then the frame leaves. Returns f if the caller holds the frame now (the
 * placement's frame_unuse kept it), UVM_NONE if it went back to its owner. */
uint32_t uvm_mem_evict(uvm_handler_t *h, uint32_t f);
/* uvm_unused.c (count_unused, §6z): frame f's page is evicted (before its residency drops; large:
 * as a page of a 2 MB page): counted if it had no GPU access since its migration; and a page
 * migrated into frame f (prefetched: by a prefetcher, not a fault) starts unused. */
void uvm_unused_evicted(uvm_handler_t *h, uint32_t f, bool large);
void uvm_unused_migrated(uvm_handler_t *h, uint32_t f, bool prefetched);
/* Before a page of blk is evicted or freed: if blk is one 2 MB page, the placement evicts it
 * whole (evict_large: true) or splits it (split: false, the 4 KB page goes next); false if blk
 * is NULL or not large. */
bool uvm_mem_evict_large(uvm_handler_t *h, uvm_va_block_t *blk);
/* Drops the residency of frame f (block bitmap, eviction policy, the placement's frame_unuse):
 * true if the frame went back to its owner, false if the caller still holds it. */
bool uvm_mem_unmake_resident(uvm_handler_t *h, uint32_t f);
/* Marks frame as holding vpn (resident, pinned in the current block, newest in LRU order). */
int uvm_frame_assign(uvm_handler_t *h, uint32_t frame, uint64_t vpn, bool writable);
/* Undoes uvm_frame_assign for a page that could not be mapped; the frame becomes free. */
void uvm_frame_release(uvm_handler_t *h, uint32_t frame);
/* uvm_dev_cmd.c: coalesce_by = gmmu (docs/microarch.md §15): the GMMU's COALESCE (or SPLINTER) of
 * the 2 MB region holding va_2m in address space asid; polls CMD_STATUS until BUSY clears. Returns
 * the CMD_STATUS.CO_ERR code (GMMU_CO_OK, GMMU_CO_NOT_MAPPED, GMMU_CO_NOT_CONTIG), or -1 if the
 * device stayed busy (logged). A coalesced region needs no TLB shoot-down; a splinter flushes
 * the region's large entries itself. */
int uvm_gmmu_coalesce(uvm_handler_t *h, uint32_t asid, uint64_t va_2m, bool splinter);

/* uvm_migrate.c: multi-page H2D migration of the current block */
/* MIGRATE_DONE of the run whose head is p[i] (pages up to the next run head of p[0..n)). */
void uvm_migrate_done_event(uvm_handler_t *h, const uvm_pending_t *p, uint32_t n, uint32_t i);
void uvm_migrate_begin(uvm_handler_t *h);
/* Charges t_page_ns and queues vpn -> frame; a run of consecutive pages and frames goes as one
 * DMA of up to cfg.migrate_max_pages pages, submitted as soon as it cannot grow. */
void uvm_migrate_add(uvm_handler_t *h, uint64_t vpn, uint32_t frame, bool writable);
/* End of a block: submits the open run; with copy_wait block, then waits for every DMA and maps
 * every page (uvm_migrate_flush); with copy_wait batch the copies stay in flight. */
void uvm_migrate_commit(uvm_handler_t *h);
/* Submits the open run, waits for every pending DMA, maps every pending page (replay policy's
 * page_done). The batch end calls it (a no-op with copy_wait block: nothing is pending). */
void uvm_migrate_flush(uvm_handler_t *h);
/* Starts the pin generation of a block (copy_wait block) or of a batch (copy_wait batch: the
 * frames of every block of the batch stay pinned until the batch's flush). */
void uvm_migrate_pin_block(uvm_handler_t *h);
void uvm_migrate_pin_batch(uvm_handler_t *h);
/* The one evict-and-retry loop: backing of `pages` frames (1: a frame for page vpn, the
 * placement's alloc_page; 512: a 2 MB chunk for vpn's region, its alloc_range) from the
 * placement; while it has none, the eviction policy picks a victim group of `pages` frames (never
 * a pinned one; the pipelined set in flight is drained first) and its resident pages are evicted
 * (a frame the placement hands back goes to the caller (1) or the allocator (512)). UVM_NONE if
 * no victim is left: every resident frame is pinned. */
uint32_t uvm_migrate_backing(uvm_handler_t *h, uint64_t vpn, uint32_t pages);
/* Pre-eviction (evict_reserve_pages, docs/handler.md §6u): evicts the eviction policy's victims
 * (groups of evict_granularity / a root chunk) until the allocator has evict_reserve_pages free
 * frames; counts them in reserve_evictions and the time in reserve_ns. Nothing when 0. */
void uvm_migrate_reserve(uvm_handler_t *h);
/* Takes a frame for vpn (evicting if needed; commits the block's pending pages first if every
 * frame is pinned) and queues its migration. false if no frame could be had (logged). */
bool uvm_migrate_page(uvm_handler_t *h, uint64_t vpn, const uvm_alloc_t *al);
/* Migrates the pages of set (block-relative bits of the block blk_id) in VPN order; a naturally
 * aligned 2 MB or 64 KB group wholly in set takes one chunk of consecutive frames when the
 * allocator has one (so it goes as one run). Every page of set is inside an allocation and not
 * resident. Pages not in demand count as prefetched (stats). Returns the pages queued. */
uint32_t uvm_migrate_set(uvm_handler_t *h, uint64_t blk_id, const uint64_t set[UVM_BLOCK_WORDS],
                         const uint64_t demand[UVM_BLOCK_WORDS]);

/* uvm_pt.c: large pages */
void uvm_pt_write(uvm_handler_t *h, uint64_t pa, uint64_t value); /* t_pte_ns, pte_writes */
/* A level-4 entry: V | W (writable) | PPN of frame_pa. */
uint64_t uvm_pt_leaf(uint64_t frame_pa, bool writable);
/* PA of the level-4 table of vpn's region and of its level-3 entry; false if not built. */
bool uvm_pt_region(const uvm_handler_t *h, uint64_t vpn, uint64_t *table, uint64_t *parent);
/* Maps vpn's 2 MB region as one large page at chunk_pa (2 MB aligned): builds the chain, entry 0
 * of the level-4 table = V | W | D | chunk_pa, then the level-3 entry = V | L | table; charge =
 * false writes the PTEs without t_pte_ns of CPU time (populate). 0 or -1. The 2m placement's
 * map of a region. */
int uvm_pt_map_large_charged(uvm_handler_t *h, uint64_t vpn, uint64_t chunk_pa, bool writable,
                             bool charge);

/* uvm_large.c: page-size modes (docs/handler.md §6f) */
/* The region of vpn can be one large page: it holds managed pages, all of one writability
 * (*writable). */
bool uvm_large_region_ok(const uvm_handler_t *h, uint64_t vpn, bool *writable);
/* The 2m placement: migrates and maps the whole region of vpn (one 2 MB DMA, one large PTE); false
 * if no 2 MB frame could be had (logged). */
bool uvm_large_migrate(uvm_handler_t *h, uint64_t vpn, bool writable);
/* Makes block blk one large page in the free 2 MB chunk at frame first: every frame assigned,
 * the region's managed pages copied (one DMA per run, waited for), one 2 MB PTE; charge = false
 * (populate) charges no CPU time (t_page_ns, t_pte_ns). 0, or -1 (page-table chain: the chunk
 * is freed, nothing stays resident). */
int uvm_large_place(uvm_handler_t *h, uvm_va_block_t *blk, uint32_t first, bool writable,
                    bool charge);
/* Coalesces blk's region if it is not large and fully populated at its CoCoA offsets (the
 * cocoa placement's merge). */
void uvm_large_coalesce_full(uvm_handler_t *h, uvm_va_block_t *blk);
/* uvm_place.c: the placement's merge of blk (cocoa: uvm_large_coalesce_full), if it has one. */
void uvm_large_maybe_coalesce(uvm_handler_t *h, uvm_va_block_t *blk);
/* Evicts the 2 MB page of block blk whole through the placement's unmap and writeback (the 2m
 * placement's evict_large). */
void uvm_large_evict(uvm_handler_t *h, uvm_va_block_t *blk);
/* The 2m placement's unmap of a 2 MB page: entry 0 of the region's level-4 table cleared,
 * PAGE_UNMAPPED (512 pages), INVAL_PAGE of the region (waited for). */
void uvm_large_unmap(uvm_handler_t *h, uint64_t base);
/* The 2m placement's writeback of a 2 MB page at frame first: if writable, its managed runs
 * copied D2H (submitted, then waited for); true if it copied. */
bool uvm_large_writeback(uvm_handler_t *h, uint64_t base, uint32_t first);

/* uvm_compact.c: contiguity-aware compaction (docs/handler.md §6g) */
/* Takes cfg.emergency_frames frames for the emergency list (the cocoa placements' init). 0 or
 * -1. */
int uvm_compact_init(uvm_handler_t *h);
/* Compacts every CoCoA 2 MB frame of address space asid below cfg.compact_pct (the cocoa
 * placements' freed). */
void uvm_compact(uvm_handler_t *h, uint32_t asid);
/* Submits the open run (if any) as one DMA, without waiting. */
void uvm_migrate_submit(uvm_handler_t *h);

/* uvm_service.c */
void uvm_service_impl(uvm_handler_t *h);

/* uvm_transfer.c: migration sets outside the fault path, and the per-block room check */
/* State of the block being serviced (or prefetched into). */
typedef struct {
    uvm_va_block_t *blk; /* NULL if it could not be created (out of host memory) */
    bool pt_checked, pt_ok;
    /* deferred migration (a prefetch policy other than none, or growth): the faulted pages to
     * migrate are gathered in demand, then migrated with the grown and hinted ones in VPN order */
    bool defer;
    uint64_t demand[UVM_BLOCK_WORDS];
} uvm_blk_ctx_t;
/* Checks once per block that the PT pool holds the chain the block still needs (logged if not). */
bool uvm_block_pt_room(uvm_handler_t *h, uvm_blk_ctx_t *c, uint64_t vpn);
/* The latest serviceable fault of the batch's m coalesced faults (largest device timestamp). */
void uvm_batch_anchor(const uvm_handler_t *h, uint32_t m, uvm_alloc_hint_ctx_t *c);
/* Zheng's transfer set of up to max allocation-wide prefetch pages chosen by the policy with
 * context c, migrated per 2 MB block; pipe: only submitted (no wait, no map: the caller owns
 * h->pending). Returns the pages queued. */
uint32_t uvm_transfer_set(uvm_handler_t *h, const uvm_alloc_hint_ctx_t *c, uint32_t max, bool pipe);

/* uvm_prefetch_pipe.c: pipelined transfer sets (docs/handler.md §6m) */
/* Start of a batch: maps the pages of the set in flight whose copies completed; waits for the
 * whole set first if a fault of the batch (m coalesced faults) is one of its pages. */
void uvm_ts_pipe_batch(uvm_handler_t *h, uint32_t m);
/* End of a batch: records its latest fault; submits a set if none is in flight. */
void uvm_ts_pipe_after_batch(uvm_handler_t *h, uint32_t m);
/* uvm_migrate.c: the pipelined set in flight */
/* Maps at least min_runs runs of the set in flight (waiting for them), then every run whose copy
 * has completed (every run: all). An emptied set is reset. */
void uvm_ts_retire(uvm_handler_t *h, uint32_t min_runs, bool all);
/* Waits for every copy of the set in flight and maps its pages (before an eviction). */
void uvm_ts_pipe_drain(uvm_handler_t *h);
/* the copies' part of uvm_handler_wake_ns / uvm_handler_wake (uvm_handler.c, which adds the
 * timer of lazy_pg_*, §6x.4) */
uint64_t uvm_ts_wake_ns(const uvm_handler_t *h);
void uvm_ts_wake(uvm_handler_t *h);

#endif
