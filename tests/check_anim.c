/* check_anim.c - the engine against independent references.
 *
 * References are the contract's closed forms evaluated literally in long
 * double (not the engine's rearranged forms), dense long-double scans for
 * settle times and ranges, and hand-derived roots. Seed 000 test strategy
 * items 1-5: spring formulas and settle, bezier one-shot/loop/ping-pong,
 * Newton accuracy (also in check_easing), physics, retargeting.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "anim.h"
#include "testutil.h"

/* ---- literal long-double references of scene-v1.md's spring formulas ---- */

typedef struct ref_spring {
    long double from, to, k, c, v0;
} ref_spring_t;

static long double ref_spring_x(const ref_spring_t *s, long double tau)
{
    long double omega = sqrtl(s->k);
    long double zeta = s->c / (2.0L * omega);
    long double A = s->from - s->to;
    if (zeta < 1.0L) {
        long double wd = omega * sqrtl(1.0L - zeta * zeta);
        long double B = (s->v0 + zeta * omega * A) / wd;
        return s->to + expl(-zeta * omega * tau) * (A * cosl(wd * tau) + B * sinl(wd * tau));
    }
    if (zeta == 1.0L)
        return s->to + (A + (s->v0 + omega * A) * tau) * expl(-omega * tau);
    long double r1 = -omega * (zeta - sqrtl(zeta * zeta - 1.0L));
    long double r2 = -omega * (zeta + sqrtl(zeta * zeta - 1.0L));
    long double c2 = (s->v0 - r1 * A) / (r2 - r1);
    long double c1 = A - c2;
    return s->to + c1 * expl(r1 * tau) + c2 * expl(r2 * tau);
}

static void make_spring(rf_anim_t *a, double from, double to, double k, double c, double v0,
                        double start)
{
    rf_anim_spec_t s;
    rf_anim_spec_defaults(&s, RF_CURVE_SPRING);
    s.from = from;
    s.to = to;
    s.stiffness = k;
    s.damping = c;
    s.velocity = v0;
    s.start = start;
    rf_anim_init(a, &s);
}

/* Spring cases: under, critical (26 = 2 sqrt(169)), over, with velocity. */
static const ref_spring_t spring_cases[] = {
    {0, 300, 170, 26, 0},   {0, 1, 100, 10, 0},     {100, 1000, 300, 10, 0},
    {0, 300, 169, 26, 0},   {10, -5, 400, 40, 250}, {0, 1, 100, 30, 0},
    {0, 1, 100, 30, -40},   {5, 5, 170, 26, 80},    {-3, 2, 1000, 5, 0},
    {0, 100, 170, 200, 900}, {0, 1, 100, 20.0000001, 0}, {0, 1, 100, 19.9999999, 0},
};
#define NCASES (sizeof spring_cases / sizeof spring_cases[0])

START_TEST(test_spring_closed_form)
{
    const ref_spring_t *r = &spring_cases[_i];
    rf_anim_t a;
    make_spring(&a, (double)r->from, (double)r->to, (double)r->k, (double)r->c, (double)r->v0, 0.25);
    long double scale = fabsl(r->from - r->to) + fabsl(r->v0) / sqrtl(r->k) + 1.0L;
    double maxerr = 0;
    for (int i = 0; i <= 4000; i++) {
        double tau = i * 0.0005;
        double t = 0.25 + tau;
        if (t >= a.settle)
            break;
        long double ref = ref_spring_x(r, (long double)t - 0.25L);
        double err = (double)(fabsl((long double)rf_anim_eval(&a, t) - ref) / scale);
        if (err > maxerr)
            maxerr = err;
    }
    ck_assert_msg(maxerr <= 1e-12, "case %d: max relative error %g", _i, maxerr);
    /* before start: from */
    ck_assert(rf_anim_eval(&a, 0.0) == (double)r->from);
    ck_assert(rf_anim_eval(&a, 0.2499999) == (double)r->from);
}
END_TEST

/* Settle: |x - to| <= threshold at every time from settle on (dense scan to
 * far past the envelope), the millisecond before does not qualify, and the
 * value is exactly the target, velocity 0, at and after settle. */
START_TEST(test_spring_settle)
{
    const ref_spring_t *r = &spring_cases[_i];
    rf_anim_t a;
    make_spring(&a, (double)r->from, (double)r->to, (double)r->k, (double)r->c, (double)r->v0, 0.0);
    const long double thr = 0.01L;
    ck_assert(isfinite(a.settle));
    double ms = a.settle * 1000.0;
    ck_assert_msg(fabs(ms - nearbyint(ms)) < 1e-6, "settle %.17g is not on the 1 ms grid", a.settle);
    long double step = 2e-5L;
    long double end = a.settle + 5.0;
    for (long double tau = a.settle; tau < end; tau += step)
        rf_check_msg(fabsl(ref_spring_x(r, tau) - r->to) <= thr, "case %d exceeds at %Lg > settle %g",
                      _i, tau, a.settle);
    if (a.settle > 0) {
        int exceeded = 0;
        for (long double tau = a.settle - 0.001L; tau < a.settle; tau += 1e-7L)
            exceeded |= fabsl(ref_spring_x(r, tau) - r->to) > thr;
        ck_assert_msg(exceeded, "case %d: settle %g is not the first valid ms", _i, a.settle);
    }
    double x, v;
    rf_anim_eval_state(&a, a.settle, &x, &v);
    ck_assert(x == (double)r->to && v == 0.0);
    rf_anim_eval_state(&a, 3600.0, &x, &v);
    ck_assert(x == (double)r->to && v == 0.0);
    ck_assert(a.final == (double)r->to);
}
END_TEST

/* Range: the published [lo, hi] contains every value and is tight. */
START_TEST(test_spring_range)
{
    const ref_spring_t *r = &spring_cases[_i];
    rf_anim_t a;
    make_spring(&a, (double)r->from, (double)r->to, (double)r->k, (double)r->c, (double)r->v0, 0.0);
    long double lo = r->from, hi = r->from;
    for (long double tau = 0; tau < a.settle; tau += 1e-5L) {
        long double x = ref_spring_x(r, tau);
        if (x < lo) lo = x;
        if (x > hi) hi = x;
    }
    if (r->to < lo) lo = r->to;
    if (r->to > hi) hi = r->to;
    long double tol = 1e-9L * (fabsl(hi) + fabsl(lo) + 1);
    ck_assert_msg(a.lo <= lo + tol && a.hi >= hi - tol, "case %d range [%g,%g] misses [%Lg,%Lg]",
                  _i, a.lo, a.hi, lo, hi);
    /* tight: the scan's step is small enough to reach within 1e-6 */
    long double tight = 1e-6L * (fabsl(hi - lo) + 1);
    ck_assert_msg(a.lo >= lo - tight && a.hi <= hi + tight, "case %d range [%g,%g] loose vs [%Lg,%Lg]",
                  _i, a.lo, a.hi, lo, hi);
}
END_TEST

/* Soundness of the published range, exactly (no tolerance): random springs
 * and physics evaluated at random times and right at their extrema never
 * leave [lo, hi], even by an ulp. */
START_TEST(test_range_sound_exact)
{
    srand(11);
    for (int k = 0; k < 300; k++) {
        double from = (rand() % 2000 - 1000) / 7.0, to = (rand() % 2000 - 1000) / 3.0;
        double stiff = 1 + rand() % 900, damp = (rand() % 400) / 10.0;
        double v0 = (rand() % 4000 - 2000) / 1.3;
        rf_anim_t a;
        make_spring(&a, from, to, stiff, damp, v0, 0.5);
        double ext[2] = {0, 0};
        double end = isfinite(a.settle) ? a.settle : 10.0;
        for (int i = 0; i < 3000; i++) {
            double t = 0.5 + (rand() / (double)RAND_MAX) * (end - 0.5);
            double x = rf_anim_eval(&a, t);
            rf_check_msg(x >= a.lo && x <= a.hi, "spring %d: %.17g outside [%.17g, %.17g]", k, x,
                          a.lo, a.hi);
            ext[0] = t;
        }
        /* densely around the first extremum, where rounding matters */
        double w = a.regime == 0 ? a.p[1] : 0;
        if (w > 0) {
            for (int i = -2000; i <= 2000; i++) {
                double th = atan2(v0 * w, a.p[0] * v0 + a.p[4] * a.p[2]);
                if (th < 0)
                    th += M_PI;
                double t = 0.5 + th / w + i * 1e-9;
                double x = rf_anim_eval(&a, t);
                rf_check(x >= a.lo && x <= a.hi);
            }
        }
        (void)ext;
    }
}
END_TEST

/* Hand-derived: the contract's example spring 0 -> 300, k 170, c 26. */
START_TEST(test_spring_known_values)
{
    rf_anim_t a;
    make_spring(&a, 0, 300, 170, 26, 0, 0);
    /* zeta = 26 / (2 sqrt 170) = 0.99705..., under-damped by a hair */
    ck_assert_int_eq(a.regime, 0);
    /* critical exactly: k 169, c 26 */
    make_spring(&a, 0, 1, 169, 26, 0, 0);
    ck_assert_int_eq(a.regime, 1);
    /* x(tau) = 1 - (1 + 13 tau) e^(-13 tau); at tau = 1/13: 1 - 2/e */
    ck_assert(fabs(rf_anim_eval(&a, 1.0 / 13.0) - (1.0 - 2.0 / exp(1.0))) < 1e-15);
    /* damping_ratio 0.5 -> damping 2*0.5*sqrt(100) = 10: peaks at pi/omega_d */
    make_spring(&a, 0, 1, 100, 10, 0, 0);
    double wd = 10.0 * sqrt(0.75);
    double peak = 1.0 + exp(-5.0 * M_PI / wd);
    ck_assert(fabs(a.hi - peak) < 1e-12);
    ck_assert(a.lo == 0.0);
}
END_TEST

START_TEST(test_spring_undamped)
{
    rf_anim_t a;
    make_spring(&a, 0, 10, 100, 0, 0, 0);
    ck_assert(isinf(a.settle));
    ck_assert(isnan(a.final));
    ck_assert(fabs(a.lo - 0.0) < 1e-12 && fabs(a.hi - 20.0) < 1e-12);
    /* x = 10 - 10 cos(10 tau) */
    ck_assert(fabs(rf_anim_eval(&a, 0.1) - (10 - 10 * cos(1.0))) < 1e-12);
    ck_assert(fabs(rf_anim_eval(&a, 3600.0) - (10 - 10 * cos(36000.0))) < 1e-9);
}
END_TEST

/* ------------------------------------------------------------------ eased */

static void make_eased(rf_anim_t *a, double from, double to, double d, rf_repeat_t rep,
                       uint32_t iters, const double *curve)
{
    rf_anim_spec_t s;
    rf_anim_spec_defaults(&s, RF_CURVE_EASED);
    s.from = from;
    s.to = to;
    s.duration = d;
    s.repeat = rep;
    s.iterations = iters;
    if (curve)
        rf_easing_init_cubic(&s.easing, curve[0], curve[1], curve[2], curve[3], 1);
    rf_anim_init(a, &s);
}

START_TEST(test_bezier_modes)
{
    rf_anim_t a;
    make_eased(&a, 0, 100, 0.8, RF_REPEAT_NONE, 0, NULL);
    ck_assert(rf_anim_eval(&a, 0.4) == 50.0);
    ck_assert(a.settle == 0.8 && a.final == 100.0);
    ck_assert(rf_anim_eval(&a, 0.8) == 100.0 && rf_anim_eval(&a, 5) == 100.0);

    make_eased(&a, 0, 100, 0.8, RF_REPEAT_LOOP, 0, NULL);
    ck_assert(isinf(a.settle) && isnan(a.final));
    ck_assert(rf_anim_eval(&a, 0.8) == 0.0);   /* boundary: from again */
    ck_assert(rf_anim_eval(&a, 1.6) == 0.0);
    ck_assert(fabs(rf_anim_eval(&a, 1.2) - 50.0) < 1e-9);
    /* t = 3600 is cycle 4500 exactly */
    ck_assert(rf_anim_eval(&a, 3600.0) == 0.0);
    ck_assert(fabs(rf_anim_eval(&a, 3600.2) - 25.0) < 1e-6);

    make_eased(&a, 0, 100, 0.8, RF_REPEAT_PING_PONG, 0, NULL);
    ck_assert(rf_anim_eval(&a, 0.8) == 100.0); /* continuous at the turn */
    ck_assert(fabs(rf_anim_eval(&a, 1.0) - 75.0) < 1e-9);
    ck_assert(rf_anim_eval(&a, 1.6) == 0.0);
    double x, v;
    rf_anim_eval_state(&a, 1.0, &x, &v);
    ck_assert(fabs(v - -125.0) < 1e-9); /* reversed: -100 / 0.8 */

    make_eased(&a, 0, 100, 0.5, RF_REPEAT_PING_PONG, 3, NULL);
    ck_assert(a.settle == 1.5 && a.final == 100.0);
    make_eased(&a, 0, 100, 0.5, RF_REPEAT_PING_PONG, 2, NULL);
    ck_assert(a.settle == 1.0 && a.final == 0.0);
    ck_assert(rf_anim_eval(&a, 1.0) == 0.0 && rf_anim_eval(&a, 7.0) == 0.0);
    make_eased(&a, 0, 100, 0.5, RF_REPEAT_LOOP, 2, NULL);
    ck_assert(a.settle == 1.0 && a.final == 100.0);

    /* clamped curve: [0.5, 2, 0.5, 2] clamps y to 1 -> no overshoot */
    const double over[4] = {0.5, 2.0, 0.5, 2.0};
    make_eased(&a, 0, 100, 1, RF_REPEAT_NONE, 0, over);
    ck_assert(a.lo == 0.0 && a.hi == 100.0);
    for (int i = 0; i <= 100; i++)
        ck_assert(rf_anim_eval(&a, i / 100.0) <= 100.0);
    /* y(0.5) of (0.5,1,0.5,1): x(0.5) = 0.5, y = 3*.25*.5 + 3*.5*.25 + .125 */
    ck_assert(fabs(rf_anim_eval(&a, 0.5) - 87.5) < 1e-4);
}
END_TEST

START_TEST(test_duration_policy)
{
    rf_anim_spec_t s;
    rf_anim_t a;
    rf_anim_spec_defaults(&s, RF_CURVE_EASED);
    s.from = 0;
    s.to = 200;
    s.duration_policy = 1;
    s.speed = 400;
    s.dmin = 0.2;
    s.dmax = 1.5;
    rf_anim_init(&a, &s);
    ck_assert(a.duration == 0.5);
    s.to = 20;
    rf_anim_init(&a, &s);
    ck_assert(a.duration == 0.2);
    s.to = 2000;
    rf_anim_init(&a, &s);
    ck_assert(a.duration == 1.5);
}
END_TEST

/* ----------------------------------------------------------------- physics */

static void make_physics(rf_anim_t *a, double from, double v0, double f, double g, double mn,
                         double mx)
{
    rf_anim_spec_t s;
    rf_anim_spec_defaults(&s, RF_CURVE_PHYSICS);
    s.from = from;
    s.velocity = v0;
    s.friction = f;
    s.gravity = g;
    s.min = mn;
    s.max = mx;
    rf_anim_init(a, &s);
}

static long double ref_phys_x(long double from, long double v0, long double f, long double g,
                              long double tau)
{
    if (f == 0)
        return from + v0 * tau + 0.5L * g * tau * tau;
    long double vt = g / f;
    return from + vt * tau + (v0 - vt) * (1 - expl(-f * tau)) / f;
}

START_TEST(test_physics_frictionless)
{
    rf_anim_t a;
    /* 450 tau^2 - 200 tau - 720 = 0 */
    make_physics(&a, 0, -200, 0, 900, -100, 720);
    double root = (200.0 + sqrt(40000.0 + 4.0 * 450.0 * 720.0)) / 900.0;
    ck_assert_msg(fabs(a.settle - root) < 1e-12, "hit %.17g vs %.17g", a.settle, root);
    ck_assert(a.final == 720.0);
    /* apex at v = 0: tau = 200/900, x = -200^2/(2*900) */
    ck_assert(fabs(a.lo - (-40000.0 / 1800.0)) < 1e-12);
    ck_assert(a.hi == 720.0);
    ck_assert(rf_anim_eval(&a, root + 1) == 720.0);
    ck_assert(fabs(rf_anim_eval(&a, 0.5) - (-100 + 112.5)) < 1e-12);
    /* linear motion, no bound: never settles, unbounded upward */
    make_physics(&a, 0, 10, 0, 0, -INFINITY, INFINITY);
    ck_assert(isinf(a.settle) && isnan(a.final) && a.lo == 0.0 && isinf(a.hi));
    /* nothing moves */
    make_physics(&a, 3, 0, 2, 0, -INFINITY, INFINITY);
    ck_assert(a.settle == 0.0 && a.final == 3.0);
}
END_TEST

START_TEST(test_physics_friction)
{
    rf_anim_t a;
    /* thrown up (v0 -200) with friction 2 and gravity 900: terminal 450/s */
    make_physics(&a, 0, -200, 2, 900, -100, 720);
    /* reference: long double bisection on the literal closed form */
    long double lo = 0.5L, hi = 10.0L;
    ck_assert(ref_phys_x(0, -200, 2, 900, lo) < 720 && ref_phys_x(0, -200, 2, 900, hi) > 720);
    for (int i = 0; i < 200; i++) {
        long double m = (lo + hi) / 2;
        if (ref_phys_x(0, -200, 2, 900, m) >= 720) hi = m; else lo = m;
    }
    ck_assert_msg(fabsl(a.settle - hi) <= 1e-9L, "hit %.17g vs %.17Lg", a.settle, hi);
    /* apex: v = 0 at tau = ln(1 + 200/450)/2 */
    double te = log1p(200.0 / 450.0) / 2.0;
    ck_assert(fabs(a.lo - (double)ref_phys_x(0, -200, 2, 900, te)) < 1e-9);
    ck_assert(a.lo > -100);
    /* upward hit of the min bound before the apex */
    make_physics(&a, 0, -200, 2, 900, -10, 720);
    ck_assert(a.final == -10.0 && a.lo == -10.0);
    lo = 0, hi = te;
    for (int i = 0; i < 200; i++) {
        long double m = (lo + hi) / 2;
        if (ref_phys_x(0, -200, 2, 900, m) <= -10) hi = m; else lo = m;
    }
    ck_assert(fabsl(a.settle - hi) <= 1e-9L);
    /* no bound: unbounded in the direction of gravity */
    make_physics(&a, 0, -200, 2, 900, -INFINITY, INFINITY);
    ck_assert(isinf(a.settle) && isinf(a.hi) && isfinite(a.lo));
}
END_TEST

START_TEST(test_physics_fling)
{
    rf_anim_t a;
    /* gravity-free fling: asymptote 0 + 600/3 = 200, settles when 200 e^(-3 tau) <= 0.01 */
    make_physics(&a, 0, 600, 3, 0, -INFINITY, INFINITY);
    ck_assert(a.final == 200.0);
    ck_assert(fabs(a.settle - log(200.0 / 0.01) / 3.0) < 1e-12);
    ck_assert(a.lo == 0.0 && a.hi == 200.0);
    ck_assert(rf_anim_eval(&a, a.settle) == 200.0);
    /* with a bound before the asymptote: exact hit, 1 - e^(-3 tau) = 150/200 */
    make_physics(&a, 0, 600, 3, 0, -INFINITY, 150);
    ck_assert(fabs(a.settle - log(4.0) / 3.0) < 1e-12);
    ck_assert(a.final == 150.0);
    /* bound beyond the asymptote never hit */
    make_physics(&a, 0, 600, 3, 0, -INFINITY, 250);
    ck_assert(a.final == 200.0);
}
END_TEST

START_TEST(test_decay)
{
    rf_anim_spec_t s;
    rf_anim_t a;
    rf_anim_spec_defaults(&s, RF_CURVE_DECAY);
    ck_assert(s.friction == 1.0);
    s.from = 10;
    s.velocity = 1200;
    s.friction = 1.0;
    rf_anim_init(&a, &s);
    double lambda = 4.2;
    ck_assert(a.final == 10 + 1200 / lambda);
    ck_assert(fabs(rf_anim_eval(&a, 0.5) - (10 + 1200 / lambda * (1 - exp(-2.1)))) < 1e-12);
    ck_assert(fabs(a.settle - log(1200 / lambda / 0.01) / lambda) < 1e-12);
    ck_assert(a.lo == 10 && a.hi == a.final);
    double x, v;
    rf_anim_eval_state(&a, 0.5, &x, &v);
    ck_assert(fabs(v - 1200 * exp(-2.1)) < 1e-9);
}
END_TEST

/* --------------------------------------------------------------- keyframes */

START_TEST(test_keyframes)
{
    rf_key_t keys[3];
    for (int i = 0; i < 3; i++)
        rf_easing_init_linear(&keys[i].easing);
    keys[0].time = 0, keys[0].value = 0;
    keys[1].time = 0.25, keys[1].value = 80;
    keys[2].time = 1, keys[2].value = 100;
    rf_anim_spec_t s;
    rf_anim_t a;
    rf_anim_spec_defaults(&s, RF_CURVE_KEYFRAMES);
    s.duration = 2;
    s.start = 1;
    s.keys = keys;
    s.nkeys = 3;
    rf_anim_init(&a, &s);
    ck_assert(rf_anim_eval(&a, 0.5) == 0.0);
    ck_assert(rf_anim_eval(&a, 1.25) == 40.0);  /* e = 0.125: half of key 1 */
    ck_assert(rf_anim_eval(&a, 1.5) == 80.0);
    ck_assert(fabs(rf_anim_eval(&a, 2.25) - 90.0) < 1e-12); /* e = .625 */
    ck_assert(a.settle == 3.0 && a.final == 100.0);
    ck_assert(a.lo == 0 && a.hi == 100);
    s.interp = RF_INTERP_STEP;
    rf_anim_init(&a, &s);
    ck_assert(rf_anim_eval(&a, 1.49) == 0.0 && rf_anim_eval(&a, 1.5) == 80.0);
    ck_assert(rf_anim_eval(&a, 2.99) == 80.0 && rf_anim_eval(&a, 3.0) == 100.0);
    s.interp = RF_INTERP_SMOOTHSTEP;
    rf_anim_init(&a, &s);
    /* u = 0.25 of segment 0: 3/16 - 2/64 = 0.15625 */
    ck_assert(fabs(rf_anim_eval(&a, 1.125) - 80 * 0.15625) < 1e-12);
    /* a per-key easing shapes the segment that ends at that key */
    rf_easing_init_cubic(&keys[2].easing, 0.42, 0, 1, 1, 0); /* ease-in */
    s.interp = RF_INTERP_LINEAR;
    rf_anim_init(&a, &s);
    double y = rf_cubic_solve(0.42, 0, 1, 1, 0.5);
    ck_assert(fabs(rf_anim_eval(&a, 1.5 + 0.75) - (80 + 20 * y)) < 1e-12);
}
END_TEST

/* ---------------------------------------------------------------- sequence */

START_TEST(test_sequence_retarget)
{
    rf_anim_spec_t s[3];
    static unsigned char store[4096];
    rf_track_t tr;
    rf_anim_spec_defaults(&s[0], RF_CURVE_SPRING);
    s[0].from = 0, s[0].to = 300, s[0].start = 0;
    rf_anim_spec_defaults(&s[1], RF_CURVE_SPRING);
    s[1].to = 120, s[1].stiffness = 300, s[1].start = 0.4;
    s[1].has_from = s[1].has_velocity = 0;
    rf_anim_spec_defaults(&s[2], RF_CURVE_PHYSICS);
    s[2].friction = 3, s[2].max = 400, s[2].start = 0.9;
    s[2].has_from = s[2].has_velocity = 0;
    rf_track_build(&tr, store, s, 3);
    const rf_anim_t *segs = tr.segs;

    /* entry 1 starts from entry 0's state at 0.4, computed independently */
    ref_spring_t r0 = {0, 300, 170, 26, 0};
    long double x04 = ref_spring_x(&r0, 0.4L);
    long double h = 1e-6L;
    long double v04 = (ref_spring_x(&r0, 0.4L + h) - ref_spring_x(&r0, 0.4L - h)) / (2 * h);
    ck_assert(fabsl(segs[1].from - x04) < 1e-9L);
    ck_assert(fabsl(segs[1].p[5] - v04) < 1e-5L);
    /* value and velocity continuous across the retarget */
    double xl, vl, xr, vr;
    rf_track_eval_state(&tr, 0.4 - 1e-9, &xl, &vl);
    rf_track_eval_state(&tr, 0.4, &xr, &vr);
    ck_assert(fabs(xl - xr) < 1e-5 && fabs(vl - vr) < 1e-3);
    /* entry 1 is exactly a standalone spring from the inherited state */
    ref_spring_t r1 = {x04, 120, 300, 26, v04};
    ck_assert(fabsl(rf_track_eval(&tr, 0.6) - ref_spring_x(&r1, 0.2L)) < 1e-6L);
    /* entry 2: physics inherits value and velocity at 0.9 */
    double x09, v09;
    rf_anim_eval_state(&segs[1], 0.9, &x09, &v09);
    ck_assert(segs[2].from == x09 && segs[2].p[0] == v09);
    ck_assert(tr.settle == segs[2].settle && tr.final == segs[2].final);
    /* before the first entry it holds its from; long after, the final */
    ck_assert(rf_track_eval(&tr, 0) == 0.0);
    ck_assert(rf_track_eval(&tr, 3600) == tr.final);
    /* the track range covers every shown value and is tight: the scan's
     * extremes come within 1e-3 of it (the spring's cut-off part after 0.4
     * does not count) */
    double slo = INFINITY, shi = -INFINITY;
    for (int i = 0; i <= 100000; i++) {
        double x = rf_track_eval(&tr, i * 0.0001);
        slo = fmin(slo, x), shi = fmax(shi, x);
    }
    ck_assert(slo >= tr.lo - 1e-9 && shi <= tr.hi + 1e-9);
    ck_assert_msg(slo - tr.lo < 1e-3 && tr.hi - shi < 1e-3, "range [%g,%g] vs scan [%g,%g]",
                  tr.lo, tr.hi, slo, shi);
}
END_TEST

START_TEST(test_sequence_duration_inherits_value_only)
{
    rf_anim_spec_t s[2];
    static unsigned char store[4096];
    rf_track_t tr;
    rf_anim_spec_defaults(&s[0], RF_CURVE_SPRING);
    s[0].from = 0, s[0].to = 100, s[0].velocity = 500;
    rf_anim_spec_defaults(&s[1], RF_CURVE_EASED);
    s[1].to = 0, s[1].duration = 1, s[1].start = 0.1, s[1].has_from = 0, s[1].has_velocity = 0;
    rf_track_build(&tr, store, s, 2);
    const rf_anim_t *segs = tr.segs;
    double x0 = rf_anim_eval(&segs[0], 0.1);
    ck_assert(segs[1].from == x0);
    ck_assert(fabs(rf_track_eval(&tr, 0.6) - x0 * 0.5) < 1e-9);
    /* static input: a sequence whose first entry never moves retargets from it */
    rf_anim_spec_defaults(&s[0], RF_CURVE_PHYSICS);
    s[0].from = 42;
    rf_anim_spec_defaults(&s[1], RF_CURVE_SPRING);
    s[1].to = 0, s[1].start = 1, s[1].has_from = 0, s[1].has_velocity = 0;
    rf_track_build(&tr, store, s, 2);
    segs = tr.segs;
    ck_assert(segs[1].from == 42.0 && segs[1].p[5] == 0.0);
    /* an explicit from overrides the inheritance */
    s[1].has_from = 1, s[1].from = 7;
    rf_track_build(&tr, store, s, 2);
    segs = tr.segs;
    ck_assert(segs[1].from == 7.0);
}
END_TEST

/* Unevenly spaced entries (clustered near 0, a big gap, a dense tail):
 * the grid lookup must agree with a plain linear scan everywhere,
 * including exactly at every start and just before it. */
START_TEST(test_sequence_lookup_uneven)
{
    enum { N = 300 };
    static rf_anim_spec_t s[N];
    static unsigned char store[N * 512];
    rf_track_t tr;
    double at = 0;
    for (int i = 0; i < N; i++) {
        rf_anim_spec_defaults(&s[i], RF_CURVE_CONST);
        s[i].from = i;
        s[i].start = at;
        at += i < 100 ? 1e-6 * (i + 1) : i < 101 ? 1000.0 : 0.01;
    }
    rf_track_build(&tr, store, s, N);
    for (int i = 0; i < N; i++) {
        double st = tr.segs[i].start;
        ck_assert_msg(rf_track_eval(&tr, st) == i, "at start %d", i);
        if (i > 0)
            ck_assert(rf_track_eval(&tr, nextafter(st, -INFINITY)) == i - 1);
    }
    srand(7);
    for (int k = 0; k < 200000; k++) {
        double t = (rand() / (double)RAND_MAX) * (at + 10) - 5;
        int want = 0;
        for (int i = 0; i < N; i++)
            if (tr.segs[i].start <= t)
                want = i;
        rf_check_msg(rf_track_eval(&tr, t) == want, "t = %.17g", t);
    }
}
END_TEST

/* A retarget where the easing's tangent is vertical (cubic p1x = 0 at a loop
 * boundary) must not hand an infinite velocity to the spring. */
START_TEST(test_sequence_vertical_tangent)
{
    rf_anim_spec_t s[2];
    static unsigned char store[4096];
    rf_track_t tr;
    rf_anim_spec_defaults(&s[0], RF_CURVE_EASED);
    s[0].to = 100, s[0].duration = 0.5, s[0].repeat = RF_REPEAT_LOOP;
    rf_easing_init_cubic(&s[0].easing, 0, 1, 1, 1, 1);
    rf_anim_spec_defaults(&s[1], RF_CURVE_SPRING);
    s[1].to = 50, s[1].start = 0.5, s[1].has_from = s[1].has_velocity = 0;
    rf_track_build(&tr, store, s, 2);
    const rf_anim_t *segs = tr.segs;
    ck_assert(segs[1].from == 0.0 && segs[1].p[5] == 0.0);
    for (int i = 0; i < 2000; i++)
        ck_assert(isfinite(rf_track_eval(&tr, i * 0.001)));
    ck_assert(isfinite(tr.lo) && isfinite(tr.hi) && isfinite(tr.settle));
}
END_TEST

/* A long sequence: binary search picks the right entry at any time. */
START_TEST(test_sequence_lookup)
{
    enum { N = 1000 };
    static rf_anim_spec_t s[N];
    static unsigned char store[N * 512];
    rf_track_t tr;
    for (int i = 0; i < N; i++) {
        rf_anim_spec_defaults(&s[i], RF_CURVE_EASED);
        s[i].start = i * 0.5;
        s[i].to = i;
        s[i].duration = 0.25;
        s[i].has_from = i == 0;
    }
    rf_track_build(&tr, store, s, N);
    for (int i = 1; i < N; i++) {
        /* each entry tweens from the previous target (reached at +0.25) */
        ck_assert(rf_track_eval(&tr, i * 0.5) == i - 1);
        ck_assert(fabs(rf_track_eval(&tr, i * 0.5 + 0.125) - (i - 0.5)) < 1e-9);
        ck_assert(rf_track_eval(&tr, i * 0.5 + 0.3) == i);
    }
}
END_TEST

static Suite *anim_suite(void)
{
    Suite *s = suite_create("anim");
    TCase *tc = tcase_create("spring");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_spring_closed_form, 0, NCASES);
    tcase_add_loop_test(tc, test_spring_settle, 0, NCASES);
    tcase_add_loop_test(tc, test_spring_range, 0, NCASES);
    tcase_add_test(tc, test_spring_known_values);
    tcase_add_test(tc, test_range_sound_exact);
    tcase_add_test(tc, test_spring_undamped);
    suite_add_tcase(s, tc);
    tc = tcase_create("eased");
    tcase_add_test(tc, test_bezier_modes);
    tcase_add_test(tc, test_duration_policy);
    suite_add_tcase(s, tc);
    tc = tcase_create("physics");
    tcase_add_test(tc, test_physics_frictionless);
    tcase_add_test(tc, test_physics_friction);
    tcase_add_test(tc, test_physics_fling);
    tcase_add_test(tc, test_decay);
    suite_add_tcase(s, tc);
    tc = tcase_create("keyframes");
    tcase_add_test(tc, test_keyframes);
    suite_add_tcase(s, tc);
    tc = tcase_create("sequence");
    tcase_add_test(tc, test_sequence_retarget);
    tcase_add_test(tc, test_sequence_duration_inherits_value_only);
    tcase_add_test(tc, test_sequence_lookup);
    tcase_add_test(tc, test_sequence_vertical_tangent);
    tcase_add_test(tc, test_sequence_lookup_uneven);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(anim_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
