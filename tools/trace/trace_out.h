/*
 * trace_out.h - how the trace tools write an output file (issue 26): a regular file, or a name
 * that does not exist yet, is written to a temporary file beside it and renamed over it at the
 * end, so a failed run leaves the old file or nothing (never a shorter, valid-looking trace); a
 * symbolic link is followed on purpose (the temporary file goes beside its target, the link
 * stays); anything else (a device node, a FIFO, a socket), a dangling symbolic link and "-"
 * (stdout) are written in place and never removed or replaced. Nothing the tool did not create
 * is unlinked.
 */
#ifndef TRACE_OUT_H
#define TRACE_OUT_H

#include <stddef.h>

typedef struct {
    char *tmp;    /* the temporary file written; NULL: written in place */
    char *target; /* what tmp is renamed to at the end (a symbolic link's target) */
} trace_out_t;

/* Prepares writing OUT. Returns the path to give trace_create(): the temporary file (its name
 * keeps OUT's .xz suffix: the writer compresses by name) or OUT itself; NULL with err when out of
 * memory. */
const char *trace_out_begin(trace_out_t *o, const char *out, char *err, size_t errlen);
/* 1 if the output is written in place (OUT is not a regular file). */
int trace_out_in_place(const trace_out_t *o);
/* Ends the output: ok != 0 renames the temporary file over the target, ok == 0 removes it (only
 * the temporary file: an output written in place is left as it is). Frees o. 0, or -1 with err
 * when the rename failed (the temporary file is then removed). */
int trace_out_end(trace_out_t *o, int ok, char *err, size_t errlen);

#endif
