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
#include "uvm_handler.h"

/* ---- derived geometry (from the generated constants) ---- */
#define UVM_PAGE_BYTES (UINT64_C(1) << GMMU_PAGE_SHIFT)
#define UVM_PT_ENTRIES (UINT32_C(1) << GMMU_PT_IDX_W)
#define UVM_PT_IDX_MASK ((UINT64_C(1) << GMMU_PT_IDX_W) - 1u)
#define UVM_VPN_LIMIT (UINT64_C(1) << GMMU_VPN_W)
#define UVM_VA_LIMIT (UINT64_C(1) << GMMU_VA_W)
#define UVM_PA_LIMIT (UINT64_C(1) << GMMU_PA_W)
#define UVM_BLOCK_SHIFT (GMMU_LARGE_SHIFT - GMMU_PAGE_SHIFT) /* VPN bits inside a 2 MB block */
#define UVM_BLOCK_PAGES (UINT32_C(1) << UVM_BLOCK_SHIFT)
#define UVM_FB_WORDS (GMMU_FB_ENTRY_BYTES / 4u)
#define UVM_PTE_PPN_MASK                                                                           \
    (((UINT64_C(1) << (GMMU_PTE_PPN_MSB + 1u)) - 1u) & ~((UINT64_C(1) << GMMU_PTE_PPN_LSB) - 1u))

/* Register bit masks, from the [bits] section of spec/gmmu.toml. */
#define UVM_FB_STATUS_OVERFLOW (UINT32_C(1) << GMMU_BIT_FB_STATUS_OVERFLOW)
#define UVM_CMD_STATUS_BUSY (UINT32_C(1) << GMMU_BIT_CMD_STATUS_BUSY)
#define UVM_INT_ENABLE_FAULT (UINT32_C(1) << GMMU_BIT_INT_FAULT)
#define UVM_INT_ENABLE_OVERFLOW (UINT32_C(1) << GMMU_BIT_INT_OVERFLOW)
#define UVM_CMD_ARG_HI_MASK ((UINT32_C(1) << (GMMU_VPN_W - 32u)) - 1u)

/* Field widths of word 7 (microarch §7 / docs/gen/regmap.md). */
#define UVM_F_FAULT_TYPE_MASK UINT32_C(0x1f)
#define UVM_F_CLIENT_MASK UINT32_C(0x7f)
#define UVM_F_ACCESS_MASK UINT32_C(0xf)

/* Spin budget while waiting for a command to finish or a fault entry to become valid. */
#define UVM_CMD_POLL_MAX 100000u
#define UVM_ENTRY_POLL_MAX 16u
#define UVM_ENTRY_POLL_NS 100u

#define UVM_NONE UINT32_MAX

/* ---- open-addressing hash map u64 -> u64 (keys != UINT64_MAX) ---- */
typedef struct {
    uint64_t *keys;
    uint64_t *vals;
    size_t cap; /* power of two */
    size_t count;
} uvm_map_t;

int uvm_map_init(uvm_map_t *m, size_t expected);
void uvm_map_free(uvm_map_t *m);
/* Returns true and sets *val if found. */
bool uvm_map_get(const uvm_map_t *m, uint64_t key, uint64_t *val);
/* Inserts or overwrites; 0 or -1 (out of memory). */
int uvm_map_put(uvm_map_t *m, uint64_t key, uint64_t val);
/* Removes key if present; returns true if it was present. */
bool uvm_map_del(uvm_map_t *m, uint64_t key);

/* ---- managed allocations ---- */
typedef struct {
    char *name;
    uint64_t base, size;
    bool readonly;
} uvm_alloc_t;

/* ---- one GPU data frame ---- */
typedef struct {
    uint64_t vpn;       /* page held (valid when resident) */
    uint64_t mig_seq;   /* migration order: smaller = older (LRU key) */
    uint64_t mig_ns;    /* simulated time of the migration, for diagnostics */
    uint64_t pin_block; /* == h->block_gen while serviced in the current block */
    uint32_t lru_prev, lru_next;
    bool resident;
    bool writable;
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

/* ---- a page migration in flight in the current block ---- */
typedef struct {
    uint64_t vpn;
    uint64_t dma;
    uint32_t frame;
    bool writable;
} uvm_pending_t;

struct uvm_handler {
    uvm_cfg_t cfg;
    uvm_dev_t dev;
    uvm_stats_t stats;

    uvm_alloc_t *allocs; /* sorted by base, non-overlapping */
    size_t nallocs, allocs_cap;

    /* device state mirrored by the handler */
    bool initialized;
    uint32_t get; /* cached FB_GET */

    /* page tables: pool [gpu_pt_base_pa, + gpu_pt_pages pages), bump-allocated, page 0 = root */
    uint64_t pt_next;
    uvm_map_t pt_tables; /* key (level << 40) | (vpn >> (36 - 9*level)) -> table PA, levels 1..3 */

    /* data frames */
    uvm_frame_t *frames;
    uint32_t *free_stack; /* free frame indices, top = lowest index */
    uint32_t nfree;
    uint32_t lru_head, lru_tail; /* resident frames in migration order (head = oldest) */
    uvm_map_t resident;          /* vpn -> frame index */
    uint64_t mig_seq;
    uint64_t block_gen;
    uint64_t rng;

    /* per-batch / per-block scratch */
    uvm_fault_t *batch;     /* batch_size raw-then-coalesced faults */
    uvm_pending_t *pending; /* UVM_BLOCK_PAGES */
    uint32_t npending;
};

/* uvm_handler.c: device access helpers */
void uvm_logf(const uvm_handler_t *h, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
uint32_t uvm_csr_rd(const uvm_handler_t *h, uint32_t addr);
void uvm_csr_wr(const uvm_handler_t *h, uint32_t addr, uint32_t value);
/* Polls CMD_STATUS until BUSY is clear; false (and a log line) if it never clears. */
bool uvm_cmd_wait_idle(const uvm_handler_t *h);
/* Issues a command (poll idle, [arguments], CMD); wait_done also polls until it completed. */
void uvm_cmd(const uvm_handler_t *h, uint32_t opcode, bool has_arg, uint64_t vpn, bool wait_done);
void uvm_cancel_page(uvm_handler_t *h, uint64_t vpn, const char *why);
void uvm_replay_page(uvm_handler_t *h, uint64_t vpn);
void uvm_replay_all(uvm_handler_t *h);
const uvm_alloc_t *uvm_find_alloc(const uvm_handler_t *h, uint64_t vpn);

/* uvm_pt.c: page tables */
uint64_t uvm_pt_page_pa(const uvm_handler_t *h, uint64_t index);
/* Allocates and zeroes one page-table page; false if the pool is exhausted. */
bool uvm_pt_alloc(uvm_handler_t *h, uint64_t *pa);
/* Number of table pages still missing on the walk path of vpn. */
uint32_t uvm_pt_missing(const uvm_handler_t *h, uint64_t vpn);
uint64_t uvm_pt_free_pages(const uvm_handler_t *h);
/* Builds the chain down to the level-3 table (on demand) and writes the leaf. 0 or -1. */
int uvm_pt_map(uvm_handler_t *h, uint64_t vpn, uint64_t frame_pa, bool writable);
/* Clears the leaf PTE of a mapped vpn (gpu_write64 0). */
void uvm_pt_unmap(uvm_handler_t *h, uint64_t vpn);

/* uvm_mem.c: frames, LRU and eviction */
uint64_t uvm_frame_pa(const uvm_handler_t *h, uint32_t frame);
int uvm_mem_init(uvm_handler_t *h);
void uvm_mem_free(uvm_handler_t *h);
/* Pops a free frame, or evicts a victim (never one pinned in the current block). UVM_NONE if
 * every resident frame is pinned: the caller commits its pending pages and retries. */
uint32_t uvm_frame_get(uvm_handler_t *h);
/* Marks frame as holding vpn (resident, pinned in the current block, newest in LRU order). */
int uvm_frame_assign(uvm_handler_t *h, uint32_t frame, uint64_t vpn, bool writable);
/* Undoes uvm_frame_assign for a page that could not be mapped; the frame becomes free. */
void uvm_frame_release(uvm_handler_t *h, uint32_t frame);

/* uvm_service.c */
void uvm_service_impl(uvm_handler_t *h);

#endif
