/* trace.c - value traces: writing them and comparing a frame's values
 * with a trace read back (trace.h); reading one is trace-read.c's. Lookups
 * go through sorted arrays (columns by name, rows by t), so a header of
 * 100k columns or a trace of 100k rows costs O(n log n), never O(n^2).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "trace-int.h"

/* Output suffixes of a three-output value, as `sample` names its columns. */

/* ---- writing ---- */

/* One growing output buffer; a failed allocation sticks. */
typedef struct trace_buf {
    char *p;
    size_t len, cap;
    int failed;
} trace_buf_t;

static void trace_buf_put(trace_buf_t *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (n >= b->cap - b->len || b->p == NULL) {
        size_t need, cap = b->cap > 0 ? b->cap : 256;
        char *q;

        if (n > SIZE_MAX - b->len - 1) {
            b->failed = 1;
            return;
        }
        need = b->len + n + 1;
        while (cap < need) {
            if (cap > SIZE_MAX / 2) {
                cap = need;
                break;
            }
            cap *= 2;
        }
        q = realloc(b->p, cap);
        if (q == NULL) {
            b->failed = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void trace_buf_puts(trace_buf_t *b, const char *s)
{
    trace_buf_put(b, s, strlen(s));
}

/* The trace name of vs->values[i], or NULL when it is not traced. */
static const char *trace_name(const rf_values_t *vs, const char *const *inames, uint32_t i)
{
    if (i < vs->nnamed)
        return vs->values[i].name;
    if (inames == NULL || inames[i - vs->nnamed] == NULL || inames[i - vs->nnamed][0] == '\0')
        return NULL;
    return inames[i - vs->nnamed];
}

int rf_trace_format(const rf_values_t *vs, const char *const *inames, const double *times,
                    const double *slots, size_t n, char **text, size_t *len)
{
    trace_buf_t b = { 0 };
    char num[RF_NUM_BUF];

    *text = NULL;
    *len = 0;
    trace_buf_puts(&b, "t");
    for (uint32_t i = 0; i < vs->n; i++) {
        const rf_value_t *v = &vs->values[i];
        const char *name = trace_name(vs, inames, i);

        for (uint32_t j = 0; name != NULL && j < v->nout; j++) {
            trace_buf_puts(&b, ",");
            trace_buf_puts(&b, name);
            if (rf_value_output_name(v, j) != NULL) {
                trace_buf_puts(&b, ".");
                trace_buf_puts(&b, rf_value_output_name(v, j));
            }
        }
    }
    trace_buf_puts(&b, "\n");
    for (size_t r = 0; r < n; r++) {
        const double *row = slots + r * vs->nslots;

        trace_buf_puts(&b, rf_num_exact(num, times[r]));
        for (uint32_t i = 0; i < vs->n; i++) {
            const rf_value_t *v = &vs->values[i];

            for (uint32_t j = 0; trace_name(vs, inames, i) != NULL && j < v->nout; j++) {
                trace_buf_puts(&b, ",");
                trace_buf_puts(&b, rf_num_exact(num, row[v->slot + j]));
            }
        }
        trace_buf_puts(&b, "\n");
    }
    if (b.failed) {
        free(b.p);
        return -1;
    }
    *text = b.p;
    *len = b.len;
    return 0;
}

/* ---- comparing ---- */

/* strcmp(col, name + "." + suffix) (or name alone when suffix is NULL)
 * without building the joined string. */
static int trace_cmp_joined(const char *col, const char *name, const char *suffix)
{
    const unsigned char *a = (const unsigned char *)col;
    const unsigned char *b = (const unsigned char *)name;

    while (*b != '\0' && *a == *b) {
        a++;
        b++;
    }
    if (*b != '\0')
        return (int)*a - (int)*b;
    if (suffix == NULL)
        return *a != '\0';
    if (*a != '.')
        return (int)*a - '.';
    a++;
    b = (const unsigned char *)suffix;
    while (*b != '\0' && *a == *b) {
        a++;
        b++;
    }
    return (int)*a - (int)*b;
}

/* The field index of column name[.suffix], or 0 (t, never a value) when
 * the trace has none. */
static size_t trace_find_col(const rf_trace_t *trace, const char *name, const char *suffix)
{
    size_t lo = 0, hi = trace->ncols;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = trace_cmp_joined(trace->sorted[mid].name, name, suffix);

        if (c == 0)
            return trace->sorted[mid].index;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* The first row whose t is t (==, so -0 finds 0), or NULL. */
static const double *trace_find_row(const rf_trace_t *trace, double t)
{
    size_t lo = 0, hi = trace->nfinite_t;

    if (isnan(t))
        return NULL;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (trace->by_t[mid].t < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < trace->nfinite_t && trace->by_t[lo].t == t)
        return trace->table + trace->by_t[lo].row * trace->ncols;
    return NULL;
}

int rf_trace_recall(const rf_trace_t *trace, const rf_values_t *vs, const char *const *inames,
                    double t, double *slots)
{
    const double *row = trace != NULL && vs != NULL ? trace_find_row(trace, t) : NULL;
    if (row == NULL)
        return 0;
    int all = 1;
    for (uint32_t i = 0; i < vs->n; i++) {
        const rf_value_t *v = &vs->values[i];
        const char *name = trace_name(vs, inames, i);
        for (uint32_t j = 0; name != NULL && j < v->nout; j++) {
            size_t c = trace_find_col(trace, name, rf_value_output_name(v, j));
            if (c == 0)
                all = 0;
            else
                slots[v->slot + j] = row[c];
        }
    }
    return all ? 1 : 2;
}

/* The one walk of compare and moved: every traced output of vs against
 * the trace's row at t. Fills d (moves up to cap), flags per value when
 * not NULL, and seen per trace column when not NULL. */
static void trace_walk(const rf_trace_t *trace, const rf_values_t *vs, const char *const *inames,
                       const double *row, const double *slots, rf_trace_move_t *moves,
                       size_t cap, rf_trace_diff_t *d, unsigned char *flags,
                       unsigned char *seen)
{
    for (uint32_t i = 0; i < vs->n; i++) {
        const rf_value_t *v = &vs->values[i];
        const char *name = trace_name(vs, inames, i);

        for (uint32_t j = 0; name != NULL && j < v->nout; j++) {
            const char *suffix = rf_value_output_name(v, j);
            size_t c = trace_find_col(trace, name, suffix);
            double was, now;

            if (c == 0) {
                if (d->added++ == 0)
                    d->first_added = name;
                if (flags != NULL)
                    flags[i] = 2;
                continue;
            }
            if (seen != NULL)
                seen[c] = 1;
            d->found++;
            was = row[c];
            now = slots[v->slot + j];
            if (was == now || (isnan(was) && isnan(now)))
                continue;
            d->moved++;
            if (flags != NULL && flags[i] == 0)
                flags[i] = 1;
            if (d->nmoves < cap) {
                moves[d->nmoves].value = name;
                moves[d->nmoves].suffix = suffix;
                moves[d->nmoves].was = was;
                moves[d->nmoves].now = now;
                d->nmoves++;
            }
        }
    }
}

void rf_trace_compare(const rf_trace_t *trace, const rf_values_t *vs,
                      const char *const *inames, double t, const double *slots,
                      rf_trace_move_t *moves, size_t cap, rf_trace_diff_t *d)
{
    const double *row;

    memset(d, 0, sizeof *d);
    if (trace == NULL || vs == NULL)
        return;
    row = trace_find_row(trace, t);
    if (row == NULL)
        return;
    d->has_row = 1;
    /* every scene output names a column of its own (names are unique, the
     * parser refuses a column named twice), so the columns the scene no
     * longer has are those no output found */
    unsigned char *seen = calloc(trace->ncols, 1);
    trace_walk(trace, vs, inames, row, slots, moves, cap, d, NULL, seen);
    d->gone = trace->ncols - 1 - d->found;
    for (size_t c = 1; seen != NULL && d->gone > 0 && c < trace->ncols; c++) {
        if (!seen[c]) {
            d->first_gone = trace->cols[c];
            break;
        }
    }
    free(seen);
}

int rf_trace_moved(const rf_trace_t *trace, const rf_values_t *vs, const char *const *inames,
                   double t, const double *slots, unsigned char *flags)
{
    rf_trace_diff_t d;
    const double *row = trace != NULL && vs != NULL ? trace_find_row(trace, t) : NULL;

    if (vs != NULL)
        memset(flags, 0, vs->n);
    if (row == NULL)
        return 0;
    memset(&d, 0, sizeof d);
    trace_walk(trace, vs, inames, row, slots, NULL, 0, &d, flags, NULL);
    return 1;
}

/* %.{prec}g, with the one spelling of non-finite values. */
static const char *trace_num_prec(char buf[RF_NUM_BUF], double x, int prec)
{
    if (!isfinite(x))
        return rf_num_exact(buf, x);
    snprintf(buf, RF_NUM_BUF, "%.*g", prec, x);
    return buf;
}

int rf_trace_move_format(char *buf, size_t cap, const rf_trace_move_t *m, double t)
{
    char was[RF_NUM_BUF], now[RF_NUM_BUF], tb[RF_NUM_BUF], delta[RF_NUM_BUF + 4];
    int prec;

    /* Distinct doubles always differ at 17 digits, except 0 and -0, which
     * differ at every precision; values that print the same at every
     * precision (two NaNs) get the shortest form. */
    for (prec = 4; prec <= 17; prec++) {
        trace_num_prec(was, m->was, prec);
        trace_num_prec(now, m->now, prec);
        if (strcmp(was, now) != 0)
            break;
    }
    if (prec > 17) {
        trace_num_prec(was, m->was, 4);
        trace_num_prec(now, m->now, 4);
    }
    trace_num_prec(tb, t, 6);
    /* A change to or from a non-finite value has no meaningful size: the
     * two ends say it all. Between finite values the difference can still
     * overflow; then it is "(+inf)" / "(-inf)". */
    delta[0] = '\0';
    if (isfinite(m->was) && isfinite(m->now)) {
        double dv = m->now - m->was;

        if (isfinite(dv))
            snprintf(delta, sizeof delta, " (%+.3g)", dv);
        else
            snprintf(delta, sizeof delta, " (%s)", dv < 0 ? "-inf" : "+inf");
    }
    return snprintf(buf, cap, "%s%s%s at t=%s: %s -> %s%s", m->value != NULL ? m->value : "",
                    m->suffix != NULL ? "." : "", m->suffix != NULL ? m->suffix : "", tb, was,
                    now, delta);
}

