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
    // the reference engine's outputs written beside the RTL's (vshim_trace_ref, "model" scope)
    int ref_on;                       // the open FST has the model / diff / mismatch signals
    uint32_t ref_code[GMMU_OUT_PORT_N * 2 + 1]; // FST codes: model ports, diff bits, mismatch
    gmmu_out_t ref_before, ref_after; // the reference's outputs before / after the edge
    const gmmu_out_t *ref_cur;        // the one of the dump being written
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

// ---- the reference engine's outputs in the RTL's FST (docs/cosim.md, "Waveforms") ----
// Written through Verilator's own trace writer: callbacks added beside the model's, so the
// reference's values share the FST, its time stamps and its dump calls with the RTL's signals.
// Scopes: TOP.model.<port>_o (the reference's value of every output port, flattened exactly like
// the RTL port: element s * NumPorts + p at bits [w * (s * NumPorts + p) +: w]),
// TOP.diff.<port>_o (one bit per element: RTL != reference) and TOP.mismatch (any diff bit).
const gmmu_port_desc_t k_out[] = GMMU_OUT_PORT_TABLE;
constexpr unsigned kNOut = sizeof(k_out) / sizeof(k_out[0]);
constexpr unsigned kMaxWords = GMMU_MAX_SM * GMMU_MAX_PORTS * 2 + 2; // 64-bit elements, 32-bit words
static_assert(kNOut == GMMU_OUT_PORT_N, "port table");

unsigned ref_elems(const gmmu_port_desc_t &f) {
    switch (f.rep) {
    case GMMU_REP_SM: return kS;
    case GMMU_REP_SM_PORT: return kS * kP;
    case GMMU_REP_COUNT: return f.count;
    default: return 1;
    }
}

// Element k (s * kP + p for a port per SM and port) of a field, widened to 64 bits.
uint64_t ref_elem(const gmmu_out_t *o, const gmmu_port_desc_t &f, unsigned k) {
    const unsigned at = f.rep == GMMU_REP_SM_PORT ? (k / kP) * GMMU_MAX_PORTS + k % kP : k;
    const unsigned char *b = reinterpret_cast<const unsigned char *>(o) + f.offset + at * f.elem;
    uint64_t v = 0;
    std::memcpy(&v, b, f.elem); // little-endian host (x86-64, AArch64)
    return v;
}

void ref_decl(VerilatedFst *t, uint32_t code, const char *name, unsigned bits) {
    const int msb = static_cast<int>(bits) - 1;
    if (bits == 1)
        t->declBit(code, name, -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1);
    else if (bits <= 32)
        t->declBus(code, name, -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1, msb, 0);
    else if (bits <= 64)
        t->declQuad(code, name, -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1, msb, 0);
    else
        t->declArray(code, name, -1, FST_VD_IMPLICIT, FST_VT_VCD_WIRE, false, -1, msb, 0);
}

// Init callback (VerilatedFst::open, after the model's): declares the signals from code on.
void ref_init(void *self, VerilatedFst *t, uint32_t code) {
    vshim *v = static_cast<vshim *>(self);
    char name[64];
    t->scopeEscape(' ');
    for (unsigned pass = 0; pass < 2; pass++) { // the model's ports, then the diff bits
        t->pushNamePrefix(pass ? "TOP diff " : "TOP model ");
        for (unsigned i = 0; i < kNOut; i++) {
            const unsigned n = ref_elems(k_out[i]);
            const unsigned bits = pass ? n : n * k_out[i].width;
            std::snprintf(name, sizeof(name), "%s_o", k_out[i].name);
            v->ref_code[pass * kNOut + i] = code;
            ref_decl(t, code, name, bits);
            code += VL_WORDS_I(bits);
        }
        t->popNamePrefix();
    }
    t->pushNamePrefix("TOP ");
    v->ref_code[2 * kNOut] = code;
    ref_decl(t, code, "mismatch", 1);
    t->popNamePrefix();
    t->scopeEscape('.');
}

template <bool Full>
void ref_emit(VerilatedFst::Buffer *b, uint32_t code, const uint32_t *w, unsigned bits) {
    uint32_t *o = b->oldp(code);
    if (bits <= 32) {
        if (Full) b->fullIData(o, w[0], static_cast<int>(bits));
        else b->chgIData(o, w[0], static_cast<int>(bits));
    } else if (bits <= 64) {
        const QData q = w[0] | static_cast<QData>(w[1]) << 32;
        if (Full) b->fullQData(o, q, static_cast<int>(bits));
        else b->chgQData(o, q, static_cast<int>(bits));
    } else {
        if (Full) b->fullWData(o, w, static_cast<int>(bits));
        else b->chgWData(o, w, static_cast<int>(bits));
    }
}

// Dump callbacks: the reference's value of the current dump beside the RTL's sampled outputs.
template <bool Full> void ref_dump(void *self, VerilatedFst::Buffer *b) {
    vshim *v = static_cast<vshim *>(self);
    gmmu_out_t rtl;
    sample(top(v), &rtl);
    const gmmu_out_t *ref = v->ref_cur ? v->ref_cur : &rtl;
    uint32_t any = 0;
    for (unsigned i = 0; i < kNOut; i++) {
        const gmmu_port_desc_t &f = k_out[i];
        const unsigned n = ref_elems(f), w = f.width;
        VlWide<kMaxWords> val;
        clear(val);
        uint32_t diff[kMaxWords] = {0};
        for (unsigned k = 0; k < n; k++) {
            const uint64_t e = ref_elem(ref, f, k);
            put(val, k * w, w, e);
            if (e != ref_elem(&rtl, f, k)) {
                diff[k / 32] |= 1u << (k % 32);
                any = 1;
            }
        }
        ref_emit<Full>(b, v->ref_code[i], val.data(), n * w);
        ref_emit<Full>(b, v->ref_code[kNOut + i], diff, n);
    }
    ref_emit<Full>(b, v->ref_code[2 * kNOut], &any, 1);
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
    // an assertion failure ($error / $stop of an SVA) does not abort: the engine reports it as a
    // failure of the run at its cycle, with the waveform (docs/cosim.md "RTL assertions");
    // $fatal (the parameter checks) still aborts
    v->ctx->fatalOnError(false);
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
        // the address of a freed model is reused by the next one of the same process (several
        // models one after another: the lock-step unit tests): never overwrite an earlier file
        char path[1024];
        for (unsigned n = 0;; n++) {
            std::snprintf(path, sizeof(path), "%s/cov-%ld-%p-%u.dat", dir, (long)getpid(),
                          (void *)v, n);
            if (access(path, F_OK) != 0) break;
        }
        v->ctx->coveragep()->write(path);
    }
#endif
    delete top(v);
    delete[] v->state;
    delete v->ctx;
    delete v;
}

void VSHIM_FN(outputs)(vshim_t *v, gmmu_out_t *out) { sample(top(v), out); }

int VSHIM_FN(failed)(const vshim_t *v) { return v->ctx->gotError() ? 1 : 0; }

void VSHIM_FN(step)(vshim_t *v, const gmmu_in_t *in, uint64_t cycle) {
    drive(top(v), in);
    top(v)->clk_i = 0;
    top(v)->eval();
    v->half = 2 * cycle;
    v->ref_cur = &v->ref_before;
    dump(v);
    top(v)->clk_i = 1;
    top(v)->eval();
    v->half = 2 * cycle + 1;
    v->ref_cur = &v->ref_after;
    dump(v);
    top(v)->clk_i = 0;
    top(v)->eval();
}

int VSHIM_FN(trace_open)(vshim_t *v, const char *path, int with_ref) {
    if (v->tfp) return 0;
    v->tfp = new VerilatedFstC;
    top(v)->trace(v->tfp, 99);
    v->ref_on = with_ref;
    v->ref_cur = nullptr; // until vshim_trace_ref: the RTL's own values (diff 0)
    if (with_ref) {
        v->tfp->spTrace()->addInitCb(&ref_init, v);
        v->tfp->spTrace()->addFullCb(&ref_dump<true>, v);
        v->tfp->spTrace()->addChgCb(&ref_dump<false>, v);
    }
    v->tfp->open(path);
    return v->tfp->isOpen() ? 0 : -1;
}

void VSHIM_FN(trace_ref)(vshim_t *v, const gmmu_out_t *before, const gmmu_out_t *after) {
    v->ref_before = *before;
    v->ref_after = *after;
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
        // an unpacked array of single bits: Verilator reports its range as the packed one
        // (scripts/gen_state_table.py), one CData per element
        const bool bits = var && s.width == 1 && s.udims == 1 && var->udims() == 0 &&
                          static_cast<uint32_t>(var->packed().elements()) == s.elems;
        if (!var || (!bits && (static_cast<uint32_t>(var->udims()) != s.udims ||
                               static_cast<uint32_t>(var->packed().elements()) != s.width ||
                               (s.udims && static_cast<uint32_t>(var->unpacked().elements()) !=
                                               s.elems)))) {
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
