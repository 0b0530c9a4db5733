/* check-frame.c - one frame of a check (check-int.h): render it, compare
 * it with its golden while the golden decodes, explain a failure from the
 * trace, write its diff image and, with update, its golden. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "check-int.h"
#include "diffstream.h"
#include "font.h"
#include "image.h"
#include "numfmt.h"

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

void check_trace_line(rf_check_frame_t *f, const char *fmt, ...)
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


/* One trace line for each image or font file whose bytes differ from
 * those the trace recorded (trace.h); returns how many, the first one's
 * kind and file in *kind and *file. */
static int check_explain_assets(const rf_scene_t *sc, const rf_trace_t *trace,
                                rf_check_frame_t *f, const char **kind, const char **file)
{
    char hex[RF_SHA256_HEX];
    int n = 0;
    for (uint32_t i = 0; i < sc->nimages + sc->nfonts; i++) {
        int img = i < sc->nimages;
        const char *name = img ? sc->images[i]->file : sc->fonts[i - sc->nimages]->file;
        if (!img && sc->fonts[i - sc->nimages]->builtin)
            continue;
        if (img)
            rf_sha256_hex(sc->images[i]->sha256, hex);
        else
            rf_font_sha256_hex(sc->fonts[i - sc->nimages], hex);
        const char *was = rf_trace_asset(trace, name);
        if (was == NULL || strcmp(was, hex) == 0)
            continue;
        check_trace_line(f, "%s changed since the goldens: '%s' (SHA-256 %.12s... -> %.12s...)",
                         img ? "image" : "font", name, was, hex);
        if (n++ == 0) {
            *kind = img ? "image" : "font";
            *file = name;
        }
    }
    return n;
}

/* The trace's explanation of a failing frame, then its causes. */
static void check_explain(check_ctx_t *c, rf_check_frame_t *f, const double *slots)
{
    rf_trace_move_t moves[RF_CHECK_MAX_MOVES];
    rf_trace_diff_t d;
    char line[640];
    const char *kind = NULL, *file = NULL;
    int changed = 0;

    if (c->trace == NULL)
        goto causes;
    rf_trace_compare(c->trace, &c->scene->values, c->cause.inames, f->t, slots, moves,
                     RF_CHECK_MAX_MOVES, &d);
    if (!d.has_row) {
        check_trace_line(f, "trace.csv has no row at t=%.6g (it was written for other "
                            "frames; --update records this one)", f->t);
        goto causes;
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
    if (d.gone > 0 && d.first_gone != NULL)
        check_trace_line(f, "gone since the trace: '%s'%s", d.first_gone,
                         d.gone > 1 ? " and others" : "");
    else if (d.gone > 0)
        check_trace_line(f, "gone since the trace: %zu value outputs", d.gone);
    changed = check_explain_assets(c->scene, c->trace, f, &kind, &file);
    if (d.moved == 0 && d.added == 0 && d.gone == 0 && changed == 0)
        check_trace_line(f, "no value moved at t=%.6g: a raster change, not a motion change",
                         f->t);
    else if (d.moved == 0 && d.added == 0 && d.gone == 0)
        check_trace_line(f, "no value moved at t=%.6g: the changed asset%s above, not a motion "
                         "change", f->t, changed > 1 ? "s" : "");
causes:
    check_cause_explain(c, f, slots, changed, kind, file);
}

/* Keeps the render (and the diff image) of a failed frame for an HTML report. */
static void check_keep_images(check_worker_t *w, rf_check_frame_t *f,
                              const rf_png_frame_t *frame, int with_diff)
{
    rf_png_options_t fast = RF_PNG_OPTIONS_RENDER;
    rf_png_rgba_t img;
    if (rf_png_write_mem(frame, &fast, &f->actual_png, NULL) != RF_PNG_SUCCESS)
        rf_png_buffer_destroy(&f->actual_png);
    if (!with_diff)
        return;
    img.pixels = w->out;
    img.width = frame->width;
    img.height = frame->height;
    memset(&img.info, 0, sizeof img.info);
    if (rf_png_write_rgba_mem(&img, &fast, &f->diff_png, NULL) != RF_PNG_SUCCESS)
        rf_png_buffer_destroy(&f->diff_png);
}

/* One frame, start to end; its outcome goes to f. */
void check_frame(check_worker_t *w, size_t i)
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
    int drawn = rf_renderer_draw(w->r, f->t);
    if (drawn != 0) {
        f->status = RF_CHECK_ERROR;
        f->undrawable = drawn == RF_RENDER_UNDRAWABLE;
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
    frame.opaque = rf_renderer_opaque(w->r);

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

void *check_worker_main(void *arg)
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
