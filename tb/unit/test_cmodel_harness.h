/*
 * test_cmodel_harness.h - test bench around the C model for the cmocka unit tests: drives the
 * cycle protocol (outputs, inputs, edge), a fake PTE memory with a fixed latency and helpers to
 * build 4-level page tables, access CSRs and log completions.
 */
#ifndef TEST_CMODEL_HARNESS_H
#define TEST_CMODEL_HARNESS_H

#include <stdint.h>

#include "gmmu_consts.h"
#include "gmmu_if.h"
#include "gmmu_model.h"

#define TH_MEM_MAX 8192
#define TH_Q_MAX 256
#define TH_LOG_MAX 256

typedef struct {
    uint64_t cycle; /* cycle whose outputs showed it */
    uint32_t sm;
    uint8_t id, fatal, sys; /* sys: miss_sys_o, the aperture (docs/microarch.md §17) */
    uint64_t ppn;
} th_miss_t;

typedef struct {
    uint64_t cycle; /* cycle of the transferring edge */
    uint64_t addr;
    uint32_t data[8];
} th_fb_t;

typedef struct {
    gmmu_params_t p;
    gmmu_model_t *m;
    gmmu_in_t in;   /* inputs of the current cycle; req_* and csr_* are cleared after each step */
    gmmu_out_t out; /* outputs of the current cycle */
    uint64_t cycle;
    /* fake PTE memory */
    uint64_t mem_addr[TH_MEM_MAX], mem_val[TH_MEM_MAX];
    unsigned nmem;
    uint64_t next_table; /* bump allocator for page-table pages */
    uint64_t pt_base;
    unsigned mem_lat; /* cycles from the transferring edge to the response cycle (>= 1) */
    int mem_auto;     /* respond automatically */
    int mem_ready;    /* mem_req_ready_i */
    struct {
        uint8_t id;
        uint64_t data, due;
    } q[TH_Q_MAX];
    unsigned nq;
    unsigned mem_reqs; /* transferred memory reads */
    uint64_t mem_req_cycle[TH_LOG_MAX];
    uint64_t mem_req_addr[TH_LOG_MAX];
    /* fault-buffer writes */
    int fb_ready;
    th_fb_t fb[TH_LOG_MAX]; /* circular: entry i at fb[i % TH_LOG_MAX] */
    unsigned nfb;
    /* completions */
    th_miss_t miss[TH_LOG_MAX];
    unsigned nmiss;
    unsigned ev_count[GMMU_EV_W];
    unsigned mem_writes;    /* transferred PTE writes (§15.2), performed into the fake memory */
    unsigned quiet_checked; /* quiet cycles whose edge was checked to change nothing */
    /* called by th_step with the outputs of the cycle, before the edge */
    void (*on_cycle)(void *ctx, const gmmu_out_t *out);
    void *ctx;
} th_t;

void th_params_tiny(gmmu_params_t *p);
/* The seeds' GPU of configs/paper.cfg's RTL keys (16 SMs x 4 ports, 128-entry L1s, a 512-entry
 * L2 of 32 sets x 16 ways, 64 walkers, 64 far-fault entries). */
void th_params_paper(gmmu_params_t *p);
void th_init(th_t *h, const gmmu_params_t *p);
void th_done(th_t *h);
/* One cycle: memory responses / readies into h->in, edge, outputs of the next cycle. */
void th_step(th_t *h);
void th_steps(th_t *h, unsigned n);
/* Steps until pred is true on the current outputs (max cycles); returns the cycle or -1. */
long th_run_until_idle(th_t *h, unsigned max);

uint64_t th_mem_read(const th_t *h, uint64_t addr);
void th_mem_write(th_t *h, uint64_t addr, uint64_t val);
/* 4-level tables under h->pt_base; returns the PA of the leaf PTE. flags = PTE bits. */
uint64_t th_map(th_t *h, uint64_t vpn, uint64_t ppn, uint64_t flags);
/* Large page: level-2 entry with L pointing to a table whose entry 0 holds ppn (2 MB aligned). */
uint64_t th_map_large(th_t *h, uint64_t vpn, uint64_t ppn, uint64_t flags);
/* PA of the level-l PTE of vpn (tables must exist down to level l). */
uint64_t th_pte_addr(th_t *h, uint64_t vpn, unsigned level);

void th_csr_write(th_t *h, uint32_t addr, uint32_t val); /* one cycle */
uint32_t th_csr_read(th_t *h, uint32_t addr);            /* two cycles, checks rvalid */
/* PT_BASE, FB_BASE, FB_SIZE */
void th_setup(th_t *h, uint64_t pt_base, uint64_t fb_base, uint32_t fb_size);
/* Writes CMD_ARG and CMD (3 cycles) */
void th_cmd(th_t *h, uint32_t op, uint64_t vpn);
/* Presents a request on (sm, port) for the current cycle (caller checks req_ready). */
void th_req(th_t *h, uint32_t sm, uint32_t port, uint64_t vpn, int write, uint8_t id);

#endif
