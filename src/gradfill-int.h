/* gradfill-int.h - what gradfill.c (linear gradients) and gradfill-mask.c
 * (gradients through a coverage mask, radial ones) share: the steps of
 * cairo 1.16 and pixman 0.42 both repeat, with their types. Private to the
 * gradfill module: nothing else includes it. */
#ifndef RF_GRADFILL_INT_H
#define RF_GRADFILL_INT_H

#include <stdint.h>

#include "gradfill.h"

#define GRADFILL_FIXED_1 65536 /* pixman_fixed_1 */
/* The most rows or columns from 0 pixman's pixel coordinates reach here
 * (pixman_int_to_fixed wraps at 32768). */
#define GRADFILL_COORD_MAX 32000
/* The most color changes kept for a box (12 KiB of stack); a box with more
 * gets a list per row (linear), or is walked pixel by pixel. */
#define GRADFILL_MAX_BREAKS 1024

/* A pixman_transform_t: 16.16 fixed point. */
typedef struct {
    int32_t m[3][3];
} xform_t;

/* One walker segment: between stops[n - 1] and stops[n] (sentinels at
 * either end for PAD), the coefficients gradient_walker_reset computes. */
typedef struct {
    float a_s, a_b, r_s, r_b, g_s, g_b, b_s, b_b;
} seg_t;

typedef struct {
    int count;                               /* real stops */
    int32_t sx[RF_GRADFILL_MAX_STOPS];       /* their positions, 16.16 */
    seg_t seg[RF_GRADFILL_MAX_STOPS + 1];    /* segment n: x < sx[n], x >= sx[n - 1] */
} walker_t;

/* The widest box whose positions along a row are tabled (32 KiB of stack)
 * for rows of dense color changes, and the widest linear fill through a
 * mask. */
#define RF_GRADFILL_DTAB 4096

/* The rows of a box, y0 .. y1-1, with scratch (GRADFILL_SCRATCH words of
 * the calling thread's own). */
#define GRADFILL_SCRATCH RF_GRADFILL_DTAB
typedef void (*gradfill_rows_fn)(const void *ctx, int y0, int y1, uint32_t *scratch);

/* fn over rows 0 .. bh-1 of a bw-wide box: on the calling thread alone,
 * or, given a helper, RF_GRADFILL_SPLIT pixels or more and more than 16
 * rows, in blocks of 16 rows, every other one on the helper's thread at
 * the same time (fn must write only its own rows, and compute each the
 * same whatever rows it was given with it; callers whose rows write
 * shared state pass no helper). */
void gradfill_rows(rf_helper_t *helper, int bw, int bh, gradfill_rows_fn fn, const void *ctx);

/* _cairo_fixed_16_16_from_double: d * 65536 rounded to nearest (even). */
int32_t gradfill_fixed(double d);

/* pixman_transform_point_3d: 1 when the result fits pixman_fixed_t. */
int gradfill_xform_point(const xform_t *t, int32_t v[3]);

/* How pixman samples the pattern of matrix p (the inverse of the matrix
 * the source was set under) over the bounded box box[4] that cairo hands
 * it: _cairo_matrix_to_pixman_matrix_offset (the filter cairo picks, the
 * fix-up at the box's middle) into the transform *t (*has 0: none, as
 * pixman_image_set_transform drops the identity), and the source pixel
 * (*sx, *sy) of the box's corner. 0 when cairo would fail, or pixman's
 * pixel coordinates would wrap (GRADFILL_COORD_MAX). */
int gradfill_source(const cairo_matrix_t *p, const int box[4], xform_t *t, int *has, int *sx,
                    int *sy);

/* The walker of the stops as cairo adds them (offsets clamped, sorted
 * stably, colors as shorts; alpha 0: every stop opaque, else its own) and
 * pixman's gradient_property_changed sets them up for PAD. Returns 1 when
 * every stop has the same color (alpha included when alpha is 1), else 0.
 * n is 1 to RF_GRADFILL_MAX_STOPS. */
int gradfill_walker_init(walker_t *wk, const rf_gradfill_stop_t *stops, int n, int alpha);

/* The colors along the positions lo .. hi: every position where the color
 * (or the segment) changes, found by splitting [lo, hi] until both ends
 * agree (same segment, same color, and the span between shown to be that
 * color: at once where the segment's alpha is constant, every channel
 * being monotone in the position then; by bounds on the premultiplied
 * channels otherwise) or are neighbors. bx[k] is the first position of color bc[k], in increasing
 * order; *c0 is the color at lo. Returns the number of changes, or -1 when
 * there are more than cap. */
int gradfill_color_breaks(const walker_t *wk, int64_t lo, int64_t hi, int64_t *bx, uint32_t *bc,
                          int cap, uint32_t *c0);

/* The widest combine to use: 2 (AVX2 where the CPU has it, else SSE2)
 * unless RF_GRADFILL_SCALAR says "sse2" (1: SSE2) or anything else but
 * "0" (0: one pixel at a time). Every width writes the same bytes. */
int gradfill_simd(void);

/* 1 when every stop's alpha is at most 0xff as cairo's short: cairo
 * paints nothing (_cairo_pattern_is_clear). */
int gradfill_stops_clear(const rf_gradfill_stop_t *stops, int n);

/* The box cairo's compositor hands pixman for a mask (its rectangle, the
 * canvas width x height, the clip) into b; 0 when empty. */
int gradfill_bounded(int width, int height, const int clip[4], const rf_gradfill_mask_t *mask,
                     int b[4]);

/* out = src IN m OVER out over w pixels: combine_over_u with a mask, four
 * pixels at a time as pixman's SSE2 combiner does (the same integer
 * operations: each product (x * a + 128) * 257 >> 16, the sum saturated),
 * or one at a time (simd 0, or without SSE2): the same bytes. src must be
 * defined where m is 0 too (its value does not matter). */
void gradfill_over_row(uint32_t *out, const uint32_t *src, const uint8_t *m, int w, int simd);

/* The most color changes worth listing for n pixels when a change costs
 * about cost pixels of the walk (at least 4, at most GRADFILL_MAX_BREAKS);
 * past it the pixels are walked one by one. */
int gradfill_breaks_cap(int64_t n, int cost);

/* The segment of position x (16.16): the first stop past it. */
static inline int gradfill_seg_of(const walker_t *wk, int64_t x)
{
    int n = 0;
    while (n < wk->count && !(x < wk->sx[n]))
        n++;
    return n;
}

/* pixman_gradient_walker_pixel_32 within segment s: premultiplied ARGB. */
static inline uint32_t gradfill_walk(const seg_t *s, int64_t x)
{
    float y = x * (1.0f / 65536.0f);
    float a = 255.f * (s->a_s * y + s->a_b);
    float r = a * (s->r_s * y + s->r_b);
    float g = a * (s->g_s * y + s->g_b);
    float b = a * (s->b_s * y + s->b_b);
    return (((uint32_t)(int32_t)(a + .5f) << 24) & 0xff000000u) |
           (((uint32_t)(int32_t)(r + .5f) << 16) & 0x00ff0000u) |
           (((uint32_t)(int32_t)(g + .5f) << 8) & 0x0000ff00u) |
           (((uint32_t)(int32_t)(b + .5f) >> 0) & 0x000000ffu);
}

#endif
