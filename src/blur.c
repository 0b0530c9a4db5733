/* blur.c - feGaussianBlur on premultiplied ARGB32 pixels: running-sum box
 * passes, or a true Gaussian kernel below s = 2 (blur.h says which and
 * how rounded). */
#include "blur.h"

#include <math.h>
#include <string.h>

#define GAUSS_MAX_R 6 /* ceil(3 s) for s < 2 */

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

/* One box pass over n pixels (4 channels each) from a to b: the window of
 * pixel i is [i - lo, i + hi], d = lo + hi + 1. */
static void box_pass(const uint32_t *restrict a, uint32_t *restrict b, int n, int lo, int hi)
{
    uint32_t d = (uint32_t)(lo + hi + 1), half = d / 2;
    /* (s + half) / d as a multiply and a shift: with m = floor(2^40 / d) + 1
     * the quotient is exact for every s + half < 2^40 / d, and s + half <
     * 256 d holds with d < 65536 (rf_blur_argb32 caps s) */
    uint64_t m = (UINT64_C(1) << 40) / d + 1;
    uint32_t m32 = (uint32_t)((UINT32_C(1) << 24) / d + 1); /* d < 256: see vbox */
#define DIV(v) (d < 256 ? ((v) + half) * m32 >> 24 : (uint32_t)(((uint64_t)(v) + half) * m >> 40))
    uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int j = 0; j < hi && j < n; j++) {
        s0 += a[4 * j];
        s1 += a[4 * j + 1];
        s2 += a[4 * j + 2];
        s3 += a[4 * j + 3];
    }
    for (int i = 0; i < n; i++) {
        int in = i + hi, out = i - lo;
        if (in < n) {
            s0 += a[4 * in];
            s1 += a[4 * in + 1];
            s2 += a[4 * in + 2];
            s3 += a[4 * in + 3];
        }
        b[4 * i] = DIV(s0);
        b[4 * i + 1] = DIV(s1);
        b[4 * i + 2] = DIV(s2);
        b[4 * i + 3] = DIV(s3);
        if (out >= 0) {
            s0 -= a[4 * out];
            s1 -= a[4 * out + 1];
            s2 -= a[4 * out + 2];
            s3 -= a[4 * out + 3];
        }
    }
#undef DIV
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

static void gauss_pass(const uint32_t *a, uint32_t *b, int n, int r, const uint32_t *wt)
{
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < 4; c++) {
            uint64_t acc = 32768;
            for (int k = -r; k <= r; k++) {
                int j = i + k;
                if (j >= 0 && j < n)
                    acc += (uint64_t)wt[k < 0 ? -k : k] * a[4 * j + c];
            }
            b[4 * i + c] = (uint32_t)(acc >> 16);
        }
    }
}

/* A box pass down the columns of w4 channels and h rows from a to b (row
 * strides as, bs); acc holds w4 sums. */
static void vbox(const uint8_t *restrict a, size_t as, uint8_t *restrict b, size_t bs, int w4,
                 int h, int lo, int hi, uint32_t *restrict acc)
{
    uint32_t d = (uint32_t)(lo + hi + 1), half = d / 2;
    uint64_t m = (UINT64_C(1) << 40) / d + 1; /* as in box_pass */
    /* with d < 256, m32 = floor(2^24 / d) + 1 is exact for s + half < 2^24 / d,
     * which 256 d bounds, and keeps the product below 2^32 */
    uint32_t m32 = (uint32_t)((UINT32_C(1) << 24) / d + 1);
    memset(acc, 0, (size_t)w4 * sizeof *acc);
    for (int j = 0; j < hi && j < h; j++)
        for (int c = 0; c < w4; c++)
            acc[c] += a[(size_t)j * as + (size_t)c];
    for (int y = 0; y < h; y++) {
        if (y + hi < h) {
            const uint8_t *in = a + (size_t)(y + hi) * as;
            for (int c = 0; c < w4; c++)
                acc[c] += in[c];
        }
        uint8_t *o = b + (size_t)y * bs;
        if (d < 256) /* the same quotient in 32 bits: (s + half) m32 < 2^32 */
            for (int c = 0; c < w4; c++)
                o[c] = (uint8_t)((acc[c] + half) * m32 >> 24);
        else
            for (int c = 0; c < w4; c++)
                o[c] = (uint8_t)(((uint64_t)acc[c] + half) * m >> 40);
        if (y - lo >= 0) {
            const uint8_t *out = a + (size_t)(y - lo) * as;
            for (int c = 0; c < w4; c++)
                acc[c] -= out[c];
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

/* Blurs one line of n pixels in a (result in a); b is scratch. */
static void blur_line(uint32_t *a, uint32_t *b, int n, int d, int gr, const uint32_t *wt)
{
    if (gr >= 0) {
        gauss_pass(a, b, n, gr, wt);
        memcpy(a, b, (size_t)n * 4 * sizeof *a);
        return;
    }
    if (d % 2) {
        box_pass(a, b, n, d / 2, d / 2);
        box_pass(b, a, n, d / 2, d / 2);
        box_pass(a, b, n, d / 2, d / 2);
    } else {
        box_pass(a, b, n, d / 2, d / 2 - 1);
        box_pass(b, a, n, d / 2 - 1, d / 2);
        box_pass(a, b, n, d / 2, d / 2);
    }
    memcpy(a, b, (size_t)n * 4 * sizeof *a);
}

void rf_blur_argb32(uint8_t *pix, int stride, int w, int h, double s, void *work)
{
    if (!(s > 0) || w <= 0 || h <= 0)
        return;
    int n = w > h ? w : h;
    uint32_t *a = work, *b = a + (size_t)n * 4;
    uint32_t wt[GAUSS_MAX_R + 1];
    int gr = -1, d = 0;
    if (s > 16384)
        s = 16384; /* d < 65536: box_pass's exact division */
    if (s < 2)
        gr = gauss_kernel(s, wt);
    else
        d = rf_blur_box_size(s);
    /* the channels by byte: the same bytes whatever the byte order */
    for (int y = 0; y < h; y++) {
        uint8_t *row = pix + (size_t)y * (size_t)stride;
        for (int i = 0; i < 4 * w; i++)
            a[i] = row[i];
        blur_line(a, b, w, d, gr, wt);
        for (int i = 0; i < 4 * w; i++)
            row[i] = (uint8_t)a[i];
    }
    /* the columns: the same passes down every column at once, a row at a
     * time (contiguous loops the compiler vectorizes), between pix and the
     * region buffer */
    uint8_t *t = (uint8_t *)(b + (size_t)n * 4);
    size_t ps = (size_t)stride, ts = (size_t)w * 4;
    int w4 = 4 * w;
    if (gr >= 0) {
        vgauss(pix, ps, t, ts, w4, h, gr, wt, a);
    } else if (d % 2) {
        vbox(pix, ps, t, ts, w4, h, d / 2, d / 2, a);
        vbox(t, ts, pix, ps, w4, h, d / 2, d / 2, a);
        vbox(pix, ps, t, ts, w4, h, d / 2, d / 2, a);
    } else {
        vbox(pix, ps, t, ts, w4, h, d / 2, d / 2 - 1, a);
        vbox(t, ts, pix, ps, w4, h, d / 2 - 1, d / 2, a);
        vbox(pix, ps, t, ts, w4, h, d / 2, d / 2, a);
    }
    for (int y = 0; y < h; y++)
        memcpy(pix + (size_t)y * ps, t + (size_t)y * ts, ts);
}
