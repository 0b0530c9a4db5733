/* cmd.c - the subcommand table and what every subcommand shares: help
 * output, one-line usage errors, scene loading with error reporting, and
 * strict parsing of numeric arguments. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diag.h"
#include "scene.h"

/* In `runeframe --help` order. */
const rf_cmd_t *const rf_cmds[] = {
    &rf_cmd_render,
    &rf_cmd_seek,
    &rf_cmd_check,
    &rf_cmd_diff,
    &rf_cmd_info,
    &rf_cmd_sample,
    &rf_cmd_plot,
    &rf_cmd_validate,
    NULL,
};

void rf_cmd_print_help(const rf_cmd_t *cmd, FILE *out)
{
    fprintf(out, "usage: runeframe %s %s\n\n%s\n", cmd->name, cmd->usage, cmd->summary);
    if (cmd->help != NULL && cmd->help[0] != '\0')
        fprintf(out, "\n%s", cmd->help);
}

/* getopt_long's own messages are not in the house format: report the
 * offending option ourselves, with a suggestion for a near miss. */
int rf_cmd_option_error(const rf_cmd_t *cmd, const struct option *opts, int c, char **argv)
{
    const char *names[64];
    size_t n = 0, len;
    char word[64];
    const char *arg = argv[optind - 1];
    const char *guess;
    int is_long = arg[0] == '-' && arg[1] == '-';

    if (c == ':' && optopt > 0 && optopt < 256 && !is_long)
        return rf_cmd_usage_error(cmd, "option '-%c' needs an argument", optopt);
    for (const struct option *o = opts; o->name != NULL; o++) {
        if (c == ':' && o->val == optopt)
            return rf_cmd_usage_error(cmd, "option '--%s' needs an argument", o->name);
        if (c == '?' && o->val == optopt && is_long)
            return rf_cmd_usage_error(cmd, "option '--%s' takes no argument", o->name);
        if (n < sizeof names / sizeof names[0])
            names[n++] = o->name;
    }
    if (optopt > 0 && optopt < 256)
        return rf_cmd_usage_error(cmd, "unknown option '-%c'", optopt);
    while (*arg == '-')
        arg++;
    len = strcspn(arg, "=");
    if (len >= sizeof word)
        len = sizeof word - 1;
    memcpy(word, arg, len);
    word[len] = '\0';
    guess = rf_did_you_mean(word, names, n);
    if (guess != NULL)
        return rf_cmd_usage_error(cmd, "unknown option '--%s' (did you mean '--%s'?)", word, guess);
    return rf_cmd_usage_error(cmd, "unknown option '--%s'", word);
}

/* One line only: scripts and tests match the whole message, so the hint to
 * use --help lives in the usage text, not in every error. */
int rf_cmd_usage_error(const rf_cmd_t *cmd, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "runeframe: %s: ", cmd->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return RF_EXIT_USAGE;
}

struct rf_scene *rf_cmd_load_scene(const char *path, int *status)
{
    /* rf_diag_t holds 20 KiB of messages: keep it off the stack of
     * sanitizer builds and small-stack threads. */
    rf_diag_t *diag = malloc(sizeof *diag);
    rf_scene_t *scene;

    if (diag == NULL) {
        fprintf(stderr, "runeframe: %s: out of memory\n", path);
        *status = RF_EXIT_IO;
        return NULL;
    }
    rf_diag_init(diag, path);
    scene = rf_scene_load(path, diag);
    if (scene == NULL) {
        if (diag->count == 0 && diag->dropped == 0)
            rf_diag_file(diag, "cannot load the scene");
        rf_diag_print(diag, stderr);
        *status = diag->io_error ? RF_EXIT_IO : RF_EXIT_USAGE;
    } else {
        *status = RF_EXIT_OK;
    }
    free(diag);
    return scene;
}

int rf_cmd_parse_double(const char *s, double *out)
{
    char *end;
    double x;

    if (s == NULL || *s == '\0')
        return -1;
    /* strtod skips leading white space; an argument with any is a typo. */
    if (*s == ' ' || *s == '\t' || *s == '\n')
        return -1;
    errno = 0;
    x = strtod(s, &end);
    if (*end != '\0' || !isfinite(x))
        return -1;
    /* ERANGE on underflow still yields a usable (tiny or zero) number;
     * overflow already failed the isfinite test. */
    *out = x;
    return 0;
}

int rf_cmd_parse_long(const char *s, long *out)
{
    char *end;
    long x;

    if (s == NULL || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    x = strtol(s, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return -1;
    *out = x;
    return 0;
}

void rf_cmd_diff_opts_init(rf_cmd_diff_opts_t *d)
{
    rf_diff_options_t def = RF_DIFF_OPTIONS_DEFAULT;

    memset(d, 0, sizeof *d);
    d->diff = def;
}

int rf_cmd_diff_opt(const rf_cmd_t *cmd, int c, const char *arg, rf_cmd_diff_opts_t *d)
{
    double x;
    long n;

    switch (c) {
    case RF_OPT_THRESHOLD:
        if (rf_cmd_parse_double(arg, &x) != 0 || x < 0 || x > 1)
            return rf_cmd_usage_error(cmd, "--threshold must be a number from 0 to 1, got '%s'",
                                      arg);
        d->diff.threshold = x;
        return 0;
    case RF_OPT_AA:
        d->diff.include_aa = 0;
        return 0;
    case RF_OPT_MAX_DIFF_PIXELS:
        if (rf_cmd_parse_long(arg, &n) != 0)
            return rf_cmd_usage_error(cmd, "--max-diff-pixels must be an integer >= 0, got '%s'",
                                      arg);
        d->max_pixels = (uint64_t)n;
        d->pixels_set = 1;
        return 0;
    case RF_OPT_MAX_DIFF_RATIO: {
        /* A share (0.001) or a percentage (0.1%). */
        char buf[64];
        size_t len = strlen(arg);
        int pct = len > 0 && arg[len - 1] == '%';
        if (len < sizeof buf) {
            memcpy(buf, arg, len);
            buf[len - (pct && len > 0)] = '\0';
        }
        if (len >= sizeof buf || rf_cmd_parse_double(buf, &x) != 0 || x < 0 ||
            x > (pct ? 100 : 1))
            return rf_cmd_usage_error(cmd, "--max-diff-ratio must be a share from 0 to 1 or a "
                                           "percentage from 0%% to 100%%, got '%s'", arg);
        d->max_ratio = pct ? x / 100 : x;
        d->ratio_set = 1;
        return 0;
    }
    case RF_OPT_ALPHA:
        if (rf_cmd_parse_double(arg, &x) != 0 || x < 0 || x > 1)
            return rf_cmd_usage_error(cmd, "--alpha must be a number from 0 to 1, got '%s'", arg);
        d->diff.alpha = x;
        return 0;
    case RF_OPT_AA_COLOR:
    case RF_OPT_DIFF_COLOR:
    case RF_OPT_DIFF_COLOR_ALT: {
        uint8_t *rgb = c == RF_OPT_AA_COLOR ? d->diff.aa_color
                       : c == RF_OPT_DIFF_COLOR ? d->diff.diff_color : d->diff.diff_color_alt;
        const char *name = c == RF_OPT_AA_COLOR ? "--aa-color"
                           : c == RF_OPT_DIFF_COLOR ? "--diff-color" : "--diff-color-alt";
        if (rf_diff_parse_color(arg, rgb) != 0)
            return rf_cmd_usage_error(cmd, "%s must be R,G,B with each 0..255, got '%s'", name,
                                      arg);
        if (c == RF_OPT_DIFF_COLOR_ALT)
            d->alt_set = 1;
        return 0;
    }
    case RF_OPT_DIFF_MASK:
        d->diff.diff_mask = 1;
        return 0;
    case RF_OPT_NO_CHECKERBOARD:
        d->diff.checkerboard = 0;
        return 0;
    default:
        return -1;
    }
}

void rf_cmd_diff_opts_finish(rf_cmd_diff_opts_t *d)
{
    if (!d->alt_set)
        memcpy(d->diff.diff_color_alt, d->diff.diff_color, 3);
    /* One limit alone is the limit (as Playwright's maxDiffPixels and
     * maxDiffPixelRatio): the other one's default 0 applies only when
     * neither is given. */
    if (d->pixels_set && !d->ratio_set)
        d->max_ratio = 1;
    if (d->ratio_set && !d->pixels_set)
        d->max_pixels = UINT64_MAX;
}
