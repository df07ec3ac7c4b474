/*
 * gmmu_if.h - the cycle interface of gmmu_top, shared by every engine.
 *
 * gmmu_in_t holds the value of every input port of gmmu_top for one cycle, gmmu_out_t the value
 * of every output port. Every output is a function of registered state only (Moore), so a cycle is:
 *   out = engine_outputs();   harness computes in from out;   engine_step(in)  (one rising edge).
 * Arrays are indexed [sm][port]; only the first num_sm / num_ports entries are meaningful, the
 * rest must be zero in inputs and are ignored in outputs.
 * Bit-level layout of the flattened SystemVerilog ports is given in docs/microarch.md §2; the
 * port list itself is spec/ports.toml.
 */
#ifndef GMMU_IF_H
#define GMMU_IF_H

#include <stdint.h>

#define GMMU_MAX_SM 32
#define GMMU_MAX_PORTS 8

/* RTL-visible parameters (become SystemVerilog parameters of gmmu_top). */
typedef struct {
    uint32_t num_sm;           /* NumSm          1..32                          */
    uint32_t num_ports;        /* NumPorts       1..8, lookups per SM per cycle  */
    uint32_t l1_entries;       /* L1Entries      base entries, power of two      */
    uint32_t l1_large_entries; /* L1LargeEntries large entries, power of two     */
    uint32_t l1_req_entries;   /* L1ReqEntries   request table (miss MSHRs), >= NumPorts, <= 64 */
    uint32_t l2_sets;          /* L2Sets         power of two                    */
    uint32_t l2_ways;          /* L2Ways         power of two                    */
    uint32_t l2_large_entries; /* L2LargeEntries power of two                    */
    uint32_t l2_latency;       /* L2Latency      pipeline stages, >= 1           */
    uint32_t l2_mshr_entries;  /* L2MshrEntries  1..64                           */
    uint32_t num_walkers;      /* NumWalkers     1..64                           */
    uint32_t ff_entries;       /* FfEntries      far-fault MSHRs, 1..64          */
    uint32_t ff_quota;         /* FfQuota        per-SM far-fault quota, 1..64   */
} gmmu_params_t;

/* gmmu_in_t (every input port) and gmmu_out_t (every output port), generated from the port list
 * spec/ports.toml by scripts/gen_ports.py, with the port tables compare.c walks. */
#include "gmmu_ports.h"

#endif
