/* check-int.h - what the parts of check (check.h) share, private to them.
 *
 * Owns: check_ctx_t (one run: the scene, the options, the frames' shared
 * state under one lock) and check_worker_t (one thread's renderer and frame
 * buffers), and the functions each part gives the others:
 *   check.c         the run: which frames, the workers, the counts
 *                   (rf_check_execute), and the helpers below it names;
 *   check-frame.c   one frame: render, compare with its golden while it
 *                   decodes (diffstream.h), explain, diff image, update;
 *   check-golden.c  the golden folder: the goldens present, DIR/trace.csv
 *                   and DIR/scene.json written;
 *   check-cause.c   why a frame changed: the scene's edits since the
 *                   goldens (DIR/scene.json) that feed what moved.
 *
 * Thread-safety: as check.h; the workers share check_ctx_t, whose mutable
 * fields are each frame's own or under its lock (see each field).
 */
#ifndef RF_CHECK_INT_H
#define RF_CHECK_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "render.h"
#include "scene-diff.h"
#include "trace.h"

/* What check knows of the scene the goldens were made from (check-cause.c). */
typedef enum check_cause_state {
    CHECK_CAUSE_NONE = 0,          /* no DIR/scene.json: the cause is unknown */
    CHECK_CAUSE_BAD,               /* one that cannot be read (why says why) */
    CHECK_CAUSE_DIFF,              /* compared: diff holds the edits */
} check_cause_state_t;

typedef struct check_cause {
    check_cause_state_t state;
    char why[600];
    rf_scene_diff_t diff;
    long *value_of;                /* per edit: the value it is inside (the
                                      innermost), or -1: not a value's edit */
    const char **inames;           /* trace names of the inline values
                                      (trace.h), or NULL */
} check_cause_t;

typedef struct check_ctx {
    const rf_scene_t *scene;
    const rf_check_options_t *o;
    rf_check_run_t *run;
    const rf_trace_t *trace;       /* the golden folder's trace, or NULL */
    check_cause_t cause;           /* read-only once the workers run */
    double *slots;                 /* nframes rows of nslots: values per frame */
    unsigned char *rendered;       /* 1: slots row i holds frame i's values */
    unsigned char *done;           /* 1: frame i is finished */
    size_t next;                   /* next frame to hand out */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int golden_dir_made;           /* under lock: mkdir -p done (1) or failed (-1) */
    int diff_dir_made;
    char golden_dir_err[512];
    char diff_dir_err[512];
    char write_err[600];           /* trace.csv or scene.json not written: why */
} check_ctx_t;

typedef struct check_worker {
    check_ctx_t *c;
    rf_renderer_t *r;
    uint8_t *actual;               /* the frame as straight RGBA */
    uint8_t *golden;               /* the golden, decoded */
    uint8_t *out;                  /* the diff image */
    pthread_t thread;
} check_worker_t;

/* ---- check.c */

/* Monotonic seconds. */
double check_now(void);

/* "DIR/NAME" into buf without doubling a slash the folder ends with
 * ("golden/x/" and "golden/x" name the same files, and say so alike);
 * returns 0, or -1 when it does not fit. */
int check_path_join(char *buf, size_t cap, const char *dir, const char *name, const char *ext);

/* mkdir -p of a folder the workers write into, once per run (*made: 0 not
 * yet, 1 done, -1 failed, with err); 0 or -1. */
int check_make_dir(check_ctx_t *c, const char *dir, int *made, char *err, size_t errlen);

/* ---- check-frame.c */

/* Appends one line to f->trace (which grows; lines end in "\n"). Out of
 * memory drops the explanation, never the verdict. */
void check_trace_line(rf_check_frame_t *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* One frame, start to end; its outcome goes to c->run->frames[i]. */
void check_frame(check_worker_t *w, size_t i);

/* A worker thread: takes the next frame until none is left. */
void *check_worker_main(void *arg);

/* ---- check-golden.c */

/* The golden files present in dir (frame-NNNNN.png with digits digits):
 * their indices, sorted. *n = 0 and 0 returned when the folder does not
 * exist (*missing = 1). -1 with err and *status on failure. */
int check_scan(const char *dir, int digits, long **out, size_t *n, int *missing, int *status,
               char *err, size_t errlen);

/* Writes DIR/trace.csv from the frames rendered in this run, unless the
 * file already holds exactly those bytes (its mtime then stays). */
void check_write_trace(check_ctx_t *c);

/* With goldens written in this run: writes DIR/scene.json, the scene's
 * text, unless the file already holds exactly those bytes. */
void check_write_scene(check_ctx_t *c);

/* ---- check-cause.c */

/* The trace names of the scene's inline values (trace.h) into c->cause,
 * then DIR/scene.json read and compared with the scene (a missing or bad
 * one leaves the cause unknown, never an error). Before the workers run. */
void check_cause_init(check_ctx_t *c);

/* "cause: ..." lines for a frame that failed on pixels: the edits that
 * feed the values that moved at its time (slots: its values now), the
 * ones that are not a value's (a color, a layer added), or that the scene
 * is unchanged; assets_changed: how many images and fonts check_explain
 * found changed (their lines are above), the first one's kind ("image",
 * "font") and file. */
void check_cause_explain(check_ctx_t *c, rf_check_frame_t *f, const double *slots,
                         int assets_changed, const char *asset_kind, const char *asset_file);

void check_cause_free(check_cause_t *cause);

#endif
