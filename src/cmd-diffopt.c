/* cmd-diffopt.c - the differ's options, shared by check and diff
 * (cmd-diffopt.h). */
#include "cmd-diffopt.h"
#include "numfmt.h"

#include <stdint.h>
#include <string.h>

/* In the order of the RF_OPT_* ids. */
const char rf_cmd_diff_options[] = "threshold: aa max-diff-pixels: max-diff-ratio: alpha: "
                                   "aa-color: diff-color: diff-color-alt: diff-mask "
                                   "no-checkerboard";

int rf_cmd_diff_opt(const rf_cmd_t *cmd, int c, const char *arg, rf_cmd_diff_opts_t *d)
{
    double x;
    long n;

    switch (c) {
    case RF_OPT_THRESHOLD:
        if (rf_num_parse(arg, &x) != 0 || x < 0 || x > 1)
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
        if (len >= sizeof buf || rf_num_parse(buf, &x) != 0 || x < 0 ||
            x > (pct ? 100 : 1))
            return rf_cmd_usage_error(cmd, "--max-diff-ratio must be a share from 0 to 1 or a "
                                           "percentage from 0%% to 100%%, got '%s'", arg);
        d->max_ratio = pct ? x / 100 : x;
        d->ratio_set = 1;
        return 0;
    }
    case RF_OPT_ALPHA:
        if (rf_num_parse(arg, &x) != 0 || x < 0 || x > 1)
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
        return rf_cmd_usage_error(cmd, "unknown differ option %d", c);
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
