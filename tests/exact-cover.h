/* tests/exact-cover.h - an independent reference for coverage: the exact
 * area of an outline inside each pixel (tests only).
 *
 * A pixel's coverage is the area of the outline inside its square: the
 * polygon clipped to the square (Sutherland-Hodgman, one side at a time)
 * and its area by the shoelace formula, signed, so a hole wound the other
 * way subtracts. Curves are first cut into 4,096 lines each (off the
 * curve by r (pi / 8192)^2 / 2, under 1e-6 px at the sizes tested). */
#ifndef RF_TESTS_EXACT_COVER_H
#define RF_TESTS_EXACT_COVER_H

#include <math.h>
#include <stdint.h>

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

/* The contours of an outline (cmds 'M', 'L', 'C', 'Z' over pts, y up) as
 * device polygons at k px per unit from origin (ox, oy) (y down): the
 * number of contours, contour c from start[c] to start[c + 1] in poly. */
static inline int exact_polygons(const uint8_t *cmds, int ncmd, const double *pts, double k, double ox,
                          double oy, xy_t *poly, int *start)
{
    int n = 0, nc = 0;
    double cx = 0, cy = 0;
    for (int i = 0; i < ncmd; i++) {
        if (cmds[i] == 'M')
            start[nc++] = n;
        if (cmds[i] == 'M' || cmds[i] == 'L') {
            cx = pts[0];
            cy = pts[1];
            poly[n++] = (xy_t){ ox + cx * k, oy - cy * k };
            pts += 2;
        } else if (cmds[i] == 'C') {
            for (int j = 1; j <= 4096; j++) {
                double t = j / 4096.0, u = 1 - t;
                double x = u * u * u * cx + 3 * u * u * t * pts[0] + 3 * u * t * t * pts[2] +
                           t * t * t * pts[4];
                double y = u * u * u * cy + 3 * u * u * t * pts[1] + 3 * u * t * t * pts[3] +
                           t * t * t * pts[5];
                poly[n++] = (xy_t){ ox + x * k, oy - y * k };
            }
            cx = pts[4];
            cy = pts[5];
            pts += 6;
        }
    }
    start[nc] = n;
    return nc;
}

/* The exact coverage of pixel (px, py) by the nc contours of poly (from
 * exact_polygons, or built by hand), nonzero for outlines whose contours
 * do not overlap (a hole wound the other way), 0 .. 255 rounded. */
static inline int exact_level(const xy_t *poly, const int *start, int nc, int px, int py)
{
    double a = 0;
    for (int q = 0; q < nc; q++)
        a += exact_cover(poly + start[q], start[q + 1] - start[q], px, py);
    return (int)lround(fabs(a) * 255);
}

#endif
