/* cmd-render.c - `runeframe render SCENE ...`: a scene's frames as PNG files
 * in a folder, as a y4m or raw RGBA stream, or as a video through ffmpeg
 * (video.h). The frames themselves come from frames.c (threads, order,
 * reuse). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "cmd.h"
#include "diag.h"
#include "frames.h"
#include "pngio.h"
#include "scene.h"
#include "video.h"

/* The option ids, in the order of .opts below. */
enum {
    OPT_OUTPUT, OPT_FRAMES, OPT_JOBS, OPT_SHARD, OPT_FORMAT, OPT_QUIET, OPT_PNG_LEVEL,
    OPT_PNG_FILTER, OPT_NO_REUSE, OPT_CLEAN, OPT_SCALE, OPT_FPS,
};

typedef struct render_opts {
    const char *out;            /* -o, NULL: "frames" */
    const char *frames;         /* --frames A:B as given */
    long a, b;                  /* its bounds, -1 when a side is empty */
    long shard_k, shard_n;      /* 1/1 without --shard */
    long jobs;                  /* 0: online CPUs */
    int format;                 /* rf_frames_format_t */
    int has_format;
    rf_png_options_t png;
    int has_png;                /* --png-level or --png-filter given */
    int quiet;                  /* --quiet: no progress line, no note */
    double scale;               /* --scale S; 1 without */
    double fps;                 /* --fps F; 0 without */
} render_opts_t;

/* The signal that interrupted the render (SIGINT, SIGTERM, SIGHUP), or 0:
 * an atomic (lock-free on every target we build for) because the workers
 * read it too, not only this thread. */
static atomic_int render_signal;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "a signal handler stores to render_signal");

static void render_on_signal(int sig)
{
    atomic_store(&render_signal, sig);
}

/* "A:B" with either side empty; -1 for an empty side. */
static int render_parse_frames(const char *s, long *a, long *b)
{
    const char *colon = strchr(s, ':');
    char left[32];
    size_t ll;

    if (colon == NULL || strchr(colon + 1, ':') != NULL)
        return -1;
    ll = (size_t)(colon - s);
    if (ll >= sizeof left)
        return -1;
    memcpy(left, s, ll);
    left[ll] = '\0';
    *a = -1;
    *b = -1;
    if (ll > 0 && rf_cmd_parse_long(left, a) != 0)
        return -1;
    if (colon[1] != '\0' && rf_cmd_parse_long(colon + 1, b) != 0)
        return -1;
    return 0;
}

/* "K/N" with 1 <= K <= N. */
static int render_parse_shard(const char *s, long *k, long *n)
{
    const char *slash = strchr(s, '/');
    char left[32];
    size_t ll;

    if (slash == NULL)
        return -1;
    ll = (size_t)(slash - s);
    if (ll == 0 || ll >= sizeof left)
        return -1;
    memcpy(left, s, ll);
    left[ll] = '\0';
    if (rf_cmd_parse_long(left, k) != 0 || rf_cmd_parse_long(slash + 1, n) != 0)
        return -1;
    return *k >= 1 && *k <= *n ? 0 : -1;
}

/* -o, --quiet and --no-reuse are read from the arguments. */
static const render_opts_t render_defaults = {
    .a = -1, .b = -1, .shard_k = 1, .shard_n = 1, .png = RF_PNG_OPTIONS_RENDER, .scale = 1,
};

static int render_option(void *state, int id, const char *arg)
{
    render_opts_t *o = state;

    switch (id) {
    case OPT_FRAMES:
        if (render_parse_frames(arg, &o->a, &o->b) != 0)
            return rf_cmd_usage_error(&rf_cmd_render,
                                      "--frames must be A:B (frame indices, either may be "
                                      "empty), got '%s'", arg);
        if (o->a >= 0 && o->b >= 0 && o->a >= o->b)
            return rf_cmd_usage_error(&rf_cmd_render, "--frames '%s': A must be < B", arg);
        o->frames = arg;
        return 0;
    case OPT_JOBS:
        return rf_cmd_parse_jobs(&rf_cmd_render, arg, &o->jobs);
    case OPT_SHARD:
        if (render_parse_shard(arg, &o->shard_k, &o->shard_n) != 0)
            return rf_cmd_usage_error(&rf_cmd_render,
                                      "--shard must be K/N with 1 <= K <= N, got '%s'", arg);
        return 0;
    case OPT_FORMAT:
        if (strcmp(arg, "png") == 0)
            o->format = RF_FRAMES_PNG;
        else if (strcmp(arg, "y4m") == 0)
            o->format = RF_FRAMES_Y4M;
        else if (strcmp(arg, "rgba") == 0)
            o->format = RF_FRAMES_RGBA;
        else
            return rf_cmd_usage_error(&rf_cmd_render,
                                      "--format must be png, y4m or rgba, got '%s'", arg);
        o->has_format = 1;
        return 0;
    case OPT_PNG_LEVEL:
        o->has_png = 1;
        return rf_cmd_parse_png_level(&rf_cmd_render, arg, &o->png);
    case OPT_PNG_FILTER:
        o->has_png = 1;
        return rf_cmd_parse_png_filter(&rf_cmd_render, arg, &o->png);
    case OPT_SCALE:
        return rf_cmd_parse_scale(&rf_cmd_render, arg, &o->scale);
    case OPT_FPS:
        return rf_cmd_parse_fps(&rf_cmd_render, arg, &o->fps);
    default: /* -o, --quiet, --no-reuse: args */
        return 0;
    }
}

/* Reports a failed run: "runeframe: render: MESSAGE". */
static int render_run_error(const rf_frames_result_t *res)
{
    fprintf(stderr, "runeframe: render: %s\n", res->message);
    return res->undrawable ? RF_EXIT_USAGE : RF_EXIT_IO;
}

/* After an interrupted run: the signal's default action (the parent sees
 * the process killed by it, as it expects from Ctrl-C). */
static void render_reraise(void)
{
    int sig = atomic_load(&render_signal);

    if (sig == 0)
        return;
    fflush(NULL);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* ---------------------------------------------------------------- video */

static int render_video(const render_opts_t *o, const rf_scene_t *scene, rf_frames_job_t *job,
                        const char *ext)
{
    rf_video_t v;
    rf_video_spec_t spec;
    rf_frames_result_t res;
    char err[RF_FRAMES_ERR_LEN + 1024];
    int mp4 = strcasecmp(ext, ".mp4") == 0, mov = strcasecmp(ext, ".mov") == 0;
    int gif = strcasecmp(ext, ".gif") == 0;
    int status = RF_EXIT_IO, rc, close_failed;

    if (o->has_format)
        return rf_cmd_usage_error(&rf_cmd_render,
                                  "--format does not apply to -o %s (ffmpeg encodes the video)",
                                  o->out);
    if (o->has_png)
        return rf_cmd_usage_error(&rf_cmd_render, "--png-level and --png-filter apply to "
                                                  "PNG frames only");
    if (mp4 && (scene->width % 2 != 0 || scene->height % 2 != 0)) {
        fprintf(stderr, "runeframe: render: %s: mp4 (yuv420p) needs an even width and height, "
                        "the canvas is %dx%d (use .webm, or --format png)\n",
                o->out, scene->width, scene->height);
        return RF_EXIT_USAGE;
    }
    if (rf_video_create(&v, o->out, ext, err, sizeof err) != 0) {
        fprintf(stderr, "runeframe: render: %s\n", err);
        return RF_EXIT_IO;
    }
    /* mp4 has no alpha: frames go over black, as in y4m, which the canvas's
     * premultiplied colors are (bgr0: written straight from the canvas, no
     * conversion); webm, mov and gif keep the alpha (straight rgba). */
    job->format = mp4 ? RF_FRAMES_CANVAS : RF_FRAMES_RGBA;
    spec.width = scene->width;
    spec.height = scene->height;
    spec.fps = scene->fps;
    spec.pix_fmt = mp4 ? rf_frames_canvas_pix_fmt() : "rgba";
    spec.mp4 = mp4;
    spec.mov = mov;
    spec.webm = strcasecmp(ext, ".webm") == 0;
    spec.gif = gif;
    /* the whole scene plays for its duration; a part of it, for its frames */
    spec.duration = job->range.count == scene->nframes ? scene->duration
                                                       : (double)job->range.count / scene->fps;
    if (gif) {
        rf_video_gif_timing_t g;
        rf_video_gif_timing(scene->fps, spec.duration, &g);
        if (g.dropped && !o->quiet)
            fprintf(stderr, "runeframe: note: render: %s: %.4g fps shown at %.4g fps (GIF "
                            "delays are whole 1/100 s, and browsers slow those under 2/100 s)\n",
                    o->out, scene->fps, 100.0 / g.cs);
    }
    if (rf_video_start(&v, &spec, err, sizeof err) != 0) {
        fprintf(stderr, "runeframe: render: %s\n", err);
        goto out;
    }
    /* A dead ffmpeg must show up as EPIPE, not kill runeframe. */
    signal(SIGPIPE, SIG_IGN);
    job->out = v.pipe;
    job->out_name = "ffmpeg";
    rc = rf_frames_run(job, &res);
    errno = 0;
    close_failed = fclose(v.pipe) != 0;
    v.pipe = NULL;
    if (rc != 0 && res.sys_errno != EPIPE) {
        /* our failure (or an interrupt): ffmpeg's half-done video goes */
        rf_video_discard(&v);
        if (atomic_load(&render_signal) == 0)
            status = render_run_error(&res);
        goto out;
    }
    if (rf_video_finish(&v, rc != 0 || close_failed, err, sizeof err) != 0) {
        fprintf(stderr, "runeframe: render: %s\n", err);
        goto out;
    }
    status = RF_EXIT_OK;
out:
    rf_video_destroy(&v);
    return status;
}

/* ---------------------------------------------------------------- streams */

static int render_stream(const render_opts_t *o, const rf_scene_t *scene, rf_frames_job_t *job)
{
    rf_frames_result_t res;
    rf_atomic_file_t af;
    char err[RF_FRAMES_ERR_LEN];
    char header[128];
    size_t hl = 0;
    int to_stdout = strcmp(o->out, "-") == 0;
    int rc;

    if (o->has_png)
        return rf_cmd_usage_error(&rf_cmd_render, "--png-level and --png-filter apply to "
                                                  "PNG frames only");
    if (to_stdout && isatty(STDOUT_FILENO))
        return rf_cmd_usage_error(&rf_cmd_render, "refusing to write %s frames to a terminal: "
                                                  "redirect standard output or use -o FILE",
                                  job->format == RF_FRAMES_Y4M ? "y4m" : "rgba");
    if (to_stdout) {
        job->out = stdout;
        job->out_name = "standard output";
    } else {
        if (rf_atomic_file_open(&af, o->out, 0, err, sizeof err) != 0) {
            fprintf(stderr, "runeframe: render: %s\n", err);
            return RF_EXIT_IO;
        }
        job->out = af.fp;
        job->out_name = o->out;
    }
    if (job->format == RF_FRAMES_Y4M)
        hl = rf_frames_y4m_header(scene, header, sizeof header);
    errno = 0;
    if (hl > 0 && fwrite(header, 1, hl, job->out) != hl) {
        memset(&res, 0, sizeof res);
        snprintf(res.message, sizeof res.message, "%s: write failed: %s", job->out_name,
                 strerror(errno ? errno : EIO));
        rc = -1;
    } else {
        rc = rf_frames_run(job, &res);
    }
    if (to_stdout) {
        errno = 0;
        if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
            snprintf(res.message, sizeof res.message, "standard output: write failed: %s",
                     strerror(errno ? errno : EIO));
            rc = -1;
        }
    } else if (rc == 0) {
        if (rf_atomic_file_commit(&af, err, sizeof err) != 0) {
            snprintf(res.message, sizeof res.message, "%s", err);
            rc = -1;
        }
    } else {
        rf_atomic_file_abort(&af);
    }
    if (rc != 0) {
        if (atomic_load(&render_signal) != 0)
            return RF_EXIT_IO;
        return render_run_error(&res);
    }
    return RF_EXIT_OK;
}

/* ---------------------------------------------------------------- PNG */

/* The number N of a file named frame-N.png (N of 5 or more digits, as
 * render names frames), or -1. */
static long render_frame_number(const char *name)
{
    size_t n = strlen(name), d = 0;
    long v = 0;
    if (n < 15 || strncmp(name, "frame-", 6) != 0 || strcmp(name + n - 4, ".png") != 0)
        return -1;
    for (size_t i = 6; i < n - 4; i++, d++) {
        if (name[i] < '0' || name[i] > '9' || v > 99999999)
            return -1;
        v = v * 10 + (name[i] - '0');
    }
    return d >= 5 ? v : -1;
}

/* Frame files of dir: deletes every one (clean), or counts those that are
 * not frames of a scene of nframes frames into *stale with the first in
 * first. 0, or -1 with errno set by a failed deletion. */
static int render_frame_files(const char *dir, int clean, long nframes, long *stale,
                              char first[64])
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4200];
    long best = -1;
    *stale = 0;
    if (d == NULL)
        return 0;              /* not made yet: nothing stale */
    while ((e = readdir(d)) != NULL) {
        long k = render_frame_number(e->d_name);
        if (k < 0)
            continue;
        if (clean) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (unlink(path) != 0 && errno != ENOENT) {
                int saved = errno;
                closedir(d);
                errno = saved;
                return -1;
            }
        } else if (k >= nframes) {
            (*stale)++;
            if (best < 0 || k < best) {
                best = k;
                snprintf(first, 64, "%s", e->d_name);
            }
        }
    }
    closedir(d);
    return 0;
}

static int render_png(const render_opts_t *o, rf_frames_job_t *job, int clean)
{
    rf_frames_result_t res;
    char err[RF_FRAMES_ERR_LEN], first[64] = "";
    long stale;

    if (strcmp(o->out, "-") == 0)
        return rf_cmd_usage_error(&rf_cmd_render, "-o - streams frames: use --format y4m or "
                                                  "--format rgba (PNG frames go to a folder)");
    if (clean && o->shard_n > 1)
        return rf_cmd_usage_error(&rf_cmd_render, "--clean with --shard would delete the other "
                                                  "shards' frames: clean the folder before the "
                                                  "shards start");
    if (clean && render_frame_files(o->out, 1, 0, &stale, first) != 0) {
        fprintf(stderr, "runeframe: render: %s: cannot delete its frames: %s\n", o->out,
                strerror(errno));
        return RF_EXIT_IO;
    }
    if (rf_atomic_dir_create(o->out, err, sizeof err) != 0) {
        fprintf(stderr, "runeframe: render: %s\n", err);
        return RF_EXIT_IO;
    }
    job->dir = o->out;
    if (rf_frames_run(job, &res) != 0) {
        if (atomic_load(&render_signal) != 0)
            return RF_EXIT_IO;
        return render_run_error(&res);
    }
    /* frames of another scene left in the folder would be joined with
     * these by `ffmpeg -i frame-%05d.png` */
    if (render_frame_files(o->out, 0, job->scene->nframes, &stale, first) == 0 && stale > 0)
        fprintf(stderr, "runeframe: warning: render: %s holds %ld frame file%s that %s not "
                        "frames of this scene (%s%s); --clean deletes them first\n",
                o->out, stale, stale == 1 ? "" : "s", stale == 1 ? "is" : "are", first,
                stale > 1 ? " and more" : "");
    return RF_EXIT_OK;
}

/* -o is a folder, "-", or a video: a name with any other extension is a
 * mistake (cli.md "Outputs"), said before anything is made. An existing
 * folder may have a dot in its name; with --format y4m or rgba, -o FILE is
 * the stream's file and any name goes. */
static int render_check_name(const char *out)
{
    struct stat st;
    const char *base = strrchr(out, '/'), *dot;
    base = base != NULL ? base + 1 : out;
    dot = strrchr(base, '.');
    if (strcmp(out, "-") == 0 || rf_video_ext(out) != NULL || rf_video_has_ext(out, ".y4m") ||
        dot == NULL || dot == base || dot[1] == '\0' ||
        (stat(out, &st) == 0 && S_ISDIR(st.st_mode)))
        return 0;
    if (strcasecmp(dot, ".png") == 0)
        return rf_cmd_usage_error(&rf_cmd_render, "-o %s: render writes a folder of frames, - "
                                  "(a stream) or a video (.mp4, .webm, .mov, .gif); for one "
                                  "frame use 'runeframe seek SCENE --frame N -o %s'", out, out);
    return rf_cmd_usage_error(&rf_cmd_render, "-o %s: '%s' is not an output render writes: a "
                              "folder of frames, - (a stream), or a video .mp4, .webm, .mov "
                              "(ProRes 4444 with alpha) or .gif", out, dot);
}

/* The output and its format, from -o and --format together. */
static int render_check(void *state, const rf_cmd_args_t *args)
{
    render_opts_t *o = state;

    o->out = args->opt[OPT_OUTPUT];
    o->quiet = args->opt[OPT_QUIET] != NULL;
    if (o->out != NULL && !o->has_format && rf_video_has_ext(o->out, ".y4m")) {
        /* -o NAME.y4m says which stream it is */
        o->format = RF_FRAMES_Y4M;
        o->has_format = 1;
    }
    if (o->out == NULL)
        o->out = o->has_format && o->format != RF_FRAMES_PNG ? NULL : "frames";
    if (o->out == NULL)
        return rf_cmd_usage_error(&rf_cmd_render, "--format %s needs -o - (standard output) or "
                                                  "-o FILE",
                                  o->format == RF_FRAMES_Y4M ? "y4m" : "rgba");
    if (o->out[0] == '\0')
        return rf_cmd_usage_error(&rf_cmd_render, "-o needs a name, got ''");
    if (o->has_format && o->format != RF_FRAMES_PNG)
        return 0;               /* a stream into a file of any name */
    return render_check_name(o->out);
}

static double render_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int render_exec(void *state, const rf_cmd_args_t *args)
{
    const render_opts_t *o = state;
    rf_scene_t draft;           /* --scale and --fps: borrows args->scene */
    const rf_scene_t *scene = &draft;
    const char *ext = rf_video_ext(o->out);
    rf_frames_job_t job = { 0 };
    long a, b;
    int status;
    struct sigaction sa;
    char err[256];
    double t0 = render_now();
    /* on a terminal: a progress line, then one summary line (cli.md) */
    int summary = !o->quiet && isatty(STDERR_FILENO);

    if (rf_scene_draft(args->scene, o->scale, o->fps, &draft, err, sizeof err) != 0)
        return rf_cmd_usage_error(&rf_cmd_render, "%s", err);

    a = o->a < 0 ? 0 : o->a;
    b = o->b < 0 ? scene->nframes : o->b;
    if (a >= b && o->b >= 0) {
        /* ":0" (an empty A is 0) */
        return rf_cmd_usage_error(&rf_cmd_render, "--frames '%s': A must be < B", o->frames);
    }
    if (o->b > scene->nframes)
        return rf_cmd_usage_error(&rf_cmd_render, "--frames '%s': B must be <= %ld (the scene "
                                                  "has %ld frames)",
                                  o->frames, scene->nframes, scene->nframes);
    if (a >= scene->nframes)
        return rf_cmd_usage_error(&rf_cmd_render, "--frames '%s': A must be < %ld (the scene "
                                                  "has %ld frames)",
                                  o->frames, scene->nframes, scene->nframes);

    job.scene = scene;
    rf_frames_select(a, b, o->shard_k, o->shard_n, &job.range);
    job.format = (rf_frames_format_t)o->format;
    job.png = o->png;
    job.jobs = rf_cmd_jobs(o->jobs);
    job.reuse = args->opt[OPT_NO_REUSE] == NULL;
    /* the lint's renderer, when the draft is the scene itself */
    job.renderer = o->scale == 1 && o->fps == 0 ? args->renderer : NULL;
    job.progress = summary ? 2 : 0;
    job.interrupt = &render_signal;

    /* Ctrl-C and kill stop the workers between frames, so the run cleans
     * up (ffmpeg's temporary) before the signal takes its course. */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = render_on_signal;
    sa.sa_flags = SA_RESTART;    /* the flag is polled: no call needs EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);

    if (args->opt[OPT_CLEAN] != NULL && (ext != NULL || o->format != RF_FRAMES_PNG))
        return rf_cmd_usage_error(&rf_cmd_render, "--clean applies to a folder of PNG frames");
    if (ext != NULL)
        status = render_video(o, scene, &job, ext);
    else if (o->format == RF_FRAMES_PNG)
        status = render_png(o, &job, args->opt[OPT_CLEAN] != NULL);
    else
        status = render_stream(o, scene, &job);
    render_reraise();
    if (status == RF_EXIT_OK && summary)
        fprintf(stderr, "runeframe: render: %ld frame%s (%dx%d) to %s in %.1f s\n",
                job.range.count, job.range.count == 1 ? "" : "s", scene->width, scene->height,
                strcmp(o->out, "-") == 0 ? "standard output" : o->out, render_now() - t0);
    return status;
}

const rf_cmd_t rf_cmd_render = {
    .summary = "render frames to PNG files, a y4m or RGBA stream, or a video",
    .help =
        "Writes DIR/frame-00000.png ... (the frame index zero-padded to 5 digits,\n"
        "more when the scene has more frames), each file complete or absent.\n"
        "Frames whose used values are bit-identical to the previous frame's (every\n"
        "frame after all used values have settled) are encoded once and copied.\n"
        "\n"
        "Options:\n"
        "  -o DIR             the folder of PNG frames (default 'frames'), created\n"
        "                     when missing\n"
        "  -o -               with --format y4m or rgba: the stream on standard output\n"
        "  -o FILE            with --format y4m or rgba: the stream into FILE\n"
        "                     (-o NAME.y4m alone implies --format y4m)\n"
        "  -o NAME.mp4|.webm|.mov|.gif\n"
        "                     a video encoded by ffmpeg (which must be installed)\n"
        "  --frames A:B       frames A .. B-1 (either side may be empty)\n"
        "  --jobs N           N worker threads (default: online CPUs); the output\n"
        "                     does not depend on N\n"
        "  --shard K/N        only frames with index % N == K-1 (K = 1 .. N)\n"
        "  --format png       PNG files in a folder (default)\n"
        "  --format y4m       YUV4MPEG2, C444, BT.709 limited range, over black\n"
        "  --format rgba      raw 8-bit RGBA frames, straight alpha, no header\n"
        "  --quiet            no progress line (it is shown when stderr is a terminal)\n"
        "  --png-level L      PNG compression level 0..9 (default 1: fast; 7: small)\n"
        "  --png-filter F     PNG row filter: all (default), none, sub, up, avg, paeth\n"
        "  --no-reuse         draw and encode every frame, even copies (benchmarks)\n"
        "  --clean            delete the folder's frame-NNNNN.png files first (render\n"
        "                     warns about those that are not frames of this scene)\n"
        "  --scale S          a draft: the canvas round(width * S) x round(height * S)\n"
        "                     and everything on it scaled by S (0 < S <= 1)\n"
        "  --fps F            frame N at time N / F instead of N / the scene's fps\n"
        "                     (0 < F <= 1000; --frames counts these frames)\n",
    .usage = "SCENE [-o DIR] [--frames A:B] [--jobs N] [--shard K/N]\n"
             "                        [--format png|y4m|rgba] [--scale S] [--fps F] [--quiet]\n"
             "                        [--png-level L]",
    .name = "render",
    .opts = "o|output: frames: jobs: shard: format: quiet png-level: png-filter: no-reuse clean scale: fps:",
    RF_CMD_ONE_SCENE, .warns = 1, .lends_renderer = 1, .reduced_motion = 1,
    .state_size = sizeof(render_opts_t), .defaults = &render_defaults,
    .option = render_option, .check = render_check, .exec = render_exec,
};
