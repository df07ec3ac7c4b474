/*
 * uvm_acc.h - the access-counter notification buffer HAL of the handler (nvidia-uvm's
 * uvm_gpu_access_counters.c: parse entry, entry is valid, clear valid, fetch a batch; then expand
 * a notification's sub-region mask to pages and drop the stale ones). The ring is written by the
 * GMMU's access-counter unit, docs/microarch.md §19 (entry layout §19.4); docs/handler.md §6w.
 */
#ifndef UVM_ACC_H
#define UVM_ACC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gmmu_consts.h"
#include "uvm_dev.h"
#include "uvm_handler.h"

/* the driver's batch: at most this many notifications fetched per service */
#define UVM_ACC_BATCH_MAX 256u
/* pages of one notification at the largest granularity (16 MB) */
#define UVM_ACC_REGION_PAGES_MAX 4096u

/* One decoded notification (C365 layout, docs/microarch.md §19.4). */
typedef struct {
    uint64_t xvpn; /* the region's first page, extended VPN (asid << UVM_ASID_VPN_SHIFT | vpn) */
    uint32_t sub_mask; /* SUB_GRANULARITY: the sub-regions counted */
    uint32_t count;    /* COUNTER_VAL */
    bool remote;       /* APERTURE = SYS_MEM: the remote (system-memory) class, else local */
} uvm_acc_notif_t;

/* The region shift in 4 KB pages of ACC_CTRL.GRAN (G: 4, 9, 12); 0 for an illegal value. */
uint32_t uvm_acc_gran_shift(uint32_t gran);

/* Decodes one 32-byte entry at granularity shift g. False (nothing usable) if VALID is clear,
 * APERTURE is neither VID_MEM nor SYS_MEM, the address is not the base of a region or not below
 * the VA limit, or the mask is empty. */
bool uvm_acc_decode(const uint8_t raw[GMMU_FB_ENTRY_BYTES], uint32_t g, uvm_acc_notif_t *n);

/* Expands n's sub-region mask to the extended VPNs of its pages, in ascending order, into
 * pages[UVM_ACC_REGION_PAGES_MAX]; returns their number. At g = 4 (64 KB) a sub-region is 2 KB:
 * a page is named when either of its two bits is set; at g >= 5 a bit covers 2^(g-5) pages. */
uint32_t uvm_acc_expand(const uvm_acc_notif_t *n, uint32_t g, uint64_t *pages);

/* Drops the stale pages of an expanded notification, as the driver does: a page outside every
 * allocation (freed since the count), and a page already resident on the GPU (migrated by a fault
 * since). Keeps the order; returns the number left in pages. */
uint32_t uvm_acc_drop_stale(const uvm_handler_t *h, uint64_t *pages, uint32_t n);

/* The ring as the handler sees it (the registers ACC_BASE, ACC_SIZE, ACC_GET, ACC_PUT). */
typedef struct {
    uint64_t base; /* host address of entry 0 */
    uint32_t size; /* entries, a power of two */
    uint32_t get;  /* the handler's read index */
    uint32_t put;  /* the device's write index, as last read */
} uvm_acc_ring_t;

/* Fetch statistics of one batch. */
typedef struct {
    uint32_t fetched;   /* entries consumed (GET advanced by this many) */
    uint32_t malformed; /* VALID set but not decodable (uvm_acc_decode false): dropped */
    uint32_t not_ready; /* VALID still clear below PUT after polling: dropped, as the fault ring */
} uvm_acc_fetch_stats_t;

/* Reads up to max (<= UVM_ACC_BATCH_MAX) entries from GET towards PUT through dev->host_read,
 * clears the VALID bit of each consumed entry in host memory, advances r->get (the caller writes
 * ACC_GET) and decodes the usable ones into out; returns their number. */
uint32_t uvm_acc_fetch(const uvm_dev_t *dev, uvm_acc_ring_t *r, uint32_t g, uvm_acc_notif_t *out,
                       uint32_t max, uvm_acc_fetch_stats_t *st);

/* ---- the service of the ring (uvm_acc_svc.c, docs/handler.md §6w.1-§6w.2) ---- */

/* remote_policy lazy_grp_hw needs a notification ring (acc_host_addr, 32-byte aligned, in the
 * PA space, fb_entries entries): the platform gives one only when the GMMU has the unit. */
int uvm_acc_check_cfg(const uvm_cfg_t *c, char *err, size_t errlen);
/* The service's state (h->acc), only with lazy_grp_hw; 0 or -1 (out of memory). */
int uvm_acc_svc_init(uvm_handler_t *h);
void uvm_acc_svc_free(uvm_handler_t *h);
/* At device initialization (after INT_ENABLE): probes the unit (ACC_THRESH must be mapped:
 * ERR_STATUS.BAD_ADDR means the GMMU has none), clears the ring's VALID bits, programs
 * ACC_BASE, ACC_SIZE, ACC_THRESH, ACC_CTRL (remote class, 64 KB) and INT_ENABLE's ACC_NOTIFY /
 * ACC_OVF. Nothing without lazy_grp_hw. */
int uvm_acc_init_device(uvm_handler_t *h, char *err, size_t errlen);
/* Each interrupt, after the fault batches and their replays: the overflow cleared and counted,
 * the ring read from GET to PUT in batches (ACC_GET written after each fetch), per
 * notification its pages expanded, the stale ones dropped, the rest migrated to the GPU, then
 * a targeted ACC_CLEAR of the region. Nothing without lazy_grp_hw. */
void uvm_acc_service(uvm_handler_t *h);

#endif
