/* cmd-diff.c - `runeframe diff A.png B.png [-o DIFF.png] ...`: two PNG
 * files compared with pixelmatch 7.2's measure (diff.h), streamed while
 * they decode on two threads (diffstream.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd-diffopt.h"
#include "diag.h"
#include "diff.h"
#include "diffstream.h"
#include "numfmt.h"
#include "pngio.h"

/* The option ids, in the order of .opts below. */
enum { OPT_OUTPUT };

/* The settings: the differ's options (-o is read from the arguments). */
static const rf_cmd_diff_opts_t diff_defaults = RF_CMD_DIFF_OPTS_DEFAULT;

static int diff_option(void *state, int id, const char *arg)
{
    return id >= RF_CMD_MORE ? rf_cmd_diff_opt(&rf_cmd_diff, id, arg, state) : 0;
}

static int diff_exec(void *state, const rf_cmd_args_t *args)
{
    rf_cmd_diff_opts_t d = *(const rf_cmd_diff_opts_t *)state;
    const char *out = args->opt[OPT_OUTPUT];
    rf_diffstream_t ds;
    rf_diffstream_options_t so;
    const rf_diffstream_side_t *a = &ds.side[0], *b = &ds.side[1];
    int status;
    rf_diff_result_t r;
    char pct[RF_NUM_BUF];

    rf_cmd_diff_opts_finish(&d);
    if (out != NULL && out[0] == '\0')
        return rf_cmd_usage_error(&rf_cmd_diff, "-o needs a file name, got ''");

    memset(&so, 0, sizeof so);
    so.diff = &d.diff;
    so.want_image = out != NULL;
    rf_diffstream_files(&ds, args->operands[0], args->operands[1], &so);

    if (a->st != RF_PNG_SUCCESS || b->st != RF_PNG_SUCCESS) {
        if (a->st != RF_PNG_SUCCESS)
            fprintf(stderr, "runeframe: diff: %s\n", a->err.message);
        /* diff X X: one file, one message */
        if (b->st != RF_PNG_SUCCESS &&
            (a->st == RF_PNG_SUCCESS || strcmp(a->err.message, b->err.message) != 0))
            fprintf(stderr, "runeframe: diff: %s\n", b->err.message);
        status = RF_EXIT_IO;
        goto done;
    }
    if (ds.status == RF_DIFFSTREAM_SIZE) {
        printf("sizes differ: %s is %ux%u, %s is %ux%u\n", a->path, a->width, a->height,
               b->path, b->width, b->height);
        status = RF_EXIT_DIFF;
        goto done;
    }
    if (ds.status == RF_DIFFSTREAM_NO_MEMORY) {
        fprintf(stderr, "runeframe: diff: out of memory\n");
        status = RF_EXIT_IO;
        goto done;
    }
    r = ds.diff;
    printf("different pixels: %llu (%s)\n", (unsigned long long)r.different,
           rf_num_percent(pct, (double)r.different / (double)r.pixels));
    if (!d.diff.include_aa && r.antialiased > 0)
        printf("anti-aliased pixels ignored: %llu\n", (unsigned long long)r.antialiased);
    if (out != NULL) {
        rf_png_options_t po = RF_PNG_OPTIONS_RENDER;
        rf_png_rgba_t di = { ds.image, a->width, a->height, a->info };
        rf_png_error_t perr;
        if (rf_png_write_rgba_path(&di, &po, out, 0, &perr) != RF_PNG_SUCCESS) {
            fflush(stdout);
            fprintf(stderr, "runeframe: diff: %s\n", perr.message);
            status = RF_EXIT_IO;
            goto done;
        }
    }
    status = rf_diff_within(&r, d.max_pixels, d.max_ratio) ? RF_EXIT_OK : RF_EXIT_DIFF;
done:
    rf_diffstream_destroy(&ds);
    return status;
}

const rf_cmd_t rf_cmd_diff = {
    .summary = "compare two PNG files with pixelmatch's measure",
    .help =
        "Compares two PNG files (any PNG: palette, gray, 16-bit, interlaced) pixel by\n"
        "pixel with pixelmatch 7.2's perceptual measure and prints\n"
        "'different pixels: N (P%)'. Exit status 0 when N is within the limits, 1 when\n"
        "it is not or the sizes differ, 3 when a file cannot be read as a PNG.\n"
        "Given the same options it counts the same pixels and draws the same diff\n"
        "image as pixelmatch; unlike pixelmatch it counts anti-aliased pixels unless\n"
        "--aa is given.\n"
        "\n"
        "Options:\n"
        "  -o DIFF.png        write the diff image (written atomically)\n"
        RF_CMD_DIFF_HELP,
    .usage = "A.png B.png [-o DIFF.png] [--threshold X] [--aa] [--max-diff-pixels N]\n"
             "                      [--max-diff-ratio R] [pixelmatch options]",
    .name = "diff", .opts = "o|output:", .more = rf_cmd_diff_options, /* cmd-diffopt.h */
    .operands = { "A.png", "B.png" }, .min_operands = 2, .max_operands = 2,
    .state_size = sizeof(rf_cmd_diff_opts_t), .defaults = &diff_defaults,
    .option = diff_option, .exec = diff_exec,
};
