/* blur.h - the Gaussian blur of premultiplied ARGB32 pixels, as the W3C
 * Filter Effects specification says for feGaussianBlur: for a standard
 * deviation s >= 2, three successive box blurs of size
 * d = floor(s * 3 * sqrt(2 * pi) / 4 + 0.5) (d odd: three centered boxes;
 * d even: two boxes of size d centered on the left and the right pixel
 * boundary, then one of size d + 1 centered); below 2, a true Gaussian
 * kernel of radius ceil(3 s). Separable (rows, then columns), integer
 * arithmetic on each of the four channels, pixels outside the region count
 * as transparent black, so the same bytes on every machine.
 *
 * Owns: nothing but the caller's buffers. It never allocates: the caller
 * passes a work buffer of RF_BLUR_WORK(w, h) bytes (the renderer keeps one,
 * for its canvas). Every pass runs down columns, four rows at a time
 * across all of them (loops GCC vectorizes at -O2; each running sum is
 * loaded and stored once per four rows): for box sizes up to 256 with
 * 16-bit sums in blocks of 64 channels (AVX-512) or 32, the mean by a
 * high-half multiply where that reciprocal is exact (rf_blur_box_mean),
 * else 32-bit sums in blocks of 16; the rows are blurred as the columns
 * of a transposed copy (4 x 4 blocks in vector registers). On x86-64
 * each pass is built for AVX-512, AVX2 and the baseline, and the best the
 * CPU runs is called; RF_BLUR_ISA=avx2 or base in the environment caps it
 * (tests hold all three to the same bytes). Any number of threads may
 * blur their own pixels at once. Level 1 (tests/layering.test).
 *
 * Every box pass rounds its mean: out = (sum + d / 2) / d, with sum the
 * window's 8-bit values (tests/check_blur.c holds it to a Python
 * computation of the same formulas). Premultiplied inputs stay
 * premultiplied: a box mean of channels each <= alpha is <= alpha's mean,
 * and rounding is monotone. */
#ifndef RF_BLUR_H
#define RF_BLUR_H

#include <stddef.h>
#include <stdint.h>

/* The work buffer for regions of at most w x h pixels: two lines of
 * 4 max(w, h) + 64 32-bit sums, and two copies of the region with rows
 * padded to 64 bytes, each started on a 64-byte boundary (the 512 bytes
 * of slack), so no vector load or store straddles two cache lines. */
#define RF_BLUR_MAXWH(w, h) ((size_t)((w) > (h) ? (w) : (h)))
#define RF_BLUR_WORK(w, h)                                                                   \
    ((RF_BLUR_MAXWH(w, h) * 4u + 64u) * sizeof(uint32_t) * 2u +                             \
     ((size_t)(w) * (size_t)(h) * 4u + RF_BLUR_MAXWH(w, h) * 64u) * 2u + 512u)

/* The W3C box size d for standard deviation s >= 2. */
int rf_blur_box_size(double s);

/* How far (px) the blur of standard deviation s carries a pixel: 3 s,
 * rounded up (0 for s <= 0 or NaN). */
int rf_blur_reach(double s);

/* The mean a box pass of size d writes for a window sum v (0 <= v <= 255
 * d): (v + d / 2) / d, as the pass computes it (its 16-bit reciprocal
 * where that is exact, tests/check_blur.c checks every d and v). */
unsigned rf_blur_box_mean(unsigned d, unsigned v);

/* Blurs the w x h ARGB32 pixels at pix (rows stride bytes apart) in place
 * with standard deviation s (nothing for s <= 0 or NaN; at most 16384, which
 * keeps d below 65536 for the exact integer division); work holds
 * RF_BLUR_WORK(w, h) bytes (or more: those of a larger region). */
void rf_blur_argb32(uint8_t *pix, int stride, int w, int h, double s, void *work);

/* The same blur of w x h A8 (alpha only) pixels: a shadow's, a quarter of
 * the work; work as for rf_blur_argb32. */
void rf_blur_a8(uint8_t *pix, int stride, int w, int h, double s, void *work);

#endif
