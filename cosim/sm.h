/*
 * sm.h - trace-driven SM front-ends (module sm_) and the kernel loader (module kern_).
 *
 * A kernel's memory instructions are read lazily, per warp, when the SMs need them (CTA c runs
 * on SM c % num_sm): a warp's next instruction when its current one completes, the next warp of
 * an SM when a resident slot frees. The records read on the way are buffered in their warps.
 * A warp has finished when its exit record was read, or at the end of the kernel's records, so
 * traces with exit records run in memory bounded by what is buffered (docs/cosim.md). Each
 * instruction's active lanes coalesce into distinct 4 KB pages (lane order). Per SM at most
 * max_resident warps are resident; the others queue in order of first appearance. A resident warp
 * waits its compute gap (and, with the HBM model on, its data transfer: hbm.h), then presents its
 * pages' translations on the SM's ports (up to num_ports per cycle, round-robin among warps); it
 * completes the instruction when every translation has come back, while the other warps keep
 * issuing. Request ids are unique among the SM's outstanding requests (a FIFO of free ids, so an id
 * is not reused right away).
 */
#ifndef COSIM_SM_H
#define COSIM_SM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hbm.h"
#include "l2d.h"
#include "sm_ready.h"
#include "trace.h"
#include "u64map.h"

#define SM_MAX_IDS 256
#define KERN_MAX_SM 64
/* A page of the workload is (address space, VPN): the loader keeps it as the extended VPN
 * space << KERN_SPACE_SHIFT | vpn (the VPN is 36 bits), so that address space 0's pages are the
 * plain VPNs; the platform splits it into req_asid / req_vpn at the GMMU's port. */
#define KERN_SPACE_SHIFT (TRACE_VA_BITS - 12)
#define KERN_VPN_MASK ((1ull << KERN_SPACE_SHIFT) - 1u)

/* The SMs of each address space (configuration key sm_partition, docs/config.md). */
typedef struct {
    uint32_t n; /* applications with SMs of their own; 0: every address space on every SM */
    uint32_t first[KERN_MAX_SM], count[KERN_MAX_SM]; /* space i: SMs first[i] .. +count[i]-1 */
    uint32_t spaces; /* address spaces the GMMU has (num_asids): a record of space >= spaces is a
                      * trace error (0: only space 0) */
} kern_part_t;

typedef struct {
    uint64_t line; /* trace position, for messages */
    uint32_t gap;
    uint32_t first; /* index of the first page in the warp's page array */
    uint8_t npages;
    uint8_t op;    /* trace_op_t */
    uint8_t lines; /* distinct 128-byte lines (0 unless the HBM model is on: hbm.h); with the L2
                    * data cache (l2d.h) its distinct lines, whose keys follow the instruction's
                    * pages in the warp's page array (pages[first + npages ..]) */
} sm_instr_t;

typedef enum { SM_W_QUEUED = 0, SM_W_GAP, SM_W_ISSUE, SM_W_DONE } sm_wstate_t;

typedef struct {
    uint32_t cta, warp, sm;
    uint32_t space; /* address space (trace `space` record) */
    /* buffered instructions: ins[pc] is the current one, ins[pc+1..n_ins-1] are read ahead */
    sm_instr_t *ins;
    uint32_t n_ins, cap_ins;
    uint64_t *pages;
    uint32_t n_pages, cap_pages;
    uint32_t *lmask; /* per entry of pages[]: the 128-byte lines of that page its lanes touched
                      * (bit i: line i of 32; 0 for the line keys), for the platform's PST */
    uint32_t cap_lmask;
    uint8_t exited;     /* its exit record was read (no further record in this kernel) */
    uint64_t exit_line; /* position of the exit record */
    uint64_t done_ins;  /* instructions completed */
    /* run state */
    uint32_t pc;         /* current instruction */
    uint32_t next_page;  /* next page of ins[pc] to present */
    uint32_t pending;    /* presented, not answered */
    uint64_t ready_at;   /* SM_W_GAP: cycle the instruction may issue */
    uint64_t hold_until; /* SM_W_ISSUE: the data of a remote access of the current instruction
                          * arrives then; its next instruction issues no earlier (sm_hold) */
    uint8_t state;
    uint32_t slot; /* resident: index in its SM's res[] */
} sm_warp_t;

typedef struct kern_stream kern_stream_t;

typedef struct {
    char name[TRACE_NAME_MAX];
    sm_warp_t *warps; /* every warp seen in this kernel, in order of first appearance */
    uint32_t n_warps, cap_warps;
    uint64_t n_instr;        /* instructions read so far */
    uint64_t buffered;       /* instructions read and not completed */
    uint64_t buffered_peak;  /* most instructions held at once, over every kernel since kern_init */
    u64map_t index;          /* trace_warp_key(space, cta, warp) -> warp index */
    u64map_t exited0;        /* warps that exited without a memory record -> position of the exit */
    const kern_part_t *part; /* SMs of each address space; NULL: space 0 only, CTA c on SM
                              * c % num_sm (kept by kern_reset) */
    uint32_t *sq[KERN_MAX_SM]; /* per SM: its warps in order of first appearance */
    uint32_t nsq[KERN_MAX_SM], capsq[KERN_MAX_SM];
    hbm_t hbm;          /* the GPU's shared DRAM bandwidth (hbm.h; off: line_fp 0); set by the
                         * platform, kept by kern_reset */
    l2d_t *l2d;         /* the L2 data cache (l2d.h) or NULL (off); set by the platform, kept by
                         * kern_reset */
    kern_stream_t *src; /* where the rest of the kernel comes from; NULL: complete (kern_add) */
    int end;            /* every record of the kernel has been read */
    int error;          /* a read failed: err */
    char err[512];
} kern_t;

/* Streams kernels out of a trace. */
typedef void (*kern_alloc_fn)(void *ctx, const trace_rec_t *rec);
struct kern_stream {
    trace_reader_t *r;
    const char *path; /* for messages */
    trace_rec_t look; /* a KERNEL record read ahead */
    int have_look;
    int eof;
    uint32_t num_sm;
    uint64_t kernels_read;
    uint64_t last_pos;    /* position of the last record read */
    trace_rec_t *pending; /* allocations read inside a kernel: declared before the next one */
    uint32_t n_pending, cap_pending;
};

/* The 128-byte lines (bit i: line i of the page) that the active lanes touch in page vpn. */
uint32_t sm_line_mask(uint32_t mask, const uint64_t *addr, uint64_t vpn);
/* Distinct 4 KB pages of the active lanes, in lane order; returns their number (<= 32). */
uint32_t sm_coalesce(uint32_t mask, const uint64_t *addr, uint64_t *pages);

void kern_init(kern_t *k);
void kern_free(kern_t *k);
void kern_reset(kern_t *k);
/* Appends a memory record to its warp (created and queued to its SM on first sight: CTA c of
 * address space a runs on SM part->first[a] + c % part->count[a], or c % num_sm without a
 * partition). 0, or -1 (out of memory, a record of a warp that has exited, an address space
 * without SMs or beyond part->spaces: k->err). */
int kern_add(kern_t *k, const trace_rec_t *rec, uint32_t num_sm);
/* Reads the rest of the kernel (tests, dumps). 0, or -1 with k->err. */
int kern_pull_all(kern_t *k);
/* Read until warp wi has an instruction beyond pc - 1 buffered (or has exited), or until SM sm
 * has a warp at queue position qhead; the SM front-end's on-demand reads (sm_kern.c). */
void kern_pull_warp(kern_t *k, uint32_t wi);
void kern_pull_sm(kern_t *k, uint32_t sm, uint32_t qhead);
/* 1 if the kernel has no further record: a warp with no buffered instruction has finished. */
int kern_at_end(const kern_t *k);

void kern_stream_init(kern_stream_t *s, trace_reader_t *r, uint32_t num_sm, const char *path);
void kern_stream_free(kern_stream_t *s);
/* Starts the next kernel in k (reset first): first declares to cb the allocations read inside
 * the previous kernel, then reads up to the next kernel record (allocations on the way go to cb).
 * The kernel's records are read later, on demand. 1: a kernel starts; 0: end of trace; -1: error
 * in err ("file:line: reason"). */
int kern_stream_next(kern_stream_t *s, kern_t *k, kern_alloc_fn cb, void *ctx, char *err,
                     size_t errlen);

typedef struct {
    uint32_t id, nports, max_res;
    uint32_t qhead; /* next warp of k->sq[id] to admit */
    uint32_t *res;  /* resident warps */
    uint32_t nres;
    uint32_t rr;
    uint32_t id_warp[SM_MAX_IDS];
    uint8_t id_page[SM_MAX_IDS];
    uint8_t id_busy[SM_MAX_IDS];
    uint8_t id_fifo[SM_MAX_IDS];
    uint32_t fifo_head, fifo_count;
    uint32_t outstanding;
    sm_ready_t rdy; /* the slots that may present, and those in their gap by ready_at */
    uint32_t warps_done;
    uint64_t instr_done;
    uint32_t issue_ipc;  /* instructions the SM issues per cycle; 0: no limit (sm_set_issue_ipc) */
    uint64_t issue_free; /* first issue slot (cycle * issue_ipc) not taken by a gap */
} sm_t;

/* Result of a translation coming back. */
typedef struct {
    uint32_t warp; /* index in the kernel */
    uint64_t vpn;
    uint32_t lines; /* the 128-byte lines of the page the instruction's lanes touched (bit i) */
    uint8_t op;
    int instr_done; /* the warp's instruction completed */
    int warp_done;  /* ... and it was its last one */
    uint64_t line;
} sm_resp_t;

int sm_init(sm_t *sm, uint32_t id, uint32_t nports, uint32_t max_res);
void sm_free(sm_t *sm);
/* The SM's issue width for the warps' compute gaps (configuration key sm_issue_ipc): at most ipc
 * gap instructions per cycle among its warps; 0 (sm_init's default): every warp's gap takes its
 * own length in cycles, overlapping every other warp's. */
void sm_set_issue_ipc(sm_t *sm, uint32_t ipc);
/* Starts a kernel at cycle now: admits this SM's first warps of k (order of first appearance),
 * reading k as far as needed. 0, or -1 (k->error). */
int sm_start_kernel(sm_t *sm, kern_t *k, uint64_t now);
/* Presents up to nports translations (call only when req_ready). Fills valid/vpn/write/id of the
 * SM's ports; returns the number presented. */
uint32_t sm_issue(sm_t *sm, kern_t *k, uint64_t now, uint8_t *valid, uint64_t *vpn, uint8_t *write,
                  uint8_t *id);
/* A translation with this id came back at cycle now (reads k as far as needed for the warp's next
 * instruction or the SM's next warp). 0, or -1 if the id is not outstanding; a failed read sets
 * k->error. */
/* The 128-byte line (0..31) that request id (presented, not answered) sends on req_line
 * (docs/microarch.md §20.1): the lowest line its lanes touch in its page; 0 if none. */
uint8_t sm_req_line(const sm_t *sm, const kern_t *k, uint8_t id);
int sm_response(sm_t *sm, kern_t *k, uint8_t id, uint64_t now, sm_resp_t *r);
/* The data of a translation of warp `warp` (sm_resp_t.warp) comes back only at cycle `until` (a
 * remote access over PCIe, docs/cosim.md "Remote accesses"): the warp's next instruction issues
 * no earlier. Call after sm_response; nothing for a warp that has finished. */
void sm_hold(sm_t *sm, kern_t *k, uint32_t warp, uint64_t until);
/* 1 if a resident warp has a translation to present at cycle now. */
int sm_wants_issue(sm_t *sm, const kern_t *k, uint64_t now);
/* Time has reached now (it never goes back): the warps whose gap has ended join the SM's ready
 * set, so that sm_next_event looks at the gaps still running only (sm_issue does it too). */
void sm_advance(sm_t *sm, uint64_t now);
/* Earliest cycle > now at which a resident warp's gap ends (UINT64_MAX if none). */
uint64_t sm_next_event(const sm_t *sm, const kern_t *k, uint64_t now);
int sm_kernel_done(const sm_t *sm, const kern_t *k);
/* Warps waiting for translations / in their gap / queued, for dumps. */
void sm_dump(const sm_t *sm, const kern_t *k, FILE *f, uint64_t now);

#endif
