/* ff.c - far-fault unit and fault-buffer writer (RTL gmmu_ff, docs/microarch.md §7). */
#include "ff.h"

#include <string.h>

void ff_init(ff_t *f, const gmmu_params_t *p) {
    memset(f, 0, sizeof(*f));
    f->n = p->ff_entries;
    f->n_sm = p->num_sm;
    f->quota = p->ff_quota;
}

int ff_busy(const ff_t *f) {
    return f->fw_valid || f->off_valid || f->replay || f->cancel_valid;
}

uint32_t ff_count(const ff_t *f) {
    uint32_t n = 0;
    for (unsigned w = 0; w < FF_WORDS; w++)
        n += gmmu_popcount64(f->valid[w]);
    return n;
}

/* Entry i valid / set / clear. */
static int e_valid(const ff_t *f, unsigned i) {
    return (int)((f->valid[i / 64u] >> (i % 64u)) & 1u);
}
static void e_set(ff_t *f, unsigned i) {
    f->valid[i / 64u] |= GMMU_BIT(i % 64u);
}
static void e_clear(ff_t *f, unsigned i) {
    f->valid[i / 64u] &= ~GMMU_BIT(i % 64u);
}

/* Lowest FREE entry of the n, or -1. */
static int lowest_free(const ff_t *f) {
    for (unsigned w = 0; w < FF_WORDS && 64u * w < f->n; w++) {
        const unsigned left = f->n - 64u * w;
        const uint64_t all = left >= 64u ? ~UINT64_C(0) : (GMMU_BIT(left) - 1u);
        const uint64_t free_m = all & ~f->valid[w];
        if (free_m)
            return (int)(64u * w + gmmu_ctz64(free_m));
    }
    return -1;
}

void ff_begin(ff_t *f, uint8_t fb_wr_ready, ff_cycle_t *cy) {
    cy->ready = (uint8_t)ff_ready(f);
    cy->ovf_set = 0;
    if (f->fw_valid && fb_wr_ready)
        f->fw_valid = 0;
    f->replay = 0;
    f->cancel_valid = 0;
}

static int find_vpn(const ff_t *f, uint8_t asid, uint64_t vpn) {
    for (unsigned w = 0; w < FF_WORDS; w++)
        for (uint64_t m = f->valid[w]; m; m &= m - 1u) {
            const unsigned i = 64u * w + gmmu_ctz64(m);
            if (f->vpn[i] == vpn && f->asid[i] == asid)
                return (int)i;
        }
    return -1;
}

int ff_ready(const ff_t *f) {
    return !f->fw_valid && !f->off_valid;
}

void ff_take(ff_t *f, const ff_cycle_t *cy, const gmmu_fault_offer_t *o, uint32_t mask,
             gmmu_viol_t *v) {
    if (!cy->ready) {
        gmmu_viol(v, "ff: fault offered while the offer or the fault-entry write register is full");
        return;
    }
    f->off_valid = 1;
    f->off = *o;
    f->off_mask = mask;
}

/* The offer o with SM mask `mask` handled (§7 "Offer"): merge, drop or post. The register it
 * came from was taken while the write register was empty, and nothing posted since. */
static void ff_offer(ff_t *f, ff_cycle_t *cy, const ff_ring_t *ring, uint64_t time,
                     const gmmu_fault_offer_t *o, uint32_t mask, uint16_t *ev) {
    const uint8_t asid = o->req.asid, write = o->req.write, fault_type = o->fault_type;
    const uint64_t vpn = o->req.vpn;
    /* 1. merge */
    const int hit = find_vpn(f, asid, vpn);
    if (hit >= 0) {
        f->mask[hit] |= mask;
        f->write[hit] |= write;
        *ev |= (uint16_t)(1u << GMMU_EV_FF_MERGE);
        return;
    }
    /* 2. A = SMs of the mask under their quota (cnt on _q: nothing changed before the offer) */
    uint32_t a = 0;
    for (uint32_t s = 0; s < f->n_sm; s++) {
        if (!((mask >> s) & 1u))
            continue;
        uint32_t cnt = 0;
        for (unsigned w = 0; w < FF_WORDS; w++)
            for (uint64_t m = f->valid[w]; m; m &= m - 1u)
                cnt += (f->mask[64u * w + gmmu_ctz64(m)] >> s) & 1u;
        if (cnt < f->quota)
            a |= UINT32_C(1) << s;
    }
    const int free_i = lowest_free(f);
    if (!a || free_i < 0) {
        f->dropped |= mask;
        *ev |= (uint16_t)(1u << GMMU_EV_FF_DROP);
        return;
    }
    if (ring->fb_size == 0u || ((f->put + 1u) & (ring->fb_size - 1u)) == ring->get) {
        f->dropped |= mask;
        f->overflow = 1;
        cy->ovf_set = 1;
        *ev |= (uint8_t)((1u << GMMU_EV_FF_DROP) | (1u << GMMU_EV_FB_OVF));
        return;
    }
    /* post */
    const unsigned i = (unsigned)free_i;
    e_set(f, i);
    f->vpn[i] = vpn;
    f->asid[i] = asid;
    f->mask[i] = a;
    f->write[i] = write;
    f->dropped |= mask & ~a;
    f->fw_valid = 1;
    f->fw_addr = (ring->fb_base + (uint64_t)GMMU_FB_ENTRY_BYTES * f->put) & GMMU_PA_MASK;
    memset(f->fw_data, 0, sizeof(f->fw_data));
    f->fw_data[GMMU_FB_W0_ASID] = (uint32_t)asid << GMMU_FB_ASID_LSB;
    f->fw_data[GMMU_FB_W2_VPN_LO] = (uint32_t)(vpn & 0xffffffffu);
    f->fw_data[GMMU_FB_W3_VPN_HI] = (uint32_t)(vpn >> 32);
    f->fw_data[GMMU_FB_W4_TS_LO] = (uint32_t)(time & 0xffffffffu);
    f->fw_data[GMMU_FB_W5_TS_HI] = (uint32_t)(time >> 32);
    f->fw_data[GMMU_FB_W6_SM_MASK] = a;
    f->fw_data[GMMU_FB_W7_FLAGS] =
        ((uint32_t)fault_type << GMMU_FB_F_FAULT_TYPE_LSB) | (1u << GMMU_FB_F_REPLAYABLE) |
        ((uint32_t)__builtin_ctz(a) << GMMU_FB_F_CLIENT_LSB) |
        ((write ? GMMU_AT_WRITE : GMMU_AT_READ) << GMMU_FB_F_ACCESS_LSB) | (1u << GMMU_FB_F_VALID);
    f->put = (uint16_t)((f->put + 1u) & (ring->fb_size - 1u));
    *ev |= (uint16_t)(1u << GMMU_EV_FF_NEW);
}

void ff_process(ff_t *f, ff_cycle_t *cy, const ff_ring_t *ring, uint64_t time, uint8_t cmd_cycle,
                uint16_t *ev) {
    if (!f->off_valid || cmd_cycle)
        return;
    f->off_valid = 0;
    ff_offer(f, cy, ring, time, &f->off, f->off_mask, ev);
}

void ff_command(ff_t *f, uint32_t op, uint8_t asid, uint64_t vpn) {
    const uint32_t all_sm = f->n_sm >= 32u ? 0xffffffffu : ((UINT32_C(1) << f->n_sm) - 1u);
    if (op == GMMU_CMD_REPLAY_PAGE) {
        const int i = find_vpn(f, asid, vpn);
        uint32_t r = f->dropped;
        if (i >= 0) {
            r |= f->mask[i];
            e_clear(f, (unsigned)i);
        }
        f->replay = r;
        f->dropped = 0;
    } else if (op == GMMU_CMD_REPLAY_ALL) {
        memset(f->valid, 0, sizeof(f->valid));
        f->replay = all_sm;
        f->dropped = 0;
    } else if (op == GMMU_CMD_CANCEL_PAGE) {
        const int i = find_vpn(f, asid, vpn);
        if (i >= 0)
            e_clear(f, (unsigned)i);
        f->cancel_valid = 1;
        f->cancel_vpn = vpn;
        f->cancel_asid = asid;
    }
}

void ff_dump(const ff_t *f, FILE *fp) {
    fprintf(fp,
            "ff: dropped=0x%x replay=0x%x cancel valid=%u vpn=0x%llx put=%u overflow=%u\n"
            "  off valid=%u asid=%u vpn=0x%llx write=%u ft=%u mask=0x%x\n"
            "  fw valid=%u addr=0x%llx data=",
            f->dropped, f->replay, f->cancel_valid, (unsigned long long)f->cancel_vpn, f->put,
            f->overflow, f->off_valid, f->off.req.asid, (unsigned long long)f->off.req.vpn,
            f->off.req.write, f->off.fault_type, f->off_mask, f->fw_valid,
            (unsigned long long)f->fw_addr);
    for (int k = 7; k >= 0; k--)
        fprintf(fp, "%08x%s", f->fw_data[k], k ? "_" : "\n");
    for (unsigned i = 0; i < f->n; i++)
        if (e_valid(f, i))
            fprintf(fp, "  entry[%u] asid=%u vpn=0x%llx mask=0x%x write=%u\n", i, f->asid[i],
                    (unsigned long long)f->vpn[i], f->mask[i], f->write[i]);
}

/* fw_*_q: the fields of the entry being written, decoded from fw_data (spec fault-entry layout). */
static int ff_fw_get(const ff_t *f, const char *reg, uint64_t *val) {
    const uint32_t *d = f->fw_data;
    const uint32_t fl = d[GMMU_FB_W7_FLAGS];
    const struct {
        const char *name;
        uint64_t v;
    } t[] = {
        {"fw_valid_q", f->fw_valid},
        {"fw_addr_q", f->fw_addr >> GMMU_CSR_FB_BASE_LO_ADDR_LSB},
        {"fw_set_q", (fl >> GMMU_FB_REPLAYABLE_LSB) & GMMU_FB_REPLAYABLE_MASK},
        {"fw_vpn_q", d[GMMU_FB_W2_VPN_LO] | ((uint64_t)d[GMMU_FB_W3_VPN_HI] << 32)},
        {"fw_asid_q", (d[GMMU_FB_W0_ASID] >> GMMU_FB_ASID_LSB) & GMMU_FB_ASID_MASK},
        {"fw_time_q", d[GMMU_FB_W4_TS_LO] | ((uint64_t)d[GMMU_FB_W5_TS_HI] << 32)},
        {"fw_mask_q", d[GMMU_FB_W6_SM_MASK]},
        {"fw_ft_q", (fl >> GMMU_FB_FAULT_TYPE_LSB) & GMMU_FB_FAULT_TYPE_MASK},
        {"fw_client_q", (fl >> GMMU_FB_CLIENT_LSB) & GMMU_FB_CLIENT_MASK},
        {"fw_write_q", ((fl >> GMMU_FB_ACCESS_LSB) & GMMU_FB_ACCESS_MASK) == GMMU_AT_WRITE},
    };
    for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
        if (strcmp(reg, t[k].name) == 0) {
            *val = t[k].v;
            return 0;
        }
    }
    return -1;
}

/* The number of valid entries whose mask has SM s (the RTL keeps it in sm_cnt_q[s]). */
static uint32_t ff_sm_count(const ff_t *f, uint32_t s) {
    uint32_t n = 0;
    for (unsigned w = 0; w < FF_WORDS; w++)
        for (uint64_t m = f->valid[w]; m; m &= m - 1u)
            n += (f->mask[64u * w + gmmu_ctz64(m)] >> s) & 1u;
    return n;
}

int ff_state_get(const ff_t *f, const char *reg, uint32_t i, uint32_t word, uint64_t *val) {
    if (strcmp(reg, "sm_cnt_q") == 0) {
        if (word != 0 || i >= f->n_sm)
            return -1;
        *val = ff_sm_count(f, i);
        return 0;
    }
    if (strcmp(reg, "e_valid_q") == 0) {
        if (i != 0 || word >= FF_WORDS || 64u * word >= f->n)
            return -1;
        *val = f->valid[word];
        return 0;
    }
    if (word != 0)
        return -1;
    if (i == 0) {
        const struct {
            const char *name;
            uint64_t v;
        } t[] = {{"dropped_q", f->dropped},
                 {"replay_q", f->replay},
                 {"cancel_valid_q", f->cancel_valid},
                 {"cancel_vpn_q", f->cancel_vpn},
                 {"put_q", f->put},
                 /* RTL: PUT + 1 modulo 2^FB_IDX_W, kept for the ring-full test */
                 {"put_p1_q", ((uint64_t)f->put + 1u) & ((UINT64_C(1) << GMMU_FB_IDX_W) - 1u)},
                 {"overflow_q", f->overflow},
                 {"count_q", ff_count(f)},
                 {"off_valid_q", f->off_valid},
                 {"off_vpn_q", f->off.req.vpn},
                 {"off_asid_q", f->off.req.asid},
                 {"off_write_q", f->off.req.write},
                 {"off_ft_q", f->off.fault_type},
                 {"off_mask_q", f->off_mask},
                 {"cancel_asid_q", f->cancel_asid}};
        for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
            if (strcmp(reg, t[k].name) == 0) {
                *val = t[k].v;
                return 0;
            }
        }
        if (ff_fw_get(f, reg, val) == 0)
            return 0;
    }
    if (i >= f->n)
        return -1;
    if (strcmp(reg, "e_vpn_q") == 0)
        *val = f->vpn[i];
    else if (strcmp(reg, "e_asid_q") == 0)
        *val = f->asid[i];
    else if (strcmp(reg, "e_mask_q") == 0)
        *val = f->mask[i];
    else
        return -1;
    return 0;
}
