/* offset.h - the outline of a stroke around one closed polygon, as two
 * contours that do not cross: the polygon's outer offset, with its joins,
 * and its inner offset, reversed.
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

#endif
