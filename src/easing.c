/* easing.c - timing functions: CSS keywords, cubic-bezier, steps(), linear()
 * stops and the easings.net (Penner) family.
 *
 * Everything here is pure: descriptors are built by the parser (easing-
 * text.c) or the init functions and only read afterwards. Evaluation never
 * allocates.
 */
#include "easing.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roots.h"

#define RF_PI 3.14159265358979323846
#define RF_LN2 0.69314718055994530942

/* ------------------------------------------------------------ cubic-bezier */

/* Power-basis coefficients of x(s) = ((ax s + bx) s + cx) s, same for y. */
typedef struct bez {
    double ax, bx, cx, ay, by, cy;
    double p1x, p2x;   /* kept for the exact (double-double) evaluation */
    double ferr;       /* bound on the rounding error of bez_x() - x */
} bez_t;

static void bez_init(bez_t *b, double p1x, double p1y, double p2x, double p2y)
{
    b->cx = 3.0 * p1x;
    b->bx = 3.0 * (p2x - p1x) - b->cx;
    b->ax = 1.0 - b->cx - b->bx;
    b->cy = 3.0 * p1y;
    b->by = 3.0 * (p2y - p1y) - b->cy;
    b->ay = 1.0 - b->cy - b->by;
    b->p1x = p1x;
    b->p2x = p2x;
    /* coefficient rounding plus Horner rounding, generously: about 10 eps
     * times the coefficient sum is the worst case, 16 leaves margin */
    b->ferr = 16.0 * DBL_EPSILON * (1.0 + fabs(b->ax) + fabs(b->bx) + fabs(b->cx));
}

static double bez_x(const bez_t *b, double s) { return ((b->ax * s + b->bx) * s + b->cx) * s; }
static double bez_y(const bez_t *b, double s) { return ((b->ay * s + b->by) * s + b->cy) * s; }
static double bez_dx(const bez_t *b, double s) { return (3.0 * b->ax * s + 2.0 * b->bx) * s + b->cx; }
static double bez_dy(const bez_t *b, double s) { return (3.0 * b->ay * s + 2.0 * b->by) * s + b->cy; }

/* Double-double arithmetic, for the sign of x(s) - x where x'(s) is nearly
 * zero (p1x = 1, p2x = 0 has x'(1/2) = 0): there an error of 1e-16 in x
 * moves s by (1e-16/4)^(1/3), which is 1e-6 in y. */
typedef struct dd {
    double hi, lo;
} dd_t;

static dd_t dd_two_sum(double a, double b)
{
    double s = a + b, bb = s - a;
    dd_t r = {s, (a - (s - bb)) + (b - bb)};
    return r;
}

static dd_t dd_fast(double a, double b)
{
    double s = a + b;
    dd_t r = {s, b - (s - a)};
    return r;
}

static dd_t dd_mul(dd_t a, dd_t b)
{
    double p = a.hi * b.hi;
    double e = fma(a.hi, b.hi, -p);
    e += a.hi * b.lo + a.lo * b.hi;
    return dd_fast(p, e);
}

static dd_t dd_add(dd_t a, dd_t b)
{
    dd_t s = dd_two_sum(a.hi, b.hi);
    return dd_fast(s.hi, s.lo + a.lo + b.lo);
}

static dd_t dd_of(double a)
{
    dd_t r = {a, 0.0};
    return r;
}

/* a * b exactly, as a double-double */
static dd_t dd_prod(double a, double b)
{
    double p = a * b;
    dd_t r = {p, fma(a, b, -p)};
    return r;
}

/* Sign of x(s) - x from the Bernstein form with the exact control values:
 * 3 s (1-s)^2 p1x + 3 s^2 (1-s) p2x + s^3 - x. */
static int bez_side_exact(const bez_t *b, double s, double x)
{
    dd_t ds = dd_of(s);
    dd_t t = dd_two_sum(1.0, -s);
    dd_t s2 = dd_mul(ds, ds);
    dd_t st = dd_mul(ds, t);
    dd_t a = dd_mul(dd_mul(st, t), dd_prod(3.0, b->p1x));
    a = dd_add(a, dd_mul(dd_mul(s2, t), dd_prod(3.0, b->p2x)));
    a = dd_add(a, dd_mul(s2, ds));
    a = dd_add(a, dd_of(-x));
    if (a.hi != 0.0)
        return a.hi > 0.0 ? 1 : -1;
    return a.lo > 0.0 ? 1 : (a.lo < 0.0 ? -1 : 0);
}

/* Sign of x(s) - x: the double value when it is clearly away from zero,
 * else the double-double one. */
static int bez_side(const bez_t *b, double s, double x, double fx)
{
    double f = fx - x;
    if (f > b->ferr)
        return 1;
    if (f < -b->ferr)
        return -1;
    return bez_side_exact(b, s, x);
}

/* The curve parameter s in [0,1] with x(s) = x, for x in (0,1). x(s) is
 * monotone for x1, x2 in [0,1], so bisection always converges; Newton is
 * tried first from a bracketed, interpolated guess. */
static double bez_param(const bez_t *b, double x)
{
    double lo = 0.0, hi = 1.0, xlo = 0.0, xhi = 1.0;
    double s, fx;
    int side, i;

    /* a good initial guess: three robust bisection steps bracket the root
     * to 1/8, then interpolate linearly inside the bracket */
    for (i = 0; i < 3; i++) {
        s = 0.5 * (lo + hi);
        fx = bez_x(b, s);
        side = bez_side(b, s, x, fx);
        if (side == 0)
            return s;
        if (side < 0)
            lo = s, xlo = fx;
        else
            hi = s, xhi = fx;
    }
    s = xhi > xlo ? lo + (x - xlo) / (xhi - xlo) * (hi - lo) : 0.5 * (lo + hi);
    if (!(s >= lo && s <= hi))
        s = 0.5 * (lo + hi);

    for (i = 0; i < 4; i++) {
        double f = bez_x(b, s) - x, d = bez_dx(b, s);
        if (fabs(f) <= b->ferr || d == 0.0)
            break;   /* converged to rounding level, or stalled */
        s -= f / d;
        if (!(s >= lo))
            s = lo;
        else if (s > hi)
            s = hi;
    }
    /* accept only when the error estimate says y is within 1e-9: the
     * rounding of x(s) is part of the estimate, and a small x'(s) (where
     * the linear estimate is unreliable) is left to bisection */
    {
        double f = fabs(bez_x(b, s) - x) + b->ferr, d = bez_dx(b, s);
        if (d >= 1e-4 && s >= 0.0 && s <= 1.0) {
            double err_s = f / d;
            if (err_s <= 1e-8 && fabs(bez_dy(b, s)) * err_s <= 1e-9)
                return s;
        }
    }

    /* bisection to an s-interval of 1e-12: the y error is then at most
     * |y'| * 5e-13 wherever Newton stalled */
    for (i = 0; i < 60 && hi - lo > 1e-12; i++) {
        s = 0.5 * (lo + hi);
        side = bez_side(b, s, x, bez_x(b, s));
        if (side == 0)
            return s;
        if (side < 0)
            lo = s;
        else
            hi = s;
    }
    return 0.5 * (lo + hi);
}

/* Gradients of the CSS extrapolation outside [0,1], as Chromium's
 * cubic_bezier.cc: the tangent at the end point through the nearest control
 * point that does not coincide with it; a vertical tangent (control point
 * straight above the end point) breaks down to 0, the all-coincident case
 * (0,0,0,0) or (1,1,1,1) is the line through both end points. */
static double bez_start_gradient(double p1x, double p1y, double p2x, double p2y)
{
    if (p1x > 0.0)
        return p1y / p1x;
    if (p1y == 0.0 && p2x > 0.0)
        return p2y / p2x;
    if (p1y == 0.0 && p2y == 0.0)
        return 1.0;
    return 0.0;
}

static double bez_end_gradient(double p1x, double p1y, double p2x, double p2y)
{
    if (p2x < 1.0)
        return (p2y - 1.0) / (p2x - 1.0);
    if (p2y == 1.0 && p1x < 1.0)
        return (p1y - 1.0) / (p1x - 1.0);
    if (p2y == 1.0 && p1y == 1.0)
        return 1.0;
    return 0.0;
}

double rf_cubic_solve(double p1x, double p1y, double p2x, double p2y, double x)
{
    bez_t b;
    double y;

    if (x != x)
        return x;
    if (x <= 0.0) {
        if (x == 0.0)
            return 0.0;
        return 0.0 + bez_start_gradient(p1x, p1y, p2x, p2y) * x;   /* no -0 */
    }
    if (x >= 1.0) {
        if (x == 1.0)
            return 1.0;
        return 1.0 + bez_end_gradient(p1x, p1y, p2x, p2y) * (x - 1.0);
    }
    bez_init(&b, p1x, p1y, p2x, p2y);
    y = bez_y(&b, bez_param(&b, x));
    /* with both y in [0,1] the curve lies in the unit square: keep rounding
     * from stepping outside it, so that the range [0,1] is sound */
    if (p1y >= 0.0 && p1y <= 1.0 && p2y >= 0.0 && p2y <= 1.0)
        y = y < 0.0 ? 0.0 : (y > 1.0 ? 1.0 : y);
    return y;
}

/* dy/dx at parameter s, with l'Hopital where x'(s) = 0 (p1x = 0 at s = 0,
 * p2x = 1 at s = 1, or the inflection of (1, y1, 0, y2)). A vertical tangent
 * is reported as an infinite slope. */
static double bez_slope_at(const bez_t *b, double s)
{
    double dx = bez_dx(b, s), dy = bez_dy(b, s);
    if (dx != 0.0)
        return dy / dx;
    if (dy != 0.0)
        return copysign(INFINITY, dy);
    dx = 6.0 * b->ax * s + 2.0 * b->bx;
    dy = 6.0 * b->ay * s + 2.0 * b->by;
    if (dx != 0.0)
        return dy / dx;
    if (dy != 0.0)
        return copysign(INFINITY, dy);
    return b->ax != 0.0 ? b->ay / b->ax : 0.0;
}

static double cubic_slope(const double *p, double x)
{
    bez_t b;
    double s;

    if (x != x)
        return x;
    if (x < 0.0)
        return bez_start_gradient(p[0], p[1], p[2], p[3]);
    if (x > 1.0)
        return bez_end_gradient(p[0], p[1], p[2], p[3]);
    bez_init(&b, p[0], p[1], p[2], p[3]);
    s = x == 0.0 ? 0.0 : (x == 1.0 ? 1.0 : bez_param(&b, x));
    return bez_slope_at(&b, s);
}

/* A few ulps beyond an interior extremum: eval's own rounding near it must
 * stay inside the published range. */
static double pad_up(double v) { return v + (fabs(v) + 1.0) * 0x1p-48; }
static double pad_down(double v) { return v - (fabs(v) + 1.0) * 0x1p-48; }

/* y(s) over s in [0,1] (which is eval over p in [0,1], x being a monotone
 * bijection): the end values and y at the roots of y'(s) inside (0,1). */
static void cubic_range(const double *p, double *lo, double *hi)
{
    bez_t b;
    double qa, qb, qc, roots[2];
    int nr, i;

    *lo = 0.0;
    *hi = 1.0;
    bez_init(&b, p[0], p[1], p[2], p[3]);
    qa = 3.0 * b.ay;
    qb = 2.0 * b.by;
    qc = b.cy;
    nr = rf_quad_roots(qa, qb, qc, roots);
    for (i = 0; i < nr; i++) {
        double s = roots[i], y;
        if (!(s > 0.0 && s < 1.0))
            continue;
        y = bez_y(&b, s);
        if (y < *lo)
            *lo = pad_down(y);
        if (y > *hi)
            *hi = pad_up(y);
    }
}

/* ------------------------------------------------------------------- steps */

static double steps_jumps(const rf_easing_t *e)
{
    double n = (double)e->n;
    switch (e->sub) {
    case RF_JUMP_NONE: return n - 1.0;
    case RF_JUMP_BOTH: return n + 1.0;
    default: return n;
    }
}

/* CSS Easing 1 step easing function, with the before flag unset: our
 * callers never evaluate in an animation's before phase. */
static double steps_eval(const rf_easing_t *e, double x)
{
    double step = floor(x * (double)e->n);
    double jumps = steps_jumps(e);
    if (e->sub == RF_JUMP_START || e->sub == RF_JUMP_BOTH)
        step += 1.0;
    if (x >= 0.0 && step < 0.0)
        step = 0.0;
    if (x <= 1.0 && step > jumps)
        step = jumps;
    return step / jumps;
}

/* ------------------------------------------------------------ linear() stops */

/* The segment the CSS algorithm uses for x: index of the last point with
 * input <= x (0 when none), moved back by one at the last point. */
static uint32_t stops_segment(const rf_stop_t *pt, uint32_t n, double x)
{
    uint32_t lo = 0, hi = n;   /* first index with input > x is in [lo, hi] */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (pt[mid].x <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t a = lo == 0 ? 0 : lo - 1;
    if (a >= n - 1)
        a = n - 2;
    return a;
}

static double stops_line(const rf_stop_t *a, const rf_stop_t *b, double x)
{
    if (a->x == b->x)
        return b->y;
    return a->y + (x - a->x) / (b->x - a->x) * (b->y - a->y);
}

static double stops_eval(const rf_easing_t *e, double x)
{
    uint32_t i = stops_segment(e->stops, e->n, x);
    return stops_line(&e->stops[i], &e->stops[i + 1], x);
}

static double stops_slope(const rf_easing_t *e, double x)
{
    uint32_t i = stops_segment(e->stops, e->n, x);
    const rf_stop_t *a = &e->stops[i], *b = &e->stops[i + 1];
    return a->x == b->x ? 0.0 : (b->y - a->y) / (b->x - a->x);
}

/* Exact range over [0,1]: each segment's line over the closure of the part
 * of [0,1] where the algorithm uses it. */
static void stops_range(const rf_easing_t *e, double *lo, double *hi)
{
    const rf_stop_t *pt = e->stops;
    uint32_t n = e->n;
    *lo = *hi = stops_eval(e, 0.0);
    for (uint32_t i = 0; i + 1 < n; i++) {
        double l = i == 0 ? -INFINITY : pt[i].x;
        double r = i + 2 == n ? INFINITY : pt[i + 1].x;
        if (i > 0 && i + 2 < n && !(pt[i].x < pt[i + 1].x))
            continue;   /* never used: a later point has the same input */
        if (l < 0.0)
            l = 0.0;
        if (r > 1.0)
            r = 1.0;
        if (l > r)
            continue;
        double v[2] = {stops_line(&pt[i], &pt[i + 1], l), stops_line(&pt[i], &pt[i + 1], r)};
        for (int k = 0; k < 2; k++) {
            if (v[k] < *lo)
                *lo = v[k];
            if (v[k] > *hi)
                *hi = v[k];
        }
    }
}

/* ------------------------------------------------------------------ Penner */

/* easings.net constants */
#define BACK_C1 1.70158
#define BACK_C2 (BACK_C1 * 1.525)
#define BACK_C3 (BACK_C1 + 1.0)
#define ELASTIC_C4 (2.0 * RF_PI / 3.0)
#define ELASTIC_C5 (2.0 * RF_PI / 4.5)
#define BOUNCE_N1 7.5625
#define BOUNCE_D1 2.75

static double ipow(double x, int k)
{
    double r = x;
    while (--k > 0)
        r *= x;
    return r;
}

/* easeOutBounce and its derivative */
static double bounce_out(double x, double *d)
{
    double c;
    if (x < 1.0 / BOUNCE_D1)
        c = 0.0;
    else if (x < 2.0 / BOUNCE_D1)
        x -= 1.5 / BOUNCE_D1, c = 0.75;
    else if (x < 2.5 / BOUNCE_D1)
        x -= 2.25 / BOUNCE_D1, c = 0.9375;
    else
        x -= 2.625 / BOUNCE_D1, c = 0.984375;
    *d = 2.0 * BOUNCE_N1 * x;
    return BOUNCE_N1 * x * x + c;
}

/* Function fn (family * 3 + direction) at x in [0,1], exactly as easings.net
 * writes it, and its analytic derivative in *d (one-sided at 0 and 1,
 * ignoring the point values easings.net pins at the ends). */
static double penner(int fn, double x, double *d)
{
    int fam = fn / 3, dir = fn % 3;
    double y, t;

    switch (fam) {
    case RF_PENNER_SINE:
        if (dir == RF_PENNER_IN) {
            *d = RF_PI / 2.0 * sin(x * RF_PI / 2.0);
            return 1.0 - cos(x * RF_PI / 2.0);
        }
        if (dir == RF_PENNER_OUT) {
            *d = RF_PI / 2.0 * cos(x * RF_PI / 2.0);
            return sin(x * RF_PI / 2.0);
        }
        *d = RF_PI / 2.0 * sin(RF_PI * x);
        return -(cos(RF_PI * x) - 1.0) / 2.0;
    case RF_PENNER_QUAD:
    case RF_PENNER_CUBIC:
    case RF_PENNER_QUART:
    case RF_PENNER_QUINT: {
        int k = fam - RF_PENNER_QUAD + 2;
        if (dir == RF_PENNER_IN) {
            *d = k * ipow(x, k - 1);
            return ipow(x, k);
        }
        if (dir == RF_PENNER_OUT) {
            *d = k * ipow(1.0 - x, k - 1);
            return 1.0 - ipow(1.0 - x, k);
        }
        if (x < 0.5) {
            double c = ldexp(1.0, k - 1);
            *d = c * k * ipow(x, k - 1);
            return c * ipow(x, k);
        }
        t = -2.0 * x + 2.0;
        *d = k * ipow(t, k - 1);
        return 1.0 - ipow(t, k) / 2.0;
    }
    case RF_PENNER_EXPO:
        if (dir == RF_PENNER_IN) {
            t = pow(2.0, 10.0 * x - 10.0);
            *d = 10.0 * RF_LN2 * t;
            return x == 0.0 ? 0.0 : t;
        }
        if (dir == RF_PENNER_OUT) {
            t = pow(2.0, -10.0 * x);
            *d = 10.0 * RF_LN2 * t;
            return x == 1.0 ? 1.0 : 1.0 - t;
        }
        if (x < 0.5) {
            t = pow(2.0, 20.0 * x - 10.0);
            *d = 10.0 * RF_LN2 * t;
            return x == 0.0 ? 0.0 : t / 2.0;
        }
        t = pow(2.0, -20.0 * x + 10.0);
        *d = 10.0 * RF_LN2 * t;
        return x == 1.0 ? 1.0 : (2.0 - t) / 2.0;
    case RF_PENNER_CIRC:
        /* the derivative is infinite where the square root vanishes */
        if (dir == RF_PENNER_IN) {
            t = sqrt(1.0 - x * x);
            *d = x / t;
            return 1.0 - t;
        }
        if (dir == RF_PENNER_OUT) {
            t = sqrt(1.0 - (x - 1.0) * (x - 1.0));
            *d = (1.0 - x) / t;
            return t;
        }
        if (x < 0.5) {
            t = sqrt(1.0 - (2.0 * x) * (2.0 * x));
            *d = 2.0 * x / t;
            return (1.0 - t) / 2.0;
        }
        y = -2.0 * x + 2.0;
        t = sqrt(1.0 - y * y);
        *d = y / t;
        return (t + 1.0) / 2.0;
    case RF_PENNER_BACK:
        if (dir == RF_PENNER_IN) {
            *d = 3.0 * BACK_C3 * x * x - 2.0 * BACK_C1 * x;
            return BACK_C3 * x * x * x - BACK_C1 * x * x;
        }
        if (dir == RF_PENNER_OUT) {
            t = x - 1.0;
            *d = 3.0 * BACK_C3 * t * t + 2.0 * BACK_C1 * t;
            return 1.0 + BACK_C3 * ipow(t, 3) + BACK_C1 * t * t;
        }
        if (x < 0.5) {
            t = 2.0 * x;
            *d = 3.0 * (BACK_C2 + 1.0) * t * t - 2.0 * BACK_C2 * t;
            return (t * t * ((BACK_C2 + 1.0) * t - BACK_C2)) / 2.0;
        }
        t = 2.0 * x - 2.0;
        *d = 3.0 * (BACK_C2 + 1.0) * t * t + 2.0 * BACK_C2 * t;
        return (t * t * ((BACK_C2 + 1.0) * t + BACK_C2) + 2.0) / 2.0;
    case RF_PENNER_ELASTIC:
        if (dir == RF_PENNER_IN) {
            double th = (x * 10.0 - 10.75) * ELASTIC_C4;
            t = pow(2.0, 10.0 * x - 10.0);
            *d = -10.0 * t * (RF_LN2 * sin(th) + ELASTIC_C4 * cos(th));
            return x == 0.0 ? 0.0 : (x == 1.0 ? 1.0 : -t * sin(th));
        }
        if (dir == RF_PENNER_OUT) {
            double th = (x * 10.0 - 0.75) * ELASTIC_C4;
            t = pow(2.0, -10.0 * x);
            *d = 10.0 * t * (ELASTIC_C4 * cos(th) - RF_LN2 * sin(th));
            return x == 0.0 ? 0.0 : (x == 1.0 ? 1.0 : t * sin(th) + 1.0);
        }
        {
            double th = (20.0 * x - 11.125) * ELASTIC_C5;
            if (x < 0.5) {
                t = pow(2.0, 20.0 * x - 10.0);
                *d = -10.0 * t * (RF_LN2 * sin(th) + ELASTIC_C5 * cos(th));
                return x == 0.0 ? 0.0 : -(t * sin(th)) / 2.0;
            }
            t = pow(2.0, -20.0 * x + 10.0);
            *d = 10.0 * t * (ELASTIC_C5 * cos(th) - RF_LN2 * sin(th));
            return x == 1.0 ? 1.0 : (t * sin(th)) / 2.0 + 1.0;
        }
    case RF_PENNER_BOUNCE:
    default:
        if (dir == RF_PENNER_IN) {
            y = 1.0 - bounce_out(1.0 - x, d);
            return y;
        }
        if (dir == RF_PENNER_OUT)
            return bounce_out(x, d);
        if (x < 0.5)
            return (1.0 - bounce_out(1.0 - 2.0 * x, d)) / 2.0;
        return (1.0 + bounce_out(2.0 * x - 1.0, d)) / 2.0;
    }
}

static int penner_overshoots(int fam)
{
    return fam == RF_PENNER_BACK || fam == RF_PENNER_ELASTIC;
}

static double penner_eval(int fn, double x)
{
    double d, y;
    if (x < 0.0)
        x = 0.0;
    else if (x > 1.0)
        x = 1.0;   /* NaN passes through both */
    /* the formulas meet 0 and 1 at the ends only up to rounding (c3 - c1
     * for back is not exactly 1): pin them */
    if (x == 0.0 || x == 1.0)
        return x;
    y = penner(fn, x, &d);
    /* the families that stay in [0,1] mathematically stay there in
     * floating point too, so that their range [0,1] is sound */
    if (!penner_overshoots(fn / 3))
        y = y < 0.0 ? 0.0 : (y > 1.0 ? 1.0 : y);
    return y;
}

/* Overshoot of back-in with constants c (c+1) x^3 - c x^2 at its minimum
 * x = 2c / (3 (c+1)): -4 c^3 / (27 (c+1)^2). */
static double back_dip(double c)
{
    return 4.0 * c * c * c / (27.0 * (c + 1.0) * (c + 1.0));
}

/* Peak above 1 of 2^(-10u) sin((10u - u0) c) + 1 for u in [0,1], where the
 * phase starts at -pi/2: the first zero of the derivative, tan(theta) =
 * c / ln 2, is the largest lobe (each later one is 2^(-2 pi / c) smaller). */
static double elastic_peak(double c, double u0)
{
    double th = atan(c / RF_LN2);
    double u = (th / c + u0) / 10.0;
    return pow(2.0, -10.0 * u) * sin(th);
}

static void penner_range(int fn, double *lo, double *hi)
{
    int fam = fn / 3, dir = fn % 3;
    double a;

    *lo = 0.0;
    *hi = 1.0;
    if (fam == RF_PENNER_BACK) {
        if (dir == RF_PENNER_IN)
            *lo = pad_down(-back_dip(BACK_C1));
        else if (dir == RF_PENNER_OUT)
            *hi = pad_up(1.0 + back_dip(BACK_C1));
        else {
            a = back_dip(BACK_C2) / 2.0;
            *lo = pad_down(-a);
            *hi = pad_up(1.0 + a);
        }
    } else if (fam == RF_PENNER_ELASTIC) {
        if (dir == RF_PENNER_IN)
            *lo = pad_down(-elastic_peak(ELASTIC_C4, 0.75));
        else if (dir == RF_PENNER_OUT)
            *hi = pad_up(1.0 + elastic_peak(ELASTIC_C4, 0.75));
        else {
            a = elastic_peak(ELASTIC_C5, 1.125) / 2.0;
            *lo = pad_down(-a);
            *hi = pad_up(1.0 + a);
        }
    }
}

/* ------------------------------------------------------------------ public */

void rf_easing_init_linear(rf_easing_t *e)
{
    memset(e, 0, sizeof *e);
    e->kind = RF_EASE_LINEAR;
}

static double clamp01(double v) { return v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v); }

void rf_easing_init_cubic(rf_easing_t *e, double p1x, double p1y, double p2x,
                          double p2y, int clamp)
{
    memset(e, 0, sizeof *e);
    e->kind = RF_EASE_CUBIC;
    /* x is clamped either way: the solver relies on x(s) being monotone */
    e->p[0] = clamp01(p1x);
    e->p[1] = clamp ? clamp01(p1y) : p1y;
    e->p[2] = clamp01(p2x);
    e->p[3] = clamp ? clamp01(p2y) : p2y;
}

void rf_easing_init_sampled(rf_easing_t *e, const double *samples, uint32_t n)
{
    memset(e, 0, sizeof *e);
    e->kind = RF_EASE_SAMPLED;
    e->n = n;
    e->samples = samples;
}

/* The segment of a sampled easing that p falls in (p clamped to [0,1]):
 * index i <= n-2 and the fraction u in [0,1] within it. */
static uint32_t sampled_seg(const rf_easing_t *e, double p, double *u)
{
    double x = (p > 0.0 ? (p < 1.0 ? p : 1.0) : 0.0) * (double)(e->n - 1);
    double f = floor(x);
    uint32_t i = (uint32_t)f;
    if (i > e->n - 2)
        i = e->n - 2;
    *u = x - (double)i;
    return i;
}

static double sampled_eval(const rf_easing_t *e, double p)
{
    double u;
    uint32_t i = sampled_seg(e, p, &u);
    double a = e->samples[i], b = e->samples[i + 1];
    return u == 0.0 ? a : u == 1.0 ? b : a + (b - a) * u;
}

double rf_easing_eval(const rf_easing_t *e, double p)
{
    /* + 0.0 turns a -0 (0 * negative, floor of -0) into 0 for the printers */
    switch (e->kind) {
    case RF_EASE_CUBIC:
        return rf_cubic_solve(e->p[0], e->p[1], e->p[2], e->p[3], p) + 0.0;
    case RF_EASE_STEPS:
        return steps_eval(e, p) + 0.0;
    case RF_EASE_STOPS:
        return stops_eval(e, p) + 0.0;
    case RF_EASE_PENNER:
        return penner_eval(e->sub, p) + 0.0;
    case RF_EASE_SAMPLED:
        return sampled_eval(e, p) + 0.0;
    default:
        return p + 0.0;
    }
}

double rf_easing_slope(const rf_easing_t *e, double p)
{
    double d;
    switch (e->kind) {
    case RF_EASE_CUBIC:
        return cubic_slope(e->p, p);
    case RF_EASE_STEPS:
        return 0.0;
    case RF_EASE_STOPS:
        return stops_slope(e, p);
    case RF_EASE_PENNER:
        /* clamped outside [0,1]: flat there */
        if (!(p >= 0.0 && p <= 1.0))
            return p != p ? p : 0.0;
        penner(e->sub, p, &d);
        return d;
    case RF_EASE_SAMPLED: {
        if (!(p >= 0.0 && p <= 1.0))
            return p != p ? p : 0.0;
        double u;
        uint32_t i = sampled_seg(e, p, &u);
        return (e->samples[i + 1] - e->samples[i]) * (double)(e->n - 1);
    }
    default:
        return 1.0;
    }
}

void rf_easing_range(const rf_easing_t *e, double *lo, double *hi)
{
    switch (e->kind) {
    case RF_EASE_CUBIC:
        cubic_range(e->p, lo, hi);
        return;
    case RF_EASE_STEPS:
        /* non-decreasing in p */
        *lo = steps_eval(e, 0.0);
        *hi = steps_eval(e, 1.0);
        return;
    case RF_EASE_STOPS:
        stops_range(e, lo, hi);
        return;
    case RF_EASE_PENNER:
        penner_range(e->sub, lo, hi);
        return;
    case RF_EASE_SAMPLED:
        /* linear between the samples: their extremes, exactly */
        *lo = *hi = e->samples[0];
        for (uint32_t i = 1; i < e->n; i++) {
            *lo = fmin(*lo, e->samples[i]);
            *hi = fmax(*hi, e->samples[i]);
        }
        return;
    default:
        *lo = 0.0;
        *hi = 1.0;
        return;
    }
}
