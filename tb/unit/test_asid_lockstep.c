/*
 * test_asid_lockstep.c - the address-space scenarios of test_cmodel_asid.c (several ASIDs, which
 * the platform cannot drive yet, docs/microarch.md §14.9) in lock-step: the Verilated RTL of
 * configs/asid4.cfg (tiny with num_asids = 4) takes the inputs the C model takes, cycle by cycle,
 * and every output port of both is compared in every cycle (cmp_outputs, cosim/compare.c); the
 * first difference fails the test with the port, the cycle and both values. A scenario whose
 * parameters differ from the built model's (num_asids = 1 in test_pt_base_table) runs on the
 * model alone and says so.
 */
#include "test_lockstep.h"

#define ASID_ATTACH(h) ls_attach(h)
#define ASID_DETACH(h) ls_detach(h)
#include "test_cmodel_asid.c"
