/* cmd-sample.c - `runeframe sample SCENE ...`: evaluate values at times
 * without rendering, as CSV (default) or JSON, every number printed with
 * %.17g so that it reads back as exactly the double that was computed. */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diag.h"
#include "numfmt.h"
#include "scene.h"
#include "values.h"

/* More rows than a scene may have frames is a typo in --fps/--to, not a
 * request anyone means. */
#define SAMPLE_MAX_ROWS ((long long)RF_MAX_FRAMES)

enum { OPT_HELP = 256, OPT_VALUES, OPT_FPS, OPT_TIMES, OPT_FROM, OPT_TO, OPT_FORMAT };

static const struct option sample_options[] = {
    { "values", required_argument, NULL, OPT_VALUES },
    { "fps", required_argument, NULL, OPT_FPS },
    { "times", required_argument, NULL, OPT_TIMES },
    { "from", required_argument, NULL, OPT_FROM },
    { "to", required_argument, NULL, OPT_TO },
    { "format", required_argument, NULL, OPT_FORMAT },
    { "help", no_argument, NULL, OPT_HELP },
    { NULL, 0, NULL, 0 },
};

/* Output suffixes of a three-output value (a path sample). */
static const char *const sample_suffix3[3] = { "x", "y", "angle" };

/* One output column: which slot of rf_values_eval's buffer it prints. */
typedef struct sample_col {
    uint32_t slot;
    const char *name;    /* the value's name */
    const char *suffix;  /* NULL, or "x" / "y" / "angle" */
} sample_col_t;

typedef struct sample_opts {
    const char *values;  /* --values list, NULL: every named value */
    const char *times;   /* --times list, NULL: a grid */
    double fps;          /* --fps, 0: the scene's */
    double from, to;
    int has_from, has_to;
    int json;
} sample_opts_t;

/* getopt_long's own messages are not in the house format: report the
 * offending option ourselves, with a suggestion for a near miss. */
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
        if (rf_cmd_parse_double(p, &t) != 0 || t < 0) {
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

/* Candidate names for did-you-mean: every named value. */
static const char *sample_suggest(const rf_values_t *vs, const char *word)
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

/* Adds the columns of value v (one per output) to cols. */
static size_t sample_add_value(sample_col_t *cols, size_t k, const rf_value_t *v)
{
    for (uint32_t j = 0; j < v->nout; j++) {
        cols[k].slot = v->slot + j;
        cols[k].name = v->name;
        cols[k].suffix = v->nout == 3 ? sample_suffix3[j] : NULL;
        k++;
    }
    return k;
}

/* Resolves --values (or every named value) into columns. Returns the column
 * array (*n entries) or NULL with the error printed and *status set. */
static sample_col_t *sample_columns(const rf_values_t *vs, const char *list, size_t *n,
                                    int *status)
{
    size_t cap = 0;
    sample_col_t *cols;
    size_t k = 0;

    if (list == NULL) {
        for (uint32_t i = 0; i < vs->nnamed; i++)
            cap += vs->values[i].nout;
    } else {
        /* A name may expand to 3 columns (a path sample). */
        cap = sample_list_count(list) * 3;
    }
    cols = malloc((cap > 0 ? cap : 1) * sizeof *cols);
    if (cols == NULL) {
        fprintf(stderr, "runeframe: sample: out of memory\n");
        *status = RF_EXIT_IO;
        return NULL;
    }
    if (list == NULL) {
        for (uint32_t i = 0; i < vs->nnamed; i++)
            k = sample_add_value(cols, k, &vs->values[i]);
        *n = k;
        return cols;
    }

    for (const char *p = list;;) {
        size_t len = strcspn(p, ",");
        const char *b = p, *e = p + len, *dp;
        size_t tl, dot;
        const rf_value_t *v;
        char word[256];

        /* "a, b" is as good as "a,b" */
        while (b < e && (*b == ' ' || *b == '\t'))
            b++;
        while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        tl = (size_t)(e - b);
        dp = memchr(b, '.', tl);
        dot = dp != NULL ? (size_t)(dp - b) : tl;
        if (tl == 0) {
            *status = rf_cmd_usage_error(&rf_cmd_sample,
                                         "--values must list value names, got '%s'", list);
            goto fail;
        }
        v = rf_values_findn(vs, b, dot);
        if (v == NULL) {
            size_t wl = dot < sizeof word ? dot : sizeof word - 1;
            const char *guess;

            memcpy(word, b, wl);
            word[wl] = '\0';
            guess = sample_suggest(vs, word);
            if (guess != NULL)
                *status = rf_cmd_usage_error(&rf_cmd_sample,
                                             "unknown value '%s' (did you mean '%s'?)", word, guess);
            else
                *status = rf_cmd_usage_error(&rf_cmd_sample, "unknown value '%s'", word);
            goto fail;
        }
        if (dot == tl) {
            k = sample_add_value(cols, k, v);
        } else {
            /* NAME.x / NAME.y / NAME.angle picks one output of a path sample. */
            const char *suf = b + dot + 1;
            size_t sl = tl - dot - 1;
            int found = -1;

            for (int j = 0; j < 3 && v->nout == 3; j++)
                if (strlen(sample_suffix3[j]) == sl && strncmp(suf, sample_suffix3[j], sl) == 0)
                    found = j;
            if (found < 0) {
                *status = rf_cmd_usage_error(&rf_cmd_sample,
                                             "unknown value '%.*s' ('%s' has no output '%.*s')",
                                             (int)tl, b, v->name, (int)sl, suf);
                goto fail;
            }
            cols[k].slot = v->slot + (uint32_t)found;
            cols[k].name = v->name;
            cols[k].suffix = sample_suffix3[found];
            k++;
        }
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    *n = k;
    return cols;
fail:
    free(cols);
    return NULL;
}

static void sample_print_header(FILE *out, const sample_col_t *cols, size_t n, int json)
{
    if (json) {
        fputs("{\"columns\": [\"t\"", out);
        for (size_t i = 0; i < n; i++) {
            /* Names are identifiers and suffixes fixed words: nothing to escape. */
            fprintf(out, ", \"%s%s%s\"", cols[i].name, cols[i].suffix ? "." : "",
                    cols[i].suffix ? cols[i].suffix : "");
        }
        fputs("], \"rows\": [", out);
        return;
    }
    fputc('t', out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, ",%s%s%s", cols[i].name, cols[i].suffix ? "." : "",
                cols[i].suffix ? cols[i].suffix : "");
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

/* Parses the options into o; returns -1 to go on, else an exit status. */
static int sample_parse_args(int argc, char **argv, sample_opts_t *o)
{
    int c;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", sample_options, NULL)) != -1) {
        switch (c) {
        case OPT_VALUES:
            o->values = optarg;
            break;
        case OPT_FPS:
            if (rf_cmd_parse_double(optarg, &o->fps) != 0 || !(o->fps > 0))
                return rf_cmd_usage_error(&rf_cmd_sample, "--fps must be a number > 0, got '%s'",
                                          optarg);
            break;
        case OPT_TIMES:
            o->times = optarg;
            break;
        case OPT_FROM:
            if (rf_cmd_parse_double(optarg, &o->from) != 0 || o->from < 0)
                return rf_cmd_usage_error(&rf_cmd_sample, "--from must be a number >= 0, got '%s'",
                                          optarg);
            o->has_from = 1;
            break;
        case OPT_TO:
            if (rf_cmd_parse_double(optarg, &o->to) != 0 || o->to < 0)
                return rf_cmd_usage_error(&rf_cmd_sample, "--to must be a number >= 0, got '%s'",
                                          optarg);
            o->has_to = 1;
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "csv") == 0)
                o->json = 0;
            else if (strcmp(optarg, "json") == 0)
                o->json = 1;
            else
                return rf_cmd_usage_error(&rf_cmd_sample, "--format must be csv or json, got '%s'",
                                          optarg);
            break;
        case OPT_HELP:
            rf_cmd_print_help(&rf_cmd_sample, stdout);
            return RF_EXIT_OK;
        default:
            return rf_cmd_option_error(&rf_cmd_sample, sample_options, c, argv);
        }
    }
    if (optind >= argc)
        return rf_cmd_usage_error(&rf_cmd_sample, "missing SCENE");
    if (argc - optind > 1)
        return rf_cmd_usage_error(&rf_cmd_sample, "unexpected argument '%s'", argv[optind + 1]);
    if (o->times != NULL && o->fps > 0)
        return rf_cmd_usage_error(&rf_cmd_sample, "--fps and --times cannot be combined");
    if (o->times != NULL && (o->has_from || o->has_to))
        return rf_cmd_usage_error(&rf_cmd_sample,
                                  "--from and --to cannot be combined with --times");
    if (o->has_from && o->has_to && o->from > o->to)
        return rf_cmd_usage_error(&rf_cmd_sample, "--from must not be after --to");
    return -1;
}

static int sample_exec(int argc, char **argv)
{
    sample_opts_t o = { 0 };
    rf_scene_t *scene = NULL;
    sample_col_t *cols = NULL;
    double *times = NULL, *slots = NULL;
    size_t ncols = 0, ntimes = 0;
    long long first = 0, last = -1;
    double fps;
    int status;

    status = sample_parse_args(argc, argv, &o);
    if (status >= 0)
        return status;
    /* Bad times are usage errors: report them before reading the scene. */
    if (o.times != NULL) {
        times = sample_parse_times(o.times, &ntimes, &status);
        if (times == NULL)
            return status;
    }

    scene = rf_cmd_load_scene(argv[optind], &status);
    if (scene == NULL)
        goto out;
    cols = sample_columns(&scene->values, o.values, &ncols, &status);
    if (cols == NULL)
        goto out;

    if (times == NULL) {
        /* The grid t_i = i / fps (one division, as frames are), i over
         * [from, to] with the same 1e-9 slack as the frame count, so that the
         * defaults give exactly frames 0 .. N-1. */
        double from = o.has_from ? o.from : 0.0;
        double to = o.has_to ? o.to : scene->duration;
        double lo, hi;
        char b1[RF_NUM_BUF], b2[RF_NUM_BUF], b3[RF_NUM_BUF];

        fps = o.fps > 0 ? o.fps : scene->fps;
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

    sample_print_header(stdout, cols, ncols, o.json);
    if (times != NULL) {
        for (size_t i = 0; i < ntimes; i++) {
            rf_values_eval(&scene->values, times[i], slots);
            sample_print_row(stdout, times[i], slots, cols, ncols, o.json, (long long)i);
        }
    } else {
        for (long long i = first; i <= last; i++) {
            double t = (double)i / fps;
            rf_values_eval(&scene->values, t, slots);
            sample_print_row(stdout, t, slots, cols, ncols, o.json, i - first);
        }
    }
    if (o.json)
        fputs("\n]}\n", stdout);
    status = RF_EXIT_OK;
out:
    free(slots);
    free(cols);
    free(times);
    rf_scene_destroy(scene);
    return status;
}

const rf_cmd_t rf_cmd_sample = {
    .name = "sample",
    .usage = "SCENE [--values a,b,c] [--fps F | --times t1,t2,...]\n"
             "                        [--from T] [--to T] [--format csv|json]",
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
        "  --format json    {\"columns\": [\"t\", \"a\"], \"rows\": [[0, 1], ...]}\n"
        "  --help           print this help and exit\n",
    .exec = sample_exec,
};
