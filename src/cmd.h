/* cmd.h - the subcommand table of the runeframe command line.
 *
 * Owns: rf_cmd_t, one entry per subcommand; each lives in its own
 * src/cmd-NAME.c and is registered in the table in cmd.c. exec() gets argv
 * with argv[0] the subcommand name and returns the process exit status
 * (RF_EXIT_* of diag.h). Errors are printed by the command itself, one line
 * each, prefixed "runeframe: ".
 */
#ifndef RF_CMD_H
#define RF_CMD_H

#include <stdint.h>
#include <stdio.h>

#include "diff.h"

struct option;

typedef struct rf_cmd {
    const char *name;
    const char *usage;      /* "SCENE [--json]" */
    const char *summary;    /* one line for `runeframe --help` */
    const char *help;       /* the options, printed by `runeframe NAME --help` */
    int (*exec)(int argc, char **argv);
} rf_cmd_t;

extern const rf_cmd_t rf_cmd_render;
extern const rf_cmd_t rf_cmd_seek;
extern const rf_cmd_t rf_cmd_info;
extern const rf_cmd_t rf_cmd_sample;
extern const rf_cmd_t rf_cmd_plot;
extern const rf_cmd_t rf_cmd_validate;
extern const rf_cmd_t rf_cmd_check;
extern const rf_cmd_t rf_cmd_diff;

/* NULL-terminated table of every subcommand, in `--help` order. */
extern const rf_cmd_t *const rf_cmds[];

/* Prints "usage: runeframe NAME USAGE" and the help text. */
void rf_cmd_print_help(const rf_cmd_t *cmd, FILE *out);
/* Prints the one line "runeframe: NAME: MESSAGE"; returns 2 (usage error). */
int rf_cmd_usage_error(const rf_cmd_t *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Reports the option getopt_long rejected (it returned c, ':' or '?', with
 * optstring starting with ':') as one house-style line, with a did-you-mean
 * among opts for a misspelt long option; returns 2. */
int rf_cmd_option_error(const rf_cmd_t *cmd, const struct option *opts, int c, char **argv);

/* Loads a scene for a command, printing its errors; NULL with *status set
 * to 2 (invalid) or 3 (unreadable) on failure. */
struct rf_scene *rf_cmd_load_scene(const char *path, int *status);

/* Parses a finite double / a non-negative long from a whole argument;
 * returns 0 on success. */
int rf_cmd_parse_double(const char *s, double *out);
int rf_cmd_parse_long(const char *s, long *out);

/* ---- the differ's options, shared by check and diff ---- */

enum {
    RF_OPT_THRESHOLD = 512, RF_OPT_AA, RF_OPT_MAX_DIFF_PIXELS, RF_OPT_MAX_DIFF_RATIO,
    RF_OPT_ALPHA, RF_OPT_AA_COLOR, RF_OPT_DIFF_COLOR, RF_OPT_DIFF_COLOR_ALT,
    RF_OPT_DIFF_MASK, RF_OPT_NO_CHECKERBOARD,
};

/* Their getopt_long entries, to put in a command's option table. */
#define RF_CMD_DIFF_LONG_OPTIONS                                                      \
    { "threshold", required_argument, NULL, RF_OPT_THRESHOLD },                       \
    { "aa", no_argument, NULL, RF_OPT_AA },                                           \
    { "max-diff-pixels", required_argument, NULL, RF_OPT_MAX_DIFF_PIXELS },           \
    { "max-diff-ratio", required_argument, NULL, RF_OPT_MAX_DIFF_RATIO },             \
    { "alpha", required_argument, NULL, RF_OPT_ALPHA },                               \
    { "aa-color", required_argument, NULL, RF_OPT_AA_COLOR },                         \
    { "diff-color", required_argument, NULL, RF_OPT_DIFF_COLOR },                     \
    { "diff-color-alt", required_argument, NULL, RF_OPT_DIFF_COLOR_ALT },             \
    { "diff-mask", no_argument, NULL, RF_OPT_DIFF_MASK },                             \
    { "no-checkerboard", no_argument, NULL, RF_OPT_NO_CHECKERBOARD }

/* Their help lines. */
#define RF_CMD_DIFF_HELP                                                              \
    "  --threshold X      per-pixel YIQ distance tolerance, 0..1 (default 0.1)\n"       \
    "  --aa               do not count pixels pixelmatch's anti-aliasing\n"           \
    "                     detection classifies as anti-aliased (default: count)\n"    \
    "  --max-diff-pixels N  pass with up to N differing pixels (default 0)\n"         \
    "  --max-diff-ratio R   pass with up to a share R (0..1, or P%) (default 0);\n"   \
    "                     a limit given alone is the only limit\n"                   \
    "  --alpha A          opacity of the faded copy in diff images, 0..1 (0.1)\n"      \
    "  --aa-color R,G,B   anti-aliased pixels in diff images (255,255,0)\n"          \
    "  --diff-color R,G,B differing pixels in diff images (255,0,0)\n"               \
    "  --diff-color-alt R,G,B  differing pixels where the second image is darker\n"  \
    "                     (default: --diff-color)\n"                                  \
    "  --diff-mask        diff images show only the differences, on transparency\n"  \
    "  --no-checkerboard  blend translucent pixels over white, not pixelmatch's\n"   \
    "                     checkerboard\n"

typedef struct rf_cmd_diff_opts {
    rf_diff_options_t diff;
    uint64_t max_pixels;
    double max_ratio;
    int alt_set;            /* --diff-color-alt was given */
    int pixels_set;         /* --max-diff-pixels was given */
    int ratio_set;          /* --max-diff-ratio was given */
} rf_cmd_diff_opts_t;

/* Defaults: RF_DIFF_OPTIONS_DEFAULT, limits 0 and 0. */
void rf_cmd_diff_opts_init(rf_cmd_diff_opts_t *d);
/* Parses option c (one of RF_OPT_*) with its argument: 0 when parsed, -1
 * when c is not a differ option, else the exit status of the one-line
 * error it printed (2). */
int rf_cmd_diff_opt(const rf_cmd_t *cmd, int c, const char *arg, rf_cmd_diff_opts_t *d);
/* After the last option: --diff-color-alt defaults to --diff-color, and a
 * limit given alone is the only limit (the other's 0 applies only when
 * neither is given). */
void rf_cmd_diff_opts_finish(rf_cmd_diff_opts_t *d);

#endif
