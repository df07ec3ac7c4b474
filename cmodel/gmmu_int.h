/*
 * gmmu_int.h - types shared by the blocks of the C model (private to cmodel/).
 * Messages between blocks (docs/microarch.md §3), the flush of a command cycle (§2.1) and the
 * invariant-violation log (§11).
 */
#ifndef GMMU_INT_H
#define GMMU_INT_H

#include <stddef.h>
#include <stdint.h>

#include "gmmu_consts.h"
#include "gmmu_tlb_types.h"

#define GMMU_VPN_MASK ((UINT64_C(1) << GMMU_VPN_W) - 1u)
#define GMMU_PPN_MASK ((UINT64_C(1) << GMMU_PPN_W) - 1u)
#define GMMU_PA_MASK ((UINT64_C(1) << GMMU_PA_W) - 1u)
#define GMMU_IDX_MASK ((UINT64_C(1) << GMMU_PT_IDX_W) - 1u)
#define GMMU_BIT(n) (UINT64_C(1) << (n))

/* 2 MB region of a VPN: vpn[35:9]. */
static inline uint64_t gmmu_region(uint64_t vpn) {
    return (vpn & GMMU_VPN_MASK) >> GMMU_PT_IDX_W;
}

static inline unsigned gmmu_ctz64(uint64_t x) {
    return (unsigned)__builtin_ctzll(x);
}
static inline unsigned gmmu_popcount64(uint64_t x) {
    /* SWAR count: without -mpopcnt __builtin_popcountll is a libgcc call (6% of a run) */
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* Flush of a command cycle (INVAL_PAGE / INVAL_ALL), applied last in the cycle. */
typedef enum { GMMU_FLUSH_NONE = 0, GMMU_FLUSH_PAGE = 1, GMMU_FLUSH_ALL = 2 } gmmu_flush_kind_t;

typedef struct {
    gmmu_flush_kind_t kind;
    uint64_t vpn;  /* cmd_vpn_q */
    uint8_t asid;  /* cmd_asid_q (§14.4) */
    uint8_t scope; /* cmd_scope_q: 1 = only address space asid */
} gmmu_flush_t;

/* Match of §2.1 and §14.4: region match (every vpn matches a full flush) and asid_match. */
static inline int gmmu_flush_match(const gmmu_flush_t *f, uint8_t asid, uint64_t vpn) {
    if (f->kind == GMMU_FLUSH_NONE || (f->scope && asid != f->asid))
        return 0;
    return f->kind == GMMU_FLUSH_ALL || gmmu_region(vpn) == gmmu_region(f->vpn);
}

/* L2 -> L1 response bus rsp_q (§2.1, §5.4): valid and the SM mask beside the record tlb_rsp_t
 * of spec/tlb.toml (r.req: asid, vpn, write; r.nack: kind 0 = OK, 1 = NACK; r.ppn, r.is_large,
 * r.w, r.nocache), as the RTL's rsp_valid_q, rsp_mask_q, rsp_q. Every field is 0 when !valid. */
typedef struct {
    uint8_t valid;
    uint32_t mask; /* bit s = SM s */
    gmmu_tlb_rsp_t r;
} gmmu_rsp_t;

/* Invariant violations (§11) and model-only statistics. */
typedef struct {
    unsigned count;
    char first[256];
    uint64_t orphan_rsp; /* L2 responses for SM s with no matching entry in SM s (statistic) */
} gmmu_viol_t;

/* Records a violation (keeps the first message). Implemented in viol.c. */
void gmmu_viol(gmmu_viol_t *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Bits [64 * word + 63 : 64 * word] of flag bytes b[0..n-1] (0/1) packed into a bit vector (an
 * RTL logic [n-1:0] register; state accessors). */
static inline uint64_t gmmu_pack_bits_word(const uint8_t *b, uint32_t n, uint32_t word) {
    uint64_t v = 0;
    for (uint32_t k = 64u * word; k < n && k < 64u * word + 64u; k++)
        v |= (uint64_t)(b[k] & 1u) << (k - 64u * word);
    return v;
}
static inline uint64_t gmmu_pack_bits(const uint8_t *b, uint32_t n) {
    return gmmu_pack_bits_word(b, n, 0);
}

#endif
