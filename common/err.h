/*
 * err.h - the project's one error-message helper (module err_). Library code reports an error by
 * returning a status and writing a message into a caller's buffer (char *err, size_t errlen);
 * these fill such a buffer printf-style, truncating to errlen, and do nothing when the buffer is
 * NULL or empty (a caller that does not want the text passes NULL, 0).
 */
#ifndef COMMON_ERR_H
#define COMMON_ERR_H

#include <stdarg.h>
#include <stddef.h>

#if defined(__GNUC__)
#define ERR_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ERR_PRINTF(f, a)
#endif

void err_setf(char *err, size_t errlen, const char *fmt, ...) ERR_PRINTF(3, 4);
void err_vsetf(char *err, size_t errlen, const char *fmt, va_list ap) ERR_PRINTF(3, 0);

#endif
