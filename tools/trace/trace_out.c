/*
 * trace_out.c - where the trace tools write an output file (trace_out.h, issue 26).
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath */

#include "trace_out.h"

#include "trace_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* o->tmp = "<target>.tmp<pid>[.xz]"; 0 or -1 (out of memory) */
static int out_tmp_name(trace_out_t *o, const char *out) {
    const size_t n = strlen(o->target) + 40;
    o->tmp = malloc(n);
    if (!o->tmp)
        return -1;
    snprintf(o->tmp, n, "%s.tmp%ld%s", o->target, (long)getpid(),
             trace_ends_with(out, ".xz") ? ".xz" : "");
    return 0;
}

const char *trace_out_begin(trace_out_t *o, const char *out, char *err, size_t errlen) {
    o->tmp = o->target = NULL;
    struct stat st, lst;
    if (strcmp(out, "-") == 0)
        return out;
    if (stat(out, &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return out; /* a device node, a FIFO, a socket (a directory fails at create) */
        /* a regular file, or a symbolic link to one: the temporary file beside the real file */
        if (lstat(out, &lst) == 0 && S_ISLNK(lst.st_mode))
            o->target = realpath(out, NULL);
        else
            o->target = trace_strdup(out);
    } else if (errno == ENOENT && lstat(out, &lst) == 0) {
        return out; /* a dangling symbolic link: written through, creating its target */
    } else {
        o->target = trace_strdup(out); /* a new file (or an error that create reports) */
    }
    if (!o->target || out_tmp_name(o, out) != 0) {
        free(o->target);
        o->target = NULL;
        err_setf(err, errlen, "%s: out of memory", out);
        return NULL;
    }
    return o->tmp;
}

int trace_out_in_place(const trace_out_t *o) {
    return o->tmp == NULL;
}

int trace_out_end(trace_out_t *o, int ok, char *err, size_t errlen) {
    int rc = 0;
    if (o->tmp) {
        if (ok && rename(o->tmp, o->target) != 0) {
            err_setf(err, errlen, "%s: cannot rename to %s: %s", o->tmp, o->target,
                     strerror(errno));
            rc = -1;
        }
        if (!ok || rc != 0)
            remove(o->tmp);
    }
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
    return rc;
}
