/*
 * sim_main.c - gmmu-sim: the program around the platform library (see docs/cosim.md): command
 * line, configuration listing, the run, and after a lock-step mismatch the re-run of itself that
 * writes the waveform of the cycles before it, then the summary.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "num.h"
#include "plat.h"

#define WAVE_WINDOW 4000ull /* clocked cycles of waveform before a mismatch */

/* The one global of the program: the signal that asked the run to stop (0: none). The handler
 * only stores it; the cycle loop checks it (plat_opts_t.stop) and the run ends normally. */
static volatile sig_atomic_t g_stop_signal;

static void on_signal(int sig) {
    g_stop_signal = sig;
}

static void install_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static void usage(FILE *f) {
    fprintf(
        f,
        "usage: gmmu-sim --config configs/<c>.cfg [--trace T] [--seed N]\n"
        "                [--engine cosim|cmodel|rtl|E1,E2,..] [--waves out.fst] [--stats "
        "out.json]\n"
        "                [--set key=value]... [--no-skip] [--no-quiet-skip] [--max-cycles N]\n"
        "                [--quiet]\n"
        "  --trace       trace file (text, binary, .xz or - for stdin; default "
        "tb/traces/replay.trc)\n"
        "  --seed        seed of every random choice of the run (default 1)\n"
        "  --engine      cosim: RTL and C model in lock-step (default); cmodel; rtl;\n"
        "                netlist (synthesized gmmu_top, gmmu-sim-netlist: make sim-netlist);\n"
        "                or engines separated by commas, the first driving (cosim = cmodel,rtl)\n"
        "  --waves       FST waveform of the whole run (RTL engines)\n"
        "  --state-compare  also compare every _q register of the RTL with the C model each\n"
        "                clocked cycle (gmmu-sim-state: make sim-state); -partial: only those\n"
        "                with a model accessor (the others are listed)\n"
        "  --stats       JSON statistics file\n"
        "  --set         override a non-RTL configuration key\n"
        "  --no-skip     clock every cycle (no idle skipping)\n"
        "  --no-quiet-skip  cmodel engine: skip idle cycles only, not quiet ones\n"
        "  --no-scoreboard  do not run the handler scoreboard (docs/cosim.md)\n"
        "  --score-break K  test the scoreboard: inject a handler fault K =\n"
        "                   perm|dup|noinval|tag|order (the run must fail)\n"
        "  --max-cycles  stop (exit 4) after N simulated cycles\n"
        "  --expect-fault  accesses outside every allocation / writes to read-only allocations\n"
        "                are expected (otherwise the program faulted: exit 3)\n"
        "  --chaos-streak N  chaos agent: hold back after N commands in a row that restart a\n"
        "                walk without a completed translation (default 8, 0: no bound)\n"
        "  --test-hang C testing the watchdog: from cycle C the memory never answers\n"
        "  --csr STEP    a host CSR access at a cycle: CYCLE:w:REG:VALUE[:EVENT] (EVENT: an ev_o\n"
        "                bit that must happen in the same cycle) or CYCLE:r:REG[:VALUE[/MASK]]\n"
        "  --preload A:K the platform maps allocation A itself: K = large (2 MB pages) or\n"
        "                nocache (4 KB pages with the PTE D bit)\n"
        "  --progress-every S  seconds between progress lines when stderr is not a terminal\n"
        "                (default 10)\n"
        "  --quiet       no configuration listing, no progress line\n"
        "exit status: 0 pass, 1 mismatch (hardware bug), 2 bad input or usage, 3 the program\n"
        "faulted, 4 watchdog or --max-cycles, 5 integrity error, 6 platform or handler failure,\n"
        "128+N signal N (docs/cosim.md)\n");
}

typedef struct {
    plat_opts_t o;
    const char *sets[256];
    int nsets;
    char rerun_path[1024];
} args_t;

/* --wave-rerun FROM:PATH (internal). 0 or -1. */
static int parse_rerun(args_t *a, const char *v) {
    const char *colon = strchr(v, ':');
    if (!colon || (size_t)(colon - v) >= 32)
        return -1;
    char num[32];
    memcpy(num, v, (size_t)(colon - v));
    num[colon - v] = '\0';
    if (num_parse_u64(num, &a->o.rerun_from) != 0)
        return -1;
    snprintf(a->rerun_path, sizeof(a->rerun_path), "%s", colon + 1);
    a->o.rerun = 1;
    return 0;
}

/* An option with a value; 1 if used, 0 if not such an option, -1 on a bad value (reported). */
static int parse_valued(args_t *a, const char *opt, const char *v) {
    plat_opts_t *o = &a->o;
    char err[256];
    if (strcmp(opt, "--config") == 0)
        o->cfg_path = v;
    else if (strcmp(opt, "--trace") == 0)
        o->trace_path = v;
    else if (strcmp(opt, "--seed") == 0) {
        const int rc = num_parse_u64(v, &o->seed);
        if (rc != NUM_OK) {
            fprintf(stderr, "gmmu-sim: --seed %s: %s\n", v, num_strerror(rc));
            return -1;
        }
    } else if (strcmp(opt, "--engine") == 0) {
        if (engine_list_parse(&engine_registry, v, &o->engines, err, sizeof(err)) != 0) {
            fprintf(stderr, "gmmu-sim: %s\n", err);
            return -1;
        }
        o->engine_name = v;
    } else if (strcmp(opt, "--waves") == 0)
        o->waves_path = v;
    else if (strcmp(opt, "--stats") == 0)
        o->stats_path = v;
    else if (strcmp(opt, "--set") == 0) {
        if (a->nsets == 256) {
            fprintf(stderr, "gmmu-sim: too many --set\n");
            return -1;
        }
        a->sets[a->nsets++] = v;
    } else if (strcmp(opt, "--max-cycles") == 0) {
        const int rc = num_parse_u64(v, &o->max_cycles);
        if (rc != NUM_OK) {
            fprintf(stderr, "gmmu-sim: --max-cycles %s: %s\n", v, num_strerror(rc));
            return -1;
        }
    } else if (strcmp(opt, "--chaos-streak") == 0 || strcmp(opt, "--test-hang") == 0) {
        uint64_t *dst = opt[2] == 'c' ? &o->chaos_streak : &o->hang_at;
        const int rc = num_parse_u64(v, dst);
        if (rc != NUM_OK) {
            fprintf(stderr, "gmmu-sim: %s %s: %s\n", opt, v, num_strerror(rc));
            return -1;
        }
    } else if (strcmp(opt, "--csr") == 0 || strcmp(opt, "--preload") == 0) {
        const int csr = opt[2] == 'c';
        unsigned *n = csr ? &o->ncsr : &o->npreload;
        if (*n == (csr ? PLAT_CSR_STEPS_MAX : PLAT_PRELOADS_MAX)) {
            fprintf(stderr, "gmmu-sim: too many %s\n", opt);
            return -1;
        }
        if (csr)
            o->csr[(*n)++] = v;
        else
            o->preload[(*n)++] = v;
    } else if (strcmp(opt, "--progress-every") == 0) {
        char *end = NULL;
        o->progress_every = strtod(v, &end);
        if (end == v || *end || !(o->progress_every >= 0.01 && o->progress_every <= 86400)) {
            fprintf(stderr, "gmmu-sim: --progress-every %s: expected seconds in [0.01, 86400]\n",
                    v);
            return -1;
        }
    } else if (strcmp(opt, "--score-break") == 0)
        o->score_break = v;
    else if (strcmp(opt, "--wave-rerun") == 0) {
        if (parse_rerun(a, v) != 0) {
            fprintf(stderr, "gmmu-sim: --wave-rerun %s: expected FROM:PATH\n", v);
            return -1;
        }
    } else
        return 0;
    return 1;
}

/* The command line into *a. Returns -1 to go on, else the exit status (help: 0, error: 2). */
static int parse_args(args_t *a, int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        const int used = i + 1 < argc ? parse_valued(a, opt, argv[i + 1]) : 0;
        if (used < 0)
            return 2;
        if (used) {
            i++;
            continue;
        }
        if (strcmp(opt, "--no-skip") == 0)
            a->o.no_skip = 1;
        else if (strcmp(opt, "--no-quiet-skip") == 0)
            a->o.no_quiet = 1;
        else if (strcmp(opt, "--no-scoreboard") == 0)
            a->o.no_score = 1;
        else if (strcmp(opt, "--quiet") == 0)
            a->o.quiet = 1;
        else if (strcmp(opt, "--expect-fault") == 0)
            a->o.expect_fault = 1;
        else if (strcmp(opt, "--state-compare") == 0)
            a->o.state_compare = 1;
        else if (strcmp(opt, "--state-compare-partial") == 0)
            a->o.state_compare = 2;
        else if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "gmmu-sim: unknown or incomplete option '%s'\n", opt);
            usage(stderr);
            return 2;
        }
    }
    return -1;
}

/* The configuration file and the --set overrides. 0 or -1 (reported). */
static int load_config(args_t *a) {
    char err[1024];
    if (!a->o.cfg_path) {
        fprintf(stderr, "gmmu-sim: --config is required\n");
        usage(stderr);
        return -1;
    }
    if (cfg_load(&a->o.cfg, a->o.cfg_path, err, sizeof(err)) != 0) {
        fprintf(stderr, "gmmu-sim: %s\n", err);
        return -1;
    }
    for (int i = 0; i < a->nsets; i++) {
        if (cfg_set(&a->o.cfg, a->sets[i], err, sizeof(err)) != 0) {
            fprintf(stderr, "gmmu-sim: %s\n", err);
            return -1;
        }
    }
    return 0;
}

static void print_header(const plat_opts_t *o) {
    const int all_quiet = engine_list_all_quiet(&o->engines);
    if (o->waves_path && !engine_list_has_waves(&o->engines) && !o->rerun)
        fprintf(stderr, "gmmu-sim: note: --waves ignored with --engine %s (no RTL)\n",
                o->engine_name);
    if (o->rerun)
        return;
    printf("gmmu-sim: seed %llu, engine %s, trace %s, config %s%s\n", (unsigned long long)o->seed,
           o->engine_name, o->trace_path, o->cfg_path,
           o->no_skip ? ", no idle skipping"
                      : (o->no_quiet && all_quiet ? ", no quiet skipping" : ""));
    if (!o->quiet)
        cfg_print(&o->cfg, stdout, "  ");
    fflush(stdout);
}

/* The waveform of the clocked cycles before a mismatch: the run is deterministic, so the program
 * runs itself again with --wave-rerun FROM:PATH, which opens the FST at FROM. */
static void mismatch_wave(const plat_opts_t *o, uint64_t clocked, int argc, char **argv) {
    char path[1024];
    if (o->stats_path) {
        snprintf(path, sizeof(path), "%s", o->stats_path);
        char *dot = strrchr(path, '.');
        const char *slash = strrchr(path, '/');
        if (dot && (!slash || dot > slash))
            *dot = '\0';
        strncat(path, "-mismatch.fst", sizeof(path) - strlen(path) - 1);
    } else {
        snprintf(path, sizeof(path), "gmmu-sim-mismatch.fst");
    }
    const uint64_t from = clocked > WAVE_WINDOW ? clocked - WAVE_WINDOW : 0;
    fprintf(stderr, "  re-running to write the waveform of clocked cycles %llu..%llu ...\n",
            (unsigned long long)from, (unsigned long long)(clocked + PLAT_WAVE_TAIL));
    fflush(stderr);
    fflush(stdout);
    char window[1100];
    snprintf(window, sizeof(window), "%llu:%s", (unsigned long long)from, path);
    char **av = calloc((size_t)argc + 3, sizeof(char *));
    pid_t pid = -1;
    if (av) {
        int n = 0;
        for (int i = 0; i < argc; i++)
            av[n++] = argv[i];
        av[n++] = (char *)"--wave-rerun";
        av[n++] = window;
        av[n] = NULL;
        pid = fork();
        if (pid == 0) {
            FILE *nul = freopen("/dev/null", "w", stdout);
            (void)nul;
            execv("/proc/self/exe", av);
            _exit(127);
        }
    }
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    free(av);
    struct stat sb;
    if (pid > 0 && stat(path, &sb) == 0)
        fprintf(stderr, "  waveform (FST, clocked cycles %llu..%llu, the mismatch at %llu): %s\n",
                (unsigned long long)from, (unsigned long long)(clocked + PLAT_WAVE_TAIL),
                (unsigned long long)clocked, path);
    else
        fprintf(stderr, "  could not write the waveform %s\n", path);
}

/* The stats file: a previous run's file is removed first (a stopped or failed run never leaves
 * an old PASS behind) and the path must be writable before the run starts. 0 or -1 (reported). */
static int prepare_stats(const char *path) {
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "gmmu-sim: --stats %s: is a directory\n", path);
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "gmmu-sim: --stats %s: cannot write: %s\n", path, strerror(errno));
        return -1;
    }
    fclose(f);
    remove(path);
    return 0;
}

int main(int argc, char **argv) {
    args_t a;
    char err[1024];
    memset(&a, 0, sizeof(a));
    cfg_defaults(&a.o.cfg);
    a.o.seed = 1;
    a.o.engine_name = "cosim";
    if (engine_list_parse(&engine_registry, "cosim", &a.o.engines, err, sizeof(err)) != 0) {
        fprintf(stderr, "gmmu-sim: %s\n", err);
        return 2;
    }
    a.o.trace_path = "tb/traces/replay.trc";
    a.o.chaos_streak = 8;
    a.o.stop = &g_stop_signal;
    const int prc = parse_args(&a, argc, argv);
    if (prc >= 0)
        return prc;
    if (a.o.rerun) {
        a.o.waves_path = a.rerun_path;
        a.o.stats_path = NULL;
        a.o.quiet = 1;
    }
    if (load_config(&a) != 0)
        return PLAT_EXIT_INPUT;
    if (a.o.stats_path && prepare_stats(a.o.stats_path) != 0)
        return PLAT_EXIT_INPUT;
    install_signals();
    print_header(&a.o);
    plat_t *p = plat_new(&a.o, err, sizeof(err));
    if (!p) {
        fprintf(stderr, "gmmu-sim: %s\n", err);
        return 2;
    }
    const int rc = plat_run(p);
    uint64_t clocked = 0;
    if (plat_mismatch_needs_wave(p, &clocked))
        mismatch_wave(&a.o, clocked, argc, argv);
    const int wrc = plat_report(p);
    plat_free(p);
    fflush(stdout);
    return rc == 0 && wrc != 0 ? PLAT_EXIT_INPUT : rc;
}
