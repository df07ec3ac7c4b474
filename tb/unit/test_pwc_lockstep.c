/*
 * test_pwc_lockstep.c - the page-walk-cache scenarios of test_cmodel_pwc.c (docs/microarch.md
 * §16) in lock-step with the Verilated RTL of configs/pwc.cfg (tiny, 4 address spaces, 6-entry
 * page-walk cache, 3-cycle hits): every output port compared every cycle (test_lockstep.h).
 */
#include "test_lockstep.h"

#define PWC_ATTACH(h) ls_attach(h)
#define PWC_DETACH(h) ls_detach(h)
#include "test_cmodel_pwc.c"
