/* cmd-plot.c - `runeframe plot SCENE --values a,b -o PLOT.png ...`: the
 * command line of plot.h (values against time drawn into a PNG): the
 * options, the values to draw (series.h) and the time axis. */
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "diag.h"
#include "numfmt.h"
#include "plot.h"
#include "scene.h"
#include "series.h"

/* The option ids, in the order of .opts below. */
enum { OPT_VALUES, OPT_OUTPUT, OPT_FROM, OPT_TO, OPT_WIDTH, OPT_HEIGHT, OPT_NORMALIZE };

/* --values (NULL: every named value) and -o are read from the arguments. */
typedef struct plot_opts {
    rf_series_span_t span;
    long width, height;
} plot_opts_t;

static const rf_series_report_t plot_report = RF_CMD_REPORT(&rf_cmd_plot);

static const plot_opts_t plot_defaults = { .width = 1200, .height = 600 };

static int plot_parse_size(const char *arg, const char *name, long *out)
{
    long v;

    if (rf_cmd_parse_long(arg, &v) != 0 || v < RF_PLOT_MIN_SIDE || v > RF_PLOT_MAX_SIDE)
        return rf_cmd_usage_error(&rf_cmd_plot, "--%s must be an integer %d..%d, got '%s'", name,
                                  RF_PLOT_MIN_SIDE, RF_PLOT_MAX_SIDE, arg);
    *out = v;
    return 0;
}

static int plot_option(void *state, int id, const char *arg)
{
    plot_opts_t *o = state;

    switch (id) {
    case OPT_OUTPUT:
        return arg[0] == '\0' ? rf_cmd_usage_error(&rf_cmd_plot, "-o needs a file name") : 0;
    case OPT_FROM:
    case OPT_TO:
        return rf_series_span_set(&o->span, id == OPT_TO, arg, &plot_report) == 0
                   ? 0 : RF_EXIT_USAGE;
    case OPT_WIDTH:
        return plot_parse_size(arg, "width", &o->width);
    case OPT_HEIGHT:
        return plot_parse_size(arg, "height", &o->height);
    default: /* --values, --normalize: args */
        return 0;
    }
}

static int plot_check(void *state, const rf_cmd_args_t *args)
{
    const plot_opts_t *o = state;
    const char *output = args->opt[OPT_OUTPUT];

    if (output == NULL)
        return rf_cmd_usage_error(&rf_cmd_plot, "missing -o PLOT.png");
    if (o->width * o->height > RF_PLOT_MAX_PIXELS)
        return rf_cmd_usage_error(&rf_cmd_plot,
                                  "--width %ld x --height %ld is more than %ld pixels", o->width,
                                  o->height, RF_PLOT_MAX_PIXELS);
    if (o->span.has_from && o->span.has_to && !(o->span.from < o->span.to)) {
        char b1[RF_NUM_BUF], b2[RF_NUM_BUF];
        return rf_cmd_usage_error(&rf_cmd_plot, "--from %s must be before --to %s",
                                  rf_num_short(b1, o->span.from), rf_num_short(b2, o->span.to));
    }
    if (strcmp(output, "-") == 0 && isatty(STDOUT_FILENO))
        return rf_cmd_usage_error(&rf_cmd_plot, "-o - would write a PNG to a terminal");
    return 0;
}

/* The lines to draw: --values, or every named value (a path sample's x
 * and y); -1 to go on, else an exit status with the error printed. */
static int plot_resolve(const rf_values_t *vs, const char *list, rf_series_item_t **s,
                        size_t *ns)
{
    int rc = rf_series_resolve(vs, list, RF_SERIES_POSITION, RF_PLOT_MAX_SERIES, s, ns,
                               &plot_report);

    if (rc == RF_SERIES_NOMEM) {
        fprintf(stderr, "runeframe: plot: out of memory\n");
        return RF_EXIT_IO;
    }
    if (rc == RF_SERIES_TOO_MANY)
        return rf_cmd_usage_error(&rf_cmd_plot,
                                  "at most %d lines can be plotted: choose with --values",
                                  RF_PLOT_MAX_SERIES);
    if (rc != RF_SERIES_OK)
        return RF_EXIT_USAGE;
    if (*ns == 0) {
        free(*s);
        *s = NULL;
        return rf_cmd_usage_error(&rf_cmd_plot, "the scene has no named values to plot");
    }
    return -1;
}

static int plot_exec(void *state, const rf_cmd_args_t *args)
{
    const plot_opts_t *o = state;
    const rf_scene_t *scene = args->scene;
    rf_plot_spec_t spec = { 0 };
    rf_series_item_t *s = NULL;
    char err[1024];
    int status;

    status = plot_resolve(&scene->values, args->opt[OPT_VALUES], &s, &spec.nseries);
    if (status >= 0)
        goto out;
    rf_series_span_ends(&o->span, scene->duration, &spec.from, &spec.to);
    if (!(spec.from < spec.to)) {
        char b1[RF_NUM_BUF], b2[RF_NUM_BUF];
        if (o->span.has_to)
            status = rf_cmd_usage_error(&rf_cmd_plot, "--to %s must be after --from %s",
                                        rf_num_short(b2, spec.to), rf_num_short(b1, spec.from));
        else
            status = rf_cmd_usage_error(&rf_cmd_plot,
                                        "--from %s must be before the scene's duration %s"
                                        " (or give --to)",
                                        rf_num_short(b1, spec.from), rf_num_short(b2, spec.to));
        goto out;
    }
    spec.values = &scene->values;
    spec.series = s;
    spec.width = (int)o->width;
    spec.height = (int)o->height;
    spec.normalize = args->opt[OPT_NORMALIZE] != NULL;
    status = RF_EXIT_OK;
    if (rf_plot_write(&spec, args->opt[OPT_OUTPUT], err, sizeof err) != 0) {
        fprintf(stderr, "runeframe: plot: %s\n", err);
        status = RF_EXIT_IO;
    }
out:
    /* The toy text API leaves fonts in cairo's static caches; nothing of
     * cairo is alive any more (plot runs on one thread), so free them:
     * leak checkers (the sanitizer build) then see a clean exit. */
    cairo_debug_reset_static_data();
    free(s);
    return status;
}

const rf_cmd_t rf_cmd_plot = {
    .summary = "draw values against time into a PNG",
    .help =
        "Draws one line per value against time (axes with tick labels, a legend,\n"
        "and a dashed line with a dot where a value settles, its time in the\n"
        "legend), on white, into a PNG written atomically. The y axis spans the\n"
        "sampled minimum and maximum of the plotted lines, padded by 5%; each\n"
        "line is sampled at least twice per pixel column. Twelve lines get\n"
        "distinct colors; later ones repeat them dashed, then dotted.\n"
        "\n"
        "Options:\n"
        "  --values a,b     the values to draw (default every named value; a path\n"
        "                   sample p draws p.x and p.y, p.angle only when named)\n"
        "  -o, --output F   the PNG to write (- for standard output)\n"
        "  --from T         the first time on the axis (default 0)\n"
        "  --to T           the last time on the axis (default the scene's duration)\n"
        "  --width W        the image width, 16..16384 (default 1200)\n"
        "  --height H       the image height, 16..16384 (default 600); at most\n"
        "                   67108864 pixels in all\n"
        "  --normalize      scale each line to its own sampled range, 0 = its\n"
        "                   minimum and 1 = its maximum (a constant at 0.5); the\n"
        "                   legend gives each range\n",
    .usage = "SCENE [--values a,b] -o PLOT.png [--from T] [--to T]\n"
             "                      [--width W] [--height H] [--normalize]",
    .name = "plot", .opts = "values: o|output: from: to: width: height: normalize",
    RF_CMD_ONE_SCENE, .reduced_motion = 1, .state_size = sizeof(plot_opts_t), .defaults = &plot_defaults,
    .option = plot_option, .check = plot_check, .exec = plot_exec,
};
