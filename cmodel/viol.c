/*
 * viol.c - the C model's invariant-violation log (docs/microarch.md §11): every block records a
 * violation here. It sits below the blocks and below gmmu.c (it needs only common/), so the C
 * model's file graph has no cycle (gmmu.c calls the blocks, the blocks call only this file).
 */
#include <stdarg.h>

#include "err.h"
#include "gmmu_int.h"

void gmmu_viol(gmmu_viol_t *v, const char *fmt, ...) {
    if (v->count++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        err_vsetf(v->first, sizeof(v->first), fmt, ap);
        va_end(ap);
    }
}
