/*
 * plat_score_int.h - the scoreboard's state (cosim/plat_score.c only; moved out of the .c file
 * for its size limit). Not an API: plat_score.h is.
 */
#ifndef COSIM_PLAT_SCORE_INT_H
#define COSIM_PLAT_SCORE_INT_H

#include <stdint.h>

#include "plat_score.h"
#include "u64map.h"

typedef struct {
    uint64_t vpn0; /* VPN of entry 0 */
    uint8_t linked, level, large, asid;
} sc_page_t;

struct plat_score {
    const gpumem_t *gm;
    plat_score_env_t env;
    unsigned num_asids;
    int lru;
    int not_evictions; /* the current service frees memory: its unmaps are no evictions */
    int bloat;         /* page_size cocoa: 4 KB leaves of a region's bloat pages are legal */
    int dirty_only;    /* writeback = dirty: a clean (DRT = 0) unmapped page owes no write-back */
    uint64_t *shadow;  /* pt_pages * 512 words: the contribution of each linked page */
    sc_page_t *pg;
    uint8_t *dirty;
    uint32_t *dlist;
    size_t ndirty;
    uint32_t asid_sel, base_lo[256], base_hi[256];
    int64_t root[256]; /* linked root page of each ASID, -1 none */
    uint32_t arg_lo, arg_hi;
    u64map_t maps;    /* key -> value */
    u64map_t frames;  /* ppn -> ASID << 40 | VPN of the page it holds */
    u64map_t pending; /* ppn -> ASID << 40 | VPN | flags: lost its mapping, not yet invalidated */
    u64map_t epochs;  /* epoch -> resident 4 KB handler pages of it (lru check) */
    u64map_t bloatp;  /* (bloat mode) keys of mapped pages that were outside every allocation */
    u64map_t owed;    /* ppn -> ASID << 40 | VPN: a writable page unmapped from it, its write-back
                         (D2H) not yet submitted */
    u64map_t wbdone;  /* ppn -> ASID << 40 | VPN: a D2H submitted before the scoreboard saw the
                         page's unmap (a D = 1 leaf: no invalidate, no sync before the copy) */
    u64map_t pins;    /* ASID << 40 | VPN -> end (ns) of its thrashing pin (plat_score_pin.c) */
    uint64_t pin_now; /* the time of the service's start: pins ending later hold (lru check) */
    uint64_t epoch, min_epoch, in_service;
    uint64_t *fresh; /* keys mapped since the last tag check */
    size_t nfresh, capfresh;
    uint64_t *removed; /* values of 4 KB pages unmapped in the current sync (lru check) */
    size_t nremoved, capremoved;
    uint64_t *scr; /* scratch: keys collected during a map iteration */
    size_t nscr, capscr;
    int oom;
    plat_score_stats_t st;
};

/* plat_score_wb.c: the write-back rule (a writable page's D2H before its frame is reused).
 * Keys: ASID << 40 | VPN. unmap: the writable page `who` lost frame f (a write-back is owed
 * unless already submitted, or the page is outside every allocation); reuse: an H2D into f
 * (a violation "wb" if the write-back is still owed and the page's allocation still exists). */
void plat_score_wb_unmap(plat_score_t *s, uint64_t f, uint64_t who);
void plat_score_wb_reuse(plat_score_t *s, uint64_t f);
/* plat_score_pin.c: a page unmapped from epoch e while pages of the older epoch *oldest are
 * resident breaks lru's order unless every resident page older than e is pinned by a
 * thrashing PIN ending after pin_now (lru skips them, as the handler does): 1 (*oldest = the
 * oldest unpinned epoch) or 0. */
int plat_score_order_broken(const plat_score_t *s, uint64_t e, uint64_t *oldest);
/* The maps of the rules in plat_score_wb.c and plat_score_pin.c. */
void plat_score_wb_free(plat_score_t *s);

/* the shadow's keys and values (plat_score.c) */
#define SC_WORDS 512u
#define SC_PAGE (1ull << GMMU_PAGE_SHIFT)
#define SC_LARGE_PAGES 512u
#define SC_PPN_MASK ((1ull << 36) - 1u)
#define SC_BIT(n) (1ull << (n))
/* mapping keys: ASID << 40 | VPN, bit 63 for a 2 MB mapping (VPN of its first page) */
#define SC_KEY(asid, vpn) ((uint64_t)(asid) << 40 | (vpn))
#define SC_KEY_LARGE SC_BIT(63)
#define SC_KEY_VPN(k) ((k)&SC_PPN_MASK)
#define SC_KEY_ASID(k) ((unsigned)(((k) >> 40) & 0xffu))
/* mapping values: PPN | W << 36 | platform << 37 | epoch << 40 */
#define SC_VAL_W SC_BIT(36)
#define SC_VAL_PLAT SC_BIT(37)
#define SC_VAL_SYS SC_BIT(38) /* remote: a host frame (APER, docs/microarch.md §17) */
#define SC_VAL_EPOCH(v) ((v) >> 40)
#define SC_EPOCH_MAX ((1ull << 24) - 1u)
/* pending invalidates (frame -> ASID << 40 | VPN | flags) */
#define SC_PEND_LARGE SC_BIT(61)
#define SC_PEND_ISSUED SC_BIT(62)
#define SC_PEND_FLAGS (SC_PEND_LARGE | SC_PEND_ISSUED)

#endif
