/* trace-int.h - the inside of rf_trace_t (trace.h), shared by the
 * formatter and comparer (trace.c) and the hostile-input parser
 * (trace-read.c), private to them.
 *
 * Owns: struct rf_trace (a trace read back: its columns sorted by name and
 * its rows sorted by t).
 *
 * Thread-safety: as trace.h.
 */
#ifndef RF_TRACE_INT_H
#define RF_TRACE_INT_H

#include <stddef.h>

#include "trace.h"

typedef struct trace_col {
    const char *name;
    size_t index;          /* field index in the header (0 is t) */
} trace_col_t;

typedef struct trace_trow {
    double t;
    size_t row;
} trace_trow_t;

struct rf_trace {
    size_t ncols;          /* fields per line, t included */
    size_t nrows;
    char *names;           /* the header's names, each NUL-terminated */
    const char **cols;     /* ncols names in file order; cols[0] is "t" */
    trace_col_t *sorted;   /* the columns sorted by name (strcmp), then index */
    double *table;         /* nrows * ncols numbers, row after row */
    trace_trow_t *by_t;    /* rows sorted by t (NaN last), then by row */
    size_t nfinite_t;      /* entries of by_t whose t is not NaN */
    size_t nassets;        /* asset lines kept (trace.h) */
    char **assets;         /* each "HEX\0FILE\0", malloc'd */
};

#endif
