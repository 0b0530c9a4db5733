/* cmd-diffopt.h - the differ's options, shared by `check` and `diff`.
 *
 * Owns: rf_cmd_diff_options (their declarative entries, for an rf_cmd_t's
 * .more), RF_CMD_DIFF_HELP (their help lines) and rf_cmd_diff_opts_t (what
 * they set: pixelmatch's options and the pass limits), with the parsing of
 * each option's argument and the rule of the two limits.
 * Thread-safety: main thread only, as the command line (cmd.h).
 */
#ifndef RF_CMD_DIFFOPT_H
#define RF_CMD_DIFFOPT_H

#include <stdint.h>

#include "cmd.h"
#include "diff.h"

/* The option ids, in the order of rf_cmd_diff_options. */
enum {
    RF_OPT_THRESHOLD = RF_CMD_MORE, RF_OPT_AA, RF_OPT_MAX_DIFF_PIXELS, RF_OPT_MAX_DIFF_RATIO,
    RF_OPT_ALPHA, RF_OPT_AA_COLOR, RF_OPT_DIFF_COLOR, RF_OPT_DIFF_COLOR_ALT,
    RF_OPT_DIFF_MASK, RF_OPT_NO_CHECKERBOARD,
};

/* Their spec (cmd.h): an rf_cmd_t's .more. */
extern const char rf_cmd_diff_options[];

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

/* Defaults: RF_DIFF_OPTIONS_DEFAULT, limits 0 and 0 (an initializer). */
#define RF_CMD_DIFF_OPTS_DEFAULT { .diff = RF_DIFF_OPTIONS_DEFAULT }
/* Takes option id (one of RF_OPT_*, as rf_cmd_t.option gets it) with its
 * argument: 0, or the exit status of the one-line error it printed (2). */
int rf_cmd_diff_opt(const rf_cmd_t *cmd, int id, const char *arg, rf_cmd_diff_opts_t *d);
/* After the last option: --diff-color-alt defaults to --diff-color, and a
 * limit given alone is the only limit (the other's 0 applies only when
 * neither is given). */
void rf_cmd_diff_opts_finish(rf_cmd_diff_opts_t *d);

#endif
