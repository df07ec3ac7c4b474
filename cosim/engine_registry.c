/*
 * engine_registry.c - the engines gmmu-sim offers (engine.h). A new engine adds its ops here
 * (and its file to COSIM_MODS in mk/cosim.mk).
 */
#include "engine.h"

static const engine_ops_t *const k_engines[] = {&engine_cmodel_ops, &engine_rtl_ops,
                                                &engine_netlist_ops};

const engine_registry_t engine_registry = {k_engines, sizeof(k_engines) / sizeof(k_engines[0])};
