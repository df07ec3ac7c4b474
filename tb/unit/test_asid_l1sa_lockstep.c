/*
 * test_asid_l1sa_lockstep.c - the address-space scenarios of test_cmodel_asid.c on a
 * set-associative L1 base array (docs/microarch.md §1.4: l1_sets = 4, 4 sets x 2 ways), in
 * lock-step with the Verilated RTL of configs/l1sa.cfg (tiny with num_asids = 4, l1_sets = 4):
 * fills, hits, page flushes (one set) and flushes by ASID (every entry's ASID bits) of the
 * gmmu_tlb_sa_async array, every output port compared in every cycle (as test_asid_lockstep.c).
 */
#include "test_lockstep.h"

#define ASID_ATTACH(h) ls_attach(h)
#define ASID_DETACH(h) ls_detach(h)
#define ASID_PARAMS(p) ((p)->l1_sets = 4u)
#include "test_cmodel_asid.c"
