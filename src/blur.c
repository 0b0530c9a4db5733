/* blur.c - feGaussianBlur on premultiplied ARGB32 pixels: running-sum box
 * passes, or a true Gaussian kernel below s = 2 (blur.h says which and
 * how rounded). */
#include "blur.h"

#include <math.h>
#include <string.h>

#define GAUSS_MAX_R 6 /* ceil(3 s) for s < 2 */

/* GCC on x86-64 builds the box pass twice, for AVX2 and for the baseline,
 * and picks one when the program loads: integer arithmetic, so the same
 * bytes either way (measured 1.5x on the blur; BENCHMARKS.md). Not under
 * ThreadSanitizer: the ifunc resolver runs at relocation, before its
 * runtime is up, and the instrumented resolver crashes (--enable-tsan). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__) && \
    !defined(__SANITIZE_THREAD__)
#define RF_BLUR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define RF_BLUR_CLONES
#endif

int rf_blur_box_size(double s)
{
    double d = floor(s * 3.0 * sqrt(2.0 * 3.14159265358979323846) / 4.0 + 0.5);
    return d < 1 ? 1 : d > 1e9 ? 1000000000 : (int)d;
}

int rf_blur_reach(double s)
{
    if (!(s > 0))
        return 0;
    double r = ceil(3.0 * s);
    return r > 1e9 ? 1000000000 : (int)r;
}

/* The Gaussian kernel of s < 2 as 16.16 weights summing to 65536; its
 * radius. */
static int gauss_kernel(double s, uint32_t *wt)
{
    int r = (int)ceil(3.0 * s);
    if (r > GAUSS_MAX_R)
        r = GAUSS_MAX_R;
    double w[GAUSS_MAX_R + 1], sum = 0;
    for (int k = 0; k <= r; k++) {
        w[k] = exp(-(double)(k * k) / (2.0 * s * s));
        sum += k == 0 ? w[k] : 2 * w[k];
    }
    uint32_t tot = 0;
    for (int k = 1; k <= r; k++) {
        wt[k] = (uint32_t)floor(65536.0 * w[k] / sum + 0.5);
        tot += 2 * wt[k];
    }
    wt[0] = 65536u - tot;
    return r;
}

/* A box pass down the columns of w4 channels and h rows from a to b (row
 * strides as, bs): one loop per row adds the row entering the window,
 * writes the mean and takes out the row leaving it (zero, w4 zero bytes,
 * stands for the rows past the ends); acc holds w4 sums. */
RF_BLUR_CLONES
static void vbox(const uint8_t *restrict a, size_t as, uint8_t *restrict b, size_t bs, int w4,
                 int h, int lo, int hi, uint32_t *restrict acc, const uint8_t *restrict zero)
{
    uint32_t d = (uint32_t)(lo + hi + 1), half = d / 2;
    uint64_t m = (UINT64_C(1) << 40) / d + 1;
    uint32_t m32 = (uint32_t)((UINT32_C(1) << 24) / d + 1);
    int wb = w4 & ~15; /* blocks of 16 channels: loops of a known count vectorize at -O2 */
    memset(acc, 0, (size_t)w4 * sizeof *acc);
    for (int j = 0; j < hi && j < h; j++)
        for (int c = 0; c < w4; c++)
            acc[c] += a[(size_t)j * as + (size_t)c];
    for (int y = 0; y < h; y++) {
        const uint8_t *in = y + hi < h ? a + (size_t)(y + hi) * as : zero;
        const uint8_t *out = y - lo >= 0 ? a + (size_t)(y - lo) * as : zero;
        uint8_t *o = b + (size_t)y * bs;
        if (d < 256) {
            for (int c0 = 0; c0 < wb; c0 += 16)
                for (int k = 0; k < 16; k++) {
                    uint32_t v = acc[c0 + k] + in[c0 + k];
                    o[c0 + k] = (uint8_t)((v + half) * m32 >> 24);
                    acc[c0 + k] = v - out[c0 + k];
                }
            for (int c = wb; c < w4; c++) {
                uint32_t v = acc[c] + in[c];
                o[c] = (uint8_t)((v + half) * m32 >> 24);
                acc[c] = v - out[c];
            }
        } else {
            for (int c = 0; c < w4; c++) {
                uint32_t v = acc[c] + in[c];
                o[c] = (uint8_t)(((uint64_t)v + half) * m >> 40);
                acc[c] = v - out[c];
            }
        }
    }
}

/* The Gaussian kernel down the columns, from a to b. */
static void vgauss(const uint8_t *restrict a, size_t as, uint8_t *restrict b, size_t bs, int w4,
                   int h, int r, const uint32_t *restrict wt, uint32_t *restrict acc)
{
    for (int y = 0; y < h; y++) {
        for (int c = 0; c < w4; c++)
            acc[c] = 32768;
        for (int k = -r; k <= r; k++) {
            if (y + k < 0 || y + k >= h)
                continue;
            const uint8_t *in = a + (size_t)(y + k) * as;
            uint32_t wk = wt[k < 0 ? -k : k];
            for (int c = 0; c < w4; c++)
                acc[c] += wk * in[c];
        }
        uint8_t *o = b + (size_t)y * bs;
        for (int c = 0; c < w4; c++)
            o[c] = (uint8_t)(acc[c] >> 16);
    }
}

/* The w x h pixels of bpp bytes (4 or 1) at src (rows ss bytes apart)
 * into dst transposed: dst row x (ds bytes apart) holds column x. In tiles
 * of 8 x 8 so both sides stay in cache. */
static void transpose(const uint8_t *restrict src, size_t ss, uint8_t *restrict dst, size_t ds,
                      int w, int h, int bpp)
{
    for (int y0 = 0; y0 < h; y0 += 8)
        for (int x0 = 0; x0 < w; x0 += 8) {
            int y1 = y0 + 8 < h ? y0 + 8 : h, x1 = x0 + 8 < w ? x0 + 8 : w;
            for (int y = y0; y < y1; y++) {
                const uint8_t *sr = src + (size_t)y * ss;
                if (bpp == 4)
                    for (int x = x0; x < x1; x++)
                        ((uint32_t *)(void *)(dst + (size_t)x * ds))[y] =
                            ((const uint32_t *)(const void *)sr)[x];
                else
                    for (int x = x0; x < x1; x++)
                        dst[(size_t)x * ds + (size_t)y] = sr[x];
            }
        }
}

/* Three box passes (or the Gaussian) down the columns of the rows at a:
 * a -> b -> a -> b. */
static void vpasses(uint8_t *a, size_t as, uint8_t *b, size_t bs, int w4, int h, int d, int gr,
                    const uint32_t *wt, uint32_t *acc, const uint8_t *zero)
{
    if (gr >= 0) {
        vgauss(a, as, b, bs, w4, h, gr, wt, acc);
    } else if (d % 2) {
        vbox(a, as, b, bs, w4, h, d / 2, d / 2, acc, zero);
        vbox(b, bs, a, as, w4, h, d / 2, d / 2, acc, zero);
        vbox(a, as, b, bs, w4, h, d / 2, d / 2, acc, zero);
    } else {
        vbox(a, as, b, bs, w4, h, d / 2, d / 2 - 1, acc, zero);
        vbox(b, bs, a, as, w4, h, d / 2 - 1, d / 2, acc, zero);
        vbox(a, as, b, bs, w4, h, d / 2, d / 2, acc, zero);
    }
}

/* The blur of w x h pixels of bpp bytes (4: ARGB32, 1: A8), every byte a
 * channel of its own. */
static void blur_bytes(uint8_t *pix, int stride, int w, int h, int bpp, double s, void *work)
{
    if (!(s > 0) || w <= 0 || h <= 0)
        return;
    int n = w > h ? w : h;
    uint32_t *acc = work;
    uint32_t wt[GAUSS_MAX_R + 1];
    int gr = -1, d = 0;
    if (s > 16384)
        s = 16384; /* d < 65536: vbox's exact division */
    if (s < 2)
        gr = gauss_kernel(s, wt);
    else
        d = rf_blur_box_size(s);
    uint8_t *t = (uint8_t *)(acc + (size_t)n * 4 * 2), *u = t + (size_t)w * (size_t)h * 4;
    /* a row of zeros (the second line of sums) for rows past the ends */
    uint8_t *zero = (uint8_t *)(acc + (size_t)n * 4);
    memset(zero, 0, (size_t)n * 4);
    size_t ps = (size_t)stride, rs = (size_t)w * (size_t)bpp, cs = (size_t)h * (size_t)bpp;
    /* the rows, as columns of the transposed region: t holds column x as
     * its row x */
    transpose(pix, ps, t, cs, w, h, bpp);
    vpasses(t, cs, u, cs, bpp * h, w, d, gr, wt, acc, zero);
    transpose(u, cs, pix, ps, h, w, bpp);
    /* the columns */
    vpasses(pix, ps, t, rs, bpp * w, h, d, gr, wt, acc, zero);
    for (int y = 0; y < h; y++)
        memcpy(pix + (size_t)y * ps, t + (size_t)y * rs, rs);
}

void rf_blur_argb32(uint8_t *pix, int stride, int w, int h, double s, void *work)
{
    blur_bytes(pix, stride, w, h, 4, s, work);
}

void rf_blur_a8(uint8_t *pix, int stride, int w, int h, double s, void *work)
{
    blur_bytes(pix, stride, w, h, 1, s, work);
}
