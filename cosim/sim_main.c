/*
 * sim_main.c - gmmu-sim: command line of the co-simulation (see docs/cosim.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "plat.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage: gmmu-sim --config configs/<c>.cfg [--trace T] [--seed N]\n"
            "                [--engine cosim|cmodel|rtl] [--waves out.fst] [--stats out.json]\n"
            "                [--set key=value]... [--no-skip] [--no-quiet-skip] [--max-cycles N]\n"
            "                [--quiet]\n"
            "  --trace       trace file (text, binary, .xz or - for stdin; default "
            "tb/traces/replay.trc)\n"
            "  --seed        seed of every random choice of the run (default 1)\n"
            "  --engine      cosim: RTL and C model in lock-step (default); cmodel; rtl\n"
            "  --waves       FST waveform of the whole run (RTL engines)\n"
            "  --stats       JSON statistics file\n"
            "  --set         override a non-RTL configuration key\n"
            "  --no-skip     clock every cycle (no idle skipping)\n"
            "  --no-quiet-skip  cmodel engine: skip idle cycles only, not quiet ones\n"
            "  --max-cycles  stop (exit 3) after N simulated cycles\n"
            "  --quiet       no configuration listing, no progress line\n");
}

static int parse_u64(const char *s, uint64_t *v) {
    char *end = NULL;
    errno = 0;
    if (!s || *s == '-' || *s == '\0')
        return -1;
    const unsigned long long x = strtoull(s, &end, 0);
    if (errno || *end)
        return -1;
    *v = (uint64_t)x;
    return 0;
}

int main(int argc, char **argv) {
    plat_opts_t o;
    memset(&o, 0, sizeof(o));
    cfg_defaults(&o.cfg);
    o.seed = 1;
    o.engine = PLAT_ENGINE_COSIM;
    o.trace_path = "tb/traces/replay.trc";
    o.argc = argc;
    o.argv = argv;
    const char *sets[256];
    int nsets = 0;
    char err[1024];
    static char rerun_path[1024];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int used = 1;
        if (strcmp(a, "--config") == 0 && v)
            o.cfg_path = v;
        else if (strcmp(a, "--trace") == 0 && v)
            o.trace_path = v;
        else if (strcmp(a, "--seed") == 0 && v) {
            if (parse_u64(v, &o.seed) != 0) {
                fprintf(stderr, "gmmu-sim: --seed %s: not a non-negative integer\n", v);
                return 2;
            }
        } else if (strcmp(a, "--engine") == 0 && v) {
            if (strcmp(v, "cosim") == 0)
                o.engine = PLAT_ENGINE_COSIM;
            else if (strcmp(v, "cmodel") == 0)
                o.engine = PLAT_ENGINE_CMODEL;
            else if (strcmp(v, "rtl") == 0)
                o.engine = PLAT_ENGINE_RTL;
            else {
                fprintf(stderr, "gmmu-sim: --engine %s: expected cosim, cmodel or rtl\n", v);
                return 2;
            }
        } else if (strcmp(a, "--waves") == 0 && v)
            o.waves_path = v;
        else if (strcmp(a, "--stats") == 0 && v)
            o.stats_path = v;
        else if (strcmp(a, "--set") == 0 && v) {
            if (nsets == 256) {
                fprintf(stderr, "gmmu-sim: too many --set\n");
                return 2;
            }
            sets[nsets++] = v;
        } else if (strcmp(a, "--max-cycles") == 0 && v) {
            if (parse_u64(v, &o.max_cycles) != 0) {
                fprintf(stderr, "gmmu-sim: --max-cycles %s: not a non-negative integer\n", v);
                return 2;
            }
        } else if (strcmp(a, "--wave-rerun") == 0 && v) {
            /* internal: FROM:PATH */
            char *colon = strchr(v, ':');
            if (!colon || (size_t)(colon - v) >= 32) {
                fprintf(stderr, "gmmu-sim: --wave-rerun %s: expected FROM:PATH\n", v);
                return 2;
            }
            char num[32];
            memcpy(num, v, (size_t)(colon - v));
            num[colon - v] = '\0';
            if (parse_u64(num, &o.rerun_from) != 0) {
                fprintf(stderr, "gmmu-sim: --wave-rerun %s: expected FROM:PATH\n", v);
                return 2;
            }
            snprintf(rerun_path, sizeof(rerun_path), "%s", colon + 1);
            o.rerun = 1;
        } else {
            used = 0;
            if (strcmp(a, "--no-skip") == 0)
                o.no_skip = 1;
            else if (strcmp(a, "--no-quiet-skip") == 0)
                o.no_quiet = 1;
            else if (strcmp(a, "--quiet") == 0)
                o.quiet = 1;
            else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
                usage(stdout);
                return 0;
            } else {
                fprintf(stderr, "gmmu-sim: unknown or incomplete option '%s'\n", a);
                usage(stderr);
                return 2;
            }
        }
        i += used;
    }
    if (o.rerun) {
        o.waves_path = rerun_path;
        o.stats_path = NULL;
        o.quiet = 1;
    }
    if (!o.cfg_path) {
        fprintf(stderr, "gmmu-sim: --config is required\n");
        usage(stderr);
        return 2;
    }
    if (cfg_load(&o.cfg, o.cfg_path, err, sizeof(err)) != 0) {
        fprintf(stderr, "gmmu-sim: %s\n", err);
        return 2;
    }
    for (int i = 0; i < nsets; i++) {
        if (cfg_set(&o.cfg, sets[i], err, sizeof(err)) != 0) {
            fprintf(stderr, "gmmu-sim: %s\n", err);
            return 2;
        }
    }
    if (o.waves_path && o.engine == PLAT_ENGINE_CMODEL && !o.rerun)
        fprintf(stderr, "gmmu-sim: note: --waves ignored with --engine cmodel (no RTL)\n");
    if (!o.rerun) {
        printf("gmmu-sim: seed %llu, engine %s, trace %s, config %s%s\n",
               (unsigned long long)o.seed, plat_engine_name(o.engine), o.trace_path, o.cfg_path,
               o.no_skip
                   ? ", no idle skipping"
                   : (o.no_quiet && o.engine == PLAT_ENGINE_CMODEL ? ", no quiet skipping" : ""));
        if (!o.quiet)
            cfg_print(&o.cfg, stdout, "  ");
        fflush(stdout);
    }
    plat_t *p = plat_new(&o, err, sizeof(err));
    if (!p) {
        fprintf(stderr, "gmmu-sim: %s\n", err);
        return 2;
    }
    const int rc = plat_run(p);
    plat_free(p);
    return rc;
}
