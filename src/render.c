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
    /* The static prefix: the layers drawn first (in drawing order) that
     * read no value, so background plus those layers give the same pixels
     * at every t. base holds those pixels once drawn (base_ready) and a
     * frame starts from a copy of base instead of redrawing them: a
     * full-canvas gradient backdrop costs pixman ~10 ms per 1080p frame,
     * the copy ~1 ms. The prefix may end inside groups (the chain: groups
     * whose own properties are constant, opacity 1): their matrices also
     * depend on their children's boxes, so base is used only in a frame
     * whose chain matrices are bitwise those base was drawn under.
     * Byte-identical to drawing the prefix: the same operations on the
     * same cleared surface give the same pixels, and every later layer
     * sets all the cairo state it uses (tests/check_render). Level k of
     * the split, in the list of the chain group of level k - 1 (the
     * top-level layers at level 0): split_list[k] is the index of the
     * level's chain group (k < split_depth) or of its first layer that is
     * not static (k == split_depth), split_node[k] that layer's node. */
#define RF_SPLIT_MAX 8
    uint32_t split_depth;
    uint32_t split_list[RF_SPLIT_MAX + 1];
    uint32_t split_node[RF_SPLIT_MAX + 1];
    cairo_matrix_t split_m[RF_SPLIT_MAX]; /* chain device matrices of base */
    unsigned char *base;       /* height * stride bytes; NULL: no prefix
                                  worth a copy per frame */
    int base_ready;            /* base holds the prefix's pixels */
    int base_armed;            /* this frame keeps them when it reaches
                                  split_node[split_depth] */
    int base_used;             /* the last frame started from base */
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

/* ---- shapes too large for cairo's fixed-point coordinates ---- */

/* cairo keeps device coordinates in 24.8 fixed point: past +-2^23 px they
 * wrap (a line to x = 1e7 comes out short, a rect 1e9 wide inside out);
 * its rasterizer already goes wrong on long sloped edges past about 2^17
 * px (a rotated ellipse 1e9 px wide fills the wrong rows); and it cuts an
 * arc of radius 1e20 px into so many pieces that one frame takes minutes.
 * A shape whose device box, stroke included, leaves [-RF_GUARD, RF_GUARD]
 * is therefore built here in double precision and clipped to the guard
 * box G, the canvas grown by RF_GUARD_MARGIN: a fill by Sutherland-Hodgman
 * (the winding inside G is unchanged), a stroke as the runs of its outline
 * inside G, whose cut ends lie farther off the canvas than any stroke drawn
 * reaches (RF_GUARD_REACH, in device px, miter included; a wider stroke on
 * such a shape is an error). Curves are flattened to RF_FLAT_TOL px near
 * the canvas; a piece of curve whose hull stays away from the canvas (and
 * the stroke's reach) becomes its chord, which cannot change a pixel.
 * Every loop is bounded (RF_FLAT_DEPTH), and cairo only ever sees
 * coordinates within 16384 + 2^16 px of the origin. */
#define RF_GUARD 65536.0
#define RF_GUARD_MARGIN 65536.0
#define RF_GUARD_REACH 32768.0
#define RF_FLAT_TOL 0.05
#define RF_FLAT_DEPTH 60
/* A piece near the canvas still this far (px) from its chord once it cannot
 * be split (an ellipse 1e100 px wide and 40 high, rotated): its points are
 * below double precision there, and no drawing of it would be right. */
#define RF_FLAT_BAD 1.0

typedef struct gsink {
    cairo_t *cr;                 /* building under the identity matrix */
    double g[4];                 /* G: x0, y0, x1, y1 */
    double b[4];                 /* where accuracy matters: canvas + reach */
    int stroke;                  /* runs (stroke) or clipped polygons (fill) */
    int imprecise;               /* RF_FLAT_BAD was exceeded near the canvas */
    int in_sub;                  /* a subpath is open */
    double sx, sy, px, py;       /* its start and the current point */
    /* stroke */
    int run, cut, first_at_start, first_done;
    double fx, fy;               /* end of the first run's first piece */
    /* fill: four clip stages, then the output */
    struct { int n; double fx, fy, lx, ly; } st[4];
    int nout;
} gsink_t;

static void gs_emit(gsink_t *g, int move, double x, double y)
{
    if (move)
        cairo_move_to(g->cr, x, y);
    else
        cairo_line_to(g->cr, x, y);
}

static int gs_inside(const gsink_t *g, int k, double x, double y)
{
    switch (k) {
    case 0: return x >= g->g[0];
    case 1: return x <= g->g[2];
    case 2: return y >= g->g[1];
    default: return y <= g->g[3];
    }
}

/* Where segment a-b crosses the line of clip edge k. */
static void gs_cross(const gsink_t *g, int k, double ax, double ay, double bx, double by,
                     double *x, double *y)
{
    /* halves: b - a of two coordinates near 1e308 would overflow */
    double e = g->g[k == 0 ? 0 : k == 1 ? 2 : k == 2 ? 1 : 3];
    if (k < 2) {
        double t = (0.5 * e - 0.5 * ax) / (0.5 * bx - 0.5 * ax);
        *x = e;
        *y = (1 - t) * ay + t * by;
    } else {
        double t = (0.5 * e - 0.5 * ay) / (0.5 * by - 0.5 * ay);
        *x = (1 - t) * ax + t * bx;
        *y = e;
    }
}

static void gs_stage(gsink_t *g, int k, double x, double y);

static void gs_out(gsink_t *g, int k, double x, double y)
{
    if (k < 4) {
        gs_stage(g, k, x, y);
        return;
    }
    gs_emit(g, g->nout == 0, x, y);
    g->nout++;
}

/* One Sutherland-Hodgman stage: point (x, y) of the polygon into stage k. */
static void gs_stage(gsink_t *g, int k, double x, double y)
{
    if (g->st[k].n++ == 0) {
        g->st[k].fx = x;
        g->st[k].fy = y;
    } else {
        double lx = g->st[k].lx, ly = g->st[k].ly, cx, cy;
        int li = gs_inside(g, k, lx, ly), ci = gs_inside(g, k, x, y);
        if (li != ci) {
            gs_cross(g, k, lx, ly, x, y, &cx, &cy);
            gs_out(g, k + 1, cx, cy);
        }
        if (ci)
            gs_out(g, k + 1, x, y);
        g->st[k].lx = x;
        g->st[k].ly = y;
        return;
    }
    if (gs_inside(g, k, x, y))
        gs_out(g, k + 1, x, y);
    g->st[k].lx = x;
    g->st[k].ly = y;
}

/* Closes the polygon through stages k..3, then the output. */
static void gs_fill_close(gsink_t *g)
{
    for (int k = 0; k < 4; k++) {
        if (g->st[k].n > 1) {
            double lx = g->st[k].lx, ly = g->st[k].ly, x = g->st[k].fx, y = g->st[k].fy, cx, cy;
            if (gs_inside(g, k, lx, ly) != gs_inside(g, k, x, y)) {
                gs_cross(g, k, lx, ly, x, y, &cx, &cy);
                gs_out(g, k + 1, cx, cy);
            }
        }
        g->st[k].n = 0;
    }
    if (g->nout > 0)
        cairo_close_path(g->cr);
    g->nout = 0;
}

/* The part of segment a-b inside G (Liang-Barsky): 0 when none. */
static int gs_clip_segment(const gsink_t *g, double ax, double ay, double bx, double by,
                           double *t0, double *t1)
{
    /* in halves, as gs_cross */
    double dx = 0.5 * bx - 0.5 * ax, dy = 0.5 * by - 0.5 * ay;
    double p[4] = { -dx, dx, -dy, dy };
    double q[4] = { 0.5 * ax - 0.5 * g->g[0], 0.5 * g->g[2] - 0.5 * ax,
                    0.5 * ay - 0.5 * g->g[1], 0.5 * g->g[3] - 0.5 * ay };
    *t0 = 0;
    *t1 = 1;
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return 0;
            continue;
        }
        double t = q[i] / p[i];
        if (p[i] < 0) {
            if (t > *t1)
                return 0;
            if (t > *t0)
                *t0 = t;
        } else {
            if (t < *t0)
                return 0;
            if (t < *t1)
                *t1 = t;
        }
    }
    return *t0 <= *t1;
}

static void gs_stroke_segment(gsink_t *g, double x, double y)
{
    double t0, t1;
    int first = !g->first_done;
    g->first_done = 1;
    if (!gs_clip_segment(g, g->px, g->py, x, y, &t0, &t1)) {
        g->run = 0;
        g->cut = 1;
        return;
    }
    double ax = (1 - t0) * g->px + t0 * x, ay = (1 - t0) * g->py + t0 * y;
    double bx = (1 - t1) * g->px + t1 * x, by = (1 - t1) * g->py + t1 * y;
    if (t0 > 0)
        g->cut = 1;
    if (!g->run || t0 > 0)
        gs_emit(g, 1, ax, ay);
    gs_emit(g, 0, bx, by);
    g->run = t1 >= 1;
    if (!g->run)
        g->cut = 1;
    if (first && t0 == 0) {
        g->first_at_start = 1;
        g->fx = bx;
        g->fy = by;
    }
}

static void gs_end_sub(gsink_t *g, int close)
{
    if (!g->in_sub)
        return;
    if (g->stroke) {
        if (close) {
            gs_stroke_segment(g, g->sx, g->sy);
            if (!g->cut)
                cairo_close_path(g->cr);
            else if (g->run && g->first_at_start)
                gs_emit(g, 0, g->fx, g->fy); /* the join at the start */
        }
    } else {
        gs_fill_close(g);
    }
    g->in_sub = 0;
}

static void gs_move(gsink_t *g, double x, double y)
{
    if (!(isfinite(x) && isfinite(y))) {
        g->imprecise = 1; /* a point past 1.8e308 px: beyond double range */
        return;
    }
    gs_end_sub(g, 0);
    g->in_sub = 1;
    g->sx = g->px = x;
    g->sy = g->py = y;
    g->run = g->cut = g->first_at_start = g->first_done = 0;
    if (!g->stroke)
        gs_stage(g, 0, x, y);
}

static void gs_line(gsink_t *g, double x, double y)
{
    if (!(isfinite(x) && isfinite(y))) {
        g->imprecise = 1;
        return;
    }
    if (!g->in_sub)
        gs_move(g, g->px, g->py);
    if (g->stroke)
        gs_stroke_segment(g, x, y);
    else
        gs_stage(g, 0, x, y);
    g->px = x;
    g->py = y;
}

static void gs_close(gsink_t *g)
{
    if (!g->in_sub)
        return;
    double sx = g->sx, sy = g->sy;
    gs_end_sub(g, 1);
    g->px = sx;
    g->py = sy;
}

/* Does the box of the n points (x, y pairs) meet the box that matters? */
static int gs_near(const gsink_t *g, const double *pts, int n)
{
    double x0 = pts[0], x1 = pts[0], y0 = pts[1], y1 = pts[1];
    for (int i = 1; i < n; i++) {
        x0 = fmin(x0, pts[2 * i]);
        x1 = fmax(x1, pts[2 * i]);
        y0 = fmin(y0, pts[2 * i + 1]);
        y1 = fmax(y1, pts[2 * i + 1]);
    }
    return x1 >= g->b[0] && x0 <= g->b[2] && y1 >= g->b[1] && y0 <= g->b[3]; /* NaN: no */
}

/* The arc c + u cos(a) + v sin(a) from a0 to a1 (the current point is at
 * a0), an ellipse's arc mapped to the device, in quarter turns at most. */
static void gs_arc(gsink_t *g, const double c[2], const double u[2], const double v[2],
                   double a0, double a1)
{
    int nq = (int)ceil(fabs(a1 - a0) / (RF_PI / 2) - 1e-9);
    if (nq < 1)
        nq = 1;
    for (int q = 0; q < nq; q++) {
        double stack[RF_FLAT_DEPTH + 2][2];
        int depth[RF_FLAT_DEPTH + 2];
        int sp = 0;
        stack[sp][0] = a0 + (a1 - a0) * q / nq;
        stack[sp][1] = q + 1 == nq ? a1 : a0 + (a1 - a0) * (q + 1) / nq;
        depth[sp++] = 0;
        while (sp > 0) {
            sp--;
            double a = stack[sp][0], b = stack[sp][1];
            int d = depth[sp];
            double h = 0.5 * (b - a), m = 0.5 * (a + b), ch = cos(h);
            double wx = u[0] * cos(m) + v[0] * sin(m), wy = u[1] * cos(m) + v[1] * sin(m);
            double pts[6] = { c[0] + u[0] * cos(a) + v[0] * sin(a), c[1] + u[1] * cos(a) + v[1] * sin(a),
                              c[0] + u[0] * cos(b) + v[0] * sin(b), c[1] + u[1] * cos(b) + v[1] * sin(b),
                              c[0] + wx / ch, c[1] + wy / ch };
            double sh = sin(h), err = hypot(wx, wy) * (sh * sh / ch); /* (1/cos - cos) h */
            int near = !(err <= RF_FLAT_TOL) && gs_near(g, pts, 3);
            if (near && !(err <= RF_FLAT_BAD) && (d >= RF_FLAT_DEPTH || !(a < m && m < b)))
                g->imprecise = 1;
            if (near && d < RF_FLAT_DEPTH && a < m && m < b) {
                stack[sp][0] = m;      /* right half, done second */
                stack[sp][1] = b;
                depth[sp++] = d + 1;
                stack[sp][0] = a;
                stack[sp][1] = m;
                depth[sp++] = d + 1;
                continue;
            }
            gs_line(g, pts[2], pts[3]);
        }
    }
}

/* Distance from (x, y) to the segment a-b. */
static double seg_dist(double x, double y, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    double t = l2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return hypot(x - (ax + t * dx), y - (ay + t * dy));
}

/* A cubic Bezier from the current point (p[0], p[1]) through p[2..7]. */
static void gs_curve(gsink_t *g, const double p0[8])
{
    double stack[RF_FLAT_DEPTH + 2][8];
    int depth[RF_FLAT_DEPTH + 2];
    int sp = 0;
    memcpy(stack[0], p0, sizeof stack[0]);
    depth[sp++] = 0;
    while (sp > 0) {
        sp--;
        double q[8];
        memcpy(q, stack[sp], sizeof q);
        int d = depth[sp];
        double err = fmax(seg_dist(q[2], q[3], q[0], q[1], q[6], q[7]),
                          seg_dist(q[4], q[5], q[0], q[1], q[6], q[7]));
        int near = !(err <= RF_FLAT_TOL) && gs_near(g, q, 4);
        if (near && !(err <= RF_FLAT_BAD) && d >= RF_FLAT_DEPTH)
            g->imprecise = 1;
        if (near && d < RF_FLAT_DEPTH) {
            double l[8], rr[8];
            /* de Casteljau at 1/2 */
            double ax = 0.5 * (q[0] + q[2]), ay = 0.5 * (q[1] + q[3]);
            double bx = 0.5 * (q[2] + q[4]), by = 0.5 * (q[3] + q[5]);
            double cx = 0.5 * (q[4] + q[6]), cy = 0.5 * (q[5] + q[7]);
            double abx = 0.5 * (ax + bx), aby = 0.5 * (ay + by);
            double bcx = 0.5 * (bx + cx), bcy = 0.5 * (by + cy);
            double mx = 0.5 * (abx + bcx), my = 0.5 * (aby + bcy);
            double lv[8] = { q[0], q[1], ax, ay, abx, aby, mx, my };
            double rv[8] = { mx, my, bcx, bcy, cx, cy, q[6], q[7] };
            memcpy(l, lv, sizeof l);
            memcpy(rr, rv, sizeof rr);
            memcpy(stack[sp], rr, sizeof rr);
            depth[sp++] = d + 1;
            memcpy(stack[sp], l, sizeof l);
            depth[sp++] = d + 1;
            continue;
        }
        gs_line(g, q[6], q[7]);
    }
}

static void gs_point(const cairo_matrix_t *m, double x, double y, double out[2])
{
    cairo_matrix_transform_point(m, &x, &y);
    out[0] = x;
    out[1] = y;
}

/* An arc of a circle (cx, cy, radius q) in layer coordinates, a0 to a1. */
static void gs_layer_arc(gsink_t *g, const cairo_matrix_t *m, double cx, double cy, double q,
                         double a0, double a1)
{
    double c[2], u[2] = { m->xx * q, m->yx * q }, v[2] = { m->xy * q, m->yy * q };
    gs_point(m, cx, cy, c);
    gs_arc(g, c, u, v, a0, a1);
}

/* Builds the shape (device coordinates, through the sink). */
static void gs_shape(rf_renderer_t *r, gsink_t *g, const rf_layer_t *L, const cairo_matrix_t *m,
                     const shape_t *sh)
{
    const double *s = r->slots;
    double pt[2];
    switch (L->type) {
    case RF_LAYER_RECT: {
        double w = sh->w, h = sh->h, q = sh->rad;
        gs_point(m, q, 0, pt);
        gs_move(g, pt[0], pt[1]);
        gs_point(m, w - q, 0, pt);
        gs_line(g, pt[0], pt[1]);
        if (q > 0)
            gs_layer_arc(g, m, w - q, q, q, -RF_PI / 2, 0);
        gs_point(m, w, h - q, pt);
        gs_line(g, pt[0], pt[1]);
        if (q > 0)
            gs_layer_arc(g, m, w - q, h - q, q, 0, RF_PI / 2);
        gs_point(m, q, h, pt);
        gs_line(g, pt[0], pt[1]);
        if (q > 0)
            gs_layer_arc(g, m, q, h - q, q, RF_PI / 2, RF_PI);
        gs_point(m, 0, q, pt);
        gs_line(g, pt[0], pt[1]);
        if (q > 0)
            gs_layer_arc(g, m, q, q, q, RF_PI, 3 * RF_PI / 2);
        gs_close(g);
        return;
    }
    case RF_LAYER_CIRCLE:
        gs_point(m, sh->w, 0, pt);
        gs_move(g, pt[0], pt[1]);
        gs_layer_arc(g, m, 0, 0, sh->w, 0, 2 * RF_PI);
        gs_close(g);
        return;
    case RF_LAYER_ELLIPSE: {
        const cairo_matrix_t *e = &sh->em;
        double c[2] = { e->x0, e->y0 }, u[2] = { e->xx, e->yx }, v[2] = { e->xy, e->yy };
        gs_move(g, c[0] + u[0], c[1] + u[1]);
        gs_arc(g, c, u, v, 0, 2 * RF_PI);
        gs_close(g);
        return;
    }
    case RF_LAYER_LINE:
        gs_point(m, P(&L->u.line.x1, s), P(&L->u.line.y1, s), pt);
        gs_move(g, pt[0], pt[1]);
        gs_point(m, P(&L->u.line.x2, s), P(&L->u.line.y2, s), pt);
        gs_line(g, pt[0], pt[1]);
        return;
    case RF_LAYER_PATH:
        for (size_t i = 0; i < sh->nops; i++) {
            const rf_path_op_t *op = &r->ops[i];
            switch (op->kind) {
            case RF_PATH_OP_MOVE:
                gs_point(m, op->p[0], op->p[1], pt);
                gs_move(g, pt[0], pt[1]);
                break;
            case RF_PATH_OP_LINE:
                gs_point(m, op->p[0], op->p[1], pt);
                gs_line(g, pt[0], pt[1]);
                break;
            case RF_PATH_OP_CURVE: {
                double q[8] = { g->px, g->py };
                for (int k = 0; k < 3; k++)
                    gs_point(m, op->p[2 * k], op->p[2 * k + 1], q + 2 + 2 * k);
                if (!g->in_sub)
                    gs_move(g, g->px, g->py);
                gs_curve(g, q);
                break;
            }
            default:
                gs_close(g);
                break;
            }
        }
        return;
    default:
        return;
    }
}

/* The device box of the layer's own box under m, grown by reach px. */
static void device_box(const rf_node_t *n, const cairo_matrix_t *m, double reach, double out[4])
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
 * device. */
static void draw_huge(rf_renderer_t *r, const rf_layer_t *L, const rf_node_t *n,
                      const cairo_matrix_t *m, double op, const shape_t *sh, int fill,
                      int stroke, double sw, double penw, const double dev[4])
{
    double reach = penw * 0.5 * RF_MITER_LIMIT;
    cairo_t *cr = r->cr;
    double W = r->width, H = r->height;
    if (dev[2] < -2 || dev[0] > W + 2 || dev[3] < -2 || dev[1] > H + 2)
        return; /* nowhere near the canvas: nothing to draw */
    if (stroke && !(reach <= RF_GUARD_REACH)) {
        if (r->err[0] == '\0')
            snprintf(r->err, sizeof r->err, "a stroke %.6g px wide on the canvas is too wide to "
                     "draw (at most %.0f px)", penw, RF_GUARD_REACH / (0.5 * RF_MITER_LIMIT));
        return;
    }
    gsink_t g;
    memset(&g, 0, sizeof g);
    g.cr = cr;
    g.g[0] = -RF_GUARD_MARGIN;
    g.g[1] = -RF_GUARD_MARGIN;
    g.g[2] = W + RF_GUARD_MARGIN;
    g.g[3] = H + RF_GUARD_MARGIN;
    double pad = (stroke ? reach : 0) + 2;
    g.b[0] = -pad;
    g.b[1] = -pad;
    g.b[2] = W + pad;
    g.b[3] = H + pad;
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
    if (fill) {
        cairo_new_path(cr);
        cairo_identity_matrix(cr);
        g.stroke = 0;
        gs_shape(r, &g, L, m, sh);
        gs_end_sub(&g, 0);
        cairo_set_matrix(cr, m);
        paint_set(r, &L->fill, n->pat[0], alpha);
        if (g.imprecise)
            cairo_new_path(cr);
        cairo_fill(cr);
    }
    if (stroke) {
        cairo_new_path(cr);
        cairo_identity_matrix(cr);
        memset(g.st, 0, sizeof g.st);
        g.in_sub = 0;
        g.stroke = 1;
        gs_shape(r, &g, L, m, sh);
        gs_end_sub(&g, 0);
        cairo_set_matrix(cr, m);
        paint_set(r, &L->stroke, n->pat[1], alpha);
        cairo_set_line_width(cr, sw);
        if (g.imprecise)
            cairo_new_path(cr);
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
    double reach = 0, penw = 0, dev[4];
    if (stroke) {
        /* the widest the pen gets on the device: sw times m's largest
         * singular value; a miter reaches RF_MITER_LIMIT / 2 of that */
        double a = m->xx, b = m->yx, c = m->xy, d = m->yy;
        double hs = 0.5 * (a * a + b * b + c * c + d * d);
        double hd = 0.5 * (a * a + b * b - c * c - d * d), o = a * c + b * d;
        penw = sw * sqrt(hs + sqrt(hd * hd + o * o));
        reach = penw * 0.5 * RF_MITER_LIMIT;
    }
    device_box(n, m, reach, dev);
    if (!(fabs(dev[0]) <= RF_GUARD && fabs(dev[1]) <= RF_GUARD && fabs(dev[2]) <= RF_GUARD &&
          fabs(dev[3]) <= RF_GUARD)) {
        draw_huge(r, L, n, m, op, &sh, fill, stroke, sw, penw, dev);
        return;
    }
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

/* Keeps the surface as the static prefix's pixels (see rf_renderer_t's
 * base) when this frame was armed to and drew them without an error. */
static void base_keep(rf_renderer_t *r)
{
    if (!r->base_armed)
        return;
    r->base_armed = 0;
    if (r->err[0] != '\0' || cairo_status(r->cr) != CAIRO_STATUS_SUCCESS)
        return;
    cairo_surface_flush(r->surface);
    memcpy(r->base, cairo_image_surface_get_data(r->surface),
           (size_t)cairo_image_surface_get_stride(r->surface) * (size_t)r->height);
    r->base_ready = 1;
}

static void draw_layer(rf_renderer_t *r, const rf_layer_t *L, uint32_t idx,
                       const cairo_matrix_t *parent)
{
    const rf_node_t *n = &r->nodes[idx];
    if (idx == r->split_node[r->split_depth])
        base_keep(r);   /* the prefix is drawn: keep it before this layer */
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

/* 1 when nothing of L (or of its children) reads a value. */
static int prop_static(const rf_prop_t *p)
{
    return p->slot == RF_PROP_CONST;
}

static int paint_static(const rf_paint_t *p)
{
    return prop_static(&p->by) && prop_static(&p->p0[0]) && prop_static(&p->p0[1]) &&
           prop_static(&p->p1[0]) && prop_static(&p->p1[1]) && prop_static(&p->radius);
}

static int layer_static(const rf_layer_t *L)
{
    const rf_prop_t *common[] = { &L->x, &L->y, &L->rotate, &L->scale_x, &L->scale_y,
                                  &L->anchor_x, &L->anchor_y, &L->opacity, &L->stroke_width };
    for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
        if (!prop_static(common[i]))
            return 0;
    if (L->follow_slot != RF_PROP_CONST || !paint_static(&L->fill) || !paint_static(&L->stroke))
        return 0;
    switch (L->type) {
    case RF_LAYER_RECT:
        return prop_static(&L->u.rect.width) && prop_static(&L->u.rect.height) &&
               prop_static(&L->u.rect.radius);
    case RF_LAYER_CIRCLE:
        return prop_static(&L->u.circle.r);
    case RF_LAYER_ELLIPSE:
        return prop_static(&L->u.ellipse.rx) && prop_static(&L->u.ellipse.ry);
    case RF_LAYER_LINE:
        return prop_static(&L->u.line.x1) && prop_static(&L->u.line.y1) &&
               prop_static(&L->u.line.x2) && prop_static(&L->u.line.y2);
    case RF_LAYER_PATH:
        return prop_static(&L->u.path.trim0) && prop_static(&L->u.path.trim1);
    case RF_LAYER_GROUP:
        for (uint32_t i = 0; i < L->u.group.nchildren; i++)
            if (!layer_static(&L->u.group.children[i]))
                return 0;
        return 1;
    }
    return 0;
}

/* A group the prefix may end inside: its own properties constant and its
 * opacity 1 (drawn straight onto the canvas, no intermediate group). */
static int group_chainable(const rf_layer_t *L)
{
    const rf_prop_t *own[] = { &L->x, &L->y, &L->rotate, &L->scale_x, &L->scale_y,
                               &L->anchor_x, &L->anchor_y, &L->opacity };
    if (L->type != RF_LAYER_GROUP || L->follow_slot != RF_PROP_CONST)
        return 0;
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (!prop_static(own[i]))
            return 0;
    return L->opacity.k >= 1;
}

/* The canvas area the device box of node idx under parent covers. */
static double node_area(const rf_renderer_t *r, uint32_t idx, const cairo_matrix_t *parent)
{
    const rf_node_t *nd = &r->nodes[idx];
    cairo_matrix_t m;
    double d[4];
    if (!nd->ok)
        return 0;
    cairo_matrix_multiply(&m, &nd->local, parent);
    device_box(nd, &m, 0, d);
    double w = fmin(d[2], r->width) - fmax(d[0], 0), h = fmin(d[3], r->height) - fmax(d[1], 0);
    return w > 0 && h > 0 ? w * h : 0;
}

/* Finds the static prefix and keeps it when it is worth a canvas copy per
 * frame: when the device boxes of its layers (laid out here with every
 * value 0; only the chain's matrices can differ in a frame) cover at least
 * a quarter of the canvas. Returns -1 when out of memory. */
static int static_prefix(rf_renderer_t *r)
{
    const rf_scene_t *sc = r->scene;
    const rf_layer_t *list = sc->layers;
    uint32_t n = sc->nlayers, idx = 0, depth = 0, nprefix = 0;
    cairo_matrix_t parent;
    double area = 0;
    cairo_matrix_init_identity(&parent);
    for (;;) {
        uint32_t i = 0;
        for (; i < n && layer_static(&list[i]); i++, nprefix++) {
            layout(r, &list[i], idx);
            area += node_area(r, idx, &parent);
            idx += r->nodes[idx].size;
        }
        r->split_list[depth] = i;
        r->split_node[depth] = idx;
        if (i == n || depth == RF_SPLIT_MAX || !group_chainable(&list[i]))
            break;
        cairo_matrix_t m;
        layout(r, &list[i], idx);
        cairo_matrix_multiply(&m, &r->nodes[idx].local, &parent);
        parent = m;
        n = list[i].u.group.nchildren;
        list = list[i].u.group.children;
        idx++;
        depth++;
    }
    r->split_depth = depth;
    if (nprefix == 0 || !(area >= 0.25 * (double)r->width * (double)r->height))
        return 0;
    r->base = malloc((size_t)cairo_image_surface_get_stride(r->surface) * (size_t)r->height);
    return r->base ? 0 : -1;
}

/* This frame's device matrices of the chain groups into m; 0 when one is
 * not drawable (then base can be neither used nor kept). */
static int chain_matrices(const rf_renderer_t *r, cairo_matrix_t *m)
{
    cairo_matrix_t parent;
    cairo_matrix_init_identity(&parent);
    for (uint32_t k = 0; k < r->split_depth; k++) {
        const rf_node_t *g = &r->nodes[r->split_node[k]];
        if (!g->ok)
            return 0;
        cairo_matrix_multiply(&m[k], &g->local, &parent);
        if (!matrix_usable(&m[k]))
            return 0;
        parent = m[k];
    }
    return 1;
}

/* Draws what follows the prefix at level `level` of the split, in list
 * (n layers) under parent: the rest of the level's chain group, then the
 * level's later layers. */
static void draw_rest(rf_renderer_t *r, const rf_layer_t *list, uint32_t n, uint32_t level,
                      const cairo_matrix_t *parent)
{
    uint32_t i = r->split_list[level], idx = r->split_node[level];
    if (level < r->split_depth) {
        const rf_layer_t *g = &list[i];
        cairo_matrix_t m;
        cairo_matrix_multiply(&m, &r->nodes[idx].local, parent);
        draw_rest(r, g->u.group.children, g->u.group.nchildren, level + 1, &m);
        idx += r->nodes[idx].size;
        i++;
    }
    for (; i < n; i++) {
        draw_layer(r, &list[i], idx, parent);
        idx += r->nodes[idx].size;
    }
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
    if (static_prefix(r) != 0) {
        snprintf(r->err, sizeof r->err, "out of memory");
        goto fail;
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
    free(r->base);
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
    cairo_matrix_t id, chain[RF_SPLIT_MAX];
    cairo_matrix_init_identity(&id);
    cairo_new_path(cr);
    cairo_identity_matrix(cr);
    int chain_ok = r->base && chain_matrices(r, chain);
    if (chain_ok && r->base_ready &&
        (r->split_depth == 0 || memcmp(chain, r->split_m, sizeof chain[0] * r->split_depth) == 0)) {
        cairo_surface_flush(r->surface);
        memcpy(cairo_image_surface_get_data(r->surface), r->base,
               (size_t)cairo_image_surface_get_stride(r->surface) * (size_t)r->height);
        cairo_surface_mark_dirty(r->surface);
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
        r->base_used = 1;
        draw_rest(r, sc->layers, sc->nlayers, 0, &id);
    } else {
        r->base_used = 0;
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
        cairo_set_source_rgba(cr, (bg >> 24 & 255) / 255.0, (bg >> 16 & 255) / 255.0,
                              (bg >> 8 & 255) / 255.0, (bg & 255) / 255.0);
        cairo_paint(cr);
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
        r->base_armed = chain_ok && !r->base_ready;
        if (r->base_armed && r->split_depth > 0)
            memcpy(r->split_m, chain, sizeof chain[0] * r->split_depth);
        idx = 0;
        for (uint32_t i = 0; i < sc->nlayers; i++) {
            draw_layer(r, &sc->layers[i], idx, &id);
            idx += r->nodes[idx].size;
        }
        if (r->split_depth == 0 && r->split_list[0] == sc->nlayers)
            base_keep(r);   /* every layer is static: the prefix ends here */
        r->base_armed = 0;
    }
    cairo_surface_flush(r->surface);

    st = cairo_status(cr);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(r->surface);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(r->err, sizeof r->err, "cairo: %s", cairo_status_to_string(st));
        return -1;
    }
    if (r->err[0] != '\0')
        return -1; /* draw_huge refused a shape */
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

int rf_renderer_reused_prefix(const rf_renderer_t *r)
{
    return r->base_used;
}

const double *rf_renderer_slots(const rf_renderer_t *r)
{
    return r->slots;
}
