/*
 * board_main.c - gmmu-board: runs a (small) trace on the FPGA board, or on the simulated board
 * of `make fpga-sim`, with the project's fault handler servicing the faults over the UART link
 * (docs/fpga.md "Host link").
 *
 *   gmmu-board --port DEV --trace FILE [--board B | --baud N] [--timeout-ms N] [--frames N]
 *              [--replay-policy P] [--evict-policy P] [--inject-bad-h2d N] [--quiet]
 *              [--repeat N] [--stats FILE]
 *
 *   --board B           the serial port at board B's host-link rate (fpga/boards/links.toml, the
 *                       rate its bitstream was built with); the board must report B's clock.
 *                       --baud N instead: any rate (a pty has none: neither option)
 *   --frames N          the handler uses only N of the board's data frames (oversubscription:
 *                       evictions and write-backs)
 *   --inject-bad-h2d N  the N-th page moved to the board arrives with a wrong content tag: the
 *                       run must fail (shows that the checks catch it)
 *   --repeat N          the trace's kernels N times over (a second pass finds its pages resident)
 *   --stats FILE        per kernel: board cycles, accesses, faults, and the link's commands and
 *                       bytes per purpose (poll, requests, results, fault service; JSON), the
 *                       input of scripts/fpga_throughput.py (docs/fpga.md "Throughput on the
 *                       board model")
 *
 * The host program is cosim/host_drv.c, the handler sw-handler/, both unchanged: this program
 * gives them the board's uvm_dev_t (board_dev.c) and a platform (hdrv_svc_t) that feeds the
 * board's request FIFO kernel by kernel and checks every access the board reports: the content
 * tag read at the translated frame must be the page's current content, which the host follows
 * in the board's access order (a write makes it tag + 1). At the end every page of every
 * allocation is checked where it lives (board frame or host copy). Exit 0 only if all held.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "board_dev.h"
#include "board_link.h"
#include "board_links.h" /* generated from fpga/boards/links.toml */
#include "board_run.h"
#include "host_drv.h"
#include "num.h"
#include "trace.h"

static void usage(void) {
    fprintf(stderr,
            "usage: gmmu-board --port DEV --trace FILE [--baud N] [--timeout-ms N]\n"
            "                  [--frames N] [--replay-policy P] [--evict-policy P]\n"
            "                  [--inject-bad-h2d N] [--quiet] [--repeat N] [--stats FILE]\n");
}

typedef struct {
    const char *port, *trace, *replay, *evict, *stats, *board;
    uint32_t board_khz; /* --board: the clock the board must report */
    uint64_t baud, timeout_ms, frames, bad_h2d, repeat;
    int quiet;
} opts_t;

static int parse_opts(int argc, char **argv, opts_t *o) {
    memset(o, 0, sizeof(*o));
    o->timeout_ms = 5000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quiet")) {
            o->quiet = 1;
            continue;
        }
        if (!v) {
            usage();
            return -1;
        }
        i++;
        if (!strcmp(a, "--port"))
            o->port = v;
        else if (!strcmp(a, "--trace"))
            o->trace = v;
        else if (!strcmp(a, "--replay-policy"))
            o->replay = v;
        else if (!strcmp(a, "--evict-policy"))
            o->evict = v;
        else if (!strcmp(a, "--stats"))
            o->stats = v;
        else if (!strcmp(a, "--board"))
            o->board = v;
        else if (!strcmp(a, "--baud") || !strcmp(a, "--timeout-ms") || !strcmp(a, "--frames") ||
                 !strcmp(a, "--inject-bad-h2d") || !strcmp(a, "--repeat")) {
            uint64_t *dst = !strcmp(a, "--baud")         ? &o->baud
                            : !strcmp(a, "--timeout-ms") ? &o->timeout_ms
                            : !strcmp(a, "--frames")     ? &o->frames
                            : !strcmp(a, "--repeat")     ? &o->repeat
                                                         : &o->bad_h2d;
            const int st = num_parse_u64(v, dst);
            if (st != NUM_OK || *dst > UINT32_MAX) {
                fprintf(stderr, "gmmu-board: %s %s: is %s\n", a, v,
                        st != NUM_OK ? num_strerror(st) : "above 2^32-1");
                return -1;
            }
        } else {
            usage();
            return -1;
        }
    }
    if (!o->port || !o->trace) {
        usage();
        return -1;
    }
    if (o->board) {
        static const struct {
            const char *name;
            uint32_t clk_khz, baud;
        } rates[] = BOARD_LINK_RATES;
        size_t i = 0;
        while (i < sizeof rates / sizeof rates[0] && strcmp(rates[i].name, o->board) != 0)
            i++;
        if (i == sizeof rates / sizeof rates[0]) {
            fprintf(stderr, "gmmu-board: --board %s: not a board of fpga/boards/links.toml\n",
                    o->board);
            return -1;
        }
        if (o->baud && o->baud != rates[i].baud) {
            fprintf(stderr,
                    "gmmu-board: --board %s runs at %u baud (fpga/boards/links.toml), not "
                    "--baud %llu\n",
                    o->board, rates[i].baud, (unsigned long long)o->baud);
            return -1;
        }
        o->baud = rates[i].baud;
        o->board_khz = rates[i].clk_khz;
    }
    if (o->repeat > 64) {
        fprintf(stderr, "gmmu-board: --repeat %llu: at most 64\n", (unsigned long long)o->repeat);
        return -1;
    }
    return 0;
}

static int handler_cfg(const opts_t *o, const bdev_info_t *bi, uvm_cfg_t *cfg) {
    char err[256];
    uvm_cfg_defaults(cfg);
    cfg->gpu_pt_base_pa = 0;
    cfg->gpu_pt_pages = bi->pt_pages;
    cfg->gpu_data_base_pa = (uint64_t)bi->data_base_ppn << 12;
    cfg->gpu_data_pages = o->frames ? o->frames : bi->frames;
    if (cfg->gpu_data_pages > bi->frames) {
        fprintf(stderr, "gmmu-board: --frames %llu: the board has %u data frames\n",
                (unsigned long long)o->frames, bi->frames);
        return -1;
    }
    cfg->fb_host_addr = 0;
    cfg->fb_entries = bi->fb_entries;
    /* the host's CPU time is real on the board: no modeled costs */
    cfg->t_irq_ns = cfg->t_batch_ns = cfg->t_fault_ns = 0;
    cfg->t_page_ns = cfg->t_pte_ns = cfg->t_evict_ns = 0;
    if ((o->replay && uvm_cfg_set_policy(cfg, UVM_POLICY_REPLAY, o->replay, err, sizeof err)) ||
        (o->evict && uvm_cfg_set_policy(cfg, UVM_POLICY_EVICT, o->evict, err, sizeof err))) {
        fprintf(stderr, "gmmu-board: %s\n", err);
        return -1;
    }
    return 0;
}

static void summary(const brun_t *r, const hdrv_t *h, double wall, int pass) {
    const uvm_stats_t *s = hdrv_stats(h);
    uint64_t h2d = 0, d2h = 0;
    bdev_dma_counts(r->dev, &h2d, &d2h);
    printf("== gmmu-board summary\n");
    printf("  trace         %s: %zu kernels, %llu requests\n", r->trace_path, r->nkern,
           (unsigned long long)r->total_reqs);
    printf("  board         %u SMs, %u frames, %u PT pages, ring %u entries, %u kHz\n",
           r->info.num_sm, r->info.frames, r->info.pt_pages, r->info.fb_entries, r->info.clk_khz);
    printf("  accesses      %llu checked (%llu writes, %llu fatal), %llu board cycles\n",
           (unsigned long long)r->results, (unsigned long long)r->writes,
           (unsigned long long)r->fatal, (unsigned long long)r->board_cycles);
    printf("  handler       %llu irqs, %llu batches, %llu faults fetched, %llu replays\n",
           (unsigned long long)s->irqs, (unsigned long long)s->fault_batches,
           (unsigned long long)s->faults_fetched, (unsigned long long)s->replays);
    printf("  migration     H2D %llu pages, D2H %llu pages, %llu evictions\n",
           (unsigned long long)h2d, (unsigned long long)d2h, (unsigned long long)s->evictions);
    printf("  pages         %llu checked at the end (%llu on the board), %llu content errors in "
           "total\n",
           (unsigned long long)r->pages_checked, (unsigned long long)r->pages_resident,
           (unsigned long long)r->errors);
    printf("  link          %llu UARTBone commands, %llu bytes, %.2f s wall\n",
           (unsigned long long)blink_commands(r->link), (unsigned long long)blink_bytes(r->link),
           wall);
    printf("  RESULT        %s\n", pass ? "PASS" : "FAIL");
}

/* --stats: per kernel the board cycles, accesses, faults and link traffic per class (marks). */
static int write_stats(const char *path, const brun_t *r, const opts_t *o) {
    static const char *const cls[BLINK_NCLS] = {"setup", "poll", "req", "res", "fault"};
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "gmmu-board: --stats %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "{\"clk_khz\": %u, \"frames\": %llu, \"kernels\": [", r->info.clk_khz,
            (unsigned long long)(o->frames ? o->frames : r->info.frames));
    for (size_t i = 0; i + 1 < r->nmarks; i++) {
        const brun_mark_t *a = &r->marks[i], *b = &r->marks[i + 1];
        fprintf(f, "%s\n {\"cycles\": %llu, \"accesses\": %llu, \"faults\": %llu", i ? "," : "",
                (unsigned long long)(b->cycles - a->cycles),
                (unsigned long long)(b->results - a->results),
                (unsigned long long)(b->faults - a->faults));
        for (int c = 0; c < BLINK_NCLS; c++)
            fprintf(f, ", \"%s_bytes\": %llu, \"%s_commands\": %llu, \"%s_reads\": %llu", cls[c],
                    (unsigned long long)(b->bytes[c] - a->bytes[c]), cls[c],
                    (unsigned long long)(b->commands[c] - a->commands[c]), cls[c],
                    (unsigned long long)(b->reads[c] - a->reads[c]));
        fprintf(f, "}");
    }
    fprintf(f, "],\n \"total\": {\"board_cycles\": %llu", (unsigned long long)r->board_cycles);
    for (int c = 0; c < BLINK_NCLS; c++)
        fprintf(f, ", \"%s_bytes\": %llu, \"%s_commands\": %llu, \"%s_reads\": %llu", cls[c],
                (unsigned long long)blink_class_bytes(r->link, (blink_cls_t)c), cls[c],
                (unsigned long long)blink_class_commands(r->link, (blink_cls_t)c), cls[c],
                (unsigned long long)blink_class_reads(r->link, (blink_cls_t)c));
    fprintf(f, "}}\n");
    if (fclose(f) != 0) {
        fprintf(stderr, "gmmu-board: --stats %s: write failed\n", path);
        return -1;
    }
    return 0;
}

/* Everything that needs no board, checked before the link opens (issue 26: with no board, a
 * missing trace or a misspelt policy was reported as "no answer from the board"): the policy
 * names, and the trace (a regular file is read through, so a malformed record is named now; a
 * pipe or FIFO, read only once, is only opened later). 0, or -1 after a message. */
static int check_local(const opts_t *o) {
    char err[512];
    uvm_cfg_t cfg;
    uvm_cfg_defaults(&cfg);
    if (o->replay && uvm_cfg_set_policy(&cfg, UVM_POLICY_REPLAY, o->replay, err, sizeof err)) {
        fprintf(stderr, "gmmu-board: --replay-policy: %s\n", err);
        return -1;
    }
    if (o->evict && uvm_cfg_set_policy(&cfg, UVM_POLICY_EVICT, o->evict, err, sizeof err)) {
        fprintf(stderr, "gmmu-board: --evict-policy: %s\n", err);
        return -1;
    }
    struct stat st;
    if (stat(o->trace, &st) != 0) {
        fprintf(stderr, "gmmu-board: --trace %s: %s\n", o->trace, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode))
        return 0;
    trace_reader_t *tr = trace_open(o->trace, err, sizeof err);
    if (!tr) {
        fprintf(stderr, "gmmu-board: %s\n", err);
        return -1;
    }
    trace_rec_t rec;
    int rc, kernels = 0;
    while ((rc = trace_next(tr, &rec, err, sizeof err)) == 1) {
        if (rec.kind == TRACE_REC_KERNEL)
            kernels++;
        else if (rec.kind == TRACE_REC_MEM && kernels == 0) {
            snprintf(err, sizeof err, "%s: record %llu: memory instruction before the first kernel",
                     o->trace, (unsigned long long)rec.line);
            rc = -1;
            break;
        }
    }
    trace_close(tr);
    if (rc != 0) {
        fprintf(stderr, "gmmu-board: %s\n", err);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv) {
    opts_t o;
    if (parse_opts(argc, argv, &o) != 0 || check_local(&o) != 0)
        return 2;
    char err[512];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    blink_t *link = blink_open(o.port, (uint32_t)o.baud, (uint32_t)o.timeout_ms, err, sizeof err);
    if (!link) {
        fprintf(stderr, "gmmu-board: %s\n", err);
        return 1;
    }
    bdev_t *dev = bdev_new(link, err, sizeof err);
    brun_t run;
    if (!dev || brun_init(&run, link, dev, o.trace, o.quiet, err, sizeof err) != 0) {
        fprintf(stderr, "gmmu-board: %s\n", err);
        bdev_free(dev);
        blink_close(link);
        return 1;
    }
    if (o.board && run.info.clk_khz != o.board_khz) {
        fprintf(stderr,
                "gmmu-board: --board %s: the board reports a %u kHz clock, fpga/boards/links.toml "
                "has %u kHz: another board's bitstream?\n",
                o.board, run.info.clk_khz, o.board_khz);
        brun_free(&run);
        bdev_free(dev);
        blink_close(link);
        return 1;
    }
    if (brun_repeat(&run, (unsigned)o.repeat) != 0 || (o.stats && brun_measure(&run) != 0)) {
        fprintf(stderr, "gmmu-board: out of memory\n");
        brun_free(&run);
        bdev_free(dev);
        blink_close(link);
        return 1;
    }
    uvm_cfg_t cfg;
    uvm_dev_t udev;
    hdrv_svc_t svc;
    bdev_dev(dev, &udev);
    bdev_inject_bad_h2d(dev, o.bad_h2d);
    brun_svc(&run, &svc);
    hdrv_t *h = NULL;
    int rc = 1;
    if (handler_cfg(&o, &run.info, &cfg) == 0 &&
        (h = hdrv_new(&cfg, &udev, &svc, err, sizeof err)) == NULL)
        fprintf(stderr, "gmmu-board: %s\n", err);
    if (h) {
        run.hdrv = h;
        const hdrv_status_t st = hdrv_run(h, err, sizeof err);
        if (st == HDRV_INIT_FAILED)
            fprintf(stderr, "gmmu-board: %s\n", err);
        else if (st == HDRV_HALTED || bdev_failed(dev))
            fprintf(stderr, "gmmu-board: stopped: %s\n",
                    bdev_failed(dev) ? bdev_error(dev) : run.halt_msg);
        else
            brun_final_check(&run);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        const int pass = st == HDRV_OK && !bdev_failed(dev) && !run.halted && run.errors == 0 &&
                         run.results == run.total_reqs;
        summary(&run, h, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9, pass);
        rc = pass ? 0 : 1;
        if (o.stats && write_stats(o.stats, &run, &o) != 0)
            rc = 1;
    }
    hdrv_free(h);
    brun_free(&run);
    bdev_free(dev);
    blink_close(link);
    return rc;
}
