/* render.c - drawing one frame of a scene with cairo (semantics in render.h).
 *
 * A frame is two walks over the layer tree in pre-order. The layout walk
 * computes every layer's own box and own matrix into r->nodes (a group's
 * box needs its children's boxes and matrices first, and a layer's matrix
 * needs its box), the draw walk composes the matrices and paints. Both
 * walks index the node array by pre-order position, and every node knows
 * its subtree size, so skipping a subtree (opacity 0, a singular matrix)
 * keeps the indices in step. What a layer's geometry is comes from its
 * type's hooks (layer.h); every type is filled and stroked, laid out and
 * composed the same way here. Nothing here allocates per frame except what
 * cairo allocates inside: animated gradients and push_group surfaces.
 */
#include "render.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigbuf.h"
#include "blur.h"
#include "color.h"
#include "layer.h"
#include "path.h"
#include "render-int.h"
#include "shape.h"

/* ---- small numeric helpers ---- */

static double P(const rf_prop_t *p, const double *slots)
{
    return rf_prop_get(p, slots);
}

/* cairo refuses (and enters an error state on) a matrix whose determinant
 * is 0 or not finite; a finite determinant can still give an infinite
 * inverse, which would poison strokes, so the inverse is checked too. */
int rf_matrix_usable(const cairo_matrix_t *m)
{
    if (!(isfinite(m->xx) && isfinite(m->yx) && isfinite(m->xy) && isfinite(m->yy) &&
          isfinite(m->x0) && isfinite(m->y0)))
        return 0;
    /* cairo_set_matrix checks the determinant (xx yy - yx xy) even where
     * cairo_matrix_invert takes its diagonal shortcut: scale 1e155 */
    double det = m->xx * m->yy - m->yx * m->xy;
    if (!(isfinite(det) && det != 0.0))
        return 0;
    cairo_matrix_t inv = *m;
    if (cairo_matrix_invert(&inv) != CAIRO_STATUS_SUCCESS)
        return 0;
    return isfinite(inv.xx) && isfinite(inv.yx) && isfinite(inv.xy) && isfinite(inv.yy) &&
           isfinite(inv.x0) && isfinite(inv.y0);
}

/* Cosine and sine of deg degrees; exact at multiples of 90 so quarter
 * turns keep integer-aligned shapes on the pixel grid. */
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
    double a = deg * (RF_PI / 180.0);
    *c = cos(a);
    *s = sin(a);
}

/* ---- paints ---- */

/* A gradient pattern for the geometry the paint has now; NULL when the
 * geometry is degenerate (then the last stop's color is painted). cairo
 * reports its own failures through the pattern's status. */
static cairo_pattern_t *gradient_create(const rf_paint_t *p, const double *slots)
{
    double x0 = P(&p->p0[0], slots), y0 = P(&p->p0[1], slots);
    cairo_pattern_t *pat;
    if (p->kind == RF_PAINT_LINEAR) {
        double x1 = P(&p->p1[0], slots), y1 = P(&p->p1[1], slots);
        if (!(isfinite(x0) && isfinite(y0) && isfinite(x1) && isfinite(y1)) ||
            (x0 == x1 && y0 == y1))
            return NULL;
        pat = cairo_pattern_create_linear(x0, y0, x1, y1);
    } else {
        double rad = P(&p->radius, slots);
        if (!(isfinite(x0) && isfinite(y0) && isfinite(rad)) || !(rad > 0))
            return NULL;
        pat = cairo_pattern_create_radial(x0, y0, 0, x0, y0, rad);
    }
    for (uint32_t i = 0; i < p->nstops; i++) {
        const rf_gradient_stop_t *st = &p->stops[i];
        rf_color_t c = rf_colorp_get(&st->color, slots);
        cairo_pattern_add_color_stop_rgba(pat, st->offset, c.r, c.g, c.b, c.a);
    }
    cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
    return pat;
}

static int paint_is_gradient(const rf_paint_t *p)
{
    return p->kind == RF_PAINT_LINEAR || p->kind == RF_PAINT_RADIAL;
}

static int gradient_is_constant(const rf_paint_t *p)
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

int render_paint_solid(const rf_renderer_t *r, const rf_paint_t *p, double alpha, double c[4])
{
    switch (p->kind) {
    case RF_PAINT_VALUE: { /* a color value: straight RGBA, clamped */
        const double *v = r->slots + p->by.slot;
        c[0] = rf_clamp01(v[0]);
        c[1] = rf_clamp01(v[1]);
        c[2] = rf_clamp01(v[2]);
        c[3] = rf_clamp01(v[3]) * alpha;
        return 1;
    }
    case RF_PAINT_SOLID:
        c[0] = p->color.r;
        c[1] = p->color.g;
        c[2] = p->color.b;
        c[3] = p->color.a * alpha;
        return 1;
    case RF_PAINT_MIX: {
        double k = rf_clamp01(P(&p->by, r->slots));
        const rf_color_t a = rf_colorp_get(&p->ends[0], r->slots);
        const rf_color_t b = rf_colorp_get(&p->ends[1], r->slots);
        if (p->space == RF_SPACE_SRGB) { /* the bytes of old: no conversion */
            c[0] = a.r + (b.r - a.r) * k;
            c[1] = a.g + (b.g - a.g) * k;
            c[2] = a.b + (b.b - a.b) * k;
            c[3] = (a.a + (b.a - a.a) * k) * alpha;
            return 1;
        }
        const double ca[4] = { a.r, a.g, a.b, a.a }, cb[4] = { b.r, b.g, b.b, b.a };
        rf_color_mix(p->space, ca, cb, k, c);
        c[3] *= alpha;
        return 1;
    }
    default:
        return 0;
    }
}

/* Sets the paint as the source; alpha multiplies solid and mix colors
 * (the single-paint opacity shortcut; 1 otherwise). */
static void paint_set(rf_renderer_t *r, const rf_paint_t *p, cairo_pattern_t *cached,
                      double alpha)
{
    cairo_t *cr = r->cr;
    double c[4];
    if (render_paint_solid(r, p, alpha, c)) {
        cairo_set_source_rgba(cr, c[0], c[1], c[2], c[3]);
        return;
    }
    if (p->nstops == 0) { /* layer.h promises stops; paint nothing rather than read past */
        cairo_set_source_rgba(cr, 0, 0, 0, 0);
        return;
    }
    if (cached) {
        cairo_set_source(cr, cached);
        return;
    }
    cairo_pattern_t *pat = gradient_create(p, r->slots);
    if (pat) {
        cairo_set_source(cr, pat); /* an error pattern puts cr in error: reported */
        cairo_pattern_destroy(pat);
        return;
    }
    rf_color_t last = rf_colorp_get(&p->stops[p->nstops - 1].color, r->slots);
    cairo_set_source_rgba(cr, last.r, last.g, last.b, last.a * alpha);
}

/* ---- layout walk: own boxes and own matrices ---- */

static void box_union_mapped(double *acc, int *empty, const rf_node_t *c)
{
    const double *b = c->box;
    double px[4] = { b[0], b[2], b[0], b[2] }, py[4] = { b[1], b[1], b[3], b[3] };
    for (int i = 0; i < 4; i++) {
        cairo_matrix_transform_point(&c->local, &px[i], &py[i]);
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

/* L's own matrix T(x + follow + o) * R(rotate [+ angle]) * S * T(-a) into m,
 * a = (ax, ay) and o = a when canvas (else 0); 0 when it or box b is not
 * finite. */
int render_local_matrix(const rf_layer_t *L, const double *s, const double b[4], double ax,
                        double ay, int canvas, cairo_matrix_t *m)
{
    double tx = P(&L->x, s), ty = P(&L->y, s), deg = P(&L->rotate, s);
    if (L->follow_slot != RF_PROP_CONST) {
        tx += s[L->follow_slot];
        ty += s[L->follow_slot + 1];
        if (L->orient)
            deg += s[L->follow_slot + 2];
    }
    if (canvas) {
        tx += ax;
        ty += ay;
    }
    double c, sn, sx = P(&L->scale_x, s), sy = P(&L->scale_y, s);
    rotation(deg, &c, &sn);
    /* T(tx, ty) * R * S * T(-a), multiplied out */
    m->xx = c * sx;
    m->yx = sn * sx;
    m->xy = -sn * sy;
    m->yy = c * sy;
    m->x0 = tx - (m->xx * ax + m->xy * ay);
    m->y0 = ty - (m->yx * ax + m->yy * ay);
    return isfinite(b[0]) && isfinite(b[1]) && isfinite(b[2]) && isfinite(b[3]) &&
           isfinite(m->xx) && isfinite(m->yx) && isfinite(m->xy) && isfinite(m->yy) &&
           isfinite(m->x0) && isfinite(m->y0);
}

uint32_t render_layout(rf_renderer_t *r, const rf_layer_t *L, uint32_t idx)
{
    rf_node_t *n = &r->nodes[idx];
    const double *s = r->slots;
    double *b = n->box;
    const rf_layer_class_t *cls = rf_layer_class(L);
    int canvas_coords = (cls->flags & RF_CLASS_CANVAS) != 0; /* o = a */

    if ((cls->flags & RF_CLASS_REPEAT) && !r->pivot_init) {
        /* the draw walk lays out each instance as it draws it; the box
         * (the union of every instance's) is kept from t = 0, where the
         * pivot is taken: a box of a type with children is read only by
         * the pivots of the creation layout */
    } else if (cls->flags & RF_CLASS_CHILDREN) {
        int empty = 1;
        uint32_t ci = idx + 1, nch;
        const rf_layer_t *ch = rf_layer_children(L, &nch);
        b[0] = b[1] = b[2] = b[3] = 0;
        double *s0 = r->slots, t0 = r->t;
        for (uint32_t k = 0; render_instance(r, L, idx, k, s0, t0); k++) {
            ci = idx + 1;
            for (uint32_t i = 0; i < nch; i++) {
                const rf_node_t *c = &r->nodes[ci];
                ci = render_layout(r, &ch[i], ci);
                if (c->ok) /* a child whose box or matrix is not finite adds nothing */
                    box_union_mapped(b, &empty, c);
            }
        }
        if (render_mask_of(L) != NULL)
            render_layout(r, render_mask_of(L), ci); /* no part of the box */
        if (empty)
            b[0] = b[1] = b[2] = b[3] = 0;
    } else if (cls->layout != NULL) {
        cls->layout(r, L, n->state, b);
    } else {
        cls->box(L, s, b);
    }

    double ax = b[0] + P(&L->anchor_x, s) * (b[2] - b[0]);
    double ay = b[1] + P(&L->anchor_y, s) * (b[3] - b[1]);
    if (cls->flags & RF_CLASS_CHILDREN) {
        /* children keep their coordinates: x, y translate, rotate and
         * scale turn around the pivot, given or the anchor point of the
         * box at t = 0 (kept by the creation layout) */
        if (r->pivot_init) {
            n->pivot[0] = ax;
            n->pivot[1] = ay;
        }
        const rf_prop_t *pv = &L->u.group.pivot_x, *pw = &L->u.group.pivot_y;
        int given = L->type == RF_LAYER_GROUP && !(pv->slot == RF_PROP_CONST && isnan(pv->k));
        ax = given ? P(pv, s) : n->pivot[0];
        ay = given ? P(pw, s) : n->pivot[1];
        canvas_coords = 1;
    }
    n->ok = render_local_matrix(L, s, b, ax, ay, canvas_coords, &n->local);
    return idx + n->size;
}

int render_instance(rf_renderer_t *r, const rf_layer_t *L, uint32_t idx, uint32_t k,
                    double *s0, double t0)
{
    const rf_layer_class_t *cls = rf_layer_class(L);
    if (!(cls->flags & RF_CLASS_REPEAT))
        return k == 0;
    double tk;
    double *s = cls->instance(r, L, r->nodes[idx].state, k, t0, &tk);
    r->slots = s != NULL ? s : s0;
    r->t = s != NULL ? tk : t0;
    return s != NULL;
}

/* ---- draw walk ---- */

/* Builds the shape's path under the layer matrix m (the current matrix). */
static void shape_path(rf_renderer_t *r, const rf_shape_t *sh)
{
    cairo_new_path(r->cr);
    rf_layer_class(sh->L)->path(r->cr, sh);
}

/* all 0 between uses (render-int.h) */
void render_coverage_clear(rf_coverage_t *c, int x0, int y0, int x1, int y1)
{
    for (int y = y0; y < y1; y++)
        memset(c->a + (size_t)y * (size_t)c->stride + x0, 0, (size_t)(x1 - x0));
    c->x0 = c->y0 = INT32_MAX;
    c->x1 = c->y1 = INT32_MIN;
}

/* the box clipped to the buffer */
void render_coverage_paint(rf_renderer_t *r, const rf_paint_t *p, cairo_pattern_t *pat,
                           double alpha, const cairo_matrix_t *m)
{
    rf_coverage_t *c = &r->cov;
    int x0 = c->x0 < 0 ? 0 : c->x0 & ~3, y0 = c->y0 < 0 ? 0 : c->y0; /* rows 4-aligned */
    int x1 = c->x1 > c->w ? c->w : c->x1, y1 = c->y1 > c->h ? c->h : c->y1;
    cairo_t *cr = r->cr;
    int any = x1 > x0 && y1 > y0;
    const uint8_t *ca = any ? c->a + (size_t)y0 * (size_t)c->stride + x0 : NULL;
    if (any && (render_coverage_gradient(r, p, m, ca, c->stride, c->ox + x0, c->oy + y0, x1 - x0,
                                         y1 - y0) ||
                render_coverage_solid(r, p, alpha, ca, c->stride, c->ox + x0, c->oy + y0,
                                      x1 - x0, y1 - y0))) {
        /* painted by gradfill.h */
    } else if (any) {
        uint8_t *a = c->a + (size_t)y0 * (size_t)c->stride + x0;
        cairo_surface_t *s = cairo_image_surface_create_for_data(a, CAIRO_FORMAT_A8, x1 - x0,
                                                                 y1 - y0, c->stride);
        cairo_set_matrix(cr, m);
        paint_set(r, p, pat, alpha);
        cairo_identity_matrix(cr);
        cairo_mask_surface(cr, s, c->ox + x0, c->oy + y0);
        cairo_surface_finish(s);
        cairo_surface_destroy(s);
    }
    cairo_set_matrix(cr, m);
    render_coverage_clear(c, x0, y0, any ? x1 : x0, any ? y1 : y0);
}

/* Fills then strokes the current path (consuming it); each through
 * FreeType when it can (render-raster.c). */
static void shape_paint(rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                        const rf_shape_t *sh, int fill, int stroke, double sw, double alpha)
{
    cairo_t *cr = r->cr;
    if (fill && render_raster_fill(r, L, n, sh, alpha))
        fill = 0;
    if (fill) {
        paint_set(r, &L->fill, n->pat[0], alpha);
        render_fill_rule(cr, L);
        if (stroke)
            cairo_fill_preserve(cr);
        else
            cairo_fill(cr);
    }
    if (stroke && render_raster_stroke(r, L, n, sh, sw, alpha)) {
        cairo_new_path(cr);
        stroke = 0;
    }
    if (stroke) {
        paint_set(r, &L->stroke, n->pat[1], alpha);
        cairo_set_line_width(cr, sw);
        render_stroke_style(cr, L, r->slots);
        cairo_stroke(cr);
    }
}

/* The device box of the layer's own box under m, grown by reach px. */
void render_device_box(const rf_node_t *n, const cairo_matrix_t *m, double reach,
                       double out[4])
{
    const double *b = n->box;
    double px[4] = { b[0], b[2], b[0], b[2] }, py[4] = { b[1], b[1], b[3], b[3] };
    out[0] = out[1] = INFINITY;
    out[2] = out[3] = -INFINITY;
    for (int i = 0; i < 4; i++) {
        cairo_matrix_transform_point(m, &px[i], &py[i]);
        out[0] = fmin(out[0], px[i]);
        out[1] = fmin(out[1], py[i]);
        out[2] = fmax(out[2], px[i]);
        out[3] = fmax(out[3], py[i]);
    }
    out[0] -= reach;
    out[1] -= reach;
    out[2] += reach;
    out[3] += reach;
}

/* Draws a shape too large for cairo's coordinates (see RF_GUARD). dev is
 * its device box, stroke reach included; penw the stroke's widest on the
 * device, reaching rw pens past the path (render_stroke_reach). The sink
 * cuts a stroke into the runs of its outline inside the guard box, and
 * cairo starts a dash pattern afresh at each run: the dashes on the
 * canvas have their lengths, but their phase is where the run entered
 * the guard box (RF_GUARD_MARGIN px off the canvas), an approximation. */
static void draw_huge(rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                      const cairo_matrix_t *m, double op, const rf_shape_t *sh, int fill,
                      int stroke, double sw, double penw, double rw, const double dev[4])
{
    double reach = penw * rw;
    cairo_t *cr = r->cr;
    const double *v = r->view; /* the canvas, or a capture's region */
    if (dev[2] < v[0] - 2 || dev[0] > v[2] + 2 || dev[3] < v[1] - 2 || dev[1] > v[3] + 2)
        return; /* nowhere near the canvas: nothing to draw */
    if (stroke && !(reach <= RF_GUARD_REACH)) {
        if (r->err[0] == '\0')
            snprintf(r->err, sizeof r->err, "a stroke %.6g px wide on the canvas is too wide to "
                     "draw (at most %.0f px)", penw, RF_GUARD_REACH / rw);
        return;
    }
    rf_hsink_t g;
    hsink_init(&g, cr, v, (stroke ? reach : 0) + 2);
    const rf_layer_class_t *cls = rf_layer_class(L);
    int group = op < 1;
    double alpha = 1;
    const rf_paint_t *only = fill && !stroke ? &L->fill : stroke && !fill ? &L->stroke : NULL;
    if (group && only && !paint_is_gradient(only)) {
        group = 0;
        alpha = op;
    }
    if (group)
        cairo_push_group(cr);
    /* cairo keeps a path in device space: it is built under the identity
     * (layer coordinates would round away at scale 1e100), then filled or
     * stroked under m, so the pen and the paint stay the layer's */
    for (int k = 0; k < 2; k++) {
        if (!(k == 0 ? fill : stroke))
            continue;
        cairo_new_path(cr);
        cairo_identity_matrix(cr);
        hsink_begin(&g, k);
        cls->huge_path(&g, sh);
        hsink_end(&g);
        cairo_set_matrix(cr, m);
        if (!hsink_gradient_set(cr, k == 0 ? &L->fill : &L->stroke, r->slots, alpha, m, v))
            paint_set(r, k == 0 ? &L->fill : &L->stroke, n->pat[k], alpha);
        if (k == 1) {
            cairo_set_line_width(cr, sw);
            render_stroke_style(cr, L, r->slots);
        }
        if (g.imprecise)
            cairo_new_path(cr);
        if (k == 0) {
            render_fill_rule(cr, L);
            cairo_fill(cr);
        }
        else
            cairo_stroke(cr);
    }
    double across = fmax(0.5 * dev[2] - 0.5 * dev[0], 0.5 * dev[3] - 0.5 * dev[1]) * 2;
    if (g.imprecise && r->err[0] == '\0' && !isfinite(across))
        snprintf(r->err, sizeof r->err, "a shape more than 1.8e308 px across is too large to "
                 "be drawn in double precision");
    else if (g.imprecise && r->err[0] == '\0')
        snprintf(r->err, sizeof r->err, "a shape %.6g px across passes too close to the "
                 "canvas to be drawn in double precision", across);
    if (group) {
        cairo_pop_group_to_source(cr);
        cairo_paint_with_alpha(cr, op);
    }
}

void rf_render_shape(rf_renderer_t *r, const rf_layer_t *L, uint32_t idx,
                     const cairo_matrix_t *m, double op)
{
    const rf_node_t *n = &r->nodes[idx];
    cairo_t *cr = r->cr;
    double sw = P(&L->stroke_width, r->slots);
    const rf_layer_class_t *cls = rf_layer_class(L);
    int fill = L->fill.kind != RF_PAINT_NONE && !(cls->flags & RF_CLASS_NO_FILL);
    int stroke = L->stroke.kind != RF_PAINT_NONE && sw > 0 && isfinite(sw);
    rf_shape_t sh;
    sh.L = L;
    sh.slots = r->slots;
    sh.m = m;
    sh.ops = r->ops;
    sh.ops_cap = r->ops_cap;
    sh.state = n->state;
    if ((!fill && !stroke) || !cls->shape(&sh))
        return;
    cairo_set_matrix(cr, m);
    double reach = 0, penw = 0, rw = 0, dev[4];
    if (stroke) {
        /* the widest the pen gets on the device: sw times m's largest
         * singular value; a miter reaches miter_limit / 2 of that */
        double a = m->xx, b = m->yx, c = m->xy, d = m->yy;
        double hs = 0.5 * (a * a + b * b + c * c + d * d);
        double hd = 0.5 * (a * a + b * b - c * c - d * d), o = a * c + b * d;
        penw = sw * sqrt(hs + sqrt(hd * hd + o * o));
        rw = render_stroke_reach(L, r->slots);
        reach = penw * rw;
    }
    render_device_box(n, m, reach, dev);
    if (!(fabs(dev[0]) <= RF_GUARD && fabs(dev[1]) <= RF_GUARD && fabs(dev[2]) <= RF_GUARD &&
          fabs(dev[3]) <= RF_GUARD)) {
        draw_huge(r, L, n, m, op, &sh, fill, stroke, sw, penw, rw, dev);
        return;
    }
    if (op >= 1) {
        int done = fill && render_fill_gradient_box(r, L, &sh, m); /* the fill, painted */
        if (done && !stroke)
            return;
        shape_path(r, &sh);
        shape_paint(r, L, n, &sh, fill && !done, stroke, sw, 1);
        return;
    }
    const rf_paint_t *only = fill && !stroke ? &L->fill : stroke && !fill ? &L->stroke : NULL;
    if (only && !paint_is_gradient(only)) {
        /* one solid paint blends once anyway: fold opacity into its alpha */
        shape_path(r, &sh);
        shape_paint(r, L, n, &sh, fill, stroke, sw, op);
        return;
    }

    /* Clip the group surface to what the fill and stroke can touch: the
     * path's extents, grown by the farthest a miter or a cap reaches
     * (render_stroke_reach, in the layer's coordinates), mapped to
     * device pixels and rounded out with a pixel to spare. */
    double ux0, uy0, ux1, uy1;
    shape_path(r, &sh);
    cairo_path_extents(cr, &ux0, &uy0, &ux1, &uy1);
    cairo_new_path(cr);
    if (stroke) {
        double pad = sw * rw;
        ux0 -= pad;
        uy0 -= pad;
        ux1 += pad;
        uy1 += pad;
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
    dx0 = fmax(floor(dx0) - 1, r->view[0]);
    dy0 = fmax(floor(dy0) - 1, r->view[1]);
    dx1 = fmin(ceil(dx1) + 1, r->view[2]);
    dy1 = fmin(ceil(dy1) + 1, r->view[3]);
    if (!(dx1 > dx0 && dy1 > dy0))
        return; /* off the canvas */
    cairo_save(cr);
    cairo_identity_matrix(cr);
    cairo_rectangle(cr, dx0, dy0, dx1 - dx0, dy1 - dy0);
    cairo_clip(cr);
    cairo_set_matrix(cr, m);
    cairo_push_group(cr);
    shape_path(r, &sh);
    shape_paint(r, L, n, &sh, fill, stroke, sw, 1);
    cairo_pop_group_to_source(cr);
    cairo_paint_with_alpha(cr, op);
    cairo_restore(cr);
}

/* ---- coverage (shape.h) ---- */

rf_helper_t *render_helper(rf_renderer_t *r)
{
    if (r->threads < 2)
        return NULL;
    if (r->helper == NULL)
        r->helper = rf_helper_create();
    return r->helper;
}

/* The glyph masks' threads as the renderer's: two, on its helper, when it
 * may use two cores. */
static void glyph_masks_threads(rf_renderer_t *r)
{
    rf_glyph_masks_set_threads(r->glyph_masks, r->threads);
    rf_glyph_masks_set_helper(r->glyph_masks, render_helper(r));
}

struct rf_glyph_masks *rf_render_glyph_masks(rf_renderer_t *r)
{
    if (r->glyph_masks == NULL) {
        r->glyph_masks = rf_glyph_masks_create();
        if (r->glyph_masks != NULL)
            glyph_masks_threads(r);
    }
    return r->glyph_masks;
}

void rf_renderer_set_threads(rf_renderer_t *r, int n)
{
    r->threads = n;
    if (r->glyph_masks != NULL)
        glyph_masks_threads(r);
}

struct rf_raster *rf_render_raster(rf_renderer_t *r)
{
    if (r->ras == NULL)
        r->ras = rf_raster_create();
    return r->ras;
}

rf_coverage_t *rf_render_coverage(rf_renderer_t *r)
{
    rf_coverage_t *c = &r->cov;
    int ox = (int)floor(r->view[0]), oy = (int)floor(r->view[1]);
    int w = (int)ceil(r->view[2]) - ox, h = (int)ceil(r->view[3]) - oy;
    if (w <= 0 || h <= 0)
        return NULL;
    int stride = cairo_format_stride_for_width(CAIRO_FORMAT_A8, w);
    size_t need = (size_t)stride * (size_t)h;
    if (stride <= 0)
        return NULL;
    if (need > r->cov_buf.size) { /* the first view this large */
        /* a mapping, not calloc: in a worker's arena calloc writes every
         * byte (600 page faults at 1080p, a one-frame render's third);
         * mapped zeros fault in where text is drawn, in huge pages where
         * the kernel gives them (bigbuf.h) */
        rf_bigbuf_free(&r->cov_buf);
        c->a = NULL;
        if (rf_bigbuf_alloc(&r->cov_buf, need) != 0)
            return NULL;
        c->a = r->cov_buf.data;
    }
    c->w = w;
    c->h = h;
    c->stride = stride;
    c->ox = ox;
    c->oy = oy;
    c->x0 = c->y0 = INT32_MAX;
    c->x1 = c->y1 = INT32_MIN;
    return c;
}

void rf_render_fill_coverage(rf_renderer_t *r, const rf_layer_t *L, uint32_t idx,
                             const cairo_matrix_t *m)
{
    render_coverage_paint(r, &L->fill, r->nodes[idx].pat[0], 1, m);
}

/* ---- creation ---- */

static uint32_t count_layers(const rf_layer_t *layers, uint32_t n)
{
    uint32_t total = n;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t nch;
        const rf_layer_t *ch = rf_layer_children(&layers[i], &nch);
        total += count_layers(ch, nch);
        if (render_mask_of(&layers[i]) != NULL)
            total += count_layers(render_mask_of(&layers[i]), 1);
    }
    return total;
}

/* Fills subtree sizes, sizes the trim buffer and builds constant gradients.
 * Returns the index after the subtree, or UINT32_MAX when cairo failed. */
static uint32_t prepare(rf_renderer_t *r, const rf_layer_t *L, uint32_t idx)
{
    rf_node_t *n = &r->nodes[idx];
    uint32_t next = idx + 1;
    const rf_layer_class_t *cls = rf_layer_class(L);
    if (cls->flags & RF_CLASS_CHILDREN) {
        uint32_t nch;
        const rf_layer_t *ch = rf_layer_children(L, &nch);
        const rf_layer_t *clip = L->type == RF_LAYER_GROUP ? L->u.group.clip : NULL;
        if (clip && rf_layer_class(clip)->ops_max != NULL) {
            size_t cap = rf_layer_class(clip)->ops_max(clip);
            if (cap > r->ops_cap)
                r->ops_cap = cap;
        }
        for (uint32_t i = 0; i < nch && next != UINT32_MAX; i++)
            next = prepare(r, &ch[i], next);
        if (render_mask_of(L) != NULL && next != UINT32_MAX)
            next = prepare(r, render_mask_of(L), next);
        if (next == UINT32_MAX)
            return UINT32_MAX;
        if (cls->state_create != NULL && (n->state = cls->state_create(r, L)) == NULL)
            return UINT32_MAX; /* out of memory */
    } else {
        const rf_paint_t *paints[2] = { (cls->flags & RF_CLASS_NO_FILL) ? NULL : &L->fill,
                                        &L->stroke };
        for (int k = 0; k < 2; k++) {
            if (!paints[k] || !paint_is_gradient(paints[k]) || !gradient_is_constant(paints[k]))
                continue;
            n->pat[k] = gradient_create(paints[k], r->slots);
            if (n->pat[k] && cairo_pattern_status(n->pat[k]) != CAIRO_STATUS_SUCCESS) {
                snprintf(r->err, sizeof r->err, "gradient: %s",
                         cairo_status_to_string(cairo_pattern_status(n->pat[k])));
                return UINT32_MAX;
            }
        }
        if (cls->state_create != NULL && (n->state = cls->state_create(r, L)) == NULL)
            return UINT32_MAX; /* out of memory, or the state's message in err */
        if (cls->ops_max != NULL) {
            size_t cap = cls->ops_max(L);
            if (cap > r->ops_cap)
                r->ops_cap = cap;
        }
    }
    n->size = next - idx;
    return next;
}

static void set_err(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
}

void render_context_defaults(cairo_t *cr)
{
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    cairo_set_miter_limit(cr, RF_MITER_DEFAULT);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
}

/* A fresh cairo_t on the surface, with the stroke style every frame uses. */
static cairo_status_t context_create(rf_renderer_t *r)
{
    if (r->cr)
        cairo_destroy(r->cr);
    r->cr = cairo_create(r->surface);
    cairo_status_t st = cairo_status(r->cr);
    if (st != CAIRO_STATUS_SUCCESS)
        return st;
    render_context_defaults(r->cr);
    return cairo_status(r->cr);
}

/* The heap's first 48 MiB, and a worker's arena's first 32 MiB (at most
 * 64 MiB there), advised as huge pages (bigbuf.h rf_bigbuf_advise_heap). */
#define RF_HEAP_HUGE (48u << 20)
#define RF_THREAD_HEAP_HUGE (32u << 20)

void rf_render_tune_allocator(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
    rf_bigbuf_advise_heap(RF_HEAP_HUGE);
}

void rf_render_tune_thread(void)
{
    rf_bigbuf_advise_heap(RF_THREAD_HEAP_HUGE);
}

/* The canvas surface on pixels of r->canvas (bigbuf.h: no page faults one
 * by one); cairo's own allocation (and its error) when the size is one
 * cairo refuses or the mapping fails. */
static cairo_surface_t *canvas_create(rf_renderer_t *r)
{
    int stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, r->width);
    if (stride > 0 && r->height > 0 && r->width <= 32767 && r->height <= 32767 &&
        rf_bigbuf_alloc(&r->canvas, (size_t)stride * (size_t)r->height) == 0) {
        cairo_surface_t *s = cairo_image_surface_create_for_data(
            r->canvas.data, CAIRO_FORMAT_ARGB32, r->width, r->height, stride);
        if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS)
            return s;
        cairo_surface_destroy(s);
        rf_bigbuf_free(&r->canvas);
    }
    return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, r->width, r->height);
}

/* A test switch of the environment: set, not empty and not "0". */
static int env_on(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

rf_renderer_t *rf_renderer_create(const rf_scene_t *scene, char *err, size_t errlen)
{
    rf_renderer_t *r = calloc(1, sizeof *r);
    int oom = 1;               /* why it failed, once it has */
    if (!r) {
        set_err(err, errlen, "out of memory");
        errno = ENOMEM;
        return NULL;
    }
    r->scene = scene;
    r->width = scene->width;
    r->height = scene->height;
    r->unit = scene->scale > 0 ? scene->scale : 1;
    r->view[2] = r->width;
    r->view[3] = r->height;
    r->soft_off = env_on("RF_CLIP_HARD");       /* every clip applied to its whole group */
    r->gradfill_off = env_on("RF_GRADFILL_OFF"); /* cairo paints every gradient */
    cairo_matrix_init_scale(&r->root, r->unit, r->unit);
    r->surface = canvas_create(r);
    cairo_status_t st = cairo_surface_status(r->surface);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(r->err, sizeof r->err, "canvas %dx%d: %s", scene->width, scene->height,
                 cairo_status_to_string(st));
        oom = st == CAIRO_STATUS_NO_MEMORY;
        goto fail;
    }
    st = context_create(r);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(r->err, sizeof r->err, "cairo: %s", cairo_status_to_string(st));
        oom = st == CAIRO_STATUS_NO_MEMORY;
        goto fail;
    }
    size_t nslots = scene->values.nslots ? scene->values.nslots : 1;
    r->slots = calloc(nslots, sizeof *r->slots);
    r->nnodes = count_layers(scene->layers, scene->nlayers);
    r->nodes = calloc(r->nnodes ? r->nnodes : 1, sizeof *r->nodes);
    if (!r->slots || !r->nodes)
        goto fail;
    uint32_t idx = 0;
    for (uint32_t i = 0; i < scene->nlayers; i++) {
        idx = prepare(r, &scene->layers[i], idx);
        if (idx == UINT32_MAX) {
            oom = r->err[0] == '\0'; /* a gradient cairo refused: its status is in err */
            goto fail;
        }
    }
    r->blur_cap = RF_BLUR_WORK(r->width, r->height);
    r->blur_line = malloc(r->blur_cap);
    if (!r->blur_line)
        goto fail;
    if (r->ops_cap) {
        r->ops = calloc(r->ops_cap, sizeof *r->ops);
        if (!r->ops)
            goto fail;
    }
    /* every group's pivot: the anchor point of its box at t = 0 */
    rf_values_eval(&scene->values, 0, r->slots);
    r->pivot_init = 1;
    idx = 0;
    for (uint32_t i = 0; i < scene->nlayers; i++)
        idx = render_layout(r, &scene->layers[i], idx);
    r->pivot_init = 0;
    memset(r->slots, 0, nslots * sizeof *r->slots);
    if (prefix_find(r) != 0)
        goto fail;
    r->err[0] = '\0';
    return r;
fail:
    if (r->err[0] == '\0')
        snprintf(r->err, sizeof r->err, "out of memory");
    set_err(err, errlen, r->err);
    rf_renderer_destroy(r);
    errno = oom ? ENOMEM : EINVAL;
    return NULL;
}

/* Frees the layer types' states of the subtrees from node idx on. */
static uint32_t destroy_states(rf_renderer_t *r, const rf_layer_t *ls, uint32_t n, uint32_t idx)
{
    for (uint32_t i = 0; i < n && idx < r->nnodes; i++) {
        const rf_layer_class_t *cls = rf_layer_class(&ls[i]);
        if (r->nodes[idx].state != NULL && cls->state_destroy != NULL)
            cls->state_destroy(r->nodes[idx].state);
        r->nodes[idx].state = NULL;
        uint32_t nch;
        const rf_layer_t *ch = rf_layer_children(&ls[i], &nch);
        idx = destroy_states(r, ch, nch, idx + 1);
        if (render_mask_of(&ls[i]) != NULL)
            idx = destroy_states(r, render_mask_of(&ls[i]), 1, idx);
    }
    return idx;
}

void *rf_render_state(rf_renderer_t *r, uint32_t idx)
{
    return r->nodes[idx].state;
}

const rf_scene_t *rf_render_scene(const rf_renderer_t *r)
{
    return r->scene;
}

cairo_t *rf_render_cairo(rf_renderer_t *r)
{
    return r->cr;
}

double rf_render_time(const rf_renderer_t *r)
{
    return r->t;
}

void rf_render_fail(rf_renderer_t *r, const char *msg)
{
    if (r->err[0] == '\0')
        snprintf(r->err, sizeof r->err, "%s", msg);
}

void rf_render_fail_oom(rf_renderer_t *r, const char *msg)
{
    if (r->err[0] == '\0') {
        snprintf(r->err, sizeof r->err, "%s", msg);
        r->err_oom = 1;
    }
}

void rf_renderer_destroy(rf_renderer_t *r)
{
    if (!r)
        return;
    if (r->nodes) {
        for (uint32_t i = 0; i < r->nnodes; i++)
            for (int k = 0; k < 2; k++)
                if (r->nodes[i].pat[k])
                    cairo_pattern_destroy(r->nodes[i].pat[k]);
        destroy_states(r, r->scene->layers, r->scene->nlayers, 0);
    }
    if (r->cr)
        cairo_destroy(r->cr);
    if (r->surface)
        cairo_surface_destroy(r->surface);
    rf_bigbuf_free(&r->canvas);   /* after the surface on it */
    if (r->cr2)
        cairo_destroy(r->cr2);
    if (r->surface2)
        cairo_surface_destroy(r->surface2);
    rf_bigbuf_free(&r->canvas2);
    rf_bigbuf_free(&r->base_mem);
    free(r->blur_line);
    for (int i = 0; i < RF_CAPTURE_DEPTH; i++)
        free(r->cap_px[i]);
    rf_bigbuf_free(&r->cov_buf);
    rf_raster_destroy(r->ras);
    rf_glyph_masks_destroy(r->glyph_masks);
    rf_helper_destroy(r->helper);
    rf_raster_destroy(r->ras_out);
    rf_raster_destroy(r->ras_piece);
    free(r->open_xy);
    free(r->ops);
    free(r->nodes);
    free(r->slots);
    free(r);
}

/* ---- frames ---- */

int rf_renderer_swap_canvas(rf_renderer_t *r)
{
    if (r->surface2 == NULL) {
        /* the second canvas made as the first was, in its place for a
         * moment */
        rf_bigbuf_t first = r->canvas;
        memset(&r->canvas, 0, sizeof r->canvas);
        cairo_surface_t *s = canvas_create(r);
        rf_bigbuf_t second = r->canvas;
        r->canvas = first;
        cairo_t *cr = cairo_create(s);
        render_context_defaults(cr);
        if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS ||
            cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
            cairo_destroy(cr);
            cairo_surface_destroy(s);
            rf_bigbuf_free(&second);
            snprintf(r->err, sizeof r->err, "out of memory (a second canvas)");
            r->err_oom = 1;
            return -1;
        }
        r->surface2 = s;
        r->canvas2 = second;
        r->cr2 = cr;
    }
    cairo_surface_t *s = r->surface;
    rf_bigbuf_t c = r->canvas;
    cairo_t *cr = r->cr;
    r->surface = r->surface2;
    r->canvas = r->canvas2;
    r->cr = r->cr2;
    r->surface2 = s;
    r->canvas2 = c;
    r->cr2 = cr;
    /* its pixels may have been changed by hand since cairo drew them */
    cairo_surface_mark_dirty(r->surface);
    return 0;
}

int rf_renderer_draw(rf_renderer_t *r, double t)
{
    const rf_scene_t *sc = r->scene;
    cairo_status_t st;
    r->err[0] = '\0';
    r->err_oom = 0;
    if (cairo_status(r->cr) != CAIRO_STATUS_SUCCESS) {
        /* a cairo_t in error stays in error: start over on a new one */
        st = context_create(r);
        if (st != CAIRO_STATUS_SUCCESS) {
            snprintf(r->err, sizeof r->err, "cairo: %s", cairo_status_to_string(st));
            return -1;
        }
    }
    r->t = t;
    r->nsoft = 0; /* no clip waits between frames */
    rf_bigbuf_populate(&r->canvas);   /* the first draw: every page at once */
    rf_values_eval(&sc->values, t, r->slots);
    uint32_t idx = 0;
    for (uint32_t i = 0; i < sc->nlayers; i++)
        idx = render_layout(r, &sc->layers[i], idx);

    cairo_t *cr = r->cr;
    uint32_t bg = sc->background;
    cairo_matrix_t id = r->root;
    cairo_new_path(cr);
    cairo_identity_matrix(cr);
    /* an opaque background keeps every pixel opaque: every layer is
     * composited onto the canvas by OVER or a blend mode, whose alpha
     * (sa + da - sa * da, pixman's exact in 8 bits) is 255 where da is */
    r->opaque = sc->background_value == NULL && (bg & 255) == 255;
    if (prefix_restore(r)) {
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
        prefix_draw_rest(r);
    } else {
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
        if (sc->background_value != NULL) {   /* a color value */
            const rf_colorp_t cp = { sc->background_slot, { 0, 0, 0, 0 } };
            rf_color_t c = rf_colorp_get(&cp, r->slots);
            r->opaque = c.a >= 1.0;
            cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a);
        } else {
            cairo_set_source_rgba(cr, (bg >> 24 & 255) / 255.0, (bg >> 16 & 255) / 255.0,
                                  (bg >> 8 & 255) / 255.0, (bg & 255) / 255.0);
        }
        cairo_paint(cr);
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
        idx = 0;
        for (uint32_t i = 0; i < sc->nlayers; i++) {
            render_draw_layer(r, &sc->layers[i], idx, &id);
            idx += r->nodes[idx].size;
        }
        prefix_end(r);
    }
    cairo_surface_flush(r->surface);

    st = cairo_status(cr);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(r->surface);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(r->err, sizeof r->err, "cairo: %s", cairo_status_to_string(st));
        return -1;
    }
    if (r->err[0] != '\0' && r->err_oom) {
        errno = ENOMEM;
        return -1;
    }
    if (r->err[0] != '\0')
        return RF_RENDER_UNDRAWABLE; /* draw_huge refused a shape */
    return 0;
}

const char *rf_renderer_error(const rf_renderer_t *r)
{
    return r->err;
}

cairo_surface_t *rf_renderer_surface(rf_renderer_t *r)
{
    return r->surface;
}

const unsigned char *rf_renderer_pixels(rf_renderer_t *r, int *stride)
{
    if (stride)
        *stride = cairo_image_surface_get_stride(r->surface);
    return cairo_image_surface_get_data(r->surface);
}

int rf_renderer_opaque(const rf_renderer_t *r)
{
    return r->opaque;
}

unsigned rf_renderer_gradfills(const rf_renderer_t *r)
{
    return r->gradfills;
}

unsigned rf_renderer_helper_jobs(const rf_renderer_t *r)
{
    return rf_helper_jobs(r->helper);
}

int rf_renderer_reused_prefix(const rf_renderer_t *r)
{
    return r->base_used;
}

const double *rf_renderer_slots(const rf_renderer_t *r)
{
    return r->slots;
}

