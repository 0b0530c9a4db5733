/* raster.h - coverage of a polygon outline by FreeType's smooth
 * rasterizer: the exact area of each pixel the outline covers.
 *
 * Owns: rf_raster_t, one outline being built (contours of points in
 * device pixels, y down, kept at 1/64 px) and the FreeType library that
 * rasterizes it. Lines only: the caller cuts its curves into lines as
 * closely as it needs (rf_raster_cubic and rf_raster_arc below, which the
 * shape sink of render-huge.c calls). rf_raster_fill() writes the
 * coverage (0..255)
 * of the outline, by the nonzero or the even-odd rule, into a window of an
 * A8 buffer: a pixel's byte depends only on the outline, not on the window
 * (FreeType carries the cover of what lies left of the window), so any
 * window over the same pixels gives the same bytes.
 *
 * Why FreeType and not cairo's fill: its scan converter samples 15
 * sub-rows where an edge starts or ends in a row (8.5 of 255 off there),
 * and it costs 2 to 3 times the instructions (BENCHMARKS.md, "Shape fills
 * by FreeType"). The limit: FreeType sums the winding of a pixel's parts
 * before applying the rule, so where two edges of the same direction
 * cross inside a pixel (overlapping contours, a self-crossing path) the
 * pixel comes out too dark, by 25 of 255 on two crossing bars (FreeType
 * itself supersamples glyphs flagged FT_OUTLINE_OVERLAP). Give it outlines
 * whose contours do not cross: render-raster.c gives it the fills of
 * circles, ellipses and rects (one convex contour each) and the outlines
 * of strokes that offset.h shows cannot cross.
 *
 * Memory: the points grow by doubling and are kept: once an outline of
 * that size has been built, building another allocates nothing.
 * Thread-safety: one thread per rf_raster_t (each has its own FreeType
 * library).
 */
#ifndef RF_RASTER_H
#define RF_RASTER_H

#include <stdint.h>

/* The most points and contours of an outline FreeType takes (its counts
 * are shorts): rf_raster_fill() refuses more (status 1). */
#define RF_RASTER_MAX_POINTS 32767

typedef struct rf_raster rf_raster_t;

/* A new rasterizer with an empty outline; NULL when out of memory. */
rf_raster_t *rf_raster_create(void);
void rf_raster_destroy(rf_raster_t *r);

/* Forgets the outline. */
void rf_raster_reset(rf_raster_t *r);
/* Counts the rf_raster_reset calls: an outline a caller built is still
 * the one the raster holds while this says what it said after the build
 * (shifts and fills keep it). */
uint64_t rf_raster_generation(const rf_raster_t *r);
/* Starts a contour at (x, y) (device px, y down); the previous one is
 * closed. Points are rounded to 1/64 px; a coordinate not finite or past
 * 2^24 px marks the outline unusable (rf_raster_fill says 1). */
void rf_raster_move(rf_raster_t *r, double x, double y);
/* A line from the current point to (x, y); the first point of an outline
 * without a move starts a contour there. */
void rf_raster_line(rf_raster_t *r, double x, double y);

#define RF_RASTER_MAX_LINES 8192
/* Lines from p's start (the current point) along the cubic p (x0 y0 x1
 * y1 x2 y2 x3 y3, device px) to its end, at n equal steps of its
 * parameter, n^2 >= 3/4 M / tol for the larger second difference M of its
 * control points (Wang's bound: no point of it further than tol px from
 * them). 1, or 0 when that takes more than RF_RASTER_MAX_LINES lines (or
 * a coordinate is not a number): then as many lines, further than tol. */
int rf_raster_cubic(rf_raster_t *r, const double p[8], double tol);
/* Lines from the current point (at a0) along the arc c + u cos(a) +
 * v sin(a) to a1 (an ellipse's arc on the device), at equal steps of a,
 * enough that no point of it is further than tol px from them (up to
 * 8,192 lines: within tol for radii up to 200,000 px). */
void rf_raster_arc(rf_raster_t *r, const double c[2], const double u[2], const double v[2],
                   double a0, double a1, double tol);

/* The outline's points as given, not rounded (x, y pairs in *xy), when
 * it is one contour: their number; 0 when it is empty, has more than one
 * contour, or is unusable. *xy stays valid until the outline changes. */
uint32_t rf_raster_polygon(const rf_raster_t *r, const double **xy);
/* Every point of the outline as given, contours one after another: their
 * number (0 when unusable), the points in *xy as above. */
uint32_t rf_raster_points(const rf_raster_t *r, const double **xy);
/* Point i of the outline as FreeType gets it, rounded to 1/64 px (26.6
 * fixed point, device, y down) into p: 1; 0 when there is no point i or
 * the outline is unusable. */
int rf_raster_point_fixed(const rf_raster_t *r, uint32_t i, int64_t p[2]);
/* The whole pixels the outline's points touch, *x0, *y0 inclusive, *x1,
 * *y1 exclusive, a pixel more each side: 1; 0 when the outline is empty,
 * -1 when it is unusable (rf_raster_fill would say 1), -2 when memory ran
 * out building it. */
int rf_raster_bounds(const rf_raster_t *r, int64_t *x0, int64_t *y0, int64_t *x1,
                     int64_t *y1);

/* Moves every point of the outline by (dx, dy) / 64 px, exactly: the
 * rounded points by whole 1/64 units, so what rf_raster_simple says of
 * the outline holds of the moved one. */
void rf_raster_shift(rf_raster_t *r, int dx, int dy);

/* Whether FreeType's coverage of the outline, nonzero rule, is its exact
 * area in each pixel (up to FreeType's 8-bit rounding): 1 when, at the
 * points as rasterized (1/64 px), no two edges of it meet except each
 * edge with the next of its contour at their common corner (no crossing,
 * no touching, no folding back), and the winding is 0 or one same sign
 * (+1 or -1) everywhere: a contour inside another must turn the other
 * way, as a hole does, unless a hole lies between them. 0 when it does
 * not hold, cannot be shown within a bounded amount of work (about 64
 * pair tests an edge: edges are sorted into bands of rows and tested in
 * pairs within a band), the box is past 65,536 px, or the outline is
 * unusable. A glyph whose contours overlap (variable fonts keep them)
 * says 0: FreeType would sum the overlap twice where edges cross inside
 * a pixel. Allocates scratch the first time (kept, like the points):
 * -1 when that memory, or the outline's own, ran out (no answer). */
int rf_raster_simple(rf_raster_t *r);

/* Adds nothing, writes: the coverage of the outline over the device pixels
 * [x0, x0 + w) x [y0, y0 + h) into a (the pixel (x0, y0); rows stride
 * apart, zero before the call: FreeType writes only where there is
 * coverage), evenodd nonzero for the even-odd rule. Returns 0, -1 when
 * out of memory, 1 when the outline cannot be drawn this way (more than
 * RF_RASTER_MAX_POINTS points, or a point marked unusable): the caller
 * fills it another way. */
int rf_raster_fill(rf_raster_t *r, int evenodd, uint8_t *a, int w, int h, int stride, int64_t x0,
                   int64_t y0);

#endif
