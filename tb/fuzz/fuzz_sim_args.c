/*
 * fuzz_sim_args.c - libFuzzer harness of gmmu-sim's command line (cosim/sim_main.c): argv is
 * built from the input (fuzz_argv: split at NUL/newline, '/' -> '_' so that every path names
 * a file of the scratch directory, which holds copies of the configurations as tiny.cfg,
 * default.cfg, ...). The harness runs what main() runs before the simulation starts: the
 * defaults, parse_args, load_config (the file and every --set, with cfg_check), the --stats
 * check and the header. sim_main.c is compiled into this harness (its main renamed) so that
 * the static functions under test are the program's own.
 */
#define main gmmu_sim_main
#include "../../cosim/sim_main.c"
#undef main

#include "fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *dir = getenv("GMMU_FUZZ_SCRATCH");
    if (!dir || chdir(dir) != 0) {
        fprintf(stderr, "fuzz_sim_args: GMMU_FUZZ_SCRATCH must name the scratch directory\n");
        abort();
    }
    if (!freopen("/dev/null", "r", stdin) || !freopen("/dev/null", "w", stdout))
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char store[FUZZ_ARGV_MAX][FUZZ_ARG_LEN];
    char *argv[FUZZ_ARGV_MAX];
    const int argc = fuzz_argv(data, size, "gmmu-sim", store, argv);
    args_t *a = calloc(1, sizeof(*a));
    char err[1024];
    if (!a)
        abort();
    cfg_defaults(&a->o.cfg);
    a->o.seed = 1;
    a->o.engine_name = "cosim";
    if (engine_list_parse(&engine_registry, "cosim", &a->o.engines, err, sizeof(err)) != 0)
        abort();
    a->o.trace_path = "replay.trc";
    a->o.chaos_streak = 8;
    const int prc = parse_args(a, argc, argv);
    if (prc < 0 && load_config(a) == 0) {
        char cerr[1024];
        if (cfg_check(&a->o.cfg, cerr, sizeof(cerr)) != 0) {
            fprintf(stderr, "fuzz: a configuration gmmu-sim accepted fails cfg_check: %s\n", cerr);
            abort();
        }
        if (!a->o.stats_path || prepare_stats(a->o.stats_path) == 0)
            print_header(&a->o);
    }
    free(a);
    return 0;
}
