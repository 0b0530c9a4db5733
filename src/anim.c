/* anim.c - closed-form evaluation, settle times and ranges of every curve.
 *
 * Coefficients kept in rf_anim_t.p[] per curve (tau = t - start):
 *   spring, under-damped (regime 0, includes damping 0):
 *     p0 = a = zeta*omega, p1 = w = omega_d, p2 = A = from - to,
 *     p3 = v0 + a*A, p4 = omega^2, p5 = v0
 *     x = to + e^(-a tau) (A cos(w tau) + p3 sin(w tau)/w)
 *   spring, critical (regime 1): p0 = omega, p2 = A, p3 = v0 + omega*A, p5 = v0
 *     x = to + (A + p3 tau) e^(-omega tau)
 *   spring, over-damped (regime 2): p0 = r1 (slow root), p1 = d = r2 - r1,
 *     p2 = A, p3 = K = v0 - r1*A, p5 = v0
 *     x = to + e^(r1 tau) (A + K expm1(d tau)/d)
 *     which is the contract's c1 e^(r1 tau) + c2 e^(r2 tau) with c2 = K/d,
 *     rewritten so that near-critical springs do not cancel catastrophically.
 *   physics: p0 = v0, p1 = gravity, p2 = friction, p3 = gravity/friction,
 *     p4 = min, p5 = max
 *   decay: p0 = v0, p2 = lambda = 4.2 * friction
 * Eased and keyframe curves keep their data in named fields.
 */
#include "anim.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* Searches below are bounded whatever the user's numbers are: a loop never
 * depends on a user number without one of these caps. */
#define RF_PI 3.14159265358979323846
#define BISECT_MAX 200
#define DOUBLING_MAX 2100

enum { SPRING_UNDER = 0, SPRING_CRITICAL = 1, SPRING_OVER = 2 };

/* physics forms */
enum { PHYS_STATIC = 0, PHYS_QUADRATIC = 1, PHYS_FRICTION = 2 };

static double dmin2(double a, double b) { return a < b ? a : b; }
static double dmax2(double a, double b) { return a > b ? a : b; }

static void hull_add(double *lo, double *hi, double x)
{
    if (x < *lo)
        *lo = x;
    if (x > *hi)
        *hi = x;
}

void rf_anim_spec_defaults(rf_anim_spec_t *spec, rf_curve_t curve)
{
    *spec = (rf_anim_spec_t){0};
    spec->curve = curve;
    spec->has_from = 1;
    spec->has_velocity = 1;
    spec->threshold = 0.01;
    spec->stiffness = 170.0;
    spec->damping = 26.0;
    spec->duration = 1.0;
    spec->friction = curve == RF_CURVE_DECAY ? 1.0 : 0.0;
    spec->min = -INFINITY;
    spec->max = INFINITY;
    spec->interp = RF_INTERP_LINEAR;
    rf_easing_init_linear(&spec->easing);
}

/* ------------------------------------------------------------------ spring */

/* Displacement x - to at tau >= 0. */
static double spring_disp(const rf_anim_t *a, double tau)
{
    const double *p = a->p;
    switch (a->regime) {
    case SPRING_UNDER:
        return exp(-p[0] * tau) * (p[2] * cos(p[1] * tau) + p[3] * (sin(p[1] * tau) / p[1]));
    case SPRING_CRITICAL:
        return (p[2] + p[3] * tau) * exp(-p[0] * tau);
    default: {
        double dt = p[1] * tau;
        double e = dt == 0.0 ? tau : expm1(dt) / p[1];
        return exp(p[0] * tau) * (p[2] + p[3] * e);
    }
    }
}

static double spring_vel(const rf_anim_t *a, double tau)
{
    const double *p = a->p;
    switch (a->regime) {
    case SPRING_UNDER:
        return exp(-p[0] * tau) * (p[5] * cos(p[1] * tau)
                                   - (p[0] * p[5] + p[4] * p[2]) * (sin(p[1] * tau) / p[1]));
    case SPRING_CRITICAL:
        return (p[5] - p[0] * p[3] * tau) * exp(-p[0] * tau);
    default: {
        double dt = p[1] * tau;
        double e = dt == 0.0 ? tau : expm1(dt) / p[1];
        return exp(p[0] * tau) * (p[0] * (p[2] + p[3] * e) + p[3] * exp(dt));
    }
    }
}

/* Over-damped: v = e^(r1 tau) g(tau) with g = r1 (A + K E) + K e^(d tau),
 * E = expm1(d tau)/d. g' = K r2 e^(d tau) has one sign, so g is monotone and
 * v has at most one zero: find it by bracketing and bisection; -1 if none. */
static double spring_over_g(const rf_anim_t *a, double tau)
{
    const double *p = a->p;
    double dt = p[1] * tau;
    double e = dt == 0.0 ? tau : expm1(dt) / p[1];
    return p[0] * (p[2] + p[3] * e) + p[3] * exp(dt);
}

static double spring_over_extremum(const rf_anim_t *a)
{
    double v0 = a->p[5];
    double ginf = a->p[0] * (a->p[2] - a->p[3] / a->p[1]); /* r1 c1 */
    if (v0 == 0.0 || ginf == 0.0 || (v0 > 0) == (ginf > 0))
        return -1.0;
    double lo = 0.0, hi = 1.0 / -a->p[0];
    int i;
    for (i = 0; i < DOUBLING_MAX && isfinite(hi); i++) {
        double g = spring_over_g(a, hi);
        if (g == 0.0 || (g > 0) != (v0 > 0))
            break;
        lo = hi;
        hi *= 2.0;
    }
    if (i == DOUBLING_MAX || !isfinite(hi))
        return -1.0;
    for (i = 0; i < BISECT_MAX && hi - lo > 4 * DBL_EPSILON * hi; i++) {
        double mid = 0.5 * (lo + hi);
        double g = spring_over_g(a, mid);
        if (g != 0.0 && (g > 0) == (v0 > 0))
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Extrema of the displacement at tau > 0, in increasing order, at most two:
 * for an under-damped spring the first two dominate all later ones (each
 * half period scales the next extremum by exp(-a pi / w) and flips its sign). */
static int spring_extrema(const rf_anim_t *a, double out[2])
{
    const double *p = a->p;
    int n = 0;
    switch (a->regime) {
    case SPRING_UNDER: {
        double w = p[1];
        double th = atan2(p[5] * w, p[0] * p[5] + p[4] * p[2]);
        if (th < 0)
            th += RF_PI;
        if (th >= RF_PI)
            th -= RF_PI;
        double t0 = th / w, half = RF_PI / w;
        if (t0 <= 0.0)
            t0 += half;
        if (p[2] == 0.0 && p[5] == 0.0)
            return 0;
        out[n++] = t0;
        out[n++] = t0 + half;
        break;
    }
    case SPRING_CRITICAL:
        if (p[3] != 0.0) {
            double ts = p[5] / (p[0] * p[3]);
            if (ts > 0.0 && isfinite(ts))
                out[n++] = ts;
        }
        break;
    default: {
        double te = spring_over_extremum(a);
        if (te > 0.0)
            out[n++] = te;
        break;
    }
    }
    return n;
}

static int spring_exceeds(const rf_anim_t *a, double tau, double thr)
{
    return !(fabs(spring_disp(a, tau)) <= thr);
}

/* lo exceeds the threshold, hi does not, and in between the predicate goes
 * from true to false exactly once: bisect, then take the first whole
 * millisecond at or after the boundary (the contract's "to 1 ms"). */
static double spring_settle_between(const rf_anim_t *a, double lo, double hi, double thr)
{
    for (int i = 0; i < BISECT_MAX && hi - lo > dmax2(1e-10, 4 * DBL_EPSILON * hi); i++) {
        double mid = 0.5 * (lo + hi);
        if (spring_exceeds(a, mid, thr))
            lo = mid;
        else
            hi = mid;
    }
    double ms = ceil(hi * 1000.0);
    for (int i = 0; i < 4 && spring_exceeds(a, ms / 1000.0, thr); i++)
        ms += 1.0;
    double tau = ms / 1000.0;
    return spring_exceeds(a, tau, thr) ? hi : tau;
}

/* First tau after lo (which exceeds) that does not exceed, on a monotone
 * tail: doubling steps from lo. INFINITY if none is found. */
static double spring_tail_bracket(const rf_anim_t *a, double lo, double step, double thr)
{
    for (int i = 0; i < DOUBLING_MAX; i++) {
        double hi = lo + step;
        if (!isfinite(hi))
            return INFINITY;
        if (!spring_exceeds(a, hi, thr))
            return hi;
        step *= 2.0;
    }
    return INFINITY;
}

/* Settle time relative to the start: the first millisecond after which
 * |x - to| <= threshold forever. */
static double spring_settle(const rf_anim_t *a, double thr)
{
    const double *p = a->p;
    if (p[2] == 0.0 && p[5] == 0.0)
        return 0.0;
    if (a->regime == SPRING_UNDER) {
        if (p[0] == 0.0)
            return INFINITY; /* undamped: oscillates forever */
        double w = p[1], half = RF_PI / w;
        double th = atan2(p[5] * w, p[0] * p[5] + p[4] * p[2]);
        if (th < 0)
            th += RF_PI;
        if (th >= RF_PI)
            th -= RF_PI;
        double t0 = th / w;
        double m0 = fabs(spring_disp(a, t0));
        if (!(m0 > thr)) {
            if (!(fabs(p[2]) > thr))
                return 0.0;
            return spring_settle_between(a, 0.0, t0, thr);
        }
        /* Peak k has magnitude m0 * q^k, q = exp(-a half): the last one above
         * the threshold follows from a logarithm, then is checked. */
        double decay = p[0] * half;
        double kf = floor(log(m0 / thr) / decay);
        if (kf > 1e15 && isfinite(kf)) {
            /* Too many peaks to walk (stiffness 1e300, damping 1e-300): the
             * peak envelope m0 e^(-a (tau - t0)) crosses the threshold within
             * one half period of the last peak above it, and half a period
             * is below the resolution of tau there (or far below 1 ms). */
            double env = t0 + log(m0 / thr) / p[0];
            double ms = ceil(env * 1000.0) / 1000.0;
            return isfinite(ms) && ms >= env ? ms : env;
        }
        if (!isfinite(kf))
            return INFINITY;
        for (int i = 0; i < 64 && kf > 0 && !spring_exceeds(a, t0 + kf * half, thr); i++)
            kf -= 1.0;
        for (int i = 0; i < 64 && spring_exceeds(a, t0 + (kf + 1.0) * half, thr); i++)
            kf += 1.0;
        double lo = t0 + kf * half, hi = t0 + (kf + 1.0) * half;
        if (!isfinite(hi))
            return INFINITY;
        return spring_settle_between(a, lo, hi, thr);
    }
    /* Critical and over-damped: at most one extremum, then a monotone tail. */
    double ext[2];
    int n = spring_extrema(a, ext);
    double scale = a->regime == SPRING_CRITICAL ? 1.0 / p[0] : 1.0 / -p[0];
    if (n == 1 && spring_exceeds(a, ext[0], thr)) {
        double hi = spring_tail_bracket(a, ext[0], scale, thr);
        return isfinite(hi) ? spring_settle_between(a, ext[0], hi, thr) : INFINITY;
    }
    if (!(fabs(p[2]) > thr))
        return 0.0;
    double hi = n == 1 ? ext[0] : spring_tail_bracket(a, 0.0, scale, thr);
    return isfinite(hi) ? spring_settle_between(a, 0.0, hi, thr) : INFINITY;
}

static void spring_init(rf_anim_t *a, const rf_anim_spec_t *s)
{
    double k = s->stiffness, c = s->damping;
    double omega = sqrt(k);
    double zeta = c / (2.0 * omega);
    double A = s->from - s->to, v0 = s->velocity;
    a->to = s->to;
    a->final = s->to;
    a->p[2] = A;
    a->p[5] = v0;
    if (zeta < 1.0) {
        a->regime = SPRING_UNDER;
        a->p[0] = zeta * omega;
        a->p[1] = omega * sqrt(1.0 - zeta * zeta);
        a->p[3] = v0 + a->p[0] * A;
        a->p[4] = k;
    } else if (zeta == 1.0) {
        a->regime = SPRING_CRITICAL;
        a->p[0] = omega;
        a->p[3] = v0 + omega * A;
    } else {
        a->regime = SPRING_OVER;
        /* zeta^2 overflows past 1e154 (damping 1e300); there sqrt(zeta^2 - 1)
         * is zeta to the last bit anyway */
        double s2 = zeta < 1e150 ? sqrt(zeta * zeta - 1.0) : zeta;
        /* r1 = -omega (zeta - s2) without the cancellation: r1 r2 = omega^2 */
        double r2 = -omega * (zeta + s2);
        double r1 = -omega / (zeta + s2);
        a->p[0] = r1;
        a->p[1] = r2 - r1;
        a->p[3] = v0 - r1 * A;
    }
    double rel = spring_settle(a, s->threshold);
    a->settle = s->start + rel;
    if (!isfinite(a->settle)) {
        a->settle = INFINITY;
        a->final = NAN; /* it never gets there */
    }
}

static void spring_range(const rf_anim_t *a, double t_end, double *lo, double *hi)
{
    *lo = *hi = a->from;
    double end = dmin2(t_end, a->settle) - a->start;
    if (a->regime == SPRING_UNDER && a->p[0] == 0.0 && isinf(end)) {
        /* undamped: amplitude sqrt(A^2 + (v0/omega)^2) around the target */
        double r = hypot(a->p[2], a->p[5] / a->p[1]);
        hull_add(lo, hi, a->to - r);
        hull_add(lo, hi, a->to + r);
        return;
    }
    double ext[2];
    int n = spring_extrema(a, ext);
    for (int i = 0; i < n; i++)
        if (ext[i] < end)
            hull_add(lo, hi, a->to + spring_disp(a, ext[i]));
    if (isfinite(a->settle) && a->settle <= t_end)
        hull_add(lo, hi, a->final);
    else if (isfinite(end) && end > 0)
        hull_add(lo, hi, a->to + spring_disp(a, end));
}

/* ----------------------------------------------------------------- physics */

/* c (1 - e^(-k tau)) / k, evaluated as it always was, except where that
 * fails: for k tau below 1e-300 (friction 5e-324) the quotient of two
 * subnormals keeps a bit or two, so the series is used; and where c / k
 * overflows (decay's velocity / lambda) the quotient is taken first. */
static double expm1_frac(double c, double k, double tau, int c_over_k_first)
{
    double z = k * tau;
    if (z < 1e-300)
        return c * (tau * (1.0 - 0.5 * z));
    if (c_over_k_first && isfinite(c / k))
        return c / k * (-expm1(-z));
    if (c_over_k_first)
        return c * (-expm1(-z) / k);
    return c * (-expm1(-z)) / k;
}

static double phys_pos(const rf_anim_t *a, double tau)
{
    const double *p = a->p;
    if (a->regime == PHYS_QUADRATIC)
        return a->from + p[0] * tau + 0.5 * p[1] * tau * tau;
    if (a->regime == PHYS_FRICTION)
        return a->from + p[3] * tau + expm1_frac(p[0] - p[3], p[2], tau, 0);
    return a->from;
}

static double phys_vel(const rf_anim_t *a, double tau)
{
    const double *p = a->p;
    if (a->regime == PHYS_QUADRATIC)
        return p[0] + p[1] * tau;
    if (a->regime == PHYS_FRICTION)
        return p[3] + (p[0] - p[3]) * exp(-p[2] * tau);
    return 0.0;
}

/* The one time where the velocity changes sign, or -1. */
static double phys_extremum(const rf_anim_t *a)
{
    const double *p = a->p;
    if (p[0] == 0.0)
        return -1.0;
    if (a->regime == PHYS_QUADRATIC) {
        if (p[1] == 0.0 || (p[0] > 0) == (p[1] > 0))
            return -1.0;
        return -p[0] / p[1];
    }
    if (a->regime == PHYS_FRICTION) {
        if (p[3] == 0.0 || (p[0] > 0) == (p[3] > 0))
            return -1.0;
        return log1p(-p[0] / p[3]) / p[2];
    }
    return -1.0;
}

/* Smallest root >= 0 of c2 tau^2 + c1 tau + c0 = 0, or INFINITY. */
static double quad_first_root(double c2, double c1, double c0)
{
    if (c2 == 0.0) {
        if (c1 == 0.0)
            return INFINITY;
        double r = -c0 / c1;
        return r >= 0.0 ? r : INFINITY;
    }
    double disc = c1 * c1 - 4.0 * c2 * c0;
    if (disc < 0.0)
        return INFINITY;
    double q = -0.5 * (c1 + copysign(sqrt(disc), c1));
    double r1 = q / c2, r2 = q != 0.0 ? c0 / q : r1;
    double best = INFINITY;
    if (r1 >= 0.0)
        best = r1;
    if (r2 >= 0.0 && r2 < best)
        best = r2;
    return best;
}

/* First tau in [lo, hi] where the monotone position passes bound b in
 * direction dir (+1 upward), by bisection to 1e-9 s or better. */
static double phys_bisect(const rf_anim_t *a, double lo, double hi, double b, int dir)
{
    for (int i = 0; i < BISECT_MAX && hi - lo > dmax2(1e-12, 4 * DBL_EPSILON * hi); i++) {
        double mid = 0.5 * (lo + hi);
        if (dir * (phys_pos(a, mid) - b) >= 0.0)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* First time the motion reaches bound b (dir +1: b is a max, -1: a min). */
static double phys_hit(const rf_anim_t *a, double b, int dir)
{
    const double *p = a->p;
    if (!isfinite(b) || a->regime == PHYS_STATIC)
        return INFINITY;
    if (a->regime == PHYS_QUADRATIC)
        return quad_first_root(0.5 * p[1], p[0], a->from - b);
    double te = phys_extremum(a);
    /* monotone pieces: [0, te] moving with sign(v0), then [te, inf) moving
     * with sign(vt); without an extremum one piece with the initial sign. */
    double t0 = 0.0;
    if (te > 0.0) {
        if ((p[0] > 0 ? 1 : -1) == dir && dir * (phys_pos(a, te) - b) >= 0.0)
            return phys_bisect(a, 0.0, te, b, dir);
        t0 = te;
    }
    double vdir = phys_vel(a, t0 + 1.0 / p[2]);
    if (vdir == 0.0 || (vdir > 0 ? 1 : -1) != dir)
        return INFINITY;
    if (p[3] == 0.0) {
        /* gravity-free fling toward the asymptote from + v0/friction: exact */
        double asym = a->from + p[0] / p[2];
        if (!(dir * (asym - b) > 0.0))
            return INFINITY;
        double r = -log1p(-p[2] * (b - a->from) / p[0]) / p[2];
        return r >= 0.0 ? r : 0.0;
    }
    double step = 1.0 / p[2], hi = t0;
    if (!isfinite(step))
        step = 1.0; /* friction 5e-324: 1 / friction overflows */
    for (int i = 0; i < DOUBLING_MAX; i++) {
        hi = t0 + step;
        if (!isfinite(hi))
            return INFINITY;
        if (dir * (phys_pos(a, hi) - b) >= 0.0)
            return phys_bisect(a, t0, hi, b, dir);
        step *= 2.0;
    }
    return INFINITY;
}

static void physics_init(rf_anim_t *a, const rf_anim_spec_t *s)
{
    double v0 = s->velocity, g = s->gravity, f = s->friction;
    a->p[0] = v0;
    a->p[1] = g;
    a->p[2] = f;
    a->p[3] = f > 0.0 ? g / f : 0.0;
    a->p[4] = s->min;
    a->p[5] = s->max;
    if (v0 == 0.0 && g == 0.0)
        a->regime = PHYS_STATIC;
    else if (f > 0.0)
        a->regime = PHYS_FRICTION;
    else
        a->regime = PHYS_QUADRATIC;
    a->final = NAN;
    a->settle = INFINITY;
    a->to = NAN;
    a->end = RF_END_NEVER;

    /* Inherited from a sequence beyond a bound: the bound is already crossed. */
    if (a->from >= s->max || a->from <= s->min) {
        int outward_up = v0 > 0 || (v0 == 0 && g > 0);
        int outward_down = v0 < 0 || (v0 == 0 && g < 0);
        if (a->from > s->max || (a->from == s->max && outward_up)) {
            a->end = RF_END_BOUND;
            a->settle = s->start;
            a->final = a->to = s->max;
            return;
        }
        if (a->from < s->min || (a->from == s->min && outward_down)) {
            a->end = RF_END_BOUND;
            a->settle = s->start;
            a->final = a->to = s->min;
            return;
        }
    }
    if (a->regime == PHYS_STATIC) {
        a->end = RF_END_FINISHED;
        a->settle = s->start;
        a->final = a->to = a->from;
        return;
    }
    double th = phys_hit(a, s->max, 1), tl = phys_hit(a, s->min, -1);
    if (th < INFINITY || tl < INFINITY) {
        a->end = RF_END_BOUND;
        a->settle = s->start + dmin2(th, tl);
        a->final = a->to = th <= tl ? s->max : s->min;
        return;
    }
    if (a->regime == PHYS_FRICTION && g == 0.0) {
        double asym = a->from + v0 / f;
        double dist = fabs(v0 / f);
        double rel = dist > s->threshold ? log(dist / s->threshold) / f : 0.0;
        a->settle = s->start + rel;
        a->final = a->to = asym;
        a->end = isfinite(a->settle) ? RF_END_FINISHED : RF_END_LIMIT;
    }
}

/* Direction of unbounded motion as tau -> inf: +1, -1, or 0 (settles). */
static int phys_escape(const rf_anim_t *a)
{
    const double *p = a->p;
    double v = a->regime == PHYS_QUADRATIC ? (p[1] != 0.0 ? p[1] : p[0]) : p[3];
    return v > 0 ? 1 : v < 0 ? -1 : 0;
}

static void physics_range(const rf_anim_t *a, double t_end, double *lo, double *hi)
{
    *lo = *hi = a->from;
    double end = dmin2(t_end, a->settle) - a->start;
    double te = phys_extremum(a);
    if (te > 0.0 && te < end)
        hull_add(lo, hi, phys_pos(a, te));
    if (isfinite(a->settle) && a->settle <= t_end)
        hull_add(lo, hi, a->final);
    else if (isfinite(end)) {
        if (end > 0)
            hull_add(lo, hi, fmin(fmax(phys_pos(a, end), a->p[4]), a->p[5]));
    } else {
        int dir = phys_escape(a);
        if (dir > 0)
            *hi = INFINITY;
        else if (dir < 0)
            *lo = -INFINITY;
    }
}

/* ------------------------------------------------------------------- decay */

static void decay_init(rf_anim_t *a, const rf_anim_spec_t *s)
{
    double lambda = 4.2 * s->friction;
    a->p[0] = s->velocity;
    a->p[2] = lambda;
    double dist = fabs(s->velocity / lambda);
    a->final = a->to = a->from + s->velocity / lambda;
    a->settle = s->start + (dist > s->threshold ? log(dist / s->threshold) / lambda : 0.0);
    if (s->velocity == 0.0)
        a->final = a->to = a->from;
}

static double decay_pos(const rf_anim_t *a, double tau)
{
    return a->from + expm1_frac(a->p[0], a->p[2], tau, 1);
}

/* ------------------------------------------------------------------- eased */

/* Cycle phase of an eased curve at t >= start: progress u in [0,1] and the
 * direction it plays (-1 reversed). Values within 1e-12 (relative) of a
 * whole cycle count are snapped to it, so frame times that land on a cycle
 * boundary up to rounding behave exactly like the boundary. */
static double eased_phase(const rf_anim_t *a, double t, int *dir)
{
    double e = (t - a->start) / a->duration;
    double r = nearbyint(e);
    if (fabs(e - r) <= 1e-12 * dmax2(1.0, fabs(e)))
        e = r;
    *dir = 1;
    if (a->repeat == RF_REPEAT_NONE)
        return e >= 1.0 ? 1.0 : e;
    double k = floor(e);
    double u = e - k;
    if (a->repeat == RF_REPEAT_PING_PONG && fmod(k, 2.0) != 0.0) {
        u = 1.0 - u;
        *dir = -1;
    }
    return u;
}

static double lerp_exact(double from, double to, double y)
{
    if (y == 0.0)
        return from;
    if (y == 1.0)
        return to;
    double d = to - from;
    /* from -1e308 to 1e308: the difference overflows, the mix does not */
    if (!isfinite(d))
        return (1.0 - y) * from + y * to;
    return from + y * d;
}

/* from + y (to - from) as the ranges have always used it, and without the
 * overflow of to - from when that is not finite. */
static double range_mix(double from, double to, double y)
{
    double d = to - from;
    return isfinite(d) ? from + y * d : (1.0 - y) * from + y * to;
}

double rf_anim_spec_duration(const rf_anim_spec_t *s)
{
    double d = s->duration;
    if (s->duration_policy) {
        d = fabs(s->to - s->from) / s->speed;
        d = fmin(fmax(d, s->dmin), s->dmax);
    }
    /* A duration that resolves below 1 ms (a policy over zero distance) plays
     * in 1 ms, as Compose normalizes non-positive intervals. */
    if (!(d >= 1e-3) && s->duration_policy)
        d = 1e-3;
    return d;
}

static void eased_init(rf_anim_t *a, const rf_anim_spec_t *s)
{
    a->to = s->to;
    a->easing = s->easing;
    a->repeat = (uint8_t)s->repeat;
    a->iterations = s->iterations;
    double d = rf_anim_spec_duration(s);
    a->duration = d;
    if (s->repeat == RF_REPEAT_NONE) {
        a->settle = s->start + d;
        a->final = s->to;
    } else if (s->iterations > 0) {
        a->settle = s->start + (double)s->iterations * d;
        a->final = (s->repeat == RF_REPEAT_PING_PONG && s->iterations % 2 == 0) ? a->from : s->to;
    } else {
        a->settle = INFINITY;
        a->final = NAN;
    }
    if (!isfinite(a->settle))
        a->final = NAN; /* an infinite duration (policy speed 1e-320) never ends */
}

/* ---------------------------------------------------------------- keyframes */

/* Last key index i <= n-2 with keys[i].time <= e. */
static uint32_t key_find(const rf_key_t *k, uint32_t n, double e)
{
    uint32_t lo = 0, hi = n - 1; /* invariant: k[lo].time <= e < k[hi].time */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (k[mid].time <= e)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static double smooth(double w) { return w * w * (3.0 - 2.0 * w); }

static void keyframes_state(const rf_anim_t *a, double e, double *x, double *v)
{
    const rf_key_t *k = a->keys;
    uint32_t i = key_find(k, a->nkeys, e);
    double span = k[i + 1].time - k[i].time;
    double u = (e - k[i].time) / span;
    double v0 = k[i].value, v1 = k[i + 1].value;
    if (a->interp == RF_INTERP_STEP) {
        *x = v0;
        *v = 0.0;
        return;
    }
    const rf_easing_t *ez = &k[i + 1].easing;
    double w = rf_easing_eval(ez, u);
    double dw = rf_easing_slope(ez, u);
    if (a->interp == RF_INTERP_SMOOTHSTEP) {
        dw *= 6.0 * w * (1.0 - w);
        w = smooth(w);
    }
    *x = lerp_exact(v0, v1, w);
    *v = (v1 - v0) * dw / (span * a->duration);
}

static void keyframes_init(rf_anim_t *a, const rf_anim_spec_t *s)
{
    a->keys = s->keys;
    a->nkeys = s->nkeys;
    a->interp = (uint8_t)s->interp;
    a->duration = s->duration;
    a->from = s->keys[0].value;
    a->final = a->to = s->keys[s->nkeys - 1].value;
    a->settle = s->start + s->duration;
}

static void keyframes_range(const rf_anim_t *a, double *lo, double *hi)
{
    const rf_key_t *k = a->keys;
    *lo = *hi = k[0].value;
    for (uint32_t i = 0; i + 1 < a->nkeys; i++) {
        double v0 = k[i].value, v1 = k[i + 1].value;
        hull_add(lo, hi, v1);
        if (a->interp == RF_INTERP_STEP)
            continue;
        double el, eh;
        rf_easing_range(&k[i + 1].easing, &el, &eh);
        if (a->interp == RF_INTERP_SMOOTHSTEP) {
            /* 3w^2 - 2w^3 has its turning points at 0 and 1 */
            double sl = dmin2(smooth(el), smooth(eh)), sh = dmax2(smooth(el), smooth(eh));
            if (el <= 0.0 && eh >= 0.0)
                sl = dmin2(sl, 0.0), sh = dmax2(sh, 0.0);
            if (el <= 1.0 && eh >= 1.0)
                sl = dmin2(sl, 1.0), sh = dmax2(sh, 1.0);
            el = sl, eh = sh;
        }
        hull_add(lo, hi, range_mix(v0, v1, el));
        hull_add(lo, hi, range_mix(v0, v1, eh));
    }
}

/* ------------------------------------------------------------------ common */

const char *rf_end_name(rf_end_t end)
{
    switch (end) {
    case RF_END_BOUND: return "bound";
    case RF_END_LIMIT: return "duration-limit";
    case RF_END_NEVER: return "never";
    default: return "finished";
    }
}

/* The end reason of every kind but physics (physics_init sets its own). */
static uint8_t anim_end(const rf_anim_t *a)
{
    if (isfinite(a->settle))
        return RF_END_FINISHED;
    if (a->curve == RF_CURVE_SPRING && a->regime == SPRING_UNDER && a->p[0] == 0.0)
        return RF_END_NEVER;    /* undamped */
    if (a->curve == RF_CURVE_EASED && a->repeat != RF_REPEAT_NONE && a->iterations == 0)
        return RF_END_NEVER;    /* repeats forever */
    /* a converging motion whose settle time could not be found (or is not
     * a finite number of seconds): it keeps its physical value */
    return RF_END_LIMIT;
}

void rf_anim_init(rf_anim_t *a, const rf_anim_spec_t *spec)
{
    /* the delay moves the start; every kind below reads only start */
    rf_anim_spec_t sd = *spec;
    const rf_anim_spec_t *s = &sd;
    sd.start += sd.delay;
    sd.delay = 0.0;
    *a = (rf_anim_t){0};
    a->curve = (uint8_t)s->curve;
    a->from = s->from;
    a->start = s->start;
    switch (s->curve) {
    case RF_CURVE_SPRING:
        spring_init(a, s);
        break;
    case RF_CURVE_EASED:
        eased_init(a, s);
        break;
    case RF_CURVE_PHYSICS:
        physics_init(a, s);
        break;
    case RF_CURVE_DECAY:
        decay_init(a, s);
        break;
    case RF_CURVE_KEYFRAMES:
        keyframes_init(a, s);
        break;
    case RF_CURVE_SNAP:
        /* from before start, to at and after it: settled at the start */
        a->to = a->final = s->to;
        a->settle = s->start;
        break;
    case RF_CURVE_CONST:
    default:
        a->curve = RF_CURVE_CONST;
        a->to = a->final = s->from;
        a->settle = s->start;
        break;
    }
    if (a->curve != RF_CURVE_PHYSICS)
        a->end = anim_end(a);
    rf_anim_range_until(a, INFINITY, &a->lo, &a->hi);
}

static void anim_state_raw(const rf_anim_t *a, double t, double *x, double *v)
{
    *v = 0.0;
    if (!(t >= a->start)) {
        *x = a->from;
        return;
    }
    if (t >= a->settle) {
        *x = a->final;
        return;
    }
    double tau = t - a->start;
    switch (a->curve) {
    case RF_CURVE_SPRING:
        *x = a->to + spring_disp(a, tau);
        *v = spring_vel(a, tau);
        return;
    case RF_CURVE_EASED: {
        int dir;
        double u = eased_phase(a, t, &dir);
        double y = rf_easing_eval(&a->easing, u);
        *x = lerp_exact(a->from, a->to, y);
        *v = dir * (a->to - a->from) * rf_easing_slope(&a->easing, u) / a->duration;
        return;
    }
    case RF_CURVE_PHYSICS:
        /* the bound-hit time is the bracket end past the crossing, so a
         * time just before it may already be a hair beyond the bound */
        *x = fmin(fmax(phys_pos(a, tau), a->p[4]), a->p[5]);
        *v = phys_vel(a, tau);
        return;
    case RF_CURVE_DECAY:
        *x = decay_pos(a, tau);
        *v = a->p[0] * exp(-a->p[2] * tau);
        return;
    case RF_CURVE_KEYFRAMES:
        keyframes_state(a, tau / a->duration, x, v);
        return;
    default:
        *x = a->from;
        return;
    }
}

static double anim_eval_raw(const rf_anim_t *a, double t)
{
    if (!(t >= a->start))
        return a->from;
    if (t >= a->settle)
        return a->final;
    double tau = t - a->start;
    switch (a->curve) {
    case RF_CURVE_SPRING:
        return a->to + spring_disp(a, tau);
    case RF_CURVE_EASED: {
        int dir;
        double u = eased_phase(a, t, &dir);
        return lerp_exact(a->from, a->to, rf_easing_eval(&a->easing, u));
    }
    case RF_CURVE_PHYSICS:
        return fmin(fmax(phys_pos(a, tau), a->p[4]), a->p[5]);
    case RF_CURVE_DECAY:
        return decay_pos(a, tau);
    default: {
        double x, v;
        anim_state_raw(a, t, &x, &v);
        return x;
    }
    }
}

/* Closed forms round: near an extremum a value may land an ulp beyond the
 * exact range published from that extremum (and from + y*(to-from) an ulp
 * beyond to). Clamping to [lo, hi] keeps every value inside its range, so
 * bounds analysis downstream stays sound; it moves a value by ulps at most. */
double rf_anim_eval(const rf_anim_t *a, double t)
{
    return fmin(fmax(anim_eval_raw(a, t), a->lo), a->hi);
}

void rf_anim_eval_state(const rf_anim_t *a, double t, double *x, double *v)
{
    anim_state_raw(a, t, x, v);
    *x = fmin(fmax(*x, a->lo), a->hi);
}

void rf_anim_range_until(const rf_anim_t *a, double t_end, double *lo, double *hi)
{
    switch (a->curve) {
    case RF_CURVE_SPRING:
        spring_range(a, t_end, lo, hi);
        return;
    case RF_CURVE_PHYSICS:
        physics_range(a, t_end, lo, hi);
        return;
    case RF_CURVE_DECAY:
        *lo = *hi = a->from;
        if (a->settle <= t_end)
            hull_add(lo, hi, a->final);
        else if (t_end > a->start)
            hull_add(lo, hi, decay_pos(a, t_end - a->start));
        return;
    case RF_CURVE_EASED: {
        double el, eh;
        rf_easing_range(&a->easing, &el, &eh);
        *lo = *hi = a->from;
        hull_add(lo, hi, range_mix(a->from, a->to, el));
        hull_add(lo, hi, range_mix(a->from, a->to, eh));
        if (isfinite(a->final))
            hull_add(lo, hi, a->final);
        return;
    }
    case RF_CURVE_KEYFRAMES:
        keyframes_range(a, lo, hi);
        return;
    case RF_CURVE_SNAP:
        *lo = *hi = a->from;
        if (a->settle <= t_end)
            hull_add(lo, hi, a->final);
        return;
    default:
        *lo = *hi = a->from;
        return;
    }
}
