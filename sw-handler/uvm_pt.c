/*
 * uvm_pt.c - the GPU radix page table (docs/microarch.md §6): 4 levels of 512 entries, level l
 * indexed by vpn[35-9l -: 9]. Table pages come from a bump allocator over the PT pool; the handler
 * keeps a directory (level, VPN prefix) -> table PA so it never reads page tables back over PCIe.
 */
#include <inttypes.h>

#include "uvm_priv.h"

#define PTE_BIT(b) (UINT64_C(1) << (b))

static uint32_t level_shift(uint32_t level) /* VPN bits below the index of `level` */
{
    return GMMU_VPN_W - GMMU_PT_IDX_W * (level + 1u);
}

static uint64_t level_index(uint64_t vpn, uint32_t level) {
    return (vpn >> level_shift(level)) & UVM_PT_IDX_MASK;
}

/* directory key of the table at `level` (1..3) on the walk path of vpn */
static uint64_t table_key(uint64_t vpn, uint32_t level) {
    return ((uint64_t)level << 40) | (vpn >> (GMMU_VPN_W - GMMU_PT_IDX_W * level));
}

uint64_t uvm_pt_page_pa(const uvm_handler_t *h, uint64_t index) {
    return h->cfg.gpu_pt_base_pa + (index << GMMU_PAGE_SHIFT);
}

uint64_t uvm_pt_free_pages(const uvm_handler_t *h) {
    return h->cfg.gpu_pt_pages - h->pt_next;
}

bool uvm_pt_alloc(uvm_handler_t *h, uint64_t *pa) {
    if (h->pt_next >= h->cfg.gpu_pt_pages)
        return false;
    const uint64_t p = uvm_pt_page_pa(h, h->pt_next);
    /* zero the new table before any entry points at it (the walker may already be running) */
    for (uint32_t i = 0; i < UVM_PT_ENTRIES; i++)
        h->dev.gpu_write64(h->dev.ctx, p + 8u * i, 0);
    h->pt_next++;
    h->stats.pt_pages_used = h->pt_next;
    *pa = p;
    return true;
}

bool uvm_pt_root(const uvm_handler_t *h, uint64_t xvpn, uint64_t *root) {
    const uint32_t a = uvm_vpn_asid(xvpn);
    if (!h->pt_has_root[a]) {
        uvm_logf(h, "uvm: no page table for address space %" PRIu32, a);
        return false;
    }
    *root = h->pt_root[a];
    return true;
}

int uvm_pt_root_add(uvm_handler_t *h, uint32_t asid) {
    if (asid == 0 || asid >= UVM_SPACES || h->pt_has_root[asid])
        return 0;
    uint64_t root = 0;
    if (!uvm_pt_alloc(h, &root)) {
        uvm_logf(h, "uvm: page-table pool exhausted: no root for address space %" PRIu32, asid);
        return -1;
    }
    h->pt_root[asid] = root;
    h->pt_has_root[asid] = 1;
    uvm_csr_wr(h, GMMU_CSR_ASID_SEL, asid);
    uvm_csr_wr(h, GMMU_CSR_PT_BASE_LO, (uint32_t)(root & UINT32_MAX));
    uvm_csr_wr(h, GMMU_CSR_PT_BASE_HI, (uint32_t)(root >> 32));
    uvm_csr_wr(h, GMMU_CSR_ASID_SEL, 0);
    return 0;
}

uint32_t uvm_pt_missing(const uvm_handler_t *h, uint64_t vpn) {
    uint32_t n = 0;
    for (uint32_t l = 1; l < GMMU_PT_LEVELS; l++)
        if (!u64map_get(&h->pt_tables, table_key(vpn, l), NULL))
            n++;
    return n;
}

uint64_t uvm_pt_missing_range(const uvm_handler_t *h, uint64_t first, uint64_t last) {
    uint64_t n = 0;
    for (uint32_t l = 1; l < GMMU_PT_LEVELS; l++) {
        const uint32_t sh = GMMU_VPN_W - GMMU_PT_IDX_W * l; /* VPN bits a level-l table covers */
        for (uint64_t k = first >> sh; k <= last >> sh; k++)
            if (!u64map_get(&h->pt_tables, table_key(k << sh, l), NULL))
                n++;
    }
    return n;
}

/* charge: t_pte_ns of CPU time (every PTE write but those of uvm_handler_populate) */
static void write_pte(uvm_handler_t *h, uint64_t pa, uint64_t value, bool charge) {
    h->dev.gpu_write64(h->dev.ctx, pa, value);
    if (charge)
        h->dev.cpu_delay(h->dev.ctx, h->cfg.t_pte_ns);
    h->stats.pte_writes++;
}

void uvm_pt_write(uvm_handler_t *h, uint64_t pa, uint64_t value) {
    write_pte(h, pa, value, true);
}

uint64_t uvm_pt_leaf(uint64_t frame_pa, bool writable) {
    return (frame_pa & UVM_PTE_PPN_MASK) | PTE_BIT(GMMU_PTE_V) |
           (writable ? PTE_BIT(GMMU_PTE_W) : 0);
}

bool uvm_pt_region(const uvm_handler_t *h, uint64_t vpn, uint64_t *table, uint64_t *parent) {
    uint64_t t3 = 0, t2 = 0;
    if (!u64map_get(&h->pt_tables, table_key(vpn, GMMU_PT_LEVELS - 1u), &t3) ||
        !u64map_get(&h->pt_tables, table_key(vpn, GMMU_PT_LEVELS - 2u), &t2))
        return false;
    *table = t3;
    *parent = t2 + 8u * level_index(vpn, GMMU_PT_LEVELS - 2u);
    return true;
}

/* Builds the chain of vpn down to the table of level `last` (linking each new table into its
 * parent once zeroed, except the table of level `last` when link_last is false); *table = its
 * PA. 0, or -1 (logged). */
static int chain(uvm_handler_t *h, uint64_t vpn, uint32_t last, bool link_last, bool charge,
                 uint64_t *out) {
    uint64_t table = 0; /* the root of the page's address space */
    if (!uvm_pt_root(h, vpn, &table))
        return -1;
    bool upper = false; /* a directory above the leaf table was allocated */
    for (uint32_t l = 1; l <= last; l++) {
        uint64_t child = 0;
        const uint64_t key = table_key(vpn, l);
        if (!u64map_get(&h->pt_tables, key, &child)) {
            upper = upper || l < GMMU_PT_LEVELS - 1u;
            if (!uvm_pt_alloc(h, &child)) {
                uvm_logf(h,
                         "uvm: page-table pool exhausted (%" PRIu64 " pages) mapping VA 0x%" PRIx64
                         " at level %" PRIu32,
                         h->cfg.gpu_pt_pages, vpn << GMMU_PAGE_SHIFT, l);
                return -1;
            }
            if (u64map_put(&h->pt_tables, key, child) != 0) {
                uvm_logf(h, "uvm: out of memory for the page-table directory");
                return -1;
            }
            /* the parent entry is written only after the child table is zeroed */
            if (l < last || link_last)
                write_pte(h, table + 8u * level_index(vpn, l - 1u),
                          (child & UVM_PTE_PPN_MASK) | PTE_BIT(GMMU_PTE_V), charge);
        }
        table = child;
    }
    /* nvidia-uvm writes new upper directories in one page-tree push and waits for it
       (uvm_page_tree_get_ptes -> uvm_page_tree_wait); the leaf tables of a block are initialized
       by the block's own mapping push (uvm_page_tree_alloc_table), not waited for */
    if (upper && charge && h->cfg.t_pt_sync_ns)
        h->dev.cpu_delay(h->dev.ctx, h->cfg.t_pt_sync_ns);
    *out = table;
    return 0;
}

/* The data frame index of frame_pa (for the page events). */
static uint32_t data_frame(const uvm_handler_t *h, uint64_t frame_pa) {
    return (uint32_t)((frame_pa - h->cfg.gpu_data_base_pa) >> GMMU_PAGE_SHIFT);
}

int uvm_pt_map_charged(uvm_handler_t *h, uint64_t vpn, uint64_t frame_pa, bool writable,
                       bool charge) {
    uint64_t table = 0;
    if (chain(h, vpn, GMMU_PT_LEVELS - 1u, true, charge, &table) != 0)
        return -1;
    write_pte(h, table + 8u * level_index(vpn, GMMU_PT_LEVELS - 1u),
              uvm_pt_leaf(frame_pa, writable), charge);
    uvm_emit_page(h, UVM_EVENT_PAGE_MAPPED, vpn, data_frame(h, frame_pa), 1, writable);
    return 0;
}

int uvm_pt_map_large_charged(uvm_handler_t *h, uint64_t vpn, uint64_t chunk_pa, bool writable,
                             bool charge) {
    uint64_t table = 0, dummy = 0, parent = 0;
    if (chain(h, vpn, GMMU_PT_LEVELS - 1u, false, charge, &table) != 0 ||
        !uvm_pt_region(h, vpn, &dummy, &parent))
        return -1;
    /* entry 0 first, then the level-3 entry with L: a walk sees the whole page or none */
    write_pte(h, table, uvm_pt_leaf(chunk_pa, writable) | PTE_BIT(GMMU_PTE_D), charge);
    write_pte(h, parent, (table & UVM_PTE_PPN_MASK) | PTE_BIT(GMMU_PTE_V) | PTE_BIT(GMMU_PTE_L),
              charge);
    uvm_emit_page(h, UVM_EVENT_PAGE_MAPPED, vpn & ~(uint64_t)(UVM_BLOCK_PAGES - 1u),
                  data_frame(h, chunk_pa), UVM_BLOCK_PAGES, writable);
    return 0;
}

bool uvm_pt_leaf_pa(const uvm_handler_t *h, uint64_t vpn, uint64_t *pa) {
    uint64_t table = 0;
    if (!u64map_get(&h->pt_tables, table_key(vpn, GMMU_PT_LEVELS - 1u), &table))
        return false;
    *pa = table + 8u * level_index(vpn, GMMU_PT_LEVELS - 1u);
    return true;
}

/* The unmap reads the leaf before clearing it: writeback = dirty (its DRT, §6r) or
 * count_unused = acc (its ACC, §6z); one read for both. */
static bool uvm_pt_unmap_reads(const uvm_handler_t *h) {
    return h->cfg.writeback_dirty || h->cfg.count_unused == UVM_UNUSED_ACC;
}

/* Clears the leaf PTE of vpn; false (logged) if it has no leaf table. old: the leaf before
 * (read at the same instant when writeback = dirty, else 0). */
static bool clear_leaf(uvm_handler_t *h, uint64_t vpn, uint64_t *old) {
    uint64_t pa = 0;
    if (!uvm_pt_leaf_pa(h, vpn, &pa)) {
        uvm_logf(h, "uvm: unmap of VA 0x%" PRIx64 " without a leaf table", vpn << GMMU_PAGE_SHIFT);
        return false;
    }
    /* writeback = dirty (§6r): the leaf's DRT is read and the leaf cleared at one instant (no
     * GMMU cycle between them: a walker's set-bits write lands before or after both) */
    *old = uvm_pt_unmap_reads(h) ? h->dev.gpu_read64(h->dev.ctx, pa) : 0u;
    write_pte(h, pa, 0, true);
    return true;
}

void uvm_pt_unmap(uvm_handler_t *h, uint64_t vpn) {
    uint64_t old = 0;
    if (!clear_leaf(h, vpn, &old))
        return;
    uint32_t frame = UVM_NONE;
    (void)uvm_va_block_resident(h, vpn, &frame);
    if (uvm_pt_unmap_reads(h))
        h->dev.cpu_delay(h->dev.ctx, h->cfg.t_pte_read_ns);
    if (h->cfg.writeback_dirty && frame != UVM_NONE)
        h->frames[frame].dirty = (old >> GMMU_PTE_DRT) & 1u;
    if (h->cfg.count_unused == UVM_UNUSED_ACC && frame != UVM_NONE && ((old >> GMMU_PTE_ACC) & 1u))
        h->frames[frame].used = true; /* count_unused = acc (§6z) */
    uvm_emit_page(h, UVM_EVENT_PAGE_UNMAPPED, vpn, frame, 1, false);
}

int uvm_pt_map_remote(uvm_handler_t *h, uint64_t vpn, bool writable, bool charge) {
    uint64_t table = 0;
    if (chain(h, vpn, GMMU_PT_LEVELS - 1u, true, charge, &table) != 0)
        return -1;
    /* the host frame: the page's VPN in its address space (the platform's hostmem_frame) */
    write_pte(h, table + 8u * level_index(vpn, GMMU_PT_LEVELS - 1u),
              uvm_pt_leaf(uvm_vpn_plain(vpn) << GMMU_PAGE_SHIFT, writable) | PTE_BIT(GMMU_PTE_APER),
              charge);
    uvm_emit_page(h, UVM_EVENT_REMOTE_MAP, vpn, UVM_NONE, 1, writable);
    return 0;
}

void uvm_pt_unmap_remote(uvm_handler_t *h, uint64_t vpn) {
    uint64_t old = 0;
    if (clear_leaf(h, vpn, &old))
        uvm_emit_page(h, UVM_EVENT_REMOTE_UNMAP, vpn, UVM_NONE, 1, false);
}
