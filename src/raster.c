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
    if (r->ft != NULL)
        FT_Done_FreeType(r->ft);
    free(r);
}

void rf_raster_reset(rf_raster_t *r)
{
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
