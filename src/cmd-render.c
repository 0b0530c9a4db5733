/* cmd-render.c - `runeframe render SCENE ...`: a scene's frames as PNG files
 * in a folder, as a y4m or raw RGBA stream, or as a video through ffmpeg.
 * The frames themselves come from frames.c (threads, order, reuse). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic.h"
#include "cmd.h"
#include "diag.h"
#include "frames.h"
#include "pngio.h"
#include "scene.h"

extern char **environ;

enum {
    OPT_HELP = 256, OPT_FRAMES, OPT_JOBS, OPT_SHARD, OPT_FORMAT, OPT_QUIET, OPT_PNG_LEVEL,
    OPT_PNG_FILTER, OPT_NO_REUSE,
};

static const struct option render_options[] = {
    { "output", required_argument, NULL, 'o' },
    { "frames", required_argument, NULL, OPT_FRAMES },
    { "jobs", required_argument, NULL, OPT_JOBS },
    { "shard", required_argument, NULL, OPT_SHARD },
    { "format", required_argument, NULL, OPT_FORMAT },
    { "quiet", no_argument, NULL, OPT_QUIET },
    { "png-level", required_argument, NULL, OPT_PNG_LEVEL },
    { "png-filter", required_argument, NULL, OPT_PNG_FILTER },
    { "no-reuse", no_argument, NULL, OPT_NO_REUSE },
    { "help", no_argument, NULL, OPT_HELP },
    { NULL, 0, NULL, 0 },
};

typedef struct render_opts {
    const char *out;            /* -o, NULL: "frames" */
    const char *frames;         /* --frames A:B as given */
    long a, b;                  /* its bounds, -1 when a side is empty */
    long shard_k, shard_n;      /* 1/1 without --shard */
    long jobs;                  /* 0: online CPUs */
    int format;                 /* rf_frames_format_t */
    int has_format;
    int quiet;
    int reuse;
    rf_png_options_t png;
    int has_png;                /* --png-level or --png-filter given */
} render_opts_t;

/* The signal that interrupted the render (SIGINT, SIGTERM, SIGHUP), or 0. */
static volatile sig_atomic_t render_signal;

static void render_on_signal(int sig)
{
    render_signal = sig;
}

/* getopt_long's own messages are not in the house format: report the
 * offending option ourselves, with a suggestion for a near miss. */
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

/* Parses the options into o; returns -1 to go on, else an exit status. */
static int render_parse_args(int argc, char **argv, render_opts_t *o)
{
    int c;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:", render_options, NULL)) != -1) {
        switch (c) {
        case 'o':
            o->out = optarg;
            break;
        case OPT_FRAMES:
            if (render_parse_frames(optarg, &o->a, &o->b) != 0)
                return rf_cmd_usage_error(&rf_cmd_render,
                                          "--frames must be A:B (frame indices, either may be "
                                          "empty), got '%s'", optarg);
            if (o->a >= 0 && o->b >= 0 && o->a >= o->b)
                return rf_cmd_usage_error(&rf_cmd_render, "--frames '%s': A must be < B", optarg);
            o->frames = optarg;
            break;
        case OPT_JOBS:
            if (rf_cmd_parse_long(optarg, &o->jobs) != 0 || o->jobs < 1 ||
                o->jobs > RF_FRAMES_MAX_JOBS)
                return rf_cmd_usage_error(&rf_cmd_render,
                                          "--jobs must be an integer from 1 to %d, got '%s'",
                                          RF_FRAMES_MAX_JOBS, optarg);
            break;
        case OPT_SHARD:
            if (render_parse_shard(optarg, &o->shard_k, &o->shard_n) != 0)
                return rf_cmd_usage_error(&rf_cmd_render,
                                          "--shard must be K/N with 1 <= K <= N, got '%s'",
                                          optarg);
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "png") == 0)
                o->format = RF_FRAMES_PNG;
            else if (strcmp(optarg, "y4m") == 0)
                o->format = RF_FRAMES_Y4M;
            else if (strcmp(optarg, "rgba") == 0)
                o->format = RF_FRAMES_RGBA;
            else
                return rf_cmd_usage_error(&rf_cmd_render,
                                          "--format must be png, y4m or rgba, got '%s'", optarg);
            o->has_format = 1;
            break;
        case OPT_QUIET:
            o->quiet = 1;
            break;
        case OPT_PNG_LEVEL: {
            long l;
            if (rf_cmd_parse_long(optarg, &l) != 0 || l > 9)
                return rf_cmd_usage_error(&rf_cmd_render,
                                          "--png-level must be an integer from 0 to 9, got '%s'",
                                          optarg);
            o->png.level = (int)l;
            o->has_png = 1;
            break;
        }
        case OPT_PNG_FILTER:
            if (rf_png_filter_parse(optarg, &o->png.filter) != 0)
                return rf_cmd_usage_error(&rf_cmd_render,
                                          "--png-filter must be none, sub, up, avg, paeth or "
                                          "all, got '%s'", optarg);
            o->has_png = 1;
            break;
        case OPT_NO_REUSE:
            o->reuse = 0;
            break;
        case OPT_HELP:
            rf_cmd_print_help(&rf_cmd_render, stdout);
            return RF_EXIT_OK;
        default:
            return rf_cmd_option_error(&rf_cmd_render, render_options, c, argv);
        }
    }
    if (optind >= argc)
        return rf_cmd_usage_error(&rf_cmd_render, "missing SCENE");
    if (argc - optind > 1)
        return rf_cmd_usage_error(&rf_cmd_render, "unexpected argument '%s'", argv[optind + 1]);
    return -1;
}

/* Whether out is NAME + ext (any case; NAME not empty, not a folder). */
static int render_has_ext(const char *out, const char *ext)
{
    size_t n = strlen(out), e = strlen(ext);

    return n > e && strcasecmp(out + n - e, ext) == 0 && out[n - e - 1] != '/';
}

/* The extension of a video output (".mp4", ".webm", ".gif", any case), or
 * NULL. */
static const char *render_video_ext(const char *out)
{
    static const char *const exts[] = { ".mp4", ".webm", ".gif" };

    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (render_has_ext(out, exts[i]))
            return out + strlen(out) - strlen(exts[i]);
    return NULL;
}

/* Reports a failed run: "runeframe: render: MESSAGE". */
static int render_run_error(const rf_frames_result_t *res)
{
    fprintf(stderr, "runeframe: render: %s\n", res->message);
    return RF_EXIT_IO;
}

/* After an interrupted run: the signal's default action (the parent sees
 * the process killed by it, as it expects from Ctrl-C). */
static void render_reraise(void)
{
    int sig = render_signal;

    if (sig == 0)
        return;
    fflush(NULL);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* ---------------------------------------------------------------- video */

typedef struct video {
    const char *out;            /* NAME.EXT as given */
    char *tmp;                  /* NAME.tmp.EXT, what ffmpeg writes */
    pid_t pid;
    FILE *pipe;                 /* ffmpeg's standard input */
    FILE *errlog;               /* ffmpeg's standard error (an unnamed temporary) */
} video_t;

/* NAME.EXT -> NAME.tmp.EXT, beside it: ffmpeg picks the container by the
 * extension, so the temporary keeps it. A relative NAME gets "./" in front:
 * ffmpeg would take "-x.tmp.mp4" for an option and "pipe:1.tmp.mp4" or
 * "x:y.tmp.mp4" for a protocol, never for a file. */
static char *video_tmp_name(const char *out, const char *ext)
{
    size_t stem = (size_t)(ext - out);
    size_t dot = out[0] == '/' ? 0 : 2;
    char *tmp = malloc(strlen(out) + 5 + dot);

    if (tmp == NULL)
        return NULL;
    memcpy(tmp, "./", dot);
    memcpy(tmp + dot, out, stem);
    memcpy(tmp + dot + stem, ".tmp", 4);
    strcpy(tmp + dot + stem + 4, ext);
    return tmp;
}

/* Whether a line of ffmpeg's says why it failed: not "Error initializing
 * output stream 0:0 -- " (its reason left empty, after the line that had
 * it), not "Last message repeated 3 times", not blank. */
static int video_line_says_why(const char *line)
{
    size_t n = strlen(line);

    while (n > 0 && line[n - 1] == ' ')
        n--;
    if (n == 0 || (n >= 2 && line[n - 1] == '-' && line[n - 2] == '-'))
        return 0;
    return strstr(line, "Last message repeated") == NULL;
}

/* The last line of ffmpeg's standard error that says why (else the last
 * non-empty line), into buf. */
static void video_last_line(video_t *v, char *buf, size_t cap)
{
    char chunk[4096];
    size_t n;
    long size;

    buf[0] = '\0';
    if (v->errlog == NULL || fflush(v->errlog) != 0 || fseek(v->errlog, 0, SEEK_END) != 0)
        return;
    size = ftell(v->errlog);
    if (size <= 0)
        return;
    if (fseek(v->errlog, size > (long)sizeof chunk - 1 ? size - (long)sizeof chunk + 1 : 0,
              SEEK_SET) != 0)
        return;
    n = fread(chunk, 1, sizeof chunk - 1, v->errlog);
    chunk[n] = '\0';
    while (n > 0 && (chunk[n - 1] == '\n' || chunk[n - 1] == '\r' || chunk[n - 1] == ' '))
        chunk[--n] = '\0';
    char *line = chunk + n, *last = NULL;
    for (;;) {
        while (line > chunk && line[-1] != '\n' && line[-1] != '\r')
            line--;
        if (last == NULL)
            last = line;
        if (video_line_says_why(line) || line == chunk)
            break;
        line[-1] = '\0';    /* end the line before and look at it */
        line--;
    }
    if (!video_line_says_why(line))
        line = last;
    n = strlen(line);
    if (n >= cap)
        n = cap - 1;   /* one line of a message: its start is what matters */
    memcpy(buf, line, n);
    buf[n] = '\0';
}

/* Starts ffmpeg reading raw frames of format on its standard input and
 * writing v->tmp. Returns 0, or an exit status with the error printed. */
static int video_start(video_t *v, const rf_scene_t *scene, rf_frames_format_t format,
                       int mp4)
{
    char size[64], rate[64];
    uint32_t num, den;
    int fds[2] = { -1, -1 };
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    int e;
    char *argv[32];
    int k = 0;

    rf_frames_fps_rational(scene->fps, &num, &den);
    snprintf(size, sizeof size, "%dx%d", scene->width, scene->height);
    snprintf(rate, sizeof rate, "%u/%u", (unsigned)num, (unsigned)den);
    argv[k++] = "ffmpeg";
    argv[k++] = "-hide_banner";
    argv[k++] = "-loglevel";
    argv[k++] = "error";
    argv[k++] = "-y";
    argv[k++] = "-f";
    argv[k++] = "rawvideo";
    argv[k++] = "-pix_fmt";
    argv[k++] = format == RF_FRAMES_RGB ? "rgb24" : "rgba";
    argv[k++] = "-s";
    argv[k++] = size;
    argv[k++] = "-r";
    argv[k++] = rate;
    argv[k++] = "-i";
    argv[k++] = "-";
    if (mp4) {
        argv[k++] = "-pix_fmt";
        argv[k++] = "yuv420p";
    }
    argv[k++] = v->tmp;
    argv[k] = NULL;

    v->errlog = tmpfile();
    if (v->errlog == NULL) {
        fprintf(stderr, "runeframe: render: cannot create a temporary file for ffmpeg's "
                        "messages: %s\n", strerror(errno));
        return RF_EXIT_IO;
    }
    if (pipe2(fds, O_CLOEXEC) != 0) {
        fprintf(stderr, "runeframe: render: cannot create a pipe to ffmpeg: %s\n",
                strerror(errno));
        return RF_EXIT_IO;
    }
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
    posix_spawn_file_actions_adddup2(&fa, fileno(v->errlog), 2);
    posix_spawnattr_init(&attr);
    /* Its own process group: Ctrl-C reaches runeframe only, which then
     * stops ffmpeg and removes the temporary itself. */
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    e = posix_spawnp(&v->pid, "ffmpeg", &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(fds[0]);
    if (e != 0) {
        close(fds[1]);
        v->pid = 0;
        if (e == ENOENT)
            fprintf(stderr, "runeframe: render: ffmpeg not found: install ffmpeg to write %s "
                            "(or use --format png)\n", v->out);
        else
            fprintf(stderr, "runeframe: render: cannot start ffmpeg: %s\n", strerror(e));
        return RF_EXIT_IO;
    }
    /* A frame or more in the pipe, not 64 KiB: ffmpeg and the workers
     * stall each other less (best effort; the default size still works). */
    (void)fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
    v->pipe = fdopen(fds[1], "wb");
    if (v->pipe == NULL) {
        fprintf(stderr, "runeframe: render: cannot write to ffmpeg: %s\n", strerror(errno));
        close(fds[1]);
        return RF_EXIT_IO;
    }
    return RF_EXIT_OK;
}

/* Waits for ffmpeg; returns its wait status, or -1. */
static int video_wait(video_t *v)
{
    int st;

    if (v->pid <= 0)
        return -1;
    while (waitpid(v->pid, &st, 0) < 0) {
        if (errno != EINTR) {
            v->pid = 0;
            return -1;
        }
    }
    v->pid = 0;
    return st;
}

/* Describes a failed ffmpeg: its status and last message. */
static void video_report(video_t *v, int st)
{
    char last[1024];

    video_last_line(v, last, sizeof last);
    if (st != -1 && WIFSIGNALED(st))
        fprintf(stderr, "runeframe: render: ffmpeg was killed by signal %d%s%s\n", WTERMSIG(st),
                last[0] ? ": " : "", last);
    else
        fprintf(stderr, "runeframe: render: ffmpeg failed (exit status %d)%s%s\n",
                st == -1 ? -1 : WEXITSTATUS(st), last[0] ? ": " : "", last);
}

/* Stops a running ffmpeg and removes what it wrote. */
static void video_discard(video_t *v)
{
    if (v->pipe != NULL) {
        fclose(v->pipe);
        v->pipe = NULL;
    }
    if (v->pid > 0) {
        kill(v->pid, SIGTERM);
        video_wait(v);
    }
    if (v->tmp != NULL)
        unlink(v->tmp);
}

static int render_video(const render_opts_t *o, const rf_scene_t *scene, rf_frames_job_t *job,
                        const char *ext)
{
    video_t v = { o->out, NULL, 0, NULL, NULL };
    rf_frames_result_t res;
    int mp4 = strcasecmp(ext, ".mp4") == 0;
    int status, st, rc, close_failed;

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
    v.tmp = video_tmp_name(o->out, ext);
    if (v.tmp == NULL) {
        fprintf(stderr, "runeframe: render: out of memory\n");
        return RF_EXIT_IO;
    }
    /* Created here (ffmpeg -y truncates it): a folder that cannot take the
     * video is reported with its reason (read-only, missing, denied) before
     * anything starts, which ffmpeg's messages do not always give. */
    {
        int fd = open(v.tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);
        if (fd < 0) {
            fprintf(stderr, "runeframe: render: %s: cannot create a temporary file beside it: "
                            "%s\n", o->out, strerror(errno));
            free(v.tmp);   /* not ours: never removed */
            return RF_EXIT_IO;
        }
        close(fd);
    }
    /* mp4 has no alpha: frames go over black, as in y4m; webm and gif keep it. */
    job->format = mp4 ? RF_FRAMES_RGB : RF_FRAMES_RGBA;
    status = video_start(&v, scene, job->format, mp4);
    if (status != RF_EXIT_OK)
        goto out;
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
        video_discard(&v);
        if (render_signal == 0)
            render_run_error(&res);
        status = RF_EXIT_IO;
        goto out;
    }
    st = video_wait(&v);
    /* At -loglevel error every line is an error, and ffmpeg can exit 0 after
     * "Error writing trailer of ...: No space left on device", leaving a
     * truncated video: a message means failure whatever the status. */
    struct stat logst;
    int said = v.errlog != NULL && fstat(fileno(v.errlog), &logst) == 0 && logst.st_size > 0;
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || rc != 0 || close_failed || said) {
        if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && (rc != 0 || close_failed)) {
            fprintf(stderr, "runeframe: render: ffmpeg stopped reading frames\n");
        } else if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
            char last[1024];
            video_last_line(&v, last, sizeof last);
            fprintf(stderr, "runeframe: render: ffmpeg reported an error (exit status 0): %s\n",
                    last);
        } else {
            video_report(&v, st);
        }
        unlink(v.tmp);
        status = RF_EXIT_IO;
        goto out;
    }
    if (rename(v.tmp, o->out) != 0) {
        fprintf(stderr, "runeframe: render: %s: cannot rename %s over it: %s\n", o->out, v.tmp,
                strerror(errno));
        unlink(v.tmp);
        status = RF_EXIT_IO;
        goto out;
    }
    free(v.tmp);
    v.tmp = NULL;      /* published: nothing to remove */
    status = RF_EXIT_OK;
out:
    video_discard(&v);
    if (v.errlog != NULL)
        fclose(v.errlog);
    free(v.tmp);
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
        if (render_signal != 0)
            return RF_EXIT_IO;
        return render_run_error(&res);
    }
    return RF_EXIT_OK;
}

/* ---------------------------------------------------------------- PNG */

static int render_png(const render_opts_t *o, rf_frames_job_t *job)
{
    rf_frames_result_t res;
    char err[RF_FRAMES_ERR_LEN];

    if (strcmp(o->out, "-") == 0)
        return rf_cmd_usage_error(&rf_cmd_render, "-o - streams frames: use --format y4m or "
                                                  "--format rgba (PNG frames go to a folder)");
    if (rf_atomic_dir_create(o->out, err, sizeof err) != 0) {
        fprintf(stderr, "runeframe: render: %s\n", err);
        return RF_EXIT_IO;
    }
    job->dir = o->out;
    if (rf_frames_run(job, &res) != 0) {
        if (render_signal != 0)
            return RF_EXIT_IO;
        return render_run_error(&res);
    }
    return RF_EXIT_OK;
}

static int render_exec(int argc, char **argv)
{
    rf_png_options_t def = RF_PNG_OPTIONS_RENDER;
    render_opts_t o = { 0 };
    rf_frames_job_t job = { 0 };
    rf_scene_t *scene;
    const char *ext;
    long a, b;
    int status;
    struct sigaction sa;

    o.a = o.b = -1;
    o.shard_k = o.shard_n = 1;
    o.reuse = 1;
    o.png = def;
    status = render_parse_args(argc, argv, &o);
    if (status >= 0)
        return status;
    if (o.out != NULL && !o.has_format && render_has_ext(o.out, ".y4m")) {
        /* -o NAME.y4m says which stream it is */
        o.format = RF_FRAMES_Y4M;
        o.has_format = 1;
    }
    if (o.out == NULL)
        o.out = o.has_format && o.format != RF_FRAMES_PNG ? NULL : "frames";
    if (o.out == NULL)
        return rf_cmd_usage_error(&rf_cmd_render, "--format %s needs -o - (standard output) or "
                                                  "-o FILE",
                                  o.format == RF_FRAMES_Y4M ? "y4m" : "rgba");
    if (o.out[0] == '\0')
        return rf_cmd_usage_error(&rf_cmd_render, "-o needs a name, got ''");
    ext = render_video_ext(o.out);

    scene = rf_cmd_load_scene(argv[optind], &status);
    if (scene == NULL)
        return status;

    a = o.a < 0 ? 0 : o.a;
    b = o.b < 0 ? scene->nframes : o.b;
    if (a >= b && o.b >= 0) {
        /* ":0" (an empty A is 0) */
        status = rf_cmd_usage_error(&rf_cmd_render, "--frames '%s': A must be < B", o.frames);
        goto out;
    }
    if (o.b > scene->nframes) {
        status = rf_cmd_usage_error(&rf_cmd_render, "--frames '%s': B must be <= %ld (the scene "
                                                    "has %ld frames)",
                                    o.frames, scene->nframes, scene->nframes);
        goto out;
    }
    if (a >= scene->nframes) {
        status = rf_cmd_usage_error(&rf_cmd_render, "--frames '%s': A must be < %ld (the scene "
                                                    "has %ld frames)",
                                    o.frames, scene->nframes, scene->nframes);
        goto out;
    }

    job.scene = scene;
    rf_frames_select(a, b, o.shard_k, o.shard_n, &job.range);
    job.format = (rf_frames_format_t)o.format;
    job.png = o.png;
    if (o.jobs > 0) {
        job.jobs = (int)o.jobs;
    } else {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        job.jobs = n < 1 ? 1 : n > RF_FRAMES_MAX_JOBS ? RF_FRAMES_MAX_JOBS : (int)n;
    }
    job.reuse = o.reuse;
    job.progress = !o.quiet && isatty(STDERR_FILENO);
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

    if (ext != NULL)
        status = render_video(&o, scene, &job, ext);
    else if (o.format == RF_FRAMES_PNG)
        status = render_png(&o, &job);
    else
        status = render_stream(&o, scene, &job);
    render_reraise();
out:
    rf_scene_destroy(scene);
    return status;
}

const rf_cmd_t rf_cmd_render = {
    .name = "render",
    .usage = "SCENE [-o DIR] [--frames A:B] [--jobs N] [--shard K/N]\n"
             "                        [--format png|y4m|rgba] [--quiet] [--png-level L]",
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
        "  -o NAME.mp4|.webm|.gif\n"
        "                     a video encoded by ffmpeg (which must be installed)\n"
        "  --frames A:B       frames A .. B-1 (either side may be empty)\n"
        "  --jobs N           N worker threads (default: online CPUs); the output\n"
        "                     does not depend on N\n"
        "  --shard K/N        only frames with index % N == K-1 (K = 1 .. N)\n"
        "  --format png       PNG files in a folder (default)\n"
        "  --format y4m       YUV4MPEG2, C444, BT.709 limited range, over black\n"
        "  --format rgba      raw 8-bit RGBA frames, straight alpha, no header\n"
        "  --quiet            no progress line (it is shown when stderr is a terminal)\n"
        "  --png-level L      zlib level 0..9 of PNG frames (default 1)\n"
        "  --png-filter F     PNG row filter: none (default), sub, up, avg, paeth, all\n"
        "  --no-reuse         draw and encode every frame, even copies (benchmarks)\n"
        "  --help             print this help and exit\n",
    .exec = render_exec,
};
