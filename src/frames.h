/* frames.h - producing a scene's frames: the engine behind render and seek.
 *
 * Owns: rf_frames_producer_t (one renderer and the bytes of its last frame,
 * in one output format), rf_frames_job_t (which frames, how many workers,
 * where they go) and rf_frames_run(), which renders a job with pthreads.
 * `seek` produces its one frame through the same producer as `render`, so
 * `seek --frame N` writes exactly the bytes `render` writes for frame N.
 *
 * Reuse. A frame's pixels are a function of the values its layers use
 * (rf_value_t.used) and of nothing else: rf_renderer_draw() evaluates the
 * values at t and draws from the slot array only. So a producer evaluates
 * the values of each frame first and, when every used slot holds the same
 * bits (compared as bits: -0.0 and 0.0 differ) as in the frame it produced
 * last, returns that frame's bytes again without drawing or encoding. Once
 * every used value has settled (t >= the largest settle time, none
 * infinite) each value is exactly its final value, so every later frame is
 * a copy; a hold in the middle of an animation is a copy too. The bytes are
 * exactly those of a fresh render, whatever order the frames arrive in, so
 * the output never depends on the number of workers.
 *
 * Formats (the bytes of one frame):
 *   PNG   pngio.h's writer with the given options (default RF_PNG_OPTIONS_RENDER).
 *   Y4M   "FRAME\n" then the Y, Cb and Cr planes, 4:4:4, 8 bit, BT.709
 *         limited range, the frame composited over black (a premultiplied
 *         color is that color over black): with R, G, B in 0..255,
 *           Y  = 16  + round(219 (2126 R + 7152 G + 722 B) / (255 * 10000))
 *           Cb = 128 + round(224 (9278 B - 2126 R - 7152 G) / (255 * 18556))
 *           Cr = 128 + round(224 (7874 R - 7152 G - 722 B) / (255 * 15748))
 *         (Kr = 0.2126, Kb = 0.0722; round(x) = floor(x + 1/2), in exact
 *         integer arithmetic). The stream starts with rf_frames_y4m_header().
 *   RGBA  width * height * 4 bytes, straight (unpremultiplied) alpha, rows
 *         top to bottom: exactly what the frame's PNG decodes to.
 *   CANVAS width * height * 4 bytes: the canvas's own pixels, cairo's
 *         premultiplied ARGB32 words in the machine's byte order (B, G, R, A
 *         on little-endian machines), rows top to bottom. Read with the
 *         alpha byte ignored (rf_frames_canvas_pix_fmt: ffmpeg's bgr0), the
 *         color bytes are the frame composited over black (as in Y4M):
 *         what ffmpeg gets for an mp4, which has no alpha. No
 *         conversion and no copy: a stream writes them straight from the
 *         worker's canvas (Workers).
 *
 * Workers. rf_frames_run() starts job->jobs threads, each with its own
 * producer; frame positions are handed out by an atomic counter. PNG frames
 * are written by the worker that made them, each file atomically (atomic.h)
 * as DIR/frame-NNNNN.png. Streams are written in frame order by the calling
 * thread from a reorder ring of 2 * jobs frames: a worker does not start a
 * frame 2 * jobs or more positions ahead of the writer, so memory stays
 * bounded whatever the speed of the consumer. CANVAS and RGBA streams
 * have no ring of bytes: their slots point at the workers' canvases (RGBA
 * converted in place), and a worker that handed over its frame waits
 * until the writer has written it before it draws again; with one worker
 * (and two frames or more) its renderer draws on two canvases in turn
 * (rf_renderer_swap_canvas), and the writer converts an RGBA frame in
 * its canvas and writes it while the next is drawn on the other. Y4M
 * frames go through the ring.
 *
 * Thread-safety: a producer belongs to one thread at a time; any number of
 * producers (and runs) may work on one scene at once, which they only read.
 * The YUV tables are built once (pthread_once).
 */
#ifndef RF_FRAMES_H
#define RF_FRAMES_H

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pngio.h"
#include "render.h"
#include "scene.h"

#define RF_FRAMES_MAX_JOBS 256     /* --jobs upper bound */
#define RF_FRAMES_MIN_DIGITS 5     /* frame-00000.png */
#define RF_FRAMES_ERR_LEN 1024

typedef enum rf_frames_format {
    RF_FRAMES_PNG = 0,
    RF_FRAMES_Y4M,
    RF_FRAMES_RGBA,
    RF_FRAMES_CANVAS,
} rf_frames_format_t;

/* ---------------------------------------------------------------- producer */

typedef struct rf_frames_producer rf_frames_producer_t;

/* A renderer for scene (borrowed: it must outlive the producer) and the
 * buffers of one frame in format. png: the PNG options (NULL: the render
 * defaults); the other formats ignore it. reuse: nonzero to return the
 * previous frame's bytes when the used values are bit-identical. NULL on
 * failure with a one-line message in err. */
rf_frames_producer_t *rf_frames_producer_create(const rf_scene_t *scene,
                                                rf_frames_format_t format,
                                                const rf_png_options_t *png, int reuse,
                                                char *err, size_t errlen);
/* The same, drawing with r, a renderer of scene the caller lends (it
 * must outlive the producer; the producer does not destroy it): the one
 * a lint laid the scene out with (lint.h rf_lint_scene_with), so its text
 * is not shaped again. r NULL: as rf_frames_producer_create. */
rf_frames_producer_t *rf_frames_producer_create_with(const rf_scene_t *scene,
                                                     rf_frames_format_t format,
                                                     const rf_png_options_t *png, int reuse,
                                                     rf_renderer_t *r, char *err, size_t errlen);

/* How many cores the producer's renderer may use to draw a frame
 * (render.h rf_renderer_set_threads; 1 until set): a caller drawing one
 * frame alone (seek) gives it the CPUs it may run on. rf_frames_run sets
 * each worker's share itself. */
void rf_frames_producer_set_threads(rf_frames_producer_t *p, int n);
void rf_frames_producer_destroy(rf_frames_producer_t *p);

/* Produces the frame at time t: *data, *len are the frame's bytes, owned by
 * the producer and valid until its next call. *reused (may be NULL) is 1 when
 * they are the previous frame's bytes. Returns 0, or -1 with a message in
 * err (a cairo or encoder failure; nothing usable in *data), or
 * RF_RENDER_UNDRAWABLE (render.h) when the scene asks for a frame that
 * cannot be drawn (a bad scene, exit status 2). */
int rf_frames_produce(rf_frames_producer_t *p, double t, const uint8_t **data, size_t *len,
                      int *reused, char *err, size_t errlen);

/* The frame at t in a raw format (not PNG), converted straight from the
 * canvas into dst (rf_frames_frame_size bytes): the bytes rf_frames_produce
 * gives, with no copy in between (a reused frame is converted again from
 * the canvas, which still holds it, or copied when rf_frames_produce_canvas
 * converted it there already). *reused, the return value and err as
 * rf_frames_produce. */
int rf_frames_produce_into(rf_frames_producer_t *p, double t, uint8_t *dst, int *reused,
                           char *err, size_t errlen);

/* The frame at t as the canvas itself, for a CANVAS or RGBA producer:
 * *pix and *stride are the renderer's pixels, rows stride bytes apart,
 * valid until the producer's next call. CANVAS: as drawn (premultiplied
 * ARGB32). RGBA: the format's bytes, converted in place (the canvas is
 * drawn over at the next frame that is not a reuse; a reused frame is
 * not converted twice). *reused, the return value and err as
 * rf_frames_produce. */
int rf_frames_produce_canvas(rf_frames_producer_t *p, double t, const uint8_t **pix,
                             size_t *stride, int *reused, char *err, size_t errlen);

/* ---------------------------------------------------------------- formats */

/* ffmpeg's -pix_fmt for CANVAS bytes with their alpha byte ignored (the
 * frame over black): "bgr0", or "0rgb" on big-endian machines. */
const char *rf_frames_canvas_pix_fmt(void);

/* Bytes of one frame of a raw format (Y4M: with its "FRAME\n"); 0 for PNG,
 * whose size varies. */
size_t rf_frames_frame_size(const rf_scene_t *scene, rf_frames_format_t format);

/* The YUV4MPEG2 stream header, with its newline, into buf; returns its
 * length (< cap; cap >= 128 is always enough), e.g.
 *   "YUV4MPEG2 W640 H360 F60:1 Ip A1:1 C444 XCOLORRANGE=LIMITED\n" */
size_t rf_frames_y4m_header(const rf_scene_t *scene, char *buf, size_t cap);

/* fps as num/den: the first continued-fraction convergent whose quotient,
 * as a double, is fps itself (60 -> 60/1, 29.97 -> 2997/100, 30000.0/1001
 * -> 30000/1001); both <= 2^31 - 1 (the last convergent within that bound
 * when none is exact). */
void rf_frames_fps_rational(double fps, uint32_t *num, uint32_t *den);

/* Digits of frame file names: max(5, the digits of nframes - 1), from the
 * scene's frame count (not the selection), so that every shard agrees. */
int rf_frames_digits(long nframes);

/* "DIR/frame-" + index zero-padded to digits + ".png" into buf; returns
 * snprintf's result (>= cap means truncated). */
int rf_frames_file_name(char *buf, size_t cap, const char *dir, long index, int digits);

/* ---------------------------------------------------------------- jobs */

/* The frames of a job: position p (0 .. count-1) is frame first + p * step. */
typedef struct rf_frames_range {
    long first;
    long step;
    long count;
} rf_frames_range_t;

/* The frames a .. b-1 whose index % n == k - 1 (0 <= a, 1 <= k <= n). */
void rf_frames_select(long a, long b, long k, long n, rf_frames_range_t *out);

typedef struct rf_frames_job {
    const rf_scene_t *scene;
    rf_frames_range_t range;
    rf_frames_format_t format;
    rf_png_options_t png;       /* PNG (its threads set by rf_frames_run) */
    int jobs;                   /* worker threads, >= 1 (capped at the frame count;
                                   with fewer frames than jobs the PNG encoder
                                   takes the rest) */
    int reuse;                  /* nonzero: copy bit-identical frames (see above) */
    rf_renderer_t *renderer;    /* NULL, or a renderer of scene the first worker
                                   draws with (lent: the caller keeps it until
                                   rf_frames_run returns) */
    const char *dir;            /* PNG: the folder, which must exist */
    FILE *out;                  /* other formats: the stream, written in order */
    const char *out_name;       /* its name in messages ("standard output") */
    int progress;               /* nonzero: a progress line on stderr; 2: erased
                                   at the end (the caller prints a summary) */
    /* Polled by the workers and the writer: once nonzero (a signal handler
     * sets it: a lock-free atomic, which a handler may store to and other
     * threads read) the run stops after the frames in flight and fails
     * with the message "interrupted". May be NULL. */
    atomic_int *interrupt;
} rf_frames_job_t;

typedef struct rf_frames_result {
    long produced;              /* frames written */
    long rendered;              /* frames drawn and encoded */
    long reused;                /* frames that were copies of an earlier frame's bytes */
    double seconds;             /* wall time of the run */
    int sys_errno;              /* errno of a failed system call, else 0 */
    int undrawable;             /* 1: failed on a frame the scene asks for
                                   that cannot be drawn (render.h
                                   RF_RENDER_UNDRAWABLE): exit status 2 */
    char message[RF_FRAMES_ERR_LEN]; /* one line when the run failed, else "" */
} rf_frames_result_t;

/* Renders the job. Returns 0, or -1 with result->message (and sys_errno).
 * Frames finished before a failure stay (each is complete); no temporary
 * file stays. Streams are written, not flushed or closed. */
int rf_frames_run(const rf_frames_job_t *job, rf_frames_result_t *result);

#endif
