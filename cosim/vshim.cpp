// vshim.cpp - thin C interface around the Verilator model of gmmu_top (see vshim.h).
// The only C++ in the project. It converts between gmmu_in_t/gmmu_out_t and the flattened
// ports of docs/microarch.md §2 and nothing else: no behaviour lives here.
#include "vshim.h"

#include <cstdio>
#include <cstring>
#include <new>

#include "Vgmmu_top.h"
#include "gmmu_consts.h"
#include "verilated.h"
#include "verilated_fst_c.h"

// Parameters the model was compiled with (-D from scripts/cfg_vflags.py --defines).
static const gmmu_params_t k_built = {
    VSHIM_NumSm,          VSHIM_NumPorts,  VSHIM_L1Entries,     VSHIM_L1LargeEntries,
    VSHIM_L1ReqEntries,   VSHIM_L2Sets,    VSHIM_L2Ways,        VSHIM_L2LargeEntries,
    VSHIM_L2Latency,      VSHIM_L2MshrEntries, VSHIM_NumWalkers, VSHIM_FfEntries,
    VSHIM_FfQuota,
};

struct vshim {
    VerilatedContext *ctx;
    Vgmmu_top *top;
    VerilatedFstC *tfp;
    uint64_t half; // waveform time in half cycles
};

namespace {

// ---- bit-field access on Verilator port types (scalar CData/SData/IData/QData or VlWide) ----
template <typename T> inline void put(T &port, unsigned lsb, unsigned w, uint64_t v) {
    const uint64_t m = (w >= 64) ? ~0ULL : ((1ULL << w) - 1);
    uint64_t p = static_cast<uint64_t>(port);
    p = (p & ~(m << lsb)) | ((v & m) << lsb);
    port = static_cast<T>(p);
}
template <std::size_t N> inline void put(VlWide<N> &port, unsigned lsb, unsigned w, uint64_t v) {
    for (unsigned done = 0; done < w;) {
        const unsigned bit = lsb + done, word = bit / 32, off = bit % 32;
        const unsigned n = (w - done < 32 - off) ? (w - done) : (32 - off);
        const uint32_t m = (n == 32) ? 0xffffffffu : (((1u << n) - 1u) << off);
        const uint32_t chunk = static_cast<uint32_t>(v >> done) << off;
        port[word] = (port[word] & ~m) | (chunk & m);
        done += n;
    }
}
template <typename T> inline uint64_t get(const T &port, unsigned lsb, unsigned w) {
    const uint64_t m = (w >= 64) ? ~0ULL : ((1ULL << w) - 1);
    return (static_cast<uint64_t>(port) >> lsb) & m;
}
template <std::size_t N> inline uint64_t get(const VlWide<N> &port, unsigned lsb, unsigned w) {
    uint64_t v = 0;
    for (unsigned done = 0; done < w;) {
        const unsigned bit = lsb + done, word = bit / 32, off = bit % 32;
        const unsigned n = (w - done < 32 - off) ? (w - done) : (32 - off);
        const uint64_t chunk = (static_cast<uint64_t>(port[word]) >> off) &
                               ((n == 32) ? 0xffffffffULL : ((1ULL << n) - 1));
        v |= chunk << done;
        done += n;
    }
    return v;
}
template <typename T> inline void clear(T &port) { port = 0; }
template <std::size_t N> inline void clear(VlWide<N> &port) {
    for (std::size_t i = 0; i < N; i++) port[i] = 0;
}

constexpr unsigned kS = VSHIM_NumSm, kP = VSHIM_NumPorts;
constexpr unsigned kVpnW = GMMU_VPN_W, kPpnW = GMMU_PPN_W, kIdW = GMMU_REQ_ID_W;

void drive(Vgmmu_top *t, const gmmu_in_t *in) {
    clear(t->req_valid_i);
    clear(t->req_vpn_i);
    clear(t->req_write_i);
    clear(t->req_id_i);
    for (unsigned s = 0; s < kS; s++) {
        for (unsigned p = 0; p < kP; p++) {
            const unsigned k = s * kP + p;
            put(t->req_valid_i, k, 1, in->req_valid[s][p]);
            put(t->req_vpn_i, k * kVpnW, kVpnW, in->req_vpn[s][p]);
            put(t->req_write_i, k, 1, in->req_write[s][p]);
            put(t->req_id_i, k * kIdW, kIdW, in->req_id[s][p]);
        }
    }
    t->time_i = in->time;
    t->mem_req_ready_i = in->mem_req_ready & 1;
    t->mem_rsp_valid_i = in->mem_rsp_valid & 1;
    t->mem_rsp_id_i = in->mem_rsp_id;
    t->mem_rsp_data_i = in->mem_rsp_data;
    t->fb_wr_ready_i = in->fb_wr_ready & 1;
    t->csr_valid_i = in->csr_valid & 1;
    t->csr_write_i = in->csr_write & 1;
    t->csr_addr_i = in->csr_addr & ((1u << GMMU_CSR_ADDR_W) - 1);
    t->csr_wdata_i = in->csr_wdata;
}

void sample(const Vgmmu_top *t, gmmu_out_t *o) {
    std::memset(o, 0, sizeof(*o));
    for (unsigned s = 0; s < kS; s++) {
        o->req_ready[s] = static_cast<uint8_t>(get(t->req_ready_o, s, 1));
        for (unsigned p = 0; p < kP; p++) {
            const unsigned k = s * kP + p;
            o->hit_valid[s][p] = static_cast<uint8_t>(get(t->hit_valid_o, k, 1));
            o->hit_id[s][p] = static_cast<uint8_t>(get(t->hit_id_o, k * kIdW, kIdW));
            o->hit_ppn[s][p] = get(t->hit_ppn_o, k * kPpnW, kPpnW);
        }
        o->miss_valid[s] = static_cast<uint8_t>(get(t->miss_valid_o, s, 1));
        o->miss_id[s] = static_cast<uint8_t>(get(t->miss_id_o, s * kIdW, kIdW));
        o->miss_ppn[s] = get(t->miss_ppn_o, s * kPpnW, kPpnW);
        o->miss_fatal[s] = static_cast<uint8_t>(get(t->miss_fatal_o, s, 1));
    }
    o->mem_req_valid = t->mem_req_valid_o;
    o->mem_req_addr = t->mem_req_addr_o;
    o->mem_req_id = t->mem_req_id_o;
    o->fb_wr_valid = t->fb_wr_valid_o;
    o->fb_wr_addr = t->fb_wr_addr_o;
    for (unsigned w = 0; w < 8; w++)
        o->fb_wr_data[w] = static_cast<uint32_t>(get(t->fb_wr_data_o, 32 * w, 32));
    o->csr_rvalid = t->csr_rvalid_o;
    o->csr_rdata = t->csr_rdata_o;
    o->irq = t->irq_o;
    o->idle = t->idle_o;
    o->ev = t->ev_o;
}

void dump(vshim *v) {
    if (v->tfp) v->tfp->dump(v->half * 5);
}

} // namespace

extern "C" {

void vshim_built_params(gmmu_params_t *p) { *p = k_built; }

vshim_t *vshim_new(const gmmu_params_t *p, char *err, size_t errlen) {
    if (std::memcmp(p, &k_built, sizeof(*p)) != 0) {
        std::snprintf(err, errlen,
                      "the Verilator model was built for other RTL parameters than the "
                      "configuration asks for (rebuild with the same CONFIG)");
        return nullptr;
    }
    vshim *v = new (std::nothrow) vshim();
    if (!v) {
        std::snprintf(err, errlen, "out of memory");
        return nullptr;
    }
    v->ctx = new VerilatedContext;
    v->ctx->traceEverOn(true);
    v->ctx->fatalOnError(true);
    v->top = new Vgmmu_top(v->ctx, "TOP");
    v->tfp = nullptr;
    v->half = 0;
    gmmu_in_t zero;
    std::memset(&zero, 0, sizeof(zero));
    drive(v->top, &zero);
    v->top->clk_i = 0;
    v->top->rst_ni = 1;
    v->top->eval();
    v->top->rst_ni = 0; // asynchronous reset
    v->top->eval();
    for (int i = 0; i < 2; i++) {
        v->top->clk_i = 1;
        v->top->eval();
        v->top->clk_i = 0;
        v->top->eval();
    }
    v->top->rst_ni = 1;
    v->top->eval();
    return v;
}

void vshim_free(vshim_t *v) {
    if (!v) return;
    vshim_trace_close(v);
    v->top->final();
    delete v->top;
    delete v->ctx;
    delete v;
}

void vshim_outputs(vshim_t *v, gmmu_out_t *out) { sample(v->top, out); }

void vshim_step(vshim_t *v, const gmmu_in_t *in, uint64_t cycle) {
    drive(v->top, in);
    v->top->clk_i = 0;
    v->top->eval();
    v->half = 2 * cycle;
    dump(v);
    v->top->clk_i = 1;
    v->top->eval();
    v->half = 2 * cycle + 1;
    dump(v);
    v->top->clk_i = 0;
    v->top->eval();
}

int vshim_trace_open(vshim_t *v, const char *path) {
    if (v->tfp) return 0;
    v->tfp = new VerilatedFstC;
    v->top->trace(v->tfp, 99);
    v->tfp->open(path);
    return v->tfp->isOpen() ? 0 : -1;
}

void vshim_trace_close(vshim_t *v) {
    if (!v->tfp) return;
    v->tfp->close();
    delete v->tfp;
    v->tfp = nullptr;
}

} // extern "C"
