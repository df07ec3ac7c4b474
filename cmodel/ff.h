/*
 * ff.h - far-fault unit and fault-buffer writer (RTL gmmu_ff, docs/microarch.md §7).
 */
#ifndef GMMU_FF_H
#define GMMU_FF_H

#include <stdint.h>
#include <stdio.h>

#include "gmmu_if.h"
#include "gmmu_int.h"

#define FF_MAX 256
#define FF_WORDS (FF_MAX / 64)

typedef struct {
    uint32_t n, n_sm, quota;
    uint64_t valid[FF_WORDS]; /* bit i % 64 of word i / 64 = entry i valid */
    uint64_t vpn[FF_MAX];
    uint8_t asid[FF_MAX]; /* far-fault entries are per (asid, vpn) (§14.3) */
    uint32_t mask[FF_MAX];
    uint8_t write[FF_MAX];
    uint32_t dropped, replay; /* dropped_q[S], replay_q[S] */
    uint8_t cancel_valid;
    uint8_t cancel_asid;
    uint64_t cancel_vpn;
    /* fault-entry write register -> fb_wr_*_o */
    uint8_t fw_valid;
    uint64_t fw_addr;
    uint32_t fw_data[8];
    /* offer register (§7): the L2's offer, processed in the next cycle that is not a command
     * cycle */
    uint8_t off_valid;
    gmmu_fault_offer_t off;
    uint32_t off_mask;
    uint16_t put; /* put_q (FB_PUT) */
    uint8_t overflow;
} ff_t;

/* Per-cycle signals computed by ff_begin from _q state. */
typedef struct {
    uint8_t ready;   /* ready_o = !fw_valid_q && !off_valid_q: the L2 offers only while 1 */
    uint8_t ovf_set; /* OVERFLOW set by the unit this cycle */
} ff_cycle_t;

/* Ring registers read from the CSR block (_q). */
typedef struct {
    uint64_t fb_base;
    uint32_t fb_size;
    uint32_t get;
} ff_ring_t;

void ff_init(ff_t *f, const gmmu_params_t *p);
int ff_busy(const ff_t *f);
/* Number of valid entries (FF_COUNT). */
uint32_t ff_count(const ff_t *f);
/* ready_o (§7): the fault-entry write register and the offer register are empty (_q); read by
 * the L2's response selection. */
int ff_ready(const ff_t *f);
/* Start of the cycle: default next values (fw_valid cleared on transfer, replay and cancel 0). */
void ff_begin(ff_t *f, uint8_t fb_wr_ready, ff_cycle_t *cy);
/* The offer register (§7), after ff_begin: outside a command cycle (cmd_cycle 0) its offer, if
 * any, is handled (merge, drop or post, with the events of EV_FF_*) and the register emptied;
 * in a command cycle it holds. */
void ff_process(ff_t *f, ff_cycle_t *cy, const ff_ring_t *ring, uint64_t time, uint8_t cmd_cycle,
                uint16_t *ev);
/* Offer of a fault from the L2 (§7), after ff_process: the record o (spec/tlb.toml
 * [fault_offer]) and the SM mask go into the offer register. The L2 offers only while ff_ready
 * (§5.3 step 1); an offer otherwise is a violation (RTL a_offer_ready) and changes nothing. */
void ff_take(ff_t *f, const ff_cycle_t *cy, const gmmu_fault_offer_t *o, uint32_t mask,
             gmmu_viol_t *v);
/* Host command executed in a command cycle (REPLAY_PAGE, REPLAY_ALL, CANCEL_PAGE; others no-op);
 * the page commands name the page (asid, vpn). */
void ff_command(ff_t *f, uint32_t op, uint8_t asid, uint64_t vpn);
void ff_dump(const ff_t *f, FILE *fp);
/* State accessor (gmmu_model_state_get): element i, 64-bit word `word` (e_valid_q is FfEntries
 * bits wide; every other register fits word 0) of register reg of u_ff. The RTL keeps the
 * fault-entry write register as fields (fw_vpn_q, fw_time_q, ...), the model as the 32-byte
 * entry fw_data: the accessor decodes it. 0, or -1 if there is none. */
int ff_state_get(const ff_t *f, const char *reg, uint32_t i, uint32_t word, uint64_t *val);

#endif
