/* frames.c - producing a scene's frames: producers, formats and the
 * threaded job runner (semantics in frames.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include "frames.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cairo.h>

#include "atomic.h"
#include "bigbuf.h"
#include "layer.h"
#include "render.h"
#include "values.h"

/* ------------------------------------------------------------------ formats */

/* BT.709 limited range over exact integers (frames.h): per-channel
 * numerators, summed per pixel, then one rounding division. */
#define Y_DEN 2550000     /* 255 * 10000 */
#define CB_DEN 4731780    /* 255 * 18556 */
#define CR_DEN 4015740    /* 255 * 15748 */

static int32_t yuv_y[3][256], yuv_cb[3][256], yuv_cr[3][256];
static pthread_once_t yuv_once = PTHREAD_ONCE_INIT;

static void yuv_tables_init(void)
{
    for (int32_t v = 0; v < 256; v++) {
        yuv_y[0][v] = 219 * 2126 * v;
        yuv_y[1][v] = 219 * 7152 * v;
        yuv_y[2][v] = 219 * 722 * v;
        yuv_cb[0][v] = -224 * 2126 * v;
        yuv_cb[1][v] = -224 * 7152 * v;
        yuv_cb[2][v] = 224 * 9278 * v;
        yuv_cr[0][v] = 224 * 7874 * v;
        yuv_cr[1][v] = -224 * 7152 * v;
        yuv_cr[2][v] = -224 * 722 * v;
    }
}

/* round(offset + num / den) with round = floor(x + 1/2), where offset * den
 * + num >= 0 (true for every channel: the offsets keep results in 16..240). */
static inline uint8_t yuv_round(int64_t offset, int64_t num, int64_t den)
{
    int64_t n = offset * den + num;
    return (uint8_t)((2 * n + den) / (2 * den));
}

/* A premultiplied ARGB32 frame to "FRAME\n" and the Y, Cb, Cr planes. The
 * premultiplied channels are the color composited over black. */
static void frame_to_y4m(uint8_t *dst, const unsigned char *pix, int stride, int w, int h)
{
    size_t plane = (size_t)w * (size_t)h;
    uint8_t *py = dst + 6, *pu = py + plane, *pv = pu + plane;

    memcpy(dst, "FRAME\n", 6);
    for (int y = 0; y < h; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(pix + (size_t)y * (size_t)stride);
        for (int x = 0; x < w; x++) {
            uint32_t p = row[x];
            uint32_t r = p >> 16 & 255, g = p >> 8 & 255, b = p & 255;
            *py++ = yuv_round(16, yuv_y[0][r] + yuv_y[1][g] + yuv_y[2][b], Y_DEN);
            *pu++ = yuv_round(128, yuv_cb[0][r] + yuv_cb[1][g] + yuv_cb[2][b], CB_DEN);
            *pv++ = yuv_round(128, yuv_cr[0][r] + yuv_cr[1][g] + yuv_cr[2][b], CR_DEN);
        }
    }
}

static void frame_to_rgba(uint8_t *dst, const unsigned char *pix, int stride, int w, int h)
{
    for (int y = 0; y < h; y++)
        rf_png_row_to_rgba(dst + (size_t)y * (size_t)w * 4,
                           (const uint32_t *)(const void *)(pix + (size_t)y * (size_t)stride),
                           (size_t)w);
}

/* The canvas's rows, as they are, packed. */
static void frame_to_canvas(uint8_t *dst, const unsigned char *pix, int stride, int w, int h)
{
    for (int y = 0; y < h; y++)
        memcpy(dst + (size_t)y * (size_t)w * 4, pix + (size_t)y * (size_t)stride, (size_t)w * 4);
}

const char *rf_frames_canvas_pix_fmt(void)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return "0rgb";
#else
    return "bgr0";
#endif
}

size_t rf_frames_frame_size(const rf_scene_t *scene, rf_frames_format_t format)
{
    size_t n = (size_t)scene->width * (size_t)scene->height;

    switch (format) {
    case RF_FRAMES_Y4M:
        return 6 + 3 * n;
    case RF_FRAMES_RGBA:
    case RF_FRAMES_CANVAS:
        return 4 * n;
    case RF_FRAMES_PNG:
    default:
        return 0;
    }
}

void rf_frames_fps_rational(double fps, uint32_t *num, uint32_t *den)
{
    const double lim = 2147483647.0;
    double h0 = 0, h1 = 1, k0 = 1, k1 = 0;   /* convergents h/k */
    double x = fps;

    if (!(fps > 0) || !(fps <= lim)) {
        *num = 0;
        *den = 1;
        return;
    }
    for (int i = 0; i < 64; i++) {
        double a = floor(x);
        double h2 = a * h1 + h0, k2 = a * k1 + k0;

        if (h2 > lim || k2 > lim)
            break;
        h0 = h1;
        h1 = h2;
        k0 = k1;
        k1 = k2;
        if (h1 / k1 == fps || x - a == 0)
            break;
        x = 1 / (x - a);
    }
    *num = (uint32_t)h1;
    *den = (uint32_t)k1;
}

size_t rf_frames_y4m_header(const rf_scene_t *scene, char *buf, size_t cap)
{
    uint32_t num, den;
    int n;

    rf_frames_fps_rational(scene->fps, &num, &den);
    n = snprintf(buf, cap, "YUV4MPEG2 W%d H%d F%u:%u Ip A1:1 C444 XCOLORRANGE=LIMITED\n",
                 scene->width, scene->height, (unsigned)num, (unsigned)den);
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

int rf_frames_digits(long nframes)
{
    int d = 1;

    for (long last = nframes > 0 ? nframes - 1 : 0; last >= 10; last /= 10)
        d++;
    return d < RF_FRAMES_MIN_DIGITS ? RF_FRAMES_MIN_DIGITS : d;
}

int rf_frames_file_name(char *buf, size_t cap, const char *dir, long index, int digits)
{
    return snprintf(buf, cap, "%s%sframe-%0*ld.png", dir,
                    dir[0] != '\0' && dir[strlen(dir) - 1] == '/' ? "" : "/", digits, index);
}

void rf_frames_select(long a, long b, long k, long n, rf_frames_range_t *out)
{
    /* the first index >= a with index % n == k - 1 */
    long r = a % n, first = a + ((k - 1 - r) % n + n) % n;

    out->first = first;
    out->step = n;
    out->count = first < b ? (b - first + n - 1) / n : 0;
}

/* ------------------------------------------------------------------ producer */

struct rf_frames_producer {
    const rf_scene_t *scene;
    rf_renderer_t *renderer;
    int lent;                  /* the renderer is the caller's */
    rf_frames_format_t format;
    rf_png_options_t png;
    int reuse;
    int have;                  /* bytes and key hold a frame */
    /* Layers that read values at t - shift (instances, per_glyph): equal
     * values at t do not make equal frames. Then a frame is reused only
     * when it and the last one lie past settled + shift, where every value
     * it reads, at every shifted time, is its final value. */
    double shift;
    double settled;            /* the latest settle time of the used values */
    int last_late;             /* the last frame lay past settled + shift */
    uint32_t nused;            /* slots the layers read */
    uint32_t *used;            /* their indices */
    double *probe;             /* values.nslots: this frame's values */
    uint64_t *key;             /* nused: bits of the used slots of the last frame */
    rf_png_buffer_t bytes;     /* the last frame's bytes */
    int canvas_rgba;           /* the canvas holds its frame as RGBA bytes,
                                * converted in place (produce_canvas) */
    int swap;                  /* each frame drawn after the first on the
                                * renderer's other canvas (a piped stream) */
    int drawn;                 /* a frame has been drawn */
};

void rf_frames_producer_destroy(rf_frames_producer_t *p)
{
    if (p == NULL)
        return;
    if (!p->lent)
        rf_renderer_destroy(p->renderer);
    free(p->used);
    free(p->probe);
    free(p->key);
    rf_png_buffer_destroy(&p->bytes);
    free(p);
}

/* rf_frames_producer_create(), and in *sys_errno (may be NULL) ENOMEM when
 * it failed for want of memory, 0 otherwise: a status, never the message. */
static rf_frames_producer_t *producer_create(const rf_scene_t *scene, rf_frames_format_t format,
                                             const rf_png_options_t *png, int reuse,
                                             rf_renderer_t *lend, int *sys_errno, char *err,
                                             size_t errlen)
{
    const rf_values_t *vs = &scene->values;
    rf_frames_producer_t *p = calloc(1, sizeof *p);
    rf_png_options_t def = RF_PNG_OPTIONS_RENDER;
    uint32_t n = 0;

    if (p == NULL)
        goto oom;
    p->scene = scene;
    p->format = format;
    p->png = png != NULL ? *png : def;
    p->reuse = reuse;
    for (uint32_t i = 0; i < vs->n; i++)
        if (vs->values[i].used)
            n += vs->values[i].nout;
    p->used = malloc((n ? n : 1) * sizeof *p->used);
    p->key = calloc(n ? n : 1, sizeof *p->key);   /* compared before the first frame sets it */
    p->probe = malloc((vs->nslots ? vs->nslots : 1) * sizeof *p->probe);
    if (p->used == NULL || p->key == NULL || p->probe == NULL)
        goto oom;
    for (uint32_t i = 0; i < vs->n; i++)
        if (vs->values[i].used) {
            for (uint32_t j = 0; j < vs->values[i].nout; j++)
                p->used[p->nused++] = vs->values[i].slot + j;
            if (!(vs->values[i].settle <= p->settled))
                p->settled = vs->values[i].settle;   /* INFINITY: never */
        }
    for (uint32_t i = 0; i < scene->nlayers; i++) {
        double s = rf_layer_time_shift(&scene->layers[i]);
        p->shift = s > p->shift ? s : p->shift;
    }
    if (format == RF_FRAMES_Y4M)
        pthread_once(&yuv_once, yuv_tables_init);
    /* the renderer says in errno whether memory ran out (render.h) */
    p->lent = lend != NULL;
    p->renderer = lend != NULL ? lend : rf_renderer_create(scene, err, errlen);
    if (p->renderer == NULL) {
        if (sys_errno != NULL)
            *sys_errno = errno == ENOMEM ? ENOMEM : 0;
        rf_frames_producer_destroy(p);
        return NULL;
    }
    return p;
oom:
    if (sys_errno != NULL)
        *sys_errno = ENOMEM;
    snprintf(err, errlen, "out of memory");
    rf_frames_producer_destroy(p);
    return NULL;
}

rf_frames_producer_t *rf_frames_producer_create(const rf_scene_t *scene,
                                                rf_frames_format_t format,
                                                const rf_png_options_t *png, int reuse,
                                                char *err, size_t errlen)
{
    return producer_create(scene, format, png, reuse, NULL, NULL, err, errlen);
}

rf_frames_producer_t *rf_frames_producer_create_with(const rf_scene_t *scene,
                                                     rf_frames_format_t format,
                                                     const rf_png_options_t *png, int reuse,
                                                     rf_renderer_t *r, char *err, size_t errlen)
{
    return producer_create(scene, format, png, reuse, r, NULL, err, errlen);
}

/* Whether the used slots of probe hold the bits of key; then copies them
 * into key. */
static int producer_same_key(rf_frames_producer_t *p)
{
    int same = p->have;

    for (uint32_t i = 0; i < p->nused; i++) {
        uint64_t bits;
        memcpy(&bits, &p->probe[p->used[i]], sizeof bits);
        if (bits != p->key[i]) {
            same = 0;
            p->key[i] = bits;
        }
    }
    return same;
}

/* 1 when the frame at t would be the bytes of the last one (frames.h
 * "Reuse"); updates the key. */
static int producer_same(rf_frames_producer_t *p, double t)
{
    if (!p->reuse)
        return 0;
    /* Cheap next to drawing: one evaluation of every value. */
    rf_values_eval(&p->scene->values, t, p->probe);
    int same = producer_same_key(p);
    if (p->shift > 0) {
        int late = t - p->shift >= p->settled;
        same = same && late && p->last_late;
        p->last_late = late;
    }
    return same;
}

/* Draws the frame at t; 0, or produce's failure with its message. */
static int producer_draw(rf_frames_producer_t *p, double t, char *err, size_t errlen)
{
    /* From here on the bytes no longer match the key until they are done. */
    p->have = 0;
    if (p->swap && p->drawn && rf_renderer_swap_canvas(p->renderer) != 0) {
        snprintf(err, errlen, "frame at t=%.17g: %s", t, rf_renderer_error(p->renderer));
        return -1;
    }
    p->drawn = 1;
    p->canvas_rgba = 0;
    int drawn = rf_renderer_draw(p->renderer, t);
    if (drawn != 0) {
        snprintf(err, errlen, "frame at t=%.17g: %s", t, rf_renderer_error(p->renderer));
        return drawn == RF_RENDER_UNDRAWABLE ? RF_RENDER_UNDRAWABLE : -1;
    }
    return 0;
}

/* The renderer's frame in a raw format (not PNG) into dst. */
static void producer_convert(const rf_frames_producer_t *p, uint8_t *dst)
{
    const rf_scene_t *sc = p->scene;
    int stride;
    const unsigned char *pix = rf_renderer_pixels(p->renderer, &stride);

    if (p->format == RF_FRAMES_Y4M)
        frame_to_y4m(dst, pix, stride, sc->width, sc->height);
    else if (p->format == RF_FRAMES_RGBA && !p->canvas_rgba)
        frame_to_rgba(dst, pix, stride, sc->width, sc->height);
    else
        frame_to_canvas(dst, pix, stride, sc->width, sc->height);
}

/* The frame at t on the canvas: drawn, or left there when it is the last
 * one again (the surface still holds it: nothing drew since). *reused,
 * the return value and err as rf_frames_produce. */
static int producer_canvas(rf_frames_producer_t *p, double t, int *reused, char *err,
                           size_t errlen)
{
    int same = producer_same(p, t);

    if (reused != NULL)
        *reused = same;
    if (!same) {
        int drawn = producer_draw(p, t, err, errlen);
        if (drawn != 0)
            return drawn;
        p->have = p->reuse;
    }
    return 0;
}

void rf_frames_producer_set_threads(rf_frames_producer_t *p, int n)
{
    rf_renderer_set_threads(p->renderer, n);
}

int rf_frames_produce_into(rf_frames_producer_t *p, double t, uint8_t *dst, int *reused,
                           char *err, size_t errlen)
{
    int rc = producer_canvas(p, t, reused, err, errlen);

    if (rc == 0)
        producer_convert(p, dst);
    return rc;
}

/* A canvas of w x h pixels, rows stride bytes apart, converted in place
 * to RGBA: the next frame drawn on it draws over every pixel (a background
 * painted with SOURCE, or the static prefix copied in). */
static void canvas_to_rgba(const uint8_t *pix, size_t stride, size_t w, size_t h)
{
    uint32_t *px = (uint32_t *)(void *)(uintptr_t)pix;
    if (stride == w * 4)
        rf_png_rows_to_rgba_inplace(px, w * h);
    else
        for (size_t y = 0; y < h; y++)
            rf_png_rows_to_rgba_inplace(px + y * (stride / 4), w);
}

/* rf_frames_produce_canvas, the conversion left to the caller when
 * *convert says so (an RGBA frame just drawn): canvas_to_rgba before the
 * producer's next call, which takes the canvas for RGBA bytes. */
static int produce_canvas_later(rf_frames_producer_t *p, double t, const uint8_t **pix,
                                size_t *stride, int *reused, int *convert, char *err,
                                size_t errlen)
{
    int rc = producer_canvas(p, t, reused, err, errlen), st;

    if (rc != 0)
        return rc;
    *pix = rf_renderer_pixels(p->renderer, &st);
    *stride = (size_t)st;
    *convert = p->format == RF_FRAMES_RGBA && !p->canvas_rgba;
    if (*convert)
        p->canvas_rgba = 1;
    return 0;
}

int rf_frames_produce_canvas(rf_frames_producer_t *p, double t, const uint8_t **pix,
                             size_t *stride, int *reused, char *err, size_t errlen)
{
    int convert, rc = produce_canvas_later(p, t, pix, stride, reused, &convert, err, errlen);

    if (rc == 0 && convert) {
        canvas_to_rgba(*pix, *stride, (size_t)p->scene->width, (size_t)p->scene->height);
        cairo_surface_mark_dirty(rf_renderer_surface(p->renderer));
    }
    return rc;
}

int rf_frames_produce(rf_frames_producer_t *p, double t, const uint8_t **data, size_t *len,
                      int *reused, char *err, size_t errlen)
{
    const rf_scene_t *sc = p->scene;
    const unsigned char *pix;
    int stride;

    if (reused != NULL)
        *reused = 0;
    if (producer_same(p, t)) {
        *data = p->bytes.data;
        *len = p->bytes.len;
        if (reused != NULL)
            *reused = 1;
        return 0;
    }
    int drawn = producer_draw(p, t, err, errlen);
    if (drawn != 0)
        return drawn;
    pix = rf_renderer_pixels(p->renderer, &stride);
    switch (p->format) {
    case RF_FRAMES_PNG: {
        rf_png_frame_t f = { (const uint32_t *)(const void *)pix, (uint32_t)sc->width,
                             (uint32_t)sc->height, (size_t)stride,
                             rf_renderer_opaque(p->renderer) };
        rf_png_error_t pe;
        if (rf_png_write_mem(&f, &p->png, &p->bytes, &pe) != RF_PNG_SUCCESS) {
            snprintf(err, errlen, "frame at t=%.17g: PNG encoder: %s", t,
                     pe.message[0] ? pe.message : rf_png_status_to_string(pe.status));
            return -1;
        }
        break;
    }
    default:
        if (p->bytes.data == NULL) {   /* the first raw frame of rf_frames_produce */
            p->bytes.cap = rf_frames_frame_size(sc, p->format);
            if ((p->bytes.data = malloc(p->bytes.cap)) == NULL) {
                p->bytes.cap = 0;
                snprintf(err, errlen, "out of memory");
                return -1;
            }
        }
        producer_convert(p, p->bytes.data);
        p->bytes.len = p->bytes.cap;
        break;
    }
    p->have = p->reuse;
    *data = p->bytes.data;
    *len = p->bytes.len;
    return 0;
}

/* ------------------------------------------------------------------ runner */

/* Streams whose frames the writer takes from the workers' canvases: a
 * worker hands over its canvas and waits until it is written. CANVAS
 * needs no conversion; RGBA is converted in place, one pass over one
 * buffer (about half the time of converting into a ring slot, which had
 * to be fetched and faulted in as well). Y4M's planes go through the
 * ring. */
static int in_canvas(rf_frames_format_t format)
{
    return format == RF_FRAMES_CANVAS || format == RF_FRAMES_RGBA;
}

typedef struct run {
    const rf_frames_job_t *job;
    int digits;
    int nworkers;
    rf_png_options_t png;       /* job->png, threads: the jobs each worker has */
    atomic_long next;          /* next position to hand out */
    atomic_long done;          /* PNG: files written */
    atomic_long rendered, reused;
    atomic_int stop;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int running;               /* workers not yet finished (mu) */
    /* streams */
    uint8_t *ring;             /* window frames (ring_mem) */
    rf_bigbuf_t ring_mem;
    size_t frame_size;
    long window;
    long *ring_pos;            /* position held by each ring slot, -1: free (mu) */
    const uint8_t **ring_pix;  /* CANVAS: each slot's canvas (mu), no ring */
    size_t *ring_stride;       /* and its row stride */
    int *ring_conv;            /* and whether the writer converts it to RGBA */
    int pipe;                  /* one worker, two canvases (run_pipe) */
    long written;              /* positions written to the stream (mu) */
    /* the first failure (mu) */
    int failed;
    int sys_errno;
    char message[RF_FRAMES_ERR_LEN];
} run_t;

typedef struct worker {
    run_t *run;
    pthread_t thread;
    int started;
    rf_renderer_t *lent;       /* the job's renderer (the first worker's), or NULL */
    int here;                  /* runs in the calling thread (one PNG frame) */
    rf_frames_producer_t *piped;   /* piped: its producer, destroyed by rf_frames_run
                                      once the writer is done with its canvases */
} worker_t;

/* run_fail's e for a frame the scene asks for that cannot be drawn (not
 * an errno: they are positive). */
#define RUN_UNDRAWABLE (-1)

static void run_fail(run_t *r, int e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Records the first failure and stops everyone. */
static void run_fail(run_t *r, int e, const char *fmt, ...)
{
    va_list ap;

    pthread_mutex_lock(&r->mu);
    if (!r->failed) {
        r->failed = 1;
        r->sys_errno = e;
        va_start(ap, fmt);
        vsnprintf(r->message, sizeof r->message, fmt, ap);
        va_end(ap);
    }
    atomic_store(&r->stop, 1);
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

static int run_stopped(run_t *r)
{
    if (r->job->interrupt != NULL && atomic_load(r->job->interrupt)) {
        run_fail(r, EINTR, "interrupted");
        return 1;
    }
    return atomic_load(&r->stop);
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    run_t *r = w->run;
    const rf_frames_job_t *job = r->job;
    const rf_frames_range_t *rg = &job->range;
    char err[RF_FRAMES_ERR_LEN];
    char path[4096];
    rf_frames_producer_t *p;
    int e = 0;

    if (!w->here)
        rf_render_tune_thread();   /* this thread's heap on huge pages */
    p = producer_create(job->scene, job->format, &r->png, job->reuse, w->lent, &e, err,
                        sizeof err);
    if (p == NULL) {
        run_fail(r, e, "%s", err);
        goto out;
    }
    /* the worker's share of the threads (jobs / workers) draws too */
    rf_renderer_set_threads(p->renderer, r->png.threads);
    if (r->pipe) {
        p->swap = 1;
        w->piped = p;
    }
    while (!run_stopped(r)) {
        long pos = atomic_fetch_add(&r->next, 1);
        long index;
        const uint8_t *data;
        size_t len;
        int reused;

        if (pos >= rg->count)
            break;
        index = rg->first + pos * rg->step;
        if (job->format != RF_FRAMES_PNG) {
            /* Not more than window positions ahead of the writer. */
            pthread_mutex_lock(&r->mu);
            while (!atomic_load(&r->stop) && pos >= r->written + r->window)
                pthread_cond_wait(&r->cv, &r->mu);
            pthread_mutex_unlock(&r->mu);
            if (atomic_load(&r->stop))
                break;
        }
        double ft = rf_scene_frame_time(job->scene, index);
        long slot = pos % (r->window > 0 ? r->window : 1);
        size_t stride = 0;
        int convert = 0;
        /* streams: Y4M converted straight into the frame's ring slot,
         * which is free (the writer is past pos - window); RGBA converted
         * in the canvas, CANVAS not at all (in_canvas) */
        int produced =
            job->format == RF_FRAMES_PNG
                ? rf_frames_produce(p, ft, &data, &len, &reused, err, sizeof err)
            : r->pipe
                ? produce_canvas_later(p, ft, &data, &stride, &reused, &convert, err, sizeof err)
            : in_canvas(job->format)
                ? rf_frames_produce_canvas(p, ft, &data, &stride, &reused, err, sizeof err)
                : rf_frames_produce_into(p, ft, r->ring + (size_t)slot * r->frame_size, &reused,
                                         err, sizeof err);
        if (produced != 0) {
            run_fail(r, produced == RF_RENDER_UNDRAWABLE ? RUN_UNDRAWABLE : 0, "frame %ld: %s",
                     index, err);
            break;
        }
        atomic_fetch_add(reused ? &r->reused : &r->rendered, 1);
        if (job->format == RF_FRAMES_PNG) {
            if (rf_frames_file_name(path, sizeof path, job->dir, index, r->digits) >=
                (int)sizeof path) {
                run_fail(r, ENAMETOOLONG, "%s: %s", job->dir, strerror(ENAMETOOLONG));
                break;
            }
            if (rf_atomic_file_write(path, data, len, 0, err, sizeof err) != 0) {
                run_fail(r, errno, "%s", err);
                break;
            }
            atomic_fetch_add(&r->done, 1);
        } else {
            pthread_mutex_lock(&r->mu);
            if (in_canvas(job->format)) {
                r->ring_pix[slot] = data;
                r->ring_stride[slot] = stride;
                r->ring_conv[slot] = convert;
            }
            r->ring_pos[slot] = pos;
            pthread_cond_broadcast(&r->cv);
            /* the writer reads the canvas, which the next frame would
             * draw over (piped: the next frame is the other canvas's) */
            while (in_canvas(job->format) && !r->pipe && !atomic_load(&r->stop) &&
                   r->written <= pos)
                pthread_cond_wait(&r->cv, &r->mu);
            pthread_mutex_unlock(&r->mu);
        }
    }
out:
    if (!r->pipe)
        rf_frames_producer_destroy(p);
    pthread_mutex_lock(&r->mu);
    r->running--;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

static double now_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* abstime for pthread_cond_timedwait, ms from now (CLOCK_REALTIME: the
 * default clock of a condition variable). */
static void deadline_ms(struct timespec *ts, long ms)
{
    clock_gettime(CLOCK_REALTIME, ts);
    ts->tv_nsec += ms * 1000000L;
    ts->tv_sec += ts->tv_nsec / 1000000000L;
    ts->tv_nsec %= 1000000000L;
}

/* "\rframe 120/241  58.3 fps  ETA 2s", padded over a longer previous line;
 * final 1: then a newline; 2: then the line erased (the cursor back at its
 * start). */
static void progress_print(long done, long total, double elapsed, int final)
{
    char eta[32] = "?";
    double fps = elapsed > 0 ? done / elapsed : 0;

    if (fps > 0) {
        long s = (long)ceil((total - done) / fps);
        if (s < 60)
            snprintf(eta, sizeof eta, "%lds", s);
        else if (s < 3600)
            snprintf(eta, sizeof eta, "%ldm%02lds", s / 60, s % 60);
        else
            snprintf(eta, sizeof eta, "%ldh%02ldm", s / 3600, s / 60 % 60);
    }
    int n = fprintf(stderr, "\rframe %ld/%ld  %.1f fps  ETA %-8s", done, total, fps, eta);
    if (final == 1)
        fputc('\n', stderr);
    else if (final == 2 && n > 1)
        fprintf(stderr, "\r%*s\r", n - 1, "");
    fflush(stderr);
}

/* Writes the frame in ring slot slot to the stream: its bytes, or the
 * canvas it points at (in_canvas; one write when the rows are packed). 0,
 * or -1 with errno. */
static int write_slot(run_t *r, long slot)
{
    const rf_frames_job_t *job = r->job;

    if (!in_canvas(job->format))
        return fwrite(r->ring + (size_t)slot * r->frame_size, 1, r->frame_size, job->out) ==
                       r->frame_size
                   ? 0
                   : -1;
    size_t row = (size_t)job->scene->width * 4, h = (size_t)job->scene->height;
    const uint8_t *pix = r->ring_pix[slot];
    size_t stride = r->ring_stride[slot];
    if (r->ring_conv[slot]) /* piped: converted here while the worker draws on */
        canvas_to_rgba(pix, stride, (size_t)job->scene->width, h);
    if (stride == row)
        return fwrite(pix, 1, row * h, job->out) == row * h ? 0 : -1;
    for (size_t y = 0; y < h; y++)
        if (fwrite(pix + y * stride, 1, row, job->out) != row)
            return -1;
    return 0;
}

/* Streams: the calling thread writes positions in order from the ring. */
static void run_write_stream(run_t *r, double t0)
{
    const rf_frames_job_t *job = r->job;
    long count = job->range.count;
    double last = 0;

    while (r->written < count) {
        long slot = r->written % r->window;
        struct timespec ts;

        pthread_mutex_lock(&r->mu);
        while (!atomic_load(&r->stop) && r->ring_pos[slot] != r->written) {
            deadline_ms(&ts, 100);
            pthread_cond_timedwait(&r->cv, &r->mu, &ts);
            if (job->interrupt != NULL && atomic_load(job->interrupt))
                break;
        }
        pthread_mutex_unlock(&r->mu);
        if (run_stopped(r))
            return;
        errno = 0;
        if (write_slot(r, slot) != 0) {
            int e = errno != 0 ? errno : EIO;
            run_fail(r, e, "%s: write failed: %s", job->out_name, strerror(e));
            return;
        }
        pthread_mutex_lock(&r->mu);
        r->ring_pos[slot] = -1;
        r->written++;
        pthread_cond_broadcast(&r->cv);
        pthread_mutex_unlock(&r->mu);
        if (job->progress) {
            double t = now_seconds();
            if (t - last >= 0.1 || r->written == count) {
                progress_print(r->written, count, t - t0, 0);
                last = t;
            }
        }
    }
}

/* The calling thread waits for the workers (PNG: printing progress). */
static void run_wait_workers(run_t *r, double t0, int progress)
{
    const rf_frames_job_t *job = r->job;

    pthread_mutex_lock(&r->mu);
    while (r->running > 0) {
        struct timespec ts;
        deadline_ms(&ts, 100);
        pthread_cond_timedwait(&r->cv, &r->mu, &ts);
        if (job->interrupt != NULL && atomic_load(job->interrupt) && !atomic_load(&r->stop)) {
            pthread_mutex_unlock(&r->mu);
            run_stopped(r);
            pthread_mutex_lock(&r->mu);
        }
        if (progress && r->running > 0) {
            pthread_mutex_unlock(&r->mu);
            progress_print(atomic_load(&r->done), job->range.count, now_seconds() - t0, 0);
            pthread_mutex_lock(&r->mu);
        }
    }
    pthread_mutex_unlock(&r->mu);
}

int rf_frames_run(const rf_frames_job_t *job, rf_frames_result_t *result)
{
    run_t r;
    worker_t *workers = NULL;
    long count = job->range.count;
    double t0 = now_seconds();
    int rc = -1;

    memset(result, 0, sizeof *result);
    memset(&r, 0, sizeof r);
    r.job = job;
    r.digits = rf_frames_digits(job->scene->nframes);
    r.nworkers = job->jobs < 1 ? 1 : job->jobs;
    if (r.nworkers > RF_FRAMES_MAX_JOBS)
        r.nworkers = RF_FRAMES_MAX_JOBS;
    if (count < r.nworkers)
        r.nworkers = count > 0 ? (int)count : 1;
    /* fewer frames than jobs (a one-frame render): the encoder takes the
     * jobs no worker has (pngio.h: the same bytes) */
    r.png = job->png;
    r.png.threads = (job->jobs < 1 ? 1 : job->jobs) / r.nworkers;
    atomic_init(&r.next, 0);
    atomic_init(&r.done, 0);
    atomic_init(&r.rendered, 0);
    atomic_init(&r.reused, 0);
    atomic_init(&r.stop, 0);
    if (count <= 0) {
        result->seconds = now_seconds() - t0;
        return 0;
    }
    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.cv, NULL);

    if (job->format != RF_FRAMES_PNG) {
        r.frame_size = rf_frames_frame_size(job->scene, job->format);
        r.window = 2L * r.nworkers;
        if (r.window > count)
            r.window = count;
        /* bigbuf.h: no page faults one by one (and nothing but the first
         * frames' slots would fault anyway) */
        if (in_canvas(job->format)) {
            r.ring_pix = calloc((size_t)r.window, sizeof *r.ring_pix);
            r.ring_stride = calloc((size_t)r.window, sizeof *r.ring_stride);
            r.ring_conv = calloc((size_t)r.window, sizeof *r.ring_conv);
            /* one worker: two canvases in turn, so it draws the next
             * frame while the writer converts and writes this one (the
             * window of two positions keeps the canvas it draws on
             * written) */
            r.pipe = r.nworkers == 1 && count >= 2 && r.window == 2;
        } else if (r.window > 0 && r.frame_size <= SIZE_MAX / (size_t)r.window &&
                   rf_bigbuf_alloc(&r.ring_mem, (size_t)r.window * r.frame_size) == 0) {
            rf_bigbuf_populate(&r.ring_mem);
            r.ring = r.ring_mem.data;
        }
        r.ring_pos = malloc((size_t)r.window * sizeof *r.ring_pos);
        if ((in_canvas(job->format) ? r.ring_pix == NULL || r.ring_stride == NULL ||
                                          r.ring_conv == NULL
                                    : r.ring == NULL) ||
            r.ring_pos == NULL) {
            run_fail(&r, ENOMEM, "out of memory (%ld frames of %zu bytes)", r.window,
                     r.frame_size);
            goto done;
        }
        for (long i = 0; i < r.window; i++)
            r.ring_pos[i] = -1;
    }
    workers = calloc(r.nworkers > 0 ? (size_t)r.nworkers : 1, sizeof *workers);
    if (workers == NULL) {
        run_fail(&r, ENOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < r.nworkers; i++) {
        int e;
        workers[i].run = &r;
        workers[i].lent = i == 0 ? job->renderer : NULL;
        pthread_mutex_lock(&r.mu);
        r.running++;
        pthread_mutex_unlock(&r.mu);
        if (job->format == RF_FRAMES_PNG && count == 1) {
            /* one PNG frame: drawn here, without a thread and its fresh
             * malloc arena (whose calloc writes every byte it hands out:
             * a one-frame render's page faults) */
            workers[i].here = 1;
            worker_main(&workers[i]);
            continue;
        }
        e = pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]);
        if (e != 0) {
            pthread_mutex_lock(&r.mu);
            r.running--;
            pthread_mutex_unlock(&r.mu);
            run_fail(&r, e, "cannot start a worker thread: %s", strerror(e));
            break;
        }
        workers[i].started = 1;
    }
    if (job->format != RF_FRAMES_PNG)
        run_write_stream(&r, t0);
    run_wait_workers(&r, t0, job->progress && job->format == RF_FRAMES_PNG);
    for (int i = 0; i < r.nworkers; i++)
        if (workers[i].started)
            pthread_join(workers[i].thread, NULL);
    for (int i = 0; i < r.nworkers; i++) /* piped: the writer has returned */
        rf_frames_producer_destroy(workers[i].piped);
    if (job->progress)
        progress_print(job->format == RF_FRAMES_PNG ? atomic_load(&r.done) : r.written, count,
                       now_seconds() - t0, job->progress == 2 ? 2 : 1);
done:
    result->produced = job->format == RF_FRAMES_PNG ? atomic_load(&r.done) : r.written;
    result->rendered = atomic_load(&r.rendered);
    result->reused = atomic_load(&r.reused);
    result->seconds = now_seconds() - t0;
    if (r.failed) {
        result->undrawable = r.sys_errno == RUN_UNDRAWABLE;
        result->sys_errno = r.sys_errno == RUN_UNDRAWABLE ? 0 : r.sys_errno;
        snprintf(result->message, sizeof result->message, "%s", r.message);
    } else {
        rc = 0;
    }
    free(workers);
    rf_bigbuf_free(&r.ring_mem);
    free(r.ring_pos);
    free(r.ring_pix);
    free(r.ring_stride);
    free(r.ring_conv);
    pthread_cond_destroy(&r.cv);
    pthread_mutex_destroy(&r.mu);
    return rc;
}
