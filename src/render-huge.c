/* render-huge.c - the double-precision path sink for shapes too large for
 * cairo's fixed-point coordinates: a fill is clipped to the guard box by
 * Sutherland-Hodgman, a stroke cut into the runs of its outline near the
 * canvas, curves and arcs flattened where they come near it. The rules and
 * limits are in render-int.h (RF_GUARD and what follows); the layer types
 * feed the sink through shape.h, the renderer drives it (draw_huge). */
#include <math.h>
#include <string.h>

#include "render-int.h"

static void gs_emit(rf_hsink_t *g, int move, double x, double y)
{
    if (move)
        cairo_move_to(g->cr, x, y);
    else
        cairo_line_to(g->cr, x, y);
}

static int gs_inside(const rf_hsink_t *g, int k, double x, double y)
{
    switch (k) {
    case 0: return x >= g->g[0];
    case 1: return x <= g->g[2];
    case 2: return y >= g->g[1];
    default: return y <= g->g[3];
    }
}

/* Where segment a-b crosses the line of clip edge k. */
static void gs_cross(const rf_hsink_t *g, int k, double ax, double ay, double bx, double by,
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

static void gs_stage(rf_hsink_t *g, int k, double x, double y);

static void gs_out(rf_hsink_t *g, int k, double x, double y)
{
    if (k < 4) {
        gs_stage(g, k, x, y);
        return;
    }
    gs_emit(g, g->nout == 0, x, y);
    g->nout++;
}

/* One Sutherland-Hodgman stage: point (x, y) of the polygon into stage k. */
static void gs_stage(rf_hsink_t *g, int k, double x, double y)
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
static void gs_fill_close(rf_hsink_t *g)
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
static int gs_clip_segment(const rf_hsink_t *g, double ax, double ay, double bx, double by,
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

static void gs_stroke_segment(rf_hsink_t *g, double x, double y)
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

static void gs_end_sub(rf_hsink_t *g, int close)
{
    if (!g->in_sub)
        return;
    if (g->ras != NULL) { /* a raster: the outline is closed anyway */
        g->nsub++;
        g->nclosed += close;
        g->in_sub = 0;
        return;
    }
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

static void gs_move(rf_hsink_t *g, double x, double y)
{
    if (!(isfinite(x) && isfinite(y))) {
        g->imprecise = 1; /* a point past 1.8e308 px: beyond double range */
        return;
    }
    gs_end_sub(g, 0);
    g->in_sub = 1;
    g->sx = g->px = x;
    g->sy = g->py = y;
    if (g->ras != NULL) { /* a raster: no clipping (the shape is within RF_GUARD) */
        rf_raster_move(g->ras, x, y);
        return;
    }
    g->run = g->cut = g->first_at_start = g->first_done = 0;
    if (!g->stroke)
        gs_stage(g, 0, x, y);
}

static void gs_line(rf_hsink_t *g, double x, double y)
{
    if (!(isfinite(x) && isfinite(y))) {
        g->imprecise = 1;
        return;
    }
    if (!g->in_sub)
        gs_move(g, g->px, g->py);
    if (g->ras != NULL)
        rf_raster_line(g->ras, x, y);
    else if (g->stroke)
        gs_stroke_segment(g, x, y);
    else
        gs_stage(g, 0, x, y);
    g->px = x;
    g->py = y;
}

static void gs_close(rf_hsink_t *g)
{
    if (!g->in_sub)
        return;
    double sx = g->sx, sy = g->sy;
    gs_end_sub(g, 1);
    g->px = sx;
    g->py = sy;
}

/* Does the box of the n points (x, y pairs) meet the box that matters? */
static int gs_near(const rf_hsink_t *g, const double *pts, int n)
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
static void gs_arc(rf_hsink_t *g, const double c[2], const double u[2], const double v[2],
                   double a0, double a1)
{
    if (g->ras != NULL) {
        if (!g->in_sub)
            gs_move(g, g->px, g->py);
        rf_raster_arc(g->ras, c, u, v, a0, a1, g->tol);
        g->px = c[0] + u[0] * cos(a1) + v[0] * sin(a1);
        g->py = c[1] + u[1] * cos(a1) + v[1] * sin(a1);
        return;
    }
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
            int near = !(err <= g->tol) && gs_near(g, pts, 3);
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
static void gs_curve(rf_hsink_t *g, const double p0[8])
{
    if (g->ras != NULL) { /* a raster: chords at equal steps (rf_raster_cubic) */
        if (!g->in_sub)
            gs_move(g, g->px, g->py);
        if (!rf_raster_cubic(g->ras, p0, g->tol))
            g->imprecise = 1; /* more chords than it takes, or not a number */
        g->px = p0[6];
        g->py = p0[7];
        return;
    }
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
        int near = !(err <= g->tol) && gs_near(g, q, 4);
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
static void gs_layer_arc(rf_hsink_t *g, const cairo_matrix_t *m, double cx, double cy, double q,
                         double a0, double a1)
{
    double c[2], u[2] = { m->xx * q, m->yx * q }, v[2] = { m->xy * q, m->yy * q };
    gs_point(m, cx, cy, c);
    gs_arc(g, c, u, v, a0, a1);
}

/* ---- what the layer types call (shape.h) ---- */

void rf_hsink_move(rf_hsink_t *g, const cairo_matrix_t *m, double x, double y)
{
    double pt[2];
    gs_point(m, x, y, pt);
    gs_move(g, pt[0], pt[1]);
}

void rf_hsink_line(rf_hsink_t *g, const cairo_matrix_t *m, double x, double y)
{
    double pt[2];
    gs_point(m, x, y, pt);
    gs_line(g, pt[0], pt[1]);
}

void rf_hsink_curve(rf_hsink_t *g, const cairo_matrix_t *m, double x1, double y1, double x2,
                    double y2, double x3, double y3)
{
    double q[8] = { g->px, g->py };
    gs_point(m, x1, y1, q + 2);
    gs_point(m, x2, y2, q + 4);
    gs_point(m, x3, y3, q + 6);
    if (!g->in_sub)
        gs_move(g, g->px, g->py);
    gs_curve(g, q);
}

void rf_hsink_arc(rf_hsink_t *g, const cairo_matrix_t *m, double cx, double cy, double q,
                  double a0, double a1)
{
    gs_layer_arc(g, m, cx, cy, q, a0, a1);
}

void rf_hsink_ellipse(rf_hsink_t *g, const cairo_matrix_t *e)
{
    double c[2] = { e->x0, e->y0 }, u[2] = { e->xx, e->yx }, v[2] = { e->xy, e->yy };
    gs_move(g, c[0] + u[0], c[1] + u[1]);
    gs_arc(g, c, u, v, 0, 2 * RF_PI);
    gs_close(g);
}

void rf_hsink_close(rf_hsink_t *g)
{
    gs_close(g);
}

/* ---- what the renderer calls (render-int.h) ---- */

void hsink_init(rf_hsink_t *g, cairo_t *cr, const double v[4], double pad)
{
    memset(g, 0, sizeof *g);
    g->cr = cr;
    g->tol = RF_FLAT_TOL;
    g->g[0] = v[0] - RF_GUARD_MARGIN;
    g->g[1] = v[1] - RF_GUARD_MARGIN;
    g->g[2] = v[2] + RF_GUARD_MARGIN;
    g->g[3] = v[3] + RF_GUARD_MARGIN;
    g->b[0] = v[0] - pad;
    g->b[1] = v[1] - pad;
    g->b[2] = v[2] + pad;
    g->b[3] = v[3] + pad;
}

void hsink_init_raster(rf_hsink_t *g, rf_raster_t *ras, const double v[4])
{
    hsink_init(g, NULL, v, 2);
    g->ras = ras;
    g->tol = RF_RASTER_TOL;
    rf_raster_reset(ras);
}

void hsink_begin(rf_hsink_t *g, int stroke)
{
    if (stroke) {
        memset(g->st, 0, sizeof g->st);
        g->in_sub = 0;
    }
    g->stroke = stroke;
}

void hsink_end(rf_hsink_t *g)
{
    gs_end_sub(g, 0);
}

/* ---- gradients on huge shapes ----
 * cairo hands pixman the device-to-pattern matrix in fixed point: under a
 * layer matrix whose translation is far beyond RF_GUARD (the origin of a
 * rect 1e50 px high) it fails with "out of memory". The gradient is
 * therefore expressed around the canvas instead: the current matrix keeps
 * only m's linear part A (the pen of a stroke depends on nothing else, and
 * the path is already in device space), and the gradient's points are taken
 * relative to o, the layer point at the canvas center. Where the canvas lies
 * wholly past one end of the gradient it is that end's color (what the PAD
 * extend paints); where the gradient's geometry near the canvas is itself
 * beyond RF_GUARD its color changes by less than the canvas's share of it,
 * and the color at the canvas center is painted. */

/* The color at offset t of the stops, straight channels interpolated. */
static void stops_at(const rf_paint_t *p, const double *slots, double t, rf_color_t *c)
{
    const rf_gradient_stop_t *s = p->stops;
    uint32_t n = p->nstops;
    if (!(t > s[0].offset)) {
        *c = rf_colorp_get(&s[0].color, slots);
        return;
    }
    for (uint32_t i = 1; i < n; i++) {
        if (t <= s[i].offset) {
            double span = s[i].offset - s[i - 1].offset;
            double k = span > 0 ? (t - s[i - 1].offset) / span : 1;
            rf_color_t a = rf_colorp_get(&s[i - 1].color, slots);
            rf_color_t b = rf_colorp_get(&s[i].color, slots);
            c->r = a.r + (b.r - a.r) * k;
            c->g = a.g + (b.g - a.g) * k;
            c->b = a.b + (b.b - a.b) * k;
            c->a = a.a + (b.a - a.a) * k;
            return;
        }
    }
    *c = rf_colorp_get(&s[n - 1].color, slots);
}

/* The gradient parameter of layer point (x, y). */
static double grad_t(const rf_paint_t *p, const double g[5], double x, double y)
{
    if (p->kind == RF_PAINT_LINEAR) {
        double dx = g[2] - g[0], dy = g[3] - g[1];
        return ((x - g[0]) * dx + (y - g[1]) * dy) / (dx * dx + dy * dy);
    }
    return hypot(x - g[0], y - g[1]) / g[4];
}

/* Distance from (x, y) to segment a-b. */
static double seg_dist2(double x, double y, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, l = dx * dx + dy * dy;
    double k = l > 0 ? ((x - ax) * dx + (y - ay) * dy) / l : 0;
    k = k < 0 ? 0 : k > 1 ? 1 : k;
    return hypot(x - (ax + k * dx), y - (ay + k * dy));
}

int hsink_gradient_set(cairo_t *cr, const rf_paint_t *p, const double *slots, double alpha,
                       const cairo_matrix_t *m, const double v[4])
{
    if (!(p->kind == RF_PAINT_LINEAR || p->kind == RF_PAINT_RADIAL) || p->nstops == 0)
        return 0;
    double g[5] = { rf_prop_get(&p->p0[0], slots), rf_prop_get(&p->p0[1], slots),
                    rf_prop_get(&p->p1[0], slots), rf_prop_get(&p->p1[1], slots),
                    rf_prop_get(&p->radius, slots) };
    if (p->kind == RF_PAINT_LINEAR) {
        if (!(isfinite(g[0]) && isfinite(g[1]) && isfinite(g[2]) && isfinite(g[3])) ||
            (g[0] == g[2] && g[1] == g[3]) ||
            !isfinite((g[2] - g[0]) * (g[2] - g[0]) + (g[3] - g[1]) * (g[3] - g[1])))
            return 0; /* degenerate: paint_set's last-stop color */
    } else if (!(isfinite(g[0]) && isfinite(g[1]) && isfinite(g[4])) || !(g[4] > 0)) {
        return 0;
    }
    if (fabs(m->x0) <= RF_GUARD && fabs(m->y0) <= RF_GUARD)
        return 0; /* cairo maps it as well as any shape */
    cairo_matrix_t inv = *m;
    if (cairo_matrix_invert(&inv) != CAIRO_STATUS_SUCCESS)
        return 0;
    /* the region (a pixel to spare) in layer coordinates, and its t range */
    double qx[4] = { v[0] - 1, v[2] + 1, v[2] + 1, v[0] - 1 };
    double qy[4] = { v[1] - 1, v[1] - 1, v[3] + 1, v[3] + 1 };
    double t0 = INFINITY, t1 = -INFINITY;
    for (int i = 0; i < 4; i++) {
        cairo_matrix_transform_point(&inv, &qx[i], &qy[i]);
        double t = grad_t(p, g, qx[i], qy[i]);
        t0 = fmin(t0, t);
        t1 = fmax(t1, t);
    }
    if (p->kind == RF_PAINT_RADIAL) { /* the nearest point may be inside an edge */
        int inside = 1;
        double sgn = 0;
        for (int i = 0; i < 4; i++) {
            int j = (i + 1) % 4;
            double cr2 = (qx[j] - qx[i]) * (g[1] - qy[i]) - (qy[j] - qy[i]) * (g[0] - qx[i]);
            if (sgn == 0)
                sgn = cr2;
            else if (cr2 * sgn < 0)
                inside = 0;
            t0 = fmin(t0, seg_dist2(g[0], g[1], qx[i], qy[i], qx[j], qy[j]) / g[4]);
        }
        if (inside)
            t0 = 0;
    }
    rf_color_t c;
    double ox = 0.5 * (v[0] + v[2]), oy = 0.5 * (v[1] + v[3]);
    cairo_matrix_transform_point(&inv, &ox, &oy);
    /* m's largest stretch bounds how far layer distances reach on the device */
    double stretch = fabs(m->xx) + fabs(m->xy) + fabs(m->yx) + fabs(m->yy);
    double reach = p->kind == RF_PAINT_LINEAR
                       ? fmax(hypot(g[0] - ox, g[1] - oy), hypot(g[2] - ox, g[3] - oy))
                       : hypot(g[0] - ox, g[1] - oy) + g[4];
    if (!(t0 < 1 && t1 > 0) || !(t0 == t0 && t1 == t1) || !(reach * stretch <= RF_GUARD)) {
        double t = !(t0 < 1) ? 1 : !(t1 > 0) ? 0 : grad_t(p, g, ox, oy);
        if (!isfinite(t))
            t = 1;
        stops_at(p, slots, t, &c);
        cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a * alpha);
        return 1;
    }
    cairo_pattern_t *pat = p->kind == RF_PAINT_LINEAR
        ? cairo_pattern_create_linear(g[0] - ox, g[1] - oy, g[2] - ox, g[3] - oy)
        : cairo_pattern_create_radial(g[0] - ox, g[1] - oy, 0, g[0] - ox, g[1] - oy, g[4]);
    for (uint32_t i = 0; i < p->nstops; i++) {
        const rf_gradient_stop_t *st = &p->stops[i];
        rf_color_t sc = rf_colorp_get(&st->color, slots);
        cairo_pattern_add_color_stop_rgba(pat, st->offset, sc.r, sc.g, sc.b, sc.a);
    }
    cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD);
    /* user space under A alone: u = A^-1 X; the pattern is u - A^-1 Xc */
    cairo_matrix_t a = { m->xx, m->yx, m->xy, m->yy, 0, 0 }, pm;
    double ux = 0.5 * (v[0] + v[2]), uy = 0.5 * (v[1] + v[3]);
    cairo_matrix_t ainv = a;
    cairo_matrix_invert(&ainv);
    cairo_matrix_transform_point(&ainv, &ux, &uy);
    cairo_matrix_init_translate(&pm, -ux, -uy);
    cairo_pattern_set_matrix(pat, &pm);
    cairo_set_matrix(cr, &a);
    cairo_set_source(cr, pat);
    cairo_pattern_destroy(pat);
    return 1;
}
