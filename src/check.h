/* check.h - golden-image regression: render frames, compare them with
 * goldens, explain failures, update goldens.
 *
 * Owns: rf_check_options_t (what to check and how), rf_check_frame_t (the
 * outcome of one frame), rf_check_run_t (the outcome of a run, which the
 * reports of report.h are written from) and rf_check_execute().
 *
 * A run: the frames are the scene's `checks`, or without them every frame
 * that has a golden DIR/frame-NNNNN.png (the names render writes); with
 * --update and neither, every frame of the scene. Each frame is rendered,
 * turned into straight RGBA exactly as its PNG would decode
 * (rf_png_row_to_rgba), and compared with its golden while the golden is
 * decoded row by row (diffstream.h). A frame passes when its count of differing
 * pixels is within both limits. When it fails and DIR/trace.csv exists,
 * the trace says which values moved at the frame's time (inline values
 * too, by pointer); then the scene is compared with DIR/scene.json, the
 * copy update keeps, and the edits that feed what moved are named as its
 * cause ("cause: /values/x/spring/stiffness 300 -> 280"), or the scene is
 * said to be unchanged (check-cause.c).
 *
 * Files: goldens are only ever written with update, and then only the
 * missing and failing ones (zlib 6, filter NONE, atomically, fsynced), plus
 * DIR/trace.csv when its contents change, and DIR/scene.json (the scene's
 * text) when goldens were written and its contents change. Diff images go to diff_dir, only
 * for frames that failed on pixels. Nothing else is written; in particular
 * a passing golden keeps its bytes and its mtime.
 *
 * Thread-safety: no global state. rf_check_execute() runs o->jobs worker
 * threads of its own and joins them before it returns; on_frame is called
 * from the calling thread only. Runs of different scenes or golden folders
 * may go on at once; two runs updating one folder may not.
 */
#ifndef RF_CHECK_H
#define RF_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "diff.h"
#include "pngio.h"
#include "scene.h"

#define RF_CHECK_PATH_MAX 4096
#define RF_CHECK_MAX_MOVES 5          /* moved values named per failing frame */

typedef enum rf_check_status {
    RF_CHECK_PASS = 0,      /* within the limits */
    RF_CHECK_DIFFERENT,     /* more differing pixels than the limits allow */
    RF_CHECK_MISSING,       /* no golden file for the frame */
    RF_CHECK_SIZE,          /* the golden's width or height is not the scene's */
    RF_CHECK_UNREADABLE,    /* the golden is not a readable PNG (corrupt,
                               truncated, a directory, ...) */
    RF_CHECK_NO_FRAME,      /* a golden for a frame the scene does not have */
    RF_CHECK_ERROR,         /* rendering or writing failed (a system error) */
} rf_check_status_t;

/* "pass", "different", "missing", "size", "unreadable", "no-frame", "error". */
const char *rf_check_status_name(rf_check_status_t s);

typedef struct rf_check_frame {
    long index;                       /* frame number */
    double t;                         /* its time, index / fps */
    char name[32];                    /* "frame-00032" (no folder, no .png) */
    rf_check_status_t status;         /* before any update */
    int updated;                      /* 1: update (re)wrote its golden */
    int undrawable;                   /* ERROR: 1 when the scene asks this
                                         frame for something that cannot be
                                         drawn (render.h), a bad scene */
    int write_failed;                 /* 1: its diff image or golden could
                                         not be written (trace says why) */
    char write_error[600];            /* the first such failure, one line
                                         "PATH: what failed: strerror" */
    rf_diff_result_t diff;            /* PASS, DIFFERENT: the comparison */
    uint32_t golden_width;            /* SIZE: the golden's size */
    uint32_t golden_height;
    char message[512];                /* one line saying why it failed, or
                                         "" when it passed */
    char *trace;                      /* NULL, or lines ending in "\n" that
                                         explain a failure from trace.csv */
    char golden_path[RF_CHECK_PATH_MAX];
    char diff_path[RF_CHECK_PATH_MAX];/* the diff image written, or "" */
    rf_png_buffer_t actual_png;       /* with keep_images, failed frames: */
    rf_png_buffer_t diff_png;         /* the render and the diff image */
    double seconds;                   /* wall time of this frame */
} rf_check_frame_t;

typedef struct rf_check_options {
    const char *golden_dir;           /* required */
    const char *diff_dir;             /* NULL: no diff images */
    int update;                       /* 1: write missing and failing goldens */
    int jobs;                         /* worker threads, >= 1 */
    rf_diff_options_t diff;           /* the measure */
    uint64_t max_diff_pixels;         /* limits (default 0 and 0; UINT64_MAX */
    double max_diff_ratio;            /* and 1 constrain nothing) */
    int keep_images;                  /* 1: keep failed frames' PNGs in memory
                                         (an HTML report embeds them) */
    /* Called in frame order as soon as a frame and all before it are
     * done (from the calling thread), with how many frames are done
     * (this one included) of how many; may be NULL. */
    void (*on_frame)(void *ctx, const rf_check_frame_t *f, size_t done, size_t total);
    void *ctx;
} rf_check_options_t;

typedef struct rf_check_run {
    const char *scene_path;           /* borrowed */
    const char *golden_dir;           /* borrowed */
    uint32_t width, height;
    rf_diff_options_t diff;
    uint64_t max_diff_pixels;
    double max_diff_ratio;
    int update;
    size_t nframes;
    rf_check_frame_t *frames;         /* in frame order */
    size_t passed;                    /* status PASS */
    size_t failed;                    /* not PASS and not updated */
    size_t updated;                   /* goldens written */
    int trace_written;                /* 1: update wrote DIR/trace.csv */
    int scene_written;                /* 1: update wrote DIR/scene.json */
    int io_errors;                    /* frames left UNREADABLE or ERROR
                                         (not undrawable), or with
                                         write_failed, and trace.csv write
                                         failures: exit status 3 */
    int scene_errors;                 /* undrawable frames: exit status 2 */
    double seconds;                   /* wall time of the run */
    char timestamp[32];               /* start, ISO 8601 UTC */
    char warning[640];                /* "" or one line worth a warning
                                         (trace.csv unreadable, ...) */
    char trace_error[640];            /* "" or why update could not write
                                         trace.csv or scene.json (an I/O
                                         error; trace.csv's first) */
} rf_check_run_t;

/* Runs a check of scene (loaded from scene_path). Returns 0 when the run
 * happened (its frames may have failed: see run), or -1 when it could not
 * start or went wrong as a whole (golden folder unreadable, nothing to
 * check, out of memory) with one line in err and *exit_status (2 for a
 * usage problem, 3 for a system one). Free run with rf_check_run_destroy()
 * either way. */
int rf_check_execute(const rf_scene_t *scene, const char *scene_path,
                     const rf_check_options_t *o, rf_check_run_t *run, int *exit_status,
                     char *err, size_t errlen);

void rf_check_run_destroy(rf_check_run_t *run);

#endif
