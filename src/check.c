/* check.c - golden-image regression (check.h): which frames, render,
 * compare while the golden decodes, explain from the trace, update. */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime, gmtime_r, fileno */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "atomic.h"
#include "check.h"
#include "diag.h"
#include "diffstream.h"
#include "frames.h"
#include "numfmt.h"
#include "render.h"
#include "trace.h"

const char *rf_check_status_name(rf_check_status_t s)
{
    static const char *const names[] = {
        [RF_CHECK_PASS] = "pass",           [RF_CHECK_DIFFERENT] = "different",
        [RF_CHECK_MISSING] = "missing",     [RF_CHECK_SIZE] = "size",
        [RF_CHECK_UNREADABLE] = "unreadable", [RF_CHECK_NO_FRAME] = "no-frame",
        [RF_CHECK_ERROR] = "error",
    };
    if ((unsigned)s >= sizeof names / sizeof names[0])
        return "unknown";
    return names[s];
}

/* ------------------------------------------------------------ the run */

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

static double check_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "DIR/NAME" into buf without doubling a slash the folder ends with
 * ("golden/x/" and "golden/x" name the same files, and say so alike);
 * returns 0, or -1 when it does not fit. */
static int check_path_join(char *buf, size_t cap, const char *dir, const char *name,
                           const char *ext)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    int len = snprintf(buf, cap, "%.*s%s%s%s", (int)n, dir,
                       n == 1 && dir[0] == '/' ? "" : "/", name, ext);
    return len >= 0 && (size_t)len < cap ? 0 : -1;
}

/* "1 pixel differs", "2 pixels differ" */
static const char *check_pixels_differ(uint64_t n)
{
    return n == 1 ? "pixel differs" : "pixels differ";
}

static const char *check_percent(char buf[RF_NUM_BUF], uint64_t n, uint64_t total)
{
    return rf_num_percent(buf, total > 0 ? (double)n / (double)total : 0.0);
}

static void check_message(rf_check_frame_t *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void check_message(rf_check_frame_t *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
}

/* Appends one line to f->trace (which grows; lines end in "\n"). Out of
 * memory drops the explanation, never the verdict. */
static void check_trace_line(rf_check_frame_t *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void check_trace_line(rf_check_frame_t *f, const char *fmt, ...)
{
    char line[768];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t len = strlen(line);
    size_t old = f->trace != NULL ? strlen(f->trace) : 0;
    char *p = realloc(f->trace, old + len + 2);
    if (p == NULL)
        return;
    memcpy(p + old, line, len);
    p[old + len] = '\n';
    p[old + len + 1] = '\0';
    f->trace = p;
}

/* A file of frame f could not be written: the reason goes to the frame's
 * trace lines (prefixed with what was lost) and, the first time, to
 * f->write_error, which the command prints on stderr. */
static void check_write_failed(rf_check_frame_t *f, const char *what, const char *why)
{
    check_trace_line(f, "%s: %s", what, why);
    if (!f->write_failed)
        snprintf(f->write_error, sizeof f->write_error, "%s", why);
    f->write_failed = 1;
}

/* mkdir -p of a folder the workers write into, once per run. */
static int check_make_dir(check_ctx_t *c, const char *dir, int *made, char *err, size_t errlen)
{
    int rc;
    pthread_mutex_lock(&c->lock);
    if (*made == 0)
        *made = rf_atomic_dir_create(dir, err, errlen) == 0 ? 1 : -1;
    rc = *made > 0 ? 0 : -1;
    pthread_mutex_unlock(&c->lock);
    return rc;
}

/* The trace's explanation of a failing frame. */
static void check_explain(check_ctx_t *c, rf_check_frame_t *f, const double *slots)
{
    rf_trace_move_t moves[RF_CHECK_MAX_MOVES];
    rf_trace_diff_t d;
    char line[640];

    if (c->trace == NULL)
        return;
    rf_trace_compare(c->trace, &c->scene->values, f->t, slots, moves, RF_CHECK_MAX_MOVES, &d);
    if (!d.has_row) {
        check_trace_line(f, "trace.csv has no row at t=%.6g (it was written for other "
                            "frames; --update records this one)", f->t);
        return;
    }
    for (size_t i = 0; i < d.nmoves; i++) {
        rf_trace_move_format(line, sizeof line, &moves[i], f->t);
        check_trace_line(f, "moved: %s", line);
    }
    if (d.moved > d.nmoves)
        check_trace_line(f, "moved: and %zu more value outputs", d.moved - d.nmoves);
    if (d.added > 0)
        check_trace_line(f, "new since the trace: '%s'%s", d.first_added,
                         d.added > 1 ? " and others" : "");
    if (d.gone > 0)
        check_trace_line(f, "gone since the trace: '%s'%s", d.first_gone,
                         d.gone > 1 ? " and others" : "");
    if (d.moved == 0 && d.added == 0 && d.gone == 0)
        check_trace_line(f, "no value moved at t=%.6g: a raster change, not a motion change",
                         f->t);
}

/* Keeps the render (and the diff image) of a failed frame for an HTML report. */
static void check_keep_images(check_worker_t *w, rf_check_frame_t *f,
                              const rf_png_frame_t *frame, int with_diff)
{
    rf_png_options_t fast = RF_PNG_OPTIONS_RENDER;
    rf_png_rgba_t img;
    if (rf_png_write_mem(frame, &fast, &f->actual_png, NULL) != RF_PNG_SUCCESS)
        rf_png_buffer_free(&f->actual_png);
    if (!with_diff)
        return;
    img.pixels = w->out;
    img.width = frame->width;
    img.height = frame->height;
    memset(&img.info, 0, sizeof img.info);
    if (rf_png_write_rgba_mem(&img, &fast, &f->diff_png, NULL) != RF_PNG_SUCCESS)
        rf_png_buffer_free(&f->diff_png);
}

/* One frame, start to end; its outcome goes to f. */
static void check_frame(check_worker_t *w, size_t i)
{
    check_ctx_t *c = w->c;
    const rf_check_options_t *o = c->o;
    rf_check_run_t *run = c->run;
    rf_check_frame_t *f = &run->frames[i];
    const rf_scene_t *sc = c->scene;
    uint32_t W = (uint32_t)sc->width, H = (uint32_t)sc->height;
    double t0 = check_now();
    rf_diffstream_t ds;
    rf_png_error_t perr;
    rf_png_frame_t frame;
    int stride;
    char pct[RF_NUM_BUF], lim[64];

    if (f->status == RF_CHECK_NO_FRAME) {
        check_message(f, "a golden for a frame the scene does not have (it has %ld frames, "
                         "0..%ld); delete %s if the animation got shorter",
                      sc->nframes, sc->nframes - 1, f->golden_path);
        f->seconds = check_now() - t0;
        return;
    }
    if (rf_renderer_draw(w->r, f->t) != 0) {
        f->status = RF_CHECK_ERROR;
        check_message(f, "render failed: %s", rf_renderer_error(w->r));
        f->seconds = check_now() - t0;
        return;
    }
    memcpy(c->slots + i * sc->values.nslots, rf_renderer_slots(w->r),
           sc->values.nslots * sizeof(double));
    c->rendered[i] = 1;
    frame.pixels = (const uint32_t *)(const void *)rf_renderer_pixels(w->r, &stride);
    frame.width = W;
    frame.height = H;
    frame.stride = (size_t)stride;

    /* golden first: the diff image is a faded copy of the golden, and
     * the alternative color marks pixels where the frame is darker */
    rf_diffstream_file_frame(&ds, f->golden_path, &frame, w->golden, w->actual, &o->diff);
    if (ds.status == RF_DIFFSTREAM_COMPARED) {
        f->diff = ds.diff;
        if (rf_diff_within(&f->diff, o->max_diff_pixels, o->max_diff_ratio)) {
            f->status = RF_CHECK_PASS;
            if (f->diff.different > 0) {
                check_message(f, "%llu %s (%s), within the limits",
                              (unsigned long long)f->diff.different,
                              check_pixels_differ(f->diff.different),
                              check_percent(pct, f->diff.different, f->diff.pixels));
            }
        } else {
            f->status = RF_CHECK_DIFFERENT;
            check_percent(pct, f->diff.different, f->diff.pixels);
            /* the limits that constrain: a count, a share, or both */
            char rp[RF_NUM_BUF];
            rf_num_percent(rp, o->max_diff_ratio);
            if (o->max_diff_pixels == UINT64_MAX)
                snprintf(lim, sizeof lim, "%s", rp);
            else if (o->max_diff_ratio > 0 && o->max_diff_ratio < 1)
                snprintf(lim, sizeof lim, "%llu and %s", (unsigned long long)o->max_diff_pixels,
                         rp);
            else
                snprintf(lim, sizeof lim, "%llu", (unsigned long long)o->max_diff_pixels);
            check_message(f, "%llu %s (%s), allowed %s, in x %u..%u, y %u..%u%s",
                          (unsigned long long)f->diff.different,
                          check_pixels_differ(f->diff.different), pct, lim, f->diff.x0,
                          f->diff.x1, f->diff.y0, f->diff.y1,
                          f->diff.antialiased > 0 ? " (anti-aliased pixels ignored)" : "");
            check_explain(c, f, rf_renderer_slots(w->r));
        }
    } else if (ds.status == RF_DIFFSTREAM_SIZE) {
        f->status = RF_CHECK_SIZE;
        f->golden_width = ds.side[0].width;
        f->golden_height = ds.side[0].height;
        check_message(f, "size mismatch: the golden is %ux%u, the frame is %ux%u",
                      f->golden_width, f->golden_height, W, H);
    } else if (ds.side[0].st == RF_PNG_NOT_FOUND) {
        f->status = RF_CHECK_MISSING;
        check_message(f, "missing golden %s", f->golden_path);
    } else {
        f->status = RF_CHECK_UNREADABLE;
        check_message(f, "unreadable golden: %s", ds.side[0].err.message);
    }
    rf_diffstream_destroy(&ds);

    /* Diff images: only for frames that failed on pixels. */
    if (f->status == RF_CHECK_DIFFERENT && (o->diff_dir != NULL || o->keep_images)) {
        if (o->diff.diff_mask)
            memset(w->out, 0, (size_t)W * H * 4);
        rf_diff_rgba(w->golden, w->actual, w->out, W, H, &o->diff, NULL);
        if (o->diff_dir != NULL) {
            char path[RF_CHECK_PATH_MAX];
            rf_png_options_t gopt = RF_PNG_OPTIONS_GOLDEN;
            rf_png_rgba_t img = { w->out, W, H, { W, H, 8, 6, 0 } };
            if (check_make_dir(c, o->diff_dir, &c->diff_dir_made, c->diff_dir_err,
                               sizeof c->diff_dir_err) != 0) {
                snprintf(f->diff_path, sizeof f->diff_path, "%s", "");
                check_write_failed(f, "no diff image", c->diff_dir_err);
            } else if (check_path_join(path, sizeof path, o->diff_dir, f->name, ".diff.png") !=
                       0) {
                check_trace_line(f, "no diff image: the path is too long");
            } else if (rf_png_write_rgba_path(&img, &gopt, path, 0, &perr) != RF_PNG_SUCCESS) {
                check_write_failed(f, "no diff image", perr.message);
            } else {
                snprintf(f->diff_path, sizeof f->diff_path, "%s", path);
            }
        }
    }
    if (o->keep_images && f->status != RF_CHECK_PASS)
        check_keep_images(w, f, &frame, f->status == RF_CHECK_DIFFERENT);

    if (o->update && f->status != RF_CHECK_PASS) {
        rf_png_options_t gopt = RF_PNG_OPTIONS_GOLDEN;
        if (check_make_dir(c, run->golden_dir, &c->golden_dir_made, c->golden_dir_err,
                           sizeof c->golden_dir_err) != 0) {
            check_write_failed(f, "not updated", c->golden_dir_err);
        } else if (rf_png_write_path(&frame, &gopt, f->golden_path, RF_ATOMIC_FSYNC, &perr) !=
                   RF_PNG_SUCCESS) {
            check_write_failed(f, "not updated", perr.message);
        } else {
            f->updated = 1;
        }
    }
    f->seconds = check_now() - t0;
}

static void *check_worker_main(void *arg)
{
    check_worker_t *w = arg;
    check_ctx_t *c = w->c;
    for (;;) {
        size_t i;
        pthread_mutex_lock(&c->lock);
        i = c->next++;
        pthread_mutex_unlock(&c->lock);
        if (i >= c->run->nframes)
            break;
        check_frame(w, i);
        pthread_mutex_lock(&c->lock);
        c->done[i] = 1;
        pthread_cond_broadcast(&c->cond);
        pthread_mutex_unlock(&c->lock);
    }
    return NULL;
}

/* ------------------------------------------------------------ frame list */

static int check_cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* "frame-" digits ".png" exactly as render names frame index (digits of
 * the scene's frame count): the index, or -1 for any other name. */
static long check_golden_index(const char *name, int digits)
{
    char canon[64];
    const char *p = name + 6;
    long idx = 0;
    size_t nd = 0;

    if (strncmp(name, "frame-", 6) != 0)
        return -1;
    while (p[nd] >= '0' && p[nd] <= '9') {
        if (nd >= 18)
            return -1;
        idx = idx * 10 + (p[nd] - '0');
        nd++;
    }
    if (nd == 0 || strcmp(p + nd, ".png") != 0)
        return -1;
    snprintf(canon, sizeof canon, "frame-%0*ld.png", digits, idx);
    return strcmp(canon, name) == 0 ? idx : -1;
}

/* The golden files present: their indices, sorted. *n = 0 and 0 returned
 * when the folder does not exist (*missing = 1). -1 with err on failure. */
static int check_scan(const char *dir, int digits, long **out, size_t *n, int *missing,
                      int *status, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t cap = 0;
    long *v = NULL;

    *n = 0;
    *missing = 0;
    *out = NULL;
    if (d == NULL) {
        if (errno == ENOENT) {
            *missing = 1;
            return 0;
        }
        *status = errno == ENOTDIR ? RF_EXIT_USAGE : RF_EXIT_IO;
        snprintf(err, errlen, "%s: %s", dir,
                 errno == ENOTDIR ? "not a folder" : strerror(errno));
        return -1;
    }
    while ((de = readdir(d)) != NULL) {
        long idx = check_golden_index(de->d_name, digits);
        if (idx < 0)
            continue;
        if (*n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            long *p = realloc(v, nc * sizeof *v);
            if (p == NULL) {
                free(v);
                closedir(d);
                *status = RF_EXIT_IO;
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            v = p;
            cap = nc;
        }
        v[(*n)++] = idx;
    }
    closedir(d);
    if (*n > 0)
        qsort(v, *n, sizeof *v, check_cmp_long);
    *out = v;
    return 0;
}

/* ------------------------------------------------------------ trace.csv */

/* Writes DIR/trace.csv from the frames rendered in this run, unless the
 * file already holds exactly those bytes (its mtime then stays). */
static void check_write_trace(check_ctx_t *c)
{
    rf_check_run_t *run = c->run;
    const rf_scene_t *sc = c->scene;
    size_t ns = sc->values.nslots, k = 0;
    double *times = malloc((run->nframes + 1) * sizeof *times);
    double *rows = malloc((run->nframes * ns + 1) * sizeof *rows);
    char path[RF_CHECK_PATH_MAX], err[600];
    char *text = NULL;
    size_t len = 0;

    if (times == NULL || rows == NULL) {
        snprintf(run->trace_error, sizeof run->trace_error, "%s/%s: out of memory",
                 run->golden_dir, RF_TRACE_FILE);
        goto out;
    }
    for (size_t i = 0; i < run->nframes; i++) {
        if (!c->rendered[i])
            continue;
        times[k] = run->frames[i].t;
        memcpy(rows + k * ns, c->slots + i * ns, ns * sizeof(double));
        k++;
    }
    if (k == 0)
        goto out;
    if (check_path_join(path, sizeof path, run->golden_dir, RF_TRACE_FILE, "") != 0)
        goto out;
    if (rf_trace_format(&sc->values, times, rows, k, &text, &len) != 0) {
        snprintf(run->trace_error, sizeof run->trace_error, "%s/%s: out of memory",
                 run->golden_dir, RF_TRACE_FILE);
        goto out;
    }
    /* Same bytes: leave the file (and its mtime) alone. */
    FILE *fp = fopen(path, "rb");
    if (fp != NULL) {
        struct stat stbuf;
        int same = 0;
        if (fstat(fileno(fp), &stbuf) == 0 && S_ISREG(stbuf.st_mode) &&
            (uint64_t)stbuf.st_size == len) {
            char *old = malloc(len + 1);
            if (old != NULL && fread(old, 1, len, fp) == len && memcmp(old, text, len) == 0)
                same = 1;
            free(old);
        }
        fclose(fp);
        if (same)
            goto out;
    }
    if (check_make_dir(c, run->golden_dir, &c->golden_dir_made, c->golden_dir_err,
                       sizeof c->golden_dir_err) != 0) {
        snprintf(run->trace_error, sizeof run->trace_error, "%s", c->golden_dir_err);
        run->io_errors++;
        goto out;
    }
    if (rf_atomic_file_write(path, text, len, RF_ATOMIC_FSYNC, err, sizeof err) != 0) {
        snprintf(run->trace_error, sizeof run->trace_error, "%s", err);
        run->io_errors++;
        goto out;
    }
    run->trace_written = 1;
out:
    free(text);
    free(times);
    free(rows);
}

/* ------------------------------------------------------------ execute */

static void check_worker_free(check_worker_t *w)
{
    rf_renderer_destroy(w->r);
    free(w->actual);
    free(w->golden);
    free(w->out);
    memset(w, 0, sizeof *w);
}

static int check_worker_init(check_worker_t *w, check_ctx_t *c, char *err, size_t errlen)
{
    size_t bytes = (size_t)c->scene->width * (size_t)c->scene->height * 4;
    memset(w, 0, sizeof *w);
    w->c = c;
    w->r = rf_renderer_create(c->scene, err, errlen);
    if (w->r == NULL)
        return -1;
    w->actual = malloc(bytes);
    w->golden = malloc(bytes);
    w->out = malloc(bytes);
    if (w->actual == NULL || w->golden == NULL || w->out == NULL) {
        snprintf(err, errlen, "out of memory (%zu bytes per frame buffer)", bytes);
        check_worker_free(w);
        return -1;
    }
    return 0;
}

int rf_check_execute(const rf_scene_t *scene, const char *scene_path,
                     const rf_check_options_t *o, rf_check_run_t *run, int *exit_status,
                     char *err, size_t errlen)
{
    check_ctx_t c;
    check_worker_t *workers = NULL;
    long *idx = NULL;
    size_t n = 0, nw = 0;
    int digits = rf_frames_digits(scene->nframes), missing = 0, rc = -1;
    rf_trace_t *trace = NULL;
    double t0 = check_now();
    time_t now = time(NULL);
    struct tm tm;

    memset(run, 0, sizeof *run);
    memset(&c, 0, sizeof c);
    *exit_status = RF_EXIT_IO;
    run->scene_path = scene_path;
    run->golden_dir = o->golden_dir;
    run->width = (uint32_t)scene->width;
    run->height = (uint32_t)scene->height;
    run->diff = o->diff;
    run->max_diff_pixels = o->max_diff_pixels;
    run->max_diff_ratio = o->max_diff_ratio;
    run->update = o->update;
    if (gmtime_r(&now, &tm) != NULL)
        strftime(run->timestamp, sizeof run->timestamp, "%Y-%m-%dT%H:%M:%SZ", &tm);

    /* Which frames. */
    if (scene->has_checks) {
        idx = malloc((scene->ncheck_frames + 1) * sizeof *idx);
        if (idx == NULL) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
        for (uint32_t i = 0; i < scene->ncheck_frames; i++)
            idx[i] = scene->check_frames[i];
        n = scene->ncheck_frames;
    } else {
        if (check_scan(o->golden_dir, digits, &idx, &n, &missing, exit_status, err, errlen) != 0)
            goto out;
        if (n == 0 && o->update) {
            free(idx);
            idx = malloc((size_t)scene->nframes * sizeof *idx);
            if (idx == NULL) {
                snprintf(err, errlen, "out of memory");
                goto out;
            }
            for (long i = 0; i < scene->nframes; i++)
                idx[i] = i;
            n = (size_t)scene->nframes;
        }
        if (n == 0) {
            *exit_status = RF_EXIT_USAGE;
            snprintf(err, errlen,
                     "%s: %s, and %s has no \"checks\": nothing to compare (add \"checks\" "
                     "to the scene, or write goldens with --update)",
                     o->golden_dir, missing ? "no such folder" : "no goldens (frame-NNNNN.png)",
                     scene_path);
            goto out;
        }
    }

    run->frames = calloc(n, sizeof *run->frames);
    c.slots = malloc((n * scene->values.nslots + 1) * sizeof *c.slots);
    c.rendered = calloc(n, 1);
    c.done = calloc(n, 1);
    if (run->frames == NULL || c.slots == NULL || c.rendered == NULL || c.done == NULL) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    run->nframes = n;
    for (size_t i = 0; i < n; i++) {
        rf_check_frame_t *f = &run->frames[i];
        f->index = idx[i];
        f->t = idx[i] < scene->nframes ? rf_scene_frame_time(scene, idx[i]) : idx[i] / scene->fps;
        snprintf(f->name, sizeof f->name, "frame-%0*ld", digits, idx[i]);
        if (check_path_join(f->golden_path, sizeof f->golden_path, o->golden_dir, f->name,
                            ".png") != 0) {
            *exit_status = RF_EXIT_USAGE;
            snprintf(err, errlen, "%s: folder name too long", o->golden_dir);
            goto out;
        }
        if (idx[i] >= scene->nframes)
            f->status = RF_CHECK_NO_FRAME;
    }

    /* The trace that explains failures (before update rewrites it). */
    {
        char path[RF_CHECK_PATH_MAX], terr[512];
        int tmissing = 0;
        check_path_join(path, sizeof path, o->golden_dir, RF_TRACE_FILE, "");
        trace = rf_trace_load(path, &tmissing, terr, sizeof terr);
        if (trace == NULL && !tmissing)
            snprintf(run->warning, sizeof run->warning,
                     "ignoring the value trace: %s", terr);
    }

    c.scene = scene;
    c.o = o;
    c.run = run;
    c.trace = trace;
    pthread_mutex_init(&c.lock, NULL);
    pthread_cond_init(&c.cond, NULL);

    nw = o->jobs < 1 ? 1 : (size_t)o->jobs;
    if (nw > n)
        nw = n;
    workers = calloc(nw, sizeof *workers);
    if (workers == NULL) {
        snprintf(err, errlen, "out of memory");
        goto out_sync;
    }
    for (size_t i = 0; i < nw; i++) {
        if (check_worker_init(&workers[i], &c, err, errlen) != 0) {
            if (i == 0)
                goto out_sync;
            nw = i;   /* fewer workers rather than none */
            break;
        }
    }

    if (nw == 1) {
        for (size_t i = 0; i < n; i++) {
            check_frame(&workers[0], i);
            if (o->on_frame != NULL)
                o->on_frame(o->ctx, &run->frames[i]);
        }
    } else {
        size_t started = 0;
        for (; started < nw; started++)
            if (pthread_create(&workers[started].thread, NULL, check_worker_main,
                               &workers[started]) != 0)
                break;
        if (started == 0) {
            /* no thread at all: do the work here */
            for (size_t i = 0; i < n; i++)
                check_frame(&workers[0], i);
            memset(c.done, 1, n);
        }
        for (size_t i = 0; i < n; i++) {
            pthread_mutex_lock(&c.lock);
            while (!c.done[i])
                pthread_cond_wait(&c.cond, &c.lock);
            pthread_mutex_unlock(&c.lock);
            if (o->on_frame != NULL)
                o->on_frame(o->ctx, &run->frames[i]);
        }
        for (size_t i = 0; i < started; i++)
            pthread_join(workers[i].thread, NULL);
    }

    for (size_t i = 0; i < n; i++) {
        rf_check_frame_t *f = &run->frames[i];
        if (f->status == RF_CHECK_PASS)
            run->passed++;
        else if (f->updated)
            run->updated++;
        else
            run->failed++;
        if (f->write_failed ||
            (!f->updated && (f->status == RF_CHECK_UNREADABLE || f->status == RF_CHECK_ERROR)))
            run->io_errors++;
    }
    if (o->update)
        check_write_trace(&c);
    rc = 0;
    *exit_status = RF_EXIT_OK;

out_sync:
    for (size_t i = 0; workers != NULL && i < nw; i++)
        check_worker_free(&workers[i]);
    pthread_cond_destroy(&c.cond);
    pthread_mutex_destroy(&c.lock);
out:
    free(workers);
    free(idx);
    free(c.slots);
    free(c.rendered);
    free(c.done);
    rf_trace_destroy(trace);
    run->seconds = check_now() - t0;
    return rc;
}

void rf_check_run_destroy(rf_check_run_t *run)
{
    if (run == NULL)
        return;
    for (size_t i = 0; i < run->nframes; i++) {
        free(run->frames[i].trace);
        rf_png_buffer_free(&run->frames[i].actual_png);
        rf_png_buffer_free(&run->frames[i].diff_png);
    }
    free(run->frames);
    run->frames = NULL;
    run->nframes = 0;
}
