/*
 * uvm_acc_svc.c - the handler's service of the access-counter notification ring and the policy
 * lazy_grp_hw (DynaMap's LazyGrpHW; docs/handler.md §6w.1-§6w.2), modeled on nvidia-uvm's
 * uvm_gpu_service_access_counters(): fetch a batch (VALID cleared, GET written), per
 * notification expand the sub-region mask, drop the stale pages, migrate the rest to the GPU,
 * then clear the region's counter (targeted). The ring's HAL is uvm_acc.c.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "err.h"
#include "uvm_acc.h"
#include "uvm_place.h"

/* the service's state (h->acc) */
struct uvm_acc_svc {
    uvm_acc_ring_t ring;
    uint32_t g; /* the region shift (64 KB: 4) */
    uvm_acc_notif_t notif[UVM_ACC_BATCH_MAX];
    uint64_t pages[UVM_ACC_REGION_PAGES_MAX];
};

#define ACC_GRAN GMMU_ACC_GRAN_64K /* DynaMap's LazyGrpHW: 64 KB regions */

int uvm_acc_check_cfg(const uvm_cfg_t *c, char *err, size_t errlen) {
    if (c->remote_policy != UVM_REMOTE_LAZY_GRP_HW)
        return 0;
    if (c->acc_host_addr == 0) {
        err_setf(err, errlen,
                 "uvm: remote_policy lazy_grp_hw needs the GMMU's access-counter unit "
                 "(acc_entries > 0, docs/microarch.md §19): no notification ring was given "
                 "(acc_host_addr = 0)");
        return -1;
    }
    const uint64_t bytes = (uint64_t)c->fb_entries * GMMU_FB_ENTRY_BYTES;
    if ((c->acc_host_addr % GMMU_FB_ENTRY_BYTES) != 0 || c->acc_host_addr >= UVM_PA_LIMIT ||
        bytes > UVM_PA_LIMIT - c->acc_host_addr) {
        err_setf(err, errlen,
                 "uvm: acc_host_addr 0x%" PRIx64 " must be %u-byte aligned and the ring must fit "
                 "in %u address bits",
                 c->acc_host_addr, GMMU_FB_ENTRY_BYTES, GMMU_PA_W);
        return -1;
    }
    if (c->acc_threshold == 0 || c->acc_threshold > GMMU_CSR_ACC_THRESH_THRESH_MASK) {
        err_setf(err, errlen, "uvm: acc_threshold %" PRIu32 " must be in [1, %u]", c->acc_threshold,
                 GMMU_CSR_ACC_THRESH_THRESH_MASK);
        return -1;
    }
    return 0;
}

int uvm_acc_svc_init(uvm_handler_t *h) {
    if (h->cfg.remote_policy != UVM_REMOTE_LAZY_GRP_HW)
        return 0;
    h->acc = calloc(1, sizeof *h->acc);
    if (!h->acc)
        return -1;
    h->acc->ring = (uvm_acc_ring_t){h->cfg.acc_host_addr, h->cfg.fb_entries, 0, 0};
    h->acc->g = uvm_acc_gran_shift(ACC_GRAN);
    return 0;
}

void uvm_acc_svc_free(uvm_handler_t *h) {
    free(h->acc);
    h->acc = NULL;
}

int uvm_acc_init_device(uvm_handler_t *h, char *err, size_t errlen) {
    struct uvm_acc_svc *a = h->acc;
    if (!a)
        return 0;
    /* the probe: a GMMU without the unit answers 0x080..0x09C as unmapped (§19.8) */
    (void)uvm_csr_rd(h, GMMU_CSR_ACC_THRESH);
    const uint32_t es = uvm_csr_rd(h, GMMU_CSR_ERR_STATUS);
    if (es & (UINT32_C(1) << GMMU_CSR_ERR_STATUS_BAD_ADDR_LSB)) {
        err_setf(err, errlen,
                 "uvm: remote_policy lazy_grp_hw needs the GMMU's access-counter unit "
                 "(acc_entries > 0, docs/microarch.md §19): ACC_THRESH (0x%03x) reads as "
                 "unmapped (ERR_STATUS 0x%" PRIx32 ")",
                 GMMU_CSR_ACC_THRESH, es);
        return -1;
    }
    const uint8_t zero[GMMU_FB_ENTRY_BYTES] = {0};
    for (uint32_t i = 0; i < a->ring.size; i++)
        h->dev.host_write(h->dev.ctx, a->ring.base + (uint64_t)i * GMMU_FB_ENTRY_BYTES, zero,
                          sizeof zero);
    uvm_csr_wr(h, GMMU_CSR_ACC_BASE_LO, (uint32_t)(a->ring.base & UINT32_MAX));
    uvm_csr_wr(h, GMMU_CSR_ACC_BASE_HI, (uint32_t)(a->ring.base >> 32));
    uvm_csr_wr(h, GMMU_CSR_ACC_SIZE, a->ring.size); /* also GET = PUT = 0, OVERFLOW cleared */
    uvm_csr_wr(h, GMMU_CSR_ACC_THRESH, h->cfg.acc_threshold);
    uvm_csr_wr(h, GMMU_CSR_ACC_CTRL,
               (UINT32_C(1) << GMMU_CSR_ACC_CTRL_EN_REMOTE_LSB) |
                   (ACC_GRAN << GMMU_CSR_ACC_CTRL_GRAN_LSB));
    uvm_csr_wr(h, GMMU_CSR_INT_ENABLE,
               UVM_INT_ENABLE_FAULT | UVM_INT_ENABLE_OVERFLOW |
                   (UINT32_C(1) << GMMU_CSR_INT_ENABLE_ACC_NOTIFY_LSB) |
                   (UINT32_C(1) << GMMU_CSR_INT_ENABLE_ACC_OVF_LSB));
    a->ring.get = a->ring.put = 0;
    return 0;
}

/* The pages of n left after the stale filter: resident on the GPU, freed, or no longer mapped
 * remotely (the count came from remote translations; the driver skips pages already resident
 * on the accessor). Returns their number in a->pages. */
static uint32_t acc_live_pages(uvm_handler_t *h, struct uvm_acc_svc *a, const uvm_acc_notif_t *n) {
    const uint32_t all = uvm_acc_expand(n, a->g, a->pages);
    uint32_t k = uvm_acc_drop_stale(h, a->pages, all);
    uint32_t m = 0;
    for (uint32_t i = 0; i < k; i++)
        if (uvm_remote_is(h, a->pages[i]))
            a->pages[m++] = a->pages[i];
    h->stats.acc_stale_pages += all - m;
    return m;
}

/* One notification: its live pages migrate (runs of consecutive pages together), then the
 * region's counter is cleared (the driver's access_counter_clear_targeted after servicing). */
static void acc_service_one(uvm_handler_t *h, struct uvm_acc_svc *a, const uvm_acc_notif_t *n) {
    h->stats.acc_serviced++;
    const uint32_t region = UINT32_C(1) << a->g;
    uvm_event_emit(h, &(uvm_event_t){.kind = UVM_EVENT_ACCESS_COUNTER,
                                     .counter = {.vpn = n->xvpn,
                                                 .pages = region,
                                                 .value = n->count,
                                                 .sub_mask = n->sub_mask}});
    const uint32_t m = n->remote ? acc_live_pages(h, a, n) : 0u;
    if (m == 0) {
        h->stats.acc_stale++;
        return;
    }
    uint32_t migrated = 0;
    for (uint32_t i = 0; i < m;) {
        uint32_t j = i + 1u;
        while (j < m && a->pages[j] == a->pages[j - 1u] + 1u)
            j++;
        migrated += uvm_remote_to_gpu(h, a->pages[i], j - i);
        i = j;
    }
    h->stats.acc_pages += migrated;
    uvm_cmd(h, GMMU_CMD_ACC_CLEAR, true, n->xvpn, false);
}

void uvm_acc_service(uvm_handler_t *h) {
    struct uvm_acc_svc *a = h->acc;
    if (!a)
        return;
    for (uint32_t b = 0; b < h->cfg.max_batches_per_irq; b++) {
        if (uvm_csr_rd(h, GMMU_CSR_ACC_STATUS) &
            (UINT32_C(1) << GMMU_CSR_ACC_STATUS_OVERFLOW_LSB)) {
            /* crossings were lost (the ring was full): W1C, counted; their regions count anew */
            uvm_csr_wr(h, GMMU_CSR_ACC_STATUS, UINT32_C(1) << GMMU_CSR_ACC_STATUS_OVERFLOW_LSB);
            h->stats.acc_ovf_seen++;
        }
        const uint32_t put = uvm_csr_rd(h, GMMU_CSR_ACC_PUT);
        if (put >= a->ring.size) {
            uvm_logf(h, "uvm: ACC_PUT %" PRIu32 " out of range (ring of %" PRIu32 ")", put,
                     a->ring.size);
            return;
        }
        a->ring.put = put;
        if (put == a->ring.get)
            return;
        uvm_acc_fetch_stats_t st;
        const uint32_t n = uvm_acc_fetch(&h->dev, &a->ring, a->g, a->notif, UVM_ACC_BATCH_MAX, &st);
        uvm_csr_wr(h, GMMU_CSR_ACC_GET, a->ring.get); /* as the driver: GET after the fetch */
        h->stats.acc_batches++;
        h->stats.acc_dropped += st.malformed + st.not_ready;
        h->dev.cpu_delay(h->dev.ctx, h->cfg.t_batch_ns + (uint64_t)st.fetched * h->cfg.t_fault_ns);
        for (uint32_t i = 0; i < n; i++)
            acc_service_one(h, a, &a->notif[i]);
    }
}
