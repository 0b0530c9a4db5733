/* raster.c - polygon coverage by FreeType's smooth rasterizer (raster.h). */
#include "raster.h"

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT ((double)(1 << 24) * 64) /* 2^24 px in 26.6 */

struct rf_raster {
    FT_Library ft;             /* NULL until the first fill */
    FT_Vector *pt;             /* npt points (26.6, device, y down) */
    double *xy;                /* the same points as given (x, y pairs) */
    char *tag;
    short *end;                /* nend contours' last points */
    uint32_t npt, nend, cap, cap_end;
    int open;                  /* a contour is open */
    int bad;                   /* 1: a point not finite, too far, or too
                                  many; 2: out of memory */
    FT_Pos x0, y0, x1, y1;     /* the points' box */
    uint64_t gen;              /* rf_raster_reset calls (rf_raster_generation) */
    /* rf_raster_simple's scratch, grown by doubling and kept */
    struct edge *edge;
    uint32_t *slot, *count;
    signed char *csign;        /* each contour's orientation: 1, -1, 0 */
    uint32_t cap_edge, cap_slot, cap_count, cap_csign;
};

/* An edge of the outline for rf_raster_simple: from (x0, y0) to (x1, y1)
 * in 26.6, the k-th of the n edges of contour c (zero-length edges left
 * out), so edges k and k + 1 (mod n) of one contour meet. */
struct edge {
    int64_t x0, y0, x1, y1;
    uint32_t c, k, n;
};

rf_raster_t *rf_raster_create(void)
{
    rf_raster_t *r = calloc(1, sizeof *r);
    if (r != NULL)
        rf_raster_reset(r);
    return r;
}

void rf_raster_destroy(rf_raster_t *r)
{
    if (r == NULL)
        return;
    free(r->pt);
    free(r->xy);
    free(r->tag);
    free(r->end);
    free(r->edge);
    free(r->slot);
    free(r->count);
    free(r->csign);
    if (r->ft != NULL)
        FT_Done_FreeType(r->ft);
    free(r);
}

void rf_raster_reset(rf_raster_t *r)
{
    r->gen++;
    r->npt = r->nend = 0;
    r->open = r->bad = 0;
    r->x0 = r->y0 = LONG_MAX;
    r->x1 = r->y1 = LONG_MIN;
}

/* Room for one more point, and for two more contour ends (one is the open
 * contour's, written by rf_raster_fill); 0, or -1 when out of memory. */
static int room(rf_raster_t *r)
{
    if (r->npt == r->cap) {
        uint32_t cap = r->cap ? r->cap * 2 : 256;
        FT_Vector *pt = realloc(r->pt, cap * sizeof *pt);
        if (pt == NULL)
            return -1;
        r->pt = pt;
        double *xy = realloc(r->xy, 2 * (size_t)cap * sizeof *xy);
        if (xy == NULL)
            return -1;
        r->xy = xy;
        char *tag = realloc(r->tag, cap);
        if (tag == NULL)
            return -1;
        r->tag = tag;
        r->cap = cap;
    }
    if (r->nend + 2 > r->cap_end) {
        uint32_t cap = r->cap_end ? r->cap_end * 2 : 16;
        short *end = realloc(r->end, cap * sizeof *end);
        if (end == NULL)
            return -1;
        r->end = end;
        r->cap_end = cap;
    }
    return 0;
}

/* v in 26.6, rounded to the nearest 1/64 (halves away from zero). */
static FT_Pos fixed(double v)
{
    v *= 64.0;
    return (FT_Pos)(v < 0 ? v - 0.5 : v + 0.5);
}

static void add(rf_raster_t *r, double x, double y, int start)
{
    if (r->bad)
        return;
    if (!(fabs(x) * 64.0 < LIMIT && fabs(y) * 64.0 < LIMIT) || r->npt >= RF_RASTER_MAX_POINTS) {
        r->bad = 1; /* not finite, too far, or too many points for FreeType */
        return;
    }
    if (room(r) != 0) {
        r->bad = 2;
        return;
    }
    if (start && r->open)
        r->end[r->nend++] = (short)(r->npt - 1);
    FT_Vector *v = &r->pt[r->npt];
    v->x = fixed(x);
    v->y = fixed(y);
    r->xy[2 * r->npt] = x;
    r->xy[2 * r->npt + 1] = y;
    r->tag[r->npt++] = FT_CURVE_TAG_ON;
    r->open = 1;
    r->x0 = v->x < r->x0 ? v->x : r->x0;
    r->x1 = v->x > r->x1 ? v->x : r->x1;
    r->y0 = v->y < r->y0 ? v->y : r->y0;
    r->y1 = v->y > r->y1 ? v->y : r->y1;
}

void rf_raster_move(rf_raster_t *r, double x, double y)
{
    add(r, x, y, 1);
}

void rf_raster_line(rf_raster_t *r, double x, double y)
{
    add(r, x, y, 0);
}

int rf_raster_cubic(rf_raster_t *r, const double p[8], double tol)
{
    double ax = p[0] - 2 * p[2] + p[4], ay = p[1] - 2 * p[3] + p[5];
    double bx = p[2] - 2 * p[4] + p[6], by = p[3] - 2 * p[5] + p[7];
    double q = 0.75 * sqrt(fmax(ax * ax + ay * ay, bx * bx + by * by)) / tol; /* n^2 >= q */
    double lim = RF_RASTER_MAX_LINES;
    uint32_t n = q <= 1 ? 1 : q < lim * lim ? (uint32_t)ceil(sqrt(q)) : (uint32_t)lim;
    for (uint32_t j = 1; j < n; j++) {
        double t = (double)j / n, u = 1 - t;
        double b0 = u * u * u, b1 = 3 * u * u * t, b2 = 3 * u * t * t, b3 = t * t * t;
        rf_raster_line(r, b0 * p[0] + b1 * p[2] + b2 * p[4] + b3 * p[6],
                       b0 * p[1] + b1 * p[3] + b2 * p[5] + b3 * p[7]);
    }
    rf_raster_line(r, p[6], p[7]);
    return q < lim * lim || q <= 1; /* NaN: 0 */
}

void rf_raster_arc(rf_raster_t *r, const double c[2], const double u[2], const double v[2],
                   double a0, double a1, double tol)
{
    /* the largest radius R of the ellipse (u, v's largest singular value);
     * a chord of angle d strays R (1 - cos(d / 2)) <= R d^2 / 8 */
    double hs = 0.5 * (u[0] * u[0] + u[1] * u[1] + v[0] * v[0] + v[1] * v[1]);
    double hd = 0.5 * (u[0] * u[0] + u[1] * u[1] - v[0] * v[0] - v[1] * v[1]);
    double o = u[0] * v[0] + u[1] * v[1];
    double R = sqrt(hs + sqrt(hd * hd + o * o)), span = fabs(a1 - a0);
    double q = span * span * R / (8 * tol); /* n^2 >= q */
    uint32_t n = 1;
    if (!(q <= 1)) {
        double lim = RF_RASTER_MAX_LINES;
        n = q < lim * lim ? (uint32_t)sqrt(q) : (uint32_t)lim;
        n += (double)n * n < q && q < lim * lim;
    }
    /* the points turn by d each: a rotation of (cos, sin), one sincos for
     * the arc (off by n ulps at the end, 1e-13 px: nothing at 1/64 px) */
    double d = (a1 - a0) / n, cd = cos(d), sd = sin(d), ca = cos(a0), sa = sin(a0);
    for (uint32_t j = 1; j < n; j++) {
        double t = ca * cd - sa * sd;
        sa = sa * cd + ca * sd;
        ca = t;
        rf_raster_line(r, c[0] + u[0] * ca + v[0] * sa, c[1] + u[1] * ca + v[1] * sa);
    }
    ca = cos(a1);
    sa = sin(a1);
    rf_raster_line(r, c[0] + u[0] * ca + v[0] * sa, c[1] + u[1] * ca + v[1] * sa);
}

uint64_t rf_raster_generation(const rf_raster_t *r)
{
    return r->gen;
}

void rf_raster_shift(rf_raster_t *r, int dx, int dy)
{
    if (r->bad || r->npt == 0)
        return;
    for (uint32_t i = 0; i < r->npt; i++) {
        r->pt[i].x += dx;
        r->pt[i].y += dy;
        r->xy[2 * i] += dx / 64.0;
        r->xy[2 * i + 1] += dy / 64.0;
    }
    r->x0 += dx;
    r->x1 += dx;
    r->y0 += dy;
    r->y1 += dy;
}

uint32_t rf_raster_points(const rf_raster_t *r, const double **xy)
{
    if (r->bad)
        return 0;
    *xy = r->xy;
    return r->npt;
}

uint32_t rf_raster_polygon(const rf_raster_t *r, const double **xy)
{
    if (r->bad || r->nend != 0)
        return 0;
    *xy = r->xy;
    return r->npt;
}

int rf_raster_point_fixed(const rf_raster_t *r, uint32_t i, int64_t p[2])
{
    if (r->bad || i >= r->npt)
        return 0;
    p[0] = r->pt[i].x;
    p[1] = r->pt[i].y;
    return 1;
}

/* The whole pixels at or left of (above) v in 26.6. */
static int64_t floor_px(FT_Pos v)
{
    return v >= 0 ? v / 64 : -((63 - v) / 64);
}

int rf_raster_bounds(const rf_raster_t *r, int64_t *x0, int64_t *y0, int64_t *x1, int64_t *y1)
{
    if (r->bad)
        return r->bad == 2 ? -2 : -1;
    if (r->npt == 0)
        return 0;
    *x0 = floor_px(r->x0) - 1;
    *y0 = floor_px(r->y0) - 1;
    *x1 = floor_px(r->x1 + 63) + 1;
    *y1 = floor_px(r->y1 + 63) + 1;
    return 1;
}

/* Room for n items of size sz in *p (capacity *cap, doubling, kept): 0,
 * or -1 when out of memory. */
static int scratch(void **p, uint32_t *cap, uint32_t n, size_t sz)
{
    if (n <= *cap)
        return 0;
    uint32_t c = *cap ? *cap : 64;
    while (c < n)
        c *= 2;
    void *q = realloc(*p, (size_t)c * sz);
    if (q == NULL)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* The sign of the turn a -> b -> c: > 0, 0 (in line), < 0. Exact: the
 * coordinates differ by less than 2^23 (rf_raster_simple's bound). */
static int turn(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t cx, int64_t cy)
{
    int64_t v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    return (v > 0) - (v < 0);
}

/* Whether (px, py), in line with the edge, lies on it. */
static int within(const struct edge *e, int64_t px, int64_t py)
{
    return px >= (e->x0 < e->x1 ? e->x0 : e->x1) && px <= (e->x0 > e->x1 ? e->x0 : e->x1) &&
           py >= (e->y0 < e->y1 ? e->y0 : e->y1) && py <= (e->y0 > e->y1 ? e->y0 : e->y1);
}

/* Whether edges e and f share a point they should not: any point, unless
 * they follow each other in a contour, where they share the one corner
 * and must not fold back over each other. */
static int meet(const struct edge *e, const struct edge *f)
{
    if (e->c == f->c && e->n >= 3 && (e->k + 1 == f->k || f->k + 1 == e->k ||
                                      (e->k == 0 && f->k == e->n - 1) ||
                                      (f->k == 0 && e->k == f->n - 1))) {
        const struct edge *a = e->k + 1 == f->k || (f->k == 0 && e->k == e->n - 1) ? e : f;
        const struct edge *b = a == e ? f : e; /* a ends where b starts */
        return turn(a->x0, a->y0, a->x1, a->y1, b->x1, b->y1) == 0 &&
               (a->x1 - a->x0) * (b->x1 - b->x0) + (a->y1 - a->y0) * (b->y1 - b->y0) < 0;
    }
    if ((e->x0 > e->x1 ? e->x0 : e->x1) < (f->x0 < f->x1 ? f->x0 : f->x1) ||
        (f->x0 > f->x1 ? f->x0 : f->x1) < (e->x0 < e->x1 ? e->x0 : e->x1))
        return 0;
    int d1 = turn(f->x0, f->y0, f->x1, f->y1, e->x0, e->y0);
    int d2 = turn(f->x0, f->y0, f->x1, f->y1, e->x1, e->y1);
    int d3 = turn(e->x0, e->y0, e->x1, e->y1, f->x0, f->y0);
    int d4 = turn(e->x0, e->y0, e->x1, e->y1, f->x1, f->y1);
    if (d1 * d2 < 0 && d3 * d4 < 0)
        return 1; /* they cross */
    return (d1 == 0 && within(f, e->x0, e->y0)) || (d2 == 0 && within(f, e->x1, e->y1)) ||
           (d3 == 0 && within(e, f->x0, f->y0)) || (d4 == 0 && within(e, f->x1, f->y1));
}

/* Whether (px, py), on no edge of contour c (points pt[a .. b]), is inside
 * it: the edges crossing the ray to its right, half-open in y. */
static int inside(const FT_Vector *pt, uint32_t a, uint32_t b, int64_t px, int64_t py)
{
    int in = 0;
    for (uint32_t i = a; i <= b; i++) {
        const FT_Vector *u = &pt[i], *v = &pt[i == b ? a : i + 1];
        if ((u->y > py) == (v->y > py))
            continue;
        /* the crossing's x > px: (px - ux)(vy - uy) < (vx - ux)(py - uy),
         * the sides swapped when vy < uy */
        int64_t l = (px - u->x) * (v->y - u->y), rr = (v->x - u->x) * (py - u->y);
        in ^= v->y > u->y ? l < rr : l > rr;
    }
    return in;
}

int rf_raster_simple(rf_raster_t *r)
{
    if (r->bad == 2)
        return -1; /* the outline ran out of memory: no answer */
    if (r->bad || r->npt < 3)
        return 0;
    if (r->x1 - r->x0 >= (1 << 22) || r->y1 - r->y0 >= (1 << 22))
        return 0; /* past 65,536 px: the exact products could overflow */
    uint32_t nc = r->nend + 1;
    r->end[r->nend] = (short)(r->npt - 1); /* the open contour's end */
    if ((uint64_t)nc * r->npt > (1u << 20))
        return 0;
    if (scratch((void **)&r->edge, &r->cap_edge, r->npt, sizeof *r->edge) != 0 ||
        scratch((void **)&r->csign, &r->cap_csign, nc, sizeof *r->csign) != 0)
        return -1;
    /* the edges, each contour closed, zero-length ones left out; each
     * contour's orientation, from its signed area */
    uint32_t ne = 0, a = 0;
    for (uint32_t c = 0; c < nc; a = (uint32_t)r->end[c] + 1, c++) {
        uint32_t b = (uint32_t)r->end[c], first = ne;
        int64_t area = 0;
        for (uint32_t i = a; i <= b; i++) {
            const FT_Vector *u = &r->pt[i], *v = &r->pt[i == b ? a : i + 1];
            area += (int64_t)u->x * v->y - (int64_t)v->x * u->y;
            if (u->x == v->x && u->y == v->y)
                continue;
            struct edge *e = &r->edge[ne];
            *e = (struct edge){ u->x, u->y, v->x, v->y, c, ne - first, 0 };
            ne++;
        }
        r->csign[c] = (signed char)((area > 0) - (area < 0));
        if (ne == first)
            continue; /* a contour of one point: nothing */
        if (area == 0)
            return 0; /* folded flat */
        for (uint32_t i = first; i < ne; i++)
            r->edge[i].n = ne - first;
    }
    if (ne == 0)
        return 0;
    /* a grid of square cells, about two an edge, at least 1/4 px a side;
     * every edge in the cells its box touches; within a cell, every pair.
     * The work is bounded: past it, no certificate. */
    int64_t gx0 = r->x0, gy0 = r->y0, W = r->x1 - r->x0 + 1, H = r->y1 - r->y0 + 1;
    int64_t side = (int64_t)ceil(sqrt((double)W * (double)H / (2.0 * ne)));
    side = side < 16 ? 16 : side;
    int64_t gw = W / side + 1, gh = H / side + 1;
    if (gw * gh > 4 * (int64_t)ne + 64)
        return 0;
    if (scratch((void **)&r->count, &r->cap_count, (uint32_t)(gw * gh + 1), sizeof *r->count))
        return -1;
    uint32_t ncell = (uint32_t)(gw * gh);
    memset(r->count, 0, (ncell + 1) * sizeof *r->count);
    uint64_t put = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < ne; i++) {
            const struct edge *e = &r->edge[i];
            int64_t cx0 = ((e->x0 < e->x1 ? e->x0 : e->x1) - gx0) / side;
            int64_t cx1 = ((e->x0 > e->x1 ? e->x0 : e->x1) - gx0) / side;
            int64_t cy0 = ((e->y0 < e->y1 ? e->y0 : e->y1) - gy0) / side;
            int64_t cy1 = ((e->y0 > e->y1 ? e->y0 : e->y1) - gy0) / side;
            if (pass == 0) {
                put += (uint64_t)((cx1 - cx0 + 1) * (cy1 - cy0 + 1));
                if (put > 16 * (uint64_t)ne + 1024)
                    return 0;
            }
            for (int64_t y = cy0; y <= cy1; y++)
                for (int64_t x = cx0; x <= cx1; x++) {
                    if (pass == 0)
                        r->count[y * gw + x + 1]++;
                    else /* count[q] ends as cell q's end */
                        r->slot[r->count[y * gw + x]++] = i;
                }
        }
        if (pass == 1)
            break;
        uint64_t pairs = 0;
        for (uint32_t q = 0; q < ncell; q++) {
            pairs += (uint64_t)r->count[q + 1] * r->count[q + 1];
            r->count[q + 1] += r->count[q];
        }
        if (pairs > 64 * (uint64_t)ne + 4096)
            return 0;
        if (scratch((void **)&r->slot, &r->cap_slot, (uint32_t)put, sizeof *r->slot) != 0)
            return -1;
    }
    for (uint32_t q = 0, from = 0; q < ncell; from = r->count[q], q++)
        for (uint32_t i = from; i < r->count[q]; i++)
            for (uint32_t j = i + 1; j < r->count[q]; j++)
                if (meet(&r->edge[r->slot[i]], &r->edge[r->slot[j]]))
                    return 0;
    /* the contours neither cross nor touch: each is inside or outside
     * each other. The winding just inside a contour is its own sign plus
     * those of the contours around it; it and the winding just outside
     * must each be 0 or the one sign of the whole outline. */
    if (nc == 1)
        return 1;
    int s = 0;
    a = 0;
    for (uint32_t c = 0; c < nc; a = (uint32_t)r->end[c] + 1, c++) {
        if (r->csign[c] == 0)
            continue; /* a point */
        int w = 0;
        for (uint32_t d = 0, da = 0; d < nc; da = (uint32_t)r->end[d] + 1, d++)
            if (d != c && r->csign[d] != 0 &&
                inside(r->pt, da, (uint32_t)r->end[d], r->pt[a].x, r->pt[a].y))
                w += r->csign[d];
        int win = w + r->csign[c];
        if (s == 0)
            s = win != 0 ? win : w;
        if ((win != 0 && win != s) || (w != 0 && w != s) || s * s > 1)
            return 0;
    }
    return 1;
}

/* Renders o into the w x h bitmap at a (rows top down, stride apart). A
 * band of rows that overflows FreeType's fixed pool is halved, but not
 * below one row: a row of more cells than the pool holds (thousands of px
 * wide) is refused with Raster_Overflow; the bitmap is then drawn as two
 * halves side by side, the outline moved left for the right one, and the
 * bytes are those of one pass. 0, or -1 when out of memory. */
static int render(FT_Library ft, FT_Outline *o, uint8_t *a, int w, int h, int stride)
{
    FT_Bitmap bm;
    memset(&bm, 0, sizeof bm);
    bm.rows = (unsigned)h;
    bm.width = (unsigned)w;
    bm.pitch = stride; /* positive: FreeType's row 0 is the last in memory */
    bm.buffer = a;
    bm.num_grays = 256;
    bm.pixel_mode = FT_PIXEL_MODE_GRAY;
    FT_Error e = FT_Outline_Get_Bitmap(ft, o, &bm);
    if (e != FT_Err_Raster_Overflow || w < 2)
        return e == 0 ? 0 : -1;
    int left = w / 2;
    if (render(ft, o, a, left, h, stride) != 0)
        return -1;
    FT_Outline_Translate(o, -(FT_Pos)left * 64, 0);
    int st = render(ft, o, a + left, w - left, h, stride);
    FT_Outline_Translate(o, (FT_Pos)left * 64, 0);
    return st;
}

int rf_raster_fill(rf_raster_t *r, int evenodd, uint8_t *a, int w, int h, int stride, int64_t x0,
                   int64_t y0)
{
    if (r->bad)
        return r->bad == 2 ? -1 : 1;
    if (r->npt == 0 || w <= 0 || h <= 0)
        return 0;
    if (!(llabs(x0) < (1 << 24) && llabs(y0) < (1 << 24) && h < (1 << 24)))
        return 1;
    if (r->ft == NULL && FT_Init_FreeType(&r->ft) != 0) {
        r->ft = NULL;
        return -1; /* FreeType fails only when out of memory */
    }
    /* the open contour's end, taken back after */
    r->end[r->nend] = (short)(r->npt - 1);
    FT_Outline o = { (short)(r->nend + 1), (short)r->npt, r->pt, r->tag, r->end,
                     evenodd ? FT_OUTLINE_EVEN_ODD_FILL : FT_OUTLINE_NONE };
    /* the window's bottom-left corner at FreeType's (0, 0), y up: a
     * reflection, which winding rules do not see */
    FT_Pos dx = (FT_Pos)x0 * 64, top = (FT_Pos)(y0 + h) * 64;
    for (uint32_t i = 0; i < r->npt; i++) {
        r->pt[i].x -= dx;
        r->pt[i].y = top - r->pt[i].y;
    }
    int st = render(r->ft, &o, a, w, h, stride);
    for (uint32_t i = 0; i < r->npt; i++) {
        r->pt[i].x += dx;
        r->pt[i].y = top - r->pt[i].y;
    }
    return st;
}
