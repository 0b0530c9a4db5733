/* check_arc.c - the complete SVG path data of path.h (scene-v1.md "Paths,
 * complete"): arcs, several figures, trims across them and morphs, against
 * independent references.
 *
 * References: hand-derived centers and sweeps of SVG 1.1 F.6.5 for the
 * four flag combinations (worked out in the comments), closed-form lengths
 * (2 pi r, pi r / 2, 5 pi for a radius scaled up by F.6.6), an ellipse arc's
 * length integrated here in long double (Gauss-Legendre on
 * sqrt(rx^2 sin^2 t + ry^2 cos^2 t), sharing nothing with path.c), points
 * checked against the circle or ellipse equation, and hand-listed trim ops.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"

#define PI_D 3.14159265358979323846

static void *plain_alloc(void *ctx, size_t n)
{
    (void)ctx;
    return malloc(n);
}

static rf_path_t *parse_ok(const char *d)
{
    rf_path_t *p = NULL;
    rf_path_error_t e;
    int rc = rf_path_parse(d, strlen(d), plain_alloc, NULL, &p, &e);
    ck_assert_msg(rc == 0, "parse \"%.80s\": %s", d, e.msg);
    return p;
}

/* Every on-curve point of every segment, and 16 points inside each, lies
 * on the circle (cx, cy, r) to tol * r. */
static void on_circle(const rf_path_t *p, double cx, double cy, double r, double tol)
{
    for (uint32_t i = 0; i < rf_path_segment_count(p); i++)
        for (int j = 0; j <= 16; j++) {
            double x, y;
            rf_path_segment_eval(p, i, j / 16.0, &x, &y);
            double e = fabs(hypot(x - cx, y - cy) - r) / r;
            ck_assert_msg(e <= tol, "segment %u t %d/16: (%.17g, %.17g) off the circle by %.3g r",
                          i, j, x, y, e);
        }
}

/* ---- F.6.5 by hand: from (0,0) to (10,0), rx = ry = 10, phi = 0 ----
 * x1' = -5, y1' = 0; the root is sqrt((100*100 - 100*25) / (100*25)) =
 * sqrt(3); c' = +-sqrt(3) (10*0/10, -10*(-5)/10) = (0, +-5 sqrt 3), + when
 * fA != fS. So fA != fS: center (5, 5 sqrt 3); fA == fS: (5, -5 sqrt 3).
 * Center (5, 5 sqrt 3): start at angle -120 deg, end at -60: dtheta = +60
 * (fS = 1, fA = 0), or -300 (fS = 0, fA = 1). Center (5, -5 sqrt 3): start
 * at 120, end at 60: dtheta = -60 (fS = 0, fA = 0) or +300 (fS = 1, fA = 1).
 * Cubics: ceil(60 / 45) = 2, ceil(300 / 45) = 7. The point halfway along
 * is at the middle angle: -90 (5, 5 sqrt 3 - 10), 150 (5 - 5 sqrt 3,
 * 5 sqrt 3 + 5)... listed per case below. */
static const struct {
    int fa, fs;
    double cy;          /* center (5, cy) */
    double sweep_deg;   /* signed */
    uint32_t cubics;
    double mx, my;      /* the point at half the length */
} flag_cases[] = {
    {0, 1, 8.6602540378443865, 60, 2, 5, 8.6602540378443865 - 10},
    {1, 0, 8.6602540378443865, -300, 7, 5, 8.6602540378443865 + 10},
    {0, 0, -8.6602540378443865, -60, 2, 5, -8.6602540378443865 + 10},
    {1, 1, -8.6602540378443865, 300, 7, 5, -8.6602540378443865 - 10},
};

START_TEST(test_arc_flags_hand_derived)
{
    char d[128];
    snprintf(d, sizeof d, "M 0 0 A 10 10 0 %d %d 10 0", flag_cases[_i].fa, flag_cases[_i].fs);
    rf_path_t *p = parse_ok(d);
    ck_assert_uint_eq(rf_path_segment_count(p), flag_cases[_i].cubics);
    for (uint32_t i = 0; i < rf_path_segment_count(p); i++) {
        size_t col;
        ck_assert_int_eq(rf_path_segment(p, i, NULL), RF_PATH_CUBIC);
        ck_assert_int_eq(rf_path_segment_source(p, i, &col), 'A');
        ck_assert_uint_eq(col, 7);
        ck_assert_uint_eq(rf_path_command_segments(p, i), flag_cases[_i].cubics);
    }
    on_circle(p, 5, flag_cases[_i].cy, 10, 5e-6);
    /* the end point is exactly the given one */
    const double *P;
    rf_path_segment(p, rf_path_segment_count(p) - 1, &P);
    ck_assert(P[6] == 10 && P[7] == 0);
    /* length: |sweep| r to 1e-5 (45-degree cubics err by < 5e-6 r) */
    double want = fabs(flag_cases[_i].sweep_deg) * PI_D / 180 * 10;
    ck_assert_double_eq_tol(rf_path_length(p), want, want * 1e-5);
    double x, y;
    rf_path_sample(p, 0.5, &x, &y, NULL);
    ck_assert_double_eq_tol(x, flag_cases[_i].mx, 1e-4);
    ck_assert_double_eq_tol(y, flag_cases[_i].my, 1e-4);
    free(p);
}
END_TEST

START_TEST(test_circle_of_two_arcs)
{
    /* the contract's bound: 2 pi r to 1e-4 relative, at several radii and
     * positions; as measured, better than 3e-6 */
    const double radii[] = {0.5, 1, 10, 123.456, 1e4};
    for (size_t k = 0; k < sizeof radii / sizeof radii[0]; k++) {
        double r = radii[k];
        char d[256];
        snprintf(d, sizeof d, "M %.17g 50 A %.17g %.17g 0 0 1 %.17g 50 A %.17g %.17g 0 0 1 %.17g 50 Z",
                 100 - r, r, r, 100 + r, r, r, 100 - r);
        rf_path_t *p = parse_ok(d);
        ck_assert_uint_eq(rf_path_segment_count(p), 9); /* 4 + 4 cubics and a zero Z */
        double rel = fabs(rf_path_length(p) - 2 * PI_D * r) / (2 * PI_D * r);
        ck_assert_msg(rel <= 1e-4, "r %g: length %.17g, relative error %.3g", r,
                      rf_path_length(p), rel);
        ck_assert_double_le(rel, 3e-6);
        on_circle(p, 100, 50, r, 5e-6);
        /* exact bounds: the circle's box, to the cubics' error */
        double x0, y0, x1, y1;
        rf_path_bounds(p, &x0, &y0, &x1, &y1);
        ck_assert_double_eq_tol(x0, 100 - r, 1e-9 * r);
        ck_assert_double_eq_tol(x1, 100 + r, 1e-9 * r);
        ck_assert_double_eq_tol(y0, 50 - r, 5e-6 * r);
        ck_assert_double_eq_tol(y1, 50 + r, 5e-6 * r);
        free(p);
    }
}
END_TEST

START_TEST(test_quarter_and_scaled_radii)
{
    /* a quarter of radius 40: pi r / 2, two cubics */
    rf_path_t *p = parse_ok("M 40 0 A 40 40 0 0 1 0 40");
    ck_assert_uint_eq(rf_path_segment_count(p), 2);
    ck_assert_double_eq_tol(rf_path_length(p), PI_D * 20, PI_D * 20 * 1e-5);
    on_circle(p, 0, 0, 40, 5e-6);
    free(p);
    /* F.6.6: radius 1 cannot reach from (0,0) to (10,0): scaled to 5, a
     * half circle around (5,0) either flag, length 5 pi */
    p = parse_ok("M 0 0 A 1 1 0 0 1 10 0");
    ck_assert_uint_eq(rf_path_segment_count(p), 4);
    ck_assert_double_eq_tol(rf_path_length(p), 5 * PI_D, 5 * PI_D * 1e-5);
    on_circle(p, 5, 0, 5, 5e-6);
    double x, y;
    rf_path_sample(p, 0.5, &x, &y, NULL); /* sweep 1: through the top (y < 0) */
    ck_assert_double_eq_tol(x, 5, 1e-4);
    ck_assert_double_eq_tol(y, -5, 1e-4);
    free(p);
    /* negative radii count by their magnitude */
    p = parse_ok("M 0 0 A -1 -1 0 0 1 10 0");
    ck_assert_double_eq_tol(rf_path_length(p), 5 * PI_D, 5 * PI_D * 1e-5);
    free(p);
    /* F.6.2: a zero radius is a line; coincident ends omit the arc */
    p = parse_ok("M 0 0 A 0 5 0 0 1 10 0 A 5 5 0 1 1 10 0 a 5 0 0 0 0 0 10");
    ck_assert_uint_eq(rf_path_segment_count(p), 2);
    ck_assert_int_eq(rf_path_segment(p, 0, NULL), RF_PATH_LINE);
    ck_assert_int_eq(rf_path_segment(p, 1, NULL), RF_PATH_LINE);
    ck_assert_double_eq_tol(rf_path_length(p), 20, 1e-12);
    free(p);
    /* huge radii: the short way is the chord (straight, length 10) */
    p = parse_ok("M 0 0 A 1e308 1e308 0 0 1 10 0");
    ck_assert_double_eq_tol(rf_path_length(p), 10, 1e-9);
    free(p);
    /* ... and the long way goes round the whole huge circle: the sweep is
     * found from the closed-form angle, not from vectors that cancel */
    p = parse_ok("M 2 2 A 1e20 1e20 0 1 1 30 30");
    ck_assert_uint_eq(rf_path_segment_count(p), 8);
    ck_assert_double_eq_tol(rf_path_length(p), 2 * PI_D * 1e20, 2 * PI_D * 1e20 * 1e-5);
    free(p);
    p = parse_ok("M 2 2 A 1e20 1e20 0 0 1 30 30");
    ck_assert_double_eq_tol(rf_path_length(p), sqrt(2.0) * 28, 1e-9);
    free(p);
    /* flags need no separators: "1150 50" is flags 1, 1 and 50 50 */
    p = parse_ok("M0 0A1 1 0 1150 50");
    rf_path_t *q = parse_ok("M0 0 A 1 1 0 1 1 50 50");
    ck_assert_double_eq(rf_path_length(p), rf_path_length(q));
    free(q);
    free(p);
}
END_TEST

/* A long-double reference for an ellipse arc's length: Gauss-Legendre (10
 * points, nodes computed by Newton here) over 4096 pieces of the parameter
 * range. */
static long double ellipse_len(long double rx, long double ry, long double t0, long double t1)
{
    enum { N = 10, PIECES = 4096 };
    static long double x[N], w[N];
    static int ready;
    if (!ready) {
        for (int i = 0; i < N; i++) {
            long double z = cosl(3.14159265358979323846264338327950288L * (i + 0.75L) / (N + 0.5L)), dp = 0;
            for (int it = 0; it < 100; it++) {
                long double p0 = 1, p1 = z;
                for (int k = 2; k <= N; k++) {
                    long double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
                    p0 = p1;
                    p1 = p2;
                }
                dp = N * (z * p1 - p0) / (z * z - 1);
                long double dz = p1 / dp;
                z -= dz;
                if (fabsl(dz) < 1e-30L)
                    break;
            }
            x[i] = z;
            w[i] = 2 / ((1 - z * z) * dp * dp);
        }
        ready = 1;
    }
    long double sum = 0, h = (t1 - t0) / PIECES;
    for (int k = 0; k < PIECES; k++) {
        long double a = t0 + k * h, m = a + h / 2;
        for (int i = 0; i < N; i++) {
            long double t = m + h / 2 * x[i];
            sum += w[i] * h / 2 * sqrtl(rx * rx * sinl(t) * sinl(t) + ry * ry * cosl(t) * cosl(t));
        }
    }
    return sum;
}

START_TEST(test_ellipse_arc_against_integral)
{
    /* center (50, 40), rx 30, ry 12, rotated 30 degrees; from parameter 10
     * to 200 degrees (sweep 190: large arc, positive sweep) */
    const double cx = 50, cy = 40, rx = 30, ry = 12, phi = 30 * PI_D / 180;
    const double t0 = 10 * PI_D / 180, t1 = 200 * PI_D / 180;
    double x0 = cx + cos(phi) * rx * cos(t0) - sin(phi) * ry * sin(t0);
    double y0 = cy + sin(phi) * rx * cos(t0) + cos(phi) * ry * sin(t0);
    double x1 = cx + cos(phi) * rx * cos(t1) - sin(phi) * ry * sin(t1);
    double y1 = cy + sin(phi) * rx * cos(t1) + cos(phi) * ry * sin(t1);
    char d[256];
    snprintf(d, sizeof d, "M %.17g %.17g A 30 12 30 1 1 %.17g %.17g", x0, y0, x1, y1);
    rf_path_t *p = parse_ok(d);
    ck_assert_uint_eq(rf_path_segment_count(p), 5); /* ceil(190 / 45) */
    double want = (double)ellipse_len(rx, ry, t0, t1);
    double rel = fabs(rf_path_length(p) - want) / want;
    ck_assert_msg(rel <= 1e-4, "ellipse arc %.17g, integral %.17g (%.3g)", rf_path_length(p), want,
                  rel);
    ck_assert_double_le(rel, 1e-5);
    /* every point on the ellipse: rotate back, ((x/rx)^2 + (y/ry)^2) = 1 */
    for (int j = 0; j <= 64; j++) {
        double x, y;
        rf_path_sample(p, j / 64.0, &x, &y, NULL);
        double u = cos(phi) * (x - cx) + sin(phi) * (y - cy);
        double v = -sin(phi) * (x - cx) + cos(phi) * (y - cy);
        ck_assert_double_eq_tol(hypot(u / rx, v / ry), 1, 1e-5);
    }
    /* the other way round (sweep 0, small arc) is the rest of the ellipse */
    snprintf(d, sizeof d, "M %.17g %.17g A 30 12 30 0 0 %.17g %.17g", x0, y0, x1, y1);
    rf_path_t *q = parse_ok(d);
    double rest = (double)ellipse_len(rx, ry, t1, t0 + 2 * PI_D);
    ck_assert_double_eq_tol(rf_path_length(q), rest, rest * 1e-5);
    free(q);
    free(p);
}
END_TEST

/* ---- figures ---- */

START_TEST(test_figures)
{
    rf_path_t *p = parse_ok("M 0 0 h 10 v 10 z l 5 5 M 20 0 h 10");
    ck_assert_uint_eq(rf_path_figures(p), 3);
    /* h, v, z, the MOVE that l implies after z, l, M's MOVE, h */
    static const int kinds[] = {RF_PATH_LINE, RF_PATH_LINE, RF_PATH_CLOSE, RF_PATH_MOVE,
                                RF_PATH_LINE, RF_PATH_MOVE, RF_PATH_LINE};
    static const char cmds[] = "hvzllMh";
    static const size_t cols[] = {7, 12, 17, 19, 19, 25, 32};
    ck_assert_uint_eq(rf_path_segment_count(p), 7);
    for (uint32_t i = 0; i < 7; i++) {
        size_t col;
        ck_assert_int_eq(rf_path_segment(p, i, NULL), kinds[i]);
        ck_assert_int_eq(rf_path_segment_source(p, i, &col), cmds[i]);
        ck_assert_uint_eq(col, cols[i]);
    }
    /* after z, l is relative to the figure's start (0,0): ends at (5,5) */
    const double *P;
    rf_path_segment(p, 4, &P);
    ck_assert(P[0] == 0 && P[1] == 0 && P[2] == 5 && P[3] == 5);
    /* MOVEs measure 0: 10 + 10 + sqrt(200) + sqrt(50) + 10 */
    ck_assert_double_eq_tol(rf_path_length(p), 30 + sqrt(200.0) + sqrt(50.0), 1e-12);
    ck_assert_double_eq(rf_path_segment_length(p, 3), 0);
    ck_assert_double_eq(rf_path_segment_length(p, 5), 0);
    free(p);
    p = parse_ok("M 1 2");
    ck_assert_uint_eq(rf_path_figures(p), 1);
    free(p);
    p = parse_ok("M 1 2 Z Z");
    ck_assert_uint_eq(rf_path_figures(p), 2);
    free(p);
}
END_TEST

START_TEST(test_trim_across_figures)
{
    rf_path_op_t ops[16];
    /* a square (perimeter 40) and a line of 10: 50 in all */
    rf_path_t *p = parse_ok("M0 0 h10 v10 h-10 z M 20 0 h 10");
    /* [0, 0.9] = 45: the whole square, closed, then 5 of the line */
    size_t n = rf_path_trim(p, 0, 0.9, ops, 16);
    ck_assert_uint_eq(n, 7);
    static const int k1[] = {RF_PATH_OP_MOVE, RF_PATH_OP_LINE, RF_PATH_OP_LINE, RF_PATH_OP_LINE,
                             RF_PATH_OP_CLOSE, RF_PATH_OP_MOVE, RF_PATH_OP_LINE};
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(ops[i].kind, k1[i]);
    ck_assert(ops[5].p[0] == 20 && ops[5].p[1] == 0);
    ck_assert_double_eq_tol(ops[6].p[0], 25, 1e-12);
    /* [0.1, 0.9]: the square from 5 along is not whole: its Z is a line */
    n = rf_path_trim(p, 0.1, 0.9, ops, 16);
    ck_assert_uint_eq(n, 7);
    ck_assert(ops[0].kind == RF_PATH_OP_MOVE && fabs(ops[0].p[0] - 5) < 1e-12);
    ck_assert(ops[4].kind == RF_PATH_OP_LINE && ops[4].p[0] == 0 && ops[4].p[1] == 0);
    ck_assert(ops[5].kind == RF_PATH_OP_MOVE);
    /* [0.8, 1]: only the line, starting at its start (the tie takes the
     * next figure at t = 0) */
    n = rf_path_trim(p, 0.8, 1, ops, 16);
    ck_assert_uint_eq(n, 2);
    ck_assert(ops[0].kind == RF_PATH_OP_MOVE && ops[0].p[0] == 20 && ops[0].p[1] == 0);
    ck_assert(ops[1].kind == RF_PATH_OP_LINE && ops[1].p[0] == 30);
    /* the whole path verbatim: the MOVE is a move_to */
    n = rf_path_trim(p, 0, 1, ops, 16);
    ck_assert_uint_eq(n, rf_path_trim_max(p));
    ck_assert_int_eq(ops[5].kind, RF_PATH_OP_MOVE);
    /* sampling runs over both: 0.9 is (25, 0) */
    double x, y;
    rf_path_sample(p, 0.9, &x, &y, NULL);
    ck_assert_double_eq_tol(x, 25, 1e-12);
    ck_assert_double_eq_tol(y, 0, 1e-12);
    free(p);
}
END_TEST

/* ---- morphs ---- */

START_TEST(test_mix)
{
    rf_path_op_t ops[16];
    rf_path_t *a = parse_ok("M 0 0 L 10 0"), *b = parse_ok("M 0 5 L 10 5");
    ck_assert_uint_eq(rf_path_mismatch(a, b), UINT32_MAX);
    size_t n = rf_path_mix_trim(a, b, 0.5, 0, 1, ops, 16);
    ck_assert_uint_eq(n, 2);
    ck_assert(ops[0].p[0] == 0 && ops[0].p[1] == 2.5 && ops[1].p[0] == 10 && ops[1].p[1] == 2.5);
    double x0, y0, x1, y1;
    rf_path_mix_bounds(a, b, 0.25, &x0, &y0, &x1, &y1);
    ck_assert(x0 == 0 && x1 == 10 && y0 == 1.25 && y1 == 1.25);
    free(b);
    /* a line growing from 10 to 30: at 0.5, 20 long; its first half ends at 10 */
    b = parse_ok("M 0 0 H 30");
    ck_assert_double_eq_tol(rf_path_mix_length(a, b, 0.5), 20, 1e-12);
    n = rf_path_mix_trim(a, b, 0.5, 0, 0.5, ops, 16);
    ck_assert_uint_eq(n, 2);
    ck_assert_double_eq_tol(ops[1].p[0], 10, 1e-12);
    /* w = 0 and 1 (and beyond, and NaN) are the paths' own trims */
    rf_path_op_t o2[16];
    for (int k = 0; k < 4; k++) {
        static const double ws[] = {0, -2, NAN, 1};
        const rf_path_t *own = ws[k] == 1 ? b : a;
        size_t m = rf_path_mix_trim(a, b, ws[k], 0.2, 0.7, ops, 16);
        ck_assert_uint_eq(m, rf_path_trim(own, 0.2, 0.7, o2, 16));
        for (size_t i = 0; i < m; i++) {
            ck_assert_int_eq(ops[i].kind, o2[i].kind);
            for (int j = 0; j < 6; j++)
                ck_assert(ops[i].p[j] == o2[i].p[j]);
        }
    }
    free(b);
    free(a);
    /* concentric circles of radius 10 and 20 (two arcs each): at 0.5 the
     * cubics are those of radius 15, so 2 pi 15 and its box */
    a = parse_ok("M 40 50 A 10 10 0 0 1 60 50 A 10 10 0 0 1 40 50 Z");
    b = parse_ok("M 30 50 A 20 20 0 0 1 70 50 A 20 20 0 0 1 30 50 Z");
    ck_assert_uint_eq(rf_path_mismatch(a, b), UINT32_MAX);
    double l = rf_path_mix_length(a, b, 0.5);
    ck_assert_double_eq_tol(l, 2 * PI_D * 15, 2 * PI_D * 15 * 3e-6);
    rf_path_mix_bounds(a, b, 0.5, &x0, &y0, &x1, &y1);
    ck_assert_double_eq_tol(x0, 35, 1e-9);
    ck_assert_double_eq_tol(x1, 65, 1e-9);
    ck_assert_double_eq_tol(y0, 35, 1e-4);
    ck_assert_double_eq_tol(y1, 65, 1e-4);
    /* a quarter of the mixed circle from its start: ends at the top (50, 35) */
    n = rf_path_mix_trim(a, b, 0.5, 0, 0.25, ops, 16);
    ck_assert_int_eq(ops[n - 1].kind, RF_PATH_OP_CURVE);
    ck_assert_double_eq_tol(ops[n - 1].p[4], 50, 1e-4);
    ck_assert_double_eq_tol(ops[n - 1].p[5], 35, 1e-4);
    free(b);
    free(a);
}
END_TEST

START_TEST(test_mismatch)
{
    rf_path_t *a = parse_ok("M 0 0 L 1 1 C 1 2 3 4 5 6"), *b = parse_ok("M 0 0 H 3 Q 1 2 3 4");
    /* L and H are both lines; C and Q mix (the Q raised to a cubic) */
    ck_assert_uint_eq(rf_path_mismatch(a, b), UINT32_MAX);
    free(b);
    b = parse_ok("M 0 0 H 3 Z");
    ck_assert_uint_eq(rf_path_mismatch(a, b), 1); /* a cubic against Z */
    free(b);
    b = parse_ok("M 0 0 H 3 M 1 1");
    ck_assert_uint_eq(rf_path_mismatch(a, b), 1); /* a cubic against a new figure */
    free(b);
    b = parse_ok("M 0 0 L 1 1");
    ck_assert_uint_eq(rf_path_mismatch(a, b), 1); /* b ends */
    ck_assert_uint_eq(rf_path_mismatch(b, a), 1);
    free(b);
    free(a);
    /* a 90-degree arc makes 2 cubics, a 180-degree one 4 */
    a = parse_ok("M 0 0 A 10 10 0 0 1 10 10");
    b = parse_ok("M 0 0 A 10 10 0 0 1 20 0");
    ck_assert_uint_eq(rf_path_command_segments(a, 0), 2);
    ck_assert_uint_eq(rf_path_command_segments(b, 3), 4);
    ck_assert_uint_eq(rf_path_mismatch(a, b), 2);
    free(b);
    /* an arc's cubics against lines: no (every later segment would shift) */
    b = parse_ok("M 0 0 L 5 5 L 10 10");
    ck_assert_uint_eq(rf_path_mismatch(a, b), 0);
    free(b);
    free(a);
}
END_TEST

static Suite *arc_suite(void)
{
    Suite *s = suite_create("arc");
    TCase *tc = tcase_create("arc");
    tcase_add_loop_test(tc, test_arc_flags_hand_derived, 0,
                        sizeof flag_cases / sizeof flag_cases[0]);
    tcase_add_test(tc, test_circle_of_two_arcs);
    tcase_add_test(tc, test_quarter_and_scaled_radii);
    tcase_add_test(tc, test_ellipse_arc_against_integral);
    tcase_add_test(tc, test_figures);
    tcase_add_test(tc, test_trim_across_figures);
    tcase_add_test(tc, test_mix);
    tcase_add_test(tc, test_mismatch);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(arc_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
