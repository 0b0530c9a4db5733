/* offset.h - the outline of a stroke around one closed polygon, as two
 * contours that do not cross: the polygon's outer offset, with its joins,
 * and its inner offset, reversed; and around an open polyline that runs
 * one way along an axis, as one contour that does not cross itself.
 *
 * Owns nothing: rf_offset_ring() reads a polygon (a shape's outline on the
 * device, its curves already cut into lines) and adds the outline of its
 * stroke to an rf_raster_t (raster.h), whose rasterizer then gives each
 * pixel the exact area of the stroke. The point: FreeType's rasterizer
 * adds up the winding of a pixel's parts before its fill rule, so an
 * outline whose parts overlap (cairo's stroker makes one piece per edge
 * and per join, overlapping at every vertex) comes out too dark where
 * they cross. These two contours have opposite directions and never
 * cross: every point is wound 0 or 1 times, and the rule cannot err.
 *
 * The geometry is that of cairo's stroker and SVG's: the pen a disk of
 * radius hw, each edge offset by hw on both sides; at each vertex, on the
 * side outside its turn the join (a miter, beveled where 1 / cos(turn / 2)
 * exceeds the miter limit as cairo tests it; a round arc cut into chords
 * within tol px; a bevel), on the side inside it the meeting point of the
 * two edges' offsets. A vertex of a flattened curve turns by a few
 * degrees: there every join lies within tol / 8 of the miter's tip, which
 * stands for them all.
 *
 * When the two contours cannot cross, and only then, the outline is
 * added: each edge keeps a length on both sides between the offsets of
 * its neighbours (a pen narrower than the tightest curve, a stroke
 * narrower than the rect), the turns go once around and none back on
 * itself; and either every turn goes the same way (a convex polygon: then
 * it is proven), or a certificate holds: both contours are star-shaped
 * around the polygon's centroid and each point of either lies on the
 * proper side of the other's edge that spans its direction (one walk
 * round, O(n)). Otherwise the stroke overlaps itself, nothing is added,
 * and the caller strokes another way.
 *
 * Nothing allocates here but rf_raster's points. Thread-safety: none
 * needed (no state). */
#ifndef RF_OFFSET_H
#define RF_OFFSET_H

#include <stdint.h>

#include "raster.h"

typedef enum rf_offset_join {
    RF_OFFSET_MITER,
    RF_OFFSET_ROUND,
    RF_OFFSET_BEVEL
} rf_offset_join_t;

/* Adds to out, which must be empty (raster.h: rf_raster_reset), the
 * outline of the stroke with a pen of radius hw px (0 < hw < 1e7) of the
 * closed polygon of n points xy (x, y pairs, device px; the edge from the
 * last point back to the first is implied, an edge shorter than 1e-6 px
 * is skipped), joins as join and miter_limit (>= 1) say, round joins cut
 * into chords within tol px: two contours. Returns 0 when added; 1 when
 * the contours could cross (see above), the polygon has fewer than 3
 * edges or no area, or out took no more points (RF_RASTER_MAX_POINTS, no
 * memory): out is empty again. */
int rf_offset_ring(rf_raster_t *out, const double *xy, uint32_t n, double hw,
                   rf_offset_join_t join, double miter_limit, double tol);

/* The caps of an open stroke rf_offset_open draws (a round cap's arc
 * would turn back along the path: its outline is left to the caller). */
typedef enum rf_offset_cap {
    RF_OFFSET_BUTT,
    RF_OFFSET_SQUARE
} rf_offset_cap_t;

/* Adds to out, which must be empty, the outline of the stroke of the open
 * polyline of n points xy (an edge shorter than 1e-6 px skipped), pen
 * radius hw, joins as rf_offset_ring, caps as cap, each cap square to
 * dir0 (dir1), the direction the figure starts (ends) in when given (a
 * curve's tangent, of any length; NULL: the first, last edge's; a turn
 * from it to the edge is joined as any): one contour, its
 * offset on one side forwards with the joins outside each turn and the
 * meeting points inside it, the end cap, the other side backwards, the
 * start cap. Only when the polyline runs one way along x or along y (its
 * points' x, or y, strictly increasing or strictly decreasing: a plot, a
 * wave, a connector) and the contour is shown not to cross itself, on
 * its points as FreeType gets them (rounded to 1/64 px, exact integer
 * tests): both sides run the same way along that axis, strictly, and one
 * lies strictly on one side of the other all along (each point of each
 * against the other's edge over it, one walk, O(n)), the caps counted as
 * the sides' first and last edges. Then every point is wound 0 or 1
 * times and FreeType's area is exact. And only when every edge's
 * rectangle (the pen along it) lies between the caps' lines (but for
 * 1/256 px): after a short first edge and a turn, the next edge's
 * rectangle would stand out behind the cap, where cairo paints it and the
 * outline does not reach. Returns 0 when added; 1 when the polyline is
 * not one of those, an edge turns back on the one before it, the contour
 * could cross itself, or out took no more points: out is empty again. */
typedef struct rf_offset_open_info {
    uint32_t n0, nall;   /* the first side's points, and all */
    int axis, s;         /* the axis (0: x, 1: y) and the way (1, -1) the polyline runs */
} rf_offset_open_info_t;
int rf_offset_open(rf_raster_t *out, const double *xy, uint32_t n, const double *dir0,
                   const double *dir1, double hw, rf_offset_join_t join, double miter_limit,
                   rf_offset_cap_t cap, double tol, rf_offset_open_info_t *info);

/* The contour rf_offset_open added to src (what it said in info), one
 * slab of px whole pixels across its axis at a time: for each slab
 * [c0, c0 + px) (device columns when the axis is x, rows when y) the
 * contour spans, piece is reset to the contour's part over the slab and
 * a line more on each side (over the slab's pixels its coverage is the
 * contour's: the lines joining the sides lie outside them), and
 * fill(ctx, piece, c0, c0 + px) is called, which should rasterize it
 * with a window within the slab; a fill that returns nonzero stops the
 * walk and its value is returned; 0 when every slab was filled. Why:
 * FreeType walks every line of an outline for each band of about 10 rows
 * it rasterizes, so a long stroke's lines went round hundreds of times
 * (1.2 M instructions for a 1,920 px plot line); a slab's are few. */
int rf_offset_open_pieces(const rf_raster_t *src, const rf_offset_open_info_t *info, int px,
                          rf_raster_t *piece,
                          int (*fill)(void *ctx, rf_raster_t *piece, int64_t c0, int64_t c1),
                          void *ctx);

#endif
