/*
 * fuzz_trace_args.c - libFuzzer harness of gmmu-trace's command line (tools/trace/gmmu_trace.c:
 * convert, stats, check): argv from the input (fuzz_argv: '/' -> '_', so every path is a file of
 * the scratch directory, which holds small traces: a.trc (text), b.trc (binary), c.trc.xz,
 * d.txt; pristine copies in seed/, out of the fuzzer's reach). The whole program runs (its main
 * renamed); files it creates are removed and the seeds restored after each input. `convert X X`
 * must leave X as it was (issue 11, item 8). An exit status must be 0, 1 or 2.
 */
#define main gmmu_trace_main
#include "../../tools/trace/gmmu_trace.c"
#undef main

#include <dirent.h>

#include "fuzz_util.h"

static const char *const k_seed[] = {"a.trc", "b.trc", "c.trc.xz", "d.txt"};
#define N_SEED (sizeof(k_seed) / sizeof(k_seed[0]))

/* The size of each seed file (-1: missing). */
static void seed_sizes(long out[N_SEED]) {
    for (size_t i = 0; i < N_SEED; i++) {
        struct stat sb;
        out[i] = stat(k_seed[i], &sb) == 0 ? (long)sb.st_size : -1;
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *dir = getenv("GMMU_FUZZ_SCRATCH");
    if (!dir || chdir(dir) != 0) {
        fprintf(stderr, "fuzz_trace_args: GMMU_FUZZ_SCRATCH must name the scratch directory\n");
        abort();
    }
    if (!freopen("/dev/null", "r", stdin) || !freopen("/dev/null", "w", stdout))
        abort();
    return 0;
}

/* Copies seed/<name> over <name> (the fuzzed command may have overwritten it). */
static void restore_seed(const char *name) {
    char src[64];
    snprintf(src, sizeof(src), "seed/%s", name);
    FILE *in = fopen(src, "rb");
    FILE *out = fopen(name, "wb");
    if (!in || !out)
        abort();
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            abort();
    fclose(in);
    if (fclose(out) != 0)
        abort();
}

/* Removes every file of the scratch directory that is not a seed (or seed/). */
static void clean_scratch(void) {
    DIR *d = opendir(".");
    if (!d)
        abort();
    const struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int keep = e->d_name[0] == '.' || strcmp(e->d_name, "seed") == 0;
        for (size_t i = 0; i < N_SEED && !keep; i++)
            keep = strcmp(e->d_name, k_seed[i]) == 0;
        if (!keep)
            remove(e->d_name);
    }
    closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char store[FUZZ_ARGV_MAX][FUZZ_ARG_LEN];
    char *argv[FUZZ_ARGV_MAX];
    const int argc = fuzz_argv(data, size, "gmmu-trace", store, argv);
    long before[N_SEED], after[N_SEED];
    seed_sizes(before);
    const int rc = gmmu_trace_main(argc, argv);
    seed_sizes(after);
    clean_scratch();
    if (rc < 0 || rc > 2) {
        fprintf(stderr, "fuzz: gmmu-trace exit status %d (expected 0, 1 or 2)\n", rc);
        abort();
    }
    for (size_t i = 0; i < N_SEED; i++) {
        const int same_in_out = argc >= 4 && strcmp(argv[1], "convert") == 0 &&
                                strcmp(argv[2], k_seed[i]) == 0 && strcmp(argv[3], k_seed[i]) == 0;
        if (same_in_out && before[i] != after[i]) {
            fprintf(stderr, "fuzz: gmmu-trace convert %s %s changed it (%ld -> %ld bytes)\n",
                    k_seed[i], k_seed[i], before[i], after[i]);
            abort();
        }
        if (before[i] != after[i] || after[i] < 0 || strcmp(argv[1 < argc ? 1 : 0], "convert") == 0)
            restore_seed(k_seed[i]);
    }
    return 0;
}
