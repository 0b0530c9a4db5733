/* cmd-seek.c - `runeframe seek SCENE (--time T | --frame N) -o FILE.png`:
 * one frame at any time. Every value has a closed form, so the cost does
 * not depend on T. The frame comes from the same producer as `render`'s
 * (frames.c) with the same PNG options, so `--frame N` writes exactly the
 * bytes `render` writes for frame N. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic.h"
#include "cmd.h"
#include "diag.h"
#include "frames.h"
#include "pngio.h"
#include "scene.h"

enum { OPT_HELP = 256, OPT_TIME, OPT_FRAME, OPT_PNG_LEVEL, OPT_PNG_FILTER };

static const struct option seek_options[] = {
    { "time", required_argument, NULL, OPT_TIME },
    { "frame", required_argument, NULL, OPT_FRAME },
    { "output", required_argument, NULL, 'o' },
    { "png-level", required_argument, NULL, OPT_PNG_LEVEL },
    { "png-filter", required_argument, NULL, OPT_PNG_FILTER },
    { "help", no_argument, NULL, OPT_HELP },
    { NULL, 0, NULL, 0 },
};

typedef struct seek_opts {
    const char *out;
    const char *frame_arg;
    double time;
    long frame;
    int has_time, has_frame;
    rf_png_options_t png;
} seek_opts_t;

/* getopt_long's own messages are not in the house format: report the
 * offending option ourselves, with a suggestion for a near miss. */
/* Parses the options into o; returns -1 to go on, else an exit status. */
static int seek_parse_args(int argc, char **argv, seek_opts_t *o)
{
    int c;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:", seek_options, NULL)) != -1) {
        switch (c) {
        case 'o':
            o->out = optarg;
            break;
        case OPT_TIME:
            if (rf_cmd_parse_double(optarg, &o->time) != 0 || !(o->time >= 0))
                return rf_cmd_usage_error(&rf_cmd_seek, "--time must be a number >= 0, got '%s'",
                                          optarg);
            o->has_time = 1;
            break;
        case OPT_FRAME:
            if (rf_cmd_parse_long(optarg, &o->frame) != 0)
                return rf_cmd_usage_error(&rf_cmd_seek,
                                          "--frame must be a frame index (an integer >= 0), "
                                          "got '%s'", optarg);
            o->frame_arg = optarg;
            o->has_frame = 1;
            break;
        case OPT_PNG_LEVEL: {
            long l;
            if (rf_cmd_parse_long(optarg, &l) != 0 || l > 9)
                return rf_cmd_usage_error(&rf_cmd_seek,
                                          "--png-level must be an integer from 0 to 9, got '%s'",
                                          optarg);
            o->png.level = (int)l;
            break;
        }
        case OPT_PNG_FILTER:
            if (rf_png_filter_parse(optarg, &o->png.filter) != 0)
                return rf_cmd_usage_error(&rf_cmd_seek,
                                          "--png-filter must be none, sub, up, avg, paeth or "
                                          "all, got '%s'", optarg);
            break;
        case OPT_HELP:
            rf_cmd_print_help(&rf_cmd_seek, stdout);
            return RF_EXIT_OK;
        default:
            return rf_cmd_option_error(&rf_cmd_seek, seek_options, c, argv);
        }
    }
    if (optind >= argc)
        return rf_cmd_usage_error(&rf_cmd_seek, "missing SCENE");
    if (argc - optind > 1)
        return rf_cmd_usage_error(&rf_cmd_seek, "unexpected argument '%s'", argv[optind + 1]);
    if (o->has_time && o->has_frame)
        return rf_cmd_usage_error(&rf_cmd_seek, "--time and --frame cannot be combined");
    if (!o->has_time && !o->has_frame)
        return rf_cmd_usage_error(&rf_cmd_seek, "missing --time T or --frame N");
    if (o->out == NULL)
        return rf_cmd_usage_error(&rf_cmd_seek, "missing -o FILE.png");
    if (o->out[0] == '\0')
        return rf_cmd_usage_error(&rf_cmd_seek, "-o needs a file name, got ''");
    if (strcmp(o->out, "-") == 0 && isatty(STDOUT_FILENO))
        return rf_cmd_usage_error(&rf_cmd_seek, "refusing to write a PNG to a terminal: "
                                                "redirect standard output or use -o FILE.png");
    return -1;
}

static int seek_exec(int argc, char **argv)
{
    rf_png_options_t def = RF_PNG_OPTIONS_RENDER;
    seek_opts_t o = { 0 };
    rf_scene_t *scene;
    rf_frames_producer_t *p = NULL;
    char err[RF_FRAMES_ERR_LEN];
    const uint8_t *data;
    size_t len;
    double t;
    int status;

    o.png = def;
    status = seek_parse_args(argc, argv, &o);
    if (status >= 0)
        return status;
    scene = rf_cmd_load_scene(argv[optind], &status);
    if (scene == NULL)
        return status;
    if (o.has_frame && o.frame >= scene->nframes) {
        status = rf_cmd_usage_error(&rf_cmd_seek, "--frame '%s': N must be < %ld (the scene has "
                                                  "%ld frames)",
                                    o.frame_arg, scene->nframes, scene->nframes);
        goto out;
    }
    /* The same time render gives frame N: one division (scene.h). */
    t = o.has_frame ? rf_scene_frame_time(scene, o.frame) : o.time;

    p = rf_frames_producer_create(scene, RF_FRAMES_PNG, &o.png, 0, err, sizeof err);
    if (p == NULL || rf_frames_produce(p, t, &data, &len, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "runeframe: seek: %s\n", err);
        status = RF_EXIT_IO;
        goto out;
    }
    if (strcmp(o.out, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
            fprintf(stderr, "runeframe: seek: standard output: write failed: %s\n",
                    strerror(errno));
            status = RF_EXIT_IO;
            goto out;
        }
    } else if (rf_atomic_file_write(o.out, data, len, 0, err, sizeof err) != 0) {
        fprintf(stderr, "runeframe: seek: %s\n", err);
        status = RF_EXIT_IO;
        goto out;
    }
    status = RF_EXIT_OK;
out:
    rf_frames_producer_destroy(p);
    rf_scene_destroy(scene);
    return status;
}

const rf_cmd_t rf_cmd_seek = {
    .name = "seek",
    .usage = "SCENE (--time T | --frame N) -o FILE.png [--png-level L]",
    .summary = "render one frame at any time to a PNG file",
    .help =
        "Renders the frame at time T (seconds, any finite T >= 0, on the frame\n"
        "grid or not) or frame N. Seeking costs the same at any T: every value\n"
        "has a closed form. '--frame N' writes exactly the bytes that 'render'\n"
        "writes for frame N (given the same PNG options).\n"
        "\n"
        "Options:\n"
        "  --time T           the time in seconds\n"
        "  --frame N          frame N (0 .. frames-1), at time N / fps\n"
        "  -o FILE.png        the output, written atomically; '-' for standard output\n"
        "  --png-level L      zlib level 0..9 (default 1, as render)\n"
        "  --png-filter F     PNG row filter: none (default), sub, up, avg, paeth, all\n"
        "  --help             print this help and exit\n",
    .exec = seek_exec,
};
