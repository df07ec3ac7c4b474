/* csr.c - CSR block (RTL gmmu_csr, docs/microarch.md §8). Every write goes through the decode
 * table generated from spec/gmmu.rdl (GMMU_CSR_DECODE_INIT, the same checks as csr_decode() of
 * gmmu_pkg in the RTL); only the register updates are written here. */
#include "csr.h"

#include <string.h>

void csr_init(csr_t *c, const gmmu_params_t *p) {
    memset(c, 0, sizeof(*c));
    c->asid_mask = (uint8_t)(p->num_asids - 1u);
    /* stored bits of CMD_ARG_HI (§14.4): VPN[35:32], ASID & (NumAsids-1), SCOPE only with
     * several address spaces; the others read 0 */
    c->arg_hi_keep = (uint32_t)GMMU_CSR_CMD_ARG_HI_VPN_MASK << GMMU_CSR_CMD_ARG_HI_VPN_LSB |
                     (uint32_t)c->asid_mask << GMMU_CSR_CMD_ARG_HI_ASID_LSB |
                     (p->num_asids > 1u ? (uint32_t)GMMU_CSR_CMD_ARG_HI_SCOPE_MASK
                                              << GMMU_CSR_CMD_ARG_HI_SCOPE_LSB
                                        : 0u);
    c->params_word =
        (p->num_sm & GMMU_CSR_PARAMS_NUM_SM_MASK) << GMMU_CSR_PARAMS_NUM_SM_LSB |
        (p->num_ports & GMMU_CSR_PARAMS_NUM_PORTS_MASK) << GMMU_CSR_PARAMS_NUM_PORTS_LSB |
        (p->num_walkers & GMMU_CSR_PARAMS_NUM_WALKERS_MASK) << GMMU_CSR_PARAMS_NUM_WALKERS_LSB |
        (p->ff_quota & GMMU_CSR_PARAMS_FF_QUOTA_MASK) << GMMU_CSR_PARAMS_FF_QUOTA_LSB;
    /* access counters (§19.8): registers, INT bits 2/3 and opcodes 8/9 only with the unit */
    const int acc = p->acc_entries != 0u;
    c->cond_true = (acc ? 1u << GMMU_CSR_COND_ACC_ENTRIES : 0u) |
                   (p->line_bitmap ? 1u << GMMU_CSR_COND_LINE_BITMAP : 0u);
    c->has_bmp = (uint8_t)(p->line_bitmap != 0u);
    c->ie_keep = (uint8_t)(1u << GMMU_BIT_INT_FAULT | 1u << GMMU_BIT_INT_OVERFLOW |
                           (acc ? 1u << GMMU_BIT_INT_ACC_NOTIFY | 1u << GMMU_BIT_INT_ACC_OVF : 0u));
    c->has_acc = (uint8_t)acc;
    c->acc_thresh = 256u; /* ACC_THRESH reset */
}

int csr_busy(const csr_t *c) {
    return c->cmd_valid || c->rvalid;
}

uint8_t csr_irq(const csr_t *c, const csr_ffview_t *ff) {
    return (((c->ie >> GMMU_BIT_INT_FAULT) & 1u) && ff->put != c->get) ||
           (((c->ie >> GMMU_BIT_INT_OVERFLOW) & 1u) && ff->overflow) ||
           (((c->ie >> GMMU_BIT_INT_ACC_NOTIFY) & 1u) && ff->acc_put != c->acc_get) ||
           (((c->ie >> GMMU_BIT_INT_ACC_OVF) & 1u) && ff->acc_ovf);
}

/* Access-counter registers (§19.2); returns 0 if not one (or absent: AccEntries = 0). */
static int csr_read_acc(const csr_t *c, const csr_ffview_t *ff, uint32_t addr, uint32_t *val) {
    if (c->has_bmp) /* referenced-line bitmap table (§20.5) */
        switch (addr) {
        case GMMU_CSR_BMP_BASE_LO:
            return (*val = (uint32_t)(c->bmp_base & 0xffffffffu), 1);
        case GMMU_CSR_BMP_BASE_HI:
            return (*val = (uint32_t)(c->bmp_base >> 32), 1);
        case GMMU_CSR_BMP_PAGES:
            return (*val = c->bmp_pages, 1);
        case GMMU_CSR_BMP_VPN0:
            return (*val = c->bmp_vpn0, 1);
        default:
            break;
        }
    if (!c->has_acc)
        return 0;
    switch (addr) {
    case GMMU_CSR_ACC_CTRL:
        *val = c->acc_ctrl;
        return 1;
    case GMMU_CSR_ACC_THRESH:
        *val = c->acc_thresh;
        return 1;
    case GMMU_CSR_ACC_BASE_LO:
        *val = (uint32_t)(c->acc_base & 0xffffffffu);
        return 1;
    case GMMU_CSR_ACC_BASE_HI:
        *val = (uint32_t)(c->acc_base >> 32);
        return 1;
    case GMMU_CSR_ACC_SIZE:
        *val = c->acc_size;
        return 1;
    case GMMU_CSR_ACC_GET:
        *val = c->acc_get;
        return 1;
    case GMMU_CSR_ACC_PUT:
        *val = ff->acc_put;
        return 1;
    case GMMU_CSR_ACC_STATUS:
        *val = (uint32_t)ff->acc_ovf << GMMU_BIT_ACC_STATUS_OVERFLOW;
        return 1;
    default:
        return 0;
    }
}

/* Read value of a mapped register from _q; returns 0 if unmapped. */
static int csr_read(const csr_t *c, const csr_ffview_t *ff, uint32_t addr, uint32_t *val) {
    if (csr_read_acc(c, ff, addr, val))
        return 1;
    switch (addr) {
    case GMMU_CSR_ID:
        *val = GMMU_CSR_ID_VALUE;
        return 1;
    case GMMU_CSR_VERSION:
        *val = GMMU_CSR_VERSION_VALUE;
        return 1;
    case GMMU_CSR_PARAMS:
        *val = c->params_word;
        return 1;
    case GMMU_CSR_PT_BASE_LO:
        *val = (uint32_t)(c->pt_base[c->asid_sel & c->asid_mask] & 0xffffffffu);
        return 1;
    case GMMU_CSR_PT_BASE_HI:
        *val = (uint32_t)(c->pt_base[c->asid_sel & c->asid_mask] >> 32);
        return 1;
    case GMMU_CSR_ASID_SEL:
        *val = c->asid_sel;
        return 1;
    case GMMU_CSR_FB_BASE_LO:
        *val = (uint32_t)(c->fb_base & 0xffffffffu);
        return 1;
    case GMMU_CSR_FB_BASE_HI:
        *val = (uint32_t)(c->fb_base >> 32);
        return 1;
    case GMMU_CSR_FB_SIZE:
        *val = c->fb_size;
        return 1;
    case GMMU_CSR_FB_GET:
        *val = c->get;
        return 1;
    case GMMU_CSR_FB_PUT:
        *val = ff->put;
        return 1;
    case GMMU_CSR_FB_STATUS:
        *val = (uint32_t)ff->overflow << GMMU_BIT_FB_STATUS_OVERFLOW;
        return 1;
    case GMMU_CSR_INT_ENABLE:
        *val = c->ie;
        return 1;
    case GMMU_CSR_INT_STATUS:
        *val = (ff->put != c->get ? 1u << GMMU_BIT_INT_FAULT : 0u) |
               (ff->overflow ? 1u << GMMU_BIT_INT_OVERFLOW : 0u) |
               (ff->acc_put != c->acc_get ? 1u << GMMU_BIT_INT_ACC_NOTIFY : 0u) |
               (ff->acc_ovf ? 1u << GMMU_BIT_INT_ACC_OVF : 0u);
        return 1;
    case GMMU_CSR_CMD_ARG_LO:
        *val = c->arg_lo;
        return 1;
    case GMMU_CSR_CMD_ARG_HI:
        *val = c->arg_hi;
        return 1;
    case GMMU_CSR_CMD:
        *val = 0;
        return 1;
    case GMMU_CSR_CMD_STATUS:
        *val = (uint32_t)(c->cmd_valid || ff->co_busy) << GMMU_BIT_CMD_STATUS_BUSY |
               (uint32_t)ff->co_err << GMMU_CSR_CMD_STATUS_CO_ERR_LSB;
        return 1;
    case GMMU_CSR_ERR_STATUS:
        *val = c->err;
        return 1;
    case GMMU_CSR_ERR_ADDR:
        *val = c->err_addr;
        return 1;
    case GMMU_CSR_FF_COUNT:
        *val = ff->ff_count;
        return 1;
    case GMMU_CSR_FAULT_CTRL:
        *val = (uint32_t)c->blocking << GMMU_CSR_FAULT_CTRL_BLOCKING_LSB;
        return 1;
    default:
        *val = 0;
        return 0;
    }
}

/* The decode row of a mapped address (spec/gmmu.rdl), NULL if unmapped or absent (present_if). */
static const gmmu_csr_decode_t *csr_decode(const csr_t *c, uint32_t addr) {
    static const gmmu_csr_decode_t dec[] = GMMU_CSR_DECODE_INIT;
    for (size_t i = 0; i < sizeof(dec) / sizeof(dec[0]); i++)
        if (dec[i].addr == addr)
            return (dec[i].cond & c->cond_true) == dec[i].cond ? &dec[i] : NULL;
    return NULL;
}

static void set_err(csr_t *c, unsigned bit, uint32_t addr) {
    c->err |= (uint8_t)(1u << bit);
    c->err_addr = (uint16_t)(addr & ((1u << GMMU_CSR_ADDR_W) - 1u));
}

static int is_pow2(uint32_t x) {
    return x && !(x & (x - 1u));
}

/* The legality rule of a register on the whole write data (spec/gmmu.rdl "legal"). */
static int csr_legal(const csr_t *c, const csr_ffview_t *ff, const gmmu_csr_decode_t *d,
                     uint32_t wd) {
    uint32_t ref = 0;
    switch (d->legal) {
    case GMMU_CSR_LEGAL_POW2_OR_ZERO_LE:
        return wd == 0u || (is_pow2(wd) && wd <= d->legal_max);
    case GMMU_CSR_LEGAL_LE: /* CMD: opcodes 8/9 only with the access counters (§19.8) */
        return wd <= d->legal_max &&
               (d->addr != GMMU_CSR_CMD || c->has_acc ||
                (wd != GMMU_CMD_ACC_CLEAR_ALL && wd != GMMU_CMD_ACC_CLEAR)) &&
               (d->addr != GMMU_CSR_CMD || c->has_bmp || wd != GMMU_CMD_BMP_FLUSH);
    case GMMU_CSR_LEGAL_NZ_LE:
        return wd != 0u && wd <= d->legal_max;
    case GMMU_CSR_LEGAL_LT_REF:
        (void)csr_read(c, ff, d->legal_ref, &ref);
        return wd < ref;
    case GMMU_CSR_LEGAL_ANY:
    default:
        return 1;
    }
}

/* A legal write of an access-counter register (§19.2); returns 0 if not one. */
static int csr_write_acc(csr_t *c, uint32_t addr, uint32_t wd, csr_ring_wr_t *wr) {
    switch (addr) {
    case GMMU_CSR_ACC_CTRL: {
        const uint32_t gm = GMMU_CSR_ACC_CTRL_GRAN_MASK << GMMU_CSR_ACC_CTRL_GRAN_LSB;
        wr->acc_gran_clear = (uint8_t)((wd & gm) != (c->acc_ctrl & gm));
        c->acc_ctrl = (uint8_t)wd;
        return 1;
    }
    case GMMU_CSR_ACC_THRESH:
        c->acc_thresh = (uint16_t)wd;
        return 1;
    case GMMU_CSR_ACC_BASE_LO:
        c->acc_base = (c->acc_base & ~UINT64_C(0xffffffff)) | wd;
        return 1;
    case GMMU_CSR_ACC_BASE_HI:
        c->acc_base = (c->acc_base & UINT64_C(0xffffffff)) | ((uint64_t)wd << 32);
        return 1;
    case GMMU_CSR_ACC_SIZE:
        c->acc_size = wd;
        c->acc_get = 0;
        wr->acc_size_write = 1;
        return 1;
    case GMMU_CSR_ACC_GET:
        c->acc_get = (uint16_t)wd;
        return 1;
    case GMMU_CSR_ACC_STATUS:
        wr->acc_ovf_w1c = (uint8_t)((wd >> GMMU_BIT_ACC_STATUS_OVERFLOW) & 1u);
        return 1;
    case GMMU_CSR_BMP_BASE_LO: /* §20.5 */
        c->bmp_base = (c->bmp_base & ~UINT64_C(0xffffffff)) | wd;
        return 1;
    case GMMU_CSR_BMP_BASE_HI:
        c->bmp_base = (c->bmp_base & UINT64_C(0xffffffff)) | ((uint64_t)wd << 32);
        return 1;
    case GMMU_CSR_BMP_PAGES:
        c->bmp_pages = wd;
        return 1;
    case GMMU_CSR_BMP_VPN0:
        c->bmp_vpn0 = wd;
        return 1;
    default:
        return 0;
    }
}

/* A legal write of a writable register; wd holds only its writable bits. */
static void csr_write(csr_t *c, uint32_t addr, uint32_t wd, csr_ring_wr_t *wr) {
    uint64_t *pt = csr_pt_base_sel(c);
    if (csr_write_acc(c, addr, wd, wr))
        return;
    switch (addr) {
    case GMMU_CSR_PT_BASE_LO:
        *pt = (*pt & ~UINT64_C(0xffffffff)) | wd;
        break;
    case GMMU_CSR_PT_BASE_HI:
        *pt = (*pt & UINT64_C(0xffffffff)) | ((uint64_t)wd << 32);
        break;
    case GMMU_CSR_ASID_SEL:
        c->asid_sel = (uint8_t)(wd & c->asid_mask); /* keeps ASID & (NumAsids-1), §14.2 */
        break;
    case GMMU_CSR_FB_BASE_LO:
        c->fb_base = (c->fb_base & ~UINT64_C(0xffffffff)) | wd;
        break;
    case GMMU_CSR_FB_BASE_HI:
        c->fb_base = (c->fb_base & UINT64_C(0xffffffff)) | ((uint64_t)wd << 32);
        break;
    case GMMU_CSR_FB_SIZE:
        c->fb_size = wd;
        c->get = 0;
        wr->size_write = 1;
        break;
    case GMMU_CSR_FB_GET:
        c->get = (uint16_t)wd;
        break;
    case GMMU_CSR_FB_STATUS:
        wr->ovf_w1c = (uint8_t)((wd >> GMMU_BIT_FB_STATUS_OVERFLOW) & 1u);
        break;
    case GMMU_CSR_INT_ENABLE:
        c->ie = (uint8_t)(wd & c->ie_keep);
        break;
    case GMMU_CSR_CMD_ARG_LO:
        c->arg_lo = wd;
        break;
    case GMMU_CSR_CMD_ARG_HI:
        c->arg_hi = wd & c->arg_hi_keep;
        break;
    case GMMU_CSR_CMD: /* from the _q arguments: a CMD write is the only write of its cycle */
        c->cmd_valid = 1;
        c->cmd_op = (uint8_t)wd;
        c->cmd_vpn =
            ((uint64_t)((c->arg_hi >> GMMU_CSR_CMD_ARG_HI_VPN_LSB) & GMMU_CSR_CMD_ARG_HI_VPN_MASK)
             << 32) |
            c->arg_lo;
        c->cmd_asid = (uint8_t)((c->arg_hi >> GMMU_CSR_CMD_ARG_HI_ASID_LSB) &
                                GMMU_CSR_CMD_ARG_HI_ASID_MASK & c->asid_mask);
        c->cmd_scope = (uint8_t)((c->arg_hi >> GMMU_CSR_CMD_ARG_HI_SCOPE_LSB) &
                                 GMMU_CSR_CMD_ARG_HI_SCOPE_MASK);
        break;
    case GMMU_CSR_ERR_STATUS:
        c->err &= (uint8_t)~wd;
        break;
    case GMMU_CSR_FAULT_CTRL:
        c->blocking = (uint8_t)((wd >> GMMU_CSR_FAULT_CTRL_BLOCKING_LSB) & 1u);
        break;
    default:
        break;
    }
}

void csr_step(csr_t *c, const gmmu_in_t *in, const csr_ffview_t *ff, csr_ring_wr_t *wr) {
    const uint8_t cmd_valid_q = c->cmd_valid;
    const uint32_t addr = in->csr_addr & ((1u << GMMU_CSR_ADDR_W) - 1u);
    const uint32_t wd = in->csr_wdata;
    memset(wr, 0, sizeof(*wr));

    if (in->csr_valid && !in->csr_write) {
        uint32_t val; /* from _q: before any update below */
        const int mapped = csr_read(c, ff, addr, &val);
        c->cmd_valid = 0; /* the command of a command cycle ends with it */
        c->rvalid = 1;
        c->rdata = val;
        if (!mapped)
            set_err(c, GMMU_ERR_BAD_ADDR, addr);
        return;
    }
    c->cmd_valid = 0;
    c->rvalid = 0;
    c->rdata = 0;
    if (!in->csr_valid)
        return;

    /* the checks of every write, in this order (the first failing one sets its error bit) */
    const gmmu_csr_decode_t *d = csr_decode(c, addr);
    if (!d)
        set_err(c, GMMU_ERR_BAD_ADDR, addr);
    else if (d->access == GMMU_CSR_ACC_RO)
        set_err(c, GMMU_ERR_RO_WRITE, addr);
    else if (addr == GMMU_CSR_CMD && (cmd_valid_q || ff->co_busy))
        set_err(c, GMMU_ERR_CMD_BUSY, addr);
    else if (wd & d->mbz)
        set_err(c, GMMU_ERR_BAD_VALUE, addr);
    else if (!csr_legal(c, ff, d, wd))
        set_err(c, d->legal_err, addr);
    else
        csr_write(c, addr, wd & d->wmask, wr);
}

void csr_co_flush(csr_t *c, uint32_t region, uint8_t asid) {
    c->cmd_valid = 1;
    c->cmd_op = GMMU_CMD_INVAL_PAGE;
    c->cmd_vpn = (uint64_t)region << GMMU_PT_IDX_W;
    c->cmd_asid = asid & c->asid_mask;
    c->cmd_scope = c->asid_mask != 0;
}

/* The RTL keeps the address bits above the alignment only: PT_BASE[47:12], FB_BASE[47:5]. */
int csr_state_get(const csr_t *c, const char *reg, uint32_t i, uint64_t *val) {
    if (strcmp(reg, "pt_base_q") == 0) {
        if (i > c->asid_mask)
            return -1;
        *val = c->pt_base[i] >> GMMU_PAGE_SHIFT;
        return 0;
    }
    if (i != 0)
        return -1;
    const struct {
        const char *name;
        uint64_t v;
    } t[] = {
        {"asid_sel_q", c->asid_sel},
        {"cmd_asid_q", c->cmd_asid},
        {"cmd_scope_q", c->cmd_scope},
        {"fb_base_q", c->fb_base >> GMMU_CSR_FB_BASE_LO_ADDR_LSB},
        {"fb_size_q", c->fb_size},
        {"get_q", c->get},
        {"ie_q", c->ie},
        {"arg_lo_q", c->arg_lo},
        {"arg_hi_q", c->arg_hi},
        {"cmd_valid_q", c->cmd_valid},
        {"cmd_op_q", c->cmd_op},
        {"cmd_vpn_q", c->cmd_vpn},
        {"err_q", c->err},
        {"err_addr_q", c->err_addr},
        {"rvalid_q", c->rvalid},
        {"rdata_q", c->rdata},
        {"blocking_q", c->blocking},
        {"acc_ctrl_q", c->acc_ctrl},
        {"acc_thresh_q", c->acc_thresh},
        {"acc_base_q", c->acc_base >> GMMU_CSR_ACC_BASE_LO_ADDR_LSB},
        {"acc_size_q", c->acc_size},
        {"acc_get_q", c->acc_get},
        /* §20.5: BMP_BASE[47:3]; the registers exist only with LineBitmap = 1 (0 otherwise) */
        {"bmp_base_q",
         c->has_bmp ? (c->bmp_base >> 3) & ((UINT64_C(1) << (GMMU_PA_W - 3)) - 1u) : 0u},
        {"bmp_pages_q", c->has_bmp ? c->bmp_pages : 0u},
        {"bmp_vpn0_q", c->has_bmp ? c->bmp_vpn0 : 0u},
    };
    for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
        if (strcmp(reg, t[k].name) == 0) {
            *val = t[k].v;
            return 0;
        }
    }
    return -1;
}

void csr_dump(const csr_t *c, FILE *f) {
    fprintf(f,
            "csr: pt_base[0]=0x%llx asid_sel=%u fb_base=0x%llx fb_size=%u get=%u ie=%u "
            "arg=0x%x_%08x\n"
            "  cmd valid=%u op=%u asid=%u scope=%u vpn=0x%llx err=0x%x err_addr=0x%x rvalid=%u "
            "rdata=0x%x blocking=%u\n",
            (unsigned long long)c->pt_base[0], c->asid_sel, (unsigned long long)c->fb_base,
            c->fb_size, c->get, c->ie, c->arg_hi, c->arg_lo, c->cmd_valid, c->cmd_op, c->cmd_asid,
            c->cmd_scope, (unsigned long long)c->cmd_vpn, c->err, c->err_addr, c->rvalid, c->rdata,
            c->blocking);
}
