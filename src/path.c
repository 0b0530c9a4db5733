/* path.c - SVG path measurement, queries, arc-length sampling and
 * trimming (the parser is path-parse.c).
 *
 * See path.h for the contract. Layout of a parsed path: one block from the
 * caller's allocator holding struct rf_path, the knots, the points and the
 * segment descriptors (path-int.h).
 */
#include "path.h"

#include "path-int.h"
#include "roots.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static_assert(sizeof(rf_path_seg_t) == 12, "segment descriptors are 12 bytes (seed 000)");
static_assert(sizeof(rf_path_knot_t) == 16, "knots are 16 bytes (double length, see path.h)");



/* Subdivision: knot t values are k / 2^depth, exact in a float up to 24.
 * A piece is accepted when 8-point Gauss-Legendre on it agrees with the sum
 * over its halves to LEN_EPS of the segment's control-polygon length, and
 * its speed (at both ends and all 16 nodes) ranges over at most SPEED_TOL
 * of its mean speed, so linear interpolation of t starts within a few
 * percent of the piece and two Halley steps finish the job. */
#define MAX_DEPTH 24
#define LEN_EPS 1e-13
#define SPEED_TOL 0.3
#define TINY_PIECE 1e-10     /* shorter pieces (relative) end the split anyway */
#define HALLEY_STEPS 2

#define RAD2DEG 57.295779513082320876798154814105

/* ---- Bezier evaluation (Bernstein form; deg 1, 2 or 3; P = x,y pairs) ---- */

int path_kind_degree(int kind)
{
    return kind == RF_PATH_QUAD ? 2 : kind == RF_PATH_CUBIC ? 3 : 1;
}

static void bez_point(int deg, const double *P, double t, double *x, double *y)
{
    double s = 1.0 - t;
    if (deg == 1) {
        *x = s * P[0] + t * P[2];
        *y = s * P[1] + t * P[3];
    } else if (deg == 2) {
        double b0 = s * s, b1 = 2.0 * s * t, b2 = t * t;
        *x = b0 * P[0] + b1 * P[2] + b2 * P[4];
        *y = b0 * P[1] + b1 * P[3] + b2 * P[5];
    } else {
        double b0 = s * s * s, b1 = 3.0 * s * s * t, b2 = 3.0 * s * t * t, b3 = t * t * t;
        *x = b0 * P[0] + b1 * P[2] + b2 * P[4] + b3 * P[6];
        *y = b0 * P[1] + b1 * P[3] + b2 * P[5] + b3 * P[7];
    }
}

static void bez_d1(int deg, const double *P, double t, double *dx, double *dy)
{
    double s = 1.0 - t;
    if (deg == 1) {
        *dx = P[2] - P[0];
        *dy = P[3] - P[1];
    } else if (deg == 2) {
        *dx = 2.0 * (s * (P[2] - P[0]) + t * (P[4] - P[2]));
        *dy = 2.0 * (s * (P[3] - P[1]) + t * (P[5] - P[3]));
    } else {
        double b0 = s * s, b1 = 2.0 * s * t, b2 = t * t;
        *dx = 3.0 * (b0 * (P[2] - P[0]) + b1 * (P[4] - P[2]) + b2 * (P[6] - P[4]));
        *dy = 3.0 * (b0 * (P[3] - P[1]) + b1 * (P[5] - P[3]) + b2 * (P[7] - P[5]));
    }
}

static void bez_d2(int deg, const double *P, double t, double *dx, double *dy)
{
    if (deg == 1) {
        *dx = *dy = 0.0;
    } else if (deg == 2) {
        *dx = 2.0 * (P[4] - 2.0 * P[2] + P[0]);
        *dy = 2.0 * (P[5] - 2.0 * P[3] + P[1]);
    } else {
        double s = 1.0 - t;
        *dx = 6.0 * (s * (P[4] - 2.0 * P[2] + P[0]) + t * (P[6] - 2.0 * P[4] + P[2]));
        *dy = 6.0 * (s * (P[5] - 2.0 * P[3] + P[1]) + t * (P[7] - 2.0 * P[5] + P[3]));
    }
}

static void bez_d3(int deg, const double *P, double *dx, double *dy)
{
    if (deg < 3) {
        *dx = *dy = 0.0;
    } else {
        *dx = 6.0 * (P[6] - 3.0 * P[4] + 3.0 * P[2] - P[0]);
        *dy = 6.0 * (P[7] - 3.0 * P[5] + 3.0 * P[3] - P[1]);
    }
}

/* B'(t) of a quad or cubic in power form, A t^2 + B t + C per axis: one
 * branch-free evaluation for measurement and the root finding. */
typedef struct dpoly {
    double ax, bx, cx, ay, by, cy;
} dpoly_t;

static void dpoly_init(dpoly_t *q, int deg, const double *P)
{
    if (deg == 2) {
        q->ax = q->ay = 0.0;
        q->bx = 2.0 * (P[4] - 2.0 * P[2] + P[0]);
        q->by = 2.0 * (P[5] - 2.0 * P[3] + P[1]);
        q->cx = 2.0 * (P[2] - P[0]);
        q->cy = 2.0 * (P[3] - P[1]);
    } else {
        double d0x = 3.0 * (P[2] - P[0]), d1x = 3.0 * (P[4] - P[2]), d2x = 3.0 * (P[6] - P[4]);
        double d0y = 3.0 * (P[3] - P[1]), d1y = 3.0 * (P[5] - P[3]), d2y = 3.0 * (P[7] - P[5]);
        q->ax = d0x - 2.0 * d1x + d2x;
        q->ay = d0y - 2.0 * d1y + d2y;
        q->bx = 2.0 * (d1x - d0x);
        q->by = 2.0 * (d1y - d0y);
        q->cx = d0x;
        q->cy = d0y;
    }
}

static double dpoly_speed(const dpoly_t *q, double t)
{
    double dx = (q->ax * t + q->bx) * t + q->cx;
    double dy = (q->ay * t + q->by) * t + q->cy;
    return sqrt(dx * dx + dy * dy);
}

/* Gauss-Legendre abscissae and weights on [-1,1] (positive half). */
static const double gl8_x[4] = {
    0.18343464249564980493947614236018398, 0.52553240991632898581773904918924635,
    0.79666647741362673959155393647583044, 0.96028985649753623168356086856947299,
};
static const double gl8_w[4] = {
    0.36268378337836198296515044927719561, 0.31370664587788728733796220198660131,
    0.22238103445337447054435599442624088, 0.10122853629037625915253135430996219,
};
static const double gl4_x[2] = {0.33998104358485626480266575910324469, 0.86113631159405257522394648889280951};
static const double gl4_w[2] = {0.65214515486254614262693605077800059, 0.34785484513745385737306394922199941};

static double gl8_length(const dpoly_t *q, double a, double b)
{
    double h = 0.5 * (b - a), m = 0.5 * (a + b), sum = 0.0;
    for (int i = 0; i < 4; i++)
        sum += gl8_w[i] * (dpoly_speed(q, m - h * gl8_x[i]) + dpoly_speed(q, m + h * gl8_x[i]));
    return sum * h;
}

static double gl4_length(const dpoly_t *q, double a, double b)
{
    double h = 0.5 * (b - a), m = 0.5 * (a + b), sum = 0.0;
    for (int i = 0; i < 2; i++)
        sum += gl4_w[i] * (dpoly_speed(q, m - h * gl4_x[i]) + dpoly_speed(q, m + h * gl4_x[i]));
    return sum * h;
}

/* As gl8_length, also widening [*vmin, *vmax] by the speeds at the nodes. */
static double gl8_length_range(const dpoly_t *q, double a, double b, double *vmin, double *vmax)
{
    double h = 0.5 * (b - a), m = 0.5 * (a + b), sum = 0.0;
    for (int i = 0; i < 4; i++) {
        double v0 = dpoly_speed(q, m - h * gl8_x[i]), v1 = dpoly_speed(q, m + h * gl8_x[i]);
        sum += gl8_w[i] * (v0 + v1);
        *vmin = fmin(*vmin, fmin(v0, v1));
        *vmax = fmax(*vmax, fmax(v0, v1));
    }
    return sum * h;
}

/* Control points of the curve restricted to [0,t] (L) or [t,1] (R): de
 * Casteljau. L and R may not alias P. */
static void bez_split(int deg, const double *P, double t, double *L, double *R)
{
    double w[8];
    memcpy(w, P, sizeof(double) * 2 * (size_t)(deg + 1));
    for (int c = 0; c < 2; c++) {
        if (L) {
            L[c] = w[c];
        }
        if (R) {
            R[2 * deg + c] = w[2 * deg + c];
        }
    }
    for (int level = 1; level <= deg; level++) {
        for (int i = 0; i <= deg - level; i++) {
            w[2 * i] += t * (w[2 * i + 2] - w[2 * i]);
            w[2 * i + 1] += t * (w[2 * i + 3] - w[2 * i + 1]);
        }
        if (L) {
            L[2 * level] = w[0];
            L[2 * level + 1] = w[1];
        }
        if (R) {
            R[2 * (deg - level)] = w[2 * (deg - level)];
            R[2 * (deg - level) + 1] = w[2 * (deg - level) + 1];
        }
    }
}

/* The exact sub-curve on [ta, tb] (0 <= ta <= tb <= 1) into Q. */
static void bez_sub(int deg, const double *P, double ta, double tb, double *Q)
{
    size_t n = sizeof(double) * 2 * (size_t)(deg + 1);
    double tmp[8];
    if (ta <= 0.0 && tb >= 1.0) {
        memcpy(Q, P, n);
    } else if (ta <= 0.0) {
        bez_split(deg, P, tb, Q, NULL);
    } else if (tb >= 1.0) {
        bez_split(deg, P, ta, NULL, Q);
    } else {
        bez_split(deg, P, tb, tmp, NULL);
        bez_split(deg, tmp, ta / tb, NULL, Q);
    }
}

/* Tangent direction in degrees; where the derivative vanishes, the limit
 * direction along the curve (see path.h). */
static double bez_angle(int deg, const double *P, double t)
{
    double dx, dy;
    bez_d1(deg, P, t, &dx, &dy);
    if (dx == 0.0 && dy == 0.0) {
        /* B'(t+h) ~ B''(t) h: forward limit, or backward (h < 0) at t = 1. */
        bez_d2(deg, P, t, &dx, &dy);
        if (t >= 1.0) {
            dx = -dx;
            dy = -dy;
        }
    }
    if (dx == 0.0 && dy == 0.0)
        bez_d3(deg, P, &dx, &dy); /* B'(t+h) ~ B''' h^2 / 2: same sign both ways */
    if (dx == 0.0 && dy == 0.0) {
        dx = P[2 * deg] - P[0];
        dy = P[2 * deg + 1] - P[1];
    }
    if (dx == 0.0 && dy == 0.0)
        return 0.0;
    return atan2(dy, dx) * RAD2DEG;
}


/* Adds l to the running length with Neumaier compensation, so 100,000
 * segments of knots keep cumulative lengths to about one ulp. */
static void add_length(builder_t *b, double l)
{
    double sum = b->cum + l;
    if (fabs(b->cum) >= fabs(l))
        b->cum_c += (b->cum - sum) + l;
    else
        b->cum_c += (l - sum) + b->cum;
    b->cum = sum;
}

double path_cum_length(const builder_t *b)
{
    return b->cum + b->cum_c;
}

static void add_knot(builder_t *b, uint32_t seg, double t)
{
    if (b->fill) {
        if (b->nknots >= b->cap_knots) {
            b->broken = 1;
            return;
        }
        rf_path_knot_t *k = &b->knots[b->nknots];
        k->length = path_cum_length(b);
        k->segment = seg;
        k->t = (float)t;
    }
    b->nknots++;
}

/* Splits [a,c] (arc length lac by GL8) until GL8 agrees with its halves
 * and the speed is even enough for linear interpolation of t; emits one
 * knot per accepted piece, at its start. */
static void subdivide(builder_t *b, uint32_t seg, const dpoly_t *q, double a, double c, double lac,
                      int depth, double scale)
{
    double m = 0.5 * (a + c);
    double va = dpoly_speed(q, a), vc = dpoly_speed(q, c);
    double vmin = fmin(va, vc), vmax = fmax(va, vc);
    double la = gl8_length_range(q, a, m, &vmin, &vmax);
    double lb = gl8_length_range(q, m, c, &vmin, &vmax);
    double l = la + lb;
    /* Linear interpolation of t is good where the speed stays near the
     * piece's mean: check the ends and all 16 Gauss nodes (a symmetric
     * speed profile would fool a comparison of the halves' lengths). */
    double mean = l / (c - a);
    int ok = depth >= MAX_DEPTH || l <= TINY_PIECE * scale ||
             (fabs(l - lac) <= LEN_EPS * scale && vmax - vmin <= SPEED_TOL * mean);
    if (ok) {
        add_knot(b, seg, a);
        add_length(b, l);
        return;
    }
    subdivide(b, seg, q, a, m, la, depth + 1, scale);
    subdivide(b, seg, q, m, c, lb, depth + 1, scale);
}

void path_measure_zero(builder_t *b, uint32_t seg)
{
    add_knot(b, seg, 0.0);
}

void path_measure(builder_t *b, uint32_t seg, int deg, const double *P)
{
    double scale = 0.0;
    for (int i = 0; i < deg; i++)
        scale += hypot(P[2 * i + 2] - P[2 * i], P[2 * i + 3] - P[2 * i + 1]);
    if (deg == 1 || scale == 0.0) {
        /* A line's t is exactly proportional to its arc length: one piece. */
        add_knot(b, seg, 0.0);
        add_length(b, scale);
        return;
    }
    dpoly_t q;
    dpoly_init(&q, deg, P);
    subdivide(b, seg, &q, 0.0, 1.0, gl8_length(&q, 0.0, 1.0), 0, scale);
}

static void bounds_add(double *box, double x, double y)
{
    if (x < box[0]) box[0] = x;
    if (x > box[2]) box[2] = x;
    if (y < box[1]) box[1] = y;
    if (y > box[3]) box[3] = y;
}

/* Roots in (0,1) of a t^2 + b t + c (numerically stable form). */
static int quad_roots(double a, double bb, double c, double r[2])
{
    int n = rf_quad_roots(a, bb, c, r);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (r[i] > 0.0 && r[i] < 1.0)
            r[k++] = r[i];
    return k;
}

/* Adds the segment's end points and every interior extremum to box
 * [x0, y0, x1, y1]: the roots of the derivative per axis, evaluated on the
 * curve. */
static void seg_bounds(double *box, int deg, const double *P)
{
    bounds_add(box, P[0], P[1]);
    bounds_add(box, P[2 * deg], P[2 * deg + 1]);
    for (int axis = 0; axis < 2 && deg > 1; axis++) {
        double r[2];
        int n;
        const double *q = P + axis;
        if (deg == 2) {
            double den = q[0] - 2.0 * q[2] + q[4];
            n = 0;
            if (den != 0.0) {
                r[0] = (q[0] - q[2]) / den;
                n = r[0] > 0.0 && r[0] < 1.0;
            }
        } else {
            double a = -q[0] + 3.0 * q[2] - 3.0 * q[4] + q[6];
            double bb = 2.0 * (q[0] - 2.0 * q[2] + q[4]);
            double c = q[2] - q[0];
            n = quad_roots(a, bb, c, r);
        }
        for (int i = 0; i < n; i++) {
            double x, y;
            bez_point(deg, P, r[i], &x, &y);
            bounds_add(box, x, y);
        }
    }
}

void path_bounds_segment(builder_t *b, int deg, const double *P)
{
    double box[4] = {b->x0, b->y0, b->x1, b->y1};
    seg_bounds(box, deg, P);
    b->x0 = box[0];
    b->y0 = box[1];
    b->x1 = box[2];
    b->y1 = box[3];
}

/* ---- queries ---- */

double rf_path_length(const rf_path_t *p)
{
    return p->total;
}

void rf_path_bounds(const rf_path_t *p, double *x0, double *y0, double *x1, double *y1)
{
    *x0 = p->x0;
    *y0 = p->y0;
    *x1 = p->x1;
    *y1 = p->y1;
}

uint32_t rf_path_segment_count(const rf_path_t *p)
{
    return p->nsegs;
}

rf_path_kind_t rf_path_segment(const rf_path_t *p, uint32_t i, const double **pts)
{
    if (pts)
        *pts = p->pts + 2 * (size_t)p->segs[i].first_point;
    return (rf_path_kind_t)p->segs[i].kind;
}

double rf_path_segment_length(const rf_path_t *p, uint32_t i)
{
    uint32_t k0 = p->segs[i].first_knot;
    uint32_t k1 = i + 1 < p->nsegs ? p->segs[i + 1].first_knot : p->nknots - 1;
    return p->knots[k1].length - p->knots[k0].length;
}

const rf_path_knot_t *rf_path_knots(const rf_path_t *p, uint32_t *count)
{
    *count = p->nknots;
    return p->knots;
}

void rf_path_start(const rf_path_t *p, double *x, double *y)
{
    *x = p->pts[0];
    *y = p->pts[1];
}

void rf_path_segment_eval(const rf_path_t *p, uint32_t segment, double t, double *x, double *y)
{
    const rf_path_seg_t *s = &p->segs[segment];
    bez_point(path_kind_degree(s->kind), p->pts + 2 * (size_t)s->first_point, t, x, y);
}

size_t rf_path_trim_max(const rf_path_t *p)
{
    return (size_t)p->nsegs + 1;
}

/* ---- arc length -> (segment, t) ---- */

static double clamp_progress(double progress)
{
    if (!(progress > 0.0))
        return 0.0; /* also NaN */
    return progress < 1.0 ? progress : 1.0;
}

/* Index of the last knot whose length is <= d (strict: < d). The caller
 * guarantees knot 0 qualifies. Branch-free halving: the comparison becomes a
 * conditional move, so random lookups do not pay a misprediction per level. */
static uint32_t knot_find(const rf_path_knot_t *k, uint32_t n, double d, int strict)
{
    const rf_path_knot_t *base = k;
    if (strict) {
        while (n > 1) {
            uint32_t half = n / 2;
            base = base[half].length < d ? base + half : base;
            n -= half;
        }
    } else {
        while (n > 1) {
            uint32_t half = n / 2;
            base = base[half].length <= d ? base + half : base;
            n -= half;
        }
    }
    return (uint32_t)(base - k);
}

/* Distance d in [0, total] (total > 0) to its segment and t. strict picks
 * the piece that ends at d on a boundary (trim ends) instead of the one that
 * starts there (sampling, trim starts). */
static void locate(const rf_path_t *p, double d, int strict, uint32_t *segment, double *tout)
{
    const rf_path_knot_t *k = p->knots;
    uint32_t i = knot_find(k, p->nknots, d, strict);
    uint32_t seg = k[i].segment;
    *segment = seg;
    if (i + 1 >= p->nknots) {
        *tout = 1.0; /* the sentinel: the end of the last positive-length segment */
        return;
    }
    double s0 = k[i].length, s1 = k[i + 1].length;
    double t0 = k[i].t, t1 = k[i + 1].segment == seg ? k[i + 1].t : 1.0;
    double target = d - s0;
    double t = t0 + target / (s1 - s0) * (t1 - t0);
    const rf_path_seg_t *sd = &p->segs[seg];
    int deg = path_kind_degree(sd->kind);
    if (deg > 1 && target > 0.0) {
        /* Linear interpolation starts within a few percent of the piece;
         * root finding on the piece's arc length (8-point Gauss-Legendre
         * from the knot), kept inside the piece, makes it exact to ~1e-13
         * of the segment. */
        dpoly_t q;
        dpoly_init(&q, deg, p->pts + 2 * (size_t)sd->first_point);
        double eps = 1e-14 * (s1 - s0);
        for (int it = 0; it < HALLEY_STEPS; it++) {
            /* The first step only needs ~1e-6: a 4-point rule will do. */
            double f = (it == 0 ? gl4_length(&q, t0, t) : gl8_length(&q, t0, t)) - target;
            if (fabs(f) <= eps)
                break;
            /* Halley: f' is the speed v, f'' = v' = B'.B'' / v, both cheap
             * next to f; cubic convergence saves a quadrature. */
            double dx = (q.ax * t + q.bx) * t + q.cx, dy = (q.ay * t + q.by) * t + q.cy;
            double v2 = dx * dx + dy * dy, v = sqrt(v2);
            if (!(v > 0.0))
                break;
            double dv = (dx * (2.0 * q.ax * t + q.bx) + dy * (2.0 * q.ay * t + q.by)) / v;
            double den = 2.0 * v2 - f * dv;
            double tn = den > 0.0 ? t - 2.0 * f * v / den : t - f / v;
            if (tn < t0)
                tn = t0;
            else if (tn > t1)
                tn = t1;
            if (tn == t)
                break;
            t = tn;
        }
    }
    *tout = t;
}

void rf_path_locate(const rf_path_t *p, double progress, uint32_t *segment, double *t)
{
    progress = clamp_progress(progress);
    if (p->nsegs == 0 || !(p->total > 0.0)) {
        *segment = p->nsegs ? 0 : UINT32_MAX;
        *t = 0.0;
        return;
    }
    locate(p, progress * p->total, 0, segment, t);
}

void rf_path_sample(const rf_path_t *p, double progress, double *x, double *y, double *angle_deg)
{
    double px, py, ang = 0.0;
    progress = clamp_progress(progress);
    if (p->nsegs == 0 || !(p->total > 0.0)) {
        px = p->pts[0];
        py = p->pts[1];
    } else {
        uint32_t seg;
        double t;
        locate(p, progress * p->total, 0, &seg, &t);
        const rf_path_seg_t *sd = &p->segs[seg];
        int deg = path_kind_degree(sd->kind);
        const double *P = p->pts + 2 * (size_t)sd->first_point;
        bez_point(deg, P, t, &px, &py);
        if (angle_deg)
            ang = bez_angle(deg, P, t);
    }
    if (x)
        *x = px;
    if (y)
        *y = py;
    if (angle_deg)
        *angle_deg = ang;
}

/* ---- trimming ---- */

typedef struct op_sink {
    rf_path_op_t *ops;
    size_t cap, n;
} op_sink_t;

static void put_op(op_sink_t *s, int kind, const double *q, int nq)
{
    if (s->n < s->cap) {
        rf_path_op_t *o = &s->ops[s->n];
        o->kind = kind;
        for (int i = 0; i < 6; i++)
            o->p[i] = i < nq ? q[i] : 0.0;
    }
    s->n++;
}

/* Emits the curve Q of degree deg (its start is the current point) as a
 * line_to or a cubic curve_to. */
static void put_curve(op_sink_t *s, int deg, const double *Q)
{
    if (deg == 1) {
        put_op(s, RF_PATH_OP_LINE, Q + 2, 2);
    } else if (deg == 2) {
        /* Degree elevation: the same curve as a cubic. */
        double c[6] = {
            Q[0] + 2.0 / 3.0 * (Q[2] - Q[0]), Q[1] + 2.0 / 3.0 * (Q[3] - Q[1]),
            Q[4] + 2.0 / 3.0 * (Q[2] - Q[4]), Q[5] + 2.0 / 3.0 * (Q[3] - Q[5]),
            Q[4], Q[5],
        };
        put_op(s, RF_PATH_OP_CURVE, c, 6);
    } else {
        put_op(s, RF_PATH_OP_CURVE, Q + 2, 6);
    }
}

/* A path as the trim and bounds code sees it: a alone, or a mixed with b
 * (same structure) by w, its points mixed on the fly; a line, quad or
 * cubic mixes with a curve of another of those degrees as the same curve
 * raised to the higher degree (exact degree elevation). */
typedef struct view {
    const rf_path_t *a, *b;   /* b NULL: a alone */
    double w;
} view_t;

/* The degree-deg curve Q (deg + 1 points) raised to degree to (>= deg)
 * into E: the same curve, its end points untouched. */
static void elevate(int deg, const double *Q, int to, double *E)
{
    memcpy(E, Q, sizeof(double) * 2 * (size_t)(deg + 1));
    for (int d = deg; d < to; d++) {
        /* degree d -> d + 1: E'_k = k/(d+1) E_{k-1} + (1 - k/(d+1)) E_k */
        double F[8];
        F[0] = E[0];
        F[1] = E[1];
        for (int k = 1; k <= d; k++)
            for (int c = 0; c < 2; c++)
                F[2 * k + c] = (double)k / (d + 1) * E[2 * (k - 1) + c] +
                               (1.0 - (double)k / (d + 1)) * E[2 * k + c];
        F[2 * (d + 1)] = E[2 * d];
        F[2 * (d + 1) + 1] = E[2 * d + 1];
        memcpy(E, F, sizeof(double) * 2 * (size_t)(d + 2));
    }
}

/* Segment i's kind, and its points (degree + 1 pairs) into P. */
static int view_seg(const view_t *v, uint32_t i, double *P)
{
    const rf_path_seg_t *sd = &v->a->segs[i];
    int kind = sd->kind, deg = path_kind_degree(kind), n = 2 * (deg + 1);
    const double *A = v->a->pts + 2 * (size_t)sd->first_point;
    if (v->b == NULL) {
        memcpy(P, A, sizeof(double) * (size_t)n);
    } else {
        const rf_path_seg_t *sb = &v->b->segs[i];
        const double *B = v->b->pts + 2 * (size_t)sb->first_point;
        double w = v->w, EA[8], EB[8];
        if (sb->kind != kind) { /* a line, quad or cubic against another */
            int degb = path_kind_degree(sb->kind), to = deg > degb ? deg : degb;
            elevate(deg, A, to, EA);
            elevate(degb, B, to, EB);
            A = EA;
            B = EB;
            kind = deg > degb ? kind : (int)sb->kind;
            n = 2 * (to + 1);
        }
        for (int k = 0; k < n; k++)
            P[k] = A[k] + w * (B[k] - A[k]); /* a point both share stays put */
    }
    return kind;
}

static void view_start(const view_t *v, double *P)
{
    P[0] = v->a->pts[0];
    P[1] = v->a->pts[1];
    if (v->b != NULL) {
        P[0] += v->w * (v->b->pts[0] - P[0]);
        P[1] += v->w * (v->b->pts[1] - P[1]);
    }
}

/* Whether segment i (points P) draws nothing: a measured length of 0 (a
 * path alone, as locate() sees it), or all points equal (a mix). */
static int view_zero(const view_t *v, uint32_t i, int deg, const double *P)
{
    if (v->b == NULL)
        return !(rf_path_segment_length(v->a, i) > 0.0);
    for (int k = 1; k <= deg; k++)
        if (P[2 * k] != P[0] || P[2 * k + 1] != P[1])
            return 0;
    return 1;
}

/* The whole path, verbatim: every segment, MOVE as move_to, Z as close. */
static size_t trim_whole(const view_t *v, op_sink_t *s)
{
    const rf_path_t *p = v->a;
    double P[8];
    if (p->nsegs == 0)
        return 0;
    view_start(v, P);
    put_op(s, RF_PATH_OP_MOVE, P, 2);
    for (uint32_t i = 0; i < p->nsegs; i++) {
        int kind = view_seg(v, i, P);
        if (kind == RF_PATH_CLOSE)
            put_op(s, RF_PATH_OP_CLOSE, NULL, 0);
        else if (kind == RF_PATH_MOVE)
            put_op(s, RF_PATH_OP_MOVE, P + 2, 2);
        else
            put_curve(s, path_kind_degree(kind), P);
    }
    return s->n;
}

/* The ops from segment a at ta to segment b at tb (a <= b; both of
 * positive length). A Z closes only a figure the range holds whole. */
static size_t trim_range(const view_t *v, uint32_t a, double ta, uint32_t b, double tb,
                         op_sink_t *s)
{
    double P[8], Q[8];
    int kind = view_seg(v, a, P), deg = path_kind_degree(kind);
    /* whole: the range holds the current figure from its start */
    int whole = ta <= 0.0;
    for (uint32_t i = a; whole && i-- > 0;) {
        double R[8];
        int k = view_seg(v, i, R);
        if (k == RF_PATH_MOVE)
            break;
        whole = view_zero(v, i, path_kind_degree(k), R);
    }
    bez_sub(deg, P, ta, a == b ? tb : 1.0, Q);
    put_op(s, RF_PATH_OP_MOVE, Q, 2);
    put_curve(s, deg, Q);
    for (uint32_t i = a + 1; i < b; i++) {
        kind = view_seg(v, i, P);
        deg = path_kind_degree(kind);
        if (kind == RF_PATH_MOVE) {
            put_op(s, RF_PATH_OP_MOVE, P + 2, 2);
            whole = 1;
        } else if (kind == RF_PATH_CLOSE && whole) {
            put_op(s, RF_PATH_OP_CLOSE, NULL, 0);
        } else if (!view_zero(v, i, deg, P)) {
            put_curve(s, deg, P);
        }
    }
    if (b > a) {
        kind = view_seg(v, b, P);
        deg = path_kind_degree(kind);
        if (kind == RF_PATH_CLOSE && whole && tb >= 1.0) {
            put_op(s, RF_PATH_OP_CLOSE, NULL, 0);
        } else {
            bez_sub(deg, P, 0.0, tb, Q);
            put_curve(s, deg, Q);
        }
    }
    return s->n;
}

size_t rf_path_trim(const rf_path_t *p, double p0, double p1, rf_path_op_t *ops, size_t cap)
{
    op_sink_t s = {ops, ops ? cap : 0, 0};
    view_t v = {p, NULL, 0.0};
    p0 = clamp_progress(p0);
    p1 = clamp_progress(p1);
    if (p0 == 0.0 && p1 == 1.0)
        return trim_whole(&v, &s);
    if (p->nsegs == 0 || !(p->total > 0.0) || !(p0 < p1))
        return 0;
    double d0 = p0 * p->total, d1 = p1 * p->total;
    if (!(d0 < d1))
        return 0;
    uint32_t a, b;
    double ta, tb;
    locate(p, d0, 0, &a, &ta);
    locate(p, d1, 1, &b, &tb);
    if (b < a) /* cannot happen: knots are ordered by segment */
        b = a;
    if (a == b && tb < ta)
        tb = ta;
    return trim_range(&v, a, ta, b, tb, &s);
}

/* ---- figures, sources ---- */

uint32_t rf_path_figures(const rf_path_t *p)
{
    return p->nfigures;
}

char rf_path_segment_source(const rf_path_t *p, uint32_t i, size_t *col)
{
    if (col)
        *col = p->cols[i];
    return p->segs[i].cmd;
}

uint32_t rf_path_command_segments(const rf_path_t *p, uint32_t i)
{
    uint32_t j = i, k = i;
    while (j > 0 && p->cols[j - 1] == p->cols[i] && p->segs[j - 1].cmd == p->segs[i].cmd)
        j--;
    while (k + 1 < p->nsegs && p->cols[k + 1] == p->cols[i] && p->segs[k + 1].cmd == p->segs[i].cmd)
        k++;
    return k - j + 1;
}

/* ---- morphing ---- */

/* Lines, quads and cubics mix with each other (view_seg elevates them);
 * MOVE and CLOSE only with themselves. */
static int mixable(int ka, int kb)
{
    return ka == kb || ((ka == RF_PATH_LINE || ka == RF_PATH_QUAD || ka == RF_PATH_CUBIC) &&
                        (kb == RF_PATH_LINE || kb == RF_PATH_QUAD || kb == RF_PATH_CUBIC));
}

uint32_t rf_path_mismatch(const rf_path_t *a, const rf_path_t *b)
{
    uint32_t n = a->nsegs < b->nsegs ? a->nsegs : b->nsegs;
    for (uint32_t i = 0; i < n; i++) {
        int ka = a->segs[i].kind, kb = b->segs[i].kind;
        /* Kinds that differ mix only as whole commands: an arc's cubics
         * against a line would shift every later segment off its command. */
        if (!mixable(ka, kb) ||
            (ka != kb && (rf_path_command_segments(a, i) != 1 || rf_path_command_segments(b, i) != 1)))
            return i;
    }
    return a->nsegs == b->nsegs ? UINT32_MAX : n;
}

/* Arc length of [a, c] of a curve, adaptively, by subdivide()'s rule
 * without knots: GL8 against its halves to LEN_EPS of scale, and an even
 * speed (which is what finds a cusp, where |B'| kinks and Gauss-Legendre
 * on the whole piece agrees with its halves by accident). */
static double adapt_len(const dpoly_t *q, double a, double c, double lac, int depth, double scale)
{
    double m = 0.5 * (a + c);
    double va = dpoly_speed(q, a), vc = dpoly_speed(q, c);
    double vmin = fmin(va, vc), vmax = fmax(va, vc);
    double la = gl8_length_range(q, a, m, &vmin, &vmax);
    double lb = gl8_length_range(q, m, c, &vmin, &vmax);
    double l = la + lb, mean = l / (c - a);
    if (depth >= MAX_DEPTH || l <= TINY_PIECE * scale ||
        (fabs(l - lac) <= LEN_EPS * scale && vmax - vmin <= SPEED_TOL * mean))
        return l;
    return adapt_len(q, a, m, la, depth + 1, scale) + adapt_len(q, m, c, lb, depth + 1, scale);
}

static double ctrl_scale(int deg, const double *P)
{
    double scale = 0.0;
    for (int i = 0; i < deg; i++)
        scale += hypot(P[2 * i + 2] - P[2 * i], P[2 * i + 3] - P[2 * i + 1]);
    return scale;
}

/* The arc length of the segment P from 0 to t. */
static double seg_len_to(int deg, const double *P, double t)
{
    double scale = ctrl_scale(deg, P);
    if (deg == 1 || scale == 0.0)
        return t * scale;
    dpoly_t q;
    dpoly_init(&q, deg, P);
    return adapt_len(&q, 0.0, t, gl8_length(&q, 0.0, t), 0, scale);
}

/* The t at which segment P (total length len > 0) has length s: Newton on
 * the adaptive length, kept inside a shrinking bracket (bisection when a
 * step leaves it). */
static double seg_t_at(int deg, const double *P, double len, double s)
{
    if (!(s > 0.0))
        return 0.0;
    if (!(s < len))
        return 1.0;
    if (deg == 1)
        return s / len;
    dpoly_t q;
    dpoly_init(&q, deg, P);
    double lo = 0.0, hi = 1.0, t = s / len;
    for (int it = 0; it < 60; it++) {
        double f = seg_len_to(deg, P, t) - s;
        if (fabs(f) <= 1e-13 * len)
            break;
        if (f > 0.0)
            hi = t;
        else
            lo = t;
        double v = dpoly_speed(&q, t);
        double tn = v > 0.0 ? t - f / v : 0.5 * (lo + hi);
        if (!(tn > lo && tn < hi))
            tn = 0.5 * (lo + hi);
        if (tn == t)
            break;
        t = tn;
    }
    return t;
}

/* A mixed segment's length (0 for MOVE and for coincident points). */
static double mix_seg_len(const view_t *v, uint32_t i, double *P, int *deg)
{
    int kind = view_seg(v, i, P);
    *deg = path_kind_degree(kind);
    if (kind == RF_PATH_MOVE)
        return 0.0;
    return seg_len_to(*deg, P, 1.0);
}

double rf_path_mix_length(const rf_path_t *a, const rf_path_t *b, double w)
{
    if (!(w > 0.0))
        return a->total; /* also NaN */
    if (w >= 1.0)
        return b->total;
    view_t v = {a, b, w};
    double sum = 0.0, c = 0.0, P[8];
    int deg;
    for (uint32_t i = 0; i < a->nsegs; i++) {
        double l = mix_seg_len(&v, i, P, &deg), t = sum + l;
        c += fabs(sum) >= fabs(l) ? (sum - t) + l : (l - t) + sum; /* Neumaier */
        sum = t;
    }
    return sum + c;
}

size_t rf_path_mix_trim(const rf_path_t *a, const rf_path_t *b, double w, double p0, double p1,
                        rf_path_op_t *ops, size_t cap)
{
    if (!(w > 0.0))
        return rf_path_trim(a, p0, p1, ops, cap);
    if (w >= 1.0)
        return rf_path_trim(b, p0, p1, ops, cap);
    op_sink_t s = {ops, ops ? cap : 0, 0};
    view_t v = {a, b, w};
    p0 = clamp_progress(p0);
    p1 = clamp_progress(p1);
    if (p0 == 0.0 && p1 == 1.0)
        return trim_whole(&v, &s);
    double total = rf_path_mix_length(a, b, w);
    if (a->nsegs == 0 || !(total > 0.0) || !(p0 < p1))
        return 0;
    double d0 = p0 * total, d1 = p1 * total;
    if (!(d0 < d1))
        return 0;
    /* the walk of rf_path_mix_length again, stopping at the ends: the
     * first positive segment that d0 is before the end of (a tie starts
     * the next one), the first that d1 is at or before the end of */
    uint32_t sa = UINT32_MAX, sb = UINT32_MAX, last = UINT32_MAX;
    double ta = 0.0, tb = 1.0, sum = 0.0, c = 0.0, P[8];
    int deg;
    for (uint32_t i = 0; i < a->nsegs; i++) {
        double l = mix_seg_len(&v, i, P, &deg);
        if (!(l > 0.0))
            continue;
        double cum = sum + c, end;
        double t = sum + l;
        c += fabs(sum) >= fabs(l) ? (sum - t) + l : (l - t) + sum;
        sum = t;
        end = sum + c;
        last = i;
        if (sa == UINT32_MAX && d0 < end) {
            sa = i;
            ta = seg_t_at(deg, P, l, d0 - cum);
        }
        if (sa != UINT32_MAX && d1 <= end) {
            sb = i;
            tb = seg_t_at(deg, P, l, d1 - cum);
            break;
        }
    }
    if (sa == UINT32_MAX)
        return 0;
    if (sb == UINT32_MAX) { /* rounding: d1 past the last end */
        sb = last;
        tb = 1.0;
    }
    if (sa == sb && tb < ta)
        tb = ta;
    return trim_range(&v, sa, ta, sb, tb, &s);
}

void rf_path_mix_bounds(const rf_path_t *a, const rf_path_t *b, double w, double *x0,
                        double *y0, double *x1, double *y1)
{
    if (!(w > 0.0) || w >= 1.0) {
        rf_path_bounds(w >= 1.0 ? b : a, x0, y0, x1, y1);
        return;
    }
    view_t v = {a, b, w};
    double P[8], box[4];
    view_start(&v, P);
    box[0] = box[2] = P[0];
    box[1] = box[3] = P[1];
    for (uint32_t i = 0; i < a->nsegs; i++) {
        int kind = view_seg(&v, i, P);
        seg_bounds(box, path_kind_degree(kind), P);
    }
    *x0 = box[0];
    *y0 = box[1];
    *x1 = box[2];
    *y1 = box[3];
}
