/* scene-timeline.c - `canvas`, `timeline` and `checks`: sizes, fps,
 * duration (a number or "auto"), and the check frames once the frame count
 * is known. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonsyn.h"
#include "scene-int.h"

/* ------------------------------------------------------------------ */
/* Canvas, timeline, checks                                             */

static const char *const canvas_keys[] = { "width", "height", "background" };
static const char *const timeline_keys[] = { "fps", "duration" };
static const char *const checks_keys[] = { "times", "frames" };
const scene_names_t scene_canvas_names = SCENE_NAMES(canvas_keys, "width height");
const scene_names_t scene_timeline_names = SCENE_NAMES(timeline_keys, NULL);
const scene_names_t scene_checks_names = SCENE_NAMES(checks_keys, NULL);

void scene_parse_canvas(loader_t *L, const cJSON *obj)
{
    if (!scene_want_object(L, obj, "an object {\"width\", \"height\", \"background\"}"))
        return;
    const cJSON *f[3];
    scene_scan_keys(L, obj, canvas_keys, 3, f);
    double w = 0, h = 0;
    int rw = scene_int_field(L, f[0], "width", 1, 1, RF_MAX_SIDE, &w);
    int rh = scene_int_field(L, f[1], "height", 1, 1, RF_MAX_SIDE, &h);
    if (rw == F_OK && rh == F_OK && w * h > RF_MAX_PIXELS) {
        nbuf_t a, b, c;
        scene_err(L, "too many pixels: width * height must be at most %u, got %s * %s = %s",
                  (unsigned)RF_MAX_PIXELS, scene_num(&a, w), scene_num(&b, h),
                  scene_num(&c, w * h));
    }
    L->sc->width = (int)w;
    L->sc->height = (int)h;
    if (f[2] != NULL) {
        if (!cJSON_IsString(f[2]))
            scene_err_key(L, "background", "must be a color \"#rrggbb\", got %s",
                          scene_json_type(f[2]));
        else
            scene_color_string(L, f[2], "background", &L->sc->background);
    }
}

void scene_parse_timeline(loader_t *L, const cJSON *obj)
{
    if (obj == NULL)
        return;
    if (!scene_want_object(L, obj, "an object {\"fps\", \"duration\"}")) {
        L->fps_ok = 0;
        L->duration_ok = 0;
        return;
    }
    const cJSON *f[2];
    scene_scan_keys(L, obj, timeline_keys, 2, f);
    double fps = 0;
    int r = scene_num_field(L, f[0], "fps", 0, R_ANY, &fps);
    if (r == F_OK && !(fps > 0 && fps <= 1000)) {
        nbuf_t b;
        scene_err_key(L, "fps", "must be in (0, 1000], got %s", scene_num(&b, fps));
        r = F_BAD;
    }
    if (r == F_OK)
        L->fps = fps;
    L->fps_ok = r != F_BAD;
    const cJSON *d = f[1];
    if (d == NULL)
        return;
    if (cJSON_IsString(d) && strcmp(d->valuestring, "auto") == 0)
        return;
    if (cJSON_IsNumber(d)) {
        double v = 0;
        int rd = scene_num_field(L, d, "duration", 0, R_GT0, &v);
        L->duration_ok = rd == F_OK;
        L->duration_given = 1;
        L->duration = v;
        return;
    }
    qbuf_t a;
    if (cJSON_IsString(d))
        scene_err_key(L, "duration", "must be a number of seconds or \"auto\", got \"%s\"",
                      scene_q(&a, d->valuestring));
    else
        scene_err_key(L, "duration", "must be a number of seconds or \"auto\", got %s",
                      scene_json_type(d));
    L->duration_ok = 0;
}

/* First pass over `checks`: the shape and types, before frames exist. */
void scene_parse_checks(loader_t *L, const cJSON *obj)
{
    if (!scene_want_object(L, obj, "an object {\"times\": [...]} or {\"frames\": [...]}"))
        return;
    const cJSON *f[2];
    scene_scan_keys(L, obj, checks_keys, 2, f);
    if (f[0] != NULL && f[1] != NULL) {
        scene_err(L, "give either 'times' or 'frames', not both");
        return;
    }
    if (f[0] == NULL && f[1] == NULL) {
        scene_err(L, "needs 'times' or 'frames'");
        return;
    }
    int by_time = f[0] != NULL;
    const cJSON *list = by_time ? f[0] : f[1];
    const char *key = by_time ? "times" : "frames";
    if (!cJSON_IsArray(list)) {
        scene_err_key(L, key, "must be an array of %s, got %s",
                      by_time ? "times in seconds" : "frame numbers", scene_json_type(list));
        return;
    }
    if (list->child == NULL) {
        scene_err_key(L, key, "must not be empty");
        return;
    }
    size_t m = scene_push(L, key);
    size_t i = 0;
    int bad = 0;
    for (const cJSON *c = list->child; c != NULL; c = c->next, i++) {
        char idx[24];
        double v = 0;
        snprintf(idx, sizeof idx, "%zu", i);
        int r = by_time ? scene_num_field(L, c, idx, 0, R_GE0, &v)
                        : scene_int_field(L, c, idx, 0, 0, 9007199254740992.0, &v);
        if (r != F_OK)
            bad = 1;
    }
    scene_pop(L, m);
    if (!bad) {
        L->check_list = list;
        L->check_by_time = by_time;
    }
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

/* Second pass over `checks`, with the frame count. */
void scene_resolve_checks(loader_t *L)
{
    rf_scene_t *sc = L->sc;
    const cJSON *list = L->check_list;
    int n = cJSON_GetArraySize(list);
    long *fr = scene_aalloc(L, (size_t)n, sizeof *fr);
    if (fr == NULL)
        return;
    const char *key = L->check_by_time ? "times" : "frames";
    size_t m0 = scene_push(L, "checks");
    size_t m = scene_push(L, key);
    int i = 0;
    nbuf_t b1, b2;
    for (const cJSON *c = list->child; c != NULL; c = c->next, i++) {
        double v = c->valuedouble;
        char idx[24];
        snprintf(idx, sizeof idx, "%d", i);
        if (L->check_by_time) {
            double f = round(v * sc->fps);
            if (!(f < (double)sc->nframes)) {
                scene_err_key(L, idx, "time %s is frame %s, after the last frame %ld (t = %s)",
                              scene_num(&b1, v), scene_num(&b2, f), sc->nframes - 1,
                              rf_num_short((char[RF_NUM_BUF]){ 0 },
                                           rf_scene_frame_time(sc, sc->nframes - 1)));
                continue;
            }
            fr[i] = (long)f;
        } else {
            if (!(v < (double)sc->nframes)) {
                scene_err_key(L, idx, "frame %s does not exist: frames are 0..%ld",
                              scene_num(&b1, v), sc->nframes - 1);
                continue;
            }
            fr[i] = (long)v;
        }
    }
    scene_pop(L, m);
    scene_pop(L, m0);
    qsort(fr, (size_t)n, sizeof *fr, cmp_long);
    uint32_t u = 0;
    for (int k = 0; k < n; k++)
        if (u == 0 || fr[k] != fr[u - 1])
            fr[u++] = fr[k];
    sc->check_frames = fr;
    sc->ncheck_frames = u;
    sc->has_checks = 1;
}

/* duration * fps within the limit; then N. */
int scene_set_frames(loader_t *L, double duration)
{
    rf_scene_t *sc = L->sc;
    double frames = duration * sc->fps;
    if (!(frames <= RF_MAX_FRAMES)) {
        nbuf_t a, b, c;
        size_t m0 = scene_push(L, "timeline");
        size_t m = scene_push(L, "duration");
        scene_err(L, "too many frames: duration * fps = %s * %s = %s, the limit is %u%s",
                  scene_num(&a, duration), scene_num(&b, sc->fps), scene_num(&c, frames),
                  (unsigned)RF_MAX_FRAMES, sc->duration_auto ? " (duration \"auto\")" : "");
        scene_pop(L, m);
        scene_pop(L, m0);
        return -1;
    }
    sc->duration = duration;
    sc->nframes = rf_scene_count_frames(duration, sc->fps);
    return 0;
}

