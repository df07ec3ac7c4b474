/*
 * uvm_fault_buffer.c - the fault-buffer HAL (nvidia-uvm's fault_buffer hal: parse entry, entry
 * is valid, entry clear valid, read PUT / write GET): fetch a batch of entries from the ring in
 * host memory, decode them, clear their VALID bits, and flush the ring (BATCH_FLUSH).
 * Entry layout: docs/microarch.md §7 and spec/gmmu.toml [fb_entry].
 */
#include <inttypes.h>

#include "uvm_priv.h"

static uint64_t entry_addr(const uvm_handler_t *h, uint32_t idx) {
    return h->cfg.fb_host_addr + (uint64_t)idx * GMMU_FB_ENTRY_BYTES;
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static void put_le32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static bool flags_valid(uint32_t w7) {
    return ((w7 >> GMMU_FB_F_VALID) & 1u) != 0;
}

/* Clears the VALID bit of an entry whose word 7 was read as w7. */
static void clear_valid(const uvm_handler_t *h, uint32_t idx, uint32_t w7) {
    uint8_t b[4];
    put_le32(b, w7 & ~(UINT32_C(1) << GMMU_FB_F_VALID));
    h->dev.host_write(h->dev.ctx, entry_addr(h, idx) + 4u * GMMU_FB_W7_FLAGS, b, sizeof b);
}

bool uvm_fb_decode(const uint8_t raw[GMMU_FB_ENTRY_BYTES], uvm_fault_t *f) {
    const uint32_t w7 = le32(raw + 4u * GMMU_FB_W7_FLAGS);
    const uint32_t vlo = le32(raw + 4u * GMMU_FB_W2_VPN_LO);
    const uint32_t vhi = le32(raw + 4u * GMMU_FB_W3_VPN_HI);
    const uint64_t vpn = ((uint64_t)vhi << 32) | vlo;
    if (!flags_valid(w7) || vpn >= UVM_VPN_LIMIT)
        return false;
    /* the handler's page: the extended VPN of the entry's address space (FB_ASID, §14.5) */
    const uint32_t asid =
        (le32(raw + 4u * GMMU_FB_W0_ASID) >> GMMU_FB_ASID_LSB) & GMMU_FB_ASID_MASK;
    f->vpn = (uint64_t)asid << UVM_ASID_VPN_SHIFT | vpn;
    f->timestamp =
        ((uint64_t)le32(raw + 4u * GMMU_FB_W5_TS_HI) << 32) | le32(raw + 4u * GMMU_FB_W4_TS_LO);
    f->sm_mask = le32(raw + 4u * GMMU_FB_W6_SM_MASK);
    f->fault_type = (uint8_t)((w7 >> GMMU_FB_FAULT_TYPE_LSB) & GMMU_FB_FAULT_TYPE_MASK);
    f->client = (uint8_t)((w7 >> GMMU_FB_CLIENT_LSB) & GMMU_FB_CLIENT_MASK);
    f->access = (uint8_t)((w7 >> GMMU_FB_ACCESS_LSB) & GMMU_FB_ACCESS_MASK);
    f->ro_violation = f->fault_type == GMMU_FT_RO_VIOLATION;
    f->count = 1;
    return true;
}

/*
 * Reads entry idx into *f and clears its VALID bit in host memory. An entry below PUT whose VALID
 * is still clear is re-read a few times (the device advances PUT one transfer before the write
 * lands, like the real GPU); then it is reported as corrupt and skipped. Returns true if *f holds
 * a usable fault.
 */
static bool read_entry(uvm_handler_t *h, uint32_t idx, uvm_fault_t *f) {
    uint8_t raw[GMMU_FB_ENTRY_BYTES];
    uint32_t w7 = 0;
    for (uint32_t poll = 0;; poll++) {
        h->dev.host_read(h->dev.ctx, entry_addr(h, idx), raw, sizeof raw);
        w7 = le32(raw + 4u * GMMU_FB_W7_FLAGS);
        if (flags_valid(w7))
            break;
        if (poll + 1u >= UVM_ENTRY_POLL_MAX) {
            uvm_logf(h,
                     "uvm: corrupt fault-buffer entry %" PRIu32
                     ": VALID clear below PUT (flags 0x%08" PRIx32 "); skipped",
                     idx, w7);
            return false;
        }
        h->dev.cpu_delay(h->dev.ctx, UVM_ENTRY_POLL_NS);
    }
    clear_valid(h, idx, w7);
    if (!uvm_fb_decode(raw, f)) { /* VALID is set: the VPN is out of range */
        const uint64_t vpn = ((uint64_t)le32(raw + 4u * GMMU_FB_W3_VPN_HI) << 32) |
                             le32(raw + 4u * GMMU_FB_W2_VPN_LO);
        uvm_logf(h,
                 "uvm: corrupt fault-buffer entry %" PRIu32 ": VPN 0x%" PRIx64
                 " exceeds %u bits; skipped",
                 idx, vpn, GMMU_VPN_W);
        return false;
    }
    return true;
}

uint32_t uvm_fb_fetch(uvm_handler_t *h, uint32_t put) {
    const uint32_t mask = h->cfg.fb_entries - 1u;
    const uint32_t start = h->get;
    uint32_t n = 0;
    while (h->get != put && n < h->cfg.batch_size) {
        if (read_entry(h, h->get, &h->batch[n])) {
            uvm_event_emit(h, &(uvm_event_t){.kind = UVM_EVENT_FAULT,
                                             .fault = {.vpn = h->batch[n].vpn,
                                                       .timestamp = h->batch[n].timestamp,
                                                       .count = 1,
                                                       .access = h->batch[n].access}});
            n++;
        }
        h->get = (h->get + 1u) & mask;
    }
    if (h->get != start)
        uvm_csr_wr(h, GMMU_CSR_FB_GET, h->get);
    return n;
}

void uvm_fb_flush(uvm_handler_t *h) {
    const uint32_t put = uvm_csr_rd(h, GMMU_CSR_FB_PUT);
    if (put >= h->cfg.fb_entries) {
        uvm_logf(h, "uvm: FB_PUT %" PRIu32 " out of range (ring of %" PRIu32 "); flush skipped",
                 put, h->cfg.fb_entries);
        return;
    }
    const uint32_t mask = h->cfg.fb_entries - 1u;
    if (h->get == put)
        return;
    while (h->get != put) {
        uint8_t b[4];
        const uint64_t a = entry_addr(h, h->get) + 4u * GMMU_FB_W7_FLAGS;
        h->dev.host_read(h->dev.ctx, a, b, sizeof b);
        const uint32_t w7 = le32(b);
        if (flags_valid(w7))
            clear_valid(h, h->get, w7);
        h->get = (h->get + 1u) & mask;
    }
    uvm_csr_wr(h, GMMU_CSR_FB_GET, h->get);
}
