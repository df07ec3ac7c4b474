/*
 * uvm_acc.c - the access-counter notification buffer HAL (nvidia-uvm's uvm_gpu_access_counters.c
 * parse / valid / clear-valid / fetch), the expansion of a notification's sub-region mask to
 * pages and the stale-page filter. Entry layout: docs/microarch.md §19.4 and spec/gmmu.toml
 * (ACC_W_*); docs/handler.md §6w.
 */
#include "uvm_acc.h"

#include <inttypes.h>

#include "uvm_priv.h"

static uint32_t acc_le32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

uint32_t uvm_acc_gran_shift(uint32_t gran) {
    switch (gran) {
    case GMMU_ACC_GRAN_64K:
        return 4u;
    case GMMU_ACC_GRAN_2M:
        return 9u;
    case GMMU_ACC_GRAN_16M:
        return 12u;
    default:
        return 0u;
    }
}

bool uvm_acc_decode(const uint8_t raw[GMMU_FB_ENTRY_BYTES], uint32_t g, uvm_acc_notif_t *n) {
    const uint32_t w7 = acc_le32(raw + 4u * GMMU_ACC_W_VALID);
    if (((w7 >> GMMU_ACC_VALID_LSB) & 1u) == 0 || g < 4u || g > 12u)
        return false;
    const uint32_t aper = (acc_le32(raw) >> GMMU_ACC_APER_LSB) & 3u;
    if (aper != 0 && aper != GMMU_ACC_APER_SYS)
        return false;
    const uint64_t va = ((uint64_t)(acc_le32(raw + 4u * GMMU_ACC_W_ADDR_HI) & 0xffffu) << 32) |
                        acc_le32(raw + 4u * GMMU_ACC_W_ADDR_LO);
    const uint64_t vpn = va >> GMMU_PAGE_SHIFT;
    const uint32_t mask = acc_le32(raw + 4u * GMMU_ACC_W_SUBGRAN);
    if ((va & ((UINT64_C(1) << (g + GMMU_PAGE_SHIFT)) - 1u)) != 0 || vpn >= UVM_VPN_LIMIT ||
        mask == 0)
        return false;
    const uint32_t asid = acc_le32(raw + 4u * GMMU_ACC_W_INST) & ((1u << GMMU_ASID_W) - 1u);
    n->xvpn = (uint64_t)asid << UVM_ASID_VPN_SHIFT | vpn;
    n->sub_mask = mask;
    n->count = acc_le32(raw + 4u * GMMU_ACC_W_COUNTER) & 0xffffu;
    n->remote = aper == GMMU_ACC_APER_SYS;
    return true;
}

uint32_t uvm_acc_expand(const uvm_acc_notif_t *n, uint32_t g, uint64_t *pages) {
    uint32_t k = 0;
    if (g == 4u) { /* 16 pages, 2 KB sub-regions: page p holds bits 2p and 2p + 1 */
        for (uint32_t p = 0; p < 16u; p++)
            if ((n->sub_mask >> (2u * p)) & 3u)
                pages[k++] = n->xvpn + p;
        return k;
    }
    const uint32_t per = 1u << (g - 5u); /* pages per sub-region */
    for (uint32_t b = 0; b < 32u; b++)
        if ((n->sub_mask >> b) & 1u)
            for (uint32_t p = 0; p < per; p++)
                pages[k++] = n->xvpn + (uint64_t)b * per + p;
    return k;
}

uint32_t uvm_acc_drop_stale(const uvm_handler_t *h, uint64_t *pages, uint32_t n) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t frame;
        if (!uvm_find_alloc(h, pages[i]) || uvm_va_block_resident(h, pages[i], &frame))
            continue;
        pages[k++] = pages[i];
    }
    return k;
}

/* Reads entry idx, polling while VALID is clear below PUT (the device advances PUT with the
 * write, like the fault ring); clears VALID of a consumed entry. False: VALID never came. */
static bool acc_read_entry(const uvm_dev_t *dev, const uvm_acc_ring_t *r, uint32_t idx,
                           uint8_t raw[GMMU_FB_ENTRY_BYTES]) {
    const uint64_t at = r->base + (uint64_t)idx * GMMU_FB_ENTRY_BYTES;
    for (uint32_t poll = 0;; poll++) {
        dev->host_read(dev->ctx, at, raw, GMMU_FB_ENTRY_BYTES);
        const uint32_t w7 = acc_le32(raw + 4u * GMMU_ACC_W_VALID);
        if ((w7 >> GMMU_ACC_VALID_LSB) & 1u) {
            const uint32_t clr = w7 & ~(UINT32_C(1) << GMMU_ACC_VALID_LSB);
            const uint8_t b[4] = {(uint8_t)clr, (uint8_t)(clr >> 8), (uint8_t)(clr >> 16),
                                  (uint8_t)(clr >> 24)};
            dev->host_write(dev->ctx, at + 4u * GMMU_ACC_W_VALID, b, sizeof b);
            return true;
        }
        if (poll + 1u >= UVM_ENTRY_POLL_MAX)
            return false;
        dev->cpu_delay(dev->ctx, UVM_ENTRY_POLL_NS);
    }
}

uint32_t uvm_acc_fetch(const uvm_dev_t *dev, uvm_acc_ring_t *r, uint32_t g, uvm_acc_notif_t *out,
                       uint32_t max, uvm_acc_fetch_stats_t *st) {
    uint32_t k = 0;
    st->fetched = st->malformed = st->not_ready = 0;
    if (r->size == 0 || (r->size & (r->size - 1u)) != 0)
        return 0;
    if (max > UVM_ACC_BATCH_MAX)
        max = UVM_ACC_BATCH_MAX;
    while (r->get != r->put && st->fetched < max) {
        uint8_t raw[GMMU_FB_ENTRY_BYTES];
        if (!acc_read_entry(dev, r, r->get, raw))
            st->not_ready++;
        else if (uvm_acc_decode(raw, g, &out[k]))
            k++;
        else
            st->malformed++;
        st->fetched++;
        r->get = (r->get + 1u) & (r->size - 1u);
    }
    return k;
}
