/* tests/exact-cover.h - an independent reference for coverage: the exact
 * area of an outline inside each pixel (tests only).
 *
 * A pixel's coverage is the area of the outline inside its square: the
 * polygon clipped to the square (Sutherland-Hodgman, one side at a time)
 * and its area by the shoelace formula, signed, so a hole wound the other
 * way subtracts. The caller cuts curves into lines finely enough (4,096
 * chords per arc in check_render.c: off by under 1e-6 px). */
#ifndef RF_TESTS_EXACT_COVER_H
#define RF_TESTS_EXACT_COVER_H

#include <math.h>

typedef struct xy {
    double x, y;
} xy_t;

#define EXACT_MAX 20000

/* in clipped to x >= v (axis 0, keep 1), x <= v (0, 0), y (axis 1) */
static inline int clip_side(const xy_t *in, int n, xy_t *out, int axis, double v, int keep_ge)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        xy_t a = in[i], b = in[(i + 1) % n];
        double av = axis ? a.y : a.x, bv = axis ? b.y : b.x;
        int ai = keep_ge ? av >= v : av <= v, bi = keep_ge ? bv >= v : bv <= v;
        if (ai)
            out[m++] = a;
        if (ai != bi) {
            double t = (v - av) / (bv - av);
            out[m++] = (xy_t){ a.x + t * (b.x - a.x), a.y + t * (b.y - a.y) };
        }
    }
    return m;
}

/* The signed area of polygon p (n points) inside pixel (px, py). */
static inline double exact_cover(const xy_t *p, int n, int px, int py)
{
    static xy_t t0[2 * EXACT_MAX], t1[2 * EXACT_MAX];
    int m = clip_side(p, n, t0, 0, px, 1);
    m = clip_side(t0, m, t1, 0, px + 1, 0);
    m = clip_side(t1, m, t0, 1, py, 1);
    m = clip_side(t0, m, t1, 1, py + 1, 0);
    double a = 0;
    for (int i = 0; i < m; i++)
        a += t1[i].x * t1[(i + 1) % m].y - t1[(i + 1) % m].x * t1[i].y;
    return a / 2;
}

/* The arc c + R(rot) (rx cos a, ry sin a), a0 to a1, pushed out along its
 * normal by off (in when negative; either way round), as n points into p
 * after a0. */
static inline int exact_arc(xy_t *p, double cx, double cy, double rx, double ry, double rot,
                            double a0, double a1, double off, int n)
{
    for (int i = 1; i <= n; i++) {
        double a = a0 + (a1 - a0) * i / n, x = rx * cos(a), y = ry * sin(a);
        double nx = ry * cos(a), ny = rx * sin(a), l = hypot(nx, ny); /* outward */
        x += off * nx / l;
        y += off * ny / l;
        p[i - 1] = (xy_t){ cx + x * cos(rot) - y * sin(rot), cy + x * sin(rot) + y * cos(rot) };
    }
    return n;
}

/* The exact coverage of pixel (px, py) by the nc contours of poly (contour
 * q from start[q] to start[q + 1]), nonzero for outlines whose contours
 * do not overlap (a hole wound the other way), 0 .. 255 rounded. */
static inline int exact_level(const xy_t *poly, const int *start, int nc, int px, int py)
{
    double a = 0;
    for (int q = 0; q < nc; q++)
        a += exact_cover(poly + start[q], start[q + 1] - start[q], px, py);
    return (int)lround(fabs(a) * 255);
}

#endif
