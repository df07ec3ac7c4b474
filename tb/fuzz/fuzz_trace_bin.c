/*
 * fuzz_trace_bin.c - libFuzzer harness of the binary trace decoder (tools/trace/trace_read.c):
 * the input is the body of a binary trace (the "GMTB" magic and the version are put in front
 * unless the input starts with the magic). Errors must name the file and a byte offset.
 */
#include "fuzz_util.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const uint8_t head[8] = {'G', 'M', 'T', 'B', 1, 0, 0, 0};
    const int has_magic = size >= 4 && memcmp(data, head, 4) == 0;
    char in[256], err[512];
    fuzz_path(in, sizeof(in), "bin", ".trc");
    if (fuzz_write_file(in, head, has_magic ? 0 : sizeof(head), data, size) != 0)
        abort();
    err[0] = '\0';
    trace_reader_t *r = trace_open(in, err, sizeof(err));
    if (!r) {
        fuzz_check_msg("trace_open", err);
        return 0;
    }
    if (!trace_is_binary(r)) {
        fprintf(stderr, "fuzz: a trace with the GMTB magic is not read as binary\n");
        abort();
    }
    trace_rec_t rec;
    int rc, n = 0;
    while ((rc = trace_next(r, &rec, err, sizeof(err))) == 1) {
        char why[256];
        if (trace_rec_check(&rec, why, sizeof(why)) != 0) {
            fprintf(stderr, "fuzz: the reader returned a record its own check refuses: %s\n", why);
            abort();
        }
        n++;
    }
    trace_close(r);
    if (rc < 0) {
        fuzz_check_msg("trace_next", err);
        if (strncmp(err, in, strlen(in)) != 0 || !strstr(err, "offset")) {
            fprintf(stderr, "fuzz: binary reader error without file and offset: %s\n", err);
            abort();
        }
    }
    (void)n;
    return 0;
}
