// smoke_main.cpp - testbench of gmmu.core's `sim` target (FuseSoC/edalize, Verilator): resets
// gmmu_top, checks it is idle, reads the ID and VERSION registers through the CSR port and
// checks their values (from the spec, cmodel/gen/gmmu_consts.h). Exit 0 on success. The real
// co-simulation is gmmu-sim (make cosim); this only shows the core builds and runs as packaged.
#include <cstdio>

#include "Vgmmu_top.h"
#include "gmmu_consts.h"
#include "verilated.h"

namespace {

void tick(Vgmmu_top &t) {
    t.clk_i = 1;
    t.eval();
    t.clk_i = 0;
    t.eval();
}

// One CSR read: request in one cycle, rvalid (registered) in the next.
bool csr_read(Vgmmu_top &t, unsigned addr, unsigned *val) {
    t.csr_valid_i = 1;
    t.csr_write_i = 0;
    t.csr_addr_i = addr;
    tick(t);
    t.csr_valid_i = 0;
    for (int i = 0; i < 4; i++) {
        if (t.csr_rvalid_o) {
            *val = t.csr_rdata_o;
            return true;
        }
        tick(t);
    }
    return false;
}

} // namespace

int main(int argc, char **argv) {
    VerilatedContext ctx;
    ctx.commandArgs(argc, argv);
    Vgmmu_top t(&ctx);
    t.clk_i = 0;
    t.rst_ni = 0;
    t.eval();
    tick(t);
    tick(t);
    t.rst_ni = 1;
    t.eval();
    for (int i = 0; i < 4; i++)
        tick(t);
    int errors = 0;
    if (!t.idle_o) {
        std::printf("smoke: gmmu_top not idle after reset\n");
        errors++;
    }
    const struct {
        const char *name;
        unsigned addr, want;
    } regs[] = {{"ID", GMMU_CSR_ID, GMMU_CSR_ID_VALUE},
                {"VERSION", GMMU_CSR_VERSION, GMMU_CSR_VERSION_VALUE}};
    for (const auto &r : regs) {
        unsigned v = 0;
        if (!csr_read(t, r.addr, &v)) {
            std::printf("smoke: %s: no read response\n", r.name);
            errors++;
        } else if (v != r.want) {
            std::printf("smoke: %s reads 0x%08x, expected 0x%08x\n", r.name, v, r.want);
            errors++;
        }
    }
    t.final();
    std::printf("smoke: %s\n", errors ? "FAIL" : "PASS");
    return errors ? 1 : 0;
}
