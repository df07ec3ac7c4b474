/*
 * csr.h - CSR block (RTL gmmu_csr, docs/microarch.md §8).
 */
#ifndef GMMU_CSR_H
#define GMMU_CSR_H

#include <stdint.h>
#include <stdio.h>

#include "gmmu_if.h"
#include "gmmu_int.h"

typedef struct {
    uint32_t params_word;                       /* PARAMS register (constant) */
    uint64_t pt_base[GMMU_PARAM_NUM_ASIDS_MAX]; /* 48 bits, one per address space (§14.2) */
    uint8_t asid_mask;                          /* NumAsids - 1 */
    uint32_t arg_hi_keep;                       /* stored CMD_ARG_HI bits (§14.4) */
    uint8_t asid_sel;                           /* ASID_SEL */
    uint64_t fb_base;                           /* 48 bits */
    uint32_t fb_size;                           /* 17 bits */
    uint16_t get;
    uint8_t ie; /* 2 bits */
    uint32_t arg_lo;
    uint32_t arg_hi; /* VPN[3:0], ASID[15:8], SCOPE[16] */
    uint8_t cmd_valid, cmd_op;
    uint64_t cmd_vpn;
    uint8_t cmd_asid, cmd_scope; /* §14.4 */
    uint8_t err;                 /* 5 bits */
    uint16_t err_addr;           /* 12 bits */
    uint8_t rvalid;
    uint32_t rdata;
    uint8_t blocking; /* FAULT_CTRL.BLOCKING: the fault mode (§4.1) */
    /* access counters (§19.2, present only with AccEntries > 0, §19.8) */
    uint32_t cond_true; /* GMMU_CSR_COND_* bits that hold: the present_if registers exist */
    uint8_t ie_keep;    /* stored INT_ENABLE bits */
    uint8_t has_acc;    /* AccEntries > 0: opcodes ACC_CLEAR_ALL / ACC_CLEAR legal */
    uint8_t acc_ctrl;   /* ACC_CTRL [3:0]: EN_LOCAL, EN_REMOTE, GRAN */
    uint16_t acc_thresh;
    uint64_t acc_base; /* 48 bits, 32-byte aligned */
    uint32_t acc_size;
    uint16_t acc_get;
    /* referenced-line bitmaps (§20.5, present only with LineBitmap = 1) */
    uint8_t has_bmp;   /* LineBitmap = 1: opcode BMP_FLUSH legal */
    uint64_t bmp_base; /* BMP_BASE: 48 bits, 8-byte aligned */
    uint32_t bmp_pages;
    uint32_t bmp_vpn0; /* BMP_VPN0: the window's first VPN >> 4 */
} csr_t;

/* Values of gmmu_ff read by the CSR block (_q). */
typedef struct {
    uint16_t put;
    uint8_t overflow;
    uint32_t ff_count;
    uint8_t co_busy;  /* the coalesce unit or the BMP_FLUSH scanner is running (CMD_STATUS.BUSY,
                       * §15.1, §20.4) */
    uint8_t co_err;   /* co_err_q (CMD_STATUS.CO_ERR) */
    uint16_t acc_put; /* the access-counter unit's aput_q (ACC_PUT) */
    uint8_t acc_ovf;  /* aovf_q (ACC_STATUS.OVERFLOW) */
} csr_ffview_t;

/* Ring bookkeeping written by the host this cycle, applied to gmmu_ff after its own updates. */
typedef struct {
    uint8_t size_write;     /* legal FB_SIZE write: PUT = 0, OVERFLOW = 0 */
    uint8_t ovf_w1c;        /* FB_STATUS write with bit 0 set */
    uint8_t acc_size_write; /* legal ACC_SIZE write: ACC_PUT = 0, OVERFLOW = 0 (§19.2) */
    uint8_t acc_ovf_w1c;    /* ACC_STATUS write with bit 0 set */
    uint8_t acc_gran_clear; /* ACC_CTRL write that changes GRAN: every tracker entry cleared */
} csr_ring_wr_t;

void csr_init(csr_t *c, const gmmu_params_t *p);
int csr_busy(const csr_t *c);
uint8_t csr_irq(const csr_t *c, const csr_ffview_t *ff);
void csr_step(csr_t *c, const gmmu_in_t *in, const csr_ffview_t *ff, csr_ring_wr_t *wr);
void csr_dump(const csr_t *c, FILE *f);
/* co_flush (§15.4), after csr_step: the command register takes an INVAL_PAGE of the region. */
void csr_co_flush(csr_t *c, uint32_t region, uint8_t asid);
/* The PT_BASE table entry ASID_SEL selects (PT_BASE_LO/HI, §14.2). */
static inline uint64_t *csr_pt_base_sel(csr_t *c) {
    return &c->pt_base[c->asid_sel & c->asid_mask];
}
/* State accessor (gmmu_model_state_get): element i of register reg of u_csr. 0, or -1 if there
 * is none. */
int csr_state_get(const csr_t *c, const char *reg, uint32_t i, uint64_t *val);

#endif
