/* preview.c - the preview server (preview.h): libmicrohttpd, a pool of
 * warm frame producers, a cache of recent frames, reloads on file changes
 * and Server-Sent Events. */
#define _GNU_SOURCE 1 /* open_memstream in C11 mode */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "diag.h"
#include "frames.h"
#include "numfmt.h"
#include "preview-page.h"
#include "preview-query.h"
#include "preview-watch.h"
#include "preview.h"
#include "scene.h"
#include "series.h"
#include "values.h"

/* One loaded scene and what serves it. */
typedef struct pv_world {
    rf_scene_t *scene;
    rf_scene_t draft;                   /* at --scale; borrows scene */
    unsigned long gen;                  /* 1, 2, ...: each good load */
    int refs;                           /* requests using it, +1 while current */
    int nprod;
    rf_frames_producer_t *prod[RF_PREVIEW_MAX_WORKERS];
    int busy[RF_PREVIEW_MAX_WORKERS];
} pv_world_t;

typedef struct pv_frame {
    unsigned long gen;
    uint64_t tbits;
    unsigned long long used;            /* LRU clock */
    uint8_t *data;
    size_t len;
} pv_frame_t;

typedef struct pv {
    const rf_preview_opts_t *o;
    int port;
    pthread_mutex_t lock;
    pthread_cond_t cond;                /* a producer freed, a reload, a stop */
    pv_world_t *cur;
    char *errors;                       /* the failed reload's lines, or NULL */
    unsigned long reloads;              /* events sent: every reload */
    unsigned long gens;
    int waiting, streams, stopping;
    unsigned long long clock;
    pv_frame_t cache[RF_PREVIEW_CACHE];
    size_t cache_bytes;
} pv_t;

/* ---------------------------------------------------------------- worlds */

static void pv_world_destroy(pv_world_t *w)
{
    if (w == NULL)
        return;
    for (int i = 0; i < w->nprod; i++)
        rf_frames_producer_destroy(w->prod[i]);
    rf_scene_destroy(w->scene);
    free(w);
}

/* Drops a reference (lock held); returns the world to destroy, or NULL. */
static pv_world_t *pv_world_unref(pv_world_t *w)
{
    return --w->refs == 0 ? w : NULL;
}

/* Loads the scene. Returns a world, or NULL with *errors the lines
 * `validate` prints (malloc'd) and *io nonzero when the file could not be
 * read or memory ran out (exit status 3, else 2). */
static pv_world_t *pv_load(const rf_preview_opts_t *o, char **errors, int *io)
{
    rf_scene_opts_t opts = { o->assets, o->reduced_motion };
    rf_diag_t *diag = malloc(sizeof *diag);
    pv_world_t *w = calloc(1, sizeof *w);
    char err[RF_FRAMES_ERR_LEN];
    size_t len;
    FILE *mem;

    *errors = NULL;
    *io = 1;
    if (diag == NULL || w == NULL)
        goto nomem;
    rf_diag_init(diag, o->scene);
    w->scene = rf_scene_load_with(o->scene, &opts, diag);
    if (w->scene == NULL) {
        if (diag->count == 0 && diag->dropped == 0)
            rf_diag_file(diag, "cannot load the scene");
        *io = diag->io_error;
        mem = open_memstream(errors, &len);
        if (mem == NULL)
            goto nomem;
        rf_diag_print(diag, mem);
        fclose(mem);
        goto fail;
    }
    if (rf_scene_draft(w->scene, o->scale, 0, &w->draft, err, sizeof err) != 0)
        goto fail_msg;
    w->nprod = o->workers;
    for (int i = 0; i < w->nprod; i++) {
        rf_png_options_t png = RF_PNG_OPTIONS_RENDER;
        png.threads = o->workers > 1 ? 2 : 1;   /* a frame alone: 2 cores encode it */
        w->prod[i] = rf_frames_producer_create(&w->draft, RF_FRAMES_PNG, &png, 1, err,
                                               sizeof err);
        if (w->prod[i] == NULL) {
            w->nprod = i;
            goto fail_msg;
        }
    }
    free(diag);
    return w;
fail_msg:
    *io = 0;
    if (asprintf(errors, "runeframe: %s: %s\n", o->scene, err) < 0)
        *errors = NULL;
    goto fail;
nomem:
    free(*errors);
    *errors = strdup("runeframe: preview: out of memory\n");
fail:
    free(diag);
    pv_world_destroy(w);
    return NULL;
}

/* The files a change of which reloads the scene: the scene itself and each
 * asset file it read (scene.h's asset_files: fonts, and any other kind the
 * loader reads), looked for in the scene's folder and in --assets. At most
 * RF_WATCH_MAX. Returns how many, each malloc'd into paths. (An asset that
 * is missing is in no list: while the scene is broken it is retried every
 * RF_PREVIEW_RETRY_MS instead, see rf_preview_run.) */
static size_t pv_watch_files(const rf_preview_opts_t *o, const rf_scene_t *sc,
                             char *paths[RF_WATCH_MAX])
{
    const char *slash = strrchr(o->scene, '/');
    int dirlen = slash == NULL ? 0 : (int)(slash - o->scene) + 1;
    size_t n = 0;

    paths[n] = strdup(o->scene);
    if (paths[n] != NULL)
        n++;
    for (uint32_t i = 0; sc != NULL && i < sc->nasset_files && n + 2 <= RF_WATCH_MAX; i++) {
        if (asprintf(&paths[n], "%.*s%s", dirlen, o->scene, sc->asset_files[i]) >= 0)
            n++;
        if (o->assets != NULL &&
            asprintf(&paths[n], "%s/%s", o->assets, sc->asset_files[i]) >= 0)
            n++;
    }
    return n;
}

static void pv_watch_update(const rf_preview_opts_t *o, rf_watch_t *watch,
                            const rf_scene_t *sc)
{
    char *paths[RF_WATCH_MAX];
    size_t n = pv_watch_files(o, sc, paths);

    (void)rf_watch_set(watch, (const char *const *)paths, n);
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
}

/* ---------------------------------------------------------------- cache */

static void pv_cache_drop(pv_t *pv, pv_frame_t *f)
{
    pv->cache_bytes -= f->len;
    free(f->data);
    memset(f, 0, sizeof *f);
}

/* A copy of the cached frame (lock held), or NULL. */
static uint8_t *pv_cache_get(pv_t *pv, unsigned long gen, uint64_t tbits, size_t *len)
{
    for (int i = 0; i < RF_PREVIEW_CACHE; i++) {
        pv_frame_t *f = &pv->cache[i];
        if (f->data != NULL && f->gen == gen && f->tbits == tbits) {
            uint8_t *copy = malloc(f->len);
            if (copy == NULL)
                return NULL;
            memcpy(copy, f->data, f->len);
            f->used = ++pv->clock;
            *len = f->len;
            return copy;
        }
    }
    return NULL;
}

/* Keeps a copy of data (lock held); the least recently used frames go
 * first, frames of older scenes before them. */
static void pv_cache_put(pv_t *pv, unsigned long gen, uint64_t tbits, const uint8_t *data,
                         size_t len)
{
    pv_frame_t *slot = NULL;

    if (len > RF_PREVIEW_CACHE_BYTES / 4)
        return;
    for (;;) {
        pv_frame_t *old = NULL;
        slot = NULL;
        for (int i = 0; i < RF_PREVIEW_CACHE; i++) {
            pv_frame_t *f = &pv->cache[i];
            if (f->data == NULL) {
                slot = f;
                continue;
            }
            if (old == NULL || (f->gen != gen && old->gen == gen) ||
                ((f->gen == gen) == (old->gen == gen) && f->used < old->used))
                old = f;
        }
        if (slot != NULL && pv->cache_bytes + len <= RF_PREVIEW_CACHE_BYTES)
            break;
        if (old == NULL)
            return;
        pv_cache_drop(pv, old);
    }
    slot->data = malloc(len);
    if (slot->data == NULL)
        return;
    memcpy(slot->data, data, len);
    slot->len = len;
    slot->gen = gen;
    slot->tbits = tbits;
    slot->used = ++pv->clock;
    pv->cache_bytes += len;
}

/* ---------------------------------------------------------------- responses */

static enum MHD_Result pv_send(struct MHD_Connection *c, unsigned status, const char *type,
                               void *data, size_t len, enum MHD_ResponseMemoryMode mode)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, data, mode);
    enum MHD_Result ret;

    if (r == NULL) {
        if (mode == MHD_RESPMEM_MUST_FREE)
            free(data);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    if (status == MHD_HTTP_SERVICE_UNAVAILABLE)
        MHD_add_response_header(r, "Retry-After", "1");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, "Allow", "GET, HEAD");
    ret = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ret;
}

/* A one-line text/plain answer: "MESSAGE\n". */
static enum MHD_Result pv_text(struct MHD_Connection *c, unsigned status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static enum MHD_Result pv_text(struct MHD_Connection *c, unsigned status, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    if ((size_t)n > sizeof buf - 2)
        n = (int)sizeof buf - 2;
    buf[n++] = '\n';
    return pv_send(c, status, "text/plain; charset=utf-8", buf, (size_t)n,
                   MHD_RESPMEM_MUST_COPY);
}

/* s as a JSON string. */
static void pv_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s != '\0'; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", out);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

/* sample's JSON numbers: %.17g, null when not finite. */
static void pv_json_num(FILE *out, double x)
{
    char b[RF_NUM_BUF];

    fputs(isfinite(x) ? rf_num_exact(b, x) : "null", out);
}

static int pv_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* ---------------------------------------------------------------- requests */

typedef struct pv_args {
    rf_pvq_t q;
    size_t bytes;
    int failed;
    char err[256];
} pv_args_t;

static enum MHD_Result pv_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                              const char *value)
{
    pv_args_t *a = cls;

    (void)kind;
    if (a->failed)
        return MHD_NO;
    a->bytes += strlen(key) + (value != NULL ? strlen(value) + 1 : 0) + 1;
    if (a->bytes > RF_PVQ_MAX_LEN + 1) {
        snprintf(a->err, sizeof a->err, "the query is longer than %d bytes", RF_PVQ_MAX_LEN);
        a->failed = 1;
        return MHD_NO;
    }
    if (rf_pvq_arg(&a->q, key, value, a->err, sizeof a->err) != 0) {
        a->failed = 1;
        return MHD_NO;
    }
    return MHD_YES;
}

/* The current world, referenced, and the time the query asks (?t or
 * ?frame on its draft). NULL with a 400 message in err. */
static pv_world_t *pv_request_world(pv_t *pv, struct MHD_Connection *c, double *t,
                                    char *err, size_t errlen)
{
    pv_args_t a;
    pv_world_t *w;

    memset(&a, 0, sizeof a);
    rf_pvq_init(&a.q);
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, pv_arg, &a);
    if (a.failed) {
        snprintf(err, errlen, "%s", a.err);
        return NULL;
    }
    pthread_mutex_lock(&pv->lock);
    w = pv->cur;
    w->refs++;
    pthread_mutex_unlock(&pv->lock);
    if (rf_pvq_finish(&a.q, w->draft.nframes, err, errlen) != 0) {
        pthread_mutex_lock(&pv->lock);
        w = pv_world_unref(w);
        pthread_mutex_unlock(&pv->lock);
        pv_world_destroy(w);
        return NULL;
    }
    /* seek's time: one division for frame N (scene.h) */
    *t = a.q.has_frame ? rf_scene_frame_time(&w->draft, a.q.frame) : a.q.t;
    return w;
}

static void pv_release(pv_t *pv, pv_world_t *w)
{
    pthread_mutex_lock(&pv->lock);
    w = pv_world_unref(w);
    pthread_mutex_unlock(&pv->lock);
    pv_world_destroy(w);
}

/* Waits for a producer of w (lock held): its index, or -1 when too many
 * wait, the server stops or none frees up within the timeout. */
static int pv_take_producer(pv_t *pv, pv_world_t *w)
{
    struct timespec until;

    if (pv->waiting >= RF_PREVIEW_MAX_WAIT)
        return -1;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += RF_PREVIEW_TIMEOUT_S;
    pv->waiting++;
    for (;;) {
        for (int i = 0; i < w->nprod; i++) {
            if (!w->busy[i]) {
                w->busy[i] = 1;
                pv->waiting--;
                return i;
            }
        }
        if (pv->stopping || pthread_cond_timedwait(&pv->cond, &pv->lock, &until) == ETIMEDOUT) {
            pv->waiting--;
            return -1;
        }
    }
}

static enum MHD_Result pv_frame(pv_t *pv, struct MHD_Connection *c)
{
    char err[256], msg[RF_FRAMES_ERR_LEN];
    pv_world_t *w;
    uint8_t *copy;
    const uint8_t *data;
    size_t len = 0;
    uint64_t tbits;
    double t;
    int k, rc;

    w = pv_request_world(pv, c, &t, err, sizeof err);
    if (w == NULL)
        return pv_text(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    memcpy(&tbits, &t, sizeof tbits);
    pthread_mutex_lock(&pv->lock);
    copy = pv_cache_get(pv, w->gen, tbits, &len);
    if (copy != NULL) {
        pthread_mutex_unlock(&pv->lock);
        pv_release(pv, w);
        return pv_send(c, MHD_HTTP_OK, "image/png", copy, len, MHD_RESPMEM_MUST_FREE);
    }
    k = pv_take_producer(pv, w);
    pthread_mutex_unlock(&pv->lock);
    if (k < 0) {
        pv_release(pv, w);
        return pv_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "busy: too many frames in flight");
    }
    rc = rf_frames_produce(w->prod[k], t, &data, &len, NULL, msg, sizeof msg);
    copy = rc == 0 ? malloc(len > 0 ? len : 1) : NULL;
    if (copy != NULL)
        memcpy(copy, data, len);
    pthread_mutex_lock(&pv->lock);
    w->busy[k] = 0;
    if (copy != NULL)
        pv_cache_put(pv, w->gen, tbits, copy, len);
    pthread_cond_broadcast(&pv->cond);
    pthread_mutex_unlock(&pv->lock);
    pv_release(pv, w);
    if (rc != 0)
        return pv_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "%s", msg);
    if (copy == NULL)
        return pv_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    return pv_send(c, MHD_HTTP_OK, "image/png", copy, len, MHD_RESPMEM_MUST_FREE);
}

static enum MHD_Result pv_values(pv_t *pv, struct MHD_Connection *c)
{
    static const rf_series_report_t quiet = { NULL, NULL };
    char err[256];
    rf_series_item_t *cols = NULL;
    size_t ncols = 0, len = 0;
    double *slots, t;
    char *body = NULL;
    pv_world_t *w;
    FILE *mem;

    w = pv_request_world(pv, c, &t, err, sizeof err);
    if (w == NULL)
        return pv_text(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    const rf_values_t *vs = &w->scene->values;
    slots = malloc((vs->nslots > 0 ? vs->nslots : 1) * sizeof *slots);
    if (slots == NULL ||
        rf_series_resolve(vs, NULL, RF_SERIES_ALL, 0, &cols, &ncols, &quiet) != RF_SERIES_OK ||
        (mem = open_memstream(&body, &len)) == NULL) {
        free(slots);
        free(cols);
        pv_release(pv, w);
        return pv_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    }
    rf_values_eval(vs, t, slots);
    fputs("{\"t\": ", mem);
    pv_json_num(mem, t);
    fprintf(mem, ", \"generation\": %lu, \"columns\": [", w->gen);
    for (size_t i = 0; i < ncols; i++) {
        fputs(i > 0 ? ", \"" : "\"", mem);
        fputs(cols[i].value->name, mem);
        if (cols[i].output >= 0)
            fprintf(mem, ".%s", rf_value_output_name(cols[i].value, (uint32_t)cols[i].output));
        fputc('"', mem);
    }
    fputs("], \"values\": [", mem);
    for (size_t i = 0; i < ncols; i++) {
        if (i > 0)
            fputs(", ", mem);
        pv_json_num(mem, slots[cols[i].slot]);
    }
    fputs("]}\n", mem);
    fclose(mem);
    free(slots);
    free(cols);
    pv_release(pv, w);
    return pv_send(c, MHD_HTTP_OK, "application/json", body, len, MHD_RESPMEM_MUST_FREE);
}

static enum MHD_Result pv_scene(pv_t *pv, struct MHD_Connection *c)
{
    char *body = NULL;
    size_t len = 0, nset = 0;
    double *settles;
    pv_world_t *w;
    FILE *mem;

    pthread_mutex_lock(&pv->lock);
    w = pv->cur;
    w->refs++;
    mem = open_memstream(&body, &len);
    if (mem != NULL) {
        fprintf(mem, "{\"reloads\": %lu, \"errors\": ", pv->reloads);
        if (pv->errors != NULL)
            pv_json_string(mem, pv->errors);
        else
            fputs("null", mem);
    }
    pthread_mutex_unlock(&pv->lock);
    if (mem == NULL) {
        pv_release(pv, w);
        return pv_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    }
    const rf_scene_t *d = &w->draft;
    fprintf(mem, ", \"generation\": %lu, \"width\": %d, \"height\": %d, \"fps\": ", w->gen,
            d->width, d->height);
    pv_json_num(mem, d->fps);
    fputs(", \"duration\": ", mem);
    pv_json_num(mem, d->duration);
    fprintf(mem, ", \"frames\": %ld, \"scale\": ", d->nframes);
    pv_json_num(mem, d->scale > 0 ? d->scale : 1);
    /* settle markers: each finite settle time > 0 within the timeline, once */
    settles = malloc((w->scene->values.n + 1) * sizeof *settles);
    for (uint32_t i = 0; settles != NULL && i < w->scene->values.n; i++) {
        double s = w->scene->values.values[i].settle;
        if (isfinite(s) && s > 0 && s <= d->duration)
            settles[nset++] = s;
    }
    if (nset > 0)
        qsort(settles, nset, sizeof *settles, pv_cmp_double);
    fputs(", \"settles\": [", mem);
    for (size_t i = 0, k = 0; i < nset; i++) {
        if (i > 0 && settles[i] == settles[i - 1])
            continue;
        fputs(k++ > 0 ? ", " : "", mem);
        pv_json_num(mem, settles[i]);
    }
    fputs("]}\n", mem);
    fclose(mem);
    free(settles);
    pv_release(pv, w);
    return pv_send(c, MHD_HTTP_OK, "application/json", body, len, MHD_RESPMEM_MUST_FREE);
}

/* ---------------------------------------------------------------- events */

typedef struct pv_stream {
    pv_t *pv;
    unsigned long seen;
    int first;
} pv_stream_t;

static ssize_t pv_stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    pv_stream_t *s = cls;
    pv_t *pv = s->pv;
    struct timespec until;
    int n = 0;

    (void)pos;
    if (max < 64)
        return 0;
    pthread_mutex_lock(&pv->lock);
    if (s->first) {
        s->first = 0;
        n = snprintf(buf, max, "retry: 500\nevent: scene\ndata: %lu\n\n", pv->reloads);
        s->seen = pv->reloads;
        pthread_mutex_unlock(&pv->lock);
        return n;
    }
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    while (!pv->stopping && s->seen == pv->reloads)
        if (pthread_cond_timedwait(&pv->cond, &pv->lock, &until) == ETIMEDOUT)
            break;
    if (pv->stopping) {
        pthread_mutex_unlock(&pv->lock);
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
    if (s->seen != pv->reloads) {
        s->seen = pv->reloads;
        n = snprintf(buf, max, "event: scene\ndata: %lu\n\n", pv->reloads);
    } else {
        n = snprintf(buf, max, ": keep-alive\n\n");
    }
    pthread_mutex_unlock(&pv->lock);
    return n;
}

static void pv_stream_free(void *cls)
{
    pv_stream_t *s = cls;

    pthread_mutex_lock(&s->pv->lock);
    s->pv->streams--;
    pthread_mutex_unlock(&s->pv->lock);
    free(s);
}

static enum MHD_Result pv_events(pv_t *pv, struct MHD_Connection *c)
{
    pv_stream_t *s = calloc(1, sizeof *s);
    struct MHD_Response *r;
    enum MHD_Result ret;

    if (s == NULL)
        return pv_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    pthread_mutex_lock(&pv->lock);
    if (pv->streams >= RF_PREVIEW_MAX_EVENTS) {
        pthread_mutex_unlock(&pv->lock);
        free(s);
        return pv_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "busy: too many event streams");
    }
    pv->streams++;
    pthread_mutex_unlock(&pv->lock);
    s->pv = pv;
    s->first = 1;
    r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 256, pv_stream_read, s,
                                          pv_stream_free);
    if (r == NULL) {
        pv_stream_free(s);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", "text/event-stream");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

/* ---------------------------------------------------------------- routing */

/* The page, with a policy that lets it load nothing from elsewhere: its
 * own inline script and style, frames as blob: URLs, requests to this
 * server only, and no framing by another site. */
static enum MHD_Result pv_page(struct MHD_Connection *c)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        sizeof rf_preview_page - 1, (void *)rf_preview_page, MHD_RESPMEM_PERSISTENT);
    enum MHD_Result ret;

    if (r == NULL)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", "text/html; charset=utf-8");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'none'; script-src 'unsafe-inline'; "
                            "style-src 'unsafe-inline'; img-src blob:; connect-src 'self'; "
                            "frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

/* 1 when host is this server: 127.0.0.1:PORT or localhost:PORT. */
static int pv_host_ok(const pv_t *pv, const char *host)
{
    char a[64], b[64];

    if (host == NULL)
        return 0;
    snprintf(a, sizeof a, "127.0.0.1:%d", pv->port);
    snprintf(b, sizeof b, "localhost:%d", pv->port);
    return strcmp(host, a) == 0 || strcmp(host, b) == 0;
}

static enum MHD_Result pv_handle(void *cls, struct MHD_Connection *c, const char *url,
                                 const char *method, const char *version,
                                 const char *upload, size_t *upload_size, void **state)
{
    static int marker;
    pv_t *pv = cls;

    (void)version;
    (void)upload;
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return pv_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD");
    if (*state == NULL) {           /* the headers: answer on the next call */
        *state = &marker;
        return MHD_YES;
    }
    if (*upload_size != 0)
        return pv_text(c, MHD_HTTP_BAD_REQUEST, "a GET has no body");
    if (!pv_host_ok(pv, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host")))
        return pv_text(c, MHD_HTTP_MISDIRECTED_REQUEST,
                       "the Host header must be 127.0.0.1:%d or localhost:%d", pv->port,
                       pv->port);
    if (strcmp(url, "/") == 0)
        return pv_page(c);
    if (strcmp(url, "/frame.png") == 0)
        return pv_frame(pv, c);
    if (strcmp(url, "/values.json") == 0)
        return pv_values(pv, c);
    if (strcmp(url, "/scene.json") == 0)
        return pv_scene(pv, c);
    if (strcmp(url, "/events") == 0)
        return pv_events(pv, c);
    return pv_text(c, MHD_HTTP_NOT_FOUND, "not found (/, /frame.png, /values.json, "
                                          "/scene.json, /events)");
}

/* ---------------------------------------------------------------- the run */

/* A listening socket on 127.0.0.1: the port asked for, or from 8080 the
 * first free one. -1 with errno. */
static int pv_listen(long want, int *port)
{
    long first = want >= 0 ? want : RF_PREVIEW_DEFAULT_PORT;
    long last = want >= 0 ? want : RF_PREVIEW_DEFAULT_PORT + RF_PREVIEW_PORT_TRIES - 1;

    for (long p = first; p <= last; p++) {
        struct sockaddr_in sa;
        socklen_t sl = sizeof sa;
        int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

        if (fd < 0)
            return -1;
        memset(&sa, 0, sizeof sa);
        sa.sin_family = AF_INET;
        sa.sin_port = htons((uint16_t)p);
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0 && listen(fd, 64) == 0 &&
            getsockname(fd, (struct sockaddr *)&sa, &sl) == 0) {
            *port = ntohs(sa.sin_port);
            return fd;
        }
        int e = errno;
        close(fd);
        errno = e;
        if (e != EADDRINUSE && e != EACCES)
            return -1;
    }
    return -1;
}

/* Reloads the scene after a change (changed) or, while it is broken, on a
 * retry. After a change the event is sent either way; a retry that fails
 * with the same lines again sends nothing. Returns 1 while broken. */
static int pv_reload(pv_t *pv, rf_watch_t *watch, int changed)
{
    char *errors = NULL;
    int io, same;
    pv_world_t *w = pv_load(pv->o, &errors, &io), *old = NULL;

    pthread_mutex_lock(&pv->lock);
    same = w == NULL && errors != NULL && pv->errors != NULL && strcmp(errors, pv->errors) == 0;
    if (same && !changed) {
        pthread_mutex_unlock(&pv->lock);
        free(errors);
        return 1;
    }
    if (w != NULL) {
        w->gen = ++pv->gens;
        w->refs = 1;
        old = pv_world_unref(pv->cur);
        pv->cur = w;
        free(pv->errors);
        pv->errors = NULL;
    } else {
        free(pv->errors);
        pv->errors = errors;
    }
    pv->reloads++;
    pthread_cond_broadcast(&pv->cond);
    pthread_mutex_unlock(&pv->lock);
    pv_world_destroy(old);
    if (errors != NULL)
        fputs(errors, stderr);
    else
        fprintf(stderr, "runeframe: preview: reloaded %s\n", pv->o->scene);
    /* the good scene's assets: a broken file names none reliably */
    pthread_mutex_lock(&pv->lock);
    w = pv->cur;
    w->refs++;
    pthread_mutex_unlock(&pv->lock);
    pv_watch_update(pv->o, watch, w->scene);
    pv_release(pv, w);
    return errors != NULL;
}

int rf_preview_run(const rf_preview_opts_t *o)
{
    pv_t *pv = calloc(1, sizeof *pv);
    char *errors = NULL;
    struct MHD_Daemon *d = NULL;
    rf_watch_t *watch = NULL;
    sigset_t block, old;
    int fd = -1, io, broken = 0, waits = 0, status = RF_EXIT_IO;

    if (pv == NULL) {
        fprintf(stderr, "runeframe: preview: out of memory\n");
        return RF_EXIT_IO;
    }
    pv->o = o;
    pthread_mutex_init(&pv->lock, NULL);
    pthread_cond_init(&pv->cond, NULL);
    pv->cur = pv_load(o, &errors, &io);
    if (pv->cur == NULL) {
        fputs(errors != NULL ? errors : "runeframe: preview: out of memory\n", stderr);
        status = io ? RF_EXIT_IO : RF_EXIT_USAGE;
        free(errors);
        goto out;
    }
    pv->cur->gen = ++pv->gens;
    pv->cur->refs = 1;
    watch = rf_watch_create(o->poll_only);
    if (watch == NULL) {
        fprintf(stderr, "runeframe: preview: out of memory\n");
        goto out;
    }
    pv_watch_update(o, watch, pv->cur->scene);
    fd = pv_listen(o->port, &pv->port);
    if (fd < 0) {
        if (o->port >= 0)
            fprintf(stderr, "runeframe: preview: cannot listen on 127.0.0.1:%ld: %s\n", o->port,
                    strerror(errno));
        else
            fprintf(stderr, "runeframe: preview: no free port on 127.0.0.1 from %d to %d\n",
                    RF_PREVIEW_DEFAULT_PORT,
                    RF_PREVIEW_DEFAULT_PORT + RF_PREVIEW_PORT_TRIES - 1);
        goto out;
    }
    /* libmicrohttpd's threads inherit this mask: SIGINT and SIGTERM reach
     * the main thread, which stops the server */
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    d = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
                         MHD_USE_POLL,
                         0, NULL, NULL, pv_handle, pv,
                         MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
                         MHD_OPTION_CONNECTION_LIMIT, (unsigned)RF_PREVIEW_MAX_CONN,
                         MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)RF_PREVIEW_TIMEOUT_S,
                         MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
                         MHD_OPTION_END);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (d == NULL) {
        fprintf(stderr, "runeframe: preview: cannot start the HTTP server\n");
        close(fd);
        goto out;
    }
    fprintf(o->out, "runeframe: preview: http://127.0.0.1:%d/ (%s; %s; Ctrl-C stops)\n",
            pv->port, o->scene, rf_watch_inotify(watch) ? "inotify" : "polling");
    fflush(o->out);
    /* the watcher: a change reloads; a broken scene is retried now and then
     * (the asset it misses may appear anywhere) */
    while (!*o->stop) {
        int changed = rf_watch_wait(watch, RF_WATCH_POLL_MS);
        if (*o->stop)
            break;
        if (changed || (broken && ++waits * RF_WATCH_POLL_MS >= RF_PREVIEW_RETRY_MS)) {
            broken = pv_reload(pv, watch, changed);
            waits = 0;
        }
    }
    pthread_mutex_lock(&pv->lock);
    pv->stopping = 1;
    pthread_cond_broadcast(&pv->cond);
    pthread_mutex_unlock(&pv->lock);
    MHD_stop_daemon(d);     /* closes the listening socket too */
    fprintf(stderr, "runeframe: preview: stopped\n");
    status = RF_EXIT_OK;
out:
    rf_watch_destroy(watch);
    if (pv->cur != NULL)
        pv_world_destroy(pv_world_unref(pv->cur));
    for (int i = 0; i < RF_PREVIEW_CACHE; i++)
        free(pv->cache[i].data);
    free(pv->errors);
    pthread_cond_destroy(&pv->cond);
    pthread_mutex_destroy(&pv->lock);
    free(pv);
    return status;
}
