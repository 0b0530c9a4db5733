/* check_easing.c - Check suite for easing.c.
 *
 * Every expectation is independent of the code under test: the cubic solver
 * is compared with bisection in long double (and in __float128 near the
 * singular curves), Penner functions with their classic Penner forms
 * evaluated in long double plus hand-derived values, steps() and linear()
 * with tables derived by hand from the CSS Easing algorithms.
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "easing.h"

typedef long double ld;

#define PI_L 3.141592653589793238462643383279502884L

/* ------------------------------------------------------------ test helpers */

/* linear() stop storage: a small bump allocator over a static block, and
 * one that always fails. */
static unsigned char pool[1 << 16];
static size_t pool_used;

static void *pool_alloc(void *ctx, size_t size)
{
    (void)ctx;
    size = (size + 15) & ~(size_t)15;
    if (size > sizeof pool - pool_used)
        return NULL;
    void *p = pool + pool_used;
    pool_used += size;
    return p;
}

static void *null_alloc(void *ctx, size_t size)
{
    (void)ctx;
    (void)size;
    return NULL;
}

static rf_easing_t parse_ok(const char *text, int cubic_only)
{
    rf_easing_t e;
    char err[256];
    int r = rf_easing_parse(&e, text, cubic_only, pool_alloc, NULL, err, sizeof err);
    ck_assert_msg(r == 0, "parse '%s' failed: %s", text, err);
    return e;
}

static double ev(const char *text, double p)
{
    rf_easing_t e = parse_ok(text, 0);
    return rf_easing_eval(&e, p);
}

/* An assertion for tight loops: Check records every passing ck_assert
 * through its pipe, which would dominate the run time here. */
#define REQUIRE(cond, ...)                 \
    do {                                   \
        if (!(cond))                       \
            ck_abort_msg(__VA_ARGS__);     \
    } while (0)

#define ASSERT_NEAR(got, want, tol, ...)                                                   \
    do {                                                                                   \
        double g_ = (got), w_ = (want);                                                    \
        ck_assert_msg(fabs(g_ - w_) <= (tol), "%s: got %.17g, want %.17g (tol %g)",        \
                      #got, g_, w_, (double)(tol));                                        \
    } while (0)

/* --------------------------------------------------- reference cubic-bezier */

static ld ref_bern(ld a, ld b, ld s)
{
    ld t = 1.0L - s;
    return 3.0L * t * t * s * a + 3.0L * t * s * s * b + s * s * s;
}

/* y for x in [0,1] by bisection on s to the last bit of long double. The
 * family (1, y1, 0, y2), whose x(s) = 1/2 + 4 (s - 1/2)^3 has a flat point
 * at s = 1/2, is inverted in closed form instead. */
static ld ref_cubic(double p1x, double p1y, double p2x, double p2y, double x)
{
    ld lo = 0.0L, hi = 1.0L, s;
    if (x == 0.0)
        return 0.0L;
    if (x == 1.0)
        return 1.0L;
    if (p1x == 1.0 && p2x == 0.0) {
        s = 0.5L + cbrtl(((ld)x - 0.5L) / 4.0L);
    } else {
        for (int i = 0; i < 200; i++) {
            ld mid = (lo + hi) / 2.0L;
            if (!(mid > lo && mid < hi))
                break;
            if (ref_bern(p1x, p2x, mid) < (ld)x)
                lo = mid;
            else
                hi = mid;
        }
        s = (lo + hi) / 2.0L;
    }
    return ref_bern(p1y, p2y, s);
}

/* Max |rf_cubic_solve - reference| over a set of x for one curve, and the
 * same through the unclamped easing descriptor. */
static double cubic_max_err(double p1x, double p1y, double p2x, double p2y)
{
    static const double tiny[] = {1e-300, 1e-15, 1e-12, 1e-9, 1e-6, 1e-3};
    double worst = 0.0;
    rf_easing_t e;
    rf_easing_init_cubic(&e, p1x, p1y, p2x, p2y, 0);
    for (int k = 0; k <= 200 + 12; k++) {
        double x;
        if (k <= 200)
            x = k / 200.0;
        else if (k <= 206)
            x = tiny[k - 201];
        else
            x = 1.0 - tiny[k - 207];
        double ref = (double)ref_cubic(p1x, p1y, p2x, p2y, x);
        double got = rf_cubic_solve(p1x, p1y, p2x, p2y, x);
        double err = fabs(got - ref);
        REQUIRE(err <= 1e-6, "cubic-bezier(%.17g, %.17g, %.17g, %.17g) at x=%.17g: got %.17g, "
                      "reference %.17g", p1x, p1y, p2x, p2y, x, got, ref);
        REQUIRE(rf_easing_eval(&e, x) == got, "descriptor and solver differ");
        if (err > worst)
            worst = err;
    }
    return worst;
}

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static double rng_uniform(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return (double)(x >> 11) * 0x1.0p-53;
}

START_TEST(test_cubic_solver_grid)
{
    static const double xs[] = {0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0};
    static const double ys[] = {-0.5, 0.0, 0.3, 1.0, 1.5};
    static const double special[][4] = {
        {0, 1, 1, 0}, {1, 0, 0, 1}, {0, 0, 1, 1}, {0, 0, 0, 0}, {1, 1, 1, 1},
        {0, 1, 0, 1}, {1, 0, 1, 0}, {0.25, 0.1, 0.25, 1}, {0.42, 0, 1, 1},
        {0, 0, 0.58, 1}, {0.42, 0, 0.58, 1}, {0, 1.5, 1, 1.5}, {0, -2, 1, -2},
        {0, 3, 1, 3}, {0.5, -1, 0.5, 2}, {1, -0.5, 0, 1.5},
    };
    double worst = 0.0, e;
    size_t i, a, b, c, d;

    for (i = 0; i < sizeof special / sizeof special[0]; i++) {
        e = cubic_max_err(special[i][0], special[i][1], special[i][2], special[i][3]);
        worst = fmax(worst, e);
    }
    for (a = 0; a < 7; a++)
        for (b = 0; b < 5; b++)
            for (c = 0; c < 7; c++)
                for (d = 0; d < 5; d++) {
                    e = cubic_max_err(xs[a], ys[b], xs[c], ys[d]);
                    worst = fmax(worst, e);
                }
    /* random clamped curves, some with an x control pinned to 0 or 1 */
    for (i = 0; i < 600; i++) {
        double p[4] = {rng_uniform(), rng_uniform(), rng_uniform(), rng_uniform()};
        if (i % 5 == 1)
            p[0] = 0.0;
        if (i % 5 == 2)
            p[2] = 1.0;
        if (i % 5 == 3)
            p[0] = 0.0, p[2] = 1.0;
        e = cubic_max_err(p[0], p[1], p[2], p[3]);
        worst = fmax(worst, e);
    }
    printf("cubic solver: max |y - exact| over the grid = %.3g\n", worst);
    fflush(stdout);
    ck_assert(worst <= 1e-6);
}
END_TEST

#if defined(__SIZEOF_FLOAT128__)
typedef __float128 qreal;
#else
typedef long double qreal;   /* IEEE quad on the platforms without __float128 */
#endif

static qreal q_bern(qreal a, qreal b, qreal s)
{
    qreal t = 1 - s;
    return 3 * t * t * s * a + 3 * t * s * s * b + s * s * s;
}

static double q_cubic(double p1x, double p1y, double p2x, double p2y, double x)
{
    qreal lo = 0, hi = 1;
    for (int i = 0; i < 130; i++) {
        qreal mid = (lo + hi) / 2;
        if (q_bern(p1x, p2x, mid) < (qreal)x)
            lo = mid;
        else
            hi = mid;
    }
    return (double)q_bern(p1y, p2y, (lo + hi) / 2);
}

/* Curves at or next to (1, y1, 0, y2): x'(s) vanishes (or nearly) at the
 * middle, so y(x) has a vertical tangent and x within a few ulps of 1/2
 * are the hardest inputs there are. */
START_TEST(test_cubic_solver_singular)
{
    static const double curves[][4] = {
        {1, 0, 0, 1}, {1, 0.2, 0, 0.9}, {1, -1, 0, 2}, {1 - 1e-12, 0, 1e-12, 1},
        {1, 0, 1e-9, 1}, {1 - 1e-15, 0.3, 0, 0.7}, {0.999999, 0, 0.000001, 1},
        {1 - 0x1p-52, 0, 0x1p-52, 1},
    };
    double worst = 0.0;
    for (size_t c = 0; c < sizeof curves / sizeof curves[0]; c++) {
        const double *p = curves[c];
        double mid = p[0] == 1.0 && p[2] == 0.0 ? 0.5 : (double)q_bern(p[0], p[2], 0.5);
        for (int j = -60; j <= 60; j++) {
            double xs[3] = {mid + j * 0x1p-54, mid + j * 1e-10, mid + j * 1e-4};
            for (int k = 0; k < 3; k++) {
                double x = xs[k];
                if (!(x > 0.0 && x < 1.0))
                    continue;
                double ref = q_cubic(p[0], p[1], p[2], p[3], x);
                double got = rf_cubic_solve(p[0], p[1], p[2], p[3], x);
                REQUIRE(fabs(got - ref) <= 1e-6, "cubic-bezier(%.17g, %g, %.17g, %g) at x=%.17g: "
                              "got %.17g, reference %.17g", p[0], p[1], p[2], p[3], x, got, ref);
                worst = fmax(worst, fabs(got - ref));
            }
        }
    }
    printf("cubic solver near flat points: max |y - exact| = %.3g\n", worst);
    fflush(stdout);
}
END_TEST

START_TEST(test_cubic_endpoints_and_extrapolation)
{
    /* x exactly 0 and 1 give exactly 0 and 1 */
    ck_assert(rf_cubic_solve(0.3, 2.0, 0.7, -1.0, 0.0) == 0.0);
    ck_assert(rf_cubic_solve(0.3, 2.0, 0.7, -1.0, 1.0) == 1.0);
    /* (0.5, 1, 0.5, 1) is symmetric, s = 1/2 at x = 1/2: y = 7/8 */
    ck_assert(rf_cubic_solve(0.5, 1.0, 0.5, 1.0, 0.5) == 0.875);
    /* end tangents, hand-derived from the control points */
    ASSERT_NEAR(rf_cubic_solve(0.5, 1.0, 0.5, 1.0, -1.0), -2.0, 0);   /* (0,0)-(0.5,1) */
    ASSERT_NEAR(rf_cubic_solve(0.5, 1.0, 0.5, 1.0, 2.0), 1.0, 0);     /* (0.5,1)-(1,1) */
    ASSERT_NEAR(rf_cubic_solve(0.1, 0.2, 0.8, 0.8, -1.0), -2.0, 1e-15);
    ASSERT_NEAR(rf_cubic_solve(0.1, 0.2, 0.8, 0.8, 2.0), 2.0, 1e-15);
    /* P1 on P0: the tangent goes through P2 */
    ASSERT_NEAR(rf_cubic_solve(0.0, 0.0, 0.5, 1.0, -1.0), -2.0, 0);
    ASSERT_NEAR(rf_cubic_solve(0.0, 0.0, 1.0, 1.0, -1.0), -1.0, 0);
    ASSERT_NEAR(rf_cubic_solve(0.0, 0.0, 1.0, 1.0, 2.0), 2.0, 0);
    ASSERT_NEAR(rf_cubic_solve(1.0, 0.5, 1.0, 1.0, -1.0), -0.5, 0);
    /* all control points on one end point: the chord, slope 1 */
    ASSERT_NEAR(rf_cubic_solve(0.0, 0.0, 0.0, 0.0, -1.0), -1.0, 0);
    ASSERT_NEAR(rf_cubic_solve(1.0, 1.0, 1.0, 1.0, 2.0), 2.0, 0);
    /* vertical end tangents break down to a flat extrapolation */
    ASSERT_NEAR(rf_cubic_solve(0.0, 1.0, 1.0, 0.0, -1.0), 0.0, 0);
    ASSERT_NEAR(rf_cubic_solve(0.0, 1.0, 1.0, 0.0, 2.0), 1.0, 0);
    ASSERT_NEAR(rf_cubic_solve(0.0, 1.5, 1.0, 1.5, 1.3), 1.0, 0);
    ASSERT_NEAR(rf_cubic_solve(0.0, -0.5, 1.0, -0.5, -0.3), 0.0, 0);
    ASSERT_NEAR(rf_cubic_solve(0.5, 0.0, 1.0, 0.5, 2.0), 1.0, 0);
    /* no negative zero out of the extrapolation */
    ck_assert(!signbit(rf_cubic_solve(1.0, 0.0, 0.0, 1.0, -0.5)));
}
END_TEST

START_TEST(test_cubic_init_clamp)
{
    rf_easing_t e;
    rf_easing_init_cubic(&e, 0.5, -1.0, 0.5, 2.0, 1);
    ck_assert(e.kind == RF_EASE_CUBIC);
    ck_assert(e.p[0] == 0.5 && e.p[1] == 0.0 && e.p[2] == 0.5 && e.p[3] == 1.0);
    rf_easing_init_cubic(&e, 0.5, -1.0, 0.5, 2.0, 0);
    ck_assert(e.p[1] == -1.0 && e.p[3] == 2.0);
    /* the bezier kind through the parser: x checked, y clamped */
    e = parse_ok("cubic-bezier(0.34, 1.56, 0.64, 1)", 1);
    ck_assert(e.p[0] == 0.34 && e.p[1] == 1.0 && e.p[2] == 0.64 && e.p[3] == 1.0);
    e = parse_ok("cubic-bezier(0.34, 1.56, 0.64, 1)", 0);
    ck_assert(e.p[1] == 1.56);
    /* a clamped curve never leaves [0, 1] */
    rf_easing_init_cubic(&e, 0.9, 1.4, 0.1, -0.4, 1);
    for (int i = 0; i <= 1000; i++) {
        double y = rf_easing_eval(&e, i / 1000.0);
        REQUIRE(y >= 0.0 && y <= 1.0, "clamped curve at %g gives %.17g", i / 1000.0, y);
    }
}
END_TEST

/* ---------------------------------------------------------- Penner family */

/* Robert Penner's original (t, b, c, d) forms with b = 0, c = 1, d = 1, in
 * long double: the easings.net formulas are algebraic rewrites of these. */
static ld pen_bounce_out(ld t)
{
    if (t < 1.0L / 2.75L)
        return 7.5625L * t * t;
    if (t < 2.0L / 2.75L) {
        t -= 1.5L / 2.75L;
        return 7.5625L * t * t + 0.75L;
    }
    if (t < 2.5L / 2.75L) {
        t -= 2.25L / 2.75L;
        return 7.5625L * t * t + 0.9375L;
    }
    t -= 2.625L / 2.75L;
    return 7.5625L * t * t + 0.984375L;
}

static ld pen_ref(int fn, ld t)
{
    const ld s = 1.70158L;
    int fam = fn / 3, dir = fn % 3, k;
    switch (fam) {
    case RF_PENNER_SINE:
        if (dir == 0)
            return 1.0L - cosl(t * (PI_L / 2.0L));
        if (dir == 1)
            return sinl(t * (PI_L / 2.0L));
        return -0.5L * (cosl(PI_L * t) - 1.0L);
    case RF_PENNER_QUAD:
    case RF_PENNER_CUBIC:
    case RF_PENNER_QUART:
    case RF_PENNER_QUINT:
        k = fam + 1;
        if (dir == 0)
            return powl(t, k);
        if (dir == 1)
            return 1.0L - powl(1.0L - t, k);
        t *= 2.0L;
        if (t < 1.0L)
            return 0.5L * powl(t, k);
        return 1.0L - 0.5L * powl(2.0L - t, k);
    case RF_PENNER_EXPO:
        if (dir == 0)
            return t == 0.0L ? 0.0L : powl(2.0L, 10.0L * (t - 1.0L));
        if (dir == 1)
            return t == 1.0L ? 1.0L : 1.0L - powl(2.0L, -10.0L * t);
        if (t == 0.0L || t == 1.0L)
            return t;
        t *= 2.0L;
        if (t < 1.0L)
            return 0.5L * powl(2.0L, 10.0L * (t - 1.0L));
        return 0.5L * (2.0L - powl(2.0L, -10.0L * (t - 1.0L)));
    case RF_PENNER_CIRC:
        if (dir == 0)
            return 1.0L - sqrtl(1.0L - t * t);
        if (dir == 1) {
            t -= 1.0L;
            return sqrtl(1.0L - t * t);
        }
        t *= 2.0L;
        if (t < 1.0L)
            return -0.5L * (sqrtl(1.0L - t * t) - 1.0L);
        t -= 2.0L;
        return 0.5L * (sqrtl(1.0L - t * t) + 1.0L);
    case RF_PENNER_BACK:
        if (dir == 0)
            return t * t * ((s + 1.0L) * t - s);
        if (dir == 1) {
            t -= 1.0L;
            return t * t * ((s + 1.0L) * t + s) + 1.0L;
        }
        {
            ld s2 = s * 1.525L;
            t *= 2.0L;
            if (t < 1.0L)
                return 0.5L * (t * t * ((s2 + 1.0L) * t - s2));
            t -= 2.0L;
            return 0.5L * (t * t * ((s2 + 1.0L) * t + s2) + 2.0L);
        }
    case RF_PENNER_ELASTIC: {
        /* period p, phase shift p/4 (amplitude 1) */
        if (t == 0.0L || t == 1.0L)
            return t;
        if (dir == 0) {
            ld p = 0.3L, sh = p / 4.0L;
            t -= 1.0L;
            return -(powl(2.0L, 10.0L * t) * sinl((t - sh) * (2.0L * PI_L) / p));
        }
        if (dir == 1) {
            ld p = 0.3L, sh = p / 4.0L;
            return powl(2.0L, -10.0L * t) * sinl((t - sh) * (2.0L * PI_L) / p) + 1.0L;
        }
        {
            ld p = 0.3L * 1.5L, sh = p / 4.0L;
            t = t * 2.0L - 1.0L;
            if (t < 0.0L)
                return -0.5L * (powl(2.0L, 10.0L * t) * sinl((t - sh) * (2.0L * PI_L) / p));
            return powl(2.0L, -10.0L * t) * sinl((t - sh) * (2.0L * PI_L) / p) * 0.5L + 1.0L;
        }
    }
    default:
        if (dir == 0)
            return 1.0L - pen_bounce_out(1.0L - t);
        if (dir == 1)
            return pen_bounce_out(t);
        if (t < 0.5L)
            return 0.5L * (1.0L - pen_bounce_out(1.0L - 2.0L * t));
        return 0.5L * pen_bounce_out(2.0L * t - 1.0L) + 0.5L;
    }
}

static const char *const penner_names[30] = {
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

START_TEST(test_penner_values)
{
    for (int fn = 0; fn < 30; fn++) {
        rf_easing_t e = parse_ok(penner_names[fn], 0);
        ck_assert(e.kind == RF_EASE_PENNER && e.sub == fn);
        for (int k = 0; k <= 400; k++) {
            /* includes 0, 0.25, 0.5, 0.75 and 1 */
            double p = k / 400.0;
            double want = (double)pen_ref(fn, p);
            double got = rf_easing_eval(&e, p);
            REQUIRE(fabs(got - want) <= 1e-13, "%s(%g): got %.17g, want %.17g",
                          penner_names[fn], p, got, want);
        }
        /* clamped outside [0,1] */
        ck_assert(rf_easing_eval(&e, -0.5) == rf_easing_eval(&e, 0.0));
        ck_assert(rf_easing_eval(&e, 1.5) == rf_easing_eval(&e, 1.0));
        ck_assert(rf_easing_eval(&e, 0.0) == 0.0);
        ck_assert(rf_easing_eval(&e, 1.0) == 1.0);
    }
}
END_TEST

START_TEST(test_penner_hand_values)
{
    /* worked by hand from the easings.net formulas */
    ASSERT_NEAR(ev("ease-in-quad", 0.5), 0.25, 0);
    ASSERT_NEAR(ev("ease-out-quad", 0.25), 0.4375, 0);
    ASSERT_NEAR(ev("ease-in-out-cubic", 0.25), 0.0625, 0);
    ASSERT_NEAR(ev("ease-in-out-quint", 0.75), 0.984375, 0);
    ASSERT_NEAR(ev("ease-in-quart", 0.5), 0.0625, 0);
    ASSERT_NEAR(ev("ease-in-expo", 0.5), 0.03125, 0);          /* 2^-5 */
    ASSERT_NEAR(ev("ease-out-expo", 0.5), 0.96875, 0);         /* 1 - 2^-5 */
    ASSERT_NEAR(ev("ease-in-out-expo", 0.25), 0.015625, 0);    /* 2^-5 / 2 */
    ASSERT_NEAR(ev("ease-in-out-sine", 0.5), 0.5, 1e-16);
    ASSERT_NEAR(ev("ease-out-sine", 1.0 / 3.0), 0.5, 1e-15);   /* sin(pi/6) */
    ASSERT_NEAR(ev("ease-out-circ", 0.5), 0.86602540378443865, 1e-16);   /* sqrt(3)/2 */
    ASSERT_NEAR(ev("ease-out-bounce", 0.25), 0.47265625, 0);   /* 7.5625 / 16 */
    ASSERT_NEAR(ev("ease-out-bounce", 0.5), 0.765625, 1e-16);  /* 7.5625/484 + 0.75 */
    ASSERT_NEAR(ev("ease-in-bounce", 0.5), 0.234375, 1e-16);
    ASSERT_NEAR(ev("ease-in-back", 0.5), -0.0876975, 1e-15);   /* 2.70158/8 - 1.70158/4 */
    ASSERT_NEAR(ev("ease-out-back", 0.5), 1.0876975, 1e-15);
    ASSERT_NEAR(ev("ease-in-out-back", 0.5), 0.5, 1e-15);
    /* phase (10*0.5 - 0.75) * 2pi/3 = 8.5pi/3 = 150 degrees mod 360 */
    ASSERT_NEAR(ev("ease-out-elastic", 0.5), 1.015625, 1e-15);
    ASSERT_NEAR(ev("ease-in-elastic", 0.5), -0.015625, 1e-15);
    /* second half at 0.5: sin((10 - 11.125) * 2pi/4.5) / 2 + 1 = sin(-pi/2) / 2 + 1 */
    ASSERT_NEAR(ev("ease-in-out-elastic", 0.5), 0.5, 1e-15);
    /* at 0.25: 2^-5 * sin(50 degrees) / 2, the phase being -130 degrees mod 360 */
    ASSERT_NEAR(ev("ease-in-out-elastic", 0.25), 0.76604444311897804 / 64.0, 1e-15);
}
END_TEST

/* -------------------------------------------------------------------- steps */

START_TEST(test_steps_by_hand)
{
    static const struct {
        const char *e;
        double p, want;
    } t[] = {
        /* jump-end: floor(4p) / 4 */
        {"steps(4)", 0.0, 0.0}, {"steps(4)", 0.24, 0.0}, {"steps(4)", 0.25, 0.25},
        {"steps(4)", 0.99, 0.75}, {"steps(4)", 1.0, 1.0}, {"steps(4)", -0.1, -0.25},
        {"steps(4)", 1.3, 1.25}, {"steps(4, end)", 0.5, 0.5}, {"steps(4, jump-end)", 0.6, 0.5},
        /* jump-start: (floor(4p) + 1) / 4, not below 0 for p >= 0, not above 1 for p <= 1 */
        {"steps(4, jump-start)", 0.0, 0.25}, {"steps(4, start)", 0.1, 0.25},
        {"steps(4, jump-start)", 0.25, 0.5}, {"steps(4, jump-start)", 0.8, 1.0},
        {"steps(4, jump-start)", 1.0, 1.0}, {"steps(4, jump-start)", 1.2, 1.25},
        {"steps(4, jump-start)", -0.1, 0.0}, {"steps(4, jump-start)", -0.3, -0.25},
        /* jump-none: floor(3p) / 2 */
        {"steps(3, jump-none)", 0.0, 0.0}, {"steps(3, jump-none)", 0.33, 0.0},
        {"steps(3, jump-none)", 0.34, 0.5}, {"steps(3, jump-none)", 0.7, 1.0},
        {"steps(3, jump-none)", 1.0, 1.0}, {"steps(3, jump-none)", 1.4, 2.0},
        {"steps(3, jump-none)", -0.2, -0.5},
        /* jump-both: (floor(3p) + 1) / 4 */
        {"steps(3, jump-both)", 0.0, 0.25}, {"steps(3, jump-both)", 0.5, 0.5},
        {"steps(3, jump-both)", 0.7, 0.75}, {"steps(3, jump-both)", 1.0, 1.0},
        {"steps(3, jump-both)", 1.5, 1.25}, {"steps(3, jump-both)", -0.1, 0.0},
        {"steps(3, jump-both)", -0.5, -0.25},
        /* keywords */
        {"step-start", 0.0, 1.0}, {"step-start", 0.5, 1.0}, {"step-start", -0.01, 0.0},
        {"step-end", 0.0, 0.0}, {"step-end", 0.99, 0.0}, {"step-end", 1.0, 1.0},
        {"step-end", 1.5, 1.0}, {"step-end", -0.5, -1.0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        double got = ev(t[i].e, t[i].p);
        ck_assert_msg(got == t[i].want, "%s at %g: got %.17g, want %g", t[i].e, t[i].p, got, t[i].want);
    }
    rf_easing_t e = parse_ok("steps(5, jump-both)", 0);
    ck_assert(e.kind == RF_EASE_STEPS && e.n == 5 && e.sub == RF_JUMP_BOTH);
    ck_assert(rf_easing_slope(&e, 0.3) == 0.0);
    double lo, hi;
    rf_easing_range(&e, &lo, &hi);
    ck_assert(lo == 1.0 / 6.0 && hi == 1.0);
    e = parse_ok("steps(2)", 0);
    rf_easing_range(&e, &lo, &hi);
    ck_assert(lo == 0.0 && hi == 1.0);
    e = parse_ok("step-start", 0);
    ck_assert(e.kind == RF_EASE_STEPS && e.n == 1 && e.sub == RF_JUMP_START);
}
END_TEST

/* ------------------------------------------------------------------ linear() */

static void assert_points(const char *text, const double *xy, uint32_t n)
{
    rf_easing_t e = parse_ok(text, 0);
    ck_assert_msg(e.kind == RF_EASE_STOPS, "%s: not stops", text);
    ck_assert_msg(e.n == n, "%s: %u points, want %u", text, e.n, n);
    for (uint32_t i = 0; i < n; i++) {
        ck_assert_msg(fabs(e.stops[i].x - xy[2 * i]) <= 1e-15 && e.stops[i].y == xy[2 * i + 1],
                      "%s: point %u is (%.17g, %.17g), want (%g, %g)", text, i, e.stops[i].x,
                      e.stops[i].y, xy[2 * i], xy[2 * i + 1]);
    }
}

START_TEST(test_linear_fixup)
{
    /* CSS Easing 2 examples: evenly spaced, explicit, and two inputs */
    static const double a[] = {0, 0, 0.5, 0.25, 1, 1};
    assert_points("linear(0, 0.25, 1)", a, 3);
    static const double b[] = {0, 0, 0.75, 0.25, 1, 1};
    assert_points("linear(0, 0.25 75%, 1)", b, 3);
    assert_points("linear(0, 75% 0.25, 1)", b, 3);
    static const double c[] = {0, 0, 0.25, 0.5, 0.75, 0.5, 1, 1};
    assert_points("linear(0, 0.5 25% 75%, 1)", c, 4);
    /* runs of missing inputs between 0 and 30%, and 30% and 90% */
    static const double d[] = {0, 0, 0.15, 0.1, 0.3, 0.2, 0.5, 0.4, 0.7, 0.5, 0.9, 1, 1, 1};
    assert_points("linear(0, 0.1, 0.2 30%, 0.4, 0.5, 1 90%, 1)", d, 7);
    /* an input below the largest so far is raised to it */
    static const double f[] = {0, 0, 0.5, 0.5, 0.5, 0.7, 1, 1};
    assert_points("linear(0, 0.5 50%, 0.7 20%, 1)", f, 4);
    /* the last input is max(1, largest) */
    static const double g[] = {0, 0, 1.5, 1, 1.5, 0.5};
    assert_points("linear(0, 1 150%, 0.5)", g, 3);
    /* a first stop below 0 keeps its input; -10% after 0 becomes 0 */
    static const double h[] = {-0.5, 0.2, 1, 1};
    assert_points("linear(0.2 -50%, 1)", h, 2);
    static const double k[] = {0, 0, 0, 0.1, 1, 1};
    assert_points("linear(0, 0.1 -10%, 1)", k, 3);
    static const double m[] = {0, 0, 1.1, 0.9, 1.1, 1};
    assert_points("linear(0, 0.9 110%, 1)", m, 3);
}
END_TEST

START_TEST(test_linear_eval)
{
    ASSERT_NEAR(ev("linear(0, 0.25 75%, 1)", 0.375), 0.125, 1e-16);
    ASSERT_NEAR(ev("linear(0, 0.25 75%, 1)", 0.875), 0.625, 1e-16);
    /* extrapolation along the first and last segments */
    ASSERT_NEAR(ev("linear(0, 1)", -0.5), -0.5, 0);
    ASSERT_NEAR(ev("linear(0, 1)", 1.5), 1.5, 0);
    ASSERT_NEAR(ev("linear(0 20%, 1 80%)", 0.0), -1.0 / 3.0, 1e-16);
    ASSERT_NEAR(ev("linear(0 20%, 1 80%)", 1.0), 4.0 / 3.0, 1e-15);
    ASSERT_NEAR(ev("linear(0.2 -50%, 1)", 0.0), 0.2 + 0.8 / 3.0, 1e-16);
    /* points sharing an input: the last one wins at and after it */
    ASSERT_NEAR(ev("linear(0, 0.5 50%, 0.8 50%, 1)", 0.5), 0.8, 0);
    ASSERT_NEAR(ev("linear(0, 0.5 50%, 0.8 50%, 1)", 0.25), 0.25, 1e-16);
    ASSERT_NEAR(ev("linear(0, 0.5 50%, 0.8 50%, 1)", 0.75), 0.9, 1e-16);
    ASSERT_NEAR(ev("linear(0, 1 150%, 0.5)", 1.0), 2.0 / 3.0, 1e-16);
    ASSERT_NEAR(ev("linear(0, 1 150%, 0.5)", 2.0), 0.5, 0);   /* equal inputs: B's output */
    ASSERT_NEAR(ev("linear(0, 0.1 -10%, 1)", 0.0), 0.1, 0);
    ASSERT_NEAR(ev("linear(0, 0.1 -10%, 1)", 0.1), 0.19, 1e-16);
    ASSERT_NEAR(ev("linear(0, 0.9 110%, 1)", 1.0), 0.9 / 1.1, 1e-16);
    /* steps(5, jump-start) spelled as linear() */
    const char *st = "linear(0.2 0% 20%, 0.4 20% 40%, 0.6 40% 60%, 0.8 60% 80%, 1.0 80% 100%)";
    ASSERT_NEAR(ev(st, 0.0), 0.2, 0);
    ASSERT_NEAR(ev(st, 0.2), 0.4, 0);
    ASSERT_NEAR(ev(st, 0.5), 0.6, 0);
    ASSERT_NEAR(ev(st, 1.0), 1.0, 0);
    /* slopes are the segment slopes */
    rf_easing_t e = parse_ok("linear(0, 0.25 75%, 1)", 0);
    ASSERT_NEAR(rf_easing_slope(&e, 0.5), 1.0 / 3.0, 1e-16);
    ASSERT_NEAR(rf_easing_slope(&e, 0.9), 3.0, 1e-15);
    ASSERT_NEAR(rf_easing_slope(&e, -1.0), 1.0 / 3.0, 1e-16);
    e = parse_ok("linear(0, 1 150%, 0.5)", 0);
    ASSERT_NEAR(rf_easing_slope(&e, 2.0), 0.0, 0);
}
END_TEST

/* ------------------------------------------------------------ parse errors */

START_TEST(test_parse_errors)
{
    static const struct {
        const char *text;
        int cubic_only;
        const char *want;   /* substring of the message */
    } t[] = {
        {"", 0, "empty easing"},
        {"ease-in-cubicc", 0, "unknown easing 'ease-in-cubicc' (did you mean 'ease-in-cubic'?)"},
        {"wobble", 0, "unknown easing 'wobble'"},
        {"steps(0)", 0, "steps() needs a positive integer step count, got '0'"},
        {"steps(2.5)", 0, "steps() needs a positive integer step count, got '2.5'"},
        {"steps(-3)", 0, "steps() needs a positive integer step count, got '-3'"},
        {"steps()", 0, "steps() needs a step count"},
        {"steps(1, jump-none)", 0, "steps(1, jump-none) needs at least 2 steps"},
        {"steps(3, jump-bath)", 0, "unknown steps() position 'jump-bath' (did you mean 'jump-both'?)"},
        {"steps(3, sideways)", 0, "unknown steps() position 'sideways'"},
        {"steps(3", 0, "missing ')'"},
        {"steps(3) x", 0, "unexpected 'x'"},
        {"cubic-bezier(1.5, 0, 0.5, 1)", 0, "cubic-bezier() x1 must be in [0, 1], got 1.5"},
        {"cubic-bezier(0.5, 0, -0.1, 1)", 0, "cubic-bezier() x2 must be in [0, 1], got -0.1"},
        {"cubic-bezier(0.1, 0.2, 0.3)", 0, "cubic-bezier() takes 4 numbers, got 3"},
        {"cubic-bezier(0.1, 0.2, 0.3, 0.4, 0.5)", 0, "cubic-bezier() takes 4 numbers, got more"},
        {"cubic-bezier(a, 0, 1, 1)", 0, "cubic-bezier() x1: expected a number, got 'a'"},
        {"cubic-bezier(0, 1e999, 1, 1)", 0, "number out of range: '1e999'"},
        {"cubic-bezer(0, 0, 1, 1)", 0, "unknown easing function 'cubic-bezer()' (did you mean 'cubic-bezier()'?)"},
        {"linear()", 0, "linear() stop 1 is empty"},
        {"linear(0.5)", 0, "linear() needs at least 2 stops, got 1"},
        {"linear(0, 50%)", 0, "linear() stop 2 needs an output number"},
        {"linear(0, 1 2)", 0, "linear() stop 2 has two output numbers"},
        {"linear(0, 1 10% 20% 30%)", 0, "linear() stop 2 takes at most 2 percentages"},
        {"linear(0, x)", 0, "linear() stop 2: expected a number or percentage, got 'x'"},
        {"steps(4)", 1, "only linear, ease, ease-in, ease-out, ease-in-out and cubic-bezier() curves are allowed here, got 'steps(4)'"},
        {"ease-in-sine", 1, "got 'ease-in-sine'"},
        {"ease-inn", 1, "unknown easing 'ease-inn' (did you mean 'ease-in'?)"},
        {"linear(0, 1)", 1, "got 'linear(0, 1)'"},
    };
    enum { N = sizeof t / sizeof t[0] };
    static char msgs[N][256];
    for (size_t i = 0; i < N; i++) {
        rf_easing_t e;
        int r = rf_easing_parse(&e, t[i].text, t[i].cubic_only, pool_alloc, NULL, msgs[i], sizeof msgs[i]);
        ck_assert_msg(r == -1, "'%s' parsed", t[i].text);
        ck_assert_msg(strstr(msgs[i], t[i].want) != NULL, "'%s': message '%s' lacks '%s'",
                      t[i].text, msgs[i], t[i].want);
        ck_assert_msg(strchr(msgs[i], '\n') == NULL, "'%s': message is not one line", t[i].text);
        for (size_t j = 0; j < i; j++)
            ck_assert_msg(strcmp(msgs[i], msgs[j]) != 0, "'%s' and '%s' give the same message '%s'",
                          t[i].text, t[j].text, msgs[i]);
    }
    /* storage failure for linear() stops */
    char err[128];
    rf_easing_t e;
    ck_assert(rf_easing_parse(&e, "linear(0, 1)", 0, null_alloc, NULL, err, sizeof err) == -1);
    ck_assert_str_eq(err, "out of memory");
    /* a short error buffer truncates, never overflows */
    char small[8];
    memset(small, 'Z', sizeof small);
    ck_assert(rf_easing_parse(&e, "wobble", 0, pool_alloc, NULL, small, 6) == -1);
    ck_assert(small[5] == '\0' && small[6] == 'Z');
}
END_TEST

START_TEST(test_parse_forms)
{
    rf_easing_t e;
    /* CSS keywords and their control points */
    e = parse_ok("linear", 0);
    ck_assert(e.kind == RF_EASE_LINEAR);
    ck_assert(rf_easing_eval(&e, 1.7) == 1.7 && rf_easing_slope(&e, 0.3) == 1.0);
    static const struct {
        const char *name;
        double p[4];
    } kw[] = {
        {"ease", {0.25, 0.1, 0.25, 1}}, {"ease-in", {0.42, 0, 1, 1}},
        {"ease-out", {0, 0, 0.58, 1}}, {"ease-in-out", {0.42, 0, 0.58, 1}},
    };
    for (int i = 0; i < 4; i++) {
        for (int co = 0; co < 2; co++) {
            e = parse_ok(kw[i].name, co);
            ck_assert(e.kind == RF_EASE_CUBIC);
            ck_assert(memcmp(e.p, kw[i].p, sizeof e.p) == 0);
        }
    }
    /* whitespace inside the parentheses, as CSS allows */
    e = parse_ok("  steps( 4 ,  jump-both )  ", 0);
    ck_assert(e.kind == RF_EASE_STEPS && e.n == 4 && e.sub == RF_JUMP_BOTH);
    e = parse_ok("cubic-bezier( .1 ,0.2, 3e-1 , +0.4 )", 0);
    ck_assert(e.p[0] == 0.1 && e.p[1] == 0.2 && e.p[2] == 0.3 && e.p[3] == 0.4);
    e = parse_ok("linear( 0 , 0.25   75% , 1 )", 0);
    ck_assert(e.n == 3 && e.stops[1].x == 0.75);
    /* camelCase aliases */
    for (int fn = 0; fn < 30; fn++) {
        char camel[64];
        size_t n = 0;
        for (const char *c = penner_names[fn]; *c; c++) {
            if (*c == '-') {
                c++;
                camel[n++] = (char)(*c - 'a' + 'A');
            } else {
                camel[n++] = *c;
            }
        }
        camel[n] = '\0';
        e = parse_ok(camel, 0);
        ck_assert_msg(e.kind == RF_EASE_PENNER && e.sub == fn, "%s", camel);
    }
}
END_TEST

START_TEST(test_names)
{
    static const struct {
        const char *in, *name;
    } t[] = {
        {"linear", "linear"}, {"ease", "ease"}, {"ease-in-out", "ease-in-out"},
        {"cubic-bezier(0.42, 0, 1, 1)", "ease-in"},
        {"cubic-bezier(0.1,0.2,0.3,0.4)", "cubic-bezier(0.1, 0.2, 0.3, 0.4)"},
        {"steps(1, end)", "steps(1)"}, {"steps(2, end)", "steps(2)"}, {"step-end", "steps(1)"},
        {"step-start", "steps(1, jump-start)"}, {"steps(4, jump-none)", "steps(4, jump-none)"},
        {"steps(3, jump-both)", "steps(3, jump-both)"}, {"easeOutBounce", "ease-out-bounce"},
        {"ease-in-out-elastic", "ease-in-out-elastic"},
        {"linear(0, 0.25 75%, 1)", "linear(0 0%, 0.25 75%, 1 100%)"},
        {"cubic-bezier(0.1234567890123456, 1e-300, 1, 2.5)",
         "cubic-bezier(0.1234567890123456, 1e-300, 1, 2.5)"},
        {"cubic-bezier(0.30000000000000004, -0, 0.7, 1)", "cubic-bezier(0.30000000000000004, -0, 0.7, 1)"},
    };
    char buf[64];
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        rf_easing_t e = parse_ok(t[i].in, 0);
        ck_assert_str_eq(rf_easing_name(&e, buf, sizeof buf), t[i].name);
        /* the name parses back to the same function */
        rf_easing_t f = parse_ok(buf, 0);
        for (int k = -10; k <= 30; k++)
            ck_assert(rf_easing_eval(&e, k / 20.0) == rf_easing_eval(&f, k / 20.0));
    }
    /* long names are cut with an ellipsis inside the buffer */
    {
        rf_easing_t c = parse_ok("cubic-bezier(0.12345678901234566, 0.12345678901234566, "
                                 "0.12345678901234566, 0.12345678901234566)", 0);
        rf_easing_name(&c, buf, sizeof buf);
        ck_assert(strlen(buf) == sizeof buf - 1);
        ck_assert_str_eq(buf + sizeof buf - 5, "...)");
    }
    rf_easing_t e = parse_ok("linear(0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1)", 0);
    rf_easing_name(&e, buf, sizeof buf);
    ck_assert(strlen(buf) == sizeof buf - 1);
    ck_assert_str_eq(buf + sizeof buf - 5, "...)");
}
END_TEST

/* ------------------------------------------------------------------ slopes */

static ld ref_pen_slope(int fn, ld p)
{
    const ld h = 1e-7L;
    return (pen_ref(fn, p + h) - pen_ref(fn, p - h)) / (2.0L * h);
}

START_TEST(test_slopes)
{
    /* Penner: analytic slope against a long double central difference,
     * at points away from the kinks of bounce */
    for (int fn = 0; fn < 30; fn++) {
        rf_easing_t e = parse_ok(penner_names[fn], 0);
        for (int k = 0; k < 31; k++) {
            double p = 0.013 + 0.0317 * k;
            double want = (double)ref_pen_slope(fn, p);
            double got = rf_easing_slope(&e, p);
            ck_assert_msg(fabs(got - want) <= 1e-6 * fmax(1.0, fabs(want)),
                          "%s slope at %g: got %.17g, want %.17g", penner_names[fn], p, got, want);
        }
        ck_assert(rf_easing_slope(&e, -0.2) == 0.0 && rf_easing_slope(&e, 1.2) == 0.0);
    }
    /* one-sided end slopes, by hand */
    rf_easing_t q = parse_ok("ease-in-quad", 0);
    ck_assert(rf_easing_slope(&q, 0.0) == 0.0 && rf_easing_slope(&q, 1.0) == 2.0);
    q = parse_ok("ease-in-expo", 0);
    ASSERT_NEAR(rf_easing_slope(&q, 0.0), 10.0 * log(2.0) / 1024.0, 1e-17);
    q = parse_ok("ease-out-cubic", 0);
    ck_assert(rf_easing_slope(&q, 0.0) == 3.0 && rf_easing_slope(&q, 1.0) == 0.0);

    /* cubic: dy/dx against a long double central difference of the
     * bisection reference */
    static const double curves[][4] = {
        {0.25, 0.1, 0.25, 1}, {0.42, 0, 1, 1}, {0, 0, 0.58, 1}, {0.5, -1, 0.5, 2},
        {0.68, -0.6, 0.32, 1.6}, {0.9, 0.1, 0.1, 0.9}, {0, 1.5, 1, 1.5},
    };
    for (size_t c = 0; c < sizeof curves / sizeof curves[0]; c++) {
        const double *p = curves[c];
        rf_easing_t e;
        rf_easing_init_cubic(&e, p[0], p[1], p[2], p[3], 0);
        for (int k = 1; k < 50; k++) {
            double x = k / 50.0;
            const double h = 1e-6;
            double want = (double)((ref_cubic(p[0], p[1], p[2], p[3], x + h) -
                                    ref_cubic(p[0], p[1], p[2], p[3], x - h)) / (2.0L * h));
            double got = rf_easing_slope(&e, x);
            ck_assert_msg(fabs(got - want) <= 1e-6 * fmax(1.0, fabs(want)),
                          "cubic %zu slope at %g: got %.17g, want %.17g", c, x, got, want);
        }
        /* outside [0,1]: the extrapolation line's slope */
        ASSERT_NEAR(rf_easing_slope(&e, -0.5), (rf_easing_eval(&e, -0.5) - 0.0) / -0.5, 1e-15);
        ASSERT_NEAR(rf_easing_slope(&e, 1.5), (rf_easing_eval(&e, 1.5) - 1.0) / 0.5, 1e-15);
    }
    /* end slopes of ease-out (P1 on P0): the limit y''/x'' = p2y/p2x */
    rf_easing_t eo = parse_ok("ease-out", 0);
    ASSERT_NEAR(rf_easing_slope(&eo, 0.0), 1.0 / 0.58, 1e-14);
    /* ease at 0: y'(0)/x'(0) = p1y/p1x */
    rf_easing_t ea = parse_ok("ease", 0);
    ASSERT_NEAR(rf_easing_slope(&ea, 0.0), 0.4, 1e-15);
    /* vertical tangent: infinite */
    rf_easing_t vt;
    rf_easing_init_cubic(&vt, 0.0, 0.55, 0.45, 1.0, 0);
    ck_assert(isinf(rf_easing_slope(&vt, 0.0)) && rf_easing_slope(&vt, 0.0) > 0);
}
END_TEST

/* ------------------------------------------------------------------ ranges */

/* The range must contain every value eval returns on a dense grid, and be
 * tight against the extremes of the reference found by a dense scan. */
static void check_range(const rf_easing_t *e, ld (*ref)(const void *, ld), const void *arg,
                        const char *what)
{
    double lo, hi;
    ld rmin = INFINITY, rmax = -INFINITY;
    const int n = 200000;
    rf_easing_range(e, &lo, &hi);
    for (int i = 0; i <= n; i++) {
        double p = (double)i / n;
        double y = rf_easing_eval(e, p);
        REQUIRE(y >= lo && y <= hi, "%s: eval(%.17g) = %.17g outside [%.17g, %.17g]", what, p,
                      y, lo, hi);
        ld r = ref(arg, (ld)i / n);
        if (r < rmin)
            rmin = r;
        if (r > rmax)
            rmax = r;
    }
    ck_assert_msg(lo <= rmin + 1e-12L && lo >= rmin - 1e-9L, "%s: lo %.17g, scan %.17Lg", what, lo, rmin);
    ck_assert_msg(hi >= rmax - 1e-12L && hi <= rmax + 1e-9L, "%s: hi %.17g, scan %.17Lg", what, hi, rmax);
}

static ld range_pen_ref(const void *arg, ld p) { return pen_ref(*(const int *)arg, p); }

/* y(s) scanned over the curve parameter: independent of the solver */
static ld range_cubic_ref(const void *arg, ld s)
{
    const double *p = arg;
    return ref_bern(p[1], p[3], s);
}

START_TEST(test_ranges)
{
    for (int fn = 0; fn < 30; fn++) {
        rf_easing_t e = parse_ok(penner_names[fn], 0);
        check_range(&e, range_pen_ref, &fn, penner_names[fn]);
    }
    /* hand-derived: ease-in-back's minimum -4 c1^3 / (27 c3^2) at x = 2 c1 / (3 c3) */
    {
        double lo, hi, c1 = 1.70158, c3 = c1 + 1.0;
        rf_easing_t e = parse_ok("ease-in-back", 0);
        rf_easing_range(&e, &lo, &hi);
        ASSERT_NEAR(lo, -4.0 * c1 * c1 * c1 / (27.0 * c3 * c3), 1e-12);
        ck_assert(hi == 1.0);
    }
    static const double curves[][4] = {
        {0.25, 0.1, 0.25, 1}, {0.5, -1, 0.5, 2}, {0.68, -0.6, 0.32, 1.6}, {0.25, 2.5, 0.75, 0.5},
        {0.25, 0.5, 0.75, -1.5}, {0.25, 0.1, 0.75, 1.5}, {0.25, -0.5, 0.75, 0.9}, {0, 1, 1, 0},
        {0, 1.5, 1, 1.5}, {0.34, 1.56, 0.64, 1}, {0.36, 0, 0.66, -0.56}, {1, -0.5, 0, 1.5},
    };
    for (size_t c = 0; c < sizeof curves / sizeof curves[0]; c++) {
        rf_easing_t e;
        char what[96];
        rf_easing_init_cubic(&e, curves[c][0], curves[c][1], curves[c][2], curves[c][3], 0);
        snprintf(what, sizeof what, "cubic-bezier(%g, %g, %g, %g)", curves[c][0], curves[c][1],
                 curves[c][2], curves[c][3]);
        check_range(&e, range_cubic_ref, curves[c], what);
    }
    /* endpoint-bounded curves: exactly [0, 1] */
    {
        double lo, hi;
        rf_easing_t e = parse_ok("ease-in-out", 0);
        rf_easing_range(&e, &lo, &hi);
        ck_assert(lo == 0.0 && hi == 1.0);
    }
    /* linear(): the extremes of the pieces over [0, 1], extrapolated ends included */
    static const struct {
        const char *text;
        double lo, hi;
    } st[] = {
        {"linear(0, 1.5, 1)", 0.0, 1.5},
        {"linear(1, -0.5, 0)", -0.5, 1.0},
        {"linear(0 20%, 1 80%)", -1.0 / 3.0, 4.0 / 3.0},
        {"linear(0, 0.9 110%, 1)", 0.0, 0.9 / 1.1},
        {"linear(0, 2 50%, 0.5 50%, 1)", 0.0, 2.0},
        {"linear(0, 1 150%, 0.5)", 0.0, 2.0 / 3.0},
    };
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) {
        double lo, hi;
        rf_easing_t e = parse_ok(st[i].text, 0);
        rf_easing_range(&e, &lo, &hi);
        ASSERT_NEAR(lo, st[i].lo, 1e-15);
        ASSERT_NEAR(hi, st[i].hi, 1e-15);
        for (int k = 0; k <= 1000; k++) {
            double y = rf_easing_eval(&e, k / 1000.0);
            ck_assert(y >= lo && y <= hi);
        }
    }
}
END_TEST

static Suite *easing_suite(void)
{
    Suite *s = suite_create("easing");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_cubic_solver_grid);
    tcase_add_test(tc, test_cubic_solver_singular);
    tcase_add_test(tc, test_cubic_endpoints_and_extrapolation);
    tcase_add_test(tc, test_cubic_init_clamp);
    tcase_add_test(tc, test_penner_values);
    tcase_add_test(tc, test_penner_hand_values);
    tcase_add_test(tc, test_steps_by_hand);
    tcase_add_test(tc, test_linear_fixup);
    tcase_add_test(tc, test_linear_eval);
    tcase_add_test(tc, test_parse_errors);
    tcase_add_test(tc, test_parse_forms);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_slopes);
    tcase_add_test(tc, test_ranges);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(easing_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
