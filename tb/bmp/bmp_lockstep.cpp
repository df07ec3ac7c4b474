// Block-level lock-step test of the referenced-line bitmap write-back queue and BMP_FLUSH scanner
// (docs/microarch.md §20.4, §20.5): the RTL gmmu_bmp (Verilator) and the C model cmodel/bmp.c get
// the same inputs every cycle; every output (load, address, data, scanner take, losses, done) and
// the state (count, scanner busy and index) are compared every cycle, under random stimulus
// (departures in and out of the table window, empty bitmaps, the request register busy, BMP_FLUSH
// starts). Fails on a mismatch or if a coverage point was not hit: a loss with the queue full, a
// loss outside the window, the scanner waiting for a slot, a scan ended (done), a load of an odd
// (upper-half) page. NumDep >= 3 (the packed inputs are wide words). Usage: bmp_lockstep [seed] [cycles]
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "Vgmmu_bmp.h"
#include "verilated.h"

extern "C" {
#include "bmp.h"
#include "gmmu_consts.h"
#include "rng.h"
}

namespace {

struct Rng { // the project's xorshift64 (common/rng.h), as the C model's stress test uses it
    uint64_t s;
    uint64_t next() { return rng_xorshift64(&s); }
    unsigned below(unsigned n) { return static_cast<unsigned>(next() % n); }
};

constexpr unsigned kScan = BMP_NSCAN;
constexpr unsigned kDep = BMP_NDEP;
constexpr uint64_t kPaMask = (UINT64_C(1) << GMMU_PA_W) - 1u;

struct Cov {
    unsigned lost_full = 0, lost_window = 0, scan_wait = 0, done = 0, load_hi = 0, load = 0;
};

struct Bench {
    Vgmmu_bmp dut;
    bmp_t m;
    uint64_t cycle = 0;
    unsigned errors = 0;
    Cov cov;

    Bench() {
        bmp_init(&m, kScan);
        dut.rst_ni = 0;
        dut.clk_i = 0;
        dut.eval();
        dut.rst_ni = 1;
        dut.eval();
    }

    void fail(const char *what, uint64_t rtl, uint64_t model) {
        if (errors < 10)
            std::fprintf(stderr,
                         "bmp_lockstep: lock-step mismatch at cycle %llu: %s: rtl 0x%llx, "
                         "model 0x%llx\n",
                         static_cast<unsigned long long>(cycle), what,
                         static_cast<unsigned long long>(rtl),
                         static_cast<unsigned long long>(model));
        errors++;
    }

    void check(const char *what, uint64_t rtl, uint64_t model) {
        if (rtl != model)
            fail(what, rtl, model);
    }

    // one cycle: same inputs to both, outputs compared, one edge, state compared
    void step(const bmp_in_t &in) {
        dut.base_i = in.base;
        dut.pages_i = in.pages;
        dut.vpn0_i = in.vpn0;
        for (unsigned k = 0; k < kDep; k++) {
            const bool v = k < in.n_dep;
            const uint64_t vpn = v ? in.dep[k].vpn : 0;
            const uint32_t b = v ? in.dep[k].bmp : 0;
            // packed [NumDep][VpnW]: element k at bits [k*36 +: 36]; [NumDep][32]: word k
            for (unsigned bit = 0; bit < GMMU_VPN_W; bit++) {
                const unsigned pos = k * GMMU_VPN_W + bit;
                const uint32_t m1 = 1u << (pos % 32);
                if ((vpn >> bit) & 1u)
                    dut.dep_vpn_i[pos / 32] |= m1;
                else
                    dut.dep_vpn_i[pos / 32] &= ~m1;
            }
            dut.dep_bmp_i[k] = b;
        }
        dut.scan_bmp_i = in.scan_bmp;
        dut.scan_vpn_i = in.scan_vpn;
        dut.load_ok_i = in.load_ok;
        dut.mr_bmp_i = in.mr_bmp;
        dut.start_i = in.start;
        dut.eval();
        const unsigned count_q = m.count;
        const uint8_t busy_q = m.bs_busy;
        const uint32_t idx_q = m.bs_idx;
        bmp_out_t o;
        bmp_in_t mi = in;
        mi.n_dep = in.n_dep;
        bmp_step(&m, &mi, &o);
        check("load", dut.load_o, o.load);
        if (o.load) {
            check("addr", dut.addr_o, o.addr & kPaMask);
            check("wdata", dut.wdata_o, o.wdata);
            cov.load++;
            if (o.wdata >> 32)
                cov.load_hi++;
        }
        check("scan_take", dut.scan_take_o, o.scan_take);
        check("lost", dut.lost_o, o.lost);
        check("done", dut.done_o, o.done);
        if (o.done)
            cov.done++;
        if (busy_q && idx_q < kScan && count_q == GMMU_BMP_Q)
            cov.scan_wait++;
        dut.clk_i = 1;
        dut.eval();
        dut.clk_i = 0;
        dut.eval();
        cycle++;
        check("count", dut.count_o, m.count);
        check("busy", dut.busy_o, m.bs_busy);
        check("scan_idx", dut.scan_idx_o, m.bs_idx);
    }
};

} // namespace

int main(int argc, char **argv) {
    const uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1;
    const uint64_t cycles = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 100000;
    Verilated::commandArgs(argc, argv);
    Bench b;
    Rng r{seed * 0x9E3779B97F4A7C15ull + 1};
    const uint64_t vpn0 = UINT64_C(0x7f0000000) & ~UINT64_C(15);
    bmp_dep_t dep[kDep];
    for (uint64_t c = 0; c < cycles && b.errors == 0; c++) {
        bmp_in_t in{};
        in.base = UINT64_C(0x100000000) + 8u * r.below(1024);
        in.pages = (c / 5000) % 7 == 6 ? 0 : 64; // the table off now and then
        in.vpn0 = vpn0;
        in.n_dep = r.below(4) == 0 ? r.below(kDep + 1) : 0;
        for (unsigned k = 0; k < in.n_dep; k++) {
            // mostly in the window, some below or past it; some empty bitmaps
            const unsigned w = r.below(16);
            dep[k].vpn = w == 0 ? vpn0 - 1 - r.below(4) : w == 1 ? vpn0 + 64 + r.below(4)
                                                                 : vpn0 + r.below(64);
            dep[k].bmp = r.below(5) == 0 ? 0u : static_cast<uint32_t>(r.next());
            if (dep[k].bmp != 0 && !bmp_in_table(in.vpn0, in.pages, dep[k].vpn))
                b.cov.lost_window++;
        }
        in.dep = dep;
        const uint32_t sb = r.below(3) == 0 ? 0u : static_cast<uint32_t>(r.next());
        in.scan_bmp = b.m.bs_idx < kScan ? sb : 0u;
        in.scan_vpn = vpn0 + r.below(70);
        in.load_ok = r.below(3) != 0;
        in.mr_bmp = r.below(4) == 0;
        in.start = !b.m.bs_busy && r.below(50) == 0;
        const unsigned before = b.m.count;
        b.step(in);
        if (before == GMMU_BMP_Q && in.n_dep > 0)
            b.cov.lost_full++;
    }
    std::printf("bmp_lockstep: NumScan %u NumDep %u seed %llu: %llu cycles, %u mismatches; loads "
                "%u (upper half %u), scan waits %u, scans done %u, full-queue cycles with "
                "departures %u, out-of-window departures %u\n",
                kScan, kDep, static_cast<unsigned long long>(seed),
                static_cast<unsigned long long>(b.cycle), b.errors, b.cov.load, b.cov.load_hi,
                b.cov.scan_wait, b.cov.done, b.cov.lost_full, b.cov.lost_window);
    if (b.errors)
        return 1;
    if (!b.cov.load_hi || !b.cov.scan_wait || !b.cov.done || !b.cov.lost_full ||
        !b.cov.lost_window) {
        std::fprintf(stderr, "bmp_lockstep: a coverage point was not hit\n");
        return 1;
    }
    return 0;
}
