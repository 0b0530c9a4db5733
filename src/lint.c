/* lint.c - warnings about a valid scene (lint.h). */
#include "lint.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "layer.h"
#include "numfmt.h"
#include "render.h"

#define LINT_POINTER 512
#define LINT_MESSAGE 512

/* Frames evaluated to find what an opacity reaches: every frame of the
 * timeline, or this many evenly spaced ones in a longer one. */
#define LINT_MAX_FRAMES 20000
/* Frames laid out to find layers that never reach the canvas: a longer
 * timeline is not checked (a layer may pass through between samples). */
#define LINT_MAX_LAYOUTS 5000

typedef struct lint {
    const rf_scene_t *sc;
    rf_lint_fn fn;
    void *ctx;
    size_t count;
    /* per slot, over the frames: the extremes and the frames they are at
     * (NULL when out of memory: animated opacities are then not checked) */
    double *lo, *hi;
    long *lo_frame, *hi_frame;
    double *last;               /* every slot at the last frame */
    int in_instances;           /* the layer being linted is inside instances */
    rf_renderer_t **r;          /* the renderer to lay out with (*r NULL: none yet) */
} lint_t;

static void lint_say(lint_t *l, const char *pointer, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void lint_say(lint_t *l, const char *pointer, const char *fmt, ...)
{
    char msg[LINT_MESSAGE];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    l->fn(l->ctx, pointer, msg);
    l->count++;
}

/* The value whose outputs include slot, or NULL. */
static const rf_value_t *lint_value_of_slot(const rf_values_t *vs, uint32_t slot)
{
    for (uint32_t i = 0; i < vs->n; i++) {
        const rf_value_t *v = &vs->values[i];
        if (slot >= v->slot && slot < v->slot + v->nout)
            return v;
    }
    return NULL;
}

/* ---- values ---- */

/* Kinds whose settle time is a time the author wrote (a duration, a key
 * time): the ones a millisecond slip shows in. */
static int lint_written_time(rf_value_kind_t k)
{
    return k == RF_VALUE_TWEEN || k == RF_VALUE_BEZIER || k == RF_VALUE_KEYFRAMES ||
           k == RF_VALUE_SEQUENCE;
}

static void lint_values(lint_t *l)
{
    const rf_scene_t *sc = l->sc;
    const rf_values_t *vs = &sc->values;
    char ptr[LINT_POINTER], a[RF_NUM_BUF], b[RF_NUM_BUF], c[RF_NUM_BUF];

    for (uint32_t i = 0; i < vs->nnamed; i++) {
        const rf_value_t *v = &vs->values[i];
        if (i - sc->story_first < sc->nstory && i >= sc->story_first)
            snprintf(ptr, sizeof ptr, "%s", sc->story_ptrs[i - sc->story_first]);
        else
            snprintf(ptr, sizeof ptr, "/values/%s", v->name);
        if (!v->used) {
            if (sc->nlayers > 0)
                lint_say(l, ptr, "'%s' is defined and never used (no layer reads it, "
                                 "directly or through another value)", v->name);
            continue;
        }
        if (sc->duration_auto || !isfinite(v->settle) || !(v->settle > sc->duration + 1e-9))
            continue;
        if (lint_written_time(v->kind) && v->settle >= 10 * sc->duration &&
            v->settle / 1000 <= sc->duration) {
            lint_say(l, ptr, "'%s' settles at %s s, after the timeline ends at %s s (times "
                             "are in seconds: did you mean %s s?)",
                     v->name, rf_num_short(a, v->settle), rf_num_short(b, sc->duration),
                     rf_num_short(c, v->settle / 1000));
            continue;
        }
        /* a motion cut short by a hair (a spring's last 0.2 px) is not worth
         * a warning: the last frame must be 1% of the value's travel away
         * from where it settles */
        if (l->lo == NULL || v->nout != 1 || !isfinite(v->final))
            continue;
        double end = l->last[v->slot];
        double travel = fmax(l->hi[v->slot], v->final) - fmin(l->lo[v->slot], v->final);
        if (!(fabs(end - v->final) > 0.01 * travel))
            continue;
        lint_say(l, ptr, "'%s' settles at %s s, after the timeline ends at %s s: the last "
                         "frame shows %.6g, not %.6g",
                 v->name, rf_num_short(a, v->settle), rf_num_short(b, sc->duration), end,
                 v->final);
    }
}

/* ---- layers ---- */

static void lint_layers(lint_t *l, const rf_layer_t *layers, uint32_t n, const char *base);
static void lint_layer(lint_t *l, const rf_layer_t *L, const char *ptr);

/* A layer outside instances that reads i or n (through a value): there
 * they are 0 and 1 (scene-v1.md), which is rarely what was meant. */
typedef struct inst_read {
    lint_t *l;
    const char *ptr;
} inst_read_t;

static int lint_inst_slot(const rf_layer_key_t *key, uint32_t *slot, void *ctx)
{
    inst_read_t *ir = ctx;
    const rf_scene_t *sc = ir->l->sc;
    uint32_t n = 0, *list = rf_values_closure_create(&sc->values, slot, 1, &n);
    int which = -1;
    for (uint32_t j = 0; list != NULL && j < n && which < 0; j++)
        for (int k = 0; k < 2; k++)
            if (sc->values.values[list[j]].slot == sc->inst_slot[k])
                which = k;
    free(list);
    if (which < 0)
        return 0;
    const rf_value_t *v = lint_value_of_slot(&sc->values, *slot);
    char p[LINT_POINTER];
    snprintf(p, sizeof p, "%.400s/%s", ir->ptr, key->name);
    if (v != NULL && v->name[0] != '\0')
        lint_say(ir->l, p, "'%.128s' reads %s outside instances, where i is 0 and n is 1",
                 v->name, which == 0 ? "i" : "n");
    else
        lint_say(ir->l, p, "the value reads %s outside instances, where i is 0 and n is 1",
                 which == 0 ? "i" : "n");
    return 1; /* once per layer */
}

/* The layers L draws besides itself, as its keys hold them: each
 * children key's n layers (1 for a one-layer key) and its mask layer
 * (mask 1; none when NULL). */
typedef void (*lint_sub_fn)(void *ctx, const rf_layer_key_t *key, const rf_layer_t *sub,
                            uint32_t n, int mask);

static void lint_each_sub(const rf_layer_t *L, lint_sub_fn fn, void *ctx)
{
    const rf_layer_class_t *cls = rf_layer_class(L);
    for (uint32_t k = 0; k < cls->nkeys; k++) {
        const rf_layer_key_t *key = &cls->keys[k];
        const char *base = (const char *)L;
        if (key->kind != RF_KEY_CHILDREN && key->kind != RF_KEY_MASK)
            continue; /* at is some other field */
        const rf_layer_t *sub = *(const rf_layer_t *const *)(const void *)(base + key->at);
        if (key->kind == RF_KEY_CHILDREN) {
            uint32_t n = *(const uint32_t *)(const void *)(base + key->at2);
            fn(ctx, key, sub, (key->flags & RF_KEY_ONE) ? 1 : n, 0);
        } else if (sub != NULL) { /* the mask layer */
            fn(ctx, key, sub, 1, 1);
        }
    }
}

typedef struct lint_sub {
    lint_t *l;
    const rf_layer_t *L;
    const char *ptr;
} lint_sub_t;

static void lint_sub(void *ctx, const rf_layer_key_t *key, const rf_layer_t *sub, uint32_t n,
                     int mask)
{
    lint_sub_t *ls = ctx;
    lint_t *l = ls->l;
    char p[LINT_POINTER];
    if (mask) {
        snprintf(p, sizeof p, "%s/%s/layer", ls->ptr, key->name);
        lint_layer(l, sub, p);
        return;
    }
    snprintf(p, sizeof p, "%s/%s", ls->ptr, key->name);
    int inst = (rf_layer_class(ls->L)->flags & RF_CLASS_REPEAT) != 0;
    l->in_instances += inst;
    if (key->flags & RF_KEY_ONE) /* one layer object: no index */
        lint_layer(l, sub, p);
    else
        lint_layers(l, sub, n, p);
    l->in_instances -= inst;
}

static void lint_layer(lint_t *l, const rf_layer_t *L, const char *ptr)
{
    if (!l->in_instances && (l->sc->inst_slot[0] != RF_PROP_CONST ||
                             l->sc->inst_slot[1] != RF_PROP_CONST)) {
        inst_read_t ir = { l, ptr };
        /* the visitor only reads through the slots it hands out */
        rf_layer_each_slot((rf_layer_t *)(uintptr_t)L, lint_inst_slot, &ir);
    }
    char p[LINT_POINTER], a[RF_NUM_BUF];
    const rf_prop_t *op = &L->opacity;

    if (op->slot == RF_PROP_CONST) {
        if (op->k < 0 || op->k > 1) {
            snprintf(p, sizeof p, "%s/opacity", ptr);
            lint_say(l, p, "opacity %s is outside 0..1: it is drawn as %s",
                     rf_num_short(a, op->k), op->k < 0 ? "0" : "1");
        }
    } else if (l->lo != NULL) {
        const rf_value_t *v = lint_value_of_slot(&l->sc->values, op->slot);
        char name[RF_NUM_BUF + 160], t[RF_NUM_BUF];
        int over = l->hi[op->slot] > 1;
        double x = over ? l->hi[op->slot] : l->lo[op->slot];
        long f = over ? l->hi_frame[op->slot] : l->lo_frame[op->slot];
        if (over || l->lo[op->slot] < 0) {
            if (v != NULL && v->name[0] != '\0')
                snprintf(name, sizeof name, "opacity '%.128s'", v->name);
            else
                snprintf(name, sizeof name, "the opacity");
            snprintf(p, sizeof p, "%s/opacity", ptr);
            lint_say(l, p, "%s reaches %.6g at frame %ld (t = %s s), outside 0..1: it is drawn "
                           "clamped to 0..1", name, x, f,
                     rf_num_short(t, rf_scene_frame_time(l->sc, f)));
        }
    }

    /* the layers it draws: children and a mask layer, by their key names */
    lint_sub_t ls = { l, L, ptr };
    lint_each_sub(L, lint_sub, &ls);
}

static void lint_layers(lint_t *l, const rf_layer_t *layers, uint32_t n, const char *base)
{
    char p[LINT_POINTER];
    /* base cut to LINT_POINTER - 16 bytes, then "/i" (snprintf's "%.*s/%u"
     * was a third of the lint of a scene of 3,000 layers) */
    size_t bl = strnlen(base, LINT_POINTER - 16);
    memcpy(p, base, bl);
    for (uint32_t i = 0; i < n; i++) {
        p[bl] = '\0';
        rf_pointer_push_index(p, sizeof p, i);
        lint_layer(l, &layers[i], p);
    }
}

/* The slots whose extremes the checks read (every named value's, every
 * animated opacity's), gathered to evaluate only what they depend on: a
 * scene's inline values (3,000 position expressions in a photo-like
 * frame) need not be evaluated at every frame for them. */
typedef struct watch {
    uint32_t *s;
    uint32_t n, cap;
    int oom;
} watch_t;

static void watch_add(watch_t *w, uint32_t slot)
{
    if (w->oom || slot == RF_PROP_CONST)
        return;
    if (w->n == w->cap) {
        uint32_t cap = w->cap ? 2 * w->cap : 64;
        uint32_t *s = realloc(w->s, cap * sizeof *s);
        if (s == NULL) {
            w->oom = 1;
            return;
        }
        w->s = s;
        w->cap = cap;
    }
    w->s[w->n++] = slot;
}

/* Every opacity slot of n layers and of what they draw (children, mask
 * layers), as lint_layer walks them. */
static void watch_layers(watch_t *w, const rf_layer_t *layers, uint32_t n);

static void watch_sub(void *ctx, const rf_layer_key_t *key, const rf_layer_t *sub, uint32_t n,
                      int mask)
{
    (void)key;
    (void)mask;
    if (sub != NULL)
        watch_layers(ctx, sub, n);
}

static void watch_layers(watch_t *w, const rf_layer_t *layers, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        watch_add(w, layers[i].opacity.slot);
        lint_each_sub(&layers[i], watch_sub, w);
    }
}

/* The watched slots' values at every frame (or LINT_MAX_FRAMES of them):
 * their extremes and the frames they are at, and every watched value at
 * the last frame. The other slots are not evaluated (their extremes stay
 * +-INFINITY and nothing reads them). */
static void lint_extremes(lint_t *l)
{
    const rf_scene_t *sc = l->sc;
    const rf_values_t *vs = &sc->values;
    uint32_t n = vs->nslots, nlist = 0, *list = NULL;
    watch_t w = { NULL, 0, 0, 0 };
    for (uint32_t i = 0; i < vs->nnamed; i++)
        if (vs->values[i].nout == 1)
            watch_add(&w, vs->values[i].slot);
    watch_layers(&w, sc->layers, sc->nlayers);
    double *slots = calloc(n > 0 ? n : 1, sizeof *slots);
    l->last = slots;
    long step = sc->nframes > LINT_MAX_FRAMES ? (sc->nframes + LINT_MAX_FRAMES - 1) / LINT_MAX_FRAMES
                                              : 1;

    l->lo = malloc((n > 0 ? n : 1) * sizeof *l->lo);
    l->hi = malloc((n > 0 ? n : 1) * sizeof *l->hi);
    l->lo_frame = malloc((n > 0 ? n : 1) * sizeof *l->lo_frame);
    l->hi_frame = malloc((n > 0 ? n : 1) * sizeof *l->hi_frame);
    if (!w.oom && w.n > 0)
        list = rf_values_closure_create(vs, w.s, w.n, &nlist);
    if (slots == NULL || l->lo == NULL || l->hi == NULL || l->lo_frame == NULL ||
        l->hi_frame == NULL || w.oom || (w.n > 0 && list == NULL)) {
        free(l->lo);
        free(l->hi);
        free(l->lo_frame);
        free(l->hi_frame);
        l->lo = l->hi = NULL;
        l->lo_frame = l->hi_frame = NULL;
        free(slots);
        l->last = NULL;
        free(list);
        free(w.s);
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        l->lo[i] = INFINITY;
        l->hi[i] = -INFINITY;
        l->lo_frame[i] = l->hi_frame[i] = 0;
    }
    for (long f = 0; f < sc->nframes; f += step) {
        rf_values_eval_list(vs, list, nlist, rf_scene_frame_time(sc, f), slots);
        for (uint32_t j = 0; j < w.n; j++) {
            uint32_t i = w.s[j];
            if (slots[i] < l->lo[i]) {
                l->lo[i] = slots[i];
                l->lo_frame[i] = f;
            }
            if (slots[i] > l->hi[i]) {
                l->hi[i] = slots[i];
                l->hi_frame[i] = f;
            }
        }
    }
    rf_values_eval_list(vs, list, nlist, rf_scene_frame_time(sc, sc->nframes - 1), slots);
    free(list);
    free(w.s);
}

/* Top-level layers that reach the canvas at no frame: laid out (not
 * drawn) at every frame of a timeline of at most LINT_MAX_LAYOUTS. */
static void lint_offscreen(lint_t *l)
{
    const rf_scene_t *sc = l->sc;
    char p[LINT_POINTER], err[256];
    uint32_t left = sc->nlayers;

    if (sc->nlayers == 0 || sc->nframes > LINT_MAX_LAYOUTS)
        return;
    unsigned char *touch = calloc(sc->nlayers, 1);
    if (touch != NULL && *l->r == NULL)
        *l->r = rf_renderer_create(sc, err, sizeof err);
    rf_renderer_t *r = touch != NULL ? *l->r : NULL;
    for (long f = 0; r != NULL && f < sc->nframes && left > 0; f++) {
        rf_renderer_touch(r, rf_scene_frame_time(sc, f), touch);
        left = 0;
        for (uint32_t i = 0; i < sc->nlayers; i++)
            left += !touch[i];
    }
    for (uint32_t i = 0; r != NULL && i < sc->nlayers; i++) {
        const rf_layer_t *L = &sc->layers[i];
        if (touch[i])
            continue;
        snprintf(p, sizeof p, "/layers/%u", i);
        /* "the rect", "the instances layer" (any of its instances) */
        const char *what = L->type == RF_LAYER_INSTANCES ? "instances layer"
                                                         : rf_layer_class(L)->name;
        if (L->id != NULL)
            lint_say(l, p, "the %s '%.128s' never reaches the %dx%d canvas (outside it, or not "
                           "finite, at every frame): it is never seen",
                     what, L->id, sc->width, sc->height);
        else
            lint_say(l, p, "the %s never reaches the %dx%d canvas (outside it, or not finite, at "
                           "every frame): it is never seen",
                     what, sc->width, sc->height);
    }
    free(touch);
}

size_t rf_lint_scene(const rf_scene_t *scene, rf_lint_fn fn, void *ctx)
{
    rf_renderer_t *r = NULL;
    size_t n = rf_lint_scene_with(scene, &r, fn, ctx);
    rf_renderer_destroy(r);
    return n;
}

size_t rf_lint_scene_with(const rf_scene_t *scene, rf_renderer_t **r, rf_lint_fn fn, void *ctx)
{
    lint_t l = { scene, fn, ctx, 0, NULL, NULL, NULL, NULL, NULL, 0, r };

    lint_extremes(&l);
    lint_values(&l);
    lint_layers(&l, scene->layers, scene->nlayers, "/layers");
    lint_offscreen(&l);
    free(l.lo);
    free(l.hi);
    free(l.lo_frame);
    free(l.hi_frame);
    free(l.last);
    return l.count;
}
