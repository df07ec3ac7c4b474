/*
 * test_co_lockstep.c - the coalesce-unit scenarios of test_cmodel_co.c (docs/microarch.md §15)
 * in lock-step with the Verilated RTL of configs/asid4.cfg (tiny with num_asids = 4): every
 * output port compared every cycle (test_lockstep.h). Covers what the platform cannot drive
 * (several address spaces, §14.9): a coalesce and a splinter in one ASID while another ASID
 * maps the same region (test_coalesce_asid_mix), beside the one-ASID scenarios.
 */
#include "test_lockstep.h"

#define CO_NUM_ASIDS 4
#define CO_ATTACH(h) ls_attach(h)
#define CO_DETACH(h) ls_detach(h)
#include "test_cmodel_co.c"
