/*
 * err.c - error-message helper (err.h).
 */
#include "err.h"

#include <stdio.h>

void err_vsetf(char *err, size_t errlen, const char *fmt, va_list ap) {
    if (!err || errlen == 0)
        return;
    vsnprintf(err, errlen, fmt, ap);
}

void err_setf(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    err_vsetf(err, errlen, fmt, ap);
    va_end(ap);
}
