/* plot.h - values against time, drawn with cairo into a PNG.
 *
 * Owns: the plot's layout (a scale k with the image size, margins, the plot
 * area), nice tick steps and their labels, the y range, and the drawing:
 * grid and axes, one colored line per series, a legend above the plot, the
 * settle times marked; and writing the image as a PNG (atomically, or to
 * standard output). `runeframe plot` (cmd-plot.c) is its command line.
 *
 * Layout (pixels; k = min(max(1, sqrt(W*H / (1200*600))), W/640, H/360),
 * 1 at the default 1200x600 and at any size from 640x360 to it): the
 * legend fills the top margin, 20k + 22k per legend row, each entry a
 * chip of the line's style, its name, with --normalize its sampled range
 * ("card_x [160, 1040]") and the settle time where one is marked; the plot area
 * spans x0 = max(84k, widest y tick label + 37k) .. W - 28k and
 * y0 = top .. H - 56k. Time maps linearly from [from, to] onto [x0, x1]; the
 * y axis is the sampled min/max of every plotted line, padded by 5% of the
 * span on each side (a constant c: c +- 5% of |c|, or +-1 for 0). *
 *
 * Thread-safety: the tick and range functions are pure. rf_plot_write()
 * uses cairo's toy text API, whose fonts live in cairo's static caches:
 * call it from one thread at a time.
 */
#ifndef RF_PLOT_H
#define RF_PLOT_H

#include <stddef.h>
#include <stdint.h>

#include "series.h"
#include "values.h"

#define RF_PLOT_MIN_SIDE 16
#define RF_PLOT_MAX_SIDE 16384
#define RF_PLOT_MAX_PIXELS 67108864L
/* More lines than this are unreadable and their samples would need
 * unbounded memory (64 x 32,769 doubles is 16 MiB). */
#define RF_PLOT_MAX_SERIES 64
/* At most this many ticks on an axis. */
#define RF_PLOT_MAX_TICKS 200

/* Nice ticks over [lo, hi]: first * step .. last * step. */
typedef struct rf_plot_ticks {
    double step;
    double first, last;        /* integers, as doubles (may exceed long) */
    int decimals;              /* fixed-point decimals, or -1: exponent form */
    int exp_digits;            /* mantissa decimals in exponent form */
} rf_plot_ticks_t;

/* Ticks every 1, 2 or 5 x 10^e over [lo, hi], about target of them (at
 * least 2, at most RF_PLOT_MAX_TICKS + 1), labelled in fixed notation
 * unless the exponent form is clearly shorter. */
rf_plot_ticks_t rf_plot_ticks_make(double lo, double hi, double target);
/* Tick i's value (i from first to last), never -0. */
double rf_plot_tick_value(const rf_plot_ticks_t *tk, double i);
/* A tick's label: "0.25", "1.5e+20". */
void rf_plot_tick_label(char *buf, size_t cap, const rf_plot_ticks_t *tk, double v);
/* The y axis over count samples: their finite min/max padded by 5% of the
 * span (a constant c: +-5% of |c|, or +-1 around 0); [-1, 1] without any. */
void rf_plot_y_range(const double *ys, long count, double *lo, double *hi);

typedef struct rf_plot_spec {
    const rf_values_t *values;
    const rf_series_item_t *series;  /* the lines, in legend order */
    size_t nseries;                  /* 1 .. RF_PLOT_MAX_SERIES */
    double from, to;                 /* the time axis, from < to */
    int width, height;               /* RF_PLOT_MIN_SIDE .. RF_PLOT_MAX_SIDE */
    int normalize;                   /* each line onto [0, 1] by its own range */
} rf_plot_spec_t;

/* The line colors: this many distinct ones, then the same dashed, then
 * dotted. */
#define RF_PLOT_NCOLORS 12
/* Line i's color as 0xRRGGBB, and its pattern (0 solid, 1 dashed, 2
 * dotted) in *pattern unless NULL. */
uint32_t rf_plot_series_color(long i, int *pattern);

/* Samples the series (at least twice per pixel column), draws the plot on
 * white and writes it as a PNG to path ("-": standard output). Returns 0,
 * or -1 with the reason in err ("out of memory", "cairo: ...", the PNG
 * writer's message). */
int rf_plot_write(const rf_plot_spec_t *spec, const char *path, char *err, size_t errlen);

#endif
