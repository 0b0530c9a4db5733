/* cmd-sample.c - `runeframe sample SCENE ...`: evaluate values at times
 * without rendering, as CSV (default) or JSON, every number printed with
 * %.17g so that it reads back as exactly the double that was computed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diag.h"
#include "numfmt.h"
#include "scene.h"
#include "series.h"
#include "values.h"

/* More rows than a scene may have frames is a typo in --fps/--to, not a
 * request anyone means. */
#define SAMPLE_MAX_ROWS ((long long)RF_MAX_FRAMES)

/* The option ids, in the order of .opts below. */
enum { OPT_VALUES, OPT_FPS, OPT_TIMES, OPT_FROM, OPT_TO, OPT_FORMAT };

/* One output column: which slot of rf_values_eval's buffer it prints. */
typedef rf_series_item_t sample_col_t;

/* --values (NULL: every named value) and --times (NULL: a grid) are read
 * from the arguments as given. */
typedef struct sample_opts {
    double fps;          /* --fps, 0: the scene's */
    rf_series_span_t span;
    int json;
} sample_opts_t;

static const rf_series_report_t sample_report = RF_CMD_REPORT(&rf_cmd_sample);

/* Entries of a comma-separated list (an empty list has one empty entry). */
static size_t sample_list_count(const char *s)
{
    size_t n = 1;

    for (; *s != '\0'; s++)
        if (*s == ',')
            n++;
    return n;
}

/* Parses --times into a new array of *n finite times >= 0; on a bad entry
 * prints the usage error and returns NULL with *status set. */
static double *sample_parse_times(const char *list, size_t *n, int *status)
{
    size_t cap = sample_list_count(list);
    double *times = malloc(cap * sizeof *times);
    char *copy = malloc(strlen(list) + 1);
    char *p;
    size_t k = 0;

    if (times == NULL || copy == NULL) {
        free(times);
        free(copy);
        fprintf(stderr, "runeframe: sample: out of memory\n");
        *status = RF_EXIT_IO;
        return NULL;
    }
    strcpy(copy, list);
    p = copy;
    for (;;) {
        char *comma = strchr(p, ',');
        double t;

        if (comma != NULL)
            *comma = '\0';
        /* "0, 0.5" is as good as "0,0.5" */
        while (*p == ' ' || *p == '\t')
            p++;
        for (size_t l = strlen(p); l > 0 && (p[l - 1] == ' ' || p[l - 1] == '\t'); l--)
            p[l - 1] = '\0';
        if (rf_num_parse(p, &t) != 0 || t < 0) {
            *status = rf_cmd_usage_error(&rf_cmd_sample,
                                         "--times must list numbers >= 0, got '%s'", p);
            free(times);
            free(copy);
            return NULL;
        }
        times[k++] = t;
        if (comma == NULL)
            break;
        p = comma + 1;
    }
    free(copy);
    *n = k;
    return times;
}

/* Resolves --values (or every named value) into columns. Returns the column
 * array (*n entries) or NULL with the error printed and *status set. */
static sample_col_t *sample_columns(const rf_values_t *vs, const char *list, size_t *n,
                                    int *status)
{
    sample_col_t *cols = NULL;
    int rc = rf_series_resolve(vs, list, RF_SERIES_ALL, 0, &cols, n, &sample_report);

    if (rc == RF_SERIES_NOMEM) {
        fprintf(stderr, "runeframe: sample: out of memory\n");
        *status = RF_EXIT_IO;
    } else if (rc != RF_SERIES_OK) {
        *status = RF_EXIT_USAGE;
    }
    return rc == RF_SERIES_OK ? cols : NULL;
}

/* The column's name: the value's, then ".x" / ".angle" / ".z" / ".r" for
 * one output of a path sample, a vector or a color. */
static void sample_print_name(FILE *out, const sample_col_t *c)
{
    fputs(c->value->name, out);
    if (c->output >= 0) {
        fputc('.', out);
        fputs(rf_value_output_name(c->value, (uint32_t)c->output), out);
    }
}

static void sample_print_header(FILE *out, const sample_col_t *cols, size_t n, int json)
{
    if (json) {
        fputs("{\"columns\": [\"t\"", out);
        for (size_t i = 0; i < n; i++) {
            /* Names are identifiers and suffixes fixed words: nothing to escape. */
            fputs(", \"", out);
            sample_print_name(out, &cols[i]);
            fputc('"', out);
        }
        fputs("], \"rows\": [", out);
        return;
    }
    fputc('t', out);
    for (size_t i = 0; i < n; i++) {
        fputc(',', out);
        sample_print_name(out, &cols[i]);
    }
    fputc('\n', out);
}

/* JSON has no infinities or NaN: those become null. */
static const char *sample_num(char buf[RF_NUM_BUF], double x, int json)
{
    if (json && !isfinite(x))
        return "null";
    return rf_num_exact(buf, x);
}

static void sample_print_row(FILE *out, double t, const double *slots,
                             const sample_col_t *cols, size_t n, int json, long long row)
{
    char buf[RF_NUM_BUF];

    if (json) {
        fputs(row == 0 ? "\n[" : ",\n[", out);
        fputs(sample_num(buf, t, 1), out);
        for (size_t i = 0; i < n; i++) {
            fputs(", ", out);
            fputs(sample_num(buf, slots[cols[i].slot], 1), out);
        }
        fputc(']', out);
        return;
    }
    fputs(rf_num_exact(buf, t), out);
    for (size_t i = 0; i < n; i++) {
        fputc(',', out);
        fputs(rf_num_exact(buf, slots[cols[i].slot]), out);
    }
    fputc('\n', out);
}

static int sample_option(void *state, int id, const char *arg)
{
    sample_opts_t *o = state;

    switch (id) {
    case OPT_FPS:
        if (rf_num_parse(arg, &o->fps) != 0 || !(o->fps > 0))
            return rf_cmd_usage_error(&rf_cmd_sample, "--fps must be a number > 0, got '%s'",
                                      arg);
        return 0;
    case OPT_FROM:
    case OPT_TO:
        return rf_series_span_set(&o->span, id == OPT_TO, arg, &sample_report) == 0
                   ? 0 : RF_EXIT_USAGE;
    case OPT_FORMAT:
        if (strcmp(arg, "csv") == 0)
            o->json = 0;
        else if (strcmp(arg, "json") == 0)
            o->json = 1;
        else
            return rf_cmd_usage_error(&rf_cmd_sample, "--format must be csv or json, got '%s'",
                                      arg);
        return 0;
    default: /* --values, --times: args */
        return 0;
    }
}

static int sample_check(void *state, const rf_cmd_args_t *args)
{
    const sample_opts_t *o = state;
    const char *list = args->opt[OPT_TIMES];
    double *times;
    size_t n;
    int status;

    if (list != NULL && o->fps > 0)
        return rf_cmd_usage_error(&rf_cmd_sample, "--fps and --times cannot be combined");
    if (list != NULL && (o->span.has_from || o->span.has_to))
        return rf_cmd_usage_error(&rf_cmd_sample,
                                  "--from and --to cannot be combined with --times");
    if (o->span.has_from && o->span.has_to && o->span.from > o->span.to)
        return rf_cmd_usage_error(&rf_cmd_sample, "--from must not be after --to");
    /* Bad times are usage errors: report them before reading the scene. */
    if (list != NULL) {
        times = sample_parse_times(list, &n, &status);
        if (times == NULL)
            return status;
        free(times);
    }
    return 0;
}

static int sample_exec(void *state, const rf_cmd_args_t *args)
{
    const sample_opts_t *o = state;
    const rf_scene_t *scene = args->scene;
    sample_col_t *cols = NULL;
    double *times = NULL, *slots = NULL;
    size_t ncols = 0, ntimes = 0;
    long long first = 0, last = -1;
    double fps;
    int status;

    if (args->opt[OPT_TIMES] != NULL) {
        times = sample_parse_times(args->opt[OPT_TIMES], &ntimes, &status);
        if (times == NULL)
            return status;
    }
    cols = sample_columns(&scene->values, args->opt[OPT_VALUES], &ncols, &status);
    if (cols == NULL)
        goto out;

    if (times == NULL) {
        /* The grid t_i = i / fps (one division, as frames are), i over
         * [from, to] with the same 1e-9 slack as the frame count, so that the
         * defaults give exactly frames 0 .. N-1. */
        double from, to, lo, hi;
        char b1[RF_NUM_BUF], b2[RF_NUM_BUF], b3[RF_NUM_BUF];

        rf_series_span_ends(&o->span, scene->duration, &from, &to);
        fps = o->fps > 0 ? o->fps : scene->fps;
        if (from > to) {
            status = rf_cmd_usage_error(&rf_cmd_sample, "--from %s is after the scene's duration %s",
                                        rf_num_short(b1, from), rf_num_short(b2, to));
            goto out;
        }
        lo = ceil(from * fps - 1e-9);
        hi = floor(to * fps + 1e-9);
        if (!(hi - lo < (double)SAMPLE_MAX_ROWS)) {
            status = rf_cmd_usage_error(&rf_cmd_sample,
                                        "--fps %s from %s to %s gives more than %lld rows",
                                        rf_num_short(b1, fps), rf_num_short(b2, from),
                                        rf_num_short(b3, to), SAMPLE_MAX_ROWS);
            goto out;
        }
        first = (long long)lo;
        last = (long long)hi;
    }

    slots = malloc((scene->values.nslots > 0 ? scene->values.nslots : 1) * sizeof *slots);
    if (slots == NULL) {
        fprintf(stderr, "runeframe: sample: out of memory\n");
        status = RF_EXIT_IO;
        goto out;
    }

    sample_print_header(stdout, cols, ncols, o->json);
    if (times != NULL) {
        for (size_t i = 0; i < ntimes; i++) {
            rf_values_eval(&scene->values, times[i], slots);
            sample_print_row(stdout, times[i], slots, cols, ncols, o->json, (long long)i);
        }
    } else {
        for (long long i = first; i <= last; i++) {
            double t = (double)i / fps;
            rf_values_eval(&scene->values, t, slots);
            sample_print_row(stdout, t, slots, cols, ncols, o->json, i - first);
        }
    }
    if (o->json)
        fputs("\n]}\n", stdout);
    status = RF_EXIT_OK;
out:
    free(slots);
    free(cols);
    free(times);
    return status;
}

const rf_cmd_t rf_cmd_sample = {
    .summary = "evaluate values at times, without rendering, as CSV or JSON",
    .help =
        "Prints one row per time and one column per value, every number with\n"
        "%.17g so that it reads back as exactly the computed double. The\n"
        "default is every named value at the scene's frames 0 .. N-1.\n"
        "\n"
        "Options:\n"
        "  --values a,b,c   the values to print, in this order (a path sample p\n"
        "                   gives p.x,p.y,p.angle; p.x alone picks one)\n"
        "  --fps F          sample at t = i / F instead of the scene's fps\n"
        "  --from T         first time of the grid (default 0): i >= ceil(T*F - 1e-9)\n"
        "  --to T           last time of the grid (default the scene's duration):\n"
        "                   i <= floor(T*F + 1e-9)\n"
        "  --times t1,...   evaluate at exactly these times (>= 0), in this order;\n"
        "                   not with --fps, --from or --to\n"
        "  --format csv     a header t,a,b then one line per time (default)\n"
        "  --format json    {\"columns\": [\"t\", \"a\"], \"rows\": [[0, 1], ...]}\n",
    .usage = "SCENE [--values a,b,c] [--fps F | --times t1,t2,...]\n"
             "                        [--from T] [--to T] [--format csv|json]",
    .name = "sample", .opts = "values: fps: times: from: to: format:",
    RF_CMD_ONE_SCENE, .reduced_motion = 1, .state_size = sizeof(sample_opts_t),
    .option = sample_option, .check = sample_check, .exec = sample_exec,
};
