/* series.h - what a command line names among a scene's values.
 *
 * Owns: the one syntax of value lists (`--values a, b, p.x`: a named value,
 * or one output NAME.x / NAME.y / NAME.angle of a path sample, with a
 * did-you-mean for an unknown name) resolved into rf_series_item_t, one
 * column or line each; the one rule of the --from / --to span (numbers
 * >= 0, defaults 0 and the scene's duration); and the strict parsing of a
 * number from a whole argument, which every command-line number follows.
 * Used by `sample`, `plot` and the trace reader. Errors are reported
 * through a callback as a message format without the "runeframe: CMD: "
 * prefix; the command prints it in the house format.
 * Thread-safety: no shared state; any thread may call any function.
 */
#ifndef RF_SERIES_H
#define RF_SERIES_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "values.h"

/* Receives a usage error: a printf format and its arguments. */
typedef void (*rf_series_report_fn)(const void *ctx, const char *fmt, va_list ap);

typedef struct rf_series_report {
    rf_series_report_fn fn;
    const void *ctx;
} rf_series_report_t;

/* One output to print or draw. */
typedef struct rf_series_item {
    const rf_value_t *value;
    uint32_t slot;          /* its slot in rf_values_eval's buffer */
    int output;             /* 0..3: NAME.x, NAME.angle, NAME.z, NAME.r ...; -1: NAME (one output) */
} rf_series_item_t;

/* What a value named alone gives. */
typedef enum rf_series_bare {
    RF_SERIES_ALL,          /* every output (a path sample: x, y, angle; a vector
                               or color: each component) */
    RF_SERIES_POSITION,     /* a path sample's x and y: its angle is in degrees,
                               another scale (plot), only when named */
} rf_series_bare_t;

enum {
    RF_SERIES_OK = 0,
    RF_SERIES_BAD = -1,     /* a bad list: reported */
    RF_SERIES_TOO_MANY = -2,/* more than max items: not reported */
    RF_SERIES_NOMEM = -3,   /* out of memory: not reported */
};

/* Looks up one entry "NAME" or "NAME.COMPONENT" (s[0 .. len-1], no blanks):
 * 0 with *v and *output (-1 for NAME alone), -1 when no value is called
 * NAME, -2 when it has no such output. */
int rf_series_lookup(const rf_values_t *vs, const char *s, size_t len, const rf_value_t **v,
                     int *output);

/* Resolves list (NULL: every named value, in file order) into a new array
 * *items of *n entries (free() it), at most max of them (0: no limit).
 * Returns RF_SERIES_OK or one of the failures above. */
int rf_series_resolve(const rf_values_t *vs, const char *list, rf_series_bare_t bare,
                      size_t max, rf_series_item_t **items, size_t *n,
                      const rf_series_report_t *report);

/* The --from / --to span, as given. */
typedef struct rf_series_span {
    double from, to;
    int has_from, has_to;
} rf_series_span_t;

/* Takes the argument of --from (is_to 0) or --to (is_to 1): a number >= 0.
 * Returns 0, or -1 with the error reported. */
int rf_series_span_set(rf_series_span_t *span, int is_to, const char *arg,
                       const rf_series_report_t *report);
/* The span's ends over a scene of the given duration: from (default 0)
 * and to (default the duration). */
void rf_series_span_ends(const rf_series_span_t *span, double duration, double *from,
                         double *to);

#endif
