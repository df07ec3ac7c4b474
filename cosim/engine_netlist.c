/*
 * engine_netlist.c - the synthesized gate-level netlist of gmmu_top as an engine (engine.h):
 * Yosys (slang front end, generic `synth -flatten`, checked by scripts/synth.py) writes the
 * netlist, Verilator builds it with its own --prefix (V<config>_netlist) and the shim is compiled
 * in the name space "netlist" (vshim_netlist_*), mk/netlist.mk. The engine is engine_rtl.c with
 * that name space: the same ports, reset and clocking as the RTL engine, no copy of its code.
 *
 * Only build/<config>/gmmu-sim-netlist links the netlist model (make sim-netlist CONFIG=<name>):
 * building it costs a synthesis and a Verilator build, which the normal gmmu-sim does not pay.
 * In every other binary the weak definitions below stand in for the shim; they report no model
 * (no parameters), so create fails with a message naming the binary to use. They are never
 * called in a binary that links the model (its strong definitions replace them).
 */
#define VSHIM_NS netlist
#define ENGINE_RTL_OPS engine_netlist_ops
#define ENGINE_RTL_NAME "netlist"
#define ENGINE_RTL_LABEL "netlist"
#define ENGINE_RTL_BINARY "gmmu-sim-netlist"
#define ENGINE_RTL_TARGET "sim-netlist"
#define ENGINE_RTL_STATE 0 /* gate-level: no named _q registers for --state-compare */
#include "engine_rtl.c"

#include <string.h>

#define NETLIST_WEAK __attribute__((weak))

NETLIST_WEAK void vshim_netlist_built_params(gmmu_params_t *p) {
    memset(p, 0, sizeof(*p));
}

NETLIST_WEAK vshim_t *vshim_netlist_new(const gmmu_params_t *p, char *err, size_t errlen) {
    (void)p;
    snprintf(err, errlen, "no netlist model in this binary (make sim-netlist)");
    return NULL;
}

NETLIST_WEAK void vshim_netlist_free(vshim_t *v) {
    (void)v;
}

NETLIST_WEAK void vshim_netlist_outputs(vshim_t *v, gmmu_out_t *out) {
    (void)v;
    memset(out, 0, sizeof(*out));
}

NETLIST_WEAK void vshim_netlist_step(vshim_t *v, const gmmu_in_t *in, uint64_t cycle) {
    (void)v;
    (void)in;
    (void)cycle;
}

NETLIST_WEAK int vshim_netlist_trace_open(vshim_t *v, const char *path, int with_ref) {
    (void)v;
    (void)path;
    (void)with_ref;
    return -1;
}

NETLIST_WEAK void vshim_netlist_trace_ref(vshim_t *v, const gmmu_out_t *before,
                                          const gmmu_out_t *after) {
    (void)v;
    (void)before;
    (void)after;
}

NETLIST_WEAK void vshim_netlist_trace_close(vshim_t *v) {
    (void)v;
}

NETLIST_WEAK int vshim_netlist_failed(const vshim_t *v) {
    (void)v;
    return 0;
}
