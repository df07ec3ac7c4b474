/*
 * num.c - unsigned number parser (num.h).
 */
#include "num.h"

#include <stddef.h>

static int hex_digit(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int num_parse_u64(const char *s, uint64_t *out) {
    if (!s || !out)
        return NUM_ESYNTAX;
    uint64_t v = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        if (!*s)
            return NUM_ESYNTAX;
        for (; *s; s++) {
            const int d = hex_digit(*s);
            if (d < 0)
                return NUM_ESYNTAX;
            if (v >> 60)
                return NUM_ERANGE;
            v = v << 4 | (uint64_t)d;
        }
    } else {
        if (!*s)
            return NUM_ESYNTAX;
        for (; *s; s++) {
            if (*s < '0' || *s > '9')
                return NUM_ESYNTAX;
            const uint64_t d = (uint64_t)(*s - '0');
            if (v > (UINT64_MAX - d) / 10)
                return NUM_ERANGE;
            v = v * 10 + d;
        }
    }
    *out = v;
    return NUM_OK;
}

const char *num_strerror(int status) {
    switch (status) {
    case NUM_OK:
        return "ok";
    case NUM_ERANGE:
        return "above 2^64-1";
    default:
        return "not a decimal or 0x hex number";
    }
}
