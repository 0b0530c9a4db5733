/* cmd-seek.c - `runeframe seek SCENE (--time T | --frame N) -o FILE.png`:
 * one frame at any time. Every value has a closed form, so the cost does
 * not depend on T. The frame comes from the same producer as `render`'s
 * (frames.c) with the same PNG options, so `--frame N` writes exactly the
 * bytes `render` writes for frame N. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic.h"
#include "cmd.h"
#include "diag.h"
#include "frames.h"
#include "numfmt.h"
#include "pngio.h"
#include "render.h"
#include "scene.h"

/* The option ids, in the order of .opts below. */
enum { OPT_TIME, OPT_FRAME, OPT_OUTPUT, OPT_PNG_LEVEL, OPT_PNG_FILTER, OPT_SCALE };

typedef struct seek_opts {
    const char *frame_arg;
    double time;
    long frame;
    int has_time, has_frame;
    double scale;               /* --scale S; 1 without */
    rf_png_options_t png;
} seek_opts_t;

static const seek_opts_t seek_defaults = { .scale = 1, .png = RF_PNG_OPTIONS_RENDER };

static int seek_option(void *state, int id, const char *arg)
{
    seek_opts_t *o = state;

    switch (id) {
    case OPT_TIME:
        if (rf_num_parse(arg, &o->time) != 0 || !(o->time >= 0))
            return rf_cmd_usage_error(&rf_cmd_seek, "--time must be a number >= 0, got '%s'",
                                      arg);
        o->has_time = 1;
        return 0;
    case OPT_FRAME:
        if (rf_cmd_parse_long(arg, &o->frame) != 0)
            return rf_cmd_usage_error(&rf_cmd_seek,
                                      "--frame must be a frame index (an integer >= 0), "
                                      "got '%s'", arg);
        o->frame_arg = arg;
        o->has_frame = 1;
        return 0;
    case OPT_PNG_LEVEL:
        return rf_cmd_parse_png_level(&rf_cmd_seek, arg, &o->png);
    case OPT_PNG_FILTER:
        return rf_cmd_parse_png_filter(&rf_cmd_seek, arg, &o->png);
    case OPT_SCALE:
        return rf_cmd_parse_scale(&rf_cmd_seek, arg, &o->scale);
    default: /* -o: args */
        return 0;
    }
}

static int seek_check(void *state, const rf_cmd_args_t *args)
{
    const seek_opts_t *o = state;
    const char *out = args->opt[OPT_OUTPUT];

    if (o->has_time && o->has_frame)
        return rf_cmd_usage_error(&rf_cmd_seek, "--time and --frame cannot be combined");
    if (!o->has_time && !o->has_frame)
        return rf_cmd_usage_error(&rf_cmd_seek, "missing --time T or --frame N");
    if (out == NULL)
        return rf_cmd_usage_error(&rf_cmd_seek, "missing -o FILE.png");
    if (out[0] == '\0')
        return rf_cmd_usage_error(&rf_cmd_seek, "-o needs a file name, got ''");
    if (strcmp(out, "-") == 0 && isatty(STDOUT_FILENO))
        return rf_cmd_usage_error(&rf_cmd_seek, "refusing to write a PNG to a terminal: "
                                                "redirect standard output or use -o FILE.png");
    return 0;
}

static int seek_exec(void *state, const rf_cmd_args_t *args)
{
    const seek_opts_t *o = state;
    const char *out = args->opt[OPT_OUTPUT];
    rf_scene_t draft;           /* --scale: borrows args->scene */
    const rf_scene_t *scene = &draft;
    rf_frames_producer_t *p = NULL;
    char err[RF_FRAMES_ERR_LEN];
    const uint8_t *data;
    size_t len;
    double t;
    int status, produced = 0;

    (void)rf_scene_draft(args->scene, o->scale, 0, &draft, err, sizeof err);
    if (o->has_frame && o->frame >= scene->nframes) {
        return rf_cmd_usage_error(&rf_cmd_seek, "--frame '%s': N must be < %ld (the scene has "
                                                "%ld frames)",
                                  o->frame_arg, scene->nframes, scene->nframes);
    }
    /* The same time render gives frame N: one division (scene.h). */
    t = o->has_frame ? rf_scene_frame_time(scene, o->frame) : o->time;

    /* one frame: every core it may use encodes and draws it (the same bytes) */
    int cpus = rf_cmd_cpus();
    rf_png_options_t png = o->png;
    png.threads = cpus;
    /* the lint's renderer, when the draft is the scene itself */
    p = rf_frames_producer_create_with(scene, RF_FRAMES_PNG, &png, 0,
                                       o->scale == 1 ? args->renderer : NULL, err, sizeof err);
    if (p != NULL)
        rf_frames_producer_set_threads(p, cpus);
    if (p == NULL || (produced = rf_frames_produce(p, t, &data, &len, NULL, err,
                                                   sizeof err)) != 0) {
        fprintf(stderr, "runeframe: seek: %s\n", err);
        status = produced == RF_RENDER_UNDRAWABLE ? RF_EXIT_USAGE : RF_EXIT_IO;
        goto out;
    }
    if (strcmp(out, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
            fprintf(stderr, "runeframe: seek: standard output: write failed: %s\n",
                    strerror(errno));
            status = RF_EXIT_IO;
            goto out;
        }
    } else if (rf_atomic_file_write(out, data, len, 0, err, sizeof err) != 0) {
        fprintf(stderr, "runeframe: seek: %s\n", err);
        status = RF_EXIT_IO;
        goto out;
    }
    status = RF_EXIT_OK;
out:
    rf_frames_producer_destroy(p);
    return status;
}

const rf_cmd_t rf_cmd_seek = {
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
        "  --png-level L      PNG compression level 0..9 (default 1, as render)\n"
        "  --png-filter F     PNG row filter: all (default), none, sub, up, avg, paeth\n"
        "  --scale S          a draft: the canvas round(width * S) x round(height * S)\n"
        "                     and everything on it scaled by S (0 < S <= 1)\n",
    .usage = "SCENE (--time T | --frame N) -o FILE.png [--scale S] [--png-level L]",
    .name = "seek", .opts = "time: frame: o|output: png-level: png-filter: scale:",
    RF_CMD_ONE_SCENE, .warns = 1, .lends_renderer = 1, .reduced_motion = 1,
    .state_size = sizeof(seek_opts_t), .defaults = &seek_defaults,
    .option = seek_option, .check = seek_check, .exec = seek_exec,
};
