/* plot.c - values against time drawn with cairo into a PNG (plot.h). */
#include "plot.h"

#include <cairo.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pngio.h"

#define PLOT_LEGEND_ROWS 4
#define PLOT_PI 3.14159265358979323846

/* Okabe & Ito's colorblind-safe palette without its yellow, which is
 * unreadable on white, then five of Paul Tol's "muted" and neutral colors:
 * twelve colors at least 0.11 apart in OKLab (tests/check_plot.c), and
 * lines past the twelfth reuse them dashed, then dotted. */
static const uint32_t plot_palette[RF_PLOT_NCOLORS] = {
    0x0072B2, /* blue */
    0xD55E00, /* vermillion */
    0x009E73, /* bluish green */
    0xCC79A7, /* reddish purple */
    0xE69F00, /* orange */
    0x56B4E9, /* sky blue */
    0x000000, /* black */
    0x882255, /* wine */
    0x999933, /* olive */
    0x332288, /* indigo */
    0x8C564B, /* brown */
    0x7F7F7F, /* gray */
};
#define PLOT_NCOLORS ((long)RF_PLOT_NCOLORS)

uint32_t rf_plot_series_color(long i, int *pattern)
{
    if (pattern != NULL)
        *pattern = (int)((i / PLOT_NCOLORS) % 3);
    return plot_palette[i % PLOT_NCOLORS];
}

/* One line of the plot. */
typedef struct plot_series {
    uint32_t slot;             /* the output slot of rf_values_eval */
    const rf_value_t *value;
    char name[320];            /* "name" or "name.x" */
    char label[400];           /* the legend's: name, range, settle time */
    double settle;             /* its settle time (a vector's component: its own) */
    double settle_y;           /* the value at its settle time */
    double lo, hi;             /* --normalize: the sampled range */
    int marked;                /* its settle time is marked */
} plot_series_t;

typedef struct plot_layout {
    double k;                  /* scale: 1 at 1200x600 */
    int w, h;
    int x0, x1, y0, y1;        /* the plot area */
    double from, to, ylo, yhi;
    int rows;                  /* legend rows */
    rf_plot_ticks_t xt, yt;
} plot_layout_t;

static void plot_series_init(plot_series_t *s, const rf_series_item_t *it)
{
    s->value = it->value;
    s->slot = it->slot;
    s->marked = 0;
    s->settle_y = NAN;
    s->lo = s->hi = NAN;
    s->settle = it->value->nout > 1 && it->output >= 0 ? it->value->out[it->output].settle
                                                       : it->value->settle;
    if (it->output < 0)
        snprintf(s->name, sizeof s->name, "%s", it->value->name);
    else
        snprintf(s->name, sizeof s->name, "%s.%s", it->value->name,
                 rf_value_output_name(it->value, (uint32_t)it->output));
}

/* The legend's text: "card_x", "card_x [160, 1040]" (normalized), then
 * ", settles 1.23 s" when the settle time is marked. Settle times are said
 * here, not next to their marker, so no label ever covers a line or
 * another label. */
static void plot_series_label(plot_series_t *s, int normalize)
{
    char range[80] = "", settle[48] = "";

    if (normalize) {
        if (isfinite(s->lo))
            snprintf(range, sizeof range, " [%.4g, %.4g]", s->lo, s->hi);
        else
            snprintf(range, sizeof range, " [no finite sample]");
    }
    if (s->marked)
        snprintf(settle, sizeof settle, "%ssettles %.4g s", normalize ? ", " : " ", s->settle);
    snprintf(s->label, sizeof s->label, "%s%s%s", s->name, range, settle);
}

/* --normalize: each line onto [0, 1] by its own sampled range (a constant
 * line at 0.5); computed in halves, so a range near +-DBL_MAX does not
 * overflow. Non-finite samples stay non-finite and break the line. */
static void plot_normalize(plot_series_t *s, double *ys, long nt)
{
    double lo = INFINITY, hi = -INFINITY, span;

    for (long j = 0; j < nt; j++) {
        if (isfinite(ys[j])) {
            lo = fmin(lo, ys[j]);
            hi = fmax(hi, ys[j]);
        }
    }
    if (lo > hi)
        return;
    s->lo = lo;
    s->hi = hi;
    span = hi / 2 - lo / 2;
    for (long j = 0; j < nt; j++)
        if (isfinite(ys[j]))
            ys[j] = span > 0 ? (ys[j] / 2 - lo / 2) / span : 0.5;
    if (isfinite(s->settle_y))
        s->settle_y = span > 0 ? (s->settle_y / 2 - lo / 2) / span : 0.5;
}

/* ------------------------------------------------------------------ ticks */

rf_plot_ticks_t rf_plot_ticks_make(double lo, double hi, double target)
{
    rf_plot_ticks_t tk;
    double raw, e, m, norm, maxabs;

    if (target < 2)
        target = 2;
    raw = hi / target - lo / target; /* no overflow near +-DBL_MAX */
    if (!(raw > 0) || !isfinite(raw))
        raw = fabs(hi) > 0 ? fabs(hi) : 1;
    e = floor(log10(raw));
    norm = raw / pow(10, e);
    /* norm is in [1, 10): take the nearest of 1, 2, 5, 10 on a log scale. */
    if (norm < 1.4142)
        m = 1;
    else if (norm < 3.1623)
        m = 2;
    else if (norm < 7.0711)
        m = 5;
    else {
        m = 1;
        e += 1;
    }
    tk.step = m * pow(10, e);
    if (!isfinite(tk.step))
        tk.step = 1e308;
    tk.first = ceil(lo / tk.step - 1e-9);
    tk.last = floor(hi / tk.step + 1e-9);
    if (tk.last - tk.first > RF_PLOT_MAX_TICKS)
        tk.last = tk.first + RF_PLOT_MAX_TICKS;
    maxabs = fmax(fabs(tk.first * tk.step), fabs(tk.last * tk.step));
    {
        /* Fixed notation (decimals from the step) unless d.ddde+NN is
         * clearly shorter: 1e-8 steps or 1e20 values. */
        double lead = maxabs > 0 ? floor(log10(maxabs)) : e;
        int decimals = e < 0 ? (int)fmin(-e, 40) : 0;
        int exp_digits = lead - e > 0 ? (int)fmin(lead - e, 15) : 0;
        double fixed_len = fmax(1, lead + 1) + (decimals > 0 ? decimals + 1 : 0);
        double exp_len = 1 + (exp_digits > 0 ? exp_digits + 1 : 0) + (fabs(lead) >= 100 ? 5 : 4);

        if (fixed_len <= exp_len + 2) {
            tk.decimals = decimals;
            tk.exp_digits = 0;
        } else {
            tk.decimals = -1;
            tk.exp_digits = exp_digits;
        }
    }
    return tk;
}

double rf_plot_tick_value(const rf_plot_ticks_t *tk, double i)
{
    double v = i * tk->step;
    return v == 0 ? 0 : v; /* no "-0" */
}

void rf_plot_tick_label(char *buf, size_t cap, const rf_plot_ticks_t *tk, double v)
{
    if (tk->decimals >= 0)
        snprintf(buf, cap, "%.*f", tk->decimals, v);
    else if (v == 0)
        snprintf(buf, cap, "0");
    else
        snprintf(buf, cap, "%.*e", tk->exp_digits, v);
}

/* ----------------------------------------------------------------- drawing */

static void plot_set_color(cairo_t *cr, uint32_t rgb, double alpha)
{
    cairo_set_source_rgba(cr, ((rgb >> 16) & 255) / 255.0, ((rgb >> 8) & 255) / 255.0,
                          (rgb & 255) / 255.0, alpha);
}

/* Series i's color and dash pattern: solid for the first 12 lines, then
 * dashed, then dotted. A settle marker is always dashed. */
static void plot_series_style(cairo_t *cr, long i, double lw, int for_marker)
{
    int cycle;
    double dashes[2];

    plot_set_color(cr, rf_plot_series_color(i, &cycle), 1.0);
    cairo_set_line_width(cr, lw);
    if (for_marker) {
        dashes[0] = 5 * lw;
        dashes[1] = 4 * lw;
        cairo_set_dash(cr, dashes, 2, 0);
    } else if (cycle == 1) {
        dashes[0] = 6 * lw;
        dashes[1] = 3 * lw;
        cairo_set_dash(cr, dashes, 2, 0);
    } else if (cycle == 2) {
        /* Dots are zero-length dashes: they need round caps. */
        dashes[0] = 0;
        dashes[1] = 2.5 * lw;
        cairo_set_dash(cr, dashes, 2, 0);
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    } else {
        cairo_set_dash(cr, NULL, 0, 0);
    }
}

static double plot_text_width(cairo_t *cr, const char *s)
{
    cairo_text_extents_t te;

    cairo_text_extents(cr, s, &te);
    return te.x_advance;
}

/* Text with its left end (align 0), center (0.5) or right end (1) at x and
 * its x-height middle at y. */
static void plot_text(cairo_t *cr, const char *s, double x, double y, double align)
{
    cairo_font_extents_t fe;

    cairo_font_extents(cr, &fe);
    cairo_move_to(cr, x - align * plot_text_width(cr, s), y + (fe.ascent - fe.descent) / 2);
    cairo_show_text(cr, s);
}

static double plot_x(const plot_layout_t *L, double t)
{
    return L->x0 + (t - L->from) / (L->to - L->from) * (L->x1 - L->x0);
}

/* In long double: a range near +-DBL_MAX must not overflow its span. */
static double plot_y(const plot_layout_t *L, double v)
{
    long double f = ((long double)L->yhi - v) / ((long double)L->yhi - L->ylo);
    return L->y0 + (double)(f * (L->y1 - L->y0));
}

/* Legend entries flow right-aligned over the top margin; returns the rows
 * used and fills x offsets / rows per entry (shown entries: *nshown). */
static int plot_legend_flow(cairo_t *cr, const plot_series_t *s, long n, double k, double avail,
                            double *ex, int *erow, double *roww, long *nshown, double *morew)
{
    double chip = 30 * k, gap = 18 * k, x = 0;
    int row = 0;
    char more[32];

    cairo_set_font_size(cr, 13 * k);
    snprintf(more, sizeof more, "+%ld more", n);
    *morew = plot_text_width(cr, more);
    *nshown = n;
    roww[0] = 0;
    for (long i = 0; i < n; i++) {
        double w = chip + plot_text_width(cr, s[i].label);
        double need = x > 0 ? x + gap + w : w;
        /* On the last row, leave room for "+N more" unless this is the end. */
        double reserve = row == PLOT_LEGEND_ROWS - 1 && i < n - 1 ? gap + *morew : 0;

        if (x > 0 && need + reserve > avail) {
            if (row == PLOT_LEGEND_ROWS - 1) {
                *nshown = i;
                break;
            }
            row++;
            roww[row] = 0;
            x = 0;
            need = w;
        }
        ex[i] = x > 0 ? x + gap : 0;
        erow[i] = row;
        x = need;
        roww[row] = x;
    }
    if (*nshown < n)
        roww[row] += gap + *morew;
    return row + 1;
}

/* The margins, the plot area and the ticks, once ylo, yhi are known: the
 * left margin grows when a y tick label needs it. */
static void plot_layout(cairo_t *cr, plot_layout_t *L, int rows)
{
    double k = L->k, wmax = 0;
    char buf[64];

    L->x1 = L->w - (int)lround(28 * k);
    L->y0 = (int)lround(20 * k + 22 * k * rows);
    L->y1 = L->h - (int)lround(56 * k);
    if (L->y1 <= L->y0)
        L->y1 = L->y0 + 1;
    L->yt = rf_plot_ticks_make(L->ylo, L->yhi, (L->y1 - L->y0) / (60 * k));
    cairo_set_font_size(cr, 12 * k);
    for (double i = L->yt.first; i <= L->yt.last; i++) {
        rf_plot_tick_label(buf, sizeof buf, &L->yt, rf_plot_tick_value(&L->yt, i));
        wmax = fmax(wmax, plot_text_width(cr, buf));
    }
    L->x0 = (int)lround(fmax(84 * k, wmax + 37 * k));
    if (L->x0 > L->x1 - 1)
        L->x0 = L->x1 - 1;
    L->xt = rf_plot_ticks_make(L->from, L->to, (L->x1 - L->x0) / (100 * k));
}

static void plot_draw_axes(cairo_t *cr, const plot_layout_t *L, int normalize)
{
    double k = L->k, tick = 5 * k;
    char buf[64];

    /* Grid: 1 px lines on pixel centers, so they stay crisp. */
    cairo_set_line_width(cr, 1);
    plot_set_color(cr, 0xE6E6E6, 1);
    for (double i = L->yt.first; i <= L->yt.last; i++) {
        double y = floor(plot_y(L, rf_plot_tick_value(&L->yt, i))) + 0.5;
        cairo_move_to(cr, L->x0, y);
        cairo_line_to(cr, L->x1, y);
    }
    for (double i = L->xt.first; i <= L->xt.last; i++) {
        double x = floor(plot_x(L, rf_plot_tick_value(&L->xt, i))) + 0.5;
        cairo_move_to(cr, x, L->y0);
        cairo_line_to(cr, x, L->y1);
    }
    cairo_stroke(cr);

    /* Axes just outside the plot area, ticks outward. */
    plot_set_color(cr, 0x333333, 1);
    cairo_move_to(cr, L->x0 - 0.5, L->y0);
    cairo_line_to(cr, L->x0 - 0.5, L->y1 + 0.5);
    cairo_line_to(cr, L->x1, L->y1 + 0.5);
    for (double i = L->yt.first; i <= L->yt.last; i++) {
        double y = floor(plot_y(L, rf_plot_tick_value(&L->yt, i))) + 0.5;
        cairo_move_to(cr, L->x0 - 0.5, y);
        cairo_line_to(cr, L->x0 - 0.5 - tick, y);
    }
    for (double i = L->xt.first; i <= L->xt.last; i++) {
        double x = floor(plot_x(L, rf_plot_tick_value(&L->xt, i))) + 0.5;
        cairo_move_to(cr, x, L->y1 + 0.5);
        cairo_line_to(cr, x, L->y1 + 0.5 + tick);
    }
    cairo_stroke(cr);

    cairo_set_font_size(cr, 12 * k);
    for (double i = L->yt.first; i <= L->yt.last; i++) {
        double v = rf_plot_tick_value(&L->yt, i);
        rf_plot_tick_label(buf, sizeof buf, &L->yt, v);
        plot_text(cr, buf, L->x0 - 9 * k, floor(plot_y(L, v)) + 0.5, 1);
    }
    for (double i = L->xt.first; i <= L->xt.last; i++) {
        double v = rf_plot_tick_value(&L->xt, i);
        rf_plot_tick_label(buf, sizeof buf, &L->xt, v);
        plot_text(cr, buf, floor(plot_x(L, v)) + 0.5, L->y1 + 20 * k, 0.5);
    }

    cairo_set_font_size(cr, 13 * k);
    plot_text(cr, "time (s)", (L->x0 + L->x1) / 2.0, L->y1 + 42 * k, 0.5);
    cairo_save(cr);
    cairo_translate(cr, 14 * k, (L->y0 + L->y1) / 2.0);
    cairo_rotate(cr, -PLOT_PI / 2);
    plot_text(cr, normalize ? "normalized (0 = min, 1 = max of each line)" : "value", 0, 0, 0.5);
    cairo_restore(cr);
}

/* Polylines through the samples; a non-finite sample breaks the line. */
static void plot_draw_lines(cairo_t *cr, const plot_layout_t *L, long ns, const double *ys,
                            long nt)
{
    double lw = fmax(1, 2 * L->k);

    cairo_save(cr);
    cairo_rectangle(cr, L->x0, L->y0, L->x1 - L->x0, L->y1 - L->y0);
    cairo_clip(cr);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (long i = 0; i < ns; i++) {
        int pen = 0;

        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
        plot_series_style(cr, i, lw, 0);
        for (long j = 0; j < nt; j++) {
            double v = ys[i * nt + j];
            double x = L->x0 + (double)j / (double)(nt - 1) * (L->x1 - L->x0);

            if (!isfinite(v)) {
                pen = 0;
                continue;
            }
            if (pen)
                cairo_line_to(cr, x, plot_y(L, v));
            else
                cairo_move_to(cr, x, plot_y(L, v));
            pen = 1;
        }
        cairo_stroke(cr);
    }
    cairo_restore(cr);
}

/* A dashed vertical line at each marked settle time and a dot where the
 * line settles; the time itself is said in the legend. */
static void plot_draw_settles(cairo_t *cr, const plot_layout_t *L, const plot_series_t *s,
                              long ns)
{
    double k = L->k, lw = fmax(1, 1.5 * k);

    cairo_save(cr);
    cairo_rectangle(cr, L->x0, L->y0, L->x1 - L->x0, L->y1 - L->y0);
    cairo_clip(cr);
    for (long i = 0; i < ns; i++) {
        double x;

        if (!s[i].marked)
            continue;
        x = plot_x(L, s[i].settle);
        plot_series_style(cr, i, lw, 1);
        cairo_move_to(cr, x, L->y0);
        cairo_line_to(cr, x, L->y1);
        cairo_stroke(cr);
        if (isfinite(s[i].settle_y)) {
            cairo_arc(cr, x, plot_y(L, s[i].settle_y), 3.5 * k, 0, 2 * PLOT_PI);
            cairo_fill(cr);
        }
    }
    cairo_restore(cr);
}

static void plot_draw_legend(cairo_t *cr, const plot_layout_t *L, const plot_series_t *s,
                             long ns, const double *ex, const int *erow, const double *roww,
                             long nshown, double morew)
{
    double k = L->k, chip = 30 * k;
    char more[32];

    cairo_set_font_size(cr, 13 * k);
    for (long i = 0; i < nshown; i++) {
        double x = L->x1 - roww[erow[i]] + ex[i];
        double y = 20 * k + 22 * k * erow[i] - 9 * k;

        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
        plot_series_style(cr, i, fmax(1, 3 * k), 0);
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, x + 24 * k, y);
        cairo_stroke(cr);
        plot_set_color(cr, 0x333333, 1);
        plot_text(cr, s[i].label, x + chip, y, 0);
    }
    if (nshown < ns) {
        int row = erow[nshown - 1];
        snprintf(more, sizeof more, "+%ld more", ns - nshown);
        plot_set_color(cr, 0x333333, 1);
        plot_text(cr, more, L->x1 - morew, 20 * k + 22 * k * row - 9 * k, 0);
    }
}

void rf_plot_y_range(const double *ys, long count, double *lo, double *hi)
{
    double mn = INFINITY, mx = -INFINITY, pad;

    for (long i = 0; i < count; i++) {
        if (isfinite(ys[i])) {
            mn = fmin(mn, ys[i]);
            mx = fmax(mx, ys[i]);
        }
    }
    if (mn > mx) {
        *lo = -1;
        *hi = 1;
        return;
    }
    /* Halves first: the span of a range near +-DBL_MAX overflows. */
    pad = 0.05 * (mx / 2 - mn / 2) * 2;
    if (!(pad > 0)) {
        /* One constant: +-5% of it, or +-1 around 0. */
        pad = mn != 0 ? fabs(mn) * 0.05 : 1;
    }
    *lo = fmax(mn - pad, -DBL_MAX);
    *hi = fmin(mx + pad, DBL_MAX);
}

static int plot_write_png(cairo_surface_t *surface, const char *path, char *err,
                          size_t errlen)
{
    rf_png_frame_t frame;
    rf_png_options_t opt = RF_PNG_OPTIONS_GOLDEN;
    rf_png_error_t perr;
    rf_png_status_t st;

    cairo_surface_flush(surface);
    frame.pixels = (const uint32_t *)cairo_image_surface_get_data(surface);
    frame.width = (uint32_t)cairo_image_surface_get_width(surface);
    frame.height = (uint32_t)cairo_image_surface_get_height(surface);
    frame.stride = (size_t)cairo_image_surface_get_stride(surface);
    frame.opaque = 0;
    if (strcmp(path, "-") == 0)
        st = rf_png_write_stream(&frame, &opt, stdout, &perr);
    else
        st = rf_png_write_path(&frame, &opt, path, 0, &perr);
    if (st == RF_PNG_IO_ERROR && strcmp(path, "-") == 0) {
        /* the stream writer names its file "(stream)" */
        snprintf(err, errlen, "standard output: write failed: %s",
                 strerror(perr.sys_errno != 0 ? perr.sys_errno : EIO));
        return -1;
    }
    if (st != RF_PNG_SUCCESS) {
        snprintf(err, errlen, "%s", perr.message);
        return -1;
    }
    return 0;
}

static int plot_cairo_error(cairo_status_t st, char *err, size_t errlen)
{
    snprintf(err, errlen, "cairo: %s", cairo_status_to_string(st));
    return -1;
}


int rf_plot_write(const rf_plot_spec_t *spec, const char *path, char *err, size_t errlen)
{
    const rf_values_t *vs = spec->values;
    plot_layout_t L = { 0 };
    plot_series_t *s = NULL;
    double *ys = NULL, *slots = NULL, *ex = NULL;
    int *erow = NULL;
    double roww[PLOT_LEGEND_ROWS], morew;
    long ns = (long)spec->nseries, nt, nshown;
    cairo_surface_t *surface = NULL;
    cairo_t *cr = NULL;
    cairo_status_t cst;
    int status;

    s = malloc((ns > 0 ? (size_t)ns : 1) * sizeof *s);
    if (s == NULL)
        goto oom;
    for (long i = 0; i < ns; i++)
        plot_series_init(&s[i], &spec->series[i]);
    L.from = spec->from;
    L.to = spec->to;

    L.w = spec->width;
    L.h = spec->height;
    /* Text and margins grow with the image's area beyond 1200x600, and
     * shrink only in images smaller than 640x360, where they would
     * otherwise take more than about a quarter of either side. */
    L.k = fmin(fmax(1.0, sqrt((double)L.w * L.h / 720000.0)), fmin(L.w / 640.0, L.h / 360.0));
    surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, L.w, L.h);
    cst = cairo_surface_status(surface);
    if (cst != CAIRO_STATUS_SUCCESS) {
        status = plot_cairo_error(cst, err, errlen);
        goto out;
    }
    cr = cairo_create(surface);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);

    /* The x extent does not depend on the y axis labels' width except
     * through x0; sample over the widest possible area, 2 per column. */
    nt = 2L * (L.w - (long)lround(28 * L.k)) + 1;
    ys = malloc((size_t)nt * (size_t)ns * sizeof *ys);
    slots = malloc((vs->nslots > 0 ? vs->nslots : 1) * sizeof *slots);
    if (ys == NULL || slots == NULL)
        goto oom;
    for (long j = 0; j < nt; j++) {
        /* from + (to - from) * j / (nt - 1), exact at both ends */
        double t = j == nt - 1 ? L.to : L.from + (L.to - L.from) * ((double)j / (double)(nt - 1));

        rf_values_eval(vs, t, slots);
        for (long i = 0; i < ns; i++)
            ys[i * nt + j] = slots[s[i].slot];
    }
    for (long i = 0; i < ns; i++) {
        double st = s[i].settle;

        /* A static value "settles" at 0: marking it would say nothing. */
        if (isfinite(st) && st > L.from && st <= L.to) {
            rf_values_eval(vs, st, slots);
            s[i].marked = 1;
            s[i].settle_y = slots[s[i].slot];
        }
        if (spec->normalize)
            plot_normalize(&s[i], ys + i * nt, nt);
        plot_series_label(&s[i], spec->normalize);
    }
    ex = malloc((size_t)ns * sizeof *ex);
    erow = malloc((size_t)ns * sizeof *erow);
    if (ex == NULL || erow == NULL)
        goto oom;
    L.rows = plot_legend_flow(cr, s, ns, L.k, L.w - 28 * L.k - 84 * L.k, ex, erow, roww,
                              &nshown, &morew);
    rf_plot_y_range(ys, nt * ns, &L.ylo, &L.yhi);
    plot_layout(cr, &L, L.rows);

    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    plot_draw_axes(cr, &L, spec->normalize);
    plot_draw_lines(cr, &L, ns, ys, nt);
    plot_draw_settles(cr, &L, s, ns);
    plot_draw_legend(cr, &L, s, ns, ex, erow, roww, nshown, morew);

    cst = cairo_status(cr);
    if (cst == CAIRO_STATUS_SUCCESS)
        cst = cairo_surface_status(surface);
    if (cst != CAIRO_STATUS_SUCCESS) {
        status = plot_cairo_error(cst, err, errlen);
        goto out;
    }
    status = plot_write_png(surface, path, err, errlen);
    goto out;
oom:
    snprintf(err, errlen, "out of memory");
    status = -1;
out:
    if (cr != NULL)
        cairo_destroy(cr);
    if (surface != NULL)
        cairo_surface_destroy(surface);
    free(ys);
    free(slots);
    free(ex);
    free(erow);
    free(s);
    return status;
}
