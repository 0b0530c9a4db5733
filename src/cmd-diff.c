/* cmd-diff.c - `runeframe diff A.png B.png [-o DIFF.png] ...`: two PNG
 * files compared with pixelmatch 7.2's measure (diff.h). The two files
 * are decoded at the same time on two threads; the comparison skips equal
 * rows. */
#include <getopt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diag.h"
#include "diff.h"
#include "numfmt.h"
#include "pngio.h"

enum { OPT_HELP = 256 };

static const struct option diff_options[] = {
    { "output", required_argument, NULL, 'o' },
    RF_CMD_DIFF_LONG_OPTIONS,
    { "help", no_argument, NULL, OPT_HELP },
    { NULL, 0, NULL, 0 },
};

/* One file decoded on its own thread. */
typedef struct diff_side {
    const char *path;
    rf_png_rgba_t img;
    rf_png_error_t err;
    rf_png_status_t st;
} diff_side_t;

static void *diff_decode(void *arg)
{
    diff_side_t *s = arg;
    s->st = rf_png_read_path(s->path, &s->img, &s->err);
    return NULL;
}

static int diff_exec(int argc, char **argv)
{
    rf_cmd_diff_opts_t d;
    const char *out = NULL;
    diff_side_t a, b;
    pthread_t thread;
    int threaded, c, status;
    uint8_t *img = NULL;
    rf_diff_result_t r;
    char pct[RF_NUM_BUF];

    rf_cmd_diff_opts_init(&d);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:", diff_options, NULL)) != -1) {
        if (c == 'o') {
            out = optarg;
            continue;
        }
        if (c == OPT_HELP) {
            rf_cmd_print_help(&rf_cmd_diff, stdout);
            return RF_EXIT_OK;
        }
        status = rf_cmd_diff_opt(&rf_cmd_diff, c, optarg, &d);
        if (status > 0)
            return status;
        if (status < 0)
            return rf_cmd_option_error(&rf_cmd_diff, diff_options, c, argv);
    }
    rf_cmd_diff_opts_finish(&d);
    if (argc - optind < 2)
        return rf_cmd_usage_error(&rf_cmd_diff, argc - optind == 0 ? "missing A.png and B.png"
                                                                   : "missing B.png");
    if (argc - optind > 2)
        return rf_cmd_usage_error(&rf_cmd_diff, "unexpected argument '%s'", argv[optind + 2]);
    if (out != NULL && out[0] == '\0')
        return rf_cmd_usage_error(&rf_cmd_diff, "-o needs a file name, got ''");

    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.path = argv[optind];
    b.path = argv[optind + 1];
    threaded = pthread_create(&thread, NULL, diff_decode, &b) == 0;
    diff_decode(&a);
    if (threaded)
        pthread_join(thread, NULL);
    else
        diff_decode(&b);

    if (a.st != RF_PNG_SUCCESS || b.st != RF_PNG_SUCCESS) {
        if (a.st != RF_PNG_SUCCESS)
            fprintf(stderr, "runeframe: diff: %s\n", a.err.message);
        if (b.st != RF_PNG_SUCCESS)
            fprintf(stderr, "runeframe: diff: %s\n", b.err.message);
        status = RF_EXIT_IO;
        goto done;
    }
    if (a.img.width != b.img.width || a.img.height != b.img.height) {
        printf("sizes differ: %s is %ux%u, %s is %ux%u\n", a.path, a.img.width, a.img.height,
               b.path, b.img.width, b.img.height);
        status = RF_EXIT_DIFF;
        goto done;
    }
    if (out != NULL) {
        size_t bytes = (size_t)a.img.width * a.img.height * 4;
        /* pixelmatch's mask leaves undrawn pixels transparent */
        img = d.diff.diff_mask ? calloc(1, bytes) : malloc(bytes);
        if (img == NULL) {
            fprintf(stderr, "runeframe: diff: out of memory\n");
            status = RF_EXIT_IO;
            goto done;
        }
    }
    rf_diff_rgba(a.img.pixels, b.img.pixels, img, a.img.width, a.img.height, &d.diff, &r);
    printf("different pixels: %llu (%s)\n", (unsigned long long)r.different,
           rf_num_percent(pct, (double)r.different / (double)r.pixels));
    if (!d.diff.include_aa && r.antialiased > 0)
        printf("anti-aliased pixels ignored: %llu\n", (unsigned long long)r.antialiased);
    if (out != NULL) {
        rf_png_options_t po = RF_PNG_OPTIONS_RENDER;
        rf_png_rgba_t di = { img, a.img.width, a.img.height, a.img.info };
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
    free(img);
    rf_png_rgba_free(&a.img);
    rf_png_rgba_free(&b.img);
    return status;
}

const rf_cmd_t rf_cmd_diff = {
    .name = "diff",
    .usage = "A.png B.png [-o DIFF.png] [--threshold X] [--aa] [--max-diff-pixels N]\n"
             "                      [--max-diff-ratio R] [pixelmatch options]",
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
        RF_CMD_DIFF_HELP
        "  --help             print this help and exit\n",
    .exec = diff_exec,
};
