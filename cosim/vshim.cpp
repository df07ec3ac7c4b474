// vshim.cpp - thin C interface around the Verilator model of gmmu_top (see vshim.h).
// The only C++ in the project. It converts between gmmu_in_t/gmmu_out_t and the flattened
// ports of docs/microarch.md §2 and nothing else: no behaviour lives here. The conversion code
// is generated from spec/ports.toml (cmodel/gen/vshim_ports.inc).
#include "vshim.h"

#include <cstdio>
#include <cstring>
#include <new>

// The Verilated model's class (--prefix, mk/verilator.mk) and its header.
#ifndef VSHIM_TOP
#define VSHIM_TOP Vgmmu_top
#endif
#define VSHIM_STR_(x) #x
#define VSHIM_STR(x) VSHIM_STR_(x)
#include VSHIM_STR(VSHIM_TOP.h)
#include "gmmu_consts.h"
#include "verilated.h"
#include "verilated_fst_c.h"
#ifdef VSHIM_COVERAGE
#include <cstdlib>
#include <unistd.h>

#include "verilated_cov.h"
#endif
#ifdef VSHIM_STATE
#include "verilated_syms.h"
#endif

// Parameters the model was compiled with (-D from scripts/cfg_vflags.py --defines).
#define VSHIM_PARAM(key, sv) VSHIM_##sv,
static const gmmu_params_t k_built = {GMMU_PARAMS_X(VSHIM_PARAM)};
#undef VSHIM_PARAM

// The same definition in every shim of a binary (one per model): the model is type-erased.
struct vshim {
    VerilatedContext *ctx;
    void *top; // VSHIM_TOP
    VerilatedFstC *tfp;
    uint64_t half; // waveform time in half cycles
    void **state;  // per row of the state table: the signal's data (found on first use)
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

// drive() and sample(): generated from the port list spec/ports.toml (scripts/gen_ports.py)
#include "vshim_ports.inc"

VSHIM_TOP *top(vshim *v) { return static_cast<VSHIM_TOP *>(v->top); }

void dump(vshim *v) {
    if (v->tfp) v->tfp->dump(v->half * 5);
}

} // namespace

extern "C" {

void VSHIM_FN(built_params)(gmmu_params_t *p) { *p = k_built; }

vshim_t *VSHIM_FN(new)(const gmmu_params_t *p, char *err, size_t errlen) {
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
    v->top = new VSHIM_TOP(v->ctx, "TOP");
    VSHIM_TOP *t = top(v);
    v->tfp = nullptr;
    v->half = 0;
    v->state = nullptr;
    gmmu_in_t zero;
    std::memset(&zero, 0, sizeof(zero));
    drive(t, &zero);
    t->clk_i = 0;
    t->rst_ni = 1;
    t->eval();
    t->rst_ni = 0; // asynchronous reset
    t->eval();
    for (int i = 0; i < 2; i++) {
        t->clk_i = 1;
        t->eval();
        t->clk_i = 0;
        t->eval();
    }
    t->rst_ni = 1;
    t->eval();
    return v;
}

void VSHIM_FN(free)(vshim_t *v) {
    if (!v) return;
    VSHIM_FN(trace_close)(v);
    top(v)->final();
#ifdef VSHIM_COVERAGE
    // the coverage build (make coverage, mk/coverage.mk): one data file per model instance
    if (const char *dir = std::getenv("GMMU_COVERAGE_DIR")) {
        char path[1024];
        std::snprintf(path, sizeof(path), "%s/cov-%ld-%p.dat", dir, (long)getpid(), (void *)v);
        v->ctx->coveragep()->write(path);
    }
#endif
    delete top(v);
    delete[] v->state;
    delete v->ctx;
    delete v;
}

void VSHIM_FN(outputs)(vshim_t *v, gmmu_out_t *out) { sample(top(v), out); }

void VSHIM_FN(step)(vshim_t *v, const gmmu_in_t *in, uint64_t cycle) {
    drive(top(v), in);
    top(v)->clk_i = 0;
    top(v)->eval();
    v->half = 2 * cycle;
    dump(v);
    top(v)->clk_i = 1;
    top(v)->eval();
    v->half = 2 * cycle + 1;
    dump(v);
    top(v)->clk_i = 0;
    top(v)->eval();
}

int VSHIM_FN(trace_open)(vshim_t *v, const char *path) {
    if (v->tfp) return 0;
    v->tfp = new VerilatedFstC;
    top(v)->trace(v->tfp, 99);
    v->tfp->open(path);
    return v->tfp->isOpen() ? 0 : -1;
}

void VSHIM_FN(trace_close)(vshim_t *v) {
    if (!v->tfp) return;
    v->tfp->close();
    delete v->tfp;
    v->tfp = nullptr;
}

#ifdef VSHIM_STATE
// The name table generated from this model (scripts/gen_state_table.py, mk/verilator.mk).
static const vshim_state_reg_t k_state[] = {
#include "gmmu_state_table.inc"
};
static const size_t kNState = sizeof(k_state) / sizeof(k_state[0]);

const vshim_state_reg_t *VSHIM_FN(state_table)(size_t *n, char *err, size_t errlen) {
    (void)err;
    (void)errlen;
    *n = kNState;
    return k_state;
}

// Finds every row's signal once (Verilator's public scope API), checking its shape.
static int state_bind(vshim *v, char *err, size_t errlen) {
    v->state = new (std::nothrow) void *[kNState];
    if (!v->state) {
        std::snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t r = 0; r < kNState; r++) {
        const vshim_state_reg_t &s = k_state[r];
        char scope[256];
        std::snprintf(scope, sizeof(scope), "TOP.gmmu_top%s%s", s.scope[0] ? "." : "", s.scope);
        const VerilatedScope *sc = v->ctx->scopeFind(scope);
        const VerilatedVar *var = sc ? sc->varFind(s.name) : nullptr;
        if (!var || static_cast<uint32_t>(var->udims()) != s.udims ||
            static_cast<uint32_t>(var->packed().elements()) != s.width ||
            (s.udims && static_cast<uint32_t>(var->unpacked().elements()) != s.elems)) {
            std::snprintf(err, errlen, "%s.%s: not a public signal of this model with width %u "
                          "x %u (rebuild: make sim-state)", scope, s.name, s.width, s.elems);
            return -1;
        }
        v->state[r] = var->datap();
    }
    return 0;
}

int VSHIM_FN(state_get)(vshim_t *v, size_t r, uint32_t i, uint32_t word, uint64_t *val, char *err,
                        size_t errlen) {
    if (!v->state && state_bind(v, err, errlen) != 0) return -1;
    const vshim_state_reg_t &s = k_state[r];
    const unsigned char *p = static_cast<const unsigned char *>(v->state[r]);
    if (s.width <= 8) {
        *val = reinterpret_cast<const CData *>(p)[i];
    } else if (s.width <= 16) {
        *val = reinterpret_cast<const SData *>(p)[i];
    } else if (s.width <= 32) {
        *val = reinterpret_cast<const IData *>(p)[i];
    } else if (s.width <= 64) {
        *val = reinterpret_cast<const QData *>(p)[i];
    } else { // VlWide: 32-bit words, least significant first
        const size_t n32 = (s.width + 31) / 32;
        const IData *w = reinterpret_cast<const IData *>(p) + static_cast<size_t>(i) * n32;
        const size_t lo = 2 * static_cast<size_t>(word);
        *val = (lo < n32 ? w[lo] : 0) | (lo + 1 < n32 ? static_cast<uint64_t>(w[lo + 1]) << 32 : 0);
        return 0;
    }
    if (word != 0) *val = 0;
    return 0;
}
#else
const vshim_state_reg_t *VSHIM_FN(state_table)(size_t *n, char *err, size_t errlen) {
    *n = 0;
    std::snprintf(err, errlen, "this gmmu-sim links the Verilator model without public _q "
                  "signals; build the one for --state-compare with make sim-state CONFIG=<name>");
    return nullptr;
}

int VSHIM_FN(state_get)(vshim_t *v, size_t r, uint32_t i, uint32_t word, uint64_t *val, char *err,
                        size_t errlen) {
    (void)v;
    (void)r;
    (void)i;
    (void)word;
    *val = 0;
    std::snprintf(err, errlen, "no state table in this model");
    return -1;
}
#endif

} // extern "C"
