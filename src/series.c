/* series.c - value lists, the --from/--to span and strict numbers, as the
 * command line names them (series.h). */
#include "series.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "numfmt.h"
#include "suggest.h"

static void series_report(const rf_series_report_t *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void series_report(const rf_series_report_t *r, const char *fmt, ...)
{
    va_list ap;

    if (r == NULL || r->fn == NULL)
        return;
    va_start(ap, fmt);
    r->fn(r->ctx, fmt, ap);
    va_end(ap);
}

int rf_series_lookup(const rf_values_t *vs, const char *s, size_t len, const rf_value_t **v,
                     int *output)
{
    const char *dp = memchr(s, '.', len);
    size_t dot = dp != NULL ? (size_t)(dp - s) : len;
    const char *suf = s + dot + 1;
    size_t sl = len - dot - (dp != NULL);

    *v = rf_values_findn(vs, s, dot);
    *output = -1;
    if (*v == NULL)
        return -1;
    if (dp == NULL)
        return 0;
    /* NAME.x / NAME.y / NAME.angle picks one output of a path sample,
     * NAME.z one of a vector, NAME.r one of a color. */
    if ((*v)->nout > 1)
        *output = rf_value_output_find((rf_value_shape_t)(*v)->shape, (*v)->nout, suf, sl);
    return *output >= 0 ? 0 : -2;
}

/* Candidate names for did-you-mean: every named value. */
static const char *series_suggest(const rf_values_t *vs, const char *word)
{
    const char **names = malloc((vs->nnamed > 0 ? vs->nnamed : 1) * sizeof *names);
    const char *guess;

    if (names == NULL)
        return NULL;
    for (uint32_t i = 0; i < vs->nnamed; i++)
        names[i] = vs->values[i].name;
    guess = rf_did_you_mean(word, names, vs->nnamed);
    free(names);
    return guess;
}

/* The growing result of rf_series_resolve. */
typedef struct series_list {
    rf_series_item_t *items;
    size_t n, max;
} series_list_t;

/* Appends output (-1: the only one) of v; RF_SERIES_TOO_MANY past max. */
static int series_add(series_list_t *l, const rf_value_t *v, int output)
{
    if (l->max > 0 && l->n >= l->max)
        return RF_SERIES_TOO_MANY;
    l->items[l->n].value = v;
    l->items[l->n].slot = v->slot + (uint32_t)(output < 0 ? 0 : output);
    l->items[l->n].output = output;
    l->n++;
    return RF_SERIES_OK;
}

/* A value named alone: its outputs as bare says. */
static int series_add_bare(series_list_t *l, const rf_value_t *v, rf_series_bare_t bare)
{
    int rc = RF_SERIES_OK;
    int count = bare == RF_SERIES_POSITION && v->shape == RF_SHAPE_SAMPLE ? 2 : (int)v->nout;

    if (v->nout == 1)
        return series_add(l, v, -1);
    for (int j = 0; j < count && rc == RF_SERIES_OK; j++)
        rc = series_add(l, v, j);
    return rc;
}

/* One entry b[0 .. tl-1] (trimmed, not empty) of list. */
static int series_entry(series_list_t *l, const rf_values_t *vs, const char *b, size_t tl,
                        rf_series_bare_t bare, const rf_series_report_t *report)
{
    const rf_value_t *v;
    int output;
    int rc = rf_series_lookup(vs, b, tl, &v, &output);
    size_t dot = strcspn(b, ".");

    if (dot > tl)
        dot = tl;
    if (rc == -1) {
        char word[256];
        size_t wl = dot < sizeof word ? dot : sizeof word - 1;
        const char *guess;

        memcpy(word, b, wl);
        word[wl] = '\0';
        guess = series_suggest(vs, word);
        if (guess != NULL)
            series_report(report, "unknown value '%s' (did you mean '%s'?)", word, guess);
        else
            series_report(report, "unknown value '%s'", word);
        return RF_SERIES_BAD;
    }
    if (rc == -2) {
        series_report(report, "unknown value '%.*s' ('%s' has no output '%.*s')", (int)tl, b,
                      v->name, (int)(tl - dot - 1), b + dot + 1);
        return RF_SERIES_BAD;
    }
    return output < 0 ? series_add_bare(l, v, bare) : series_add(l, v, output);
}

int rf_series_resolve(const rf_values_t *vs, const char *list, rf_series_bare_t bare,
                      size_t max, rf_series_item_t **items, size_t *n,
                      const rf_series_report_t *report)
{
    series_list_t l = { NULL, 0, max };
    size_t cap = 1;
    int rc = RF_SERIES_OK;

    /* A name gives at most four items (a vector or a color). */
    if (list == NULL) {
        cap = vs->nnamed;
    } else {
        for (const char *p = list; *p != '\0'; p++)
            cap += *p == ',';
    }
    l.items = malloc((cap > 0 ? cap : 1) * RF_VALUE_MAXOUT * sizeof *l.items);
    if (l.items == NULL)
        return RF_SERIES_NOMEM;
    if (list == NULL) {
        for (uint32_t i = 0; i < vs->nnamed && rc == RF_SERIES_OK; i++)
            rc = series_add_bare(&l, &vs->values[i], bare);
    } else {
        for (const char *p = list; rc == RF_SERIES_OK;) {
            size_t len = strcspn(p, ",");
            const char *b = p, *e = p + len;

            /* "a, b" is as good as "a,b" */
            while (b < e && (*b == ' ' || *b == '\t'))
                b++;
            while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
                e--;
            if (e == b) {
                series_report(report, "--values must list value names, got '%s'", list);
                rc = RF_SERIES_BAD;
                break;
            }
            rc = series_entry(&l, vs, b, (size_t)(e - b), bare, report);
            if (p[len] == '\0')
                break;
            p += len + 1;
        }
    }
    if (rc != RF_SERIES_OK) {
        free(l.items);
        return rc;
    }
    *items = l.items;
    *n = l.n;
    return RF_SERIES_OK;
}

int rf_series_span_set(rf_series_span_t *span, int is_to, const char *arg,
                       const rf_series_report_t *report)
{
    double x;

    if (rf_num_parse(arg, &x) != 0 || x < 0) {
        series_report(report, "--%s must be a number >= 0, got '%s'", is_to ? "to" : "from", arg);
        return -1;
    }
    if (is_to) {
        span->to = x;
        span->has_to = 1;
    } else {
        span->from = x;
        span->has_from = 1;
    }
    return 0;
}

void rf_series_span_ends(const rf_series_span_t *span, double duration, double *from,
                         double *to)
{
    *from = span->has_from ? span->from : 0.0;
    *to = span->has_to ? span->to : duration;
}
