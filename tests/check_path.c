/* check_path.c - SVG path parsing, measurement, sampling and trimming
 * against independent references.
 *
 * References: Bezier curves evaluated literally in long double (Bernstein
 * form); arc length by long-double 24-point Gauss-Legendre over 2048 equal
 * sub-intervals per segment (nodes computed here, not taken from path.c);
 * arc-length parameters by long-double bisection of that integral; bounds by
 * dense long-double scans; hand-derived points, columns and messages; the
 * closed form of the y = x^2 parabola; published vectors in arclength.tsv
 * (kurbo, Paper.js, svg-path-properties, SVG-Estimate, fontTools) with their
 * own tolerances and the mpmath column. Seed 000 test strategy items 7
 * (knot lookup, boundary ties, Close, all-zero paths, curve evaluation,
 * source bounds) and 8 (malformed and multiple-figure paths are explicit and
 * atomic).
 *
 * Usage: check_path [VECTOR_DIR]   (else $VECTOR_DIR, else tests/vectors)
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"

static const char *vector_dir = "tests/vectors";

#define PI_D 3.14159265358979323846
#define PI_L 3.14159265358979323846264338327950288L

/* ---- allocation: count calls, optionally fail ---- */

typedef struct counting {
    int calls;
    int fail;
} counting_t;

static void *count_alloc(void *ctx, size_t n)
{
    counting_t *c = ctx;
    c->calls++;
    return c->fail ? NULL : malloc(n);
}

static rf_path_t *parse_n(const char *d, size_t len)
{
    rf_path_t *p = NULL;
    rf_path_error_t e;
    counting_t c = {0, 0};
    int rc = rf_path_parse(d, len, count_alloc, &c, &p, &e);
    ck_assert_msg(rc == 0, "parse \"%.60s\": %s", d, e.msg);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(c.calls, 1);
    return p;
}

static rf_path_t *parse_ok(const char *d)
{
    return parse_n(d, strlen(d));
}

/* The parse must fail with exactly msg, allocate nothing, return no path. */
static void expect_error_n(const char *d, size_t len, const char *msg, size_t col)
{
    rf_path_t *p = (rf_path_t *)(uintptr_t)1;
    rf_path_error_t e;
    counting_t c = {0, 0};
    int rc = rf_path_parse(d, len, count_alloc, &c, &p, &e);
    ck_assert_msg(rc != 0, "\"%.60s\" parsed", d);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(c.calls, 0);
    ck_assert_msg(strcmp(e.msg, msg) == 0, "\"%.60s\": got \"%s\", want \"%s\"", d, e.msg, msg);
    ck_assert_uint_eq(e.col, col);
}

static void expect_error(const char *d, const char *msg, size_t col)
{
    expect_error_n(d, strlen(d), msg, col);
}

/* ---- long-double references ---- */

typedef long double ld;

#define NG 24
static ld gx[NG], gw[NG];
static int gl_ready;

/* Gauss-Legendre nodes and weights by Newton on P_n, in long double. */
static void gl_init(void)
{
    if (gl_ready)
        return;
    const ld pi = PI_L;
    for (int i = 0; i < NG; i++) {
        ld x = cosl(pi * (i + 0.75L) / (NG + 0.5L)), dp = 0;
        for (int it = 0; it < 100; it++) {
            ld p0 = 1, p1 = x;
            for (int k = 2; k <= NG; k++) {
                ld p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
                p0 = p1;
                p1 = p2;
            }
            dp = NG * (x * p1 - p0) / (x * x - 1);
            ld dx = p1 / dp;
            x -= dx;
            if (fabsl(dx) < 1e-30L)
                break;
        }
        gx[i] = x;
        gw[i] = 2 / ((1 - x * x) * dp * dp);
    }
    gl_ready = 1;
}

#define REF_N 2048

typedef struct ref_seg {
    int deg;
    ld P[8];
    int nbp;
    ld bp[6];          /* roots and vertices of x'(t), y'(t) in (0,1): where |B'| may kink */
    ld cum[REF_N + 1]; /* arc length from t = 0 to t = j / REF_N */
} ref_seg_t;

static void ref_point(const ref_seg_t *r, ld t, ld *x, ld *y)
{
    ld s = 1 - t;
    const ld *P = r->P;
    if (r->deg == 1) {
        *x = s * P[0] + t * P[2];
        *y = s * P[1] + t * P[3];
    } else if (r->deg == 2) {
        *x = s * s * P[0] + 2 * s * t * P[2] + t * t * P[4];
        *y = s * s * P[1] + 2 * s * t * P[3] + t * t * P[5];
    } else {
        *x = s * s * s * P[0] + 3 * s * s * t * P[2] + 3 * s * t * t * P[4] + t * t * t * P[6];
        *y = s * s * s * P[1] + 3 * s * s * t * P[3] + 3 * s * t * t * P[5] + t * t * t * P[7];
    }
}

static void ref_deriv(const ref_seg_t *r, ld t, ld *dx, ld *dy)
{
    ld s = 1 - t;
    const ld *P = r->P;
    if (r->deg == 1) {
        *dx = P[2] - P[0];
        *dy = P[3] - P[1];
    } else if (r->deg == 2) {
        *dx = 2 * (s * (P[2] - P[0]) + t * (P[4] - P[2]));
        *dy = 2 * (s * (P[3] - P[1]) + t * (P[5] - P[3]));
    } else {
        *dx = 3 * (s * s * (P[2] - P[0]) + 2 * s * t * (P[4] - P[2]) + t * t * (P[6] - P[4]));
        *dy = 3 * (s * s * (P[3] - P[1]) + 2 * s * t * (P[5] - P[3]) + t * t * (P[7] - P[5]));
    }
}

static ld ref_speed(const ref_seg_t *r, ld t)
{
    ld dx, dy;
    ref_deriv(r, t, &dx, &dy);
    return sqrtl(dx * dx + dy * dy);
}

static ld ref_gl1(const ref_seg_t *r, ld a, ld b)
{
    ld h = (b - a) / 2, m = (a + b) / 2, sum = 0;
    for (int i = 0; i < NG; i++)
        sum += gw[i] * ref_speed(r, m + h * gx[i]);
    return sum * h;
}

/* Gauss-Legendre over [a,b], split where the speed may have a kink (a cusp:
 * both derivative components vanish), so the rule sees smooth pieces. */
static ld ref_gl(const ref_seg_t *r, ld a, ld b)
{
    ld sum = 0, lo = a;
    for (int i = 0; i < r->nbp; i++) {
        if (r->bp[i] > lo && r->bp[i] < b) {
            sum += ref_gl1(r, lo, r->bp[i]);
            lo = r->bp[i];
        }
    }
    return sum + ref_gl1(r, lo, b);
}

static void ref_add_root(ref_seg_t *r, ld t)
{
    if (t > 0 && t < 1 && r->nbp < 6) {
        int i = r->nbp++;
        while (i > 0 && r->bp[i - 1] > t) {
            r->bp[i] = r->bp[i - 1];
            i--;
        }
        r->bp[i] = t;
    }
}

static void ref_init(ref_seg_t *r, int deg, const ld *P)
{
    gl_init();
    r->deg = deg;
    for (int i = 0; i < 2 * (deg + 1); i++)
        r->P[i] = P[i];
    r->nbp = 0;
    for (int axis = 0; axis < 2; axis++) {
        const ld *q = r->P + axis;
        if (deg == 2) {
            ld den = q[0] - 2 * q[2] + q[4];
            if (den != 0)
                ref_add_root(r, (q[0] - q[2]) / den);
        } else if (deg == 3) {
            ld a = -q[0] + 3 * q[2] - 3 * q[4] + q[6], b = 2 * (q[0] - 2 * q[2] + q[4]), c = q[2] - q[0];
            if (a == 0) {
                if (b != 0)
                    ref_add_root(r, -c / b);
            } else {
                /* The vertex is a double root (a cusp) exactly, where the
                 * formula below would lose half its digits. */
                ref_add_root(r, -b / (2 * a));
                ld disc = b * b - 4 * a * c;
                if (disc >= 0) {
                    ref_add_root(r, (-b + sqrtl(disc)) / (2 * a));
                    ref_add_root(r, (-b - sqrtl(disc)) / (2 * a));
                }
            }
        }
    }
    r->cum[0] = 0;
    for (int j = 0; j < REF_N; j++)
        r->cum[j + 1] = r->cum[j] + ref_gl(r, (ld)j / REF_N, (ld)(j + 1) / REF_N);
}

static void ref_init_d(ref_seg_t *r, int deg, const double *P)
{
    ld Q[8];
    for (int i = 0; i < 2 * (deg + 1); i++)
        Q[i] = P[i];
    ref_init(r, deg, Q);
}

static ld ref_len(const ref_seg_t *r)
{
    return r->cum[REF_N];
}

/* Arc length from 0 to t. */
static ld ref_len_to(const ref_seg_t *r, ld t)
{
    if (t <= 0)
        return 0;
    if (t >= 1)
        return r->cum[REF_N];
    int j = (int)(t * REF_N);
    if (j >= REF_N)
        j = REF_N - 1;
    return r->cum[j] + ref_gl(r, (ld)j / REF_N, t);
}

/* t where the arc length from 0 is s: bisection. */
static ld ref_t_at(const ref_seg_t *r, ld s)
{
    if (s <= 0)
        return 0;
    if (s >= r->cum[REF_N])
        return 1;
    int lo = 0, hi = REF_N;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (r->cum[mid] <= s)
            lo = mid;
        else
            hi = mid;
    }
    ld a = (ld)lo / REF_N, b = (ld)(lo + 1) / REF_N;
    for (int it = 0; it < 80; it++) {
        ld m = (a + b) / 2;
        if (r->cum[lo] + ref_gl(r, (ld)lo / REF_N, m) < s)
            a = m;
        else
            b = m;
    }
    return (a + b) / 2;
}

static int kind_deg(rf_path_kind_t k)
{
    return k == RF_PATH_QUAD ? 2 : k == RF_PATH_CUBIC ? 3 : 1;
}

/* A whole path's reference, from the parsed control points (parsing itself
 * is checked against hand-written points elsewhere). */
typedef struct ref_path {
    uint32_t n;
    ref_seg_t *segs;
    ld *start;    /* n + 1 cumulative lengths */
} ref_path_t;

static void ref_path_init(ref_path_t *rp, const rf_path_t *p)
{
    rp->n = rf_path_segment_count(p);
    rp->segs = calloc(rp->n ? rp->n : 1, sizeof *rp->segs);
    rp->start = calloc(rp->n + 1, sizeof *rp->start);
    ck_assert(rp->segs && rp->start);
    for (uint32_t i = 0; i < rp->n; i++) {
        const double *P;
        rf_path_kind_t k = rf_path_segment(p, i, &P);
        ref_init_d(&rp->segs[i], kind_deg(k), P);
        rp->start[i + 1] = rp->start[i] + ref_len(&rp->segs[i]);
    }
}

static void ref_path_free(ref_path_t *rp)
{
    free(rp->segs);
    free(rp->start);
}

/* Segment and t at distance s, with the contract's tie rule: the segment
 * whose end is beyond s (skipping zero-length ones), else the last
 * positive-length segment at t = 1. */
static void ref_path_at(const ref_path_t *rp, ld s, uint32_t *seg, ld *t)
{
    uint32_t last = 0;
    for (uint32_t i = 0; i < rp->n; i++) {
        ld len = ref_len(&rp->segs[i]);
        if (len <= 0)
            continue;
        last = i;
        if (s < rp->start[i] + len) {
            *seg = i;
            *t = ref_t_at(&rp->segs[i], s - rp->start[i]);
            return;
        }
    }
    *seg = last;
    *t = 1;
}

static ld ref_control_scale(const ref_seg_t *r)
{
    ld sc = 0;
    for (int i = 0; i < r->deg; i++)
        sc += hypotl(r->P[2 * i + 2] - r->P[2 * i], r->P[2 * i + 3] - r->P[2 * i + 1]);
    return sc;
}

static double angle_diff(double a, double b)
{
    double d = fmod(fabs(a - b), 360.0);
    return d > 180.0 ? 360.0 - d : d;
}

static void seg_points(const rf_path_t *p, uint32_t i, rf_path_kind_t kind, const double *want)
{
    const double *P;
    rf_path_kind_t k = rf_path_segment(p, i, &P);
    ck_assert_int_eq(k, kind);
    for (int j = 0; j < 2 * (kind_deg(k) + 1); j++)
        ck_assert_msg(P[j] == want[j], "segment %u coordinate %d: %.17g, want %.17g", i, j, P[j], want[j]);
}

/* ============================ parsing ============================ */

START_TEST(test_layout_sizes)
{
    ck_assert_uint_eq(sizeof(rf_path_seg_t), 12);
    ck_assert_uint_eq(sizeof(rf_path_knot_t), 16);
}
END_TEST

/* Every SVG number form, each against the value written out by hand. */
static const struct {
    const char *d;
    double x, y; /* the lone lineto's end point */
} number_cases[] = {
    {"M0 0L1e-3 2", 0.001, 2},
    {"M0 0L1E+2 -2E-1", 100, -0.2},
    {"M0 0L.5.5", 0.5, 0.5},
    {"M0 0L-1-2", -1, -2},
    {"M0 0L+3+4", 3, 4},
    {"M0 0L1.5.25", 1.5, 0.25},
    {"M0 0L1e2.5", 100, 0.5},
    {"M0 0L-.5-.25", -0.5, -0.25},
    {"M0 0L1.,2.", 1, 2},
    {"M0 0L 1 , 2", 1, 2},
    {"M0 0L1,2", 1, 2},
    {"M0,0L1\t\r\n\f2", 1, 2},
    {"M0 0L007 0.0700", 7, 0.07},
    {"M0 0L1e-1-1e1", 0.1, -10},
    {"M0 0L0.1e+1 12E0", 1, 12},
    {"M0 0L-0 4", 0, 4},
    {"M0 0L3e-400 1", 0, 1},
};

START_TEST(test_number_forms)
{
    const char *d = number_cases[_i].d;
    rf_path_t *p = parse_ok(d);
    ck_assert_uint_eq(rf_path_segment_count(p), 1);
    double want[4] = {0, 0, number_cases[_i].x, number_cases[_i].y};
    seg_points(p, 0, RF_PATH_LINE, want);
    free(p);
}
END_TEST

START_TEST(test_number_too_long_and_leading_zeros)
{
    /* 255 characters is the longest number: leading zeros count. */
    char d[600];
    strcpy(d, "M0 0L");
    size_t n = strlen(d);
    for (int i = 0; i < 254; i++)
        d[n++] = '0';
    d[n++] = '5';
    strcpy(d + n, " 1");
    rf_path_t *p = parse_ok(d);
    double want[4] = {0, 0, 5, 1};
    seg_points(p, 0, RF_PATH_LINE, want);
    free(p);
    strcpy(d, "M0 0L0");
    n = strlen(d);
    for (int i = 0; i < 255; i++)
        d[n++] = '0';
    strcpy(d + n, " 1");
    expect_error(d, "col 6: number too long (more than 255 characters)", 6);
}
END_TEST

/* Each relative path against its absolute spelling: identical points. */
static const struct {
    const char *rel, *abs;
} rel_cases[] = {
    {"m10 20 l5 5", "M10 20 L15 25"},
    {"m10 20 h5 v-7", "M10 20 H15 V13"},
    {"M10 20 q5 5 10 0", "M10 20 Q15 25 20 20"},
    {"M10 20 c1 2 3 4 5 6", "M10 20 C11 22 13 24 15 26"},
    {"M10 20 c1 2 3 4 5 6 s7 8 9 10", "M10 20 C11 22 13 24 15 26 S22 34 24 36"},
    {"M10 20 q5 5 10 0 t10 0", "M10 20 Q15 25 20 20 T30 20"},
    {"M10 20 l5 0 l0 5 z", "M10 20 L15 20 L15 25 Z"},
    {"m10 20 5 5 5 -5", "M10 20 L15 25 L20 20"},
};

START_TEST(test_relative_absolute)
{
    rf_path_t *a = parse_ok(rel_cases[_i].rel), *b = parse_ok(rel_cases[_i].abs);
    uint32_t n = rf_path_segment_count(b);
    ck_assert_uint_eq(rf_path_segment_count(a), n);
    ck_assert_uint_gt(n, 0);
    for (uint32_t i = 0; i < n; i++) {
        const double *pa, *pb;
        rf_path_kind_t ka = rf_path_segment(a, i, &pa), kb = rf_path_segment(b, i, &pb);
        ck_assert_int_eq(ka, kb);
        for (int j = 0; j < 2 * (kind_deg(ka) + 1); j++)
            ck_assert_msg(pa[j] == pb[j], "%s: segment %u coord %d %.17g vs %.17g", rel_cases[_i].rel, i,
                          j, pa[j], pb[j]);
    }
    ck_assert_double_eq(rf_path_length(a), rf_path_length(b));
    free(a);
    free(b);
}
END_TEST

START_TEST(test_implicit_repeats)
{
    rf_path_t *p = parse_ok("M0 0 L1 1 2 2 3 3");
    ck_assert_uint_eq(rf_path_segment_count(p), 3);
    seg_points(p, 2, RF_PATH_LINE, (double[]){2, 2, 3, 3});
    free(p);
    /* After M the pairs are linetos, after m relative ones. */
    p = parse_ok("M1 1 2 2 4 4");
    ck_assert_uint_eq(rf_path_segment_count(p), 2);
    seg_points(p, 0, RF_PATH_LINE, (double[]){1, 1, 2, 2});
    seg_points(p, 1, RF_PATH_LINE, (double[]){2, 2, 4, 4});
    free(p);
    p = parse_ok("m1 1 2 2 4 4");
    seg_points(p, 0, RF_PATH_LINE, (double[]){1, 1, 3, 3});
    seg_points(p, 1, RF_PATH_LINE, (double[]){3, 3, 7, 7});
    free(p);
    p = parse_ok("M0 0 H1 2 3 v1 1");
    ck_assert_uint_eq(rf_path_segment_count(p), 5);
    seg_points(p, 2, RF_PATH_LINE, (double[]){2, 0, 3, 0});
    seg_points(p, 4, RF_PATH_LINE, (double[]){3, 1, 3, 2});
    free(p);
    p = parse_ok("M0 0 C1 1 2 2 3 3 4 4 5 5 6 6 Q7 7 8 8 9 9 10 10");
    ck_assert_uint_eq(rf_path_segment_count(p), 4);
    seg_points(p, 1, RF_PATH_CUBIC, (double[]){3, 3, 4, 4, 5, 5, 6, 6});
    seg_points(p, 3, RF_PATH_QUAD, (double[]){8, 8, 9, 9, 10, 10});
    free(p);
    /* Commas and no whitespace between repeats. */
    p = parse_ok("M0,0L1,1,2,2-3-3");
    ck_assert_uint_eq(rf_path_segment_count(p), 3);
    seg_points(p, 2, RF_PATH_LINE, (double[]){2, 2, -3, -3});
    free(p);
}
END_TEST

START_TEST(test_smooth_reflections)
{
    /* S reflects the previous C/S second control point about the current point. */
    rf_path_t *p = parse_ok("M0 0 C10 0 20 10 30 10 S50 20 60 0 s10 10 20 0");
    seg_points(p, 1, RF_PATH_CUBIC, (double[]){30, 10, 40, 10, 50, 20, 60, 0});
    seg_points(p, 2, RF_PATH_CUBIC, (double[]){60, 0, 70, -20, 70, 10, 80, 0});
    free(p);
    /* S without a previous C/S (after M, L or Q): first control = current point. */
    p = parse_ok("M100 200 S400 300 400 200");
    seg_points(p, 0, RF_PATH_CUBIC, (double[]){100, 200, 100, 200, 400, 300, 400, 200});
    free(p);
    p = parse_ok("M0 0 Q5 5 10 0 S20 5 30 0");
    seg_points(p, 1, RF_PATH_CUBIC, (double[]){10, 0, 10, 0, 20, 5, 30, 0});
    free(p);
    /* T reflects the previous Q/T control point; chains of T keep reflecting. */
    p = parse_ok("M0 100 Q50 -50 100 100 T200 100 t100 0");
    seg_points(p, 1, RF_PATH_QUAD, (double[]){100, 100, 150, 250, 200, 100});
    seg_points(p, 2, RF_PATH_QUAD, (double[]){200, 100, 250, -50, 300, 100});
    free(p);
    /* T without a previous Q/T (after M or C): control = current point. */
    p = parse_ok("M0 100 T200 100");
    seg_points(p, 0, RF_PATH_QUAD, (double[]){0, 100, 0, 100, 200, 100});
    free(p);
    p = parse_ok("M0 0 C1 1 2 1 3 0 T6 0");
    seg_points(p, 1, RF_PATH_QUAD, (double[]){3, 0, 3, 0, 6, 0});
    free(p);
    /* A line in between resets the reflection. */
    p = parse_ok("M0 0 Q5 5 10 0 L20 0 T30 0");
    seg_points(p, 2, RF_PATH_QUAD, (double[]){20, 0, 20, 0, 30, 0});
    free(p);
}
END_TEST

START_TEST(test_empty_and_lone_move)
{
    static const char *cases[] = {"", " \t\n", "M 3 4", "m3,4", "M3 4 "};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rf_path_t *p = parse_ok(cases[i]);
        double ex = i < 2 ? 0 : 3, ey = i < 2 ? 0 : 4, x, y, a, x0, y0, x1, y1;
        ck_assert_uint_eq(rf_path_segment_count(p), 0);
        ck_assert_double_eq(rf_path_length(p), 0);
        rf_path_sample(p, 0.5, &x, &y, &a);
        ck_assert_double_eq(x, ex);
        ck_assert_double_eq(y, ey);
        ck_assert_double_eq(a, 0);
        rf_path_bounds(p, &x0, &y0, &x1, &y1);
        ck_assert(x0 == ex && x1 == ex && y0 == ey && y1 == ey);
        uint32_t nk;
        rf_path_knots(p, &nk);
        ck_assert_uint_eq(nk, 0);
        ck_assert_uint_eq(rf_path_trim(p, 0, 1, NULL, 0), 0);
        uint32_t seg;
        double t;
        rf_path_locate(p, 0.3, &seg, &t);
        ck_assert_uint_eq(seg, UINT32_MAX);
        free(p);
    }
    /* NULL data with length 0 is the empty path too. */
    rf_path_t *p = parse_n(NULL, 0);
    ck_assert_uint_eq(rf_path_segment_count(p), 0);
    free(p);
}
END_TEST

/* Malformed and multiple-figure paths: exact message and 1-based column
 * (columns counted by hand). */
static const struct {
    const char *d;
    const char *msg;
    size_t col;
} error_cases[] = {
    {"M 10 20 L 30 ", "col 14: expected a number", 14},
    {"L 0 0", "col 1: path data must start with 'M'", 1},
    {"  10 20", "col 3: path data must start with 'M'", 3},
    {"M 0 0 A 1 1 0 2 0 5 5", "col 15: expected an arc flag (0 or 1), got character '2'", 15},
    {"M 0 0 A 1 1 0 0 1 5", "col 20: expected a number", 20},
    {"M 0 0 A 1 1 0", "col 14: expected an arc flag (0 or 1)", 14},
    {"M 0 0 A 1 1 0 1", "col 16: expected an arc flag (0 or 1)", 16},
    {"M 0 0 a 1 1 0 .5 1 2 2", "col 15: expected an arc flag (0 or 1), got character '.'", 15},
    {"M 0 0 a 1 1 0 -1 1 2 2", "col 15: expected an arc flag (0 or 1), got character '-'", 15},
    {"M 0 0 A 1 1 0 0 L 2 2", "col 17: expected an arc flag (0 or 1), got character 'L'", 17},
    {"M0 0 A 1 1 0 0 1 1e151 0", "col 8: coordinate out of range (magnitude above 1e150)", 8},
    {"M0 0 A 1e300 1e300 0 1 1 10 0", "col 8: arc leaves the coordinate range (magnitude above 1e150)", 8},
    {"M0 0 A 1e-320 1 0 0 1 10 0", "col 8: arc radii too small for its endpoints (below 1e-300 of the distance)", 8},
    {"M0 0X", "col 5: unknown path command 'X'", 5},
    {"M0 0 L 1 1 e", "col 12: unknown path command 'e'", 12},
    {"M0 0 L10 0 Z 5", "col 14: 'Z' takes no numbers", 14},
    {"M0,,0", "col 4: expected a number", 4},
    {"M0 0 L 1 2,", "col 12: expected a number", 12},
    {"M0 0,L1 1", "col 6: expected a number", 6},
    {",M0 0", "col 1: unexpected ','", 1},
    {"M0 0 Z,", "col 7: unexpected ','", 7},
    {"M,0 0", "col 2: expected a number", 2},
    {"M 10 20 L", "col 10: expected a number", 10},
    {"M 0 0 h", "col 8: expected a number", 8},
    {"M 0 0 C 1 2 3 4 5", "col 18: expected a number", 18},
    {"M 10 L 20 20", "col 6: expected a number", 6},
    {"M0 0 L 1e999 0", "col 8: number out of range", 8},
    {"M0 0 L 1 -", "col 10: expected a number", 10},
    {"M0 0 L 1 .", "col 10: expected a number", 10},
    {"M 0 0 L 1 +.e1", "col 11: expected a number", 11},
    {"M1e 2", "col 3: expected a number", 3},
    {"M0 0 # 1", "col 6: unexpected character '#'", 6},
    {"M0 0 \x07", "col 6: unexpected character U+0007", 6},
    {"M0 0 \xff", "col 6: unexpected byte 0xFF", 6},
    {"M0 0 \xc3\xa9", "col 6: unexpected character '\xc3\xa9'", 6},
    {"M0 0 \xc3", "col 6: unexpected byte 0xC3", 6},
    {"M 1e150 0 l 1e150 0", "col 13: coordinate out of range (magnitude above 1e150)", 13},
    {"M 2e150 0", "col 3: coordinate out of range (magnitude above 1e150)", 3},
    {"M0 0L1.7976931348623157e308 0", "col 6: coordinate out of range (magnitude above 1e150)", 6},
    {"M 1e150 0 C 0 0 -1e150 0 1e150 0 S 1 1 2 2", "col 36: coordinate out of range (magnitude above 1e150)", 36},
};

START_TEST(test_errors)
{
    expect_error(error_cases[_i].d, error_cases[_i].msg, error_cases[_i].col);
}
END_TEST

START_TEST(test_error_nul_byte_and_length)
{
    /* len, not NUL, ends the data: a NUL inside is a character; bytes past
     * len are never read. */
    expect_error_n("M0 0 \0 L1 1", 11, "col 6: unexpected character U+0000", 6);
    rf_path_t *p = parse_n("M0 0 L1 1 GARBAGE", 9);
    ck_assert_uint_eq(rf_path_segment_count(p), 1);
    free(p);
    expect_error_n("M0 0 L1 2", 8, "col 9: expected a number", 9);
}
END_TEST

START_TEST(test_out_of_memory_atomic)
{
    rf_path_t *p = (rf_path_t *)(uintptr_t)1;
    rf_path_error_t e;
    counting_t c = {0, 1};
    const char *d = "M0 0 C1 1 2 1 3 0 L 5 5 Z";
    ck_assert_int_ne(rf_path_parse(d, strlen(d), count_alloc, &c, &p, &e), 0);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(c.calls, 1);
    ck_assert_uint_eq(e.col, 0);
    ck_assert_str_eq(e.msg, "out of memory");
    /* err may be NULL. */
    c.calls = 0;
    ck_assert_int_ne(rf_path_parse("L", 1, count_alloc, &c, &p, NULL), 0);
    ck_assert_int_eq(c.calls, 0);
}
END_TEST

/* "M0 0h" then n numbers "1 ": n unit lines along x. */
static char *unit_lines(size_t n, const char *tail)
{
    char *d = malloc(8 + 2 * n + strlen(tail));
    ck_assert_ptr_nonnull(d);
    strcpy(d, "M0 0h");
    char *q = d + 5;
    for (size_t i = 0; i < n; i++) {
        *q++ = '1';
        *q++ = ' ';
    }
    strcpy(q, tail);
    return d;
}

START_TEST(test_segment_limit)
{
    char *d = unit_lines(RF_PATH_MAX_SEGMENTS, "");
    rf_path_t *p = parse_ok(d);
    ck_assert_uint_eq(rf_path_segment_count(p), 100000);
    ck_assert_double_eq(rf_path_length(p), 100000.0);
    double x, y, a;
    rf_path_sample(p, 0.123456, &x, &y, &a);
    ck_assert_double_eq_tol(x, 12345.6, 1e-9);
    ck_assert_double_eq(y, 0);
    ck_assert_double_eq(a, 0);
    ck_assert_uint_eq(rf_path_trim_max(p), 100001);
    free(p);
    free(d);
    /* The 100,001st segment, as a number (col 2k+4 for the k-th) or as Z. */
    d = unit_lines(RF_PATH_MAX_SEGMENTS + 1, "");
    expect_error(d, "col 200006: more than 100000 path segments (the runeframe 1 limit)", 200006);
    free(d);
    d = unit_lines(RF_PATH_MAX_SEGMENTS, "Z");
    expect_error(d, "col 200006: more than 100000 path segments (the runeframe 1 limit)", 200006);
    free(d);
}
END_TEST

/* ============================ measurement ============================ */

START_TEST(test_length_closed_forms)
{
    /* Lines: exact. */
    rf_path_t *p = parse_ok("M0 0 L3 4 h-3 v-4 Z");
    ck_assert_double_eq(rf_path_length(p), 5 + 3 + 4);
    free(p);
    /* Straight cubics (collinear control points): the chord, or 150 for the
     * one that runs out to 100 and back to -50 (fontTools' cusp case). */
    p = parse_ok("M0 0 C10 0 20 0 30 0");
    ck_assert_double_eq_tol(rf_path_length(p), 30, 30 * 1e-14);
    free(p);
    p = parse_ok("M0 0 C50 0 100 0 -50 0");
    ck_assert_double_eq_tol(rf_path_length(p), 150, 150 * 1e-12);
    free(p);
    p = parse_ok("M100 100 C100 100 500 500 500 500");
    ck_assert_double_eq_tol(rf_path_length(p), 400 * sqrt(2.0), 1e-12);
    free(p);
    /* y = x^2 on [0,1] as a quad (exact in binary): sqrt(5)/2 + asinh(2)/4. */
    long double exact = sqrtl(5.0L) / 2 + asinhl(2.0L) / 4;
    p = parse_ok("M0 0 Q0.5 0 1 1");
    ck_assert_double_eq_tol(rf_path_length(p), (double)exact, 1e-15);
    free(p);
    p = parse_ok("M0 0 Q50 0 100 100");
    ck_assert_double_eq_tol(rf_path_length(p), (double)(100 * exact), 1e-12);
    free(p);
}
END_TEST

START_TEST(test_length_circle_four_cubics)
{
    /* A circle of radius r as four kappa cubics, kappa = 4/3 (sqrt 2 - 1).
     * Its length: four times the quarter's length, by the long-double
     * reference; also Paper.js' published quarter length (r = 7500) scaled. */
    const double r = 100, k = r * 4.0 / 3.0 * (sqrt(2.0) - 1.0);
    char d[1024];
    snprintf(d, sizeof d,
             "M%.17g 0 C%.17g %.17g %.17g %.17g 0 %.17g C%.17g %.17g %.17g %.17g %.17g 0 "
             "C%.17g %.17g %.17g %.17g 0 %.17g C%.17g %.17g %.17g %.17g %.17g 0 Z",
             r, r, k, k, r, r, -k, r, -r, k, -r, -r, -k, -k, -r, -r, k, -r, r, -k, r);
    rf_path_t *p = parse_ok(d);
    ck_assert_uint_eq(rf_path_segment_count(p), 5); /* Z is zero-length here */
    ref_seg_t *q = malloc(sizeof *q);
    ld P[8] = {r, 0, r, k, k, r, 0, r};
    ref_init(q, 3, P);
    ld L = 4 * ref_len(q);
    ck_assert_double_eq_tol(rf_path_length(p), (double)L, (double)L * 1e-14);
    ck_assert_double_eq_tol(rf_path_length(p), 4 * r / 7500 * 11782.625235553918, 1e-9);
    /* The kappa cubics bulge outside the circle (by 2.7e-4 r at most), so
     * the figure is longer than 2 pi r, by less than 2e-4 of it. */
    ck_assert_double_gt(rf_path_length(p), 2 * PI_D * r);
    ck_assert_double_le((rf_path_length(p) - 2 * PI_D * r) / (2 * PI_D * r), 2e-4);
    ck_assert_double_eq(rf_path_segment_length(p, 4), 0);
    /* Sampling halfway: the point opposite the start, heading up (angle -90). */
    double x, y, a;
    rf_path_sample(p, 0.5, &x, &y, &a);
    ck_assert_double_eq_tol(x, -r, 1e-9);
    ck_assert_double_eq_tol(y, 0, 1e-9);
    ck_assert_double_eq_tol(angle_diff(a, -90), 0, 1e-6);
    free(q);
    free(p);
}
END_TEST

START_TEST(test_segment_lengths_and_knots)
{
    static const char *paths[] = {
        "M200,200 C275,100 575,100 500,200",
        "M0 0 C50 0 100 -50 -50 0",
        "M100 100 C100 100 500 500 500 500",
        "M0 0 Q 400 50 600 300 T 900 0 t 100 100 L900 100 Z",
        "M5 5 L5 5 C5 5 5 5 5 5 L15 5 Q15 5 15 5 L15 5",
    };
    for (size_t c = 0; c < sizeof paths / sizeof paths[0]; c++) {
        rf_path_t *p = parse_ok(paths[c]);
        ref_path_t rp;
        ref_path_init(&rp, p);
        uint32_t n = rf_path_segment_count(p), nk;
        const rf_path_knot_t *k = rf_path_knots(p, &nk);
        double sum = 0;
        for (uint32_t i = 0; i < n; i++) {
            double li = rf_path_segment_length(p, i);
            ld ri = ref_len(&rp.segs[i]);
            ck_assert_msg(fabsl(li - ri) <= 1e-13L * (ri + 1), "%s seg %u: %.17g vs %.17Lg", paths[c], i, li, ri);
            sum += li;
        }
        ck_assert_double_eq_tol(sum, rf_path_length(p), 1e-12 * rf_path_length(p));
        /* Knot structure: lengths non-decreasing from 0, segments in order,
         * each segment's first knot at t = 0, t increasing inside a segment
         * and dyadic (exact in a float), a sentinel at the total. */
        ck_assert_uint_ge(nk, n + 1);
        ck_assert_double_eq(k[0].length, 0);
        for (uint32_t i = 0; i + 1 < nk; i++) {
            ck_assert_double_le(k[i].length, k[i + 1].length);
            double scaled = (double)k[i].t * 16777216.0;
            ck_assert_double_eq(scaled, floor(scaled));
            ck_assert(k[i].t >= 0 && k[i].t < 1);
            if (i + 2 < nk) {
                ck_assert_uint_le(k[i].segment, k[i + 1].segment);
                if (k[i].segment == k[i + 1].segment)
                    ck_assert(k[i].t < k[i + 1].t);
                else
                    ck_assert(k[i + 1].t == 0);
            }
        }
        ck_assert_double_eq(k[nk - 1].length, rf_path_length(p));
        ck_assert(k[nk - 1].t == 1.0f);
        ck_assert_double_gt(rf_path_segment_length(p, k[nk - 1].segment), 0);
        /* Knot lookup: a distance on a knot resolves to that knot's (segment,
         * t), or to the same point from the piece before it. */
        for (uint32_t i = 0; i + 1 < nk; i++) {
            if (!(rf_path_segment_length(p, k[i].segment) > 0) || rf_path_length(p) == 0)
                continue;
            uint32_t seg;
            double t;
            rf_path_locate(p, k[i].length / rf_path_length(p), &seg, &t);
            double x0, y0, x1, y1;
            rf_path_segment_eval(p, seg, t, &x0, &y0);
            rf_path_segment_eval(p, k[i].segment, k[i].t, &x1, &y1);
            ck_assert_msg(hypot(x0 - x1, y0 - y1) <= 1e-11 * rf_path_length(p), "%s knot %u", paths[c], i);
        }
        ref_path_free(&rp);
        free(p);
    }
}
END_TEST

/* A long path: 100,000 congruent cubics, 3.6e6 long. Float cumulative
 * lengths would be off by up to half a float ulp there (0.125); double
 * knots keep points within 1e-12 of the length (4e-6). */
START_TEST(test_long_path_accuracy)
{
    const size_t n = RF_PATH_MAX_SEGMENTS;
    const char *piece = " c10 -10 20 -10 30 0";
    size_t pl = strlen(piece);
    char *d = malloc(8 + n * pl);
    ck_assert_ptr_nonnull(d);
    strcpy(d, "M0 0");
    for (size_t i = 0; i < n; i++)
        memcpy(d + 4 + i * pl, piece, pl);
    d[4 + n * pl] = '\0';
    rf_path_t *p = parse_ok(d);
    free(d);
    ck_assert_uint_eq(rf_path_segment_count(p), n);
    ref_seg_t *r = malloc(sizeof *r);
    ld P[8] = {0, 0, 10, -10, 20, -10, 30, 0};
    ref_init(r, 3, P);
    ld L1 = ref_len(r), L = L1 * n;
    /* Compensated sums: the total is n times one cubic's length to ~1 ulp
     * (plain summation drifts by ~2e-12 here). */
    ck_assert_msg(fabsl(rf_path_length(p) - L) <= 1e-14L * L, "%.17g vs %.17Lg", rf_path_length(p), L);
    const double progress[] = {0.0, 1e-7, 0.1234567, 0.5, 0.77777777, 0.999999, 0.99999999, 1.0};
    for (size_t i = 0; i < sizeof progress / sizeof progress[0]; i++) {
        ld s = progress[i] * L;
        long j = (long)floorl(s / L1);
        if (j >= (long)n)
            j = (long)n - 1;
        ld t = ref_t_at(r, s - j * L1), rx, ry;
        ref_point(r, t, &rx, &ry);
        rx += 30.0L * j;
        double x, y;
        rf_path_sample(p, progress[i], &x, &y, NULL);
        ck_assert_msg(hypotl(x - rx, y - ry) <= 1e-12L * L, "progress %.17g: (%.17g, %.17g) vs (%.17Lg, %.17Lg)",
                      progress[i], x, y, rx, ry);
    }
    free(r);
    free(p);
}
END_TEST

/* ============================ sampling ============================ */

static const char *curve_paths[] = {
    "M200,200 C275,100 575,100 500,200",
    "M120 160 C35 200 220 260 220 40",
    "M0 0 C50 0 100 -50 -50 0",
    "M0 0 C50 0 100 0 -50 0",
    "M100 100 C100 100 500 500 500 500",
    "M0 0 C1 1 0 1 1 0",
    "M0 0 Q 400 50 600 300 T 900 0 t 100 100",
    "M470,623Q468,627,467,629",
    "M240,100C290,100,240,225,290,200S290,75,340,50S515,100,390,150S215,200,90,150S90,25,140,50S140,175,190,200S190,100,240,100",
    "M0 0 L 30 0 L30 40 Z",
    "M 10 10 h 50 v 50 q -25 25 -50 0 z",
    "M0 0 L10 0 L10 0 C10 0 10 0 10 0 C20 0 20 10 10 10 Z",
};

/* Points at arc-length progress against the long-double reference, and the
 * tangent angle against the reference derivative where it does not vanish. */
START_TEST(test_curve_evaluation)
{
    const char *d = curve_paths[_i];
    rf_path_t *p = parse_ok(d);
    ref_path_t rp;
    ref_path_init(&rp, p);
    ld L = rp.start[rp.n];
    ck_assert_msg(fabsl(rf_path_length(p) - L) <= 1e-13L * L, "%s: length %.17g vs %.17Lg", d, rf_path_length(p), L);
    double worst = 0;
    for (int j = 0; j <= 200; j++) {
        double prog = j < 129 ? j / 128.0 : fmod(j * 0.6180339887498949, 1.0);
        ld s = (ld)prog * (ld)rf_path_length(p);
        uint32_t seg;
        ld t;
        ref_path_at(&rp, s, &seg, &t);
        ld rx, ry, dx, dy;
        ref_point(&rp.segs[seg], t, &rx, &ry);
        ref_deriv(&rp.segs[seg], t, &dx, &dy);
        double x, y, a;
        rf_path_sample(p, prog, &x, &y, &a);
        double err = (double)(hypotl(x - rx, y - ry) / L);
        if (err > worst)
            worst = err;
        ck_assert_msg(err <= 1e-12, "%s progress %.17g: (%.17g, %.17g) vs (%.17Lg, %.17Lg) err %.3g", d, prog, x, y,
                      rx, ry, err);
        if (hypotl(dx, dy) > 1e-3L * ref_control_scale(&rp.segs[seg])) {
            double ra = (double)(atan2l(dy, dx) * 180 / PI_L);
            ck_assert_msg(angle_diff(a, ra) <= 1e-6, "%s progress %.17g: angle %.17g vs %.17g", d, prog, a, ra);
        }
    }
    ref_path_free(&rp);
    free(p);
}
END_TEST

START_TEST(test_parabola_point_at_length)
{
    /* y = x^2: s(x) = x/2 sqrt(1+4x^2) + asinh(2x)/4, so the point at s(x)
     * is (x, x^2) in closed form. */
    rf_path_t *p = parse_ok("M0 0 Q0.5 0 1 1");
    long double L = sqrtl(5.0L) / 2 + asinhl(2.0L) / 4;
    for (int i = 1; i < 20; i++) {
        long double x = i / 20.0L;
        long double s = x / 2 * sqrtl(1 + 4 * x * x) + asinhl(2 * x) / 4;
        double px, py, a;
        rf_path_sample(p, (double)(s / L), &px, &py, &a);
        ck_assert_msg(fabsl(px - x) <= 1e-14L && fabsl(py - x * x) <= 1e-14L, "x %.3Lf: (%.17g, %.17g)", x, px, py);
        long double ra = atanl(2 * x) * 180 / PI_L;
        ck_assert_double_eq_tol(a, (double)ra, 1e-9);
    }
    free(p);
}
END_TEST

START_TEST(test_boundary_ties)
{
    uint32_t seg;
    double t, x, y, a;
    /* Exactly on a boundary: the next segment at t = 0. */
    rf_path_t *p = parse_ok("M0 0 L10 0 L10 10");
    rf_path_locate(p, 0.5, &seg, &t);
    ck_assert_uint_eq(seg, 1);
    ck_assert_double_eq(t, 0);
    rf_path_sample(p, 0.5, &x, &y, &a);
    ck_assert(x == 10 && y == 0);
    ck_assert_double_eq(a, 90);
    /* Just before it: still the first segment, heading along x. */
    rf_path_locate(p, nextafter(0.5, 0), &seg, &t);
    ck_assert_uint_eq(seg, 0);
    ck_assert_double_eq_tol(t, 1, 1e-15);
    rf_path_sample(p, nextafter(0.5, 0), &x, &y, &a);
    ck_assert_double_eq(a, 0);
    free(p);
    /* Zero-length segments of every kind on the boundary are skipped: the
     * tie takes the next positive-length segment (index 5) at t = 0. */
    p = parse_ok("M0 0 L10 0 L10 0 Q10 0 10 0 C10 0 10 0 10 0 h0 L10 10");
    rf_path_locate(p, 0.5, &seg, &t);
    ck_assert_uint_eq(seg, 5);
    ck_assert_double_eq(t, 0);
    rf_path_sample(p, 0.5, &x, &y, &a);
    ck_assert(x == 10 && y == 0);
    ck_assert_double_eq(a, 90);
    free(p);
    /* Zero-length segments at the start: progress 0 is the first
     * positive-length segment at t = 0, with its direction. */
    p = parse_ok("M5 5 L5 5 C5 5 5 5 5 5 L5 15");
    rf_path_locate(p, 0, &seg, &t);
    ck_assert_uint_eq(seg, 2);
    ck_assert_double_eq(t, 0);
    rf_path_sample(p, 0, &x, &y, &a);
    ck_assert(x == 5 && y == 5);
    ck_assert_double_eq(a, 90);
    free(p);
    /* Zero-length segments at the end: progress 1 is the end of the last
     * positive-length segment, with its direction (looking back). */
    p = parse_ok("M0 0 L0 -10 L0 -10 Q0 -10 0 -10");
    rf_path_locate(p, 1, &seg, &t);
    ck_assert_uint_eq(seg, 0);
    ck_assert_double_eq(t, 1);
    rf_path_sample(p, 1, &x, &y, &a);
    ck_assert(x == 0 && y == -10);
    ck_assert_double_eq(a, -90);
    free(p);
    /* Exact ties on power-of-two lengths: knots at 0, 1, 2, 4 of 8. */
    p = parse_ok("M0 0 h1 h1 h2 h4");
    static const double prog[] = {0, 0.125, 0.25, 0.5, 1};
    static const uint32_t want_seg[] = {0, 1, 2, 3, 3};
    static const double want_t[] = {0, 0, 0, 0, 1};
    for (int i = 0; i < 5; i++) {
        rf_path_locate(p, prog[i], &seg, &t);
        ck_assert_uint_eq(seg, want_seg[i]);
        ck_assert_double_eq(t, want_t[i]);
    }
    rf_path_locate(p, 0.375, &seg, &t);
    ck_assert_uint_eq(seg, 2);
    ck_assert_double_eq(t, 0.5);
    free(p);
}
END_TEST

START_TEST(test_close_segment)
{
    /* Z adds the closing line (30,40) -> (0,0); length 30 + 40 + 50. */
    rf_path_t *p = parse_ok("M0 0 L30 0 L30 40 Z");
    ck_assert_uint_eq(rf_path_segment_count(p), 3);
    ck_assert_int_eq(rf_path_segment(p, 2, NULL), RF_PATH_CLOSE);
    seg_points(p, 2, RF_PATH_CLOSE, (double[]){30, 40, 0, 0});
    ck_assert_double_eq(rf_path_length(p), 120);
    double x, y, a;
    rf_path_sample(p, 0.75, &x, &y, &a); /* 20 along the closing line */
    ck_assert_double_eq_tol(x, 18, 1e-12);
    ck_assert_double_eq_tol(y, 24, 1e-12);
    ck_assert_double_eq_tol(a, atan2(-4.0, -3.0) * 180 / PI_D, 1e-12);
    rf_path_sample(p, 1, &x, &y, &a);
    ck_assert(x == 0 && y == 0);
    free(p);
    /* Relative after M: the closing line goes to the figure's start. */
    p = parse_ok("m10 10 h10 v10 z");
    seg_points(p, 2, RF_PATH_CLOSE, (double[]){20, 20, 10, 10});
    free(p);
    /* A Z that is already home is a zero-length segment: progress 1 ends on
     * the last positive-length segment. */
    p = parse_ok("M0 0 L10 0 L0 0 Z");
    ck_assert_uint_eq(rf_path_segment_count(p), 3);
    ck_assert_double_eq(rf_path_length(p), 20);
    uint32_t seg;
    double t;
    rf_path_locate(p, 1, &seg, &t);
    ck_assert_uint_eq(seg, 1);
    ck_assert_double_eq(t, 1);
    rf_path_sample(p, 1, &x, &y, &a);
    ck_assert_double_eq(a, 180);
    free(p);
}
END_TEST

START_TEST(test_all_zero_paths)
{
    static const char *paths[] = {"M3 4 Z", "M3 4 L3 4 Q3 4 3 4 C3 4 3 4 3 4 Z", "M3 4 h0 v0 z", "m3 4 l0 0"};
    static const double progress[] = {0, 0.5, 1, -1, 2, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        rf_path_t *p = parse_ok(paths[i]);
        ck_assert_double_eq(rf_path_length(p), 0);
        for (size_t j = 0; j < sizeof progress / sizeof progress[0]; j++) {
            double x = -1, y = -1, a = -1;
            rf_path_sample(p, progress[j], &x, &y, &a);
            ck_assert(x == 3 && y == 4 && a == 0);
        }
        double x0, y0, x1, y1;
        rf_path_bounds(p, &x0, &y0, &x1, &y1);
        ck_assert(x0 == 3 && x1 == 3 && y0 == 4 && y1 == 4);
        uint32_t seg;
        double t;
        rf_path_locate(p, 0.5, &seg, &t);
        ck_assert_uint_eq(seg, 0);
        ck_assert_double_eq(t, 0);
        ck_assert_uint_eq(rf_path_trim(p, 0.2, 0.8, NULL, 0), 0);
        free(p);
    }
}
END_TEST

START_TEST(test_progress_clamp)
{
    rf_path_t *p = parse_ok("M1 2 C10 0 20 10 30 5");
    double x0, y0, x1, y1, x, y, a;
    rf_path_sample(p, 0, &x0, &y0, NULL);
    rf_path_sample(p, 1, &x1, &y1, NULL);
    ck_assert(x0 == 1 && y0 == 2 && x1 == 30 && y1 == 5);
    rf_path_sample(p, -0.5, &x, &y, &a);
    ck_assert(x == x0 && y == y0);
    rf_path_sample(p, NAN, &x, &y, &a);
    ck_assert(x == x0 && y == y0);
    rf_path_sample(p, -INFINITY, &x, &y, &a);
    ck_assert(x == x0 && y == y0);
    rf_path_sample(p, 7, &x, &y, &a);
    ck_assert(x == x1 && y == y1);
    rf_path_sample(p, INFINITY, &x, &y, &a);
    ck_assert(x == x1 && y == y1);
    /* NULL outputs are allowed. */
    rf_path_sample(p, 0.5, NULL, NULL, NULL);
    rf_path_sample(p, 0.5, &x, NULL, NULL);
    free(p);
}
END_TEST

START_TEST(test_degenerate_tangents)
{
    double x, y, a;
    /* p1 == p0: the start direction is toward p2 (second derivative). */
    rf_path_t *p = parse_ok("M0 0 C0 0 10 0 10 10");
    rf_path_sample(p, 0, &x, &y, &a);
    ck_assert_double_eq(a, 0);
    rf_path_sample(p, 1, &x, &y, &a);
    ck_assert_double_eq(a, 90);
    free(p);
    /* p2 == p3: the end direction is from p1 (minus the second derivative). */
    p = parse_ok("M0 0 C10 0 10 10 10 10");
    rf_path_sample(p, 1, &x, &y, &a);
    ck_assert_double_eq(a, 90);
    rf_path_sample(p, 0, &x, &y, &a);
    ck_assert_double_eq(a, 0);
    free(p);
    /* p0 == p1 == p2: the third derivative, toward p3. */
    p = parse_ok("M0 0 C0 0 0 0 -10 10");
    rf_path_sample(p, 0, &x, &y, &a);
    ck_assert_double_eq(a, 135);
    free(p);
    /* p1 == p2 == p3: looking back from the end, toward p3 from p0. */
    p = parse_ok("M0 0 C0 -10 0 -10 0 -10");
    rf_path_sample(p, 1, &x, &y, &a);
    ck_assert_double_eq(a, -90);
    free(p);
    /* T without a previous Q: the quad's control is its start. */
    p = parse_ok("M0 0 T10 10");
    rf_path_sample(p, 0, &x, &y, &a);
    ck_assert_double_eq(a, 45);
    free(p);
    /* The straight smoothstep cubic: zero speed at both ends, direction
     * along the line everywhere. */
    p = parse_ok("M100 100 C100 100 500 500 500 500");
    for (int i = 0; i <= 8; i++) {
        rf_path_sample(p, i / 8.0, &x, &y, &a);
        ck_assert_double_eq_tol(a, 45, 1e-9);
    }
    free(p);
    /* An interior cusp (B'(1/2) = 0): the direction turns round across it,
     * from heading down (+90) to heading up (-90). */
    p = parse_ok("M0 0 C1 1 0 1 1 0");
    double a0, a1;
    rf_path_sample(p, 0.5 - 1e-6, &x, &y, &a0);
    rf_path_sample(p, 0.5 + 1e-6, &x, &y, &a1);
    ck_assert_double_eq_tol(a0, 90, 1);
    ck_assert_double_eq_tol(a1, -90, 1);
    free(p);
}
END_TEST

/* ============================ bounds ============================ */

static const char *bounds_paths[] = {
    "M0 0 C0 100 100 100 100 0",
    "M0 0 Q50 100 100 0",
    "M200,200 C275,100 575,100 500,200",
    "M120 160 C35 200 220 260 220 40",
    "M0 0 C50 0 100 -50 -50 0",
    "M0 0 C1 1 0 1 1 0",
    "M0 100 Q50 -50 100 100 T200 100 T300 100",
    "M10 10 L20 -5 H-7 V30 Z",
    "M0 0 C 10 -30 40 50 60 0 S 100 -80 70 20",
    "M1e-3 2e-3 C -1e-3 5e-3 4e-3 -3e-3 2e-3 1e-3",
};

START_TEST(test_bounds_dense_scan)
{
    const char *d = bounds_paths[_i];
    rf_path_t *p = parse_ok(d);
    ref_path_t rp;
    ref_path_init(&rp, p);
    double sx, sy;
    rf_path_start(p, &sx, &sy);
    ld lx0 = sx, lx1 = sx, ly0 = sy, ly1 = sy, scale = 0;
    const int N = 200000;
    for (uint32_t i = 0; i < rp.n; i++) {
        scale += ref_control_scale(&rp.segs[i]);
        for (int j = 0; j <= N; j++) {
            ld x, y;
            ref_point(&rp.segs[i], (ld)j / N, &x, &y);
            lx0 = fminl(lx0, x), lx1 = fmaxl(lx1, x), ly0 = fminl(ly0, y), ly1 = fmaxl(ly1, y);
        }
    }
    double x0, y0, x1, y1;
    rf_path_bounds(p, &x0, &y0, &x1, &y1);
    ld in = 1e-13L * scale, out = 1e-9L * scale;
    /* Complete: contains every scanned point. Exact: no larger than the scan
     * by more than the scan's own resolution. */
    ck_assert_msg(x0 <= lx0 + in && y0 <= ly0 + in && x1 >= lx1 - in && y1 >= ly1 - in,
                  "%s: (%.17g %.17g %.17g %.17g) misses (%.17Lg %.17Lg %.17Lg %.17Lg)", d, x0, y0, x1, y1, lx0, ly0,
                  lx1, ly1);
    ck_assert_msg(lx0 - x0 <= out && ly0 - y0 <= out && x1 - lx1 <= out && y1 - ly1 <= out,
                  "%s: (%.17g %.17g %.17g %.17g) looser than (%.17Lg %.17Lg %.17Lg %.17Lg)", d, x0, y0, x1, y1, lx0,
                  ly0, lx1, ly1);
    ref_path_free(&rp);
    free(p);
}
END_TEST

START_TEST(test_bounds_hand_derived)
{
    double x0, y0, x1, y1;
    /* y = 300 t (1 - t): the maximum 75, not the control hull's 100. */
    rf_path_t *p = parse_ok("M0 0 C0 100 100 100 100 0");
    rf_path_bounds(p, &x0, &y0, &x1, &y1);
    ck_assert(x0 == 0 && y0 == 0 && x1 == 100);
    ck_assert_double_eq_tol(y1, 75, 1e-12);
    free(p);
    /* y = 200 t (1 - t): 50, not 100. */
    p = parse_ok("M0 0 Q50 100 100 0");
    rf_path_bounds(p, &x0, &y0, &x1, &y1);
    ck_assert_double_eq_tol(y1, 50, 1e-12);
    ck_assert(x0 == 0 && x1 == 100 && y0 == 0);
    free(p);
    /* x = 50*3t(1-t)^2 + 100*3t^2(1-t) - 50 t^3 = 150 t - 200 t^3 ... the
     * fold-back cubic reaches x = 150 t - 200 t^3 at t = 1/2: 50.
     * (x(t) = 150t(1-t)^2 + 300t^2(1-t) - 50t^3 = 150t - 200t^3.) */
    p = parse_ok("M0 0 C50 0 100 0 -50 0");
    rf_path_bounds(p, &x0, &y0, &x1, &y1);
    ck_assert_double_eq_tol(x1, 50, 1e-12);
    ck_assert(x0 == -50 && y0 == 0 && y1 == 0);
    free(p);
}
END_TEST

/* ============================ trimming ============================ */

static void op_end(const rf_path_op_t *o, double *x, double *y)
{
    int k = o->kind == RF_PATH_OP_CURVE ? 4 : 0;
    *x = o->p[k];
    *y = o->p[k + 1];
}

/* Arc length of a trim result, by the long-double reference on each op. */
static ld ops_length(const rf_path_op_t *ops, size_t n)
{
    ld len = 0, cx = 0, cy = 0;
    ref_seg_t *r = malloc(sizeof *r);
    ck_assert_ptr_nonnull(r);
    for (size_t i = 0; i < n; i++) {
        const rf_path_op_t *o = &ops[i];
        if (o->kind == RF_PATH_OP_LINE) {
            len += hypotl(o->p[0] - cx, o->p[1] - cy);
        } else if (o->kind == RF_PATH_OP_CURVE) {
            ld P[8] = {cx, cy, o->p[0], o->p[1], o->p[2], o->p[3], o->p[4], o->p[5]};
            ref_init(r, 3, P);
            len += ref_len(r);
        }
        if (o->kind != RF_PATH_OP_CLOSE) {
            double x, y;
            op_end(o, &x, &y);
            cx = x;
            cy = y;
        }
    }
    free(r);
    return len;
}

static const double trim_ranges[][2] = {
    {0, 0.5}, {0.5, 1}, {0.1, 0.9}, {0.3, 0.31}, {0.000001, 0.999999}, {0.25, 0.75}, {0.123, 0.876},
};

START_TEST(test_trim_against_reference)
{
    for (size_t c = 0; c < sizeof curve_paths / sizeof curve_paths[0]; c++) {
        const char *d = curve_paths[c];
        rf_path_t *p = parse_ok(d);
        double L = rf_path_length(p);
        size_t cap = rf_path_trim_max(p);
        rf_path_op_t *ops = malloc((cap + 1) * sizeof *ops);
        ck_assert_ptr_nonnull(ops);
        for (size_t r = 0; r < sizeof trim_ranges / sizeof trim_ranges[0]; r++) {
            double p0 = trim_ranges[r][0], p1 = trim_ranges[r][1];
            size_t need = rf_path_trim(p, p0, p1, NULL, 0);
            ck_assert_uint_le(need, cap);
            ck_assert_uint_ge(need, 2);
            ops[need].kind = 99; /* must stay untouched */
            ck_assert_uint_eq(rf_path_trim(p, p0, p1, ops, cap), need);
            ck_assert_int_eq(ops[need].kind, 99);
            ck_assert_int_eq(ops[0].kind, RF_PATH_OP_MOVE);
            for (size_t i = 1; i < need; i++)
                ck_assert(ops[i].kind == RF_PATH_OP_LINE || ops[i].kind == RF_PATH_OP_CURVE);
            /* Ends: the sampled points at p0 and p1. */
            double sx, sy, ex, ey, x, y;
            rf_path_sample(p, p0, &sx, &sy, NULL);
            rf_path_sample(p, p1, &ex, &ey, NULL);
            ck_assert_msg(hypot(ops[0].p[0] - sx, ops[0].p[1] - sy) <= 1e-12 * L, "%s [%g,%g] start", d, p0, p1);
            op_end(&ops[need - 1], &x, &y);
            ck_assert_msg(hypot(x - ex, y - ey) <= 1e-12 * L, "%s [%g,%g] end (%.17g,%.17g) vs (%.17g,%.17g)", d, p0,
                          p1, x, y, ex, ey);
            /* Length of the pieces: (p1 - p0) of the whole. */
            ld tl = ops_length(ops, need);
            ck_assert_msg(fabsl(tl - (ld)(p1 - p0) * L) <= 1e-11L * L, "%s [%g,%g]: trimmed length %.17Lg vs %.17g", d,
                          p0, p1, tl, (p1 - p0) * L);
        }
        free(ops);
        free(p);
    }
}
END_TEST

/* Inside one segment the trimmed cubic is the original curve re-parametrized:
 * B_trim(u) = B(ta + u (tb - ta)). */
START_TEST(test_trim_subcurve_exact)
{
    static const char *paths[] = {
        "M200,200 C275,100 575,100 500,200",
        "M0 0 C50 0 100 -50 -50 0",
        "M200,300 Q400,50 600,300",
        "M3 4 L 103 -50",
    };
    static const double ranges[][2] = {{0.2, 0.7}, {0, 0.4}, {0.6, 1.0}, {0.3333, 0.3334}, {0, 0.999}};
    for (size_t c = 0; c < sizeof paths / sizeof paths[0]; c++) {
        rf_path_t *p = parse_ok(paths[c]);
        const double *P;
        rf_path_kind_t kind = rf_path_segment(p, 0, &P);
        ref_seg_t *r = malloc(sizeof *r);
        ref_init_d(r, kind_deg(kind), P);
        ld scale = ref_control_scale(r);
        for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; k++) {
            rf_path_op_t ops[3];
            size_t n = rf_path_trim(p, ranges[k][0], ranges[k][1], ops, 3);
            ck_assert_uint_eq(n, 2);
            uint32_t sa, sb;
            double ta, tb;
            rf_path_locate(p, ranges[k][0], &sa, &ta);
            rf_path_locate(p, ranges[k][1], &sb, &tb);
            ck_assert(sa == 0 && sb == 0);
            ld Q[8] = {ops[0].p[0], ops[0].p[1]};
            int qdeg = ops[1].kind == RF_PATH_OP_CURVE ? 3 : 1;
            ck_assert_int_eq(qdeg, kind == RF_PATH_LINE ? 1 : 3);
            for (int i = 0; i < 2 * qdeg; i++)
                Q[2 + i] = ops[1].p[i];
            ref_seg_t q;
            q.deg = qdeg;
            q.nbp = 0;
            memcpy(q.P, Q, sizeof Q);
            for (int j = 0; j <= 16; j++) {
                ld u = j / 16.0L, x0, y0, x1, y1;
                ref_point(&q, u, &x0, &y0);
                ref_point(r, ta + u * ((ld)tb - ta), &x1, &y1);
                ck_assert_msg(hypotl(x0 - x1, y0 - y1) <= 1e-13L * scale, "%s [%g,%g] u %Lg: %.3Lg", paths[c],
                              ranges[k][0], ranges[k][1], u, hypotl(x0 - x1, y0 - y1));
            }
        }
        free(r);
        free(p);
    }
}
END_TEST

START_TEST(test_trim_structure)
{
    rf_path_op_t ops[16];
    /* Whole figure verbatim: quads elevated, Z as close_path. */
    rf_path_t *p = parse_ok("M10 10 h50 v50 q-25 25 -50 0 z");
    size_t n = rf_path_trim(p, 0, 1, ops, 16);
    ck_assert_uint_eq(n, 5);
    ck_assert_uint_eq(n, rf_path_trim_max(p));
    ck_assert(ops[0].kind == RF_PATH_OP_MOVE && ops[0].p[0] == 10 && ops[0].p[1] == 10);
    ck_assert(ops[1].kind == RF_PATH_OP_LINE && ops[1].p[0] == 60 && ops[1].p[1] == 10);
    ck_assert(ops[2].kind == RF_PATH_OP_LINE && ops[2].p[0] == 60 && ops[2].p[1] == 60);
    ck_assert_int_eq(ops[3].kind, RF_PATH_OP_CURVE);
    /* Q (60,60) (35,85) (10,60): c1 = p0 + 2/3 (q - p0), c2 = p2 + 2/3 (q - p2). */
    ck_assert_double_eq_tol(ops[3].p[0], 60 - 50.0 / 3, 1e-12);
    ck_assert_double_eq_tol(ops[3].p[1], 60 + 50.0 / 3, 1e-12);
    ck_assert_double_eq_tol(ops[3].p[2], 10 + 50.0 / 3, 1e-12);
    ck_assert_double_eq_tol(ops[3].p[3], 60 + 50.0 / 3, 1e-12);
    ck_assert(ops[3].p[4] == 10 && ops[3].p[5] == 60);
    ck_assert_int_eq(ops[4].kind, RF_PATH_OP_CLOSE);
    /* Clamping: beyond [0,1] is the whole figure too. */
    ck_assert_uint_eq(rf_path_trim(p, -3, 5, NULL, 0), 5);
    /* Empty ranges. */
    ck_assert_uint_eq(rf_path_trim(p, 0.7, 0.3, ops, 16), 0);
    ck_assert_uint_eq(rf_path_trim(p, 0.4, 0.4, ops, 16), 0);
    ck_assert_uint_eq(rf_path_trim(p, NAN, 0, ops, 16), 0);
    ck_assert_uint_eq(rf_path_trim(p, 2, 3, ops, 16), 0);
    /* A partial trim over the Z draws it as a line, open. */
    n = rf_path_trim(p, 0.5, 1, ops, 16);
    ck_assert_int_eq(ops[n - 1].kind, RF_PATH_OP_LINE);
    ck_assert(ops[n - 1].p[0] == 10 && ops[n - 1].p[1] == 10);
    /* A small cap: only cap ops are written, the count is still the whole. */
    rf_path_op_t few[3];
    few[2].kind = 77;
    ck_assert_uint_eq(rf_path_trim(p, 0, 1, few, 2), 5);
    ck_assert_int_eq(few[2].kind, 77);
    ck_assert_int_eq(few[1].kind, RF_PATH_OP_LINE);
    free(p);
    /* A boundary end takes the segment that ends there: no zero-length piece
     * of the next one; a boundary start takes the one that starts there. */
    p = parse_ok("M0 0 L10 0 L10 10");
    n = rf_path_trim(p, 0, 0.5, ops, 16);
    ck_assert_uint_eq(n, 2);
    ck_assert(ops[1].kind == RF_PATH_OP_LINE && ops[1].p[0] == 10 && ops[1].p[1] == 0);
    n = rf_path_trim(p, 0.5, 1, ops, 16);
    ck_assert_uint_eq(n, 2);
    ck_assert(ops[0].p[0] == 10 && ops[0].p[1] == 0 && ops[1].p[0] == 10 && ops[1].p[1] == 10);
    free(p);
    /* Zero-length segments inside a partial range are left out. */
    p = parse_ok("M0 0 L10 0 L10 0 Q10 0 10 0 L10 10");
    n = rf_path_trim(p, 0.25, 0.75, ops, 16);
    ck_assert_uint_eq(n, 3);
    ck_assert(ops[0].p[0] == 5 && ops[0].p[1] == 0);
    ck_assert(ops[1].kind == RF_PATH_OP_LINE && ops[1].p[0] == 10 && ops[1].p[1] == 0);
    ck_assert(ops[2].kind == RF_PATH_OP_LINE && ops[2].p[0] == 10 && ops[2].p[1] == 5);
    /* ... but the whole figure keeps them, verbatim. */
    ck_assert_uint_eq(rf_path_trim(p, 0, 1, NULL, 0), 5);
    free(p);
    /* An all-zero figure: the whole keeps its dot; a part is empty. */
    p = parse_ok("M5 5 Z");
    n = rf_path_trim(p, 0, 1, ops, 16);
    ck_assert_uint_eq(n, 2);
    ck_assert(ops[0].kind == RF_PATH_OP_MOVE && ops[0].p[0] == 5 && ops[1].kind == RF_PATH_OP_CLOSE);
    ck_assert_uint_eq(rf_path_trim(p, 0.1, 1, ops, 16), 0);
    free(p);
    /* Middle segments are copied exactly. */
    p = parse_ok("M0 0 C1 2 3 4 5 6 C7 8 9 10 11 12 Q13 14 15 16 L17 18");
    n = rf_path_trim(p, 0.01, 0.99, ops, 16);
    ck_assert_uint_eq(n, 5);
    ck_assert(ops[2].kind == RF_PATH_OP_CURVE && ops[2].p[0] == 7 && ops[2].p[1] == 8 && ops[2].p[2] == 9 &&
              ops[2].p[3] == 10 && ops[2].p[4] == 11 && ops[2].p[5] == 12);
    free(p);
}
END_TEST

/* ============================ arclength.tsv ============================ */

typedef struct tsv_row {
    char *f[16];
    int nf;
} tsv_row_t;

static int split_tabs(char *line, tsv_row_t *r)
{
    r->nf = 0;
    char *s = line;
    for (;;) {
        if (r->nf < 16)
            r->f[r->nf++] = s;
        char *tab = strchr(s, '\t');
        if (!tab)
            break;
        *tab = '\0';
        s = tab + 1;
    }
    char *nl = strpbrk(r->f[r->nf - 1], "\r\n");
    if (nl)
        *nl = '\0';
    return r->nf;
}

/* A source's tolerance column as a number: a leading number, the finest
 * accuracy of a kurbo-style sweep, "round to 3 decimals" as half a unit of
 * the third, Paper.js' equals() as the SOURCES.md note says (1e-8); NAN when
 * the row has none ("n/a", "exact": handled by the caller). */
static double parse_tolerance(const char *s, double previous)
{
    char *end;
    double v = strtod(s, &end);
    if (end != s)
        return v;
    if (strstr(s, "as above"))
        return previous;
    if (strstr(s, "a=1e0..1e-11") || strstr(s, "a=1e-1..1e-11"))
        return 1e-11;
    if (strstr(s, "round to 3 decimals"))
        return 5e-4;
    if (strstr(s, "Paper equals() default"))
        return 1e-8;
    return NAN;
}

/* "383.44/6", "length/4" or a number; length stands for len. */
static double parse_arg(const char *s, double len)
{
    char *end;
    double a;
    if (strncmp(s, "length", 6) == 0) {
        a = len;
        end = (char *)s + 6;
    } else {
        a = strtod(s, &end);
    }
    if (*end == '/')
        a /= strtod(end + 1, NULL);
    return a;
}

static void parse_pair(const char *s, double *x, double *y)
{
    ck_assert_int_eq(sscanf(s, " (%lf, %lf)", x, y), 2);
}

START_TEST(test_arclength_vectors)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/arclength.tsv", vector_dir);
    FILE *fp = fopen(path, "r");
    ck_assert_msg(fp != NULL, "cannot open %s (pass the vector directory as argv[1] or VECTOR_DIR)", path);
    char line[4096];
    int header = 0, rows = 0, checks = 0;
    double prev_tol = NAN;
    enum { SOURCE, CASE, P0X, P0Y, P1X, P1Y, P2X, P2Y, P3X, P3Y, QUANTITY, ARG, EXPECTED, TOLERANCE, REF, NOTE };
    while (fgets(line, sizeof line, fp)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        tsv_row_t r;
        split_tabs(line, &r);
        if (!header) {
            ck_assert_str_eq(r.f[0], "source");
            ck_assert_str_eq(r.f[REF], "ref_mpmath");
            header = 1;
            continue;
        }
        ck_assert_int_ge(r.nf, REF + 1);
        rows++;
        const char *q = r.f[QUANTITY], *id = r.f[CASE];
        double tol = parse_tolerance(r.f[TOLERANCE], prev_tol);
        prev_tol = tol;
        char d[2048];
        if (strcmp(q, "path_length") == 0) {
            snprintf(d, sizeof d, "%s", r.f[ARG]);
        } else {
            double c[8];
            for (int i = 0; i < 8; i++)
                c[i] = strtod(r.f[P0X + i], NULL);
            snprintf(d, sizeof d, "M%.17g %.17g C%.17g %.17g %.17g %.17g %.17g %.17g", c[0], c[1], c[2], c[3], c[4],
                     c[5], c[6], c[7]);
        }
        rf_path_t *p = parse_ok(d);
        double L = rf_path_length(p);
        if (strncmp(q, "length", 6) == 0 || strcmp(q, "path_length") == 0) {
            /* The expected column is the source's length (fontTools rows: the
             * true length; their approximation in arg is not a target). */
            double expected = strtod(r.f[EXPECTED], NULL), ref = strtod(r.f[REF], NULL);
            if (!isnan(tol)) {
                ck_assert_msg(fabs(L - expected) <= tol, "%s %s: %.17g vs %.17g (tol %g)", r.f[SOURCE], id, L,
                              expected, tol);
                checks++;
            }
            ck_assert_msg(fabs(L - ref) <= 1e-4 * fabs(ref), "%s %s: %.17g vs ref %.17g", r.f[SOURCE], id, L, ref);
            ck_assert_msg(fabs(L - ref) <= 1e-12 * fabs(ref) + 1e-13, "%s %s: %.17g vs ref %.17g (tight)",
                          r.f[SOURCE], id, L, ref);
            checks += 2;
        } else if (strcmp(q, "t_at_length") == 0) {
            double s = parse_arg(r.f[ARG], L), ref = strtod(r.f[REF], NULL);
            uint32_t seg;
            double t;
            rf_path_locate(p, s / L, &seg, &t);
            ck_assert_uint_eq(seg, 0);
            const double *P;
            rf_path_segment(p, 0, &P);
            ref_seg_t *rs = malloc(sizeof *rs);
            ref_init_d(rs, 3, P);
            if (strcmp(r.f[TOLERANCE], "exact") == 0) {
                /* Paper.js snaps getTimeAt() to 1 within its epsilon of the end;
                 * the meaningful check is the point: the curve's end. */
                double x, y;
                rf_path_sample(p, s / L, &x, &y, NULL);
                ck_assert_double_gt(L, s); /* "offset < curve.length must hold" */
                ck_assert_msg(hypot(x - P[6], y - P[7]) <= 1e-9 * L, "%s %s: (%.17g, %.17g)", r.f[SOURCE], id, x, y);
                checks += 2;
            } else if (strstr(r.f[TOLERANCE], "on length")) {
                /* kurbo's round trip: the reference length up to our t is s. */
                ld back = ref_len_to(rs, t);
                ck_assert_msg(fabsl(back - s) <= tol, "%s %s s=%g: arclen(t) - s = %.3Lg", r.f[SOURCE], id, s,
                              back - s);
                ck_assert_msg(fabs(t - ref) <= 1e-12, "%s %s: t %.17g vs ref %.17g", r.f[SOURCE], id, t, ref);
                checks += 2;
            } else {
                if (r.f[EXPECTED][0] != '(') {
                    double expected = strtod(r.f[EXPECTED], NULL);
                    ck_assert_msg(fabs(t - expected) <= tol, "%s %s: t %.17g vs %.17g", r.f[SOURCE], id, t, expected);
                    checks++;
                } else {
                    ck_assert_msg(fabs(t - ref) <= tol, "%s %s: t %.17g vs ref %.17g", r.f[SOURCE], id, t, ref);
                    checks++;
                }
                ck_assert_msg(fabs(t - ref) <= 1e-4 * fabs(ref), "%s %s: t %.17g vs ref %.17g", r.f[SOURCE], id, t,
                              ref);
                ck_assert_msg(fabs(t - ref) <= 1e-12, "%s %s: t %.17g vs ref %.17g (tight)", r.f[SOURCE], id, t, ref);
                checks += 2;
            }
            free(rs);
        } else if (strcmp(q, "point_at_length") == 0) {
            double s = parse_arg(r.f[ARG], L), ex, ey, rx, ry, x, y;
            parse_pair(r.f[EXPECTED], &ex, &ey);
            parse_pair(r.f[REF], &rx, &ry);
            rf_path_sample(p, s / L, &x, &y, NULL);
            ck_assert_msg(fabs(x - ex) <= tol && fabs(y - ey) <= tol, "%s %s: (%.17g, %.17g)", r.f[SOURCE], id, x, y);
            ck_assert_msg(fabs(x - rx) <= 1e-4 * fabs(rx) && fabs(y - ry) <= 1e-4 * fabs(ry), "%s %s", r.f[SOURCE],
                          id);
            /* The reference has 7 decimals. */
            ck_assert_msg(fabs(x - rx) <= 1e-6 && fabs(y - ry) <= 1e-6, "%s %s: (%.17g, %.17g) vs (%.17g, %.17g)",
                          r.f[SOURCE], id, x, y, rx, ry);
            checks += 3;
        } else if (strcmp(q, "part_length") == 0) {
            /* The straight curve x = 64 (3t^2 - 2t^3): the distance at t = a
             * is x(a), so the point at x(a) + part is at t = b. */
            double a, b;
            ck_assert_int_eq(sscanf(r.f[ARG], "t=[%lf,%lf]", &a, &b), 2);
            double part = strtod(r.f[EXPECTED], NULL), ref = strtod(r.f[REF], NULL);
            double sa = 64 * (3 * a * a - 2 * a * a * a);
            uint32_t seg;
            double t;
            rf_path_locate(p, (sa + part) / L, &seg, &t);
            ck_assert_msg(fabs(t - b) <= tol, "%s %s [%g,%g]: t %.17g", r.f[SOURCE], id, a, b, t);
            ck_assert_msg(fabs(t - b) <= 1e-12, "%s %s [%g,%g]: t %.17g (tight)", r.f[SOURCE], id, a, b, t);
            ck_assert_double_eq(part, ref);
            checks += 3;
        } else {
            ck_abort_msg("arclength.tsv: unknown quantity '%s'", q);
        }
        free(p);
    }
    fclose(fp);
    ck_assert_int_eq(header, 1);
    ck_assert_int_ge(rows, 50);
    ck_assert_int_ge(checks, 120);
}
END_TEST

/* ============================ suite ============================ */

static Suite *path_suite(void)
{
    Suite *s = suite_create("path");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, test_layout_sizes);
    tcase_add_loop_test(tc, test_number_forms, 0, sizeof number_cases / sizeof number_cases[0]);
    tcase_add_test(tc, test_number_too_long_and_leading_zeros);
    tcase_add_loop_test(tc, test_relative_absolute, 0, sizeof rel_cases / sizeof rel_cases[0]);
    tcase_add_test(tc, test_implicit_repeats);
    tcase_add_test(tc, test_smooth_reflections);
    tcase_add_test(tc, test_empty_and_lone_move);
    tcase_add_loop_test(tc, test_errors, 0, sizeof error_cases / sizeof error_cases[0]);
    tcase_add_test(tc, test_error_nul_byte_and_length);
    tcase_add_test(tc, test_out_of_memory_atomic);
    tcase_add_test(tc, test_segment_limit);
    suite_add_tcase(s, tc);

    tc = tcase_create("measure");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_length_closed_forms);
    tcase_add_test(tc, test_length_circle_four_cubics);
    tcase_add_test(tc, test_segment_lengths_and_knots);
    tcase_add_test(tc, test_long_path_accuracy);
    tcase_add_test(tc, test_arclength_vectors);
    suite_add_tcase(s, tc);

    tc = tcase_create("sample");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_curve_evaluation, 0, sizeof curve_paths / sizeof curve_paths[0]);
    tcase_add_test(tc, test_parabola_point_at_length);
    tcase_add_test(tc, test_boundary_ties);
    tcase_add_test(tc, test_close_segment);
    tcase_add_test(tc, test_all_zero_paths);
    tcase_add_test(tc, test_progress_clamp);
    tcase_add_test(tc, test_degenerate_tangents);
    suite_add_tcase(s, tc);

    tc = tcase_create("bounds");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_bounds_dense_scan, 0, sizeof bounds_paths / sizeof bounds_paths[0]);
    tcase_add_test(tc, test_bounds_hand_derived);
    suite_add_tcase(s, tc);

    tc = tcase_create("trim");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_trim_against_reference);
    tcase_add_test(tc, test_trim_subcurve_exact);
    tcase_add_test(tc, test_trim_structure);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        vector_dir = argv[1];
    else if (getenv("VECTOR_DIR") && *getenv("VECTOR_DIR"))
        vector_dir = getenv("VECTOR_DIR");
    SRunner *sr = srunner_create(path_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
