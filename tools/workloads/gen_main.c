/*
 * gen_main.c - gmmu-gen: command line of the workload trace generators (docs/workloads.md).
 *
 *   gmmu-gen <workload> [--size-mb N] [--seed S] [--iters N] [--window N] [-o OUT]
 *            [--param key=value]... [--text|--binary] [--verbose]
 *   gmmu-gen list
 */
#define _POSIX_C_SOURCE 200809L

#include "gen.h"
#include "num.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GEN_MAX_SIZE_MB 32768 /* footprint bound of --size-mb */

static void usage(FILE *f) {
    fprintf(f,
            "usage: gmmu-gen <workload> [--size-mb N] [--seed S] [--iters N] [--window N]\n"
            "                [--param key=value]... [-o OUT] [--text|--binary] [--verbose]\n"
            "       gmmu-gen list\n"
            "  --size-mb  footprint target in MB (decimals allowed; default: the workload's small\n"
            "             size, see 'list')\n"
            "  --seed     input data seed (default 1); output is a function of (workload, size,\n"
            "             seed, iters, window)\n"
            "  --iters    iterations / steps / batches (meaning per workload, docs/workloads.md)\n"
            "  --window   resident CTAs whose warps are interleaved (default 16)\n"
            "  --param    a workload parameter (chase, stream, sparse: docs/workloads.md)\n"
            "  -o         output trace (default '-' = stdout; binary unless it ends in .txt)\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "list") == 0) {
        for (const gen_workload_t *w = gen_workloads(); w->name; w++)
            printf("%-11s %-9s %6.2f MB  %s\n", w->name, w->suite, w->default_size_kb / 1024.0,
                   w->desc);
        return 0;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    const gen_workload_t *wl = gen_find(argv[1]);
    if (!wl) {
        fprintf(stderr, "gmmu-gen: unknown workload '%s' (gmmu-gen list)\n", argv[1]);
        return 2;
    }
    gen_t g;
    memset(&g, 0, sizeof(g));
    g.o.seed = 1;
    g.o.window = 16;
    const char *out = "-";
    int binary = -1;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t x;
        if (strcmp(a, "--size-mb") == 0 && v) {
            char *end = NULL;
            errno = 0;
            /* decimal digits with at most one '.': no sign, exponent, hex or inf/nan */
            const size_t nd = strspn(v, "0123456789.");
            const char *dot = strchr(v, '.');
            const int bad = v[nd] != '\0' || (dot && strchr(dot + 1, '.'));
            const double mb = bad ? 0.0 : strtod(v, &end);
            if (bad || errno || end == v || *end || !(mb > 0) || mb > GEN_MAX_SIZE_MB) {
                fprintf(stderr,
                        "gmmu-gen: --size-mb %s: expected a number in (0, %d] (twice the "
                        "largest GPU memory the simulator models, gpu_mem_pages <= 2^22)\n",
                        v, GEN_MAX_SIZE_MB);
                return 2;
            }
            g.o.size = (uint64_t)(mb * (double)GEN_MB);
            i++;
        } else if (strcmp(a, "--seed") == 0 && v) {
            if (num_parse_u64(v, &g.o.seed) != 0) {
                fprintf(stderr, "gmmu-gen: --seed %s: expected a non-negative integer\n", v);
                return 2;
            }
            i++;
        } else if ((strcmp(a, "--iters") == 0 || strcmp(a, "--window") == 0) && v) {
            if (num_parse_u64(v, &x) != 0 || x == 0 || x > 1000000) {
                fprintf(stderr, "gmmu-gen: %s %s: expected 1..1000000\n", a, v);
                return 2;
            }
            if (a[2] == 'i')
                g.o.iters = (uint32_t)x;
            else
                g.o.window = (uint32_t)x;
            i++;
        } else if (strcmp(a, "--param") == 0 && v) {
            char err[256];
            if (gen_param_add(&g.o, v, err, sizeof(err)) != 0) {
                fprintf(stderr, "gmmu-gen: %s\n", err);
                return 2;
            }
            i++;
        } else if (strcmp(a, "-o") == 0 && v) {
            out = v;
            i++;
        } else if (strcmp(a, "--text") == 0) {
            binary = 0;
        } else if (strcmp(a, "--binary") == 0) {
            binary = 1;
        } else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
            g.o.verbose = 1;
        } else {
            fprintf(stderr, "gmmu-gen: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (g.o.size == 0)
        g.o.size = (uint64_t)wl->default_size_kb * 1024;
    if (binary < 0) {
        size_t n = strlen(out);
        binary = !(n >= 4 && strcmp(out + n - 4, ".txt") == 0) &&
                 !(n >= 7 && strcmp(out + n - 7, ".txt.xz") == 0);
    }
    if (gen_run(&g, wl, out, binary) != 0) {
        fprintf(stderr, "gmmu-gen: %s: %s\n", wl->name, g.err);
        return 1;
    }
    if (g.o.verbose)
        fprintf(stderr,
                "gmmu-gen: %s size %.1f MB seed %" PRIu64 ": %" PRIu64 " allocations (%.1f MB), "
                "%" PRIu64 " kernels, %" PRIu64 " instructions, %" PRIu64 " lane accesses, "
                "%" PRIu64 " warp exits\n",
                wl->name, (double)g.o.size / (double)GEN_MB, g.o.seed, g.st.allocs,
                (double)g.st.alloc_bytes / (double)GEN_MB, g.st.kernels, g.st.records, g.st.lanes,
                g.st.exits);
    return 0;
}
