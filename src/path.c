/* path.c - SVG path parsing, measurement, arc-length sampling and trimming.
 *
 * See path.h for the contract. Layout of a parsed path: one block from the
 * caller's allocator holding struct rf_path, the knots, the points and the
 * segment descriptors. The parser is table-driven (command letter -> operation
 * and argument count, as NanoSVG does) and runs twice over the same text: the
 * first pass validates, measures and counts, the second writes into the one
 * exactly sized block, so a failure never leaves anything allocated.
 */
#include "path.h"

#include "loc.h"
#include "roots.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static_assert(sizeof(rf_path_seg_t) == 12, "segment descriptors are 12 bytes (seed 000)");
static_assert(sizeof(rf_path_knot_t) == 16, "knots are 16 bytes (double length, see path.h)");

struct rf_path {
    uint32_t nsegs;
    uint32_t npoints;
    uint32_t nknots;          /* 0 without segments, else pieces + 1 sentinel */
    double total;
    double x0, y0, x1, y1;    /* exact bounds */
    const rf_path_seg_t *segs;
    const double *pts;        /* 2 * npoints */
    const rf_path_knot_t *knots;
};

/* Coordinates above this magnitude are refused: it keeps every squared
 * derivative, length and sum finite (3 * 2e150 squared is ~4e301). */
#define COORD_MAX 1e150

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

static int kind_degree(int kind)
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

/* ---- building: measurement, knots, bounds ---- */

typedef struct builder {
    int fill;                 /* 0: validate and count; 1: write */
    int broken;               /* fill pass outran the counts (cannot happen) */
    uint32_t nsegs;
    uint32_t npoints;
    uint64_t nknots;
    uint32_t cap_knots, cap_points, cap_segs;
    double cum;               /* arc length measured so far */
    double cum_c;             /* its compensation (Neumaier summation) */
    uint32_t last_pos;        /* last positive-length segment, UINT32_MAX if none */
    rf_path_seg_t *segs;
    double *pts;
    rf_path_knot_t *knots;
    double x0, y0, x1, y1;
} builder_t;

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

static double cum_length(const builder_t *b)
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
        k->length = cum_length(b);
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

static void measure(builder_t *b, uint32_t seg, int deg, const double *P)
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

static void bounds_add(builder_t *b, double x, double y)
{
    if (x < b->x0) b->x0 = x;
    if (x > b->x1) b->x1 = x;
    if (y < b->y0) b->y0 = y;
    if (y > b->y1) b->y1 = y;
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

/* Adds the segment's end point and every interior extremum: the roots of
 * the derivative per axis, evaluated on the curve. */
static void bounds_segment(builder_t *b, int deg, const double *P)
{
    bounds_add(b, P[2 * deg], P[2 * deg + 1]);
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
            bounds_add(b, x, y);
        }
    }
}

/* ---- parsing ---- */

enum {
    OP_NONE = 0, OP_MOVE, OP_LINE, OP_HORIZ, OP_VERT, OP_QUAD, OP_SMOOTH_QUAD,
    OP_CUBIC, OP_SMOOTH_CUBIC, OP_CLOSE, OP_ARC,
};

/* Command letter -> operation and numbers per repeat (NanoSVG's table idea). */
static const struct {
    uint8_t op;
    uint8_t nargs;
} cmd_table[128] = {
    ['M'] = {OP_MOVE, 2},         ['m'] = {OP_MOVE, 2},
    ['L'] = {OP_LINE, 2},         ['l'] = {OP_LINE, 2},
    ['H'] = {OP_HORIZ, 1},        ['h'] = {OP_HORIZ, 1},
    ['V'] = {OP_VERT, 1},         ['v'] = {OP_VERT, 1},
    ['Q'] = {OP_QUAD, 4},         ['q'] = {OP_QUAD, 4},
    ['T'] = {OP_SMOOTH_QUAD, 2},  ['t'] = {OP_SMOOTH_QUAD, 2},
    ['C'] = {OP_CUBIC, 6},        ['c'] = {OP_CUBIC, 6},
    ['S'] = {OP_SMOOTH_CUBIC, 4}, ['s'] = {OP_SMOOTH_CUBIC, 4},
    ['Z'] = {OP_CLOSE, 0},        ['z'] = {OP_CLOSE, 0},
    ['A'] = {OP_ARC, 7},          ['a'] = {OP_ARC, 7},
};

typedef struct parser {
    const char *d;
    size_t len;
    rf_path_error_t *err;
    builder_t *b;
    double cx, cy;            /* current point */
    double sx, sy;            /* start of the figure */
    double qx, qy;            /* last Q/T control point, for T */
    double kx, ky;            /* last C/S second control point, for S */
    int has_q, has_k;
} parser_t;

static int fail(parser_t *ps, size_t col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(parser_t *ps, size_t col, const char *fmt, ...)
{
    if (ps->err) {
        char *m = ps->err->msg;
        /* the message counts characters, as every column shown does */
        int k = snprintf(m, RF_PATH_ERR_LEN, "col %d: ", rf_loc_column(ps->d, ps->len, col - 1));
        if (k > 0 && k < RF_PATH_ERR_LEN) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(m + k, RF_PATH_ERR_LEN - (size_t)k, fmt, ap);
            va_end(ap);
        }
        ps->err->col = col;
    }
    return -1;
}

static int is_wsp(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* Length of the SVG number at s (sign? (digits ('.' digits?)? | '.' digits)
 * exponent?), 0 when there is none. An 'e' without digits is not part of it. */
static size_t scan_number(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    while (i < n && is_digit((unsigned char)s[i])) {
        i++;
        digits++;
    }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && is_digit((unsigned char)s[i])) {
            i++;
            digits++;
        }
    }
    if (digits == 0)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (s[j] == '+' || s[j] == '-'))
            j++;
        if (j < n && is_digit((unsigned char)s[j])) {
            while (j < n && is_digit((unsigned char)s[j]))
                j++;
            i = j;
        }
    }
    return i;
}

/* Names the character at d[i] for an error message: "character '#'",
 * "character U+0007", "character 'é'", or "byte 0xFF" when not UTF-8. */
static void describe_char(const char *d, size_t n, size_t i, char *out, size_t cap)
{
    unsigned char c = (unsigned char)d[i];
    if (c >= 0x20 && c < 0x7f) {
        snprintf(out, cap, "character '%c'", c);
        return;
    }
    if (c < 0x80) {
        snprintf(out, cap, "character U+%04X", c);
        return;
    }
    /* A well-formed UTF-8 sequence is quoted as is; anything else by byte. */
    size_t len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    if (c >= 0xf5)
        len = 0;
    int ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; k++)
        ok = ((unsigned char)d[i + k] & 0xc0) == 0x80;
    if (ok && len == 3) {
        unsigned char c1 = (unsigned char)d[i + 1];
        ok = !(c == 0xe0 && c1 < 0xa0) && !(c == 0xed && c1 >= 0xa0);
    } else if (ok && len == 4) {
        unsigned char c1 = (unsigned char)d[i + 1];
        ok = !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);
    }
    if (ok)
        snprintf(out, cap, "character '%.*s'", (int)len, d + i);
    else
        snprintf(out, cap, "byte 0x%02X", c);
}

static int coord_ok(double v)
{
    return fabs(v) <= COORD_MAX; /* false for NaN and infinities too */
}

static void set_start(parser_t *ps, double x, double y)
{
    builder_t *b = ps->b;
    if (b->fill) {
        b->pts[0] = x;
        b->pts[1] = y;
    }
    b->npoints = 1;
    b->x0 = b->x1 = x;
    b->y0 = b->y1 = y;
}

/* Appends one segment: P holds its deg+1 points, the first being the
 * current point. */
static int emit(parser_t *ps, int kind, const double *P, size_t col)
{
    builder_t *b = ps->b;
    int deg = kind_degree(kind);
    if (b->nsegs >= RF_PATH_MAX_SEGMENTS)
        return fail(ps, col, "more than %u path segments (the runeframe 1 limit)",
                    RF_PATH_MAX_SEGMENTS);
    for (int i = 2; i < 2 * (deg + 1); i++)
        if (!coord_ok(P[i]))
            return fail(ps, col, "coordinate out of range (magnitude above 1e150)");
    uint32_t seg = b->nsegs;
    if (b->fill) {
        if (seg >= b->cap_segs || b->npoints + (uint32_t)deg > b->cap_points) {
            b->broken = 1;
            return -1;
        }
        rf_path_seg_t *s = &b->segs[seg];
        s->kind = (uint8_t)kind;
        s->pad[0] = s->pad[1] = s->pad[2] = 0;
        s->first_point = b->npoints - 1;
        s->first_knot = (uint32_t)b->nknots;
        memcpy(b->pts + 2 * (size_t)b->npoints, P + 2, sizeof(double) * 2 * (size_t)deg);
        bounds_segment(b, deg, P);
    }
    b->npoints += (uint32_t)deg;
    double before = cum_length(b);
    measure(b, seg, deg, P);
    if (cum_length(b) > before)
        b->last_pos = seg;
    b->nsegs++;
    return 0;
}

/* The first control point of a curve into c: given in a (explicit: Q, C;
 * returns 2, the arguments used), else the reflection of the previous
 * curve's last control point (px, py) when it was of the same kind (has),
 * else the current point (T, S; returns 0). */
static int first_control(const parser_t *ps, int explicit, const double *a, double ox, double oy,
                         int has, double px, double py, double *c)
{
    if (explicit) {
        c[0] = ox + a[0];
        c[1] = oy + a[1];
        return 2;
    }
    if (has) {
        c[0] = 2.0 * ps->cx - px; /* reflection of the previous control */
        c[1] = 2.0 * ps->cy - py;
    } else {
        c[0] = ps->cx;
        c[1] = ps->cy;
    }
    return 0;
}

/* Runs one complete argument group of op (col: its first number). */
static int exec(parser_t *ps, int op, int rel, const double *a, size_t col)
{
    double ox = rel ? ps->cx : 0.0, oy = rel ? ps->cy : 0.0;
    double P[8] = {ps->cx, ps->cy, 0, 0, 0, 0, 0, 0};
    int kind = RF_PATH_LINE, quad = 0, cubic = 0;
    switch (op) {
    case OP_MOVE:
        P[0] = ox + a[0];
        P[1] = oy + a[1];
        if (!coord_ok(P[0]) || !coord_ok(P[1]))
            return fail(ps, col, "coordinate out of range (magnitude above 1e150)");
        set_start(ps, P[0], P[1]);
        ps->cx = ps->sx = P[0];
        ps->cy = ps->sy = P[1];
        ps->has_q = ps->has_k = 0;
        return 0;
    case OP_LINE:
        P[2] = ox + a[0];
        P[3] = oy + a[1];
        break;
    case OP_HORIZ:
        P[2] = ox + a[0];
        P[3] = ps->cy;
        break;
    case OP_VERT:
        P[2] = ps->cx;
        P[3] = oy + a[0];
        break;
    case OP_QUAD:
    case OP_SMOOTH_QUAD:
        kind = RF_PATH_QUAD;
        quad = 1;
        a += first_control(ps, op == OP_QUAD, a, ox, oy, ps->has_q, ps->qx, ps->qy, P + 2);
        P[4] = ox + a[0];
        P[5] = oy + a[1];
        break;
    case OP_CUBIC:
    case OP_SMOOTH_CUBIC:
        kind = RF_PATH_CUBIC;
        cubic = 1;
        a += first_control(ps, op == OP_CUBIC, a, ox, oy, ps->has_k, ps->kx, ps->ky, P + 2);
        P[4] = ox + a[0];
        P[5] = oy + a[1];
        P[6] = ox + a[2];
        P[7] = oy + a[3];
        break;
    case OP_CLOSE:
        kind = RF_PATH_CLOSE;
        P[2] = ps->sx;
        P[3] = ps->sy;
        break;
    default:
        return fail(ps, col, "internal error: unknown operation");
    }
    if (emit(ps, kind, P, col))
        return -1;
    int deg = kind_degree(kind);
    if (quad) {
        ps->qx = P[2];
        ps->qy = P[3];
    } else if (cubic) {
        ps->kx = P[4];
        ps->ky = P[5];
    }
    ps->has_q = quad;
    ps->has_k = cubic;
    ps->cx = P[2 * deg];
    ps->cy = P[2 * deg + 1];
    return 0;
}

#define NUM_MAX 255

static int to_double(parser_t *ps, size_t i, size_t len, double *v)
{
    char buf[NUM_MAX + 1];
    if (len > NUM_MAX)
        return fail(ps, i + 1, "number too long (more than %d characters)", NUM_MAX);
    memcpy(buf, ps->d + i, len);
    buf[len] = '\0';
    char *end;
    *v = strtod(buf, &end); /* the scan above admits only strtod's decimal syntax */
    if (end != buf + len)
        return fail(ps, i + 1, "expected a number");
    if (!isfinite(*v))
        return fail(ps, i + 1, "number out of range");
    return 0;
}

static int parse(parser_t *ps)
{
    const char *d = ps->d;
    size_t n = ps->len, i = 0;
    int op = OP_NONE, rel = 0, nargs = 0, have = 0;
    int need = 0;     /* a command letter or a comma wants a number next */
    int started = 0, closed = 0;
    double args[6];
    size_t group_col = 0;

    for (;;) {
        while (i < n && is_wsp((unsigned char)d[i]))
            i++;
        if (i == n) {
            if (need || have)
                return fail(ps, n + 1, "expected a number");
            break;
        }
        unsigned char c = (unsigned char)d[i];
        if (is_digit(c) || c == '.' || c == '+' || c == '-') {
            if (!started)
                return fail(ps, i + 1, "path data must start with 'M'");
            if (op == OP_CLOSE)
                return fail(ps, i + 1, "'Z' takes no numbers");
            size_t len = scan_number(d + i, n - i);
            if (len == 0)
                return fail(ps, i + 1, "expected a number");
            if (have == 0)
                group_col = i + 1;
            if (to_double(ps, i, len, &args[have]))
                return -1;
            have++;
            i += len;
            need = 0;
            if (have == nargs) {
                if (exec(ps, op, rel, args, group_col))
                    return -1;
                have = 0;
                if (op == OP_MOVE)
                    op = OP_LINE; /* extra pairs after M are implicit linetos */
            }
            size_t j = i;
            while (j < n && is_wsp((unsigned char)d[j]))
                j++;
            if (j < n && d[j] == ',') {
                i = j + 1;
                need = 1;
            }
            continue;
        }
        if (need || have)
            return fail(ps, i + 1, "expected a number");
        if (c == ',')
            return fail(ps, i + 1, "unexpected ','");
        int cop = c < 128 ? cmd_table[c].op : OP_NONE;
        if (cop == OP_NONE) {
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
                return fail(ps, i + 1, "unknown path command '%c'", c);
            char what[32];
            describe_char(d, n, i, what, sizeof what);
            return fail(ps, i + 1, "unexpected %s", what);
        }
        if (cop == OP_ARC)
            return fail(ps, i + 1, "arcs ('%c') are not supported in runeframe 1", c);
        if (!started && cop != OP_MOVE)
            return fail(ps, i + 1, "path data must start with 'M'");
        if (started && cop == OP_MOVE)
            return fail(ps, i + 1, "a second '%c' starts another figure (one figure only in runeframe 1)", c);
        if (closed)
            return fail(ps, i + 1, "a command after 'Z' starts another figure (one figure only in runeframe 1)");
        started = 1;
        op = cop;
        rel = c >= 'a';
        nargs = cmd_table[c].nargs;
        i++;
        if (op == OP_CLOSE) {
            if (exec(ps, op, rel, args, i))
                return -1;
            closed = 1;
        } else {
            need = 1;
        }
    }
    if (!started)
        set_start(ps, 0.0, 0.0); /* "" is the point (0,0) */
    return 0;
}

static size_t align16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

int rf_path_parse(const char *d, size_t len, rf_path_alloc_fn alloc, void *ctx,
                  rf_path_t **out, rf_path_error_t *err)
{
    builder_t b;
    parser_t ps;
    *out = NULL;
    if (err) {
        err->col = 0;
        err->msg[0] = '\0';
    }

    /* Pass 1: validate, measure, count. */
    memset(&b, 0, sizeof b);
    b.last_pos = UINT32_MAX;
    memset(&ps, 0, sizeof ps);
    ps.d = d;
    ps.len = d ? len : 0;
    ps.err = err;
    ps.b = &b;
    if (parse(&ps))
        return -1;
    if (b.nknots + 1 > UINT32_MAX) {
        if (err) {
            err->col = 1;
            snprintf(err->msg, sizeof err->msg, "col 1: path needs too many knots to measure");
        }
        return -1;
    }

    uint32_t nsegs = b.nsegs, npoints = b.npoints;
    uint32_t nknots = nsegs ? (uint32_t)b.nknots + 1 : 0;
    size_t off_knots = align16(sizeof(rf_path_t));
    size_t off_pts = off_knots + align16((size_t)nknots * sizeof(rf_path_knot_t));
    size_t off_segs = off_pts + align16((size_t)npoints * 2 * sizeof(double));
    size_t total = off_segs + (size_t)nsegs * sizeof(rf_path_seg_t);
    unsigned char *mem = alloc(ctx, total);
    if (!mem) {
        if (err) {
            err->col = 0;
            snprintf(err->msg, sizeof err->msg, "out of memory");
        }
        return -1;
    }

    /* Pass 2: the same parse, writing. It cannot fail on text pass 1 took. */
    memset(&b, 0, sizeof b);
    b.last_pos = UINT32_MAX;
    b.fill = 1;
    b.knots = (rf_path_knot_t *)(void *)(mem + off_knots);
    b.pts = (double *)(void *)(mem + off_pts);
    b.segs = (rf_path_seg_t *)(void *)(mem + off_segs);
    b.cap_knots = nknots ? nknots - 1 : 0;
    b.cap_points = npoints;
    b.cap_segs = nsegs;
    memset(&ps, 0, sizeof ps);
    ps.d = d;
    ps.len = d ? len : 0;
    ps.err = err;
    ps.b = &b;
    if (parse(&ps) || b.broken || b.nsegs != nsegs || b.npoints != npoints ||
        (nsegs && b.nknots + 1 != nknots)) {
        if (err) {
            err->col = 0;
            snprintf(err->msg, sizeof err->msg, "internal error: path measurement is not repeatable");
        }
        return -1;
    }
    if (nknots) {
        rf_path_knot_t *s = &b.knots[nknots - 1];
        s->length = cum_length(&b);
        s->segment = b.last_pos != UINT32_MAX ? b.last_pos : nsegs - 1;
        s->t = 1.0f;
    }

    rf_path_t *p = (rf_path_t *)(void *)mem;
    p->nsegs = nsegs;
    p->npoints = npoints;
    p->nknots = nknots;
    p->total = cum_length(&b);
    p->x0 = b.x0;
    p->y0 = b.y0;
    p->x1 = b.x1;
    p->y1 = b.y1;
    p->segs = b.segs;
    p->pts = b.pts;
    p->knots = b.knots;
    *out = p;
    return 0;
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
    bez_point(kind_degree(s->kind), p->pts + 2 * (size_t)s->first_point, t, x, y);
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
    int deg = kind_degree(sd->kind);
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
        int deg = kind_degree(sd->kind);
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

size_t rf_path_trim(const rf_path_t *p, double p0, double p1, rf_path_op_t *ops, size_t cap)
{
    op_sink_t s = {ops, ops ? cap : 0, 0};
    p0 = clamp_progress(p0);
    p1 = clamp_progress(p1);
    if (p0 == 0.0 && p1 == 1.0) {
        /* The whole figure, verbatim. */
        if (p->nsegs == 0)
            return 0;
        put_op(&s, RF_PATH_OP_MOVE, p->pts, 2);
        for (uint32_t i = 0; i < p->nsegs; i++) {
            const rf_path_seg_t *sd = &p->segs[i];
            if (sd->kind == RF_PATH_CLOSE)
                put_op(&s, RF_PATH_OP_CLOSE, NULL, 0);
            else
                put_curve(&s, kind_degree(sd->kind), p->pts + 2 * (size_t)sd->first_point);
        }
        return s.n;
    }
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
    double Q[8];
    const rf_path_seg_t *sd = &p->segs[a];
    int deg = kind_degree(sd->kind);
    bez_sub(deg, p->pts + 2 * (size_t)sd->first_point, ta, a == b ? tb : 1.0, Q);
    put_op(&s, RF_PATH_OP_MOVE, Q, 2);
    put_curve(&s, deg, Q);
    for (uint32_t i = a + 1; i < b; i++) {
        if (!(rf_path_segment_length(p, i) > 0.0))
            continue;
        sd = &p->segs[i];
        put_curve(&s, kind_degree(sd->kind), p->pts + 2 * (size_t)sd->first_point);
    }
    if (b > a) {
        sd = &p->segs[b];
        deg = kind_degree(sd->kind);
        bez_sub(deg, p->pts + 2 * (size_t)sd->first_point, 0.0, tb, Q);
        put_curve(&s, deg, Q);
    }
    return s.n;
}
