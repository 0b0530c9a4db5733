/* render.c - drawing one frame of a scene with cairo (semantics in render.h).
 *
 * A frame is two walks over the layer tree in pre-order. The layout walk
 * computes every layer's own box and own matrix into r->nodes (a group's
 * box needs its children's boxes and matrices first, and a layer's matrix
 * needs its box), the draw walk composes the matrices and paints. Both
 * walks index the node array by pre-order position, and every node knows
 * its subtree size, so skipping a subtree (opacity 0, a singular matrix)
 * keeps the indices in step. Nothing here allocates per frame except what
 * cairo allocates inside: animated gradients and push_group surfaces.
 */
#include "render.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer.h"
#include "path.h"

#define RF_PI 3.14159265358979323846
/* SVG's default; also bounds how far a stroke reaches past its path. */
#define RF_MITER_LIMIT 4.0
#define RF_RENDER_ERR_LEN 200

typedef struct rf_node {
    cairo_matrix_t local;      /* this frame's own matrix (layout walk) */
    double box[4];             /* this frame's own box: x0, y0, x1, y1 */
    uint32_t size;             /* nodes in the subtree, itself included */
    int ok;                    /* local and box are finite */
    cairo_pattern_t *pat[2];   /* constant-geometry fill, stroke gradient */
} rf_node_t;

struct rf_renderer {
    const rf_scene_t *scene;
    cairo_surface_t *surface;
    cairo_t *cr;
    int width, height;
    double *slots;             /* values.nslots (at least 1) */
    rf_node_t *nodes;          /* one per layer, pre-order */
    uint32_t nnodes;
    rf_path_op_t *ops;         /* trim buffer: the largest path layer */
    size_t ops_cap;
    char err[RF_RENDER_ERR_LEN];
};

/* ---- small numeric helpers ---- */

static double clamp01(double v)
{
    return v > 0 ? (v < 1 ? v : 1) : 0; /* NaN: 0 */
}

static double nonneg(double v)
{
    return v > 0 ? v : 0; /* NaN: 0 */
}

static double P(const rf_prop_t *p, const double *slots)
{
    return rf_prop_get(p, slots);
}

/* cairo refuses (and enters an error state on) a matrix whose determinant
 * is 0 or not finite; a finite determinant can still give an infinite
 * inverse, which would poison strokes, so the inverse is checked too. */
static int matrix_usable(const cairo_matrix_t *m)
{
    if (!(isfinite(m->xx) && isfinite(m->yx) && isfinite(m->xy) && isfinite(m->yy) &&
          isfinite(m->x0) && isfinite(m->y0)))
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
        cairo_pattern_add_color_stop_rgba(pat, st->offset, st->color.r, st->color.g,
                                          st->color.b, st->color.a);
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
    if (p->kind == RF_PAINT_LINEAR)
        return p->p1[0].slot == RF_PROP_CONST && p->p1[1].slot == RF_PROP_CONST;
    return p->radius.slot == RF_PROP_CONST;
}

/* Sets the paint as the source; alpha multiplies solid and mix colors
 * (the single-paint opacity shortcut; 1 otherwise). */
static void paint_set(rf_renderer_t *r, const rf_paint_t *p, cairo_pattern_t *cached,
                      double alpha)
{
    cairo_t *cr = r->cr;
    switch (p->kind) {
    case RF_PAINT_SOLID:
        cairo_set_source_rgba(cr, p->color.r, p->color.g, p->color.b, p->color.a * alpha);
        return;
    case RF_PAINT_MIX: {
        double k = clamp01(P(&p->by, r->slots));
        const rf_color_t *a = &p->color, *b = &p->color2;
        cairo_set_source_rgba(cr, a->r + (b->r - a->r) * k, a->g + (b->g - a->g) * k,
                              a->b + (b->b - a->b) * k, (a->a + (b->a - a->a) * k) * alpha);
        return;
    }
    default: {
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
        const rf_color_t *c = &p->stops[p->nstops - 1].color;
        cairo_set_source_rgba(cr, c->r, c->g, c->b, c->a * alpha);
        return;
    }
    }
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

/* Lays out the subtree of L at node idx; returns the index after it. */
static uint32_t layout(rf_renderer_t *r, const rf_layer_t *L, uint32_t idx)
{
    rf_node_t *n = &r->nodes[idx];
    const double *s = r->slots;
    double *b = n->box;
    int canvas_coords = 0; /* o = a: line and path */

    switch (L->type) {
    case RF_LAYER_RECT:
        b[0] = b[1] = 0;
        b[2] = nonneg(P(&L->u.rect.width, s));
        b[3] = nonneg(P(&L->u.rect.height, s));
        break;
    case RF_LAYER_CIRCLE: {
        double rr = nonneg(P(&L->u.circle.r, s));
        b[0] = b[1] = -rr;
        b[2] = b[3] = rr;
        break;
    }
    case RF_LAYER_ELLIPSE: {
        double rx = nonneg(P(&L->u.ellipse.rx, s)), ry = nonneg(P(&L->u.ellipse.ry, s));
        b[0] = -rx;
        b[1] = -ry;
        b[2] = rx;
        b[3] = ry;
        break;
    }
    case RF_LAYER_LINE: {
        double x1 = P(&L->u.line.x1, s), y1 = P(&L->u.line.y1, s);
        double x2 = P(&L->u.line.x2, s), y2 = P(&L->u.line.y2, s);
        b[0] = fmin(x1, x2);
        b[1] = fmin(y1, y2);
        b[2] = fmax(x1, x2);
        b[3] = fmax(y1, y2);
        if (!(isfinite(x1) && isfinite(y1) && isfinite(x2) && isfinite(y2)))
            b[0] = NAN; /* fmin would have hidden a NaN */
        canvas_coords = 1;
        break;
    }
    case RF_LAYER_PATH:
        rf_path_bounds(L->u.path.path, &b[0], &b[1], &b[2], &b[3]);
        canvas_coords = 1;
        break;
    case RF_LAYER_GROUP: {
        int empty = 1;
        uint32_t ci = idx + 1;
        b[0] = b[1] = b[2] = b[3] = 0;
        for (uint32_t i = 0; i < L->u.group.nchildren; i++) {
            const rf_node_t *c = &r->nodes[ci];
            ci = layout(r, &L->u.group.children[i], ci);
            if (c->ok) /* a child whose box or matrix is not finite adds nothing */
                box_union_mapped(b, &empty, c);
        }
        if (empty)
            b[0] = b[1] = b[2] = b[3] = 0;
        break;
    }
    default:
        b[0] = b[1] = b[2] = b[3] = 0;
        break;
    }

    double ax = b[0] + P(&L->anchor_x, s) * (b[2] - b[0]);
    double ay = b[1] + P(&L->anchor_y, s) * (b[3] - b[1]);
    double tx = P(&L->x, s), ty = P(&L->y, s), deg = P(&L->rotate, s);
    if (L->follow_slot != RF_PROP_CONST) {
        tx += s[L->follow_slot];
        ty += s[L->follow_slot + 1];
        if (L->orient)
            deg += s[L->follow_slot + 2];
    }
    if (canvas_coords) {
        tx += ax;
        ty += ay;
    }
    double c, sn, sx = P(&L->scale_x, s), sy = P(&L->scale_y, s);
    rotation(deg, &c, &sn);
    /* T(tx, ty) * R * S * T(-a), multiplied out */
    cairo_matrix_t *m = &n->local;
    m->xx = c * sx;
    m->yx = sn * sx;
    m->xy = -sn * sy;
    m->yy = c * sy;
    m->x0 = tx - (m->xx * ax + m->xy * ay);
    m->y0 = ty - (m->yx * ax + m->yy * ay);
    n->ok = isfinite(b[0]) && isfinite(b[1]) && isfinite(b[2]) && isfinite(b[3]) &&
            isfinite(m->xx) && isfinite(m->yx) && isfinite(m->xy) && isfinite(m->yy) &&
            isfinite(m->x0) && isfinite(m->y0);
    return idx + n->size;
}

/* ---- draw walk ---- */

/* Geometry of a shape this frame; 0 when it draws nothing. */
typedef struct shape {
    double w, h, rad;          /* rect; circle r in w; ellipse rx, ry in w, h */
    cairo_matrix_t em;         /* ellipse: S(rx, ry) inside the layer matrix */
    size_t nops;               /* path: ops in r->ops */
} shape_t;

static int shape_prepare(rf_renderer_t *r, const rf_layer_t *L, const cairo_matrix_t *m,
                         shape_t *sh)
{
    const double *s = r->slots;
    switch (L->type) {
    case RF_LAYER_RECT:
        sh->w = nonneg(P(&L->u.rect.width, s));
        sh->h = nonneg(P(&L->u.rect.height, s));
        if (!(sh->w > 0 && sh->h > 0 && isfinite(sh->w) && isfinite(sh->h)))
            return 0;
        sh->rad = fmin(nonneg(P(&L->u.rect.radius, s)), fmin(sh->w, sh->h) / 2);
        return 1;
    case RF_LAYER_CIRCLE:
        sh->w = nonneg(P(&L->u.circle.r, s));
        return sh->w > 0 && isfinite(sh->w);
    case RF_LAYER_ELLIPSE: {
        sh->w = nonneg(P(&L->u.ellipse.rx, s));
        sh->h = nonneg(P(&L->u.ellipse.ry, s));
        if (!(sh->w > 0 && sh->h > 0))
            return 0;
        cairo_matrix_t sm;
        cairo_matrix_init_scale(&sm, sh->w, sh->h);
        cairo_matrix_multiply(&sh->em, &sm, m);
        return matrix_usable(&sh->em);
    }
    case RF_LAYER_LINE:
        return 1; /* finite points: the layout checked them */
    case RF_LAYER_PATH: {
        size_t n = rf_path_trim(L->u.path.path, P(&L->u.path.trim0, s),
                                P(&L->u.path.trim1, s), r->ops, r->ops_cap);
        sh->nops = n < r->ops_cap ? n : r->ops_cap;
        return sh->nops > 0;
    }
    default:
        return 0;
    }
}

/* Builds the shape's path under the layer matrix m (the current matrix). */
static void shape_path(rf_renderer_t *r, const rf_layer_t *L, const cairo_matrix_t *m,
                       const shape_t *sh)
{
    cairo_t *cr = r->cr;
    const double *s = r->slots;
    cairo_new_path(cr);
    switch (L->type) {
    case RF_LAYER_RECT:
        if (sh->rad > 0) {
            double w = sh->w, h = sh->h, q = sh->rad;
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
            cairo_rectangle(cr, 0, 0, sh->w, sh->h);
        }
        return;
    case RF_LAYER_CIRCLE:
        cairo_arc(cr, 0, 0, sh->w, 0, 2 * RF_PI);
        cairo_close_path(cr);
        return;
    case RF_LAYER_ELLIPSE:
        /* cairo stores the path in device space: building it under the
         * scaled matrix and going back leaves the stroke undistorted */
        cairo_set_matrix(cr, &sh->em);
        cairo_arc(cr, 0, 0, 1, 0, 2 * RF_PI);
        cairo_close_path(cr);
        cairo_set_matrix(cr, m);
        return;
    case RF_LAYER_LINE:
        cairo_move_to(cr, P(&L->u.line.x1, s), P(&L->u.line.y1, s));
        cairo_line_to(cr, P(&L->u.line.x2, s), P(&L->u.line.y2, s));
        return;
    case RF_LAYER_PATH:
        for (size_t i = 0; i < sh->nops; i++) {
            const rf_path_op_t *op = &r->ops[i];
            switch (op->kind) {
            case RF_PATH_OP_MOVE:
                cairo_move_to(cr, op->p[0], op->p[1]);
                break;
            case RF_PATH_OP_LINE:
                cairo_line_to(cr, op->p[0], op->p[1]);
                break;
            case RF_PATH_OP_CURVE:
                cairo_curve_to(cr, op->p[0], op->p[1], op->p[2], op->p[3], op->p[4], op->p[5]);
                break;
            default:
                cairo_close_path(cr);
                break;
            }
        }
        return;
    default:
        return;
    }
}

/* Fills then strokes the current path (consuming it). */
static void shape_paint(rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n, int fill,
                        int stroke, double sw, double alpha)
{
    cairo_t *cr = r->cr;
    if (fill) {
        paint_set(r, &L->fill, n->pat[0], alpha);
        if (stroke)
            cairo_fill_preserve(cr);
        else
            cairo_fill(cr);
    }
    if (stroke) {
        paint_set(r, &L->stroke, n->pat[1], alpha);
        cairo_set_line_width(cr, sw);
        cairo_stroke(cr);
    }
}

static void draw_shape(rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                       const cairo_matrix_t *m, double op)
{
    cairo_t *cr = r->cr;
    double sw = P(&L->stroke_width, r->slots);
    int fill = L->fill.kind != RF_PAINT_NONE && L->type != RF_LAYER_LINE;
    int stroke = L->stroke.kind != RF_PAINT_NONE && sw > 0 && isfinite(sw);
    shape_t sh;
    if ((!fill && !stroke) || !shape_prepare(r, L, m, &sh))
        return;
    cairo_set_matrix(cr, m);
    if (op >= 1) {
        shape_path(r, L, m, &sh);
        shape_paint(r, L, n, fill, stroke, sw, 1);
        return;
    }
    const rf_paint_t *only = fill && !stroke ? &L->fill : stroke && !fill ? &L->stroke : NULL;
    if (only && !paint_is_gradient(only)) {
        /* one solid paint blends once anyway: fold opacity into its alpha */
        shape_path(r, L, m, &sh);
        shape_paint(r, L, n, fill, stroke, sw, op);
        return;
    }

    /* Clip the group surface to what the fill and stroke can touch: the
     * path's extents, grown by the farthest a miter or butt cap reaches
     * (miter limit * width / 2, in the layer's coordinates), mapped to
     * device pixels and rounded out with a pixel to spare. */
    double ux0, uy0, ux1, uy1;
    shape_path(r, L, m, &sh);
    cairo_path_extents(cr, &ux0, &uy0, &ux1, &uy1);
    cairo_new_path(cr);
    if (stroke) {
        double pad = sw * 0.5 * RF_MITER_LIMIT;
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
    dx0 = fmax(floor(dx0) - 1, 0);
    dy0 = fmax(floor(dy0) - 1, 0);
    dx1 = fmin(ceil(dx1) + 1, r->width);
    dy1 = fmin(ceil(dy1) + 1, r->height);
    if (!(dx1 > dx0 && dy1 > dy0))
        return; /* off the canvas */
    cairo_save(cr);
    cairo_identity_matrix(cr);
    cairo_rectangle(cr, dx0, dy0, dx1 - dx0, dy1 - dy0);
    cairo_clip(cr);
    cairo_set_matrix(cr, m);
    cairo_push_group(cr);
    shape_path(r, L, m, &sh);
    shape_paint(r, L, n, fill, stroke, sw, 1);
    cairo_pop_group_to_source(cr);
    cairo_paint_with_alpha(cr, op);
    cairo_restore(cr);
}

static void draw_layer(rf_renderer_t *r, const rf_layer_t *L, uint32_t idx,
                       const cairo_matrix_t *parent)
{
    const rf_node_t *n = &r->nodes[idx];
    if (!n->ok)
        return;
    double op = clamp01(P(&L->opacity, r->slots));
    if (!(op > 0))
        return;
    cairo_matrix_t m;
    cairo_matrix_multiply(&m, &n->local, parent); /* local first, then parent */
    if (!matrix_usable(&m))
        return;
    if (L->type != RF_LAYER_GROUP) {
        draw_shape(r, L, n, &m, op);
        return;
    }
    cairo_t *cr = r->cr;
    if (op < 1)
        cairo_push_group(cr);
    uint32_t ci = idx + 1;
    for (uint32_t i = 0; i < L->u.group.nchildren; i++) {
        draw_layer(r, &L->u.group.children[i], ci, &m);
        ci += r->nodes[ci].size;
    }
    if (op < 1) {
        cairo_pop_group_to_source(cr);
        cairo_paint_with_alpha(cr, op);
    }
}

/* ---- creation ---- */

static uint32_t count_layers(const rf_layer_t *layers, uint32_t n)
{
    uint32_t total = n;
    for (uint32_t i = 0; i < n; i++)
        if (layers[i].type == RF_LAYER_GROUP)
            total += count_layers(layers[i].u.group.children, layers[i].u.group.nchildren);
    return total;
}

/* Fills subtree sizes, sizes the trim buffer and builds constant gradients.
 * Returns the index after the subtree, or UINT32_MAX when cairo failed. */
static uint32_t prepare(rf_renderer_t *r, const rf_layer_t *L, uint32_t idx)
{
    rf_node_t *n = &r->nodes[idx];
    uint32_t next = idx + 1;
    if (L->type == RF_LAYER_GROUP) {
        for (uint32_t i = 0; i < L->u.group.nchildren && next != UINT32_MAX; i++)
            next = prepare(r, &L->u.group.children[i], next);
        if (next == UINT32_MAX)
            return UINT32_MAX;
    } else {
        const rf_paint_t *paints[2] = { L->type == RF_LAYER_LINE ? NULL : &L->fill, &L->stroke };
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
        if (L->type == RF_LAYER_PATH) {
            size_t cap = rf_path_trim_max(L->u.path.path);
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

/* A fresh cairo_t on the surface, with the stroke style every frame uses. */
static cairo_status_t context_create(rf_renderer_t *r)
{
    if (r->cr)
        cairo_destroy(r->cr);
    r->cr = cairo_create(r->surface);
    cairo_status_t st = cairo_status(r->cr);
    if (st != CAIRO_STATUS_SUCCESS)
        return st;
    cairo_set_line_cap(r->cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(r->cr, CAIRO_LINE_JOIN_MITER);
    cairo_set_miter_limit(r->cr, RF_MITER_LIMIT);
    cairo_set_fill_rule(r->cr, CAIRO_FILL_RULE_WINDING);
    return cairo_status(r->cr);
}

rf_renderer_t *rf_renderer_create(const rf_scene_t *scene, char *err, size_t errlen)
{
    rf_renderer_t *r = calloc(1, sizeof *r);
    if (!r) {
        set_err(err, errlen, "out of memory");
        return NULL;
    }
    r->scene = scene;
    r->width = scene->width;
    r->height = scene->height;
    r->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, scene->width, scene->height);
    cairo_status_t st = cairo_surface_status(r->surface);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(r->err, sizeof r->err, "canvas %dx%d: %s", scene->width, scene->height,
                 cairo_status_to_string(st));
        goto fail;
    }
    st = context_create(r);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(r->err, sizeof r->err, "cairo: %s", cairo_status_to_string(st));
        goto fail;
    }
    size_t nslots = scene->values.nslots ? scene->values.nslots : 1;
    r->slots = calloc(nslots, sizeof *r->slots);
    r->nnodes = count_layers(scene->layers, scene->nlayers);
    r->nodes = calloc(r->nnodes ? r->nnodes : 1, sizeof *r->nodes);
    if (!r->slots || !r->nodes) {
        snprintf(r->err, sizeof r->err, "out of memory");
        goto fail;
    }
    uint32_t idx = 0;
    for (uint32_t i = 0; i < scene->nlayers; i++) {
        idx = prepare(r, &scene->layers[i], idx);
        if (idx == UINT32_MAX)
            goto fail;
    }
    if (r->ops_cap) {
        r->ops = calloc(r->ops_cap, sizeof *r->ops);
        if (!r->ops) {
            snprintf(r->err, sizeof r->err, "out of memory");
            goto fail;
        }
    }
    r->err[0] = '\0';
    return r;
fail:
    set_err(err, errlen, r->err);
    rf_renderer_destroy(r);
    return NULL;
}

void rf_renderer_destroy(rf_renderer_t *r)
{
    if (!r)
        return;
    if (r->nodes)
        for (uint32_t i = 0; i < r->nnodes; i++)
            for (int k = 0; k < 2; k++)
                if (r->nodes[i].pat[k])
                    cairo_pattern_destroy(r->nodes[i].pat[k]);
    if (r->cr)
        cairo_destroy(r->cr);
    if (r->surface)
        cairo_surface_destroy(r->surface);
    free(r->ops);
    free(r->nodes);
    free(r->slots);
    free(r);
}

/* ---- frames ---- */

int rf_renderer_draw(rf_renderer_t *r, double t)
{
    const rf_scene_t *sc = r->scene;
    cairo_status_t st;
    r->err[0] = '\0';
    if (cairo_status(r->cr) != CAIRO_STATUS_SUCCESS) {
        /* a cairo_t in error stays in error: start over on a new one */
        st = context_create(r);
        if (st != CAIRO_STATUS_SUCCESS) {
            snprintf(r->err, sizeof r->err, "cairo: %s", cairo_status_to_string(st));
            return -1;
        }
    }
    rf_values_eval(&sc->values, t, r->slots);
    uint32_t idx = 0;
    for (uint32_t i = 0; i < sc->nlayers; i++)
        idx = layout(r, &sc->layers[i], idx);

    cairo_t *cr = r->cr;
    uint32_t bg = sc->background;
    cairo_new_path(cr);
    cairo_identity_matrix(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_set_source_rgba(cr, (bg >> 24 & 255) / 255.0, (bg >> 16 & 255) / 255.0,
                          (bg >> 8 & 255) / 255.0, (bg & 255) / 255.0);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);

    cairo_matrix_t id;
    cairo_matrix_init_identity(&id);
    idx = 0;
    for (uint32_t i = 0; i < sc->nlayers; i++) {
        draw_layer(r, &sc->layers[i], idx, &id);
        idx += r->nodes[idx].size;
    }
    cairo_surface_flush(r->surface);

    st = cairo_status(cr);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(r->surface);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(r->err, sizeof r->err, "cairo: %s", cairo_status_to_string(st));
        return -1;
    }
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

const double *rf_renderer_slots(const rf_renderer_t *r)
{
    return r->slots;
}
