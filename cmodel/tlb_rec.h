/*
 * tlb_rec.h - the records of spec/tlb.toml as the TLB blocks use them: the tag of the base and
 * large arrays for an (ASID, VPN), packed (cmodel/gen/gmmu_tlb_types.h) as the RTL's packed
 * structs gmmu_tlb_pkg::base_tag_t / large_tag_t, so the arrays compare and store whole records.
 */
#ifndef GMMU_TLB_REC_H
#define GMMU_TLB_REC_H

#include <stdint.h>

#include "gmmu_int.h"
#include "gmmu_tlb_types.h"

/* base_tag_t of (asid, vpn) (L1 u_base, L2 u_base) */
static inline uint64_t tlb_base_tag(uint8_t asid, uint64_t vpn) {
    return gmmu_base_tag_pack((gmmu_base_tag_t){.asid = asid, .vpn = vpn});
}

/* large_tag_t of (asid, vpn): its 2 MB region (L1 u_large, L2 u_large) */
static inline uint64_t tlb_large_tag(uint8_t asid, uint64_t vpn) {
    return gmmu_large_tag_pack(
        (gmmu_large_tag_t){.asid = asid, .region = (uint32_t)gmmu_region(vpn)});
}

/* The masks of a selective flush (§14.4, FA-5 / SA-5): the vpn / region bits for a page flush,
 * the ASID bits when the command's scope is one address space. */
static inline uint64_t tlb_base_flush_mask(int page, int scope) {
    return gmmu_base_tag_pack(
        (gmmu_base_tag_t){.asid = scope ? 0xffu : 0u, .vpn = page ? GMMU_VPN_MASK : 0u});
}
static inline uint64_t tlb_large_flush_mask(int page, int scope) {
    return gmmu_large_tag_pack((gmmu_large_tag_t){
        .asid = scope ? 0xffu : 0u, .region = page ? (uint32_t)gmmu_region(GMMU_VPN_MASK) : 0u});
}

/* base_data_t / large_data_t of a translation (ppn; lppn = ppn[35:9]; sys = aperture, §17) */
static inline uint64_t tlb_base_data(uint64_t ppn, uint8_t sys) {
    return gmmu_base_data_pack((gmmu_base_data_t){.ppn = ppn, .sys = sys});
}
static inline uint64_t tlb_large_data(uint64_t ppn, uint8_t sys) {
    return gmmu_large_data_pack(
        (gmmu_large_data_t){.lppn = (uint32_t)(ppn >> GMMU_PT_IDX_W), .sys = sys});
}

#endif
