/* check-int.h - what the parts of check (check.h) share, private to them.
 *
 * Owns: check_ctx_t (one run: the scene, the options, the frames' shared
 * state under one lock) and check_worker_t (one thread's renderer and frame
 * buffers), and the functions each part gives the others:
 *   check.c         the run: which frames, the workers, the counts
 *                   (rf_check_execute), and the helpers below it names;
 *   check-frame.c   one frame: render, compare with its golden while it
 *                   decodes (diffstream.h), explain, diff image, update;
 *   check-golden.c  the golden folder: the goldens present, DIR/trace.csv.
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
#include "trace.h"

typedef struct check_ctx {
    const rf_scene_t *scene;
    const rf_check_options_t *o;
    rf_check_run_t *run;
    const rf_trace_t *trace;       /* the golden folder's trace, or NULL */
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

#endif
