/* trace.h - value traces: what every value was at each checked frame.
 *
 * Owns: the trace file format (writing and reading it) and rf_trace_t, a
 * trace read back, which check uses to explain a failing frame: which
 * values moved at that frame's time and by how much, or that none did (a
 * raster change, not a motion change).
 *
 * Format: `runeframe sample`'s CSV of every named value: the header
 * `t,NAME,...` (a path sample NAME has three columns NAME.x, NAME.y,
 * NAME.angle), in the order of the scene file, then one column per inline
 * value (an animated property written in place, `"rotate": {"expr": ...}`)
 * named by its JSON pointer without the leading slash (`layers/3/rotate`;
 * the caller gives these names, NULL: none), then one row per time, every
 * number with %.17g ("inf", "-inf", "nan" for non-finite values), each line
 * ended by "\n". A row's t is the frame's time i / fps, so it reads back as
 * exactly the double the frame was rendered at. A scene without inline
 * values has exactly sample's CSV.
 *
 * A trace read back is matched against the scene by column name: a column
 * the scene no longer has is "gone", a value the trace has no column for is
 * "new". Two numbers are the same when they are the same double (NaN equals
 * NaN; 0 and -0 are the same): a value moved when anything about it changed,
 * however little, because any change can move a pixel.
 *
 * Thread-safety: no global state. A trace read back is only read by
 * rf_trace_compare() and rf_trace_rows(), so many threads may compare
 * against one trace at once; rf_trace_destroy() needs them all done.
 */
#ifndef RF_TRACE_H
#define RF_TRACE_H

#include <stddef.h>

#include "values.h"

/* The name of the trace file in a golden folder. */
#define RF_TRACE_FILE "trace.csv"
/* Files larger than this are not traces (64 MiB). */
#define RF_TRACE_MAX_BYTES (64u << 20)

/* inames, wherever a function takes it: NULL, or the trace names of the
 * inline values vs->values[vs->nnamed .. vs->n - 1] (in that order, each
 * "SEG/SEG/..." of letters, digits and '_'; one NULL or "" entry leaves
 * that value out): the inline values traced. */

/* Formats the trace of every named value of vs (and the inline ones
 * inames names) at times[0 .. n-1] (slots: n rows of vs->nslots doubles
 * each, rf_values_eval()'s output at each time) into a new NUL-terminated
 * string *text of *len bytes (free() it). Returns 0, or -1 when out of
 * memory. */
int rf_trace_format(const rf_values_t *vs, const char *const *inames, const double *times,
                    const double *slots, size_t n, char **text, size_t *len);

typedef struct rf_trace rf_trace_t;

/* Parses len bytes of trace text (name is used in messages). Returns the
 * trace (free it with rf_trace_destroy), or NULL with one line in err:
 * "NAME:LINE: what is wrong" (no header, a row with the wrong number of
 * fields, a field that is not a number, a header naming a column twice). */
rf_trace_t *rf_trace_parse(const char *text, size_t len, const char *name, char *err,
                           size_t errlen);

/* Reads and parses the file at path. NULL with a message in err, and
 * *missing set to 1 (else 0) when the file does not exist. */
rf_trace_t *rf_trace_load(const char *path, int *missing, char *err, size_t errlen);

void rf_trace_destroy(rf_trace_t *trace);

/* Number of rows. */
size_t rf_trace_rows(const rf_trace_t *trace);

/* One value output that differs between the trace and now. */
typedef struct rf_trace_move {
    const char *value;         /* the value's name (the scene's storage) */
    const char *suffix;        /* NULL, or "x" / "y" / "angle" */
    double was;                /* in the trace */
    double now;                /* evaluated now */
} rf_trace_move_t;

typedef struct rf_trace_diff {
    int has_row;               /* 0: the trace has no row at this time */
    size_t moved;              /* outputs that differ (may exceed the cap) */
    size_t nmoves;             /* entries filled in moves (<= cap) */
    size_t added;              /* outputs of values the trace has no column for */
    size_t gone;               /* trace columns the scene no longer has */
    const char *first_added;   /* the first such output's value name, or NULL */
    const char *first_gone;    /* the first such column's name, or NULL
                                  (out of memory) */
    size_t found;              /* outputs the trace has a column for */
} rf_trace_diff_t;

/* Compares the trace's row at time t (the same double) with slots, vs's
 * values evaluated at t. The first cap differing outputs, in the scene's
 * order, go to moves[0 .. cap-1]. Pointers in *d and moves point into vs
 * and trace. */
void rf_trace_compare(const rf_trace_t *trace, const rf_values_t *vs,
                      const char *const *inames, double t, const double *slots,
                      rf_trace_move_t *moves, size_t cap, rf_trace_diff_t *d);

/* As rf_trace_compare, per value: flags[i] (vs->n entries) is set to 1
 * when an output of vs->values[i] moved, 2 when the trace has no column
 * for it (new), else 0 (also for values not traced). Returns 1 when the
 * trace has a row at t, else 0 (flags all 0). */
int rf_trace_moved(const rf_trace_t *trace, const rf_values_t *vs, const char *const *inames,
                   double t, const double *slots, unsigned char *flags);

/* Writes the trace's numbers at time t (the same double) into slots, vs's
 * slot array at t, over each traced output that has a column; other slots
 * are left as they are. Returns 0 when the trace has no row at t, 1 when
 * it has one with a column for every traced output of vs, 2 when some had
 * none (an older trace: those slots keep what they held). */
int rf_trace_recall(const rf_trace_t *trace, const rf_values_t *vs, const char *const *inames,
                    double t, double *slots);

/* ---- assets ----
 * After the rows a trace may hold one line per file the scene read (its
 * images and font files), written by check --update:
 *   #asset,SHA256,FILE
 * SHA256 in 64 lowercase hex digits, FILE as the scene names it, to the
 * end of the line. The parser keeps up to RF_TRACE_MAX_ASSETS of them and
 * skips any other line that starts with '#'; check then names an asset
 * whose bytes changed since the goldens (a raster change with a cause). */
#define RF_TRACE_MAX_ASSETS 512

/* Appends the asset line of file (sha256: 64 hex digits) to the
 * malloc'd text *text of *len bytes (NUL-terminated). 0, or -1 when out of
 * memory or file holds a newline (then *text is unchanged). */
int rf_trace_append_asset(char **text, size_t *len, const char *file, const char *sha256);

/* The SHA-256 (64 hex digits) the trace recorded for file, or NULL. */
const char *rf_trace_asset(const rf_trace_t *trace, const char *file);

/* One line, no newline, into buf (returns snprintf's result):
 *   "card.x at t=0.533333: 212.4 -> 215 (+2.6)"
 * The two numbers are printed with the fewest significant digits (at
 * least 4, at most 17) that tell them apart; t with %.6g. */
int rf_trace_move_format(char *buf, size_t cap, const rf_trace_move_t *m, double t);

#endif
