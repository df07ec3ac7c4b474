/*
 * tlb_rec.h - the records of spec/tlb.toml as the TLB blocks use them: the tag of the base and
 * large arrays for a VPN, packed (cmodel/gen/gmmu_tlb_types.h) as the RTL's packed structs
 * gmmu_tlb_pkg::base_tag_t / large_tag_t, so the arrays compare and store whole records.
 */
#ifndef GMMU_TLB_REC_H
#define GMMU_TLB_REC_H

#include <stdint.h>

#include "gmmu_int.h"
#include "gmmu_tlb_types.h"

/* base_tag_t of a VPN (L1 u_base, L2 u_base) */
static inline uint64_t tlb_base_tag(uint64_t vpn) {
    return gmmu_base_tag_pack((gmmu_base_tag_t){.vpn = vpn});
}
/* large_tag_t of a VPN: its 2 MB region (L1 u_large, L2 u_large) */
static inline uint64_t tlb_large_tag(uint64_t vpn) {
    return gmmu_large_tag_pack((gmmu_large_tag_t){.region = (uint32_t)gmmu_region(vpn)});
}
/* base_data_t / large_data_t of a translation (ppn; lppn = ppn[35:9]) */
static inline uint64_t tlb_base_data(uint64_t ppn) {
    return gmmu_base_data_pack((gmmu_base_data_t){.ppn = ppn});
}
static inline uint64_t tlb_large_data(uint64_t ppn) {
    return gmmu_large_data_pack((gmmu_large_data_t){.lppn = (uint32_t)(ppn >> GMMU_PT_IDX_W)});
}

#endif
