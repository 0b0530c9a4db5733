/* easing.c - timing functions: CSS keywords, cubic-bezier, steps(), linear()
 * stops and the easings.net (Penner) family.
 *
 * Everything here is pure: descriptors are built by the parser or the init
 * functions and only read afterwards. Evaluation never allocates.
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
#include "suggest.h"

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
    default:
        *lo = 0.0;
        *hi = 1.0;
        return;
    }
}

/* ------------------------------------------------------------------- names */

/* Every easing keyword, for "did you mean": the CSS ones, then the Penner
 * names in function-index order (so that penner index i is entry 7 + i). */
static const char *const easing_keywords[] = {
    "linear", "ease", "ease-in", "ease-out", "ease-in-out", "step-start", "step-end",
    "ease-in-sine", "ease-out-sine", "ease-in-out-sine",
    "ease-in-quad", "ease-out-quad", "ease-in-out-quad",
    "ease-in-cubic", "ease-out-cubic", "ease-in-out-cubic",
    "ease-in-quart", "ease-out-quart", "ease-in-out-quart",
    "ease-in-quint", "ease-out-quint", "ease-in-out-quint",
    "ease-in-expo", "ease-out-expo", "ease-in-out-expo",
    "ease-in-circ", "ease-out-circ", "ease-in-out-circ",
    "ease-in-back", "ease-out-back", "ease-in-out-back",
    "ease-in-elastic", "ease-out-elastic", "ease-in-out-elastic",
    "ease-in-bounce", "ease-out-bounce", "ease-in-out-bounce",
};
#define N_KEYWORDS (sizeof easing_keywords / sizeof easing_keywords[0])
#define N_CSS_KEYWORDS 7
#define N_CUBIC_KEYWORDS 5   /* linear and the four ease names */

/* The CSS cubic keywords' control points (index 1..4 of easing_keywords). */
static const double css_ease_points[4][4] = {
    {0.25, 0.1, 0.25, 1.0},   /* ease */
    {0.42, 0.0, 1.0, 1.0},    /* ease-in */
    {0.0, 0.0, 0.58, 1.0},    /* ease-out */
    {0.42, 0.0, 0.58, 1.0},   /* ease-in-out */
};

static const char *const function_names[] = {"steps", "cubic-bezier", "linear"};

static const char *const step_positions[] = {
    "jump-start", "jump-end", "jump-none", "jump-both", "start", "end",
};

/* Appends printf output at *pos in buf (capacity len), truncating safely. */
static void buf_add(char *buf, size_t len, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void buf_add(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
    va_list ap;
    int r;
    if (*pos >= len)
        return;
    va_start(ap, fmt);
    r = vsnprintf(buf + *pos, len - *pos, fmt, ap);
    va_end(ap);
    if (r < 0)
        return;
    *pos += (size_t)r;
    if (*pos >= len)
        *pos = len;
}

/* v in the fewest of 15, 16 or 17 significant digits that read back as v */
static const char *fmt_num(char out[32], double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(out, 32, "%.*g", prec, v);
        if (strtod(out, NULL) == v)
            break;
    }
    return out;
}

/* When the name did not fit, end it with "...)" inside the buffer. */
static void mark_truncated(char *buf, size_t len, size_t pos)
{
    if (pos >= len && len >= 5)
        memcpy(buf + len - 5, "...)", 5);
}

const char *rf_easing_name(const rf_easing_t *e, char *buf, size_t len)
{
    size_t pos = 0;
    char n0[32], n1[32], n2[32], n3[32];
    if (len == 0)
        return buf;
    buf[0] = '\0';
    switch (e->kind) {
    case RF_EASE_CUBIC:
        for (int i = 0; i < 4; i++) {
            const double *c = css_ease_points[i];
            if (e->p[0] == c[0] && e->p[1] == c[1] && e->p[2] == c[2] && e->p[3] == c[3]) {
                buf_add(buf, len, &pos, "%s", easing_keywords[1 + i]);
                return buf;
            }
        }
        buf_add(buf, len, &pos, "cubic-bezier(%s, %s, %s, %s)", fmt_num(n0, e->p[0]),
                fmt_num(n1, e->p[1]), fmt_num(n2, e->p[2]), fmt_num(n3, e->p[3]));
        mark_truncated(buf, len, pos);
        return buf;
    case RF_EASE_STEPS:
        if (e->sub == RF_JUMP_END)
            buf_add(buf, len, &pos, "steps(%lu)", (unsigned long)e->n);
        else
            buf_add(buf, len, &pos, "steps(%lu, %s)", (unsigned long)e->n,
                    step_positions[e->sub < 4 ? e->sub : 0]);
        return buf;
    case RF_EASE_STOPS:
        buf_add(buf, len, &pos, "linear(");
        for (uint32_t i = 0; i < e->n && pos < len; i++)
            buf_add(buf, len, &pos, "%s%s %.15g%%", i ? ", " : "", fmt_num(n0, e->stops[i].y),
                    e->stops[i].x * 100.0);
        buf_add(buf, len, &pos, ")");
        mark_truncated(buf, len, pos);
        return buf;
    case RF_EASE_PENNER:
        if (e->sub < RF_PENNER_FAMILIES * 3)
            buf_add(buf, len, &pos, "%s", easing_keywords[N_CSS_KEYWORDS + e->sub]);
        return buf;
    default:
        buf_add(buf, len, &pos, "linear");
        return buf;
    }
}

/* ----------------------------------------------------------------- parsing */

typedef struct parser {
    const char *text;   /* the whole easing string, for messages */
    const char *s;      /* cursor */
    char *err;
    size_t errlen;
} parser_t;

static int perr(parser_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int perr(parser_t *p, const char *fmt, ...)
{
    va_list ap;
    if (p->err && p->errlen) {
        va_start(ap, fmt);
        vsnprintf(p->err, p->errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

static void skip_ws(parser_t *p)
{
    while (is_ws(*p->s))
        p->s++;
}

/* Length of the token at s, for messages: up to a separator. */
static int token_len(const char *s)
{
    int n = 0;
    while (s[n] && !is_ws(s[n]) && s[n] != ',' && s[n] != ')' && s[n] != '(' && n < 40)
        n++;
    return n;
}

/* A CSS <number> at the cursor: [+-] digits [. digits] [e [+-] digits], or
 * [+-] . digits [...]. Returns its length (0 when there is none); the value
 * goes to *out, and *is_int says whether it was written as an integer. */
static size_t scan_number(const char *s, double *out, int *is_int)
{
    size_t i = 0, digits = 0;
    char tmp[128];

    *is_int = 1;
    if (s[i] == '+' || s[i] == '-')
        i++;
    while (isdigit((unsigned char)s[i]))
        i++, digits++;
    if (s[i] == '.' && isdigit((unsigned char)s[i + 1])) {
        *is_int = 0;
        i++;
        while (isdigit((unsigned char)s[i]))
            i++, digits++;
    }
    if (digits == 0)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-')
            j++;
        if (isdigit((unsigned char)s[j])) {
            *is_int = 0;
            while (isdigit((unsigned char)s[j]))
                j++;
            i = j;
        }
    }
    if (i >= sizeof tmp) {
        *out = INFINITY;   /* absurdly long: reported as out of range */
        return i;
    }
    memcpy(tmp, s, i);
    tmp[i] = '\0';
    *out = strtod(tmp, NULL);
    return i;
}

/* A finite number at the cursor (after whitespace); what names it in messages. */
static int parse_number(parser_t *p, const char *what, double *out)
{
    int is_int;
    size_t n;
    skip_ws(p);
    n = scan_number(p->s, out, &is_int);
    if (n == 0) {
        if (*p->s == '\0' || *p->s == ')')
            return perr(p, "%s: missing number in '%s'", what, p->text);
        return perr(p, "%s: expected a number, got '%.*s'", what,
                    token_len(p->s) ? token_len(p->s) : 1, p->s);
    }
    if (!isfinite(*out))
        return perr(p, "%s: number out of range: '%.*s'", what, (int)n, p->s);
    p->s += n;
    return 0;
}

/* Expects ch (after whitespace). */
static int expect(parser_t *p, char ch, const char *fname)
{
    skip_ws(p);
    if (*p->s == ch) {
        p->s++;
        return 0;
    }
    if (*p->s == '\0')
        return perr(p, "missing '%c' in %s() of '%s'", ch, fname, p->text);
    return perr(p, "expected '%c' in %s(), got '%.*s'", ch, fname,
                token_len(p->s) ? token_len(p->s) : 1, p->s);
}

/* After the closing parenthesis only whitespace may follow. */
static int expect_end(parser_t *p)
{
    skip_ws(p);
    if (*p->s != '\0')
        return perr(p, "unexpected '%.*s' after the end of '%s'",
                    token_len(p->s) ? token_len(p->s) : 1, p->s, p->text);
    return 0;
}

/* Reads an identifier ([a-zA-Z0-9-]) into buf; returns its length. */
static size_t read_ident(const char *s, char *buf, size_t cap)
{
    size_t n = 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '-' || s[n] == '_') {
        if (n + 1 < cap)
            buf[n] = s[n];
        n++;
    }
    buf[n < cap ? n : cap - 1] = '\0';
    return n;
}

static int parse_steps(parser_t *p, rf_easing_t *e)
{
    double v;
    int is_int;
    size_t n;
    rf_jump_t jump = RF_JUMP_END;

    skip_ws(p);
    n = scan_number(p->s, &v, &is_int);
    if (n == 0 && (*p->s == ')' || *p->s == ',' || *p->s == '\0'))
        return perr(p, "steps() needs a step count");
    if (n == 0 || !is_int || !(v >= 1.0)) {
        int tl = n ? (int)n : token_len(p->s);
        return perr(p, "steps() needs a positive integer step count, got '%.*s'", tl, p->s);
    }
    if (v > 1e9)
        return perr(p, "steps() step count too large: '%.*s' (at most 1000000000)", (int)n, p->s);
    p->s += n;
    skip_ws(p);
    if (*p->s == ',') {
        char word[48];
        size_t wl;
        int k;
        p->s++;
        skip_ws(p);
        wl = read_ident(p->s, word, sizeof word);
        if (wl == 0)
            return perr(p, "steps() needs a step position after the comma in '%s'", p->text);
        for (k = 0; k < 6; k++)
            if (wl == strlen(step_positions[k]) && strcmp(word, step_positions[k]) == 0)
                break;
        if (k == 6) {
            const char *dym = rf_did_you_mean(word, step_positions, 6);
            if (dym)
                return perr(p, "unknown steps() position '%s' (did you mean '%s'?)", word, dym);
            return perr(p, "unknown steps() position '%s' (expected jump-start, jump-end, "
                        "jump-none, jump-both, start or end)", word);
        }
        jump = k == 4 ? RF_JUMP_START : (k == 5 ? RF_JUMP_END : (rf_jump_t)k);
        p->s += wl;
    }
    if (expect(p, ')', "steps") < 0)
        return -1;
    if (jump == RF_JUMP_NONE && v < 2.0)
        return perr(p, "steps(%.0f, jump-none) needs at least 2 steps", v);
    memset(e, 0, sizeof *e);
    e->kind = RF_EASE_STEPS;
    e->sub = (uint8_t)jump;
    e->n = (uint32_t)v;
    return 0;
}

static int parse_cubic(parser_t *p, rf_easing_t *e, int clamp)
{
    static const char *const names[4] = {"cubic-bezier() x1", "cubic-bezier() y1",
                                         "cubic-bezier() x2", "cubic-bezier() y2"};
    double v[4];
    for (int i = 0; i < 4; i++) {
        if (i > 0) {
            skip_ws(p);
            if (*p->s == ')')
                return perr(p, "cubic-bezier() takes 4 numbers, got %d", i);
            if (expect(p, ',', "cubic-bezier") < 0)
                return -1;
        }
        if (parse_number(p, names[i], &v[i]) < 0)
            return -1;
    }
    skip_ws(p);
    if (*p->s == ',')
        return perr(p, "cubic-bezier() takes 4 numbers, got more");
    if (expect(p, ')', "cubic-bezier") < 0)
        return -1;
    if (!(v[0] >= 0.0 && v[0] <= 1.0))
        return perr(p, "cubic-bezier() x1 must be in [0, 1], got %.15g", v[0]);
    if (!(v[2] >= 0.0 && v[2] <= 1.0))
        return perr(p, "cubic-bezier() x2 must be in [0, 1], got %.15g", v[2]);
    rf_easing_init_cubic(e, v[0], v[1], v[2], v[3], clamp);
    return 0;
}

/* One linear() stop: <number> && <percentage>{0,2}, in either order. */
typedef struct lstop {
    double out;
    double in[2];
    int nin;
} lstop_t;

static int parse_lstop(parser_t *p, int index, lstop_t *st)
{
    int have_out = 0, pct_group_done = 0, is_int;
    st->nin = 0;
    st->out = 0.0;
    for (;;) {
        double v;
        size_t n;
        skip_ws(p);
        if (*p->s == ',' || *p->s == ')' || *p->s == '\0')
            break;
        n = scan_number(p->s, &v, &is_int);
        if (n == 0)
            return perr(p, "linear() stop %d: expected a number or percentage, got '%.*s'",
                        index, token_len(p->s) ? token_len(p->s) : 1, p->s);
        if (!isfinite(v))
            return perr(p, "linear() stop %d: number out of range: '%.*s'", index, (int)n, p->s);
        if (p->s[n] == '%') {
            if (pct_group_done || st->nin == 2)
                return perr(p, "linear() stop %d takes at most 2 percentages, together", index);
            st->in[st->nin++] = v / 100.0;
            p->s += n + 1;
        } else {
            if (have_out)
                return perr(p, "linear() stop %d has two output numbers", index);
            have_out = 1;
            st->out = v;
            if (st->nin > 0)
                pct_group_done = 1;
            p->s += n;
        }
    }
    if (!have_out) {
        if (st->nin == 0)
            return perr(p, "linear() stop %d is empty", index);
        return perr(p, "linear() stop %d needs an output number, not only percentages", index);
    }
    return 0;
}

/* Parses linear(...) arguments twice: a first pass (pts == NULL) validates
 * and counts the points, the second fills them, a missing input as NaN.
 * Returns the point count. */
static long parse_linear_pass(parser_t *p, rf_stop_t *pts)
{
    long np = 0;
    int idx = 0;
    for (;;) {
        lstop_t st;
        idx++;
        if (parse_lstop(p, idx, &st) < 0)
            return -1;
        for (int k = 0; k < (st.nin ? st.nin : 1); k++) {
            if (pts) {
                pts[np].y = st.out;
                pts[np].x = k < st.nin ? st.in[k] : NAN;
            }
            np++;
        }
        skip_ws(p);
        if (*p->s == ',') {
            p->s++;
            continue;
        }
        break;
    }
    if (expect(p, ')', "linear") < 0)
        return -1;
    if (idx < 2)
        return perr(p, "linear() needs at least 2 stops, got %d", idx);
    if (np > 1000000)
        return perr(p, "linear() has too many stops (%ld)", np);
    return np;
}

/* CSS Easing 2 "create a linear easing function": an input is at least the
 * largest one before it; a first point without input is at 0, a last one at
 * max(1, largest); runs without inputs are spread evenly between the
 * nearest points that have one. Missing inputs are NaN on entry. */
static void linear_fixup(rf_stop_t *pt, uint32_t n)
{
    double largest = -INFINITY;
    uint32_t i, j;
    for (i = 0; i < n; i++) {
        if (pt[i].x == pt[i].x) {
            if (pt[i].x < largest)
                pt[i].x = largest;
            largest = pt[i].x;
        } else if (i == 0) {
            pt[i].x = largest = 0.0;
        } else if (i == n - 1) {
            pt[i].x = largest > 1.0 ? largest : 1.0;
        }
    }
    for (i = 1; i + 1 < n; i++) {
        if (pt[i].x == pt[i].x)
            continue;
        for (j = i; pt[j].x != pt[j].x; j++)
            ;
        /* pt[i-1] and pt[j] have inputs, i .. j-1 do not */
        for (uint32_t k = i; k < j; k++)
            pt[k].x = pt[i - 1].x + (pt[j].x - pt[i - 1].x) * (double)(k - i + 1) / (double)(j - i + 1);
        i = j;
    }
}

static int parse_linear(parser_t *p, rf_easing_t *e, rf_easing_alloc_fn alloc, void *ctx)
{
    const char *args = p->s;
    long np = parse_linear_pass(p, NULL);
    rf_stop_t *pts;

    if (np < 0)
        return -1;
    if (!alloc)
        return perr(p, "linear() stops need storage, and none was given");
    pts = alloc(ctx, (size_t)np * sizeof *pts);
    if (!pts)
        return perr(p, "out of memory");
    p->s = args;
    parse_linear_pass(p, pts);
    linear_fixup(pts, (uint32_t)np);
    memset(e, 0, sizeof *e);
    e->kind = RF_EASE_STOPS;
    e->n = (uint32_t)np;
    e->stops = pts;
    return 0;
}

/* camelCase alias ("easeInOutCubic") to the CSS-style name. */
static int camel_to_dashed(const char *w, char *out, size_t cap)
{
    size_t n = 0;
    int upper = 0;
    if (strncmp(w, "ease", 4) != 0)
        return 0;
    for (const char *c = w; *c; c++) {
        if (*c == '-')
            return 0;
        if (isupper((unsigned char)*c)) {
            upper = 1;
            if (n + 2 >= cap)
                return 0;
            out[n++] = '-';
            out[n++] = (char)tolower((unsigned char)*c);
        } else {
            if (n + 1 >= cap)
                return 0;
            out[n++] = *c;
        }
    }
    out[n] = '\0';
    return upper;
}

static int keyword_index(const char *w)
{
    for (size_t i = 0; i < N_KEYWORDS; i++)
        if (strcmp(w, easing_keywords[i]) == 0)
            return (int)i;
    return -1;
}

static int only_cubic_error(parser_t *p)
{
    return perr(p, "only linear, ease, ease-in, ease-out, ease-in-out and cubic-bezier() "
                "curves are allowed here, got '%s'", p->text);
}

int rf_easing_parse(rf_easing_t *e, const char *text, int cubic_only,
                    rf_easing_alloc_fn alloc, void *ctx, char *err, size_t errlen)
{
    parser_t p = {text ? text : "", text ? text : "", err, errlen};
    char word[64];
    size_t wl;
    rf_easing_t tmp;

    if (err && errlen)
        err[0] = '\0';
    skip_ws(&p);
    if (*p.s == '\0')
        return perr(&p, "empty easing name");
    wl = read_ident(p.s, word, sizeof word);
    if (wl == 0)
        return perr(&p, "unknown easing '%s'", p.text);
    if (wl >= sizeof word)
        return perr(&p, "unknown easing '%.40s...'", p.s);
    p.s += wl;
    skip_ws(&p);

    if (*p.s == '(') {
        int r;
        p.s++;
        if (strcmp(word, "cubic-bezier") == 0)
            r = parse_cubic(&p, &tmp, cubic_only);
        else if (cubic_only && (strcmp(word, "steps") == 0 || strcmp(word, "linear") == 0))
            return only_cubic_error(&p);
        else if (strcmp(word, "steps") == 0)
            r = parse_steps(&p, &tmp);
        else if (strcmp(word, "linear") == 0)
            r = parse_linear(&p, &tmp, alloc, ctx);
        else {
            const char *dym = rf_did_you_mean(word, function_names, 3);
            if (dym)
                return perr(&p, "unknown easing function '%s()' (did you mean '%s()'?)", word, dym);
            return perr(&p, "unknown easing function '%s()' (expected steps(), cubic-bezier() "
                        "or linear())", word);
        }
        if (r < 0 || expect_end(&p) < 0)
            return -1;
        *e = tmp;
        return 0;
    }

    if (*p.s != '\0')
        return perr(&p, "unknown easing '%s'", p.text);

    int k = keyword_index(word);
    if (k < 0) {
        char dashed[96];
        if (camel_to_dashed(word, dashed, sizeof dashed))
            k = keyword_index(dashed);
    }
    if (k < 0) {
        const char *dym = cubic_only ? rf_did_you_mean(word, easing_keywords, N_CUBIC_KEYWORDS)
                                     : rf_did_you_mean(word, easing_keywords, N_KEYWORDS);
        if (dym)
            return perr(&p, "unknown easing '%s' (did you mean '%s'?)", word, dym);
        if (cubic_only)
            return only_cubic_error(&p);
        return perr(&p, "unknown easing '%s'", word);
    }
    if (cubic_only && k >= N_CUBIC_KEYWORDS)
        return only_cubic_error(&p);

    if (k == 0) {
        rf_easing_init_linear(e);
    } else if (k <= 4) {
        const double *c = css_ease_points[k - 1];
        rf_easing_init_cubic(e, c[0], c[1], c[2], c[3], cubic_only);
    } else if (k == 5 || k == 6) {
        memset(e, 0, sizeof *e);
        e->kind = RF_EASE_STEPS;
        e->n = 1;
        e->sub = k == 5 ? RF_JUMP_START : RF_JUMP_END;
    } else {
        memset(e, 0, sizeof *e);
        e->kind = RF_EASE_PENNER;
        e->sub = (uint8_t)(k - N_CSS_KEYWORDS);
    }
    return 0;
}
