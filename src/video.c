/* video.c - a video encoded by ffmpeg from raw frames (video.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "video.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "frames.h"

extern char **environ;

int rf_video_has_ext(const char *out, const char *ext)
{
    size_t n = strlen(out), e = strlen(ext);

    return n > e && strcasecmp(out + n - e, ext) == 0 && out[n - e - 1] != '/';
}

const char *rf_video_ext(const char *out)
{
    static const char *const exts[] = { ".mp4", ".webm", ".mov", ".gif" };

    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (rf_video_has_ext(out, exts[i]))
            return out + strlen(out) - strlen(exts[i]);
    return NULL;
}

char *rf_video_tmp_name(const char *out, const char *ext)
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

void rf_video_gif_timing(double fps, double duration, rf_video_gif_timing_t *g)
{
    double cs = ceil(100.0 / fps - 1e-9);
    double total = round(duration * 100.0);    /* the delays' sum, in 1/100 s */

    if (!(cs >= 2))
        cs = 2;                                 /* at most 50 fps (and NaN) */
    if (cs > 65535)
        cs = 65535;                             /* a GIF delay's largest */
    g->cs = (int)cs;
    g->dropped = 100.0 / cs < fps * (1 - 1e-9);
    if (!(total >= cs)) {
        /* shorter than one frame: one frame, never under 2/100 s */
        g->frames = 1;
        g->final = total >= 2 ? (long)total : 2;
        return;
    }
    if (total > 1e15)
        total = 1e15;
    g->frames = (long)(total / cs);
    g->final = (long)(total - (double)(g->frames - 1) * cs);   /* cs .. 2 cs - 1 */
    if (g->final > 65535)
        g->final = 65535;
}

void rf_video_argv(const rf_video_spec_t *spec, const char *tmp, rf_video_argv_t *a)
{
    uint32_t num, den;
    int k = 0;

    rf_frames_fps_rational(spec->fps, &num, &den);
    snprintf(a->size, sizeof a->size, "%dx%d", spec->width, spec->height);
    snprintf(a->rate, sizeof a->rate, "%u/%u", (unsigned)num, (unsigned)den);
    a->argv[k++] = "ffmpeg";
    a->argv[k++] = "-hide_banner";
    a->argv[k++] = "-loglevel";
    a->argv[k++] = "error";
    a->argv[k++] = "-y";
    a->argv[k++] = "-f";
    a->argv[k++] = "rawvideo";
    a->argv[k++] = "-pix_fmt";
    a->argv[k++] = spec->pix_fmt != NULL ? (char *)spec->pix_fmt : "rgba";
    a->argv[k++] = "-s";
    a->argv[k++] = a->size;
    a->argv[k++] = "-r";
    a->argv[k++] = a->rate;
    a->argv[k++] = "-i";
    a->argv[k++] = "-";
    if (spec->mp4) {
        a->argv[k++] = "-pix_fmt";
        a->argv[k++] = "yuv420p";
    }
    if (spec->mov) {
        /* ProRes 4444 with its alpha channel, what video editors take */
        a->argv[k++] = "-c:v";
        a->argv[k++] = "prores_ks";
        a->argv[k++] = "-profile:v";
        a->argv[k++] = "4444";
        a->argv[k++] = "-pix_fmt";
        a->argv[k++] = "yuva444p10le";
    }
    if (spec->webm) {
        /* VP9 keeping the alpha channel (yuva420p). ffmpeg's default for
         * libvpx-vp9 (-deadline good -cpu-used 1, no row threading) took
         * 9x the time of the mp4 on scenes/showcase.json; -deadline
         * realtime -cpu-used 6 with -row-mt 1 takes about the mp4's time
         * (BENCHMARKS.md "Video outputs") at constant quality -crf 32
         * (-b:v 0: no bitrate cap): SSIM 0.9949 against the frames, the
         * default's 0.9955, for a file 1.5x the default's. cpu-used 8 was
         * no faster (the frames are the bottleneck) and larger. */
        static const char *const vp9[] = {
            "-c:v", "libvpx-vp9", "-row-mt", "1", "-deadline", "realtime", "-cpu-used", "6",
            "-crf", "32", "-b:v", "0", "-pix_fmt", "yuva420p",
        };
        for (size_t i = 0; i < sizeof vp9 / sizeof vp9[0]; i++)
            a->argv[k++] = (char *)vp9[i];
    }
    if (spec->gif) {
        /* One palette for the whole clip (palettegen sees every frame
         * shown, paletteuse maps them all to it, in one filter graph), at a
         * rate whose delays are whole 1/100 s that browsers keep. */
        rf_video_gif_timing_t g;

        rf_video_gif_timing(spec->fps, spec->duration, &g);
        snprintf(a->filter, sizeof a->filter,
                 "[0:v]fps=100/%d,split[a][b];[a]palettegen=stats_mode=full[p];"
                 "[b][p]paletteuse=dither=sierra2_4a:diff_mode=rectangle", g.cs);
        snprintf(a->frames, sizeof a->frames, "%ld", g.frames);
        snprintf(a->final, sizeof a->final, "%ld", g.final);
        a->argv[k++] = "-filter_complex";
        a->argv[k++] = a->filter;
        a->argv[k++] = "-frames:v";
        a->argv[k++] = a->frames;
        a->argv[k++] = "-final_delay";
        a->argv[k++] = a->final;
    }
    a->argv[k++] = (char *)tmp;
    a->argv[k] = NULL;
}

int rf_video_create(rf_video_t *v, const char *out, const char *ext, char *err, size_t errlen)
{
    int fd;

    memset(v, 0, sizeof *v);
    v->out = out;
    v->tmp = rf_video_tmp_name(out, ext);
    if (v->tmp == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* Created here (ffmpeg -y truncates it): a folder that cannot take the
     * video is reported with its reason (read-only, missing, denied) before
     * anything starts, which ffmpeg's messages do not always give. */
    fd = open(v->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot create a temporary file beside it: %s", out,
                 strerror(errno));
        free(v->tmp);   /* not ours: never removed */
        v->tmp = NULL;
        return -1;
    }
    close(fd);
    return 0;
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
static void video_last_line(rf_video_t *v, char *buf, size_t cap)
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

int rf_video_start(rf_video_t *v, const rf_video_spec_t *spec, char *err, size_t errlen)
{
    rf_video_argv_t a;
    int fds[2] = { -1, -1 };
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    int e;

    rf_video_argv(spec, v->tmp, &a);
    v->errlog = tmpfile();
    if (v->errlog == NULL) {
        snprintf(err, errlen, "cannot create a temporary file for ffmpeg's messages: %s",
                 strerror(errno));
        return -1;
    }
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot create a pipe to ffmpeg: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
    posix_spawn_file_actions_adddup2(&fa, fileno(v->errlog), 2);
    posix_spawnattr_init(&attr);
    /* Its own process group: Ctrl-C reaches runeframe only, which then
     * stops ffmpeg and removes the temporary itself. */
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    e = posix_spawnp(&v->pid, "ffmpeg", &fa, &attr, a.argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(fds[0]);
    if (e != 0) {
        close(fds[1]);
        v->pid = 0;
        if (e == ENOENT)
            snprintf(err, errlen, "ffmpeg not found: install ffmpeg to write %s "
                                  "(or use --format png)", v->out);
        else
            snprintf(err, errlen, "cannot start ffmpeg: %s", strerror(e));
        return -1;
    }
    /* A frame or more in the pipe, not 64 KiB: ffmpeg and the workers
     * stall each other less (best effort; the default size still works). */
    (void)fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
    v->pipe = fdopen(fds[1], "wb");
    if (v->pipe == NULL) {
        snprintf(err, errlen, "cannot write to ffmpeg: %s", strerror(errno));
        close(fds[1]);
        return -1;
    }
    return 0;
}

/* Waits for ffmpeg; returns its wait status, or -1. */
static int video_wait(rf_video_t *v)
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
static void video_report(rf_video_t *v, int st, char *err, size_t errlen)
{
    char last[1024];

    video_last_line(v, last, sizeof last);
    if (st != -1 && WIFSIGNALED(st))
        snprintf(err, errlen, "ffmpeg was killed by signal %d%s%s", WTERMSIG(st),
                 last[0] ? ": " : "", last);
    else
        snprintf(err, errlen, "ffmpeg failed (exit status %d)%s%s",
                 st == -1 ? -1 : WEXITSTATUS(st), last[0] ? ": " : "", last);
}

int rf_video_finish(rf_video_t *v, int stopped, char *err, size_t errlen)
{
    int st = video_wait(v);
    /* At -loglevel error every line is an error, and ffmpeg can exit 0 after
     * "Error writing trailer of ...: No space left on device", leaving a
     * truncated video: a message means failure whatever the status. */
    struct stat logst;
    int said = v->errlog != NULL && fstat(fileno(v->errlog), &logst) == 0 && logst.st_size > 0;
    int exited0 = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;

    if (!exited0 || stopped || said) {
        if (exited0 && stopped) {
            snprintf(err, errlen, "ffmpeg stopped reading frames");
        } else if (exited0) {
            char last[1024];
            video_last_line(v, last, sizeof last);
            snprintf(err, errlen, "ffmpeg reported an error (exit status 0): %s", last);
        } else {
            video_report(v, st, err, errlen);
        }
        unlink(v->tmp);
        return -1;
    }
    if (rename(v->tmp, v->out) != 0) {
        snprintf(err, errlen, "%s: cannot rename %s over it: %s", v->out, v->tmp,
                 strerror(errno));
        unlink(v->tmp);
        return -1;
    }
    free(v->tmp);
    v->tmp = NULL;      /* published: nothing to remove */
    return 0;
}

void rf_video_discard(rf_video_t *v)
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

void rf_video_destroy(rf_video_t *v)
{
    rf_video_discard(v);
    if (v->errlog != NULL)
        fclose(v->errlog);
    v->errlog = NULL;
    free(v->tmp);
    v->tmp = NULL;
}
