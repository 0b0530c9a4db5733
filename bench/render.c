/* bench/render.c - the renderer's overhead: whole render + encode per frame
 * against raw cairo drawing of the same shapes plus the same PNG call
 * (`make bench`; not a test).
 *
 *   rf_renderer_draw + rf_png_write_mem (render defaults)
 *     / replay of the frame's cairo calls + rf_png_write_mem     goal <= 1.15
 *
 * Method: scenes/showcase.json (1280x720) at NFRAMES frame times spread
 * over its timeline. Outside every timing, each frame is turned into a
 * display list: the values are evaluated, the layer tree is laid out and
 * walked (the semantics of render.h, re-derived here), and every visible
 * shape is recorded as plain data: its final cairo matrix, its path (as a
 * cairo_path_t, copied in the layer's coordinates), its fill and stroke
 * (an RGBA color or a gradient pattern) and how opacity applies. The
 * baseline then issues only cairo calls from that data: no value
 * evaluation, no tree walk, no property reads. Constant gradients are built
 * once in both (the renderer does so at creation); animated ones per draw in
 * both. The baseline's pixels are compared with the renderer's, so the two
 * really draw the same frame.
 *
 * One repetition times all frames through ours, then through the baseline
 * (the order alternates), each into the same reused PNG buffer; the ratio
 * is taken within a repetition and the median over the repetitions
 * (>= 5) is printed, so frequency changes hit both alike.
 *
 * Usage: bench/render [--reps N] [--scene FILE] [--strict]
 *   --strict  exit 1 when the goal is missed or the pixels differ
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <cairo.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "bench-render.h"

#include "diag.h"
#include "layer.h"
#include "path.h"
#include "pngio.h"
#include "render.h"
#include "scene.h"

#define MAXREPS BENCH_MAXREPS
#define NFRAMES 48
#define GOAL 1.15
#define RF_PI 3.14159265358979323846
#define MITER_LIMIT 4.0

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (p == NULL) {
        fprintf(stderr, "bench/render: out of memory\n");
        exit(2);
    }
    return p;
}

/* ------------------------------------------------------- the display list */

/* A source as plain data: a color, a prebuilt pattern, or the geometry of
 * an animated gradient (built per draw, as the renderer does). */
typedef struct src {
    int kind;                 /* 0 none, 1 rgba, 2 pattern, 3 animated gradient */
    double rgba[4];
    cairo_pattern_t *pat;     /* kind 2: borrowed from the pattern cache */
    int linear;               /* kind 3 */
    double g[5];              /* linear x0 y0 x1 y1; radial x y r */
    const rf_gradient_stop_t *stops;
    uint32_t nstops;
    const double *slots;       /* the frame's values, for stops that are color values */
} src_t;

typedef enum op_kind { OP_SHAPE, OP_PUSH, OP_POP } op_kind_t;

typedef struct op {
    op_kind_t kind;
    cairo_matrix_t m;
    cairo_path_t *path;       /* in the coordinates of m */
    src_t fill, stroke;
    double sw;
    int group;                /* OP_SHAPE: drawn in a clipped group */
    double clip[4];           /* device x, y, w, h */
    double alpha;             /* OP_SHAPE group, OP_POP */
} op_t;

typedef struct dlist {
    double t;
    double bg[4];
    op_t *ops;
    size_t n, cap;
} dlist_t;

/* Gradients with constant geometry, one per (layer, fill|stroke), built
 * once like the renderer's: indexed by pre-order layer index * 2 + k. */
typedef struct builder {
    const rf_scene_t *sc;
    double *slots;
    cairo_t *scratch;         /* builds the paths that get copied */
    cairo_matrix_t *local;    /* per node, this frame */
    double (*box)[4];
    int *ok;
    double (*pivot)[2];       /* a group's anchor point of its box at t = 0 */
    int pivot_init;           /* the layout at t = 0 that keeps them */
    uint32_t *size;
    cairo_pattern_t **pat;    /* 2 per node */
    rf_path_op_t *trim;
    size_t trim_cap;
    dlist_t *dl;
} builder_t;

static double clamp01(double v) { return rf_clamp01(v); }
static double nonneg(double v) { return v > 0 ? v : 0; }
static double P(const builder_t *b, const rf_prop_t *p) { return rf_prop_get(p, b->slots); }

static int matrix_usable(const cairo_matrix_t *m)
{
    cairo_matrix_t inv = *m;
    if (!(isfinite(m->xx) && isfinite(m->yx) && isfinite(m->xy) && isfinite(m->yy) &&
          isfinite(m->x0) && isfinite(m->y0)))
        return 0;
    if (cairo_matrix_invert(&inv) != CAIRO_STATUS_SUCCESS)
        return 0;
    return isfinite(inv.xx) && isfinite(inv.yx) && isfinite(inv.xy) && isfinite(inv.yy) &&
           isfinite(inv.x0) && isfinite(inv.y0);
}

static void rotation(double deg, double *c, double *s)
{
    double q = deg / 90.0;
    if (fabs(q) < 1e15 && q == floor(q)) {
        static const double cs[4][2] = { { 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 } };
        long long k = ((long long)q % 4 + 4) % 4;
        *c = cs[k][0];
        *s = cs[k][1];
        return;
    }
    *c = cos(deg * (RF_PI / 180.0));
    *s = sin(deg * (RF_PI / 180.0));
}

static int is_gradient(const rf_paint_t *p)
{
    return p->kind == RF_PAINT_LINEAR || p->kind == RF_PAINT_RADIAL;
}

static int gradient_constant(const rf_paint_t *p)
{
    if (p->p0[0].slot != RF_PROP_CONST || p->p0[1].slot != RF_PROP_CONST)
        return 0;
    for (uint32_t i = 0; i < p->nstops; i++)
        if (p->stops[i].color.slot != RF_PROP_CONST)
            return 0;
    if (p->kind == RF_PAINT_LINEAR)
        return p->p1[0].slot == RF_PROP_CONST && p->p1[1].slot == RF_PROP_CONST;
    return p->radius.slot == RF_PROP_CONST;
}

/* The gradient of geometry g, or NULL when degenerate. */
static cairo_pattern_t *gradient_build(int linear, const double *g,
                                       const rf_gradient_stop_t *stops, uint32_t nstops,
                                       const double *slots)
{
    cairo_pattern_t *pat;
    if (linear) {
        if (!(isfinite(g[0]) && isfinite(g[1]) && isfinite(g[2]) && isfinite(g[3])) ||
            (g[0] == g[2] && g[1] == g[3]))
            return NULL;
        pat = cairo_pattern_create_linear(g[0], g[1], g[2], g[3]);
    } else {
        if (!(isfinite(g[0]) && isfinite(g[1]) && isfinite(g[2])) || !(g[2] > 0))
            return NULL;
        pat = cairo_pattern_create_radial(g[0], g[1], 0, g[0], g[1], g[2]);
    }
    for (uint32_t i = 0; i < nstops; i++) {
        rf_color_t c = rf_colorp_get(&stops[i].color, slots);
        cairo_pattern_add_color_stop_rgba(pat, stops[i].offset, c.r, c.g, c.b, c.a);
    }
    cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
    return pat;
}

static void paint_geometry(const builder_t *b, const rf_paint_t *p, double *g)
{
    g[0] = P(b, &p->p0[0]);
    g[1] = P(b, &p->p0[1]);
    if (p->kind == RF_PAINT_LINEAR) {
        g[2] = P(b, &p->p1[0]);
        g[3] = P(b, &p->p1[1]);
    } else {
        g[2] = P(b, &p->radius);
    }
}

/* The paint at this frame as plain data; alpha as in render.c paint_set. */
static src_t paint_record(const builder_t *b, const rf_paint_t *p, uint32_t idx, int k,
                          double alpha)
{
    src_t s = { 0 };
    if (p->kind == RF_PAINT_SOLID || p->kind == RF_PAINT_MIX) {
        double m = p->kind == RF_PAINT_MIX ? clamp01(P(b, &p->by)) : 0;
        rf_color_t c = p->color, d = p->color;
        if (p->kind == RF_PAINT_MIX) {
            c = rf_colorp_get(&p->ends[0], b->slots);
            d = rf_colorp_get(&p->ends[1], b->slots);
        }
        s.kind = 1;
        s.rgba[0] = c.r + (d.r - c.r) * m;
        s.rgba[1] = c.g + (d.g - c.g) * m;
        s.rgba[2] = c.b + (d.b - c.b) * m;
        s.rgba[3] = (c.a + (d.a - c.a) * m) * alpha;
        return s;
    }
    if (p->nstops == 0) {
        s.kind = 1;
        return s;
    }
    if (b->pat[idx * 2 + (uint32_t)k]) {
        s.kind = 2;
        s.pat = b->pat[idx * 2 + (uint32_t)k];
        return s;
    }
    s.linear = p->kind == RF_PAINT_LINEAR;
    paint_geometry(b, p, s.g);
    cairo_pattern_t *probe = gradient_constant(p) ? NULL
                                                  : gradient_build(s.linear, s.g, p->stops, p->nstops,
                                                                   b->slots);
    if (probe) {
        cairo_pattern_destroy(probe);
        s.kind = 3;
        s.stops = p->stops;
        s.nstops = p->nstops;
        s.slots = b->slots;
        return s;
    }
    rf_color_t c = rf_colorp_get(&p->stops[p->nstops - 1].color, b->slots);
    s.kind = 1;
    s.rgba[0] = c.r, s.rgba[1] = c.g, s.rgba[2] = c.b, s.rgba[3] = c.a * alpha;
    return s;
}

static op_t *dl_push(dlist_t *dl)
{
    if (dl->n == dl->cap) {
        dl->cap = dl->cap ? dl->cap * 2 : 64;
        op_t *p = realloc(dl->ops, dl->cap * sizeof *p);
        if (p == NULL) {
            fprintf(stderr, "bench/render: out of memory\n");
            exit(2);
        }
        dl->ops = p;
    }
    op_t *o = &dl->ops[dl->n++];
    memset(o, 0, sizeof *o);
    return o;
}

static uint32_t prepare(builder_t *b, const rf_layer_t *L, uint32_t idx)
{
    uint32_t next = idx + 1;
    if (L->type == RF_LAYER_GROUP) {
        for (uint32_t i = 0; i < L->u.group.nchildren; i++)
            next = prepare(b, &L->u.group.children[i], next);
    } else {
        const rf_paint_t *paints[2] = { L->type == RF_LAYER_LINE ? NULL : &L->fill, &L->stroke };
        for (int k = 0; k < 2; k++)
            if (paints[k] && is_gradient(paints[k]) && gradient_constant(paints[k]) &&
                paints[k]->nstops > 0) {
                double g[5];
                paint_geometry(b, paints[k], g);
                b->pat[idx * 2 + (uint32_t)k] =
                    gradient_build(paints[k]->kind == RF_PAINT_LINEAR, g, paints[k]->stops,
                                   paints[k]->nstops, b->slots);
            }
        if (L->type == RF_LAYER_PATH && rf_path_trim_max(L->u.path.src.path) > b->trim_cap)
            b->trim_cap = rf_path_trim_max(L->u.path.src.path);
    }
    b->size[idx] = next - idx;
    return next;
}

/* The raw-cairo baseline draws shapes and groups only: a scene with any
 * other layer (text, image, instances) is refused with its name, not
 * walked as a group (it crashed on scenes/showcase.json's text). */
static void check_types(const char *path, const rf_layer_t *layers, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        rf_layer_type_t t = layers[i].type;
        if (t == RF_LAYER_GROUP)
            check_types(path, layers[i].u.group.children, layers[i].u.group.nchildren);
        else if (t != RF_LAYER_RECT && t != RF_LAYER_CIRCLE && t != RF_LAYER_ELLIPSE &&
                 t != RF_LAYER_LINE && t != RF_LAYER_PATH) {
            fprintf(stderr, "bench/render: %s: a %s layer: the raw-cairo baseline draws "
                            "shapes and groups only\n", path, rf_layer_class(&layers[i])->name);
            exit(2);
        }
    }
}

static uint32_t count_layers(const rf_layer_t *layers, uint32_t n)
{
    uint32_t total = n;
    for (uint32_t i = 0; i < n; i++)
        if (layers[i].type == RF_LAYER_GROUP)
            total += count_layers(layers[i].u.group.children, layers[i].u.group.nchildren);
    return total;
}

static void box_union(double *acc, int *empty, const double *bx, const cairo_matrix_t *m)
{
    double px[4] = { bx[0], bx[2], bx[0], bx[2] }, py[4] = { bx[1], bx[1], bx[3], bx[3] };
    for (int i = 0; i < 4; i++) {
        cairo_matrix_transform_point(m, &px[i], &py[i]);
        if (!isfinite(px[i]) || !isfinite(py[i]))
            return;
    }
    for (int i = 0; i < 4; i++) {
        if (*empty) {
            acc[0] = acc[2] = px[i];
            acc[1] = acc[3] = py[i];
            *empty = 0;
        }
        acc[0] = fmin(acc[0], px[i]);
        acc[1] = fmin(acc[1], py[i]);
        acc[2] = fmax(acc[2], px[i]);
        acc[3] = fmax(acc[3], py[i]);
    }
}

static uint32_t layout(builder_t *b, const rf_layer_t *L, uint32_t idx)
{
    double *bx = b->box[idx];
    int canvas = 0;
    switch (L->type) {
    case RF_LAYER_RECT:
        bx[0] = bx[1] = 0;
        bx[2] = nonneg(P(b, &L->u.rect.width));
        bx[3] = nonneg(P(b, &L->u.rect.height));
        break;
    case RF_LAYER_CIRCLE:
        bx[2] = bx[3] = nonneg(P(b, &L->u.circle.r));
        bx[0] = bx[1] = -bx[2];
        break;
    case RF_LAYER_ELLIPSE:
        bx[2] = nonneg(P(b, &L->u.ellipse.rx));
        bx[3] = nonneg(P(b, &L->u.ellipse.ry));
        bx[0] = -bx[2];
        bx[1] = -bx[3];
        break;
    case RF_LAYER_LINE: {
        double x1 = P(b, &L->u.line.x1), y1 = P(b, &L->u.line.y1);
        double x2 = P(b, &L->u.line.x2), y2 = P(b, &L->u.line.y2);
        bx[0] = fmin(x1, x2);
        bx[1] = fmin(y1, y2);
        bx[2] = fmax(x1, x2);
        bx[3] = fmax(y1, y2);
        if (!(isfinite(x1) && isfinite(y1) && isfinite(x2) && isfinite(y2)))
            bx[0] = NAN;
        canvas = 1;
        break;
    }
    case RF_LAYER_PATH:
        rf_path_bounds(L->u.path.src.path, &bx[0], &bx[1], &bx[2], &bx[3]);
        canvas = 1;
        break;
    default: {
        int empty = 1;
        uint32_t ci = idx + 1;
        bx[0] = bx[1] = bx[2] = bx[3] = 0;
        for (uint32_t i = 0; i < L->u.group.nchildren; i++) {
            uint32_t c = ci;
            ci = layout(b, &L->u.group.children[i], ci);
            if (b->ok[c])
                box_union(bx, &empty, b->box[c], &b->local[c]);
        }
        if (empty)
            bx[0] = bx[1] = bx[2] = bx[3] = 0;
        canvas = 1; /* children keep their coordinates */
        break;
    }
    }
    double ax = bx[0] + P(b, &L->anchor_x) * (bx[2] - bx[0]);
    double ay = bx[1] + P(b, &L->anchor_y) * (bx[3] - bx[1]);
    if (L->type == RF_LAYER_GROUP) {
        /* turns around the pivot: given, or the anchor point at t = 0 */
        if (b->pivot_init) {
            b->pivot[idx][0] = ax;
            b->pivot[idx][1] = ay;
        }
        int given = !(L->u.group.pivot_x.slot == RF_PROP_CONST && isnan(L->u.group.pivot_x.k));
        ax = given ? P(b, &L->u.group.pivot_x) : b->pivot[idx][0];
        ay = given ? P(b, &L->u.group.pivot_y) : b->pivot[idx][1];
    }
    double tx = P(b, &L->x), ty = P(b, &L->y), deg = P(b, &L->rotate);
    if (L->follow_slot != RF_PROP_CONST) {
        tx += b->slots[L->follow_slot];
        ty += b->slots[L->follow_slot + 1];
        if (L->orient)
            deg += b->slots[L->follow_slot + 2];
    }
    if (canvas) {
        tx += ax;
        ty += ay;
    }
    double c, sn, sx = P(b, &L->scale_x), sy = P(b, &L->scale_y);
    rotation(deg, &c, &sn);
    cairo_matrix_t *m = &b->local[idx];
    m->xx = c * sx;
    m->yx = sn * sx;
    m->xy = -sn * sy;
    m->yy = c * sy;
    m->x0 = tx - (m->xx * ax + m->xy * ay);
    m->y0 = ty - (m->yx * ax + m->yy * ay);
    b->ok[idx] = isfinite(bx[0]) && isfinite(bx[1]) && isfinite(bx[2]) && isfinite(bx[3]) &&
                 matrix_usable(m);
    return idx + b->size[idx];
}

/* Builds the shape's path on the scratch context under m and copies it
 * (in m's coordinates); NULL when the shape draws nothing. */
static cairo_path_t *shape_path(builder_t *b, const rf_layer_t *L, const cairo_matrix_t *m)
{
    cairo_t *cr = b->scratch;
    cairo_set_matrix(cr, m);
    cairo_new_path(cr);
    switch (L->type) {
    case RF_LAYER_RECT: {
        double w = nonneg(P(b, &L->u.rect.width)), h = nonneg(P(b, &L->u.rect.height));
        if (!(w > 0 && h > 0 && isfinite(w) && isfinite(h)))
            return NULL;
        double q = fmin(nonneg(P(b, &L->u.rect.radius)), fmin(w, h) / 2);
        if (q > 0) {
            cairo_move_to(cr, q, 0);
            cairo_line_to(cr, w - q, 0);
            cairo_arc(cr, w - q, q, q, -RF_PI / 2, 0);
            cairo_line_to(cr, w, h - q);
            cairo_arc(cr, w - q, h - q, q, 0, RF_PI / 2);
            cairo_line_to(cr, q, h);
            cairo_arc(cr, q, h - q, q, RF_PI / 2, RF_PI);
            cairo_line_to(cr, 0, q);
            cairo_arc(cr, q, q, q, RF_PI, 3 * RF_PI / 2);
            cairo_close_path(cr);
        } else {
            cairo_rectangle(cr, 0, 0, w, h);
        }
        break;
    }
    case RF_LAYER_CIRCLE: {
        double r = nonneg(P(b, &L->u.circle.r));
        if (!(r > 0 && isfinite(r)))
            return NULL;
        cairo_arc(cr, 0, 0, r, 0, 2 * RF_PI);
        cairo_close_path(cr);
        break;
    }
    case RF_LAYER_ELLIPSE: {
        double rx = nonneg(P(b, &L->u.ellipse.rx)), ry = nonneg(P(b, &L->u.ellipse.ry));
        if (!(rx > 0 && ry > 0))
            return NULL;
        cairo_matrix_t sm, em;
        cairo_matrix_init_scale(&sm, rx, ry);
        cairo_matrix_multiply(&em, &sm, m);
        if (!matrix_usable(&em))
            return NULL;
        cairo_set_matrix(cr, &em);
        cairo_arc(cr, 0, 0, 1, 0, 2 * RF_PI);
        cairo_close_path(cr);
        cairo_set_matrix(cr, m);
        break;
    }
    case RF_LAYER_LINE:
        cairo_move_to(cr, P(b, &L->u.line.x1), P(b, &L->u.line.y1));
        cairo_line_to(cr, P(b, &L->u.line.x2), P(b, &L->u.line.y2));
        break;
    case RF_LAYER_PATH: {
        size_t n = rf_path_trim(L->u.path.src.path, P(b, &L->u.path.trim0), P(b, &L->u.path.trim1),
                                b->trim, b->trim_cap);
        if (n > b->trim_cap)
            n = b->trim_cap;
        if (n == 0)
            return NULL;
        for (size_t i = 0; i < n; i++) {
            const rf_path_op_t *o = &b->trim[i];
            if (o->kind == RF_PATH_OP_MOVE)
                cairo_move_to(cr, o->p[0], o->p[1]);
            else if (o->kind == RF_PATH_OP_LINE)
                cairo_line_to(cr, o->p[0], o->p[1]);
            else if (o->kind == RF_PATH_OP_CURVE)
                cairo_curve_to(cr, o->p[0], o->p[1], o->p[2], o->p[3], o->p[4], o->p[5]);
            else
                cairo_close_path(cr);
        }
        break;
    }
    default:
        return NULL;
    }
    return cairo_copy_path(cr);
}

static void record_shape(builder_t *b, const rf_layer_t *L, uint32_t idx,
                         const cairo_matrix_t *m, double opv)
{
    double sw = P(b, &L->stroke_width);
    int fill = L->fill.kind != RF_PAINT_NONE && L->type != RF_LAYER_LINE;
    int stroke = L->stroke.kind != RF_PAINT_NONE && sw > 0 && isfinite(sw);
    if (!fill && !stroke)
        return;
    cairo_path_t *path = shape_path(b, L, m);
    if (path == NULL)
        return;
    const rf_paint_t *only = fill && !stroke ? &L->fill : stroke && !fill ? &L->stroke : NULL;
    int group = opv < 1 && !(only && !is_gradient(only));
    double alpha = opv < 1 && !group ? opv : 1;
    op_t o = { .kind = OP_SHAPE, .m = *m, .path = path, .sw = sw, .group = group,
               .alpha = opv };
    if (fill)
        o.fill = paint_record(b, &L->fill, idx, 0, alpha);
    if (stroke)
        o.stroke = paint_record(b, &L->stroke, idx, 1, alpha);
    if (group) {
        double ux0, uy0, ux1, uy1;
        cairo_path_extents(b->scratch, &ux0, &uy0, &ux1, &uy1);
        if (stroke) {
            double pad = sw * 0.5 * MITER_LIMIT;
            ux0 -= pad, uy0 -= pad, ux1 += pad, uy1 += pad;
        }
        double px[4] = { ux0, ux1, ux0, ux1 }, py[4] = { uy0, uy0, uy1, uy1 };
        double dx0 = INFINITY, dy0 = INFINITY, dx1 = -INFINITY, dy1 = -INFINITY;
        for (int i = 0; i < 4; i++) {
            cairo_matrix_transform_point(m, &px[i], &py[i]);
            dx0 = fmin(dx0, px[i]);
            dy0 = fmin(dy0, py[i]);
            dx1 = fmax(dx1, px[i]);
            dy1 = fmax(dy1, py[i]);
        }
        dx0 = fmax(floor(dx0) - 1, 0);
        dy0 = fmax(floor(dy0) - 1, 0);
        dx1 = fmin(ceil(dx1) + 1, b->sc->width);
        dy1 = fmin(ceil(dy1) + 1, b->sc->height);
        if (!(dx1 > dx0 && dy1 > dy0)) {
            cairo_path_destroy(path);
            return;
        }
        o.clip[0] = dx0, o.clip[1] = dy0, o.clip[2] = dx1 - dx0, o.clip[3] = dy1 - dy0;
    }
    *dl_push(b->dl) = o;
}

static void record_layer(builder_t *b, const rf_layer_t *L, uint32_t idx,
                         const cairo_matrix_t *parent)
{
    if (!b->ok[idx])
        return;
    double opv = clamp01(P(b, &L->opacity));
    if (!(opv > 0))
        return;
    cairo_matrix_t m;
    cairo_matrix_multiply(&m, &b->local[idx], parent);
    if (!matrix_usable(&m))
        return;
    if (L->type != RF_LAYER_GROUP) {
        record_shape(b, L, idx, &m, opv);
        return;
    }
    if (opv < 1)
        dl_push(b->dl)->kind = OP_PUSH;
    uint32_t ci = idx + 1;
    for (uint32_t i = 0; i < L->u.group.nchildren; i++) {
        record_layer(b, &L->u.group.children[i], ci, &m);
        ci += b->size[ci];
    }
    if (opv < 1) {
        op_t *o = dl_push(b->dl);
        o->kind = OP_POP;
        o->alpha = opv;
    }
}

static void record_frame(builder_t *b, double t, dlist_t *dl)
{
    const rf_scene_t *sc = b->sc;
    dl->t = t;
    dl->bg[0] = (sc->background >> 24 & 255) / 255.0;
    dl->bg[1] = (sc->background >> 16 & 255) / 255.0;
    dl->bg[2] = (sc->background >> 8 & 255) / 255.0;
    dl->bg[3] = (sc->background & 255) / 255.0;
    b->dl = dl;
    rf_values_eval(&sc->values, t, b->slots);
    uint32_t idx = 0;
    for (uint32_t i = 0; i < sc->nlayers; i++)
        idx = layout(b, &sc->layers[i], idx);
    cairo_matrix_t id;
    cairo_matrix_init_identity(&id);
    idx = 0;
    for (uint32_t i = 0; i < sc->nlayers; i++) {
        record_layer(b, &sc->layers[i], idx, &id);
        idx += b->size[idx];
    }
}

/* ------------------------------------------------------- the baseline */

static void src_set(cairo_t *cr, const src_t *s)
{
    if (s->kind == 1) {
        cairo_set_source_rgba(cr, s->rgba[0], s->rgba[1], s->rgba[2], s->rgba[3]);
    } else if (s->kind == 2) {
        cairo_set_source(cr, s->pat);
    } else {
        cairo_pattern_t *p = gradient_build(s->linear, s->g, s->stops, s->nstops, s->slots);
        cairo_set_source(cr, p);
        cairo_pattern_destroy(p);
    }
}

static void shape_paint(cairo_t *cr, const op_t *o)
{
    cairo_new_path(cr);
    cairo_append_path(cr, o->path);
    if (o->fill.kind) {
        src_set(cr, &o->fill);
        if (o->stroke.kind)
            cairo_fill_preserve(cr);
        else
            cairo_fill(cr);
    }
    if (o->stroke.kind) {
        src_set(cr, &o->stroke);
        cairo_set_line_width(cr, o->sw);
        cairo_stroke(cr);
    }
}

/* Plain cairo calls from the recorded numbers; the context has the same
 * stroke style as the renderer's. */
static void replay(cairo_t *cr, cairo_surface_t *s, const dlist_t *dl)
{
    cairo_new_path(cr);
    cairo_identity_matrix(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_set_source_rgba(cr, dl->bg[0], dl->bg[1], dl->bg[2], dl->bg[3]);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
    for (size_t i = 0; i < dl->n; i++) {
        const op_t *o = &dl->ops[i];
        if (o->kind == OP_PUSH) {
            cairo_push_group(cr);
        } else if (o->kind == OP_POP) {
            cairo_pop_group_to_source(cr);
            cairo_paint_with_alpha(cr, o->alpha);
        } else if (!o->group) {
            cairo_set_matrix(cr, &o->m);
            shape_paint(cr, o);
        } else {
            cairo_save(cr);
            cairo_identity_matrix(cr);
            cairo_rectangle(cr, o->clip[0], o->clip[1], o->clip[2], o->clip[3]);
            cairo_clip(cr);
            cairo_set_matrix(cr, &o->m);
            cairo_push_group(cr);
            shape_paint(cr, o);
            cairo_pop_group_to_source(cr);
            cairo_paint_with_alpha(cr, o->alpha);
            cairo_restore(cr);
        }
    }
    cairo_surface_flush(s);
}

/* ------------------------------------------------------- timing */

static void encode(cairo_surface_t *s, rf_png_buffer_t *out)
{
    static const rf_png_options_t opt = RF_PNG_OPTIONS_RENDER;
    rf_png_frame_t f = { (const uint32_t *)(const void *)cairo_image_surface_get_data(s),
                         (uint32_t)cairo_image_surface_get_width(s),
                         (uint32_t)cairo_image_surface_get_height(s),
                         (size_t)cairo_image_surface_get_stride(s), 0 };
    rf_png_error_t err;
    if (rf_png_write_mem(&f, &opt, out, &err) != RF_PNG_SUCCESS) {
        fprintf(stderr, "bench/render: encode: %s\n", err.message);
        exit(2);
    }
}

static double time_ours(rf_renderer_t *r, const dlist_t *dls, int n, rf_png_buffer_t *out)
{
    double t0 = bench_seconds();
    for (int i = 0; i < n; i++) {
        if (rf_renderer_draw(r, dls[i].t) != 0) {
            fprintf(stderr, "bench/render: draw: %s\n", rf_renderer_error(r));
            exit(2);
        }
        encode(rf_renderer_surface(r), out);
    }
    return (bench_seconds() - t0) / n;
}

static double time_base(cairo_t *cr, cairo_surface_t *s, const dlist_t *dls, int n,
                        rf_png_buffer_t *out)
{
    double t0 = bench_seconds();
    for (int i = 0; i < n; i++) {
        replay(cr, s, &dls[i]);
        encode(s, out);
    }
    return (bench_seconds() - t0) / n;
}

int main(int argc, char **argv)
{
    rf_render_tune_allocator(); /* as runeframe does */
    int reps = 7, strict = 0;
    const char *scene_path = "scenes/showcase.json";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--scene") == 0 && i + 1 < argc)
            scene_path = argv[++i];
        else if (strcmp(argv[i], "--strict") == 0)
            strict = 1;
        else {
            fprintf(stderr, "usage: bench/render [--reps N] [--scene FILE] [--strict]\n");
            return 2;
        }
    }
    reps = reps < 5 ? 5 : reps > MAXREPS ? MAXREPS : reps;

    rf_scene_t *sc = bench_scene_file(scene_path);
    check_types(scene_path, sc->layers, sc->nlayers);
    char msg[256];
    rf_renderer_t *r = rf_renderer_create(sc, msg, sizeof msg);
    if (r == NULL) {
        fprintf(stderr, "bench/render: %s\n", msg);
        return 2;
    }

    /* the display lists, built before any timing */
    uint32_t nn = count_layers(sc->layers, sc->nlayers);
    builder_t b = { .sc = sc };
    b.slots = xcalloc(sc->values.nslots, sizeof *b.slots);
    b.local = xcalloc(nn, sizeof *b.local);
    b.box = xcalloc(nn, sizeof *b.box);
    b.ok = xcalloc(nn, sizeof *b.ok);
    b.size = xcalloc(nn, sizeof *b.size);
    b.pat = xcalloc(2 * (size_t)nn, sizeof *b.pat);
    cairo_surface_t *tiny = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    b.scratch = cairo_create(tiny);
    rf_values_eval(&sc->values, 0, b.slots);
    uint32_t idx = 0;
    for (uint32_t i = 0; i < sc->nlayers; i++)
        idx = prepare(&b, &sc->layers[i], idx);
    b.trim = xcalloc(b.trim_cap, sizeof *b.trim);
    b.pivot = xcalloc(nn, sizeof *b.pivot);
    b.pivot_init = 1;
    idx = 0;
    for (uint32_t i = 0; i < sc->nlayers; i++)
        idx = layout(&b, &sc->layers[i], idx);
    b.pivot_init = 0;

    int nf = sc->nframes < NFRAMES ? (int)sc->nframes : NFRAMES;
    dlist_t *dls = xcalloc((size_t)nf, sizeof *dls);
    size_t nops = 0;
    for (int i = 0; i < nf; i++) {
        long fi = nf > 1 ? (long)((double)i * (double)(sc->nframes - 1) / (nf - 1) + 0.5) : 0;
        record_frame(&b, rf_scene_frame_time(sc, fi), &dls[i]);
        nops += dls[i].n;
    }

    cairo_surface_t *bs = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, sc->width, sc->height);
    cairo_t *cr = cairo_create(bs);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    cairo_set_miter_limit(cr, MITER_LIMIT);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);

    /* the same frames? count differing pixel bytes over all frames */
    size_t diff = 0, total = 0;
    int rs, bstride = cairo_image_surface_get_stride(bs);
    for (int i = 0; i < nf; i++) {
        rf_renderer_draw(r, dls[i].t);
        replay(cr, bs, &dls[i]);
        const unsigned char *a = rf_renderer_pixels(r, &rs);
        const unsigned char *c = cairo_image_surface_get_data(bs);
        size_t rowb = (size_t)sc->width * 4;
        for (int y = 0; y < sc->height; y++) {
            const unsigned char *ra = a + (size_t)y * (size_t)rs;
            const unsigned char *rc = c + (size_t)y * (size_t)bstride;
            total += rowb;
            if (memcmp(ra, rc, rowb) != 0)
                for (size_t x = 0; x < rowb; x++)
                    diff += ra[x] != rc[x];
        }
    }
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "bench/render: baseline: %s\n", cairo_status_to_string(cairo_status(cr)));
        return 2;
    }

    rf_png_buffer_t out_a = { 0 }, out_b = { 0 };
    double ta[MAXREPS], tb[MAXREPS], ratio[MAXREPS];
    time_ours(r, dls, nf, &out_a);   /* warm-up */
    time_base(cr, bs, dls, nf, &out_b);
    for (int k = 0; k < reps; k++) {
        if (k % 2 == 0) {
            ta[k] = time_ours(r, dls, nf, &out_a);
            tb[k] = time_base(cr, bs, dls, nf, &out_b);
        } else {
            tb[k] = time_base(cr, bs, dls, nf, &out_b);
            ta[k] = time_ours(r, dls, nf, &out_a);
        }
        ratio[k] = ta[k] / tb[k];
    }
    double q = bench_median(ratio, reps);
    printf("render + encode per frame, %s %dx%d, %d frames over %.2f s, %zu recorded shape ops,\n"
           "median of %d interleaved pairs (PNG zlib 1 + NONE, into memory)\n",
           scene_path, sc->width, sc->height, nf, dls[nf - 1].t, nops, reps);
    printf("  %-44s %8.3f ms/frame\n", "ours: rf_renderer_draw + rf_png_write_mem",
           bench_median(ta, reps) * 1e3);
    printf("  %-44s %8.3f ms/frame\n", "baseline: replayed cairo calls + same encode",
           bench_median(tb, reps) * 1e3);
    printf("  ratio ours / baseline %.3fx (goal <= %.2fx): %s\n", q, GOAL,
           q <= GOAL ? "met" : "MISSED");
    printf("  pixels: %zu of %zu bytes differ between ours and the baseline%s\n", diff, total,
           diff ? " (NOT the same frames)" : " (identical frames)");

    {
        char sa[32], sb[32], sz[32];
        snprintf(sz, sizeof sz, "%dx%d", sc->width, sc->height);
        bench_row("render+encode vs raw cairo+same encode", sz, q, "<=", GOAL,
                  bench_fmt(sa, sizeof sa, bench_median(ta, reps) * 1e3, "ms"),
                  bench_fmt(sb, sizeof sb, bench_median(tb, reps) * 1e3, "ms"));
    }
    rf_png_buffer_destroy(&out_a);
    rf_png_buffer_destroy(&out_b);
    for (int i = 0; i < nf; i++) {
        for (size_t j = 0; j < dls[i].n; j++)
            if (dls[i].ops[j].path)
                cairo_path_destroy(dls[i].ops[j].path);
        free(dls[i].ops);
    }
    for (size_t i = 0; i < 2 * (size_t)nn; i++)
        if (b.pat[i])
            cairo_pattern_destroy(b.pat[i]);
    free(dls);
    free(b.slots), free(b.local), free(b.box), free(b.ok), free(b.size), free(b.pat);
    free(b.pivot);
    free(b.trim);
    cairo_destroy(cr);
    cairo_surface_destroy(bs);
    cairo_destroy(b.scratch);
    cairo_surface_destroy(tiny);
    rf_renderer_destroy(r);
    rf_scene_destroy(sc);
    return strict && (q > GOAL || diff) ? 1 : 0;
}
