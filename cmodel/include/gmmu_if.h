/*
 * gmmu_if.h - the cycle interface of gmmu_top, shared by every engine.
 *
 * gmmu_in_t holds the value of every input port of gmmu_top for one cycle, gmmu_out_t the value
 * of every output port. Every output is a function of registered state only (Moore), so a cycle is:
 *   out = engine_outputs();   harness computes in from out;   engine_step(in)  (one rising edge).
 * Arrays are indexed [sm][port]; only the first num_sm / num_ports entries are meaningful, the
 * rest must be zero in inputs and are ignored in outputs.
 * Bit-level layout of the flattened SystemVerilog ports is given in docs/microarch.md §2.
 */
#ifndef GMMU_IF_H
#define GMMU_IF_H

#include <stdint.h>

/* RTL-visible parameters: gmmu_params_t, generated from spec/params.toml (SystemVerilog parameters
 * of gmmu_top; legal ranges in docs/gen/params.md). */
#include "gmmu_params.h"

#define GMMU_MAX_SM GMMU_PARAM_NUM_SM_MAX
#define GMMU_MAX_PORTS GMMU_PARAM_NUM_PORTS_MAX

typedef struct {
    uint64_t time; /* time_i: timestamp written into fault entries */
    uint8_t req_valid[GMMU_MAX_SM][GMMU_MAX_PORTS];
    uint64_t req_vpn[GMMU_MAX_SM][GMMU_MAX_PORTS]; /* 36 bits */
    uint8_t req_write[GMMU_MAX_SM][GMMU_MAX_PORTS];
    uint8_t req_id[GMMU_MAX_SM][GMMU_MAX_PORTS];
    uint8_t mem_req_ready;
    uint8_t mem_rsp_valid;
    uint8_t mem_rsp_id;
    uint64_t mem_rsp_data;
    uint8_t fb_wr_ready;
    uint8_t csr_valid;
    uint8_t csr_write;
    uint16_t csr_addr; /* 12 bits */
    uint32_t csr_wdata;
} gmmu_in_t;

typedef struct {
    uint8_t req_ready[GMMU_MAX_SM];
    uint8_t hit_valid[GMMU_MAX_SM][GMMU_MAX_PORTS];
    uint8_t hit_id[GMMU_MAX_SM][GMMU_MAX_PORTS];
    uint64_t hit_ppn[GMMU_MAX_SM][GMMU_MAX_PORTS];
    uint8_t miss_valid[GMMU_MAX_SM];
    uint8_t miss_id[GMMU_MAX_SM];
    uint64_t miss_ppn[GMMU_MAX_SM];
    uint8_t miss_fatal[GMMU_MAX_SM];
    uint8_t mem_req_valid;
    uint64_t mem_req_addr; /* 48 bits, 8-byte aligned */
    uint8_t mem_req_id;
    uint8_t fb_wr_valid;
    uint64_t fb_wr_addr; /* 48 bits, 32-byte aligned */
    uint32_t fb_wr_data[8];
    uint8_t csr_rvalid;
    uint32_t csr_rdata;
    uint8_t irq;
    uint8_t idle;
    uint8_t ev; /* EV_* bits */
} gmmu_out_t;

#endif
