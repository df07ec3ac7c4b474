/*
 * board_run.h - the platform side of gmmu-board (module brun_): the trace as the board's request
 * source sees it, the hdrv_svc_t that feeds it and checks the accesses the board reports, and
 * the final check of every page (docs/fpga.md "Host link").
 */
#ifndef HOST_BOARD_RUN_H
#define HOST_BOARD_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "board_dev.h"
#include "host_drv.h"
#include "u64map.h"

typedef struct {
    char name[64];
    uint64_t base, size;
    int ro;
} brun_alloc_t;

/* one request of a kernel: vpn [35:0], write [40], sm [55:48] */
typedef struct {
    uint64_t *req;
    size_t n, cap;
} brun_kernel_t;

/* the board's cycle counter and the link's traffic at the start of a kernel (brun_measure) */
typedef struct {
    uint64_t cycles, faults, results;
    uint64_t bytes[BLINK_NCLS], commands[BLINK_NCLS], reads[BLINK_NCLS];
} brun_mark_t;

typedef struct {
    blink_t *link;
    bdev_t *dev;
    hdrv_t *hdrv;
    bdev_info_t info;
    const char *trace_path;
    int quiet;
    brun_alloc_t *allocs;
    size_t nalloc;
    brun_kernel_t *kern;
    size_t nkern;
    size_t cur;            /* kernel running */
    size_t pushed;         /* its requests sent to the board */
    uint64_t kern_results; /* its accesses reported */
    uint64_t total_reqs, results, writes, fatal, errors, pages_checked, board_cycles;
    uint64_t pages_resident; /* of pages_checked: mapped on the board at the end */
    u64map_t truth;          /* vpn -> current content tag (absent: bdev_initial_tag) */
    int halted;
    char halt_msg[256];
    brun_mark_t *marks; /* brun_measure: nkern + 1 marks (the last one: the end), else NULL */
    size_t nmarks;      /* marks taken */
} brun_t;

/* Reads the trace (allocations; per kernel, one request per distinct page of each memory
 * instruction, on SM cta % num_sm). 0 or -1 + err. */
int brun_init(brun_t *r, blink_t *link, bdev_t *dev, const char *trace_path, int quiet, char *err,
              size_t errlen);
void brun_free(brun_t *r);
/* Runs the trace's kernels n times in all (n >= 1; the second pass finds the pages resident if
 * they fit). 0 or -1 (out of memory). */
int brun_repeat(brun_t *r, unsigned n);
/* Reads the board's cycle counter at every kernel boundary (a 2-word read counted as setup
 * traffic) and keeps the link's traffic per class there: r->marks. 0 or -1. */
int brun_measure(brun_t *r);
void brun_svc(brun_t *r, hdrv_svc_t *svc);
/* Every page of every allocation where it lives now against the content the accesses left:
 * mapped in the board's page table -> the tag of its frame, else the host copy's tag. */
void brun_final_check(brun_t *r);

#endif
