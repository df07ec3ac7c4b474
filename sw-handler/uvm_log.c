/*
 * uvm_log.c - the handler's diagnostics: one line to the device's log callback. The lowest floor
 * of the handler (docs/handler.md "Layers"): it calls nothing of the handler.
 */
#include <stdarg.h>

#include "err.h"
#include "uvm_priv.h"

void uvm_logf(const uvm_handler_t *h, const char *fmt, ...) {
    if (!h->dev.log)
        return;
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    err_vsetf(line, sizeof line, fmt, ap);
    va_end(ap);
    h->dev.log(h->dev.ctx, line);
}
