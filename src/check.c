/* check.c - golden-image regression (check.h): the run. Which frames,
 * the workers that render and compare them (check-frame.c), the counts;
 * the golden folder is check-golden.c's. */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime, gmtime_r */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomic.h"
#include "check-int.h"
#include "diag.h"
#include "frames.h"

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

/* ------------------------------------------------------------ helpers */

double check_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "DIR/NAME" into buf without doubling a slash the folder ends with
 * ("golden/x/" and "golden/x" name the same files, and say so alike);
 * returns 0, or -1 when it does not fit. */
int check_path_join(char *buf, size_t cap, const char *dir, const char *name,
                    const char *ext)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    int len = snprintf(buf, cap, "%.*s%s%s%s", (int)n, dir,
                       n == 1 && dir[0] == '/' ? "" : "/", name, ext);
    return len >= 0 && (size_t)len < cap ? 0 : -1;
}

/* mkdir -p of a folder the workers write into, once per run. */
int check_make_dir(check_ctx_t *c, const char *dir, int *made, char *err, size_t errlen)
{
    int rc;
    pthread_mutex_lock(&c->lock);
    if (*made == 0)
        *made = rf_atomic_dir_create(dir, err, errlen) == 0 ? 1 : -1;
    rc = *made > 0 ? 0 : -1;
    pthread_mutex_unlock(&c->lock);
    return rc;
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
    check_cause_init(&c);
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
                o->on_frame(o->ctx, &run->frames[i], i + 1, n);
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
                o->on_frame(o->ctx, &run->frames[i], i + 1, n);
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
        if (f->status == RF_CHECK_ERROR && f->undrawable)
            run->scene_errors++;
        else if (f->write_failed ||
                 (!f->updated && (f->status == RF_CHECK_UNREADABLE || f->status == RF_CHECK_ERROR)))
            run->io_errors++;
    }
    if (o->update) {
        check_write_trace(&c);
        check_write_scene(&c);
    }
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
    check_cause_free(&c.cause);
    run->seconds = check_now() - t0;
    return rc;
}

void rf_check_run_destroy(rf_check_run_t *run)
{
    if (run == NULL)
        return;
    for (size_t i = 0; i < run->nframes; i++) {
        free(run->frames[i].trace);
        rf_png_buffer_destroy(&run->frames[i].actual_png);
        rf_png_buffer_destroy(&run->frames[i].diff_png);
    }
    free(run->frames);
    run->frames = NULL;
    run->nframes = 0;
}

