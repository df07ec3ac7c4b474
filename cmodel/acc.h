/*
 * acc.h - access-counter unit (RTL gmmu_acc, docs/microarch.md §19): a tracker of regions with a
 * count and a sub-region mask each, one observation per cycle, one notification per threshold
 * crossing (C365 layout) into a ring in host memory, or an overflow.
 */
#ifndef GMMU_ACC_H
#define GMMU_ACC_H

#include <stdint.h>

#define ACC_MAX 64

/* One tracker entry (§19.1). */
typedef struct {
    uint8_t valid, cls, asid;
    uint32_t rgn;
    uint16_t cnt;
    uint32_t mask;
} acc_entry_t;

typedef struct {
    uint32_t n;         /* AccEntries (1..ACC_MAX) */
    uint32_t asid_mask; /* NumAsids - 1: the stored ASID bits (§14.1) */
    acc_entry_t e[ACC_MAX];
    uint32_t arr; /* arr_q: round-robin victim */
    uint16_t put; /* aput_q (ACC_PUT) */
    uint8_t overflow;
    /* notification write register -> acc_wr_*_o */
    uint8_t nw_valid;
    uint64_t nw_addr;
    uint32_t nw_data[8];
} acc_t;

/* Inputs of one cycle (§19.2, §19.3, §19.5); the configuration is the CSR block's _q state. */
typedef struct {
    uint8_t obs_valid, obs_remote, obs_asid;
    uint64_t obs_vpn;
    uint8_t en_local, en_remote, gran;
    uint16_t thresh;
    uint64_t base; /* ring base, 32-byte aligned byte address */
    uint32_t size, get;
    uint8_t size_wr, ovf_clr;
    uint8_t clear_all, clear;
    uint8_t cmd_asid;
    uint64_t cmd_vpn;
    uint8_t wr_ready;
} acc_in_t;

/* Events of one cycle (block outputs ev_*_o). */
typedef struct {
    uint8_t notify, ovf, count, repl;
} acc_ev_t;

/* n = AccEntries (1..ACC_MAX), num_asids a power of two. */
void acc_init(acc_t *a, uint32_t n, uint32_t num_asids);
/* Busy (idle contribution, §19.6): the write register holds a notification. */
int acc_busy(const acc_t *a);
/* G, the region shift in pages, of ACC_CTRL.GRAN (§19.2). */
unsigned acc_gran_shift(uint8_t gran);
/* One clock cycle: outputs (wr_*) are those of the state before the call. */
void acc_cycle(acc_t *a, const acc_in_t *in, acc_ev_t *ev);

/* State accessor of g_acc.u_acc (§19.1): e_valid_q / e_cls_q (one bit per entry, element 0),
 * e_asid_q, e_rgn_q, e_cnt_q, e_mask_q (element i = entry i), arr_q, put_q, ovf_q and the
 * notification register nw_valid_q, nw_addr_q (address >> 5), nw_cls_q, nw_asid_q, nw_va_q,
 * nw_cnt_q, nw_mask_q (decoded from the entry words the model keeps). 0, or -1. */
int acc_state_get(const acc_t *a, const char *reg, uint32_t i, uint32_t word, uint64_t *val);

#endif
