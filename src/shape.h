/* shape.h - what a layer type's drawing hooks (layer.h) work with.
 *
 * Owns: rf_shape_t, one frame's geometry of one shape, and rf_hsink_t, the
 * double-precision path sink for shapes too large for cairo's fixed-point
 * coordinates (render-huge.c). The renderer owns both and hands them to the
 * hooks of rf_layer_class_t; a hook only fills or feeds them. Nothing here
 * allocates, and each renderer (one per thread) has its own.
 */
#ifndef RF_SHAPE_H
#define RF_SHAPE_H

#include <cairo.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "layer.h"
#include "path.h"

#define RF_PI 3.14159265358979323846
#define RF_SQRT1_2 0.70710678118654752440 /* 1 / sqrt(2) */

/* One shape this frame: what the renderer hands the hooks, and the
 * geometry the shape hook works out for the path hooks. */
typedef struct rf_shape {
    const rf_layer_t *L;       /* in: the layer */
    const double *slots;       /* in: this frame's values */
    const cairo_matrix_t *m;   /* in: the layer's device matrix */
    double w, h, rad;          /* rect; circle r in w; ellipse rx, ry in w, h */
    cairo_matrix_t em;         /* ellipse: S(rx, ry) inside the layer matrix */
    rf_path_op_t *ops;         /* in: the renderer's op buffer (ops_max ops) */
    size_t ops_cap;
    size_t nops;               /* out: path ops in ops */
    void *state;               /* in: the layer's state in this renderer
                                  (layer.h state_create), NULL without */
} rf_shape_t;

/* Negative or NaN sizes count as 0. */
static inline double rf_nonneg(double v)
{
    return v > 0 ? v : 0; /* NaN: 0 */
}

/* The draw hook of every type that is a path (layer.h): builds the path
 * (shape, path or huge_path) and fills it (unless RF_CLASS_NO_FILL), then
 * strokes it, with the layer's paints, at opacity op under the device
 * matrix m; layer L is node idx of renderer r (render.c). */
void rf_render_shape(struct rf_renderer *r, const rf_layer_t *L, uint32_t idx,
                     const cairo_matrix_t *m, double op);

/* The state (layer.h state_create) of node idx of renderer r. */
void *rf_render_state(struct rf_renderer *r, uint32_t idx);

/* The scene renderer r draws, and its slot array for this frame. */
const struct rf_scene *rf_render_scene(const struct rf_renderer *r);

/* The cairo context r draws into (a draw hook that paints otherwise, an
 * image: it leaves the context's state as it found it). */
cairo_t *rf_render_cairo(struct rf_renderer *r);

/* The time of the frame r is drawing. */
double rf_render_time(const struct rf_renderer *r);

/* Records the first error of this frame (a layer that cannot be drawn):
 * the frame fails with it. */
void rf_render_fail(struct rf_renderer *r, const char *msg);
/* The same when memory ran out: the frame fails as an I/O failure
 * (rf_renderer_draw returns -1 with errno ENOMEM, exit 3), not as a
 * scene that cannot be drawn. */
void rf_render_fail_oom(struct rf_renderer *r, const char *msg);

/* ---- coverage: a layer that works out its own coverage (text drawn
 * through glyph masks, layer-text.c) adds it into the renderer's A8
 * buffer over the view and fills it with its paint ---- */
typedef struct rf_coverage {
    uint8_t *a;                /* w x h bytes, rows stride apart, all 0 */
    int w, h, stride;
    int ox, oy;                /* the device pixel of a[0] */
    int x0, y0, x1, y1;        /* what the caller touched: a[y0..y1) x [x0..x1)
                                  (the caller widens it as it adds) */
} rf_coverage_t;

/* The buffer over the current view, cleared, with an empty touched
 * region; NULL when out of memory. Allocates only when the view is larger
 * than any before. One user at a time: fill it before drawing anything
 * else. */
rf_coverage_t *rf_render_coverage(struct rf_renderer *r);

/* The renderer's scratch rasterizer (raster.h), for a layer that builds
 * its own outlines (glyph masks): created on first use, kept with the
 * renderer; NULL when out of memory. Its outline is the caller's until it
 * returns: one user at a time. */
struct rf_raster *rf_render_raster(struct rf_renderer *r);

/* The renderer's glyph mask cache (glyphmask.h), shared by its text
 * layers: created on first use, kept with the renderer; NULL when out of
 * memory. */
struct rf_glyph_masks *rf_render_glyph_masks(struct rf_renderer *r);

/* Fills layer L's fill paint (under its device matrix m, at full
 * opacity) through the touched region of the coverage as a mask, then
 * clears the region. */
void rf_render_fill_coverage(struct rf_renderer *r, const rf_layer_t *L, uint32_t idx,
                             const cairo_matrix_t *m);

/* Whether cairo accepts m as a matrix and its inverse is finite (render.c). */
int rf_matrix_usable(const cairo_matrix_t *m);

/* ---- the huge-coordinate sink (render-huge.c) ----
 * Points are given in the layer's coordinates and mapped by m; the sink
 * clips (a fill) or cuts (a stroke) in double precision and feeds cairo
 * only what lies near the canvas. */
typedef struct rf_hsink rf_hsink_t;

void rf_hsink_move(rf_hsink_t *g, const cairo_matrix_t *m, double x, double y);
void rf_hsink_line(rf_hsink_t *g, const cairo_matrix_t *m, double x, double y);
/* A cubic from the current point through (x1, y1), (x2, y2) to (x3, y3). */
void rf_hsink_curve(rf_hsink_t *g, const cairo_matrix_t *m, double x1, double y1, double x2,
                    double y2, double x3, double y3);
/* An arc of the circle (cx, cy, radius q) from angle a0 to a1; the current
 * point is at a0. */
void rf_hsink_arc(rf_hsink_t *g, const cairo_matrix_t *m, double cx, double cy, double q,
                  double a0, double a1);
/* The whole unit circle under em (device space): an ellipse. */
void rf_hsink_ellipse(rf_hsink_t *g, const cairo_matrix_t *em);
void rf_hsink_close(rf_hsink_t *g);

#endif
