/* offset.c - a stroke's outline around a closed polygon (offset.h). */
#include "offset.h"

#include <math.h>
#include <stddef.h>

#define RF_PI 3.14159265358979323846
#define EDGE_EPS2 1e-12  /* an edge shorter than 1e-6 px is none */
#define KEEP 1e-7        /* px an edge keeps at least on either side */

/* Edge k (point k to point k + 1, the last to the first): its unit
 * vector into d and its length, 0 when it is shorter than 1e-6 px. */
static double edge_dir(const double *xy, uint32_t n, uint32_t k, double d[2])
{
    uint32_t j = k + 1 < n ? k + 1 : 0;
    double dx = xy[2 * j] - xy[2 * k], dy = xy[2 * j + 1] - xy[2 * k + 1];
    double l2 = dx * dx + dy * dy;
    if (!(l2 >= EDGE_EPS2)) /* NaN too */
        return 0;
    double l = sqrt(l2);
    d[0] = dx / l;
    d[1] = dy / l;
    return l;
}

/* The last edge with a length (k < n), or n when there is none. */
static uint32_t last_edge(const double *xy, uint32_t n, double d[2], double *len)
{
    for (uint32_t k = n; k-- > 0;)
        if ((*len = edge_dir(xy, n, k, d)) > 0)
            return k;
    return n;
}

/* The turn from direction a to direction b, s the polygon's orientation
 * (1 or -1): its sine (s times the cross product) and cosine. */
static void turn(const double a[2], const double b[2], double s, double *sn, double *cs)
{
    *sn = s * (a[0] * b[1] - a[1] * b[0]);
    *cs = a[0] * b[0] + a[1] * b[1];
}

/* Does each edge keep a length on both sides, between the offsets of the
 * edges before and after it (an offset is cut short by hw tan(turn / 2)
 * at a vertex on the side inside its turn)? No turn goes back on itself,
 * the turns add up to once around (the edges' direction, turned by s,
 * crosses +x upward once more than downward), *convex says whether every
 * turn goes the polygon's way. s its orientation. */
static int edges_keep(const double *xy, uint32_t n, double hw, double s, int *convex)
{
    double da[2], db[2], la, lb;
    if (last_edge(xy, n, da, &la) == n)
        return 0;
    /* cut[0], cut[1]: what edge a loses at its start, outside and inside */
    double cut[2] = { 0, 0 }, first[2] = { 0, 0 };
    uint32_t m = 0;
    int wind = 0;
    *convex = 1;
    for (uint32_t k = 0; k < n; k++) {
        if ((lb = edge_dir(xy, n, k, db)) == 0)
            continue;
        double sn, cs;
        turn(da, db, s, &sn, &cs);
        if (!(1 + cs > 1e-9))
            return 0;   /* back on itself (or NaN) */
        double t = hw * fabs(sn) / (1 + cs), c[2] = { sn < 0 ? t : 0, sn > 0 ? t : 0 };
        *convex &= sn >= 0; /* a turn the other way, however small: the certificate */
        double ya = s * da[1], yb = s * db[1];
        if ((ya < 0) != (yb < 0) && da[0] + (db[0] - da[0]) * (ya / (ya - yb)) > 0)
            wind += yb >= 0 ? 1 : -1;
        if (m == 0) {
            first[0] = c[0];
            first[1] = c[1];
        } else if (!(la - cut[0] - c[0] > KEEP && la - cut[1] - c[1] > KEEP)) {
            return 0;   /* edge a vanishes on a side */
        }
        m++;
        cut[0] = c[0];
        cut[1] = c[1];
        la = lb;
        da[0] = db[0];
        da[1] = db[1];
    }
    /* edge a is the last again: it ends at the first vertex */
    return m >= 3 && la - cut[0] - first[0] > KEEP && la - cut[1] - first[1] > KEEP &&
           wind == 1;
}

/* One vertex's points on side sg (1 outside, -1 inside). Where the side
 * is inside the turn: the meeting point of the two edges' offsets. Else
 * the join, from the end of the offset of edge a (normal na) to the start
 * of b's (nb): a miter is its tip alone (the ends lie on the lines to and
 * from it), and so is any join whose tip stands out of the bevel by at
 * most tol / 8 (the turns of a flattened curve: every join is within
 * tol / 8 of the others there); a bevel its two ends; a round join the
 * ends and its arc cut into chords within tol. Backwards when rev (the
 * inner contour runs backwards). */
typedef struct ring_style {
    rf_offset_join_t join;
    double limit, hw, tol, step, s; /* step: a round join's chord angle */
} ring_style_t;

static void vertex_points(rf_raster_t *out, const ring_style_t *st, double vx, double vy,
                          const double na[2], const double nb[2], double sn, double cs, double sg,
                          int rev, int *first)
{
    double h = sg * st->hw, f = h / (1 + cs);
    double pts[2][2] = { { vx + h * na[0], vy + h * na[1] }, { vx + h * nb[0], vy + h * nb[1] } };
    double mid[2] = { vx + f * (na[0] + nb[0]), vy + f * (na[1] + nb[1]) };
    int join = sg * sn > 0;
    uint32_t cnt = 1;
    double th = 0;
    if (join) {
        /* the tip stands hw sin^2(turn / 2) / cos(turn / 2) out */
        double stand = st->hw * 0.5 * (1 - cs) / sqrt(0.5 * (1 + cs));
        if ((st->join == RF_OFFSET_MITER && 2 <= st->limit * st->limit * (1 + cs)) ||
            stand <= st->tol / 8)
            join = 0; /* the tip alone */
        else if (st->join == RF_OFFSET_ROUND) {
            th = atan2(sn, cs);
            double a = fabs(th);
            /* more chords than a raster takes make it unusable anyway */
            cnt = a > st->step ? (uint32_t)fmin(ceil(a / st->step), RF_RASTER_MAX_POINTS) : 1;
        }
    }
    int np = join ? 1 + (int)cnt : 1;
    for (int i = 0; i < np; i++) {
        int j = rev ? np - 1 - i : i;
        double x, y;
        if (!join) {
            x = mid[0];
            y = mid[1];
        } else if (j == 0 || j == np - 1) {
            x = pts[j != 0][0];
            y = pts[j != 0][1];
        } else { /* the arc: na turned toward nb by j of cnt parts */
            double al = st->s * th * j / cnt, c = cos(al), si = sin(al);
            x = vx + h * (na[0] * c - na[1] * si);
            y = vy + h * (na[0] * si + na[1] * c);
        }
        if (*first)
            rf_raster_move(out, x, y);
        else
            rf_raster_line(out, x, y);
        *first = 0;
    }
}

/* ---- the certificate for a polygon with turns both ways ----
 * Its outline is right when both contours are star-shaped around o (each
 * point further round it than the one before, once around in all) and
 * every point of each lies on the proper side of the other's edge that
 * spans its direction: then neither contour crosses itself or the other.
 * Both are read in the same angular direction s (the inner one backwards:
 * it was added reversed). */

static double cross_o(const double *o, const double *p, const double *q)
{
    return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0]);
}

/* Point i of a contour of n points at xy, read forwards or backwards. */
static const double *at(const double *xy, uint32_t n, uint32_t i, int back)
{
    i = i < n ? i : i - n; /* i < 2 n */
    return xy + 2 * (back ? n - 1 - i : i);
}

static int star(const double *xy, uint32_t n, int back, const double *o, double s)
{
    uint32_t crossings = 0;
    for (uint32_t i = 0; i < n; i++) {
        const double *p = at(xy, n, i, back), *q = at(xy, n, i + 1, back);
        if (!(s * cross_o(o, p, q) > 0))
            return 0;
        /* the ray from o along +x: crossed going the way s turns */
        double py = s * (p[1] - o[1]), qy = s * (q[1] - o[1]);
        crossings += py < 0 && qy >= 0 && p[0] + (q[0] - p[0]) * (-py / (qy - py)) > o[0];
    }
    return crossings == 1;
}

/* Every point of contour p (np points) on side want (1: left of, -1:
 * right of, times s) of the edge of contour q that spans its direction
 * from o. Both star-shaped around o, read the same way. */
static int beside(const double *pxy, uint32_t np, int pback, const double *qxy, uint32_t nq,
                  int qback, const double *o, double s, double want)
{
    uint32_t k = 0, steps = 0;
    for (uint32_t i = 0; i < np; i++) {
        const double *p = at(pxy, np, i, pback);
        /* the edge k .. k + 1 of q whose cone from o holds p */
        for (;;) {
            const double *a = at(qxy, nq, k, qback), *b = at(qxy, nq, k + 1, qback);
            if (s * cross_o(o, a, p) >= 0 && s * cross_o(o, p, b) > 0) {
                double side = s * ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]));
                if (!(want * side > 0))
                    return 0;
                break;
            }
            k = k + 1 < nq ? k + 1 : 0;
            if (++steps > 2 * nq + 2 * np)
                return 0;   /* cannot happen for star-shaped contours */
        }
    }
    return 1;
}

int rf_offset_ring(rf_raster_t *out, const double *xy, uint32_t n, double hw,
                   rf_offset_join_t join, double miter_limit, double tol)
{
    if (n < 3 || !(hw > 0 && hw < 1e7) || !(tol > 0))
        return 1;
    /* the orientation and the centroid: the signed area, around the first
     * point */
    double a2 = 0, cx = 0, cy = 0, ox = xy[0], oy = xy[1];
    for (uint32_t k = 1; k + 1 < n; k++) {
        double px = xy[2 * k] - ox, py = xy[2 * k + 1] - oy;
        double qx = xy[2 * k + 2] - ox, qy = xy[2 * k + 3] - oy, c = px * qy - qx * py;
        a2 += c;
        cx += (px + qx) * c;
        cy += (py + qy) * c;
    }
    if (!(a2 != 0 && isfinite(a2)))
        return 1;
    double s = a2 > 0 ? 1 : -1;
    int convex;
    if (!edges_keep(xy, n, hw, s, &convex))
        return 1;
    ring_style_t st = { join, miter_limit, hw, tol, RF_PI / 2, s };
    if (join == RF_OFFSET_ROUND && tol < hw) /* a chord of angle h strays hw (1 - cos(h / 2)) */
        st.step = 2 * acos(1 - tol / hw);

    /* the outer contour forwards, the inner one backwards: vertex k is
     * where edge a ends and edge b (from point k) starts */
    uint32_t n0 = 0;
    for (int side = 0; side < 2; side++) {
        double sg = side == 0 ? 1 : -1, da[2], db[2], len;
        int first = 1;
        if (side == 0) {
            (void)last_edge(xy, n, da, &len);
        } else {
            uint32_t k0 = 0;
            while (edge_dir(xy, n, k0, db) == 0)
                k0++;   /* edges_keep found edges */
        }
        for (uint32_t i = 0; i < n; i++) {
            /* forwards: b is edge i; backwards: a is edge k, b the one after */
            uint32_t k = side == 0 ? i : n - 1 - i;
            double *e = side == 0 ? db : da, *keep = side == 0 ? da : db;
            if (edge_dir(xy, n, k, e) == 0)
                continue;
            uint32_t v = side == 0 ? k : (k + 1 < n ? k + 1 : 0);
            double sn, cs;
            turn(da, db, s, &sn, &cs);
            double na[2] = { s * da[1], -s * da[0] }, nb[2] = { s * db[1], -s * db[0] };
            vertex_points(out, &st, xy[2 * v], xy[2 * v + 1], na, nb, sn, cs, sg, side, &first);
            keep[0] = e[0];
            keep[1] = e[1];
        }
        if (side == 0) {
            const double *p0 = NULL;
            n0 = rf_raster_polygon(out, &p0);
        }
    }
    /* the points as added: none when the raster took no more (too many
     * points, no memory) */
    const double *p = NULL;
    uint32_t nall = rf_raster_points(out, &p);
    if (p == NULL || n0 < 3 || nall < n0 + 3) {
        rf_raster_reset(out);
        return 1;
    }
    if (convex)
        return 0;   /* offsets of a convex polygon whose edges keep: proven */

    /* turns both ways: the certificate */
    double o[2] = { ox + cx / (3 * a2), oy + cy / (3 * a2) };
    if (star(p, n0, 0, o, s) && star(p + 2 * n0, nall - n0, 1, o, s) &&
        beside(p + 2 * n0, nall - n0, 1, p, n0, 0, o, s, 1) &&
        beside(p, n0, 0, p + 2 * n0, nall - n0, 1, o, s, -1))
        return 0;
    rf_raster_reset(out);
    return 1;
}

/* ---- open polylines ---- */

/* Where a side of an open stroke starts or ends: the path's end point p
 * offset by sg hw along the normal of its edge d, moved by ext along d
 * (a square cap: hw outwards). */
static void cap_point(rf_raster_t *out, const double *p, const double d[2], double sg, double hw,
                      double ext, int *first)
{
    double x = p[0] + sg * hw * d[1] + ext * d[0], y = p[1] - sg * hw * d[0] + ext * d[1];
    if (*first)
        rf_raster_move(out, x, y);
    else
        rf_raster_line(out, x, y);
    *first = 0;
}

/* An open polyline as open_side reads it: its edges, and before and
 * after them its end directions when given (a curve's tangents at its
 * ends, where the caps stand square to it, as cairo's do; the first and
 * last edges' own directions otherwise). */
typedef struct open_path {
    const double *xy;
    uint32_t n;
    double d0[2], d1[2];
    int has0, has1;
} open_path_t;

/* Edge i of p (1 .. n - 1: from point i - 1 to point i): its unit vector
 * into e; 0 when it is shorter than 1e-6 px. */
static int open_edge(const open_path_t *p, uint32_t i, double e[2])
{
    return edge_dir(p->xy, p->n, i - 1, e) > 0;
}

/* Side sg's points at the path's start (start 1) or end (0), at point v,
 * its edge there e, in the order a side read forwards (rev 0) or
 * backwards (rev 1) takes them. No direction given (dir NULL): the cap's
 * corner. Else the cap stands square to dir: on the side outside the turn
 * between dir and e, the cap's corner, then the join to e's offset; on
 * the side inside it, where e's offset meets the cap's line (the corner
 * and the join's meeting point would lie behind the cap). 0, or 1 when e
 * turns back on dir. A square cap is dir's edge, hw long: both sides
 * join it as edges join. */
static int open_end(rf_raster_t *out, const ring_style_t *st, const double *v, const double *dir,
                    const double e[2], double sg, double ext, int start, int rev, int *first)
{
    double hw = st->hw, x = start ? -ext : ext;
    const double *d = dir != NULL ? dir : e;
    double cx = v[0] + sg * hw * d[1] + x * d[0], cy = v[1] - sg * hw * d[0] + x * d[1];
    double sn = 0, cs = 1;
    if (dir != NULL) {
        turn(start ? dir : e, start ? e : dir, 1, &sn, &cs);
        if (!(1 + cs > 1e-9))
            return 1;
    }
    if (dir == NULL || sn == 0) {
        cap_point(out, (double[2]){ cx, cy }, (double[2]){ 1, 0 }, 0, 0, 0, first);
        return 0;
    }
    if (sg * sn < 0 && x == 0) { /* a butt cap inside the turn: e's offset line across it */
        double qx = v[0] + sg * hw * e[1], qy = v[1] - sg * hw * e[0];
        double t = ((v[0] + x * d[0] - qx) * d[0] + (v[1] + x * d[1] - qy) * d[1]) /
                   (e[0] * d[0] + e[1] * d[1]);
        cap_point(out, (double[2]){ qx + t * e[0], qy + t * e[1] }, (double[2]){ 1, 0 }, 0, 0, 0,
                  first);
        return 0;
    }
    if (hw * fabs(sn) / (1 + cs) < 1.0 / 32) {
        /* the join's tip within 1/32 px of the corner (a curve's first
         * chord turns little from its tangent): the corner alone, not two
         * points the rounding to 1/64 px could make one */
        cap_point(out, (double[2]){ cx, cy }, (double[2]){ 1, 0 }, 0, 0, 0, first);
        return 0;
    }
    double na[2] = { (start ? d : e)[1], -(start ? d : e)[0] };
    double nb[2] = { (start ? e : d)[1], -(start ? e : d)[0] };
    if (start != rev) /* the corner first */
        cap_point(out, (double[2]){ cx, cy }, (double[2]){ 1, 0 }, 0, 0, 0, first);
    vertex_points(out, st, v[0], v[1], na, nb, sn, cs, sg, rev, first);
    if (start == rev)
        cap_point(out, (double[2]){ cx, cy }, (double[2]){ 1, 0 }, 0, 0, 0, first);
    return 0;
}

/* One side of an open stroke: sg 1 forwards (the normal (dy, -dx) of each
 * edge), -1 backwards (the other normal), from cap to cap. 0, or 1 when
 * an edge turns back on the one before it. */
static int open_side(rf_raster_t *out, const ring_style_t *st, const open_path_t *p, double sg,
                     double ext, int *first)
{
    const double *xy = p->xy;
    double da[2], db[2], e[2];
    int have = 0, back = sg < 0;
    uint32_t vb = 0, end = 0;   /* vb backwards: the later edge's first point */
    for (uint32_t j = 1; j < p->n; j++) {
        uint32_t i = back ? p->n - j : j, from = i - 1, to = i;
        if (!open_edge(p, i, e))
            continue;
        double *cur = back ? da : db, *other = back ? db : da;
        cur[0] = e[0];
        cur[1] = e[1];
        if (!have) {   /* the start cap (forwards) or the end cap (backwards) */
            if (open_end(out, st, xy + 2 * (back ? to : from), (back ? p->has1 : p->has0)
                             ? (back ? p->d1 : p->d0) : NULL,
                         e, sg, ext, !back, back, first) != 0)
                return 1;
            have = 1;
        } else {
            double sn, cs;
            turn(da, db, 1, &sn, &cs);
            if (!(1 + cs > 1e-9))
                return 1;   /* back on itself (or NaN) */
            uint32_t v = back ? vb : from;
            double na[2] = { da[1], -da[0] }, nb[2] = { db[1], -db[0] };
            vertex_points(out, st, xy[2 * v], xy[2 * v + 1], na, nb, sn, cs, sg, back, first);
        }
        other[0] = e[0];
        other[1] = e[1];
        vb = from;
        end = back ? from : to;
    }
    if (!have)
        return 1;
    /* the last edge seen: forwards the path's last (da), backwards its
     * first (db) */
    return open_end(out, st, xy + 2 * end, (back ? p->has0 : p->has1) ? (back ? p->d0 : p->d1) : NULL,
                    back ? db : da, sg, ext, back, back, first);
}

/* Does every edge's rectangle (the pen along it) lie forwards of the start
 * cap's line and backwards of the end cap's, but for a 1/256 px? The
 * outline stops at the caps; cairo's stroke is those rectangles and the
 * joins, and after a short first edge and a turn the next edge's
 * rectangle can stand out behind the start cap (a trim stopping just
 * past a corner). The cap's own edge is left out when a direction stands
 * for it (a curve's tangent: its first chord's corners lie a little
 * behind the square cap, as the curve does not). */
static int caps_hold(const open_path_t *p, double hw, double ext)
{
    const double *xy = p->xy;
    double d0[2], d1[2], e[2];
    uint32_t first = UINT32_MAX, last = 0;
    for (uint32_t i = 1; i < p->n; i++)
        if (open_edge(p, i, e)) {
            if (first == UINT32_MAX) {
                first = i;
                d0[0] = e[0];
                d0[1] = e[1];
            }
            last = i;
            d1[0] = e[0];
            d1[1] = e[1];
        }
    if (first == UINT32_MAX)
        return 0;
    uint32_t f0 = first - 1, t1 = last; /* the first edge's start, the last's end */
    if (p->has0) {
        d0[0] = p->d0[0];
        d0[1] = p->d0[1];
    }
    if (p->has1) {
        d1[0] = p->d1[0];
        d1[1] = p->d1[1];
    }
    /* the cap lines: through the ends, moved out by ext (square caps) */
    double s0x = xy[2 * f0] - ext * d0[0], s0y = xy[2 * f0 + 1] - ext * d0[1];
    double s1x = xy[2 * t1] + ext * d1[0], s1y = xy[2 * t1 + 1] + ext * d1[1];
    const double tol = 1.0 / 256;
    for (uint32_t i = first; i <= last; i++) {
        if (!open_edge(p, i, e))
            continue;
        uint32_t from = i - 1, to = i;
        for (int end = 0; end < 2; end++) {
            if ((i == first && end == 0 && p->has0) || (i == last && end == 1 && p->has1))
                continue;
            const double *q = xy + 2 * (end ? to : from);
            for (int sd = -1; sd <= 1; sd += 2) {
                double cx = q[0] + sd * hw * e[1], cy = q[1] - sd * hw * e[0];
                if (!((cx - s0x) * d0[0] + (cy - s0y) * d0[1] >= -tol &&
                      (cx - s1x) * d1[0] + (cy - s1y) * d1[1] <= tol))
                    return 0;
            }
        }
    }
    return 1;
}

/* A side of the contour read along the axis: its points (indices base ..
 * base + n - 1 of the raster, backwards when back), with the other side's
 * first or last point before or after them when the cap is counted as
 * this side's edge. u runs along the axis (s times x, or y), v across. */
typedef struct chain {
    const rf_raster_t *r;
    uint32_t base, n;
    int back, axis, s;
    int pre, post;
    int64_t pu, pv, qu, qv;   /* the point before, the point after */
} chain_t;

static uint32_t chain_len(const chain_t *c)
{
    return c->n + (uint32_t)c->pre + (uint32_t)c->post;
}

static void chain_at(const chain_t *c, uint32_t i, int64_t *u, int64_t *v)
{
    if (c->pre && i == 0) {
        *u = c->pu;
        *v = c->pv;
        return;
    }
    i -= (uint32_t)c->pre;
    if (i == c->n) {
        *u = c->qu;
        *v = c->qv;
        return;
    }
    int64_t p[2] = { 0, 0 };
    (void)rf_raster_point_fixed(c->r, c->base + (c->back ? c->n - 1 - i : i), p);
    *u = c->s * p[c->axis];
    *v = p[1 - c->axis];
}

/* Every point of c strictly further along u than the one before. */
static int chain_runs(const chain_t *c)
{
    int64_t u0, v0, u1, v1;
    uint32_t m = chain_len(c);
    chain_at(c, 0, &u0, &v0);
    for (uint32_t i = 1; i < m; i++, u0 = u1) {
        chain_at(c, i, &u1, &v1);
        if (!(u1 > u0))
            return 0;
    }
    return 1;
}

/* Every point of p but its ends strictly on side want (1: larger v) of
 * the edge of q over it; both run along u over the same range. */
static int chain_beside(const chain_t *p, const chain_t *q, int want)
{
#if defined(__SIZEOF_INT128__)
    uint32_t np = chain_len(p), nq = chain_len(q), j = 0;
    int64_t au, av, bu, bv;
    chain_at(q, 0, &au, &av);
    chain_at(q, 1, &bu, &bv);
    for (uint32_t i = 1; i + 1 < np; i++) {
        int64_t u, v;
        chain_at(p, i, &u, &v);
        while (bu < u) {
            if (++j + 1 >= nq)
                return 0;   /* past q's end: not over the same range */
            au = bu;
            av = bv;
            chain_at(q, j + 1, &bu, &bv);
        }
        if (u < au)
            return 0;
        __int128 side = (__int128)(bu - au) * (v - av) - (__int128)(bv - av) * (u - au);
        if (!(want > 0 ? side > 0 : side < 0))
            return 0;
    }
    return 1;
#else
    (void)p;
    (void)q;
    (void)want;
    return 0;   /* no exact 128-bit products: not shown */
#endif
}

/* The two sides of an open stroke's contour (info's first side, then the
 * other backwards) read along its axis, each cap counted as the first
 * (last) edge of the side that starts later (ends sooner) along it, so
 * both span the same range; *ps, *pe the sides that took the caps (NULL:
 * a cap across the axis), ends[] the sides' own first and last points
 * (a0 u v, b0 u v, a1 u v, b1 u v). */
static void open_chains(const rf_raster_t *out, const rf_offset_open_info_t *info, chain_t *a,
                        chain_t *b, chain_t **ps, chain_t **pe, int64_t ends[8])
{
    *a = (chain_t){ out, 0, info->n0, 0, info->axis, info->s, 0, 0, 0, 0, 0, 0 };
    *b = (chain_t){ out, info->n0, info->nall - info->n0, 1, info->axis, info->s, 0, 0, 0, 0, 0, 0 };
    chain_at(a, 0, &ends[0], &ends[1]);
    chain_at(b, 0, &ends[2], &ends[3]);
    chain_at(a, a->n - 1, &ends[4], &ends[5]);
    chain_at(b, b->n - 1, &ends[6], &ends[7]);
    *ps = ends[0] < ends[2] ? b : ends[2] < ends[0] ? a : NULL;
    if (*ps != NULL) {
        (*ps)->pre = 1;
        (*ps)->pu = *ps == b ? ends[0] : ends[2];
        (*ps)->pv = *ps == b ? ends[1] : ends[3];
    }
    *pe = ends[4] > ends[6] ? b : ends[6] > ends[4] ? a : NULL;
    if (*pe != NULL) {
        (*pe)->post = 1;
        (*pe)->qu = *pe == b ? ends[4] : ends[6];
        (*pe)->qv = *pe == b ? ends[5] : ends[7];
    }
}

/* The certificate of an open stroke's contour on its points as
 * rasterized. */
static int open_simple(const rf_raster_t *out, const rf_offset_open_info_t *info)
{
    chain_t a, b, *ps, *pe;
    int64_t e[8];
    open_chains(out, info, &a, &b, &ps, &pe, e);
    int64_t a0v = e[1], b0v = e[3], a1v = e[5], b1v = e[7];
    if (!chain_runs(&a) || !chain_runs(&b) || chain_len(&a) < 2 || chain_len(&b) < 2)
        return 0;
    /* which side lies above: the first point that tells */
    int want = 0;
    if (ps == NULL)
        want = a0v > b0v ? 1 : a0v < b0v ? -1 : 0;
    else if (pe == NULL)
        want = a1v > b1v ? 1 : a1v < b1v ? -1 : 0;
    else {
        /* both caps along u: a's second point against b's first edge */
        chain_t *x = chain_len(&a) > 2 ? &a : &b;
        int w = x == &a ? 1 : -1;
        int64_t u, v, qu0, qv0, qu1, qv1;
        const chain_t *y = x == &a ? &b : &a;
        chain_at(x, 1, &u, &v);
        uint32_t j = 0, ny = chain_len(y);
        chain_at(y, 0, &qu0, &qv0);
        chain_at(y, 1, &qu1, &qv1);
        while (qu1 < u && j + 2 < ny) {
            j++;
            qu0 = qu1;
            qv0 = qv1;
            chain_at(y, j + 1, &qu1, &qv1);
        }
        double side = (double)(qu1 - qu0) * (double)(v - qv0) - (double)(qv1 - qv0) * (double)(u - qu0);
        want = side > 0 ? w : side < 0 ? -w : 0;
    }
    if (want == 0)
        return 0;
    /* caps across u: the sides' ends apart the same way */
    if ((ps == NULL && !(want * (a0v - b0v) > 0)) || (pe == NULL && !(want * (a1v - b1v) > 0)))
        return 0;
    return chain_beside(&a, &b, want) && chain_beside(&b, &a, -want);
}

int rf_offset_open(rf_raster_t *out, const double *xy, uint32_t n, const double *dir0,
                   const double *dir1, double hw, rf_offset_join_t join, double miter_limit,
                   rf_offset_cap_t cap, double tol, rf_offset_open_info_t *info)
{
    if (n < 2 || !(hw > 0 && hw < 1e7) || !(tol > 0))
        return 1;
    open_path_t path = { xy, n, { 0, 0 }, { 0, 0 }, 0, 0 };
    for (int k = 0; k < 2; k++) {
        const double *d = k == 0 ? dir0 : dir1;
        double l = d != NULL ? hypot(d[0], d[1]) : 0;
        if (l > 0 && isfinite(l)) {
            double *u = k == 0 ? path.d0 : path.d1;
            u[0] = d[0] / l;
            u[1] = d[1] / l;
            *(k == 0 ? &path.has0 : &path.has1) = 1;
        }
    }
    /* the axis the points run along one way, and which way */
    int axis = -1, s = 0;
    for (int ax = 0; ax < 2 && axis < 0; ax++) {
        int sg = 0, ok = 1;
        double d[2];
        for (uint32_t k = 0; k + 1 < n && ok; k++) {
            if (edge_dir(xy, n, k, d) == 0)
                continue;
            double t = xy[2 * (k + 1) + ax] - xy[2 * k + ax];
            int here = t > 0 ? 1 : t < 0 ? -1 : 0;
            ok = here != 0 && (sg == 0 || here == sg);
            sg = here;
        }
        if (ok && sg != 0) {
            axis = ax;
            s = sg;
        }
    }
    if (axis < 0)
        return 1;
    ring_style_t st = { join, miter_limit, hw, tol, RF_PI / 2, 1 };
    if (join == RF_OFFSET_ROUND && tol < hw)
        st.step = 2 * acos(1 - tol / hw);
    double ext = cap == RF_OFFSET_SQUARE ? hw : 0;
    if (!caps_hold(&path, hw, ext))
        return 1;
    int first = 1;
    if (open_side(out, &st, &path, 1, ext, &first) != 0) {
        rf_raster_reset(out);
        return 1;
    }
    const double *p = NULL;
    uint32_t n0 = rf_raster_points(out, &p);
    if (open_side(out, &st, &path, -1, ext, &first) != 0) {
        rf_raster_reset(out);
        return 1;
    }
    uint32_t nall = rf_raster_points(out, &p);
    rf_offset_open_info_t oi = { n0, nall, axis, s };
    if (p == NULL || n0 < 2 || nall < n0 + 2 || !open_simple(out, &oi)) {
        rf_raster_reset(out);
        return 1;
    }
    if (info != NULL)
        *info = oi;
    return 0;
}

/* Point i of c into piece, back on the device (1/64 px, exact). */
static void piece_point(rf_raster_t *piece, const chain_t *c, uint32_t i, int first)
{
    int64_t u, v;
    chain_at(c, i, &u, &v);
    double along = (double)(c->s * u) / 64, across = (double)v / 64;
    double x = c->axis == 0 ? along : across, y = c->axis == 0 ? across : along;
    (first ? rf_raster_move : rf_raster_line)(piece, x, y);
}

/* The index of the last point of c at or before u = lo, from i on. */
static uint32_t chain_seek(const chain_t *c, uint32_t i, int64_t lo)
{
    uint32_t m = chain_len(c);
    int64_t u, v;
    while (i + 1 < m) {
        chain_at(c, i + 1, &u, &v);
        if (u > lo)
            break;
        i++;
    }
    return i;
}

/* The index of the first point of c at or after u = hi, from i on (its
 * last when none is). */
static uint32_t chain_reach(const chain_t *c, uint32_t i, int64_t hi)
{
    uint32_t m = chain_len(c);
    int64_t u, v;
    for (; i + 1 < m; i++) {
        chain_at(c, i, &u, &v);
        if (u >= hi)
            break;
    }
    return i;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    return a >= 0 ? a / b : -((b - 1 - a) / b);
}

int rf_offset_open_pieces(const rf_raster_t *src, const rf_offset_open_info_t *info, int px,
                          rf_raster_t *piece,
                          int (*fill)(void *ctx, rf_raster_t *piece, int64_t c0, int64_t c1),
                          void *ctx)
{
    chain_t a, b, *ps, *pe;
    int64_t e[8], u0, u1, v;
    open_chains(src, info, &a, &b, &ps, &pe, e);
    uint32_t na = chain_len(&a), ia = 0, ib = 0;
    chain_at(&a, 0, &u0, &v);
    chain_at(&a, na - 1, &u1, &v);
    /* slabs at least half as wide as the longest edge: a piece keeps every
     * edge over its slab whole, and FreeType walks all of an edge's cells
     * (a line across 256 slabs was walked 256 times) */
    int64_t longest = 0;
    for (int c = 0; c < 2; c++) {
        const chain_t *ch = c ? &b : &a;
        int64_t pu, qu;
        chain_at(ch, 0, &pu, &v);
        for (uint32_t i = 1; i < chain_len(ch); i++, pu = qu) {
            chain_at(ch, i, &qu, &v);
            longest = qu - pu > longest ? qu - pu : longest;
        }
    }
    int64_t P = (int64_t)px * 64;
    if (longest > 4 * P)
        P = (longest / 2 + 63) / 64 * 64;
    px = (int)(P / 64);
    /* slab k: u in [k P, (k + 1) P]; on the device the columns (rows)
     * [k px, (k + 1) px) running forwards, [-(k + 1) px, -k px) backwards */
    for (int64_t k = floor_div(u0, P); k * P < u1; k++) {
        int64_t lo = k * P, hi = lo + P;
        ia = chain_seek(&a, ia, lo);
        ib = chain_seek(&b, ib, lo);
        uint32_t ja = chain_reach(&a, ia, hi), jb = chain_reach(&b, ib, hi);
        rf_raster_reset(piece);
        for (uint32_t i = ia; i <= ja; i++)
            piece_point(piece, &a, i, i == ia);
        for (uint32_t i = jb + 1; i-- > ib;)
            piece_point(piece, &b, i, 0);
        int64_t c0 = info->s > 0 ? k * px : -(k + 1) * px;
        int st = fill(ctx, piece, c0, c0 + px);
        if (st != 0)
            return st;
    }
    return 0;
}
