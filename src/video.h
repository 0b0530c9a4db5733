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
    const char *pix_fmt;    /* the frames' ffmpeg -pix_fmt: "rgba", "rgb24", or
                               "bgr0" for CANVAS frames (frames.h) over black */
    int mp4;                /* 1: yuv420p output (mp4 has no alpha) */
    int mov;                /* 1: ProRes 4444 with alpha (prores_ks, yuva444p10le) */
    int webm;               /* 1: VP9 with alpha (libvpx-vp9, yuva420p) */
    int gif;                /* 1: one palette, delays adding up to duration */
    double duration;        /* gif: seconds the clip plays (rf_video_gif_timing) */
} rf_video_spec_t;

/* A GIF's timing. GIF delays are whole 1/100 s, and browsers show delays
 * under 2/100 s as 10/100 s, so a GIF plays at 100 / cs fps with cs >= 2:
 * the largest such rate <= the scene's fps (50 for 60 fps, 25 for 30,
 * 20 for 24). frames frames are shown, frame k at time k * cs / 100 (ffmpeg's
 * fps filter picks the nearest frame), each for cs / 100 s but the last,
 * shown for final / 100 s (cs <= final < 2 * cs), so that the delays add
 * up to the duration rounded to 1/100 s. */
typedef struct rf_video_gif_timing {
    int cs;                 /* the delay of each frame but the last, >= 2 */
    long frames;            /* >= 1 */
    long final;             /* the last frame's delay */
    int dropped;            /* 1: 100 / cs < fps, frames are left out */
} rf_video_gif_timing_t;

void rf_video_gif_timing(double fps, double duration, rf_video_gif_timing_t *g);

/* ffmpeg's argv, NULL-terminated; it points into size and rate. */
#define RF_VIDEO_MAX_ARGS 40
typedef struct rf_video_argv {
    char *argv[RF_VIDEO_MAX_ARGS];
    char size[32];
    char rate[48];
    char filter[192];       /* gif: the one filter graph */
    char frames[24];        /* gif: -frames:v */
    char final[24];         /* gif: -final_delay */
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
