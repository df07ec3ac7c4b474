/*
 * fuzz_config.c - libFuzzer harness of the configuration parser (cosim/config.c): the input is
 * a configuration file (cfg_load, which also runs cfg_check); a loaded configuration is printed
 * (text and JSON) and its derived values computed. Every line of the input is also given to
 * cfg_set as a --set override. Errors must not be empty.
 */
#include "config.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char in[256], err[1024];
    fuzz_path(in, sizeof(in), "config", ".cfg");
    if (fuzz_write_file(in, NULL, 0, data, size) != 0)
        abort();
    cfg_t *c = calloc(1, sizeof(*c));
    if (!c)
        abort();
    cfg_defaults(c);
    err[0] = '\0';
    if (cfg_load(c, in, err, sizeof(err)) == 0) {
        FILE *null = fopen("/dev/null", "w");
        if (!null)
            abort();
        cfg_print(c, null, "  ");
        cfg_print_json(c, null, "  ");
        fclose(null);
        (void)cfg_transfer_set_pages(c);
        if (cfg_check(c, err, sizeof(err)) != 0) {
            fprintf(stderr, "fuzz: cfg_load accepted what cfg_check refuses: %s\n", err);
            abort();
        }
    } else {
        fuzz_check_msg("cfg_load", err);
    }
    /* each line as a --set override over the defaults */
    cfg_defaults(c);
    char line[512];
    size_t i = 0;
    while (i < size) {
        size_t n = 0;
        while (i < size && data[i] != '\n') {
            if (n < sizeof(line) - 1)
                line[n++] = (char)data[i];
            i++;
        }
        i++;
        line[n] = '\0';
        err[0] = '\0';
        if (cfg_set(c, line, err, sizeof(err)) != 0)
            fuzz_check_msg("cfg_set", err);
    }
    free(c);
    return 0;
}
