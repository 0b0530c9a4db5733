/* video.h - a video encoded by ffmpeg from raw frames.
 *
 * Owns: rf_video_t, one ffmpeg child that reads raw frames on its standard
 * input and writes NAME.tmp.EXT beside the output NAME.EXT, which is renamed
 * over the output only when ffmpeg succeeded; which outputs are videos
 * (.mp4, .webm, .gif, any case); the temporary's name; ffmpeg's command
 * line; starting, waiting for, stopping and describing a failed ffmpeg (its
 * status and the line of its standard error that says why). The frames
 * themselves come from frames.c; `runeframe render` (cmd-render.c) feeds
 * them into rf_video_t.pipe.
 *
 * Errors are returned as one line in err ("ffmpeg failed (exit status 1):
 * ..."), without the "runeframe: render: " prefix.
 * Thread-safety: an rf_video_t belongs to one thread. ffmpeg runs in its own
 * process group (Ctrl-C reaches runeframe only, which then stops ffmpeg and
 * removes the temporary). Writing to a dead ffmpeg raises SIGPIPE: the
 * caller ignores it while feeding frames.
 */
#ifndef RF_VIDEO_H
#define RF_VIDEO_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* What ffmpeg is told about the frames and the video. */
typedef struct rf_video_spec {
    int width, height;
    double fps;             /* as the scene's: written as a rational */
    int rgb;                /* 1: rgb24 frames (over black), 0: rgba */
    int mp4;                /* 1: yuv420p output (mp4 has no alpha) */
    int mov;                /* 1: ProRes 4444 with alpha (prores_ks, yuva444p10le) */
} rf_video_spec_t;

/* ffmpeg's argv, NULL-terminated; it points into size and rate. */
#define RF_VIDEO_MAX_ARGS 24
typedef struct rf_video_argv {
    char *argv[RF_VIDEO_MAX_ARGS];
    char size[32];
    char rate[48];
} rf_video_argv_t;

typedef struct rf_video {
    const char *out;        /* NAME.EXT as given */
    char *tmp;              /* NAME.tmp.EXT, what ffmpeg writes; NULL once published */
    pid_t pid;              /* ffmpeg, or 0 */
    FILE *pipe;             /* ffmpeg's standard input: write the frames here */
    FILE *errlog;           /* ffmpeg's standard error (an unnamed temporary) */
} rf_video_t;

/* Whether out is NAME + ext (any case; NAME not empty, not a folder). */
int rf_video_has_ext(const char *out, const char *ext);
/* The extension of a video output (".mp4", ".webm", ".gif", any case) in
 * out, or NULL. */
const char *rf_video_ext(const char *out);
/* NAME.EXT -> NAME.tmp.EXT (ext points into out), "./" in front of a
 * relative name: ffmpeg picks the container by the extension, and would
 * take "-x.tmp.mp4" for an option and "x:y.tmp.mp4" for a protocol. A new
 * string (free() it), or NULL without memory. */
char *rf_video_tmp_name(const char *out, const char *ext);
/* Fills a with ffmpeg's argv for spec, writing tmp. */
void rf_video_argv(const rf_video_spec_t *spec, const char *tmp, rf_video_argv_t *a);

/* Starts v for out (ext points into out): creates the temporary beside it,
 * so that a folder that cannot take the video is reported with its reason
 * before anything starts. 0, or -1 with err (v then owns nothing). */
int rf_video_create(rf_video_t *v, const char *out, const char *ext, char *err, size_t errlen);
/* Starts ffmpeg reading spec's frames from v->pipe. 0, or -1 with err. */
int rf_video_start(rf_video_t *v, const rf_video_spec_t *spec, char *err, size_t errlen);
/* After the frames, with v->pipe closed (and NULL): waits for ffmpeg and,
 * when it succeeded, said nothing and every frame was written (stopped 0),
 * renames the temporary over the output. 0, or -1 with err and the
 * temporary removed. */
int rf_video_finish(rf_video_t *v, int stopped, char *err, size_t errlen);
/* Stops a running ffmpeg and removes what it wrote. */
void rf_video_discard(rf_video_t *v);
/* Discards what is left and frees v's resources. */
void rf_video_destroy(rf_video_t *v);

#endif
