/*
 * fuzz_trace_xz.c - libFuzzer harness of the .xz input path of the trace reader
 * (tools/trace/trace_read.c: xz -dc through a pipe, the error of a corrupt or truncated
 * stream): the input is the content of a .xz file (seeds: small compressed traces).
 */
#include "fuzz_util.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char in[256], err[512];
    fuzz_path(in, sizeof(in), "xz", ".trc.xz");
    if (fuzz_write_file(in, NULL, 0, data, size) != 0)
        abort();
    err[0] = '\0';
    trace_reader_t *r = trace_open(in, err, sizeof(err));
    if (!r) {
        fuzz_check_msg("trace_open", err);
        return 0;
    }
    trace_rec_t rec;
    int rc, n = 0;
    while (n < 4096 && (rc = trace_next(r, &rec, err, sizeof(err))) == 1)
        n++;
    trace_close(r);
    if (n < 4096 && rc < 0)
        fuzz_check_msg("trace_next", err);
    return 0;
}
