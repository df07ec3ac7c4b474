// Block-level lock-step test of the access-counter unit (docs/microarch.md §19): the RTL
// gmmu_acc (Verilator) and the C model cmodel/acc.c get the same inputs every cycle; every output
// and the tracker's valid bits and counts are compared every cycle. A directed phase checks the
// spec's expected values (threshold crossing, ring wrap, full ring -> overflow, clears racing
// with counting); a random phase runs the same checks under random stimulus and fails if a
// coverage point of §19 (crossing, overflow, wrap, replacement, stalled write, clear racing with
// a count, targeted clear) was not hit. Usage: acc_lockstep [seed] [cycles]
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "Vgmmu_acc.h"
#include "Vgmmu_acc___024root.h"
#include "verilated.h"

extern "C" {
#include "acc.h"
#include "gmmu_consts.h"
#include "rng.h"
}

namespace {

struct Rng { // the project's xorshift64 (common/rng.h), as the C model's stress test uses it
    uint64_t s;
    uint64_t next() { return rng_xorshift64(&s); }
    unsigned below(unsigned n) { return static_cast<unsigned>(next() % n); }
};

constexpr unsigned kEntries = ACC_N;   // -GAccEntries of the build
constexpr unsigned kAsids = ACC_ASIDS; // -GNumAsids of the build
const char *const kEv[4] = {"ev_notify", "ev_ovf", "ev_count", "ev_repl"};
const char *const kWord[8] = {"wr_data w0", "wr_data w1", "wr_data w2", "wr_data w3",
                              "wr_data w4", "wr_data w5", "wr_data w6", "wr_data w7"};

struct Cov {
    unsigned notify = 0, ovf = 0, wrap = 0, repl = 0, stall_skip = 0, clear_all_race = 0,
             clear_race = 0, ovf_clr_race = 0;
};

struct Bench {
    Vgmmu_acc dut;
    acc_t m;
    uint64_t cycle = 0;
    unsigned errors = 0;
    Cov cov;

    Bench() {
        acc_init(&m, kEntries, kAsids);
        dut.rst_ni = 0;
        dut.clk_i = 0;
        dut.eval();
        dut.rst_ni = 1;
        dut.eval();
    }

    void fail(const char *what, uint64_t rtl, uint64_t model) {
        if (errors < 10)
            std::fprintf(stderr, "acc_lockstep: cycle %llu: %s: rtl 0x%llx, model 0x%llx\n",
                         static_cast<unsigned long long>(cycle), what,
                         static_cast<unsigned long long>(rtl),
                         static_cast<unsigned long long>(model));
        errors++;
    }

    // compare the outputs and state of the registers (before the edge)
    void compare() {
        if (dut.wr_valid_o != m.nw_valid)
            fail("wr_valid", dut.wr_valid_o, m.nw_valid);
        if (m.nw_valid) {
            if (dut.wr_addr_o != m.nw_addr)
                fail("wr_addr", dut.wr_addr_o, m.nw_addr);
            for (unsigned w = 0; w < 8; w++)
                if (dut.wr_data_o[w] != m.nw_data[w])
                    fail(kWord[w], dut.wr_data_o[w], m.nw_data[w]);
        }
        if (dut.put_o != m.put)
            fail("put", dut.put_o, m.put);
        if (dut.overflow_o != m.overflow)
            fail("overflow", dut.overflow_o, m.overflow);
        if (dut.busy_o != acc_busy(&m))
            fail("busy", dut.busy_o, acc_busy(&m));
        const auto *r = dut.rootp;
        for (unsigned i = 0; i < kEntries; i++) {
            const unsigned v = (r->gmmu_acc__DOT__e_valid_q >> i) & 1u;
            if (v != m.e[i].valid)
                fail("entry valid", v, m.e[i].valid);
            if (v && r->gmmu_acc__DOT__e_cnt_q[i] != m.e[i].cnt)
                fail("entry cnt", r->gmmu_acc__DOT__e_cnt_q[i], m.e[i].cnt);
            if (v && r->gmmu_acc__DOT__e_mask_q[i] != m.e[i].mask)
                fail("entry mask", r->gmmu_acc__DOT__e_mask_q[i], m.e[i].mask);
            if (v && r->gmmu_acc__DOT__e_rgn_q[i] != m.e[i].rgn)
                fail("entry rgn", r->gmmu_acc__DOT__e_rgn_q[i], m.e[i].rgn);
        }
    }

    // one cycle with inputs in; returns the model's events
    acc_ev_t step(const acc_in_t &in) {
        dut.obs_valid_i = in.obs_valid;
        dut.obs_remote_i = in.obs_remote;
        dut.obs_asid_i = in.obs_asid;
        dut.obs_vpn_i = in.obs_vpn;
        dut.en_local_i = in.en_local;
        dut.en_remote_i = in.en_remote;
        dut.gran_i = in.gran;
        dut.thresh_i = in.thresh;
        dut.base_i = in.base >> 5;
        dut.size_i = in.size;
        dut.get_i = in.get;
        dut.size_wr_i = in.size_wr;
        dut.ovf_clr_i = in.ovf_clr;
        dut.clear_all_i = in.clear_all;
        dut.clear_i = in.clear;
        dut.cmd_vpn_i = in.cmd_vpn;
        dut.cmd_asid_i = in.cmd_asid;
        dut.wr_ready_i = in.wr_ready;
        dut.eval();
        compare();
        const unsigned rev[4] = {dut.ev_notify_o, dut.ev_ovf_o, dut.ev_count_o, dut.ev_repl_o};
        const uint16_t put0 = m.put;
        acc_ev_t ev;
        acc_cycle(&m, &in, &ev);
        const unsigned mev[4] = {ev.notify, ev.ovf, ev.count, ev.repl};
        for (unsigned k = 0; k < 4; k++)
            if (rev[k] != mev[k])
                fail(kEv[k], rev[k], mev[k]);
        cov.notify += ev.notify;
        cov.ovf += ev.ovf;
        cov.repl += ev.repl;
        if (ev.notify && m.put == 0 && put0 != 0)
            cov.wrap++;
        if (in.obs_valid && (in.obs_remote ? in.en_remote : in.en_local) && !ev.count)
            cov.stall_skip++;
        if (ev.count && in.clear_all)
            cov.clear_all_race++;
        if (ev.count && in.clear)
            cov.clear_race++;
        if (ev.ovf && in.ovf_clr)
            cov.ovf_clr_race++;
        dut.clk_i = 1;
        dut.eval();
        dut.clk_i = 0;
        dut.eval();
        cycle++;
        return ev;
    }
};

acc_in_t base_in() {
    acc_in_t in;
    std::memset(&in, 0, sizeof(in));
    in.en_local = 1;
    in.gran = GMMU_ACC_GRAN_64K;
    in.thresh = 4;
    in.base = 0x10000;
    in.size = 4;
    in.wr_ready = 1;
    return in;
}

int expect(Bench &b, bool ok, const char *what) {
    if (!ok) {
        std::fprintf(stderr, "acc_lockstep: cycle %llu: directed: %s\n",
                     static_cast<unsigned long long>(b.cycle), what);
        b.errors++;
    }
    return ok;
}

// Directed: expected values from the spec (§19.3, §19.4), independent of the model.
void directed(Bench &b) {
    acc_in_t in = base_in();
    // threshold crossing: 4 counts of pages 0x1230 and 0x1231 (one 64 KB region 0x123)
    for (unsigned k = 0; k < 4; k++) {
        in.obs_valid = 1;
        in.obs_vpn = 0x1230 + (k & 1u);
        in.obs_asid = 1;
        const acc_ev_t ev = b.step(in);
        expect(b, ev.count == 1 && ev.notify == (k == 3u), "notify on the 4th count only");
    }
    in.obs_valid = 0;
    in.wr_ready = 0;
    b.step(in);
    expect(b, b.dut.wr_valid_o && b.dut.wr_addr_o == 0x10000, "notification at ring entry 0");
    expect(b, b.dut.wr_data_o[2] == 0x1230000u && b.dut.wr_data_o[3] == 0, "w2/w3 region VA");
    expect(b, b.dut.wr_data_o[4] == 0xfu, "w4 sub-region mask (2 KB sub-regions)");
    expect(b, b.dut.wr_data_o[6] == 4u && b.dut.wr_data_o[1] == (1u & (kAsids - 1)),
           "w6 count, w1 asid");
    expect(b, b.dut.wr_data_o[7] == 0x80000000u && b.dut.put_o == 1, "w7 valid, PUT 1");
    // stalled write register: an observation is not counted (§19.3)
    in.obs_valid = 1;
    expect(b, b.step(in).count == 0, "no count while the write is stalled");
    in.wr_ready = 1;
    // ring of 4 with GET = 0 holds 3: two more notifications fill it, the next overflows
    for (unsigned r = 0; r < 3; r++)
        for (unsigned k = 0; k < 4; k++) {
            in.obs_vpn = 0x20000 + (r << 4);
            const acc_ev_t ev = b.step(in);
            if (k == 3u)
                expect(b, r < 2u ? ev.notify == 1 : (ev.ovf == 1 && ev.notify == 0),
                       "two notifications fill the ring, the third crossing overflows");
        }
    in.obs_valid = 0;
    b.step(in);
    expect(b, b.dut.overflow_o == 1 && b.dut.put_o == 3, "OVERFLOW set, PUT 3");
    // host consumes: GET = 3, clears OVERFLOW; the next crossing wraps PUT to 0
    in.get = 3;
    in.ovf_clr = 1;
    b.step(in);
    in.ovf_clr = 0;
    expect(b, b.dut.overflow_o == 0, "OVERFLOW cleared by W1C");
    in.obs_valid = 1;
    for (unsigned k = 0; k < 4; k++)
        b.step(in);
    in.obs_valid = 0;
    b.step(in);
    expect(b, b.dut.put_o == 0 && b.dut.wr_addr_o == 0x10000 + 3 * 32, "wrap: entry 3, PUT 0");
    // clear-all racing with a count: the count is undone; targeted clear of another region keeps
    in.obs_valid = 1;
    in.obs_vpn = 0x30000;
    b.step(in);
    in.clear_all = 1;
    b.step(in);
    in.clear_all = 0;
    in.obs_valid = 0;
    b.step(in);
    expect(b, b.dut.rootp->gmmu_acc__DOT__e_valid_q == 0,
           "clear-all wins over the same-cycle count");
    in.obs_valid = 1;
    in.obs_vpn = 0x40000;
    b.step(in);
    in.clear = 1;
    in.cmd_asid = 1;
    in.cmd_vpn = 0x50000; // another region
    b.step(in);
    in.cmd_vpn = 0x40005; // its region, racing with its count
    b.step(in);
    in.clear = 0;
    in.obs_valid = 0;
    b.step(in);
    expect(b, b.dut.rootp->gmmu_acc__DOT__e_valid_q == 0, "targeted clear frees its region only");
}

void random_phase(Bench &b, Rng &rng, uint64_t cycles) {
    acc_in_t in = base_in();
    static const uint16_t kThresh[] = {1, 2, 3, 5, 8, 256};
    static const uint32_t kSize[] = {0, 2, 4, 8};
    for (uint64_t c = 0; c < cycles; c++) {
        in.obs_valid = rng.below(4) != 0;
        in.obs_remote = rng.below(4) == 0;
        in.obs_asid = static_cast<uint8_t>(rng.below(8)); // also asids above NumAsids (reduced)
        // few regions (hits) most of the time, many (replacement) sometimes
        const unsigned span = rng.below(8) == 0 ? 4096 : 6;
        in.obs_vpn = (static_cast<uint64_t>(rng.below(span)) << 12 | rng.below(4096)) &
                     (rng.below(16) == 0 ? ~0ull : 0x7fffull);
        in.obs_vpn &= (1ull << 36) - 1;
        in.wr_ready = rng.below(4) != 0;
        in.clear_all = rng.below(200) == 0;
        in.clear = rng.below(50) == 0;
        in.cmd_asid = static_cast<uint8_t>(rng.below(4));
        in.cmd_vpn = in.obs_vpn ^ (rng.below(2) ? 0 : (rng.below(64) << 12));
        in.ovf_clr = rng.below(20) == 0;
        in.size_wr = 0;
        if (rng.below(500) == 0) { // a legal ACC_SIZE write (PUT 0) and its GET
            in.size = kSize[rng.below(4)];
            in.size_wr = 1;
            in.get = 0;
        } else if (in.size && rng.below(6) == 0) {
            in.get = (in.get + 1) & (in.size - 1); // the host consumes
        }
        if (rng.below(300) == 0) { // GRAN change: the CSR block also clears every entry
            in.gran = static_cast<uint8_t>(rng.below(3));
            in.clear_all = 1;
        }
        if (rng.below(100) == 0)
            in.thresh = kThresh[rng.below(6)];
        if (rng.below(200) == 0) {
            in.en_local = static_cast<uint8_t>(rng.below(2));
            in.en_remote = static_cast<uint8_t>(rng.below(2));
        }
        b.step(in);
    }
}

} // namespace

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    const uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1;
    const uint64_t cycles = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 200000;
    Bench b;
    directed(b);
    Rng rng{seed * 0x9e3779b97f4a7c15ull + 1};
    random_phase(b, rng, cycles);
    const Cov &c = b.cov;
    std::printf("acc_lockstep: AccEntries %u seed %llu: %llu cycles, %u mismatches; notify %u "
                "ovf %u wrap %u repl %u stall_skip %u clear_all_race %u clear_race %u "
                "ovf_clr_race %u\n",
                kEntries, static_cast<unsigned long long>(seed),
                static_cast<unsigned long long>(b.cycle), b.errors, c.notify, c.ovf, c.wrap, c.repl,
                c.stall_skip, c.clear_all_race, c.clear_race, c.ovf_clr_race);
    const unsigned miss = !c.notify + !c.ovf + !c.wrap + !c.repl + !c.stall_skip +
                          !c.clear_all_race + !c.clear_race + !c.ovf_clr_race;
    if (miss)
        std::fprintf(stderr, "acc_lockstep: %u coverage points not hit\n", miss);
    return b.errors || miss ? 1 : 0;
}
