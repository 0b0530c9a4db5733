/* gradfill.h - an opaque linear gradient painted into a box of whole
 * pixels, and a radial gradient painted through a coverage mask, byte for
 * byte as cairo paints them, at a fraction of the cost.
 *
 * Owns: the reproduction of what cairo_fill() of a pixel-aligned
 * rectangle under a linear gradient (CAIRO_EXTEND_PAD, every stop opaque)
 * writes: cairo 1.16's setup of the pixman gradient (stop conversion, the
 * pattern matrix split into a pixman transform and an integer offset, the
 * fix-up at the middle of the box) and pixman 0.42's linear scanline and
 * gradient walker, the same integer and float operations in the same
 * order. pixman evaluates every pixel (about 6 ns each: 12 ms of a cold
 * 1080p `seek` of the showcase, whose backdrop is such a gradient); here a
 * row is bisected instead: within one pair of stops each channel of the
 * walker is monotone in the position, so two ends of a span with the same
 * color are the span's color, and only the pixels around a color change
 * are evaluated.
 *
 * And the reproduction of what cairo_mask_surface() of an A8 coverage mask
 * writes under a linear gradient or the radial gradient
 * cairo_pattern_create_radial(cx, cy, 0, cx, cy, r) (PAD, stops of any
 * alpha): cairo's spans compositor hands pixman the bounded box, and
 * pixman's general path fetches the mask, evaluates the gradient where
 * the mask is not 0 (radial_get_scanline in its affine branch: B, C and
 * their differences in exact integers, the discriminant, its root and t
 * in doubles) and combines OVER (combine_over_u with a mask). pixman
 * spends about 75 instructions a covered pixel on a radial gradient,
 * through function pointers and a walker reset per segment change; here
 * the walker's color changes are moved to the squared distance, so a
 * pixel is two integer compares, and the combine is pixman's SSE2
 * arithmetic four pixels at a time (gradfill-mask.c). A linear
 * gradient's row is the one the box fill computes, then combined.
 *
 * Exactness is held by tests/check_gradfill.c (thousands of random
 * gradients, matrices, stops, boxes and masks against cairo itself) and,
 * in every process, by probes (rf_gradfill_usable, rf_gradfill_mask_usable):
 * a few gradients drawn both ways
 * once; when any pixel differs (another cairo or pixman, another FPU) the
 * renderer keeps drawing with cairo.
 *
 * A box of RF_GRADFILL_SPLIT pixels or more and more than 16 rows, given
 * a helper (helper.h), has every other block of 16 rows painted on the
 * helper's thread while the caller paints the others (a linear fill only
 * when one list of color changes serves every row, and a box fill only
 * when its rows are not copies of the first): every row is computed from
 * the box's shared, read-only tables alone, so the bytes are the same on
 * one thread or two (tests/check_gradfill.c compares them).
 *
 * Level 1: includes cairo.h and helper.h (level 0). Thread-safety: no
 * state but the probe's result, computed once (pthread_once); a call
 * with a helper uses it (its owner's thread calls). */
#ifndef RF_GRADFILL_H
#define RF_GRADFILL_H

#include <cairo.h>
#include <stdint.h>

#include "helper.h"

/* The most stops painted here; a gradient with more is cairo's. */
#define RF_GRADFILL_MAX_STOPS 32
/* The fewest pixels of a box whose rows are shared with a helper (about
 * 0.1 ms of rows on each thread: more than a post and a wait cost). */
#define RF_GRADFILL_SPLIT 65536

/* A stop as given to cairo_pattern_add_color_stop_rgba: offset, red,
 * green, blue, alpha (straight; clamped to [0, 1] as cairo clamps them),
 * in the order they were added (cairo sorts them stably by offset).
 * rf_gradfill_linear does not read alpha: its stops are opaque. */
typedef struct {
    double offset, r, g, b, a;
} rf_gradfill_stop_t;

/* Paints into data (ARGB32 rows of stride bytes, width x height) the box
 * box[0] <= x < box[2], box[1] <= y < box[3] (device pixels, already
 * inside the image) of the linear gradient from (x0, y0) to (x1, y1) in
 * user space, opaque stops stops[0 .. n-1], seen through the current
 * transformation whose inverse is inv (the matrix cairo_device_to_user
 * applies), as cairo_fill() of that box would paint it with operator
 * OVER. Returns 1 when it painted; 0, with nothing written, for a case it
 * does not reproduce (n of 0 or over RF_GRADFILL_MAX_STOPS, coordinates
 * beyond pixman's range, a singular matrix): the caller draws with cairo.
 * helper: NULL, or the second thread of a large box. */
int rf_gradfill_linear(unsigned char *data, int stride, int width, int height, const int box[4],
                       const cairo_matrix_t *inv, double x0, double y0, double x1, double y1,
                       const rf_gradfill_stop_t *stops, int n, rf_helper_t *helper);

/* A coverage mask: 8-bit rows of stride bytes, w x h, its pixel (0, 0)
 * at device pixel (x, y); helper (helper.h, may be NULL): the fill's
 * second thread (below). */
typedef struct {
    const uint8_t *a;
    int stride, x, y, w, h;
    rf_helper_t *helper;
} rf_gradfill_mask_t;

/* Paints into data (ARGB32 rows of stride bytes, width x height) the
 * radial gradient from the circle of radius 0 to the circle of the given
 * radius, both centered on (cx, cy) in user space (CAIRO_EXTEND_PAD),
 * stops[0 .. n-1] with their alpha, seen through the transformation whose
 * inverse is inv and through mask, as cairo_mask_surface() of mask under
 * the identity would paint it with operator OVER, the source set under
 * that transformation, the clip the rectangle clip[0] <= x < clip[2],
 * clip[1] <= y < clip[3] (device pixels). Only the pixels the mask covers
 * are computed (pixman evaluates those only, too). Returns 1 when it
 * painted (or there was nothing to paint); 0, with nothing written, for a
 * case it does not reproduce (a radius or a center beyond pixman's range,
 * a radius under 1/256, a singular matrix, n of 0 or over
 * RF_GRADFILL_MAX_STOPS): the caller draws with cairo. */
int rf_gradfill_radial(unsigned char *data, int stride, int width, int height, const int clip[4],
                       const cairo_matrix_t *inv, double cx, double cy, double radius,
                       const rf_gradfill_stop_t *stops, int n, const rf_gradfill_mask_t *mask);

/* The same for the linear gradient from (x0, y0) to (x1, y1) in user
 * space (CAIRO_EXTEND_PAD), stops[0 .. n-1] with their alpha; 0 also when
 * the box is wider than 4,096 pixels, or cairo would paint a solid color
 * (every stop one color, the ends within DBL_EPSILON). */
int rf_gradfill_linear_mask(unsigned char *data, int stride, int width, int height,
                            const int clip[4], const cairo_matrix_t *inv, double x0, double y0,
                            double x1, double y1, const rf_gradfill_stop_t *stops, int n,
                            const rf_gradfill_mask_t *mask);

/* The same for a solid color c (red, green, blue, alpha: straight, as
 * given to cairo_set_source_rgba, which clamps them to [0, 1]; finite):
 * pixman's over_n_8_8888 with the color cairo hands it (its premultiplied
 * shorts, each cut to 8 bits). Always paints. */
void rf_gradfill_solid_mask(unsigned char *data, int stride, int width, int height,
                            const int clip[4], const double c[4], const rf_gradfill_mask_t *mask);

/* The inverse of cr's current transformation, read back exactly as cairo
 * holds it (cairo_device_to_user of the unit vectors and the origin; the
 * target must have no device offset or scale). */
void rf_gradfill_inverse(cairo_t *cr, cairo_matrix_t *inv);

/* 1 when rf_gradfill_linear paints what cairo paints in this process
 * (checked once, on a few gradients drawn both ways), else 0. */
int rf_gradfill_usable(void);

/* The same for rf_gradfill_radial, rf_gradfill_linear_mask and
 * rf_gradfill_solid_mask. */
int rf_gradfill_mask_usable(void);

#endif
